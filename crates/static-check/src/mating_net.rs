//! Can a mating net be assembled around one square? A sound, finer check
//! for the candidate squares that survive the counting of Figure 8.
//!
//! For the loser's king on `s` to be mated, at that moment every neighbour
//! `t` of `s` (all eight, not only the orthogonal ones) must be *guarded*:
//! occupied by a loser piece, or attacked by a winner piece (the king may
//! not step onto an attacked square, nor capture a defended piece), and some
//! winner piece must attack `s`. Each piece then stands on one square of its
//! region, and different pieces on different squares.
//!
//! [`net_possible`] searches for such an arrangement, but only as finely as
//! needed to be sound:
//!
//! * a *blocker* (loser non-king piece) is placed on the neighbour it
//!   guards; no other piece may stand there;
//! * an *attacker* (winner piece) is given the set of squares it may still
//!   stand on: its region minus `s`, minus the squares next to `s` for the
//!   winner's king, intersected, for every neighbour it is chosen to guard,
//!   with the squares from which it attacks that neighbour, minus squares
//!   taken by placed blockers. Attacks are computed with only the pieces
//!   that can never move (`C = 0`, Lemma 8) as obstacles, which can only
//!   add attacks; a pawn that can promote attacks like a knight or a queen.
//!
//! A real mate is such an arrangement (each guard's actual square is in its
//! set), so when none exists no mate on `s` is possible.
//!
//! # The last move
//!
//! When every non-king piece of the loser can never move (`C = 0`), a mate
//! that is not delivered on the very first move has a *previous* loser
//! move, and it was a king move from some square `k'` next to `s` (in the
//! king's region) to `s`. Between that move and the mate only the mating
//! move was played: so in the position before the loser's last move, the
//! winner's king stood where it stands at the mate (if another piece gave
//! the mate), or on an adjacent square from which its move could uncover a
//! check on `s` by a slider (a discovered check). Either way it was not next
//! to `k'` (two kings are never adjacent). The search rejects arrangements
//! with no such `k'` ([`NetResult::ImpossibleByLastMove`]); the caller must
//! then rule out a mate in one from the analysed position itself, where
//! there is no previous move (Figure 8 does).
//!
//! **Castling.** Both moves the argument looks at could be castlings when
//! rights remain:
//!
//! * the *loser's* last move: a castling that moves a rook of the loser
//!   gives that rook `C = 1` (the regions cover castling, see the
//!   `mobility` crate's castling rule; with frozen pieces, a frozen rook is
//!   never cleared in a game that ends in mate) and the condition does not
//!   apply in the first place: every loser non-king piece must have
//!   `C = 0`. A Chess960 castling may leave the rook where it stands (`K
//!   e1, R f1`: O-O takes the king to `g1`) and move only the king, from a
//!   square that need not be next to `s`: the condition is **not used when
//!   the loser holds such a right**;
//! * the *winner's* mating move: a castling moves the winner's king two
//!   squares (`e1→g1`), so before the loser's last move it stood neither
//!   where it stands at the mate nor next to it. The argument above fails,
//!   so the condition is **not used when the winner has a castling right**
//!   (tested in `tests/brute_force.rs` with a mate by castling).
//!
//! This is what makes positions like the paper's 14 and 16 provable: the
//! boxed-in king shuttles between two squares, and the guard it would need
//! on the far square could only have arrived next to it. Larger regions only
//! add options (monotone, Lemma 10). The search gives up after
//! [`STEP_LIMIT`] steps and then answers "possible", which is always safe.

use movegen::{Bitboard, CastlingRights, Color, Piece, Role, Square, attacks};

use mobility::Mobility;
use mobility::geometry::{may_promote, slides};

/// The squares from which `piece` (able to promote or not) attacks
/// `target`, with `obstacles` blocking lines.
fn attack_sources(piece: Piece, promotes: bool, target: Square, obstacles: Bitboard) -> Bitboard {
    mobility::geometry::attack_sources(piece.role, piece.color, promotes, target, obstacles)
}

/// Steps after which the search answers "possible" (safe) instead of
/// deciding.
pub const STEP_LIMIT: u32 = 4_000;

#[derive(Clone, Copy, Debug)]
struct Guard {
    piece: Piece,
    /// Where the piece stands in the analysed position.
    origin: Square,
    /// Squares it may still stand on (attackers), or its region (blockers).
    squares: Bitboard,
    /// Blockers: placed already.
    used: bool,
    /// Blockers: the neighbour it was placed on.
    placed: Option<Square>,
}

/// Where the pieces stand in one arrangement that [`arrangement`] found: a
/// guide for a search that tries to assemble the net (it proves nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangement {
    /// The square of the loser's king.
    pub king: Square,
    /// For each piece with a post, named by where it stands now: the
    /// squares it may occupy in the net (one square for a blocker, the
    /// squares attacking what it guards for an attacker; the checker
    /// first).
    pub posts: Vec<(Square, Bitboard)>,
}

/// At most this many guards of each kind are modelled (more pieces than
/// this near one square are only possible in composed positions): with
/// more, [`net_possible`] answers "possible" without searching, which is
/// always safe (ignoring a guard could hide a net).
const MAX_GUARDS: usize = 24;

/// The last-move condition (see the module docs), when it applies.
struct LastMove {
    /// Squares the loser's king may have come from.
    origins: Bitboard,
    /// The winner king's region.
    king_region: Bitboard,
    /// Squares from which a winner king move could uncover a check on `s`.
    discovery: Bitboard,
}

/// The answer of [`net_possible`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetResult {
    /// Some arrangement may mate on the square (or the search gave up).
    Possible,
    /// No arrangement of the guards can mate there.
    Impossible,
    /// Arrangements exist, but none has a legal last move: no mate on the
    /// square except possibly a mate in one from the analysed position.
    ImpossibleByLastMove,
}

struct Net {
    /// Neighbours still to guard.
    open: Bitboard,
    /// Index of the winner's king among the attackers, if present.
    winner_king: Option<usize>,
    last_move: Option<LastMove>,
    /// Complete arrangements rejected by the last-move condition.
    rejected_by_last_move: u32,
    blockers: Vec<Guard>,
    attackers: Vec<Guard>,
    /// `sources[a][k]`: squares from which attacker `a` attacks neighbour
    /// `k` (index into `neighbours`), and `sources[a][8]`: attacks on `s`.
    sources: Vec<[Bitboard; 9]>,
    neighbours: [Square; 8],
    taken: Bitboard,
    steps: u32,
}

impl Net {
    fn sources(&self, index: usize, target: Square) -> Bitboard {
        let k = self.neighbours.iter().position(|&n| n == target).unwrap_or(8);
        self.sources[index][k]
    }

    /// How many ways `target` can be guarded now.
    fn options(&self, target: Square) -> usize {
        let blockers = self
            .blockers
            .iter()
            .filter(|b| !b.used && b.squares.contains(target) && !self.taken.contains(target))
            .count();
        let attackers = (0..self.attackers.len())
            .filter(|&a| self.attackers[a].squares.intersects(self.sources(a, target)))
            .count();
        blockers + attackers
    }

    /// Whether the current arrangement has a legal previous loser move.
    fn last_move_possible(&self) -> bool {
        let Some(last) = &self.last_move else { return true };
        let Some(king) = self.winner_king else { return false };
        let winner_king_squares = self.attackers[king].squares;
        for w in winner_king_squares {
            // Another piece gave the mate: the winner's king stood on `w`.
            if (last.origins - attacks::king(w) - w).any() {
                return true;
            }
            // The winner's king gave a discovered check coming from `from`.
            for from in last.king_region & attacks::king(w) & last.discovery {
                if (last.origins - attacks::king(from) - from).any() {
                    return true;
                }
            }
        }
        false
    }

    /// Guards the open neighbours, most constrained first; `true` if an
    /// arrangement exists.
    fn solve(&mut self) -> bool {
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            return true;
        }
        let Some(target) = self.open.iter().min_by_key(|&t| self.options(t)) else {
            if self.last_move_possible() {
                return true;
            }
            self.rejected_by_last_move += 1;
            return false;
        };
        self.open -= target;
        // A blocker placed on it: nobody else may stand there.
        if !self.taken.contains(target) {
            for b in 0..self.blockers.len() {
                if self.blockers[b].used || !self.blockers[b].squares.contains(target) {
                    continue;
                }
                let mut saved = [Bitboard::EMPTY; MAX_GUARDS];
                let mut consistent = true;
                for (a, slot) in self.attackers.iter_mut().zip(saved.iter_mut()) {
                    *slot = a.squares;
                    a.squares -= target;
                    consistent &= a.squares.any();
                }
                if consistent {
                    self.blockers[b].used = true;
                    self.blockers[b].placed = Some(target);
                    self.taken |= target;
                    if self.solve() {
                        return true;
                    }
                    self.taken -= target;
                    self.blockers[b].used = false;
                }
                for (a, slot) in self.attackers.iter_mut().zip(saved) {
                    a.squares = slot;
                }
            }
        }
        // An attacker guarding it.
        for a in 0..self.attackers.len() {
            let before = self.attackers[a].squares;
            let narrowed = before & self.sources(a, target);
            if narrowed.is_empty() {
                continue;
            }
            self.attackers[a].squares = narrowed;
            if self.solve() {
                return true;
            }
            self.attackers[a].squares = before;
        }
        self.open |= target;
        false
    }
}

/// Whether the loser's king could be mated on `s`: a sound over-estimate
/// (see the module docs). `loser` is the colour of the king to be mated.
pub fn net_possible(mobility: &Mobility, loser: Color, s: Square) -> NetResult {
    net_possible_capped(mobility, loser, s, MAX_GUARDS)
}

/// An arrangement of the pieces that could mate the `loser`'s king on `s`
/// as far as [`net_possible`] can tell, if it finds one (not when it gives
/// up). A guide for searches, not a proof of anything.
pub fn arrangement(mobility: &Mobility, loser: Color, s: Square) -> Option<Arrangement> {
    search_net(mobility, loser, s, MAX_GUARDS).1
}

/// [`net_possible`] modelling at most `max_guards` (at most [`MAX_GUARDS`])
/// guards of each kind; with more it answers "possible".
fn net_possible_capped(mobility: &Mobility, loser: Color, s: Square, max_guards: usize) -> NetResult {
    search_net(mobility, loser, s, max_guards).0
}

/// The net search, with the arrangement it found.
fn search_net(mobility: &Mobility, loser: Color, s: Square, max_guards: usize) -> (NetResult, Option<Arrangement>) {
    let board = mobility.board();
    let winner = !loser;
    // Pieces that never move are obstacles forever (the loser's king is on
    // `s`, which any attack through it sees vacated).
    let obstacles = board.occupied() - mobility.cleared() - board.pieces(loser, Role::King);
    let neighbours = attacks::king(s);
    let mut blockers = Vec::new();
    for square in board.by_color(loser) - board.kings() {
        let region = mobility.region(square);
        if region.intersects(neighbours) {
            if blockers.len() == max_guards {
                // Too many pieces to model: dropping one could hide the
                // blocker a net needs, so give up (safe), as for attackers.
                return (NetResult::Possible, None);
            }
            let piece = board.piece_at(square).unwrap_or(Piece::new(loser, Role::Pawn));
            blockers.push(Guard { piece, origin: square, squares: region, used: false, placed: None });
        }
    }
    let mut attackers = Vec::new();
    let mut promotes = Vec::new();
    let mut winner_king = None;
    for square in board.by_color(winner) {
        let Some(piece) = board.piece_at(square) else { continue };
        let region = mobility.region(square);
        let mut squares = region - s;
        if piece.role == Role::King {
            squares -= attacks::king(s);
        }
        let can_promote = may_promote(piece, region);
        if squares.any() && attackers.len() < max_guards {
            if piece.role == Role::King {
                winner_king = Some(attackers.len());
            }
            attackers.push(Guard { piece, origin: square, squares, used: false, placed: None });
            promotes.push(can_promote);
        } else if squares.any() {
            // Too many pieces to model: give up (safe).
            return (NetResult::Possible, None);
        }
    }
    let last_move = last_move_condition(mobility, loser, s, obstacles);
    let mut neighbour_list = [s; 8];
    for (slot, square) in neighbour_list.iter_mut().zip(neighbours) {
        *slot = square;
    }
    let sources = attackers
        .iter()
        .zip(&promotes)
        .map(|(a, &promotes)| {
            let mut row = [Bitboard::EMPTY; 9];
            for (k, target) in neighbours.iter().enumerate() {
                row[k] = attack_sources(a.piece, promotes, target, obstacles);
            }
            row[8] = attack_sources(a.piece, promotes, s, obstacles);
            row
        })
        .collect();
    let mut net = Net {
        open: neighbours,
        winner_king,
        last_move,
        rejected_by_last_move: 0,
        blockers,
        attackers,
        sources,
        neighbours: neighbour_list,
        taken: Bitboard::EMPTY,
        steps: 0,
    };
    // Choose the checker first: some attacker must attack `s`.
    let capture_guard = checker_captures(mobility, loser, s, &net.attackers, &promotes);
    for (a, guard) in capture_guard.iter().enumerate() {
        let before = net.attackers[a].squares;
        let narrowed = before & net.sources[a][8] & !*guard;
        if narrowed.is_empty() {
            continue;
        }
        net.attackers[a].squares = narrowed;
        if net.solve() {
            let found = (net.steps <= STEP_LIMIT).then(|| {
                let checker = (net.attackers[a].origin, net.attackers[a].squares);
                let others = net.attackers.iter().enumerate().filter(|&(other, _)| other != a);
                let placed = net
                    .blockers
                    .iter()
                    .filter(|g| g.used)
                    .filter_map(|g| g.placed.map(|t| (g.origin, Bitboard::from(t))));
                let posts =
                    std::iter::once(checker).chain(others.map(|(_, g)| (g.origin, g.squares))).chain(placed).collect();
                Arrangement { king: s, posts }
            });
            return (NetResult::Possible, found);
        }
        net.attackers[a].squares = before;
    }
    let result = if net.rejected_by_last_move > 0 { NetResult::ImpossibleByLastMove } else { NetResult::Impossible };
    (result, None)
}

/// For each attacker `a` as the checker of a mate on `s`: squares where a
/// loser piece would capture it, so that it cannot give mate there.
///
/// **Argument.** Let `a` give check from `u` in a mate with the loser's king
/// on `s`. If a loser piece `P` that never moves nor is captured (`C = 0`:
/// it stands on its square at the mate) attacks `u` *directly* (a pawn,
/// knight or king step, or a slider next to `u`: no piece can be in
/// between), then `P` capturing `a` is a move, and it is legal unless
/// * another winner piece also gives check (a double check), or
/// * `P` is pinned to its king, which needs a winner slider other than `a`
///   beyond `P` on a line from `s` through `P` (`a` itself cannot pin `P`:
///   it would have to stand on two different lines through `s`; the
///   winner's king never pins).
///
/// So when no other winner piece can ever attack `s` (no double check),
/// and for the `P` with no other winner slider able to stand beyond it on
/// such a line, `u` is excluded; the capture would answer the check, and
/// the position would not be mate. Everything used only grows with the
/// regions (monotone).
fn checker_captures(
    mobility: &Mobility,
    loser: Color,
    s: Square,
    attackers: &[Guard],
    promotes: &[bool],
) -> Vec<Bitboard> {
    let board = mobility.board();
    let fixed = board.occupied() - mobility.cleared();
    let fixed_loser = fixed & (board.by_color(loser) - board.kings());
    let mut result = vec![Bitboard::EMPTY; attackers.len()];
    if fixed_loser.is_empty() {
        return result;
    }
    // Which attackers can ever attack `s` (any line, through anything).
    let can_check: Vec<bool> = attackers
        .iter()
        .zip(promotes)
        .map(|(a, &p)| {
            a.piece.role != Role::King && a.squares.intersects(attack_sources(a.piece, p, s, Bitboard::EMPTY))
        })
        .collect();
    for index in 0..attackers.len() {
        if !can_check[index] || can_check.iter().enumerate().any(|(other, &c)| c && other != index) {
            continue;
        }
        let mut guard = Bitboard::EMPTY;
        for square in fixed_loser {
            let Some(piece) = board.piece_at(square) else { continue };
            if could_be_pinned(s, square, attackers, promotes, index) {
                continue;
            }
            guard |= mobility::direct_attacks(piece.role, loser, square);
        }
        result[index] = guard;
    }
    result
}

/// Whether a winner slider other than attacker `except` can stand beyond
/// `square` on a line from `s` through it (a possible pin of the piece on
/// `square` against a king on `s`).
fn could_be_pinned(s: Square, square: Square, attackers: &[Guard], promotes: &[bool], except: usize) -> bool {
    let line = attacks::line(s, square);
    if line.is_empty() {
        return false;
    }
    let diagonal = attacks::bishop(s, Bitboard::EMPTY).contains(square);
    // The squares of the line beyond `square`, seen from `s`.
    let beyond: Bitboard = line.iter().filter(|&b| attacks::between(s, b).contains(square)).collect();
    attackers.iter().zip(promotes).enumerate().any(|(index, (a, &promoting))| {
        let (along_diagonals, along_lines) = slides(a.piece.role, promoting);
        let slides = if diagonal { along_diagonals } else { along_lines };
        index != except && slides && a.squares.intersects(beyond)
    })
}

/// The last-move condition for a mate of the `loser`'s king on `s`, when
/// it applies: every non-king piece of the loser can never move, and the
/// winner has no castling right and no castling of the loser's leaves its
/// rook where it stands (see the module docs).
fn last_move_condition(mobility: &Mobility, loser: Color, s: Square, obstacles: Bitboard) -> Option<LastMove> {
    let board = mobility.board();
    let winner = !loser;
    if mobility.castling_rights().intersects(CastlingRights::of(winner)) {
        return None;
    }
    // A castling of the loser that only moves its king (see the module docs).
    if mobility.castlings().of_color(loser).any(|path| !path.rook_moves()) {
        return None;
    }
    if ((board.by_color(loser) - board.kings()) & mobility.cleared()).any() {
        return None;
    }
    let loser_king = board.king_of(loser)?;
    let winner_king = board.king_of(winner)?;
    let origins = mobility.region(loser_king) & attacks::king(s);
    // Regions of the winner's pieces that slide diagonally / straight.
    let (mut diagonal, mut straight) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for square in board.by_color(winner) - board.kings() {
        let Some(piece) = board.piece_at(square) else { continue };
        let region = mobility.region(square);
        let (along_diagonals, along_lines) = slides(piece.role, may_promote(piece, region));
        if along_diagonals {
            diagonal |= region;
        }
        if along_lines {
            straight |= region;
        }
    }
    // A king standing on `from` on a ray from `s` uncovers a check if a
    // slider of the ray's kind can stand beyond it on the ray (before the
    // first piece that never moves).
    let mut discovery = Bitboard::EMPTY;
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let sliders = if df == 0 || dr == 0 { straight } else { diagonal };
        let mut ray = Vec::new();
        let (mut file, mut rank) = (s.file() as i32 + df, s.rank() as i32 + dr);
        while (0..8).contains(&file) && (0..8).contains(&rank) {
            let square = Square::new((rank * 8 + file) as u32);
            ray.push(square);
            if obstacles.contains(square) {
                break;
            }
            file += df;
            rank += dr;
        }
        for (i, &from) in ray.iter().enumerate() {
            if obstacles.contains(from) {
                break;
            }
            if ray[i + 1..].iter().any(|&beyond| sliders.contains(beyond)) {
                discovery |= from;
            }
        }
    }
    Some(LastMove { origins, king_region: mobility.region(winner_king), discovery })
}

#[cfg(test)]
mod tests {
    use movegen::Position;

    use super::*;

    /// A cap on the guards modelled may only turn answers into "possible":
    /// with fewer guards than the pieces present, a net that needs a
    /// dropped guard would otherwise be called impossible. Checked on the
    /// dev-set positions, every square of the loser king's region, with
    /// caps from 1 to 4 (the real cap, 24, is rarely reached).
    #[test]
    fn a_guard_cap_never_hides_a_net() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/dev-positions.txt");
        let text = std::fs::read_to_string(path).unwrap();
        let mut compared = 0;
        let mut needed_many = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')).step_by(3) {
            let Some((_, fen)) = line.split_once(' ') else { continue };
            let Ok(pos) = fen.parse::<Position>() else { continue };
            let Ok(mobility) = Mobility::compute(&pos) else { continue };
            for loser in Color::ALL {
                for s in mobility.king_region(loser) {
                    let full = net_possible(&mobility, loser, s);
                    for cap in 1..=4 {
                        let capped = net_possible_capped(&mobility, loser, s, cap);
                        compared += 1;
                        if capped != full {
                            assert_eq!(capped, NetResult::Possible, "{fen} {loser} {s} cap {cap}: {full:?}");
                            needed_many += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
        assert!(needed_many > 0, "the caps must actually bind somewhere");
    }
}
