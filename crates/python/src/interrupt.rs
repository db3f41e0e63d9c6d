//! Work off the calling thread, so that the GIL is released and Ctrl-C
//! interrupts it: the calling thread, attached to the interpreter, checks
//! for signals every [`POLL`] while it waits. When a signal handler raises
//! (Ctrl-C raises `KeyboardInterrupt`), the work is told to stop (its
//! analyzers read their stop flag every 1,024 nodes) and the exception
//! propagates once it has.
//!
//! * [`run`]: a scoped thread for one long call (`analyze_many`).
//! * [`on_worker`]: the calling thread's own worker thread, started at its
//!   first call and kept (with its analyzers and their tables): a single
//!   `analyze` call hands its analysis over instead of starting a thread.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Stack size of every thread that runs an analysis (the pipeline's).
pub const STACK_SIZE: usize = pipeline::STACK_SIZE;

/// How often the calling thread checks for signals.
pub const POLL: Duration = Duration::from_millis(20);

/// A result on its way back, or the news that the work panicked.
struct Slot<T> {
    value: Mutex<Option<thread::Result<T>>>,
    changed: Condvar,
}

impl<T> Slot<T> {
    fn new() -> Slot<T> {
        Slot { value: Mutex::new(None), changed: Condvar::new() }
    }

    fn set(&self, value: thread::Result<T>) {
        *self.value.lock().unwrap_or_else(PoisonError::into_inner) = Some(value);
        self.changed.notify_all();
    }

    /// Waits at most `timeout`; the result if it came.
    fn take(&self, timeout: Duration) -> Option<thread::Result<T>> {
        let value = self.value.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut value, _) =
            self.changed.wait_timeout_while(value, timeout, |v| v.is_none()).unwrap_or_else(PoisonError::into_inner);
        value.take()
    }
}

/// Waits for `slot`, checking for signals; on an exception from a signal
/// handler, calls `interrupted`, waits for the work to end and gives the
/// exception.
fn wait<T: Send>(py: Python<'_>, slot: &Slot<T>, interrupted: impl Fn()) -> PyResult<T> {
    let mut error = None;
    loop {
        if let Some(result) = py.detach(|| slot.take(POLL)) {
            return match (error, result) {
                (Some(error), _) => Err(error),
                (None, Ok(value)) => Ok(value),
                (None, Err(_)) => Err(PyRuntimeError::new_err("internal error: the analysis panicked")),
            };
        }
        if error.is_none() {
            if let Err(raised) = py.check_signals() {
                interrupted();
                error = Some(raised);
            }
        }
    }
}

/// Runs `work` on a new thread, checking for signals meanwhile; on an
/// exception from a signal handler, calls `interrupted` (which stops the
/// work), waits for `work` to return and gives the exception. A panic in
/// `work` becomes a `RuntimeError`.
pub fn run<T: Send>(py: Python<'_>, interrupted: impl Fn(), work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let slot = Slot::new();
    thread::scope(|scope| {
        let slot = &slot;
        thread::Builder::new()
            .name("unwinnable".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, move || slot.set(catch_unwind(AssertUnwindSafe(work))))
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start an analysis thread: {e}")))?;
        wait(py, slot, interrupted)
    })
}

/// What a worker thread keeps between calls.
pub type Keep = Vec<(search::Config, search::Analyzer)>;

/// The most analyzers a worker keeps (one per configuration).
pub const KEPT: usize = 4;

/// The analyzer for `config` among `kept` (made if missing; the oldest
/// goes when there are more than [`KEPT`]), stopped by `stop`.
pub fn analyzer<'a>(kept: &'a mut Keep, config: search::Config, stop: &Arc<AtomicBool>) -> &'a mut search::Analyzer {
    let index = match kept.iter().position(|(c, _)| *c == config) {
        Some(index) => index,
        None => {
            if kept.len() >= KEPT {
                kept.remove(0);
            }
            kept.push((config, search::Analyzer::new(config)));
            kept.len() - 1
        }
    };
    let analyzer = &mut kept[index].1;
    analyzer.set_stop_flag(Arc::clone(stop));
    analyzer
}

type Job = Box<dyn FnOnce(&mut Keep) + Send>;

thread_local! {
    /// The calling thread's worker: its job queue.
    static WORKER: std::cell::RefCell<Option<Sender<Job>>> = const { std::cell::RefCell::new(None) };
}

/// Starts a worker thread; its analyzers are made again after a panic.
fn start() -> PyResult<Sender<Job>> {
    let (sender, receiver) = mpsc::channel::<Job>();
    thread::Builder::new()
        .name("unwinnable-worker".into())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let mut kept = Keep::new();
            for job in receiver {
                if catch_unwind(AssertUnwindSafe(|| job(&mut kept))).is_err() {
                    kept.clear();
                }
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start an analysis thread: {e}")))?;
    Ok(sender)
}

/// Runs `work` on the calling thread's worker (its analyzers kept there),
/// with the GIL released; Ctrl-C raises `stop` and the exception comes
/// once `work` has returned.
pub fn on_worker<T: Send + 'static>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce(&mut Keep) -> T + Send + 'static,
) -> PyResult<T> {
    let slot = Arc::new(Slot::new());
    let job: Job = {
        let slot = Arc::clone(&slot);
        Box::new(move |kept: &mut Keep| slot.set(catch_unwind(AssertUnwindSafe(|| work(kept)))))
    };
    let sent = WORKER.with(|worker| -> PyResult<()> {
        let mut worker = worker.borrow_mut();
        let sender = match worker.take() {
            Some(sender) => sender,
            None => start()?,
        };
        let result = sender.send(job);
        if result.is_ok() {
            *worker = Some(sender);
        }
        result.map_err(|_| PyRuntimeError::new_err("internal error: the analysis thread ended"))
    });
    sent?;
    let stop = Arc::clone(stop);
    wait(py, &slot, move || stop.store(true, Ordering::Relaxed))
}
