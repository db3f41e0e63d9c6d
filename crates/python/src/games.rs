//! `adjudicate(source)`: the correct result of every game of a PGN
//! source under the FIDE Laws, as an iterator of records.
//!
//! The iterator reads a batch of games ([`BATCH_GAMES`], at most
//! [`BATCH_BYTES`]) with the `adjudicate` crate's splitter, then parses
//! and adjudicates it on `threads` threads, each with its own
//! `Adjudicator` (kept between batches), and yields the records in input
//! order. The batch runs with the GIL released on threads that Ctrl-C
//! stops between games ([`interrupt::run`]). Memory is bounded: a game is
//! cut at the splitter's limit, one batch is in memory at a time, plus the
//! adjudicators' tables (`tt_mb` per thread).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

use ::adjudicate::pgn::{RawGame, Splitter, parse_game};
use ::adjudicate::{Adjudicator, Options as RuleOptions, Record, Termination};
use movegen::Color;
use pyo3::exceptions::{PyIOError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use search::Config;

use crate::errors::pgn_error;
use crate::record::{error_dict, record_dict};
use crate::{interrupt, options};

/// The most games in one batch.
pub const BATCH_GAMES: usize = 1024;
/// The most bytes of game text in one batch (closed once over).
pub const BATCH_BYTES: usize = 4 << 20;
/// Buffer size of the readers.
const BUFFER: usize = 256 << 10;
/// The first four bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// How the games are adjudicated.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    rules: RuleOptions,
    /// Every game is a timeout of this player.
    timeout: Option<Color>,
    /// Only games lost on time (the others are counted as skipped).
    timeout_only: bool,
    threads: usize,
    /// Raise `PgnError` at a malformed game (else yield an error record).
    raise: bool,
}

impl Options {
    /// The options of the keyword arguments.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        timeout: Option<&str>,
        every_ply: bool,
        timeout_only: bool,
        nodes: Option<i64>,
        tt_mb: Option<i64>,
        threads: Option<i64>,
        errors: &str,
    ) -> PyResult<Options> {
        let timeout_config: Config = options::config("full", nodes, None, tt_mb)?;
        let raise = match errors {
            "raise" => true,
            "record" => false,
            _ => return Err(PyValueError::new_err(format!("errors must be 'raise' or 'record', not {errors:?}"))),
        };
        Ok(Options {
            rules: RuleOptions { every_ply, timeout: timeout_config, ..RuleOptions::batch() },
            timeout: timeout.map(options::color_name).transpose()?,
            timeout_only,
            threads: options::threads(threads)?,
            raise,
        })
    }
}

/// Where the games come from.
enum Source {
    /// A PGN stream; offsets are shifted by `base` (the start of a byte
    /// range of a file).
    Stream { splitter: Splitter<Box<dyn BufRead + Send>>, base: u64, first: u64, last: u64 },
    /// One game's text each (the rows of a table); numbered from 1.
    Texts { texts: std::vec::IntoIter<Vec<u8>>, number: u64 },
    /// Read to the end.
    Done,
}

/// One unit of work.
enum Item {
    Game(RawGame),
    Error {
        game: u64,
        offset: u64,
        message: String,
    },
    /// The input could not be read further.
    Io {
        game: u64,
        offset: u64,
        error: io::Error,
    },
}

/// The answer for one item.
enum Output {
    Game(Box<Record>),
    Error { game: u64, offset: u64, message: String },
    Io { game: u64, offset: u64, error: io::Error },
    Skipped,
}

impl Source {
    /// The next batch of items (empty at the end).
    fn read_batch(&mut self) -> Vec<Item> {
        let mut items = Vec::new();
        let mut bytes = 0;
        while items.len() < BATCH_GAMES && bytes < BATCH_BYTES {
            match self {
                Source::Done => break,
                Source::Stream { splitter, base, first, last } => match splitter.next_game() {
                    Ok(Some(mut raw)) => {
                        raw.offset += *base;
                        raw.number += *first - 1;
                        *last = raw.number;
                        bytes += raw.bytes.len();
                        items.push(Item::Game(raw));
                    }
                    Ok(None) => *self = Source::Done,
                    Err(error) => {
                        let offset = *base + splitter.offset();
                        items.push(Item::Io { game: *last + 1, offset, error });
                        *self = Source::Done;
                    }
                },
                Source::Texts { texts, number } => {
                    let Some(text) = texts.next() else {
                        *self = Source::Done;
                        break;
                    };
                    *number += 1;
                    bytes += text.len();
                    items.push(one_game(&text, *number));
                }
            }
        }
        items
    }
}

/// The one game of `text`, numbered `number`.
fn one_game(text: &[u8], number: u64) -> Item {
    let mut splitter = Splitter::new(text);
    let error = |message: &str| Item::Error { game: number, offset: 0, message: message.to_string() };
    match (splitter.next_game(), splitter.next_game()) {
        (Ok(Some(mut raw)), Ok(None)) => {
            raw.number = number;
            Item::Game(raw)
        }
        (Ok(None), _) => error("no game in the text"),
        (Ok(Some(_)), Ok(Some(_))) => error("the text holds more than one game"),
        (Err(e), _) | (_, Err(e)) => error(&e.to_string()),
    }
}

/// Parses and adjudicates one item.
fn process(adjudicator: &mut Adjudicator, options: &Options, item: Item) -> Output {
    let raw = match item {
        Item::Game(raw) => raw,
        Item::Error { game, offset, message } => return Output::Error { game, offset, message },
        Item::Io { game, offset, error } => return Output::Io { game, offset, error },
    };
    let (mut game, tags) = match parse_game(&raw) {
        Ok(parsed) => (parsed.game, parsed.tags),
        Err(error) => return Output::Error { game: raw.number, offset: raw.offset, message: error.to_string() },
    };
    if let Some(flagged) = options.timeout {
        game.termination = Termination::TimeForfeit { flagged: Some(flagged) };
    } else if options.timeout_only && !matches!(game.termination, Termination::TimeForfeit { .. }) {
        return Output::Skipped;
    }
    match catch_unwind(AssertUnwindSafe(|| adjudicator.adjudicate(&game))) {
        Ok(adjudication) => {
            let mut record = Record::new(raw.number, raw.offset, &game, &adjudication);
            record.players(&tags);
            Output::Game(Box::new(record))
        }
        Err(_) => {
            // A bug in the analysis, not in the input: report it for this
            // game and go on with a fresh adjudicator.
            *adjudicator = Adjudicator::new(options.rules);
            let message = "internal error: the adjudication panicked".to_string();
            Output::Error { game: raw.number, offset: raw.offset, message }
        }
    }
}

/// Processes `items` on one thread per adjudicator; outputs in order.
fn process_batch(
    adjudicators: &mut [Adjudicator],
    options: &Options,
    items: Vec<Item>,
    stop: &AtomicBool,
) -> Vec<Output> {
    let count = items.len();
    let items: Vec<Mutex<Option<Item>>> = items.into_iter().map(|item| Mutex::new(Some(item))).collect();
    let next = AtomicUsize::new(0);
    let share = |adjudicator: &mut Adjudicator| {
        let mut outputs = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(slot) = items.get(index) else { break };
            let item = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
            if let Some(item) = item {
                outputs.push((index, process(adjudicator, options, item)));
            }
        }
        outputs
    };
    let mut indexed = thread::scope(|scope| {
        let (first, rest) = adjudicators.split_first_mut().expect("at least one adjudicator");
        let share = &share;
        let helpers: Vec<_> = rest
            .iter_mut()
            .take(count.saturating_sub(1))
            .filter_map(|adjudicator| {
                thread::Builder::new()
                    .stack_size(interrupt::STACK_SIZE)
                    .spawn_scoped(scope, move || share(adjudicator))
                    .ok()
            })
            .collect();
        let mut outputs = share(first);
        for helper in helpers {
            match helper.join() {
                Ok(more) => outputs.extend(more),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        outputs
    });
    indexed.sort_unstable_by_key(|(index, _)| *index);
    indexed.into_iter().map(|(_, output)| output).collect()
}

/// The state behind the iterator.
struct State {
    source: Source,
    adjudicators: Vec<Adjudicator>,
    ready: VecDeque<Output>,
    interrupted: bool,
    skipped: u64,
}

/// The records of ``adjudicate()``, in input order: one dict per game
/// (the fields of ``unwinnable adjudicate --format jsonl``), and per
/// malformed game a ``PgnError`` (or, with ``errors="record"``, a dict with
/// ``input``, ``game``, ``offset`` and ``error``). Iteration may go on
/// after a ``PgnError``: the next game follows. ``skipped`` counts the
/// games left out by ``timeout_only``.
#[pyclass(module = "unwinnable", name = "Adjudications")]
pub struct Adjudications {
    input: String,
    options: Options,
    state: Mutex<State>,
}

impl std::fmt::Debug for Adjudications {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Adjudications").field("input", &self.input).field("options", &self.options).finish()
    }
}

impl Adjudications {
    fn new(input: String, source: Source, options: Options) -> Adjudications {
        let adjudicators = (0..options.threads).map(|_| Adjudicator::new(options.rules)).collect();
        let state = State { source, adjudicators, ready: VecDeque::new(), interrupted: false, skipped: 0 };
        Adjudications { input, options, state: Mutex::new(state) }
    }
}

#[pymethods]
impl Adjudications {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Ok(mut state) = self.state.try_lock() else {
            return Err(PyRuntimeError::new_err("this adjudicate() iterator is already in use by another thread"));
        };
        loop {
            if state.interrupted {
                return Err(PyRuntimeError::new_err(
                    "this adjudicate() iterator was interrupted and lost its batch of games: start a new one",
                ));
            }
            if let Some(output) = state.ready.pop_front() {
                match output {
                    Output::Game(record) => return Ok(Some(record_dict(py, &self.input, &record)?.into_any())),
                    Output::Skipped => state.skipped += 1,
                    Output::Error { game, offset, message } if self.options.raise => {
                        return Err(pgn_error(py, message, &self.input, game, offset));
                    }
                    Output::Error { game, offset, message } => {
                        return Ok(Some(error_dict(py, &self.input, game, offset, &message)?.into_any()));
                    }
                    Output::Io { error, .. } if self.options.raise => {
                        return Err(PyIOError::new_err(format!("{}: {error}", self.input)));
                    }
                    Output::Io { game, offset, error } => {
                        let message = format!("cannot read further: {error}");
                        return Ok(Some(error_dict(py, &self.input, game, offset, &message)?.into_any()));
                    }
                }
                continue;
            }
            if matches!(state.source, Source::Done) {
                return Ok(None);
            }
            let stop = AtomicBool::new(false);
            let options = self.options;
            let state_ref = &mut *state;
            let result = interrupt::run(py, &stop, || {
                let items = state_ref.source.read_batch();
                process_batch(&mut state_ref.adjudicators, &options, items, &stop)
            });
            match result {
                Ok(outputs) => state.ready.extend(outputs),
                Err(error) => {
                    state.interrupted = true;
                    return Err(error);
                }
            }
        }
    }

    /// Games left out by `timeout_only` so far (not lost on time).
    #[getter]
    fn skipped(&self) -> PyResult<u64> {
        self.state
            .try_lock()
            .map(|state| state.skipped)
            .map_err(|_| PyRuntimeError::new_err("this adjudicate() iterator is in use by another thread"))
    }

    /// The input's name (the path, `<string>` or `<bytes>`).
    #[getter]
    fn input(&self) -> &str {
        &self.input
    }
}

/// Opens a byte stream: zstd (by its magic number) or plain.
fn open(raw: impl Read + Send + 'static) -> io::Result<Box<dyn BufRead + Send>> {
    let mut raw = BufReader::with_capacity(BUFFER, raw);
    let compressed = loop {
        match raw.fill_buf() {
            Ok(buf) => break buf.starts_with(&ZSTD_MAGIC),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    };
    Ok(if compressed {
        Box::new(BufReader::with_capacity(BUFFER, zstd::stream::read::Decoder::with_buffer(raw)?))
    } else {
        Box::new(raw)
    })
}

/// The games of `reader`, whose first byte is at `base` in its input and
/// whose first game is game number `first`.
fn stream(reader: Box<dyn BufRead + Send>, base: u64, first: u64) -> Source {
    Source::Stream { splitter: Splitter::new(reader), base, first: first.max(1), last: first.max(1) - 1 }
}

/// `path` as a string, with its error for an unreadable file.
fn open_file(path: &str) -> PyResult<File> {
    File::open(path).map_err(|e| io_error(path, e))
}

/// The Python exception of an I/O `error` on `path` (`FileNotFoundError`,
/// `PermissionError`, else `OSError`).
pub(crate) fn io_error(path: &str, error: io::Error) -> PyErr {
    let message = format!("{path}: {error}");
    match error.kind() {
        io::ErrorKind::NotFound => pyo3::exceptions::PyFileNotFoundError::new_err(message),
        io::ErrorKind::PermissionDenied => pyo3::exceptions::PyPermissionError::new_err(message),
        _ => PyIOError::new_err(message),
    }
}

/// What `source` is: (input name, source).
fn classify(source: &Bound<'_, PyAny>) -> PyResult<(String, Source)> {
    let content = |name: &str, bytes: Vec<u8>| -> PyResult<(String, Source)> {
        let reader = open(Cursor::new(bytes)).map_err(|e| io_error(name, e))?;
        Ok((name.to_string(), stream(reader, 0, 1)))
    };
    if let Ok(bytes) = source.cast::<PyBytes>() {
        return content("<bytes>", bytes.as_bytes().to_vec());
    }
    if let Ok(bytes) = source.cast::<PyByteArray>() {
        return content("<bytes>", bytes.to_vec());
    }
    let path: String = if let Ok(text) = source.cast::<PyString>() {
        let text = &*text.to_cow()?;
        let is_text = text.contains('\n')
            || (text.contains(char::is_whitespace) && !std::path::Path::new(text).exists())
            || text.trim_start().starts_with('[');
        if is_text {
            return content("<string>", text.as_bytes().to_vec());
        }
        text.to_string()
    } else if source.hasattr("__fspath__")? {
        let os = source.py().import("os")?;
        os.call_method1("fspath", (source,))?
            .extract()
            .map_err(|_| PyTypeError::new_err("the path must be a str path (not bytes)"))?
    } else {
        return Err(PyTypeError::new_err(format!(
            "source must be PGN text (str or bytes) or a path, not {}",
            source.get_type().name()?
        )));
    };
    let reader = open(open_file(&path)?).map_err(|e| io_error(&path, e))?;
    Ok((path, stream(reader, 0, 1)))
}

/// The correct result of every game of a PGN source under the FIDE Laws
/// (checkmate, stalemate, dead position, timeout, fivefold repetition,
/// seventy-five moves), as an iterator of dicts in input order.
///
/// ``source``: a path (``str`` or ``os.PathLike``), or PGN text (a ``str``
/// holding a newline, or a space and naming no file; or ``bytes``). Plain
/// or zstd-compressed (recognised by content).
///
/// Each record has the keys of ``unwinnable adjudicate --format jsonl``:
/// ``input``, ``game``, ``offset``, ``id``, ``recorded``, ``correct``,
/// ``wrong``, ``rule``, ``article``, ``ply``, ``void_moves``, ``fen``,
/// ``explanation``, ``helpmate``, ``nodes``, ``threefold_claimable``,
/// ``fifty_moves_claimable`` (``None`` where the command leaves a key out).
///
/// ``timeout``: ``"white"``/``"black"`` treats every game as lost on time
/// by that player (sources without a ``Termination`` tag).
/// ``every_ply``: check for a dead position after every ply (default: where
/// the game ended, then backwards). ``timeout_only``: only games lost on
/// time (the others are counted in ``.skipped``). ``nodes``, ``tt_mb``:
/// limits of each timeout analysis (``nodes`` spent: the result is
/// ``"*"``). ``threads``: Rust threads (``None``: every CPU).
/// ``errors``: ``"raise"`` a ``PgnError`` (a ``ValueError``) at a
/// malformed game, or ``"record"`` it as a dict with an ``error`` key.
///
/// >>> pgn = """[Site "https://lichess.org/ZNBhS4pz"]
/// ... [Result "0-1"]
/// ... [SetUp "1"]
/// ... [FEN "8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38"]
/// ... [Termination "Time forfeit"]
/// ...
/// ... 0-1
/// ... """
/// >>> record = next(adjudicate(pgn))
/// >>> record["recorded"], record["correct"], record["rule"], record["wrong"]
/// ('0-1', '1/2-1/2', 'timeout', True)
#[pyfunction]
#[pyo3(signature = (source, *, timeout=None, every_ply=false, timeout_only=false, nodes=None, tt_mb=None, threads=None, errors="raise"))]
#[allow(clippy::too_many_arguments)]
pub fn adjudicate(
    source: &Bound<'_, PyAny>,
    timeout: Option<&str>,
    every_ply: bool,
    timeout_only: bool,
    nodes: Option<i64>,
    tt_mb: Option<i64>,
    threads: Option<i64>,
    errors: &str,
) -> PyResult<Adjudications> {
    let options = Options::new(timeout, every_ply, timeout_only, nodes, tt_mb, threads, errors)?;
    let (input, source) = classify(source)?;
    Ok(Adjudications::new(input, source, options))
}

/// The games of bytes `start..end` of the plain PGN file `path` (both on
/// game boundaries: see `_pgn_boundaries`), the first of which is game
/// number `first_game` of the file (see `_count_games`): offsets and
/// numbers are those of the whole file.
#[pyfunction]
#[pyo3(signature = (path, start, end, first_game=1, *, timeout=None, every_ply=false, timeout_only=false, nodes=None, tt_mb=None, threads=None, errors="raise"))]
#[allow(clippy::too_many_arguments)]
pub fn _adjudicate_range(
    path: &str,
    start: u64,
    end: u64,
    first_game: u64,
    timeout: Option<&str>,
    every_ply: bool,
    timeout_only: bool,
    nodes: Option<i64>,
    tt_mb: Option<i64>,
    threads: Option<i64>,
    errors: &str,
) -> PyResult<Adjudications> {
    let options = Options::new(timeout, every_ply, timeout_only, nodes, tt_mb, threads, errors)?;
    let reader = range(path, start, end)?;
    Ok(Adjudications::new(path.to_string(), stream(Box::new(reader), start, first_game), options))
}

/// Bytes `start..end` of `path`.
fn range(path: &str, start: u64, end: u64) -> PyResult<BufReader<io::Take<File>>> {
    let mut file = open_file(path)?;
    file.seek(SeekFrom::Start(start)).map_err(|e| io_error(path, e))?;
    Ok(BufReader::with_capacity(BUFFER, file.take(end.saturating_sub(start))))
}

/// How many games bytes `start..end` of the plain PGN file `path` hold
/// (the splitter only: fast), with the GIL released.
#[pyfunction]
pub fn _count_games(py: Python<'_>, path: &str, start: u64, end: u64) -> PyResult<u64> {
    let reader = range(path, start, end)?;
    py.detach(|| {
        let mut splitter = Splitter::new(reader);
        let mut count = 0;
        while splitter.next_game()?.is_some() {
            count += 1;
        }
        Ok(count)
    })
    .map_err(|e: io::Error| io_error(path, e))
}

/// One game per item of `texts` (str or bytes: tag pairs and movetext),
/// numbered from 1, named `input`.
#[pyfunction]
#[pyo3(signature = (texts, input, *, timeout=None, every_ply=false, timeout_only=false, nodes=None, tt_mb=None, threads=None, errors="raise"))]
#[allow(clippy::too_many_arguments)]
pub fn _adjudicate_texts(
    texts: &Bound<'_, PyAny>,
    input: String,
    timeout: Option<&str>,
    every_ply: bool,
    timeout_only: bool,
    nodes: Option<i64>,
    tt_mb: Option<i64>,
    threads: Option<i64>,
    errors: &str,
) -> PyResult<Adjudications> {
    let options = Options::new(timeout, every_ply, timeout_only, nodes, tt_mb, threads, errors)?;
    let mut all = Vec::new();
    for text in texts.try_iter()? {
        let text = text?;
        let bytes = if let Ok(s) = text.cast::<PyString>() {
            s.to_cow()?.as_bytes().to_vec()
        } else if let Ok(b) = text.cast::<PyBytes>() {
            b.as_bytes().to_vec()
        } else {
            return Err(PyTypeError::new_err("texts must hold str or bytes"));
        };
        all.push(bytes);
    }
    Ok(Adjudications::new(input, Source::Texts { texts: all.into_iter(), number: 0 }, options))
}
