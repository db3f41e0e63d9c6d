//! Opening inputs: a file or standard input, plain or compressed, holding
//! PGN or `FEN moves...` lines ([`fen_line`](crate::fen_line)).
//!
//! Everything is recognised by content, whatever the file's name:
//!
//! * the compression by its magic number ([`Compression`]): zstd, gzip
//!   (several members too, as `bgzip` and concatenated files write them)
//!   and bzip2 (several streams too) are decompressed as they are read, so
//!   memory does not grow with the file (a zstd frame may ask for a window
//!   of at most [`ZSTD_WINDOW_LOG_MAX`]); formats that are not read (xz,
//!   lz4, zip, 7z, and a tar archive inside any of them) are named in an
//!   [`io::ErrorKind::InvalidData`] error that says how to unpack them;
//! * PGN or `FEN moves...` lines by the first token ([`sniff`]).
//!
//! A compressed file cut short is an error at the point where it ends (the
//! decoders check the end of each frame, member or stream).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The first four bytes of a zstd frame.
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// The first two bytes of a gzip member.
pub const GZIP_MAGIC: [u8; 2] = [0x1F, 0x8B];

/// The first three bytes of a bzip2 stream (then the block size, `1`-`9`).
pub const BZIP2_MAGIC: [u8; 3] = *b"BZh";

/// The largest zstd window accepted, as a power of two (128 MiB: the
/// limit of the `zstd` command itself without `--memory`).
pub const ZSTD_WINDOW_LOG_MAX: u32 = 27;

/// Formats recognised but not read: magic number, name, how to unpack.
const NOT_READ: [(&[u8], &str, &str); 4] = [
    (&[0xFD, b'7', b'z', b'X', b'Z', 0x00], "xz-compressed input", "decompress it first (xz -d)"),
    (&[0x04, 0x22, 0x4D, 0x18], "lz4-compressed input", "decompress it first (lz4 -d)"),
    (b"PK\x03\x04", "a zip archive", "extract it first (unzip)"),
    (&[b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C], "a 7z archive", "extract it first (7z x)"),
];

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

/// How an input was compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Not compressed.
    None,
    /// zstd.
    Zstd,
    /// gzip (DEFLATE).
    Gzip,
    /// bzip2.
    Bzip2,
}

impl Compression {
    /// The compression `start` (the first bytes of a stream) begins with.
    pub fn of(start: &[u8]) -> Compression {
        if start.starts_with(&ZSTD_MAGIC) {
            Compression::Zstd
        } else if start.starts_with(&GZIP_MAGIC) {
            Compression::Gzip
        } else if start.starts_with(&BZIP2_MAGIC) && start.get(3).is_some_and(|b| (b'1'..=b'9').contains(b)) {
            Compression::Bzip2
        } else {
            Compression::None
        }
    }
}

/// An opened input.
pub struct Input {
    /// The (decompressed) text.
    pub reader: Box<dyn BufRead + Send>,
    /// What it holds.
    pub kind: Kind,
    /// How it was compressed.
    pub compression: Compression,
}

impl core::fmt::Debug for Input {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Input").field("kind", &self.kind).field("compression", &self.compression).finish()
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
/// added to `count`. A file that cannot be opened gives an error saying
/// `cannot open: ...`; one whose start cannot be read or decompressed, an
/// error saying why.
pub fn open_path(path: &Path, count: Arc<AtomicU64>) -> io::Result<Input> {
    if path.as_os_str() == "-" {
        open(Counting::new(io::stdin(), count))
    } else {
        let file = File::open(path).map_err(|e| io::Error::new(e.kind(), format!("cannot open: {e}")))?;
        open(Counting::new(file, count))
    }
}

/// The error for a format that is not read.
fn not_read(what: &str, how: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{what} is not supported; {how}"))
}

/// Opens a byte stream: decompresses it if it is compressed, and tells PGN
/// from FEN lines.
pub fn open<R: Read + Send + 'static>(raw: R) -> io::Result<Input> {
    let mut raw = BufReader::with_capacity(BUFFER, raw);
    let start = peek(&mut raw)?;
    if let Some((_, what, how)) = NOT_READ.iter().find(|(magic, _, _)| start.starts_with(magic)) {
        return Err(not_read(what, how));
    }
    let compression = Compression::of(start);
    let mut reader: Box<dyn BufRead + Send> = match compression {
        Compression::None => Box::new(raw),
        Compression::Zstd => {
            let mut decoder = zstd::stream::read::Decoder::with_buffer(raw)?;
            decoder.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
            Box::new(BufReader::with_capacity(BUFFER, decoder))
        }
        Compression::Gzip => Box::new(BufReader::with_capacity(BUFFER, flate2::bufread::MultiGzDecoder::new(raw))),
        Compression::Bzip2 => Box::new(BufReader::with_capacity(BUFFER, bzip2::bufread::MultiBzDecoder::new(raw))),
    };
    let text = peek(&mut reader)?;
    if compression != Compression::None && is_tar(text) {
        return Err(not_read("a tar archive", "extract it first (tar -xf)"));
    }
    if compression != Compression::None {
        if let Some((_, what, how)) = NOT_READ.iter().find(|(magic, _, _)| text.starts_with(magic)) {
            return Err(not_read(what, how));
        }
    }
    let kind = sniff(text);
    Ok(Input { reader, kind, compression })
}

/// Whether `start` is the first block of a tar archive (`ustar` at 257).
fn is_tar(start: &[u8]) -> bool {
    start.get(257..262) == Some(b"ustar")
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const PGN: &[u8] = b"[Event \"a\"]\n\n1. e4 e5 1-0\n";

    fn read_all(input: Input) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut reader = input.reader;
        reader.read_to_end(&mut out)?;
        Ok(out)
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    fn bzip2(data: &[u8]) -> Vec<u8> {
        let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// Item 9 of issue 11: gzip and bzip2 are read (they were parsed as
    /// PGN), by content; several members or streams one after the other.
    #[test]
    fn compressed_inputs_are_read() {
        let zstd = zstd::encode_all(PGN, 3).unwrap();
        for (bytes, compression) in [
            (PGN.to_vec(), Compression::None),
            (zstd, Compression::Zstd),
            (gzip(PGN), Compression::Gzip),
            (bzip2(PGN), Compression::Bzip2),
        ] {
            let input = open(io::Cursor::new(bytes)).unwrap();
            assert_eq!((input.compression, input.kind), (compression, Kind::Pgn));
            assert_eq!(read_all(input).unwrap(), PGN, "{compression:?}");
        }
        let twice = [gzip(PGN), gzip(PGN)].concat();
        assert_eq!(read_all(open(io::Cursor::new(twice)).unwrap()).unwrap(), [PGN, PGN].concat());
        let twice = [bzip2(PGN), bzip2(PGN)].concat();
        assert_eq!(read_all(open(io::Cursor::new(twice)).unwrap()).unwrap(), [PGN, PGN].concat());
        let lines = gzip(b"startpos e2e4 *\n");
        assert_eq!(open(io::Cursor::new(lines)).unwrap().kind, Kind::FenLines);
    }

    /// A compressed file cut short is a read error, not a shorter file.
    #[test]
    fn cut_compressed_inputs_are_errors() {
        let text: Vec<u8> =
            (0..20_000u32).flat_map(|n| format!("[Event \"{n}\"]\n\n1. e4 *\n\n").into_bytes()).collect();
        for bytes in [gzip(&text), bzip2(&text), zstd::encode_all(&text[..], 3).unwrap()] {
            let cut = bytes[..bytes.len() / 2].to_vec();
            // At the first read, or later: an error either way.
            let error = open(io::Cursor::new(cut)).and_then(read_all).unwrap_err();
            assert!(!error.to_string().is_empty());
        }
    }

    #[test]
    fn formats_not_read_are_named() {
        for (start, message) in [
            (
                &[0xFD, b'7', b'z', b'X', b'Z', 0x00, 0, 4][..],
                "xz-compressed input is not supported; decompress it first (xz -d)",
            ),
            (
                &[0x04, 0x22, 0x4D, 0x18, 0x64][..],
                "lz4-compressed input is not supported; decompress it first (lz4 -d)",
            ),
            (b"PK\x03\x04\x14\x00", "a zip archive is not supported; extract it first (unzip)"),
            (&[b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, 0][..], "a 7z archive is not supported; extract it first (7z x)"),
        ] {
            let error = open(io::Cursor::new(start.to_vec())).unwrap_err();
            assert_eq!((error.kind(), error.to_string()), (io::ErrorKind::InvalidData, message.to_string()));
        }
        let mut tar = vec![0u8; 512];
        tar[..8].copy_from_slice(b"game.pgn");
        tar[257..263].copy_from_slice(b"ustar\0");
        let error = open(io::Cursor::new(gzip(&tar))).unwrap_err();
        assert_eq!(error.to_string(), "a tar archive is not supported; extract it first (tar -xf)");
    }
}
