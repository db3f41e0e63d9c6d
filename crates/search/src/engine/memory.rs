//! How an analyzer's memory budget is divided among the phases: a quarter
//! each at most for the depth-first table, the traversal's visited set and
//! its queue, and the rest, whatever they have not allocated, for the
//! best-first phase, which runs alone and frees its store when it returns.
//! The whole stays within the budget ([`crate::Limits::memory_mb`]).

use movegen::Position;

use crate::phase::best_first;

/// The division of the budget (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Memory {
    /// The depth-first table, in MiB.
    pub tt_mb: usize,
    /// The exhaustive traversal's visited set, in MiB.
    pub visited_mb: usize,
    /// The exhaustive traversal's queue, in positions.
    pub queue: usize,
    /// The best-first phase's stored positions, at least (it may use what
    /// the other parts have not allocated: [`Memory::best_first_positions`]).
    pub best_first: usize,
    /// The whole budget, in bytes.
    pub budget_bytes: usize,
}

impl Memory {
    /// A quarter of the budget each (each part at least 1 MiB). The tables
    /// are powers of two within their part; the queue is counted at twice
    /// its entries (a double-ended queue grows by doubling) and the stored
    /// positions at their worst-case bytes ([`best_first::BYTES_PER_POSITION`]),
    /// so the whole stays within the budget (at least 4 MiB).
    pub fn split(budget_mb: usize) -> Memory {
        let quarter = (budget_mb / 4).max(1);
        let bytes = quarter << 20;
        Memory {
            tt_mb: quarter,
            visited_mb: quarter,
            queue: bytes / (2 * core::mem::size_of::<(Position, u32, u8)>()),
            best_first: bytes / best_first::BYTES_PER_POSITION,
            budget_bytes: 4 * bytes,
        }
    }

    /// The bytes the exhaustive traversal's visited set may hold: its
    /// quarter. While it grows, the old and the new part together may take
    /// twice as much for a moment ([`crate::tt::TranspositionTable::grow_set`]):
    /// the best-first phase's quarter, idle while the traversal runs (its
    /// store is freed when it returns), and freed again at once, so the
    /// whole stays within the budget.
    pub fn visited_growth_bytes(&self) -> usize {
        self.visited_mb << 20
    }

    /// The positions the best-first phase may store when the tables and the
    /// traversal's queue hold `allocated` bytes: all the rest of the budget.
    /// Nothing else allocates while it runs, and it frees its positions
    /// when it returns, so the whole stays within the budget; the tables
    /// and the queue grow only up to their quarters, so the phase always
    /// has at least its own.
    pub fn best_first_positions(&self, allocated: usize) -> usize {
        self.budget_bytes.saturating_sub(allocated) / best_first::BYTES_PER_POSITION
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best-first phase gets what the tables and the queue leave of the
    /// budget: everything when they hold nothing, at least its quarter when
    /// they hold theirs, and never more than the budget in all.
    #[test]
    fn the_best_first_phase_uses_what_the_others_leave() {
        let memory = Memory::split(256);
        let quarter = 64 << 20;
        assert_eq!(memory.budget_bytes, 4 * quarter);
        assert_eq!(memory.best_first_positions(0), 4 * quarter / best_first::BYTES_PER_POSITION);
        assert_eq!(memory.best_first_positions(3 * quarter), memory.best_first);
        // The visited set stays within its quarter, and its growth within
        // its own and the idle best-first phase's.
        assert!(memory.visited_growth_bytes() <= quarter);
        assert!(memory.tt_mb << 20 <= quarter && 2 * memory.visited_growth_bytes() <= 2 * quarter);
        assert!(2 * memory.queue * core::mem::size_of::<(Position, u32, u8)>() <= quarter);
        for allocated in [0, quarter, 3 * quarter, 4 * quarter, 5 * quarter] {
            let positions = memory.best_first_positions(allocated);
            assert!(
                allocated.min(memory.budget_bytes) + positions * best_first::BYTES_PER_POSITION <= memory.budget_bytes
            );
        }
    }
}
