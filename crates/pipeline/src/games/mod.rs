//! `adjudicate`: the correct result of every game of PGN inputs (plain or
//! compressed, files, standard input, byte ranges, readers, texts) or of
//! `FEN moves...` lines, under the FIDE Laws (see the `adjudicate` crate).
//! The command's `adjudicate`, the service's `POST /api/adjudicate` and the
//! Python package's `adjudicate` (with its Dask tasks) run it.
//!
//! The same ordered stream as `analyze` ([`crate::ordered`]) over a
//! [`Pool`] of workers, each owning an [`Adjudicator`] (its analyzers and
//! tables): the reader cuts the inputs into batches of games ([`Inputs`]),
//! the workers parse and adjudicate them ([`Step`]), and the sink gets one
//! [`Output`] per game, or per malformed game, in input order ([`Writer`]
//! writes them in a format and keeps the [`Summary`]).
//!
//! Memory is bounded whatever the input size: a game's text is cut at
//! [`MAX_GAME_BYTES`](adjudicate::pgn::MAX_GAME_BYTES), a batch holds at
//! most [`BATCH_GAMES`] games and about [`Options::batch_bytes`] bytes,
//! and the batches in flight are bounded by the window of the memory plan
//! ([`crate::Plan`]).

mod record;
mod source;

use std::io::{self, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use adjudicate::fen_line::parse_fen_line;
use adjudicate::pgn::parse_game;
use adjudicate::{Adjudicator, Options as RuleOptions, Termination};
use movegen::Color;

pub use record::{GAME_COLUMNS, GameError, GameRecord};
pub use source::{BATCH_GAMES, Batch, GameSource, Inputs, Item};

use crate::memory::{MemoryError, Workload};
use crate::options::{GameOptions, SearchOptions, ThreadOptions};
use crate::ordered::{self, Process, Sink};
use crate::output::Format;
use crate::pool::Pool;
use crate::summary::Summary;
pub use crate::writer::Writer;

/// How to run.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The rules' analyses.
    pub rules: RuleOptions,
    /// What each game's step does ([`Step`]).
    pub step: Step,
    /// Only wrong results (and errors) are written ([`Output::is_written`]).
    pub only_wrong: bool,
    /// Worker threads.
    pub threads: usize,
    /// Bytes of input in flight (read but not yet written).
    pub window_bytes: usize,
    /// Bytes of game text per batch.
    pub batch_bytes: usize,
}

impl Options {
    /// The options of a run: the memory budget of `search` planned for
    /// `threads`, the rules and steps of `games`.
    pub fn new(search: &SearchOptions, threads: &ThreadOptions, games: &GameOptions) -> Result<Options, MemoryError> {
        let plan = search.plan(threads.get(), Workload::Adjudicate)?;
        Ok(Options {
            rules: games.rules(search, plan.analyzer_mb),
            step: Step::new(games),
            only_wrong: games.only_wrong,
            threads: plan.threads,
            window_bytes: plan.window_bytes,
            batch_bytes: plan.batch_bytes,
        })
    }

    /// The batch rules on `threads` threads, 1 MiB batches, a window of
    /// 16 MiB (tests).
    pub fn with_rules(rules: RuleOptions, threads: usize) -> Options {
        Options {
            rules,
            step: Step::default(),
            only_wrong: false,
            threads: threads.max(1),
            window_bytes: 16 << 20,
            batch_bytes: 1 << 20,
        }
    }
}

/// The record of one item.
#[derive(Debug)]
#[non_exhaustive]
pub enum Output {
    /// A game's record.
    Game(Box<GameRecord>),
    /// A game that could not be adjudicated.
    Error(GameError),
    /// An input that could not be opened or read to its end: the run fails.
    InputError(GameError),
    /// A game not lost on time, left out by `timeout-only` (counted).
    Skipped,
}

impl Output {
    /// Whether a run writes the record: not a skipped game, nor (with
    /// `only_wrong`) a game whose recorded result is right.
    pub fn is_written(&self, only_wrong: bool) -> bool {
        match self {
            Output::Game(game) => !only_wrong || game.record.wrong,
            Output::Error(_) | Output::InputError(_) => true,
            Output::Skipped => false,
        }
    }

    /// Counts the output in `summary` (of [`Unit::Games`](crate::Unit::Games)).
    pub fn count(&self, summary: &mut Summary) {
        match self {
            Output::Game(game) => {
                let record = &game.record;
                summary.add(record.rule, record.undecided, 0);
                if record.wrong {
                    summary.add_wrong(record.rule);
                }
            }
            Output::Error(_) => summary.errors += 1,
            Output::InputError(_) => {
                summary.errors += 1;
                summary.unreadable += 1;
            }
            Output::Skipped => summary.skipped += 1,
        }
    }

    /// The record as a line of JSON, if it is written (see
    /// [`Output::is_written`]), with its rule (`None` for an error record).
    pub fn json_line(&self, only_wrong: bool) -> Option<(String, Option<&'static str>)> {
        if !self.is_written(only_wrong) {
            return None;
        }
        match self {
            Output::Game(game) => Some((crate::output::to_json(&**game), Some(game.record.rule))),
            Output::Error(error) | Output::InputError(error) => Some((crate::output::to_json(error), None)),
            Output::Skipped => None,
        }
    }
}

/// The records of a batch, in order.
#[derive(Debug, Default)]
pub struct Outputs(Vec<Output>);

impl Outputs {
    /// The records as JSON Lines, what `--format jsonl` writes (see
    /// [`Output::json_line`]).
    pub fn json_lines(&self, only_wrong: bool) -> impl Iterator<Item = (String, Option<&'static str>)> + '_ {
        self.0.iter().filter_map(move |output| output.json_line(only_wrong))
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl IntoIterator for Outputs {
    type Item = Output;
    type IntoIter = std::vec::IntoIter<Output>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// The step of one game: parse it, apply `timeout` and `timeout_only`,
/// adjudicate it (its panic caught), build its record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// Every game is a timeout of this player.
    pub timeout: Option<Color>,
    /// Only games lost on time are adjudicated; the others are
    /// [`Output::Skipped`].
    pub timeout_only: bool,
    /// Timeout records carry the certificate of their analysis.
    pub certificate: bool,
}

impl Step {
    /// The step of `options`.
    pub fn new(options: &GameOptions) -> Step {
        Step { timeout: options.flagged(), timeout_only: options.timeout_only, certificate: options.certificate }
    }

    /// The output of `item` of `input`, adjudicated by `adjudicator`.
    pub fn item(&self, adjudicator: &mut Adjudicator, input: &str, item: &Item) -> Output {
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
            Item::Unreadable { game, offset, error: message } => return error(*game, *offset, message.clone()),
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
        } else if self.timeout_only && !matches!(game.termination, Termination::TimeForfeit { .. }) {
            return Output::Skipped;
        }
        match catch_unwind(AssertUnwindSafe(|| adjudicator.adjudicate(&game))) {
            Ok(adjudication) => {
                let mut record = GameRecord::new(input, number, offset, &game, &adjudication);
                if let Some(tags) = &tags {
                    record.record.players(tags);
                }
                if self.certificate {
                    record.certify(&adjudication);
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

impl Process<Adjudicator> for Step {
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
                    let (game, offset) = item.position();
                    Output::Error(GameError { input: batch.input.to_string(), game, offset, error: error.clone() })
                })
                .collect(),
        )
    }
}

/// Parses and adjudicates the games of `batch` (the work of one job; each
/// game that makes the adjudication panic gets an error record).
pub fn adjudicate_batch(adjudicator: &mut Adjudicator, step: Step, batch: &Batch) -> Outputs {
    step.process(adjudicator, batch)
}

/// Adjudicates the games of `batch` one at a time and hands each record
/// to `each` as a JSON line with its rule (`None` for an error record; the
/// games whose recorded result is right are left out if `only_wrong`).
/// Before each game `stopped` is asked whether to go on; `each` returns
/// whether to go on. Returns the number of games left undone.
pub fn adjudicate_each(
    adjudicator: &mut Adjudicator,
    step: Step,
    batch: &Batch,
    only_wrong: bool,
    mut stopped: impl FnMut() -> bool,
    mut each: impl FnMut(String, Option<&'static str>) -> bool,
) -> usize {
    for (index, item) in batch.items.iter().enumerate() {
        if stopped() {
            return batch.items.len() - index;
        }
        let output = step.item(adjudicator, &batch.input, item);
        if let Some((line, rule)) = output.json_line(only_wrong) {
            if !each(line, rule) {
                return batch.items.len() - index - 1;
            }
        }
    }
    0
}

impl<W: Write> Sink<Outputs> for Writer<W> {
    fn write(&mut self, outputs: Outputs) -> io::Result<()> {
        for output in outputs {
            output.count(&mut self.summary);
            if output.is_written(self.only_wrong) {
                match &output {
                    Output::Game(game) => self.write(&**game)?,
                    Output::Error(error) | Output::InputError(error) => self.write(error)?,
                    Output::Skipped => {}
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

/// Adjudicates every game of `inputs` and hands the outputs of each batch
/// to `sink`, in input order. Returns the first error of the sink. An
/// input that cannot be opened or read to its end gets an error record
/// (the records of its games read so far stay) and the run goes on with
/// the next input.
pub fn run<K: Sink<Outputs>>(inputs: Inputs, options: &Options, sink: &mut K) -> io::Result<()> {
    let rules = options.rules;
    let pool = Pool::new("adjudicate", options.threads, 2 * options.threads, move |_, stop| {
        let mut adjudicator = Adjudicator::new(rules);
        adjudicator.set_stop_flag(Arc::clone(stop));
        adjudicator
    })?;
    ordered::run(&pool, inputs.batch_bytes(options.batch_bytes), options.step, sink, options.window_bytes)
}

/// [`run`] with a [`Writer`] of `format` to `output`: the summary of the
/// run, with its bytes of text and elapsed time. An input that cannot be
/// opened or read to its end is counted in [`Summary::unreadable`] (the
/// command then exits with status 1).
pub fn run_to<W: Write>(inputs: Inputs, output: W, format: Format, options: &Options) -> io::Result<Summary> {
    let start = Instant::now();
    let text = inputs.text_counter();
    let mut writer = Writer::games(output, format, options.only_wrong)?;
    run(inputs, options, &mut writer)?;
    let mut summary = writer.summary;
    summary.bytes = text.load(Ordering::Relaxed);
    summary.elapsed = start.elapsed();
    Ok(summary)
}
