//! One-step dilations of square sets: "every square one move of this kind
//! away from some square of the set", for each way a piece steps.
//!
//! These are the predecessor relations of the paper's Figure 6 seen from the
//! other side: `t` is in `dilate(set)` exactly when some `u` in `set` is a
//! predecessor of `t` (`u ∈ pred_P(t)`). Sliders step one square at a time
//! (`pred` of a bishop is the diagonally adjacent squares, of a rook the
//! orthogonally adjacent ones), knights jump, kings and queens step to any
//! neighbour.

use movegen::{Bitboard, Color};

/// Squares diagonally adjacent to some square of `set`.
#[inline(always)]
pub fn diagonal(set: Bitboard) -> Bitboard {
    let sideways = set.east() | set.west();
    sideways.north() | sideways.south()
}

/// Squares orthogonally adjacent to some square of `set`.
#[inline(always)]
pub fn orthogonal(set: Bitboard) -> Bitboard {
    set.east() | set.west() | set.north() | set.south()
}

/// Squares adjacent (king-wise) to some square of `set`, excluding `set`
/// itself unless adjacent to another member.
#[inline(always)]
pub fn adjacent(set: Bitboard) -> Bitboard {
    diagonal(set) | orthogonal(set)
}

/// Squares a knight jump away from some square of `set`.
#[inline(always)]
pub fn knight(set: Bitboard) -> Bitboard {
    let one = set.east() | set.west();
    let two = set.east().east() | set.west().west();
    one.north().north() | one.south().south() | two.north() | two.south()
}

/// Squares a pawn of `color` pushes to (one step) from some square of `set`.
#[inline(always)]
pub fn pawn_push(set: Bitboard, color: Color) -> Bitboard {
    set.forward(color)
}

/// Squares a pawn of `color` attacks from some square of `set`.
#[inline(always)]
pub fn pawn_attacks(set: Bitboard, color: Color) -> Bitboard {
    let ahead = set.forward(color);
    ahead.east() | ahead.west()
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Square, attacks};

    #[test]
    fn dilations_match_attack_tables() {
        for square in Square::ALL {
            let one = Bitboard::from(square);
            assert_eq!(knight(one), attacks::knight(square));
            assert_eq!(adjacent(one), attacks::king(square));
            assert_eq!(diagonal(one), attacks::king(square) & attacks::bishop_rays(square));
            assert_eq!(orthogonal(one), attacks::king(square) & attacks::rook_rays(square));
            for color in Color::ALL {
                assert_eq!(pawn_attacks(one, color), attacks::pawn(color, square));
            }
        }
    }
}
