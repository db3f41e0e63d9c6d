//! Zobrist hashing keys.
//!
//! The keys are fixed: they are the outputs of the SplitMix64 generator
//! (Steele, Lea & Flood 2014) started from the seed [`SEED`], taken in this
//! order: 768 piece-square keys (`piece.index() * 64 + square`, with
//! `Piece::index() = role * 2 + color`), then the side-to-move key (xored in
//! when Black is to move), then 16 castling keys (one per combination of
//! rights, indexed by [`CastlingRights::bits`]), then 8 en passant file keys,
//! then 63 keys of the castling rooks' files (Chess960; standard chess's
//! files have key 0).
//! Changing any of this changes every stored hash, so it is pinned by a test.
//!
//! [`Position::hash`](crate::Position::hash) includes the en passant file
//! whenever the position records an en passant square (which it does only
//! when an enemy pawn attacks it); [`Position::repetition_key`](crate::Position::repetition_key)
//! includes it only when the capture is *legal*, as the FIDE Laws' notion of
//! "the same position" (Art. 9.2.3) requires.

use crate::{CastlingFiles, CastlingRights, Color, File, Piece, Role, Square};

/// The seed of the key generator.
pub const SEED: u64 = 0x0123_4567_89ab_cdef;

const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

struct Keys {
    pieces: [[u64; 64]; 12],
    black_to_move: u64,
    castling: [u64; 16],
    en_passant: [u64; 8],
    /// Per file bits of [`CastlingFiles`] (queen side, king side); zero
    /// for standard chess's `a` and `h`.
    castling_files: [u64; 64],
}

static KEYS: Keys = {
    let mut state = SEED;
    let mut pieces = [[0u64; 64]; 12];
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            pieces[p][s] = splitmix64(&mut state);
            s += 1;
        }
        p += 1;
    }
    let black_to_move = splitmix64(&mut state);
    let mut castling = [0u64; 16];
    let mut c = 0;
    while c < 16 {
        castling[c] = splitmix64(&mut state);
        c += 1;
    }
    let mut en_passant = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        en_passant[f] = splitmix64(&mut state);
        f += 1;
    }
    let mut castling_files = [0u64; 64];
    let mut i = 1;
    while i < 64 {
        castling_files[i] = splitmix64(&mut state);
        i += 1;
    }
    Keys { pieces, black_to_move, castling, en_passant, castling_files }
};

/// The key of `piece` standing on `square`.
#[inline(always)]
pub fn piece(piece: Piece, square: Square) -> u64 {
    KEYS.pieces[piece.index()][square as usize]
}

/// The key of the piece with [`Piece::index`] `index` (`role * 2 + color`)
/// on `square`; `index` must be below 12.
#[inline(always)]
pub(crate) fn piece_by_index(index: usize, square: Square) -> u64 {
    KEYS.pieces[index][square as usize]
}

/// The key xored in when Black is to move.
#[inline(always)]
pub fn black_to_move() -> u64 {
    KEYS.black_to_move
}

/// The key of a combination of castling rights.
#[inline(always)]
pub fn castling(rights: CastlingRights) -> u64 {
    KEYS.castling[(rights.bits() & 15) as usize]
}

/// The key of the castling rooks' files (zero for standard chess's, so
/// that standard positions hash as they always have). The variant
/// (Chess960 or not) is notation, not position: it has no key.
#[inline(always)]
pub fn castling_files(files: CastlingFiles) -> u64 {
    KEYS.castling_files[files.file_bits() as usize & 63]
}

/// The keys a castling of `color` changes: its king from `king_from` to
/// `king_to`, its rook from `rook_from` to `rook_to` (a piece that stays
/// changes nothing: its two keys cancel).
#[inline(always)]
pub(crate) fn castling_move(
    color: Color,
    king_from: Square,
    king_to: Square,
    rook_from: Square,
    rook_to: Square,
) -> u64 {
    let king = Piece::new(color, Role::King);
    let rook = Piece::new(color, Role::Rook);
    piece(king, king_from) ^ piece(king, king_to) ^ piece(rook, rook_from) ^ piece(rook, rook_to)
}

/// The key of an en passant square on `file`.
#[inline(always)]
pub fn en_passant(file: File) -> u64 {
    KEYS.en_passant[file as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Role};

    #[test]
    fn keys_are_pinned_and_distinct() {
        // The first SplitMix64 output for SEED, as computed by an independent
        // Python implementation of the generator; if the key order or the
        // generator changes, this fails (and every stored hash changes).
        assert_eq!(piece(Piece::new(Color::White, Role::Pawn), Square::A1), 0x157a_3807_a48f_aa9d);
        let mut all: Vec<u64> = KEYS.pieces.iter().flatten().copied().collect();
        all.push(KEYS.black_to_move);
        all.extend(KEYS.castling);
        all.extend(KEYS.en_passant);
        all.extend(&KEYS.castling_files[1..]);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_eq!(n, 768 + 1 + 16 + 8 + 63);
        assert_eq!(castling_files(CastlingFiles::STANDARD), 0);
    }
}
