//! Reading a position argument: a FEN string, or any object with a
//! `.fen()` method (a `chess.Board`; with `chess960=True`, read as
//! Chess960).

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
        let fen: String = method
            .call0()?
            .extract()
            .map_err(|_| PyTypeError::new_err("the position's .fen() did not return a str"))?;
        // A `chess.Board(chess960=True)`: its X-FEN read as Chess960, and
        // castling written as the king taking its rook, as python-chess does.
        let chess960 = obj.getattr(pyo3::intern!(obj.py(), "chess960")).and_then(|flag| flag.is_truthy());
        if chess960.unwrap_or(false) {
            let pos = Position::from_fen_chess960(fen.trim())
                .map_err(|e| InvalidFen::new_err(format!("invalid Chess960 FEN {fen:?}: {e}")))?;
            return Ok((pos, fen));
        }
        fen
    } else {
        return Err(PyTypeError::new_err(format!(
            "a position must be a FEN string or have a .fen() method (a chess.Board), not {}",
            obj.get_type().name()?
        )));
    };
    parse(&fen).map(|pos| (pos, fen))
}

/// Parses a FEN (4 or 6 fields; a Shredder-FEN, or an X-FEN only Chess960
/// can read, as Chess960), or raises `InvalidFen`.
pub fn parse(fen: &str) -> PyResult<Position> {
    Position::from_fen_any(fen.trim()).map_err(|e| InvalidFen::new_err(format!("invalid FEN {fen:?}: {e}")))
}

/// Why no game can reach the position of `fen` (its en passant square as
/// given), as one sentence; `None` when none of the rules of
/// `movegen::unreachable` applies.
pub fn unreachable(fen: &str) -> Option<String> {
    let setup = Setup::from_fen(fen.trim()).ok()?;
    let reasons = movegen::unreachable(&setup);
    (!reasons.is_empty()).then(|| reasons.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
}
