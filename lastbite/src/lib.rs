//! lastbite computes optimal play in turn-taking games of perfect information: subgame
//! perfect equilibria by backward induction, exactly and fast, and explains it.
//!
//! * [`api`]: one request type, report type and function per command: the contract every
//!   front end (CLI, Python, web) calls.
//! * [`engine`]: the generic solver every game family uses (memoised backward induction,
//!   dense tables, per-player tie-breaking, all equilibrium outcomes, explanations,
//!   verification by one-shot deviations, Gambit export).
//! * [`games`]: one module per game family from the papers, each with its model, its
//!   fast theory, the brute-force cross-check of that theory, and its analyses.
//! * [`number`]: exact numbers ([`exact`] for input and output, solvers compare integers;
//!   [`rational`] of any size, for expectations over chance nodes), over one gcd.
//! * [`reproduce`]: published values next to recomputed ones, for every family.
//! * [`rng`]: the reproducible random streams of experiments.
//! * [`svg`]: the chart writer behind the figures.
//! * [`table`]: tables as data, whatever they are written as; [`latex`] writes them for
//!   papers.
//! * [`text`]: user text inside one-line messages, escaped.
//! * [`tree`]: game trees laid out and drawn; [`tikz`] turns any picture into TikZ.
#![deny(missing_docs)]

pub mod api;
pub mod engine;
pub mod files;
pub mod games;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod latex;
pub mod number;
mod par;
pub use number::{exact, rational};
pub mod reproduce;
pub mod rng;
pub mod svg;
pub mod table;
pub mod text;
pub mod tikz;
pub mod tree;

/// What a user or version needs to tell about this build: the library's version and the
/// features it was compiled with (`lastbite --version` and Python's `show_versions()`
/// print them).
pub mod build {
    /// The library's version (its crate's).
    pub const VERSION: &str = env!("CARGO_PKG_VERSION");

    /// The library's features enabled in this build, by name.
    ///
    /// ```
    /// assert!(lastbite::build::features().iter().all(|f| ["parallel", "gpu"].contains(f)));
    /// ```
    pub fn features() -> Vec<&'static str> {
        let mut on = Vec::new();
        if cfg!(feature = "parallel") {
            on.push("parallel");
        }
        if cfg!(feature = "gpu") {
            on.push("gpu");
        }
        on
    }
}

/// The crate's README, whose example is compiled and run as a test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
