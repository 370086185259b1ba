//! The cookie commands' cost models ([`crate::api::cost`]): the positions each table
//! solves, which grow geometrically with the number of components (fitted to measured
//! runs; the ratios are in `docs/performance.md`).

use crate::api::cost::{Estimate, Work, COOKIE_POSITIONS};

/// `cookie table`: by lattice paths about `n^4` big-number steps; by enumeration every
/// position of up to `n` components.
pub(super) fn table(n: u64, enumerate: bool) -> Estimate {
    let n = n as f64;
    let w = if enumerate {
        Work::pow(1.9, n).times(Work::count(0.09 * n))
    } else {
        Work::count(n.powi(4) / 1000.0)
    };
    Estimate::new(w, COOKIE_POSITIONS)
}

/// `cookie nim`: the nim values of every position of up to `n` components (the engine's
/// brute force grows faster).
pub(super) fn nim(n: u64, engine: bool) -> Estimate {
    let base = if engine { 2.6 } else { 1.9 };
    Estimate::new(
        Work::pow(base, n as f64).times(Work::count(0.2)),
        COOKIE_POSITIONS,
    )
}

/// `cookie general`: the general game's positions of up to `n` components (measured to
/// grow about 3.3-fold a component from 13 to 17).
fn general(n: u64) -> Estimate {
    Estimate::new(
        Work::pow(GROWTH, n as f64).times(Work::count(0.068)),
        COOKIE_POSITIONS,
    )
}

/// How many times the work of a general table grows a component.
const GROWTH: f64 = 3.3;

/// The layers below `n` of the general table: what each shard of `cookie general` builds
/// before its parts of the last layer (a table to `n - 1`).
pub(super) fn general_below(n: u64) -> Estimate {
    general(n).times(Work::count(1.0 / GROWTH))
}

/// The last layer of the general table to `n` (the whole table less the layers below).
pub(super) fn general_last(n: u64) -> Estimate {
    general(n).times(Work::count(1.0 - 1.0 / GROWTH))
}
