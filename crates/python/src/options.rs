//! `_options()`: the pipeline's options, listed from their one definition
//! (`pipeline::options`, through `clap::Args`), for `unwinnable.dask` to
//! build its command line from and for the tests to check the keyword
//! arguments against.

use clap::{Args, Command};
use pipeline::options::{GameOptions, ProofOptions, QueryOptions, SearchOptions, ThreadOptions};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One dict per option: `group`, `name` (as on the command line),
/// `keyword` (as a Python argument), `help`, `flag` (takes no value),
/// `choices` (the values it takes, if a list), `value_name`.
#[pyfunction]
pub fn _options(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let groups = [
        ("search", SearchOptions::augment_args(Command::new("search"))),
        ("threads", ThreadOptions::augment_args(Command::new("threads"))),
        ("query", QueryOptions::augment_args(Command::new("query"))),
        ("proof", ProofOptions::augment_args(Command::new("proof"))),
        ("games", GameOptions::augment_args(Command::new("games"))),
    ];
    let mut options = Vec::new();
    for (group, command) in groups {
        for arg in command.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            let dict = PyDict::new(py);
            dict.set_item("group", group)?;
            dict.set_item("name", long)?;
            dict.set_item("keyword", long.replace('-', "_"))?;
            dict.set_item("help", arg.get_help().map(ToString::to_string).unwrap_or_default())?;
            dict.set_item("flag", !arg.get_action().takes_values())?;
            let choices: Vec<String> =
                arg.get_possible_values().iter().map(|value| value.get_name().to_string()).collect();
            dict.set_item("choices", (!choices.is_empty()).then_some(choices))?;
            dict.set_item(
                "value_name",
                arg.get_value_names().and_then(|names| names.first()).map(ToString::to_string),
            )?;
            options.push(dict);
        }
    }
    Ok(options)
}
