//! The three algorithms as short drivers over named phases: Figure 9 (the
//! full algorithm), Figure 10 (the quick one), and the shortest-helpmate
//! mode. Each driver reads top to bottom as the order of its phases;
//! [`schedule`] decides the full algorithm's allowances, and [`phases`]
//! adapts each phase of [`crate::phase`] to the drivers.
//!
//! **The driver never builds an answer, only phases do.** A driver only
//! chooses which phase runs next; every `Mate` and every `Proof` comes out
//! of one phase's adapter, with that phase's soundness argument, and a
//! limit only ever ends in `Unknown`.
//!
//! | phase | answers | soundness |
//! | --- | --- | --- |
//! | game over ([`game_over`]) | mate by the winner: winnable (no moves); stalemate or winner mated: unwinnable | the position as given |
//! | material ([`static_check::insufficient_material`]) | unwinnable | Lemmas 5-6, after the game-over phase |
//! | forced line ([`crate::phase::forced`]) | either | every game follows the line |
//! | iterations, look-aheads ([`crate::phase::deepening`]) | either | Figure 5; a proof only without cuts or stale entries |
//! | static proof ([`crate::statics`]) | unwinnable | `static-check` (Figure 8 on the saturated regions) |
//! | best-first ([`crate::phase::best_first`]) | either | the moves are replayed; a proof only when a run closed the reachable set under every move, exactly |
//! | exhaustive ([`crate::phase::exhaustive`]) | either | closed visited set |
//! | quick search ([`crate::phase::quick`]) | either | Figure 10 |

mod memory;
mod phases;
mod schedule;

use std::ops::ControlFlow::{self, Break, Continue};

pub(crate) use memory::Memory;
use movegen::{Bitboard, Color, Move, Position};
use phases::{Phases, blocked_candidate};
use schedule::{Cut, Schedule};

use crate::phase::forced::{self, ForcedLine};
use crate::shared::Shared;
use crate::{Cause, Ending, Proof, Verdict};

/// The answer of a driver for the position after the forced moves.
pub(crate) enum Outcome {
    /// A helpmate from that position.
    Mate(Vec<Move>),
    /// A proof that there is none.
    Proof(Proof),
    /// No answer.
    Unknown(Cause),
}

/// The game-over phase: the verdict on a position where the side to move
/// has no legal move (winnable with the empty helpmate when the winner has
/// mated, otherwise unwinnable). `None` while the game goes on. It runs
/// before every rule: the rules reason about the moves still to come.
pub(crate) fn game_over(pos: &Position, winner: Color) -> Option<Verdict> {
    if pos.has_legal_moves() {
        return None;
    }
    Some(match (pos.is_check(), pos.side_to_move() == winner) {
        (true, false) => Verdict::Winnable { helpmate: Vec::new() },
        (true, true) => Verdict::Unwinnable(Proof::GameOver(Ending::WinnerMated)),
        (false, _) => Verdict::Unwinnable(Proof::GameOver(Ending::Stalemate)),
    })
}

/// The phases every mode starts with: game over, material, forced line,
/// and material again after the forced moves. `Ok` with the verdict when
/// they decide; `Err` with the position after the forced moves (and the
/// moves) otherwise.
///
/// The second material test is sound for the same reason as the forced
/// line: every game from `pos` passes through the positions of the line,
/// none of which is a mate (each has a legal move), to its end, where
/// Lemmas 5-6 hold (it has legal moves, so the game-over test is passed).
pub(crate) fn opening_phases(pos: &Position, winner: Color) -> Result<Verdict, (Position, Vec<Move>)> {
    if let Some(verdict) = game_over(pos, winner) {
        return Ok(verdict);
    }
    if let Some(reason) = static_check::insufficient_material(pos, winner) {
        return Ok(Verdict::Unwinnable(Proof::Material(reason)));
    }
    let mut line = Vec::new();
    match forced::follow(pos, winner, &mut line) {
        ForcedLine::WinnerMates => Ok(Verdict::Winnable { helpmate: line }),
        ForcedLine::GameOver => Ok(Verdict::Unwinnable(Proof::ForcedLine { moves: line, repeats: false })),
        ForcedLine::Repeats => Ok(Verdict::Unwinnable(Proof::ForcedLine { moves: line, repeats: true })),
        ForcedLine::Continues(start) => match static_check::insufficient_material(&start, winner) {
            Some(reason) if !line.is_empty() => Ok(Verdict::Unwinnable(Proof::Material(reason))),
            _ => Err((start, line)),
        },
    }
}

/// Figure 9: the full algorithm. The first iteration looks for the short
/// helpmates of most real positions, the static check for a proof; then
/// deeper iterations, each cut one followed by two look-aheads, with the
/// best-first and exhaustive phases taking turns between them as the
/// [`Schedule`] says.
pub(crate) fn full(shared: &mut Shared<'_>, start: &Position, memory: Memory) -> Outcome {
    let walled = walled_in(start, shared.winner);
    let mut schedule = Schedule::new(shared.config.first_iteration_nodes, shared.config.best_first, walled);
    let mut phases = Phases::new(shared, start, memory);
    let flow = (|| -> ControlFlow<Outcome> {
        let evidence = evidence(start, phases.winner());
        first_probes(&mut phases, &schedule, evidence)?;
        let mut cut = first_iteration(&mut phases, &schedule)?;
        phases.static_proof()?;
        if evidence == Evidence::Closed {
            phases.exhaustive(schedule.closed_traversal())?;
        }
        loop {
            for look_ahead in schedule.iterated(cut) {
                phases.iteration(look_ahead)?;
            }
            if !schedule.catches_up(cut, phases.spent()) {
                schedule.next_round(cut);
                if let Some((turn, allowance)) = schedule.best_first_turn(phases.spent()) {
                    if let Some(reach) = phases.best_first(turn, allowance)? {
                        schedule.best_first_drained(reach.nodes);
                    }
                }
                if let Some(allowance) = schedule.exhaustive_turn(cut, phases.spent()) {
                    let frontier = phases.exhaustive(allowance)?;
                    if let Some(more) = schedule.finishing(frontier, allowance) {
                        phases.exhaustive(more)?;
                    }
                    schedule.exhaustive_ran(phases.spent());
                }
            }
            let Some(step) = schedule.next_iteration() else { return Continue(()) };
            cut = phases.iteration(step)?;
        }
    })();
    conclude(flow, &phases, Cause::NodeBudget)
}

/// The first iteration, restarted in another order once a share of its
/// bound is spent ([`Schedule::first_restart`]); the schedule after it
/// sees the two as one iteration ([`Schedule::first_cut`]).
fn first_iteration(phases: &mut Phases<'_, '_>, schedule: &Schedule) -> ControlFlow<Outcome, Cut> {
    let head = phases.iteration(schedule.first_iteration())?;
    let Some(restart) = schedule.first_restart(head) else { return Continue(head) };
    let rest = phases.iteration(restart)?;
    Continue(schedule.first_cut(head, rest))
}

/// What a locked or closed position gets before the first iteration: a
/// quick search and the light static check (the check first when the
/// position is also a blocked candidate, as in [`quick`]:
/// docs/tuning.md#quick-order); a closed one then a short look
/// for the quick helpmates of king and pawn endings, and a traversal long
/// enough for those where neither king reaches a pawn (resumed after the
/// first iteration when it does not end).
fn first_probes(phases: &mut Phases<'_, '_>, schedule: &Schedule, evidence: Evidence) -> ControlFlow<Outcome> {
    if evidence != Evidence::Open {
        let check_first = blocked_candidate(phases.start());
        if check_first {
            phases.light_static_proof()?;
        }
        phases.quick_search(PROBE_DEPTH)?;
        if !check_first {
            phases.light_static_proof()?;
        }
    }
    if evidence == Evidence::Closed {
        phases.iteration(schedule.closed_first_look())?;
        phases.exhaustive(schedule.closed_probe())?;
    }
    Continue(())
}

/// The depth of the quick search that a locked or closed position gets
/// before the static check in the full algorithm: it settles, for the
/// price of generating the children, the positions where every line ends
/// at once (the loser's every move leaves the winner without mating
/// material, or ends the game).
const PROBE_DEPTH: u32 = 2;

/// What cheap evidence about a position says of it, for the order of the
/// full algorithm's first phases ([`evidence`]). Order only: each phase's
/// answer stands alone, and every phase still runs in its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Evidence {
    /// Most positions of real games: a short helpmate that the first
    /// iteration finds in a few hundred nodes.
    Open,
    /// The winner's pawns may wall the loser's king in: the static check
    /// first.
    Locked,
    /// Only the kings can move: the static check first, then a short
    /// exhaustive traversal, since the reachable set is small unless a king
    /// breaks in.
    Closed,
}

/// The evidence about `pos` for `winner`:
///
/// * [`Evidence::Locked`] when the winner has no queen, rook or knight
///   (pieces that cover squares of both colours wherever the loser's king
///   goes), a pawn of the winner is rammed (a pawn of the loser stands
///   right in front of it), and no pawn of the winner has the two squares
///   in front of it empty (such a pawn marches towards a promotion, as in
///   most such positions of real games that are still won);
/// * [`Evidence::Closed`] when, moreover, only kings and pawns are left,
///   every pawn stands right behind another pawn, and no pawn can capture;
/// * [`Evidence::Open`] otherwise.
///
/// A failing static check costs about what a hundred nodes do, a first
/// iteration spent in vain a hundred times more; positions lost on time
/// where the opponent cannot mate mostly have only locked pawns left
/// (`docs/tuning.md#evidence`).
fn evidence(pos: &Position, winner: Color) -> Evidence {
    let board = pos.board();
    let ours = board.by_color(winner);
    if ((board.queens() | board.rooks() | board.knights()) & ours).any() {
        return Evidence::Open;
    }
    let pawns = board.pawns();
    let (white, black) = (pawns & board.by_color(Color::White), pawns & board.by_color(Color::Black));
    let (winners, losers) = if winner == Color::White { (white, black) } else { (black, white) };
    if (winners.forward(winner) & losers).is_empty() {
        return Evidence::Open;
    }
    let ahead_free = |squares: Bitboard| squares.forward(winner) - board.occupied();
    if ahead_free(ahead_free(winners)).any() {
        return Evidence::Open;
    }
    let only_kings_and_pawns = (board.occupied() & !pawns & !board.kings()).is_empty();
    let pushes = (white.north() | black.south()) & !pawns;
    let captures = white.iter().any(|sq| (movegen::attacks::pawn(Color::White, sq) & black).any())
        || black.iter().any(|sq| (movegen::attacks::pawn(Color::Black, sq) & white).any());
    if only_kings_and_pawns && pushes.is_empty() && !captures { Evidence::Closed } else { Evidence::Locked }
}

/// Whether the winner's king is walled in: the winner has only its king
/// and pawns, and every square next to its king holds a piece of its own
/// or is attacked by the loser (the locked king-side chains of composed
/// positions: a bishop and two pawns of the loser's hold the king on g8).
/// Its mates then need the loser's king walked into a net, and the
/// best-first phase's first turn runs the goal's guidance whole
/// ([`Schedule::new`]). Order only, like [`Evidence`].
fn walled_in(pos: &Position, winner: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(winner);
    if (ours - board.pawns() - board.kings()).any() {
        return false;
    }
    let (king, occupied) = (pos.king_of(winner), board.occupied());
    (movegen::attacks::king(king) - ours).iter().all(|square| board.is_attacked_by(square, !winner, occupied))
}

/// Shortest helpmates: the static proof first, then the exhaustive
/// breadth-first traversal (its first mate is a shortest one, and when it
/// completes it proves unwinnability); when the traversal runs out of
/// memory, iterative deepening without the scores, where each iteration
/// must end (a mate found after a cut iteration might not be shortest).
pub(crate) fn shortest(shared: &mut Shared<'_>, start: &Position, memory: Memory) -> Outcome {
    let mut phases = Phases::new(shared, start, memory);
    let flow = (|| -> ControlFlow<Outcome> {
        phases.static_proof()?;
        phases.exhaustive(u64::MAX)?;
        for depth in 1..=i32::MAX {
            phases.plain_iteration(depth)?;
        }
        Continue(())
    })();
    conclude(flow, &phases, Cause::NodeBudget)
}

/// Figure 10: the quick algorithm. A shallow search and the static check
/// for a position that may be blocked (Figure 10's test,
/// [`blocked_candidate`], or the evidence the full algorithm reads), and
/// for a closed position a short exhaustive traversal. A position that
/// both tests call blocked gets the static check before the search (most
/// such positions are the locked endings of games lost on time, which the
/// check proves and the search cannot; docs/tuning.md#quick-order). The
/// static check runs even after the search hit a limit (it takes bounded
/// time). Order only: every phase's answer stands alone.
pub(crate) fn quick(shared: &mut Shared<'_>, start: &Position, memory: Memory) -> Outcome {
    let (depth, schedule) =
        (shared.config.quick_depth, Schedule::new(shared.config.first_iteration_nodes, false, false));
    let mut phases = Phases::new(shared, start, memory);
    let flow = (|| -> ControlFlow<Outcome> {
        let evidence = evidence(start, phases.winner());
        let (blocked, locked) = (blocked_candidate(start), evidence != Evidence::Open);
        if blocked && locked {
            phases.static_proof()?;
        }
        phases.quick_search(depth)?;
        match (blocked, locked) {
            (true, false) => phases.static_proof()?,
            (false, true) => phases.light_static_proof()?,
            _ => {}
        }
        if evidence == Evidence::Closed {
            phases.exhaustive(schedule.closed_traversal())?;
        }
        Continue(())
    })();
    conclude(flow, &phases, Cause::NotProved)
}

/// The outcome of a driver: the answer a phase broke with, or `Unknown`
/// with the limit hit (`otherwise` when none was) when the phases ran out.
fn conclude(flow: ControlFlow<Outcome>, phases: &Phases<'_, '_>, otherwise: Cause) -> Outcome {
    match flow {
        Break(outcome) => outcome,
        Continue(()) => Outcome::Unknown(phases.cause(otherwise)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::guide::Targets;
    use crate::phase::best_first;
    use crate::plan::Plan;

    /// Winnable positions where the best-first phase skips a guidance whose
    /// estimate is at its floor at the root (the goal: hard lines 198, 200
    /// and 201; the plan: dev lines 607 and 678; each skip fires at the
    /// first turn's probes): the rule applies there, and the full
    /// algorithm still answers with a helpmate that replays to a mate by
    /// the winner. A guard on the answers where the rule acts (the skip
    /// can only move the work to other phases), not a test of its speed.
    #[test]
    fn skipping_a_guidance_at_its_floor_keeps_the_helpmate() {
        // The position, the winner, and whether the plan (else the goal) is
        // the guidance skipped.
        for (fen, winner, plan_skipped) in [
            ("8/1p4p1/1b1b2k1/6b1/1p1p4/1P1Pp1bp/4Pp1p/1B3Kbr b - -", Color::Black, false),
            ("1b3kBR/4pP1P/1p1pP2P/1P1P4/8/1K1B2p1/1P4P1/8 b - -", Color::White, false),
            ("3b1kBR/4pP1P/1pBpP2P/1P1P2p1/6p1/6p1/KP4P1/8 b - -", Color::White, false),
            ("7k/8/8/3B4/8/6p1/6Pb/6bK w - -", Color::Black, true),
            ("5k2/p1p5/8/4p3/8/6p1/P1P1P1Pp/7K w - -", Color::White, true),
        ] {
            let pos: Position = fen.parse().unwrap();
            let at_floor = if plan_skipped {
                let plan = Plan::of(&pos, winner).expect("a net is possible");
                best_first::Guidance::Plan(&plan).estimate_at_floor(&pos, winner)
            } else {
                best_first::Guidance::Goal(Targets::of(&pos, winner).loser_king).estimate_at_floor(&pos, winner)
            };
            assert!(at_floor, "{fen}: the skipped guidance is not at its floor");
            let analysis = crate::Analyzer::new(Config::default()).analyze(&pos, winner);
            match &analysis.verdict {
                Verdict::Winnable { helpmate } => {
                    assert!(crate::replay(&pos, winner, helpmate).is_ok(), "{fen}: {helpmate:?}")
                }
                other => panic!("{fen}: {other:?} after {} nodes", analysis.nodes),
            }
        }
    }

    /// A position whose shortest mate is longer than the searches' ply cap
    /// is undetermined, never proved unwinnable: the traversal reaches the
    /// mate, its moves cannot be recovered, and the driver answers
    /// `Unknown` whatever budget is left (the driver used to resume the
    /// traversal, which could complete into a wrong proof).
    #[test]
    fn a_mate_beyond_the_ply_cap_leaves_the_full_algorithm_undetermined() {
        use crate::meter::Meter;
        use crate::tt::TranspositionTable;
        // A back-rank mate in two plies (1...Kh8 2.Rd8#), none in one.
        let pos: Position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1".parse().unwrap();
        for mode in [crate::Mode::Full, crate::Mode::Shortest] {
            let (mut tt, mut visited) = (TranspositionTable::new(16), TranspositionTable::new(16));
            let config = Config { mode, ..Config::default() };
            let meter = Meter::new(1_000_000, None, None);
            let mut shared = Shared::new(Color::White, config, meter, &mut tt, &mut visited);
            shared.max_ply = 1;
            let outcome = match mode {
                crate::Mode::Full => full(&mut shared, &pos, Memory::split(16)),
                _ => shortest(&mut shared, &pos, Memory::split(16)),
            };
            match outcome {
                Outcome::Unknown(Cause::HelpmateTooLong) => {}
                Outcome::Unknown(cause) => panic!("{mode:?}: cause {cause:?}"),
                Outcome::Proof(proof) => panic!("{mode:?}: a wrong proof: {proof}"),
                Outcome::Mate(moves) => panic!("{mode:?}: a helpmate beyond the cap: {moves:?}"),
            }
        }
    }

    /// The evidence: open with a queen, rook or knight of the winner, no
    /// rammed pawn of the winner or a pawn of the winner free to advance
    /// twice (the pawn on a2 has only one square); locked with a rammed
    /// pawn; closed when only kings and pawns are left and no pawn can move.
    #[test]
    fn the_evidence_reads_the_pawns_and_the_pieces() {
        for (fen, winner, expected) in [
            // Only the kings can move (timeouts lines 5996, 4697).
            ("8/8/1p1p4/pP1Pp1kp/P3P2P/6K1/8/8 b - - 0 46", Color::White, Evidence::Closed),
            ("8/8/4k3/1p2p2p/1P2Pp1P/5P2/5K2/8 b - - 5 58", Color::White, Evidence::Closed),
            // A free pawn, a pawn capture, a bishop: locked, not closed.
            ("8/8/1p1p4/pP1Pp1kp/P3P2P/6K1/P7/8 b - - 0 46", Color::White, Evidence::Locked),
            ("8/8/4k3/1p2p1pp/1P2Pp1P/6P1/5K2/8 b - - 5 58", Color::White, Evidence::Locked),
            ("8/8/1p1p4/pP1Pp1kp/P3P2P/6K1/8/7B b - - 0 46", Color::White, Evidence::Locked),
            // The winner's knight, no rammed pawn of the winner's, or a pawn
            // of the winner's with two empty squares in front of it: open.
            ("8/8/1p1p4/pP1Pp1kp/P3P2P/6K1/8/7N b - - 0 46", Color::White, Evidence::Open),
            ("8/8/1p1p4/pP1Pp1kp/P3P2P/6K1/2P5/8 b - - 0 46", Color::White, Evidence::Open),
            ("8/8/4k3/1p2p2p/1P2Pp1P/6P1/5K2/8 b - - 5 58", Color::White, Evidence::Open),
            ("8/8/1p1p4/pP1Pp1kp/P3P2P/6K1/8/8 b - - 0 46", Color::Black, Evidence::Closed),
            ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", Color::White, Evidence::Open),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Color::White, Evidence::Open),
        ] {
            let pos: Position = fen.parse().unwrap();
            assert_eq!(evidence(&pos, winner), expected, "{fen} for {winner}");
        }
    }

    /// A walled winner's king: only its king and pawns, and no free square
    /// next to the king (hard line 598 for Black: the bishop on h6 guards
    /// g7, the pawns f7, h7, f8 and h8). Without the bishop the king takes
    /// g7; with a bishop of its own the winner has more than pawns; the
    /// loser is never walled in here.
    #[test]
    fn the_winners_king_walled_in() {
        for (fen, winner, expected) in [
            ("6k1/p1p1p1P1/6PB/6P1/8/8/PKP1P3/8 w - -", Color::Black, true),
            ("6kB/p3p1P1/2p3P1/8/5K2/4P3/P1P5/8 w - -", Color::Black, true),
            ("6k1/p1p1p1P1/6P1/6P1/8/8/PKP1P3/8 w - -", Color::Black, false),
            ("6k1/p1pbp1P1/6PB/6P1/8/8/PKP1P3/8 w - -", Color::Black, false),
            ("6k1/p1p1p1P1/6PB/6P1/8/8/PKP1P3/8 w - -", Color::White, false),
            ("4k3/8/8/8/8/8/8/4K3 w - -", Color::White, false),
        ] {
            let pos: Position = fen.parse().unwrap();
            assert_eq!(walled_in(&pos, winner), expected, "{fen} for {winner}");
        }
    }

    /// The material rule after the forced moves: for the winner's material
    /// only. White's king must take the queen that checks it (the only
    /// legal move): Black then has a lone king and cannot mate, while
    /// White, with a queen, can.
    #[test]
    fn material_after_the_forced_moves_is_the_winners() {
        let pos: Position = "8/8/8/8/8/6Q1/P1k3KP/5q2 w - - 0 62".parse().unwrap();
        let mut analyzer = crate::Analyzer::new(Config::default());
        let black = analyzer.analyze(&pos, Color::Black);
        assert!(matches!(black.verdict, Verdict::Unwinnable(Proof::Material(_))), "{:?}", black.verdict);
        assert_eq!(black.nodes, 0);
        let white = analyzer.analyze(&pos, Color::White);
        let helpmate = white.verdict.helpmate().expect("White can still mate");
        assert!(crate::replay(&pos, Color::White, helpmate).is_ok());
        assert_eq!(helpmate[0].to_string(), "g2f1", "the forced move first");
    }
}
