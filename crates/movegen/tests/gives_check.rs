//! `gives_check` agrees with making the move: for every legal move of
//! every test position, and of every position of random games from them
//! (captures, promotions, castling, en passant and discovered checks all
//! occur), `pos.gives_check(m) == pos.play(m).is_check()`, and the same of
//! `pos.check_squares().gives_check(pos, m)` and of its checking targets.

mod common;

use common::{Rng, playout, test_fens};
use movegen::{Bitboard, Position, Role};

fn check_all_moves(pos: &Position, checks: &mut u64, moves: &mut u64) {
    let sets = pos.check_squares();
    for &m in &pos.legal_moves() {
        let after = pos.play(m);
        let expected = after.is_check();
        assert_eq!(pos.gives_check(m), expected, "{} {m}", pos.to_fen());
        assert_eq!(sets.gives_check(pos, m), expected, "check squares: {} {m}", pos.to_fen());
        // A piece's checking targets as a set, for the pieces that have them.
        let role = pos.board().role_at(m.from());
        if let Some(role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) = role {
            if !m.is_castle() {
                let set = sets.checking_targets(role, m.from(), Bitboard::from(m.to()));
                assert_eq!(set.any(), expected, "checking targets: {} {m}", pos.to_fen());
            }
        }
        *checks += u64::from(expected);
        *moves += 1;
        DISCOVERED.with(|d| d.set(d.get() + u64::from((after.checkers() - Bitboard::from(m.to())).any())));
    }
}

thread_local! {
    /// Checks given (also) by a piece other than the one that moved.
    static DISCOVERED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
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
    // Enough of both answers for the comparison to mean something, and of
    // discovered checks for the check sets' second half.
    let discovered = DISCOVERED.with(|d| d.get());
    assert!(
        moves > 1_000_000 && checks > 20_000 && discovered > 1_000,
        "{moves} moves, {checks} checks, {discovered} discovered"
    );
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
