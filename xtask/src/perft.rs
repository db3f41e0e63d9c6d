//! `cargo xtask perft`: the perft suite of `testdata/perft-1000.tsv` and the
//! deep standard cases, with nodes per second.

use std::io::IsTerminal;
use std::time::Instant;

use movegen::Position;

/// The deep standard cases (Chess Programming Wiki "Perft Results"):
/// FEN, depth, published node count.
pub const DEEP: &[(&str, u32, u64)] = &[
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15_833_292),
    ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 5, 15_833_292),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89_941_194),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5, 164_075_551),
];

/// Options of the perft task.
#[derive(Debug, Clone)]
pub struct Options {
    /// Deepest column of the file to check (1-4).
    pub max_depth: u32,
    /// Also run the deep standard cases.
    pub deep: bool,
    /// Use the full make-move perft instead of bulk counting.
    pub full: bool,
}

fn run(pos: &Position, depth: u32, full: bool) -> u64 {
    if full { pos.perft_full(depth) } else { pos.perft(depth) }
}

/// Runs the suite; returns an error describing the first mismatch.
pub fn run_suite(data: &str, options: &Options) -> Result<(), String> {
    let lines: Vec<&str> = data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    let started = Instant::now();
    let progress = std::io::stderr().is_terminal();
    let mut nodes = 0u64;
    for (i, line) in lines.iter().enumerate() {
        let mut fields = line.split('\t');
        let fen = fields.next().unwrap_or_default();
        let pos = Position::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        for (depth, expected) in (1..=options.max_depth).zip(fields) {
            let expected: u64 = expected.trim().parse().map_err(|e| format!("{fen}: bad count {expected:?}: {e}"))?;
            let got = run(&pos, depth, options.full);
            nodes += got;
            if got != expected {
                let divide: Vec<String> = pos.divide(depth).iter().map(|(m, n)| format!("{m}: {n}")).collect();
                return Err(format!(
                    "perft mismatch for {fen} at depth {depth}: expected {expected}, got {got}\ndivide:\n  {}",
                    divide.join("\n  ")
                ));
            }
        }
        if progress && (i + 1) % 100 == 0 {
            eprint!("\r{} / {} positions", i + 1, lines.len());
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    if progress {
        eprintln!();
    }
    println!(
        "perft-1000: {} positions to depth {} OK: {nodes} nodes in {seconds:.2} s ({:.1} M nodes/s)",
        lines.len(),
        options.max_depth,
        nodes as f64 / seconds / 1e6
    );
    if options.deep {
        for &(fen, depth, expected) in DEEP {
            let pos = Position::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
            let started = Instant::now();
            let got = run(&pos, depth, options.full);
            let seconds = started.elapsed().as_secs_f64();
            if got != expected {
                return Err(format!("deep perft mismatch for {fen} at depth {depth}: expected {expected}, got {got}"));
            }
            println!("{fen} depth {depth}: {got} OK in {seconds:.2} s ({:.1} M nodes/s)", got as f64 / seconds / 1e6);
        }
    }
    Ok(())
}
