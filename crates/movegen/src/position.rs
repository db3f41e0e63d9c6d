//! [`Position`]: a validated position with copy-make move application.

use core::fmt;
use core::str::FromStr;

use crate::fen::{FenError, PositionError, Setup};
use crate::{
    Bitboard, Board, Castling, CastlingFiles, CastlingPath, CastlingRights, Color, Move, MoveKind, Piece, Rank, Role,
    Square, attacks, zobrist,
};

/// A position in which the rules of chess are defined: exactly one king per
/// side, no pawns on the first or last rank, the side not to move not in
/// check, castling rights backed by king and rook on their home squares, and
/// an en passant square only where a double push could have produced it.
///
/// Standard chess and Chess960 share the type: castling rights name the
/// rooks' files ([`CastlingFiles`], `a` and `h` in standard chess), and a
/// Chess960 position writes castling in UCI as the king taking its rook
/// ([`Position::to_uci`]).
///
/// `Position` is a small `Copy` value (96 bytes); moves are applied by
/// copy-make ([`Position::play`]). It caches the checkers and the pinned
/// pieces of the side to move and an incrementally updated Zobrist
/// [`hash`](Position::hash).
///
/// En passant: the position records the en passant square only when a pawn
/// of the side to move attacks it (as the reference engine does), so
/// [`Position::ep_square`] may name a capture that is pseudo-legal but
/// illegal (the capturing pawn is pinned); [`Position::legal_ep_square`]
/// tells the difference.
///
/// ```
/// use movegen::{Move, Position, Square};
/// let pos = Position::start();
/// let after = pos.play(Move::normal(Square::E2, Square::E4));
/// assert_eq!(after.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// assert_eq!(after.hash(), after.compute_hash());
/// ```
#[derive(Clone, Copy)]
pub struct Position {
    board: Board,
    checkers: Bitboard,
    pinned: Bitboard,
    hash: u64,
    castling: CastlingRights,
    castling_files: CastlingFiles,
    side_to_move: Color,
    ep_square: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
}

static_assertions::assert_eq_size!(Position, [u8; 96]);
static_assertions::assert_impl_all!(Position: Copy, Send, Sync);

/// Equal positions: the same pieces, side to move, castling rights with
/// the same rooks, en passant square, counters, and so the same cached
/// checkers, pins and hash. Whether castling is written the Chess960 way
/// ([`Position::is_chess960`]) is notation, not position, and does not
/// count.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.castling == other.castling
            && self.castling_files.file_bits() == other.castling_files.file_bits()
            && self.side_to_move == other.side_to_move
            && self.ep_square == other.ep_square
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
    }
}

impl Eq for Position {}

impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.hash.hash(state);
        self.halfmove_clock.hash(state);
        self.fullmove_number.hash(state);
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The starting position.
    pub fn start() -> Position {
        // The start setup satisfies every rule checked by `from_setup`.
        match Position::from_setup(Setup::start()) {
            Ok(pos) => pos,
            Err(_) => unreachable!("the starting position is valid"),
        }
    }

    /// Parses and validates a FEN (standard chess, X-FEN or Shredder-FEN:
    /// see [`Setup::from_fen`]).
    ///
    /// ```
    /// use movegen::{Color, FenError, FenSyntaxError, Position, PositionError};
    /// assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_ok());
    /// assert_eq!(
    ///     Position::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1"),
    ///     Err(FenError::Impossible(PositionError::MissingKing { color: Color::White }))
    /// );
    /// assert_eq!(Position::from_fen("4k3/8/8 w - -"), Err(FenError::Syntax(FenSyntaxError::RankCount { found: 3 })));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(Setup::from_fen(fen)?)?)
    }

    /// Parses and validates a FEN of a Chess960 game (see
    /// [`Setup::from_fen_chess960`]).
    ///
    /// ```
    /// use movegen::Position;
    /// // Chess960 start position 0 (BBQNNRKR): O-O is legal once f1-g1's
    /// // neighbours are gone; here the king stands on g1, the rooks on f1 and h1.
    /// let pos = Position::from_fen_chess960("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1").unwrap();
    /// assert_eq!(pos.to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert!(pos.is_chess960());
    /// assert_eq!(pos.perft(2), 400);
    /// ```
    pub fn from_fen_chess960(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(Setup::from_fen_chess960(fen)?)?)
    }

    /// Parses a FEN of either game, for readers that are not told which:
    /// as [`Position::from_fen`] (standard chess; Shredder-FEN's file
    /// letters, and `K`/`Q` with the king off the e-file, are Chess960
    /// already), and, when that reading is not a valid position, as
    /// Chess960 ([`Position::from_fen_chess960`]: `K`/`Q` name the outermost
    /// rook on that side of the king, X-FEN, where standard chess wants the
    /// corner rook). The first reading's
    /// error is returned when neither is valid.
    ///
    /// ```
    /// use movegen::Position;
    /// // King e1, rooks b1 and g1: `KQ` names them only in Chess960 (the
    /// // standard reading wants rooks on h1 and a1).
    /// let fen = "4k3/8/8/8/8/8/8/1R2K1R1 w KQ - 0 1";
    /// assert!(Position::from_fen(fen).is_err());
    /// let pos = Position::from_fen_any(fen).unwrap();
    /// assert!(pos.is_chess960());
    /// assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1");
    /// // A king off the e-file with a right is Chess960 in both readings.
    /// assert!(Position::from_fen("4k3/8/8/8/8/8/8/RK6 w Q - 0 1").unwrap().is_chess960());
    /// // Standard chess stays standard.
    /// assert!(!Position::from_fen_any("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap().is_chess960());
    /// ```
    pub fn from_fen_any(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen).or_else(|standard| Position::from_fen_chess960(fen).map_err(|_| standard))
    }
    /// Validates a setup (see the type documentation for the rules). A
    /// castling right whose king is not on the e-file or whose rook is not
    /// in the corner makes the position Chess960.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let board = setup.board;
        for color in Color::ALL {
            match board.pieces(color, Role::King).count() {
                0 => return Err(PositionError::MissingKing { color }),
                1 => {}
                count => return Err(PositionError::TooManyKings { color, count }),
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if let Some(square) = (board.pawns() & back_ranks).first() {
            return Err(PositionError::PawnOnBackRank { square });
        }
        let mut castling_files = setup.castling_files.normalized(setup.castling);
        for castling in setup.castling.castlings() {
            let rank = Rank::First.relative_to(castling.color);
            let rook = castling.rook_from(castling_files);
            let king = board.king_of(castling.color).filter(|king| king.rank() == rank);
            let on_its_side = king.is_some_and(|king| (rook > king) == castling.king_side && rook != king);
            if !on_its_side || board.piece_at(rook) != Some(Piece::new(castling.color, Role::Rook)) {
                let right = castling.right().to_fen().chars().next().unwrap_or('?');
                return Err(PositionError::CastlingWithoutPieces { right });
            }
            if king.is_some_and(|king| king.file() != crate::File::E) {
                castling_files = castling_files.with_chess960(true);
            }
        }
        let us = setup.side_to_move;
        let mut ep_square = None;
        if let Some(square) = setup.en_passant {
            let impossible = |reason| Err(PositionError::ImpossibleEnPassant { square, reason });
            if square.rank() != Rank::Sixth.relative_to(us) {
                return impossible(if us.is_white() {
                    "with White to move it must be on rank 6"
                } else {
                    "with Black to move it must be on rank 3"
                });
            }
            // The pawn that just moved two squares stands in front of the
            // en passant square (seen from the side that pushed it).
            let pushed = Square::new((square as u32 as i32 + if us.is_white() { -8 } else { 8 }) as u32);
            let origin = Square::new((square as u32 as i32 + if us.is_white() { 8 } else { -8 }) as u32);
            if board.piece_at(pushed) != Some(Piece::new(!us, Role::Pawn)) {
                return impossible("no pawn of the side that just moved stands in front of it");
            }
            if board.occupied().contains(square) || board.occupied().contains(origin) {
                return impossible("the squares the pawn passed over must be empty");
            }
            if (attacks::pawn(!us, square) & board.pieces(us, Role::Pawn)).any() {
                ep_square = Some(square);
            }
        }
        let mut pos = Position {
            board,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            hash: 0,
            castling: setup.castling,
            castling_files,
            side_to_move: us,
            ep_square,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
        };
        if let Some(their_king) = board.king_of(!us) {
            if board.is_attacked_by(their_king, us, board.occupied()) {
                return Err(PositionError::OpponentInCheck { color: !us });
            }
        }
        pos.update_check_info();
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// A position from parts taken from a valid position (see
    /// [`crate::PackedPosition::unpack`]): no validation, counters reset.
    pub(crate) fn from_trusted_parts(
        board: Board,
        side_to_move: Color,
        castling: CastlingRights,
        castling_files: CastlingFiles,
        ep_square: Option<Square>,
    ) -> Position {
        let mut pos = Position {
            board,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            hash: 0,
            castling,
            castling_files,
            side_to_move,
            ep_square,
            halfmove_clock: 0,
            fullmove_number: 1,
        };
        pos.update_check_info();
        pos.hash = pos.compute_hash();
        pos
    }

    /// The setup this position was made from (with the en passant square as
    /// the position records it).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            side_to_move: self.side_to_move,
            castling: self.castling,
            castling_files: self.castling_files,
            en_passant: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// The position as a six-field FEN (X-FEN castling, which is standard
    /// FEN's in standard positions). The en passant field names the square
    /// only when a pawn of the side to move attacks it.
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The position as a six-field Shredder-FEN (castling rights as the
    /// rooks' file letters, `HAha`), the form cozy-chess and Shredder read
    /// for Chess960.
    pub fn to_shredder_fen(&self) -> String {
        let setup = self.to_setup();
        let mut fields: Vec<String> = setup.to_fen().split(' ').map(str::to_string).collect();
        fields[2] = setup.shredder_castling_fen();
        fields.join(" ")
    }

    /// The piece placement.
    #[inline(always)]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The remaining castling rights.
    #[inline(always)]
    pub const fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The files of the castling rooks, and whether this is Chess960.
    #[inline(always)]
    pub const fn castling_files(&self) -> CastlingFiles {
        self.castling_files
    }

    /// Whether the position is played as Chess960 (castling in UCI as the
    /// king taking its rook; see [`CastlingFiles`]).
    #[inline(always)]
    pub const fn is_chess960(&self) -> bool {
        self.castling_files.is_chess960()
    }

    /// The same position played as Chess960 or not (only the notation of
    /// castling differs). A position with castling rooks off the a- and
    /// h-files, or a king off the e-file with a right, stays Chess960.
    pub fn with_chess960(&self, chess960: bool) -> Position {
        let mut files = self.castling_files.with_chess960(chess960);
        if !chess960 && self.castling.castlings().any(|c| self.king_of(c.color).file() != crate::File::E) {
            files = files.with_chess960(true);
        }
        Position { castling_files: files, ..*self }
    }

    /// The squares of `castling` if its right remains (it need not be
    /// legal now).
    #[inline]
    pub fn castling_path(&self, castling: Castling) -> Option<CastlingPath> {
        self.castling
            .contains(castling.right())
            .then(|| castling.path(self.king_of(castling.color), castling.rook_from(self.castling_files)))
    }

    /// The squares of every castling whose right remains, in FEN order.
    pub fn castling_paths(&self) -> impl Iterator<Item = CastlingPath> + '_ {
        self.castling.castlings().filter_map(|castling| self.castling_path(castling))
    }

    /// The squares of `castling` (of the side to move, its right held):
    /// the constants of standard chess unless the position is Chess960
    /// (see [`CastlingFiles`] for why that suffices).
    #[inline(always)]
    pub(crate) fn held_castling_path(&self, castling: Castling) -> CastlingPath {
        if self.is_chess960() {
            castling.path(self.our_king(), castling.rook_from(self.castling_files))
        } else {
            castling.standard_path()
        }
    }

    /// Whether the castling `path` (of the side to move, its right held)
    /// is legal: its squares empty but for king and rook, the king not in
    /// check, and [`Position::castling_is_safe`].
    #[inline(always)]
    pub(crate) fn castling_is_legal(&self, path: &CastlingPath) -> bool {
        (path.empty & self.board.occupied()).is_empty() && self.checkers.is_empty() && self.castling_is_safe(path)
    }

    /// Whether the king of a castling `path` crosses no attacked square
    /// and is not in check on arrival once the rook has moved (Chess960's
    /// rook may have shielded the destination). The attacks on crossed
    /// squares are seen through the king's square, as python-chess does
    /// (the same answer when the king is not in check).
    #[inline(always)]
    pub(crate) fn castling_is_safe(&self, path: &CastlingPath) -> bool {
        let board = &self.board;
        let them = !path.castling.color;
        let without_king = board.occupied().without(path.king);
        if path.crossed.into_iter().any(|square| board.is_attacked_by(square, them, without_king)) {
            return false;
        }
        let after = without_king.without(path.rook).with(path.rook_to);
        !board.is_attacked_by(path.king_to, them, after)
    }

    /// The en passant square, recorded only when a pawn of the side to move
    /// attacks it (the capture may still be illegal, see [`Position::legal_ep_square`]).
    #[inline(always)]
    pub const fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Halfmoves since the last capture or pawn move.
    #[inline(always)]
    pub const fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The full move number (starts at 1, increases after Black's move).
    #[inline(always)]
    pub const fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub const fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub const fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// The pieces of the side to move that are pinned to their king (they
    /// stand alone between it and an enemy slider).
    #[inline(always)]
    pub const fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The king square of the side to move.
    #[inline(always)]
    pub fn our_king(&self) -> Square {
        self.king_of(self.side_to_move)
    }

    /// The king square of `color`.
    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Square {
        // A validated position has exactly one king per side; `Square::new`
        // masks, so even a corrupted board cannot make this panic.
        Square::new(self.board.pieces(color, Role::King).0.trailing_zeros())
    }

    /// The squares occupied by the side to move.
    #[inline(always)]
    pub const fn us(&self) -> Bitboard {
        self.board.by_color(self.side_to_move)
    }

    /// The squares occupied by the side not to move.
    #[inline(always)]
    pub fn them(&self) -> Bitboard {
        self.board.by_color(!self.side_to_move)
    }

    /// The incrementally maintained Zobrist hash (see [`zobrist`]).
    #[inline(always)]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch; equal to [`Position::hash`]
    /// (a test checks this on every move of long random games).
    ///
    /// Piece by piece from the twelve piece bitboards, not square by
    /// square asking each square's piece: the best-first phase computes it
    /// for every position it expands ([`crate::PackedPosition::unpack`]).
    pub fn compute_hash(&self) -> u64 {
        Position::hash_of_parts(&self.board, self.side_to_move, self.castling, self.castling_files, self.ep_square)
    }

    /// The hash of a position with these parts, computed from scratch
    /// ([`Position::compute_hash`]).
    pub(crate) fn hash_of_parts(
        board: &Board,
        side_to_move: Color,
        castling: CastlingRights,
        castling_files: CastlingFiles,
        ep_square: Option<Square>,
    ) -> u64 {
        let mut hash = 0;
        for role in Role::ALL {
            for color in Color::ALL {
                let piece = Piece::new(color, role);
                for square in board.by_piece(piece) {
                    hash ^= zobrist::piece(piece, square);
                }
            }
        }
        if side_to_move == Color::Black {
            hash ^= zobrist::black_to_move();
        }
        hash ^= zobrist::castling(castling);
        hash ^= zobrist::castling_files(castling_files);
        if let Some(square) = ep_square {
            hash ^= zobrist::en_passant(square.file());
        }
        hash
    }

    /// The hash of the position in the sense of FIDE Art. 9.2.3 (threefold
    /// repetition): same side to move, same pieces on the same squares, same
    /// castling rights, and the same *legal* en passant captures. It differs
    /// from [`Position::hash`] only when an en passant capture is recorded
    /// but illegal.
    pub fn repetition_key(&self) -> u64 {
        match self.ep_square {
            Some(square) if self.legal_ep_square().is_none() => self.hash ^ zobrist::en_passant(square.file()),
            _ => self.hash,
        }
    }

    /// The en passant square if an en passant capture is legal now.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let square = self.ep_square?;
        let capturers = attacks::pawn(!self.side_to_move, square) & self.board.pieces(self.side_to_move, Role::Pawn);
        capturers.into_iter().any(|from| self.is_legal(Move::new(from, square, MoveKind::EnPassant))).then_some(square)
    }

    /// The role of the piece on `square`, if any.
    #[inline(always)]
    pub const fn role_at(&self, square: Square) -> Option<Role> {
        self.board.role_at(square)
    }

    /// The piece on `square`, if any.
    #[inline(always)]
    pub const fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board.piece_at(square)
    }

    /// Whether `m` captures something (including en passant).
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant() || (!m.is_castle() && self.them().contains(m.to()))
    }

    /// Whether `m` is **irreversible**: a capture, a pawn move, or a move
    /// that loses a castling right. After it, no earlier position can occur
    /// again (material, pawns and castling rights never come back), so the
    /// repetition history restarts (FIDE 9.2.3 counts the rights in a
    /// position's identity) and the structure a static analysis reasons
    /// about may have changed. This is the project's one definition.
    ///
    /// ```
    /// use movegen::Position;
    /// let pos: Position = "r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
    /// let irreversible = |uci: &str| pos.is_irreversible(pos.parse_uci(uci).unwrap());
    /// assert!(irreversible("e4d5")); // a capture
    /// assert!(irreversible("e4e5")); // a pawn move
    /// assert!(irreversible("a1b1")); // the rook leaves home: Q is lost
    /// assert!(irreversible("e1g1")); // castling
    /// assert!(irreversible("e1d2")); // the king moves: both rights lost
    /// assert!(irreversible("a1a8")); // captures the rook on a8
    /// // Without castling rights, king and rook moves are reversible.
    /// let pos: Position = "r3k2r/8/8/3p4/4P3/8/8/R3K2R w - - 0 1".parse().unwrap();
    /// assert!(!pos.is_irreversible(pos.parse_uci("e1d2").unwrap()));
    /// assert!(!pos.is_irreversible(pos.parse_uci("a1b1").unwrap()));
    /// ```
    #[inline(always)]
    pub fn is_irreversible(&self, m: Move) -> bool {
        // Without castling rights (most positions of real games) no move
        // loses one: the rights' squares are not looked up.
        self.is_capture(m)
            || self.board.pawns().contains(m.from())
            || (!self.castling.is_empty() && self.castling.intersects(self.rights_lost_by(m)))
    }

    /// The castling rights `m` loses (of those the rules define; some may
    /// be held no more): those of the mover if its king moves, and those of
    /// a rook that leaves its square or is captured there.
    #[inline]
    fn rights_lost_by(&self, m: Move) -> CastlingRights {
        let king = self.board.kings().contains(m.from()).then_some(self.side_to_move);
        CastlingRights::lost_by(self.castling_files, m.from(), m.to(), king)
    }

    /// The role of the piece `m` captures, if any (a pawn for en passant).
    #[inline]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        if m.is_en_passant() {
            Some(Role::Pawn)
        } else if m.is_castle() || !self.them().contains(m.to()) {
            None
        } else {
            self.board.role_at(m.to())
        }
    }

    /// Whether `m` is a legal move in this position.
    ///
    /// Works for any 16-bit value, including moves from another position or
    /// from user input: it is answered by membership in the legal move list.
    pub fn is_legal(&self, m: Move) -> bool {
        if !self.us().contains(m.from()) {
            return false;
        }
        self.legal_moves().contains(&m)
    }

    /// Applies `m` if it is legal, otherwise returns `None`.
    pub fn try_play(&self, m: Move) -> Option<Position> {
        self.is_legal(m).then(|| self.play(m))
    }

    /// The position after the legal move `m` (copy-make).
    ///
    /// `m` must be legal here (generated for this position, or checked with
    /// [`Position::is_legal`] / parsed by [`Position::parse_uci`]). An illegal
    /// move does not panic, but the resulting position is unspecified and may
    /// break the type's invariants; use [`Position::try_play`] for untrusted moves.
    #[inline(always)]
    pub fn play(&self, m: Move) -> Position {
        if self.is_chess960() { self.play_variant::<true>(m) } else { self.play_variant::<false>(m) }
    }

    /// [`Position::play`] with the variant known at compile time:
    /// `CHESS960` must be [`Position::is_chess960`] (a callers' loop over
    /// a game tree decides it once, at the root: playing a move never
    /// changes it).
    #[inline(always)]
    pub(crate) fn play_variant<const CHESS960: bool>(&self, m: Move) -> Position {
        debug_assert_eq!(CHESS960, self.is_chess960());
        match self.side_to_move {
            Color::White => self.play_as::<true, CHESS960>(m),
            Color::Black => self.play_as::<false, CHESS960>(m),
        }
    }

    /// Applies the legal move `m` to `self` (see [`Position::play`]).
    #[inline]
    pub fn play_in_place(&mut self, m: Move) {
        *self = self.play(m);
    }

    /// [`Position::play`] with the side to move and the variant known at
    /// compile time.
    ///
    /// The new position is computed in local variables and written once,
    /// and every bitboard update uses a constant index (the role's bitboard
    /// is chosen by a `match`), so the board stays in registers. Updating a
    /// copy in memory through run-time indices (`by_role[role] ^= bit`)
    /// made the caller's wide reload of the copy wait for the narrow stores
    /// (a store-forwarding stall that cost a quarter of the time of
    /// make-move perft).
    ///
    /// The moving role and the capture test are branches, not branch-free
    /// selects: the moves of a generated list come grouped by piece and by
    /// destination, so they predict well (docs/tuning.md#move-generation).
    ///
    /// Standard chess (`CHESS960` false) carries no castling rooks' files:
    /// a position that is not Chess960 has its castling kings on the e-file
    /// and rooks on a and h (see [`CastlingFiles`]), so the corner rooks and
    /// the table of squares that lose rights serve, and the files stay
    /// [`CastlingFiles::STANDARD`] (whose key is zero) whatever the move.
    #[inline(always)]
    fn play_as<const WHITE: bool, const CHESS960: bool>(&self, m: Move) -> Position {
        const PAWN: usize = Role::Pawn as usize;
        const ROOK: usize = Role::Rook as usize;
        const KING: usize = Role::King as usize;
        let us = if WHITE { Color::White } else { Color::Black };
        let them = !us;
        let from = m.from();
        let to = m.to();
        let from_bb = 1u64 << from as u32;
        let to_bb = 1u64 << to as u32;
        let mut roles = [0u64; 6];
        for (r, bb) in roles.iter_mut().zip(self.board.by_role) {
            *r = bb.0;
        }
        let mut ours = self.board.by_color[us as usize].0;
        let mut theirs = self.board.by_color[them as usize].0;
        // Branches rather than `role_index_at`: the moves of a list come
        // grouped by role, so these predict well.
        let role = match self.board.role_at(from) {
            Some(role) => role as usize,
            None => PAWN,
        };
        let mut hash = self.hash ^ zobrist::black_to_move();
        if let Some(square) = self.ep_square {
            hash ^= zobrist::en_passant(square.file());
        }
        let mut ep_square = None;
        let mut halfmove_clock = self.halfmove_clock.saturating_add(1);
        let fullmove_number = if WHITE { self.fullmove_number } else { self.fullmove_number.saturating_add(1) };
        if m.is_castle() && !CHESS960 {
            let castling = Castling { color: us, king_side: to > from };
            let (rook_from, rook_to) = (castling.rook_from(CastlingFiles::STANDARD), castling.rook_to());
            let rook_bb = (1u64 << rook_from as u32) | (1u64 << rook_to as u32);
            roles[KING] ^= from_bb | to_bb;
            roles[ROOK] ^= rook_bb;
            ours ^= from_bb | to_bb | rook_bb;
            hash ^= zobrist::castling_move(us, from, to, rook_from, rook_to);
        } else if m.is_castle() {
            let castling = Castling::of_destination(us, to);
            let (rook_from, rook_to) = (castling.rook_from(self.castling_files), castling.rook_to());
            let (rook_from_bb, rook_to_bb) = (1u64 << rook_from as u32, 1u64 << rook_to as u32);
            // Both pieces off, then both on: in Chess960 the king or the
            // rook may stay, or each land on the other's square.
            roles[KING] = (roles[KING] & !from_bb) | to_bb;
            roles[ROOK] = (roles[ROOK] & !rook_from_bb) | rook_to_bb;
            ours = (ours & !(from_bb | rook_from_bb)) | to_bb | rook_to_bb;
            hash ^= zobrist::castling_move(us, from, to, rook_from, rook_to);
        } else if m.is_en_passant() {
            let captured = Square::new((to as u32 & 7) | (from as u32 & 56));
            let captured_bb = 1u64 << captured as u32;
            roles[PAWN] ^= from_bb | to_bb | captured_bb;
            ours ^= from_bb | to_bb;
            theirs ^= captured_bb;
            hash ^= zobrist::piece(Piece::new(them, Role::Pawn), captured)
                ^ zobrist::piece(Piece::new(us, Role::Pawn), from)
                ^ zobrist::piece(Piece::new(us, Role::Pawn), to);
            halfmove_clock = 0;
        } else {
            if theirs & to_bb != 0 {
                // `min`: a board corrupted by an illegal move may have two
                // roles on a square; no panic then, whatever the result.
                let captured = self.board.role_index_at(to).min(KING);
                hash ^= zobrist::piece_by_index(captured * 2 + them as usize, to);
                theirs ^= to_bb;
                halfmove_clock = 0;
                // A king is never captured: clear `to` from the other roles.
                for bb in &mut roles[..KING] {
                    *bb &= !to_bb;
                }
            }
            let placed = match m.promotion() {
                Some(promoted) => promoted as usize,
                None => role,
            };
            if placed == role {
                // Constant indices in every arm; moves come grouped by
                // piece type, so the branch predicts well.
                match role {
                    0 => roles[0] ^= from_bb | to_bb,
                    1 => roles[1] ^= from_bb | to_bb,
                    2 => roles[2] ^= from_bb | to_bb,
                    3 => roles[3] ^= from_bb | to_bb,
                    4 => roles[4] ^= from_bb | to_bb,
                    _ => roles[5] ^= from_bb | to_bb,
                }
            } else {
                roles[PAWN] ^= from_bb;
                for (r, bb) in roles.iter_mut().enumerate() {
                    if r == placed {
                        *bb |= to_bb;
                    }
                }
            }
            ours ^= from_bb | to_bb;
            hash ^= zobrist::piece_by_index(role * 2 + us as usize, from)
                ^ zobrist::piece_by_index(placed * 2 + us as usize, to);
            if role == PAWN {
                halfmove_clock = 0;
                if from as u32 ^ to as u32 == 16 {
                    let jumped = Square::new((from as u32 + to as u32) / 2);
                    if (attacks::pawn(us, jumped).0 & roles[PAWN] & theirs) != 0 {
                        ep_square = Some(jumped);
                        hash ^= zobrist::en_passant(jumped.file());
                    }
                }
            }
        }
        let mut castling = self.castling;
        let mut castling_files = if CHESS960 { self.castling_files } else { CastlingFiles::STANDARD };
        if !CHESS960 {
            if !castling.is_empty() {
                let lost = CastlingRights::lost_by_touching(from) | CastlingRights::lost_by_touching(to);
                if castling.intersects(lost) {
                    hash ^= zobrist::castling(castling);
                    castling -= lost;
                    hash ^= zobrist::castling(castling);
                }
            }
        } else if !castling.is_empty() {
            let king_moves = if role == KING { Some(us) } else { None };
            let lost = CastlingRights::lost_by(castling_files, from, to, king_moves);
            if castling.intersects(lost) {
                hash ^= zobrist::castling(castling) ^ zobrist::castling_files(castling_files);
                castling -= lost;
                castling_files = castling_files.normalized(castling);
                hash ^= zobrist::castling(castling) ^ zobrist::castling_files(castling_files);
            }
        }
        let by_role = roles.map(Bitboard);
        let by_color = if WHITE { [Bitboard(ours), Bitboard(theirs)] } else { [Bitboard(theirs), Bitboard(ours)] };
        let board = Board { by_role, by_color };
        // Their king has not moved: taking its square from `self` lets the
        // compiler hoist the king's attack-table lookups out of a loop
        // that plays every move of one position.
        let (checkers, pinned) = check_info(&board, them, self.king_of(them));
        Position {
            board,
            checkers,
            pinned,
            hash,
            castling,
            castling_files,
            side_to_move: them,
            ep_square,
            halfmove_clock,
            fullmove_number,
        }
    }

    /// Whether the legal move `m` gives check: the same as
    /// `self.play(m).is_check()`, without making the move (a search that
    /// only needs to know whether a child is in check saves the copy, the
    /// hash updates and the child's pins).
    ///
    /// It looks from the other king: at the moved piece (as promoted) on
    /// its destination, and along the lines of our sliders with the
    /// occupancy after the move, which finds discovered checks, the
    /// castling rook's check and the two squares an en passant capture
    /// empties.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move;
        let king = self.king_of(!us);
        let board = &self.board;
        let (from, to) = (m.from(), m.to());
        let ours = board.by_color(us).without(from);
        let mut occupied = board.occupied().without(from).with(to);
        let mut diagonal = board.bishops_and_queens() & ours;
        let mut straight = board.rooks_and_queens() & ours;
        if m.is_castle() {
            let castling = Castling::of_destination(us, to);
            let (rook_from, rook_to) = (castling.rook_from(self.castling_files), castling.rook_to());
            occupied = board.occupied().without(from).without(rook_from).with(to).with(rook_to);
            straight = straight.without(rook_from).with(rook_to);
        } else {
            if m.is_en_passant() {
                occupied = occupied.without(Square::new((to as u32 & 7) | (from as u32 & 56)));
            }
            match m.promotion().or(board.role_at(from)) {
                Some(Role::Pawn) if attacks::pawn(us, to).contains(king) => return true,
                Some(Role::Knight) if attacks::knight(to).contains(king) => return true,
                Some(Role::Bishop) => diagonal = diagonal.with(to),
                Some(Role::Rook) => straight = straight.with(to),
                Some(Role::Queen) => (diagonal, straight) = (diagonal.with(to), straight.with(to)),
                _ => {}
            }
        }
        (attacks::bishop(king, occupied) & diagonal).any() || (attacks::rook(king, occupied) & straight).any()
    }

    /// Passes the turn without moving (a "null move"), for analysis tools.
    /// Returns `None` when the side to move is in check (passing would leave
    /// the king capturable, which no rule defines).
    pub fn pass(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut next = *self;
        next.hash ^= zobrist::black_to_move();
        if let Some(square) = next.ep_square.take() {
            next.hash ^= zobrist::en_passant(square.file());
        }
        next.side_to_move = !self.side_to_move;
        next.update_check_info();
        if next.checkers.any() {
            return None;
        }
        Some(next)
    }

    /// Recomputes the checkers and pinned pieces of the side to move.
    #[inline]
    fn update_check_info(&mut self) {
        (self.checkers, self.pinned) = check_info(&self.board, self.side_to_move, self.our_king());
    }

    /// Whether the side to move has no legal move and is in check.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move has no legal move and is not in check.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }
}

/// The pieces giving check to `us` and the pieces of `us` pinned to its
/// king (on `king`), on `board`.
#[inline(always)]
fn check_info(board: &Board, us: Color, king: Square) -> (Bitboard, Bitboard) {
    let ours = board.by_color[us as usize];
    let theirs = board.by_color[!us as usize];
    let occupied = ours | theirs;
    let their_rooks = board.rooks_and_queens() & theirs;
    let their_bishops = board.bishops_and_queens() & theirs;
    let leapers =
        (attacks::pawn(us, king) & board.pawns() & theirs) | (attacks::knight(king) & board.knights() & theirs);
    let snipers = (attacks::rook_rays(king) & their_rooks) | (attacks::bishop_rays(king) & their_bishops);
    let (open, lone_blockers) = sniper_lines(king, snipers, occupied);
    (leapers | open, lone_blockers & ours)
}

/// For sliders `snipers` on lines through `king` (a rook or queen on its
/// rank or file, a bishop or queen on its diagonals): those with nothing
/// between them and the king on `occupied`, and the pieces (of either
/// colour) that alone stand between one of them and the king. The pins of
/// [`check_info`] and the discovered checks of
/// [`crate::CheckSquares`] are the latter, of one colour.
#[inline(always)]
pub(crate) fn sniper_lines(king: Square, snipers: Bitboard, occupied: Bitboard) -> (Bitboard, Bitboard) {
    let (mut open, mut lone_blockers) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if blockers.is_empty() {
            open |= sniper;
        } else if !blockers.more_than_one() {
            lone_blockers |= blockers;
        }
    }
    (open, lone_blockers)
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl fmt::Display for Position {
    /// The board as a grid followed by the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.board, self.to_fen())
    }
}
