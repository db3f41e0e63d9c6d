//! Parsing the text of one game ([`RawGame`]) into a [`Game`]: the tag
//! pairs, then the movetext.
//!
//! * Tag pairs `[Name "value"]` (several per line allowed; `\"` and `\\`
//!   escapes; any tag name is accepted, only a few are used: `Result`,
//!   `FEN`, `SetUp`, `Variant`, `Termination`, `Site`, `GameId`; `White`,
//!   `Black` and `Date` for reports).
//! * Movetext: move numbers (`12.`, `12...`, also glued to the move as in
//!   `12.e4`), SAN moves with any check, mate and annotation suffixes
//!   (`Nf3+`, `e8=Q#`, `Rxe1!?`), moves in coordinates as some programs
//!   write them (`g1f3`, `e1g1`, `e7e8q`; see [`crate::san`]), standalone
//!   annotations (`!`, `?!`, ...),
//!   NAGs (`$14`), brace comments (including `[%clk ...]` and
//!   `[%eval ...]`), rest-of-line comments (`;`), escape lines (`%` in the
//!   first column), recursive variations (skipped, however deep), and the
//!   game termination marker.
//! * Chess960: a `Variant` tag `Chess960` (also `Fischerandom`, `Fischer
//!   Random`, `Chess 960`) reads the `FEN` tag as Chess960 (X-FEN or
//!   Shredder-FEN) and castling by its rules (`O-O` / `O-O-O`, or the
//!   king onto its rook in coordinates); other variants (Crazyhouse,
//!   Atomic, ...) are an error, never read as chess.
//!
//! Anything else is an error ([`PgnError`]) with the game number, the
//! game's byte offset, the offset of the problem and the reason: a tag pair
//! that is not well formed, an invalid `FEN`, an unsupported variant, a move
//! that is not SAN, an illegal or ambiguous move, an unbalanced comment or
//! variation, a missing termination marker (a truncated game), or a marker
//! that contradicts the `Result` tag.

use core::fmt;

use movegen::{FenError, Move, Position, SanError};

use crate::game::{Game, Outcome, OutcomeError, Termination};
use crate::pgn::split::RawGame;

/// Why a game could not be read: where, and what ([`PgnErrorKind`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the stream (the first is 1).
    pub game: u64,
    /// The byte offset of the game in the (decompressed) stream.
    pub offset: u64,
    /// The byte offset of the problem in the stream.
    pub at: u64,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// What is wrong with a game (one flat enum for the PGN format; the FEN,
/// SAN and result errors are the sources of their variants).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// The game is longer than the reader keeps.
    TooLong {
        /// Its length in bytes.
        len: u64,
        /// The bytes kept.
        kept: usize,
    },
    /// A tag pair is not `[Name "value"]`.
    MalformedTag {
        /// What was expected.
        expected: &'static str,
    },
    /// The `Variant` tag names a game other than standard chess and
    /// Chess960 (Crazyhouse, Atomic, ...).
    UnsupportedVariant {
        /// The tag's value.
        variant: String,
    },
    /// The `FEN` tag is invalid.
    InvalidFen(FenError),
    /// `SetUp "1"` without a `FEN` tag.
    SetUpWithoutFen,
    /// A Chess960 game (`Variant` tag) without the `FEN` tag of its start.
    Chess960WithoutFen,
    /// The `Result` tag is not a result.
    InvalidResult(OutcomeError),
    /// A move of the movetext is not legal (or not a move).
    Move {
        /// The ply it would have been (the first move is ply 1).
        ply: usize,
        /// The move as written (shortened).
        text: String,
        /// The position it was played in.
        fen: String,
        /// Why it is not a move there.
        error: SanError,
    },
    /// A move token that is not text (not UTF-8).
    NotText {
        /// The ply it would have been.
        ply: usize,
    },
    /// A null move (`--`, `Z0`, `0000`): not a chess move.
    NullMove {
        /// The ply it would have been.
        ply: usize,
    },
    /// A `{` comment without its `}`.
    UnterminatedComment,
    /// A `(` variation without its `)`.
    UnterminatedVariation,
    /// A `)` or `}` with nothing open.
    Unbalanced {
        /// The character.
        found: char,
    },
    /// A `[` or `]` in the movetext.
    TagInMovetext,
    /// A `$` without a number.
    NagWithoutNumber,
    /// A byte that starts no token.
    UnexpectedByte {
        /// The byte.
        byte: u8,
    },
    /// Text after the game termination marker.
    TextAfterResult {
        /// Its first byte.
        byte: u8,
    },
    /// The termination marker and the `Result` tag disagree.
    ResultContradictsTag {
        /// The marker.
        marker: Outcome,
        /// The tag.
        tag: Outcome,
    },
    /// No termination marker: the game is cut short.
    NoTerminationMarker,
    /// The input could not be read further (an I/O error, a compressed
    /// file cut short): the last item of a [`Reader`](super::Reader).
    Read {
        /// The error's text.
        error: String,
    },
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Read { error } => write!(f, "read error: {error}"),
            PgnErrorKind::TooLong { len, kept } => write!(f, "game too long ({len} bytes, at most {kept} kept)"),
            PgnErrorKind::MalformedTag { expected } => write!(f, "malformed tag pair: {expected}"),
            PgnErrorKind::UnsupportedVariant { variant } => {
                write!(f, "variant not supported: {variant:?} (standard chess and Chess960 are read)")
            }
            PgnErrorKind::InvalidFen(e) if e.is_syntax() => write!(f, "invalid FEN tag: {e}"),
            PgnErrorKind::InvalidFen(e) => write!(f, "impossible position in the FEN tag: {e}"),
            PgnErrorKind::SetUpWithoutFen => f.write_str("SetUp \"1\" without a FEN tag"),
            PgnErrorKind::Chess960WithoutFen => f.write_str("a Chess960 game without the FEN tag of its start"),
            PgnErrorKind::InvalidResult(e) => write!(f, "invalid Result tag: {e}"),
            PgnErrorKind::Move { ply, text, fen, error } => {
                let reason = match error {
                    SanError::Syntax { .. } => "not a SAN or UCI move",
                    SanError::Illegal { .. } => "illegal move",
                    SanError::Ambiguous { .. } => "ambiguous move",
                    _ => "not a playable move",
                };
                write!(f, "ply {ply} ({text}): {reason} (position {fen})")
            }
            PgnErrorKind::NotText { ply } => write!(f, "ply {ply}: not a move (not UTF-8 text)"),
            PgnErrorKind::NullMove { ply } => write!(f, "ply {ply}: null moves are not chess moves"),
            PgnErrorKind::UnterminatedComment => f.write_str("unterminated comment '{'"),
            PgnErrorKind::UnterminatedVariation => f.write_str("unterminated variation '('"),
            PgnErrorKind::Unbalanced { found } => write!(f, "unbalanced '{found}'"),
            PgnErrorKind::TagInMovetext => f.write_str("tag pair inside the movetext"),
            PgnErrorKind::NagWithoutNumber => f.write_str("'$' without a NAG number"),
            PgnErrorKind::UnexpectedByte { byte } => write!(f, "unexpected byte 0x{byte:02x}"),
            PgnErrorKind::TextAfterResult { byte } => {
                write!(f, "unexpected text after the result (byte 0x{byte:02x})")
            }
            PgnErrorKind::ResultContradictsTag { marker, tag } => {
                write!(f, "the result {marker} contradicts the Result tag {tag}")
            }
            PgnErrorKind::NoTerminationMarker => {
                f.write_str("the game has no termination marker (1-0, 0-1, 1/2-1/2 or *): truncated?")
            }
        }
    }
}

impl std::error::Error for PgnErrorKind {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PgnErrorKind::InvalidFen(e) => Some(e),
            PgnErrorKind::InvalidResult(e) => Some(e),
            PgnErrorKind::Move { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} (byte {}): at byte {}: {}", self.game, self.offset, self.at, self.kind)
    }
}

impl std::error::Error for PgnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

/// The tags the adjudication uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    /// `Site`.
    pub site: Option<String>,
    /// `GameId`.
    pub game_id: Option<String>,
    /// `Result`.
    pub result: Option<String>,
    /// `Termination`.
    pub termination: Option<String>,
    /// `FEN`.
    pub fen: Option<String>,
    /// `SetUp`.
    pub setup: Option<String>,
    /// `Variant`.
    pub variant: Option<String>,
    /// `White` (the player, for reports).
    pub white: Option<String>,
    /// `Black`.
    pub black: Option<String>,
    /// `Date`.
    pub date: Option<String>,
    /// How many tag pairs the game has.
    pub count: usize,
}

impl Tags {
    /// The game's identifier: `GameId`, else `Site` (unless unknown, `?`),
    /// else `#` and the game number.
    pub fn id(&self, number: u64) -> String {
        match (&self.game_id, &self.site) {
            (Some(id), _) if !id.is_empty() => id.clone(),
            (_, Some(site)) if !site.is_empty() && site != "?" => site.clone(),
            _ => format!("#{number}"),
        }
    }

    /// Records a tag pair (the value as written, with its escapes if
    /// `escaped`); only the tags used are decoded and kept.
    fn set(&mut self, name: &[u8], value: &[u8], escaped: bool) {
        self.count += 1;
        let slot = match name {
            b"Site" => &mut self.site,
            b"GameId" => &mut self.game_id,
            b"Result" => &mut self.result,
            b"Termination" => &mut self.termination,
            b"FEN" => &mut self.fen,
            b"SetUp" => &mut self.setup,
            b"Variant" => &mut self.variant,
            b"White" => &mut self.white,
            b"Black" => &mut self.black,
            b"Date" => &mut self.date,
            _ => return,
        };
        let value = if escaped {
            let mut unescaped = Vec::with_capacity(value.len());
            let mut bytes = value.iter();
            while let Some(&b) = bytes.next() {
                match (b, bytes.as_slice().first()) {
                    (b'\\', Some(&next @ (b'"' | b'\\'))) => {
                        unescaped.push(next);
                        bytes.next();
                    }
                    _ => unescaped.push(b),
                }
            }
            String::from_utf8_lossy(&unescaped).into_owned()
        } else {
            String::from_utf8_lossy(value).into_owned()
        };
        *slot = Some(value);
    }
}

/// A game read from PGN, with its tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The game (its `termination` from the `Termination` tag: `Time
    /// forfeit` is a timeout; its `id` from [`Tags::id`]).
    pub game: Game,
    /// The tags used.
    pub tags: Tags,
}

/// Variants that are standard chess (`From Position` is lichess' name for
/// a standard game from a set-up position).
fn is_standard(variant: &str) -> bool {
    ["standard", "from position", "normal", "chess", ""].iter().any(|v| variant.trim().eq_ignore_ascii_case(v))
}

/// Variants that are Chess960: lichess writes `Chess960`, other servers and
/// programs `Fischerandom`, `Fischer Random` or `Chess 960` (case, spaces
/// and hyphens aside).
fn is_chess960(variant: &str) -> bool {
    let name: String =
        variant.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_lowercase()).collect();
    matches!(name.as_str(), "chess960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "960")
}

/// Invariant: `pos <= bytes.len()`. The cursor only moves past bytes that
/// `peek`/`get` saw or that a search found, so `bytes[pos..]` never panics,
/// and `bytes[pos - 1]` is read only when `pos > 0`.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    raw: &'a RawGame,
}

impl<'a> Cursor<'a> {
    fn error(&self, at: usize, kind: PgnErrorKind) -> PgnError {
        PgnError { game: self.raw.number, offset: self.raw.offset, at: self.raw.offset + at as u64, kind }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.bytes[self.pos - 1] == b'\n'
    }

    fn skip_line(&mut self) {
        match self.bytes[self.pos..].iter().position(|&b| b == b'\n') {
            Some(n) => self.pos += n + 1,
            None => self.pos = self.bytes.len(),
        }
    }

    fn skip_whitespace(&mut self) {
        while let Some(b) = self.peek() {
            if !b.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
    }

    /// One tag pair at `pos` (on a `[`).
    fn tag(&mut self, tags: &mut Tags) -> Result<(), PgnError> {
        let start = self.pos;
        self.pos += 1;
        self.skip_inline_space();
        let name_start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            self.pos += 1;
        }
        let name = &self.bytes[name_start..self.pos];
        if name.is_empty() {
            return Err(self.error(start, PgnErrorKind::MalformedTag { expected: "expected a tag name after '['" }));
        }
        self.skip_inline_space();
        if self.peek() != Some(b'"') {
            return Err(self.error(self.pos, PgnErrorKind::MalformedTag { expected: "expected a quoted value" }));
        }
        self.pos += 1;
        let value_start = self.pos;
        let mut escaped = false;
        loop {
            match self.peek() {
                None | Some(b'\n') => {
                    return Err(self.error(start, PgnErrorKind::MalformedTag { expected: "unterminated value" }));
                }
                Some(b'\\') if matches!(self.bytes.get(self.pos + 1), Some(b'"' | b'\\')) => {
                    escaped = true;
                    self.pos += 2;
                }
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(_) => self.pos += 1,
            }
        }
        let value = &self.bytes[value_start..self.pos - 1];
        self.skip_inline_space();
        if self.peek() != Some(b']') {
            return Err(self.error(self.pos, PgnErrorKind::MalformedTag { expected: "expected ']'" }));
        }
        self.pos += 1;
        tags.set(name, value, escaped);
        Ok(())
    }

    fn skip_inline_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Skips a brace comment starting at `pos` (on the `{`).
    fn skip_brace(&mut self) -> Result<(), PgnError> {
        let start = self.pos;
        match self.bytes[self.pos..].iter().position(|&b| b == b'}') {
            Some(n) => {
                self.pos += n + 1;
                Ok(())
            }
            None => Err(self.error(start, PgnErrorKind::UnterminatedComment)),
        }
    }

    /// Skips a variation starting at `pos` (on the `(`), with its nested
    /// variations and comments.
    fn skip_variation(&mut self) -> Result<(), PgnError> {
        let start = self.pos;
        let mut depth = 0u32;
        while let Some(b) = self.peek() {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return Ok(());
                    }
                }
                b'{' => {
                    self.skip_brace()?;
                    continue;
                }
                b';' => {
                    self.skip_line();
                    continue;
                }
                b'%' if self.at_line_start() => {
                    self.skip_line();
                    continue;
                }
                _ => {}
            }
            self.pos += 1;
        }
        Err(self.error(start, PgnErrorKind::UnterminatedVariation))
    }

    /// The next token of movetext (a maximal run of bytes that are not
    /// whitespace or structure).
    fn token(&mut self) -> &'a [u8] {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'[' | b']' | b'$') {
                break;
            }
            self.pos += 1;
        }
        &self.bytes[start..self.pos]
    }
}

/// The game termination marker `token` is, if it is one.
fn result_token(token: &[u8]) -> Option<Outcome> {
    match token {
        b"1-0" => Some(Outcome::WhiteWins),
        b"0-1" => Some(Outcome::BlackWins),
        b"1/2-1/2" | b"\xC2\xBD-\xC2\xBD" => Some(Outcome::Draw),
        b"*" => Some(Outcome::Unknown),
        _ => None,
    }
}

/// `12.`, `12...`, `12` (a move number), or a move number glued to a move
/// (`12.e4`): the rest after the number, if any.
fn strip_move_number(token: &[u8]) -> Option<&[u8]> {
    let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let rest = &token[digits..];
    let dots = rest.iter().take_while(|&&b| b == b'.').count();
    if dots == 0 && !rest.is_empty() {
        return None;
    }
    Some(&rest[dots..])
}

/// Annotation glyphs written as separate tokens (`!`, `?!`, `+-`, `=`,
/// `e.p.`, ...).
fn is_annotation(token: &[u8]) -> bool {
    (!token.is_empty() && token.iter().all(|b| matches!(b, b'!' | b'?')))
        || matches!(token, b"+-" | b"-+" | b"=" | b"+=" | b"=+" | b"+/=" | b"=/+" | b"+/-" | b"-/+" | b"e.p.")
}

/// Reads one game.
///
/// ```
/// use adjudicate::pgn::{RawGame, parse_game};
/// use adjudicate::Outcome;
/// let text = b"[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 {[%clk 0:01:00]} e5 2. g4?? (2. e4) Qh4# 0-1\n";
/// let raw = RawGame { number: 1, offset: 0, bytes: text.to_vec(), truncated: None };
/// let game = parse_game(&raw).unwrap();
/// assert_eq!(game.game.moves().len(), 4);
/// assert_eq!(game.game.recorded, Outcome::BlackWins);
/// ```
pub fn parse_game(raw: &RawGame) -> Result<PgnGame, PgnError> {
    let mut cursor = Cursor { bytes: &raw.bytes, pos: 0, raw };
    if let Some(len) = raw.truncated {
        return Err(cursor.error(0, PgnErrorKind::TooLong { len, kept: raw.bytes.len() }));
    }
    let mut tags = Tags::default();
    // The tag pair section.
    loop {
        cursor.skip_whitespace();
        match cursor.peek() {
            Some(b'[') => cursor.tag(&mut tags)?,
            // Escape lines, and comments before or among the tag pairs.
            Some(b'%') if cursor.at_line_start() => cursor.skip_line(),
            Some(b';') => cursor.skip_line(),
            _ => break,
        }
    }
    let chess960 = match &tags.variant {
        Some(variant) if is_chess960(variant) => true,
        Some(variant) if !is_standard(variant) => {
            return Err(cursor.error(0, PgnErrorKind::UnsupportedVariant { variant: variant.clone() }));
        }
        _ => false,
    };
    let start = match (&tags.fen, tags.setup.as_deref()) {
        (Some(fen), _) if chess960 => {
            Position::from_fen_chess960(fen.trim()).map_err(|e| cursor.error(0, PgnErrorKind::InvalidFen(e)))?
        }
        (Some(fen), _) => Position::from_fen(fen.trim()).map_err(|e| cursor.error(0, PgnErrorKind::InvalidFen(e)))?,
        (None, Some("1")) => return Err(cursor.error(0, PgnErrorKind::SetUpWithoutFen)),
        (None, _) if chess960 => return Err(cursor.error(0, PgnErrorKind::Chess960WithoutFen)),
        (None, _) => Position::start(),
    };
    let tag_result = match &tags.result {
        Some(text) => {
            Some(text.trim().parse::<Outcome>().map_err(|e| cursor.error(0, PgnErrorKind::InvalidResult(e)))?)
        }
        None => None,
    };
    // The movetext.
    let mut pos = start;
    let mut moves = Vec::with_capacity(128);
    let mut positions = Vec::with_capacity(129);
    positions.push(start);
    let mut marker = None;
    loop {
        cursor.skip_whitespace();
        let Some(b) = cursor.peek() else { break };
        let at = cursor.pos;
        match b {
            b'{' => cursor.skip_brace()?,
            b';' => cursor.skip_line(),
            b'%' if cursor.at_line_start() => cursor.skip_line(),
            b'(' => cursor.skip_variation()?,
            b')' => return Err(cursor.error(at, PgnErrorKind::Unbalanced { found: ')' })),
            b'}' => return Err(cursor.error(at, PgnErrorKind::Unbalanced { found: '}' })),
            b'[' | b']' => return Err(cursor.error(at, PgnErrorKind::TagInMovetext)),
            b'$' => {
                cursor.pos += 1;
                let digits = cursor.bytes[cursor.pos..].iter().take_while(|b| b.is_ascii_digit()).count();
                if digits == 0 {
                    return Err(cursor.error(at, PgnErrorKind::NagWithoutNumber));
                }
                cursor.pos += digits;
            }
            _ => {
                let token = cursor.token();
                if token.is_empty() {
                    return Err(cursor.error(at, PgnErrorKind::UnexpectedByte { byte: b }));
                }
                if let Some(outcome) = result_token(token) {
                    marker = Some((outcome, at));
                    break;
                }
                let san = match strip_move_number(token) {
                    Some([]) => continue,
                    Some(rest) => rest,
                    None if is_annotation(token) => continue,
                    None => token,
                };
                let ply = moves.len() + 1;
                let (m, after) = resolve(&pos, san, ply).map_err(|kind| cursor.error(at, kind))?;
                moves.push(m);
                positions.push(after);
                pos = after;
            }
        }
    }
    cursor.skip_whitespace();
    if let Some(b) = cursor.peek() {
        return Err(cursor.error(cursor.pos, PgnErrorKind::TextAfterResult { byte: b }));
    }
    let recorded = match (marker, tag_result) {
        (Some((marker, at)), Some(tag)) if marker != tag => {
            return Err(cursor.error(at, PgnErrorKind::ResultContradictsTag { marker, tag }));
        }
        (Some((marker, _)), _) => marker,
        // A game that ended on the board (checkmate or stalemate) needs no
        // marker to be whole: its result is the tag's, or unknown (issue
        // 33). Elsewhere a missing marker is a game cut short.
        (None, tag) if pos.legal_moves().is_empty() => tag.unwrap_or(Outcome::Unknown),
        (None, _) => {
            return Err(cursor.error(raw.bytes.len(), PgnErrorKind::NoTerminationMarker));
        }
    };
    let termination = match &tags.termination {
        Some(text) if text.trim().eq_ignore_ascii_case("time forfeit") => Termination::TimeForfeit { flagged: None },
        _ => Termination::Other,
    };
    let mut game = Game::from_positions(positions, moves, recorded).with_id(tags.id(raw.number));
    game.termination = termination;
    Ok(PgnGame { game, tags })
}

/// The legal move `san` (ply `ply`) names in `pos` and the position after
/// it, or why there is none.
fn resolve(pos: &Position, san: &[u8], ply: usize) -> Result<(Move, Position), PgnErrorKind> {
    let text = std::str::from_utf8(san).map_err(|_| PgnErrorKind::NotText { ply })?;
    if matches!(text, "--" | "Z0" | "0000" | "@@@@") {
        return Err(PgnErrorKind::NullMove { ply });
    }
    crate::san::resolve(pos, text).map_err(|error| PgnErrorKind::Move {
        ply,
        text: text.chars().take(16).collect(),
        fen: pos.to_fen(),
        error,
    })
}
