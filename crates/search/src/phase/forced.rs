//! Forced moves: while the side to move has exactly one legal move, the
//! game can only go one way (Figure 9 "forced moves first", Figure 10 step 1).

use std::collections::HashSet;

use movegen::{Color, Move, Position};

use crate::tt::PackedPosition;

/// Where a forced line leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForcedLine {
    /// The position reached once a choice exists (the line may be empty).
    Continues(Position),
    /// The line ends in a checkmate by the intended winner.
    WinnerMates,
    /// The line ends in stalemate or in a checkmate of the intended winner.
    GameOver,
    /// The line returns to a position it already passed: it goes round
    /// forever and no checkmate ever happens.
    Repeats,
}

/// Plays the only legal move while there is exactly one, recording the
/// moves in `line`.
///
/// Soundness of the two "unwinnable" outcomes: with one legal move at every
/// step, every game from the start follows this line. If it ends without a
/// mate by the winner, or comes back to a position (from where it must
/// repeat the same moves forever), no game reaches a mate by the winner.
pub fn follow(start: &Position, winner: Color, line: &mut Vec<Move>) -> ForcedLine {
    let mut pos = *start;
    let mut seen: HashSet<PackedPosition> = HashSet::new();
    loop {
        let moves = pos.legal_moves();
        match moves.len() {
            0 if pos.is_check() && pos.side_to_move() != winner => return ForcedLine::WinnerMates,
            0 => return ForcedLine::GameOver,
            1 => {
                if !seen.insert(pos.pack()) {
                    return ForcedLine::Repeats;
                }
                line.push(moves[0]);
                pos = pos.play(moves[0]);
            }
            _ => return ForcedLine::Continues(pos),
        }
    }
}
