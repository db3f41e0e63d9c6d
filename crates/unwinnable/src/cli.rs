//! The command line (clap derive): `analyze`, `dead`, `demo`,
//! `adjudicate`, `check`, `serve`. The options of the pipeline are defined
//! once, in `pipeline::options`, and flattened here: the search options
//! every analysis takes ([`SearchOptions`]), the threads of the two
//! subcommands that run a pool of workers ([`ThreadOptions`]), the
//! queries' and games' options; this module adds the output options
//! ([`OutputArgs`]) and the service's.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use pipeline::options::{GameOptions, ProofOptions, QueryOptions, SearchOptions, ThreadOptions};
use pipeline::{Format, MAX_THREADS};

const AFTER_HELP: &str = "\
Without a subcommand, runs `analyze` (with the options above), except with no
FEN and standard input at a terminal: then it runs `demo`.

Exit status: 0 on success (for `analyze` also when some input lines were
rejected: each gets an error line; for `adjudicate` also when some games were
malformed: each gets an error record; for `dead` whatever the answer), 1 on an
I/O error (reading standard input, writing standard output, an `adjudicate`
input that cannot be opened or read to its end), 2 on a usage error (bad
options, an invalid FEN argument, a memory budget larger than the machine's
memory or too small for the threads).";

/// Can a player still checkmate? Decides chess unwinnability (FIDE Laws,
/// Art. 6.9 and 5.2.2) with the algorithms of M. Ambrona, "A Practical
/// Algorithm for Chess Unwinnability" (FUN 2022).
#[derive(Debug, Parser)]
#[command(name = "unwinnable", version, after_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Without a subcommand, the options of `analyze` apply.
    #[command(flatten)]
    pub analyze: AnalyzeArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Decide whether the intended winner can still checkmate.
    ///
    /// With FEN arguments, analyses those positions (each FEN may be followed
    /// by its winner). Without, reads one query per line from standard
    /// input: `FEN [white|black|w|b|both] [# comment]`, the FEN with 4 or 6
    /// fields (any other token after the FEN is an error); blank lines and
    /// `#` lines are skipped. The intended winner defaults to the side NOT to
    /// move (the player whose opponent ran out of time). Output: one line per
    /// analysis, in input order; a summary on standard error at the end.
    Analyze(AnalyzeArgs),
    /// Decide whether a position is dead: neither side can checkmate.
    ///
    /// Prints the static proof (with the king's region drawn) when it
    /// applies, otherwise the search's verdict for each colour, with a
    /// helpmate for a side that can still mate.
    Dead(DeadArgs),
    /// Analyse the paper's positions for both colours and print a table.
    Demo(DemoArgs),
    /// The correct result of whole games under the FIDE Laws.
    ///
    /// Reads PGN (plain, or gzip, bzip2 or zstd-compressed) or `FEN [moves]
    /// MOVE... [RESULT]` lines from the files (standard input without files)
    /// and writes one record per game, in input order: recorded and correct
    /// result, the deciding rule (checkmate, stalemate, dead position,
    /// timeout, fivefold repetition, 75 moves, or the recorded result), the
    /// ply and the final position, with the evidence. Malformed games get an
    /// error record and the run goes on. A summary goes to standard error at
    /// the end.
    Adjudicate(AdjudicateArgs),
    /// Check the certificates of `analyze --certificate` records.
    ///
    /// Reads JSON Lines records (from the files, or standard input without
    /// files) and prints, for each, `accepted`, `rejected: <the first step
    /// that failed>` or `skipped: <why>` (an undetermined verdict, an error
    /// record). Lines that do not start with `{` are passed over. The checker is the crate `check`: its own code on another
    /// move generator (cozy-chess), sharing nothing with the analysis (see
    /// docs/certificates.md). Exit status 0 when none is rejected, 1
    /// otherwise (or on an I/O error).
    Check(CheckArgs),
    /// Serve the analysis over HTTP, with a web page at `/`.
    ///
    /// An axum service on loopback by default: `GET /api/analyze`, `POST
    /// /api/analyze` (a batch), `GET /api/dead`, `POST /api/adjudicate`
    /// (PGN), `GET /board.svg`, `GET /healthz`, `GET /metrics`. Analyses run
    /// on a fixed pool of worker threads fed by a bounded queue; a request
    /// that finds the queue full gets 503 at once. SIGTERM or Ctrl-C stops
    /// accepting connections, lets the requests in flight finish, and exits.
    Serve(ServeArgs),
}

/// Options of `analyze`.
#[derive(Debug, Default, Args)]
pub struct AnalyzeArgs {
    /// The positions (FEN, quoted or not), each optionally followed by the
    /// winner. Without, queries are read from standard input.
    #[arg(value_name = "FEN")]
    pub fen: Vec<String>,
    /// The winners.
    #[command(flatten)]
    pub query: QueryOptions,
    /// Strict reading and certificates.
    #[command(flatten)]
    pub proof: ProofOptions,
    /// Threads.
    #[command(flatten)]
    pub threads: ThreadOptions,
    /// Output and progress.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Search options.
    #[command(flatten)]
    pub search: SearchOptions,
}

/// Options of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files of records (`analyze --format jsonl --certificate`); `-` or
    /// nothing for standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The most positions the checker enumerates for one record's closure
    /// certificates (about 200 bytes each while one is checked).
    #[arg(long, value_name = "N", default_value_t = check::Limits::default().max_positions)]
    pub max_positions: u64,
}

/// Options of `dead`.
#[derive(Debug, Args)]
pub struct DeadArgs {
    /// The position (one FEN with 4 or 6 fields, quoted or not; no winner).
    #[arg(value_name = "FEN", required = true)]
    pub fen: Vec<String>,
    /// Strict reading and certificates.
    #[command(flatten)]
    pub proof: ProofOptions,
    /// Search options.
    #[command(flatten)]
    pub search: SearchOptions,
}

/// Options of `demo`.
#[derive(Debug, Default, Args)]
pub struct DemoArgs {
    /// Search options.
    #[command(flatten)]
    pub search: SearchOptions,
}

/// Options of `adjudicate`.
#[derive(Debug, Default, Args)]
pub struct AdjudicateArgs {
    /// Input files: PGN, plain or compressed (gzip, bzip2, zstd: recognised
    /// by content), or `FEN [moves] MOVE... [RESULT]` lines in UCI; `-` or
    /// nothing for standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// How the games are ruled on.
    #[command(flatten)]
    pub games: GameOptions,
    /// Threads.
    #[command(flatten)]
    pub threads: ThreadOptions,
    /// Output and progress.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Search options (of the timeout analyses).
    #[command(flatten)]
    pub search: SearchOptions,
}

/// Options of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on (loopback by default; port 0 picks a free
    /// port, printed at start): an IP address or a host name
    /// (`localhost:8080`), with the port.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    pub addr: std::net::SocketAddr,
    /// Worker threads running analyses, each with its own analyzer
    /// [default: one per CPU, as many as fit in --memory-mb].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)))]
    pub workers: Option<u16>,
    /// Requests waiting for a worker at most; beyond, 503 with Retry-After
    /// [default: 4 per worker].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub queue: Option<u16>,
    /// Memory budget of the whole run, in MiB, divided among its threads
    /// (in the full mode an analysis uses at most 256 MiB per 50 million
    /// nodes of its node budget)
    /// [default: 1024, or half the machine's memory if less; at most the
    /// machine's memory].
    #[arg(long = "memory-mb", value_name = "MIB", value_parser = pipeline::options::parse::memory_mb)]
    pub memory_mb: Option<u64>,
    /// The most positions one analysis may search; a request may ask for
    /// fewer (`nodes=`), never more.
    #[arg(long, value_name = "N", default_value_t = 5_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// The longest wall-clock time of one analysis, in milliseconds; a
    /// request may ask for less (`deadline_ms=`), never more.
    #[arg(long = "max-deadline-ms", value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=pipeline::options::MAX_DEADLINE_MS))]
    pub max_deadline_ms: u64,
    /// The most queries in one `POST /api/analyze` batch.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_batch: u64,
    /// The most games in one `POST /api/adjudicate` body.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_games: u64,
    /// Seconds a client may take to send a request's headers or its body.
    #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub client_timeout_secs: u64,
    /// Seconds given to the requests in flight after SIGTERM; shortly
    /// before their end the analyses still running are stopped, so that
    /// every request is answered in time (what was not finished:
    /// `undetermined`, cause `stopped`).
    #[arg(long, value_name = "S", default_value_t = 30, value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub grace_secs: u64,
    /// Connections open at once at most; a connection beyond is answered
    /// 503 and closed.
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = clap::value_parser!(u16).range(1..))]
    pub max_connections: u16,
    /// Nothing on standard error but errors and warnings: no summary, no
    /// progress display, no log lines (`serve` still prints its address).
    #[arg(long, short)]
    pub quiet: bool,
}

/// `HOST:PORT` resolved to its first address (`localhost:8080` is
/// `127.0.0.1:8080` or `[::1]:8080`, as the system resolves it).
fn parse_addr(text: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::ToSocketAddrs;
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    if !text.contains(':') {
        return Err(format!("{text:?} has no port (expected HOST:PORT, e.g. 127.0.0.1:8080 or localhost:8080)"));
    }
    let mut addrs: Vec<std::net::SocketAddr> =
        text.to_socket_addrs().map_err(|e| format!("cannot resolve {text:?}: {e}"))?.collect();
    // IPv4 first: what a browser tries for `localhost` works either way.
    addrs.sort_by_key(|addr| !addr.is_ipv4());
    addrs.first().copied().ok_or_else(|| format!("{text:?} resolves to no address"))
}

/// The output options of the subcommands that write records.
#[derive(Debug, Default, Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Nothing on standard error but errors and warnings: no summary, no
    /// progress display, no log lines (`serve` still prints its address).
    #[arg(long, short)]
    pub quiet: bool,
}

/// The name among `names` closest to `word` (edit distance, ASCII case
/// ignored), if it is close enough to be a misspelling: at most 2 edits,
/// and fewer than the word has characters.
pub fn closest<'a>(word: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    names
        .into_iter()
        .map(|name| (edit_distance(&word, &name.to_ascii_lowercase()), name))
        .filter(|&(distance, _)| distance <= 2 && distance < word.chars().count())
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name)
}

/// The Levenshtein distance between `a` and `b`, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// The long options of subcommand `name`, with their help texts.
    fn options(name: &str) -> Vec<(String, String)> {
        let command = Cli::command();
        let sub = command.find_subcommand(name).unwrap();
        let mut options: Vec<(String, String)> = sub
            .get_arguments()
            .filter_map(|a| Some((a.get_long()?.to_string(), a.get_help().map(ToString::to_string)?)))
            .collect();
        options.sort();
        options
    }

    /// Item 14 of issue 11, issue 32: every option is defined once (in
    /// `pipeline::options`): the subcommands that take it take it with the
    /// same help, and `--tt-mb` (which meant another budget in Python) is
    /// no more.
    #[test]
    fn one_definition_of_each_option() {
        let analyze = options("analyze");
        let longs: Vec<&str> = analyze.iter().map(|(long, _)| long.as_str()).collect();
        assert_eq!(
            longs,
            [
                "certificate",
                "chess960",
                "deadline-ms",
                "format",
                "memory-mb",
                "mode",
                "nodes",
                "quiet",
                "strict",
                "threads",
                "winner"
            ]
        );
        let adjudicate = options("adjudicate");
        let longs: Vec<&str> = adjudicate.iter().map(|(long, _)| long.as_str()).collect();
        assert_eq!(
            longs,
            [
                "certificate",
                "deadline-ms",
                "every-ply",
                "format",
                "memory-mb",
                "mode",
                "nodes",
                "only-wrong",
                "quiet",
                "threads",
                "timeout",
                "timeout-only"
            ]
        );
        let dead = options("dead");
        for (name, help) in analyze.iter().chain(&adjudicate).chain(&dead).chain(&options("serve")) {
            for other in [&analyze, &adjudicate, &dead] {
                if let Some((_, same)) = other.iter().find(|(long, _)| long == name) {
                    assert_eq!(help, same, "--{name}");
                }
            }
        }
        let parsed =
            Cli::try_parse_from(["unwinnable", "adjudicate", "--mode", "quick", "--memory-mb", "300", "x.pgn"]);
        let Some(Command::Adjudicate(args)) = parsed.unwrap().command else { panic!() };
        assert_eq!((args.search.mode, args.search.memory_mb), (pipeline::options::Mode::Quick, Some(300)));
        assert_eq!(args.threads.threads, None);
        assert!(Cli::try_parse_from(["unwinnable", "adjudicate", "--tt-mb", "300"]).is_err());
    }

    #[test]
    fn misspelt_subcommands() {
        let names = ["analyze", "dead", "demo", "adjudicate"];
        assert_eq!(closest("analyse", names), Some("analyze"));
        assert_eq!(closest("Analyze", names), Some("analyze"));
        assert_eq!(closest("adjudcate", names), Some("adjudicate"));
        assert_eq!(closest("deda", names), Some("dead"));
        assert_eq!(closest("frobnicate", names), None);
        assert_eq!(closest("x", names), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn command_line() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from([
            "unwinnable",
            "analyze",
            "8/8/1p6/1B2k3/5pK1/8/8/8",
            "b",
            "-",
            "-",
            "--winner",
            "both",
            "--nodes",
            "1000",
            "--deadline-ms",
            "50",
            "--mode",
            "quick",
        ])
        .unwrap();
        let Some(Command::Analyze(args)) = cli.command else { panic!("{cli:?}") };
        assert_eq!(args.fen.join(" "), "8/8/1p6/1B2k3/5pK1/8/8/8 b - -");
        assert_eq!(args.query.winner, Some(pipeline::Winners::Both));
        let config = args.search.config(7);
        assert_eq!(config.mode, search::Mode::Quick);
        assert_eq!(config.limits.nodes, 1000);
        assert_eq!(config.limits.deadline, Some(std::time::Duration::from_millis(50)));
        assert_eq!(config.limits.memory_mb, 7);
        for bad in [
            &["unwinnable", "analyze", "--threads", "0"][..],
            &["unwinnable", "analyze", "--threads", "257"],
            &["unwinnable", "analyze", "--memory-mb", "0"],
            &["unwinnable", "dead"],
            &["unwinnable", "--nodes", "0"],
            &["unwinnable", "dead", "--x"],
        ] {
            assert!(Cli::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }
}
