//! The dinner's model (paper: "Dinners and strategies"): validated dinners, turn orders
//! and rules, checked together in a [`Setup`], with their payoff arithmetic.
//!
//! A [`Dinner`] is a non-empty list of morsels, each with one exact utility per player.
//! Utilities are scaled to a common denominator once, here, so every solver compares
//! integers. A [`TurnOrder`] is the sequence of players of the turns, one per morsel.
//! [`Rules`] vary the payoffs (discount, altruism) and which morsels may be eaten
//! (precedence). A [`Setup`] is the three checked together (parse, don't validate): the
//! theory, the solvers and picking take it, and never check an order against a dinner
//! again.
//!
//! * `dinner`: [`Dinner`] and [`Bite`]; `read`: the dinner file readers (CSV, JSON,
//!   TOML); `order`: [`TurnOrder`]; `rules`: [`Rules`] and [`Precedence`]; `setup`:
//!   [`Setup`] and [`Position`]; `scoring`: [`Scoring`]; `error`: [`DinnerError`].
//!
//! The model holds no solver or strategy: it only says what a valid dinner is.

mod dinner;
mod error;
mod order;
mod read;
mod rules;
mod scoring;
mod setup;

pub use dinner::{Bite, Dinner};
pub use error::{DinnerError, MAX_PLAYERS};
use order::check_order;
pub use order::TurnOrder;
pub use rules::{Precedence, PrecedenceError, Rules};
pub use scoring::Scoring;
pub use setup::{Position, Setup};
