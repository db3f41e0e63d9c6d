//! Unwinnability by material alone: the intended winner has only the king,
//! or the pawn-free configurations of the paper's Lemmas 5 and 6.

use core::fmt;

use movegen::{Bitboard, Board, Color, Position};

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
    insufficient_on(pos.board(), winner)
}

/// [`insufficient_material`] on a placement.
fn insufficient_on(board: &Board, winner: Color) -> Option<InsufficientMaterial> {
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

/// The winner's pieces whose capture would leave a material with which the
/// winner can never mate: the winner's only non-king piece (its capture
/// leaves a lone king); and, when there are no pawns on the board, every
/// piece without which the rules above hold.
///
/// **Why a mating game never captures them.** A lone king never mates, and
/// without pawns no piece is ever added: after the capture, the winner's
/// pieces are a subset of the remaining ones and the loser's a subset of
/// its present ones, and each rule, once it holds, keeps holding when
/// pieces are removed (a lone king stays lone; Lemma 5's lone knight and
/// Lemma 6's same-coloured bishops only lose pieces, and the conditions on
/// the opponent only forbid kinds of pieces). The lemmas apply because any
/// later mate would be played, not given. So the static check may reason
/// about the games in which these pieces are never captured (see
/// `mobility::Mobility::compute_assuming`).
///
/// ```
/// use movegen::{Color, Position, Square};
/// // White's queen is its last piece.
/// let pos: Position = "6Q1/8/4n3/8/ppp5/qkp3b1/rnp5/n1K5 b - -".parse().unwrap();
/// assert_eq!(static_check::irreplaceable(&pos, Color::White).first(), Some(Square::G8));
/// // A knight and a bishop of each colour: none alone is irreplaceable
/// // while the opponent has a knight.
/// let pos: Position = "4k3/8/8/2n5/8/8/8/2BNK3 w - -".parse().unwrap();
/// assert!(static_check::irreplaceable(&pos, Color::White).is_empty());
/// ```
pub fn irreplaceable(pos: &Position, winner: Color) -> Bitboard {
    let board = pos.board();
    let ours = board.by_color(winner) - board.kings();
    if ours.count() == 1 {
        return ours;
    }
    if board.pawns().any() {
        return Bitboard::EMPTY;
    }
    ours.iter()
        .filter(|&square| {
            let mut without = *board;
            without.remove_piece_at(square);
            insufficient_on(&without, winner).is_some()
        })
        .collect()
}
