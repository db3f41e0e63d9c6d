//! Games written one per line as a start position and moves in UCI
//! notation: `FEN [moves] MOVE... [RESULT]`, for example
//! `8/8/8/8/8/5k2/6q1/7K w - - 0 1 moves h1g2 1-0`.
//!
//! The FEN has 4 or 6 fields (`startpos` stands for the starting
//! position); the word `moves` is optional (as in the UCI `position`
//! command); the moves are UCI (`e2e4`, `e7e8q`, castling as the king's
//! move `e1g1`); an optional last token is the recorded result (default
//! `*`). Blank lines and lines starting with `#` are not games.

use core::fmt;

use movegen::Position;

use crate::game::{Game, Outcome};

/// Why a line is not a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenLineError {
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for FenLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for FenLineError {}

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
    let error = |reason: String| FenLineError { reason };
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (start, mut rest) = match tokens.as_slice() {
        ["startpos", rest @ ..] => (Position::start(), rest),
        [a, b, c, d, rest @ ..] => {
            let (fen, rest) = match rest {
                [h, f, more @ ..] if h.parse::<u32>().is_ok() && f.parse::<u32>().is_ok() => {
                    (format!("{a} {b} {c} {d} {h} {f}"), more)
                }
                _ => (format!("{a} {b} {c} {d}"), rest),
            };
            (Position::from_fen(&fen).map_err(|e| error(format!("invalid FEN: {e}")))?, rest)
        }
        _ => return Err(error("expected a FEN (4 or 6 fields) or `startpos`".to_string())),
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
        let m =
            pos.parse_uci(text).map_err(|e| error(format!("ply {}: {e} (position {})", index + 1, pos.to_fen())))?;
        moves.push(m);
        pos = pos.play(m);
        positions.push(pos);
    }
    Ok(Game::from_positions(positions, moves, recorded))
}
