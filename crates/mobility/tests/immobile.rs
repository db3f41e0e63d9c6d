//! The case split on pieces that cannot move ([`immobile_pieces`]),
//! attacked directly: in random games from every dev and hard position,
//! a piece found immobile never leaves its square (it may be captured
//! there), and every position stays within the regions computed with the
//! immobile pieces pinned (Lemma 8 for the narrowed fixpoint). For the
//! games that end in a checkmate by one colour, the same over the games
//! that do end so (steered towards mates, as in `mating_games.rs`).

mod common;

use common::{Rng, labelled_positions, play_checked, towards_mate};
use mobility::{Games, Mobility, Rules, immobile_pieces};
use movegen::{Bitboard, Color, Position, Square};

#[test]
fn immobile_pieces_never_move_in_random_games() {
    let mut rng = Rng::new(41);
    let (mut split, mut games) = (0, 0);
    for start in labelled_positions() {
        let Ok(immobile) = immobile_pieces(&start, Rules::Saturation, Games::default()) else { continue };
        if immobile.is_empty() {
            continue;
        }
        split += 1;
        let games_narrowed = Games { immobile, ..Games::default() };
        let mobility = Mobility::compute_assuming(&start, Rules::Saturation, games_narrowed).unwrap();
        for square in immobile {
            assert_eq!(mobility.region(square), Bitboard::from(square));
        }
        for _ in 0..8 {
            let played = play_checked(&start, &mobility, &mut rng, 300, |_, moves, rng| moves[rng.below(moves.len())]);
            if let Some(message) = played.violation {
                panic!("{}: immobile {immobile:?}: {message}", start.to_fen());
            }
            games += 1;
        }
    }
    eprintln!("{split} positions with immobile pieces, {games} games");
    assert!(split >= 100, "{split}");
}

#[test]
fn immobile_pieces_never_move_in_games_ending_in_a_mate() {
    let mut rng = Rng::new(43);
    let (mut split, mut mating_games) = (0, 0);
    for start in labelled_positions() {
        for winner in Color::ALL {
            let games = Games { mates_by: Some(winner), ..Games::default() };
            let Ok(immobile) = immobile_pieces(&start, Rules::Saturation, games) else { continue };
            if immobile.is_empty() {
                continue;
            }
            split += 1;
            let mobility = Mobility::compute_assuming(&start, Rules::Saturation, Games { immobile, ..games }).unwrap();
            for _ in 0..20 {
                let played = play_checked(&start, &mobility, &mut rng, 160, towards_mate);
                if played.last.is_checkmate() && played.last.side_to_move() == !winner {
                    mating_games += 1;
                    if let Some(message) = played.violation {
                        panic!("{} for {winner}: immobile {immobile:?}: {message}", start.to_fen());
                    }
                }
            }
        }
    }
    eprintln!("{split} position/winner pairs with immobile pieces, {mating_games} games ending in the mate");
    assert!(split >= 100, "{split}");
    assert!(mating_games >= 40, "{mating_games}");
}

/// Hard line 183, Black to win: the white knight on g1 may be taken by the
/// black king but never moves in a game Black wins, since its only move,
/// to h3, mates Black. The split finds it (through the terminal rule, once
/// the knight is assumed never captured), and the position confirms the
/// premise.
#[test]
fn a_piece_whose_only_move_mates_is_immobile_though_capturable() {
    let pos: Position = "8/5BbB/7b/8/3p1p2/2pPpPp1/2PpBkP1/3K1BN1 w - -".parse().unwrap();
    let games = Games { mates_by: Some(Color::Black), ..Games::default() };
    let immobile = immobile_pieces(&pos, Rules::default(), games).unwrap();
    assert!(immobile.contains(Square::G1));
    let knight_moves: Vec<_> = pos.legal_moves().iter().copied().filter(|m| m.from() == Square::G1).collect();
    assert!(!knight_moves.is_empty());
    assert!(knight_moves.iter().all(|&m| pos.play(m).is_checkmate()));
    // Without the narrowing to Black's mates the knight is free to move.
    assert!(!immobile_pieces(&pos, Rules::default(), Games::default()).unwrap().contains(Square::G1));
}
