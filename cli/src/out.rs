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

/// A JSON object written field by field, so that arrays of millions of entries stream
/// to stdout instead of being built as one value. Small values go through serde_json.
pub struct JsonDoc<W: Write> {
    w: W,
    fields: usize,
}

impl<W: Write> JsonDoc<W> {
    /// Opens the object.
    pub fn new(mut w: W) -> io::Result<Self> {
        w.write_all(b"{")?;
        Ok(JsonDoc { w, fields: 0 })
    }

    fn key(&mut self, key: &str) -> io::Result<()> {
        let sep = if self.fields == 0 { "\n" } else { ",\n" };
        self.fields += 1;
        write!(self.w, "{sep}  \"{key}\": ")
    }

    /// A field with a small value (written compactly on one line).
    pub fn field(&mut self, key: &str, value: &Value) -> io::Result<()> {
        self.key(key)?;
        serde_json::to_writer(&mut self.w, value)?;
        Ok(())
    }

    /// A field holding an array, one item per line, each written by `item`.
    pub fn array<T>(
        &mut self,
        key: &str,
        items: impl IntoIterator<Item = T>,
        mut item: impl FnMut(&mut W, T) -> io::Result<()>,
    ) -> io::Result<()> {
        self.key(key)?;
        self.w.write_all(b"[")?;
        let mut first = true;
        for x in items {
            self.w
                .write_all(if first { b"\n    " } else { b",\n    " })?;
            first = false;
            item(&mut self.w, x)?;
        }
        self.w.write_all(if first { b"]" } else { b"\n  ]" })
    }

    /// Closes the object and flushes.
    pub fn finish(mut self) -> io::Result<()> {
        self.w.write_all(b"\n}\n")?;
        self.w.flush()
    }
}
