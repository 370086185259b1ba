//! Expected scores of sincere play under impartial culture (every agent's ranking an
//! independent uniformly random permutation; the item an agent ranks r-th is worth
//! `scores[r - 1]` to it), two agents, exactly.
//!
//! From one agent's view the other, sincere with an independent uniform ranking, removes a
//! uniformly random item of those left. So the agent's state is the rank `f` of its best
//! item left; and, given `f` and the number `s` of items left, the other items left are a
//! uniformly random `(s - 1)`-subset of the ranks below `f` (true at the start, and kept
//! by both kinds of removal). Removing the best item moves `f` to `g` with probability
//! `C(m - g, s - 2) / C(m - f, s - 1)`. A dynamic program over turns and `f`: `O(m^3)`
//! exact rational operations. Checked against every profile of rankings on small sizes.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

fn binomial(n: usize, k: usize) -> BigInt {
    if k > n {
        return BigInt::zero();
    }
    let k = k.min(n - k);
    let mut c = BigInt::one();
    for i in 0..k {
        c = c * BigInt::from(n - i) / BigInt::from(i + 1);
    }
    c
}

/// Each agent's expected score under sincere play: `turns` the picking sequence over
/// agents 0 and 1, `scores` the value of the item ranked 1st, 2nd, ... (one per item).
pub fn sincere_expected_two(turns: &[u8], scores: &[BigRational]) -> [BigRational; 2] {
    let m = turns.len();
    debug_assert_eq!(scores.len(), m);
    let mut views = [View::start(m), View::start(m)];
    for (t, &p) in turns.iter().enumerate() {
        views = [0u8, 1].map(|me| views[me as usize].step(p == me, t, scores));
    }
    views.map(|v| v.total)
}

/// One agent's view of the play so far: the law of its best item left, and its expected
/// score so far.
#[derive(Debug, Clone)]
pub struct View {
    /// `law[f]`: the probability that the best item left is the agent's `f`-th (from 1).
    law: Vec<BigRational>,
    /// The expected score so far.
    pub total: BigRational,
}

impl View {
    /// Before the first turn of `m` items.
    pub fn start(m: usize) -> View {
        let mut law = vec![BigRational::zero(); m + 2];
        law[1] = BigRational::one();
        View {
            law,
            total: BigRational::zero(),
        }
    }

    /// After turn `t` (from 0), the agent's own (`mine`) or the other's.
    pub fn step(&self, mine: bool, t: usize, scores: &[BigRational]) -> View {
        let m = scores.len();
        let s = m - t;
        let mut total = self.total.clone();
        if mine {
            for f in 1..=m {
                if !self.law[f].is_zero() {
                    total += &self.law[f] * &scores[f - 1];
                }
            }
        }
        if s == 1 {
            return View {
                law: self.law.clone(),
                total,
            };
        }
        // The law of f after the best item left goes.
        let mut moved = vec![BigRational::zero(); m + 2];
        for f in 1..=m {
            if self.law[f].is_zero() {
                continue;
            }
            let den = binomial(m - f, s - 1);
            for (g, slot) in moved.iter_mut().enumerate().take(m - s + 3).skip(f + 1) {
                let num = binomial(m - g, s - 2);
                if !num.is_zero() {
                    *slot += &self.law[f] * BigRational::new(num, den.clone());
                }
            }
        }
        let law = if mine {
            moved
        } else {
            // The other takes the agent's best item left with probability 1/s.
            let stay = BigRational::new(BigInt::from(s - 1), BigInt::from(s));
            let go = BigRational::new(BigInt::one(), BigInt::from(s));
            (0..m + 2)
                .map(|f| &self.law[f] * &stay + &moved[f] * &go)
                .collect()
        };
        View { law, total }
    }
}

/// The best picking sequences by expected utilitarian welfare under sincere play.
#[derive(Debug, Clone, PartialEq)]
pub struct Best {
    /// The best expected welfare.
    pub welfare: BigRational,
    /// The sequences that reach it, in A < B order (at most [`TIED_KEPT`]).
    pub tied: Vec<Vec<u8>>,
    /// How many sequences reach it.
    pub tied_count: u64,
    /// The best sequence strictly worse, with its welfare (the first in A < B order).
    pub runner_up: Option<(Vec<u8>, BigRational)>,
    /// Sequences compared.
    pub seen: u64,
}

/// The most tied sequences [`Best`] lists.
pub const TIED_KEPT: usize = 64;

impl Best {
    fn offer(&mut self, turns: &[u8], w: BigRational) {
        self.seen += 1;
        if self.seen == 1 || w > self.welfare {
            if self.seen > 1 {
                let old = std::mem::replace(&mut self.welfare, w);
                self.runner_up = Some((self.tied[0].clone(), old));
            } else {
                self.welfare = w;
            }
            self.tied = vec![turns.to_vec()];
            self.tied_count = 1;
        } else if w == self.welfare {
            self.tied_count += 1;
            if self.tied.len() < TIED_KEPT {
                self.tied.push(turns.to_vec());
            }
        } else if self.runner_up.as_ref().is_none_or(|(_, r)| w > *r) {
            self.runner_up = Some((turns.to_vec(), w));
        }
    }

    /// The better of two searches (over different counts), the earlier first in ties.
    pub fn merge(self, other: Best) -> Best {
        if other.seen == 0 {
            return self;
        }
        if self.seen == 0 {
            return other;
        }
        let seen = self.seen + other.seen;
        let (mut first, second) = if other.welfare > self.welfare
            || (other.welfare == self.welfare && other.tied[0] < self.tied[0])
        {
            (other, self)
        } else {
            (self, other)
        };
        let mut candidates: Vec<(Vec<u8>, BigRational)> =
            first.runner_up.take().into_iter().collect();
        if second.welfare == first.welfare {
            first.tied_count += second.tied_count;
            first.tied.extend(second.tied);
            first.tied.sort();
            first.tied.truncate(TIED_KEPT);
            candidates.extend(second.runner_up);
        } else {
            candidates.push((second.tied[0].clone(), second.welfare));
        }
        first.runner_up = candidates.into_iter().reduce(|a, b| {
            if b.1 > a.1 || (b.1 == a.1 && b.0 < a.0) {
                b
            } else {
                a
            }
        });
        first.seen = seen;
        first
    }
}

/// Every sequence of `counts[0]` turns of agent 0 and `counts[1]` of agent 1, ranked by
/// expected utilitarian welfare under sincere play, sharing the program's prefixes (a
/// depth-first walk in A < B order).
pub fn best_sequences(counts: [usize; 2], scores: &[BigRational]) -> Best {
    let m = scores.len();
    let mut best = Best {
        welfare: BigRational::zero(),
        tied: Vec::new(),
        tied_count: 0,
        runner_up: None,
        seen: 0,
    };
    let mut prefix = Vec::with_capacity(m);
    walk(
        [View::start(m), View::start(m)],
        counts,
        scores,
        &mut prefix,
        &mut best,
    );
    best
}

fn walk(
    views: [View; 2],
    left: [usize; 2],
    scores: &[BigRational],
    prefix: &mut Vec<u8>,
    best: &mut Best,
) {
    if left == [0, 0] {
        best.offer(prefix, &views[0].total + &views[1].total);
        return;
    }
    let t = prefix.len();
    for p in [0u8, 1] {
        if left[p as usize] == 0 {
            continue;
        }
        let next = [0u8, 1].map(|me| views[me as usize].step(p == me, t, scores));
        let mut rest = left;
        rest[p as usize] -= 1;
        prefix.push(p);
        walk(next, rest, scores, prefix, best);
        prefix.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dinner::picking::sincere;
    use crate::games::dinner::{Dinner, Rules, Setup, TurnOrder};

    fn permutations(m: usize) -> Vec<Vec<usize>> {
        if m == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(m - 1) {
            for i in 0..=p.len() {
                let mut q = p.clone();
                q.insert(i, m - 1);
                out.push(q);
            }
        }
        out
    }

    /// The walk against the program run on every sequence (best, ties, runner-up), and
    /// the best of Borda's equal split is an alternation (Kalinowski, Narodytska and
    /// Walsh 2013).
    #[test]
    fn the_walk_finds_the_best_sequences() {
        for m in 1..=8usize {
            let borda: Vec<BigRational> = (0..m)
                .map(|r| BigRational::from_integer(BigInt::from(m - r)))
                .collect();
            let mut all = Vec::new();
            for code in 0..(1u32 << m) {
                // In A < B order: the first turn is the most significant.
                let turns: Vec<u8> = (0..m).map(|t| (code >> (m - 1 - t) & 1) as u8).collect();
                let [x, y] = sincere_expected_two(&turns, &borda);
                all.push((turns, x + y));
            }
            for a in 0..=m {
                let mine: Vec<&(Vec<u8>, BigRational)> = all
                    .iter()
                    .filter(|(t, _)| t.iter().filter(|&&p| p == 0).count() == a)
                    .collect();
                let top = mine.iter().map(|r| r.1.clone()).max().unwrap();
                let tied: Vec<Vec<u8>> = mine
                    .iter()
                    .filter(|r| r.1 == top)
                    .map(|r| r.0.clone())
                    .collect();
                let runner = mine.iter().filter(|r| r.1 < top).map(|r| r.1.clone()).max();
                let got = best_sequences([a, m - a], &borda);
                assert_eq!(
                    (got.welfare.clone(), got.tied.clone()),
                    (top, tied),
                    "m {m} a {a}"
                );
                assert_eq!(got.runner_up.map(|r| r.1), runner);
                assert_eq!(got.seen as usize, mine.len());
                if a == m / 2 && m > 1 {
                    let t = &got.tied[0];
                    assert!(t.windows(2).all(|p| p[0] != p[1]), "m {m}: {t:?}");
                }
            }
        }
    }

    /// Every pair of rankings, played sincerely by the dinner's own route.
    #[test]
    fn the_program_is_the_average_over_every_profile() {
        for m in 1..=5usize {
            let perms = permutations(m);
            for code in 0..(1u32 << m) {
                let turns: Vec<u8> = (0..m).map(|t| (code >> t & 1) as u8).collect();
                // Borda, m..1, as integers: the dinner gives item i the score of its rank.
                let scores: Vec<BigRational> = (0..m)
                    .map(|r| BigRational::from_integer(BigInt::from(m - r)))
                    .collect();
                let mut sum = [0i128; 2];
                for a in &perms {
                    for b in &perms {
                        // a[i]: agent 0's rank of item i (0 best); utility m - rank.
                        let flat = (0..m)
                            .flat_map(|i| [(m - a[i]) as i64, (m - b[i]) as i64])
                            .collect();
                        let d = Dinner::from_integers(2, flat).unwrap();
                        let spec: String = turns.iter().map(|&p| char::from(b'A' + p)).collect();
                        let order = TurnOrder::parse(&spec, &d).unwrap();
                        let eating = sincere(&d, &order).unwrap();
                        let setup = Setup::new(d, order, Rules::default()).unwrap();
                        let s = setup.scoring().score(setup.dinner(), eating).unwrap();
                        sum[0] += s[0].numer();
                        sum[1] += s[1].numer();
                    }
                }
                let count = BigInt::from(perms.len() * perms.len());
                let want = sum.map(|x| BigRational::new(BigInt::from(x), count.clone()));
                assert_eq!(
                    sincere_expected_two(&turns, &scores),
                    want,
                    "m {m} turns {turns:?}"
                );
            }
        }
    }
}
