//! The Propp-Ullman theory: critical positions `C^{n,d}` and the strategic duration
//! `D(A) = max{d : A dominates C^{n,d}}` of strict positions (Section 1; proofs in
//! Section 3). A position is N exactly when `D` is odd.

use std::ops::RangeInclusive;

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
    d_of_sorted(a.components())
}

/// [`d_value`] on sorted components, reducing on the fly (no copies): after deleting
/// the first `s(A)` components the rest has surplus 0, so the reduced form is strict
/// exactly when no capped component below `n` repeats.
fn d_of_sorted(c: &[u64]) -> Option<u64> {
    let s = c
        .iter()
        .enumerate()
        .map(|(i, &a)| (i as i128 + 1 - a as i128).max(0) as usize)
        .max()
        .unwrap_or(0);
    let c = &c[s..];
    let n = c.len() as u64;
    if n == 0 {
        return Some(0);
    }
    let at = |i: usize| c[i].min(n);
    if !(1..c.len()).all(|i| at(i - 1) < at(i) || at(i - 1) == n) {
        return None;
    }
    let at_least = |d: u64| -> bool {
        let rr = 2 * (n - d) + d % 2;
        let t = d.saturating_sub(rr) / 2;
        (1..=t).all(|i| at((rr + i - 1) as usize) >= rr + 2 * i)
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

/// Which of Section 3's rules applies to a position, the options the paper lets it
/// take, and the option lastbite takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleMove {
    /// The rule, 1 to 3.
    pub rule: u8,
    /// The smallest `j` that triggered it.
    pub j: i64,
    /// The option indices `k` (from 1) the paper allows: any `k < r + j` (rule 1),
    /// `k = r + j` (rule 2), any `k > r + j` (rule 3). For rule 1 this set can be empty
    /// or hold losing options (see [`winning_rule`]).
    pub printed: RangeInclusive<usize>,
    /// The option taken: `k = 1` under rule 1, `r + j` under rule 2, `r + j + 1` under
    /// rule 3.
    pub k: usize,
}

/// Section 3's procedure, offered in the paper without proof: a winning option `A_k` of
/// a strict position `A` with odd `D(A) = d`, from `r = 2(n - d) + 1`. Components with
/// index `i <= 0` read as `a_i = i` (the paper's `a_0 = 0`, continued down the diagonal
/// of the lattice path). `None` unless `A` is strict with odd `D`.
///
/// Checked against the winning interval on every strict position up to 18 components:
/// rules 2 and 3 are right as printed (rule 3's options are exactly the winning interval)
/// and the rules are exhaustive; but rule 1's "any `k < r + j`" is not. For `(1)` and
/// `(1, 3, 3)` it allows no option at all, and for `(2, 5, 5, 5, 5)` it allows `k = 2`,
/// which loses. Whenever rule 1 applies, the winning interval starts at `k = 1`, so
/// lastbite takes `k = 1` there.
///
/// ```
/// use lastbite::games::cookie::{theory::winning_rule, Position};
/// let a: Position = "1 3 4 5 6 6".parse().unwrap(); // D = 5
/// let m = winning_rule(&a).unwrap();
/// assert_eq!((m.rule, m.j, m.printed.clone(), m.k), (1, 1, 1..=3, 1));
/// let b: Position = "2 4 6 6 6 6".parse().unwrap(); // D = 6: P, no rule
/// assert!(winning_rule(&b).is_none());
/// ```
pub fn winning_rule(a: &Position) -> Option<RuleMove> {
    if !a.is_strict() {
        return None;
    }
    let d = d_value(a)?;
    if d % 2 == 0 {
        return None;
    }
    let n = a.len() as i64;
    let c = a.components();
    let r = 2 * (n - d as i64) + 1;
    let t = (d as i64 - r) / 2;
    let at = |i: i64| if i >= 1 { c[i as usize - 1] as i64 } else { i };
    let first = |js: RangeInclusive<i64>, extra: i64| {
        js.into_iter().find(|&j| at(r + j) == r + 2 * j + extra)
    };
    let all_above = |is: RangeInclusive<i64>, extra: i64| {
        is.into_iter().all(|i| at(r + i) >= r + 2 * i + extra)
    };
    let index = |i: i64| i.clamp(0, n) as usize;
    let m = if let Some(j) = first(0..=t, 0) {
        RuleMove {
            rule: 1,
            j,
            printed: 1..=index(r + j - 1),
            k: 1,
        }
    } else if let (true, Some(j)) = (all_above(0..=t, 1), first(-1..=t, 1)) {
        RuleMove {
            rule: 2,
            j,
            printed: index(r + j)..=index(r + j),
            k: index(r + j),
        }
    } else if let (true, Some(j)) = (all_above(-1..=t, 2), first(-2..=t - 1, 2)) {
        RuleMove {
            rule: 3,
            j,
            printed: index(r + j + 1).max(1)..=n as usize,
            k: index(r + j + 1).max(1),
        }
    } else {
        unreachable!("the rules are exhaustive for odd D (Section 3)")
    };
    Some(m)
}

/// How Section 3's rules fare on every strict N-position with up to `max_n` components:
/// `(positions, positions per rule, rule-1 positions where the printed options are
/// empty or hold a losing one, the first such position)`.
pub fn audit_rules(max_n: u64) -> RuleAudit {
    let mut audit = RuleAudit::default();
    for n in 1..=max_n {
        for mask in 0..1u64 << (n - 1) {
            let p = super::model::StrictCode { n: n as u32, mask }.position();
            let (Some(m), Some(win)) = (winning_rule(&p), winning_interval(&p)) else {
                continue;
            };
            audit.positions += 1;
            audit.per_rule[m.rule as usize - 1] += 1;
            if !win.contains(&m.k) {
                audit.taken_loses += 1;
            }
            let printed_ok = !m.printed.is_empty()
                && win.contains(m.printed.start())
                && win.contains(m.printed.end());
            if !printed_ok {
                audit.printed_wrong[m.rule as usize - 1] += 1;
                if m.printed.is_empty() {
                    audit.printed_empty += 1;
                }
                audit.first_wrong.get_or_insert((p, m.printed.clone(), win));
            }
        }
    }
    audit
}

/// The result of [`audit_rules`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleAudit {
    /// Strict N-positions examined.
    pub positions: u64,
    /// How many fell under rules 1, 2, 3.
    pub per_rule: [u64; 3],
    /// Per rule, the positions where the printed options are empty or hold a losing one.
    pub printed_wrong: [u64; 3],
    /// Of those, the ones where the printed options are empty.
    pub printed_empty: u64,
    /// Positions where the option lastbite takes ([`RuleMove::k`]) loses.
    pub taken_loses: u64,
    /// The first position where the printed options are wrong: position, printed
    /// options, winning interval.
    pub first_wrong: Option<(Position, RangeInclusive<usize>, RangeInclusive<usize>)>,
}

/// `D` of the `k`-th option of a strict position (reduced; `k` from 1).
fn option_d(a: &Position, k: usize) -> u64 {
    d_value(
        &a.option(k)
            .expect("strict positions have no expired component"),
    )
    .expect("options of strict positions reduce to strict ones")
}

/// The winning interval of a strict position with odd `D(A) = d` (Section 4): the
/// options `A_k` with `D(A_k) = d - 1`, a range of `k` since `D(A_k)` falls by 0 or 1
/// from one option to the next (Claim 9). Two bisections, `O(n log^2 n)`. `None` when
/// `A` is not strict or `D` is even (no winning option).
pub fn winning_interval(a: &Position) -> Option<RangeInclusive<usize>> {
    if !a.is_strict() {
        return None;
    }
    let d = d_value(a)?;
    if d % 2 == 0 {
        return None;
    }
    let n = a.len();
    // The first k with D(A_k) <= d - 1, and the first with D(A_k) <= d - 2.
    let first_below = |bound: u64| {
        let (mut lo, mut hi) = (1, n + 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if option_d(a, mid) <= bound {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    };
    let start = first_below(d - 1);
    let end = if d >= 2 { first_below(d - 2) } else { n + 1 };
    (start < end).then_some(start..=end - 1)
}

/// The favoured player's move in `a` (the size of the component eaten), as `cookie play`
/// makes it: Section 3's rule on the reduced form when that is strict (carried back to
/// `a`: the `k`-th component after the `s` deleted ones), else the smallest of
/// `winning()`, the winning sizes found another way (brute force); `None` when no move
/// wins (a P-position).
///
/// ```
/// use lastbite::games::cookie::{theory::favoured_size, Position};
/// let a: Position = "1 3 4 5 6 6".parse().unwrap(); // D = 5: rule 1, k = 1
/// assert_eq!(favoured_size(&a, Vec::new), Some(1));
/// let b: Position = "2 4 6 6 6 6".parse().unwrap(); // D = 6: a P-position
/// assert_eq!(favoured_size(&b, Vec::new), None);
/// ```
pub fn favoured_size(a: &Position, winning: impl FnOnce() -> Vec<u64>) -> Option<u64> {
    match winning_rule(&a.reduced()) {
        Some(m) => Some(a.components()[a.surplus() + m.k - 1]),
        None => winning().first().copied(),
    }
}

/// The sizes of the components of any position whose reduced form is strict that win
/// when eaten (sorted, no repeats), by the theory: the winning interval of the reduced
/// form, carried back through deletion (Claim 4: eating one of the `s` deleted
/// components is tantamount to eating `a_{s+1}`) and depletion (which keeps the order).
/// `None` when the reduced form is not strict.
pub fn winning_sizes(a: &Position) -> Option<Vec<u64>> {
    let reduced = match strict_reduced(a)? {
        None => return Some(Vec::new()),
        Some(r) => r,
    };
    let Some(interval) = winning_interval(&reduced) else {
        return Some(Vec::new());
    };
    let s = a.surplus();
    let c = a.components();
    let mut sizes: Vec<u64> = interval.clone().map(|k| c[s + k - 1]).collect();
    if *interval.start() == 1 {
        sizes.extend(c[..s].iter().copied().filter(|&x| x > 0));
    }
    sizes.sort_unstable();
    sizes.dedup();
    Some(sizes)
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

    /// The same checks from 13 to 18 components (131,072 positions at n = 18), with
    /// Theorem 12 on the options' D-values, the winning interval against the brute
    /// force's winning options, and the option Section 3's rules take (about 10 s in
    /// release builds).
    #[test]
    fn theory_equals_brute_force_13_to_18() {
        let game = CookieGame;
        let mut a = Analyser::new(&game);
        for n in 13..=18 {
            for p in strict_positions(n) {
                let d = d_value(&p).expect("strict");
                let v = a.value(&p);
                assert_eq!(v.duration, Some(d as u32), "{p}");
                assert_eq!((v.remoteness, v.suspense), (d as u32, d as u32), "{p}");
                assert_eq!(v.outcome == Outcome::N, d % 2 == 1, "{p}");
                let ds: Vec<u64> = (1..=p.len()).map(|k| option_d(&p, k)).collect();
                if d.is_multiple_of(2) {
                    assert!(ds.iter().all(|&x| x + 1 == d), "{p}: {ds:?}");
                    continue;
                }
                assert!(ds.iter().all(|&x| x + 2 >= d && x <= d), "{p}: {ds:?}");
                let brute: Vec<usize> = (1..=p.len())
                    .filter(|&k| a.value(&p.option(k).unwrap()).outcome == Outcome::P)
                    .collect();
                let interval = winning_interval(&p).unwrap();
                assert_eq!(interval.clone().collect::<Vec<_>>(), brute, "{p}");
                assert!(interval.contains(&winning_rule(&p).unwrap().k), "{p}");
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
                // Non-strict positions with a strict reduced form: D is their strategic
                // duration too, hence their remoteness and suspense.
                assert_eq!(v.outcome == Outcome::N, d % 2 == 1, "{p}");
                assert_eq!(v.duration, Some(d as u32), "{p}");
                assert_eq!((v.remoteness, v.suspense), (d as u32, d as u32), "{p}");
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

    /// Theorem 12 on the options' D-values, the winning interval (bisection against a
    /// scan) and Section 3's rules, on every strict position up to 16 components; up to
    /// 14, the winning options also against the engine's brute force.
    #[test]
    fn theorem_12_winning_interval_and_rules() {
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        let mut by_rule = [0u64; 3];
        for n in 1..=16 {
            for p in strict_positions(n) {
                let d = d_value(&p).unwrap();
                let ds: Vec<u64> = (1..=p.len()).map(|k| option_d(&p, k)).collect();
                if d.is_multiple_of(2) {
                    assert!(ds.iter().all(|&x| x + 1 == d), "{p}: {ds:?}");
                    assert_eq!(winning_interval(&p), None);
                    assert_eq!(winning_rule(&p), None);
                    continue;
                }
                assert!(ds.iter().all(|&x| x + 2 >= d && x <= d), "{p}: {ds:?}");
                assert!(
                    ds.windows(2).all(|w| w[0] == w[1] || w[0] == w[1] + 1),
                    "{p}"
                );
                let scan: Vec<usize> = (1..=p.len()).filter(|&k| ds[k - 1] + 1 == d).collect();
                let interval = winning_interval(&p).expect("odd D has a winning option");
                assert_eq!(interval.clone().collect::<Vec<_>>(), scan, "{p}");
                if n <= 14 {
                    let brute: Vec<usize> = (1..=p.len())
                        .filter(|&k| an.value(&p.option(k).unwrap()).outcome == Outcome::P)
                        .collect();
                    assert_eq!(brute, scan, "{p}");
                }
                let m = winning_rule(&p).unwrap();
                assert!(interval.contains(&m.k), "{p}: {m:?} vs {interval:?}");
                if m.rule > 1 {
                    assert!(
                        interval.contains(m.printed.start()) && interval.contains(m.printed.end()),
                        "{p}: rule {m:?} outside the winning interval {interval:?}"
                    );
                }
                if m.rule == 3 {
                    assert_eq!(m.printed, interval, "{p}");
                }
                by_rule[m.rule as usize - 1] += 1;
            }
        }
        assert!(by_rule.iter().all(|&c| c > 0), "{by_rule:?}");
    }

    /// The theory's winning sizes against the brute force on random positions whose
    /// reduced form is strict (most are not strict themselves).
    #[test]
    fn winning_sizes_equal_brute_force() {
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        let mut rng = crate::rng::Rng::for_trial(12, 0);
        let mut tried = 0;
        while tried < 500 {
            let n = 1 + rng.below(10) as usize;
            let p = Position::new((0..n).map(|_| rng.below(14)).collect());
            let Some(theory) = winning_sizes(&p) else {
                continue;
            };
            tried += 1;
            let brute = crate::games::cookie::model::brute_force_winning_sizes(&mut an, &p);
            assert_eq!(theory, brute, "{p}");
        }
    }

    /// Rule 1 as printed fails, and the rule lastbite takes does not (n <= 18).
    #[test]
    fn rule_1_as_printed_fails() {
        let audit = audit_rules(18);
        assert_eq!(audit.taken_loses, 0);
        assert_eq!(audit.printed_wrong[1..], [0, 0]);
        assert!(audit.printed_wrong[0] > 0 && audit.printed_empty > 0);
        let (p, printed, win) = audit.first_wrong.unwrap();
        assert_eq!(
            (p.to_string(), printed.is_empty(), win),
            ("(1)".into(), true, 1..=1)
        );
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
