//! Packing keeps a position's identity: on random playouts from the test
//! positions, `unpack(pack(p))` equals `p` up to the move counters (same
//! FEN but for them, same hash, same legal moves, same check state), the
//! packed position's own hash is the position's, and
//! two positions pack equally exactly when their identities agree.

mod common;

use common::{Rng, test_fens};
use movegen::Position;

fn identity(pos: &Position) -> String {
    pos.to_fen().rsplitn(3, ' ').nth(2).unwrap_or_default().to_string()
}

#[test]
fn unpack_inverts_pack_on_random_playouts() {
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for fen in test_fens().iter().take(1500) {
        let mut pos: Position = fen.parse().unwrap();
        for _ in 0..40 {
            let back = pos.pack().unpack();
            assert_eq!(identity(&back), identity(&pos), "{}", pos.to_fen());
            assert_eq!(back.hash(), pos.hash());
            assert_eq!(pos.pack().zobrist(), pos.hash(), "{}", pos.to_fen());
            assert_eq!(back.checkers(), pos.checkers());
            assert_eq!(back.legal_moves(), pos.legal_moves());
            assert_eq!(back.pack(), pos.pack());
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let next = pos.play(moves[rng.below(moves.len())]);
            // Packing tells positions apart exactly when their identities do.
            assert_eq!(next.pack() == pos.pack(), identity(&next) == identity(&pos));
            pos = next;
        }
    }
    assert!(checked > 20_000, "{checked}");
    // Chess960 positions with castling rights: the rooks' files are part of
    // the packed state and of the hash.
    for start in movegen::random_chess960_positions(3, 300) {
        let mut pos = start;
        for _ in 0..20 {
            assert_eq!(pos.pack().zobrist(), pos.hash(), "{}", pos.to_fen());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
}
