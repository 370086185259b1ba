//! Progress and cancellation for one API call ([`Control`]): what every long command
//! takes. It owns nothing of any game; it must not depend on the families.

use std::sync::atomic::{AtomicBool, Ordering};

use super::error::Error;
use crate::engine::{Progress, Silent};

/// Progress and cancellation for one API call.
///
/// The progress sink receives the phases of long computations; the flag, when set by
/// another thread (a Ctrl-C handler, a web request that went away), stops them at the
/// next chunk of work with [`Error::Cancelled`].
pub struct Control<'a> {
    progress: &'a dyn Progress,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Control<'a> {
    /// Reports to `progress`; never cancelled.
    pub fn new(progress: &'a dyn Progress) -> Control<'a> {
        Control {
            progress,
            cancel: None,
        }
    }

    /// Also stops when `flag` becomes true.
    pub fn with_cancel(mut self, flag: &'a AtomicBool) -> Control<'a> {
        self.cancel = Some(flag);
        self
    }

    /// No progress, no cancellation.
    pub fn silent() -> Control<'static> {
        Control {
            progress: &Silent,
            cancel: None,
        }
    }

    /// `Err(Cancelled)` when the flag is set.
    pub fn check(&self) -> Result<(), Error> {
        if self.cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }
}

impl Progress for Control<'_> {
    fn start(&self, total: u64, what: &str) {
        self.progress.start(total, what)
    }
    fn advance(&self, done: u64) {
        self.progress.advance(done)
    }
    fn finish(&self) {
        self.progress.finish()
    }
    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || self.progress.cancelled()
    }
}
