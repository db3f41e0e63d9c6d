//! Standard algebraic notation (SAN): [`Position::san`] writes a move the way
//! books and PGN files do (`Nf3`, `exd6`, `e8=Q+`, `O-O-O#`) with the
//! shortest disambiguation; [`Position::parse_san`] reads one back, tolerant
//! of the usual variations; [`Position::san_line`] writes a numbered line
//! (`1...Kb8 2. Bd6#`). [`SanError`] says why a text is not a legal move.
//!
//! Disambiguation follows the FIDE Laws (Appendix C.10): when two pieces of
//! the same type can reach the destination, the origin's file is added if it
//! tells them apart, else its rank, else both.

use core::fmt;
use core::fmt::Write as _;

use crate::{Color, File, Move, MoveList, Position, Rank, Role, Square};

/// Why a SAN text was rejected by [`Position::parse_san`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SanError {
    /// Not of the form of a SAN move (`e4`, `Nbd7`, `exd6`, `e8=Q`, `O-O`).
    Syntax {
        /// The text as given (shortened if long).
        found: String,
    },
    /// Well formed, but no legal move of this position matches it.
    Illegal {
        /// The text as given (shortened if long).
        found: String,
    },
    /// More than one legal move matches: a disambiguation is missing.
    Ambiguous {
        /// The text as given (shortened if long).
        found: String,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax { found } => {
                write!(f, "invalid SAN move {found:?} (expected e.g. \"e4\", \"Nbd7\", \"exd6\", \"e8=Q\" or \"O-O\")")
            }
            SanError::Illegal { found } => write!(f, "illegal move {found:?} in this position"),
            SanError::Ambiguous { found } => {
                write!(f, "ambiguous move {found:?}: more than one legal move matches")
            }
        }
    }
}

impl std::error::Error for SanError {}

/// The longest text a SAN move can reasonably take (`Qa1xb2=Q!?` plus
/// slack); longer input is a syntax error.
const MAX_SAN_LEN: usize = 16;

/// The characters after a move that annotate it: check, mate, comments.
fn is_suffix_char(c: char) -> bool {
    matches!(c, '+' | '#' | '!' | '?')
}

impl Position {
    /// The move `m` in standard algebraic notation, with `+` or `#` when it
    /// gives check or mate.
    ///
    /// `m` should be legal here; an illegal move is written in UCI notation
    /// (see [`Move`]'s `Display`) rather than panicking.
    ///
    /// ```
    /// use movegen::Position;
    /// let pos: Position = "r3k2r/1P6/8/3pP3/8/8/8/R3K1NR w KQkq d6 0 1".parse().unwrap();
    /// let san = |uci: &str| pos.san(pos.parse_uci(uci).unwrap());
    /// assert_eq!(san("e5d6"), "exd6");
    /// assert_eq!(san("b7a8q"), "bxa8=Q+");
    /// assert_eq!(san("e1c1"), "O-O-O");
    /// assert_eq!(san("g1f3"), "Nf3");
    /// assert_eq!(san("h1h8"), "Rxh8+");
    /// ```
    pub fn san(&self, m: Move) -> String {
        let mut legal = MoveList::new();
        if !self.legal_moves_of_mover(m, &mut legal) {
            return m.to_string();
        }
        let mut text = String::with_capacity(8);
        self.push_san(m, &legal, &mut text);
        text
    }

    /// Fills `legal` with the legal moves of the kind of piece `m` moves
    /// (none when no piece of the side to move stands on its square) and
    /// tells whether `m` is one of them: whether it is legal. Those moves
    /// are all a SAN needs besides the move (the rivals that share its
    /// destination are of its kind), and fewer to generate than the whole
    /// list.
    fn legal_moves_of_mover(&self, m: Move, legal: &mut MoveList) -> bool {
        let role = if self.us().contains(m.from()) { self.board().role_at(m.from()) } else { None };
        match role {
            Some(role) => self.generate_legal_moves_of(role, legal),
            None => legal.clear(),
        }
        legal.contains(&m)
    }

    /// Appends the SAN of `m`, a move of `legal` (this position's legal
    /// moves of `m`'s kind of piece, or more), with its check suffix to
    /// `text`, and returns the position after it. The legal moves serve
    /// both the caller's legality test and the disambiguation, so a line is
    /// written with one (partial) move generation per move.
    fn push_san(&self, m: Move, legal: &[Move], text: &mut String) -> Position {
        self.push_san_body(m, legal, text);
        let after = self.play(m);
        if after.is_check() {
            text.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        after
    }

    /// Appends the SAN of `m` without the check suffix to `text`, for a
    /// move of `legal` (this position's legal moves).
    fn push_san_body(&self, m: Move, legal: &[Move], text: &mut String) {
        if m.is_castle() {
            text.push_str(if m.to().file() == crate::File::G { "O-O" } else { "O-O-O" });
            return;
        }
        let role = self.role_at(m.from()).unwrap_or(Role::Pawn);
        let capture = self.is_capture(m);
        if role == Role::Pawn {
            if capture {
                text.push(m.from().file().char());
                text.push('x');
            }
            text.push_str(m.to().name());
            if let Some(promotion) = m.promotion() {
                text.push('=');
                text.push(promotion.upper_char());
            }
            return;
        }
        text.push(role.upper_char());
        let (mut rivals, mut same_file, mut same_rank) = (false, false, false);
        for other in legal {
            if other.to() == m.to()
                && other.from() != m.from()
                && !other.is_castle()
                && self.role_at(other.from()) == Some(role)
            {
                rivals = true;
                same_file |= other.from().file() == m.from().file();
                same_rank |= other.from().rank() == m.from().rank();
            }
        }
        if rivals {
            if !same_file {
                text.push(m.from().file().char());
            } else if !same_rank {
                text.push(m.from().rank().char());
            } else {
                text.push_str(m.from().name());
            }
        }
        if capture {
            text.push('x');
        }
        text.push_str(m.to().name());
    }

    /// A line of moves from this position in SAN with move numbers, as in
    /// PGN: `1. e4 e5 2. Nf3`, or `54...Kb8 55. Bd6#` when Black moves
    /// first. Numbers start at this position's [`Position::fullmove_number`].
    ///
    /// The line stops at the first move that is not legal where it is
    /// played; that move is then appended as `(illegal: <uci>)`.
    ///
    /// ```
    /// use movegen::Position;
    /// let pos: Position = "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1".parse().unwrap();
    /// let mut line = Vec::new();
    /// let mut p = pos;
    /// for uci in ["e5d4", "g4f4"] {
    ///     let m = p.parse_uci(uci).unwrap();
    ///     line.push(m);
    ///     p = p.play(m);
    /// }
    /// assert_eq!(pos.san_line(&line), "1...Kd4 2. Kxf4");
    /// ```
    pub fn san_line(&self, moves: &[Move]) -> String {
        self.san_line_visiting(moves, |_, _| {}).0
    }

    /// The UCI texts and the SAN line of `moves` in one replay: the same
    /// as `(self.uci_line(moves), self.san_line(moves))` (a record of a
    /// helpmate carries both).
    ///
    /// ```
    /// use movegen::Position;
    /// let pos = Position::start();
    /// let e4 = pos.parse_uci("e2e4").unwrap();
    /// let e5 = pos.play(e4).parse_uci("e7e5").unwrap();
    /// let (uci, san) = pos.uci_and_san_lines(&[e4, e5]);
    /// assert_eq!((uci, san.as_str()), (vec!["e2e4".to_string(), "e7e5".to_string()], "1. e4 e5"));
    /// ```
    pub fn uci_and_san_lines(&self, moves: &[Move]) -> (Vec<String>, String) {
        let mut uci = Vec::with_capacity(moves.len());
        let (san, stopped) = self.san_line_visiting(moves, |pos, m| uci.push(pos.to_uci(m)));
        // The UCI texts go on past an illegal move, as `uci_line` does.
        if let Some((pos, at)) = stopped {
            uci.extend(pos.uci_line(&moves[at..]));
        }
        (uci, san)
    }

    /// [`Position::san_line`], calling `visit` with each legal move and the
    /// position it is played in; with the position and the index of the
    /// illegal move the line stopped at, if one did.
    fn san_line_visiting(
        &self,
        moves: &[Move],
        mut visit: impl FnMut(&Position, Move),
    ) -> (String, Option<(Position, usize)>) {
        // About six bytes a ply, numbers included: grown once or never.
        let mut text = String::with_capacity(moves.len() * 6);
        let mut pos = *self;
        // One list for the whole line (a list per move was a copy of the
        // whole list each time).
        let mut legal = MoveList::new();
        for (index, &m) in moves.iter().enumerate() {
            if index > 0 {
                text.push(' ');
            }
            if !pos.legal_moves_of_mover(m, &mut legal) {
                // Writing to a String cannot fail.
                let _ = write!(text, "(illegal: {m})");
                return (text, Some((pos, index)));
            }
            match pos.side_to_move() {
                Color::White => {
                    push_number(&mut text, pos.fullmove_number());
                    text.push_str(". ");
                }
                Color::Black if index == 0 => {
                    push_number(&mut text, pos.fullmove_number());
                    text.push_str("...");
                }
                Color::Black => {}
            }
            visit(&pos, m);
            pos = pos.push_san(m, &legal, &mut text);
        }
        (text, None)
    }

    /// Parses a move in standard algebraic notation and checks that it is
    /// legal here.
    ///
    /// Accepted besides strict SAN: the suffixes `+ # ! ? !! ?? !? ?!` (not
    /// checked against the position), `0-0`/`0-0-0`, promotions written
    /// `e8Q`, `e8=q` or `e8q`, redundant disambiguation (`Nge2`, `Pe2e4`,
    /// even `e2e4`), a missing or extra capture mark (`ed5`, `Nxf3` onto an
    /// empty square), `:` or `-` instead of `x`, a trailing `e.p.`, and
    /// lower-case `n`, `r`, `q`, `k` for pieces (`b` is always a file).
    /// Ambiguous and illegal moves are rejected.
    ///
    /// ```
    /// use movegen::{Position, SanError};
    /// let pos = Position::start();
    /// assert_eq!(pos.parse_san("Nf3").unwrap().to_string(), "g1f3");
    /// assert_eq!(pos.parse_san("e4!?").unwrap().to_string(), "e2e4");
    /// assert!(matches!(pos.parse_san("e5"), Err(SanError::Illegal { .. })));
    /// assert!(matches!(pos.parse_san("N3"), Err(SanError::Syntax { .. })));
    /// let pos: Position = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1".parse().unwrap();
    /// assert!(matches!(pos.parse_san("Rd1"), Err(SanError::Ambiguous { .. })));
    /// assert_eq!(pos.parse_san("Rhd1").unwrap().to_string(), "h1d1");
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let shorten = || {
            let mut short: String = text.chars().take(MAX_SAN_LEN).collect();
            if text.chars().nth(MAX_SAN_LEN).is_some() {
                short.push_str("...");
            }
            short
        };
        let syntax = || SanError::Syntax { found: shorten() };
        let mut body = text.trim().trim_end_matches(is_suffix_char);
        if let Some(rest) = body.strip_suffix("e.p.") {
            body = rest.trim_end();
        }
        if body.is_empty() || body.len() > MAX_SAN_LEN || !body.is_ascii() {
            return Err(syntax());
        }
        let legal = self.legal_moves();
        let castle = match body {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        };
        if let Some(king_side) = castle {
            let found = legal.iter().copied().find(|m| m.is_castle() && (m.to().file() == crate::File::G) == king_side);
            return found.ok_or(SanError::Illegal { found: shorten() });
        }
        let pattern = SanPattern::parse(body.as_bytes()).ok_or_else(syntax)?;
        let mut matches = legal.iter().copied().filter(|&m| pattern.matches(self, m));
        match (matches.next(), matches.next()) {
            (Some(m), None) => Ok(m),
            (None, _) => Err(SanError::Illegal { found: shorten() }),
            (Some(_), Some(_)) => Err(SanError::Ambiguous { found: shorten() }),
        }
    }
}

/// The content of a non-castling SAN move.
#[derive(Debug)]
struct SanPattern {
    role: Role,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl SanPattern {
    /// Parses `[piece][file][rank][x:-]<square>[[=]promotion]` (ASCII, no
    /// suffixes).
    fn parse(mut b: &[u8]) -> Option<SanPattern> {
        // Promotion, at the end: `=Q`, `Q`, `=q` or `q` after the rank digit.
        let mut promotion = None;
        if let [rest @ .., last] = b {
            if let Some(role) = Role::from_char(char::from(*last)).filter(|r| r.is_promotion_target()) {
                let rest = rest.strip_suffix(b"=").unwrap_or(rest);
                if rest.last().is_some_and(u8::is_ascii_digit) {
                    promotion = Some(role);
                    b = rest;
                }
            }
        }
        // The destination square.
        let [rest @ .., file, rank] = b else { return None };
        let to = Square::from_coords(File::from_char(char::from(*file))?, Rank::from_char(char::from(*rank))?);
        b = rest;
        // The capture mark (optional, not checked).
        if let [rest @ .., b'x' | b':' | b'-'] = b {
            b = rest;
        }
        // The piece letter (none for a pawn).
        let role = match b {
            [c @ (b'N' | b'B' | b'R' | b'Q' | b'K' | b'P' | b'n' | b'r' | b'q' | b'k'), rest @ ..] => {
                b = rest;
                Role::from_char(char::from(*c))?
            }
            _ => Role::Pawn,
        };
        // The disambiguation: a file, a rank, or both.
        let mut from_file = None;
        if let [c, rest @ ..] = b {
            if let Some(file) = File::from_char(char::from(*c)) {
                from_file = Some(file);
                b = rest;
            }
        }
        let mut from_rank = None;
        if let [c, rest @ ..] = b {
            if let Some(rank) = Rank::from_char(char::from(*c)) {
                from_rank = Some(rank);
                b = rest;
            }
        }
        if !b.is_empty() || (promotion.is_some() && role != Role::Pawn) {
            return None;
        }
        Some(SanPattern { role, from_file, from_rank, to, promotion })
    }

    fn matches(&self, pos: &Position, m: Move) -> bool {
        !m.is_castle()
            && m.to() == self.to
            && m.promotion() == self.promotion
            && pos.role_at(m.from()) == Some(self.role)
            && self.from_file.is_none_or(|file| m.from().file() == file)
            && self.from_rank.is_none_or(|rank| m.from().rank() == rank)
    }
}

/// Appends the decimal digits of `number` (a move number: the formatting
/// machinery cost more than the rest of a ply's SAN).
fn push_number(text: &mut String, number: u16) {
    let mut digits = [0u8; 5];
    let mut at = digits.len();
    let mut rest = number;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        text.push(char::from(digit));
    }
}
