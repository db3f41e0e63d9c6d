//! The full algorithm's schedule (Figure 9's "interleaved with"): which
//! phase runs next and with how many nodes, as a pure state machine over
//! the reports of the phases. It sees no position; [`super::full`] asks it
//! and runs the phases it names.
//!
//! **Soundness.** Nothing here answers anything: the schedule only chooses
//! the order of the phases and their allowances, and every answer is a
//! phase's own, with that phase's argument. Completeness needs only that
//! the iterations' depth and node bound grow without limit while the
//! budget lasts (they do: the depth by [`DEPTH_STEP`] per iteration, the
//! bound doubling after every iteration that used it all).
//!
//! The measurements behind each constant are in `docs/tuning.md`.

/// How much deeper each iteration searches than the one before (`maxDepth`
/// of Figure 5: 1, 3, 5, ...): the node bound, not the depth, decides what
/// a large iteration costs, so a larger step reaches long helpmates in
/// fewer iterations (`docs/tuning.md#depth-step`).
pub(crate) const DEPTH_STEP: i32 = 2;

/// How many plies deeper than a cut iteration its look-ahead searches
/// ([`Schedule::iterated`]).
pub(crate) const LOOK_AHEAD_PLIES: i32 = 6;

/// The share of the cut iteration's node bound its look-ahead gets.
pub(crate) const LOOK_AHEAD_SHARE: u64 = 8;

/// How many plies deeper than the look-ahead the second, deep look-ahead
/// searches ([`Schedule::iterated`]).
pub(crate) const DEEP_LOOK_AHEAD_PLIES: i32 = 12;

/// The share of the cut iteration's node bound the deep look-ahead gets.
pub(crate) const DEEP_LOOK_AHEAD_SHARE: u64 = 64;

/// A best-first run gets at most this many times what the query has spent
/// so far ([`best_first_allowance`]).
pub(crate) const BEST_FIRST_PACE: u64 = 8;

/// A best-first run gets this many times the iteration's node bound (a run
/// counts every position it generates, an iteration those it enters).
pub(crate) const BEST_FIRST_SHARE: u64 = 16;

/// The first iteration runs in the generator's order for this share of its
/// bound, then restarts in another order for the rest
/// ([`Schedule::first_restart`]).
pub(crate) const FIRST_RESTART_SHARE: u64 = 5;

/// A closed position's first look gets this share of the first iteration's
/// bound ([`Schedule::closed_first_look`]).
pub(crate) const CLOSED_LOOK_SHARE: u64 = 10;

/// The share, in percent of the first iteration's bound, of a closed
/// position's traversal before the first iteration
/// ([`Schedule::closed_probe`]).
pub(crate) const CLOSED_PROBE_PERCENT: u64 = 75;

/// The best-first phase's first round, and it runs every other round.
pub(crate) const BEST_FIRST_FROM_ROUND: u32 = 4;

/// The exhaustive phase's first scheduled round, and it runs every other
/// round.
pub(crate) const EXHAUSTIVE_FROM_ROUND: u32 = 3;

/// The round from which on the exhaustive phase's allowance keeps pace with
/// the other phases' spending since it last ran.
pub(crate) const EXHAUSTIVE_KEEPS_PACE_FROM: u32 = 7;

/// After an iteration that ran to its end but leaned on earlier
/// iterations' entries, the exhaustive phase gets at least this many times
/// that iteration's nodes.
pub(crate) const EXHAUSTIVE_AFTER_STALE: u64 = 8;

/// A traversal turn that ends with at least this many positions expanded
/// may be finished at once ([`Schedule::finishing`]).
pub(crate) const FINISH_FROM_EXPANDED: u64 = 100_000;

/// ... when fewer than this share of the positions it expanded are still
/// queued: its frontier has shrunk, the reachable set is nearly closed.
pub(crate) const FINISH_FRONTIER_SHARE: u64 = 8;

/// The guidances of the best-first phase's turns after the first, in a
/// cycle from the second turn on: the goal squares for king marches into a
/// net, the plan for marches where the winner's pieces must reach their
/// posts too, and material for helpmates that break a locked chain by
/// sacrifices and a promotion.
pub(crate) const BEST_FIRST_ROTATION: [Steering; 3] = [Steering::Goal, Steering::Plan, Steering::Material];

/// The guidances the first turn probes, in this order ([`best_first_runs`]),
/// unless the winner's king is walled in ([`Schedule::new`]).
pub(crate) const BEST_FIRST_PROBES: [Steering; 2] = [Steering::Goal, Steering::Plan];

/// The share of a turn's allowance each probe of the first turn gets
/// ([`best_first_runs`]).
pub(crate) const BEST_FIRST_PROBE_SHARE: u64 = 8;

/// The tempo moves a position keeps in the first turn's probes: one. A
/// plan or material run keeping one finds the helpmates of bishop cages
/// tens of times sooner than keeping two or all
/// (docs/tuning.md#best-first-probes).
pub(crate) const PROBE_TEMPO_MOVES: u32 = 1;

/// The tempo moves a position keeps in the goal's own runs
/// ([`crate::phase::best_first::Tempo`]; docs/tuning.md#tempo-moves).
pub(crate) const TEMPO_MOVES_KEPT: u32 = 2;

/// The share of a goal's turn that its second run gets, keeping one tempo
/// move a position; the first keeps [`TEMPO_MOVES_KEPT`] with the rest
/// ([`best_first_runs`]). The two thinnings find different helpmates: some
/// marches are found far sooner keeping one, others only keeping two
/// (docs/tuning.md#goal-turn-split).
pub(crate) const GOAL_ONE_TEMPO_SHARE: u64 = 4;

/// Where an interrupted exhaustive traversal stands: what the exhaustive
/// phase reports to the schedule ([`Schedule::finishing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frontier {
    /// Positions waiting in its queue.
    pub queued: u64,
    /// Positions it has expanded.
    pub expanded: u64,
}

/// A best-first guidance, before its tables are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Steering {
    /// The material still in the way.
    Material,
    /// The loser's king towards its goal squares.
    Goal,
    /// The distance plan (the goal when there is no plan).
    Plan,
}

/// One best-first run: its guidance, how many tempo moves it keeps, and
/// its node allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BestFirstRun {
    /// The guidance.
    pub steering: Steering,
    /// The tempo moves of a position the run keeps at most; `None`: all
    /// of them.
    pub kept: Option<u32>,
    /// Its node allowance.
    pub allowance: u64,
}

/// One depth-first iteration to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// The depth limit.
    pub depth: i32,
    /// The node bound.
    pub node_bound: u64,
    /// A first iteration or a later one.
    pub pass: Pass,
    /// A later iteration keeps the table when it has room for twice this
    /// many positions (the bound of the iteration it follows, for the
    /// look-aheads).
    pub table_room: u64,
}

/// The kind of a depth-first iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// A first iteration: a fresh table, the generator's order, the paper's
    /// scores and no static check at its nodes (it finds the short
    /// helpmates of real games in a few hundred nodes).
    First,
    /// The first iteration restarted ([`Schedule::first_restart`]): as
    /// [`Pass::First`], but the loser's moves taken from the end of the
    /// generator's list.
    FirstRestarted,
    /// A later iteration: the loser-opens scores, the static check, a
    /// rotated order.
    Later,
}

impl Pass {
    /// A first iteration, restarted or not.
    pub fn first(self) -> bool {
        self != Pass::Later
    }
}

/// What an iteration that was interrupted reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cut {
    /// The nodes it counted.
    pub nodes: u64,
    /// Nothing but stale entries stood in the way of a proof: the
    /// reachable set is probably small.
    pub only_stale: bool,
}

/// The full algorithm's schedule: the iterations' depths and node bounds,
/// the rounds of the best-first and exhaustive phases, and their
/// allowances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Schedule {
    best_first: bool,
    /// The best-first phase's turns are numbered from 1: its first turn
    /// runs the goal's guidance whole instead of probing.
    whole_first_turn: bool,
    first_bound: u64,
    /// The node bound of the last iteration (and of the next, unless a
    /// round doubles it).
    bound: u64,
    /// The last iteration's depth limit.
    depth: i32,
    exhaustive_bound: u64,
    /// The iterations' nodes so far.
    iteration_nodes: u64,
    /// The rounds of the other phases so far.
    round: u32,
    /// A best-first run drained in this round, after this many nodes.
    drained_now: Option<u64>,
    /// The query's nodes when the exhaustive phase last ended.
    exhaustive_ended_at: u64,
}

impl Schedule {
    /// The schedule of a query whose first iteration gets `first_bound`
    /// nodes; `best_first`: whether the best-first phase runs;
    /// `whole_first_turn`: whether its first turn runs the goal's guidance
    /// whole instead of probing ([`best_first_runs`]), for a winner whose
    /// king is walled in: there the goal's whole run is what finds the
    /// helpmate or closes the reachable set, and the probes only put it off
    /// by a round (docs/tuning.md#walled-winner).
    pub fn new(first_bound: u64, best_first: bool, whole_first_turn: bool) -> Schedule {
        let first_bound = first_bound.max(1);
        Schedule {
            best_first,
            whole_first_turn,
            first_bound,
            bound: first_bound,
            depth: 1,
            exhaustive_bound: first_bound.saturating_mul(2),
            iteration_nodes: 0,
            round: 0,
            drained_now: None,
            exhaustive_ended_at: 0,
        }
    }

    /// A closed position's look for short helpmates before its traversal:
    /// the first iteration with a [`CLOSED_LOOK_SHARE`]th of its bound.
    pub fn closed_first_look(&self) -> Step {
        let node_bound = (self.first_bound / CLOSED_LOOK_SHARE).max(1);
        Step { depth: 1, node_bound, pass: Pass::First, table_room: node_bound }
    }

    /// The allowance of the traversal that a closed position (only the
    /// kings can move) gets before the first iteration: a share
    /// ([`CLOSED_PROBE_PERCENT`]) of the first iteration's bound. The
    /// traversal is resumed later, so nothing of it is lost if it does not
    /// end.
    pub fn closed_probe(&self) -> u64 {
        self.first_bound.saturating_mul(CLOSED_PROBE_PERCENT) / 100
    }

    /// The traversal's further allowance for a closed position after the
    /// first iteration and the static check: the first iteration's bound.
    pub fn closed_traversal(&self) -> u64 {
        self.first_bound
    }

    /// The first iteration: depth 1 with a [`FIRST_RESTART_SHARE`]th of the
    /// first bound, in the generator's order.
    pub fn first_iteration(&self) -> Step {
        let (node_bound, _) = self.first_bounds();
        Step { depth: 1, node_bound, pass: Pass::First, table_room: node_bound }
    }

    /// The first iteration restarted after `head` (the first iteration's
    /// cut) with the rest of the first bound, the loser's moves in another
    /// order, when the node bound cut `head`: the one order walks deep into
    /// its first choices, and a restart in another meets other lines first,
    /// which finds many helpmates sooner than going on in the same order
    /// (docs/tuning.md#first-restart). `None` when the depth ended `head`:
    /// a restart would search the same small tree again.
    pub fn first_restart(&self, head: Cut) -> Option<Step> {
        let (head_bound, node_bound) = self.first_bounds();
        (head.nodes > head_bound).then_some(Step {
            depth: 1,
            node_bound,
            pass: Pass::FirstRestarted,
            table_room: node_bound,
        })
    }

    /// What the first iteration and its restart report as one iteration of
    /// the first bound, so that the schedule after them is that of a single
    /// first iteration: both nodes when the bound cut the restart too,
    /// otherwise the restart's own (it searched the whole tree).
    pub fn first_cut(&self, head: Cut, restart: Cut) -> Cut {
        let (_, restart_bound) = self.first_bounds();
        let nodes = if restart.nodes > restart_bound { head.nodes + restart.nodes } else { restart.nodes };
        Cut { nodes, only_stale: restart.only_stale }
    }

    /// The node bounds of the first iteration and of its restart: a
    /// [`FIRST_RESTART_SHARE`]th of the first bound and the rest (at least
    /// one node each).
    fn first_bounds(&self) -> (u64, u64) {
        let head = (self.first_bound / FIRST_RESTART_SHARE).max(1);
        (head, self.first_bound.saturating_sub(head).max(1))
    }

    /// The next iteration, [`DEPTH_STEP`] deeper with the current bound;
    /// `None` once the depth would overflow (no budget gets there).
    pub fn next_iteration(&mut self) -> Option<Step> {
        self.depth = self.depth.checked_add(DEPTH_STEP)?;
        Some(Step { depth: self.depth, node_bound: self.bound, pass: Pass::Later, table_room: self.bound })
    }

    /// Counts a cut iteration's nodes; the look-aheads to run after it: when
    /// its node bound cut it, an iteration [`LOOK_AHEAD_PLIES`] deeper with
    /// a [`LOOK_AHEAD_SHARE`]th of the bound, then one
    /// [`DEEP_LOOK_AHEAD_PLIES`] deeper still with a
    /// [`DEEP_LOOK_AHEAD_SHARE`]th. Where a bound cuts an iteration, whether
    /// it meets a helpmate depends on the move order more than on the bound:
    /// a short deeper iteration is a second draw at a small price, and a
    /// shorter, much deeper one a third, for the long helpmates that a
    /// move order happens to walk straight into
    /// (`docs/tuning.md#look-ahead`).
    pub fn iterated(&mut self, cut: Cut) -> Vec<Step> {
        self.iteration_nodes += cut.nodes;
        if cut.nodes <= self.bound {
            return Vec::new();
        }
        let depth = self.depth.saturating_add(LOOK_AHEAD_PLIES);
        let step = |depth: i32, share: u64| Step {
            depth,
            node_bound: (self.bound / share).max(1),
            pass: Pass::Later,
            table_room: self.bound,
        };
        vec![step(depth, LOOK_AHEAD_SHARE), step(depth.saturating_add(DEEP_LOOK_AHEAD_PLIES), DEEP_LOOK_AHEAD_SHARE)]
    }

    /// Whether the iterations go on without the other phases' turn after
    /// `cut`, the query having spent `spent` nodes: when the depth, not the
    /// bound, ended it (its tree is small), it did not lean only on stale
    /// entries, and the iterations have spent less than the other phases
    /// (`docs/tuning.md#catching-up`). Each iteration
    /// counts at least its root, so the other phases get their turns.
    pub fn catches_up(&self, cut: Cut, spent: u64) -> bool {
        cut.nodes <= self.bound && !cut.only_stale && self.iteration_nodes < spent.saturating_sub(self.iteration_nodes)
    }

    /// Starts a round of the other phases after `cut`: an iteration that
    /// used its whole bound gets a twice larger one next (the bound must
    /// grow for the algorithm to be complete).
    pub fn next_round(&mut self, cut: Cut) {
        self.round += 1;
        self.drained_now = None;
        if cut.nodes > self.bound {
            self.bound = self.bound.saturating_mul(2);
        }
    }

    /// The best-first phase's turn in this round, if it has one (every
    /// other round from [`BEST_FIRST_FROM_ROUND`]): the turn's number (0
    /// for the first, which probes; numbered from 1 with a whole first
    /// turn) and its allowance when the query has spent `spent` nodes.
    pub fn best_first_turn(&self, spent: u64) -> Option<(usize, u64)> {
        let due = self.round >= BEST_FIRST_FROM_ROUND && self.round % 2 == 0;
        (self.best_first && due).then(|| {
            let turn = (self.round / 2 - BEST_FIRST_FROM_ROUND / 2) as usize + usize::from(self.whole_first_turn);
            (turn, best_first_allowance(self.bound, self.first_bound, spent))
        })
    }

    /// A best-first run drained (its queue emptied after it dropped tempo
    /// moves, and it could not close the set: `best_first::Ending`) after
    /// `nodes`: the reachable set is probably small, and the exhaustive
    /// traversal runs at once with at least twice those nodes
    /// ([`Schedule::exhaustive_turn`]; docs/tuning.md#best-first-drained).
    pub fn best_first_drained(&mut self, nodes: u64) {
        self.drained_now = Some(nodes);
    }

    /// The exhaustive phase's allowance in this round, if it has a turn:
    /// every other round from [`EXHAUSTIVE_FROM_ROUND`], and at once after
    /// an iteration that leaned only on stale entries (a sign the
    /// reachable set is small) or a best-first run that reached everything
    /// it could. Its own doubling allowance, raised to the sizes those
    /// signs suggest, and from round [`EXHAUSTIVE_KEEPS_PACE_FROM`] to what
    /// the other phases spent since it last ran, when the query has spent
    /// `spent` nodes (a traversal that needs N nodes then gets them while
    /// the others grow; `docs/tuning.md#exhaustive-pace`).
    pub fn exhaustive_turn(&self, cut: Cut, spent: u64) -> Option<u64> {
        let due = self.round >= EXHAUSTIVE_FROM_ROUND && self.round % 2 == 1;
        if !(cut.only_stale || self.drained_now.is_some() || due) {
            return None;
        }
        let mut allowance = self.exhaustive_bound;
        if cut.only_stale {
            allowance = allowance.max(cut.nodes.saturating_mul(EXHAUSTIVE_AFTER_STALE));
        }
        if let Some(run) = self.drained_now {
            allowance = allowance.max(run.saturating_mul(2));
        }
        if self.round >= EXHAUSTIVE_KEEPS_PACE_FROM {
            allowance = allowance.max(spent.saturating_sub(self.exhaustive_ended_at));
        }
        Some(allowance)
    }

    /// A further allowance for the exhaustive turn that just ended at
    /// `frontier` after `allowance` nodes: the same allowance once more when
    /// the traversal has expanded at least [`FINISH_FROM_EXPANDED`]
    /// positions and fewer than a [`FINISH_FRONTIER_SHARE`]th of that
    /// number is still queued. A breadth-first frontier that shrinks like
    /// that belongs to a set that is nearly closed: finishing it costs little
    /// and proves, where leaving it to the next turn lets a best-first run
    /// close the same set again from its root
    /// (docs/tuning.md#finishing-the-traversal).
    pub fn finishing(&self, frontier: Frontier, allowance: u64) -> Option<u64> {
        let shrunk = frontier.queued.saturating_mul(FINISH_FRONTIER_SHARE) < frontier.expanded;
        (frontier.expanded >= FINISH_FROM_EXPANDED && shrunk).then_some(allowance)
    }

    /// The exhaustive phase ran without an answer, the query having spent
    /// `spent` nodes: its own allowance doubles.
    pub fn exhaustive_ran(&mut self, spent: u64) {
        self.exhaustive_ended_at = spent;
        self.exhaustive_bound = self.exhaustive_bound.saturating_mul(2);
    }
}

/// The node allowance of a best-first run after an iteration with the node
/// bound `bound`, when the query has counted `spent` nodes:
/// [`BEST_FIRST_SHARE`] times the bound, but at most [`BEST_FIRST_PACE`]
/// times `spent`, and at least what the first run with the first bound
/// would get. The pace bounds what a failing run wastes against the other
/// phases' work; the allowance still grows geometrically, so a run that
/// needs N nodes gets them (`docs/tuning.md#best-first-pace`).
pub(crate) fn best_first_allowance(bound: u64, first_bound: u64, spent: u64) -> u64 {
    let least = first_bound.saturating_mul(BEST_FIRST_SHARE);
    bound.saturating_mul(BEST_FIRST_SHARE).min(spent.saturating_mul(BEST_FIRST_PACE).max(least))
}

/// The best-first runs of the phase's `turn` (0 for its first) with the
/// node allowance `allowance`. The first turn only probes: the goal and the
/// plan (the plan only when there is one: without, it would be the goal's
/// run again), each with a [`BEST_FIRST_PROBE_SHARE`]th of the allowance,
/// keeping [`PROBE_TEMPO_MOVES`] tempo moves a position. A probe that
/// fails costs a little, and a whole run at the first turn mostly failed
/// and cost more than the query had spent
/// (docs/tuning.md#best-first-first-turn). Each later turn runs the next
/// guidance of [`BEST_FIRST_ROTATION`] with the whole allowance: the
/// goal's turn in two runs, keeping [`TEMPO_MOVES_KEPT`] tempo moves a
/// position, then, with a [`GOAL_ONE_TEMPO_SHARE`]th of the allowance,
/// [`PROBE_TEMPO_MOVES`]; the plan's and the material's keeping every
/// tempo move (their helpmates often need a winner's piece to walk or make
/// way), but a plan's turn without a plan, which runs the goal's guidance
/// (king marches, where the winner's pieces mostly wait), keeping
/// [`TEMPO_MOVES_KEPT`] (docs/tuning.md#tempo-moves).
///
/// A guidance `at_floor` (with nothing to steer by from the start, it
/// would only run a breadth-first search) is left out: a later turn passes
/// to the next guidance of the rotation instead of giving its nodes to the
/// other phases (docs/tuning.md#best-first-floor), and a turn whose every
/// guidance is at its floor runs nothing.
pub(crate) fn best_first_runs(
    turn: usize,
    allowance: u64,
    has_plan: bool,
    at_floor: impl Fn(Steering) -> bool,
) -> Vec<BestFirstRun> {
    let run = |steering, kept, allowance| BestFirstRun { steering, kept, allowance };
    if let Some(later) = turn.checked_sub(1) {
        let rotation =
            (0..BEST_FIRST_ROTATION.len()).map(|k| BEST_FIRST_ROTATION[(later + k) % BEST_FIRST_ROTATION.len()]);
        let whole = |steering| match steering {
            Steering::Goal => {
                let thinnest = allowance / GOAL_ONE_TEMPO_SHARE;
                vec![
                    run(steering, Some(TEMPO_MOVES_KEPT), allowance - thinnest),
                    run(steering, Some(PROBE_TEMPO_MOVES), thinnest),
                ]
            }
            Steering::Plan if !has_plan => vec![run(steering, Some(TEMPO_MOVES_KEPT), allowance)],
            _ => vec![run(steering, None, allowance)],
        };
        return rotation.filter(|&s| !at_floor(s)).take(1).flat_map(whole).collect();
    }
    let probes = BEST_FIRST_PROBES.iter().filter(|&&s| (has_plan || s != Steering::Plan) && !at_floor(s));
    probes.map(|&s| run(s, Some(PROBE_TEMPO_MOVES), allowance / BEST_FIRST_PROBE_SHARE)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The iterations' depths: 1, 3, 5, ..., each with the bound as it
    /// stands; the first is marked first.
    #[test]
    fn iterations_deepen_by_the_step() {
        let mut schedule = Schedule::new(10_000, true, false);
        let first = schedule.first_iteration();
        assert_eq!(first, Step { depth: 1, node_bound: 2_000, pass: Pass::First, table_room: 2_000 });
        let depths: Vec<i32> = (0..4).map(|_| schedule.next_iteration().unwrap().depth).collect();
        assert_eq!(depths, [3, 5, 7, 9]);
        assert_eq!(schedule.next_iteration().unwrap().pass, Pass::Later);
        // No overflow: the schedule ends instead.
        schedule.depth = i32::MAX - 1;
        assert_eq!(schedule.next_iteration(), None);
    }

    /// A first bound of 0 is taken as 1 (every iteration counts its root).
    #[test]
    fn the_first_bound_is_at_least_one() {
        let schedule = Schedule::new(0, true, false);
        assert_eq!(schedule.first_iteration().node_bound, 1);
        assert_eq!(schedule.first_restart(Cut { nodes: 2, only_stale: false }).unwrap().node_bound, 1);
    }

    /// The first iteration gets a fifth of the first bound; only when that
    /// bound cut it, a restart in the other order gets the rest; and the two
    /// report one cut iteration of the first bound: cut by the bound (both
    /// nodes) when the restart was, else the restart's nodes (so that no
    /// look-ahead follows, as after a first iteration the depth ended).
    #[test]
    fn the_first_iteration_restarts_once_its_bound_cut_it() {
        let mut schedule = Schedule::new(10_000, true, false);
        assert_eq!(schedule.first_restart(Cut { nodes: 2_000, only_stale: false }), None);
        let head = Cut { nodes: 2_001, only_stale: false };
        let restart = schedule.first_restart(head).unwrap();
        assert_eq!(restart, Step { depth: 1, node_bound: 8_000, pass: Pass::FirstRestarted, table_room: 8_000 });
        assert!(restart.pass.first() && Pass::First.first() && !Pass::Later.first());
        let cut = schedule.first_cut(head, Cut { nodes: 8_001, only_stale: false });
        assert_eq!(cut, Cut { nodes: 10_002, only_stale: false });
        assert_eq!(schedule.iterated(cut).len(), 2);
        let small = schedule.first_cut(head, Cut { nodes: 4_321, only_stale: false });
        assert_eq!(small, Cut { nodes: 4_321, only_stale: false });
        assert!(schedule.iterated(small).is_empty());
    }

    /// Look-aheads follow an iteration only when its node bound cut it: six
    /// plies deeper with an eighth of the bound, then eighteen plies deeper
    /// with a sixty-fourth (at least one node each), keeping the table by
    /// the cut iteration's bound.
    #[test]
    fn look_aheads_follow_a_cut_iteration() {
        let mut schedule = Schedule::new(10_000, true, false);
        let cut = Cut { nodes: 10_001, only_stale: false };
        assert_eq!(
            schedule.iterated(cut),
            [
                Step { depth: 7, node_bound: 1_250, pass: Pass::Later, table_room: 10_000 },
                Step { depth: 19, node_bound: 156, pass: Pass::Later, table_room: 10_000 }
            ]
        );
        assert_eq!(schedule.iterated(Cut { nodes: 10_000, only_stale: false }), []);
        assert_eq!(schedule.iterated(Cut { nodes: 354, only_stale: false }), []);
        let mut tiny = Schedule::new(1, true, false);
        let depths = |steps: Vec<Step>| steps.iter().map(|s| (s.depth, s.node_bound)).collect::<Vec<_>>();
        assert_eq!(depths(tiny.iterated(Cut { nodes: 2, only_stale: false })), [(7, 1), (19, 1)]);
        tiny.depth = i32::MAX - 1;
        assert_eq!(depths(tiny.iterated(Cut { nodes: 3, only_stale: false })), [(i32::MAX, 1), (i32::MAX, 1)]);
    }

    /// The iterations go on alone while they have spent less than the
    /// other phases, only when the depth ended them, and never after
    /// leaning on stale entries.
    #[test]
    fn the_iterations_catch_up_with_the_other_phases() {
        let small = Cut { nodes: 10_000, only_stale: false };
        let mut schedule = Schedule::new(10_000, true, false);
        schedule.iterated(small);
        assert!(schedule.catches_up(small, 30_000));
        assert!(!schedule.catches_up(small, 20_000));
        assert!(!schedule.catches_up(small, 10_000));
        assert!(!schedule.catches_up(Cut { only_stale: true, ..small }, 30_000));
        // Cut by the bound: the round comes.
        let mut schedule = Schedule::new(10_000, true, false);
        let cut = Cut { nodes: 10_001, only_stale: false };
        schedule.iterated(cut);
        assert!(!schedule.catches_up(cut, 1_000_000));
    }

    /// The bound doubles after a round whose iteration used it all, and
    /// only then.
    #[test]
    fn the_bound_doubles_after_a_cut_iteration() {
        let mut schedule = Schedule::new(10_000, true, false);
        schedule.next_round(Cut { nodes: 9_000, only_stale: false });
        assert_eq!(schedule.next_iteration().unwrap().node_bound, 10_000);
        schedule.next_round(Cut { nodes: 10_001, only_stale: false });
        assert_eq!(schedule.next_iteration().unwrap().node_bound, 20_000);
    }

    /// The rounds: the exhaustive phase at 3, 5, 7, ...; the best-first
    /// phase at 4, 6, 8, ... with turns 0, 1, 2, ...; neither before.
    #[test]
    fn the_phases_take_turns_by_rounds() {
        let cut = Cut { nodes: 10_001, only_stale: false };
        let mut schedule = Schedule::new(10_000, true, false);
        let mut turns = Vec::new();
        for _ in 0..8 {
            schedule.next_round(cut);
            let best_first = schedule.best_first_turn(1_000_000).map(|(turn, _)| turn);
            turns.push((schedule.round, best_first, schedule.exhaustive_turn(cut, 1_000_000).is_some()));
        }
        assert_eq!(
            turns,
            [
                (1, None, false),
                (2, None, false),
                (3, None, true),
                (4, Some(0), false),
                (5, None, true),
                (6, Some(1), false),
                (7, None, true),
                (8, Some(2), false)
            ]
        );
        // Without the best-first phase: no turns.
        let mut schedule = Schedule::new(10_000, false, false);
        (0..4).for_each(|_| schedule.next_round(cut));
        assert_eq!(schedule.best_first_turn(1_000_000), None);
    }

    /// With a whole first turn (a walled winner's king), the turns are
    /// numbered from 1 at the same rounds: the goal whole first, then the
    /// plan, the material, the goal; never the probes.
    #[test]
    fn a_walled_king_gets_a_whole_first_turn() {
        let cut = Cut { nodes: 10_001, only_stale: false };
        let mut schedule = Schedule::new(10_000, true, true);
        let mut turns = Vec::new();
        for _ in 0..10 {
            schedule.next_round(cut);
            if let Some((turn, _)) = schedule.best_first_turn(1_000_000) {
                turns.push((schedule.round, best_first_runs(turn, 800, true, |_| false)[0].steering));
            }
        }
        use Steering::{Goal, Material, Plan};
        assert_eq!(turns, [(4, Goal), (6, Plan), (8, Material), (10, Goal)]);
        let probing = Schedule { round: 4, ..Schedule::new(10_000, true, false) };
        assert_eq!(best_first_runs(probing.best_first_turn(1_000_000).unwrap().0, 800, true, |_| false).len(), 2);
    }

    /// The exhaustive allowance: its own doubling; at least eight times a
    /// stale-ended iteration's nodes; at least twice a drained best-first
    /// run's (in that round only); from round 7 at least what was spent
    /// since it last ran.
    #[test]
    fn the_exhaustive_allowance_follows_the_signs() {
        let cut = Cut { nodes: 10_001, only_stale: false };
        let mut schedule = Schedule::new(10_000, true, false);
        schedule.next_round(cut);
        assert_eq!(schedule.exhaustive_turn(cut, 0), None);
        let stale = Cut { nodes: 5_000, only_stale: true };
        assert_eq!(schedule.exhaustive_turn(stale, 0), Some(40_000));
        assert_eq!(schedule.exhaustive_turn(Cut { nodes: 1_000, only_stale: true }, 0), Some(20_000));
        schedule.best_first_drained(50_000);
        assert_eq!(schedule.exhaustive_turn(cut, 0), Some(100_000));
        schedule.next_round(cut);
        assert_eq!(schedule.exhaustive_turn(cut, 0), None, "the drained run counts in its round only");
        schedule.next_round(cut);
        assert_eq!(schedule.exhaustive_turn(cut, 0), Some(20_000));
        schedule.exhaustive_ran(300_000);
        assert_eq!(schedule.exhaustive_bound, 40_000);
        while schedule.round < EXHAUSTIVE_KEEPS_PACE_FROM {
            schedule.next_round(cut);
        }
        assert_eq!(schedule.exhaustive_turn(cut, 1_000_000), Some(700_000));
        assert_eq!(schedule.exhaustive_turn(cut, 310_000), Some(40_000));
    }

    /// A run that dropped tempo moves and emptied its queue brings the
    /// traversal forward (at once, with twice its nodes) without ending
    /// the best-first phase: its next turn still comes.
    #[test]
    fn a_drained_run_brings_the_traversal_forward() {
        let cut = Cut { nodes: 10_001, only_stale: false };
        let mut schedule = Schedule::new(10_000, true, false);
        (0..4).for_each(|_| schedule.next_round(cut));
        assert_eq!(schedule.exhaustive_turn(cut, 0), None, "round 4 is the best-first phase's");
        schedule.best_first_drained(50_000);
        assert_eq!(schedule.exhaustive_turn(cut, 0), Some(100_000));
        (0..2).for_each(|_| schedule.next_round(cut));
        assert_eq!(schedule.best_first_turn(1_000_000).map(|(turn, _)| turn), Some(1));
    }

    /// A traversal turn is finished at once (its allowance once more) only
    /// when it has expanded at least 100,000 positions and fewer than an
    /// eighth of them wait in the queue.
    #[test]
    fn a_nearly_closed_traversal_is_finished_at_once() {
        let schedule = Schedule::new(10_000, true, false);
        let finishing = |queued, expanded| schedule.finishing(Frontier { queued, expanded }, 4_000_000);
        assert_eq!(finishing(41_353, 529_337), Some(4_000_000));
        assert_eq!(finishing(12_499, 100_000), Some(4_000_000));
        assert_eq!(finishing(12_500, 100_000), None, "an eighth still queued");
        assert_eq!(finishing(1_000, 99_999), None, "too small to tell");
        assert_eq!(finishing(0, 0), None);
        assert_eq!(finishing(u64::MAX, u64::MAX), None);
    }

    /// A best-first run gets sixteen times the iteration's bound, unless
    /// that is more than eight times what the query has spent; never less
    /// than the first run's share.
    #[test]
    fn a_best_first_run_keeps_pace_with_the_query() {
        assert_eq!(best_first_allowance(160_000, 10_000, 400_000), 2_560_000);
        assert_eq!(best_first_allowance(160_000, 10_000, 50_000), 400_000);
        assert_eq!(best_first_allowance(160_000, 10_000, 100), 160_000);
        assert_eq!(best_first_allowance(u64::MAX, 10_000, u64::MAX), u64::MAX);
    }

    /// The first turn only probes the goal and the plan, with an eighth of
    /// the allowance each, keeping one tempo move a position; later turns
    /// run goal, plan, material, goal, ... alone with the whole allowance,
    /// keeping what their guidance keeps, the goal's in two runs: two
    /// tempo moves with three quarters, then one with the last quarter (no
    /// plan: no plan probe, which would be the goal's run again).
    #[test]
    fn the_first_best_first_turn_only_probes() {
        use Steering::{Goal, Material, Plan};
        let runs = |turn, has_plan| {
            let runs = best_first_runs(turn, 800, has_plan, |_| false);
            runs.iter().map(|r| (r.steering, r.kept, r.allowance)).collect::<Vec<_>>()
        };
        assert_eq!(PROBE_TEMPO_MOVES, 1);
        assert_eq!(runs(0, true), [(Goal, Some(1), 100), (Plan, Some(1), 100)]);
        assert_eq!(runs(0, false), [(Goal, Some(1), 100)]);
        for has_plan in [true, false] {
            assert_eq!(runs(1, has_plan), [(Goal, Some(2), 600), (Goal, Some(1), 200)]);
            let plan_kept = if has_plan { None } else { Some(TEMPO_MOVES_KEPT) };
            assert_eq!(runs(2, has_plan), [(Plan, plan_kept, 800)]);
            assert_eq!(runs(3, has_plan), [(Material, None, 800)]);
            assert_eq!(runs(4, has_plan), [(Goal, Some(2), 600), (Goal, Some(1), 200)]);
        }
    }

    /// A guidance at its floor is left out: from the probes, and from a
    /// later turn, which runs the next guidance of the rotation instead
    /// (the goal's turn the plan's, the material's the goal's); with every
    /// guidance at its floor, a turn runs nothing.
    #[test]
    fn a_guidance_at_its_floor_passes_its_turn_to_the_next() {
        use Steering::{Goal, Material, Plan};
        let steerings = |turn, floor: &[Steering]| {
            best_first_runs(turn, 800, true, |s| floor.contains(&s)).iter().map(|r| r.steering).collect::<Vec<_>>()
        };
        assert_eq!(steerings(0, &[Goal]), [Plan]);
        assert_eq!(steerings(1, &[Goal]), [Plan]);
        assert_eq!(steerings(2, &[Goal]), [Plan]);
        assert_eq!(steerings(3, &[Goal]), [Material]);
        assert_eq!(steerings(3, &[Material]), [Goal, Goal]);
        assert_eq!(steerings(1, &[Goal, Plan]), [Material]);
        assert_eq!(steerings(2, &[Goal, Plan, Material]), []);
        assert_eq!(steerings(0, &[Goal, Plan]), []);
        let runs = best_first_runs(1, 800, true, |s| s == Goal);
        assert_eq!((runs[0].kept, runs[0].allowance), (None, 800));
    }
}
