#![doc = include_str!("../README.md")]
//!
//! A from-scratch magic-bitboard legal move generator for standard chess
//! and Chess960, producing moves in the exact order of the reference engine
//! (Stockfish, December 2020) that the unwinnability paper's implementation
//! is built on.
//!
//! * Types: [`Square`], [`File`], [`Rank`], [`Color`], [`Role`], [`Piece`],
//!   [`Bitboard`], [`CastlingRights`] and [`CastlingFiles`] (Chess960's
//!   rook files), [`Move`] (16 bits), [`Board`].
//! * [`Position`]: a validated, 96-byte `Copy` position with copy-make
//!   [`Position::play`], cached checkers and pins, and an incremental
//!   Zobrist [`Position::hash`]. [`Setup`] is the unchecked FEN content;
//!   [`FenError`] says precisely what is wrong with a rejected FEN: its
//!   syntax ([`FenSyntaxError`]) or the position ([`PositionError`]).
//! * Move generation as a list in the reference order
//!   ([`Position::legal_moves`], described in [`movegen`]), or as sets of
//!   destinations per piece ([`Position::for_each_piece_moves`], [`legal`]).
//! * Attacks ([`attacks`]): leaper tables and sliding attacks by magic
//!   bitboards (PEXT when compiled for BMI2), see [`magic`].
//! * [`Position::perft`], [`Position::divide`], UCI notation
//!   ([`Position::parse_uci`], `Display` of [`Move`]).
//! * Chess960: castling with the king and rooks on any files, X-FEN and
//!   Shredder-FEN ([`Setup::from_fen`], [`Position::from_fen_chess960`]),
//!   UCI in both conventions ([`Position::to_uci`]); the start positions
//!   ([`chess960_start`]).
//! * [`prefetch()`]: a cache hint for the searches' hash tables.
//! * [`unreachable()`]: positions the move rules handle but no game reaches
//!   (more than eight pawns, more pieces than promotions allow, a check no
//!   last move could have given), with the reason ([`Unreachable`]).
//!
//! # Example
//!
//! ```
//! use movegen::{Position, Role, Square};
//!
//! // Position 3 of the unwinnability paper: Black to move.
//! let pos: Position = "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1".parse().unwrap();
//! assert!(!pos.is_check());
//! assert_eq!(pos.legal_moves().len(), 7);
//!
//! // Moves as sets of destinations: the b6 pawn is blocked by the bishop,
//! // the f4 pawn can advance.
//! assert!(pos.legal_destinations(Square::B6).is_empty());
//! assert_eq!(pos.legal_destinations(Square::F4).iter().collect::<Vec<_>>(), [Square::F3]);
//!
//! // Play moves given in UCI.
//! let after = pos.play(pos.parse_uci("f4f3").unwrap());
//! assert_eq!(after.to_fen(), "8/8/1p6/1B2k3/6K1/5p2/8/8 w - - 0 2");
//! assert_eq!(after.board().role_at(Square::F3), Some(Role::Pawn));
//! ```

#![deny(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod castling;
mod check_squares;
mod chess960;
mod color;
mod fen;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod legal;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod magic;
mod magics_generated;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod movegen;
mod moves;
mod packed;
mod perft;
mod position;
mod prefetch;
mod rays;
mod reachability;
mod role;
mod san;
mod square;
mod staged;
mod uci;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::Board;
pub use castling::{Castling, CastlingFiles, CastlingPath, CastlingRights};
pub use check_squares::CheckSquares;
pub use chess960::{CHESS960_POSITIONS, chess960_start, random_chess960_positions};
pub use color::Color;
pub use fen::{FenError, FenSyntaxError, PositionError, Setup};
pub use legal::PieceMoves;
pub use movegen::{MAX_MOVES, MoveList};
pub use moves::{Move, MoveKind};
pub use packed::PackedPosition;
pub use position::Position;
pub use prefetch::prefetch;
pub use reachability::{Unreachable, is_reachable, unreachable};
pub use role::{Piece, PieceType, Role};
pub use san::SanError;
pub use square::{File, ParseSquareError, Rank, Square};
pub use staged::StagedMoves;
pub use uci::UciError;
