#![doc = include_str!("../README.md")]
//!
//! The `unwinnable` command-line program: can a player still checkmate?
//!
//! The binary (`src/main.rs`) calls [`main`], which parses the command
//! line and picks a subcommand (`command.rs`); the batch pipeline it runs (inputs, options, steps,
//! records, the ordered parallel map) is the `pipeline` crate's, which the
//! service and the Python package run too. This library holds what only
//! the command has:
//!
//! * `cli`: the command line (clap derive), flattening the pipeline's
//!   options;
//! * `progress`: the progress display;
//! * `dead`: `unwinnable dead FEN`;
//! * `serve`: `unwinnable serve`: the HTTP service and its web page;
//! * `demo`: `unwinnable demo` (and no arguments without piped input):
//!   the paper's positions for both colours, as a table.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub(crate) mod cli;
mod command;
pub(crate) mod dead;
pub(crate) mod demo;
pub(crate) mod progress;
pub(crate) mod serve;

pub use command::main;

/// The exit statuses of the program.
pub(crate) mod exit {
    /// Success. For `dead`, whatever the answer; for `analyze`, also when
    /// some input lines were rejected (each gets an error line); for
    /// `adjudicate`, also when some games were malformed (each gets an
    /// error record).
    pub const SUCCESS: u8 = 0;
    /// An I/O error: reading standard input or writing standard output
    /// failed, or (`adjudicate`) an input could not be opened or read to
    /// its end (the records already written stay); for `check`, also when
    /// a record was rejected.
    pub const IO_ERROR: u8 = 1;
    /// A usage error: bad options, or an invalid FEN on the command line.
    pub const USAGE: u8 = 2;
}

/// Whether no input is piped in: standard input is a terminal, the null
/// device (`< /dev/null`, what CI runners and IDEs often give) or closed.
/// Then `unwinnable` without arguments shows the demo instead of waiting
/// for queries that cannot come.
pub(crate) fn no_input_piped() -> bool {
    use std::io::IsTerminal;
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    if std::io::stdin().is_terminal() {
        return true;
    }
    // `/dev/stdin` names descriptor 0: missing when it is closed.
    let Ok(stdin) = std::fs::metadata("/dev/stdin") else { return true };
    let null = std::fs::metadata("/dev/null");
    stdin.file_type().is_char_device() && null.is_ok_and(|null| null.rdev() == stdin.rdev())
}
