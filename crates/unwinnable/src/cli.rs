//! The command line (clap derive): `analyze`, `dead`, `demo`,
//! `adjudicate`; the search options all four share ([`SearchArgs`]) and the
//! options of the two that run a pool of workers ([`BatchArgs`]).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use movegen::Color;
use search::{Config, Mode};

use crate::memory::{self, MAX_THREADS, Machine, MemoryError, Plan, Workload};
use crate::output::Format;
use crate::query::Winners;

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

/// The longest `--deadline-ms` accepted (about 31 years): far enough from
/// the limits of [`std::time::Instant`] on every platform.
const MAX_DEADLINE_MS: u64 = 1_000_000_000_000;

/// The largest `--memory-mb` accepted by the parser (16 TiB); the machine's
/// memory is checked after ([`memory::plan`]).
const MAX_MEMORY_MB: u64 = 1 << 24;

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
    /// The intended winner(s), overriding the colours named on the input
    /// lines [default: as named on the line, else the side not to move].
    #[arg(long, value_enum)]
    pub winner: Option<Winners>,
    /// Reject positions that no game can reach (more than eight pawns, more
    /// pieces than promotions allow, an impossible check) instead of
    /// analysing them with a note.
    #[arg(long)]
    pub strict: bool,
    /// Play the positions as Chess960: `KQkq` names the outermost rook on
    /// each side of the king (X-FEN), castling is written as the king
    /// taking its rook (`e1h1`). Without it, a Shredder-FEN (`HAha`) or a
    /// castling field only Chess960 can read is read as Chess960 all the
    /// same.
    #[arg(long)]
    pub chess960: bool,
    /// Add each verdict's certificate to its record (a `certificate` field
    /// of the JSON Lines records: use with --format jsonl), for `unwinnable
    /// check` (docs/certificates.md).
    #[arg(long)]
    pub certificate: bool,
    /// Threads, output and progress.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Search options.
    #[command(flatten)]
    pub search: SearchArgs,
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
    /// Reject a position that no game can reach instead of analysing it
    /// with a note.
    #[arg(long)]
    pub strict: bool,
    /// After each colour's reasons, its record with its certificate (a
    /// JSON line, docs/certificates.md): `unwinnable dead --certificate FEN
    /// | unwinnable check` checks them.
    #[arg(long)]
    pub certificate: bool,
    /// Search options.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Options of `demo`.
#[derive(Debug, Default, Args)]
pub struct DemoArgs {
    /// Search options.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Options of `adjudicate`.
#[derive(Debug, Default, Args)]
pub struct AdjudicateArgs {
    /// Input files: PGN, plain or compressed (gzip, bzip2, zstd: recognised
    /// by content), or `FEN [moves] MOVE... [RESULT]` lines in UCI; `-` or
    /// nothing for standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
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
    /// Threads, output and progress.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Search options (of the timeout analyses).
    #[command(flatten)]
    pub search: SearchArgs,
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
    /// Memory budget of the whole service, in MiB, divided among the
    /// workers (`--tt-mb` is another name) [default: 1024, or half the
    /// machine's memory if less].
    #[arg(long = "memory-mb", alias = "tt-mb", value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=MAX_MEMORY_MB))]
    pub memory_mb: Option<u64>,
    /// The most positions one analysis may search; a request may ask for
    /// fewer (`nodes=`), never more.
    #[arg(long, value_name = "N", default_value_t = 5_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Wall-clock limit of one analysis, in milliseconds; a request may ask
    /// for less (`deadline_ms=`), never more.
    #[arg(long = "deadline-ms", value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=MAX_DEADLINE_MS))]
    pub deadline_ms: u64,
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
    /// No log lines on standard error (the address is still printed).
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

/// The options of the subcommands that run a pool of workers.
#[derive(Debug, Default, Args)]
pub struct BatchArgs {
    /// Worker threads, each with its own analyzer [default: one per CPU, as
    /// many as fit in --memory-mb; at most 256].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)))]
    pub threads: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// No summary and no progress display on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The algorithm (see the `search` crate).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// The paper's full algorithm: sound and complete (within the limits).
    #[default]
    Full,
    /// The paper's quick algorithm: sound, very fast, may answer undetermined.
    Quick,
    /// Iterative deepening without heuristics: a shortest helpmate.
    Shortest,
}

impl From<ModeArg> for Mode {
    fn from(mode: ModeArg) -> Mode {
        match mode {
            ModeArg::Full => Mode::Full,
            ModeArg::Quick => Mode::Quick,
            ModeArg::Shortest => Mode::Shortest,
        }
    }
}

/// The search options, mapped onto [`search::Config`] and
/// [`search::Limits`]; unset options keep [`Config::default`]'s values,
/// but for the tables' size, which comes from the memory budget.
#[derive(Debug, Default, Args)]
pub struct SearchArgs {
    /// The algorithm.
    #[arg(long, value_enum, default_value_t)]
    pub mode: ModeArg,
    /// The most positions searched per analysis [default: 50000000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Wall-clock limit per analysis, in milliseconds [default: none].
    #[arg(long = "deadline-ms", value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=MAX_DEADLINE_MS))]
    pub deadline_ms: Option<u64>,
    /// Memory budget of the whole command, in MiB, divided among the
    /// threads (`--tt-mb` is its former name) [default: 1024, or half the
    /// machine's memory if less; at most the machine's memory].
    #[arg(long = "memory-mb", alias = "tt-mb", value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=MAX_MEMORY_MB))]
    pub memory_mb: Option<u64>,
}

impl SearchArgs {
    /// How the memory budget is spent by `threads` workers (`None`: the
    /// default) doing `workload`, on this machine.
    pub fn plan(&self, threads: Option<usize>, workload: Workload) -> Result<Plan, MemoryError> {
        memory::plan(self.memory_mb, threads, workload, &Machine::read())
    }

    /// The search configuration of an analyzer given `tt_mb` MiB of tables.
    pub fn config(&self, tt_mb: usize) -> Config {
        let mut config = Config { mode: self.mode.into(), ..Config::default() };
        config.limits.tt_mb = tt_mb;
        if let Some(nodes) = self.nodes {
            config.limits.nodes = nodes;
        }
        if let Some(ms) = self.deadline_ms {
            config.limits.deadline = Some(Duration::from_millis(ms));
        }
        config
    }
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

    /// Item 14 of issue 11: `analyze` and `adjudicate` take the same search,
    /// thread, format and progress options, with the same defaults.
    #[test]
    fn one_set_of_options() {
        let command = Cli::command();
        let options = |name: &str| -> Vec<(String, String)> {
            let sub = command.find_subcommand(name).unwrap();
            let mut options: Vec<(String, String)> = sub
                .get_arguments()
                .filter_map(|a| Some((a.get_long()?.to_string(), a.get_help().map(ToString::to_string)?)))
                .filter(|(long, _)| {
                    !["winner", "strict", "chess960", "only-wrong", "every-ply", "timeout", "certificate"]
                        .contains(&long.as_str())
                })
                .collect();
            options.sort();
            options
        };
        let analyze = options("analyze");
        let longs: Vec<&str> = analyze.iter().map(|(long, _)| long.as_str()).collect();
        assert_eq!(longs, ["deadline-ms", "format", "memory-mb", "mode", "nodes", "quiet", "threads"]);
        assert_eq!(analyze, options("adjudicate"));
        let parsed = Cli::try_parse_from(["unwinnable", "adjudicate", "--mode", "quick", "--tt-mb", "300", "x.pgn"]);
        let Some(Command::Adjudicate(args)) = parsed.unwrap().command else { panic!() };
        assert_eq!((args.search.mode, args.search.memory_mb), (ModeArg::Quick, Some(300)));
        assert_eq!(args.batch.threads, None);
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
        assert_eq!(args.winner, Some(Winners::Both));
        let config = args.search.config(7);
        assert_eq!(config.mode, Mode::Quick);
        assert_eq!(config.limits.nodes, 1000);
        assert_eq!(config.limits.deadline, Some(Duration::from_millis(50)));
        assert_eq!(config.limits.tt_mb, 7);
        let mut default = Config::default();
        default.limits.tt_mb = 7;
        assert_eq!(SearchArgs::default().config(7), default);
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
