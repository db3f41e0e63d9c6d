//! The attack geometry the rules share: direct attacks (which no piece can
//! block), the squares from which a piece attacks a target, the squares a
//! piece may ever attack from its region, and the one convention all of
//! them follow for a pawn that may promote.
//!
//! **A pawn that may promote** (its region meets its last rank) may stand
//! anywhere as a knight, bishop, rook or queen: wherever a rule asks what
//! it could attack, it counts as a queen and a knight (together they
//! attack everything the four promoted pieces attack, from the same
//! square), besides its attacks as a pawn.

use movegen::{Bitboard, Board, Color, Piece, Rank, Role, Square, attacks};

use crate::Regions;

/// The squares a piece of `role` and `color` standing on `square` attacks
/// *directly*: `{s | square ∈ pred-capt_P(s)}` (sliders only one step).
/// Nothing can stand between, so no other piece can block such an attack.
#[inline]
pub fn direct_attacks(role: Role, color: Color, square: Square) -> Bitboard {
    let one = Bitboard::from(square);
    match role {
        Role::Pawn => crate::dilate::pawn_attacks(one, color),
        Role::Knight => crate::dilate::knight(one),
        Role::Bishop => crate::dilate::diagonal(one),
        Role::Rook => crate::dilate::orthogonal(one),
        Role::Queen | Role::King => crate::dilate::adjacent(one),
    }
}

/// The squares the pieces on `squares` attack directly (each by its own
/// role and colour, see [`direct_attacks`]; empty squares attack nothing).
/// A role's pieces at once: each dilation of a set is the union of the
/// dilations of its squares, so this is the union of [`direct_attacks`]
/// over the pieces (tested against that union).
pub fn direct_attacks_of(board: &Board, squares: Bitboard) -> Bitboard {
    use crate::dilate;
    let of = |role: Role| squares & board.by_role(role);
    let pawns = of(Role::Pawn);
    dilate::pawn_attacks(pawns & board.by_color(Color::White), Color::White)
        | dilate::pawn_attacks(pawns & board.by_color(Color::Black), Color::Black)
        | dilate::knight(of(Role::Knight))
        | dilate::diagonal(of(Role::Bishop))
        | dilate::orthogonal(of(Role::Rook))
        | dilate::adjacent(of(Role::Queen) | of(Role::King))
}

/// Whether a piece with this `region` is a pawn that may promote: its
/// region meets its last rank.
#[inline]
pub fn may_promote(piece: Piece, region: Bitboard) -> bool {
    piece.role == Role::Pawn && region.intersects(Bitboard::relative_rank(piece.color, Rank::Eighth))
}

/// The squares from which a piece of `role` and `color` attacks `target`,
/// lines open except through `obstacles`; for a pawn that `promotes`, also
/// as a queen or a knight. (Non-pawn attacks are symmetric: the sources
/// are what such a piece on `target` attacks; a pawn of `color` attacks
/// `target` from where a pawn of the other colour on `target` would.)
#[inline]
pub fn attack_sources(role: Role, color: Color, promotes: bool, target: Square, obstacles: Bitboard) -> Bitboard {
    let direct = match role {
        Role::Pawn => attacks::pawn(!color, target),
        role => attacks::attacks(role, color, target, obstacles),
    };
    if promotes { direct | attacks::queen(target, obstacles) | attacks::knight(target) } else { direct }
}

/// Whether a piece of `role` that `promotes` or not may slide along
/// diagonals, and along ranks and files: `(diagonal, straight)`.
#[inline]
pub fn slides(role: Role, promotes: bool) -> (bool, bool) {
    let diagonal = matches!(role, Role::Bishop | Role::Queen) || promotes;
    let straight = matches!(role, Role::Rook | Role::Queen) || promotes;
    (diagonal, straight)
}

/// Every square the pieces on `squares` may ever attack from a square of
/// their regions, on an empty board (a superset of what they attack in any
/// position within the regions); a pawn that may promote counts as a queen
/// and a knight everywhere.
pub fn attack_span(board: &Board, regions: &Regions, squares: Bitboard) -> Bitboard {
    let mut span = Bitboard::EMPTY;
    for square in squares {
        let Some(piece) = board.piece_at(square) else { continue };
        let region = regions[square];
        let promotes = may_promote(piece, region);
        for from in region {
            span |= match piece.role {
                _ if promotes => attacks::queen(from, Bitboard::EMPTY) | attacks::knight(from),
                Role::Pawn => attacks::pawn(piece.color, from),
                role => attacks::attacks(role, piece.color, from, Bitboard::EMPTY),
            };
        }
    }
    span
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sources and attacks agree: `u` is a source of `t` exactly when the
    /// piece on `u` attacks `t`, for every role and colour (and, promoting,
    /// when a queen or a knight on `u` would).
    #[test]
    fn sources_are_the_attacks_seen_backwards() {
        let obstacles = Bitboard::from(Square::D4) | Square::F6 | Square::B2;
        for role in Role::ALL {
            for color in Color::ALL {
                for target in Square::ALL {
                    for promotes in [false, true] {
                        let sources = attack_sources(role, color, promotes, target, obstacles);
                        for u in Square::ALL {
                            let mut attacked = attacks::attacks(role, color, u, obstacles);
                            if promotes {
                                attacked |= attacks::queen(u, obstacles) | attacks::knight(u);
                            }
                            assert_eq!(
                                sources.contains(u),
                                attacked.contains(target),
                                "{role:?} {color:?} {u}->{target}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The direct attacks of a set of squares, a role at a time, are the
    /// union of [`direct_attacks`] over the pieces on them (empty squares
    /// skipped): every subset of the pieces of positions of real games and
    /// composed ones (chosen by a fixed pseudo-random mask, plus all
    /// squares and the empty set), every role and colour on the board.
    #[test]
    fn direct_attacks_of_a_set_are_the_union_of_its_pieces() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
            "2B1B1B1/pBpBpBpB/P1P1P1P1/4k3/8/8/4K3/8 w - -",
            "8/1p3b2/pPp1p1p1/BkP1P1P1/RP1B4/BPB5/PKP5/8 w - -",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            "8/8/5p1Q/2p1pPbr/2PbPk1R/2pBpBp1/B1P1P1P1/5BRK b - -",
        ];
        let mut checked = 0;
        for fen in fens {
            let pos: movegen::Position = fen.parse().unwrap();
            let board = pos.board();
            let mut mask = 0x9E37_79B9_7F4A_7C15u64;
            let mut subsets = vec![Bitboard::EMPTY, Bitboard::FULL, board.occupied()];
            for _ in 0..200 {
                mask = mask.rotate_left(7).wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x1234_5678;
                subsets.push(Bitboard(mask));
            }
            for squares in subsets {
                let union = squares
                    .iter()
                    .filter_map(|square| board.piece_at(square).map(|p| direct_attacks(p.role, p.color, square)))
                    .fold(Bitboard::EMPTY, |acc, attacked| acc | attacked);
                assert_eq!(direct_attacks_of(board, squares), union, "{fen}: {squares:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 5 * 203);
    }
}
