//! `subtraction` commands: self-interest cumulative subtraction games, see
//! [`crate::games::subtraction`].
//!
//! The family's files: requests and the commands' functions here; reports in
//! `report.rs`, their text in `text.rs`, the commands that run as sweeps in `sweep.rs`, the game to play move by move
//! in `game.rs`.
//! Nothing here computes a game: the work is [`crate::games::subtraction`]'s; this module turns
//! requests into its validated types and its results into reports.

mod costs;
mod game;
mod report;
mod sweep;
mod text;

pub use crate::games::subtraction::Convention;
pub use game::{game, GameRequest};
pub use report::{
    Cell, ConjectureReport, Counterexample, CounterexampleAt, DerivationReport, Discrepancies,
    Gain, HeatmapRow, LargestDiscrepancy, LargestPreperiod, MoveOption, OutcomeReport,
    PeriodReport, PlotData, PlotReport, PositiveDiscrepancy, PositiveShape, ProblemsReport,
    ProblemsRow, ScanLine, ScanReport, SubtractionPosition, TableReport, TableRow, ZeroShape,
};
pub use sweep::{
    conjecture, problems, scan, ConjecturePartial, ConjecturePlan, ConjectureSweep, PlotPartial,
    PlotPlan, PlotSweep, ProblemsPartial, ProblemsSweep, ScanPartial, ScanSweep,
};

use crate::api::input::{request, Letter};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::api::{Control, Error};
use crate::games::subtraction::analysis::{Family, MAX_RULESETS};
use crate::games::subtraction::{
    figures, find_period_until, first_discrepancy, first_zero_sum_discrepancy, parse_heap,
    Derivation, Outcomes, Position, Ruleset, SubtractionError, Table,
};

/// The largest heap up to which periods are searched by default.
pub const DEFAULT_LIMIT: u64 = 1 << 24;

fn ruleset(s: &str) -> Result<Ruleset, Error> {
    s.parse::<Ruleset>()
        .map_err(|e| Error::invalid("set", s, e))
}

request! {
    /// `subtraction table`: every heap up to `max_heap` under all four conventions.
    TableRequest {
        /// The subtraction set, e.g. `"4,5,9"`.
        #[schemars(extend("x-required" = true))]
        #[serde(deserialize_with = "crate::api::forms::list")]
        #[schemars(with = "crate::api::forms::ListForms<u64>")]
        set: String = String::new(),
        /// The largest heap listed.
        #[schemars(extend("x-budget" = "memory_gib"))]
        max_heap: u64 = 99,
        /// Memory budget of the table's report, in GiB (about 1 KB a heap with its JSON).
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = 8,
    }
}

/// The bytes one heap's row of a table report takes, held and as JSON (measured: 400
/// bytes held, as many again and more as text, for a set of two).
const TABLE_ROW_BYTES: u64 = 1024;

/// Tabulates outcomes and PSPE moves.
pub fn table(req: &TableRequest, ctl: &Control) -> Result<TableReport, Error> {
    let set = ruleset(&req.set)?;
    // Each row holds every convention's moves: a larger set's rows are larger.
    let row = TABLE_ROW_BYTES + 32 * set.elements().len() as u64;
    let need = (req.max_heap as u128 + 1) * row as u128;
    Error::check_memory(
        need,
        req.memory_gib,
        format_args!("a table of {} heaps takes", req.max_heap as u128 + 1),
        "ask for fewer heaps (subtraction outcome gives any one heap)",
    )?;
    ctl.admit(costs::table(&set, req.max_heap))?;
    let t = Table::compute_until(&set, req.max_heap, ctl)?;
    let cell = |x: Convention, h: u64| {
        let (a, b) = t.outcome(x, h);
        Cell {
            outcome: [a, b],
            moves: t.moves(x, h),
        }
    };
    let mut rows = Vec::with_capacity(req.max_heap as usize + 1);
    for h in 0..=req.max_heap {
        // 2^16 rows are a few milliseconds.
        if h.is_multiple_of(1 << 16) {
            ctl.check()?;
        }
        rows.push(TableRow {
            heap: h,
            FvF: cell(Convention::FvF, h),
            FvA: cell(Convention::FvA, h),
            AvF: cell(Convention::AvF, h),
            AvA: cell(Convention::AvA, h),
            zero_sum: t.zero_sum(h),
        });
    }
    Ok(TableReport {
        set: set.elements().to_vec(),
        rows,
    })
}

request! {
    /// `subtraction outcome`: one heap under one convention, any heap below 2^128.
    OutcomeRequest {
        /// The subtraction set.
        #[schemars(extend("x-required" = true))]
        #[serde(deserialize_with = "crate::api::forms::list")]
        #[schemars(with = "crate::api::forms::ListForms<u64>")]
        set: String = String::new(),
        /// The heap (decimal text, any non-negative integer below 2^128).
        #[schemars(extend("x-required" = true))]
        #[serde(deserialize_with = "crate::api::forms::number")]
        #[schemars(with = "crate::api::forms::NumberForms")]
        heap: String = String::new(),
        /// FvF, FvA, AvF or AvA (Alice's convention first).
        convention: Convention = Convention::FvF,
        /// Largest heap to search for the period when the heap is beyond the table.
        #[schemars(extend("x-budget" = "budget"))]
        limit: u64 = DEFAULT_LIMIT,
        /// Also list every legal move with the outcome it leads to under PSPE play.
        explain: bool = false,
        /// Play these takes first (Alice first, turns alternating): the report is then of
        /// the heap they leave, its player to move first under her own convention, and
        /// `position` gives the whole game's totals.
        #[schemars(extend("x-budget" = "none"))]
        #[serde(deserialize_with = "crate::api::forms::optional_items")]
        #[schemars(with = "Option<crate::api::forms::ListForms<u64>>")]
        takes: Option<Vec<u64>> = None,
    }
}

/// The outcome of one heap.
pub fn outcome(req: &OutcomeRequest, ctl: &Control) -> Result<OutcomeReport, Error> {
    let set = ruleset(&req.set)?;
    if req.heap.trim().is_empty() {
        return Err(Error::Missing {
            field: "heap",
            what: "heap",
            hint: "give the heap size, e.g. 100 (any size below 2^128)".into(),
        });
    }
    let start = parse_heap(&req.heap).map_err(|e| Error::invalid("heap", &req.heap, e))?;
    let whole = req.convention;
    let takes = req.takes.as_deref().unwrap_or_default();
    let position = Position::after(&set, start, whole, takes).map_err(|e| match e {
        SubtractionError::Take { take, .. } => Error::invalid("takes", take, e),
        e => e.into(),
    })?;
    let (heap, x) = (position.heap(), position.mover_convention());
    ctl.admit(costs::period(
        &set,
        req.limit
            .min(heap.saturating_add(1).try_into().unwrap_or(u64::MAX)),
    ))?;
    let outcomes = Outcomes::up_to(&set, heap, req.limit, ctl)?;
    let o = outcomes.at(x, heap)?;
    let options = match req.explain {
        true => Some(
            outcomes
                .options(&position, &o)?
                .into_iter()
                .map(|m| MoveOption {
                    take: m.take,
                    heap_after: m.heap_after,
                    outcome: m.outcome,
                    totals: req.takes.is_some().then(|| position.in_game(m.outcome)),
                    best_for_mover: m.best_for_mover,
                    pspe: m.pspe,
                })
                .collect(),
        ),
        false => None,
    };
    let derivation = match o.derivation {
        Derivation::Direct => DerivationReport::Direct,
        Derivation::Periodic { reduced, periods } => {
            let per = outcomes.period().expect("periodic implies a period");
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
        position: req.takes.as_ref().map(|t| SubtractionPosition {
            takes: t.clone(),
            heap: position.start(),
            convention: whole.name(),
            so_far: position.so_far(),
            to_move: Letter(position.to_move()),
            totals: position.in_game([o.outcome.0, o.outcome.1]),
        }),
    })
}

request! {
    /// `subtraction period`: pre-period, period, increment and first discrepancies.
    PeriodRequest {
        /// The subtraction set.
        #[schemars(extend("x-required" = true))]
        #[serde(deserialize_with = "crate::api::forms::list")]
        #[schemars(with = "crate::api::forms::ListForms<u64>")]
        set: String = String::new(),
        /// Largest heap to search for the period.
        #[schemars(extend("x-budget" = "budget"))]
        limit: u64 = DEFAULT_LIMIT,
    }
}

/// Finds the certified period.
pub fn period(req: &PeriodRequest, ctl: &Control) -> Result<PeriodReport, Error> {
    let set = ruleset(&req.set)?;
    ctl.admit(costs::period(&set, req.limit))?;
    let (p, t) = find_period_until(&set, req.limit, ctl)?;
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

request! {
    /// `subtraction scan`: sweep families of rulesets, resumable through `out`.
    ScanRequest {
        /// All pairs s2 < s1 <= N.
        #[schemars(extend("x-conflicts" = ["triples", "size"]))]
        #[schemars(extend("x-budget" = "estimate"))]
        pairs: Option<u64> = None,
        /// All triples s3 < s2 < s1 <= N.
        #[schemars(extend("x-conflicts" = ["size"]))]
        #[schemars(extend("x-budget" = "estimate"))]
        triples: Option<u64> = None,
        /// All sets (or random sets) of this size ...
        #[schemars(extend("x-requires" = "max"))]
        #[schemars(extend("x-budget" = "estimate"))]
        size: Option<usize> = None,
        /// ... with largest element at most this.
        #[schemars(extend("x-budget" = "estimate"))]
        max: Option<u64> = None,
        /// Draw this many random sets instead of all of them.
        #[schemars(extend("x-requires" = "size"))]
        #[schemars(extend("x-budget" = "estimate"))]
        random: Option<u64> = None,
        /// Seed of the random sets.
        #[schemars(extend("x-budget" = "none"))]
        seed: u64 = 1,
        /// Append records to this file (JSON lines, or CSV when it ends in .csv);
        /// rulesets already in it are skipped, so an interrupted sweep resumes.
        #[schemars(extend("x-path" = "file"))]
        out: Option<String> = None,
        /// CSV records instead of JSON lines (without `out`).
        csv: bool = false,
        /// Largest heap to search for each period.
        #[schemars(extend("x-budget" = "budget"))]
        limit: u64 = DEFAULT_LIMIT,
        /// Memory budget of the sweep's list of rulesets and their records (about 2 KB a
        /// ruleset in the report; with `out` they go to the file), in GiB (checked before
        /// any is listed).
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = 8,
    }
}

/// The family of rulesets a scan request names.
fn scan_family(req: &ScanRequest) -> Result<Family, Error> {
    Ok(match (req.pairs, req.triples, req.size, req.max, req.random) {
        // The later of two families named: without it, the other is the one asked for.
        (Some(_), Some(_), None, _, _) => {
            return Err(Error::combination(
                "triples",
                "choose one family: pairs, triples, or a size",
            ))
        }
        (Some(_), _, Some(_), _, _) | (_, Some(_), Some(_), _, _) => {
            return Err(Error::combination(
                "size",
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

/// The rulesets a scan request names; a family too large to list is refused naming the
/// field that sizes it.
pub(super) fn scan_rulesets(req: &ScanRequest) -> Result<Vec<Ruleset>, Error> {
    let family = scan_family(req)?;
    let field = match family {
        _ if req.pairs.is_some() => "pairs",
        _ if req.triples.is_some() => "triples",
        Family::Random { count, .. } if count > MAX_RULESETS => "random",
        _ => "max",
    };
    check_plan_memory(
        std::slice::from_ref(&family),
        match req.out {
            Some(_) => SCAN_KEY_BYTES,
            None => SCAN_RECORD_BYTES,
        },
        req.memory_gib,
    )?;
    family.rulesets().map_err(|e| sized(e, field))
}

/// The bytes a scan's record of one ruleset takes while the report holds it: its line,
/// its CSV text and its share of the report's text (measured: 1.86 KB a pair, from the
/// peaks of 300 and 600 pairs).
const SCAN_RECORD_BYTES: u64 = 2048;

/// The bytes a scan into a file keeps of one ruleset besides the list: its key, and its
/// place in the set of keys when the file is resumed (its records go to the file).
const SCAN_KEY_BYTES: u64 = 128;

/// Refuses, naming `memory_gib`, a sweep whose list of rulesets (with `each` more bytes a
/// ruleset for what the sweep keeps of it) is over its memory budget: every family at
/// once, before any ruleset is listed.
pub(super) fn check_plan_memory(
    families: &[Family],
    each: u64,
    memory_gib: u64,
) -> Result<(), Error> {
    let count: u128 = families.iter().map(|f| u128::from(f.count())).sum();
    let need: u128 = families.iter().map(Family::bytes).sum::<u128>() + count * u128::from(each);
    Error::check_memory(
        need,
        memory_gib,
        format_args!("a sweep of {count} rulesets takes"),
        "sweep fewer (a smaller max, fewer sizes)",
    )
}

/// A subtraction error, a family too large to sweep refused as over the budget of
/// `field` (the field that sizes it).
pub(super) fn sized(e: SubtractionError, field: &'static str) -> Error {
    match e {
        SubtractionError::Budget(problem) => Error::over_budget(field, problem),
        e => e.into(),
    }
}

request! {
    /// `subtraction conjecture`: check a conjecture or problem of the paper.
    ConjectureRequest {
        /// 4, 11, 12, 13, 14, 15, 16, 17, p2, p3 or p6 (also as `conjecture`, and a
        /// conjecture's number as a JSON number).
        #[serde(alias = "conjecture", deserialize_with = "crate::api::forms::number")]
        #[schemars(extend("x-positional" = true, "x-required" = true))]
        statement: String = String::new(),
        /// Set sizes to check (statements about pairs or triples use theirs).
        #[schemars(extend("x-budget" = "estimate"))]
        #[serde(deserialize_with = "crate::api::forms::items")]
        #[schemars(with = "crate::api::forms::ListForms<usize>")]
        sizes: Vec<usize> = vec![2],
        /// Largest element.
        #[schemars(extend("x-budget" = "estimate"))]
        max: u64 = 30,
        /// Largest heap to search for each period.
        #[schemars(extend("x-budget" = "budget"))]
        limit: u64 = DEFAULT_LIMIT,
        /// Memory budget of the sweep's list of rulesets, in GiB (checked
        /// for every size at once, before any is listed).
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = 8,
    }
}

request! {
    /// `subtraction problems`: the data of Problems 1, 4 and 5 (Section 6) on every ruleset
    /// of the given sizes.
    ProblemsRequest {
        /// Set sizes, each once.
        #[schemars(extend("x-budget" = "estimate"))]
        #[serde(deserialize_with = "crate::api::forms::items")]
        #[schemars(with = "crate::api::forms::ListForms<usize>")]
        sizes: Vec<usize> = vec![2],
        /// Largest element.
        #[schemars(extend("x-budget" = "estimate"))]
        max: u64 = 30,
        /// Largest heap to search for each period.
        #[schemars(extend("x-budget" = "budget"))]
        limit: u64 = DEFAULT_LIMIT,
        /// Memory budget of the sweep's list of rulesets, in GiB (checked
        /// for every size at once, before any is listed).
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = 8,
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
        #[schemars(extend("x-positional" = true, "x-required" = true))]
        figure: Figure = Figure::Figure1,
        /// Largest element of the rulesets drawn (figures 1-3; default 100 or 40).
        #[schemars(extend("x-budget" = "estimate"))]
        max: Option<u64> = None,
        /// The ruleset (heatmap).
        #[schemars(extend("x-required-if" = ["figure", "heatmap"]))]
        #[serde(deserialize_with = "crate::api::forms::optional_list")]
        #[schemars(with = "Option<crate::api::forms::ListForms<u64>>")]
        set: Option<String> = None,
        /// The largest heap (heatmap).
        #[schemars(extend("x-budget" = "estimate"))]
        max_heap: u64 = 199,
        /// Largest heap to search for each period.
        #[schemars(extend("x-budget" = "budget"))]
        limit: u64 = DEFAULT_LIMIT,
        /// Also draw the picture ([`PlotReport::svg`]).
        picture: bool = false,
    }
}

/// The most heaps a heat map draws: 7 rows of 20,000 cells, already more columns than a
/// picture shows (about 0.2 s to compute and draw).
pub const MAX_HEATMAP: u64 = 20_000;

/// Computes a figure (figures 1 to 3 as a sweep over their rulesets: [`PlotSweep`]).
pub fn plot(req: &PlotRequest, ctl: &Control) -> Result<PlotReport, Error> {
    ctl.check()?;
    let (svg, data) = match req.figure {
        Figure::Figure1 | Figure::Figure2 | Figure::Figure3 => {
            return crate::api::sweep::run::<PlotSweep>(req, ctl);
        }
        Figure::Heatmap => {
            let text = req.set.as_deref().ok_or_else(|| Error::Missing {
                field: "set",
                what: "set",
                hint: "the heat map is of one ruleset".into(),
            })?;
            let set = ruleset(text)?;
            if req.max_heap > MAX_HEATMAP {
                return Err(Error::over_budget(
                    "max_heap",
                    format!(
                        "a heat map of {} heaps is over its limit of {MAX_HEATMAP} columns (7 rows of a cell each, in the picture and the data); subtraction table lists larger tables",
                        req.max_heap
                    ),
                ));
            }
            ctl.admit(costs::table(&set, req.max_heap))?;
            let t = Table::compute(&set, req.max_heap)?;
            ctl.check()?;
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

crate::api::input::closed_set!(Convention, "Convention", ["FvF", "FvA", "AvF", "AvA"]);
