//! The state of one worker thread of the service's [`Pool`]: an analyzer
//! or an adjudicator, kept between requests (their tables stay warm) and
//! replaced when a request asks for another configuration; never both at
//! once, so that a worker's memory is one share of the budget
//! ([`pipeline::Workload::Serve`]). And [`Jobs`]: running a closure
//! on the pool from async code, without waiting for a place in the queue,
//! with a [`Stop`] flag per job that the request raises when its client
//! leaves ([`Cancel`]) and the server when it stops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use adjudicate::{Adjudicator, Options as RuleOptions};
use search::{Analyzer, Config};

use super::error::ApiError;
use super::metrics::Metrics;
use pipeline::{Pool, SubmitError};

/// A worker's analyzer or adjudicator.
#[derive(Debug)]
pub struct Worker {
    analyzer: Option<Analyzer>,
    adjudicator: Option<(RuleOptions, Adjudicator)>,
}

impl Worker {
    /// A worker with no analyzer yet.
    pub fn new() -> Worker {
        Worker { analyzer: None, adjudicator: None }
    }

    /// An analyzer configured as `config` (the one kept, if it is), whose
    /// analyses end when `stop` is raised.
    pub fn analyzer(&mut self, config: Config, stop: &Stop) -> &mut Analyzer {
        self.adjudicator = None;
        if self.analyzer.as_ref().is_some_and(|a| *a.config() != config) {
            self.analyzer = None;
        }
        let analyzer = self.analyzer.get_or_insert_with(|| Analyzer::new(config));
        analyzer.set_stop_flag(Arc::clone(&stop.flag));
        analyzer
    }

    /// An adjudicator following `rules` (the one kept, if it does), whose
    /// analyses end when `stop` is raised.
    pub fn adjudicator(&mut self, rules: RuleOptions, stop: &Stop) -> &mut Adjudicator {
        self.analyzer = None;
        if self.adjudicator.as_ref().is_some_and(|(kept, _)| *kept != rules) {
            self.adjudicator = None;
        }
        let (_, adjudicator) = self.adjudicator.get_or_insert_with(|| (rules, Adjudicator::new(rules)));
        adjudicator.set_stop_flag(Arc::clone(&stop.flag));
        adjudicator
    }
}

impl Default for Worker {
    fn default() -> Worker {
        Worker::new()
    }
}

/// The stop flag of one request's job: raised when its client leaves
/// before the answer ([`Cancel`]) or when the server stops after the grace
/// period ([`Jobs::stop`]). Its analyses read it every 1,024 nodes and end
/// (`undetermined`, cause `stopped`); its loops (the entries of a batch,
/// the games of an adjudication) read it before each step.
#[derive(Clone, Debug)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    server: Arc<AtomicBool>,
}

impl Stop {
    /// A flag of its own, raised with the server's.
    fn new(server: &Arc<AtomicBool>) -> Stop {
        Stop { flag: Arc::new(AtomicBool::new(server.load(Ordering::SeqCst))), server: Arc::clone(server) }
    }

    /// Whether the work should end now.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Whether it was raised because the server is stopping (the answers
    /// are then still wanted: `undetermined`, cause `stopped`), rather
    /// than because the client left (nobody wants them).
    pub fn by_server(&self) -> bool {
        self.server.load(Ordering::SeqCst)
    }
}

/// Raises a job's [`Stop`] when dropped before [`Cancel::disarm`]: the
/// request's future holds it, and hyper drops that future when the client
/// closes its connection. Counted in the metrics.
#[derive(Debug)]
pub struct Cancel {
    flag: Option<Arc<AtomicBool>>,
    metrics: Arc<Metrics>,
}

impl Cancel {
    /// Raises the flag when dropped.
    pub fn new(stop: &Stop, metrics: &Arc<Metrics>) -> Cancel {
        Cancel { flag: Some(Arc::clone(&stop.flag)), metrics: Arc::clone(metrics) }
    }

    /// The answer was delivered: nothing to cancel.
    pub fn disarm(&mut self) {
        self.flag = None;
    }
}

impl Drop for Cancel {
    fn drop(&mut self) {
        if let Some(flag) = self.flag.take() {
            flag.store(true, Ordering::Relaxed);
            self.metrics.cancelled("requests", 1);
        }
    }
}

/// Submits closures to the pool and counts them in the [`Metrics`].
#[derive(Debug)]
pub struct Jobs {
    pool: Pool<Worker>,
    queue: usize,
    metrics: Arc<Metrics>,
    /// Raised at the end of the grace period after SIGTERM.
    stopping: Arc<AtomicBool>,
    /// The stop flags of the jobs not yet finished.
    live: Mutex<Vec<Weak<AtomicBool>>>,
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
        let pool = Pool::new("serve", workers, queue, |_, _| Worker::new())?;
        Ok(Jobs {
            pool,
            queue: queue.max(1),
            metrics,
            stopping: Arc::new(AtomicBool::new(false)),
            live: Mutex::new(Vec::new()),
        })
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
    /// If the returned future is dropped first (the client left), the
    /// job's [`Stop`] is raised: a job not yet started does nothing, a
    /// running one ends its analysis within a few milliseconds.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Worker, &Stop) -> T + Send + 'static,
    {
        let (sender, receiver) = tokio::sync::oneshot::channel();
        let stop = self.submit(move |worker, stop| {
            let _ = sender.send(work(worker, stop));
        })?;
        let mut cancel = Cancel::new(&stop, &self.metrics);
        let result = receiver.await;
        cancel.disarm();
        result.map_err(|_| ApiError::Internal("internal error: the analysis panicked".to_string()))
    }

    /// Queues `work` without waiting for it: [`ApiError::Busy`] if the
    /// queue is full. Returns the job's [`Stop`], for the caller to raise
    /// (with a [`Cancel`]) when the client leaves. A job whose flag is up
    /// when it starts because its client left is not run.
    pub fn submit<F>(&self, work: F) -> Result<Stop, ApiError>
    where
        F: FnOnce(&mut Worker, &Stop) + Send + 'static,
    {
        if self.stopping.load(Ordering::SeqCst) {
            self.metrics.rejection("shutting-down");
            return Err(ApiError::ShuttingDown);
        }
        let stop = Stop::new(&self.stopping);
        self.metrics.queued.fetch_add(1, Ordering::Relaxed);
        let queued = Queued(Arc::clone(&self.metrics));
        let job_stop = stop.clone();
        let job = Box::new(move |worker: &mut Worker| {
            let metrics = Arc::clone(&queued.0);
            drop(queued);
            if job_stop.is_raised() && !job_stop.by_server() {
                metrics.cancelled("jobs-not-started", 1);
                return;
            }
            metrics.running.fetch_add(1, Ordering::Relaxed);
            let _running = Running(metrics);
            work(worker, &job_stop);
        });
        match self.pool.try_submit(job) {
            Ok(()) => {
                let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
                // The flags of finished jobs are dropped from time to time.
                if live.len() >= 64 && live.len().is_power_of_two() {
                    live.retain(|flag| flag.strong_count() > 0);
                }
                live.push(Arc::downgrade(&stop.flag));
                drop(live);
                // A stop that came while the flag was being registered.
                if self.stopping.load(Ordering::SeqCst) {
                    stop.flag.store(true, Ordering::SeqCst);
                }
                Ok(stop)
            }
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

    /// Raises every job's stop flag (the end of the grace period after
    /// SIGTERM): running analyses end at once and answer `undetermined`,
    /// cause `stopped`; queued jobs still run, and answer the same at once;
    /// new jobs are refused (503).
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        for flag in live.iter().filter_map(Weak::upgrade) {
            flag.store(true, Ordering::SeqCst);
        }
    }
}
