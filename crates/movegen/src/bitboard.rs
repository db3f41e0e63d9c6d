//! [`Bitboard`]: a set of squares packed into a `u64`.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign};

use crate::{Color, File, Rank, Square};

/// A set of squares, one bit per square (bit `i` is [`Square::new(i)`](Square::new)).
///
/// Set operations are the bitwise operators (`|` union, `&` intersection,
/// `^` symmetric difference, `-` difference, `!` complement). Iterating
/// yields the squares from a1 upwards. `Display` draws the set as an 8x8
/// grid, rank 8 at the top:
///
/// ```
/// use movegen::{Bitboard, Square};
/// let diagonal = Bitboard::between(Square::A1, Square::E5) | Square::A1 | Square::E5;
/// assert_eq!(diagonal.count(), 5);
/// assert_eq!(
///     diagonal.to_string(),
///     ". . . . . . . .\n\
///      . . . . . . . .\n\
///      . . . . . . . .\n\
///      . . . . 1 . . .\n\
///      . . . 1 . . . .\n\
///      . . 1 . . . . .\n\
///      . 1 . . . . . .\n\
///      1 . . . . . . .\n"
/// );
/// assert_eq!(diagonal.iter().collect::<Vec<_>>(),
///            [Square::A1, Square::B2, Square::C3, Square::D4, Square::E5]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The light squares (h1, a8, ...).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The dark squares (a1, h8, ...).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    /// The board's edge squares.
    pub const EDGES: Bitboard = Bitboard(0xff81_8181_8181_81ff);
    /// The four corner squares.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// The singleton set of `square`.
    #[inline(always)]
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1 << square as u32)
    }

    /// All squares of `file`.
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u32)
    }

    /// All squares of `rank`.
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank as u32))
    }

    /// The relative `rank` of `color` (e.g. the promotion rank is
    /// `relative_rank(color, Rank::Eighth)`).
    #[inline(always)]
    pub const fn relative_rank(color: Color, rank: Rank) -> Bitboard {
        Bitboard::rank(rank.relative_to(color))
    }

    /// The squares of the same colour as `square`.
    #[inline(always)]
    pub const fn same_color_as(square: Square) -> Bitboard {
        if square.is_light() { Bitboard::LIGHT_SQUARES } else { Bitboard::DARK_SQUARES }
    }

    /// The squares strictly between `a` and `b` if they share a rank, file
    /// or diagonal, otherwise the empty set.
    #[inline(always)]
    pub fn between(a: Square, b: Square) -> Bitboard {
        crate::attacks::between(a, b)
    }

    /// The whole line (rank, file or diagonal, edge to edge) through `a` and
    /// `b`, or the empty set if they are not aligned.
    #[inline(always)]
    pub fn line(a: Square, b: Square) -> Bitboard {
        crate::attacks::line(a, b)
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has more than one square.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Whether `square` is in the set.
    #[inline(always)]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square as u32) != 0
    }

    /// Whether the two sets intersect.
    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every square of `self` is in `other`.
    #[inline(always)]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The lowest square (closest to a1), if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::new(self.0.trailing_zeros())) }
    }

    /// The highest square (closest to h8), if any.
    #[inline(always)]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::new(63 - self.0.leading_zeros())) }
    }

    /// The single square of a one-square set, `None` otherwise.
    #[inline(always)]
    pub const fn single_square(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() { self.first() } else { None }
    }

    /// The set with `square` added.
    #[inline(always)]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | 1 << square as u32)
    }

    /// The set with `square` removed.
    #[inline(always)]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << square as u32))
    }

    /// Every square moved one rank up (towards rank 8); squares on rank 8
    /// fall off.
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square moved one rank down (towards rank 1).
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Every square moved one file right (towards h); the h-file falls off.
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 << 1) & !0x0101_0101_0101_0101)
    }

    /// Every square moved one file left (towards a); the a-file falls off.
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 >> 1) & !0x8080_8080_8080_8080)
    }

    /// Every square moved one rank forward from `color`'s point of view.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }

    /// Every square moved one rank backward from `color`'s point of view.
    #[inline(always)]
    pub const fn backward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.south(),
            Color::Black => self.north(),
        }
    }

    /// The squares king-adjacent to some square of the set, plus the set itself.
    #[inline(always)]
    pub const fn expand(self) -> Bitboard {
        let horizontal = Bitboard(self.0 | self.east().0 | self.west().0);
        Bitboard(horizontal.0 | horizontal.north().0 | horizontal.south().0)
    }

    /// The set mirrored vertically (rank 1 <-> rank 8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// An iterator over the squares, from a1 upwards.
    #[inline(always)]
    pub const fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let square = Square::new(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(square)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl DoubleEndedIterator for BitboardIter {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let square = Square::new(63 - self.0.leading_zeros());
            self.0 ^= 1 << square as u32;
            Some(square)
        }
    }
}

impl core::iter::FusedIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |bb, sq| bb | sq)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

impl From<File> for Bitboard {
    #[inline(always)]
    fn from(file: File) -> Bitboard {
        Bitboard::file(file)
    }
}

impl From<Rank> for Bitboard {
    #[inline(always)]
    fn from(rank: Rank) -> Bitboard {
        Bitboard::rank(rank)
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl<T: Into<Bitboard>> $trait<T> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: T) -> Bitboard {
                Bitboard(self.0 $op rhs.into().0)
            }
        }
        impl<T: Into<Bitboard>> $assign_trait<T> for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: T) {
                self.0 = self.0 $op rhs.into().0;
            }
        }
    };
}

binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<T: Into<Bitboard>> Sub<T> for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: T) -> Bitboard {
        Bitboard(self.0 & !rhs.into().0)
    }
}

impl<T: Into<Bitboard>> SubAssign<T> for Bitboard {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: T) {
        self.0 &= !rhs.into().0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Display for Bitboard {
    /// Draws the set as an 8x8 grid, rank 8 first: `1` for members, `.` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let square = Square::from_coords(file, *rank);
                f.write_str(if self.contains(square) { "1" } else { "." })?;
                f.write_str(if file == File::H { "\n" } else { " " })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_do_not_wrap() {
        let h_file = Bitboard::file(File::H);
        assert_eq!(h_file.east(), Bitboard::EMPTY);
        assert_eq!(Bitboard::file(File::A).west(), Bitboard::EMPTY);
        assert_eq!(Bitboard::rank(Rank::Eighth).north(), Bitboard::EMPTY);
        assert_eq!(Bitboard::from_square(Square::E4).expand().count(), 9);
        assert_eq!(Bitboard::from_square(Square::A1).expand().count(), 4);
    }

    #[test]
    fn colours_partition_the_board() {
        assert_eq!(Bitboard::LIGHT_SQUARES | Bitboard::DARK_SQUARES, Bitboard::FULL);
        for sq in Square::ALL {
            assert_eq!(Bitboard::LIGHT_SQUARES.contains(sq), sq.is_light());
        }
    }

    #[test]
    fn iteration_both_ways() {
        let bb = Bitboard::from_square(Square::C3) | Square::H8 | Square::A1;
        assert_eq!(bb.iter().rev().collect::<Vec<_>>(), [Square::H8, Square::C3, Square::A1]);
        assert_eq!(bb.iter().len(), 3);
        assert_eq!(bb.single_square(), None);
        assert_eq!(Bitboard::from_square(Square::G5).single_square(), Some(Square::G5));
    }
}
