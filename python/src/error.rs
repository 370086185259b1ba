//! The extension's one exception class, `lastbite.Error` (a `ValueError`): every library
//! refusal and failure is raised as it, with the library's one-line message.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    _lastbite,
    Error,
    PyValueError,
    "The library refused the request or the computation failed; the message is its one line."
);
