//! `cargo xtask regress`: every labelled position of the test sets (paper,
//! dev and hard, both colours; the timeouts, for the side not to move)
//! through the analyzer; a table of right and wrong answers per set and
//! overall.

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use movegen::Position;
use search::{Analyzer, Config};

use crate::judge::{Answer, Class, classify, our_answer};
use crate::sets::{Query, Set};
use crate::stats::human;

/// The labelled sets `regress` runs, in order.
pub const SETS: [&str; 4] = ["paper", "dev", "hard", "timeouts"];

/// The outcome of one query.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The set's name.
    pub set: String,
    /// The query.
    pub query: Query,
    /// What the analyzer answered (helpmate replayed).
    pub answer: Answer,
    /// The answer judged against the label.
    pub class: Class,
    /// Time taken (the analysis only).
    pub time: Duration,
    /// Nodes searched.
    pub nodes: u64,
    /// With `--certify`: what the independent checker says of the
    /// verdict's certificate (`None` without the flag, or for an
    /// undetermined verdict).
    pub certificate: Option<check::Outcome>,
}

/// Runs one query and classifies the answer against its label (a helpmate
/// that does not replay to mate counts as a wrong "winnable"; a position our
/// generator rejects as failed); with `certify`, the verdict's certificate
/// goes through the independent checker (`crates/check`) as the command's
/// JSON Lines record would.
pub fn run_query(analyzer: &mut Analyzer, set: &str, query: &Query, certify: bool) -> Outcome {
    let outcome = |answer, time, nodes, certificate| Outcome {
        set: set.to_string(),
        query: query.clone(),
        answer,
        class: classify(answer, query.label),
        time,
        nodes,
        certificate,
    };
    let Ok(pos) = Position::from_fen(&query.fen) else {
        return outcome(Answer::Unparsable, Duration::ZERO, 0, None);
    };
    let started = Instant::now();
    let analysis = analyzer.analyze(&pos, query.winner);
    let time = started.elapsed();
    let certificate = certify
        .then(|| pipeline::certificate::certificate(&pos, query.winner, &analysis.verdict))
        .flatten()
        .map(|certificate| {
            let record = serde_json::json!({
                "fen": query.fen,
                "winner": query.winner.name(),
                "verdict": analysis.verdict.name(),
                "certificate": certificate,
            });
            check::check_record(&record.to_string(), &check::Limits::default())
        });
    outcome(our_answer(&pos, query.winner, &analysis.verdict), time, analysis.nodes, certificate)
}

/// One line of the table: the totals of some outcomes.
fn totals_row(name: &str, outcomes: &[&Outcome]) -> String {
    let count = |class| outcomes.iter().filter(|o| o.class == class).count();
    let total: Duration = outcomes.iter().map(|o| o.time).sum();
    let worst = outcomes.iter().max_by_key(|o| o.time);
    let mean = if outcomes.is_empty() { Duration::ZERO } else { total / outcomes.len() as u32 };
    format!(
        "| {name} | {} | {} | {} | {} | {} | {} | {:.2} s | {} | {} | {} |",
        outcomes.len(),
        count(Class::Correct),
        count(Class::WrongUnwinnable),
        count(Class::WrongWinnable),
        count(Class::Undetermined),
        count(Class::Failed),
        total.as_secs_f64(),
        human(mean),
        worst.map_or("-".into(), |o| human(o.time)),
        worst.map_or("-".into(), |o| format!("{} {}", o.query.source, o.query.winner)),
    )
}

/// Runs every query of `sets`; prints the per-set and overall table, the
/// slowest queries and any wrong answer; `Err` if any answer is wrong (or a
/// position could not be read).
pub fn run(
    sets: &[Set],
    config: Config,
    show_slowest: usize,
    report: Option<&Path>,
    certify: bool,
) -> Result<(), String> {
    let mut analyzer = Analyzer::new(config);
    let progress = std::io::stderr().is_terminal();
    let started = Instant::now();
    let all = sets.iter().map(|s| s.queries.len()).sum::<usize>();
    let mut outcomes = Vec::with_capacity(all);
    for set in sets {
        for query in &set.queries {
            outcomes.push(run_query(&mut analyzer, &set.name, query, certify));
            if progress && outcomes.len() % 50 == 0 {
                eprint!("\r{} / {all} queries, {:.1} s", outcomes.len(), started.elapsed().as_secs_f64());
            }
        }
    }
    if progress {
        eprintln!();
    }
    let mode = config.mode.name();
    println!("mode {mode}, {all} queries, wall time {:.2} s", started.elapsed().as_secs_f64());
    println!(
        "| set | queries | correct | wrong-unwinnable | wrong-winnable | undetermined | failed | total time | mean | \
         worst time | worst query |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for set in sets {
        let of_set: Vec<&Outcome> = outcomes.iter().filter(|o| o.set == set.name).collect();
        println!("{}", totals_row(&set.name, &of_set));
    }
    if sets.len() > 1 {
        println!("{}", totals_row("all", &outcomes.iter().collect::<Vec<_>>()));
    }
    let mut by_time: Vec<&Outcome> = outcomes.iter().collect();
    by_time.sort_by_key(|o| std::cmp::Reverse(o.time));
    for o in by_time.iter().take(show_slowest) {
        println!(
            "  {:>10} {:>10} nodes  {:<16} {} {} ({})",
            human(o.time),
            o.nodes,
            o.class.name(),
            o.query.winner,
            o.query.fen,
            o.query.source
        );
    }
    if let Some(path) = report {
        let mut text = String::from("class\tanswer\tmicros\tnodes\twinner\tlabel_can_win\tfen\tsource\n");
        for o in &outcomes {
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                o.class.name(),
                o.answer.name(),
                o.time.as_micros(),
                o.nodes,
                o.query.winner,
                o.query.label.unwrap_or(false),
                o.query.fen,
                o.query.source
            ));
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let bad: Vec<&Outcome> = outcomes.iter().filter(|o| o.class.is_wrong() || o.class == Class::Failed).collect();
    for o in &bad {
        println!(
            "WRONG {} ({}): {} for {} ({})",
            o.class.name(),
            o.answer.name(),
            o.query.fen,
            o.query.winner,
            o.query.source
        );
    }
    if certify {
        certification_table(sets, &outcomes);
    }
    let rejected = outcomes.iter().filter(|o| rejected(o) && uncheckable(&o.query.fen).is_none()).count();
    match (bad.len(), rejected) {
        (0, 0) => Ok(()),
        (0, rejected) => Err(format!("{rejected} certificates rejected")),
        (wrong, 0) => Err(format!("{wrong} wrong answers")),
        (wrong, rejected) => Err(format!("{wrong} wrong answers, {rejected} certificates rejected")),
    }
}

/// `--certify`: per set, the decided verdicts and how many certificates the
/// independent checker accepted, with every rejection. A rejection of a
/// position the checker cannot read at all ([`uncheckable`]) is a *named
/// exception*, counted and listed apart, and does not fail the run.
fn certification_table(sets: &[Set], outcomes: &[Outcome]) {
    println!("certificates (the independent checker, crates/check):");
    println!("| set | decided | accepted | rejected | named exceptions | accepted share |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let row = |name: &str, of_set: &[&Outcome]| {
        let decided = of_set.iter().filter(|o| o.certificate.is_some()).count();
        let accepted = of_set.iter().filter(|o| o.certificate == Some(check::Outcome::Accepted)).count();
        let exceptions = of_set.iter().filter(|o| rejected(o) && uncheckable(&o.query.fen).is_some()).count();
        let rejected = of_set.iter().filter(|o| rejected(o)).count() - exceptions;
        let share = if decided == 0 { 100.0 } else { 100.0 * accepted as f64 / decided as f64 };
        println!("| {name} | {decided} | {accepted} | {rejected} | {exceptions} | {share:.2}% |");
    };
    for set in sets {
        row(&set.name, &outcomes.iter().filter(|o| o.set == set.name).collect::<Vec<_>>());
    }
    if sets.len() > 1 {
        row("all", &outcomes.iter().collect::<Vec<_>>());
    }
    for o in outcomes {
        if let Some(check::Outcome::Rejected(step)) = &o.certificate {
            let what = match uncheckable(&o.query.fen) {
                Some(why) => format!("EXCEPTION ({why})"),
                None => "REJECTED".into(),
            };
            println!("{what} {} for {} ({}): {step}", o.query.fen, o.query.winner, o.query.source);
        }
    }
}

/// Whether the checker rejected the outcome's certificate.
fn rejected(outcome: &Outcome) -> bool {
    matches!(outcome.certificate, Some(check::Outcome::Rejected(_)))
}

/// Why the checker cannot read the position of `fen` at all, if so: the
/// named exception of `docs/certificates.md` ("Trusted": cozy-chess holds
/// at most 8 pawns and 16 pieces a side, so a composed position with more
/// has no certificate the checker can verify).
fn uncheckable(fen: &str) -> Option<&'static str> {
    let placement = fen.split_whitespace().next()?;
    let count = |pieces: &str| placement.chars().filter(|c| pieces.contains(*c)).count();
    let too_many = count("P") > 8 || count("p") > 8 || count("PNBRQK") > 16 || count("pnbrqk") > 16;
    too_many.then_some("more than 8 pawns or 16 pieces of a side: cozy-chess, the checker's board, cannot hold it")
}
