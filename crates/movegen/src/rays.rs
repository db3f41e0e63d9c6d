//! The naive, obviously-correct sliding-piece ray walk and the relevant
//! occupancy masks that magic bitboards are built on.
//!
//! This file has no dependencies (squares are plain indices `0..64`, a1 = 0)
//! so that `cargo xtask gen-magics` can compile the very same code with
//! `#[path]` while searching for magic numbers: the generator and the table
//! builder share one definition of "the attacks of a slider".

/// The ray directions of a rook, as `(file step, rank step)`.
pub const ROOK_DIRECTIONS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// The ray directions of a bishop, as `(file step, rank step)`.
pub const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The reference sliding attack generator: walks each ray from square index
/// `square` until it leaves the board or hits a square of `occupied`, which
/// is included (it may be a capture).
pub const fn slider_attacks_slow(square: u32, occupied: u64, directions: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut file = (square % 8) as i32 + df;
        let mut rank = (square / 8) as i32 + dr;
        while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            let bit = 1u64 << (rank * 8 + file);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            file += df;
            rank += dr;
        }
        d += 1;
    }
    attacks
}

/// The relevant-occupancy mask of a slider on square index `square`: its
/// empty-board rays without the last square of each ray (a blocker on the
/// edge changes nothing, the edge square is attacked either way).
pub const fn relevant_mask(square: u32, directions: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut file = (square % 8) as i32 + df;
        let mut rank = (square / 8) as i32 + dr;
        while file + df >= 0 && file + df < 8 && rank + dr >= 0 && rank + dr < 8 {
            mask |= 1u64 << (rank * 8 + file);
            file += df;
            rank += dr;
        }
        d += 1;
    }
    mask
}

/// Software parallel bit deposit: spreads the low bits of `index` over the
/// set bits of `mask`, lowest first. `deposit(i, mask)` for `i` in
/// `0..2^popcount(mask)` enumerates every subset of `mask` once.
pub const fn deposit(index: u64, mask: u64) -> u64 {
    let mut result = 0u64;
    let mut rest = mask;
    let mut bit = 0;
    while rest != 0 {
        let lowest = rest & rest.wrapping_neg();
        if (index >> bit) & 1 != 0 {
            result |= lowest;
        }
        rest &= rest - 1;
        bit += 1;
    }
    result
}
