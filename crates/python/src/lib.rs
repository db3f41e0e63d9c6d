//! The Python extension module `unwinnable._native`, re-exported by the
//! `unwinnable` package (`python/unwinnable/__init__.py`): chess
//! unwinnability for python-chess users, and the correct result of whole
//! PGN databases, on the pipeline the command and the service run
//! (`pipeline`: the same options, inputs, steps and records).
//!
//! * [`analysis`]: `analyze`, `is_dead` and the `Analysis` class;
//! * [`many`]: `analyze_many`, on the pipeline's pool and ordered map;
//! * [`check`]: `check`, a certificate through the independent checker;
//! * [`games`]: `adjudicate`, an iterator of records, and the private
//!   entry points of `unwinnable.dask` (byte ranges of a file, chunks of
//!   decompressed text, lists of game texts, the cutting of inputs);
//! * [`options`]: the pipeline's options listed for `unwinnable.dask`;
//! * [`interrupt`]: work off the calling thread (its own worker, kept), so
//!   that the GIL is released and Ctrl-C stops it;
//! * [`errors`]: `InvalidFen` and `PgnError` (both `ValueError`s) and the
//!   errors that name their argument; [`args`] reads the arguments.

#![forbid(unsafe_code)]

mod analysis;
mod args;
mod arrow;
mod check;
mod errors;
mod games;
mod interrupt;
mod many;
mod options;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidFen", py.get_type::<errors::InvalidFen>())?;
    m.add("PgnError", py.get_type::<errors::PgnError>())?;
    m.add_class::<analysis::PyAnalysis>()?;
    m.add_class::<games::Adjudications>()?;
    m.add_class::<games::Chunks>()?;
    m.add_class::<arrow::ArrowBatch>()?;
    m.add_function(wrap_pyfunction!(analysis::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::is_dead, m)?)?;
    m.add_function(wrap_pyfunction!(check::check, m)?)?;
    m.add_function(wrap_pyfunction!(many::analyze_many, m)?)?;
    m.add_function(wrap_pyfunction!(games::adjudicate, m)?)?;
    m.add_function(wrap_pyfunction!(games::_adjudicate_range, m)?)?;
    m.add_function(wrap_pyfunction!(games::_adjudicate_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(games::_adjudicate_texts, m)?)?;
    m.add_function(wrap_pyfunction!(games::_count_games, m)?)?;
    m.add_function(wrap_pyfunction!(games::_pgn_boundaries, m)?)?;
    m.add_function(wrap_pyfunction!(games::_chunks, m)?)?;
    m.add_function(wrap_pyfunction!(options::_options, m)?)?;
    m.add("INLINE_NODES", analysis::INLINE_NODES)?;
    m.add("GAME_KEYS", games::GAME_KEYS.to_vec())?;
    Ok(())
}
