//! No `unwinnable` next to a mate: positions zero, one or two plies from a
//! checkmate by the intended winner, for every small material combination,
//! found by an independent brute-force search, must never be called
//! unwinnable, in any mode, nor by the static check alone.
//!
//! The generator draws the two kings and up to two pieces for each side
//! (every combination of pawn, knight, bishop, rook and queen), biased
//! towards the situations where rules have gone wrong before: kings on the
//! edge, pawns about to promote, castling rights, en passant squares, and
//! placements that need not be reachable in a game (two bishops of one
//! colour giving a double check). Each mating line the brute force finds is
//! classified (already mate, double check, promotion, en passant, castling,
//! discovered check) and the test asserts that every class occurs, so a
//! generator that stopped producing one would be noticed.

mod common;

use common::Rng;
use movegen::{Board, CastlingRights, Color, Move, Piece, Position, Rank, Role, Setup, Square};
use search::{Analyzer, Config, Mode, Verdict, replay};

const ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// Every multiset of at most two roles.
fn combinations() -> Vec<Vec<Role>> {
    let mut all = vec![vec![]];
    for (i, &a) in ROLES.iter().enumerate() {
        all.push(vec![a]);
        for &b in &ROLES[i..] {
            all.push(vec![a, b]);
        }
    }
    all
}

/// A random square, biased to the edges for kings and to the seventh rank
/// (from the owner's side) for pawns.
fn biased_square(rng: &mut Rng, role: Role, color: Color) -> Square {
    match (role, rng.below(3)) {
        (Role::King, 0) => {
            let edge = [0, 7][rng.below(2)];
            let other = rng.below(8) as u32;
            if rng.below(2) == 0 { Square::new(edge * 8 + other) } else { Square::new(other * 8 + edge) }
        }
        (Role::Pawn, 0) => {
            let rank = if color == Color::White { 6 } else { 1 };
            Square::new(rank * 8 + rng.below(8) as u32)
        }
        _ => Square::new(rng.below(64) as u32),
    }
}

/// A random position with the given material, or `None` if the draw is not
/// a valid position. Castling rights are added when a king and rook stand
/// at home, an en passant square when a pawn could just have pushed two.
fn random_position(rng: &mut Rng, winner: Color, ours: &[Role], theirs: &[Role]) -> Option<Position> {
    let mut board = Board::empty();
    let place = |board: &mut Board, piece: Piece, square: Square| -> bool {
        let back_rank = matches!(square.rank(), Rank::First | Rank::Eighth);
        if board.occupied().contains(square) || (piece.role == Role::Pawn && back_rank) {
            return false;
        }
        board.set_piece_at(square, piece);
        true
    };
    for color in Color::ALL {
        // Kings at home half of the time (castling), else biased to edges.
        let square = if rng.below(2) == 0 {
            if color == Color::White { Square::E1 } else { Square::E8 }
        } else {
            biased_square(rng, Role::King, color)
        };
        if !place(&mut board, Piece::new(color, Role::King), square) {
            return None;
        }
    }
    let side_to_move = Color::from_white(rng.below(2) == 0);
    // The rank on which an en passant capture happens in this position.
    let en_passant_rank = if side_to_move == Color::White { 4 } else { 3 };
    // Half of the time both sides' first pawns stand side by side there.
    let file = 1 + rng.below(6) as u32;
    let side_by_side = rng.below(2) == 0;
    for (color, roles) in [(winner, ours), (!winner, theirs)] {
        for (index, &role) in roles.iter().enumerate() {
            // Rooks at home half of the time; pawns on the en passant rank
            // a third of the time.
            let square = if role == Role::Pawn && index == 0 && side_by_side {
                let offset = if color == winner { 0 } else { [1u32, 0][rng.below(2)] * 2 };
                Square::new(en_passant_rank * 8 + file + offset - u32::from(color != winner))
            } else if color == winner && rng.below(2) == 0 {
                // Aimed at the loser's king: checks (and double checks by
                // two bishops of one colour) become common.
                let king = board.king_of(!winner).unwrap_or(Square::A1);
                let sources = if role == Role::Pawn {
                    movegen::attacks::pawn(!color, king)
                } else {
                    movegen::attacks::attacks(role, color, king, board.occupied())
                };
                let sources: Vec<Square> = sources.iter().collect();
                if sources.is_empty() {
                    return None;
                }
                sources[rng.below(sources.len())]
            } else if color != winner && rng.below(2) == 0 {
                // Next to its own king: blocking its escapes.
                let king = board.king_of(color).unwrap_or(Square::A1);
                let around: Vec<Square> = movegen::attacks::king(king).iter().collect();
                around[rng.below(around.len())]
            } else if role == Role::Pawn && rng.below(3) == 0 {
                Square::new(en_passant_rank * 8 + rng.below(8) as u32)
            } else if role == Role::Rook && rng.below(2) == 0 {
                let rank = if color == Color::White { 0 } else { 7 };
                Square::new(rank * 8 + [0, 7][rng.below(2)])
            } else {
                biased_square(rng, role, color)
            };
            if !place(&mut board, Piece::new(color, role), square) {
                return None;
            }
        }
    }
    let mut castling = CastlingRights::empty();
    for (king, rook, right) in [
        (Square::E1, Square::H1, CastlingRights::WHITE_KING_SIDE),
        (Square::E1, Square::A1, CastlingRights::WHITE_QUEEN_SIDE),
        (Square::E8, Square::H8, CastlingRights::BLACK_KING_SIDE),
        (Square::E8, Square::A8, CastlingRights::BLACK_QUEEN_SIDE),
    ] {
        let color = if king == Square::E1 { Color::White } else { Color::Black };
        if board.piece_at(king) == Some(Piece::new(color, Role::King))
            && board.piece_at(rook) == Some(Piece::new(color, Role::Rook))
        {
            castling |= right;
        }
    }
    // En passant: a pawn of the side not to move on its fourth rank, with
    // the two squares behind it empty, could just have pushed two.
    let mut en_passant = None;
    let mover = !side_to_move;
    let fourth = if mover == Color::White { 3 } else { 4 };
    for square in board.pieces(mover, Role::Pawn) {
        if square.rank() as u32 == fourth && rng.below(2) == 0 {
            let (behind, start) = if mover == Color::White {
                (square as u32 - 8, square as u32 - 16)
            } else {
                (square as u32 + 8, square as u32 + 16)
            };
            if !board.occupied().contains(Square::new(behind)) && !board.occupied().contains(Square::new(start)) {
                en_passant = Some(Square::new(behind));
            }
        }
    }
    let setup = Setup {
        board,
        side_to_move,
        castling,
        castling_files: movegen::CastlingFiles::STANDARD,
        en_passant,
        halfmove_clock: 0,
        fullmove_number: 1,
    };
    Position::from_setup(setup).or_else(|_| Position::from_setup(Setup { en_passant: None, ..setup })).ok()
}

/// What kind of mate a line ends in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Feature {
    AlreadyMate,
    DoubleCheck,
    Promotion,
    EnPassant,
    Castling,
    Discovered,
    Plain,
}

/// The mating lines of at most two plies by `winner` (a few per
/// position), each with the features of its moves.
fn mating_lines(pos: &Position, winner: Color) -> Vec<(Vec<Move>, Vec<Feature>)> {
    let is_mate = |p: &Position| p.is_checkmate() && p.side_to_move() == !winner;
    if is_mate(pos) {
        let mut features = vec![Feature::AlreadyMate];
        if pos.checkers().count() >= 2 {
            features.push(Feature::DoubleCheck);
        }
        return vec![(vec![], features)];
    }
    let features = |before: &Position, m: Move, after: &Position| {
        let mut found = Vec::new();
        if m.promotion().is_some() {
            found.push(Feature::Promotion);
        }
        if m.is_en_passant() {
            found.push(Feature::EnPassant);
        }
        if m.is_castle() {
            found.push(Feature::Castling);
        }
        let checkers = after.checkers();
        if checkers.count() >= 2 {
            found.push(Feature::DoubleCheck);
        }
        if checkers.any() && !checkers.contains(m.to()) && !m.is_castle() {
            found.push(Feature::Discovered);
        }
        let _ = before;
        found
    };
    let mut lines = Vec::new();
    for &first in &pos.legal_moves() {
        let one = pos.play(first);
        if is_mate(&one) {
            let mut f = features(pos, first, &one);
            f.push(Feature::Plain);
            lines.push((vec![first], f));
            continue;
        }
        for &second in &one.legal_moves() {
            let two = one.play(second);
            if is_mate(&two) {
                let mut f = features(pos, first, &one);
                f.extend(features(&one, second, &two));
                f.push(Feature::Plain);
                lines.push((vec![first, second], f));
            }
        }
    }
    lines
}

#[test]
fn no_unwinnable_within_two_plies_of_a_mate() {
    let modes = [Mode::Full, Mode::Quick, Mode::Shortest];
    let mut analyzers: Vec<Analyzer> = modes
        .iter()
        .map(|&mode| {
            let mut config = Config { mode, ..Config::default() };
            config.limits.nodes = 200_000;
            config.limits.memory_mb = 4;
            Analyzer::new(config)
        })
        .collect();
    let mut counts = std::collections::HashMap::<Feature, u32>::new();
    let mut positions = 0;
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    for winner in Color::ALL {
        for ours in combinations() {
            for theirs in combinations() {
                for _ in 0..1200 {
                    let Some(pos) = random_position(&mut rng, winner, &ours, &theirs) else { continue };
                    let lines = mating_lines(&pos, winner);
                    let Some((line, _)) = lines.first() else { continue };
                    replay(&pos, winner, line).expect("the brute force's line is a mate");
                    positions += 1;
                    for (_, features) in &lines {
                        for &f in features {
                            *counts.entry(f).or_default() += 1;
                        }
                    }
                    let fen = pos.to_fen();
                    assert!(
                        !static_check::is_unwinnable(&pos, winner),
                        "UNSOUND static check: {fen} for {winner}, mate by {line:?}"
                    );
                    for (analyzer, mode) in analyzers.iter_mut().zip(modes) {
                        match analyzer.analyze(&pos, winner).verdict {
                            Verdict::Unwinnable(proof) => {
                                panic!("UNSOUND {mode:?}: {fen} for {winner} ({proof}), mate by {line:?}")
                            }
                            Verdict::Winnable { helpmate } => {
                                replay(&pos, winner, &helpmate).unwrap_or_else(|e| panic!("{mode:?} {fen}: {e}"));
                            }
                            Verdict::Undetermined(_) => {}
                        }
                    }
                }
            }
        }
    }
    eprintln!("{positions} positions within two plies of a mate; lines by feature: {counts:?}");
    assert!(positions > 2_000, "{positions}");
    for feature in [
        Feature::AlreadyMate,
        Feature::DoubleCheck,
        Feature::Promotion,
        Feature::EnPassant,
        Feature::Castling,
        Feature::Discovered,
    ] {
        let n = counts.get(&feature).copied().unwrap_or(0);
        assert!(n >= 5, "too few mating lines with {feature:?}: {n}");
    }
}
