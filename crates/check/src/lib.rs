#![doc = include_str!("../README.md")]
//!
//! The independent checker of `unwinnable`'s certificates.
//!
//! A record of `unwinnable analyze --certificate` claims that an intended
//! winner can (`winnable`) or cannot (`unwinnable`) checkmate from a
//! position, and carries the evidence: a certificate in the versioned JSON
//! format of `docs/certificates.md`. This crate re-checks that evidence
//! with its own code on another move generator (cozy-chess), sharing
//! nothing with the solver, and says `accepted` or `rejected` with the
//! first step that failed.
//!
//! **What acceptance means.** A `winnable` claim is accepted only with a
//! sequence of legal moves that ends in a checkmate by the winner. An
//! `unwinnable` claim is accepted only when the certificate's argument
//! (one per kind, each written next to its code and in
//! `docs/certificates.md`) shows that no sequence of legal moves from the
//! position ends in a checkmate by the winner. The checker trusts
//! cozy-chess (FEN validation, legal moves, attack tables), serde_json,
//! the Rust compiler, and the paper's Lemmas 5 and 6; nothing else.
//!
//! **Untrusted input.** A certificate may be anything: every step is
//! bounded (moves by the length of the line, the static kind by the board,
//! the closure kind by [`Limits::max_positions`], the nesting by
//! serde_json's recursion limit), and nothing panics.
//!
//! ```
//! let record = r#"{"fen":"7k/5Q2/6K1/8/8/8/8/8 w - -","winner":"white","verdict":"winnable",
//!     "certificate":{"version":1,"kind":"helpmate","moves":["f7g7"]}}"#;
//! assert_eq!(check::check_record(&record.replace('\n', ""), &check::Limits::default()),
//!     check::Outcome::Accepted);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod closure;
mod kinds;
mod position;
mod report;
mod statics;

use cozy_chess::{Board, Color};
use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use position::Key;
pub use report::{MAX_RECORD, Tally, run};

/// The certificate format version this checker reads.
pub const VERSION: u64 = 1;

/// Bounds on the work one record may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most positions the closure kinds of one record may make the
    /// checker enumerate, all closures of the record together. Each costs
    /// about 200 bytes while the closure is checked.
    pub max_positions: u64,
}

impl Default for Limits {
    /// Two million positions (about 400 MB at most).
    fn default() -> Limits {
        Limits { max_positions: 2_000_000 }
    }
}

/// What the checker says about one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The certificate proves the record's verdict.
    Accepted,
    /// It does not: the first step that failed.
    Rejected(String),
    /// Nothing to check (an undetermined verdict, an error record).
    Skipped(String),
}

impl core::fmt::Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Outcome::Accepted => f.write_str("accepted"),
            Outcome::Rejected(step) => write!(f, "rejected: {step}"),
            Outcome::Skipped(why) => write!(f, "skipped: {why}"),
        }
    }
}

/// One proof of a certificate: the object with its `kind` (see
/// `docs/certificates.md`).
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum Proof {
    Helpmate { moves: Vec<String> },
    Over,
    Material { rule: String, pieces: String },
    Forced { moves: Vec<String>, then: Box<Proof> },
    Repeats,
    Static(statics::StaticProof),
    Closure(closure::ClosureProof),
    None { why: String },
}

/// What a record claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    Winnable,
    Unwinnable,
}

/// The work left to a record ([`Limits`]).
struct Budget {
    positions: u64,
}

/// The fields of a record the checker reads (any others are skipped
/// unread): borrowed from the line, the certificate as its text.
#[derive(Deserialize)]
struct Record<'a> {
    line: Option<u64>,
    #[serde(borrow)]
    fen: Option<Cow<'a, str>>,
    #[serde(borrow)]
    winner: Option<Cow<'a, str>>,
    #[serde(borrow)]
    verdict: Option<Cow<'a, str>>,
    error: Option<IgnoredAny>,
    #[serde(borrow)]
    certificate: Option<&'a RawValue>,
}

/// A certificate's version, read before its proof.
#[derive(Deserialize)]
struct Versioned {
    version: Option<u64>,
}

/// Checks one record (a line of `unwinnable analyze --format jsonl
/// --certificate`): its `fen`, `winner` and `verdict` against its
/// `certificate`.
pub fn check_record(line: &str, limits: &Limits) -> Outcome {
    check_labelled(line, limits).1
}

/// [`check_record`], with the record's label `line N winner` from its own
/// fields when it has them.
fn check_labelled(line: &str, limits: &Limits) -> (Option<String>, Outcome) {
    let record = match serde_json::from_str::<Record<'_>>(line) {
        Ok(record) => record,
        Err(e) if e.is_data() && line.trim_start().starts_with('{') => {
            return (None, Outcome::Rejected(format!("the record is malformed: {e}")));
        }
        Err(_) => return (None, Outcome::Rejected("the line is not a JSON object".into())),
    };
    let label = record.line.zip(record.winner.as_deref()).map(|(number, winner)| {
        let winner: String = winner.chars().filter(char::is_ascii_alphabetic).take(5).collect();
        format!("line {number} {winner}")
    });
    (label, check_fields(record, limits))
}

/// The outcome of a parsed record.
fn check_fields(record: Record<'_>, limits: &Limits) -> Outcome {
    if record.error.is_some() {
        return Outcome::Skipped("an error record".into());
    }
    if record.verdict.is_none() && record.certificate.is_none() {
        // Nothing claimed: `adjudicate`'s records of games no timeout ended.
        return Outcome::Skipped("no verdict to check".into());
    }
    let claim = match record.verdict.as_deref() {
        Some("winnable") => Claim::Winnable,
        Some("unwinnable") => Claim::Unwinnable,
        Some("undetermined") => return Outcome::Skipped("an undetermined verdict".into()),
        _ => return Outcome::Rejected("the record has no verdict".into()),
    };
    let (Some(fen), Some(winner)) = (record.fen, record.winner) else {
        return Outcome::Rejected("the record has no fen or no winner".into());
    };
    let Some(certificate) = record.certificate else {
        return Outcome::Rejected("the record has no certificate".into());
    };
    match check_claim(&fen, &winner, claim, certificate.get(), limits) {
        Ok(()) => Outcome::Accepted,
        Err(step) => Outcome::Rejected(step),
    }
}

/// Checks that `certificate` (its JSON text) proves `claim` for `winner` in
/// `fen`.
fn check_claim(fen: &str, winner: &str, claim: Claim, certificate: &str, limits: &Limits) -> Result<(), String> {
    let winner = match winner {
        "white" => Color::White,
        "black" => Color::Black,
        other => return Err(format!("{other:?} is not a colour")),
    };
    let board = position::parse_fen(fen)?;
    let versioned: Versioned =
        serde_json::from_str(certificate).map_err(|_| String::from("the certificate is not a JSON object"))?;
    match versioned.version {
        Some(VERSION) => {}
        Some(other) => return Err(format!("certificate version {other}: this checker reads version {VERSION}")),
        None => return Err("the certificate has no version".into()),
    }
    let proof: Proof = serde_json::from_str(certificate).map_err(|e| format!("the certificate is malformed: {e}"))?;
    let mut budget = Budget { positions: limits.max_positions };
    check_proof(&board, winner, claim, &proof, &mut budget, &[])
}

/// Checks `proof` of `claim` for `winner` in `board`; `history` holds the
/// positions of the forced line that led here (for [`Proof::Repeats`]).
fn check_proof(
    board: &Board,
    winner: Color,
    claim: Claim,
    proof: &Proof,
    budget: &mut Budget,
    history: &[Key],
) -> Result<(), String> {
    match (claim, proof) {
        (_, Proof::None { why }) => Err(format!("not certified: {why}")),
        (Claim::Winnable, Proof::Helpmate { moves }) => kinds::helpmate(board, winner, moves),
        (Claim::Winnable, _) => Err("a winnable verdict needs a helpmate".into()),
        (Claim::Unwinnable, Proof::Helpmate { .. }) => Err("a helpmate does not prove unwinnability".into()),
        (Claim::Unwinnable, proof) => check_unwinnable(board, winner, proof, budget, history),
    }
}

/// Checks a proof that `winner` cannot mate in `board`.
fn check_unwinnable(
    board: &Board,
    winner: Color,
    proof: &Proof,
    budget: &mut Budget,
    history: &[Key],
) -> Result<(), String> {
    // Every unwinnable kind reasons about the moves still to come: a mate
    // already on the board refutes the claim at once.
    if position::mated_by(board, winner) {
        return Err("the position is already checkmate by the winner".into());
    }
    match proof {
        Proof::Over => kinds::over(board),
        Proof::Material { rule, pieces } => kinds::material(board, winner, rule, pieces),
        Proof::Forced { moves, then } => {
            let (end, line) = kinds::forced(board, moves)?;
            let history: Vec<Key> = history.iter().copied().chain(line).collect();
            check_proof(&end, winner, Claim::Unwinnable, then, budget, &history)
        }
        Proof::Repeats => kinds::repeats(board, history),
        Proof::Static(proof) => statics::check(board, winner, proof),
        Proof::Closure(proof) => closure::check(board, winner, proof, budget),
        Proof::Helpmate { .. } | Proof::None { .. } => Err("not a proof of unwinnability".into()),
    }
}
