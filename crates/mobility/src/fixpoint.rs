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
//! With [`Rules::FacingPawns`] two rules are added (they are not in the
//! paper):
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
//! * **Own pawn behind** (with facing pawns): a rook or queen `P` that
//!   started ahead of a pawn `W` of its colour on the same file (ahead as
//!   `W` moves) may enter the squares of that file at or behind `W`'s
//!   initial square only if `P` can leave the file, or `W` can (its region
//!   has a square off the file), or `W` can be captured (an enemy can stand
//!   on, or an enemy pawn attack, a square of `W`'s region).
//!   *Soundness*: a rook or queen moving along its file crosses and lands
//!   on empty squares only, and a pawn pushes onto empty squares only, so
//!   while both stay on the file neither passes the other, and `W` only
//!   moves towards `P`: `P` stays ahead of `W`, so ahead of `W`'s initial
//!   square. (`W` cannot promote meanwhile: `P` is ahead of it.) So `P`
//!   reaches a guarded square only after it left the file, or `W` left it
//!   (a capture) or was captured (en passant included, on a square `W`
//!   passed over); each leaves the stated trace in the regions by Lemma 8.
//!   (`P` captured: it stands nowhere any more.) The condition grows with
//!   the regions, as for facing pawns; `tests/naive_fixpoint.rs` and
//!   `tests/over_approximation.rs` check it the same way. In a locked
//!   chain this keeps a rook between its pawn and its blocked neighbours
//!   (`8/1p3b2/pPp1p1p1/BkP1P1P1/RP1B4/BPB5/PKP5/8 w`: the rook of a4
//!   stays on a3 and a4).
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
//! For a piece assumed never captured ([`crate::Games::uncapturable`]) in
//! the games that end in a checkmate ([`crate::Games::mates_by`]), one more
//! rule holds (not in the paper):
//!
//! * **Checks only a capture answers**: the piece never arrives on a square
//!   from which it checks the enemy king when every legal answer would take
//!   it (`forced_captures.rs`: the king never moves and has no square,
//!   the check cannot be blocked, and a capture is legal). The closed set
//!   only shrinks as the regions grow. `tests/forced_captures.rs` plays
//!   random games into such moves and checks that each one is answered
//!   only by the capture.
//!
//! **Castling** (not in the paper, which excludes castling rights): for
//! each right of the analysed position, unless a piece that never leaves
//! its square stands where the castling needs an empty square or attacks
//! directly a square the king crosses or lands on, the king's region gets
//! its destination and the rook's its own ([`crate::castling`], with the
//! argument, which covers Chess960).
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

use movegen::{Bitboard, Board, CastlingPath, Color, Rank, Role, Square};

use crate::castling::Castlings;
use crate::forced_captures::capture_forcing_checks;
use crate::mating_moves::mating_pawn_targets;
use crate::persistent::persistent_attacks;
use crate::{Games, Regions, dilate};

/// The saturated variables.
#[derive(Clone, Debug)]
pub(crate) struct Fixpoint {
    pub regions: Regions,
    pub cleared: Bitboard,
    pub reachable: [Bitboard; 2],
    /// The pieces assumed frozen ([`Assumptions::frozen`]).
    pub frozen: Bitboard,
}

/// What the fixpoint assumes about the games it covers: the narrowing of
/// [`Games`] (pieces never captured, games ending in a mate by one colour,
/// pieces that never move), and the pieces `frozen`, assumed never to move
/// nor be captured (they count as uncleared whatever their regions say,
/// and no enemy may enter their squares; see [`crate::terminal`] for when
/// that assumption is justified).
///
/// The pieces on `games.uncapturable` are cleared only by moving, no pawn
/// captures onto a square only they can occupy, an enemy may not enter
/// their square while they have not moved, and they count as persistent
/// attackers (see [`crate::Mobility::compute_assuming`]). The pieces on
/// `games.immobile` are not grown, so they are cleared only by capture
/// (see [`crate::immobile_pieces`]). With nothing assumed, the fixpoint is
/// exactly that of the rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Assumptions {
    pub games: Games,
    pub frozen: Bitboard,
    /// The castlings of the analysed position's rights (not an assumption:
    /// a fact the castling rule needs).
    pub castlings: Castlings,
    /// The pieces of `games.uncapturable` assumed never captured only up
    /// to their first move ([`crate::immobile_pieces`]): the checks only a
    /// capture answers are not closed to them, since the capture that
    /// would follow such a first move lies beyond what is assumed.
    pub spared_until_first_move: Bitboard,
}

impl Assumptions {
    /// Only the narrowing of `games`, nothing frozen.
    pub fn of(games: Games, castlings: Castlings) -> Assumptions {
        Assumptions { games, frozen: Bitboard::EMPTY, castlings, spared_until_first_move: Bitboard::EMPTY }
    }
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

/// A slider's [`flood`] when it may never stop on the `closed` squares
/// (the checks only a capture answers) but may slide over those of them
/// that `allowed` holds (no piece stands there for good): the fill goes
/// through them and only the squares it reaches are kept without them (the
/// piece's own squares stay). Turning on a closed square is allowed too: a
/// larger region, never a smaller one.
fn flood_passing(
    region: Bitboard,
    allowed: Bitboard,
    closed: Bitboard,
    step: impl Fn(Bitboard) -> Bitboard,
) -> Bitboard {
    region | (flood(region, allowed, step) - closed)
}

/// Which rules the fixpoint uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rules {
    /// Exactly the paper's Figure 6.
    Paper,
    /// Figure 6 plus the *facing pawns* and *own pawn behind* rules (see
    /// the module docs).
    FacingPawns,
    /// Facing pawns, and captures that end the game in stalemate are
    /// taken into account (see [`crate::terminal`]).
    TerminalCaptures,
    /// All of the above, and the *king attackers* rule counts every attacker
    /// that can never be captured, wherever it may stand (see the module
    /// docs: persistent attackers).
    #[default]
    Saturation,
    /// [`Rules::Saturation`] without the three rules the independent
    /// checker (`crates/check`) does not verify: the persistent attacks of
    /// groups, the checks only a capture answers, and the pieces kept still
    /// because each of their first moves would mate the winner. Regions
    /// closed under these rules are what a static certificate carries
    /// (`docs/certificates.md`); they are closed under the checker's rules.
    Certified,
}

impl Rules {
    /// Whether the facing-pawns and own-pawn-behind rules are on.
    pub fn facing_pawns(self) -> bool {
        self != Rules::Paper
    }

    /// Whether pieces whose capture ends the game are kept ([`crate::terminal`]).
    pub fn terminal_captures(self) -> bool {
        matches!(self, Rules::TerminalCaptures | Rules::Saturation | Rules::Certified)
    }

    /// Whether kings avoid the squares of every persistent attacker.
    pub fn persistent_attackers(self) -> bool {
        matches!(self, Rules::Saturation | Rules::Certified)
    }

    /// Whether groups of like pieces count as persistent attackers
    /// (`crate::persistent`).
    pub fn group_attacks(self) -> bool {
        self == Rules::Saturation
    }

    /// Whether a piece never captured avoids the squares where only its
    /// capture answers its check (`crate::forced_captures`).
    pub fn forced_captures(self) -> bool {
        self != Rules::Certified
    }

    /// Whether the terminal rule keeps still a piece each of whose first
    /// moves mates the winner ([`crate::terminal`]).
    pub fn mating_first_moves(self) -> bool {
        self != Rules::Certified
    }
}

/// The *file partners* of the two file rules, per piece: for a pawn, the
/// enemy pawns that started ahead of it on its file (facing pawns); for a
/// rook or queen, the pawns of its colour that started behind it there
/// (own pawn behind). A piece and its partner cannot pass each other while
/// both stay on the file and the partner is not captured.
fn file_partners(board: &Board) -> [Bitboard; 64] {
    let mut partners = [Bitboard::EMPTY; 64];
    for color in Color::ALL {
        let (ours, theirs) = (board.pieces(color, Role::Pawn), board.pieces(!color, Role::Pawn));
        for square in ours {
            partners[square as usize] = theirs & ahead_on_file(square, color);
        }
        for square in board.rooks_and_queens() & board.by_color(color) {
            partners[square as usize] = ours & ahead_on_file(square, !color);
        }
    }
    partners
}

/// The squares of `square`'s file ahead of it as a pawn of `color` moves.
fn ahead_on_file(square: Square, color: Color) -> Bitboard {
    let mut ahead = Bitboard::EMPTY;
    let mut next = Bitboard::from(square).forward(color);
    while next.any() {
        ahead |= next;
        next = next.forward(color);
    }
    ahead
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
    /// The squares of the uncleared pieces, both colours: a slider passes
    /// over a square closed to it ([`capture_forcing_checks`]) only when
    /// no such piece stands there.
    uncleared: Bitboard,
    /// The castlings the castling rule lets through in this pass.
    castles: [Option<CastlingPath>; 2],
}

/// Clearance and reachability (`C` and `R`), derived from the regions of
/// one pass.
struct Clearance {
    /// Per colour, the union of its regions (kings included).
    reach: [Bitboard; 2],
    /// `R[·][c]`: per colour, the union of its non-king regions.
    reachable: [Bitboard; 2],
    /// Per colour, the squares where a non-king piece that may be captured
    /// can stand.
    victims: [Bitboard; 2],
    /// `C`: the pieces that may move or be captured.
    cleared: Bitboard,
    /// The others: on their squares for the whole game.
    uncleared: Bitboard,
}

/// Which region grew in a step: `Err` as soon as a watched piece's did.
type Growth = Result<bool, Watched>;

/// A watched piece's region grew ([`saturate_watching`]).
struct Watched;

/// The state of the fixpoint between passes.
struct Saturation<'a> {
    board: &'a Board,
    rules: Rules,
    assumptions: Assumptions,
    /// Kings (with the persistent-attackers rules), the frozen and the
    /// uncapturable pieces.
    never_captured: Bitboard,
    regions: Regions,
    /// Per piece: its [`file_partners`] (all empty without the
    /// facing-pawns rules).
    partners: [Bitboard; 64],
    /// The pieces with a file partner.
    partnered: Bitboard,
    /// Per piece: the squares the file rules still close to it (a pawn's
    /// pushes, a rook's or queen's moves).
    file_guard: [Bitboard; 64],
    /// Per piece never captured: squares closed by a check only a capture
    /// answers (see [`crate::forced_captures`]).
    forcing: [Bitboard; 64],
    /// The constraints of the last pass (the pieces' regions are closed
    /// under them).
    previous: Option<[Allowed; 2]>,
    watched: Bitboard,
}

impl Saturation<'_> {
    /// The colour of the piece on `square` (White if none).
    fn color_of(&self, square: Square) -> Color {
        if self.board.by_color(Color::White).contains(square) { Color::White } else { Color::Black }
    }

    /// Step 1: `C` and `R` from the regions (*clearance*, *reachability*).
    fn clearance(&self) -> Clearance {
        let board = self.board;
        let mut reach = [Bitboard::EMPTY; 2];
        let mut reachable = [Bitboard::EMPTY; 2];
        let mut victims = [Bitboard::EMPTY; 2];
        let mut moved = Bitboard::EMPTY;
        for square in board.occupied() {
            let region = self.regions[square];
            let color = self.color_of(square);
            reach[color as usize] |= region;
            if !board.kings().contains(square) {
                reachable[color as usize] |= region;
                if !self.never_captured.contains(square) {
                    victims[color as usize] |= region;
                }
            }
            if self.regions.moves(square) {
                moved |= square;
            }
        }
        let white = board.by_color(Color::White);
        let black = board.by_color(Color::Black);
        let captured =
            ((white & reach[Color::Black as usize]) | (black & reach[Color::White as usize])) - self.never_captured;
        let cleared = (moved | captured) - self.assumptions.frozen;
        Clearance { reach, reachable, victims, cleared, uncleared: board.occupied() - cleared }
    }

    /// Step 2: what each colour's pieces may enter in this pass (*not
    /// self-capture*, *king attackers*, *pawn move*, and with
    /// [`Games::mates_by`] the *mating pawn moves*).
    fn constraints(&self, clearance: &Clearance) -> [Allowed; 2] {
        let board = self.board;
        let uncleared = clearance.uncleared;
        // Games ending in the winner's mate: squares the loser's pawns may
        // not step or capture onto, as that would mate the winner.
        let mut mating = [Bitboard::EMPTY; 2];
        if let Some(winner) = self.assumptions.games.mates_by {
            mating[!winner as usize] = mating_pawn_targets(board, &self.regions, uncleared, winner);
        }
        Color::ALL.map(|color| {
            let blocked = uncleared & board.by_color(color);
            // Enemies that are never captured and have not moved: their
            // squares are closed.
            let closed = blocked | (self.never_captured & uncleared & board.by_color(!color));
            // The persistent attacks are added when the kings grow.
            let danger = crate::geometry::direct_attacks_of(board, uncleared & board.by_color(!color));
            let still = self.assumptions.games.immobile | self.assumptions.frozen;
            Allowed {
                piece: !closed,
                uncleared,
                king: !closed & !danger,
                push: !uncleared & !mating[color as usize],
                capture: clearance.victims[!color as usize] & !closed & !mating[color as usize],
                castles: self.assumptions.castlings.possible(color, uncleared, danger, still),
            }
        })
    }

    /// Step 3 (*facing pawns*, *own pawn behind*): which squares are still
    /// closed to each piece with a file partner; per colour, whether that
    /// changed. The guard holds while the piece and the partner stay on the
    /// file and the partner cannot be captured: it closes the partner's
    /// square to a pawn, and to a rook or queen the partner's square and
    /// every square behind it.
    fn update_file_guards(&mut self) -> [bool; 2] {
        let mut changed = [false; 2];
        if self.partnered.is_empty() {
            return changed;
        }
        let capture_reach = self.capture_reach();
        let regions = &self.regions;
        let leaves_file = |square: Square| (regions[square] - Bitboard::file(square.file())).any();
        for square in self.partnered {
            let color = self.color_of(square);
            let pawn = self.board.pawns().contains(square);
            let mut closed = Bitboard::EMPTY;
            if !leaves_file(square) {
                for partner in self.partners[square as usize] {
                    let capturer = if pawn { color } else { !color };
                    let capturable = regions[partner].intersects(capture_reach[capturer as usize]);
                    if !leaves_file(partner) && !capturable {
                        closed |= if pawn { partner.into() } else { ahead_on_file(partner, !color).with(partner) };
                    }
                }
            }
            if closed != self.file_guard[square as usize] {
                changed[color as usize] = true;
            }
            self.file_guard[square as usize] = closed;
        }
        changed
    }

    /// Per colour, the squares on which its pieces could capture: the
    /// regions of its pieces, the squares its pawns attack from theirs.
    fn capture_reach(&self) -> [Bitboard; 2] {
        let pawns = self.board.pawns();
        let mut capture_reach = [Bitboard::EMPTY; 2];
        for square in self.board.occupied() {
            let color = self.color_of(square);
            let region = self.regions[square];
            capture_reach[color as usize] |=
                if pawns.contains(square) { dilate::pawn_attacks(region, color) } else { region };
        }
        capture_reach
    }

    /// Step 4 (*checks only a capture answers*): the squares closed to
    /// each piece assumed never captured; per colour, whether that changed.
    fn update_forcing(&mut self, uncleared: Bitboard) -> [bool; 2] {
        let mut changed = [false; 2];
        // The rule counts on the move after the arrival (a capture, every
        // legal answer being one): only games that end in a mate go on
        // after a check that is no mate. Covering every game, a game may
        // stop at the arrival, with the piece never captured.
        if !self.rules.forced_captures() || self.assumptions.games.mates_by.is_none() {
            return changed;
        }
        let spared = self.assumptions.games.uncapturable - self.assumptions.spared_until_first_move;
        for square in spared & self.board.occupied() {
            let closed = capture_forcing_checks(self.board, &self.regions, uncleared, square);
            if closed != self.forcing[square as usize] {
                self.forcing[square as usize] = closed;
                changed[self.color_of(square) as usize] = true;
            }
        }
        changed
    }

    /// Replaces the region of the piece on `square` by `grown`: whether it
    /// grew (`Err` if that piece is watched).
    fn set_region(&mut self, square: Square, grown: Bitboard) -> Growth {
        if grown == self.regions[square] {
            return Ok(false);
        }
        self.regions[square] = grown;
        if self.watched.contains(square) { Err(Watched) } else { Ok(true) }
    }

    /// Step 5 (*move*, *pawn move*): floods the regions of the pieces other
    /// than the kings under the constraints, for each colour whose
    /// constraints changed (`changed`: its guards or forcing squares).
    fn grow_pieces(&mut self, allowed: &[Allowed; 2], changed: [bool; 2]) -> Growth {
        let board = self.board;
        let mut grew = false;
        for color in Color::ALL {
            let constraints = allowed[color as usize];
            // Every region but the kings' is already closed under last
            // pass's constraints (the fills below run to completion); with
            // the same constraints a refill cannot add anything.
            if self.previous.is_some_and(|previous| previous[color as usize] == constraints) && !changed[color as usize]
            {
                continue;
            }
            let promotion_rank = Bitboard::relative_rank(color, Rank::Eighth);
            for square in board.by_color(color) - self.assumptions.games.immobile - board.kings() {
                // The castling rule: a castling rook also stands on its
                // destination.
                let castled = constraints.castles.iter().flatten().filter(|c| c.rook == square).map(|c| c.rook_to);
                let region = castled.fold(self.regions[square], Bitboard::with);
                let role = board.role_at(square).unwrap_or(Role::Pawn);
                let closed = self.forcing[square as usize];
                // A slider may slide over a closed square no uncleared piece
                // holds; never onto the squares behind its own pawn.
                let through = constraints.piece - (closed & constraints.uncleared) - self.file_guard[square as usize];
                let grown = match role {
                    Role::Knight => flood(region, constraints.piece - closed, dilate::knight),
                    Role::Bishop => flood_passing(region, through, closed, dilate::diagonal),
                    Role::Rook => flood_passing(region, through, closed, dilate::orthogonal),
                    Role::Queen => flood_passing(region, through, closed, dilate::adjacent),
                    // Kings grow in their own step.
                    Role::King => region,
                    Role::Pawn => {
                        let push_allowed = constraints.push & !self.file_guard[square as usize];
                        let grown = flood(region, Bitboard::FULL, |frontier| {
                            (dilate::pawn_push(frontier, color) & push_allowed)
                                | (dilate::pawn_attacks(frontier, color) & constraints.capture)
                        });
                        if grown.intersects(promotion_rank) { grown | constraints.piece } else { grown }
                    }
                };
                grew |= self.set_region(square, grown)?;
            }
        }
        Ok(grew)
    }

    /// Step 6 (*move*, *king attackers*): floods the kings' regions, away
    /// from the persistent attacks when the rules count them.
    fn grow_kings(&mut self, allowed: &[Allowed; 2], reach: [Bitboard; 2]) -> Growth {
        // Only the kings' constraints use the persistent attacks, so they
        // are computed only in the passes where the kings grow.
        let persistent = if self.rules.persistent_attackers() {
            persistent_attacks(self.board, &self.regions, reach, self.never_captured, self.rules.group_attacks())
        } else {
            [Bitboard::EMPTY; 2]
        };
        let mut grew = false;
        for square in self.board.kings() - self.assumptions.games.immobile {
            let color = self.color_of(square);
            // The castling rule: a castling king also stands on its
            // destination.
            let castled =
                allowed[color as usize].castles.iter().flatten().filter(|c| c.king == square).map(|c| c.king_to);
            let grown = flood(
                castled.fold(self.regions[square], Bitboard::with),
                allowed[color as usize].king - persistent[!color as usize],
                dilate::adjacent,
            );
            grew |= self.set_region(square, grown)?;
        }
        Ok(grew)
    }
}

/// Saturates the rules on `board` under `assumptions` (see
/// [`Assumptions`]).
pub(crate) fn saturate(board: &Board, rules: Rules, assumptions: Assumptions) -> Fixpoint {
    saturate_watching(board, rules, assumptions, Bitboard::EMPTY).expect("no piece is watched")
}

/// [`saturate`], abandoned (`None`) as soon as the region of a piece on
/// `watched` grows beyond its square: the regions only grow, so that piece
/// may move in the fixpoint too (used by [`crate::immobile_pieces`]).
///
/// Each pass runs the steps of [`Saturation`] in order: `C` and `R` from
/// the regions, the constraints they give, the file guards (facing pawns,
/// own pawn behind) and the forcing squares, then the pieces grow, and the
/// kings (see "Kings last" in the module docs). It ends after a pass in
/// which nothing grew.
pub(crate) fn saturate_watching(
    board: &Board,
    rules: Rules,
    assumptions: Assumptions,
    watched: Bitboard,
) -> Option<Fixpoint> {
    // Kings are never captured (the paper's rules let an enemy region
    // reaching a king's square clear it; with the persistent-attackers
    // rules, a king is cleared only by moving, and its square is closed to
    // enemies until it may have moved).
    let kings = if rules.persistent_attackers() { board.kings() } else { Bitboard::EMPTY };
    let partners = if rules.facing_pawns() { file_partners(board) } else { [Bitboard::EMPTY; 64] };
    let mut state = Saturation {
        board,
        rules,
        assumptions,
        never_captured: assumptions.frozen | assumptions.games.uncapturable | kings,
        regions: Regions::own_squares(board.occupied()),
        partners,
        partnered: board.occupied().iter().filter(|&square| partners[square as usize].any()).collect(),
        file_guard: [Bitboard::EMPTY; 64],
        forcing: [Bitboard::EMPTY; 64],
        previous: None,
        watched,
    };
    loop {
        let clearance = state.clearance();
        let allowed = state.constraints(&clearance);
        let guards_changed = state.update_file_guards();
        let forcing_changed = state.update_forcing(clearance.uncleared);
        let changed = [0, 1].map(|c| guards_changed[c] || forcing_changed[c]);
        let mut grew = state.grow_pieces(&allowed, changed).ok()?;
        // The kings, after the other pieces have stopped growing when the
        // persistent attacks make the order matter (see "Kings last" in the
        // module docs); otherwise with every pass (a monotone operator has
        // one least fixpoint, whatever the order).
        if !(rules.persistent_attackers() && grew) {
            grew |= state.grow_kings(&allowed, clearance.reach).ok()?;
        }
        state.previous = Some(allowed);
        if !grew {
            return Some(Fixpoint {
                regions: state.regions,
                cleared: clearance.cleared,
                reachable: clearance.reachable,
                frozen: assumptions.frozen,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mobility;
    use movegen::Position;

    /// Own pawn behind (a random edit of hard line 214): the rook of a4
    /// is boxed in by its pieces on a5, b4 and b3 and can only go back to
    /// a3 (once the bishop there leaves through b2); the pawn of a2 can
    /// only push to a3, and no black piece gets near it (the black king
    /// never moves: a4 and c4 are guarded by the pawn of b3 for good). In a
    /// game the rook never gets below the pawn, and the black king is
    /// stuck: without the rule the rook's region spread over the board
    /// through a2 and every region with it.
    #[test]
    fn a_rook_stays_ahead_of_its_pawn() {
        let pos: Position = "8/1p3b2/pPp1p1p1/BkP1P1P1/RP1B4/BPB5/PKP5/8 w - -".parse().unwrap();
        for rules in [Rules::FacingPawns, Rules::Saturation, Rules::Certified] {
            let mobility = Mobility::compute_with(&pos, rules).unwrap();
            assert_eq!(mobility.region(Square::A4), Bitboard::from(Square::A3).with(Square::A4), "{rules:?}");
            assert_eq!(mobility.region(Square::B5), Bitboard::from(Square::B5), "{rules:?}");
        }
        let paper = Mobility::compute_with(&pos, Rules::Paper).unwrap();
        assert!(paper.region(Square::A4).contains(Square::A1));
    }

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
}
