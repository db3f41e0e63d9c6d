//! Persistent attacks: squares a colour attacks at every moment of every
//! game the regions cover, which close those squares to the enemy king
//! ([`crate::Rules::Saturation`]; the soundness of closing them is argued
//! under "Kings last" in [`crate::fixpoint`]).
//!
//! Two kinds: the attacks of one piece that is never captured, from every
//! square of its region ([`persistent_attacks`]), and the joint attacks
//! of a group of like pieces from every placement a matching allows
//! ([`group_attacks`]).

use movegen::{Bitboard, Board, Color, Square};

use crate::Regions;
use crate::geometry::may_promote;

/// For each colour, squares it attacks at every moment of the game (an
/// under-approximation, given regions that over-approximate): the squares
/// attacked by some piece `q` that can never be captured, from *every*
/// square of its region, along lines that only cross squares no other
/// piece can ever stand on. `q` is on some square of its region at every
/// moment (it is never captured; a pawn that may promote is left out, as it
/// may stop being a pawn), so it attacks such a square at every moment; a
/// square of `q`'s own region is left out (`q` does not attack the square it
/// stands on). Kings count (they are never captured): squares next to every
/// square of their region.
///
/// `reach[c]` is the union of the regions of colour `c` (kings included);
/// a piece may be captured if an enemy region meets its region (a capture
/// ends on the victim's square, which is then in both; en passant ends on
/// the square the victim passed, also in both), unless it is assumed never
/// to be captured (`never_captured`).
pub(crate) fn persistent_attacks(
    board: &Board,
    regions: &Regions,
    reach: [Bitboard; 2],
    never_captured: Bitboard,
    groups: bool,
) -> [Bitboard; 2] {
    let occupied = board.occupied();
    let mut result = [Bitboard::EMPTY; 2];
    // Union of the regions of all pieces but one, by prefix/suffix unions
    // (on the stack: this runs in every pass of the fixpoint).
    let mut suffix = [Bitboard::EMPTY; 65];
    let mut count = 0;
    for (i, square) in occupied.iter().enumerate() {
        suffix[i] = regions[square];
        count = i + 1;
    }
    for i in (0..count).rev() {
        suffix[i] |= suffix[i + 1];
    }
    let mut prefix = Bitboard::EMPTY;
    for (i, square) in occupied.iter().enumerate() {
        let region = regions[square];
        let others = prefix | suffix[i + 1];
        prefix |= region;
        let Some(piece) = board.piece_at(square) else { continue };
        if !persists(board, regions, reach, never_captured, square) {
            continue;
        }
        let mut common = Bitboard::FULL;
        for u in region {
            common &= movegen::attacks::attacks(piece.role, piece.color, u, others);
            if common.is_empty() {
                break;
            }
        }
        result[piece.color as usize] |= common - region;
    }
    for color in Color::ALL.into_iter().filter(|_| groups) {
        result[color as usize] |= group_attacks(board, regions, reach, never_captured, color);
    }
    result
}

/// Whether the piece on `square` is on some square of its region at every
/// moment and keeps its kind: never captured (assumed so, or no enemy
/// region meets its region) and not a pawn that may promote.
fn persists(board: &Board, regions: &Regions, reach: [Bitboard; 2], never_captured: Bitboard, square: Square) -> bool {
    let Some(piece) = board.piece_at(square) else { return false };
    let region = regions[square];
    let capturable = !never_captured.contains(square) && region.intersects(reach[!piece.color as usize]);
    !capturable && !may_promote(piece, region)
}

/// The most placements of a group that [`group_attacks`] enumerates.
const MAX_PLACEMENTS: u64 = 256;

/// Persistent attacks of *groups*: pieces of `color`, of one role, never
/// captured and not pawns that may promote, whose regions overlap (a
/// connected group) within a union `U` that no other piece can ever stand
/// on. At every moment the group's pieces stand on distinct squares of
/// their regions and nothing else stands on `U`, so the occupied squares of
/// `U` are one of the sets of `|group|` squares of `U` that the pieces can
/// fill (a matching of pieces to squares within their regions). A square
/// attacked from every such set, with every square any other piece may
/// stand on counted as a blocker (so the attacks computed are among the
/// real ones), is attacked at every moment. This catches what no single
/// piece does: a chain of bishops with one empty square always covers the
/// squares behind it, through the empty square if need be.
pub(crate) fn group_attacks(
    board: &Board,
    regions: &Regions,
    reach: [Bitboard; 2],
    never_captured: Bitboard,
    color: Color,
) -> Bitboard {
    let ours = board.by_color(color) - board.kings();
    // The squares the kings and the other colour's pieces may stand on: a
    // member whose region meets them would make its group fail the check
    // below, so it is left out at once.
    let foreign = regions.union_of(board.occupied() - ours);
    let candidates: Bitboard = ours
        .iter()
        .filter(|&sq| persists(board, regions, reach, never_captured, sq) && !regions[sq].intersects(foreign))
        .collect();
    if candidates.count() < 2 {
        return Bitboard::EMPTY;
    }
    let mut result = Bitboard::EMPTY;
    let mut done = Bitboard::EMPTY;
    for seed in candidates {
        if done.contains(seed) {
            continue;
        }
        let Some(role) = board.role_at(seed) else { continue };
        let alike = candidates & board.by_role(role);
        // The connected group of `seed`.
        let mut group = Bitboard::from(seed);
        let mut union = regions[seed];
        loop {
            let more: Bitboard = (alike - group).iter().filter(|&sq| regions[sq].intersects(union)).collect();
            if more.is_empty() {
                break;
            }
            group |= more;
            for sq in more {
                union |= regions[sq];
            }
        }
        done |= group;
        let n = group.count();
        if n < 2 {
            continue;
        }
        // Nothing else may ever stand on the group's squares.
        let others = regions.union_of(board.occupied() - group);
        if others.intersects(union) {
            continue;
        }
        let size = union.count();
        if size > 40 || binomial(size, n) > MAX_PLACEMENTS {
            continue;
        }
        let members: Vec<Bitboard> = group.iter().map(|sq| regions[sq]).collect();
        let cells: Vec<Square> = union.iter().collect();
        let mut common = Bitboard::FULL;
        // Every subset of `n` squares of the union, as a bit mask over `cells`.
        let mut mask: u64 = (1 << n) - 1;
        while mask < 1 << size {
            let placed: Bitboard =
                cells.iter().enumerate().filter(|(i, _)| mask >> i & 1 != 0).map(|(_, &sq)| sq).collect();
            if fillable(&members, placed) {
                let blockers = placed | others;
                let mut attacked = Bitboard::EMPTY;
                for u in placed {
                    attacked |= movegen::attacks::attacks(role, color, u, blockers);
                }
                common &= attacked;
                if common.is_empty() {
                    break;
                }
            }
            // Next mask with the same number of bits (Gosper's hack).
            let lowest = mask & mask.wrapping_neg();
            let ripple = mask + lowest;
            mask = (((ripple ^ mask) >> 2) / lowest) | ripple;
        }
        result |= common - union;
    }
    result
}

/// Whether the pieces with these regions can stand on exactly the squares
/// of `placed`, one each (a perfect matching, by augmenting paths).
fn fillable(members: &[Bitboard], placed: Bitboard) -> bool {
    // On the stack: this runs for every placement a group enumerates.
    let n = members.len();
    if placed.count() as usize != n {
        return false;
    }
    let mut squares = [Square::A1; 64];
    for (slot, square) in squares.iter_mut().zip(placed) {
        *slot = square;
    }
    let squares = &squares[..n];
    let mut owner = [None; 64];
    let owner = &mut owner[..n];
    fn augment(
        piece: usize,
        members: &[Bitboard],
        squares: &[Square],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for (i, &sq) in squares.iter().enumerate() {
            if seen[i] || !members[piece].contains(sq) {
                continue;
            }
            seen[i] = true;
            if owner[i].is_none_or(|other| augment(other, members, squares, owner, seen)) {
                owner[i] = Some(piece);
                return true;
            }
        }
        false
    }
    (0..n).all(|piece| augment(piece, members, squares, owner, &mut [false; 64][..n]))
}

/// `n` choose `k` (`k <= n`), saturating.
fn binomial(n: u32, k: u32) -> u64 {
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(u64::from(n - i)) / u64::from(i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mobility;
    use movegen::Position;

    /// `fillable` against every assignment of the pieces to the placed
    /// squares, on random regions within a few squares (so that both
    /// answers occur), up to six pieces.
    #[test]
    fn fillable_agrees_with_trying_every_assignment() {
        fn by_brute_force(members: &[Bitboard], placed: &[Square], used: u64) -> bool {
            let Some((first, rest)) = members.split_first() else { return true };
            placed.iter().enumerate().any(|(i, &square)| {
                used >> i & 1 == 0 && first.contains(square) && by_brute_force(rest, placed, used | 1 << i)
            })
        }
        let mut rng = testkit::XorShift64(0x3c6e_f372_fe94_f82b);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..20_000 {
            let n = 1 + rng.below(6);
            let cells: Vec<Square> = (0..8).map(|_| rng.square()).collect();
            let pick = |rng: &mut testkit::XorShift64| -> Bitboard {
                (0..1 + rng.below(4)).map(|_| cells[rng.below(cells.len())]).collect()
            };
            let members: Vec<Bitboard> = (0..n).map(|_| pick(&mut rng)).collect();
            let placed = pick(&mut rng) | pick(&mut rng);
            let squares: Vec<Square> = placed.iter().collect();
            let expected = squares.len() == n && by_brute_force(&members, &squares, 0);
            assert_eq!(fillable(&members, placed), expected, "{members:?} {placed:?}");
            // Counted only where the sizes agree: there the matching decides.
            if squares.len() == n {
                if expected { yes += 1 } else { no += 1 }
            }
        }
        assert!(yes > 500 && no > 500, "both answers where the sizes agree: {yes} {no}");
    }

    /// The group rule's claim, attacked directly: with the regions of the
    /// fixpoint, every square [`group_attacks`] returns for a colour is
    /// attacked by that colour in every position of random games (all of
    /// which stay in the regions, as `tests/over_approximation.rs` checks).
    /// The positions are a locked bishop chain from the hard set, where the
    /// rule fires, variants with more holes and other roles (where it must
    /// not), and every position of the dev and hard sets.
    #[test]
    fn group_attacks_hold_in_random_games() {
        let fens = [
            "B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - -",
            "B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/8/8/8/k1K5 b - -",
            "B1B1B3/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - -",
            "B1B3B1/p1pBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - -",
            "N1N1N1N1/pNpNpNp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - -",
            "R1R1R1R1/pRpRpRp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - -",
            "K1k5/8/8/5B2/4B3/p1p1p1p1/PbPbPbP1/b1b1b1b1 b - -",
        ];
        let mut fens: Vec<String> = fens.iter().map(|fen| fen.to_string()).collect();
        for set in ["dev-positions.txt", "hard-positions.txt"] {
            let path = format!("{}/../../testdata/{set}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let labelled = text.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty());
            fens.extend(labelled.map(|line| line.split_once(' ').unwrap().1.to_string()));
        }
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut fired = 0;
        for fen in &fens {
            let Ok(start) = fen.parse::<Position>() else { continue };
            let Ok(mobility) = Mobility::compute(&start) else { continue };
            let board = start.board();
            let mut regions = Regions::EMPTY;
            let mut reach = [Bitboard::EMPTY; 2];
            for (square, piece, region) in mobility.pieces() {
                regions[square] = region;
                reach[piece.color as usize] |= region;
            }
            for color in Color::ALL {
                let claimed = group_attacks(board, &regions, reach, Bitboard::EMPTY, color);
                if claimed.is_empty() {
                    continue;
                }
                fired += 1;
                for _game in 0..50 {
                    let mut pos = start;
                    for _ply in 0..120 {
                        let occupied = pos.board().occupied();
                        for square in claimed {
                            assert!(
                                pos.board().is_attacked_by(square, color, occupied),
                                "{square} not attacked by {color} in {} (from {fen})",
                                pos.to_fen()
                            );
                        }
                        let moves = pos.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        pos = pos.play(moves[(state % moves.len() as u64) as usize]);
                    }
                }
            }
        }
        assert!(fired >= 6, "the rule fired on only {fired} position colours");
    }
}
