//! Token Dollars (FiveThirtyEight Riddler, 2018, with a worked solution and a reference
//! Python program): players place tokens in turn on stacks of money on a line or a
//! clock; each stack goes to the nearest tokens, split equally.
//!
//! * [`model`]: validated [`Board`]s, placements ([`Placed`]) and exact payoffs;
//! * [`theory`]: backward induction over sets of taken stacks, tie rules, all SPE outcomes;
//! * [`game`]: the engine game over full histories that checks it (in its tests);
//! * [`reproduce`]: the solution's published answers recomputed;
//! * [`mod@anywhere`]: tokens anywhere on the line or clock, solved exactly;
//! * [`figures`]: the board drawn, with its tokens and territories.
//!
//! The family owns its model, theory, cross-checks and analyses; it must not depend on
//! another family or on the API (requests, reports and their text are `api`'s).

pub mod anywhere;
pub mod figures;
pub mod game;
pub mod model;
pub mod reproduce;
pub mod theory;

pub use anywhere::{
    anywhere, anywhere_with, placements_bound, AnywherePlay, Arena, Candidates, Choice, Interval,
    Placements,
};
pub use game::TokensGame;
pub use model::{Board, Placed, TokensError, MAX_REFINEMENT};
pub use theory::{
    all_outcomes, continuous, explain, limit_intervals, refinements, runs, solve, solve_until,
    GridPlay, PlacementLine, Play, TokenTies,
};
