//! Streams of work through a [`Pool`], written out in input order: the
//! shared core of `analyze` and `adjudicate`.
//!
//! [`run`] connects three parties:
//!
//! * a **reader** thread pulls items from a [`Source`] (which does the
//!   reading and cutting), numbers them, and submits one job per item to
//!   the pool;
//! * the pool's **workers** process the items with their own state and
//!   send the results back, numbered;
//! * the **writer** (the calling thread) puts the results back in input
//!   order ([`InOrder`]) and hands each to a [`Sink`].
//!
//! Memory is bounded whatever the size of the input: every item has a cost
//! in bytes (its own size and an estimate of its results'), and the reader
//! waits while the items read but not yet written would cost more than the
//! window ([`Credit`]); an item costlier than the whole window is let
//! through alone.
//!
//! A job that panics gives the result its processor makes for the failure
//! (a per-item error record), and the pool rebuilds that worker's state.
//! When the sink fails (a closed pipe) the run stops: the reader stops
//! reading, the pool is stopped, and the error is returned.

use std::collections::BTreeMap;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;

use crate::pool::{Pool, Submitter};

/// Holds finished items until every earlier one has been handed on.
#[derive(Debug)]
pub struct InOrder<T> {
    pending: BTreeMap<u64, T>,
    next: u64,
}

impl<T> Default for InOrder<T> {
    fn default() -> InOrder<T> {
        InOrder { pending: BTreeMap::new(), next: 0 }
    }
}

impl<T> InOrder<T> {
    /// Accepts item number `seq` (numbered from 0 in input order).
    pub fn push(&mut self, seq: u64, item: T) {
        self.pending.insert(seq, item);
    }

    /// The next item in input order, if it has arrived.
    pub fn pop_ready(&mut self) -> Option<T> {
        let item = self.pending.remove(&self.next)?;
        self.next += 1;
        Some(item)
    }

    /// How many items have been handed on.
    pub fn handed_on(&self) -> u64 {
        self.next
    }
}

/// Where the items come from (called on the reader thread).
pub trait Source: Send + 'static {
    /// An item.
    type Item: Send + 'static;
    /// The next item and its cost in bytes, `None` at the end, or an I/O
    /// error that ends the input (the run then fails with it, after
    /// writing the results of the items before).
    fn next_item(&mut self) -> io::Result<Option<(Self::Item, usize)>>;
}

/// What the workers do with an item.
pub trait Process<S>: Send + Sync + 'static {
    /// An item.
    type Item: Send + 'static;
    /// Its result.
    type Output: Send + 'static;
    /// Processes one item with the worker's state.
    fn process(&self, state: &mut S, item: &Self::Item) -> Self::Output;
    /// The result for an item whose processing panicked (a bug, not bad
    /// input): an error record for it.
    fn panicked(&self, item: &Self::Item) -> Self::Output;
}

/// Where the results go, in input order (called on the writer thread).
pub trait Sink<O> {
    /// Takes the next result.
    fn write(&mut self, output: O) -> io::Result<()>;
    /// Called before waiting for more results (flush what was written, so
    /// results appear as soon as they are known).
    fn idle(&mut self) -> io::Result<()>;
}

/// A closure is a sink that needs no flushing (a front end's channel, a
/// collection).
impl<O, F: FnMut(O) -> io::Result<()>> Sink<O> for F {
    fn write(&mut self, output: O) -> io::Result<()> {
        self(output)
    }

    fn idle(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The window: bytes of items read but not yet written.
#[derive(Debug)]
pub struct Credit {
    state: Mutex<CreditState>,
    changed: Condvar,
}

#[derive(Debug)]
struct CreditState {
    limit: usize,
    used: usize,
    closed: bool,
}

impl Credit {
    /// A window of `limit` bytes.
    pub fn new(limit: usize) -> Credit {
        Credit { state: Mutex::new(CreditState { limit, used: 0, closed: false }), changed: Condvar::new() }
    }

    /// Waits until `cost` more bytes fit (or nothing is in flight); false
    /// once closed.
    pub fn acquire(&self, cost: usize) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        while !state.closed && state.used > 0 && state.used.saturating_add(cost) > state.limit {
            state = self.changed.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        if state.closed {
            return false;
        }
        state.used = state.used.saturating_add(cost);
        true
    }

    /// Gives back `cost` bytes.
    pub fn release(&self, cost: usize) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.used = state.used.saturating_sub(cost);
        self.changed.notify_all();
    }

    /// Closes the window: every waiting and later `acquire` fails.
    pub fn close(&self) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).closed = true;
        self.changed.notify_all();
    }
}

/// A result on its way to the writer: its number, its item's cost, itself.
type Done<O> = (u64, usize, O);

/// Runs every item of `source` through `process` on `pool` and hands the
/// results to `sink` in input order, with at most `window` bytes of items
/// in flight. Returns the first error of the sink, else of the source.
pub fn run<S, Src, P, K>(pool: &Pool<S>, source: Src, process: P, sink: &mut K, window: usize) -> io::Result<()>
where
    S: 'static,
    Src: Source,
    P: Process<S, Item = Src::Item>,
    K: Sink<P::Output>,
{
    let Some(submitter) = pool.submitter() else {
        return Err(io::Error::other("the worker pool is closed"));
    };
    let credit = Arc::new(Credit::new(window.max(1)));
    let (done_tx, done_rx) = mpsc::channel::<Done<P::Output>>();
    let reader = {
        let (credit, process) = (Arc::clone(&credit), Arc::new(process));
        thread::Builder::new()
            .name("read".into())
            .spawn(move || read(source, &process, &done_tx, &credit, &submitter))?
    };
    let written = write(&done_rx, sink, &credit);
    if written.is_err() {
        // Stop reading and working. The reader may be blocked in a read:
        // it is not waited for (a closed credit ends it at its next item).
        credit.close();
        pool.stop();
        return written;
    }
    match reader.join() {
        Ok(read) => read,
        Err(_) => Err(io::Error::other("the input reader stopped unexpectedly")),
    }
}

/// The reader thread: items to jobs, each after its credit.
fn read<S, Src, P>(
    mut source: Src,
    process: &Arc<P>,
    done: &mpsc::Sender<Done<P::Output>>,
    credit: &Credit,
    submitter: &Submitter<S>,
) -> io::Result<()>
where
    S: 'static,
    Src: Source,
    P: Process<S, Item = Src::Item>,
{
    let mut seq = 0u64;
    while let Some((item, cost)) = source.next_item()? {
        if !credit.acquire(cost) {
            return Ok(());
        }
        let (process, done) = (Arc::clone(process), done.clone());
        let job = Box::new(move |state: &mut S| {
            match catch_unwind(AssertUnwindSafe(|| process.process(state, &item))) {
                Ok(output) => {
                    let _ = done.send((seq, cost, output));
                }
                Err(panic) => {
                    let _ = done.send((seq, cost, process.panicked(&item)));
                    // The pool rebuilds the worker's state.
                    resume_unwind(panic);
                }
            }
        });
        if submitter.submit(job).is_err() {
            return Ok(());
        }
        seq += 1;
    }
    Ok(())
}

/// The writer: results in input order, credit given back for each.
fn write<O, K: Sink<O>>(done: &Receiver<Done<O>>, sink: &mut K, credit: &Credit) -> io::Result<()> {
    let mut in_order = InOrder::default();
    loop {
        let next = match done.try_recv() {
            Ok(item) => Some(item),
            Err(TryRecvError::Empty) => {
                sink.idle()?;
                done.recv().ok()
            }
            Err(TryRecvError::Disconnected) => None,
        };
        let Some((seq, cost, output)) = next else { break };
        in_order.push(seq, (cost, output));
        while let Some((cost, output)) = in_order.pop_ready() {
            sink.write(output)?;
            credit.release(cost);
        }
    }
    sink.idle()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_come_out_in_sequence_order() {
        let mut in_order = InOrder::default();
        in_order.push(2, 'c');
        assert_eq!(in_order.pop_ready(), None);
        in_order.push(0, 'a');
        in_order.push(1, 'b');
        let out: String = std::iter::from_fn(|| in_order.pop_ready()).collect();
        assert_eq!(out, "abc");
        assert_eq!(in_order.handed_on(), 3);
    }

    struct Numbers(std::ops::Range<u64>);
    impl Source for Numbers {
        type Item = u64;
        fn next_item(&mut self) -> io::Result<Option<(u64, usize)>> {
            Ok(self.0.next().map(|n| (n, 10)))
        }
    }
    struct Square;
    impl Process<u64> for Square {
        type Item = u64;
        type Output = Result<u64, u64>;
        fn process(&self, calls: &mut u64, n: &u64) -> Result<u64, u64> {
            *calls += 1;
            assert!(*n != 13, "a bug");
            // Later items finish first.
            thread::sleep(std::time::Duration::from_micros(50 * (n % 3)));
            Ok(n * n)
        }
        fn panicked(&self, n: &u64) -> Result<u64, u64> {
            Err(*n)
        }
    }
    struct Collect(Vec<Result<u64, u64>>, usize);
    impl Sink<Result<u64, u64>> for Collect {
        fn write(&mut self, output: Result<u64, u64>) -> io::Result<()> {
            if self.0.len() == self.1 {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
            }
            self.0.push(output);
            Ok(())
        }
        fn idle(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn results_in_input_order_with_any_window() {
        for (threads, window) in [(1, 1), (3, 10), (4, 25), (2, 1 << 20)] {
            let pool = Pool::new("test", threads, 2, |_, _| 0u64).unwrap();
            let mut sink = Collect(Vec::new(), usize::MAX);
            run(&pool, Numbers(0..200), Square, &mut sink, window).unwrap();
            let expected: Vec<Result<u64, u64>> = (0..200).map(|n| if n == 13 { Err(13) } else { Ok(n * n) }).collect();
            assert_eq!(sink.0, expected, "{threads} threads, window {window}");
        }
    }

    #[test]
    fn a_failing_sink_stops_the_run() {
        let pool = Pool::new("test", 2, 2, |_, _| 0u64).unwrap();
        let mut sink = Collect(Vec::new(), 5);
        let error = run(&pool, Numbers(0..100_000), Square, &mut sink, 100).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(sink.0.len(), 5);
    }

    #[test]
    fn the_credit_bounds_what_is_in_flight() {
        let credit = Credit::new(10);
        assert!(credit.acquire(6));
        assert!(credit.acquire(4));
        let credit = Arc::new(credit);
        let waiter = {
            let credit = Arc::clone(&credit);
            thread::spawn(move || credit.acquire(5))
        };
        thread::sleep(std::time::Duration::from_millis(20));
        assert!(!waiter.is_finished(), "10 of 10 bytes in flight: waits");
        credit.release(6);
        assert!(waiter.join().unwrap());
        // Larger than the window: through once nothing is in flight.
        credit.release(9);
        assert!(credit.acquire(1000));
        credit.close();
        assert!(!credit.acquire(1));
    }
}
