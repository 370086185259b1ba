//! Ethiopian Dinner (Levine and Stange, "How to Make the Most of a Shared Meal: Plan the
//! Last Bite First", Amer. Math. Monthly 119 (2012)).
//!
//! Players take turns eating morsels from a shared plate; each morsel has a utility for
//! each player. The family is split as the paper is:
//!
//! * [`model`]: validated [`Dinner`]s and [`TurnOrder`]s (parse, don't validate);
//! * [`setup`]: a dinner, its order and its rules validated together ([`Setup`]), and
//!   [`scoring`]: their payoff arithmetic, shared by crossout and the exact game;
//! * [`crossout`](mod@crossout): the crossout strategy, the paper's fast theory, for any
//!   two-player turn order;
//! * [`game`]: the dinner as an engine game, the exact solver for any number of players,
//!   and (in its tests) the brute-force cross-check of crossout;
//! * [`strategies`]: the strategies of the introduction and their evaluation `v_P(s,t)`,
//!   with crossout's plan kept along a play that leaves it (`plan`) and its bite read
//!   from the top of both rankings where they nearly agree, then kept along the play
//!   (`coupling`);
//! * [`variants`]: generalized payoffs (altruism, zero-sum, cooperative) and the open
//!   questions (delayed gratification, inaccessible morsels);
//! * [`picking`]: the dinner as a picking sequence (fair division): sincere play,
//!   manipulation against sincere agents, welfare and its prices;
//! * [`pareto`]: Pareto efficiency of crossout, the size sweep and the random experiment;
//! * [`attainable`]: the Hopkins-Jones count of attainable outcomes;
//! * [`figures`]: Figure 1's outcome plot and the crossout boards of Figures 2, 4, 5;
//! * [`balance`]: first-mover advantage under alternation and Thue-Morse order;
//! * [`reproduce`]: the paper's published examples recomputed.
//!
//! The family owns its model, theory, cross-checks and analyses; it must not depend on
//! another family or on the API (requests, reports and their text are `api`'s).

pub mod attainable;
pub mod balance;
mod blocks;
pub mod crossout;
pub mod figures;
pub mod game;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod kernel;
pub mod model;
pub mod pareto;
pub mod picking;
pub mod reproduce;
pub mod scoring;
pub mod setup;
pub mod solve;
pub mod strategies;
pub mod subsets;
pub mod variants;

mod coupling;
#[cfg(test)]
pub(crate) mod crosscheck;
mod plan;

pub use crossout::{crossout, Crossout};
pub use game::{DinnerGame, DinnerTies};
pub use model::{
    check_order, Bite, Dinner, DinnerError, Precedence, PrecedenceError, Rules, TurnOrder,
};
pub use scoring::Scoring;
pub use setup::{Position, Setup};
pub use solve::{
    all_spe_scores, random_spe_outcomes, solve_exact, ExactPlay, Explained, ExplainedMove,
    DEFAULT_DINNER_MAX_STATES, DEFAULT_DINNER_MEMORY, DEFAULT_DINNER_MEMORY_GIB,
    FULL_TABLE_MAX_STATES, LEAN_FROM,
};
pub use strategies::{evaluate, evaluate_by_recomputation, Playout, Strategy};
