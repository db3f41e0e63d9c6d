//! **Art. 6.9**: "Except where one of the Articles 5.1.1, 5.1.2 or 5.2.1 -
//! 5.2.3 applies, if a player does not complete the prescribed number of
//! moves in the allotted time, the game is lost by that player. However,
//! the game is drawn if the position is such that the opponent cannot
//! checkmate the player's king by any possible series of legal moves."
//!
//! The question is asked of the *final* position, with the opponent of the
//! player who ran out of time as the intended winner, and answered by the
//! `search` crate's full algorithm (sound and complete within its limits).
//! The loss stands when the search finds a helpmate (the evidence); the
//! game is drawn when it proves that no mate exists; when a limit is hit
//! first, the result is left undecided rather than guessed.

use movegen::{Color, Move, Position};
use search::{Analyzer, Proof, Verdict};

/// The ruling on a timeout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeoutRuling {
    /// The opponent could still mate: the player who ran out of time loses.
    Loss {
        /// A sequence of legal moves from the final position ending in a
        /// checkmate by the opponent.
        helpmate: Vec<Move>,
        /// Positions searched.
        nodes: u64,
    },
    /// The opponent cannot mate by any series of legal moves: a draw.
    Draw {
        /// Why.
        proof: Proof,
        /// Positions searched.
        nodes: u64,
    },
    /// The analysis hit a limit before deciding.
    Undetermined {
        /// Positions searched.
        nodes: u64,
    },
}

/// The ruling when `flagged` ran out of time in `pos` (use a full-mode
/// analyzer: a quick one would leave most positions undetermined).
///
/// ```
/// use adjudicate::rules::timeout::{TimeoutRuling, timeout};
/// use movegen::{Color, Position};
/// use search::{Analyzer, Config};
/// let mut full = Analyzer::new(Config::default());
/// // The paper's Position 20: White lost on time, but Black cannot mate.
/// let pos: Position = "8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38".parse().unwrap();
/// assert!(matches!(timeout(&mut full, &pos, Color::White), TimeoutRuling::Draw { .. }));
/// assert!(matches!(timeout(&mut full, &pos, Color::Black), TimeoutRuling::Loss { .. }));
/// ```
pub fn timeout(analyzer: &mut Analyzer, pos: &Position, flagged: Color) -> TimeoutRuling {
    let analysis = analyzer.analyze(pos, !flagged);
    let nodes = analysis.nodes;
    match analysis.verdict {
        Verdict::Winnable { helpmate } => TimeoutRuling::Loss { helpmate, nodes },
        Verdict::Unwinnable(proof) => TimeoutRuling::Draw { proof, nodes },
        Verdict::Undetermined(_) => TimeoutRuling::Undetermined { nodes },
    }
}
