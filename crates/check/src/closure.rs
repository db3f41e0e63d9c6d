//! The `closure` kind: every position reachable from the analysed one is
//! enumerated, except beyond *cut* positions, each of which carries its
//! own proof; none of the enumerated positions may be a mate by the
//! winner.
//!
//! **Argument.** Take any sequence of legal moves from the position. If it
//! never reaches a cut, every position of it is among those enumerated
//! (the enumeration follows every legal move from every position that is
//! not a cut), and none of them is a mate by the winner. If it reaches a
//! cut `c`, the part of it from the first visit of `c` on is a sequence
//! from `c`, which `c`'s own proof shows ends in no mate by the winner;
//! the part before `c` consists of enumerated positions, none a mate by the
//! winner. Positions are told apart by their [`Key`] (placement, side to
//! move, castling rights, a legal en passant capture), which determines
//! the legal moves, so one visit of each is enough.
//!
//! **Bounded.** At most `bound` positions are enumerated, and `bound` may
//! not exceed what is left of the record's budget ([`crate::Limits`]);
//! more positions than the bound reject the certificate.

use std::collections::{HashMap, HashSet};

use cozy_chess::{Board, Color};
use serde::Deserialize;

use crate::position::{Key, KeyHashes, key, legal_moves, mated_by, parse_fen, play};
use crate::{Budget, Claim, Proof, check_proof};

/// A `closure` proof.
#[derive(Debug, Deserialize)]
pub struct ClosureProof {
    /// The most positions the checker meets (the analysed position and the
    /// cuts included).
    bound: u64,
    /// The cut positions, each with its proof.
    cuts: Vec<Cut>,
}

/// A position where the enumeration stops, with its own proof.
#[derive(Debug, Deserialize)]
struct Cut {
    fen: String,
    proof: Proof,
}

/// Checks a `closure` proof (see the module docs).
pub fn check(board: &Board, winner: Color, proof: &ClosureProof, budget: &mut Budget) -> Result<(), String> {
    if proof.bound > budget.positions {
        return Err(format!(
            "closure: the bound {} exceeds the {} positions left to check",
            proof.bound, budget.positions
        ));
    }
    budget.positions -= proof.bound;
    let mut cuts: HashMap<Key, (Board, &Proof), KeyHashes> = HashMap::default();
    for (index, cut) in proof.cuts.iter().enumerate() {
        let cut_board = parse_fen(&cut.fen).map_err(|e| format!("closure: cut {}: {e}", index + 1))?;
        let cut_key = key(&cut_board).ok_or("closure: a cut has more than 32 pieces")?;
        cuts.insert(cut_key, (cut_board, &cut.proof));
    }
    let start = key(board).ok_or("closure: more than 32 pieces")?;
    let mut seen: HashSet<Key, KeyHashes> = HashSet::default();
    seen.insert(start);
    let mut queue = vec![(board.clone(), start)];
    let mut reached: Vec<Key> = Vec::new();
    while let Some((current, current_key)) = queue.pop() {
        if cuts.contains_key(&current_key) {
            reached.push(current_key);
            continue;
        }
        if mated_by(&current, winner) {
            return Err(format!("closure: {current} is reached, a mate by the winner"));
        }
        for mv in legal_moves(&current) {
            let next = play(&current, mv);
            let next_key = key(&next).ok_or("closure: more than 32 pieces")?;
            if seen.insert(next_key) {
                if seen.len() as u64 > proof.bound {
                    return Err(format!("closure: more than the bound of {} positions are reachable", proof.bound));
                }
                queue.push((next, next_key));
            }
        }
    }
    // The cuts reached, each proved in its own right (without the forced
    // line of the caller: a cut's proof starts afresh).
    for cut_key in reached {
        let (cut_board, cut_proof) = &cuts[&cut_key];
        check_proof(cut_board, winner, Claim::Unwinnable, cut_proof, budget, &[])
            .map_err(|e| format!("closure: the cut {cut_board}: {e}"))?;
    }
    Ok(())
}
