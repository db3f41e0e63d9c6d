//! `analyze_many(positions)`: many analyses on Rust threads, one
//! `Analyzer` per thread, the answers in input order.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::Instant;

use movegen::{Color, Position};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use search::{Analysis, Analyzer, Config};

use crate::analysis::PyAnalysis;
use crate::errors::InvalidFen;
use crate::{interrupt, options, position};

/// One query: the position, its FEN as given, the intended winner.
type Query = (Position, String, Color);

/// Reads the queries: each item is a position (FEN or board) or a
/// `(position, winner)` pair; `winner` is the default.
fn queries(items: &Bound<'_, PyAny>, winner: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Query>> {
    let py = items.py();
    let mut queries = Vec::new();
    for (index, item) in items.try_iter()?.enumerate() {
        let item = item?;
        let read = || -> PyResult<Query> {
            let (position, color) = match item.cast::<PyTuple>() {
                Ok(pair) if pair.len() == 2 => (pair.get_item(0)?, Some(pair.get_item(1)?)),
                _ => (item.clone(), None),
            };
            let (pos, fen) = position::position(&position)?;
            let color = options::winner(color.as_ref().or(winner), &pos)?;
            Ok((pos, fen, color))
        };
        match read() {
            Ok(query) => queries.push(query),
            Err(error) if error.is_instance_of::<InvalidFen>(py) => {
                return Err(InvalidFen::new_err(format!("item {index}: {}", error.value(py))));
            }
            Err(error) => return Err(error),
        }
    }
    Ok(queries)
}

/// Analyse many positions in parallel on Rust threads (one analyzer per
/// thread; ``threads=None`` uses every CPU), with the GIL released.
/// Returns a list of ``Analysis``, in input order.
///
/// Each item of ``positions`` is a position (a FEN or a ``chess.Board``)
/// or a ``(position, winner)`` pair; ``winner`` is the default for the
/// others. The other keyword arguments are those of ``analyze``. An item
/// that cannot be read raises ``InvalidFen`` (naming its index) before any
/// analysis; Ctrl-C stops the analyses.
///
/// >>> answers = analyze_many(["8/8/8/8/8/8/8/K1k5 w - - 0 1",
/// ...                         ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "white")])
/// >>> [answer.verdict for answer in answers]
/// ['unwinnable', 'winnable']
#[pyfunction]
#[pyo3(signature = (positions, winner=None, *, threads=None, mode="full", nodes=None, deadline_ms=None, tt_mb=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    winner: Option<&Bound<'_, PyAny>>,
    threads: Option<i64>,
    mode: &str,
    nodes: Option<i64>,
    deadline_ms: Option<f64>,
    tt_mb: Option<i64>,
) -> PyResult<Vec<PyAnalysis>> {
    let config = options::config(mode, nodes, deadline_ms, tt_mb)?;
    let threads = options::threads(threads)?;
    let queries = queries(positions, winner)?;
    if queries.is_empty() {
        return Ok(Vec::new());
    }
    let threads = threads.min(queries.len());
    let stop = Arc::new(AtomicBool::new(false));
    let next = AtomicUsize::new(0);
    let answers = interrupt::run(py, &stop, || {
        thread::scope(|scope| {
            let share = || work(config, &queries, &next, &stop);
            let helpers: Vec<_> = (1..threads)
                .filter_map(|_| {
                    thread::Builder::new().stack_size(interrupt::STACK_SIZE).spawn_scoped(scope, share).ok()
                })
                .collect();
            let mut answers = share();
            for helper in helpers {
                match helper.join() {
                    Ok(more) => answers.extend(more),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            answers
        })
    })?;
    let mut ordered: Vec<Option<(Analysis, std::time::Duration)>> = vec![None; queries.len()];
    for (index, analysis, elapsed) in answers {
        ordered[index] = Some((analysis, elapsed));
    }
    queries
        .into_iter()
        .zip(ordered)
        .map(|((pos, fen, color), answer)| match answer {
            Some((analysis, elapsed)) => Ok(PyAnalysis::new(fen, &pos, color, &analysis, elapsed)),
            // Every index below the count is taken by some thread, which
            // answers it unless stopped (and a stop raised an exception).
            None => Err(pyo3::exceptions::PyRuntimeError::new_err("internal error: a query was not analysed")),
        })
        .collect()
}

/// One thread's share: takes the next query until none is left or `stop`.
fn work(
    config: Config,
    queries: &[Query],
    next: &AtomicUsize,
    stop: &Arc<AtomicBool>,
) -> Vec<(usize, Analysis, std::time::Duration)> {
    let mut analyzer = Analyzer::new(config);
    analyzer.set_stop_flag(stop.clone());
    let mut answers = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some((pos, _, color)) = queries.get(index) else { break };
        let start = Instant::now();
        let analysis = analyzer.analyze(pos, *color);
        answers.push((index, analysis, start.elapsed()));
    }
    answers
}
