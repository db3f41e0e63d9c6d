//! [`Record`]: the flat record of one adjudicated game, the fields that
//! `unwinnable adjudicate` writes (after its `input`) and the Python
//! package's `adjudicate` yields, built in one place so that every front
//! end says the same.

use movegen::{Position, Setup};
use serde::Serialize;

use crate::pgn::Tags;
use crate::{Adjudication, Claim, Evidence, Game};

/// The record of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
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
    /// Why no game can reach the position the game started from (a `FEN`
    /// tag; [`movegen::unreachable`]), if none can: the game is
    /// adjudicated all the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreachable: Option<String>,
    /// The `White` tag, if known (PGN only; set by [`Record::players`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// The `Black` tag, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    /// The `Date` tag, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The `Site` tag, if known (often the game's address).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
}

impl Record {
    /// The record of `adjudication` of `game`, game number `number` of its
    /// input, at byte `offset`.
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
            undecided: matches!(adjudication.explanation.evidence, Evidence::Undetermined { .. }),
            unreachable: start_unreachable(game.start()),
            white: None,
            black: None,
            date: None,
            site: None,
        }
    }

    /// Keeps the players, date and site of the game's `tags`, for reports
    /// (unknown values, `?` and empty, are left out).
    pub fn players(&mut self, tags: &Tags) {
        let known = |value: &Option<String>| {
            value.clone().filter(|v| !v.trim().is_empty() && !v.chars().all(|c| c == '?' || c == '.'))
        };
        self.white = known(&tags.white);
        self.black = known(&tags.black);
        self.date = known(&tags.date);
        self.site = known(&tags.site);
    }
}

/// Why no game reaches `start`, if none does, as one sentence. The standard
/// start position (most games) is not examined. The position keeps its en
/// passant square only when a capture is legal, so a `FEN` tag's other en
/// passant square does not narrow the last move down (never a flag too
/// many).
fn start_unreachable(start: &Position) -> Option<String> {
    if *start == Position::start() {
        return None;
    }
    let setup = Setup::from_fen(&start.to_fen()).ok()?;
    let reasons = movegen::unreachable(&setup);
    (!reasons.is_empty()).then(|| reasons.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
}
