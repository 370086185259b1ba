//! The `cookie` commands' reports: what each command returns, serialised as its `--json`
//! document, and the one reason a report gives for what it lacks. No command logic, no
//! text (see `text.rs`).

use crate::games::cookie::general::GeneralRow;
pub use crate::number::Count;
use num_bigint::BigUint;
use schemars::JsonSchema;
use serde::Serialize;

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
    /// Whether lastbite plays it (`cookie play`'s favoured player, the computer in the
    /// explorer): Section 3's rule when the reduced form is strict, else the smallest
    /// winning size; in a P-position, where every move loses, the first listed.
    pub chosen: bool,
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
    pub(super) text: AnalyzeText,
}

#[derive(Debug, Clone, Default)]
pub(super) struct AnalyzeText {
    pub(super) position: String,
    pub(super) deletion: String,
    pub(super) reduced: String,
    pub(super) big: bool,
    pub(super) rule_size: Option<u64>,
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

/// The report of `cookie table`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TableReport {
    /// The non-zero cells.
    pub counts: Vec<CountCell>,
    #[serde(skip)]
    #[schemars(skip)]
    pub(super) rows: Vec<Vec<BigUint>>,
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
    pub(super) rows: Vec<Vec<u64>>,
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

/// Positions with more unexpired components than this get the theory only (the brute
/// force's state space grows exponentially).
pub const BRUTE_FORCE_COMPONENTS: usize = 24;

/// Why no winning moves are listed.
pub(super) fn absent() -> String {
    format!(
        "brute force is limited to {BRUTE_FORCE_COMPONENTS} unexpired components and no theory gives the Grundy value"
    )
}
