//! A layer decided block by block: the morsels split at `t`
//! into the low ones `L` (below `t`) and the high ones `H`, and the states that share
//! `H` lie together in colexicographic order, `C(t, k)` of them for `k = |L|`, in the
//! order of their low parts' ranks. A state's rank is `r(L) + R(H, k)`, with `r(L)` the
//! low part's own colexicographic rank and `R(H, k) = sum_i C(h_i, k + i + 1)` over
//! `H`'s morsels `h_0 < h_1 < ...`; so
//! - eating a high morsel `h` leaves `L` as it was and the block of `H \ {h}`: the block's
//!   children through `h` are the `C(t, k)` values from `R(H \ {h}, k)` on, *in the
//!   block's own order*, read as one sequential stream and compared lane by lane;
//! - eating a low morsel leaves the block of `H` with `k - 1` low morsels, `C(t, k - 1)`
//!   values from `R(H, k - 1)` (a few KiB, in the first-level cache), at the low ranks a
//!   table of the `t` low morsels lists once ([`Low`]).
//!
//! The walk through the states one by one (`kernel::walk_states`) reads each child at its
//! own rank; here most children come in streams the processor prefetches and compares
//! without a branch. The moves are met in increasing morsel order (the low morsels,
//! then the high ones), so the rule first keeps the earliest of equals and last the
//! latest, as the engine does.
//!
//! What a value is, the mover's preference and what follows a decided block belong to
//! the layout ([`Cells`], in `kernel.rs`: one packed word under the index rule, or the mover's
//! column of payoffs with the others gathered through the moves chosen). The module owns
//! the block split ([`Low`], [`decide_blocks`]).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::Progress;

use crate::games::dinner::solver::subsets::{binomial, colex_rank};
use crate::par::prelude::*;

/// The split used for dinners of more morsels: blocks of up to `C(12, 6) = 924` states.
pub(super) const SPLIT: usize = 12;

/// The largest split: blocks of at most `C(14, 7) = 3,432` states (the scratch of
/// [`run_blocks`] and the low ranks' 24 bits hold them).
pub(super) const MAX_SPLIT: usize = 14;

/// States a parallel work item decides, at least (whole blocks).
const CHUNK: usize = 1 << 14;

/// The low morsels `0..t`: binomials and, for each count `k`, the children of every
/// `k`-subset in colexicographic order.
pub(super) struct Low {
    t: usize,
    /// `binom[p][q] = C(p, q)` for `p < 64`, `q <= 64`.
    binom: Vec<[usize; 65]>,
    /// `kids[k]`: for the `k`-subset of low rank `i`, its `k` children at `i * k ..`, in
    /// increasing order of the morsel eaten `p`: `rank << 8 | p`, with `rank` the child's
    /// low rank among the `(k - 1)`-subsets.
    kids: Vec<Vec<u32>>,
}

impl Low {
    /// The tables of the low morsels `0..t` (`t <= MAX_SPLIT`).
    pub(super) fn new(t: usize) -> Low {
        assert!(t <= MAX_SPLIT, "a low part of {t} morsels");
        // The project's binomials, copied into a plain table read on every block.
        let binom: Vec<[usize; 65]> = (0..64)
            .map(|p| std::array::from_fn(|q| binomial(p, q) as usize))
            .collect();
        let kids = (0..=t)
            .map(|k| {
                let count = binom[t][k];
                let mut out = Vec::with_capacity(count * k);
                let mut mask = (1u64 << k) - 1;
                for i in 0..count {
                    let mut m = mask;
                    while m != 0 {
                        let p = m.trailing_zeros();
                        out.push((colex_rank(mask & !(1 << p)) as u32) << 8 | p);
                        m &= m - 1;
                    }
                    // Gosper's step past the last subset (or from the empty one)
                    // would shift out of range.
                    if i + 1 < count {
                        mask = crate::engine::next_subset(mask);
                    }
                }
                out
            })
            .collect();
        Low { t, binom, kids }
    }

    fn c(&self, p: usize, q: usize) -> usize {
        self.binom[p][q]
    }
}

/// What a layer's cells are: the value the mover compares through each child (one
/// packed word, or the mover's own payoff in a column of them), how a child's value and
/// the eaten morsel's gain make the parent's, which of two the mover prefers, and what
/// becomes of a block once decided (its words rewritten for the next mover, or the other
/// players' columns gathered through the moves chosen).
pub(super) trait Cells: Sync {
    /// A value, as the layer below holds it and as the layer is decided.
    type W: Copy + Send + Sync;
    /// An entry of the layer's other columns, which [`Cells::finish`] fills.
    type O: Send;
    /// Whether [`Cells::finish`] reads the block's picks (they are written then even
    /// where the layer's choice bytes are not kept).
    const PICKS: bool;
    /// The values the mover reads, of the layer below, by rank.
    fn below(&self) -> &[Self::W];
    /// The mover's gain of eating `morsel`.
    fn gain(&self, morsel: usize) -> Self::W;
    /// A child's value with the gain of the morsel eaten to reach it.
    fn add(&self, child: Self::W, gain: Self::W) -> Self::W;
    /// Whether the mover takes `new`, met after `old` in increasing morsel order.
    fn better(&self, new: Self::W, old: Self::W) -> bool;
    /// A block decided: its values (`out`, at `at` of the run's) and picks, the
    /// run's `others` (columns beside the mover's, if any) still to fill; `room` holds
    /// a rank for each of the block's states.
    fn finish(
        &self,
        place: &Place<'_>,
        at: usize,
        out: &mut [Self::W],
        picks: &[u8],
        others: &mut [&mut [Self::O]],
        room: &mut [usize],
    );
}

/// What one layer's blocks read: the low morsels' tables, the cells, and the layer.
pub(super) struct Blocks<'a, C> {
    pub(super) low: &'a Low,
    pub(super) cells: C,
    /// The morsels left in a state of this layer, of `n`.
    pub(super) layer: usize,
    pub(super) n: usize,
}

/// A block decided: its `k` low morsels, where its children lie in the layer below.
pub(super) struct Place<'a> {
    low: &'a Low,
    k: usize,
    /// The rank in the layer below of the block's children through a low morsel, the
    /// first of them (`R(H, k - 1)`).
    suffix: usize,
    /// Per high morsel of the block, the rank of its stream (the first child through it).
    base: &'a [usize],
}

impl Place<'_> {
    /// The ranks in the layer below of the block's states' children through their
    /// `picks`, written to the start of `room`.
    #[inline(always)]
    pub(super) fn children<'r>(&self, picks: &[u8], room: &'r mut [usize]) -> &'r [usize] {
        let kids = &mut room[..picks.len()];
        for (j, (kid, &pick)) in kids.iter_mut().zip(picks).enumerate() {
            *kid = self.child(j, pick);
        }
        kids
    }

    /// The rank in the layer below of the child of the block's `j`-th state through its
    /// `pick`-th morsel (in increasing order).
    #[inline(always)]
    fn child(&self, j: usize, pick: u8) -> usize {
        let pick = pick as usize;
        if pick < self.k {
            self.suffix + (self.low.kids[self.k][j * self.k + pick] >> 8) as usize
        } else {
            self.base[pick - self.k] + j
        }
    }
}

/// One block's place: `H` as a mask of the high morsels (bit `i` for morsel `t + i`).
fn block_size(low: &Low, layer: usize, h: u64) -> Option<usize> {
    let s = h.count_ones() as usize;
    (s <= layer && layer - s <= low.t).then(|| low.c(low.t, layer - s))
}

/// Decides every state of the layer into `words` (the mover's values; `others`, the
/// other columns of the layer if the cells have them, are filled by their
/// [`Cells::finish`]) and `chosen` (the move's index in increasing morsel order, when not
/// empty) block by block, in parallel runs of blocks.
pub(super) fn decide_blocks<C: Cells>(
    job: &Blocks<'_, C>,
    words: &mut [C::W],
    others: Vec<&mut [C::O]>,
    chosen: &mut [u8],
    progress: &dyn Progress,
    stop: &AtomicBool,
) {
    let low = job.low;
    let highs = job.n - low.t;
    // Runs of consecutive high masks (the blocks in rank order), each of CHUNK states
    // or more.
    let mut runs: Vec<(u64, u64, usize)> = Vec::new();
    let (mut start, mut len) = (0u64, 0usize);
    for h in 0..1u64 << highs {
        if let Some(size) = block_size(low, job.layer, h) {
            len += size;
            if len >= CHUNK {
                runs.push((start, h + 1, len));
                (start, len) = (h + 1, 0);
            }
        }
    }
    if len > 0 {
        runs.push((start, 1 << highs, len));
    }
    let keep = !chosen.is_empty();
    let mut pieces = Vec::with_capacity(runs.len());
    let (mut rest, mut picks, mut columns) = (words, chosen, others);
    for &(a, b, len) in &runs {
        let (w, r) = rest.split_at_mut(len);
        let (c, p) = if keep {
            picks.split_at_mut(len)
        } else {
            (&mut [][..], picks)
        };
        let (mine, theirs): (Vec<_>, Vec<_>) = columns
            .into_iter()
            .map(|column| column.split_at_mut(len))
            .unzip();
        pieces.push((a, b, w, c, mine));
        (rest, picks, columns) = (r, p, theirs);
    }
    pieces
        .into_par_iter()
        .for_each(|(a, b, words, picks, mut others)| {
            if progress.cancelled() {
                stop.store(true, Ordering::Relaxed);
                return;
            }
            let done = words.len();
            if keep {
                run_blocks::<true, C>(job, a, b, words, picks, &mut others);
            } else {
                run_blocks::<false, C>(job, a, b, words, picks, &mut others);
            }
            progress.advance(done as u64);
        });
}

/// The blocks of high masks `a..b`, into `words` (and `picks` when `KEEP`), with the
/// processor's 256-bit lanes where it has them.
fn run_blocks<const KEEP: bool, C: Cells>(
    job: &Blocks<'_, C>,
    a: u64,
    b: u64,
    words: &mut [C::W],
    picks: &mut [u8],
    others: &mut [&mut [C::O]],
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { run_blocks_avx2::<KEEP, C>(job, a, b, words, picks, others) };
        return;
    }
    blocks_of::<KEEP, C>(job, a, b, words, picks, others);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_blocks_avx2<const KEEP: bool, C: Cells>(
    job: &Blocks<'_, C>,
    a: u64,
    b: u64,
    words: &mut [C::W],
    picks: &mut [u8],
    others: &mut [&mut [C::O]],
) {
    blocks_of::<KEEP, C>(job, a, b, words, picks, others);
}

/// [`run_blocks`]' work, inlined into each version. The picks are written where the
/// layer keeps them (`KEEP`) or the cells read them ([`Cells::PICKS`]).
#[inline(always)]
fn blocks_of<const KEEP: bool, C: Cells>(
    job: &Blocks<'_, C>,
    a: u64,
    b: u64,
    words: &mut [C::W],
    picks: &mut [u8],
    others: &mut [&mut [C::O]],
) {
    let low = job.low;
    let cells = &job.cells;
    let prev = cells.below();
    let t = low.t;
    let mut at = 0;
    let mut scratch = [0u8; 1 << 12];
    // Room for the cells' ranks, filled once a run (a block's zeroing cost 6% of a
    // 3 x 26 solve).
    let mut room = if C::PICKS {
        vec![0usize; 1 << 12]
    } else {
        Vec::new()
    };
    let mut h_of = [0usize; 64];
    let mut base = [0usize; 64];
    for h in a..b {
        let Some(size) = block_size(low, job.layer, h) else {
            continue;
        };
        let s = h.count_ones() as usize;
        let k = job.layer - s;
        let out = &mut words[at..at + size];
        let pick: &mut [u8] = if KEEP {
            &mut picks[at..at + size]
        } else {
            &mut scratch[..size]
        };
        // The high morsels and the bases of the blocks their eating leaves.
        let mut m = h;
        for hi in h_of.iter_mut().take(s) {
            *hi = t + m.trailing_zeros() as usize;
            m &= m - 1;
        }
        // `base[i] = sum_(i' < i) C(h_i', k + i' + 1) + sum_(i' > i) C(h_i', k + i')`.
        let mut suffix = 0usize;
        for i in (0..s).rev() {
            base[i] = suffix;
            suffix += low.c(h_of[i], k + i);
        }
        // `suffix` is now `R(H, k - 1)`, where eating a low morsel leads.
        let mut prefix = 0usize;
        for i in 0..s {
            base[i] += prefix;
            prefix += low.c(h_of[i], k + i + 1);
        }
        let mut first_high = 0;
        if k > 0 {
            let below = &prev[suffix..suffix + low.c(t, k - 1)];
            low_part::<KEEP, C>(job, t, k, out, pick, below);
        } else {
            // One state, all high: its first child opens the comparison.
            out[0] = cells.add(prev[base[0]], cells.gain(h_of[0]));
            pick[0] = 0;
            first_high = 1;
        }
        for i in first_high..s {
            let stream = &prev[base[i]..base[i] + size];
            merge::<KEEP, C>(cells, out, pick, stream, cells.gain(h_of[i]), (k + i) as u8);
        }
        let place = Place {
            low,
            k,
            suffix,
            base: &base[..s],
        };
        cells.finish(&place, at, out, pick, others, &mut room);
        at += size;
    }
}

/// Below this many states a low part is decided state by state from the table.
const SMALL: usize = 32;

/// The states of `k` low morsels among `0..t` (`k >= 1`), `C(t, k)` of them in `out`,
/// each the best of its children through a low morsel, read from `below` (the
/// `C(t, k - 1)` values of their block): those without morsel `t - 1` are the same
/// question one morsel down, and those with it the question one morsel down and one
/// morsel fewer, then merged with eating `t - 1` itself, whose children lie in `below`
/// in the order of the states (one stream). The morsel `t - 1` is the last of their low
/// morsels, at index `k - 1`, met after the others as the rule asks. Small questions are
/// answered state by state from the table. The recursion runs on a stack of its own, so
/// that all of it is compiled into each processor's version.
#[inline(always)]
fn low_part<const KEEP: bool, C: Cells>(
    job: &Blocks<'_, C>,
    t: usize,
    k: usize,
    out: &mut [C::W],
    pick: &mut [u8],
    below: &[C::W],
) {
    /// A question (`t`, `k`) on the states from `out` and children from `below`, and
    /// whether to merge eating `t` into them once it is answered.
    #[derive(Clone, Copy)]
    struct Task {
        t: u8,
        k: u8,
        out: u32,
        below: u32,
        merge: bool,
    }
    let low = job.low;
    let cells = &job.cells;
    let mut stack = [Task {
        t: 0,
        k: 0,
        out: 0,
        below: 0,
        merge: false,
    }; 64];
    stack[0] = Task {
        t: t as u8,
        k: k as u8,
        out: 0,
        below: 0,
        merge: false,
    };
    let mut top = 1;
    while top > 0 {
        top -= 1;
        let task = stack[top];
        let (t, k, o, b) = (
            task.t as usize,
            task.k as usize,
            task.out as usize,
            task.below as usize,
        );
        let len = low.c(t, k);
        if task.merge {
            // The states with morsel `t` (the question `(t, k)` answered) against
            // eating it: their children lie from the parent's `below` on.
            let fewer = len;
            merge::<KEEP, C>(
                cells,
                &mut out[o..o + len],
                &mut pick[o..o + len],
                &below[b - fewer..b],
                cells.gain(t),
                k as u8,
            );
            continue;
        }
        if len <= SMALL {
            let kids = &low.kids[k][..len * k];
            let below = &below[b..];
            for ((o, p), kids) in out[o..o + len]
                .iter_mut()
                .zip(pick[o..o + len].iter_mut())
                .zip(kids.chunks_exact(k))
            {
                let word = |j: usize| {
                    let kid = kids[j];
                    cells.add(
                        below[(kid >> 8) as usize],
                        cells.gain((kid & 0xff) as usize),
                    )
                };
                let mut best = (word(0), 0u8);
                for j in 1..k {
                    let w = word(j);
                    if cells.better(w, best.0) {
                        best = (w, j as u8);
                    }
                }
                *o = best.0;
                *p = best.1;
            }
            continue;
        }
        let without = low.c(t - 1, k);
        let fewer = low.c(t - 1, k - 1);
        let with = o + without;
        if k == 1 {
            out[with] = cells.add(below[b], cells.gain(t - 1));
            pick[with] = 0;
        } else {
            // Answered after the question below it, which is pushed after it.
            stack[top] = Task {
                t: (t - 1) as u8,
                k: (k - 1) as u8,
                out: with as u32,
                below: (b + fewer) as u32,
                merge: true,
            };
            stack[top + 1] = Task {
                t: (t - 1) as u8,
                k: (k - 1) as u8,
                out: with as u32,
                below: (b + fewer) as u32,
                merge: false,
            };
            top += 2;
        }
        if without > 0 {
            stack[top] = Task {
                t: (t - 1) as u8,
                k: k as u8,
                out: o as u32,
                below: b as u32,
                merge: false,
            };
            top += 1;
        }
    }
}

/// Each `out[i]` replaced by `stream[i]` with `gain` where the mover prefers that, its
/// pick set to `j`.
#[inline(always)]
fn merge<const KEEP: bool, C: Cells>(
    cells: &C,
    out: &mut [C::W],
    pick: &mut [u8],
    stream: &[C::W],
    gain: C::W,
    j: u8,
) {
    if C::PICKS {
        // Both stored whatever the comparison says: the compiler then blends whole
        // lanes instead of storing lane by lane (3 x 26 morsels: 0.82 to 0.96 s against
        // 1.02 to 1.17 s).
        for ((o, p), &c) in out.iter_mut().zip(pick.iter_mut()).zip(stream) {
            let w = cells.add(c, gain);
            let take = cells.better(w, *o);
            *o = if take { w } else { *o };
            *p = if take { j } else { *p };
        }
    } else if KEEP {
        // The packed words' picks, on the few layers that keep them: here the blend was
        // slower than the stores.
        for ((o, p), &c) in out.iter_mut().zip(pick.iter_mut()).zip(stream) {
            let w = cells.add(c, gain);
            if cells.better(w, *o) {
                *o = w;
                *p = j;
            }
        }
    } else {
        for (o, &c) in out.iter_mut().zip(stream) {
            let w = cells.add(c, gain);
            if cells.better(w, *o) {
                *o = w;
            }
        }
    }
}
