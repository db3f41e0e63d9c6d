//! Reading a position argument: a FEN string, or any object with a
//! `.fen()` method (a `chess.Board`).

use movegen::{Position, Setup};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::InvalidFen;

/// The position `obj` describes, and its FEN as given.
pub fn position(obj: &Bound<'_, PyAny>) -> PyResult<(Position, String)> {
    let fen: String = if let Ok(text) = obj.cast::<PyString>() {
        text.to_cow()?.into_owned()
    } else if let Ok(method) = obj.getattr(pyo3::intern!(obj.py(), "fen")) {
        method.call0()?.extract().map_err(|_| PyTypeError::new_err("the position's .fen() did not return a str"))?
    } else {
        return Err(PyTypeError::new_err(format!(
            "a position must be a FEN string or have a .fen() method (a chess.Board), not {}",
            obj.get_type().name()?
        )));
    };
    parse(&fen).map(|pos| (pos, fen))
}

/// Parses a FEN (4 or 6 fields), or raises `InvalidFen`.
pub fn parse(fen: &str) -> PyResult<Position> {
    Position::from_fen(fen.trim()).map_err(|e| InvalidFen::new_err(format!("invalid FEN {fen:?}: {e}")))
}

/// Why no game can reach the position of `fen` (its en passant square as
/// given), as one sentence; `None` when none of the rules of
/// `movegen::unreachable` applies.
pub fn unreachable(fen: &str) -> Option<String> {
    let setup = Setup::from_fen(fen.trim()).ok()?;
    let reasons = movegen::unreachable(&setup);
    (!reasons.is_empty()).then(|| reasons.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
}
