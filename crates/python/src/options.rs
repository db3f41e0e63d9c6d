//! Reading the keyword arguments shared by the functions: the intended
//! winner, the mode and the limits of an analysis.

use std::time::Duration;

use movegen::{Color, Position};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};
use search::{Config, Mode};

/// The intended winner: `None` (the side *not* to move, whose opponent
/// ran out of time), `"white"`/`"black"` (or `"w"`/`"b"`), or a
/// python-chess colour (`chess.WHITE` is `True`).
pub fn winner(obj: Option<&Bound<'_, PyAny>>, pos: &Position) -> PyResult<Color> {
    let Some(obj) = obj.filter(|obj| !obj.is_none()) else { return Ok(!pos.side_to_move()) };
    if let Ok(flag) = obj.cast::<PyBool>() {
        return Ok(if flag.is_true() { Color::White } else { Color::Black });
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return color_name(&text.to_cow()?);
    }
    Err(PyTypeError::new_err(format!(
        "winner must be 'white', 'black', chess.WHITE, chess.BLACK or None, not {}",
        obj.get_type().name()?
    )))
}

/// `"white"` or `"black"` (any case, or `w`/`b`).
pub fn color_name(text: &str) -> PyResult<Color> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(PyValueError::new_err(format!("a colour must be 'white' or 'black', not {text:?}"))),
    }
}

/// The configuration for `mode` (`"full"`, `"quick"`, `"shortest"`) and
/// the limits (`None`: the search's defaults, `search::Limits::default()`;
/// the command instead divides its memory budget among its threads).
pub fn config(mode: &str, nodes: Option<i64>, deadline_ms: Option<f64>, tt_mb: Option<i64>) -> PyResult<Config> {
    let mode = match mode {
        "full" => Mode::Full,
        "quick" => Mode::Quick,
        "shortest" => Mode::Shortest,
        _ => return Err(PyValueError::new_err(format!("mode must be 'full', 'quick' or 'shortest', not {mode:?}"))),
    };
    let mut config = Config { mode, ..Config::default() };
    if let Some(nodes) = nodes {
        config.limits.nodes = u64::try_from(nodes).ok().filter(|&n| n > 0).ok_or_else(|| positive("nodes", nodes))?;
    }
    if let Some(ms) = deadline_ms {
        if !ms.is_finite() || ms < 0.0 {
            return Err(PyValueError::new_err(format!("deadline_ms must be a finite number >= 0, not {ms}")));
        }
        config.limits.deadline = Some(Duration::from_secs_f64(ms / 1e3));
    }
    if let Some(tt_mb) = tt_mb {
        config.limits.tt_mb = usize::try_from(tt_mb)
            .ok()
            .filter(|&n| (1..=65536).contains(&n))
            .ok_or_else(|| PyValueError::new_err(format!("tt_mb must be between 1 and 65536, not {tt_mb}")))?;
    }
    Ok(config)
}

/// A thread count: `None` is every CPU.
pub fn threads(threads: Option<i64>) -> PyResult<usize> {
    match threads {
        None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
        Some(n) => usize::try_from(n)
            .ok()
            .filter(|&n| (1..=1024).contains(&n))
            .ok_or_else(|| PyValueError::new_err(format!("threads must be between 1 and 1024, not {n}"))),
    }
}

fn positive(name: &str, value: i64) -> PyErr {
    PyValueError::new_err(format!("{name} must be a positive integer, not {value}"))
}
