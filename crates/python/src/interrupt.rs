//! Long work off the calling thread, so that Ctrl-C interrupts it: the
//! work runs on a scoped thread (with the large stack the helpmate search
//! needs) while the calling thread, attached to the interpreter, checks
//! for signals every [`POLL`]. When a signal handler raises (Ctrl-C raises
//! `KeyboardInterrupt`), the work's stop flag is raised, the work ends
//! soon after (the analyzers check the flag every 1,024 nodes) and the
//! exception propagates. The GIL is released while waiting.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Stack size of every thread that runs an analysis: the helpmate search
/// recurses up to `search::MAX_HELPMATE_PLIES` plies deep (the command uses
/// the same size).
pub const STACK_SIZE: usize = 64 << 20;

/// How often the calling thread checks for signals.
pub const POLL: Duration = Duration::from_millis(20);

/// Set by the worker when it returns (or unwinds).
#[derive(Debug, Default)]
struct Done {
    flag: Mutex<bool>,
    changed: Condvar,
}

impl Done {
    fn set(&self) {
        *self.flag.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.changed.notify_all();
    }

    /// Waits at most `timeout`; whether the worker is done.
    fn wait(&self, timeout: Duration) -> bool {
        let flag = self.flag.lock().unwrap_or_else(PoisonError::into_inner);
        let (flag, _) =
            self.changed.wait_timeout_while(flag, timeout, |done| !*done).unwrap_or_else(PoisonError::into_inner);
        *flag
    }
}

/// Signals `Done` when dropped: also when the work panics.
struct SetOnDrop<'a>(&'a Done);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.set();
    }
}

/// Runs `work` on a new thread, checking for signals meanwhile; on an
/// exception from a signal handler, raises `stop`, waits for `work` to
/// return and gives the exception. A panic in `work` becomes a
/// `RuntimeError`.
pub fn run<T: Send>(py: Python<'_>, stop: &AtomicBool, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let done = Done::default();
    thread::scope(|scope| {
        let done = &done;
        let worker = thread::Builder::new()
            .name("unwinnable".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, move || {
                let _done = SetOnDrop(done);
                work()
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start an analysis thread: {e}")))?;
        let mut interrupted = None;
        while !py.detach(|| done.wait(POLL)) {
            if interrupted.is_none() {
                if let Err(error) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(error);
                }
            }
        }
        let result = worker.join();
        match (interrupted, result) {
            (Some(error), _) => Err(error),
            (None, Ok(value)) => Ok(value),
            (None, Err(_)) => Err(PyRuntimeError::new_err("internal error: the analysis panicked")),
        }
    })
}
