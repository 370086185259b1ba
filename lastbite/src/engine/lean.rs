//! The memory-lean exact solver: backward induction over a layered game that keeps only
//! two adjacent layers of payoff vectors, each indexed by its states' rank inside the
//! layer, and one choice byte per state from which the equilibrium path is read back.
//!
//! For a dinner of `n` morsels the full table holds `2^n` payoff vectors; the lean solver
//! holds `C(n, l) + C(n, l - 1)` of them at layer `l` (at most about `2^n * 1.6 / sqrt(n)`)
//! plus `2^n` bytes of choices: 3 players x 30 morsels takes 8.2 GB instead of 25.8 GB.
//! Every state is decided by the same selection ([`super::solve`]'s `evaluate`) as the
//! full-table solver, so both give the same values and the same path.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::solve::{evaluate, terminal_value, Scratch};
use super::{Budget, EngineError, Game, IndexedGame, Payoff, Player, Progress, Ties};
use crate::par::prelude::*;

/// A layered game whose states are numbered densely inside each layer: layer `l` has the
/// states of rank `0..layer_size(l)`, and every move leads from layer `l` to layer
/// `l - 1` (a dinner: the subsets of `l` morsels left, in colexicographic order).
pub trait RankedGame: IndexedGame {
    /// The number of states in `layer`.
    fn layer_size(&self, layer: usize) -> usize;
    /// The rank of an index inside its layer.
    fn rank(&self, index: usize) -> usize;
    /// The index of the state of rank `rank` in `layer`.
    fn unrank(&self, layer: usize, rank: usize) -> usize;
    /// The index of the next state of the same layer (rank plus one); games override it
    /// when that is cheaper than [`RankedGame::unrank`].
    fn next_in_layer(&self, layer: usize, index: usize) -> usize {
        self.unrank(layer, self.rank(index) + 1)
    }
}

/// The bytes the lean solver holds at once for a game: the two largest adjacent layers
/// of payoff vectors and one choice byte per state.
pub fn lean_bytes<G: RankedGame>(game: &G) -> u128 {
    let k = game.players() as u128;
    let p = std::mem::size_of::<G::Payoff>() as u128;
    let states: u128 = (0..game.layer_count())
        .map(|l| game.layer_size(l) as u128)
        .sum();
    lean_held_states(game) * k * p + states
}

/// The payoff vectors the lean solver holds at once: the two largest adjacent layers.
pub fn lean_held_states<G: RankedGame>(game: &G) -> u128 {
    let sizes: Vec<u128> = (0..game.layer_count())
        .map(|l| game.layer_size(l) as u128)
        .collect();
    sizes
        .windows(2)
        .map(|w| w[0] + w[1])
        .chain(sizes.first().copied())
        .max()
        .unwrap_or(0)
}

/// Refuses, before anything is allocated, a game whose two largest adjacent layers hold
/// more states than the budget ([`EngineError::TooManyHeld`], naming both counts).
pub fn check_held<G: RankedGame>(game: &G, budget: Budget) -> Result<(), EngineError> {
    let held = lean_held_states(game);
    if held > budget.max_states as u128 {
        return Err(EngineError::TooManyHeld {
            states: game.state_count(),
            held,
            budget: budget.max_states,
            bytes: lean_bytes(game),
        });
    }
    Ok(())
}

/// The root's rank in the top layer, where a layered solve leaves its value (an error
/// when the root is not in the top layer).
fn root_rank<G: RankedGame>(game: &G, root_index: usize) -> Result<usize, EngineError> {
    let top = game
        .layer(root_index)
        .ok_or(EngineError::LayerOrder { from: 0, to: 0 })?;
    if top + 1 != game.layer_count() {
        return Err(EngineError::LayerOrder {
            from: top,
            to: game.layer_count() - 1,
        });
    }
    Ok(game.rank(root_index))
}

/// One step of a lean solution's equilibrium path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeanStep<S, M> {
    /// The state before the move.
    pub state: S,
    /// Who moved.
    pub mover: Player,
    /// The move.
    pub mv: M,
}

/// What the lean solver keeps: the root's equilibrium payoff vector and the path.
#[derive(Debug, Clone)]
pub struct LeanSolution<G: Game> {
    /// The root's payoff vector.
    pub value: Vec<G::Payoff>,
    /// The equilibrium path from the root.
    pub path: Vec<LeanStep<G::State, G::Move>>,
    /// States solved.
    pub states: u64,
    /// Bytes held at once ([`lean_bytes`]).
    pub bytes: u128,
}

/// No move: the state is terminal.
const TERMINAL: u8 = u8::MAX;

/// Solves a [`RankedGame`] keeping two layers of values, refusing before allocating when
/// it would hold more than `memory` bytes or a state has 255 moves or more.
pub fn solve_lean<G: RankedGame>(
    game: &G,
    ties: &Ties,
    memory: u128,
    progress: &dyn Progress,
) -> Result<LeanSolution<G>, EngineError> {
    let k = game.players();
    let bytes = lean_bytes(game);
    let states: u128 = (0..game.layer_count())
        .map(|l| game.layer_size(l) as u128)
        .sum();
    if bytes > memory {
        return Err(EngineError::TooManyStates {
            states,
            budget: (memory / (k as u128 * std::mem::size_of::<G::Payoff>() as u128 + 1))
                .min(u64::MAX as u128) as u64,
            bytes,
        });
    }
    let mut choices: Vec<Vec<u8>> = Vec::with_capacity(game.layer_count());
    let mut prev: Vec<G::Payoff> = Vec::new();
    let broken = AtomicBool::new(false);
    let bad = AtomicUsize::new(0);
    progress.start(states as u64, "states");
    // Chunks of ranks: enough of them for both cores, each entered by one unrank and
    // walked with `next_in_layer`.
    const CHUNK: usize = 1 << 12;
    for layer in 0..game.layer_count() {
        let size = game.layer_size(layer);
        let mut cur: Vec<G::Payoff> = Vec::new();
        cur.try_reserve_exact(size * k)
            .map_err(|_| EngineError::OutOfMemory(bytes))?;
        cur.resize(size * k, G::Payoff::zero());
        let mut chosen = Vec::new();
        chosen
            .try_reserve_exact(size)
            .map_err(|_| EngineError::OutOfMemory(bytes))?;
        chosen.resize(size, TERMINAL);
        let prev_ref = &prev;
        let run = |(c, (values, picks)): (usize, (&mut [G::Payoff], &mut [u8])),
                   scratch: &mut Scratch<G>| {
            if progress.cancelled() {
                return;
            }
            let first = c * CHUNK;
            let mut idx = game.unrank(layer, first);
            for (j, pick) in picks.iter_mut().enumerate() {
                if j > 0 {
                    idx = game.next_in_layer(layer, idx);
                }
                let state = game.state_at(idx);
                let slot = &mut values[j * k..(j + 1) * k];
                let Some(mover) = game.to_move(&state) else {
                    terminal_value(game, &state, &mut scratch.best);
                    slot.clone_from_slice(&scratch.best);
                    continue;
                };
                let lookup = |child: &G::State| {
                    let r = game.rank(game.index(child));
                    if layer == 0 || (r + 1) * k > prev_ref.len() {
                        broken.store(true, Ordering::Relaxed);
                        bad.store(layer, Ordering::Relaxed);
                        return None;
                    }
                    Some(&prev_ref[r * k..(r + 1) * k])
                };
                match evaluate(game, ties.of(mover), &state, mover, lookup, scratch) {
                    Ok(Some((bi, cv))) => {
                        if bi >= TERMINAL as usize {
                            broken.store(true, Ordering::Relaxed);
                            return;
                        }
                        slot.clone_from_slice(cv);
                        game.add_move_payoffs(&state, &scratch.moves[bi], slot);
                        *pick = bi as u8;
                    }
                    Ok(None) => {
                        terminal_value(game, &state, &mut scratch.best);
                        slot.clone_from_slice(&scratch.best);
                    }
                    Err(_) => return,
                }
            }
            progress.advance(picks.len() as u64);
        };
        if size <= CHUNK {
            let mut scratch = Scratch::<G>::new(k);
            cur.chunks_mut(CHUNK * k)
                .zip(chosen.chunks_mut(CHUNK))
                .enumerate()
                .for_each(|c| run(c, &mut scratch));
        } else {
            cur.par_chunks_mut(CHUNK * k)
                .zip(chosen.par_chunks_mut(CHUNK))
                .enumerate()
                .for_each_init(|| Scratch::<G>::new(k), |scratch, c| run(c, scratch));
        }
        if progress.cancelled() {
            progress.finish();
            return Err(EngineError::Cancelled);
        }
        if broken.load(Ordering::Relaxed) {
            progress.finish();
            let from = bad.load(Ordering::Relaxed);
            return Err(EngineError::LayerOrder {
                from,
                to: from.wrapping_sub(1),
            });
        }
        choices.push(chosen);
        prev = cur;
    }
    progress.finish();
    // The path, read back from the choice bytes.
    let root = game.root();
    let root_index = game.index(&root);
    let r = root_rank(game, root_index)?;
    let value = prev[r * k..(r + 1) * k].to_vec();
    let mut path = Vec::new();
    let mut state = root;
    let mut moves = Vec::new();
    loop {
        let idx = game.index(&state);
        let Some(layer) = game.layer(idx) else { break };
        let pick = choices[layer][game.rank(idx)];
        let Some(mover) = game.to_move(&state) else {
            break;
        };
        if pick == TERMINAL {
            break;
        }
        moves.clear();
        game.moves(&state, &mut moves);
        let mv = moves[pick as usize].clone();
        let next = game.play(&state, &mv);
        path.push(LeanStep { state, mover, mv });
        state = next;
    }
    Ok(LeanSolution {
        value,
        path,
        states: states as u64,
        bytes,
    })
}

/// The equilibrium sets of a run of states of one layer: state `j` of the run has the
/// vectors `flat[off[j] * k..off[j + 1] * k]`.
struct SetRun<P> {
    off: Vec<u32>,
    flat: Vec<P>,
}

/// States a parallel work item of [`all_outcomes_lean`] (one unrank, then
/// `next_in_layer`); small, since one state's set can hold thousands of vectors.
const SET_RUN: usize = 1 << 10;

/// The distinct payoff vectors of all pure subgame perfect equilibria at the root of a
/// [`RankedGame`], sorted: [`super::all_outcomes`]'s rule state by state, but layer by
/// layer, keeping only two layers of sets, each stored flat (`k` payoffs a vector and
/// 4 bytes a state) instead of a hash map of vectors of vectors. The sets' sizes are not
/// known before they are computed, so the bytes held are counted as the layers fill, and
/// the run stops with [`EngineError::SetsTooLarge`] when they pass `memory`.
pub fn all_outcomes_lean<G: RankedGame>(
    game: &G,
    memory: u128,
    progress: &dyn Progress,
) -> Result<Vec<Vec<G::Payoff>>, EngineError> {
    let k = game.players();
    let states: u128 = (0..game.layer_count())
        .map(|l| game.layer_size(l) as u128)
        .sum();
    progress.start(states as u64, "states");
    let mut prev: Vec<SetRun<G::Payoff>> = Vec::new();
    let mut prev_bytes = 0u128;
    for layer in 0..game.layer_count() {
        let size = game.layer_size(layer);
        let held = std::sync::atomic::AtomicU64::new(0);
        let over = AtomicBool::new(false);
        let prev_ref = &prev;
        let terminal = |state: &G::State| -> Vec<Vec<G::Payoff>> {
            vec![(0..k).map(|p| game.terminal_payoff(state, p)).collect()]
        };
        let run = |c: usize| -> Result<SetRun<G::Payoff>, EngineError> {
            let first = c * SET_RUN;
            let len = SET_RUN.min(size - first);
            let mut out = SetRun {
                off: Vec::with_capacity(len + 1),
                flat: Vec::new(),
            };
            out.off.push(0);
            if progress.cancelled() || over.load(Ordering::Relaxed) {
                return Ok(out);
            }
            let mut moves = Vec::new();
            let mut shifted = Vec::with_capacity(k);
            let mut idx = game.unrank(layer, first);
            for j in 0..len {
                if j > 0 {
                    idx = game.next_in_layer(layer, idx);
                }
                let state = game.state_at(idx);
                moves.clear();
                let set = match game.to_move(&state) {
                    None => terminal(&state),
                    Some(mover) => {
                        game.moves(&state, &mut moves);
                        if moves.is_empty() {
                            terminal(&state)
                        } else {
                            let mut per_move = Vec::with_capacity(moves.len());
                            for mv in &moves {
                                let child = game.play(&state, mv);
                                let r = game.rank(game.index(&child));
                                let Some(run) =
                                    (layer > 0).then(|| prev_ref.get(r / SET_RUN)).flatten()
                                else {
                                    return Err(EngineError::LayerOrder {
                                        from: layer,
                                        to: layer.wrapping_sub(1),
                                    });
                                };
                                let at = r % SET_RUN;
                                let (lo, hi) = (run.off[at] as usize, run.off[at + 1] as usize);
                                per_move.push(
                                    run.flat[lo * k..hi * k]
                                        .chunks(k)
                                        .map(|v| {
                                            super::solve::through(
                                                game,
                                                &state,
                                                mv,
                                                v,
                                                &mut shifted,
                                            );
                                            shifted.clone()
                                        })
                                        .collect(),
                                );
                            }
                            super::outcomes::spe_set(mover, per_move)
                        }
                    }
                };
                for v in set {
                    out.flat.extend(v);
                }
                out.off.push((out.flat.len() / k) as u32);
            }
            let bytes =
                (out.flat.len() * std::mem::size_of::<G::Payoff>() + 4 * out.off.len()) as u64;
            let now = held.fetch_add(bytes, Ordering::Relaxed) + bytes;
            if prev_bytes + u128::from(now) > memory {
                over.store(true, Ordering::Relaxed);
            }
            progress.advance(len as u64);
            Ok(out)
        };
        let runs = size.div_ceil(SET_RUN);
        let cur: Vec<SetRun<G::Payoff>> = if runs <= 1 {
            (0..runs).map(run).collect::<Result<_, _>>()?
        } else {
            (0..runs)
                .into_par_iter()
                .map(run)
                .collect::<Result<_, _>>()?
        };
        if progress.cancelled() {
            progress.finish();
            return Err(EngineError::Cancelled);
        }
        let cur_bytes = u128::from(held.load(Ordering::Relaxed));
        if over.load(Ordering::Relaxed) {
            progress.finish();
            return Err(EngineError::SetsTooLarge {
                layer,
                bytes: prev_bytes + cur_bytes,
                budget: memory,
            });
        }
        prev = cur;
        prev_bytes = cur_bytes;
    }
    progress.finish();
    let r = root_rank(game, game.index(&game.root()))?;
    let run = &prev[r / SET_RUN];
    let (lo, hi) = (
        run.off[r % SET_RUN] as usize,
        run.off[r % SET_RUN + 1] as usize,
    );
    Ok(run.flat[lo * k..hi * k]
        .chunks(k)
        .map(<[_]>::to_vec)
        .collect())
}
