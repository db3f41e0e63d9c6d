//! `analyze(position, winner)` and `is_dead(position)`, and the
//! `Analysis` they answer with.
//!
//! # Cost of a call
//!
//! A call first runs the analysis on the calling thread with the GIL
//! released and a budget of [`INLINE_NODES`] nodes: most trivial positions
//! (a lone king, the static proofs, a short forced line, a helpmate found
//! at once) are decided there, with no thread to start. The budget also
//! bounds the recursion depth of the search (a recursive step counts a node
//! first), so the calling thread's stack is enough. Only an answer reached
//! without hitting that budget is kept: it is the answer of the same
//! deterministic search with the full budget, which would have stopped at
//! the same node. Anything else is analysed again from the start on a
//! thread of its own with the requested limits ([`interrupt::run`]), which
//! Ctrl-C stops.
//!
//! Each calling thread keeps its analyzers (and their tables, up to
//! `tt_mb` MiB) between calls, one per configuration, at most
//! [`CACHED`] of them.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ::adjudicate::{helpmate_lines, verdict_reason};
use movegen::{Color, Position};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use search::{Analysis, Analyzer, Config, Dead, Limits, Verdict};

use crate::{interrupt, options, position};

/// The node budget of the first, inline attempt.
pub const INLINE_NODES: u64 = 64;

/// The most analyzers a thread keeps.
pub const CACHED: usize = 4;

/// An analyzer with its stop flag.
#[derive(Debug)]
struct Cached {
    config: Config,
    analyzer: Analyzer,
    stop: Arc<AtomicBool>,
}

thread_local! {
    static CACHE: RefCell<Vec<Cached>> = const { RefCell::new(Vec::new()) };
}

/// The thread's analyzer for `config`, taken out of the cache (a signal
/// handler may run Python code that analyses too, while it is in use).
fn take(config: Config) -> Cached {
    let cached = CACHE
        .try_with(|cache| {
            let mut cache = cache.borrow_mut();
            let index = cache.iter().position(|cached| cached.config == config)?;
            Some(cache.swap_remove(index))
        })
        .ok()
        .flatten();
    cached.unwrap_or_else(|| {
        let stop = Arc::new(AtomicBool::new(false));
        let mut analyzer = Analyzer::new(config);
        analyzer.set_stop_flag(stop.clone());
        Cached { config, analyzer, stop }
    })
}

fn give_back(cached: Cached) {
    let _ = CACHE.try_with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHED {
            cache.remove(0);
        }
        cache.push(cached);
    });
}

/// Runs `query` inline with [`INLINE_NODES`], then, if `settled` says the
/// answer may depend on that budget, again with `config` on a thread that
/// Ctrl-C stops.
fn decide<R: Send>(
    py: Python<'_>,
    config: Config,
    query: impl Fn(&mut Analyzer) -> R + Sync,
    settled: impl Fn(&R) -> bool,
) -> PyResult<R> {
    let inline_config =
        Config { limits: Limits { nodes: config.limits.nodes.min(INLINE_NODES), ..config.limits }, ..config };
    let mut inline = take(inline_config);
    inline.stop.store(false, Ordering::Relaxed);
    let answer = py.detach(|| query(&mut inline.analyzer));
    give_back(inline);
    if inline_config == config || settled(&answer) {
        return Ok(answer);
    }
    let mut full = take(config);
    full.stop.store(false, Ordering::Relaxed);
    let stop = full.stop.clone();
    let answer = interrupt::run(py, &stop, || query(&mut full.analyzer));
    give_back(full);
    answer
}

/// Decided within the inline budget: not cut by it.
fn settled(analysis: &Analysis) -> bool {
    analysis.nodes < INLINE_NODES && !matches!(analysis.verdict, Verdict::Undetermined(_))
}

/// The answer of one analysis: whether ``winner`` can still checkmate in
/// ``fen``, with the evidence.
///
/// Attributes: ``fen`` (as given), ``winner`` (``"white"``/``"black"``),
/// ``verdict`` (``"winnable"``, ``"unwinnable"`` or ``"undetermined"``),
/// ``helpmate`` (the moves in UCI when winnable, else ``None``),
/// ``helpmate_san``, ``reason`` (the proof, after the forced moves if any;
/// why undetermined; or that the position is already checkmate),
/// ``cause`` (``"node-budget"``, ``"deadline"``, ``"memory"``,
/// ``"stopped"``, ``"not-proved"``, ``"helpmate-too-long"`` when
/// undetermined), ``nodes``, ``micros`` (wall-clock time of the call),
/// ``unreachable`` (why no game can reach the position, else ``None``: it
/// is analysed all the same). ``to_dict()`` gives the keys of
/// ``unwinnable analyze --format jsonl``.
#[pyclass(frozen, module = "unwinnable", name = "Analysis")]
#[derive(Clone, Debug)]
pub struct PyAnalysis {
    /// The FEN as given.
    #[pyo3(get)]
    fen: String,
    /// `"white"` or `"black"`: the intended winner.
    #[pyo3(get)]
    winner: &'static str,
    /// `"winnable"`, `"unwinnable"` or `"undetermined"`.
    #[pyo3(get)]
    verdict: &'static str,
    /// The helpmate in UCI (a list of strings) when winnable, else `None`.
    #[pyo3(get)]
    helpmate: Option<Vec<String>>,
    /// The helpmate in SAN with move numbers, when winnable.
    #[pyo3(get)]
    helpmate_san: Option<String>,
    /// Why it is unwinnable (the proof, after the forced moves if any), why
    /// it is undetermined, or that it is already checkmate (a winnable
    /// position with the empty helpmate); else `None`.
    #[pyo3(get)]
    reason: Option<String>,
    /// Why it is undetermined: `node-budget`, `deadline`, `memory`,
    /// `stopped`, `not-proved` or `helpmate-too-long`; else `None`.
    #[pyo3(get)]
    cause: Option<&'static str>,
    /// Positions searched.
    #[pyo3(get)]
    nodes: u64,
    /// Wall-clock time of the call, in microseconds.
    #[pyo3(get)]
    micros: u64,
    /// Why no game can reach the position (more than eight pawns, more
    /// pieces than promotions allow, an impossible check), else `None`.
    #[pyo3(get)]
    unreachable: Option<String>,
}

impl PyAnalysis {
    /// The answer `analysis` for `pos` (written `fen`) and `winner`.
    pub fn new(fen: String, pos: &Position, winner: Color, analysis: &Analysis, elapsed: Duration) -> PyAnalysis {
        let (helpmate, helpmate_san) = helpmate_lines(pos, &analysis.verdict).unzip();
        PyAnalysis {
            winner: winner.name(),
            verdict: analysis.verdict.name(),
            helpmate,
            helpmate_san,
            reason: verdict_reason(pos, winner, &analysis.verdict),
            cause: analysis.verdict.cause().map(search::Cause::name),
            nodes: analysis.nodes,
            micros: u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
            unreachable: position::unreachable(&fen),
            fen,
        }
    }
}

#[pymethods]
impl PyAnalysis {
    /// The same fields as a dict (the keys of `unwinnable analyze --format
    /// jsonl`, absent fields as `None`), for pandas.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("fen", &self.fen)?;
        dict.set_item("winner", self.winner)?;
        dict.set_item("verdict", self.verdict)?;
        dict.set_item("helpmate", &self.helpmate)?;
        dict.set_item("helpmate_san", &self.helpmate_san)?;
        dict.set_item("reason", &self.reason)?;
        dict.set_item("cause", self.cause)?;
        dict.set_item("nodes", self.nodes)?;
        dict.set_item("micros", self.micros)?;
        dict.set_item("unreachable", &self.unreachable)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        let detail = match (&self.helpmate_san, &self.reason) {
            (Some(san), _) if san.is_empty() => "already checkmate",
            (Some(san), _) => san.as_str(),
            (None, Some(reason)) => reason.as_str(),
            (None, None) => "",
        };
        format!(
            "<Analysis {}: {} {}: {} ({} nodes, {} us)>",
            self.fen, self.winner, self.verdict, detail, self.nodes, self.micros
        )
    }
}

/// Decide whether ``winner`` can still checkmate in ``position`` by some
/// sequence of legal moves (a helpmate), or prove that no such sequence
/// exists (FIDE Art. 6.9).
///
/// ``position`` is a FEN (4 or 6 fields) or any object with a ``.fen()``
/// method, such as a ``chess.Board``. ``winner`` is ``"white"``,
/// ``"black"``, ``chess.WHITE``, ``chess.BLACK``, or ``None``: the side
/// *not* to move (the player whose opponent ran out of time).
///
/// ``mode``: ``"full"`` (sound and complete within the limits),
/// ``"quick"`` (sound, fast, may answer ``undetermined``) or
/// ``"shortest"`` (a shortest helpmate). Limits: ``nodes`` (positions
/// searched, default 50,000,000: 5 to 20 s), ``deadline_ms``, ``tt_mb``
/// (the analyzer's memory: its tables, queue and stored positions,
/// allocated as needed; default 256 MiB; kept by the calling thread for
/// its next calls). A limit gives ``"undetermined"``, never a guess. The
/// node count of a long search depends on ``tt_mb`` (a full table forgets
/// positions).
///
/// A position that no game can reach (more than eight pawns, more pieces
/// than promotions allow, an impossible check) is analysed as given, with
/// the reason in ``Analysis.unreachable``; ``strict=True`` raises
/// ``InvalidFen`` for it instead.
///
/// Returns an ``Analysis``. Raises ``InvalidFen`` (a ``ValueError``) for a
/// position that cannot be read. The GIL is released while it runs;
/// Ctrl-C interrupts it (``KeyboardInterrupt``).
///
/// >>> import chess
/// >>> board = chess.Board("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1")
/// >>> analysis = analyze(board, chess.WHITE)
/// >>> analysis.verdict
/// 'winnable'
/// >>> for uci in analysis.helpmate:
/// ...     board.push(chess.Move.from_uci(uci))
/// >>> board.is_checkmate() and board.outcome().winner == chess.WHITE
/// True
/// >>> analyze("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54").verdict
/// 'unwinnable'
#[pyfunction]
#[pyo3(signature = (position, winner=None, *, mode="full", nodes=None, deadline_ms=None, tt_mb=None, strict=false))]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    winner: Option<&Bound<'_, PyAny>>,
    mode: &str,
    nodes: Option<i64>,
    deadline_ms: Option<f64>,
    tt_mb: Option<i64>,
    strict: bool,
) -> PyResult<PyAnalysis> {
    let start = Instant::now();
    let (pos, fen) = position::position(position)?;
    if strict {
        if let Some(reason) = position::unreachable(&fen) {
            return Err(crate::errors::InvalidFen::new_err(format!(
                "unreachable position {fen:?} (rejected with strict=True): {reason}"
            )));
        }
    }
    let winner = options::winner(winner, &pos)?;
    let config = options::config(mode, nodes, deadline_ms, tt_mb)?;
    let analysis = decide(py, config, |analyzer| analyzer.analyze(&pos, winner), settled)?;
    Ok(PyAnalysis::new(fen, &pos, winner, &analysis, start.elapsed()))
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
#[pyo3(signature = (position, *, mode="full", nodes=None, deadline_ms=None, tt_mb=None))]
pub fn is_dead(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    mode: &str,
    nodes: Option<i64>,
    deadline_ms: Option<f64>,
    tt_mb: Option<i64>,
) -> PyResult<Option<bool>> {
    let (pos, _) = position::position(position)?;
    let config = options::config(mode, nodes, deadline_ms, tt_mb)?;
    let dead = decide(
        py,
        config,
        |analyzer| analyzer.is_dead(&pos),
        |dead: &Dead| settled(&dead.white) && dead.black.as_ref().is_none_or(settled),
    )?;
    Ok(if dead.is_dead() {
        Some(true)
    } else if dead.is_alive() {
        Some(false)
    } else {
        None
    })
}
