//! The fast set-based answers (`count_legal_moves`, `has_legal_moves`,
//! `for_each_piece_moves`, `legal_destinations`, `king_escapes`) agree with
//! the ordered legal move list, on every test position, on the positions
//! one and two plies after the first few hundred of them, and along random
//! playouts
//! (which end in mates and stalemates).

mod common;

use common::{Rng, playout, test_fens};
use movegen::{Bitboard, Color, Position, attacks};

fn check(pos: &Position) {
    let moves = pos.legal_moves();
    let fen = pos.to_fen();
    assert_eq!(pos.count_legal_moves() as usize, moves.len(), "count {fen}");
    assert_eq!(pos.has_legal_moves(), !moves.is_empty(), "has_legal_moves {fen}");
    assert_eq!(pos.is_checkmate(), pos.is_check() && moves.is_empty(), "checkmate {fen}");
    assert_eq!(pos.is_stalemate(), !pos.is_check() && moves.is_empty(), "stalemate {fen}");
    let mut from_sets = Vec::new();
    pos.for_each_piece_moves(|pm| {
        assert_eq!(pos.legal_destinations(pm.from), pm.to, "destinations {fen}");
        pos.expand_piece_moves(pm, |m| from_sets.push(m));
        false
    });
    let mut sorted = moves.to_vec();
    sorted.sort();
    from_sets.sort();
    assert_eq!(from_sets, sorted, "set view {fen}");
    // The king's escapes: for the side to move, its king's moves but
    // castling; for both sides, the squares next to the king that its own
    // pieces leave free and the other side does not attack once the king
    // has left its square.
    let steps: Bitboard =
        moves.iter().filter(|m| m.from() == pos.our_king() && !m.is_castle()).map(|m| m.to()).collect();
    assert_eq!(pos.king_escapes(pos.side_to_move()), steps, "king escapes {fen}");
    let board = pos.board();
    for color in Color::ALL {
        let king = pos.king_of(color);
        let without_king = board.occupied() - Bitboard::from(king);
        let free = attacks::king(king) - board.by_color(color);
        let escapes: Bitboard = free.iter().filter(|&sq| !board.is_attacked_by(sq, !color, without_king)).collect();
        assert_eq!(pos.king_escapes(color), escapes, "{color:?} king escapes {fen}");
    }
    let movers: Bitboard = moves.iter().map(|m| m.from()).collect();
    for square in pos.us() - movers {
        assert!(pos.legal_destinations(square).is_empty(), "{square} in {fen}");
    }
}

#[test]
fn test_positions_and_their_children() {
    let fens = test_fens();
    let mut checked = 0;
    for (i, fen) in fens.iter().enumerate() {
        let pos = Position::from_fen(fen).unwrap();
        check(&pos);
        checked += 1;
        if i < 300 {
            for &m in &pos.legal_moves() {
                let child = pos.play(m);
                check(&child);
                for &m in &child.legal_moves() {
                    check(&child.play(m));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn random_playouts_to_the_end() {
    let fens = test_fens();
    let mut rng = Rng::new(11);
    let mut without_moves = 0;
    for fen in fens.iter().step_by(5) {
        playout(Position::from_fen(fen).unwrap(), 400, &mut rng, |pos, m| {
            check(pos);
            without_moves += usize::from(m.is_none() && !pos.has_legal_moves());
        });
    }
    assert!(without_moves > 20, "{without_moves}");
}

#[test]
fn special_positions() {
    for fen in [
        // Only the pinned rook can move, along the pin.
        "kr5R/8/K7/8/8/8/8/8 b - - 0 1",
        // Only the pinned pawn can move: it captures its pinner.
        "k7/1pK5/2B5/1N6/8/8/8/8 b - - 0 1",
        // The only legal move is an en passant capture of the checking pawn.
        "8/3B4/7R/k7/1Pp5/2P5/8/7K b - b3 0 1",
        // En passant capture of the checking pawn.
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        // En passant illegal: it would expose the king along the rank.
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
        // Pinned pawn that may capture its pinner.
        "4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1",
        // Double check: only the king moves.
        "4k3/8/8/8/1b6/8/3r4/4K2R w K - 0 1",
        // Castling through an attacked square, and a legal one.
        "r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1",
        // Promotions with captures, pinned promoting pawn.
        "1n2k3/P6P/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/1p6/2R1K3 b - - 0 1",
        // Stalemate.
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        // Checkmate.
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        check(&pos);
    }
    let only_pinned_pawn = Position::from_fen("k7/1pK5/2B5/1N6/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(only_pinned_pawn.legal_moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["b7c6"]);
    let only_en_passant = Position::from_fen("8/3B4/7R/k7/1Pp5/2P5/8/7K b - b3 0 1").unwrap();
    assert_eq!(only_en_passant.legal_moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["c4b3"]);
}
