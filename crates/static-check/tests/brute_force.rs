//! Attacks the soundness of the static analysis with brute force: whenever
//! it says "unwinnable", an exhaustive search to a fixed depth must not find
//! a checkmate by that colour.
//!
//! Positions: random sparse positions (kings, pawns, minor and major
//! pieces), and the dev set's positions with one piece moved, removed or
//! added at random: near misses of the blocked structures where the rules
//! of the static analysis do their work.

use std::collections::HashMap;

use movegen::{Bitboard, CastlingRights, Color, Piece, Position, Rank, Role, Setup, Square};
use quickcheck::{QuickCheck, TestResult};

/// Exhaustive search: is there a sequence of at most `depth` plies ending in
/// a checkmate by `winner`? `None` if the node budget ran out.
fn mate_within(
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
    if depth == 0 {
        return Some(false);
    }
    if seen.get(pos).is_some_and(|&d| d >= depth) {
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

/// Checks one position: any "unwinnable" of Figure 8 must survive the
/// search. (The material rules are the paper's lemmas and a lone king: they
/// are not what this test attacks.)
fn check(pos: &Position, depth: u32) -> Result<u32, String> {
    let mut proved = 0;
    for winner in Color::ALL {
        if static_check::insufficient_material(pos, winner).is_none() && static_check::is_unwinnable(pos, winner) {
            proved += 1;
            let mut budget = 300_000;
            if let Some(true) = mate_within(pos, winner, depth, &mut HashMap::new(), &mut budget) {
                return Err(format!(
                    "static analysis says unwinnable for {winner}, but a mate exists: {}\n{}",
                    pos.to_fen(),
                    static_check::analyze(pos, winner)
                ));
            }
        }
    }
    Ok(proved)
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn square(&mut self) -> Square {
        Square::new(self.below(64) as u32)
    }
}

fn random_piece(rng: &mut Rng) -> Piece {
    let roles = [Role::Pawn, Role::Pawn, Role::Pawn, Role::Knight, Role::Bishop, Role::Bishop, Role::Rook, Role::Queen];
    Piece::new(Color::from_white(rng.below(2) == 0), roles[rng.below(roles.len())])
}

fn valid(mut setup: Setup) -> Option<Position> {
    setup.castling = CastlingRights::empty();
    setup.en_passant = None;
    Position::from_setup(setup).ok()
}

fn sparse_position(seed: u64) -> Option<Position> {
    let mut rng = Rng(seed | 1);
    let mut setup = Setup::start();
    setup.board = movegen::Board::empty();
    setup.board.set_piece_at(rng.square(), Piece::new(Color::White, Role::King));
    let black_king = rng.square();
    if setup.board.occupied().contains(black_king) {
        return None;
    }
    setup.board.set_piece_at(black_king, Piece::new(Color::Black, Role::King));
    for _ in 0..1 + rng.below(5) {
        let square = rng.square();
        if !setup.board.occupied().contains(square) {
            let piece = random_piece(&mut rng);
            if piece.role != Role::Pawn || !matches!(square.rank(), Rank::First | Rank::Eighth) {
                setup.board.set_piece_at(square, piece);
            }
        }
    }
    setup.side_to_move = Color::from_white(rng.below(2) == 0);
    valid(setup)
}

fn dev_positions() -> Vec<Position> {
    include_str!("../../../testdata/dev-positions.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' ').and_then(|(_, fen)| fen.parse().ok()))
        .collect()
}

/// A dev-set position with one random change: a piece moved to another
/// square, removed, or a random piece added.
fn perturbed(positions: &[Position], seed: u64) -> Option<Position> {
    let mut rng = Rng(seed | 1);
    let pos = positions[rng.below(positions.len())];
    let mut setup = pos.to_setup();
    let occupied: Vec<Square> = (pos.board().occupied() - pos.board().kings()).iter().collect();
    match rng.below(3) {
        0 if !occupied.is_empty() => {
            let from = occupied[rng.below(occupied.len())];
            let piece = setup.board.remove_piece_at(from)?;
            let to = rng.square();
            if setup.board.occupied().contains(to) {
                return None;
            }
            setup.board.set_piece_at(to, piece);
        }
        1 if !occupied.is_empty() => {
            setup.board.remove_piece_at(occupied[rng.below(occupied.len())]);
        }
        _ => {
            let to = rng.square();
            if setup.board.occupied().contains(to) {
                return None;
            }
            setup.board.set_piece_at(to, random_piece(&mut rng));
        }
    }
    if rng.below(2) == 0 {
        setup.side_to_move = !setup.side_to_move;
    }
    if (setup.board.pawns() & (Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth))).any() {
        return None;
    }
    valid(setup)
}

#[test]
fn sparse_random_positions() {
    fn property(seed: u64) -> TestResult {
        match sparse_position(seed) {
            None => TestResult::discard(),
            Some(pos) => match check(&pos, 6) {
                Ok(_) => TestResult::passed(),
                Err(message) => TestResult::error(message),
            },
        }
    }
    QuickCheck::new().tests(3_000).max_tests(20_000).quickcheck(property as fn(u64) -> TestResult);
}

#[test]
fn perturbed_dev_positions() {
    let positions = dev_positions();
    let mut proved = 0;
    let mut tried = 0;
    let seeds: u64 = std::env::var("BRUTE_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(16_000);
    for seed in 0..seeds {
        let Some(pos) = perturbed(&positions, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)) else { continue };
        tried += 1;
        proved += check(&pos, 5).unwrap_or_else(|e| panic!("{e}"));
    }
    eprintln!("{proved} Figure 8 proofs among {tried} perturbed positions");
    assert!(tried > 8_000, "{tried}");
    assert!(proved > 800, "only {proved} static proofs among the perturbed positions: the test checks too little");
}

/// The dev-set positions the static analysis proves, searched deeper.
#[test]
fn proved_dev_positions_have_no_short_mate() {
    let mut proved = 0;
    for pos in dev_positions() {
        proved += check(&pos, 7).unwrap_or_else(|e| panic!("{e}"));
    }
    eprintln!("{proved} Figure 8 proofs on the dev set");
    assert!(proved > 500, "{proved}");
}
