//! The **mobility problem** of chess unwinnability (M. Ambrona, *A Practical
//! Algorithm for Chess Unwinnability*, Section 3.1): for every piece, the
//! squares it can possibly stand on in the future.
//!
//! [`Mobility::compute`] returns, for every piece `P` of a position,
//! `region(P) = {s | M[P→s] = 1}`, whether `P` can ever be cleared from its
//! square (`C[P]`), and for each colour the squares a non-king piece of that
//! colour can ever stand on (`R[s][c]`). These are the least fixpoint of the
//! paper's rules (Figure 6) computed as in Figure 7, with whole-board set
//! operations (see [`fixpoint`](crate::fixpoint) for the rule-by-rule map).
//! By default one sound rule is added to the paper's ([`Rules::FacingPawns`]:
//! pawns on one file cannot pass each other); [`Rules::Paper`] gives the
//! paper's fixpoint exactly.
//!
//! **Soundness (Lemma 8).** If the position has no castling rights and no
//! en passant capture is legal, the result *over-approximates* reality: if
//! some sequence of legal moves brings `P` to `s`, then `s ∈ region(P)`; if
//! `P` ever moves or is captured, `C[P]` holds; if a non-king piece of colour
//! `c` ever stands on `s`, `R[s][c]` holds. Castling (the rook jumps over the
//! king) and en passant (a capture onto an empty square) are outside the
//! rules, so [`Mobility::compute`] refuses such positions with
//! [`NotApplicable`] instead of giving an answer that could be wrong.
//!
//! # Example: the paper's Position 1
//!
//! ```
//! use movegen::{Position, Square};
//! use mobility::Mobility;
//!
//! let pos: Position = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54".parse().unwrap();
//! let mobility = Mobility::compute(&pos).unwrap();
//!
//! // The black king stays above the blocked pawn wall (a7, c7, d6, f6
//! // and h6 are guarded forever by white pawns that can never move) ...
//! let black_king = mobility.region(Square::F7);
//! assert!(black_king.contains(Square::E8) && !black_king.contains(Square::E4));
//! // ... the white king below it, and the white pawns never move.
//! assert!(mobility.region(Square::F3).contains(Square::A1));
//! assert!(!mobility.region(Square::F3).contains(Square::E6));
//! assert!(!mobility.can_be_cleared(Square::D4));
//! assert_eq!(
//!     mobility.region(Square::F7).to_string(),
//!     "1 1 1 1 1 1 1 1\n\
//!      . . . 1 1 1 1 1\n\
//!      . . . . 1 . . .\n\
//!      . . . . . . . .\n\
//!      . . . . . . . .\n\
//!      . . . . . . . .\n\
//!      . . . . . . . .\n\
//!      . . . . . . . .\n"
//! );
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod dilate;
pub mod fixpoint;
pub mod terminal;

use core::fmt;

use movegen::{Bitboard, Board, Color, Piece, Position, Role, Square};

pub use fixpoint::{Rules, direct_attacks};

/// Why the mobility analysis does not apply to a position (the
/// precondition of the paper's Lemma 8 fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotApplicable {
    /// Some side still has a castling right.
    CastlingRights,
    /// An en passant capture is legal on this square.
    EnPassant(Square),
}

impl fmt::Display for NotApplicable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotApplicable::CastlingRights => f.write_str("a side still has castling rights"),
            NotApplicable::EnPassant(square) => write!(f, "an en passant capture on {square} is possible"),
        }
    }
}

impl std::error::Error for NotApplicable {}

/// The solution of the mobility problem of a position: an admissible
/// (over-approximating) answer to "where can each piece ever be".
///
/// Pieces are named by the square they stand on in the analysed position.
#[derive(Clone, Debug)]
pub struct Mobility {
    board: Board,
    regions: [Bitboard; 64],
    cleared: Bitboard,
    reachable: [Bitboard; 2],
}

impl Mobility {
    /// Solves the mobility problem of `pos`, or says why Lemma 8 does not
    /// apply (castling rights, or a legal en passant capture).
    pub fn compute(pos: &Position) -> Result<Mobility, NotApplicable> {
        Mobility::compute_with(pos, Rules::default())
    }

    /// [`Mobility::compute`] with a choice of rules: the paper's exactly,
    /// or strengthened (the default; see [`Rules`]).
    pub fn compute_with(pos: &Position, rules: Rules) -> Result<Mobility, NotApplicable> {
        if !pos.castling_rights().is_empty() {
            return Err(NotApplicable::CastlingRights);
        }
        if let Some(square) = pos.legal_ep_square() {
            return Err(NotApplicable::EnPassant(square));
        }
        let board = *pos.board();
        let base = fixpoint::saturate(&board, rules, Bitboard::EMPTY);
        let solution = if rules == Rules::TerminalCaptures { terminal::refine(&board, rules, base) } else { base };
        Ok(Mobility { board, regions: solution.regions, cleared: solution.cleared, reachable: solution.reachable })
    }

    /// The placement that was analysed.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// `region(P)` for the piece `P` standing on `square` in the analysed
    /// position: every square it may ever stand on (its own included).
    /// Empty if no piece stands on `square`.
    #[inline]
    pub fn region(&self, square: Square) -> Bitboard {
        self.regions[square as usize]
    }

    /// `C[P]`: whether the piece on `square` may ever leave its square
    /// (moving or being captured). A piece that cannot is there for the rest
    /// of the game.
    #[inline]
    pub fn can_be_cleared(&self, square: Square) -> bool {
        self.cleared.contains(square)
    }

    /// The squares of the pieces that may be cleared (`C[P] = 1`).
    #[inline]
    pub fn cleared(&self) -> Bitboard {
        self.cleared
    }

    /// `R[·][color]`: the squares some non-king piece of `color` may ever
    /// stand on (including where they stand now).
    #[inline]
    pub fn reachable(&self, color: Color) -> Bitboard {
        self.reachable[color as usize]
    }

    /// Every piece with its square and region, from a1 upwards.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece, Bitboard)> + '_ {
        self.board.pieces_iter().map(|(square, piece)| (square, piece, self.regions[square as usize]))
    }

    /// The square of `color`'s king.
    pub fn king(&self, color: Color) -> Option<Square> {
        self.board.king_of(color)
    }

    /// The region of `color`'s king (empty if there is none).
    pub fn king_region(&self, color: Color) -> Bitboard {
        self.king(color).map_or(Bitboard::EMPTY, |square| self.region(square))
    }

    /// A copy with `extra` squares added to the region of the piece on
    /// `square`: a larger, still admissible solution. Used to test that the
    /// static check is monotone (Lemma 10); adding squares can only make a
    /// solution *less* informative, never wrong.
    pub fn enlarged(&self, square: Square, extra: Bitboard) -> Mobility {
        let mut copy = self.clone();
        if self.board.occupied().contains(square) {
            copy.regions[square as usize] |= extra;
            let color = self.board.color_at(square).unwrap_or(Color::White);
            if self.board.role_at(square) != Some(Role::King) {
                copy.reachable[color as usize] |= extra;
            }
            if (extra - square).any() {
                copy.cleared |= square;
            }
        }
        copy
    }
}
