//! The subtraction commands' cost models ([`crate::api::cost`]): a ruleset's period search
//! visits about `m^2` heaps for largest element `m` (never more than `limit`), each heap
//! a step per element; a table of `h` heaps is `h` steps per element.

use crate::api::cost::{Estimate, Work, HEAP_STATES, RULESET_STEPS};
use crate::games::subtraction::Ruleset;

/// A period search of `set` in heap states: the table (about `m^2` heaps for largest
/// element `m`, at most `limit`, a step per element) and the certificate, which tries
/// every period below the table's length against a window of `m` heaps (measured about a
/// heap state per heap and period: what dominates from a largest element of a few
/// thousand).
pub(super) fn period_steps(set: &Ruleset, limit: u64) -> f64 {
    let (m, k) = (set.max() as f64, set.elements().len() as f64);
    table_steps(m, k, limit) + certify_steps(m, limit)
}

fn table_steps(m: f64, k: f64, limit: u64) -> f64 {
    (m * m).max(64.0).min(limit.max(1) as f64) * k
}

fn certify_steps(m: f64, limit: u64) -> f64 {
    m * m.min(limit.max(1) as f64)
}

/// One period search.
pub(super) fn period(set: &Ruleset, limit: u64) -> Estimate {
    Estimate::new(Work::count(period_steps(set, limit)), HEAP_STATES)
}

/// A table of heaps `0..=heaps`.
pub(super) fn table(set: &Ruleset, heaps: u64) -> Estimate {
    let k = set.elements().len() as f64;
    // Every convention's outcome and moves of each heap, kept for the report, and the
    // report's row of each heap (measured: the rows dominate from 10^5 heaps).
    Estimate::new(
        Work::count((heaps as f64 + 1.0) * (k * 120.0 + 1000.0)),
        HEAP_STATES,
    )
}

/// The period searches of every ruleset in `sets`.
pub(super) fn rulesets(sets: &[Ruleset], limit: u64) -> Estimate {
    let all: f64 = sets.iter().map(|s| ruleset_steps(s, limit)).sum();
    Estimate::new(Work::count(all), RULESET_STEPS)
}

/// One ruleset of a sweep: its period search and the statements checked on it (about a
/// thousand steps whatever its size).
pub(super) fn ruleset_steps(set: &Ruleset, limit: u64) -> f64 {
    let (m, k) = (set.max() as f64, set.elements().len() as f64);
    sweep_steps(m, k, limit)
}

/// A sweep's ruleset in ruleset steps (a ruleset step is about four heap states).
fn sweep_steps(m: f64, k: f64, limit: u64) -> f64 {
    table_steps(m, k, limit) + certify_steps(m, limit) / 4.0 + 1000.0
}

/// The period searches of every ruleset of `size` elements with largest element at most
/// `max` (`C(max, size)` of them, their largest near `max`).
pub(super) fn family(size: u64, max: u64, limit: u64) -> Estimate {
    let each = sweep_steps(max as f64, size as f64, limit);
    Estimate::new(
        Work::binomial(max as f64, size as f64).times(Work::count(each)),
        RULESET_STEPS,
    )
}
