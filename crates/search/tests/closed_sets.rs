//! Positions whose reachable set is small but full of cycles: the
//! depth-limited iterations never end there (a bishop shuffles forever),
//! and only a phase that closes the reachable set proves them (the
//! exhaustive traversal, or a best-first run that keeps every move). The
//! full algorithm must give them enough of the default budget to finish.

use movegen::{Color, Position};
use search::{Analyzer, Config, Limits, Proof, Verdict};

/// The position of issue 10 (legal, reached by a proof game), unwinnable
/// for both colours; the strongest existing solver leaves it undetermined
/// at its budget.
///
/// ```text
///  . . . k . b . .     Every pawn is blocked and no capture by a pawn
///  . . p . p B p .     is possible: the black pawns stand on dark
///  K p P . P . P .     squares, the white bishops are all light.
///  . P . . . B . .
///  . . . . B . B .     White: the only way in is Kxc7 (then c6-c7-c8).
///  . . . . . B . .     The black king guards c7 from b8, c8 and d8; the
///  . . . . . . . .     kings cannot pass each other on the back rank
///  . . . . . . . .     (a7, a8, b8, c8, d8, e8), so Kxc7 needs the black
/// ```                  king on e8, and then it has no move: stalemate.
///                      Light bishops alone never mate a king on dark
///                      squares with two free neighbours.
///
/// Black: the bishop on f8 and the pawns never move, the king alone
/// cannot mate.
const BISHOP_CAGE: &str = "3k1b2/2p1pBp1/KpP1P1P1/1P3B2/4B1B1/5B2/8/8 w - - 3 57";

#[test]
fn a_closed_bishop_cage_is_proved_within_the_default_budgets() {
    let pos: Position = BISHOP_CAGE.parse().unwrap();
    // The default node budget, and the memory each of the command's two
    // workers gets from its default budget on a 2-CPU machine (463 MiB):
    // the traversal's visited set needs its quarter to reach 2 M entries.
    let config = Config { limits: Limits { memory_mb: 463, ..Limits::default() }, ..Config::default() };
    let mut analyzer = Analyzer::new(config);
    for winner in [Color::White, Color::Black] {
        let analysis = analyzer.analyze(&pos, winner);
        assert!(
            matches!(analysis.verdict, Verdict::Unwinnable(Proof::Traversal { .. } | Proof::BestFirst { .. })),
            "{winner}: {:?} after {} nodes",
            analysis.verdict,
            analysis.nodes
        );
        assert!(analysis.nodes <= config.limits.nodes);
    }
}

/// Positions of the hard and dev sets (labelled: the winner below cannot
/// mate) that the full algorithm proves with a best-first run closing the
/// reachable set (`Proof::BestFirst`): the shortest-helpmate mode, whose
/// proof is the exhaustive traversal (another phase, with its own exact
/// set), proves each of them too, and reaches as many positions or fewer
/// (it cuts the ones the static check proves, where the run stores them).
#[test]
fn best_first_proofs_agree_with_the_traversal() {
    for (fen, winner) in [
        // Dev line 107 (labelled "--"). (Hard line 145, here before, is
        // now proved by the static check, since a pawn that cannot have
        // promoted takes only as a pawn there:
        // `crates/static-check/tests/terminal_captures.rs`.)
        ("8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - -", Color::White),
        // Hard line 598 and dev line 1487 (both labelled "W-").
        ("6k1/p1p1p1P1/6PB/6P1/8/8/PKP1P3/8 w - -", Color::Black),
        ("1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - -", Color::Black),
    ] {
        let pos: Position = fen.parse().unwrap();
        let full = Analyzer::new(Config::default()).analyze(&pos, winner);
        let Verdict::Unwinnable(Proof::BestFirst { positions, .. }) = full.verdict else {
            panic!("{fen} for {winner}: {:?}", full.verdict)
        };
        let config = Config { mode: search::Mode::Shortest, ..Config::default() };
        let shortest = Analyzer::new(config).analyze(&pos, winner);
        match shortest.verdict {
            Verdict::Unwinnable(Proof::Traversal { positions: traversed }) => {
                assert!(traversed <= positions, "{fen}: {traversed} > {positions}")
            }
            other => panic!("{fen} for {winner}: the traversal says {other:?}"),
        }
    }
}

/// Dev line 107 with a White bishop added on b3 (an edit of a fresh set;
/// the other solver, too, answers that White cannot mate): a reachable set
/// of about 630,000 positions. The full algorithm's traversal is left with
/// a frontier under an eighth of what it expanded, and the schedule lets
/// it finish rather than hand the set to a best-first run that would close
/// it again from the root (`Schedule::finishing`). Its proof is the
/// traversal's, and it closes exactly the set the shortest-helpmate
/// mode's single uninterrupted traversal closes.
#[test]
fn a_nearly_closed_traversal_is_finished() {
    let (fen, winner) = ("8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/1B1B4/8/8 b - -", Color::White);
    let pos: Position = fen.parse().unwrap();
    let full = Analyzer::new(Config::default()).analyze(&pos, winner);
    let Verdict::Unwinnable(Proof::Traversal { positions }) = full.verdict else {
        panic!("{fen} for {winner}: {:?}", full.verdict)
    };
    let config = Config { mode: search::Mode::Shortest, ..Config::default() };
    let shortest = Analyzer::new(config).analyze(&pos, winner);
    assert_eq!(shortest.verdict, Verdict::Unwinnable(Proof::Traversal { positions }), "{fen}");
}
