//! Crossout's next bite without its plan, read from the end of the crossout sequence
//! alone: where both players rank the morsels nearly alike, a bite off the
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
//! **Cost.** `k` doubles until the two meet, up to a reach the caller sets; each try
//! sorts each corner by the other ranking. With B's ranks within `w` of A's, the two
//! meet within about `5w` morsels at any size (measured); independent rankings need
//! nearly the whole dinner, and the plan answers those.
//!
//! **After they meet.** From the corner where the two met the scan is known exactly, and
//! it can be kept along the play ([`Tail`]): a bite inside that corner leaves it known,
//! and a bite crossed out before it moves it to the next turn whose corner has one least
//! favourite for both players. So most queries walk a few hundred morsels from there
//! instead of coupling from `5w` back.
//!
//! The module owns [`Tops`], the morsels left by each ranking from the top,
//! [`crossout_by_coupling`] and the [`Tail`] it leaves.

/// The morsels left in each player's ranking, read from the top: `k` morsels in about
/// `O(k)` however many were eaten above them (skip pointers, compressed as they are read).
pub(crate) struct Tops {
    /// `down[p][i]`, for the morsel of `p`'s rank `i - 1`: `i` while it is left, else a
    /// lower index to look at; index 0 stands below every rank.
    down: [Vec<u32>; 2],
    /// `partner[p][r]`: the other player's rank of the morsel of `p`'s rank `r` (read in
    /// `p`'s order, where the two tables of ranks would be read at random).
    partner: [Vec<u32>; 2],
    /// The coupling's corner by B's ranking (the tail holds A's), kept from one query to
    /// the next.
    walker: Walker,
}

impl Tops {
    /// Every morsel left, of the rankings given by each player's rank of each morsel
    /// and the morsel of each rank.
    pub(crate) fn new(rank: &[Vec<u32>; 2], by_rank: &[Vec<u32>; 2]) -> Tops {
        let n = rank[0].len();
        let all: Vec<u32> = (0..=n as u32).collect();
        let partner = [0, 1].map(|p| {
            let other = &rank[1 - p];
            by_rank[p].iter().map(|&m| other[m as usize]).collect()
        });
        Tops {
            down: [all.clone(), all],
            partner,
            walker: Walker::default(),
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

    /// Whether the morsel of `p`'s rank `r` is left.
    fn is_left(&self, p: usize, r: u32) -> bool {
        self.down[p][r as usize + 1] == r + 1
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

/// A corner of the crossout board known exactly: the morsels left after the crossings of
/// every turn after `turn` are those that each player `p` ranks at least `lo[p]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Anchor {
    turn: usize,
    lo: [u32; 2],
}

/// What crossout eats on turn `now`, if the two extreme corners of at most `reach + 1`
/// morsels meet (see the module doc); `None` when they still differ there. With it, the
/// morsels of the corners tried (the cost, about 20 ns each). Where they meet, `tail`
/// keeps the scan from there on (see [`Tail`]).
pub(crate) fn crossout_by_coupling(
    tail: &mut Tail,
    kit: &mut Kit,
    now: usize,
    from: usize,
    reach: usize,
) -> (Option<(usize, usize)>, u64) {
    tail.live = false;
    let left = kit.turns.len() - now;
    let mut tried = 0;
    if left == 0 {
        return (None, tried);
    }
    let mut other = std::mem::take(&mut kit.tops.walker);
    let mut k = from.max(1);
    loop {
        k = k.min(left - 1);
        tried += 2 * (k as u64 + 1);
        for (p, walker) in [&mut tail.walker, &mut other].into_iter().enumerate() {
            walker.ranks.clear();
            kit.tops.best(p, k + 1, &mut walker.ranks);
            walker.load(p, &kit.tops.partner[p]);
        }
        // The crossings of the k turns before the one being played, from the last, until
        // both corners are the same (then every corner between them is that one too, and
        // the scan goes on from there as one).
        let mut met = false;
        for t in (now..=now + k).rev() {
            if !met {
                let lo = tail.walker.least();
                if lo == other.least() {
                    met = true;
                    tail.anchor = Anchor { turn: t, lo };
                    tail.crossed.clear();
                    tail.meetings.clear();
                }
            }
            if t == now {
                break;
            }
            if met {
                tail.step(kit.turns[t], t);
            } else {
                let crossed = 1 - kit.turns[t] as usize;
                tail.walker.cross(crossed);
                other.cross(crossed);
            }
        }
        // At k = left - 1 both corners are the whole dinner left and meet at once.
        debug_assert!(met || k < left - 1);
        if met || k >= reach {
            kit.tops.walker = other;
            return (met.then(|| (tail.finish(kit), k)), tried);
        }
        k *= 2;
    }
}

/// A corner of the crossout board crossed out turn by turn: its morsels by one player's
/// ranking and sorted by the other's, and which are gone.
#[derive(Default)]
struct Walker {
    /// The ranking `ranks` follows.
    p: usize,
    /// The corner: `p`'s ranks of its morsels, from the best down.
    ranks: Vec<u32>,
    /// The other player's rank of each (high half) and its index in `ranks`, sorted.
    other: Vec<u64>,
    spare: Vec<u64>,
    gone: Vec<bool>,
    /// `ranks[..own]` holds every morsel left, the last of them left too; `other[next..]`
    /// likewise, the first of them left.
    own: usize,
    next: usize,
}

impl Walker {
    /// Readies the corner in `ranks` (by `p`'s ranking) to be crossed out, `partner` the
    /// other player's rank of each of `p`'s ranks.
    fn load(&mut self, p: usize, partner: &[u32]) {
        self.p = p;
        self.other.clear();
        self.other.extend(
            self.ranks
                .iter()
                .enumerate()
                .map(|(i, &r)| (partner[r as usize] as u64) << 32 | i as u64),
        );
        self.sorted(partner.len());
    }

    /// Sorts `other` and marks every morsel of the corner left.
    fn sorted(&mut self, n: usize) {
        sort_by_rank(&mut self.other, &mut self.spare, n);
        self.ready();
    }

    /// Marks every morsel of the corner (in `ranks` and, sorted, in `other`) left.
    fn ready(&mut self) {
        self.gone.clear();
        self.gone.resize(self.ranks.len(), false);
        (self.own, self.next) = (self.ranks.len(), 0);
    }

    /// The indices in `ranks` of `p`'s and the other player's least favourite left.
    fn mins(&self) -> (usize, usize) {
        (self.own - 1, self.other[self.next] as u32 as usize)
    }

    /// Each player's rank of their least favourite left: the corner's bounds.
    fn least(&self) -> [u32; 2] {
        let (own, _) = self.mins();
        let mut lo = [self.ranks[own], (self.other[self.next] >> 32) as u32];
        if self.p == 1 {
            lo.swap(0, 1);
        }
        lo
    }

    /// Crosses out the least favourite left of player `crossed`: its index in `ranks`.
    fn cross(&mut self, crossed: usize) -> usize {
        let (own, other) = self.mins();
        let i = if crossed == self.p { own } else { other };
        self.gone[i] = true;
        // Both ends moved past what is gone at once, so that `mins` only reads (the
        // crossing leaves at least one morsel).
        while self.gone[self.own - 1] {
            self.own -= 1;
        }
        while self.gone[self.other[self.next] as u32 as usize] {
            self.next += 1;
        }
        i
    }
}

/// Crossout's scan over the dinner left, kept from where the coupling met along a play:
/// the scan from an exactly known corner (the anchor) to the turn being
/// played, and, on it, the turns whose corner has one least favourite for both players
/// ("meetings").
///
/// **A bite off the scan.** When the player to move eats `x`, the scan over the dinner
/// without `x` keeps one morsel fewer in every corner than the old scan: until `x` is
/// crossed out, the old corner without `x`; after, the old corner without the least
/// favourite of the player whose morsel was last crossed out in its place. At a meeting
/// both choices leave the same corner, so the new scan's corner before a meeting turn is
/// the old scan's corner after it. Hence:
/// - `x` in the anchor's corner: the anchor holds for the new scan;
/// - `x` crossed out before: the first meeting after the anchor is the new anchor, with
///   the old corner after it (no meeting: the tail is lost, and the coupling meets anew);
/// - `x` the scan's last morsel (crossout's own bite): the scan is the old one without its
///   last crossing, whose morsel is the next bite.
///
/// Each query walks from the anchor, which is then moved up to keep [`MEETINGS_AHEAD`]
/// meetings ahead of it. On rankings that nearly agree meetings come every few morsels
/// (about `w / 4` with B's ranks within `w` of A's), so a bite costs a short walk where
/// the coupling starts from about `5w` back.
#[derive(Default)]
pub(crate) struct Tail {
    /// Whether the anchor is a corner of the scan over the dinner left.
    pub(crate) live: bool,
    anchor: Anchor,
    /// Whether the walk below is that scan.
    current: bool,
    /// The corner walked, by A's ranking.
    walker: Walker,
    /// The indices (in `walker`) crossed out from the anchor's turn down, and the last left.
    crossed: Vec<u32>,
    bite: u32,
    /// The meeting turns of the walk, from the anchor's down, with the corner after each.
    meetings: Vec<Anchor>,
    /// Scratch of [`Tail::narrow`]: each morsel's new index in the walker.
    renumber: Vec<u32>,
    /// The morsels listed and crossed out by the walks (the cost, like the coupling's).
    pub(crate) work: u64,
}

/// The meetings a walk keeps ahead of the anchor (a bite that the scan crossed out before
/// the anchor spends one).
const MEETINGS_AHEAD: usize = 8;

impl Tail {
    /// Crossout's bite on turn `now` (the scan's last morsel), the tail being live.
    pub(crate) fn bite(&mut self, kit: &mut Kit, now: usize) -> usize {
        debug_assert!(self.live);
        if !self.current {
            self.walk(kit, now);
        }
        self.morsel(kit, self.bite)
    }

    /// The morsel at index `i` of the walk.
    fn morsel(&self, kit: &Kit, i: u32) -> usize {
        kit.by_rank[0][self.walker.ranks[i as usize] as usize] as usize
    }

    /// The player to move on turn `now` eats `x`, still left in `kit.tops`: the tail
    /// follows, or is lost (see the type's doc).
    pub(crate) fn follow(&mut self, kit: &mut Kit, now: usize, x: usize) {
        let lo = self.anchor.lo;
        let inside = kit.rank[0][x] >= lo[0] && kit.rank[1][x] >= lo[1];
        if inside && self.anchor.turn == now {
            // The corner was x alone.
            self.live = false;
        } else if !inside {
            if !self.current {
                self.walk(kit, now);
            }
            match self.meetings.first() {
                Some(&meeting) => self.anchor = meeting,
                None => self.live = false,
            }
            self.current = false;
        } else if self.current && self.morsel(kit, self.bite) == x {
            self.bite = self.crossed.pop().expect("the anchor is before the turn");
            if self.meetings.last().is_some_and(|m| m.turn == now + 1) {
                self.meetings.pop();
            }
        } else {
            self.current = false;
        }
    }

    /// Walks the scan from the anchor to turn `now`.
    fn walk(&mut self, kit: &mut Kit, now: usize) {
        let Anchor { turn, lo } = self.anchor;
        self.narrow(kit, lo);
        debug_assert_eq!(
            self.walker.ranks.len(),
            turn - now + 1,
            "the anchor's corner"
        );
        self.crossed.clear();
        self.meetings.clear();
        for t in (now + 1..=turn).rev() {
            self.step(kit.turns[t], t);
        }
        self.work += (turn - now) as u64;
        self.finish(kit);
    }

    /// Narrows the walker to the anchor's corner, `lo` its bounds: the morsels left that
    /// A ranks from `lo[0]` up and B from `lo[1]` up, in both orders, ready to be crossed
    /// out. The walker holds a corner that contains it (the last walk's, or the A side of
    /// the coupling that met: the anchor only moves into them), some of whose morsels may
    /// have been eaten since; keeping both of its orders while dropping the rest sorts
    /// nothing again, where listing the corner afresh from [`Tops`] skipped the morsels B
    /// crossed out before the anchor and sorted the rest by B's ranking each time.
    fn narrow(&mut self, kit: &Kit, lo: [u32; 2]) {
        let w = &mut self.walker;
        debug_assert_eq!(w.p, 0, "the tail's walker follows A's ranking");
        self.work += w.ranks.len() as u64;
        // Those B ranks from lo[1] up, marked by their index in `ranks` (the others
        // come first in `other`).
        let from = w.other.partition_point(|&o| ((o >> 32) as u32) < lo[1]);
        w.gone.clear();
        w.gone.resize(w.ranks.len(), true);
        for &o in &w.other[from..] {
            w.gone[o as u32 as usize] = false;
        }
        // Of those, the ones A ranks from lo[0] up (a prefix of `ranks`) that are left,
        // with their new indices.
        let renumber = &mut self.renumber;
        renumber.clear();
        renumber.resize(w.ranks.len(), u32::MAX);
        let mut kept = 0;
        for (i, new) in renumber.iter_mut().enumerate() {
            let r = w.ranks[i];
            if r < lo[0] {
                break;
            }
            if !w.gone[i] && kit.tops.is_left(0, r) {
                *new = kept as u32;
                w.ranks[kept] = r;
                kept += 1;
            }
        }
        w.ranks.truncate(kept);
        let mut next = 0;
        for j in from..w.other.len() {
            let o = w.other[j];
            let i = renumber[o as u32 as usize];
            if i != u32::MAX {
                w.other[next] = (o >> 32) << 32 | i as u64;
                next += 1;
            }
        }
        w.other.truncate(next);
        w.ready();
    }

    /// The crossing of turn `t`, whose player is `player`, noting a meeting.
    fn step(&mut self, player: u8, t: usize) {
        let w = &mut self.walker;
        let (own, other) = w.mins();
        if own == other {
            // Both least favourites are one morsel: the corner after is bounded just
            // above it.
            let lo = w.least().map(|r| r + 1);
            self.meetings.push(Anchor { turn: t, lo });
        }
        // The player of the turn eats the other's least favourite.
        let i = w.cross(1 - player as usize);
        self.crossed.push(i as u32);
    }

    /// Ends a walk: its bite, and the anchor moved up to the corner after a meeting
    /// (the same scan, walked shorter next time).
    fn finish(&mut self, kit: &Kit) -> usize {
        let w = &self.walker;
        self.bite = w.gone.iter().rposition(|&g| !g).expect("one morsel left") as u32;
        self.current = true;
        self.live = true;
        if self.meetings.len() > MEETINGS_AHEAD {
            let cut = self.meetings.len() - MEETINGS_AHEAD;
            let Anchor { turn, lo } = self.meetings[cut - 1];
            self.anchor = Anchor { turn: turn - 1, lo };
            self.meetings.drain(..cut);
        }
        self.morsel(kit, self.bite)
    }
}

/// What a [`Tail`] reads: the morsels left and the rankings, with the players of all turns.
pub(crate) struct Kit<'a> {
    pub(crate) tops: &'a mut Tops,
    pub(crate) rank: &'a [Vec<u32>; 2],
    pub(crate) by_rank: &'a [Vec<u32>; 2],
    pub(crate) turns: &'a [u8],
}

/// Sorts `keys` by their high halves, distinct ranks below `n`: short slices by
/// comparison, long ones whose ranks span at most four times their length by one slot a
/// rank, the others by a radix sort of 11 bits a pass, least significant first (half the
/// coupling's time went to sorting before).
fn sort_by_rank(keys: &mut Vec<u64>, spare: &mut Vec<u64>, n: usize) {
    const DIGIT: u32 = 11;
    if keys.len() < 512 {
        keys.sort_unstable();
        return;
    }
    // Rankings that nearly agree put a corner's other ranks in a range little wider than
    // the corner: one slot a rank there, filled and read back in order.
    let (lo, hi) = keys.iter().fold((u64::MAX, 0), |(lo, hi), &k| {
        (lo.min(k >> 32), hi.max(k >> 32))
    });
    let span = (hi - lo + 1) as usize;
    if span <= 4 * keys.len() {
        spare.clear();
        spare.resize(span, u64::MAX);
        for &k in keys.iter() {
            spare[((k >> 32) - lo) as usize] = k;
        }
        keys.clear();
        keys.extend(spare.iter().copied().filter(|&k| k != u64::MAX));
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
    use crate::games::dinner::theory::crossout::{crossout_on, rank_tables};
    use crate::games::dinner::{Dinner, TurnOrder};

    /// A dinner of up to `max` morsels ranked alike, nearly alike or independently (by
    /// `trial`), and its default order or a random one.
    fn test_dinner(rng: &mut crate::rng::Rng, trial: usize, max: u64) -> (Dinner, TurnOrder) {
        let n = 1 + rng.below(max) as usize;
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
        let order = if trial.is_multiple_of(3) {
            TurnOrder::default_for(&d)
        } else {
            TurnOrder::parse(&spec, &d).unwrap()
        };
        (d, order)
    }

    /// Crossout's first bite by coupling, with any reach, against the whole scan: on
    /// dinners ranked alike, nearly alike and independently, with some morsels eaten
    /// (skipped by [`Tops`]), under alternation and random orders.
    #[test]
    fn coupling_agrees_with_the_whole_scan() {
        let mut rng = crate::rng::Rng::for_trial(30, 5);
        let mut agreed = 0;
        for trial in 0..600 {
            let (d, order) = test_dinner(&mut rng, trial, 200);
            let n = d.len();
            let (rank, by_rank) = rank_tables(&d);
            // The first `eaten` turns eat morsels at random.
            let eaten = rng.below(n as u64) as usize;
            let mut tops = Tops::new(&rank, &by_rank);
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
            let mut tail = Tail::default();
            let mut kit = Kit {
                tops: &mut tops,
                rank: &rank,
                by_rank: &by_rank,
                turns,
            };
            if let (Some((m, _)), _) = crossout_by_coupling(&mut tail, &mut kit, 0, from, reach) {
                assert_eq!(m, planned[0] as usize, "trial {trial}");
                assert_eq!(tail.bite(&mut kit, 0), m, "trial {trial}, the tail");
                agreed += 1;
            }
            // Reaching the whole dinner always answers.
            let (m, _) = crossout_by_coupling(&mut tail, &mut kit, 0, 1, n);
            assert_eq!(
                m.map(|(m, _)| m),
                Some(planned[0] as usize),
                "trial {trial}, whole"
            );
        }
        assert!(agreed > 300, "coupling answered {agreed} of 600");
    }

    /// The tail along whole plays against the whole scan on every turn: dinners ranked
    /// alike, nearly alike and independently, any turn order, bites of crossout, of
    /// either player's least favourite or favourite, or at random (the coupling meets
    /// anew whenever the tail is lost).
    #[test]
    fn the_tail_follows_any_play() {
        let mut rng = crate::rng::Rng::for_trial(30, 7);
        let (mut answered, mut kept) = (0, 0);
        for trial in 0..300 {
            let (d, order) = test_dinner(&mut rng, trial, 150);
            let n = d.len();
            let turns = order.turns();
            let (rank, by_rank) = rank_tables(&d);
            let mut tops = Tops::new(&rank, &by_rank);
            let mut tail = Tail::default();
            let mut left: Vec<u32> = (0..n as u32).collect();
            let style = rng.below(4);
            for now in 0..n {
                let planned = crossout_on(&d, &turns[now..], left.iter().copied());
                let mut kit = Kit {
                    tops: &mut tops,
                    rank: &rank,
                    by_rank: &by_rank,
                    turns,
                };
                if tail.live {
                    kept += 1;
                } else {
                    let from = 1 + rng.below(8) as usize;
                    let (m, _) = crossout_by_coupling(&mut tail, &mut kit, now, from, n);
                    assert_eq!(m.map(|(m, _)| m), Some(planned[0] as usize));
                }
                // Asked on some turns only, so that bites also come to a stale walk.
                if rng.below(3) > 0 {
                    let m = tail.bite(&mut kit, now);
                    assert_eq!(m, planned[0] as usize, "trial {trial}, turn {now}");
                    answered += 1;
                }
                let mover = turns[now] as usize;
                let x = match (style + rng.below(2)) % 4 {
                    0 => planned[0],
                    1 => *left
                        .iter()
                        .min_by_key(|&&m| rank[mover][m as usize])
                        .unwrap(),
                    2 => *left
                        .iter()
                        .max_by_key(|&&m| rank[mover][m as usize])
                        .unwrap(),
                    _ => left[rng.below(left.len() as u64) as usize],
                } as usize;
                if tail.live {
                    tail.follow(&mut kit, now, x);
                }
                tops.remove([rank[0][x], rank[1][x]]);
                left.retain(|&m| m as usize != x);
            }
        }
        assert!(
            answered > 5000 && kept > 3000,
            "{answered} answered, {kept} kept"
        );
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
            (2000, 5000),
            (4000, 16_000),
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
