//! `unwinnable dead FEN`: is the position dead (FIDE Art. 5.2.2: neither
//! player can checkmate by any series of legal moves), and why?
//!
//! The static analysis comes first ([`static_check::dead`]): when it proves
//! both colours unable to mate, its explanations are printed (with the
//! drawing of each king's region). Otherwise both colours are searched;
//! each gets its verdict with the evidence: a helpmate in SAN, or the
//! proof (the static explanation when that is the proof).

use std::io::{self, Write};

use adjudicate::ColorProof;
use movegen::{Color, Position};
use search::{Analysis, Analyzer, Config, Proof, Verdict};

/// The answer of `dead`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Neither colour can checkmate.
    Dead,
    /// Some colour can still checkmate.
    Alive,
    /// Neither colour is proved able to mate, and some colour is not
    /// proved unable (a limit was reached).
    Undetermined,
}

impl Answer {
    /// The answer given the verdicts of both colours: alive if one can
    /// mate, dead if both are proved unable, undetermined otherwise.
    pub fn of<'a>(verdicts: impl IntoIterator<Item = &'a Verdict>) -> Answer {
        let (mut alive, mut dead) = (false, true);
        for verdict in verdicts {
            alive |= matches!(verdict, Verdict::Winnable { .. });
            dead &= verdict.is_unwinnable();
        }
        if alive {
            Answer::Alive
        } else if dead {
            Answer::Dead
        } else {
            Answer::Undetermined
        }
    }

    /// `yes`, `no` or `undetermined`: the answer to "is it dead?".
    pub fn name(self) -> &'static str {
        match self {
            Answer::Dead => "yes",
            Answer::Alive => "no",
            Answer::Undetermined => "undetermined",
        }
    }
}

/// The record `unwinnable check` reads for a colour's verdict: one JSON
/// line (the text around it is passed over by the checker).
fn checkable(fen: &str, winner: movegen::Color, verdict: &str, certificate: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"line": 1, "fen": fen, "winner": winner.name(), "verdict": verdict, "certificate": certificate})
}

/// Decides whether `position` (written `fen`) is dead and writes the
/// answer with its reasons to `out`; `unreachable` says why no game can
/// reach the position, if none can (a note: it is analysed all the same);
/// with `certificates`, after each colour's reasons its record with its
/// certificate, a JSON line that `unwinnable check` reads (see
/// `docs/certificates.md`).
pub fn run(
    out: &mut impl Write,
    fen: &str,
    position: &Position,
    unreachable: Option<&str>,
    config: Config,
    certificates: bool,
) -> io::Result<Answer> {
    writeln!(out, "position: {fen}")?;
    if let Some(reason) = unreachable {
        writeln!(out, "note: no game can reach this position: {reason}")?;
    }
    if let Some([white, black]) = static_check::dead(position) {
        writeln!(out, "dead: yes, neither side can checkmate (proved by the static analysis)")?;
        for explanation in [white, black] {
            writeln!(out)?;
            write!(out, "{explanation}")?;
            if certificates {
                let winner = explanation.winner;
                let proof = match explanation.material {
                    Some(rule) => Proof::Material(rule),
                    None => Proof::Static(Box::new(explanation)),
                };
                let certificate = pipeline::certificate::unwinnable_certificate(position, winner, &proof);
                writeln!(out, "{}", checkable(fen, winner, "unwinnable", certificate))?;
            }
        }
        return Ok(Answer::Dead);
    }
    let mut analyzer = Analyzer::new(config);
    let analyses: Vec<(Color, Analysis)> =
        Color::ALL.iter().map(|&color| (color, analyzer.analyze(position, color))).collect();
    let winnable: Vec<Color> =
        analyses.iter().filter(|(_, a)| matches!(a.verdict, Verdict::Winnable { .. })).map(|(c, _)| *c).collect();
    let answer = Answer::of(analyses.iter().map(|(_, a)| &a.verdict));
    let mated = position.is_checkmate();
    match answer {
        // The game is over: the side not to move has mated.
        Answer::Alive if mated => {
            writeln!(out, "dead: no, the position is already checkmate ({} has mated)", !position.side_to_move())?;
        }
        Answer::Dead => writeln!(out, "dead: yes, neither side can checkmate")?,
        Answer::Alive if winnable.len() == 2 => writeln!(out, "dead: no, both sides can still checkmate")?,
        Answer::Alive => writeln!(out, "dead: no, {} can still checkmate", winnable[0])?,
        Answer::Undetermined => writeln!(out, "dead: undetermined (no side is proved able to mate)")?,
    }
    for (color, analysis) in &analyses {
        writeln!(out)?;
        match &analysis.verdict {
            Verdict::Winnable { helpmate } if helpmate.is_empty() => {
                writeln!(out, "{color} has already checkmated: no move is needed")?;
            }
            Verdict::Winnable { helpmate } => {
                writeln!(out, "{color} can checkmate: {}", position.san_line(helpmate))?;
            }
            Verdict::Unwinnable(proof) => {
                let proof = ColorProof::new(position, *color, proof.clone());
                match &proof.proof {
                    // The explanation with its drawing, after the forced
                    // moves if any.
                    Proof::Static(explanation) if proof.forced_line.is_empty() => {
                        writeln!(out, "{color} cannot checkmate:")?;
                        write!(out, "{explanation}")?;
                    }
                    Proof::Static(explanation) => {
                        writeln!(out, "{color} cannot checkmate: after the forced moves {}:", proof.forced_line)?;
                        write!(out, "{explanation}")?;
                    }
                    _ => writeln!(out, "{color} cannot checkmate: {}", proof.reason())?,
                }
            }
            Verdict::Undetermined(cause) => writeln!(out, "{color}: undetermined: {cause}")?,
        }
        if certificates {
            if let Some(certificate) = pipeline::certificate::certificate(position, *color, &analysis.verdict) {
                writeln!(out, "{}", checkable(fen, *color, analysis.verdict.name(), certificate))?;
            }
        }
        writeln!(out, "({} nodes searched)", analysis.nodes)?;
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dead(fen: &str) -> (Answer, String) {
        let pos: Position = fen.parse().unwrap();
        let mut out = Vec::new();
        let answer = run(&mut out, fen, &pos, None, Config::default(), false).unwrap();
        (answer, String::from_utf8(out).unwrap())
    }

    #[test]
    fn answers() {
        let (answer, text) = dead("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54");
        assert_eq!(answer, Answer::Dead);
        assert!(text.contains("proved by the static analysis"), "{text}");
        assert!(text.contains("black king region") && text.contains("white king region"), "{text}");
        let (answer, text) = dead("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1");
        assert_eq!(answer, Answer::Alive);
        assert!(text.contains("dead: no, white can still checkmate"), "{text}");
        assert!(text.contains("white can checkmate: 1. "), "{text}");
        assert!(text.contains("black cannot checkmate: "), "{text}");
    }

    /// Issue 11, item 6: a mate on the board is named (it said "white can
    /// still checkmate" with an empty helpmate); a proof after a forced
    /// capture of the winner's queen says so.
    #[test]
    fn finished_positions_and_forced_moves_are_named() {
        let (answer, text) = dead("4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1");
        assert_eq!(answer, Answer::Alive);
        assert!(text.contains("dead: no, the position is already checkmate (white has mated)"), "{text}");
        assert!(text.contains("white has already checkmated: no move is needed"), "{text}");
        assert!(!text.contains("can still checkmate"), "{text}");
        let (answer, text) = dead("7k/6Q1/8/8/8/8/8/K7 b - - 0 1");
        assert_eq!(answer, Answer::Dead);
        assert!(text.contains("white cannot checkmate: after the forced move 1...Kxg7, "), "{text}");
    }
}
