//! The generic engine for games written in Python: a user's object with `players`,
//! `root()`, `to_move(state)`, `moves(state)`, `play(state, move)` and optionally
//! `move_payoffs(state, move)` and `terminal_payoffs(state)` becomes a
//! [`lastbite::engine::Game`]; a state where `to_move` answers `lastbite.CHANCE` is a
//! chance state whose moves and exact probabilities come from `chance_outcomes(state)`.
//! It is solved by the engine itself (memoised backward induction,
//! per-player tie rules, all pure SPE outcomes, one-shot deviation checks, Gambit export).
//!
//! Each distinct Python state is interned once into an arena (its hash is Python's, its
//! equality Python's `==`, so transpositions are solved once) and the engine works on
//! the arena's integer ids; a move is its index in the state's list of moves. Every
//! callback therefore runs once per state or per move however often the engine asks, and
//! the engine's own tables hash integers, not Python objects.
//!
//! An exception raised by a callback (or a KeyboardInterrupt seen between callbacks) is
//! kept, the engine is led to a quick finish (every state becomes terminal), and the
//! exception is raised unchanged.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use lastbite::engine::fx::FxMap;
use lastbite::engine::{self, Budget, Game, Player, Reason, TieBreak, Ties, Verdict, CHANCE};
use lastbite::rational::Rational;
use num_bigint::BigInt;
use num_rational::BigRational;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyIterator, PyList, PyTuple};

use crate::error::Error;

/// A state: its index in the arena.
pub type Id = u32;

/// No state: what `play` answers after a callback failed (terminal, worth nothing).
const DEAD: Id = Id::MAX;

/// What the game said of one distinct state, each asked once.
struct Node {
    to_move: Option<Option<Player>>,
    /// Its moves, once asked: the first one's index into the arena's edge vectors, and
    /// how many. The edges of all states share one set of vectors, so a state costs no
    /// allocation of its own.
    moves: Option<(usize, usize)>,
    terminal: Option<Box<[Rational]>>,
}

/// Where move `i` of a state stands.
enum Edge {
    /// Its index into the edge vectors.
    At(usize),
    /// The state's moves were never asked.
    Unasked,
    /// No such state or move.
    Missing,
}

#[derive(Default)]
struct Arena {
    /// Per state: its Python object. Apart from `nodes`, so that interning (a lookup per
    /// move played) touches 8 bytes a state, not a whole node.
    objs: Vec<Py<PyAny>>,
    /// Per state: the next state with the same Python hash.
    next: Vec<Id>,
    nodes: Vec<Node>,
    /// Per edge (a move of a state): the move's Python object.
    moves: Vec<Py<PyAny>>,
    /// Per edge: the state it leads to (`DEAD` until played).
    children: Vec<Id>,
    /// Per edge: its probability, for the moves of chance states (empty until a chance
    /// state's moves are asked), as `1 +` its index in `prob_values`, or 0 for none. A die
    /// has six values however many states roll it: an index is 4 bytes an edge to fill,
    /// copy as the vectors grow, and drop, where a value is 24.
    probs: Vec<u32>,
    /// The distinct probability values read (one per `(move, probability)` pair object
    /// met, see `PyGame::last_outcomes`).
    prob_values: Vec<Rational>,
    /// Per edge, one entry per player: its payoffs, once asked (`paid`; both empty for a
    /// game without `move_payoffs`).
    payoffs: Vec<Rational>,
    paid: Vec<bool>,
    /// Python hash to the first state with it.
    by_hash: FxMap<isize, Id>,
    root: Option<Id>,
}

impl Arena {
    /// The probability of edge `e` (zero for a move of a state that is not chance's).
    fn probability(&self, e: usize) -> Rational {
        match self.probs.get(e) {
            Some(&at) if at > 0 => self.prob_values[at as usize - 1].clone(),
            _ => Rational::zero(),
        }
    }

    /// Where move `i` of state `id` stands.
    fn edge(&self, id: Id, i: usize) -> Edge {
        match self.nodes.get(id as usize).map(|n| n.moves) {
            None => Edge::Missing,
            Some(None) => Edge::Unasked,
            Some(Some((first, len))) if i < len => Edge::At(first + i),
            Some(Some(_)) => Edge::Missing,
        }
    }
}

/// The user's game object.
pub struct PyGame {
    players: usize,
    names: Vec<String>,
    error: Mutex<Option<PyErr>>,
    failed: AtomicBool,
    calls: AtomicU64,
    /// The game's methods, looked up once.
    methods: Methods,
    /// Never locked across a call into Python, so a callback can never deadlock it.
    arena: Mutex<Arena>,
    /// The last chance outcomes read: each `(move, probability)` pair object with its
    /// move and exact probability. A game that returns the same pairs again (a die's
    /// constant list) is not converted again: a pair is an immutable tuple, and holding
    /// it keeps its identity from being reused.
    last_outcomes: Mutex<Vec<SeenOutcome>>,
    /// The most distinct states the game may reach (`max_states`): every state `play`
    /// returns counts, whether or not the engine keeps it, so a game whose play never
    /// ends is stopped here.
    max_states: u64,
}

/// A `(move, probability)` pair object read before, with its move and its probability's
/// entry in the arena's `probs` (none until stored).
type SeenOutcome = (Py<PyAny>, Py<PyAny>, Option<u32>);

/// A chance move's probability as read: one stored before (its entry in the arena's
/// `probs`), or a new value.
enum Prob {
    Stored(u32),
    New(Rational),
}

struct Methods {
    root: Py<PyAny>,
    to_move: Py<PyAny>,
    moves: Py<PyAny>,
    play: Py<PyAny>,
    move_payoffs: Option<Py<PyAny>>,
    terminal_payoffs: Option<Py<PyAny>>,
    chance_outcomes: Option<Py<PyAny>>,
}

impl PyGame {
    fn new(obj: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let players = obj.getattr("players")?;
        let (count, names) = if let Ok(n) = players.extract::<usize>() {
            (n, (0..n).map(engine::player_letter).collect())
        } else {
            let names: Vec<String> = players
                .try_iter()?
                .map(|p| p.and_then(|p| p.str().map(|s| s.to_string())))
                .collect::<PyResult<_>>()?;
            (names.len(), names)
        };
        if count == 0 {
            return Err(Error::new_err(
                "the game has no players (players must be a positive count or a list of names)",
            ));
        }
        let method = |name: &str| -> PyResult<Py<PyAny>> { Ok(obj.getattr(name)?.unbind()) };
        let optional = |name: &str| -> PyResult<Option<Py<PyAny>>> {
            Ok(if obj.hasattr(name)? {
                Some(obj.getattr(name)?.unbind())
            } else {
                None
            })
        };
        check_methods(obj)?;
        let methods = Methods {
            root: method("root")?,
            to_move: method("to_move")?,
            moves: method("moves")?,
            play: method("play")?,
            move_payoffs: optional("move_payoffs")?,
            terminal_payoffs: optional("terminal_payoffs")?,
            chance_outcomes: optional("chance_outcomes")?,
        };
        Ok(PyGame {
            methods,
            arena: Mutex::new(Arena::default()),
            last_outcomes: Mutex::new(Vec::new()),
            players: count,
            names,
            error: Mutex::new(None),
            failed: AtomicBool::new(false),
            calls: AtomicU64::new(0),
            max_states: u64::MAX,
        })
    }

    /// The game, refusing to reach more than `max_states` distinct states.
    fn limited(mut self, max_states: u64) -> PyGame {
        self.max_states = max_states;
        self
    }

    fn arena(&self) -> std::sync::MutexGuard<'_, Arena> {
        // A panic never happens while the lock is held (no Python runs under it), so a
        // poisoned lock still holds a consistent arena.
        self.arena.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps the first error; every later callback is skipped.
    fn fail(&self, e: PyErr) {
        if let Ok(mut slot) = self.error.lock() {
            if slot.is_none() {
                *slot = Some(e);
            }
        }
        self.failed.store(true, Ordering::Relaxed);
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// The kept error, if any.
    fn take_error(&self) -> Option<PyErr> {
        self.error.lock().ok().and_then(|mut e| e.take())
    }

    /// Calls a method of the game; every 1024 calls lets Python handle signals.
    fn call<'py>(
        &self,
        py: Python<'py>,
        method: &Py<PyAny>,
        args: impl pyo3::call::PyCallArgs<'py>,
    ) -> Option<Bound<'py, PyAny>> {
        if self.failed() {
            return None;
        }
        if self
            .calls
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(1024)
        {
            if let Err(e) = py.check_signals() {
                self.fail(e);
                return None;
            }
        }
        match method.bind(py).call1(args) {
            Ok(v) => Some(v),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    fn payoff_vector(&self, v: &Bound<'_, PyAny>, what: &str) -> Option<Vec<Rational>> {
        let out: PyResult<Vec<Rational>> = match v.cast::<PyTuple>() {
            // Tuples (the usual answer) are read in place, without an iterator.
            Ok(t) => {
                let mut out = Vec::with_capacity(self.players);
                for x in t.iter_borrowed() {
                    match to_rational(&x) {
                        Ok(x) => out.push(x),
                        Err(e) => {
                            self.fail(e);
                            return None;
                        }
                    }
                }
                Ok(out)
            }
            Err(_) => v
                .try_iter()
                .and_then(|it| it.map(|x| x.and_then(|x| to_rational(&x))).collect()),
        };
        match out {
            Ok(out) if out.len() == self.players => Some(out),
            Ok(out) => {
                self.fail(Error::new_err(format!(
                    "{what} returned {} payoffs; the game has {} players",
                    out.len(),
                    self.players
                )));
                None
            }
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    /// The Python object of a state, borrowed from the arena without a reference count
    /// (`None` for `DEAD`).
    fn obj<'s, 'py>(&'s self, py: Python<'py>, id: Id) -> Borrowed<'s, 'py, PyAny> {
        let ptr = self
            .arena()
            .objs
            .get(id as usize)
            .map_or(std::ptr::null_mut(), |o| o.as_ptr());
        borrowed(py, ptr)
    }

    /// The Python objects of state `id` and of its move `m`, borrowed from the arena.
    fn edge<'s, 'py>(
        &'s self,
        py: Python<'py>,
        id: Id,
        m: Id,
    ) -> (Borrowed<'s, 'py, PyAny>, Borrowed<'s, 'py, PyAny>) {
        let arena = self.arena();
        let state = arena
            .objs
            .get(id as usize)
            .map_or(std::ptr::null_mut(), |o| o.as_ptr());
        let mv = match arena.edge(id, m as usize) {
            Edge::At(e) => arena.moves[e].as_ptr(),
            _ => std::ptr::null_mut(),
        };
        (borrowed(py, state), borrowed(py, mv))
    }

    /// The Python object of move `m` at state `id`.
    fn move_obj<'s, 'py>(&'s self, py: Python<'py>, id: Id, m: Id) -> Borrowed<'s, 'py, PyAny> {
        self.edge(py, id, m).1
    }

    /// The state at `at` of a chain of states with one Python hash, and the next one.
    fn chain<'s, 'py>(&'s self, py: Python<'py>, at: Id) -> (Borrowed<'s, 'py, PyAny>, Id) {
        let arena = self.arena();
        let at = at as usize;
        (borrowed(py, arena.objs[at].as_ptr()), arena.next[at])
    }

    /// The first state with hash `h` and the next one with it (`DEAD` for none).
    fn first_with<'s, 'py>(
        &'s self,
        py: Python<'py>,
        h: isize,
    ) -> Option<(Id, Borrowed<'s, 'py, PyAny>, Id)> {
        let arena = self.arena();
        let at = *arena.by_hash.get(&h)?;
        let i = at as usize;
        Some((at, borrowed(py, arena.objs[i].as_ptr()), arena.next[i]))
    }

    /// The id of a state equal to `obj` (Python's hash and `==`), if one was seen.
    fn find(&self, obj: &Bound<'_, PyAny>) -> PyResult<Option<Id>> {
        self.search(obj, obj.hash()?)
    }

    /// The id of a state equal to `obj`, whose hash is `h`, if one was seen. Python is
    /// never called under the arena's lock: `==` runs between lookups.
    fn search(&self, obj: &Bound<'_, PyAny>, h: isize) -> PyResult<Option<Id>> {
        let py = obj.py();
        let Some((mut at, mut o, mut next)) = self.first_with(py, h) else {
            return Ok(None);
        };
        loop {
            if o.is(obj) || o.eq(obj)? {
                return Ok(Some(at));
            }
            if next == DEAD {
                return Ok(None);
            }
            at = next;
            (o, next) = self.chain(py, at);
        }
    }

    /// The id of `obj`, interning it when it is new; with `child_of`, also records it
    /// as the state that move leads to (under the same lock).
    fn intern(&self, obj: Bound<'_, PyAny>, child_of: Option<(Id, usize)>) -> Id {
        let h = match obj.hash() {
            Ok(h) => h,
            Err(e) => {
                self.fail(e);
                return DEAD;
            }
        };
        let found = match self.search(&obj, h) {
            Ok(found) => found,
            Err(e) => {
                self.fail(e);
                return DEAD;
            }
        };
        let mut arena = self.arena();
        let id = match found {
            Some(at) => at,
            None => {
                let id = arena.nodes.len() as Id;
                if u64::from(id) >= self.max_states {
                    drop(arena);
                    self.fail(Error::new_err(format!(
                        "the game reached more than {} states (max_states; every state play returns counts): raise max_states to allow it, or check that its play ends",
                        self.max_states
                    )));
                    return DEAD;
                }
                if id == DEAD {
                    drop(arena);
                    self.fail(Error::new_err("the game has more than 2^32 - 1 states"));
                    return DEAD;
                }
                let next = arena.by_hash.insert(h, id).unwrap_or(DEAD);
                arena.objs.push(obj.unbind());
                arena.next.push(next);
                arena.nodes.push(Node {
                    to_move: None,
                    moves: None,
                    terminal: None,
                });
                id
            }
        };
        if let Some((parent, i)) = child_of {
            if let Edge::At(e) = arena.edge(parent, i) {
                arena.children[e] = id;
            }
        }
        id
    }

    /// The number of moves at `id`, asking the game once.
    fn move_count(&self, id: Id) -> usize {
        match self.arena().nodes.get(id as usize).map(|n| n.moves) {
            None => return 0,
            Some(Some((_, len))) => return len,
            Some(None) => {}
        }
        if self.to_move(&id) == Some(CHANCE) {
            return self.chance_count(id);
        }
        let moves: Vec<Py<PyAny>> = Python::attach(|py| {
            let state = self.obj(py, id);
            let Some(r) = self.call(py, &self.methods.moves, (state,)) else {
                return Vec::new();
            };
            let out: Vec<Py<PyAny>> = if let Ok(list) = r.cast::<PyList>() {
                list.iter().map(Bound::unbind).collect()
            } else {
                match r.try_iter() {
                    Ok(it) => {
                        let mut out = Vec::new();
                        for m in it {
                            match m {
                                // An endless iterator is cut, not followed.
                                Ok(_) if out.len() == MAX_MOVES => {
                                    self.fail(Error::new_err(format!(
                                        "moves({}) gave more than {MAX_MOVES} moves (the most a state may have)",
                                        short(&state)
                                    )));
                                    return Vec::new();
                                }
                                Ok(m) => out.push(m.unbind()),
                                Err(e) => {
                                    self.fail(e);
                                    return Vec::new();
                                }
                            }
                        }
                        out
                    }
                    Err(e) => {
                        self.fail(e);
                        return Vec::new();
                    }
                }
            };
            if out.len() > MAX_MOVES {
                self.fail(Error::new_err(format!(
                    "moves({}) gave {} moves, more than {MAX_MOVES} (the most a state may have)",
                    short(&state),
                    out.len()
                )));
                return Vec::new();
            }
            if out.is_empty() {
                // A player to move with nothing to do: not an end the game declared.
                if let Some(p) = self.arena().nodes[id as usize].to_move.flatten() {
                    self.fail(Error::new_err(format!(
                        "moves({}) is empty but to_move gave player {p}: a state with no moves must have to_move None",
                        short(&state)
                    )));
                }
            }
            out
        });
        self.store_moves(id, moves, &mut [])
    }

    /// The number of moves at the chance state `id`, asking `chance_outcomes` once and
    /// keeping each move's probability (exact), checked as read: none negative, summing
    /// to one (the engine checks again, for every game).
    fn chance_count(&self, id: Id) -> usize {
        // Taken out while Python runs (a generator's code), never locked across it, and
        // put back once the new probabilities are stored and have their entries.
        let mut last =
            std::mem::take(&mut *self.last_outcomes.lock().unwrap_or_else(|e| e.into_inner()));
        let (moves, mut probs): (Vec<Py<PyAny>>, Vec<Prob>) = Python::attach(|py| {
            let state = self.obj(py, id);
            let Some(method) = &self.methods.chance_outcomes else {
                self.fail(Error::new_err(format!(
                    "to_move({}) returned lastbite.CHANCE but the game has no chance_outcomes method",
                    short(&state)
                )));
                return Default::default();
            };
            let Some(r) = self.call(py, method, (&state,)) else {
                return Default::default();
            };
            let mut read_one = |i: usize,
                                item: Bound<'_, PyAny>,
                                moves: &mut Vec<Py<PyAny>>,
                                probs: &mut Vec<Prob>|
             -> PyResult<()> {
                if let Some((seen, mv, Some(at))) = last.get(i) {
                    if item.is(seen) {
                        moves.push(mv.clone_ref(py));
                        probs.push(Prob::Stored(*at));
                        return Ok(());
                    }
                }
                let pair = item
                    .cast::<PyTuple>()
                    .ok()
                    .filter(|t| t.len() == 2)
                    .ok_or_else(|| {
                        Error::new_err(format!(
                            "chance_outcomes({}) gave {}, not a (move, probability) pair",
                            short(&state),
                            short(&item)
                        ))
                    })?;
                let p = to_rational(&pair.get_item(1)?).map_err(|e| {
                    Error::new_err(format!(
                        "chance_outcomes({}): the probability of {}: {e}",
                        short(&state),
                        short(&pair.get_item(0).unwrap_or(item.clone()))
                    ))
                })?;
                let mv = pair.get_item(0)?.unbind();
                let entry = (item.unbind(), mv.clone_ref(py), None);
                if i < last.len() {
                    last[i] = entry;
                } else {
                    last.push(entry);
                }
                moves.push(mv);
                probs.push(Prob::New(p));
                Ok(())
            };
            let (mut moves, mut probs) = (Vec::new(), Vec::new());
            // A list (the common answer) read in place; any other iterable through
            // Python's iteration.
            let read = match r.cast::<PyList>() {
                Ok(list) => {
                    moves.reserve(list.len());
                    probs.reserve(list.len());
                    list.iter()
                        .enumerate()
                        .try_for_each(|(i, item)| read_one(i, item, &mut moves, &mut probs))
                }
                Err(_) => r.try_iter().and_then(|it| {
                    it.enumerate()
                        .try_for_each(|(i, item)| read_one(i, item?, &mut moves, &mut probs))
                }),
            };
            let read = read.and_then(|()| {
                // Checked as read, before any outcome is played.
                let arena = self.arena();
                let mut sum = Rational::zero();
                for (p, mv) in probs.iter().zip(&moves) {
                    let p = match p {
                        Prob::New(p) => p.clone(),
                        Prob::Stored(at) => arena.prob_values[*at as usize - 1].clone(),
                    };
                    // Zero is a move chance never takes (as the engine and Gambit allow).
                    if p < Rational::zero() {
                        return Err(Error::new_err(format!(
                            "the probabilities at chance state {} give move {} the negative probability {p}",
                            short(&state),
                            short(mv.bind(py))
                        )));
                    }
                    sum.add_assign(&p);
                }
                if sum != Rational::one() {
                    return Err(Error::new_err(format!(
                        "the probabilities at chance state {} sum to {sum}, not 1",
                        short(&state)
                    )));
                }
                Ok(())
            });
            match read {
                Ok(()) => (moves, probs),
                Err(e) => {
                    self.fail(e);
                    Default::default()
                }
            }
        });
        let n = self.store_moves(id, moves, &mut probs);
        for (entry, p) in last.iter_mut().zip(&probs) {
            if let Prob::Stored(at) = p {
                entry.2 = Some(*at);
            }
        }
        *self.last_outcomes.lock().unwrap_or_else(|e| e.into_inner()) = last;
        n
    }

    /// Records the moves of state `id` (with their probabilities at a chance state, else
    /// none) as its edges in the arena; returns how many. A new probability is stored and
    /// becomes `Prob::Stored`. Nothing is kept after a failure.
    fn store_moves(&self, id: Id, moves: Vec<Py<PyAny>>, probs: &mut [Prob]) -> usize {
        let n = moves.len();
        if self.failed() {
            return n;
        }
        let mut arena = self.arena();
        let arena = &mut *arena;
        let first = arena.moves.len();
        arena.moves.extend(moves);
        if !probs.is_empty() {
            arena.probs.resize(first, 0);
            for p in probs.iter_mut() {
                if let Prob::New(value) = p {
                    arena
                        .prob_values
                        .push(std::mem::replace(value, Rational::zero()));
                    *p = Prob::Stored(arena.prob_values.len() as u32);
                }
                if let Prob::Stored(at) = p {
                    arena.probs.push(*at);
                }
            }
        }
        arena.children.resize(first + n, DEAD);
        if self.methods.move_payoffs.is_some() {
            arena
                .payoffs
                .resize((first + n) * self.players, Rational::zero());
            arena.paid.resize(first + n, false);
        }
        arena.nodes[id as usize].moves = Some((first, n));
        n
    }

    /// The locked arena and the edge index of move `i` at `id`, asking the game for the
    /// state's moves first if it never was (the engine asks before it plays them, but
    /// a caller need not); `None` after a failure or for a move that is not there.
    fn locate(&self, id: Id, i: usize) -> Option<(std::sync::MutexGuard<'_, Arena>, usize)> {
        let mut asked = false;
        loop {
            if self.failed() {
                return None;
            }
            let arena = self.arena();
            match arena.edge(id, i) {
                Edge::At(e) => return Some((arena, e)),
                Edge::Unasked if !asked => {
                    drop(arena);
                    self.move_count(id);
                    asked = true;
                }
                _ => return None,
            }
        }
    }

    /// Runs `f` on the payoffs of move `m` at `id`, asking the game once; `None`
    /// without `move_payoffs`, after a failure, or for a move that is not there.
    fn with_payoffs<R>(&self, id: Id, m: Id, f: impl FnOnce(&[Rational]) -> R) -> Option<R> {
        let method = self.methods.move_payoffs.as_ref()?;
        let k = self.players;
        let (arena, e) = self.locate(id, m as usize)?;
        let slot = e * k..(e + 1) * k;
        if arena.paid[e] {
            return Some(f(&arena.payoffs[slot]));
        }
        let (state, mv) = (arena.objs[id as usize].as_ptr(), arena.moves[e].as_ptr());
        drop(arena);
        Python::attach(|py| {
            let r = self.call(py, method, (borrowed(py, state), borrowed(py, mv)))?;
            // A tuple of machine integers (the usual answer) goes straight into the arena:
            // reading an int runs no Python code, so it may happen under the lock.
            if let Ok(t) = r.cast::<PyTuple>() {
                if t.len() == k {
                    let mut arena = self.arena();
                    let arena = &mut *arena;
                    let all =
                        t.iter_borrowed()
                            .zip(&mut arena.payoffs[slot.clone()])
                            .all(|(x, out)| match small_int(&x) {
                                Some(v) => {
                                    *out = v;
                                    true
                                }
                                None => false,
                            });
                    if all {
                        arena.paid[e] = true;
                        return Some(f(&arena.payoffs[slot]));
                    }
                }
            }
            let v = self.payoff_vector(&r, "move_payoffs")?;
            let mut arena = self.arena();
            for (out, x) in arena.payoffs[slot.clone()].iter_mut().zip(v) {
                *out = x;
            }
            arena.paid[e] = true;
            Some(f(&arena.payoffs[slot]))
        })
    }

    /// The index of the move equal to `mv` at `id` (Python's `==`), or `DEAD`.
    fn move_index(&self, id: Id, mv: &Bound<'_, PyAny>) -> Id {
        let n = self.move_count(id);
        let py = mv.py();
        for m in 0..n as Id {
            let o = self.move_obj(py, id, m);
            if o.is(mv) || o.eq(mv).unwrap_or(false) {
                return m;
            }
        }
        DEAD
    }
}

impl Game for PyGame {
    type State = Id;
    type Move = Id;
    type Payoff = Rational;

    fn players(&self) -> usize {
        self.players
    }

    fn root(&self) -> Id {
        if let Some(r) = self.arena().root {
            return r;
        }
        let id = Python::attach(|py| match self.call(py, &self.methods.root, ()) {
            Some(r) => self.intern(r, None),
            None => DEAD,
        });
        if !self.failed() {
            self.arena().root = Some(id);
        }
        id
    }

    fn to_move(&self, s: &Id) -> Option<Player> {
        if self.failed() {
            return None;
        }
        let id = *s;
        let state = {
            let arena = self.arena();
            match arena.nodes.get(id as usize) {
                None => return None,
                Some(n) => {
                    if let Some(known) = n.to_move {
                        return known;
                    }
                }
            }
            arena.objs[id as usize].as_ptr()
        };
        let answer = Python::attach(|py| {
            let state = borrowed(py, state);
            let r = self.call(py, &self.methods.to_move, (state,))?;
            if r.is_none() {
                return None;
            }
            if r.is(chance_marker(py)) {
                return Some(CHANCE);
            }
            // True is not player 1: a bool is a mistake (a test for "is it over?").
            let is_bool = r.is_instance_of::<pyo3::types::PyBool>();
            match r.extract::<usize>() {
                Ok(p) if p < self.players && !is_bool => Some(p),
                _ => {
                    self.fail(Error::new_err(format!(
                        "to_move({}) returned {}, not None, lastbite.CHANCE or a player index from 0 to {}",
                        short(&state),
                        short(&r),
                        self.players - 1
                    )));
                    None
                }
            }
        });
        if !self.failed() {
            self.arena().nodes[id as usize].to_move = Some(answer);
        }
        answer
    }

    fn moves(&self, s: &Id, out: &mut Vec<Id>) {
        let n = self.move_count(*s);
        out.extend(0..n as Id);
    }

    fn play(&self, s: &Id, m: &Id) -> Id {
        let (id, i) = (*s, *m as usize);
        let Some((arena, e)) = self.locate(id, i) else {
            return DEAD;
        };
        if arena.children[e] != DEAD {
            return arena.children[e];
        }
        let (state, mv) = (arena.objs[id as usize].as_ptr(), arena.moves[e].as_ptr());
        drop(arena);
        Python::attach(|py| {
            match self.call(
                py,
                &self.methods.play,
                (borrowed(py, state), borrowed(py, mv)),
            ) {
                Some(r) => self.intern(r, Some((id, i))),
                None => DEAD,
            }
        })
    }

    fn add_move_payoffs(&self, s: &Id, m: &Id, acc: &mut [Rational]) {
        self.with_payoffs(*s, *m, |v| {
            for (a, x) in acc.iter_mut().zip(v) {
                a.add_assign(x);
            }
        });
    }

    fn mover_payoff(&self, s: &Id, m: &Id, mover: Player) -> Rational {
        self.with_payoffs(*s, *m, |v| v[mover].clone())
            .unwrap_or_else(Rational::zero)
    }

    fn probability(&self, s: &Id, m: &Id) -> Rational {
        match self.locate(*s, *m as usize) {
            Some((arena, e)) => arena.probability(e),
            None => Rational::zero(),
        }
    }

    fn probabilities(&self, s: &Id, moves: &[Id], out: &mut Vec<Rational>) {
        // The engine asks after listing the moves, so they are in the arena: one lock.
        {
            let arena = self.arena();
            let at = |m: &Id| match arena.edge(*s, *m as usize) {
                Edge::At(e) => Some(e),
                _ => None,
            };
            if moves.iter().all(|m| at(m).is_some()) {
                out.extend(moves.iter().filter_map(at).map(|e| arena.probability(e)));
                return;
            }
        }
        out.extend(moves.iter().map(|m| self.probability(s, m)));
    }

    fn terminal_payoff(&self, s: &Id, p: Player) -> Rational {
        let Some(method) = &self.methods.terminal_payoffs else {
            return Rational::zero();
        };
        if self.failed() {
            return Rational::zero();
        }
        let id = *s;
        match self.arena().nodes.get(id as usize) {
            None => return Rational::zero(),
            Some(n) => {
                if let Some(v) = &n.terminal {
                    return v[p].clone();
                }
            }
        }
        // The engine asks once per player: one Python call per terminal state.
        let v = Python::attach(|py| {
            let state = self.obj(py, id);
            let r = self.call(py, method, (state,))?;
            self.payoff_vector(&r, "terminal_payoffs")
        });
        match v {
            Some(v) => {
                let x = v[p].clone();
                self.arena().nodes[id as usize].terminal = Some(v.into_boxed_slice());
                x
            }
            None => Rational::zero(),
        }
    }

    fn player_name(&self, p: Player) -> String {
        self.names
            .get(p)
            .cloned()
            .unwrap_or_else(|| engine::player_letter(p))
    }

    fn move_label(&self, s: &Id, m: &Id) -> String {
        Python::attach(|py| {
            self.move_obj(py, *s, *m)
                .str()
                .map(|s| s.to_string())
                .unwrap_or_else(|_| "?".into())
        })
    }

    fn state_text(&self, s: &Id) -> String {
        Python::attach(|py| short(&self.obj(py, *s)))
    }

    /// The arena's ids are dense: the engine's tables become vectors.
    fn state_id(&self, s: &Id) -> Option<usize> {
        (*s != DEAD).then_some(*s as usize)
    }
}

/// A borrowed reference to an object the arena keeps alive (`None` for null).
fn borrowed<'s, 'py>(py: Python<'py>, ptr: *mut pyo3::ffi::PyObject) -> Borrowed<'s, 'py, PyAny> {
    // SAFETY: a non-null pointer comes from a node or a move of the arena, which holds a
    // reference to it until the game is dropped, and `'s` borrows the game; `None` is
    // immortal for this purpose (the interpreter holds it).
    unsafe {
        if ptr.is_null() {
            Borrowed::from_ptr(py, pyo3::ffi::Py_None())
        } else {
            Borrowed::from_ptr(py, ptr)
        }
    }
}

/// A value's repr for a one-line message: as Python writes it when short and printable
/// (a repr is already quoted: `'Zed'`), else escaped and shortened.
fn short(v: &Bound<'_, PyAny>) -> String {
    let text = v
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into());
    if text.chars().count() <= 80 && !text.chars().any(char::is_control) {
        text
    } else {
        lastbite::api::escape(&text)
    }
}

/// The type of `lastbite.CHANCE`, the one value `to_move` answers at a chance state.
#[pyclass(frozen, module = "lastbite", name = "ChanceType")]
pub struct ChanceType;

#[pymethods]
impl ChanceType {
    fn __repr__(&self) -> &'static str {
        "lastbite.CHANCE"
    }
    fn __reduce__(&self) -> &'static str {
        "CHANCE"
    }
}

static CHANCE_MARKER: PyOnceLock<Py<ChanceType>> = PyOnceLock::new();

/// `lastbite.CHANCE`: one instance for the interpreter.
pub fn chance_marker(py: Python<'_>) -> &Bound<'_, ChanceType> {
    CHANCE_MARKER
        .get_or_init(py, || {
            Py::new(py, ChanceType).expect("a ChanceType instance is allocated")
        })
        .bind(py)
}

/// A player as Python sees it: an index, or `lastbite.CHANCE`.
fn player_obj<'py>(py: Python<'py>, p: Player) -> PyResult<Bound<'py, PyAny>> {
    if p == CHANCE {
        Ok(chance_marker(py).clone().into_any())
    } else {
        Ok(p.into_pyobject(py)?.into_any())
    }
}

static FRACTION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn fraction_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    FRACTION
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("fractions")?.getattr("Fraction")?.unbind())
        })
        .map(|f| f.bind(py))
}

/// An `int` that fits 64 bits (not a bool) as a rational, without running Python code.
fn small_int(x: &Bound<'_, PyAny>) -> Option<Rational> {
    if !x.is_exact_instance_of::<pyo3::types::PyInt>() {
        return None;
    }
    x.extract::<i64>().ok().map(Rational::from)
}

/// A Python number as an exact rational: `int`, `Fraction`, `Decimal` and `float` (its
/// exact binary value); never a float comparison.
pub fn to_rational(x: &Bound<'_, PyAny>) -> PyResult<Rational> {
    let py = x.py();
    if x.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "a payoff must be a number, not a bool",
        ));
    }
    if x.is_instance_of::<pyo3::types::PyInt>() {
        if let Ok(n) = x.extract::<i64>() {
            return Ok(Rational::from(n));
        }
        let n: BigInt = x.extract()?;
        return Ok(Rational::from_big(BigRational::from_integer(n)));
    }
    // A float is its exact binary value; a Fraction of machine integers is read in
    // place. Both are common (probabilities), and neither needs Python's Fraction made.
    if let Ok(f) = x.cast::<pyo3::types::PyFloat>() {
        let v = f.value();
        return BigRational::from_float(v)
            .map(Rational::from_big)
            .ok_or_else(|| {
                PyTypeError::new_err(format!("a payoff must be a finite number, not {v}"))
            });
    }
    let fraction = fraction_type(py)?;
    if x.get_type().is(fraction) {
        let n = x.getattr(pyo3::intern!(py, "numerator"))?;
        let d = x.getattr(pyo3::intern!(py, "denominator"))?;
        if let (Ok(n), Ok(d)) = (n.extract::<i64>(), d.extract::<i64>()) {
            if let Some(e) = lastbite::exact::Exact::new(n as i128, d as i128) {
                return Ok(Rational::from_exact(e));
            }
        }
    }
    let f = fraction.call1((x,)).map_err(|_| {
        PyTypeError::new_err(format!(
            "a payoff must be a number (int, Fraction, Decimal or float), not {}",
            short(x)
        ))
    })?;
    let n: BigInt = f.getattr("numerator")?.extract()?;
    let d: BigInt = f.getattr("denominator")?.extract()?;
    Ok(Rational::from_big(BigRational::new(n, d)))
}

/// An exact rational as `int` or `Fraction`.
pub fn from_rational<'py>(py: Python<'py>, x: &Rational) -> PyResult<Bound<'py, PyAny>> {
    if let Some(e) = x.to_exact().filter(|e| e.denom() == 1) {
        return Ok(e.numer().into_pyobject(py)?.into_any());
    }
    let b = x.to_big();
    let n = b.numer().clone().into_pyobject(py)?.into_any();
    if b.is_integer() {
        return Ok(n);
    }
    let d = b.denom().clone().into_pyobject(py)?;
    fraction_type(py)?.call1((n, d))
}

fn vector<'py>(py: Python<'py>, v: &[Rational]) -> PyResult<Bound<'py, PyTuple>> {
    let items: Vec<Bound<'py, PyAny>> = v
        .iter()
        .map(|x| from_rational(py, x))
        .collect::<PyResult<_>>()?;
    PyTuple::new(py, items)
}

/// One rule for all or per player as text (`"friendly"`, `"A=friendly,B=last"`: the
/// library's one parser), a list (one per player), or a dict from player index or name.
fn parse_ties(game: &PyGame, ties: &Bound<'_, PyAny>) -> PyResult<Ties> {
    let rule = |v: &Bound<'_, PyAny>| -> PyResult<TieBreak> {
        let s: String = v.extract()?;
        s.parse::<TieBreak>()
            .map_err(|e| Error::new_err(e.to_string()))
    };
    if ties.is_instance_of::<pyo3::types::PyString>() {
        let spec: String = ties.extract()?;
        return Ties::parse_named(&spec, game.players, &game.names)
            .map_err(|e| Error::new_err(e.to_string()));
    }
    let mut rules = vec![TieBreak::First; game.players];
    if let Ok(d) = ties.cast::<PyDict>() {
        for (k, v) in d.iter() {
            let p = match k.extract::<usize>() {
                Ok(p) if p < game.players => p,
                _ => {
                    let name: String = k.str()?.to_string();
                    game.names.iter().position(|n| *n == name).ok_or_else(|| {
                        Error::new_err(format!(
                            "ties names no player of this game: {} (its players: {})",
                            short(&k),
                            game.names.join(", ")
                        ))
                    })?
                }
            };
            rules[p] = rule(&v)?;
        }
        return Ok(Ties::per_player(rules));
    }
    let list: Vec<Bound<'_, PyAny>> = ties.try_iter()?.collect::<PyResult<_>>()?;
    if list.len() != game.players {
        return Err(Error::new_err(format!(
            "ties has {} rules; the game has {} players (give one rule, one per player, or a dict)",
            list.len(),
            game.players
        )));
    }
    for (p, v) in list.iter().enumerate() {
        rules[p] = rule(v)?;
    }
    Ok(Ties::per_player(rules))
}

/// The engine's errors and the game's own exceptions, after a run.
fn finish<T>(game: &PyGame, r: Result<T, engine::EngineError>) -> PyResult<T> {
    if let Some(e) = game.take_error() {
        return Err(e);
    }
    r.map_err(|e| match e {
        engine::EngineError::TooManyStates { .. } => {
            Error::new_err(format!("{e} (raise max_states to allow it)"))
        }
        e => Error::new_err(e.to_string()),
    })
}

/// A solved game.
#[pyclass(unsendable, module = "lastbite")]
pub struct Solution {
    inner: Option<engine::Solution<'static, PyGame>>,
    game: *mut PyGame,
    outcomes: Option<Vec<Vec<Rational>>>,
}

impl Drop for Solution {
    fn drop(&mut self) {
        // The solution borrows the game: drop it first, then the game it was leaked from.
        self.inner = None;
        // SAFETY: `game` came from Box::leak in `solve` and nothing else refers to it.
        unsafe { drop(Box::from_raw(self.game)) }
    }
}

impl Solution {
    fn sol(&self) -> &engine::Solution<'static, PyGame> {
        self.inner.as_ref().expect("a live solution")
    }
    fn game(&self) -> &PyGame {
        // SAFETY: alive until drop.
        unsafe { &*self.game }
    }
    /// The id of a state the solve reached (default: the root).
    fn state(&self, state: Option<Bound<'_, PyAny>>) -> PyResult<Id> {
        match state {
            None => Ok(self.game().root()),
            Some(s) => self.game().find(&s)?.ok_or_else(|| {
                Error::new_err(format!(
                    "state {} is not reachable from the root",
                    short(&s)
                ))
            }),
        }
    }
    fn moves<'py>(&self, py: Python<'py>, s: Id, ms: &[Id]) -> Vec<Bound<'py, PyAny>> {
        ms.iter()
            .map(|&m| self.game().move_obj(py, s, m).to_owned())
            .collect()
    }

    /// Equilibrium play as Python: a list of step dicts, ending with a chance dict.
    fn play_list<'py>(
        &self,
        py: Python<'py>,
        play: &engine::PlayOf<PyGame>,
    ) -> PyResult<Bound<'py, PyList>> {
        let game = self.game();
        let out = PyList::empty(py);
        for st in &play.steps {
            let d = PyDict::new(py);
            d.set_item("state", game.obj(py, st.state))?;
            d.set_item("player", st.mover)?;
            d.set_item("move", game.move_obj(py, st.state, st.mv))?;
            d.set_item("best_moves", self.moves(py, st.state, &st.optimal))?;
            d.set_item("reason", reason_text(st.reason))?;
            out.append(d)?;
        }
        if let Some(c) = &play.chance {
            let d = PyDict::new(py);
            d.set_item("state", game.obj(py, c.state))?;
            d.set_item("player", chance_marker(py))?;
            let outcomes = PyList::empty(py);
            for b in &c.outcomes {
                let o = PyDict::new(py);
                o.set_item("move", game.move_obj(py, c.state, b.mv))?;
                o.set_item("probability", from_rational(py, &b.probability)?)?;
                o.set_item("path", self.play_list(py, &b.play)?)?;
                outcomes.append(o)?;
            }
            d.set_item("outcomes", outcomes)?;
            d.set_item("reason", reason_text(Reason::Chance))?;
            out.append(d)?;
        }
        Ok(out)
    }
}

fn reason_text(r: Reason) -> String {
    r.to_string()
}

#[pymethods]
impl Solution {
    /// The equilibrium payoff vector at `state` (default: the root), as a tuple of int or
    /// Fraction.
    #[pyo3(signature = (state = None))]
    fn value<'py>(
        &self,
        py: Python<'py>,
        state: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let s = self.state(state)?;
        match self.sol().value(&s) {
            Some(v) => vector(py, v),
            None => Err(Error::new_err(format!(
                "state {} is not reachable from the root",
                self.game().state_text(&s)
            ))),
        }
    }

    /// The moves that lead to the equilibrium payoff vector at `state` (after the tie
    /// rule), in the game's move order; empty at a terminal state.
    #[pyo3(signature = (state = None))]
    fn best_moves<'py>(
        &self,
        py: Python<'py>,
        state: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let s = self.state(state)?;
        let moves = match self.sol().choice(&s) {
            Some(c) => self.moves(py, s, &c.optimal),
            None => Vec::new(),
        };
        PyList::new(py, moves)
    }

    /// The move the equilibrium plays at `state` (None at a terminal state).
    #[pyo3(signature = (state = None))]
    fn best_move<'py>(
        &self,
        py: Python<'py>,
        state: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let s = self.state(state)?;
        Ok(self
            .sol()
            .choice(&s)
            .map(|c| self.game().move_obj(py, s, c.selected).to_owned()))
    }

    /// The equilibrium path from the root: a list of dicts with `state`, `player`,
    /// `move`, `best_moves` and `reason`; in a game with chance, a chance state on the
    /// path is a dict with `state`, `player` (`lastbite.CHANCE`) and `outcomes`, each
    /// with `move`, `probability` and the `path` after it (at most `max_steps` steps and
    /// branches in all).
    #[pyo3(signature = (max_steps = 1_000_000))]
    fn path<'py>(&self, py: Python<'py>, max_steps: u128) -> PyResult<Bound<'py, PyList>> {
        let game = self.game();
        let play = self
            .sol()
            .play_tree(game.root(), max_steps)
            .map_err(|e| match e {
                engine::EngineError::TreeTooLarge { .. } => Error::new_err(format!(
                    "equilibrium play branches at chance states into more than {max_steps} steps (raise max_steps, or follow it with explain and best_move)"
                )),
                e => Error::new_err(e.to_string()),
            })?;
        self.play_list(py, &play)
    }

    /// Every legal move at `state` (default: the root) with the payoff vector it leads
    /// to under equilibrium play, and the rule that decided: a dict with `state`,
    /// `player`, `rule`, `moves` (each `move`, `label`, `payoffs`, `best_for_mover`,
    /// `optimal`, `chosen`) and `reason`; None at a terminal state.
    #[pyo3(signature = (state = None))]
    fn explain<'py>(
        &self,
        py: Python<'py>,
        state: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let s = self.state(state)?;
        let Some(e) = self.sol().explain(&s) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("state", self.game().obj(py, s))?;
        d.set_item("player", player_obj(py, e.mover)?)?;
        d.set_item("rule", e.rule.map(TieBreak::name))?;
        let lines = PyList::empty(py);
        for l in e.lines {
            let m = PyDict::new(py);
            m.set_item("move", self.game().move_obj(py, s, l.mv))?;
            m.set_item("label", l.label)?;
            m.set_item("payoffs", vector(py, &l.value)?)?;
            if let Some(p) = &l.probability {
                m.set_item("probability", from_rational(py, p)?)?;
            }
            m.set_item("best_for_mover", l.best_for_mover)?;
            m.set_item("optimal", l.optimal)?;
            m.set_item("chosen", l.selected)?;
            lines.append(m)?;
        }
        d.set_item("moves", lines)?;
        d.set_item("reason", reason_text(e.reason))?;
        Ok(Some(d))
    }

    /// The number of states solved (each once, however many paths reach it).
    #[getter]
    fn state_count(&self) -> u64 {
        self.sol().states()
    }

    /// The number of states solved, as `len(solution)`.
    fn __len__(&self) -> usize {
        self.sol().states() as usize
    }

    /// Every solved state (each once), breadth first from the root, children in the
    /// game's move order: an iterator over the game's own state objects.
    fn states<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let list = PyList::new(
            py,
            self.sol()
                .solved_states()
                .into_iter()
                .map(|s| self.game().obj(py, s).to_owned()),
        )?;
        list.as_any().try_iter()
    }

    /// Every non-terminal state's equilibrium move: a dict from state to move, in the
    /// order of `states()` (the whole strategy profile the solve chose; `verify` accepts
    /// it back).
    fn policy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in self.sol().solved_states() {
            if let Some(c) = self.sol().choice(&s) {
                d.set_item(
                    self.game().obj(py, s),
                    self.game().move_obj(py, s, c.selected),
                )?;
            }
        }
        Ok(d)
    }

    /// With `all_outcomes=True`: the payoff vectors of all pure SPE, sorted; else None.
    #[getter]
    fn outcomes<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(all) = &self.outcomes else {
            return Ok(None);
        };
        let items: Vec<Bound<'py, PyTuple>> =
            all.iter().map(|v| vector(py, v)).collect::<PyResult<_>>()?;
        Ok(Some(PyList::new(py, items)?))
    }

    /// The tie rules solved under, as text (`first`, or `A=friendly,B=last`).
    #[getter]
    fn ties(&self) -> String {
        self.sol().ties().describe()
    }

    /// The drawn game tree (`lastbite.draw_tree` wraps it): the tree report as JSON.
    #[pyo3(signature = (horizontal, values, spe, draw_nodes, title, max_states))]
    fn tree_json(
        &self,
        horizontal: bool,
        values: bool,
        spe: bool,
        draw_nodes: u64,
        title: &str,
        max_states: u64,
    ) -> PyResult<String> {
        let fields = lastbite::api::drawing::TreeFields::new(horizontal, values, spe, draw_nodes)
            .map_err(|e| Error::new_err(e.to_string()))?;
        let ties = self.sol().ties().describe();
        let report =
            lastbite::api::drawing::draw(self.sol(), &fields, Budget { max_states }, title, &ties);
        if let Some(e) = self.game().take_error() {
            return Err(e);
        }
        let report = report.map_err(|e| Error::new_err(e.to_string()))?;
        Ok(serde_json::to_string(&report).expect("reports serialise"))
    }

    /// The solution in a notebook: its value, tie rules, size and equilibrium play.
    fn _repr_html_(&self) -> String {
        use lastbite::svg::escape;
        let game = self.game();
        let sol = self.sol();
        let value: Vec<String> = sol
            .root_value()
            .iter()
            .map(|v| game.payoff_text(v))
            .collect();
        let steps = sol.path();
        let shown = 60;
        let mut play: Vec<String> = steps
            .iter()
            .take(shown)
            .map(|s| {
                format!(
                    "{}: {}",
                    escape(&game.player_name(s.mover)),
                    escape(&game.move_label(&s.state, &s.mv))
                )
            })
            .collect();
        if steps.len() > shown {
            play.push(format!("... {} more moves", steps.len() - shown));
        }
        let end = if sol
            .explain(
                &steps
                    .last()
                    .map_or(game.root(), |s| game.play(&s.state, &s.mv)),
            )
            .is_some_and(|e| e.mover == CHANCE)
        {
            " (then a chance move: see path())"
        } else {
            ""
        };
        let names: Vec<String> = (0..game.players())
            .map(|p| escape(&game.player_name(p)))
            .collect();
        format!(
            "<div class=\"lastbite-solution\"><table><caption style=\"text-align:left\"><b>lastbite Solution</b></caption>\
             <tr><th style=\"text-align:left\">players</th><td style=\"text-align:left\">{}</td></tr>\
             <tr><th style=\"text-align:left\">value</th><td style=\"text-align:left\">({})</td></tr>\
             <tr><th style=\"text-align:left\">tie rules</th><td style=\"text-align:left\">{}</td></tr>\
             <tr><th style=\"text-align:left\">states solved</th><td style=\"text-align:left\">{}</td></tr>\
             <tr><th style=\"text-align:left\">equilibrium play</th><td style=\"text-align:left\">{}{}</td></tr>\
             </table></div>",
            names.join(", "),
            escape(&value.join(", ")),
            escape(&sol.ties().describe()),
            sol.states(),
            if play.is_empty() { "(the root is terminal)".to_string() } else { play.join(" &rarr; ") },
            end
        )
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let root = vector(py, self.sol().root_value())?;
        Ok(format!(
            "Solution(value={}, state_count={})",
            root.repr()?,
            self.sol().states()
        ))
    }
}

/// Solves a game written in Python by backward induction.
#[pyfunction]
#[pyo3(signature = (game, ties = None, all_outcomes = false, max_states = Budget::DEFAULT_MAX_STATES))]
pub fn solve(
    game: &Bound<'_, PyAny>,
    ties: Option<Bound<'_, PyAny>>,
    all_outcomes: bool,
    max_states: u64,
) -> PyResult<Solution> {
    let g = PyGame::new(game)?.limited(max_states);
    let ties = match ties {
        Some(t) => parse_ties(&g, &t)?,
        None => Ties::uniform(TieBreak::First, g.players),
    };
    let budget = Budget { max_states };
    let leaked: &'static mut PyGame = Box::leak(Box::new(g));
    let ptr: *mut PyGame = leaked;
    // SAFETY: the Solution below owns the leaked game and frees it after the solution.
    let game_ref: &'static PyGame = unsafe { &*ptr };
    let mut holder = Solution {
        inner: None,
        game: ptr,
        outcomes: None,
    };
    let sol = engine::solve(game_ref, &ties, budget);
    holder.inner = Some(finish(game_ref, sol)?);
    if all_outcomes {
        let all = engine::all_outcomes(game_ref, budget);
        holder.outcomes = Some(finish(game_ref, all)?);
    }
    Ok(holder)
}

/// Checks a strategy profile for subgame perfection by one-shot deviations.
#[pyfunction]
#[pyo3(signature = (game, strategy, max_states = Budget::DEFAULT_MAX_STATES))]
pub fn verify<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    strategy: &Bound<'py, PyAny>,
    max_states: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let g = PyGame::new(game)?.limited(max_states);
    let call_strategy = |s: &Id, p: Player| -> Id {
        Python::attach(|py| {
            let state = g.obj(py, *s);
            let r = if let Ok(d) = strategy.cast::<PyDict>() {
                d.get_item(state).ok().flatten()
            } else {
                match strategy.call1((&state, p)) {
                    Ok(m) => Some(m),
                    Err(e) => {
                        g.fail(e);
                        None
                    }
                }
            };
            match r {
                // A move that is not legal here becomes `DEAD`, which the engine refuses
                // by naming the state.
                Some(m) => g.move_index(*s, &m),
                None => {
                    if !g.failed() {
                        g.fail(Error::new_err(format!(
                            "the strategy gives no move at state {}",
                            short(&state)
                        )));
                    }
                    DEAD
                }
            }
        })
    };
    let verdict = engine::verify(&g, Budget { max_states }, call_strategy);
    let verdict = finish(&g, verdict)?;
    let d = PyDict::new(py);
    match verdict {
        Verdict::SubgamePerfect { states } => {
            d.set_item("subgame_perfect", true)?;
            // As the verify commands' reports put it: `checked.states`.
            let checked = PyDict::new(py);
            checked.set_item("states", states)?;
            d.set_item("checked", checked)?;
        }
        Verdict::Deviation(dev) => {
            d.set_item("subgame_perfect", false)?;
            d.set_item("state", g.obj(py, dev.state))?;
            d.set_item("player", dev.player)?;
            d.set_item("prescribed", g.move_obj(py, dev.state, dev.prescribed))?;
            d.set_item("better", g.move_obj(py, dev.state, dev.better))?;
            d.set_item("gain", from_rational(py, &dev.gain)?)?;
        }
    }
    Ok(d)
}

/// Writes the game tree as a Gambit `.efg` file.
#[pyfunction]
#[pyo3(signature = (game, path, title = "lastbite game", max_nodes = 1_000_000))]
pub fn write_efg(
    game: &Bound<'_, PyAny>,
    path: &str,
    title: &str,
    max_nodes: u128,
) -> PyResult<()> {
    // A tree has at least as many nodes as distinct states.
    let g = PyGame::new(game)?.limited(u64::try_from(max_nodes).unwrap_or(u64::MAX));
    let mut buf = Vec::new();
    let r = engine::write_efg(&g, title, max_nodes, &mut buf);
    finish(&g, r)?;
    lastbite::files::write_bytes(std::path::Path::new(path), &buf)
        .map_err(|e| Error::new_err(e.to_string()))
}

/// The most moves one state may have: a `moves` that never ends is cut here.
const MAX_MOVES: usize = 1_000_000;

/// The payoff methods a game may define (one at least), besides the four it must.
const OPTIONAL: [&str; 2] = ["move_payoffs", "terminal_payoffs"];

/// Refuses a game object without one of the four methods it needs, or with no payoff
/// method (naming a close misspelling of one, where it has one).
fn check_methods(obj: &Bound<'_, PyAny>) -> PyResult<()> {
    for name in ["root", "to_move", "moves", "play"] {
        if !obj.hasattr(name)? {
            return Err(Error::new_err(format!(
                "the game has no {name} method (a game needs root, to_move, moves and play)"
            )));
        }
    }
    let names: Vec<String> = obj
        .dir()?
        .iter()
        .filter_map(|n| n.extract::<String>().ok())
        .filter(|n| !n.starts_with('_'))
        .collect();
    let payoffs = &OPTIONAL;
    if payoffs.iter().any(|m| names.iter().any(|n| n == m)) {
        return Ok(());
    }
    // No payoff method: a misspelt one named, else said so (a game with `terminal_payoff`
    // would otherwise solve to all-zero payoffs).
    for wanted in payoffs {
        if let Some(close) = names.iter().find(|n| distance(n, wanted) <= 2) {
            return Err(Error::new_err(format!(
                "the game has {close} but no {wanted}: a misspelling? (lastbite reads terminal_payoffs(state) and move_payoffs(state, move))"
            )));
        }
    }
    Err(Error::new_err(
        "the game has no payoff method: define terminal_payoffs(state) or move_payoffs(state, move)",
    ))
}

/// The edit distance of two names (insertions, deletions, substitutions).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (prev + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
