//! What a game object must define, checked before it is solved, with a misspelling named.

use pyo3::prelude::*;

use crate::error::Error;

/// The most moves one state may have: a `moves` that never ends is cut here.
pub(super) const MAX_MOVES: usize = 1_000_000;

/// The payoff methods a game may define (one at least), besides the four it must.
pub(super) const OPTIONAL: [&str; 2] = ["move_payoffs", "terminal_payoffs"];

/// Refuses a game object without one of the four methods it needs, or with no payoff
/// method (naming a close misspelling of one, where it has one).
pub(super) fn check_methods(obj: &Bound<'_, PyAny>) -> PyResult<()> {
    for name in ["root", "to_move", "moves", "play"] {
        if !obj.hasattr(name)? {
            return Err(Error::new_err(format!(
                "the game has no {name} method (a game needs root, to_move, moves and play)"
            )));
        }
    }
    let names: Vec<String> = obj
        .dir()?
        .iter()
        .filter_map(|n| n.extract::<String>().ok())
        .filter(|n| !n.starts_with('_'))
        .collect();
    let payoffs = &OPTIONAL;
    if payoffs.iter().any(|m| names.iter().any(|n| n == m)) {
        return Ok(());
    }
    // No payoff method: a misspelt one named, else said so (a game with `terminal_payoff`
    // would otherwise solve to all-zero payoffs).
    for wanted in payoffs {
        if let Some(close) = names.iter().find(|n| distance(n, wanted) <= 2) {
            return Err(Error::new_err(format!(
                "the game has {close} but no {wanted}: a misspelling? (lastbite reads terminal_payoffs(state) and move_payoffs(state, move))"
            )));
        }
    }
    Err(Error::new_err(
        "the game has no payoff method: define terminal_payoffs(state) or move_payoffs(state, move)",
    ))
}

/// The edit distance of two names (insertions, deletions, substitutions).
pub(super) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (prev + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
