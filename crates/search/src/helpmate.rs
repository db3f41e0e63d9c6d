//! Find-Helpmate (paper Figure 5): a depth-limited depth-first search for a
//! sequence of legal moves ending in a checkmate by the intended winner.
//!
//! # What a "no" means, and why it is sound
//!
//! The search answers `true` only when it has *reached* a checkmate by the
//! winner (and the moves on the stack are the helpmate). It answers `false`
//! for a node when:
//!
//! 1. the game is over there without the winner mating (stalemate, or the
//!    winner is mated): no continuation exists;
//! 2. the winner has insufficient material (lone king, Lemma 5, Lemma 6 of
//!    the paper): unwinnable from there, proved in `static-check`;
//! 3. the static analysis proves the node unwinnable (when enabled):
//!    sound by the proof in `static_check::figure8`. The result is cached
//!    in the node's table entry; a cached proof is a fact about the
//!    position, so it prunes in any later iteration too;
//! 4. a limit is hit (the node's remaining depth is negative, or the node
//!    budget is spent): this sets [`Search::interrupted`];
//! 5. the node is in the transposition table with at least the same
//!    remaining depth, *in the current iteration*;
//! 6. all its moves were searched and none led to a mate.
//!
//! **Claim.** If an iteration ends with `false` at the root and
//! `interrupted` unset, no checkmate by the winner is reachable from the
//! root. *Proof.* Let `V` be the set of positions entered in the iteration
//! (stored in the table at step 6 of Figure 5, before their moves are
//! searched). Without interruption, each position of `V` had all its moves
//! searched, and each child is a checkmate by the winner (impossible: the
//! answer would be `true`), a node of cases 1-3 (no mate reachable from
//! it), or a position of `V` (entered now or earlier in this iteration,
//! whether or not its entry was since evicted: case 5 only prunes on an
//! entry of this iteration). So every position reachable from the root
//! through positions of `V` is in `V` or has no mate reachable; by
//! induction on the length of a path, no mate is reachable at all.
//!
//! Two details matter for this argument:
//!
//! * **Entries of earlier iterations are not evidence.** Figure 9 shares
//!   the table between iterations, but an entry stored in an earlier
//!   iteration may belong to a subtree that was cut by a limit then. If a
//!   later iteration pruned on it and otherwise finished without a cut, it
//!   would report "unwinnable" without ever having searched that subtree.
//!   So the search does prune on such *stale* entries (they say "searched
//!   to this depth before, no mate found", which is what makes iterative
//!   deepening cheap), but records it in [`Search::stale`], and an
//!   iteration that pruned on a stale entry is not a proof. (Entries of
//!   positions whose search was abandoned by the node bound are removed on
//!   the way out, so a later iteration does not trust their depth.)
//! * **The table is probed before the depth cut** (the paper cuts first).
//!   A hit there means the position was already entered in this iteration,
//!   so pruning it is covered by the argument above, and it avoids
//!   reporting an interruption for a position that is fully accounted for.
//!
//! Termination: the remaining depth `d` of a child is `d + inc - 1` with
//! `inc ≤ 1`, so it never grows along a path; a position met again on the
//! current path has an entry with at least its depth (unless evicted), and
//! the node budget bounds everything regardless. Lines longer than
//! [`MAX_PLY`] are cut like the depth limit, so the recursion depth is
//! bounded whatever the table evicts.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use movegen::{Color, Move, MoveList, Position};
use static_check::insufficient_material;

use crate::score::{Score, score};
use crate::tt::{PackedPosition, STATIC_FAILED, STATIC_PROVED, STATIC_UNKNOWN, TranspositionTable};

/// The mutable state of one analysis (shared by its iterations).
#[derive(Debug)]
pub struct Search<'t> {
    /// The intended winner.
    pub winner: Color,
    /// Use Score (Figure 12) and footnote b; off for shortest-mate search.
    pub rewards: bool,
    /// Where the heuristics steer the pieces.
    pub targets: crate::score::Targets,
    /// Prune nodes the static analysis proves unwinnable, at nodes reached
    /// by an irreversible move (capture, pawn move) with at least this many
    /// plies of remaining depth (`None`: never). The check costs tens of
    /// nodes' worth of time; its answer rarely changes after a reversible
    /// move (the structure it reasons about is the same), and it pays most
    /// near the top of large subtrees.
    pub static_pruning: Option<i32>,
    /// The table.
    pub tt: &'t mut TranspositionTable,
    /// Nodes counted in the current iteration (`cnt` of Figure 5).
    pub iteration_nodes: u64,
    /// Node bound of the current iteration (`nodesBound`).
    pub node_bound: u64,
    /// Nodes counted over all iterations.
    pub total_nodes: u64,
    /// The global node budget.
    pub budget: u64,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// A limit (depth or iteration bound) was hit in this iteration.
    pub interrupted: bool,
    /// The global budget or deadline was hit: the analysis is over.
    pub stopped: bool,
    /// Which limit stopped it (set with `stopped`).
    pub stop_cause: Option<crate::Cause>,
    /// Raised by the caller to stop the analysis (checked with the deadline).
    pub stop_flag: Option<Arc<AtomicBool>>,
    /// This iteration pruned on an entry of an earlier iteration: even
    /// without interruption it proves nothing.
    pub stale: bool,
    /// Static-pruning calls and successes over the whole analysis.
    static_calls: u64,
    static_hits: u64,
    /// The iteration's node bound or the global limits were hit: unwind.
    iteration_over: bool,
    /// The moves from the root to the current node.
    pub path: Vec<Move>,
    /// Mask applied to position hashes (see [`crate::Config::hash_mask`]).
    pub hash_mask: u64,
}

/// Static-pruning calls before its success rate is judged.
pub const STATIC_TRIAL: u64 = 200;
/// Static pruning continues while at least one call in this many succeeds.
pub const STATIC_MIN_RATE: u64 = 20;

/// The deepest line searched; deeper nodes are cut like depth-limit nodes
/// (interrupting the iteration). Keeps the recursion within the stack.
pub const MAX_PLY: usize = 600;

impl<'t> Search<'t> {
    /// A search for `winner` with the given table and limits.
    pub fn new(winner: Color, tt: &'t mut TranspositionTable, budget: u64, deadline: Option<Instant>) -> Search<'t> {
        Search {
            winner,
            rewards: true,
            static_pruning: None,
            tt,
            iteration_nodes: 0,
            node_bound: u64::MAX,
            total_nodes: 0,
            budget,
            deadline,
            interrupted: false,
            stopped: false,
            stop_cause: None,
            stop_flag: None,
            stale: false,
            static_calls: 0,
            static_hits: 0,
            iteration_over: false,
            path: Vec::with_capacity(64),
            hash_mask: u64::MAX,
            targets: crate::score::Targets::default(),
        }
    }

    /// Starts an iteration of Figure 9 with the given node bound, keeping
    /// the table's entries (their hits will be stale).
    pub fn start_iteration(&mut self, node_bound: u64) {
        self.tt.new_iteration();
        self.reset_counters(node_bound);
    }

    /// Starts a search with an empty table, sized for about `node_bound`
    /// positions.
    pub fn start_fresh(&mut self, node_bound: u64) {
        self.tt.clear(node_bound.saturating_mul(2));
        self.reset_counters(node_bound);
    }

    pub(crate) fn reset_counters(&mut self, node_bound: u64) {
        self.iteration_nodes = 0;
        self.node_bound = node_bound;
        self.interrupted = false;
        self.stale = false;
        self.iteration_over = false;
        self.path.clear();
    }

    /// Runs one iteration from `root` with `max_depth` plies (extended or
    /// shortened by the scores). `true` if a helpmate was found (then it is
    /// in [`Search::path`]).
    pub fn run(&mut self, root: &Position, max_depth: i32) -> bool {
        self.find(root, max_depth, false, false)
    }

    /// Figure 5 on `pos` with `remaining = maxDepth - depth` plies left;
    /// `rewarded` tells whether the move that led here scored Reward
    /// (footnote b).
    fn find(&mut self, pos: &Position, remaining: i32, rewarded: bool, irreversible: bool) -> bool {
        if remaining < 0 || self.path.len() >= MAX_PLY {
            return self.frontier(pos);
        }
        let mut moves = MoveList::new();
        pos.generate_legal_moves(&mut moves);
        if moves.is_empty() {
            // Step 1 (mate by the winner), or case 1 (stalemate, winner mated).
            return pos.is_check() && pos.side_to_move() != self.winner;
        }
        // Case 2.
        if insufficient_material(pos, self.winner).is_some() {
            return false;
        }
        // Steps 3-4 (node limits).
        if !self.count_node() {
            return false;
        }
        // Step 5.
        let packed = PackedPosition::new(pos);
        let hash = pos.hash() & self.hash_mask;
        let hit = self.tt.probe(hash, &packed);
        let mut static_result = hit.map_or(STATIC_UNKNOWN, |h| h.static_result);
        // Case 3 (cached): a static proof holds in every iteration.
        if static_result == STATIC_PROVED {
            return false;
        }
        if let Some(hit) = hit {
            if i32::from(hit.depth) >= remaining {
                self.stale |= hit.stale;
                return false;
            }
        }
        // Case 3.
        if static_result == STATIC_UNKNOWN
            && irreversible
            && self.static_pruning.is_some_and(|min| remaining >= min)
            && self.static_pays()
        {
            self.static_calls += 1;
            if static_check::is_unwinnable(pos, self.winner) {
                self.static_hits += 1;
                self.tt.store_with(hash, packed, i16::MAX, STATIC_PROVED);
                return false;
            }
            static_result = STATIC_FAILED;
        }
        // Step 6.
        self.tt.store_with(hash, packed, remaining.min(i32::from(i16::MAX)) as i16, static_result);
        // Steps 7-9.
        for &m in &moves {
            let (inc, child_rewarded) = if self.rewards {
                match score(pos, m, self.winner, &self.targets) {
                    Score::Reward => (1, true),
                    // Footnote b: a normal move right after a rewarded one
                    // is rewarded too.
                    Score::Normal => (i32::from(rewarded), false),
                    Score::Punish => (-2, false),
                }
            } else {
                (0, false)
            };
            self.path.push(m);
            let irreversible = pos.is_capture(m) || pos.board().pawns().contains(m.from());
            if self.find(&pos.play(m), remaining + inc - 1, child_rewarded, irreversible) {
                return true;
            }
            self.path.pop();
            if self.iteration_over {
                // Abandoned: the stored depth is no promise any more.
                self.tt.forget(hash, &packed);
                return false;
            }
        }
        false
    }

    /// A node below the depth limit (or at the ply cap): Figure 5 steps 1-5
    /// without generating the move list. Only the existence of a legal move
    /// matters here (mate and stalemate are the positions without one), so
    /// the early-exit [`Position::has_legal_moves`] answers it. A position
    /// already entered in this iteration is pruned as in step 5 (probed
    /// before the cut, see the module docs); any other is cut, which marks
    /// the iteration interrupted.
    fn frontier(&mut self, pos: &Position) -> bool {
        if !pos.has_legal_moves() {
            return pos.is_check() && pos.side_to_move() != self.winner;
        }
        if insufficient_material(pos, self.winner).is_some() {
            return false;
        }
        if !self.count_node() {
            return false;
        }
        if let Some(hit) = self.tt.probe(pos.hash() & self.hash_mask, &PackedPosition::new(pos)) {
            // A cached static proof is case 3, valid in every iteration.
            if hit.static_result != STATIC_PROVED {
                self.stale |= hit.stale;
            }
            return false;
        }
        self.interrupted = true;
        false
    }

    /// Whether static pruning is worth its cost in this analysis: after a
    /// trial of [`STATIC_TRIAL`] calls it continues only if at least one
    /// call in [`STATIC_MIN_RATE`] proved something. (Only speed depends on
    /// this choice.)
    #[inline]
    fn static_pays(&self) -> bool {
        self.static_calls < STATIC_TRIAL || self.static_hits * STATIC_MIN_RATE >= self.static_calls
    }

    /// Counts a node (step 3); `false` when a node limit is hit (step 4),
    /// which interrupts the iteration (and with the global budget or the
    /// deadline, the whole analysis).
    #[inline]
    pub(crate) fn count_node(&mut self) -> bool {
        self.iteration_nodes += 1;
        self.total_nodes += 1;
        if self.total_nodes >= self.budget || (self.total_nodes & 1023 == 1 && self.past_limits()) {
            if self.stop_cause.is_none() {
                self.stop_cause = Some(crate::Cause::NodeBudget);
            }
            self.stopped = true;
            self.interrupted = true;
            self.iteration_over = true;
            return false;
        }
        if self.iteration_nodes > self.node_bound {
            // Figure 5 would go on visiting siblings that all stop here;
            // the iteration is interrupted either way, so unwind at once.
            self.interrupted = true;
            self.iteration_over = true;
            return false;
        }
        true
    }

    /// Whether the deadline passed or the stop flag was raised (recorded
    /// in `stop_cause`).
    fn past_limits(&mut self) -> bool {
        if self.stop_flag.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            self.stop_cause = Some(crate::Cause::Stopped);
            return true;
        }
        if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            self.stop_cause = Some(crate::Cause::Deadline);
            return true;
        }
        false
    }

    /// The cause to report when the analysis stopped without an answer.
    pub fn cause(&self) -> crate::Cause {
        self.stop_cause.unwrap_or(crate::Cause::NodeBudget)
    }
}
