#![doc = include_str!("../README.md")]
//!
//! The **mobility problem** of chess unwinnability (M. Ambrona, *A Practical
//! Algorithm for Chess Unwinnability*, Section 3.1): for every piece, the
//! squares it can possibly stand on in the future.
//!
//! [`Mobility::compute`] returns, for every piece `P` of a position,
//! `region(P) = {s | M[P→s] = 1}`, whether `P` can ever be cleared from its
//! square (`C[P]`), and for each colour the squares a non-king piece of that
//! colour can ever stand on (`R[s][c]`). These are the least fixpoint of the
//! paper's rules (Figure 6) computed as in Figure 7, with whole-board set
//! operations (see [`fixpoint`] for the rule-by-rule map).
//! By default sound rules are added to the paper's ([`Rules::FacingPawns`]:
//! pawns on one file cannot pass each other, nor a rook or queen a pawn of
//! its colour behind it; and the others of [`Rules::Saturation`]);
//! [`Rules::Paper`] gives the paper's fixpoint exactly.
//!
//! **Soundness (Lemma 8).** If no en passant capture is legal in the
//! position, the result *over-approximates* reality: if some sequence of
//! legal moves brings `P` to `s`, then `s ∈ region(P)`; if `P` ever moves
//! or is captured, `C[P]` holds; if a non-king piece of colour `c` ever
//! stands on `s`, `R[s][c]` holds. En passant (a capture onto an empty
//! square) is outside the rules, so [`Mobility::compute`] refuses positions
//! where it is legal now with [`NotApplicable`] instead of giving an answer
//! that could be wrong. (An en passant capture that only becomes possible
//! later is covered: the paper's proof handles it, the pawn capture rule
//! asks for `R` of the square the captured pawn passed over.)
//!
//! **Castling rights are allowed**, in standard chess and Chess960 (the
//! paper excludes them; this is an extension). The fixpoint has a
//! *castling rule*: for each right of the analysed position, the king's
//! region gets its destination and the rook's its own, unless a piece that
//! never leaves its square stands where the castling needs an empty square
//! or attacks directly a square the king crosses or lands on. The argument
//! is in [`castling`]: the position before a castling is within the regions
//! (Lemma 8's induction), the castling's legality there makes every piece
//! that started on a square it needs empty or that attacks the king's path
//! directly a cleared one, so the rule applied. Stepping the king and
//! sliding the rook through empty squares would cover standard castling but
//! not Chess960's (the king may pass over the rook's square, the rook over
//! the king's, either may stay, and neither may have another move).
//!
//! The same holds for the fixpoint with frozen pieces of [`terminal`]
//! (frozen pieces stand on their squares until the first of them is
//! cleared, so a frozen enemy on an attacking square makes the castling
//! illegal and a frozen ally on the path makes it impossible; a frozen
//! piece is assumed never to move, so its castlings are left out while the
//! assumption holds); [`terminal`] documents why its stalemate
//! verification covers castling. `tests/over_approximation.rs` (standard
//! chess) and `tests/chess960.rs` (Chess960) check the regions against
//! random games in which castling is played.
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

pub mod castling;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod dilate;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod fixpoint;
mod forced_captures;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod geometry;
mod immobile;
mod mating_moves;
mod persistent;
mod regions;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod terminal;

use core::fmt;

use movegen::{Bitboard, Board, CastlingRights, Color, Piece, Position, Role, Square};

pub use castling::Castlings;
pub use fixpoint::Rules;
pub use geometry::direct_attacks;
pub use immobile::immobile_pieces;
pub use regions::Regions;

/// Why the mobility analysis does not apply to a position: an en passant
/// capture is legal (the precondition of Lemma 8 that remains; castling
/// rights are handled, see the crate docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotApplicable {
    /// An en passant capture is legal on this square.
    EnPassant(Square),
}

impl fmt::Display for NotApplicable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotApplicable::EnPassant(square) => write!(f, "an en passant capture on {square} is possible"),
        }
    }
}

impl std::error::Error for NotApplicable {}

/// Which games the regions must cover (all of them by default). A caller
/// that only reasons about the games ending in a checkmate by one colour
/// (the static check does) may narrow them down, and the regions get
/// tighter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Games {
    /// Pieces never captured in these games. Sound to assume for a piece
    /// whose capture would make a mate by the winner impossible forever
    /// (its last piece: `static_check::irreplaceable`), since no game that
    /// ends in such a mate captures it.
    pub uncapturable: Bitboard,
    /// Only the games that end in a checkmate by this colour: a piece of
    /// the other colour each of whose moves would mate it may then be kept
    /// still (see [`terminal`]).
    pub mates_by: Option<Color>,
    /// Pieces that never move in these games (they may be captured where
    /// they stand): their regions are their squares. Sound to assume for
    /// the pieces [`immobile_pieces`] finds for the same games.
    pub immobile: Bitboard,
}

/// The solution of the mobility problem of a position: an admissible
/// (over-approximating) answer to "where can each piece ever be".
///
/// Pieces are named by the square they stand on in the analysed position.
#[derive(Clone, Debug)]
pub struct Mobility {
    board: Board,
    castling: CastlingRights,
    castlings: Castlings,
    regions: Regions,
    cleared: Bitboard,
    reachable: [Bitboard; 2],
    frozen: Bitboard,
}

impl Mobility {
    /// Solves the mobility problem of `pos`, or says why Lemma 8 does not
    /// apply.
    ///
    /// **Precondition**: no en passant capture is legal in `pos` (otherwise
    /// `Err(NotApplicable::EnPassant)`). Castling rights are fine: castling
    /// is covered by the rules (see the crate docs), and the rights are kept
    /// ([`Mobility::castling_rights`]) for the refinements of the static
    /// check that must know about them.
    pub fn compute(pos: &Position) -> Result<Mobility, NotApplicable> {
        Mobility::compute_with(pos, Rules::default())
    }

    /// [`Mobility::compute`] with a choice of rules: the paper's exactly,
    /// or strengthened (the default; see [`Rules`]).
    pub fn compute_with(pos: &Position, rules: Rules) -> Result<Mobility, NotApplicable> {
        Mobility::compute_assuming(pos, rules, Games::default())
    }

    /// [`Mobility::compute_with`] for the games described by `games` only:
    /// the regions then over-approximate those games (see [`Games`]). With
    /// `Games::default()`, every game is covered.
    pub fn compute_assuming(pos: &Position, rules: Rules, games: Games) -> Result<Mobility, NotApplicable> {
        if let Some(square) = pos.legal_ep_square() {
            return Err(NotApplicable::EnPassant(square));
        }
        let board = *pos.board();
        let pieces = board.occupied() - board.kings();
        let games = Games { uncapturable: games.uncapturable & pieces, immobile: games.immobile & pieces, ..games };
        let castlings = Castlings::of(pos);
        let assumptions = fixpoint::Assumptions::of(games, castlings);
        let base = fixpoint::saturate(&board, rules, assumptions);
        let solution =
            if rules.terminal_captures() { terminal::refine(&board, rules, assumptions, base) } else { base };
        Ok(Mobility {
            board,
            castling: pos.castling_rights(),
            castlings,
            regions: solution.regions,
            cleared: solution.cleared,
            reachable: solution.reachable,
            frozen: solution.frozen,
        })
    }

    /// The placement that was analysed.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The castling rights of the analysed position. Castling is covered by
    /// the regions; reasoning that looks at single moves (such as the
    /// last-move condition of the static check) must allow for it.
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The castlings of the analysed position's rights, with their squares
    /// (see [`castling`]).
    pub fn castlings(&self) -> &Castlings {
        &self.castlings
    }

    /// `region(P)` for the piece `P` standing on `square` in the analysed
    /// position: every square it may ever stand on (its own included).
    /// Empty if no piece stands on `square`.
    #[inline]
    pub fn region(&self, square: Square) -> Bitboard {
        self.regions[square]
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

    /// The pieces the terminal rule keeps frozen ([`terminal`]): never
    /// moved nor captured in the games covered, the first capture of one
    /// ending the game in stalemate.
    #[inline]
    pub fn frozen(&self) -> Bitboard {
        self.frozen
    }

    /// `R[·][color]`: the squares some non-king piece of `color` may ever
    /// stand on (including where they stand now).
    #[inline]
    pub fn reachable(&self, color: Color) -> Bitboard {
        self.reachable[color as usize]
    }

    /// Every piece with its square and region, from a1 upwards.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece, Bitboard)> + '_ {
        self.board.pieces_iter().map(|(square, piece)| (square, piece, self.regions[square]))
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
            copy.regions[square] |= extra;
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
