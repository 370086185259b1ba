//! Round robin of three agents with strict rankings: every profile of one run, the
//! rankings of C solved together for fixed rankings of A and B.
//!
//! With 3 to 8 items C picks at most twice, and her last pick is her favourite item left:
//! she takes nothing after it, so under strictly decreasing scores every equilibrium has
//! her take that one item. Take the subgame right after C's first pick (the `m - 3` items
//! left, A to move). In it C's only choice is that last pick, which depends on nothing of
//! her ranking but its order on the items of the subgame; A's and B's choices depend on
//! their own (fixed) scores. So the subgame's equilibrium allocations are a function of
//! the set `S` of its items and of C's order on `S`, one of `|S|!` patterns: for fixed A
//! and B they are computed once ([`Shared::prepare`]: `C(m, m-3) (m-3)!` small subgames,
//! 6,720 at 8 items) and shared by all `m!` rankings of C. Each ranking of C then needs the
//! three levels above only ([`Shared::solve`]: the `C(m, 2) + m + 1` states of C's first
//! pick, B's and A's, 37 at 8 items, against the `2^m` of the plain induction).
//!
//! The rule at those levels is [`Spe`]'s: an allocation after move `x` is an equilibrium
//! outcome when the mover gets from it at least the least it can be held to after every
//! other move. Each state's allocations are sorted and distinct, so the root's list is
//! [`Spe`]'s to the element and a search's verdicts, first witnesses included, are the
//! plain enumeration's (checked in the tests, every profile to 6 items and samples at 7
//! and 8).

use super::model::{
    first_envy_beyond_one, items, Rankings, Scores, Spe, StrategicError, Verdict, Witness,
    MAX_ITEMS,
};
use crate::engine::Progress;
use crate::games::dinner::analysis::variants::next_permutation;

/// The most items the shared induction takes (C picks at most twice).
pub(super) const SHARED_MAX: usize = 8;

/// Every equilibrium allocation of round robin (three agents, 3 to [`SHARED_MAX`]
/// items) for every ranking of C, A's and B's scores fixed by [`Shared::prepare`].
#[derive(Debug)]
pub(super) struct Shared {
    m: usize,
    turns: Vec<u8>,
    /// The subgames after C's first pick: their item sets, each set's items ascending.
    sets: Vec<[u8; MAX_ITEMS]>,
    /// A mask of `m - 3` items: its index in `sets`.
    slot: Vec<u16>,
    /// `(m - 3)!`.
    patterns: usize,
    /// Each (set, pattern)'s allocations in `table`, set-major.
    table_at: Vec<(u32, u32)>,
    table: Vec<[u16; 3]>,
    /// A's and B's scores, and the value of each mask to them.
    u: [[u64; MAX_ITEMS]; 2],
    sums: [Vec<u64>; 2],
    /// The states above the subgames, by level (C's first pick, B's, A's).
    levels: Vec<Vec<u16>>,
    /// Per ranking of C: each upper state's allocations.
    at: Vec<(u32, u32)>,
    arena: Vec<[u16; 3]>,
    /// One state's moves' allocations, each with the mover's worth.
    cand: Vec<(u64, [u16; 3])>,
    spe: Spe,
}

impl Shared {
    /// The solver of `m` items (3 to [`SHARED_MAX`]).
    pub(super) fn new(m: usize) -> Shared {
        assert!((3..=SHARED_MAX).contains(&m));
        let k = m - 3;
        let states = 1usize << m;
        let mut sets = Vec::new();
        let mut slot = vec![u16::MAX; states];
        let mut levels = vec![Vec::new(); 3];
        for (s, at) in slot.iter_mut().enumerate() {
            let size = s.count_ones() as usize;
            if size == k {
                let mut e = [0u8; MAX_ITEMS];
                for (i, x) in items(s).enumerate() {
                    e[i] = x as u8;
                }
                *at = sets.len() as u16;
                sets.push(e);
            } else if size > k {
                levels[size - k - 1].push(s as u16);
            }
        }
        Shared {
            m,
            turns: (0..m).map(|t| (t % 3) as u8).collect(),
            sets,
            slot,
            patterns: (1..=k).product(),
            table_at: Vec::new(),
            table: Vec::new(),
            u: [[0; MAX_ITEMS]; 2],
            sums: [vec![0; states], vec![0; states]],
            levels,
            at: vec![(0, 0); states],
            arena: Vec::new(),
            cand: Vec::new(),
            spe: Spe::default(),
        }
    }

    /// Fixes A's and B's scores `u`: solves every subgame after C's first pick under
    /// every order of C on its items.
    pub(super) fn prepare(
        &mut self,
        u: [[u64; MAX_ITEMS]; 2],
        limit: usize,
    ) -> Result<(), StrategicError> {
        let (m, k) = (self.m, self.m - 3);
        self.u = u;
        for (a, ua) in u.iter().enumerate() {
            let sums = &mut self.sums[a];
            for s in 1..sums.len() {
                sums[s] = sums[s & (s - 1)] + ua[s.trailing_zeros() as usize];
            }
        }
        self.table.clear();
        self.table_at.clear();
        let turns = &self.turns[m - k..];
        for e in &self.sets {
            let mut local = [[0u64; MAX_ITEMS]; 3];
            for (i, &x) in e[..k].iter().enumerate() {
                local[0][i] = u[0][x as usize];
                local[1][i] = u[1][x as usize];
            }
            for code in 0..self.patterns {
                // The pattern's ranks, from its Lehmer code (item i of the set is the
                // one ranked `rank[i]`-th by C among them).
                let rank = unrank(code, k);
                for i in 0..k {
                    local[2][i] = (k - rank[i] as usize) as u64;
                }
                let begin = self.table.len();
                for o in self.spe.solve(&local, turns, limit)? {
                    self.table.push(o.map(|b| expand(b, &e[..k])));
                }
                self.table_at
                    .push((begin as u32, (self.table.len() - begin) as u32));
            }
        }
        Ok(())
    }

    /// Each subgame's (set, pattern) when C ranks the items `rank` (0 best), for
    /// [`Shared::solve`] (the same for every scoring: one call serves both solvers).
    pub(super) fn codes(&self, rank: &[u8; MAX_ITEMS], out: &mut Vec<u32>) {
        let k = self.m - 3;
        out.clear();
        for (j, e) in self.sets.iter().enumerate() {
            let c = lehmer(e[..k].iter().map(|&x| rank[x as usize]), k);
            out.push((j * self.patterns + c) as u32);
        }
    }

    /// Every equilibrium allocation, sorted and distinct, when C scores the items
    /// `uc` and ranks them as `code` says ([`Shared::codes`] of her ranking).
    pub(super) fn solve(
        &mut self,
        uc: &[u64; MAX_ITEMS],
        code: &[u32],
        limit: usize,
    ) -> Result<&[[u16; 3]], StrategicError> {
        let (m, k) = (self.m, self.m - 3);
        let Shared {
            turns,
            slot,
            table_at,
            table,
            u,
            sums,
            levels,
            at,
            arena,
            cand,
            ..
        } = self;
        arena.clear();
        for (level, states) in levels.iter().enumerate() {
            let mover = turns[m - (k + 1 + level)] as usize;
            let mine = |x: usize| if mover == 2 { uc[x] } else { u[mover][x] };
            let worth = |o: &[u16; 3]| match mover {
                2 => items(o[2].into()).map(|x| uc[x]).sum::<u64>(),
                _ => sums[mover][o[mover] as usize],
            };
            for &s in states {
                let s = s as usize;
                // A child's allocations: the table's below, the arena's above.
                let child = |x: usize| {
                    let c = s & !(1 << x);
                    match level {
                        0 => (true, table_at[code[slot[c] as usize] as usize]),
                        _ => (false, at[c]),
                    }
                };
                // Each move's allocations with the mover's worth, and the floor.
                cand.clear();
                let mut floor = 0;
                for x in items(s) {
                    let (below, (from, len)) = child(x);
                    let list = match below {
                        true => &table[from as usize..(from + len) as usize],
                        false => &arena[from as usize..(from + len) as usize],
                    };
                    let mut least = u64::MAX;
                    for &o in list {
                        let w = mine(x) + worth(&o);
                        least = least.min(w);
                        let mut o = o;
                        o[mover] |= 1 << x;
                        cand.push((w, o));
                    }
                    floor = floor.max(if len == 0 { mine(x) } else { least });
                }
                let begin = arena.len();
                arena.extend(cand.iter().filter(|c| c.0 >= floor).map(|c| c.1));
                if arena.len() - begin > 1 {
                    arena[begin..].sort_unstable();
                }
                let mut kept = begin;
                for j in begin..arena.len() {
                    if kept == begin || arena[j] != arena[kept - 1] {
                        arena[kept] = arena[j];
                        kept += 1;
                    }
                }
                arena.truncate(kept);
                if arena.len() > limit {
                    return Err(StrategicError::TooManyOutcomes(limit));
                }
                at[s] = (begin as u32, (kept - begin) as u32);
            }
        }
        let (from, len) = at[(1 << m) - 1];
        Ok(&arena[from as usize..(from + len) as usize])
    }
}

/// The permutation of `0..k` with Lehmer code `code` (ranks of positions `0..k`).
fn unrank(mut code: usize, k: usize) -> [u8; MAX_ITEMS] {
    let mut left: Vec<u8> = (0..k as u8).collect();
    let mut out = [0u8; MAX_ITEMS];
    for (i, slot) in out.iter_mut().enumerate().take(k) {
        let f: usize = (1..k - i).product();
        *slot = left.remove(code / f);
        code %= f;
    }
    out
}

/// The Lehmer code of the order of `ranks` (distinct), `k` of them: the inverse of
/// [`unrank`] up to the ranks' relabelling to `0..k`.
fn lehmer(ranks: impl Iterator<Item = u8>, k: usize) -> usize {
    let mut r = [0u8; MAX_ITEMS];
    for (slot, x) in r.iter_mut().zip(ranks) {
        *slot = x;
    }
    let mut code = 0;
    for i in 0..k {
        let smaller = r[i + 1..k].iter().filter(|&&y| y < r[i]).count();
        code = code * (k - i) + smaller;
    }
    code
}

/// A mask over a set's positions as a mask over its items.
fn expand(local: u16, items_of: &[u8]) -> u16 {
    items(local.into()).fold(0, |acc, i| acc | 1 << items_of[i])
}

/// Strict run `run` of round robin for three agents with `m` items: the profiles whose
/// second ranking starts with the items of [`run_prefix`], under Borda and lexicographic
/// scores; through [`Shared`] from 3 to [`SHARED_MAX`] items, else one [`Spe`] induction
/// a profile (`shared` false: always, for the checks).
pub(super) fn strict_run(
    m: usize,
    run: usize,
    limit: usize,
    shared: bool,
    stop: &dyn Progress,
) -> Result<[Verdict; 2], StrategicError> {
    let turns: Vec<u8> = (0..m).map(|t| (t % 3) as u8).collect();
    let identity: Vec<u8> = (0..m as u8).collect();
    let mut out = [Verdict::default(), Verdict::default()];
    let mut p = Rankings::new(&[identity.clone(), identity.clone(), identity.clone()]);
    let mut spe = Spe::default();
    let mut solvers = match shared && (3..=SHARED_MAX).contains(&m) {
        true => Some([Shared::new(m), Shared::new(m)]),
        false => None,
    };
    let prefix = run_prefix(m, run);
    let fixed = prefix.len();
    let mut b = prefix.clone();
    b.extend(identity.iter().filter(|x| !prefix.contains(x)));
    loop {
        if stop.cancelled() {
            return Err(StrategicError::Stopped);
        }
        p.set(1, &b);
        // A's and B's scores under each scoring, fixed for every ranking of C.
        let ab = Scores::ALL.map(|scores| [p.utilities(0, scores), p.utilities(1, scores)]);
        if let Some(solvers) = &mut solvers {
            for (solver, u) in solvers.iter_mut().zip(ab) {
                solver.prepare(u, limit)?;
            }
        }
        let mut c = identity.clone();
        let mut code = Vec::new();
        loop {
            p.set(2, &c);
            if let Some(solvers) = &solvers {
                solvers[0].codes(&p.rank[2], &mut code);
            }
            for (k, scores) in Scores::ALL.into_iter().enumerate() {
                let u = [ab[k][0], ab[k][1], p.utilities(2, scores)];
                let all = match &mut solvers {
                    Some(solvers) => solvers[k].solve(&u[2], &code, limit)?,
                    None => spe.solve(&u, &turns, limit)?,
                };
                out[k].record(|| {
                    all.iter().find_map(|o| {
                        first_envy_beyond_one(&u, o).map(|e| Witness::new(&turns, &u, o, e))
                    })
                });
            }
            if !next_permutation(&mut c) {
                break;
            }
        }
        if !next_permutation(&mut b[fixed..]) {
            break;
        }
    }
    Ok(out)
}

/// How many strict runs `m` items make: the second rankings split by their first two
/// items (by the first alone below 2 items).
pub(super) fn strict_runs(m: usize) -> usize {
    match m {
        0 | 1 => m,
        _ => m * (m - 1),
    }
}

/// The first items of the second rankings of strict run `run`, in the enumeration's
/// (lexicographic) order.
pub(super) fn run_prefix(m: usize, run: usize) -> Vec<u8> {
    match m {
        0 | 1 => vec![run as u8; m],
        _ => {
            let first = run / (m - 1);
            let second = (0..m)
                .filter(|&x| x != first)
                .nth(run % (m - 1))
                .expect("run < m(m-1)");
            vec![first as u8, second as u8]
        }
    }
}
