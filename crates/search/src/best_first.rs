//! A greedy best-first search for helpmates that walk the loser's king a
//! long way: the depth-first iterations of Figure 5 explore every shuffle of
//! the other pieces at every ply, which makes helpmates of 20+ plies with a
//! long king march (composed positions with many bishops) out of reach.
//!
//! Positions are expanded in order of an estimate of how far the loser's king
//! is from being mated ([`estimate`]): its king distance to the nearest square
//! on which the static analysis cannot rule out a mating net
//! ([`Targets::loser_king`]), then how many of its neighbours are still free,
//! then whether it is in check; ties go to the shallower position. Every
//! position is stored once (an exact set of whole positions), with a link to
//! its parent, so a mate found is turned into the move sequence that leads to
//! it.
//!
//! **Soundness.** This phase only ever answers "a helpmate exists" (with the
//! moves, which the caller replays) or "nothing found": it never contributes
//! to an `Unwinnable` verdict, so its heuristics and its memory cap cannot
//! produce a wrong one.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use movegen::{Bitboard, Color, Move, MoveList, Position, attacks};

use crate::helpmate::Search;
use crate::score::Targets;

/// How far from mated the loser's king looks in `pos`: lower is closer.
/// Mostly its king distance to the nearest target; then whether that
/// target is occupied or attacked by the winner (the king cannot enter it
/// yet: freeing it is progress), how many of its neighbours are still free,
/// and whether it is in check.
pub fn estimate(pos: &Position, winner: Color, targets: Bitboard) -> u32 {
    let board = pos.board();
    let king = pos.king_of(!winner);
    let (distance, target) = targets.iter().map(|t| (king.distance(t), t)).min().unwrap_or((0, king));
    let occupied = board.occupied();
    let winners = board.by_color(winner);
    let mut free = 0;
    for square in attacks::king(king) {
        let guarded = board.by_color(!winner).contains(square)
            || (board.attackers_to(square, occupied - Bitboard::from(king)) & winners).any();
        free += u32::from(!guarded);
    }
    let check = u32::from(!(pos.side_to_move() == !winner && pos.is_check()));
    // The king cannot enter a target the winner occupies or attacks.
    let blocked = if distance == 0 {
        0
    } else if winners.contains(target) {
        2
    } else {
        u32::from((board.attackers_to(target, occupied) & winners).any())
    };
    distance * 12 + free * 2 + check + blocked * 3
}

/// Weight of the estimate against the depth in the priority (weighted A*):
/// 1 keeps the search broad, large values make it greedy. 3 solved the
/// composed dev-set positions fastest (2 and 4 were also tried).
const ESTIMATE_WEIGHT: u32 = 3;

/// Memory per stored position (parent link, set slot, queue slot), in
/// bytes: the basis of the caller's cap on stored positions. Positions
/// themselves are not stored: a position is rebuilt by replaying the moves
/// from the start when it is expanded.
pub const BYTES_PER_POSITION: usize = 40;

/// The outcome of [`run`].
#[derive(Debug)]
pub enum BestFirst {
    /// A helpmate: the moves from the start position.
    Mate(Vec<Move>),
    /// No mate among the positions expanded (budget, memory cap, or the
    /// whole reachable set seen): says nothing about unwinnability.
    NotFound,
}

/// Stores at most `max_positions` positions (and no more nodes than the
/// search's counters allow) looking for a mate by `search.winner`.
pub fn run(search: &mut Search<'_>, start: &Position, targets: &Targets, max_positions: usize) -> BestFirst {
    let winner = search.winner;
    let goal = if targets.loser_king.any() {
        targets.loser_king
    } else {
        Bitboard::from(crate::score::loser_king_corner(start, winner))
    };
    // (parent index, move from the parent)
    let mut nodes: Vec<(u32, Move)> = Vec::new();
    // Keyed by the 64-bit hash: a collision can only hide a position from
    // this phase (never a soundness issue, see the module docs).
    let mut seen: HashSet<u64> = HashSet::new();
    let mut queue: BinaryHeap<Reverse<(u32, u32, u32)>> = BinaryHeap::new();
    nodes.push((u32::MAX, Move::normal(movegen::Square::A1, movegen::Square::A1)));
    seen.insert(start.hash());
    queue.push(Reverse((estimate(start, winner, goal) * ESTIMATE_WEIGHT, 0, 0)));
    let mut moves = MoveList::new();
    let mut line = Vec::new();
    while let Some(Reverse((_, depth, index))) = queue.pop() {
        if !search.count_node() {
            return BestFirst::NotFound;
        }
        path_to(&nodes, index, &mut line);
        let pos = line.iter().fold(*start, |pos, &m| pos.play(m));
        moves.clear();
        pos.generate_legal_moves(&mut moves);
        for &m in &moves {
            let child = pos.play(m);
            if !child.has_legal_moves() {
                if child.is_check() && child.side_to_move() != winner {
                    line.push(m);
                    return BestFirst::Mate(line);
                }
                continue;
            }
            if static_check::insufficient_material(&child, winner).is_some() || nodes.len() >= max_positions {
                continue;
            }
            if seen.insert(child.hash()) {
                let child_index = nodes.len() as u32;
                nodes.push((index, m));
                let f = estimate(&child, winner, goal) * ESTIMATE_WEIGHT + depth + 1;
                queue.push(Reverse((f, depth + 1, child_index)));
            }
        }
    }
    BestFirst::NotFound
}

/// The moves from the start to node `index`.
fn path_to(nodes: &[(u32, Move)], index: u32, line: &mut Vec<Move>) {
    line.clear();
    let mut at = index;
    while at != 0 {
        let (parent, mv) = nodes[at as usize];
        line.push(mv);
        at = parent;
    }
    line.reverse();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::TranspositionTable;

    /// Composed positions of the dev set labelled winnable, whose helpmates
    /// march the loser's king across the board: the phase finds a mate, and
    /// the moves replay to a mate by the winner.
    #[test]
    fn finds_long_king_marches() {
        for (fen, winner) in [
            ("k7/1b6/2b5/8/8/1pB5/pP6/K7 w - -", Color::White),
            ("k1b5/1p1p4/1P1P1K2/8/8/B7/8/1b6 w - -", Color::Black),
            ("N1b1N1N1/1pPpPpPp/1P1P1P1P/8/8/8/8/kb2B1K1 w - -", Color::White),
            ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -", Color::White),
        ] {
            let pos: Position = fen.parse().unwrap();
            let mut tt = TranspositionTable::new(1);
            let mut search = Search::new(winner, &mut tt, 5_000_000, None);
            search.start_fresh(5_000_000);
            let targets = Targets::of(&pos, winner);
            match run(&mut search, &pos, &targets, 4_000_000) {
                BestFirst::Mate(moves) => {
                    assert!(crate::replay(&pos, winner, &moves).is_ok(), "{fen}: {moves:?}");
                    assert!(moves.len() > 10, "{fen}: a short mate would have been found by any search");
                }
                BestFirst::NotFound => panic!("no mate found in {fen}"),
            }
        }
    }
}
