//! The static check on the position that guards the fix of commit a622f72
//! (`mobility::immobile_pieces` no longer closes to the piece under test
//! the squares where only its capture answers its check; see
//! `crates/mobility/tests/forced_capture_fixes.rs` for the argument).
//!
//! Before that fix the case split called Black's knight immobile in the
//! games White wins, its only move being such a check, and the static
//! check proved the position unwinnable for White, though 1... Nb3+
//! 2. cxb3# mates: the wrong `unwinnable` the guide forbids. The helpmate
//! is replayed with cozy-chess, not the project's move generator.

mod common;

use movegen::{Color, Position};

#[test]
fn the_static_check_does_not_prove_a_position_whose_only_move_leads_to_mate() {
    let fen = "6br/1p3p1k/1Pp2P1p/n1P4P/2p5/p1P5/P1P5/KB6 b - - 0 1";
    assert_eq!(common::replay_to_mate(fen, &["a5b3", "c2b3"]), cozy_chess::Color::Black);
    let pos: Position = fen.parse().unwrap();
    let explanation = static_check::analyze(&pos, Color::White);
    assert!(!explanation.is_unwinnable(), "{explanation}");
    assert!(static_check::figure8(&pos, Color::White).result.is_err());
}
