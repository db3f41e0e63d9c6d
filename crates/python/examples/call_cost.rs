//! The Rust side of the per-call overhead measurement of `analyze`:
//! parsing a FEN and analysing it with a kept `Analyzer`, per call, for a
//! trivial position (two lone kings) and a helpmate found in a few nodes.
//! Compare with `bench/overhead.py` (the same calls from Python):
//!
//! ```sh
//! cargo run --release --example call_cost --manifest-path crates/python/Cargo.toml
//! ```

use std::hint::black_box;
use std::time::Instant;

use movegen::{Color, Position};
use search::{Analyzer, Config};

fn main() {
    let mut analyzer = Analyzer::new(Config::default());
    for (name, fen) in [
        ("lone kings", "8/8/8/8/8/8/8/K1k5 w - - 0 1"),
        ("paper 1 (static proof)", "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54"),
    ] {
        let calls = if name == "lone kings" { 2_000_000 } else { 200 };
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..calls {
                let pos = Position::from_fen(black_box(fen)).expect("valid FEN");
                black_box(analyzer.analyze(&pos, Color::White));
            }
            best = best.min(start.elapsed().as_secs_f64() / f64::from(calls) * 1e6);
        }
        println!("{name}: {best:.3} us per call (parse + analyze, best of 5)");
    }
}
