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
/// role and colour, see [`direct_attacks`]).
pub fn direct_attacks_of(board: &Board, squares: Bitboard) -> Bitboard {
    squares
        .iter()
        .filter_map(|square| board.piece_at(square).map(|piece| direct_attacks(piece.role, piece.color, square)))
        .fold(Bitboard::EMPTY, |acc, attacked| acc | attacked)
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
}
