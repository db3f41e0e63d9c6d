//! [`game_boundaries`]: byte offsets of a seekable PGN file at which
//! [`Splitter`] starts a game, found by reading a few games from any
//! byte, so that the file can be cut into ranges read on their own (one
//! task each, as the Python package's Dask path does) with exactly the
//! games, numbers, offsets and texts of the whole file.
//!
//! # Why the splitter itself finds them
//!
//! A `[` at the start of a line (after a newline) leaves the splitter in
//! the same state whatever came before it: either it ends the game being
//! cut (movetext, two blank lines after the tags, or a comment or
//! variation open across lines: see the splitter's rules) and starts a
//! fresh one, or it does not, and then the game has tag pairs, no
//! movetext, hence no open comment or variation, and the `[` resets the
//! blank lines after the tags. Either way the splitter is in a tag line of
//! a game with tag pairs and nothing else pending. So a fresh splitter
//! started at such a `[` (a *sync point*) makes the same cuts after it as
//! the splitter of the whole file; only whether a game starts at the sync
//! point itself is unknown. The next game it starts after the sync point is
//! a game of the whole file too.
//!
//! Such a game start is taken as a boundary when it is itself a `[` at the
//! start of a line: there the whole-file splitter is in the state of a
//! fresh one after reading the `[` (a game starting after a termination
//! marker and whitespace or escape lines has read nothing that a fresh
//! splitter would not). A game starting elsewhere (after a termination
//! marker in the middle of a line) is passed over, and the search goes on
//! from the next sync point.
//!
//! The game before a boundary ends at the same byte in both readings (the
//! end of the range, or the cut), and bytes between games belong to no
//! game in both. The tests cut files at every chunk size and compare.

use std::io::{self, BufRead, Read, Seek, SeekFrom};

use super::Splitter;

/// The offset of the first `[` at the start of a line after the line
/// holding byte `from`, or `None` before the end.
fn next_sync_point<R: BufRead + Seek>(reader: &mut R, from: u64) -> io::Result<Option<u64>> {
    reader.seek(SeekFrom::Start(from))?;
    let mut line = Vec::new();
    let mut at = from + reader.read_until(b'\n', &mut line)? as u64;
    loop {
        line.clear();
        let len = reader.read_until(b'\n', &mut line)? as u64;
        if len == 0 {
            return Ok(None);
        }
        if line[0] == b'[' {
            return Ok(Some(at));
        }
        at += len;
    }
}

/// Whether the byte at `offset` is a `[` starting a line.
fn starts_tag_line<R: Read + Seek>(reader: &mut R, offset: u64) -> io::Result<bool> {
    let mut bytes = [0; 2];
    reader.seek(SeekFrom::Start(offset - 1))?;
    reader.read_exact(&mut bytes)?;
    Ok(bytes == *b"\n[")
}

/// The first offset after the line holding byte `from` at which the
/// splitter starts a game, a `[` at the start of a line, or `None` before
/// the end.
pub fn next_game_start<R: BufRead + Seek>(reader: &mut R, from: u64) -> io::Result<Option<u64>> {
    let mut from = from;
    loop {
        let Some(sync) = next_sync_point(reader, from)? else { return Ok(None) };
        reader.seek(SeekFrom::Start(sync))?;
        // Only offsets matter: keep one byte of each game.
        let mut splitter = Splitter::with_limit(&mut *reader, 1);
        // The game cut at the sync point (perhaps the end of a game).
        splitter.next_game()?;
        let Some(game) = splitter.next_game()? else { return Ok(None) };
        let start = sync + game.offset;
        if starts_tag_line(reader, start)? {
            return Ok(Some(start));
        }
        from = start;
    }
}

/// The start offsets of ranges of `reader` (a PGN stream of `size` bytes,
/// not compressed) about `chunk` bytes apart on game boundaries, followed
/// by `size`: range `i` is `offsets[i]..offsets[i + 1]`, and the games of
/// the ranges, one after the other, are the games of the whole stream.
pub fn game_boundaries<R: BufRead + Seek>(reader: &mut R, size: u64, chunk: u64) -> io::Result<Vec<u64>> {
    let chunk = chunk.max(1);
    let mut offsets = vec![0];
    let mut target = chunk;
    while target < size {
        let Some(boundary) = next_game_start(reader, target)? else { break };
        if boundary > *offsets.last().unwrap_or(&0) && boundary < size {
            offsets.push(boundary);
        }
        target = boundary.max(target) + chunk;
    }
    offsets.push(size);
    Ok(offsets)
}
