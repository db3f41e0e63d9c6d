//! Shared test helpers: positions from the project's test data, made
//! eligible for the mobility analysis (castling rights and en passant
//! removed), and a deterministic random generator.

#![allow(dead_code)]

use movegen::{CastlingRights, Position, Setup};

/// Every FEN of the test data (paper, dev set, move-order, perft, 2,000 of
/// the performance corpus), with castling rights and en passant squares
/// removed so that Lemma 8 applies.
pub fn eligible_positions() -> Vec<Position> {
    let mut fens: Vec<String> = Vec::new();
    let data = [
        include_str!("../../../../testdata/paper-positions.tsv"),
        include_str!("../../../../testdata/movegen-order.tsv"),
        include_str!("../../../../testdata/perft-1000.tsv"),
    ];
    for text in data {
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let fen = line.split('\t').find(|f| f.contains('/')).unwrap();
            fens.push(fen.to_string());
        }
    }
    for line in include_str!("../../../../testdata/dev-positions.txt").lines().filter(|l| !l.starts_with('#')) {
        if let Some((_, fen)) = line.split_once(' ') {
            fens.push(fen.to_string());
        }
    }
    for line in include_str!("../../../../testdata/lichess-30k-positions.txt").lines().take(2000) {
        let fen: Vec<&str> = line.split_whitespace().take(6).collect();
        fens.push(fen.join(" "));
    }
    fens.iter()
        .filter_map(|fen| {
            let mut setup = Setup::from_fen(fen).ok()?;
            setup.castling = CastlingRights::empty();
            setup.en_passant = None;
            Position::from_setup(setup).ok()
        })
        .collect()
}

/// xorshift64*.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
