//! The exhaustive phase of the full algorithm: a breadth-first traversal of
//! every position reachable from the root, with the static check cutting
//! off positions reached by irreversible moves that it proves unwinnable.
//!
//! # Soundness
//!
//! A position is marked *visited* when it is first met (a dead end too,
//! recorded as one), and queued unless it is a dead end; each queued
//! position is later expanded: all its legal moves are played and every
//! child is either already visited (and was looked at when first met), a
//! checkmate by the winner (the traversal stops: winnable), a position
//! where no mate can follow (stalemate, the winner mated, insufficient
//! material, or a static proof of unwinnability), or queued. If the queue empties without a limit being hit, the
//! visited set contains the root and every child of every visited position
//! that could still lead to a mate: it is closed under the moves that
//! matter and contains no mate, so no mate is reachable.
//!
//! The visited set is a table of its own (cleared when a traversal starts,
//! kept while it is resumed, see [`Exhaustive`]) used as an exact set
//! ([`crate::tt::TranspositionTable::visit`]): it never forgets a position. When a
//! position finds no room, the set moves into a part of the table twice as
//! large ([`crate::tt::TranspositionTable::grow_set`], every position kept, so the
//! traversal goes on where it was); when the table is at its largest, the
//! traversal stops as interrupted for good. (A lossy table would be
//! sound too, but two positions evicting each other can be queued again and
//! again, and the traversal would never finish.) Every child generated
//! counts as a node against the limits. The queue holds at most
//! [`Exhaustive::max_queue`] positions; needing more is a limit hit.
//!
//! Breadth-first order also means that the first mate found is a shortest
//! one, and that each position is first visited at its distance from the
//! root: the set records it ([`Exhaustive::recover`] walks those layers
//! back to the mate). A mate ends the traversal for good: the position it
//! was found from was taken off the queue with moves not yet tried, so the
//! visited set is no longer closed, and a resumed traversal must never
//! complete into a proof. Every later run answers the same mate.

use std::collections::VecDeque;

use movegen::{Color, Move, MoveList, Position};
use static_check::insufficient_material;

use crate::shared::Shared;
use crate::tt::{PackedPosition, Visit};

/// What the traversal found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Traversal {
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
    /// A limit was hit (the allowance, a global limit, or memory).
    Interrupted,
}

/// A breadth-first traversal that can be resumed: each [`Exhaustive::run`]
/// goes on from where the previous one stopped, with a new node allowance,
/// so a traversal that needs N nodes costs about N however the allowances
/// are cut (restarting each time would cost about twice as much).
#[derive(Debug)]
pub(crate) struct Exhaustive {
    /// Positions waiting in the queue at most.
    pub max_queue: usize,
    /// Bytes the visited set may hold at most, while it grows too.
    pub max_visited_bytes: usize,
    /// Positions to expand, their distance from the root, and the index
    /// of the first move not yet played (non-zero for a position whose
    /// expansion was interrupted).
    queue: VecDeque<(Position, u32, u8)>,
    expanded: u64,
    started: bool,
    /// The visited set or the queue reached the memory cap at its largest:
    /// going on cannot help.
    pub out_of_memory: bool,
    /// The mate found, once one is (the traversal is over): its plies, the
    /// position it was found from and the mating move.
    mate: Option<(u32, Position, Move)>,
}

/// The visited set starts sized for this many times the first allowance
/// (it grows when it fills up: [`crate::tt::TranspositionTable::grow_set`]).
/// A run adds at most one position per node of its allowance, so twice
/// that (a power of two at or above it, crowded past three quarters) holds
/// the first run without growing; a larger start only allocates memory the
/// run cannot use (docs/tuning.md#visited-headroom). Sizing only: the set
/// is exact at every size.
const VISITED_HEADROOM: u64 = 2;

/// What one static check costs against a run's allowance, in nodes: a
/// rough ratio of its time to a child's (docs/tuning.md#static-check-cost).
/// The global meter still counts positions only; the
/// allowance counts time, so that the driver's share for this phase
/// ([`crate::engine`]) is a share of time. Scheduling only: no answer
/// depends on it.
const STATIC_CHECK_NODES: u64 = 16;

impl Exhaustive {
    /// A traversal not started yet.
    pub fn new(max_queue: usize, max_visited_bytes: usize) -> Exhaustive {
        Exhaustive {
            max_queue,
            max_visited_bytes,
            queue: VecDeque::new(),
            expanded: 0,
            started: false,
            out_of_memory: false,
            mate: None,
        }
    }

    /// How many positions are queued and how many were expanded.
    pub fn frontier(&self) -> (u64, u64) {
        (self.queue.len() as u64, self.expanded)
    }

    /// Bytes the queue holds allocated now.
    pub fn queue_bytes(&self) -> usize {
        self.queue.capacity() * core::mem::size_of::<(Position, u32, u8)>()
    }

    /// Traverses everything reachable from `root` (the same root on every
    /// call), expanding positions for at most `allowance` more nodes.
    pub fn run(&mut self, shared: &mut Shared<'_>, root: &Position, allowance: u64) -> Traversal {
        if let Some(ended) = self.resume(shared, root, allowance) {
            return ended;
        }
        let stop_at = shared.meter.nodes.saturating_add(allowance);
        // The static checks asked, charged against the allowance only.
        let mut checks_cost = 0u64;
        let mut moves = MoveList::new();
        let mut children: Vec<Position> = Vec::with_capacity(256);
        while let Some(entry) = self.queue.pop_front() {
            if let Some(ended) = self.expand(shared, entry, stop_at, &mut checks_cost, &mut moves, &mut children) {
                return ended;
            }
            self.expanded += 1;
        }
        self.started = false;
        Traversal::Complete { nodes: self.expanded }
    }

    /// What a call of [`Exhaustive::run`] answers at once: the mate found
    /// before, or `Interrupted` when going on cannot help (the set or the
    /// queue could not grow) or a limit was hit before the run (nothing
    /// more is counted). `None` when the traversal goes on, from the root
    /// (visited and queued) the first time.
    fn resume(&mut self, shared: &mut Shared<'_>, root: &Position, allowance: u64) -> Option<Traversal> {
        if let Some((plies, _, _)) = self.mate {
            return Some(Traversal::Mate { plies });
        }
        if self.out_of_memory || shared.meter.stopped() {
            return Some(Traversal::Interrupted);
        }
        if !self.started {
            shared.visited.clear(allowance.saturating_mul(VISITED_HEADROOM));
            self.queue.clear();
            self.expanded = 0;
            shared.visited.visit(shared.hash(root), &root.pack(), 0);
            self.queue.push_back((*root, 0, 0));
            self.started = true;
        }
        None
    }

    /// Expands the queue's entry `(pos, plies, first)` from its move
    /// `first` on (its children made in `children`, with `moves` as the
    /// list): `Some` when the traversal stops there. A limit (the meter's
    /// count and the static checks' cost reaching `stop_at`) puts the entry
    /// back, to go on from the move it stopped at next time (a move list
    /// has at most 218 moves).
    #[inline(always)]
    fn expand(
        &mut self,
        shared: &mut Shared<'_>,
        (pos, plies, first): (Position, u32, u8),
        stop_at: u64,
        checks_cost: &mut u64,
        moves: &mut MoveList,
        children: &mut Vec<Position>,
    ) -> Option<Traversal> {
        pos.generate_legal_moves(moves);
        // All the children first, each one's slot in the visited set
        // prefetched as soon as it is made: the visits below then find
        // them in the cache (the set outgrows the cache in the traversals
        // that matter; docs/tuning.md#static-check-cost).
        children.clear();
        children.extend(moves.iter().skip(usize::from(first)).map(|&m| {
            let child = pos.play(m);
            shared.visited.prefetch(shared.hash(&child));
            child
        }));
        let moves = moves.iter().enumerate().skip(usize::from(first));
        for ((index, &m), child) in moves.zip(children.iter()) {
            if shared.meter.nodes + *checks_cost >= stop_at || !shared.meter.tick() {
                self.queue.push_front((pos, plies, index as u8));
                return Some(Traversal::Interrupted);
            }
            if let Some(ended) = self.visit(shared, &pos, m, child, plies, checks_cost) {
                return Some(ended);
            }
        }
        None
    }

    /// The child `child` of the move `m` of `pos` (`plies` from the root):
    /// passed over when it was met before or is a dead end (no legal move,
    /// insufficient material, or proved by the static check, whose cost
    /// goes to `checks_cost`), queued otherwise. `Some` when the traversal
    /// ends: the winner mates, or the set or the queue is full.
    #[inline(always)]
    fn visit(
        &mut self,
        shared: &mut Shared<'_>,
        pos: &Position,
        m: Move,
        child: &Position,
        plies: u32,
        checks_cost: &mut u64,
    ) -> Option<Traversal> {
        let winner = shared.winner;
        let (hash, packed) = (shared.hash(child), child.pack());
        match self.mark_visited(shared, hash, &packed, layer(plies + 1)) {
            // Met before, and looked at then: not a mate (a mate ends the
            // traversal when it is first met).
            Visit::Seen => return None,
            Visit::Full => return self.out_of_room(),
            Visit::New => {}
        }
        // The game-over and material tests on new positions only: most
        // children of a traversal were met before.
        let dead_end = if child.has_legal_moves() {
            self.proved_dead(shared, pos, m, child, plies, checks_cost)
        } else if is_winner_mate(child, winner) {
            self.mate = Some((plies + 1, *pos, m));
            return Some(Traversal::Mate { plies: plies + 1 });
        } else {
            true
        };
        if dead_end {
            // No mate follows it: the recovery need not look.
            shared.visited.set_depth_in_set(hash, &packed, DEAD_END);
            return None;
        }
        if self.queue.len() >= self.max_queue {
            return self.out_of_room();
        }
        self.queue.push_back((*child, plies + 1, 0));
        None
    }

    /// Whether no mate can follow `child` (the move `m` of `pos`, `plies`
    /// from the root, with a legal move): after an irreversible move, the
    /// winner's material cannot mate (Lemmas 5-6), or the static check
    /// proves it (its cost goes to `checks_cost`).
    #[inline(always)]
    fn proved_dead(
        &self,
        shared: &mut Shared<'_>,
        pos: &Position,
        m: Move,
        child: &Position,
        plies: u32,
        checks_cost: &mut u64,
    ) -> bool {
        if !pos.is_irreversible(m) {
            return false;
        }
        let winner = shared.winner;
        insufficient_material(child, winner).is_some()
            || (shared.config.static_pruning().is_some() && shared.oracle.pays() && {
                *checks_cost += STATIC_CHECK_NODES;
                shared.oracle.proves(child, winner, plies as usize + 1)
            })
    }

    /// The set or the queue could not grow: going on cannot help.
    fn out_of_room(&mut self) -> Option<Traversal> {
        self.out_of_memory = true;
        Some(Traversal::Interrupted)
    }

    /// Visits the position `packed` (`hash`) at `depth` in the visited
    /// set, growing the set before its probes get long and when it is
    /// full (at its largest it goes on filling up): `Full` when it cannot
    /// grow any more.
    #[inline(always)]
    fn mark_visited(&self, shared: &mut Shared<'_>, hash: u64, packed: &PackedPosition, depth: i16) -> Visit {
        // The slot of a packed position as `shared.hash` gives it.
        let mask = shared.config.hash_mask();
        let rehash = |p: &PackedPosition| p.zobrist() & mask;
        if shared.visited.set_is_crowded() {
            shared.visited.grow_set(rehash, self.max_visited_bytes);
        }
        let visit = shared.visited.visit(hash, packed, depth);
        if visit != Visit::Full {
            return visit;
        }
        // A larger part of the table, the same set (the slots come from the
        // same hash as the visits').
        if !shared.visited.grow_set(rehash, self.max_visited_bytes) {
            return Visit::Full;
        }
        shared.visited.visit(hash, packed, depth)
    }
}

impl Exhaustive {
    /// The moves of the mate the traversal found: a depth-first walk down
    /// the layers the visited set records, from the root to the position
    /// the mate was found from (`plies - 1` plies deep), then the mating
    /// move. The positions of a shortest way there lie at their own
    /// distances from the root (a shorter way to one of them would make a
    /// shorter helpmate), all of which the traversal visited, so the walk
    /// enters only children recorded one ply deeper than their parent and
    /// not fewer men or pawns of a colour than the goal has (captures and
    /// promotions never give them back), nearest the goal's board first. It
    /// marks each position it leaves without reaching the goal a dead end
    /// (every way to it has the same length, so the same plies are left),
    /// and expands each visited position at most once. `None` before a
    /// mate, when a limit stops the walk, or when the helpmate is longer
    /// than the searches' ply cap (or than the set records).
    ///
    /// Soundness: what it returns is a sequence of legal moves, each
    /// played from the position before, the last one the mating move the
    /// traversal played from the goal.
    pub fn recover(&self, shared: &mut Shared<'_>, root: &Position) -> Option<Vec<Move>> {
        let (plies, goal, mating) = self.mate?;
        let plies = usize::try_from(plies).ok().filter(|&p| p >= 1 && p <= shared.max_ply && p < i16::MAX as usize)?;
        let goal = Goal::of(&goal);
        debug_assert!(plies > 1 || root.pack() == goal.packed, "a one-ply mate is found from the root");
        // The positions on the way, each with its moves still to try into
        // the next layer (the nearest to the goal last, to be tried first):
        // at most the ply cap times 218 moves, whatever the set holds.
        let first = if plies > 1 { next_layer(shared, root, 1, &goal)? } else { Vec::new() };
        let mut stack: Vec<(Position, Vec<Move>)> = Vec::with_capacity(plies);
        stack.push((*root, first));
        let mut line = Vec::with_capacity(plies);
        while stack.len() < plies {
            let (pos, moves) = stack.last_mut()?;
            let Some(m) = moves.pop() else {
                // Every move tried: the goal is not reached from here.
                let pos = *pos;
                stack.pop();
                line.pop();
                shared.visited.set_depth_in_set(shared.hash(&pos), &pos.pack(), DEAD_END);
                continue;
            };
            let child = pos.play(m);
            let ply = stack.len();
            if ply == plies - 1 {
                if child.pack() == goal.packed {
                    line.push(m);
                    stack.push((child, Vec::new()));
                }
                continue;
            }
            let moves = next_layer(shared, &child, ply + 1, &goal)?;
            line.push(m);
            stack.push((child, moves));
        }
        line.push(mating);
        Some(line)
    }
}

/// The position the recovery walk heads for, with what it compares
/// children against.
struct Goal {
    packed: PackedPosition,
    board: movegen::Board,
    /// Per colour: its men and its pawns there, which no move gives back.
    men: [(u32, u32); 2],
}

impl Goal {
    fn of(pos: &Position) -> Goal {
        let board = *pos.board();
        Goal { packed: pos.pack(), board, men: men_and_pawns(&board) }
    }

    /// Whether a position with `board` may still lead to the goal: it has
    /// at least the goal's men and pawns of each colour.
    fn reachable_from(&self, board: &movegen::Board) -> bool {
        men_and_pawns(board)
            .iter()
            .zip(&self.men)
            .all(|(&(men, pawns), &(goal_men, goal_pawns))| men >= goal_men && pawns >= goal_pawns)
    }

    /// How many squares of `board` differ from the goal's, by colour and
    /// by piece kind.
    fn distance(&self, board: &movegen::Board) -> u32 {
        let colors: u32 = Color::ALL.iter().map(|&c| (board.by_color(c) ^ self.board.by_color(c)).count()).sum();
        colors + movegen::Role::ALL.iter().map(|&r| (board.by_role(r) ^ self.board.by_role(r)).count()).sum::<u32>()
    }
}

/// Per colour: the men and the pawns on `board`.
fn men_and_pawns(board: &movegen::Board) -> [(u32, u32); 2] {
    Color::ALL.map(|c| (board.by_color(c).count(), board.pieces(c, movegen::Role::Pawn).count()))
}

/// The moves of `pos` into the children the recovery walk may enter on
/// its way to `goal`, `ply` plies from the root: recorded at that depth,
/// with at least the goal's men and pawns of each colour; ordered by how
/// many squares of their board differ from the goal's, the nearest last.
/// `None` when a limit stops the walk.
fn next_layer(shared: &mut Shared<'_>, pos: &Position, ply: usize, goal: &Goal) -> Option<Vec<Move>> {
    let depth = layer(u32::try_from(ply).ok()?);
    let mut children = Vec::new();
    for &m in &pos.legal_moves() {
        if !shared.meter.tick() {
            return None;
        }
        let child = pos.play(m);
        let board = child.board();
        if goal.reachable_from(board) && shared.visited.depth_in_set(shared.hash(&child), &child.pack()) == Some(depth)
        {
            children.push((std::cmp::Reverse(goal.distance(board)), m));
        }
    }
    children.sort_by_key(|&(distance, _)| distance);
    Some(children.into_iter().map(|(_, m)| m).collect())
}

/// The depth the visited set records for a position first reached `plies`
/// plies from the root (beyond `i16::MAX - 1`, the recovery gives up).
fn layer(plies: u32) -> i16 {
    i16::try_from(plies).unwrap_or(i16::MAX)
}

/// The depth of a visited position from which no mate follows.
const DEAD_END: i16 = -1;

fn is_winner_mate(pos: &Position, winner: Color) -> bool {
    pos.is_check() && pos.side_to_move() != winner
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::meter::Meter;
    use crate::tt::TranspositionTable;

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
            let config = Config { static_pruning: None, ..Config::default() };
            let (mut tt, mut visited) = (TranspositionTable::new(1), TranspositionTable::new(64));
            let mut shared = Shared::new(winner, config, Meter::new(u64::MAX, None, None), &mut tt, &mut visited);
            let whole = Exhaustive::new(1 << 20, 64 << 20).run(&mut shared, &root, 10_000_000);
            let mut traversal = Exhaustive::new(1 << 20, 64 << 20);
            let mut runs = 0;
            let pieces = loop {
                runs += 1;
                assert!(runs < 1_000_000, "{fen}: no end");
                match traversal.run(&mut shared, &root, 13) {
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
