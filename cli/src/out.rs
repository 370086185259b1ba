//! Output helpers: buffered stdout, JSON values of exact numbers, broken pipes.

use std::io::{self, BufWriter, Write};

use lastbite::exact::Exact;
use serde_json::Value;

/// A large buffered stdout (tables of a million rows print quickly).
pub fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 20, io::stdout().lock())
}

/// Whether an error is a closed stdout.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// An exact value as JSON: an integer, or a string like `"25/2"`.
pub fn exact(x: &Exact) -> Value {
    x.to_json()
}

/// A list of exact values as JSON.
pub fn exacts(xs: &[Exact]) -> Value {
    Value::Array(xs.iter().map(exact).collect())
}

/// Prints one JSON document on stdout.
pub fn print_json(v: &Value) -> anyhow::Result<()> {
    let mut w = stdout();
    serde_json::to_writer_pretty(&mut w, v)?;
    writeln!(w)?;
    w.flush()?;
    Ok(())
}

/// The letter of a player.
pub fn letter(p: usize) -> String {
    char::from(b'A' + p as u8).to_string()
}
