//! [`Regions`]: one square set per piece, the piece named by the square it
//! stands on in the analysed position (`M[P→s]` of the paper for every
//! `s`).

use core::ops::{Index, IndexMut};

use movegen::{Bitboard, Square};

/// For every piece, named by its square in the analysed position, a set of
/// squares (its region); empty for a square without a piece.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Regions([Bitboard; 64]);

impl Regions {
    /// No region at all (every set empty).
    pub const EMPTY: Regions = Regions([Bitboard::EMPTY; 64]);

    /// The starting point of the fixpoint: each piece on `occupied` has
    /// its own square, and nothing else.
    pub fn own_squares(occupied: Bitboard) -> Regions {
        let mut regions = Regions::EMPTY;
        for square in occupied {
            regions[square] = Bitboard::from(square);
        }
        regions
    }

    /// The union of the regions of the pieces on `squares`.
    pub fn union_of(&self, squares: Bitboard) -> Bitboard {
        squares.iter().fold(Bitboard::EMPTY, |acc, square| acc | self[square])
    }

    /// Whether the piece on `square` may leave it: its region has another
    /// square.
    #[inline]
    pub fn moves(&self, square: Square) -> bool {
        self[square] != Bitboard::from(square)
    }
}

impl Index<Square> for Regions {
    type Output = Bitboard;

    #[inline]
    fn index(&self, square: Square) -> &Bitboard {
        &self.0[square as usize]
    }
}

impl IndexMut<Square> for Regions {
    #[inline]
    fn index_mut(&mut self, square: Square) -> &mut Bitboard {
        &mut self.0[square as usize]
    }
}

impl core::fmt::Debug for Regions {
    /// The non-empty regions, by square.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map().entries(Square::ALL.into_iter().filter(|&s| self[s].any()).map(|s| (s, self[s]))).finish()
    }
}
