//! The rank sets the plan's two sets are stored in: counts below a position, the member
//! with `k` below it, and the least value from a position on, laid out for the cache.

/// A set of morsels kept at positions `0..n` (one player's ranks), each position with a
/// fixed value (the other player's rank of the morsel there): counts below a position,
/// the member with `k` members below it, and the least value from a position on.
///
/// Laid out for the cache rather than as textbook trees: a 16-byte word a 64 positions
/// (its members' bits, its least value and where, and its block's members before it),
/// in blocks of 64 words, with a Fenwick tree and a min tree over the blocks only
/// (`n / 4096` of them, which stay in cache). Each query reads a handful of cache
/// lines; the trees over all `n` positions that this replaced read about forty.
pub(super) struct RankedSet {
    pub(super) values: Vec<u32>,
    /// The position of each value (the values are a permutation of `0..n`).
    pub(super) position: Vec<u32>,
    pub(super) words: Vec<Word>,
    /// Fenwick tree of the blocks' member counts (1-based).
    pub(super) block_counts: Vec<u32>,
    pub(super) block_top: usize,
    /// Min tree over the blocks' least values, `leaves` leaves.
    pub(super) block_least: Vec<u32>,
    pub(super) leaves: usize,
}

/// 64 positions of a [`RankedSet`].
#[derive(Clone, Copy)]
#[repr(align(16))]
pub(super) struct Word {
    pub(super) bits: u64,
    /// The least value among the members (`u32::MAX`: none).
    pub(super) least: u32,
    /// Members in the block before this word.
    pub(super) before: u16,
    /// The bit holding `least`.
    pub(super) at: u8,
}

impl Word {
    const EMPTY: Word = Word {
        bits: 0,
        least: u32::MAX,
        before: 0,
        at: 0,
    };
}

pub(super) const WORDS: usize = 64;

impl RankedSet {
    /// An empty set over positions `0..values.len()`, `values[i]` the value at `i` (a
    /// permutation).
    pub(super) fn new(values: Vec<u32>) -> RankedSet {
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
    pub(super) fn refill(&mut self, members: impl Iterator<Item = u32>) {
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
    pub(super) fn count(&mut self, w: usize, up: bool) {
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
    pub(super) fn set_block_least(&mut self, b: usize, least: u32) {
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
    pub(super) fn insert(&mut self, at: u32) {
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
    pub(super) fn remove(&mut self, at: u32) {
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
    pub(super) fn least_in_word(&self, w: usize, mut bits: u64) -> (u32, u8) {
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
    pub(super) fn count_below(&self, at: u32) -> u32 {
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
    pub(super) fn select(&self, k: usize) -> u32 {
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
    pub(super) fn min_from(&self, at: u32) -> Option<u32> {
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

    /// The value at position `at`.
    pub(super) fn value_at(&self, at: u32) -> u32 {
        self.values[at as usize]
    }

    /// Where value `v` sits.
    pub(super) fn position_of(&self, v: u32) -> u32 {
        self.position[v as usize]
    }
}
