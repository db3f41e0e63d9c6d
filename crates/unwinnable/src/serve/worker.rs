//! The state of one worker thread of the service's [`Pool`]: an analyzer
//! or an adjudicator, kept between requests (their tables stay warm) and
//! replaced when a request asks for another configuration; never both at
//! once, so that a worker's memory is one share of the budget
//! ([`crate::memory::Workload::Serve`]). And [`Jobs`]: running a closure
//! on the pool from async code, without waiting for a place in the queue.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use adjudicate::{Adjudicator, Options as RuleOptions};
use search::{Analyzer, Config};

use super::error::ApiError;
use super::metrics::Metrics;
use crate::pool::{Pool, SubmitError};

/// A worker's analyzer or adjudicator.
#[derive(Debug)]
pub struct Worker {
    analyzer: Option<Analyzer>,
    adjudicator: Option<(RuleOptions, Adjudicator)>,
    stop: Arc<AtomicBool>,
}

impl Worker {
    /// A worker whose analyses stop when `stop` is raised.
    pub fn new(stop: &Arc<AtomicBool>) -> Worker {
        Worker { analyzer: None, adjudicator: None, stop: Arc::clone(stop) }
    }

    /// An analyzer configured as `config` (the one kept, if it is).
    pub fn analyzer(&mut self, config: Config) -> &mut Analyzer {
        self.adjudicator = None;
        if self.analyzer.as_ref().is_some_and(|a| *a.config() != config) {
            self.analyzer = None;
        }
        self.analyzer.get_or_insert_with(|| {
            let mut analyzer = Analyzer::new(config);
            analyzer.set_stop_flag(Arc::clone(&self.stop));
            analyzer
        })
    }

    /// An adjudicator following `rules` (the one kept, if it does).
    pub fn adjudicator(&mut self, rules: RuleOptions) -> &mut Adjudicator {
        self.analyzer = None;
        if self.adjudicator.as_ref().is_some_and(|(kept, _)| *kept != rules) {
            self.adjudicator = None;
        }
        let (_, adjudicator) = self.adjudicator.get_or_insert_with(|| {
            let mut adjudicator = Adjudicator::new(rules);
            adjudicator.set_stop_flag(Arc::clone(&self.stop));
            (rules, adjudicator)
        });
        adjudicator
    }
}

/// Submits closures to the pool and counts them in the [`Metrics`].
#[derive(Debug)]
pub struct Jobs {
    pool: Pool<Worker>,
    queue: usize,
    metrics: Arc<Metrics>,
}

/// Counts a job as queued until it starts (or is dropped unrun).
struct Queued(Arc<Metrics>);

impl Drop for Queued {
    fn drop(&mut self) {
        self.0.queued.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Counts a job as running until it ends (or panics).
struct Running(Arc<Metrics>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::Relaxed);
        if std::thread::panicking() {
            self.0.panics.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Jobs {
    /// `workers` threads with a queue of `queue` jobs.
    pub fn new(workers: usize, queue: usize, metrics: Arc<Metrics>) -> std::io::Result<Jobs> {
        let pool = Pool::new("serve", workers, queue, |_, stop| Worker::new(stop))?;
        Ok(Jobs { pool, queue: queue.max(1), metrics })
    }

    /// The worker threads.
    pub fn workers(&self) -> usize {
        self.pool.threads()
    }

    /// The queue's capacity.
    pub fn queue(&self) -> usize {
        self.queue
    }

    /// Runs `work` on a worker and waits for its result: [`ApiError::Busy`]
    /// at once if the queue is full, [`ApiError::Internal`] if it panicked.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Worker) -> T + Send + 'static,
    {
        let (sender, receiver) = tokio::sync::oneshot::channel();
        self.submit(move |worker| {
            let _ = sender.send(work(worker));
        })?;
        receiver.await.map_err(|_| ApiError::Internal("internal error: the analysis panicked".to_string()))
    }

    /// Queues `work` without waiting for it: [`ApiError::Busy`] if the
    /// queue is full.
    pub fn submit<F>(&self, work: F) -> Result<(), ApiError>
    where
        F: FnOnce(&mut Worker) + Send + 'static,
    {
        self.metrics.queued.fetch_add(1, Ordering::Relaxed);
        let queued = Queued(Arc::clone(&self.metrics));
        let job = Box::new(move |worker: &mut Worker| {
            let metrics = Arc::clone(&queued.0);
            drop(queued);
            metrics.running.fetch_add(1, Ordering::Relaxed);
            let _running = Running(metrics);
            work(worker);
        });
        match self.pool.try_submit(job) {
            Ok(()) => Ok(()),
            Err(SubmitError::Full(_)) => {
                self.metrics.rejection("queue-full");
                Err(ApiError::Busy(format!(
                    "all {} workers are busy and {} requests are waiting; try again later",
                    self.workers(),
                    self.queue
                )))
            }
            Err(SubmitError::Stopped(_)) => {
                self.metrics.rejection("shutting-down");
                Err(ApiError::ShuttingDown)
            }
        }
    }

    /// Raises the stop flag: running analyses end soon (answered
    /// `undetermined`, cause `stopped`), queued jobs are dropped unrun
    /// (their requests get 500) and new ones refused (503). Called when the
    /// grace period after SIGTERM is over.
    pub fn stop(&self) {
        self.pool.stop();
    }
}
