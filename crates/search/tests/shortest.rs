//! The shortest-helpmate mode against a breadth-first search written here
//! on its own (a hash map of every position reached, no pruning, no table
//! of the crate's): in positions whose reachable set is small, the mode's
//! helpmate must be as long as the shortest one this search finds, and
//! replay to a mate by the winner. It checks the traversal's layers and
//! the walk that recovers a helpmate's moves from them
//! (`phase::exhaustive`), which no shorter helpmate may escape.

use std::collections::{HashSet, VecDeque};

use movegen::{Color, PackedPosition, Position};
use search::{Analyzer, Config, Mode, Verdict, replay};

/// The plies of a shortest helpmate by `winner` from `root` (a
/// breadth-first search over every legal move), or `None` when no mate is
/// reachable within `max_positions` positions.
fn shortest_mate(root: &Position, winner: Color, max_positions: usize) -> Option<usize> {
    let mut seen: HashSet<PackedPosition> = HashSet::from([root.pack()]);
    let mut queue = VecDeque::from([(*root, 0usize)]);
    while let Some((pos, plies)) = queue.pop_front() {
        for &m in &pos.legal_moves() {
            let child = pos.play(m);
            if child.is_checkmate() && child.side_to_move() != winner {
                return Some(plies + 1);
            }
            if seen.len() < max_positions && seen.insert(child.pack()) {
                queue.push_back((child, plies + 1));
            }
        }
    }
    None
}

#[test]
fn the_shortest_mode_finds_helpmates_as_short_as_a_plain_breadth_first_search() {
    let mut analyzer = Analyzer::new(Config { mode: Mode::Shortest, ..Config::default() });
    for (fen, winner) in [
        // Locked positions of the dev set (lines 10 and 15 for White) with long helpmates.
        ("Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - -", Color::White),
        ("k1bK4/1p1p4/1PpPp3/2P1Pp2/2p1pP2/2p1P3/2P5/8 w - -", Color::White),
        // A random edit of hard line 344: the black king walled in for good,
        // the helpmate through a white pawn's promotion to a bishop that a
        // black pawn takes on its way to promote.
        ("6k1/p3p1P1/2p3PB/p5PB/4P1P1/8/PKP5/8 w - -", Color::Black),
    ] {
        let pos: Position = fen.parse().unwrap();
        let expected = shortest_mate(&pos, winner, 4_000_000).unwrap_or_else(|| panic!("{fen}: no mate found"));
        let analysis = analyzer.analyze(&pos, winner);
        let Verdict::Winnable { helpmate } = &analysis.verdict else {
            panic!("{fen} for {winner}: {:?}", analysis.verdict)
        };
        replay(&pos, winner, helpmate).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(helpmate.len(), expected, "{fen} for {winner}");
    }
}
