//! FEN: the unchecked [`Setup`] it describes, the errors for every way it
//! can be wrong, and parsing/formatting.
//!
//! Parsing is two steps, each with its own error, as in the best chess
//! crates: [`Setup::from_fen`] checks the *syntax* (six fields, or four with
//! the clocks omitted): a [`FenSyntaxError`]; and
//! [`Position::from_setup`](crate::Position::from_setup) checks that the
//! rules of chess are defined for the setup (one king each, no pawn on its
//! first or last rank, the side not to move not in check, castling rights
//! backed by king and rook at home, an en passant square a double push could
//! have produced): a [`PositionError`]. [`Position::from_fen`](crate::Position::from_fen)
//! does both; its [`FenError`] is one or the other. Positions that are
//! merely unreachable in a real game (nine pawns, three queens, a triple
//! check) are accepted.

use core::fmt;

use crate::{Board, CastlingRights, Color, File, Piece, Rank, Square};

/// A position as written in FEN, not yet checked against the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Whose turn it is.
    pub side_to_move: Color,
    /// Castling rights.
    pub castling: CastlingRights,
    /// The en passant target square, if the FEN names one.
    pub en_passant: Option<Square>,
    /// Halfmoves since the last capture or pawn move.
    pub halfmove_clock: u16,
    /// The number of the full move, starting at 1.
    pub fullmove_number: u16,
}

/// Why a text is not a well-formed FEN: the field that is wrong, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenSyntaxError {
    /// The text is empty or only whitespace.
    Empty,
    /// A FEN has 6 space-separated fields (4 are accepted: the clocks
    /// default to `0 1`).
    FieldCount {
        /// How many fields were found.
        found: usize,
    },
    /// The piece placement must describe 8 ranks separated by `/`.
    RankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// A rank of the piece placement does not describe exactly 8 squares.
    RankLength {
        /// The rank, as counted from the top of the FEN (rank 8 first).
        rank: Rank,
        /// How many squares it describes.
        squares: usize,
    },
    /// A character in the piece placement is neither a piece letter
    /// (`PNBRQKpnbrqk`) nor a digit `1`-`8`.
    PieceChar {
        /// The rank where it appears.
        rank: Rank,
        /// The offending character.
        found: char,
    },
    /// The side to move is not `w` or `b`.
    SideToMove {
        /// The field as written.
        found: String,
    },
    /// The castling field is not `-` or a subset of `KQkq` in that order.
    Castling {
        /// The field as written.
        found: String,
    },
    /// The en passant field is not `-` or a square name.
    EnPassantSyntax {
        /// The field as written.
        found: String,
    },
    /// The halfmove clock is not a number from 0 to 65535.
    HalfmoveClock {
        /// The field as written.
        found: String,
    },
    /// The fullmove number is not a number from 0 to 65535.
    FullmoveNumber {
        /// The field as written.
        found: String,
    },
}

/// Why a setup is not a position: the rules of chess are not defined for
/// it (as opposed to a position merely unreachable in a game).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has no king.
    MissingKing {
        /// The side without a king.
        color: Color,
    },
    /// A side has more than one king.
    TooManyKings {
        /// The side with several kings.
        color: Color,
        /// How many.
        count: u32,
    },
    /// A pawn stands on the first or last rank.
    PawnOnBackRank {
        /// Where.
        square: Square,
    },
    /// The side that is *not* to move is in check: the side to move could
    /// capture the king.
    OpponentInCheck {
        /// The side in check (not to move).
        color: Color,
    },
    /// A castling right is given, but the king or that rook is not on its
    /// home square.
    CastlingWithoutPieces {
        /// The right, in FEN letters (`K`, `Q`, `k` or `q`).
        right: char,
    },
    /// The en passant square could not have been produced by the opponent's
    /// double pawn push just before.
    ImpossibleEnPassant {
        /// The square named.
        square: Square,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// Why a FEN was rejected by [`Position::from_fen`](crate::Position::from_fen):
/// its syntax, or the position it describes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The text is not a well-formed FEN.
    Syntax(FenSyntaxError),
    /// The FEN is well formed but describes an impossible position.
    Impossible(PositionError),
}

impl FenError {
    /// Whether the FEN itself is malformed (rather than the position).
    pub fn is_syntax(&self) -> bool {
        matches!(self, FenError::Syntax(_))
    }
}

impl From<FenSyntaxError> for FenError {
    fn from(error: FenSyntaxError) -> FenError {
        FenError::Syntax(error)
    }
}

impl From<PositionError> for FenError {
    fn from(error: PositionError) -> FenError {
        FenError::Impossible(error)
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(e) => write!(f, "{e}"),
            FenError::Impossible(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Syntax(e) => Some(e),
            FenError::Impossible(e) => Some(e),
        }
    }
}

/// Cuts user text to a printable length for an error message.
fn excerpt(text: &str) -> String {
    const LIMIT: usize = 24;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(LIMIT).collect::<String>())
    }
}

impl fmt::Display for FenSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenSyntaxError::Empty => f.write_str("empty FEN"),
            FenSyntaxError::FieldCount { found } => {
                write!(f, "FEN has {found} fields, expected 6 (or 4 without the move counters)")
            }
            FenSyntaxError::RankCount { found } => {
                write!(f, "FEN piece placement has {found} ranks, expected 8 separated by '/'")
            }
            FenSyntaxError::RankLength { rank, squares } => {
                write!(f, "FEN piece placement: rank {rank} describes {squares} squares, expected 8")
            }
            FenSyntaxError::PieceChar { rank, found } => {
                write!(
                    f,
                    "FEN piece placement: invalid character {found:?} on rank {rank} (expected one of PNBRQKpnbrqk or a digit 1-8)"
                )
            }
            FenSyntaxError::SideToMove { found } => {
                write!(f, "FEN side to move is {:?}, expected 'w' or 'b'", excerpt(found))
            }
            FenSyntaxError::Castling { found } => {
                write!(
                    f,
                    "FEN castling field is {:?}, expected '-' or a subset of 'KQkq' in that order",
                    excerpt(found)
                )
            }
            FenSyntaxError::EnPassantSyntax { found } => {
                write!(f, "FEN en passant field is {:?}, expected '-' or a square like 'e3'", excerpt(found))
            }
            FenSyntaxError::HalfmoveClock { found } => {
                write!(f, "FEN halfmove clock is {:?}, expected a number from 0 to 65535", excerpt(found))
            }
            FenSyntaxError::FullmoveNumber { found } => {
                write!(f, "FEN fullmove number is {:?}, expected a number from 1 to 65535", excerpt(found))
            }
        }
    }
}

impl std::error::Error for FenSyntaxError {}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing { color } => write!(f, "{color} has no king"),
            PositionError::TooManyKings { color, count } => {
                write!(f, "{color} has {count} kings, expected exactly one")
            }
            PositionError::PawnOnBackRank { square } => {
                write!(f, "pawn on {square}: pawns cannot stand on the first or last rank")
            }
            PositionError::OpponentInCheck { color } => {
                write!(f, "{color} is in check but it is {}'s turn: the king could be captured", !*color)
            }
            PositionError::CastlingWithoutPieces { right } => {
                write!(f, "castling right '{right}' needs the king and that rook on their home squares")
            }
            PositionError::ImpossibleEnPassant { square, reason } => {
                write!(f, "en passant square {square} is impossible: {reason}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl Setup {
    /// The starting position.
    pub const fn start() -> Setup {
        Setup {
            board: Board::start(),
            side_to_move: Color::White,
            castling: CastlingRights::all(),
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// Parses the syntax of a FEN. Fields are separated by ASCII whitespace;
    /// the halfmove clock and fullmove number may be omitted together (they
    /// then default to `0` and `1`), or just the fullmove number. A fullmove
    /// number of `0`, which some tools write, is read as `1`.
    ///
    /// ```
    /// use movegen::{FenSyntaxError, Setup};
    /// assert!(Setup::from_fen("8/8/8/8/8/8/8/K1k5 w - -").is_ok());
    /// assert_eq!(Setup::from_fen("8/8/8/8/8/8/8/K1k5 x - -"), Err(FenSyntaxError::SideToMove { found: "x".into() }));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Setup, FenSyntaxError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        match fields.len() {
            0 => return Err(FenSyntaxError::Empty),
            4..=6 => {}
            found => return Err(FenSyntaxError::FieldCount { found }),
        }
        // Indexing `fields[0..4]` cannot fail: there are 4 to 6 fields (checked above).
        let board = parse_board(fields[0])?;
        let side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenSyntaxError::SideToMove { found: other.to_string() }),
        };
        let castling = CastlingRights::from_fen(fields[2])
            .ok_or_else(|| FenSyntaxError::Castling { found: fields[2].to_string() })?;
        let en_passant = match fields[3] {
            "-" => None,
            other => Some(
                other.parse::<Square>().map_err(|_| FenSyntaxError::EnPassantSyntax { found: other.to_string() })?,
            ),
        };
        let halfmove_clock = match fields.get(4) {
            None => 0,
            Some(text) => {
                parse_counter(text).ok_or_else(|| FenSyntaxError::HalfmoveClock { found: text.to_string() })?
            }
        };
        let fullmove_number = match fields.get(5) {
            None => 1,
            Some(text) => {
                parse_counter(text).ok_or_else(|| FenSyntaxError::FullmoveNumber { found: text.to_string() })?.max(1)
            }
        };
        Ok(Setup { board, side_to_move, castling, en_passant, halfmove_clock, fullmove_number })
    }

    /// Writes the setup as a six-field FEN.
    pub fn to_fen(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.board.board_fen(),
            self.side_to_move.char(),
            self.castling.to_fen(),
            self.en_passant.map_or("-".to_string(), |sq| sq.to_string()),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}

/// Parses a move counter: ASCII digits only, at most 65535.
fn parse_counter(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_board(field: &str) -> Result<Board, FenSyntaxError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenSyntaxError::RankCount { found: ranks.len() });
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u32);
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 8 {
                    board.set_piece_at(Square::from_coords(File::new(file as u32), rank), piece);
                }
                file += 1;
            } else {
                return Err(FenSyntaxError::PieceChar { rank, found: c });
            }
        }
        if file != 8 {
            return Err(FenSyntaxError::RankLength { rank, squares: file });
        }
    }
    Ok(board)
}
