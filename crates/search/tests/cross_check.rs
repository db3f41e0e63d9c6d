//! Cross-checks that guard soundness from several sides:
//!
//! * the quick and the full algorithm never contradict each other, and
//!   every helpmate either gives replays to a mate;
//! * on small random positions, an independent exhaustive search to a fixed
//!   depth never finds a mate where either algorithm said "unwinnable";
//! * with the position hash cut down to 6 bits (thousands of positions on
//!   every key), answers never become wrong: table hits compare positions.

mod common;

use std::collections::HashMap;

use common::{Rng, mate_within, sparse_position};
use movegen::{Color, Position};
use quickcheck::{QuickCheck, TestResult};
use search::{Analyzer, Config, Mode, Verdict, replay};

fn analyzers() -> (Analyzer, Analyzer) {
    let mut full = Config::default();
    full.limits.nodes = 300_000;
    full.limits.memory_mb = 8;
    let quick = Config { mode: Mode::Quick, ..Config::default() };
    (Analyzer::new(full), Analyzer::new(quick))
}

fn agree(pos: &Position, winner: Color, full: &mut Analyzer, quick: &mut Analyzer) -> Result<(), String> {
    let f = full.analyze(pos, winner).verdict;
    let q = quick.analyze(pos, winner).verdict;
    for verdict in [&f, &q] {
        if let Some(helpmate) = verdict.helpmate() {
            replay(pos, winner, helpmate).map_err(|e| format!("helpmate for {winner} in {}: {e}", pos.to_fen()))?;
        }
    }
    let contradiction = matches!((&f, &q), (Verdict::Winnable { .. }, Verdict::Unwinnable(_)))
        || matches!((&f, &q), (Verdict::Unwinnable(_), Verdict::Winnable { .. }));
    if contradiction {
        return Err(format!("full says {}, quick says {} for {winner} in {}", f.name(), q.name(), pos.to_fen()));
    }
    Ok(())
}

/// Positions from random games starting at dev-set positions.
fn playout_position(seed: u64, starts: &[Position]) -> Position {
    let mut rng = Rng(seed | 1);
    let start = starts[rng.below(starts.len())];
    let plies = rng.below(30);
    *rng.random_game(start, plies).last().expect("the start at least")
}

#[test]
fn quick_and_full_agree() {
    fn property(seed: u64) -> TestResult {
        thread_local!(static STATE: std::cell::RefCell<(Vec<Position>, Analyzer, Analyzer)> = {
            let starts = common::dev().into_iter().step_by(2).map(|q| q.position).collect();
            let (full, quick) = analyzers();
            std::cell::RefCell::new((starts, full, quick))
        });
        STATE.with(|state| {
            let (starts, full, quick) = &mut *state.borrow_mut();
            let pos = playout_position(seed, starts);
            for winner in Color::ALL {
                if let Err(message) = agree(&pos, winner, full, quick) {
                    return TestResult::error(message);
                }
            }
            TestResult::passed()
        })
    }
    QuickCheck::new().tests(1_500).quickcheck(property as fn(u64) -> TestResult);
}

#[test]
fn brute_force_finds_no_mate_where_unwinnable() {
    let (mut full, mut quick) = analyzers();
    let mut checked = 0;
    for seed in 1..4_000u64 {
        let Some(pos) = sparse_position(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)) else { continue };
        for winner in Color::ALL {
            let verdicts = [full.analyze(&pos, winner).verdict, quick.analyze(&pos, winner).verdict];
            if verdicts.iter().any(Verdict::is_unwinnable) {
                let mut budget = 100_000;
                let found = mate_within(&pos, winner, 6, &mut HashMap::new(), &mut budget);
                assert_ne!(found, Some(true), "unwinnable for {winner} but a mate exists: {}", pos.to_fen());
                checked += 1;
            }
            for verdict in &verdicts {
                if let Some(helpmate) = verdict.helpmate() {
                    assert!(replay(&pos, winner, helpmate).is_ok(), "{}", pos.to_fen());
                }
            }
        }
    }
    eprintln!("{checked} unwinnable verdicts brute-forced");
    assert!(checked > 1_000, "{checked}");
}

#[test]
fn hash_collisions_never_change_an_answer() {
    let mut config = Config::default();
    config.limits.nodes = 200_000;
    config.hash_mask = 0x3f;
    let mut degraded = Analyzer::new(config);
    let mut decided = 0;
    for query in common::paper().into_iter().chain(common::dev().into_iter().step_by(23)) {
        let analysis = degraded.analyze(&query.position, query.winner);
        if common::check_answer(&query, &analysis).unwrap_or_else(|e| panic!("{e}")) {
            decided += 1;
        }
    }
    assert!(decided > 100, "{decided}");
}
