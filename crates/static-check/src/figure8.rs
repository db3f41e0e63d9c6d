//! `Unwinnable^Static` (paper Figure 8): deciding from a mobility solution
//! that the intended winner can never deliver mate.
//!
//! # The check
//!
//! Let `c` be the intended winner and `K` the loser's king.
//!
//! 1. Not applicable with a legal en passant capture (Lemma 8 needs it
//!    absent). The paper also refuses castling rights; here they are
//!    allowed, as the mobility regions cover castling (see the `mobility`
//!    crate docs) and the proof below only uses the regions. The one
//!    refinement that looks at single moves, the last-move condition of
//!    [`crate::mating_net`], is not used when the winner may castle.
//! 2. `region(P)`: the mobility solution.
//! 3. `king_region = region(K)`: every square the loser's king can stand on.
//! 4. **Intruders**: the winner's pieces, other than the king, whose region
//!    meets the king region.
//! 5. An intruder that is not a bishop: not proved (paper; off by default,
//!    see below).
//! 6. Intruder bishops on both square colours: not proved (idem).
//! 7. `att-region(P)`: the squares `P` can attack from some square of its
//!    region (for a pawn that can reach its last rank: every square, since
//!    it may promote to anything).
//! 8. `blockers(s)`: the loser's non-king pieces that can stand on an
//!    orthogonal neighbour of `s` (`♣(s)`).
//! 9. `assistants(s)`: the winner's pieces that can attack a square of `♣(s)`.
//! 10. A square `s` of the king region is a **candidate mating square** if
//!     some winner piece can attack it and the blockers and assistants can
//!     guard all of `♣(s)` at once. Any candidate: not proved.
//! 11. No candidate: **unwinnable**.
//!
//! # Departures from the paper, and why this check is sound
//!
//! The paper counts one covered square per assistant in step 10
//! (`|blockers| + |assistants| ≥ |♣(s)|`), arguing in its footnote 9 that an
//! assistant can cover at most one orthogonal neighbour of `s`. That is not
//! true in general: a white pawn on the square below `s` attacks both side
//! neighbours, a knight on a diagonal neighbour of `s` attacks two, a queen
//! can attack three. Here each assistant `A` contributes its
//! [`capacity`]: an upper bound on how many squares of `♣(s)` one piece of
//! its kind attacks from any square of its region. The winner's king is not
//! an intruder (a king never gives check) but is an assistant of capacity 1.
//!
//! **Proof** (given a mobility solution that is the least fixpoint of the
//! paper's rules, which over-approximates reality by Lemma 8, castling
//! included). Suppose `c`
//! mates at some future moment `Q`, with `K` on `s`. Then `s ∈ king_region`.
//!
//! * *Some winner piece attacks `s` in `Q`, and `s ∈ att-region(P)`.* The
//!   checker `P` stands on `u ∈ region(P)`. A knight, king or pawn attacks
//!   `s` from `u`, so `u ∈ pred-capt_P(s)`. A slider attacks along empty
//!   squares; an empty square at `Q` holds no uncleared piece (uncleared
//!   pieces never leave their squares), so the fixpoint's closure under the
//!   move rule puts every square from `u` to the neighbour of `s` into
//!   `region(P)`. A promoted pawn could reach its last rank, so its
//!   `att-region` is everything.
//! * *Every square `t` of `♣(s)` is covered in `Q`*: else `K` steps to `t`
//!   (possibly capturing). Covered means a loser non-king piece `B` stands on
//!   `t` (so `t ∈ region(B)` and `B ∈ blockers(s)`; one square per blocker),
//!   or a winner piece `A` attacks `t` with `s` vacated (so, by the same
//!   closure argument, `t ∈ att-region(A)` and `A ∈ assistants(s)`; at most
//!   [`capacity`]`(A, s)` squares per assistant).
//!
//! So a mate at `s` needs an attacker of `s` and a *covering* of `♣(s)`:
//! every neighbour guarded by a blocker that can stand on it or an
//! assistant that can attack it, each blocker guarding one square and each
//! assistant at most its capacity. Such a covering exists only if every set
//! `X ⊆ ♣(s)` of neighbours satisfies `Σ_pieces min(capacity, |N ∩ X|) ≥
//! |X|` (the capacitated Hall condition, see `hall_violation`). The paper's
//! count is the case `X = ♣(s)` (with capacity 1); `X = {t}` asks that each
//! neighbour be guardable at all. If no square of the king region has both
//! an attacker and a covering, no mate exists.
//!
//! The proof does not use steps 5 and 6: they only make the check answer
//! "not proved" more often. The paper needs them to justify its count of
//! one square per assistant; with capacities they are unnecessary, so they
//! are **off by default** ([`Options::intruder_filter`]) and the check
//! proves more positions (on the dev set, 963 instead of 953 of the 1,855
//! truly unwinnable queries). The intruders are still computed and shown
//! in the explanation.
//!
//! **Monotonicity (Lemma 10).** Every set above grows when regions grow, and
//! so does every capacity and every sum of the Hall condition; each "not
//! proved" condition is upward closed.
//! Hence a larger admissible solution never turns "not proved" into
//! "unwinnable" (tested in `tests/monotonicity.rs`).

use movegen::{Bitboard, Color, Piece, Position, Rank, Role, Square, attacks};

use mobility::geometry::may_promote;
use mobility::{Mobility, NotApplicable, dilate};

use crate::mating_net::NetResult;

/// Why one square of the king region cannot be a mating square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SafeSquare {
    /// No arrangement of the pieces on their regions guards every
    /// neighbour and gives check at once (see [`crate::mating_net`]).
    NoMatingNet,
    /// No piece of the intended winner can ever attack the square.
    NeverAttacked,
    /// The king on this square always keeps an orthogonal escape: these
    /// orthogonal neighbours cannot all be blocked or attacked at once, as
    /// the pieces able to do it cover at most `available` of them.
    TooFewGuards {
        /// The neighbours that cannot all be guarded.
        squares: Bitboard,
        /// How many of them the loser's blockers and the winner's
        /// attackers can guard together.
        available: u32,
    },
}

/// Why the static check did not prove the position unwinnable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obstacle {
    /// Lemma 8 does not apply (an en passant capture is legal).
    NotApplicable(NotApplicable),
    /// A winner piece other than a bishop can enter the king region (step 5).
    Intruder {
        /// Where the intruder stands.
        square: Square,
        /// What it is.
        piece: Piece,
    },
    /// Intruding bishops of both square colours (step 6).
    MixedBishops {
        /// A light-squared intruding bishop.
        light: Square,
        /// A dark-squared intruding bishop.
        dark: Square,
    },
    /// The winner can mate in one move (checked when the last-move
    /// condition of [`crate::mating_net`] was used).
    MateInOne,
    /// A candidate mating square (step 10).
    CandidateSquare {
        /// The square.
        square: Square,
        /// Orthogonal neighbours of the square.
        needed: u32,
        /// How many of them the blockers and attackers can guard in total.
        available: u32,
    },
}

/// The outcome of Figure 8, with everything needed to explain it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure8 {
    /// The intended winner.
    pub winner: Color,
    /// Where the loser's king stands.
    pub loser_king: Square,
    /// Every square the loser's king can ever stand on (empty when the
    /// check was not applicable).
    pub king_region: Bitboard,
    /// The squares of the intruders (winner pieces that can enter the king region).
    pub intruders: Bitboard,
    /// The pieces (kings included) that never leave their squares in the
    /// games the regions cover (those ending in the winner's mate): the
    /// uncleared pieces of the mobility solution the check used.
    pub locked: Bitboard,
    /// `Ok` with the reason for every square of the king region when the
    /// position is proved unwinnable, `Err` with the first obstacle otherwise.
    pub result: Result<Vec<(Square, SafeSquare)>, Obstacle>,
}

impl Figure8 {
    /// Whether the check proved the position unwinnable for the winner.
    pub fn is_unwinnable(&self) -> bool {
        self.result.is_ok()
    }
}

/// `att-region(P)`: every square the piece on `square` can attack from
/// some square of its region (for a pawn that can promote: every square).
///
/// A slider attacks only next to its region: a line from a square of the
/// region to a target crosses empty squares, the last of which it could
/// step to, and the regions are closed under steps. A piece assumed never
/// to move ([`mobility::Games::immobile`]) has its square as its region by
/// assumption, not by that closure; the same holds for it by its own proof
/// ([`mobility::immobile_pieces`]): its region there is its square, so each
/// of its steps is blocked by a piece that stands for good while it is not
/// captured, and once captured it attacks nothing.
pub fn attack_region(mobility: &Mobility, square: Square) -> Bitboard {
    let Some(piece) = mobility.board().piece_at(square) else { return Bitboard::EMPTY };
    let region = mobility.region(square);
    match piece.role {
        _ if may_promote(piece, region) => Bitboard::FULL,
        Role::Pawn => dilate::pawn_attacks(region, piece.color),
        Role::Knight => dilate::knight(region),
        Role::Bishop => dilate::diagonal(region),
        Role::Rook => dilate::orthogonal(region),
        Role::Queen | Role::King => dilate::adjacent(region),
    }
}

/// `♣(s)`: the orthogonal neighbours of `s`.
#[inline]
pub fn orthogonal_neighbours(s: Square) -> Bitboard {
    dilate::orthogonal(Bitboard::from(s))
}

/// For every role, colour, square `s` and `k` in 1..=4: the squares `u`
/// from which such a piece attacks at least `k` squares of `♣(s)` on an
/// empty board, excluding `u = s`, pawns on their first or last rank, and
/// kings next to `s` (the two kings are never adjacent).
struct CoverTable {
    at_least: Vec<[Bitboard; 4]>,
}

fn cover_table() -> &'static CoverTable {
    static TABLE: std::sync::OnceLock<CoverTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut at_least = vec![[Bitboard::EMPTY; 4]; 6 * 2 * 64];
        for role in Role::ALL {
            for color in Color::ALL {
                for s in Square::ALL {
                    let neighbours = orthogonal_neighbours(s);
                    let entry = &mut at_least[(role as usize * 2 + color as usize) * 64 + s as usize];
                    for u in Square::ALL {
                        let excluded = u == s
                            || (role == Role::Pawn && matches!(u.rank(), Rank::First | Rank::Eighth))
                            || (role == Role::King && u.distance(s) <= 1);
                        if excluded {
                            continue;
                        }
                        let count = (attacks::attacks(role, color, u, Bitboard::EMPTY) & neighbours).count();
                        for k in 1..=count.min(4) {
                            entry[k as usize - 1] |= u;
                        }
                    }
                }
            }
        }
        CoverTable { at_least }
    })
}

/// The largest number of squares of `♣(s)` a piece of `role` and `color`
/// attacks from some square of `region` (empty board, see [`CoverTable`]).
fn max_cover(role: Role, color: Color, region: Bitboard, s: Square) -> u32 {
    let entry = &cover_table().at_least[(role as usize * 2 + color as usize) * 64 + s as usize];
    (1..=4u32).rev().find(|&k| region.intersects(entry[k as usize - 1])).unwrap_or(0)
}

/// An upper bound on the number of squares of `♣(s)` that a piece with
/// `region` attacks at one moment while the loser's king stands on `s`.
///
/// At that moment the piece stands on some `u ∈ region`, `u ≠ s`, not next
/// to `s` if it is the winner's king, and attacks at most what it would
/// attack from `u` on an empty board: the exact maximum of that over the
/// region is computed from a table. A pawn that can reach its last rank
/// may stand there as any piece: the maximum over knight, bishop, rook and
/// queen. (For comparison, a queen can attack 3 of the 4 squares, a rook,
/// bishop, knight or pawn 2, a king 1: the paper's count assumes 1.)
pub fn capacity(piece: Piece, region: Bitboard, s: Square) -> u32 {
    if may_promote(piece, region) {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&role| max_cover(role, piece.color, region, s))
            .max()
            .unwrap_or(0)
    } else {
        max_cover(piece.role, piece.color, region, s)
    }
}

/// The capacitated Hall condition: `covers` lists, for each piece, the set
/// of neighbours (bits `0..n`) it can guard and how many of them it can
/// guard at once. A covering of all `n` neighbours (each by some piece,
/// each piece guarding at most its capacity) exists iff for every subset
/// `X`: `Σ min(capacity, |N(piece) ∩ X|) ≥ |X|` (max-flow min-cut on the
/// bipartite network pieces → neighbours). Returns a violating subset and
/// its total, or `None` when every subset passes.
///
/// Only the necessity of the condition is needed for soundness: in a mate,
/// the actual guards form such a covering, so every subset passes.
fn hall_violation(n: usize, covers: &[(u32, u32)]) -> Option<(u32, u32)> {
    // Smallest subsets first: a single unguardable square is the clearest
    // explanation.
    let mut subsets: Vec<u32> = (1..1u32 << n).collect();
    subsets.sort_by_key(|x| x.count_ones());
    subsets.into_iter().find_map(|x| {
        let available: u32 = covers.iter().map(|&(mask, cap)| cap.min((mask & x).count_ones())).sum();
        (available < x.count_ones()).then_some((x, available))
    })
}

/// Options of the check (none of them affects soundness).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Options {
    /// The paper's steps 5 and 6: stop at a non-bishop intruder or at
    /// intruding bishops of both colours. Off by default (see the module
    /// docs); on, the check is the paper's Figure 8 with the capacity fix.
    pub intruder_filter: bool,
}

/// Runs Figure 8 on `pos` for `winner` with the given mobility solution.
pub fn figure8_with(pos: &Position, winner: Color, mobility: &Mobility, options: Options) -> Figure8 {
    let board = mobility.board();
    let loser = !winner;
    let loser_king = pos.king_of(loser);
    let king_region = mobility.region(loser_king);
    let locked = mobility.board().occupied() - mobility.cleared();
    let mut result =
        Figure8 { winner, loser_king, king_region, intruders: Bitboard::EMPTY, locked, result: Ok(Vec::new()) };

    // Step 4: intruders (the winner's king never gives check).
    let winners = board.by_color(winner) - board.kings();
    for square in winners {
        if mobility.region(square).intersects(king_region) {
            result.intruders |= square;
        }
    }
    if options.intruder_filter {
        // Step 5.
        if let Some(square) = (result.intruders - board.bishops()).first() {
            let piece = board.piece_at(square).unwrap_or(Piece::new(winner, Role::Pawn));
            result.result = Err(Obstacle::Intruder { square, piece });
            return result;
        }
        // Step 6.
        let light = result.intruders & Bitboard::LIGHT_SQUARES;
        let dark = result.intruders & Bitboard::DARK_SQUARES;
        if let (Some(light), Some(dark)) = (light.first(), dark.first()) {
            result.result = Err(Obstacle::MixedBishops { light, dark });
            return result;
        }
    }

    // Step 7: attack regions of the winner's pieces (king included).
    let winner_pieces: Vec<(Square, Piece, Bitboard, Bitboard)> = board
        .by_color(winner)
        .iter()
        .filter_map(|sq| board.piece_at(sq).map(|piece| (sq, piece, mobility.region(sq), attack_region(mobility, sq))))
        .collect();
    let attackable = winner_pieces.iter().fold(Bitboard::EMPTY, |acc, w| acc | w.3);
    // Step 8 ingredients: loser non-king regions (potential blockers).
    let loser_regions: Vec<Bitboard> =
        (board.by_color(loser) - board.kings()).iter().map(|sq| mobility.region(sq)).collect();

    // Steps 10-11.
    let mut safe = Vec::with_capacity(king_region.count() as usize);
    let mut last_move_used = false;
    for s in king_region {
        if !attackable.contains(s) {
            safe.push((s, SafeSquare::NeverAttacked));
            continue;
        }
        let neighbours = orthogonal_neighbours(s);
        let squares: Vec<Square> = neighbours.iter().collect();
        // Who can cover which neighbour: `(cover mask over `squares`, capacity)`.
        let mut covers: Vec<(u32, u32)> = Vec::with_capacity(loser_regions.len() + winner_pieces.len());
        let mask_of = |set: Bitboard| -> u32 {
            squares.iter().enumerate().filter(|(_, sq)| set.contains(**sq)).fold(0, |m, (i, _)| m | 1 << i)
        };
        for region in &loser_regions {
            let mask = mask_of(*region);
            if mask != 0 {
                covers.push((mask, 1));
            }
        }
        for &(_, piece, region, att) in &winner_pieces {
            let mask = mask_of(att);
            if mask != 0 {
                covers.push((mask, capacity(piece, region, s).min(mask.count_ones())));
            }
        }
        match hall_violation(squares.len(), &covers) {
            None => match crate::mating_net::net_possible(mobility, loser, s) {
                NetResult::Impossible => safe.push((s, SafeSquare::NoMatingNet)),
                NetResult::ImpossibleByLastMove => {
                    last_move_used = true;
                    safe.push((s, SafeSquare::NoMatingNet));
                }
                NetResult::Possible => {
                    let needed = squares.len() as u32;
                    let available = covers.iter().map(|&(mask, cap)| cap.min(mask.count_ones())).sum();
                    result.result = Err(Obstacle::CandidateSquare { square: s, needed, available });
                    return result;
                }
            },
            Some((subset, available)) => {
                let unguarded: Bitboard =
                    squares.iter().enumerate().filter(|(i, _)| subset >> i & 1 != 0).map(|(_, sq)| *sq).collect();
                safe.push((s, SafeSquare::TooFewGuards { squares: unguarded, available }));
            }
        }
    }
    // The last-move condition does not cover a mate delivered on the very
    // first move, which has no previous loser move: rule it out directly.
    if last_move_used && pos.side_to_move() == winner {
        let mates_in_one = pos.legal_moves().iter().any(|&m| pos.play(m).is_checkmate());
        if mates_in_one {
            result.result = Err(Obstacle::MateInOne);
            return result;
        }
    }
    result.result = Ok(safe);
    result
}

/// Runs Figure 8 with the default options, computing the mobility solution;
/// when that proves nothing, again with the pieces that never move pinned
/// (see `mobility::immobile_pieces`).
pub fn figure8(pos: &Position, winner: Color) -> Figure8 {
    figure8_splitting(pos, winner, true)
}

/// [`figure8`] without the second attempt: a few times cheaper when the
/// first fails, for callers that ask about many positions (the search).
pub fn figure8_light(pos: &Position, winner: Color) -> Figure8 {
    figure8_splitting(pos, winner, false)
}

fn figure8_splitting(pos: &Position, winner: Color, split: bool) -> Figure8 {
    // Only games that end in a mate by the winner matter: in them, the
    // winner's irreplaceable pieces are never captured.
    let assumed = crate::irreplaceable(pos, winner);
    let rules = mobility::Rules::default();
    let games = mobility::Games { uncapturable: assumed, mates_by: Some(winner), immobile: Bitboard::EMPTY };
    match Mobility::compute_assuming(pos, rules, games) {
        Ok(mobility) => {
            let first = figure8_with(pos, winner, &mobility, Options::default());
            if !split || matches!(first.result, Ok(_) | Err(Obstacle::MateInOne)) {
                return first;
            }
            // Not proved: split on the pieces that cannot move now (see
            // `mobility::immobile_pieces`; sound for the same games).
            let immobile = mobility::immobile_pieces(pos, rules, games).unwrap_or(Bitboard::EMPTY);
            if immobile.is_empty() {
                return first;
            }
            match Mobility::compute_assuming(pos, rules, mobility::Games { immobile, ..games }) {
                Ok(narrowed) => figure8_with(pos, winner, &narrowed, Options::default()),
                Err(_) => first,
            }
        }
        Err(reason) => Figure8 {
            winner,
            loser_king: pos.king_of(!winner),
            king_region: Bitboard::EMPTY,
            intruders: Bitboard::EMPTY,
            locked: Bitboard::EMPTY,
            result: Err(Obstacle::NotApplicable(reason)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hall_condition() {
        // Two pieces that can only guard square 0, a third for square 1:
        // squares 2 and 3 are unguardable.
        assert_eq!(hall_violation(4, &[(0b0001, 1), (0b0001, 1), (0b0010, 1)]), Some((0b0100, 0)));
        // One piece of capacity 2 for squares 0 and 1, one for each of 2, 3.
        assert_eq!(hall_violation(4, &[(0b0011, 2), (0b0100, 1), (0b1000, 1)]), None);
        // Both remaining pieces can only guard square 2: {2, 3} is short.
        assert_eq!(hall_violation(4, &[(0b0011, 2), (0b0100, 1), (0b0100, 1)]), Some((0b1000, 0)));
        // Two pieces that can only guard square 0 and one for squares 1-2:
        // the pair {1, 2} has a single guard.
        assert_eq!(hall_violation(3, &[(0b001, 1), (0b001, 1), (0b110, 1)]), Some((0b110, 1)));
    }

    /// The table-based capacity equals the brute-force maximum over the
    /// region, for random regions of every piece kind, and matches the
    /// known maxima (queen 3, other pieces 2, king 1).
    #[test]
    fn capacity_is_the_maximum_over_the_region() {
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut largest = [0u32; 6];
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let region = Bitboard(state & (state >> 11) & (state >> 23)) | Square::new((state >> 58) as u32);
            let s = Square::new((state >> 40) as u32);
            for role in Role::ALL {
                for color in Color::ALL {
                    let legal_squares = if role == Role::Pawn {
                        region - Bitboard::rank(Rank::First) - Bitboard::rank(Rank::Eighth)
                    } else {
                        region
                    };
                    let brute = (legal_squares - s)
                        .iter()
                        .filter(|u| role != Role::King || u.distance(s) > 1)
                        .map(|u| (attacks::attacks(role, color, u, Bitboard::EMPTY) & orthogonal_neighbours(s)).count())
                        .max()
                        .unwrap_or(0);
                    assert_eq!(max_cover(role, color, legal_squares, s), brute, "{role:?} {color:?} {s}");
                    largest[role as usize] = largest[role as usize].max(brute);
                }
            }
        }
        assert_eq!(largest, [2, 2, 2, 2, 3, 1]);
    }
}
