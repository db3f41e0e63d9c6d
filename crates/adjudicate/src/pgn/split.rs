//! [`Splitter`]: cuts a PGN byte stream into the raw text of its games,
//! with bounded memory, without understanding the moves.
//!
//! A game ends
//!
//! * after a game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`) in the
//!   movetext, outside comments and variations;
//! * before a line starting with `[` (a tag pair) once the game has
//!   movetext, or once two blank lines followed its tag pairs (one blank
//!   line between tag pairs, as ChessBase writes them, does not end the
//!   tag section: python-chess reads such a game as one, and so do we);
//! * before a line starting with `[` while a brace comment or a variation
//!   opened on an earlier line is still open: a game broken this way (a
//!   truncated or corrupt game followed by the next one) must not swallow
//!   the rest of the stream; the parser reports it;
//! * at the end of the stream.
//!
//! Comments (`{...}` and `;` to the end of the line) and escape lines (`%`
//! in the first column) are followed so that a `]`, `[` or result inside
//! them is not taken for structure. A `;` comment before the movetext
//! (before or among the tag pairs) is not movetext; escape lines and `;`
//! comment lines between games belong to no game. A game longer than the
//! limit keeps only its first bytes ([`RawGame::truncated`]); the parser
//! then reports it.
//! Any bytes are accepted: junk becomes a "game" that fails to parse.

use std::io::{self, BufRead};

/// The most bytes of one game kept in memory (1 MiB: a very long game with
/// clock and evaluation comments takes under 100 KiB).
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// The text of one game, as cut from the stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// The game's number in the stream (the first is 1).
    pub number: u64,
    /// The byte offset of its first byte in the (decompressed) stream.
    pub offset: u64,
    /// Its bytes (at most the splitter's limit).
    pub bytes: Vec<u8>,
    /// Set when the game was longer than the limit: its full length.
    pub truncated: Option<u64>,
}

/// Cuts a PGN stream into games. See the module documentation.
#[derive(Debug)]
pub struct Splitter<R> {
    reader: R,
    cut: Cut,
}

/// The splitter's state, apart from its reader.
#[derive(Debug)]
struct Cut {
    /// Bytes consumed from the stream.
    offset: u64,
    number: u64,
    limit: usize,
    state: State,
    /// The game being cut (moved out when complete).
    current: RawGame,
    current_len: u64,
    started: bool,
    /// How much of a byte order mark has been read (3: done with it).
    bom_seen: usize,
}

/// The UTF-8 byte order mark.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// The lexical state between bytes.
#[derive(Debug, Default)]
struct State {
    line_start: bool,
    /// In a tag line, an escape line or a `;` comment: until the newline.
    to_eol: bool,
    /// The current line is a tag line (`[` in the first column).
    tag_line: bool,
    /// The current line is an escape line (`%` in the first column) or a
    /// `;` comment before any tag pair: it belongs to no game.
    escape_line: bool,
    in_brace: bool,
    /// The open brace comment or outermost variation began on an earlier line.
    open_across_lines: bool,
    depth: u32,
    has_tags: bool,
    has_movetext: bool,
    /// Blank lines since the last tag pair (before any movetext).
    blank_after_tags: u8,
    /// The current line has had only whitespace so far.
    blank_line: bool,
    /// The current movetext token (only its first bytes matter).
    token: [u8; 8],
    token_len: usize,
}

impl State {
    fn new() -> State {
        State { line_start: true, blank_line: true, ..State::default() }
    }
}

/// What a byte does to the game being cut.
enum Step {
    /// Part of the current game.
    Keep,
    /// The current game ends before this byte, which starts the next one.
    BreakBefore,
    /// The current game ends with this byte.
    BreakAfter,
}

fn is_result(token: &[u8]) -> bool {
    matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

impl<R: BufRead> Splitter<R> {
    /// A splitter keeping at most [`MAX_GAME_BYTES`] per game.
    pub fn new(reader: R) -> Splitter<R> {
        Splitter::with_limit(reader, MAX_GAME_BYTES)
    }

    /// A splitter keeping at most `limit` bytes per game.
    pub fn with_limit(reader: R, limit: usize) -> Splitter<R> {
        let cut = Cut {
            offset: 0,
            number: 0,
            limit: limit.max(1),
            state: State::new(),
            current: RawGame::default(),
            current_len: 0,
            started: false,
            bom_seen: 0,
        };
        Splitter { reader, cut }
    }

    /// Bytes consumed from the stream so far.
    pub fn offset(&self) -> u64 {
        self.cut.offset
    }

    /// The next game, `None` at the end of the stream, or an I/O error.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(self.cut.finish());
            }
            let (used, game) = self.cut.process(buf);
            self.reader.consume(used);
            if let Some(game) = game {
                return Ok(Some(game));
            }
        }
    }
}

impl Cut {
    /// Cuts from `buf`: the bytes used, and a game if one was completed.
    fn process(&mut self, buf: &[u8]) -> (usize, Option<RawGame>) {
        // A UTF-8 byte order mark at the start of the stream (perhaps
        // delivered a byte at a time) is not part of any game.
        let mut skip = 0;
        while self.bom_seen < BOM.len() && skip < buf.len() {
            if buf[skip] != BOM[self.bom_seen] {
                self.bom_seen = BOM.len();
                skip = 0;
                break;
            }
            self.bom_seen += 1;
            skip += 1;
        }
        if self.bom_seen < BOM.len() {
            self.offset += skip as u64;
            return (skip, None);
        }
        let mut done = None;
        let mut used = buf.len();
        let mut kept_from = skip;
        let mut index = skip;
        while index < buf.len() {
            // Inside a comment or a tag or escape line, only the end of it
            // (or of the line) matters: jump there.
            if self.started && !self.state.line_start && (self.state.to_eol || self.state.in_brace) {
                let rest = &buf[index..];
                let found = if self.state.to_eol {
                    rest.iter().position(|&b| b == b'\n')
                } else {
                    rest.iter().position(|&b| b == b'}' || b == b'\n')
                };
                let n = found.unwrap_or(rest.len());
                if n > 0 {
                    // In a comment the game has movetext: whether the line is
                    // blank no longer matters.
                    self.state.blank_line = false;
                    index += n;
                    continue;
                }
            }
            let byte = buf[index];
            match self.state.step(byte) {
                Step::Keep => {
                    if !self.started {
                        // Escape lines between games belong to no game.
                        if byte.is_ascii_whitespace() || self.state.escape_line {
                            kept_from = index + 1;
                            index += 1;
                            continue;
                        }
                        self.started = true;
                        self.current.offset = self.offset + index as u64;
                        kept_from = index;
                    }
                }
                Step::BreakBefore => {
                    Self::keep(&mut self.current, &mut self.current_len, self.limit, &buf[kept_from..index]);
                    done = Some(self.take());
                    // The byte starts the next game: re-read it then.
                    used = index;
                    self.state = State::new();
                    break;
                }
                Step::BreakAfter => {
                    Self::keep(&mut self.current, &mut self.current_len, self.limit, &buf[kept_from..=index]);
                    done = Some(self.take());
                    used = index + 1;
                    self.state = State::new();
                    break;
                }
            }
            index += 1;
        }
        if done.is_none() && self.started {
            Self::keep(&mut self.current, &mut self.current_len, self.limit, &buf[kept_from..]);
        }
        self.offset += used as u64;
        (used, done.flatten())
    }

    fn keep(current: &mut RawGame, len: &mut u64, limit: usize, bytes: &[u8]) {
        *len += bytes.len() as u64;
        let room = limit.saturating_sub(current.bytes.len());
        current.bytes.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The game cut so far (if it has any content), numbered.
    fn take(&mut self) -> Option<RawGame> {
        if !self.started {
            return None;
        }
        self.started = false;
        self.number += 1;
        let mut game = core::mem::take(&mut self.current);
        game.number = self.number;
        if self.current_len > game.bytes.len() as u64 {
            game.truncated = Some(self.current_len);
        }
        self.current_len = 0;
        Some(game)
    }

    fn finish(&mut self) -> Option<RawGame> {
        self.state = State::new();
        self.take()
    }
}

impl State {
    fn step(&mut self, byte: u8) -> Step {
        let line_start = self.line_start;
        self.line_start = byte == b'\n';
        if byte == b'\n' {
            let blank = self.blank_line;
            self.blank_line = true;
            self.to_eol = false;
            let ends_token = self.end_token();
            if blank && self.has_tags && !self.has_movetext {
                self.blank_after_tags = self.blank_after_tags.saturating_add(1);
            }
            self.tag_line = false;
            self.escape_line = false;
            if self.in_brace || self.depth > 0 {
                self.open_across_lines = true;
            }
            return if ends_token { Step::BreakAfter } else { Step::Keep };
        }
        if !byte.is_ascii_whitespace() {
            self.blank_line = false;
        }
        if line_start && byte == b'[' {
            let open = (self.in_brace || self.depth > 0) && self.open_across_lines;
            let new_game = self.has_movetext || self.blank_after_tags >= 2 || open;
            if new_game && (self.has_tags || self.has_movetext) {
                return Step::BreakBefore;
            }
            if !self.in_brace {
                self.tag_line = true;
                self.to_eol = true;
                self.has_tags = true;
                self.blank_after_tags = 0;
                return Step::Keep;
            }
        }
        if self.to_eol {
            return Step::Keep;
        }
        if self.in_brace {
            if byte == b'}' {
                self.in_brace = false;
                self.open_across_lines = false;
            }
            return Step::Keep;
        }
        if line_start && byte == b'%' {
            self.to_eol = true;
            self.escape_line = true;
            return Step::Keep;
        }
        match byte {
            b';' if !self.has_movetext => {
                // A comment before the movetext is not movetext; before
                // any tag pair it belongs to no game.
                self.to_eol = true;
                self.escape_line = !self.has_tags;
                Step::Keep
            }
            b'{' | b';' | b'(' | b')' => {
                let ends = self.end_token();
                self.has_movetext = true;
                match byte {
                    b'{' => self.in_brace = true,
                    b';' => self.to_eol = true,
                    b'(' => self.depth += 1,
                    _ => self.depth = self.depth.saturating_sub(1),
                }
                if self.depth == 0 && !self.in_brace {
                    self.open_across_lines = false;
                }
                if ends { Step::BreakAfter } else { Step::Keep }
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                if self.end_token() {
                    Step::BreakAfter
                } else {
                    Step::Keep
                }
            }
            _ => {
                self.has_movetext = true;
                if self.token_len < self.token.len() {
                    self.token[self.token_len] = byte;
                }
                self.token_len += 1;
                Step::Keep
            }
        }
    }

    /// Ends the current token; whether it was a result at depth 0.
    fn end_token(&mut self) -> bool {
        let len = core::mem::take(&mut self.token_len);
        len > 0 && len <= self.token.len() && self.depth == 0 && is_result(&self.token[..len])
    }
}
