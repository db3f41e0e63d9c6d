//! `analyze`: queries from a reader, records in input order, analysed by
//! a [`Pool`] of workers, each with its own [`search::Analyzer`] (see
//! [`crate::ordered`] for the stream). The command's `analyze` and the
//! service's batches run it; the Python package's `analyze_many` runs its
//! step ([`analyze_query`]) on the same pool.
//!
//! Each line is read with [`LineReader`] and parsed with [`parse_query`];
//! a rejected line becomes an [`ErrorRecord`] in its place. The lines
//! are analysed in batches ([`Batch`]): up to [`BATCH_LINES`] lines that
//! were read without waiting for more input make one job, so a stream of
//! quick queries does not pay for a hand-over between threads at every
//! line, and a query typed at a terminal is analysed at once.

mod record;

use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

use movegen::{Color, Position, Unreachable};
use search::{Analysis, Analyzer, Config};

pub use record::{ANALYSIS_COLUMNS, ErrorRecord, Record};

use crate::lines::{Line, LineReader, MAX_LINE};
use crate::memory::{MemoryError, Workload};
use crate::options::{ProofOptions, QueryOptions, SearchOptions, ThreadOptions, Winners};
use crate::ordered::{self, Process, Sink, Source};
use crate::output::Format;
use crate::pool::Pool;
use crate::query::{Query, is_skipped, parse_query};
use crate::summary::Summary;
pub use crate::writer::Writer;

/// How to run an analysis.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The search configuration of every worker's analyzer.
    pub config: Config,
    /// Overrides the winners named on the lines (see [`Query::colors`]).
    pub winners: Option<Winners>,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Bytes of queries in flight (read but not yet written).
    pub window_bytes: usize,
    /// Reject positions that no game can reach (`--strict`) instead of
    /// analysing them with a note.
    pub strict: bool,
    /// Play every position as Chess960 (`--chess960`): castling in UCI as
    /// the king taking its rook.
    pub chess960: bool,
    /// Add each verdict's certificate to its record (`--certificate`).
    pub certificate: bool,
}

impl Options {
    /// The options of a run: the memory budget of `search` planned for
    /// `threads` (at most `queries` threads, when the number of queries is
    /// known and smaller: each thread then gets a larger share).
    pub fn new(
        search: &SearchOptions,
        threads: &ThreadOptions,
        query: &QueryOptions,
        proof: &ProofOptions,
        queries: Option<usize>,
    ) -> Result<Options, MemoryError> {
        let mut plan = search.plan(threads.get(), Workload::Analyze)?;
        if let Some(count) = queries.filter(|&count| count >= 1 && count < plan.threads) {
            plan = search.plan(Some(count), Workload::Analyze)?;
        }
        Ok(Options {
            config: search.config(plan.analyzer_mb),
            winners: query.winner,
            threads: plan.threads,
            window_bytes: plan.window_bytes,
            strict: proof.strict,
            chess960: query.chess960,
            certificate: proof.certificate,
        })
    }

    /// Options for `config` on `threads` threads, with a window of 4 MiB.
    pub fn with_config(config: Config, winners: Option<Winners>, threads: usize) -> Options {
        Options {
            config,
            winners,
            threads: threads.max(1),
            window_bytes: 4 << 20,
            strict: false,
            chess960: false,
            certificate: false,
        }
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
        /// Why no game can reach the position, if it cannot.
        unreachable: Vec<Unreachable>,
    },
    /// A rejected line.
    Rejected(ErrorRecord),
}

impl Item {
    /// The item of `query`, parsed from `input` on line `line`: analysed
    /// for its colours (`winners` overriding those it names), or rejected
    /// if `strict` and no game can reach its position.
    pub fn from_query(line: usize, input: &str, query: Query, winners: Option<Winners>, strict: bool) -> Item {
        let colors = query.colors(winners);
        let query = if strict {
            match query.strict() {
                Ok(query) => query,
                Err(e) => {
                    return Item::Rejected(ErrorRecord {
                        line,
                        input: crate::lines::shorten(input),
                        error: e.to_string(),
                    });
                }
            }
        } else {
            query
        };
        Item::Query { line, fen: query.fen, position: query.position, colors, unreachable: query.unreachable }
    }
}

/// The most lines in one job ([`Queries`] as a [`Source`]).
///
/// A line handed to a worker alone cost five waits and wake-ups between
/// the reader, the worker and the writer (`strace -c`: 146,853 `futex`
/// calls for the 30,000 corpus lines), more than the analysis of most
/// of them: `unwinnable --threads 1` took 1.51 s of wall time for 0.67 s
/// of analyses. Batches start at one line and grow with the input
/// (`batch_lines`), so a short input (a few positions given as
/// arguments, a file of heavy ones) is still spread over every worker; in
/// a long stream a heavy query holds back at most fifteen others on its
/// worker.
pub const BATCH_LINES: usize = 16;

/// The most lines of the next batch when `queries_read` queries have been
/// read for `workers` workers: one per batch for the first eight batches
/// of each worker, then one more for every eight more, up to
/// [`BATCH_LINES`]. Before, batches of sixteen from the first line left
/// one of two workers idle on inputs of sixteen lines or fewer (eight
/// heavy positions given as arguments: 0.32 s of wall time with one line
/// per job, 0.51 s).
fn batch_lines(queries_read: usize, workers: usize) -> usize {
    (queries_read / (8 * workers.max(1))).clamp(1, BATCH_LINES)
}

/// Lines read together and analysed by one job, in order.
#[derive(Debug)]
pub struct Batch(Vec<Item>);

impl Batch {
    /// A batch of `items`, analysed by one job in order.
    pub fn new(items: Vec<Item>) -> Batch {
        Batch(items)
    }
}

/// The queries of a reader, one per line.
#[derive(Debug)]
pub struct Queries<R> {
    lines: LineReader<R>,
    winners: Option<Winners>,
    /// An error met after a batch's first line: returned after the batch.
    error: Option<io::Error>,
    /// The workers the batches are for ([`batch_lines`]).
    workers: usize,
    /// Queries and rejected lines read so far.
    queries_read: usize,
    /// Unreachable positions are errors.
    strict: bool,
    /// Positions are played as Chess960.
    chess960: bool,
}

impl<R: BufRead> Queries<R> {
    /// The queries of `input`, in batches for `workers` workers; `winners`
    /// overrides the lines' colours.
    pub fn new(input: R, winners: Option<Winners>, workers: usize) -> Queries<R> {
        Queries {
            lines: LineReader::new(input),
            winners,
            error: None,
            workers,
            queries_read: 0,
            strict: false,
            chess960: false,
        }
    }

    /// Rejects the positions no game can reach (`--strict`).
    pub fn strict(mut self, strict: bool) -> Queries<R> {
        self.strict = strict;
        self
    }

    /// Plays every position as Chess960 (`--chess960`).
    pub fn chess960(mut self, chess960: bool) -> Queries<R> {
        self.chess960 = chess960;
        self
    }

    /// The next line as a query or rejected line with its cost for the
    /// window, `Some(None)` for a blank or comment line, `None` at the end.
    fn next_line_item(&mut self) -> io::Result<Option<Option<(Item, usize)>>> {
        if let Some((line, text)) = self.lines.next_line()? {
            let error = |error: String| Item::Rejected(ErrorRecord { line, input: text.quote(), error });
            let item = match &text {
                Line::Text(text) if is_skipped(text) => return Ok(Some(None)),
                Line::Text(text) => match parse_query(text) {
                    Ok(query) => Item::from_query(line, text, query.chess960(self.chess960), self.winners, self.strict),
                    Err(e) => error(e.to_string()),
                },
                Line::TooLong { len, .. } => error(format!("line too long ({len} bytes, at most {MAX_LINE})")),
                Line::NotUtf8 { .. } => error("line is not valid UTF-8 text".to_string()),
            };
            let cost = match &text {
                Line::Text(text) => text.len(),
                _ => 0,
            };
            return Ok(Some(Some((item, cost + RECORD_BYTES))));
        }
        Ok(None)
    }
}

/// Batches of the lines that were read without waiting for input: a line
/// whose reading left nothing in the reader's buffer ends its batch (a
/// query typed at a terminal is analysed at once, even when a blank or
/// comment line follows it), as does the `batch_lines`th. An error of
/// the reader ends the input after the lines read before it, which are
/// analysed first.
impl<R: BufRead + Send + 'static> Source for Queries<R> {
    type Item = Batch;
    fn next_item(&mut self) -> io::Result<Option<(Batch, usize)>> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let (mut items, mut cost) = (Vec::new(), 0usize);
        let most = batch_lines(self.queries_read, self.workers);
        while items.len() < most {
            match self.next_line_item() {
                Ok(Some(line)) => {
                    if let Some((item, bytes)) = line {
                        items.push(item);
                        cost = cost.saturating_add(bytes);
                        self.queries_read += 1;
                    }
                    // After every line, a skipped one too: the next read
                    // may wait for input that only comes after an answer.
                    if !items.is_empty() && !self.lines.has_buffered() {
                        break;
                    }
                }
                Ok(None) => break,
                Err(error) if items.is_empty() => return Err(error),
                Err(error) => {
                    self.error = Some(error);
                    break;
                }
            }
        }
        Ok((!items.is_empty()).then_some((Batch(items), cost)))
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

/// The outputs of a batch's lines, in order.
#[derive(Debug)]
pub struct Outputs(Vec<Output>);

impl IntoIterator for Outputs {
    type Item = Output;
    type IntoIter = std::vec::IntoIter<Output>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// The analyses of a query (the workers' job), with their certificates
/// if `certificate`.
#[derive(Clone, Copy, Debug)]
pub struct Analyze {
    /// Add each verdict's certificate to its record.
    pub certificate: bool,
}

impl Process<Analyzer> for Analyze {
    type Item = Batch;
    type Output = Outputs;

    fn process(&self, analyzer: &mut Analyzer, batch: &Batch) -> Outputs {
        Outputs(
            batch
                .0
                .iter()
                .map(|item| {
                    analyze_item_caught_with(analyzer, item, self.certificate).unwrap_or_else(|panicked| panicked)
                })
                .collect(),
        )
    }

    fn panicked(&self, batch: &Batch) -> Outputs {
        // Outside a line's analysis (those are caught one by one): an error
        // for every line of the batch.
        Outputs(batch.0.iter().map(panicked).collect())
    }
}

/// The output of one line: its analyses (with their certificates if
/// `certificate`), or its error record.
fn analyze_item(analyzer: &mut Analyzer, item: &Item, certificate: bool) -> Output {
    match item {
        Item::Query { line, fen, position, colors, unreachable } => Output::Records(
            analyze_query(analyzer, *line, fen, position, colors, unreachable)
                .into_iter()
                .zip(colors.iter())
                .map(|((mut record, analysis), &winner)| {
                    if certificate {
                        record.certificate = crate::certificate::certificate(position, winner, &analysis.verdict);
                    }
                    record
                })
                .collect(),
        ),
        Item::Rejected(error) => Output::Error(error.clone()),
    }
}

/// The output of one line, its analysis' panic caught: `Err` with the
/// line's error record if it panicked (a bug in the analysis, not in the
/// input), after which the analyzer is reset for the next line. The
/// command and the service's batches use it, so that one line's panic
/// costs no other line of the batch its answer.
pub fn analyze_item_caught(analyzer: &mut Analyzer, item: &Item) -> Result<Output, Output> {
    analyze_item_caught_with(analyzer, item, false)
}

/// [`analyze_item_caught`], with the certificates of the verdicts in their
/// records if `certificate` (their production is caught too).
pub fn analyze_item_caught_with(analyzer: &mut Analyzer, item: &Item, certificate: bool) -> Result<Output, Output> {
    caught(analyzer, item, |analyzer, item| analyze_item(analyzer, item, certificate))
}

/// `analyze` on `item`, its panic caught ([`analyze_item_caught`]).
fn caught(
    analyzer: &mut Analyzer,
    item: &Item,
    analyze: impl FnOnce(&mut Analyzer, &Item) -> Output,
) -> Result<Output, Output> {
    catch_unwind(AssertUnwindSafe(|| analyze(analyzer, item))).map_err(|_| {
        analyzer.reset();
        panicked(item)
    })
}

/// The output of a line whose analysis panicked: an error for a query.
fn panicked(item: &Item) -> Output {
    match item {
        Item::Query { line, fen, .. } => Output::Error(ErrorRecord {
            line: *line,
            input: fen.clone(),
            error: "internal error: the analysis panicked".to_string(),
        }),
        Item::Rejected(error) => Output::Error(error.clone()),
    }
}

/// The analyses of `position` (written `fen`, on input line `line`) for
/// each of `colors`: the record of each (noting why no game reaches the
/// position, if `unreachable` says so), with the analysis it was made of
/// (for callers that show more of it, such as the service's drawn proofs).
pub fn analyze_query(
    analyzer: &mut Analyzer,
    line: usize,
    fen: &str,
    position: &Position,
    colors: &[Color],
    unreachable: &[Unreachable],
) -> Vec<(Record, Analysis)> {
    colors
        .iter()
        .map(|&winner| {
            let start = Instant::now();
            let analysis = analyzer.analyze(position, winner);
            let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
            let mut record = Record::new(line, fen, position, winner, &analysis, micros);
            record.unreachable = crate::query::unreachable_text(unreachable);
            (record, analysis)
        })
        .collect()
}

impl<W: Write> Sink<Outputs> for Writer<W> {
    fn write(&mut self, outputs: Outputs) -> io::Result<()> {
        for output in outputs.0 {
            match output {
                Output::Records(records) => {
                    for record in &records {
                        self.summary.add(record.verdict, record.cause.is_some(), record.micros);
                        self.write(record)?;
                    }
                }
                Output::Error(error) => {
                    self.summary.errors += 1;
                    self.write(&error)?;
                }
            }
        }
        self.batch_written();
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        self.flush()
    }
}

/// Runs the analysis of every query of `input` and hands the outputs of
/// each batch to `sink`, in input order. Returns the first I/O error
/// (reading the input or of the sink; the run stops there).
pub fn run<R, K>(input: R, options: &Options, sink: &mut K) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    K: Sink<Outputs>,
{
    let config = options.config;
    let pool = Pool::new("analyze", options.threads, 2 * options.threads, move |_, stop| {
        let mut analyzer = Analyzer::new(config);
        analyzer.set_stop_flag(Arc::clone(stop));
        analyzer
    })?;
    let queries =
        Queries::new(input, options.winners, options.threads).strict(options.strict).chess960(options.chess960);
    ordered::run(&pool, queries, Analyze { certificate: options.certificate }, sink, options.window_bytes)
}

/// [`run`] with a [`Writer`] of `format` to `output`: the summary of the
/// run, its elapsed time set.
pub fn run_to<R, W>(input: R, output: W, format: Format, options: &Options) -> io::Result<Summary>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let start = Instant::now();
    let mut writer = Writer::analyses(output, format)?;
    run(input, options, &mut writer)?;
    writer.summary.elapsed = start.elapsed();
    Ok(writer.summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn run_text(input: &str, threads: usize, window_bytes: usize) -> (String, Summary) {
        let mut options = Options::with_config(Config::default(), None, threads);
        options.window_bytes = window_bytes;
        let mut out = Vec::new();
        let summary = run_to(Cursor::new(input.to_string()), &mut out, Format::Jsonl, &options).unwrap();
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

    /// A line whose analysis panics is answered with its error record and
    /// the analyzer is reset; the next line is analysed as usual (K+Q v K:
    /// White mates, Black's bare king cannot).
    #[test]
    fn a_panic_answers_its_own_line_only() {
        let fen = "4k3/8/8/8/8/8/8/4KQ2 b - -";
        let item = |line| Item::Query {
            line,
            fen: fen.to_string(),
            position: fen.parse().unwrap(),
            colors: &Color::ALL,
            unreachable: Vec::new(),
        };
        let mut analyzer = Analyzer::new(Config::default());
        match caught(&mut analyzer, &item(1), |_, _| panic!("a bug in the analysis")) {
            Err(Output::Error(error)) => assert_eq!(
                (error.line, error.input.as_str(), error.error.as_str()),
                (1, fen, "internal error: the analysis panicked")
            ),
            other => panic!("{other:?}"),
        }
        match analyze_item_caught(&mut analyzer, &item(2)) {
            Ok(Output::Records(records)) => {
                let answers: Vec<_> = records.iter().map(|r| (r.line, r.winner, r.verdict)).collect();
                assert_eq!(answers, [(2, "white", "winnable"), (2, "black", "unwinnable")]);
            }
            other => panic!("{other:?}"),
        }
    }

    /// The input line numbers of each batch of `queries`.
    fn batches(queries: &mut Queries<impl BufRead + Send + 'static>) -> Vec<Vec<usize>> {
        let line = |item: &Item| match item {
            Item::Query { line, .. } => *line,
            Item::Rejected(error) => error.line,
        };
        std::iter::from_fn(|| queries.next_item().unwrap())
            .map(|(batch, _)| batch.0.iter().map(line).collect())
            .collect()
    }

    /// The sizes of the batches of `queries`.
    fn batch_sizes(queries: &mut Queries<impl BufRead + Send + 'static>) -> Vec<usize> {
        batches(queries).iter().map(Vec::len).collect()
    }

    /// Lines read together make batches, every line once and in order,
    /// skipped lines left out and rejected lines kept: single lines at
    /// first (a short input is spread over the workers), then larger
    /// batches, never more than [`BATCH_LINES`] lines.
    #[test]
    fn lines_read_together_make_batches() {
        let mut input = String::from("# comment\n\nnonsense\n");
        for _ in 0..999 {
            input.push_str("4k3/8/8/8/8/8/8/4K3 w - -\n");
        }
        for workers in [1, 2] {
            let got = batches(&mut Queries::new(Cursor::new(input.clone()), None, workers));
            assert_eq!(got.concat(), (3..1003).collect::<Vec<_>>(), "{workers} workers");
            let sizes: Vec<usize> = got.iter().map(Vec::len).collect();
            assert!(sizes[..8 * workers].iter().all(|&n| n == 1), "{workers} workers: {sizes:?}");
            assert!(sizes.iter().all(|&n| n <= BATCH_LINES), "{workers} workers: {sizes:?}");
            assert_eq!(sizes[sizes.len() - 2], BATCH_LINES, "{workers} workers: {sizes:?}");
        }
    }

    /// A query followed in the same read by a blank or a comment line is
    /// answered without reading again: the skipped line empties the buffer
    /// and ends the batch (a client that sends a query and a blank line and
    /// waits for the answer would otherwise wait for ever).
    #[test]
    fn a_skipped_line_that_empties_the_buffer_ends_the_batch() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        /// Gives its text at the first read, and counts every read.
        struct Once(&'static [u8], Arc<AtomicUsize>);
        impl io::Read for Once {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.1.fetch_add(1, Ordering::SeqCst);
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        for text in [&b"4k3/8/8/8/8/8/8/4K3 w - -\n\n"[..], b"4k3/8/8/8/8/8/8/4K3 w - -\n# note\n"] {
            let reads = Arc::new(AtomicUsize::new(0));
            let mut queries = Queries::new(io::BufReader::new(Once(text, Arc::clone(&reads))), None, 1);
            queries.queries_read = 1000;
            let (batch, _) = queries.next_item().unwrap().expect("the query");
            assert_eq!((batch.0.len(), reads.load(Ordering::SeqCst)), (1, 1));
        }
    }

    /// Input that arrives a line at a time (a terminal, a pipe fed by
    /// another program): each line is its own batch, analysed at once
    /// instead of waiting for the next line.
    #[test]
    fn a_line_that_empties_the_buffer_ends_its_batch() {
        /// Gives one line per read.
        struct LineAtATime(Vec<&'static [u8]>);
        impl io::Read for LineAtATime {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let Some(line) = self.0.pop() else { return Ok(0) };
                buf[..line.len()].copy_from_slice(line);
                Ok(line.len())
            }
        }
        let lines = vec![&b"4k3/8/8/8/8/8/8/4K3 w - -\n"[..]; 5];
        let mut queries = Queries::new(io::BufReader::new(LineAtATime(lines)), None, 1);
        // Past the single-line batches of a stream's start.
        queries.queries_read = 1000;
        assert_eq!(batch_sizes(&mut queries), [1, 1, 1, 1, 1]);
    }

    /// An error of the reader in the middle of a batch (after two whole
    /// lines and part of the next): the lines before it make the batch,
    /// then the error ends the input; the whole run writes their records
    /// and then fails with the error.
    #[test]
    fn a_read_error_comes_after_the_lines_before_it() {
        struct FailsAfter(&'static [u8]);
        impl io::Read for FailsAfter {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("the disk is gone"));
                }
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let text = b"4k3/8/8/8/8/8/8/4K3 w - -\n4k3/8/8/8/8/8/8/4KQ2 b - -\n4k3/8/8";
        let mut queries = Queries::new(io::BufReader::new(FailsAfter(text)), None, 1);
        queries.queries_read = 1000;
        let (batch, _) = queries.next_item().unwrap().expect("the lines before the error");
        assert_eq!(batch.0.len(), 2);
        assert_eq!(queries.next_item().unwrap_err().to_string(), "the disk is gone");
        let options = Options::with_config(Config::default(), None, 2);
        let mut out = Vec::new();
        let error = run_to(io::BufReader::new(FailsAfter(text)), &mut out, Format::Jsonl, &options).unwrap_err();
        assert_eq!(error.to_string(), "the disk is gone");
        let lines: Vec<String> = String::from_utf8(out).unwrap().lines().map(str::to_string).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with(r#"{"line":1,"#) && lines[1].starts_with(r#"{"line":2,"#), "{lines:?}");
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
        let options = Options::with_config(Config::default(), None, 2);
        let error = run_to(Cursor::new(input), Broken, Format::Text, &options).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
