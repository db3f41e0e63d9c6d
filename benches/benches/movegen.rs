//! Criterion benchmarks of our move generator (`movegen`) side by side with
//! `cozy-chess`, `chess` and `shakmaty`, in the same run on the same core:
//!
//! - `bulk_perft`: perft of the five standard positions, the last ply counted
//!   in bulk;
//! - `full_perft`: the same positions, generating the moves at every node and
//!   playing every one of them, including at the last ply;
//! - `endgame_full_perft`: full perft of a fixed list of endgame positions
//!   from `testdata/dev-positions.txt` (the helpmate-search-like workload);
//! - `chess960_bulk_perft`, `chess960_full_perft`: the same two perfts of
//!   five Chess960 positions with castling rights, ours against
//!   `cozy-chess` (the peer that reads Chess960);
//! - `staged_moves`: ours only, on every node of the endgame positions'
//!   perft trees to depth 3: the whole list at once against `StagedMoves`
//!   taking every move (what a node the search looks at in full pays), and
//!   the first move only, both ways (what a node on the helpmate's line
//!   pays). Throughput in nodes asked.
//!
//! Throughput is reported in leaf nodes per second. Every library's node
//! count is asserted against the expected count once before benchmarking.
//! Run `cargo run -p benches --bin bench_report` afterwards for a summary.

#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::Duration;

use benches::{
    CHESS960_PERFT_POSITIONS, Chess960Library, ChessCrate, CozyChess, ENDGAME_DEPTH, ENDGAME_NAME, ENDGAME_POSITIONS,
    GROUP_BULK, GROUP_CHESS960_BULK, GROUP_CHESS960_FULL, GROUP_ENDGAME, GROUP_FULL, Movegen, PerftLibrary,
    PerftPosition, STANDARD_POSITIONS, Shakmaty, endgame_nodes,
};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use movegen::{MoveList, Position, StagedMoves};

/// Sets up a group for iterations of tens to hundreds of milliseconds.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
}

/// A reader of FENs into one library's positions.
type Parse<L> = fn(&str) -> Result<<L as PerftLibrary>::Position, String>;

fn bulk_one<L: PerftLibrary>(group: &mut BenchmarkGroup<'_, WallTime>, positions: &[PerftPosition], parse: Parse<L>) {
    for p in positions {
        let pos = parse(p.fen).unwrap_or_else(|e| panic!("{}: {}: {e}", L::NAME, p.fen));
        assert_eq!(L::bulk_perft(&pos, p.bulk_depth), p.bulk_nodes, "{} bulk {}", L::NAME, p.name);
        group.throughput(Throughput::Elements(p.bulk_nodes));
        group.bench_with_input(BenchmarkId::new(L::NAME, p.name), &pos, |b, pos| {
            b.iter(|| L::bulk_perft(black_box(pos), p.bulk_depth));
        });
    }
}

fn full_one<L: PerftLibrary>(group: &mut BenchmarkGroup<'_, WallTime>, positions: &[PerftPosition], parse: Parse<L>) {
    for p in positions {
        let pos = parse(p.fen).unwrap_or_else(|e| panic!("{}: {}: {e}", L::NAME, p.fen));
        assert_eq!(L::full_perft(&pos, p.full_depth), p.full_nodes, "{} full {}", L::NAME, p.name);
        group.throughput(Throughput::Elements(p.full_nodes));
        group.bench_with_input(BenchmarkId::new(L::NAME, p.name), &pos, |b, pos| {
            b.iter(|| L::full_perft(black_box(pos), p.full_depth));
        });
    }
}

fn endgame_one<L: PerftLibrary>(group: &mut BenchmarkGroup<'_, WallTime>) {
    let positions: Vec<L::Position> = ENDGAME_POSITIONS
        .iter()
        .map(|&(fen, nodes)| {
            let pos = L::parse(fen).unwrap_or_else(|e| panic!("{}: {fen}: {e}", L::NAME));
            assert_eq!(L::full_perft(&pos, ENDGAME_DEPTH), nodes, "{} endgame {fen}", L::NAME);
            pos
        })
        .collect();
    group.throughput(Throughput::Elements(endgame_nodes()));
    group.bench_with_input(BenchmarkId::new(L::NAME, ENDGAME_NAME), &positions, |b, positions| {
        b.iter(|| black_box(positions).iter().map(|pos| L::full_perft(pos, ENDGAME_DEPTH)).sum::<u64>());
    });
}

fn bulk_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group(GROUP_BULK);
    configure(&mut group);
    bulk_one::<Movegen>(&mut group, &STANDARD_POSITIONS, Movegen::parse);
    bulk_one::<CozyChess>(&mut group, &STANDARD_POSITIONS, CozyChess::parse);
    bulk_one::<ChessCrate>(&mut group, &STANDARD_POSITIONS, ChessCrate::parse);
    bulk_one::<Shakmaty>(&mut group, &STANDARD_POSITIONS, Shakmaty::parse);
    group.finish();
}

fn full_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group(GROUP_FULL);
    configure(&mut group);
    full_one::<Movegen>(&mut group, &STANDARD_POSITIONS, Movegen::parse);
    full_one::<CozyChess>(&mut group, &STANDARD_POSITIONS, CozyChess::parse);
    full_one::<ChessCrate>(&mut group, &STANDARD_POSITIONS, ChessCrate::parse);
    full_one::<Shakmaty>(&mut group, &STANDARD_POSITIONS, Shakmaty::parse);
    group.finish();
}

fn endgame_full_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group(GROUP_ENDGAME);
    configure(&mut group);
    endgame_one::<Movegen>(&mut group);
    endgame_one::<CozyChess>(&mut group);
    endgame_one::<ChessCrate>(&mut group);
    endgame_one::<Shakmaty>(&mut group);
    group.finish();
}

fn chess960_bulk_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group(GROUP_CHESS960_BULK);
    configure(&mut group);
    bulk_one::<Movegen>(&mut group, &CHESS960_PERFT_POSITIONS, Movegen::parse_chess960);
    bulk_one::<CozyChess>(&mut group, &CHESS960_PERFT_POSITIONS, CozyChess::parse_chess960);
    group.finish();
}

fn chess960_full_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group(GROUP_CHESS960_FULL);
    configure(&mut group);
    full_one::<Movegen>(&mut group, &CHESS960_PERFT_POSITIONS, Movegen::parse_chess960);
    full_one::<CozyChess>(&mut group, &CHESS960_PERFT_POSITIONS, CozyChess::parse_chess960);
    group.finish();
}

/// How [`staged_moves`] asks a node for its moves.
#[derive(Clone, Copy)]
enum Take {
    /// The whole list at once, every move taken.
    WholeAll,
    /// `StagedMoves`, every move taken.
    StagedAll,
    /// The whole list at once, the first move taken.
    WholeFirst,
    /// `StagedMoves`, the first move taken.
    StagedFirst,
}

/// The moves `take` hands out at `pos` (their count, or whether there is a
/// first).
fn take_moves(pos: &Position, take: Take) -> u64 {
    match take {
        Take::WholeAll | Take::WholeFirst => {
            let mut whole = MoveList::new();
            pos.generate_legal_moves(&mut whole);
            if matches!(take, Take::WholeAll) { whole.len() as u64 } else { u64::from(!whole.is_empty()) }
        }
        Take::StagedAll => StagedMoves::new(pos).count() as u64,
        Take::StagedFirst => u64::from(StagedMoves::new(pos).next().is_some()),
    }
}

/// Every node of the perft tree of `pos` to `depth` plies, into `nodes`.
fn tree(pos: &Position, depth: u32, nodes: &mut Vec<Position>) {
    nodes.push(*pos);
    if depth > 0 {
        for &m in &pos.legal_moves() {
            tree(&pos.play(m), depth - 1, nodes);
        }
    }
}

fn staged_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("staged_moves");
    configure(&mut group);
    let mut nodes = Vec::new();
    for &(fen, _) in ENDGAME_POSITIONS {
        tree(&fen.parse().expect(fen), 3, &mut nodes);
    }
    group.throughput(Throughput::Elements(nodes.len() as u64));
    for (name, take, same_as) in [
        ("whole_all", Take::WholeAll, Take::StagedAll),
        ("staged_all", Take::StagedAll, Take::WholeAll),
        ("whole_first", Take::WholeFirst, Take::StagedFirst),
        ("staged_first", Take::StagedFirst, Take::WholeFirst),
    ] {
        let count = |take| nodes.iter().map(|pos| take_moves(pos, take)).sum::<u64>();
        assert_eq!(count(take), count(same_as), "{name}");
        group.bench_with_input(BenchmarkId::new("movegen", name), &nodes, |b, nodes| {
            b.iter(|| black_box(nodes).iter().map(|pos| take_moves(pos, take)).sum::<u64>());
        });
    }
    group.finish();
}

criterion::criterion_group!(
    benches,
    bulk_perft,
    full_perft,
    endgame_full_perft,
    chess960_bulk_perft,
    chess960_full_perft,
    staged_moves
);
criterion::criterion_main!(benches);
