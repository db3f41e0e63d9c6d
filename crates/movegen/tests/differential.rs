//! Differential test against an independent library (shakmaty, a
//! dev-dependency only): on random playout positions the set of legal
//! moves, the FEN after each move, check/checkmate/stalemate status and the
//! repetition identity (board, side, castling rights, *legal* en passant)
//! must agree.

mod common;

use std::collections::HashMap;

use common::{Rng, test_fens};
use movegen::Position;
use quickcheck::QuickCheck;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _, fen::Fen, zobrist::Zobrist64};

#[allow(clippy::result_large_err)] // shakmaty's error type, not ours
fn shakmaty_position(fen: &str) -> Chess {
    let setup: Fen = fen.parse().unwrap();
    setup
        .into_position(CastlingMode::Standard)
        .or_else(|e| e.ignore_too_much_material())
        .or_else(|e| e.ignore_impossible_check())
        .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e}"))
}

/// Compares one position in every respect; returns the two repetition keys.
fn compare(ours: &Position, theirs: &Chess) -> (u64, u64) {
    let fen = ours.to_fen();
    let mut our_moves: Vec<String> = ours.legal_moves().iter().map(|m| m.to_string()).collect();
    let mut their_moves: Vec<String> =
        theirs.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
    our_moves.sort();
    their_moves.sort();
    assert_eq!(our_moves, their_moves, "legal moves of {fen}");
    assert_eq!(ours.count_legal_moves() as usize, their_moves.len(), "{fen}");
    assert_eq!(ours.is_check(), theirs.is_check(), "check in {fen}");
    assert_eq!(ours.is_checkmate(), theirs.is_checkmate(), "checkmate in {fen}");
    assert_eq!(ours.is_stalemate(), theirs.is_stalemate(), "stalemate in {fen}");
    assert_eq!(ours.checkers().count() as usize, theirs.checkers().count(), "{fen}");
    assert_eq!(
        ours.legal_ep_square().map(|s| s.to_string()),
        theirs.ep_square(EnPassantMode::Legal).map(|s| s.to_string()),
        "legal en passant in {fen}"
    );
    // Our FEN writes the en passant square when a pawn attacks it (pseudo-legal).
    let their_fen = Fen::from_position(theirs, EnPassantMode::PseudoLegal).to_string();
    assert_eq!(fen, their_fen, "FEN");
    let their_key: Zobrist64 = theirs.zobrist_hash(EnPassantMode::Legal);
    (ours.repetition_key(), their_key.0)
}

/// One random game from one of the test positions; every position and
/// every move compared. Repetition keys must induce the same equivalence:
/// two positions are "the same" for us iff they are for shakmaty.
fn random_game(seed: u64, fens: &[&str], keys: &mut HashMap<u64, u64>, reverse: &mut HashMap<u64, u64>) -> usize {
    let mut rng = Rng::new(seed);
    let fen = fens[rng.below(fens.len())];
    let mut ours = Position::from_fen(fen).unwrap();
    let mut theirs = shakmaty_position(fen);
    let mut visited = 0;
    for _ in 0..200 {
        let (our_key, their_key) = compare(&ours, &theirs);
        assert_eq!(*keys.entry(their_key).or_insert(our_key), our_key, "repetition identity of {}", ours.to_fen());
        assert_eq!(*reverse.entry(our_key).or_insert(their_key), their_key, "repetition identity of {}", ours.to_fen());
        visited += 1;
        let moves = theirs.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer shuffling moves now and then, so positions repeat.
        let m = moves[rng.below(moves.len())];
        let uci = m.to_uci(CastlingMode::Standard).to_string();
        let our_move = ours.parse_uci(&uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", ours.to_fen()));
        ours = ours.play(our_move);
        theirs.play_unchecked(m);
    }
    visited
}

/// The quickcheck property: one random game per seed, every position of it
/// compared (repetition identity checked within the game).
fn game_agrees(seed: u64) -> bool {
    let fens = test_fens();
    random_game(seed, &fens, &mut HashMap::new(), &mut HashMap::new()) > 0
}

#[test]
fn agrees_with_shakmaty_on_random_playouts() {
    QuickCheck::new().tests(3_000).quickcheck(game_agrees as fn(u64) -> bool);
}

#[test]
fn repetition_identity_agrees_across_many_games() {
    // One shared map over many games from few starting positions, so that
    // the same positions are met again through different move orders.
    let fens: Vec<&str> = test_fens().into_iter().take(7).collect();
    let (mut keys, mut reverse) = (HashMap::new(), HashMap::new());
    let visited: usize = (0..1_000).map(|seed| random_game(seed, &fens, &mut keys, &mut reverse)).sum();
    assert!(visited > 50_000, "{visited}");
    assert!(keys.len() < visited, "no position was met twice");
}
