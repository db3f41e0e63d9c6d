//! Cutting a large plain PGN file into byte ranges that start on game
//! boundaries, so that each range can be adjudicated on its own (one Dask
//! task each) with exactly the games, offsets and texts that reading the
//! whole file with the `adjudicate` crate's splitter gives.
//!
//! # Where the splitter starts a game
//!
//! At a line starting with `[` (column 1) it starts a new game exactly
//! when the game being cut already has movetext, or a blank line followed
//! its tag pairs, or a comment or variation opened on an earlier line is
//! still open (all of which need a non-tag line or a blank line before);
//! after a game termination marker it starts the next game at the next
//! non-blank byte. Every byte that is not whitespace, outside tag lines
//! and escape lines (`%` in column 1), is movetext. So, with lines
//! classed as *tag* (`[` in column 1), *blank* (only spaces, tabs, `\r`,
//! form feeds), *neutral* (an escape line, or whitespace with a vertical
//! tab, which the splitter counts as neither blank nor movetext) or
//! *other*:
//!
//! a tag line starts a game if and only if the last line before it that
//! is neither blank nor neutral is an *other* line, or is a tag line with
//! a blank line in between. After a tag line the splitter's state is always "tags, no
//! movetext, no blank line yet" (if the line had started a game it would
//! be a fresh game; if not, there was no movetext and no blank line), an
//! neutral line changes nothing, and an *other* line always holds movetext,
//! which is why the previous line's class is enough. The scan starts
//! after an unknown context, so the first tag line it sees decides
//! nothing; the next qualifying one is the boundary. When a game ends with
//! its termination marker the splitter is in its initial state at the
//! following tag line, which is then the start of a game too.
//!
//! A fresh splitter started at such a boundary is in the state the
//! whole-file splitter is in after cutting there, and the game before the
//! boundary ends at the same byte in both (the end of the range, or the
//! cut): the tests compare the two on generated and malformed input.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Seek, SeekFrom};

use pyo3::prelude::*;

/// The class of a line, for the boundary rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    Tag,
    Blank,
    Neutral,
    Other,
}

fn classify(line: &[u8]) -> Line {
    let content = line.strip_suffix(b"\n").unwrap_or(line);
    match content.first() {
        Some(b'[') => Line::Tag,
        Some(b'%') => Line::Neutral,
        _ if content.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | 0x0c)) => Line::Blank,
        _ if content.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)) => Line::Neutral,
        _ => Line::Other,
    }
}

/// The first game boundary at or after the line following byte `from`,
/// or `None` before the end of the file.
fn next_boundary<R: BufRead + Seek>(reader: &mut R, from: u64) -> io::Result<Option<u64>> {
    reader.seek(SeekFrom::Start(from))?;
    let mut line = Vec::new();
    // The rest of the line `from` falls in (its class is unknown).
    let mut at = from + reader.read_until(b'\n', &mut line)? as u64;
    let mut previous: Option<Line> = None;
    let mut blank_since = false;
    loop {
        line.clear();
        let len = reader.read_until(b'\n', &mut line)? as u64;
        if len == 0 {
            return Ok(None);
        }
        match classify(&line) {
            Line::Tag => {
                if previous == Some(Line::Other) || (previous == Some(Line::Tag) && blank_since) {
                    return Ok(Some(at));
                }
                previous = Some(Line::Tag);
                blank_since = false;
            }
            Line::Blank => blank_since = true,
            Line::Neutral => {}
            Line::Other => {
                previous = Some(Line::Other);
                blank_since = false;
            }
        }
        at += len;
    }
}

/// The start offsets of the ranges of `path`, about `chunk_bytes` apart
/// and on game boundaries, followed by the file's size: range `i` is
/// `offsets[i]..offsets[i + 1]`.
#[pyfunction]
pub fn _pgn_boundaries(path: &str, chunk_bytes: u64) -> PyResult<Vec<u64>> {
    let chunk = chunk_bytes.max(1);
    let file = File::open(path).map_err(|e| pyo3::exceptions::PyIOError::new_err(format!("{path}: {e}")))?;
    let size = file.metadata().map_err(|e| pyo3::exceptions::PyIOError::new_err(format!("{path}: {e}")))?.len();
    let mut reader = BufReader::with_capacity(64 << 10, file);
    let mut offsets = vec![0];
    let mut target = chunk;
    while target < size {
        let found = next_boundary(&mut reader, target)
            .map_err(|e| pyo3::exceptions::PyIOError::new_err(format!("{path}: {e}")))?;
        let Some(boundary) = found else { break };
        if boundary > *offsets.last().unwrap_or(&0) && boundary < size {
            offsets.push(boundary);
        }
        target = boundary.max(target) + chunk;
    }
    offsets.push(size);
    Ok(offsets)
}
