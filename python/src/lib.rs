//! `lastbite._lastbite`: the Python package's extension module, a thin adapter over
//! [`lastbite::api`]. It takes a command name and a request as JSON, runs the library's
//! function for it with the interpreter released, and returns the report as JSON; the
//! Python side turns Python values into requests and reports into Python values (exact
//! numbers as `int` and `fractions.Fraction`). No game logic lives here.
#![deny(missing_docs)]

mod columns;
mod engine;
mod error;
mod playable;

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use lastbite::api::{self, Control};
use lastbite::engine::Progress;
use pyo3::prelude::*;

use error::Error;

/// A progress bar on stderr, drawn at most ten times a second (tqdm-like), only when
/// asked for and only for phases of some size.
struct Bar {
    enabled: bool,
    total: AtomicU64,
    done: AtomicU64,
    state: Mutex<(String, Instant)>,
}

impl Bar {
    fn new(enabled: bool) -> Bar {
        Bar {
            enabled,
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            state: Mutex::new((String::new(), Instant::now())),
        }
    }

    fn draw(&self, force: bool) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        if !force && state.1.elapsed() < Duration::from_millis(100) {
            return;
        }
        state.1 = Instant::now();
        let total = self.total.load(Ordering::Relaxed).max(1);
        let done = self.done.load(Ordering::Relaxed).min(total);
        let width = 30;
        let filled = (done as u128 * width / total as u128) as usize;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r{} [{}{}] {:>3}% {done}/{total}",
            state.0,
            "=".repeat(filled),
            " ".repeat(width as usize - filled),
            done as u128 * 100 / total as u128
        );
        let _ = err.flush();
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, what: &str) {
        if !self.enabled {
            return;
        }
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        if let Ok(mut s) = self.state.lock() {
            s.0 = what.to_string();
        }
        self.draw(true);
    }
    fn advance(&self, done: u64) {
        if self.enabled {
            self.done.fetch_add(done, Ordering::Relaxed);
            self.draw(false);
        }
    }
    fn finish(&self) {
        if self.enabled {
            self.done
                .store(self.total.load(Ordering::Relaxed), Ordering::Relaxed);
            self.draw(true);
            eprintln!();
        }
    }
}

/// Runs `work` on a worker thread with the interpreter released; the calling thread
/// lets Python handle signals every 50 ms, so Ctrl-C (KeyboardInterrupt) cancels the
/// computation at its next check and is raised here.
fn cancellable<T: Send>(
    py: Python<'_>,
    command: &str,
    progress: bool,
    work: impl FnOnce(&Control) -> Result<T, api::Error> + Send,
) -> PyResult<T> {
    let cancel = AtomicBool::new(false);
    let bar = Bar::new(progress);
    let outcome = std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let ctl = Control::new(&bar).with_cancel(&cancel);
            work(&ctl)
        });
        loop {
            let finished = py.detach(|| {
                for _ in 0..10 {
                    if worker.is_finished() {
                        return true;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                false
            });
            if finished {
                break;
            }
            if let Err(interrupt) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                let _ = py.detach(|| worker.join());
                return Err(interrupt);
            }
        }
        worker
            .join()
            .map_err(|_| Error::new_err(format!("internal error in {command} (please report it)")))
    })?;
    outcome.map_err(|e| Error::new_err(e.to_string()))
}

/// Runs command `command` (e.g. `dinner-solve`) on a JSON request; returns the JSON
/// report.
/// Runs command `command` on a JSON request and returns its report in `format` (json,
/// text, latex, latex-standalone, svg, tikz, tikz-standalone): `lastbite::api::export`.
#[pyfunction]
#[pyo3(signature = (command, request, format, progress = false))]
fn export(
    py: Python<'_>,
    command: &str,
    request: &str,
    format: &str,
    progress: bool,
) -> PyResult<String> {
    let format = api::Format::parse(format).map_err(|e| error::Error::new_err(e.to_string()))?;
    cancellable(py, command, progress, |ctl| {
        api::export(command, request, format, ctl)
    })
}

/// Any picture of lastbite's (its SVG) as a TikZ picture; with `standalone`, a whole
/// document pdflatex compiles.
#[pyfunction]
#[pyo3(signature = (svg, standalone = false))]
fn tikz(svg: &str, standalone: bool) -> PyResult<String> {
    let t = lastbite::tikz::from_svg(svg).map_err(|e| error::Error::new_err(e.to_string()))?;
    Ok(if standalone {
        lastbite::tikz::standalone(&t)
    } else {
        t
    })
}

/// The cost of command `command` on a JSON request, without running it
/// (`lastbite::api::estimate`), as JSON.
#[pyfunction]
fn estimate(command: &str, request: &str) -> PyResult<String> {
    let e = api::estimate(command, request).map_err(|e| Error::new_err(e.to_string()))?;
    Ok(serde_json::to_string(&e).expect("an estimate is JSON"))
}

#[pyfunction]
#[pyo3(signature = (command, request, progress = false))]
fn call(py: Python<'_>, command: &str, request: &str, progress: bool) -> PyResult<String> {
    cancellable(py, command, progress, |ctl| {
        api::call(command, request, ctl)
    })
}

/// Runs command `command` on a JSON request; returns the report as Python values with
/// every list of records as a `Table` of columns and every list of integers as an "int"
/// `Column` (see `columns.rs`), for NumPy.
#[pyfunction]
#[pyo3(signature = (command, request, progress = false))]
fn call_columns(
    py: Python<'_>,
    command: &str,
    request: &str,
    progress: bool,
) -> PyResult<Py<PyAny>> {
    let out = cancellable(py, command, progress, |ctl| {
        api::call_with(command, request, ctl, columns::Columns)
    })?
    .map_err(|e| {
        Error::new_err(format!(
            "internal error in {command}: {e} (please report it)"
        ))
    })?;
    columns::to_python(py, out)
}

/// The number of items of sweep `command` on a JSON request (validating it).
#[pyfunction]
fn sweep_items(command: &str, request: &str) -> PyResult<u64> {
    api::sweep::items(command, request).map_err(|e| Error::new_err(e.to_string()))
}

/// Runs shard `index` (from 1) of `count` of sweep `command` on a JSON request; returns
/// the shard document. The GIL is released meanwhile, so Dask's threads run on.
#[pyfunction]
#[pyo3(signature = (command, request, index, count, progress = false))]
fn sweep_shard(
    py: Python<'_>,
    command: &str,
    request: &str,
    index: u64,
    count: u64,
    progress: bool,
) -> PyResult<String> {
    let shard = api::sweep::Shard::new(index, count).map_err(|e| Error::new_err(e.to_string()))?;
    cancellable(py, command, progress, |ctl| {
        api::sweep::shard(command, request, shard, ctl)
    })
}

/// Merges the shard documents of one sweep; returns `(command, report JSON, the CLI's
/// --json document)`.
#[pyfunction]
fn sweep_merge(py: Python<'_>, docs: Vec<String>) -> PyResult<(String, String, String)> {
    let m = cancellable(py, "merge", false, |ctl| api::sweep::merge(&docs, ctl))?;
    Ok((m.command, m.json, m.document))
}

/// Writes `text` to `path` through the library's one writer (atomic for a regular file,
/// through for a device or FIFO, a link kept): the Dask store's shard files.
#[pyfunction]
fn write_file(path: &str, text: &str) -> PyResult<()> {
    lastbite::files::write_bytes(std::path::Path::new(path), text.as_bytes())
        .map_err(|e| Error::new_err(e.to_string()))
}

/// Checks a shard document's checksum: `None` when it holds, else what failed.
#[pyfunction]
fn shard_problem(text: &str) -> Option<String> {
    lastbite::files::unseal_json(text).err()
}

/// The names of the sweep commands.
#[pyfunction]
fn sweeps() -> Vec<&'static str> {
    api::sweep::SWEEPS.to_vec()
}

/// The names of every analysis command.
#[pyfunction]
fn commands() -> Vec<&'static str> {
    api::COMMANDS.to_vec()
}

/// Every JSON Schema as one JSON object, keyed `dinner-solve.request`,
/// `dinner-solve.report`, ...
#[pyfunction]
fn schemas() -> String {
    let all: std::collections::BTreeMap<String, _> = api::schemas().into_iter().collect();
    lastbite_json(&all)
}

fn lastbite_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("schemas are JSON")
}

/// The extension module.
#[pymodule]
fn _lastbite(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(estimate, m)?)?;
    m.add_function(wrap_pyfunction!(tikz, m)?)?;
    m.add_function(wrap_pyfunction!(export, m)?)?;
    m.add_function(wrap_pyfunction!(call_columns, m)?)?;
    m.add_class::<columns::PyColumn>()?;
    m.add_class::<columns::PyTable>()?;
    m.add_function(wrap_pyfunction!(commands, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_items, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_shard, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_merge, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps, m)?)?;
    m.add_function(wrap_pyfunction!(write_file, m)?)?;
    m.add_function(wrap_pyfunction!(shard_problem, m)?)?;
    m.add_function(wrap_pyfunction!(schemas, m)?)?;
    m.add_function(wrap_pyfunction!(engine::solve, m)?)?;
    m.add_function(wrap_pyfunction!(engine::verify, m)?)?;
    m.add_function(wrap_pyfunction!(engine::write_efg, m)?)?;
    m.add_class::<engine::Solution>()?;
    m.add_class::<engine::ChanceType>()?;
    m.add_class::<playable::PyPlayable>()?;
    m.add_class::<playable::PyPosition>()?;
    m.add_function(wrap_pyfunction!(playable::game, m)?)?;
    m.add_function(wrap_pyfunction!(playable::game_fields, m)?)?;
    m.add("CHANCE", engine::chance_marker(m.py()).clone())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The library's features compiled into this module (for `show_versions()`).
    m.add("__features__", lastbite::build::features())?;
    // The commit it was built from (`unknown` from an sdist), as `lastbite --version` says.
    m.add("__commit__", env!("LASTBITE_COMMIT"))?;
    Ok(())
}
