//! `unwinnable demo` (also what `unwinnable` does with no arguments at a
//! terminal): the numbered positions of the paper, analysed for both
//! colours, as a table next to their known labels.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Instant;

use movegen::{Color, Position};
use search::{Analyzer, Config, Verdict};

use pipeline::format_micros;

/// The paper's positions (`id <TAB> label <TAB> FEN <TAB> source`): a copy
/// of `testdata/paper-positions.tsv` inside this crate, so that the crate
/// packages on its own (a test keeps the two equal).
pub const PAPER_POSITIONS: &str = include_str!("../data/paper-positions.tsv");

/// One position of [`PAPER_POSITIONS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaperPosition {
    /// The paper's number, e.g. `1` or `1a` for a variant.
    pub id: &'static str,
    /// `WB`, `W-`, `-B` or `--`: who can still checkmate.
    pub label: &'static str,
    /// The FEN.
    pub fen: &'static str,
    /// Where it comes from.
    pub source: &'static str,
}

impl PaperPosition {
    /// Whether the label says `color` can still checkmate.
    pub fn can_mate(&self, color: Color) -> bool {
        let index = color.index();
        self.label.as_bytes().get(index).is_some_and(|&c| c != b'-')
    }
}

/// The positions of [`PAPER_POSITIONS`], in file order.
pub fn paper_positions() -> Vec<PaperPosition> {
    PAPER_POSITIONS
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let (id, label, fen) = (fields.next()?, fields.next()?, fields.next()?);
            Some(PaperPosition { id, label, fen, source: fields.next().unwrap_or("") })
        })
        .collect()
}

/// Analyses every paper position for both colours and writes the table.
/// Rows are written (and flushed) as they are computed.
pub fn run(out: &mut impl Write, config: Config) -> io::Result<()> {
    writeln!(out, "Positions of \"A Practical Algorithm for Chess Unwinnability\" (M. Ambrona, FUN 2022),")?;
    writeln!(
        out,
        "analysed for both colours. Label: who can still checkmate (WB both, W- White, -B Black, -- neither)."
    )?;
    writeln!(out)?;
    writeln!(out, "{:<4} {:<5} {:<13} {:<13} {:<7} {:>9}", "id", "label", "white", "black", "agrees", "time")?;
    let mut analyzer = Analyzer::new(config);
    // Positions that agree with their label, are undetermined, disagree.
    let mut counts = [0; 3];
    // Why analyses were undetermined (a limit, or quick mode's "not proved").
    let mut causes: BTreeMap<&'static str, u32> = BTreeMap::new();
    for paper in paper_positions() {
        let Ok(pos) = Position::from_fen(paper.fen) else {
            writeln!(out, "{:<4} {:<5} invalid FEN {}", paper.id, paper.label, paper.fen)?;
            continue;
        };
        let start = Instant::now();
        let mut verdicts = Vec::with_capacity(2);
        let (mut disagrees, mut unknown) = (false, false);
        for color in Color::ALL {
            let verdict = analyzer.analyze(&pos, color).verdict;
            match verdict {
                Verdict::Winnable { .. } => disagrees |= !paper.can_mate(color),
                Verdict::Unwinnable(_) => disagrees |= paper.can_mate(color),
                Verdict::Undetermined(cause) => {
                    unknown = true;
                    *causes.entry(cause.name()).or_default() += 1;
                }
            }
            verdicts.push(verdict.name());
        }
        let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
        let agreement = if disagrees {
            counts[2] += 1;
            "NO"
        } else if unknown {
            counts[1] += 1;
            "?"
        } else {
            counts[0] += 1;
            "yes"
        };
        writeln!(
            out,
            "{:<4} {:<5} {:<13} {:<13} {:<7} {:>9}",
            paper.id,
            paper.label,
            verdicts[0],
            verdicts[1],
            agreement,
            format_micros(micros)
        )?;
        out.flush()?;
    }
    writeln!(out)?;
    let [agree, unknown, disagree] = counts;
    let causes: Vec<String> = causes.iter().map(|(cause, count)| format!("{cause} {count}")).collect();
    let causes = if causes.is_empty() { String::new() } else { format!(" (analyses: {})", causes.join(", ")) };
    writeln!(out, "{agree} positions agree with their label, {unknown} undetermined{causes}, {disagree} disagree.")?;
    writeln!(out, "Try: unwinnable analyze \"8/8/1p6/1B2k3/5pK1/8/8/8 b - -\"   (can White still mate?)")?;
    writeln!(out, "     unwinnable dead \"8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - -\"")?;
    writeln!(out, "     unwinnable analyze --format jsonl < positions.txt   (one `FEN [white|black]` per line)")?;
    writeln!(out, "     unwinnable --help")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 11, item 6: quick mode's undetermined answers are not called
    /// limits (it said "a limit was reached" where none was).
    #[test]
    fn undetermined_answers_give_their_causes() {
        let mut out = Vec::new();
        let config = Config { mode: search::Mode::Quick, ..Config::default() };
        run(&mut out, config).unwrap();
        let text = String::from_utf8(out).unwrap();
        let last = text.lines().find(|line| line.contains("positions agree with their label")).unwrap();
        assert!(!last.contains("limit"), "{last}");
        if !last.contains(" 0 undetermined") {
            assert!(last.contains("(analyses: not-proved "), "{last}");
        }
    }

    /// Issue 11, item 16: the embedded copy is the project's file.
    #[test]
    fn the_copy_is_the_test_data() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/paper-positions.tsv");
        let original = std::fs::read_to_string(path).expect("testdata/paper-positions.tsv");
        assert!(original == PAPER_POSITIONS, "copy testdata/paper-positions.tsv to crates/unwinnable/data/");
        assert!(!PAPER_POSITIONS.contains("../"), "the header points outside the project");
    }

    #[test]
    fn embedded_positions() {
        let positions = paper_positions();
        assert!(positions.len() >= 20, "{}", positions.len());
        assert_eq!(positions[0].id, "1");
        for paper in &positions {
            assert!(Position::from_fen(paper.fen).is_ok(), "{}", paper.fen);
            assert!(["WB", "W-", "-B", "--"].contains(&paper.label), "{}", paper.label);
        }
        let four = positions.iter().find(|p| p.id == "4").unwrap();
        assert!(four.can_mate(Color::White) && four.can_mate(Color::Black));
        let seventeen = positions.iter().find(|p| p.id == "17").unwrap();
        assert!(!seventeen.can_mate(Color::White) && seventeen.can_mate(Color::Black));
    }
}
