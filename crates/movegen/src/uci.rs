//! UCI move notation (`e2e4`, `e7e8q`, castling as `e1g1`): parsing against
//! a position, and the [`UciError`] for input that is not a legal move.

use core::fmt;

use crate::{Move, Position, Role, Square};

/// Why a UCI move was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciError {
    /// Not of the form `<from><to>[promotion]`, e.g. `e2e4` or `a7a8q`.
    Syntax {
        /// The text as given (shortened if long).
        found: String,
    },
    /// Well formed, but not a legal move in the position.
    Illegal {
        /// The move as given.
        found: String,
    },
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Syntax { found } => {
                write!(f, "invalid UCI move {found:?} (expected e.g. \"e2e4\" or \"a7a8q\")")
            }
            UciError::Illegal { found } => write!(f, "illegal move {found:?} in this position"),
        }
    }
}

impl std::error::Error for UciError {}

impl Position {
    /// Parses a move in UCI notation and checks that it is legal here.
    /// Castling is the king's move (`e1g1`); as a convenience the
    /// king-takes-rook form (`e1h1`) is also accepted when castling is legal.
    ///
    /// ```
    /// use movegen::{Position, UciError};
    /// let pos = Position::start();
    /// assert_eq!(pos.parse_uci("g1f3").unwrap().to_string(), "g1f3");
    /// assert!(matches!(pos.parse_uci("e2e5"), Err(UciError::Illegal { .. })));
    /// assert!(matches!(pos.parse_uci("e2"), Err(UciError::Syntax { .. })));
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        let shorten = || text.chars().take(16).collect::<String>();
        let syntax = || UciError::Syntax { found: shorten() };
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        // The text is ASCII and 4 or 5 bytes long (checked above): bytes 0..4 exist and
        // every byte is a char boundary, so the slices cannot panic.
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => match Role::from_char(char::from(c)) {
                Some(role) if role.is_promotion_target() && c.is_ascii_lowercase() => Some(role),
                _ => return Err(syntax()),
            },
        };
        let legal = self.legal_moves();
        let found = legal.iter().copied().find(|m| {
            m.from() == from && m.promotion() == promotion && {
                let rook_form = m.is_castle() && {
                    let king_side = m.to() > m.from();
                    to == crate::Castling { color: self.side_to_move(), king_side }.rook_from()
                };
                m.to() == to || rook_form
            }
        });
        found.ok_or(UciError::Illegal { found: shorten() })
    }
}
