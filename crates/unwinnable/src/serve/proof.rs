//! The proof of an `unwinnable` answer as squares to draw (`explain=true`):
//! when the proof is the static analysis (Figure 8 of the paper), the
//! loser's king region, the squares of it where no mate can happen (and
//! why), the intruders, and the locked pieces (those that never leave
//! their squares in any game ending in a mate by the intended winner).
//!
//! The region, the squares and the locked pieces all come from the public
//! explanation of [`static_check`] ([`static_check::Explanation`]), so the
//! drawing shows the regions the proof used.

use adjudicate::ColorProof;
use movegen::{Color, Position, Square};
use search::Proof;
use serde::Serialize;
use static_check::{Explanation, SafeSquare};

/// Why no mate can happen on a square of the king region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Safe {
    /// The square.
    pub square: String,
    /// `never-attacked`, `no-mating-net` or `too-few-guards`.
    pub why: &'static str,
}

/// The drawable part of a proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Overlay {
    /// `static`: the squares below are the proof; `material`,
    /// `forced-line`, `game-over`, `exhaustive`: the proof is in the
    /// record's reason, there is nothing to draw.
    pub kind: &'static str,
    /// The position the proof is about (after the forced moves, if any).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The forced moves played first, in SAN (empty if none).
    pub forced_line: String,
    /// The loser's king square.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loser_king: Option<String>,
    /// Every square the loser's king can ever stand on.
    pub king_region: Vec<String>,
    /// The squares of the region where no mate can happen.
    pub safe: Vec<Safe>,
    /// Winner pieces that can enter the region.
    pub intruders: Vec<String>,
    /// Pieces that never leave their squares in a game ending in the
    /// winner's mate.
    pub locked: Vec<String>,
}

fn names(squares: impl IntoIterator<Item = Square>) -> Vec<String> {
    squares.into_iter().map(|s| s.to_string()).collect()
}

/// The overlay of the static explanation `explanation`.
fn from_explanation(explanation: &Explanation, forced_line: String) -> Overlay {
    let mut overlay = Overlay {
        kind: "static",
        fen: Some(explanation.position.to_fen()),
        forced_line,
        loser_king: None,
        king_region: Vec::new(),
        safe: Vec::new(),
        intruders: Vec::new(),
        locked: Vec::new(),
    };
    if explanation.material.is_some() {
        overlay.kind = "material";
        return overlay;
    }
    if let Some(figure8) = &explanation.figure8 {
        overlay.loser_king = Some(figure8.loser_king.to_string());
        overlay.king_region = names(figure8.king_region.iter());
        overlay.intruders = names(figure8.intruders.iter());
        if let Ok(squares) = &figure8.result {
            overlay.safe = squares
                .iter()
                .map(|(square, why)| Safe {
                    square: square.to_string(),
                    why: match why {
                        SafeSquare::NeverAttacked => "never-attacked",
                        SafeSquare::NoMatingNet => "no-mating-net",
                        SafeSquare::TooFewGuards { .. } => "too-few-guards",
                    },
                })
                .collect();
        }
        overlay.locked = names(figure8.locked.iter());
    }
    overlay
}

/// The overlay of the proof that `winner` cannot mate in `pos`.
pub fn overlay(pos: &Position, winner: Color, proof: &Proof) -> Overlay {
    let proof = ColorProof::new(pos, winner, proof.clone());
    let bare = |kind| Overlay {
        kind,
        fen: None,
        forced_line: proof.forced_line.clone(),
        loser_king: None,
        king_region: Vec::new(),
        safe: Vec::new(),
        intruders: Vec::new(),
        locked: Vec::new(),
    };
    match &proof.proof {
        Proof::Static(explanation) => from_explanation(explanation, proof.forced_line.clone()),
        Proof::Material(_) => bare("material"),
        Proof::ForcedLine { .. } => bare("forced-line"),
        Proof::GameOver(_) => bare("game-over"),
        Proof::Iteration { .. } | Proof::Traversal { .. } | Proof::BestFirst { .. } | Proof::Quick { .. } => {
            bare("exhaustive")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's Position 1 for White: the black king region is the
    /// squares drawn in the `static_check` crate's documentation.
    #[test]
    fn position_one() {
        let pos: Position = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54".parse().unwrap();
        let explanation = static_check::analyze(&pos, Color::White);
        let overlay = from_explanation(&explanation, String::new());
        assert_eq!(overlay.kind, "static");
        let mut region = overlay.king_region.clone();
        region.sort();
        let mut expected: Vec<String> =
            "e6 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8".split(' ').map(String::from).collect();
        expected.sort();
        assert_eq!(region, expected);
        assert_eq!(overlay.safe.len(), 14);
        assert!(overlay.safe.iter().all(|s| s.why == "never-attacked"));
        // Every pawn stands blocked by an enemy pawn and can only leave its
        // square by a capture; the pieces that could be captured (the
        // bishops, the kings) never reach a square a pawn attacks without
        // passing through the pawns' chains: all 14 pawns are locked, the
        // bishops and kings are not.
        let mut locked = overlay.locked.clone();
        locked.sort();
        let mut pawns: Vec<String> = "a5 a6 b6 b7 c5 c6 d4 d5 f4 f5 g5 g6 h4 h5".split(' ').map(String::from).collect();
        pawns.sort();
        assert_eq!(locked, pawns);
    }
}
