//! What `adjudicate` yields: one record per game with the fields of the
//! command's JSONL (`unwinnable adjudicate --format jsonl`), or one error
//! record per malformed game, as Python dicts (the fields are those of
//! [`adjudicate::Record`]).

use adjudicate::Record;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `record` of a game of `input` as a dict (absent fields are `None`).
pub fn record_dict<'py>(py: Python<'py>, input: &str, record: &Record) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "input"), input)?;
    dict.set_item(intern!(py, "game"), record.game)?;
    dict.set_item(intern!(py, "offset"), record.offset)?;
    dict.set_item(intern!(py, "id"), &record.id)?;
    dict.set_item(intern!(py, "recorded"), &record.recorded)?;
    dict.set_item(intern!(py, "correct"), &record.correct)?;
    dict.set_item(intern!(py, "wrong"), record.wrong)?;
    dict.set_item(intern!(py, "rule"), record.rule)?;
    dict.set_item(intern!(py, "article"), record.article)?;
    dict.set_item(intern!(py, "ply"), record.ply)?;
    dict.set_item(intern!(py, "void_moves"), record.void_moves)?;
    dict.set_item(intern!(py, "fen"), &record.fen)?;
    dict.set_item(intern!(py, "explanation"), &record.explanation)?;
    dict.set_item(intern!(py, "helpmate"), &record.helpmate)?;
    dict.set_item(intern!(py, "nodes"), record.nodes)?;
    dict.set_item(intern!(py, "threefold_claimable"), record.threefold_claimable)?;
    dict.set_item(intern!(py, "fifty_moves_claimable"), record.fifty_moves_claimable)?;
    dict.set_item(intern!(py, "unreachable"), &record.unreachable)?;
    dict.set_item(intern!(py, "white"), &record.white)?;
    dict.set_item(intern!(py, "black"), &record.black)?;
    dict.set_item(intern!(py, "date"), &record.date)?;
    dict.set_item(intern!(py, "site"), &record.site)?;
    Ok(dict)
}

/// The record of a game that could not be adjudicated: the keys of the
/// command's error records.
pub fn error_dict<'py>(
    py: Python<'py>,
    input: &str,
    game: u64,
    offset: u64,
    error: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "input"), input)?;
    dict.set_item(intern!(py, "game"), game)?;
    dict.set_item(intern!(py, "offset"), offset)?;
    dict.set_item(intern!(py, "error"), error)?;
    Ok(dict)
}
