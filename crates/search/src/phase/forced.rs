//! Forced moves: while the side to move has exactly one legal move, the
//! game can only go one way (Figure 9 "forced moves first", Figure 10 step 1).

use std::collections::HashSet;

use movegen::{Color, Move, Position, StagedMoves};

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
        // The first legal move and whether a second exists: generated a
        // stage at a time, so a position with a choice (most) stops at its
        // first stage with two moves (`StagedMoves` hands out exactly the
        // legal moves).
        let mut moves = StagedMoves::new(&pos);
        match (moves.next(), moves.any_left()) {
            (None, _) if pos.is_check() && pos.side_to_move() != winner => return ForcedLine::WinnerMates,
            (None, _) => return ForcedLine::GameOver,
            (Some(only), false) => {
                if !seen.insert(pos.pack()) {
                    return ForcedLine::Repeats;
                }
                line.push(only);
                pos = pos.play(only);
            }
            (Some(_), true) => return ForcedLine::Continues(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line as the whole move list tells it (the generator's list,
    /// counted), to compare [`follow`] with.
    fn follow_by_counting(start: &Position, winner: Color, line: &mut Vec<Move>) -> ForcedLine {
        let mut pos = *start;
        let mut seen = HashSet::new();
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

    /// [`follow`] takes the moves a stage at a time: the same lines and
    /// ends as counting the whole list, on the 20,000 timeouts (lost on
    /// time, many with a king that must take: forced lines) and the first
    /// 3,000 positions of the corpus of real games, both winners; some
    /// lines are not empty and some end the game.
    #[test]
    fn staged_moves_follow_the_same_forced_lines() {
        let read = |name: &str| {
            std::fs::read_to_string(format!("{}/../../testdata/{name}", env!("CARGO_MANIFEST_DIR"))).expect(name)
        };
        let (timeouts, corpus) = (read("timeouts-20k.txt"), read("lichess-30k-positions.txt"));
        let fens = timeouts.lines().chain(corpus.lines().take(3_000));
        let (mut lines, mut ended) = (0, 0);
        for fen in fens.map(|line| line.split_whitespace().take(4).collect::<Vec<_>>().join(" ")) {
            let pos: Position = fen.parse().unwrap();
            for winner in [Color::White, Color::Black] {
                let (mut staged, mut counted) = (Vec::new(), Vec::new());
                let result = follow(&pos, winner, &mut staged);
                assert_eq!(result, follow_by_counting(&pos, winner, &mut counted), "{fen} {winner:?}");
                assert_eq!(staged, counted, "{fen} {winner:?}");
                lines += usize::from(!staged.is_empty());
                ended += usize::from(!matches!(result, ForcedLine::Continues(_)));
            }
        }
        assert!(lines > 1_000 && ended > 100, "{lines} forced lines, {ended} ended");
    }
}
