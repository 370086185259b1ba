//! The `subtraction` commands that run as sweeps (`scan`, `conjecture`, `problems`, `plot`
//! of figures 1 to 3): each a [`Sweep`] of one item per ruleset, and the command itself as
//! the one-shard case.

use super::costs;
use super::report::{
    ConjectureReport, Counterexample, CounterexampleAt, LargestDiscrepancy, LargestPreperiod,
    PlotData, PlotReport, PositiveDiscrepancy, PositiveShape, ProblemsReport, ProblemsRow,
    ScanLine, ScanReport, ZeroShape,
};
use super::{
    scan_rulesets, sized, ConjectureRequest, Figure, PlotRequest, ProblemsRequest, ScanRequest,
};
use crate::api::cost::Estimate;
use crate::api::sweep::{self, Sweep};
use crate::api::{Control, Error};
use crate::engine::Progress;
use crate::games::subtraction::analysis::{
    check_one, rulesets_of, statement_families, statement_rulesets, Family, ProblemRecord,
    ScanRecord, Statement, PROBLEM5,
};
use crate::games::subtraction::analysis::{is_primitive, ZeroClass};
use crate::games::subtraction::figures::{
    figure1_chart, figure_hit, figure_rulesets, triples_chart,
};
use crate::games::subtraction::scanfile::{self, ScanFile};
use crate::games::subtraction::{Convention, Ruleset, Table};
use serde::{Deserialize, Serialize};

/// The bytes a conjecture sweep keeps for each ruleset besides the list: its weight when
/// split into shards.
const CONJECTURE_PARTIAL_BYTES: u64 = 8;

/// The bytes a problems sweep keeps for each ruleset besides the list: its weight, and at
/// most a zero-discrepancy entry and a positive deviation or two.
const PROBLEM_RECORD_BYTES: u64 = 64;

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
        scan_rulesets(req)
    }
    fn items(plan: &Vec<Ruleset>) -> u64 {
        plan.len() as u64
    }
    fn cost(req: &ScanRequest, plan: &Vec<Ruleset>) -> Estimate {
        costs::rulesets(plan, req.limit)
    }
    fn weight(req: &ScanRequest, plan: &Vec<Ruleset>, item: u64) -> f64 {
        costs::ruleset_steps(&plan[item as usize], req.limit)
    }
    fn item(
        req: &ScanRequest,
        plan: &Vec<Ruleset>,
        item: u64,
        ctl: &Control,
    ) -> Result<ScanPartial, Error> {
        let r = ScanRecord::new(&plan[item as usize], req.limit, ctl)?;
        let line = ScanLine::from(&r);
        let csv = line.csv.clone();
        Ok(ScanPartial(vec![(item, line, csv)]))
    }
    fn merge(into: &mut ScanPartial, other: ScanPartial) {
        sweep::append_ordered(&mut into.0, other.0, |r| r.0);
    }
    fn check(_req: &ScanRequest, plan: &Vec<Ruleset>, all: &ScanPartial) -> Result<(), String> {
        sweep::check_every_item(&all.0, plan.len() as u64, |r| r.0)?;
        for (k, (item, line, _)) in all.0.iter().enumerate() {
            if line.set != plan[*item as usize].elements() {
                return Err(format!(
                    "[{k}][1].set: {:?} is not the sweep's ruleset {item}",
                    line.set
                ));
            }
        }
        Ok(())
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

/// Sweeps a family of rulesets in parallel. With `out`, records are appended to the file
/// chunk by chunk (each chunk flushed and synced), so a killed sweep loses at most the
/// chunk in flight and resumes where it stopped; otherwise they come back in the report.
pub fn scan(req: &ScanRequest, ctl: &Control) -> Result<ScanReport, Error> {
    use crate::par::prelude::*;
    if req.out.is_none() {
        return sweep::run::<ScanSweep>(req, ctl);
    }
    let path = req.out.as_deref().expect("checked above");
    let sets = scan_rulesets(req)?;
    let csv = path.ends_with(".csv");
    let io = |e: scanfile::FileError| Error::Io {
        action: e.action,
        path: e.path,
        message: e.error.to_string(),
    };
    let header = csv.then(ScanRecord::csv_header);
    let (mut file, done) = ScanFile::open(path, csv, header.as_deref()).map_err(io)?;
    // A record of a ruleset this scan does not cover is another sweep's file: resuming
    // it would mix the two. (Keys are made once, and only for a file with records: a
    // fresh scan of millions of rulesets reaches its estimate at once.)
    let todo: Vec<Ruleset> = if done.is_empty() {
        sets
    } else {
        let keyed: Vec<(String, Ruleset)> = sets
            .into_iter()
            .map(|s| (scanfile::key(s.elements()), s))
            .collect();
        let ours: std::collections::HashSet<&str> = keyed.iter().map(|(k, _)| k.as_str()).collect();
        if let Some(other) = done.iter().find(|k| !ours.contains(k.as_str())) {
            return Err(Error::combination(
                "out",
                format!(
                    "{} holds the record of ruleset {{{}}}, which this scan does not cover: it is another scan's file (give another out, or remove it)",
                    crate::text::escape(path),
                    other.replace(' ', ",")
                ),
            ));
        }
        keyed
            .into_iter()
            .filter(|(k, _)| !done.contains(k))
            .map(|(_, s)| s)
            .collect()
    };
    ctl.admit(costs::rulesets(&todo, req.limit))?;
    ctl.start(todo.len() as u64, "rulesets");
    for chunk in todo.chunks(2048) {
        if ctl.cancelled() {
            ctl.finish();
            return Err(Error::Cancelled);
        }
        let lines: Vec<Result<ScanLine, _>> = chunk
            .par_iter()
            .map(|s| {
                let r = ScanRecord::new(s, req.limit, ctl).map(|r| ScanLine::from(&r));
                ctl.advance(1);
                r
            })
            .collect();
        let lines = lines.into_iter().collect::<Result<Vec<_>, _>>()?;
        let records: Vec<String> = lines
            .iter()
            .map(|l| match csv {
                true => l.csv.clone(),
                false => serde_json::to_string(l).expect("a record is JSON"),
            })
            .collect();
        file.append(&records, csv).map_err(io)?;
    }
    ctl.finish();
    Ok(ScanReport {
        analysed: todo.len() as u64,
        already_done: done.len() as u64,
        records: Vec::new(),
        csv,
    })
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
        let families = statement_families(statement, &req.sizes, req.max);
        super::check_plan_memory(&families, CONJECTURE_PARTIAL_BYTES, req.memory_gib)?;
        let sets =
            statement_rulesets(statement, &req.sizes, req.max).map_err(|e| sized(e, "max"))?;
        Ok(ConjecturePlan { statement, sets })
    }
    fn items(plan: &ConjecturePlan) -> u64 {
        plan.sets.len() as u64
    }
    fn cost(req: &ConjectureRequest, plan: &ConjecturePlan) -> Estimate {
        costs::rulesets(&plan.sets, req.limit)
    }
    fn weight(req: &ConjectureRequest, plan: &ConjecturePlan, item: u64) -> f64 {
        costs::ruleset_steps(&plan.sets[item as usize], req.limit)
    }
    fn item(
        req: &ConjectureRequest,
        plan: &ConjecturePlan,
        item: u64,
        ctl: &Control,
    ) -> Result<ConjecturePartial, Error> {
        let set = &plan.sets[item as usize];
        let (applies, found, h0) = check_one(plan.statement, set, req.limit, ctl)?;
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
        sweep::append_ordered(&mut into.counterexamples, other.counterexamples, |c| c.0);
        into.largest_preperiod = sweep::max_first(into.largest_preperiod, other.largest_preperiod);
    }
    fn check(
        _req: &ConjectureRequest,
        plan: &ConjecturePlan,
        all: &ConjecturePartial,
    ) -> Result<(), String> {
        let items = Self::items(plan);
        sweep::check_count("rulesets", all.rulesets, items)?;
        if all.applicable > all.rulesets {
            return Err("applicable: more than the rulesets".into());
        }
        for (k, c) in all.counterexamples.iter().enumerate() {
            sweep::check_item(&format!("counterexamples[{k}][0]"), c.0, items)?;
        }
        if let Some((_, item)) = all.largest_preperiod {
            sweep::check_item("largest_preperiod[1]", item, items)?;
        }
        Ok(())
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
        let families: Vec<Family> = sorted
            .iter()
            .map(|&size| Family::All { size, max: req.max })
            .collect();
        super::check_plan_memory(&families, PROBLEM_RECORD_BYTES, req.memory_gib)?;
        rulesets_of(&families).map_err(|e| sized(e, "max"))
    }
    fn items(plan: &Vec<Ruleset>) -> u64 {
        plan.len() as u64
    }
    fn cost(req: &ProblemsRequest, plan: &Vec<Ruleset>) -> Estimate {
        costs::rulesets(plan, req.limit)
    }
    fn weight(req: &ProblemsRequest, plan: &Vec<Ruleset>, item: u64) -> f64 {
        costs::ruleset_steps(&plan[item as usize], req.limit)
    }
    fn item(
        req: &ProblemsRequest,
        plan: &Vec<Ruleset>,
        item: u64,
        ctl: &Control,
    ) -> Result<ProblemsPartial, Error> {
        let set = &plan[item as usize];
        let r = ProblemRecord::new_until(set, req.limit, ctl)?;
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
        sweep::append_ordered(&mut into.zero, other.zero, |z| *z);
        sweep::append_ordered(&mut into.positive, other.positive, |p| (p.0, p.1));
    }
    fn check(
        req: &ProblemsRequest,
        plan: &Vec<Ruleset>,
        all: &ProblemsPartial,
    ) -> Result<(), String> {
        let items = plan.len() as u64;
        let mut rulesets = 0u64;
        for (k, r) in all.rows.iter().enumerate() {
            if !req.sizes.contains(&r.size) || r.max_s > req.max {
                return Err(format!(
                    "rows[{k}]: size {} up to {} is not among the sweep's",
                    r.size, r.max_s
                ));
            }
            if r.zero > r.rulesets || r.positive.iter().any(|&p| p > r.rulesets) {
                return Err(format!("rows[{k}]: more rulesets counted than the row has"));
            }
            if let Some((_, item)) = r.largest {
                sweep::check_item(&format!("rows[{k}].largest[1]"), item, items)?;
                let set = &plan[item as usize];
                if (set.elements().len(), set.max()) != (r.size, r.max_s) {
                    return Err(format!(
                        "rows[{k}].largest[1]: ruleset {item} is not of the row's size and largest element"
                    ));
                }
            }
            rulesets = rulesets.saturating_add(r.rulesets);
        }
        sweep::check_count("rows", rulesets, items)?;
        for (k, &item) in all.zero.iter().enumerate() {
            sweep::check_item(&format!("zero[{k}]"), item, items)?;
        }
        for (k, p) in all.positive.iter().enumerate() {
            sweep::check_item(&format!("positive[{k}][0]"), p.0, items)?;
            if p.1 >= PROBLEM5_NAMES.len() || p.3 > 1 {
                return Err(format!("positive[{k}]: no such deviation or player"));
            }
        }
        Ok(())
    }
    fn report(
        req: &ProblemsRequest,
        plan: &Vec<Ruleset>,
        all: ProblemsPartial,
        ctl: &Control,
    ) -> Result<ProblemsReport, Error> {
        let elements = |item: u64| plan[item as usize].elements().to_vec();
        let mut by_max = Vec::new();
        for r in &all.rows {
            let largest_at = match r.largest {
                Some((_, item)) => {
                    // Only the winner's heap and outcomes are needed: analyse it again.
                    let set = &plan[item as usize];
                    let rec = ProblemRecord::new_until(set, req.limit, ctl)?;
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
                let count = |c| zero.iter().filter(|e| ZeroClass::of(e) == c).count() as u64;
                ZeroShape {
                    size,
                    rulesets: all
                        .rows
                        .iter()
                        .filter(|r| r.size == size)
                        .map(|r| r.rulesets)
                        .sum(),
                    zero_discrepancy: zero.len() as u64,
                    dominant: count(ZeroClass::Dominant),
                    half_line: count(ZeroClass::HalfLine),
                    other: count(ZeroClass::Other),
                    primitive: zero.iter().filter(|e| is_primitive(e)).count() as u64,
                    smallest_other: zero
                        .iter()
                        .find(|e| ZeroClass::of(e) == ZeroClass::Other)
                        .cloned(),
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

/// The data of Problems 1, 4 and 5 on every ruleset of the given sizes
/// ([`ProblemsSweep`]).
pub fn problems(req: &ProblemsRequest, ctl: &Control) -> Result<ProblemsReport, Error> {
    sweep::run::<ProblemsSweep>(req, ctl)
}

/// `subtraction plot` of figures 1 to 3 as a sweep: one item per ruleset of the figure
/// ([`figure_rulesets`]), whether it is a point ([`figure_hit`]); the heat map is one
/// ruleset's table and not a sweep.
pub struct PlotSweep;

/// The figure's rulesets, and which figure.
pub struct PlotPlan {
    sets: Vec<Ruleset>,
    max: u64,
    zero_sum: bool,
}

/// Some rulesets of a figure, by item: whether each is a point.
#[derive(Default, Serialize, Deserialize)]
pub struct PlotPartial(Vec<(u64, bool)>);

impl Sweep for PlotSweep {
    const COMMAND: &'static str = "subtraction-plot";
    type Request = PlotRequest;
    type Plan = PlotPlan;
    type Partial = PlotPartial;
    type Report = PlotReport;

    fn plan(req: &PlotRequest) -> Result<PlotPlan, Error> {
        let (size, max) = match req.figure {
            Figure::Figure1 => (2, req.max.unwrap_or(100)),
            Figure::Figure2 | Figure::Figure3 => (3, req.max.unwrap_or(40)),
            Figure::Heatmap => {
                return Err(Error::combination(
                    "figure",
                    "a heat map is one ruleset's table, not a sweep; figures 1 to 3 are",
                ))
            }
        };
        Ok(PlotPlan {
            sets: figure_rulesets(size, max).map_err(|e| sized(e, "max"))?,
            max,
            zero_sum: req.figure == Figure::Figure3,
        })
    }
    fn items(plan: &PlotPlan) -> u64 {
        plan.sets.len() as u64
    }
    fn cost(req: &PlotRequest, plan: &PlotPlan) -> Estimate {
        let size = if req.figure == Figure::Figure1 { 2 } else { 3 };
        costs::family(size, plan.max, req.limit)
    }
    fn weight(req: &PlotRequest, plan: &PlotPlan, item: u64) -> f64 {
        costs::ruleset_steps(&plan.sets[item as usize], req.limit)
    }
    fn item(
        req: &PlotRequest,
        plan: &PlotPlan,
        item: u64,
        ctl: &Control,
    ) -> Result<PlotPartial, Error> {
        let hit = figure_hit(&plan.sets[item as usize], plan.zero_sum, req.limit, ctl)
            .map_err(|e| sized(e, "max"))?;
        Ok(PlotPartial(vec![(item, hit)]))
    }
    fn merge(into: &mut PlotPartial, other: PlotPartial) {
        sweep::append_ordered(&mut into.0, other.0, |r| r.0);
    }
    fn check(_req: &PlotRequest, plan: &PlotPlan, all: &PlotPartial) -> Result<(), String> {
        sweep::check_every_item(&all.0, plan.sets.len() as u64, |r| r.0)
    }
    fn report(
        req: &PlotRequest,
        plan: &PlotPlan,
        all: PlotPartial,
        _ctl: &Control,
    ) -> Result<PlotReport, Error> {
        let points = all
            .0
            .iter()
            .filter(|r| r.1)
            .map(|r| plan.sets[r.0 as usize].elements());
        let (svg, data) = match req.figure {
            Figure::Figure1 => {
                let pairs: Vec<[u64; 2]> = points.map(|e| [e[0], e[1]]).collect();
                let hits: Vec<(u64, u64)> = pairs.iter().map(|p| (p[0], p[1])).collect();
                let chart = figure1_chart(plan.max, &hits);
                (chart.to_svg(760.0, 700.0), PlotData::Pairs { pairs })
            }
            _ => {
                let triples: Vec<[u64; 3]> = points.map(|e| [e[0], e[1], e[2]]).collect();
                let chart = triples_chart(plan.max, plan.zero_sum, &triples);
                (chart.to_svg(760.0, 680.0), PlotData::Triples { triples })
            }
        };
        Ok(PlotReport {
            data,
            svg: req.picture.then_some(svg),
        })
    }
}
