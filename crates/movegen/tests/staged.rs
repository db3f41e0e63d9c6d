//! `StagedMoves` hands out exactly the full generator's list, in its order,
//! and `generate_legal_moves_of` exactly its moves of one role (as a set),
//! however many moves are taken before the rest is asked for: on every
//! test position and every position of random games from them (pinned
//! pieces, en passant, castling through attacked squares, checks and
//! promotions all occur), and on Chess960 positions with castling rights.

mod common;

use common::{Rng, playout, test_fens};
use movegen::{Move, MoveList, Position, Role, StagedMoves};

/// Counts of what the positions checked had, so that the test shows it met
/// the cases the staging treats apart.
#[derive(Default)]
struct Seen {
    positions: u64,
    pinned: u64,
    en_passant: u64,
    in_check: u64,
    no_moves: u64,
}

fn check(pos: &Position, rng: &mut Rng, seen: &mut Seen) {
    let full = pos.legal_moves();
    let fen = pos.to_fen();
    // Taken one by one.
    let taken: Vec<Move> = StagedMoves::new(pos).collect();
    assert_eq!(taken, full.as_slice(), "{fen}");
    // Some taken, then the rest asked for at once.
    let mut staged = StagedMoves::new(pos);
    let first = rng.below(full.len() + 1);
    for (i, expected) in full.iter().take(first).enumerate() {
        assert_eq!(staged.next(), Some(*expected), "{fen}: move {i}");
    }
    assert_eq!(staged.any_left(), first < full.len(), "{fen}");
    assert_eq!(staged.all(), full.as_slice(), "{fen}");
    let rest: Vec<Move> = staged.collect();
    assert_eq!(rest, &full[first..], "{fen}");
    // All at once.
    assert_eq!(StagedMoves::whole(pos).collect::<Vec<_>>(), full.as_slice(), "{fen}");
    // One role's moves: the full list's moves of that role.
    let mut of_role = MoveList::new();
    for role in Role::ALL {
        pos.generate_legal_moves_of(role, &mut of_role);
        let mut got: Vec<u16> = of_role.iter().map(|m| m.to_bits()).collect();
        let mut want: Vec<u16> =
            full.iter().filter(|m| pos.board().role_at(m.from()) == Some(role)).map(|m| m.to_bits()).collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "{fen}: {role:?}");
    }
    // A fresh list has a move exactly when the position has one.
    assert_eq!(StagedMoves::new(pos).any_left(), pos.has_legal_moves(), "{fen}");
    assert_eq!(StagedMoves::whole(pos).any_left(), pos.has_legal_moves(), "{fen}");
    seen.positions += 1;
    seen.pinned += u64::from(pos.pinned().any());
    seen.en_passant += u64::from(pos.ep_square().is_some());
    seen.in_check += u64::from(pos.is_check());
    seen.no_moves += u64::from(full.is_empty());
}

#[test]
fn staged_moves_are_the_full_list_in_its_order() {
    let mut rng = Rng::new(47);
    let mut seen = Seen::default();
    for fen in test_fens() {
        let start = Position::from_fen(fen).unwrap();
        let mut picks = Rng::new(rng.below(1 << 30) as u64);
        playout(start, 40, &mut rng, |pos, _| check(pos, &mut picks, &mut seen));
    }
    for start in movegen::random_chess960_positions(7, 1_000) {
        let mut picks = Rng::new(rng.below(1 << 30) as u64);
        playout(start, 20, &mut rng, |pos, _| check(pos, &mut picks, &mut seen));
    }
    // The cases the staging treats apart all occurred, many times.
    assert!(seen.positions > 150_000, "{} positions", seen.positions);
    assert!(seen.pinned > 5_000 && seen.en_passant > 1_000, "{} pinned, {} en passant", seen.pinned, seen.en_passant);
    assert!(
        seen.in_check > 5_000 && seen.no_moves > 100,
        "{} in check, {} without moves",
        seen.in_check,
        seen.no_moves
    );
}
