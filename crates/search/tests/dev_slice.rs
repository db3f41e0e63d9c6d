//! A fast slice of the labelled dev set (every fifth position, both
//! colours) in full mode with a reduced budget: never a wrong answer, every
//! helpmate replayed, and almost everything decided. The whole set runs in
//! `cargo xtask regress`.

mod common;

use search::{Analyzer, Config};

#[test]
fn slice_of_the_dev_set() {
    let mut config = Config::default();
    config.limits.nodes = 5_000_000;
    let mut analyzer = Analyzer::new(config);
    let queries: Vec<_> =
        common::dev().into_iter().enumerate().filter(|(i, _)| (i / 2) % 5 == 0).map(|(_, q)| q).collect();
    let (mut decided, mut errors) = (0, Vec::new());
    for query in &queries {
        let analysis = analyzer.analyze(&query.position, query.winner);
        match common::check_answer(query, &analysis) {
            Ok(true) => decided += 1,
            Ok(false) => {}
            Err(message) => errors.push(message),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    eprintln!("{decided} of {} decided with 5M nodes", queries.len());
    assert!(queries.len() > 700);
    assert!(decided * 100 >= queries.len() * 98, "only {decided} of {} decided", queries.len());
}
