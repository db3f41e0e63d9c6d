//! `cargo xtask`: project automation. Run `cargo xtask help` for the tasks.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

mod corpus;

mod fuzz;

mod gen_pgn;

mod load;

const HELP: &str = "\
usage: cargo xtask <task> [options]

tasks:
  gen-magics [--check]     regenerate crates/movegen/src/magics_generated.rs
                           (--check: fail if the checked-in file is stale)
  perft [--depth N] [--deep] [--full]
                           perft suite of testdata/perft-1000.tsv up to depth N
                           (1-4, default 4); --deep adds the deep standard cases
                           (start position depth 6, Kiwipete 5, ...); --full uses
                           make-move at the leaves instead of bulk counting
  perft --chess960 [--sample] [--jobs N]
                           Chess960 against python-chess (chess960=True, in a venv
                           under target/): counts at every depth and the root's
                           moves one by one, on the 960 start positions to depth 4
                           and 1,000 random positions with castling rights to
                           depth 3; the wiki's Chess960 positions to depth 5;
                           --sample: 48 start positions and 100 random ones to
                           depth 3, the wiki's to depth 4 (CI); --jobs: python-chess
                           processes (default 2); then the solver's verdicts on
                           10,000 random Chess960 positions with castling rights
                           (--sample: 300), both colours: helpmates replayed and
                           checked by crates/check, unwinnable verdicts attacked
                           by a plain exhaustive search; fails on any disagreement
                           or wrong verdict
  regress [--set paper|dev|hard|timeouts|corpus|all] [--mode full|quick|shortest] [--nodes N]
          [--slowest K] [--static-pruning MIN_DEPTH|off] [--report FILE] [--certify]
                           (FILE: one TSV line per query; --certify: every verdict's
                           certificate through the independent checker, a table of
                           the accepted, and a failure on any rejected)
                           every labelled position of testdata/paper-positions.tsv,
                           dev-positions.txt and hard-positions.txt, both colours,
                           and of timeouts-20k.txt, for the side not to move (all
                           unwinnable); --set: one of them, or the corpus, or all
                           five (default: the four labelled ones, and the corpus
                           with --certify); totals per set and overall; fails on
                           any wrong answer
  compare SET [--mode full|quick] [--limit N] [--slowest K] [--nodes N] [--report FILE]
          [--progress] [--retime K]
                           this project against CHA-Solver 3.0 (the chasolver crate)
                           on the same queries, one thread, alternating which runs
                           first; SET: paper, dev, hard, corpus, timeouts or a file (LABEL FEN
                           lines, or FEN [anything] lines: winner = side not to move);
                           every helpmate replayed; correctness of both, time per
                           query (median, p90, p99, worst, total), the K slowest of
                           each, speed ratios, agreement; --mode quick compares the
                           quick mode with is_unwinnable_fast; --nodes: our budget;
                           --progress: progress on stderr even when not a terminal;
                           --retime: the K slowest queries of each solver (10; those
                           under 100 ms for both) timed 3 more times, the fastest
                           kept, so a preemption does not make the worst query;
                           fails if this project gives any wrong answer
  gen-pgn N [--out FILE] [--zst] [--seed S] [--variant standard|chess960]
                           a synthetic online-style PGN database of N random
                           legal games (tags, clock comments, a realistic mix
                           of terminations with time forfeits), deterministic;
                           standard output by default, zstd-compressed with --zst;
                           --variant chess960: Chess960 games from random start
                           positions (Variant, SetUp and FEN tags)
  corpus [--mode full|quick|both] [--limit N]
                           the analyzer over testdata/lichess-30k-positions.txt
                           (winner: side not to move), one thread: time per
                           query (mean, median, p99, max) and verdict counts
  fuzz --smoke [--seconds N] [--seed S] [--target NAME]
                           the fuzz targets of fuzz/src/lib.rs on stable Rust for
                           N seconds in all (default 30): testdata seeds, then
                           seeded random mutations; any panic fails
  fuzz --corpus [--max N]  seed fuzz/corpus/<target>/ from testdata for cargo-fuzz
  load [--workers W] [--seconds S] [--limit N] [--memory-mb MB] [--smoke]
                           `unwinnable serve` under load on loopback against
                           `unwinnable analyze --threads W` on the same corpus
                           queries (testdata/lichess-30k-positions.txt): runs of
                           S seconds (default 10) below saturation, at 2W clients,
                           in batches, and overloaded; throughput, p50/p99, 503s,
                           /healthz latency, peak memory; fails on any error or
                           wrong answer (--smoke: 1000 queries, 1 s runs)
  tidy [--no-doc]          the repository's hygiene checks (CI): no measurement notes
                           in crates/*/src comments (they go to docs/tuning.md), every
                           source file in ARCHITECTURE.md's code map, no broken
                           intra-doc links (cargo doc --document-private-items;
                           --no-doc skips it)
  help                     this text
";

fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

fn gen_magics(check: bool) -> Result<(), String> {
    let path = workspace_root().join(xtask::magics::GENERATED_PATH);
    let text = xtask::magics::generate();
    if check {
        let current = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if current != text {
            return Err(format!("{} is stale: run `cargo xtask gen-magics`", path.display()));
        }
        println!("{} is up to date", path.display());
    } else {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn perft(args: &[String]) -> Result<(), String> {
    if args.iter().any(|arg| arg == "--chess960") {
        return perft_chess960(args);
    }
    let mut options = xtask::perft::Options { max_depth: 4, deep: false, full: false };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--deep" => options.deep = true,
            "--full" => options.full = true,
            "--depth" => {
                let value = args.next().ok_or("--depth needs a value")?;
                options.max_depth = value.parse().map_err(|_| format!("--depth: not a number: {value}"))?;
                if !(1..=4).contains(&options.max_depth) {
                    return Err("--depth must be 1 to 4 (the file's columns)".into());
                }
            }
            other => return Err(format!("perft: unknown option {other}\n\n{HELP}")),
        }
    }
    let path = workspace_root().join("testdata/perft-1000.tsv");
    let data = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    xtask::perft::run_suite(&data, &options)
}

fn perft_chess960(args: &[String]) -> Result<(), String> {
    let mut scope = xtask::chess960::Scope::Full;
    let mut jobs = 2;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--chess960" => {}
            "--sample" => scope = xtask::chess960::Scope::Sample,
            "--jobs" => {
                let value = args.next().ok_or("--jobs needs a value")?;
                jobs = value.parse().map_err(|_| format!("--jobs: not a number: {value}"))?;
                if jobs == 0 {
                    return Err("--jobs must be at least 1".into());
                }
            }
            other => return Err(format!("perft --chess960: unknown option {other}\n\n{HELP}")),
        }
    }
    let root = workspace_root();
    let perft = xtask::chess960::run(&root, scope, jobs);
    let (count, budget) = match scope {
        xtask::chess960::Scope::Full => (10_000, 2_000_000),
        xtask::chess960::Scope::Sample => (300, 300_000),
    };
    let verdicts = xtask::verdicts960::run(&root, count, budget, jobs);
    perft.and(verdicts)
}

fn regress(args: &[String]) -> Result<(), String> {
    let mut config = search::Config::default();
    let mut slowest = 10;
    let mut report = None;
    let mut certify = false;
    let mut chosen = false;
    let mut names: Vec<&str> = xtask::regress::SETS.to_vec();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--set" => {
                let set = value()?;
                chosen = true;
                names = match set.as_str() {
                    "all" => xtask::regress::SETS.iter().chain(["corpus"].iter()).copied().collect(),
                    "corpus" => vec!["corpus"],
                    one => match xtask::regress::SETS.iter().find(|&&s| s == one) {
                        Some(&name) => vec![name],
                        None => {
                            return Err(format!(
                                "regress: unknown set {one} (paper, dev, hard, timeouts, corpus or all)"
                            ));
                        }
                    },
                }
            }
            "--mode" => {
                config.mode = match value()?.as_str() {
                    "full" => search::Mode::Full,
                    "quick" => search::Mode::Quick,
                    "shortest" => search::Mode::Shortest,
                    other => return Err(format!("unknown mode {other}")),
                }
            }
            "--nodes" => config.limits.nodes = value()?.parse().map_err(|_| "--nodes: not a number")?,
            "--slowest" => slowest = value()?.parse().map_err(|_| "--slowest: not a number")?,
            "--static-pruning" => {
                let text = value()?;
                config.static_pruning = if text == "off" {
                    None
                } else {
                    Some(text.parse().map_err(|_| "--static-pruning: a depth or `off`")?)
                };
            }
            "--report" => report = Some(PathBuf::from(value()?)),
            "--certify" => certify = true,
            other => return Err(format!("regress: unknown option {other}\n\n{HELP}")),
        }
    }
    if certify && !chosen {
        // Certificates are asked of every verdict, the corpus's too.
        names.push("corpus");
    }
    let root = workspace_root();
    let sets = names.iter().map(|name| xtask::sets::load(&root, name, usize::MAX)).collect::<Result<Vec<_>, _>>()?;
    xtask::regress::run(&sets, config, slowest, report.as_deref(), certify)
}

fn gen_pgn(args: &[String]) -> Result<(), String> {
    let mut options = gen_pgn::Options { games: 0, out: None, zst: false, seed: 1, chess960: false };
    let mut games = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--out" => options.out = Some(PathBuf::from(value()?)),
            "--zst" => options.zst = true,
            "--seed" => options.seed = value()?.parse().map_err(|_| "--seed: not a number")?,
            "--variant" => match value()?.to_ascii_lowercase().as_str() {
                "standard" => options.chess960 = false,
                "chess960" => options.chess960 = true,
                other => return Err(format!("gen-pgn: --variant standard or chess960, not {other}")),
            },
            number if games.is_none() && !number.starts_with('-') => {
                games = Some(number.parse().map_err(|_| format!("gen-pgn: not a number of games: {number}"))?);
            }
            other => return Err(format!("gen-pgn: unknown option {other}\n\n{HELP}")),
        }
    }
    options.games = games.ok_or(format!("gen-pgn: how many games?\n\n{HELP}"))?;
    gen_pgn::run(&options)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or_default();
    // `cargo xtask TASK --help` shows the tasks and their options too.
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    let result = match args.first().map(String::as_str) {
        Some("gen-magics") => gen_magics(rest.iter().any(|a| a == "--check")),
        Some("perft") => perft(rest),
        Some("regress") => regress(rest),
        Some("tidy") => xtask::tidy::run(&workspace_root(), rest),
        Some("compare") => xtask::compare::run(&workspace_root(), rest),
        Some("corpus") => corpus::run(&workspace_root(), rest),
        Some("gen-pgn") => gen_pgn(rest),
        Some("fuzz") => fuzz::run(&workspace_root(), rest),
        Some("load") => load::run_load(&workspace_root(), rest),
        Some("help" | "--help" | "-h") | None => {
            print!("{HELP}");
            Ok(())
        }
        Some(other) => Err(format!("unknown task {other:?}\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
