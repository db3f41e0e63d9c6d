//! An answer is a function of the query and the configuration: it does not
//! depend on the queries the analyzer answered before. An analyzer keeps its
//! tables between queries; what a larger, earlier search left allocated must
//! not shrink what the next query's best-first phase may store (a store that
//! fills ends its run early, which changes where the budget goes). Before
//! the tables released what they held beyond the part in use, the second
//! query below took 456,335 nodes after the first and 473,922 alone (the
//! command at `--memory-mb 48`).

use search::{Analysis, Analyzer, Config, Verdict};

use movegen::{Color, Position};

/// A query that grows the tables (a winnable pawn-and-king position whose
/// helpmate the iterations and a best-first run find after 341 k nodes).
const GROWS_THE_TABLES: (&str, Color) = ("8/p1p1p3/6p1/6P1/6PK/6PP/P1P1P3/k7 w - -", Color::Black);

/// Queries that reach the best-first phase and fill its store at these
/// budgets (locked pawn chains with a long helpmate).
const FILL_THE_STORE: [(&str, Color); 2] = [
    ("8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - -", Color::White),
    ("1b3kBR/4pP1P/1pBpP2P/1P1P1Bp1/1pK1B1P1/1P1B1B2/8/8 b - -", Color::White),
];

fn run(analyzer: &mut Analyzer, (fen, winner): (&str, Color)) -> Analysis {
    let position: Position = fen.parse().unwrap();
    analyzer.analyze(&position, winner)
}

fn summary(analysis: &Analysis) -> (bool, u64) {
    (matches!(analysis.verdict, Verdict::Winnable { .. }), analysis.nodes)
}

#[test]
fn an_answer_does_not_depend_on_the_queries_before() {
    for tt_mb in [24, 48] {
        let mut config = Config::default();
        config.limits.memory_mb = tt_mb;
        for query in FILL_THE_STORE {
            let alone = summary(&run(&mut Analyzer::new(config), query));
            let mut analyzer = Analyzer::new(config);
            run(&mut analyzer, GROWS_THE_TABLES);
            let after = summary(&run(&mut analyzer, query));
            assert_eq!(after, alone, "{} MiB, {}: after another query, alone", tt_mb, query.0);
            // And again, with the tables as this query left them.
            assert_eq!(summary(&run(&mut analyzer, query)), alone, "{} MiB, {}: a second time", tt_mb, query.0);
        }
    }
}
