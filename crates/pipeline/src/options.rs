//! The options of the pipeline, defined once: each has one name and one
//! meaning in the command (`--memory-mb`), the service (`memory_mb=`,
//! where it applies), the Python package (`memory_mb=`) and `unwinnable.dask`
//! (`--memory-mb`).
//!
//! The structs below are the definition: their fields are the options,
//! their doc comments the help texts, and the functions of
//! [`parse`] check the values (the same checks and the same
//! error texts wherever the option is given). With the `clap` feature they
//! derive [`clap::Args`], which the command flattens into its subcommands;
//! the Python package lists them from the same derive
//! ([`clap::Args::augment_args`]) to build `unwinnable.dask`'s command line
//! and to check its own keyword arguments against them (a test).
//!
//! | group | options | taken by |
//! | --- | --- | --- |
//! | [`SearchOptions`] | `mode`, `nodes`, `deadline-ms`, `memory-mb` | every analysis |
//! | [`ThreadOptions`] | `threads` | `analyze`, `adjudicate` (command, Python, a Dask task) |
//! | [`QueryOptions`] | `winner` | `analyze` |
//! | [`ProofOptions`] | `strict`, `certificate` | `analyze`, `dead` |
//! | [`GameOptions`] | `timeout`, `timeout-only`, `every-ply`, `only-wrong` | `adjudicate` |

use core::fmt;
use std::time::Duration;

use movegen::Color;

use crate::memory::{self, Machine, MemoryError, Plan, Workload};

/// The longest `deadline-ms` accepted (about 31 years): far enough from
/// the limits of [`std::time::Instant`] on every platform.
pub const MAX_DEADLINE_MS: u64 = 1_000_000_000_000;

/// The largest `memory-mb` accepted by the parser (16 TiB); the machine's
/// memory is checked after ([`memory::plan`]).
pub const MAX_MEMORY_MB: u64 = 1 << 24;

/// The default node budget of one analysis.
pub const DEFAULT_NODES: u64 = 50_000_000;

/// The algorithm: the search crate's own (with `clap::ValueEnum` under
/// the `clap` feature).
pub use search::Mode;

/// For whom a position is analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Winners {
    /// White is the intended winner.
    White,
    /// Black is the intended winner.
    Black,
    /// Two analyses: White, then Black.
    Both,
}

impl Winners {
    /// The colours to analyse for, in order.
    pub fn colors(self) -> &'static [Color] {
        match self {
            Winners::White => &[Color::White],
            Winners::Black => &[Color::Black],
            Winners::Both => &[Color::White, Color::Black],
        }
    }

    /// Parses `white`, `black`, `w`, `b` or `both`, in any case.
    pub fn from_name(name: &str) -> Option<Winners> {
        if name.eq_ignore_ascii_case("both") {
            return Some(Winners::Both);
        }
        Color::from_name(name).map(Winners::from)
    }

    /// `white`, `black` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Winners::White => "white",
            Winners::Black => "black",
            Winners::Both => "both",
        }
    }
}

impl From<Color> for Winners {
    fn from(color: Color) -> Winners {
        match color {
            Color::White => Winners::White,
            Color::Black => Winners::Black,
        }
    }
}

/// A colour as an option's value (`--timeout white`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum ColorName {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<ColorName> for Color {
    fn from(color: ColorName) -> Color {
        match color {
            ColorName::White => Color::White,
            ColorName::Black => Color::Black,
        }
    }
}

impl From<Color> for ColorName {
    fn from(color: Color) -> ColorName {
        match color {
            Color::White => ColorName::White,
            Color::Black => ColorName::Black,
        }
    }
}

/// The search options of every analysis, mapped onto [`search::Config`];
/// unset options keep [`search::Config::default`]'s values, but for the
/// analyzer's memory, which comes from the budget ([`SearchOptions::plan`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[non_exhaustive]
pub struct SearchOptions {
    /// The algorithm.
    #[cfg_attr(feature = "clap", arg(long, value_enum, default_value_t))]
    pub mode: Mode,
    /// The most positions searched per analysis [default: 50000000].
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", value_parser = parse::nodes))]
    pub nodes: Option<u64>,
    /// Wall-clock limit per analysis, in milliseconds [default: none].
    #[cfg_attr(feature = "clap", arg(long = "deadline-ms", value_name = "MS", value_parser = parse::deadline_ms))]
    pub deadline_ms: Option<u64>,
    /// Memory budget of the whole run, in MiB, divided among its threads
    /// (in the full mode an analysis uses at most 256 MiB per 50 million
    /// nodes of its node budget)
    /// [default: 1024, or half the machine's memory if less; at most the
    /// machine's memory].
    #[cfg_attr(feature = "clap", arg(long = "memory-mb", value_name = "MIB", value_parser = parse::memory_mb))]
    pub memory_mb: Option<u64>,
}

impl SearchOptions {
    /// The options with every value checked as [`parse`] does (for front
    /// ends that get typed values: Python, the service).
    pub fn new(
        mode: Mode,
        nodes: Option<u64>,
        deadline_ms: Option<u64>,
        memory_mb: Option<u64>,
    ) -> Result<SearchOptions, OptionError> {
        Ok(SearchOptions {
            mode,
            nodes: nodes.map(|n| parse::check_nodes(n).map_err(|e| OptionError::new("nodes", e))).transpose()?,
            deadline_ms: deadline_ms
                .map(|ms| parse::check_deadline_ms(ms).map_err(|e| OptionError::new("deadline-ms", e)))
                .transpose()?,
            memory_mb: memory_mb
                .map(|mb| parse::check_memory_mb(mb).map_err(|e| OptionError::new("memory-mb", e)))
                .transpose()?,
        })
    }

    /// How the memory budget is spent by `threads` workers (`None`: the
    /// default) doing `workload`, on this machine.
    pub fn plan(&self, threads: Option<usize>, workload: Workload) -> Result<Plan, MemoryError> {
        memory::plan(self.memory_mb, threads, workload, &Machine::cached())
    }

    /// The search configuration of an analyzer given `memory_mb` MiB.
    pub fn config(&self, memory_mb: usize) -> search::Config {
        let mut config = search::Config { mode: self.mode, ..search::Config::default() };
        config.limits.memory_mb = memory_mb;
        if let Some(nodes) = self.nodes {
            config.limits.nodes = nodes;
        }
        if let Some(ms) = self.deadline_ms {
            config.limits.deadline = Some(Duration::from_millis(ms));
        }
        config
    }
}

/// The worker threads of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[non_exhaustive]
pub struct ThreadOptions {
    /// Worker threads, each with its own analyzer [default: one per CPU, as
    /// many as fit in the memory budget; at most 256].
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", value_parser = parse::threads))]
    pub threads: Option<u16>,
}

impl ThreadOptions {
    /// The options with `threads` checked as [`parse::threads`] does.
    pub fn new(threads: Option<u64>) -> Result<ThreadOptions, OptionError> {
        let threads = threads
            .map(|n| parse::check_threads(n).map(|n| n as u16).map_err(|e| OptionError::new("threads", e)))
            .transpose()?;
        Ok(ThreadOptions { threads })
    }

    /// The threads asked for, if any.
    pub fn get(&self) -> Option<usize> {
        self.threads.map(usize::from)
    }
}

/// For whom `analyze` analyses each query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[non_exhaustive]
pub struct QueryOptions {
    /// The intended winner(s), overriding the colours named on the input
    /// lines [default: as named on the line, else the side not to move].
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub winner: Option<Winners>,
    /// Play the positions as Chess960: `KQkq` names the outermost rook on
    /// each side of the king (X-FEN), castling is written as the king
    /// taking its rook (`e1h1`). Without it, a Shredder-FEN (`HAha`) or a
    /// castling field only Chess960 can read is read as Chess960 all the
    /// same.
    #[cfg_attr(feature = "clap", arg(long))]
    pub chess960: bool,
}

impl QueryOptions {
    /// The options (standard chess: see [`QueryOptions::chess960`]).
    pub fn new(winner: Option<Winners>) -> QueryOptions {
        QueryOptions { winner, chess960: false }
    }

    /// The options, with every position played as Chess960 when `chess960`.
    pub fn chess960(mut self, chess960: bool) -> QueryOptions {
        self.chess960 = chess960;
        self
    }
}

/// What `analyze` and `dead` accept and answer beyond the verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[non_exhaustive]
pub struct ProofOptions {
    /// Reject positions that no game can reach (more than eight pawns, more
    /// pieces than promotions allow, an impossible check) instead of
    /// analysing them with a note.
    #[cfg_attr(feature = "clap", arg(long))]
    pub strict: bool,
    /// Add each verdict's certificate to its record (a `certificate` field:
    /// the JSON Lines records of `analyze`, a JSON line per colour after
    /// `dead`'s reasons, and with its `winner` and `verdict` each timeout
    /// ruling's JSON Lines record of `adjudicate`), for `unwinnable check`
    /// (docs/certificates.md).
    #[cfg_attr(feature = "clap", arg(long))]
    pub certificate: bool,
}

impl ProofOptions {
    /// The options.
    pub fn new(strict: bool, certificate: bool) -> ProofOptions {
        ProofOptions { strict, certificate }
    }
}

/// How `adjudicate` rules on whole games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[non_exhaustive]
pub struct GameOptions {
    /// Treat every game as lost on time by this player (Art. 6.9), for
    /// sources without a `Termination "Time forfeit"` tag.
    #[cfg_attr(feature = "clap", arg(long, value_enum, value_name = "COLOR"))]
    pub timeout: Option<ColorName>,
    /// Only the games lost on time (a `Termination "Time forfeit"` tag, or
    /// every game with --timeout); the others are counted, not written.
    #[cfg_attr(feature = "clap", arg(long))]
    pub timeout_only: bool,
    /// Check for a dead position after every ply (quick algorithm), as a
    /// server would during play. Default: only where the game ended (then
    /// backwards to the first dead ply): much faster, and the same answer
    /// whenever the quick algorithm's proofs carry over along the game.
    #[cfg_attr(feature = "clap", arg(long))]
    pub every_ply: bool,
    /// Write only games whose recorded result is wrong (and malformed games).
    #[cfg_attr(feature = "clap", arg(long))]
    pub only_wrong: bool,
    /// Add each verdict's certificate to its record (a `certificate` field:
    /// the JSON Lines records of `analyze`, a JSON line per colour after
    /// `dead`'s reasons, and with its `winner` and `verdict` each timeout
    /// ruling's JSON Lines record of `adjudicate`), for `unwinnable check`
    /// (docs/certificates.md).
    #[cfg_attr(feature = "clap", arg(long))]
    pub certificate: bool,
}

impl GameOptions {
    /// The options.
    pub fn new(timeout: Option<Color>, timeout_only: bool, every_ply: bool, only_wrong: bool) -> GameOptions {
        GameOptions { timeout: timeout.map(ColorName::from), timeout_only, every_ply, only_wrong, certificate: false }
    }

    /// The player every game is lost on time by, if given.
    pub fn flagged(&self) -> Option<Color> {
        self.timeout.map(Color::from)
    }

    /// The rules' analyses: `search` for the timeouts, whose analyzer gets
    /// `memory_mb` MiB.
    pub fn rules(&self, search: &SearchOptions, memory_mb: usize) -> adjudicate::Options {
        adjudicate::Options {
            every_ply: self.every_ply,
            timeout: search.config(memory_mb),
            ..adjudicate::Options::batch()
        }
    }
}

/// A value an option does not take, with the option's name (`--nodes` on
/// the command line, `nodes=` in Python).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The option, as on the command line without the dashes (`deadline-ms`).
    pub option: &'static str,
    /// What is wrong, the same text wherever the option is given.
    pub message: String,
}

impl OptionError {
    fn new(option: &'static str, message: String) -> OptionError {
        OptionError { option, message }
    }

    /// The option's name as a Python keyword argument (`deadline_ms`).
    pub fn keyword(&self) -> String {
        self.option.replace('-', "_")
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.option, self.message)
    }
}

impl std::error::Error for OptionError {}

/// The checks of the options' values, one function each, with the texts
/// every front end shows. The `check_*` functions take the number, the
/// others its text (clap's value parsers).
pub mod parse {
    use super::{MAX_DEADLINE_MS, MAX_MEMORY_MB};
    use crate::memory::MAX_THREADS;

    /// A whole number from `low` to `high`.
    fn within(value: u64, low: u64, high: u64) -> Result<u64, String> {
        if (low..=high).contains(&value) {
            Ok(value)
        } else {
            Err(format!("{value} is not a whole number from {low} to {high}"))
        }
    }

    /// Text as a whole number (digits only), then [`within`].
    fn number(text: &str, low: u64, high: u64) -> Result<u64, String> {
        let trimmed = text.trim();
        if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{:?} is not a whole number from {low} to {high}", crate::lines::shorten_to(text, 24)));
        }
        trimmed
            .parse::<u64>()
            .map_err(|_| format!("{trimmed} is not a whole number from {low} to {high}"))
            .and_then(|value| within(value, low, high))
    }

    /// `nodes`: at least 1.
    pub fn check_nodes(value: u64) -> Result<u64, String> {
        within(value, 1, u64::MAX)
    }

    /// `nodes` as text.
    pub fn nodes(text: &str) -> Result<u64, String> {
        number(text, 1, u64::MAX)
    }

    /// `deadline-ms`: 0 to [`MAX_DEADLINE_MS`].
    pub fn check_deadline_ms(value: u64) -> Result<u64, String> {
        within(value, 0, MAX_DEADLINE_MS)
    }

    /// `deadline-ms` as text.
    pub fn deadline_ms(text: &str) -> Result<u64, String> {
        number(text, 0, MAX_DEADLINE_MS)
    }

    /// `memory-mb`: 1 to [`MAX_MEMORY_MB`] (the machine's memory is
    /// checked when the budget is planned).
    pub fn check_memory_mb(value: u64) -> Result<u64, String> {
        within(value, 1, MAX_MEMORY_MB)
    }

    /// `memory-mb` as text.
    pub fn memory_mb(text: &str) -> Result<u64, String> {
        number(text, 1, MAX_MEMORY_MB)
    }

    /// `threads`: 1 to [`MAX_THREADS`].
    pub fn check_threads(value: u64) -> Result<u64, String> {
        within(value, 1, u64::from(MAX_THREADS))
    }

    /// `threads` as text.
    pub fn threads(text: &str) -> Result<u16, String> {
        number(text, 1, u64::from(MAX_THREADS)).map(|n| n as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_once_for_every_front_end() {
        assert_eq!(parse::nodes("10"), Ok(10));
        assert_eq!(parse::nodes("0"), Err("0 is not a whole number from 1 to 18446744073709551615".into()));
        assert_eq!(parse::nodes(" -1"), Err("\" -1\" is not a whole number from 1 to 18446744073709551615".into()));
        assert_eq!(parse::threads("257"), Err("257 is not a whole number from 1 to 256".into()));
        assert_eq!(parse::deadline_ms("0"), Ok(0));
        assert_eq!(parse::memory_mb("99999999999"), Err("99999999999 is not a whole number from 1 to 16777216".into()));
        let error = SearchOptions::new(Mode::Full, Some(0), None, None).unwrap_err();
        assert_eq!((error.option, error.keyword().as_str()), ("nodes", "nodes"));
        assert_eq!(error.message, parse::nodes("0").unwrap_err());
        let error = SearchOptions::new(Mode::Full, None, None, Some(0)).unwrap_err();
        assert_eq!(
            (error.to_string(), error.keyword()),
            ("memory-mb: 0 is not a whole number from 1 to 16777216".to_string(), "memory_mb".to_string())
        );
        assert_eq!(ThreadOptions::new(Some(0)).unwrap_err().option, "threads");
        assert_eq!(ThreadOptions::new(Some(3)).unwrap().get(), Some(3));
    }

    #[test]
    fn search_options_map_onto_the_search_configuration() {
        let options = SearchOptions::new(Mode::Quick, Some(1000), Some(50), None).unwrap();
        let config = options.config(7);
        assert_eq!(config.mode, search::Mode::Quick);
        assert_eq!(config.limits.nodes, 1000);
        assert_eq!(config.limits.deadline, Some(Duration::from_millis(50)));
        assert_eq!(config.limits.memory_mb, 7);
        let mut default = search::Config::default();
        default.limits.memory_mb = 7;
        assert_eq!(SearchOptions::default().config(7), default);
        assert_eq!(default.limits.nodes, DEFAULT_NODES);
    }

    #[test]
    fn names() {
        assert_eq!(Mode::ALL.map(Mode::name), ["full", "quick", "shortest"]);
        assert_eq!(Winners::from_name("B"), Some(Winners::Black));
        assert_eq!(Winners::from_name("Both").map(Winners::name), Some("both"));
        assert_eq!(Winners::from_name("red"), None);
        assert_eq!(GameOptions::new(Some(Color::Black), false, false, false).flagged(), Some(Color::Black));
    }
}
