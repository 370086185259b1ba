//! Self-interest cumulative subtraction games (Bhagat, Kulkarni, Larsson and Murali,
//! "Tie-breaking in self interest cumulative subtraction games").
//!
//! Players alternately remove `s` in `S` from one heap and pocket it. Ties between moves
//! equally good for the mover are broken by each player's committed convention, friendly
//! or antagonistic (FvF, FvA, AvF, AvA). The family is split as the paper is:
//!
//! * [`model`]: validated [`Ruleset`]s and [`Convention`]s;
//! * [`theory`]: the outcome function of Definition 2 for all conventions at once, the
//!   zero-sum score, and eventual periodicity with a certificate (any heap, exactly);
//! * [`position`]: the position after some takes, outcomes at any heap (a table or the
//!   period) and each move of a position valued;
//! * [`game`]: the engine game that checks the DP (in its tests);
//! * [`analysis`]: exact per-ruleset analyses, sweeps, and the conjectures as checks;
//! * [`figures`]: Figures 1, 2, 3 and an outcome-table heat map;
//! * [`reproduce`]: Tables 1, 2 and 3 recomputed.
//!
//! The family owns its model, theory, cross-checks and analyses; it must not depend on
//! another family or on the API (requests, reports and their text are `api`'s).

pub mod analysis;
pub mod figures;
pub mod game;
pub mod model;
pub mod position;
pub mod reproduce;
pub mod scanfile;
pub mod theory;

pub use game::SubtractionGame;
pub use model::{parse_heap, Convention, Ruleset, SubtractionError};
pub use position::{MoveValue, Outcomes, Position, TABLE_HEAPS};
pub use theory::{
    find_period, find_period_until, first_discrepancy, first_zero_sum_discrepancy, outcome_at,
    Derivation, HeapOutcome, Period, Table,
};
