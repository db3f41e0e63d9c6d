#![doc = include_str!("../README.md")]
//!
//! Helpmate search for **chess unwinnability** (M. Ambrona, *A Practical
//! Algorithm for Chess Unwinnability*, Sections 2.2 and 4, Appendix A).
//!
//! Given a position and an intended winner, decide whether some sequence of
//! legal moves ends in a checkmate by that player:
//!
//! * [`Mode::Full`] (Figure 9): forced moves, the static analysis, then
//!   iterative deepening of Find-Helpmate (Figure 5) with the Score and
//!   Going-to-corner heuristics (Figures 12-13), interleaved with a
//!   best-first search for long marches and an exhaustive traversal. Sound
//!   and complete: the answer is [`Verdict::Winnable`] with a helpmate, or
//!   [`Verdict::Unwinnable`] with a proof, unless a limit is hit first
//!   ([`Verdict::Undetermined`], with its [`Cause`]).
//! * [`Mode::Quick`] (Figure 10): a shallow search and the static analysis
//!   for blocked pawn structures; sound, very fast, not complete.
//! * [`Mode::Shortest`]: a shortest helpmate (for helpmate problems): the
//!   static proof, then a breadth-first traversal, then iterative deepening
//!   without the heuristics.
//!
//! Each algorithm is a short driver over named phases (`engine.rs`, one
//! file per phase under `phase/`), each with its soundness argument next
//! to its code; the driver only orders them.
//!
//! **Soundness** is the design rule: `Unwinnable` is only answered with a
//! proof (the game already over, material, a forced line, the static
//! analysis, or a search that hit no limit). Every `Winnable` answer carries
//! a helpmate that [`replay`] checks. A position that is already over is
//! judged as it stands before any rule.
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

mod engine;
mod guide;
mod meter;
mod phase;
mod plan;
mod shared;
mod statics;
mod tt;
mod verdict;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::{Memory, Outcome};
use meter::Meter;
use shared::Shared;
use tt::TranspositionTable;
pub use verdict::{Cause, Ending, Proof, ReplayError, Verdict, replay};

// The types of the API that other crates define: a user of `search` needs
// no other dependency to call it or read its answers.
pub use movegen::{Color, FenError, Move, Position};
pub use static_check::{Explanation, InsufficientMaterial};

/// The longest helpmate the depth-first phases search for (plies); the
/// recursion depth is bounded by it, whatever the tables hold.
pub const MAX_HELPMATE_PLIES: usize = phase::deepening::MAX_PLY;

/// The moves an analysis of `pos` for `winner` plays first because each is
/// the only legal one (stopping where a position repeats, has no legal
/// move, or several): a proof of unwinnability that is not the forced line
/// itself is about the position they lead to.
pub fn forced_line(pos: &Position, winner: Color) -> Vec<movegen::Move> {
    let mut line = Vec::new();
    let _ = phase::forced::follow(pos, winner, &mut line);
    line
}

/// Which algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Mode {
    /// The paper's full algorithm (Figure 9): sound and complete (within
    /// the limits).
    #[default]
    Full,
    /// The paper's quick algorithm (Figure 10): sound, very fast, may
    /// answer undetermined.
    Quick,
    /// Iterative deepening without heuristics: a shortest helpmate.
    Shortest,
}

impl Mode {
    /// Every mode, in the order of the help.
    pub const ALL: [Mode; 3] = [Mode::Full, Mode::Quick, Mode::Shortest];

    /// The mode's name on the command line: `full`, `quick` or `shortest`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Quick => "quick",
            Mode::Shortest => "shortest",
        }
    }
}

/// Resource limits of one query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most positions searched in total.
    pub nodes: u64,
    /// Wall-clock time limit, if any.
    pub deadline: Option<Duration>,
    /// The analyzer's memory budget in MiB: its tables, the exhaustive
    /// traversal's queue and the best-first phase's positions together (a
    /// quarter each at most for the tables and the queue; the best-first
    /// phase, which runs alone and frees its positions when it returns,
    /// may use whatever they have not allocated). Allocated as needed: a
    /// query that needs little allocates little. An analyzer uses at most
    /// [`Config::used_memory_mb`] of it.
    pub memory_mb: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { nodes: 50_000_000, deadline: None, memory_mb: 256 }
    }
}

/// Configuration of an [`Analyzer`]. The options only change speed, never
/// the soundness of an answer.
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
    /// Ask the static analysis about search nodes reached by an
    /// irreversible move (capture, pawn move, lost castling right) with at
    /// least this many plies of remaining depth (`None`: only at the root,
    /// as in the paper). A test knob: with the `testing` feature only
    /// (otherwise always `Some(1)`, see [`Config::static_pruning`]).
    #[cfg(feature = "testing")]
    pub static_pruning: Option<i32>,
    /// Mask applied to every position's 64-bit hash before it is used (all
    /// ones by default). Tests set it to a few bits to force thousands of
    /// distinct positions onto the same key and check that the answers do
    /// not change: table hits compare whole positions, so a key collision
    /// can never prune a branch. A test knob: with the `testing` feature
    /// only (otherwise all ones, see [`Config::hash_mask`]).
    #[cfg(feature = "testing")]
    pub hash_mask: u64,
    /// Run the best-first helpmate search between iterations.
    pub best_first: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            mode: Mode::Full,
            limits: Limits::default(),
            quick_depth: 9,
            first_iteration_nodes: 10_000,
            #[cfg(feature = "testing")]
            static_pruning: Some(1),
            #[cfg(feature = "testing")]
            hash_mask: u64::MAX,
            best_first: true,
        }
    }
}

impl Config {
    /// The memory an analyzer uses: [`Limits::memory_mb`], but in the full
    /// algorithm at most the default's memory for every default node
    /// budget that its nodes begin (256 MiB up to 50 million nodes, 512 MiB
    /// up to 100 million, ...). Its schedule shares the nodes among the
    /// phases by what they achieve, and with more memory for the same
    /// nodes the exhaustive traversal runs longer before its set fills,
    /// taking the nodes of the iterations that find long helpmates
    /// (docs/tuning.md#analysis-memory). So its answers do not depend on
    /// how many threads share a budget, and a larger proof needs more
    /// nodes as well as the memory. The quick and shortest-helpmate modes,
    /// whose traversal is the whole search, use all of it.
    pub fn used_memory_mb(&self) -> usize {
        if self.mode != Mode::Full {
            return self.limits.memory_mb;
        }
        let default = Limits::default();
        let shares = self.limits.nodes.div_ceil(default.nodes).max(1);
        let cap = usize::try_from(shares).unwrap_or(usize::MAX).saturating_mul(default.memory_mb);
        self.limits.memory_mb.min(cap)
    }

    /// The static pruning's least remaining depth (the test knob of the
    /// `testing` feature; `Some(1)` without it).
    pub fn static_pruning(&self) -> Option<i32> {
        #[cfg(feature = "testing")]
        return self.static_pruning;
        #[cfg(not(feature = "testing"))]
        Some(1)
    }

    /// The mask applied to the position hashes (the test knob of the
    /// `testing` feature; all ones without it).
    pub fn hash_mask(&self) -> u64 {
        #[cfg(feature = "testing")]
        return self.hash_mask;
        #[cfg(not(feature = "testing"))]
        u64::MAX
    }
}

/// The result of one query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The answer.
    pub verdict: Verdict,
    /// Positions searched (all phases).
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

/// Runs analyses; keeps its tables between queries.
#[derive(Debug)]
pub struct Analyzer {
    config: Config,
    memory: Memory,
    /// The depth-first phases' table.
    tt: TranspositionTable,
    /// The visited set of the exhaustive traversal.
    visited: TranspositionTable,
    /// Raised by the caller to stop a running analysis.
    stop_flag: Option<Arc<AtomicBool>>,
}

impl Analyzer {
    /// An analyzer with the given configuration (tables are allocated as
    /// they are needed, up to the memory budget).
    pub fn new(config: Config) -> Analyzer {
        let memory = Memory::split(config.used_memory_mb());
        Analyzer {
            config,
            memory,
            tt: TranspositionTable::new(memory.tt_mb),
            visited: TranspositionTable::new(memory.visited_mb),
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

    /// Forgets everything the analyzer holds, as a new analyzer with the
    /// same configuration and stop flag would start: for a caller that
    /// caught a panic of an analysis (a bug), so that the next analysis
    /// starts from tables in a known state.
    pub fn reset(&mut self) {
        let stop_flag = self.stop_flag.take();
        *self = Analyzer::new(self.config);
        self.stop_flag = stop_flag;
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Decides whether `winner` can still checkmate in `pos`.
    pub fn analyze(&mut self, pos: &Position, winner: Color) -> Analysis {
        let deadline = self.config.limits.deadline.map(|d| Instant::now() + d);
        let (start, line) = match engine::opening_phases(pos, winner) {
            Ok(verdict) => return Analysis { verdict, nodes: 0 },
            Err(continuation) => continuation,
        };
        let meter = Meter::new(self.config.limits.nodes, deadline, self.stop_flag.clone());
        let mut shared = Shared::new(winner, self.config, meter, &mut self.tt, &mut self.visited);
        let outcome = match self.config.mode {
            Mode::Full => engine::full(&mut shared, &start, self.memory),
            Mode::Quick => engine::quick(&mut shared, &start, self.memory),
            Mode::Shortest => engine::shortest(&mut shared, &start, self.memory),
        };
        let verdict = match outcome {
            Outcome::Mate(moves) => {
                let helpmate: Vec<Move> = line.into_iter().chain(moves).collect();
                // Every phase's helpmate is made of legal moves and ends in
                // a mate found where it is played; debug builds check it.
                debug_assert!(replay(pos, winner, &helpmate).is_ok(), "a helpmate that does not replay: {helpmate:?}");
                Verdict::Winnable { helpmate }
            }
            Outcome::Proof(proof) => Verdict::Unwinnable(proof),
            Outcome::Unknown(cause) => Verdict::Undetermined(cause),
        };
        Analysis { verdict, nodes: shared.meter.nodes }
    }

    /// Whether `pos` is dead (unwinnable for both colours). Black is only
    /// analysed when White cannot win.
    pub fn is_dead(&mut self, pos: &Position) -> Dead {
        let white = self.analyze(pos, Color::White);
        let black = (!matches!(white.verdict, Verdict::Winnable { .. })).then(|| self.analyze(pos, Color::Black));
        Dead { white, black }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In the full algorithm an analyzer uses at most the default's 256 MiB
    /// for every 50 million nodes its budget begins, and never more than
    /// its own budget; the other modes use their whole budget.
    #[test]
    fn the_memory_used_follows_the_node_budget() {
        let used = |nodes: u64, memory_mb: usize| {
            Config { limits: Limits { nodes, deadline: None, memory_mb }, ..Config::default() }.used_memory_mb()
        };
        assert_eq!(Config::default().used_memory_mb(), 256);
        assert_eq!(used(50_000_000, 1024), 256);
        assert_eq!(used(50_000_001, 1024), 512);
        assert_eq!(used(200_000_000, 1024), 1024);
        assert_eq!(used(200_000_000, 100), 100);
        assert_eq!(used(1, 4096), 256);
        assert_eq!(used(u64::MAX, usize::MAX), 368_934_881_475 * 256, "no overflow");
        for mode in [Mode::Quick, Mode::Shortest] {
            let limits = Limits { memory_mb: 1024, ..Limits::default() };
            assert_eq!(Config { mode, limits, ..Config::default() }.used_memory_mb(), 1024, "{mode:?}");
        }
    }

    /// A reset gives back the tables of a new analyzer: a search that grew
    /// them leaves nothing behind.
    #[test]
    fn a_reset_starts_from_new_tables() {
        let fresh = Analyzer::new(Config::default());
        let (tt, visited) = (fresh.tt.capacity(), fresh.visited.capacity());
        let mut analyzer = Analyzer::new(Config::default());
        // K+R v K with the kings far apart: a helpmate found by search.
        let pos: Position = "7k/8/8/8/8/8/1R6/K7 b - - 0 1".parse().unwrap();
        assert!(analyzer.analyze(&pos, Color::White).verdict.helpmate().is_some());
        assert!(analyzer.tt.capacity() > tt, "the search grew the table");
        analyzer.reset();
        assert_eq!((analyzer.tt.capacity(), analyzer.visited.capacity()), (tt, visited));
    }
}
