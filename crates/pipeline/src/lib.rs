#![doc = include_str!("../README.md")]
//!
//! The batch pipeline of the `unwinnable` project, one library for every
//! front end: the command (`unwinnable analyze`, `unwinnable adjudicate`),
//! the HTTP service and the Python package (with its Dask runs) all call it,
//! so that they read the same inputs, take the same options and write the
//! same records.
//!
//! * [`options`]: every option, defined once ([`SearchOptions`],
//!   [`ThreadOptions`], [`QueryOptions`], [`ProofOptions`], [`GameOptions`]);
//! * [`certificate`]: the evidence of a verdict for the independent
//!   checker (`--certificate`);
//! * inputs: [`LineReader`] (lines with bounded memory), [`parse_query`]
//!   (`FEN [white|black|both] [# comment]`, the FEN rules of every front
//!   end), and for games the `adjudicate` crate's opening of plain, zstd,
//!   gzip and bzip2 inputs, cut into batches by [`games::Inputs`];
//! * the steps: [`analyze::analyze_query`] (one query's records),
//!   [`games::Step`] (one game's record);
//! * the records, serialised once with serde ([`analyze::Record`],
//!   [`games::GameRecord`] and their error records), written as text,
//!   JSON Lines or CSV by [`RecordWriter`];
//! * the ordered parallel map: a [`Pool`] of workers each owning its
//!   analyzer or adjudicator, fed by [`ordered::run`] within a bounded
//!   window of memory ([`Plan`]), the results in input order;
//! * [`analyze::run`] and [`games::run`]: whole runs, from a reader or the
//!   inputs to a [`Sink`](ordered::Sink), with a [`Summary`].
//!
//! # Example
//!
//! ```
//! use pipeline::games::{self, Inputs, Output};
//! use pipeline::options::{GameOptions, SearchOptions, ThreadOptions};
//!
//! // White lost on time, but Black, with a lone rook against a walled-in
//! // king, cannot mate by any series of legal moves: a draw (Art. 6.9).
//! let pgn = "[Result \"0-1\"]\n[SetUp \"1\"]\n[FEN \"8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38\"]\n\
//!            [Termination \"Time forfeit\"]\n\n0-1\n";
//! let options = games::Options::new(&SearchOptions::default(), &ThreadOptions::default(), &GameOptions::default())
//!     .unwrap();
//! let inputs = Inputs::from_bytes("<text>", pgn.as_bytes().to_vec());
//! let mut records = Vec::new();
//! games::run(inputs, &options, &mut |outputs: games::Outputs| {
//!     records.extend(outputs.into_iter());
//!     Ok(())
//! })
//! .unwrap();
//! let Output::Game(record) = &records[0] else { panic!("{records:?}") };
//! assert_eq!((record.record.recorded.as_str(), record.record.correct.as_str()), ("0-1", "1/2-1/2"));
//! assert_eq!(record.record.rule, "timeout");
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod analyze;
pub mod certificate;
mod closure;
pub mod games;
mod lines;
mod memory;
pub mod options;
pub mod ordered;
mod output;
mod pool;
mod query;
mod summary;
mod writer;

pub use lines::{Line, LineReader, MAX_LINE, QUOTE_CHARS, shorten, shorten_to};
pub use memory::{
    DECOMPRESSION_MB, DEFAULT_MEMORY_MB, MAX_THREADS, Machine, MemoryError, Plan, Workload, needed_mb, plan,
};
pub use options::{GameOptions, OptionError, ProofOptions, QueryOptions, SearchOptions, ThreadOptions, Winners};
pub use output::{Format, RecordWriter, Render, csv_row, escape_controls, to_json};
pub use pool::{Job, Pool, SubmitError, Submitter};
pub use query::{Counter, Query, QueryError, is_skipped, parse_arguments, parse_fen, parse_query, unreachable_text};
pub use summary::{Summary, Unit, format_micros};
pub use writer::Writer;

/// Stack size of every thread that runs an analysis: the helpmate search
/// recurses up to [`search::MAX_HELPMATE_PLIES`] plies deep.
pub const STACK_SIZE: usize = 64 << 20;
