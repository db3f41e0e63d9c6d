//! What `adjudicate` yields: one record per game with the fields of the
//! command's JSONL (`unwinnable adjudicate --format jsonl`), or one error
//! record per malformed game, as Python dicts.

use adjudicate::{Adjudication, Claim, Evidence, Game};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The record of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's number in its input (from 1).
    pub game: u64,
    /// The byte offset of the game in its (decompressed) input.
    pub offset: u64,
    /// `GameId`, `Site`, or `#` and the number.
    pub id: String,
    /// The recorded result.
    pub recorded: String,
    /// The correct result (`*`: undecided).
    pub correct: String,
    /// Whether the recorded result is wrong.
    pub wrong: bool,
    /// The deciding rule.
    pub rule: &'static str,
    /// Its article of the FIDE Laws (empty for `recorded`).
    pub article: &'static str,
    /// The ply where the game ended.
    pub ply: usize,
    /// Moves recorded after the end.
    pub void_moves: usize,
    /// The position where the game ended.
    pub fen: String,
    /// Why.
    pub explanation: String,
    /// A helpmate in SAN, for a timeout loss that stands.
    pub helpmate: Option<String>,
    /// Positions searched by the analyses that decided.
    pub nodes: Option<u64>,
    /// The first ply at which a threefold-repetition claim was possible.
    pub threefold_claimable: Option<usize>,
    /// The first ply at which a fifty-move claim was possible.
    pub fifty_moves_claimable: Option<usize>,
}

impl Record {
    /// The record of `adjudication` of `game`.
    pub fn new(number: u64, offset: u64, game: &Game, adjudication: &Adjudication) -> Record {
        let (helpmate, nodes) = match &adjudication.explanation.evidence {
            Evidence::Helpmate { san, nodes, .. } => (Some(san.clone()), Some(*nodes)),
            Evidence::Unwinnable { nodes, .. } | Evidence::Undetermined { nodes } => (None, Some(*nodes)),
            _ => (None, None),
        };
        let claim_ply = |claim: Option<Claim>| claim.map(|c| c.ply);
        Record {
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
        }
    }

    /// The record as a dict (absent fields are `None`).
    pub fn to_dict<'py>(&self, py: Python<'py>, input: &str) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item(intern!(py, "input"), input)?;
        dict.set_item(intern!(py, "game"), self.game)?;
        dict.set_item(intern!(py, "offset"), self.offset)?;
        dict.set_item(intern!(py, "id"), &self.id)?;
        dict.set_item(intern!(py, "recorded"), &self.recorded)?;
        dict.set_item(intern!(py, "correct"), &self.correct)?;
        dict.set_item(intern!(py, "wrong"), self.wrong)?;
        dict.set_item(intern!(py, "rule"), self.rule)?;
        dict.set_item(intern!(py, "article"), self.article)?;
        dict.set_item(intern!(py, "ply"), self.ply)?;
        dict.set_item(intern!(py, "void_moves"), self.void_moves)?;
        dict.set_item(intern!(py, "fen"), &self.fen)?;
        dict.set_item(intern!(py, "explanation"), &self.explanation)?;
        dict.set_item(intern!(py, "helpmate"), &self.helpmate)?;
        dict.set_item(intern!(py, "nodes"), self.nodes)?;
        dict.set_item(intern!(py, "threefold_claimable"), self.threefold_claimable)?;
        dict.set_item(intern!(py, "fifty_moves_claimable"), self.fifty_moves_claimable)?;
        Ok(dict)
    }
}

/// The record of a game that could not be adjudicated: the keys of the
/// command's error records.
pub fn error_dict<'py>(
    py: Python<'py>,
    input: &str,
    game: u64,
    offset: u64,
    error: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "input"), input)?;
    dict.set_item(intern!(py, "game"), game)?;
    dict.set_item(intern!(py, "offset"), offset)?;
    dict.set_item(intern!(py, "error"), error)?;
    Ok(dict)
}
