//! The output of `unwinnable analyze`: one [`Record`] per analysis (or one
//! [`ErrorRecord`] per rejected query line), written as a readable line or
//! as a JSON object ([`Format`]); and the [`Summary`] of a run.

use core::fmt;

use movegen::{Color, Position};
use search::{Analysis, Verdict};
use serde::Serialize;

/// The output format of `analyze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// One readable line per analysis, the helpmate in SAN.
    #[default]
    Text,
    /// One JSON object per line (JSON Lines).
    Jsonl,
}

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
    /// Why it is unwinnable (the proof), or why it is undetermined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why it is undetermined, as a stable name (`node-budget`, `deadline`,
    /// `memory`, `stopped`, `not-proved`; only when undetermined).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<&'static str>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall-clock time of the analysis, in microseconds.
    pub micros: u64,
}

impl Record {
    /// The record of `analysis` of `position` for `winner`.
    pub fn new(line: usize, fen: &str, position: &Position, winner: Color, analysis: &Analysis, micros: u64) -> Record {
        let (helpmate, helpmate_san, reason) = match &analysis.verdict {
            Verdict::Winnable { helpmate } => {
                (Some(helpmate.iter().map(ToString::to_string).collect()), Some(position.san_line(helpmate)), None)
            }
            Verdict::Unwinnable(proof) => (None, None, Some(proof.to_string())),
            Verdict::Undetermined(cause) => (None, None, Some(cause.to_string())),
        };
        Record {
            line,
            fen: fen.to_string(),
            winner: winner.name(),
            verdict: analysis.verdict.name(),
            helpmate,
            helpmate_san,
            reason,
            cause: analysis.verdict.cause().map(search::Cause::name),
            nodes: analysis.nodes,
            micros,
        }
    }

    /// The record in `format`, without a line terminator.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Jsonl => to_json(self),
            Format::Text => {
                let detail = match (&self.helpmate_san, &self.reason) {
                    (Some(san), _) => san.as_str(),
                    (None, Some(reason)) => reason.as_str(),
                    (None, None) => "",
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
        }
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

impl ErrorRecord {
    /// The record in `format`, without a line terminator.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Jsonl => to_json(self),
            Format::Text => format!("line {}: error: {}", self.line, self.error),
        }
    }
}

fn to_json(value: &impl Serialize) -> String {
    // Serializing plain strings and integers cannot fail; fall back to a
    // valid JSON object all the same.
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\": {:?}}}", e.to_string()))
}

/// `1234` as `1.2 ms`, and so on.
pub fn format_micros(micros: u64) -> String {
    match micros {
        0..1_000 => format!("{micros} us"),
        1_000..1_000_000 => format!("{:.1} ms", micros as f64 / 1e3),
        _ => format!("{:.2} s", micros as f64 / 1e6),
    }
}

/// Counts of a run, printed on standard error at the end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Analyses made (a query for both colours counts twice).
    pub analyses: u64,
    /// Of which winnable.
    pub winnable: u64,
    /// Of which unwinnable.
    pub unwinnable: u64,
    /// Of which undetermined.
    pub undetermined: u64,
    /// Query lines rejected.
    pub errors: u64,
    /// Total time of the analyses, in microseconds.
    pub total_micros: u64,
    /// The longest analysis, in microseconds.
    pub max_micros: u64,
}

impl Summary {
    /// Counts one analysis.
    pub fn add(&mut self, record: &Record) {
        self.analyses += 1;
        match record.verdict {
            "winnable" => self.winnable += 1,
            "unwinnable" => self.unwinnable += 1,
            _ => self.undetermined += 1,
        }
        self.total_micros = self.total_micros.saturating_add(record.micros);
        self.max_micros = self.max_micros.max(record.micros);
    }

    /// The average time per analysis, in microseconds.
    pub fn average_micros(&self) -> u64 {
        self.total_micros.checked_div(self.analyses).unwrap_or(0)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} analyses ({} winnable, {} unwinnable, {} undetermined), {} rejected lines; \
             per analysis: average {} us, maximum {} us",
            self.analyses,
            self.winnable,
            self.unwinnable,
            self.undetermined,
            self.errors,
            self.average_micros(),
            self.max_micros
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search::Proof;

    #[test]
    fn json_and_text() {
        let pos: Position = "8/8/1p6/1B2k3/5pK1/8/8/8 b - -".parse().unwrap();
        let m = pos.parse_uci("e5d4").unwrap();
        let analysis = Analysis { verdict: Verdict::Winnable { helpmate: vec![m] }, nodes: 12 };
        let record = Record::new(3, "8/8/1p6/1B2k3/5pK1/8/8/8 b - -", &pos, Color::White, &analysis, 1500);
        assert_eq!(
            record.render(Format::Jsonl),
            r#"{"line":3,"fen":"8/8/1p6/1B2k3/5pK1/8/8/8 b - -","winner":"white","verdict":"winnable","helpmate":["e5d4"],"helpmate_san":"1...Kd4","nodes":12,"micros":1500}"#
        );
        assert_eq!(
            record.render(Format::Text),
            "8/8/1p6/1B2k3/5pK1/8/8/8 b - -  white: winnable: 1...Kd4  (12 nodes, 1.5 ms)"
        );
        let analysis = Analysis { verdict: Verdict::Unwinnable(Proof::Exhaustive { nodes: 5 }), nodes: 5 };
        let record = Record::new(1, "x", &pos, Color::Black, &analysis, 7);
        assert!(record.render(Format::Jsonl).contains(r#""verdict":"unwinnable","reason":"exhaustive search"#));
        let error = ErrorRecord { line: 4, input: "a\"\u{1}".into(), error: "bad".into() };
        assert_eq!(error.render(Format::Jsonl), r#"{"line":4,"input":"a\"\u0001","error":"bad"}"#);
        assert_eq!(error.render(Format::Text), "line 4: error: bad");
    }

    #[test]
    fn summary() {
        let mut summary = Summary::default();
        assert_eq!(summary.average_micros(), 0);
        let pos = Position::start();
        for (micros, verdict) in
            [(10, Verdict::Undetermined(search::Cause::NotProved)), (30, Verdict::Winnable { helpmate: vec![] })]
        {
            let analysis = Analysis { verdict, nodes: 0 };
            summary.add(&Record::new(1, "x", &pos, Color::White, &analysis, micros));
        }
        assert_eq!((summary.analyses, summary.average_micros(), summary.max_micros), (2, 20, 30));
        assert_eq!((summary.winnable, summary.undetermined), (1, 1));
        assert_eq!(format_micros(999), "999 us");
        assert_eq!(format_micros(2_500_000), "2.50 s");
    }
}
