//! Sliding-piece attacks by magic bitboards (or PEXT with BMI2).
//!
//! For a rook or bishop on square `s`, only the blockers on its *relevant
//! mask* (the squares of its rays minus the board edge the ray ends on)
//! matter. The subset of the occupancy on that mask is hashed to an index of
//! one shared attack table:
//!
//! * by default with a **magic multiplication**:
//!   `offset + ((occupancy & mask) * magic) >> (64 - bits)` where `bits` is
//!   the mask's population count ("fancy" magics: every square uses the
//!   minimum number of index bits, so the table holds exactly
//!   `sum(2^bits) = 107,648` entries);
//! * when compiled with `target_feature = "bmi2"` (for example with
//!   `RUSTFLAGS="-C target-cpu=native"` on a recent x86-64), with **PEXT**:
//!   `offset + pext(occupancy, mask)`, which needs no magic numbers but the
//!   same table size and offsets.
//!
//! The magic numbers come from `magics_generated`,
//! written by `cargo xtask gen-magics` (a deterministic search, see
//! `xtask/src/magics.rs`). The attack table itself is computed at compile
//! time from the masks and magics with the naive ray walk
//! [`slider_attacks_slow`], so there is no run-time initialisation and
//! nothing to get out of sync: a wrong magic number would make the
//! constant evaluation below fail to compile (see `fill_table`).

use crate::magics_generated::{BISHOP_MAGICS, ROOK_MAGICS};
pub use crate::rays::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, deposit, relevant_mask, slider_attacks_slow};
use crate::{Bitboard, Square};

/// One square's entry of a magic table, as written by `cargo xtask gen-magics`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magic {
    /// The relevant-occupancy mask.
    pub mask: u64,
    /// The magic multiplier.
    pub magic: u64,
    /// `64 - mask.count_ones()`.
    pub shift: u32,
    /// Index of this square's first entry in the shared attack table.
    pub offset: u32,
}

/// Total number of entries in the shared rook + bishop attack table.
pub const TABLE_SIZE: usize = 107_648;

/// Builds the shared attack table at compile time.
///
/// With magics, every subset of every mask is hashed with its magic and the
/// naive attacks are stored at that index; if two subsets with *different*
/// attack sets hashed to the same index (a bad magic), the assertion fails
/// and the crate does not compile. With PEXT, entry `i` of a square is the
/// `i`-th subset in bit-deposit order, so no collision is possible.
const fn fill_table() -> [Bitboard; TABLE_SIZE] {
    let mut table = [Bitboard(0); TABLE_SIZE];
    let mut filled = [false; TABLE_SIZE];
    let mut piece = 0;
    while piece < 2 {
        let (magics, directions) =
            if piece == 0 { (&ROOK_MAGICS, &ROOK_DIRECTIONS) } else { (&BISHOP_MAGICS, &BISHOP_DIRECTIONS) };
        let mut s = 0;
        while s < 64 {
            let entry = &magics[s];
            let bits = 64 - entry.shift;
            // Carry-rippler enumeration visits the subsets of the mask in
            // increasing order, which is exactly deposit order: the `i`-th
            // subset is `deposit(i, mask)`, the one PEXT maps to `i`.
            let mut i = 0u64;
            let mut subset = 0u64;
            loop {
                let attacks = slider_attacks_slow(s as u32, subset, directions);
                let index = if cfg!(all(target_arch = "x86_64", target_feature = "bmi2")) {
                    entry.offset as usize + i as usize
                } else {
                    entry.offset as usize + (subset.wrapping_mul(entry.magic) >> entry.shift) as usize
                };
                assert!(index < entry.offset as usize + (1 << bits), "magic index out of range");
                assert!(!filled[index] || table[index].0 == attacks, "destructive magic collision");
                table[index] = Bitboard(attacks);
                filled[index] = true;
                i += 1;
                subset = subset.wrapping_sub(entry.mask) & entry.mask;
                if subset == 0 {
                    break;
                }
            }
            s += 1;
        }
        piece += 1;
    }
    table
}

/// The shared rook + bishop attack table, indexed by [`table_index`].
#[allow(long_running_const_eval)]
static ATTACK_TABLE: [Bitboard; TABLE_SIZE] = fill_table();

/// The table index of `occupied` for one square's entry, the way lookups
/// compute it in this build (magic multiplication, or PEXT with BMI2).
#[inline(always)]
pub fn table_index(entry: &Magic, occupied: Bitboard) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // Safety: the `bmi2` target feature is enabled for this whole
        // compilation (it is a `cfg`), so the instruction is available.
        let index = unsafe { core::arch::x86_64::_pext_u64(occupied.0, entry.mask) };
        entry.offset as usize + index as usize
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        entry.offset as usize + ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize
    }
}

/// Rook attacks from `square` given the occupied squares (blockers are
/// included: they may be captures).
#[inline(always)]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    ATTACK_TABLE[table_index(&ROOK_MAGICS[square as usize], occupied)]
}

/// Bishop attacks from `square` given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    ATTACK_TABLE[table_index(&BISHOP_MAGICS[square as usize], occupied)]
}

/// The magic entries of the rooks, one per square.
pub fn rook_magics() -> &'static [Magic; 64] {
    &ROOK_MAGICS
}

/// The magic entries of the bishops, one per square.
pub fn bishop_magics() -> &'static [Magic; 64] {
    &BISHOP_MAGICS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every blocker subset of every square's mask, plus random noise
    /// outside the mask, against the naive ray walk.
    #[test]
    fn every_blocker_subset_matches_the_ray_walk() {
        let mut noise = 0x9e37_79b9_7f4a_7c15u64;
        for (magics, directions, lookup) in [
            (&ROOK_MAGICS, &ROOK_DIRECTIONS, rook_attacks as fn(Square, Bitboard) -> Bitboard),
            (&BISHOP_MAGICS, &BISHOP_DIRECTIONS, bishop_attacks),
        ] {
            for square in Square::ALL {
                let entry = &magics[square as usize];
                assert_eq!(entry.mask, relevant_mask(square as u32, directions));
                assert_eq!(entry.shift, 64 - entry.mask.count_ones());
                let mut subset = 0u64;
                loop {
                    noise ^= noise << 13;
                    noise ^= noise >> 7;
                    noise ^= noise << 17;
                    let occupied = subset | (noise & !entry.mask);
                    let expected = slider_attacks_slow(square as u32, occupied, directions);
                    assert_eq!(lookup(square, Bitboard(occupied)).0, expected, "{square} {occupied:#x}");
                    subset = subset.wrapping_sub(entry.mask) & entry.mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn offsets_tile_the_table() {
        let mut next = 0;
        for entry in ROOK_MAGICS.iter().chain(BISHOP_MAGICS.iter()) {
            assert_eq!(entry.offset as usize, next);
            next += 1 << (64 - entry.shift);
        }
        assert_eq!(next, TABLE_SIZE);
    }
}
