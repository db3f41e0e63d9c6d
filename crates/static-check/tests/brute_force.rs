//! Attacks the soundness of the static analysis with brute force: whenever
//! it says "unwinnable", an exhaustive search to a fixed depth must not find
//! a checkmate by that colour.
//!
//! Positions: random sparse positions (kings, pawns, minor and major
//! pieces), and the dev set's positions with one piece moved, removed or
//! added at random: near misses of the blocked structures where the rules
//! of the static analysis do their work. Both kinds also come with castling
//! rights: kings on `e1`/`e8` and rooks on the corners with their rights,
//! so that mates by or after castling are in the searched trees; and with
//! Chess960 castling rights (kings and rooks on any files of the first
//! ranks, often side by side, so that the king passes the rook's square, the
//! rook the king's, or one of them stays).

use std::collections::HashMap;
use testkit::{XorShift64 as Rng, mate_within};

use movegen::{Bitboard, CastlingRights, Color, Piece, Position, Rank, Role, Setup, Square, attacks};
use quickcheck::{QuickCheck, TestResult};

/// Checks one position: any "unwinnable" of Figure 8 must survive the
/// search. (The material rules are the paper's lemmas and a lone king: they
/// are not what this test attacks.)
fn check(pos: &Position, depth: u32) -> Result<u32, String> {
    let mut proved = 0;
    for winner in Color::ALL {
        if static_check::insufficient_material(pos, winner).is_none() && static_check::is_unwinnable(pos, winner) {
            proved += 1;
            let mut budget = 300_000;
            if let Some(true) = mate_within(pos, winner, depth, &mut HashMap::new(), &mut budget) {
                return Err(format!(
                    "static analysis says unwinnable for {winner}, but a mate exists: {}\n{}",
                    pos.to_fen(),
                    static_check::analyze(pos, winner)
                ));
            }
        }
    }
    Ok(proved)
}

fn random_piece(rng: &mut Rng) -> Piece {
    let roles = [Role::Pawn, Role::Pawn, Role::Pawn, Role::Knight, Role::Bishop, Role::Bishop, Role::Rook, Role::Queen];
    Piece::new(Color::from_white(rng.below(2) == 0), roles[rng.below(roles.len())])
}

fn valid(mut setup: Setup) -> Option<Position> {
    setup.castling = CastlingRights::empty();
    setup.en_passant = None;
    Position::from_setup(setup).ok()
}

/// `setup` with the kings moved to `e1`/`e8`, a random non-empty set of
/// rooks put on the corners and the rights those rooks back. With
/// `gentle`, only one colour is changed, a king is only moved to `e1`/`e8` if its region (in the
/// position without rights) contains it, and rooks only go to empty
/// corners, so that blocked structures stay blocked; otherwise rooks
/// replace what stood on the corners. `None` if that is not a valid
/// position.
fn with_castling(pos: &Position, rng: &mut Rng, gentle: bool) -> Option<Position> {
    let mut setup = pos.to_setup();
    let regions = if gentle { Some(mobility::Mobility::compute(pos).ok()?) } else { None };
    let mut rights = CastlingRights::empty();
    // Gently: one colour only (the other keeps its structure untouched).
    let colors = if gentle { vec![Color::from_white(rng.below(2) == 0)] } else { Color::ALL.to_vec() };
    for color in colors {
        let home = Square::E1.relative_to(color);
        let king = pos.king_of(color);
        if let Some(mobility) = &regions {
            if !mobility.region(king).contains(home) || (king != home && pos.board().occupied().contains(home)) {
                continue;
            }
        }
        setup.board.remove_piece_at(king);
        setup.board.set_piece_at(home, Piece::new(color, Role::King));
        for (corner, king_side) in [(Square::H1, true), (Square::A1, false)] {
            let corner = corner.relative_to(color);
            if gentle && setup.board.occupied().contains(corner) {
                continue;
            }
            if rng.below(3) != 0 {
                setup.board.set_piece_at(corner, Piece::new(color, Role::Rook));
                rights |= movegen::Castling { color, king_side }.right();
            }
        }
    }
    if rights.is_empty() {
        return None;
    }
    setup.castling = rights;
    setup.en_passant = None;
    Position::from_setup(setup).ok()
}

/// `pos` with Chess960 castling: one colour's king (gently: only if its
/// region holds the square, which must be empty) or both kings moved to a
/// random file of their first ranks, rooks on random files on either side
/// (next to the king a third of the time) with their rights, both colours
/// sharing the files. Gently, rooks only go to empty squares. `None` if
/// that is not a valid position.
fn with_chess960_castling(pos: &Position, rng: &mut Rng, gentle: bool) -> Option<Position> {
    let mut setup = pos.to_setup();
    let regions = if gentle { Some(mobility::Mobility::compute(pos).ok()?) } else { None };
    let king_file = 1 + rng.below(6);
    let (queen_file, rook_file) = match rng.below(3) {
        0 => (king_file - 1, king_file + 1),
        _ => (rng.below(king_file), king_file + 1 + rng.below(7 - king_file)),
    };
    let mut rights = CastlingRights::empty();
    let colors = if gentle { vec![Color::from_white(rng.below(2) == 0)] } else { Color::ALL.to_vec() };
    for color in colors {
        let rank = Rank::First.relative_to(color);
        let at = |file: usize| Square::from_coords(movegen::File::new(file as u32), rank);
        let king = pos.king_of(color);
        let home = at(king_file);
        if let Some(mobility) = &regions {
            if !mobility.region(king).contains(home) || (king != home && pos.board().occupied().contains(home)) {
                continue;
            }
        }
        setup.board.remove_piece_at(king);
        setup.board.set_piece_at(home, Piece::new(color, Role::King));
        for (file, king_side) in [(rook_file, true), (queen_file, false)] {
            if gentle && setup.board.occupied().contains(at(file)) {
                continue;
            }
            if rng.below(3) != 0 {
                setup.board.set_piece_at(at(file), Piece::new(color, Role::Rook));
                rights |= movegen::Castling { color, king_side }.right();
            }
        }
    }
    if rights.is_empty() {
        return None;
    }
    setup.castling = rights;
    setup.castling_files =
        movegen::CastlingFiles::new(movegen::File::new(queen_file as u32), movegen::File::new(rook_file as u32))?;
    setup.en_passant = None;
    Position::from_setup(setup).ok()
}

/// Whether a castling is legal in `pos` that stepping the king and sliding
/// the rook would not describe (the king passes the rook's square or the
/// rook the king's, or one of them stays).
fn chess960_castling_legal(pos: &Position) -> bool {
    pos.legal_moves().iter().filter(|m| m.is_castle()).any(|m| {
        let Some(path) = pos.castling_path(movegen::Castling::of_destination(pos.side_to_move(), m.to())) else {
            return false;
        };
        let king_span = Bitboard::between(path.king, path.king_to) | path.king_to;
        let rook_span = Bitboard::between(path.rook, path.rook_to) | path.rook_to;
        !path.king_moves() || !path.rook_moves() || king_span.contains(path.rook) || rook_span.contains(path.king)
    })
}

fn sparse_position(seed: u64) -> Option<Position> {
    let mut rng = Rng(seed | 1);
    let mut setup = Setup::start();
    setup.board = movegen::Board::empty();
    setup.board.set_piece_at(rng.square(), Piece::new(Color::White, Role::King));
    let black_king = rng.square();
    if setup.board.occupied().contains(black_king) {
        return None;
    }
    setup.board.set_piece_at(black_king, Piece::new(Color::Black, Role::King));
    for _ in 0..1 + rng.below(5) {
        let square = rng.square();
        if !setup.board.occupied().contains(square) {
            let piece = random_piece(&mut rng);
            if piece.role != Role::Pawn || !matches!(square.rank(), Rank::First | Rank::Eighth) {
                setup.board.set_piece_at(square, piece);
            }
        }
    }
    setup.side_to_move = Color::from_white(rng.below(2) == 0);
    valid(setup)
}

/// The dev and hard sets' positions (labels are not used: the brute force
/// is the judge).
fn dev_positions() -> Vec<Position> {
    include_str!("../../../testdata/dev-positions.txt")
        .lines()
        .chain(include_str!("../../../testdata/hard-positions.txt").lines())
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' ').and_then(|(_, fen)| fen.parse().ok()))
        .collect()
}

/// A dev-set position with one random change: a piece moved to another
/// square, removed, or a random piece added.
fn perturbed(positions: &[Position], seed: u64) -> Option<Position> {
    let mut rng = Rng(seed | 1);
    let pos = positions[rng.below(positions.len())];
    let mut setup = pos.to_setup();
    let occupied: Vec<Square> = (pos.board().occupied() - pos.board().kings()).iter().collect();
    match rng.below(3) {
        0 if !occupied.is_empty() => {
            let from = occupied[rng.below(occupied.len())];
            let piece = setup.board.remove_piece_at(from)?;
            let to = rng.square();
            if setup.board.occupied().contains(to) {
                return None;
            }
            setup.board.set_piece_at(to, piece);
        }
        1 if !occupied.is_empty() => {
            setup.board.remove_piece_at(occupied[rng.below(occupied.len())]);
        }
        _ => {
            let to = rng.square();
            if setup.board.occupied().contains(to) {
                return None;
            }
            setup.board.set_piece_at(to, random_piece(&mut rng));
        }
    }
    if rng.below(2) == 0 {
        setup.side_to_move = !setup.side_to_move;
    }
    if (setup.board.pawns() & (Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth))).any() {
        return None;
    }
    valid(setup)
}

#[test]
fn sparse_random_positions() {
    fn property(seed: u64) -> TestResult {
        match sparse_position(seed) {
            None => TestResult::discard(),
            Some(pos) => match check(&pos, 6) {
                Ok(_) => TestResult::passed(),
                Err(message) => TestResult::error(message),
            },
        }
    }
    QuickCheck::new().tests(3_000).max_tests(20_000).quickcheck(property as fn(u64) -> TestResult);
}

/// Sparse random positions with castling rights: a few pieces besides
/// kings and rooks at home.
#[test]
fn sparse_random_positions_with_castling() {
    fn property(seed: u64) -> TestResult {
        let Some(pos) = sparse_position(seed) else { return TestResult::discard() };
        let Some(pos) = with_castling(&pos, &mut Rng(seed.rotate_left(17) | 1), false) else {
            return TestResult::discard();
        };
        match check(&pos, 5) {
            Ok(_) => TestResult::passed(),
            Err(message) => TestResult::error(message),
        }
    }
    QuickCheck::new().tests(1_500).max_tests(20_000).quickcheck(property as fn(u64) -> TestResult);
}

/// Perturbed dev-set positions with castling rights added (one colour's
/// king moved home if its region allows, rooks on empty corners): near
/// misses of blocked structures with a king and rooks that may castle. The
/// castlings are legal in many of them (counted), so mates that need a
/// castling are in the searched trees. Static proofs are rare here (the
/// rook is a new mobile piece); the next test covers those.
#[test]
fn perturbed_dev_positions_with_castling() {
    let positions = dev_positions();
    let (mut proved, mut tried, mut castling_legal) = (0, 0, 0);
    let seeds: u64 = std::env::var("BRUTE_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(16_000) / 2;
    for seed in 0..seeds {
        let Some(pos) = perturbed(&positions, seed.wrapping_mul(0x2545_f491_4f6c_dd1d)) else { continue };
        let Some(pos) = with_castling(&pos, &mut Rng(seed | 1), true) else { continue };
        tried += 1;
        if pos.legal_moves().iter().any(|m| m.is_castle()) {
            castling_legal += 1;
        }
        proved += check(&pos, 5).unwrap_or_else(|e| panic!("{e}"));
    }
    eprintln!(
        "{proved} Figure 8 proofs among {tried} perturbed positions with castling ({castling_legal} can castle now)"
    );
    assert!(tried > 2_000, "{tried}");
    assert!(castling_legal > 500, "{castling_legal}");
}

/// Sparse random positions with Chess960 castling rights.
#[test]
fn sparse_random_positions_with_chess960_castling() {
    fn property(seed: u64) -> TestResult {
        let Some(pos) = sparse_position(seed) else { return TestResult::discard() };
        let Some(pos) = with_chess960_castling(&pos, &mut Rng(seed.rotate_left(23) | 1), false) else {
            return TestResult::discard();
        };
        match check(&pos, 5) {
            Ok(_) => TestResult::passed(),
            Err(message) => TestResult::error(message),
        }
    }
    QuickCheck::new().tests(1_500).max_tests(30_000).quickcheck(property as fn(u64) -> TestResult);
}

/// Perturbed dev-set positions with Chess960 castling rights added (one
/// colour's king moved to a random file of its first rank if its region
/// allows, rooks on empty squares of that rank, often next to the king):
/// blocked structures with a king and rooks that may castle the Chess960
/// ways, castlings legal in many of them (counted, and those Chess960's own
/// apart), searched to depth 5 against every static proof.
#[test]
fn perturbed_dev_positions_with_chess960_castling() {
    let positions = dev_positions();
    let (mut proved, mut tried, mut castling_legal, mut chess960_legal) = (0, 0, 0, 0);
    let seeds: u64 = std::env::var("BRUTE_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(16_000) / 2;
    for seed in 0..seeds {
        let Some(pos) = perturbed(&positions, seed.wrapping_mul(0x94d0_49bb_1331_11eb)) else { continue };
        let Some(pos) = with_chess960_castling(&pos, &mut Rng(seed | 1), true) else { continue };
        tried += 1;
        if pos.legal_moves().iter().any(|m| m.is_castle()) {
            castling_legal += 1;
        }
        chess960_legal += u32::from(chess960_castling_legal(&pos));
        proved += check(&pos, 5).unwrap_or_else(|e| panic!("{e}"));
    }
    eprintln!(
        "{proved} Figure 8 proofs among {tried} perturbed positions with Chess960 castling ({castling_legal} can \
         castle now, {chess960_legal} the Chess960 ways)"
    );
    assert!(tried > 1_500, "{tried}");
    assert!(castling_legal > 300 && chess960_legal > 100, "{castling_legal} {chess960_legal}");
}

/// Every dev- and hard-set position with a king and a rook of its colour
/// already on their first rank, or with the rook put on an empty square of
/// that rank next to the king, given that Chess960 right: the static proofs
/// found there survive a deeper search. (The same positions without the
/// right are checked too, and the counts printed.)
#[test]
fn dev_positions_with_a_chess960_castling_right() {
    let (mut tried, mut proved, mut proved_without) = (0, 0, 0);
    for pos in dev_positions() {
        for color in Color::ALL {
            let king = pos.king_of(color);
            let rank = Bitboard::rank(Rank::First.relative_to(color));
            if !rank.contains(king) {
                continue;
            }
            let beside = attacks::king(king) & (rank - pos.board().occupied());
            for rook in (pos.board().pieces(color, Role::Rook) & rank) | beside {
                let king_side = rook > king;
                let files = if king_side {
                    movegen::CastlingFiles::new(movegen::File::A, rook.file())
                } else {
                    movegen::CastlingFiles::new(rook.file(), movegen::File::H)
                };
                let mut setup = pos.to_setup();
                setup.board.set_piece_at(rook, Piece::new(color, Role::Rook));
                setup.castling = movegen::Castling { color, king_side }.right();
                setup.castling_files = files.unwrap_or_default();
                setup.en_passant = None;
                let Ok(with_right) = Position::from_setup(setup) else { continue };
                setup.castling = CastlingRights::empty();
                let Ok(without) = Position::from_setup(setup) else { continue };
                tried += 1;
                proved += check(&with_right, 5).unwrap_or_else(|e| panic!("{e}"));
                proved_without += check(&without, 5).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    eprintln!(
        "{proved} Figure 8 proofs among {tried} dev positions with a Chess960 castling right ({proved_without} without)"
    );
    assert!(tried > 1_000, "{tried}");
    assert!(proved >= 8, "{proved}");
}

/// Every dev-set position in which a king can reach its home square, with
/// the king put there and one rook on an empty corner with its right: the
/// static proofs found there survive a deeper search. (The same placements
/// without the right are checked too, and the counts printed.)
#[test]
fn dev_positions_with_a_castling_right() {
    let (mut tried, mut proved, mut proved_without) = (0, 0, 0);
    for pos in dev_positions() {
        let Ok(mobility) = mobility::Mobility::compute(&pos) else { continue };
        for color in Color::ALL {
            let home = Square::E1.relative_to(color);
            let king = pos.king_of(color);
            if !mobility.region(king).contains(home) || (king != home && pos.board().occupied().contains(home)) {
                continue;
            }
            for corner in [Square::H1.relative_to(color), Square::A1.relative_to(color)] {
                if pos.board().occupied().contains(corner) {
                    continue;
                }
                let mut setup = pos.to_setup();
                setup.board.remove_piece_at(king);
                setup.board.set_piece_at(home, Piece::new(color, Role::King));
                setup.board.set_piece_at(corner, Piece::new(color, Role::Rook));
                setup.castling = CastlingRights::lost_by_touching(corner);
                setup.en_passant = None;
                let Ok(with_right) = Position::from_setup(setup) else { continue };
                setup.castling = CastlingRights::empty();
                let Ok(without) = Position::from_setup(setup) else { continue };
                tried += 1;
                proved += check(&with_right, 6).unwrap_or_else(|e| panic!("{e}"));
                proved_without += check(&without, 6).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    eprintln!("{proved} Figure 8 proofs among {tried} dev positions with a castling right ({proved_without} without)");
    assert!(tried > 2_000, "{tried}");
    assert!(proved >= 8, "{proved}");
}

#[test]
fn perturbed_dev_positions() {
    let positions = dev_positions();
    let mut proved = 0;
    let mut tried = 0;
    let seeds: u64 = std::env::var("BRUTE_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(16_000);
    for seed in 0..seeds {
        let Some(pos) = perturbed(&positions, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)) else { continue };
        tried += 1;
        proved += check(&pos, 5).unwrap_or_else(|e| panic!("{e}"));
    }
    eprintln!("{proved} Figure 8 proofs among {tried} perturbed positions");
    assert!(tried > 8_000, "{tried}");
    assert!(proved > 800, "only {proved} static proofs among the perturbed positions: the test checks too little");
}

/// The dev-set positions the static analysis proves, searched deeper.
#[test]
fn proved_dev_positions_have_no_short_mate() {
    let mut proved = 0;
    for pos in dev_positions() {
        proved += check(&pos, 7).unwrap_or_else(|e| panic!("{e}"));
    }
    eprintln!("{proved} Figure 8 proofs on the dev set");
    assert!(proved > 500, "{proved}");
}

/// A pawn that takes a frozen piece on its last rank promotes, whatever its
/// region: here `cxb8=Q` is mate (the rook b8 boxed in beside its king, the
/// pawn c7 blocked, so its region never meets the last rank). The terminal
/// rule once verified the capture as a stalemate by a pawn on b8 and called
/// the position unwinnable for White (found by
/// `dev_positions_with_a_chess960_castling_right`).
#[test]
fn a_pawn_taking_on_its_last_rank_promotes() {
    let pos: Position = "krb5/BpPp4/1P1p4/3p4/3P4/8/8/6K1 w - - 0 1".parse().unwrap();
    assert!(!static_check::is_unwinnable(&pos, Color::White), "{}", static_check::analyze(&pos, Color::White));
    assert_eq!(check(&pos, 3), Ok(0));
}
