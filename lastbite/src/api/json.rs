//! The JSON writer of reports: one document, readable and streamable.
//!
//! Objects and arrays are broken over lines only at the two outer levels, so that a
//! report's fields each start a line and a list of a million bites is one bite per line,
//! while each bite stays compact. serde writes straight to the stream: no document is
//! built in memory. [`parse_request`] is the other direction: a request from a document.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;

use super::error::Error;

/// Reads a request from a JSON document (for front ends that receive JSON: the web API,
/// files of requests); errors are one line.
///
/// ```
/// use lastbite::api::{parse_request, dinner::SolveRequest};
/// let req: SolveRequest = parse_request(r#"{"morsels": "1,2 2,3"}"#).unwrap();
/// assert!(parse_request::<SolveRequest>("{\"max_state\": 1}").is_err());
/// let err = parse_request::<SolveRequest>("{\"max_states\": -1}").unwrap_err();
/// assert!(err.to_string().contains("max_states: invalid value"));
/// // A fraction where a count belongs names the field, not a place in the text.
/// let err = parse_request::<lastbite::api::dinner::EfgRequest>(
///     r#"{"morsels": "1,2", "max_nodes": 1.5}"#,
/// )
/// .unwrap_err();
/// assert!(err.to_string().contains("max_nodes: invalid type"), "{err}");
/// // Text that is not JSON says where it breaks.
/// let err = parse_request::<SolveRequest>(r#"{"morsels": "1,2""#).unwrap_err();
/// assert!(err.to_string().contains("at line 1 column 17"), "{err}");
/// ```
pub fn parse_request<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, Error> {
    let fail = |message: String| Error::Request {
        message: crate::text::clean(&message),
    };
    let mut de = serde_json::Deserializer::from_str(json);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // A value of the wrong type names its field (`heap: invalid value: ...`); text
        // that is not JSON says where it breaks (`... at line 1 column 11`), and its
        // field where one is known.
        let path = e.path().to_string();
        let syntax = matches!(
            e.inner().classify(),
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof
        );
        let inner = e.into_inner().to_string();
        if path == "." || path.is_empty() || (syntax && path.contains('?')) {
            fail(inner)
        } else if syntax {
            fail(format!("{path}: {inner}"))
        } else {
            // The position in the document says nothing that the field does not.
            let inner = match inner.rsplit_once(" at line ") {
                Some((head, tail))
                    if tail
                        .split(" column ")
                        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
                {
                    head.to_string()
                }
                _ => inner,
            };
            fail(format!("{path}: {inner}"))
        }
    })?;
    de.end().map_err(|e| fail(e.to_string()))?;
    Ok(value)
}

/// Writes `report` as one JSON document followed by a newline.
pub fn write_json<T: Serialize + ?Sized>(report: &T, w: &mut dyn Write) -> io::Result<()> {
    let mut w = Chunked::new(w);
    let mut ser = serde_json::Serializer::with_formatter(
        &mut w,
        Outline {
            depth: 0,
            has_value: false,
        },
    );
    report.serialize(&mut ser).map_err(io_error)?;
    w.write_all(b"\n")?;
    w.flush_chunk()
}

/// Writes `report` as one compact JSON document (one line, no spaces) followed by a
/// newline: the same document as [`write_json`], for programs reading it through a pipe.
pub fn write_json_compact<T: Serialize + ?Sized>(report: &T, w: &mut dyn Write) -> io::Result<()> {
    let mut w = Chunked::new(w);
    serde_json::to_writer(&mut w, report).map_err(io_error)?;
    w.write_all(b"\n")?;
    w.flush_chunk()
}

/// A serialisation error as an I/O error of the same kind, so that a closed pipe met
/// while a chunk is written still reads as a closed pipe (the CLI then ends quietly).
fn io_error(e: serde_json::Error) -> io::Error {
    match e.io_error_kind() {
        Some(kind) => io::Error::new(kind, e),
        None => io::Error::other(e),
    }
}

/// A buffer of 256 KiB in front of the caller's writer. serde writes a document in
/// pieces of a few bytes (a key, a colon, a number); through `&mut dyn Write` each piece
/// was a call that could not be inlined, a quarter of writing a million bites. Here they
/// are copies into a vector the compiler sees, and the writer gets whole chunks: the
/// document is still streamed, never built whole.
struct Chunked<'a> {
    buf: Vec<u8>,
    out: &'a mut dyn Write,
}

impl<'a> Chunked<'a> {
    const SIZE: usize = 256 << 10;

    fn new(out: &'a mut dyn Write) -> Chunked<'a> {
        Chunked {
            buf: Vec::with_capacity(Self::SIZE),
            out,
        }
    }

    /// Hands the buffered bytes to the writer (not flushing it: the caller owns that).
    fn flush_chunk(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}

impl Write for Chunked<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.buf.len() + bytes.len() > Self::SIZE {
            self.flush_chunk()?;
        }
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_chunk()?;
        self.out.flush()
    }
}

/// Pretty at depth 1 and 2, compact deeper.
struct Outline {
    depth: usize,
    has_value: bool,
}

const BROKEN: usize = 2;

impl Outline {
    fn indent<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
    fn open<W: ?Sized + Write>(&mut self, w: &mut W, c: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(c)
    }
    fn close<W: ?Sized + Write>(&mut self, w: &mut W, c: &[u8]) -> io::Result<()> {
        let broken = self.depth <= BROKEN;
        self.depth -= 1;
        if broken && self.has_value {
            self.indent(w)?;
        }
        self.has_value = true;
        w.write_all(c)
    }
    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.depth <= BROKEN {
            self.indent(w)
        } else if !first {
            w.write_all(b" ")
        } else {
            Ok(())
        }
    }
}

impl Formatter for Outline {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn outline_breaks_two_levels() {
        let v = serde_json::json!({"a": 1, "b": [{"x": [1, 2]}, {"x": []}], "c": {}});
        let mut out = Vec::new();
        super::write_json(&v, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "{\n  \"a\": 1,\n  \"b\": [\n    {\"x\": [1, 2]},\n    {\"x\": []}\n  ],\n  \"c\": {}\n}\n"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
    }
}
