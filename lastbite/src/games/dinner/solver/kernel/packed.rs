//! Two players under the index rule: both payoffs packed in one word a state
//! (`Packing`), the layers decided block by block over the packed words.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{self, EngineError, LeanSolution, Progress, RankedGame, TieBreak, Ties};

use super::cells::*;
use super::shared::*;
use crate::games::dinner::solver::blocks::{decide_blocks, Blocks, Low, MAX_SPLIT};
use crate::games::dinner::solver::game::DinnerGame;

/// Two players' payoffs under the index rule in one word a state. A player's payoff is
/// `U m + E`: `U` the utilities of the morsels they eat, `E < m` the sum of those
/// morsels' offsets `n - 1 - i`. Both players' offsets together are those of every morsel
/// left, fixed by the state, so a word holds `U_A`, `E_A` and `U_B` only, in fields wide
/// enough for any total: a child's word plus the eater's packed gain is the parent's,
/// with no carry between fields.
///
/// The mover compares its payoffs through its children, and the word is laid out so
/// that its top bits order them: keyed for `A`, `U_A | E_A | U_B` (`A`'s payoff orders as
/// `(U_A, E_A)`); keyed for `B`, `U_B | F | U_A` with `F = max - E_A` (`B`'s offsets are
/// the state's total, the same for every child, less `A`'s, so its payoff orders as
/// `(U_B, F)`). A layer is stored keyed for the mover of the layer above, which reads it,
/// so a comparison is a shift; a state's word changes layout at most once, when it is
/// written. Half the memory of two 64-bit payoffs: the 2 x 32 dinner with utilities to
/// `10^6` fits the machine this way.
pub(super) struct Packing {
    /// Widths of the `U_A`, `E_A` (and `F`) and `U_B` fields.
    pub(super) a: u32,
    pub(super) e: u32,
    pub(super) b: u32,
    /// The index rule's multiplier `m`.
    pub(super) m: i128,
    /// Per morsel, the packed gain of its eater in the layout keyed for them: `[A's, B's]`.
    pub(super) gains: Vec<[u64; 2]>,
}

impl Packing {
    /// The packing of a two-player dinner under the index rule, both players' rule
    /// `first`, utilities non-negative, when the fields fit a word; else `None`.
    pub(super) fn of<P: Word>(
        game: &DinnerGame<'_, P>,
        ties: &Ties,
        pay: &[P],
        n: usize,
    ) -> Option<Packing> {
        let m = game.index_multiplier()?;
        if engine::Game::players(game) != 2
            || (0..2).any(|p| !matches!(ties.of(p), TieBreak::First))
        {
            return None;
        }
        // Utilities back from the payoffs: `u m + (n - 1 - i)`.
        let mut utilities = vec![[0u128; 2]; n];
        let mut totals = [0u128; 2];
        for (i, u) in utilities.iter_mut().enumerate() {
            for p in 0..2 {
                let scaled = pay[i * 2 + p].to_integer()? - (n - 1 - i) as i128;
                if scaled < 0 || scaled % m != 0 {
                    return None;
                }
                u[p] = (scaled / m) as u128;
                totals[p] = totals[p].checked_add(u[p])?;
            }
        }
        let bits = |x: u128| 128 - x.leading_zeros();
        let offsets = (n * n.saturating_sub(1) / 2) as u128;
        let (a, e, b) = (bits(totals[0]), bits(offsets), bits(totals[1]));
        // `E < m` keeps the keys' order the payoffs' (offsets at most n (n - 1) / 2).
        if a + e + b > 64 || offsets >= m as u128 {
            return None;
        }
        let mut packing = Packing {
            a,
            e,
            b,
            m,
            gains: Vec::new(),
        };
        packing.gains = utilities
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let offset = (n - 1 - i) as u64;
                [
                    packing.pack(false, [u[0] as u64, offset, 0]),
                    packing.pack(true, [0, packing.emax(), u[1] as u64]),
                ]
            })
            .collect();
        Some(packing)
    }

    pub(super) fn emax(&self) -> u64 {
        (1u64 << self.e) - 1
    }

    /// The word of `[U_A, E_A, U_B]`, keyed for `B` or for `A`.
    #[inline(always)]
    pub(super) fn pack(&self, for_b: bool, [ua, ea, ub]: [u64; 3]) -> u64 {
        if for_b {
            ub << (self.e + self.a) | (self.emax() - ea) << self.a | ua
        } else {
            ua << (self.e + self.b) | ea << self.b | ub
        }
    }

    /// `[U_A, E_A, U_B]` of a word keyed for `B` or for `A`.
    #[inline(always)]
    pub(super) fn fields(&self, for_b: bool, w: u64) -> [u64; 3] {
        let low = |bits: u32| (1u64 << bits) - 1;
        if for_b {
            let f = (w >> self.a) & self.emax();
            [w & low(self.a), self.emax() - f, w >> (self.e + self.a)]
        } else {
            [
                w >> (self.e + self.b),
                (w >> self.b) & self.emax(),
                w & low(self.b),
            ]
        }
    }

    /// The shift that leaves the mover's key of a word keyed for them.
    pub(super) fn key_shift(&self, for_b: bool) -> u32 {
        if for_b {
            self.a
        } else {
            self.b
        }
    }

    /// The two payoffs of a word keyed as said, of a state whose morsels' offsets total
    /// `left`.
    pub(super) fn payoffs(&self, for_b: bool, w: u64, left: u64) -> [i128; 2] {
        let [ua, ea, ub] = self.fields(for_b, w);
        [
            ua as i128 * self.m + ea as i128,
            ub as i128 * self.m + (left - ea) as i128,
        ]
    }
}

/// [`run`] with a [`Packing`]: one column of words, each layer decided block by block
/// with the low morsels `0..split` ([`blocks`](crate::games::dinner::solver::blocks)).
pub(super) fn run_packed<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    packing: &Packing,
    n: usize,
    bytes: u128,
    split: usize,
    progress: &dyn Progress,
) -> Result<LeanSolution<DinnerGame<'g, P>>, EngineError> {
    let states: u128 = (0..=n).map(|l| game.layer_size(l) as u128).sum();
    progress.start(states as u64, "states");
    let mut choices: Vec<Vec<u8>> = Vec::with_capacity(n + 1);
    let stride = (0..=n).map(|l| game.layer_size(l)).max().unwrap_or(1);
    // Whether the layer of `l` morsels left is read by player B (its words keyed so).
    let keyed_b = |l: usize| l < n && game.player_of_turn(n - l - 1) == 1;
    let (mut prev, mut cur) = (zeroed::<u64>(stride, bytes)?, zeroed::<u64>(stride, bytes)?);
    let low = Low::new(split.min(n).min(MAX_SPLIT));
    for layer in 0..=n {
        let size = game.layer_size(layer);
        let mut chosen = choice_bytes(layer, n, size, bytes)?;
        if layer == 0 {
            // The empty plate: nothing more to eat.
            prev[0] = packing.pack(keyed_b(0), [0, 0, 0]);
            chosen.fill(TERMINAL);
            progress.advance(size as u64);
        } else {
            let mover = game.player_of_turn(n - layer);
            let below = game.layer_size(layer - 1);
            let gains: Vec<u64> = packing.gains.iter().map(|g| g[mover]).collect();
            let stop = AtomicBool::new(false);
            let words = &mut cur[..size];
            // The mover reads its children keyed for itself; the words it writes are
            // keyed for the next mover.
            let (from_b, to_b) = (
                mover == 1,
                if layer < n {
                    keyed_b(layer)
                } else {
                    mover == 1
                },
            );
            macro_rules! go {
                ($from:literal, $to:literal) => {
                    decide_blocks(
                        &Blocks {
                            low: &low,
                            cells: Words {
                                prev: &prev[..below],
                                gains: &gains,
                                shift: packing.key_shift($from),
                                rekey: |w: u64| {
                                    if $from == $to {
                                        w
                                    } else {
                                        packing.pack($to, packing.fields($from, w))
                                    }
                                },
                            },
                            layer,
                            n,
                        },
                        words,
                        Vec::new(),
                        &mut chosen,
                        progress,
                        &stop,
                    )
                };
            }
            match (from_b, to_b) {
                (false, false) => go!(false, false),
                (false, true) => go!(false, true),
                (true, false) => go!(true, false),
                (true, true) => go!(true, true),
            }
            if stop.load(Ordering::Relaxed) || progress.cancelled() {
                progress.finish();
                return Err(EngineError::Cancelled);
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        choices.push(chosen);
    }
    progress.finish();
    let left = (n * n.saturating_sub(1) / 2) as u64;
    let root_b = n > 0 && game.player_of_turn(0) == 1;
    let value = packing
        .payoffs(root_b, prev[0], left)
        .into_iter()
        .map(P::from_integer)
        .collect();
    drop((prev, cur));
    from_choices(game, ties, value, &choices, states, bytes, progress)
}
