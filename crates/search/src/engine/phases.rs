//! One adapter per phase for the drivers ([`super`]): each runs its phase
//! (the search itself lives in [`crate::phase`]), turns the phase's
//! answer into the analysis' [`Outcome`] (`Break`), and otherwise reports
//! what the schedule needs (`Continue`). Each adapter reads the limits
//! once, after its phase: a phase interrupted by a limit breaks with
//! `Unknown` and the limit's cause, so the drivers never check them.
//!
//! **Soundness.** An adapter breaks with `Proof` only on a proof its phase
//! gave: a depth-first iteration neither cut nor leaning on stale entries,
//! a traversal that emptied its queue, a quick search whose every line
//! ended, a static proof. It breaks with `Mate` only on moves a phase
//! reached a mate with. Anything else is `Continue` or `Unknown`.

use std::ops::ControlFlow::{self, Break, Continue};

use movegen::{Color, Move, Position};

use super::Outcome;
use super::memory::Memory;
use super::schedule::{Cut, Frontier, Pass, Steering, Step, best_first_runs};
use crate::guide::Guide;
use crate::phase::best_first::{self, Guidance, Tempo};
use crate::phase::deepening::{self, Iteration, MoveOrder, Scores, Table};
use crate::phase::exhaustive::{Exhaustive, Traversal};
use crate::phase::quick;
use crate::shared::Shared;
use crate::statics::{light_static_proof, static_proof};
use crate::{Cause, Proof};

/// The first iteration of a position with at least this many men (kings
/// included), where the winner has a queen or a rook, leaves out the quiet
/// moves at its tail ([`Phases::quiet_tail`]; docs/tuning.md#quiet-tail).
pub(crate) const QUIET_TAIL_MEN: u32 = 6;

/// How far a best-first run that drained got: a sign for the schedule
/// that the reachable set is small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reach {
    /// The nodes the run counted when its queue first emptied.
    pub nodes: u64,
}

/// The phases of one analysis, over the state they share.
pub(crate) struct Phases<'s, 'a> {
    shared: &'s mut Shared<'a>,
    start: Position,
    memory: Memory,
    /// The exhaustive traversal, resumed from turn to turn.
    traversal: Exhaustive,
    /// The later iterations' guide with the bishops' distances, asked for
    /// at the first of them (`None` inside: the plain guide serves).
    later_guide: Option<Option<Guide>>,
}

impl<'s, 'a> Phases<'s, 'a> {
    /// The phases of the analysis of `start` (the position after the
    /// forced moves).
    pub fn new(shared: &'s mut Shared<'a>, start: &Position, memory: Memory) -> Phases<'s, 'a> {
        let traversal = Exhaustive::new(memory.queue, memory.visited_growth_bytes());
        Phases { shared, start: *start, memory, traversal, later_guide: None }
    }

    /// The intended winner.
    pub fn winner(&self) -> Color {
        self.shared.winner
    }

    /// The position the phases start from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The nodes the query has counted so far.
    pub fn spent(&self) -> u64 {
        self.shared.meter.nodes
    }

    /// The cause of an answer given up: the limit that stopped the
    /// analysis, reported as memory when the node budget ran out after the
    /// exhaustive traversal could no longer grow (more memory, not more
    /// nodes, is what it lacked); `otherwise` when no limit was hit.
    pub fn cause(&self, otherwise: Cause) -> Cause {
        match self.shared.meter.cause() {
            Some(Cause::NodeBudget) | None if self.traversal.out_of_memory => Cause::Memory,
            Some(cause) => cause,
            None => otherwise,
        }
    }

    /// The static check (Figure 8, Lemmas 5-6) on the start: `Break` with
    /// its proof. It takes bounded time, so it runs whatever the limits.
    pub fn static_proof(&mut self) -> ControlFlow<Outcome> {
        match static_proof(&self.start, self.shared.winner) {
            Some(proof) => Break(Outcome::Proof(proof)),
            None => Continue(()),
        }
    }

    /// The light static check ([`static_check::analyze_light`], without
    /// the case split on pieces that never move, a few times cheaper when
    /// it fails): `Break` with its proof, which is the whole check's (the
    /// light check is the whole check's first attempt, and the whole check
    /// returns that attempt when it proves).
    pub fn light_static_proof(&mut self) -> ControlFlow<Outcome> {
        match light_static_proof(&self.start, self.shared.winner) {
            Some(proof) => Break(Outcome::Proof(proof)),
            None => Continue(()),
        }
    }

    /// A depth-first iteration of the full algorithm (Figure 5): its mate,
    /// or its proof (nothing cut, no stale entry: `phase::deepening`);
    /// otherwise its nodes.
    pub fn iteration(&mut self, step: Step) -> ControlFlow<Outcome, Cut> {
        let first = step.pass.first();
        let table = if first {
            Table::Fresh
        } else if self.shared.tt.fits(step.table_room.saturating_mul(2)) {
            Table::Keep
        } else {
            Table::Fresh
        };
        let options = deepening::Options {
            max_depth: step.depth,
            node_bound: step.node_bound,
            table,
            // After the first, the loser's pawn moves are rewarded and its
            // captures not punished ([`crate::guide::Guide::node`]).
            scores: if first { Scores::Paper } else { Scores::LoserOpens },
            // The first iteration finds the short helpmates of real games
            // in a few hundred nodes, where a static check costs as much as
            // a hundred nodes and proves nothing.
            static_pruning: !first,
            // The first restarts with the loser's moves reversed, and each
            // later iteration starts every node's moves at a pseudo-random
            // move of its own, so a cut iteration is not spent on the part
            // of the tree the earlier ones searched.
            order: match step.pass {
                Pass::First => MoveOrder::Generated,
                Pass::FirstRestarted => MoveOrder::LoserReversed,
                Pass::Later => MoveOrder::Rotated { seed: (step.depth as u64).wrapping_mul(0xD1B5_4A32_D192_ED03) },
            },
            // With a winner's queen or rook and some material besides, the
            // first iteration leaves out the loser's king walks at its tail.
            quiet_tail: first && self.quiet_tail(),
        };
        self.deepening(options)
    }

    /// Whether the first iteration leaves out the quiet moves at its tail
    /// ([`deepening::Options::quiet_tail`]): with [`QUIET_TAIL_MEN`] men or
    /// more and a winner with a queen or a rook. (A winner with minor
    /// pieces only may need those moves: a lone knight against a crowd that
    /// has to wall its own king in.)
    fn quiet_tail(&self) -> bool {
        let board = self.start.board();
        let heavy = (board.queens() | board.rooks()) & board.by_color(self.shared.winner);
        board.occupied().count() >= QUIET_TAIL_MEN && heavy.any()
    }

    /// A plain iteration to `depth` plies (no scores, no node bound): the
    /// shortest-helpmate mode's iterative deepening.
    pub fn plain_iteration(&mut self, depth: i32) -> ControlFlow<Outcome, Cut> {
        self.deepening(deepening::Options::plain(depth))
    }

    fn deepening(&mut self, options: deepening::Options) -> ControlFlow<Outcome, Cut> {
        // The later iterations steer the loser's bishops too (their guide is
        // built at the first of them: most queries end before).
        let (winner, start) = (self.shared.winner, self.start);
        let later = (options.scores == Scores::LoserOpens)
            .then(|| self.later_guide.get_or_insert_with(|| Guide::later(winner, &start)).as_ref())
            .flatten();
        let guide = later.unwrap_or_else(|| Guide::plain(winner));
        match deepening::iterate(self.shared, guide, &self.start, options) {
            Iteration::Mate(moves) => Break(Outcome::Mate(moves)),
            Iteration::Proof { nodes } => Break(Outcome::Proof(Proof::Iteration { depth: options.max_depth, nodes })),
            Iteration::Interrupted { .. } if self.shared.meter.stopped() => {
                Break(Outcome::Unknown(self.cause(Cause::NodeBudget)))
            }
            Iteration::Interrupted { nodes, only_stale } => Continue(Cut { nodes, only_stale }),
        }
    }

    /// The best-first phase's `turn` with `allowance` nodes
    /// ([`best_first_runs`]): a helpmate, or, when a run emptied its queue
    /// without one, how far it got ([`Reach`]). A guidance with nothing to
    /// steer by from the start (at its floor,
    /// [`Guidance::estimate_at_floor`]) would only run a breadth-first
    /// search: it is left out, and a later turn runs the next guidance of
    /// the rotation instead ([`best_first_runs`]).
    pub fn best_first(&mut self, turn: usize, allowance: u64) -> ControlFlow<Outcome, Option<Reach>> {
        let (winner, start) = (self.shared.winner, self.start);
        let plan = self.shared.plan(&start);
        let goal = self.shared.targeted_guide(&start).targets().loser_king;
        // What earlier queries left allocated is freed first, so the
        // store's size (and so when a run ends full) is the query's own.
        self.shared.tt.release_unused();
        self.shared.visited.release_unused();
        let allocated = self.shared.tt.bytes() + self.shared.visited.bytes() + self.traversal.queue_bytes();
        let positions = self.memory.best_first_positions(allocated);
        let mut closed = None;
        let guidance = |steering| match (steering, &plan) {
            (Steering::Material, _) => Guidance::Material,
            (Steering::Plan, Some(plan)) => Guidance::Plan(plan),
            (Steering::Plan | Steering::Goal, _) => Guidance::Goal(goal),
        };
        let at_floor = |steering| guidance(steering).estimate_at_floor(&start, winner);
        for run in best_first_runs(turn, allowance, plan.is_some(), at_floor) {
            let guidance = guidance(run.steering);
            let tempo = tempo_moves(run.kept);
            match best_first::run(&mut self.shared.meter, &start, winner, guidance, tempo, positions, run.allowance) {
                best_first::Ending::Mate(moves) => return Break(Outcome::Mate(moves)),
                // The run closed the reachable set under every legal move
                // without meeting a mate: a proof (`best_first::Ending`).
                best_first::Ending::Exhausted { nodes, positions } => {
                    return Break(Outcome::Proof(Proof::BestFirst { positions, nodes }));
                }
                // A run that dropped tempo moves emptied its queue: the set
                // is probably small, but the other runs go on (they keep
                // moves this one dropped).
                best_first::Ending::Drained { nodes } => {
                    closed = closed.or(Some(Reach { nodes }));
                }
                best_first::Ending::Stopped if self.shared.meter.stopped() => break,
                best_first::Ending::Stopped => {}
            }
        }
        if self.shared.meter.stopped() {
            return Break(Outcome::Unknown(self.cause(Cause::NodeBudget)));
        }
        Continue(closed)
    }

    /// The exhaustive traversal, resumed for `allowance` more nodes: its
    /// proof, or the helpmate of the mate it reached; otherwise where it
    /// stands ([`Frontier`]). A mate ends the phase for good (the position
    /// it was found from is not queued again, so going on could end in a
    /// wrong proof): when its moves cannot be recovered, the answer is
    /// `Unknown`.
    pub fn exhaustive(&mut self, allowance: u64) -> ControlFlow<Outcome, Frontier> {
        match self.traversal.run(self.shared, &self.start, allowance) {
            Traversal::Mate { .. } => Break(match self.recover() {
                Some(moves) => Outcome::Mate(moves),
                None => Outcome::Unknown(self.cause(Cause::HelpmateTooLong)),
            }),
            Traversal::Complete { nodes } => Break(Outcome::Proof(Proof::Traversal { positions: nodes })),
            Traversal::Interrupted if self.shared.meter.stopped() => {
                Break(Outcome::Unknown(self.cause(Cause::NodeBudget)))
            }
            Traversal::Interrupted => {
                let (queued, expanded) = self.traversal.frontier();
                Continue(Frontier { queued, expanded })
            }
        }
    }

    /// The moves of the traversal's helpmate ([`Exhaustive::recover`]):
    /// `None` when a limit stops the walk or the helpmate is longer than
    /// the searches' ply cap.
    fn recover(&mut self) -> Option<Vec<Move>> {
        self.traversal.recover(self.shared, &self.start)
    }

    /// The quick algorithm's search (Figure 10, step 2) to `depth` plies:
    /// its mate, or its proof (every line ended within the depth).
    /// Otherwise it continues, even after a limit: the static check takes
    /// bounded time and may still prove.
    pub fn quick_search(&mut self, depth: u32) -> ControlFlow<Outcome> {
        match quick::run(&mut self.shared.meter, &self.start, self.shared.winner, depth) {
            quick::Quick::Mate(moves) => Break(Outcome::Mate(moves)),
            quick::Quick::Complete => Break(Outcome::Proof(Proof::Quick { depth, nodes: self.shared.meter.nodes })),
            quick::Quick::Interrupted => Continue(()),
        }
    }
}

/// Which tempo moves a best-first run keeps: the first `kept` when the
/// schedule names how many ([`best_first_runs`]), else all of them.
/// Scheduling only: a run answers nothing but helpmates
/// ([`best_first::Tempo`]).
fn tempo_moves(kept: Option<u32>) -> Tempo {
    kept.map_or(Tempo::All, Tempo::First)
}

/// Figure 10 step 5: only kings, pawns and bishops, and no semi-open file
/// (a file with pawns of one colour only). Other positions are very rarely
/// blocked, so the quick algorithm does not spend the static check on them.
pub(crate) fn blocked_candidate(pos: &Position) -> bool {
    use movegen::{Bitboard, File};
    let board = pos.board();
    if (board.knights() | board.rooks() | board.queens()).any() {
        return false;
    }
    let white = board.pawns() & board.by_color(Color::White);
    let black = board.pawns() & board.by_color(Color::Black);
    File::ALL.iter().all(|&file| {
        let on_file = Bitboard::file(file);
        white.intersects(on_file) == black.intersects(on_file)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::engine::schedule::TEMPO_MOVES_KEPT;
    use crate::meter::Meter;
    use crate::tt::TranspositionTable;

    /// A run keeps as many tempo moves a position as the schedule names,
    /// and all of them when it names none. Which runs keep how many is the
    /// schedule's, tested in `schedule::tests`: the goal's own runs two,
    /// then one; the plan's and the material's all, but a plan's turn
    /// without a plan (the goal's guidance) two; the probes one.
    #[test]
    fn a_run_keeps_the_tempo_moves_the_schedule_names() {
        assert_eq!(tempo_moves(Some(1)), Tempo::First(1));
        assert_eq!(tempo_moves(Some(TEMPO_MOVES_KEPT)), Tempo::First(TEMPO_MOVES_KEPT));
        assert_eq!(tempo_moves(None), Tempo::All);
    }

    /// The moves of a helpmate the traversal found are recovered along the
    /// layers of its visited set: exactly as many plies as the traversal
    /// counted, replayed to a mate by the winner. Long helpmates in locked
    /// positions (21 and 57 plies, dev lines 10 and 15 for White), where
    /// the walk meets dead ends and transpositions. With the set forgotten,
    /// nothing is recovered: never a line that is not a helpmate.
    #[test]
    fn a_helpmate_is_recovered_along_the_layers() {
        for fen in
            ["Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - -", "k1bK4/1p1p4/1PpPp3/2P1Pp2/2p1pP2/2p1P3/2P5/8 w - -"]
        {
            let root: Position = fen.parse().unwrap();
            let (mut tt, mut visited) = (TranspositionTable::new(1), TranspositionTable::new(64));
            let meter = Meter::new(u64::MAX, None, None);
            let mut shared = Shared::new(Color::White, Config::default(), meter, &mut tt, &mut visited);
            let mut phases = Phases::new(&mut shared, &root, Memory::split(256));
            let Traversal::Mate { plies } = phases.traversal.run(phases.shared, &root, u64::MAX) else {
                panic!("{fen}: the traversal finds no mate")
            };
            let moves = phases.recover().unwrap_or_else(|| panic!("{fen}: nothing recovered"));
            assert_eq!(moves.len(), plies as usize, "{fen}");
            let end = moves.iter().fold(root, |pos, &m| {
                assert!(pos.legal_moves().contains(&m), "{fen}: {m:?} is not legal");
                pos.play(m)
            });
            assert!(end.is_checkmate() && end.side_to_move() == Color::Black, "{fen}: no mate by White");
            phases.shared.visited.clear(0);
            assert_eq!(phases.recover(), None, "{fen}: recovered without the set");
        }
    }

    /// A mate the traversal reaches ends the phase, also when its moves
    /// cannot be recovered (a helpmate longer than the ply cap, forced here
    /// with a cap below the shortest mate): the answer is `Unknown`, and
    /// resuming the traversal gives the same mate, never a proof. (Before,
    /// the parent of the mate was not queued again and a resumed traversal
    /// could complete: a wrong "unwinnable".)
    #[test]
    fn a_mate_the_traversal_cannot_recover_is_no_proof() {
        // A back-rank mate in two plies (1...Kh8 2.Rd8#), none in one.
        let root: Position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1".parse().unwrap();
        let (mut tt, mut visited) = (TranspositionTable::new(1), TranspositionTable::new(16));
        let meter = Meter::new(u64::MAX, None, None);
        let mut shared = Shared::new(Color::White, Config::default(), meter, &mut tt, &mut visited);
        shared.max_ply = 1;
        let mut phases = Phases::new(&mut shared, &root, Memory::split(16));
        match phases.exhaustive(u64::MAX) {
            Break(Outcome::Unknown(Cause::HelpmateTooLong)) => {}
            Break(Outcome::Unknown(cause)) => panic!("cause {cause:?}"),
            Break(Outcome::Proof(proof)) => panic!("a wrong proof: {proof}"),
            Break(Outcome::Mate(moves)) => panic!("recovered beyond the cap: {moves:?}"),
            Continue(_) => panic!("the traversal went on after its mate"),
        }
        for _ in 0..3 {
            assert!(matches!(phases.traversal.run(phases.shared, &root, u64::MAX), Traversal::Mate { .. }));
        }
    }
}
