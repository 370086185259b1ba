//! Progress, cancellation and the work budget for one API call ([`Control`]): what every
//! long command takes. It owns nothing of any game; it must not depend on the families.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::cost::{self, Estimate};
use super::error::Error;
use crate::engine::{Progress, Silent};

/// The estimate a call admitted, with the budget it was checked against.
type Admitted = Arc<Mutex<Option<(Estimate, u64)>>>;

/// Progress, cancellation and the work budget for one API call.
///
/// The progress sink receives the phases of long computations; the flag, when set by
/// another thread (a Ctrl-C handler, a web request that went away), stops them at the
/// next chunk of work with [`Error::Cancelled`]. Every command states its cost through
/// [`Control::admit`] before its work: over the request's `max_seconds` it is refused.
pub struct Control<'a> {
    progress: &'a dyn Progress,
    cancel: Option<&'a AtomicBool>,
    /// The request's work budget in seconds (none: unlimited, a library caller's own).
    max_seconds: Option<u64>,
    /// Stop at the estimate instead of running ([`cost::estimate`]).
    estimating: bool,
    admitted: Admitted,
}

impl<'a> Control<'a> {
    /// Reports to `progress`; never cancelled.
    pub fn new(progress: &'a dyn Progress) -> Control<'a> {
        Control {
            progress,
            cancel: None,
            max_seconds: None,
            estimating: false,
            admitted: Admitted::default(),
        }
    }

    /// Also stops when `flag` becomes true.
    pub fn with_cancel(mut self, flag: &'a AtomicBool) -> Control<'a> {
        self.cancel = Some(flag);
        self
    }

    /// No progress, no cancellation.
    pub fn silent() -> Control<'static> {
        Control::new(&Silent)
    }

    /// A control that stops each call where it admits its cost ([`cost::estimate`]).
    pub(super) fn estimating() -> Control<'static> {
        Control {
            estimating: true,
            ..Control::silent()
        }
    }

    /// The same control under a request's work budget of `max_seconds`.
    pub(super) fn budgeted(&self, max_seconds: u64) -> Control<'a> {
        Control {
            progress: self.progress,
            cancel: self.cancel,
            max_seconds: Some(max_seconds),
            estimating: self.estimating,
            admitted: self.admitted.clone(),
        }
    }

    /// The estimate the call admitted, with its budget.
    pub(super) fn admitted(&self) -> Option<(Estimate, u64)> {
        *self.admitted.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// States the call's cost before its work: refused (naming `max_seconds`) over the
    /// request's budget; otherwise passed to the progress sink as the expected time. A
    /// control made to estimate stops the call here.
    ///
    /// ```
    /// use lastbite::api::call;
    /// use lastbite::api::Control;
    /// let e = call("dinner-best-order", r#"{"size": 24}"#, &Control::silent()).unwrap_err();
    /// assert_eq!(e.field(), Some("max_seconds"));
    /// assert!(e.to_string().contains("is over max_seconds 60"), "{e}");
    /// ```
    pub fn admit(&self, estimate: Estimate) -> Result<(), Error> {
        let max = self.max_seconds.unwrap_or(u64::MAX);
        *self.admitted.lock().unwrap_or_else(|e| e.into_inner()) = Some((estimate, max));
        if self.estimating {
            return Err(Error::Estimated);
        }
        if !cost::within(&estimate, max) {
            return Err(cost::over(&estimate, max));
        }
        let seconds = estimate.seconds().value();
        self.progress.expect(seconds);
        Ok(())
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
    fn expect(&self, seconds: f64) {
        self.progress.expect(seconds)
    }
}
