//! `play` is total: any 16-bit move, legal or not, applied to any position
//! of the test data returns some position (unspecified for an illegal move)
//! without panicking; and for legal moves `play_in_place` equals `play`.

mod common;

use common::{Rng, test_fens};
use movegen::{Move, Position};

#[test]
fn any_move_bits_do_not_panic() {
    let mut rng = Rng::new(5);
    let mut played = 0u64;
    for fen in test_fens().iter().step_by(7) {
        let pos = Position::from_fen(fen).unwrap();
        for _ in 0..2_000 {
            let m = Move::from_bits(rng.next() as u16);
            let next = pos.play(m);
            played += u64::from(next.hash() != 0);
        }
    }
    assert!(played > 1_000_000, "{played}");
}

#[test]
fn play_in_place_equals_play() {
    for fen in test_fens().iter().step_by(11) {
        let pos = Position::from_fen(fen).unwrap();
        for &m in &pos.legal_moves() {
            let mut in_place = pos;
            in_place.play_in_place(m);
            assert_eq!(in_place, pos.play(m), "{fen} {m}");
        }
    }
}
