//! [`StaticWitness`]: what a `static` certificate carries, for the
//! independent checker (`crates/check`, `docs/certificates.md`) to verify
//! fact by fact.
//!
//! The regions are the mobility fixpoint under [`Rules::Certified`] for
//! the games ending in the winner's mate (the winner's irreplaceable
//! pieces never captured): closed under the rules the checker verifies
//! (the paper's, facing pawns, kings never captured, persistent attacks of
//! single pieces, the loser's pawns never mating the winner, frozen pieces
//! whose capture stalemates). The frozen pieces and the pieces never
//! captured are named, so the checker can verify each assumption.
//!
//! Instead of Figure 8's count and mating-net search, every square `s` of
//! the loser king's region that a winner piece may attack gets *escapes*:
//! neighbours of `s` (all eight count) that cannot all be guarded at once,
//! because the winner's pieces (each at most as many of them as it
//! attacks from one square of its region, lines stopped by the fixed
//! pieces) and the loser's pieces (one each) add up to fewer. This is the
//! capacitated Hall condition of [`crate::figure8`] over every neighbour,
//! with exact capacities; the checker recomputes the sums. Squares the
//! rule cannot settle (where the mating-net search or its last-move
//! condition is needed) make the position uncertifiable as a static
//! witness: [`Uncertified::MateNotExcluded`].
//!
//! The producer and the checker compute the same rule in two
//! implementations on two move generators; the checker trusts nothing
//! here.

use core::fmt;

use movegen::{Bitboard, Color, Piece, Position, Rank, Role, Square, attacks};

use mobility::geometry::may_promote;
use mobility::{Games, Mobility, NotApplicable, Rules};

/// The facts of a static proof, for a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticWitness {
    /// The region of every piece whose region is more than its square
    /// (named by that square), a1 upwards.
    pub regions: Vec<(Square, Bitboard)>,
    /// The winner's pieces assumed never captured (irreplaceable).
    pub never_captured: Bitboard,
    /// The pieces assumed frozen (never moved nor captured, their capture
    /// a stalemate).
    pub frozen: Bitboard,
    /// For each square of the loser king's region that some winner piece
    /// may attack, neighbours that cannot all be guarded.
    pub escapes: Vec<(Square, Bitboard)>,
}

/// Why a position has no static witness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uncertified {
    /// The mobility analysis does not apply (an en passant capture).
    NotApplicable(NotApplicable),
    /// No set of neighbours shows the loser's king safe from mate on this
    /// square under the certified rules.
    MateNotExcluded(Square),
}

impl fmt::Display for Uncertified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Uncertified::NotApplicable(reason) => write!(f, "the static witness does not apply ({reason})"),
            Uncertified::MateNotExcluded(square) => {
                write!(f, "the certified rules do not exclude a mate with the king on {square}")
            }
        }
    }
}

/// The static witness that `winner` cannot mate in `pos`, if the
/// certified rules give one (see the module docs). Independent of
/// [`crate::analyze`]: it may succeed where that fails and the reverse.
pub fn static_witness(pos: &Position, winner: Color) -> Result<StaticWitness, Uncertified> {
    let games =
        Games { uncapturable: crate::irreplaceable(pos, winner), mates_by: Some(winner), immobile: Bitboard::EMPTY };
    let mobility = Mobility::compute_assuming(pos, Rules::Certified, games).map_err(Uncertified::NotApplicable)?;
    let board = mobility.board();
    let loser_king = pos.king_of(!winner);
    let obstacles = board.occupied() - mobility.cleared() - loser_king;
    let mut escapes = Vec::new();
    for s in mobility.region(loser_king) {
        if let Some(unguardable) = escape_square_set(&mobility, winner, s, obstacles) {
            if unguardable.any() {
                escapes.push((s, unguardable));
            }
        } else {
            return Err(Uncertified::MateNotExcluded(s));
        }
    }
    let regions = mobility.pieces().filter(|&(square, _, region)| region != Bitboard::from(square));
    Ok(StaticWitness {
        regions: regions.map(|(square, _, region)| (square, region)).collect(),
        never_captured: games.uncapturable & board.occupied(),
        frozen: mobility.frozen(),
        escapes,
    })
}

/// For the loser's king on `s`: `Some(empty)` when no winner piece but
/// the king may attack `s`, `Some(X)` with the smallest set `X` of
/// neighbours that cannot all be guarded, `None` when every set can.
fn escape_square_set(mobility: &Mobility, winner: Color, s: Square, obstacles: Bitboard) -> Option<Bitboard> {
    let board = mobility.board();
    let neighbours: Vec<Square> = attacks::king(s).iter().collect();
    let mask = |set: Bitboard| -> u8 {
        neighbours.iter().enumerate().filter(|(_, n)| set.contains(**n)).fold(0, |m, (i, _)| m | 1 << i)
    };
    // Per winner piece, the neighbours it attacks from each placement.
    let mut covers: Vec<Vec<u8>> = Vec::new();
    let mut attacked = false;
    for (_, piece, region) in mobility.pieces().filter(|(_, piece, _)| piece.color == winner) {
        let mut placements = Vec::new();
        for (role, u) in placements_of(piece, region, s) {
            let attacks = attacks::attacks(role, winner, u, obstacles);
            attacked |= piece.role != Role::King && attacks.contains(s);
            placements.push(mask(attacks));
        }
        placements.sort_unstable();
        placements.dedup();
        covers.push(placements);
    }
    if !attacked {
        return Some(Bitboard::EMPTY);
    }
    let blockers: Vec<u8> = (board.by_color(!winner) - board.kings())
        .iter()
        .map(|square| mask(mobility.region(square)))
        .filter(|&m| m != 0)
        .collect();
    let mut subsets: Vec<u8> = (1..=u8::MAX).filter(|x| u32::from(*x) < 1 << neighbours.len()).collect();
    subsets.sort_by_key(|x| x.count_ones());
    let short = subsets.into_iter().find(|&x| {
        let by_winner: u32 = covers.iter().map(|c| c.iter().map(|m| (m & x).count_ones()).max().unwrap_or(0)).sum();
        let by_loser = blockers.iter().filter(|&&m| m & x != 0).count() as u32;
        by_winner + by_loser < x.count_ones()
    })?;
    Some(neighbours.iter().enumerate().filter(|(i, _)| short >> i & 1 != 0).map(|(_, n)| *n).collect())
}

/// Where and as what a winner piece with this `region` may stand while
/// the loser's king is on `s`: not on `s`, the king not next to it, a pawn
/// not on its first or last rank; a pawn that may promote also as any
/// promoted piece.
fn placements_of(piece: Piece, region: Bitboard, s: Square) -> Vec<(Role, Square)> {
    let mut roles = vec![piece.role];
    if may_promote(piece, region) {
        roles.extend([Role::Knight, Role::Bishop, Role::Rook, Role::Queen]);
    }
    let mut squares = region - s;
    if piece.role == Role::King {
        squares -= attacks::king(s);
    }
    let pawn_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
    roles
        .into_iter()
        .flat_map(|role| {
            let allowed = if role == Role::Pawn { squares - pawn_ranks } else { squares };
            allowed.iter().map(move |u| (role, u))
        })
        .collect()
}
