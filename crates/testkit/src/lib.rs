//! The shared helpers of the project's tests (a `publish = false` crate,
//! a dev-dependency only): the deterministic random generators the tests
//! draw positions with, the brute-force mate oracle that checks "no mate
//! within N plies" claims, the labelled test sets of `testdata/`, and a
//! small blocking HTTP client for the service's tests and `cargo xtask
//! load` ([`client`]); the Python virtual environments of the
//! comparisons with python-chess ([`python`]).
//!
//! One copy of each, so that every crate's tests draw the same sequences
//! and ask the same oracle; the library crates' packages leave out the
//! tests that use it (their tests read the repository's `testdata/`).

#![forbid(unsafe_code)]
// `next` is the name the tests have always called these generators by.
#![allow(clippy::should_implement_trait)]

pub mod client;
pub mod python;

use std::collections::HashMap;
use std::path::PathBuf;

use movegen::{Color, Position, Square};

/// xorshift64 (Marsaglia): the generator of the search, static-check and
/// certificate tests.
#[derive(Clone, Debug)]
pub struct XorShift64(pub u64);

impl XorShift64 {
    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..n` (n > 0; the modulo bias is irrelevant here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// A square.
    pub fn square(&mut self) -> Square {
        Square::new(self.below(64) as u32)
    }

    /// The positions of a random game from `start`: `start`, then the
    /// position after each of up to `plies` random legal moves (fewer when
    /// the game ends).
    pub fn random_game(&mut self, start: Position, plies: usize) -> Vec<Position> {
        let mut positions = vec![start];
        let mut pos = start;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[self.below(moves.len())]);
            positions.push(pos);
        }
        positions
    }
}

/// xorshift64* (Vigna): the generator of the move generator and mobility
/// tests.
#[derive(Clone, Debug)]
pub struct XorShift64Star(pub u64);

impl XorShift64Star {
    /// A generator seeded with `seed` (any value).
    pub fn new(seed: u64) -> XorShift64Star {
        XorShift64Star(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (n > 0; the modulo bias is irrelevant here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Exhaustive search, the oracle of "no mate" claims: is there a sequence
/// of at most `depth` plies ending in a checkmate by `winner`? `None` if
/// the node `budget` ran out. `seen` keeps the depth each position was
/// searched to.
pub fn mate_within(
    pos: &Position,
    winner: Color,
    depth: u32,
    seen: &mut HashMap<Position, u32>,
    budget: &mut u64,
) -> Option<bool> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(pos.is_check() && pos.side_to_move() != winner);
    }
    if depth == 0 || seen.get(pos).is_some_and(|&d| d >= depth) {
        return Some(false);
    }
    seen.insert(*pos, depth);
    for &m in &moves {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        if mate_within(&pos.play(m), winner, depth - 1, seen, budget)? {
            return Some(true);
        }
    }
    Some(false)
}

/// The repository's `testdata/` folder.
pub fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// The text of `testdata/NAME`.
pub fn read(name: &str) -> String {
    let path = testdata().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `LABEL FEN` lines of a labelled set (`dev-positions.txt`,
/// `hard-positions.txt`): the label (`WB`, `W-`, `-B`, `--`: who can still
/// mate) and the FEN, comments and blank lines skipped.
pub fn labelled(name: &str) -> Vec<(String, String)> {
    read(name)
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .filter_map(|line| line.split_once(' ').map(|(label, fen)| (label.to_string(), fen.trim().to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generators_are_the_tests_own() {
        // The first outputs of the generators the tests used before they
        // shared this crate (their sequences are unchanged).
        let mut xs = XorShift64(1);
        assert_eq!((xs.next(), xs.next()), (1082269761, 1152992998833853505));
        let mut star = XorShift64Star::new(1);
        assert_ne!(star.next(), star.next());
        assert!(!labelled("dev-positions.txt").is_empty());
    }

    #[test]
    fn the_oracle_finds_a_mate_in_one() {
        let pos: Position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".parse().unwrap();
        let mut budget = 1_000_000;
        assert_eq!(mate_within(&pos, Color::White, 1, &mut HashMap::new(), &mut budget), Some(true));
        assert_eq!(mate_within(&pos, Color::Black, 2, &mut HashMap::new(), &mut budget), Some(false));
    }
}
