//! Lemma 8 with Chess960 castling: random games from positions with
//! Chess960 castling rights stay within the regions under every rule set,
//! castlings played whenever legal half of the time. The positions attack
//! the castling rule (`mobility::castling`): the dev and hard sets' blocked
//! structures with kings and rooks put on their first ranks in Chess960
//! arrangements, adjacent ones often (`K f1, R g1` swap; `K g1, R h1`: the
//! rook crosses the king; `K b1, R a1`), so that the king or the rook may
//! have no move but the castling; and positions of random Chess960 games.
//! The test counts the castlings in which the king passes the rook's square
//! or the rook the king's, or one of them stays: those that stepping and
//! sliding would not cover.

mod common;

use common::{Rng, eligible_positions, play_checked};
use mobility::{Mobility, Rules};
use movegen::{
    Bitboard, Castling, CastlingFiles, CastlingRights, Color, File, Move, Piece, Position, Rank, Role, Square,
};

/// `pos` with kings and rooks put on the first ranks in a Chess960
/// arrangement with rights (the files chosen at random, the rook next to
/// the king half of the time), if that is a legal position without a legal
/// en passant capture.
fn with_chess960_castling(pos: &Position, rng: &mut Rng) -> Option<Position> {
    let king_file = 1 + rng.below(6);
    let (queen_file, rook_file) = match rng.below(3) {
        0 => (king_file - 1, king_file + 1),
        _ => (rng.below(king_file), king_file + 1 + rng.below(7 - king_file)),
    };
    let files = CastlingFiles::new(File::new(queen_file as u32), File::new(rook_file as u32))?;
    let mut setup = pos.to_setup();
    setup.en_passant = None;
    let mut rights = CastlingRights::empty();
    for color in Color::ALL {
        if rng.below(3) == 0 {
            continue;
        }
        let rank = Rank::First.relative_to(color);
        let at = |file: usize| Square::from_coords(File::new(file as u32), rank);
        let king = setup.board.king_of(color)?;
        setup.board.remove_piece_at(king);
        setup.board.set_piece_at(at(king_file), Piece::new(color, Role::King));
        for (file, king_side) in [(queen_file, false), (rook_file, true)] {
            if rng.below(3) != 0 {
                setup.board.set_piece_at(at(file), Piece::new(color, Role::Rook));
                rights |= Castling { color, king_side }.right();
            }
        }
    }
    if rights.is_empty() {
        return None;
    }
    setup.castling = rights;
    setup.castling_files = files;
    let pos = Position::from_setup(setup).ok()?;
    (pos.legal_ep_square().is_none() && pos.has_legal_moves()).then_some(pos)
}

/// Whether castling `m` is one that stepping the king and sliding the rook
/// through empty squares does not cover.
fn entangled(pos: &Position, m: Move) -> bool {
    let path = pos.castling_path(Castling::of_destination(pos.side_to_move(), m.to())).expect("a right");
    let king_span = Bitboard::between(path.king, path.king_to) | path.king_to;
    let rook_span = Bitboard::between(path.rook, path.rook_to) | path.rook_to;
    !path.king_moves() || !path.rook_moves() || king_span.contains(path.rook) || rook_span.contains(path.king)
}

#[test]
fn chess960_games_stay_in_regions() {
    let sources = eligible_positions();
    let mut rng = Rng::new(960);
    let mut starts: Vec<Position> = movegen::random_chess960_positions(11, 400);
    while starts.len() < 2_400 {
        if let Some(pos) = with_chess960_castling(&sources[rng.below(sources.len())], &mut rng) {
            starts.push(pos);
        }
    }
    let (mut games, mut castlings, mut entangled_castlings) = (0, 0, 0);
    for start in &starts {
        for rules in [Rules::Paper, Rules::FacingPawns, Rules::TerminalCaptures, Rules::Saturation, Rules::Certified] {
            let Ok(mobility) = Mobility::compute_with(start, rules) else { continue };
            for plies in [4, 40] {
                let played = play_checked(start, &mobility, &mut rng, plies, |pos, moves, rng| {
                    let castles: Vec<Move> = moves.iter().copied().filter(|m| m.is_castle()).collect();
                    if !castles.is_empty() && rng.below(2) == 0 {
                        let m = castles[rng.below(castles.len())];
                        entangled_castlings += u32::from(entangled(pos, m));
                        m
                    } else {
                        moves[rng.below(moves.len())]
                    }
                });
                if let Some(message) = played.violation {
                    panic!("{rules:?} {}: {message}", start.to_fen());
                }
                castlings += played.castlings;
                games += 1;
            }
        }
    }
    eprintln!("{games} games, {castlings} castlings played, {entangled_castlings} of them Chess960's own");
    assert!(castlings > 3_000 && entangled_castlings > 1_000, "{castlings} castlings, {entangled_castlings} entangled");
}

/// Random positions built around a Chess960 castling that is legal and is
/// the only move of its king or of its rook: kings and rooks on the first
/// rank, other pieces and pawns at random, mostly near them. Castling is
/// played first, then random moves.
fn boxed_castlings(count: usize, rng: &mut Rng) -> Vec<Position> {
    let roles = [Role::Pawn, Role::Pawn, Role::Pawn, Role::Knight, Role::Bishop, Role::Bishop, Role::Rook];
    let mut found = Vec::new();
    while found.len() < count {
        let king_file = rng.below(8);
        let rook_file = rng.below(8);
        if king_file == rook_file {
            continue;
        }
        let (queen_side, king_side) = if rook_file < king_file { (rook_file, 7) } else { (0, rook_file) };
        let Some(files) = CastlingFiles::new(File::new(queen_side as u32), File::new(king_side as u32)) else {
            continue;
        };
        let mut setup = movegen::Setup::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").unwrap();
        let color = Color::from_white(rng.below(2) == 0);
        let rank = Rank::First.relative_to(color);
        let at = |file: usize, rank: Rank| Square::from_coords(File::new(file as u32), rank);
        setup.board.set_piece_at(at(king_file, rank), Piece::new(color, Role::King));
        setup.board.set_piece_at(at(rook_file, rank), Piece::new(color, Role::Rook));
        let enemy_king = Square::new(rng.below(64) as u32);
        if setup.board.occupied().contains(enemy_king) {
            continue;
        }
        setup.board.set_piece_at(enemy_king, Piece::new(!color, Role::King));
        for _ in 0..6 + rng.below(10) {
            // Near the castling pieces (ranks 1-3 of the castling side) most of the time.
            let square = if rng.below(4) == 0 {
                Square::new(rng.below(64) as u32)
            } else {
                at(rng.below(8), Rank::new(rng.below(3) as u32).relative_to(color))
            };
            if setup.board.occupied().contains(square) {
                continue;
            }
            let piece = Piece::new(Color::from_white(rng.below(2) == 0), roles[rng.below(roles.len())]);
            if piece.role == Role::Pawn && matches!(square.rank(), Rank::First | Rank::Eighth) {
                continue;
            }
            setup.board.set_piece_at(square, piece);
        }
        setup.side_to_move = color;
        setup.castling = Castling { color, king_side: rook_file > king_file }.right();
        setup.castling_files = files;
        let Ok(pos) = Position::from_setup(setup) else { continue };
        if pos.legal_ep_square().is_some() {
            continue;
        }
        let moves = pos.legal_moves();
        let castles = moves.iter().any(|m| m.is_castle());
        let king = pos.king_of(color);
        let rook = at(rook_file, rank);
        let others = |square: Square| moves.iter().any(|m| !m.is_castle() && m.from() == square);
        if castles && (!others(king) || !others(rook)) {
            found.push(pos);
        }
    }
    found
}

/// Castlings that are their king's or rook's only move, played at once:
/// the position after is within the regions under every rule set.
#[test]
fn castlings_that_are_the_only_move() {
    let mut rng = Rng::new(9601);
    let starts = boxed_castlings(3_000, &mut rng);
    let mut entangled_castlings = 0;
    for start in &starts {
        for rules in [Rules::Paper, Rules::FacingPawns, Rules::TerminalCaptures, Rules::Saturation, Rules::Certified] {
            let Ok(mobility) = Mobility::compute_with(start, rules) else { continue };
            let played = play_checked(start, &mobility, &mut rng, 20, |pos, moves, rng| {
                match moves.iter().copied().find(|m| m.is_castle()) {
                    Some(m) if pos == start => {
                        entangled_castlings += u32::from(entangled(pos, m));
                        m
                    }
                    _ => moves[rng.below(moves.len())],
                }
            });
            if let Some(message) = played.violation {
                panic!("{rules:?} {}: {message}", start.to_fen());
            }
        }
    }
    eprintln!("{} positions, {entangled_castlings} Chess960 castlings", starts.len());
    assert!(entangled_castlings > 2_000, "{entangled_castlings}");
}

/// The castling rule where castling is all the rook can do, for ever:
/// White's side is locked (pawns a3 c3 e3 g3 against a4 c4 e4 g4, and
/// d2 f2 h2 against d3 f3 h3; the bishop e1 behind d2 and f2; e2 holds e1),
/// the king g1 has no square (f1 and g2 are attacked by pawns that never
/// move) and the rook h1 none. O-O leaves the king on g1 and takes the rook
/// across it to f1 (where e2 may take it and promote: everything opens).
/// Without the rule the rook's region would be its square, and the game
/// that castles would leave it at once. Without the right, nothing moves.
#[test]
fn castling_is_the_only_way_out() {
    let fen = "k7/8/8/8/p1p1p1p1/P1PpPpPp/3PpP1P/4B1KR w K - 0 1";
    let flipped = "4b1kr/3pPp1p/p1pPpPpP/P1P1P1P1/8/8/8/K7 b k - 0 1";
    for (fen, rook, rook_to) in [(fen, Square::H1, Square::F1), (flipped, Square::H8, Square::F8)] {
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.is_chess960());
        assert!(pos.legal_moves().iter().any(|m| m.is_castle()));
        for rules in [Rules::Paper, Rules::Saturation, Rules::Certified] {
            let mobility = Mobility::compute_with(&pos, rules).unwrap();
            assert!(mobility.region(rook).contains(rook_to), "{rules:?} {fen}");
            assert!(mobility.can_be_cleared(rook), "{rules:?}");
            let mut rng = Rng::new(1);
            let played = play_checked(&pos, &mobility, &mut rng, 30, |_, moves, rng| {
                moves.iter().copied().find(|m| m.is_castle()).unwrap_or_else(|| moves[rng.below(moves.len())])
            });
            assert_eq!(played.castlings, 1, "{rules:?} {fen} {}", played.last.to_fen());
            assert_eq!(played.violation, None, "{rules:?} {fen}");
        }
        let without = Position::from_fen(&fen.replace(" K ", " - ").replace(" k ", " - ")).unwrap();
        let mobility = Mobility::compute(&without).unwrap();
        assert_eq!(mobility.region(rook), Bitboard::from(rook), "{fen}");
        assert!(!mobility.can_be_cleared(rook));
    }
}
