//! hyper's own answers, made like every other answer.
//!
//! A request hyper cannot parse (a malformed request line or header: 400, a target over
//! 64 KiB: 414, too many headers or over its buffer: 431) is answered by hyper itself, before any
//! service sees it, with an empty body and none of the security headers. That answer is
//! the last thing written on its connection (hyper closes it after), so [`OwnErrors`], a
//! wrapper around the connection's stream, recognises it at the end of a write and
//! rewrites it into a one-line JSON body with the headers every other answer carries.
//! What hyper would take without a word is answered the same way, before hyper reads it:
//! a connection that opens with HTTP/2's preface (which hyper's HTTP/1.1 server drops
//! silently) with 505, a request head with `Content-Length` twice (hyper keeps one when
//! both agree) with 400.
//! It owns nothing else: every other byte passes through unchanged.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use hyper::rt::{Read, ReadBufCursor, Write};

/// A connection's stream whose hyper-made error answers are rewritten.
pub(crate) struct OwnErrors<T> {
    inner: T,
    /// The Content-Security-Policy every answer carries.
    csp: &'static str,
    /// Bytes accepted from hyper but not yet written (a rewritten answer).
    pending: Vec<u8>,
    written: usize,
    /// Whether the connection's first bytes are still to be read.
    first: bool,
    /// Whether the connection is answered here and ends once `pending` is written.
    closing: bool,
    /// The buffer every read goes through.
    scratch: Vec<u8>,
    /// The request heads read so far.
    heads: Heads,
}

/// The first bytes of an HTTP/2 connection (RFC 9113, section 3.4).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n";

impl<T> OwnErrors<T> {
    pub(crate) fn new(inner: T, csp: &'static str) -> Self {
        OwnErrors {
            inner,
            csp,
            pending: Vec::new(),
            written: 0,
            first: true,
            closing: false,
            scratch: Vec::new(),
            heads: Heads::default(),
        }
    }
}

/// Where an answer hyper made itself begins in `buf`, if `buf` ends with one: a head
/// with status 400, 414 or 431, an empty body and no `X-Content-Type-Options` (which the
/// server's own answers always carry). Its bodies are JSON, HTML, scripts and
/// WebAssembly, none of which ends with a bare HTTP head.
fn automatic_answer(buf: &[u8]) -> Option<usize> {
    if !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let at = buf
        .windows(9)
        .rposition(|w| w == b"HTTP/1.1 " || w == b"HTTP/1.0 ")?;
    let head = std::str::from_utf8(&buf[at..]).ok()?.to_ascii_lowercase();
    let status = head.get(9..12)?;
    let own = ["400", "414", "431"].contains(&status)
        && head.contains("\r\ncontent-length: 0\r\n")
        && !head.contains("x-content-type-options")
        // One head only: no blank line before its end.
        && head.find("\r\n\r\n") == Some(head.len() - 4);
    own.then_some(at)
}

/// The answer hyper made (`head`), as the server would have made it.
fn rewrite(head: &[u8], csp: &str) -> Vec<u8> {
    let head = String::from_utf8_lossy(head);
    let status_line = head.lines().next().unwrap_or("HTTP/1.1 400 Bad Request");
    let message = match status_line.get(9..12) {
        Some("414") => "the request's target (its path and query) is too long",
        Some("431") => "the request's headers are too large",
        _ => "the request is not well-formed HTTP/1.1 (its request line or a header)",
    };
    let date = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("date:"))
        .map(|l| format!("{l}\r\n"))
        .unwrap_or_default();
    answer(status_line, message, &date, csp)
}

/// A closing JSON error answer with the headers every answer carries.
fn answer(status_line: &str, message: &str, date: &str, csp: &str) -> Vec<u8> {
    let body = serde_json::json!({ "error": message }).to_string();
    format!(
        "{status_line}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-security-policy: {}\r\nx-content-type-options: nosniff\r\nreferrer-policy: no-referrer\r\ncontent-length: {}\r\n{date}\r\n{body}",
        csp,
        body.len()
    )
    .into_bytes()
}

impl<T: Write + Unpin> OwnErrors<T> {
    /// Writes what is pending; ready when nothing is.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: Read + Write + Unpin> Read for OwnErrors<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        mut buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.closing {
            // The answer written, hyper reads the end of the stream.
            ready!(this.drain(cx))?;
            return Poll::Ready(Ok(()));
        }
        // Every read goes through a buffer of ours, so that what hyper would take quietly
        // (an HTTP/2 preface, a header it folds) is answered here and hyper reads the end
        // of the stream instead.
        let mut bytes = std::mem::take(&mut this.scratch);
        bytes.resize(buf.remaining().min(16 << 10), 0);
        let mut read = hyper::rt::ReadBuf::new(&mut bytes);
        let polled = Pin::new(&mut this.inner).poll_read(cx, read.unfilled());
        let got = read.filled();
        let refused = match polled {
            Poll::Ready(Ok(())) => {
                let first = std::mem::replace(&mut this.first, false);
                if first && got.starts_with(H2_PREFACE) {
                    Some((
                        "HTTP/1.1 505 HTTP Version Not Supported",
                        "HTTP/2 is not served here: send HTTP/1.1",
                    ))
                } else {
                    this.heads
                        .feed(got)
                        .map(|m| ("HTTP/1.1 400 Bad Request", m))
                }
            }
            _ => None,
        };
        if refused.is_none() && polled.is_ready() {
            buf.put_slice(got);
        }
        this.scratch = bytes;
        if let Some((status, message)) = refused {
            this.pending = answer(status, message, "", this.csp);
            this.written = 0;
            this.closing = true;
            ready!(this.drain(cx))?;
            return Poll::Ready(Ok(()));
        }
        polled
    }
}

/// The request heads of a connection, read as they pass, for what hyper's parser would
/// accept silently: a `Content-Length` given twice with the same value (hyper keeps one).
/// Bodies of a stated length are skipped; a chunked body ends the scan (hyper reads it).
#[derive(Default)]
struct Heads {
    head: Vec<u8>,
    body_left: u64,
    opaque: bool,
}

impl Heads {
    /// Reads `bytes`; the problem, when a head has one.
    fn feed(&mut self, mut bytes: &[u8]) -> Option<&'static str> {
        while !bytes.is_empty() && !self.opaque {
            if self.body_left > 0 {
                let k = self.body_left.min(bytes.len() as u64) as usize;
                self.body_left -= k as u64;
                bytes = &bytes[k..];
                continue;
            }
            self.head.push(bytes[0]);
            bytes = &bytes[1..];
            if self.head == b"\r\n" {
                // An empty line before a request line is allowed.
                self.head.clear();
            } else if self.head.ends_with(b"\r\n\r\n") {
                let problem = self.end_head();
                self.head.clear();
                if problem.is_some() {
                    return problem;
                }
            } else if self.head.len() > 1 << 20 {
                // hyper refuses a head this long itself.
                self.opaque = true;
            }
        }
        None
    }

    fn end_head(&mut self) -> Option<&'static str> {
        let text = String::from_utf8_lossy(&self.head).to_ascii_lowercase();
        let (mut lengths, mut length) = (0, None);
        for line in text.split("\r\n").skip(1) {
            if let Some(v) = line.strip_prefix("content-length:") {
                lengths += 1;
                length = v.trim().parse::<u64>().ok();
            } else if line.starts_with("transfer-encoding:") {
                self.opaque = true;
            }
        }
        if lengths > 1 {
            return Some("the content-length header is given more than once");
        }
        match length {
            Some(n) => self.body_left = n,
            // hyper refuses a length it cannot read.
            None if lengths == 1 => self.opaque = true,
            None => {}
        }
        None
    }
}

impl<T: Write + Unpin> Write for OwnErrors<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        if let Some(at) = automatic_answer(buf) {
            this.pending = buf[..at].to_vec();
            this.pending.extend(rewrite(&buf[at..], this.csp));
            // Accepted whole; what the socket does not take now goes out on the flush
            // hyper makes next.
            if let Poll::Ready(Err(e)) = this.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }

    /// One buffer per write, so that an answer's head is never split across buffers.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_own_heads_are_recognised() {
        let own = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Sat, 28 Nov 2026 07:09:42 GMT\r\n\r\n";
        assert_eq!(automatic_answer(own), Some(0));
        let mut after =
            b"HTTP/1.1 200 OK\r\nx-content-type-options: nosniff\r\ncontent-length: 2\r\n\r\n{}"
                .to_vec();
        let at = after.len();
        after.extend_from_slice(own);
        assert_eq!(automatic_answer(&after), Some(at));
        let ours = b"HTTP/1.1 400 Bad Request\r\nx-content-type-options: nosniff\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(automatic_answer(ours), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(automatic_answer(ok), None);
        let text = rewrite(own, "default-src 'self'");
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(text.contains("date: Sat, 28 Nov 2026 07:09:42 GMT\r\n"));
        let body = text.split_once("\r\n\r\n").unwrap().1;
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"], "the request's headers are too large");
        assert!(text.contains(&format!("content-length: {}\r\n", body.len())));
    }
}
