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

/// The largest `n` whose strict positions are enumerated (2^(n-1) of them).
pub const MAX_ENUMERATED: u64 = 28;

/// The number of strict `n`-component positions with each D-value, for `n = 0..=max_n`,
/// by enumerating every strict position (`counts[n][d]`), in parallel.
pub fn count_table(max_n: u64, progress: &dyn crate::engine::Progress) -> Vec<Vec<u64>> {
    use rayon::prelude::*;
    let mut table = vec![vec![1u64]]; // n = 0: the empty position, D = 0.
    let total: u64 = (1..=max_n).map(|n| 1u64 << (n - 1)).sum();
    progress.start(total, "strict positions");
    for n in 1..=max_n {
        let crit: Vec<Position> = (smallest_d(n)..=n)
            .map(|d| critical(n, d).expect("d in range"))
            .collect();
        const CHUNK: u64 = 1 << 14;
        let count = 1u64 << (n - 1);
        let row = (0..count.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut hist = vec![0u64; n as usize + 1];
                let mut comps = Vec::with_capacity(n as usize);
                for mask in c * CHUNK..((c + 1) * CHUNK).min(count) {
                    comps.clear();
                    comps.extend((1..n).filter(|i| mask >> (i - 1) & 1 == 1));
                    comps.resize(n as usize, n);
                    let p = Position::new(std::mem::take(&mut comps));
                    let d = crit
                        .iter()
                        .rposition(|c| p.dominates(c))
                        .expect("every strict position dominates (1..n)");
                    hist[smallest_d(n) as usize + d] += 1;
                    comps = p.into_components();
                }
                progress.advance(((c + 1) * CHUNK).min(count) - c * CHUNK);
                hist
            })
            .reduce(
                || vec![0u64; n as usize + 1],
                |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
            );
        table.push(row);
    }
    progress.finish();
    table
}

/// The distribution of nim-values (Sprague-Grundy values) of all strict positions with
/// `n = 1..=max_n` components, by the engine's brute force: `dist[n][g]` positions with
/// value `g`. The paper saw none of value 4 or more up to 20 components.
pub fn nim_distribution(max_n: u64, progress: &dyn crate::engine::Progress) -> Vec<Vec<u64>> {
    use crate::engine::impartial::Analyser;
    let game = super::model::CookieGame;
    let mut an = Analyser::new(&game);
    let total: u64 = (1..=max_n).map(|n| 1u64 << (n - 1)).sum();
    progress.start(total, "strict positions");
    let mut dist = vec![Vec::new()];
    for n in 1..=max_n {
        let mut row = Vec::new();
        for mask in 0u64..1 << (n - 1) {
            let mut c: Vec<u64> = (1..n).filter(|i| mask >> (i - 1) & 1 == 1).collect();
            c.resize(n as usize, n);
            let g = an.value(&Position::new(c)).grundy as usize;
            if row.len() <= g {
                row.resize(g + 1, 0);
            }
            row[g] += 1;
        }
        progress.advance(1 << (n - 1));
        dist.push(row);
    }
    progress.finish();
    dist
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

    /// Whether reduction keeps nim-values too (not only the type): recorded, since a
    /// table over strict codes would rely on it.
    #[test]
    fn reduction_and_nim_values() {
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        let mut rng = crate::rng::Rng::for_trial(4, 0);
        let mut kept = 0;
        let trials = 400;
        for _ in 0..trials {
            let n = 1 + rng.below(8) as usize;
            let p = Position::new((0..n).map(|_| rng.below(11)).collect());
            if an.value(&p).grundy == an.value(&p.reduced()).grundy {
                kept += 1;
            }
        }
        // Depletion alone keeps the game tree, hence the nim-value, always.
        for _ in 0..trials {
            let n = 1 + rng.below(8) as usize;
            let p = Position::new((0..n).map(|_| rng.below(15)).collect());
            assert_eq!(an.value(&p).grundy, an.value(&p.depletion()).grundy, "{p}");
        }
        println!("reduction kept the nim-value in {kept} of {trials} random positions");
    }

    #[test]
    fn nim_values_of_small_strict_positions() {
        let d = nim_distribution(10, &crate::engine::Silent);
        for (n, row) in d.iter().enumerate().skip(1) {
            assert_eq!(row.iter().sum::<u64>(), 1 << (n - 1));
        }
        // (2, 3, 4, 4) is strict with nim-value 3.
        assert!(d[4].len() >= 4 && d[4][3] >= 1);
    }

    #[test]
    fn count_rows_sum_to_the_number_of_strict_positions() {
        let t = count_table(16, &crate::engine::Silent);
        for (n, row) in t.iter().enumerate().skip(1) {
            assert_eq!(row.iter().sum::<u64>(), 1 << (n - 1), "n {n}");
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
