//! The `subtraction` commands' reports: what each command returns, serialised as its
//! `--json` document. Types and the pure functions that build their parts; no command
//! logic, no text (see `text.rs`).

use crate::api::input::Letter;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::games::subtraction::analysis::{ScanRecord, DEVIATIONS};

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

/// The report of `subtraction table`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TableReport {
    /// The set.
    pub set: Vec<u64>,
    /// One row per heap.
    pub rows: Vec<TableRow>,
}

impl TableRow {
    fn cells(&self) -> [&Cell; 4] {
        [&self.FvF, &self.FvA, &self.AvF, &self.AvA]
    }
}

pub(super) fn moves_text(m: &[u64], sep: &str) -> String {
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

/// One legal move at the heap and its PSPE consequence ([`OutcomeRequest::explain`]).
// The text is also the schema's description, kept as it was: the request lives in the
// module above, which this file does not import.
#[allow(rustdoc::broken_intra_doc_links)]
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
    /// With `takes`: the whole game's totals `(Alice, Bob)` when the player to move
    /// takes this: the takes so far plus [`MoveOption::outcome`], player by player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub totals: Option<[u128; 2]>,
}

/// The whole game around the position that `takes` leave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SubtractionPosition {
    /// The takes so far (Alice first).
    pub takes: Vec<u64>,
    /// The heap the game started with.
    pub heap: u128,
    /// The game's convention (Alice's first).
    pub convention: &'static str,
    /// Each player's total so far `(Alice, Bob)`.
    pub so_far: [u128; 2],
    /// Who moves now: `A` (Alice) or `B` (Bob).
    pub to_move: Letter,
    /// The whole game's outcome `(Alice, Bob)` under PSPE play from here.
    pub totals: [u128; 2],
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
    /// With `takes`: the whole game around the position reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<SubtractionPosition>,
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
    pub(super) csv: String,
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
