//! Piece types ([`Role`]) and coloured pieces ([`Piece`]).

use core::fmt;

use crate::Color;

/// A piece type, independent of colour.
///
/// The discriminants order the roles the way the move generator visits them
/// (pawns, knights, bishops, rooks, queens, king).
///
/// ```
/// use movegen::Role;
/// assert_eq!(Role::from_char('N'), Some(Role::Knight));
/// assert_eq!(Role::Queen.upper_char(), 'Q');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Role {
    /// A pawn.
    Pawn = 0,
    /// A knight.
    Knight = 1,
    /// A bishop.
    Bishop = 2,
    /// A rook.
    Rook = 3,
    /// A queen.
    Queen = 4,
    /// A king.
    King = 5,
}

/// The conventional name used by other move generators.
pub type PieceType = Role;

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

    /// The index of the role, `0` (pawn) to `5` (king).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with index `index` (`0..6`), if any.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Role> {
        match index {
            0 => Some(Role::Pawn),
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            5 => Some(Role::King),
            _ => None,
        }
    }

    /// The lower-case letter (`'p'`, `'n'`, `'b'`, `'r'`, `'q'`, `'k'`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The upper-case letter, as used in SAN.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses a role letter in either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// Whether a pawn may promote to this role (knight, bishop, rook, queen).
    pub const fn is_promotion_target(self) -> bool {
        matches!(self, Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        })
    }
}

/// A piece: a role of a colour.
///
/// ```
/// use movegen::{Color, Piece, Role};
/// let black_knight = Piece::from_char('n').unwrap();
/// assert_eq!(black_knight, Piece::new(Color::Black, Role::Knight));
/// assert_eq!(black_knight.char(), 'n');
/// assert_eq!(Piece::new(Color::White, Role::Queen).char(), 'Q');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// The colour of the piece.
    pub color: Color,
    /// The type of the piece.
    pub role: Role,
}

impl Piece {
    /// The piece of `color` and `role`.
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// A dense index `0..12`: `role * 2 + color`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.role as usize * 2 + self.color as usize
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN piece letter (`PNBRQK` for White, `pnbrqk` for Black).
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) if c.is_ascii_uppercase() => Some(Piece::new(Color::White, role)),
            Some(role) => Some(Piece::new(Color::Black, role)),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}
