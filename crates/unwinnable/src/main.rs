//! `unwinnable`: can a player still checkmate? See `unwinnable --help` and
//! the library documentation of this crate for the parts.
//!
//! Exit status: 0 success, 1 I/O error, 2 usage error (see [`unwinnable::exit`]).

#![forbid(unsafe_code)]

use std::io::{self, BufReader, IsTerminal, Write};
use std::process::ExitCode;
use std::thread;

use clap::{CommandFactory, Parser};
use unwinnable::cli::{AnalyzeArgs, Cli, Command};
use unwinnable::pipeline::{self, Options};
use unwinnable::query::parse_arguments;
use unwinnable::{STACK_SIZE, exit};

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
        Some(Command::Dead(args)) => match parse_arguments(&args.fen) {
            Ok(queries) if queries.len() > 1 => {
                usage_error(&format!("`dead` takes one position, {} were given", queries.len()))
            }
            Ok(queries) if queries[0].winners.is_some() => {
                usage_error("`dead` takes a position and no winner: it analyses both colours")
            }
            Ok(queries) => {
                let query = &queries[0];
                let mut out = io::stdout().lock();
                unwinnable::dead::run(&mut out, &query.fen, &query.position, args.search.config())
                    .and_then(|_| out.flush())
                    .map(|()| exit::SUCCESS)
            }
            Err(e) => usage_error(&e.to_string()),
        },
        Some(Command::Demo(args)) => demo(&args.search),
        Some(Command::Adjudicate(args)) => adjudicate(&args),
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

fn demo(search: &unwinnable::cli::SearchArgs) -> io::Result<u8> {
    let mut out = io::stdout().lock();
    unwinnable::demo::run(&mut out, search.config())?;
    out.flush()?;
    Ok(exit::SUCCESS)
}

fn adjudicate(args: &unwinnable::adjudicate::AdjudicateArgs) -> io::Result<u8> {
    let options = unwinnable::adjudicate::Options::from_args(args);
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let summary = unwinnable::adjudicate::run(&args.files, &mut out, &options)?;
    if !args.quiet {
        eprintln!("unwinnable: {summary}");
    }
    // An input that could not be opened or read to its end fails the run.
    Ok(if summary.unreadable > 0 { exit::IO_ERROR } else { exit::SUCCESS })
}

fn analyze(args: AnalyzeArgs) -> io::Result<u8> {
    let mut options = Options::new(args.search.config(), args.winner, args.format, usize::from(args.threads));
    let stdin_is_terminal = io::stdin().is_terminal();
    let summary = if args.fen.is_empty() {
        if stdin_is_terminal && !args.quiet {
            eprintln!("Reading queries from standard input: one `FEN [white|black|both]` per line (end with Ctrl-D).");
        }
        options.progress = !args.quiet && !stdin_is_terminal && !io::stdout().is_terminal();
        let mut out = io::stdout().lock();
        pipeline::run(BufReader::new(io::stdin()), &mut out, &options)?
    } else {
        // The positions on the command line are checked here: an invalid
        // one is a usage error, not an error line. Each becomes a line.
        let queries = match parse_arguments(&args.fen) {
            Ok(queries) => queries,
            Err(e) => return usage_error(&e.to_string()),
        };
        let mut text = String::new();
        for query in &queries {
            let winner = query.winners.map_or("", |w| match w {
                unwinnable::query::Winners::White => " white",
                unwinnable::query::Winners::Black => " black",
                unwinnable::query::Winners::Both => " both",
            });
            text.push_str(&format!("{}{winner}\n", query.fen));
        }
        let mut out = io::stdout().lock();
        pipeline::run(io::Cursor::new(text), &mut out, &options)?
    };
    if !args.quiet {
        eprintln!("unwinnable: {summary}");
    }
    Ok(exit::SUCCESS)
}
