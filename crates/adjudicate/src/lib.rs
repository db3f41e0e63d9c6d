#![doc = include_str!("../README.md")]
//!
//! The correct result of whole chess games under the **FIDE Laws of
//! Chess**, over PGN streams as large as a month of an online server's
//! games.
//!
//! * The game model: [`Game`] (a start position, legal moves, the recorded
//!   [`Outcome`] and [`Termination`]).
//! * The rules, one module each with its article ([`rules`]): checkmate
//!   (5.1.1), stalemate (5.2.1), dead position (5.2.2), timeout (6.9),
//!   threefold and fivefold repetition (9.2, 9.6.1) with positions
//!   compared as in 9.2.3 ([`PositionId`]), the fifty- and
//!   seventy-five-move rules (9.3, 9.6.2).
//! * [`adjudicate`] / [`Adjudicator`]: the [`Adjudication`] of a game:
//!   recorded and correct result, the [`Rule`], the ply, and an
//!   [`Explanation`] with the evidence (a helpmate when a timeout loss
//!   stands, the proof when no mate exists). The module documentation of
//!   [`adjudicator`] gives the order of the rules and which analysis runs
//!   where.
//! * [`Record`]: an adjudication as one flat record, the fields that the
//!   command's `adjudicate` and the Python package's write.
//! * Inputs: a streaming PGN reader written for this project ([`pgn`]),
//!   `FEN moves...` lines ([`fen_line`]), plain or zstd-compressed files
//!   and standard input ([`input`]).
//!
//! # Example
//!
//! ```
//! use adjudicate::{Outcome, Rule, adjudicate, pgn::Reader};
//!
//! // White lost on time (the paper's Position 20), but Black, with a rook
//! // against queen and bishop and its king walled in by its own pawns...
//! // cannot mate by any series of legal moves: the game is a draw (Art. 6.9).
//! let pgn = r#"[Site "https://lichess.org/ZNBhS4pz"]
//! [Result "0-1"]
//! [SetUp "1"]
//! [FEN "8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38"]
//! [Termination "Time forfeit"]
//!
//! 0-1
//! "#;
//! let game = Reader::new(pgn.as_bytes()).next().unwrap().unwrap().game;
//! let ruling = adjudicate(&game);
//! assert_eq!(ruling.recorded, Outcome::BlackWins);
//! assert_eq!(ruling.correct, Outcome::Draw);
//! assert_eq!(ruling.rule, Rule::Timeout);
//! assert!(ruling.explanation.to_string().starts_with("Art. 6.9: white ran out of time but black cannot checkmate"));
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod adjudication;
pub mod adjudicator;
pub mod fen_line;
mod game;
mod identity;
pub mod input;
pub mod pgn;
mod reason;
mod record;
pub mod rules;
pub mod san;

pub use adjudication::{Adjudication, Claim, ClaimKind, Claims, ColorProof, Evidence, Explanation, Rule};
pub use adjudicator::{Adjudicator, Options, adjudicate};
pub use game::{Game, GameError, Outcome, OutcomeError, Termination};
pub use identity::PositionId;
pub use reason::{ALREADY_MATE, helpmate_lines, verdict_reason};
pub use record::Record;
