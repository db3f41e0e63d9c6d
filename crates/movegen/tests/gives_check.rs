//! `gives_check` agrees with making the move: for every legal move of
//! every test position, and of every position of random games from them
//! (captures, promotions, castling, en passant and discovered checks all
//! occur), `pos.gives_check(m) == pos.play(m).is_check()`.

mod common;

use common::{Rng, playout, test_fens};
use movegen::Position;

fn check_all_moves(pos: &Position, checks: &mut u64, moves: &mut u64) {
    for &m in &pos.legal_moves() {
        let expected = pos.play(m).is_check();
        assert_eq!(pos.gives_check(m), expected, "{} {m}", pos.to_fen());
        *checks += u64::from(expected);
        *moves += 1;
    }
}

#[test]
fn gives_check_agrees_with_play() {
    let (mut checks, mut moves) = (0, 0);
    let mut rng = Rng::new(41);
    for fen in test_fens() {
        let start = Position::from_fen(fen).unwrap();
        check_all_moves(&start, &mut checks, &mut moves);
        playout(start, 60, &mut rng, |pos, _| check_all_moves(pos, &mut checks, &mut moves));
    }
    // Enough of both answers for the comparison to mean something.
    assert!(moves > 1_000_000 && checks > 20_000, "{moves} moves, {checks} checks");
}

/// The same on Chess960 positions with castling rights and random games
/// from them: the castling rook's check from its Chess960 squares (the
/// king and rook may swap, or one of them stay).
#[test]
fn gives_check_agrees_with_play_in_chess960() {
    let (mut checks, mut moves, mut castling_checks) = (0, 0, 0);
    let mut rng = Rng::new(43);
    for start in movegen::random_chess960_positions(5, 3_000) {
        check_all_moves(&start, &mut checks, &mut moves);
        playout(start, 40, &mut rng, |pos, _| {
            check_all_moves(pos, &mut checks, &mut moves);
            castling_checks += pos.legal_moves().iter().filter(|&&m| m.is_castle() && pos.gives_check(m)).count();
        });
    }
    assert!(
        moves > 1_000_000 && checks > 10_000 && castling_checks > 20,
        "{moves} moves, {checks} checks, {castling_checks} castling checks"
    );
}
