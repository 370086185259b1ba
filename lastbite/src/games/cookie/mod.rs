//! The cookie game (Propp and Ullman, "On the Cookie Game", 1990): players alternately eat
//! an unspoiled cookie; every day each cookie comes a day closer to spoiling; whoever eats
//! the last edible cookie wins. An impartial normal-play game.
//!
//! * [`game`]: the game between two players, for the generic engine and for play;
//! * [`model`]: positions and the reduction of Section 1 (surplus, deletion, depletion,
//!   reduced and strict positions, dominance);
//! * [`theory`]: critical positions and the strategic duration `D(A)`, checked against
//!   the engine's impartial analysis (brute force) in its tests;
//! * [`tables`]: the count table by `D`-value and the nim-values of strict positions,
//!   each by enumeration and by a fast route;
//! * [`general`]: every reduced position (not only strict ones): type, nim-value,
//!   remoteness, suspense and strategic duration, checked against brute force;
//! * [`reproduce`]: the paper's examples and its tables.
//!
//! The family owns its model, theory, cross-checks and analyses; it must not depend on
//! another family or on the API (requests, reports and their text are `api`'s).

pub mod game;
pub mod general;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod layout;
pub mod model;
pub mod reproduce;
mod store;
pub mod tables;
pub mod theory;

pub use game::CookieMatch;
pub use model::{CookieError, CookieGame, Position, StrictCode, TableKind};
pub use tables::{
    count_table, count_table_by_paths, nim_distribution, NimTable, Packing, DEFAULT_NIM_MEMORY,
    MAX_BY_PATHS, MAX_ENUMERATED, MAX_NIM_TABLE,
};
pub use theory::{critical, d_value, d_value_by_critical, smallest_d};
