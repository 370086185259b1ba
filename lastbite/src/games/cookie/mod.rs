//! The cookie game (Propp and Ullman, "On the Cookie Game", 1990): players alternately eat
//! an unspoiled cookie; every day each cookie comes a day closer to spoiling; whoever eats
//! the last edible cookie wins. An impartial normal-play game.
//!
//! * [`model`]: positions and the reduction of Section 1 (surplus, deletion, depletion,
//!   reduced and strict positions, dominance);
//! * [`theory`]: critical positions and the strategic duration `D(A)`, checked against
//!   the engine's impartial analysis (brute force) in its tests;
//! * [`reproduce`]: the paper's examples and its table of critical positions.

pub mod model;
pub mod reproduce;
pub mod theory;

pub use model::{CookieError, CookieGame, Position};
pub use theory::{
    count_table, critical, d_value, d_value_by_critical, nim_distribution, smallest_d,
    MAX_ENUMERATED,
};
