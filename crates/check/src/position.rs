//! Positions, moves and squares, all through cozy-chess: reading a FEN and
//! a UCI move, playing legal moves, naming squares and square sets, and
//! the key that tells two positions apart.
//!
//! **Trusted**: cozy-chess's FEN validation and legal move generation, and
//! its attack tables (used by the static kind). Nothing else of the
//! solver's is used.

use std::hash::{BuildHasherDefault, Hasher};

use cozy_chess::{
    BitBoard, Board, Color, File, Move, Piece, Square, get_bishop_moves, get_king_moves, get_knight_moves,
    get_pawn_attacks, get_rook_moves,
};

/// A square set, bit `i` for square `i` (a1 = 0, b1 = 1, ..., h8 = 63).
pub type Set = u64;

/// The set of one square.
pub fn bit(square: Square) -> Set {
    1 << square as u8
}

/// The squares of a set, a1 upwards.
pub fn squares(set: Set) -> impl Iterator<Item = Square> {
    BitBoard(set).iter()
}

/// Whether `set` holds `square`.
pub fn has(set: Set, square: Square) -> bool {
    set & bit(square) != 0
}

/// How many squares `set` holds.
pub fn count(set: Set) -> u32 {
    set.count_ones()
}

/// Reads a FEN: standard chess, X-FEN or Shredder-FEN (Chess960). The
/// clocks are replaced by `0 1` (no rule about them matters here, and
/// cozy-chess would refuse some that are legal FEN); a FEN with only four
/// fields gets them.
///
/// The castling field is rewritten as Shredder-FEN (the rooks' files),
/// which cozy-chess reads for both variants: `K`/`Q` (`k`/`q`) name the
/// outermost rook of that colour on its first rank on that side of its
/// king (X-FEN; in standard chess, the corner rook); file letters stay.
pub fn parse_fen(fen: &str) -> Result<Board, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() != 4 && fields.len() != 6 {
        return Err(format!("the FEN {fen:?} does not have 4 or 6 fields"));
    }
    let castling = shredder_castling(fields[0], fields[2])
        .ok_or_else(|| format!("the FEN {fen:?} has a castling field this checker cannot read"))?;
    let normalised = format!("{} {} {castling} {} 0 1", fields[0], fields[1], fields[3]);
    Board::from_fen(&normalised, true).map_err(|e| format!("cozy-chess refuses the FEN {fen:?}: {e}"))
}

/// The castling field `field` of a FEN whose placement is `placement`, as
/// Shredder-FEN letters (see [`parse_fen`]); `None` if a character is not a
/// castling letter or a `K`/`Q` has no rook on its side of the king.
fn shredder_castling(placement: &str, field: &str) -> Option<String> {
    if field == "-" {
        return Some(field.to_string());
    }
    // The first ranks as text: rank 1 is the last of the placement, rank 8 the first.
    let ranks: Vec<&str> = placement.split('/').collect();
    let first_rank = |white: bool| -> Option<Vec<char>> {
        let text = if white { ranks.last()? } else { ranks.first()? };
        let mut squares = Vec::new();
        for c in text.chars() {
            match c.to_digit(10) {
                Some(n) => squares.extend(std::iter::repeat_n(' ', n as usize)),
                None => squares.push(c),
            }
        }
        (squares.len() == 8).then_some(squares)
    };
    let mut out = String::new();
    for c in field.chars() {
        let white = c.is_ascii_uppercase();
        let letter = match c.to_ascii_lowercase() {
            side @ ('k' | 'q') => {
                let rank = first_rank(white)?;
                let (king, rook) = if white { ('K', 'R') } else { ('k', 'r') };
                let king_file = rank.iter().position(|&p| p == king)?;
                let file = if side == 'k' {
                    (king_file + 1..8).rev().find(|&f| rank[f] == rook)?
                } else {
                    (0..king_file).find(|&f| rank[f] == rook)?
                };
                (b'a' + file as u8) as char
            }
            letter @ 'a'..='h' => letter,
            _ => return None,
        };
        out.push(if white { letter.to_ascii_uppercase() } else { letter });
    }
    Some(out)
}

/// Whether every castling right of `board` is standard chess's (the king
/// on the e-file, the rook in the corner): the static kind's closure
/// argument covers those only (`docs/certificates.md`).
pub fn standard_castling(board: &Board) -> bool {
    Color::ALL.iter().all(|&color| {
        let rights = board.castle_rights(color);
        let king_on_e = board.king(color).file() == File::E;
        (rights.short.is_none() || (king_on_e && rights.short == Some(File::H)))
            && (rights.long.is_none() || (king_on_e && rights.long == Some(File::A)))
    })
}

/// Reads a square name such as `e4`.
pub fn parse_square(name: &str) -> Result<Square, String> {
    name.parse().map_err(|_| format!("{name:?} is not a square"))
}

/// Reads squares separated by spaces (`"e4 e5"`; empty for none).
pub fn parse_squares(list: &str) -> Result<Set, String> {
    list.split_whitespace().try_fold(0, |set, name| Ok(set | bit(parse_square(name)?)))
}

/// Reads a square set written as 16 hexadecimal digits (bit `i` for
/// square `i`).
pub fn parse_set(hex: &str) -> Result<Set, String> {
    if hex.len() != 16 {
        return Err(format!("{hex:?} is not a square set (16 hexadecimal digits)"));
    }
    u64::from_str_radix(hex, 16).map_err(|_| format!("{hex:?} is not a square set (16 hexadecimal digits)"))
}

/// Names the squares of a set (`"e4 e5"`).
pub fn names(set: Set) -> String {
    squares(set).map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

/// The legal moves of `board`.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// Whether `board` is a checkmate delivered by `winner`.
pub fn mated_by(board: &Board, winner: Color) -> bool {
    board.side_to_move() != winner && !board.checkers().is_empty() && legal_moves(board).is_empty()
}

/// Reads a move in UCI (castling written as the king taking its own rook,
/// `e1h1`, or as the king's two-square move to its castling square, `e1g1`)
/// and checks that it is legal in `board`; returns it in cozy-chess's form
/// (castling as the king taking its own rook).
pub fn parse_move(board: &Board, uci: &str) -> Result<Move, String> {
    let illegal = || format!("{uci:?} is not a legal move in {board}");
    if !(4..=5).contains(&uci.len()) {
        return Err(illegal());
    }
    let mut mv: Move = uci.parse().map_err(|_| illegal())?;
    // Only the canonical text (cozy-chess reads `b8c8p` as `b8c8`).
    if mv.to_string() != uci {
        return Err(illegal());
    }
    let color = board.side_to_move();
    let king_steps_two = board.king(color) == mv.from
        && mv.from.rank() == mv.to.rank()
        && (mv.from.file() as i8 - mv.to.file() as i8).abs() == 2;
    // Only onto the castling squares (g and c): a king's two-square move
    // elsewhere (Chess960's `d1f1`) is no castling.
    if king_steps_two && matches!(mv.to.file(), File::G | File::C) {
        let rights = board.castle_rights(color);
        let rook = if mv.to.file() == File::G { rights.short } else { rights.long };
        let rook: File = rook.ok_or_else(illegal)?;
        mv.to = Square::new(rook, mv.from.rank());
    }
    if board.is_legal(mv) { Ok(mv) } else { Err(illegal()) }
}

/// Plays a legal move on a copy.
pub fn play(board: &Board, mv: Move) -> Board {
    let mut next = board.clone();
    next.play_unchecked(mv);
    next
}

/// What tells two positions apart for the rules of play: the placement,
/// the side to move, the castling rights and the en passant file when an
/// en passant capture is legal (a square recorded without such a capture
/// changes nothing). Two positions with the same key have the same legal
/// moves, to positions with the same keys.
pub type Key = [u64; 4];

/// The hash of the closures' sets of [`Key`]s: a multiply-rotate mix of
/// the key's words (the keys come from legal play out of the checked
/// position, and a set never holds more than the record's bound).
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`KeyHasher`]s.
pub type KeyHashes = BuildHasherDefault<KeyHasher>;

/// The [`Key`] of `board`; `None` with more than 32 pieces (they do not
/// fit; no legal game has more).
pub fn key(board: &Board) -> Option<Key> {
    let occupied = board.occupied();
    if occupied.len() > 32 {
        return None;
    }
    let mut packed: u128 = 0;
    for (i, square) in occupied.iter().enumerate() {
        let piece = board.piece_on(square)? as u128;
        let color = board.color_on(square)? as u128;
        packed |= (color << 3 | piece) << (4 * i);
    }
    let rights = |color: Color| {
        let r = board.castle_rights(color);
        let file = |f: Option<File>| f.map_or(0, |f| f as u64 + 1);
        file(r.short) | file(r.long) << 4
    };
    let ep = board.en_passant().filter(|_| has_en_passant(board)).map_or(0, |f| f as u64 + 1);
    let flags = board.side_to_move() as u64 | rights(Color::White) << 1 | rights(Color::Black) << 9 | ep << 17;
    Some([occupied.0, packed as u64, (packed >> 64) as u64, flags])
}

/// Whether an en passant capture is legal in `board`.
pub fn has_en_passant(board: &Board) -> bool {
    let Some(file) = board.en_passant() else { return false };
    let color = board.side_to_move();
    let target = Square::new(file, cozy_chess::Rank::Sixth.relative_to(color));
    let pawns = board.colored_pieces(color, Piece::Pawn);
    legal_moves(board).iter().any(|mv| mv.to == target && pawns.has(mv.from))
}

/// The squares a piece of `role` and `color` on `from` attacks, lines
/// stopped by `occupied`.
pub fn attacks(role: Piece, color: Color, from: Square, occupied: Set) -> Set {
    let blockers = BitBoard(occupied);
    match role {
        Piece::Pawn => get_pawn_attacks(from, color).0,
        Piece::Knight => get_knight_moves(from).0,
        Piece::Bishop => get_bishop_moves(from, blockers).0,
        Piece::Rook => get_rook_moves(from, blockers).0,
        Piece::Queen => (get_bishop_moves(from, blockers) | get_rook_moves(from, blockers)).0,
        Piece::King => get_king_moves(from).0,
    }
}

/// The squares a piece of `role` and `color` on `from` attacks
/// *directly*: a step or a jump, which nothing can stand between (a slider
/// only its neighbours along its lines).
pub fn direct_attacks(role: Piece, color: Color, from: Square) -> Set {
    // Every other square occupied: a slider stops at its neighbours.
    attacks(role, color, from, !0)
}
