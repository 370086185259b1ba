//! lastbite's games played move by move ([`lastbite::api::playable`]) for the Python
//! side's OpenSpiel games: a `Playable` per instance and immutable `Position`s. The
//! family logic is the library's; this converts values (exact returns as `int` and
//! `Fraction`) and raises the library's errors as `lastbite.Error`.

use lastbite::api::{self, Playable, Position};
use lastbite::rational::Rational;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::engine::from_rational;
use crate::error::Error;

fn raise(e: api::Error) -> PyErr {
    Error::new_err(e.to_string())
}

/// A family's game to play move by move.
#[pyclass(module = "lastbite._lastbite", name = "Playable", frozen)]
pub struct PyPlayable {
    inner: Playable,
    /// The family and request it was made from, to pickle it by.
    made_from: (String, String),
}

/// A position of a `Playable` game (immutable: `apply` makes a new one).
#[pyclass(module = "lastbite._lastbite", name = "Position", frozen)]
pub struct PyPosition {
    inner: Position,
    /// Its game, to pickle it by (its history replayed there).
    game: Py<PyPlayable>,
}

/// How a position pickles: the game's `replay` and its arguments.
type Replay<'py> = (Bound<'py, PyAny>, (Py<PyPlayable>, Vec<u64>));

fn exacts<'py>(py: Python<'py>, v: &[lastbite::exact::Exact]) -> PyResult<Bound<'py, PyTuple>> {
    let items: Vec<Bound<'py, PyAny>> = v
        .iter()
        .map(|x| from_rational(py, &Rational::from_exact(*x)))
        .collect::<PyResult<_>>()?;
    PyTuple::new(py, items)
}

#[pymethods]
impl PyPlayable {
    /// The game's description as JSON (exact numbers as integers or `"a/b"` strings).
    fn info(&self) -> String {
        serde_json::to_string(self.inner.info()).expect("the description is JSON")
    }
    /// The initial position.
    fn start(slf: &Bound<'_, Self>) -> PyPosition {
        PyPosition {
            inner: slf.get().inner.start(),
            game: slf.clone().unbind(),
        }
    }
    /// The legal action ids, ascending.
    fn actions(&self, position: &PyPosition) -> Vec<u64> {
        self.inner.actions(&position.inner)
    }
    /// The position after `action` (a `lastbite.Error` when it is not legal).
    fn apply(slf: &Bound<'_, Self>, position: &PyPosition, action: u64) -> PyResult<PyPosition> {
        slf.get()
            .inner
            .apply(&position.inner, action)
            .map(|inner| PyPosition {
                inner,
                game: slf.clone().unbind(),
            })
            .map_err(raise)
    }
    /// The position after playing `history` from the start.
    fn replay(slf: &Bound<'_, Self>, history: Vec<u64>) -> PyResult<PyPosition> {
        let game = &slf.get().inner;
        let mut p = game.start();
        for a in history {
            p = game.apply(&p, a).map_err(raise)?;
        }
        Ok(PyPosition {
            inner: p,
            game: slf.clone().unbind(),
        })
    }
    /// The position as users read it.
    fn state_text(&self, position: &PyPosition) -> String {
        self.inner.state_text(&position.inner)
    }
    /// The key naming the position's state (for transpositions).
    fn key(&self, position: &PyPosition) -> String {
        self.inner.key(&position.inner)
    }
    /// The action as users read it; `None` when it is not legal at `position`.
    fn action_text(&self, position: &PyPosition, action: u64) -> Option<String> {
        self.inner.action_text(&position.inner, action)
    }
    /// Immutable: a copy is the object itself.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
    /// Pickled as the family and request it is made from.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let make = py.import("lastbite._lastbite")?.getattr("game")?;
        Ok((make, self.made_from.clone()))
    }
}

#[pymethods]
impl PyPosition {
    /// The player to move, `None` at the end.
    fn to_move(&self) -> Option<usize> {
        self.inner.to_move()
    }
    /// Whether the play is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
    /// Each player's return so far, exact.
    fn returns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        exacts(py, self.inner.returns())
    }
    /// What the last move paid each player, exact.
    fn rewards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        exacts(py, self.inner.rewards())
    }
    /// The returns as the nearest doubles (for tools that take floats).
    fn float_returns(&self) -> Vec<f64> {
        self.inner.returns().iter().map(|x| x.to_f64()).collect()
    }
    /// The rewards as the nearest doubles.
    fn float_rewards(&self) -> Vec<f64> {
        self.inner.rewards().iter().map(|x| x.to_f64()).collect()
    }
    /// The action ids played from the start.
    fn history(&self) -> Vec<u64> {
        self.inner.history().to_vec()
    }
    /// Immutable: a copy is the object itself.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
    /// Pickled as its game and history (replayed when unpickled).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Replay<'py>> {
        let f = py
            .import("lastbite._lastbite")?
            .getattr("Playable")?
            .getattr("replay")?;
        Ok((f, (self.game.clone_ref(py), self.inner.history().to_vec())))
    }
    fn __repr__(&self) -> String {
        format!("{:?}", self.inner)
    }
}

/// The game of `family` for the instance `request` (a JSON document of its fields).
#[pyfunction]
pub fn game(family: &str, request: &str) -> PyResult<PyPlayable> {
    api::game(family, request)
        .map(|inner| PyPlayable {
            inner,
            made_from: (family.to_string(), request.to_string()),
        })
        .map_err(raise)
}

/// The fields of `family`'s game with their defaults, as JSON.
#[pyfunction]
pub fn game_fields(family: &str) -> PyResult<String> {
    api::game_fields(family)
        .map(|v| v.to_string())
        .map_err(raise)
}
