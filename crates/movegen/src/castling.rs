//! [`CastlingRights`]: which castlings remain available (standard chess).

use core::fmt;

use crate::{Bitboard, Color, Square};

bitflags::bitflags! {
    /// The four castling rights of standard chess.
    ///
    /// A right only says the king and that rook have not moved; whether
    /// castling is *legal* now also depends on empty and unattacked squares.
    ///
    /// ```
    /// use movegen::CastlingRights;
    /// let rights = CastlingRights::from_fen("Kq").unwrap();
    /// assert!(rights.contains(CastlingRights::WHITE_KING_SIDE | CastlingRights::BLACK_QUEEN_SIDE));
    /// assert_eq!(rights.to_fen(), "Kq");
    /// assert_eq!(CastlingRights::empty().to_fen(), "-");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub struct CastlingRights: u8 {
        /// White may castle king side (O-O, e1g1).
        const WHITE_KING_SIDE = 1;
        /// White may castle queen side (O-O-O, e1c1).
        const WHITE_QUEEN_SIDE = 2;
        /// Black may castle king side (e8g8).
        const BLACK_KING_SIDE = 4;
        /// Black may castle queen side (e8c8).
        const BLACK_QUEEN_SIDE = 8;
    }
}

/// One castling: a colour and a side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    /// Who castles.
    pub color: Color,
    /// `true` for king side (O-O), `false` for queen side (O-O-O).
    pub king_side: bool,
}

impl Castling {
    /// The four castlings in the order the move generator tries them for
    /// one colour: king side first, then queen side.
    pub const fn both(color: Color) -> [Castling; 2] {
        [Castling { color, king_side: true }, Castling { color, king_side: false }]
    }

    /// The right that allows this castling.
    pub const fn right(self) -> CastlingRights {
        match (self.color, self.king_side) {
            (Color::White, true) => CastlingRights::WHITE_KING_SIDE,
            (Color::White, false) => CastlingRights::WHITE_QUEEN_SIDE,
            (Color::Black, true) => CastlingRights::BLACK_KING_SIDE,
            (Color::Black, false) => CastlingRights::BLACK_QUEEN_SIDE,
        }
    }

    /// The king's home square (e1 or e8).
    pub const fn king_from(self) -> Square {
        Square::E1.relative_to(self.color)
    }

    /// The king's destination (g1, c1, g8 or c8).
    pub const fn king_to(self) -> Square {
        if self.king_side { Square::G1.relative_to(self.color) } else { Square::C1.relative_to(self.color) }
    }

    /// The rook's home square (h1, a1, h8 or a8).
    pub const fn rook_from(self) -> Square {
        if self.king_side { Square::H1.relative_to(self.color) } else { Square::A1.relative_to(self.color) }
    }

    /// The rook's destination (f1, d1, f8 or d8).
    pub const fn rook_to(self) -> Square {
        if self.king_side { Square::F1.relative_to(self.color) } else { Square::D1.relative_to(self.color) }
    }

    /// The squares that must be empty: those between king and rook.
    pub fn path(self) -> Bitboard {
        Bitboard::between(self.king_from(), self.rook_from())
    }

    /// The squares the king passes through, including its destination but
    /// not its origin; none may be attacked.
    pub fn king_path(self) -> Bitboard {
        Bitboard::between(self.king_from(), self.king_to()) | self.king_to()
    }
}

/// For every square, the rights lost when a piece moves from or to it.
static RIGHTS_LOST: [CastlingRights; 64] = {
    let mut table = [CastlingRights::empty(); 64];
    table[Square::E1 as usize] = CastlingRights::WHITE_KING_SIDE.union(CastlingRights::WHITE_QUEEN_SIDE);
    table[Square::H1 as usize] = CastlingRights::WHITE_KING_SIDE;
    table[Square::A1 as usize] = CastlingRights::WHITE_QUEEN_SIDE;
    table[Square::E8 as usize] = CastlingRights::BLACK_KING_SIDE.union(CastlingRights::BLACK_QUEEN_SIDE);
    table[Square::H8 as usize] = CastlingRights::BLACK_KING_SIDE;
    table[Square::A8 as usize] = CastlingRights::BLACK_QUEEN_SIDE;
    table
};

impl CastlingRights {
    /// The rights lost when a piece moves from or to `square` (the king or
    /// a rook leaves home, or a rook is captured at home).
    #[inline(always)]
    pub fn lost_by_touching(square: Square) -> CastlingRights {
        RIGHTS_LOST[square as usize]
    }

    /// Both rights of `color`.
    pub const fn of(color: Color) -> CastlingRights {
        match color {
            Color::White => CastlingRights::WHITE_KING_SIDE.union(CastlingRights::WHITE_QUEEN_SIDE),
            Color::Black => CastlingRights::BLACK_KING_SIDE.union(CastlingRights::BLACK_QUEEN_SIDE),
        }
    }

    /// The castlings these rights allow, in FEN order (`KQkq`).
    pub fn castlings(self) -> impl Iterator<Item = Castling> {
        Color::ALL.into_iter().flat_map(Castling::both).filter(move |castling| self.contains(castling.right()))
    }

    /// Parses the FEN castling field (`KQkq`, any subset in that order, or `-`).
    pub fn from_fen(field: &str) -> Option<CastlingRights> {
        if field == "-" {
            return Some(CastlingRights::empty());
        }
        let mut rights = CastlingRights::empty();
        let mut last = 0;
        for c in field.chars() {
            let (right, rank) = match c {
                'K' => (CastlingRights::WHITE_KING_SIDE, 1),
                'Q' => (CastlingRights::WHITE_QUEEN_SIDE, 2),
                'k' => (CastlingRights::BLACK_KING_SIDE, 3),
                'q' => (CastlingRights::BLACK_QUEEN_SIDE, 4),
                _ => return None,
            };
            if rank <= last {
                return None;
            }
            last = rank;
            rights |= right;
        }
        if rights.is_empty() { None } else { Some(rights) }
    }

    /// The FEN castling field.
    pub fn to_fen(self) -> String {
        if self.is_empty() {
            return "-".to_string();
        }
        [
            (Self::WHITE_KING_SIDE, 'K'),
            (Self::WHITE_QUEEN_SIDE, 'Q'),
            (Self::BLACK_KING_SIDE, 'k'),
            (Self::BLACK_QUEEN_SIDE, 'q'),
        ]
        .iter()
        .filter(|(right, _)| self.contains(*right))
        .map(|(_, c)| *c)
        .collect()
    }
}

impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_field() {
        for good in ["-", "K", "Q", "k", "q", "KQ", "Kk", "KQkq", "Qq"] {
            assert_eq!(CastlingRights::from_fen(good).unwrap().to_fen(), good);
        }
        for bad in ["", "QK", "KK", "x", "KQkqK", "-K", "A"] {
            assert!(CastlingRights::from_fen(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn geometry() {
        let oo = Castling { color: Color::White, king_side: true };
        assert_eq!(oo.path(), Bitboard::from(Square::F1) | Square::G1);
        assert_eq!(oo.king_path(), Bitboard::from(Square::F1) | Square::G1);
        let ooo = Castling { color: Color::Black, king_side: false };
        assert_eq!(ooo.path(), Bitboard::from(Square::B8) | Square::C8 | Square::D8);
        assert_eq!(ooo.king_path(), Bitboard::from(Square::C8) | Square::D8);
        assert_eq!(ooo.rook_to(), Square::D8);
    }
}
