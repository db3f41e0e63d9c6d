//! Helpmate search for **chess unwinnability** (M. Ambrona, *A Practical
//! Algorithm for Chess Unwinnability*, Sections 2.2 and 4, Appendix A).
//!
//! Given a position and an intended winner, decide whether some sequence of
//! legal moves ends in a checkmate by that player:
//!
//! * [`Mode::Full`] (Figure 9): forced moves, the static analysis, then
//!   iterative deepening of Find-Helpmate (Figure 5) with the Score and
//!   Going-to-corner heuristics (Figures 12-13). Sound and complete: the
//!   answer is [`Verdict::Winnable`] with a helpmate, or
//!   [`Verdict::Unwinnable`] with a proof, unless the budget runs out
//!   ([`Verdict::Undetermined`]).
//! * [`Mode::Quick`] (Figure 10): a shallow search and the static analysis
//!   for blocked pawn structures; sound, very fast, not complete.
//! * [`Mode::Shortest`]: iterative deepening without the heuristics, so the
//!   first helpmate found is a shortest one (for helpmate problems).
//!
//! **Soundness** is the design rule: `Unwinnable` is only answered with a
//! proof (material, a forced line, the static analysis, or a search that
//! hit no limit), and every shortcut of the search carries its argument in
//! the code ([`helpmate`], [`tt`], [`forced`]). Every `Winnable` answer
//! carries a helpmate that [`replay`] checks.
//!
//! The analysis follows the paper in ignoring the 50- and 75-move rules and
//! repetitions: a helpmate may be longer than those rules would let a real
//! game last. This can only turn an "unwinnable" into a "winnable", never
//! the reverse, so it keeps the answers on the safe side.
//!
//! # Example
//!
//! ```
//! use movegen::{Color, Position};
//! use search::{Analyzer, Config, Verdict, replay};
//!
//! let mut analyzer = Analyzer::new(Config::default());
//!
//! // Position 3 of the paper: White has only a bishop, but can still mate
//! // after Black underpromotes to a knight and walls in its own king.
//! let pos: Position = "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1".parse().unwrap();
//! let analysis = analyzer.analyze(&pos, Color::White);
//! let helpmate = analysis.verdict.helpmate().expect("winnable");
//! assert!(replay(&pos, Color::White, helpmate).is_ok());
//!
//! // Position 1: dead, proved without search.
//! let pos: Position = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54".parse().unwrap();
//! assert!(analyzer.analyze(&pos, Color::White).verdict.is_unwinnable());
//! assert!(analyzer.is_dead(&pos).is_dead());
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod best_first;
pub mod exhaustive;
pub mod forced;
pub mod helpmate;
pub mod score;
pub mod tt;
mod verdict;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use movegen::{Bitboard, Color, File, Move, MoveList, Position};

use exhaustive::{Exhaustive, Traversal};
use forced::ForcedLine;
use helpmate::Search;
use tt::TranspositionTable;
pub use verdict::{Cause, Ending, Proof, ReplayError, Verdict, replay};

/// Which algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// The paper's full algorithm (Figure 9): sound and complete.
    #[default]
    Full,
    /// The paper's quick algorithm (Figure 10): sound, not complete.
    Quick,
    /// Iterative deepening without heuristics: a shortest helpmate.
    Shortest,
}

/// Resource limits of one query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most positions searched in total.
    pub nodes: u64,
    /// Wall-clock time limit, if any.
    pub deadline: Option<Duration>,
    /// Size of the transposition table, in MiB.
    pub tt_mb: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { nodes: 50_000_000, deadline: None, tt_mb: 64 }
    }
}

/// Configuration of an [`Analyzer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The algorithm.
    pub mode: Mode,
    /// Resource limits.
    pub limits: Limits,
    /// Depth `D` of the quick algorithm.
    pub quick_depth: u32,
    /// Nodes allowed to the first iteration of the full algorithm (the
    /// paper's 10,000); later iterations get geometrically more.
    pub first_iteration_nodes: u64,
    /// Prune search nodes reached by an irreversible move (capture, pawn
    /// move) that the static analysis proves unwinnable, when they have at
    /// least this many plies of remaining depth (`None`: only the root is
    /// checked, as in the paper). The default, 1, decides 11 more dev-set
    /// queries than `None` and is faster overall (results are cached).
    pub static_pruning: Option<i32>,
    /// Mask applied to every position's 64-bit hash before it is used (all
    /// ones by default). Tests set it to a few bits to force thousands of
    /// distinct positions onto the same key and check that the answers do
    /// not change: table hits compare whole positions, so a key collision
    /// can never prune a branch.
    pub hash_mask: u64,
    /// Interleave narrow, deep probe iterations with the main ones (see
    /// `Analyzer::full`). Only changes which helpmates are found first. Off
    /// by default: with the best-first phase on, the dev set runs about 25%
    /// faster without them (measured on its 173 slowest queries).
    pub probes: bool,
    /// Run the best-first helpmate search of [`best_first`] between
    /// iterations. Only ever finds helpmates sooner; it may use memory of
    /// up to twice `limits.tt_mb` while it runs.
    pub best_first: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            mode: Mode::Full,
            limits: Limits::default(),
            quick_depth: 9,
            first_iteration_nodes: 10_000,
            static_pruning: Some(1),
            hash_mask: u64::MAX,
            probes: false,
            best_first: true,
        }
    }
}

/// The result of one query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The answer.
    pub verdict: Verdict,
    /// Positions searched (all iterations).
    pub nodes: u64,
}

/// Whether a position is dead: unwinnable for both colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dead {
    /// The analysis for White as the intended winner.
    pub white: Analysis,
    /// The analysis for Black (not run when White can win).
    pub black: Option<Analysis>,
}

impl Dead {
    /// Both colours are proved unable to mate.
    pub fn is_dead(&self) -> bool {
        self.white.verdict.is_unwinnable() && self.black.as_ref().is_some_and(|b| b.verdict.is_unwinnable())
    }

    /// Some colour is proved able to mate.
    pub fn is_alive(&self) -> bool {
        matches!(self.white.verdict, Verdict::Winnable { .. })
            || self.black.as_ref().is_some_and(|b| matches!(b.verdict, Verdict::Winnable { .. }))
    }
}

/// Runs analyses; keeps its transposition table between queries.
#[derive(Debug)]
pub struct Analyzer {
    config: Config,
    /// The depth-first search's table.
    tt: TranspositionTable,
    /// The visited set of the exhaustive traversal.
    visited: TranspositionTable,
    /// Raised by the caller to stop a running analysis.
    stop_flag: Option<Arc<AtomicBool>>,
}

impl Analyzer {
    /// An analyzer with the given configuration (allocates the table).
    pub fn new(config: Config) -> Analyzer {
        // The two tables share the memory allowance; the traversal's queue
        // may use as much again as one table (see `full`).
        let tt_mb = if config.mode == Mode::Quick { 1 } else { (config.limits.tt_mb / 2).max(1) };
        Analyzer {
            config,
            tt: TranspositionTable::new(tt_mb),
            visited: TranspositionTable::new(tt_mb),
            stop_flag: None,
        }
    }

    /// Shares a flag that stops any analysis of this analyzer (from another
    /// thread: a signal handler, a cancelled request) soon after it is
    /// raised: the answer is then [`Cause::Stopped`]. The analyzer does not
    /// lower it.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop_flag = Some(flag);
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Decides whether `winner` can still checkmate in `pos`.
    pub fn analyze(&mut self, pos: &Position, winner: Color) -> Analysis {
        let deadline = self.config.limits.deadline.map(|d| Instant::now() + d);
        // A position that is already over is judged as it stands, before
        // any rule: the rules reason about the moves still to come, and a
        // finished game has none (a position already mated by the winner
        // is winnable with the empty helpmate, whatever the material).
        if let Some(verdict) = terminal_verdict(pos, winner) {
            return Analysis { verdict, nodes: 0 };
        }
        if let Some(reason) = static_check::insufficient_material(pos, winner) {
            return Analysis { verdict: Verdict::Unwinnable(Proof::Material(reason)), nodes: 0 };
        }
        let mut line = Vec::new();
        let start = match forced::follow(pos, winner, &mut line) {
            ForcedLine::WinnerMates => return Analysis { verdict: Verdict::Winnable { helpmate: line }, nodes: 0 },
            ForcedLine::GameOver => {
                let proof = Proof::ForcedLine { moves: line, repeats: false };
                return Analysis { verdict: Verdict::Unwinnable(proof), nodes: 0 };
            }
            ForcedLine::Repeats => {
                let proof = Proof::ForcedLine { moves: line, repeats: true };
                return Analysis { verdict: Verdict::Unwinnable(proof), nodes: 0 };
            }
            ForcedLine::Continues(start) => start,
        };
        match self.config.mode {
            Mode::Full => self.full(&start, winner, line, deadline),
            Mode::Quick => self.quick(&start, winner, line, deadline),
            Mode::Shortest => self.shortest(&start, winner, line, deadline),
        }
    }

    /// Whether `pos` is dead (unwinnable for both colours). Black is only
    /// analysed when White cannot win.
    pub fn is_dead(&mut self, pos: &Position) -> Dead {
        let white = self.analyze(pos, Color::White);
        let black = (!matches!(white.verdict, Verdict::Winnable { .. })).then(|| self.analyze(pos, Color::Black));
        Dead { white, black }
    }

    /// Figure 9.
    fn full(&mut self, start: &Position, winner: Color, line: Vec<Move>, deadline: Option<Instant>) -> Analysis {
        let config = self.config;
        let visited = &mut self.visited;
        let mut search = Search::new(winner, &mut self.tt, config.limits.nodes, deadline);
        search.stop_flag = self.stop_flag.clone();
        search.static_pruning = config.static_pruning;
        search.hash_mask = config.hash_mask;
        // The first iteration of Figure 9 runs before the static check of
        // its step 1: most positions of real games have a helpmate within a
        // few hundred nodes, and finding it costs less than the static
        // check. The order does not matter for soundness: each answer
        // stands alone.
        search.start_fresh(config.first_iteration_nodes.max(1));
        if search.run(start, 1) {
            let helpmate = line.iter().chain(&search.path).copied().collect();
            return Analysis { verdict: Verdict::Winnable { helpmate }, nodes: search.total_nodes };
        }
        if let Some(proof) = static_proof(start, winner) {
            return Analysis { verdict: Verdict::Unwinnable(proof), nodes: search.total_nodes };
        }
        if search.stopped {
            return Analysis { verdict: Verdict::Undetermined(search.cause()), nodes: search.total_nodes };
        }
        // The main iterations use the paper's heuristics; probes and the
        // best-first phase also steer towards the possible mating squares.
        // Computed when first needed (most queries end in the first
        // iteration).
        let mut targets: Option<score::Targets> = None;
        let mut bound = config.first_iteration_nodes.max(1);
        let mut exhaustive_bound = bound.saturating_mul(2);
        // The traversal's queue may use as much memory as one table.
        let max_queue = ((config.limits.tt_mb / 2).max(1) << 20) / core::mem::size_of::<(Position, u32)>();
        let mut traversal = Exhaustive::new(max_queue);
        let winnable = |search: &Search<'_>| {
            let helpmate = line.iter().chain(&search.path).copied().collect();
            Analysis { verdict: Verdict::Winnable { helpmate }, nodes: search.total_nodes }
        };
        let unwinnable = |nodes: u64, search: &Search<'_>| Analysis {
            verdict: Verdict::Unwinnable(Proof::Exhaustive { nodes }),
            nodes: search.total_nodes,
        };
        let mut probe_depth = 1;
        let mut probe_count = 0u64;
        // The first iteration ran before the static check.
        for max_depth in 1.. {
            if max_depth > 1 {
                if search.tt.fits(bound.saturating_mul(2)) {
                    search.start_iteration(bound);
                } else {
                    search.start_fresh(bound);
                }
                if search.run(start, max_depth) {
                    return winnable(&search);
                }
            }
            if search.stopped {
                break;
            }
            let complete = !search.interrupted;
            if complete && !search.stale {
                return unwinnable(search.iteration_nodes, &search);
            }
            // Iterations that used their whole allowance get a larger one:
            // `bound` must grow for the algorithm to be complete.
            if search.iteration_nodes > bound {
                bound = bound.saturating_mul(2);
            }
            // Probes: as many nodes again in iterations of the paper's
            // constant size (its footnote 13), ever deeper, alternating
            // between the paper's heuristics and the mating-square
            // targets. Narrow and deep, they find long helpmates that the
            // broad iterations reach late.
            if config.probes && max_depth >= 2 {
                let probe_bound = config.first_iteration_nodes.max(1);
                let probes = (bound / probe_bound).max(1);
                let targets = *targets.get_or_insert_with(|| score::Targets::of(start, winner));
                for _ in 0..probes {
                    probe_depth = (probe_depth + 1).min(MAX_PROBE_DEPTH);
                    probe_count += 1;
                    search.targets = match probe_count % 3 {
                        0 => score::Targets::default(),
                        1 => targets,
                        _ => score::Targets { winner_king: true, ..targets },
                    };
                    search.start_iteration(probe_bound);
                    if search.run(start, probe_depth) {
                        return winnable(&search);
                    }
                    if search.stopped {
                        break;
                    }
                    if !search.interrupted && !search.stale {
                        return unwinnable(search.iteration_nodes, &search);
                    }
                }
                search.targets = score::Targets::default();
                if search.stopped {
                    break;
                }
                search.reset_counters(bound);
            }
            // The best-first phase, every other iteration from the fourth,
            // with half the iteration's allowance (see `best_first`).
            if config.best_first && max_depth >= 4 && max_depth % 2 == 0 {
                search.reset_counters(bound / 2);
                let max_positions = (config.limits.tt_mb.max(1) << 21) / best_first::BYTES_PER_POSITION;
                let targets = targets.get_or_insert_with(|| score::Targets::of(start, winner));
                if let best_first::BestFirst::Mate(moves) = best_first::run(&mut search, start, targets, max_positions)
                {
                    search.path = moves;
                    return winnable(&search);
                }
                if search.stopped {
                    break;
                }
                search.reset_counters(bound);
            }
            // An exhaustive traversal with a growing allowance, from the
            // third iteration on every other iteration, and at once when an
            // iteration ran to the end but leaned on earlier iterations'
            // entries (a sign the reachable set is small). It proves
            // unwinnability of a reachable set of N positions in about N
            // nodes, where depth-limited iterations revisit positions.
            if complete || (max_depth >= 3 && max_depth % 2 == 1) {
                let node_bound = if complete {
                    exhaustive_bound.max(search.iteration_nodes.saturating_mul(8))
                } else {
                    exhaustive_bound
                };
                match traversal.run(&mut search, visited, start, node_bound) {
                    Traversal::Mate { plies } => {
                        // Recover the moves: a helpmate of exactly `plies`
                        // plies exists, so a plain depth-limited search
                        // to that depth finds one.
                        search.rewards = false;
                        search.start_fresh(u64::MAX);
                        if search.run(start, plies as i32) {
                            return winnable(&search);
                        }
                        search.rewards = true;
                        if search.stopped {
                            break;
                        }
                    }
                    Traversal::Complete { nodes } => return unwinnable(nodes, &search),
                    Traversal::Interrupted if search.stopped => break,
                    Traversal::Interrupted => exhaustive_bound = exhaustive_bound.saturating_mul(2),
                }
                // The table still holds the iterations' entries.
                search.reset_counters(bound);
            }
        }
        Analysis { verdict: Verdict::Undetermined(search.cause()), nodes: search.total_nodes }
    }

    /// Iterative deepening without the heuristics.
    fn shortest(&mut self, start: &Position, winner: Color, line: Vec<Move>, deadline: Option<Instant>) -> Analysis {
        let mut search = Search::new(winner, &mut self.tt, self.config.limits.nodes, deadline);
        search.stop_flag = self.stop_flag.clone();
        search.rewards = false;
        search.hash_mask = self.config.hash_mask;
        for max_depth in 1.. {
            // A fresh table per iteration: each iteration is then a proof
            // when it ends without interruption.
            search.start_fresh(self.config.limits.nodes.min(1 << 22));
            if search.run(start, max_depth) {
                let helpmate = line.iter().chain(&search.path).copied().collect();
                return Analysis { verdict: Verdict::Winnable { helpmate }, nodes: search.total_nodes };
            }
            if search.stopped {
                break;
            }
            if !search.interrupted {
                let proof = Proof::Exhaustive { nodes: search.iteration_nodes };
                return Analysis { verdict: Verdict::Unwinnable(proof), nodes: search.total_nodes };
            }
        }
        Analysis { verdict: Verdict::Undetermined(search.cause()), nodes: search.total_nodes }
    }

    /// Figure 10.
    fn quick(&mut self, start: &Position, winner: Color, line: Vec<Move>, deadline: Option<Instant>) -> Analysis {
        let mut quick = Quick {
            winner,
            nodes: 0,
            budget: self.config.limits.nodes,
            deadline,
            stop_flag: self.stop_flag.clone(),
            stop_cause: None,
            path: Vec::new(),
        };
        match quick.dfs(start, self.config.quick_depth) {
            QuickResult::Mate => {
                let helpmate = line.iter().chain(quick.path.iter().rev()).copied().collect();
                Analysis { verdict: Verdict::Winnable { helpmate }, nodes: quick.nodes }
            }
            QuickResult::Complete => {
                Analysis { verdict: Verdict::Unwinnable(Proof::Exhaustive { nodes: quick.nodes }), nodes: quick.nodes }
            }
            QuickResult::Interrupted => {
                // A limit, or a line reached depth `D`: "not proved" unless
                // the static check proves it (the check is not a search:
                // it runs even after a limit, in bounded time).
                let undetermined = Verdict::Undetermined(quick.stop_cause.unwrap_or(Cause::NotProved));
                let verdict = if blocked_candidate(start) {
                    static_proof(start, winner).map_or(undetermined, Verdict::Unwinnable)
                } else {
                    undetermined
                };
                Analysis { verdict, nodes: quick.nodes }
            }
        }
    }
}

const MAX_PROBE_DEPTH: i32 = 200;

/// The verdict on a position where the side to move has no legal move:
/// winnable with the empty helpmate when the winner has mated, otherwise
/// unwinnable (stalemate, or the winner is the one mated). `None` while
/// the game goes on.
fn terminal_verdict(pos: &Position, winner: Color) -> Option<Verdict> {
    if pos.has_legal_moves() {
        return None;
    }
    Some(match (pos.is_check(), pos.side_to_move() == winner) {
        (true, false) => Verdict::Winnable { helpmate: Vec::new() },
        (true, true) => Verdict::Unwinnable(Proof::GameOver(Ending::WinnerMated)),
        (false, _) => Verdict::Unwinnable(Proof::GameOver(Ending::Stalemate)),
    })
}

/// The static check's proof, if it gives one.
fn static_proof(pos: &Position, winner: Color) -> Option<Proof> {
    let explanation = static_check::analyze(pos, winner);
    explanation.is_unwinnable().then(|| match explanation.material {
        Some(reason) => Proof::Material(reason),
        None => Proof::Static(Box::new(explanation)),
    })
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

enum QuickResult {
    Mate,
    Complete,
    Interrupted,
}

/// The depth-first search of Figure 10 step 2: stops at the first mate or
/// as soon as any line reaches depth `D`. Sound: it answers `Complete` only
/// when every line ended (game over, or insufficient material) within `D`.
struct Quick {
    winner: Color,
    nodes: u64,
    /// The node budget (`Limits::nodes`): reaching it interrupts the search.
    budget: u64,
    /// The deadline, checked every 1,024 nodes.
    deadline: Option<Instant>,
    /// The caller's stop flag, checked with the deadline.
    stop_flag: Option<Arc<AtomicBool>>,
    /// Which limit interrupted the search, if one did.
    stop_cause: Option<Cause>,
    path: Vec<Move>,
}

impl Quick {
    /// Depth-first search to `depth_left` plies. On a mate, `path` receives
    /// the moves in reverse order as the recursion unwinds (no allocation
    /// on the common path).
    fn dfs(&mut self, pos: &Position, depth_left: u32) -> QuickResult {
        if depth_left == 0 {
            // The leaf only needs to know whether a move exists.
            if !pos.has_legal_moves() {
                return self.game_over(pos);
            }
            if static_check::insufficient_material(pos, self.winner).is_some() {
                return QuickResult::Complete;
            }
            self.nodes += 1;
            return QuickResult::Interrupted;
        }
        let mut moves = MoveList::new();
        pos.generate_legal_moves(&mut moves);
        if moves.is_empty() {
            return self.game_over(pos);
        }
        if static_check::insufficient_material(pos, self.winner).is_some() {
            return QuickResult::Complete;
        }
        self.nodes += 1;
        if self.nodes >= self.budget {
            self.stop_cause = Some(Cause::NodeBudget);
            return QuickResult::Interrupted;
        }
        // Checked at the first node and every 1,024 after.
        if self.nodes & 1023 == 1 {
            if self.stop_flag.as_ref().is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed)) {
                self.stop_cause = Some(Cause::Stopped);
                return QuickResult::Interrupted;
            }
            if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                self.stop_cause = Some(Cause::Deadline);
                return QuickResult::Interrupted;
            }
        }
        for &m in &moves {
            match self.dfs(&pos.play(m), depth_left - 1) {
                QuickResult::Complete => {}
                QuickResult::Mate => {
                    self.path.push(m);
                    return QuickResult::Mate;
                }
                QuickResult::Interrupted => return QuickResult::Interrupted,
            }
        }
        QuickResult::Complete
    }

    fn game_over(&self, pos: &Position) -> QuickResult {
        if pos.is_check() && pos.side_to_move() != self.winner { QuickResult::Mate } else { QuickResult::Complete }
    }
}
