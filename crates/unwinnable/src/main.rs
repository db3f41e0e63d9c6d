//! `unwinnable`: can a player still checkmate? See `unwinnable --help` and
//! the library documentation of this crate for the parts.
//!
//! Exit status: 0 success, 1 I/O error, 2 usage error (see [`unwinnable::exit`]).

#![forbid(unsafe_code)]

use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::thread;

use adjudicate::input::Counting;
use clap::{CommandFactory, Parser};
use unwinnable::cli::{AdjudicateArgs, AnalyzeArgs, CheckArgs, Cli, Command, DeadArgs, SearchArgs, ServeArgs};
use unwinnable::memory::{Machine, MemoryError, Plan, Workload};
use unwinnable::progress::Progress;
use unwinnable::query::{Query, Winners, parse_arguments};
use unwinnable::{STACK_SIZE, analyze, exit};

fn main() -> ExitCode {
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
        None if cli.analyze.fen.is_empty() && io::stdin().is_terminal() => demo(&cli.analyze.search),
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
    if let Some(name) = unwinnable::cli::closest(word, names.iter().map(String::as_str)) {
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
fn plan(search: &SearchArgs, threads: Option<usize>, workload: Workload) -> Result<Plan, MemoryError> {
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
        Ok(mut queries) if args.strict => match queries.remove(0).strict() {
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
    let unreachable = unwinnable::query::unreachable_text(&query.unreachable);
    let config = args.search.config(plan.analyzer_mb);
    unwinnable::dead::run(&mut out, &query.fen, &query.position, unreachable.as_deref(), config, args.certificate)?;
    out.flush()?;
    Ok(exit::SUCCESS)
}

fn demo(search: &SearchArgs) -> io::Result<u8> {
    let plan = match plan(search, Some(1), Workload::Analyze) {
        Ok(plan) => plan,
        Err(e) => return usage_error(&e.to_string()),
    };
    let mut out = io::stdout().lock();
    unwinnable::demo::run(&mut out, search.config(plan.analyzer_mb))?;
    out.flush()?;
    Ok(exit::SUCCESS)
}

fn adjudicate(args: &AdjudicateArgs) -> io::Result<u8> {
    let plan = match plan(&args.search, args.batch.threads.map(usize::from), Workload::Adjudicate) {
        Ok(plan) => plan,
        Err(e) => return usage_error(&e.to_string()),
    };
    let rules = adjudicate::Options {
        every_ply: args.every_ply,
        timeout: args.search.config(plan.analyzer_mb),
        ..adjudicate::Options::batch()
    };
    let reads_stdin = args.files.is_empty() || args.files.iter().any(|f| f.as_os_str() == "-");
    let options = unwinnable::adjudicate::Options {
        timeout: args.timeout.map(Into::into),
        only_wrong: args.only_wrong,
        window_bytes: plan.window_bytes,
        batch_bytes: plan.batch_bytes,
        progress: Progress::wanted(args.batch.quiet, reads_stdin),
        ..unwinnable::adjudicate::Options::new(rules, args.batch.format, plan.threads)
    };
    let out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let summary = unwinnable::adjudicate::run(&args.files, out, &options)?;
    if !args.batch.quiet {
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
    let options = match unwinnable::serve::Options::from_args(args) {
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
    unwinnable::serve::run(args.addr, options)?;
    Ok(exit::SUCCESS)
}

/// `query` as an input line.
fn query_line(query: &Query) -> String {
    let winner = match query.winners {
        None => "",
        Some(Winners::White) => " white",
        Some(Winners::Black) => " black",
        Some(Winners::Both) => " both",
    };
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
                .map(|query| query.chess960(args.chess960))
                .map(|query| if args.strict { query.strict() } else { Ok(query) })
                .collect()
        });
        match parsed {
            Ok(queries) => Some(queries.iter().map(query_line).collect::<String>()),
            Err(e) => return usage_error(&e.to_string()),
        }
    };
    // Never more threads than queries on the command line: each thread
    // then gets a larger share of the memory.
    let queries = arguments.as_ref().map(|text| text.lines().count());
    let planned =
        plan(&args.search, args.batch.threads.map(usize::from), Workload::Analyze).and_then(|plan| match queries {
            Some(count) if count < plan.threads => args.search.plan(Some(count), Workload::Analyze),
            _ => Ok(plan),
        });
    let plan = match planned {
        Ok(plan) => plan,
        Err(e) => return usage_error(&e.to_string()),
    };
    if args.certificate && args.batch.format != unwinnable::output::Format::Jsonl {
        return usage_error("--certificate adds a field to the JSON Lines records: use it with --format jsonl");
    }
    let mut options =
        analyze::Options::new(args.search.config(plan.analyzer_mb), args.winner, args.batch.format, plan.threads);
    options.window_bytes = plan.window_bytes;
    options.strict = args.strict;
    options.chess960 = args.chess960;
    options.certificate = args.certificate;
    let out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let summary = match arguments {
        Some(text) => analyze::run(io::Cursor::new(text), out, &options)?,
        None => {
            if io::stdin().is_terminal() && !args.batch.quiet {
                eprintln!(
                    "Reading queries from standard input: one `FEN [white|black|both]` per line (end with Ctrl-D)."
                );
            }
            options.progress = Progress::wanted(args.batch.quiet, true);
            // Standard input redirected from a file: its size is known.
            let total = std::fs::metadata("/dev/stdin").ok().filter(|m| m.is_file()).map(|m| m.len());
            let read = Arc::new(AtomicU64::new(0));
            let input = BufReader::with_capacity(1 << 16, Counting::new(io::stdin(), Arc::clone(&read)));
            analyze::run_counted(input, total, read, out, &options)?
        }
    };
    if !args.batch.quiet {
        eprintln!("unwinnable: {summary}");
    }
    Ok(exit::SUCCESS)
}
