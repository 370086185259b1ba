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
//!
//! Here the game object and its arena; the engine's view of it in `game.rs`, values across
//! the boundary in `values.rs`, the checks of its methods in `methods.rs`, the solved game
//! and the functions that solve, verify and export in `solution.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use lastbite::engine::fx::FxMap;
use lastbite::engine::{self, Game, Player, CHANCE};
use lastbite::rational::Rational;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::error::Error;

mod game;
mod methods;
mod solution;
mod values;

use methods::{check_methods, MAX_MOVES};
pub use solution::{solve, verify, write_efg, Solution};
use values::{borrowed, short, small_int};
pub use values::{chance_marker, from_rational, to_rational, ChanceType};

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
    /// The most memory, in bytes, the process may grow by while the game's states are
    /// stored (`memory_gib`), from `base` (its resident memory at the start): the states
    /// are the game's own objects, of sizes no formula bounds, so it is measured.
    max_growth: u64,
    base: u64,
    /// The caller's name of `max_states` (`max_nodes` for a tree written out).
    states_field: &'static str,
}

/// How often (in new states) the memory the game's states take is measured.
const MEASURE_EVERY: u32 = 1 << 12;

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
        let bad = |what: String| {
            Error::new_err(format!(
                "players: {what} (players must be a positive count or a list of names)"
            ))
        };
        // A count is an int (not a bool, a float or the text of a number), a list of
        // names any other iterable but text.
        let (count, names) = if players.is_instance_of::<pyo3::types::PyBool>()
            || players.is_instance_of::<pyo3::types::PyFloat>()
            || players.is_instance_of::<pyo3::types::PyString>()
        {
            return Err(bad(format!("{} is not a count", players.repr()?)));
        } else if players.is_instance_of::<pyo3::types::PyInt>() {
            match players.extract::<usize>() {
                Ok(n) => (n, (0..n).map(engine::player_letter).collect()),
                Err(_) => return Err(bad(format!("{} is not a count", players.repr()?))),
            }
        } else {
            let names: Vec<String> = players
                .try_iter()
                .map_err(|_| {
                    bad(format!(
                        "{} is neither",
                        players
                            .repr()
                            .map_or_else(|_| "it".into(), |r| r.to_string())
                    ))
                })?
                .map(|p| p.and_then(|p| p.str().map(|s| s.to_string())))
                .collect::<PyResult<_>>()?;
            (names.len(), names)
        };
        if count == 0 {
            return Err(bad("the game has none".into()));
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
            max_growth: u64::MAX,
            base: 0,
            states_field: "max_states",
        })
    }

    /// The game, refusing to reach more than `max_states` distinct states or to grow the
    /// process by more than `memory_gib` GiB as they are stored.
    fn limited(mut self, max_states: u64, memory_gib: u64) -> PyGame {
        self.max_states = max_states;
        self.max_growth = memory_gib.saturating_mul(1 << 30);
        self.base = lastbite::engine::resident_bytes().unwrap_or(0);
        self
    }

    /// The game, its state budget named `field` in messages (the caller's keyword).
    fn states_named(mut self, field: &'static str) -> PyGame {
        self.states_field = field;
        self
    }

    /// Whether the states stored so far keep within the memory budget; a message naming
    /// it when not.
    fn over_memory(&self) -> Option<String> {
        let grown = lastbite::engine::resident_bytes()?.saturating_sub(self.base);
        (grown > self.max_growth).then(|| {
            format!(
                "the game's states took more than {} of memory (memory_gib): raise memory_gib to allow it, or check that its play ends",
                lastbite::engine::describe_bytes(u128::from(self.max_growth))
            )
        })
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
                        "the game reached more than {} states ({field}; every state play returns counts): raise {field} to allow it, or check that its play ends",
                        self.max_states,
                        field = self.states_field
                    )));
                    return DEAD;
                }
                if id == DEAD {
                    drop(arena);
                    self.fail(Error::new_err("the game has more than 2^32 - 1 states"));
                    return DEAD;
                }
                if id % MEASURE_EVERY == MEASURE_EVERY - 1 {
                    if let Some(why) = self.over_memory() {
                        drop(arena);
                        self.fail(Error::new_err(why));
                        return DEAD;
                    }
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
                // An endless iterator of outcomes is cut where moves are.
                if i >= MAX_MOVES {
                    return Err(Error::new_err(format!(
                        "chance_outcomes({}) gave more than {MAX_MOVES} outcomes (the most a state may have)",
                        short(&state)
                    )));
                }
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
