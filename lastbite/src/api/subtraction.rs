//! `subtraction` commands: self-interest cumulative subtraction games, see
//! [`crate::games::subtraction`].

use std::collections::{BTreeMap, HashSet};
use std::io::{self, BufRead, Write};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::dinner::request;
use super::sweep::{self, Sweep};
use super::{Control, Error, Render};
use crate::engine::Progress;
use crate::games::subtraction::analysis::{
    check_one, statement_rulesets, Family, ProblemRecord, ScanRecord, Statement, DEVIATIONS,
    PROBLEM5,
};
use crate::games::subtraction::{
    figures, find_period, first_discrepancy, first_zero_sum_discrepancy, outcome_at, parse_heap,
    Convention, Derivation, Ruleset, SubtractionError, Table,
};

/// The largest heap up to which periods are searched by default.
pub const DEFAULT_LIMIT: u64 = 1 << 24;

fn ruleset(s: &str) -> Result<Ruleset, Error> {
    s.parse::<Ruleset>()
        .map_err(|e| Error::invalid("set", s, e))
}

/// One convention's cell of a table row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Cell {
    /// The outcome `(Alice, Bob)`.
    pub outcome: [u64; 2],
    /// The PSPE moves.
    pub moves: Vec<u64>,
}

/// One heap of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct TableRow {
    /// The heap.
    pub heap: u64,
    /// Both friendly.
    pub FvF: Cell,
    /// Alice friendly, Bob antagonistic.
    pub FvA: Cell,
    /// Alice antagonistic, Bob friendly.
    pub AvF: Cell,
    /// Both antagonistic.
    pub AvA: Cell,
    /// The zero-sum score (Alice minus Bob).
    pub zero_sum: i64,
}

request! {
    /// `subtraction table`: every heap up to `max_heap` under all four conventions.
    TableRequest {
        /// The subtraction set, e.g. `"4,5,9"`.
        set: String = String::new(),
        /// The largest heap listed.
        max_heap: u64 = 99,
    }
}

/// The report of `subtraction table`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TableReport {
    /// The set.
    pub set: Vec<u64>,
    /// One row per heap.
    pub rows: Vec<TableRow>,
}

/// Tabulates outcomes and PSPE moves.
pub fn table(req: &TableRequest, _ctl: &Control) -> Result<TableReport, Error> {
    let set = ruleset(&req.set)?;
    let t = Table::compute(&set, req.max_heap)?;
    let cell = |x: Convention, h: u64| {
        let (a, b) = t.outcome(x, h);
        Cell {
            outcome: [a, b],
            moves: t.moves(x, h),
        }
    };
    Ok(TableReport {
        set: set.elements().to_vec(),
        rows: (0..=req.max_heap)
            .map(|h| TableRow {
                heap: h,
                FvF: cell(Convention::FvF, h),
                FvA: cell(Convention::FvA, h),
                AvF: cell(Convention::AvF, h),
                AvA: cell(Convention::AvA, h),
                zero_sum: t.zero_sum(h),
            })
            .collect(),
    })
}

impl TableRow {
    fn cells(&self) -> [&Cell; 4] {
        [&self.FvF, &self.FvA, &self.AvF, &self.AvA]
    }
}

fn moves_text(m: &[u64], sep: &str) -> String {
    m.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

impl TableReport {
    /// The table as CSV.
    pub fn write_csv(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "heap,FvF_1,FvF_2,FvF_moves,FvA_1,FvA_2,FvA_moves,AvF_1,AvF_2,AvF_moves,AvA_1,AvA_2,AvA_moves,zero_sum")?;
        for r in &self.rows {
            write!(w, "{}", r.heap)?;
            for c in r.cells() {
                write!(
                    w,
                    ",{},{},{}",
                    c.outcome[0],
                    c.outcome[1],
                    moves_text(&c.moves, " ")
                )?;
            }
            writeln!(w, ",{}", r.zero_sum)?;
        }
        Ok(())
    }
}

impl Render for TableReport {
    /// The paper's layout: outcome and moves per convention, deviations from FvF.
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "S = {{{}}}", moves_text(&self.set, ","))?;
        writeln!(
            w,
            "{:>6}  {:<18} {:<18} {:>3} {:>3}  {:<18} {:>3} {:>3}  {:<18} {:>3} {:>3}  {:>5}",
            "heap", "FvF", "FvA", "da", "db", "AvF", "da", "db", "AvA", "da", "db", "zs"
        )?;
        for r in &self.rows {
            let text = |c: &Cell| {
                let [p, q] = c.outcome;
                if c.moves.is_empty() {
                    format!("({p},{q})")
                } else {
                    format!("({p},{q}), {}", moves_text(&c.moves, ","))
                }
            };
            let base = r.FvF.outcome;
            let delta = |c: &Cell| {
                (
                    c.outcome[0] as i64 - base[0] as i64,
                    c.outcome[1] as i64 - base[1] as i64,
                )
            };
            let (fa, fb) = delta(&r.FvA);
            let (aa, ab) = delta(&r.AvF);
            let (va, vb) = delta(&r.AvA);
            writeln!(
                w,
                "{:>6}  {:<18} {:<18} {fa:>3} {fb:>3}  {:<18} {aa:>3} {ab:>3}  {:<18} {va:>3} {vb:>3}  {:>5}",
                r.heap,
                text(&r.FvF),
                text(&r.FvA),
                text(&r.AvF),
                text(&r.AvA),
                r.zero_sum
            )?;
        }
        Ok(())
    }
}

request! {
    /// `subtraction outcome`: one heap under one convention, any heap below 2^128.
    OutcomeRequest {
        /// The subtraction set.
        set: String = String::new(),
        /// The heap (decimal text, any non-negative integer below 2^128).
        heap: String = String::new(),
        /// FvF, FvA, AvF or AvA (Alice's convention first).
        convention: String = "FvF".into(),
        /// Largest heap to search for the period when the heap is beyond the table.
        limit: u64 = DEFAULT_LIMIT,
        /// Also list every legal move with the outcome it leads to under PSPE play.
        explain: bool = false,
    }
}

/// One legal move at the heap and its PSPE consequence ([`OutcomeRequest::explain`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MoveOption {
    /// The amount taken (an element of S).
    pub take: u64,
    /// The heap left to the other player.
    pub heap_after: u128,
    /// The outcome `(Alice, Bob)` of the whole game when Alice takes this and both then
    /// play the PSPE of their conventions: Alice's take plus what she gets as the second
    /// player of the heap left, and Bob's part of it.
    pub outcome: [u128; 2],
    /// Whether it maximises Alice's own payoff.
    pub best_for_mover: bool,
    /// Whether it is a PSPE move (best for Alice, and among those the one her convention
    /// picks for Bob's payoff).
    pub pspe: bool,
}

/// How an outcome was derived.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum DerivationReport {
    /// Read from the table.
    Direct,
    /// By the certified periodic formula.
    Periodic {
        /// The heap in the table it reduces to.
        reduced_heap: u64,
        /// Periods added (decimal text: may exceed 64 bits).
        periods: String,
        /// The pre-period h0.
        preperiod: u64,
        /// The period p.
        period: u64,
        /// The increment c per period.
        increment: u64,
    },
}

/// The report of `subtraction outcome`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OutcomeReport {
    /// The set.
    pub set: Vec<u64>,
    /// The heap.
    pub heap: u128,
    /// The convention.
    pub convention: &'static str,
    /// The outcome `(Alice, Bob)`.
    pub outcome: [u128; 2],
    /// The PSPE moves.
    pub moves: Vec<u64>,
    /// How it was obtained.
    pub derivation: DerivationReport,
    /// With `explain`: every legal move (each element of S up to the heap) and its
    /// consequence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<MoveOption>>,
}

/// The outcome of one heap.
pub fn outcome(req: &OutcomeRequest, _ctl: &Control) -> Result<OutcomeReport, Error> {
    let set = ruleset(&req.set)?;
    let heap = parse_heap(&req.heap).map_err(|e| Error::invalid("heap", &req.heap, e))?;
    let x: Convention = req
        .convention
        .parse()
        .map_err(|e| Error::invalid("convention", &req.convention, e))?;
    let (found, table) = if heap < 1 << 16 {
        (None, Table::compute(&set, heap as u64)?)
    } else {
        let (p, t) = find_period(&set, req.limit)?;
        (Some(p), t)
    };
    let o = outcome_at(&table, found.as_ref(), x, heap)?;
    let options = if req.explain {
        // Each move leaves heap h - s to Bob, who then moves first under the dual
        // convention (his own first): Alice's payoff is s plus his opponent's share there.
        let mut lines = Vec::new();
        for &s in set.elements().iter().filter(|&&s| s as u128 <= heap) {
            let child = outcome_at(&table, found.as_ref(), x.dual(), heap - s as u128)?;
            let mine = (s as u128)
                .checked_add(child.outcome.1)
                .ok_or_else(|| SubtractionError::Overflow(heap.to_string()))?;
            lines.push(MoveOption {
                take: s,
                heap_after: heap - s as u128,
                outcome: [mine, child.outcome.0],
                best_for_mover: mine == o.outcome.0,
                pspe: o.moves.contains(&s),
            });
        }
        Some(lines)
    } else {
        None
    };
    let derivation = match o.derivation {
        Derivation::Direct => DerivationReport::Direct,
        Derivation::Periodic { reduced, periods } => {
            let per = found.as_ref().expect("periodic implies a period");
            DerivationReport::Periodic {
                reduced_heap: reduced,
                periods: periods.to_string(),
                preperiod: per.preperiod,
                period: per.period,
                increment: per.increment,
            }
        }
    };
    Ok(OutcomeReport {
        set: set.elements().to_vec(),
        heap,
        convention: x.name(),
        outcome: [o.outcome.0, o.outcome.1],
        moves: o.moves,
        derivation,
        options,
    })
}

impl Render for OutcomeReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "S = {{{}}}, heap {}, {}: outcome ({}, {}), PSPE moves {{{}}}",
            moves_text(&self.set, ","),
            self.heap,
            self.convention,
            self.outcome[0],
            self.outcome[1],
            moves_text(&self.moves, ",")
        )?;
        if let DerivationReport::Periodic {
            reduced_heap,
            periods,
            period,
            increment,
            ..
        } = &self.derivation
        {
            writeln!(
                w,
                "  by periodicity: heap {reduced_heap} + {periods} x {period} (each period adds {increment} to both players)"
            )?;
        }
        for o in self.options.iter().flatten() {
            writeln!(
                w,
                "  take {:>3} -> heap {}: outcome ({}, {}){}",
                o.take,
                o.heap_after,
                o.outcome[0],
                o.outcome[1],
                if o.pspe {
                    "  PSPE"
                } else if o.best_for_mover {
                    "  best for Alice, not her convention's pick"
                } else {
                    ""
                }
            )?;
        }
        Ok(())
    }
}

request! {
    /// `subtraction period`: pre-period, period, increment and first discrepancies.
    PeriodRequest {
        /// The subtraction set.
        set: String = String::new(),
        /// Largest heap to search for the period.
        limit: u64 = DEFAULT_LIMIT,
    }
}

/// The first heap of each discrepancy, or null for never.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct Discrepancies {
    /// FvF vs AvA.
    pub FvF_AvA: Option<u64>,
    /// FvF vs FvA.
    pub FvF_FvA: Option<u64>,
    /// FvF vs AvF.
    pub FvF_AvF: Option<u64>,
    /// AvA vs FvA.
    pub AvA_FvA: Option<u64>,
    /// AvA vs AvF.
    pub AvA_AvF: Option<u64>,
    /// AvA vs the zero-sum game.
    pub AvA_zero_sum: Option<u64>,
}

/// The report of `subtraction period`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PeriodReport {
    /// The set.
    pub set: Vec<u64>,
    /// The pre-period h0.
    pub preperiod: u64,
    /// The period p.
    pub period: u64,
    /// The increment c.
    pub increment: u64,
    /// The window `[a, b)` on which the certificate was checked.
    pub certificate_window: [u64; 2],
    /// The first discrepancies.
    pub first_discrepancy: Discrepancies,
}

/// Finds the certified period.
pub fn period(req: &PeriodRequest, _ctl: &Control) -> Result<PeriodReport, Error> {
    let set = ruleset(&req.set)?;
    let (p, t) = find_period(&set, req.limit)?;
    let disc = |x, y| first_discrepancy(&t, &p, x, y);
    use Convention::*;
    Ok(PeriodReport {
        set: set.elements().to_vec(),
        preperiod: p.preperiod,
        period: p.period,
        increment: p.increment,
        certificate_window: [p.window.0, p.window.1],
        first_discrepancy: Discrepancies {
            FvF_AvA: disc(FvF, AvA),
            FvF_FvA: disc(FvF, FvA),
            FvF_AvF: disc(FvF, AvF),
            AvA_FvA: disc(AvA, FvA),
            AvA_AvF: disc(AvA, AvF),
            AvA_zero_sum: first_zero_sum_discrepancy(&t, &p),
        },
    })
}

impl Render for PeriodReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let set = moves_text(&self.set, ",");
        writeln!(
            w,
            "S = {{{set}}}: pre-period h0 = {}, period p = {}, increment c = {}",
            self.preperiod, self.period, self.increment
        )?;
        writeln!(
            w,
            "certificate: o_X(h + {p}) = o_X(h) + ({c}, {c}) for every convention and o_zs(h + {p}) = o_zs(h) on [{}, {}), hence for all h >= {}",
            self.certificate_window[0],
            self.certificate_window[1],
            self.preperiod,
            p = self.period,
            c = self.increment
        )?;
        let d = &self.first_discrepancy;
        let show = |v: Option<u64>| v.map_or("never".to_string(), |h| format!("heap {h}"));
        for (name, v) in [
            ("FvF vs AvA", d.FvF_AvA),
            ("FvF vs FvA", d.FvF_FvA),
            ("FvF vs AvF", d.FvF_AvF),
            ("AvA vs FvA", d.AvA_FvA),
            ("AvA vs AvF", d.AvA_AvF),
        ] {
            writeln!(w, "first {name} discrepancy: {}", show(v))?;
        }
        writeln!(
            w,
            "first AvA vs zero-sum discrepancy: {}",
            show(d.AvA_zero_sum)
        )
    }
}

request! {
    /// `subtraction scan`: sweep families of rulesets, resumable through `out`.
    ScanRequest {
        /// All pairs s2 < s1 <= N.
        pairs: Option<u64> = None,
        /// All triples s3 < s2 < s1 <= N.
        triples: Option<u64> = None,
        /// All sets (or random sets) of this size ...
        size: Option<usize> = None,
        /// ... with largest element at most this.
        max: Option<u64> = None,
        /// Draw this many random sets instead of all of them.
        random: Option<u64> = None,
        /// Seed of the random sets.
        seed: u64 = 1,
        /// Append records to this file (JSON lines, or CSV when it ends in .csv);
        /// rulesets already in it are skipped, so an interrupted sweep resumes.
        out: Option<String> = None,
        /// CSV records instead of JSON lines (without `out`).
        csv: bool = false,
        /// Largest heap to search for each period.
        limit: u64 = DEFAULT_LIMIT,
    }
}

/// A deviation's largest gain and the smallest heap attaining it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Gain {
    /// The deviator's largest change of utility (positive: the deviation pays).
    pub gain: i64,
    /// The smallest heap attaining it.
    pub heap: u64,
}

/// One ruleset's record (one line of the JSON lines output).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct ScanLine {
    /// The set.
    pub set: Vec<u64>,
    /// The pre-period.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// The increment.
    pub increment: u64,
    /// First FvF/AvA discrepancy.
    pub first_FvF_AvA: Option<u64>,
    /// First AvA/zero-sum discrepancy.
    pub first_AvA_zero_sum: Option<u64>,
    /// Each unilateral deviation's gain, by name.
    pub deviation_gains: BTreeMap<String, Gain>,
    #[serde(skip)]
    #[schemars(skip)]
    csv: String,
}

impl From<&ScanRecord> for ScanLine {
    fn from(r: &ScanRecord) -> ScanLine {
        ScanLine {
            set: r.set.elements().to_vec(),
            preperiod: r.period.preperiod,
            period: r.period.period,
            increment: r.period.increment,
            first_FvF_AvA: r.first_fvf_ava,
            first_AvA_zero_sum: r.first_ava_zero_sum,
            deviation_gains: DEVIATIONS
                .iter()
                .zip(r.deviation_gains)
                .map(|((name, _), (gain, heap))| (name.to_string(), Gain { gain, heap }))
                .collect(),
            csv: r.to_csv(),
        }
    }
}

/// The report of `subtraction scan`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ScanReport {
    /// Rulesets analysed by this call.
    pub analysed: u64,
    /// Rulesets found already done in `out`.
    pub already_done: u64,
    /// The records (without `out`; with it they are in the file).
    pub records: Vec<ScanLine>,
    /// Whether the records are CSV.
    pub csv: bool,
}

impl ScanReport {
    /// The records as JSON lines or CSV (with its header), as `scan` prints them.
    pub fn write_lines(&self, w: &mut dyn Write) -> io::Result<()> {
        if self.csv {
            writeln!(w, "{}", ScanRecord::csv_header())?;
        }
        for r in &self.records {
            if self.csv {
                writeln!(w, "{}", r.csv)?;
            } else {
                serde_json::to_writer(&mut *w, r)?;
                w.write_all(b"\n")?;
            }
        }
        Ok(())
    }
}

impl Render for ScanReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        self.write_lines(w)
    }
}

/// The key of a finished record in an output file: the set's elements.
fn done_key(line: &str, csv: bool) -> Option<String> {
    if csv {
        let k = line.split(',').next()?.trim();
        (!k.is_empty() && k.bytes().all(|b| b.is_ascii_digit() || b == b' ')).then(|| k.to_string())
    } else {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        let set: Vec<u64> = serde_json::from_value(v.get("set")?.clone()).ok()?;
        Some(moves_text(&set, " "))
    }
}

/// Reads the finished records of an output file, first cutting a torn last line (a run
/// killed mid-write) back to the last complete one; that ruleset is simply analysed again.
fn resume(path: &str, csv: bool) -> Result<HashSet<String>, Error> {
    let io = |e: io::Error| Error::Io {
        action: "resume",
        path: path.to_string(),
        message: e.to_string(),
    };
    let mut done = HashSet::new();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(io(e)),
    };
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep < bytes.len() {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(keep as u64))
            .map_err(io)?;
    }
    for line in bytes[..keep].lines() {
        let line = line.map_err(io)?;
        if let Some(k) = done_key(&line, csv) {
            done.insert(k);
        }
    }
    Ok(done)
}

/// `subtraction scan` without `out`, as a sweep: one item per ruleset, its record.
pub struct ScanSweep;

/// The records of some rulesets, by item number.
#[derive(Default, Serialize, Deserialize)]
pub struct ScanPartial(Vec<(u64, ScanLine, String)>);

impl Sweep for ScanSweep {
    const COMMAND: &'static str = "subtraction-scan";
    type Request = ScanRequest;
    type Plan = Vec<Ruleset>;
    type Partial = ScanPartial;
    type Report = ScanReport;

    fn plan(req: &ScanRequest) -> Result<Vec<Ruleset>, Error> {
        if req.out.is_some() {
            return Err(Error::combination(
                "out",
                "a sweep in shards keeps its records in the shard documents; leave out `out`",
            ));
        }
        Ok(scan_family(req)?.rulesets()?)
    }
    fn items(plan: &Vec<Ruleset>) -> u64 {
        plan.len() as u64
    }
    fn item(req: &ScanRequest, plan: &Vec<Ruleset>, item: u64) -> Result<ScanPartial, Error> {
        let r = ScanRecord::new(&plan[item as usize], req.limit)?;
        let line = ScanLine::from(&r);
        let csv = line.csv.clone();
        Ok(ScanPartial(vec![(item, line, csv)]))
    }
    fn merge(into: &mut ScanPartial, other: ScanPartial) {
        into.0.extend(other.0);
        into.0.sort_unstable_by_key(|r| r.0);
    }
    fn report(
        req: &ScanRequest,
        _plan: &Vec<Ruleset>,
        all: ScanPartial,
        _ctl: &Control,
    ) -> Result<ScanReport, Error> {
        Ok(ScanReport {
            analysed: all.0.len() as u64,
            already_done: 0,
            records: all
                .0
                .into_iter()
                .map(|(_, mut line, csv)| {
                    line.csv = csv;
                    line
                })
                .collect(),
            csv: req.csv,
        })
    }
}

/// The family of rulesets a scan request names.
fn scan_family(req: &ScanRequest) -> Result<Family, Error> {
    Ok(match (req.pairs, req.triples, req.size, req.max, req.random) {
        (Some(_), Some(_), _, _, _) | (Some(_), _, Some(_), _, _) | (_, Some(_), Some(_), _, _) => {
            return Err(Error::combination(
                "pairs",
                "choose one family: pairs, triples, or a size",
            ))
        }
        (Some(n), _, _, _, _) => Family::All { size: 2, max: n },
        (_, Some(n), _, _, _) => Family::All { size: 3, max: n },
        (_, _, Some(size), Some(max), None) => Family::All { size, max },
        (_, _, Some(size), Some(max), Some(count)) => Family::Random {
            size,
            max,
            count,
            seed: req.seed,
        },
        _ => return Err(Error::Missing {
            field: "pairs",
            what: "rulesets",
            hint:
                "choose the rulesets: pairs N, triples N, or size K with max M (and random COUNT)"
                    .into(),
        }),
    })
}

/// Sweeps a family of rulesets in parallel. With `out`, records are appended to the file
/// chunk by chunk (each chunk flushed and synced), so a killed sweep loses at most the
/// chunk in flight and resumes where it stopped; otherwise they come back in the report.
pub fn scan(req: &ScanRequest, ctl: &Control) -> Result<ScanReport, Error> {
    use crate::par::prelude::*;
    if req.out.is_none() {
        return sweep::run::<ScanSweep>(req, ctl);
    }
    let sets = scan_family(req)?.rulesets()?;
    let csv = req.out.as_deref().map_or(req.csv, |p| p.ends_with(".csv"));
    let done = match &req.out {
        Some(path) => resume(path, csv)?,
        None => HashSet::new(),
    };
    let key = |s: &Ruleset| moves_text(s.elements(), " ");
    let todo: Vec<Ruleset> = sets
        .into_iter()
        .filter(|s| !done.contains(&key(s)))
        .collect();
    let mut file = match &req.out {
        Some(path) => {
            let io = |e: io::Error| Error::Io {
                action: "read",
                path: path.clone(),
                message: e.to_string(),
            };
            let fresh = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(io)?;
            if fresh && csv {
                writeln!(f, "{}", ScanRecord::csv_header()).map_err(io)?;
            }
            Some((f, io))
        }
        None => None,
    };
    let mut records = Vec::new();
    ctl.start(todo.len() as u64, "rulesets");
    for chunk in todo.chunks(2048) {
        if ctl.cancelled() {
            ctl.finish();
            return Err(Error::Cancelled);
        }
        let lines: Vec<Result<ScanLine, _>> = chunk
            .par_iter()
            .map(|s| {
                let r = ScanRecord::new(s, req.limit).map(|r| ScanLine::from(&r));
                ctl.advance(1);
                r
            })
            .collect();
        let lines = lines.into_iter().collect::<Result<Vec<_>, _>>()?;
        match &mut file {
            Some((f, io)) => {
                // One write per chunk of whole lines: a kill tears at most the last line,
                // which `resume` cuts.
                let mut buf = Vec::new();
                for l in &lines {
                    if csv {
                        writeln!(buf, "{}", l.csv).expect("memory");
                    } else {
                        serde_json::to_writer(&mut buf, l).expect("memory");
                        buf.push(b'\n');
                    }
                }
                f.write_all(&buf).map_err(&*io)?;
                f.sync_data().map_err(&*io)?;
            }
            None => records.extend(lines),
        }
    }
    ctl.finish();
    Ok(ScanReport {
        analysed: todo.len() as u64,
        already_done: done.len() as u64,
        records,
        csv,
    })
}

request! {
    /// `subtraction conjecture`: check a conjecture or problem of the paper.
    ConjectureRequest {
        /// 4, 11, 12, 13, 14, 15, 16, 17, p2, p3 or p6 (also as `conjecture`, and a
        /// conjecture's number as a JSON number).
        #[serde(alias = "conjecture", deserialize_with = "text_or_number")]
        statement: String = String::new(),
        /// Set sizes to check (statements about pairs or triples use theirs).
        sizes: Vec<usize> = vec![2],
        /// Largest element.
        max: u64 = 30,
        /// Largest heap to search for each period.
        limit: u64 = DEFAULT_LIMIT,
    }
}

/// A statement named by text (`"p6"`) or by a conjecture's number (`4`).
fn text_or_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Name {
        Text(String),
        Number(u64),
    }
    Ok(match Name::deserialize(d)? {
        Name::Text(t) => t,
        Name::Number(n) => n.to_string(),
    })
}

/// The smallest counterexample.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct Counterexample {
    /// The set.
    pub set: Vec<u64>,
    /// The heap, if the statement is about one.
    pub heap: Option<u64>,
    /// What it shows.
    pub detail: String,
    /// The four outcomes at the heap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub FvF: Option<[u64; 2]>,
    /// FvA.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub FvA: Option<[u64; 2]>,
    /// AvF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub AvF: Option<[u64; 2]>,
    /// AvA.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub AvA: Option<[u64; 2]>,
    /// The zero-sum score at the heap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zero_sum: Option<i64>,
}

/// The largest pre-period seen.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LargestPreperiod {
    /// Its set.
    pub set: Vec<u64>,
    /// The pre-period.
    pub preperiod: u64,
}

/// The report of `subtraction conjecture`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ConjectureReport {
    /// The statement as given.
    pub statement: String,
    /// holds, fails, or data (Problem 3).
    pub verdict: &'static str,
    /// The range checked, in words.
    pub range: String,
    /// Rulesets checked.
    pub rulesets: u64,
    /// Rulesets the hypothesis covers.
    pub applicable: u64,
    /// The smallest counterexample, or null.
    pub counterexample: Option<Counterexample>,
    /// The largest pre-period (Problem 3), or null.
    pub largest_preperiod: Option<LargestPreperiod>,
    /// Every counterexample, smallest first (by largest element, then
    /// lexicographically), with its first failing heap.
    pub counterexamples: Vec<CounterexampleAt>,
}

/// One counterexample of a sweep: the set and the first heap where the statement fails.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CounterexampleAt {
    /// The set.
    pub set: Vec<u64>,
    /// The heap, if the statement is about one.
    pub heap: Option<u64>,
}

/// `subtraction conjecture` as a sweep: one item per ruleset, smallest first.
pub struct ConjectureSweep;

/// What a conjecture sweep checks.
pub struct ConjecturePlan {
    statement: Statement,
    sets: Vec<Ruleset>,
}

/// The folded checks of some rulesets.
#[derive(Default, Serialize, Deserialize)]
pub struct ConjecturePartial {
    rulesets: u64,
    applicable: u64,
    /// `(item, heap, what it shows)`, by item.
    counterexamples: Vec<(u64, Option<u64>, String)>,
    /// `(pre-period, item)`: the largest, the first item among equals.
    largest_preperiod: Option<(u64, u64)>,
}

impl Sweep for ConjectureSweep {
    const COMMAND: &'static str = "subtraction-conjecture";
    type Request = ConjectureRequest;
    type Plan = ConjecturePlan;
    type Partial = ConjecturePartial;
    type Report = ConjectureReport;

    fn plan(req: &ConjectureRequest) -> Result<ConjecturePlan, Error> {
        let statement = Statement::parse(&req.statement)
            .map_err(|e| Error::invalid("statement", &req.statement, e))?;
        if req.sizes.is_empty() || req.sizes.contains(&0) {
            return Err(Error::invalid(
                "sizes",
                format!("{:?}", req.sizes),
                "give set sizes of at least 1",
            ));
        }
        let sets = statement_rulesets(statement, &req.sizes, req.max)?;
        Ok(ConjecturePlan { statement, sets })
    }
    fn items(plan: &ConjecturePlan) -> u64 {
        plan.sets.len() as u64
    }
    fn item(
        req: &ConjectureRequest,
        plan: &ConjecturePlan,
        item: u64,
    ) -> Result<ConjecturePartial, Error> {
        let (applies, found, h0) = check_one(plan.statement, &plan.sets[item as usize], req.limit)?;
        Ok(ConjecturePartial {
            rulesets: 1,
            applicable: applies as u64,
            counterexamples: found.map(|(h, why)| (item, h, why)).into_iter().collect(),
            largest_preperiod: Some((h0, item)),
        })
    }
    fn merge(into: &mut ConjecturePartial, other: ConjecturePartial) {
        into.rulesets += other.rulesets;
        into.applicable += other.applicable;
        into.counterexamples.extend(other.counterexamples);
        into.counterexamples.sort_unstable_by_key(|c| c.0);
        into.largest_preperiod = sweep::max_first(into.largest_preperiod, other.largest_preperiod);
    }
    fn report(
        req: &ConjectureRequest,
        plan: &ConjecturePlan,
        all: ConjecturePartial,
        _ctl: &Control,
    ) -> Result<ConjectureReport, Error> {
        let statement = plan.statement;
        let sizes = statement.sizes().map_or(
            req.sizes
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(" or "),
            |k| k.to_string(),
        );
        let range = format!(
            "every ruleset of size {sizes} with largest element <= {}",
            req.max
        );
        let verdict = match (all.counterexamples.is_empty(), statement) {
            (true, Statement::P3) => "data",
            (true, _) => "holds",
            (false, _) => "fails",
        };
        let set_of = |item: u64| &plan.sets[item as usize];
        let counterexample = all.counterexamples.first().map(|(item, heap, why)| {
            let set = set_of(*item);
            let mut c = Counterexample {
                set: set.elements().to_vec(),
                heap: *heap,
                detail: why.clone(),
                FvF: None,
                FvA: None,
                AvF: None,
                AvA: None,
                zero_sum: None,
            };
            if let Some(h) = heap {
                if let Ok(t) = Table::compute(set, *h) {
                    let o = |x| {
                        let (a, b) = t.outcome(x, *h);
                        Some([a, b])
                    };
                    c.FvF = o(Convention::FvF);
                    c.FvA = o(Convention::FvA);
                    c.AvF = o(Convention::AvF);
                    c.AvA = o(Convention::AvA);
                    c.zero_sum = Some(t.zero_sum(*h));
                }
            }
            c
        });
        Ok(ConjectureReport {
            statement: req.statement.clone(),
            verdict,
            range,
            rulesets: all.rulesets,
            applicable: all.applicable,
            counterexample,
            largest_preperiod: all.largest_preperiod.map(|(h0, item)| LargestPreperiod {
                set: set_of(item).elements().to_vec(),
                preperiod: h0,
            }),
            counterexamples: all
                .counterexamples
                .iter()
                .map(|(item, heap, _)| CounterexampleAt {
                    set: set_of(*item).elements().to_vec(),
                    heap: *heap,
                })
                .collect(),
        })
    }
}

/// Checks a statement on every ruleset of the given sizes, listing every counterexample
/// ([`ConjectureSweep`]).
pub fn conjecture(req: &ConjectureRequest, ctl: &Control) -> Result<ConjectureReport, Error> {
    sweep::run::<ConjectureSweep>(req, ctl)
}

impl Render for ConjectureReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} {}: {} on {} ({} rulesets, {} covered by the hypothesis)",
            if self.statement.starts_with('p') {
                "Problem"
            } else {
                "Conjecture"
            },
            self.statement.trim_start_matches('p'),
            self.verdict,
            self.range,
            self.rulesets,
            self.applicable
        )?;
        if let Some(c) = &self.counterexample {
            writeln!(
                w,
                "smallest counterexample: S = {{{}}}{}: {}",
                moves_text(&c.set, ","),
                c.heap.map_or(String::new(), |h| format!(", heap {h}")),
                c.detail
            )?;
        }
        if let Some(l) = &self.largest_preperiod {
            writeln!(
                w,
                "largest pre-period: {} for S = {{{}}} (max S = {})",
                l.preperiod,
                moves_text(&l.set, ","),
                l.set.last().copied().unwrap_or(0)
            )?;
        }
        Ok(())
    }
}

request! {
    /// `subtraction problems`: the data of Problems 1, 4 and 5 (Section 6) on every ruleset
    /// of the given sizes.
    ProblemsRequest {
        /// Set sizes, each once.
        sizes: Vec<usize> = vec![2],
        /// Largest element.
        max: u64 = 30,
        /// Largest heap to search for each period.
        limit: u64 = DEFAULT_LIMIT,
    }
}

/// Problem 1 on the rulesets of one size and one largest element.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct ProblemsRow {
    /// The set size.
    pub size: usize,
    /// The largest element, max S.
    pub max_s: u64,
    /// Rulesets of this size with this largest element.
    pub rulesets: u64,
    /// Problem 1: the largest discrepancy FvF -> AvA in absolute value over these
    /// rulesets, every heap and both players (0: none).
    pub largest: u64,
    /// Where it is attained first (smallest ruleset, then heap), or null when 0.
    pub largest_at: Option<LargestDiscrepancy>,
    /// Problem 4: rulesets without any FvF/AvA discrepancy.
    pub zero_discrepancy: u64,
    /// Problem 5: rulesets with a positive discrepancy going from FvF to AvF.
    pub positive_FvF_to_AvF: u64,
    /// Problem 5: rulesets with a positive discrepancy going from FvF to FvA.
    pub positive_FvF_to_FvA: u64,
}

/// Where a largest discrepancy is attained.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct LargestDiscrepancy {
    /// The set.
    pub set: Vec<u64>,
    /// The smallest heap attaining it.
    pub heap: u64,
    /// The player (1 Alice, who starts; 2 Bob).
    pub player: u8,
    /// The FvF outcome there (Alice, Bob).
    pub FvF: [u64; 2],
    /// The AvA outcome there.
    pub AvA: [u64; 2],
}

/// Problem 4: the shape of the zero-discrepancy rulesets of one size. Each falls in one
/// class: `dominant` (max S at least twice the second largest element, where the paper
/// proves pairs have no discrepancy), else `half_line` (pairs with s1/s2 = (k+1)/k,
/// Conjecture 11), else `other`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ZeroShape {
    /// The set size.
    pub size: usize,
    /// Rulesets of this size.
    pub rulesets: u64,
    /// Those without discrepancy.
    pub zero_discrepancy: u64,
    /// Of those, in the dominant regime.
    pub dominant: u64,
    /// Of those, on a half-line s1/s2 = (k+1)/k (pairs).
    pub half_line: u64,
    /// Of those, neither.
    pub other: u64,
    /// Of those, primitive (elements without a common factor; `g S` behaves as `S`).
    pub primitive: u64,
    /// The smallest zero-discrepancy ruleset of class `other`, or null.
    pub smallest_other: Option<Vec<u64>>,
}

/// Problem 5: one ruleset's first positive discrepancy of a deviation from FvF.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PositiveDiscrepancy {
    /// The set.
    pub set: Vec<u64>,
    /// `FvF_to_AvF` (Alice turns antagonistic) or `FvF_to_FvA` (Bob does).
    pub deviation: &'static str,
    /// The smallest heap where some player is better off after the deviation.
    pub heap: u64,
    /// The player better off there (1 Alice, 2 Bob; Alice when both are).
    pub player: u8,
    /// Whether that player is the one who deviated.
    pub deviator: bool,
    /// That player's largest gain over all heaps.
    pub gain: i64,
    /// Whether at every heap where the deviator gains, the other loses exactly as much.
    pub mirrored: bool,
}

/// Problem 5: the shape of the positive discrepancies of one deviation and size.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PositiveShape {
    /// The set size.
    pub size: usize,
    /// `FvF_to_AvF` or `FvF_to_FvA`.
    pub deviation: &'static str,
    /// Rulesets with a positive discrepancy.
    pub rulesets: u64,
    /// Of those, where the first player better off is the deviator.
    pub deviator_first: u64,
    /// Of those, where the deviator's gains are always the other's losses.
    pub mirrored: u64,
    /// The largest gain of any player.
    pub largest_gain: i64,
    /// The smallest such ruleset (by largest element, then lexicographically).
    pub smallest: Option<PositiveDiscrepancy>,
}

/// The report of `subtraction problems`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProblemsReport {
    /// The range checked, in words.
    pub range: String,
    /// Rulesets analysed.
    pub rulesets: u64,
    /// Problem 1 (with the counts of Problems 4 and 5) by set size and max S.
    pub by_max: Vec<ProblemsRow>,
    /// Problem 4 by set size.
    pub zero_shape: Vec<ZeroShape>,
    /// Problem 5 by set size and deviation.
    pub positive_shape: Vec<PositiveShape>,
    /// Problem 4: every ruleset without an FvF/AvA discrepancy, smallest first.
    pub zero_discrepancy: Vec<Vec<u64>>,
    /// Problem 5: every positive discrepancy, by ruleset (smallest first), then deviation.
    pub positive: Vec<PositiveDiscrepancy>,
}

/// `subtraction problems` as a sweep: one item per ruleset, smallest first.
pub struct ProblemsSweep;

/// One (size, max S) row of a partial.
#[derive(Clone, Serialize, Deserialize)]
struct RowPartial {
    size: usize,
    max_s: u64,
    rulesets: u64,
    /// `(|discrepancy|, item)`: the largest, the first item among equals.
    largest: Option<(u64, u64)>,
    zero: u64,
    positive: [u64; 2],
}

/// The folded records of some rulesets.
#[derive(Default, Serialize, Deserialize)]
pub struct ProblemsPartial {
    /// By (size, max S).
    rows: Vec<RowPartial>,
    /// Zero-discrepancy items.
    zero: Vec<u64>,
    /// `(item, deviation, heap, player, gain, mirrored)`, by item then deviation.
    positive: Vec<(u64, usize, u64, usize, i64, bool)>,
}

const PROBLEM5_NAMES: [&str; 2] = ["FvF_to_AvF", "FvF_to_FvA"];

impl Sweep for ProblemsSweep {
    const COMMAND: &'static str = "subtraction-problems";
    type Request = ProblemsRequest;
    type Plan = Vec<Ruleset>;
    type Partial = ProblemsPartial;
    type Report = ProblemsReport;

    fn plan(req: &ProblemsRequest) -> Result<Vec<Ruleset>, Error> {
        let mut sorted = req.sizes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if req.sizes.is_empty() || req.sizes.contains(&0) || sorted.len() != req.sizes.len() {
            return Err(Error::invalid(
                "sizes",
                format!("{:?}", req.sizes),
                "give set sizes of at least 1, each once",
            ));
        }
        let mut sets = Vec::new();
        for &size in &sorted {
            sets.extend(Family::All { size, max: req.max }.rulesets()?);
        }
        Ok(sets)
    }
    fn items(plan: &Vec<Ruleset>) -> u64 {
        plan.len() as u64
    }
    fn item(
        req: &ProblemsRequest,
        plan: &Vec<Ruleset>,
        item: u64,
    ) -> Result<ProblemsPartial, Error> {
        let set = &plan[item as usize];
        let r = ProblemRecord::new(set, req.limit)?;
        Ok(ProblemsPartial {
            rows: vec![RowPartial {
                size: set.elements().len(),
                max_s: set.max(),
                rulesets: 1,
                largest: (r.largest.0 > 0).then_some((r.largest.0, item)),
                zero: r.zero as u64,
                positive: r.positive.map(|p| p.is_some() as u64),
            }],
            zero: if r.zero { vec![item] } else { Vec::new() },
            positive: (0..2)
                .filter_map(|d| {
                    r.positive[d].map(|p| (item, d, p.heap, p.player, p.gain, p.mirrored))
                })
                .collect(),
        })
    }
    fn merge(into: &mut ProblemsPartial, other: ProblemsPartial) {
        into.rows.extend(other.rows);
        into.rows.sort_by_key(|r| (r.size, r.max_s));
        into.rows.dedup_by(|later, first| {
            let same = (later.size, later.max_s) == (first.size, first.max_s);
            if same {
                first.rulesets += later.rulesets;
                first.largest = sweep::max_first(first.largest, later.largest);
                first.zero += later.zero;
                first.positive[0] += later.positive[0];
                first.positive[1] += later.positive[1];
            }
            same
        });
        into.zero.extend(other.zero);
        into.zero.sort_unstable();
        into.positive.extend(other.positive);
        into.positive.sort_unstable_by_key(|p| (p.0, p.1));
    }
    fn report(
        req: &ProblemsRequest,
        plan: &Vec<Ruleset>,
        all: ProblemsPartial,
        _ctl: &Control,
    ) -> Result<ProblemsReport, Error> {
        let elements = |item: u64| plan[item as usize].elements().to_vec();
        let mut by_max = Vec::new();
        for r in &all.rows {
            let largest_at = match r.largest {
                Some((_, item)) => {
                    // Only the winner's heap and outcomes are needed: analyse it again.
                    let set = &plan[item as usize];
                    let rec = ProblemRecord::new(set, req.limit)?;
                    let (_, heap, p) = rec.largest;
                    let t = Table::compute(set, heap)?;
                    let pair = |x| {
                        let (a, b) = t.outcome(x, heap);
                        [a, b]
                    };
                    Some(LargestDiscrepancy {
                        set: set.elements().to_vec(),
                        heap,
                        player: p as u8 + 1,
                        FvF: pair(Convention::FvF),
                        AvA: pair(Convention::AvA),
                    })
                }
                None => None,
            };
            by_max.push(ProblemsRow {
                size: r.size,
                max_s: r.max_s,
                rulesets: r.rulesets,
                largest: r.largest.map_or(0, |l| l.0),
                largest_at,
                zero_discrepancy: r.zero,
                positive_FvF_to_AvF: r.positive[0],
                positive_FvF_to_FvA: r.positive[1],
            });
        }
        let sizes: Vec<usize> = {
            let mut s: Vec<usize> = all.rows.iter().map(|r| r.size).collect();
            s.dedup();
            s
        };
        let zero_shape = sizes
            .iter()
            .map(|&size| {
                let zero: Vec<Vec<u64>> = all
                    .zero
                    .iter()
                    .map(|&i| elements(i))
                    .filter(|e| e.len() == size)
                    .collect();
                let class = |e: &[u64]| -> usize {
                    let k = e.len();
                    if k >= 2 && e[k - 1] >= 2 * e[k - 2] {
                        0
                    } else if k == 2 && e[0].is_multiple_of(e[1] - e[0]) {
                        1
                    } else {
                        2
                    }
                };
                let count = |c| zero.iter().filter(|e| class(e) == c).count() as u64;
                ZeroShape {
                    size,
                    rulesets: all
                        .rows
                        .iter()
                        .filter(|r| r.size == size)
                        .map(|r| r.rulesets)
                        .sum(),
                    zero_discrepancy: zero.len() as u64,
                    dominant: count(0),
                    half_line: count(1),
                    other: count(2),
                    primitive: zero
                        .iter()
                        .filter(|e| e.iter().fold(0, |g, &x| gcd(g, x)) == 1)
                        .count() as u64,
                    smallest_other: zero.iter().find(|e| class(e) == 2).cloned(),
                }
            })
            .collect();
        let positive: Vec<PositiveDiscrepancy> = all
            .positive
            .iter()
            .map(
                |&(item, d, heap, player, gain, mirrored)| PositiveDiscrepancy {
                    set: elements(item),
                    deviation: PROBLEM5_NAMES[d],
                    heap,
                    player: player as u8 + 1,
                    deviator: player == PROBLEM5[d].player,
                    gain,
                    mirrored,
                },
            )
            .collect();
        let positive_shape = sizes
            .iter()
            .flat_map(|&size| (0..2).map(move |d| (size, d)))
            .map(|(size, d)| {
                let these: Vec<&PositiveDiscrepancy> = positive
                    .iter()
                    .filter(|p| p.set.len() == size && p.deviation == PROBLEM5_NAMES[d])
                    .collect();
                PositiveShape {
                    size,
                    deviation: PROBLEM5_NAMES[d],
                    rulesets: these.len() as u64,
                    deviator_first: these.iter().filter(|p| p.deviator).count() as u64,
                    mirrored: these.iter().filter(|p| p.mirrored).count() as u64,
                    largest_gain: these.iter().map(|p| p.gain).max().unwrap_or(0),
                    smallest: these.first().map(|p| (*p).clone()),
                }
            })
            .collect();
        Ok(ProblemsReport {
            range: format!(
                "every ruleset of size {} with largest element <= {}",
                sizes
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
                req.max
            ),
            rulesets: all.rows.iter().map(|r| r.rulesets).sum(),
            by_max,
            zero_shape,
            positive_shape,
            zero_discrepancy: all.zero.iter().map(|&i| elements(i)).collect(),
            positive,
        })
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The data of Problems 1, 4 and 5 on every ruleset of the given sizes
/// ([`ProblemsSweep`]).
pub fn problems(req: &ProblemsRequest, ctl: &Control) -> Result<ProblemsReport, Error> {
    sweep::run::<ProblemsSweep>(req, ctl)
}

impl Render for ProblemsReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Problems 1, 4 and 5 on {} ({} rulesets)",
            self.range, self.rulesets
        )?;
        writeln!(
            w,
            "{:>4} {:>6} {:>9} {:>8}  {:<28} {:>9} {:>9} {:>9}",
            "size", "max S", "rulesets", "largest", "first at", "zero", "+AvF", "+FvA"
        )?;
        for r in &self.by_max {
            let at = r.largest_at.as_ref().map_or(String::from("-"), |a| {
                format!("{{{}}} h={} p{}", moves_text(&a.set, ","), a.heap, a.player)
            });
            writeln!(
                w,
                "{:>4} {:>6} {:>9} {:>8}  {:<28} {:>9} {:>9} {:>9}",
                r.size,
                r.max_s,
                r.rulesets,
                r.largest,
                at,
                r.zero_discrepancy,
                r.positive_FvF_to_AvF,
                r.positive_FvF_to_FvA
            )?;
        }
        for z in &self.zero_shape {
            writeln!(
                w,
                "Problem 4, size {}: {} of {} rulesets have no discrepancy: {} dominant, {} on half-lines, {} other{} ({} primitive)",
                z.size,
                z.zero_discrepancy,
                z.rulesets,
                z.dominant,
                z.half_line,
                z.other,
                z.smallest_other
                    .as_ref()
                    .map_or(String::new(), |s| format!(", smallest {{{}}}", moves_text(s, ","))),
                z.primitive
            )?;
        }
        for p in &self.positive_shape {
            writeln!(
                w,
                "Problem 5, size {}, {}: {} rulesets with a positive discrepancy ({} first for the deviator; the deviator's gain is the other's loss on {}; largest gain {}){}",
                p.size,
                p.deviation,
                p.rulesets,
                p.deviator_first,
                p.mirrored,
                p.largest_gain,
                p.smallest.as_ref().map_or(String::new(), |s| format!(
                    ", smallest {{{}}} heap {} player {}",
                    moves_text(&s.set, ","),
                    s.heap,
                    s.player
                ))
            )?;
        }
        Ok(())
    }
}

/// Which picture `subtraction plot` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Figure {
    /// Pairs with an FvF/AvA discrepancy, coloured by n mod 5.
    Figure1,
    /// Triples with an FvF/AvA discrepancy, projected.
    Figure2,
    /// Triples with an AvA/zero-sum discrepancy, projected.
    Figure3,
    /// The discrepancies from FvF of one ruleset's table (needs `set`).
    Heatmap,
}

request! {
    /// `subtraction plot`: the paper's figures and a heat map.
    PlotRequest {
        /// The picture.
        figure: Figure = Figure::Figure1,
        /// Largest element of the rulesets drawn (figures 1-3; default 100 or 40).
        max: Option<u64> = None,
        /// The ruleset (heatmap).
        set: Option<String> = None,
        /// The largest heap (heatmap).
        max_heap: u64 = 199,
        /// Largest heap to search for each period.
        limit: u64 = DEFAULT_LIMIT,
        /// Also draw the picture ([`PlotReport::svg`]).
        picture: bool = false,
    }
}

/// A heat map row.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct HeatmapRow {
    /// The row's label.
    pub row: String,
    /// One change of utility per heap.
    pub values: Vec<i64>,
}

/// The plotted data.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PlotData {
    /// Figure 1: pairs `[s2, s1]`.
    Pairs {
        /// The pairs.
        pairs: Vec<[u64; 2]>,
    },
    /// Figures 2 and 3: triples.
    Triples {
        /// The triples.
        triples: Vec<[u64; 3]>,
    },
    /// The heat map.
    Heatmap {
        /// The set.
        set: Vec<u64>,
        /// The rows.
        rows: Vec<HeatmapRow>,
    },
}

/// The report of `subtraction plot`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PlotReport {
    /// The data.
    #[serde(flatten)]
    pub data: PlotData,
    /// The picture (an SVG document), when asked for (`picture`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

/// Computes a figure.
pub fn plot(req: &PlotRequest, ctl: &Control) -> Result<PlotReport, Error> {
    ctl.check()?;
    let (svg, data) = match req.figure {
        Figure::Figure1 => {
            let (chart, hits) = figures::figure1(req.max.unwrap_or(100), req.limit)?;
            (
                chart.to_svg(760.0, 700.0),
                PlotData::Pairs {
                    pairs: hits.iter().map(|&(x, y)| [x, y]).collect(),
                },
            )
        }
        Figure::Figure2 | Figure::Figure3 => {
            let zero_sum = req.figure == Figure::Figure3;
            let (chart, hits) =
                figures::figure_triples(req.max.unwrap_or(40), zero_sum, req.limit)?;
            (
                chart.to_svg(760.0, 680.0),
                PlotData::Triples { triples: hits },
            )
        }
        Figure::Heatmap => {
            let text = req.set.as_deref().ok_or_else(|| Error::Missing {
                field: "set",
                what: "set",
                hint: "the heat map is of one ruleset".into(),
            })?;
            let set = ruleset(text)?;
            let t = Table::compute(&set, req.max_heap)?;
            let map = figures::heatmap(&t);
            let rows = map
                .rows
                .iter()
                .zip(&map.cells)
                .map(|(r, c)| HeatmapRow {
                    row: r.clone(),
                    values: c.clone(),
                })
                .collect();
            (
                map.to_svg(),
                PlotData::Heatmap {
                    set: set.elements().to_vec(),
                    rows,
                },
            )
        }
    };
    Ok(PlotReport {
        data,
        svg: req.picture.then_some(svg),
    })
}

impl Render for PlotReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        match &self.data {
            PlotData::Pairs { pairs } => {
                writeln!(w, "{} pairs with an FvF/AvA discrepancy", pairs.len())
            }
            PlotData::Triples { triples } => {
                writeln!(w, "{} triples with a discrepancy", triples.len())
            }
            PlotData::Heatmap { set, rows } => writeln!(
                w,
                "heat map of S = {{{}}}: {} rows of {} heaps",
                moves_text(set, ","),
                rows.len(),
                rows.first().map_or(0, |r| r.values.len())
            ),
        }
    }
}
