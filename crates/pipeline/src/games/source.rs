//! Reading the inputs of `adjudicate` into batches of games: each input is
//! opened in turn (files, `-` for standard input, byte ranges of files,
//! readers and texts handed over by a front end; compression and PGN or
//! `FEN moves...` lines recognised by content, see [`adjudicate::input`]),
//! cut into games ([`Splitter`]) or lines ([`LineReader`]), and the games
//! are grouped into batches (tens of thousands of games a second would
//! drown a job per game).
//!
//! A batch holds at most [`BATCH_GAMES`] games and is closed once its text
//! reaches the batch size of the memory plan; its cost for the window is
//! three times its text (the text, the parsed games, the records).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use adjudicate::fen_line::is_skipped;
use adjudicate::input::{Counting, Input, Kind, open, open_path};
use adjudicate::pgn::{RawGame, Splitter};

use crate::lines::{Line, LineReader, MAX_LINE};
use crate::ordered::Source;

/// The most games in one batch.
pub const BATCH_GAMES: usize = 256;

/// Buffer size of the readers of byte ranges.
const RANGE_BUFFER: usize = 256 << 10;

/// One unit of work.
#[derive(Debug)]
#[non_exhaustive]
pub enum Item {
    /// The text of a PGN game.
    Pgn(RawGame),
    /// A `FEN moves...` line, or why it cannot be read.
    Line {
        /// Its line number.
        number: u64,
        /// Its byte offset.
        offset: u64,
        /// The line.
        text: Result<String, String>,
    },
    /// A game that cannot be read (a text that holds no game, or several).
    Unreadable {
        /// Its number.
        game: u64,
        /// Its byte offset.
        offset: u64,
        /// Why.
        error: String,
    },
    /// An input that could not be opened or read further: the run fails.
    InputError {
        /// The number of the game being read (0: the input itself).
        game: u64,
        /// The byte offset where reading stopped.
        offset: u64,
        /// Why.
        error: String,
    },
}

impl Item {
    /// The item's game number and byte offset.
    pub fn position(&self) -> (u64, u64) {
        match self {
            Item::Pgn(raw) => (raw.number, raw.offset),
            Item::Line { number, offset, .. } => (*number, *offset),
            Item::Unreadable { game, offset, .. } | Item::InputError { game, offset, .. } => (*game, *offset),
        }
    }

    /// The bytes of text the item holds.
    fn text_len(&self) -> usize {
        match self {
            Item::Pgn(raw) => raw.bytes.len(),
            Item::Line { text: Ok(text), .. } => text.len(),
            _ => 0,
        }
    }
}

/// Games of one input, for a worker.
#[derive(Debug)]
pub struct Batch {
    /// The input's name (`-` for standard input).
    pub input: Arc<str>,
    /// The games.
    pub items: Vec<Item>,
}

/// Where games come from.
#[non_exhaustive]
pub enum GameSource {
    /// A file (`-`: standard input), plain or compressed.
    Path(PathBuf),
    /// Bytes `start..end` of a plain PGN file, both on game boundaries
    /// ([`adjudicate::pgn::game_boundaries`]), whose first game is game
    /// number `first_game` of the file: the offsets and numbers of its
    /// games are those of the whole file.
    Range {
        /// The file.
        path: PathBuf,
        /// The first byte.
        start: u64,
        /// The byte after the last.
        end: u64,
        /// The number of the range's first game in the file.
        first_game: u64,
    },
    /// A byte stream named `name` (a request's body, a Python file object,
    /// text in memory), plain or compressed.
    Reader {
        /// The name in the records.
        name: String,
        /// The bytes.
        reader: Box<dyn Read + Send>,
    },
    /// Text already read (a chunk of a decompressed file), named `name`,
    /// whose first byte is at `start` in its input and whose first game is
    /// game number `first_game`: the offsets and numbers of its games are
    /// those of the whole input. Plain text (not decompressed again).
    Chunk {
        /// The name in the records.
        name: String,
        /// The text, from a game boundary to the next chunk's.
        text: Vec<u8>,
        /// The offset of its first byte in its input.
        start: u64,
        /// The number of its first game in its input.
        first_game: u64,
    },
    /// One game per text (the rows of a table), numbered from 1, named
    /// `name`: a text that holds no game or more than one is an error
    /// record.
    Texts {
        /// The name in the records.
        name: String,
        /// The texts.
        texts: Vec<Vec<u8>>,
    },
}

impl core::fmt::Debug for GameSource {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GameSource::Path(path) => f.debug_tuple("Path").field(path).finish(),
            GameSource::Range { path, start, end, first_game } => f
                .debug_struct("Range")
                .field("path", path)
                .field("start", start)
                .field("end", end)
                .field("first_game", first_game)
                .finish(),
            GameSource::Reader { name, .. } => f.debug_struct("Reader").field("name", name).finish_non_exhaustive(),
            GameSource::Texts { name, texts } => {
                f.debug_struct("Texts").field("name", name).field("texts", &texts.len()).finish()
            }
            GameSource::Chunk { name, text, start, first_game } => f
                .debug_struct("Chunk")
                .field("name", name)
                .field("bytes", &text.len())
                .field("start", start)
                .field("first_game", first_game)
                .finish(),
        }
    }
}

/// The reader of an opened input.
enum Reader {
    Pgn(Splitter<Box<dyn io::BufRead + Send>>),
    Lines(LineReader<Box<dyn io::BufRead + Send>>),
    Texts(std::vec::IntoIter<Vec<u8>>),
}

/// An opened input: its reader, and how its games' offsets and numbers
/// are shifted (a byte range of a file).
struct Opened {
    name: Arc<str>,
    reader: Reader,
    base_offset: u64,
    base_number: u64,
    /// The texts read so far (a [`Reader::Texts`]).
    texts_read: u64,
}

impl Opened {
    fn new(name: Arc<str>, reader: Reader) -> Opened {
        Opened { name, reader, base_offset: 0, base_number: 0, texts_read: 0 }
    }

    /// Bytes of text consumed so far (the games', and all between them).
    fn consumed(&self) -> u64 {
        match &self.reader {
            Reader::Pgn(splitter) => splitter.offset(),
            Reader::Lines(lines) => lines.consumed(),
            Reader::Texts(_) => 0,
        }
    }
}

impl Reader {
    /// The reader of the games or lines of `input`.
    fn of(input: Input) -> Reader {
        match input.kind {
            Kind::Pgn => Reader::Pgn(Splitter::new(input.reader)),
            Kind::FenLines => Reader::Lines(LineReader::new(input.reader)),
        }
    }
}

/// The inputs, read one after the other into batches.
pub struct Inputs {
    sources: VecDeque<GameSource>,
    current: Option<Opened>,
    batch_bytes: usize,
    /// Bytes read from the files (compressed, for compressed files).
    raw: Arc<AtomicU64>,
    /// Bytes of text read (decompressed): the games, the lines and all
    /// between them.
    text: Arc<AtomicU64>,
}

impl core::fmt::Debug for Inputs {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Inputs").field("sources", &self.sources).field("batch_bytes", &self.batch_bytes).finish()
    }
}

impl Inputs {
    /// Reads `sources` in turn, in batches of about 1 MiB of text (see
    /// [`Inputs::batch_bytes`]).
    pub fn new(sources: impl IntoIterator<Item = GameSource>) -> Inputs {
        Inputs {
            sources: sources.into_iter().collect(),
            current: None,
            batch_bytes: 1 << 20,
            raw: Arc::default(),
            text: Arc::default(),
        }
    }

    /// Reads the files `paths` (`-` is standard input; none: standard input).
    pub fn paths(paths: &[PathBuf]) -> Inputs {
        if paths.is_empty() {
            return Inputs::new([GameSource::Path(PathBuf::from("-"))]);
        }
        Inputs::new(paths.iter().cloned().map(GameSource::Path))
    }

    /// Reads `bytes` (PGN or `FEN moves...` lines, plain or compressed),
    /// named `name`.
    pub fn from_bytes(name: &str, bytes: Vec<u8>) -> Inputs {
        Inputs::new([GameSource::Reader { name: name.to_string(), reader: Box::new(io::Cursor::new(bytes)) }])
    }

    /// Reads `input`, already opened (a request's body), named `name`.
    pub fn from_input(name: &str, input: Input) -> Inputs {
        let mut inputs = Inputs::new([]);
        inputs.current = Some(Opened::new(name.into(), Reader::of(input)));
        inputs
    }

    /// Batches of about `bytes` bytes of text (at least 1).
    pub fn batch_bytes(mut self, bytes: usize) -> Inputs {
        self.batch_bytes = bytes.max(1);
        self
    }

    /// Counts the bytes read from the files into `raw` (compressed, for
    /// compressed files: a progress display's position) and the bytes of
    /// text into `text`.
    pub fn counting(mut self, raw: Arc<AtomicU64>, text: Arc<AtomicU64>) -> Inputs {
        self.raw = raw;
        self.text = text;
        self
    }

    /// The counter of the bytes of text read (see [`Inputs::counting`]).
    pub fn text_counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.text)
    }

    /// The counter of the bytes read from the files (see
    /// [`Inputs::counting`]).
    pub fn raw_counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.raw)
    }

    /// The total size of the files and ranges, if every source is one
    /// whose size is known (a progress display's end).
    pub fn total_bytes(&self) -> Option<u64> {
        self.sources
            .iter()
            .map(|source| match source {
                GameSource::Path(path) => std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len()),
                GameSource::Range { start, end, .. } => Some(end.saturating_sub(*start)),
                GameSource::Texts { texts, .. } => Some(texts.iter().map(|t| t.len() as u64).sum()),
                GameSource::Chunk { text, .. } => Some(text.len() as u64),
                GameSource::Reader { .. } => None,
            })
            .sum()
    }

    /// Opens `source`: the input, or the error record of the input.
    fn open(&self, source: GameSource) -> Result<Opened, Batch> {
        let failed = |name: Arc<str>, error: io::Error| Batch {
            input: name,
            items: vec![Item::InputError { game: 0, offset: 0, error: error.to_string() }],
        };
        match source {
            GameSource::Path(path) => {
                let name: Arc<str> =
                    if path.as_os_str() == "-" { "-".into() } else { path.display().to_string().into() };
                match open_path(&path, Arc::clone(&self.raw)) {
                    Ok(input) => Ok(Opened::new(name, Reader::of(input))),
                    Err(e) => Err(failed(name, e)),
                }
            }
            GameSource::Range { path, start, end, first_game } => {
                let name: Arc<str> = path.display().to_string().into();
                let opened = File::open(&path)
                    .map_err(|e| io::Error::new(e.kind(), format!("cannot open: {e}")))
                    .and_then(|mut file| {
                        file.seek(SeekFrom::Start(start))?;
                        let counted = Counting::new(file.take(end.saturating_sub(start)), Arc::clone(&self.raw));
                        Ok(Box::new(BufReader::with_capacity(RANGE_BUFFER, counted)) as Box<dyn io::BufRead + Send>)
                    });
                match opened {
                    Ok(reader) => Ok(Opened {
                        base_offset: start,
                        base_number: first_game.max(1) - 1,
                        ..Opened::new(name, Reader::Pgn(Splitter::new(reader)))
                    }),
                    Err(e) => Err(failed(name, e)),
                }
            }
            GameSource::Reader { name, reader } => {
                let name: Arc<str> = name.into();
                match open(Counting::new(reader, Arc::clone(&self.raw))) {
                    Ok(input) => Ok(Opened::new(name, Reader::of(input))),
                    Err(e) => Err(failed(name, e)),
                }
            }
            GameSource::Texts { name, texts } => Ok(Opened::new(name.into(), Reader::Texts(texts.into_iter()))),
            GameSource::Chunk { name, text, start, first_game } => {
                let counted = Counting::new(io::Cursor::new(text), Arc::clone(&self.raw));
                let reader: Box<dyn io::BufRead + Send> = Box::new(BufReader::with_capacity(RANGE_BUFFER, counted));
                Ok(Opened {
                    base_offset: start,
                    base_number: first_game.max(1) - 1,
                    ..Opened::new(name.into(), Reader::Pgn(Splitter::new(reader)))
                })
            }
        }
    }

    /// The next batch, `None` when every input is read.
    pub fn next_batch(&mut self) -> Option<Batch> {
        loop {
            let Some(opened) = &mut self.current else {
                let source = self.sources.pop_front()?;
                match self.open(source) {
                    Ok(opened) => {
                        self.current = Some(opened);
                        continue;
                    }
                    Err(batch) => return Some(batch),
                }
            };
            let (items, finished) = fill(opened, self.batch_bytes, &self.text);
            let batch = Batch { input: Arc::clone(&opened.name), items };
            if finished {
                self.current = None;
            }
            if !batch.items.is_empty() {
                return Some(batch);
            }
        }
    }
}

/// Up to a batch of items from `opened`, and whether its input is finished;
/// the bytes of text consumed are added to `counted` (the summary's MB/s
/// are of the whole text, not only of the games kept).
fn fill(opened: &mut Opened, batch_bytes: usize, counted: &AtomicU64) -> (Vec<Item>, bool) {
    let before = opened.consumed();
    let filled = fill_items(opened, batch_bytes);
    counted.fetch_add(opened.consumed().saturating_sub(before), Ordering::Relaxed);
    filled
}

/// The one game of `text`, numbered `number`.
fn one_game(text: &[u8], number: u64) -> Item {
    let mut splitter = Splitter::new(text);
    let error = |error: &str| Item::Unreadable { game: number, offset: 0, error: error.to_string() };
    match (splitter.next_game(), splitter.next_game()) {
        (Ok(Some(mut raw)), Ok(None)) => {
            raw.number = number;
            Item::Pgn(raw)
        }
        (Ok(None), _) => error("no game in the text"),
        (Ok(Some(_)), Ok(Some(_))) => error("the text holds more than one game"),
        (Err(e), _) | (_, Err(e)) => error(&e.to_string()),
    }
}

/// Up to a batch of items from `opened`, and whether its input is finished.
fn fill_items(opened: &mut Opened, batch_bytes: usize) -> (Vec<Item>, bool) {
    let mut items = Vec::new();
    let mut bytes = 0;
    let (base_offset, base_number) = (opened.base_offset, opened.base_number);
    while items.len() < BATCH_GAMES && bytes < batch_bytes {
        let (item, len) = match &mut opened.reader {
            Reader::Pgn(splitter) => match splitter.next_game() {
                Ok(Some(mut raw)) => {
                    raw.offset += base_offset;
                    raw.number += base_number;
                    let len = raw.bytes.len();
                    (Item::Pgn(raw), len)
                }
                Ok(None) => return (items, true),
                Err(e) => {
                    let error = format!("read error: {e}");
                    let game = items.last().map_or(0, |item: &Item| item.position().0);
                    let offset = base_offset + splitter.offset();
                    items.push(Item::InputError { game, offset, error });
                    return (items, true);
                }
            },
            Reader::Lines(lines) => match lines.next_line() {
                Ok(Some((number, line))) => {
                    let (number, offset) = (number as u64, lines.offset());
                    let (text, len) = match line {
                        Line::Text(text) if is_skipped(&text) => continue,
                        Line::Text(text) => {
                            let len = text.len();
                            (Ok(text.trim().to_string()), len)
                        }
                        Line::TooLong { len, .. } => {
                            (Err(format!("line too long ({len} bytes, at most {MAX_LINE})")), 0)
                        }
                        Line::NotUtf8 { .. } => (Err("the line is not valid UTF-8 text".to_string()), 0),
                    };
                    (Item::Line { number, offset, text }, len)
                }
                Ok(None) => return (items, true),
                Err(e) => {
                    let error = format!("read error: {e}");
                    items.push(Item::InputError { game: 0, offset: lines.offset(), error });
                    return (items, true);
                }
            },
            Reader::Texts(texts) => match texts.next() {
                Some(text) => {
                    opened.texts_read += 1;
                    (one_game(&text, opened.texts_read), text.len())
                }
                None => return (items, true),
            },
        };
        bytes += len;
        items.push(item);
    }
    (items, false)
}

/// The extra cost of a batch in the window, beyond three times its text.
const BATCH_OVERHEAD: usize = 64 << 10;

impl Source for Inputs {
    type Item = Batch;
    fn next_item(&mut self) -> io::Result<Option<(Batch, usize)>> {
        Ok(self.next_batch().map(|batch| {
            let text: usize = batch.items.iter().map(Item::text_len).sum();
            (batch, 3 * text + BATCH_OVERHEAD)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(mut inputs: Inputs) -> Vec<(Arc<str>, Item)> {
        let mut items = Vec::new();
        while let Some(batch) = inputs.next_batch() {
            items.extend(batch.items.into_iter().map(|item| (Arc::clone(&batch.input), item)));
        }
        items
    }

    /// Issue 33: the text counted (the summary's MB/s) is every byte read,
    /// not only the games' (here a long comment line comes first).
    #[test]
    fn every_byte_of_text_is_counted() {
        for text in [
            format!("{}[Event \"a\"]\n\n1. e4 e5 1/2-1/2\n\n\n", "; a comment line before the game\n".repeat(3_000)),
            format!("{}\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2\n", "# a comment line\n".repeat(6_000)),
        ] {
            let counted = Arc::new(AtomicU64::new(0));
            let input = adjudicate::input::open(io::Cursor::new(text.clone().into_bytes())).unwrap();
            let inputs = Inputs::from_input("t", input).counting(Arc::default(), Arc::clone(&counted));
            assert_eq!(all(inputs).len(), 1, "{}", &text[text.len() - 60..]);
            assert_eq!(counted.load(Ordering::Relaxed), text.len() as u64);
        }
    }

    /// Texts are one game each; a byte range's games keep the numbers and
    /// offsets of the whole file.
    #[test]
    fn texts_and_ranges() {
        let texts = vec![b"1. e4 e5 1-0".to_vec(), Vec::new(), b"1. e4 1-0\n\n1. d4 0-1".to_vec()];
        let items = all(Inputs::new([GameSource::Texts { name: "t".into(), texts }]));
        let got: Vec<String> = items
            .iter()
            .map(|(_, item)| match item {
                Item::Pgn(raw) => format!("game {}", raw.number),
                Item::Unreadable { game, error, .. } => format!("{game}: {error}"),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(got, ["game 1", "2: no game in the text", "3: the text holds more than one game"]);
        let dir = std::env::temp_dir().join(format!("pipeline-ranges-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        let text = "[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 0-1\n\n[Event \"c\"]\n\n1. c4 *\n";
        std::fs::write(&path, text).unwrap();
        let start = text.find("[Event \"b\"]").unwrap() as u64;
        let items =
            all(Inputs::new([GameSource::Range { path: path.clone(), start, end: text.len() as u64, first_game: 2 }]));
        let positions: Vec<(u64, u64)> = items.iter().map(|(_, item)| item.position()).collect();
        assert_eq!(positions, [(2, start), (3, text.find("[Event \"c\"]").unwrap() as u64)]);
        let whole: Vec<(u64, u64)> = all(Inputs::paths(&[path])).iter().map(|(_, item)| item.position()).collect();
        assert_eq!(&whole[1..], &positions[..]);
        let _ = std::fs::remove_dir_all(dir);
    }
}
