//! `unwinnable adjudicate FILE...`: the correct result of every game of
//! PGN files (plain or zstd-compressed, or standard input) or of `FEN
//! moves...` lines, under the FIDE Laws (see the `adjudicate` crate).
//!
//! The run is a pipeline, like `analyze` ([`crate::pipeline`]) but batched
//! (tens of thousands of games a second would drown a channel message per
//! game):
//!
//! * the **reader** opens the inputs one after the other, cuts the text
//!   into games ([`Splitter`]) or lines, and sends batches of them, each
//!   numbered;
//! * each **worker** owns an [`Adjudicator`] (its analyzers and tables),
//!   parses the games of a batch and adjudicates them;
//! * the **writer** (the calling thread) puts the batches back in input
//!   order, writes one record per game (or per malformed game), updates
//!   the progress bar and keeps the [`Summary`].
//!
//! Memory is bounded whatever the input size: a game's text is cut at
//! [`MAX_GAME_BYTES`](adjudicate::pgn::MAX_GAME_BYTES), a batch holds at
//! most [`BATCH_GAMES`] games and [`BATCH_BYTES`] bytes, and the reader
//! takes a ticket per batch that the writer gives back once the batch is
//! written, so at most [`Options::window`] batches are in flight.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, BufRead, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use adjudicate::fen_line::{is_skipped, parse_fen_line};
use adjudicate::input::{self, Kind};
use adjudicate::pgn::{RawGame, Splitter, parse_game};
use adjudicate::{Adjudication, Adjudicator, Evidence, Game, Options as RuleOptions, Rule, Termination};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use movegen::Color;
use search::Config;
use serde::Serialize;

use crate::ordered::{self, InOrder};

/// The most games in one batch.
pub const BATCH_GAMES: usize = 256;
/// The most bytes of game text in one batch (a batch is closed once over).
pub const BATCH_BYTES: usize = 1 << 20;
/// The longest `FEN moves...` line kept (longer ones are errors).
pub const MAX_LINE: usize = 64 << 10;

/// Options of `adjudicate`.
#[derive(Debug, Default, Args)]
pub struct AdjudicateArgs {
    /// Input files: `.pgn`, `.pgn.zst` (recognised by content), or `FEN
    /// [moves] MOVE... [RESULT]` lines in UCI; `-` or nothing for standard
    /// input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Worker threads [default: the number of CPUs].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: AdjudicateFormat,
    /// Write only games whose recorded result is wrong (and malformed games).
    #[arg(long)]
    pub only_wrong: bool,
    /// Check for a dead position after every ply (quick algorithm), as a
    /// server would during play. Default: only where the game ended (then
    /// backwards to the first dead ply): much faster, and the same answer
    /// whenever the quick algorithm's proofs carry over along the game.
    #[arg(long)]
    pub every_ply: bool,
    /// Treat every game as lost on time by this player (Art. 6.9), for
    /// sources without a `Termination "Time forfeit"` tag.
    #[arg(long, value_enum, value_name = "COLOR")]
    pub timeout: Option<FlagArg>,
    /// The most positions searched per timeout analysis [default: 50000000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Transposition table size per thread for timeout analyses, in MiB
    /// [default: 64].
    #[arg(long = "tt-mb", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub tt_mb: Option<u32>,
    /// No progress bar and no summary on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FlagArg {
    /// White ran out of time.
    White,
    /// Black ran out of time.
    Black,
}

impl From<FlagArg> for Color {
    fn from(flag: FlagArg) -> Color {
        match flag {
            FlagArg::White => Color::White,
            FlagArg::Black => Color::Black,
        }
    }
}

/// The output format of `adjudicate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum AdjudicateFormat {
    /// One readable line per game.
    #[default]
    Text,
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header line.
    Csv,
}

/// How to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The rules' analyses.
    pub rules: RuleOptions,
    /// Every game is a timeout of this player.
    pub timeout: Option<Color>,
    /// Output format.
    pub format: AdjudicateFormat,
    /// Only wrong results (and errors).
    pub only_wrong: bool,
    /// Worker threads.
    pub threads: usize,
    /// The most batches in flight.
    pub window: usize,
    /// Show a progress bar (only drawn on a terminal).
    pub progress: bool,
}

impl Options {
    /// The options of `args`.
    pub fn from_args(args: &AdjudicateArgs) -> Options {
        let mut timeout = Config::default();
        if let Some(nodes) = args.nodes {
            timeout.limits.nodes = nodes;
        }
        if let Some(tt_mb) = args.tt_mb {
            timeout.limits.tt_mb = usize::try_from(tt_mb).unwrap_or(usize::MAX);
        }
        let threads =
            args.threads.map_or_else(|| thread::available_parallelism().map_or(1, usize::from), usize::from).max(1);
        Options {
            rules: RuleOptions { every_ply: args.every_ply, timeout, ..RuleOptions::batch() },
            timeout: args.timeout.map(Color::from),
            format: args.format,
            only_wrong: args.only_wrong,
            threads,
            window: 2 * threads + 2,
            progress: !args.quiet,
        }
    }
}

/// The record of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// The input (file name, `-` for standard input).
    pub input: String,
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
}

impl GameRecord {
    /// The record of `adjudication` of `game`.
    pub fn new(input: &str, number: u64, offset: u64, game: &Game, adjudication: &Adjudication) -> GameRecord {
        let (helpmate, nodes) = match &adjudication.explanation.evidence {
            Evidence::Helpmate { san, nodes, .. } => (Some(san.clone()), Some(*nodes)),
            Evidence::Unwinnable { nodes, .. } | Evidence::Undetermined { nodes } => (None, Some(*nodes)),
            _ => (None, None),
        };
        let claim_ply = |claim: Option<adjudicate::Claim>| claim.map(|c| c.ply);
        GameRecord {
            input: input.to_string(),
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
        }
    }

    /// The record in `format`, without a line terminator.
    pub fn render(&self, format: AdjudicateFormat) -> String {
        match format {
            AdjudicateFormat::Jsonl => to_json(self),
            AdjudicateFormat::Csv => csv_row(&[
                &self.input,
                &self.game.to_string(),
                &self.offset.to_string(),
                &self.id,
                &self.recorded,
                &self.correct,
                if self.wrong { "wrong" } else { "ok" },
                self.rule,
                self.article,
                &self.ply.to_string(),
                &self.void_moves.to_string(),
                &self.threefold_claimable.map_or(String::new(), |p| p.to_string()),
                &self.fifty_moves_claimable.map_or(String::new(), |p| p.to_string()),
                &self.fen,
                &self.explanation,
            ]),
            AdjudicateFormat::Text => {
                let mut text = format!(
                    "{} {}: recorded {}, correct {}{} by {}",
                    location(&self.input, self.game),
                    self.id,
                    self.recorded,
                    self.correct,
                    if self.wrong { " (WRONG)" } else { "" },
                    self.rule,
                );
                if !self.article.is_empty() {
                    let _ = write!(text, " (Art. {})", self.article);
                }
                let _ = write!(text, " at ply {}", self.ply);
                if self.void_moves > 0 {
                    let _ = write!(text, ", {} void moves after", self.void_moves);
                }
                let _ = write!(text, ": {}", self.explanation);
                text
            }
        }
    }
}

/// A game (or line, or input) that could not be adjudicated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameError {
    /// The input.
    pub input: String,
    /// The game's number in its input (0: the input itself).
    pub game: u64,
    /// The byte offset of the game.
    pub offset: u64,
    /// What is wrong.
    pub error: String,
}

impl GameError {
    /// The record in `format`, without a line terminator.
    pub fn render(&self, format: AdjudicateFormat) -> String {
        match format {
            AdjudicateFormat::Jsonl => to_json(self),
            AdjudicateFormat::Csv => csv_row(&[
                &self.input,
                &self.game.to_string(),
                &self.offset.to_string(),
                "",
                "",
                "",
                "error",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                &self.error,
            ]),
            AdjudicateFormat::Text => {
                format!("{} (byte {}): error: {}", location(&self.input, self.game), self.offset, self.error)
            }
        }
    }
}

/// The header line of the CSV format.
pub const CSV_HEADER: &str = "input,game,offset,id,recorded,correct,status,rule,article,ply,void_moves,\
threefold_claimable,fifty_moves_claimable,fen,explanation";

fn location(input: &str, game: u64) -> String {
    format!("{input}#{game}")
}

fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\": {:?}}}", e.to_string()))
}

/// One CSV row (RFC 4180 quoting).
fn csv_row(fields: &[&str]) -> String {
    let mut row = String::new();
    for (index, field) in fields.iter().enumerate() {
        if index > 0 {
            row.push(',');
        }
        if field.contains([',', '"', '\n', '\r']) {
            row.push('"');
            row.push_str(&field.replace('"', "\"\""));
            row.push('"');
        } else {
            row.push_str(field);
        }
    }
    row
}

/// The counts of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games adjudicated.
    pub games: u64,
    /// Malformed games (and unreadable inputs).
    pub errors: u64,
    /// Games whose recorded result is wrong, by rule.
    pub wrong: BTreeMap<&'static str, u64>,
    /// Games by deciding rule.
    pub by_rule: BTreeMap<&'static str, u64>,
    /// Timeouts the analysis could not decide.
    pub undecided: u64,
    /// Inputs that could not be opened or read to their end (each also
    /// counts as an error record): the run failed.
    pub unreadable: u64,
    /// Bytes of game text read (decompressed).
    pub bytes: u64,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl Summary {
    fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        *self.by_rule.entry(record.rule).or_default() += 1;
        if record.wrong {
            *self.wrong.entry(record.rule).or_default() += 1;
        }
        if record.correct == "*" && record.rule == Rule::Timeout.name() {
            self.undecided += 1;
        }
    }

    /// Games whose recorded result is wrong.
    pub fn wrong_total(&self) -> u64 {
        self.wrong.values().sum()
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        write!(f, "{} games, {} errors, {} results changed by rule", self.games, self.errors, self.wrong_total())?;
        if !self.wrong.is_empty() {
            f.write_str(" (")?;
            for (index, (rule, count)) in self.wrong.iter().enumerate() {
                write!(f, "{}{rule} {count}", if index > 0 { ", " } else { "" })?;
            }
            f.write_str(")")?;
        }
        if self.undecided > 0 {
            write!(f, ", {} timeouts undecided (search limit)", self.undecided)?;
        }
        if self.unreadable > 0 {
            write!(f, ", {} inputs could not be read to their end", self.unreadable)?;
        }
        if seconds > 0.0 {
            write!(
                f,
                "; {:.1} s, {:.0} games/s, {:.1} MB/s",
                seconds,
                self.games as f64 / seconds,
                self.bytes as f64 / 1e6 / seconds
            )?;
        }
        Ok(())
    }
}

/// One unit of work.
enum Item {
    Pgn(RawGame),
    Line {
        number: u64,
        offset: u64,
        text: Result<String, String>,
    },
    /// An input that could not be opened or read further.
    InputError {
        game: u64,
        offset: u64,
        error: String,
    },
}

struct Batch {
    seq: u64,
    input: Arc<str>,
    items: Vec<Item>,
}

enum Output {
    Game(Box<GameRecord>),
    Error(GameError),
    /// An input that could not be opened or read to its end.
    InputError(GameError),
}

struct Done {
    seq: u64,
    outputs: Vec<Output>,
}

/// Shared counters for the progress bar.
#[derive(Debug, Default)]
struct Counters {
    /// Bytes read from the files (compressed, for `.zst`).
    raw: Arc<AtomicU64>,
    /// Bytes of game text cut (decompressed).
    text: AtomicU64,
}

/// Adjudicates every game of `inputs` (`-` is standard input), writing
/// records to `output` in input order. Returns the summary, or the first
/// error writing the output. An input that cannot be opened or read to its
/// end gets an error record (the records of its games read so far stay),
/// the run goes on with the next input, and [`Summary::unreadable`] counts
/// it: the command then exits with status 1.
pub fn run<W: Write>(inputs: &[PathBuf], output: &mut W, options: &Options) -> io::Result<Summary> {
    let start = Instant::now();
    let inputs: Vec<PathBuf> = if inputs.is_empty() { vec![PathBuf::from("-")] } else { inputs.to_vec() };
    let total: Option<u64> =
        inputs.iter().map(|p| std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len())).sum();
    let window = options.window.max(1);
    let (batch_tx, batch_rx) = mpsc::sync_channel::<Batch>(window);
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let (ticket_tx, ticket_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        let _ = ticket_tx.try_send(());
    }
    let stop = Arc::new(AtomicBool::new(false));
    let counters = Arc::new(Counters::default());
    let batch_rx = Arc::new(Mutex::new(batch_rx));
    let mut workers = Vec::with_capacity(options.threads);
    for index in 0..options.threads.max(1) {
        let (batches, done, stop) = (Arc::clone(&batch_rx), done_tx.clone(), Arc::clone(&stop));
        let (rules, timeout) = (options.rules, options.timeout);
        let worker = thread::Builder::new()
            .name(format!("adjudicate-{index}"))
            .stack_size(crate::STACK_SIZE)
            .spawn(move || work(rules, timeout, &batches, &done, &stop))?;
        workers.push(worker);
    }
    drop(done_tx);
    let reader = {
        let counters = Arc::clone(&counters);
        thread::Builder::new().name("read".into()).spawn(move || read(&inputs, &batch_tx, &ticket_rx, &counters))?
    };
    let progress = progress_bar(options.progress, total);
    let result = write(output, &done_rx, &ticket_tx, options, &progress, &counters, start);
    progress.finish_and_clear();
    if result.is_err() {
        stop.store(true, Ordering::Relaxed);
        drop(ticket_tx);
        drop(done_rx);
        return result;
    }
    for worker in workers {
        let _ = worker.join();
    }
    let _ = reader.join();
    result.map(|mut summary| {
        summary.bytes = counters.text.load(Ordering::Relaxed);
        summary.elapsed = start.elapsed();
        summary
    })
}

fn progress_bar(enabled: bool, total: Option<u64>) -> ProgressBar {
    if !enabled || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match total {
        Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {bytes}/{total_bytes} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {bytes} read, {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        ),
    };
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The reader thread.
fn read(inputs: &[PathBuf], batches: &SyncSender<Batch>, tickets: &Receiver<()>, counters: &Counters) {
    let mut seq = 0;
    for path in inputs {
        let name: Arc<str> = if path.as_os_str() == "-" { "-".into() } else { path.display().to_string().into() };
        let mut batch = Vec::new();
        let mut batch_bytes = 0;
        let mut send = |items: Vec<Item>| -> bool {
            if items.is_empty() {
                return true;
            }
            if tickets.recv().is_err() {
                return false;
            }
            let sent = batches.send(Batch { seq, input: Arc::clone(&name), items }).is_ok();
            seq += 1;
            sent
        };
        let opened = input::open_path(path, Arc::clone(&counters.raw));
        let input = match opened {
            Ok(input) => input,
            Err(e) => {
                let error = format!("cannot open: {e}");
                if !send(vec![Item::InputError { game: 0, offset: 0, error }]) {
                    return;
                }
                continue;
            }
        };
        let mut push = |item: Item, bytes: usize, batch: &mut Vec<Item>, batch_bytes: &mut usize| -> bool {
            counters.text.fetch_add(bytes as u64, Ordering::Relaxed);
            batch.push(item);
            *batch_bytes += bytes;
            if batch.len() >= BATCH_GAMES || *batch_bytes >= BATCH_BYTES {
                *batch_bytes = 0;
                return send(std::mem::take(batch));
            }
            true
        };
        match input.kind {
            Kind::Pgn => {
                let mut splitter = Splitter::new(input.reader);
                loop {
                    match splitter.next_game() {
                        Ok(Some(raw)) => {
                            let bytes = raw.bytes.len();
                            if !push(Item::Pgn(raw), bytes, &mut batch, &mut batch_bytes) {
                                return;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            let item = Item::InputError {
                                game: 0,
                                offset: splitter.offset(),
                                error: format!("read error: {e}"),
                            };
                            if !push(item, 0, &mut batch, &mut batch_bytes) {
                                return;
                            }
                            break;
                        }
                    }
                }
            }
            Kind::FenLines => {
                let mut reader = input.reader;
                let (mut number, mut offset) = (0u64, 0u64);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    let read = read_line(&mut reader, &mut line);
                    let (len, complete) = match read {
                        Ok((0, _)) => break,
                        Ok(read) => read,
                        Err(e) => {
                            let item = Item::InputError { game: number + 1, offset, error: format!("read error: {e}") };
                            let _ = push(item, 0, &mut batch, &mut batch_bytes);
                            break;
                        }
                    };
                    number += 1;
                    let text = if !complete {
                        Err(format!("line too long ({len} bytes, at most {MAX_LINE})"))
                    } else {
                        match std::str::from_utf8(&line) {
                            Ok(text) if is_skipped(text) => {
                                offset += len as u64;
                                continue;
                            }
                            Ok(text) => Ok(text.trim().to_string()),
                            Err(_) => Err("the line is not valid UTF-8 text".to_string()),
                        }
                    };
                    if !push(Item::Line { number, offset, text }, len, &mut batch, &mut batch_bytes) {
                        return;
                    }
                    offset += len as u64;
                }
            }
        }
        if !send(std::mem::take(&mut batch)) {
            return;
        }
    }
}

/// Reads one line into `line` (at most [`MAX_LINE`] bytes kept): the bytes
/// the line took, and whether it was kept whole.
fn read_line<R: BufRead + ?Sized>(reader: &mut R, line: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    let mut total = 0;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((total, total <= MAX_LINE));
        }
        let (used, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(n) => (n + 1, true),
            None => (buf.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&buf[..used.min(room)]);
        total += used;
        reader.consume(used);
        if end {
            return Ok((total, total <= MAX_LINE + 1));
        }
    }
}

/// A worker thread.
fn work(
    rules: RuleOptions,
    timeout: Option<Color>,
    batches: &Mutex<Receiver<Batch>>,
    done: &Sender<Done>,
    stop: &AtomicBool,
) {
    let mut adjudicator = Adjudicator::new(rules);
    loop {
        let batch = match batches.lock() {
            Ok(batches) => batches.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        let Ok(batch) = batch else { return };
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let outputs =
            batch.items.into_iter().map(|item| process(&mut adjudicator, rules, timeout, &batch.input, item)).collect();
        if done.send(Done { seq: batch.seq, outputs }).is_err() {
            return;
        }
    }
}

fn process(
    adjudicator: &mut Adjudicator,
    rules: RuleOptions,
    timeout: Option<Color>,
    input: &str,
    item: Item,
) -> Output {
    let error = |game, offset, error| Output::Error(GameError { input: input.to_string(), game, offset, error });
    let (number, offset, mut game) = match item {
        Item::InputError { game, offset, error } => {
            return Output::InputError(GameError { input: input.to_string(), game, offset, error });
        }
        Item::Pgn(raw) => match parse_game(&raw) {
            Ok(parsed) => (raw.number, raw.offset, parsed.game),
            Err(e) => return error(e.game, e.offset, format!("at byte {}: {}", e.at, e.reason)),
        },
        Item::Line { number, offset, text } => match text.and_then(|t| parse_fen_line(&t).map_err(|e| e.to_string())) {
            Ok(game) => (number, offset, game.with_id(format!("line {number}"))),
            Err(e) => return error(number, offset, e),
        },
    };
    if let Some(flagged) = timeout {
        game.termination = Termination::TimeForfeit { flagged: Some(flagged) };
    }
    match catch_unwind(AssertUnwindSafe(|| adjudicator.adjudicate(&game))) {
        Ok(adjudication) => Output::Game(Box::new(GameRecord::new(input, number, offset, &game, &adjudication))),
        Err(_) => {
            // A bug in the analysis, not in the input: report it for this
            // game and go on with a fresh adjudicator.
            *adjudicator = Adjudicator::new(rules);
            error(number, offset, "internal error: the adjudication panicked".to_string())
        }
    }
}

/// The writer: batches back in input order.
fn write<W: Write>(
    output: &mut W,
    done: &Receiver<Done>,
    tickets: &SyncSender<()>,
    options: &Options,
    progress: &ProgressBar,
    counters: &Counters,
    start: Instant,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let mut in_order = InOrder::default();
    let mut last_update = Instant::now();
    if options.format == AdjudicateFormat::Csv {
        writeln!(output, "{CSV_HEADER}")?;
    }
    while let Some(item) = ordered::receive(done, output)? {
        in_order.push(item.seq, item.outputs);
        while let Some(outputs) = in_order.pop_ready() {
            for out in outputs {
                match out {
                    Output::Game(record) => {
                        summary.add(&record);
                        if !options.only_wrong || record.wrong {
                            writeln!(output, "{}", record.render(options.format))?;
                        }
                    }
                    Output::Error(error) => {
                        summary.errors += 1;
                        writeln!(output, "{}", error.render(options.format))?;
                    }
                    Output::InputError(error) => {
                        summary.errors += 1;
                        summary.unreadable += 1;
                        writeln!(output, "{}", error.render(options.format))?;
                    }
                }
            }
            // The reader may have stopped: then the ticket is not needed.
            let _ = tickets.try_send(());
        }
        if last_update.elapsed() >= Duration::from_millis(100) && !progress.is_hidden() {
            last_update = Instant::now();
            let seconds = start.elapsed().as_secs_f64().max(1e-9);
            progress.set_position(counters.raw.load(Ordering::Relaxed));
            progress.set_message(format!(
                "{} games {:.0}/s, {} errors, {} wrong",
                summary.games,
                summary.games as f64 / seconds,
                summary.errors,
                summary.wrong_total()
            ));
        }
    }
    output.flush()?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quoting() {
        assert_eq!(csv_row(&["a", "b,c", "d\"e", ""]), "a,\"b,c\",\"d\"\"e\",");
        assert_eq!(CSV_HEADER.split(',').count(), 15);
        let error = GameError { input: "x.pgn".into(), game: 3, offset: 10, error: "bad, \"SAN\"".into() };
        assert_eq!(error.render(AdjudicateFormat::Csv).split(',').count(), 16);
        assert_eq!(error.render(AdjudicateFormat::Text), "x.pgn#3 (byte 10): error: bad, \"SAN\"");
    }
}
