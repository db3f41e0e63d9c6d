//! The `unwinnable` command-line program: can a player still checkmate?
//!
//! The binary (`src/main.rs`) only parses the command line and picks a
//! subcommand; everything else lives in this library so that it can be
//! documented and tested:
//!
//! * [`cli`]: the command line (clap derive), mapped onto [`search::Config`];
//! * [`input`]: reading standard input line by line with bounded memory
//!   (over-long and non-UTF-8 lines become per-line errors);
//! * [`query`]: one query, `FEN [white|black|both] [# comment]`;
//! * [`record`]: the result of one analysis, written as text or JSON Lines,
//!   and the [`Summary`](record::Summary) printed at the end;
//! * [`pipeline`]: `unwinnable analyze`: worker threads, each with its own
//!   [`search::Analyzer`], a bounded window of queries in flight, output in
//!   input order;
//! * [`dead`]: `unwinnable dead FEN`;
//! * [`adjudicate`](mod@adjudicate): `unwinnable adjudicate FILE...`: whole
//!   games under the FIDE Laws, over PGN, with its own batched pipeline;
//! * [`demo`]: `unwinnable demo` (and no arguments at a terminal): the
//!   paper's positions for both colours, as a table.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod adjudicate;
pub mod cli;
pub mod dead;
pub mod demo;
pub mod input;
pub mod ordered;
pub mod pipeline;
pub mod query;
pub mod record;

/// Stack size of every thread that runs an analysis: the helpmate search
/// recurses up to [`search::helpmate::MAX_PLY`] plies deep.
pub const STACK_SIZE: usize = 64 << 20;

/// The exit statuses of the program.
pub mod exit {
    /// Success. For `dead`, whatever the answer; for `analyze`, also when
    /// some input lines were rejected (each gets an error line); for
    /// `adjudicate`, also when some games were malformed (each gets an
    /// error record).
    pub const SUCCESS: u8 = 0;
    /// An I/O error: reading standard input or writing standard output
    /// failed, or (`adjudicate`) an input could not be opened or read to
    /// its end (the records already written stay).
    pub const IO_ERROR: u8 = 1;
    /// A usage error: bad options, or an invalid FEN on the command line.
    pub const USAGE: u8 = 2;
}
