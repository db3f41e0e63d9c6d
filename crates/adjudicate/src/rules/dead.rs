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

use movegen::{Color, Position};
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
/// use movegen::{Color, Position};
/// use search::{Analyzer, Config, Mode};
/// let mut quick = Analyzer::new(Config { mode: Mode::Quick, ..Config::default() });
/// // King and bishop against king: neither side can mate.
/// let pos: Position = "8/8/4k3/8/8/2B5/8/4K3 w - - 0 1".parse().unwrap();
/// assert!(dead(&mut quick, &pos).is_some());
/// assert!(dead(&mut quick, &Position::start()).is_none());
/// ```
pub fn dead(analyzer: &mut Analyzer, pos: &Position) -> Option<DeadProof> {
    // Black is analysed only when White is proved unable to mate: the
    // position is dead only if both are, so an undetermined White answer
    // already settles "not proved dead" (the analyses are independent of
    // each other, so the proofs and nodes of a dead position are those of
    // both analyses, as before).
    let white = analyzer.analyze(pos, Color::White);
    let Verdict::Unwinnable(white_proof) = white.verdict else { return None };
    let black = analyzer.analyze(pos, Color::Black);
    match black.verdict {
        Verdict::Unwinnable(black_proof) => {
            Some(DeadProof { white: white_proof, black: black_proof, nodes: white.nodes + black.nodes })
        }
        _ => None,
    }
}
