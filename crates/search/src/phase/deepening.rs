//! Find-Helpmate (paper Figure 5): one iteration of the depth-limited,
//! depth-first search for a sequence of legal moves ending in a checkmate by
//! the intended winner. The full algorithm (Figure 9) runs it with growing
//! depths and node bounds; the shortest-helpmate mode without the scores.
//!
//! # What a "no" means, and why it is sound
//!
//! The search answers "found" only when it has *reached* a checkmate by the
//! winner (and the moves on the stack are the helpmate). It answers "no"
//! for a node when:
//!
//! 1. the game is over there without the winner mating (stalemate, or the
//!    winner is mated): no continuation exists;
//! 2. the winner has insufficient material (lone king, Lemma 5, Lemma 6 of
//!    the paper): unwinnable from there, proved in `static-check` (checked
//!    after the game-over test, as the lemmas require);
//! 3. the static analysis proves the node unwinnable (when enabled, see
//!    [`crate::statics`]). The result is cached in the node's table entry;
//!    a cached proof is a fact about the position, so it prunes in any
//!    later iteration too;
//! 4. a limit is hit (the node's remaining depth is negative, the ply cap,
//!    the iteration's node bound, or a global limit): this marks the
//!    iteration *interrupted*;
//! 5. the node is in the transposition table with at least the same
//!    remaining depth, *in the current iteration*;
//! 6. all its moves were searched and none led to a mate.
//!
//! **Claim.** If an iteration ends with "no" at the root and is neither
//! interrupted nor *stale* (below), no checkmate by the winner is reachable
//! from the root. *Proof.* Let `V` be the set of positions entered in the
//! iteration (stored in the table at step 6 of Figure 5, before their moves
//! are searched). Without interruption, each position of `V` had all its
//! moves searched, and each child is a checkmate by the winner (impossible:
//! the answer would be "found"), a node of cases 1-3 (no mate reachable
//! from it), or a position of `V` (entered now or earlier in this
//! iteration, whether or not its entry was since evicted: case 5 only
//! prunes on an entry of this iteration). So every position reachable from
//! the root through positions of `V` is in `V` or has no mate reachable; by
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
//!   deepening cheap), but records it, and an iteration that pruned on a
//!   stale entry is not a proof. (Entries of positions whose search was
//!   abandoned by a node limit are removed on the way out, so a later
//!   iteration does not trust their depth.)
//! * **The table is probed before the depth cut** (the paper cuts first).
//!   A hit there means the position was already entered in this iteration,
//!   so pruning it is covered by the argument above, and it avoids
//!   reporting an interruption for a position that is fully accounted for.
//!   Once an iteration is interrupted it can prove nothing, so the probe
//!   below the depth limit is skipped from then on (it only ever set the
//!   flags; the node is cut either way): most nodes lie there, and their
//!   probes miss the cache (docs/tuning.md#frontier).
//!
//! Termination: the remaining depth `d` of a child is `d + inc - 1` with
//! `inc ≤ 1`, so it never grows along a path; a position met again on the
//! current path has an entry with at least its depth (unless evicted), and
//! the node budget bounds everything regardless. Lines longer than
//! [`MAX_PLY`] are cut like the depth limit, so the recursion depth is
//! bounded whatever the table evicts.

use arrayvec::ArrayVec;
use movegen::{
    Bitboard, CheckSquares, Color, Move, MoveList, PackedPosition, Position, Role, Square, StagedMoves, attacks,
};
use static_check::insufficient_material;

use crate::guide::{Guide, NodeGuide, Score};
use crate::shared::Shared;
use crate::tt::{Hit, STATIC_FAILED, STATIC_PROVED, STATIC_UNKNOWN};

/// The deepest line searched; deeper nodes are cut like depth-limit nodes
/// (interrupting the iteration). Keeps the recursion within the stack.
pub const MAX_PLY: usize = 600;

/// How an iteration starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Table {
    /// Forget every entry (sized for the node bound).
    Fresh,
    /// Keep the entries of earlier iterations (their hits are stale).
    Keep,
}

/// What one iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Iteration {
    /// A helpmate (from the root).
    Mate(Vec<Move>),
    /// No mate reachable: every line ended, nothing was cut, and no stale
    /// entry was relied on (see the module docs).
    Proof {
        /// Positions counted in the iteration.
        nodes: u64,
    },
    /// Some line was cut.
    Interrupted {
        /// Positions counted in the iteration.
        nodes: u64,
        /// Nothing but stale entries stood in the way of a proof: the
        /// reachable set is probably small.
        only_stale: bool,
    },
}

/// The options of one iteration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options {
    /// The depth limit (plies, before extensions).
    pub max_depth: i32,
    /// The most nodes counted before the iteration is interrupted.
    pub node_bound: u64,
    /// Whether the table starts empty.
    pub table: Table,
    /// Which moves are rewarded and punished (Figure 12, footnote b).
    pub scores: Scores,
    /// Ask the static check at nodes reached by an irreversible move (when
    /// the configuration enables it, [`crate::Config::static_pruning`]).
    pub static_pruning: bool,
    /// The order in which a node's moves are tried.
    pub order: MoveOrder,
    /// Once the iteration is interrupted, the winner's quiet moves that
    /// leave the loser no depth are counted and not played
    /// ([`Dfs::counted_only`]).
    pub quiet_tail: bool,
}

/// Which variations an iteration rewards and punishes (Figure 5's `inc`).
/// Scores only decide how deep each variation is searched: an iteration is
/// a proof only when nothing was cut, whatever the scores (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scores {
    /// None: every move counts one ply (shortest helpmates).
    Off,
    /// Figure 12 with footnote b.
    Paper,
    /// Figure 12 with footnote b, every pawn move of the loser rewarded and
    /// its other captures not punished ([`crate::guide::Guide::node`]).
    LoserOpens,
}

/// The order in which [`iterate`] tries a node's moves. Order only: every
/// move of a node is tried unless a mate was found or the iteration is
/// over, so the claim of the module docs holds for any order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveOrder {
    /// The move generator's order.
    Generated,
    /// The generator's order, started at a move chosen pseudo-randomly from
    /// the position's hash and the seed, wrapping around at the end (the
    /// generator's relative order kept). An iteration interrupted by its
    /// node bound has searched only the first moves of the nodes near the
    /// root (a depth-first search goes deep into the first moves, and the
    /// rewarded moves keep the depth from falling); one with another seed
    /// searches other parts of the tree, as restarts with a randomised
    /// order do in other heavy-tailed tree searches, instead of the same
    /// part again with a little more depth.
    Rotated {
        /// Chosen per iteration.
        seed: u64,
    },
    /// The generator's order at the winner's nodes; at the loser's, the
    /// generator's list taken from its end (its king's moves first). The
    /// first iteration's restart uses it: a depth-first iteration cut by
    /// its bound has walked deep into its first choices, and most of those
    /// are the loser's, so a restart that tries the loser's moves the other
    /// way round meets other lines first, while the winner's moves keep the
    /// order that finds most helpmates (docs/tuning.md#first-restart).
    LoserReversed,
}

impl MoveOrder {
    /// Whether a node's moves are taken in the generator's order, a stage
    /// at a time (`winner_moves`: the winner is to move there); otherwise
    /// they are generated whole and [`MoveOrder::arrange`]d.
    #[inline]
    pub fn generated_at(self, winner_moves: bool) -> bool {
        match self {
            MoveOrder::Generated => true,
            MoveOrder::LoserReversed => winner_moves,
            MoveOrder::Rotated { .. } => false,
        }
    }

    /// The moves of the position with `hash` in this order: every one
    /// once.
    #[inline]
    pub fn arrange(self, hash: u64, moves: &[Move]) -> Arranged<'_> {
        if self == MoveOrder::LoserReversed {
            return Arranged::Reversed(moves.iter().rev());
        }
        let (before, after) = moves.split_at(self.first(hash, moves.len()));
        Arranged::Rotated(after.iter().chain(before))
    }

    /// The index of the first of `len` moves to try in the position with
    /// `hash` (`0` for the generator's order; below `len` unless `len` is 0).
    #[inline]
    fn first(self, hash: u64, len: usize) -> usize {
        match self {
            MoveOrder::Generated | MoveOrder::LoserReversed => 0,
            MoveOrder::Rotated { seed } => {
                // A multiplicative mix of the hash and the seed; its high
                // 32 bits scaled to `0..len` by a multiplication.
                let mixed = (hash ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
                ((mixed * len as u64) >> 32) as usize
            }
        }
    }
}

/// A node's moves in a [`MoveOrder`] ([`MoveOrder::arrange`]).
pub(crate) enum Arranged<'m> {
    /// From a move on, wrapping around (the generator's order from its
    /// first move).
    Rotated(std::iter::Chain<std::slice::Iter<'m, Move>, std::slice::Iter<'m, Move>>),
    /// From the last move back.
    Reversed(std::iter::Rev<std::slice::Iter<'m, Move>>),
}

impl Iterator for Arranged<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        match self {
            Arranged::Rotated(moves) => moves.next().copied(),
            Arranged::Reversed(moves) => moves.next().copied(),
        }
    }
}

impl Options {
    /// A plain iteration to `max_depth` plies: no scores (depth is plies),
    /// no node bound, a fresh table, static pruning as configured, the
    /// generator's move order. The shortest-helpmate mode uses it when the
    /// traversal runs out of memory.
    pub fn plain(max_depth: i32) -> Options {
        Options {
            max_depth,
            node_bound: u64::MAX,
            table: Table::Fresh,
            scores: Scores::Off,
            static_pruning: true,
            order: MoveOrder::Generated,
            quiet_tail: false,
        }
    }
}

/// Runs one iteration of Figure 5 from `root` (see the module docs).
pub(crate) fn iterate(shared: &mut Shared<'_>, guide: &Guide, root: &Position, options: Options) -> Iteration {
    iterate_taking_tails(shared, guide, root, options, true)
}

/// [`iterate`], with the winner's tail nodes' moves taken by sets
/// ([`Dfs::winner_tail`]) or, for the tests that compare the two, one by
/// one.
fn iterate_taking_tails(
    shared: &mut Shared<'_>,
    guide: &Guide,
    root: &Position,
    options: Options,
    tails_by_sets: bool,
) -> Iteration {
    match options.table {
        // Sized for half the node bound (a power of two at or above it): an
        // iteration stores only the positions it enters, and a smaller
        // table keeps its probes in the cache
        // (docs/tuning.md#iteration-table).
        Table::Fresh => shared.tt.clear(options.node_bound / 2),
        Table::Keep => shared.tt.new_iteration(),
    }
    let mut dfs = Dfs {
        winner: shared.winner,
        guide,
        scores: options.scores,
        static_pruning: shared.config.static_pruning().filter(|_| options.static_pruning),
        nodes: 0,
        node_bound: options.node_bound,
        interrupted: false,
        stale: false,
        over: false,
        path: Vec::with_capacity(64),
        order: options.order,
        quiet_tail: options.quiet_tail,
        tails_by_sets,
        max_ply: shared.max_ply,
        shared,
    };
    if dfs.find(root, options.max_depth, false, false) {
        return Iteration::Mate(dfs.path);
    }
    let nodes = dfs.nodes;
    match (dfs.interrupted, dfs.stale) {
        (false, false) => Iteration::Proof { nodes },
        (interrupted, _) => Iteration::Interrupted { nodes, only_stale: !interrupted },
    }
}

/// What the moves of an entered node need ([`Dfs::enter`]).
struct Node<'g> {
    hash: u64,
    packed: PackedPosition,
    /// The scores of its moves (none without scores).
    guide: Option<NodeGuide<'g>>,
    /// The move that led here was rewarded (footnote b).
    rewarded: bool,
    remaining: i32,
    /// The loser is to move.
    loser_moves: bool,
    /// The check sets of a winner's node entered once the iteration was
    /// interrupted, when [`Dfs::counted_only`] may ask of its moves whether
    /// they give check: its children have no depth left (`remaining` 0), or
    /// none beyond the quiet tail's (1) (docs/tuning.md#check-squares).
    /// Speed only, like `counted_only` itself, and the same answers as
    /// `Position::gives_check` (`movegen/tests/gives_check.rs`).
    checks: Option<CheckSquares>,
}

/// The state of one iteration.
struct Dfs<'s, 'a, 'g> {
    winner: Color,
    guide: &'g Guide,
    scores: Scores,
    static_pruning: Option<i32>,
    /// Nodes counted in the iteration (`cnt` of Figure 5).
    nodes: u64,
    /// The iteration's node bound (`nodesBound`).
    node_bound: u64,
    /// A limit was hit in this iteration.
    interrupted: bool,
    /// A stale entry was pruned on in this iteration.
    stale: bool,
    /// The node bound or a global limit was hit: unwind.
    over: bool,
    /// The moves from the root to the current node.
    path: Vec<Move>,
    /// The order of each node's moves.
    order: MoveOrder,
    /// [`Options::quiet_tail`].
    quiet_tail: bool,
    /// The winner's tail nodes take their moves by sets
    /// ([`Dfs::winner_tail`]; off only in the tests that compare).
    tails_by_sets: bool,
    /// Lines are cut at this many plies ([`MAX_PLY`] but in tests).
    max_ply: usize,
    shared: &'s mut Shared<'a>,
}

impl<'g> Dfs<'_, '_, 'g> {
    /// Figure 5 on `pos` with `remaining = maxDepth - depth` plies left;
    /// `rewarded` tells whether the move that led here scored Reward
    /// (footnote b); `irreversible` whether it was an irreversible move.
    fn find(&mut self, pos: &Position, remaining: i32, rewarded: bool, irreversible: bool) -> bool {
        if remaining < 0 || self.path.len() >= self.max_ply {
            return self.frontier(pos, irreversible);
        }
        // Case 2 first (material only changes with an irreversible move,
        // and the driver checked the root): a position it ends is never
        // stored, so the probe below could not hit, and its moves need not
        // be generated. The game-over test (step 1, case 1) still decides
        // such a position when it has no legal move.
        //
        // Then step 5's probe, and a position the table holds skips steps
        // 1-2: its moves are only generated when the hit does not prune
        // it. Why this is sound: entries are this query's (each query
        // clears the table) and only stored below, after steps 1-2 passed
        // on the same position (side to move, castling rights and en
        // passant square included, which decide the legal moves), so it
        // has a legal move and step 1 would not end here. The premise is
        // tested (`the_table_holds_only_positions_with_a_legal_move`) and
        // asserted in debug builds.
        if irreversible && insufficient_material(pos, self.winner).is_some() {
            return !pos.has_legal_moves() && pos.is_check() && pos.side_to_move() != self.winner;
        }
        let packed = pos.pack();
        let hash = self.shared.hash(pos);
        let hit = self.shared.tt.probe(hash, &packed);
        // Step 1 (mate by the winner) or case 1 (stalemate, winner mated)
        // on a position not in the table, then steps 3-6, then steps 7-9
        // over the moves. (The argument's premise, checked in debug
        // builds:)
        debug_assert!(hit.is_none() || pos.has_legal_moves(), "a position without moves in the table");
        //
        // The moves are generated a stage at a time as they are taken
        // (`StagedMoves`, the generator's order exactly): a search that
        // walks down its first choices to a mate never generates the rest
        // (docs/tuning.md#staged-moves). A proof needs every move tried:
        // `StagedMoves` hands out exactly the generator's list, and on a
        // fresh list `any_left` is "has a legal move"
        // (`movegen/tests/staged.rs`).
        let generated = self.order.generated_at(pos.side_to_move() == self.winner);
        // A winner's node at the tail takes its checks first, by sets
        // ([`Dfs::winner_tail`]); its test for a legal move is the same.
        let tail = generated && remaining == 0 && !rewarded && self.winner_tail_applies(pos);
        let mut moves = if generated { StagedMoves::new(pos) } else { StagedMoves::whole(pos) };
        if hit.is_none() && !(if tail { pos.has_legal_moves() } else { moves.any_left() }) {
            return pos.is_check() && pos.side_to_move() != self.winner;
        }
        let Some(node) = self.enter(pos, hash, packed, hit, remaining, rewarded, irreversible) else {
            return false;
        };
        // (A scored node of an interrupted iteration with no depth left has
        // its guide and check sets, `enter`; one by one otherwise.)
        if tail {
            if self.tails_by_sets {
                if let Some(found) = self.winner_tail(pos, &node) {
                    return found;
                }
            }
            return self.tail_one_by_one(pos, &mut moves, &node);
        }
        if generated {
            for m in &mut moves {
                if let Some(found) = self.try_move(pos, m, &node) {
                    return found;
                }
            }
            return false;
        }
        for m in self.order.arrange(hash, moves.all()) {
            if let Some(found) = self.try_move(pos, m, &node) {
                return found;
            }
        }
        false
    }

    /// Steps 3-6 of Figure 5 on a node `find` enters (with a legal move):
    /// the node limits, the table's prune, the static check, the store.
    /// `None` when the node ends here (the answer is "no").
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        pos: &Position,
        hash: u64,
        packed: PackedPosition,
        hit: Option<Hit>,
        remaining: i32,
        rewarded: bool,
        irreversible: bool,
    ) -> Option<Node<'g>> {
        // Steps 3-4 (node limits).
        if !self.count_node() {
            return None;
        }
        // Step 5.
        let mut static_result = hit.map_or(STATIC_UNKNOWN, |h| h.static_result);
        // Case 3 (cached): a static proof holds in every iteration.
        if static_result == STATIC_PROVED {
            return None;
        }
        if let Some(hit) = hit {
            if i32::from(hit.depth) >= remaining {
                self.stale |= hit.stale;
                return None;
            }
        }
        // Case 3.
        if static_result == STATIC_UNKNOWN
            && irreversible
            && self.static_pruning.is_some_and(|min| remaining >= min)
            && self.shared.oracle.pays()
        {
            if self.shared.oracle.proves(pos, self.winner, self.path.len()) {
                self.shared.tt.store_with(hash, packed, i16::MAX, STATIC_PROVED);
                return None;
            }
            static_result = STATIC_FAILED;
        }
        // Step 6.
        self.shared.tt.store_with(hash, packed, remaining.min(i32::from(i16::MAX)) as i16, static_result);
        let guide = (self.scores != Scores::Off).then(|| self.guide.node(pos, self.scores == Scores::LoserOpens));
        let loser_moves = pos.side_to_move() != self.winner;
        let asks_checks = remaining == 0 || (self.quiet_tail && remaining == 1);
        let checks = (self.interrupted && !loser_moves && asks_checks).then(|| pos.check_squares());
        Some(Node { hash, packed, guide, rewarded, remaining, loser_moves, checks })
    }

    /// Steps 7-9 for the move `m` of the entered `node` (`pos`): `Some`
    /// with the answer when `find` returns it, `None` to go on with the
    /// next move.
    #[inline(always)]
    fn try_move(&mut self, pos: &Position, m: Move, node: &Node<'g>) -> Option<bool> {
        let (inc, child_rewarded) = match node.guide.as_ref().map(|guide| guide.score(pos, m)) {
            Some(Score::Reward) => (1, true),
            // Footnote b: a normal move right after a rewarded one is
            // rewarded too.
            Some(Score::Normal) => (i32::from(node.rewarded), false),
            Some(Score::Punish) => (-2, false),
            None => (0, false),
        };
        let remaining = node.remaining + inc - 1;
        let irreversible = pos.is_irreversible(m);
        if self.interrupted && !irreversible && self.counted_only(pos, m, node, remaining, child_rewarded) {
            if !self.count_node() {
                self.shared.tt.forget(node.hash, &node.packed);
                return Some(false);
            }
            return None;
        }
        self.path.push(m);
        if self.find(&pos.play(m), remaining, child_rewarded, irreversible) {
            return Some(true);
        }
        self.path.pop();
        if self.over {
            // Abandoned: the stored depth is no promise any more.
            self.shared.tt.forget(node.hash, &node.packed);
            return Some(false);
        }
        None
    }

    /// Whether the child of the reversible move `m` of `node` (`pos`),
    /// with `remaining` plies left and `rewarded` as scored, is counted and
    /// not played, once the iteration is interrupted. Speed and guidance
    /// only: an interrupted iteration proves nothing whatever it leaves
    /// out, and no answer is given here.
    ///
    /// * A dead child ([`Dfs::frontier`] would only count it): it lies
    ///   below the depth limit and is no mate by the winner (the winner is
    ///   to move there, or the winner's move gives no check). (Irreversible
    ///   moves take the usual way: the frontier does not count a child
    ///   with insufficient material.) The one difference: a child where
    ///   the loser has mated the winner is counted here and not there.
    /// * With [`Options::quiet_tail`], a quiet move of the winner (no
    ///   check, scored Normal) that leaves the loser no depth: the loser's
    ///   node could only go on through its own rewarded moves (its king
    ///   walking to a corner), which where the winner has a queen or a
    ///   rook seldom lead to the helpmate the first iteration looks for, and
    ///   every such node costs the loser's whole move list
    ///   (docs/tuning.md#quiet-tail). Later iterations keep these moves.
    #[inline(always)]
    fn counted_only(&self, pos: &Position, m: Move, node: &Node<'g>, remaining: i32, rewarded: bool) -> bool {
        let gives_check =
            || node.checks.as_ref().map_or_else(|| pos.gives_check(m), |checks| checks.gives_check(pos, m));
        if remaining < 0 {
            return node.loser_moves || !gives_check();
        }
        self.quiet_tail && remaining == 0 && !node.loser_moves && !rewarded && !gives_check()
    }

    /// A node below the depth limit (or at the ply cap): Figure 5 steps 1-5
    /// without generating the move list. Only the existence of a legal move
    /// matters here (mate and stalemate are the positions without one). A
    /// position already entered in this iteration is pruned as in step 5
    /// (probed before the cut, see the module docs); any other is cut,
    /// which marks the iteration interrupted.
    ///
    /// Once the iteration is interrupted, a position not in check is cut
    /// without asking whether it has a legal move: it cannot be a mate
    /// (a mate is a check), so the answer is "no" either way, and whether
    /// it is a stalemate (a dead end) or a cut only decides whether the
    /// iteration is a proof, which it no longer can be. Only the node
    /// count differs (such a stalemate is counted;
    /// docs/tuning.md#frontier).
    fn frontier(&mut self, pos: &Position, irreversible: bool) -> bool {
        // A position the table holds has a legal move and enough material
        // (the argument in [`Dfs::find`]): probed first, it is counted and
        // pruned without asking for a legal move. Before the interruption
        // only: afterwards nothing is probed.
        if !self.interrupted {
            if let Some(hit) = self.shared.tt.probe(self.shared.hash(pos), &pos.pack()) {
                debug_assert!(pos.has_legal_moves(), "a position without moves in the table");
                if !self.count_node() {
                    return false;
                }
                // A cached static proof is case 3, valid in every iteration.
                if hit.static_result != STATIC_PROVED {
                    self.stale |= hit.stale;
                }
                return false;
            }
        }
        if (pos.is_check() || !self.interrupted) && !pos.has_legal_moves() {
            return pos.is_check() && pos.side_to_move() != self.winner;
        }
        if irreversible && insufficient_material(pos, self.winner).is_some() {
            return false;
        }
        if !self.count_node() {
            return false;
        }
        // Not in the table (or the iteration is no proof any more, and the
        // node is cut either way): a cut.
        self.interrupted = true;
        false
    }

    /// Whether a node of `pos` with no depth left, not reached by a
    /// rewarded move, is a winner's node of the tail, whose checks come
    /// first and whose moves [`Dfs::winner_tail`] takes by sets (unless a
    /// test asks for them one by one): the iteration is interrupted and
    /// scored, the winner is to move, not in check, with no piece pinned,
    /// no castling right on the board and no en passant square (so that
    /// every stage of the generator is pushed without a placeholder but the
    /// king's, the last, and no move but a capture or a pawn move is
    /// irreversible).
    #[inline(always)]
    fn winner_tail_applies(&self, pos: &Position) -> bool {
        self.interrupted
            && self.scores != Scores::Off
            && pos.side_to_move() == self.winner
            && !pos.is_check()
            && pos.pinned().is_empty()
            && pos.castling_rights().is_empty()
            && pos.ep_square().is_none()
    }

    /// The moves of an entered winner's node at the tail
    /// ([`Dfs::winner_tail_applies`]) in the tail's order
    /// ([`Dfs::tail_one_by_one`]): first the checking moves of its knights,
    /// bishops, rooks and queens, then the other moves in the generator's
    /// order. It takes them without generating or scoring one by one the
    /// moves it only counts. There a move goes on when it scores Reward
    /// (child depth 0) or gives check (depth -1, to the frontier's mate
    /// test); any other is a reversible move of a knight, bishop, rook or
    /// queen, counted and not played ([`Dfs::counted_only`]). Pawn moves
    /// are all rewarded and the king's stage comes last: both are taken
    /// from their lists. For each other piece, in the generator's order
    /// (by role, by square, its destinations by square), its checking
    /// destinations are a set ([`CheckSquares::checking_targets`]), and so
    /// are its other destinations that go on (rewarded:
    /// [`NodeGuide::winner_rewarded_targets`]); those before each are
    /// counted first, then it is played, as one by one. Speed only: the
    /// same moves played, the same nodes counted in the same order
    /// (`tails_by_sets_are_the_moves_one_by_one`). The checks come first
    /// because the pawns' rewarded moves, first in the generator's order,
    /// dive deep before a mate in one is tried
    /// (docs/tuning.md#tail-checks-first). `Some` with the node's answer;
    /// `None` when it cannot take them so (see below).
    fn winner_tail(&mut self, pos: &Position, node: &Node<'g>) -> Option<bool> {
        // A scored node of an interrupted iteration with no depth left has
        // both (`enter`); `None` otherwise: the caller takes the moves one
        // by one.
        let (Some(guide), Some(checks)) = (node.guide.as_ref(), node.checks.as_ref()) else { return None };
        let board = pos.board();
        let (ours, occupied) = (pos.us(), board.occupied());
        // Each piece's destinations and its checking ones, found once.
        // (At most 62 pieces besides the kings; unreachable positions are
        // analysed too.)
        let mut pieces = ArrayVec::<(Role, Square, Bitboard, Bitboard), 64>::new();
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.by_role(role) & ours {
                let targets = match role {
                    Role::Knight => attacks::knight(from),
                    Role::Bishop => attacks::bishop(from, occupied),
                    Role::Rook => attacks::rook(from, occupied),
                    _ => attacks::queen(from, occupied),
                } - ours;
                let checking = checks.checking_targets(role, from, targets);
                pieces.push((role, from, targets, checking));
                for to in checking {
                    if let Some(found) = self.try_move(pos, Move::normal(from, to), node) {
                        return Some(found);
                    }
                }
            }
        }
        let mut list = MoveList::new();
        pos.generate_legal_moves_of(Role::Pawn, &mut list);
        if let Some(found) = self.try_moves(pos, &list, node) {
            return Some(found);
        }
        for &(role, from, targets, checking) in &pieces {
            // The destinations not yet counted or played.
            let mut left = targets - checking;
            for to in guide.winner_rewarded_targets(role, from, left) {
                let below = Bitboard(left.0 & ((1u64 << to as u32) - 1));
                left = left - below - Bitboard::from(to);
                if let Some(found) = self.count_quiet(below.count(), node) {
                    return Some(found);
                }
                if let Some(found) = self.try_move(pos, Move::normal(from, to), node) {
                    return Some(found);
                }
            }
            if let Some(found) = self.count_quiet(left.count(), node) {
                return Some(found);
            }
        }
        list.clear();
        pos.generate_legal_moves_of(Role::King, &mut list);
        Some(self.try_moves(pos, &list, node).unwrap_or(false))
    }

    /// The moves of an entered winner's node at the tail, one by one, in
    /// the tail's order: the checking moves of its knights, bishops, rooks
    /// and queens first, then the others in the generator's order. Most
    /// mates in one of such a node are among those checks (a pawn's come
    /// next, with the pawns' moves, and a king's discovered ones last).
    /// Order only: every move of the node is tried once either way.
    /// [`Dfs::winner_tail`] takes the same moves by sets; this is what it
    /// is tested against.
    fn tail_one_by_one(&mut self, pos: &Position, moves: &mut StagedMoves<'_>, node: &Node<'g>) -> bool {
        let checks = node.checks.unwrap_or_else(|| pos.check_squares());
        let first = |m: &Move| {
            let role = pos.board().role_at(m.from());
            matches!(role, Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) && checks.gives_check(pos, *m)
        };
        let (checking, others): (Vec<Move>, Vec<Move>) = moves.partition(first);
        checking.iter().chain(&others).find_map(|&m| self.try_move(pos, m, node)).unwrap_or(false)
    }

    /// [`Dfs::try_move`] on each of `moves` in turn: `Some` with the
    /// node's answer once one gives it.
    #[inline(always)]
    fn try_moves(&mut self, pos: &Position, moves: &[Move], node: &Node<'g>) -> Option<bool> {
        moves.iter().find_map(|&m| self.try_move(pos, m, node))
    }

    /// Counts `n` quiet moves of `node` as [`Dfs::try_move`] counts one:
    /// `Some(false)` when a limit stops the count (the node is abandoned,
    /// its entry forgotten).
    #[inline(always)]
    fn count_quiet(&mut self, n: u32, node: &Node<'g>) -> Option<bool> {
        if self.count_nodes(n) {
            return None;
        }
        self.shared.tt.forget(node.hash, &node.packed);
        Some(false)
    }

    /// [`Dfs::count_node`] `n` times: at once when no limit is near
    /// ([`Meter::tick_quietly`](crate::meter::Meter::tick_quietly)), else
    /// one by one.
    #[inline(always)]
    fn count_nodes(&mut self, n: u32) -> bool {
        let n = u64::from(n);
        if self.nodes + n <= self.node_bound && self.shared.meter.tick_quietly(n) {
            self.nodes += n;
            return true;
        }
        (0..n).all(|_| self.count_node())
    }

    /// Counts a node (step 3); `false` when a node limit is hit (step 4),
    /// which interrupts the iteration.
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if !self.shared.meter.tick() || self.nodes > self.node_bound {
            // Figure 5 would go on visiting siblings that all stop here;
            // the iteration is interrupted either way, so unwind at once.
            self.interrupted = true;
            self.over = true;
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::meter::Meter;
    use crate::tt::TranspositionTable;
    use movegen::MoveList;

    /// `f` on a query's shared state for `winner` with fresh tables and no
    /// global limit.
    fn with_fresh_tables<R>(winner: Color, f: impl FnOnce(&mut Shared<'_>) -> R) -> R {
        let (mut tt, mut visited) = (TranspositionTable::new(16), TranspositionTable::new(1));
        let meter = Meter::new(u64::MAX, None, None);
        f(&mut Shared::new(winner, Config::default(), meter, &mut tt, &mut visited))
    }

    /// One iteration from `pos` for `winner` with fresh tables, the plain
    /// guide and no global limit.
    fn run_alone(pos: &Position, winner: Color, options: Options) -> Iteration {
        with_fresh_tables(winner, |shared| iterate(shared, Guide::plain(winner), pos, options))
    }

    /// The first `n` positions of the corpus of real games (FEN, 4 fields).
    fn corpus_fens(n: usize) -> Vec<String> {
        testdata_fens("lichess-30k-positions.txt", n)
    }

    /// The first `corpus` positions of the corpus, then the first
    /// `timeouts` real timeouts (unwinnable for the side not to move).
    fn corpus_and_timeout_fens(corpus: usize, timeouts: usize) -> Vec<String> {
        let mut fens = corpus_fens(corpus);
        fens.extend(testdata_fens("timeouts-20k.txt", timeouts));
        fens
    }

    /// The text of `testdata/{name}`.
    fn testdata_text(name: &str) -> String {
        std::fs::read_to_string(format!("{}/../../testdata/{name}", env!("CARGO_MANIFEST_DIR")))
            .unwrap_or_else(|e| panic!("testdata/{name}: {e}"))
    }

    /// The FENs (four fields) of the first `n` lines of `testdata/{name}`.
    fn testdata_fens(name: &str, n: usize) -> Vec<String> {
        testdata_text(name)
            .lines()
            .take(n)
            .map(|line| line.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
            .collect()
    }

    /// The premise of probing the table before generating the moves
    /// ([`Dfs::find`], [`Dfs::frontier`]): every position the table holds
    /// has a legal move. Iterations of growing depth, with the table kept
    /// between them as the full algorithm keeps it and both kinds of scores,
    /// from positions whose trees are full of mates and stalemates (a
    /// queen or rook against a bare king, a pawn about to stalemate) and
    /// from real games; then every valid entry is unpacked and asked.
    #[test]
    fn the_table_holds_only_positions_with_a_legal_move() {
        let mut fens: Vec<String> = [
            "k7/8/1K6/8/8/8/8/1Q6 w - -",
            "7k/8/6K1/8/8/8/8/R7 w - -",
            "8/8/8/8/8/5k2/5p2/5K2 b - -",
            "k7/2K5/8/8/8/8/8/1N1B4 w - -",
        ]
        .iter()
        .map(|fen| fen.to_string())
        .collect();
        fens.extend(corpus_fens(30));
        let mut checked = 0;
        for fen in &fens {
            let pos: Position = fen.parse().unwrap();
            for winner in [Color::White, Color::Black] {
                for scores in [Scores::Paper, Scores::LoserOpens] {
                    checked += with_fresh_tables(winner, |shared| {
                        for depth in 1..=6 {
                            let table = if depth == 1 { Table::Fresh } else { Table::Keep };
                            let options = Options { node_bound: 20_000, table, scores, ..Options::plain(depth) };
                            if !matches!(
                                iterate(shared, Guide::plain(winner), &pos, options),
                                Iteration::Interrupted { .. }
                            ) {
                                break;
                            }
                        }
                        let stored = shared.tt.valid_positions();
                        for packed in &stored {
                            let stored = packed.unpack();
                            assert!(
                                stored.has_legal_moves(),
                                "{fen} {winner:?}: {} has no legal move",
                                stored.to_fen()
                            );
                        }
                        stored.len()
                    });
                }
            }
        }
        assert!(checked > 10_000, "{checked} entries checked");
    }

    /// A rotated order tries every move exactly once, and starts at every
    /// move for some hash (so it is no fixed order); the generator's order
    /// and the loser-reversed one (at a node not taken as generated: the
    /// loser's) are the list forwards and backwards, and the latter takes
    /// the winner's nodes as generated.
    #[test]
    fn a_rotated_order_tries_every_move_once() {
        assert!(MoveOrder::LoserReversed.generated_at(true) && !MoveOrder::LoserReversed.generated_at(false));
        assert!(MoveOrder::Generated.generated_at(false) && !MoveOrder::Rotated { seed: 1 }.generated_at(true));
        let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -".parse().unwrap();
        let mut all = MoveList::new();
        pos.generate_legal_moves(&mut all);
        for len in 0..=all.len() {
            let moves = &all[..len];
            let mut firsts = std::collections::HashSet::new();
            for i in 0..2_000u64 {
                let hash = i.wrapping_mul(0x2545_F491_4F6C_DD1D);
                let order = MoveOrder::Rotated { seed: i % 7 };
                let arranged: Vec<Move> = order.arrange(hash, moves).collect();
                let mut sorted = arranged.clone();
                sorted.sort();
                let mut expected = moves.to_vec();
                expected.sort();
                assert_eq!(sorted, expected, "{len} moves, hash {hash:#x}");
                firsts.extend(arranged.first().copied());
            }
            assert_eq!(firsts.len(), len, "every move comes first for some hash");
            let generated: Vec<Move> = MoveOrder::Generated.arrange(7, moves).collect();
            assert_eq!(generated, moves);
            let reversed: Vec<Move> = MoveOrder::LoserReversed.arrange(7, moves).collect();
            assert!(reversed.iter().eq(moves.iter().rev()));
        }
    }

    /// Plain iterations to the same depth find a mate in the same positions
    /// whatever the order (each is complete for its depth), and the mates
    /// replay: the first 40 positions of the corpus of real games, both
    /// winners, depth 2 (mates of up to three plies).
    #[test]
    fn every_order_finds_the_same_short_mates() {
        let fens = corpus_fens(40);
        assert_eq!(fens.len(), 40);
        let mut mates = 0;
        for fen in &fens {
            let pos: Position = fen.parse().unwrap();
            for winner in [Color::White, Color::Black] {
                let mut found = Vec::new();
                for order in [
                    MoveOrder::Generated,
                    MoveOrder::Rotated { seed: 3 },
                    MoveOrder::Rotated { seed: 11 },
                    MoveOrder::LoserReversed,
                ] {
                    let iteration = run_alone(&pos, winner, Options { order, ..Options::plain(2) });
                    if let Iteration::Mate(moves) = &iteration {
                        assert!(crate::replay(&pos, winner, moves).is_ok(), "{fen} {winner:?} {order:?}: {moves:?}");
                        assert!(moves.len() <= 3, "{fen} {winner:?} {order:?}: {moves:?}");
                    }
                    found.push(matches!(iteration, Iteration::Mate(_)));
                }
                assert!(found.iter().all(|&f| f == found[0]), "{fen} {winner:?}: {found:?}");
                mates += usize::from(found[0]);
            }
        }
        assert!(mates > 0, "some of these positions have short mates");
    }

    /// [`Options::quiet_tail`] changes interrupted iterations only: it
    /// leaves nothing out before the interruption, so an iteration that
    /// proves with it proves without it, in the same nodes, and the other
    /// way round; and the mates it finds replay. Checked on the first 150
    /// positions of the corpus of real games and of the real timeouts (the
    /// latter, unwinnable for the side not to move, give the proofs), both
    /// winners, depths 1-5 with a bound; and the option does leave moves
    /// out (some iterations count other nodes).
    #[test]
    fn the_quiet_tail_changes_only_interrupted_iterations() {
        let fens = corpus_and_timeout_fens(150, 150);
        let (mut proofs, mut mates, mut differ) = (0, 0, 0);
        for fen in &fens {
            let pos: Position = fen.parse().unwrap();
            for winner in [Color::White, Color::Black] {
                for depth in [1, 3, 5] {
                    let options = Options { node_bound: 3_000, scores: Scores::Paper, ..Options::plain(depth) };
                    let without = run_alone(&pos, winner, options);
                    let with = run_alone(&pos, winner, Options { quiet_tail: true, ..options });
                    if let Iteration::Mate(moves) = &with {
                        assert!(crate::replay(&pos, winner, moves).is_ok(), "{fen} {winner:?} {depth}: {moves:?}");
                        mates += 1;
                    }
                    let proof = |iteration: &Iteration| matches!(iteration, Iteration::Proof { .. });
                    if proof(&with) || proof(&without) {
                        assert_eq!(with, without, "{fen} {winner:?} depth {depth}");
                        proofs += 1;
                    }
                    differ += usize::from(with != without);
                }
            }
        }
        assert!(proofs > 20 && mates > 100 && differ > 20, "{proofs} proofs, {mates} mates, {differ} differ");
    }

    /// The later iterations' guide ([`Guide::later`]) changes only
    /// how deep each line is searched: on the first 300 labelled hard
    /// positions with three bishops or more, no iteration with it proves a
    /// position unwinnable for a side its label says can mate, every
    /// helpmate it finds replays to a mate, and it does change some
    /// iterations (the plain guide's differ).
    #[test]
    fn the_bishops_guide_changes_only_the_depths() {
        let text = testdata_text("hard-positions.txt");
        let (mut positions, mut mates, mut proofs, mut differ) = (0, 0, 0, 0);
        for line in text.lines().filter(|line| !line.starts_with('#')).take(300) {
            let (label, fen) = line.split_once(' ').unwrap();
            let pos: Position = fen.parse().unwrap();
            if pos.board().bishops().count() < crate::guide::BISHOP_STEERING_MIN {
                continue;
            }
            positions += 1;
            for (winner, can_mate) in [(Color::White, label.starts_with('W')), (Color::Black, label.ends_with('B'))] {
                let Some(guide) = Guide::later(winner, &pos) else { continue };
                let [m, p, d] = later_guide_iterations(&pos, winner, can_mate, &guide, Guide::plain(winner));
                (mates, proofs, differ) = (mates + m, proofs + p, differ + d);
            }
        }
        assert!(positions > 100 && mates > 20 && proofs > 5 && differ > 20, "{positions} {mates} {proofs} {differ}");
    }

    /// Two later iterations (depths 3 and 7, 4,000 nodes) of `pos` for
    /// `winner` with `guide`: every helpmate replays to a mate, and no
    /// proof comes where the label says `winner` `can_mate`. Counts the
    /// mates, the proofs, and the iterations that differ from the same with
    /// `baseline`.
    fn later_guide_iterations(
        pos: &Position,
        winner: Color,
        can_mate: bool,
        guide: &Guide,
        baseline: &Guide,
    ) -> [usize; 3] {
        let [mut mates, mut proofs, mut differ] = [0; 3];
        for depth in [3, 7] {
            let options = Options {
                node_bound: 4_000,
                scores: Scores::LoserOpens,
                order: MoveOrder::Rotated { seed: 5 },
                ..Options::plain(depth)
            };
            let with = with_fresh_tables(winner, |shared| iterate(shared, guide, pos, options));
            match &with {
                Iteration::Mate(moves) => {
                    assert!(crate::replay(pos, winner, moves).is_ok(), "{pos:?} {winner:?} {depth}: {moves:?}");
                    mates += 1;
                }
                Iteration::Proof { .. } => {
                    assert!(!can_mate, "{pos:?}: a proof for {winner:?}, who can mate");
                    proofs += 1;
                }
                Iteration::Interrupted { .. } => {}
            }
            differ += usize::from(with != with_fresh_tables(winner, |shared| iterate(shared, baseline, pos, options)));
        }
        [mates, proofs, differ]
    }

    /// The walls of the later iterations' guide (a loser's piece stepping
    /// next to its own king is rewarded against a lone knight or bishop:
    /// `NodeGuide::steered`) change only how deep each line
    /// is searched: on the labelled hard and dev positions where a side has
    /// no queen or rook and at most one knight or bishop, no iteration with
    /// them proves that side unwinnable when its label says it can mate,
    /// every helpmate replays to a mate, and they do change some
    /// iterations (those of the same guide without them differ).
    #[test]
    fn the_walls_against_a_lone_minor_piece_change_only_the_depths() {
        let (mut queries, mut mates, mut proofs, mut differ) = (0, 0, 0, 0);
        for name in ["hard-positions.txt", "dev-positions.txt"] {
            for line in testdata_text(name).lines().filter(|line| !line.starts_with('#') && !line.is_empty()) {
                let (label, fen) = line.split_once(' ').unwrap();
                let pos: Position = fen.parse().unwrap();
                for (winner, can_mate) in [(Color::White, label.starts_with('W')), (Color::Black, label.ends_with('B'))]
                {
                    let ours = pos.board().by_color(winner);
                    let minor = ours & (pos.board().knights() | pos.board().bishops());
                    if (ours & (pos.board().queens() | pos.board().rooks())).any() || minor.count() != 1 {
                        continue;
                    }
                    let Some(guide) = Guide::later(winner, &pos) else { continue };
                    queries += 1;
                    let [m, p, d] = later_guide_iterations(&pos, winner, can_mate, &guide, &guide.without_walls());
                    (mates, proofs, differ) = (mates + m, proofs + p, differ + d);
                }
            }
        }
        assert!(queries > 1_000 && mates > 500 && proofs > 100 && differ > 200, "{queries} {mates} {proofs} {differ}");
    }

    /// [`Dfs::winner_tail`] takes the moves [`Dfs::try_move`] takes one by
    /// one: every iteration gives the same answer (the same helpmate, the
    /// same proof) with the same nodes counted, whether the winner's tail
    /// nodes take their moves by sets or one by one. Checked on the first
    /// 1,500 positions of the corpus and 150 real timeouts, both winners,
    /// the first iteration's settings at two node bounds and a later
    /// iteration's depth. (A quiet move counted once too few, or the
    /// checking moves left out of the sets, fails it.)
    #[test]
    fn tails_by_sets_are_the_moves_one_by_one() {
        let fens = corpus_and_timeout_fens(1_500, 150);
        let (mut iterations, mut mates) = (0, 0);
        for fen in &fens {
            let pos: Position = fen.parse().unwrap();
            for winner in [Color::White, Color::Black] {
                for (depth, node_bound, quiet_tail, order) in [
                    (1, 10_000, false, MoveOrder::Generated),
                    (1, 1_000, true, MoveOrder::Generated),
                    (3, 3_000, false, MoveOrder::Generated),
                    (1, 9_000, true, MoveOrder::LoserReversed),
                ] {
                    let options = Options {
                        node_bound,
                        scores: Scores::Paper,
                        static_pruning: false,
                        quiet_tail,
                        order,
                        ..Options::plain(depth)
                    };
                    let one_by_one = with_fresh_tables(winner, |shared| {
                        let iteration = iterate_taking_tails(shared, Guide::plain(winner), &pos, options, false);
                        (iteration, shared.meter.nodes)
                    });
                    let by_sets = with_fresh_tables(winner, |shared| {
                        let iteration = iterate_taking_tails(shared, Guide::plain(winner), &pos, options, true);
                        (iteration, shared.meter.nodes)
                    });
                    assert_eq!(by_sets, one_by_one, "{fen} {winner:?} depth {depth}, bound {node_bound}, {order:?}");
                    iterations += 1;
                    mates += usize::from(matches!(by_sets.0, Iteration::Mate(_)));
                }
            }
        }
        assert!(iterations > 13_000 && mates > 4_000, "{iterations} iterations, {mates} mates");
    }

    /// A plain iteration to depth `d` finds a mate exactly when the
    /// shortest one has at most `d + 1` plies, cuts, table and all (the
    /// frontier after a cut, the loser's dead children counted and not
    /// played: [`Dfs::find`]). Checked against the exhaustive traversal's
    /// shortest mate (breadth-first: another phase, another argument) on
    /// the first 60 positions of the corpus, both winners, mates of up to
    /// four plies: the depth one short finds none, the depth that suffices
    /// finds one, and it replays.
    #[test]
    fn plain_iterations_find_a_mate_from_the_depth_the_shortest_needs() {
        use crate::phase::exhaustive::{Exhaustive, Traversal};
        let mut checked = 0;
        for fen in corpus_fens(60) {
            let pos: Position = fen.parse().unwrap();
            for winner in [Color::White, Color::Black] {
                let shortest = with_fresh_tables(winner, |shared| {
                    match Exhaustive::new(1 << 16, 1 << 24).run(shared, &pos, 100_000) {
                        Traversal::Mate { plies } => Some(plies as i32),
                        _ => None,
                    }
                });
                let Some(plies) = shortest.filter(|&plies| plies <= 4) else { continue };
                let found = |depth| match run_alone(&pos, winner, Options::plain(depth)) {
                    Iteration::Mate(moves) => {
                        assert!(crate::replay(&pos, winner, &moves).is_ok(), "{fen} {winner:?}: {moves:?}");
                        true
                    }
                    _ => false,
                };
                assert!(found(plies - 1), "{fen} {winner:?}: no mate at depth {}", plies - 1);
                assert!(plies < 2 || !found(plies - 2), "{fen} {winner:?}: a mate shorter than {plies} plies");
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} positions with short mates");
    }

    /// Once an iteration is cut, frontier positions not in check skip the
    /// legal-move test, but a check still gets it: a mate met at the
    /// frontier after the cut is found. Here every root move of White's
    /// ends at the frontier (depth 0, no scores); the first move generated
    /// does not mate, so it cuts the iteration, and the mate (`Qh8#`) comes
    /// after it.
    #[test]
    fn a_mate_at_the_frontier_is_found_after_a_cut() {
        let pos: Position = "k7/8/1K6/8/8/8/7Q/8 w - -".parse().unwrap();
        let mut moves = MoveList::new();
        pos.generate_legal_moves(&mut moves);
        assert!(!pos.play(moves[0]).is_checkmate(), "the first move must cut the iteration");
        match run_alone(&pos, Color::White, Options::plain(0)) {
            Iteration::Mate(moves) => {
                assert!(crate::replay(&pos, Color::White, &moves).is_ok(), "{moves:?}");
                assert_eq!(moves.len(), 1);
            }
            other => panic!("no mate found: {other:?}"),
        }
    }
}
