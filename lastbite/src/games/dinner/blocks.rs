//! A layer of packed words decided block by block (issue 30): the morsels split at `t`
//! into the low ones `L` (below `t`) and the high ones `H`, and the states that share
//! `H` lie together in colexicographic order, `C(t, k)` of them for `k = |L|`, in the
//! order of their low parts' ranks. A state's rank is `r(L) + R(H, k)`, with `r(L)` the
//! low part's own colexicographic rank and `R(H, k) = sum_i C(h_i, k + i + 1)` over
//! `H`'s morsels `h_0 < h_1 < ...`; so
//! - eating a high morsel `h` leaves `L` as it was and the block of `H \ {h}`: the block's
//!   children through `h` are the `C(t, k)` words from `R(H \ {h}, k)` on, *in the
//!   block's own order*, read as one sequential stream and compared lane by lane;
//! - eating a low morsel leaves the block of `H` with `k - 1` low morsels, `C(t, k - 1)`
//!   words from `R(H, k - 1)` (a few KiB, in the first-level cache), at the low ranks a
//!   table of the `t` low morsels lists once ([`Low`]).
//!
//! The walk through the states one by one (`kernel::walk_states`) reads each child at its
//! own rank; here most children come in streams the processor prefetches and compares
//! without a branch. The same rule decides: the mover's largest key, among equals the
//! first move in increasing morsel order (the low morsels, then the high ones).
//!
//! The module owns the block split ([`Low`], [`decide_blocks`]).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::Progress;

use super::subsets::{binomial, colex_rank};
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

/// What one layer's blocks read: the layer below, keyed for the mover (its key: a word
/// shifted right by `shift`), the mover's packed gain of each morsel, and how to write
/// a word for the next mover.
pub(super) struct Blocks<'a, F> {
    pub(super) low: &'a Low,
    pub(super) prev: &'a [u64],
    pub(super) gains: &'a [u64],
    pub(super) shift: u32,
    /// The morsels left in a state of this layer, of `n`.
    pub(super) layer: usize,
    pub(super) n: usize,
    /// A decided word (keyed for the mover) rewritten for the next mover.
    pub(super) rekey: F,
}

/// One block's place: `H` as a mask of the high morsels (bit `i` for morsel `t + i`).
fn block_size(low: &Low, layer: usize, h: u64) -> Option<usize> {
    let s = h.count_ones() as usize;
    (s <= layer && layer - s <= low.t).then(|| low.c(low.t, layer - s))
}

/// Decides every state of the layer into `words` (and `chosen`, the move's index in
/// increasing morsel order, when not empty) block by block, in parallel runs of blocks.
pub(super) fn decide_blocks<F: Fn(u64) -> u64 + Sync>(
    job: &Blocks<'_, F>,
    words: &mut [u64],
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
    let (mut rest, mut picks) = (words, chosen);
    for &(a, b, len) in &runs {
        let (w, r) = rest.split_at_mut(len);
        let (c, p) = if keep {
            picks.split_at_mut(len)
        } else {
            (&mut [][..], picks)
        };
        pieces.push((a, b, w, c));
        (rest, picks) = (r, p);
    }
    pieces.into_par_iter().for_each(|(a, b, words, picks)| {
        if progress.cancelled() {
            stop.store(true, Ordering::Relaxed);
            return;
        }
        let done = words.len();
        if keep {
            run_blocks::<true, F>(job, a, b, words, picks);
        } else {
            run_blocks::<false, F>(job, a, b, words, picks);
        }
        progress.advance(done as u64);
    });
}

/// The blocks of high masks `a..b`, into `words` (and `picks` when `KEEP`), with the
/// processor's 256-bit lanes where it has them.
fn run_blocks<const KEEP: bool, F: Fn(u64) -> u64>(
    job: &Blocks<'_, F>,
    a: u64,
    b: u64,
    words: &mut [u64],
    picks: &mut [u8],
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { run_blocks_avx2::<KEEP, F>(job, a, b, words, picks) };
        return;
    }
    blocks_of::<KEEP, F>(job, a, b, words, picks);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_blocks_avx2<const KEEP: bool, F: Fn(u64) -> u64>(
    job: &Blocks<'_, F>,
    a: u64,
    b: u64,
    words: &mut [u64],
    picks: &mut [u8],
) {
    blocks_of::<KEEP, F>(job, a, b, words, picks);
}

/// [`run_blocks`]' work, inlined into each version.
#[inline(always)]
fn blocks_of<const KEEP: bool, F: Fn(u64) -> u64>(
    job: &Blocks<'_, F>,
    a: u64,
    b: u64,
    words: &mut [u64],
    picks: &mut [u8],
) {
    let low = job.low;
    let t = low.t;
    let mut at = 0;
    let mut scratch = [0u8; 1 << 12];
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
        at += size;
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
            let below = &job.prev[suffix..suffix + low.c(t, k - 1)];
            low_part::<KEEP, F>(job, t, k, out, pick, below);
        } else {
            // One state, all high: its first child opens the comparison.
            out[0] = job.prev[base[0]].wrapping_add(job.gains[h_of[0]]);
            pick[0] = 0;
            first_high = 1;
        }
        for i in first_high..s {
            let stream = &job.prev[base[i]..base[i] + size];
            merge::<KEEP>(
                out,
                pick,
                stream,
                job.gains[h_of[i]],
                (k + i) as u8,
                job.shift,
            );
        }
        for o in out.iter_mut() {
            *o = (job.rekey)(*o);
        }
    }
}

/// Below this many states a low part is decided state by state from the table.
const SMALL: usize = 32;

/// The states of `k` low morsels among `0..t` (`k >= 1`), `C(t, k)` of them in `out`,
/// each the best of its children through a low morsel, read from `below` (the
/// `C(t, k - 1)` words of their block): those without morsel `t - 1` are the same
/// question one morsel down, and those with it the question one morsel down and one
/// morsel fewer, then merged with eating `t - 1` itself, whose children lie in `below`
/// in the order of the states (one stream). The morsel `t - 1` is the last of their low
/// morsels, at index `k - 1`, met after the others as the rule asks. Small questions are
/// answered state by state from the table. The recursion runs on a stack of its own, so
/// that all of it is compiled into each processor's version.
#[inline(always)]
fn low_part<const KEEP: bool, F: Fn(u64) -> u64>(
    job: &Blocks<'_, F>,
    t: usize,
    k: usize,
    out: &mut [u64],
    pick: &mut [u8],
    below: &[u64],
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
    let shift = job.shift;
    let key = |w: u64| w >> shift;
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
            merge::<KEEP>(
                &mut out[o..o + len],
                &mut pick[o..o + len],
                &below[b - fewer..b],
                job.gains[t],
                k as u8,
                shift,
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
                    below[(kid >> 8) as usize].wrapping_add(job.gains[(kid & 0xff) as usize])
                };
                let mut best = (word(0), 0u8);
                for j in 1..k {
                    let w = word(j);
                    if key(w) > key(best.0) {
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
            out[with] = below[b].wrapping_add(job.gains[t - 1]);
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

/// Each `out[i]` replaced by `stream[i] + gain` where that key is larger (ties keep the
/// earlier move), its pick set to `j`.
#[inline(always)]
fn merge<const KEEP: bool>(
    out: &mut [u64],
    pick: &mut [u8],
    stream: &[u64],
    gain: u64,
    j: u8,
    shift: u32,
) {
    let key = |w: u64| w >> shift;
    if KEEP {
        for ((o, p), &c) in out.iter_mut().zip(pick.iter_mut()).zip(stream) {
            let w = c.wrapping_add(gain);
            if key(w) > key(*o) {
                *o = w;
                *p = j;
            }
        }
    } else {
        for (o, &c) in out.iter_mut().zip(stream) {
            let w = c.wrapping_add(gain);
            if key(w) > key(*o) {
                *o = w;
            }
        }
    }
}
