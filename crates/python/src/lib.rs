//! The Python extension module `unwinnable._native`, re-exported by the
//! `unwinnable` package (`python/unwinnable/__init__.py`): chess
//! unwinnability for python-chess users, and the correct result of whole
//! PGN databases, on the project's crates (`movegen`, `search`,
//! `adjudicate`) through their public APIs.
//!
//! * [`analysis`]: `analyze`, `is_dead` and the `Analysis` class;
//! * [`many`]: `analyze_many`, on Rust threads;
//! * [`games`]: `adjudicate`, an iterator of records ([`record`]), and the
//!   private entry points of `unwinnable.dask` (byte ranges of a file,
//!   lists of game texts), with [`ranges`] to cut files on game boundaries;
//! * [`interrupt`]: long work off the calling thread, so that the GIL is
//!   released and Ctrl-C stops it;
//! * [`errors`]: `InvalidFen` and `PgnError`, both `ValueError`s;
//!   [`options`] and [`position`] read the arguments.

#![forbid(unsafe_code)]

mod analysis;
mod errors;
mod games;
mod interrupt;
mod many;
mod options;
mod position;
mod ranges;
mod record;

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
    m.add_function(wrap_pyfunction!(analysis::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::is_dead, m)?)?;
    m.add_function(wrap_pyfunction!(many::analyze_many, m)?)?;
    m.add_function(wrap_pyfunction!(games::adjudicate, m)?)?;
    m.add_function(wrap_pyfunction!(games::_adjudicate_range, m)?)?;
    m.add_function(wrap_pyfunction!(games::_adjudicate_texts, m)?)?;
    m.add_function(wrap_pyfunction!(games::_count_games, m)?)?;
    m.add_function(wrap_pyfunction!(ranges::_pgn_boundaries, m)?)?;
    m.add("INLINE_NODES", analysis::INLINE_NODES)?;
    Ok(())
}
