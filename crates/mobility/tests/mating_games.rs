//! Lemma 8 for the regions narrowed to the games that end in a checkmate by
//! one colour ([`Games::mates_by`]): in random games from the dev and hard
//! positions that do end in such a mate, every position is within the
//! regions. The games are steered towards mates (a mating move is played
//! when there is one, checks are preferred), and the test asserts that
//! enough of them end that way for it to mean something.
//!
//! The narrowing lets a piece stand still when each of its moves would mate
//! the winner: a game in which it moves ends without the winner's mate, so
//! it is not among the games covered, and the test only judges the covered
//! ones. A test of the premise itself comes last: in hard line 148 every
//! move of the pawns kept still is checkmate.

mod common;

use common::{Rng, labelled_positions, play_checked, towards_mate};
use mobility::{Games, Mobility, Rules};
use movegen::{Bitboard, Color, Position, Square};

#[test]
fn games_ending_in_the_winners_mate_stay_in_regions() {
    let mut rng = Rng::new(29);
    let (mut mating_games, mut narrowed) = (0, 0);
    for start in labelled_positions() {
        for winner in Color::ALL {
            let games = Games { uncapturable: Bitboard::EMPTY, mates_by: Some(winner), immobile: Bitboard::EMPTY };
            let Ok(mobility) = Mobility::compute_assuming(&start, Rules::Saturation, games) else { continue };
            let all = Mobility::compute_with(&start, Rules::Saturation).expect("same precondition");
            if mobility.cleared() != all.cleared() {
                narrowed += 1;
            }
            for _ in 0..6 {
                let played = play_checked(&start, &mobility, &mut rng, 160, towards_mate);
                let mate_by_winner = played.last.is_checkmate() && played.last.side_to_move() == !winner;
                if mate_by_winner {
                    mating_games += 1;
                    if let Some(message) = played.violation {
                        panic!("{} for {winner}: {message}", start.to_fen());
                    }
                }
            }
        }
    }
    eprintln!("{mating_games} games ending in the winner's mate; {narrowed} narrowed fixpoints");
    assert!(mating_games > 2_000, "{mating_games}");
    assert!(narrowed >= 3, "{narrowed}");
}

/// Hard line 148: the black pawns on b6 and d6 are kept still for White as
/// the winner (each of their moves mates White), not for all games; and
/// indeed every legal move of theirs in the position is checkmate.
#[test]
fn pawns_whose_every_move_mates_stay_still() {
    let pos: Position = "3b4/6k1/1ppp4/2b3p1/1pKp1pP1/1P1P1P2/8/1BbB1B2 b - -".parse().unwrap();
    let games = Games { uncapturable: Bitboard::EMPTY, mates_by: Some(Color::White), immobile: Bitboard::EMPTY };
    let narrowed = Mobility::compute_assuming(&pos, Rules::Saturation, games).unwrap();
    let all = Mobility::compute_with(&pos, Rules::Saturation).unwrap();
    for square in [Square::B6, Square::D6] {
        assert!(!narrowed.can_be_cleared(square), "{square}");
        assert!(all.can_be_cleared(square), "{square}");
        let moves: Vec<_> = pos.legal_moves().iter().copied().filter(|m| m.from() == square).collect();
        assert!(!moves.is_empty());
        for m in moves {
            assert!(pos.play(m).is_checkmate(), "{square}: {m:?}");
        }
    }
}
