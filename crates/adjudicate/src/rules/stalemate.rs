//! **Art. 5.2.1**: "The game is drawn when the player to move has no legal
//! move and his king is not in check. The game is said to end in
//! 'stalemate'. This immediately ends the game, provided that the move
//! producing the stalemate position was in accordance with Article 3 and
//! Articles 4.2 - 4.7."

use movegen::Position;

/// Whether `pos` is stalemate.
///
/// ```
/// use adjudicate::rules::stalemate::stalemate;
/// use movegen::Position;
/// let pos: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
/// assert!(stalemate(&pos));
/// assert!(!stalemate(&Position::start()));
/// ```
pub fn stalemate(pos: &Position) -> bool {
    pos.is_stalemate()
}
