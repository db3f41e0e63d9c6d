//! Reading the inputs of `adjudicate` into batches of games: each input is
//! opened in turn (files, `-` for standard input; compression and PGN or
//! `FEN moves...` lines recognised by content, see
//! [`adjudicate::input`]), cut into games ([`Splitter`]) or lines
//! ([`LineReader`]), and the games are grouped into batches (tens of
//! thousands of games a second would drown a job per game).
//!
//! A batch holds at most [`BATCH_GAMES`] games and is closed once its text
//! reaches the batch size of the memory plan; its cost for the window is
//! three times its text (the text, the parsed games, the records).

use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use adjudicate::fen_line::is_skipped;
use adjudicate::input::{Input, Kind, open_path};
use adjudicate::pgn::{RawGame, Splitter};

use crate::input::{Line, LineReader, MAX_LINE};
use crate::ordered::Source;

/// The most games in one batch.
pub const BATCH_GAMES: usize = 256;

/// One unit of work.
#[derive(Debug)]
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

/// Games of one input, for a worker.
#[derive(Debug)]
pub struct Batch {
    /// The input's name (`-` for standard input).
    pub input: Arc<str>,
    /// The games.
    pub items: Vec<Item>,
}

/// The reader of an opened input.
enum Reader {
    Pgn(Splitter<Box<dyn io::BufRead + Send>>),
    Lines(LineReader<Box<dyn io::BufRead + Send>>),
}

impl Reader {
    /// Bytes of text consumed so far (the games', and all between them).
    fn consumed(&self) -> u64 {
        match self {
            Reader::Pgn(splitter) => splitter.offset(),
            Reader::Lines(lines) => lines.consumed(),
        }
    }

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
    paths: std::vec::IntoIter<PathBuf>,
    current: Option<(Arc<str>, Reader)>,
    batch_bytes: usize,
    /// Bytes read from the files (compressed, for compressed files).
    raw: Arc<AtomicU64>,
    /// Bytes of text read (decompressed): the games, the lines and all
    /// between them.
    text: Arc<AtomicU64>,
}

impl core::fmt::Debug for Inputs {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Inputs").field("batch_bytes", &self.batch_bytes).finish_non_exhaustive()
    }
}

impl Inputs {
    /// Reads `paths` (`-` is standard input) in batches of about
    /// `batch_bytes` bytes of text; `raw` counts the bytes read from the
    /// files, `text` the bytes of game text.
    pub fn new(paths: Vec<PathBuf>, batch_bytes: usize, raw: Arc<AtomicU64>, text: Arc<AtomicU64>) -> Inputs {
        Inputs { paths: paths.into_iter(), current: None, batch_bytes: batch_bytes.max(1), raw, text }
    }

    /// Reads `input`, already opened (a request's body), named `name`.
    pub fn from_input(name: &str, input: Input, batch_bytes: usize, text: Arc<AtomicU64>) -> Inputs {
        Inputs {
            paths: Vec::new().into_iter(),
            current: Some((name.into(), Reader::of(input))),
            batch_bytes: batch_bytes.max(1),
            raw: Arc::default(),
            text,
        }
    }

    /// The next batch, `None` when every input is read.
    pub fn next_batch(&mut self) -> Option<Batch> {
        loop {
            let Some((name, reader)) = &mut self.current else {
                let path = self.paths.next()?;
                let name: Arc<str> =
                    if path.as_os_str() == "-" { "-".into() } else { path.display().to_string().into() };
                match open_path(&path, Arc::clone(&self.raw)) {
                    Ok(input) => {
                        self.current = Some((name, Reader::of(input)));
                        continue;
                    }
                    Err(e) => {
                        let error = e.to_string();
                        return Some(Batch {
                            input: name,
                            items: vec![Item::InputError { game: 0, offset: 0, error }],
                        });
                    }
                }
            };
            let (items, finished) = fill(reader, self.batch_bytes, &self.text);
            let batch = Batch { input: Arc::clone(name), items };
            if finished {
                self.current = None;
            }
            if !batch.items.is_empty() {
                return Some(batch);
            }
        }
    }
}

/// Up to a batch of items from `reader`, and whether its input is finished;
/// the bytes of text consumed are added to `counted` (the summary's MB/s
/// are of the whole text, not only of the games kept).
fn fill(reader: &mut Reader, batch_bytes: usize, counted: &AtomicU64) -> (Vec<Item>, bool) {
    let before = reader.consumed();
    let filled = fill_items(reader, batch_bytes);
    counted.fetch_add(reader.consumed().saturating_sub(before), Ordering::Relaxed);
    filled
}

/// Up to a batch of items from `reader`, and whether its input is finished.
fn fill_items(reader: &mut Reader, batch_bytes: usize) -> (Vec<Item>, bool) {
    let mut items = Vec::new();
    let mut bytes = 0;
    while items.len() < BATCH_GAMES && bytes < batch_bytes {
        let (item, len) = match reader {
            Reader::Pgn(splitter) => match splitter.next_game() {
                Ok(Some(raw)) => {
                    let len = raw.bytes.len();
                    (Item::Pgn(raw), len)
                }
                Ok(None) => return (items, true),
                Err(e) => {
                    let error = format!("read error: {e}");
                    items.push(Item::InputError { game: 0, offset: splitter.offset(), error });
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
            let text: usize = batch
                .items
                .iter()
                .map(|item| match item {
                    Item::Pgn(raw) => raw.bytes.len(),
                    Item::Line { text: Ok(text), .. } => text.len(),
                    _ => 0,
                })
                .sum();
            (batch, 3 * text + BATCH_OVERHEAD)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let mut inputs = Inputs::from_input("t", input, 1 << 20, Arc::clone(&counted));
            let mut games = 0;
            while let Some(batch) = inputs.next_batch() {
                games += batch.items.len();
            }
            assert_eq!(games, 1, "{}", &text[text.len() - 60..]);
            assert_eq!(counted.load(Ordering::Relaxed), text.len() as u64);
        }
    }
}
