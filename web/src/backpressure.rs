//! What a client that does not read may cost the server: a deadline on every write, and a
//! count of the answer bytes computed but not yet written.
//!
//! hyper writes an answer as fast as its client reads it and has no write timeout, so a
//! client that asks for a large report and never reads it would hold the report (and its
//! connection) for ever. [`WriteDeadline`] wraps a connection's stream and fails a write
//! that makes no progress for the deadline (hyper then closes the connection, dropping
//! what it held); [`HeldBody`] hands an answer to hyper a slice at a time and keeps
//! [`Held`] up to date, so the server can refuse new work while too many bytes wait for
//! their readers. It owns nothing else: every byte passes through unchanged.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use hyper::rt::{Read, ReadBufCursor, Write};

/// A stream whose writes fail when one makes no progress within `after`.
pub(crate) struct WriteDeadline<T> {
    inner: T,
    after: Duration,
    /// Armed while a write waits: the moment it gives up.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> WriteDeadline<T> {
    pub(crate) fn new(inner: T, after: Duration) -> Self {
        WriteDeadline {
            inner,
            after,
            timer: None,
        }
    }

    /// `step` as it polled: progress disarms the timer; a wait arms it, and past the
    /// deadline is an error.
    fn timed<R>(&mut self, cx: &mut Context<'_>, step: Poll<io::Result<R>>) -> Poll<io::Result<R>> {
        match step {
            Poll::Ready(r) => {
                self.timer = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let after = self.after;
                let timer = self
                    .timer
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(after)));
                match timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client read nothing within the write timeout",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl<T: Read + Unpin> Read for WriteDeadline<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: Write + Unpin> Write for WriteDeadline<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let step = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.timed(cx, step)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let step = Pin::new(&mut this.inner).poll_flush(cx);
        this.timed(cx, step)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let step = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.timed(cx, step)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let step = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.timed(cx, step)
    }
}

/// The bytes of computed answers not yet handed to their connections, over the server.
#[derive(Default, Clone)]
pub(crate) struct Held(Arc<AtomicUsize>);

impl Held {
    /// Bytes held now.
    pub(crate) fn bytes(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

/// An answer's body handed to hyper a slice at a time (hyper asks for the next only when
/// the last is written or buffered), counted in [`Held`] until then or until the
/// connection ends.
pub(crate) struct HeldBody {
    rest: Bytes,
    held: Held,
}

/// The slice handed to hyper at once: small beside hyper's own write buffer.
const SLICE: usize = 64 << 10;

impl HeldBody {
    pub(crate) fn new(text: String, held: &Held) -> HeldBody {
        held.0.fetch_add(text.len(), Ordering::Relaxed);
        HeldBody {
            rest: Bytes::from(text),
            held: held.clone(),
        }
    }
}

impl Drop for HeldBody {
    fn drop(&mut self) {
        self.held.0.fetch_sub(self.rest.len(), Ordering::Relaxed);
    }
}

impl http_body::Body for HeldBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if this.rest.is_empty() {
            return Poll::Ready(None);
        }
        let slice = this.rest.split_to(this.rest.len().min(SLICE));
        this.held.0.fetch_sub(slice.len(), Ordering::Relaxed);
        Poll::Ready(Some(Ok(http_body::Frame::data(slice))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.rest.len() as u64)
    }
}
