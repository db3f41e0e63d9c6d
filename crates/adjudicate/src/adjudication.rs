//! The answer for one game: [`Adjudication`] (recorded and correct result,
//! the deciding [`Rule`], the ply, and an [`Explanation`] with its
//! [`Evidence`]), and the draw claims that became available ([`Claims`]).

use core::fmt;

use movegen::{Color, Move, Position};
use search::Proof;

use crate::game::Outcome;

/// The rule that decided the correct result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Rule {
    /// Art. 5.1.1: checkmate.
    Checkmate,
    /// Art. 5.2.1: stalemate.
    Stalemate,
    /// Art. 5.2.2: dead position.
    DeadPosition,
    /// Art. 6.9: a player ran out of time.
    Timeout,
    /// Art. 9.6.1: the same position for the fifth time.
    FivefoldRepetition,
    /// Art. 9.6.2: seventy-five moves by each player without capture or
    /// pawn move.
    SeventyFiveMoves,
    /// No rule ended the game on the board: the recorded result stands
    /// (a resignation, an agreed or claimed draw, an unfinished game).
    Recorded,
}

impl Rule {
    /// Every rule, in the order of the FIDE Laws.
    pub const ALL: [Rule; 7] = [
        Rule::Checkmate,
        Rule::Stalemate,
        Rule::DeadPosition,
        Rule::Timeout,
        Rule::FivefoldRepetition,
        Rule::SeventyFiveMoves,
        Rule::Recorded,
    ];

    /// The article of the FIDE Laws of Chess (`""` for [`Rule::Recorded`]).
    pub const fn article(self) -> &'static str {
        match self {
            Rule::Checkmate => "5.1.1",
            Rule::Stalemate => "5.2.1",
            Rule::DeadPosition => "5.2.2",
            Rule::Timeout => "6.9",
            Rule::FivefoldRepetition => "9.6.1",
            Rule::SeventyFiveMoves => "9.6.2",
            Rule::Recorded => "",
        }
    }

    /// A short machine-friendly name (`checkmate`, `dead-position`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Checkmate => "checkmate",
            Rule::Stalemate => "stalemate",
            Rule::DeadPosition => "dead-position",
            Rule::Timeout => "timeout",
            Rule::FivefoldRepetition => "fivefold-repetition",
            Rule::SeventyFiveMoves => "seventy-five-moves",
            Rule::Recorded => "recorded",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why one colour cannot mate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorProof {
    /// The colour that cannot mate.
    pub color: Color,
    /// The proof, from the `search` crate.
    pub proof: Proof,
    /// The moves the analysis played first because each was the only
    /// legal one, in SAN with move numbers (empty if none, or if the proof
    /// is that line itself): the proof is about the position they lead to,
    /// so "the intended winner has only the king" may be said of a side
    /// whose queen is about to be captured.
    pub forced_line: String,
}

impl ColorProof {
    /// The proof that `color` cannot mate in `pos`.
    pub fn new(pos: &Position, color: Color, proof: Proof) -> ColorProof {
        let forced =
            if matches!(proof, Proof::ForcedLine { .. }) { Vec::new() } else { search::forced_line(pos, color) };
        let forced_line = if forced.is_empty() { String::new() } else { pos.san_line(&forced) };
        ColorProof { color, proof, forced_line }
    }

    /// Why the colour cannot mate, without naming it: the proof, after the
    /// forced moves if there are any ("after the forced move 1...Kxg7, the
    /// intended winner has only the king").
    pub fn reason(&self) -> String {
        match self.forced_line.split_whitespace().filter(|t| !t.ends_with('.')).count() {
            0 => self.proof.to_string(),
            1 => format!("after the forced move {}, {}", self.forced_line, self.proof),
            _ => format!("after the forced moves {}, {}", self.forced_line, self.proof),
        }
    }
}

impl fmt::Display for ColorProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} cannot mate: {}", self.color, self.reason())
    }
}

/// The facts behind a ruling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// Nothing beyond the position itself (a checkmate, a stalemate, a
    /// recorded result).
    None,
    /// A timeout loss stands: the opponent could still mate, for example by
    /// this sequence of legal moves from the final position.
    Helpmate {
        /// The moves.
        moves: Vec<Move>,
        /// The same in SAN with move numbers.
        san: String,
        /// Positions searched to find it.
        nodes: u64,
    },
    /// No mate is possible for these colours: the proofs (a static
    /// explanation, a forced line, material, or an exhaustive search with
    /// its size).
    Unwinnable {
        /// The colours that cannot mate, each with its proof.
        proofs: Vec<ColorProof>,
        /// Positions searched in total.
        nodes: u64,
    },
    /// The same position appeared at these plies.
    Repetition {
        /// The plies (0 is the start position).
        plies: Vec<usize>,
    },
    /// The halfmove clock (plies without capture or pawn move).
    HalfmoveClock(u16),
    /// The analysis hit a limit before deciding.
    Undetermined {
        /// Positions searched.
        nodes: u64,
    },
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::None => Ok(()),
            Evidence::Helpmate { san, nodes, .. } => write!(f, "helpmate {san} (found in {nodes} nodes)"),
            Evidence::Unwinnable { proofs, .. } => {
                for (index, proof) in proofs.iter().enumerate() {
                    if index > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{proof}")?;
                }
                Ok(())
            }
            Evidence::Repetition { plies } => {
                f.write_str("the position appeared at plies")?;
                for ply in plies {
                    write!(f, " {ply}")?;
                }
                Ok(())
            }
            Evidence::HalfmoveClock(clock) => write!(f, "{clock} plies without capture or pawn move"),
            Evidence::Undetermined { nodes } => {
                write!(f, "the search reached its limit after {nodes} nodes without an answer")
            }
        }
    }
}

/// Why the correct result is what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The article of the FIDE Laws applied (empty for a recorded result).
    pub article: &'static str,
    /// The position where the game ended, as a FEN.
    pub fen: String,
    /// One sentence saying what happened.
    pub text: String,
    /// The facts behind it.
    pub evidence: Evidence,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.article.is_empty() {
            write!(f, "Art. {}: ", self.article)?;
        }
        write!(f, "{} [{}]", self.text, self.fen)?;
        if self.evidence != Evidence::None {
            write!(f, "; {}", self.evidence)?;
        }
        Ok(())
    }
}

/// How a draw claim became available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimKind {
    /// The condition holds in the position (Art. 9.2.1.2 / 9.3.2).
    InPosition,
    /// The player to move could write this move and claim (Art. 9.2.1.1 /
    /// 9.3.1).
    ByMove(Move),
}

/// A draw claim available to the player to move at `ply`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The ply (0 is the start position) at which the claim was first
    /// possible.
    pub ply: usize,
    /// The claimant: the player to move then.
    pub by: Color,
    /// How.
    pub kind: ClaimKind,
}

/// The first ply at which each draw claim was available (within the part
/// of the game that counts, before it ended).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    /// Threefold repetition (Art. 9.2).
    pub threefold: Option<Claim>,
    /// Fifty-move rule (Art. 9.3).
    pub fifty_moves: Option<Claim>,
}

/// The adjudication of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// The result the source recorded.
    pub recorded: Outcome,
    /// The result under the FIDE Laws ([`Outcome::Unknown`] when the
    /// recorded result is `*` and no rule ended the game, or when the
    /// analysis of a timeout hit its limit).
    pub correct: Outcome,
    /// The rule that decided `correct`.
    pub rule: Rule,
    /// The ply at which the game ended (0 is the start position): where
    /// the rule applied, or the last ply for a recorded result or timeout.
    pub ply: usize,
    /// Moves recorded after the end of the game (void).
    pub void_moves: usize,
    /// Why.
    pub explanation: Explanation,
    /// Draw claims that became available before the end.
    pub claims: Claims,
}

impl Adjudication {
    /// Whether the recorded result is wrong: the correct result is known
    /// and differs from it.
    pub fn is_wrong(&self) -> bool {
        self.correct != Outcome::Unknown && self.correct != self.recorded
    }

    /// The FEN of the position where the game ended.
    pub fn fen(&self) -> &str {
        &self.explanation.fen
    }
}

impl fmt::Display for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "recorded {}, correct {} ({} at ply {}): {}",
            self.recorded, self.correct, self.rule, self.ply, self.explanation
        )
    }
}
