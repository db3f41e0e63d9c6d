//! Lemma 8, tested directly: in random games from thousands of positions
//! (without castling rights or en passant), every square a piece ever stands
//! on is in its region, every piece that ever moves or is captured has
//! `C = 1`, and every square a non-king piece of colour `c` ever stands on
//! has `R[·][c] = 1`.

mod common;

use common::{Rng, eligible_positions};
use mobility::{Mobility, Rules};
use movegen::{MoveKind, Position, Role, Square};
use quickcheck::{QuickCheck, TestResult};

/// Plays one random game of up to `plies` moves from `start`, following
/// every piece by identity (its square in `start`), and checks the
/// over-approximation at every ply.
fn check_game(start: &Position, mobility: &Mobility, rng: &mut Rng, plies: usize) -> Result<(), String> {
    // identity[s] = initial square of the piece now on s.
    let mut identity: [Option<Square>; 64] = [None; 64];
    for square in start.board().occupied() {
        identity[square as usize] = Some(square);
    }
    let mut pos = *start;
    for ply in 0..=plies {
        if pos.is_stalemate() {
            break;
        }
        for square in pos.board().occupied() {
            let Some(origin) = identity[square as usize] else { return Err(format!("lost track of {square}")) };
            if !mobility.region(origin).contains(square) {
                return Err(format!("piece from {origin} reached {square} at ply {ply}: {}", pos.to_fen()));
            }
            if square != origin && !mobility.can_be_cleared(origin) {
                return Err(format!("piece from {origin} moved but C = 0"));
            }
            let piece = pos.piece_at(square).unwrap();
            if piece.role != Role::King && !mobility.reachable(piece.color).contains(square) {
                return Err(format!("R[{square}][{}] = 0 but a piece stands there", piece.color));
            }
        }
        // Pieces no longer on the board were captured: C must hold.
        for origin in start.board().occupied() {
            if !identity.contains(&Some(origin)) && !mobility.can_be_cleared(origin) {
                return Err(format!("piece from {origin} was captured but C = 0"));
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() || ply == plies {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let (from, to) = (m.from(), m.to());
        if m.kind() == MoveKind::EnPassant {
            identity[(to as usize & 7) | (from as usize & 56)] = None;
        }
        identity[to as usize] = identity[from as usize];
        identity[from as usize] = None;
        pos = pos.play(m);
    }
    Ok(())
}

/// The quickcheck property: 20 random games of 150 plies from the test
/// position the seed selects.
fn random_games_stay_in_regions(seed: u64) -> TestResult {
    thread_local!(static POSITIONS: Vec<Position> = eligible_positions());
    POSITIONS.with(|positions| {
        let mut rng = Rng::new(seed);
        let start = positions[rng.below(positions.len())];
        for rules in [Rules::FacingPawns, Rules::TerminalCaptures] {
            let Ok(mobility) = Mobility::compute_with(&start, rules) else { return TestResult::discard() };
            for _ in 0..10 {
                if let Err(message) = check_game(&start, &mobility, &mut rng, 150) {
                    return TestResult::error(format!("{rules:?}: {message}"));
                }
            }
        }
        TestResult::passed()
    })
}

#[test]
fn regions_contain_every_square_reached_in_random_games() {
    QuickCheck::new().tests(3_000).quickcheck(random_games_stay_in_regions as fn(u64) -> TestResult);
}

/// Blocked positions are where the regions are small and a wrong rule would
/// show: long random games from every dev-set position.
#[test]
fn dev_set_games() {
    let mut rng = Rng::new(3);
    let mut games = 0;
    for line in include_str!("../../../testdata/dev-positions.txt").lines().filter(|l| !l.starts_with('#')) {
        let Some((_, fen)) = line.split_once(' ') else { continue };
        let Ok(start) = Position::from_fen(fen) else { continue };
        for rules in [Rules::FacingPawns, Rules::TerminalCaptures] {
            let Ok(mobility) = Mobility::compute_with(&start, rules) else { continue };
            for _ in 0..5 {
                check_game(&start, &mobility, &mut rng, 300).unwrap_or_else(|e| panic!("{rules:?} {fen}: {e}"));
                games += 1;
            }
        }
    }
    assert!(games > 10_000, "{games}");
}
