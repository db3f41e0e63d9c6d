//! [`Board`]: where the pieces stand, as one bitboard per role and per colour.

use core::fmt;

use crate::{Bitboard, Color, File, Piece, Rank, Role, Square, attacks};

/// Piece placement: six role bitboards and two colour bitboards.
///
/// A `Board` says nothing about whose turn it is or whether the placement is
/// legal; [`Position`](crate::Position) adds that.
///
/// ```
/// use movegen::{Board, Color, Piece, Role, Square};
/// let board = Board::start();
/// assert_eq!(board.piece_at(Square::E1), Some(Piece::new(Color::White, Role::King)));
/// assert_eq!(board.occupied().count(), 32);
/// assert_eq!(board.board_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
}

impl Board {
    /// The board with no pieces.
    pub const fn empty() -> Board {
        Board { by_role: [Bitboard::EMPTY; 6], by_color: [Bitboard::EMPTY; 2] }
    }

    /// The starting placement.
    pub const fn start() -> Board {
        Board {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// All occupied squares.
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }

    /// The squares occupied by `color`.
    #[inline(always)]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares occupied by pieces of `role` (both colours).
    #[inline(always)]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// The squares occupied by `piece`.
    #[inline(always)]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_role[piece.role as usize].0 & self.by_color[piece.color as usize].0)
    }

    /// The squares occupied by pieces of `color` and `role`.
    #[inline(always)]
    pub const fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_piece(Piece::new(color, role))
    }

    /// Pawns of both colours.
    #[inline(always)]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role[Role::Pawn as usize]
    }

    /// Knights of both colours.
    #[inline(always)]
    pub const fn knights(&self) -> Bitboard {
        self.by_role[Role::Knight as usize]
    }

    /// Bishops of both colours.
    #[inline(always)]
    pub const fn bishops(&self) -> Bitboard {
        self.by_role[Role::Bishop as usize]
    }

    /// Rooks of both colours.
    #[inline(always)]
    pub const fn rooks(&self) -> Bitboard {
        self.by_role[Role::Rook as usize]
    }

    /// Queens of both colours.
    #[inline(always)]
    pub const fn queens(&self) -> Bitboard {
        self.by_role[Role::Queen as usize]
    }

    /// Kings of both colours.
    #[inline(always)]
    pub const fn kings(&self) -> Bitboard {
        self.by_role[Role::King as usize]
    }

    /// Rooks and queens (pieces that slide along ranks and files).
    #[inline(always)]
    pub const fn rooks_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[Role::Rook as usize].0 | self.by_role[Role::Queen as usize].0)
    }

    /// Bishops and queens (pieces that slide along diagonals).
    #[inline(always)]
    pub const fn bishops_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[Role::Bishop as usize].0 | self.by_role[Role::Queen as usize].0)
    }

    /// The square of `color`'s king: the lowest one if there are several,
    /// `None` if there is none.
    #[inline(always)]
    pub const fn king_of(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// The colour of the piece on `square`, if any.
    #[inline(always)]
    pub const fn color_at(&self, square: Square) -> Option<Color> {
        if self.by_color[0].contains(square) {
            Some(Color::White)
        } else if self.by_color[1].contains(square) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `square`, if any.
    #[inline(always)]
    pub const fn role_at(&self, square: Square) -> Option<Role> {
        if !self.occupied().contains(square) {
            None
        } else if self.by_role[0].contains(square) {
            Some(Role::Pawn)
        } else if self.by_role[1].contains(square) {
            Some(Role::Knight)
        } else if self.by_role[2].contains(square) {
            Some(Role::Bishop)
        } else if self.by_role[3].contains(square) {
            Some(Role::Rook)
        } else if self.by_role[4].contains(square) {
            Some(Role::Queen)
        } else {
            Some(Role::King)
        }
    }

    /// The role index (`Role as usize`) of the piece on `square`, computed
    /// without branches; 0 (a pawn) for an empty square, and 6 or 7 only on
    /// a board corrupted into two roles on the square.
    ///
    /// The index has bit 0 set for knights, rooks and kings, bit 1 for
    /// bishops and rooks, bit 2 for queens and kings, so three bit tests
    /// give it (`role_at` tests up to six bitboards in a chain of
    /// branches, which mispredicts when the roles are random, as for
    /// captured pieces).
    #[inline(always)]
    pub(crate) const fn role_index_at(&self, square: Square) -> usize {
        let r = &self.by_role;
        let s = square as u32;
        let bit0 = ((r[1].0 | r[3].0 | r[5].0) >> s) & 1;
        let bit1 = ((r[2].0 | r[3].0) >> s) & 1;
        let bit2 = ((r[4].0 | r[5].0) >> s) & 1;
        (bit0 | bit1 << 1 | bit2 << 2) as usize
    }

    /// The piece on `square`, if any.
    #[inline]
    pub const fn piece_at(&self, square: Square) -> Option<Piece> {
        match (self.color_at(square), self.role_at(square)) {
            (Some(color), Some(role)) => Some(Piece::new(color, role)),
            _ => None,
        }
    }

    /// Puts `piece` on `square`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, square: Square, piece: Piece) {
        self.remove_piece_at(square);
        self.toggle(piece, square);
    }

    /// Removes and returns the piece on `square`, if any.
    pub fn remove_piece_at(&mut self, square: Square) -> Option<Piece> {
        let piece = self.piece_at(square)?;
        self.toggle(piece, square);
        Some(piece)
    }

    /// Flips the presence of `piece` on `square`: the primitive of every
    /// board update. The caller keeps the board consistent (one piece per
    /// square): toggling a piece onto an occupied square corrupts it.
    #[inline(always)]
    pub fn toggle(&mut self, piece: Piece, square: Square) {
        let bit = Bitboard::from_square(square);
        self.by_role[piece.role as usize] ^= bit;
        self.by_color[piece.color as usize] ^= bit;
    }

    /// Every piece of either colour that attacks `square`, with `occupied`
    /// as the blockers for sliding pieces.
    #[inline]
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        (attacks::pawn(Color::White, square) & self.pieces(Color::Black, Role::Pawn))
            | (attacks::pawn(Color::Black, square) & self.pieces(Color::White, Role::Pawn))
            | (attacks::knight(square) & self.knights())
            | (attacks::king(square) & self.kings())
            | (attacks::bishop(square, occupied) & self.bishops_and_queens())
            | (attacks::rook(square, occupied) & self.rooks_and_queens())
    }

    /// Whether some piece of `attacker` attacks `square` (blockers `occupied`).
    #[inline]
    pub fn is_attacked_by(&self, square: Square, attacker: Color, occupied: Bitboard) -> bool {
        let theirs = self.by_color(attacker);
        (attacks::pawn(!attacker, square) & self.pawns() & theirs).any()
            || (attacks::knight(square) & self.knights() & theirs).any()
            || (attacks::king(square) & self.kings() & theirs).any()
            || (attacks::bishop(square, occupied) & self.bishops_and_queens() & theirs).any()
            || (attacks::rook(square, occupied) & self.rooks_and_queens() & theirs).any()
    }

    /// All pieces with their squares, from a1 upwards.
    pub fn pieces_iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied().into_iter().filter_map(move |square| self.piece_at(square).map(|piece| (square, piece)))
    }

    /// The piece-placement field of FEN (rank 8 first).
    pub fn board_fen(&self) -> String {
        let mut fen = String::with_capacity(72);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if *rank != Rank::First {
                fen.push('/');
            }
        }
        fen
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.board_fen())
    }
}

impl fmt::Display for Board {
    /// Draws the board as an 8x8 grid of FEN letters (`.` for empty), rank 8 first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = self.piece_at(Square::from_coords(file, *rank)).map_or('.', Piece::char);
                write!(f, "{c}{}", if file == File::H { '\n' } else { ' ' })?;
            }
        }
        Ok(())
    }
}
