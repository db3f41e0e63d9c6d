//! `unwinnable`: can a player still checkmate? See `unwinnable --help` and
//! the library documentation of this crate for the parts.
//!
//! Exit status: 0 success, 1 I/O error, 2 usage error (see [`unwinnable::exit`]).

#![forbid(unsafe_code)]

use std::io::{self, BufReader, IsTerminal, Write};
use std::process::ExitCode;
use std::thread;

use clap::Parser;
use unwinnable::cli::{AnalyzeArgs, Cli, Command};
use unwinnable::pipeline::{self, Options};
use unwinnable::query::parse_query;
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
        Some(Command::Dead(args)) => {
            let text = args.fen.join(" ");
            match parse_query(&text) {
                Ok(query) => {
                    let mut out = io::stdout().lock();
                    unwinnable::dead::run(&mut out, &query.fen, &query.position, args.search.config())
                        .and_then(|_| out.flush())
                        .map(|()| exit::SUCCESS)
                }
                Err(e) => usage_error(&e.to_string()),
            }
        }
        Some(Command::Demo(args)) => demo(&args.search),
        Some(Command::Adjudicate(args)) => adjudicate(&args),
        None if cli.analyze.fen.is_empty() && io::stdin().is_terminal() => demo(&cli.analyze.search),
        None => analyze(cli.analyze),
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
    Ok(exit::SUCCESS)
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
        // A FEN on the command line is checked here: an invalid one is a
        // usage error, not an error line.
        let text = args.fen.join(" ");
        if let Err(e) = parse_query(&text) {
            return usage_error(&e.to_string());
        }
        let mut out = io::stdout().lock();
        pipeline::run(io::Cursor::new(text), &mut out, &options)?
    };
    if !args.quiet {
        eprintln!("unwinnable: {summary}");
    }
    Ok(exit::SUCCESS)
}
