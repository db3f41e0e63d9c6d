//! Criterion benchmarks of the static analysis: the mobility fixpoint
//! alone (`mobility::Mobility::compute`) and the whole static check
//! (`static_check::analyze`: material rules, mobility and Figure 8 with the
//! mating-net search), each for both colours of every position of
//!
//! - `paper`: the numbered positions of `testdata/paper-positions.tsv`;
//! - `corpus_1000`: the first 1,000 positions of
//!   `testdata/lichess-30k-positions.txt` (the performance corpus).
//!
//! Throughput is in queries (position and colour) per second; the time per
//! query is the iteration time divided by the element count.
//!
//! ```text
//! cargo bench -p benches --bench static_check
//! ```

#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use movegen::{Color, Position};

/// The positions of `testdata/paper-positions.tsv` (third column).
fn paper_positions() -> Vec<Position> {
    include_str!("../../testdata/paper-positions.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').nth(2))
        .map(|fen| fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}")))
        .collect()
}

/// The first `n` positions of the performance corpus (FEN and game id).
fn corpus_positions(n: usize) -> Vec<Position> {
    include_str!("../../testdata/lichess-30k-positions.txt")
        .lines()
        .take(n)
        .map(|l| {
            let fen = l.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
            fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
        })
        .collect()
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
}

fn bench_set(c: &mut Criterion, name: &str, positions: &[Position]) {
    let mut group = c.benchmark_group(format!("static_check/{name}"));
    configure(&mut group);
    group.throughput(Throughput::Elements(2 * positions.len() as u64));
    group.bench_function("mobility", |b| {
        b.iter(|| {
            let mut applicable = 0u32;
            for pos in positions {
                // The regions do not depend on the colour: computed once
                // per query all the same, as the static check does.
                for _ in Color::ALL {
                    applicable += u32::from(mobility::Mobility::compute(black_box(pos)).is_ok());
                }
            }
            applicable
        });
    });
    group.bench_function("analyze", |b| {
        b.iter(|| {
            let mut proved = 0u32;
            for pos in positions {
                for color in Color::ALL {
                    proved += u32::from(static_check::analyze(black_box(pos), color).is_unwinnable());
                }
            }
            proved
        });
    });
    group.finish();
}

fn static_check_benches(c: &mut Criterion) {
    let paper = paper_positions();
    assert!(paper.len() >= 20, "{}", paper.len());
    bench_set(c, "paper", &paper);
    let corpus = corpus_positions(1_000);
    assert_eq!(corpus.len(), 1_000);
    bench_set(c, "corpus_1000", &corpus);
}

criterion::criterion_group!(benches, static_check_benches);
criterion::criterion_main!(benches);
