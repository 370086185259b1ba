//! Progress bars on stderr (hidden when stderr is not a terminal).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;

use lastbite::api::cost::{duration, Work};
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
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({eta} left)")
                .expect("valid template")
                .progress_chars("=> "),
        );
        Bar {
            bar,
            threshold,
            expected: Mutex::new(None),
        }
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, what: &str) {
        // A call the cost model expects to take seconds is shown whatever its units.
        let expected = *self.expected.lock().unwrap_or_else(|e| e.into_inner());
        if total < self.threshold && expected.is_none_or(|s| s < 2.0) {
            self.bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        self.bar.set_length(total);
        self.bar.set_position(0);
        let about = expected
            .map(|s| format!(" (estimated {})", duration(Work::count(s))))
            .unwrap_or_default();
        self.bar.set_message(format!("solving {what}{about}"));
    }
    fn expect(&self, seconds: f64) {
        *self.expected.lock().unwrap_or_else(|e| e.into_inner()) = Some(seconds);
    }
    fn advance(&self, done: u64) {
        self.bar.inc(done);
    }
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
