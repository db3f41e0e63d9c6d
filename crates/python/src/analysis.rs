//! `analyze(position, winner)` and `is_dead(position)`, and the
//! `Analysis` they answer with: the pipeline's record of one analysis
//! (`pipeline::analyze::Record`, what `unwinnable analyze --format jsonl`
//! writes), with python-chess conventions around it.
//!
//! # Cost of a call
//!
//! A call first runs the analysis on the calling thread with the GIL
//! released and a budget of [`INLINE_NODES`] nodes: most trivial positions
//! (a lone king, the static proofs, a short forced line, a helpmate found
//! at once) are decided there. The budget also bounds the recursion depth
//! of the search (a recursive step counts a node first), so the calling
//! thread's stack is enough. Only an answer reached without hitting that
//! budget is kept: it is the answer of the same deterministic search with
//! the full budget, which would have stopped at the same node. Anything
//! else is analysed again from the start on the calling thread's worker
//! ([`interrupt::on_worker`]: a thread kept between calls with its
//! analyzers, never one started per call), which Ctrl-C stops.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use movegen::Color;
use pipeline::analyze::{Record, analyze_query};
use pipeline::{Query, Winners, Workload};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use search::{Analysis, Config, Limits, Verdict};

use crate::errors::InvalidFen;
use crate::{args, interrupt};

/// The node budget of the first, inline attempt.
pub const INLINE_NODES: u64 = 64;

/// The keys of `to_dict()`: the fields of `analyze --format jsonl` (the
/// CSV columns, and the certificate of `certificate=True`).
fn keys() -> impl Iterator<Item = &'static str> {
    pipeline::analyze::ANALYSIS_COLUMNS.iter().copied().chain(["certificate"])
}

thread_local! {
    /// The calling thread's analyzers of the inline attempts.
    static INLINE: RefCell<interrupt::Keep> = const { RefCell::new(Vec::new()) };
}

/// The answer of one analysis: whether ``winner`` can still checkmate in
/// ``fen``, with the evidence; the record of ``unwinnable analyze
/// --format jsonl``.
///
/// Attributes: ``fen`` (as given), ``winner`` (``"white"``/``"black"``),
/// ``color`` (the same as a python-chess colour: ``chess.WHITE`` is
/// ``True``), ``verdict`` (``"winnable"``, ``"unwinnable"`` or
/// ``"undetermined"``), ``helpmate`` (the moves in UCI when winnable,
/// else ``None``; ``moves()`` gives them as ``chess.Move``),
/// ``helpmate_san``, ``reason`` (the proof, after the forced moves if any;
/// why undetermined; or that the position is already checkmate), ``cause``
/// (``"node-budget"``, ``"deadline"``, ``"memory"``, ``"stopped"``,
/// ``"not-proved"``, ``"helpmate-too-long"`` when undetermined), ``nodes``,
/// ``micros`` (wall-clock time of the analysis), ``unreachable`` (why no
/// game can reach the position, else ``None``: it is analysed all the
/// same), ``certificate`` (with ``certificate=True``). ``to_dict()`` gives
/// the keys of ``unwinnable analyze --format jsonl``. Analyses compare by
/// value and can be pickled.
#[pyclass(frozen, module = "unwinnable", name = "Analysis")]
#[derive(Clone, Debug)]
pub struct PyAnalysis {
    record: Record,
}

impl PyAnalysis {
    /// The answer of `record`.
    pub fn new(record: Record) -> PyAnalysis {
        PyAnalysis { record }
    }

    /// The record, as the command writes it.
    pub fn record(&self) -> &Record {
        &self.record
    }
}

#[pymethods]
impl PyAnalysis {
    /// The FEN as given.
    #[getter]
    fn fen(&self) -> &str {
        &self.record.fen
    }

    /// `"white"` or `"black"`: the intended winner.
    #[getter]
    fn winner(&self) -> &'static str {
        self.record.winner
    }

    /// The intended winner as a python-chess colour (`chess.WHITE` is
    /// `True`).
    #[getter]
    fn color(&self) -> bool {
        self.record.winner == "white"
    }

    /// `"winnable"`, `"unwinnable"` or `"undetermined"`.
    #[getter]
    fn verdict(&self) -> &'static str {
        self.record.verdict
    }

    /// The helpmate in UCI when winnable, else `None`.
    #[getter]
    fn helpmate(&self) -> Option<Vec<String>> {
        self.record.helpmate.clone()
    }

    /// The helpmate in SAN with move numbers, when winnable.
    #[getter]
    fn helpmate_san(&self) -> Option<&str> {
        self.record.helpmate_san.as_deref()
    }

    /// Why it is unwinnable, why undetermined, or that it is already mate.
    #[getter]
    fn reason(&self) -> Option<&str> {
        self.record.reason.as_deref()
    }

    /// Why it is undetermined (a stable name), else `None`.
    #[getter]
    fn cause(&self) -> Option<&'static str> {
        self.record.cause
    }

    /// Positions searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.record.nodes
    }

    /// Wall-clock time of the analysis, in microseconds.
    #[getter]
    fn micros(&self) -> u64 {
        self.record.micros
    }

    /// Why no game can reach the position, else `None`.
    #[getter]
    fn unreachable(&self) -> Option<&str> {
        self.record.unreachable.as_deref()
    }

    /// The verdict's certificate (`certificate=True`), as a dict.
    #[getter]
    fn certificate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.record.certificate {
            Some(value) => Ok(pythonize::pythonize(py, value)?),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// The helpmate as `chess.Move` objects (python-chess), `None` unless
    /// winnable.
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
        let Some(helpmate) = &self.record.helpmate else { return Ok(None) };
        let chess = py.import("chess").map_err(|e| {
            PyImportError::new_err(format!("Analysis.moves() needs python-chess (pip install chess): {e}"))
        })?;
        let from_uci = chess.getattr("Move")?.getattr("from_uci")?;
        helpmate.iter().map(|uci| from_uci.call1((uci,))).collect::<PyResult<Vec<_>>>().map(Some)
    }

    /// The fields as a dict: the keys of `unwinnable analyze --format
    /// jsonl` (their serde serialisation), absent fields as `None`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        record_dict(py, &self.record, keys())
    }

    fn __repr__(&self) -> String {
        let record = &self.record;
        let detail = match (&record.helpmate_san, &record.reason) {
            (Some(san), _) if san.is_empty() => "already checkmate",
            (Some(san), _) => san.as_str(),
            (None, Some(reason)) => reason.as_str(),
            (None, None) => "",
        };
        format!(
            "<Analysis {}: {} {}: {} ({} nodes, {} us)>",
            record.fen, record.winner, record.verdict, detail, record.nodes, record.micros
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyAnalysis>().is_ok_and(|other| other.get().record == self.record)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let record = &self.record;
        (&record.fen, record.winner, record.verdict, &record.helpmate, record.nodes, record.micros).hash(&mut hasher);
        hasher.finish()
    }

    /// Pickling: the record as JSON, read back by `_from_json`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let json = pipeline::to_json(&self.record);
        let restore = py.import("unwinnable._native")?.getattr("Analysis")?.getattr("_from_json")?;
        PyTuple::new(py, [restore, PyTuple::new(py, [json])?.into_any()])
    }

    /// The analysis of a record written as JSON (pickling).
    #[staticmethod]
    fn _from_json(json: &str) -> PyResult<PyAnalysis> {
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        record_of_json(&value)
            .map(PyAnalysis::new)
            .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("not the JSON of an analysis"))
    }
}

/// A record back from its JSON (pickling only: the names are the
/// pipeline's own).
fn record_of_json(value: &serde_json::Value) -> Option<Record> {
    let text = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_string);
    let name = |key: &str, names: &[&'static str]| {
        let found = value.get(key)?.as_str()?;
        names.iter().copied().find(|n| *n == found)
    };
    Some(Record {
        line: value.get("line")?.as_u64()? as usize,
        fen: text("fen")?,
        winner: name("winner", &["white", "black"])?,
        verdict: name("verdict", &["winnable", "unwinnable", "undetermined"])?,
        helpmate: value
            .get("helpmate")
            .and_then(|v| v.as_array())
            .map(|moves| moves.iter().filter_map(|m| m.as_str().map(str::to_string)).collect()),
        helpmate_san: text("helpmate_san"),
        reason: text("reason"),
        cause: name("cause", &["node-budget", "deadline", "memory", "stopped", "not-proved", "helpmate-too-long"]),
        nodes: value.get("nodes")?.as_u64()?,
        micros: value.get("micros")?.as_u64()?,
        unreachable: text("unreachable"),
        certificate: value.get("certificate").cloned(),
    })
}

/// `record` (any serde record) as a dict with every key of `keys` (absent
/// fields as `None`): its serde serialisation, the one the command writes.
pub fn record_dict<'py>(
    py: Python<'py>,
    record: &impl serde::Serialize,
    keys: impl IntoIterator<Item = &'static str>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = pythonize::pythonize(py, record)?.cast_into::<PyDict>()?;
    for key in keys {
        if !dict.contains(key)? {
            dict.set_item(key, py.None())?;
        }
    }
    Ok(dict)
}

/// The colours to analyse `query` for: `winners` if given, else the side
/// not to move.
fn colors(query: &Query, winners: Option<Winners>) -> &'static [Color] {
    query.colors(winners)
}

/// Decided within the inline budget: not cut by it.
fn settled(analysis: &Analysis) -> bool {
    analysis.nodes < INLINE_NODES && !matches!(analysis.verdict, Verdict::Undetermined(_))
}

/// The records of `query` for `colors`, with certificates if asked.
fn records(
    analyzer: &mut search::Analyzer,
    query: &Query,
    colors: &[Color],
    certificate: bool,
) -> Vec<(Record, Analysis)> {
    let mut records = analyze_query(analyzer, 1, &query.fen, &query.position, colors, &query.unreachable);
    if certificate {
        for ((record, analysis), &color) in records.iter_mut().zip(colors) {
            record.certificate = pipeline::certificate::certificate(&query.position, color, &analysis.verdict);
        }
    }
    records
}

/// The analyses of `query` for `colors` with `config`: inline within
/// [`INLINE_NODES`], else on the calling thread's worker.
fn decide(
    py: Python<'_>,
    config: Config,
    query: &Query,
    colors: &'static [Color],
    certificate: bool,
) -> PyResult<Vec<Record>> {
    let inline_config =
        Config { limits: Limits { nodes: config.limits.nodes.min(INLINE_NODES), ..config.limits }, ..config };
    let stop = Arc::new(AtomicBool::new(false));
    let inline = py.detach(|| {
        INLINE.with(|kept| {
            let mut kept = kept.borrow_mut();
            records(interrupt::analyzer(&mut kept, inline_config, &stop), query, colors, certificate)
        })
    });
    if inline_config == config || inline.iter().all(|(_, analysis)| settled(analysis)) {
        return Ok(inline.into_iter().map(|(record, _)| record).collect());
    }
    let query = query.clone();
    let worker_stop = Arc::clone(&stop);
    let answers = interrupt::on_worker(py, &stop, move |kept| {
        records(interrupt::analyzer(kept, config, &worker_stop), &query, colors, certificate)
    })?;
    Ok(answers.into_iter().map(|(record, _)| record).collect())
}

/// The configuration of one analysis: the options planned for one thread.
fn config(search: &pipeline::SearchOptions) -> PyResult<Config> {
    let plan = search.plan(Some(1), Workload::Analyze).map_err(|e| crate::errors::value_error("memory_mb", e))?;
    Ok(search.config(plan.analyzer_mb))
}

/// `query`, or `InvalidFen` if `strict` and no game can reach it.
pub fn strict(query: Query, strict: bool) -> PyResult<Query> {
    if strict && !query.unreachable.is_empty() {
        return Err(InvalidFen::new_err(format!(
            "unreachable position {:?} (rejected with strict=True): {}",
            query.fen,
            pipeline::unreachable_text(&query.unreachable).unwrap_or_default()
        )));
    }
    Ok(query)
}

/// Decide whether ``winner`` can still checkmate in ``position`` by some
/// sequence of legal moves (a helpmate), or prove that no such sequence
/// exists (FIDE Art. 6.9).
///
/// ``position`` is a FEN (4 or 6 fields, as ``unwinnable analyze`` reads
/// it) or any object with a ``.fen()`` method, such as a ``chess.Board``
/// (of standard chess: other ``uci_variant``\ s are refused). ``winner`` is
/// ``"white"``, ``"black"``, ``chess.WHITE``, ``chess.BLACK``, ``"both"``
/// (a tuple of White's and Black's analyses), or ``None``: the side *not*
/// to move (the player whose opponent ran out of time).
///
/// ``mode``: ``"full"`` (sound and complete within the limits),
/// ``"quick"`` (sound, fast, may answer ``undetermined``) or
/// ``"shortest"`` (a shortest helpmate). Limits, as for the command:
/// ``nodes`` (positions searched, default 50,000,000), ``deadline_ms``,
/// ``memory_mb`` (the memory budget of the call: its analyzer's tables,
/// queue and stored positions, allocated as needed and kept by the calling
/// thread for its next calls; default 1024 MiB or half the machine's
/// memory). A limit gives ``"undetermined"``, never a guess.
///
/// A position that no game can reach (more than eight pawns, more pieces
/// than promotions allow, an impossible check) is analysed as given, with
/// the reason in ``Analysis.unreachable``; ``strict=True`` raises
/// ``InvalidFen`` for it instead. ``certificate=True`` adds the verdict's
/// certificate (``docs/certificates.md``).
///
/// Returns an ``Analysis``. Raises ``InvalidFen`` (a ``ValueError``) for a
/// position that cannot be read. The GIL is released while it runs;
/// Ctrl-C interrupts it (``KeyboardInterrupt``).
///
/// >>> import chess
/// >>> board = chess.Board("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1")
/// >>> analysis = analyze(board, chess.WHITE)
/// >>> analysis.verdict, analysis.color == chess.WHITE
/// ('winnable', True)
/// >>> for move in analysis.moves():
/// ...     board.push(move)
/// >>> board.is_checkmate() and board.outcome().winner == chess.WHITE
/// True
/// >>> analyze("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54").verdict
/// 'unwinnable'
#[pyfunction]
#[pyo3(signature = (position, winner=None, *, mode="full", nodes=None, deadline_ms=None, memory_mb=None, strict=false, certificate=false))]
#[allow(clippy::too_many_arguments)]
pub fn analyze<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    winner: Option<&Bound<'py, PyAny>>,
    mode: &str,
    nodes: Option<&Bound<'py, PyAny>>,
    deadline_ms: Option<&Bound<'py, PyAny>>,
    memory_mb: Option<&Bound<'py, PyAny>>,
    strict: bool,
    certificate: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let query = self::strict(args::position(position)?, strict)?;
    let winners = args::winners(winner, "winner")?;
    let config = config(&args::search(mode, nodes, deadline_ms, memory_mb)?)?;
    let mut answers: Vec<PyAnalysis> =
        decide(py, config, &query, colors(&query, winners), certificate)?.into_iter().map(PyAnalysis::new).collect();
    if winners == Some(Winners::Both) {
        let black = answers.pop();
        let white = answers.pop();
        return PyTuple::new(py, [white, black])?.into_bound_py_any(py);
    }
    answers.pop().expect("one analysis").into_bound_py_any(py)
}

/// Whether ``position`` (a FEN or a ``chess.Board``) is dead (FIDE Art.
/// 5.2.2): ``True`` when neither side can checkmate by any series of legal
/// moves (proved), ``False`` when some side still can (a helpmate was
/// found), ``None`` when a limit was hit first. The keyword arguments are
/// those of ``analyze``.
///
/// >>> is_dead("8/8/8/8/8/8/8/K1k5 w - - 0 1")
/// True
/// >>> is_dead("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54")
/// True
/// >>> is_dead("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1")
/// False
#[pyfunction]
#[pyo3(signature = (position, *, mode="full", nodes=None, deadline_ms=None, memory_mb=None, strict=false))]
pub fn is_dead(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    mode: &str,
    nodes: Option<&Bound<'_, PyAny>>,
    deadline_ms: Option<&Bound<'_, PyAny>>,
    memory_mb: Option<&Bound<'_, PyAny>>,
    strict: bool,
) -> PyResult<Option<bool>> {
    let query = self::strict(args::position(position)?, strict)?;
    let config = config(&args::search(mode, nodes, deadline_ms, memory_mb)?)?;
    // Black is analysed only when White cannot be shown to mate.
    let white = decide(py, config, &query, Winners::White.colors(), false)?;
    if white[0].verdict == "winnable" {
        return Ok(Some(false));
    }
    let black = decide(py, config, &query, Winners::Black.colors(), false)?;
    Ok(match (white[0].verdict, black[0].verdict) {
        (_, "winnable") => Some(false),
        ("unwinnable", "unwinnable") => Some(true),
        _ => None,
    })
}
