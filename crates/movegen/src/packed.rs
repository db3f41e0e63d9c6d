//! [`PackedPosition`]: the identity of a position in 40 bytes, for tables
//! and search stores that hold millions of positions.
//!
//! It keeps everything that decides the future of the game (the placement,
//! side to move, castling rights, en passant square) and drops the move
//! counters, so two positions that differ only in the counters pack
//! equally. [`PackedPosition::unpack`] rebuilds the [`Position`] (counters
//! reset) without validating it again: a packed position can only be made
//! from a valid one.

use crate::{Bitboard, Board, CastlingFiles, CastlingRights, Color, File, Position, Rank, Role, Square};

/// The identity of a position (see the module docs).
///
/// ```
/// use movegen::Position;
/// let pos: Position = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 7".parse().unwrap();
/// let packed = pos.pack();
/// let back = packed.unpack();
/// assert_eq!(back.to_fen(), "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
/// assert_eq!(back.hash(), pos.hash());
/// assert_eq!(back.pack(), packed);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C)]
pub struct PackedPosition {
    /// Squares with a black piece.
    pub black: u64,
    /// Bit `i` of the role code (pawn 1, knight 2, bishop 3, rook 4,
    /// queen 5, king 6; 0 for an empty square) of every square.
    pub planes: [u64; 3],
    /// Side to move (bit 0), castling rights (bits 1-4), en passant
    /// (bit 5 set when there is a square, its file in bits 6-8: the rank
    /// follows from the side to move), the castling rooks' files and the
    /// variant (bits 9-15, [`CastlingFiles`]; 0 in standard chess).
    pub state: u16,
}

impl Position {
    /// The identity of this position (see [`PackedPosition`]).
    #[inline]
    pub fn pack(&self) -> PackedPosition {
        let board = self.board();
        let (p, n, b, r, q, k) =
            (board.pawns().0, board.knights().0, board.bishops().0, board.rooks().0, board.queens().0, board.kings().0);
        let state = self.side_to_move() as u16
            | u16::from(self.castling_rights().bits()) << 1
            | self.ep_square().map_or(0, |sq| 1 | (sq.file() as u16) << 1) << 5
            | u16::from(self.castling_files().to_bits()) << 9;
        PackedPosition { black: board.by_color(Color::Black).0, planes: [p | b | q, n | b | k, r | q | k], state }
    }
}

impl PackedPosition {
    /// The occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.planes[0] | self.planes[1] | self.planes[2])
    }

    /// The position again, with the move counters reset (halfmove clock 0,
    /// move number 1). Only ever given a value made by
    /// [`Position::pack`], so it skips validation.
    pub fn unpack(&self) -> Position {
        let (board, side_to_move, castling, files, ep_square) = self.parts();
        Position::from_trusted_parts(board, side_to_move, castling, files, ep_square)
    }

    /// The position's hash: [`Position::hash`] of [`PackedPosition::unpack`],
    /// without rebuilding the rest of the position (its checkers and pins),
    /// for a table of packed positions that moves them to new slots.
    ///
    /// ```
    /// use movegen::Position;
    /// let pos: Position = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 7".parse().unwrap();
    /// assert_eq!(pos.pack().zobrist(), pos.hash());
    /// ```
    pub fn zobrist(&self) -> u64 {
        let (board, side_to_move, castling, files, ep_square) = self.parts();
        Position::hash_of_parts(&board, side_to_move, castling, files, ep_square)
    }

    /// The board, side to move, castling rights and rooks' files, and en
    /// passant square packed.
    fn parts(&self) -> (Board, Color, CastlingRights, CastlingFiles, Option<Square>) {
        let [b0, b1, b2] = self.planes;
        let mut board = Board::empty();
        board.by_role = [
            Bitboard(b0 & !b1 & !b2),
            Bitboard(!b0 & b1 & !b2),
            Bitboard(b0 & b1 & !b2),
            Bitboard(!b0 & !b1 & b2),
            Bitboard(b0 & !b1 & b2),
            Bitboard(!b0 & b1 & b2),
        ];
        let occupied = b0 | b1 | b2;
        board.by_color = [Bitboard(occupied & !self.black), Bitboard(self.black)];
        debug_assert_eq!(board.by_role[Role::King as usize].count(), 2);
        let side_to_move = if self.state & 1 == 0 { Color::White } else { Color::Black };
        let castling = CastlingRights::from_bits_truncate((self.state >> 1) as u8 & 0xf);
        let ep = (self.state >> 5) & 0xf;
        let ep_rank = if side_to_move == Color::White { Rank::Sixth } else { Rank::Third };
        let ep_square = (ep & 1 != 0).then(|| Square::from_coords(File::new(u32::from(ep >> 1)), ep_rank));
        let files = CastlingFiles::from_bits((self.state >> 9) as u8);
        (board, side_to_move, castling, files, ep_square)
    }
}
