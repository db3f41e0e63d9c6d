//! The exceptions of the module, both subclasses of `ValueError`:
//! `unwinnable.InvalidFen` (a position that cannot be read) and
//! `unwinnable.PgnError` (a malformed game; its message is the
//! `adjudicate` crate's error text, with `input`, `game` and `offset`
//! attributes).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    unwinnable,
    InvalidFen,
    PyValueError,
    "A FEN (or the `.fen()` of a board) that is not a legal chess position: the message says what is wrong."
);

create_exception!(
    unwinnable,
    PgnError,
    PyValueError,
    "A malformed PGN game (bad SAN, illegal move, bad tag, truncated game, junk).\n\n\
     Attributes: `input` (the file, or `<string>`/`<bytes>`), `game` (its number in the input, from 1), \
     `offset` (the byte offset of the game in the decompressed input)."
);

/// A `PgnError` with `message` and its attributes.
pub fn pgn_error(py: Python<'_>, message: String, input: &str, game: u64, offset: u64) -> PyErr {
    let error = PgnError::new_err(message);
    let value = error.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of
    // memory exhaustion; the error stays a PgnError either way.
    let _ = value.setattr("input", input);
    let _ = value.setattr("game", game);
    let _ = value.setattr("offset", offset);
    error
}
