//! Squares, files and ranks of the board.
//!
//! Squares are numbered `a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63`
//! (little-endian rank-file mapping), the numbering every bitboard in this
//! crate uses.

use core::fmt;
use core::str::FromStr;

use crate::Color;

/// A file (column) of the board, `a` to `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank (row) of the board, `1` to `8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    /// All files, `a` to `h`.
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// The file with index `index & 7` (`0` is the a-file).
    #[inline(always)]
    pub const fn new(index: u32) -> File {
        File::ALL[(index & 7) as usize]
    }

    /// The file's index, `0` (a) to `7` (h).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file letter, `'a'` to `'h'`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses a file letter `'a'..='h'`.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new(c as u32 - 'a' as u32)),
            _ => None,
        }
    }

    /// The file seen from the other side of the board (a <-> h).
    pub const fn flip(self) -> File {
        File::new(7 - self as u32)
    }
}

impl Rank {
    /// All ranks, `1` to `8`.
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    /// The rank with index `index & 7` (`0` is the first rank).
    #[inline(always)]
    pub const fn new(index: u32) -> Rank {
        Rank::ALL[(index & 7) as usize]
    }

    /// The rank's index, `0` (first rank) to `7` (eighth rank).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank digit, `'1'` to `'8'`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses a rank digit `'1'..='8'`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new(c as u32 - '1' as u32)),
            _ => None,
        }
    }

    /// The rank seen from the other side of the board (1 <-> 8).
    pub const fn flip(self) -> Rank {
        Rank::new(7 - self as u32)
    }

    /// This rank as seen by `color`: for White the rank itself, for Black
    /// its mirror (Black's "relative first rank" is the eighth rank).
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }
}

/// A square of the board.
///
/// ```
/// use movegen::{File, Rank, Square};
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert_eq!(e4, Square::from_coords(File::E, Rank::Fourth));
/// assert_eq!(e4.index(), 28);
/// assert_eq!(e4.to_string(), "e4");
/// assert!(e4.is_light());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// All 64 squares in index order (a1, b1, ..., h8).
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = {
        let mut all = [Square::A1; 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square::from_index_const(i as u8);
            i += 1;
        }
        all
    };

    const fn from_index_const(index: u8) -> Square {
        use Square::*;
        #[rustfmt::skip]
        const TABLE: [Square; 64] = [
            A1, B1, C1, D1, E1, F1, G1, H1, A2, B2, C2, D2, E2, F2, G2, H2,
            A3, B3, C3, D3, E3, F3, G3, H3, A4, B4, C4, D4, E4, F4, G4, H4,
            A5, B5, C5, D5, E5, F5, G5, H5, A6, B6, C6, D6, E6, F6, G6, H6,
            A7, B7, C7, D7, E7, F7, G7, H7, A8, B8, C8, D8, E8, F8, G8, H8,
        ];
        TABLE[(index & 63) as usize]
    }

    /// The square with index `index & 63`.
    ///
    /// Masking keeps the function total: every `u32` names some square, and
    /// the caller that passes `0..64` (a bitboard's `trailing_zeros` of a
    /// non-empty set) gets exactly that square.
    #[inline(always)]
    pub const fn new(index: u32) -> Square {
        // A hot spot: this runs for every square popped from a bitboard and
        // every move decoded, and a table lookup would cost a load each
        // time (docs/tuning.md#move-generation).
        // Safety: `Square` is `repr(u8)` with the 64 discriminants 0..=63
        // (a1 = 0 ... h8 = 63, checked by `indices_round_trip`), and
        // `index & 63` is in that range, so the value is a valid `Square`.
        unsafe { core::mem::transmute::<u8, Square>((index & 63) as u8) }
    }

    /// The square with index `index`, or `None` if `index >= 64`.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Square> {
        if index < 64 { Some(Square::new(index)) } else { None }
    }

    /// The square on `file` and `rank`.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new(file as u32 | (rank as u32) << 3)
    }

    /// The index of the square, `0` (a1) to `63` (h8).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of the square.
    #[inline(always)]
    pub const fn file(self) -> File {
        File::new(self as u32 & 7)
    }

    /// The rank of the square.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::new(self as u32 >> 3)
    }

    /// The square mirrored vertically (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square::new(self as u32 ^ 56)
    }

    /// The square mirrored horizontally (a1 <-> h1).
    #[inline(always)]
    pub const fn flip_horizontal(self) -> Square {
        Square::new(self as u32 ^ 7)
    }

    /// The square rotated by 180 degrees about the centre (a1 <-> h8):
    /// both flips at once.
    #[inline(always)]
    pub const fn rotate_180(self) -> Square {
        Square::new(self as u32 ^ 63)
    }

    /// The square as seen by `color` (mirrored vertically for Black).
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `delta` index steps away, if that stays on the board.
    /// This is raw index arithmetic: it does not check for wrapping around
    /// the edge of the board.
    #[inline(always)]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let target = self as i32 + delta;
        if target >= 0 && target < 64 { Some(Square::new(target as u32)) } else { None }
    }

    /// Whether the square is a light square (h1 and a8 are light).
    #[inline(always)]
    pub const fn is_light(self) -> bool {
        (self.file() as u32 + self.rank() as u32) % 2 == 1
    }

    /// Whether the square is a dark square (a1 and h8 are dark).
    #[inline(always)]
    pub const fn is_dark(self) -> bool {
        !self.is_light()
    }

    /// The king-distance (Chebyshev distance): how many king moves it takes
    /// to go from one square to the other on an empty board.
    #[inline]
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// The taxicab (Manhattan) distance: file difference plus rank difference.
    #[inline]
    pub const fn taxicab_distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        df + dr
    }
}

/// The error returned when a string is not a square name like `"e4"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name (expected a file a-h and a rank 1-8, e.g. \"e4\")")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let file = chars.next().and_then(File::from_char).ok_or(ParseSquareError)?;
        let rank = chars.next().and_then(Rank::from_char).ok_or(ParseSquareError)?;
        if chars.next().is_some() {
            return Err(ParseSquareError);
        }
        Ok(Square::from_coords(file, rank))
    }
}

/// The names of the squares, two letters each, in the order of
/// [`Square::ALL`].
const NAMES: &str = "a1b1c1d1e1f1g1h1a2b2c2d2e2f2g2h2a3b3c3d3e3f3g3h3a4b4c4d4e4f4g4h4\
                     a5b5c5d5e5f5g5h5a6b6c6d6e6f6g6h6a7b7c7d7e7f7g7h7a8b8c8d8e8f8g8h8";

impl Square {
    /// The square's name (`"e4"`), without formatting machinery: the
    /// records of long helpmates write thousands of them.
    ///
    /// ```
    /// use movegen::Square;
    /// assert_eq!(Square::E4.name(), "e4");
    /// assert_eq!(Square::H8.name(), Square::H8.to_string());
    /// ```
    pub fn name(self) -> &'static str {
        let at = 2 * self as usize;
        &NAMES[at..at + 2]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip() {
        for (i, sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::new(i as u32), *sq);
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), *sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(*sq));
            // The name table against the file letter and rank digit.
            assert_eq!(sq.name(), format!("{}{}", sq.file().char(), sq.rank().char()));
        }
        assert_eq!(Square::try_new(64), None);
    }

    #[test]
    fn colours_and_distances() {
        assert!(Square::A1.is_dark() && Square::H8.is_dark());
        assert!(Square::H1.is_light() && Square::A8.is_light());
        assert_eq!(Square::A1.distance(Square::H8), 7);
        assert_eq!(Square::A1.taxicab_distance(Square::H8), 14);
        assert_eq!(Square::E4.relative_to(Color::Black), Square::E5);
        assert_eq!(Square::A1.rotate_180(), Square::H8);
        for bad in ["", "e", "e9", "i1", "e44", "E4"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
