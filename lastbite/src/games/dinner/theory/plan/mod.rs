//! The crossout plan kept along a play that leaves it: `dinner play` with
//! crossout against any other strategy in about `O(n log n)` on random dinners instead of
//! recomputing crossout (paper: "The crossout strategy", Theorem 1) on every turn.
//!
//! The module owns [`Plan`], the two planned sets and the chain that repairs them after
//! a bite off the plan, and the rank sets they are stored in. The plan it keeps is by
//! definition crossout's ([`super::crossout`](mod@crate::games::dinner::theory::crossout)'s backward scan of the
//! dinner left); the cross-checks play every profile against the recomputation.

mod ranked;
mod records;

use ranked::RankedSet;
use records::Records;

use crate::games::dinner::model::{Dinner, TurnOrder};
use crate::games::dinner::theory::coupling::{crossout_by_coupling, Kit, Tail, Tops};
use crate::games::dinner::theory::crossout::rank_tables;

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
/// is a suffix minimum of `S_Q` in `P`'s order ("a record"). The chain ends at the turn
/// being played.
///
/// **Finding the crossing.** A record crosses when its slack is spent ([`Records`]).
/// The records and their slack are kept in a lazy min tree, and each crossing is one
/// query (under turn orders other than alternation, one query a record whose bound of
/// its slack was spent but not the slack). After a fresh scan, until making the records
/// afresh pays, the search walks the records after the hole instead, one order-statistic
/// query each, skipping the gaps whose morsels of `P` rank below the record.
///
/// **Cost.** On random dinners a whole play makes under `n` crossings and about `3n`
/// records, each `O(log n)` (docs/performance-notes.md); walked, the records come to about
/// `n^1.5`. When both players rank the morsels alike, a player who eats its
/// least favourite morsel makes every planned morsel change sides on every bite, and no
/// stored plan escapes `n^2` changes there: a chain that outgrows a budget of the dinner
/// left gives way to a fresh `O(n)` scan ([`Plan::apply`]).
///
/// **Bites put off.** Those are the dinners whose next bite the end of the crossout
/// sequence decides alone ([`super::coupling`]). So [`Plan::eat`] only notes a bite (and
/// moves the scan kept since the coupling last met, [`Tail`]), and [`Plan::next`] asks
/// that scan or the coupling first, within a reach that follows what the plan cost when
/// it was last needed; only when the coupling does not answer are the bites put off
/// applied, one chain each, or, past a budget of the dinner left, the plan scanned
/// afresh once for all of them.
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
    /// `S_p`, kept by the other player's rank, with `p`'s own ranks for the records.
    sets: [RankedSet; 2],
    /// The side each morsel is planned for ([`EATEN`]: eaten).
    side: Vec<u8>,
    /// The records of each set with their slack, or a lower bound of it (the search
    /// without a walk).
    kinetic: [Records; 2],
    /// `[least, largest]` step of `after[q]` from one index to the next.
    steps: [[i64; 2]; 2],
    /// Whether the records are current: a rescan leaves them stale (chains then walk)
    /// until the walks since have cost more than making them afresh.
    fresh: bool,
    /// [`Plan::walked`] when the records went stale.
    stale_since: u64,
    /// The morsels left, bites put off included, by each ranking from the top.
    tops: Tops,
    /// The bites not yet applied to the sets, in turn order.
    pending: Vec<u32>,
    /// The scan kept from where the coupling last met, while bites are put off.
    tail: Tail,
    /// Which route answers while bites are put off.
    routes: Routes,
    /// Crossings, records walked, plans scanned afresh and morsels scanned so far (the
    /// work's account).
    pub(crate) crossings: u64,
    pub(crate) walked: u64,
    pub(crate) rescans: u64,
    scanned: u64,
}

/// The costs last seen of the two routes to [`Plan::next`] while bites are put off, in
/// morsels of the coupling (about 20 ns each), and where the coupling starts.
struct Routes {
    /// The plan's cost on a query (its bites applied as chains).
    plan: u64,
    /// The coupling's cost on the last query that tried it (a miss adds the plan's).
    coupling: u64,
    /// Queries so far with bites put off.
    asked: u64,
    /// The corner the coupling tries first.
    from: usize,
    /// The queries the tail answered since the coupling last met.
    served: u64,
}

/// The least reach of the coupling: a few crossings cost less than one chain.
const MIN_REACH: usize = 4;

/// While the plan costs less than the coupling, every `PROBE`-th query still tries the
/// coupling, which may have become the cheaper route.
const PROBE: u64 = 64;

impl Plan {
    /// The crossout plan of the whole dinner under `order` (two players).
    pub(crate) fn new(dinner: &Dinner, order: &TurnOrder) -> Plan {
        let n = dinner.len();
        let turns = order.turns().to_vec();
        let (rank, by_rank) = rank_tables(dinner);
        let mut times = [Vec::new(), Vec::new()];
        let mut after = [Vec::new(), Vec::new()];
        for (t, &p) in turns.iter().enumerate().rev() {
            let p = p as usize;
            let later = times[1 - p].len() as u32;
            times[p].push(t as u32);
            after[p].push(later);
        }
        let left = [times[0].len(), times[1].len()];
        // The least and the largest step of `after[q]` from one index to the next: a
        // member added to or removed from `S_q` moves q's later records by one index,
        // which changes their slack by one step. Under alternation every step is one
        // and the slack is kept exactly; otherwise as a lower bound (see [`Records`]).
        let steps = [0, 1].map(|q: usize| {
            let step = after[q].windows(2).map(|w| (w[1] - w[0]) as i64);
            [step.clone().min().unwrap_or(0), step.max().unwrap_or(0)]
        });
        // S_p sits at the other player's ranks, valued by p's own.
        let sets = [0, 1].map(|p: usize| {
            RankedSet::new(
                by_rank[1 - p]
                    .iter()
                    .map(|&m| rank[p][m as usize])
                    .collect(),
            )
        });
        let tops = Tops::new(&rank, &by_rank);
        let mut plan = Plan {
            turns,
            start: 0,
            rank,
            by_rank,
            times,
            after,
            left,
            sets,
            side: vec![UNPLANNED; n],
            crossings: 0,
            walked: 0,
            kinetic: [Records::new(n), Records::new(n)],
            steps,
            fresh: false,
            stale_since: 0,
            rescans: 0,
            tops,
            pending: Vec::new(),
            tail: Tail::default(),
            scanned: 0,
            routes: Routes {
                plan: 64,
                coupling: 0,
                asked: 0,
                from: 1,
                served: 0,
            },
        };
        plan.scan_afresh();
        plan.rebuild_records();
        plan
    }

    /// What crossout eats on the turn to be played: by coupling when it answers within
    /// the reach, else the mover's planned morsel that the other player likes best.
    pub(crate) fn next(&mut self) -> usize {
        if !self.pending.is_empty() {
            if let Some(m) = self.by_coupling() {
                return m;
            }
            let (before, bites) = (self.cost(), self.pending.len() as u64);
            self.tail.live = false;
            self.catch_up();
            // A query's worth: the bites of a round of turns. After a run put off, the
            // rescan that catches up is spread thin, and the next query measures the
            // chains again.
            self.routes.plan = (self.cost() - before) * 2 / bites;
        }
        let p = self.turns[self.start] as usize;
        let r = self.sets[p].select(self.left[p] - 1);
        self.by_rank[1 - p][r as usize] as usize
    }

    /// Crossout's next bite by coupling, when the coupling last cost less than the plan
    /// (or on every [`PROBE`]-th query) and answers within a reach of what the plan
    /// costs (so a miss costs at most about twice the plan): from the scan kept since the
    /// last meeting ([`Tail`]) while it lasts, else from a coupling that meets afresh.
    fn by_coupling(&mut self) -> Option<usize> {
        let now = self.start + self.pending.len();
        let (mut kit, tail, routes) = self.coupling_parts();
        routes.asked += 1;
        if routes.coupling > routes.plan && !routes.asked.is_multiple_of(PROBE) {
            tail.live = false;
            return None;
        }
        if tail.live {
            let m = tail.bite(&mut kit, now);
            routes.served += 1;
            routes.coupling = (3 * routes.coupling + tail.work) / 4;
            tail.work = 0;
            return Some(m);
        }
        // A try reaching k costs about 4k morsels (two corners, doubling).
        let reach = (routes.plan / 4).max(MIN_REACH as u64) as usize;
        let (found, tried) = crossout_by_coupling(tail, &mut kit, now, routes.from, reach);
        tail.work = 0;
        let Some((m, k)) = found else {
            routes.coupling = tried + routes.plan;
            routes.from = 1;
            return None;
        };
        routes.coupling = (3 * routes.coupling + tried) / 4;
        // A tail lost within a query or two wants the next coupling to start as far back
        // (more meetings to spend); one that lasted, half as far (shorter walks).
        routes.from = if routes.served < 2 { k } else { (k / 2).max(1) };
        routes.served = 0;
        Some(m)
    }

    /// The player to move eats morsel `x` (one that is left), put off until the plan is
    /// needed ([`Plan::catch_up`]); the scan kept by the coupling follows at once.
    pub(crate) fn eat(&mut self, x: usize) {
        let now = self.start + self.pending.len();
        let (mut kit, tail, _) = self.coupling_parts();
        if tail.live {
            tail.follow(&mut kit, now, x);
        }
        self.tops.remove([self.rank[0][x], self.rank[1][x]]);
        self.pending.push(x as u32);
    }

    /// What the coupling and the tail read and keep, borrowed apart.
    fn coupling_parts(&mut self) -> (Kit<'_>, &mut Tail, &mut Routes) {
        let kit = Kit {
            tops: &mut self.tops,
            rank: &self.rank,
            by_rank: &self.by_rank,
            turns: &self.turns,
        };
        (kit, &mut self.tail, &mut self.routes)
    }

    /// Applies the bites put off, in turn order: a chain each while their work stays
    /// within the dinner left, then one fresh scan for the rest.
    fn catch_up(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        let budget = self.work() + (self.turns.len() - self.start) as u64;
        for (i, &x) in pending.iter().enumerate() {
            if self.work() > budget {
                for &y in &pending[i..] {
                    self.forget(y as usize);
                }
                self.rescan();
                break;
            }
            self.apply(x as usize);
        }
        // The buffer back, emptied, for the bites to come.
        self.pending = pending;
        self.pending.clear();
    }

    /// Morsel `x` eaten on the turn to be played, the sets left to a rescan.
    fn forget(&mut self, x: usize) {
        self.side[x] = EATEN;
        self.left[self.turns[self.start] as usize] -= 1;
        self.start += 1;
    }

    /// The player to move eats morsel `x` (one that is left): the plan of the dinner left.
    fn apply(&mut self, x: usize) {
        let t = self.start as u32;
        let mover = self.turns[self.start] as usize;
        // A chain may cross up to once a turn left (both players ranking the morsels
        // alike, say): past a budget of the order of the dinner left, scanning that
        // dinner afresh is cheaper, and gives the same plan.
        let left = (self.turns.len() - self.start) as u64;
        let budget = self.work() + 64 + left / 8;
        if !self.fresh && self.walked - self.stale_since > left {
            self.rebuild_records();
        }
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
                self.forget(x);
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
            debug_assert!(
                self.rank[q][z] > self.rank[q][hole],
                "z enters S_p above the hole"
            );
            self.remove(p, hole);
            self.insert(p, z);
            self.side[z] = p as u8;
            (p, h, hole) = (q, j, z);
        }
        self.remove(p, hole);
        debug_assert_eq!(p, mover);
        self.side[x] = EATEN;
        self.left[mover] -= 1;
        self.start += 1;
    }

    /// Plans every morsel marked [`UNPLANNED`] by the backward scan of Theorem 1 over the
    /// turns left, in `O(n)` (the rankings are kept), and fills both sets.
    fn scan_afresh(&mut self) {
        let mut next = [0usize; 2];
        for t in (self.start..self.turns.len()).rev() {
            // On turn t its player eats the other player's least favourite left.
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

    /// The work of the chains so far, a crossing counted as four records walked.
    fn chain_work(&self) -> u64 {
        self.walked + 4 * self.crossings
    }

    /// The work of the chains and scans so far, a morsel scanned afresh counted as a
    /// record walked (the budgets, which prefer a fresh scan to a long chain).
    fn work(&self) -> u64 {
        self.chain_work() + self.scanned
    }

    /// The time of the chains and scans so far, in morsels of the coupling (measured at
    /// 10^5 and 10^6 morsels: a record walked about 8, a morsel scanned afresh a quarter).
    fn cost(&self) -> u64 {
        8 * self.chain_work() + self.scanned / 4
    }

    /// The plan of the dinner left computed afresh after a chain outgrew its budget.
    fn rescan(&mut self) {
        self.rescans += 1;
        self.scanned += (self.turns.len() - self.start) as u64;
        for side in &mut self.side {
            if *side != EATEN {
                *side = UNPLANNED;
            }
        }
        self.scan_afresh();
        // Chains that cross this often are cheaper walked than with records kept.
        self.fresh = false;
        self.stale_since = self.walked;
    }

    /// Adds morsel `m` to `S_q`, keeping the records of both sets.
    fn insert(&mut self, q: usize, m: usize) {
        let (at, v) = (self.rank[1 - q][m], self.rank[q][m]);
        self.sets[q].insert(at);
        // The other set's records above `at` count one more of q's morsels below them;
        // q's own after `at` stand one index further back. A member enters `S_q` only
        // where a chain crosses, just after the hole left `S_q` at a lower place (the
        // crossing morsel's turn comes before the hole's, [`Plan::eat`]): for the
        // records after both the two cancel, so this takes back exactly what the
        // removal added, and the records between keep the bound it left them.
        if !self.fresh {
            return;
        }
        let kinetic = &mut self.kinetic;
        kinetic[1 - q].add_above(at, 1);
        kinetic[q]
            .slack
            .add_from(at as usize + 1, -self.steps[q][0]);
        let next = self.sets[q].min_from(at + 1);
        if next.is_none_or(|next| v < next) {
            // A record: the records before it that rank above it (for q) are no longer.
            let gone: Vec<u32> = kinetic[q]
                .by_value
                .range(v + 1..next.unwrap_or(u32::MAX))
                .map(|(&w, _)| w)
                .collect();
            for w in gone {
                let pos = kinetic[q].by_value.remove(&w).expect("a record");
                kinetic[q].slack.unset(pos as usize);
            }
            self.add_record(q, v, at);
        }
    }

    /// Removes morsel `m` from `S_q`, keeping the records of both sets.
    fn remove(&mut self, q: usize, m: usize) {
        let (at, v) = (self.rank[1 - q][m], self.rank[q][m]);
        self.sets[q].remove(at);
        if !self.fresh {
            return;
        }
        let kinetic = &mut self.kinetic;
        kinetic[1 - q].add_above(at, -1);
        // q's records after `at` stand one index nearer the end: their slack grows by
        // one step of `after[q]`, at least the least step (exactly, under alternation).
        kinetic[q].slack.add_from(at as usize + 1, self.steps[q][0]);
        if kinetic[q].by_value.remove(&v).is_none() {
            return;
        }
        kinetic[q].slack.unset(at as usize);
        // The members between the record before it and the one after it that are now
        // least from their place on.
        let mut from = kinetic[q]
            .by_value
            .range(..v)
            .next_back()
            .map_or(0, |(_, &pos)| pos + 1);
        while let Some(w) = self.sets[q].min_from(from) {
            let records = &self.kinetic[q];
            if records.by_value.contains_key(&w) {
                break;
            }
            let pos = self.sets[q].position_of(w);
            self.add_record(q, w, pos);
            from = pos + 1;
        }
    }

    /// Records `S_q`'s member of value `v` at `at` as a record.
    fn add_record(&mut self, q: usize, v: u32, at: u32) {
        let slack = self.slack(q, v, at);
        let records = &mut self.kinetic[q];
        records.by_value.insert(v, at);
        records.slack.set(at as usize, slack);
    }

    /// The slack of `S_q`'s member of value `v` at `at`: how many of the other player's
    /// planned morsels q ranks below it, less the number of the other player's turns
    /// after its own (zero or less: it crosses).
    fn slack(&self, q: usize, v: u32, at: u32) -> i64 {
        let below = self.sets[1 - q].count_below(v) as i64;
        let j = self.sets[q].count_below(at) as usize;
        below - self.after[q][j] as i64
    }

    /// The records of both sets afresh, in bulk.
    fn rebuild_records(&mut self) {
        let mut kinetic =
            std::mem::replace(&mut self.kinetic, [Records::empty(), Records::empty()]);
        for (q, records) in kinetic.iter_mut().enumerate() {
            let mut found = Vec::new();
            let mut from = 0;
            while let Some(v) = self.sets[q].min_from(from) {
                let at = self.sets[q].position_of(v);
                found.push((v, at, self.slack(q, v, at)));
                from = at + 1;
            }
            records.by_value = found.iter().map(|&(v, at, _)| (v, at)).collect();
            records
                .slack
                .fill(found.iter().map(|&(_, at, slack)| (at as usize, slack)));
        }
        self.kinetic = kinetic;
        self.fresh = true;
    }

    /// The first crossing of a hole at `p`'s turn `h` (from the end): the morsel of the
    /// other player `q` that moves into `S_p`, with its index among `q`'s turns.
    fn crossing(&mut self, p: usize, h: usize) -> Option<(usize, usize)> {
        if !self.fresh {
            return self.crossing_by_walk(p, h);
        }
        let found = self.crossing_by_records(p, h);
        // A wrong crossing would not show in the plays: a chain gone astray outgrows its
        // budget and the plan is scanned afresh. So the tests check each one.
        #[cfg(test)]
        {
            let walked = self.walked;
            let by_walk = self.crossing_by_walk(p, h);
            self.walked = walked;
            assert_eq!(found, by_walk, "the crossing of a hole at {p}:{h}");
        }
        found
    }

    /// [`Plan::crossing`] by the records kept: the first whose slack is spent.
    fn crossing_by_records(&mut self, p: usize, h: usize) -> Option<(usize, usize)> {
        let q = 1 - p;
        let first = self.after[p][h] as usize;
        if first >= self.left[q] {
            return None;
        }
        let from = self.sets[q].select(first) as usize;
        let exact = self.steps[q][0] == self.steps[q][1];
        loop {
            self.walked += 1;
            let at = self.kinetic[q].slack.first_spent(from)? as u32;
            let v = self.sets[q].value_at(at);
            if !exact {
                // A lower bound spent: the slack itself, kept if not.
                let slack = self.slack(q, v, at);
                if slack > 0 {
                    self.kinetic[q].slack.set(at as usize, slack);
                    continue;
                }
            }
            let j = self.sets[q].count_below(at) as usize;
            return Some((self.by_rank[q][v as usize] as usize, j));
        }
    }

    /// [`Plan::crossing`] by walking the records from the hole, one order-statistic
    /// query each, skipping the gaps whose morsels of `p` rank below the record.
    fn crossing_by_walk(&mut self, p: usize, h: usize) -> Option<(usize, usize)> {
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
            self.walked += 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dinner::theory::crossout::crossout_on;

    /// Both routes of [`Plan::eat`], the chain and the fresh scan, against crossout
    /// recomputed on every turn: on a dinner both players rank alike, where a player who
    /// eats its least favourite morsel moves every planned morsel across (the scan takes
    /// over), and on one they rank independently (the chains stay short); under
    /// alternation (slack kept exactly) and in blocks of 200 turns (kept as a bound).
    #[test]
    fn the_plan_follows_any_play_by_chain_and_by_rescan() {
        for (alike, blocks) in [(true, false), (false, false), (true, true), (false, true)] {
            let n = 700u32;
            let mut rng = crate::rng::Rng::for_trial(7, alike as u64);
            let utilities: Vec<i64> = (0..n)
                .flat_map(|_| {
                    let a = rng.below(1 << 30) as i64;
                    [a, if alike { a } else { rng.below(1 << 30) as i64 }]
                })
                .collect();
            let d = Dinner::from_integers(2, utilities).unwrap();
            let order = if blocks {
                TurnOrder::parse(&format!("{}{}...", "A".repeat(200), "B".repeat(200)), &d).unwrap()
            } else {
                TurnOrder::default_for(&d)
            };
            let mut plan = Plan::new(&d, &order);
            let mut left: Vec<u32> = (0..n).collect();
            for t in 0..n as usize {
                let planned = crossout_on(&d, &order.turns()[t..], left.iter().copied());
                // The bites applied at once: the plan answers, not the coupling.
                plan.catch_up();
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
            if !blocks {
                assert_eq!(plan.rescans > 0, alike, "rescans {}", plan.rescans);
            }
        }
    }

    /// The route the coupling opens: on a dinner both players rank alike, against a
    /// masochist, crossout's every bite comes from the coupling, the plan is never
    /// needed again, and no chain or fresh scan runs (applied bite by bite, each would
    /// cross about once a turn left).
    #[test]
    fn alike_rankings_need_no_plan() {
        let n = 3000u32;
        let mut rng = crate::rng::Rng::for_trial(30, 9);
        let utilities: Vec<i64> = (0..n)
            .flat_map(|_| {
                let a = rng.below(1 << 30) as i64;
                [a, a]
            })
            .collect();
        let d = Dinner::from_integers(2, utilities).unwrap();
        let order = TurnOrder::parse("thue-morse", &d).unwrap();
        let mut plan = Plan::new(&d, &order);
        let (rank, _) = rank_tables(&d);
        let mut left: Vec<u32> = (0..n).collect();
        for t in 0..n as usize {
            let x = if order.player(t) == 0 {
                plan.next() as u32
            } else {
                // Its least favourite.
                *left.iter().min_by_key(|&&m| rank[1][m as usize]).unwrap()
            };
            plan.eat(x as usize);
            left.retain(|&m| m != x);
        }
        assert_eq!(plan.crossings + plan.rescans, 0, "the plan was needed");
    }

    impl Plan {
        /// The records and their slack kept, against both made afresh.
        fn check_records(&self) {
            if !self.fresh {
                return;
            }
            for (q, records) in self.kinetic.iter().enumerate() {
                let mut from = 0;
                let mut made = Vec::new();
                while let Some(v) = self.sets[q].min_from(from) {
                    let at = self.sets[q].position_of(v);
                    made.push((v, at));
                    from = at + 1;
                }
                let kept: Vec<(u32, u32)> =
                    records.by_value.iter().map(|(&v, &at)| (v, at)).collect();
                assert_eq!(kept, made, "records of set {q}");
                for (v, at) in made {
                    let b = at as usize / 64;
                    let stored = records.slack.value[at as usize] + records.slack.above(b);
                    let slack = self.slack(q, v, at);
                    if self.steps[q][0] == self.steps[q][1] {
                        assert_eq!(stored, slack, "slack of {v} in set {q}");
                    } else {
                        assert!(
                            stored <= slack,
                            "slack of {v} in set {q}: {stored} > {slack}"
                        );
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Any play, not only a strategy's: the other player eats a morsel drawn at
        /// random each turn. Crossout's move matches the recomputation every turn, and
        /// the records' slack matches it made afresh (under alternation; a lower bound
        /// of it otherwise).
        #[test]
        fn the_plan_follows_random_bites(
            n in 1u32..120,
            range in proptest::prelude::prop_oneof![proptest::prelude::Just(4u64), proptest::prelude::Just(1u64 << 30)],
            seed in proptest::prelude::any::<u64>(),
            kind in 0u8..3,
            alike in proptest::prelude::any::<bool>(),
            lazy in proptest::prelude::any::<bool>(),
        ) {
            let mut rng = crate::rng::Rng::for_trial(seed, 1);
            // Independent rankings, or nearly alike (where the coupling answers).
            let utilities: Vec<i64> = (0..n)
                .flat_map(|_| {
                    let u = rng.below(range) as i64;
                    [u, if alike { 4 * u + rng.below(8) as i64 } else { rng.below(range) as i64 }]
                })
                .collect();
            let d = Dinner::from_integers(2, utilities).unwrap();
            // Alternation (slack kept exactly), random letters, or runs of random
            // lengths up to 20 (slack kept as a bound whose steps differ widely).
            let order = match kind {
                0 => TurnOrder::default_for(&d),
                1 => {
                    let spec: String = (0..n).map(|_| if rng.below(2) == 0 { 'A' } else { 'B' }).collect();
                    TurnOrder::parse(&spec, &d).unwrap()
                }
                _ => {
                    let mut spec = String::new();
                    while spec.len() < n as usize {
                        let run = 1 + rng.below(20) as usize;
                        let letter = if spec.ends_with('A') { "B" } else { "A" };
                        spec.push_str(&letter.repeat(run));
                    }
                    spec.truncate(n as usize);
                    TurnOrder::parse(&spec, &d).unwrap()
                }
            };
            let mut plan = Plan::new(&d, &order);
            let mut left: Vec<u32> = (0..n).collect();
            for t in 0..n as usize {
                plan.check_records();
                let planned = crossout_on(&d, &order.turns()[t..], left.iter().copied());
                // Put off (the coupling first, the bites applied when it does not
                // answer), or applied every turn and the whole plan checked, not only
                // its next bite: each morsel on the side of the player who eats it in
                // the recomputation (also on a quarter of the turns put off).
                let whole = !lazy || rng.below(4) == 0;
                if whole {
                    plan.catch_up();
                }
                proptest::prop_assert_eq!(plan.next(), planned[0] as usize, "turn {}", t);
                if whole {
                    for (i, &m) in planned.iter().enumerate() {
                        let eater = order.player(t + i) as u8;
                        proptest::prop_assert_eq!(plan.side[m as usize], eater, "morsel {} at turn {}", m, t);
                    }
                }
                let x = if order.player(t) == 0 {
                    planned[0]
                } else {
                    left[rng.below(left.len() as u64) as usize]
                };
                plan.eat(x as usize);
                left.retain(|&m| m != x);
            }
        }
    }
}
