//! The static check inside the search: near the root it is the full one,
//! with the case split on pieces that never move. Hard line 113 for Black
//! (the label: Black cannot mate) is proved only that way: after the
//! forced 1...Rxa6+, each of White's two captures leaves the White king
//! boxed by a rook that may be captured but never moves. A light check at
//! those children leaves the reversible shuffles of five bishops to
//! search, which no budget here covers.

use movegen::{Color, Position};
use search::{Analyzer, Config, Limits, Verdict};

#[test]
fn a_proof_that_needs_the_case_split_two_plies_from_the_root() {
    let pos: Position = "1bB4b/k7/R5r1/8/1pBp1p1p/1PpP1P1P/K1P4b/RB6 b - -".parse().unwrap();
    let limits = Limits { nodes: 1_000_000, ..Limits::default() };
    let mut analyzer = Analyzer::new(Config { limits, ..Config::default() });
    let analysis = analyzer.analyze(&pos, Color::Black);
    assert!(matches!(analysis.verdict, Verdict::Unwinnable(_)), "{:?}", analysis.verdict);
    assert!(analysis.nodes < 100_000, "{}", analysis.nodes);
}
