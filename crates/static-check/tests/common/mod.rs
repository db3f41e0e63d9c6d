//! Helpers shared by the static check's integration tests.

use cozy_chess::{Board, GameStatus};

/// Plays `moves` (UCI) from `fen` with cozy-chess, not the project's move
/// generator, asserting each is legal and that the last one mates: the side
/// to move at the end is the one mated.
pub fn replay_to_mate(fen: &str, moves: &[&str]) -> cozy_chess::Color {
    let mut board = Board::from_fen(fen, false).unwrap();
    for text in moves {
        let mv: cozy_chess::Move = text.parse().unwrap();
        assert!(board.is_legal(mv), "{text}");
        board.play(mv);
    }
    assert_eq!(board.status(), GameStatus::Won);
    board.side_to_move()
}
