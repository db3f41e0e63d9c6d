//! A greedy best-first search for long helpmates: the depth-first
//! iterations of Figure 5 explore every shuffle of the other pieces at every
//! ply, which puts helpmates of 20 to 100+ plies out of reach: long marches
//! of the loser's king, and the opening of a locked pawn chain by
//! sacrifices and a promotion (composed positions with many bishops).
//!
//! Positions are expanded in order of depth plus an estimate of how far the
//! position is from a mate ([`Guidance`]), ties going to the shallower one:
//! the loser's king's distance to the squares where the static analysis
//! leaves a mating net possible ([`estimate`]), the moves the distance plan
//! still needs ([`Plan`]), or the material in the way
//! ([`material_estimate`]). Every position is stored once, with a link to
//! its parent, so a mate found is turned into the move sequence that leads
//! to it.
//!
//! **Soundness.** This phase answers "a helpmate exists" with the moves
//! (which debug builds and the tests replay), or "unwinnable" when a run
//! closed the set of positions reachable from the root under every legal
//! move without meeting a mate ([`Ending::Exhausted`]; the argument is at
//! [`run`]). Its heuristics, its memory cap and the tempo moves it drops
//! ([`Tempo`]) only decide the order and when it stops: a run that
//! stopped, dropped moves it did not play again, or met a different
//! position under a stored one's hash, proves nothing.

use std::collections::{BTreeMap, VecDeque};

use movegen::{Bitboard, Color, Move, MoveList, PackedPosition, Position, Role, Square};
use static_check::insufficient_material;

use crate::meter::Meter;
use crate::phase::seen::{self, SeenSet};
use crate::plan::Plan;

/// How far from mated the loser's king looks in `pos`: lower is closer.
/// Mostly its king distance to the nearest goal square; then whether that
/// square is occupied or attacked by the winner (the king cannot enter it
/// yet: freeing it is progress), how many of its neighbours are still free,
/// and whether it is in check.
pub(crate) fn estimate(pos: &Position, winner: Color, goal: Bitboard) -> u32 {
    estimate_towards(pos, winner, nearest_goal(pos.king_of(!winner), goal))
}

/// The goal square nearest to `king` (the first in the order a1, b1, ...,
/// h8 among the nearest) and its distance; `king` itself without a goal.
fn nearest_goal(king: Square, goal: Bitboard) -> (u32, Square) {
    goal.iter().map(|t| (king.distance(t), t)).min().unwrap_or((0, king))
}

/// [`nearest_goal`] for every square of the loser's king, computed once
/// per run: the best-first phase asks it of every position it generates
/// (docs/tuning.md#goal-ranking).
struct NearestGoals([(u32, Square); 64]);

impl NearestGoals {
    fn of(goal: Bitboard) -> Box<NearestGoals> {
        Box::new(NearestGoals(core::array::from_fn(|i| nearest_goal(Square::ALL[i], goal))))
    }
}

/// [`estimate`] with the loser's king `distance` from its nearest goal
/// square, `target`.
#[inline(always)]
fn estimate_towards(pos: &Position, winner: Color, (distance, target): (u32, Square)) -> u32 {
    let board = pos.board();
    let occupied = board.occupied();
    let winners = board.by_color(winner);
    // The squares around the king that the loser's own pieces do not take
    // and the winner does not guard.
    let free = pos.king_escapes(!winner).count();
    let check = u32::from(!(pos.side_to_move() == !winner && pos.is_check()));
    // The king cannot enter a target the winner occupies or attacks.
    let blocked = if distance == 0 {
        0
    } else if winners.contains(target) {
        2
    } else {
        u32::from(board.is_attacked_by(target, winner, occupied))
    };
    distance * 12 + free * 2 + check + blocked * 3
}

/// How much material stands between the winner and a mate in `pos`: the
/// loser's pieces (3 each) and pawns (2 each), which a helpmate in a locked
/// position gives up to open it, and the ranks the winner's pawns still
/// need to promote. Lower is closer.
///
/// Helpmates that break a locked pawn chain (the loser's pieces walk into
/// the winner's king, a pawn wall is opened by a sacrifice, a winner's pawn
/// promotes to the mating piece) run to 100 plies and more; neither the
/// king's distance nor a mating net measures their progress, but the
/// material left does, capture by capture and step by step.
pub(crate) fn material_estimate(pos: &Position, winner: Color) -> u32 {
    let board = pos.board();
    let loser = board.by_color(!winner) - board.kings();
    let loser_pawns = (loser & board.pawns()).count();
    let loser_pieces = loser.count() - loser_pawns;
    let ranks_to_go: u32 =
        board.pieces(winner, Role::Pawn).iter().map(|square| 7 - square.relative_to(winner).rank() as u32).sum();
    3 * loser_pieces + 2 * loser_pawns + ranks_to_go
}

/// Weight of the estimate against the depth in the priority (weighted A*):
/// 1 keeps the search broad, large values make it greedy.
const ESTIMATE_WEIGHT: u32 = 3;

/// Memory per stored position at worst, in bytes: the basis of the
/// caller's cap. The node itself (the store is allocated for the cap, see
/// [`run`]), its share of the set of positions met
/// ([`seen::BYTES_PER_POSITION`]), of the queue (a `u32` in a bucket,
/// at most two per entry after doubling, counted as 16 bytes) and of the
/// keys of the positions that dropped tempo moves (a `u64` each at most,
/// allocated for the cap like the store).
pub(crate) const BYTES_PER_POSITION: usize = core::mem::size_of::<Node>() + seen::BYTES_PER_POSITION + 16 + 8;

/// A stored position (packed: rebuilt when it is expanded).
#[derive(Clone, Copy, Debug)]
struct Node {
    pos: PackedPosition,
    parent: u32,
    mv: Move,
}

/// A priority queue of the keys of [`run`] (priority and depth in the high
/// 32 bits, the position's index in the low 32): one first-in first-out
/// bucket per priority and depth, so a push or a pop touches one bucket's
/// ends instead of a path through a heap of millions (a heap's cache
/// misses were a fifth of the phase's time). Pops come in the same order as
/// a binary heap's: smallest priority, then depth, then index (indices
/// grow as positions are stored, so a bucket's oldest is its smallest).
#[derive(Default)]
struct BucketQueue {
    buckets: BTreeMap<u32, VecDeque<u32>>,
}

impl BucketQueue {
    fn push(&mut self, key: u64) {
        self.buckets.entry((key >> 32) as u32).or_default().push_back(key as u32);
    }

    fn pop(&mut self) -> Option<u64> {
        let mut first = self.buckets.first_entry()?;
        let index = first.get_mut().pop_front().expect("buckets are never empty");
        let high = *first.key();
        if first.get().is_empty() {
            first.remove();
        }
        Some((u64::from(high) << 32) | u64::from(index))
    }
}

/// How the positions are ordered.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Guidance<'p> {
    /// [`estimate`] towards these squares for the loser's king (empty: the
    /// Figure 13 corner).
    Goal(Bitboard),
    /// The moves the plan's closest net still needs.
    Plan(&'p Plan),
    /// The material still in the way ([`material_estimate`]).
    Material,
}

impl Guidance<'_> {
    /// The same guidance, with the Figure 13 corner as the goal when its
    /// goal is empty.
    fn resolved(self, start: &Position, winner: Color) -> Self {
        match self {
            Guidance::Goal(goal) if goal.is_empty() => {
                Guidance::Goal(Bitboard::from(crate::guide::loser_king_corner(start, winner)))
            }
            other => other,
        }
    }

    /// The estimate part of a position's priority (lower is closer to a
    /// mate), weighted against one ply of depth.
    fn priority(self, pos: &Position, winner: Color) -> u32 {
        match self {
            Guidance::Plan(plan) => plan.estimate(pos) * PLAN_WEIGHT,
            Guidance::Goal(goal) => estimate(pos, winner, goal) * ESTIMATE_WEIGHT,
            Guidance::Material => material_estimate(pos, winner),
        }
    }

    /// Whether the guidance's estimate already stands at its floor at
    /// `root`, so that it has nothing left to steer by. For the goal: the
    /// loser's king on a goal square with no free neighbour ([`estimate`]
    /// at most 1), where only a check can lower it; for the plan (every
    /// post of one of its nets taken by the nearest piece of its kind) and
    /// the material: 0. A run from such a root ranks the positions that
    /// keep the root's estimate by depth alone (a check of the loser's
    /// king gains three plies, for the goal) and holds back every move
    /// that leaves the floor: a breadth-first search around the root's
    /// arrangement, with nothing to lead it towards a mate, which spends
    /// its allowance or fills its store (docs/tuning.md#best-first-floor).
    pub(crate) fn estimate_at_floor(&self, root: &Position, winner: Color) -> bool {
        let guidance = self.resolved(root, winner);
        let floor = match guidance {
            Guidance::Goal(_) => ESTIMATE_WEIGHT,
            Guidance::Plan(_) | Guidance::Material => 0,
        };
        guidance.priority(root, winner) <= floor
    }
}

/// A guidance ready to rank the positions of one run: [`Guidance::priority`]
/// with the goal's nearest squares looked up instead of searched.
enum Ranking<'p> {
    Goal(Box<NearestGoals>),
    Other(Guidance<'p>),
}

impl<'p> Ranking<'p> {
    /// The ranking of a resolved guidance ([`Guidance::resolved`]).
    fn of(guidance: Guidance<'p>) -> Ranking<'p> {
        match guidance {
            Guidance::Goal(goal) => Ranking::Goal(NearestGoals::of(goal)),
            other => Ranking::Other(other),
        }
    }

    /// The same value as [`Guidance::priority`].
    #[inline(always)]
    fn priority(&self, pos: &Position, winner: Color) -> u32 {
        match self {
            Ranking::Goal(nearest) => {
                let king = pos.king_of(!winner);
                estimate_towards(pos, winner, nearest.0[king as usize]) * ESTIMATE_WEIGHT
            }
            Ranking::Other(guidance) => guidance.priority(pos, winner),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The moves of a mate by the winner.
    Mate(Vec<Move>),
    /// A proof that no mate by the winner is reachable: the queue emptied,
    /// every position stored was expanded with every legal move (the tempo
    /// moves it dropped too, see [`Tempo`]), and no position was left out
    /// for sharing its hash with a stored one (see [`run`]).
    Exhausted {
        /// Positions generated by the run.
        nodes: u64,
        /// Positions stored (the reachable set, less the dead ends).
        positions: u64,
    },
    /// The queue emptied after tempo moves were dropped, and the run could
    /// not then close the set under every move within as many nodes again
    /// (or a position was left out for its hash): the set reachable
    /// through the moves kept was expanded, after this many nodes, which
    /// says only that the reachable set is probably not much larger. The
    /// driver uses it only to schedule the phases.
    Drained {
        /// Positions generated by the run when its queue first emptied.
        nodes: u64,
    },
    /// A limit: the allowance, a global limit, or the store's cap.
    Stopped,
}

/// The weight of one move the plan still needs, against one ply of depth.
const PLAN_WEIGHT: u32 = 6;

/// Which of the winner's tempo moves a run stores. A tempo move is a
/// winner's move that captures nothing, promotes nothing, gives no check
/// and does not lower the guidance's estimate ([`is_tempo`]; one that
/// raises it is a tempo move too): while the loser's king marches or the
/// loser opens its wall, the winner only has to move something, and any
/// such move will do unless it spoils what it keeps.
/// With many winner's pieces (seven bishops) nearly all of the winner's
/// moves are tempo moves, and storing every one of them makes the run a
/// breadth-first search over the arrangements of pieces that do not
/// matter yet.
///
/// **Soundness.** Dropping moves can only make the run miss a helpmate,
/// never invent one; and a run that dropped some plays them when its
/// queue empties, before it can be a proof ([`run`]). A run that cannot
/// then close the set within as many nodes again ends as
/// [`Ending::Drained`], which proves nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tempo {
    /// Every move is stored.
    All,
    /// Of each position's tempo moves not met before, only the first this
    /// many (in the generator's order) are stored; the others are
    /// generated and counted, then dropped (and not marked as met, so
    /// another path may still store them).
    First(u32),
}

/// Whether `m`, played in `pos` by the winner and leading to `child`, is a
/// tempo move ([`Tempo`]): no capture (en passant included), no
/// promotion, no check (a discovered one included), and an estimate
/// (`child_estimate`, the guidance's [`Guidance::priority`]) no lower than
/// the position's own (`estimate`).
fn is_tempo(pos: &Position, m: Move, child: &Position, estimate: u32, child_estimate: u32) -> bool {
    child_estimate >= estimate && m.promotion().is_none() && !pos.is_capture(m) && !child.is_check()
}

/// Searches for a mate by `winner` from `start`, expanding positions in
/// order of the guidance, storing at most `max_positions` positions (of
/// the winner's tempo moves, those `tempo` keeps until the queue first
/// empties) and counting every position generated against `meter` (at most
/// `allowance` of them).
///
/// **When the run is a proof** ([`Ending::Exhausted`]). Let `S` be the
/// positions stored (the root first). Every position of `S` is popped
/// and expanded: all its legal moves are generated, and a position that
/// dropped tempo moves is expanded again with all of them once the queue
/// empties (every move is kept from then on). Each child is a mate by the
/// winner (the run answers it), a mate of the winner or a position where
/// the winner's material can no longer mate (Lemmas 5-6, asked after the
/// mate test, as in `phase::deepening`; material only changes with an
/// irreversible move), or a position of `S`: stored now, or found in the
/// set of stored positions, *compared packed* with the one stored under
/// its hash (a different position under the same hash is left out, and
/// the run is then no proof). So when the queue and the deferred
/// positions are empty, nothing was stopped and nothing left out, `S` holds
/// every position reachable from the root except dead ends no mate comes
/// from, and none of it is a mate by the winner (each was tested when it
/// was generated; the root is no mate, the driver's game-over phase ran
/// first): no mate by the winner is reachable.
/// Tested: `a_drained_run_plays_the_moves_it_dropped_before_it_proves`,
/// `a_hash_collision_leaves_the_run_without_a_proof`.
pub(crate) fn run(
    meter: &mut Meter,
    start: &Position,
    winner: Color,
    guidance: Guidance<'_>,
    tempo: Tempo,
    max_positions: usize,
    allowance: u64,
) -> Ending {
    search(meter, start, winner, guidance, tempo, max_positions, allowance, u64::MAX)
}

/// [`run`], with the hashes of the set of stored positions masked by
/// `hash_mask` (all ones but in a test, which makes collisions happen):
/// the root stored, then the positions expanded in the guidance's order
/// ([`Run::next`], [`Run::expand`]) until a mate, a limit, or nothing is
/// left to expand ([`Run::ending`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn search(
    meter: &mut Meter,
    start: &Position,
    winner: Color,
    guidance: Guidance<'_>,
    tempo: Tempo,
    max_positions: usize,
    allowance: u64,
    hash_mask: u64,
) -> Ending {
    let mut run = Run::new(meter, start, winner, guidance, tempo, max_positions, allowance, hash_mask);
    let mut moves = MoveList::new();
    let mut children: Vec<Position> = Vec::with_capacity(256);
    while let Some(packed) = run.next(meter) {
        if let Some(ending) = run.expand(meter, packed, &mut moves, &mut children) {
            return ending;
        }
    }
    run.ending(meter)
}

/// Priority, depth, index: packed into one key of the queue (smaller pops
/// first).
#[inline(always)]
fn key(priority: u32, depth: u32, index: u32) -> u64 {
    (u64::from(priority.min(0xffff)) << 48) | (u64::from(depth.min(0xffff)) << 32) | u64::from(index)
}

/// The priority, depth and index of a [`key`].
#[inline(always)]
fn unkey(key: u64) -> (u32, u32, u32) {
    ((key >> 48) as u32, (key >> 32) as u32 & 0xffff, key as u32)
}

/// The state of one run of [`search`].
struct Run<'p> {
    start: &'p Position,
    winner: Color,
    guidance: Ranking<'p>,
    tempo: Tempo,
    max_positions: usize,
    hash_mask: u64,
    /// The meter's count when the run started.
    started_at: u64,
    /// The meter's count at which the run stops.
    stop_at: u64,
    /// The stored positions, the root first.
    nodes: Vec<Node>,
    /// The stored positions by hash.
    seen: SeenSet,
    queue: BucketQueue,
    /// The keys of the positions that dropped tempo moves, expanded again
    /// with every move once the queue empties ([`Ending::Drained`]).
    deferred: Vec<u64>,
    /// The nodes when the queue first emptied with tempo moves dropped.
    drained_at: Option<u64>,
    /// No position was left out for sharing its hash with a stored one.
    exact: bool,
}

impl<'p> Run<'p> {
    /// A run from `start` with the root stored and queued.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn new(
        meter: &Meter,
        start: &'p Position,
        winner: Color,
        guidance: Guidance<'p>,
        tempo: Tempo,
        max_positions: usize,
        allowance: u64,
        hash_mask: u64,
    ) -> Run<'p> {
        let guidance = Ranking::of(guidance.resolved(start, winner));
        // The store is allocated for the cap at once (or for the allowance,
        // which bounds the positions generated): growing it by doubling
        // copied everything stored (a large share of the phase's cache
        // misses), and its pages are only committed as positions are
        // written (the store holds at most the root and one position per
        // node counted). The set grows up to what the cap needs: allocated
        // for the cap, its probes would spread over the whole table from
        // the start (more misses than its rehashing costs). The deferred
        // keys are one per position at most, so they are allocated for the
        // cap too.
        let capacity = max_positions.min(usize::try_from(allowance).unwrap_or(usize::MAX).saturating_add(1)).max(1);
        let mut nodes: Vec<Node> = Vec::with_capacity(capacity);
        nodes.push(Node { pos: start.pack(), parent: u32::MAX, mv: Move::normal(Square::A1, Square::A1) });
        let mut seen = SeenSet::new(capacity);
        seen.insert(start.hash() & hash_mask, 0);
        let mut queue = BucketQueue::default();
        queue.push(key(guidance.priority(start, winner), 0, 0));
        Run {
            start,
            winner,
            guidance,
            tempo,
            max_positions,
            hash_mask,
            started_at: meter.nodes,
            stop_at: meter.nodes.saturating_add(allowance),
            nodes,
            seen,
            queue,
            deferred: Vec::with_capacity(capacity),
            drained_at: None,
            exact: true,
        }
    }

    /// The key of the next position to expand; `None` when the queue and
    /// the deferred positions are empty.
    ///
    /// Drained (the queue empty, some positions deferred): the positions
    /// reachable through the moves kept are all stored. Their dropped moves
    /// are played now, and from here on every move is kept, with as many
    /// nodes again as it took to get here: then the run is closed under
    /// every legal move, or it ends as drained.
    #[inline(always)]
    fn next(&mut self, meter: &Meter) -> Option<u64> {
        loop {
            if let Some(packed) = self.queue.pop() {
                return Some(packed);
            }
            if self.deferred.is_empty() {
                return None;
            }
            let nodes = meter.nodes - self.started_at;
            if self.drained_at.is_none() {
                self.drained_at = Some(nodes);
                self.stop_at = self.stop_at.min(meter.nodes.saturating_add(nodes));
            }
            self.tempo = Tempo::All;
            for key in self.deferred.drain(..) {
                self.queue.push(key);
            }
        }
    }

    /// Expands the position of the key `packed` with all its legal moves
    /// (its children made in `children`, with `moves` as the list): `Some`
    /// with the run's ending when a child is a mate by the winner or a
    /// limit stops the run.
    #[inline(always)]
    fn expand(
        &mut self,
        meter: &mut Meter,
        packed: u64,
        moves: &mut MoveList,
        children: &mut Vec<Position>,
    ) -> Option<Ending> {
        let (priority, depth, index) = unkey(packed);
        // The root keeps its counters; the others are rebuilt.
        let pos = if index == 0 { *self.start } else { self.nodes[index as usize].pos.unpack() };
        pos.generate_legal_moves(moves);
        // The estimate a tempo move does not lower, and how many more of
        // them this position keeps (the winner to move, and some dropped).
        // The estimate is the key's priority less the depth, unless the
        // priority was clamped.
        let mut tempo_left = match self.tempo {
            Tempo::First(kept) if pos.side_to_move() == self.winner => {
                let estimate =
                    if priority < 0xffff { priority - depth } else { self.guidance.priority(&pos, self.winner) };
                debug_assert_eq!(estimate, self.guidance.priority(&pos, self.winner));
                Some((estimate, kept))
            }
            _ => None,
        };
        // All the children first, each one's slot in the set prefetched as
        // soon as it is made: the lookups below then find them in the
        // cache, and the first ones had the longest to load
        // (docs/tuning.md#prefetch).
        children.clear();
        children.extend(moves.iter().map(|&m| {
            let child = pos.play(m);
            self.seen.prefetch(child.hash() & self.hash_mask);
            child
        }));
        for (&m, child) in moves.iter().zip(children.iter()) {
            if let Some(ending) = self.visit(meter, &pos, m, child, packed, &mut tempo_left) {
                return Some(ending);
            }
        }
        None
    }

    /// The child `child` of the move `m` of `pos` (the position of the key
    /// `packed`): counted, then answered when it is a mate by the winner,
    /// passed over when it is stored already, a dead end or a dropped
    /// tempo move (`tempo_left`: [`Run::expand`]), and stored and queued
    /// otherwise. `Some` with the run's ending on a mate or a limit.
    #[inline(always)]
    fn visit(
        &mut self,
        meter: &mut Meter,
        pos: &Position,
        m: Move,
        child: &Position,
        packed: u64,
        tempo_left: &mut Option<(u32, u32)>,
    ) -> Option<Ending> {
        if meter.nodes >= self.stop_at || !meter.tick() {
            return Some(self.stopped());
        }
        let (_, depth, index) = unkey(packed);
        let hash = child.hash() & self.hash_mask;
        // A position stored before needs no second look (the set holds
        // only stored positions: dead ends and dropped moves are not in
        // it).
        if let Some(at) = self.seen.find(hash) {
            // Stored before, or a different position with the same hash:
            // that one is left out, so the run is no proof.
            self.exact &= self.nodes[at as usize].pos == child.pack();
            return None;
        }
        // A mate is a check without a legal reply. A stalemate (no check)
        // is not looked for: it is stored like any position and has no
        // moves when it is expanded, which costs less than a test for a
        // legal move on every child.
        if child.is_check() && !child.has_legal_moves() {
            return (child.side_to_move() != self.winner).then(|| Ending::Mate(self.line(index, m)));
        }
        if self.nodes.len() >= self.max_positions {
            // Full: what is left of the queue is only searched one ply
            // deeper; the allowance is better spent by the next phase.
            return Some(self.stopped());
        }
        // Material changes only with an irreversible move.
        if pos.is_irreversible(m) && insufficient_material(child, self.winner).is_some() {
            return None;
        }
        let estimate = self.guidance.priority(child, self.winner);
        if let Some((parent, left)) = tempo_left {
            if is_tempo(pos, m, child, *parent, estimate) {
                if *left == 0 {
                    if self.deferred.last() != Some(&packed) {
                        self.deferred.push(packed);
                    }
                    return None;
                }
                *left -= 1;
            }
        }
        let child_index = self.nodes.len() as u32;
        self.seen.insert(hash, child_index);
        self.nodes.push(Node { pos: child.pack(), parent: index, mv: m });
        self.queue.push(key(estimate + depth + 1, depth + 1, child_index));
        None
    }

    /// The moves from the root to the stored position `index`, then `m`.
    fn line(&self, index: u32, m: Move) -> Vec<Move> {
        let mut line = vec![m];
        let mut at = index;
        while at != 0 {
            line.push(self.nodes[at as usize].mv);
            at = self.nodes[at as usize].parent;
        }
        line.reverse();
        line
    }

    /// What a limit makes of the run: drained when its queue had emptied
    /// with tempo moves dropped, else stopped (what the schedule is told).
    fn stopped(&self) -> Ending {
        self.drained_at.map_or(Ending::Stopped, |nodes| Ending::Drained { nodes })
    }

    /// The ending of a run with nothing left to expand: the proof when no
    /// position was left out for its hash, else drained.
    fn ending(&self, meter: &Meter) -> Ending {
        let positions = self.nodes.len() as u64;
        let nodes = meter.nodes - self.started_at;
        if self.exact {
            Ending::Exhausted { nodes, positions }
        } else {
            Ending::Drained { nodes: self.drained_at.unwrap_or(nodes) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guide::Targets;

    /// The positions of random games (a fixed pseudo-random sequence) from
    /// a few starts with many pieces of every kind, and the starts.
    fn random_positions() -> Vec<Position> {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "Bk6/2b4B/3b2B1/5B2/4B3/p1pB1B2/PpP1B3/1K6 b - -",
            "bn1n2k1/2p2p1b/2p2Pp1/1pKp1pP1/1P1P1P2/8/5B2/2B1B1B1 b - -",
            "8/8/4n3/3k4/5R2/6P1/5K1P/8 w - - 3 45",
        ];
        let mut rng = testkit::XorShift64(0x9E37_79B9_7F4A_7C15);
        let mut positions = Vec::new();
        for fen in starts {
            let start: Position = fen.parse().unwrap();
            for _ in 0..20 {
                positions.extend(rng.random_game(start, 39));
            }
        }
        positions
    }

    /// A run's ranking ([`Ranking`], the goal's nearest squares looked up
    /// once) gives every position the priority the guidance itself does
    /// ([`estimate`], searching the goal each time): the same order, so the
    /// same runs. Goals: the static targets, one square, a corner and a
    /// rank, and none.
    #[test]
    fn the_ranking_of_a_run_is_the_guidance_priority() {
        for pos in random_positions() {
            for winner in [Color::White, Color::Black] {
                let goals = [
                    Targets::of(&pos, winner).loser_king,
                    Bitboard::from(Square::E4),
                    Bitboard::from(Square::A8) | Bitboard::from(Square::H1),
                    Bitboard::rank(movegen::Rank::Eighth),
                    Bitboard::EMPTY,
                ];
                for goal in goals {
                    let guidance = Guidance::Goal(goal);
                    let ranked = Ranking::of(guidance).priority(&pos, winner);
                    assert_eq!(ranked, guidance.priority(&pos, winner), "{pos:?} {winner:?} {goal:?}");
                }
            }
        }
    }

    /// Composed positions of the dev set labelled winnable, whose helpmates
    /// march the loser's king across the board: the phase finds a mate, and
    /// the moves replay to a mate by the winner.
    #[test]
    fn finds_long_king_marches() {
        for (fen, winner) in [
            ("k7/1b6/2b5/8/8/1pB5/pP6/K7 w - -", Color::White),
            ("k1b5/1p1p4/1P1P1K2/8/8/B7/8/1b6 w - -", Color::Black),
            ("N1b1N1N1/1pPpPpPp/1P1P1P1P/8/8/8/8/kb2B1K1 w - -", Color::White),
            ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -", Color::White),
        ] {
            let pos: Position = fen.parse().unwrap();
            let mut meter = Meter::new(50_000_000, None, None);
            let goal = Targets::of(&pos, winner).loser_king;
            match run(&mut meter, &pos, winner, Guidance::Goal(goal), Tempo::All, 4_000_000, u64::MAX) {
                Ending::Mate(moves) => {
                    assert!(crate::replay(&pos, winner, &moves).is_ok(), "{fen}: {moves:?}");
                    assert!(moves.len() > 10, "{fen}: a short mate would have been found by any search");
                }
                other => panic!("no mate found in {fen}: {other:?}"),
            }
        }
    }

    /// The goal's runs keeping one and two tempo moves a position find
    /// different helpmates, which is why a goal's turn runs both
    /// (`engine::schedule::best_first_runs`): in hard line 323 with a
    /// White bishop added on f3 (a 142-ply helpmate) only the run keeping
    /// one finds a mate within the allowance below, in dev line 385 (45
    /// plies) only the run keeping two (docs/tuning.md#goal-turn-split).
    /// Each mate replays to a mate by the winner.
    #[test]
    fn one_and_two_tempo_moves_find_different_marches() {
        for (fen, found, missed, allowance) in [
            ("8/8/5p2/2p1pP2/2PbPkpb/2pBpBpB/2P1P1P1/5BRK w - -", 1, 2, 1_000_000),
            ("2b5/1p6/pPp3k1/2Pp3p/P2PpBpP/4P1P1/5K2/8 b - -", 2, 1, 2_000_000),
        ] {
            let pos: Position = fen.parse().unwrap();
            let goal = Targets::of(&pos, Color::Black).loser_king;
            let run_keeping = |kept| {
                let mut meter = Meter::new(50_000_000, None, None);
                run(&mut meter, &pos, Color::Black, Guidance::Goal(goal), Tempo::First(kept), 4_000_000, allowance)
            };
            match run_keeping(found) {
                Ending::Mate(moves) => assert!(crate::replay(&pos, Color::Black, &moves).is_ok(), "{fen}: {moves:?}"),
                other => panic!("{fen} keeping {found}: {other:?}"),
            }
            let other = run_keeping(missed);
            assert!(!matches!(other, Ending::Mate(_)), "{fen} keeping {missed}: {other:?}");
        }
    }

    /// Helpmates that open a locked pawn chain: the loser's bishops are
    /// given up to the winner's king, a sacrifice opens the wall and a
    /// winner's pawn promotes (CHA-Solver's helpmates here run to 100 plies
    /// and more). The material guidance finds one, and it replays to a mate.
    /// The positions are the hard set's bishop-chain positions (labelled
    /// winnable for Black) mirrored left to right, which keeps every
    /// helpmate a helpmate (the rules do not see square colours).
    #[test]
    fn material_guidance_breaks_locked_chains() {
        for fen in ["5b1k/8/8/pBpBpBp1/PpP1PbP1/1P6/1P6/3B1B1K w - -", "5b1k/8/8/pBpBpBpB/PpP1PbP1/1P6/1P6/5B1K w - -"]
        {
            let pos: Position = fen.parse().unwrap();
            let mut meter = Meter::new(50_000_000, None, None);
            match run(&mut meter, &pos, Color::Black, Guidance::Material, Tempo::All, 4_000_000, 20_000_000) {
                Ending::Mate(moves) => {
                    assert!(crate::replay(&pos, Color::Black, &moves).is_ok(), "{fen}: {moves:?}");
                    assert!(moves.len() > 20, "{fen}: {} plies", moves.len());
                }
                other => panic!("no mate found in {fen}: {other:?}"),
            }
        }
    }

    /// The bucket queue pops in the order of a binary heap of the same keys
    /// (keys are unique, as the indices are, and each bucket's indices are
    /// pushed in increasing order, as [`run`] does), pushes and pops
    /// interleaved at random.
    #[test]
    fn the_bucket_queue_pops_like_a_heap() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut state = 0x1234_5678u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let (mut queue, mut heap) = (BucketQueue::default(), BinaryHeap::new());
        for index in 0..20_000u64 {
            let key = ((next(40) << 16 | next(30)) << 32) | index;
            queue.push(key);
            heap.push(Reverse(key));
            while next(3) == 0 {
                assert_eq!(queue.pop(), heap.pop().map(|Reverse(key)| key));
            }
        }
        while let Some(Reverse(key)) = heap.pop() {
            assert_eq!(queue.pop(), Some(key));
        }
        assert_eq!(queue.pop(), None);
    }

    /// A run stops as soon as its store is full: the rest of its queue
    /// would only be searched one ply deeper, and the allowance is left to
    /// the next phase. Here 100 positions fill at the first or second
    /// expansion, and a full run would generate millions.
    #[test]
    fn a_full_store_ends_the_run() {
        let pos: Position = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -".parse().unwrap();
        let mut meter = Meter::new(50_000_000, None, None);
        assert_eq!(
            run(&mut meter, &pos, Color::White, Guidance::Material, Tempo::All, 100, 10_000_000),
            Ending::Stopped
        );
        assert!(meter.nodes < 1_000, "{}", meter.nodes);
    }

    /// A run that reaches everything it can without a mate says so, with
    /// the nodes it counted, whatever its guidance; one cut by its
    /// allowance does not. Here the pawns are locked and every square of
    /// the fourth and fifth ranks they leave free is attacked by a pawn of
    /// each side, so neither king crosses: only the kings move, on their
    /// own three ranks each (about a thousand positions), and a king
    /// alone cannot mate.
    #[test]
    fn a_run_that_reaches_everything_says_so() {
        let pos: Position = "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - -".parse().unwrap();
        for guidance in [Guidance::Material, Guidance::Goal(Bitboard::EMPTY)] {
            let mut meter = Meter::new(50_000_000, None, None);
            let ending = run(&mut meter, &pos, Color::White, guidance, Tempo::All, 1_000_000, 10_000_000);
            assert!(matches!(ending, Ending::Exhausted { nodes, .. } if nodes == meter.nodes), "{guidance:?}");
            assert!((1_000..100_000).contains(&meter.nodes), "{}", meter.nodes);
            let mut short = Meter::new(50_000_000, None, None);
            let cut = run(&mut short, &pos, Color::White, guidance, Tempo::All, 1_000_000, meter.nodes / 2);
            assert_eq!(cut, Ending::Stopped, "{guidance:?}");
        }
    }

    /// Tempo moves are the winner's quiet moves that do not bring the
    /// estimate down: a capture (en passant too), a promotion, a check (a
    /// discovered one too) or a lower estimate makes a move count.
    #[test]
    fn tempo_moves_are_quiet_and_bring_nothing_closer() {
        let tempo = |fen: &str, uci: &str, estimates: (u32, u32)| {
            let pos: Position = fen.parse().unwrap();
            let m = pos.parse_uci(uci).unwrap();
            is_tempo(&pos, m, &pos.play(m), estimates.0, estimates.1)
        };
        let quiet = "4k3/8/8/8/8/8/4B3/R3K3 w - - 0 1";
        assert!(tempo(quiet, "e2d3", (10, 10)));
        assert!(tempo(quiet, "e2d3", (10, 12)), "a higher estimate");
        assert!(!tempo(quiet, "e2d3", (10, 9)), "a lower estimate");
        assert!(!tempo(quiet, "a1a8", (10, 10)), "a check");
        // The bishop uncovers the rook's check on the e-file.
        assert!(!tempo("4k3/8/8/8/8/8/4B3/4R1K1 w - - 0 1", "e2d3", (10, 10)), "a discovered check");
        assert!(!tempo("4k3/8/8/8/2p5/8/4B3/R3K3 w - - 0 1", "e2c4", (10, 10)), "a capture");
        assert!(!tempo("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", (10, 10)), "en passant");
        assert!(!tempo("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", (10, 10)), "a promotion");
    }

    /// A run that keeps every move of a locked position (every move of the
    /// winner's king is a tempo move for the material guidance) closes its
    /// small reachable set: a proof. Keeping one tempo move a position, its
    /// queue empties early; it then plays the moves it dropped, and either
    /// closes the same set (the same positions stored) or, short of nodes,
    /// ends as drained: never a proof of a smaller set.
    #[test]
    fn a_run_that_closes_the_reachable_set_is_a_proof() {
        let pos: Position = "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - -".parse().unwrap();
        let mut meter = Meter::new(50_000_000, None, None);
        let all = run(&mut meter, &pos, Color::White, Guidance::Material, Tempo::All, 1_000_000, 10_000_000);
        let Ending::Exhausted { positions, .. } = all else { panic!("{all:?}") };
        let mut meter = Meter::new(50_000_000, None, None);
        let thinned = run(&mut meter, &pos, Color::White, Guidance::Material, Tempo::First(1), 1_000_000, 10_000_000);
        match thinned {
            Ending::Exhausted { positions: p, .. } => assert_eq!(p, positions),
            Ending::Drained { .. } => {}
            other => panic!("{other:?}"),
        }
    }

    /// Winnable positions where a run keeping one tempo move a position
    /// empties its queue after a few hundred nodes without a mate (the
    /// mate needs a winner's move it dropped): it must not end as a proof.
    /// It plays the dropped moves and finds the mate, or ends as drained;
    /// a run that took its empty queue for a closed set would answer
    /// "unwinnable" here.
    #[test]
    fn a_drained_run_plays_the_moves_it_dropped_before_it_proves() {
        for (fen, winner) in [
            ("8/8/5p2/2p1pP2/2PbPk1b/2pBp1pB/2P1P1P1/5BRK w - -", Color::Black),
            ("k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K6Q w - -", Color::White),
        ] {
            let pos: Position = fen.parse().unwrap();
            for guidance in [Guidance::Goal(Targets::of(&pos, winner).loser_king), Guidance::Material] {
                for allowance in [1_000, 100_000, 10_000_000] {
                    let mut meter = Meter::new(50_000_000, None, None);
                    match run(&mut meter, &pos, winner, guidance, Tempo::First(1), 1_000_000, allowance) {
                        Ending::Mate(moves) => assert!(crate::replay(&pos, winner, &moves).is_ok(), "{fen}"),
                        Ending::Exhausted { .. } => panic!("{fen}: a winnable position proved unwinnable"),
                        Ending::Drained { .. } | Ending::Stopped => {}
                    }
                }
            }
        }
    }

    /// A run whose set of stored positions mistakes positions for each
    /// other (hashes masked to 8 bits, so that many differ under one hash)
    /// is never a proof, where the same run with whole hashes is one.
    #[test]
    fn a_hash_collision_leaves_the_run_without_a_proof() {
        for fen in ["k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - -", "6k1/8/8/p1p1p1p1/P1P1P1P1/8/8/6K1 b - -"] {
            let pos: Position = fen.parse().unwrap();
            let mut meter = Meter::new(50_000_000, None, None);
            let whole =
                search(&mut meter, &pos, Color::White, Guidance::Material, Tempo::All, 1_000_000, 10_000_000, u64::MAX);
            assert!(matches!(whole, Ending::Exhausted { .. }), "{fen}: {whole:?}");
            let mut meter = Meter::new(50_000_000, None, None);
            let masked =
                search(&mut meter, &pos, Color::White, Guidance::Material, Tempo::All, 1_000_000, 10_000_000, 0xff);
            assert!(matches!(masked, Ending::Drained { .. }), "{fen}: {masked:?}");
        }
    }

    /// A bishop cage (hard line 76 for White: the winner's eight bishops
    /// clear a diagonal while the loser's bishops block its king's
    /// squares, 20 plies and more): the plan's run keeping one tempo move a
    /// position finds a mate within 100,000 nodes, the one keeping them all
    /// does not (it spends them on the bishops' arrangements), and the
    /// moves replay to a mate by White.
    #[test]
    fn one_tempo_move_opens_the_bishop_cage() {
        let pos: Position = "Bk6/2b4B/3b2B1/5B2/4B3/p1pB1B2/PpP1B3/1K6 b - -".parse().unwrap();
        let plan = Plan::of(&pos, Color::White).expect("a net is possible");
        let mut meter = Meter::new(50_000_000, None, None);
        let all = run(&mut meter, &pos, Color::White, Guidance::Plan(&plan), Tempo::All, 4_000_000, 100_000);
        assert_eq!(all, Ending::Stopped);
        let mut meter = Meter::new(50_000_000, None, None);
        match run(&mut meter, &pos, Color::White, Guidance::Plan(&plan), Tempo::First(1), 4_000_000, 100_000) {
            Ending::Mate(moves) => assert!(crate::replay(&pos, Color::White, &moves).is_ok(), "{moves:?}"),
            other => panic!("{other:?} after {} nodes", meter.nodes),
        }
    }

    /// Long helpmates where the winner has many pieces that only wait (the
    /// dev set's line 511 for White, seven bishops; line 371 for Black, a
    /// king march; the hard set's line 766 for Black, a locked chain of
    /// bishops): with two tempo moves a position, the run finds a mate
    /// within an allowance in which the run storing every move does not
    /// (it spends it on arrangements of the waiting pieces), and the moves
    /// replay to a mate by the winner.
    #[test]
    fn thinning_tempo_moves_reaches_long_helpmates() {
        for (fen, winner, goal_guided) in [
            ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -", Color::White, true),
            ("8/b1k3b1/5b2/p1p1p1p1/P1P1P1P1/2K2B2/5bB1/8 w - -", Color::Black, true),
            ("k1b1b1b1/7b/8/BpBpBpBp/1PbP1PpP/6P1/6P1/K1B5 w - -", Color::Black, false),
        ] {
            let pos: Position = fen.parse().unwrap();
            let guidance =
                if goal_guided { Guidance::Goal(Targets::of(&pos, winner).loser_king) } else { Guidance::Material };
            let allowance = 1_000_000;
            let mut meter = Meter::new(50_000_000, None, None);
            let all = run(&mut meter, &pos, winner, guidance, Tempo::All, 4_000_000, allowance);
            assert_eq!(all, Ending::Stopped, "{fen}: every move stored");
            let mut meter = Meter::new(50_000_000, None, None);
            match run(&mut meter, &pos, winner, guidance, Tempo::First(2), 4_000_000, allowance) {
                Ending::Mate(moves) => assert!(crate::replay(&pos, winner, &moves).is_ok(), "{fen}: {moves:?}"),
                other => panic!("{fen}: {other:?} after {} nodes", meter.nodes),
            }
        }
    }

    /// A guidance is at its floor at a root where its estimate cannot fall
    /// any more (but for a check, for the goal), and only there.
    #[test]
    fn a_guidance_at_its_floor_is_recognised() {
        let a8 = Guidance::Goal(Bitboard::from(Square::A8));
        // The loser's king on its goal square, every neighbour taken by its
        // own men, not in check: estimate 1, the goal's floor.
        let boxed: Position = "kb6/pp6/8/8/8/8/8/K7 w - -".parse().unwrap();
        assert_eq!(estimate(&boxed, Color::White, Bitboard::from(Square::A8)), 1);
        assert!(a8.estimate_at_floor(&boxed, Color::White));
        // One free neighbour (b8): the goal can still steer.
        let one_free: Position = "k7/pp6/8/8/8/8/8/K7 w - -".parse().unwrap();
        assert_eq!(estimate(&one_free, Color::White, Bitboard::from(Square::A8)), 3);
        assert!(!a8.estimate_at_floor(&one_free, Color::White));
        // One step off the goal square.
        let off: Position = "1k6/pp6/8/8/8/8/8/K7 w - -".parse().unwrap();
        assert!(!a8.estimate_at_floor(&off, Color::White));
        // The hard set's line 199 for Black: the loser's king already stands
        // on its only goal square, with no free neighbour.
        let reached: Position = "1k6/1p4p1/1b1b2P1/6b1/1p1p4/1P1Pp1bp/4Pp1p/1B3Kbr b - -".parse().unwrap();
        let goal = Targets::of(&reached, Color::Black).loser_king;
        assert_eq!(goal, Bitboard::from(Square::F1));
        assert!(Guidance::Goal(goal).estimate_at_floor(&reached, Color::Black));
        // A king march: the goal is far from the loser's king.
        let march: Position = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -".parse().unwrap();
        let goal = Targets::of(&march, Color::White).loser_king;
        assert!(!Guidance::Goal(goal).estimate_at_floor(&march, Color::White));
        assert!(!Guidance::Material.estimate_at_floor(&march, Color::White));
        // The plan of a march still has moves to make.
        let plan_march: Position = "k1b5/1p1p4/1P1P1K2/8/8/B7/8/1b6 w - -".parse().unwrap();
        let plan = Plan::of(&plan_march, Color::Black).expect("a net is possible");
        assert!(!Guidance::Plan(&plan).estimate_at_floor(&plan_march, Color::Black));
        // Nothing of the loser's is left in the way, and the winner has no
        // pawn: the material estimate is at its floor.
        let bare: Position = "k7/8/8/8/8/8/8/K5Q1 w - -".parse().unwrap();
        assert!(Guidance::Material.estimate_at_floor(&bare, Color::White));
        // One of the plan's nets has every post taken at the root (the dev
        // set's line 675 for White), though there is no mate yet.
        let taken: Position = "5k2/p1p1p3/8/8/8/6p1/P1P1P1Pp/7K w - -".parse().unwrap();
        let plan = Plan::of(&taken, Color::White).expect("a net is possible");
        assert_eq!(plan.estimate(&taken), 0);
        assert!(Guidance::Plan(&plan).estimate_at_floor(&taken, Color::White));
    }

    /// The material estimate falls with every loser's piece and pawn taken
    /// and every rank a winner's pawn advances.
    #[test]
    fn material_estimate_counts_what_is_in_the_way() {
        let pos: Position = "4k3/8/8/3p4/4P3/8/8/R3K3 w - -".parse().unwrap();
        // White wins: Black's pawn (2), White's pawn on the fourth rank (4).
        assert_eq!(material_estimate(&pos, Color::White), 6);
        // Black wins: White's rook (3) and pawn (2), Black's pawn on d5,
        // four ranks from d1.
        assert_eq!(material_estimate(&pos, Color::Black), 3 + 2 + 4);
    }
}
