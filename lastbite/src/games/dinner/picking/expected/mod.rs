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
//!
//! Strategic play (the subgame-perfect equilibrium) of two agents with strict preferences
//! (with ties, the equilibrium in which each agent breaks them by its ranking)
//! reduces to sincere play: Kohler and Chandrasekaran's reversal (the dinner's crossout)
//! has each agent, in the reversed sequence, take the item the other ranks last. So the
//! equilibrium allocation of a sequence is the sincere allocation of the reversed sequence
//! for the rankings reversed and swapped, and under impartial culture (where a reversed
//! uniform ranking is uniform) each agent's expected equilibrium score is the sum of the
//! scores less the *other's* expected sincere score on the reversed sequence with the
//! scores reversed ([`strategic_expected_two`]). Checked against the dinner's exact solver
//! on every profile of small sizes, and the reduction itself on random instances.

use crate::engine::{Progress, Silent};
use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

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
    sincere_expected_two_until(turns, scores, &Silent).expect("never stopped")
}

/// [`sincere_expected_two`], asking `stop` before each turn (a turn of 300 items is a
/// fraction of a second): `None` when it said to stop.
pub fn sincere_expected_two_until(
    turns: &[u8],
    scores: &[BigRational],
    stop: &dyn Progress,
) -> Option<[BigRational; 2]> {
    let m = turns.len();
    debug_assert_eq!(scores.len(), m);
    let mut views = [View::start(m), View::start(m)];
    for (t, &p) in turns.iter().enumerate() {
        if stop.cancelled() {
            return None;
        }
        views = [0u8, 1].map(|me| views[me as usize].step(p == me, t, scores));
    }
    Some(views.map(|v| v.total))
}

/// How the agents play: each takes its favourite item left, or all play the
/// subgame-perfect equilibrium.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    /// Each agent takes its favourite item left.
    Sincere,
    /// The subgame-perfect equilibrium.
    Strategic,
}

impl Play {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Play::Sincere => "sincere",
            Play::Strategic => "strategic",
        }
    }
}

impl std::str::FromStr for Play {
    type Err = String;

    fn from_str(s: &str) -> Result<Play, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sincere" => Ok(Play::Sincere),
            "strategic" | "spe" => Ok(Play::Strategic),
            _ => Err("expected sincere or strategic".into()),
        }
    }
}

/// The sincere game that the reversal turns strategic play into: the sequence reversed
/// and the scores reversed (an item ranked r-th worth what the (m + 1 - r)-th was).
fn reversal(turns: &[u8], scores: &[BigRational]) -> (Vec<u8>, Vec<BigRational>) {
    (
        turns.iter().rev().copied().collect(),
        scores.iter().rev().cloned().collect(),
    )
}

/// Each agent's expected score when both play the subgame-perfect equilibrium: the
/// reversal of the module's documentation. With tied values the game has several
/// equilibria; this is the one in which each agent breaks ties by its ranking (the
/// equilibrium of the strict game whose values break ties by rank, which is an
/// equilibrium of the game with ties: a strict loss there stays a loss, ties aside).
pub fn strategic_expected_two(turns: &[u8], scores: &[BigRational]) -> [BigRational; 2] {
    strategic_expected_two_until(turns, scores, &Silent).expect("never stopped")
}

/// [`strategic_expected_two`], asking `stop` before each turn: `None` when it said to stop.
pub fn strategic_expected_two_until(
    turns: &[u8],
    scores: &[BigRational],
    stop: &dyn Progress,
) -> Option<[BigRational; 2]> {
    let (reversed, upside_down) = reversal(turns, scores);
    let [a, b] = sincere_expected_two_until(&reversed, &upside_down, stop)?;
    let total: BigRational = scores.iter().sum();
    Some([&total - b, total - a])
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

/// The first moments of the two agents' scores together: `E[s_A]`, `E[s_B]` and
/// `E[s_A s_B]` (the expected Nash welfare of two agents).
#[derive(Debug, Clone, PartialEq)]
pub struct Moments {
    /// Each agent's expected score.
    pub scores: [BigRational; 2],
    /// The expected product of the scores.
    pub product: BigRational,
}

/// What a state of the joint chain carries: quantities linear in the state's mass.
trait Carried: Clone {
    /// Nothing: no mass.
    fn zero() -> Self;
    /// The whole mass and nothing accrued (the chain's start).
    fn unit() -> Self;
    fn is_zero(&self) -> bool;
    /// `self += k * other`.
    fn add_scaled(&mut self, other: &Self, k: &BigRational);
}

/// The probability, `E[s_A]`, `E[s_B]` and `E[s_A s_B]`, restricted to the state.
impl Carried for [BigRational; 4] {
    fn zero() -> Self {
        std::array::from_fn(|_| BigRational::zero())
    }
    fn unit() -> Self {
        let mut c = Self::zero();
        c[0] = BigRational::one();
        c
    }
    fn is_zero(&self) -> bool {
        self[0].is_zero()
    }
    fn add_scaled(&mut self, other: &Self, k: &BigRational) {
        for (x, y) in self.iter_mut().zip(other) {
            *x += y * k;
        }
    }
}

/// The law of `s_A - s_B` so far, restricted to the state.
impl Carried for BTreeMap<BigRational, BigRational> {
    fn zero() -> Self {
        BTreeMap::new()
    }
    fn unit() -> Self {
        BTreeMap::from([(BigRational::zero(), BigRational::one())])
    }
    fn is_zero(&self) -> bool {
        self.is_empty()
    }
    fn add_scaled(&mut self, other: &Self, k: &BigRational) {
        for (d, p) in other {
            *self.entry(d.clone()).or_insert_with(BigRational::zero) += p * k;
        }
    }
}

/// The joint chain of both agents' best ranks left under sincere play.
///
/// Given the history, the two rankings are independent, so the pair (rank of A's best
/// item left, rank of B's) is a Markov chain: the mover's best item goes (its rank moves
/// by [`View::step`]'s law), and it is the other's best with probability `1/s`
/// independently (the other's rank then moves by the same law). Each state carries `C`;
/// `pick(cell, mover, value)` records the mover's pick of an item worth `value` to it.
/// Each turn maps the `m^2` states along one axis and then the other: `O(m^4)` updates
/// of `C` in all. Returns the final table, indexed `f_A * (m + 1) + f_B`, or `None` as
/// soon as `fits` refuses the table after a turn.
fn joint<C: Carried>(
    turns: &[u8],
    scores: &[BigRational],
    pick: impl Fn(&mut C, u8, &BigRational),
    fits: impl Fn(&[C]) -> bool,
) -> Option<Vec<C>> {
    let m = turns.len();
    debug_assert_eq!(scores.len(), m);
    let w = m + 1;
    let mut table = vec![C::zero(); w * w];
    table[w + 1] = C::unit();
    for (t, &p) in turns.iter().enumerate() {
        let s = m - t;
        for fa in 1..=m {
            for fb in 1..=m {
                let cell = &mut table[fa * w + fb];
                if !cell.is_zero() {
                    pick(cell, p, &scores[if p == 0 { fa } else { fb } - 1]);
                }
            }
        }
        if s == 1 {
            break;
        }
        // q[f][g]: the law of the best item left after the best (rank f) goes.
        let mut q = vec![Vec::new(); m + 1];
        for (f, row) in q.iter_mut().enumerate().skip(1) {
            let den = binomial(m - f, s - 1);
            if den.is_zero() {
                continue;
            }
            *row = (0..=m)
                .map(|g| {
                    let num = if g > f {
                        binomial(m - g, s - 2)
                    } else {
                        BigInt::zero()
                    };
                    BigRational::new(num, den.clone())
                })
                .collect();
        }
        let stay = BigRational::new(BigInt::from(s - 1), BigInt::from(s));
        let go = BigRational::new(BigInt::one(), BigInt::from(s));
        // The mover's axis moves for sure; the other's with probability 1/s.
        let moved_mover = along(&table, w, m, &q, p == 0);
        let moved_other = along(&moved_mover, w, m, &q, p != 0);
        table = moved_mover;
        for (x, y) in table.iter_mut().zip(&moved_other) {
            let mut mixed = C::zero();
            mixed.add_scaled(x, &stay);
            mixed.add_scaled(y, &go);
            *x = mixed;
        }
        if !fits(&table) {
            return None;
        }
    }
    Some(table)
}

/// `table` with the best rank along one axis (A's when `a_axis`) moved by `q`.
fn along<C: Carried>(
    table: &[C],
    w: usize,
    m: usize,
    q: &[Vec<BigRational>],
    a_axis: bool,
) -> Vec<C> {
    let mut out = vec![C::zero(); w * w];
    for x in 1..=m {
        for y in 1..=m {
            let (i, f) = if a_axis {
                (x * w + y, x)
            } else {
                (y * w + x, x)
            };
            if table[i].is_zero() || q[f].is_empty() {
                continue;
            }
            for (g, law) in q[f].iter().enumerate().skip(f + 1) {
                if law.is_zero() {
                    continue;
                }
                let j = if a_axis { g * w + y } else { y * w + g };
                out[j].add_scaled(&table[i], law);
            }
        }
    }
    out
}

/// [`Moments`] of sincere play, by the joint chain of both agents' best ranks left:
/// scores accrue from the state, so `E[s_A s_B]` follows from
/// `E[(s_A + a) s_B] = E[s_A s_B] + a E[s_B]`. `O(m^4)` exact operations. Checked against
/// every profile of rankings on small sizes.
pub fn sincere_moments_two(turns: &[u8], scores: &[BigRational]) -> Moments {
    let pick = |c: &mut [BigRational; 4], p, v: &BigRational| {
        let [prob, ea, eb, eab] = c;
        if p == 0 {
            *eab += v * &*eb;
            *ea += v * &*prob;
        } else {
            *eab += v * &*ea;
            *eb += v * &*prob;
        }
    };
    let table = joint(turns, scores, pick, |_| true).expect("moments always fit");
    let sum = |k: usize| table.iter().map(|c| &c[k]).sum::<BigRational>();
    Moments {
        scores: [sum(1), sum(2)],
        product: sum(3),
    }
}

/// The law of `s_A - s_B` under sincere play, by the joint chain carrying each state's
/// law of the difference so far; `None` as soon as the laws hold more than
/// `max_entries` values in all (scores with many distinct sums, lexicographic ones).
pub fn sincere_difference_two(
    turns: &[u8],
    scores: &[BigRational],
    max_entries: usize,
) -> Option<BTreeMap<BigRational, BigRational>> {
    let shift = |c: &mut BTreeMap<BigRational, BigRational>, p, v: &BigRational| {
        *c = std::mem::take(c)
            .into_iter()
            .map(|(d, prob)| (if p == 0 { d + v } else { d - v }, prob))
            .collect();
    };
    let size =
        |t: &[BTreeMap<BigRational, BigRational>]| t.iter().map(BTreeMap::len).sum::<usize>();
    let table = joint(turns, scores, shift, |t| size(t) <= max_entries)?;
    let mut law = BTreeMap::new();
    for cell in &table {
        law.add_scaled(cell, &BigRational::one());
    }
    Some(law)
}

/// The expected egalitarian welfare `E[min(s_A, s_B)] = E[s_A] - E[max(s_A - s_B, 0)]`,
/// sincere or strategic (by the reversal, `s_A - s_B` of the equilibrium is `x_A - x_B` of
/// sincere play on the reversed sequence with the scores reversed); `None` past
/// `max_entries` (see [`sincere_difference_two`]).
pub fn egalitarian_two(
    turns: &[u8],
    scores: &[BigRational],
    play: Play,
    max_entries: usize,
) -> Option<([BigRational; 2], BigRational)> {
    let (expected, law) = match play {
        Play::Sincere => (
            sincere_expected_two(turns, scores),
            sincere_difference_two(turns, scores, max_entries)?,
        ),
        Play::Strategic => {
            let (reversed, upside_down) = reversal(turns, scores);
            (
                strategic_expected_two(turns, scores),
                sincere_difference_two(&reversed, &upside_down, max_entries)?,
            )
        }
    };
    let ahead: BigRational = law
        .iter()
        .filter(|(d, _)| d.is_positive())
        .map(|(d, p)| d * p)
        .sum();
    let w = &expected[0] - ahead;
    Some((expected, w))
}

/// [`Moments`] of the subgame-perfect equilibrium (ties broken by rank, as in
/// [`strategic_expected_two`]), by the reversal: with `x_A`, `x_B` the own scores of sincere play on the reversed sequence
/// with the scores reversed and `G` the sum of the scores, A's equilibrium score is
/// `G - x_B` and B's `G - x_A`, so `E[s_A s_B] = G^2 - G (E[x_A] + E[x_B]) + E[x_A x_B]`.
pub fn strategic_moments_two(turns: &[u8], scores: &[BigRational]) -> Moments {
    let (reversed, upside_down) = reversal(turns, scores);
    let x = sincere_moments_two(&reversed, &upside_down);
    let g: BigRational = scores.iter().sum();
    let [xa, xb] = x.scores;
    Moments {
        product: &g * &g - &g * (&xa + &xb) + x.product,
        scores: [&g - xb, g - xa],
    }
}

/// The best picking sequences by expected utilitarian welfare under sincere play
/// (none seen: the default).
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

impl Default for Best {
    fn default() -> Best {
        Best {
            welfare: BigRational::zero(),
            tied: Vec::new(),
            tied_count: 0,
            runner_up: None,
            seen: 0,
        }
    }
}

/// The most tied sequences [`Best`] lists.
pub const TIED_KEPT: usize = 64;

impl Best {
    /// Takes one sequence's welfare; the outcome does not depend on the order sequences
    /// come in (ties go to the earlier in A < B order).
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
            let at = self.tied.partition_point(|t| t.as_slice() < turns);
            if at < TIED_KEPT {
                self.tied.insert(at, turns.to_vec());
                self.tied.truncate(TIED_KEPT);
            }
        } else if self
            .runner_up
            .as_ref()
            .is_none_or(|(t, r)| w > *r || (w == *r && turns < t.as_slice()))
        {
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
/// expected utilitarian welfare under `play`, sharing the program's prefixes (a
/// depth-first walk). Strategic play walks the reversed sequences with the scores
/// reversed ([`strategic_expected_two`]'s reduction).
///
/// For every split of the items between the agents at once, [`best_over_splits`].
pub fn best_sequences(counts: [usize; 2], scores: &[BigRational], play: Play) -> Best {
    best_sequences_until(counts, scores, play, &Silent).expect("never stopped")
}

/// [`best_sequences`], asking `stop` at every step of the walk: `None` when it said to
/// stop.
pub fn best_sequences_until(
    counts: [usize; 2],
    scores: &[BigRational],
    play: Play,
    stop: &dyn Progress,
) -> Option<Best> {
    best_below(counts, &[], scores, play, stop)
}

/// The walks of [`best_over_splits`] cut into pieces: each split's (`counts`, or every
/// split of `m` items) walk below each of its prefixes of `depth` turns (fewer when the
/// sequence is shorter), split by split. [`best_below`] walks one; merged with
/// [`Best::merge`], in any order, they are the whole search's.
pub fn best_pieces(
    m: usize,
    counts: Option<[usize; 2]>,
    depth: usize,
) -> Vec<([usize; 2], Vec<u8>)> {
    let splits: Vec<[usize; 2]> = match counts {
        Some(c) => vec![c],
        None => (0..=m).map(|a| [a, m - a]).collect(),
    };
    let d = depth.min(m);
    let mut out = Vec::new();
    for split in splits {
        for bits in 0u32..1 << d {
            let prefix: Vec<u8> = (0..d).map(|t| (bits >> (d - 1 - t) & 1) as u8).collect();
            let ones = prefix.iter().filter(|&&p| p == 1).count();
            if ones <= split[1] && d - ones <= split[0] {
                out.push((split, prefix));
            }
        }
    }
    out
}

/// The best of the sequences of `counts` turns whose walk starts with `prefix` (under
/// strategic play the walk's sequences are the reversed ones: [`best_sequences`]),
/// asking `stop` at every step: `None` when it said to stop.
pub fn best_below(
    counts: [usize; 2],
    prefix: &[u8],
    scores: &[BigRational],
    play: Play,
    stop: &dyn Progress,
) -> Option<Best> {
    let m = scores.len();
    let mut best = Best::default();
    let upside_down: Vec<BigRational> = scores.iter().rev().cloned().collect();
    let walked = match play {
        Play::Sincere => scores,
        Play::Strategic => &upside_down[..],
    };
    let mut views = [View::start(m), View::start(m)];
    let mut left = counts;
    for (t, &p) in prefix.iter().enumerate() {
        views = [0u8, 1].map(|me| views[me as usize].step(p == me, t, walked));
        left[p as usize] -= 1;
    }
    let mut prefix = prefix.to_vec();
    let finished = match play {
        Play::Sincere => walk(views, left, scores, &mut prefix, stop, &mut |t, w| {
            best.offer(t, w)
        }),
        Play::Strategic => {
            let twice: BigRational = scores.iter().sum::<BigRational>() * BigInt::from(2);
            let mut forward = Vec::with_capacity(m);
            walk(views, left, &upside_down, &mut prefix, stop, &mut |t, w| {
                forward.clear();
                forward.extend(t.iter().rev());
                best.offer(&forward, &twice - w)
            })
        }
    };
    finished.then_some(best)
}

/// The best sequences over the splits `counts` (every split `[a, m - a]` when `None`), the
/// earlier split first in ties.
///
/// ```
/// use lastbite::games::dinner::picking::expected::{best_over_splits, Play};
/// use num_rational::BigRational;
/// let borda: Vec<BigRational> = (1..=4).map(|v| BigRational::from_integer(v.into())).collect();
/// let best = best_over_splits(None, &borda, Play::Sincere);
/// assert_eq!(best.seen, 16); // every sequence of 4 items
/// ```
pub fn best_over_splits(counts: Option<[usize; 2]>, scores: &[BigRational], play: Play) -> Best {
    best_over_splits_until(counts, scores, play, &Silent).expect("never stopped")
}

/// [`best_over_splits`], asking `stop` at every step: `None` when it said to stop.
pub fn best_over_splits_until(
    counts: Option<[usize; 2]>,
    scores: &[BigRational],
    play: Play,
    stop: &dyn Progress,
) -> Option<Best> {
    let m = scores.len();
    let splits: Vec<[usize; 2]> = match counts {
        Some(c) => vec![c],
        None => (0..=m).map(|a| [a, m - a]).collect(),
    };
    let mut best: Option<Best> = None;
    for split in splits {
        let b = best_sequences_until(split, scores, play, stop)?;
        best = Some(match best {
            Some(a) => a.merge(b),
            None => b,
        });
    }
    Some(best.expect("at least one split"))
}

/// Walks every sequence with `left` turns to go; false when `stop` said to stop.
fn walk(
    views: [View; 2],
    left: [usize; 2],
    scores: &[BigRational],
    prefix: &mut Vec<u8>,
    stop: &dyn Progress,
    offer: &mut impl FnMut(&[u8], BigRational),
) -> bool {
    if left == [0, 0] {
        offer(prefix, &views[0].total + &views[1].total);
        return true;
    }
    if stop.cancelled() {
        return false;
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
        let finished = walk(next, rest, scores, prefix, stop, offer);
        prefix.pop();
        if !finished {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests;
