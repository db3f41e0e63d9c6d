//! The exceptions of the module, both subclasses of `ValueError`:
//! `unwinnable.InvalidFen` (a position that cannot be read) and
//! `unwinnable.PgnError` (a malformed game; its message is the pipeline's
//! error text, with `input`, `game` and `offset` attributes); and the
//! errors of bad arguments, each naming its argument.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
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

/// A `ValueError` for argument `name`: `name: message`.
pub fn value_error(name: &str, message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{name}: {message}"))
}

/// A `TypeError` for argument `name`, which should be `expected`.
pub fn type_error(name: &str, expected: &str, found: &Bound<'_, PyAny>) -> PyErr {
    let kind = found.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!("{name} must be {expected}, not {kind}"))
}

/// The error of an option's value: a `ValueError` naming the keyword.
pub fn option_error(error: pipeline::OptionError) -> PyErr {
    value_error(&error.keyword(), error.message)
}
