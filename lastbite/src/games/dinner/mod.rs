//! Ethiopian Dinner (Levine and Stange, "How to Make the Most of a Shared Meal: Plan the
//! Last Bite First", Amer. Math. Monthly 119 (2012)).
//!
//! Players take turns eating morsels from a shared plate; each morsel has a utility for
//! each player. The family is split as the paper is, a folder each:
//!
//! * [`model`]: validated [`Dinner`]s, [`TurnOrder`]s and [`Rules`], checked together in
//!   a [`Setup`] (parse, don't validate), their payoff arithmetic ([`Scoring`]) and the
//!   dinner file readers;
//! * [`theory`]: crossout (the paper's fast theory) for any two-player turn order, the
//!   strategies of the introduction, and crossout's plan kept along a play;
//! * [`solver`]: the dinner as an engine game and its exact solvers (full table, lean
//!   layers, block kernel, GPU), with crossout's brute-force cross-check beside them;
//! * [`analysis`]: the paper's analyses (Pareto efficiency, attainable sets, balanced
//!   alternation, figures, variants) and its published examples recomputed;
//! * [`picking`]: the dinner as a picking sequence (fair division): sincere play,
//!   manipulation, welfare and its prices, expectations over random rankings.
//!
//! The family owns its model, theory, solvers, cross-checks and analyses; it must not
//! depend on another family or on the API (requests, reports and their text are `api`'s).

pub mod analysis;
pub mod model;
pub mod picking;
pub mod solver;
pub mod theory;

pub use model::{
    Bite, Dinner, DinnerError, Position, Precedence, PrecedenceError, Rules, Scoring, Setup,
    TurnOrder,
};
pub use solver::game::{DinnerGame, DinnerTies, DinnerTiesError};
pub use solver::solve::{
    all_spe_scores, all_spe_scores_within, crossout_gap, random_spe_outcomes, solve_exact,
    CrossoutGap, ExactPlay, Explained, ExplainedMove, DEFAULT_DINNER_MAX_STATES,
    DEFAULT_DINNER_MEMORY, DEFAULT_DINNER_MEMORY_GIB, FULL_TABLE_MAX_STATES, LEAN_FROM,
};
pub use theory::crossout::{crossout, Crossout};
pub use theory::strategies::{evaluate, evaluate_by_recomputation, Playout, Strategy};
