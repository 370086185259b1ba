//! Values across the boundary: Python objects the arena keeps, `lastbite.CHANCE`, players,
//! and exact numbers both ways (ints and `Fraction`s to rationals, converted exactly).

use lastbite::engine::{Player, CHANCE};
use lastbite::rational::Rational;
use num_bigint::BigInt;
use num_rational::BigRational;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;

/// A borrowed reference to an object the arena keeps alive (`None` for null).
pub(super) fn borrowed<'s, 'py>(
    py: Python<'py>,
    ptr: *mut pyo3::ffi::PyObject,
) -> Borrowed<'s, 'py, PyAny> {
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
pub(super) fn short(v: &Bound<'_, PyAny>) -> String {
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
pub(super) fn player_obj<'py>(py: Python<'py>, p: Player) -> PyResult<Bound<'py, PyAny>> {
    if p == CHANCE {
        Ok(chance_marker(py).clone().into_any())
    } else {
        Ok(p.into_pyobject(py)?.into_any())
    }
}

static FRACTION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

pub(super) fn fraction_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    FRACTION
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("fractions")?.getattr("Fraction")?.unbind())
        })
        .map(|f| f.bind(py))
}

/// An `int` that fits 64 bits (not a bool) as a rational, without running Python code.
pub(super) fn small_int(x: &Bound<'_, PyAny>) -> Option<Rational> {
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

pub(super) fn vector<'py>(py: Python<'py>, v: &[Rational]) -> PyResult<Bound<'py, PyTuple>> {
    let items: Vec<Bound<'py, PyAny>> = v
        .iter()
        .map(|x| from_rational(py, x))
        .collect::<PyResult<_>>()?;
    PyTuple::new(py, items)
}
