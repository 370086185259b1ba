//! The layouts of a layer's cells that the blocks decide: the mover's own column under
//! the rules first and last (`Columns`), 64-bit keys for friendly and antagonistic movers
//! (`Keys`), and the packed words of the index rule (`Words`).

use crate::par::prelude::*;

use super::shared::*;
use crate::games::dinner::solver::blocks::{Cells, Place};

/// The columns' cells for the blocks ([`blocks`](crate::games::dinner::solver::blocks)) under the rule first
/// (`LAST` false) or last: the mover compares its own payoff, read from its column;
/// once a block is decided the other players' payoffs are read through the moves chosen.
pub(super) struct Columns<'a, P, const LAST: bool> {
    /// The mover's column of the layer below.
    pub(super) own: &'a [P],
    /// The mover's payoff for eating each morsel.
    pub(super) gains: &'a [P],
    /// The other players' columns of the layer below, in the players' order.
    pub(super) others: Vec<&'a [P]>,
}

impl<P: Word, const LAST: bool> Cells for Columns<'_, P, LAST> {
    type W = P;
    type O = P;
    const PICKS: bool = true;

    #[inline(always)]
    fn below(&self) -> &[P] {
        self.own
    }

    #[inline(always)]
    fn gain(&self, morsel: usize) -> P {
        self.gains[morsel]
    }

    #[inline(always)]
    fn add(&self, child: P, gain: P) -> P {
        child + gain
    }

    #[inline(always)]
    fn better(&self, new: P, old: P) -> bool {
        if LAST {
            new >= old
        } else {
            new > old
        }
    }

    #[inline(always)]
    fn finish(
        &self,
        place: &Place<'_>,
        at: usize,
        _: &mut [P],
        picks: &[u8],
        others: &mut [&mut [P]],
        room: &mut [usize],
    ) {
        // The children's ranks once, then each other column gathered through them.
        let kids = place.children(picks, room);
        for (column, below) in others.iter_mut().zip(&self.others) {
            gather(&mut column[at..at + kids.len()], below, kids);
        }
    }
}

/// The columns' cells for the blocks under the rules friendly and antagonistic (32-bit
/// payoffs): the mover compares [`tie_key`]s, read from the key column the layer below
/// was given for it; once a block is decided, the mover's payoff is its key's high half
/// and the other columns are gathered through the moves chosen.
pub(super) struct Keys<'a, P> {
    /// The layer below's keys for the mover.
    pub(super) keys: &'a [i64],
    /// The mover's payoff for eating each morsel, in the high half.
    pub(super) gains: Vec<i64>,
    /// The layer below's columns, every player's.
    pub(super) prev: Vec<&'a [P]>,
    pub(super) mover: usize,
}

impl<P: Word> Cells for Keys<'_, P> {
    type W = i64;
    type O = P;
    const PICKS: bool = true;

    #[inline(always)]
    fn below(&self) -> &[i64] {
        self.keys
    }

    #[inline(always)]
    fn gain(&self, morsel: usize) -> i64 {
        self.gains[morsel]
    }

    #[inline(always)]
    fn add(&self, child: i64, gain: i64) -> i64 {
        child + gain
    }

    #[inline(always)]
    fn better(&self, new: i64, old: i64) -> bool {
        new > old
    }

    #[inline(always)]
    fn finish(
        &self,
        place: &Place<'_>,
        at: usize,
        out: &mut [i64],
        picks: &[u8],
        columns: &mut [&mut [P]],
        room: &mut [usize],
    ) {
        let kids = place.children(picks, room);
        for (q, (column, below)) in columns.iter_mut().zip(&self.prev).enumerate() {
            let column = &mut column[at..at + kids.len()];
            if q == self.mover {
                for (value, &key) in column.iter_mut().zip(out.iter()) {
                    *value = P::widen((key >> 32) as i32);
                }
            } else {
                gather(column, below, kids);
            }
        }
    }
}

/// `column[j] = below[kids[j]]`: a block's column read through its children's ranks.
#[inline(always)]
pub(super) fn gather<P: Copy>(column: &mut [P], below: &[P], kids: &[usize]) {
    for (value, &kid) in column.iter_mut().zip(kids) {
        *value = child_of(below, kid);
    }
}

/// Writes `keys` for the next mover, a friendly or `antagonistic` `player`, from the
/// layer's columns: its own payoff and the others' total ([`tie_key`]).
pub(super) fn write_keys<P: Word>(
    columns: &[&[P]],
    keys: &mut [i64],
    player: usize,
    antagonistic: bool,
) {
    keys.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, keys)| {
            let first = c * CHUNK;
            for (j, key) in keys.iter_mut().enumerate() {
                let mut total = 0i32;
                for column in columns {
                    total += column[first + j].narrow();
                }
                let own = columns[player][first + j].narrow();
                *key = tie_key(own, total - own, antagonistic);
            }
        });
}

/// The packed words' cells for the blocks: the mover's key is the word shifted right
/// by `shift`; a decided word is rewritten for the next mover (`rekey`).
pub(super) struct Words<'a, F> {
    /// The layer below, keyed for the mover.
    pub(super) prev: &'a [u64],
    /// The mover's packed gain of each morsel.
    pub(super) gains: &'a [u64],
    pub(super) shift: u32,
    pub(super) rekey: F,
}

impl<F: Fn(u64) -> u64 + Sync> Cells for Words<'_, F> {
    type W = u64;
    type O = u64;
    const PICKS: bool = false;

    #[inline(always)]
    fn below(&self) -> &[u64] {
        self.prev
    }

    #[inline(always)]
    fn gain(&self, morsel: usize) -> u64 {
        self.gains[morsel]
    }

    #[inline(always)]
    fn add(&self, child: u64, gain: u64) -> u64 {
        child.wrapping_add(gain)
    }

    #[inline(always)]
    fn better(&self, new: u64, old: u64) -> bool {
        new >> self.shift > old >> self.shift
    }

    #[inline(always)]
    fn finish(
        &self,
        _: &Place<'_>,
        _: usize,
        out: &mut [u64],
        _: &[u8],
        _: &mut [&mut [u64]],
        _: &mut [usize],
    ) {
        for o in out.iter_mut() {
            *o = (self.rekey)(*o);
        }
    }
}
