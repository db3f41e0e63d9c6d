//! Legal move generation into a [`MoveList`], in the reference generator's
//! exact order.
//!
//! The helpmate search tries moves in this order, and reproducing the
//! reference engine's order (Stockfish at the end of 2020, on which the
//! paper's implementation is built) keeps our search trees comparable with
//! it. The order is:
//!
//! 1. **Not in check** (pseudo-legal "non-evasions", every target not
//!    occupied by our own pieces):
//!    1. pawn single pushes (not promotions), by destination square;
//!    2. pawn double pushes, by destination;
//!    3. promotions: captures towards the "right" (towards the h-file for
//!       White, the a-file for Black), then towards the "left", then
//!       pushes; each destination in the order queen, rook, bishop, knight;
//!    4. pawn captures (not promotions): "right" captures by destination,
//!       then "left" captures;
//!    5. en passant captures, by origin square;
//!    6. knight moves, then bishop, rook and queen moves: pieces by square,
//!       and each piece's destinations by square;
//!    7. king moves by destination, then castling king side, queen side
//!       (Chess960 castling in the same place).
//! 2. **In check** ("evasions"): first the king moves (by destination),
//!    leaving out squares on the line of a checking slider; then, unless in
//!    double check, the steps 1.1-1.6 restricted to capturing the checker or
//!    blocking its line.
//! 3. The list above may contain illegal moves: king moves into attacked
//!    squares, moves of pinned pieces off their line, castling through
//!    attacked squares, illegal en passant. A single pass removes them by
//!    **swap-remove**: an illegal move is overwritten by the current last
//!    move of the list, which is then checked in its place. This is why the
//!    final order is not simply "sorted by piece".
//!
//! (The implementation decides legality while it generates, with sets: the
//! king's safe destinations once per position, a pinned piece's line
//! through the king. It pushes an illegal move as a placeholder, and the
//! swap-remove pass removes the placeholders; the result is the same.)
//!
//! "By square" always means from a1 (index 0) upwards. The order is tested
//! against 4,450 positions of the reference generator
//! (`testdata/movegen-order.tsv`).

use arrayvec::ArrayVec;

use crate::{Bitboard, Castling, CastlingRights, Color, Move, MoveKind, Position, Rank, Role, Square, attacks};

/// Capacity of a [`MoveList`]: an upper bound on the number of
/// pseudo-legal moves of *any* position, however unreachable.
///
/// Proof: every move that is not a knight move, a castling or an
/// underpromotion goes from `from` to `to` along a line with only empty
/// squares in between, so `from` is the first occupied square seen from
/// `to` in that direction; hence `(to, direction)` determines the move, and
/// there are 420 such pairs with a square in that direction (the number of
/// king moves on an empty board). Knight moves are at most the 336 knight
/// jumps of an empty board. Under-promotions add at most 3 per promotion
/// pair (8 destinations times 3 origins): 72. Castling adds 2.
/// `420 + 336 + 72 + 2 = 830`. Pushing into the list can therefore never
/// overflow, whatever FEN was given.
pub const MAX_MOVES: usize = 830;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Appends the pseudo-legal moves to a [`MoveList`], a move already known
/// to be illegal as the placeholder [`ILLEGAL`], so that the legality filter
/// ([`Pusher::finish`]) only has to look for placeholders, from the first
/// one on.
///
/// (Writing through a raw pointer without `ArrayVec`'s capacity check is
/// not worth an `unsafe` block: docs/tuning.md#move-generation.)
pub(crate) struct Pusher<'a> {
    list: &'a mut MoveList,
    /// Index of the first placeholder, `usize::MAX` if none.
    first_illegal: usize,
}

/// The placeholder of an illegal move in a list being generated: a1a1,
/// which no generated move is (a move never stays on its square).
const ILLEGAL: Move = Move::from_bits(0);

impl<'a> Pusher<'a> {
    /// Starts (or, for [`crate::StagedMoves`], goes on) appending to
    /// `list`, which holds no placeholder.
    #[inline(always)]
    pub(crate) fn new(list: &'a mut MoveList) -> Pusher<'a> {
        debug_assert!(!list.contains(&ILLEGAL));
        Pusher { list, first_illegal: usize::MAX }
    }

    /// The number of entries (moves and placeholders) pushed so far.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// The index of the first placeholder pushed so far, `usize::MAX` if
    /// none.
    #[inline(always)]
    pub(crate) fn first_illegal(&self) -> usize {
        self.first_illegal
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        // Cannot overflow: see the proof on `MAX_MOVES` (one entry per
        // pseudo-legal move).
        self.list.push(m);
    }

    /// Pushes `m` if it is legal, otherwise the placeholder.
    #[inline(always)]
    fn push_if(&mut self, m: Move, legal: bool) {
        if legal {
            self.push(m);
        } else {
            self.first_illegal = self.first_illegal.min(self.list.len());
            self.push(ILLEGAL);
        }
    }

    /// Pushes `make(to)` for every square of `targets`, the placeholder for
    /// those in `illegal`.
    #[inline(always)]
    fn push_each(&mut self, targets: Bitboard, illegal: Bitboard, make: impl Fn(Square) -> Move) {
        if (targets & illegal).is_empty() {
            for to in targets {
                self.push(make(to));
            }
        } else {
            for to in targets {
                self.push_if(make(to), !illegal.contains(to));
            }
        }
    }

    /// Removes the placeholders by swap-remove: each is overwritten by the
    /// current last entry, which is then looked at in its place.
    #[inline(always)]
    pub(crate) fn finish(self) {
        if self.first_illegal != usize::MAX {
            let moves = self.list.as_mut_slice();
            let mut len = moves.len();
            let mut i = self.first_illegal;
            while i < len {
                if moves[i] == ILLEGAL {
                    len -= 1;
                    moves[i] = moves[len];
                } else {
                    i += 1;
                }
            }
            self.list.truncate(len);
        }
    }
}

/// Compile-time pawn geometry of one colour (shared with [`legal`](crate::legal)).
pub(crate) trait Side {
    const COLOR: Color;
    /// Square index step of a pawn push.
    const UP: i32;
    /// Step of a capture towards the reference generator's "right"
    /// (north-east for White, south-west for Black).
    const UP_RIGHT: i32;
    /// Step of a capture towards the "left" (north-west / south-east).
    const UP_LEFT: i32;
    /// The relative third rank (where single pushes may continue).
    const RANK3: Bitboard;
    /// The relative seventh rank (where pawns promote from).
    const RANK7: Bitboard;
    /// The relative eighth rank (where pawns promote).
    const RANK8: Bitboard;
    fn up(b: Bitboard) -> Bitboard;
    fn up_right(b: Bitboard) -> Bitboard;
    fn up_left(b: Bitboard) -> Bitboard;
    /// The squares attacked by the opponent's pawns `b`.
    fn their_pawn_attacks(b: Bitboard) -> Bitboard;
}

pub(crate) struct White;
pub(crate) struct Black;

impl Side for White {
    const COLOR: Color = Color::White;
    const UP: i32 = 8;
    const UP_RIGHT: i32 = 9;
    const UP_LEFT: i32 = 7;
    const RANK3: Bitboard = Bitboard::rank(Rank::Third);
    const RANK7: Bitboard = Bitboard::rank(Rank::Seventh);
    const RANK8: Bitboard = Bitboard::rank(Rank::Eighth);
    #[inline(always)]
    fn up(b: Bitboard) -> Bitboard {
        b.north()
    }
    #[inline(always)]
    fn up_right(b: Bitboard) -> Bitboard {
        b.north().east()
    }
    #[inline(always)]
    fn up_left(b: Bitboard) -> Bitboard {
        b.north().west()
    }
    #[inline(always)]
    fn their_pawn_attacks(b: Bitboard) -> Bitboard {
        let down = b.south();
        down.east() | down.west()
    }
}

impl Side for Black {
    const COLOR: Color = Color::Black;
    const UP: i32 = -8;
    const UP_RIGHT: i32 = -9;
    const UP_LEFT: i32 = -7;
    const RANK3: Bitboard = Bitboard::rank(Rank::Sixth);
    const RANK7: Bitboard = Bitboard::rank(Rank::Second);
    const RANK8: Bitboard = Bitboard::rank(Rank::First);
    #[inline(always)]
    fn up(b: Bitboard) -> Bitboard {
        b.south()
    }
    #[inline(always)]
    fn up_right(b: Bitboard) -> Bitboard {
        b.south().west()
    }
    #[inline(always)]
    fn up_left(b: Bitboard) -> Bitboard {
        b.south().east()
    }
    #[inline(always)]
    fn their_pawn_attacks(b: Bitboard) -> Bitboard {
        let up = b.north();
        up.east() | up.west()
    }
}

#[inline(always)]
fn back(to: Square, step: i32) -> Square {
    Square::new((to as i32 - step) as u32)
}

/// Pushes the four promotions: queen, then the knight if a knight on `to`
/// gives check (the reference engine files it with the tactical moves),
/// then rook, bishop, and the knight if it does not give check. Illegal
/// ones (of a pinned pawn) as placeholders.
#[inline(always)]
fn push_promotions(list: &mut Pusher<'_>, from: Square, to: Square, their_king: Square, legal: bool) {
    let knight_checks = attacks::knight(to).contains(their_king);
    list.push_if(Move::promotion_to(from, to, Role::Queen), legal);
    if knight_checks {
        list.push_if(Move::promotion_to(from, to, Role::Knight), legal);
    }
    list.push_if(Move::promotion_to(from, to, Role::Rook), legal);
    list.push_if(Move::promotion_to(from, to, Role::Bishop), legal);
    if !knight_checks {
        list.push_if(Move::promotion_to(from, to, Role::Knight), legal);
    }
}

impl Position {
    /// All legal moves, in the reference order (see the module docs).
    ///
    /// ```
    /// use movegen::Position;
    /// let moves = Position::start().legal_moves();
    /// let uci: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    /// assert_eq!(uci[..3], ["a2a3", "b2b3", "c2c3"]);
    /// assert_eq!(uci[16..], ["b1a3", "b1c3", "g1f3", "g1h3"]);
    /// ```
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal_moves(&mut list);
        list
    }

    /// Fills `list` (cleared first) with the legal moves, in the reference order.
    pub fn generate_legal_moves(&self, list: &mut MoveList) {
        match self.side_to_move() {
            Color::White => self.generate_legal::<White>(list),
            Color::Black => self.generate_legal::<Black>(list),
        }
    }

    /// Fills `list` (cleared first) with the legal moves of the pieces of
    /// `role` of the side to move (castling counts as the king's): the
    /// moves of [`Position::generate_legal_moves`] whose piece has that
    /// role, as a set (not in the reference order). For a caller that needs
    /// the moves of one piece kind only, such as the disambiguation of a
    /// SAN move: only that role's part is generated, with the same
    /// functions and the same legality filter as the whole list.
    ///
    /// ```
    /// use movegen::{Position, Role};
    /// let pos = Position::start();
    /// let mut knights = movegen::MoveList::new();
    /// pos.generate_legal_moves_of(Role::Knight, &mut knights);
    /// assert_eq!(knights.len(), 4);
    /// ```
    pub fn generate_legal_moves_of(&self, role: Role, list: &mut MoveList) {
        match self.side_to_move() {
            Color::White => self.generate_legal_of::<White>(role, list),
            Color::Black => self.generate_legal_of::<Black>(role, list),
        }
    }

    /// [`Position::generate_legal_moves_of`]: the role's part of
    /// [`Position::generate_legal`]'s pseudo-legal moves (in check, of its
    /// evasions), then the same filter.
    fn generate_legal_of<S: Side>(&self, role: Role, list: &mut MoveList) {
        list.clear();
        let mut pusher = Pusher::new(list);
        let target = if self.is_check() { self.evasion_target() } else { Some(!self.us()) };
        match (role, target) {
            (Role::King, _) if self.is_check() => self.generate_king_evasions::<S>(&mut pusher),
            (Role::King, _) => self.generate_king_and_castling::<S>(&mut pusher),
            // Double check: only the king moves.
            (_, None) => {}
            (Role::Pawn, Some(target)) if self.is_check() => self.generate_pawns::<S, true>(&mut pusher, target),
            (Role::Pawn, Some(target)) => self.generate_pawns::<S, false>(&mut pusher, target),
            (_, Some(target)) => self.generate_piece_moves(&mut pusher, target, role),
        }
        pusher.finish();
    }

    /// The pseudo-legal moves in the reference order, then the swap-remove
    /// legality filter (see the module docs).
    ///
    /// Only moves of the king, of pinned pieces, castling and en passant
    /// captures can be illegal. Their legality is decided while generating,
    /// with sets: the king's legal destinations are computed once per node
    /// (not one attack test per king move), a pinned piece's legal
    /// destinations are its line through the king. An illegal move is
    /// pushed as a placeholder, so the filter is the plain swap-remove pass
    /// with "is a placeholder" as the test, started at the first one.
    #[inline(always)]
    fn generate_legal<S: Side>(&self, list: &mut MoveList) {
        list.clear();
        let mut pusher = Pusher::new(list);
        self.generate_pseudo_legal::<S>(&mut pusher);
        pusher.finish();
    }

    /// Pushes the pseudo-legal moves, illegal ones as placeholders.
    #[inline(always)]
    fn generate_pseudo_legal<S: Side>(&self, list: &mut Pusher<'_>) {
        if self.checkers().is_empty() {
            self.generate_all::<S, false>(list, !self.us());
            self.generate_king_and_castling::<S>(list);
        } else {
            self.generate_king_evasions::<S>(list);
            if let Some(target) = self.evasion_target() {
                self.generate_all::<S, true>(list, target);
            }
        }
    }

    /// The king's moves in check, skipping squares on the line of a
    /// checking slider (they stay attacked once the king steps back).
    #[inline(always)]
    fn generate_king_evasions<S: Side>(&self, list: &mut Pusher<'_>) {
        let king = self.our_king();
        let checkers = self.checkers();
        let mut slider_lines = Bitboard::EMPTY;
        for checker in checkers - self.board().knights() - self.board().pawns() {
            slider_lines |= attacks::line(king, checker) - checkers;
        }
        let targets = attacks::king(king) & !self.us() & !slider_lines;
        if targets.any() {
            let illegal = targets - self.king_safe_targets::<S>();
            list.push_each(targets, illegal, |to| Move::normal(king, to));
        }
    }

    /// In check by one piece, the squares the other pieces' evasions go to
    /// (the checker and the squares between it and the king); `None` in a
    /// double check (only the king can move).
    #[inline(always)]
    fn evasion_target(&self) -> Option<Bitboard> {
        let checker = self.checkers().single_square()?;
        Some(attacks::between(checker, self.our_king()) | checker)
    }

    /// The king's moves and the castlings of a position not in check.
    #[inline(always)]
    pub(crate) fn generate_king_and_castling<S: Side>(&self, list: &mut Pusher<'_>) {
        let king = self.our_king();
        let targets = attacks::king(king) & !self.us();
        if targets.any() {
            let illegal = targets - self.king_safe_targets::<S>();
            list.push_each(targets, illegal, |to| Move::normal(king, to));
        }
        let rights = self.castling_rights();
        if rights.intersects(CastlingRights::of(S::COLOR)) {
            let occupied = self.board().occupied();
            for castling in Castling::both(S::COLOR) {
                if rights.contains(castling.right()) {
                    let path = self.held_castling_path(castling);
                    if (path.empty & occupied).is_empty() {
                        list.push_if(Move::new(king, path.king_to, MoveKind::Castle), self.castling_is_safe(&path));
                    }
                }
            }
        }
    }

    /// Pawn, knight, bishop, rook and queen moves to `target` squares.
    #[inline(always)]
    fn generate_all<S: Side, const EVASIONS: bool>(&self, list: &mut Pusher<'_>, target: Bitboard) {
        self.generate_pawns::<S, EVASIONS>(list, target);
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            self.generate_piece_moves(list, target, role);
        }
    }

    /// Pawn moves to `target` squares (promotions and en passant included).
    #[inline(always)]
    pub(crate) fn generate_pawns<S: Side, const EVASIONS: bool>(&self, list: &mut Pusher<'_>, target: Bitboard) {
        let board = self.board();
        let us = S::COLOR;
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let occupied = ours | theirs;
        let empty = !occupied;
        let king = self.our_king();
        let pinned = self.pinned();
        let pawns = board.pawns() & ours;
        let on7 = pawns & S::RANK7;
        let not_on7 = pawns - S::RANK7;
        let enemies = if EVASIONS { theirs & target } else { theirs };

        // Destinations of illegal pawn moves, by kind of move (for one kind
        // a destination has one origin): those of pinned pawns leaving
        // their line through the king.
        let mut illegal_push = Bitboard::EMPTY;
        let mut illegal_right = Bitboard::EMPTY;
        let mut illegal_left = Bitboard::EMPTY;
        for from in pawns & pinned {
            let pawn = Bitboard::from(from);
            let line = attacks::line(king, from);
            illegal_push |= S::up(pawn) - line;
            illegal_right |= S::up_right(pawn) - line;
            illegal_left |= S::up_left(pawn) - line;
        }

        let mut single = S::up(not_on7) & empty;
        let mut double = S::up(single & S::RANK3) & empty;
        if EVASIONS {
            single &= target;
            double &= target;
        }
        list.push_each(single, illegal_push, |to| Move::normal(back(to, S::UP), to));
        list.push_each(double, S::up(illegal_push), |to| Move::normal(back(to, 2 * S::UP), to));

        if on7.any() {
            let their_king = self.king_of(!us);
            let mut push_targets = S::up(on7) & empty;
            if EVASIONS {
                push_targets &= target;
            }
            for to in S::up_right(on7) & enemies {
                push_promotions(list, back(to, S::UP_RIGHT), to, their_king, !illegal_right.contains(to));
            }
            for to in S::up_left(on7) & enemies {
                push_promotions(list, back(to, S::UP_LEFT), to, their_king, !illegal_left.contains(to));
            }
            for to in push_targets {
                push_promotions(list, back(to, S::UP), to, their_king, !illegal_push.contains(to));
            }
        }

        list.push_each(S::up_right(not_on7) & enemies, illegal_right, |to| Move::normal(back(to, S::UP_RIGHT), to));
        list.push_each(S::up_left(not_on7) & enemies, illegal_left, |to| Move::normal(back(to, S::UP_LEFT), to));
        if let Some(ep) = self.ep_square() {
            // In check, en passant can only help by capturing the checking
            // pawn or by landing on the checking line; the exact test
            // decides.
            let pushed = back(ep, S::UP);
            if !EVASIONS || target.contains(pushed) || target.contains(ep) {
                for from in not_on7 & attacks::pawn(!us, ep) {
                    let m = Move::new(from, ep, MoveKind::EnPassant);
                    list.push_if(m, self.is_pseudo_legal_move_legal(m));
                }
            }
        }
    }

    /// The moves of the pieces of `role` (knight, bishop, rook or queen) to
    /// `target` squares, pieces by square.
    #[inline(always)]
    pub(crate) fn generate_piece_moves(&self, list: &mut Pusher<'_>, target: Bitboard, role: Role) {
        let board = self.board();
        let king = self.our_king();
        let pinned = self.pinned();
        let occupied = board.occupied();
        let pieces = board.by_role(role) & self.us();
        if role == Role::Knight {
            // A pinned knight can never move.
            for from in pieces {
                let illegal = if pinned.contains(from) { Bitboard::FULL } else { Bitboard::EMPTY };
                list.push_each(attacks::knight(from) & target, illegal, |to| Move::normal(from, to));
            }
            return;
        }
        for from in pieces {
            let reach = match role {
                Role::Bishop => attacks::bishop(from, occupied),
                Role::Rook => attacks::rook(from, occupied),
                _ => attacks::queen(from, occupied),
            };
            // A pinned piece may only move along its line through the king.
            let illegal = if pinned.contains(from) { !attacks::line(king, from) } else { Bitboard::EMPTY };
            list.push_each(reach & target, illegal, |to| Move::normal(from, to));
        }
    }

    /// Whether a pseudo-legal move (one the generator above produced) is
    /// legal: it does not leave the own king attacked.
    #[inline]
    pub(crate) fn is_pseudo_legal_move_legal(&self, m: Move) -> bool {
        let board = self.board();
        let us = self.side_to_move();
        let theirs = board.by_color(!us);
        let king = self.our_king();
        let from = m.from();
        let to = m.to();
        match m.kind() {
            MoveKind::EnPassant => {
                // Rare enough to answer exactly: recompute every attack on
                // the king with the capturing and captured pawns moved.
                let captured = Square::new((to as u32 & 7) | (from as u32 & 56));
                let occupied = (board.occupied() ^ from ^ captured) | to;
                (board.attackers_to(king, occupied) & theirs & !Bitboard::from(captured)).is_empty()
            }
            MoveKind::Castle => {
                let castling = Castling::of_destination(us, to);
                self.castling_is_safe(&self.held_castling_path(castling))
            }
            _ if from == king => !board.is_attacked_by(to, !us, board.occupied() ^ from),
            _ => !self.pinned().contains(from) || attacks::aligned(from, to, king),
        }
    }
}
