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

use crate::{Bitboard, Board, Castling, CastlingFiles, CastlingRights, Color, File, Piece, Rank, Role, Square};

/// A position as written in FEN, not yet checked against the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Whose turn it is.
    pub side_to_move: Color,
    /// Castling rights.
    pub castling: CastlingRights,
    /// The files of the castling rooks and whether the game is Chess960
    /// ([`CastlingFiles::STANDARD`] in standard chess).
    pub castling_files: CastlingFiles,
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
    /// The castling field is not `-`, a subset of `KQkq` in that order, nor
    /// an X-FEN or Shredder-FEN field (`K`, `Q`, `k`, `q` and file letters
    /// `A`-`H`, `a`-`h`, each right once).
    Castling {
        /// The field as written.
        found: String,
    },
    /// The castling field gives White and Black castling rooks on
    /// different files on one side of the king, which no game has (both
    /// start on the same files, in Chess960 too).
    CastlingFiles {
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
    /// A castling right is given, but the king is not on its first rank
    /// or that rook is not on its file of the first rank on that side of
    /// the king (in standard chess: the king on e1/e8, the rook in the
    /// corner).
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
                    "FEN castling field is {:?}, expected '-', a subset of 'KQkq' in that order, or Chess960 rook files ('HAha', 'KQkq' with a file letter where ambiguous)",
                    excerpt(found)
                )
            }
            FenSyntaxError::CastlingFiles { found } => {
                write!(
                    f,
                    "FEN castling field {:?} gives White and Black castling rooks on different files (in every game, Chess960 too, they start on the same files)",
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
                write!(
                    f,
                    "castling right '{right}' needs the king and that rook on their home squares (the king on its first rank, the rook on that side of it)"
                )
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
            castling_files: CastlingFiles::STANDARD,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// `board` with `side_to_move` to move, and nothing else: no castling
    /// right, no en passant square, the clocks at `0 1` (the positions the
    /// tests build piece by piece).
    pub const fn of_board(board: Board, side_to_move: Color) -> Setup {
        Setup {
            board,
            side_to_move,
            castling: CastlingRights::empty(),
            castling_files: CastlingFiles::STANDARD,
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
        let (castling, castling_files) = parse_castling(fields[2], &board, false)?;
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
        Ok(Setup { board, side_to_move, castling, castling_files, en_passant, halfmove_clock, fullmove_number })
    }

    /// [`Setup::from_fen`] for a Chess960 game: `K`, `Q`, `k` and `q` name
    /// the outermost rook on their side of the king (X-FEN) even with the
    /// king on the e-file, and the setup is Chess960 (castling written in
    /// UCI as the king taking its rook).
    ///
    /// ```
    /// use movegen::{File, Setup};
    /// // King e1, rooks b1 and g1: only Chess960 reads KQ.
    /// let fen = "4k3/8/8/8/8/8/8/1R2K1R1 w KQ - 0 1";
    /// assert!(movegen::Position::from_setup(Setup::from_fen(fen).unwrap()).is_err());
    /// let setup = Setup::from_fen_chess960(fen).unwrap();
    /// assert_eq!((setup.castling_files.queen_side(), setup.castling_files.king_side()), (File::B, File::G));
    /// assert!(setup.castling_files.is_chess960());
    /// // Written back with the letters, which need no Chess960 hint to read.
    /// assert_eq!(setup.to_fen(), "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1");
    /// ```
    pub fn from_fen_chess960(fen: &str) -> Result<Setup, FenSyntaxError> {
        let mut setup = Setup::from_fen(fen)?;
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        // `from_fen` checked that there are 4 to 6 fields.
        (setup.castling, setup.castling_files) = parse_castling(fields[2], &setup.board, true)?;
        Ok(setup)
    }

    /// The castling field in X-FEN: `K`, `Q`, `k`, `q` for the outermost
    /// rook on its side of the king, the rook's file letter when another
    /// rook stands further out (as python-chess writes it); standard
    /// chess's `KQkq` for standard positions. In Chess960, a rook off its
    /// corner with the king on the e-file is written with its letter too:
    /// [`Setup::from_fen`] reads `KQkq` with the kings on the e-file as
    /// standard chess.
    pub fn castling_fen(&self) -> String {
        if self.castling.is_empty() {
            return "-".to_string();
        }
        let mut field = String::new();
        for castling in self.castling.castlings() {
            let rook = castling.rook_from(self.castling_files);
            let rooks = self.board.pieces(castling.color, Role::Rook) & Bitboard::rank(rook.rank());
            let outer = rooks.iter().any(|other| if castling.king_side { other > rook } else { other < rook });
            let king_on_e = self.board.king_of(castling.color).is_some_and(|king| king.file() == File::E);
            let corner = if castling.king_side { File::H } else { File::A };
            let misread = self.castling_files.is_chess960() && king_on_e && rook.file() != corner;
            let letter = match (outer || misread, castling.king_side) {
                (true, _) => rook.file().char(),
                (false, true) => 'k',
                (false, false) => 'q',
            };
            field.push(if castling.color.is_white() { letter.to_ascii_uppercase() } else { letter });
        }
        field
    }

    /// The castling field in Shredder-FEN: the rooks' file letters (`HAha`).
    pub fn shredder_castling_fen(&self) -> String {
        if self.castling.is_empty() {
            return "-".to_string();
        }
        self.castling
            .castlings()
            .map(|castling| {
                let letter = castling.rook_from(self.castling_files).file().char();
                if castling.color.is_white() { letter.to_ascii_uppercase() } else { letter }
            })
            .collect()
    }

    /// Writes the setup as a six-field FEN (X-FEN castling, see
    /// [`Setup::castling_fen`]).
    pub fn to_fen(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.board.board_fen(),
            self.side_to_move.char(),
            self.castling_fen(),
            self.en_passant.map_or("-".to_string(), |sq| sq.to_string()),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}

/// Parses the castling field against the board: `-`; standard `KQkq` (in
/// that order) with the kings on the e-file, read as standard chess; or
/// X-FEN and Shredder-FEN (`K`/`Q` for the outermost rook on that side of
/// the king, a file letter for the rook on that file), read as Chess960.
/// With `chess960`, `KQkq` are always read as X-FEN and the result is
/// Chess960. A `K` or `Q` without a rook on that side names the standard
/// corner: [`crate::Position::from_setup`] then says which right lacks its
/// rook.
fn parse_castling(
    field: &str,
    board: &Board,
    chess960: bool,
) -> Result<(CastlingRights, CastlingFiles), FenSyntaxError> {
    let syntax = || FenSyntaxError::Castling { found: field.to_string() };
    if field == "-" {
        return Ok((CastlingRights::empty(), CastlingFiles::STANDARD.with_chess960(chess960)));
    }
    // The king of `color` if it stands on its first rank.
    let home_king = |color: Color| board.king_of(color).filter(|king| king.rank() == Rank::First.relative_to(color));
    let only_kq = field.chars().all(|c| matches!(c, 'K' | 'Q' | 'k' | 'q'));
    if only_kq && CastlingRights::from_fen(field).is_none() {
        // `KQkq` letters out of that order or repeated.
        return Err(syntax());
    }
    if !chess960 {
        if let Some(rights) = CastlingRights::from_fen(field) {
            let on_e_file = |color: Color| board.king_of(color).is_some_and(|king| king.file() == File::E);
            if rights.castlings().all(|castling| on_e_file(castling.color)) {
                return Ok((rights, CastlingFiles::STANDARD));
            }
        }
    }
    let mut rights = CastlingRights::empty();
    // Per side (queen, king), the rook file named so far.
    let mut files: [Option<File>; 2] = [None, None];
    for c in field.chars() {
        if !c.is_ascii_alphabetic() {
            return Err(syntax());
        }
        let color = Color::from_white(c.is_ascii_uppercase());
        let rank = Rank::First.relative_to(color);
        let rooks = board.pieces(color, Role::Rook) & Bitboard::rank(rank);
        let king = home_king(color);
        let (king_side, file) = match c.to_ascii_lowercase() {
            'k' => {
                let outermost = king.and_then(|king| rooks.iter().rfind(|&rook| rook > king));
                (true, outermost.map_or(File::H, Square::file))
            }
            'q' => {
                let outermost = king.and_then(|king| rooks.iter().find(|&rook| rook < king));
                (false, outermost.map_or(File::A, Square::file))
            }
            letter => {
                let file = File::from_char(letter).ok_or_else(syntax)?;
                let king_side = match king {
                    Some(king) => file > king.file(),
                    None => file >= File::E,
                };
                (king_side, file)
            }
        };
        let right = Castling { color, king_side }.right();
        if rights.contains(right) {
            return Err(syntax());
        }
        rights |= right;
        let side = &mut files[usize::from(king_side)];
        if side.is_some_and(|named| named != file) {
            return Err(FenSyntaxError::CastlingFiles { found: field.to_string() });
        }
        *side = Some(file);
    }
    if rights.is_empty() {
        return Err(syntax());
    }
    let castling_files = CastlingFiles::new(files[0].unwrap_or(File::A), files[1].unwrap_or(File::H))
        .ok_or_else(|| FenSyntaxError::CastlingFiles { found: field.to_string() })?;
    Ok((rights, castling_files.with_chess960(true)))
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
