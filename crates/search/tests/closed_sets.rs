//! Positions whose reachable set is small but full of cycles: the
//! depth-limited iterations never end there (a bishop shuffles forever),
//! and only the exhaustive traversal proves them. The full algorithm must
//! give that phase enough of the default budget to finish.

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
    // the visited set needs its quarter to reach 2 M entries (a 256 MiB
    // analyzer answers undetermined, for lack of memory).
    let config = Config { limits: Limits { memory_mb: 463, ..Limits::default() }, ..Config::default() };
    let mut analyzer = Analyzer::new(config);
    for winner in [Color::White, Color::Black] {
        let analysis = analyzer.analyze(&pos, winner);
        assert!(
            matches!(analysis.verdict, Verdict::Unwinnable(Proof::Traversal { .. })),
            "{winner}: {:?} after {} nodes",
            analysis.verdict,
            analysis.nodes
        );
        assert!(analysis.nodes <= config.limits.nodes);
    }
}
