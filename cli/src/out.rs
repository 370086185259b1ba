//! Output: buffered stdout, reports as JSON or text, broken pipes, errors with flags.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use lastbite::api;

/// A large buffered stdout (tables of a million rows print quickly).
pub fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    widen_pipe();
    BufWriter::with_capacity(1 << 20, io::stdout().lock())
}

/// When stdout is a pipe, asks Linux to let it hold 1 MiB instead of 64 KiB: a document of
/// tens of megabytes then crosses in a sixteenth of the hand-overs between this process
/// and its reader. A refusal (a lower system limit) leaves the pipe as it was.
fn widen_pipe() {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        use std::sync::Once;
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            let fd = io::stdout().as_raw_fd();
            // SAFETY: fstat and fcntl on our own stdout descriptor, with a zeroed stat
            // buffer of the right type; neither touches memory beyond it.
            unsafe {
                let mut st: libc::stat = std::mem::zeroed();
                if libc::fstat(fd, &mut st) == 0 && st.st_mode & libc::S_IFMT == libc::S_IFIFO {
                    libc::fcntl(fd, libc::F_SETPIPE_SZ, 1 << 20);
                }
            }
        });
    }
}

/// Writes to stdout with `write` and flushes: a failed write is an error naming stdout
/// (exit 1), except a closed pipe, which [`is_broken_pipe`] lets end quietly.
pub fn to_stdout(write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut w = stdout();
    write(&mut w)
        .and_then(|()| Ok(w.flush()?))
        .context("cannot write to stdout")
}

/// Whether an error is a closed stdout.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

static PRETTY: AtomicBool = AtomicBool::new(false);

/// Whether `--pretty` was given.
pub fn set_pretty(pretty: bool) {
    PRETTY.store(pretty, Ordering::Relaxed);
}

/// Whether `--json` documents are broken over lines: on a terminal, or with `--pretty`.
pub fn pretty_json() -> bool {
    PRETTY.load(Ordering::Relaxed) || io::stdout().is_terminal()
}

/// The exit code of a `verify` whose profile is not subgame perfect: a finding, neither
/// success (0) nor an error (1) nor a usage error (2), so scripts can tell them apart.
pub const NOT_SUBGAME_PERFECT: u8 = 3;

/// The exit code of a check: 0 when it holds, [`NOT_SUBGAME_PERFECT`] when not.
pub fn verdict(subgame_perfect: bool) -> ExitCode {
    if subgame_perfect {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_SUBGAME_PERFECT)
    }
}

/// The command-line spelling of a request field: `max_states` is `--max-states`; the
/// positional arguments keep their names.
pub fn flag(field: &str) -> String {
    match field {
        "file" => "FILE".into(),
        "components" => "COMPONENTS".into(),
        "statement" => "STATEMENT".into(),
        "figure" => "FIGURE".into(),
        "picture" => "--svg/--png/--tikz".into(),
        f => format!("--{}", f.replace('_', "-")),
    }
}

/// An API error in the CLI's words.
#[derive(Debug)]
pub struct CliError(pub api::Error);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.message_with(flag))
    }
}

impl std::error::Error for CliError {}

/// Converts an API result for `?` in the commands.
pub fn call<T>(r: Result<T, api::Error>) -> anyhow::Result<T> {
    r.map_err(|e| anyhow::Error::new(CliError(e)))
}
