//! Legal moves as sets: for every piece, the bitboard of squares it can
//! legally move to.
//!
//! This is the view the mobility analysis and counting want ("where can this
//! piece go"), and it is faster than building a move list when only the
//! number of moves matters (bulk-counting perft). The ordered
//! [`MoveList`](crate::MoveList) view lives in [`movegen`](crate::movegen);
//! the two are tested against each other.

use crate::movegen::{Black, Side, White};
use crate::{Bitboard, Castling, CastlingRights, Color, Move, MoveKind, Position, Rank, Role, Square, attacks};

/// The legal moves of one piece, as a set of destinations.
///
/// A pawn destination on the last rank stands for four moves (one per
/// promotion piece); castling is a king destination two files away in
/// standard chess, and the castling rook's square in Chess960 (see
/// [`CastlingFiles`](crate::CastlingFiles)); a pawn destination equal to the
/// en passant square is an en passant capture.
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
    /// move that has at least one legal move: the king first, then the
    /// other pieces except pawns by square, then the pawns by square.
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
        let check_mask = self.check_mask();
        let pinned = self.pinned();
        let targets = !ours & check_mask;
        for from in ours - board.kings() - board.pawns() - (board.knights() & pinned) {
            // Branch-free role of the piece (see `Board::role_index_at`).
            let (role, reach) = match board.role_index_at(from) {
                1 => (Role::Knight, attacks::knight(from)),
                2 => (Role::Bishop, attacks::bishop(from, occupied)),
                3 => (Role::Rook, attacks::rook(from, occupied)),
                _ => (Role::Queen, attacks::queen(from, occupied)),
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
        match self.side_to_move() {
            Color::White => self.king_safe_targets::<White>() | self.castling_destinations::<White>(),
            Color::Black => self.king_safe_targets::<Black>() | self.castling_destinations::<Black>(),
        }
    }

    /// The king's legal castlings as destinations: the king's (standard
    /// chess) or the rook's square (Chess960, where the king's destination
    /// may be a square it can step to, or its own).
    #[inline(always)]
    fn castling_destinations<S: Side>(&self) -> Bitboard {
        let mut to = Bitboard::EMPTY;
        if self.checkers().is_empty() && self.castling_rights().intersects(CastlingRights::of(S::COLOR)) {
            for castling in Castling::both(S::COLOR) {
                if self.castling_rights().contains(castling.right()) {
                    let path = self.held_castling_path(castling);
                    if self.castling_is_legal(&path) {
                        to |= if self.is_chess960() { path.rook } else { path.king_to };
                    }
                }
            }
        }
        to
    }

    /// The squares the king of `color` could step to were it to move:
    /// adjacent squares not occupied by its own pieces and not attacked
    /// once the king has left its square (so that it cannot step back along
    /// a checking ray). For the side to move, its legal king moves other
    /// than castling; for the other side, its king's free flight squares.
    ///
    /// ```
    /// use movegen::{Color, Position, Square};
    /// // Black's king on h8: g8 and g7 are guarded by the queen on g1,
    /// // h7 is its own pawn's square.
    /// let pos: Position = "7k/7p/8/8/8/8/8/K5Q1 w - - 0 1".parse().unwrap();
    /// assert!(pos.king_escapes(Color::Black).is_empty());
    /// assert!(pos.king_escapes(Color::White).contains(Square::B2));
    /// ```
    #[inline]
    pub fn king_escapes(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.king_safe_targets::<White>(),
            Color::Black => self.king_safe_targets::<Black>(),
        }
    }

    /// [`Position::king_escapes`] of the side `S` (in move generation, the
    /// side to move).
    ///
    /// Computed for all the squares at once: the leapers' attacks by set
    /// operations, and each enemy slider's attacks only if one of its empty
    /// board rays meets a candidate square (in endgames usually none does).
    #[inline(always)]
    pub(crate) fn king_safe_targets<S: Side>(&self) -> Bitboard {
        let board = self.board();
        let ours = board.by_color(S::COLOR);
        let theirs = board.by_color(!S::COLOR);
        let king = self.king_of(S::COLOR);
        let mut targets = attacks::king(king) - ours;
        if targets.is_empty() {
            return targets;
        }
        targets -= S::their_pawn_attacks(board.pawns() & theirs) | attacks::king(self.king_of(!S::COLOR));
        for knight in board.knights() & theirs {
            targets -= attacks::knight(knight);
        }
        let occupied = board.occupied() ^ king;
        for slider in board.rooks_and_queens() & theirs {
            if (attacks::rook_rays(slider) & targets).any() {
                targets -= attacks::rook(slider, occupied);
            }
        }
        for slider in board.bishops_and_queens() & theirs {
            if (attacks::bishop_rays(slider) & targets).any() {
                targets -= attacks::bishop(slider, occupied);
            }
        }
        targets
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
        match self.side_to_move() {
            Color::White => self.has_legal::<White>(),
            Color::Black => self.has_legal::<Black>(),
        }
    }

    /// [`Position::has_legal_moves`] for the side `S`, cheapest tests
    /// first: the unpinned pawns as sets, the unpinned pieces one by one,
    /// the king, and only then pinned pieces, en passant and castling. A
    /// standard castling needs no test (when it is legal, so is the king's
    /// step to the square it crosses), but a Chess960 one may be the only
    /// move of its king and rook (`K f1, R g1` boxed in: they swap; `K g1,
    /// R h1`: the king stays), so castling is tested last.
    #[inline(always)]
    fn has_legal<S: Side>(&self) -> bool {
        let board = self.board();
        let ours = board.by_color(S::COLOR);
        let theirs = board.by_color(!S::COLOR);
        let occupied = ours | theirs;
        let king = self.our_king();
        let checkers = self.checkers();
        if checkers.more_than_one() {
            return self.king_safe_targets::<S>().any();
        }
        let check_mask = self.check_mask();
        let targets = check_mask - ours;
        let pinned = self.pinned();
        let pawns = board.pawns() & ours;
        let free_pawns = pawns - pinned;
        let empty = !occupied;
        if (pawn_reach::<S>(free_pawns, empty, theirs) & check_mask).any() {
            return true;
        }
        let free = ours - pinned;
        for from in board.knights() & free {
            if (attacks::knight(from) & targets).any() {
                return true;
            }
        }
        for from in board.bishops_and_queens() & free {
            if (attacks::bishop(from, occupied) & targets).any() {
                return true;
            }
        }
        for from in board.rooks_and_queens() & free {
            if (attacks::rook(from, occupied) & targets).any() {
                return true;
            }
        }
        if self.king_safe_targets::<S>().any() {
            return true;
        }
        for from in pinned - board.knights() {
            let line = attacks::line(king, from);
            let to = match board.role_index_at(from) {
                0 => pawn_reach::<S>(Bitboard::from(from), empty, theirs),
                2 => attacks::bishop(from, occupied),
                3 => attacks::rook(from, occupied),
                _ => attacks::queen(from, occupied),
            };
            if (to & targets & line).any() {
                return true;
            }
        }
        self.legal_en_passants::<S>(pawns) > 0 || self.castling_destinations::<S>().any()
    }

    /// The number of legal moves (each promotion piece counts).
    #[inline]
    pub fn count_legal_moves(&self) -> u32 {
        match self.side_to_move() {
            Color::White => self.count_legal::<White>(),
            Color::Black => self.count_legal::<Black>(),
        }
    }

    /// [`Position::count_legal_moves`] for the side `S`: the pieces by
    /// role, unpinned and pinned ones apart, and the unpinned pawns as
    /// sets (pushes and captures of all of them at once, two population
    /// counts in all), which matters because the portable build has no
    /// population count instruction.
    #[inline(always)]
    fn count_legal<S: Side>(&self) -> u32 {
        let board = self.board();
        let ours = board.by_color(S::COLOR);
        let theirs = board.by_color(!S::COLOR);
        let occupied = ours | theirs;
        let king = self.our_king();
        let checkers = self.checkers();
        let mut count = (self.king_safe_targets::<S>() | self.castling_destinations::<S>()).count();
        if checkers.more_than_one() {
            return count;
        }
        let check_mask = self.check_mask();
        let targets = check_mask - ours;
        let pinned = self.pinned();
        let free = ours - pinned;
        for from in board.knights() & free {
            count += (attacks::knight(from) & targets).count();
        }
        for from in board.bishops_and_queens() & free {
            count += (attacks::bishop(from, occupied) & targets).count();
        }
        for from in board.rooks_and_queens() & free {
            count += (attacks::rook(from, occupied) & targets).count();
        }

        let pawns = board.pawns() & ours;
        let empty = !occupied;
        let free_pawns = pawns - pinned;
        let single = S::up(free_pawns) & empty;
        let double = S::up(single & S::RANK3) & empty & check_mask;
        let single = single & check_mask;
        let right = S::up_right(free_pawns) & theirs & check_mask;
        let left = S::up_left(free_pawns) & theirs & check_mask;
        // Pushes land on empty squares and captures on enemy pieces, so
        // `single`, `double` and `right` are disjoint.
        count += (single | double | right).count() + left.count();
        if (free_pawns & S::RANK7).any() {
            // Each promotion is four moves: three more per destination.
            count += 3 * ((single & S::RANK8).count() + (right & S::RANK8).count() + (left & S::RANK8).count());
        }

        if pinned.any() {
            for from in pinned & board.bishops_and_queens() {
                count += (attacks::bishop(from, occupied) & targets & attacks::line(king, from)).count();
            }
            for from in pinned & board.rooks_and_queens() {
                count += (attacks::rook(from, occupied) & targets & attacks::line(king, from)).count();
            }
            for from in pinned & pawns {
                let pawn = Bitboard::from(from);
                let to = pawn_reach::<S>(pawn, empty, theirs) & check_mask & attacks::line(king, from);
                count += if (pawn & S::RANK7).any() { 4 * to.count() } else { to.count() };
            }
        }
        count + self.legal_en_passants::<S>(pawns)
    }

    /// Squares a move other than the king's must land on: the checker and
    /// the squares between it and the king in single check, every square
    /// otherwise (callers handle double check first).
    #[inline(always)]
    fn check_mask(&self) -> Bitboard {
        match self.checkers().single_square() {
            Some(checker) => attacks::between(self.our_king(), checker) | checker,
            None => Bitboard::FULL,
        }
    }

    /// How many of `pawns` (of the side to move, `S`) can capture en
    /// passant legally.
    #[inline(always)]
    fn legal_en_passants<S: Side>(&self, pawns: Bitboard) -> u32 {
        let Some(ep) = self.ep_square() else { return 0 };
        (pawns & attacks::pawn(!S::COLOR, ep))
            .into_iter()
            .filter(|&from| self.is_pseudo_legal_move_legal(Move::new(from, ep, MoveKind::EnPassant)))
            .count() as u32
    }

    /// Expands a [`PieceMoves`] set into moves (promotions as queen, rook,
    /// bishop, knight; castling and en passant with their kinds).
    pub fn expand_piece_moves(&self, piece_moves: PieceMoves, f: impl FnMut(Move)) {
        if self.is_chess960() {
            self.expand_piece_moves_variant::<true>(piece_moves, f);
        } else {
            self.expand_piece_moves_variant::<false>(piece_moves, f);
        }
    }

    /// [`Position::expand_piece_moves`] with the variant known at compile
    /// time (`CHESS960` must be [`Position::is_chess960`]): a castling is a
    /// king destination two files away in standard chess, one of the own
    /// rooks' squares in Chess960.
    #[inline(always)]
    pub(crate) fn expand_piece_moves_variant<const CHESS960: bool>(
        &self,
        piece_moves: PieceMoves,
        mut f: impl FnMut(Move),
    ) {
        debug_assert_eq!(CHESS960, self.is_chess960());
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
                Role::King if !CHESS960 && from.distance(target) == 2 => Move::new(from, target, MoveKind::Castle),
                Role::King if CHESS960 && self.us().contains(target) => Move::new(
                    from,
                    Castling { color: self.side_to_move(), king_side: target > from }.king_to(),
                    MoveKind::Castle,
                ),
                _ => Move::normal(from, target),
            };
            f(m);
        }
    }
}

/// Where the pawns of `S` in `pawns` can go, ignoring pins and checks:
/// single and double pushes onto empty squares, captures onto `theirs`.
#[inline(always)]
fn pawn_reach<S: Side>(pawns: Bitboard, empty: Bitboard, theirs: Bitboard) -> Bitboard {
    let single = S::up(pawns) & empty;
    let double = S::up(single & S::RANK3) & empty;
    single | double | ((S::up_right(pawns) | S::up_left(pawns)) & theirs)
}
