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
//!    7. king moves by destination, then castling king side, queen side.
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
//! "By square" always means from a1 (index 0) upwards. The order is tested
//! against 4,450 positions of the reference generator
//! (`testdata/movegen-order.tsv`).

use arrayvec::ArrayVec;

use crate::{Bitboard, Castling, Color, Move, MoveKind, Position, Rank, Role, Square, attacks};

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

#[inline(always)]
fn push(list: &mut MoveList, m: Move) {
    // Cannot overflow: see the proof on `MAX_MOVES`.
    list.push(m);
}

/// Compile-time pawn geometry of one colour.
trait Side {
    const COLOR: Color;
    /// Square index step of a pawn push.
    const UP: i32;
    /// Step of a capture towards the reference generator's "right"
    /// (north-east for White, south-west for Black).
    const UP_RIGHT: i32;
    /// Step of a capture towards the "left" (north-west / south-east).
    const UP_LEFT: i32;
    fn up(b: Bitboard) -> Bitboard;
    fn up_right(b: Bitboard) -> Bitboard;
    fn up_left(b: Bitboard) -> Bitboard;
}

struct White;
struct Black;

impl Side for White {
    const COLOR: Color = Color::White;
    const UP: i32 = 8;
    const UP_RIGHT: i32 = 9;
    const UP_LEFT: i32 = 7;
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
}

impl Side for Black {
    const COLOR: Color = Color::Black;
    const UP: i32 = -8;
    const UP_RIGHT: i32 = -9;
    const UP_LEFT: i32 = -7;
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
}

#[inline(always)]
fn back(to: Square, step: i32) -> Square {
    Square::new((to as i32 - step) as u32)
}

/// Pushes the four promotions: queen, then the knight if a knight on `to`
/// gives check (the reference engine files it with the tactical moves),
/// then rook, bishop, and the knight if it does not give check.
#[inline(always)]
fn push_promotions(list: &mut MoveList, from: Square, to: Square, their_king: Square) {
    let knight_checks = attacks::knight(to).contains(their_king);
    push(list, Move::promotion_to(from, to, Role::Queen));
    if knight_checks {
        push(list, Move::promotion_to(from, to, Role::Knight));
    }
    push(list, Move::promotion_to(from, to, Role::Rook));
    push(list, Move::promotion_to(from, to, Role::Bishop));
    if !knight_checks {
        push(list, Move::promotion_to(from, to, Role::Knight));
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
        list.clear();
        match self.side_to_move() {
            Color::White => self.generate_pseudo_legal::<White>(list),
            Color::Black => self.generate_pseudo_legal::<Black>(list),
        }
        let king = self.our_king();
        let pinned = self.pinned();
        let mut i = 0;
        while i < list.len() {
            let m = list[i];
            if (pinned.contains(m.from()) || m.from() == king || m.is_en_passant())
                && !self.is_pseudo_legal_move_legal(m)
            {
                list.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    fn generate_pseudo_legal<S: Side>(&self, list: &mut MoveList) {
        let king = self.our_king();
        let checkers = self.checkers();
        if checkers.is_empty() {
            self.generate_all::<S, false>(list, !self.us());
            for to in attacks::king(king) & !self.us() {
                push(list, Move::normal(king, to));
            }
            let occupied = self.board().occupied();
            for castling in Castling::both(S::COLOR) {
                if self.castling_rights().contains(castling.right()) && (castling.path() & occupied).is_empty() {
                    push(list, Move::new(king, castling.king_to(), MoveKind::Castle));
                }
            }
        } else {
            // King evasions, skipping squares on the line of a checking
            // slider (they stay attacked once the king steps back).
            let mut slider_lines = Bitboard::EMPTY;
            for checker in checkers - self.board().knights() - self.board().pawns() {
                slider_lines |= attacks::line(king, checker) - checkers;
            }
            for to in attacks::king(king) & !self.us() & !slider_lines {
                push(list, Move::normal(king, to));
            }
            if let Some(checker) = checkers.single_square() {
                let target = attacks::between(checker, king) | checker;
                self.generate_all::<S, true>(list, target);
            }
        }
    }

    /// Pawn, knight, bishop, rook and queen moves to `target` squares.
    #[inline(always)]
    fn generate_all<S: Side, const EVASIONS: bool>(&self, list: &mut MoveList, target: Bitboard) {
        let board = self.board();
        let us = S::COLOR;
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let occupied = ours | theirs;
        let empty = !occupied;
        let pawns = board.pawns() & ours;
        let rank7 = Bitboard::relative_rank(us, Rank::Seventh);
        let rank3 = Bitboard::relative_rank(us, Rank::Third);
        let on7 = pawns & rank7;
        let not_on7 = pawns - rank7;
        let enemies = if EVASIONS { theirs & target } else { theirs };

        let mut single = S::up(not_on7) & empty;
        let mut double = S::up(single & rank3) & empty;
        if EVASIONS {
            single &= target;
            double &= target;
        }
        for to in single {
            push(list, Move::normal(back(to, S::UP), to));
        }
        for to in double {
            push(list, Move::normal(back(to, 2 * S::UP), to));
        }

        if on7.any() {
            let their_king = self.king_of(!us);
            let mut push_targets = S::up(on7) & empty;
            if EVASIONS {
                push_targets &= target;
            }
            for to in S::up_right(on7) & enemies {
                push_promotions(list, back(to, S::UP_RIGHT), to, their_king);
            }
            for to in S::up_left(on7) & enemies {
                push_promotions(list, back(to, S::UP_LEFT), to, their_king);
            }
            for to in push_targets {
                push_promotions(list, back(to, S::UP), to, their_king);
            }
        }

        for to in S::up_right(not_on7) & enemies {
            push(list, Move::normal(back(to, S::UP_RIGHT), to));
        }
        for to in S::up_left(not_on7) & enemies {
            push(list, Move::normal(back(to, S::UP_LEFT), to));
        }
        if let Some(ep) = self.ep_square() {
            // In check, en passant can only help by capturing the checking
            // pawn or by landing on the checking line; the legality filter
            // decides the rest.
            let pushed = back(ep, S::UP);
            if !EVASIONS || target.contains(pushed) || target.contains(ep) {
                for from in not_on7 & attacks::pawn(!us, ep) {
                    push(list, Move::new(from, ep, MoveKind::EnPassant));
                }
            }
        }

        for from in board.knights() & ours {
            for to in attacks::knight(from) & target {
                push(list, Move::normal(from, to));
            }
        }
        for from in board.bishops() & ours {
            for to in attacks::bishop(from, occupied) & target {
                push(list, Move::normal(from, to));
            }
        }
        for from in board.rooks() & ours {
            for to in attacks::rook(from, occupied) & target {
                push(list, Move::normal(from, to));
            }
        }
        for from in board.queens() & ours {
            for to in attacks::queen(from, occupied) & target {
                push(list, Move::normal(from, to));
            }
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
                let castling = Castling { color: us, king_side: to > from };
                castling.king_path().into_iter().all(|sq| !board.is_attacked_by(sq, !us, board.occupied()))
            }
            _ if from == king => !board.is_attacked_by(to, !us, board.occupied() ^ from),
            _ => !self.pinned().contains(from) || attacks::aligned(from, to, king),
        }
    }
}
