//! `cookie` commands: the cookie game (Propp and Ullman), see [`crate::games::cookie`].
//!
//! The family's files: requests and the commands' functions here; reports in
//! `report.rs`, their text in `text.rs`, the game of `cookie play` in `play.rs`, the game to play move by move in `game.rs`.
//! Nothing here computes a game: the work is [`crate::games::cookie`]'s; this module
//! turns requests into its validated types and its results into reports.

mod costs;
mod game;
mod play;
mod report;
mod sweep;
mod text;

pub use game::{game, GameRequest};
pub use play::Match;
pub use report::{
    AnalyzeReport, CookieMove, CountCell, CriticalReport, CriticalRow, GeneralReport, NimCell,
    NimReport, RuleReport, TableReport, BRUTE_FORCE_COMPONENTS,
};
pub use sweep::{GeneralPartial, GeneralPlan, GeneralSweep};

use crate::api::cost::{Estimate, Work, INPUT};
use crate::api::input::request;
use crate::api::{Control, Error};
use crate::engine::impartial::{Analyser, Outcome};
use crate::games::cookie::model::brute_force_winning_sizes;
use crate::games::cookie::theory::{favoured_size, winning_interval, winning_rule, winning_sizes};
use crate::games::cookie::{
    count_table, count_table_by_paths, critical as critical_position, d_value, nim_distribution,
    smallest_d, CookieGame, NimTable, Packing, Position, MAX_BY_PATHS, MAX_ENUMERATED,
    MAX_NIM_TABLE,
};
pub use crate::number::Count;
use num_bigint::BigUint;
use report::{absent, AnalyzeText};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A position given inline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Components {
    /// Text: components separated by spaces or commas, e.g. `"0 1 1 3 4 5 8 8"`.
    Text(String),
    /// The components as numbers.
    List(Vec<u64>),
}

pub(super) fn position_of(
    components: &Option<Components>,
    from: &Option<String>,
) -> Result<Position, Error> {
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
            let text = crate::files::read_input_text(std::path::Path::new(path))?;
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
        #[schemars(extend("x-positional" = "words", "x-required-unless" = "from"))]
        components: Option<Components> = None,
        /// Read the components from this file instead.
        #[schemars(extend("x-path" = "file", "x-instead" = "components", "x-conflicts" = ["components"]))]
        from: Option<String> = None,
        /// Also analyse every move: each distinct unexpired component size eaten, and
        /// the position it leaves (up to 1000 components).
        explain: bool = false,
    }
}

/// The most components a position may have for `explain` (each distinct size is one
/// more analysis).
pub const EXPLAIN_COMPONENTS: usize = 1000;

/// Analyses a position: theory always, brute force up to 24 unexpired components.
pub fn analyze(req: &AnalyzeRequest, ctl: &Control) -> Result<AnalyzeReport, Error> {
    let p = position_of(&req.components, &req.from)?;
    // The theory is a pass over the components; each move explained is another.
    let n = p.len().max(1) as f64;
    let explained = if req.explain { n } else { 1.0 };
    ctl.admit(Estimate::new(Work::count(n * explained), INPUT))?;
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
                chosen: false,
                kind: a.kind,
                d_value: a.d_value,
                winning_interval: a.winning_interval,
            });
        }
        let winning = || moves.iter().filter(|m| m.wins).map(|m| m.eat).collect();
        let pick = favoured_size(&p, winning).or(moves.first().map(|m| m.eat));
        for m in &mut moves {
            m.chosen = Some(m.eat) == pick;
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

request! {
    /// `cookie critical`: the critical positions C^{n,d}.
    CriticalRequest {
        /// Largest size (number of components); `max_n` is the older spelling.
        #[serde(alias = "max_n")]
        #[schemars(extend("x-aliases" = ["max_n"]))]
        #[schemars(extend("x-budget" = "memory_gib"), range(max = 10000))]
        max_size: u64 = 9,
        /// Memory budget of the list, in GiB (the positions of all sizes up to `n` hold
        /// about n^3/9 components: 16 bytes each with their JSON).
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = 8,
    }
}

/// The bytes one component of a listed critical position takes, held and as JSON
/// (measured: 8.3 bytes at the peak of a CLI run of 600 sizes, whose JSON it streams).
const CRITICAL_COMPONENT_BYTES: u128 = 16;
/// The bytes of one listed position besides its components.
const CRITICAL_ROW_BYTES: u128 = 64;

/// Lists the critical positions.
pub fn critical(req: &CriticalRequest, ctl: &Control) -> Result<CriticalReport, Error> {
    if req.max_size == 0 || req.max_size > 10_000 {
        return Err(Error::invalid("max_size", req.max_size, "use 1..=10000"));
    }
    let (rows, components) = (1..=req.max_size as u128).fold((0, 0), |(r, c), n| {
        let here = n + 1 - smallest_d(n as u64) as u128;
        (r + here, c + n * here)
    });
    let need = rows * CRITICAL_ROW_BYTES + components * CRITICAL_COMPONENT_BYTES;
    Error::check_memory(
        need,
        req.memory_gib,
        format_args!(
            "the critical positions of sizes up to {} ({rows} positions, {components} components) take",
            req.max_size
        ),
        "list fewer sizes",
    )?;
    // Measured: a component listed is about a thirteenth of an input item's work.
    ctl.admit(Estimate::new(Work::count(components as f64 * 0.08), INPUT))?;
    let mut critical = Vec::new();
    for n in 1..=req.max_size {
        // A size's positions are a few milliseconds at most: checked between sizes.
        ctl.check()?;
        critical.extend((smallest_d(n)..=n).map(|d| {
            CriticalRow {
                n,
                d,
                position: critical_position(n, d)
                    .expect("d in range")
                    .into_components(),
            }
        }));
    }
    Ok(CriticalReport { critical })
}

request! {
    /// `cookie table`: strict positions by D-value.
    TableRequest {
        /// Largest size (number of components); `max_n` is the older spelling.
        #[serde(alias = "max_n")]
        #[schemars(extend("x-aliases" = ["max_n"]))]
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 1000))]
        max_size: u64 = 16,
        /// Enumerate every strict position instead of counting lattice paths.
        enumerate: bool = false,
    }
}

/// Counts strict positions by D-value.
pub fn table(req: &TableRequest, ctl: &Control) -> Result<TableReport, Error> {
    let limit = if req.enumerate {
        MAX_ENUMERATED
    } else {
        MAX_BY_PATHS
    };
    if req.max_size > limit {
        return Err(Error::invalid(
            "max_size",
            req.max_size,
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
    ctl.admit(costs::table(req.max_size, req.enumerate))?;
    let rows: Vec<Vec<BigUint>> = if req.enumerate {
        count_table(req.max_size, ctl)
            .into_iter()
            .map(|row| row.into_iter().map(BigUint::from).collect())
            .collect()
    } else {
        count_table_by_paths(req.max_size, ctl)
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

request! {
    /// `cookie nim`: the nim-values of all strict positions.
    NimRequest {
        /// Largest size (number of components); `max_n` is the older spelling.
        #[serde(alias = "max_n")]
        #[schemars(extend("x-aliases" = ["max_n"]))]
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 40))]
        max_size: u64 = 16,
        /// Use the engine's brute force instead of the table.
        engine: bool = false,
        /// Keep each finished layer in this directory and resume from the layers there.
        #[schemars(extend("x-path" = "directory", "x-conflicts" = ["engine"]))]
        store: Option<String> = None,
        /// Memory budget of the table, in GiB.
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = 8,
        /// Bits a position in the table: 2 (values 3 and up marked, those of 4 and up
        /// kept aside exactly) or 4 (values up to 15).
        #[schemars(extend("x-budget" = "range"), range(max = 4))]
        bits: u8 = 2,
    }
}

/// The nim-value distribution.
pub fn nim(req: &NimRequest, ctl: &Control) -> Result<NimReport, Error> {
    let limit = if req.engine {
        20
    } else {
        u64::from(MAX_NIM_TABLE)
    };
    if req.max_size == 0 || req.max_size > limit {
        return Err(Error::invalid(
            "max_size",
            req.max_size,
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
    ctl.admit(costs::nim(req.max_size, req.engine))?;
    let (rows, gpu) = if req.engine {
        (nim_distribution(req.max_size, ctl), None)
    } else {
        let table = NimTable::build(
            req.max_size as u32,
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

request! {
    /// `cookie general`: every reduced position (not only strict ones) up to `max_size`
    /// components: type, nim-value, remoteness, suspense and strategic duration, counted
    /// by `n`.
    GeneralRequest {
        /// Largest size (number of components); `max_n` is the older spelling.
        #[serde(alias = "max_n")]
        #[schemars(extend("x-aliases" = ["max_n"]))]
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 20))]
        max_size: u64 = 12,
        /// Keep each finished layer in this directory and resume from the layers there.
        #[schemars(extend("x-path" = "directory"))]
        store: Option<String> = None,
        /// Memory budget of the table, in GiB (4 bytes a reduced position, every layer
        /// held).
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = 8,
    }
}

/// The general cookie game's table ([`crate::games::cookie::general::GeneralTable`]), its
/// last layer counted in parts
/// as a sweep ([`GeneralSweep`]).
pub fn general(req: &GeneralRequest, ctl: &Control) -> Result<GeneralReport, Error> {
    crate::api::sweep::run::<GeneralSweep>(req, ctl)
}
