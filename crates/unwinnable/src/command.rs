//! The command: the command line parsed, each subcommand dispatched, the
//! exit status (0 success, 1 I/O error, 2 usage error: see
//! [`crate::exit`]).

use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::Instant;

use crate::cli::{AdjudicateArgs, AnalyzeArgs, CheckArgs, Cli, Command, DeadArgs, ServeArgs};
use crate::exit;
use crate::progress::Progress;
use adjudicate::input::Counting;
use clap::{CommandFactory, Parser};
use pipeline::options::SearchOptions;
use pipeline::{Format, Machine, MemoryError, Plan, Query, STACK_SIZE, Workload, analyze, games, parse_arguments};

/// Runs the command with the process's arguments.
pub fn main() -> ExitCode {
    // Usage errors exit with status 2 here (`--help` and `--version` with 0).
    let cli = Cli::parse();
    let status = thread::Builder::new().name("main".into()).stack_size(STACK_SIZE).spawn(move || run(cli));
    match status.map(|handle| handle.join()) {
        Ok(Ok(status)) => ExitCode::from(status),
        Ok(Err(_)) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("unwinnable: error: cannot start a thread: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> u8 {
    let result = match cli.command {
        Some(Command::Analyze(args)) => analyze(args),
        Some(Command::Dead(args)) => dead(&args),
        Some(Command::Demo(args)) => demo(&args.search),
        Some(Command::Adjudicate(args)) => adjudicate(&args),
        Some(Command::Check(args)) => check(&args),
        Some(Command::Serve(args)) => serve(&args),
        None if cli.analyze.fen.is_empty() && crate::no_input_piped() => demo(&cli.analyze.search),
        None => match unknown_subcommand(&cli.analyze.fen) {
            Some(error) => {
                let _ = error.print();
                Ok(exit::USAGE)
            }
            None => analyze(cli.analyze),
        },
    };
    match result {
        Ok(status) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::IO_ERROR,
        Err(e) => {
            eprintln!("unwinnable: error: {e}");
            exit::IO_ERROR
        }
    }
}

/// The error for a first argument that cannot start a FEN (a FEN starts
/// with the piece placement, which has seven `/`): a misspelt subcommand.
fn unknown_subcommand(arguments: &[String]) -> Option<clap::Error> {
    let word = arguments.first()?.split_ascii_whitespace().next()?;
    if word.contains('/') {
        return None;
    }
    let mut command = Cli::command();
    let names: Vec<String> = command.get_subcommands().map(|c| c.get_name().to_string()).collect();
    let mut message = format!("unrecognized subcommand '{word}' (and not a FEN)");
    if let Some(name) = crate::cli::closest(word, names.iter().map(String::as_str)) {
        message.push_str(&format!("\n\n  tip: a similar subcommand exists: '{name}'"));
    }
    Some(command.error(clap::error::ErrorKind::InvalidSubcommand, message))
}

fn usage_error(message: &str) -> io::Result<u8> {
    eprintln!("unwinnable: error: {message}");
    eprintln!("For more information, try '--help'.");
    Ok(exit::USAGE)
}

/// The memory plan of `search` for `threads` workers, or the usage error;
/// warns when the budget is more than the memory available now.
fn plan(search: &SearchOptions, threads: Option<usize>, workload: Workload) -> Result<Plan, MemoryError> {
    let plan = search.plan(threads, workload)?;
    if let (Some(_), Some(available)) = (search.memory_mb, Machine::read().available_mb) {
        if plan.budget_mb > available {
            eprintln!(
                "unwinnable: warning: --memory-mb {} is more than the memory available now ({available} MiB)",
                plan.budget_mb
            );
        }
    }
    Ok(plan)
}

fn dead(args: &DeadArgs) -> io::Result<u8> {
    let query = match parse_arguments(&args.fen) {
        Ok(queries) if queries.len() > 1 => {
            return usage_error(&format!("`dead` takes one position, {} were given", queries.len()));
        }
        Ok(queries) if queries[0].winners.is_some() => {
            return usage_error("`dead` takes a position and no winner: it analyses both colours");
        }
        Ok(mut queries) if args.proof.strict => match queries.remove(0).strict() {
            Ok(query) => query,
            Err(e) => return usage_error(&e.to_string()),
        },
        Ok(mut queries) => queries.remove(0),
        Err(e) => return usage_error(&e.to_string()),
    };
    let plan = match plan(&args.search, Some(1), Workload::Analyze) {
        Ok(plan) => plan,
        Err(e) => return usage_error(&e.to_string()),
    };
    let mut out = io::stdout().lock();
    let unreachable = pipeline::unreachable_text(&query.unreachable);
    let config = args.search.config(plan.analyzer_mb);
    let certificate = args.proof.certificate;
    crate::dead::run(&mut out, &query.fen, &query.position, unreachable.as_deref(), config, certificate)?;
    out.flush()?;
    Ok(exit::SUCCESS)
}

fn demo(search: &SearchOptions) -> io::Result<u8> {
    let plan = match plan(search, Some(1), Workload::Analyze) {
        Ok(plan) => plan,
        Err(e) => return usage_error(&e.to_string()),
    };
    let mut out = io::stdout().lock();
    crate::demo::run(&mut out, search.config(plan.analyzer_mb))?;
    out.flush()?;
    Ok(exit::SUCCESS)
}

fn adjudicate(args: &AdjudicateArgs) -> io::Result<u8> {
    let options = match plan(&args.search, args.threads.get(), Workload::Adjudicate)
        .and_then(|_| games::Options::new(&args.search, &args.threads, &args.games))
    {
        Ok(options) => options,
        Err(e) => return usage_error(&e.to_string()),
    };
    let reads_stdin = args.files.is_empty() || args.files.iter().any(|f| f.as_os_str() == "-");
    let start = Instant::now();
    let inputs = games::Inputs::paths(&args.files);
    let wanted = Progress::wanted(args.output.quiet, reads_stdin);
    let mut progress = Progress::new(wanted, inputs.total_bytes(), inputs.raw_counter());
    let text = inputs.text_counter();
    let out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut writer =
        games::Writer::games(out, args.output.format, options.only_wrong)?.with_progress(move |s| progress.update(s));
    games::run(inputs, &options, &mut writer)?;
    let mut summary = std::mem::take(&mut writer.summary);
    // The progress display goes with the writer, before the summary.
    drop(writer);
    summary.bytes = text.load(Ordering::Relaxed);
    summary.elapsed = start.elapsed();
    if !args.output.quiet {
        eprintln!("unwinnable: {summary}");
    }
    // An input that could not be opened or read to its end fails the run.
    Ok(if summary.unreadable > 0 { exit::IO_ERROR } else { exit::SUCCESS })
}

fn check(args: &CheckArgs) -> io::Result<u8> {
    let limits = check::Limits { max_positions: args.max_positions };
    let out = BufWriter::new(io::stdout().lock());
    let tally = if args.files.is_empty() || args.files.iter().all(|f| f.as_os_str() == "-") {
        check::run(io::stdin().lock(), out, &limits)?
    } else {
        let mut out = out;
        let mut tally = check::Tally::default();
        for file in &args.files {
            let one = if file.as_os_str() == "-" {
                check::run(io::stdin().lock(), &mut out, &limits)?
            } else {
                let opened = std::fs::File::open(file)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", file.display())))?;
                check::run(BufReader::new(opened), &mut out, &limits)?
            };
            tally.accepted += one.accepted;
            tally.rejected += one.rejected;
            tally.skipped += one.skipped;
            tally.other_lines += one.other_lines;
        }
        tally
    };
    eprintln!("unwinnable: {} accepted, {} rejected, {} skipped", tally.accepted, tally.rejected, tally.skipped);
    Ok(if tally.rejected == 0 { exit::SUCCESS } else { exit::IO_ERROR })
}

fn serve(args: &ServeArgs) -> io::Result<u8> {
    let options = match crate::serve::Options::from_args(args) {
        Ok(options) => options,
        Err(e) => return usage_error(&e.to_string()),
    };
    if let (Some(_), Some(available)) = (args.memory_mb, Machine::read().available_mb) {
        if options.plan.budget_mb > available {
            eprintln!(
                "unwinnable: warning: --memory-mb {} is more than the memory available now ({available} MiB)",
                options.plan.budget_mb
            );
        }
    }
    crate::serve::run(args.addr, options)?;
    Ok(exit::SUCCESS)
}

/// `query` as an input line.
fn query_line(query: &Query) -> String {
    let winner = query.winners.map_or(String::new(), |winners| format!(" {}", winners.name()));
    format!("{}{winner}\n", query.fen)
}

fn analyze(args: AnalyzeArgs) -> io::Result<u8> {
    // The positions on the command line are checked first: an invalid one
    // is a usage error, not an error line. Each becomes a line.
    let arguments = if args.fen.is_empty() {
        None
    } else {
        let parsed: Result<Vec<Query>, _> = parse_arguments(&args.fen).and_then(|queries| {
            queries
                .into_iter()
                .map(|query| query.chess960(args.query.chess960))
                .map(|query| if args.proof.strict { query.strict() } else { Ok(query) })
                .collect()
        });
        match parsed {
            Ok(queries) => Some(queries.iter().map(query_line).collect::<String>()),
            Err(e) => return usage_error(&e.to_string()),
        }
    };
    if args.proof.certificate && args.output.format != Format::Jsonl {
        return usage_error("--certificate adds a field to the JSON Lines records: use it with --format jsonl");
    }
    // Never more threads than queries on the command line: each thread
    // then gets a larger share of the memory.
    let queries = arguments.as_ref().map(|text| text.lines().count());
    let options = match plan(&args.search, args.threads.get(), Workload::Analyze)
        .and_then(|_| analyze::Options::new(&args.search, &args.threads, &args.query, &args.proof, queries))
    {
        Ok(options) => options,
        Err(e) => return usage_error(&e.to_string()),
    };
    let out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let summary = match arguments {
        Some(text) => analyze::run_to(io::Cursor::new(text), out, args.output.format, &options)?,
        None => {
            if io::stdin().is_terminal() && !args.output.quiet {
                eprintln!(
                    "Reading queries from standard input: one `FEN [white|black|both]` per line (end with Ctrl-D)."
                );
            }
            // Standard input redirected from a file: its size is known.
            let total = std::fs::metadata("/dev/stdin").ok().filter(|m| m.is_file()).map(|m| m.len());
            let read = Arc::new(AtomicU64::new(0));
            let mut progress = Progress::new(Progress::wanted(args.output.quiet, true), total, Arc::clone(&read));
            let input = BufReader::with_capacity(1 << 16, Counting::new(io::stdin(), read));
            let start = Instant::now();
            let mut writer =
                analyze::Writer::analyses(out, args.output.format)?.with_progress(move |s| progress.update(s));
            analyze::run(input, &options, &mut writer)?;
            let mut summary = std::mem::take(&mut writer.summary);
            drop(writer);
            summary.elapsed = start.elapsed();
            summary
        }
    };
    if !args.output.quiet {
        eprintln!("unwinnable: {summary}");
    }
    Ok(exit::SUCCESS)
}
