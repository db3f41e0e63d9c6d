//! The three algorithms as short drivers over named phases
//! ([`crate::phase`]). Each phase answers a helpmate, a proof, or nothing;
//! the drivers only decide the order and the allowances, so every answer
//! carries the soundness argument of the phase that gave it.
//!
//! | phase | answers | soundness |
//! | --- | --- | --- |
//! | game over ([`game_over`]) | mate by the winner: winnable (no moves); stalemate or winner mated: unwinnable | the position as given |
//! | material ([`static_check::insufficient_material`]) | unwinnable | Lemmas 5-6, after the game-over phase |
//! | forced line ([`phase::forced`]) | either | every game follows the line |
//! | first iteration, iterations, look-aheads ([`phase::deepening`]) | either | Figure 5; a proof only without cuts or stale entries |
//! | static proof ([`crate::statics`]) | unwinnable | `static-check` (Figure 8 on the saturated regions) |
//! | best-first ([`phase::best_first`]) | winnable only | the moves are replayed |
//! | exhaustive ([`phase::exhaustive`]) | either | closed visited set |
//! | quick search ([`phase::quick`]) | either | Figure 10 |

use movegen::{Bitboard, Color, File, Move, Position};

use crate::guide::Guide;
use crate::phase::deepening::{self, Iteration, MoveOrder, Scores, Table};
use crate::phase::exhaustive::{Exhaustive, Traversal};
use crate::phase::forced::{self, ForcedLine};
use crate::phase::{best_first, quick};
use crate::shared::Shared;
use crate::statics::static_proof;
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

/// How the analyzer's memory budget is divided (see [`crate::Limits::tt_mb`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Memory {
    /// The depth-first table, in MiB.
    pub tt_mb: usize,
    /// The exhaustive traversal's visited set, in MiB.
    pub visited_mb: usize,
    /// The exhaustive traversal's queue, in positions.
    pub queue: usize,
    /// The best-first phase's stored positions, at least (it may use what
    /// the other parts have not allocated: [`Memory::best_first_positions`]).
    pub best_first: usize,
    /// The whole budget, in bytes.
    pub budget_bytes: usize,
}

impl Memory {
    /// A quarter of the budget each (each part at least 1 MiB). The tables
    /// are powers of two within their part; the queue is counted at twice
    /// its entries (a double-ended queue grows by doubling) and the stored
    /// positions at their worst-case bytes ([`best_first::BYTES_PER_POSITION`]),
    /// so the whole stays within the budget (at least 4 MiB).
    pub fn split(budget_mb: usize) -> Memory {
        let quarter = (budget_mb / 4).max(1);
        let bytes = quarter << 20;
        Memory {
            tt_mb: quarter,
            visited_mb: quarter,
            queue: bytes / (2 * core::mem::size_of::<(Position, u32, u8)>()),
            best_first: bytes / best_first::BYTES_PER_POSITION,
            budget_bytes: 4 * bytes,
        }
    }

    /// The bytes the exhaustive traversal's visited set may hold: its
    /// quarter. While it grows, the old and the new part together may take
    /// twice as much for a moment ([`crate::tt::TranspositionTable::grow_set`]):
    /// the best-first phase's quarter, idle while the traversal runs (its
    /// store is freed when it returns), and freed again at once, so the
    /// whole stays within the budget. (Lending the visited set the
    /// best-first phase's quarter for good was tried: the best-first phase
    /// then lacked room for the 39-ply helpmates of dev line 511 and hard
    /// line 766.)
    pub fn visited_growth_bytes(&self) -> usize {
        self.visited_mb << 20
    }

    /// The positions the best-first phase may store when the tables and the
    /// traversal's queue hold `allocated` bytes: all the rest of the budget.
    /// Nothing else allocates while it runs, and it frees its positions
    /// when it returns, so the whole stays within the budget; the tables
    /// and the queue grow only up to their quarters, so the phase always
    /// has at least its own. (Capping the store at what a 256 MiB budget
    /// gives, so that a failing run cannot go on to take the nodes another
    /// phase needs, was tried: it decides hard line 766 for Black with one
    /// 927 MiB analyzer, but some helpmates need the larger store:
    /// `k1b5/8/4B3/BpBpBp1p/bPbPbPbP/8/8/K7 w - -` for Black, 9.8 M nodes.)
    pub fn best_first_positions(&self, allocated: usize) -> usize {
        self.budget_bytes.saturating_sub(allocated) / best_first::BYTES_PER_POSITION
    }
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

/// The phases every mode starts with: game over, material, forced line.
/// `Ok` with the verdict when they decide; `Err` with the position after
/// the forced moves (and the moves) otherwise.
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
        ForcedLine::Continues(start) => Err((start, line)),
    }
}

/// Figure 9: the full algorithm, with the best-first and exhaustive phases
/// interleaved with the iterations.
pub(crate) fn full(shared: &mut Shared<'_>, start: &Position, memory: Memory) -> Outcome {
    let first_bound = shared.config.first_iteration_nodes.max(1);
    let plain = Guide::plain(shared.winner);
    // The first iteration does not ask the static check at its nodes: it
    // is there to find the short helpmates of most positions of real
    // games within a few hundred nodes, where a static check costs as much
    // as a hundred nodes and proves nothing (the position is winnable).
    // Speed only: a node not asked is searched. Measured on the corpus
    // (one thread): 1.18 s -> 0.81 s; dev and hard sets: the same nodes
    // within 0.05%, the same time within noise.
    //
    // The first iteration tries the moves in the generator's order; each
    // later one starts every node's moves at a pseudo-random move of its
    // own ([`MoveOrder::Rotated`], seeded by the iteration's depth), so an
    // iteration cut by its node bound is not spent on the part of the tree
    // the earlier ones searched. Order only: every answer is the same
    // phase's. Measured against the generator's order everywhere (nodes,
    // one thread; `cargo xtask regress`, `compare`): corpus 14.24 M ->
    // 12.74 M, paper 6.48 M -> 5.04 M, dev 341.7 M -> 316.0 M, hard
    // 156.8 M -> 158.6 M; three seeds of an earlier form gave corpus
    // 12.0-12.9 M, dev 314.6-323.3 M, hard 148.3-162.7 M. Single queries
    // move both ways (the mate is met in another iteration): of 1,500
    // random edits of hard positions, one went from 0.8 M to 14.2 M nodes
    // and decides that set's total (29.9 M -> 43.9 M; the dev edits 46.8 M
    // -> 38.1 M). Rotating the first iteration too was far worse (corpus
    // 21.4 M nodes), as were one rotation for every later iteration
    // (13.0 M), the reversed order (13.8 M) and rotating only the
    // winner's moves (13.2 M).
    let rewarded = |max_depth: i32, node_bound, table| deepening::Options {
        max_depth,
        node_bound,
        table,
        // From the second iteration on, the loser's pawn moves are rewarded
        // and its captures not punished ([`crate::guide::Guide::node`]).
        scores: if max_depth > 1 { Scores::LoserOpens } else { Scores::Paper },
        static_pruning: max_depth > 1,
        order: if max_depth > 1 {
            MoveOrder::Rotated { seed: (max_depth as u64).wrapping_mul(0xD1B5_4A32_D192_ED03) }
        } else {
            MoveOrder::Generated
        },
    };

    // The first iteration runs before the static proof: most positions of
    // real games have a helpmate within a few hundred nodes, and finding it
    // costs less than the static check. Each answer stands alone.
    let first = deepening::iterate(shared, plain, start, rewarded(1, first_bound, Table::Fresh));
    if let Iteration::Mate(moves) = first {
        return Outcome::Mate(moves);
    }
    if let Some(proof) = static_proof(start, shared.winner) {
        return Outcome::Proof(proof);
    }
    let mut bound = first_bound;
    let mut exhaustive_bound = bound.saturating_mul(2);
    let mut traversal = Exhaustive::new(memory.queue, memory.visited_growth_bytes());
    let mut exhaustive_ended_at = 0u64;
    // The iterations' nodes so far, and the rounds of the other phases'
    // schedule (one per iteration unless the iterations catch up).
    let mut iteration_nodes = 0u64;
    let mut round = 0;
    // A best-first run has reached everything it could without a mate
    // ([`best_first::Ending::Exhausted`]): the phase is over for the query.
    let mut closed = false;
    // The first iteration's other answers are taken as the loop's first
    // iteration's (depth 1).
    let mut first = Some(first);
    // Bounded so that no budget can make the depth overflow (a catching-up
    // iteration may count a single node); the end is `Undetermined`.
    for number in 1..=i32::MAX / DEPTH_STEP {
        let max_depth = 1 + (number - 1) * DEPTH_STEP;
        let iteration = match first.take() {
            Some(first) => first,
            None => {
                let table = table_for(shared, bound);
                deepening::iterate(shared, plain, start, rewarded(max_depth, bound, table))
            }
        };
        let (nodes, only_stale) = match answer(iteration) {
            Ok(outcome) => return outcome,
            Err(interrupted) => interrupted,
        };
        if shared.meter.stopped() {
            break;
        }
        // The iterations catch up: an iteration that ended within its node
        // bound (its tree is small: the depth cut it, not the bound) is
        // followed at once by a deeper one, without the other phases' turn,
        // while the iterations have spent less than the other phases
        // ([`iterations_catch_up`]). In small locked positions the depth
        // grew by one per round of best-first and exhaustive runs of 0.2-
        // 0.7 M nodes each, while the iteration that finds the 56- to 78-ply
        // helpmate takes 3-40 K (dev lines 1791, 186; `Bk4b1/1P3p2/...`).
        // An iteration that leaned only on stale entries goes to the
        // exhaustive phase as before. Scheduling only: every answer is the
        // phase's own; each iteration counts at least its root, so the
        // catching up ends and the other phases get their turns.
        iteration_nodes += nodes;
        // A look-ahead after an iteration that used its whole node bound:
        // a few plies deeper, with a small share of the bound
        // ([`look_ahead`]). Its answers are an iteration's own (a reached
        // mate, or a proof without cuts or stale entries); a cut probe
        // answers nothing, and the entries it leaves in a kept table are
        // earlier-iteration entries to the next iteration, which prunes
        // on them as stale (so that iteration proves nothing).
        if let Some((depth, node_bound)) = look_ahead(max_depth, nodes, bound) {
            let table = table_for(shared, bound);
            if let Ok(outcome) = answer(deepening::iterate(shared, plain, start, rewarded(depth, node_bound, table))) {
                return outcome;
            }
            if shared.meter.stopped() {
                break;
            }
        }
        if nodes <= bound && !only_stale && iterations_catch_up(iteration_nodes, shared.meter.nodes) {
            continue;
        }
        round += 1;
        // Iterations that used their whole allowance get a larger one:
        // `bound` must grow for the algorithm to be complete.
        if nodes > bound {
            bound = bound.saturating_mul(2);
        }
        // The best-first phase, every other round from the fourth,
        // guided in turn by the material in the way, the king's goal
        // squares and the distance plan ([`BEST_FIRST_ROTATION`]; the
        // first turn probes the other two first: [`best_first_runs`]; a
        // guidance whose estimate is at its floor at the root is skipped,
        // below), with
        // sixteen times the iteration's allowance (it counts every position
        // it generates; an iteration counts the positions it enters), but
        // never more than [`BEST_FIRST_PACE`] times what the query has
        // spent so far ([`best_first_allowance`]). A best-first node costs
        // about what an iteration's does (on the dev set, one thread,
        // 256 MiB: 50-80 ns against 69 ns on average). Other shares were
        // measured with `cargo xtask regress` before the pace was added,
        // and lost: 8 times the
        // iteration's (hard set 168 M -> 293 M nodes), 32 times (dev
        // 399 M -> 538 M), or every guidance at every turn with a third
        // each (hard 302 M). A smaller share delays each helpmate a run
        // finds by a whole rotation (a guidance's allowance grows 64-fold
        // between its turns).
        //
        // Once a run has reached everything it could without a mate, the
        // phase has had its say: every guidance expands the same closed
        // set, only in another order (see the `Exhausted` arm below).
        // The nodes of the run that closed it in this round, if one did.
        let mut closed_now: Option<u64> = None;
        if shared.config.best_first && !closed && round >= 4 && round % 2 == 0 {
            let winner = shared.winner;
            let allowance = best_first_allowance(bound, first_bound, shared.meter.nodes);
            let plan = shared.plan(start);
            let goal = shared.targeted_guide(start).targets().loser_king;
            let turn = round as usize / 2 - 2;
            // What earlier queries left allocated is freed first, so the
            // store's size (and so when a run ends full) is the query's own.
            shared.tt.release_unused();
            shared.visited.release_unused();
            let allocated = shared.tt.bytes() + shared.visited.bytes() + traversal.queue_bytes();
            let positions = memory.best_first_positions(allocated);
            for (steering, thinned, allowance) in best_first_runs(turn, allowance, plan.is_some()) {
                let guidance = match (steering, &plan) {
                    (Steering::Material, _) => best_first::Guidance::Material,
                    (Steering::Plan, Some(plan)) => best_first::Guidance::Plan(plan),
                    (Steering::Plan | Steering::Goal, _) => best_first::Guidance::Goal(goal),
                };
                // A guidance with nothing to steer by from the root would
                // only run a breadth-first search
                // ([`best_first::Guidance::estimate_at_floor`]); its nodes
                // go to the iterations and the traversal instead. Measured
                // with the command (one thread, 256 MiB, nodes): the eight
                // choice sets 339.1 M -> 321.1 M, 60 queries fewer, one
                // more (dev line 1109 for White, 55.6 K -> 62.0 K), no
                // answer changed; hard line 199 for Black 12.66 M ->
                // 2.32 M; on 9,000 random edits of dev and hard positions
                // kept for held-out checks (not used to choose it) 8 fewer,
                // none more, no answer changed. Scheduling only: a
                // best-first run answers nothing but replayed helpmates.
                if guidance.estimate_at_floor(start, winner) {
                    continue;
                }
                let tempo = tempo_moves(guidance, thinned);
                match best_first::run(&mut shared.meter, start, winner, guidance, tempo, positions, allowance) {
                    best_first::Ending::Mate(moves) => return Outcome::Mate(moves),
                    best_first::Ending::Exhausted { nodes } => {
                        // The queue emptied only when every position the
                        // run reached was expanded: the set reachable from
                        // the root through the positions it keeps is
                        // closed, and no move in it mates. Which positions
                        // it keeps does not depend on the guidance (only
                        // the order does; a run that dropped tempo moves
                        // never ends this way), so a run with another
                        // guidance would expand the same set and find no mate
                        // either, unless a hash collision hid one (its
                        // duplicate detection is by hash). The exhaustive
                        // traversal, which compares whole positions,
                        // expands about the same set and counts about the
                        // same nodes (both count every child generated):
                        // it runs at once with at least twice the run's
                        // nodes, and ends with its own proof (or a mate
                        // after all). Before, it kept its doubling while
                        // later runs expanded the same set again: the dev
                        // set's `1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - -`
                        // for Black ran the material and goal guidances to
                        // their end (0.85 M nodes each) and was proved by a
                        // traversal of 0.8 M after 4.17 M in all.
                        // Scheduling only: this phase answers nothing but
                        // replayed helpmates, and a traversal that does not
                        // end in that allowance goes on as scheduled.
                        closed = true;
                        closed_now = Some(nodes);
                        break;
                    }
                    best_first::Ending::Stopped if shared.meter.stopped() => break,
                    best_first::Ending::Stopped => {}
                }
            }
            if shared.meter.stopped() {
                break;
            }
        }
        // The exhaustive phase, from the third round on every other
        // round, and at once when an iteration ran to the end but
        // leaned on earlier iterations' entries (a sign the reachable set
        // is small). It proves unwinnability of a reachable set of N
        // positions in about N nodes, where depth-limited iterations
        // revisit positions (and never end where the moves go round in
        // circles). From the seventh round on, its allowance keeps
        // pace with the other phases: at least what they spent since it
        // last ran, so it gets about half of the budget (its static checks
        // are charged at their time, [`phase::exhaustive`]); a doubling of
        // its own falls behind the iterations' and best-first runs' growth:
        // in the position `3k1b2/...` it got 0.3 M of 50 M nodes
        // where it needs 23 M. Its runs at the third and fifth rounds
        // keep their own doubling: the helpmates of middle length, found
        // by the best-first runs at the fourth and sixth, would otherwise
        // pay for a traversal first (10% to 30% more nodes each, measured
        // on dev lines 371, 66 and 616).
        // Scheduling only: every answer is still the phase's own.
        // And at once, with at least twice that run's nodes, after a
        // best-first run reached everything it could (above).
        if only_stale || closed_now.is_some() || (round >= 3 && round % 2 == 1) {
            let allowance = if only_stale { exhaustive_bound.max(nodes.saturating_mul(8)) } else { exhaustive_bound };
            let allowance = closed_now.map_or(allowance, |run| allowance.max(run.saturating_mul(2)));
            let allowance = if round >= EXHAUSTIVE_KEEPS_PACE_FROM {
                allowance.max(shared.meter.nodes - exhaustive_ended_at)
            } else {
                allowance
            };
            let outcome = exhaustive(shared, &mut traversal, start, allowance);
            exhaustive_ended_at = shared.meter.nodes;
            match outcome {
                Some(outcome) => return outcome,
                None if shared.meter.stopped() => break,
                None => exhaustive_bound = exhaustive_bound.saturating_mul(2),
            }
        }
    }
    Outcome::Unknown(cause(shared, &traversal))
}

/// How much deeper each iteration of the full algorithm searches than the
/// one before (`maxDepth` of Figure 5: 1, 3, 5, ...). Completeness needs
/// only that the depth grows without bound; the node bound, not the
/// depth, decides what an iteration costs once it is large, so a larger
/// step reaches long helpmates in fewer iterations, and a tree the depth
/// cuts (small locked positions) needs half as many iterations to be
/// searched to its end. Measured with the command (one thread, 256 MiB,
/// nodes; step 1 -> 2 -> 3 -> 4): dev 277.5 M -> 263.4 -> 242.7 ->
/// 237.6 M, hard 111.5 -> 103.9 -> 111.2 -> 114.9 M, corpus 12.9 -> 12.1 M
/// (step 2), and on 9,500 random edits of dev and hard positions
/// (python-chess: pieces moved, removed or added; they were measured for
/// this choice too) 207.5 -> 171.9 -> 194.6 -> 162.2 M. No verdict
/// changed, and with step 2 no set's largest query grew. Step 2 is the
/// one that gains on the dev and hard sets both. Scheduling only: every
/// answer is the iteration's own.
const DEPTH_STEP: i32 = 2;

/// An iteration's answer: its helpmate, or its proof (an iteration
/// neither cut nor leaning on stale entries, [`phase::deepening`]); `Err`
/// with its nodes and whether it leaned only on stale entries when it was
/// interrupted, which answers nothing.
fn answer(iteration: Iteration) -> Result<Outcome, (u64, bool)> {
    match iteration {
        Iteration::Mate(moves) => Ok(Outcome::Mate(moves)),
        Iteration::Proof { nodes } => Ok(Outcome::Proof(Proof::Exhaustive { nodes })),
        Iteration::Interrupted { nodes, only_stale } => Err((nodes, only_stale)),
    }
}

/// The table of an iteration with the node bound `bound`, or of the
/// look-ahead after it: the one the iterations before it filled, if it
/// has room for twice the bound (or is at its largest), else a fresh one.
fn table_for(shared: &Shared<'_>, bound: u64) -> Table {
    if shared.tt.fits(bound.saturating_mul(2)) { Table::Keep } else { Table::Fresh }
}

/// How many plies deeper than the iteration before it a look-ahead
/// searches ([`look_ahead`]).
const LOOK_AHEAD_PLIES: i32 = 6;

/// The share of the iteration's node bound a look-ahead gets
/// ([`look_ahead`]).
const LOOK_AHEAD_SHARE: u64 = 8;

/// The look-ahead after an iteration to `max_depth` that counted `nodes`
/// with the node bound `bound`: when the bound cut it, an iteration
/// [`LOOK_AHEAD_PLIES`] deeper (the one three steps later, with the same
/// move order) with an eighth of the bound, as `(depth, node bound)`.
///
/// Why. Where an iteration is cut by its node bound, whether it meets a
/// helpmate depends on the move order more than on the bound: the
/// corpus's `8/8/p1k1K3/P7/8/8/8/4B3 w - -` and `8/8/8/7Q/4k3/2P5/PP3P1b/
/// 6K1 w - -` for Black (its two slowest queries) spent 10, 20 and 40 K
/// nodes in cut iterations to depths 1, 3 and 5 and a traversal of 17-19 K,
/// and the iteration to depth 7 then found a long helpmate in 0.4 K and
/// 8.8 K nodes. A short deeper iteration is a second draw at a small
/// price: there, 89 K -> 10 K and 96 K -> 34 K nodes. Measured with the
/// command (one thread, 256 MiB, nodes), against none: the corpus 12.11 M
/// -> 11.98 M, its largest queries 96 K and 89 K -> 62 K and 48 K; the
/// eight choice sets 302.7 M -> 296.8 M, no answer changed, their largest
/// queries 4.29 M -> 4.60 M (dev) and 4.57 M -> 4.88 M (hard); the
/// 9,000 random edits kept out of earlier choices (used to compare these
/// variants) 277.9 M -> 243.1 M, one more decided (2 undetermined); 4,226
/// new edits made afterwards and used for nothing else 85.1 M -> 71.6 M,
/// none undetermined either way. Four, eight and ten plies ahead with an
/// eighth: the eight sets 291.9 M, 295.3 M, 293.3 M, the edits 264.2 M,
/// 254.0 M, 242.7 M, the corpus's largest 76 K, 98 K, 98 K; six plies with a
/// quarter: 289.4 M, 242.4 M, 66 K, but the dev and hard sets' largest
/// queries 4.90 M and 5.18 M; probing only up to depth 9 or 13 keeps
/// the corpus's gain and loses most of the edits' (275.2 M, 268.8 M).
/// Scheduling only: the probe is an iteration, and its answers are an
/// iteration's (see the driver).
fn look_ahead(max_depth: i32, nodes: u64, bound: u64) -> Option<(i32, u64)> {
    (nodes > bound).then(|| (max_depth.saturating_add(LOOK_AHEAD_PLIES), (bound / LOOK_AHEAD_SHARE).max(1)))
}

/// Whether the depth-first iterations, having counted `iteration_nodes`
/// of the `spent` nodes of the query, go on without the other phases'
/// turn: while they have spent less than the other phases. Measured with
/// `cargo xtask regress` (nodes, one thread) against a turn after every
/// iteration: paper 5.04 M -> 5.13 M, dev 316.0 M -> 311.1 M, hard
/// 158.6 M -> 138.6 M (hard lines 50, 55 and 64 for White: 5.5-5.9 M ->
/// 1.1 M; dev line 66 for Black: 10.5 M -> 14.9 M); the corpus is
/// unchanged (12.74 M), the random edits of dev and hard positions 38.1 M
/// -> 37.1 M and 43.92 M -> 43.90 M. Letting them go on while they have
/// spent less than half of the others' nodes: dev 311.3 M, hard 137.4 M.
fn iterations_catch_up(iteration_nodes: u64, spent: u64) -> bool {
    iteration_nodes < spent.saturating_sub(iteration_nodes)
}

/// How many times what a query has spent so far one best-first run may
/// spend at most ([`best_first_allowance`]).
const BEST_FIRST_PACE: u64 = 8;

/// The node allowance of a best-first run after an iteration with the node
/// bound `bound`, when the query has counted `spent` nodes: sixteen times
/// the bound, but at most [`BEST_FIRST_PACE`] times `spent` (and at least
/// what the first run with the first bound would get). Sixteen times the
/// bound is up to fifteen times what the query has spent before the run
/// (the bound doubles after every iteration that uses it all, and more
/// when the iterations' trees are small), so a run that fails took nearly
/// all of the query's time: in `3kr3/8/8/8/8/3KN3/8/8 b - -` for White the
/// material-guided run at the fourth iteration failed after 2.56 M nodes,
/// fifteen times the 0.17 M spent before it, and the fifth iteration then
/// found the mate in 66 K (with the pace the run gets 1.36 M). Keeping
/// pace with the spending bounds what a failing run wastes against the
/// other phases' work; the allowance still grows geometrically (nine
/// times from one run that used all of its allowance to the next), so a
/// run that needs N nodes (and the room to store them) gets them.
/// Measured with `cargo xtask regress` (nodes; dev, hard, paper): no pace
/// 401.0 M, 169.3 M, 7.8 M; pace 8: 345.8 M, 153.4 M, 6.5 M; pace 4:
/// 314.4 M, 179.8 M, 5.2 M. On the random edits of dev and hard positions
/// (not used to choose it; the command's defaults, one thread) pace 8
/// gives the same answers in 8% and 10% fewer nodes (pace 4 leaves one
/// more hard edit undetermined, `k1b5/8/4B3/BpBpBp1p/bPbPbPbP/8/8/K7 w -
/// -` for Black, and spends 21% more nodes there). Scheduling only:
/// every answer is still the phase's own.
fn best_first_allowance(bound: u64, first_bound: u64, spent: u64) -> u64 {
    let least = first_bound.saturating_mul(16);
    bound.saturating_mul(16).min(spent.saturating_mul(BEST_FIRST_PACE).max(least))
}

/// The round from which on the exhaustive phase's allowance keeps pace
/// with the other phases' spending ([`full`]).
const EXHAUSTIVE_KEEPS_PACE_FROM: i32 = 7;

/// A best-first guidance, before its tables are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Steering {
    Material,
    Goal,
    Plan,
}

/// The guidance of the best-first phase at its first, second, third turn,
/// and so on in a cycle ([`best_first_runs`]). Each finds a different kind
/// of long helpmate: material for the ones that break a locked chain by
/// sacrifices and a promotion, goal squares for king marches into a net the static analysis
/// leaves open, the plan for marches where the winner's pieces must reach
/// their posts too (the goal when there is no plan). Measured on the hard
/// set (nodes, all queries, one thread): material-goal-plan 374 M with 3
/// undetermined, against 743 M and 11 for plan-goal without material.
const BEST_FIRST_ROTATION: [Steering; 3] = [Steering::Material, Steering::Goal, Steering::Plan];

/// The share of a turn's allowance each probe of the first turn gets
/// ([`best_first_runs`]).
const BEST_FIRST_PROBE_SHARE: u64 = 8;

/// The share of the first turn's allowance of the run of its own guidance
/// that keeps only a few tempo moves ([`best_first_runs`]).
const THINNED_RUN_SHARE: u64 = 4;

/// The tempo moves of a position a thinned best-first run keeps
/// ([`best_first::Tempo`]).
const TEMPO_MOVES_KEPT: u32 = 2;

/// Which tempo moves a best-first run with `guidance` keeps: a few in the
/// goal's runs (king marches, where the winner's pieces mostly wait) and
/// in the runs the schedule thins whatever their guidance
/// (`thin_any_guidance`), all of them otherwise.
///
/// Why. The heaviest queries were best-first runs that spent millions of
/// nodes on the arrangements of the winner's waiting pieces: the dev
/// set's lines 511 for White (seven bishops; the goal's run found the
/// 33-ply helpmate after 7.6 M nodes in all) and 371 for Black (the goal's
/// run filled its store without a mate, 12.6 M in all), the hard set's
/// line 766 for Black (a locked chain of bishops; the goal's run filled
/// its store, 8.2 M). Keeping two tempo moves a position: 0.31 M, 0.21 M
/// and 0.74 M (the last in the thinned material run). The material's own
/// runs keep every move: there the winner's king must often walk to the
/// loser's pieces, which are tempo moves by the material's count (thinning
/// every run: the 1,500 random edits of hard positions took 34.3 M
/// nodes instead of 12.3 M, one of them 18.6 M instead of 0.7 M), and so
/// do the plan's (thinned, hard line 405 for White went from 77 K to
/// 4.7 M: a winner's piece had to make way). Measured with the command
/// (one thread, 256 MiB, nodes), against keeping every move: the eight
/// choice sets 321.1 M -> 302.7 M, no answer changed, their largest
/// queries 12.55 M -> 4.29 M (dev) and 8.25 M -> 4.57 M (hard); on the
/// 9,000 random edits kept out of earlier choices (and used to compare
/// these variants) 298.0 M -> 277.9 M, the same 3 undetermined. Thinning
/// only the goal's runs: 291.3 M and 270.6 M, but hard line 766 took
/// 10.9 M; thinned runs of all three guidances first at the first turn:
/// 297.9 M and 287.9 M, largest 5.80 M and 5.24 M; thinning every run,
/// keeping one, two or three tempo moves: 375.5 M, 307.2 M, 310.3 M (a
/// prototype that thinned promotions too). Scheduling only: a run answers
/// nothing but helpmates ([`best_first::Tempo`]).
fn tempo_moves(guidance: best_first::Guidance<'_>, thin_any_guidance: bool) -> best_first::Tempo {
    if thin_any_guidance || matches!(guidance, best_first::Guidance::Goal(_)) {
        best_first::Tempo::First(TEMPO_MOVES_KEPT)
    } else {
        best_first::Tempo::All
    }
}

/// The best-first runs of the phase's `turn` (0 for its first) with the
/// node allowance `allowance`, each with its guidance, whether it is
/// thinned ([`tempo_moves`]) and its allowance: the turn's guidance in the
/// rotation with the whole allowance; at the first turn it is preceded by
/// the other guidances as probes, each with an eighth of it (the plan only
/// when there is one: without, it would be the goal's run again), and by a
/// thinned run of its own guidance with a quarter. The driver then skips a
/// run whose guidance is at its floor at the root
/// ([`best_first::Guidance::estimate_at_floor`]).
///
/// Why. The first turn's material-guided run used its whole allowance and
/// failed in most of the positions where the other solver is fast and we
/// were not (the 176 winnable dev and hard queries it decides within
/// 0.1 s that took us over 0.1 M nodes: 57.6 M of their 151.4 M nodes went
/// to failing material runs, 1.35 M each at the first turn), while the
/// goal or plan guidance, two turns later, found the helpmate in 0.01-0.1 M
/// nodes. A probe that fails costs a quarter of the turn; one that succeeds
/// saves the material run and two rounds. Measured with the command (one
/// thread, 256 MiB, nodes): dev 312.6 M -> 277.5 M, hard 134.1 M ->
/// 111.5 M; on 5,000 random edits of dev and hard positions (measured for
/// the choice of the share too) 92.6 M -> 91.3 M.
/// Shares of a half, a quarter, a sixteenth and a thirty-second gave dev
/// and hard 264.2 M and 132.0 M, 262.4 M and 116.9 M, 274.3 M and
/// 121.9 M, 272.8 M and 120.5 M; probes at every turn (a sixteenth):
/// 307.4 M and 136.0 M. Scheduling only: every helpmate a run finds is
/// replayed, and a run never answers "unwinnable".
fn best_first_runs(turn: usize, allowance: u64, has_plan: bool) -> Vec<(Steering, bool, u64)> {
    let main = BEST_FIRST_ROTATION[turn % BEST_FIRST_ROTATION.len()];
    if turn > 0 {
        return vec![(main, false, allowance)];
    }
    // The first turn's own guidance is the rotation's first; the probes are
    // the others.
    let probes = BEST_FIRST_ROTATION[1..].iter().filter(|&&s| has_plan || s != Steering::Plan);
    let probes = probes.map(|&s| (s, false, allowance / BEST_FIRST_PROBE_SHARE));
    probes.chain([(main, true, allowance / THINNED_RUN_SHARE), (main, false, allowance)]).collect()
}

/// The exhaustive phase with the recovery of a mate's moves: `None` when it
/// was interrupted.
fn exhaustive(
    shared: &mut Shared<'_>,
    traversal: &mut Exhaustive,
    start: &Position,
    allowance: u64,
) -> Option<Outcome> {
    match traversal.run(shared, start, allowance) {
        Traversal::Mate { plies } => recover(shared, start, plies).map(Outcome::Mate),
        Traversal::Complete { nodes } => Some(Outcome::Proof(Proof::Exhaustive { nodes })),
        Traversal::Interrupted => None,
    }
}

/// The cause of an undetermined answer: the limit that stopped the
/// analysis, reported as memory when the node budget ran out after the
/// exhaustive traversal could no longer grow (more memory, not more nodes,
/// is what it lacked).
fn cause(shared: &Shared<'_>, traversal: &Exhaustive) -> Cause {
    match shared.meter.cause() {
        Some(Cause::NodeBudget) | None if traversal.out_of_memory => Cause::Memory,
        Some(cause) => cause,
        None => Cause::NodeBudget,
    }
}

/// The moves of a helpmate of exactly `plies` plies, known to exist: a
/// plain depth-limited search (no scores: depth is plies) to that depth
/// finds one. Its table is sized for [`RECOVERY_TABLE_PER_POSITION`] times
/// the positions the traversal visited.
fn recover(shared: &mut Shared<'_>, start: &Position, plies: u32) -> Option<Vec<Move>> {
    let plain = Guide::plain(shared.winner);
    let table = Table::FreshFor(shared.visited.len().saturating_mul(RECOVERY_TABLE_PER_POSITION));
    let options = deepening::Options { table, ..deepening::Options::plain(plies as i32) };
    match deepening::iterate(shared, plain, start, options) {
        Iteration::Mate(moves) => Some(moves),
        _ => None,
    }
}

/// The size of the table of the search recovering a helpmate's moves
/// ([`recover`]), in entries per position the traversal visited. The
/// search enters only positions fewer than `plies` moves from the root,
/// which the breadth-first traversal has all visited (or pruned), so their
/// number bounds what it stores; the table is one that overwrites, so it
/// is given room to keep its collisions rare (sized for twice, the search
/// counted up to 1.7 times the nodes: dev line 17 for White 83.6 K ->
/// 141.7 K; sixteen times: 97.5 K). Before, sized for its unbounded node
/// bound, the table took the whole quarter of the budget, allocated and
/// written for a search of a few thousand positions whenever an earlier
/// query had released it: queries of 2-50 K nodes took 17-28 ms (dev
/// line 10 for White, a 21-ply helpmate after 2,780 nodes: 23.7 ms against
/// 6.9 ms; the other solver 0.4 ms). Measured with the command on the
/// eight sets used for choices (one thread, 256 MiB): the 17 queries
/// whose recovery ended otherwise count 0.1-17% more nodes (23.2 K in
/// all); the ten of them that took 12-28 ms take 1.3-12 ms, the others
/// move by a few milliseconds either way; no answer changed. Sizing only:
/// the table is lossy at every size (a hit compares the whole position),
/// and the search finds a helpmate of exactly `plies` plies at any size
/// (tested with the smallest table).
const RECOVERY_TABLE_PER_POSITION: u64 = 16;

/// Shortest helpmates: the static proof first, then the exhaustive
/// breadth-first traversal (its first mate is a shortest one, and when it
/// completes it proves unwinnability); when the traversal runs out of
/// memory, iterative deepening without the scores, where each iteration
/// must complete (a mate found after a cut iteration might not be shortest).
pub(crate) fn shortest(shared: &mut Shared<'_>, start: &Position, memory: Memory) -> Outcome {
    if let Some(proof) = static_proof(start, shared.winner) {
        return Outcome::Proof(proof);
    }
    let mut traversal = Exhaustive::new(memory.queue, memory.visited_growth_bytes());
    if let Some(outcome) = exhaustive(shared, &mut traversal, start, u64::MAX) {
        return outcome;
    }
    let plain = Guide::plain(shared.winner);
    if !shared.meter.stopped() {
        // Out of memory: iterative deepening with what is left.
        for max_depth in 1..=i32::MAX {
            if let Ok(outcome) = answer(deepening::iterate(shared, plain, start, deepening::Options::plain(max_depth)))
            {
                return outcome;
            }
            if shared.meter.stopped() {
                break;
            }
        }
    }
    Outcome::Unknown(cause(shared, &traversal))
}

/// Figure 10: the quick algorithm.
pub(crate) fn quick(shared: &mut Shared<'_>, start: &Position) -> Outcome {
    let depth = shared.config.quick_depth;
    match quick::run(&mut shared.meter, start, shared.winner, depth) {
        quick::Quick::Mate(moves) => Outcome::Mate(moves),
        quick::Quick::Complete => Outcome::Proof(Proof::Exhaustive { nodes: shared.meter.nodes }),
        quick::Quick::Interrupted => {
            // A limit, or a line reached depth `D`: "not proved" unless the
            // static check proves it (bounded time, so it runs even after a
            // limit was hit).
            if blocked_candidate(start) {
                if let Some(proof) = static_proof(start, shared.winner) {
                    return Outcome::Proof(proof);
                }
            }
            Outcome::Unknown(shared.meter.cause().unwrap_or(Cause::NotProved))
        }
    }
}

/// Figure 10 step 5: only kings, pawns and bishops, and no semi-open file
/// (a file with pawns of one colour only). Other positions are very rarely
/// blocked, so the quick algorithm does not spend the static check on them.
fn blocked_candidate(pos: &Position) -> bool {
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
    use crate::guide::Targets;
    use crate::meter::Meter;
    use crate::plan::Plan;
    use crate::tt::TranspositionTable;

    /// The moves of a helpmate the traversal found are recovered with the
    /// smallest table too: exactly as many plies as the traversal counted,
    /// replayed to a mate by the winner. Long helpmates in locked
    /// positions (21 and 57 plies, dev lines 10 and 15 for White), where a
    /// depth-first search to that depth meets many transpositions.
    #[test]
    fn a_helpmate_is_recovered_with_the_smallest_table() {
        for fen in
            ["Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - -", "k1bK4/1p1p4/1PpPp3/2P1Pp2/2p1pP2/2p1P3/2P5/8 w - -"]
        {
            let root: Position = fen.parse().unwrap();
            let (mut tt, mut visited) = (TranspositionTable::new(1), TranspositionTable::new(64));
            let meter = Meter::new(u64::MAX, None, None);
            let mut shared = Shared::new(Color::White, Config::default(), meter, &mut tt, &mut visited);
            let mut traversal = Exhaustive::new(1 << 20, 64 << 20);
            let Traversal::Mate { plies } = traversal.run(&mut shared, &root, u64::MAX) else {
                panic!("{fen}: the traversal finds no mate")
            };
            // The recovery's table at its smallest, whatever the traversal visited.
            shared.visited.clear(0);
            let moves = recover(&mut shared, &root, plies).unwrap_or_else(|| panic!("{fen}: nothing recovered"));
            assert_eq!(moves.len(), plies as usize, "{fen}");
            let end = moves.iter().fold(root, |pos, &m| {
                assert!(pos.legal_moves().contains(&m), "{fen}: {m:?} is not legal");
                pos.play(m)
            });
            assert!(end.is_checkmate() && end.side_to_move() == Color::Black, "{fen}: no mate by White");
        }
    }

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

    /// A best-first run gets sixteen times the iteration's bound, unless
    /// that is more than eight times what the query has spent; never less
    /// than the first run's share.
    #[test]
    fn a_best_first_run_keeps_pace_with_the_query() {
        // Iterations that use their bounds: the query has spent more than
        // twice the bound, so sixteen times the bound stands.
        assert_eq!(best_first_allowance(160_000, 10_000, 400_000), 2_560_000);
        // A small tree: the bound grew, the spending did not.
        assert_eq!(best_first_allowance(160_000, 10_000, 50_000), 400_000);
        // Never below the first run's allowance.
        assert_eq!(best_first_allowance(160_000, 10_000, 100), 160_000);
        assert_eq!(best_first_allowance(u64::MAX, 10_000, u64::MAX), u64::MAX);
    }

    /// The first turn probes the other guidances with an eighth of the
    /// allowance each, then runs its own guidance thinned with a quarter
    /// and whole; later turns run their guidance alone; no run is repeated
    /// with the same guidance and thinning (no plan: no plan probe, which
    /// would be the goal's run again).
    #[test]
    fn the_first_best_first_turn_probes_the_other_guidances() {
        use Steering::{Goal, Material, Plan};
        assert_eq!(
            best_first_runs(0, 800, true),
            vec![(Goal, false, 100), (Plan, false, 100), (Material, true, 200), (Material, false, 800)]
        );
        assert_eq!(
            best_first_runs(0, 800, false),
            vec![(Goal, false, 100), (Material, true, 200), (Material, false, 800)]
        );
        for has_plan in [true, false] {
            assert_eq!(best_first_runs(1, 800, has_plan), vec![(Goal, false, 800)]);
            assert_eq!(best_first_runs(2, 800, has_plan), vec![(Plan, false, 800)]);
            assert_eq!(best_first_runs(3, 800, has_plan), vec![(Material, false, 800)]);
        }
    }

    /// The goal's runs and the runs the schedule thins keep two tempo
    /// moves a position; the plan's and the material's own runs keep them
    /// all.
    #[test]
    fn the_goal_and_the_thinned_runs_keep_few_tempo_moves() {
        use best_first::{Guidance, Tempo};
        let pos: Position = "k1b5/1p1p4/1P1P1K2/8/8/B7/8/1b6 w - -".parse().unwrap();
        let plan = Plan::of(&pos, Color::Black).expect("a net is possible");
        let goal = Guidance::Goal(Targets::of(&pos, Color::Black).loser_king);
        assert_eq!(tempo_moves(goal, false), Tempo::First(TEMPO_MOVES_KEPT));
        assert_eq!(tempo_moves(goal, true), Tempo::First(TEMPO_MOVES_KEPT));
        for guidance in [Guidance::Plan(&plan), Guidance::Material] {
            assert_eq!(tempo_moves(guidance, false), Tempo::All, "{guidance:?}");
            assert_eq!(tempo_moves(guidance, true), Tempo::First(TEMPO_MOVES_KEPT), "{guidance:?}");
        }
    }

    /// A look-ahead follows an iteration only when its node bound cut it,
    /// six plies deeper with an eighth of the bound (at least one node).
    #[test]
    fn a_look_ahead_follows_a_cut_iteration() {
        assert_eq!(look_ahead(1, 10_001, 10_000), Some((7, 1_250)));
        assert_eq!(look_ahead(5, 40_001, 40_000), Some((11, 5_000)));
        assert_eq!(look_ahead(3, 20_000, 20_000), None);
        assert_eq!(look_ahead(3, 354, 20_000), None);
        assert_eq!(look_ahead(1, 2, 1), Some((7, 1)));
        assert_eq!(look_ahead(i32::MAX - 1, 3, 2), Some((i32::MAX, 1)));
    }

    /// The iterations go on alone while they have spent less than the
    /// other phases, and never when those have spent nothing.
    #[test]
    fn the_iterations_catch_up_with_the_other_phases() {
        assert!(iterations_catch_up(10_000, 30_000));
        assert!(!iterations_catch_up(15_000, 30_000));
        assert!(!iterations_catch_up(20_000, 30_000));
        assert!(!iterations_catch_up(10_000, 10_000));
        assert!(!iterations_catch_up(1, 1));
    }

    /// The best-first phase gets what the tables and the queue leave of the
    /// budget: everything when they hold nothing, at least its quarter when
    /// they hold theirs, and never more than the budget in all.
    #[test]
    fn the_best_first_phase_uses_what_the_others_leave() {
        let memory = Memory::split(256);
        let quarter = 64 << 20;
        assert_eq!(memory.budget_bytes, 4 * quarter);
        assert_eq!(memory.best_first_positions(0), 4 * quarter / best_first::BYTES_PER_POSITION);
        assert_eq!(memory.best_first_positions(3 * quarter), memory.best_first);
        // The visited set stays within its quarter, and its growth within
        // its own and the idle best-first phase's.
        assert!(memory.visited_growth_bytes() <= quarter);
        assert!(memory.tt_mb << 20 <= quarter && 2 * memory.visited_growth_bytes() <= 2 * quarter);
        assert!(memory.tt_mb << 20 <= quarter);
        assert!(2 * memory.queue * core::mem::size_of::<(Position, u32, u8)>() <= quarter);
        for allocated in [0, quarter, 3 * quarter, 4 * quarter, 5 * quarter] {
            let positions = memory.best_first_positions(allocated);
            assert!(
                allocated.min(memory.budget_bytes) + positions * best_first::BYTES_PER_POSITION <= memory.budget_bytes
            );
        }
    }
}
