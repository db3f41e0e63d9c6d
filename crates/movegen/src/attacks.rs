//! Attack sets of every piece type, and the geometry tables built on them.
//!
//! Leapers (king, knight, pawn) use 64-entry tables computed at compile
//! time; sliders (bishop, rook, queen) use the magic tables of
//! [`magic`]. [`between`] and [`line()`] answer "which squares
//! lie strictly between / on the line through two squares", the basis of
//! pin and check-blocking logic.
//!
//! ```
//! use movegen::{attacks, Bitboard, Color, Square};
//! assert_eq!(attacks::knight(Square::A1), Bitboard::from(Square::B3) | Square::C2);
//! assert_eq!(attacks::pawn(Color::White, Square::E4), Bitboard::from(Square::D5) | Square::F5);
//! let blockers = Bitboard::from(Square::E6);
//! assert!(attacks::rook(Square::E2, blockers).contains(Square::E6));
//! assert!(!attacks::rook(Square::E2, blockers).contains(Square::E7));
//! ```

use crate::magic;
use crate::{Bitboard, Color, Role, Square};

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard(0); 64];
    let mut square = 0;
    while square < 64 {
        let file = square % 8;
        let rank = square / 8;
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let (df, dr) = steps[i];
            let (f, r) = (file + df, rank + dr);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                bits |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        table[square as usize] = Bitboard(bits);
        square += 1;
    }
    table
}

const KING_STEPS: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
const KNIGHT_STEPS: [(i32, i32); 8] = [(-2, -1), (-1, -2), (1, -2), (2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1)];

static KING_ATTACKS: [Bitboard; 64] = leaper_table(&KING_STEPS);
static KNIGHT_ATTACKS: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static PAWN_ATTACKS: [[Bitboard; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

/// Empty-board rook and bishop moves, for pin and x-ray detection.
static ROOK_RAYS: [Bitboard; 64] = ray_table(&crate::rays::ROOK_DIRECTIONS);
static BISHOP_RAYS: [Bitboard; 64] = ray_table(&crate::rays::BISHOP_DIRECTIONS);

const fn ray_table(directions: &[(i32, i32); 4]) -> [Bitboard; 64] {
    let mut table = [Bitboard(0); 64];
    let mut square = 0;
    while square < 64 {
        table[square as usize] = Bitboard(crate::rays::slider_attacks_slow(square, 0, directions));
        square += 1;
    }
    table
}

/// `BETWEEN[a][b]`: squares strictly between `a` and `b` on a shared line.
static BETWEEN: [[Bitboard; 64]; 64] = geometry_table(false);
/// `LINE[a][b]`: the full line through `a` and `b` (empty if not aligned).
static LINE: [[Bitboard; 64]; 64] = geometry_table(true);

const fn geometry_table(full_line: bool) -> [[Bitboard; 64]; 64] {
    let mut table = [[Bitboard(0); 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
                let (df, dr) = (fb - fa, rb - ra);
                let aligned = df == 0 || dr == 0 || df == dr || df == -dr;
                if aligned {
                    let step_f = if df > 0 {
                        1
                    } else if df < 0 {
                        -1
                    } else {
                        0
                    };
                    let step_r = if dr > 0 {
                        1
                    } else if dr < 0 {
                        -1
                    } else {
                        0
                    };
                    let mut bits = 0u64;
                    if full_line {
                        // Walk back to the edge, then forward to the other edge.
                        let (mut f, mut r) = (fa, ra);
                        while f - step_f >= 0 && f - step_f < 8 && r - step_r >= 0 && r - step_r < 8 {
                            f -= step_f;
                            r -= step_r;
                        }
                        while f >= 0 && f < 8 && r >= 0 && r < 8 {
                            bits |= 1 << (r * 8 + f);
                            f += step_f;
                            r += step_r;
                        }
                    } else {
                        let (mut f, mut r) = (fa + step_f, ra + step_r);
                        while f != fb || r != rb {
                            bits |= 1 << (r * 8 + f);
                            f += step_f;
                            r += step_r;
                        }
                    }
                    table[a as usize][b as usize] = Bitboard(bits);
                }
            }
            b += 1;
        }
        a += 1;
    }
    table
}

/// King attacks (the adjacent squares).
#[inline(always)]
pub fn king(square: Square) -> Bitboard {
    KING_ATTACKS[square as usize]
}

/// Knight attacks.
#[inline(always)]
pub fn knight(square: Square) -> Bitboard {
    KNIGHT_ATTACKS[square as usize]
}

/// The squares a pawn of `color` on `square` attacks (captures on).
#[inline(always)]
pub fn pawn(color: Color, square: Square) -> Bitboard {
    PAWN_ATTACKS[color as usize][square as usize]
}

/// Bishop attacks given the occupied squares (blockers included).
#[inline(always)]
pub fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
    magic::bishop_attacks(square, occupied)
}

/// Rook attacks given the occupied squares (blockers included).
#[inline(always)]
pub fn rook(square: Square, occupied: Bitboard) -> Bitboard {
    magic::rook_attacks(square, occupied)
}

/// Queen attacks given the occupied squares (blockers included).
#[inline(always)]
pub fn queen(square: Square, occupied: Bitboard) -> Bitboard {
    bishop(square, occupied) | rook(square, occupied)
}

/// Attacks of a piece of `role` and `color` on `square`.
#[inline]
pub fn attacks(role: Role, color: Color, square: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn(color, square),
        Role::Knight => knight(square),
        Role::Bishop => bishop(square, occupied),
        Role::Rook => rook(square, occupied),
        Role::Queen => queen(square, occupied),
        Role::King => king(square),
    }
}

/// Squares strictly between `a` and `b` if aligned, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a as usize][b as usize]
}

/// The full line through `a` and `b` if aligned, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a as usize][b as usize]
}

/// Whether `a`, `b` and `c` lie on one rank, file or diagonal.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Empty-board rook moves from `square` (its rank and file, minus itself).
#[inline(always)]
pub fn rook_rays(square: Square) -> Bitboard {
    ROOK_RAYS[square as usize]
}

/// Empty-board bishop moves from `square` (its diagonals, minus itself).
#[inline(always)]
pub fn bishop_rays(square: Square) -> Bitboard {
    BISHOP_RAYS[square as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_are_empty_board_attacks() {
        for square in Square::ALL {
            assert_eq!(rook_rays(square), rook(square, Bitboard::EMPTY));
            assert_eq!(bishop_rays(square), bishop(square, Bitboard::EMPTY));
            assert_eq!(rook_rays(square).count(), 14);
        }
    }

    #[test]
    fn leaper_counts() {
        let total_king: u32 = Square::ALL.iter().map(|&s| king(s).count()).sum();
        let total_knight: u32 = Square::ALL.iter().map(|&s| knight(s).count()).sum();
        assert_eq!(total_king, 420);
        assert_eq!(total_knight, 336);
        assert_eq!(pawn(Color::Black, Square::A5), Bitboard::from(Square::B4));
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::D4), Bitboard::from(Square::B2) | Square::C3);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
        assert!(aligned(Square::A8, Square::H1, Square::D5));
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(between(a, b), between(b, a));
                assert!(between(a, b).is_subset(line(a, b)));
            }
        }
    }
}
