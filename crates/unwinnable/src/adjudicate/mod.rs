//! `unwinnable adjudicate FILE...`: the correct result of every game of
//! PGN files (plain or compressed, or standard input) or of `FEN moves...`
//! lines, under the FIDE Laws (see the `adjudicate` crate).
//!
//! The same ordered stream as `analyze` ([`crate::ordered`]) over a
//! [`Pool`] of workers, each owning an [`Adjudicator`] (its analyzers and
//! tables): the reader cuts the inputs into batches of games
//! ([`source`]), the workers parse and adjudicate them, the writer writes
//! one record per game, or per malformed game, in input order
//! ([`record`]), and keeps the [`Summary`] and the progress display.
//!
//! Memory is bounded whatever the input size: a game's text is cut at
//! [`MAX_GAME_BYTES`](adjudicate::pgn::MAX_GAME_BYTES), a batch holds at
//! most [`BATCH_GAMES`](source::BATCH_GAMES) games and about
//! [`Options::batch_bytes`] bytes, and the batches in flight are bounded by
//! the window of the memory plan ([`crate::memory`]).

pub mod record;
pub mod source;

use std::io::{self, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use adjudicate::fen_line::parse_fen_line;
use adjudicate::pgn::parse_game;
use adjudicate::{Adjudicator, Options as RuleOptions, Termination};
use movegen::Color;

use crate::ordered::{self, Process, Sink};
use crate::output::{Format, RecordWriter};
use crate::pool::Pool;
use crate::progress::Progress;
use crate::summary::{Summary, Unit};
use record::{GAME_COLUMNS, GameError, GameRecord};
use source::{Batch, Inputs, Item};

/// How to run.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The rules' analyses.
    pub rules: RuleOptions,
    /// Every game is a timeout of this player.
    pub timeout: Option<Color>,
    /// Output format.
    pub format: Format,
    /// Only wrong results (and errors).
    pub only_wrong: bool,
    /// Worker threads.
    pub threads: usize,
    /// Bytes of input in flight (read but not yet written).
    pub window_bytes: usize,
    /// Bytes of game text per batch.
    pub batch_bytes: usize,
    /// Show a progress display (see [`Progress::wanted`]).
    pub progress: bool,
}

impl Options {
    /// The batch rules, 1 MiB batches, a window of 16 MiB, no progress.
    pub fn new(rules: RuleOptions, format: Format, threads: usize) -> Options {
        Options {
            rules,
            timeout: None,
            format,
            only_wrong: false,
            threads: threads.max(1),
            window_bytes: 16 << 20,
            batch_bytes: 1 << 20,
            progress: false,
        }
    }
}

/// The records of a batch, in order.
#[derive(Debug)]
pub struct Outputs(Vec<Output>);

/// The record of one item.
#[derive(Debug)]
enum Output {
    Game(Box<GameRecord>),
    Error(GameError),
    /// An input that could not be opened or read to its end.
    InputError(GameError),
}

/// Parsing and adjudicating a batch (the workers' job).
#[derive(Clone, Copy, Debug)]
struct Adjudicate {
    timeout: Option<Color>,
}

impl Process<Adjudicator> for Adjudicate {
    type Item = Batch;
    type Output = Outputs;

    fn process(&self, adjudicator: &mut Adjudicator, batch: &Batch) -> Outputs {
        Outputs(batch.items.iter().map(|item| self.item(adjudicator, &batch.input, item)).collect())
    }

    fn panicked(&self, batch: &Batch) -> Outputs {
        // A bug outside a game's adjudication (those are caught one by
        // one): an error for every game of the batch.
        let error = "internal error: the adjudication of this batch panicked".to_string();
        Outputs(
            batch
                .items
                .iter()
                .map(|item| {
                    let (game, offset) = position(item);
                    Output::Error(GameError { input: batch.input.to_string(), game, offset, error: error.clone() })
                })
                .collect(),
        )
    }
}

impl Outputs {
    /// The records as JSON Lines, what `--format jsonl` writes (without
    /// the games whose recorded result is right, if `only_wrong`), each
    /// with its rule (`None` for an error record).
    pub fn json_lines(&self, only_wrong: bool) -> impl Iterator<Item = (String, Option<&'static str>)> + '_ {
        self.0.iter().filter_map(move |output| match output {
            Output::Game(game) if only_wrong && !game.record.wrong => None,
            Output::Game(game) => Some((crate::output::to_json(&**game), Some(game.record.rule))),
            Output::Error(error) | Output::InputError(error) => Some((crate::output::to_json(error), None)),
        })
    }
}

/// Parses and adjudicates the games of `batch` (the work of one job; each
/// game that makes the adjudication panic gets an error record), every
/// game lost on time by `timeout` if given.
pub fn adjudicate_batch(adjudicator: &mut Adjudicator, timeout: Option<Color>, batch: &Batch) -> Outputs {
    Adjudicate { timeout }.process(adjudicator, batch)
}

/// Adjudicates the games of `batch` one at a time, every game lost on time
/// by `timeout` if given, and hands each record to `each` as a JSON line
/// with its rule (`None` for an error record; the games whose recorded
/// result is right are left out if `only_wrong`). Before each game
/// `stopped` is asked whether to go on; `each` returns whether to go on.
/// Returns the number of games left undone.
pub fn adjudicate_each(
    adjudicator: &mut Adjudicator,
    timeout: Option<Color>,
    batch: &Batch,
    only_wrong: bool,
    mut stopped: impl FnMut() -> bool,
    mut each: impl FnMut(String, Option<&'static str>) -> bool,
) -> usize {
    let adjudicate = Adjudicate { timeout };
    for (index, item) in batch.items.iter().enumerate() {
        if stopped() {
            return batch.items.len() - index;
        }
        let output = Outputs(vec![adjudicate.item(adjudicator, &batch.input, item)]);
        for (line, rule) in output.json_lines(only_wrong) {
            if !each(line, rule) {
                return batch.items.len() - index - 1;
            }
        }
    }
    0
}

/// An item's game number and byte offset.
fn position(item: &Item) -> (u64, u64) {
    match item {
        Item::Pgn(raw) => (raw.number, raw.offset),
        Item::Line { number, offset, .. } => (*number, *offset),
        Item::InputError { game, offset, .. } => (*game, *offset),
    }
}

impl Adjudicate {
    fn item(&self, adjudicator: &mut Adjudicator, input: &str, item: &Item) -> Output {
        let error = |game, offset, error| Output::Error(GameError { input: input.to_string(), game, offset, error });
        let mut tags = None;
        let (number, offset, mut game) = match item {
            Item::InputError { game, offset, error } => {
                return Output::InputError(GameError {
                    input: input.to_string(),
                    game: *game,
                    offset: *offset,
                    error: error.clone(),
                });
            }
            Item::Pgn(raw) => match parse_game(raw) {
                Ok(parsed) => {
                    tags = Some(parsed.tags);
                    (raw.number, raw.offset, parsed.game)
                }
                Err(e) => return error(e.game, e.offset, format!("at byte {}: {}", e.at, e.kind)),
            },
            Item::Line { number, offset, text } => {
                match text.as_ref().map_err(String::clone).and_then(|t| parse_fen_line(t).map_err(|e| e.to_string())) {
                    Ok(game) => (*number, *offset, game.with_id(format!("line {number}"))),
                    Err(e) => return error(*number, *offset, e),
                }
            }
        };
        if let Some(flagged) = self.timeout {
            game.termination = Termination::TimeForfeit { flagged: Some(flagged) };
        }
        match catch_unwind(AssertUnwindSafe(|| adjudicator.adjudicate(&game))) {
            Ok(adjudication) => {
                let mut record = GameRecord::new(input, number, offset, &game, &adjudication);
                if let Some(tags) = &tags {
                    record.record.players(tags);
                }
                Output::Game(Box::new(record))
            }
            Err(_) => {
                // A bug in the analysis, not in the input: an error for
                // this game, and fresh analyzers for the next.
                adjudicator.reset();
                error(number, offset, "internal error: the adjudication panicked".to_string())
            }
        }
    }
}

/// Writes the records and keeps the summary and the progress display.
struct Writer<W: Write> {
    records: RecordWriter<W>,
    only_wrong: bool,
    summary: Summary,
    progress: Progress,
}

impl<W: Write> Sink<Outputs> for Writer<W> {
    fn write(&mut self, outputs: Outputs) -> io::Result<()> {
        for output in outputs.0 {
            match output {
                Output::Game(game) => {
                    let record = &game.record;
                    self.summary.add(record.rule, record.undecided, 0);
                    if record.wrong {
                        self.summary.add_wrong(record.rule);
                    }
                    if !self.only_wrong || record.wrong {
                        self.records.write(&*game)?;
                    }
                }
                Output::Error(error) => {
                    self.summary.errors += 1;
                    self.records.write(&error)?;
                }
                Output::InputError(error) => {
                    self.summary.errors += 1;
                    self.summary.unreadable += 1;
                    self.records.write(&error)?;
                }
            }
        }
        self.progress.update(&self.summary);
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        self.records.flush()
    }
}

/// Adjudicates every game of `inputs` (`-` is standard input), writing
/// records to `output` in input order. Returns the summary, or the first
/// error writing the output. An input that cannot be opened or read to its
/// end gets an error record (the records of its games read so far stay),
/// the run goes on with the next input, and [`Summary::unreadable`] counts
/// it: the command then exits with status 1.
pub fn run<W: Write>(inputs: &[PathBuf], output: W, options: &Options) -> io::Result<Summary> {
    let start = Instant::now();
    let inputs: Vec<PathBuf> = if inputs.is_empty() { vec![PathBuf::from("-")] } else { inputs.to_vec() };
    let total: Option<u64> =
        inputs.iter().map(|p| std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len())).sum();
    let rules = options.rules;
    let pool = Pool::new("adjudicate", options.threads, 2 * options.threads, move |_, stop| {
        let mut adjudicator = Adjudicator::new(rules);
        adjudicator.set_stop_flag(Arc::clone(stop));
        adjudicator
    })?;
    let (raw, text) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let source = Inputs::new(inputs, options.batch_bytes, Arc::clone(&raw), Arc::clone(&text));
    let mut writer = Writer {
        records: RecordWriter::new(output, options.format, GAME_COLUMNS)?,
        only_wrong: options.only_wrong,
        summary: Summary::new(Unit::Games),
        progress: Progress::new(options.progress, total, raw),
    };
    ordered::run(&pool, source, Adjudicate { timeout: options.timeout }, &mut writer, options.window_bytes)?;
    writer.progress.finish();
    let mut summary = writer.summary;
    summary.bytes = text.load(Ordering::Relaxed);
    summary.elapsed = start.elapsed();
    Ok(summary)
}
