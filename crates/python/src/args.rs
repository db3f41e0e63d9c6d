//! Reading the arguments: positions (a FEN by the command's rules, or a
//! python-chess board of standard chess or Chess960), colours (`"white"`, `"black"`,
//! `"both"` or a python-chess colour: `chess.WHITE` is `True`), and the
//! pipeline's options, checked by `pipeline::options` (one definition and
//! one text per option, whatever the front end).

use movegen::Color;
use pipeline::options::{GameOptions, Mode, SearchOptions, ThreadOptions};
use pipeline::{Query, Winners, parse_fen};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use crate::errors::{InvalidFen, option_error, type_error, value_error};

/// The position `obj` describes: a FEN (4 fields, or 6 with the move
/// counters, as the command reads it) or a board with `.fen()` whose
/// `uci_variant` (if it has one) is `"chess"`; a `chess.Board(chess960=True)`
/// is played as Chess960 (castling written as the king taking its rook, as
/// python-chess does).
pub fn position(obj: &Bound<'_, PyAny>) -> PyResult<Query> {
    let mut chess960 = false;
    let fen: String = if let Ok(text) = obj.cast::<PyString>() {
        text.to_cow()?.into_owned()
    } else if let Ok(method) = obj.getattr(pyo3::intern!(obj.py(), "fen")) {
        if let Ok(variant) = obj.getattr(pyo3::intern!(obj.py(), "uci_variant")) {
            let variant: String = variant.str()?.to_cow()?.into_owned();
            if variant != "chess" {
                return Err(value_error(
                    "position",
                    format!("a board of the variant {variant:?}: only standard chess is analysed"),
                ));
            }
        }
        chess960 = obj.getattr(pyo3::intern!(obj.py(), "chess960")).and_then(|flag| flag.is_truthy()).unwrap_or(false);
        method.call0()?.extract().map_err(|_| value_error("position", "its .fen() did not return a str"))?
    } else {
        return Err(type_error("position", "a FEN string or a board with .fen() (a chess.Board)", obj));
    };
    let query = parse_fen(&fen).map_err(|e| InvalidFen::new_err(format!("{:?}: {e}", pipeline::shorten(&fen))))?;
    Ok(query.chess960(chess960))
}

/// The winners `obj` names: `None` (the default), `"white"`, `"black"`,
/// `"w"`, `"b"`, `"both"` (any case), or a python-chess colour.
pub fn winners(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<Winners>> {
    let Some(obj) = obj.filter(|obj| !obj.is_none()) else { return Ok(None) };
    if let Ok(flag) = obj.cast::<PyBool>() {
        return Ok(Some(if flag.is_true() { Winners::White } else { Winners::Black }));
    }
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
        return Winners::from_name(text.trim()).map(Some).ok_or_else(|| {
            value_error(name, format!("{:?} is not a colour (white, black, both, chess.WHITE or chess.BLACK)", text))
        });
    }
    Err(type_error(name, "'white', 'black', 'both', chess.WHITE, chess.BLACK or None", obj))
}

/// A colour (`timeout=`): `None`, `"white"`, `"black"` or a python-chess
/// colour.
pub fn color(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<Color>> {
    match winners(obj, name)? {
        None => Ok(None),
        Some(Winners::Both) => Err(value_error(name, "takes one colour, not both")),
        Some(winners) => Ok(Some(winners.colors()[0])),
    }
}

/// A whole number argument (`None`: not given).
fn number(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<u64>> {
    let Some(obj) = obj.filter(|obj| !obj.is_none()) else { return Ok(None) };
    if obj.is_instance_of::<PyBool>() {
        return Err(type_error(name, "a whole number", obj));
    }
    if let Ok(int) = obj.cast::<PyInt>() {
        return match int.extract::<i128>() {
            Ok(value) if value >= 0 => Ok(Some(u64::try_from(value).unwrap_or(u64::MAX))),
            _ => Err(value_error(name, format!("{} is not a whole number >= 0", int))),
        };
    }
    if let Ok(float) = obj.cast::<PyFloat>() {
        let value = float.value();
        if value.is_finite() && value >= 0.0 && value.fract() == 0.0 {
            return Ok(Some(value as u64));
        }
        return Err(value_error(name, format!("{value} is not a whole number >= 0")));
    }
    Err(type_error(name, "a whole number", obj))
}

/// The search options of the keyword arguments.
pub fn search(
    mode: &str,
    nodes: Option<&Bound<'_, PyAny>>,
    deadline_ms: Option<&Bound<'_, PyAny>>,
    memory_mb: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchOptions> {
    let text = mode;
    let mode = Mode::ALL
        .into_iter()
        .find(|m| m.name().eq_ignore_ascii_case(text.trim()))
        .ok_or_else(|| value_error("mode", format!("{text:?} is not 'full', 'quick' or 'shortest'")))?;
    SearchOptions::new(
        mode,
        number(nodes, "nodes")?,
        number(deadline_ms, "deadline_ms")?,
        number(memory_mb, "memory_mb")?,
    )
    .map_err(option_error)
}

/// The threads of the keyword argument (`None`: one per CPU that fits).
pub fn threads(threads: Option<&Bound<'_, PyAny>>) -> PyResult<ThreadOptions> {
    ThreadOptions::new(number(threads, "threads")?).map_err(option_error)
}

/// The game options of the keyword arguments.
pub fn games(
    timeout: Option<&Bound<'_, PyAny>>,
    timeout_only: bool,
    every_ply: bool,
    only_wrong: bool,
) -> PyResult<GameOptions> {
    Ok(GameOptions::new(color(timeout, "timeout")?, timeout_only, every_ply, only_wrong))
}

/// `errors=`: whether to raise (`"raise"`) or yield error records
/// (`"record"`).
pub fn raise(errors: &str) -> PyResult<bool> {
    match errors {
        "raise" => Ok(true),
        "record" => Ok(false),
        _ => Err(value_error("errors", format!("{errors:?} is not 'record' or 'raise'"))),
    }
}
