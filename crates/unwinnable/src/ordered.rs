//! Output in input order for results that worker threads finish in any
//! order: the shared core of the `analyze` and `adjudicate` writers.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, TryRecvError};

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

/// The next finished item, `None` once every worker is gone. Flushes
/// `output` before waiting, so results appear as soon as they are known.
pub fn receive<D, W: Write>(done: &Receiver<D>, output: &mut W) -> io::Result<Option<D>> {
    match done.try_recv() {
        Ok(item) => Ok(Some(item)),
        Err(TryRecvError::Empty) => {
            output.flush()?;
            Ok(done.recv().ok())
        }
        Err(TryRecvError::Disconnected) => Ok(None),
    }
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
}
