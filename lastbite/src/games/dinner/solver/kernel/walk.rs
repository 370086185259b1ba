//! A layer walked state by state (the friendly and antagonistic rules with wide
//! payoffs): work items of consecutive ranks, the children's ranks without unranking.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{self, Progress};
use crate::par::prelude::*;

use super::shared::*;

/// What one layer's decisions read.
pub(super) struct Layer<'a, P> {
    pub(super) table: &'a Binomials,
    /// `own_pay[i]`: what the mover gains by eating morsel `i`.
    pub(super) own_pay: Vec<P>,
    /// The layer below's payoffs, a column a player, by rank.
    pub(super) prev: Vec<&'a [P]>,
    pub(super) layer: usize,
    pub(super) n: usize,
    pub(super) mover: usize,
}

/// The layer's choice bytes cut into chunks of [`CHUNK`] states, `None` for each chunk of
/// a layer whose bytes are not kept (empty `chosen`): its walk writes them to a scratch.
pub(super) fn pick_chunks(chosen: &mut [u8], chunks: usize) -> Vec<Option<&mut [u8]>> {
    if chosen.is_empty() {
        (0..chunks).map(|_| None).collect()
    } else {
        chosen.chunks_mut(CHUNK).map(Some).collect()
    }
}

/// Decides every state of one layer into `columns` (a player's payoffs each) and
/// `chosen` (the move's index in increasing morsel order; empty when the layer's bytes
/// are not kept), in parallel chunks. `K` is the number of players (0: read it at run
/// time); the mover's tie rule looks at the others' payoffs, `ANTAGONISTIC` or friendly
/// (the rules first and last go block by block).
pub(super) fn decide_layer<P: Word, const K: usize, const ANTAGONISTIC: bool>(
    job: &Layer<'_, P>,
    columns: Vec<&mut [P]>,
    chosen: &mut [u8],
    progress: &dyn Progress,
    stop: &AtomicBool,
) {
    let k = if K == 0 { columns.len() } else { K };
    // Each chunk of ranks gets its piece of every column.
    let chunks = columns.first().map_or(0, |c| c.len().div_ceil(CHUNK));
    let mut pieces: Vec<Vec<&mut [P]>> = (0..chunks).map(|_| Vec::with_capacity(k)).collect();
    for column in columns {
        for (c, piece) in column.chunks_mut(CHUNK).enumerate() {
            pieces[c].push(piece);
        }
    }
    let mover = job.mover;
    let chunk = |c: usize, mut values: Vec<&mut [P]>, picks: Option<&mut [u8]>| {
        if progress.cancelled() {
            stop.store(true, Ordering::Relaxed);
            return;
        }
        let first = c * CHUNK;
        let len = values[0].len();
        let mut scratch = [0u8; CHUNK];
        let picks = picks.unwrap_or(&mut scratch[..len]);
        walk_states(job, first, len, |j, walk| {
            let (best, child, own) = walk.decide::<K, ANTAGONISTIC>(job, first + j);
            for (column, below) in values.iter_mut().zip(&job.prev) {
                column[j] = below[child];
            }
            values[mover][j] = own;
            picks[j] = best;
        });
        progress.advance(picks.len() as u64);
    };
    let picks = pick_chunks(chosen, chunks);
    if chunks <= 1 {
        if let (Some(values), Some(picks)) = (pieces.pop(), picks.into_iter().next()) {
            chunk(0, values, picks);
        }
    } else {
        pieces
            .into_par_iter()
            .zip(picks)
            .enumerate()
            .for_each(|(c, (values, picks))| chunk(c, values, picks));
    }
}

/// The subset of rank `rank` among the layer's, colexicographic.
pub(super) fn first_of<P>(job: &Layer<'_, P>, rank: usize) -> u64 {
    let mut r = rank;
    let mut mask = 0u64;
    let mut top = job.n;
    for j in (1..=job.layer).rev() {
        // The largest p < top with C(p, j) <= r.
        let mut p = top - 1;
        while p >= j && job.table.at(j - 1, p)[0] > r {
            p -= 1;
        }
        mask |= 1 << p;
        r -= job.table.at(j - 1, p)[0];
        top = p;
    }
    mask
}

/// Walks the `len` states of ranks `first..` of the layer in rank order, the walk
/// refreshed for each before `visit(j, walk)` decides state `first + j`.
#[inline(always)]
pub(super) fn walk_states<P: Copy + Default>(
    job: &Layer<'_, P>,
    first: usize,
    len: usize,
    mut visit: impl FnMut(usize, &Walk<P>),
) {
    let mut mask = first_of(job, first);
    let mut walk = Walk::new(job, mask);
    for j in 0..len {
        if j > 0 {
            // Gosper's step moves the lowest run of morsels only: the children's
            // offsets above it stay.
            let run = (!(mask >> mask.trailing_zeros())).trailing_zeros() as usize;
            mask = engine::next_subset(mask);
            walk.refresh(job, mask, run);
        }
        visit(j, &walk);
    }
}

/// A walk along a layer in rank order. For the state at hand, with morsels `p_0 < ... <
/// p_(l-1)` and rank `r`, removing `p_j` leaves the child of rank `r - off[j]`, where
/// `off[j] = C(p_j, j + 1) + acc[j]` and `acc[j] = sum_(i>j) D(p_i, i)`: an offset
/// depends only on the morsels from `p_j` up, so Gosper's step, which moves the lowest
/// run of morsels, leaves the offsets above that run as they were.
pub(super) struct Walk<P> {
    pub(super) off: [usize; 64],
    pub(super) acc: [usize; 64],
    /// `gain[j]`: the mover's payoff for eating `p_j`.
    pub(super) gain: [P; 64],
}

impl<P: Copy + Default> Walk<P> {
    pub(super) fn new(job: &Layer<'_, P>, mask: u64) -> Walk<P> {
        let mut walk = Walk {
            off: [0; 64],
            acc: [0; 64],
            gain: [P::default(); 64],
        };
        walk.refresh(job, mask, job.layer);
        walk
    }

    /// Recomputes the lowest `low` offsets of `mask` (all of them when `low` is the
    /// layer's size).
    #[inline(always)]
    pub(super) fn refresh(&mut self, job: &Layer<'_, P>, mask: u64, low: usize) {
        // Bytes: clearing 64 of them a state is one store, 64 words were a memset.
        let mut pos = [0u8; 64];
        let mut m = mask;
        for p in pos.iter_mut().take(low) {
            *p = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        // `acc[low - 1]` depends on the morsels above the run only: it stays, but for
        // the full refresh, where the top's is zero.
        if low == job.layer {
            self.acc[low - 1] = 0;
        }
        let mut above = 0usize;
        for j in (0..low).rev() {
            let [up, diff] = job.table.at(j, pos[j] as usize);
            if j + 1 < low {
                self.acc[j] = self.acc[j + 1].wrapping_add(above);
            }
            self.off[j] = up.wrapping_add(self.acc[j]);
            self.gain[j] = job.own_pay[pos[j] as usize];
            above = diff;
        }
    }
}

impl<P: Word> Walk<P> {
    /// Decides the state of rank `rank`: the chosen move's index (in increasing morsel
    /// order), its child's rank and the mover's payoff through it, among equals the one
    /// the others value most (friendly) or least (`ANTAGONISTIC`), and among those the
    /// first in increasing morsel order, as the engine chooses.
    #[inline(always)]
    pub(super) fn decide<const K: usize, const ANTAGONISTIC: bool>(
        &self,
        job: &Layer<'_, P>,
        rank: usize,
    ) -> (u8, usize, P) {
        let k = if K == 0 { job.prev.len() } else { K };
        let mover = job.mover;
        let own_column = job.prev[mover];
        let others = |child: usize| -> P {
            let mut s = P::default();
            for q in 0..k {
                if q != mover {
                    s = s + child_of(job.prev[q], child);
                }
            }
            s
        };
        let mut best_child = rank.wrapping_sub(self.off[0]);
        let mut best_own = child_of(own_column, best_child) + self.gain[0];
        let mut best_others = others(best_child);
        let mut best = 0u8;
        for j in 1..job.layer {
            let child = rank.wrapping_sub(self.off[j]);
            let own = child_of(own_column, child) + self.gain[j];
            let take = own > best_own
                || own == best_own
                    && if ANTAGONISTIC {
                        others(child) < best_others
                    } else {
                        others(child) > best_others
                    };
            if take {
                best = j as u8;
                best_child = child;
                best_own = own;
                best_others = others(child);
            }
        }
        (best, best_child, best_own)
    }
}
