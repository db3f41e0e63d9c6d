//! Legal moves as sets: for every piece, the bitboard of squares it can
//! legally move to.
//!
//! This is the view the mobility analysis and counting want ("where can this
//! piece go"), and it is faster than building a move list when only the
//! number of moves matters (bulk-counting perft). The ordered
//! [`MoveList`](crate::MoveList) view lives in [`movegen`](crate::movegen);
//! the two are tested against each other.

use crate::{Bitboard, Castling, Move, MoveKind, Position, Rank, Role, Square, attacks};

/// The legal moves of one piece, as a set of destinations.
///
/// A pawn destination on the last rank stands for four moves (one per
/// promotion piece); a king destination two files away is castling; a pawn
/// destination equal to the en passant square is an en passant capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// What moves.
    pub role: Role,
    /// From where.
    pub from: Square,
    /// The legal destinations.
    pub to: Bitboard,
}

impl PieceMoves {
    /// Whether this piece's destinations are promotions.
    #[inline(always)]
    pub fn is_promotion(&self) -> bool {
        self.role == Role::Pawn && (self.to & (Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth))).any()
    }

    /// The number of moves: destinations, times four for promotions.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        if self.is_promotion() { self.to.count() * 4 } else { self.to.count() }
    }
}

impl Position {
    /// Calls `f` with the legal destinations of every piece of the side to
    /// move that has at least one legal move, pieces in square order.
    /// Stops early and returns `true` as soon as `f` returns `true`.
    ///
    /// ```
    /// use movegen::{Position, Role, Square};
    /// let pos = Position::start();
    /// let mut knight_moves = 0;
    /// pos.for_each_piece_moves(|pm| {
    ///     if pm.role == Role::Knight { knight_moves += pm.to.count(); }
    ///     false
    /// });
    /// assert_eq!(knight_moves, 4);
    /// ```
    #[inline]
    pub fn for_each_piece_moves(&self, mut f: impl FnMut(PieceMoves) -> bool) -> bool {
        let board = self.board();
        let us = self.side_to_move();
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let occupied = ours | theirs;
        let king = self.our_king();
        let checkers = self.checkers();

        let king_targets = self.king_destinations();
        if king_targets.any() && f(PieceMoves { role: Role::King, from: king, to: king_targets }) {
            return true;
        }
        if checkers.more_than_one() {
            return false;
        }
        let check_mask = match checkers.single_square() {
            Some(checker) => attacks::between(king, checker) | checker,
            None => Bitboard::FULL,
        };
        let pinned = self.pinned();
        let targets = !ours & check_mask;
        for from in ours - board.kings() - board.pawns() {
            if board.knights().contains(from) && pinned.contains(from) {
                continue;
            }
            let (role, reach) = if board.knights().contains(from) {
                (Role::Knight, attacks::knight(from))
            } else if board.bishops().contains(from) {
                (Role::Bishop, attacks::bishop(from, occupied))
            } else if board.rooks().contains(from) {
                (Role::Rook, attacks::rook(from, occupied))
            } else {
                (Role::Queen, attacks::queen(from, occupied))
            };
            let mut to = reach & targets;
            if pinned.contains(from) {
                to &= attacks::line(king, from);
            }
            if to.any() && f(PieceMoves { role, from, to }) {
                return true;
            }
        }
        for from in board.pawns() & ours {
            let to = self.pawn_destinations(from, check_mask);
            if to.any() && f(PieceMoves { role: Role::Pawn, from, to }) {
                return true;
            }
        }
        false
    }

    /// The legal destinations of the king of the side to move, including
    /// castling (as the king's destination square).
    #[inline]
    fn king_destinations(&self) -> Bitboard {
        let board = self.board();
        let us = self.side_to_move();
        let king = self.our_king();
        let without_king = board.occupied() ^ king;
        let mut to = Bitboard::EMPTY;
        for square in attacks::king(king) & !self.us() {
            if !board.is_attacked_by(square, !us, without_king) {
                to |= square;
            }
        }
        if self.checkers().is_empty() && self.castling_rights().intersects(crate::CastlingRights::of(us)) {
            for castling in Castling::both(us) {
                if self.castling_rights().contains(castling.right())
                    && (castling.path() & board.occupied()).is_empty()
                    && castling.king_path().into_iter().all(|sq| !board.is_attacked_by(sq, !us, board.occupied()))
                {
                    to |= castling.king_to();
                }
            }
        }
        to
    }

    /// The legal destinations of the pawn on `from` given the check mask.
    #[inline]
    fn pawn_destinations(&self, from: Square, check_mask: Bitboard) -> Bitboard {
        let board = self.board();
        let us = self.side_to_move();
        let occupied = board.occupied();
        let single = Bitboard::from(from).forward(us) - occupied;
        let double = (single & Bitboard::relative_rank(us, Rank::Third)).forward(us) - occupied;
        let captures = attacks::pawn(us, from) & self.them();
        let mut to = (single | double | captures) & check_mask;
        if self.pinned().contains(from) {
            to &= attacks::line(self.our_king(), from);
        }
        if let Some(ep) = self.ep_square() {
            if attacks::pawn(us, from).contains(ep)
                && self.is_pseudo_legal_move_legal(Move::new(from, ep, MoveKind::EnPassant))
            {
                to |= ep;
            }
        }
        to
    }

    /// The legal destinations of the piece on `square` (empty if it is not
    /// a piece of the side to move).
    pub fn legal_destinations(&self, square: Square) -> Bitboard {
        let mut result = Bitboard::EMPTY;
        self.for_each_piece_moves(|pm| {
            if pm.from == square {
                result = pm.to;
                true
            } else {
                false
            }
        });
        result
    }

    /// Whether the side to move has at least one legal move.
    #[inline]
    pub fn has_legal_moves(&self) -> bool {
        self.for_each_piece_moves(|_| true)
    }

    /// The number of legal moves (each promotion piece counts).
    #[inline]
    pub fn count_legal_moves(&self) -> u32 {
        let mut count = 0;
        self.for_each_piece_moves(|pm| {
            count += pm.count();
            false
        });
        count
    }

    /// Expands a [`PieceMoves`] set into moves (promotions as queen, rook,
    /// bishop, knight; castling and en passant with their kinds).
    pub fn expand_piece_moves(&self, piece_moves: PieceMoves, mut f: impl FnMut(Move)) {
        let PieceMoves { role, from, to } = piece_moves;
        for target in to {
            let m = match role {
                Role::Pawn if Some(target) == self.ep_square() && !self.board().occupied().contains(target) => {
                    Move::new(from, target, MoveKind::EnPassant)
                }
                Role::Pawn if matches!(target.rank(), Rank::First | Rank::Eighth) => {
                    for promoted in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        f(Move::promotion_to(from, target, promoted));
                    }
                    continue;
                }
                Role::King if from.distance(target) == 2 => Move::new(from, target, MoveKind::Castle),
                _ => Move::normal(from, target),
            };
            f(m);
        }
    }
}
