//! Differential test at scale: one million positions from random playouts
//! (from every test-data FEN in turn), each compared with shakmaty (an
//! independent library, a dev-dependency only) on the set of legal moves
//! (as UCI moves), check, checkmate, stalemate and the FEN. Kept light per
//! position so that it runs in well under two minutes on one core in
//! `cargo test --release` (about 3 s).

mod common;

use std::time::Instant;

use common::{Rng, test_fens};
use movegen::{Position, Role};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _, fen::Fen};

const POSITIONS: usize = 1_000_000;
const MAX_PLIES: usize = 300;

#[allow(clippy::result_large_err)] // shakmaty's error type, not ours
fn shakmaty_position(fen: &str) -> Chess {
    let setup: Fen = fen.parse().unwrap();
    setup
        .into_position(CastlingMode::Standard)
        .or_else(|e| e.ignore_too_much_material())
        .or_else(|e| e.ignore_impossible_check())
        .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e}"))
}

/// A move as a number: from, to and promotion piece (castling as the king's
/// move, as in UCI).
fn key(from: u32, to: u32, promotion: Option<char>) -> u16 {
    let promotion = match promotion {
        None => 0,
        Some('n') => 1,
        Some('b') => 2,
        Some('r') => 3,
        Some('q') => 4,
        Some(other) => panic!("promotion to {other}"),
    };
    ((from << 9) | (to << 3) | promotion) as u16
}

fn their_key(m: &shakmaty::Move) -> u16 {
    match m.to_uci(CastlingMode::Standard) {
        UciMove::Normal { from, to, promotion } => key(u32::from(from), u32::from(to), promotion.map(|r| r.char())),
        other => panic!("unexpected UCI move {other}"),
    }
}

#[test]
fn agrees_with_shakmaty_on_a_million_positions() {
    let start = Instant::now();
    let fens = test_fens();
    let mut rng = Rng::new(0x5eed);
    let (mut compared, mut games, mut mates, mut stalemates) = (0usize, 0usize, 0usize, 0usize);
    let (mut ours_keys, mut theirs_keys) = (Vec::with_capacity(256), Vec::with_capacity(256));
    while compared < POSITIONS {
        let fen = fens[games % fens.len()];
        games += 1;
        let mut ours = Position::from_fen(fen).unwrap();
        let mut theirs = shakmaty_position(fen);
        for ply in 0..MAX_PLIES {
            let our_moves = ours.legal_moves();
            let their_moves = theirs.legal_moves();
            ours_keys.clear();
            ours_keys.extend(
                our_moves
                    .iter()
                    .map(|m| key(m.from().index() as u32, m.to().index() as u32, m.promotion().map(Role::char))),
            );
            theirs_keys.clear();
            theirs_keys.extend(their_moves.iter().map(their_key));
            ours_keys.sort_unstable();
            theirs_keys.sort_unstable();
            if ours_keys != theirs_keys {
                let mut a: Vec<String> = our_moves.iter().map(|m| m.to_string()).collect();
                let mut b: Vec<String> =
                    their_moves.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
                a.sort();
                b.sort();
                panic!("legal moves of {}: ours {a:?}, shakmaty {b:?}", ours.to_fen());
            }
            let check = theirs.is_check();
            assert_eq!(ours.is_check(), check, "check in {}", ours.to_fen());
            assert_eq!(ours.is_checkmate(), check && their_moves.is_empty(), "checkmate in {}", ours.to_fen());
            assert_eq!(ours.is_stalemate(), !check && their_moves.is_empty(), "stalemate in {}", ours.to_fen());
            let their_fen = Fen::from_position(&theirs, EnPassantMode::PseudoLegal).to_string();
            assert_eq!(ours.to_fen(), their_fen, "FEN after {ply} plies from {fen}");
            compared += 1;
            if their_moves.is_empty() {
                if check {
                    mates += 1;
                } else {
                    stalemates += 1;
                }
                break;
            }
            // A random move, found in both lists by its key.
            let chosen = theirs_keys[rng.below(theirs_keys.len())];
            let m = *their_moves.iter().find(|m| their_key(m) == chosen).unwrap();
            let our_move = *our_moves
                .iter()
                .find(|&&m| {
                    key(m.from().index() as u32, m.to().index() as u32, m.promotion().map(Role::char)) == chosen
                })
                .unwrap();
            ours = ours.play(our_move);
            theirs.play_unchecked(m);
            if compared == POSITIONS {
                break;
            }
        }
    }
    assert_eq!(compared, POSITIONS);
    // Facts about the sample, so that a silent change to it is noticed.
    assert!(games > 3_000, "{games} games");
    assert!(mates > 100 && stalemates > 100, "{mates} mates, {stalemates} stalemates");
    eprintln!(
        "{compared} positions in {games} playouts ({mates} mates, {stalemates} stalemates) in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
