//! Crossout's next bite without its plan, read from the end of the crossout sequence
//! alone (issue 30): where both players rank the morsels nearly alike, a bite off the
//! plan moves most planned morsels to the other side (`plan`), but the last morsels
//! crossed out (paper: "The crossout strategy", the crossout board) are decided by the
//! top of both rankings.
//!
//! **Why the end suffices.** On each turn, from the last back, the scan crosses out the
//! least favourite morsel left of the player not moving. The morsels left after any
//! number of turns are a *corner* of the crossout board: those that A ranks at least `x`
//! and B at least `y` (crossing out the least in one ranking keeps that form). Corners
//! of as many morsels are ordered: the one reaching less far along A's axis reaches
//! further along B's (were it further on both, it would lie inside the other). Crossing
//! out A's least favourite keeps the order: from corners `C` before `C'`, `C` stays
//! before when it held two morsels A ranks below all of `C'`; when it held one, what is
//! left of `C` either holds `C'`'s least morsel for A (and stays before) or lies inside
//! what is left of `C'` (and, as large, equals it); when none, `C` lies inside `C'`;
//! B's alike. So the scan's corner of `k + 1` morsels, the `k + 1` left before the last
//! `k` crossings ahead of the turn being played, lies between the `k + 1` morsels A
//! likes best and the `k + 1` that B likes best, and the last `k` crossings keep it
//! between what they leave of those two: when both leave the same morsel, that is the
//! last morsel crossed out, the one crossout eats now (the argument of Propp and
//! Wilson's "coupling from the past"). It is checked against the whole scan in the
//! tests below and in the plays' cross-checks.
//!
//! **Cost.** `k` doubles until the two agree, up to a reach the caller sets; each try
//! sorts each corner by the other ranking. With B's ranks within `w` of A's, the two
//! agree within about `5w` morsels at any size (measured); independent rankings need
//! nearly the whole dinner, and the plan answers those.
//!
//! The module owns [`Tops`], the morsels left by each ranking from the top, and
//! [`crossout_by_coupling`].

/// The morsels left in each player's ranking, read from the top: `k` morsels in about
/// `O(k)` however many were eaten above them (skip pointers, compressed as they are read).
pub(crate) struct Tops {
    /// `down[p][i]`, for the morsel of `p`'s rank `i - 1`: `i` while it is left, else a
    /// lower index to look at; index 0 stands below every rank.
    down: [Vec<u32>; 2],
    /// The coupling's buffers, kept from one query to the next.
    scratch: Scratch,
}

impl Tops {
    /// Every one of `n` morsels left.
    pub(crate) fn new(n: usize) -> Tops {
        let all: Vec<u32> = (0..=n as u32).collect();
        Tops {
            down: [all.clone(), all],
            scratch: Scratch::default(),
        }
    }

    /// The morsel of ranks `ranks` (one a player) is eaten.
    pub(crate) fn remove(&mut self, ranks: [u32; 2]) {
        for (down, r) in self.down.iter_mut().zip(ranks) {
            down[r as usize + 1] = r;
        }
    }

    /// The highest index (`p`'s rank + 1) at or below `i` whose morsel is left (0:
    /// none), compressing the path on the way.
    fn find(&mut self, p: usize, mut i: u32) -> u32 {
        let down = &mut self.down[p];
        while down[i as usize] != i {
            let next = down[down[i as usize] as usize];
            down[i as usize] = next;
            i = next;
        }
        i
    }

    /// `p`'s ranks of the `count` morsels left that `p` likes best, pushed onto `out`
    /// from the best down (fewer when fewer are left).
    fn best(&mut self, p: usize, count: usize, out: &mut Vec<u32>) {
        let mut i = self.find(p, (self.down[p].len() - 1) as u32);
        while i > 0 && out.len() < count {
            out.push(i - 1);
            i = self.find(p, i - 1);
        }
    }
}

/// What crossout eats on the turn being played, if the two extreme corners of at most
/// `reach + 1` morsels agree (see the module doc); `None` when they still differ there.
/// With it, the morsels of the corners tried (the cost, about 20 ns each).
///
/// `rank[p][m]` and `by_rank[p][r]` are each player's ranks (0 = least favourite);
/// `turns` are the players of the turns left, the one being played first.
pub(crate) fn crossout_by_coupling(
    tops: &mut Tops,
    rank: &[Vec<u32>; 2],
    by_rank: &[Vec<u32>; 2],
    turns: &[u8],
    from: usize,
    reach: usize,
) -> (Option<(usize, usize)>, u64) {
    let left = turns.len();
    let mut tried = 0;
    if left == 0 {
        return (None, tried);
    }
    let mut scratch = std::mem::take(&mut tops.scratch);
    let mut k = from.max(1);
    loop {
        k = k.min(left - 1);
        tried += 2 * (k as u64 + 1);
        let mut ends = [0usize; 2];
        for (p, end) in ends.iter_mut().enumerate() {
            scratch.ranks.clear();
            tops.best(p, k + 1, &mut scratch.ranks);
            // The crossings of the k turns before the one being played, from the last.
            let players = turns[1..=k].iter().rev().copied();
            *end = scratch.last_left(p, rank, by_rank, players);
        }
        let agreed = ends[0] == ends[1];
        // At k = left - 1 both corners are the whole dinner left and agree.
        debug_assert!(agreed || k < left - 1);
        if agreed || k >= reach {
            tops.scratch = scratch;
            return (agreed.then_some((ends[0], k)), tried);
        }
        k *= 2;
    }
}

/// The buffers of [`crossout_by_coupling`].
#[derive(Default)]
struct Scratch {
    /// The corner: `p`'s ranks of its morsels, from the best down.
    ranks: Vec<u32>,
    /// The other player's rank of each (high half) and its index in `ranks`, sorted.
    other: Vec<u64>,
    spare: Vec<u64>,
    gone: Vec<bool>,
}

impl Scratch {
    /// The morsel of the corner in `ranks` (`p`'s best) that the crossings of `players`
    /// (in scan order, one fewer than the morsels) leave: on each, the player's
    /// opponent's least favourite left.
    fn last_left(
        &mut self,
        p: usize,
        rank: &[Vec<u32>; 2],
        by_rank: &[Vec<u32>; 2],
        players: impl Iterator<Item = u8>,
    ) -> usize {
        let n = self.ranks.len();
        let q = 1 - p;
        // p's order is the corner's, read backwards; q's is sorted.
        self.other.clear();
        self.other
            .extend(self.ranks.iter().enumerate().map(|(i, &r)| {
                let m = by_rank[p][r as usize] as usize;
                (rank[q][m] as u64) << 32 | i as u64
            }));
        sort_by_rank(&mut self.other, &mut self.spare, rank[q].len());
        self.gone.clear();
        self.gone.resize(n, false);
        // The next candidates: index into `ranks` counting down (p's least first), and
        // into `other`.
        let (mut own, mut next) = (n, 0usize);
        for player in players {
            let i = if player as usize == q {
                // q crosses out p's least favourite.
                loop {
                    own -= 1;
                    if !self.gone[own] {
                        break own;
                    }
                }
            } else {
                loop {
                    let i = self.other[next] as u32 as usize;
                    next += 1;
                    if !self.gone[i] {
                        break i;
                    }
                }
            };
            self.gone[i] = true;
        }
        let last = self.gone.iter().position(|&g| !g).expect("one morsel left");
        by_rank[p][self.ranks[last] as usize] as usize
    }
}

/// Sorts `keys` by their high halves, ranks below `n`: short slices by comparison, long
/// ones by a radix sort of 11 bits a pass, least significant first (half the coupling's
/// time went to sorting before).
fn sort_by_rank(keys: &mut Vec<u64>, spare: &mut Vec<u64>, n: usize) {
    const DIGIT: u32 = 11;
    if keys.len() < 512 {
        keys.sort_unstable();
        return;
    }
    let bits = usize::BITS - n.leading_zeros();
    spare.clear();
    spare.resize(keys.len(), 0);
    let mut shift = 32;
    while shift < 32 + bits {
        let digit = |k: u64| (k >> shift) as usize & ((1 << DIGIT) - 1);
        let mut start = [0u32; 1 << DIGIT];
        for &k in keys.iter() {
            start[digit(k)] += 1;
        }
        let mut sum = 0;
        for s in start.iter_mut() {
            (*s, sum) = (sum, sum + *s);
        }
        for &k in keys.iter() {
            let d = digit(k);
            spare[start[d] as usize] = k;
            start[d] += 1;
        }
        std::mem::swap(keys, spare);
        shift += DIGIT;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dinner::crossout::{crossout_on, rank_tables};
    use crate::games::dinner::{Dinner, TurnOrder};

    /// Crossout's first bite by coupling, with any reach, against the whole scan: on
    /// dinners ranked alike, nearly alike and independently, with some morsels eaten
    /// (skipped by [`Tops`]), under alternation and random orders.
    #[test]
    fn coupling_agrees_with_the_whole_scan() {
        let mut rng = crate::rng::Rng::for_trial(30, 5);
        let mut agreed = 0;
        for trial in 0..600 {
            let n = 1 + rng.below(200) as usize;
            // B values a morsel as A does, give or take `noise` of A's steps.
            let noise = [0u64, 3, 40, 1 << 30][trial % 4];
            let utilities: Vec<i64> = (0..n)
                .flat_map(|_| {
                    let a = rng.below(1 << 20) as i64;
                    let off = if noise == 0 {
                        0
                    } else {
                        rng.below(noise << 20)
                    };
                    [a, (a << 20) + off as i64]
                })
                .collect();
            let d = Dinner::from_integers(2, utilities).unwrap();
            let spec: String = (0..n)
                .map(|_| if rng.below(2) == 0 { 'A' } else { 'B' })
                .collect();
            let order = if trial % 3 == 0 {
                TurnOrder::default_for(&d)
            } else {
                TurnOrder::parse(&spec, &d).unwrap()
            };
            let (rank, by_rank) = rank_tables(&d);
            // The first `eaten` turns eat morsels at random.
            let eaten = rng.below(n as u64) as usize;
            let mut tops = Tops::new(n);
            let mut left: Vec<u32> = (0..n as u32).collect();
            for _ in 0..eaten {
                let m = left.swap_remove(rng.below(left.len() as u64) as usize);
                tops.remove([rank[0][m as usize], rank[1][m as usize]]);
            }
            left.sort_unstable();
            let turns = &order.turns()[eaten..];
            let planned = crossout_on(&d, turns, left.iter().copied());
            let reach = rng.below(n as u64 + 1) as usize;
            let from = 1 + rng.below(8) as usize;
            if let (Some((m, _)), _) =
                crossout_by_coupling(&mut tops, &rank, &by_rank, turns, from, reach)
            {
                assert_eq!(m, planned[0] as usize, "trial {trial}");
                agreed += 1;
            }
            // Reaching the whole dinner always answers.
            let (m, _) = crossout_by_coupling(&mut tops, &rank, &by_rank, turns, 1, n);
            assert_eq!(
                m.map(|(m, _)| m),
                Some(planned[0] as usize),
                "trial {trial}, whole"
            );
        }
        assert!(agreed > 300, "coupling answered {agreed} of 600");
    }

    /// The radix sort against the comparison sort, at lengths on both sides of the switch
    /// and with ranks of up to 30 bits.
    #[test]
    fn sorting_by_rank_sorts() {
        let mut rng = crate::rng::Rng::for_trial(30, 6);
        for (len, n) in [
            (100, 1000),
            (511, 600),
            (512, 512),
            (5000, 1 << 30),
            (3000, 70_000),
        ] {
            // Distinct ranks below n.
            let mut seen = std::collections::HashSet::new();
            let mut keys = Vec::new();
            while keys.len() < len {
                let r = rng.below(n as u64);
                if seen.insert(r) {
                    keys.push(r << 32 | keys.len() as u64);
                }
            }
            let mut expected = keys.clone();
            expected.sort_unstable();
            sort_by_rank(&mut keys, &mut Vec::new(), n);
            assert_eq!(keys, expected, "{len} keys below {n}");
        }
    }
}
