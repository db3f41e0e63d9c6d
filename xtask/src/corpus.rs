//! `cargo xtask corpus`: the analyzer over the performance corpus
//! (`testdata/lichess-30k-positions.txt`, 30,000 positions from Lichess
//! games), one thread, the intended winner being the side not to move (as
//! the command-line program does). Prints, per mode, the number of queries,
//! mean, median, 99th percentile and largest time per query, and how many
//! were winnable, unwinnable and undetermined.
//!
//! The targets (issue 4) are a mean of at most 35 µs per position in the
//! full mode and 1.6 µs in the quick mode. Run it on one idle core, e.g.
//! `taskset -c 1 cargo xtask corpus`.

use std::path::Path;
use std::time::{Duration, Instant};

use movegen::Position;
use search::{Analyzer, Config, Mode, Verdict};
use xtask::stats::Summary;

/// Options of the task.
struct Options {
    modes: Vec<Mode>,
    limit: usize,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options { modes: vec![Mode::Full, Mode::Quick], limit: usize::MAX };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--mode" => {
                options.modes = match value()?.as_str() {
                    "full" => vec![Mode::Full],
                    "quick" => vec![Mode::Quick],
                    "both" => vec![Mode::Full, Mode::Quick],
                    other => return Err(format!("corpus: unknown mode {other} (full, quick or both)")),
                }
            }
            "--limit" => options.limit = value()?.parse().map_err(|_| "--limit: not a number")?,
            other => return Err(format!("corpus: unknown option {other}")),
        }
    }
    Ok(options)
}

/// Runs the task; `root` is the workspace root.
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let set = xtask::sets::load(root, "corpus", options.limit)?;
    let mut positions = Vec::with_capacity(set.queries.len());
    for query in &set.queries {
        let pos: Position = query.fen.parse().map_err(|e| format!("{}: {}: {e}", query.source, query.fen))?;
        positions.push(pos);
    }
    println!("{} positions of the corpus, intended winner: the side not to move", positions.len());
    for &mode in &options.modes {
        report(mode, &positions);
    }
    Ok(())
}

fn report(mode: Mode, positions: &[Position]) {
    let mut analyzer = Analyzer::new(Config { mode, ..Config::default() });
    let mut times = Vec::with_capacity(positions.len());
    let (mut winnable, mut unwinnable, mut undetermined) = (0, 0, 0);
    let start = Instant::now();
    for pos in positions {
        let before = Instant::now();
        let verdict = analyzer.analyze(pos, !pos.side_to_move()).verdict;
        times.push(before.elapsed());
        match verdict {
            Verdict::Winnable { .. } => winnable += 1,
            Verdict::Unwinnable(_) => unwinnable += 1,
            _ => undetermined += 1,
        }
    }
    let total = start.elapsed().as_secs_f64();
    let summary = Summary::of(&times);
    let micros = |d: Duration| d.as_secs_f64() * 1e6;
    let mean = micros(summary.mean());
    let (name, target) = match mode {
        Mode::Full => ("full", Some(35.0)),
        Mode::Quick => ("quick", Some(1.6)),
        _ => (mode.name(), None),
    };
    println!("\nmode {name}: {} queries in {total:.2} s", summary.count);
    println!(
        "  per query: mean {mean:.2} µs, median {:.2} µs, p99 {:.2} µs, max {:.0} µs",
        micros(summary.median),
        micros(summary.p99),
        micros(summary.worst)
    );
    if let Some(target) = target {
        let verdict = if mean <= target { "met" } else { "NOT met" };
        println!("  target: mean <= {target} µs: {verdict}");
    }
    println!("  verdicts: {winnable} winnable, {unwinnable} unwinnable, {undetermined} undetermined");
}
