//! [`verdict_reason`]: the sentence that goes with the verdict of one
//! analysis (the `reason` of `unwinnable analyze` and of the Python
//! package's `analyze`), and [`helpmate_lines`], its helpmate as written
//! there, so that every front end says the same.

use movegen::{Color, Position};
use search::Verdict;

use crate::ColorProof;

/// The reason of a `winnable` verdict with the empty helpmate.
pub const ALREADY_MATE: &str = "the position is already checkmate, delivered by the intended winner";

/// Why `winner` can or cannot mate in `pos` by `verdict`, or `None` when a
/// helpmate says it: the proof after the moves the analysis found forced
/// ("after the forced move 1...Kxg7, the intended winner has only the
/// king"), why the analysis stopped, or [`ALREADY_MATE`].
pub fn verdict_reason(pos: &Position, winner: Color, verdict: &Verdict) -> Option<String> {
    match verdict {
        Verdict::Winnable { helpmate } if helpmate.is_empty() => Some(ALREADY_MATE.to_string()),
        Verdict::Winnable { .. } => None,
        Verdict::Unwinnable(proof) => Some(ColorProof::new(pos, winner, proof.clone()).reason()),
        Verdict::Undetermined(cause) => Some(cause.to_string()),
    }
}

/// The helpmate of a `winnable` `verdict` in `pos` as written in the
/// records of `analyze`: its moves in UCI (castling as the king taking its
/// rook in Chess960), and the line in SAN; `None` for
/// other verdicts.
pub fn helpmate_lines(pos: &Position, verdict: &Verdict) -> Option<(Vec<String>, String)> {
    match verdict {
        Verdict::Winnable { helpmate } => Some(pos.uci_and_san_lines(helpmate)),
        _ => None,
    }
}
