//! Crossout and the play plans: the paper's fast theory ("The crossout strategy",
//! Theorem 1, Lemmas 2 and 3), and the strategies of its introduction with their
//! evaluation `v_P(s, t)`.
//!
//! * [`crossout`](mod@crossout): the crossout sequence and outcome, for any two-player
//!   turn order and under the dinner's rules;
//! * [`strategies`]: the named strategies and a profile's play;
//! * private: `plan` (crossout's plan kept along a play that leaves it: the planned sets,
//!   the chain that repairs them, the rank sets they live in), `coupling` (crossout's
//!   next bite read from the end of the crossout sequence where the rankings nearly
//!   agree).
//!
//! New theory of the dinner goes here. It must not call the exact solvers (they check it,
//! in `solver/crosscheck.rs`), nor hold an analysis of many dinners (`analysis/`).

mod coupling;
pub mod crossout;
mod plan;
pub mod strategies;
