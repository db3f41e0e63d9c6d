//! Criterion benchmarks of the helpmate search (`search::Analyzer`), in
//! the full (Figure 9) and quick (Figure 10) modes, with the default
//! configuration otherwise:
//!
//! - `corpus_1000`: the first 1,000 positions of
//!   `testdata/lichess-30k-positions.txt`, the intended winner being the
//!   side not to move (as the command-line program does);
//! - `dev_fast`: a slice of `testdata/dev-positions.txt`, both colours: the
//!   first 40 queries that the full mode decides within 20,000 nodes
//!   (selected once, before measuring).
//!
//! One analyzer is reused across queries, as the command-line program does
//! (its table is cleared at the start of every query). Throughput is in
//! queries per second; the time per query is the iteration time divided by
//! the element count. `cargo xtask corpus` measures the whole corpus with
//! per-query percentiles.
//!
//! ```text
//! cargo bench -p benches --bench search
//! ```

#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use movegen::{Color, Position};
use search::{Analyzer, Config, Mode, Verdict};

fn corpus_queries(n: usize) -> Vec<(Position, Color)> {
    include_str!("../../testdata/lichess-30k-positions.txt")
        .lines()
        .take(n)
        .map(|l| {
            let fen = l.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
            let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
            (pos, !pos.side_to_move())
        })
        .collect()
}

/// Dev-set queries the full mode decides within 20,000 nodes: the first 40.
fn fast_dev_queries() -> Vec<(Position, Color)> {
    let mut config = Config::default();
    config.limits.nodes = 20_000;
    config.limits.memory_mb = 8;
    let mut analyzer = Analyzer::new(config);
    include_str!("../../testdata/dev-positions.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' ').and_then(|(_, fen)| fen.parse::<Position>().ok()))
        .flat_map(|pos| Color::ALL.map(|color| (pos, color)))
        .filter(|(pos, color)| !matches!(analyzer.analyze(pos, *color).verdict, Verdict::Undetermined(_)))
        .take(40)
        .collect()
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
}

fn bench_queries(c: &mut Criterion, name: &str, queries: &[(Position, Color)]) {
    let mut group = c.benchmark_group(format!("search/{name}"));
    configure(&mut group);
    group.throughput(Throughput::Elements(queries.len() as u64));
    for (label, mode) in [("full", Mode::Full), ("quick", Mode::Quick)] {
        let mut analyzer = Analyzer::new(Config { mode, ..Config::default() });
        group.bench_function(label, |b| {
            b.iter(|| {
                let mut decided = 0u32;
                for (pos, color) in queries {
                    let verdict = analyzer.analyze(black_box(pos), *color).verdict;
                    decided += u32::from(!matches!(verdict, Verdict::Undetermined(_)));
                }
                decided
            });
        });
    }
    group.finish();
}

fn search_benches(c: &mut Criterion) {
    let corpus = corpus_queries(1_000);
    assert_eq!(corpus.len(), 1_000);
    bench_queries(c, "corpus_1000", &corpus);
    let dev = fast_dev_queries();
    assert_eq!(dev.len(), 40);
    bench_queries(c, "dev_fast", &dev);
}

criterion::criterion_group!(benches, search_benches);
criterion::criterion_main!(benches);
