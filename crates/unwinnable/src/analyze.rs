//! `unwinnable analyze`: queries from a reader, records to a writer, in
//! input order, analysed by a [`Pool`] of workers, each with its own
//! [`search::Analyzer`] (see [`crate::ordered`] for the stream).
//!
//! Each line is read with [`LineReader`] and parsed with [`parse_query`];
//! a rejected line becomes an [`ErrorRecord`] in its place. A query's
//! analyses (one per colour asked for) make one job.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use movegen::{Color, Position};
use search::{Analysis, Analyzer, Config};

use crate::input::{Line, LineReader, MAX_LINE};
use crate::ordered::{self, Process, Sink, Source};
use crate::output::{Format, RecordWriter};
use crate::pool::Pool;
use crate::progress::Progress;
use crate::query::{Winners, is_skipped, parse_query};
use crate::record::{ANALYSIS_COLUMNS, ErrorRecord, Record};
use crate::summary::{Summary, Unit};

/// How to run an analysis.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The search configuration of every worker's analyzer.
    pub config: Config,
    /// Overrides the winners named on the lines (see [`crate::query`]).
    pub winners: Option<Winners>,
    /// The output format.
    pub format: Format,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Bytes of queries in flight (read but not yet written).
    pub window_bytes: usize,
    /// Show a progress display (see [`Progress::wanted`]).
    pub progress: bool,
}

impl Options {
    /// Options with a window of 4 MiB and no progress display.
    pub fn new(config: Config, winners: Option<Winners>, format: Format, threads: usize) -> Options {
        Options { config, winners, format, threads: threads.max(1), window_bytes: 4 << 20, progress: false }
    }
}

/// The estimated bytes of a query's records beyond its line (a helpmate in
/// UCI and SAN, a proof's text).
const RECORD_BYTES: usize = 4 << 10;

/// A numbered line of input: a query, or why it is not one.
#[derive(Debug)]
pub enum Item {
    /// A query.
    Query {
        /// The line number.
        line: usize,
        /// The FEN as given.
        fen: String,
        /// The position.
        position: Position,
        /// The colours to analyse for.
        colors: &'static [Color],
    },
    /// A rejected line.
    Rejected(ErrorRecord),
}

/// The queries of a reader, one per line.
#[derive(Debug)]
pub struct Queries<R> {
    lines: LineReader<R>,
    winners: Option<Winners>,
}

impl<R: BufRead> Queries<R> {
    /// The queries of `input`; `winners` overrides the lines' colours.
    pub fn new(input: R, winners: Option<Winners>) -> Queries<R> {
        Queries { lines: LineReader::new(input), winners }
    }

    /// The next query or rejected line (blank and comment lines skipped),
    /// with its cost for the window.
    pub fn next_query(&mut self) -> io::Result<Option<(Item, usize)>> {
        while let Some((line, text)) = self.lines.next_line()? {
            let error = |error: String| Item::Rejected(ErrorRecord { line, input: text.quote(), error });
            let item = match &text {
                Line::Text(text) if is_skipped(text) => continue,
                Line::Text(text) => match parse_query(text) {
                    Ok(query) => {
                        let colors = query.colors(self.winners);
                        Item::Query { line, fen: query.fen, position: query.position, colors }
                    }
                    Err(e) => error(e.to_string()),
                },
                Line::TooLong { len, .. } => error(format!("line too long ({len} bytes, at most {MAX_LINE})")),
                Line::NotUtf8 { .. } => error("line is not valid UTF-8 text".to_string()),
            };
            let cost = match &text {
                Line::Text(text) => text.len(),
                _ => 0,
            };
            return Ok(Some((item, cost + RECORD_BYTES)));
        }
        Ok(None)
    }
}

impl<R: BufRead + Send + 'static> Source for Queries<R> {
    type Item = Item;
    fn next_item(&mut self) -> io::Result<Option<(Item, usize)>> {
        self.next_query()
    }
}

/// The records of one line.
#[derive(Debug)]
pub enum Output {
    /// One record per colour analysed.
    Records(Vec<Record>),
    /// The line was rejected (or its analysis failed).
    Error(ErrorRecord),
}

/// The analyses of a query (the workers' job).
#[derive(Clone, Copy, Debug)]
pub struct Analyze;

impl Process<Analyzer> for Analyze {
    type Item = Item;
    type Output = Output;

    fn process(&self, analyzer: &mut Analyzer, item: &Item) -> Output {
        match item {
            Item::Query { line, fen, position, colors } => Output::Records(
                analyze_query(analyzer, *line, fen, position, colors).into_iter().map(|(record, _)| record).collect(),
            ),
            Item::Rejected(error) => Output::Error(error.clone()),
        }
    }

    fn panicked(&self, item: &Item) -> Output {
        // A bug in the analysis, not in the input: an error for this query.
        match item {
            Item::Query { line, fen, .. } => Output::Error(ErrorRecord {
                line: *line,
                input: fen.clone(),
                error: "internal error: the analysis panicked".to_string(),
            }),
            Item::Rejected(error) => Output::Error(error.clone()),
        }
    }
}

/// The analyses of `position` (written `fen`, on input line `line`) for
/// each of `colors`: the record of each, with the analysis it was made of
/// (for callers that show more of it, such as the service's drawn proofs).
pub fn analyze_query(
    analyzer: &mut Analyzer,
    line: usize,
    fen: &str,
    position: &Position,
    colors: &[Color],
) -> Vec<(Record, Analysis)> {
    colors
        .iter()
        .map(|&winner| {
            let start = Instant::now();
            let analysis = analyzer.analyze(position, winner);
            let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
            (Record::new(line, fen, position, winner, &analysis, micros), analysis)
        })
        .collect()
}

/// Writes the records and keeps the summary and the progress display.
#[derive(Debug)]
pub struct Writer<W: Write> {
    records: RecordWriter<W>,
    summary: Summary,
    progress: Progress,
}

impl<W: Write> Writer<W> {
    /// A writer of records to `output` in `format`.
    pub fn new(output: W, format: Format, progress: Progress) -> io::Result<Writer<W>> {
        let records = RecordWriter::new(output, format, ANALYSIS_COLUMNS)?;
        Ok(Writer { records, summary: Summary::new(Unit::Analyses), progress })
    }
}

impl<W: Write> Sink<Output> for Writer<W> {
    fn write(&mut self, output: Output) -> io::Result<()> {
        match output {
            Output::Records(records) => {
                for record in &records {
                    self.summary.add(record.verdict, record.cause.is_some(), record.micros);
                    self.records.write(record)?;
                }
            }
            Output::Error(error) => {
                self.summary.errors += 1;
                self.records.write(&error)?;
            }
        }
        self.progress.update(&self.summary);
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        self.records.flush()
    }
}

/// Runs the analysis of every query of `input`, writing the results to
/// `output` in input order. Returns the summary, or the first I/O error
/// (reading the input or writing the output; the run stops there).
pub fn run<R, W>(input: R, output: W, options: &Options) -> io::Result<Summary>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    run_counted(input, None, Arc::default(), output, options)
}

/// [`run`] with a progress display of `total` input bytes (if known), of
/// which `read` counts those read.
pub fn run_counted<R, W>(
    input: R,
    total: Option<u64>,
    read: Arc<AtomicU64>,
    output: W,
    options: &Options,
) -> io::Result<Summary>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let start = Instant::now();
    let config = options.config;
    let pool = Pool::new("analyze", options.threads, 2 * options.threads, move |_, stop| {
        let mut analyzer = Analyzer::new(config);
        analyzer.set_stop_flag(Arc::clone(stop));
        analyzer
    })?;
    let progress = Progress::new(options.progress, total, read);
    let mut writer = Writer::new(output, options.format, progress)?;
    ordered::run(&pool, Queries::new(input, options.winners), Analyze, &mut writer, options.window_bytes)?;
    writer.progress.finish();
    writer.summary.elapsed = start.elapsed();
    Ok(writer.summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn run_text(input: &str, threads: usize, window_bytes: usize) -> (String, Summary) {
        let mut options = Options::new(Config::default(), None, Format::Jsonl, threads);
        options.window_bytes = window_bytes;
        let mut out = Vec::new();
        let summary = run(Cursor::new(input.to_string()), &mut out, &options).unwrap();
        (String::from_utf8(out).unwrap(), summary)
    }

    #[test]
    fn order_errors_and_window() {
        let input = "# comment\n\n4k3/8/8/8/8/8/8/4K3 w - -\nnonsense\n4k3/8/8/8/8/8/8/4KQ2 b - - 0 1 white\n";
        for (threads, window) in [(1, 1), (2, 1), (3, 5000), (2, 1 << 20)] {
            let (out, summary) = run_text(input, threads, window);
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 3, "{out}");
            assert!(
                lines[0].starts_with(
                    r#"{"line":3,"fen":"4k3/8/8/8/8/8/8/4K3 w - -","winner":"black","verdict":"unwinnable""#
                )
            );
            assert!(lines[1].starts_with(r#"{"line":4,"input":"nonsense","error":"invalid FEN"#), "{}", lines[1]);
            assert!(lines[2].contains(r#""winner":"white","verdict":"winnable""#), "{}", lines[2]);
            assert_eq!((summary.records, summary.errors, summary.count("winnable")), (2, 1, 1));
        }
        let (out, summary) = run_text("", 2, 4);
        assert_eq!((out.as_str(), summary.records), ("", 0));
    }

    /// A writer that fails: the run stops with the error, without hanging.
    #[test]
    fn write_errors_stop_the_run() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let input = "4k3/8/8/8/8/8/8/4K3 w - -\n".repeat(1000);
        let options = Options::new(Config::default(), None, Format::Text, 2);
        let error = run(Cursor::new(input), Broken, &options).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
