//! UCI move notation (`e2e4`, `e7e8q`, castling as `e1g1`, or `e1h1` in
//! Chess960): parsing against a position, writing, and the [`UciError`] for
//! input that is not a legal move.

use core::fmt;

use crate::{Castling, Move, Position, Role, Square};

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
    ///
    /// Castling is accepted in both conventions: the king's move to its
    /// destination (`e1g1`, standard chess) and the king taking its own
    /// rook (`e1h1`, as engines write Chess960). In a Chess960 position the
    /// king's-destination form is read as castling only when no king step
    /// could mean the same (the king moves two squares or more): `b1c1` is
    /// the king's step, castling is `b1a1`.
    ///
    /// ```
    /// use movegen::{Position, UciError};
    /// let pos = Position::start();
    /// assert_eq!(pos.parse_uci("g1f3").unwrap().to_string(), "g1f3");
    /// assert!(matches!(pos.parse_uci("e2e5"), Err(UciError::Illegal { .. })));
    /// assert!(matches!(pos.parse_uci("e2"), Err(UciError::Syntax { .. })));
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
    /// assert_eq!(pos.parse_uci("e1h1"), pos.parse_uci("e1g1"));
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
        let exact = |m: &&Move| m.from() == from && m.to() == to && m.promotion() == promotion && !m.is_castle();
        let castle = |m: &&Move| {
            m.is_castle() && m.from() == from && promotion.is_none() && {
                let rook = Castling::of_destination(self.side_to_move(), m.to()).rook_from(self.castling_files());
                to == rook || (to == m.to() && (!self.is_chess960() || from.distance(to) >= 2))
            }
        };
        let found = legal.iter().find(exact).or_else(|| legal.iter().find(castle));
        found.copied().ok_or(UciError::Illegal { found: shorten() })
    }

    /// The UCI text of the legal move `m`: castling as the king's move
    /// (`e1g1`) in standard chess, as the king taking its own rook (`e1h1`)
    /// in Chess960 (see [`Position::is_chess960`]).
    ///
    /// ```
    /// use movegen::Position;
    /// let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    /// let standard: Position = fen.parse().unwrap();
    /// let chess960 = standard.with_chess960(true);
    /// let castle = standard.parse_uci("e1g1").unwrap();
    /// assert_eq!(standard.to_uci(castle), "e1g1");
    /// assert_eq!(chess960.to_uci(castle), "e1h1");
    /// assert_eq!(chess960.parse_uci("e1h1"), Ok(castle));
    /// ```
    pub fn to_uci(&self, m: Move) -> String {
        // Written square by square: a helpmate's line is hundreds of these,
        // and the formatting machinery cost more than the search's moves.
        let to = if m.is_castle() && self.is_chess960() {
            Castling::of_destination(self.side_to_move(), m.to()).rook_from(self.castling_files())
        } else {
            m.to()
        };
        let mut text = String::with_capacity(5);
        // Writing to a String cannot fail.
        let _ = m.write_uci(to, &mut text);
        text
    }

    /// The UCI texts of a line of legal moves played from this position
    /// ([`Position::to_uci`] of each in the position it is played in).
    ///
    /// ```
    /// use movegen::Position;
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
    /// let castle = pos.parse_uci("e1g1").unwrap();
    /// let line = [castle, pos.play(castle).parse_uci("e8d8").unwrap()];
    /// assert_eq!(pos.uci_line(&line), ["e1g1", "e8d8"]);
    /// assert_eq!(pos.with_chess960(true).uci_line(&line), ["e1h1", "e8d8"]);
    /// ```
    pub fn uci_line(&self, moves: &[Move]) -> Vec<String> {
        let mut pos = *self;
        moves
            .iter()
            .map(|&m| {
                let text = pos.to_uci(m);
                pos = pos.play(m);
                text
            })
            .collect()
    }
}
