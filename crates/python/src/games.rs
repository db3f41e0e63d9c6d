//! `adjudicate(source)`: the pipeline's `adjudicate` run (the command's
//! inputs, batches, per-game step, records and ordered map) on a
//! background thread, its records handed to the iterator in input order
//! through a bounded channel. The records are the pipeline's, turned into
//! dicts through their serde serialisation (the one the command writes).
//! Dropping the iterator stops the run.
//!
//! Also the entry points of `unwinnable.dask`: a byte range of a plain
//! file, a chunk of decompressed text, one game per text (table rows);
//! and the cutting of inputs on game boundaries (`_pgn_boundaries`,
//! `_chunks`).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;

use ::adjudicate::pgn::{Splitter, game_boundaries, next_game_start};
use pipeline::games::{self, GameSource, Inputs, Output, Outputs};
use pipeline::{Summary, Unit};
use pyo3::exceptions::{PyFileNotFoundError, PyIOError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::analysis::record_dict;
use crate::arrow::{ArrowBatch, RecordColumns};
use crate::errors::{pgn_error, type_error, value_error};
use crate::{args, interrupt};

/// The keys of a game's record: the fields of `adjudicate --format jsonl`.
pub const GAME_KEYS: [&str; 22] = [
    "input",
    "game",
    "offset",
    "id",
    "recorded",
    "correct",
    "wrong",
    "rule",
    "article",
    "ply",
    "void_moves",
    "fen",
    "explanation",
    "helpmate",
    "nodes",
    "threefold_claimable",
    "fifty_moves_claimable",
    "unreachable",
    "white",
    "black",
    "date",
    "site",
];

/// The keys of an error record.
const ERROR_KEYS: [&str; 4] = ["input", "game", "offset", "error"];

/// Batches of records waiting between the run and the iterator.
const WAITING: usize = 4;

/// A Python file object (its `read`) as a byte stream, read with the GIL
/// held for each call.
struct PyReader(Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self.0.bind(py).call_method1("read", (buf.len(),)).map_err(io::Error::other)?;
            if let Ok(bytes) = data.cast::<PyBytes>() {
                let bytes = bytes.as_bytes();
                let n = bytes.len().min(buf.len());
                buf[..n].copy_from_slice(&bytes[..n]);
                Ok(n)
            } else if let Ok(text) = data.cast::<PyString>() {
                // A text file: its characters as UTF-8 (a character may
                // take more bytes than asked for; at most 4 per character).
                let text = text.to_cow().map_err(io::Error::other)?;
                if text.len() > buf.len() {
                    return Err(io::Error::other("the file object returned more than asked for"));
                }
                buf[..text.len()].copy_from_slice(text.as_bytes());
                Ok(text.len())
            } else {
                Err(io::Error::other("the file object's read() returned neither bytes nor str"))
            }
        })
    }
}

/// How the games are adjudicated: the pipeline's options and what the
/// iterator does with errors.
#[derive(Clone, Copy, Debug)]
struct Settings {
    options: games::Options,
    /// Raise `PgnError` at a malformed game (else yield an error record).
    raise: bool,
}

/// The settings of [`adjudicate`]'s keyword arguments (and of the dict
/// [`settings_of`] reads).
#[allow(clippy::too_many_arguments)]
fn settings(
    timeout: Option<&Bound<'_, PyAny>>,
    timeout_only: bool,
    every_ply: bool,
    only_wrong: bool,
    mode: &str,
    nodes: Option<&Bound<'_, PyAny>>,
    deadline_ms: Option<&Bound<'_, PyAny>>,
    memory_mb: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    errors: &str,
) -> PyResult<Settings> {
    let search = args::search(mode, nodes, deadline_ms, memory_mb)?;
    let threads = args::threads(threads)?;
    let games = args::games(timeout, timeout_only, every_ply, only_wrong)?;
    let options = games::Options::new(&search, &threads, &games).map_err(|e| value_error("memory_mb", e))?;
    Ok(Settings { options, raise: args::raise(errors)? })
}

/// The keywords of [`adjudicate`]'s options, the keys [`settings_of`] reads.
const OPTION_KEYS: [&str; 10] = [
    "timeout",
    "timeout_only",
    "every_ply",
    "only_wrong",
    "mode",
    "nodes",
    "deadline_ms",
    "memory_mb",
    "threads",
    "errors",
];

/// The settings of the private entry points of `unwinnable.dask`: the
/// options of [`adjudicate`] as a dict (`None` or a missing key: the
/// default), read by the same [`settings`]. A key that is not an option is
/// a `TypeError`, as an unknown keyword argument is.
fn settings_of(options: Option<&Bound<'_, PyDict>>) -> PyResult<Settings> {
    for key in options.iter().flat_map(|options| options.keys()) {
        let name = key.str()?.to_cow()?.into_owned();
        if !OPTION_KEYS.contains(&name.as_str()) {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!("{name:?} is not an option of adjudicate")));
        }
    }
    // A key's value, `None` when it is missing or None (or there is no
    // dict): the defaults are `adjudicate`'s, below and in `settings`.
    let get = |key: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        let Some(options) = options else { return Ok(None) };
        Ok(options.get_item(key)?.filter(|value| !value.is_none()))
    };
    let flag = |key: &str| -> PyResult<bool> { get(key)?.map_or(Ok(false), |value| value.extract()) };
    let text = |key: &str, default: &str| -> PyResult<String> {
        get(key)?.map_or_else(|| Ok(default.to_string()), |value| value.extract())
    };
    let (mode, errors) = (text("mode", "full")?, text("errors", "record")?);
    settings(
        get("timeout")?.as_ref(),
        flag("timeout_only")?,
        flag("every_ply")?,
        flag("only_wrong")?,
        &mode,
        get("nodes")?.as_ref(),
        get("deadline_ms")?.as_ref(),
        get("memory_mb")?.as_ref(),
        get("threads")?.as_ref(),
        &errors,
    )
}

/// The state behind the iterator.
struct State {
    receiver: Option<Receiver<Outputs>>,
    ready: VecDeque<Output>,
    summary: Summary,
}

/// The records of ``adjudicate()``, in input order: one dict per game
/// (the fields of ``unwinnable adjudicate --format jsonl``, absent ones
/// ``None``), and per malformed game an error record (a dict with
/// ``input``, ``game``, ``offset`` and ``error``; or, with
/// ``errors="raise"``, a ``PgnError``, after which iteration may go on).
/// ``summary`` counts the games so far; ``skipped`` the games left out by
/// ``timeout_only``.
#[pyclass(module = "unwinnable", name = "Adjudications")]
pub struct Adjudications {
    input: String,
    settings: Settings,
    state: Mutex<State>,
}

impl std::fmt::Debug for Adjudications {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Adjudications").field("input", &self.input).finish_non_exhaustive()
    }
}

impl Adjudications {
    /// Starts the run of `inputs` on a background thread.
    fn start(input: String, inputs: Inputs, settings: Settings) -> PyResult<Adjudications> {
        let (sender, receiver) = mpsc::sync_channel::<Outputs>(WAITING);
        let options = settings.options;
        thread::Builder::new()
            .name("unwinnable-adjudicate".into())
            .spawn(move || {
                let mut sink = |outputs: Outputs| {
                    sender.send(outputs).map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the iterator is gone"))
                };
                // A closed channel (the iterator dropped) stops the run.
                let _ = games::run(inputs, &options, &mut sink);
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the adjudication thread: {e}")))?;
        let state = State { receiver: Some(receiver), ready: VecDeque::new(), summary: Summary::new(Unit::Games) };
        Ok(Adjudications { input, settings, state: Mutex::new(state) })
    }

    /// The next output a run writes (a game's record or an error record),
    /// `None` at the end; an error record raises with `errors="raise"`.
    fn next_written(&self, py: Python<'_>) -> PyResult<Option<Output>> {
        let Ok(mut state) = self.state.try_lock() else {
            return Err(PyRuntimeError::new_err("this adjudicate() iterator is already in use by another thread"));
        };
        loop {
            if let Some(output) = state.ready.pop_front() {
                output.count(&mut state.summary);
                if !output.is_written(self.settings.options.only_wrong) {
                    continue;
                }
                if self.settings.raise {
                    match output {
                        Output::Error(error) => {
                            return Err(pgn_error(py, error.error, &error.input, error.game, error.offset));
                        }
                        Output::InputError(error) => {
                            return Err(PyIOError::new_err(format!("{}: {}", error.input, error.error)));
                        }
                        _ => {}
                    }
                }
                return Ok(Some(output));
            }
            let Some(receiver) = state.receiver.take() else { return Ok(None) };
            let (receiver, received) = py.detach(move || {
                let received = receiver.recv_timeout(interrupt::POLL);
                (receiver, received)
            });
            state.receiver = Some(receiver);
            match received {
                Ok(outputs) => state.ready.extend(outputs),
                Err(RecvTimeoutError::Disconnected) => {
                    state.receiver = None;
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(error) = py.check_signals() {
                        // Dropping the receiver stops the run.
                        state.receiver = None;
                        return Err(error);
                    }
                }
            }
        }
    }
}

#[pymethods]
impl Adjudications {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(match self.next_written(py)? {
            Some(Output::Game(record)) => Some(record_dict(py, &*record, GAME_KEYS)?.into_any()),
            Some(Output::Error(error) | Output::InputError(error)) => {
                Some(record_dict(py, &error, ERROR_KEYS)?.into_any())
            }
            _ => None,
        })
    }

    /// The next records, at most `rows` of them, as one Arrow record batch
    /// of the columns of `unwinnable.dask.SCHEMA` (built here, without a
    /// dict per record), or `None` at the end. With `first_row` (a Parquet
    /// input's row group), the game numbers count from it and the offsets
    /// are null.
    #[pyo3(signature = (rows, first_row=None))]
    fn _next_batch(&self, py: Python<'_>, rows: usize, first_row: Option<u64>) -> PyResult<Option<ArrowBatch>> {
        let mut columns = RecordColumns::new(first_row);
        while columns.len() < rows.max(1) {
            match self.next_written(py)? {
                Some(Output::Game(record)) => columns.push_game(&record),
                Some(Output::Error(error) | Output::InputError(error)) => columns.push_error(&error),
                _ => break,
            }
        }
        if columns.len() == 0 {
            return Ok(None);
        }
        columns.finish().map(Some)
    }

    /// Games left out by `timeout_only` so far (not lost on time).
    #[getter]
    fn skipped(&self) -> PyResult<u64> {
        self.with_summary(|summary| summary.skipped)
    }

    /// The counts so far: ``games``, ``errors``, ``skipped``,
    /// ``undetermined``, ``wrong`` and ``rules`` (by rule).
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let summary = self.with_summary(Clone::clone)?;
        let dict = PyDict::new(py);
        dict.set_item("games", summary.records)?;
        dict.set_item("errors", summary.errors)?;
        dict.set_item("skipped", summary.skipped)?;
        dict.set_item("undetermined", summary.undetermined)?;
        dict.set_item("wrong", summary.wrong.into_iter().collect::<Vec<_>>().into_pyobject(py)?.into_any())?;
        dict.set_item("rules", summary.outcomes.into_iter().collect::<Vec<_>>().into_pyobject(py)?.into_any())?;
        Ok(dict)
    }

    /// The input's name (the path, `<string>` or `<bytes>`).
    #[getter]
    fn input(&self) -> &str {
        &self.input
    }

    /// Stops the run: the games not yet adjudicated are not.
    fn close(&self) -> PyResult<()> {
        let mut state = self
            .state
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this adjudicate() iterator is in use by another thread"))?;
        state.receiver = None;
        state.ready.clear();
        Ok(())
    }
}

impl Adjudications {
    fn with_summary<T>(&self, f: impl FnOnce(&Summary) -> T) -> PyResult<T> {
        self.state
            .try_lock()
            .map(|state| f(&state.summary))
            .map_err(|_| PyRuntimeError::new_err("this adjudicate() iterator is in use by another thread"))
    }
}

/// Whether `text` is PGN text rather than a path: it has a line break, or
/// starts (after spaces) with a tag pair `[` or a move number (`1.`).
fn is_pgn_text(text: &str) -> bool {
    let start = text.trim_start();
    text.contains('\n')
        || start.starts_with('[')
        || start
            .split_once('.')
            .is_some_and(|(number, _)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
}

/// The game source of one Python object, and its name.
fn source(item: &Bound<'_, PyAny>) -> PyResult<(String, GameSource)> {
    let py = item.py();
    let text = |name: &str, bytes: Vec<u8>| {
        (name.to_string(), GameSource::Reader { name: name.to_string(), reader: Box::new(io::Cursor::new(bytes)) })
    };
    if let Ok(bytes) = item.cast::<PyBytes>() {
        return Ok(text("<bytes>", bytes.as_bytes().to_vec()));
    }
    if let Ok(bytes) = item.cast::<PyByteArray>() {
        return Ok(text("<bytes>", bytes.to_vec()));
    }
    if let Ok(string) = item.cast::<PyString>() {
        let string = string.to_cow()?;
        if is_pgn_text(&string) {
            return Ok(text("<string>", string.as_bytes().to_vec()));
        }
        if string.contains("://") {
            // An fsspec URL: read through fsspec.
            let fsspec = py.import("fsspec").map_err(|e| {
                pyo3::exceptions::PyImportError::new_err(format!("reading {string:?} needs fsspec: {e}"))
            })?;
            let file = fsspec.call_method1("open", (&*string, "rb"))?.call_method0("open")?;
            return Ok((
                string.to_string(),
                GameSource::Reader { name: string.to_string(), reader: Box::new(PyReader(file.unbind())) },
            ));
        }
        return path_source(PathBuf::from(&*string));
    }
    if item.hasattr("headers")? && item.hasattr("mainline_moves")? {
        // A python-chess game: its PGN export.
        let pgn = item.str()?.to_cow()?.into_owned();
        return Ok(text("<game>", pgn.into_bytes()));
    }
    if item.hasattr("__fspath__")? {
        let path: PathBuf = py.import("os")?.call_method1("fspath", (item,))?.extract()?;
        return path_source(path);
    }
    if item.hasattr("read")? {
        let name = item.getattr("name").ok().and_then(|n| n.str().ok()).map_or("<file>".to_string(), |n| n.to_string());
        return Ok((name.clone(), GameSource::Reader { name, reader: Box::new(PyReader(item.clone().unbind())) }));
    }
    Err(type_error(
        "source",
        "a path, PGN text (str or bytes), a file object, a chess.pgn.Game, or a list of them",
        item,
    ))
}

/// A file that must exist (`FileNotFoundError` otherwise).
fn path_source(path: PathBuf) -> PyResult<(String, GameSource)> {
    let name = path.display().to_string();
    if path.as_os_str() != "-" && !path.exists() {
        return Err(PyFileNotFoundError::new_err(format!(
            "{name}: no such file (PGN text needs a line break or to start with a tag pair or a move number)"
        )));
    }
    Ok((name, GameSource::Path(path)))
}

/// The correct result of every game of PGN sources under the FIDE Laws
/// (checkmate, stalemate, dead position, timeout, fivefold repetition,
/// seventy-five moves), as an iterator of dicts in input order: the
/// pipeline of ``unwinnable adjudicate``, its options and its records.
///
/// ``source``: a path (``str`` or ``os.PathLike``; an fsspec URL such as
/// ``s3://bucket/games.pgn.zst`` with fsspec installed), PGN text (a
/// ``str`` with a line break, or starting with a tag pair or a move
/// number; or ``bytes``), a file object, a ``chess.pgn.Game``, or a list
/// of them (read in turn). Plain, zstd, gzip or bzip2 (recognised by
/// content), PGN or ``FEN moves...`` lines. A missing path is a
/// ``FileNotFoundError``.
///
/// Each record has the keys of ``unwinnable adjudicate --format jsonl``:
/// ``input``, ``game``, ``offset``, ``id``, ``recorded``, ``correct``,
/// ``wrong``, ``rule``, ``article``, ``ply``, ``void_moves``, ``fen``,
/// ``explanation``, ``helpmate``, ``nodes``, ``threefold_claimable``,
/// ``fifty_moves_claimable``, ``unreachable``, ``white``, ``black``,
/// ``date``, ``site`` (``None`` where the command leaves a key out).
///
/// The options are the command's: ``timeout`` (``"white"``, ``"black"`` or
/// a python-chess colour: every game lost on time by that player),
/// ``timeout_only`` (only games lost on time; the others are counted in
/// ``.skipped``), ``every_ply``, ``only_wrong``, ``mode``, ``nodes``,
/// ``deadline_ms`` (of each timeout analysis; a spent budget leaves the
/// result ``"*"``), ``memory_mb`` (the whole run's budget, divided among
/// its threads), ``threads`` (``None``: one per CPU that fits).
/// ``errors``: ``"record"`` (the default) yields an error record for a
/// malformed game, ``"raise"`` raises ``PgnError`` (a ``ValueError``).
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
#[pyo3(signature = (source, *, timeout=None, timeout_only=false, every_ply=false, only_wrong=false, mode="full", nodes=None, deadline_ms=None, memory_mb=None, threads=None, errors="record"))]
#[allow(clippy::too_many_arguments)]
pub fn adjudicate(
    source: &Bound<'_, PyAny>,
    timeout: Option<&Bound<'_, PyAny>>,
    timeout_only: bool,
    every_ply: bool,
    only_wrong: bool,
    mode: &str,
    nodes: Option<&Bound<'_, PyAny>>,
    deadline_ms: Option<&Bound<'_, PyAny>>,
    memory_mb: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    errors: &str,
) -> PyResult<Adjudications> {
    let settings =
        settings(timeout, timeout_only, every_ply, only_wrong, mode, nodes, deadline_ms, memory_mb, threads, errors)?;
    let items: Vec<Bound<'_, PyAny>> = if let Ok(list) = source.cast::<PyList>() {
        list.iter().collect()
    } else if let Ok(tuple) = source.cast::<PyTuple>() {
        tuple.iter().collect()
    } else {
        vec![source.clone()]
    };
    let mut names = Vec::new();
    let mut sources = Vec::new();
    for item in &items {
        let (name, source) = self::source(item)?;
        names.push(name);
        sources.push(source);
    }
    Adjudications::start(names.join(", "), Inputs::new(sources), settings)
}

/// The games of bytes `start..end` of the plain PGN file `path` (both on
/// game boundaries: see `_pgn_boundaries`), the first of which is game
/// number `first_game` of the file: offsets and numbers are those of the
/// whole file.
#[pyfunction]
#[pyo3(signature = (path, start, end, first_game=1, options=None))]
pub fn _adjudicate_range(
    path: PathBuf,
    start: u64,
    end: u64,
    first_game: u64,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Adjudications> {
    let settings = settings_of(options)?;
    let name = path.display().to_string();
    Adjudications::start(name, Inputs::new([GameSource::Range { path, start, end, first_game }]), settings)
}

/// The games of `text`, decompressed text of the input `name` from its
/// byte `start` (a game boundary), whose first game is game number
/// `first_game` of the input (see `_chunks`).
#[pyfunction]
#[pyo3(signature = (name, text, start, first_game=1, options=None))]
pub fn _adjudicate_chunk(
    name: String,
    text: Vec<u8>,
    start: u64,
    first_game: u64,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Adjudications> {
    let settings = settings_of(options)?;
    let source = GameSource::Chunk { name: name.clone(), text, start, first_game };
    Adjudications::start(name, Inputs::new([source]), settings)
}

/// One game per item of `texts` (str or bytes: tag pairs and movetext),
/// numbered from 1, named `input`.
#[pyfunction]
#[pyo3(signature = (texts, input, options=None))]
pub fn _adjudicate_texts(
    texts: &Bound<'_, PyAny>,
    input: String,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Adjudications> {
    if texts.is_instance_of::<PyString>() || texts.is_instance_of::<PyBytes>() {
        return Err(type_error("texts", "a list of game texts (not one string)", texts));
    }
    let settings = settings_of(options)?;
    let mut all = Vec::new();
    for text in texts.try_iter()? {
        let text = text?;
        let bytes = if let Ok(s) = text.cast::<PyString>() {
            s.to_cow()?.as_bytes().to_vec()
        } else if let Ok(b) = text.cast::<PyBytes>() {
            b.as_bytes().to_vec()
        } else {
            return Err(type_error("texts", "a list of str or bytes", &text));
        };
        all.push(bytes);
    }
    Adjudications::start(input.clone(), Inputs::new([GameSource::Texts { name: input, texts: all }]), settings)
}

/// The start offsets of the byte ranges of the plain PGN file `path`,
/// about `chunk_bytes` apart and on game boundaries, followed by the
/// file's size: range `i` is `offsets[i]..offsets[i + 1]`.
#[pyfunction]
pub fn _pgn_boundaries(py: Python<'_>, path: PathBuf, chunk_bytes: u64) -> PyResult<Vec<u64>> {
    let error = |e: io::Error| PyIOError::new_err(format!("{}: {e}", path.display()));
    let file = File::open(&path).map_err(error)?;
    let size = file.metadata().map_err(error)?.len();
    let mut reader = BufReader::with_capacity(64 << 10, file);
    py.detach(|| game_boundaries(&mut reader, size, chunk_bytes)).map_err(error)
}

/// How many games `text` holds (the splitter only: fast), with the GIL
/// released.
#[pyfunction]
pub fn _count_games(py: Python<'_>, text: Vec<u8>) -> PyResult<u64> {
    py.detach(|| {
        let mut splitter = Splitter::with_limit(&text[..], 1);
        let mut count = 0;
        while splitter.next_game()?.is_some() {
            count += 1;
        }
        Ok(count)
    })
    .map_err(|e: io::Error| PyIOError::new_err(e.to_string()))
}

/// The decompressed text of an input cut into chunks of about
/// `chunk_bytes` at game boundaries: `(start, text)` pairs, in order, for
/// tasks of their own (`_adjudicate_chunk`). The input is decompressed
/// once, as it is read.
#[pyclass(module = "unwinnable")]
pub struct Chunks {
    state: Mutex<Option<ChunkState>>,
}

/// What `Chunks` holds between chunks.
struct ChunkState {
    reader: Option<Box<dyn io::BufRead + Send>>,
    carry: Vec<u8>,
    start: u64,
    chunk_bytes: usize,
}

impl std::fmt::Debug for Chunks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chunks").finish_non_exhaustive()
    }
}

impl ChunkState {
    /// The next chunk's text, `None` at the end.
    fn next(&mut self) -> io::Result<Option<Vec<u8>>> {
        let chunk_bytes = self.chunk_bytes;
        // Read the chunk and a margin in which the next game starts; a
        // game longer than the margin makes the chunk grow.
        let mut want = chunk_bytes + (1 << 20);
        loop {
            if let Some(input) = self.reader.as_mut() {
                let mut buf = vec![0; 1 << 20];
                while self.carry.len() < want {
                    let n = input.read(&mut buf)?;
                    if n == 0 {
                        self.reader = None;
                        break;
                    }
                    self.carry.extend_from_slice(&buf[..n]);
                }
            }
            if self.carry.is_empty() {
                return Ok(None);
            }
            if self.reader.is_none() || self.carry.len() <= chunk_bytes {
                return Ok(Some(std::mem::take(&mut self.carry)));
            }
            let mut cursor = io::Cursor::new(&self.carry[..]);
            if let Some(at) = next_game_start(&mut cursor, chunk_bytes as u64)? {
                let rest = self.carry.split_off(at as usize);
                return Ok(Some(std::mem::replace(&mut self.carry, rest)));
            }
            want = self.carry.len() + (1 << 20);
        }
    }
}

#[pymethods]
impl Chunks {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<(u64, Bound<'py, PyBytes>)>> {
        let taken = self.state.try_lock().map(|mut state| state.take());
        let Ok(Some(mut state)) = taken else {
            return Err(PyRuntimeError::new_err("this iterator is in use by another thread, or failed"));
        };
        let (state, next) = py.detach(move || {
            let next = state.next();
            (state, next)
        });
        let start = state.start;
        let next = next.map_err(|e| PyIOError::new_err(e.to_string()))?;
        let mut state = state;
        if let Some(text) = &next {
            state.start += text.len() as u64;
        }
        *self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(state);
        Ok(next.map(|text| (start, PyBytes::new(py, &text))))
    }
}

/// The chunks of `source` (a path, a file object or an fsspec URL; plain
/// or compressed), decompressed once, cut at game boundaries about
/// `chunk_bytes` apart.
#[pyfunction]
pub fn _chunks(source: &Bound<'_, PyAny>, chunk_bytes: u64) -> PyResult<Chunks> {
    let (name, source) = self::source(source)?;
    let raw: Box<dyn Read + Send> = match source {
        GameSource::Path(path) => Box::new(File::open(&path).map_err(|e| PyIOError::new_err(format!("{name}: {e}")))?),
        GameSource::Reader { reader, .. } => reader,
        _ => return Err(value_error("source", "a path, a file object or a URL")),
    };
    let input = ::adjudicate::input::open(raw).map_err(|e| PyIOError::new_err(format!("{name}: {e}")))?;
    let chunk_bytes = usize::try_from(chunk_bytes.max(1)).unwrap_or(usize::MAX);
    let state = ChunkState { reader: Some(input.reader), carry: Vec::new(), start: 0, chunk_bytes };
    Ok(Chunks { state: Mutex::new(Some(state)) })
}
