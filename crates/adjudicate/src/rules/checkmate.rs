//! **Art. 5.1.1**: "The game is won by the player who has checkmated his
//! opponent's king. This immediately ends the game, provided that the move
//! producing the checkmate position was in accordance with Article 3 and
//! Articles 4.2 - 4.7."
//!
//! A checkmate also takes precedence over the seventy-five-move rule
//! (Art. 9.6.2, see [`move_count`](super::move_count)).

use movegen::{Color, Position};

/// The winner, if the side to move in `pos` is checkmated.
///
/// ```
/// use adjudicate::rules::checkmate::checkmate;
/// use movegen::{Color, Position};
/// // Fool's mate.
/// let pos: Position = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3".parse().unwrap();
/// assert_eq!(checkmate(&pos), Some(Color::Black));
/// assert_eq!(checkmate(&Position::start()), None);
/// ```
pub fn checkmate(pos: &Position) -> Option<Color> {
    pos.is_checkmate().then(|| !pos.side_to_move())
}
