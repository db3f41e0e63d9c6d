//! The records of `unwinnable adjudicate`: one [`GameRecord`] per game, one
//! [`GameError`] per malformed game or unreadable input, in every output
//! [`Format`](crate::output::Format) ([`Render`]).

use std::borrow::Cow;
use std::fmt::Write as _;

use adjudicate::{Adjudication, Evidence, Game, Record, Rule};
use serde::Serialize;

use crate::output::Render;

/// The CSV columns of `adjudicate` (an error fills `input`, `game`,
/// `offset`, `status` with `error` and `explanation` with the error).
pub const GAME_COLUMNS: &[&str] = &[
    "input",
    "game",
    "offset",
    "id",
    "recorded",
    "correct",
    "status",
    "rule",
    "article",
    "ply",
    "void_moves",
    "threefold_claimable",
    "fifty_moves_claimable",
    "fen",
    "explanation",
    "unreachable",
];

/// The record of one game: its input, then the fields of
/// [`adjudicate::Record`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// The input (file name, `-` for standard input).
    pub input: String,
    /// The rest of the record.
    #[serde(flatten)]
    pub record: Record,
    /// With `--certificate`, for a timeout: the player whose chances were
    /// analysed (the one who did not run out of time), and
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// whether that player could still mate in the final position (`fen`),
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<&'static str>,
    /// with the certificate of that verdict (docs/certificates.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<serde_json::Value>,
}

impl GameRecord {
    /// The record of `adjudication` of `game`.
    pub fn new(input: &str, number: u64, offset: u64, game: &Game, adjudication: &Adjudication) -> GameRecord {
        GameRecord {
            input: input.to_string(),
            record: Record::new(number, offset, game, adjudication),
            winner: None,
            verdict: None,
            certificate: None,
        }
    }

    /// Adds the certificate of a timeout's analysis: a helpmate from the
    /// final position (the timeout loss stands), or the proof that the
    /// opponent cannot mate there (a draw). Other rulings, and a timeout
    /// whose analysis hit its limit, get none.
    pub fn certify(&mut self, adjudication: &Adjudication) {
        if adjudication.rule != Rule::Timeout {
            return;
        }
        let Ok(position) = movegen::Position::from_fen(adjudication.fen()) else { return };
        let (winner, verdict, certificate) = match &adjudication.explanation.evidence {
            Evidence::Helpmate { moves, .. } => {
                let end = moves.iter().fold(position, |p, &m| p.play(m));
                let verdict = search::Verdict::Winnable { helpmate: moves.clone() };
                (
                    !end.side_to_move(),
                    "winnable",
                    crate::certificate::certificate(&position, !end.side_to_move(), &verdict),
                )
            }
            Evidence::Unwinnable { proofs, .. } => {
                let Some(proof) = proofs.first() else { return };
                let certificate = crate::certificate::unwinnable_certificate(&position, proof.color, &proof.proof);
                (proof.color, "unwinnable", Some(certificate))
            }
            _ => return,
        };
        self.winner = Some(winner.name());
        self.verdict = Some(verdict);
        self.certificate = certificate;
    }
}

impl Render for GameRecord {
    fn text(&self) -> String {
        let record = &self.record;
        let mut text = format!(
            "{}#{} {}: recorded {}, correct {}{} by {}",
            self.input,
            record.game,
            record.id,
            record.recorded,
            record.correct,
            if record.wrong { " (WRONG)" } else { "" },
            record.rule,
        );
        if !record.article.is_empty() {
            let _ = write!(text, " (Art. {})", record.article);
        }
        let _ = write!(text, " at ply {}", record.ply);
        if record.void_moves > 0 {
            let _ = write!(text, ", {} void moves after", record.void_moves);
        }
        let _ = write!(text, ": {}", record.explanation);
        text
    }

    fn note(&self) -> Option<String> {
        self.record.unreachable.as_ref().map(|reason| format!("  note: no game can reach the start position: {reason}"))
    }

    fn cells(&self) -> Vec<Cow<'_, str>> {
        let record = &self.record;
        let optional = |ply: Option<usize>| ply.map_or(String::new(), |p| p.to_string()).into();
        vec![
            self.input.as_str().into(),
            record.game.to_string().into(),
            record.offset.to_string().into(),
            record.id.as_str().into(),
            record.recorded.as_str().into(),
            record.correct.as_str().into(),
            if record.wrong { "wrong" } else { "ok" }.into(),
            record.rule.into(),
            record.article.into(),
            record.ply.to_string().into(),
            record.void_moves.to_string().into(),
            optional(record.threefold_claimable),
            optional(record.fifty_moves_claimable),
            record.fen.as_str().into(),
            record.explanation.as_str().into(),
            record.unreachable.as_deref().unwrap_or_default().into(),
        ]
    }
}

/// A game (or line, or input) that could not be adjudicated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameError {
    /// The input.
    pub input: String,
    /// The game's number in its input (0: the input itself).
    pub game: u64,
    /// The byte offset of the game.
    pub offset: u64,
    /// What is wrong.
    pub error: String,
}

impl Render for GameError {
    fn text(&self) -> String {
        format!("{}#{} (byte {}): error: {}", self.input, self.game, self.offset, self.error)
    }

    fn cells(&self) -> Vec<Cow<'_, str>> {
        let mut cells = vec![Cow::Borrowed(""); GAME_COLUMNS.len()];
        cells[0] = self.input.as_str().into();
        cells[1] = self.game.to_string().into();
        cells[2] = self.offset.to_string().into();
        cells[6] = "error".into();
        cells[14] = self.error.as_str().into();
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{Format, RecordWriter};

    #[test]
    fn error_records() {
        let error = GameError { input: "x.pgn".into(), game: 3, offset: 10, error: "bad, \"SAN\"".into() };
        let mut out = Vec::new();
        let mut writer = RecordWriter::new(&mut out, Format::Csv, GAME_COLUMNS).unwrap();
        writer.write(&error).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0].split(',').count(), 16);
        assert_eq!(lines[1], "x.pgn,3,10,,,,error,,,,,,,,\"bad, \"\"SAN\"\"\",");
        assert_eq!(error.text(), "x.pgn#3 (byte 10): error: bad, \"SAN\"");
    }
}
