//! The answers of the analysis: [`Verdict`], with its evidence, and
//! [`replay`], which checks a helpmate move by move.

use core::fmt;

use movegen::{Color, Move, Position};
use static_check::{Explanation, InsufficientMaterial};

/// Why a position is unwinnable for the intended winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The game is already over without a mate by the winner.
    GameOver(Ending),
    /// Not enough material (lone king, Lemma 5 or Lemma 6).
    Material(InsufficientMaterial),
    /// Every legal continuation is forced and ends without a mate by the
    /// winner (stalemate, the winner mated, or an endless repetition).
    ForcedLine {
        /// The forced moves (from the analysed position).
        moves: Vec<Move>,
        /// Whether the line repeats forever (otherwise the game ends).
        repeats: bool,
    },
    /// The static analysis (Figure 8) after the forced moves, if any.
    Static(Box<Explanation>),
    /// A depth-first iteration of the full or shortest-helpmate algorithm
    /// (Figure 5) searched every line to its end, with nothing cut and no
    /// entry of an earlier iteration relied on: no mate is reachable
    /// (`phase::deepening`).
    Iteration {
        /// The iteration's depth limit (plies, before the scores'
        /// extensions).
        depth: i32,
        /// Positions the iteration entered.
        nodes: u64,
    },
    /// The exhaustive breadth-first traversal expanded every position
    /// reachable from the position (the static check cutting those it
    /// proves unwinnable) and found no mate (`phase::exhaustive`).
    Traversal {
        /// Positions expanded.
        positions: u64,
    },
    /// A best-first run stored every position reachable from the position
    /// (less the dead ends: the winner mated, or the winner's material
    /// unable to mate), expanded each with every legal move, and met no
    /// mate by the winner (`phase::best_first`).
    BestFirst {
        /// Positions stored.
        positions: u64,
        /// Positions generated.
        nodes: u64,
    },
    /// The quick algorithm's search (Figure 10, step 2) saw every line end
    /// within its depth without a mate by the winner (`phase::quick`).
    Quick {
        /// The depth `D` every line ended within.
        depth: u32,
        /// Positions searched.
        nodes: u64,
    },
}

/// How a game that is already over ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The intended winner is the one checkmated.
    WinnerMated,
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proof::GameOver(Ending::Stalemate) => f.write_str("the position is already stalemate"),
            Proof::GameOver(Ending::WinnerMated) => {
                f.write_str("the position is already checkmate, delivered against the intended winner")
            }
            Proof::Material(reason) => write!(f, "{reason}"),
            Proof::ForcedLine { moves, repeats: true } => {
                write!(f, "every move is forced and the line repeats after {} plies", moves.len())
            }
            Proof::ForcedLine { moves, repeats: false } => {
                write!(f, "every move is forced and the game ends without mate after {} plies", moves.len())
            }
            Proof::Static(explanation) => write!(f, "{}", explanation.summary()),
            Proof::Iteration { depth, nodes } => write!(
                f,
                "exhaustive search: a depth-first search to depth {depth} reached the end of every line, \
                 {nodes} positions, without a mate"
            ),
            Proof::Traversal { positions } => {
                write!(f, "exhaustive search: no mate in any of the {positions} positions reachable")
            }
            Proof::BestFirst { positions, .. } => {
                write!(f, "exhaustive search: no mate in any of the {positions} positions reachable (best-first)")
            }
            Proof::Quick { depth, nodes } => {
                write!(f, "exhaustive search: every line ends within {depth} plies without a mate ({nodes} positions)")
            }
        }
    }
}

/// The answer for one position and intended winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The winner can still mate: here is a helpmate (from the analysed
    /// position, ending in checkmate by the winner).
    Winnable {
        /// The moves, in order.
        helpmate: Vec<Move>,
    },
    /// No sequence of legal moves ends in a checkmate by the winner.
    Unwinnable(Proof),
    /// No answer: a limit was hit first, or (quick mode) the quick
    /// algorithm could not prove unwinnability. Never a guess either way.
    Undetermined(Cause),
}

/// Why a [`Verdict::Undetermined`] has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cause {
    /// The node budget ([`Limits::nodes`](crate::Limits::nodes)) was spent.
    NodeBudget,
    /// The wall-clock deadline ([`Limits::deadline`](crate::Limits::deadline)) passed.
    Deadline,
    /// The memory budget ([`Limits::memory_mb`](crate::Limits::memory_mb)) could
    /// not hold the positions an exhaustive proof must remember.
    Memory,
    /// The caller raised the analyzer's stop flag
    /// ([`Analyzer::set_stop_flag`](crate::Analyzer::set_stop_flag)).
    Stopped,
    /// Quick mode: no helpmate within its depth and no proof; no limit was
    /// hit. The full mode decides such positions.
    NotProved,
    /// A mate was found, but its moves are longer than the depth-first
    /// searches may go ([`MAX_HELPMATE_PLIES`](crate::MAX_HELPMATE_PLIES)),
    /// so no helpmate can be given: the position is winnable, but an answer
    /// without the moves is no answer.
    HelpmateTooLong,
}

impl Cause {
    /// A stable machine-readable name: `node-budget`, `deadline`,
    /// `memory`, `stopped`, `not-proved` or `helpmate-too-long`.
    pub fn name(self) -> &'static str {
        match self {
            Cause::NodeBudget => "node-budget",
            Cause::Deadline => "deadline",
            Cause::Memory => "memory",
            Cause::Stopped => "stopped",
            Cause::NotProved => "not-proved",
            Cause::HelpmateTooLong => "helpmate-too-long",
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cause::NodeBudget => "the node budget was spent before an answer was found",
            Cause::Deadline => "the deadline passed before an answer was found",
            Cause::Memory => "the memory budget could not hold the search",
            Cause::Stopped => "the analysis was stopped",
            Cause::NotProved => "the quick algorithm found no helpmate and no proof (the full mode decides)",
            Cause::HelpmateTooLong => "a mate is reachable, but its moves are longer than a helpmate may be",
        })
    }
}

impl Verdict {
    /// `"winnable"`, `"unwinnable"` or `"undetermined"`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Winnable { .. } => "winnable",
            Verdict::Unwinnable(_) => "unwinnable",
            Verdict::Undetermined(_) => "undetermined",
        }
    }

    /// Whether this is [`Verdict::Unwinnable`].
    pub fn is_unwinnable(&self) -> bool {
        matches!(self, Verdict::Unwinnable(_))
    }

    /// The cause, if undetermined.
    pub fn cause(&self) -> Option<Cause> {
        match self {
            Verdict::Undetermined(cause) => Some(*cause),
            _ => None,
        }
    }

    /// The helpmate, if winnable.
    pub fn helpmate(&self) -> Option<&[Move]> {
        match self {
            Verdict::Winnable { helpmate } => Some(helpmate),
            _ => None,
        }
    }
}

/// Why a claimed helpmate is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError {
    /// Move `index` is not legal where it is played.
    IllegalMove {
        /// Its index in the sequence.
        index: usize,
        /// The move.
        m: Move,
    },
    /// After the last move, the side to move is not checkmated, or the
    /// checkmated side is the intended winner.
    NotMateByWinner,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::IllegalMove { index, m } => write!(f, "move {} ({m}) is illegal", index + 1),
            ReplayError::NotMateByWinner => f.write_str("the sequence does not end in a checkmate by the winner"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Plays `helpmate` from `start`, checking every move's legality, and that
/// the final position is a checkmate delivered by `winner`. Returns the
/// final position.
pub fn replay(start: &Position, winner: Color, helpmate: &[Move]) -> Result<Position, ReplayError> {
    let mut pos = *start;
    for (index, &m) in helpmate.iter().enumerate() {
        pos = pos.try_play(m).ok_or(ReplayError::IllegalMove { index, m })?;
    }
    if pos.is_checkmate() && pos.side_to_move() == !winner { Ok(pos) } else { Err(ReplayError::NotMateByWinner) }
}
