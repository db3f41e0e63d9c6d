//! **Art. 5.2.2**: "The game is drawn when a position has arisen in which
//! neither player can checkmate the opponent's king with any series of
//! legal moves. The game is said to end in a 'dead position'. This
//! immediately ends the game, provided that the move producing the
//! position was in accordance with Article 3 and Articles 4.2 - 4.7."
//!
//! The game therefore ends at the *first* ply where the position is dead,
//! and every move after it is void. Deadness is also monotone along a game:
//! every continuation of a later position is a continuation of the dead
//! one, so once dead, every later position is dead too.
//!
//! The decision is the `search` crate's: a position is dead here only when
//! the analysis *proves* both colours unable to mate (soundness first; the
//! quick algorithm may fail to prove a dead position dead, never the
//! reverse).

use movegen::Position;
use search::{Analyzer, Proof, Verdict};

/// Why a position is dead: a proof for each colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadProof {
    /// Why White cannot mate.
    pub white: Proof,
    /// Why Black cannot mate.
    pub black: Proof,
    /// Positions searched for the two proofs.
    pub nodes: u64,
}

/// Whether `analyzer` proves `pos` dead; if so, the two proofs.
///
/// ```
/// use adjudicate::rules::dead::dead;
/// use movegen::Position;
/// use search::{Analyzer, Config, Mode};
/// let mut quick = Analyzer::new(Config { mode: Mode::Quick, ..Config::default() });
/// // King and bishop against king: neither side can mate.
/// let pos: Position = "8/8/4k3/8/8/2B5/8/4K3 w - - 0 1".parse().unwrap();
/// assert!(dead(&mut quick, &pos).is_some());
/// assert!(dead(&mut quick, &Position::start()).is_none());
/// ```
pub fn dead(analyzer: &mut Analyzer, pos: &Position) -> Option<DeadProof> {
    let result = analyzer.is_dead(pos);
    let nodes = result.white.nodes + result.black.as_ref().map_or(0, |b| b.nodes);
    match (result.white.verdict, result.black.map(|b| b.verdict)) {
        (Verdict::Unwinnable(white), Some(Verdict::Unwinnable(black))) => Some(DeadProof { white, black, nodes }),
        _ => None,
    }
}
