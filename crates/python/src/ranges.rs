//! `_pgn_boundaries(path, chunk_bytes)`: a large plain PGN file cut into
//! byte ranges that start on game boundaries, so that each range can be
//! adjudicated on its own (one Dask task each) with exactly the games,
//! offsets and texts that reading the whole file gives. The boundaries are
//! found by the `adjudicate` crate's splitter itself
//! ([`adjudicate::pgn::game_boundaries`], which says why they hold).

use std::fs::File;
use std::io::BufReader;

use ::adjudicate::pgn::game_boundaries;
use pyo3::prelude::*;

use crate::games::io_error;

/// The start offsets of the ranges of `path`, about `chunk_bytes` apart
/// and on game boundaries, followed by the file's size: range `i` is
/// `offsets[i]..offsets[i + 1]`.
#[pyfunction]
pub fn _pgn_boundaries(py: Python<'_>, path: &str, chunk_bytes: u64) -> PyResult<Vec<u64>> {
    let error = |e| io_error(path, e);
    let file = File::open(path).map_err(error)?;
    let size = file.metadata().map_err(error)?.len();
    let mut reader = BufReader::with_capacity(64 << 10, file);
    py.detach(|| game_boundaries(&mut reader, size, chunk_bytes)).map_err(error)
}
