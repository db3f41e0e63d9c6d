//! The records of `unwinnable analyze`: one [`Record`] per analysis (or
//! one [`ErrorRecord`] per rejected query line), in every output
//! [`Format`](crate::output::Format) ([`Render`]).

use std::borrow::Cow;

use adjudicate::{helpmate_lines, verdict_reason};
use movegen::{Color, Position};
use search::Analysis;
use serde::Serialize;

use crate::output::Render;
use crate::summary::format_micros;

/// The CSV columns of `analyze` (an error fills `line`, `fen` with the
/// line as given, `verdict` with `error` and `reason` with the error).
pub const ANALYSIS_COLUMNS: &[&str] = &[
    "line",
    "fen",
    "winner",
    "verdict",
    "helpmate",
    "helpmate_san",
    "reason",
    "cause",
    "nodes",
    "micros",
    "unreachable",
];

/// The result of one analysis: a position and an intended winner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The input line number (1-based; 1 for a FEN given as an argument).
    pub line: usize,
    /// The FEN as given.
    pub fen: String,
    /// `"white"` or `"black"`.
    pub winner: &'static str,
    /// `"winnable"`, `"unwinnable"` or `"undetermined"`.
    pub verdict: &'static str,
    /// The helpmate in UCI notation (only when winnable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub helpmate: Option<Vec<String>>,
    /// The helpmate in SAN with move numbers (only when winnable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub helpmate_san: Option<String>,
    /// Why it is unwinnable (the proof, after the forced moves if any), why
    /// it is undetermined, or that it is already checkmate (a winnable
    /// position with the empty helpmate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why it is undetermined, as a stable name (`node-budget`, `deadline`,
    /// `memory`, `stopped`, `not-proved`, `helpmate-too-long`; only when
    /// undetermined).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<&'static str>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall-clock time of the analysis, in microseconds.
    pub micros: u64,
    /// Why no game can reach the position (more than eight pawns, more
    /// pieces than promotions allow, an impossible check), if it cannot:
    /// the analysis is of the position as given, all the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreachable: Option<String>,
    /// The verdict's certificate (`--certificate`, JSON Lines only; see
    /// `docs/certificates.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<serde_json::Value>,
}

impl Record {
    /// The record of `analysis` of `position` for `winner`.
    pub fn new(line: usize, fen: &str, position: &Position, winner: Color, analysis: &Analysis, micros: u64) -> Record {
        let (helpmate, helpmate_san) = helpmate_lines(position, &analysis.verdict).unzip();
        Record {
            line,
            fen: fen.to_string(),
            winner: winner.name(),
            verdict: analysis.verdict.name(),
            helpmate,
            helpmate_san,
            reason: verdict_reason(position, winner, &analysis.verdict),
            cause: analysis.verdict.cause().map(search::Cause::name),
            nodes: analysis.nodes,
            micros,
            unreachable: None,
            certificate: None,
        }
    }
}

impl Render for Record {
    fn text(&self) -> String {
        let detail = match (&self.helpmate_san, &self.reason) {
            (Some(san), _) if !san.is_empty() => san.as_str(),
            (_, Some(reason)) => reason.as_str(),
            (_, None) => "",
        };
        format!(
            "{}  {}: {}: {}  ({} nodes, {})",
            self.fen,
            self.winner,
            self.verdict,
            detail,
            self.nodes,
            format_micros(self.micros)
        )
    }

    fn cells(&self) -> Vec<Cow<'_, str>> {
        vec![
            self.line.to_string().into(),
            self.fen.as_str().into(),
            self.winner.into(),
            self.verdict.into(),
            self.helpmate.as_ref().map_or(String::new(), |moves| moves.join(" ")).into(),
            self.helpmate_san.as_deref().unwrap_or_default().into(),
            self.reason.as_deref().unwrap_or_default().into(),
            self.cause.unwrap_or_default().into(),
            self.nodes.to_string().into(),
            self.micros.to_string().into(),
            self.unreachable.as_deref().unwrap_or_default().into(),
        ]
    }

    fn note(&self) -> Option<String> {
        self.unreachable.as_ref().map(|reason| format!("  note: no game can reach this position: {reason}"))
    }
}

/// A query line that could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorRecord {
    /// The input line number (1-based).
    pub line: usize,
    /// The line (shortened if long, lossily decoded if not UTF-8).
    pub input: String,
    /// What is wrong with it.
    pub error: String,
}

impl Render for ErrorRecord {
    fn text(&self) -> String {
        format!("line {}: error: {}", self.line, self.error)
    }

    fn cells(&self) -> Vec<Cow<'_, str>> {
        let mut cells = vec![Cow::Borrowed(""); ANALYSIS_COLUMNS.len()];
        cells[0] = self.line.to_string().into();
        cells[1] = self.input.as_str().into();
        cells[3] = "error".into();
        cells[6] = self.error.as_str().into();
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{Format, RecordWriter};
    use adjudicate::ALREADY_MATE;
    use search::{Proof, Verdict};

    fn render(record: &impl Render, format: Format) -> String {
        let mut out = Vec::new();
        let mut writer = RecordWriter::new(&mut out, format, ANALYSIS_COLUMNS).unwrap();
        writer.write(record).unwrap();
        let text = String::from_utf8(out).unwrap();
        if format == Format::Csv {
            assert!(
                text.starts_with(
                    "line,fen,winner,verdict,helpmate,helpmate_san,reason,cause,nodes,micros,unreachable\n"
                )
            );
        }
        text.lines().find(|line| !line.starts_with("line,")).unwrap().to_string()
    }

    #[test]
    fn unreachable_positions_are_noted() {
        let pos: Position = "rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1".parse().unwrap();
        let analysis = Analysis { verdict: Verdict::Unwinnable(Proof::Traversal { positions: 5 }), nodes: 5 };
        let mut record = Record::new(1, "x", &pos, Color::Black, &analysis, 7);
        record.unreachable = Some("white has 9 pawns (a game has at most 8)".into());
        assert!(
            render(&record, Format::Jsonl).ends_with(r#""unreachable":"white has 9 pawns (a game has at most 8)"}"#)
        );
        assert!(render(&record, Format::Csv).ends_with(",5,7,white has 9 pawns (a game has at most 8)"));
        let mut out = Vec::new();
        RecordWriter::new(&mut out, Format::Text, ANALYSIS_COLUMNS).unwrap().write(&record).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text.lines().nth(1),
            Some("  note: no game can reach this position: white has 9 pawns (a game has at most 8)")
        );
    }

    #[test]
    fn json_text_and_csv() {
        let pos: Position = "8/8/1p6/1B2k3/5pK1/8/8/8 b - -".parse().unwrap();
        let m = pos.parse_uci("e5d4").unwrap();
        let analysis = Analysis { verdict: Verdict::Winnable { helpmate: vec![m] }, nodes: 12 };
        let record = Record::new(3, "8/8/1p6/1B2k3/5pK1/8/8/8 b - -", &pos, Color::White, &analysis, 1500);
        assert_eq!(
            render(&record, Format::Jsonl),
            r#"{"line":3,"fen":"8/8/1p6/1B2k3/5pK1/8/8/8 b - -","winner":"white","verdict":"winnable","helpmate":["e5d4"],"helpmate_san":"1...Kd4","nodes":12,"micros":1500}"#
        );
        assert_eq!(
            render(&record, Format::Text),
            "8/8/1p6/1B2k3/5pK1/8/8/8 b - -  white: winnable: 1...Kd4  (12 nodes, 1.5 ms)"
        );
        assert_eq!(
            render(&record, Format::Csv),
            "3,8/8/1p6/1B2k3/5pK1/8/8/8 b - -,white,winnable,e5d4,1...Kd4,,,12,1500,"
        );
        let analysis = Analysis { verdict: Verdict::Unwinnable(Proof::Traversal { positions: 5 }), nodes: 5 };
        let record = Record::new(1, "x", &pos, Color::Black, &analysis, 7);
        assert!(render(&record, Format::Jsonl).contains(r#""verdict":"unwinnable","reason":"exhaustive search"#));
        let error = ErrorRecord { line: 4, input: "a\"\u{1}".into(), error: "bad".into() };
        assert_eq!(render(&error, Format::Jsonl), r#"{"line":4,"input":"a\"\u0001","error":"bad"}"#);
        assert_eq!(render(&error, Format::Text), "line 4: error: bad");
        assert_eq!(render(&error, Format::Csv), "4,\"a\"\"\\x01\",,error,,,bad,,,,");
        // Issue 11, item 6: a proof after a forced move says so; a mate
        // already on the board is named.
        let pos: Position = "7k/6Q1/8/8/8/8/8/K7 b - - 0 1".parse().unwrap();
        let analysis = Analysis { verdict: Verdict::Unwinnable(Proof::Traversal { positions: 1 }), nodes: 1 };
        let record = Record::new(1, "x", &pos, Color::White, &analysis, 1);
        assert_eq!(
            record.reason.as_deref(),
            Some("after the forced move 1...Kxg7, exhaustive search: no mate in any of the 1 positions reachable")
        );
        let pos: Position = "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1".parse().unwrap();
        let analysis = Analysis { verdict: Verdict::Winnable { helpmate: Vec::new() }, nodes: 0 };
        let record = Record::new(1, "x", &pos, Color::White, &analysis, 1);
        assert_eq!(render(&record, Format::Text), format!("x  white: winnable: {ALREADY_MATE}  (0 nodes, 1 us)"));
    }
}
