//! The incrementally maintained Zobrist hash equals the hash recomputed
//! from scratch on every move of long random games, and the repetition key
//! identifies positions the way FIDE Art. 9.2.3 does.

mod common;

use common::{Rng, playout, test_fens};
use movegen::Position;

#[test]
fn incremental_hash_equals_recomputed_on_random_games() {
    let mut rng = Rng::new(7);
    let mut positions = 0;
    for fen in test_fens().iter().step_by(3) {
        let start = Position::from_fen(fen).unwrap();
        playout(start, 300, &mut rng, |pos, _| {
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.to_fen());
            positions += 1;
        });
    }
    assert!(positions > 100_000, "{positions}");
}

#[test]
fn knight_shuffle_repeats_the_position() {
    let start = Position::start();
    let mut pos = start;
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos = pos.play(pos.parse_uci(uci).unwrap());
    }
    assert_eq!(pos.repetition_key(), start.repetition_key());
    assert_eq!(pos.hash(), start.hash());
    // The same placement after a king move is not a repetition: rights differ.
    let mut lost = start;
    for uci in ["e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8"] {
        lost = lost.play(lost.parse_uci(uci).unwrap());
    }
    let same_board = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1").unwrap();
    assert_eq!(lost.board(), same_board.board());
    assert_ne!(lost.repetition_key(), same_board.repetition_key());
}

#[test]
fn en_passant_counts_only_when_legal() {
    // After ...d7d5 the d6 square is recorded, but the e5 pawn is pinned
    // against the king on e1 by the rook on e8: the capture is illegal, so
    // the position repeats the one without an en passant square.
    let pinned = Position::from_fen("4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    let without = Position::from_fen("4r1k1/8/8/3pP3/8/8/8/4K3 w - - 0 2").unwrap();
    assert_eq!(pinned.ep_square(), Some(movegen::Square::D6));
    assert_eq!(pinned.legal_ep_square(), None);
    assert_ne!(pinned.hash(), without.hash());
    assert_eq!(pinned.repetition_key(), without.repetition_key());
    // With the capture legal, the positions differ.
    let legal = Position::from_fen("6k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    let legal_without = Position::from_fen("6k1/8/8/3pP3/8/8/8/4K3 w - - 0 2").unwrap();
    assert_eq!(legal.legal_ep_square(), Some(movegen::Square::D6));
    assert_ne!(legal.repetition_key(), legal_without.repetition_key());
}
