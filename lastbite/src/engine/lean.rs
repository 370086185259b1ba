//! The memory-lean exact solver: backward induction over a layered game that keeps only
//! two adjacent layers of payoff vectors, each indexed by its states' rank inside the
//! layer, and one choice byte per state from which the equilibrium path is read back.
//!
//! When the choice bytes do not fit the memory it is given, the solver keeps none and
//! recovers the path by re-solving: the state reached after `j` moves is the top of the
//! states reachable from it ([`RankedGame::below`]; for a dinner, the subsets of the
//! morsels left), and a sweep of that sub-lattice ends with the state's own choice. The
//! sub-lattices of a dinner's path have `2^(n-1), 2^(n-2), ...` states, so the path
//! costs about one more solve and saves `2^n` bytes (4 GiB at 32 morsels). The states
//! keep their numbering in the whole game, so tie rules that refer to it (the dinner's
//! index rule, `first` and `last` by move order) decide them as in the first solve.
//!
//! For a dinner of `n` morsels the full table holds `2^n` payoff vectors; the lean solver
//! holds `C(n, l) + C(n, l - 1)` of them at layer `l` (at most about `2^n * 1.6 / sqrt(n)`)
//! plus `2^n` bytes of choices: 3 players x 30 morsels takes 8.2 GB instead of 25.8 GB.
//! Every state is decided by the same selection ([`super::solve`]'s `evaluate`) as the
//! full-table solver, so both give the same values and the same path.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::evaluate::{evaluate, terminal_value, Scratch};
use super::{Budget, EngineError, Game, IndexedGame, Payoff, Player, Progress, Ties};
use crate::par::prelude::*;

/// A numbering of states layer by layer: layer `l` holds the states of rank
/// `0..layer_size(l)`, and every move leads from layer `l` to layer `l - 1`. A whole
/// [`RankedGame`] is one; so are the states reachable from one state
/// ([`RankedGame::below`]), which the lean solver re-solves to recover its path when a
/// choice byte per state does not fit its memory.
pub trait Lattice: Sync {
    /// Number of layers; the top one is `layers() - 1`.
    fn layers(&self) -> usize;
    /// The number of states in `layer`.
    fn layer_size(&self, layer: usize) -> usize;
    /// The rank of a game index inside its layer.
    fn rank(&self, index: usize) -> usize;
    /// The game index of the state of rank `rank` in `layer`.
    fn unrank(&self, layer: usize, rank: usize) -> usize;
    /// The game index of the next state of the same layer (rank plus one).
    fn next_in_layer(&self, layer: usize, index: usize) -> usize;
}

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
    /// The states reachable from the state of index `top` (itself included), numbered
    /// layer by layer on their own: layer `l` of it holds the reachable states of the
    /// game's layer `l`, and its top layer is `top`'s. A dinner's are the subsets of the
    /// morsels left at `top`. `None`, the default, for a game that cannot number them;
    /// the lean solver then always keeps a choice byte per state.
    fn below(&self, _top: usize) -> Option<Box<dyn Lattice + '_>> {
        None
    }
}

/// A whole [`RankedGame`] as a [`Lattice`].
struct Whole<'g, G>(&'g G);

impl<G: RankedGame> Lattice for Whole<'_, G> {
    fn layers(&self) -> usize {
        self.0.layer_count()
    }
    fn layer_size(&self, layer: usize) -> usize {
        self.0.layer_size(layer)
    }
    #[inline]
    fn rank(&self, index: usize) -> usize {
        self.0.rank(index)
    }
    fn unrank(&self, layer: usize, rank: usize) -> usize {
        self.0.unrank(layer, rank)
    }
    #[inline]
    fn next_in_layer(&self, layer: usize, index: usize) -> usize {
        self.0.next_in_layer(layer, index)
    }
}

/// The states of a lattice, summed over its layers.
fn lattice_states<L: Lattice + ?Sized>(lattice: &L) -> u128 {
    (0..lattice.layers())
        .map(|l| lattice.layer_size(l) as u128)
        .sum()
}

/// The bytes the lean solver holds at once for a game when it keeps a choice byte per
/// state: the two largest adjacent layers of payoff vectors and the choices.
pub fn lean_bytes<G: RankedGame>(game: &G) -> u128 {
    let k = game.players() as u128;
    let p = std::mem::size_of::<G::Payoff>() as u128;
    lean_held_states(game) * k * p + lattice_states(&Whole(game))
}

/// The bytes the lean solver holds at once for a game when it recovers the path by
/// re-solving: the two largest adjacent layers of payoff vectors and one layer's choices.
pub fn lean_bytes_resolving<G: RankedGame>(game: &G) -> u128 {
    let k = game.players() as u128;
    let p = std::mem::size_of::<G::Payoff>() as u128;
    let widest = (0..game.layer_count())
        .map(|l| game.layer_size(l) as u128)
        .max()
        .unwrap_or(0);
    lean_held_states(game) * k * p + widest
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

/// An equilibrium path of a game, step by step.
pub type LeanPath<G> = Vec<LeanStep<<G as Game>::State, <G as Game>::Move>>;

/// How the lean solver read its equilibrium path back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathRecovery {
    /// From one choice byte per state, kept as the layers were solved.
    ChoiceBytes,
    /// By solving again, at each state of the path, the states reachable from it
    /// ([`RankedGame::below`]): no choices kept, about twice the work for a dinner.
    Resolving,
}

impl PathRecovery {
    /// A short name for reports: `choice bytes` or `re-solving`.
    pub fn name(self) -> &'static str {
        match self {
            PathRecovery::ChoiceBytes => "choice bytes",
            PathRecovery::Resolving => "re-solving",
        }
    }
}

/// What the lean solver keeps: the root's equilibrium payoff vector and the path.
#[derive(Debug, Clone)]
pub struct LeanSolution<G: Game> {
    /// The root's payoff vector.
    pub value: Vec<G::Payoff>,
    /// The equilibrium path from the root.
    pub path: Vec<LeanStep<G::State, G::Move>>,
    /// States solved (the game's; re-solved ones are counted in `resolved`).
    pub states: u64,
    /// States solved again to recover the path (0 with choice bytes).
    pub resolved: u64,
    /// How the path was recovered.
    pub recovery: PathRecovery,
    /// Bytes held at once ([`lean_bytes`] or [`lean_bytes_resolving`]).
    pub bytes: u128,
}

/// No move: the state is terminal.
const TERMINAL: u8 = u8::MAX;

/// What one sweep of a lattice leaves: the top layer's values and the choices of every
/// layer (all of them when asked to keep them, else only the top layer's).
struct Swept<P> {
    top: Vec<P>,
    choices: Vec<Vec<u8>>,
}

/// Solves the layers of `lattice` from the bottom up, holding two layers of values.
/// Progress is advanced, not started or finished: the caller owns the phase.
fn sweep<G: RankedGame, L: Lattice + ?Sized>(
    game: &G,
    lattice: &L,
    ties: &Ties,
    keep_choices: bool,
    bytes: u128,
    progress: &dyn Progress,
) -> Result<Swept<G::Payoff>, EngineError> {
    let k = game.players();
    let layers = lattice.layers();
    let mut choices: Vec<Vec<u8>> = Vec::with_capacity(layers);
    let mut prev: Vec<G::Payoff> = Vec::new();
    let broken = AtomicBool::new(false);
    let bad = AtomicUsize::new(0);
    // Chunks of ranks: enough of them for both cores, each entered by one unrank and
    // walked with `next_in_layer`.
    const CHUNK: usize = 1 << 12;
    for layer in 0..layers {
        let size = lattice.layer_size(layer);
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
            let mut idx = lattice.unrank(layer, first);
            for (j, pick) in picks.iter_mut().enumerate() {
                if j > 0 {
                    idx = lattice.next_in_layer(layer, idx);
                }
                let state = game.state_at(idx);
                let slot = &mut values[j * k..(j + 1) * k];
                let Some(mover) = game.to_move(&state) else {
                    terminal_value(game, &state, &mut scratch.best);
                    slot.clone_from_slice(&scratch.best);
                    continue;
                };
                let lookup = |child: &G::State| {
                    let r = lattice.rank(game.index(child));
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
            return Err(EngineError::Cancelled);
        }
        if broken.load(Ordering::Relaxed) {
            let from = bad.load(Ordering::Relaxed);
            return Err(EngineError::LayerOrder {
                from,
                to: from.wrapping_sub(1),
            });
        }
        if keep_choices || layer + 1 == layers {
            choices.push(chosen);
        } else {
            // Only the top layer's choices are read when re-solving; an empty layer keeps
            // the indices of the others.
            choices.push(Vec::new());
        }
        prev = cur;
    }
    Ok(Swept { top: prev, choices })
}

/// The equilibrium path from the root, each state's choice (its move's index in
/// [`Game::moves`], [`TERMINAL`] for none) given by `pick(index, layer)`.
fn walk_path<G: RankedGame>(
    game: &G,
    mut pick: impl FnMut(usize, usize) -> Result<u8, EngineError>,
) -> Result<LeanPath<G>, EngineError> {
    let mut path = Vec::new();
    let mut state = game.root();
    let mut moves = Vec::new();
    loop {
        let idx = game.index(&state);
        let Some(layer) = game.layer(idx) else {
            return Ok(path);
        };
        let Some(mover) = game.to_move(&state) else {
            return Ok(path);
        };
        let choice = pick(idx, layer)?;
        if choice == TERMINAL {
            return Ok(path);
        }
        moves.clear();
        game.moves(&state, &mut moves);
        let mv = moves
            .get(choice as usize)
            .cloned()
            .ok_or(EngineError::LayerOrder {
                from: layer,
                to: layer,
            })?;
        let next = game.play(&state, &mv);
        path.push(LeanStep { state, mover, mv });
        state = next;
    }
}

/// The equilibrium path read back from choice bytes, `choices[layer][rank]` (the move's
/// index in [`Game::moves`], 255 for none), as a solver that swept the layers elsewhere
/// (the dinner's CPU kernel, a GPU) keeps them, and the number of states solved again for
/// it. An empty `choices[layer]` was not kept.
///
/// A solver that keeps the bytes of the layers nearest the root alone saves nearly all
/// of them (the middle layers hold most states), and pays with one solve of a small
/// sub-lattice: at the first state of the path whose layer kept none, the states below it
/// ([`RankedGame::below`]) are swept once, keeping their choices, and the path goes on
/// through those. The states keep their numbering in the whole game, so every tie rule
/// decides them as in the first solve. `bytes` is what that sweep may report when it runs
/// out of memory.
pub fn path_from_choices<G: RankedGame>(
    game: &G,
    ties: &Ties,
    choices: &[Vec<u8>],
    bytes: u128,
    progress: &dyn Progress,
) -> Result<(LeanPath<G>, u128), EngineError> {
    let stray = |layer: usize| EngineError::LayerOrder {
        from: layer,
        to: layer,
    };
    // The states below the first state without kept bytes, and their choices.
    type Base<'a> = (Box<dyn Lattice + 'a>, Vec<Vec<u8>>);
    let mut base: Option<Base<'_>> = None;
    let mut resolved = 0u128;
    let path = walk_path(game, |idx, layer| {
        if let Some(kept) = choices.get(layer).filter(|c| !c.is_empty()) {
            return kept.get(game.rank(idx)).copied().ok_or(stray(layer));
        }
        if base.is_none() {
            let below = game.below(idx).ok_or(stray(layer))?;
            resolved = lattice_states(&*below);
            progress.start(resolved as u64, "states re-solved for the path");
            let swept = sweep(game, &*below, ties, true, bytes, progress);
            progress.finish();
            base = Some((below, swept?.choices));
        }
        let (below, sub) = base.as_ref().ok_or(stray(layer))?;
        sub.get(layer)
            .and_then(|c| c.get(below.rank(idx)))
            .copied()
            .ok_or(stray(layer))
    })?;
    Ok((path, resolved))
}

/// Solves a [`RankedGame`] keeping two layers of values, refusing before allocating when
/// it would hold more than `memory` bytes ([`EngineError::OverMemory`]) or a state has
/// 255 moves or more.
///
/// The path is read back from a choice byte per state when those fit in `memory`
/// ([`lean_bytes`]); else, for a game that numbers the states below a state
/// ([`RankedGame::below`]), by re-solving below each state of the path
/// ([`lean_bytes_resolving`]): for a dinner the sub-lattices halve at each bite, so
/// this costs about one more solve and saves `2^n` bytes.
pub fn solve_lean<G: RankedGame>(
    game: &G,
    ties: &Ties,
    memory: u128,
    progress: &dyn Progress,
) -> Result<LeanSolution<G>, EngineError> {
    let k = game.players();
    let whole = Whole(game);
    let states = lattice_states(&whole);
    let root_index = game.index(&game.root());
    let with_choices = lean_bytes(game);
    let (recovery, bytes) = if with_choices <= memory || game.below(root_index).is_none() {
        (PathRecovery::ChoiceBytes, with_choices)
    } else {
        (PathRecovery::Resolving, lean_bytes_resolving(game))
    };
    if bytes > memory {
        return Err(EngineError::OverMemory {
            states,
            bytes,
            memory,
        });
    }
    let keep = recovery == PathRecovery::ChoiceBytes;
    progress.start(states as u64, "states");
    let swept = sweep(game, &whole, ties, keep, bytes, progress);
    progress.finish();
    let Swept { top, choices } = swept?;
    let r = root_rank(game, root_index)?;
    let value = top[r * k..(r + 1) * k].to_vec();
    drop(top);
    // The path: each state's choice, from its byte or from a solve of the states below
    // it (whose top layer is the state itself).
    let mut resolved = 0u128;
    let mut phase = false;
    let path = walk_path(game, |idx, layer| {
        if keep || idx == root_index {
            return Ok(choices[layer][game.rank(idx)]);
        }
        let below = game.below(idx).ok_or(EngineError::LayerOrder {
            from: layer,
            to: layer,
        })?;
        if !phase {
            // The sub-lattices of a dinner's path add up to about the game itself.
            progress.start(states as u64, "states re-solved for the path");
            phase = true;
        }
        let sub = sweep(game, &*below, ties, false, bytes, progress)?;
        resolved += lattice_states(&*below);
        let top_choices = sub.choices.last().map(Vec::as_slice).unwrap_or(&[]);
        top_choices
            .get(below.rank(idx))
            .copied()
            .ok_or(EngineError::LayerOrder {
                from: layer,
                to: layer,
            })
    });
    if phase {
        progress.finish();
    }
    let path = path?;
    Ok(LeanSolution {
        value,
        path,
        states: states as u64,
        resolved: resolved.min(u64::MAX as u128) as u64,
        recovery,
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
                                            super::evaluate::through(
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
