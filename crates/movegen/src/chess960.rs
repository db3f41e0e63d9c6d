//! Chess960 start positions by their standard numbers (0-959, Scharnagl's
//! numbering: number 518 is standard chess's), and a reproducible sample of
//! Chess960 positions with castling rights for validation (perft against
//! other generators, soundness tests of the analysis).

use crate::{Board, CastlingFiles, CastlingRights, Color, File, Piece, Position, Rank, Role, Setup, Square};

/// The number of Chess960 start positions.
pub const CHESS960_POSITIONS: u32 = 960;

/// Start position number `number` (below [`CHESS960_POSITIONS`]) of
/// Chess960: the bishops on squares of both colours, the queen and the
/// knights, then rook, king, rook on the three files left, as Scharnagl
/// numbers them. `None` for a number of 960 or more.
///
/// ```
/// use movegen::{Setup, chess960_start};
/// assert_eq!(chess960_start(518).unwrap().to_fen(), Setup::start().to_fen());
/// assert_eq!(chess960_start(0).unwrap().to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
/// assert!(chess960_start(0).unwrap().castling_files.is_chess960());
/// assert!(chess960_start(960).is_none());
/// ```
pub fn chess960_start(number: u32) -> Option<Setup> {
    if number >= CHESS960_POSITIONS {
        return None;
    }
    let mut files: [Option<Role>; 8] = [None; 8];
    let mut n = number as usize;
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    files[(n % 4) * 2 + 1] = Some(Role::Bishop);
    n /= 4;
    files[(n % 4) * 2] = Some(Role::Bishop);
    n /= 4;
    let mut place = |nth: usize, role: Role| {
        let file = (0..8).filter(|&f| files[f].is_none()).nth(nth).unwrap_or(0);
        files[file] = Some(role);
    };
    place(n % 6, Role::Queen);
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (first, second) = KNIGHTS[n % 10];
    // The second knight first: placing the first shifts the empty files.
    place(second, Role::Knight);
    place(first, Role::Knight);
    place(0, Role::Rook);
    place(0, Role::King);
    place(0, Role::Rook);
    let mut board = Board::empty();
    for (file, role) in files.iter().enumerate() {
        let role = role.unwrap_or(Role::Pawn);
        for color in Color::ALL {
            let file = File::new(file as u32);
            board.set_piece_at(Square::from_coords(file, Rank::First.relative_to(color)), Piece::new(color, role));
            board.set_piece_at(
                Square::from_coords(file, Rank::Second.relative_to(color)),
                Piece::new(color, Role::Pawn),
            );
        }
    }
    let rooks: Vec<File> = (0..8).filter(|&f| files[f] == Some(Role::Rook)).map(|f| File::new(f as u32)).collect();
    let castling_files = CastlingFiles::new(rooks[0], rooks[1])?;
    Some(Setup { board, castling: CastlingRights::all(), castling_files, ..Setup::start() })
}

/// A small deterministic generator (xorshift64*), so that the sample is
/// the same everywhere.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// `count` positions of random Chess960 games that still have castling
/// rights, reproducible from `seed`: a random start position, then 2 to 40
/// random plies (moves of a king or of a rook with a right are played less
/// often, so rights survive into the middle game, and a legal castling is
/// played at once a third of the time), kept if a right remains and the
/// game is not over. Used by the perft comparison with python-chess and by
/// the soundness tests of the analysis.
///
/// ```
/// let sample = movegen::random_chess960_positions(7, 20);
/// assert_eq!(sample.len(), 20);
/// assert!(sample.iter().all(|pos| pos.is_chess960() && !pos.castling_rights().is_empty()));
/// assert_eq!(sample, movegen::random_chess960_positions(7, 20));
/// ```
pub fn random_chess960_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let number = rng.below(CHESS960_POSITIONS as usize) as u32;
        let Some(Ok(mut pos)) = chess960_start(number).map(Position::from_setup) else { continue };
        let plies = 2 + rng.below(39);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.castling_rights().is_empty() {
                break;
            }
            let castles: Vec<_> = moves.iter().copied().filter(|m| m.is_castle()).collect();
            let m = if !castles.is_empty() && rng.below(3) == 0 {
                castles[rng.below(castles.len())]
            } else {
                // Up to three draws, keeping the first that does not move a
                // castling piece.
                let mut m = moves[rng.below(moves.len())];
                for _ in 0..2 {
                    let touches = pos.board().kings().contains(m.from())
                        || pos.castling_paths().any(|path| path.rook == m.from());
                    if !touches {
                        break;
                    }
                    m = moves[rng.below(moves.len())];
                }
                m
            };
            pos = pos.play(m);
        }
        if !pos.castling_rights().is_empty() && pos.has_legal_moves() {
            positions.push(pos);
        }
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bitboard;

    /// Every number gives a different valid start position with the rules'
    /// constraints: bishops on both colours, the king between the rooks.
    #[test]
    fn all_960_are_distinct_and_valid() {
        let mut seen = std::collections::HashSet::new();
        for number in 0..CHESS960_POSITIONS {
            let setup = chess960_start(number).unwrap();
            let pos = Position::from_setup(setup).unwrap_or_else(|e| panic!("{number}: {e}"));
            let rank = Bitboard::rank(Rank::First);
            let bishops = pos.board().pieces(Color::White, Role::Bishop) & rank;
            assert_eq!(bishops.count(), 2);
            assert!((bishops & Bitboard::LIGHT_SQUARES).count() == 1, "{number}");
            let king = pos.king_of(Color::White);
            let files = pos.castling_files();
            assert!(files.queen_side() < king.file() && king.file() < files.king_side(), "{number}");
            assert!(seen.insert(pos.board().board_fen()), "{number} repeats");
        }
    }
}
