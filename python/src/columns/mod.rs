//! Reports as columns, for `as_numpy=True`: a serde serialiser that writes a report
//! straight into Rust values, turning every list of records (a table: the subtraction
//! table's rows, the cookie count cells, ...) into one buffer per field, and every list of
//! integers into one buffer, without a Python object per cell. The Python side wraps the
//! buffers as NumPy arrays; everything else becomes the usual Python values.
//!
//! A table's field is a column at its path of field names: integers that fit 64 bits go
//! into an `i64` buffer; lists of integers into one buffer of values and one of offsets
//! (CSR); anything else (text, exact fractions, integers past 64 bits, missing values)
//! makes the column a list of values, converted on the Python side by the schema.

//!
//! Here the visitor and the values handed to Python; the tables' columns in `table.rs`,
//! the serialiser that fills them in `serializer.rs`.

mod serializer;
mod table;

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyList};
use serde::ser::Serialize;

use serializer::{Plain, SerError};
use table::{Data, Out};

/// The report visitor for [`lastbite::api::call_with`].
pub struct Columns;

impl lastbite::api::ReportVisitor for Columns {
    type Output = Result<Out, SerError>;
    fn visit<R: Serialize + lastbite::api::Render>(self, report: &R) -> Result<Out, SerError> {
        report.serialize(Plain { flat: false })
    }
}

/// A column for the Python side: `kind` is "int" (`data`: a bytearray of native `int64`),
/// "ragged" (`data`: values, `offsets`: `int64` bytearrays) or "values" (`data`: a list).
#[pyclass(frozen, name = "Column", module = "lastbite._lastbite")]
pub struct PyColumn {
    #[pyo3(get)]
    kind: &'static str,
    #[pyo3(get)]
    data: Py<PyAny>,
    #[pyo3(get)]
    offsets: Option<Py<PyAny>>,
}

/// A table for the Python side: `rows` and `columns`, a dict nested as the records are,
/// whose leaves are columns.
#[pyclass(frozen, name = "Table", module = "lastbite._lastbite")]
pub struct PyTable {
    #[pyo3(get)]
    rows: usize,
    #[pyo3(get)]
    columns: Py<PyDict>,
}

fn bytes<'py>(py: Python<'py>, v: &[i64]) -> Bound<'py, PyByteArray> {
    // SAFETY: an i64 slice is plain bytes (no padding), read as native-endian int64.
    let raw =
        unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) };
    PyByteArray::new(py, raw)
}

/// The value as Python objects, tables as [`PyTable`] and integer lists as an "int"
/// [`PyColumn`].
pub fn to_python(py: Python<'_>, out: Out) -> PyResult<Py<PyAny>> {
    Ok(match out {
        Out::Null => py.None(),
        Out::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Out::Int(x) => x.into_pyobject(py)?.into_any().unbind(),
        Out::Big(digits) => py
            .get_type::<pyo3::types::PyInt>()
            .call1((digits,))?
            .unbind(),
        Out::Float(x) => x.into_pyobject(py)?.into_any().unbind(),
        Out::Str(s) => s.into_pyobject(py)?.into_any().unbind(),
        Out::List(items) => {
            let l = PyList::empty(py);
            for x in items {
                l.append(to_python(py, x)?)?;
            }
            l.into_any().unbind()
        }
        Out::Map(entries) => {
            let d = PyDict::new(py);
            for (k, v) in entries {
                d.set_item(k.as_ref(), to_python(py, v)?)?;
            }
            d.into_any().unbind()
        }
        Out::Ints(v) => Py::new(
            py,
            PyColumn {
                kind: "int",
                data: bytes(py, &v).into_any().unbind(),
                offsets: None,
            },
        )?
        .into_any(),
        Out::Table(t) => {
            let columns = PyDict::new(py);
            for c in t.columns {
                let col = match c.data {
                    Data::New => PyColumn {
                        kind: "values",
                        data: PyList::empty(py).into_any().unbind(),
                        offsets: None,
                    },
                    Data::Int(v) => PyColumn {
                        kind: "int",
                        data: bytes(py, &v).into_any().unbind(),
                        offsets: None,
                    },
                    Data::Ragged { values, offsets } => PyColumn {
                        kind: "ragged",
                        data: bytes(py, &values).into_any().unbind(),
                        offsets: Some(bytes(py, &offsets).into_any().unbind()),
                    },
                    Data::Values(v) => PyColumn {
                        kind: "values",
                        data: to_python(py, Out::List(v))?,
                        offsets: None,
                    },
                };
                // Nested as the records are: path ["FvF", "outcome"] is columns["FvF"]["outcome"].
                let mut at = columns.clone();
                // A list item that is not a record (a table's odd one out) has no path.
                let whole = [Cow::Borrowed("value")];
                let (last, up) = c.path.split_last().unwrap_or((&whole[0], &[]));
                for k in up {
                    let next = match at.get_item(k.as_ref())? {
                        Some(d) => d.cast_into::<PyDict>()?,
                        None => {
                            let d = PyDict::new(py);
                            at.set_item(k.as_ref(), &d)?;
                            d
                        }
                    };
                    at = next;
                }
                at.set_item(last.as_ref(), Py::new(py, col)?)?;
            }
            Py::new(
                py,
                PyTable {
                    rows: t.rows,
                    columns: columns.unbind(),
                },
            )?
            .into_any()
        }
    })
}
