//! The records of a planned set and their slack (see [`Plan`](super::Plan)'s "Finding
//! the crossing"): the first record after the hole whose slack is spent, in `O(log n)`.

use std::collections::BTreeMap;

/// The records of one planned set `S_q` (its members least, for q, from their place on
/// in the other player's order) with their slack: a crossing is the first record after
/// the hole whose slack is spent, found in `O(log n)`.
///
/// A record's slack is the other player's planned morsels that q ranks below it, less
/// the other player's turns after the record's own turn. A planned morsel added to or
/// removed from the other set changes it by one for the records above that morsel (for
/// q), which are those after a place, since records rise in q's ranking with their
/// place; one added to or removed from `S_q` moves q's later records by one of q's
/// turns, which under alternation changes the other player's turns after them by one.
/// So every change is a change from a place on, which a lazy min tree takes in
/// `O(log n)`. Under other orders that step varies from turn to turn: the tree then
/// holds a lower bound of each slack (a removal adds the least step, and the insert
/// that follows it in a chain takes exactly that back), and a record whose bound is
/// spent has its slack computed, and kept, before it counts. Records come and
/// go as `S_q` changes; a member that leaves is itself a record (the chain moves only
/// records), and the members it uncovers are found one `min_from` each.
pub(super) struct Records {
    /// Each record's place by its value (q's rank).
    pub(super) by_value: BTreeMap<u32, u32>,
    /// The slack of each record by its place.
    pub(super) slack: SlackTree,
}

/// The least slack of a block that holds no record: never spent.
pub(super) const NOT_A_RECORD: i64 = i64::MAX / 4;

impl Records {
    /// Holds nothing and allocates nothing (a placeholder while records are rebuilt).
    pub(super) fn empty() -> Records {
        Records {
            by_value: BTreeMap::new(),
            slack: SlackTree::new(0),
        }
    }

    pub(super) fn new(n: usize) -> Records {
        Records {
            by_value: BTreeMap::new(),
            slack: SlackTree::new(n),
        }
    }

    /// Adds `delta` to the slack of every record whose value lies above `value`.
    pub(super) fn add_above(&mut self, value: u32, delta: i64) {
        if let Some((_, &at)) = self.by_value.range(value + 1..).next() {
            self.slack.add_from(at as usize, delta);
        }
    }
}

/// The slack of the records at their places, with additions to every place from one on
/// and the first place from one on whose slack is spent.
///
/// Places come in blocks of 64 (a bit each for "holds a record", and a value each); a
/// bottom-up min tree over the blocks keeps additions at the nodes they cover (no
/// pushing down). Records are few and the tree has `n / 64` leaves, so it stays in
/// cache; a tree over every place was three times slower at 10^6 morsels.
pub(super) struct SlackTree {
    pub(super) leaves: usize,
    /// Which places of each block hold a record.
    pub(super) held: Vec<u64>,
    /// Each place's slack less the additions at its block's leaf and the nodes above.
    pub(super) value: Vec<i64>,
    /// The least value below each node, counting the additions at it and below.
    pub(super) least: Vec<i64>,
    /// The addition at each node, for every place below it.
    pub(super) added: Vec<i64>,
}

impl SlackTree {
    pub(super) fn new(n: usize) -> SlackTree {
        let blocks = n.div_ceil(64).max(1);
        let leaves = blocks.next_power_of_two();
        SlackTree {
            leaves,
            held: vec![0; blocks],
            value: vec![0; blocks * 64],
            least: vec![NOT_A_RECORD; 2 * leaves],
            added: vec![0; 2 * leaves],
        }
    }

    /// Holds exactly the records `(place, slack)` given, in `O(n / 64)` and one step
    /// a record.
    pub(super) fn fill(&mut self, records: impl Iterator<Item = (usize, i64)>) {
        self.held.fill(0);
        self.added.fill(0);
        self.least.fill(NOT_A_RECORD);
        for (at, slack) in records {
            self.held[at / 64] |= 1 << (at % 64);
            self.value[at] = slack;
            let leaf = at / 64 + self.leaves;
            self.least[leaf] = self.least[leaf].min(slack);
        }
        for node in (1..self.leaves).rev() {
            self.least[node] = self.least[2 * node].min(self.least[2 * node + 1]);
        }
    }

    pub(super) fn apply(&mut self, node: usize, delta: i64) {
        self.least[node] += delta;
        self.added[node] += delta;
    }

    /// The additions at block `b`'s leaf and the nodes above it.
    pub(super) fn above(&self, b: usize) -> i64 {
        let mut node = b + self.leaves;
        let mut sum = 0;
        while node >= 1 {
            sum += self.added[node];
            node /= 2;
        }
        sum
    }

    /// Block `b`'s least value (of its records), and the nodes above it.
    pub(super) fn refresh(&mut self, b: usize) {
        let mut held = self.held[b];
        let mut least = NOT_A_RECORD;
        while held != 0 {
            least = least.min(self.value[b * 64 + held.trailing_zeros() as usize]);
            held &= held - 1;
        }
        let leaf = b + self.leaves;
        self.least[leaf] = least + self.added[leaf];
        self.pull(leaf);
    }

    /// Recomputes the nodes above `node`.
    pub(super) fn pull(&mut self, mut node: usize) {
        while node > 1 {
            node /= 2;
            self.least[node] =
                self.least[2 * node].min(self.least[2 * node + 1]) + self.added[node];
        }
    }

    /// Adds `delta` at every place from `from` on.
    pub(super) fn add_from(&mut self, from: usize, delta: i64) {
        let b = from / 64;
        if b >= self.held.len() {
            return;
        }
        // The records in the rest of `from`'s block one by one, the blocks after it in
        // the tree.
        let mut held = self.held[b] & (u64::MAX << (from % 64));
        if held != 0 {
            while held != 0 {
                self.value[b * 64 + held.trailing_zeros() as usize] += delta;
                held &= held - 1;
            }
            self.refresh(b);
        }
        let (mut lo, mut hi) = (b + 1 + self.leaves, 2 * self.leaves);
        let first = lo;
        if lo >= hi {
            return;
        }
        while lo < hi {
            if lo & 1 == 1 {
                self.apply(lo, delta);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                self.apply(hi, delta);
            }
            lo /= 2;
            hi /= 2;
        }
        // Every node the range only partly covers lies above its first leaf.
        self.pull(first);
    }

    /// Place `at` holds a record of slack `slack`.
    pub(super) fn set(&mut self, at: usize, slack: i64) {
        let b = at / 64;
        self.value[at] = slack - self.above(b);
        self.held[b] |= 1 << (at % 64);
        self.refresh(b);
    }

    /// Place `at` holds no record.
    pub(super) fn unset(&mut self, at: usize) {
        let b = at / 64;
        self.held[b] &= !(1 << (at % 64));
        self.refresh(b);
    }

    /// The first place from `from` on whose record's slack is zero or less.
    pub(super) fn first_spent(&self, from: usize) -> Option<usize> {
        let b = from / 64;
        if b >= self.held.len() {
            return None;
        }
        let in_block = |b: usize, held: u64, above: i64| {
            let mut held = held;
            while held != 0 {
                let at = b * 64 + held.trailing_zeros() as usize;
                if self.value[at] + above <= 0 {
                    return Some(at);
                }
                held &= held - 1;
            }
            None
        };
        let found = in_block(b, self.held[b] & (u64::MAX << (from % 64)), self.above(b));
        if found.is_some() {
            return found;
        }
        let (leaf, above) = self.find(1, 0, self.leaves, b + 1, 0)?;
        in_block(leaf, self.held[leaf], above)
    }

    /// The first block from `from` on holding a spent record, with the additions above it.
    pub(super) fn find(
        &self,
        node: usize,
        lo: usize,
        hi: usize,
        from: usize,
        above: i64,
    ) -> Option<(usize, i64)> {
        if hi <= from || self.least[node] + above > 0 {
            return None;
        }
        if hi - lo == 1 {
            return Some((lo, above + self.added[node]));
        }
        let (mid, above) = ((lo + hi) / 2, above + self.added[node]);
        self.find(2 * node, lo, mid, from, above)
            .or_else(|| self.find(2 * node + 1, mid, hi, from, above))
    }
}
