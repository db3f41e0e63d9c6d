//! The look-ahead after a cut iteration ([`search`]'s full algorithm): the
//! corpus's two slowest queries before it, where the iterations to depths
//! 1, 3 and 5 were cut by their node bounds and the helpmate lay in an
//! iteration several plies deeper. Both are winnable for Black (the other
//! solver's helpmates replay, `cargo xtask compare corpus`); whatever
//! phase finds the helpmate, it must replay to a mate by Black, and a
//! look-ahead that was cut must not make a later iteration call the
//! position unwinnable (its entries are stale to that iteration).

use movegen::{Color, Position};
use search::{Analyzer, Config, Verdict, replay};

#[test]
fn long_helpmates_behind_cut_iterations_are_found_and_replayed() {
    for fen in ["8/8/p1k1K3/P7/8/8/8/4B3 w - - 9 61", "8/8/8/7Q/4k3/2P5/PP3P1b/6K1 w - - 0 40"] {
        let pos: Position = fen.parse().unwrap();
        let mut analyzer = Analyzer::new(Config::default());
        match analyzer.analyze(&pos, Color::Black).verdict {
            Verdict::Winnable { helpmate } => drop(replay(&pos, Color::Black, &helpmate).unwrap()),
            other => panic!("{fen}: {other:?}"),
        }
    }
}
