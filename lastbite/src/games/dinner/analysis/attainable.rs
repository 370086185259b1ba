//! Attainable outcomes under crossout (paper: "Combinatorics at the dinner table";
//! Hopkins and Jones): over all permutation dinners of size `2k`, how many distinct sets
//! of utilities can Alice (and Bob) end up eating? The paper states `C_k` for Alice and
//! `C_{k+1}` for Bob (Catalan numbers).
//!
//! Counting without enumerating the `(2k)!` dinners: for player P, read every morsel by
//! its utility to P (`1..n`). The crossout sequence crosses out, step by step, either
//! P's least favourite remaining morsel (when the other player eats it: a forced step,
//! the smallest remaining number) or the other player's least favourite (when P eats it:
//! any remaining morsel, since the other player's ranking is arbitrary). Every sequence of
//! choices is realised by a permutation dinner (give each morsel, as its utility to the
//! other player, the step at which it is crossed out), so P's attainable sets are exactly
//! the sets of numbers chosen at P's steps, collected by a memoised search over the sets
//! of remaining morsels. [`attainable_brute_force`] enumerates dinners to check it.

use std::collections::{HashMap, HashSet};

use crate::engine::{EngineError, Player, Progress};

use crate::games::dinner::analysis::variants::next_permutation;
use crate::games::dinner::model::{Dinner, DinnerError, Setup};
use crate::games::dinner::theory::crossout::crossout;

/// The number of distinct sets of utilities player `p` eats under crossout over all
/// permutation dinners of size `n` with Bob moving last.
///
/// ```
/// use lastbite::engine::Silent;
/// use lastbite::games::dinner::analysis::attainable::attainable;
/// assert_eq!(attainable(6, 0, &Silent).unwrap(), 5); // Catalan C_3
/// ```
pub fn attainable(n: usize, p: Player, progress: &dyn Progress) -> Result<u64, DinnerError> {
    if !(1..=24).contains(&n) || p > 1 {
        return Err(DinnerError::Size {
            what: "the attainable-set search",
            size: n,
            unit: "crossout play of a permutation",
            min: 1,
            max: 24,
        });
    }
    // Bob moves last: turn t (from 0) is Alice's when n - t is even.
    let eater = |t: usize| -> Player {
        if (n - t).is_multiple_of(2) {
            0
        } else {
            1
        }
    };
    // Crossout step s (from 0) is eaten on turn n - 1 - s.
    let mut search = Search {
        n,
        p,
        eater: &eater,
        memo: HashMap::new(),
        progress,
        work: 0,
        cancelled: false,
    };
    let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let result = search.sets_from(full);
    if search.cancelled {
        return Err(DinnerError::Engine(EngineError::Cancelled));
    }
    Ok(result.len() as u64)
}

/// The memoised search of one player's attainable sets.
struct Search<'a> {
    n: usize,
    p: Player,
    eater: &'a dyn Fn(usize) -> Player,
    memo: HashMap<u32, HashSet<u32>>,
    progress: &'a dyn Progress,
    /// Sets collected since the caller was last asked whether to stop.
    work: u64,
    /// The caller asked to stop: every call returns at once.
    cancelled: bool,
}

/// Sets collected between two questions to the caller (a few milliseconds).
const ASK_EVERY: u64 = 1 << 16;

impl Search<'_> {
    /// The sets player `p` can still collect from the morsels in `remaining`.
    fn sets_from(&mut self, remaining: u32) -> HashSet<u32> {
        let (n, p, eater) = (self.n, self.p, self.eater);
        if remaining == 0 {
            return HashSet::from([0]);
        }
        if self.cancelled {
            return HashSet::new();
        }
        if let Some(s) = self.memo.get(&remaining) {
            return s.clone();
        }
        let step = n - remaining.count_ones() as usize;
        let turn = n - 1 - step;
        let mut out = HashSet::new();
        if eater(turn) == p {
            // P eats the other player's least favourite: any remaining morsel.
            let mut rest = remaining;
            while rest != 0 {
                let i = rest.trailing_zeros();
                rest &= rest - 1;
                for s in self.sets_from(remaining & !(1 << i)) {
                    out.insert(s | 1 << i);
                }
            }
        } else {
            // The other player eats P's least favourite: the smallest remaining.
            let i = remaining.trailing_zeros();
            out = self.sets_from(remaining & !(1 << i));
        }
        self.work += out.len() as u64 + 1;
        if self.work >= ASK_EVERY {
            self.work = 0;
            self.cancelled = self.progress.cancelled();
        }
        if !self.cancelled {
            self.memo.insert(remaining, out.clone());
        }
        out
    }
}

/// The same count by crossing out every permutation dinner of size `n` (n! of them).
pub fn attainable_brute_force(n: usize, p: Player) -> u64 {
    let mut perm: Vec<i64> = (1..=n as i64).collect();
    let mut seen = HashSet::new();
    loop {
        let s = Setup::plain(Dinner::permutation(&perm).expect("valid")).expect("valid");
        let (d, c) = (s.dinner(), crossout(&s).expect("two players"));
        let set: u32 = c
            .eating()
            .filter(|b| b.player == p)
            .map(|b| 1u32 << (d.utility(b.morsel, p) - 1))
            .fold(0, |a, b| a | b);
        seen.insert(set);
        if !next_permutation(&mut perm) {
            return seen.len() as u64;
        }
    }
}

/// The Catalan number `C_k = binom(2k, k) / (k + 1)`, computed exactly.
pub fn catalan(k: u64) -> u128 {
    // C_{j+1} = C_j * 2(2j + 1) / (j + 2), exact at every step.
    (0..k).fold(1u128, |c, j| {
        c * (2 * (2 * j as u128 + 1)) / (j as u128 + 2)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search agrees with enumerating all dinners, for both players, n <= 8.
    #[test]
    fn search_equals_brute_force() {
        for n in 1..=8 {
            for p in 0..2 {
                assert_eq!(
                    attainable(n, p, &crate::engine::Silent).unwrap(),
                    attainable_brute_force(n, p),
                    "n {n} player {p}"
                );
            }
        }
    }

    #[test]
    fn catalan_numbers() {
        let first: Vec<u128> = (0..8).map(catalan).collect();
        assert_eq!(first, vec![1, 1, 2, 5, 14, 42, 132, 429]);
    }
}
