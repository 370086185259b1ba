//! Progress bars on stderr (hidden when stderr is not a terminal). Every command states
//! its cost before its work, so a call the cost model expects to take a quarter of a
//! second or more ([`PROGRESS_FROM_SECONDS`]) shows a bar at once, from the estimate (time elapsed against the time expected); a
//! phase the command counts in its own units then replaces it with a bar of those units.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;

use lastbite::api::cost::{duration, Work, PROGRESS_FROM_SECONDS};
use lastbite::engine::Progress;

/// A [`Progress`] drawn with indicatif, only for jobs worth watching.
pub struct Bar {
    bar: ProgressBar,
    threshold: u64,
    /// The cost model's estimate of the whole call, in seconds of one core.
    expected: Mutex<Option<f64>>,
}

impl Bar {
    /// A bar for phases of at least 2^20 units (state tables).
    pub fn new() -> Bar {
        Bar::with_threshold(1 << 20)
    }

    /// A bar that appears once a phase of at least `threshold` units starts.
    pub fn with_threshold(threshold: u64) -> Bar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(units_style());
        Bar {
            bar,
            threshold,
            expected: Mutex::new(None),
        }
    }

    /// A handle that clears the bar (before a report is written under it).
    pub fn clearer(&self) -> ProgressBar {
        self.bar.clone()
    }
}

/// A phase in the command's own units: a bar of them, with the time left.
fn units_style() -> ProgressStyle {
    ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({eta} left)")
        .expect("valid template")
        .progress_chars("=> ")
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, what: &str) {
        // A call the cost model expects to take seconds is shown whatever its units.
        let expected = *self.expected.lock().unwrap_or_else(|e| e.into_inner());
        if total < self.threshold && expected.is_none_or(|s| s < PROGRESS_FROM_SECONDS) {
            self.bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        self.bar.disable_steady_tick();
        self.bar.set_style(units_style());
        self.bar.set_length(total);
        self.bar.set_position(0);
        let about = expected
            .map(|s| format!(" (estimated {})", duration(Work::count(s))))
            .unwrap_or_default();
        self.bar.set_message(format!("solving {what}{about}"));
    }
    fn expect(&self, seconds: f64) {
        *self.expected.lock().unwrap_or_else(|e| e.into_inner()) = Some(seconds);
        if seconds >= PROGRESS_FROM_SECONDS {
            // Until a phase with units starts: the time elapsed against the estimate.
            self.bar.set_style(
                ProgressStyle::with_template("{msg} {spinner} {elapsed} elapsed")
                    .expect("valid template"),
            );
            self.bar.set_message(format!(
                "working (estimated {})",
                duration(Work::count(seconds))
            ));
            self.bar
                .enable_steady_tick(std::time::Duration::from_millis(200));
        }
    }
    fn advance(&self, done: u64) {
        self.bar.inc(done);
    }
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
