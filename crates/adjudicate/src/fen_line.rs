//! Games written one per line as a start position and moves in UCI
//! notation: `FEN [moves] MOVE... [RESULT]`, for example
//! `8/8/8/8/8/5k2/6q1/7K w - - 0 1 moves h1g2 1-0`.
//!
//! The FEN has 4 or 6 fields (`startpos` stands for the starting
//! position); the word `moves` is optional (as in the UCI `position`
//! command); the moves are UCI (`e2e4`, `e7e8q`, castling as the king's
//! move `e1g1` or as the king taking its rook `e1h1`); a Chess960 FEN
//! (Shredder-FEN, or X-FEN only Chess960 can read) is read as Chess960
//! ([`Position::from_fen_any`]); an optional last token is the recorded result (default
//! `*`). Blank lines and lines starting with `#` are not games.

use core::fmt;

use movegen::{FenError, Position, UciError};

use crate::game::{Game, Outcome};

/// Why a line is not a game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenLineError {
    /// The line does not start with a FEN or `startpos`.
    NoPosition,
    /// The FEN is invalid.
    InvalidFen(FenError),
    /// A move is not a legal UCI move.
    Move {
        /// Its ply (the first move is ply 1).
        ply: usize,
        /// The position it was played in.
        fen: String,
        /// Why it is not a move there.
        error: UciError,
    },
}

impl fmt::Display for FenLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenLineError::NoPosition => f.write_str("expected a FEN (4 or 6 fields) or `startpos`"),
            FenLineError::InvalidFen(e) if e.is_syntax() => write!(f, "invalid FEN: {e}"),
            FenLineError::InvalidFen(e) => write!(f, "impossible position in the FEN: {e}"),
            FenLineError::Move { ply, fen, error } => write!(f, "ply {ply}: {error} (position {fen})"),
        }
    }
}

impl std::error::Error for FenLineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenLineError::InvalidFen(e) => Some(e),
            FenLineError::Move { error, .. } => Some(error),
            FenLineError::NoPosition => None,
        }
    }
}

/// Whether a line is skipped (blank, or a `#` comment).
pub fn is_skipped(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with('#')
}

/// Parses one line (see the module documentation).
///
/// ```
/// use adjudicate::{Outcome, fen_line::parse_fen_line};
/// let game = parse_fen_line("startpos moves f2f3 e7e5 g2g4 d8h4 0-1").unwrap();
/// assert_eq!(game.moves().len(), 4);
/// assert_eq!(game.recorded, Outcome::BlackWins);
/// assert!(parse_fen_line("startpos e2e5").is_err());
/// ```
pub fn parse_fen_line(line: &str) -> Result<Game, FenLineError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (start, mut rest) = match tokens.as_slice() {
        ["startpos", rest @ ..] => (Position::start(), rest),
        [a, b, c, d, rest @ ..] => {
            let (fen, rest) = match rest {
                [h, f, more @ ..] if is_number(h) && is_number(f) => (format!("{a} {b} {c} {d} {h} {f}"), more),
                _ => (format!("{a} {b} {c} {d}"), rest),
            };
            (Position::from_fen_any(&fen).map_err(FenLineError::InvalidFen)?, rest)
        }
        _ => return Err(FenLineError::NoPosition),
    };
    if let ["moves", more @ ..] = rest {
        rest = more;
    }
    let mut recorded = Outcome::Unknown;
    if let [more @ .., last] = rest {
        if let Ok(outcome) = last.parse::<Outcome>() {
            recorded = outcome;
            rest = more;
        }
    }
    let mut pos = start;
    let mut moves = Vec::with_capacity(rest.len());
    let mut positions = Vec::with_capacity(rest.len() + 1);
    positions.push(start);
    for (index, text) in rest.iter().enumerate() {
        let m = pos.parse_uci(text).map_err(|error| FenLineError::Move { ply: index + 1, fen: pos.to_fen(), error })?;
        moves.push(m);
        pos = pos.play(m);
        positions.push(pos);
    }
    Ok(Game::from_positions(positions, moves, recorded))
}

/// Plain decimal digits (a move counter).
fn is_number(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}
