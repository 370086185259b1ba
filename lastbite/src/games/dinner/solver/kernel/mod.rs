//! The lean solver's layers of a plain dinner on the CPU, specialised: the engine's
//! [`engine::solve_lean`] walks any [`engine::RankedGame`] through the `Game` trait (a
//! vector of moves, a child state, its rank by table, a closure per child), which costs
//! about 40 ns a state; this kernel decides the same states with the same rule in a few
//! nanoseconds, and [`engine::path_from_choices`] reads the path back from its choice
//! bytes (those of the layers nearest the root; below them it solves the path's state
//! again) as after an engine solve.
//!
//! Most layers are decided block by block (`games/dinner/solver/blocks.rs`): the states that
//! share their high morsels lie together, and most of their children are read as
//! sequential streams. Under the index rule every player's payoff shares one packed word
//! a state where the utilities' totals fit it (`Packing`: two players, or three with
//! utilities to about 1,000); otherwise each player has a column of payoffs, 16 bits
//! wide where every total fits, the mover compares its
//! own column's (`Columns`, under the rules first and last) and the other columns are
//! gathered through the moves chosen. The rules friendly and antagonistic compare the
//! others' total on ties: with 32-bit payoffs the layer below holds a key a state for
//! such a mover, its payoff and the others' total in one 64-bit word (`tie_key`,
//! `Keys`).
//!
//! With wider payoffs those two rules walk their layers state by state, the children's
//! ranks without unranking. A state of `l` morsels
//! left, `p_0 < ... < p_(l-1)`, has colexicographic rank `r = sum_j C(p_j, j + 1)`;
//! removing `p_j` leaves `sum_(i<j) C(p_i, i + 1) + sum_(i>j) C(p_i, i)`, that is `r -
//! C(p_j, j + 1) - sum_(i>j) D(p_i, i)` with `D(p, i) = C(p, i + 1) - C(p, i)`: one
//! subtraction and two lookups a child. Both routes meet the moves in increasing morsel
//! order, as the engine does, and keep what the engine keeps.
//!
//! Covered: plain dinners (no discount, altruism or precedence; the index rule's offsets
//! are in the payoffs) whose choice bytes fit the memory budget, with any tie rule per
//! player and any number of players; anything else goes to the engine
//! ([`solve`] returns `None`). It is checked against the engine on every tie rule, with 2
//! to 4 players, and on random dinners (tests below).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{
    self, EngineError, IndexedGame, LeanSolution, Payoff, Progress, RankedGame, TieBreak, Ties,
};

use crate::games::dinner::solver::blocks::{decide_blocks, Blocks, Low, MAX_SPLIT, SPLIT};
use crate::games::dinner::solver::game::DinnerGame;

mod cells;
mod packed;
mod shared;
#[cfg(test)]
mod tests;
mod walk;

use cells::*;
use packed::*;
#[cfg(feature = "gpu")]
pub(super) use shared::from_choices;
pub use shared::Word;
use shared::*;
use walk::*;

/// Solves a plain dinner's layers with the kernel, holding two buffers of the widest
/// layer's payoff vectors (one packed word a state under the index
/// rule) and the kept layers' choice bytes; `None` when the dinner is not
/// plain or its layers do not fit `memory` (the engine then solves it, re-solving for
/// the path if need be).
pub fn solve<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    memory: u128,
    progress: &dyn Progress,
) -> Option<Result<LeanSolution<DinnerGame<'g, P>>, EngineError>> {
    // The packed words where they fit (the faster route), else the columns.
    let (packing, bytes) = plan(game, ties)?
        .into_iter()
        .find(|&(_, bytes)| bytes <= memory)?;
    let pay = game.plain_payoffs()?;
    let n = game.layer_count() - 1;
    Some(match packing {
        Some(packing) => run_packed(game, ties, &packing, n, bytes, SPLIT, progress),
        None => run(game, ties, pay, n, bytes, SPLIT, progress),
    })
}

/// The bytes the kernel holds at its peak for a game; `None` when it does not take the
/// game (below this much memory the engine solves it).
#[cfg(test)]
pub(in crate::games::dinner::solver) fn bytes<P: Word>(
    game: &DinnerGame<'_, P>,
    ties: &Ties,
) -> Option<u128> {
    plan(game, ties)?.into_iter().map(|(_, bytes)| bytes).min()
}

/// The kernel's routes for a game, the one it prefers first (packed words, or columns
/// when `None`), each with the bytes it holds at its peak; `None` when the kernel does
/// not take the game.
fn plan<P: Word>(game: &DinnerGame<'_, P>, ties: &Ties) -> Option<Vec<(Option<Packing>, u128)>> {
    let pay = game.plain_payoffs()?;
    let n = game.layer_count() - 1;
    if n > 63 {
        return None;
    }
    // Two buffers of the widest layer's payoffs and a choice byte per state.
    let widest = (0..=n)
        .map(|l| game.layer_size(l) as u128)
        .max()
        .unwrap_or(1);
    let k = engine::Game::players(game) as u128;
    let size = std::mem::size_of::<P>() as u128;
    // The kept choice bytes beside the two layers; the base re-solved for the path
    // afterwards holds far less.
    let kept_bytes: u128 = (0..=n)
        .filter(|&l| kept(l, n))
        .map(|l| game.layer_size(l) as u128)
        .sum();
    let base = 1u128 << n.saturating_sub(KEPT_LAYERS);
    let held = |word: u128| (2 * widest * word + kept_bytes).max(base * (1 + k * size));
    // The index rule: one word a state instead of a payoff a player, and the layers
    // decided block by block (2 x 26 morsels: 0.74 s against 1.33 s in two columns, see
    // docs/performance-notes.md; 3 x 30 in 2.4 GB against 3.6 in three 32-bit columns).
    // Narrow columns may hold less (three 16-bit payoffs in 6 bytes).
    let mut routes: Vec<_> = Packing::of(game, ties, pay, n)
        .map(|packing| (Some(packing), held(8)))
        .into_iter()
        .collect();
    // Every partial sum (a payoff, the others' total) is at most the sum of all payoffs'
    // magnitudes; the game's own check covers the first, this one the second, which
    // narrow payoffs add in 32 bits (the keys) and wide ones in their own width.
    let total = pay
        .iter()
        .map(|p| p.to_integer().map(i128::unsigned_abs))
        .try_fold(0u128, |a, x| a.checked_add(x?));
    let fits = |t: i128| if P::NARROW { i32::fits(t) } else { P::fits(t) };
    if total.is_some_and(|t| t <= i128::MAX as u128 && fits(t as i128)) {
        // A column of 64-bit keys beside the payoffs for friendly and antagonistic movers.
        let keys = if keyed(ties, k as usize, P::NARROW) {
            8
        } else {
            0
        };
        routes.push((None, held(k * size + keys)));
    }
    (!routes.is_empty()).then_some(routes)
}

/// Solves the layers in columns of payoffs, a player's each, block by block (low
/// morsels `0..split`, [`blocks`](crate::games::dinner::solver::blocks)): the rules first and last compare the
/// mover's column, friendly and antagonistic a column of keys (32-bit payoffs); with
/// wider payoffs those two walk their layers state by state.
fn run<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    pay: &[P],
    n: usize,
    bytes: u128,
    split: usize,
    progress: &dyn Progress,
) -> Result<LeanSolution<DinnerGame<'g, P>>, EngineError> {
    let k = engine::Game::players(game);
    let table = Binomials::new();
    let low = Low::new(split.min(n).min(MAX_SPLIT));
    let states: u128 = (0..=n).map(|l| game.layer_size(l) as u128).sum();
    progress.start(states as u64, "states");
    let mut choices: Vec<Vec<u8>> = Vec::with_capacity(n + 1);
    // Two buffers of the widest layer, reused (a fresh layer each time would be faulted
    // in again), each holding one column of payoffs a player: the
    // mover's comparisons then read 8 bytes a child, not a whole vector.
    let stride = (0..=n).map(|l| game.layer_size(l)).max().unwrap_or(1);
    let (mut prev, mut cur) = (
        zeroed::<P>(stride * k, bytes)?,
        zeroed::<P>(stride * k, bytes)?,
    );
    // Friendly and antagonistic movers with 32-bit payoffs read a column of keys too.
    let (mut prev_keys, mut cur_keys) = if keyed(ties, k, P::NARROW) {
        (zeroed::<i64>(stride, bytes)?, zeroed::<i64>(stride, bytes)?)
    } else {
        (Vec::new(), Vec::new())
    };
    for layer in 0..=n {
        let size = game.layer_size(layer);
        // Every state's byte is written below.
        let mut chosen = choice_bytes(layer, n, size, bytes)?;
        if layer > 0 {
            let mover = game.player_of_turn(n - layer);
            let below = game.layer_size(layer - 1);
            let own_pay: Vec<P> = (0..n).map(|i| pay[i * k + mover]).collect();
            let stop = AtomicBool::new(false);
            let mut columns: Vec<&mut [P]> =
                cur.chunks_mut(stride).map(|c| &mut c[..size]).collect();
            let prev: Vec<&[P]> = prev.chunks(stride).map(|c| &c[..below]).collect();
            let rule = ties.of(mover);
            if P::NARROW && matches!(rule, TieBreak::Friendly | TieBreak::Antagonistic) {
                decide_blocks(
                    &Blocks {
                        low: &low,
                        cells: Keys {
                            keys: &prev_keys[..below],
                            gains: own_pay.iter().map(|&g| (g.narrow() as i64) << 32).collect(),
                            prev,
                            mover,
                        },
                        layer,
                        n,
                    },
                    &mut cur_keys[..size],
                    columns,
                    &mut chosen,
                    progress,
                    &stop,
                )
            } else if matches!(rule, TieBreak::First | TieBreak::Last) {
                let words = columns.remove(mover);
                let others = (0..k).filter(|&q| q != mover).map(|q| prev[q]).collect();
                macro_rules! go {
                    ($last:literal) => {
                        decide_blocks(
                            &Blocks {
                                low: &low,
                                cells: Columns::<P, $last> {
                                    own: prev[mover],
                                    gains: &own_pay,
                                    others,
                                },
                                layer,
                                n,
                            },
                            words,
                            columns,
                            &mut chosen,
                            progress,
                            &stop,
                        )
                    };
                }
                if matches!(rule, TieBreak::Last) {
                    go!(true)
                } else {
                    go!(false)
                }
            } else {
                let job = Layer {
                    table: &table,
                    own_pay,
                    prev,
                    layer,
                    n,
                    mover,
                };
                macro_rules! go {
                    ($k:literal, $antagonistic:literal) => {
                        decide_layer::<P, $k, $antagonistic>(
                            &job,
                            columns,
                            &mut chosen,
                            progress,
                            &stop,
                        )
                    };
                    ($antagonistic:literal) => {
                        match k {
                            2 => go!(2, $antagonistic),
                            3 => go!(3, $antagonistic),
                            _ => go!(0, $antagonistic),
                        }
                    };
                }
                if matches!(rule, TieBreak::Antagonistic) {
                    go!(true)
                } else {
                    go!(false)
                }
            }
            if stop.load(Ordering::Relaxed) || progress.cancelled() {
                progress.finish();
                return Err(EngineError::Cancelled);
            }
        } else {
            // The empty plate: nothing more to eat.
            cur.iter_mut()
                .step_by(stride)
                .for_each(|x| *x = P::default());
            chosen.fill(TERMINAL);
            progress.advance(size as u64);
        }
        // The keys of the layer for its reader, when its rule needs them.
        if layer < n && !cur_keys.is_empty() {
            let next = game.player_of_turn(n - layer - 1);
            if let rule @ (TieBreak::Friendly | TieBreak::Antagonistic) = ties.of(next) {
                let columns: Vec<&[P]> = cur.chunks(stride).map(|c| &c[..size]).collect();
                let antagonistic = matches!(rule, TieBreak::Antagonistic);
                write_keys(&columns, &mut cur_keys[..size], next, antagonistic);
            }
        }
        choices.push(chosen);
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut prev_keys, &mut cur_keys);
    }
    progress.finish();
    // The top layer holds the root alone, rank 0 of each column.
    let value = prev.iter().step_by(stride).copied().collect();
    drop((prev, cur, prev_keys, cur_keys));
    from_choices(game, ties, value, &choices, states, bytes, progress)
}

/// Whether a layered solve keeps a column of [`tie_key`]s: some player's rule is friendly
/// or antagonistic and the payoffs are `narrow` (32 bits).
fn keyed(ties: &Ties, players: usize, narrow: bool) -> bool {
    narrow
        && (0..players).any(|q| matches!(ties.of(q), TieBreak::Friendly | TieBreak::Antagonistic))
}
