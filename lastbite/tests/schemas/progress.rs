//! Progress for every long command: over the command table, each command's sizing fields
//! are grown under a server's budgets (as the cancel test grows them) until a call runs
//! past a second; by then a terminal must be showing progress: the cost model's estimate
//! of [`PROGRESS_FROM_SECONDS`] or more (the CLI's bar of time against the estimate) or a phase in the
//! command's own units. The call is then cancelled.

use lastbite::api::cost::PROGRESS_FROM_SECONDS;
use lastbite::api::{call, serving, Control};
use lastbite::engine::Progress;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What a progress bar would have been told.
#[derive(Default)]
struct Seen {
    started: AtomicBool,
    total: AtomicU64,
    /// The cost model's estimate, in milliseconds.
    expected_ms: AtomicU64,
}

impl Progress for Seen {
    fn start(&self, total: u64, _what: &str) {
        self.started.store(true, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }
    fn expect(&self, seconds: f64) {
        self.expected_ms
            .store((seconds * 1e3) as u64, Ordering::Relaxed);
    }
}

/// Commands that spend their first second before their estimate, with why: known, and
/// listed so that no other joins them unseen.
const BEFORE_THE_ESTIMATE: &[(&str, &str)] = &[(
    "subtraction-scan",
    "makes its plan, every ruleset (5.4 million at triples 320), before estimating it",
)];

#[test]
fn every_long_request_shows_progress() {
    let caps = serving::Caps {
        max_states: 10_000_000,
        max_memory_gib: 2,
        max_seconds: 60,
    };
    let (mut long, mut problems) = (0, Vec::new());
    for g in crate::budgets::growths(&caps) {
        let name = g.name.as_str();
        for request in g.requests {
            let seen = Arc::new(Seen::default());
            let stop = Arc::new(AtomicBool::new(false));
            let (tx, rx) = std::sync::mpsc::channel();
            let (s, flag, command, body) = (
                seen.clone(),
                stop.clone(),
                name.to_string(),
                request.clone(),
            );
            std::thread::spawn(move || {
                let ctl = Control::new(&*s).with_cancel(&flag);
                let _ = tx.send(call(&command, &body, &ctl).is_ok());
            });
            match rx.recv_timeout(Duration::from_secs(1)) {
                Ok(true) => continue,
                Ok(false) => break,
                Err(_) => {
                    long += 1;
                    let ms = seen.expected_ms.load(Ordering::Relaxed);
                    let shown = seen.started.load(Ordering::Relaxed)
                        || ms as f64 >= PROGRESS_FROM_SECONDS * 1e3;
                    let known = BEFORE_THE_ESTIMATE.iter().any(|(c, _)| *c == name);
                    if !shown && !known {
                        problems.push(format!(
                            "{name} {request}: a second in, no progress (estimated {ms} ms)"
                        ));
                    }
                    stop.store(true, Ordering::Relaxed);
                    let _ = rx.recv_timeout(Duration::from_secs(5));
                    break;
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(long >= 10, "only {long} requests ran past a second");
}
