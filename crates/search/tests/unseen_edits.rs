//! Random edits of dev and hard positions (one piece moved or removed,
//! generated with python-chess, never used to tune anything) on which the
//! strongest existing solver, CHA-Solver 3.0, answered wrongly or left the
//! query undetermined at its budget. Each is winnable: the helpmate this
//! project found replays to a mate by the winner, which is the fact the
//! test checks, so it needs no trust in either solver.

use movegen::{Color, Position};
use search::{Analyzer, Config, Verdict, replay};

/// `(FEN, winner)`: the side not to move, as `cargo xtask compare` asks.
const EDITS: [(&str, Color); 3] = [
    // CHA-Solver answers unwinnable (a wrong draw).
    ("7B/1b6/3k4/Bp1p4/1P1Pp1p1/2ppP1P1/2p5/2K5 b - -", Color::White),
    // CHA-Solver leaves these undetermined.
    ("1k6/1P1p1p1p/BP6/1P5p/8/5K1P/3P1P2/8 w - -", Color::Black),
    ("k1b1b1b1/P2b1b1b/1P6/8/8/1p6/pP1B1B1B/K1B1B1B1 w - -", Color::Black),
];

#[test]
fn edits_the_other_solver_gets_wrong_are_decided() {
    let mut analyzer = Analyzer::new(Config::default());
    for (fen, winner) in EDITS {
        let pos: Position = fen.parse().unwrap();
        let analysis = analyzer.analyze(&pos, winner);
        match &analysis.verdict {
            Verdict::Winnable { helpmate } => {
                assert!(replay(&pos, winner, helpmate).is_ok(), "{fen} {winner}: {helpmate:?}");
            }
            other => panic!("{fen} {winner}: {other:?} after {} nodes", analysis.nodes),
        }
    }
}
