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
            config.limits.tt_mb = 4;
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
