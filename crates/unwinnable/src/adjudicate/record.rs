//! The records of `unwinnable adjudicate`: one [`GameRecord`] per game, one
//! [`GameError`] per malformed game or unreadable input, in every output
//! [`Format`](crate::output::Format) ([`Render`]).

use std::borrow::Cow;
use std::fmt::Write as _;

use adjudicate::{Adjudication, Evidence, Game};
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
];

/// The record of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// The input (file name, `-` for standard input).
    pub input: String,
    /// The game's number in its input (1-based; the line number for FEN lines).
    pub game: u64,
    /// The byte offset of the game in its (decompressed) input.
    pub offset: u64,
    /// `GameId`, `Site`, or `#` and the number.
    pub id: String,
    /// The recorded result.
    pub recorded: String,
    /// The correct result (`*`: not decided).
    pub correct: String,
    /// Whether the recorded result is wrong.
    pub wrong: bool,
    /// The deciding rule (`checkmate`, `dead-position`, `timeout`, ...).
    pub rule: &'static str,
    /// Its article of the FIDE Laws (empty for `recorded`).
    pub article: &'static str,
    /// The ply at which the game ended (0: the start position).
    pub ply: usize,
    /// Moves recorded after the end (void).
    pub void_moves: usize,
    /// The position where the game ended.
    pub fen: String,
    /// Why.
    pub explanation: String,
    /// A helpmate in SAN, for a timeout loss that stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub helpmate: Option<String>,
    /// Positions searched by the analyses that decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The first ply at which a threefold-repetition claim was possible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threefold_claimable: Option<usize>,
    /// The first ply at which a fifty-move claim was possible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fifty_moves_claimable: Option<usize>,
    /// A timeout whose analysis hit a limit: the result is left `*`.
    #[serde(skip)]
    pub undecided: bool,
}

impl GameRecord {
    /// The record of `adjudication` of `game`.
    pub fn new(input: &str, number: u64, offset: u64, game: &Game, adjudication: &Adjudication) -> GameRecord {
        let (helpmate, nodes) = match &adjudication.explanation.evidence {
            Evidence::Helpmate { san, nodes, .. } => (Some(san.clone()), Some(*nodes)),
            Evidence::Unwinnable { nodes, .. } | Evidence::Undetermined { nodes } => (None, Some(*nodes)),
            _ => (None, None),
        };
        let claim_ply = |claim: Option<adjudicate::Claim>| claim.map(|c| c.ply);
        GameRecord {
            input: input.to_string(),
            game: number,
            offset,
            id: game.id.clone(),
            recorded: adjudication.recorded.to_string(),
            correct: adjudication.correct.to_string(),
            wrong: adjudication.is_wrong(),
            rule: adjudication.rule.name(),
            article: adjudication.rule.article(),
            ply: adjudication.ply,
            void_moves: adjudication.void_moves,
            fen: adjudication.explanation.fen.clone(),
            explanation: adjudication.explanation.to_string(),
            helpmate,
            nodes,
            threefold_claimable: claim_ply(adjudication.claims.threefold),
            fifty_moves_claimable: claim_ply(adjudication.claims.fifty_moves),
            undecided: matches!(adjudication.explanation.evidence, Evidence::Undetermined { .. }),
        }
    }
}

impl Render for GameRecord {
    fn text(&self) -> String {
        let mut text = format!(
            "{}#{} {}: recorded {}, correct {}{} by {}",
            self.input,
            self.game,
            self.id,
            self.recorded,
            self.correct,
            if self.wrong { " (WRONG)" } else { "" },
            self.rule,
        );
        if !self.article.is_empty() {
            let _ = write!(text, " (Art. {})", self.article);
        }
        let _ = write!(text, " at ply {}", self.ply);
        if self.void_moves > 0 {
            let _ = write!(text, ", {} void moves after", self.void_moves);
        }
        let _ = write!(text, ": {}", self.explanation);
        text
    }

    fn cells(&self) -> Vec<Cow<'_, str>> {
        let optional = |ply: Option<usize>| ply.map_or(String::new(), |p| p.to_string()).into();
        vec![
            self.input.as_str().into(),
            self.game.to_string().into(),
            self.offset.to_string().into(),
            self.id.as_str().into(),
            self.recorded.as_str().into(),
            self.correct.as_str().into(),
            if self.wrong { "wrong" } else { "ok" }.into(),
            self.rule.into(),
            self.article.into(),
            self.ply.to_string().into(),
            self.void_moves.to_string().into(),
            optional(self.threefold_claimable),
            optional(self.fifty_moves_claimable),
            self.fen.as_str().into(),
            self.explanation.as_str().into(),
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
        assert_eq!(lines[0].split(',').count(), 15);
        assert_eq!(lines[1], "x.pgn,3,10,,,,error,,,,,,,,\"bad, \"\"SAN\"\"\"");
        assert_eq!(error.text(), "x.pgn#3 (byte 10): error: bad, \"SAN\"");
    }
}
