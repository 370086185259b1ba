//! Backward induction: the sparse (hash map) and dense (indexed table) solvers, and the
//! [`Solution`] they share.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::par::prelude::*;

use super::chance::weights;
use super::evaluate::{evaluate, evaluate_into, expectation, terminal_value, through, Scratch};
use super::table::StateTable;
use super::{
    Budget, EngineError, Game, IndexedGame, Payoff, Player, Progress, Reason, TieBreak, Ties,
    CHANCE,
};

/// How a dense solution finds a state's row.
type IndexFn<'g, S> = Box<dyn Fn(&S) -> usize + Send + Sync + 'g>;

enum Table<'g, G: Game> {
    Sparse(StateTable<'g, G, Box<[G::Payoff]>>),
    Dense {
        values: Vec<G::Payoff>,
        index: IndexFn<'g, G::State>,
    },
}

/// The solved game: each state's equilibrium payoff vector under the chosen tie-breaking,
/// and from it every choice, explanation and the equilibrium path.
///
/// ```
/// use lastbite::engine::{solve, Budget, Ties, TieBreak};
/// use lastbite::games::dinner::{Dinner, DinnerGame, Setup, TurnOrder};
/// // The introduction's dinner, Alice moving first and last.
/// let dinner = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
/// let order = TurnOrder::parse("ABA", &dinner).unwrap();
/// let setup = Setup::ordered(dinner.clone(), order.clone()).unwrap();
/// let game = DinnerGame::<i64>::new(&setup, false).unwrap();
/// let sol = solve(&game, &Ties::uniform(TieBreak::First, 2), Budget::default()).unwrap();
/// assert_eq!(sol.root_value(), &[5, 2]);
/// ```
pub struct Solution<'g, G: Game> {
    game: &'g G,
    ties: Ties,
    table: Table<'g, G>,
    states: u64,
}

/// A choice made at one state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice<M, P> {
    /// The player to move.
    pub mover: Player,
    /// The equilibrium move (after tie-breaking).
    pub selected: M,
    /// Every move that yields the equilibrium payoff vector, in move order.
    pub optimal: Vec<M>,
    /// The equilibrium payoff vector.
    pub value: Vec<P>,
    /// Which rule decided.
    pub reason: Reason,
}

/// One legal move in an [`Explanation`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveLine<M, P> {
    /// The move.
    pub mv: M,
    /// Its label.
    pub label: String,
    /// The payoff vector it leads to (move payoff plus the child's equilibrium value).
    pub value: Vec<P>,
    /// Its probability, at a chance state.
    pub probability: Option<P>,
    /// Whether it maximises the mover's own payoff.
    pub best_for_mover: bool,
    /// Whether it yields the equilibrium payoff vector.
    pub optimal: bool,
    /// Whether it is the selected equilibrium move.
    pub selected: bool,
}

/// Every legal move at a state with the payoff vector it leads to, and why the
/// equilibrium move was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation<S, M, P> {
    /// The state explained.
    pub state: S,
    /// The player to move ([`CHANCE`] at a chance state).
    pub mover: Player,
    /// The mover's tie-breaking rule (`None` at a chance state).
    pub rule: Option<TieBreak>,
    /// The legal moves in move order.
    pub lines: Vec<MoveLine<M, P>>,
    /// Which rule selected the equilibrium move.
    pub reason: Reason,
}

/// One move of the equilibrium path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step<S, M> {
    /// The state before the move.
    pub state: S,
    /// Who moved.
    pub mover: Player,
    /// The move.
    pub mv: M,
    /// Every optimal move at that state (more than one when the choice was a tie).
    pub optimal: Vec<M>,
    /// Which rule decided.
    pub reason: Reason,
}

impl<'g, G: Game> Solution<'g, G> {
    /// The game solved.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The tie-breaking rules used.
    pub fn ties(&self) -> &Ties {
        &self.ties
    }

    /// Number of states solved.
    pub fn states(&self) -> u64 {
        self.states
    }

    /// The equilibrium payoff vector of a solved state.
    pub fn value(&self, state: &G::State) -> Option<&[G::Payoff]> {
        let k = self.game.players();
        match &self.table {
            Table::Sparse(map) => map.get(state).map(|b| &**b),
            Table::Dense { values, index } => {
                let i = index(state);
                values.get(i * k..(i + 1) * k)
            }
        }
    }

    /// The equilibrium payoff vector at the root.
    pub fn root_value(&self) -> &[G::Payoff] {
        self.value(&self.game.root())
            .expect("the root is always solved")
    }

    /// Every legal move at `state` with its payoff vector and the reason for the choice;
    /// `None` at terminal or unsolved states.
    pub fn explain(&self, state: &G::State) -> Option<Explanation<G::State, G::Move, G::Payoff>> {
        let game = self.game;
        let mover = game.to_move(state)?;
        let mut moves = Vec::new();
        game.moves(state, &mut moves);
        if moves.is_empty() {
            return None;
        }
        let mut values = Vec::with_capacity(moves.len());
        for mv in &moves {
            let child = game.play(state, mv);
            let mut v = Vec::new();
            through(game, state, mv, self.value(&child)?, &mut v);
            values.push(v);
        }
        if mover == CHANCE {
            let mut probs = Vec::new();
            weights(game, state, &moves, &mut probs).ok()?;
            let lines = moves
                .into_iter()
                .zip(values)
                .zip(probs)
                .map(|((mv, value), p)| MoveLine {
                    label: game.move_label(state, &mv),
                    best_for_mover: false,
                    optimal: false,
                    selected: false,
                    probability: Some(p),
                    mv,
                    value,
                })
                .collect();
            return Some(Explanation {
                state: state.clone(),
                mover,
                rule: None,
                lines,
                reason: Reason::Chance,
            });
        }
        let rule = self.ties.of(mover);
        let mut selected = 0;
        for i in 1..values.len() {
            if rule.prefers(mover, &values[i], &values[selected]) {
                selected = i;
            }
        }
        let own_best = values.iter().map(|v| &v[mover]).max().cloned()?;
        let tied = values.iter().filter(|v| v[mover] == own_best).count();
        let reason = if moves.len() == 1 {
            Reason::OnlyMove
        } else if tied > 1 {
            Reason::TieBreak(rule)
        } else {
            Reason::OwnPayoff
        };
        let chosen = values[selected].clone();
        let lines = moves
            .into_iter()
            .zip(values)
            .enumerate()
            .map(|(i, (mv, value))| MoveLine {
                label: game.move_label(state, &mv),
                best_for_mover: value[mover] == own_best,
                optimal: value == chosen,
                selected: i == selected,
                probability: None,
                mv,
                value,
            })
            .collect();
        Some(Explanation {
            state: state.clone(),
            mover,
            rule: Some(rule),
            lines,
            reason,
        })
    }

    /// The equilibrium choice at `state`; `None` at terminal, chance or unsolved states.
    pub fn choice(&self, state: &G::State) -> Option<Choice<G::Move, G::Payoff>> {
        let e = self.explain(state)?;
        let selected = e.lines.iter().find(|l| l.selected)?;
        Some(Choice {
            mover: e.mover,
            selected: selected.mv.clone(),
            value: selected.value.clone(),
            optimal: e
                .lines
                .iter()
                .filter(|l| l.optimal)
                .map(|l| l.mv.clone())
                .collect(),
            reason: e.reason,
        })
    }

    /// Every solved state (each once), breadth first from the root, children in move
    /// order: the order is the game's, not the hash map's, so two runs list the same
    /// states in the same order.
    pub fn solved_states(&self) -> Vec<G::State> {
        let root = self.game.root();
        let mut seen = std::collections::HashSet::from([root.clone()]);
        let mut order = vec![root];
        let mut moves = Vec::new();
        let mut next = 0;
        while next < order.len() {
            let state = order[next].clone();
            next += 1;
            if self.game.to_move(&state).is_none() {
                continue;
            }
            moves.clear();
            self.game.moves(&state, &mut moves);
            for m in &moves {
                let child = self.game.play(&state, m);
                if seen.insert(child.clone()) {
                    order.push(child);
                }
            }
        }
        order
    }

    /// The equilibrium path from the root, up to the first chance state (the whole path
    /// in a game without chance; [`Solution::play_tree`] branches at chance states).
    pub fn path(&self) -> Vec<Step<G::State, G::Move>> {
        self.path_from(self.game.root())
    }

    /// The equilibrium path from any solved state, up to the first chance state.
    pub fn path_from(&self, mut state: G::State) -> Vec<Step<G::State, G::Move>> {
        let mut steps = Vec::new();
        while let Some(c) = self.choice(&state) {
            let next = self.game.play(&state, &c.selected);
            steps.push(Step {
                state,
                mover: c.mover,
                mv: c.selected,
                optimal: c.optimal,
                reason: c.reason,
            });
            state = next;
        }
        steps
    }

    /// Equilibrium play from `state` as a tree: the players' moves up to a chance state,
    /// which branches into each of its moves of positive probability, each followed the
    /// same way. Refuses a tree of more than `limit` steps and branches
    /// ([`EngineError::TreeTooLarge`]): with many chance states it grows exponentially.
    pub fn play_tree(&self, state: G::State, limit: u128) -> Result<PlayOf<G>, EngineError> {
        let mut count = 0u128;
        self.play_from(state, limit, &mut count)
    }

    fn play_from(
        &self,
        state: G::State,
        limit: u128,
        count: &mut u128,
    ) -> Result<PlayOf<G>, EngineError> {
        let steps = self.path_from(state.clone());
        *count += steps.len() as u128;
        let too_large = |nodes| EngineError::TreeTooLarge { nodes, limit };
        if *count > limit {
            return Err(too_large(*count));
        }
        let end = match steps.last() {
            Some(last) => self.game.play(&last.state, &last.mv),
            None => state,
        };
        let mut chance = None;
        if let Some(e) = self.explain(&end).filter(|e| e.mover == CHANCE) {
            let mut outcomes = Vec::new();
            for line in e.lines {
                let Some(p) = line.probability.filter(|p| *p != G::Payoff::zero()) else {
                    continue;
                };
                *count += 1;
                if *count > limit {
                    return Err(too_large(*count));
                }
                let child = self.game.play(&end, &line.mv);
                outcomes.push(Branch {
                    play: self.play_from(child, limit, count)?,
                    mv: line.mv,
                    probability: p,
                });
            }
            chance = Some(ChanceStep {
                state: end,
                outcomes,
            });
        }
        Ok(Play { steps, chance })
    }
}

/// Equilibrium play from a state ([`Solution::play_tree`]): the players' moves, then
/// the chance state it reaches, if any, with every outcome's continuation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Play<S, M, P> {
    /// The players' equilibrium moves, in order.
    pub steps: Vec<Step<S, M>>,
    /// The chance state reached after them (`None` when play ended at a terminal state).
    pub chance: Option<ChanceStep<S, M, P>>,
}

/// A chance state on equilibrium play and what follows each of its outcomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChanceStep<S, M, P> {
    /// The chance state.
    pub state: S,
    /// Its moves of positive probability, in move order.
    pub outcomes: Vec<Branch<S, M, P>>,
}

/// One outcome of a chance state and the equilibrium play after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch<S, M, P> {
    /// The chance move.
    pub mv: M,
    /// Its probability.
    pub probability: P,
    /// Play after it.
    pub play: Play<S, M, P>,
}

/// The [`Play`] type of a game.
pub type PlayOf<G> = Play<<G as Game>::State, <G as Game>::Move, <G as Game>::Payoff>;

/// Solves every state reachable from the root, memoised in a hash map (depth-first,
/// with an explicit stack so deep games do not overflow the call stack).
pub fn solve<'g, G: Game>(
    game: &'g G,
    ties: &Ties,
    budget: Budget,
) -> Result<Solution<'g, G>, EngineError> {
    let mut scratch = Scratch::<G>::new(game.players());
    let table = backward(
        game,
        budget,
        |state| {
            let mut v = Vec::new();
            terminal_value(game, state, &mut v);
            v.into_boxed_slice()
        },
        |state, mover, lookup| {
            let cycle = |child: G::State| EngineError::Cycle(game.state_text(&child));
            if mover == CHANCE {
                let lookup = |s: &G::State| lookup(s).map(|b| &**b);
                expectation(game, state, lookup, &mut scratch).map_err(cycle)??;
            } else {
                let rule = ties.of(mover);
                let lookup = |s: &G::State| lookup(s).map(|b| &**b);
                evaluate_into(game, rule, state, mover, lookup, &mut scratch).map_err(cycle)?;
            }
            Ok(scratch.best.clone().into_boxed_slice())
        },
    )?;
    let states = table.len() as u64;
    Ok(Solution {
        game,
        ties: ties.clone(),
        table: Table::Sparse(table),
        states,
    })
}

/// The depth-first skeleton shared by [`solve`], [`super::all_outcomes`] and
/// [`super::verify`]: every state reachable from the root gets a value `V`, terminal
/// states from `terminal`, the others from `decide` once all their children have one.
pub(crate) fn backward<'g, G: Game, V>(
    game: &'g G,
    budget: Budget,
    mut terminal: impl FnMut(&G::State) -> V,
    mut decide: impl for<'t> FnMut(
        &G::State,
        Player,
        &'t dyn Fn(&G::State) -> Option<&'t V>,
    ) -> Result<V, EngineError>,
) -> Result<StateTable<'g, G, V>, EngineError> {
    let k = game.players();
    let mut table = StateTable::new(game);
    let mut on_path = StateTable::new(game);
    let mut stack = vec![(game.root(), false)];
    let mut moves = Vec::new();
    while let Some((state, expanded)) = stack.pop() {
        if table.contains_key(&state) {
            continue;
        }
        let Some(mover) = game.to_move(&state) else {
            let v = terminal(&state);
            table.insert(state, v);
            continue;
        };
        if !expanded {
            moves.clear();
            game.moves(&state, &mut moves);
            on_path.insert(state.clone(), ());
            // The expanded entry goes below its children, so it is solved after them.
            stack.push((state.clone(), true));
            for mv in &moves {
                let child = game.play(&state, mv);
                if on_path.contains_key(&child) {
                    return Err(EngineError::Cycle(game.state_text(&child)));
                }
                if !table.contains_key(&child) {
                    stack.push((child, false));
                }
            }
        } else {
            on_path.remove(&state);
            let lookup = |s: &G::State| table.get(s);
            let v = decide(&state, mover, &lookup)?;
            table.insert(state, v);
            if table.len() as u64 > budget.max_states {
                return Err(EngineError::TooManyStates {
                    states: table.len() as u128,
                    budget: budget.max_states,
                    bytes: table.len() as u128 * state_bytes::<G>(k),
                });
            }
        }
    }
    Ok(table)
}

fn state_bytes<G: Game>(players: usize) -> u128 {
    (players * std::mem::size_of::<G::Payoff>()) as u128
}

/// A raw view of the dense table shared by the workers of one layer.
struct SharedTable<P> {
    ptr: *mut P,
    len: usize,
}

// SAFETY: workers of a layer write disjoint entries of that layer and read only entries
// of lower layers, which no one writes during the layer (checked before each read).
unsafe impl<P: Send> Sync for SharedTable<P> {}
unsafe impl<P: Send> Send for SharedTable<P> {}

impl<P> SharedTable<P> {
    /// # Safety
    /// Entries `at..at + k` must not be written concurrently.
    unsafe fn slice(&self, at: usize, k: usize) -> &[P] {
        unsafe {
            debug_assert!(at + k <= self.len);
            std::slice::from_raw_parts(self.ptr.add(at), k)
        }
    }

    /// # Safety
    /// Entries `at..at + k` must be initialised and accessed by no other thread meanwhile.
    #[allow(clippy::mut_from_ref)]
    unsafe fn slice_mut(&self, at: usize, k: usize) -> &mut [P] {
        unsafe {
            debug_assert!(at + k <= self.len);
            std::slice::from_raw_parts_mut(self.ptr.add(at), k)
        }
    }
}

/// Solves every state of an indexed game into a dense table, one layer at a time, each
/// layer in parallel with rayon.
///
/// Refuses, before allocating, a state space over `budget.max_states`, and reports an
/// allocation failure as [`EngineError::OutOfMemory`] instead of aborting.
pub fn solve_dense<'g, G: IndexedGame>(
    game: &'g G,
    ties: &Ties,
    budget: Budget,
    progress: &dyn Progress,
) -> Result<Solution<'g, G>, EngineError> {
    let k = game.players();
    let count = game.state_count();
    let bytes = count.saturating_mul(state_bytes::<G>(k));
    if count > budget.max_states as u128 {
        return Err(EngineError::TooManyStates {
            states: count,
            budget: budget.max_states,
            bytes,
        });
    }
    let n = count as usize;
    let len = n.checked_mul(k).ok_or(EngineError::OutOfMemory(bytes))?;
    let mut values: Vec<G::Payoff> = Vec::new();
    values
        .try_reserve_exact(len)
        .map_err(|_| EngineError::OutOfMemory(bytes))?;
    values.resize(len, G::Payoff::zero());

    let shared = SharedTable {
        ptr: values.as_mut_ptr(),
        len,
    };
    let broken = AtomicBool::new(false);
    let bad_chance = std::sync::Mutex::new(None);
    let solved = AtomicUsize::new(0);
    let bad_layers = (AtomicUsize::new(0), AtomicUsize::new(0));
    // Blocks are aligned powers of two so subset games can enumerate a layer inside a
    // block directly (see `IndexedGame::layer_members`); small tables get small blocks
    // so both cores have work.
    let block = (n / (crate::par::current_num_threads() * 16))
        .next_power_of_two()
        .clamp(1 << 10, 1 << 16);
    let blocks = n.div_ceil(block);
    progress.start(count as u64, "states");
    for layer in 0..game.layer_count() {
        let run_block = |(scratch, members): &mut (Scratch<G>, Vec<usize>), b: usize| {
            // A middle layer of a large table takes seconds: stop within a block, not
            // only between layers (the layer is then discarded below).
            if progress.cancelled() {
                return;
            }
            members.clear();
            game.layer_members(layer, b * block..((b + 1) * block).min(n), members);
            let done = members.len() as u64;
            for &idx in members.iter() {
                let state = game.state_at(idx);
                let selected = match game.to_move(&state) {
                    None => None,
                    Some(mover) => {
                        let lookup = |child: &G::State| {
                            let ci = game.index(child);
                            match game.layer(ci) {
                                Some(l) if l < layer && ci < n => {
                                    // SAFETY: entry `ci` lies in a finished lower layer.
                                    Some(unsafe { shared.slice(ci * k, k) })
                                }
                                other => {
                                    broken.store(true, Ordering::Relaxed);
                                    bad_layers.0.store(layer, Ordering::Relaxed);
                                    bad_layers
                                        .1
                                        .store(other.unwrap_or(usize::MAX), Ordering::Relaxed);
                                    None
                                }
                            }
                        };
                        if mover == CHANCE {
                            match expectation(game, &state, lookup, scratch) {
                                Ok(Ok(())) => {}
                                Ok(Err(e)) => {
                                    bad_chance.lock().map(|mut b| *b = Some(e)).ok();
                                    return;
                                }
                                Err(_) => return,
                            }
                            // SAFETY: as for the entries written below.
                            let slot = unsafe { shared.slice_mut(idx * k, k) };
                            slot.clone_from_slice(&scratch.best);
                            continue;
                        }
                        let rule = ties.of(mover);
                        match evaluate(game, rule, &state, mover, lookup, scratch) {
                            Ok(selected) => selected,
                            Err(_) => return,
                        }
                    }
                };
                // SAFETY: entry `idx` belongs to this layer and only this worker touches
                // it; it was initialised by `resize`.
                let slot = unsafe { shared.slice_mut(idx * k, k) };
                match selected {
                    None => {
                        terminal_value(game, &state, &mut scratch.best);
                        slot.clone_from_slice(&scratch.best);
                    }
                    Some((bi, cv)) => {
                        slot.clone_from_slice(cv);
                        game.add_move_payoffs(&state, &scratch.moves[bi], slot);
                    }
                }
            }
            solved.fetch_add(done as usize, Ordering::Relaxed);
            progress.advance(done);
        };
        // Small tables are solved on this thread: a parallel dispatch per layer would
        // cost more than the layer itself.
        if n <= 1 << 12 {
            let mut buffers = (Scratch::<G>::new(k), Vec::new());
            (0..blocks).for_each(|b| run_block(&mut buffers, b));
        } else {
            (0..blocks)
                .into_par_iter()
                .for_each_init(|| (Scratch::<G>::new(k), Vec::new()), run_block);
        }
        if progress.cancelled() {
            progress.finish();
            return Err(EngineError::Cancelled);
        }
        if let Some(e) = bad_chance.lock().ok().and_then(|mut b| b.take()) {
            progress.finish();
            return Err(e);
        }
        if broken.load(Ordering::Relaxed) {
            progress.finish();
            return Err(EngineError::LayerOrder {
                from: bad_layers.0.load(Ordering::Relaxed),
                to: bad_layers.1.load(Ordering::Relaxed),
            });
        }
    }
    progress.finish();
    let states = solved.load(Ordering::Relaxed) as u64;
    Ok(Solution {
        game,
        ties: ties.clone(),
        table: Table::Dense {
            values,
            index: Box::new(move |s| game.index(s)),
        },
        states,
    })
}
