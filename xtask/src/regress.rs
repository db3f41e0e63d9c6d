//! `cargo xtask regress`: every labelled position of the test data, both
//! colours, through the analyzer; a table of right and wrong answers.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use movegen::{Color, Position};
use search::{Analyzer, Config, Mode, Verdict, replay};

/// One labelled query.
#[derive(Clone, Debug)]
pub struct Query {
    /// Where it comes from (file and line or id).
    pub source: String,
    /// The FEN.
    pub fen: String,
    /// The intended winner.
    pub winner: Color,
    /// Whether the label says the winner can mate.
    pub can_win: bool,
}

/// Reads the labelled queries of `paper-positions.tsv` and `dev-positions.txt`.
pub fn load(paper: &str, dev: &str) -> Vec<Query> {
    let mut queries = Vec::new();
    let mut push = |source: String, label: &str, fen: &str| {
        for (i, winner) in Color::ALL.into_iter().enumerate() {
            let can_win = label.as_bytes().get(i).is_some_and(|&b| b != b'-');
            queries.push(Query { source: source.clone(), fen: fen.to_string(), winner, can_win });
        }
    };
    for line in paper.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() >= 3 {
            push(format!("paper {}", fields[0]), fields[1], fields[2]);
        }
    }
    for (number, line) in dev.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some((label, fen)) = line.split_once(' ') {
            push(format!("dev line {}", number + 1), label, fen);
        }
    }
    queries
}

/// The outcome of one query.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The query.
    pub query: Query,
    /// `"correct"`, `"wrong-unwinnable"`, `"wrong-winnable"` or `"undetermined"`.
    pub class: &'static str,
    /// Time taken.
    pub time: Duration,
    /// Nodes searched.
    pub nodes: u64,
}

/// Runs one query and classifies the answer against its label (a helpmate
/// that does not replay to mate counts as a wrong "winnable").
pub fn run_query(analyzer: &mut Analyzer, query: &Query) -> Outcome {
    let started = Instant::now();
    let pos = match Position::from_fen(&query.fen) {
        Ok(pos) => pos,
        Err(_) => return Outcome { query: query.clone(), class: "wrong-winnable", time: Duration::ZERO, nodes: 0 },
    };
    let analysis = analyzer.analyze(&pos, query.winner);
    let time = started.elapsed();
    let class = match &analysis.verdict {
        Verdict::Winnable { helpmate } => {
            if replay(&pos, query.winner, helpmate).is_err() || !query.can_win {
                "wrong-winnable"
            } else {
                "correct"
            }
        }
        Verdict::Unwinnable(_) if query.can_win => "wrong-unwinnable",
        Verdict::Unwinnable(_) => "correct",
        Verdict::Undetermined(_) => "undetermined",
    };
    Outcome { query: query.clone(), class, time, nodes: analysis.nodes }
}

/// Runs every query; prints the table; `Err` if any answer is wrong.
pub fn run(
    queries: &[Query],
    config: Config,
    show_slowest: usize,
    report: Option<&std::path::Path>,
) -> Result<(), String> {
    let mut analyzer = Analyzer::new(config);
    let progress = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut outcomes = Vec::with_capacity(queries.len());
    for (i, query) in queries.iter().enumerate() {
        outcomes.push(run_query(&mut analyzer, query));
        if progress && (i + 1) % 50 == 0 {
            eprint!("\r{} / {} queries, {:.1} s", i + 1, queries.len(), started.elapsed().as_secs_f64());
        }
    }
    if progress {
        eprintln!();
    }
    let total = started.elapsed();
    let count = |class: &str| outcomes.iter().filter(|o| o.class == class).count();
    let slowest = outcomes.iter().max_by_key(|o| o.time).map(|o| o.time).unwrap_or_default();
    let mode = match config.mode {
        Mode::Full => "full",
        Mode::Quick => "quick",
        Mode::Shortest => "shortest",
    };
    println!("mode {mode}, {} queries", outcomes.len());
    println!("| correct | wrong-unwinnable | wrong-winnable | undetermined | total time | mean | max time |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    println!(
        "| {} | {} | {} | {} | {:.2} s | {:.0} us | {:.0} ms |",
        count("correct"),
        count("wrong-unwinnable"),
        count("wrong-winnable"),
        count("undetermined"),
        total.as_secs_f64(),
        total.as_secs_f64() * 1e6 / outcomes.len().max(1) as f64,
        slowest.as_secs_f64() * 1e3
    );
    let mut by_time: Vec<&Outcome> = outcomes.iter().collect();
    by_time.sort_by_key(|o| std::cmp::Reverse(o.time));
    for o in by_time.iter().take(show_slowest) {
        println!(
            "  {:>8.1} ms {:>10} nodes  {:<16} {} {} ({})",
            o.time.as_secs_f64() * 1e3,
            o.nodes,
            o.class,
            o.query.winner,
            o.query.fen,
            o.query.source
        );
    }
    if let Some(path) = report {
        let mut text = String::from("class\tmicros\tnodes\twinner\tlabel_can_win\tfen\tsource\n");
        for o in &outcomes {
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                o.class,
                o.time.as_micros(),
                o.nodes,
                o.query.winner,
                o.query.can_win,
                o.query.fen,
                o.query.source
            ));
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let wrong: Vec<&Outcome> = outcomes.iter().filter(|o| o.class.starts_with("wrong")).collect();
    for o in &wrong {
        println!("WRONG {}: {} for {} ({})", o.class, o.query.fen, o.query.winner, o.query.source);
    }
    if wrong.is_empty() { Ok(()) } else { Err(format!("{} wrong answers", wrong.len())) }
}
