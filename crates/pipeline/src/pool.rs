//! A pool of worker threads, each owning its own state (an analyzer with
//! its tables, an adjudicator), that run jobs from one bounded queue.
//!
//! A [`Job`] is a closure given the worker's state; it sends its result
//! wherever its submitter waits for it (a channel per batch for the
//! command's ordered streams, [`crate::ordered`]; a one-shot channel per
//! request for a service). The pool itself knows nothing of results, of
//! order, or of the kind of work:
//!
//! * [`Pool::submit`] waits while the queue is full (back-pressure for a
//!   reader that must not run ahead); [`Pool::try_submit`] returns the job
//!   at once with [`SubmitError::Full`] (a service answers "busy" instead
//!   of queueing without bound);
//! * a job that panics does not take its worker down: the worker's state is
//!   rebuilt (it may be half-updated) and the next job runs; the job's
//!   result channel is dropped with it, so its submitter learns that no
//!   result will come;
//! * [`Pool::stop`] raises the pool's stop flag: jobs not yet started are
//!   dropped unrun, and states that watch the flag (an analyzer given it
//!   with `set_stop_flag`) end their current work soon;
//! * dropping the pool closes the queue and waits for the workers to finish
//!   the jobs already queued (a [`Submitter`] handle submits from another
//!   thread and keeps the queue open while it lives).
//!
//! Every worker thread has a stack of [`STACK_SIZE`](crate::STACK_SIZE)
//! bytes (the helpmate search recurses deeply).

use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

/// Work for a worker: a closure given the worker's state.
pub type Job<S> = Box<dyn FnOnce(&mut S) + Send>;

/// Why a job was not queued; the job is handed back.
pub enum SubmitError<S> {
    /// The queue is full ([`Pool::try_submit`] only).
    Full(Job<S>),
    /// The pool was stopped: no job will run any more.
    Stopped(Job<S>),
}

impl<S> core::fmt::Debug for SubmitError<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            SubmitError::Full(_) => "Full(..)",
            SubmitError::Stopped(_) => "Stopped(..)",
        })
    }
}

/// Worker threads with their states and a bounded queue of jobs.
pub struct Pool<S> {
    submitter: Option<Submitter<S>>,
    workers: Vec<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
}

/// A handle that submits jobs to a [`Pool`] from another thread (the
/// reader of a stream). The queue stays open while a handle lives.
pub struct Submitter<S> {
    queue: SyncSender<Job<S>>,
    stop: Arc<AtomicBool>,
}

impl<S> Clone for Submitter<S> {
    fn clone(&self) -> Submitter<S> {
        Submitter { queue: self.queue.clone(), stop: Arc::clone(&self.stop) }
    }
}

impl<S> core::fmt::Debug for Submitter<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Submitter").finish_non_exhaustive()
    }
}

impl<S> Submitter<S> {
    /// Queues `job`, waiting while the queue is full.
    pub fn submit(&self, job: Job<S>) -> Result<(), SubmitError<S>> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(SubmitError::Stopped(job));
        }
        self.queue.send(job).map_err(|e| SubmitError::Stopped(e.0))
    }

    /// Queues `job` if the queue has room, else hands it back at once.
    pub fn try_submit(&self, job: Job<S>) -> Result<(), SubmitError<S>> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(SubmitError::Stopped(job));
        }
        self.queue.try_send(job).map_err(|e| match e {
            TrySendError::Full(job) => SubmitError::Full(job),
            TrySendError::Disconnected(job) => SubmitError::Stopped(job),
        })
    }
}

impl<S> core::fmt::Debug for Pool<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Pool").field("threads", &self.workers.len()).field("stopped", &self.is_stopped()).finish()
    }
}

impl<S: 'static> Pool<S> {
    /// Starts `threads` workers (at least one) named `name-0`, `name-1`...,
    /// with a queue of `queue` jobs (at least one). Worker `index` builds
    /// its state with `state(index, &stop_flag)` in its own thread (so a
    /// state need not be [`Send`]), and again after a job panicked.
    pub fn new<F>(name: &str, threads: usize, queue: usize, state: F) -> io::Result<Pool<S>>
    where
        F: Fn(usize, &Arc<AtomicBool>) -> S + Send + Sync + 'static,
    {
        let (sender, receiver) = mpsc::sync_channel::<Job<S>>(queue.max(1));
        let receiver = Arc::new(Mutex::new(receiver));
        let stop = Arc::new(AtomicBool::new(false));
        let state = Arc::new(state);
        let submitter = Submitter { queue: sender, stop: Arc::clone(&stop) };
        let mut pool = Pool { submitter: Some(submitter), workers: Vec::with_capacity(threads.max(1)), stop };
        for index in 0..threads.max(1) {
            let (receiver, stop, state) = (Arc::clone(&receiver), Arc::clone(&pool.stop), Arc::clone(&state));
            let worker = thread::Builder::new()
                .name(format!("{name}-{index}"))
                .stack_size(crate::STACK_SIZE)
                .spawn(move || work(index, &receiver, &stop, &*state));
            match worker {
                Ok(worker) => pool.workers.push(worker),
                Err(e) => {
                    // Dropping the pool ends the workers already started.
                    pool.stop();
                    return Err(e);
                }
            }
        }
        Ok(pool)
    }
}

impl<S> Pool<S> {
    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Queues `job`, waiting while the queue is full.
    pub fn submit(&self, job: Job<S>) -> Result<(), SubmitError<S>> {
        match &self.submitter {
            Some(submitter) => submitter.submit(job),
            None => Err(SubmitError::Stopped(job)),
        }
    }

    /// Queues `job` if the queue has room, else hands it back at once.
    pub fn try_submit(&self, job: Job<S>) -> Result<(), SubmitError<S>> {
        match &self.submitter {
            Some(submitter) => submitter.try_submit(job),
            None => Err(SubmitError::Stopped(job)),
        }
    }

    /// A handle to submit jobs from another thread.
    pub fn submitter(&self) -> Option<Submitter<S>> {
        self.submitter.clone()
    }

    /// Stops the pool: queued jobs are dropped unrun, new ones refused, and
    /// the stop flag given to the states is raised.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Pool::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<S> Drop for Pool<S> {
    fn drop(&mut self) {
        // Closing the queue ends each worker once the queue is empty and no
        // [`Submitter`] is left. A stopped pool is not waited for: a
        // submitter may still be held by a thread blocked elsewhere (a
        // reader waiting for input); its workers end when it is dropped.
        self.submitter = None;
        if self.is_stopped() {
            return;
        }
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

/// A worker: runs jobs until the queue is closed and empty.
fn work<S>(
    index: usize,
    receiver: &Mutex<Receiver<Job<S>>>,
    stop: &Arc<AtomicBool>,
    state: &(dyn Fn(usize, &Arc<AtomicBool>) -> S + Send + Sync),
) {
    let mut current: Option<S> = None;
    loop {
        let job = match receiver.lock() {
            Ok(receiver) => receiver.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        let Ok(job) = job else { return };
        if stop.load(Ordering::Relaxed) {
            // Dropped unrun: its result channel tells its submitter.
            continue;
        }
        // The state is built when the first job comes (an idle worker
        // costs no tables).
        let worker_state = current.get_or_insert_with(|| state(index, stop));
        if catch_unwind(AssertUnwindSafe(|| job(worker_state))).is_err() {
            // The state may be half-updated: the next job gets a fresh one.
            current = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    #[test]
    fn jobs_run_on_their_workers_state() {
        let built = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&built);
        let pool = Pool::new("test", 3, 2, move |index, _| {
            counter.fetch_add(1, Ordering::Relaxed);
            (index, 0u64)
        })
        .unwrap();
        assert_eq!(pool.threads(), 3);
        let (tx, rx) = mpsc::channel();
        for n in 0..100u64 {
            let tx = tx.clone();
            pool.submit(Box::new(move |state: &mut (usize, u64)| {
                state.1 += n;
                let _ = tx.send((state.0, n));
            }))
            .unwrap();
        }
        drop(tx);
        let mut results: Vec<(usize, u64)> = rx.iter().collect();
        results.sort_by_key(|r| r.1);
        assert_eq!(results.iter().map(|r| r.1).collect::<Vec<_>>(), (0..100).collect::<Vec<_>>());
        assert!(results.iter().all(|r| r.0 < 3));
        drop(pool);
        assert!(built.load(Ordering::Relaxed) <= 3);
    }

    #[test]
    fn a_full_queue_is_reported_and_a_panic_rebuilds_the_state() {
        let pool = Pool::new("test", 1, 1, |_, _| 0u32).unwrap();
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let gate_rx = Arc::new(Mutex::new(gate_rx));
        // The first job panics after changing the state; the second blocks
        // the worker; the third fills the queue; the fourth is refused.
        pool.submit(Box::new(|state: &mut u32| {
            *state = 7;
            panic!("a bug in a job");
        }))
        .unwrap();
        let (tx, rx) = mpsc::channel();
        let (gate, seen) = (Arc::clone(&gate_rx), tx.clone());
        pool.submit(Box::new(move |state: &mut u32| {
            let _ = seen.send(*state);
            let _ = gate.lock().unwrap().recv();
        }))
        .unwrap();
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(0), "a fresh state after the panic");
        let seen = tx.clone();
        pool.submit(Box::new(move |state: &mut u32| {
            let _ = seen.send(*state + 1);
        }))
        .unwrap();
        let refused = pool.try_submit(Box::new(|_: &mut u32| {}));
        assert!(matches!(refused, Err(SubmitError::Full(_))), "{refused:?}");
        gate_tx.send(()).unwrap();
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(1));
    }

    #[test]
    fn stopping_drops_queued_jobs() {
        let pool = Pool::new("test", 1, 4, |_, _| ()).unwrap();
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (started_tx, started_rx) = mpsc::channel();
        pool.submit(Box::new(move |_: &mut ()| {
            let _ = started_tx.send(());
            let _ = gate_rx.recv();
        }))
        .unwrap();
        started_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        let (tx, rx) = mpsc::channel::<u32>();
        pool.submit(Box::new(move |_: &mut ()| {
            let _ = tx.send(1);
        }))
        .unwrap();
        pool.stop();
        gate_tx.send(()).unwrap();
        // The queued job is dropped unrun: its channel closes without a result.
        assert!(rx.recv_timeout(Duration::from_secs(10)).is_err());
        assert!(matches!(pool.submit(Box::new(|_: &mut ()| {})), Err(SubmitError::Stopped(_))));
    }
}
