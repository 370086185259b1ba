//! Pareto efficiency of the crossout outcome (paper: "Pareto efficiency and
//! inefficiency").
//!
//! An *outcome* is a split of the morsels that gives each player as many morsels as the
//! turn order does (every such split is the result of some strategy pair). The crossout
//! outcome is *Pareto inefficient* if another outcome is at least as good for both players
//! and strictly better for one, and *weakly* inefficient if another is strictly better for
//! both. The paper finds the smallest inefficient permutation dinners at size 6 (two of
//! them) and, in 10,000 random permutation dinners of size 16, 672 inefficient and 241
//! weakly inefficient ones, with improvements below 8%.

use crate::par::prelude::*;

use crate::engine::Progress;
use crate::exact::Exact;
use crate::rng::Rng;

use crate::games::dinner::analysis::variants::{next_permutation, unrank};
use crate::games::dinner::model::{Dinner, DinnerError, Setup, TurnOrder};
use crate::games::dinner::theory::crossout::crossout;

/// The largest dinner whose splits are enumerated (C(30, 15) is 1.5e8).
pub const MAX_SPLIT_MORSELS: usize = 30;

/// Every split's score pair (scaled), in no particular order: the dark dots of Figure 1.
/// Alice receives as many morsels as she has turns.
pub fn split_scores(setup: &Setup) -> Result<Vec<(i128, i128)>, DinnerError> {
    let (d, order) = setup.plain_dinner("Pareto efficiency")?;
    let mut out = Vec::new();
    for_each_split(d, order, |a, b| out.push((a, b)))?;
    Ok(out)
}

/// Calls `f(alice_score, bob_score)` (scaled) for every split.
fn for_each_split(
    d: &Dinner,
    order: &TurnOrder,
    mut f: impl FnMut(i128, i128),
) -> Result<(), DinnerError> {
    let n = d.len();
    if d.players() != 2 {
        return Err(DinnerError::NeedsTwoPlayers(
            "Pareto efficiency",
            d.players(),
        ));
    }
    if n > MAX_SPLIT_MORSELS {
        return Err(DinnerError::Size {
            what: "Pareto efficiency",
            size: n,
            unit: "split",
            min: 1,
            max: MAX_SPLIT_MORSELS,
        });
    }
    let k = order.turns().iter().filter(|&&p| p == 0).count();
    // Subset sums from two half tables: sum(mask) = low[mask & lo_mask] + high[mask >> h].
    let h = n / 2;
    let half = |p: usize, from: usize, len: usize| -> Vec<i128> {
        let mut t = vec![0i128; 1 << len];
        for m in 1..1usize << len {
            let i = m.trailing_zeros() as usize;
            t[m] = t[m & (m - 1)] + d.utility(from + i, p) as i128;
        }
        t
    };
    let (a_lo, a_hi) = (half(0, 0, h), half(0, h, n - h));
    let (b_lo, b_hi) = (half(1, 0, h), half(1, h, n - h));
    let total_b = b_lo[(1 << h) - 1] + b_hi[(1 << (n - h)) - 1];
    let lo_mask = (1usize << h) - 1;
    let mut visit = |m: usize| {
        let a = a_lo[m & lo_mask] + a_hi[m >> h];
        let b = total_b - b_lo[m & lo_mask] - b_hi[m >> h];
        f(a, b);
    };
    if k == 0 {
        visit(0);
        return Ok(());
    }
    let mut m: usize = (1 << k) - 1;
    while m < 1 << n {
        visit(m);
        m = crate::engine::next_subset(m as u64) as usize;
    }
    Ok(())
}

/// The efficiency of the crossout outcome of one dinner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Efficiency {
    /// The crossout scores (scaled).
    pub crossout: (i128, i128),
    /// No outcome is at least as good for both and strictly better for one.
    pub efficient: bool,
    /// No outcome is strictly better for both.
    pub weakly_efficient: bool,
    /// The distinct improving score pairs (at least as good for both, better for one), sorted.
    pub improving: Vec<(i128, i128)>,
}

impl Efficiency {
    /// The largest relative improvement of any player over the crossout score among the
    /// improving outcomes, in percent (exact); `None` when there are none or a crossout
    /// score is not positive.
    pub fn max_improvement_percent(&self) -> Option<Exact> {
        let (ca, cb) = self.crossout;
        self.improving
            .iter()
            .flat_map(|&(a, b)| [(a - ca, ca), (b - cb, cb)])
            .filter(|&(_, base)| base > 0)
            .filter_map(|(gain, base)| Exact::new(100 * gain, base))
            .max()
    }
}

/// Whether the crossout outcome of `d` is (weakly) Pareto efficient, and what improves it.
pub fn efficiency(setup: &Setup) -> Result<Efficiency, DinnerError> {
    let (d, order) = setup.plain_dinner("Pareto efficiency")?;
    let c = crossout(setup)?;
    let (ca, cb) = (c.scores[0], c.scores[1]);
    let mut improving = Vec::new();
    let mut weakly_efficient = true;
    for_each_split(d, order, |a, b| {
        if a >= ca && b >= cb && (a > ca || b > cb) {
            improving.push((a, b));
            if a > ca && b > cb {
                weakly_efficient = false;
            }
        }
    })?;
    improving.sort_unstable();
    improving.dedup();
    Ok(Efficiency {
        crossout: (ca, cb),
        efficient: improving.is_empty(),
        weakly_efficient,
        improving,
    })
}

/// The permutation dinners of one size whose crossout outcome is not efficient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sweep {
    /// Dinners checked.
    pub dinners: u64,
    /// Bob's utilities `b_1..b_n` of the Pareto-inefficient dinners (`a_i = i`), in
    /// lexicographic order.
    pub inefficient: Vec<Vec<i64>>,
    /// The same for the weakly inefficient ones.
    pub weakly_inefficient: Vec<Vec<i64>>,
}

/// Checks every permutation dinner `{(1, b_1), ..., (n, b_n)}` of size `n` (Bob moving
/// last), in parallel.
pub fn sweep(n: usize, progress: &dyn Progress) -> Result<Sweep, DinnerError> {
    if !(1..=12).contains(&n) {
        return Err(DinnerError::Size {
            what: "the Pareto sweep",
            size: n,
            unit: "permutation dinner",
            min: 1,
            max: 12,
        });
    }
    let total: u64 = (1..=n as u64).product();
    let chunks = total.div_ceil(SWEEP_CHUNK);
    progress.start(total, "permutation dinners");
    let mut parts: Vec<Found> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            if progress.cancelled() {
                return (Vec::new(), Vec::new());
            }
            let found = sweep_chunk(n, c);
            progress.advance(SWEEP_CHUNK.min(total - c * SWEEP_CHUNK));
            found
        })
        .collect();
    progress.finish();
    if progress.cancelled() {
        // Skipped chunks hold no results: the partial sweep is not a result.
        return Err(crate::engine::EngineError::Cancelled.into());
    }
    let mut sweep = Sweep {
        dinners: total,
        inefficient: Vec::new(),
        weakly_inefficient: Vec::new(),
    };
    for (a, b) in parts.drain(..) {
        sweep.inefficient.extend(a);
        sweep.weakly_inefficient.extend(b);
    }
    Ok(sweep)
}

/// Permutations per chunk of [`sweep`] (and per item of its sharded form).
pub const SWEEP_CHUNK: u64 = 5040;

/// The inefficient and the weakly inefficient permutations of one chunk.
pub type Found = (Vec<Vec<i64>>, Vec<Vec<i64>>);

/// Chunk `c` of [`sweep`]: the permutations of rank `c * SWEEP_CHUNK` on (at most
/// [`SWEEP_CHUNK`] of them, in lexicographic order) whose crossout is Pareto inefficient,
/// and those where it is weakly so. `n` must be 1..=12.
pub fn sweep_chunk(n: usize, c: u64) -> Found {
    let total: u64 = (1..=n as u64).product();
    let mut perm = unrank(n, c * SWEEP_CHUNK);
    let mut found = (Vec::new(), Vec::new());
    let end = ((c + 1) * SWEEP_CHUNK).min(total);
    for _ in c * SWEEP_CHUNK..end {
        let s =
            Setup::plain(Dinner::permutation(&perm).expect("valid permutation")).expect("valid");
        let e = efficiency(&s).expect("two players, small");
        if !e.efficient {
            found.0.push(perm.clone());
        }
        if !e.weakly_efficient {
            found.1.push(perm.clone());
        }
        next_permutation(&mut perm);
    }
    found
}

/// Trial `t` of the random experiment ([`experiment`]): whether the dinner's crossout is
/// Pareto efficient, weakly efficient, and the largest improvement for a player in
/// percent. `size` must be 1..=24.
pub fn experiment_trial(size: usize, seed: u64, t: u64) -> (bool, bool, Option<Exact>) {
    let perm = Rng::for_trial(seed, t).permutation(size);
    let s = Setup::plain(Dinner::permutation(&perm).expect("valid permutation")).expect("valid");
    let e = efficiency(&s).expect("two players, small");
    (e.efficient, e.weakly_efficient, e.max_improvement_percent())
}

/// The paper's random experiment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Experiment {
    /// Dinners tried.
    pub trials: u64,
    /// How many were Pareto inefficient.
    pub inefficient: u64,
    /// How many were weakly Pareto inefficient.
    pub weakly_inefficient: u64,
    /// The largest improvement of a player's score over crossout among all improving
    /// outcomes of all dinners, in percent (exact), and the trial where it occurred.
    pub max_improvement_percent: Option<(Exact, u64)>,
}

/// Draws `trials` random permutation dinners of `size` morsels (trial `t` uses stream `t`
/// of `seed`, so results do not depend on threads) and checks each for efficiency.
pub fn experiment(
    size: usize,
    trials: u64,
    seed: u64,
    progress: &dyn Progress,
) -> Result<Experiment, DinnerError> {
    if !(1..=24).contains(&size) {
        return Err(DinnerError::Size {
            what: "the random experiment",
            size,
            unit: "split of each dinner",
            min: 1,
            max: 24,
        });
    }
    progress.start(trials, "random dinners");
    let results: Vec<(bool, bool, Option<Exact>)> = (0..trials)
        .into_par_iter()
        .map(|t| {
            if progress.cancelled() {
                return (true, true, None);
            }
            let r = experiment_trial(size, seed, t);
            progress.advance(1);
            r
        })
        .collect();
    progress.finish();
    if progress.cancelled() {
        // Skipped chunks hold no results: the partial sweep is not a result.
        return Err(crate::engine::EngineError::Cancelled.into());
    }
    let mut out = Experiment {
        trials,
        inefficient: 0,
        weakly_inefficient: 0,
        max_improvement_percent: None,
    };
    for (t, (eff, weak, imp)) in results.into_iter().enumerate() {
        out.inefficient += !eff as u64;
        out.weakly_inefficient += !weak as u64;
        if let Some(x) = imp {
            if out.max_improvement_percent.is_none_or(|(m, _)| x > m) {
                out.max_improvement_percent = Some((x, t as u64));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Silent;

    /// The split enumeration agrees with a plain loop over all subsets.
    #[test]
    fn splits_match_brute_force() {
        for perm in [
            vec![3, 1, 2],
            vec![5, 1, 2, 4, 6, 3],
            vec![2, 7, 1, 8, 3, 6, 4, 5],
        ] {
            let d = Dinner::permutation(&perm).unwrap();
            let order = TurnOrder::default_for(&d);
            let mut fast =
                split_scores(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap();
            let n = d.len();
            let k = order.turns().iter().filter(|&&p| p == 0).count() as u32;
            let mut slow: Vec<(i128, i128)> = (0u32..1 << n)
                .filter(|m| m.count_ones() == k)
                .map(|m| {
                    let a = (0..n)
                        .filter(|i| m >> i & 1 == 1)
                        .map(|i| d.utility(i, 0) as i128)
                        .sum();
                    let b = (0..n)
                        .filter(|i| m >> i & 1 == 0)
                        .map(|i| d.utility(i, 1) as i128)
                        .sum();
                    (a, b)
                })
                .collect();
            fast.sort_unstable();
            slow.sort_unstable();
            assert_eq!(fast, slow);
        }
    }

    #[test]
    fn unrank_walks_permutations_in_order() {
        let mut p = vec![1, 2, 3, 4];
        for i in 0..24 {
            assert_eq!(unrank(4, i), p);
            next_permutation(&mut p);
        }
    }

    #[test]
    fn experiment_is_reproducible() {
        let a = experiment(8, 50, 3, &Silent).unwrap();
        let b = experiment(8, 50, 3, &Silent).unwrap();
        assert_eq!(a, b);
    }
}
