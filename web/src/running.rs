//! The computations running: their cancel flags, so that a shutdown stops every one, and
//! the guard that cancels a computation whose client has gone.
//!
//! A computation runs on the blocking pool and stops when its flag is set (the library
//! asks it at least every few hundred milliseconds); nothing else here stops it. It owns
//! nothing else.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// The cancel flags of the computations running now, and whether the server is shutting
/// down (no computation starts then).
#[derive(Default)]
pub(crate) struct Running(Mutex<(Vec<Weak<AtomicBool>>, bool)>);

impl Running {
    /// Tracks a computation's cancel flag, unless the server is shutting down.
    pub(crate) fn start(&self, flag: &Arc<AtomicBool>) -> bool {
        let mut running = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if running.1 {
            return false;
        }
        running.0.retain(|f| f.strong_count() > 0);
        running.0.push(Arc::downgrade(flag));
        true
    }

    /// Cancels every running computation and starts no other.
    pub(crate) fn stop_all(&self) {
        let mut running = self.0.lock().unwrap_or_else(|e| e.into_inner());
        running.1 = true;
        for flag in running.0.drain(..).filter_map(|f| f.upgrade()) {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

/// Cancels a computation when its request is dropped: hyper drops it when the client's
/// connection closes before the answer (the flag set after an answer changes nothing).
pub(crate) struct CancelOnDrop(pub(crate) Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
