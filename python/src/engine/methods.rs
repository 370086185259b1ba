//! What a game object must define, checked before it is solved, with a misspelling named.

use pyo3::prelude::*;

use crate::error::Error;

/// The most moves one state may have: a `moves` that never ends is cut here.
pub(super) const MAX_MOVES: usize = 1_000_000;

/// The payoff methods a game may define (one at least), besides the four it must.
pub(super) const OPTIONAL: [&str; 2] = ["move_payoffs", "terminal_payoffs"];

/// The methods every game defines.
const REQUIRED: [&str; 4] = ["root", "to_move", "moves", "play"];

/// Refuses a game object without one of the four methods it needs, or with no payoff
/// method, naming a close misspelling of the missing one where the object has one (a
/// game with `move` for `moves`, or `terminal_payoff`, would otherwise fail far from
/// the cause, or solve to all-zero payoffs).
pub(super) fn check_methods(obj: &Bound<'_, PyAny>) -> PyResult<()> {
    let names: Vec<String> = obj
        .dir()?
        .iter()
        .filter_map(|n| n.extract::<String>().ok())
        .filter(|n| !n.starts_with('_'))
        .collect();
    let close = |wanted: &str| {
        names
            .iter()
            .filter(|n| !REQUIRED.contains(&n.as_str()) && !OPTIONAL.contains(&n.as_str()))
            .find(|n| distance(n, wanted) <= 2)
    };
    let needs = "a game needs root, to_move, moves and play";
    for name in REQUIRED {
        if !obj.hasattr(name)? {
            return Err(Error::new_err(match close(name) {
                Some(c) => format!("the game has {c} but no {name}: a misspelling? ({needs})"),
                None => format!("the game has no {name} method ({needs})"),
            }));
        }
    }
    if OPTIONAL.iter().any(|m| names.iter().any(|n| n == m)) {
        return Ok(());
    }
    for wanted in OPTIONAL {
        if let Some(c) = close(wanted) {
            return Err(Error::new_err(format!(
                "the game has {c} but no {wanted}: a misspelling? (lastbite reads terminal_payoffs(state) and move_payoffs(state, move))"
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
