//! `unwinnable dead FEN`: is the position dead (FIDE Art. 5.2.2: neither
//! player can checkmate by any series of legal moves), and why?
//!
//! The static analysis comes first ([`static_check::dead`]): when it proves
//! both colours unable to mate, its explanations are printed (with the
//! drawing of each king's region). Otherwise both colours are searched;
//! each gets its verdict with the evidence: a helpmate in SAN, or the
//! proof (the static explanation when that is the proof).

use std::io::{self, Write};

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

/// Decides whether `position` (written `fen`) is dead and writes the
/// answer with its reasons to `out`.
pub fn run(out: &mut impl Write, fen: &str, position: &Position, config: Config) -> io::Result<Answer> {
    writeln!(out, "position: {fen}")?;
    if let Some([white, black]) = static_check::dead(position) {
        writeln!(out, "dead: yes, neither side can checkmate (proved by the static analysis)")?;
        writeln!(out)?;
        write!(out, "{white}")?;
        writeln!(out)?;
        write!(out, "{black}")?;
        return Ok(Answer::Dead);
    }
    let mut analyzer = Analyzer::new(config);
    let analyses: Vec<(Color, Analysis)> =
        Color::ALL.iter().map(|&color| (color, analyzer.analyze(position, color))).collect();
    let winnable: Vec<Color> =
        analyses.iter().filter(|(_, a)| matches!(a.verdict, Verdict::Winnable { .. })).map(|(c, _)| *c).collect();
    let answer = if !winnable.is_empty() {
        Answer::Alive
    } else if analyses.iter().all(|(_, a)| a.verdict.is_unwinnable()) {
        Answer::Dead
    } else {
        Answer::Undetermined
    };
    match answer {
        Answer::Dead => writeln!(out, "dead: yes, neither side can checkmate")?,
        Answer::Alive if winnable.len() == 2 => writeln!(out, "dead: no, both sides can still checkmate")?,
        Answer::Alive => writeln!(out, "dead: no, {} can still checkmate", winnable[0])?,
        Answer::Undetermined => writeln!(out, "dead: undetermined (no side is proved able to mate)")?,
    }
    for (color, analysis) in &analyses {
        writeln!(out)?;
        match &analysis.verdict {
            Verdict::Winnable { helpmate } => {
                writeln!(out, "{color} can checkmate: {}", position.san_line(helpmate))?;
            }
            Verdict::Unwinnable(Proof::Static(explanation)) => {
                writeln!(out, "{color} cannot checkmate:")?;
                write!(out, "{explanation}")?;
            }
            Verdict::Unwinnable(proof) => writeln!(out, "{color} cannot checkmate: {proof}")?,
            Verdict::Undetermined(cause) => writeln!(out, "{color}: undetermined: {cause}")?,
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
        let answer = run(&mut out, fen, &pos, Config::default()).unwrap();
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
}
