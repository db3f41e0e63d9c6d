//! `analyze_many(positions)`: the pipeline's `analyze` step on its pool of
//! workers (one analyzer each) through its ordered map, the answers in
//! input order; what `unwinnable analyze --threads N` runs.

use std::io;

use pipeline::analyze::{self, Analyze, Batch, Item, Output};
use pipeline::ordered::{self, Source};
use pipeline::{Pool, Winners};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

use crate::analysis::{PyAnalysis, strict};
use crate::errors::{InvalidFen, type_error, value_error};
use crate::{args, interrupt};

/// The most queries in one job (the command's batches grow to the same).
const BATCH: usize = analyze::BATCH_LINES;

/// The batches of a list of items, for the ordered map.
struct Batches(std::vec::IntoIter<Vec<Item>>);

impl Source for Batches {
    type Item = Batch;
    fn next_item(&mut self) -> io::Result<Option<(Batch, usize)>> {
        Ok(self.0.next().map(|items| (Batch::new(items), 4 << 10)))
    }
}

/// Analyse many positions in parallel on the pipeline's worker threads
/// (one analyzer each; ``threads=None``: one per CPU that fits in the
/// memory budget), with the GIL released. Returns a list of ``Analysis``,
/// in input order: one per position, or two (White's, then Black's) with
/// the winner ``"both"``.
///
/// ``positions`` is a list (or any iterable, not a string) whose items are
/// positions (a FEN or a ``chess.Board``) or ``(position, winner)``
/// pairs; ``winner`` is the default for the others. The other keyword
/// arguments are those of ``analyze``; ``memory_mb`` is the budget of the
/// whole call, divided among its threads, as for ``unwinnable analyze``.
/// An item that cannot be read raises ``InvalidFen`` (naming its index)
/// before any analysis; Ctrl-C stops the analyses.
///
/// >>> answers = analyze_many(["8/8/8/8/8/8/8/K1k5 w - - 0 1",
/// ...                         ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "white")])
/// >>> [answer.verdict for answer in answers]
/// ['unwinnable', 'winnable']
#[pyfunction]
#[pyo3(signature = (positions, winner=None, *, threads=None, mode="full", nodes=None, deadline_ms=None, memory_mb=None, strict=false, certificate=false))]
#[allow(clippy::too_many_arguments)]
pub fn analyze_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    winner: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    mode: &str,
    nodes: Option<&Bound<'_, PyAny>>,
    deadline_ms: Option<&Bound<'_, PyAny>>,
    memory_mb: Option<&Bound<'_, PyAny>>,
    strict: bool,
    certificate: bool,
) -> PyResult<Vec<PyAnalysis>> {
    if positions.is_instance_of::<PyString>() || positions.is_instance_of::<PyBytes>() {
        return Err(type_error("positions", "a list of positions (not one string)", positions));
    }
    let default = args::winners(winner, "winner")?;
    let search = args::search(mode, nodes, deadline_ms, memory_mb)?;
    let threads = args::threads(threads)?;
    let iterator = positions.try_iter().map_err(|_| type_error("positions", "an iterable of positions", positions))?;
    let mut items = Vec::new();
    for (index, item) in iterator.enumerate() {
        let item = item?;
        let (position, winners) = match item.cast::<PyTuple>() {
            Ok(pair) if pair.len() == 2 => (pair.get_item(0)?, args::winners(Some(&pair.get_item(1)?), "winner")?),
            _ => (item, None),
        };
        let query = args::position(&position).and_then(|query| self::strict(query, strict)).map_err(|error| {
            if error.is_instance_of::<InvalidFen>(py) {
                InvalidFen::new_err(format!("item {index}: {}", error.value(py)))
            } else {
                error
            }
        })?;
        let colors = query.colors(winners.or(default));
        items.push(Item::Query {
            line: index + 1,
            fen: query.fen,
            position: query.position,
            colors,
            unreachable: query.unreachable,
        });
    }
    let count = items.len();
    let options = analyze::Options::new(
        &search,
        &threads,
        &pipeline::QueryOptions::new(default.filter(|w| *w == Winners::Both)),
        &pipeline::ProofOptions::new(strict, certificate),
        Some(count.div_ceil(BATCH).max(1)),
    )
    .map_err(|e| value_error("memory_mb", e))?;
    let mut batches = Vec::new();
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        batches.push(items.by_ref().take(BATCH).collect::<Vec<Item>>());
    }
    let config = options.config;
    let pool = Pool::new("analyze", options.threads, 2 * options.threads, move |_, stop| {
        let mut analyzer = search::Analyzer::new(config);
        analyzer.set_stop_flag(std::sync::Arc::clone(stop));
        analyzer
    })
    .map_err(|e| PyRuntimeError::new_err(format!("cannot start the analysis threads: {e}")))?;
    let mut records = Vec::with_capacity(count);
    let mut failed = None;
    let ran = interrupt::run(
        py,
        || pool.stop(),
        || {
            let mut sink = |outputs: analyze::Outputs| -> io::Result<()> {
                for output in outputs {
                    match output {
                        Output::Records(more) => records.extend(more),
                        Output::Error(error) => failed = failed.take().or(Some(error)),
                    }
                }
                Ok(())
            };
            ordered::run(&pool, Batches(batches.into_iter()), Analyze { certificate }, &mut sink, options.window_bytes)
        },
    )?;
    ran.map_err(|e| PyRuntimeError::new_err(format!("the analyses stopped: {e}")))?;
    if let Some(error) = failed {
        return Err(PyRuntimeError::new_err(format!("item {}: {}", error.line - 1, error.error)));
    }
    Ok(records.into_iter().map(PyAnalysis::new).collect())
}
