//! The generic engine for games written in Python: a user's object with `players`,
//! `root()`, `to_move(state)`, `moves(state)`, `play(state, move)` and optionally
//! `move_payoffs(state, move)` and `terminal_payoffs(state)` becomes a
//! [`lastbite::engine::Game`], solved by the engine itself (memoised backward induction,
//! per-player tie rules, all pure SPE outcomes, one-shot deviation checks, Gambit export).
//!
//! States and moves stay Python objects: a state's hash is Python's, taken once, and
//! equality is Python's `==`, so transpositions are solved once. An exception raised by a
//! callback (or a KeyboardInterrupt seen between callbacks) is kept, the engine is led to
//! a quick finish (every state becomes terminal), and the exception is raised unchanged.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use lastbite::engine::{self, Budget, Game, Player, Reason, TieBreak, Ties, Verdict};
use lastbite::rational::Rational;
use num_bigint::BigInt;
use num_rational::BigRational;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::Error;

/// A Python object inside the engine.
#[derive(Clone)]
pub struct Obj {
    obj: Arc<Py<PyAny>>,
    hash: isize,
}

impl Obj {
    fn new(game: &PyGame, obj: Bound<'_, PyAny>) -> Obj {
        let hash = match obj.hash() {
            Ok(h) => h,
            Err(e) => {
                game.fail(e);
                0
            }
        };
        Obj {
            obj: Arc::new(obj.unbind()),
            hash,
        }
    }

    fn bind<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        self.obj.bind(py)
    }
}

impl PartialEq for Obj {
    fn eq(&self, other: &Obj) -> bool {
        if Arc::ptr_eq(&self.obj, &other.obj) {
            return true;
        }
        self.hash == other.hash
            && Python::attach(|py| self.bind(py).eq(other.bind(py)).unwrap_or(false))
    }
}

impl Eq for Obj {}

impl Hash for Obj {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.hash.hash(h)
    }
}

impl fmt::Debug for Obj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = Python::attach(|py| {
            self.bind(py)
                .repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| "<unprintable>".into())
        });
        f.write_str(&text)
    }
}

/// The user's game object.
pub struct PyGame {
    players: usize,
    names: Vec<String>,
    error: Mutex<Option<PyErr>>,
    failed: AtomicBool,
    calls: AtomicU64,
    last_terminal: Mutex<Option<(Obj, Vec<Rational>)>>,
    /// The game's methods, looked up once.
    methods: Methods,
    /// Answers already given for a state object (the engine asks `to_move` and `moves`
    /// again when it comes back to a state, and `play` and the move's payoffs again when
    /// it compares moves): keyed by the address of the state's (and move's) shared
    /// object, which the entry keeps alive, so the user's code runs once per question.
    memo: Mutex<Memo>,
}

struct Methods {
    root: Py<PyAny>,
    to_move: Py<PyAny>,
    moves: Py<PyAny>,
    play: Py<PyAny>,
    move_payoffs: Option<Py<PyAny>>,
    terminal_payoffs: Option<Py<PyAny>>,
}

#[derive(Default)]
struct Memo {
    states: std::collections::HashMap<usize, StateMemo>,
    edges: std::collections::HashMap<(usize, usize), EdgeMemo>,
}

struct StateMemo {
    _keep: Obj,
    to_move: Option<Option<Player>>,
    moves: Option<Vec<Obj>>,
}

struct EdgeMemo {
    _keep: Obj,
    child: Option<Obj>,
    payoffs: Option<Vec<Rational>>,
}

fn addr(o: &Obj) -> usize {
    Arc::as_ptr(&o.obj) as usize
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
        let methods = Methods {
            root: method("root")?,
            to_move: method("to_move")?,
            moves: method("moves")?,
            play: method("play")?,
            move_payoffs: optional("move_payoffs")?,
            terminal_payoffs: optional("terminal_payoffs")?,
        };
        Ok(PyGame {
            methods,
            memo: Mutex::new(Memo::default()),
            players: count,
            names,
            error: Mutex::new(None),
            failed: AtomicBool::new(false),
            calls: AtomicU64::new(0),
            last_terminal: Mutex::new(None),
        })
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
        let out: PyResult<Vec<Rational>> = v
            .try_iter()
            .and_then(|it| it.map(|x| x.and_then(|x| to_rational(&x))).collect());
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

    fn none(&self, py: Python<'_>) -> Obj {
        Obj {
            obj: Arc::new(py.None()),
            hash: 0,
        }
    }
}

impl Game for PyGame {
    type State = Obj;
    type Move = Obj;
    type Payoff = Rational;

    fn players(&self) -> usize {
        self.players
    }

    fn root(&self) -> Obj {
        Python::attach(|py| match self.call(py, &self.methods.root, ()) {
            Some(r) => Obj::new(self, r),
            None => self.none(py),
        })
    }

    fn to_move(&self, s: &Obj) -> Option<Player> {
        if let Some(known) = self
            .memo
            .lock()
            .ok()
            .and_then(|m| m.states.get(&addr(s)).and_then(|e| e.to_move))
        {
            return known;
        }
        let answer = Python::attach(|py| {
            let r = self.call(py, &self.methods.to_move, (s.bind(py),))?;
            if r.is_none() {
                return None;
            }
            match r.extract::<usize>() {
                Ok(p) if p < self.players => Some(p),
                _ => {
                    self.fail(Error::new_err(format!(
                        "to_move({}) returned {}, not None or a player index from 0 to {}",
                        short(s.bind(py)),
                        short(&r),
                        self.players - 1
                    )));
                    None
                }
            }
        });
        if !self.failed() {
            if let Ok(mut m) = self.memo.lock() {
                m.states
                    .entry(addr(s))
                    .or_insert_with(|| StateMemo {
                        _keep: s.clone(),
                        to_move: None,
                        moves: None,
                    })
                    .to_move = Some(answer);
            }
        }
        answer
    }

    fn moves(&self, s: &Obj, out: &mut Vec<Obj>) {
        if let Ok(m) = self.memo.lock() {
            if let Some(moves) = m.states.get(&addr(s)).and_then(|e| e.moves.as_ref()) {
                out.extend(moves.iter().cloned());
                return;
            }
        }
        let start = out.len();
        Python::attach(|py| {
            let Some(r) = self.call(py, &self.methods.moves, (s.bind(py),)) else {
                return;
            };
            match r.try_iter() {
                Ok(it) => {
                    for m in it {
                        match m {
                            Ok(m) => out.push(Obj::new(self, m)),
                            Err(e) => return self.fail(e),
                        }
                    }
                }
                Err(e) => self.fail(e),
            }
        });
        if !self.failed() {
            if let Ok(mut m) = self.memo.lock() {
                m.states
                    .entry(addr(s))
                    .or_insert_with(|| StateMemo {
                        _keep: s.clone(),
                        to_move: None,
                        moves: None,
                    })
                    .moves = Some(out[start..].to_vec());
            }
        }
    }

    fn play(&self, s: &Obj, m: &Obj) -> Obj {
        let key = (addr(s), addr(m));
        if let Ok(memo) = self.memo.lock() {
            if let Some(child) = memo.edges.get(&key).and_then(|e| e.child.clone()) {
                return child;
            }
        }
        let child = Python::attach(|py| {
            match self.call(py, &self.methods.play, (s.bind(py), m.bind(py))) {
                Some(r) => Obj::new(self, r),
                // A fresh object: after a failure every state is terminal, so the engine ends.
                None => Obj {
                    obj: Arc::new(py.None()),
                    hash: self.calls.load(Ordering::Relaxed) as isize,
                },
            }
        });
        if !self.failed() {
            if let Ok(mut memo) = self.memo.lock() {
                memo.edges
                    .entry(key)
                    .or_insert_with(|| EdgeMemo {
                        _keep: m.clone(),
                        child: None,
                        payoffs: None,
                    })
                    .child = Some(child.clone());
            }
        }
        child
    }

    fn add_move_payoffs(&self, s: &Obj, m: &Obj, acc: &mut [Rational]) {
        let Some(method) = &self.methods.move_payoffs else {
            return;
        };
        let key = (addr(s), addr(m));
        let cached = self
            .memo
            .lock()
            .ok()
            .and_then(|memo| memo.edges.get(&key).and_then(|e| e.payoffs.clone()));
        let v = match cached {
            Some(v) => v,
            None => {
                let v = Python::attach(|py| {
                    let r = self.call(py, method, (s.bind(py), m.bind(py)))?;
                    self.payoff_vector(&r, "move_payoffs")
                });
                let Some(v) = v else {
                    return;
                };
                if let Ok(mut memo) = self.memo.lock() {
                    memo.edges
                        .entry(key)
                        .or_insert_with(|| EdgeMemo {
                            _keep: m.clone(),
                            child: None,
                            payoffs: None,
                        })
                        .payoffs = Some(v.clone());
                }
                v
            }
        };
        for (a, x) in acc.iter_mut().zip(&v) {
            a.add_assign(x);
        }
    }

    fn terminal_payoff(&self, s: &Obj, p: Player) -> Rational {
        if self.methods.terminal_payoffs.is_none() || self.failed() {
            return Rational::zero();
        }
        // The engine asks once per player: one Python call per terminal state.
        if let Ok(last) = self.last_terminal.lock() {
            if let Some((state, v)) = &*last {
                if Arc::ptr_eq(&state.obj, &s.obj) {
                    return v[p].clone();
                }
            }
        }
        let Some(method) = &self.methods.terminal_payoffs else {
            return Rational::zero();
        };
        Python::attach(|py| {
            let Some(r) = self.call(py, method, (s.bind(py),)) else {
                return Rational::zero();
            };
            match self.payoff_vector(&r, "terminal_payoffs") {
                Some(v) => {
                    let x = v[p].clone();
                    if let Ok(mut last) = self.last_terminal.lock() {
                        *last = Some((s.clone(), v));
                    }
                    x
                }
                None => Rational::zero(),
            }
        })
    }

    fn player_name(&self, p: Player) -> String {
        self.names[p].clone()
    }

    fn move_label(&self, _s: &Obj, m: &Obj) -> String {
        Python::attach(|py| {
            m.bind(py)
                .str()
                .map(|s| s.to_string())
                .unwrap_or_else(|_| "?".into())
        })
    }

    fn state_text(&self, s: &Obj) -> String {
        Python::attach(|py| short(s.bind(py)))
    }
}

/// A value's repr, shortened for a one-line message.
fn short(v: &Bound<'_, PyAny>) -> String {
    let text = v
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into());
    lastbite::api::escape(&text).trim_matches('\'').to_string()
}

static FRACTION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn fraction_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    FRACTION
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("fractions")?.getattr("Fraction")?.unbind())
        })
        .map(|f| f.bind(py))
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
        let n: BigInt = x.extract()?;
        return Ok(Rational::from_big(BigRational::from_integer(n)));
    }
    let f = fraction_type(py)?.call1((x,)).map_err(|_| {
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

/// One rule for all, a list (one per player), or a dict from player index or name.
fn parse_ties(game: &PyGame, ties: &Bound<'_, PyAny>) -> PyResult<Ties> {
    let rule = |v: &Bound<'_, PyAny>| -> PyResult<TieBreak> {
        let s: String = v.extract()?;
        s.parse::<TieBreak>()
            .map_err(|e| Error::new_err(e.to_string()))
    };
    if ties.is_instance_of::<pyo3::types::PyString>() {
        return Ok(Ties::uniform(rule(ties)?, game.players));
    }
    let mut rules = vec![TieBreak::First; game.players];
    if let Ok(d) = ties.cast::<PyDict>() {
        for (k, v) in d.iter() {
            let p = match k.extract::<usize>() {
                Ok(p) if p < game.players => p,
                _ => {
                    let name: String = k.str()?.to_string();
                    game.names.iter().position(|n| *n == name).ok_or_else(|| {
                        Error::new_err(format!("ties names no player of this game: {}", short(&k)))
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
    fn state(&self, py: Python<'_>, state: Option<Bound<'_, PyAny>>) -> Obj {
        match state {
            Some(s) => Obj::new(self.game(), s),
            None => {
                let _ = py;
                self.game().root()
            }
        }
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
        let s = self.state(py, state);
        match self.sol().value(&s) {
            Some(v) => vector(py, v),
            None => Err(Error::new_err(format!(
                "state {s:?} is not reachable from the root"
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
        let s = self.state(py, state);
        let moves: Vec<Py<PyAny>> = match self.sol().choice(&s) {
            Some(c) => c
                .optimal
                .iter()
                .map(|m| m.bind(py).clone().unbind())
                .collect(),
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
    ) -> Option<Py<PyAny>> {
        let s = self.state(py, state);
        self.sol()
            .choice(&s)
            .map(|c| c.selected.bind(py).clone().unbind())
    }

    /// The equilibrium path from the root: a list of dicts with `state`, `player`,
    /// `move`, `best_moves` and `reason`.
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let steps = self.sol().path();
        let out = PyList::empty(py);
        for st in steps {
            let d = PyDict::new(py);
            d.set_item("state", st.state.bind(py))?;
            d.set_item("player", st.mover)?;
            d.set_item("move", st.mv.bind(py))?;
            let opt: Vec<Py<PyAny>> = st
                .optimal
                .iter()
                .map(|m| m.bind(py).clone().unbind())
                .collect();
            d.set_item("best_moves", opt)?;
            d.set_item("reason", reason_text(st.reason))?;
            out.append(d)?;
        }
        Ok(out)
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
        let s = self.state(py, state);
        let Some(e) = self.sol().explain(&s) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("state", s.bind(py))?;
        d.set_item("player", e.mover)?;
        d.set_item("rule", e.rule.name())?;
        let lines = PyList::empty(py);
        for l in e.lines {
            let m = PyDict::new(py);
            m.set_item("move", l.mv.bind(py))?;
            m.set_item("label", l.label)?;
            m.set_item("payoffs", vector(py, &l.value)?)?;
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
    fn states(&self) -> u64 {
        self.sol().states()
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

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let root = vector(py, self.sol().root_value())?;
        Ok(format!(
            "Solution(value={}, states={})",
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
    let g = PyGame::new(game)?;
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
    let g = PyGame::new(game)?;
    let call_strategy = |s: &Obj, p: Player| -> Obj {
        Python::attach(|py| {
            let r = if let Ok(d) = strategy.cast::<PyDict>() {
                d.get_item(s.bind(py)).ok().flatten()
            } else {
                match strategy.call1((s.bind(py), p)) {
                    Ok(m) => Some(m),
                    Err(e) => {
                        g.fail(e);
                        None
                    }
                }
            };
            match r {
                Some(m) => Obj::new(&g, m),
                None => {
                    if !g.failed() {
                        g.fail(Error::new_err(format!(
                            "the strategy gives no move at state {}",
                            short(s.bind(py))
                        )));
                    }
                    g.none(py)
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
            d.set_item("states", states)?;
        }
        Verdict::Deviation(dev) => {
            d.set_item("subgame_perfect", false)?;
            d.set_item("state", dev.state.bind(py))?;
            d.set_item("player", dev.player)?;
            d.set_item("prescribed", dev.prescribed.bind(py))?;
            d.set_item("better", dev.better.bind(py))?;
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
    let g = PyGame::new(game)?;
    let mut buf = Vec::new();
    let r = engine::write_efg(&g, title, max_nodes, &mut buf);
    finish(&g, r)?;
    std::fs::write(path, buf)
        .map_err(|e| Error::new_err(format!("cannot write {}: {e}", lastbite::api::escape(path))))
}
