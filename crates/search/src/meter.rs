//! The global limits of one analysis: a node budget, a deadline and the
//! caller's stop flag, shared by every phase. Once a limit is hit the meter
//! stays stopped and remembers which limit it was, so the answer can name
//! its cause ([`Cause`]).
//!
//! Soundness: a phase that sees [`Meter::tick`] return `false` abandons its
//! work and reports nothing; the driver then answers `Undetermined`. A limit
//! can therefore never turn into an answer, right or wrong.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::Cause;

/// Counts nodes against the budget and watches the clock and the stop flag.
#[derive(Debug)]
pub(crate) struct Meter {
    /// Nodes counted so far (all phases).
    pub nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    stop_flag: Option<Arc<AtomicBool>>,
    /// Set once a limit is hit.
    cause: Option<Cause>,
}

/// The clock and the stop flag are read at the first node and then once
/// every this many nodes (a power of two).
const CHECK_EVERY: u64 = 1024;

impl Meter {
    /// A meter with the given limits and nothing counted.
    pub fn new(budget: u64, deadline: Option<Instant>, stop_flag: Option<Arc<AtomicBool>>) -> Meter {
        Meter { nodes: 0, budget, deadline, stop_flag, cause: None }
    }

    /// Counts one node. `false` once any limit is hit (and from then on).
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.budget {
            return self.stop(Cause::NodeBudget);
        }
        if self.nodes & (CHECK_EVERY - 1) == 1 {
            return self.check_clock();
        }
        self.cause.is_none()
    }

    /// Counts `n` nodes at once, as `n` calls of [`Meter::tick`] would,
    /// when none of them would stop the meter or read the clock (`true`);
    /// otherwise counts nothing (`false`: the caller ticks one by one).
    #[inline(always)]
    pub fn tick_quietly(&mut self, n: u64) -> bool {
        if n == 0 {
            return true;
        }
        let end = self.nodes + n;
        // The clock is read at the first tick past a multiple of
        // CHECK_EVERY (nodes numbered 1 modulo it).
        let next_reading = ((self.nodes + CHECK_EVERY - 1) & !(CHECK_EVERY - 1)) + 1;
        if end >= self.budget || end >= next_reading || self.cause.is_some() {
            return false;
        }
        self.nodes = end;
        true
    }

    /// Reads the stop flag and the clock now.
    #[cold]
    fn check_clock(&mut self) -> bool {
        if self.stop_flag.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return self.stop(Cause::Stopped);
        }
        if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return self.stop(Cause::Deadline);
        }
        self.cause.is_none()
    }

    /// Records that a limit was hit (the first cause is kept).
    #[cold]
    pub fn stop(&mut self, cause: Cause) -> bool {
        self.cause.get_or_insert(cause);
        false
    }

    /// Whether a limit was hit.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.cause.is_some()
    }

    /// The limit that was hit, if any.
    pub fn cause(&self) -> Option<Cause> {
        self.cause
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_stops_and_stays_stopped() {
        let mut meter = Meter::new(3, None, None);
        assert!(meter.tick());
        assert!(meter.tick());
        assert!(!meter.tick());
        assert!(!meter.tick());
        assert_eq!(meter.cause(), Some(Cause::NodeBudget));
    }

    /// Ticking quietly is `n` ticks wherever it counts: the same count, no
    /// clock read among them (a stop flag set beforehand is not seen), and
    /// it declines exactly when one of the ticks would stop the meter or
    /// read the clock.
    #[test]
    fn quiet_ticks_are_ticks_that_stop_nothing() {
        for start in [0, 1, 2, 1000, 1023, 1024, 1025, 2047, 2048, 5000] {
            for n in [0, 1, 2, 3, 20, 1023, 1024, 1025] {
                for budget in [start + n, start + n + 1, u64::MAX] {
                    let flag = Arc::new(AtomicBool::new(false));
                    let mut quiet = Meter::new(budget, None, Some(Arc::clone(&flag)));
                    quiet.nodes = start;
                    flag.store(true, Ordering::Relaxed);
                    // One by one, a tick that reads the clock sees the flag.
                    let mut one_by_one = Meter::new(budget, None, Some(Arc::clone(&flag)));
                    one_by_one.nodes = start;
                    let all_quiet = (0..n).all(|_| one_by_one.tick());
                    let event = !all_quiet || one_by_one.cause().is_some();
                    assert_eq!(quiet.tick_quietly(n), !event, "start {start}, n {n}, budget {budget}");
                    if !event {
                        assert_eq!((quiet.nodes, quiet.cause()), (one_by_one.nodes, None));
                    } else {
                        assert_eq!(quiet.nodes, start, "nothing counted");
                    }
                }
            }
        }
    }

    #[test]
    fn flag_and_deadline_are_read_at_the_first_node() {
        let flag = Arc::new(AtomicBool::new(true));
        let mut meter = Meter::new(u64::MAX, None, Some(flag));
        assert!(!meter.tick());
        assert_eq!(meter.cause(), Some(Cause::Stopped));
        let mut meter = Meter::new(u64::MAX, Some(Instant::now()), None);
        assert!(!meter.tick());
        assert_eq!(meter.cause(), Some(Cause::Deadline));
        // The first cause is kept.
        meter.stop(Cause::Memory);
        assert_eq!(meter.cause(), Some(Cause::Deadline));
    }
}
