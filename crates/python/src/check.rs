//! `unwinnable.check(record)`: a verdict's certificate through the
//! independent checker (`crates/check`, on cozy-chess), as `unwinnable
//! check` does for the command's records.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::analysis::PyAnalysis;
use crate::errors::{type_error, value_error};

/// What the independent checker says of `record`'s certificate:
/// `"accepted"`, `"rejected: "` and the first step that failed, or
/// `"skipped: "` and why (an undetermined verdict, an error record, a
/// record that claims no verdict). `record` is an `Analysis` made with
/// `certificate=True`, its `to_dict()`, or a JSON line of the command's
/// or the service's records.
#[pyfunction]
pub fn check(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<String> {
    let line = if let Ok(analysis) = record.cast::<PyAnalysis>() {
        serde_json::to_string(analysis.get().record()).map_err(|e| value_error("record", e))?
    } else if let Ok(text) = record.cast::<PyString>() {
        text.to_cow()?.into_owned()
    } else if record.cast::<PyDict>().is_ok() {
        py.import("json")?.call_method1("dumps", (record,))?.extract()?
    } else {
        return Err(type_error("record", "an Analysis, a dict or a JSON line", record));
    };
    let outcome = py.detach(|| ::check::check_record(&line, &::check::Limits::default()));
    Ok(match outcome {
        ::check::Outcome::Accepted => "accepted".to_string(),
        ::check::Outcome::Rejected(step) => format!("rejected: {step}"),
        ::check::Outcome::Skipped(why) => format!("skipped: {why}"),
    })
}
