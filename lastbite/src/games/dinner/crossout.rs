//! The crossout strategy (Kohler and Chandrasekaran 1971; paper: "The crossout strategy",
//! Theorem 1, Lemmas 2 and 3).
//!
//! "Eat your opponent's least favourite morsel on your own last move." The crossout
//! sequence `m_1, ..., m_n` crosses out, turn by turn from the *last* turn backwards, the
//! least favourite remaining morsel of the player who does *not* move on that turn; the
//! players then eat the morsels in reverse crossout order. This works for any two-player
//! turn sequence, not only alternation (see the papers' README; checked against the
//! exact solver in `crosscheck`).
//!
//! **Tie rule.** The paper assumes each player's utilities are distinct. When they are
//! not, lastbite breaks ties by morsel index: a morsel listed earlier counts as
//! infinitesimally tastier to every player (as if morsel `i` of `n` were worth
//! `u + (n - 1 - i) * eps`). So "least favourite" means the smallest utility and, among
//! equals, the highest index. The exact solver's default `index` tie rule applies the
//! same perturbation, which makes the two routes agree on every dinner.
//!
//! The whole computation is two sorts and a linear scan: `O(n log n)`.

use crate::engine::Player;

use super::model::{Bite, Dinner, DinnerError, TurnOrder};

/// The crossout play of a two-player dinner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crossout {
    /// The morsel eaten on each turn (compact: dinners of 10^7 morsels are routine).
    eaten: Vec<u32>,
    /// The player of each turn.
    turns: Vec<u8>,
    /// The crossout scores `chi_A`, `chi_B`, scaled by [`Dinner::scale`].
    pub scores: [i128; 2],
}

impl Crossout {
    /// The eating order (the crossout sequence reversed), one bite per turn.
    pub fn eating(&self) -> impl DoubleEndedIterator<Item = Bite> + ExactSizeIterator + '_ {
        self.eaten
            .iter()
            .zip(&self.turns)
            .enumerate()
            .map(|(turn, (&m, &p))| Bite {
                turn,
                player: p as Player,
                morsel: m as usize,
            })
    }

    /// The crossout sequence `m_1, ..., m_n` (morsel indices): `m_1` is crossed out first
    /// and eaten on the last turn.
    pub fn sequence(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.eaten.iter().rev().map(|&m| m as usize)
    }

    /// The crossout strategy `c(D)`: the morsel eaten on the first turn.
    pub fn first_bite(&self) -> usize {
        self.eaten[0] as usize
    }
}

/// Player `p`'s morsels from least to most favourite under the index tie rule (smaller
/// utility first; among equals, the higher index first), as sorted keys from which
/// [`Ranking::morsel`] reads the morsel. Shared with sincere picking
/// ([`super::picking::sincere`]), which reads it from the top.
pub(crate) struct Ranking {
    keys: Vec<u64>,
    mask: u64,
}

impl Ranking {
    pub(crate) fn new<I>(dinner: &Dinner, p: Player, morsels: I) -> Ranking
    where
        I: Iterator<Item = u32> + Clone,
    {
        let utilities = morsels.clone().map(|i| dinner.utility(i as usize, p));
        let (lo, hi) = utilities
            .clone()
            .fold((i64::MAX, i64::MIN), |(lo, hi), u| (lo.min(u), hi.max(u)));
        let range = (hi as i128 - lo as i128) as u128;
        let index_bits = u32::BITS - (dinner.len() as u32).leading_zeros();
        let range_bits = u128::BITS - range.leading_zeros();
        if range_bits + index_bits <= 64 {
            // One u64 key per morsel, (utility - lo) above (mask - index): sorting it
            // costs what sorting a plain utility column costs.
            let mask = (1u64 << index_bits) - 1;
            let mut keys: Vec<u64> = morsels
                .zip(utilities)
                .map(|(i, u)| (((u as i128 - lo as i128) as u64) << index_bits) | (mask - i as u64))
                .collect();
            keys.sort_unstable();
            Ranking { keys, mask }
        } else {
            let mut keyed: Vec<(i64, u32)> = morsels
                .zip(utilities)
                .map(|(i, u)| (u, u32::MAX - i))
                .collect();
            keyed.sort_unstable();
            let keys = keyed
                .into_iter()
                .map(|(_, j)| u64::MAX - (u32::MAX - j) as u64)
                .collect();
            Ranking {
                keys,
                mask: u64::MAX,
            }
        }
    }

    #[inline]
    pub(crate) fn morsel(&self, j: usize) -> usize {
        (self.mask - (self.keys[j] & self.mask)) as usize
    }
}

/// The crossout play of `dinner` under `order`.
///
/// ```
/// use lastbite::games::dinner::{crossout, Dinner, TurnOrder};
/// // Figure 2 of the paper: Bob moves last.
/// let d = Dinner::from_morsels("1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7").unwrap();
/// let c = crossout(&d, &TurnOrder::default_for(&d)).unwrap();
/// assert_eq!(c.scores, [23, 22]);
/// assert_eq!(c.sequence().next(), Some(0)); // Alice's least favourite, (1,8), is crossed out first
/// ```
pub fn crossout(dinner: &Dinner, order: &TurnOrder) -> Result<Crossout, DinnerError> {
    if dinner.players() != 2 {
        return Err(DinnerError::NeedsTwoPlayers("crossout", dinner.players()));
    }
    super::model::check_order(dinner, order)?;
    let eaten = crossout_on(dinner, order.turns(), 0..dinner.len() as u32);
    let mut scores = [0i128; 2];
    for (&m, &p) in eaten.iter().zip(order.turns()) {
        scores[p as usize] += dinner.utility(m as usize, p as Player) as i128;
    }
    Ok(Crossout {
        eaten,
        turns: order.turns().to_vec(),
        scores,
    })
}

/// The crossout eating order of the sub-dinner `morsels` when the remaining turns are
/// played by `turns` (one per morsel). Two players only.
pub(crate) fn crossout_on<I>(dinner: &Dinner, turns: &[u8], morsels: I) -> Vec<u32>
where
    I: Iterator<Item = u32> + Clone + Send,
{
    scan(&rankings(dinner, turns.len(), morsels), turns, dinner.len())
}

/// Both players' rankings of `morsels` (`count` of them), least favourite first.
fn rankings<I>(dinner: &Dinner, count: usize, morsels: I) -> [Ranking; 2]
where
    I: Iterator<Item = u32> + Clone + Send,
{
    // The two rankings are independent: sort them on both cores.
    let (by_a, by_b) = if count > 1 << 16 {
        let m2 = morsels.clone();
        crate::par::join(
            || Ranking::new(dinner, 0, morsels),
            || Ranking::new(dinner, 1, m2),
        )
    } else {
        (
            Ranking::new(dinner, 0, morsels.clone()),
            Ranking::new(dinner, 1, morsels),
        )
    };
    [by_a, by_b]
}

/// The backward scan of Theorem 1 over the ranked morsels (indices below `n`): the
/// morsel eaten on each of `turns`.
fn scan(rankings: &[Ranking; 2], turns: &[u8], n: usize) -> Vec<u32> {
    let mut next = [0usize; 2];
    // A bitset keeps the random "already crossed out?" lookups in cache.
    let mut crossed = vec![0u64; n.div_ceil(64)];
    let mut eating = vec![0u32; turns.len()];
    for t in (0..turns.len()).rev() {
        // On turn t its player eats the other player's least favourite remaining morsel.
        let other = 1 - turns[t] as usize;
        let list = &rankings[other];
        let mut j = next[other];
        let mut m = list.morsel(j);
        while crossed[m / 64] >> (m % 64) & 1 == 1 {
            j += 1;
            m = list.morsel(j);
        }
        next[other] = j + 1;
        crossed[m / 64] |= 1 << (m % 64);
        eating[t] = m as u32;
    }
    eating
}

/// The crossout plan of a two-player dinner kept along a play in which either player
/// may leave it: after every bite, [`Plan::next`] is what crossout eats from the dinner
/// that is left, as if crossout were recomputed from scratch.
///
/// **The plan as two sets.** The backward scan hands player `P`'s turns, from the last
/// back, `P`'s planned morsels in increasing rank of the *other* player `Q`: so the plan
/// is the partition `(S_A, S_B)` of the morsels left, and `P`'s `k`-th turn from the end
/// holds the `k`-th least favourite (for `Q`) morsel of `S_P`. The scan's choices make
/// the partition valid: the morsel of `P`'s turn `k` is ranked by `Q` below every
/// morsel planned for `Q` at a turn before it.
///
/// **A bite off the plan.** When the player to move eats `x` instead of its own planned
/// morsel, the scan over the dinner without `x` differs from the old one by a hole that
/// starts at `x`'s turn and moves to earlier turns (the turn-by-turn form of this, kept in
/// the history of `crossout.rs`, moved each morsel on the way). Stored as sets, a move of
/// the hole from one of `P`'s turns to `P`'s turn before costs nothing: it is the same set.
/// The set changes only where the hole *crosses*: at the first gap between two of `P`'s
/// turns, going back, that holds a `Q` turn whose morsel `Q` ranks below the morsel of
/// `P`'s earlier turn. Then the least favourite (for `Q`) of the `Q` morsels at that gap
/// or before moves into `S_P`, and the hole goes on among `Q`'s turns from its turn. By
/// validity only the gap's own morsels can rank that low, and the gap's least favourite
/// is a suffix minimum of `S_Q` in `P`'s order ("a record"), so the search walks the
/// records of `S_Q` after the hole, one order-statistic query each. The chain ends at
/// the turn being played.
///
/// Each crossing costs `O(log n)` and each record walked past `O(log n)`. On random
/// dinners both counts stay near `n` over the whole play (docs/performance.md), so a play
/// takes `O(n log n)`; on dinners where both players rank the morsels alike, a player who
/// eats its least favourite morsel every turn makes every planned morsel change sides,
/// and no stored plan escapes `n^2` changes there.
pub(crate) struct Plan {
    /// The player of each turn.
    turns: Vec<u8>,
    /// The turn to be played.
    start: usize,
    /// Each player's rank of each morsel (0 = least favourite) and the morsel of a rank.
    rank: [Vec<u32>; 2],
    by_rank: [Vec<u32>; 2],
    /// `times[p][k]`: the turn of `p`'s `k`-th turn from the end.
    times: [Vec<u32>; 2],
    /// `after[p][k]`: how many of the other player's turns come after `times[p][k]`.
    after: [Vec<u32>; 2],
    /// Each player's turns left (counting the one being played).
    left: [usize; 2],
    /// `S_p`, kept by the other player's rank, with `p`'s own ranks for the record walk.
    sets: [RankedSet; 2],
    /// The side each morsel is planned for ([`EATEN`]: eaten).
    side: Vec<u8>,
    /// Crossings, records walked and plans scanned afresh so far (the work's account).
    pub(crate) crossings: u64,
    pub(crate) records: u64,
    pub(crate) rescans: u64,
}

impl Plan {
    /// The crossout plan of the whole dinner under `order` (two players).
    pub(crate) fn new(dinner: &Dinner, order: &TurnOrder) -> Plan {
        let n = dinner.len();
        let turns = order.turns().to_vec();
        let rankings = rankings(dinner, n, 0..n as u32);
        let planned = scan(&rankings, &turns, n);
        let mut rank = [vec![0u32; n], vec![0u32; n]];
        let mut by_rank = [vec![0u32; n], vec![0u32; n]];
        for p in 0..2 {
            for (j, by) in by_rank[p].iter_mut().enumerate() {
                let m = rankings[p].morsel(j);
                rank[p][m] = j as u32;
                *by = m as u32;
            }
        }
        let mut times = [Vec::new(), Vec::new()];
        let mut after = [Vec::new(), Vec::new()];
        for (t, &p) in turns.iter().enumerate().rev() {
            let p = p as usize;
            let later = times[1 - p].len() as u32;
            times[p].push(t as u32);
            after[p].push(later);
        }
        let left = [times[0].len(), times[1].len()];
        let mut side = vec![0u8; n];
        // S_p sits at the other player's ranks, valued by p's own.
        let mut sets = [0, 1].map(|p: usize| {
            RankedSet::new(
                by_rank[1 - p]
                    .iter()
                    .map(|&m| rank[p][m as usize])
                    .collect(),
            )
        });
        for (t, &m) in planned.iter().enumerate() {
            side[m as usize] = turns[t];
        }
        for (p, set) in sets.iter_mut().enumerate() {
            let members = planned
                .iter()
                .zip(&turns)
                .filter(|&(_, &q)| q as usize == p);
            set.refill(members.map(|(&m, _)| rank[1 - p][m as usize]));
        }
        Plan {
            turns,
            start: 0,
            rank,
            by_rank,
            times,
            after,
            left,
            sets,
            side,
            crossings: 0,
            records: 0,
            rescans: 0,
        }
    }

    /// What crossout eats on the turn to be played: the mover's planned morsel that the
    /// other player likes best.
    pub(crate) fn next(&self) -> usize {
        let p = self.turns[self.start] as usize;
        let r = self.sets[p].select(self.left[p] - 1);
        self.by_rank[1 - p][r as usize] as usize
    }

    /// The player to move eats morsel `x` (one that is left): the plan of the dinner left.
    pub(crate) fn eat(&mut self, x: usize) {
        let t = self.start as u32;
        let mover = self.turns[self.start] as usize;
        // A chain may cross up to once a turn left (both players ranking the morsels
        // alike, say): past a budget of the order of the dinner left, scanning that
        // dinner afresh is cheaper, and gives the same plan.
        let budget = self.work() + 64 + (self.turns.len() - self.start) as u64 / 8;
        // The hole is in `S_p` at index `h` (from the end), still holding `hole` there:
        // the indices at and before it are the old plan's, which the search reads.
        let mut p = self.side[x] as usize;
        debug_assert!(p < 2, "morsel {x} was eaten before");
        let mut hole = x;
        let mut h = self.sets[p].count_below(self.rank[1 - p][x]) as usize;
        loop {
            if self.times[p][h] == t {
                break;
            }
            if self.work() > budget {
                self.side[x] = EATEN;
                self.left[mover] -= 1;
                self.start += 1;
                self.rescan();
                return;
            }
            let q = 1 - p;
            let Some((z, j)) = self.crossing(p, h) else {
                // No crossing: the hole moves through p's turns to the turn being played.
                debug_assert_eq!(p, mover);
                break;
            };
            self.crossings += 1;
            self.sets[p].remove(self.rank[q][hole]);
            self.sets[p].insert(self.rank[q][z]);
            self.side[z] = p as u8;
            (p, h, hole) = (q, j, z);
        }
        self.sets[p].remove(self.rank[1 - p][hole]);
        debug_assert_eq!(p, mover);
        self.side[x] = EATEN;
        self.left[mover] -= 1;
        self.start += 1;
    }

    /// The work of the chains so far, a crossing counted as four records walked.
    fn work(&self) -> u64 {
        self.records + 4 * self.crossings
    }

    /// The plan of the dinner left computed afresh: the backward scan of Theorem 1 over
    /// the morsels not eaten, in `O(n)` (the rankings are kept).
    fn rescan(&mut self) {
        self.rescans += 1;
        for side in &mut self.side {
            if *side != EATEN {
                *side = UNPLANNED;
            }
        }
        let mut next = [0usize; 2];
        for t in (self.start..self.turns.len()).rev() {
            let p = self.turns[t];
            let q = 1 - p as usize;
            let list = &self.by_rank[q];
            let mut j = next[q];
            while self.side[list[j] as usize] != UNPLANNED {
                j += 1;
            }
            next[q] = j + 1;
            self.side[list[j] as usize] = p;
        }
        for (p, set) in self.sets.iter_mut().enumerate() {
            let side = &self.side;
            let at = self.by_rank[1 - p].iter().enumerate();
            set.refill(
                at.filter(|&(_, &m)| side[m as usize] as usize == p)
                    .map(|(r, _)| r as u32),
            );
        }
    }

    /// The first crossing of a hole at `p`'s turn `h` (from the end): the morsel of the
    /// other player `q` that moves into `S_p`, with its index among `q`'s turns.
    fn crossing(&mut self, p: usize, h: usize) -> Option<(usize, usize)> {
        let q = 1 - p;
        // The first gap that may hold a crossing: the one just before p's turn h.
        let mut gap = h + 1;
        loop {
            // The candidates: q's morsels at q's turns before p's turn gap - 1, in p's
            // order; the least favourite (for q) of them is the only one that can cross.
            let first = self.after[p][gap - 1] as usize;
            if first >= self.left[q] {
                return None;
            }
            let v = self.sets[q].min_from(self.sets[q].select(first))?;
            self.records += 1;
            let at = self.sets[q].position_of(v);
            let j = self.sets[q].count_below(at) as usize;
            // Its gap lies before p's turn k - 1 and after p's turn k: it crosses if q
            // ranks it below the morsel of p's turn k (or p has no turn k left).
            let k = self.after[q][j] as usize;
            let below = self.sets[p].count_below(v) as usize;
            if k >= self.left[p] || below <= k {
                return Some((self.by_rank[q][v as usize] as usize, j));
            }
            // Every q morsel from here on ranks above z for q, and so above each of p's
            // morsels below z: the gaps before those of p's turns hold no crossing.
            gap = below.min(self.left[p]);
        }
    }
}

/// [`Plan::side`] of a morsel eaten, and of one not yet placed by a rescan.
const EATEN: u8 = 2;
const UNPLANNED: u8 = 3;

/// A set of morsels kept at positions `0..n` (one player's ranks), each position with a
/// fixed value (the other player's rank of the morsel there): counts below a position,
/// the member with `k` members below it, and the least value from a position on.
///
/// Laid out for the cache rather than as textbook trees: a 16-byte word a 64 positions
/// (its members' bits, its least value and where, and its block's members before it),
/// in blocks of 64 words, with a Fenwick tree and a min tree over the blocks only
/// (`n / 4096` of them, which stay in cache). Each query reads a handful of cache
/// lines; the trees over all `n` positions that this replaced read about forty.
struct RankedSet {
    values: Vec<u32>,
    /// The position of each value (the values are a permutation of `0..n`).
    position: Vec<u32>,
    words: Vec<Word>,
    /// Fenwick tree of the blocks' member counts (1-based).
    block_counts: Vec<u32>,
    block_top: usize,
    /// Min tree over the blocks' least values, `leaves` leaves.
    block_least: Vec<u32>,
    leaves: usize,
}

/// 64 positions of a [`RankedSet`].
#[derive(Clone, Copy)]
#[repr(align(16))]
struct Word {
    bits: u64,
    /// The least value among the members (`u32::MAX`: none).
    least: u32,
    /// Members in the block before this word.
    before: u16,
    /// The bit holding `least`.
    at: u8,
}

impl Word {
    const EMPTY: Word = Word {
        bits: 0,
        least: u32::MAX,
        before: 0,
        at: 0,
    };
}

const WORDS: usize = 64;

impl RankedSet {
    /// An empty set over positions `0..values.len()`, `values[i]` the value at `i` (a
    /// permutation).
    fn new(values: Vec<u32>) -> RankedSet {
        let words = values.len().div_ceil(64).max(1);
        let blocks = words.div_ceil(WORDS);
        let leaves = blocks.next_power_of_two();
        let mut position = vec![0u32; values.len()];
        for (i, &v) in values.iter().enumerate() {
            position[v as usize] = i as u32;
        }
        RankedSet {
            values,
            position,
            words: vec![Word::EMPTY; words],
            block_counts: vec![0; blocks + 1],
            block_top: 1 << (usize::BITS - 1 - blocks.leading_zeros()),
            block_least: vec![u32::MAX; 2 * leaves],
            leaves,
        }
    }

    /// Empties the set and fills it with `members` (positions), each once, in `O(n)`.
    fn refill(&mut self, members: impl Iterator<Item = u32>) {
        self.words.fill(Word::EMPTY);
        self.block_counts.fill(0);
        self.block_least.fill(u32::MAX);
        for at in members {
            let (w, bit) = (at as usize / 64, at % 64);
            let word = &mut self.words[w];
            word.bits |= 1 << bit;
            let v = self.values[at as usize];
            if v < word.least {
                word.least = v;
                word.at = bit as u8;
            }
        }
        let (blocks, words) = (self.block_counts.len() - 1, self.words.len());
        for b in 0..blocks {
            let block = &mut self.words[b * WORDS..((b + 1) * WORDS).min(words)];
            let mut count = 0u32;
            let mut least = u32::MAX;
            for word in block {
                word.before = count as u16;
                count += word.bits.count_ones();
                least = least.min(word.least);
            }
            self.block_counts[b + 1] = count;
            self.block_least[b + self.leaves] = least;
        }
        for i in 1..=blocks {
            let parent = i + (i & i.wrapping_neg());
            if parent <= blocks {
                self.block_counts[parent] += self.block_counts[i];
            }
        }
        for i in (1..self.leaves).rev() {
            self.block_least[i] = self.block_least[2 * i].min(self.block_least[2 * i + 1]);
        }
    }

    /// Keeps the counts before each word and block after word `w` gained (`up`) or
    /// lost a member.
    fn count(&mut self, w: usize, up: bool) {
        let b = w / WORDS;
        let end = ((b + 1) * WORDS).min(self.words.len());
        let delta = if up { 1 } else { u16::MAX };
        for word in &mut self.words[w + 1..end] {
            word.before = word.before.wrapping_add(delta);
        }
        let delta = if up { 1 } else { u32::MAX };
        let mut i = b + 1;
        while i < self.block_counts.len() {
            self.block_counts[i] = self.block_counts[i].wrapping_add(delta);
            i += i & i.wrapping_neg();
        }
    }

    /// Sets block `b`'s least value in the min tree.
    fn set_block_least(&mut self, b: usize, least: u32) {
        let mut i = b + self.leaves;
        self.block_least[i] = least;
        while i > 1 {
            i /= 2;
            let parent = self.block_least[2 * i].min(self.block_least[2 * i + 1]);
            if self.block_least[i] == parent {
                break;
            }
            self.block_least[i] = parent;
        }
    }

    /// Adds position `at` (not a member).
    fn insert(&mut self, at: u32) {
        let (w, bit) = (at as usize / 64, at % 64);
        let v = self.values[at as usize];
        let word = &mut self.words[w];
        debug_assert_eq!(word.bits >> bit & 1, 0);
        word.bits |= 1 << bit;
        if v < word.least {
            word.least = v;
            word.at = bit as u8;
        }
        self.count(w, true);
        let b = w / WORDS;
        if v < self.block_least[b + self.leaves] {
            self.set_block_least(b, v);
        }
    }

    /// Removes position `at` (a member).
    fn remove(&mut self, at: u32) {
        let (w, bit) = (at as usize / 64, at % 64);
        debug_assert_eq!(self.words[w].bits >> bit & 1, 1);
        self.words[w].bits &= !(1 << bit);
        self.count(w, false);
        if self.words[w].at as u32 != bit {
            return;
        }
        // The word's least value left: its block's may have too.
        let (least, at) = self.least_in_word(w, self.words[w].bits);
        let old = std::mem::replace(&mut self.words[w].least, least);
        self.words[w].at = at;
        let b = w / WORDS;
        if old == self.block_least[b + self.leaves] {
            let end = ((b + 1) * WORDS).min(self.words.len());
            let block = &self.words[b * WORDS..end];
            let least = block.iter().map(|w| w.least).min().unwrap_or(u32::MAX);
            self.set_block_least(b, least);
        }
    }

    /// The least value among the members of word `w` in `bits`, and its bit.
    fn least_in_word(&self, w: usize, mut bits: u64) -> (u32, u8) {
        let (mut least, mut at) = (u32::MAX, 0u8);
        while bits != 0 {
            let bit = bits.trailing_zeros();
            let v = self.values[w * 64 + bit as usize];
            if v < least {
                least = v;
                at = bit as u8;
            }
            bits &= bits - 1;
        }
        (least, at)
    }

    /// How many members lie below position `at`.
    fn count_below(&self, at: u32) -> u32 {
        let (w, bit) = (at as usize / 64, at % 64);
        let mut i = w / WORDS;
        let mut sum = 0u32;
        while i > 0 {
            sum += self.block_counts[i];
            i &= i - 1;
        }
        match self.words.get(w) {
            Some(word) => sum + word.before as u32 + (word.bits & ((1u64 << bit) - 1)).count_ones(),
            None => sum,
        }
    }

    /// The position of the member with `k` members below it (one must exist).
    fn select(&self, k: usize) -> u32 {
        // The block: a descent of the Fenwick tree.
        let (mut b, mut rest) = (0usize, k as u32);
        let mut step = self.block_top;
        while step > 0 {
            let next = b + step;
            if next < self.block_counts.len() && self.block_counts[next] <= rest {
                b = next;
                rest -= self.block_counts[next];
            }
            step /= 2;
        }
        // The word: the last one in the block with at most `rest` members before it.
        let first = b * WORDS;
        let block = &self.words[first..(first + WORDS).min(self.words.len())];
        let w = first + block.partition_point(|word| word.before as u32 <= rest) - 1;
        let mut rest = rest - self.words[w].before as u32;
        // The bit: halve the word by counts.
        let (mut x, mut at) = (self.words[w].bits, 0u32);
        for width in [32u32, 16, 8, 4, 2, 1] {
            let low = (x & ((1u64 << width) - 1)).count_ones();
            if low <= rest {
                rest -= low;
                x >>= width;
                at += width;
            }
        }
        (w * 64) as u32 + at
    }

    /// The least value at a position `at` or after, if any member lies there.
    fn min_from(&self, at: u32) -> Option<u32> {
        let (w, bit) = (at as usize / 64, at % 64);
        let word = self.words.get(w)?;
        // The word's own least serves unless it lies before `at`.
        let mut best = if word.at as u32 >= bit {
            word.least
        } else {
            self.least_in_word(w, word.bits & (u64::MAX << bit)).0
        };
        let b = w / WORDS;
        let end = ((b + 1) * WORDS).min(self.words.len());
        for word in &self.words[w + 1..end] {
            best = best.min(word.least);
        }
        let (mut lo, mut hi) = (b + 1 + self.leaves, 2 * self.leaves);
        while lo < hi {
            if lo & 1 == 1 {
                best = best.min(self.block_least[lo]);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                best = best.min(self.block_least[hi]);
            }
            lo /= 2;
            hi /= 2;
        }
        (best != u32::MAX).then_some(best)
    }

    /// Where value `v` sits.
    fn position_of(&self, v: u32) -> u32 {
        self.position[v as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both routes of [`Plan::eat`], the chain and the fresh scan, against crossout
    /// recomputed on every turn: on a dinner both players rank alike, where a player who
    /// eats its least favourite morsel moves every planned morsel across (the scan takes
    /// over), and on one they rank independently (the chains stay short).
    #[test]
    fn the_plan_follows_any_play_by_chain_and_by_rescan() {
        for alike in [true, false] {
            let n = 700u32;
            let mut rng = crate::rng::Rng::for_trial(7, alike as u64);
            let utilities: Vec<i64> = (0..n)
                .flat_map(|_| {
                    let a = rng.below(1 << 30) as i64;
                    [a, if alike { a } else { rng.below(1 << 30) as i64 }]
                })
                .collect();
            let d = Dinner::from_integers(2, utilities).unwrap();
            let order = TurnOrder::default_for(&d);
            let mut plan = Plan::new(&d, &order);
            let mut left: Vec<u32> = (0..n).collect();
            for t in 0..n as usize {
                let planned = crossout_on(&d, &order.turns()[t..], left.iter().copied());
                assert_eq!(plan.next(), planned[0] as usize, "turn {t}");
                // Bob eats what crossout would leave to the end; Alice follows the plan.
                let x = if order.player(t) == 0 {
                    planned[0]
                } else {
                    planned[planned.len() - 1]
                };
                plan.eat(x as usize);
                left.retain(|&m| m != x);
            }
            assert!(plan.crossings > 0, "no chain crossed");
            assert_eq!(plan.rescans > 0, alike, "rescans {}", plan.rescans);
        }
    }
}
