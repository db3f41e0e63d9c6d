//! The answers of the analysis: [`Verdict`], with its evidence, and
//! [`replay`], which checks a helpmate move by move.

use core::fmt;

use movegen::{Color, Move, Position};
use static_check::{Explanation, InsufficientMaterial};

/// Why a position is unwinnable for the intended winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
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
    /// The search explored every reachable position without finding a mate.
    Exhaustive {
        /// Positions searched in the final, complete iteration.
        nodes: u64,
    },
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proof::Material(reason) => write!(f, "{reason}"),
            Proof::ForcedLine { moves, repeats: true } => {
                write!(f, "every move is forced and the line repeats after {} plies", moves.len())
            }
            Proof::ForcedLine { moves, repeats: false } => {
                write!(f, "every move is forced and the game ends without mate after {} plies", moves.len())
            }
            Proof::Static(explanation) => write!(f, "{}", explanation.summary()),
            Proof::Exhaustive { nodes } => {
                write!(f, "exhaustive search: no mate in any of the {nodes} positions reachable")
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
    /// A limit was hit before the answer was known (the full mode), or the
    /// quick mode could not prove unwinnability.
    Undetermined,
}

impl Verdict {
    /// `"winnable"`, `"unwinnable"` or `"undetermined"`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Winnable { .. } => "winnable",
            Verdict::Unwinnable(_) => "unwinnable",
            Verdict::Undetermined => "undetermined",
        }
    }

    /// Whether this is [`Verdict::Unwinnable`].
    pub fn is_unwinnable(&self) -> bool {
        matches!(self, Verdict::Unwinnable(_))
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
