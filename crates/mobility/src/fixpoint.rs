//! The least fixpoint of the mobility rules (paper Figures 6 and 7),
//! computed with whole-board set operations.
//!
//! The paper's variables are represented as sets:
//!
//! | paper | here |
//! | --- | --- |
//! | `M[P→s]` for all `s` | `regions[P.sq]`: a [`Bitboard`] per piece, indexed by its initial square |
//! | `C[P]` for all `P` | `cleared`: the initial squares of the pieces that can be cleared |
//! | `R[s][c]` for all `s` | `reachable[c]`: a [`Bitboard`] per colour |
//!
//! Figure 7 starts from `M[P→P.sq] = 1` and everything else 0, and sets a
//! variable to 1 as soon as the right-hand side of *every* rule with that
//! variable on the left holds. Here one *pass* first derives `C` and `R`
//! from the current regions (their rules are disjunctions over the regions)
//! and then grows every region by a flood fill that adds a square exactly
//! when all of its rules hold under the current `C` and `R`:
//!
//! * **Move** (non-pawns): `M[P→s] ⇒ ∨ M[P→u], u ∈ pred_P(s)`: the fill
//!   steps from the region to the squares one piece-step away (`dilate`).
//! * **Not self-capture**: `M[P→P'.sq] ⇒ C[P']` for an ally `P'`: squares of
//!   uncleared allies are excluded (`blocked`).
//! * **King attackers**: `M[K→s] ⇒ C[P']` for every enemy `P'` that attacks
//!   `s` directly from its initial square: squares attacked that way by an
//!   uncleared enemy are excluded for the king (`king_danger`).
//! * **Pawn move**: a push onto `s` needs `F_s` (an enemy initially on `s`
//!   must be cleared), a capture onto `s` needs `R[s][¬c]`, and a pawn that
//!   can reach its last rank may go anywhere (still subject to *not
//!   self-capture*).
//! * **Clearance**: `C[P] ⇐` the region of `P` has another square, or some
//!   enemy region contains `P.sq`.
//! * **Reachability**: `R[s][c] ⇐` some non-king piece of colour `c` has `s`
//!   in its region.
//!
//! With [`Rules::FacingPawns`] one rule is added (it is not in the paper):
//!
//! * **Facing pawns**: a pawn `W` may *push* into the initial square of an
//!   enemy pawn `B` that started ahead of it on the same file only if `B`
//!   can leave the file (its region has a square off the file), or `B` can
//!   be captured (a piece of `W`'s colour can stand on, or a pawn of `W`'s
//!   colour attack, a square of `B`'s region), or `W` can leave the file.
//!   *Soundness*: pawns on one file never pass each other (a non-capturing
//!   pawn step only crosses empty squares), and `B` only moves towards `W`.
//!   While both stay on the file, `B` is between `W` and `B`'s initial
//!   square, so `W` can only push into that square after `B` left the file
//!   or was captured, or after `W` itself left the file and came back above
//!   `B`. Each of those events leaves the stated trace in the regions by
//!   Lemma 8 (a capture by a non-pawn ends on a square of both regions; a
//!   pawn captures onto a square it attacks from its region, en passant
//!   included, since the captured pawn passed over the capture square).
//!   The condition grows with the regions, so the operator stays monotone
//!   and the loop below still computes its least fixpoint; the extended
//!   literal implementation in `tests/naive_fixpoint.rs` checks that, and
//!   `tests/over_approximation.rs` checks Lemma 8 for it on random games.
//!
//! When only the games ending in a checkmate by a known colour `W` are
//! covered ([`crate::Games::mates_by`]), one more rule holds (not in the
//! paper):
//!
//! * **Mating pawn moves**: a pawn of `W`'s opponent may not step or
//!   capture onto a square from which it would mate `W`
//!   (`mating_moves.rs`: `W`'s king never moves, the pawn's check is
//!   direct, every square of the king is held or guarded by pieces that
//!   never move, nothing of `W`'s can take on the square). *Soundness*: by
//!   induction over a covered game, every position before the move is
//!   within the regions, and the verification only uses what then holds
//!   after the move (the fixed pieces other than the mover, the regions of
//!   `W`'s pieces); so the move would end the game with `W` mated, and the
//!   game would not be covered. The closed set only shrinks as the regions
//!   grow, so the operator stays monotone. `tests/mating_games.rs` plays
//!   random games into such moves and checks that each one mates.
//!
//! For a piece assumed never captured ([`crate::Games::uncapturable`]),
//! one more rule holds (not in the paper):
//!
//! * **Checks only a capture answers**: the piece never arrives on a square
//!   from which it checks the enemy king when every legal answer would take
//!   it (`forced_captures.rs`: the king never moves and has no square,
//!   the check cannot be blocked, and a capture is legal). The closed set
//!   only shrinks as the regions grow. `tests/forced_captures.rs` plays
//!   random games into such moves and checks that each one is answered
//!   only by the capture.
//!
//! There is no castling rule: a castling is covered by the *move*, *not
//! self-capture* and *king attackers* rules as the king stepping and the
//! rook sliding through squares that are empty and (for the king) not
//! attacked; the argument is in the crate docs.
//!
//! Every step only adds variables whose rules all hold (so nothing above
//! the least fixpoint is ever set), and the loop stops only after a pass
//! that adds nothing (so every variable whose rules all hold is set): the
//! result is exactly the least fixpoint of Figure 7. The test
//! `tests/naive_fixpoint.rs` checks this against a literal one-variable-at-
//! a-time implementation of Figure 7.
//!
//! **Kings last** ([`Rules::Saturation`]). The persistent attacks that close
//! squares to a king are computed from the regions of the pass, and they
//! shrink as regions grow, so this operator is not monotone: the loop
//! ends at *a* set of regions closed under the rules (each evaluated with
//! the persistent attacks of those same regions), and which one depends on
//! the order of growth. Any closed set is sound, by induction over a game:
//! if every piece stood within its region before a move, the move is one
//! the rules allow (a king's target square cannot be persistently attacked:
//! the attacker stands within its region, is never captured, and its line
//! crosses only squares no other piece can stand on, so the move would
//! leave the king in check), so the moved piece stays within its closed
//! region. The loop stops only after a pass in which nothing grew, kings
//! included, so its result is closed. With this rule set the kings grow
//! only in passes where no other region grew: a king that floods through
//! the squares of a group of pieces before the group's regions have
//! spread, whose joint attacks would have closed them
//! (`2B1B1B1/pBpBpBpB/P1P1P1P1/4k3/8/8/4K3/8 w - -`: the bishops of b7
//! and c8 guard a6 between them from every placement, but only once both
//! regions are known), would otherwise keep them: regions never shrink.
//! `tests/over_approximation.rs` checks the result against random games
//! from every dev and hard position, and the test
//! `kings_grow_after_the_group_forms` the regions of that position.

use movegen::{Bitboard, Board, Color, Rank, Role, Square};

use crate::dilate;
use crate::forced_captures::capture_forcing_checks;
use crate::mating_moves::mating_pawn_targets;

/// The saturated variables.
#[derive(Clone, Debug)]
pub(crate) struct Fixpoint {
    pub regions: [Bitboard; 64],
    pub cleared: Bitboard,
    pub reachable: [Bitboard; 2],
}

/// The squares a piece of `role` and `color` standing on `square` attacks
/// *directly*: `{s | square ∈ pred-capt_P(s)}` (sliders only one step).
#[inline]
pub fn direct_attacks(role: Role, color: Color, square: Square) -> Bitboard {
    let one = Bitboard::from(square);
    match role {
        Role::Pawn => dilate::pawn_attacks(one, color),
        Role::Knight => dilate::knight(one),
        Role::Bishop => dilate::diagonal(one),
        Role::Rook => dilate::orthogonal(one),
        Role::Queen | Role::King => dilate::adjacent(one),
    }
}

/// The squares the pieces on `squares` attack directly (each by its own
/// role and colour, see [`direct_attacks`]).
pub(crate) fn direct_attacks_of(board: &Board, squares: Bitboard) -> Bitboard {
    squares
        .iter()
        .filter_map(|square| board.piece_at(square).map(|piece| direct_attacks(piece.role, piece.color, square)))
        .fold(Bitboard::EMPTY, |acc, attacked| acc | attacked)
}

/// The union of the regions of the pieces on `squares`.
pub(crate) fn union_of_regions(regions: &[Bitboard; 64], squares: Bitboard) -> Bitboard {
    squares.iter().fold(Bitboard::EMPTY, |acc, square| acc | regions[square as usize])
}

/// Grows `region` to the closure of one step kind under `allowed`.
#[inline(always)]
fn flood(mut region: Bitboard, allowed: Bitboard, step: impl Fn(Bitboard) -> Bitboard) -> Bitboard {
    let mut frontier = region;
    loop {
        let next = step(frontier) & allowed & !region;
        if next.is_empty() {
            return region;
        }
        region |= next;
        frontier = next;
    }
}

/// Which rules the fixpoint uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rules {
    /// Exactly the paper's Figure 6.
    Paper,
    /// Figure 6 plus the *facing pawns* rule (see the module docs).
    FacingPawns,
    /// Facing pawns, and captures that end the game in stalemate are
    /// taken into account (see [`crate::terminal`]).
    TerminalCaptures,
    /// All of the above, and the *king attackers* rule counts every attacker
    /// that can never be captured, wherever it may stand (see the module
    /// docs: persistent attackers).
    #[default]
    Saturation,
}

impl Rules {
    /// Whether the facing-pawns rule is on.
    pub fn facing_pawns(self) -> bool {
        self != Rules::Paper
    }

    /// Whether pieces whose capture ends the game are kept ([`crate::terminal`]).
    pub fn terminal_captures(self) -> bool {
        matches!(self, Rules::TerminalCaptures | Rules::Saturation)
    }

    /// Whether kings avoid the squares of every persistent attacker.
    pub fn persistent_attackers(self) -> bool {
        self == Rules::Saturation
    }
}

/// For every pawn, the initial squares of the enemy pawns that started
/// ahead of it on its file (the squares the facing-pawns rule guards).
fn facing_squares(board: &Board) -> [Bitboard; 64] {
    let mut facing = [Bitboard::EMPTY; 64];
    for color in Color::ALL {
        let enemies = board.pieces(!color, Role::Pawn);
        for square in board.pieces(color, Role::Pawn) {
            let file = Bitboard::file(square.file());
            // Squares ahead of `square` on its file, from `color`'s side.
            let mut ahead = Bitboard::EMPTY;
            let mut next = Bitboard::from(square).forward(color);
            while next.any() {
                ahead |= next;
                next = next.forward(color);
            }
            facing[square as usize] = enemies & file & ahead;
        }
    }
    facing
}

/// The constraints of one colour's pieces in one pass.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Allowed {
    /// Non-king, non-pawn pieces: everything but uncleared allies.
    piece: Bitboard,
    /// The king: also not next to (or a knight/pawn attack away from) an
    /// uncleared enemy that attacks the square directly (and, with
    /// [`Rules::Saturation`], not persistently attacked: taken off where
    /// the kings grow, the only place it is needed).
    king: Bitboard,
    /// Pawn pushes: no uncleared piece of either colour on the target.
    push: Bitboard,
    /// Pawn captures: squares enemy non-king pieces can reach, no uncleared ally.
    capture: Bitboard,
}

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
fn persistent_attacks(
    board: &Board,
    regions: &[Bitboard; 64],
    reach: [Bitboard; 2],
    never_captured: Bitboard,
) -> [Bitboard; 2] {
    let occupied = board.occupied();
    let mut result = [Bitboard::EMPTY; 2];
    // Union of the regions of all pieces but one, by prefix/suffix unions
    // (on the stack: this runs in every pass of the fixpoint).
    let mut suffix = [Bitboard::EMPTY; 65];
    let mut count = 0;
    for (i, square) in occupied.iter().enumerate() {
        suffix[i] = regions[square as usize];
        count = i + 1;
    }
    for i in (0..count).rev() {
        suffix[i] |= suffix[i + 1];
    }
    let mut prefix = Bitboard::EMPTY;
    for (i, square) in occupied.iter().enumerate() {
        let region = regions[square as usize];
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
    for color in Color::ALL {
        result[color as usize] |= group_attacks(board, regions, reach, never_captured, color);
    }
    result
}

/// Whether the piece on `square` is on some square of its region at every
/// moment and keeps its kind: never captured (assumed so, or no enemy
/// region meets its region) and not a pawn that may promote.
fn persists(
    board: &Board,
    regions: &[Bitboard; 64],
    reach: [Bitboard; 2],
    never_captured: Bitboard,
    square: Square,
) -> bool {
    let Some(piece) = board.piece_at(square) else { return false };
    let region = regions[square as usize];
    let capturable = !never_captured.contains(square) && region.intersects(reach[!piece.color as usize]);
    let may_promote = piece.role == Role::Pawn && region.intersects(Bitboard::relative_rank(piece.color, Rank::Eighth));
    !capturable && !may_promote
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
fn group_attacks(
    board: &Board,
    regions: &[Bitboard; 64],
    reach: [Bitboard; 2],
    never_captured: Bitboard,
    color: Color,
) -> Bitboard {
    let ours = board.by_color(color) - board.kings();
    // The squares the kings and the other colour's pieces may stand on: a
    // member whose region meets them would make its group fail the check
    // below, so it is left out at once.
    let foreign = union_of_regions(regions, board.occupied() - ours);
    let candidates: Bitboard = ours
        .iter()
        .filter(|&sq| persists(board, regions, reach, never_captured, sq) && !regions[sq as usize].intersects(foreign))
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
        let mut union = regions[seed as usize];
        loop {
            let more: Bitboard = (alike - group).iter().filter(|&sq| regions[sq as usize].intersects(union)).collect();
            if more.is_empty() {
                break;
            }
            group |= more;
            for sq in more {
                union |= regions[sq as usize];
            }
        }
        done |= group;
        let n = group.count();
        if n < 2 {
            continue;
        }
        // Nothing else may ever stand on the group's squares.
        let others = union_of_regions(regions, board.occupied() - group);
        if others.intersects(union) {
            continue;
        }
        let size = union.count();
        if size > 40 || binomial(size, n) > MAX_PLACEMENTS {
            continue;
        }
        let members: Vec<Bitboard> = group.iter().map(|sq| regions[sq as usize]).collect();
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
    let squares: Vec<Square> = placed.iter().collect();
    if squares.len() != members.len() {
        return false;
    }
    let mut owner: Vec<Option<usize>> = vec![None; squares.len()];
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
    (0..members.len()).all(|piece| augment(piece, members, &squares, &mut owner, &mut vec![false; squares.len()]))
}

/// `n` choose `k` (`k <= n`), saturating.
fn binomial(n: u32, k: u32) -> u64 {
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(u64::from(n - i)) / u64::from(i + 1))
}

/// Saturates the rules on `board`. The pieces on `frozen` are assumed never
/// to move nor be captured: they count as uncleared whatever their regions
/// say, and no enemy may enter their squares (see [`crate::terminal`] for
/// when that assumption is justified). The pieces on `uncapturable` are
/// assumed never to be captured (they may move): they are cleared only by
/// moving, no pawn captures onto a square only they can occupy, an enemy
/// may not enter their square while they have not moved, and they count
/// as persistent attackers (see [`crate::Mobility::compute_assuming`]).
/// The pieces on `immobile` are assumed never to move (they may be
/// captured where they stand): their regions are not grown, so they are
/// cleared only by capture (see [`crate::immobile_pieces`] for when that
/// assumption is justified). With the three sets empty this is exactly the
/// fixpoint of the rules.
pub(crate) fn saturate(
    board: &Board,
    rules: Rules,
    frozen: Bitboard,
    uncapturable: Bitboard,
    immobile: Bitboard,
    mates_by: Option<Color>,
) -> Fixpoint {
    saturate_watching(board, rules, frozen, uncapturable, immobile, mates_by, Bitboard::EMPTY)
        .expect("no piece is watched")
}

/// [`saturate`], abandoned (`None`) as soon as the region of a piece on
/// `watched` grows beyond its square: the regions only grow, so that piece
/// may move in the fixpoint too (used by [`crate::immobile_pieces`]).
pub(crate) fn saturate_watching(
    board: &Board,
    rules: Rules,
    frozen: Bitboard,
    uncapturable: Bitboard,
    immobile: Bitboard,
    mates_by: Option<Color>,
    watched: Bitboard,
) -> Option<Fixpoint> {
    // Kings are never captured (the paper's rules let an enemy region
    // reaching a king's square clear it; with the persistent-attackers
    // rules, a king is cleared only by moving, and its square is closed to
    // enemies until it may have moved).
    let kings = if rules.persistent_attackers() { board.kings() } else { Bitboard::EMPTY };
    let never_captured = frozen | uncapturable | kings;
    let occupied = board.occupied();
    let mut regions = [Bitboard::EMPTY; 64];
    for square in occupied {
        regions[square as usize] = Bitboard::from(square);
    }
    let mut previous = [Allowed::default(); 2];
    let mut first_pass = true;
    let facing = if rules.facing_pawns() { facing_squares(board) } else { [Bitboard::EMPTY; 64] };
    let any_facing = facing.iter().any(|f| f.any());
    // Per pawn: the guarded squares its pushes may not enter yet.
    let mut push_guard = [Bitboard::EMPTY; 64];
    let mut previous_guard = [Bitboard::EMPTY; 64];
    // Per piece never captured: squares closed by a check only a capture
    // answers (see [`crate::forced_captures`]).
    let mut forcing = [Bitboard::EMPTY; 64];
    loop {
        // Clearance and reachability, derived from the regions.
        let mut reach = [Bitboard::EMPTY; 2];
        let mut reachable = [Bitboard::EMPTY; 2];
        // Squares where a non-king piece that may be captured can stand.
        let mut victims = [Bitboard::EMPTY; 2];
        let mut moved = Bitboard::EMPTY;
        for square in occupied {
            let region = regions[square as usize];
            let color = if board.by_color(Color::White).contains(square) { Color::White } else { Color::Black };
            reach[color as usize] |= region;
            if !board.kings().contains(square) {
                reachable[color as usize] |= region;
                if !never_captured.contains(square) {
                    victims[color as usize] |= region;
                }
            }
            if region != Bitboard::from(square) {
                moved |= square;
            }
        }
        let white = board.by_color(Color::White);
        let black = board.by_color(Color::Black);
        let captured =
            ((white & reach[Color::Black as usize]) | (black & reach[Color::White as usize])) - never_captured;
        let cleared = (moved | captured) - frozen;
        let uncleared = occupied - cleared;

        // Games ending in the winner's mate: squares the loser's pawns may
        // not step or capture onto, as that would mate the winner.
        let mut mating = [Bitboard::EMPTY; 2];
        if let Some(winner) = mates_by {
            mating[!winner as usize] = mating_pawn_targets(board, &regions, uncleared, winner);
        }
        let mut allowed = [Allowed::default(); 2];
        for color in Color::ALL {
            let ours = board.by_color(color);
            let blocked = uncleared & ours;
            // Enemies that are never captured and have not moved: their
            // squares are closed.
            let closed = blocked | (never_captured & uncleared & board.by_color(!color));
            // The persistent attacks are added when the kings grow.
            let danger = direct_attacks_of(board, uncleared & board.by_color(!color));
            allowed[color as usize] = Allowed {
                piece: !closed,
                king: !closed & !danger,
                push: !uncleared & !mating[color as usize],
                capture: victims[!color as usize] & !closed & !mating[color as usize],
            };
        }

        // Facing pawns: which guarded squares are still closed.
        let mut guards_changed = [false; 2];
        if any_facing {
            let pawns = board.pawns();
            let mut capture_reach = [Bitboard::EMPTY; 2];
            for square in occupied {
                let color = if white.contains(square) { Color::White } else { Color::Black };
                let region = regions[square as usize];
                capture_reach[color as usize] |=
                    if pawns.contains(square) { dilate::pawn_attacks(region, color) } else { region };
            }
            let leaves_file = |square: Square| (regions[square as usize] - Bitboard::file(square.file())).any();
            for square in pawns {
                let guarded = facing[square as usize];
                if guarded.is_empty() {
                    continue;
                }
                let color = if white.contains(square) { Color::White } else { Color::Black };
                let mut closed = Bitboard::EMPTY;
                if !leaves_file(square) {
                    for enemy in guarded {
                        let capturable = regions[enemy as usize].intersects(capture_reach[color as usize]);
                        if !leaves_file(enemy) && !capturable {
                            closed |= enemy;
                        }
                    }
                }
                push_guard[square as usize] = closed;
                if closed != previous_guard[square as usize] {
                    guards_changed[color as usize] = true;
                }
            }
            previous_guard = push_guard;
        }

        let mut forcing_changed = [false; 2];
        for square in uncapturable & occupied {
            let closed = capture_forcing_checks(board, &regions, uncleared, square);
            if closed != forcing[square as usize] {
                forcing[square as usize] = closed;
                let color = if white.contains(square) { Color::White } else { Color::Black };
                forcing_changed[color as usize] = true;
            }
        }

        let mut grew = false;
        for color in Color::ALL {
            let constraints = allowed[color as usize];
            // Every region but the kings' is already closed under last
            // pass's constraints (the fills below run to completion); with
            // the same constraints a refill cannot add anything.
            if !first_pass
                && constraints == previous[color as usize]
                && !guards_changed[color as usize]
                && !forcing_changed[color as usize]
            {
                continue;
            }
            let promotion_rank = Bitboard::relative_rank(color, Rank::Eighth);
            for square in board.by_color(color) - immobile - board.kings() {
                let region = regions[square as usize];
                let role = board.role_at(square).unwrap_or(Role::Pawn);
                let piece_allowed = constraints.piece - forcing[square as usize];
                let grown = match role {
                    Role::Knight => flood(region, piece_allowed, dilate::knight),
                    Role::Bishop => flood(region, piece_allowed, dilate::diagonal),
                    Role::Rook => flood(region, piece_allowed, dilate::orthogonal),
                    Role::Queen => flood(region, piece_allowed, dilate::adjacent),
                    // Kings grow below.
                    Role::King => region,
                    Role::Pawn => {
                        let push_allowed = constraints.push & !push_guard[square as usize];
                        let grown = flood(region, Bitboard::FULL, |frontier| {
                            (dilate::pawn_push(frontier, color) & push_allowed)
                                | (dilate::pawn_attacks(frontier, color) & constraints.capture)
                        });
                        if grown.intersects(promotion_rank) { grown | constraints.piece } else { grown }
                    }
                };
                if grown != region {
                    regions[square as usize] = grown;
                    grew = true;
                    if watched.contains(square) {
                        return None;
                    }
                }
            }
        }
        // The kings, after the other pieces have stopped growing when the
        // persistent attacks make the order matter (see "Kings last" in the
        // module docs); otherwise with every pass (a monotone operator has
        // one least fixpoint, whatever the order).
        if !(rules.persistent_attackers() && grew) {
            // Only the kings' constraints use the persistent attacks, so
            // they are computed only in the passes where the kings grow.
            let persistent = if rules.persistent_attackers() {
                persistent_attacks(board, &regions, reach, never_captured)
            } else {
                [Bitboard::EMPTY; 2]
            };
            for square in board.kings() - immobile {
                let region = regions[square as usize];
                let color = if white.contains(square) { Color::White } else { Color::Black };
                let grown = flood(region, allowed[color as usize].king - persistent[!color as usize], dilate::adjacent);
                if grown != region {
                    regions[square as usize] = grown;
                    grew = true;
                    if watched.contains(square) {
                        return None;
                    }
                }
            }
        }
        previous = allowed;
        first_pass = false;
        if !grew {
            return Some(Fixpoint { regions, cleared, reachable });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mobility;
    use movegen::Position;

    /// Kings last: in this locked position (a dead one in the dev set) the
    /// white bishops shuffle on a8, b7, c8, d7, e8, f7, g8 and h7, one
    /// square always empty, so a6, c6, e6 and g6 are guarded from every
    /// placement (through the empty square if need be): the black king
    /// never takes a pawn there, the pawns never move, and the bishops never
    /// leave those squares. Flooding the king before the bishops' regions
    /// spread let it take a6 (every region became the whole board).
    #[test]
    fn kings_grow_after_the_group_forms() {
        let pos: Position = "2B1B1B1/pBpBpBpB/P1P1P1P1/4k3/8/8/4K3/8 w - -".parse().unwrap();
        let mobility = Mobility::compute(&pos).unwrap();
        let rank_7_8_light: Bitboard =
            [Square::A8, Square::B7, Square::C8, Square::D7, Square::E8, Square::F7, Square::G8, Square::H7]
                .into_iter()
                .collect();
        for pawn in [Square::A6, Square::C6, Square::E6, Square::G6, Square::A7, Square::C7, Square::E7, Square::G7] {
            assert_eq!(mobility.region(pawn), Bitboard::from(pawn), "{pawn:?}");
        }
        assert_eq!(mobility.region(Square::B7), rank_7_8_light);
        let king = mobility.region(Square::E5);
        assert!(!king.contains(Square::A6) && !king.contains(Square::B7) && king.contains(Square::B6));
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
            let mut regions = [Bitboard::EMPTY; 64];
            let mut reach = [Bitboard::EMPTY; 2];
            for (square, piece, region) in mobility.pieces() {
                regions[square as usize] = region;
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
