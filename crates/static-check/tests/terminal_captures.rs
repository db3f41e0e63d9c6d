//! The static check on the position that guards the terminal-capture
//! rule's reading of a capturing pawn (`mobility`'s `terminal.rs`: a pawn
//! whose region misses its last rank takes only as a pawn).
//!
//! In `k1b5/1p1p4/1P1P4/8/8/2B5/8/K5B1 w` Black's bishop on c8 can never
//! move (its own pawns on b7 and d7 block it), White's king can take it
//! only with Black's king on a8 (from b8 that king guards c8), and that
//! capture stalemates Black. So the four pawns stay blocked, no pawn ever
//! captures (the squares they attack are light, White's bishops dark),
//! and Black, with a bishop that never moves and a king that never gives
//! check, can never mate: unwinnable, as the other solver (CHA-Solver 3.0)
//! and this project's exhaustive search (82,101 reachable positions) both
//! answer. With a light-squared White bishop instead of the one on g1,
//! Black's b-pawn can take it on a6 and promote, and Black mates: the
//! helpmate is replayed with cozy-chess, not the project's move generator.

mod common;

use movegen::{Color, Position};

#[test]
fn a_bishop_whose_capture_stalemates_keeps_its_pawns_blocked() {
    let pos: Position = "k1b5/1p1p4/1P1P4/8/8/2B5/8/K5B1 w - -".parse().unwrap();
    let explanation = static_check::analyze(&pos, Color::Black);
    assert!(explanation.is_unwinnable(), "{explanation}");
}

#[test]
fn with_a_light_bishop_to_take_the_pawns_are_free_and_black_mates() {
    let fen = "k1b5/1p1p4/1P1P4/8/8/2B5/8/K4B2 w - - 0 1";
    let helpmate = [
        "f1e2", "a8b8", "e2a6", "b7a6", "b6b7", "a6a5", "c3e1", "a5a4", "e1d2", "a4a3", "d2c1", "a3a2", "c1b2", "c8b7",
        "b2c1", "b8c8", "a1b2", "a2a1q", "b2b3", "a1c1", "b3a2", "b7d5",
    ];
    assert_eq!(common::replay_to_mate(fen, &helpmate), cozy_chess::Color::White);
    let pos: Position = fen.parse().unwrap();
    let explanation = static_check::analyze(&pos, Color::Black);
    assert!(!explanation.is_unwinnable(), "{explanation}");
}
