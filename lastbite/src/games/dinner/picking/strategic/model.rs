//! One instance of strategic picking: the sequences, the agents' rankings and scores,
//! sincere and ordinal play, EF1, and every equilibrium allocation by backward induction
//! over the sets of items left ([`Spe`]).

use crate::engine::Player;
use serde::{Deserialize, Serialize};

/// The most items a search takes (bundles are 16-bit masks).
pub const MAX_ITEMS: usize = 16;

/// Why a search stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StrategicError {
    /// The caller asked it to stop.
    #[error("stopped")]
    Stopped,
    /// One instance held more equilibrium allocations than allowed.
    #[error("one instance held more than {0} equilibrium allocations at once")]
    TooManyOutcomes(usize),
}

/// Additive scores of a strict ranking: what the item ranked `r`-th (from 0) of `m` is
/// worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scores {
    /// `m - r`.
    Borda,
    /// `2^(m - 1 - r)` (2^-r scaled to integers): no two bundles tie.
    Lexicographic,
}

impl Scores {
    /// Both models.
    pub const ALL: [Scores; 2] = [Scores::Borda, Scores::Lexicographic];

    /// The value of rank `r` of `m`.
    pub fn value(self, m: usize, r: usize) -> u64 {
        match self {
            Scores::Borda => (m - r) as u64,
            Scores::Lexicographic => 1 << (m - 1 - r),
        }
    }

    /// `borda` or `lexicographic`.
    pub fn name(self) -> &'static str {
        match self {
            Scores::Borda => "borda",
            Scores::Lexicographic => "lexicographic",
        }
    }
}

/// Every recursively balanced sequence of `m` picks for two agents whose first pick is
/// A's: full rounds `AB` or `BA`, then for odd `m` one pick by either. Round robin
/// (`ABAB...`) comes first.
///
/// ```
/// use lastbite::games::dinner::picking::strategic::balanced_two;
/// let s: Vec<String> = balanced_two(5).iter().map(|t| t.iter().map(|&p| (b'A' + p) as char).collect()).collect();
/// assert_eq!(s, ["ABABA", "ABBAA", "ABABB", "ABBAB"]);
/// ```
pub fn balanced_two(m: usize) -> Vec<Vec<u8>> {
    let full = m / 2;
    let free = free_picks(m);
    (0..1u32 << free)
        .map(|code| {
            let mut turns = Vec::with_capacity(m);
            for round in 0..full {
                let swap = round > 0 && code >> (round - 1) & 1 == 1;
                turns.extend(if swap { [1, 0] } else { [0, 1] });
            }
            if m % 2 == 1 {
                turns.push(u8::from(m > 1 && code >> (free - 1) & 1 == 1));
            }
            turns
        })
        .collect()
}

/// The choices that make a balanced sequence of `m` picks (A's first): each full round
/// after the first, and the last pick of an odd `m > 1`.
pub(super) fn free_picks(m: usize) -> usize {
    (m / 2).saturating_sub(1) + usize::from(m % 2 == 1 && m > 1)
}

/// The letters of a sequence (`ABBA`).
pub fn sequence_text(turns: &[u8]) -> String {
    turns.iter().map(|&p| char::from(b'A' + p)).collect()
}

/// A profile of strict rankings: each agent's items from best to worst, and each item's
/// rank for each agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rankings {
    pub(super) order: Vec<[u8; MAX_ITEMS]>,
    pub(super) rank: Vec<[u8; MAX_ITEMS]>,
    pub(super) m: usize,
}

impl Rankings {
    /// The profile of these rankings (each a permutation of `0..m`, best first).
    ///
    /// # Panics
    /// If a ranking is not a permutation of `0..m` with `m <=` [`MAX_ITEMS`].
    pub fn new(orders: &[Vec<u8>]) -> Rankings {
        let m = orders[0].len();
        assert!(m <= MAX_ITEMS);
        let mut out = Rankings {
            order: vec![[0; MAX_ITEMS]; orders.len()],
            rank: vec![[u8::MAX; MAX_ITEMS]; orders.len()],
            m,
        };
        for (i, o) in orders.iter().enumerate() {
            assert_eq!(o.len(), m);
            for (r, &item) in o.iter().enumerate() {
                assert!(out.rank[i][item as usize] == u8::MAX, "not a permutation");
                out.order[i][r] = item;
                out.rank[i][item as usize] = r as u8;
            }
        }
        out
    }

    pub(super) fn set(&mut self, agent: usize, order: &[u8]) {
        for (r, &item) in order.iter().enumerate() {
            self.order[agent][r] = item;
            self.rank[agent][item as usize] = r as u8;
        }
    }

    /// Agent `i`'s utilities of the items under `scores`.
    pub fn utilities(&self, i: usize, scores: Scores) -> [u64; MAX_ITEMS] {
        let mut u = [0; MAX_ITEMS];
        for (x, &r) in u.iter_mut().zip(&self.rank[i][..self.m]) {
            *x = scores.value(self.m, r as usize);
        }
        u
    }
}

/// Sincere play: each agent takes its favourite item left. Each agent's bundle as a mask.
pub fn sincere_two(turns: &[u8], p: &Rankings) -> [u16; 2] {
    let mut taken = 0u16;
    let mut next = [0usize; 2];
    let mut out = [0u16; 2];
    for &a in turns {
        let a = a as usize;
        let item = loop {
            let item = p.order[a][next[a]];
            next[a] += 1;
            if taken >> item & 1 == 0 {
                break item;
            }
        };
        taken |= 1 << item;
        out[a] |= 1 << item;
    }
    out
}

/// The two-agent equilibrium for every utility without ties between bundles (Kohler and
/// Chandrasekaran 1971): play the sequence backwards, each agent taking the item left
/// that the *other* likes least. Each agent's bundle as a mask.
///
/// ```
/// use lastbite::games::dinner::picking::strategic::{ordinal_equilibrium, Rankings};
/// // A likes 0 > 1 > 2 > 3, B likes 0 > 2 > 1 > 3: under ABAB B takes 3 last...
/// let p = Rankings::new(&[vec![0, 1, 2, 3], vec![0, 2, 1, 3]]);
/// let [a, b] = ordinal_equilibrium(&[0, 1, 0, 1], &p);
/// assert_eq!((a, b), (0b0011, 0b1100)); // A gets 0 and 1, B 2 and 3
/// ```
pub fn ordinal_equilibrium(turns: &[u8], p: &Rankings) -> [u16; 2] {
    ordinal_subgame(turns, p, (1u32 << p.m).wrapping_sub(1) as u16)
}

/// [`ordinal_equilibrium`] of the subgame where the items of `left` remain and `turns`
/// (as many as those items) are still to be played.
pub fn ordinal_subgame(turns: &[u8], p: &Rankings, left: u16) -> [u16; 2] {
    let mut taken = !left;
    let mut next = [p.m; 2];
    let mut out = [0u16; 2];
    for &a in turns.iter().rev() {
        let (a, other) = (a as usize, 1 - a as usize);
        let item = loop {
            next[other] -= 1;
            let item = p.order[other][next[other]];
            if taken >> item & 1 == 0 {
                break item;
            }
        };
        taken |= 1 << item;
        out[a] |= 1 << item;
    }
    out
}

pub(super) fn value(u: &[u64; MAX_ITEMS], mask: u16) -> u64 {
    items(mask.into()).map(|x| u[x]).sum()
}

/// Whether agent `i` (utilities `u`) with bundle `own` is envy-free up to one item
/// towards the bundle `other` (goods: some item of `other` removes the envy).
pub fn ef1(u: &[u64; MAX_ITEMS], own: u16, other: u16) -> bool {
    let top = items(other.into()).map(|x| u[x]).max().unwrap_or(0);
    value(u, own) + top >= value(u, other)
}

/// Whether agent `i` with bundle `own` is EF1 towards `other` under *every* additive
/// utility consistent with its strict ranking: its bundle has at least as many items as
/// `other` less its favourite there among its top k items, for every k.
pub fn ef1_every_utility(p: &Rankings, i: usize, own: u16, other: u16) -> bool {
    let order = &p.order[i][..p.m];
    let Some(top) = order.iter().find(|&&item| other >> item & 1 == 1) else {
        return true;
    };
    let rest = other & !(1 << top);
    let (mut mine, mut theirs) = (0i32, 0i32);
    for &item in order {
        mine += i32::from(own >> item & 1 == 1);
        theirs += i32::from(rest >> item & 1 == 1);
        if theirs > mine {
            return false;
        }
    }
    true
}

/// Every pure subgame-perfect equilibrium allocation of a picking sequence of up to 3
/// agents and [`MAX_ITEMS`] items, by backward induction over the sets of items left
/// (`2^m` states, each holding the distinct allocations of its subgame's equilibria,
/// sorted).
/// The buffers are kept between calls: one `Spe` a thread solves millions of instances.
#[derive(Debug, Default)]
pub struct Spe {
    start: Vec<u32>,
    len: Vec<u32>,
    arena: Vec<[u16; 3]>,
    sums: Vec<u64>,
}

impl Spe {
    /// Every equilibrium allocation (each agent's bundle as a mask) for agents with
    /// utilities `u` (one array an agent) playing `turns` over `turns.len()` items; at
    /// most `limit` allocations held over all states.
    ///
    /// An allocation `o` of the subgame after move `x` is an equilibrium outcome exactly
    /// when the mover gets from it at least the least it can be held to after every
    /// other move (the others' continuations may then be chosen to hold it there).
    ///
    /// ```
    /// use lastbite::games::dinner::picking::strategic::Spe;
    /// let mut u = [[0u64; 16]; 2];
    /// u[0][..2].copy_from_slice(&[1, 1]); // A is indifferent
    /// u[1][..2].copy_from_slice(&[2, 1]);
    /// let all = Spe::default().solve(&u, &[0, 1], 10).unwrap().to_vec();
    /// assert_eq!(all.len(), 2);
    /// ```
    pub fn solve(
        &mut self,
        u: &[[u64; MAX_ITEMS]],
        turns: &[u8],
        limit: usize,
    ) -> Result<&[[u16; 3]], StrategicError> {
        let (k, m) = (u.len(), turns.len());
        assert!((1..=3).contains(&k) && m <= MAX_ITEMS);
        let states = 1usize << m;
        self.start.resize(states, 0);
        self.len.resize(states, 0);
        self.sums.resize(states * k, 0);
        for (a, ua) in u.iter().enumerate() {
            let sums = &mut self.sums[a * states..(a + 1) * states];
            sums[0] = 0;
            for s in 1..states {
                sums[s] = sums[s & (s - 1)] + ua[s.trailing_zeros() as usize];
            }
        }
        self.arena.clear();
        self.arena.push([0; 3]);
        self.start[0] = 0;
        self.len[0] = 1;
        for s in 1..states {
            let mover = turns[m - s.count_ones() as usize] as usize;
            let sums = &self.sums[mover * states..(mover + 1) * states];
            let worth = |o: &[u16; 3]| sums[o[mover] as usize];
            // The most the mover can be sure of: the best move's least continuation.
            let mut floor = 0;
            for x in items(s) {
                let held = self.held(s & !(1 << x));
                let least = self.arena[held].iter().map(worth).min().unwrap_or(0);
                floor = floor.max(u[mover][x] + least);
            }
            let begin = self.arena.len();
            for x in items(s) {
                for j in self.held(s & !(1 << x)) {
                    let o = self.arena[j];
                    if u[mover][x] + sums[o[mover] as usize] >= floor {
                        let mut o = o;
                        o[mover] |= 1 << x;
                        self.arena.push(o);
                    }
                }
            }
            // The same allocation is reached in several orders of the picks.
            self.arena[begin..].sort_unstable();
            let mut kept = begin;
            for j in begin..self.arena.len() {
                if kept == begin || self.arena[j] != self.arena[kept - 1] {
                    self.arena[kept] = self.arena[j];
                    kept += 1;
                }
            }
            self.arena.truncate(kept);
            if self.arena.len() > limit {
                return Err(StrategicError::TooManyOutcomes(limit));
            }
            self.start[s] = begin as u32;
            self.len[s] = (self.arena.len() - begin) as u32;
        }
        let root = self.held(states - 1);
        Ok(&self.arena[root])
    }

    /// Where the allocations of a solved state lie in the arena.
    fn held(&self, state: usize) -> std::ops::Range<usize> {
        let at = self.start[state] as usize;
        at..at + self.len[state] as usize
    }
}

/// The items of a mask, lowest first.
pub(super) fn items(mask: usize) -> impl Iterator<Item = usize> {
    let mut b = mask;
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let x = b.trailing_zeros() as usize;
            b &= b - 1;
            x
        })
    })
}

/// Whether every agent is EF1 towards every other in `alloc` under utilities `u`; if
/// not, the first `(envious, envied)` pair.
pub fn first_envy_beyond_one(u: &[[u64; MAX_ITEMS]], alloc: &[u16]) -> Option<(Player, Player)> {
    for i in 0..u.len() {
        for j in 0..u.len() {
            if i != j && !ef1(&u[i], alloc[i], alloc[j]) {
                return Some((i, j));
            }
        }
    }
    None
}

/// A profile where an equilibrium allocation is not EF1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    /// The picking sequence.
    pub sequence: String,
    /// Each agent's utilities, item by item.
    pub utilities: Vec<Vec<u64>>,
    /// The allocation: each agent's items (numbered from 0, as a dinner's morsels).
    pub bundles: Vec<Vec<usize>>,
    /// The agent that envies beyond one item, and the agent it envies.
    pub envy: (Player, Player),
}

impl Witness {
    pub(super) fn new(
        turns: &[u8],
        u: &[[u64; MAX_ITEMS]],
        alloc: &[u16],
        envy: (Player, Player),
    ) -> Self {
        let m = turns.len();
        Witness {
            sequence: sequence_text(turns),
            utilities: u.iter().map(|row| row[..m].to_vec()).collect(),
            bundles: alloc
                .iter()
                .map(|&b| (0..m).filter(|&i| b >> i & 1 == 1).collect())
                .collect(),
            envy,
        }
    }
}

/// How often a criterion fails, and its first failure in the enumeration's order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// Instances examined.
    pub instances: u64,
    /// Instances where it fails.
    pub failures: u64,
    /// The first failure.
    pub first: Option<Witness>,
}

impl Verdict {
    /// `self` then `other` (the first failure `self`'s when it has one: merged in the
    /// enumeration's order, it is the first of both).
    pub fn merge(mut self, other: Verdict) -> Verdict {
        self.instances += other.instances;
        self.failures += other.failures;
        if self.first.is_none() {
            self.first = other.first;
        }
        self
    }

    pub(super) fn record(&mut self, fails: impl FnOnce() -> Option<Witness>) {
        self.instances += 1;
        if let Some(w) = fails() {
            self.failures += 1;
            if self.first.is_none() {
                self.first = Some(w);
            }
        }
    }
}
