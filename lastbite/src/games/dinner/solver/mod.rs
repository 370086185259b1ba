//! The exact solvers: the dinner as an engine game, and the routes that solve it by
//! backward induction (paper: "Strategies and equilibria"; subgame perfect equilibria
//! for any number of players and any tie rule).
//!
//! * [`game`]: the dinner as a game of the generic engine (states are the subsets of
//!   morsels left), and its tie rules;
//! * [`solve`](mod@solve): the dispatch: the engine's full table for small dinners, the
//!   memory-lean layers from [`LEAN_FROM`](solve::LEAN_FROM) morsels, the GPU when the
//!   `gpu` feature finds a device; all SPE outcomes; the budgets they share;
//! * `gpu` (feature `gpu`): each layer one dispatch on the device;
//! * private: `subsets` (the states ranked layer by layer), `kernel` (the layers decided
//!   on the CPU: its layouts and packing), `blocks` (a layer decided block by block),
//!   and, in tests, `crosscheck` (crossout against brute force by the engine).
//!
//! Solver speed work goes here; a faster route must agree with the engine's on every
//! small dinner (`kernel`'s and `crosscheck`'s tests). It must not hold theory or
//! analyses; the engine stays generic (nothing dinner-specific goes into `engine`).

mod blocks;
#[cfg(test)]
pub(crate) mod crosscheck;
pub mod game;
#[cfg(feature = "gpu")]
pub mod gpu;
mod kernel;
pub mod solve;
mod subsets;
