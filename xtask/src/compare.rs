//! `cargo xtask compare SET`: this project's analyzer side by side with the
//! strongest published solver, CHA-Solver 3.0 (the `chasolver` crate, MIT),
//! on the same queries in one run.
//!
//! One thread; for each query both solvers run, and which one goes first
//! alternates from query to query (the project first on even queries), so
//! cache and clock-frequency effects fall on both alike. A labelled set's
//! two queries per position come White first on even positions and Black
//! first on odd ones, so that each solver also opens half of each colour. Only the solver
//! calls are timed (not parsing, not replaying).
//!
//! Both solvers are judged by the same rules ([`crate::judge`]): every
//! helpmate, ours and theirs, is replayed by our own [`search::replay`]
//! (theirs converted through UCI text). On an unlabelled set (the corpus,
//! winner: the side not to move) a replayed helpmate of one solver makes the
//! other's "unwinnable" wrong. The full mode compares [`Mode::Full`] with
//! `chasolver::winnability`; the quick mode [`Mode::Quick`] with
//! `chasolver::is_unwinnable_fast`, where "not proved" is never wrong.
//!
//! The peer is called through its public API only. It reads positions with
//! the `chess` crate; a position that crate rejects counts as "peer:
//! unparsable" (class `failed`), not as an error of the run.

use std::io::{IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use movegen::{Color, Position};
use search::{Analyzer, Config, Mode, replay};

use crate::judge::{Answer, Class, classify, our_answer};
use crate::sets::{self, Query};
use crate::stats::{Summary, human, speed};

/// The peer's name in tables.
pub const PEER: &str = "chasolver";
const OURS: &str = "project";

/// Options of `cargo xtask compare`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The set: a name of [`sets::NAMED`] or a path.
    pub set: String,
    /// Full or quick.
    pub quick: bool,
    /// Keep the first N positions.
    pub limit: usize,
    /// How many slowest queries of each solver to list.
    pub slowest: usize,
    /// Where to write the per-query TSV.
    pub report: Option<PathBuf>,
    /// Our node budget (default: the analyzer's).
    pub nodes: Option<u64>,
    /// Progress on standard error even when it is not a terminal.
    pub progress: bool,
    /// How many slowest queries of each solver to time again ([`RETIME_RUNS`]).
    pub retime: usize,
}

/// Runs more of each re-timed query, for both solvers; the fastest counts.
pub const RETIME_RUNS: usize = 3;

/// Queries slower than this for either solver are not re-timed: a
/// preemption of a few milliseconds, what re-timing removes, is small
/// beside them, and running them again is costly.
pub const RETIME_BELOW: Duration = Duration::from_millis(100);

/// Parses the task's arguments.
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        set: String::new(),
        quick: false,
        limit: usize::MAX,
        slowest: 10,
        report: None,
        nodes: None,
        progress: false,
        retime: 10,
    };
    let mut set = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--mode" => {
                options.quick = match value()?.as_str() {
                    "full" => false,
                    "quick" => true,
                    other => return Err(format!("compare: unknown mode {other} (full or quick)")),
                }
            }
            "--limit" => options.limit = value()?.parse().map_err(|_| "--limit: not a number")?,
            "--slowest" => options.slowest = value()?.parse().map_err(|_| "--slowest: not a number")?,
            "--nodes" => options.nodes = Some(value()?.parse().map_err(|_| "--nodes: not a number")?),
            "--report" => options.report = Some(PathBuf::from(value()?)),
            "--progress" => options.progress = true,
            "--retime" => options.retime = value()?.parse().map_err(|_| "--retime: not a number")?,
            other if set.is_none() && !other.starts_with("--") => set = Some(other.to_string()),
            other => return Err(format!("compare: unknown option {other}")),
        }
    }
    options.set = set.ok_or("compare: which set? paper, dev, hard, corpus, timeouts or a file")?;
    Ok(options)
}

/// The peer's view of a FEN: six fields (the `chess` crate wants the move
/// counters).
pub fn peer_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    match fields.len() {
        4 => format!("{} 0 1", fields.join(" ")),
        5 => format!("{} 1", fields.join(" ")),
        _ => fields.join(" "),
    }
}

/// The position for the peer, if the `chess` crate accepts it.
pub fn peer_board(fen: &str) -> Option<chess::Board> {
    chess::Board::from_str(&peer_fen(fen)).ok()
}

/// Our colour in the `chess` crate.
pub fn peer_color(color: Color) -> chess::Color {
    match color {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

/// Whether the peer's helpmate replays, by our rules, to a mate by
/// `winner`: each move is read as UCI text in the position it is played in
/// (a move our generator does not find legal there fails the line), then
/// the whole line goes through [`search::replay`].
pub fn peer_helpmate_replays(pos: &Position, winner: Color, helpmate: &[chess::ChessMove]) -> bool {
    let mut at = *pos;
    let mut moves = Vec::with_capacity(helpmate.len());
    for m in helpmate {
        let Ok(ours) = at.parse_uci(&m.to_string()) else { return false };
        let Some(next) = at.try_play(ours) else { return false };
        moves.push(ours);
        at = next;
    }
    replay(pos, winner, &moves).is_ok()
}

/// One solver's result on one query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// What it answered.
    pub answer: Answer,
    /// The answer judged.
    pub class: Class,
    /// Time of the solver call.
    pub time: Duration,
}

/// Both solvers on one query.
#[derive(Clone, Debug)]
pub struct Row {
    /// The query.
    pub query: Query,
    /// The label used for judging: the file's, or for an unlabelled query
    /// `Some(true)` when either solver's helpmate replayed.
    pub label: Option<bool>,
    /// This project.
    pub ours: Side,
    /// Our nodes.
    pub nodes: u64,
    /// The peer.
    pub peer: Side,
    /// Whether the peer ran first.
    pub peer_first: bool,
    /// The peer's board disagrees with ours on placement, side to move or
    /// castling rights (a FEN read differently).
    pub board_mismatch: bool,
}

/// Orders a labelled set's queries (White then Black for each position) so
/// that the odd positions put Black first. With the strict alternation of
/// who runs first, each solver then goes first on half the White and half
/// the Black queries (otherwise one would always open the White queries).
pub fn balance_colours(queries: &mut [Query]) {
    for (i, pair) in queries.chunks_exact_mut(2).enumerate() {
        if i % 2 == 1 && pair[0].fen == pair[1].fen {
            pair.swap(0, 1);
        }
    }
}

/// Judges both answers of one query: the label is the query's, or (when
/// unlabelled) "winnable" as soon as either helpmate replays.
pub fn judge(label: Option<bool>, ours: Answer, peer: Answer) -> (Option<bool>, Class, Class) {
    let label = label.or((ours.proves_winnable() || peer.proves_winnable()).then_some(true));
    (label, classify(ours, label), classify(peer, label))
}

/// The answer as compared between solvers: in quick mode a helpmate (ours
/// only) and "undetermined" both mean "not proved unwinnable".
fn agreement_key(answer: Answer, quick: bool) -> &'static str {
    match answer {
        Answer::Winnable { replays: true } | Answer::Undetermined if quick => "not-proved",
        other => other.name(),
    }
}

struct Runner {
    analyzer: Analyzer,
    quick: bool,
}

impl Runner {
    fn ours(&mut self, pos: &Position, winner: Color) -> (Answer, Duration, u64) {
        let started = Instant::now();
        let analysis = self.analyzer.analyze(pos, winner);
        let time = started.elapsed();
        (our_answer(pos, winner, &analysis.verdict), time, analysis.nodes)
    }

    fn peer(&self, board: Option<&chess::Board>, pos: &Position, winner: Color) -> (Answer, Duration) {
        let Some(board) = board else { return (Answer::Unparsable, Duration::ZERO) };
        let color = peer_color(winner);
        if self.quick {
            let started = Instant::now();
            let result = catch_unwind(AssertUnwindSafe(|| chasolver::is_unwinnable_fast(board, color)));
            let time = started.elapsed();
            let answer = match result {
                Ok(true) => Answer::Unwinnable,
                Ok(false) => Answer::Undetermined,
                Err(_) => Answer::Panicked,
            };
            (answer, time)
        } else {
            let started = Instant::now();
            let result = catch_unwind(AssertUnwindSafe(|| chasolver::winnability(board, color)));
            let time = started.elapsed();
            let answer = match result {
                Ok(Some(chasolver::Winnability::Winnable { helpmate })) => {
                    Answer::Winnable { replays: peer_helpmate_replays(pos, winner, &helpmate) }
                }
                Ok(Some(chasolver::Winnability::Unwinnable)) => Answer::Unwinnable,
                Ok(None) => Answer::Undetermined,
                Err(_) => Answer::Panicked,
            };
            (answer, time)
        }
    }

    /// Times `row`'s query [`RETIME_RUNS`] more times for both solvers, in
    /// alternating order, and keeps each solver's fastest time (answers
    /// stay those of the first run).
    fn retime(&mut self, row: &mut Row) {
        let Ok(pos) = Position::from_fen(&row.query.fen) else { return };
        let board = peer_board(&row.query.fen);
        for run in 0..RETIME_RUNS {
            let (ours, peer) = if run % 2 == 0 {
                let ours = self.ours(&pos, row.query.winner).1;
                (ours, self.peer(board.as_ref(), &pos, row.query.winner).1)
            } else {
                let peer = self.peer(board.as_ref(), &pos, row.query.winner).1;
                (self.ours(&pos, row.query.winner).1, peer)
            };
            row.ours.time = row.ours.time.min(ours);
            row.peer.time = row.peer.time.min(peer);
        }
    }

    fn run(&mut self, index: usize, query: &Query) -> Row {
        let peer_first = index % 2 == 1;
        let failed = Side { answer: Answer::Unparsable, class: Class::Failed, time: Duration::ZERO };
        let Ok(pos) = Position::from_fen(&query.fen) else {
            // Our generator rejects it: nothing to judge the peer by; counted against us.
            return Row {
                query: query.clone(),
                label: query.label,
                ours: failed,
                nodes: 0,
                peer: failed,
                peer_first,
                board_mismatch: false,
            };
        };
        let board = peer_board(&query.fen);
        let board_mismatch = board.is_some_and(|b| {
            let head = |fen: &str| fen.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
            head(&b.to_string()) != head(&pos.to_fen())
        });
        let (ours, peer) = if peer_first {
            let peer = self.peer(board.as_ref(), &pos, query.winner);
            (self.ours(&pos, query.winner), peer)
        } else {
            let ours = self.ours(&pos, query.winner);
            (ours, self.peer(board.as_ref(), &pos, query.winner))
        };
        let (label, ours_class, peer_class) = judge(query.label, ours.0, peer.0);
        Row {
            query: query.clone(),
            label,
            ours: Side { answer: ours.0, class: ours_class, time: ours.1 },
            nodes: ours.2,
            peer: Side { answer: peer.0, class: peer_class, time: peer.1 },
            peer_first,
            board_mismatch,
        }
    }
}

/// Runs the task; `root` is the workspace root. `Err` if this project gave
/// any wrong answer (or could not read a position).
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let options = parse_args(args)?;
    let mut set = sets::load(root, &options.set, options.limit)?;
    if set.labelled {
        balance_colours(&mut set.queries);
    }
    let mut config = Config { mode: if options.quick { Mode::Quick } else { Mode::Full }, ..Config::default() };
    if let Some(nodes) = options.nodes {
        config.limits.nodes = nodes;
    }
    let peer_api = if options.quick { "is_unwinnable_fast" } else { "winnability" };
    println!(
        "compare {}: {} positions, {} queries{}, mode {}, one thread, alternating order",
        set.name,
        set.positions,
        set.queries.len(),
        match (set.labelled, set.queries.len() == set.positions) {
            (false, _) => " (unlabelled: winner = side not to move)",
            (true, true) => " (winner = side not to move, labelled unwinnable)",
            (true, false) => "",
        },
        if options.quick { "quick" } else { "full" },
    );
    println!(
        "{OURS}: search::Analyzer, Mode::{:?}, node budget {}; {PEER}: CHA-Solver 3.0, chasolver::{peer_api}",
        config.mode, config.limits.nodes
    );

    let mut runner = Runner { analyzer: Analyzer::new(config), quick: options.quick };
    let terminal = std::io::stderr().is_terminal();
    let show_progress = terminal || options.progress;
    let started = Instant::now();
    let mut last_shown = Instant::now();
    let mut rows = Vec::with_capacity(set.queries.len());
    for (i, query) in set.queries.iter().enumerate() {
        rows.push(runner.run(i, query));
        let interval = if terminal { Duration::from_millis(200) } else { Duration::from_secs(10) };
        if show_progress && last_shown.elapsed() >= interval {
            last_shown = Instant::now();
            let (ours, peer): (Duration, Duration) =
                rows.iter().fold(Default::default(), |(a, b), r| (a + r.ours.time, b + r.peer.time));
            let line = format!(
                "{} / {} queries, {:.1} s ({OURS} {:.1} s, {PEER} {:.1} s)",
                i + 1,
                set.queries.len(),
                started.elapsed().as_secs_f64(),
                ours.as_secs_f64(),
                peer.as_secs_f64()
            );
            if terminal {
                eprint!("\r{line}");
            } else {
                eprintln!("{line}");
            }
            let _ = std::io::stderr().flush();
        }
    }
    if show_progress && terminal {
        eprintln!();
    }
    let retimed = retime_slowest(&mut runner, &mut rows, options.retime);
    if retimed > 0 {
        println!(
            "{retimed} queries timed {} more times for both solvers, the fastest kept (each solver's {} slowest \
             under {} ms, until they were all timed again)",
            RETIME_RUNS,
            options.retime,
            RETIME_BELOW.as_millis()
        );
    }
    print!("{}", render(&set.name, set.labelled, options.quick, options.slowest, &rows));
    if let Some(path) = &options.report {
        std::fs::write(path, report_tsv(&set.name, &rows)).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("per-query report: {}", path.display());
    }
    let ours_bad = rows.iter().filter(|r| r.ours.class.is_wrong() || r.ours.class == Class::Failed).count();
    if ours_bad == 0 { Ok(()) } else { Err(format!("{OURS}: {ours_bad} wrong or unreadable answers")) }
}

/// Times again the `k` slowest queries of each solver that took both
/// under [`RETIME_BELOW`], until the `k` slowest of each have all been
/// timed again (at most ten rounds): on a shared machine a single run can
/// be preempted for milliseconds, which would make the worst query and
/// p99 of a set of microsecond queries a measure of the scheduler. Both
/// solvers are re-timed on the same queries. Returns how many.
fn retime_slowest(runner: &mut Runner, rows: &mut [Row], k: usize) -> usize {
    let short = |r: &Row| r.ours.time < RETIME_BELOW && r.peer.time < RETIME_BELOW;
    let mut retimed = vec![false; rows.len()];
    for _ in 0..10 {
        let mut chosen: Vec<usize> = Vec::new();
        for side in [(|r: &Row| r.ours.time) as fn(&Row) -> Duration, |r: &Row| r.peer.time] {
            let mut order: Vec<usize> = (0..rows.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(side(&rows[i])));
            chosen.extend(order.into_iter().take(k).filter(|&i| short(&rows[i]) && !retimed[i]));
        }
        chosen.sort_unstable();
        chosen.dedup();
        if chosen.is_empty() {
            break;
        }
        for &i in &chosen {
            runner.retime(&mut rows[i]);
            retimed[i] = true;
        }
    }
    retimed.iter().filter(|&&r| r).count()
}

/// Picks one solver's side of a row.
type Pick = fn(&Row) -> Side;

fn count(rows: &[Row], side: Pick, class: Class) -> usize {
    rows.iter().filter(|r| side(r).class == class).count()
}

fn label_text(label: Option<bool>) -> &'static str {
    match label {
        Some(true) => "can-mate",
        Some(false) => "cannot-mate",
        None => "unlabelled",
    }
}

fn describe(r: &Row) -> String {
    format!(
        "{} [{}] {} ({}; label: {})",
        r.query.winner,
        if r.peer_first { "peer first" } else { "project first" },
        r.query.fen,
        r.query.source,
        label_text(r.label)
    )
}

/// The tables and lists printed at the end of a run.
pub fn render(set: &str, labelled: bool, quick: bool, show_slowest: usize, rows: &[Row]) -> String {
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    let sides: [(&str, Pick); 2] = [(OURS, |r| r.ours), (PEER, |r| r.peer)];

    line(String::new());
    line(format!("correctness ({set}, {} queries)", rows.len()));
    let undetermined = if quick { "undetermined/not proved" } else { "undetermined" };
    line(format!(
        "| solver | correct | wrong-unwinnable | wrong-winnable | {undetermined} |{} failed (unparsable/panic) |",
        if labelled { "" } else { " unwinnable (unverified) |" }
    ));
    line(format!("| --- | ---: | ---: | ---: | ---: |{} ---: |", if labelled { "" } else { " ---: |" }));
    for (name, side) in sides {
        let unverified = if labelled { String::new() } else { format!(" {} |", count(rows, side, Class::Unverified)) };
        line(format!(
            "| {name} | {} | {} | {} | {} |{unverified} {} |",
            count(rows, side, Class::Correct),
            count(rows, side, Class::WrongUnwinnable),
            count(rows, side, Class::WrongWinnable),
            count(rows, side, Class::Undetermined),
            count(rows, side, Class::Failed),
        ));
    }
    if !labelled {
        line("(correct = a helpmate that replays to mate; unwinnable answers are wrong only when the other".into());
        line(" solver's helpmate replays, and otherwise unverified)".into());
    }

    let summaries = sides.map(|(name, side)| {
        let times: Vec<Duration> = rows.iter().map(|r| side(r).time).collect();
        (name, Summary::of(&times))
    });
    line(String::new());
    line("time per query (solver call only)".into());
    line("| solver | total | mean | median | p90 | p99 | worst |".into());
    line("| --- | ---: | ---: | ---: | ---: | ---: | ---: |".into());
    for (name, s) in &summaries {
        line(format!(
            "| {name} | {} | {} | {} | {} | {} | {} |",
            human(s.total),
            human(s.mean()),
            human(s.median),
            human(s.p90),
            human(s.p99),
            human(s.worst)
        ));
    }
    let (ours, peer) = (summaries[0].1, summaries[1].1);
    line(format!("speed ({PEER} / {OURS}):"));
    line(format!("  total:  {:.3}x: {}", ratio(peer.total, ours.total), speed(ours.total, peer.total)));
    line(format!("  median: {:.3}x: {}", ratio(peer.median, ours.median), speed(ours.median, peer.median)));
    line(format!("  worst:  {:.3}x: {}", ratio(peer.worst, ours.worst), speed(ours.worst, peer.worst)));

    // Where the ratio comes from: it moves with the material (real games).
    line(String::new());
    line(format!("time by men on the board (kings included; {PEER} / {OURS} in total)"));
    line(format!("| men | queries | {OURS} | {PEER} | ratio |"));
    line("| --- | ---: | ---: | ---: | ---: |".into());
    for group in by_men(rows) {
        line(format!(
            "| {}-{} | {} | {} | {} | {:.2}x |",
            group.first_men,
            group.first_men + MEN_PER_GROUP - 1,
            group.queries,
            human(group.ours),
            human(group.peer),
            ratio(group.peer, group.ours)
        ));
    }

    // Agreement, over the queries both solvers answered.
    let both: Vec<&Row> =
        rows.iter().filter(|r| r.ours.class != Class::Failed && r.peer.class != Class::Failed).collect();
    let disagree: Vec<&Row> = both
        .iter()
        .copied()
        .filter(|r| agreement_key(r.ours.answer, quick) != agreement_key(r.peer.answer, quick))
        .collect();
    line(String::new());
    line(format!(
        "agreement: {} of {} queries answered by both ({:.2}%){}",
        both.len() - disagree.len(),
        both.len(),
        100.0 * (both.len() - disagree.len()) as f64 / both.len().max(1) as f64,
        if quick { "; in quick mode a helpmate and `undetermined` both count as `not proved`" } else { "" }
    ));
    const LIST: usize = 100;
    for r in disagree.iter().take(LIST) {
        line(format!(
            "  DIFFER {OURS} {} ({}) vs {PEER} {} ({}): {}",
            r.ours.answer.name(),
            r.ours.class.name(),
            r.peer.answer.name(),
            r.peer.class.name(),
            describe(r)
        ));
    }
    if disagree.len() > LIST {
        line(format!("  ... and {} more (see --report)", disagree.len() - LIST));
    }

    for (name, side) in sides {
        let mut by_time: Vec<&Row> = rows.iter().collect();
        by_time.sort_by_key(|r| std::cmp::Reverse(side(r).time));
        line(String::new());
        line(format!("slowest {} of {name}: {OURS} time, {PEER} time, {OURS} answer / {PEER} answer", show_slowest));
        for r in by_time.iter().take(show_slowest) {
            line(format!(
                "  {:>10} {:>10}  {:>12} / {:<12} {}",
                human(r.ours.time),
                human(r.peer.time),
                r.ours.answer.name(),
                r.peer.answer.name(),
                describe(r)
            ));
        }
    }

    line(String::new());
    let mut clean = true;
    for (name, side) in sides {
        for r in rows.iter().filter(|r| side(r).class.is_wrong()) {
            clean = false;
            let s = side(r);
            line(format!("WRONG {name}: {} ({}): {}", s.class.name(), s.answer.name(), describe(r)));
        }
    }
    for r in rows.iter().filter(|r| r.query.label == Some(false)) {
        if r.ours.answer.proves_winnable() || r.peer.answer.proves_winnable() {
            line(format!("LABEL CONTRADICTED: a replayed helpmate where the label says cannot mate: {}", describe(r)));
        }
    }
    for (name, side) in sides {
        let failed: Vec<&Row> = rows.iter().filter(|r| side(r).class == Class::Failed).collect();
        if !failed.is_empty() {
            clean = false;
            line(format!("{name}: {} queries failed (could not parse, or panicked):", failed.len()));
            for r in failed.iter().take(20) {
                line(format!("  {}: {}", side(r).answer.name(), describe(r)));
            }
        }
    }
    let mismatched: Vec<&Row> = rows.iter().filter(|r| r.board_mismatch).collect();
    if !mismatched.is_empty() {
        line(format!("{PEER}: {} queries read as a different position by the chess crate:", mismatched.len()));
        for r in mismatched.iter().take(20) {
            line(format!("  {}", describe(r)));
        }
    }
    let wrong = |side: Pick| rows.iter().filter(|r| side(r).class.is_wrong()).count();
    line(format!(
        "wrong answers: {OURS} {}, {PEER} {}{}",
        wrong(sides[0].1),
        wrong(sides[1].1),
        if clean { " (and no failures)" } else { "" }
    ));
    out
}

/// Men per line of the table by material.
const MEN_PER_GROUP: u32 = 4;

/// The queries of one line of the table by material: positions with
/// `first_men` to `first_men + MEN_PER_GROUP - 1` men.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MenGroup {
    first_men: u32,
    queries: usize,
    ours: Duration,
    peer: Duration,
}

/// The rows grouped by the number of men of their FEN (the letters of its
/// first field), fewest first; groups without a query are left out.
fn by_men(rows: &[Row]) -> Vec<MenGroup> {
    let mut groups: std::collections::BTreeMap<u32, MenGroup> = std::collections::BTreeMap::new();
    for r in rows {
        let board = r.query.fen.split_whitespace().next().unwrap_or("");
        let men = board.chars().filter(char::is_ascii_alphabetic).count() as u32;
        let first_men = men / MEN_PER_GROUP * MEN_PER_GROUP;
        let group = groups.entry(first_men).or_insert(MenGroup {
            first_men,
            queries: 0,
            ours: Duration::ZERO,
            peer: Duration::ZERO,
        });
        group.queries += 1;
        group.ours += r.ours.time;
        group.peer += r.peer.time;
    }
    groups.into_values().collect()
}

fn ratio(theirs: Duration, ours: Duration) -> f64 {
    if ours.is_zero() { f64::NAN } else { theirs.as_secs_f64() / ours.as_secs_f64() }
}

/// One TSV line per query, with a header.
pub fn report_tsv(set: &str, rows: &[Row]) -> String {
    let mut text = String::from(
        "set\tsource\tfen\twinner\tlabel\tfirst\tproject_answer\tproject_class\tproject_micros\tproject_nodes\t\
         chasolver_answer\tchasolver_class\tchasolver_micros\n",
    );
    for r in rows {
        text.push_str(&format!(
            "{set}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.1}\t{}\t{}\t{}\t{:.1}\n",
            r.query.source,
            r.query.fen,
            r.query.winner,
            label_text(r.label),
            if r.peer_first { PEER } else { OURS },
            r.ours.answer.name(),
            r.ours.class.name(),
            r.ours.time.as_secs_f64() * 1e6,
            r.nodes,
            r.peer.answer.name(),
            r.peer.class.name(),
            r.peer.time.as_secs_f64() * 1e6,
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options() {
        let o = parse_args(&args(&["dev", "--mode", "quick", "--limit", "5", "--slowest", "3", "--nodes", "1000"]))
            .unwrap();
        assert_eq!((o.set.as_str(), o.quick, o.limit, o.slowest, o.nodes), ("dev", true, 5, 3, Some(1000)));
        let o = parse_args(&args(&["--report", "r.tsv", "x/y.txt", "--progress"])).unwrap();
        assert_eq!((o.set.as_str(), o.quick, o.report, o.progress), ("x/y.txt", false, Some("r.tsv".into()), true));
        assert_eq!(o.retime, 10);
        assert_eq!(parse_args(&args(&["dev", "--retime", "0"])).unwrap().retime, 0);
        assert!(parse_args(&args(&[])).is_err());
        assert!(parse_args(&args(&["dev", "--mode", "shortest"])).is_err());
        assert!(parse_args(&args(&["dev", "hard"])).is_err());
    }

    #[test]
    fn fens_for_the_peer() {
        assert_eq!(peer_fen("8/8/8/8/8/8/8/K6k w - -"), "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(peer_fen("8/8/8/8/8/8/8/K6k w - - 3 40"), "8/8/8/8/8/8/8/K6k w - - 3 40");
        let board = peer_board("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - -").unwrap();
        assert_eq!(board.side_to_move(), chess::Color::Black);
        // Two white kings: the chess crate refuses, and that is not an error of the run.
        assert!(peer_board("8/8/8/8/8/8/8/K5Kk w - -").is_none());
    }

    /// The peer's moves, as the `chess` crate writes them.
    fn peer_moves(fen: &str, uci: &[&str]) -> (Position, Vec<chess::ChessMove>) {
        let pos = Position::from_fen(fen).unwrap();
        let mut board = peer_board(fen).unwrap();
        let mut moves = Vec::new();
        for text in uci {
            let m = chess::ChessMove::from_str(text).unwrap();
            assert!(board.legal(m), "{text}");
            board = board.make_move_new(m);
            moves.push(m);
        }
        (pos, moves)
    }

    #[test]
    fn peer_helpmates_are_replayed_by_our_rules() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (pos, fools_mate) = peer_moves(start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert!(peer_helpmate_replays(&pos, Color::Black, &fools_mate));
        assert!(!peer_helpmate_replays(&pos, Color::White, &fools_mate));
        assert!(!peer_helpmate_replays(&pos, Color::Black, &fools_mate[..3]));
        // A wrong helpmate counts as a wrong "winnable", even where a mate exists.
        let answer = Answer::Winnable { replays: peer_helpmate_replays(&pos, Color::Black, &fools_mate[..3]) };
        assert_eq!(judge(Some(true), Answer::Undetermined, answer).2, Class::WrongWinnable);
        // Promotion (lower-case piece letter) and castling (king move) in UCI.
        let (pos, moves) = peer_moves("4k3/1P6/8/8/8/8/8/4K2R w K - 0 1", &["e1g1", "e8d7", "b7b8q", "d7e7"]);
        assert!(moves.iter().map(|m| m.to_string()).eq(["e1g1", "e8d7", "b7b8q", "d7e7"]));
        assert!(!peer_helpmate_replays(&pos, Color::White, &moves), "legal, but no mate");
        let mut at = pos;
        for m in &moves {
            at = at.play(at.parse_uci(&m.to_string()).unwrap());
        }
        assert_eq!(at.to_fen().split(' ').next(), Some("1Q6/4k3/8/8/8/8/8/5RK1"));
    }

    #[test]
    fn colours_are_balanced_between_first_and_second() {
        let positions: Vec<sets::Labelled> = (0..4)
            .map(|i| sets::Labelled { source: format!("p{i}"), fen: format!("fen{i}"), white: true, black: false })
            .collect();
        let mut queries = sets::queries_of(&positions);
        balance_colours(&mut queries);
        let order: Vec<(String, Color)> = queries.iter().map(|q| (q.fen.clone(), q.winner)).collect();
        let (w, b) = (Color::White, Color::Black);
        let expected =
            [("fen0", w), ("fen0", b), ("fen1", b), ("fen1", w), ("fen2", w), ("fen2", b), ("fen3", b), ("fen3", w)];
        assert_eq!(order, expected.map(|(f, c)| (f.to_string(), c)));
        // Query i runs the peer first when i is odd: each colour gets both orders equally.
        let peer_first_white = queries.iter().enumerate().filter(|(i, q)| i % 2 == 1 && q.winner == w).count();
        assert_eq!(peer_first_white, 2);
    }

    #[test]
    fn judging_both_solvers() {
        let good = Answer::Winnable { replays: true };
        // Unlabelled: one replayed helpmate convicts the other's "unwinnable".
        assert_eq!(judge(None, good, Answer::Unwinnable), (Some(true), Class::Correct, Class::WrongUnwinnable));
        assert_eq!(judge(None, Answer::Unwinnable, good), (Some(true), Class::WrongUnwinnable, Class::Correct));
        assert_eq!(judge(None, Answer::Unwinnable, Answer::Unwinnable), (None, Class::Unverified, Class::Unverified));
        // Labelled: the label decides; the peer failing to parse is not wrong.
        assert_eq!(
            judge(Some(false), Answer::Unwinnable, Answer::Unparsable),
            (Some(false), Class::Correct, Class::Failed)
        );
        assert_eq!(judge(Some(false), good, Answer::Unwinnable).1, Class::WrongWinnable);
        // Quick mode: "not proved" is never wrong.
        assert_eq!(judge(Some(false), Answer::Undetermined, Answer::Undetermined).2, Class::Undetermined);
        assert_eq!(agreement_key(good, true), agreement_key(Answer::Undetermined, true));
        assert_ne!(agreement_key(good, false), agreement_key(Answer::Undetermined, false));
    }

    /// Positions are grouped by their men, four to a group, fewest first,
    /// each group with its queries and both solvers' total times.
    #[test]
    fn grouping_by_men() {
        let row = |fen: &str, ours: u64, peer: u64| Row {
            query: Query { source: "t".into(), fen: fen.into(), winner: Color::White, label: None },
            label: None,
            ours: Side { answer: Answer::Undetermined, class: Class::Undetermined, time: Duration::from_micros(ours) },
            nodes: 0,
            peer: Side { answer: Answer::Undetermined, class: Class::Undetermined, time: Duration::from_micros(peer) },
            peer_first: false,
            board_mismatch: false,
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let rows = [row(start, 5, 6), row("8/8/8/8/8/8/8/K6k w - -", 1, 2), row("8/8/8/3p4/8/8/8/KQ5k w - -", 3, 4)];
        let groups = by_men(&rows);
        let us = Duration::from_micros;
        assert_eq!(
            groups,
            [
                MenGroup { first_men: 0, queries: 1, ours: us(1), peer: us(2) },
                MenGroup { first_men: 4, queries: 1, ours: us(3), peer: us(4) },
                MenGroup { first_men: 32, queries: 1, ours: us(5), peer: us(6) },
            ]
        );
    }

    #[test]
    fn render_and_report() {
        let query =
            |winner, label| Query { source: "t line 1".into(), fen: "8/8/8/8/8/8/8/K6k w - -".into(), winner, label };
        let side = |answer, class, micros| Side { answer, class, time: Duration::from_micros(micros) };
        let rows = vec![
            Row {
                query: query(Color::White, Some(false)),
                label: Some(false),
                ours: side(Answer::Unwinnable, Class::Correct, 10),
                nodes: 1,
                peer: side(Answer::Unwinnable, Class::Correct, 30),
                peer_first: false,
                board_mismatch: false,
            },
            Row {
                query: query(Color::Black, Some(false)),
                label: Some(false),
                ours: side(Answer::Unwinnable, Class::Correct, 20),
                nodes: 2,
                peer: side(Answer::Winnable { replays: false }, Class::WrongWinnable, 40),
                peer_first: true,
                board_mismatch: false,
            },
        ];
        let text = render("t", true, false, 1, &rows);
        assert!(text.contains("| project | 2 | 0 | 0 | 0 | 0 |"), "{text}");
        assert!(text.contains("| chasolver | 1 | 0 | 1 | 0 | 0 |"), "{text}");
        assert!(text.contains("total:  2.333x: project is 2.33x faster"), "{text}");
        assert!(text.contains("agreement: 1 of 2"), "{text}");
        // Both positions have two men: one line, 10 + 20 µs against 30 + 40.
        assert!(text.contains("| 0-3 | 2 | 30.0 µs | 70.0 µs | 2.33x |"), "{text}");
        assert!(text.contains("WRONG chasolver: wrong-winnable (bad-helpmate)"), "{text}");
        assert!(text.contains("wrong answers: project 0, chasolver 1"), "{text}");
        let tsv = report_tsv("t", &rows);
        assert_eq!(tsv.lines().count(), 3);
        assert!(tsv.lines().nth(2).unwrap().contains("\tchasolver\tunwinnable\tcorrect\t20.0\t2\tbad-helpmate\t"));
    }
}
