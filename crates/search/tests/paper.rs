//! The paper's positions (`testdata/paper-positions.tsv`), both colours, in
//! full mode: every answer decided and right, every helpmate replayed.

mod common;

use search::{Analyzer, Config};

#[test]
fn every_paper_position_is_decided_correctly() {
    let mut analyzer = Analyzer::new(Config::default());
    let mut decided = 0;
    for query in common::paper() {
        let analysis = analyzer.analyze(&query.position, query.winner);
        match common::check_answer(&query, &analysis) {
            Ok(true) => decided += 1,
            Ok(false) => panic!("{}: undetermined for {} after {} nodes", query.source, query.winner, analysis.nodes),
            Err(message) => panic!("{message}"),
        }
    }
    assert_eq!(decided, 40);
}
