//! One query: a line `FEN [white|black|both] [anything else]`.
//!
//! * The FEN has 4 fields, or 6 with the move counters: the tokens after
//!   the 4th that are numbers (at most two) are the counters. A single
//!   number is the halfmove clock (the move number is then 1).
//! * The next token, if any, names the intended winner: `white`, `black`,
//!   `w`, `b` (any case) or `both`. Without it, the winner is the side *not*
//!   to move: the player whose opponent has just run out of time.
//! * A further token, or one that is not a colour but contains a digit or
//!   punctuation or is longer than 7 characters (a game id such as
//!   `QzZqHm8A`, a comment), is ignored. A short word of letters only that
//!   is not a colour (`red`, `whit`) is an error: it was meant as one.

use core::fmt;

use movegen::{Color, FenError, Position};

/// For whom a position is analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Winners {
    /// White is the intended winner.
    White,
    /// Black is the intended winner.
    Black,
    /// Two analyses: White, then Black.
    Both,
}

impl Winners {
    /// The colours to analyse for, in order.
    pub fn colors(self) -> &'static [Color] {
        match self {
            Winners::White => &[Color::White],
            Winners::Black => &[Color::Black],
            Winners::Both => &[Color::White, Color::Black],
        }
    }

    /// Parses `white`, `black`, `w`, `b` or `both`, in any case.
    pub fn from_name(name: &str) -> Option<Winners> {
        if name.eq_ignore_ascii_case("both") {
            return Some(Winners::Both);
        }
        Color::from_name(name).map(|color| match color {
            Color::White => Winners::White,
            Color::Black => Winners::Black,
        })
    }
}

/// A parsed query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The FEN as given (its tokens joined by single spaces).
    pub fen: String,
    /// The position.
    pub position: Position,
    /// The winner(s) named on the line, if any.
    pub winners: Option<Winners>,
}

impl Query {
    /// The colours to analyse for: `forced` if given (the `--winner`
    /// option), else those named on the line, else the side not to move.
    pub fn colors(&self, forced: Option<Winners>) -> &'static [Color] {
        match forced.or(self.winners) {
            Some(winners) => winners.colors(),
            None if self.position.side_to_move() == Color::White => Winners::Black.colors(),
            None => Winners::White.colors(),
        }
    }
}

/// Why a query line was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// The FEN is invalid.
    Fen(FenError),
    /// The token after the FEN looks like a colour but is not one.
    UnknownColour(String),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Fen(e) => write!(f, "invalid FEN: {e}"),
            QueryError::UnknownColour(word) => {
                write!(f, "unknown winner {word:?} after the FEN (expected white, black or both)")
            }
        }
    }
}

impl std::error::Error for QueryError {}

/// Whether a line carries no query: blank, or a `#` comment.
pub fn is_skipped(line: &str) -> bool {
    let line = line.trim_start();
    line.is_empty() || line.starts_with('#')
}

/// The longest word read as an attempted colour name (game ids are 8 or 12
/// characters).
const MAX_COLOUR_WORD: usize = 7;

/// Parses a query line (see the module documentation).
pub fn parse_query(line: &str) -> Result<Query, QueryError> {
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    if tokens.len() < 4 {
        let error = Position::from_fen(line).err().unwrap_or(FenError::FieldCount { found: tokens.len() });
        return Err(QueryError::Fen(error));
    }
    // `tokens[4..]` and `tokens[..4 + clocks]` cannot panic: at least 4 tokens
    // (checked above), and `clocks` counts tokens after the 4th.
    let clocks = tokens[4..].iter().take(2).take_while(|t| t.bytes().all(|b| b.is_ascii_digit())).count();
    let fen_tokens = &tokens[..4 + clocks];
    let fen = fen_tokens.join(" ");
    let position = if clocks == 1 { Position::from_fen(&format!("{fen} 1")) } else { Position::from_fen(&fen) }
        .map_err(QueryError::Fen)?;
    let winners = match tokens.get(4 + clocks) {
        None => None,
        Some(word) => match Winners::from_name(word) {
            Some(winners) => Some(winners),
            None if word.len() <= MAX_COLOUR_WORD && word.bytes().all(|b| b.is_ascii_alphabetic()) => {
                return Err(QueryError::UnknownColour(word.to_string()));
            }
            None => None,
        },
    };
    Ok(Query { fen, position, winners })
}

#[cfg(test)]
mod tests {
    use super::*;

    const P3: &str = "8/8/1p6/1B2k3/5pK1/8/8/8 b - -";

    #[test]
    fn fields_clocks_and_colours() {
        let q = parse_query(P3).unwrap();
        assert_eq!((q.fen.as_str(), q.winners), (P3, None));
        assert_eq!(q.colors(None), [Color::White]);
        assert_eq!(q.colors(Some(Winners::Both)), [Color::White, Color::Black]);
        let q = parse_query("  8/8/1p6/1B2k3/5pK1/8/8/8   b - - 3 60 black QzZqHm8A more").unwrap();
        assert_eq!(q.fen, "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 3 60");
        assert_eq!((q.position.halfmove_clock(), q.position.fullmove_number()), (3, 60));
        assert_eq!(q.winners, Some(Winners::Black));
        assert_eq!(q.colors(Some(Winners::White)), [Color::White]);
        let q = parse_query(&format!("{P3} 7 w")).unwrap();
        assert_eq!((q.position.halfmove_clock(), q.winners), (7, Some(Winners::White)));
        assert_eq!(parse_query(&format!("{P3} BOTH")).unwrap().winners, Some(Winners::Both));
        // Game ids and comments are ignored.
        for extra in ["QzZqHm8A", "abcdefgh", "game-1", "#7", "12345678901234567890"] {
            let q = parse_query(&format!("{P3} 0 1 {extra}")).unwrap_or_else(|e| panic!("{extra}: {e}"));
            assert_eq!(q.winners, None, "{extra}");
        }
    }

    #[test]
    fn errors() {
        for (line, expected) in [
            ("8/8/8 w - -", "invalid FEN"),
            ("hello", "invalid FEN"),
            ("8/8/1p6/1B2k3/5pK1/8/8/8 x - -", "invalid FEN"),
            ("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 99999999 1", "invalid FEN"),
            ("8/8/1p6/1B2k3/5pK1/8/8/8 b - - purple", "unknown winner \"purple\""),
            ("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1 whit", "unknown winner"),
        ] {
            let error = parse_query(line).unwrap_err().to_string();
            assert!(error.starts_with(expected), "{line}: {error}");
        }
        assert!(is_skipped("   "));
        assert!(is_skipped("  # comment"));
        assert!(!is_skipped(P3));
    }

    #[test]
    fn random_lines_never_panic() {
        fn property(text: String, fields: Vec<u8>) -> bool {
            // Random text, and random FEN-like text.
            const PARTS: [&str; 12] = ["8/", "k", "K", "p", "1", "/", " ", "w", "b", "-", "0", "white"];
            let fen_like: String = fields.iter().map(|&i| PARTS[usize::from(i) % PARTS.len()]).collect();
            for line in [text.as_str(), fen_like.as_str()] {
                if let Ok(query) = parse_query(line) {
                    assert!(!query.colors(None).is_empty());
                }
            }
            true
        }
        quickcheck::QuickCheck::new().tests(5_000).quickcheck(property as fn(String, Vec<u8>) -> bool);
    }
}
