//! The exhaustive phase of the full algorithm: a breadth-first traversal of
//! every position reachable from the root.
//!
//! # Soundness
//!
//! A position is marked *visited* when it is queued; each queued position
//! is later expanded: all its legal moves are played and every child is
//! either a checkmate by the winner (the traversal stops: winnable), a
//! position where no mate can follow (stalemate, the winner mated, or
//! insufficient material),
//! already visited, or queued. If the queue empties without a limit being
//! hit, the visited set contains the root and every child of every visited
//! position that could still lead to a mate: it is closed under the moves
//! that matter and contains no mate, so no mate is reachable.
//!
//! The visited set is a table of its own (cleared when a traversal starts,
//! kept while it is resumed, see [`Exhaustive`]) used as an
//! exact set ([`TranspositionTable::visit`]): it never forgets a position,
//! and when it has no room the traversal stops as interrupted. (A lossy
//! table would be sound too, but two positions evicting each other can be
//! queued again and again, and the traversal would never finish.) Every child generated counts
//! as a node against the limits, so a node of the traversal costs about
//! what a node of the depth-first search does. The queue holds at most [`Exhaustive::max_queue`] positions;
//! needing more is a limit hit (the answer is then "not proved").
//!
//! Breadth-first order also means that the first mate found is a shortest
//! one; its moves are recovered by a depth-limited search to exactly that
//! depth.

use std::collections::VecDeque;

use movegen::{Color, MoveList, Position};
use static_check::insufficient_material;

use crate::helpmate::Search;
use crate::tt::{PackedPosition, TranspositionTable, Visit};

/// What the traversal found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Traversal {
    /// A checkmate by the winner, this many plies from the root.
    Mate {
        /// Plies from the root to the mate.
        plies: u32,
    },
    /// Every reachable position was visited: no mate.
    Complete {
        /// Positions expanded.
        nodes: u64,
    },
    /// A limit was hit.
    Interrupted,
}

/// A breadth-first traversal that can be resumed: each [`Exhaustive::run`]
/// goes on from where the previous one stopped, with a new node allowance,
/// so a traversal that needs N nodes costs about N however the allowances
/// are cut (restarting each time would cost about twice as much).
#[derive(Debug)]
pub struct Exhaustive {
    /// Positions waiting in the queue at most.
    pub max_queue: usize,
    queue: VecDeque<(Position, u32)>,
    expanded: u64,
    started: bool,
    /// Positions the visited set was last sized for.
    visited_size: u64,
}

/// The visited set is sized for this many times the first allowance, so
/// that later allowances can resume in the same table.
const VISITED_HEADROOM: u64 = 16;

impl Exhaustive {
    /// A traversal not started yet.
    pub fn new(max_queue: usize) -> Exhaustive {
        Exhaustive { max_queue, queue: VecDeque::new(), expanded: 0, started: false, visited_size: 0 }
    }

    /// Traverses everything reachable from `root` (the same root on every
    /// call), with `visited` as the visited set (left alone between calls)
    /// and `search`'s counters and global limits, expanding positions for
    /// at most `node_bound` more nodes.
    pub fn run(
        &mut self,
        search: &mut Search<'_>,
        visited: &mut TranspositionTable,
        root: &Position,
        node_bound: u64,
    ) -> Traversal {
        let winner = search.winner;
        let mask = search.hash_mask;
        search.reset_counters(node_bound);
        if !self.started {
            // A restart after the set filled up gets at least twice the room.
            self.visited_size = node_bound.saturating_mul(VISITED_HEADROOM).max(self.visited_size.saturating_mul(2));
            visited.clear(self.visited_size);
            self.queue.clear();
            self.expanded = 0;
            visited.visit(root.hash() & mask, &PackedPosition::new(root));
            self.queue.push_back((*root, 0));
            self.started = true;
        }
        let mut moves = MoveList::new();
        while let Some((pos, plies)) = self.queue.pop_front() {
            pos.generate_legal_moves(&mut moves);
            if moves.is_empty() {
                if is_winner_mate(&pos, winner) {
                    return Traversal::Mate { plies };
                }
                continue;
            }
            if insufficient_material(&pos, winner).is_some() {
                continue;
            }
            for &m in &moves {
                if !search.count_node() {
                    // Resumable: the position is expanded again next time;
                    // its children visited so far are already queued, and
                    // are then seen and skipped.
                    self.queue.push_front((pos, plies));
                    return Traversal::Interrupted;
                }
                let child = pos.play(m);
                match visited.visit(child.hash() & mask, &PackedPosition::new(&child)) {
                    Visit::Seen => continue,
                    Visit::Full => {
                        // Start again next time, in a larger part of the
                        // table.
                        self.started = false;
                        search.interrupted = true;
                        return Traversal::Interrupted;
                    }
                    Visit::New => {}
                }
                if self.queue.len() >= self.max_queue {
                    self.started = false;
                    search.interrupted = true;
                    return Traversal::Interrupted;
                }
                self.queue.push_back((child, plies + 1));
            }
            self.expanded += 1;
        }
        self.started = false;
        Traversal::Complete { nodes: self.expanded }
    }
}

fn is_winner_mate(pos: &Position, winner: Color) -> bool {
    pos.is_check() && pos.side_to_move() != winner
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cutting a traversal into many small allowances and resuming must
    /// visit exactly the positions a single traversal visits: the same
    /// count of expanded positions, and the same answer.
    #[test]
    fn resumed_traversal_equals_one_traversal() {
        // Small reachable sets: the paper's Position 1 (blocked: about 80K
        // positions) and its Position 17.
        for (fen, winner) in [
            ("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - -", Color::White),
            ("5r1k/4P1p1/6K1/8/8/8/8/8 b - -", Color::White),
        ] {
            let root: Position = fen.parse().unwrap();
            let (mut tt, mut visited) = (TranspositionTable::new(1), TranspositionTable::new(64));
            let mut search = Search::new(winner, &mut tt, u64::MAX, None);
            let whole = Exhaustive::new(1 << 20).run(&mut search, &mut visited, &root, 10_000_000);
            let mut traversal = Exhaustive::new(1 << 20);
            let mut runs = 0;
            let pieces = loop {
                runs += 1;
                assert!(runs < 1_000_000, "{fen}: no end");
                match traversal.run(&mut search, &mut visited, &root, 97) {
                    Traversal::Interrupted => continue,
                    other => break other,
                }
            };
            assert_eq!(whole, pieces, "{fen}");
            assert!(matches!(whole, Traversal::Complete { .. } | Traversal::Mate { .. }), "{fen}: {whole:?}");
            assert!(runs > 3, "{fen}: the test must actually resume");
        }
    }
}
