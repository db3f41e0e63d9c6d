//! The move-count rules, counted in plies by the halfmove clock (plies
//! since the last capture or pawn move, FEN field 5):
//!
//! * **Art. 9.3** (claimable): "The game is drawn, upon a correct claim by
//!   a player having the move, if: 9.3.1 he writes his move [...] which
//!   will result in the last 50 moves by each player having been made
//!   without the movement of any pawn and without any capture, or 9.3.2 the
//!   last 50 moves by each player have been completed without the movement
//!   of any pawn and without any capture."
//! * **Art. 9.6.2** (automatic): "the game is drawn \[when\] any series of at
//!   least 75 moves have been made by each player without the movement of
//!   any pawn and without any capture. If the last move resulted in
//!   checkmate, that shall take precedence."
//!
//! The halfmove clock of a game that starts from a FEN is taken from the FEN.

use movegen::{Move, Position, Role};

/// Plies without capture or pawn move that make the fifty-move draw
/// claimable (Art. 9.3.2).
pub const FIFTY_MOVES: u16 = 100;

/// Plies without capture or pawn move that end the game (Art. 9.6.2).
pub const SEVENTY_FIVE_MOVES: u16 = 150;

/// Art. 9.3.2: the last fifty moves by each player are complete.
pub fn fifty_moves_completed(pos: &Position) -> bool {
    pos.halfmove_clock() >= FIFTY_MOVES
}

/// Art. 9.3.1: a move the player to move may write down and claim with,
/// because it completes fifty moves by each player without capture or pawn
/// move (so the clock is at 99 and the move is neither).
///
/// ```
/// use adjudicate::rules::move_count::fifty_move_claim_by_move;
/// use movegen::Position;
/// let pos: Position = "4k3/8/8/8/8/8/4P3/4K2R w - - 99 80".parse().unwrap();
/// assert!(fifty_move_claim_by_move(&pos).is_some());
/// let pos: Position = "4k3/8/8/8/8/8/4P3/4K2R w - - 98 80".parse().unwrap();
/// assert!(fifty_move_claim_by_move(&pos).is_none());
/// ```
pub fn fifty_move_claim_by_move(pos: &Position) -> Option<Move> {
    if pos.halfmove_clock() != FIFTY_MOVES - 1 {
        return None;
    }
    pos.legal_moves().iter().copied().find(|&m| !pos.is_capture(m) && pos.role_at(m.from()) != Some(Role::Pawn))
}

/// Art. 9.6.2: seventy-five moves by each player without capture or pawn
/// move, and the last move did not checkmate: the game is drawn.
///
/// ```
/// use adjudicate::rules::move_count::seventy_five_moves;
/// use movegen::Position;
/// let pos: Position = "4k3/8/8/8/8/8/8/R3K3 b - - 150 120".parse().unwrap();
/// assert!(seventy_five_moves(&pos));
/// // The same count, but the last move mated: the mate stands.
/// let pos: Position = "R3k3/8/4K3/8/8/8/8/8 b - - 150 120".parse().unwrap();
/// assert!(!seventy_five_moves(&pos));
/// ```
pub fn seventy_five_moves(pos: &Position) -> bool {
    pos.halfmove_clock() >= SEVENTY_FIVE_MOVES && !pos.is_checkmate()
}
