//! The `unwinnable` command-line program: can a player still checkmate?
//!
//! The binary (`src/main.rs`) only parses the command line and picks a
//! subcommand; everything else lives in this library so that it can be
//! documented, tested, and reused by other front ends:
//!
//! * [`cli`]: the command line (clap derive); the search options every
//!   subcommand shares, mapped onto [`search::Config`];
//! * [`memory`]: one memory budget for the whole command, divided among
//!   the worker threads;
//! * [`pool`]: worker threads, each with its own state (an analyzer), fed
//!   from one bounded queue; [`ordered`]: a stream of work through the
//!   pool, written out in input order within a bounded window;
//! * [`input`]: reading lines with bounded memory; [`query`]: one query,
//!   `FEN [white|black|both] [# comment]`;
//! * [`output`]: records as text, JSON Lines or CSV (escaped for terminals
//!   and spreadsheets); [`summary`]: the counts of a run; [`progress`]: the
//!   progress display;
//! * [`analyze`](mod@analyze) and [`record`]: `unwinnable analyze` and its records;
//!   [`certificate`]: their certificates (`--certificate`), which
//!   `unwinnable check` verifies with the independent checker (`check`);
//! * [`adjudicate`](mod@adjudicate): `unwinnable adjudicate FILE...`: whole
//!   games under the FIDE Laws, over PGN;
//! * [`dead`]: `unwinnable dead FEN`;
//! * [`serve`]: `unwinnable serve`: the HTTP service and its web page;
//! * [`demo`]: `unwinnable demo` (and no arguments at a terminal): the
//!   paper's positions for both colours, as a table.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod adjudicate;
pub mod analyze;
pub mod certificate;
pub mod cli;
pub mod closure;
pub mod dead;
pub mod demo;
pub mod input;
pub mod memory;
pub mod ordered;
pub mod output;
pub mod pool;
pub mod progress;
pub mod query;
pub mod record;
pub mod serve;
pub mod summary;

/// Stack size of every thread that runs an analysis: the helpmate search
/// recurses up to [`search::MAX_HELPMATE_PLIES`] plies deep.
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
    /// its end (the records already written stay); for `check`, also when
    /// a record was rejected.
    pub const IO_ERROR: u8 = 1;
    /// A usage error: bad options, or an invalid FEN on the command line.
    pub const USAGE: u8 = 2;
}
