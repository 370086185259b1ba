//! The generic backward-induction engine.
//!
//! Every game family in lastbite is a [`Game`]: a finite, perfect-information game in
//! which one player moves at a time, payoffs accrue on moves and at terminal states, and
//! states may be reached along many paths. The engine solves each state once:
//!
//! * [`solve`] memoises in a hash map over the states reachable from the root (a vector
//!   for states the game numbers itself, [`Game::state_id`]);
//! * [`solve_dense`] fills a dense table for games whose states index densely
//!   ([`IndexedGame`], e.g. subsets as bitmasks), layer by layer in parallel with rayon;
//! * [`solve_lean`] keeps only two adjacent layers, indexed by rank inside the layer
//!   ([`RankedGame`]), and a choice byte per state for the path, or, when those do not
//!   fit its memory, re-solves below each state of the path ([`RankedGame::below`]):
//!   the largest exact solves.
//!
//! A key design decision is that the table stores only each state's equilibrium payoff
//! vector, never its moves: the optimal moves, the explanation of a choice and the
//! equilibrium path are recomputed from the children's values by the same selection rule
//! ([`TieBreak`]) that filled the table. That keeps the dense table at
//! `players * size_of::<Payoff>()` bytes per state (16 bytes for two players over `i64`).
//!
//! Chance states ([`CHANCE`], [`Game::probability`]) are valued at their exact
//! expectation by [`solve`], [`solve_dense`], [`all_outcomes`], [`verify`] and
//! [`write_efg`]; the lean solver's ranked games have none.
//!
//! Around the solver: [`all_outcomes`] (the payoff vectors of every pure subgame perfect
//! equilibrium), [`verify`] (the one-shot deviation check of a strategy profile) and
//! [`write_efg`] (export to Gambit), and [`unfold`] (a solution's game tree, for drawing). Impartial normal-play games (N/P, Grundy values,
//! remoteness, suspense, strategic duration) are analysed in [`impartial`]. The engine knows nothing of terminals, JSON or CLI
//! flags; progress is reported through the [`Progress`] trait. It must not depend on any
//! game family or on [`crate::api`] (`scripts/check_layers.py` checks it).

mod chance;
#[cfg(test)]
mod chance_tests;
mod efg;
mod evaluate;
mod fixed;
pub mod fx;
mod game;
pub mod impartial;
mod lean;
mod outcomes;
mod payoff;
pub mod reference;
mod solve;
mod table;
#[cfg(test)]
mod tests;
mod ties;
mod unfold;
mod verify;

pub use efg::{tree_size, write_efg};
pub use fixed::Fixed;
pub use game::{
    next_subset, player_letter, serialize_player, subset_layer_members, Game, IndexedGame, Player,
    CHANCE,
};
pub use lean::{
    all_outcomes_lean, check_held, lean_bytes, lean_bytes_resolving, lean_held_states,
    path_from_choices, solve_lean, Lattice, LeanSolution, LeanStep, PathRecovery, RankedGame,
};
pub use outcomes::{all_outcomes, reachable_payoffs};
pub use payoff::Payoff;
pub use solve::{
    solve, solve_dense, Branch, ChanceStep, Choice, Explanation, MoveLine, Play, PlayOf, Solution,
    Step,
};
pub use ties::{ParseTiesError, Reason, TieBreak, Ties};
pub use unfold::{unfold, NodeRole, TreeNode, UnfoldOptions, UnfoldedTree};
pub use verify::{verify, Deviation, Verdict, VerdictOf};

/// Limits on the work the engine may take on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The largest number of states the engine may store.
    pub max_states: u64,
}

impl Budget {
    /// The default budget: 3 * 10^8 states, about 4.5 GiB for two players over `i64`,
    /// sized so that a 24 GiB machine keeps room for three- and four-player tables too.
    pub const DEFAULT_MAX_STATES: u64 = 300_000_000;
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_states: Self::DEFAULT_MAX_STATES,
        }
    }
}

/// What can go wrong in the engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The state space is larger than the budget.
    #[error("the state space has {}, over the budget of {budget} states; that would need about {}", describe_count(*.states), describe_bytes(*.bytes))]
    TooManyStates {
        /// The number of states (a lower bound when the search stopped early).
        states: u128,
        /// The budget that was exceeded.
        budget: u64,
        /// The memory the table would need.
        bytes: u128,
    },
    /// The lean solver would hold more states at once than the budget.
    #[error("the state space has {}; solved two layers at a time it holds {held} states at once, over the budget of {budget} states; that would need about {}", describe_count(*.states), describe_bytes(*.bytes))]
    TooManyHeld {
        /// The number of states.
        states: u128,
        /// The states held at once (the two largest adjacent layers).
        held: u128,
        /// The budget that was exceeded.
        budget: u64,
        /// The memory it would need.
        bytes: u128,
    },
    /// The lean solver would hold more bytes than its memory budget, even recovering its
    /// path by re-solving instead of keeping a choice byte per state.
    #[error("the state space has {}; solved two layers at a time it would hold about {}, over the memory budget of {}", describe_count(*.states), describe_bytes(*.bytes), describe_bytes(*.memory))]
    OverMemory {
        /// The number of states.
        states: u128,
        /// The bytes it would hold at once.
        bytes: u128,
        /// The memory budget.
        memory: u128,
    },
    /// The equilibrium sets of [`all_outcomes_lean`] outgrew their memory budget (their
    /// sizes are known only as they are computed).
    #[error("the sets of equilibrium outcomes outgrew the memory budget at layer {layer}: {} held, over {}", describe_bytes(*.bytes), describe_bytes(*.budget))]
    SetsTooLarge {
        /// The layer being solved (states with this many moves left, for a dinner).
        layer: usize,
        /// The bytes held when the run stopped.
        bytes: u128,
        /// The budget.
        budget: u128,
    },
    /// The memory for the table could not be allocated.
    #[error("cannot allocate {} for the state table", describe_bytes(*.0))]
    OutOfMemory(u128),
    /// A move led back to a state on the current path.
    #[error("the game graph has a cycle through state {0}; backward induction needs a finite acyclic game")]
    Cycle(String),
    /// A dense game broke its layer contract.
    #[error("indexed game moves from layer {from} to layer {to}; moves must lead to lower layers")]
    LayerOrder {
        /// Layer of the state moved from.
        from: usize,
        /// Layer of the state moved to.
        to: usize,
    },
    /// A strategy chose a move that is not legal.
    #[error("the strategy of player {player} chose an illegal move at state {state}")]
    IllegalMove {
        /// The player.
        player: String,
        /// The state.
        state: String,
    },
    /// The game tree is too large to export.
    #[error("the game tree has {nodes} nodes, over the export limit of {limit}")]
    TreeTooLarge {
        /// Number of nodes of the tree (saturating).
        nodes: u128,
        /// The limit.
        limit: u128,
    },
    /// Writing the export failed.
    #[error("cannot write: {0}")]
    Io(String),
    /// The probabilities at a chance state are not a distribution.
    #[error("the probabilities at chance state {state} {problem}")]
    Probabilities {
        /// The state.
        state: String,
        /// What is wrong: a negative probability, or the sum.
        problem: String,
    },
    /// A set of equilibrium outcomes (combined across chance) grew past its limit.
    #[error("the equilibrium outcomes at state {state} number more than {limit}")]
    TooManyOutcomes {
        /// The state.
        state: String,
        /// The limit (the state budget).
        limit: u64,
    },
    /// The caller asked the computation to stop ([`Progress::cancelled`]).
    #[error("cancelled before the computation finished")]
    Cancelled,
}

/// `2^k = n states` when `n` is a power of two, else `n states`.
fn describe_count(n: u128) -> String {
    if n.is_power_of_two() && n >= 1024 {
        format!("2^{} = {} states", n.trailing_zeros(), n)
    } else {
        format!("{n} states")
    }
}

/// Bytes in binary units up to EiB; past 1024 EiB, in bytes as a power of ten (a number
/// no unit makes short).
///
/// ```
/// use lastbite::engine::describe_bytes;
/// assert_eq!(describe_bytes(512), "512 B");
/// assert_eq!(describe_bytes(3 << 30), "3.0 GiB");
/// assert_eq!(describe_bytes(1 << 64), "16.0 EiB");
/// assert_eq!(describe_bytes(302_231_454_903_657_293_676_544), "3.0 x 10^23 B");
/// ```
pub fn describe_bytes(b: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else if v >= 1024.0 {
        let exp = (b as f64).log10().floor();
        format!("{:.1} x 10^{exp} B", b as f64 / 10f64.powf(exp))
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// The memory this process holds now (its resident set), where the system says
/// (Linux's `/proc`); `None` elsewhere. For budgets on what no size formula bounds (a
/// game written in Python: its states are the user's objects).
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    kb.trim()
        .trim_end_matches("kB")
        .trim()
        .parse::<u64>()
        .ok()
        .map(|k| k << 10)
}

/// Receives progress reports from long computations. Implemented by front ends (the CLI
/// draws a progress bar on stderr); the engine never touches a terminal.
pub trait Progress: Sync {
    /// A phase with `total` units of work begins.
    fn start(&self, _total: u64, _what: &str) {}
    /// `done` more units are finished.
    fn advance(&self, _done: u64) {}
    /// The phase is over.
    fn finish(&self) {}
    /// Whether the caller wants the computation stopped. Long loops ask between chunks of
    /// work and return [`EngineError::Cancelled`] (or their family's equivalent).
    fn cancelled(&self) -> bool {
        false
    }
    /// The whole call is expected to take about `seconds` of one core (its cost model's
    /// estimate, given once before the work): a bar may show it beside the work done.
    fn expect(&self, _seconds: f64) {}
}

/// A [`Progress`] that reports nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Progress for Silent {}

/// A [`Progress`] that passes on only whether to stop: for a computation run as one item
/// of a larger one (a sweep's trial), whose own phases must not replace the caller's.
#[derive(Clone, Copy)]
pub struct CancelOnly<'a>(pub &'a dyn Progress);

impl Progress for CancelOnly<'_> {
    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}
