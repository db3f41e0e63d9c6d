//! The `closure` certificate of an exhaustive proof (a complete depth-first
//! iteration, the exhaustive traversal, a quick search whose every line
//! ended): the search's proof is redone as a breadth-first enumeration of
//! every position reachable from the position, cut where a certifiable
//! proof holds ([`crate::certificate::cut_proof`]: a material rule or the
//! static witness), and written as the number of positions met (the
//! `bound` the checker may enumerate) with the cuts and their proofs.
//!
//! **Why a second enumeration.** The search's own proofs lean on rules the
//! independent checker does not verify (the light static check's group
//! attacks, a lossy table probed before the moves): only what is redone
//! here with certifiable cuts can be handed to the checker. It runs only
//! with `--certificate`, so an analysis without the flag costs what it
//! did. When the enumeration meets more than the checker's budget of
//! positions, or a mate by the winner (which the search's proof excludes:
//! it would be a bug), there is no closure and the certificate says so
//! (`none`).
//!
//! The enumeration counts every distinct position it meets, the analysed
//! position and the cuts included, as the checker does; two positions the
//! checker takes as one (an en passant square no capture can use) count
//! twice here, so the bound is never too small.

use std::collections::{HashSet, VecDeque};

use movegen::{Color, MoveList, PackedPosition, Position};
use serde_json::{Value, json};

use crate::certificate::cut_proof;

/// The most positions a closure may make the checker enumerate: the
/// checker's default budget for a record (`check::Limits`), about 400 MB
/// there; here the enumeration holds as many packed positions (about
/// 100 MB at most).
pub const MAX_POSITIONS: usize = 2_000_000;

/// The closure certificate (the proof object, without the version) of the
/// unwinnability of `position` for `winner`, met within `max_positions`
/// positions; `Err` with why there is none.
pub fn closure(position: &Position, winner: Color, max_positions: usize) -> Result<Value, String> {
    let mut seen: HashSet<PackedPosition> = HashSet::new();
    let mut queue: VecDeque<Position> = VecDeque::new();
    let mut cuts = Vec::new();
    seen.insert(position.pack());
    queue.push_back(*position);
    let mut moves = MoveList::new();
    while let Some(pos) = queue.pop_front() {
        pos.generate_legal_moves(&mut moves);
        for &m in &moves {
            let child = pos.play(m);
            if !seen.insert(child.pack()) {
                continue;
            }
            if seen.len() > max_positions {
                return Err(format!("more than {max_positions} positions are reachable"));
            }
            if !child.has_legal_moves() {
                if child.is_check() && child.side_to_move() != winner {
                    return Err(format!("a mate by the winner is reachable: {}", child.to_fen()));
                }
                // Stalemate or the winner mated: a leaf the checker sees too.
                continue;
            }
            // A cut where the structure the static rules read may have
            // changed (the search asks them there too); the material
            // rules only change there.
            if pos.is_irreversible(m) {
                if let Some(proof) = cut_proof(&child, winner) {
                    cuts.push(json!({"fen": child.to_fen(), "proof": proof}));
                    continue;
                }
            }
            queue.push_back(child);
        }
    }
    Ok(json!({"kind": "closure", "bound": seen.len(), "cuts": cuts}))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A king and pawn ending where neither side can break through (real
    /// timeout, about a thousand positions): a closure with the bound of
    /// the positions met; with a smaller cap, none.
    #[test]
    fn a_locked_ending_has_a_closure() {
        let pos: Position = "8/8/1p1p4/pP1Pp1kp/P3P2P/6K1/8/8 b - - 0 46".parse().unwrap();
        let certificate = closure(&pos, Color::White, MAX_POSITIONS).unwrap();
        let bound = certificate["bound"].as_u64().unwrap();
        assert!(bound > 100 && bound < 100_000, "{bound}");
        assert!(closure(&pos, Color::White, bound as usize - 1).is_err());
    }

    /// A winnable position has no closure: the enumeration meets the mate.
    #[test]
    fn a_winnable_position_has_none() {
        let pos: Position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1".parse().unwrap();
        assert!(closure(&pos, Color::White, 100_000).unwrap_err().contains("mate"));
    }
}
