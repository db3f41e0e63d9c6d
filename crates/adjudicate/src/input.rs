//! Opening inputs: a file or standard input, plain or zstd-compressed
//! (recognised by its magic number, whatever the name), holding PGN or
//! `FEN moves...` lines ([`fen_line`](crate::fen_line)), told apart by the
//! first token. Decompression streams: memory does not grow with the file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The first four bytes of a zstd frame.
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Buffer size of the readers.
const BUFFER: usize = 256 << 10;

/// What an input holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// PGN games.
    Pgn,
    /// One game per line: `FEN [moves] MOVE... [RESULT]`.
    FenLines,
}

/// An opened input.
pub struct Input {
    /// The (decompressed) text.
    pub reader: Box<dyn BufRead + Send>,
    /// What it holds.
    pub kind: Kind,
    /// Whether it was zstd-compressed.
    pub compressed: bool,
}

impl core::fmt::Debug for Input {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Input").field("kind", &self.kind).field("compressed", &self.compressed).finish()
    }
}

/// A reader that counts the bytes read through it (the compressed bytes,
/// for a progress display).
#[derive(Debug)]
pub struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R> Counting<R> {
    /// Counts the bytes read from `inner` into `count`.
    pub fn new(inner: R, count: Arc<AtomicU64>) -> Counting<R> {
        Counting { inner, count }
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens `path` (`-` is standard input); bytes read from the file are
/// added to `count`.
pub fn open_path(path: &Path, count: Arc<AtomicU64>) -> io::Result<Input> {
    if path.as_os_str() == "-" {
        open(Counting::new(io::stdin(), count))
    } else {
        open(Counting::new(File::open(path)?, count))
    }
}

/// Opens a byte stream: decompresses it if it is zstd, and tells PGN from
/// FEN lines.
pub fn open<R: Read + Send + 'static>(raw: R) -> io::Result<Input> {
    let mut raw = BufReader::with_capacity(BUFFER, raw);
    let compressed = peek(&mut raw)?.starts_with(&ZSTD_MAGIC);
    let mut reader: Box<dyn BufRead + Send> = if compressed {
        Box::new(BufReader::with_capacity(BUFFER, zstd::stream::read::Decoder::with_buffer(raw)?))
    } else {
        Box::new(raw)
    };
    let kind = sniff(peek(&mut reader)?);
    Ok(Input { reader, kind, compressed })
}

/// The start of `reader`'s input, without consuming it (what one
/// `fill_buf` gives: a pipe may deliver less than a file; the first token
/// decides on what is there).
fn peek<R: BufRead + ?Sized>(reader: &mut R) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            _ => break,
        }
    }
    reader.fill_buf()
}

/// PGN unless the first token looks like a FEN board (`.../...`) or is
/// `startpos`.
pub fn sniff(start: &[u8]) -> Kind {
    let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
    let mut lines = start.split(|&b| b == b'\n');
    let first = lines
        .find(|line| {
            let line = line.trim_ascii();
            !line.is_empty() && !line.starts_with(b"#")
        })
        .unwrap_or_default();
    let token = first.trim_ascii().split(|b| b.is_ascii_whitespace()).next().unwrap_or_default();
    if token == b"startpos" || (token.contains(&b'/') && !token.starts_with(b"[") && !token.contains(&b'.')) {
        Kind::FenLines
    } else {
        Kind::Pgn
    }
}
