//! Shared helpers of the integration tests: the test-data FENs and a small
//! deterministic random number generator for playouts.

#![allow(dead_code)]

use movegen::Position;
#[allow(unused_imports)]
pub use testkit::XorShift64Star as Rng;

/// Every FEN of the perft and move-order test data (5,450 positions).
pub fn test_fens() -> Vec<&'static str> {
    let mut fens = Vec::new();
    for data in
        [include_str!("../../../../testdata/perft-1000.tsv"), include_str!("../../../../testdata/movegen-order.tsv")]
    {
        for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            fens.push(line.split('\t').next().unwrap());
        }
    }
    fens
}

/// Plays up to `plies` random legal moves from `start`, calling `visit`
/// with each position reached (the start included) and the move played
/// from it (`None` at the end of the game or playout).
pub fn playout(start: Position, plies: usize, rng: &mut Rng, mut visit: impl FnMut(&Position, Option<movegen::Move>)) {
    let mut pos = start;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        visit(&pos, Some(m));
        pos = pos.play(m);
    }
    visit(&pos, None);
}
