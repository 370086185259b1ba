//! `cookie` commands: the cookie game (Propp and Ullman), see [`crate::games::cookie`].

use std::io::{self, Write};

use num_bigint::BigUint;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::input::request;
use super::{Control, Error, Render};
use crate::engine::impartial::{Analyser, Outcome};
use crate::games::cookie::general::{GeneralRow, GeneralTable, MAX_GENERAL};
use crate::games::cookie::model::brute_force_winning_sizes;
use crate::games::cookie::theory::{winning_interval, winning_rule, winning_sizes};
use crate::games::cookie::{
    count_table, count_table_by_paths, critical as critical_position, d_value, nim_distribution,
    smallest_d, CookieGame, NimTable, Packing, Position, MAX_BY_PATHS, MAX_ENUMERATED,
    MAX_NIM_TABLE,
};
pub use crate::number::Count;

/// Positions with more unexpired components than this get the theory only (the brute
/// force's state space grows exponentially).
pub const BRUTE_FORCE_COMPONENTS: usize = 24;

/// A position given inline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Components {
    /// Text: components separated by spaces or commas, e.g. `"0 1 1 3 4 5 8 8"`.
    Text(String),
    /// The components as numbers.
    List(Vec<u64>),
}

fn position_of(components: &Option<Components>, from: &Option<String>) -> Result<Position, Error> {
    let p = match (components, from) {
        (Some(_), Some(_)) => {
            return Err(Error::combination(
                "from",
                "give the components or a file, not both",
            ))
        }
        (Some(Components::Text(t)), None) => t.parse::<Position>()?,
        (Some(Components::List(v)), None) => Position::new(v.clone()),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
                action: "read",
                path: path.clone(),
                message: e.to_string(),
            })?;
            let p: Position = text.parse()?;
            if p.is_empty() {
                return Err(Error::invalid("from", path, "no components"));
            }
            p
        }
        (None, None) => {
            return Err(Error::Missing {
                field: "components",
                what: "position",
                hint: "give the components (days of edibility), e.g. \"0 1 1 3\"".into(),
            })
        }
    };
    Ok(p)
}

request! {
    /// `cookie analyze`: a position's reduction, D-value, type and winning moves.
    AnalyzeRequest {
        /// The components (days of edibility).
        components: Option<Components> = None,
        /// Read the components from this file instead.
        from: Option<String> = None,
        /// Also analyse every move: each distinct unexpired component size eaten, and
        /// the position it leaves (up to 1000 components).
        explain: bool = false,
    }
}

/// The most components a position may have for `explain` (each distinct size is one
/// more analysis).
pub const EXPLAIN_COMPONENTS: usize = 1000;

/// One move of `cookie analyze` with `explain`: a component eaten and the position left to
/// the opponent.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CookieMove {
    /// The size (days left) of the component eaten.
    pub eat: u64,
    /// The position left: the others, each a day older (expired ones dropped).
    pub position: Vec<u64>,
    /// Whether the move wins (the position left is a P-position).
    pub wins: bool,
    /// The type of the position left (for the opponent, who moves there).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Its D-value, when its reduced form is strict.
    pub d_value: Option<u64>,
    /// Its winning interval, when it has one.
    pub winning_interval: Option<[usize; 2]>,
}

/// Section 3's rule that applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RuleReport {
    /// The rule, 1 to 3.
    pub rule: u8,
    /// The smallest j that triggered it.
    pub j: i64,
    /// The option taken (from 1).
    pub k: usize,
}

/// The report of `cookie analyze`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnalyzeReport {
    /// The position, sorted.
    pub position: Vec<u64>,
    /// Its surplus.
    pub surplus: usize,
    /// Its reduced form.
    pub reduced: Vec<u64>,
    /// Whether the reduced form is strict.
    pub strict: bool,
    /// D(A), when the reduced form is strict.
    pub d_value: Option<u64>,
    /// N or P.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The Grundy value (brute force only).
    pub grundy: Option<u64>,
    /// Remoteness.
    pub remoteness: Option<u64>,
    /// Suspense.
    pub suspense: Option<u64>,
    /// Sizes of components whose eating wins.
    pub winning_moves: Option<Vec<u64>>,
    /// The winning interval of the reduced form's options.
    pub winning_interval: Option<[usize; 2]>,
    /// Section 3's rule.
    pub rule: Option<RuleReport>,
    /// `brute force` or `theory`.
    pub computed_by: &'static str,
    /// Why the brute-force values are absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absent_because: Option<String>,
    /// With `explain`: every move, by component size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<CookieMove>>,
    #[serde(skip)]
    #[schemars(skip)]
    text: AnalyzeText,
}

#[derive(Debug, Clone, Default)]
struct AnalyzeText {
    position: String,
    deletion: String,
    reduced: String,
    big: bool,
    rule_size: Option<u64>,
}

fn absent() -> String {
    format!(
        "brute force is limited to {BRUTE_FORCE_COMPONENTS} unexpired components and no theory gives the Grundy value"
    )
}

/// Analyses a position: theory always, brute force up to 24 unexpired components.
pub fn analyze(req: &AnalyzeRequest, ctl: &Control) -> Result<AnalyzeReport, Error> {
    let p = position_of(&req.components, &req.from)?;
    let mut report = analyze_position(&p)?;
    if req.explain {
        if p.len() > EXPLAIN_COMPONENTS {
            return Err(Error::invalid(
                "explain",
                "true",
                format!(
                    "explains positions of up to {EXPLAIN_COMPONENTS} components; this one has {}",
                    p.len()
                ),
            ));
        }
        let mut moves = Vec::new();
        let sizes = p.components();
        for k in 1..=p.len() {
            ctl.check()?;
            if k > 1 && sizes[k - 1] == sizes[k - 2] {
                continue;
            }
            let Some(next) = p.option(k) else {
                continue;
            };
            let a = analyze_position(&next.canonical())?;
            moves.push(CookieMove {
                eat: sizes[k - 1],
                position: a.position.clone(),
                wins: a.kind == "P",
                kind: a.kind,
                d_value: a.d_value,
                winning_interval: a.winning_interval,
            });
        }
        report.moves = Some(moves);
    }
    Ok(report)
}

/// [`analyze`] of one position.
fn analyze_position(p: &Position) -> Result<AnalyzeReport, Error> {
    let p = p.clone();
    let reduced = p.reduced();
    let d = d_value(&p);
    let brute = (p.canonical().len() <= BRUTE_FORCE_COMPONENTS).then(|| {
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        let value = an.value(&p);
        let wins = brute_force_winning_sizes(&mut an, &p);
        (value, wins)
    });
    let rule = winning_rule(&reduced);
    let kind = match (&brute, d) {
        (Some((v, _)), _) => {
            if v.outcome == Outcome::N {
                "N"
            } else {
                "P"
            }
        }
        (None, Some(d)) => {
            if d % 2 == 1 {
                "N"
            } else {
                "P"
            }
        }
        (None, None) => {
            return Err(Error::Cookie(
                crate::games::cookie::CookieError::BeyondMethods {
                    components: p.len(),
                    brute_force: BRUTE_FORCE_COMPONENTS,
                },
            ))
        }
    };
    let wins = match &brute {
        Some((_, w)) => Some(w.clone()),
        None => winning_sizes(&p),
    };
    // A strategic duration makes remoteness and suspense equal to it, and reduction
    // keeps all three, so D stands in for them where the brute force is not run.
    let show = |q: &Position| {
        if q.len() > 40 {
            format!("({} components)", q.len())
        } else {
            q.to_string()
        }
    };
    let text = AnalyzeText {
        position: show(&p),
        deletion: show(&p.deletion()),
        reduced: show(&reduced),
        big: p.len() > 40,
        rule_size: rule.as_ref().map(|m| reduced.components()[m.k - 1]),
    };
    Ok(AnalyzeReport {
        position: p.components().to_vec(),
        surplus: p.surplus(),
        reduced: reduced.components().to_vec(),
        strict: reduced.is_strict(),
        d_value: d,
        kind,
        grundy: brute.as_ref().map(|(v, _)| v.grundy as u64),
        remoteness: brute.as_ref().map(|(v, _)| v.remoteness as u64).or(d),
        suspense: brute.as_ref().map(|(v, _)| v.suspense as u64).or(d),
        winning_moves: wins,
        winning_interval: winning_interval(&reduced).map(|w| [*w.start(), *w.end()]),
        rule: rule.map(|m| RuleReport {
            rule: m.rule,
            j: m.j,
            k: m.k,
        }),
        computed_by: if brute.is_some() {
            "brute force"
        } else {
            "theory"
        },
        absent_because: brute.is_none().then(absent),
        moves: None,
        text,
    })
}

impl Render for AnalyzeReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let t = &self.text;
        writeln!(w, "position  {}", t.position)?;
        writeln!(w, "surplus   {}  -> deletion {}", self.surplus, t.deletion)?;
        writeln!(
            w,
            "depletion -> reduced form {} ({})",
            t.reduced,
            if self.strict { "strict" } else { "not strict" }
        )?;
        writeln!(
            w,
            "D(A)      {}",
            self.d_value
                .map_or("undefined (reduced form not strict)".into(), |d| d
                    .to_string())
        )?;
        writeln!(w, "type      {}", self.kind)?;
        match self.grundy {
            Some(g) => writeln!(
                w,
                "grundy {g}, remoteness {}, suspense {} (brute force)",
                self.remoteness.unwrap_or(0),
                self.suspense.unwrap_or(0)
            )?,
            None => writeln!(
                w,
                "remoteness = suspense = D = {} (theory); grundy absent: {}",
                self.d_value.unwrap_or(0),
                absent()
            )?,
        }
        if let Some([a, b]) = self.winning_interval {
            writeln!(w, "winning interval of the reduced form: options {a}..={b}")?;
        }
        if let (Some(m), Some(size)) = (&self.rule, t.rule_size) {
            writeln!(
                w,
                "Section 3: rule {} applies (j = {}); it takes option {}, eating a component of size {size} of the reduced form",
                m.rule, m.j, m.k
            )?;
        }
        match &self.winning_moves {
            Some(m) if m.is_empty() => writeln!(w, "winning moves: none (P-position)"),
            Some(m) if t.big && m.len() > 20 => writeln!(
                w,
                "winning moves: eat a component of size {} .. {} ({} sizes)",
                m[0],
                m[m.len() - 1],
                m.len()
            ),
            Some(m) => {
                let m: Vec<String> = m.iter().map(|x| x.to_string()).collect();
                writeln!(
                    w,
                    "winning moves: eat a component of size {}",
                    m.join(" or ")
                )
            }
            None => writeln!(w, "winning moves: absent ({})", absent()),
        }?;
        for m in self.moves.iter().flatten() {
            writeln!(
                w,
                "eat {:>3}: leaves {} ({}{}){}",
                m.eat,
                if m.position.len() > 40 {
                    format!("{} components", m.position.len())
                } else {
                    format!("{:?}", m.position)
                },
                m.kind,
                m.d_value.map(|d| format!(", D = {d}")).unwrap_or_default(),
                if m.wins { "  wins" } else { "" }
            )?;
        }
        Ok(())
    }
}

request! {
    /// `cookie critical`: the critical positions C^{n,d}.
    CriticalRequest {
        /// Largest number of components.
        max_n: u64 = 9,
    }
}

/// One critical position.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CriticalRow {
    /// Components.
    pub n: u64,
    /// D-value.
    pub d: u64,
    /// The position.
    pub position: Vec<u64>,
}

/// The report of `cookie critical`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CriticalReport {
    /// Every C^{n,d}.
    pub critical: Vec<CriticalRow>,
}

/// Lists the critical positions.
pub fn critical(req: &CriticalRequest, _ctl: &Control) -> Result<CriticalReport, Error> {
    if req.max_n == 0 || req.max_n > 10_000 {
        return Err(Error::invalid("max_n", req.max_n, "use 1..=10000"));
    }
    Ok(CriticalReport {
        critical: (1..=req.max_n)
            .flat_map(|n| {
                (smallest_d(n)..=n).map(move |d| CriticalRow {
                    n,
                    d,
                    position: critical_position(n, d)
                        .expect("d in range")
                        .into_components(),
                })
            })
            .collect(),
    })
}

impl Render for CriticalReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "{:>4} {:>4}  C^(n,d)", "n", "d")?;
        for r in &self.critical {
            let parts: Vec<String> = r.position.iter().map(|x| x.to_string()).collect();
            writeln!(w, "{:>4} {:>4}  {}", r.n, r.d, parts.join(" "))?;
        }
        Ok(())
    }
}

/// One non-zero cell of a count table.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CountCell {
    /// Components.
    pub n: usize,
    /// D-value.
    pub d: usize,
    /// How many strict positions.
    pub count: Count,
}

request! {
    /// `cookie table`: strict positions by D-value.
    TableRequest {
        /// Largest number of components.
        max_n: u64 = 16,
        /// Enumerate every strict position instead of counting lattice paths.
        enumerate: bool = false,
    }
}

/// The report of `cookie table`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TableReport {
    /// The non-zero cells.
    pub counts: Vec<CountCell>,
    #[serde(skip)]
    #[schemars(skip)]
    rows: Vec<Vec<BigUint>>,
}

/// Counts strict positions by D-value.
pub fn table(req: &TableRequest, ctl: &Control) -> Result<TableReport, Error> {
    let limit = if req.enumerate {
        MAX_ENUMERATED
    } else {
        MAX_BY_PATHS
    };
    if req.max_n > limit {
        return Err(Error::invalid(
            "max_n",
            req.max_n,
            format!(
                "{} goes up to n = {limit}",
                if req.enumerate {
                    "enumeration"
                } else {
                    "the lattice-path count"
                }
            ),
        ));
    }
    let rows: Vec<Vec<BigUint>> = if req.enumerate {
        count_table(req.max_n, ctl)
            .into_iter()
            .map(|row| row.into_iter().map(BigUint::from).collect())
            .collect()
    } else {
        count_table_by_paths(req.max_n, ctl)
    };
    ctl.check()?;
    let counts = rows
        .iter()
        .enumerate()
        .flat_map(|(n, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, c)| **c > BigUint::ZERO)
                .map(move |(d, c)| CountCell {
                    n,
                    d,
                    count: Count(c.clone()),
                })
        })
        .collect();
    Ok(TableReport { counts, rows })
}

impl Render for TableReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "number of strict n-component positions with D-value d")?;
        for (n, row) in self.rows.iter().enumerate() {
            let first = row.iter().position(|c| *c > BigUint::ZERO).unwrap_or(0);
            let cells: Vec<String> = row[first..].iter().map(|c| c.to_string()).collect();
            writeln!(w, "n = {n:>2}, d from {first:>2}: {}", cells.join(" "))?;
        }
        Ok(())
    }
}

request! {
    /// `cookie nim`: the nim-values of all strict positions.
    NimRequest {
        /// Largest number of components.
        max_n: u64 = 16,
        /// Use the engine's brute force instead of the table.
        engine: bool = false,
        /// Keep each finished layer in this directory and resume from the layers there.
        store: Option<String> = None,
        /// Memory budget of the table, in GiB.
        memory_gib: u64 = 8,
        /// Bits a position in the table: 2 (values 3 and up marked, those of 4 and up
        /// kept aside exactly) or 4 (values up to 15).
        bits: u8 = 2,
    }
}

/// One non-zero cell of the nim distribution.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NimCell {
    /// Components.
    pub n: usize,
    /// Nim-value.
    pub nim: usize,
    /// How many strict positions.
    pub count: Count,
}

/// The report of `cookie nim`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NimReport {
    /// The non-zero cells.
    pub distribution: Vec<NimCell>,
    /// The largest nim-value seen.
    pub largest_nim_value: usize,
    /// The GPU that computed layers of the table (builds with the `gpu` feature, when
    /// one is present); absent when the CPU computed them all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    #[serde(skip)]
    #[schemars(skip)]
    rows: Vec<Vec<u64>>,
}

/// The nim-value distribution.
pub fn nim(req: &NimRequest, ctl: &Control) -> Result<NimReport, Error> {
    let limit = if req.engine {
        20
    } else {
        u64::from(MAX_NIM_TABLE)
    };
    if req.max_n == 0 || req.max_n > limit {
        return Err(Error::invalid(
            "max_n",
            req.max_n,
            format!(
                "{} covers 1..={limit} components",
                if req.engine {
                    "the engine's brute force"
                } else {
                    "the nim table"
                }
            ),
        ));
    }
    if req.engine && req.store.is_some() {
        return Err(Error::combination(
            "store",
            "the store keeps the table's layers; the engine has none",
        ));
    }
    let packing = match req.bits {
        2 => Packing::TwoBits,
        4 => Packing::FourBits,
        other => return Err(Error::invalid("bits", other, "use 2 or 4")),
    };
    let (rows, gpu) = if req.engine {
        (nim_distribution(req.max_n, ctl), None)
    } else {
        let table = NimTable::build(
            req.max_n as u32,
            packing,
            req.store.as_deref().map(std::path::Path::new),
            req.memory_gib.saturating_mul(1 << 30),
            ctl,
        )?;
        (table.distribution(), table.gpu().map(str::to_string))
    };
    ctl.check()?;
    let largest = rows
        .iter()
        .map(|row| row.len().saturating_sub(1))
        .max()
        .unwrap_or(0);
    let distribution = rows
        .iter()
        .enumerate()
        .flat_map(|(n, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(move |(k, &c)| NimCell {
                    n,
                    nim: k,
                    count: Count(BigUint::from(c)),
                })
        })
        .collect();
    Ok(NimReport {
        distribution,
        largest_nim_value: largest,
        gpu,
        rows,
    })
}

impl Render for NimReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "nim-values of strict positions (count per value 0, 1, 2, ...)"
        )?;
        for (n, row) in self.rows.iter().enumerate().skip(1) {
            let cells: Vec<String> = row.iter().map(|c| c.to_string()).collect();
            writeln!(w, "n = {n:>2}: {}", cells.join(" "))?;
        }
        writeln!(w, "largest nim-value: {}", self.largest_nim_value)?;
        if let Some(g) = &self.gpu {
            writeln!(w, "layers computed on the GPU: {g}")?;
        }
        Ok(())
    }
}

request! {
    /// `cookie general`: every reduced position (not only strict ones) up to `max_n`
    /// components: type, nim-value, remoteness, suspense and strategic duration, counted
    /// by `n`.
    GeneralRequest {
        /// Largest number of components.
        max_n: u64 = 12,
        /// Keep each finished layer in this directory and resume from the layers there.
        store: Option<String> = None,
        /// Memory budget of the table, in GiB (4 bytes a reduced position, every layer
        /// held).
        memory_gib: u64 = 8,
    }
}

/// The report of `cookie general`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GeneralReport {
    /// One row per `n` from 1.
    pub rows: Vec<GeneralRow>,
    /// The GPU that computed layers (builds with the `gpu` feature, when one is
    /// present); absent when the CPU computed them all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
}

/// The general cookie game's table ([`GeneralTable`]).
pub fn general(req: &GeneralRequest, ctl: &Control) -> Result<GeneralReport, Error> {
    if req.max_n == 0 || req.max_n > u64::from(MAX_GENERAL) {
        return Err(Error::invalid(
            "max_n",
            req.max_n,
            format!("the general table covers 1..={MAX_GENERAL} components"),
        ));
    }
    // The last layer is counted as it is computed, never held.
    let (max_n, store) = (
        req.max_n as u32,
        req.store.as_deref().map(std::path::Path::new),
    );
    let memory = req.memory_gib.saturating_mul(1 << 30);
    #[cfg(feature = "gpu")]
    let (rows, gpu) =
        GeneralTable::rows_to_on(max_n, store, memory, crate::gpu::Gpu::shared(), ctl)?;
    #[cfg(not(feature = "gpu"))]
    let (rows, gpu) = (GeneralTable::rows_to(max_n, store, memory, ctl)?, None);
    ctl.check()?;
    Ok(GeneralReport {
        rows: rows.into_iter().skip(1).collect(),
        gpu,
    })
}

impl Render for GeneralReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "reduced positions of the cookie game by number of components n"
        )?;
        writeln!(
            w,
            "{:>3} {:>13} {:>13} {:>13} {:>8} {:>13} {:>8}  positions by nim-value 0, 1, 2, ...",
            "n", "positions", "P-positions", "no duration", "max nim", "rem != susp", "max rem"
        )?;
        for r in &self.rows {
            let cells: Vec<String> = (0..=r.max_nim)
                .map(|k| r.nim.get(&k).copied().unwrap_or(0).to_string())
                .collect();
            writeln!(
                w,
                "{:>3} {:>13} {:>13} {:>13} {:>8} {:>13} {:>8}  {}",
                r.n,
                r.positions,
                r.p_positions,
                r.no_duration,
                r.max_nim,
                r.remoteness_not_suspense,
                r.max_remoteness,
                cells.join(" ")
            )?;
        }
        if let Some(g) = &self.gpu {
            writeln!(w, "layers computed on the GPU: {g}")?;
        }
        Ok(())
    }
}

/// A game of `cookie play`: lastbite is the favoured player and explains each move by
/// D-values (Theorem 12) or, where no D-value exists, by brute force. The front end
/// only relays lines: [`Match::opening`], then [`Match::favoured_move`] on lastbite's
/// turns and [`Match::answer`] with the user's input on theirs.
pub struct Match {
    position: Position,
    lastbite_to_move: bool,
    analyser: Analyser<'static, CookieGame>,
}

static COOKIE: CookieGame = CookieGame;

/// What lastbite knows of a position: its type, and D when the theory applies.
struct Judged {
    n_position: bool,
    d: Option<u64>,
}

impl Match {
    /// Starts a game; refuses positions whose moves lastbite cannot find.
    pub fn new(components: &Components) -> Result<Match, Error> {
        let position = position_of(&Some(components.clone()), &None)?;
        if d_value(&position).is_none() && position.canonical().len() > BRUTE_FORCE_COMPONENTS {
            return Err(Error::invalid(
                "components",
                format!("{} unexpired components", position.canonical().len()),
                format!("the reduced form is not strict and the brute force stops at {BRUTE_FORCE_COMPONENTS}, so lastbite cannot find its moves"),
            ));
        }
        let mut m = Match {
            position,
            lastbite_to_move: false,
            analyser: Analyser::new(&COOKIE),
        };
        m.lastbite_to_move = m.judge(&m.position.clone()).n_position;
        Ok(m)
    }

    fn judge(&mut self, p: &Position) -> Judged {
        match d_value(p) {
            Some(d) => Judged {
                n_position: d % 2 == 1,
                d: Some(d),
            },
            None => Judged {
                n_position: self.analyser.value(p).outcome == Outcome::N,
                d: None,
            },
        }
    }

    fn describe(j: &Judged) -> String {
        match j.d {
            Some(d) => format!(
                "D = {d} ({}, {})",
                if d % 2 == 1 { "odd" } else { "even" },
                if j.n_position { "N" } else { "P" }
            ),
            None => format!(
                "no D-value (reduced form not strict); {} by brute force",
                if j.n_position { "N" } else { "P" }
            ),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whether lastbite moves next.
    pub fn lastbite_to_move(&self) -> bool {
        self.lastbite_to_move
    }

    /// The first line: the position's value and who is favoured.
    pub fn opening(&mut self) -> String {
        let p = self.position.clone();
        let j = self.judge(&p);
        format!(
            "start {p}: {}. {}",
            Self::describe(&j),
            if self.lastbite_to_move {
                "I am the favoured player and move first."
            } else {
                "You move first, but every move you have leads to an N-position: I am the favoured player."
            }
        )
    }

    /// The closing line when no edible cookie is left, else `None`.
    pub fn finished(&self) -> Option<String> {
        self.position.canonical().is_empty().then(|| {
            format!(
                "{} no edible cookie left: {}",
                self.position,
                if self.lastbite_to_move {
                    "you ate the last one. You win."
                } else {
                    "I ate the last one. I win."
                }
            )
        })
    }

    /// The prompt for the user's move.
    pub fn prompt(&mut self) -> String {
        let p = self.position.clone();
        let j = self.judge(&p);
        format!(
            "{p} {}. Your move (size of a cookie to eat): ",
            Self::describe(&j)
        )
    }

    fn eat(p: &Position, size: u64) -> Option<Position> {
        let k = p.components().iter().position(|&c| c == size && c > 0)?;
        p.option(k + 1)
    }

    /// lastbite's move, played and explained.
    pub fn favoured_move(&mut self) -> String {
        let p = self.position.clone();
        let reduced = p.reduced();
        // Section 3's rule on the reduced form when it is strict (carried back to a
        // component of the position), else a P-option by brute force.
        let size = match winning_rule(&reduced) {
            Some(m) => p.components()[p.surplus() + m.k - 1],
            None => brute_force_winning_sizes(&mut self.analyser, &p)
                .first()
                .copied()
                .expect("the favoured player has a winning move"),
        };
        let next = Self::eat(&p, size).expect("a legal move");
        let after = self.judge(&next);
        let why = match after.d {
            Some(0) => "no options are left for you".to_string(),
            Some(d) => format!(
                "D = {d} is even, so every option you have has D = {} (odd): Theorem 12(b)",
                d - 1
            ),
            None => "a P-position (brute force): every option you have is N".into(),
        };
        let line = format!("I eat {size}: {next}, {}; {why}.", Self::describe(&after));
        self.position = next;
        self.lastbite_to_move = false;
        line
    }

    /// Plays the user's move from their input line; `Err` with a line to show (and the
    /// same turn again) when the input is not a legal move.
    pub fn answer(&mut self, input: &str) -> Result<String, String> {
        let size: u64 = input.trim().parse().map_err(|_| {
            format!(
                "{} is not a size; eat one of {}",
                super::escape(input.trim()),
                self.position
            )
        })?;
        let next = Self::eat(&self.position, size)
            .ok_or_else(|| format!("no edible cookie of size {size} in {}", self.position))?;
        let after = self.judge(&next);
        let verdict = if after.n_position {
            match after.d {
                Some(d) => format!(
                    "D = {d} is odd, so I have an option with D = {} (even)",
                    d - 1
                ),
                None => "an N-position (brute force): I have a move to a P-position".into(),
            }
        } else {
            "a P-position: that move wins for you".into()
        };
        let line = format!(
            "You eat {size}: {next}, {}; {verdict}.",
            Self::describe(&after)
        );
        self.position = next;
        self.lastbite_to_move = true;
        Ok(line)
    }
}
