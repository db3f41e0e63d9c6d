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
//! The visited set is a table of its own (cleared at the start) used as an
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

/// Limits of one traversal.
#[derive(Clone, Copy, Debug)]
pub struct Exhaustive {
    /// Positions expanded at most.
    pub node_bound: u64,
    /// Positions waiting in the queue at most.
    pub max_queue: usize,
}

impl Exhaustive {
    /// Traverses everything reachable from `root`, with `visited` as the
    /// visited set and `search`'s counters and global limits.
    pub fn run(&self, search: &mut Search<'_>, visited: &mut TranspositionTable, root: &Position) -> Traversal {
        let winner = search.winner;
        search.reset_counters(self.node_bound);
        visited.clear(self.node_bound);
        let mut queue: VecDeque<(Position, u32)> = VecDeque::new();
        let mask = search.hash_mask;
        visited.visit(root.hash() & mask, &PackedPosition::new(root));
        queue.push_back((*root, 0));
        let mut moves = MoveList::new();
        let mut expanded = 0;
        while let Some((pos, plies)) = queue.pop_front() {
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
            expanded += 1;
            for &m in &moves {
                if !search.count_node() {
                    return Traversal::Interrupted;
                }
                let child = pos.play(m);
                match visited.visit(child.hash() & mask, &PackedPosition::new(&child)) {
                    Visit::Seen => continue,
                    Visit::Full => {
                        search.interrupted = true;
                        return Traversal::Interrupted;
                    }
                    Visit::New => {}
                }
                if queue.len() >= self.max_queue {
                    search.interrupted = true;
                    return Traversal::Interrupted;
                }
                queue.push_back((child, plies + 1));
            }
        }
        Traversal::Complete { nodes: expanded }
    }
}

fn is_winner_mate(pos: &Position, winner: Color) -> bool {
    pos.is_check() && pos.side_to_move() != winner
}
