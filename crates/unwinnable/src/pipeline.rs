//! `unwinnable analyze`: queries from a reader, records to a writer, in
//! input order, analysed by worker threads.
//!
//! Three kinds of threads, connected by channels:
//!
//! * the **reader** reads and parses lines ([`crate::input`],
//!   [`crate::query`]) and numbers the queries; a rejected line goes
//!   straight to the writer as an [`ErrorRecord`], a good one to the
//!   workers;
//! * each **worker** owns a [`search::Analyzer`] (so its own transposition
//!   table) and a stack of [`STACK_SIZE`](crate::STACK_SIZE) bytes;
//! * the **writer** (the calling thread) puts the results back in input
//!   order, writes them, and keeps the [`Summary`].
//!
//! Memory is bounded: the reader takes a *ticket* before reading each
//! query and the writer gives it back once the query's output is written,
//! so at most [`Options::window`] queries are in flight, whatever the size
//! of the input. The writer flushes its output whenever it has nothing
//! more to write, so results appear as soon as they are known (also when
//! queries are typed at a terminal).

use std::io::{self, BufRead, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use movegen::{Color, Position};
use search::{Analyzer, Config};

use crate::input::{Line, LineReader, MAX_LINE};
use crate::ordered::{self, InOrder};
use crate::query::{Winners, is_skipped, parse_query};
use crate::record::{ErrorRecord, Format, Record, Summary};

/// How to run an analysis.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The search configuration of every worker.
    pub config: Config,
    /// Overrides the winners named on the lines (see [`crate::query`]).
    pub winners: Option<Winners>,
    /// The output format.
    pub format: Format,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// The most queries in flight (read but not yet written).
    pub window: usize,
    /// Show a progress line on standard error.
    pub progress: bool,
}

impl Options {
    /// Options with a window of four queries per thread (at least 16).
    pub fn new(config: Config, winners: Option<Winners>, format: Format, threads: usize) -> Options {
        let threads = threads.max(1);
        Options { config, winners, format, threads, window: (4 * threads).max(16), progress: false }
    }
}

/// A query for the workers.
struct Job {
    seq: u64,
    line: usize,
    fen: String,
    position: Position,
    colors: &'static [Color],
}

/// What the writer receives.
struct Done {
    seq: u64,
    output: Output,
}

enum Output {
    Records(Vec<Record>),
    Error(ErrorRecord),
}

/// Runs the analysis of every query of `input`, writing the results to
/// `output` in input order. Returns the summary, or the first I/O error
/// (reading the input or writing the output; the run stops there).
pub fn run<R, W>(input: R, output: &mut W, options: &Options) -> io::Result<Summary>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let options = *options;
    let window = options.window.max(1);
    let (job_tx, job_rx) = mpsc::sync_channel::<Job>(window);
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let (ticket_tx, ticket_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        // The channel has room for exactly `window` tickets.
        let _ = ticket_tx.try_send(());
    }
    let stop = Arc::new(AtomicBool::new(false));
    let job_rx = Arc::new(Mutex::new(job_rx));
    let mut workers = Vec::with_capacity(options.threads);
    for index in 0..options.threads.max(1) {
        let (jobs, done, stop) = (Arc::clone(&job_rx), done_tx.clone(), Arc::clone(&stop));
        let config = options.config;
        let worker = thread::Builder::new()
            .name(format!("analyze-{index}"))
            .stack_size(crate::STACK_SIZE)
            .spawn(move || work(config, &jobs, &done, &stop))?;
        workers.push(worker);
    }
    let reader = {
        let done = done_tx.clone();
        thread::Builder::new()
            .name("read".into())
            .spawn(move || read(input, options.winners, &job_tx, &done, &ticket_rx))?
    };
    drop(done_tx);
    let result = write(output, &done_rx, &ticket_tx, &options);
    if result.is_err() {
        // Stop the workers and let the reader fail on its next ticket; the
        // reader may be blocked reading, so it is not waited for.
        stop.store(true, Ordering::Relaxed);
        drop(ticket_tx);
        drop(done_rx);
        return result;
    }
    for worker in workers {
        let _ = worker.join();
    }
    match reader.join() {
        Ok(Ok(())) => result,
        Ok(Err(e)) => Err(e),
        Err(_) => Err(io::Error::other("the input reader stopped unexpectedly")),
    }
}

/// The reader thread: lines to jobs (or error records), one ticket each.
fn read<R: BufRead>(
    input: R,
    winners: Option<Winners>,
    jobs: &SyncSender<Job>,
    done: &Sender<Done>,
    tickets: &Receiver<()>,
) -> io::Result<()> {
    let mut lines = LineReader::new(input);
    let mut seq = 0u64;
    while let Some((line, text)) = lines.next_line()? {
        let error = |error: String| ErrorRecord { line, input: text.quote(), error };
        let item = match &text {
            Line::Text(text) if is_skipped(text) => continue,
            Line::Text(text) => match parse_query(text) {
                Ok(query) => {
                    let colors = query.colors(winners);
                    Ok(Job { seq, line, fen: query.fen, position: query.position, colors })
                }
                Err(e) => Err(error(e.to_string())),
            },
            Line::TooLong { len, .. } => Err(error(format!("line too long ({len} bytes, at most {MAX_LINE})"))),
            Line::NotUtf8 { .. } => Err(error("line is not valid UTF-8 text".to_string())),
        };
        if tickets.recv().is_err() {
            // The writer has stopped.
            return Ok(());
        }
        let sent = match item {
            Ok(job) => jobs.send(job).is_ok(),
            Err(record) => done.send(Done { seq, output: Output::Error(record) }).is_ok(),
        };
        if !sent {
            return Ok(());
        }
        seq += 1;
    }
    Ok(())
}

/// A worker thread: analyses jobs until there are no more.
fn work(config: Config, jobs: &Mutex<Receiver<Job>>, done: &Sender<Done>, stop: &AtomicBool) {
    let mut analyzer = Analyzer::new(config);
    loop {
        let job = match jobs.lock() {
            Ok(jobs) => jobs.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        let Ok(job) = job else { return };
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let output = analyze_job(&mut analyzer, &job, config);
        if done.send(Done { seq: job.seq, output }).is_err() {
            return;
        }
    }
}

fn analyze_job(analyzer: &mut Analyzer, job: &Job, config: Config) -> Output {
    let mut records = Vec::with_capacity(job.colors.len());
    for &winner in job.colors {
        let start = Instant::now();
        let analysis = catch_unwind(AssertUnwindSafe(|| analyzer.analyze(&job.position, winner)));
        let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
        match analysis {
            Ok(analysis) => {
                records.push(Record::new(job.line, &job.fen, &job.position, winner, &analysis, micros));
            }
            Err(_) => {
                // A bug in the analysis, not in the input: report it for
                // this query and go on with a fresh analyzer.
                *analyzer = Analyzer::new(config);
                let error = format!("internal error: the analysis for {winner} panicked");
                return Output::Error(ErrorRecord { line: job.line, input: job.fen.clone(), error });
            }
        }
    }
    Output::Records(records)
}

/// The writer: results in input order, a ticket back for each.
fn write<W: Write>(
    output: &mut W,
    done: &Receiver<Done>,
    tickets: &SyncSender<()>,
    options: &Options,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let mut in_order = InOrder::default();
    let mut progress = Progress::new(options.progress);
    while let Some(item) = ordered::receive(done, output)? {
        in_order.push(item.seq, item.output);
        while let Some(ready) = in_order.pop_ready() {
            match ready {
                Output::Records(records) => {
                    for record in &records {
                        summary.add(record);
                        writeln!(output, "{}", record.render(options.format))?;
                    }
                }
                Output::Error(error) => {
                    summary.errors += 1;
                    writeln!(output, "{}", error.render(options.format))?;
                }
            }
            let _ = tickets.try_send(());
            progress.update(in_order.handed_on());
        }
    }
    output.flush()?;
    progress.finish();
    Ok(summary)
}

/// The progress line on standard error: queries done and their rate.
struct Progress {
    enabled: bool,
    start: Instant,
    last: Option<Instant>,
}

impl Progress {
    fn new(enabled: bool) -> Progress {
        Progress { enabled: enabled && io::stderr().is_terminal(), start: Instant::now(), last: None }
    }

    fn update(&mut self, done: u64) {
        if !self.enabled || self.last.is_some_and(|last| last.elapsed() < Duration::from_millis(200)) {
            return;
        }
        let now = Instant::now();
        self.last = Some(now);
        let rate = done as f64 / now.duration_since(self.start).as_secs_f64().max(1e-3);
        eprint!("\r\x1b[K{done} queries done ({rate:.1}/s)");
    }

    fn finish(&self) {
        if self.enabled && self.last.is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn run_text(input: &str, threads: usize, window: usize) -> (String, Summary) {
        let mut options = Options::new(Config::default(), None, Format::Jsonl, threads);
        options.window = window;
        let mut out = Vec::new();
        let summary = run(Cursor::new(input.to_string()), &mut out, &options).unwrap();
        (String::from_utf8(out).unwrap(), summary)
    }

    #[test]
    fn order_errors_and_window() {
        let input = "# comment\n\n4k3/8/8/8/8/8/8/4K3 w - -\nnonsense\n4k3/8/8/8/8/8/8/4KQ2 b - - 0 1 white\n";
        for (threads, window) in [(1, 1), (2, 1), (3, 2), (2, 64)] {
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
            assert_eq!((summary.analyses, summary.errors, summary.winnable), (2, 1, 1));
        }
        let (out, summary) = run_text("", 2, 4);
        assert_eq!((out.as_str(), summary.analyses), ("", 0));
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
        let error = run(Cursor::new(input), &mut Broken, &options).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
