//! A position of the game after some takes, and outcomes at any heap (paper: Definition
//! 2's game on heap `n`, Alice first; Section 4's periodicity for heaps past a table).
//!
//! After the takes, the player to move plays the game on the heap left with her own
//! convention first: the game's for Alice, its dual for Bob. [`Position`] is that
//! position, checked once (every take an element of `S`, at most the heap left);
//! [`Outcomes`] answers `o_X(h)` for any heap below 2^128, from a table or, from
//! [`TABLE_HEAPS`] on, from the period; [`Outcomes::options`] values each move of a
//! position.

use crate::engine::Player;
use crate::engine::Progress;

use super::model::{Convention, Ruleset, SubtractionError};
use super::theory::{find_period_until, outcome_at, HeapOutcome, Period, Table};

/// Heaps below this are read from a table of their own; larger ones through the period.
pub const TABLE_HEAPS: u128 = 1 << 16;

/// The game from a heap under a convention, after some takes.
///
/// ```
/// use lastbite::games::subtraction::{Convention, Position, Ruleset};
/// let s: Ruleset = "1,2".parse().unwrap();
/// let p = Position::after(&s, 10, Convention::FvA, &[2, 1, 2]).unwrap();
/// assert_eq!((p.heap(), p.so_far(), p.to_move()), (5, [4, 1], 1));
/// assert_eq!(p.mover_convention(), Convention::FvA.dual()); // Bob's own rule first
/// assert!(Position::after(&s, 10, Convention::FvF, &[3]).is_err()); // not in S
/// assert!(Position::after(&s, 1, Convention::FvF, &[2]).is_err()); // past the heap
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    start: u128,
    heap: u128,
    so_far: [u128; 2],
    convention: Convention,
    to_move: Player,
}

impl Position {
    /// Checks `takes` (Alice's first) against the set and the heap left.
    pub fn after(
        set: &Ruleset,
        start: u128,
        convention: Convention,
        takes: &[u64],
    ) -> Result<Position, SubtractionError> {
        let (mut heap, mut so_far) = (start, [0u128; 2]);
        for (i, &t) in takes.iter().enumerate() {
            if !set.elements().contains(&t) || t as u128 > heap {
                return Err(SubtractionError::Take {
                    index: i + 1,
                    take: t,
                    set: set.elements().to_vec(),
                    heap,
                });
            }
            heap -= t as u128;
            so_far[i % 2] += t as u128;
        }
        Ok(Position {
            start,
            heap,
            so_far,
            convention,
            to_move: takes.len() % 2,
        })
    }

    /// The heap the game started from.
    pub fn start(&self) -> u128 {
        self.start
    }

    /// The heap left.
    pub fn heap(&self) -> u128 {
        self.heap
    }

    /// Alice's and Bob's totals so far.
    pub fn so_far(&self) -> [u128; 2] {
        self.so_far
    }

    /// The player to move: 0 for Alice, 1 for Bob.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The whole game's convention.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// The convention the player to move plays from here, her own rule first: the
    /// game's for Alice, its dual for Bob.
    pub fn mover_convention(&self) -> Convention {
        match self.to_move {
            0 => self.convention,
            _ => self.convention.dual(),
        }
    }

    /// A pair `(mover, other)` from here as the whole game's totals `(Alice, Bob)`, the
    /// takes so far added.
    pub fn in_game(&self, [mover, other]: [u128; 2]) -> [u128; 2] {
        let [a, b] = match self.to_move {
            0 => [mover, other],
            _ => [other, mover],
        };
        [self.so_far[0] + a, self.so_far[1] + b]
    }
}

/// One move of a position, valued: the heap it leaves, and the `(mover, other)` pair
/// when the rest is played by the position's convention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue {
    /// The take.
    pub take: u64,
    /// The heap it leaves.
    pub heap_after: u128,
    /// `(mover, other)` from the position.
    pub outcome: [u128; 2],
    /// Whether it maximises the mover's payoff.
    pub best_for_mover: bool,
    /// Whether the convention's equilibrium (PSPE) takes it.
    pub pspe: bool,
}

/// The outcomes of a set up to a heap: a table, and past [`TABLE_HEAPS`] the period.
#[derive(Debug, Clone)]
pub struct Outcomes {
    table: Table,
    period: Option<Period>,
}

impl Outcomes {
    /// What answers heaps up to `heap`: a table below [`TABLE_HEAPS`], else the period
    /// found within `limit` (refused past it).
    pub fn up_to(
        set: &Ruleset,
        heap: u128,
        limit: u64,
        stop: &dyn Progress,
    ) -> Result<Outcomes, SubtractionError> {
        Ok(if heap < TABLE_HEAPS {
            Outcomes {
                table: Table::compute_until(set, heap as u64, stop)?,
                period: None,
            }
        } else {
            let (p, table) = find_period_until(set, limit, stop)?;
            Outcomes {
                table,
                period: Some(p),
            }
        })
    }

    /// The period, when one was needed.
    pub fn period(&self) -> Option<&Period> {
        self.period.as_ref()
    }

    /// `o_X(h)`, its PSPE moves and how it was found.
    pub fn at(&self, x: Convention, heap: u128) -> Result<HeapOutcome, SubtractionError> {
        outcome_at(&self.table, self.period.as_ref(), x, heap)
    }

    /// Each move of `position` valued: a take `s` leaves `h - s` to the other player, who
    /// then moves first under the dual convention (her own first), so the mover's payoff
    /// is `s` plus the other's second share there. `here` is the position's own outcome.
    pub fn options(
        &self,
        position: &Position,
        here: &HeapOutcome,
    ) -> Result<Vec<MoveValue>, SubtractionError> {
        let (heap, x) = (position.heap(), position.mover_convention());
        let set = self.table.set().elements();
        set.iter()
            .filter(|&&s| s as u128 <= heap)
            .map(|&s| {
                let child = self.at(x.dual(), heap - s as u128)?;
                let mine = (s as u128)
                    .checked_add(child.outcome.1)
                    .ok_or_else(|| SubtractionError::Overflow(heap.to_string()))?;
                Ok(MoveValue {
                    take: s,
                    heap_after: heap - s as u128,
                    outcome: [mine, child.outcome.0],
                    best_for_mover: mine == here.outcome.0,
                    pspe: here.moves.contains(&s),
                })
            })
            .collect()
    }
}
