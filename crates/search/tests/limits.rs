//! Resource limits hold on the hardest positions: a query that hits its node
//! budget or its deadline answers `undetermined` (or a correct, verified
//! answer), never `unwinnable` by default, and returns.

mod common;

use std::time::{Duration, Instant};

use search::{Analyzer, Config, Mode};

/// Composed worst cases of the dev set (many same-coloured bishops behind
/// pawn walls, long king marches, castling rights).
const HARD: [&str; 5] = [
    "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -",
    "8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - -",
    "8/8/5p2/2p1pPp1/2PbPk1b/2pBp1pB/2P1P1P1/5BRK b - -",
    "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K -",
    "N1b1N1N1/1pPpPpPp/1P1P1P1P/8/8/8/8/kb2B1K1 w - -",
];

#[test]
fn budgets_and_deadlines_give_undetermined_not_a_guess() {
    let dev = common::dev();
    for (nodes, deadline) in [(1_000, None), (50_000, None), (u64::MAX, Some(Duration::from_millis(20)))] {
        for mode in [Mode::Full, Mode::Shortest] {
            let mut config = Config { mode, ..Config::default() };
            config.limits.nodes = nodes;
            config.limits.deadline = deadline;
            config.limits.memory_mb = 4;
            let mut analyzer = Analyzer::new(config);
            let mut checked = 0;
            for fen in HARD {
                let position = fen.parse().unwrap();
                for query in dev.iter().filter(|q| q.position == position) {
                    let started = Instant::now();
                    let analysis = analyzer.analyze(&query.position, query.winner);
                    // Generous: a hang, not a benchmark, is what this catches.
                    assert!(started.elapsed() < Duration::from_secs(10), "{fen}: limits ignored");
                    assert!(nodes == u64::MAX || analysis.nodes <= nodes + 1, "{fen}: {} nodes", analysis.nodes);
                    common::check_answer(query, &analysis).unwrap_or_else(|e| panic!("{e}"));
                    checked += 1;
                }
            }
            assert_eq!(checked, 2 * HARD.len(), "every position is in the dev set, both colours");
        }
    }
}

/// The quick algorithm honours the node budget too: with a budget of a few
/// nodes it stops, answering undetermined or a verified answer.
#[test]
fn quick_mode_honours_the_node_budget() {
    let mut config = Config { mode: Mode::Quick, ..Config::default() };
    config.limits.nodes = 3;
    let mut analyzer = Analyzer::new(config);
    for query in common::paper().iter().chain(common::dev().iter().step_by(37)) {
        let analysis = analyzer.analyze(&query.position, query.winner);
        assert!(analysis.nodes <= 3, "{} nodes", analysis.nodes);
        common::check_answer(query, &analysis).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// An undetermined answer names the limit that was hit: the node budget,
/// the deadline, the caller's stop flag; quick mode without a limit hit
/// says "not proved". The position is winnable (K+R v K) but its shortest
/// helpmate is longer than 9 plies (the kings are far apart), so no sound
/// analysis can answer it without search, and none can within 5 nodes.
#[test]
fn undetermined_names_its_cause() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use movegen::{Color, Position};
    use search::{Cause, Verdict, replay};

    let pos: Position = "7k/8/8/8/8/8/1R6/K7 b - - 0 1".parse().unwrap();
    let run = |config: Config, stop: Option<Arc<AtomicBool>>| {
        let mut analyzer = Analyzer::new(config);
        if let Some(flag) = stop {
            analyzer.set_stop_flag(flag);
        }
        analyzer.analyze(&pos, Color::White).verdict
    };
    let small = |config: Config| Config { limits: search::Limits { memory_mb: 4, ..config.limits }, ..config };

    let mut config = small(Config::default());
    config.limits.nodes = 5;
    for mode in [Mode::Full, Mode::Shortest, Mode::Quick] {
        assert_eq!(run(Config { mode, ..config }, None), Verdict::Undetermined(Cause::NodeBudget), "{mode:?}");
    }

    let mut config = small(Config::default());
    config.limits.deadline = Some(Duration::ZERO);
    for mode in [Mode::Full, Mode::Shortest, Mode::Quick] {
        assert_eq!(run(Config { mode, ..config }, None), Verdict::Undetermined(Cause::Deadline), "{mode:?}");
    }

    for mode in [Mode::Full, Mode::Shortest, Mode::Quick] {
        let raised = Arc::new(AtomicBool::new(true));
        let verdict = run(small(Config { mode, ..Config::default() }), Some(raised));
        assert_eq!(verdict, Verdict::Undetermined(Cause::Stopped), "{mode:?}");
    }

    // Without limits, the full mode finds a helpmate, and the quick mode
    // either finds one or says "not proved" (no limit was hit).
    let helpmate = run(Config::default(), None).helpmate().expect("winnable").to_vec();
    replay(&pos, Color::White, &helpmate).unwrap();
    match run(Config { mode: Mode::Quick, ..Config::default() }, None) {
        Verdict::Winnable { helpmate } => drop(replay(&pos, Color::White, &helpmate).unwrap()),
        other => assert_eq!(other, Verdict::Undetermined(Cause::NotProved)),
    }
}

/// Quick mode honours the deadline: a zero deadline returns after at most
/// one node of search, with a verified answer or "undetermined".
#[test]
fn quick_mode_honours_the_deadline() {
    let mut config = Config { mode: Mode::Quick, ..Config::default() };
    config.limits.deadline = Some(Duration::ZERO);
    let mut analyzer = Analyzer::new(config);
    for query in common::dev().iter().step_by(11) {
        let analysis = analyzer.analyze(&query.position, query.winner);
        assert!(analysis.nodes <= 1, "{} nodes after the deadline", analysis.nodes);
        common::check_answer(query, &analysis).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// A reset analyzer keeps its configuration and its stop flag: a raised
/// flag still stops it, and its node budget still binds.
#[test]
fn a_reset_keeps_the_configuration_and_the_stop_flag() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use movegen::{Color, Position};
    use search::{Cause, Verdict};

    let pos: Position = "7k/8/8/8/8/8/1R6/K7 b - - 0 1".parse().unwrap();
    let mut config = Config::default();
    config.limits.memory_mb = 4;
    config.limits.nodes = 5;
    let mut analyzer = Analyzer::new(config);
    let flag = Arc::new(AtomicBool::new(false));
    analyzer.set_stop_flag(Arc::clone(&flag));
    analyzer.reset();
    assert_eq!(*analyzer.config(), config);
    assert_eq!(analyzer.analyze(&pos, Color::White).verdict, Verdict::Undetermined(Cause::NodeBudget));
    flag.store(true, Ordering::Relaxed);
    analyzer.reset();
    assert_eq!(analyzer.analyze(&pos, Color::White).verdict, Verdict::Undetermined(Cause::Stopped));
}
