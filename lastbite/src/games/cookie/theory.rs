//! The Propp-Ullman theory: critical positions `C^{n,d}` and the strategic duration
//! `D(A) = max{d : A dominates C^{n,d}}` of strict positions (Section 1; proofs in
//! Section 3). A position is N exactly when `D` is odd.

use super::model::Position;

/// The critical position `C^{n,d}`, defined for `(2n - 1)/3 <= d <= n`.
///
/// ```
/// use lastbite::games::cookie::critical;
/// assert_eq!(critical(6, 5).unwrap().to_string(), "(1, 2, 3, 5, 6, 6)");
/// assert_eq!(critical(6, 6).unwrap().to_string(), "(2, 4, 6, 6, 6, 6)");
/// assert!(critical(6, 3).is_none());
/// ```
pub fn critical(n: u64, d: u64) -> Option<Position> {
    if n == 0 || d > n || 3 * d < 2 * n - 1 {
        return None;
    }
    if 3 * d == 2 * n - 1 {
        // The extreme case d = (2n - 1)/3.
        return Some(Position::new((1..=n).collect()));
    }
    let r = 2 * (n - d) + d % 2;
    let m = (d + r) / 2;
    let mut c = Vec::with_capacity(n as usize);
    c.extend(1..=r);
    c.extend((1..=(d - r) / 2).map(|i| r + 2 * i));
    c.extend((1..=n - d).map(|i| d + i));
    c.extend((1..=d - m).map(|_| n));
    debug_assert_eq!(c.len() as u64, n);
    Some(Position::new(c))
}

/// The smallest `d` with a critical position for `n` components: `ceil((2n - 1)/3)`.
pub fn smallest_d(n: u64) -> u64 {
    (2 * n - 1).div_ceil(3)
}

/// `D(A)` for a strict position, or for any position whose reduced form is strict
/// (`None` otherwise), by Claim 5: `D(A) >= d` iff `a_{r+i} >= r + 2i` for
/// `1 <= i <= (d - r)/2`, where `r = 2(n - d) + p(d)`. Since `D(A) >= d` is monotone in
/// `d` (the critical positions form a chain, Claim 6), a binary search finds `D(A)` in
/// `O(n log n)` with the reduction's sort.
pub fn d_value(a: &Position) -> Option<u64> {
    let r = match strict_reduced(a)? {
        None => return Some(0),
        Some(r) => r,
    };
    let n = r.len() as u64;
    let c = r.components();
    let at_least = |d: u64| -> bool {
        let rr = 2 * (n - d) + d % 2;
        let t = d.saturating_sub(rr) / 2;
        (1..=t).all(|i| c[(rr + i - 1) as usize] >= rr + 2 * i)
    };
    // Every strict position has D >= smallest_d(n); find the largest d that holds.
    let (mut lo, mut hi) = (smallest_d(n), n);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if at_least(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

/// The reduced form when it is strict: `Some(None)` for the empty position (D = 0),
/// `None` when the reduced form is not strict (D undefined).
fn strict_reduced(a: &Position) -> Option<Option<Position>> {
    let r = a.reduced();
    if r.is_empty() {
        Some(None)
    } else {
        r.is_strict().then_some(Some(r))
    }
}

/// `D(A)` by its definition, `max{d : A dominates C^{n,d}}` (the route Claim 5 is
/// checked against).
pub fn d_value_by_critical(a: &Position) -> Option<u64> {
    let r = match strict_reduced(a)? {
        None => return Some(0),
        Some(r) => r,
    };
    let n = r.len() as u64;
    (smallest_d(n)..=n)
        .rev()
        .find(|&d| r.dominates(&critical(n, d).expect("d in range")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::impartial::{Analyser, Outcome};
    use crate::games::cookie::CookieGame;

    /// Every strict position with `n` components: subsets of {1..n-1} plus n's.
    fn strict_positions(n: u64) -> Vec<Position> {
        (0u64..1 << (n - 1))
            .map(|mask| {
                let mut c: Vec<u64> = (1..n).filter(|i| mask >> (i - 1) & 1 == 1).collect();
                while (c.len() as u64) < n {
                    c.push(n);
                }
                Position::new(c)
            })
            .collect()
    }

    /// The theory against brute force by the engine: D(A) is the strategic duration,
    /// equal to remoteness and suspense, and the type is N iff D(A) is odd.
    #[test]
    fn d_value_is_the_strategic_duration_up_to_12() {
        let game = CookieGame;
        let mut a = Analyser::new(&game);
        for n in 1..=12 {
            let all = strict_positions(n);
            assert_eq!(all.len() as u64, 1 << (n - 1));
            for p in all {
                assert!(p.is_strict(), "{p}");
                let d = d_value(&p).expect("strict") as u32;
                let v = a.value(&p);
                assert_eq!(v.duration, Some(d), "{p}");
                assert_eq!((v.remoteness, v.suspense), (d, d), "{p}");
                assert_eq!(v.outcome == Outcome::N, d % 2 == 1, "{p}");
            }
        }
    }

    /// The same check from 13 to 18 components (131,072 positions at n = 18; a few
    /// seconds in release builds).
    #[test]
    fn d_value_is_the_strategic_duration_up_to_18() {
        let game = CookieGame;
        let mut a = Analyser::new(&game);
        for n in 13..=18 {
            for p in strict_positions(n) {
                let d = d_value(&p).expect("strict") as u32;
                assert_eq!(a.value(&p).duration, Some(d), "{p}");
            }
        }
    }

    /// Reduction keeps the type (Depletion and Deletion Theorems) on random positions.
    #[test]
    fn reduction_keeps_the_type() {
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        let mut rng = crate::rng::Rng::for_trial(9, 0);
        for _ in 0..400 {
            let n = 1 + rng.below(9) as usize;
            let p = Position::new((0..n).map(|_| rng.below(12)).collect());
            let (v, r) = (an.value(&p), an.value(&p.reduced()));
            assert_eq!(v.outcome, r.outcome, "{p} vs {}", p.reduced());
            if let Some(d) = d_value(&p) {
                assert_eq!(v.outcome == Outcome::N, d % 2 == 1, "{p}");
            }
        }
    }

    /// Claim 5 (with the binary search) against the definition, on every strict position
    /// up to 16 components.
    #[test]
    fn claim_5_equals_the_definition() {
        for n in 1..=16 {
            for p in strict_positions(n) {
                assert_eq!(d_value(&p), d_value_by_critical(&p), "{p}");
            }
        }
    }

    #[test]
    fn critical_positions_form_a_chain() {
        for n in 1..=30u64 {
            for d in smallest_d(n) + 1..=n {
                let (lo, hi) = (critical(n, d - 1).unwrap(), critical(n, d).unwrap());
                assert!(hi.dominates(&lo) && lo != hi, "n {n} d {d}");
                assert!(hi.is_strict() && lo.is_strict());
            }
        }
    }
}
