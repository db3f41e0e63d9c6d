//! Writing records: one line per record as readable text, a JSON object
//! (JSON Lines) or a CSV row ([`Format`]), for every subcommand that writes
//! records ([`Render`] says how a record looks in each).
//!
//! Records carry text from the input (PGN tags, file names), so the text
//! and CSV forms are made safe to print and to open:
//!
//! * control characters (C0, DEL, C1) and the Unicode bidirectional
//!   controls are written as escapes (`\x1b`, `\u{202e}`): a tag such as
//!   `[Site "\x1b]0;..."]` cannot drive the terminal or reorder the line;
//! * a CSV cell starting with `=`, `+`, `-`, `@` (a spreadsheet formula),
//!   longer than that one character, gets a leading `'`; cells are quoted
//!   as RFC 4180 says.
//!
//! JSON strings are escaped by `serde_json` (control characters as
//! `\u00XX`); the JSON form is exactly the data.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Format {
    /// One readable line per record.
    #[default]
    Text,
    /// One JSON object per line (JSON Lines).
    Jsonl,
    /// Comma-separated values, with a header line.
    Csv,
}

/// A record that can be written in every [`Format`].
pub trait Render: Serialize {
    /// The readable line (escaped by the writer).
    fn text(&self) -> String;
    /// The CSV cells, one per column of the subcommand's header (escaped
    /// and quoted by the writer).
    fn cells(&self) -> Vec<Cow<'_, str>>;

    /// A second line of text under [`Render::text`]'s, if any (a note).
    fn note(&self) -> Option<String> {
        None
    }
}

/// Writes records in a format.
#[derive(Debug)]
pub struct RecordWriter<W> {
    out: W,
    format: Format,
}

impl<W: Write> RecordWriter<W> {
    /// A writer to `out`; for CSV, writes the header `columns` first.
    pub fn new(mut out: W, format: Format, columns: &[&str]) -> io::Result<RecordWriter<W>> {
        if format == Format::Csv {
            writeln!(out, "{}", csv_row(columns.iter().map(|c| Cow::Borrowed(*c))))?;
        }
        Ok(RecordWriter { out, format })
    }

    /// Writes one record on its own line.
    pub fn write(&mut self, record: &impl Render) -> io::Result<()> {
        match self.format {
            Format::Text => {
                writeln!(self.out, "{}", escape_controls(&record.text()))?;
                match record.note() {
                    Some(note) => writeln!(self.out, "{}", escape_controls(&note)),
                    None => Ok(()),
                }
            }
            // Straight into the output, without a string per record.
            Format::Jsonl => {
                serde_json::to_writer(&mut self.out, record)?;
                self.out.write_all(b"\n")
            }
            Format::Csv => writeln!(self.out, "{}", csv_row(record.cells())),
        }
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }
}

/// `value` as one line of JSON.
pub fn to_json(value: &impl Serialize) -> String {
    // Serializing strings, integers and options of them cannot fail; fall
    // back to a valid JSON object all the same.
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()))
}

/// Whether `c` must not reach a terminal as it is: C0 and C1 control
/// characters, DEL, and the bidirectional controls.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with control characters written as escapes (`\t`, `\n`, `\r`,
/// `\x1b`, `\u{9b}`, `\u{202e}`).
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    // Printable ASCII (every record the analyses write) needs no look at
    // its characters one by one.
    if text.bytes().all(|b| (b' '..=b'~').contains(&b)) || !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => escaped.push_str("\\t"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            c if is_unsafe(c) && u32::from(c) < 0x80 => {
                let _ = write!(escaped, "\\x{:02x}", u32::from(c));
            }
            c if is_unsafe(c) => {
                let _ = write!(escaped, "\\u{{{:x}}}", u32::from(c));
            }
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// One CSV cell: controls escaped, a formula neutralised, quoted if needed.
fn csv_cell(cell: &str) -> Cow<'_, str> {
    let mut cell = escape_controls(cell);
    if cell.len() > 1 && cell.starts_with(['=', '+', '-', '@']) {
        cell = Cow::Owned(format!("'{cell}"));
    }
    if cell.contains([',', '"']) {
        cell = Cow::Owned(format!("\"{}\"", cell.replace('"', "\"\"")));
    }
    cell
}

/// One CSV row (RFC 4180 quoting).
pub fn csv_row<'a>(cells: impl IntoIterator<Item = Cow<'a, str>>) -> String {
    let mut row = String::new();
    for (index, cell) in cells.into_iter().enumerate() {
        if index > 0 {
            row.push(',');
        }
        row.push_str(&csv_cell(&cell));
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[&str]) -> String {
        csv_row(cells.iter().map(|c| Cow::Borrowed(*c)))
    }

    #[test]
    fn csv_quoting() {
        assert_eq!(row(&["a", "b,c", "d\"e", ""]), "a,\"b,c\",\"d\"\"e\",");
    }

    /// Item 12 of issue 11: escape sequences from the input do not reach the
    /// terminal, and CSV cells are not formulas.
    #[test]
    fn controls_and_formulas_are_neutralised() {
        assert_eq!(escape_controls("\x1b]0;owned\x07 ok"), "\\x1b]0;owned\\x07 ok");
        assert_eq!(escape_controls("a\u{9b}31mb\u{202e}c\u{7f}\n"), "a\\u{9b}31mb\\u{202e}c\\x7f\\n");
        assert!(matches!(escape_controls("Kasparov, G. – Deep Blue"), Cow::Borrowed(_)));
        assert_eq!(row(&["=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "-", "1-0", "\x1b[2J"]), {
            "\"'=HYPERLINK(\"\"x\"\")\",'+1,'-2,'@SUM(A1),-,1-0,\\x1b[2J"
        });
    }
}
