//! Lemma 8, tested directly: in random games from thousands of positions
//! (without a legal en passant capture), every square a piece ever stands
//! on is in its region, every piece that ever moves or is captured has
//! `C = 1`, and every square a non-king piece of colour `c` ever stands on
//! has `R[·][c] = 1`.
//!
//! Castling is covered by the regions (the argument is in the crate docs):
//! the games from positions with castling rights play a castling whenever
//! one is legal, half of the time, and the tests assert that castlings were
//! in fact played, so a rule that missed them would be caught.

mod common;

use common::{Rng, castling_positions, eligible_positions, play_checked};
use mobility::{Mobility, Rules};
use movegen::{Move, Position, Square};
use quickcheck::{QuickCheck, TestResult};

/// Plays one random game of up to `plies` moves from `start` and checks
/// the over-approximation at every ply (see [`common::play_checked`]). A
/// legal castling is played half of the time it is available; returns how
/// many castlings were played.
fn check_game(start: &Position, mobility: &Mobility, rng: &mut Rng, plies: usize) -> Result<u32, String> {
    let played = play_checked(start, mobility, rng, plies, |_, moves, rng| {
        let castles: Vec<Move> = moves.iter().copied().filter(|m| m.is_castle()).collect();
        if !castles.is_empty() && rng.below(2) == 0 {
            castles[rng.below(castles.len())]
        } else {
            moves[rng.below(moves.len())]
        }
    });
    match played.violation {
        Some(message) => Err(message),
        None => Ok(played.castlings),
    }
}

/// The quickcheck property: 20 random games of 150 plies from the test
/// position the seed selects.
fn random_games_stay_in_regions(seed: u64) -> TestResult {
    thread_local!(static POSITIONS: Vec<Position> = eligible_positions());
    POSITIONS.with(|positions| {
        let mut rng = Rng::new(seed);
        let start = positions[rng.below(positions.len())];
        for rules in [Rules::FacingPawns, Rules::TerminalCaptures, Rules::Saturation] {
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

/// Long random games from every position of a labelled set (`LABEL FEN`
/// lines), five per rule set; returns how many were played.
fn set_games(text: &str, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut games = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((_, fen)) = line.split_once(' ') else { continue };
        let Ok(start) = Position::from_fen(fen) else { continue };
        for rules in [Rules::FacingPawns, Rules::TerminalCaptures, Rules::Saturation] {
            let Ok(mobility) = Mobility::compute_with(&start, rules) else { continue };
            for _ in 0..5 {
                check_game(&start, &mobility, &mut rng, 300).unwrap_or_else(|e| panic!("{rules:?} {fen}: {e}"));
                games += 1;
            }
        }
    }
    games
}

/// Blocked positions are where the regions are small and a wrong rule would
/// show: long random games from every dev-set position.
#[test]
fn dev_set_games() {
    let games = set_games(include_str!("../../../testdata/dev-positions.txt"), 3);
    assert!(games > 10_000, "{games}");
}

/// The same from every hard-set position (locked chains of many bishops,
/// where the group rule and the kings-last order of the saturation matter).
#[test]
fn hard_set_games() {
    let games = set_games(include_str!("../../../testdata/hard-positions.txt"), 5);
    assert!(games > 5_000, "{games}");
}

/// The own-pawn-behind rule where it may act: random games from positions
/// with a rook confined to its file ahead of its pawn (see
/// `common::rook_confined_positions`), in which the rule keeps the rook
/// out in some hundreds.
#[test]
fn rooks_confined_ahead_of_their_pawns_stay_in_regions() {
    let mut rng = Rng::new(31);
    let positions = common::rook_confined_positions(Rules::Saturation, 1_500, &mut rng);
    let mut kept_out = 0;
    for start in &positions {
        for rules in [Rules::FacingPawns, Rules::Saturation] {
            let Ok(mobility) = Mobility::compute_with(start, rules) else { continue };
            kept_out += usize::from(common::own_pawn_guard_holds(start, &mobility));
            for _ in 0..5 {
                let fen = start.to_fen();
                check_game(start, &mobility, &mut rng, 200).unwrap_or_else(|e| panic!("{rules:?} {fen}: {e}"));
            }
        }
    }
    eprintln!("{} positions, the rule keeps a rook out in {kept_out} analyses", positions.len());
    assert!(positions.len() >= 1_000 && kept_out >= 200, "{} {kept_out}", positions.len());
}

/// Castling rights: random games from every test-data position with rights,
/// and from every test-data position with the kings and rooks put on their
/// home squares with all four rights (see `common::castling_positions`).
/// Short games (castling happens early or not at all) and long ones.
#[test]
fn games_with_castling_stay_in_regions() {
    let positions = castling_positions();
    assert!(positions.len() > 3_000, "{}", positions.len());
    let mut rng = Rng::new(17);
    let (mut games, mut castlings, mut decided) = (0, 0, 0);
    for start in &positions {
        for rules in [Rules::Paper, Rules::FacingPawns, Rules::TerminalCaptures, Rules::Saturation] {
            let Ok(mobility) = Mobility::compute_with(start, rules) else { continue };
            for plies in [6, 20, 120] {
                let fen = start.to_fen();
                castlings +=
                    check_game(start, &mobility, &mut rng, plies).unwrap_or_else(|e| panic!("{rules:?} {fen}: {e}"));
                games += 1;
            }
            decided += 1;
        }
    }
    eprintln!("{games} games from {decided} analyses, {castlings} castlings played");
    assert!(castlings > 5_000, "only {castlings} castlings in {games} games");
}

/// Random games from the standard starting position, where castling is
/// common, checked against the regions of positions along the way (after
/// a random opening of up to 12 plies, rights usually still present).
#[test]
fn games_from_the_start_with_castling() {
    let mut rng = Rng::new(29);
    let mut castlings = 0;
    for _ in 0..600 {
        let mut pos = Position::default();
        for _ in 0..rng.below(13) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        let Ok(mobility) = Mobility::compute(&pos) else { continue };
        castlings += check_game(&pos, &mobility, &mut rng, 80).unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
    }
    assert!(castlings > 300, "{castlings}");
}

/// The regions contain the castling squares when castling is possible, and
/// not when it never is (a fact of the positions, checked by hand).
#[test]
fn castling_squares_in_regions() {
    let pos: Position = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1".parse().unwrap();
    let mobility = Mobility::compute(&pos).unwrap();
    for (piece, square) in [(Square::E1, Square::G1), (Square::E1, Square::C1), (Square::H1, Square::F1)] {
        assert!(mobility.region(piece).contains(square), "{piece} {square}");
    }
    assert!(mobility.region(Square::A8).contains(Square::D8));
    // Dev set line 1389: f1 and g1 hold a bishop and a knight that can
    // never move, so the king never castles (nor moves at all) and the rook
    // h1 never moves.
    let pos: Position = "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K -".parse().unwrap();
    let mobility = Mobility::compute(&pos).unwrap();
    assert_eq!(mobility.region(Square::E1), Square::E1.into());
    assert_eq!(mobility.region(Square::H1), Square::H1.into());
    assert!(!mobility.can_be_cleared(Square::G1));
}
