//! Castling: [`CastlingRights`] (which castlings remain available),
//! [`CastlingFiles`] (where the castling rooks start, and whether the
//! position is played as Chess960), [`Castling`] (one castling: a colour and
//! a side) and [`CastlingPath`] (its squares in a position).
//!
//! One set of rules covers standard chess and Chess960 (Fischer random
//! chess): the king and the rook end on g and f (king side) or c and d
//! (queen side) of their first rank; every square between the king and its
//! destination, and between the rook and its destination (destinations
//! included), must be empty but for the two castling pieces; the king may
//! not be in check, cross an attacked square, or end in check. With the
//! king on e1 and the rooks on a1 and h1 these are exactly the rules of
//! standard chess (the squares to empty are f1, g1 or b1, c1, d1; the
//! king's are f1, g1 or d1, c1).
//!
//! Both colours' castling rooks start on the same two files, as in every
//! Chess960 game (the start position is symmetric and rights are only ever
//! lost): the queen-side file and the king-side file, `a` and `h` in
//! standard chess.

use core::fmt;

use crate::{Bitboard, Color, File, Rank, Square};

bitflags::bitflags! {
    /// The four castling rights: each colour's king-side and queen-side
    /// castling. The rooks' files are in [`CastlingFiles`].
    ///
    /// A right only says the king and that rook have not moved; whether
    /// castling is *legal* now also depends on empty and unattacked squares.
    ///
    /// ```
    /// use movegen::CastlingRights;
    /// let rights = CastlingRights::from_fen("Kq").unwrap();
    /// assert!(rights.contains(CastlingRights::WHITE_KING_SIDE | CastlingRights::BLACK_QUEEN_SIDE));
    /// assert_eq!(rights.to_fen(), "Kq");
    /// assert_eq!(CastlingRights::empty().to_fen(), "-");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub struct CastlingRights: u8 {
        /// White may castle king side (O-O).
        const WHITE_KING_SIDE = 1;
        /// White may castle queen side (O-O-O).
        const WHITE_QUEEN_SIDE = 2;
        /// Black may castle king side.
        const BLACK_KING_SIDE = 4;
        /// Black may castle queen side.
        const BLACK_QUEEN_SIDE = 8;
    }
}

/// One castling: a colour and a side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    /// Who castles.
    pub color: Color,
    /// `true` for king side (O-O, towards the h-file), `false` for queen
    /// side (O-O-O, towards the a-file).
    pub king_side: bool,
}

impl Castling {
    /// The two castlings of `color` in the order the move generator tries
    /// them: king side first, then queen side.
    pub const fn both(color: Color) -> [Castling; 2] {
        [Castling { color, king_side: true }, Castling { color, king_side: false }]
    }

    /// The castling a castling move of `color` is: the king's destination
    /// is on the g-file (king side) or the c-file (queen side). This holds in
    /// Chess960 too, where the king may move either way or not at all.
    #[inline(always)]
    pub const fn of_destination(color: Color, king_to: Square) -> Castling {
        Castling { color, king_side: king_to.file() as u8 == File::G as u8 }
    }

    /// The right that allows this castling.
    pub const fn right(self) -> CastlingRights {
        match (self.color, self.king_side) {
            (Color::White, true) => CastlingRights::WHITE_KING_SIDE,
            (Color::White, false) => CastlingRights::WHITE_QUEEN_SIDE,
            (Color::Black, true) => CastlingRights::BLACK_KING_SIDE,
            (Color::Black, false) => CastlingRights::BLACK_QUEEN_SIDE,
        }
    }

    /// The king's destination (g1, c1, g8 or c8), in both variants.
    pub const fn king_to(self) -> Square {
        if self.king_side { Square::G1.relative_to(self.color) } else { Square::C1.relative_to(self.color) }
    }

    /// The rook's destination (f1, d1, f8 or d8), in both variants.
    pub const fn rook_to(self) -> Square {
        if self.king_side { Square::F1.relative_to(self.color) } else { Square::D1.relative_to(self.color) }
    }

    /// The rook's square for the rook files `files` (h1 or a1 in standard
    /// chess).
    #[inline(always)]
    pub const fn rook_from(self, files: CastlingFiles) -> Square {
        let file = if self.king_side { files.king_side() } else { files.queen_side() };
        Square::from_coords(file, Rank::First.relative_to(self.color))
    }

    /// The squares of this castling with the king on `king` and the rook on
    /// `rook` (both on the castling colour's first rank).
    #[inline(always)]
    pub fn path(self, king: Square, rook: Square) -> CastlingPath {
        let masks = &PATH_MASKS[self.color as usize][king.file() as usize][rook.file() as usize];
        CastlingPath {
            castling: self,
            king,
            rook,
            king_to: self.king_to(),
            rook_to: self.rook_to(),
            empty: Bitboard(masks.0),
            crossed: Bitboard(masks.1),
        }
    }
}

impl Castling {
    /// The squares of this castling in standard chess (king on the e-file,
    /// rook in the corner): [`Castling::path`] of those squares, as
    /// constants.
    #[inline(always)]
    pub const fn standard_path(self) -> CastlingPath {
        let (rook, empty, crossed) = if self.king_side {
            (Square::H1, (1u64 << 5) | (1 << 6), 1u64 << 5)
        } else {
            (Square::A1, (1u64 << 1) | (1 << 2) | (1 << 3), 1u64 << 3)
        };
        let shift = match self.color {
            Color::White => 0,
            Color::Black => 56,
        };
        CastlingPath {
            castling: self,
            king: Square::E1.relative_to(self.color),
            rook: rook.relative_to(self.color),
            king_to: self.king_to(),
            rook_to: self.rook_to(),
            empty: Bitboard(empty << shift),
            crossed: Bitboard(crossed << shift),
        }
    }
}

/// One castling in a position: where the king and the rook stand and go,
/// the squares that must be empty and those the king crosses.
///
/// ```
/// use movegen::{Bitboard, Castling, Color, Square};
/// // Standard chess, O-O-O.
/// let path = Castling { color: Color::White, king_side: false }.path(Square::E1, Square::A1);
/// assert_eq!(path.empty, Bitboard::from(Square::B1) | Square::C1 | Square::D1);
/// assert_eq!(path.crossed, Bitboard::from(Square::D1));
/// // Chess960: king f1, rook g1; they swap squares, nothing else must be empty.
/// let path = Castling { color: Color::White, king_side: true }.path(Square::F1, Square::G1);
/// assert!(path.empty.is_empty() && path.crossed.is_empty());
/// assert_eq!((path.king_to, path.rook_to), (Square::G1, Square::F1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingPath {
    /// Which castling.
    pub castling: Castling,
    /// The king's square.
    pub king: Square,
    /// The castling rook's square.
    pub rook: Square,
    /// The king's destination.
    pub king_to: Square,
    /// The rook's destination.
    pub rook_to: Square,
    /// The squares that must be empty: those between the king and its
    /// destination and between the rook and its destination, destinations
    /// included, but the king's and the rook's own squares.
    pub empty: Bitboard,
    /// The squares strictly between the king and its destination: none may
    /// be attacked (nor the king's square, nor its destination once the
    /// rook has moved).
    pub crossed: Bitboard,
}

impl CastlingPath {
    /// Whether the castling would move the king (in Chess960 it may stay).
    pub fn king_moves(&self) -> bool {
        self.king != self.king_to
    }

    /// Whether the castling would move the rook.
    pub fn rook_moves(&self) -> bool {
        self.rook != self.rook_to
    }

    /// Whether the castling is the standard chess one (king on the e-file,
    /// rook in the corner).
    pub fn is_standard(&self) -> bool {
        self.king.file() == File::E && self.rook.file() == if self.castling.king_side { File::H } else { File::A }
    }
}

/// The squares strictly between files `a` and `b` and both ends, on the
/// first rank, as a mask.
const fn span(a: usize, b: usize) -> u64 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    let mut mask = 0;
    let mut f = low;
    while f <= high {
        mask |= 1 << f;
        f += 1;
    }
    mask
}

/// Per colour, king file and rook file (both sides): the squares a
/// castling needs empty and the squares its king crosses (see
/// [`CastlingPath`]). The king side is the rook's side of the king.
static PATH_MASKS: [[[(u64, u64); 8]; 8]; 2] = {
    let mut table = [[[(0u64, 0u64); 8]; 8]; 2];
    let mut color = 0;
    while color < 2 {
        let mut king = 0;
        while king < 8 {
            let mut rook = 0;
            while rook < 8 {
                let king_side = rook > king;
                let (king_to, rook_to) = if king_side { (6, 5) } else { (2, 3) };
                let ends = (1u64 << king) | (1u64 << rook);
                let empty = (span(king, king_to) | span(rook, rook_to)) & !ends;
                let crossed = span(king, king_to) & !(1u64 << king) & !(1u64 << king_to);
                let shift = if color == 0 { 0 } else { 56 };
                table[color][king][rook] = (empty << shift, crossed << shift);
                rook += 1;
            }
            king += 1;
        }
        color += 1;
    }
    table
};

/// The files of the castling rooks, shared by both colours (see the module
/// docs), and whether the position is played as Chess960.
///
/// The variant changes no rule (the castling rules above are both
/// variants'), only notation: in Chess960 a castling is written in UCI as
/// the king taking its own rook (`e1h1`), and the destination sets of
/// [`Position::for_each_piece_moves`](crate::Position::for_each_piece_moves)
/// name the rook's square. A position whose castling rights use other
/// squares than standard chess's is always Chess960.
///
/// A file with no right of either colour is kept at its standard value
/// (`a` or `h`), so equal positions have equal files.
///
/// Files that are not Chess960 are `a` and `h` (every constructor keeps
/// it), and a position that is not Chess960 has the kings of its rights on
/// the e-file: [`Position::play`](crate::Position::play) relies on both
/// for standard chess's fast path.
///
/// ```
/// use movegen::{CastlingFiles, File};
/// let files = CastlingFiles::new(File::B, File::G).unwrap();
/// assert!(files.is_chess960());
/// assert_eq!((files.queen_side(), files.king_side()), (File::B, File::G));
/// assert!(!CastlingFiles::STANDARD.is_chess960());
/// assert_eq!(CastlingFiles::new(File::G, File::B), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CastlingFiles(u8);

/// Bits 0-2: the queen-side file; bits 3-5: `7 -` the king-side file (so
/// standard chess's files are 0); bit 6: Chess960.
const QUEEN_SIDE_BITS: u8 = 0b000_111;
const KING_SIDE_BITS: u8 = 0b111_000;
const FILE_BITS: u8 = QUEEN_SIDE_BITS | KING_SIDE_BITS;
const CHESS960_BIT: u8 = 1 << 6;

impl CastlingFiles {
    /// Standard chess: rooks on a and h, standard notation.
    pub const STANDARD: CastlingFiles = CastlingFiles(0);

    /// Chess960 with rooks on `queen_side` and `king_side`, which must be
    /// in that order (`None` otherwise).
    pub const fn new(queen_side: File, king_side: File) -> Option<CastlingFiles> {
        if (queen_side as u8) < king_side as u8 {
            Some(CastlingFiles(queen_side as u8 | (7 - king_side as u8) << 3 | CHESS960_BIT))
        } else {
            None
        }
    }

    /// The queen-side rook's file.
    #[inline(always)]
    pub const fn queen_side(self) -> File {
        File::new((self.0 & QUEEN_SIDE_BITS) as u32)
    }

    /// The king-side rook's file.
    #[inline(always)]
    pub const fn king_side(self) -> File {
        File::new(7 - ((self.0 & KING_SIDE_BITS) >> 3) as u32)
    }

    /// Whether the position is played as Chess960.
    #[inline(always)]
    pub const fn is_chess960(self) -> bool {
        self.0 & CHESS960_BIT != 0
    }

    /// The same files, played as Chess960 or not. Files other than `a` and
    /// `h` stay Chess960.
    pub const fn with_chess960(self, chess960: bool) -> CastlingFiles {
        if chess960 || !self.has_standard_files() {
            CastlingFiles(self.0 | CHESS960_BIT)
        } else {
            CastlingFiles(self.0 & !CHESS960_BIT)
        }
    }

    /// Whether the files are `a` and `h`.
    #[inline(always)]
    pub const fn has_standard_files(self) -> bool {
        self.0 & FILE_BITS == 0
    }

    /// The files with the side of no right of `rights` reset to its
    /// standard file.
    #[inline(always)]
    pub(crate) const fn normalized(self, rights: CastlingRights) -> CastlingFiles {
        let mut keep = CHESS960_BIT;
        if rights.intersects(CastlingRights::WHITE_QUEEN_SIDE.union(CastlingRights::BLACK_QUEEN_SIDE)) {
            keep |= QUEEN_SIDE_BITS;
        }
        if rights.intersects(CastlingRights::WHITE_KING_SIDE.union(CastlingRights::BLACK_KING_SIDE)) {
            keep |= KING_SIDE_BITS;
        }
        CastlingFiles(self.0 & keep)
    }

    /// The files without the variant (6 bits), for hashing and packing.
    #[inline(always)]
    pub(crate) const fn file_bits(self) -> u8 {
        self.0 & FILE_BITS
    }

    /// The raw byte (7 bits), for packing.
    #[inline(always)]
    pub(crate) const fn to_bits(self) -> u8 {
        self.0
    }

    /// From [`CastlingFiles::to_bits`] (files other than `a` and `h` are
    /// Chess960 whatever the bits say, as everywhere).
    #[inline(always)]
    pub(crate) const fn from_bits(bits: u8) -> CastlingFiles {
        CastlingFiles(bits & FILE_BITS).with_chess960(bits & CHESS960_BIT != 0)
    }
}

impl Default for CastlingFiles {
    fn default() -> CastlingFiles {
        CastlingFiles::STANDARD
    }
}

impl fmt::Debug for CastlingFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CastlingFiles({}{}{})",
            self.queen_side().char(),
            self.king_side().char(),
            if self.is_chess960() { ", chess960" } else { "" }
        )
    }
}

/// For every square, the rights lost when a piece moves from or to it, in
/// standard chess (rooks on a and h; the kings are handled by the mover).
static STANDARD_ROOK_RIGHTS: [CastlingRights; 64] = {
    let mut table = [CastlingRights::empty(); 64];
    table[Square::H1 as usize] = CastlingRights::WHITE_KING_SIDE;
    table[Square::A1 as usize] = CastlingRights::WHITE_QUEEN_SIDE;
    table[Square::H8 as usize] = CastlingRights::BLACK_KING_SIDE;
    table[Square::A8 as usize] = CastlingRights::BLACK_QUEEN_SIDE;
    table
};

/// For every square, the rights lost when a piece moves from or to it in
/// standard chess (the king or a rook leaves home, or a rook is captured
/// at home).
static RIGHTS_LOST: [CastlingRights; 64] = {
    let mut table = STANDARD_ROOK_RIGHTS;
    table[Square::E1 as usize] = CastlingRights::WHITE_KING_SIDE.union(CastlingRights::WHITE_QUEEN_SIDE);
    table[Square::E8 as usize] = CastlingRights::BLACK_KING_SIDE.union(CastlingRights::BLACK_QUEEN_SIDE);
    table
};

impl CastlingRights {
    /// The rights lost when a piece moves from or to `square` in standard
    /// chess (the king or a rook leaves home, or a rook is captured at
    /// home). For any variant, see [`CastlingRights::lost_by`].
    #[inline(always)]
    pub fn lost_by_touching(square: Square) -> CastlingRights {
        RIGHTS_LOST[square as usize]
    }

    /// The rights lost by a move from `from` to `to` with rooks on `files`,
    /// `king_moves` telling whether the mover is a king: a right is lost
    /// when its rook leaves its square or is captured there, and both of a
    /// colour's rights when its king moves (castling included).
    #[inline(always)]
    pub fn lost_by(files: CastlingFiles, from: Square, to: Square, king_moves: Option<Color>) -> CastlingRights {
        let kings = match king_moves {
            Some(color) => CastlingRights::of(color),
            None => CastlingRights::empty(),
        };
        if files.has_standard_files() {
            return STANDARD_ROOK_RIGHTS[from as usize] | STANDARD_ROOK_RIGHTS[to as usize] | kings;
        }
        let mut lost = kings;
        for castling in [Color::White, Color::Black].into_iter().flat_map(Castling::both) {
            let rook = castling.rook_from(files);
            if rook == from || rook == to {
                lost |= castling.right();
            }
        }
        lost
    }

    /// Both rights of `color`.
    pub const fn of(color: Color) -> CastlingRights {
        match color {
            Color::White => CastlingRights::WHITE_KING_SIDE.union(CastlingRights::WHITE_QUEEN_SIDE),
            Color::Black => CastlingRights::BLACK_KING_SIDE.union(CastlingRights::BLACK_QUEEN_SIDE),
        }
    }

    /// The castlings these rights allow, in FEN order (`KQkq`).
    pub fn castlings(self) -> impl Iterator<Item = Castling> {
        Color::ALL.into_iter().flat_map(Castling::both).filter(move |castling| self.contains(castling.right()))
    }

    /// Parses the standard FEN castling field (`KQkq`, any subset in that
    /// order, or `-`). For X-FEN and Shredder-FEN see
    /// [`Setup::from_fen`](crate::Setup::from_fen).
    pub fn from_fen(field: &str) -> Option<CastlingRights> {
        if field == "-" {
            return Some(CastlingRights::empty());
        }
        let mut rights = CastlingRights::empty();
        let mut last = 0;
        for c in field.chars() {
            let (right, rank) = match c {
                'K' => (CastlingRights::WHITE_KING_SIDE, 1),
                'Q' => (CastlingRights::WHITE_QUEEN_SIDE, 2),
                'k' => (CastlingRights::BLACK_KING_SIDE, 3),
                'q' => (CastlingRights::BLACK_QUEEN_SIDE, 4),
                _ => return None,
            };
            if rank <= last {
                return None;
            }
            last = rank;
            rights |= right;
        }
        if rights.is_empty() { None } else { Some(rights) }
    }

    /// The standard FEN castling field (`KQkq`); positions write X-FEN
    /// ([`Position::to_fen`](crate::Position::to_fen)).
    pub fn to_fen(self) -> String {
        if self.is_empty() {
            return "-".to_string();
        }
        [
            (Self::WHITE_KING_SIDE, 'K'),
            (Self::WHITE_QUEEN_SIDE, 'Q'),
            (Self::BLACK_KING_SIDE, 'k'),
            (Self::BLACK_QUEEN_SIDE, 'q'),
        ]
        .iter()
        .filter(|(right, _)| self.contains(*right))
        .map(|(_, c)| *c)
        .collect()
    }
}

impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_field() {
        for good in ["-", "K", "Q", "k", "q", "KQ", "Kk", "KQkq", "Qq"] {
            assert_eq!(CastlingRights::from_fen(good).unwrap().to_fen(), good);
        }
        for bad in ["", "QK", "KK", "x", "KQkqK", "-K", "A"] {
            assert!(CastlingRights::from_fen(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn standard_paths_are_the_general_paths_of_standard_squares() {
        for castling in Color::ALL.into_iter().flat_map(Castling::both) {
            let king = Square::E1.relative_to(castling.color);
            let general = castling.path(king, castling.rook_from(CastlingFiles::STANDARD));
            assert_eq!(castling.standard_path(), general, "{castling:?}");
        }
    }

    #[test]
    fn standard_geometry() {
        let oo = Castling { color: Color::White, king_side: true }.path(Square::E1, Square::H1);
        assert_eq!(oo.empty, Bitboard::from(Square::F1) | Square::G1);
        assert_eq!(oo.crossed, Bitboard::from(Square::F1));
        assert!(oo.is_standard());
        let ooo = Castling { color: Color::Black, king_side: false }.path(Square::E8, Square::A8);
        assert_eq!(ooo.empty, Bitboard::from(Square::B8) | Square::C8 | Square::D8);
        assert_eq!(ooo.crossed, Bitboard::from(Square::D8));
        assert_eq!(ooo.rook_to, Square::D8);
        assert_eq!(Castling { color: Color::Black, king_side: false }.rook_from(CastlingFiles::STANDARD), Square::A8);
    }

    /// Chess960 paths, from the rules: every square between king and
    /// destination and rook and destination, ends included, but the two
    /// pieces' own squares.
    #[test]
    fn chess960_geometry() {
        let white = |king_side| Castling { color: Color::White, king_side };
        let set = |squares: &[Square]| squares.iter().fold(Bitboard::EMPTY, |b, &s| b | s);
        // King b1, rook a1, O-O-O: king to c1, rook to d1 over b1 and c1.
        let p = white(false).path(Square::B1, Square::A1);
        assert_eq!(p.empty, set(&[Square::C1, Square::D1]));
        assert!(p.crossed.is_empty());
        // King b1, rook c1, O-O: king to g1 over c1 (the rook), d1, e1, f1.
        let p = white(true).path(Square::B1, Square::C1);
        assert_eq!(p.empty, set(&[Square::D1, Square::E1, Square::F1, Square::G1]));
        assert_eq!(p.crossed, set(&[Square::C1, Square::D1, Square::E1, Square::F1]));
        // King g1, rook h1, O-O: the king stays, the rook crosses it to f1.
        let p = white(true).path(Square::G1, Square::H1);
        assert_eq!(p.empty, set(&[Square::F1]));
        assert!(!p.king_moves() && p.rook_moves());
        // King d1, rook c1, O-O-O: the rook goes to d1 over the king's square.
        let p = white(false).path(Square::D1, Square::C1);
        assert!(p.empty.is_empty());
        let black = Castling { color: Color::Black, king_side: false }.path(Square::F8, Square::B8);
        assert_eq!(black.empty, set(&[Square::C8, Square::D8, Square::E8]));
        assert_eq!(black.crossed, set(&[Square::D8, Square::E8]));
    }

    #[test]
    fn files() {
        for q in File::ALL {
            for k in File::ALL {
                match CastlingFiles::new(q, k) {
                    Some(files) => {
                        assert!(q < k);
                        assert_eq!((files.queen_side(), files.king_side()), (q, k));
                        assert!(files.is_chess960());
                        assert_eq!(CastlingFiles::from_bits(files.to_bits()), files);
                        assert_eq!(files.with_chess960(false).is_chess960(), (q, k) != (File::A, File::H));
                    }
                    None => assert!(q >= k),
                }
            }
        }
        assert_eq!(CastlingFiles::new(File::A, File::H).unwrap().with_chess960(false), CastlingFiles::STANDARD);
        // Files other than a and h are Chess960 from any bits.
        assert!(CastlingFiles::from_bits(files_bits(File::B, File::H)).is_chess960());
        assert!(!CastlingFiles::from_bits(0).is_chess960());
        let files = CastlingFiles::new(File::B, File::G).unwrap();
        let only_king_side = files.normalized(CastlingRights::BLACK_KING_SIDE);
        assert_eq!((only_king_side.queen_side(), only_king_side.king_side()), (File::A, File::G));
        assert!(only_king_side.is_chess960());
        assert_eq!(files.normalized(CastlingRights::empty()), CastlingFiles::STANDARD.with_chess960(true));
    }

    /// The raw bits of Chess960 files `q` and `k` with the variant's bit
    /// cleared.
    fn files_bits(q: File, k: File) -> u8 {
        CastlingFiles::new(q, k).unwrap().to_bits() & !CHESS960_BIT
    }

    #[test]
    fn rights_lost() {
        let standard = CastlingFiles::STANDARD;
        for square in Square::ALL {
            let king = if square == Square::E1 {
                Some(Color::White)
            } else if square == Square::E8 {
                Some(Color::Black)
            } else {
                None
            };
            assert_eq!(
                CastlingRights::lost_by(standard, square, Square::D4, king),
                CastlingRights::lost_by_touching(square)
            );
        }
        let files = CastlingFiles::new(File::B, File::F).unwrap();
        assert_eq!(CastlingRights::lost_by(files, Square::B1, Square::B4, None), CastlingRights::WHITE_QUEEN_SIDE);
        assert_eq!(CastlingRights::lost_by(files, Square::A3, Square::F8, None), CastlingRights::BLACK_KING_SIDE);
        assert_eq!(CastlingRights::lost_by(files, Square::H1, Square::A1, None), CastlingRights::empty());
        assert_eq!(
            CastlingRights::lost_by(files, Square::D8, Square::C8, Some(Color::Black)),
            CastlingRights::of(Color::Black)
        );
    }
}
