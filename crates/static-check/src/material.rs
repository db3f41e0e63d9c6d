//! Unwinnability by material alone: the intended winner has only the king,
//! or the pawn-free configurations of the paper's Lemmas 5 and 6.

use core::fmt;

use movegen::{Bitboard, Color, Position};

/// Why the intended winner cannot mate with the material on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsufficientMaterial {
    /// The intended winner has only the king: a king alone never gives check.
    LoneKing,
    /// Lemma 5: no pawns on the board, the intended winner has just a
    /// knight, and the opponent has no knights, bishops or rooks.
    LoneKnight,
    /// Lemma 6: no pawns on the board, the intended winner has only bishops
    /// of one square colour, and the opponent has no knights and no bishops
    /// of the other square colour.
    SameColoredBishops,
}

impl fmt::Display for InsufficientMaterial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InsufficientMaterial::LoneKing => "the intended winner has only the king",
            InsufficientMaterial::LoneKnight => {
                "Lemma 5: no pawns, the intended winner has just a knight and the opponent no knights, bishops or rooks"
            }
            InsufficientMaterial::SameColoredBishops => {
                "Lemma 6: no pawns, the intended winner has only same-coloured bishops and the opponent no knights and no bishops of the other colour"
            }
        })
    }
}

/// Checks the three material rules for `winner`.
///
/// Soundness: a lone king never attacks the enemy king (kings are never
/// adjacent), so it never mates; Lemmas 5 and 6 are proved in the paper
/// (Section 2.1) and need the position to be pawn-free so that no new
/// piece can appear; material only ever decreases otherwise, so a position
/// satisfying a rule satisfies it after any sequence of moves.
///
/// **Precondition: the winner has not already mated.** The lemmas are
/// about mates *played*: their proofs look at the move that delivered it.
/// A position given as already mated need not have such a move (two
/// bishops of one colour giving a double check, as in
/// `8/8/8/8/8/1k6/b1b5/RKR5 w`, cannot arise from a move), so callers
/// check for a finished game first ([`crate::analyze`] and the search do).
///
/// ```
/// use movegen::{Color, Position};
/// use static_check::{insufficient_material, InsufficientMaterial};
/// // King and bishop against king and queen: Black's queen cannot block a
/// // dark square next to its king in a way White could exploit (Lemma 6).
/// let pos: Position = "8/8/4k3/8/2q5/8/1B6/4K3 w - - 0 1".parse().unwrap();
/// assert_eq!(insufficient_material(&pos, Color::White), Some(InsufficientMaterial::SameColoredBishops));
/// assert_eq!(insufficient_material(&pos, Color::Black), None);
/// ```
pub fn insufficient_material(pos: &Position, winner: Color) -> Option<InsufficientMaterial> {
    let board = pos.board();
    let ours = board.by_color(winner) - board.kings();
    if ours.is_empty() {
        return Some(InsufficientMaterial::LoneKing);
    }
    if board.pawns().any() {
        return None;
    }
    let theirs = board.by_color(!winner);
    if ours == ours & board.knights()
        && ours.count() == 1
        && (theirs & (board.knights() | board.bishops() | board.rooks())).is_empty()
    {
        return Some(InsufficientMaterial::LoneKnight);
    }
    if ours == ours & board.bishops() {
        let bishop_color =
            if (ours & Bitboard::LIGHT_SQUARES).any() { Bitboard::LIGHT_SQUARES } else { Bitboard::DARK_SQUARES };
        let single_color = ours.is_subset(bishop_color);
        let their_other_bishops = theirs & board.bishops() & !bishop_color;
        if single_color && (theirs & board.knights()).is_empty() && their_other_bishops.is_empty() {
            return Some(InsufficientMaterial::SameColoredBishops);
        }
    }
    None
}
