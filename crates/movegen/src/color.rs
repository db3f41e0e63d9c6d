//! The two sides, [`Color::White`] and [`Color::Black`].

use core::fmt;
use core::ops::Not;

/// A side: White or Black.
///
/// ```
/// use movegen::Color;
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::Black.char(), 'b');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// `0` for White, `1` for Black: an index into per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `White` if `white` is true, otherwise `Black`.
    #[inline(always)]
    pub const fn from_white(white: bool) -> Color {
        if white { Color::White } else { Color::Black }
    }

    /// Whether this is White.
    #[inline(always)]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// The FEN side-to-move letter: `'w'` or `'b'`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Parses a FEN side-to-move letter (`'w'` or `'b'`).
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The lower-case English name, `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Parses `"white"`/`"black"` (also `"w"`/`"b"`), ignoring ASCII case.
    pub fn from_name(name: &str) -> Option<Color> {
        if name.eq_ignore_ascii_case("white") || name.eq_ignore_ascii_case("w") {
            Some(Color::White)
        } else if name.eq_ignore_ascii_case("black") || name.eq_ignore_ascii_case("b") {
            Some(Color::Black)
        } else {
            None
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
