//! Reading input line by line with bounded memory: a line longer than
//! [`MAX_LINE`] bytes is not kept whole (only a prefix, for the error
//! message), and bytes that are not UTF-8 make a per-line error instead of
//! stopping the run. A UTF-8 byte order mark at the start of the input is
//! dropped.

use std::io::{self, BufRead};

/// The longest line kept, in bytes: a FEN takes under 100, a `FEN moves...`
/// line of a long game a few thousand.
pub const MAX_LINE: usize = 64 << 10;

/// How much of a rejected line is quoted back in error messages.
pub const QUOTE_CHARS: usize = 120;

/// One line of input, without its line terminator (`\n` or `\r\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of valid UTF-8 of at most [`MAX_LINE`] bytes.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes.
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// Its beginning (lossily decoded, at most [`QUOTE_CHARS`] characters).
        prefix: String,
    },
    /// A line that is not valid UTF-8.
    NotUtf8 {
        /// The line, lossily decoded and shortened.
        lossy: String,
    },
}

impl Line {
    /// The line as text for error messages: lossily decoded, at most
    /// [`QUOTE_CHARS`] characters (then ending in `...`).
    pub fn quote(&self) -> String {
        match self {
            Line::Text(text) => shorten(text),
            Line::TooLong { prefix, .. } => format!("{prefix}..."),
            Line::NotUtf8 { lossy } => lossy.clone(),
        }
    }
}

/// `text` cut to [`QUOTE_CHARS`] characters, with `...` when cut.
pub fn shorten(text: &str) -> String {
    shorten_to(text, QUOTE_CHARS)
}

/// `text` cut to `chars` characters, with `...` when cut.
pub fn shorten_to(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// The UTF-8 byte order mark, which some editors write at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Numbered lines of a reader (the first line is number 1).
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    number: usize,
    buf: Vec<u8>,
    /// Bytes consumed so far.
    consumed: u64,
    /// The byte offset of the line last returned.
    start: u64,
    /// Input was left in the reader's buffer after the line last returned.
    buffered: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Reads lines from `reader`.
    pub fn new(reader: R) -> LineReader<R> {
        LineReader { reader, number: 0, buf: Vec::new(), consumed: 0, start: 0, buffered: false }
    }

    /// The byte offset of the line last returned (of its byte order mark,
    /// for line 1).
    pub fn offset(&self) -> u64 {
        self.start
    }

    /// Bytes consumed from the reader so far (to the end of the line last
    /// returned).
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Whether input was left in the reader's buffer after the line last
    /// returned: more of it can be read without waiting for the source (a
    /// pipe, a terminal). Only a hint: the rest of the next line may still
    /// have to be read.
    pub fn has_buffered(&self) -> bool {
        self.buffered
    }

    /// The next line and its number, or `None` at the end of the input.
    /// A last line without a terminator counts as a line.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, Line)>> {
        self.buf.clear();
        self.start = self.consumed;
        let mut len = 0usize;
        let mut started = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                self.buffered = false;
                if !started {
                    return Ok(None);
                }
                break;
            }
            started = true;
            let (chunk, consumed, done) = match available.iter().position(|&b| b == b'\n') {
                Some(end) => (&available[..end], end + 1, true),
                None => (available, available.len(), false),
            };
            self.buffered = consumed < available.len();
            // Keep one byte more than allowed, to tell a `\r` terminator
            // of a maximal line from an over-long line.
            let room = (MAX_LINE + 1).saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
            len = len.saturating_add(chunk.len());
            self.reader.consume(consumed);
            self.consumed += consumed as u64;
            if done {
                break;
            }
        }
        self.number += 1;
        // A UTF-8 byte order mark before the first line is not part of it.
        if self.number == 1 && self.buf.starts_with(BOM) {
            self.buf.drain(..BOM.len());
            len -= BOM.len();
        }
        if len <= MAX_LINE + 1 && self.buf.last() == Some(&b'\r') {
            self.buf.pop();
            len -= 1;
        }
        let line = if len > MAX_LINE {
            let keep = self.buf.len().min(QUOTE_CHARS);
            let prefix = String::from_utf8_lossy(&self.buf[..keep]).into_owned();
            Line::TooLong { len, prefix }
        } else {
            match String::from_utf8(core::mem::take(&mut self.buf)) {
                Ok(text) => Line::Text(text),
                // Bytes of another encoding (Latin-1, say) inside a `#`
                // comment are read as replacement characters: the comment
                // is ignored, the query before it is text.
                Err(e) if in_comment(e.as_bytes(), e.utf8_error().valid_up_to()) => {
                    Line::Text(String::from_utf8_lossy(e.as_bytes()).into_owned())
                }
                Err(e) => Line::NotUtf8 { lossy: shorten(&String::from_utf8_lossy(e.as_bytes())) },
            }
        };
        Ok(Some((self.number, line)))
    }
}

/// Whether byte `at` of `line` is inside a `#` comment: after a `#` that
/// starts the line or follows a space or a tab.
fn in_comment(line: &[u8], at: usize) -> bool {
    line[..at.min(line.len())]
        .iter()
        .enumerate()
        .any(|(index, &byte)| byte == b'#' && (index == 0 || matches!(line[index - 1], b' ' | b'\t')))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 33: a Latin-1 byte inside a comment does not reject the line;
    /// outside a comment (or in a `#` inside a token) it does.
    #[test]
    fn other_encodings_in_comments() {
        let input: &[u8] = b"8/8/8/8/8/8/8/K1k5 w - - # Jos\xe9\n8/8/8/8/8/8/8/K1k5 w - - \xe9\n#\xe9\na#\xe9\n";
        let mut reader = LineReader::new(input);
        let mut lines = Vec::new();
        while let Some((_, line)) = reader.next_line().unwrap() {
            lines.push(line);
        }
        assert_eq!(lines[0], Line::Text("8/8/8/8/8/8/8/K1k5 w - - # Jos\u{fffd}".into()));
        assert!(matches!(lines[1], Line::NotUtf8 { .. }));
        assert_eq!(lines[2], Line::Text("#\u{fffd}".into()));
        assert!(matches!(lines[3], Line::NotUtf8 { .. }));
    }

    fn lines(input: &[u8]) -> Vec<(usize, Line)> {
        let mut reader = LineReader::new(io::BufReader::with_capacity(7, input));
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn offsets() {
        let mut reader = LineReader::new(io::BufReader::with_capacity(3, &b"ab\r\n\ncde\nf"[..]));
        let mut offsets = Vec::new();
        while reader.next_line().unwrap().is_some() {
            offsets.push(reader.offset());
        }
        assert_eq!(offsets, [0, 4, 5, 9]);
    }

    /// A line is followed by buffered input exactly when the reader's
    /// buffer holds bytes after it: here a buffer of four bytes, filled
    /// again only when it is empty.
    #[test]
    fn buffered_input_after_a_line() {
        let mut reader = LineReader::new(io::BufReader::with_capacity(4, &b"ab\ncd\nefgh\ni"[..]));
        let mut buffered = Vec::new();
        while reader.next_line().unwrap().is_some() {
            buffered.push(reader.has_buffered());
        }
        // "ab\nc": "c" is left; "d\nef": "ef" is left; "gh\ni": "i" is left;
        // the last line ends at the end of the input.
        assert_eq!(buffered, [true, true, true, false]);
        let mut whole_lines = LineReader::new(io::BufReader::with_capacity(3, &b"ab\ncd\n"[..]));
        whole_lines.next_line().unwrap();
        assert!(!whole_lines.has_buffered(), "the buffer held exactly the line");
    }

    #[test]
    fn terminators_and_numbers() {
        let got = lines(b"a\nbb\r\n\nlast");
        let texts: Vec<_> = got.iter().map(|(n, l)| (*n, l.quote())).collect();
        assert_eq!(texts, [(1, "a".into()), (2, "bb".into()), (3, String::new()), (4, "last".into())]);
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n").len(), 1);
    }

    /// Item 13 of issue 11: a byte order mark is not part of line 1 (it made
    /// line 1 an invalid FEN), and only there.
    #[test]
    fn byte_order_mark() {
        let got = lines(b"\xEF\xBB\xBFa b\r\n\xEF\xBB\xBFc\n");
        assert_eq!(got[0], (1, Line::Text("a b".into())));
        assert!(matches!(&got[1].1, Line::Text(t) if t == "\u{feff}c"));
        assert_eq!(lines(b"\xEF\xBB\xBF"), [(1, Line::Text(String::new()))]);
    }

    #[test]
    fn long_and_binary_lines() {
        let mut input = vec![b'x'; MAX_LINE];
        input.extend_from_slice(b"\r\n");
        input.extend(vec![b'y'; MAX_LINE + 1]);
        input.extend_from_slice(b"\n\xff\xfe\x00junk\nok\n");
        let got = lines(&input);
        assert_eq!(got.len(), 4);
        assert!(matches!(&got[0].1, Line::Text(t) if t.len() == MAX_LINE));
        assert!(
            matches!(&got[1].1, Line::TooLong { len, prefix } if *len == MAX_LINE + 1 && prefix.len() == QUOTE_CHARS)
        );
        assert!(matches!(&got[2].1, Line::NotUtf8 { lossy } if lossy.ends_with("junk")));
        assert_eq!(got[3], (4, Line::Text("ok".into())));
    }

    #[test]
    fn shortening_respects_characters() {
        let text = "é".repeat(QUOTE_CHARS + 5);
        let short = shorten(&text);
        assert_eq!(short.chars().count(), QUOTE_CHARS + 3);
        assert_eq!(shorten("abc"), "abc");
    }
}
