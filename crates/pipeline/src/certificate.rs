//! `--certificate`: the evidence of a verdict in the versioned JSON format
//! of `docs/certificates.md`, for the independent checker (`crates/check`,
//! `unwinnable check`).
//!
//! The kinds built here: `helpmate` (a winnable verdict), `over`,
//! `material` and `forced` (with `repeats`), `static` (the witness of
//! `static_check::static_witness`) and `closure` (the exhaustive search's
//! proofs, and static proofs the certified rules cannot redo:
//! `closure.rs`), each after the forced moves the analysis played
//! first. A proof with no certificate (a closure too large for the
//! checker's budget) gets the kind `none` with the reason, which the
//! checker rejects: it is not evidence.

use movegen::{Bitboard, Color, Move, Position, Square};
use search::{Ending, Proof, Verdict};
use serde_json::{Map, Value, json};
use static_check::{InsufficientMaterial, StaticWitness, static_witness};

use crate::closure::{MAX_POSITIONS, closure};

/// The certificate format version written.
pub const VERSION: u64 = 1;

/// The certificate of `verdict` for `winner` in `position`; `None` for an
/// undetermined verdict (nothing is claimed).
pub fn certificate(position: &Position, winner: Color, verdict: &Verdict) -> Option<Value> {
    let proof = match verdict {
        Verdict::Winnable { helpmate } => json!({"kind": "helpmate", "moves": uci(position, helpmate)}),
        Verdict::Unwinnable(proof) => of_proof(position, winner, proof),
        Verdict::Undetermined(_) => return None,
    };
    Some(versioned(proof))
}

/// The certificate of an unwinnability `proof` for `winner` in `position`
/// (after the forced moves, for the proofs that come after them).
pub fn unwinnable_certificate(position: &Position, winner: Color, proof: &Proof) -> Value {
    versioned(of_proof(position, winner, proof))
}

/// The proof a `closure` certificate's cut at `position` can carry (see
/// `docs/certificates.md`): a material rule, or else the static witness,
/// if either applies. For the search engine's closures, whose cuts are the
/// positions it proved statically.
pub fn cut_proof(position: &Position, winner: Color) -> Option<Value> {
    if position.is_checkmate() && position.side_to_move() != winner {
        return None;
    }
    if let Some(rule) = static_check::insufficient_material(position, winner) {
        return Some(material(position, winner, rule));
    }
    static_witness(position, winner).ok().map(|witness| static_proof(&witness))
}

fn versioned(proof: Value) -> Value {
    let mut object = Map::new();
    object.insert("version".into(), VERSION.into());
    if let Value::Object(fields) = proof {
        object.extend(fields);
    }
    Value::Object(object)
}

/// The moves of a line played from `position`, in UCI (castling as the
/// king's move in standard chess, as the king taking its rook in Chess960).
fn uci(position: &Position, moves: &[Move]) -> Vec<String> {
    position.uci_line(moves)
}

/// A square set as 16 hexadecimal digits (bit `i` for square `i`, a1 = 0).
fn hex(set: Bitboard) -> String {
    format!("{:016x}", set.0)
}

/// A square set as names (`"e4 e5"`).
fn names(set: Bitboard) -> String {
    set.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

/// The proof object (without the version).
fn of_proof(position: &Position, winner: Color, proof: &Proof) -> Value {
    match proof {
        Proof::GameOver(Ending::Stalemate | Ending::WinnerMated) => json!({"kind": "over"}),
        Proof::ForcedLine { moves, repeats } => {
            let end = if *repeats { "repeats" } else { "over" };
            json!({"kind": "forced", "moves": uci(position, moves), "then": {"kind": end}})
        }
        // The other proofs are about the position after the forced moves.
        proof => {
            let forced = search::forced_line(position, winner);
            let end = forced.iter().fold(*position, |pos, &m| pos.play(m));
            let then = match proof {
                // The rule that holds may change along the forced line
                // (a capture leaves Lemma 6's bishops a lone king); one
                // holds at its end, as material only decreases.
                Proof::Material(_) => match static_check::insufficient_material(&end, winner) {
                    Some(rule) => material(&end, winner, rule),
                    None => none("the material rule does not hold after the forced moves"),
                },
                // A static proof the certified rules cannot redo falls back
                // to a closure.
                Proof::Static(_) => match static_witness(&end, winner) {
                    Ok(witness) => static_proof(&witness),
                    Err(why) => closure(&end, winner, MAX_POSITIONS)
                        .unwrap_or_else(|no_closure| none(&format!("{why}; no closure: {no_closure}"))),
                },
                // The exhaustive search's proofs (an iteration, the
                // traversal, the quick search): redone as a closure.
                _ => closure(&end, winner, MAX_POSITIONS).unwrap_or_else(|why| none(&format!("no closure: {why}"))),
            };
            if forced.is_empty() {
                then
            } else {
                json!({"kind": "forced", "moves": uci(position, &forced), "then": then})
            }
        }
    }
}

fn none(why: &str) -> Value {
    json!({"kind": "none", "why": why})
}

fn material(position: &Position, winner: Color, rule: InsufficientMaterial) -> Value {
    let rule = match rule {
        InsufficientMaterial::LoneKing => "lone-king",
        InsufficientMaterial::LoneKnight => "lemma-5",
        InsufficientMaterial::SameColoredBishops => "lemma-6",
    };
    let board = position.board();
    json!({"kind": "material", "rule": rule, "pieces": names(board.by_color(winner) - board.kings())})
}

fn static_proof(witness: &StaticWitness) -> Value {
    let mut object = Map::new();
    object.insert("kind".into(), "static".into());
    invariant(&mut object, &witness.regions, witness.never_captured, witness.frozen);
    let escapes: Map<String, Value> = witness.escapes.iter().map(|(s, x)| (s.to_string(), names(*x).into())).collect();
    if !escapes.is_empty() {
        object.insert("escapes".into(), escapes.into());
    }
    if witness.last_move.any() {
        object.insert("last_move".into(), names(witness.last_move).into());
    }
    if !witness.immobile.is_empty() {
        let proofs = witness.immobile.iter().map(|proof| {
            let mut sub = Map::new();
            sub.insert("piece".into(), proof.piece.to_string().into());
            invariant(&mut sub, &proof.regions, proof.never_captured, proof.frozen);
            Value::Object(sub)
        });
        object.insert("immobile".into(), proofs.collect::<Vec<_>>().into());
    }
    Value::Object(object)
}

/// The fields of a static proof's invariant: regions, the pieces never
/// captured, the frozen ones.
fn invariant(
    object: &mut Map<String, Value>,
    regions: &[(Square, Bitboard)],
    never_captured: Bitboard,
    frozen: Bitboard,
) {
    let regions: Map<String, Value> = regions.iter().map(|(s, r)| (s.to_string(), hex(*r).into())).collect();
    object.insert("regions".into(), regions.into());
    if never_captured.any() {
        object.insert("never_captured".into(), names(never_captured).into());
    }
    if frozen.any() {
        object.insert("frozen".into(), names(frozen).into());
    }
}
