//! Whether each move of one position gives check, from sets computed once
//! for the position: the squares from which each role attacks the enemy
//! king, and the pieces whose leaving uncovers one of our sliders on it
//! (an idea of Stockfish's `CheckInfo`). For a caller that asks of many
//! moves of one position ([`Position::gives_check`] answers one move alone).

use crate::position::sniper_lines;
use crate::{Bitboard, Move, Position, Role, Square, attacks};

/// The check sets of a position ([`Position::check_squares`]).
///
/// ```
/// use movegen::Position;
/// // . . . . k . . .
/// // . . . . . . . .
/// // . . . . . . . .
/// // . . . . . . . .
/// // . . . . N . . .    the knight alone blocks the rook's file:
/// // . . . . . . . .    any knight move uncovers a check
/// // . . . . . . . .
/// // . . . . R . K .
/// let pos: Position = "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1".parse().unwrap();
/// let sets = pos.check_squares();
/// for uci in ["e4d6", "e4f6", "e4c3", "g1f2"] {
///     let m = pos.parse_uci(uci).unwrap();
///     assert_eq!(sets.gives_check(&pos, m), pos.gives_check(m), "{uci}");
/// }
/// assert!(sets.gives_check(&pos, pos.parse_uci("e4c3").unwrap())); // discovered
/// assert!(sets.gives_check(&pos, pos.parse_uci("e4d6").unwrap())); // double check
/// assert!(!sets.gives_check(&pos, pos.parse_uci("g1f2").unwrap()));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    /// For each role, the squares from which a piece of the side to move
    /// of that role would attack the enemy king (none for the king).
    by_role: [Bitboard; 6],
    /// Pieces of the side to move that stand alone between the enemy king
    /// and a slider of ours aiming at it.
    discoverers: Bitboard,
    their_king: Square,
}

impl Position {
    /// The check sets of this position, for [`CheckSquares::gives_check`].
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move();
        let board = self.board();
        let king = self.king_of(!us);
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let (diagonal, straight) = (attacks::bishop(king, occupied), attacks::rook(king, occupied));
        let by_role =
            [attacks::pawn(!us, king), attacks::knight(king), diagonal, straight, diagonal | straight, Bitboard::EMPTY];
        let sliders = (board.bishops_and_queens() & ours & attacks::bishop_rays(king))
            | (board.rooks_and_queens() & ours & attacks::rook_rays(king));
        let (_, lone_blockers) = sniper_lines(king, sliders, occupied);
        CheckSquares { by_role, discoverers: lone_blockers & ours, their_king: king }
    }
}

impl CheckSquares {
    /// Whether the legal move `m` of `pos` (the position these sets are of)
    /// gives check: [`Position::gives_check`], answered from the sets
    /// (castling, en passant and promotions are asked of `pos` itself).
    ///
    /// A piece lands on a square from which it attacks the king, with the
    /// position's occupancy: the square it leaves cannot block that line,
    /// since it would stand between the king and its destination on the
    /// line it moves along, and so already give check with the enemy to
    /// move. Or it leaves the line of a slider it alone blocked.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        if m.is_castle() || m.is_en_passant() || m.promotion().is_some() {
            return pos.gives_check(m);
        }
        let (from, to) = (m.from(), m.to());
        let role = pos.board().role_at(from).unwrap_or(Role::Pawn);
        self.by_role[role as usize].contains(to)
            || (self.discoverers.contains(from) && !attacks::aligned(from, to, self.their_king))
    }

    /// Of `targets`, the squares to which the piece of `role` (a knight,
    /// bishop, rook or queen of the side to move) on `from` gives check
    /// with a move there: [`CheckSquares::gives_check`] of each such move,
    /// as a set, for a caller that asks of a piece's moves at once.
    #[inline]
    pub fn checking_targets(&self, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        debug_assert!(matches!(role, Role::Knight | Role::Bishop | Role::Rook | Role::Queen));
        let direct = targets & self.by_role[role as usize];
        if self.discoverers.contains(from) {
            // Leaving the line through the king uncovers the slider.
            direct | (targets - attacks::line(from, self.their_king))
        } else {
            direct
        }
    }
}
