//! Shared test helpers: positions from the project's test data, made
//! eligible for the mobility analysis (en passant removed; castling rights
//! removed by [`eligible_positions`], kept or added by
//! [`castling_positions`]), and a deterministic random generator.

#![allow(dead_code)]

use mobility::Mobility;
use movegen::{Castling, CastlingRights, Color, Move, MoveKind, Piece, Position, Role, Setup, Square};
#[allow(unused_imports)]
pub use testkit::XorShift64Star as Rng;

/// Every FEN of the test data (paper, dev set, move-order, perft, 2,000 of
/// the performance corpus), with castling rights and en passant squares
/// removed so that Lemma 8 applies.
pub fn eligible_positions() -> Vec<Position> {
    all_fens()
        .iter()
        .filter_map(|fen| {
            let mut setup = Setup::from_fen(fen).ok()?;
            setup.castling = CastlingRights::empty();
            setup.en_passant = None;
            Position::from_setup(setup).ok()
        })
        .collect()
}

/// Positions with castling rights: every test-data position that has some
/// (en passant removed), and every test-data position with the kings moved
/// to `e1`/`e8` and rooks put on the corners (replacing whatever stood
/// there), with the rights those rooks back. Positions that are not valid
/// after the change are skipped.
pub fn castling_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for fen in all_fens() {
        let Ok(mut setup) = Setup::from_fen(&fen) else { continue };
        setup.en_passant = None;
        if !setup.castling.is_empty() {
            if let Ok(pos) = Position::from_setup(setup) {
                positions.push(pos);
            }
        }
        let mut board = setup.board;
        for color in Color::ALL {
            let king = Piece::new(color, Role::King);
            for square in board.pieces(color, Role::King) {
                board.remove_piece_at(square);
            }
            let home = Square::E1.relative_to(color);
            board.set_piece_at(home, king);
            for corner in [Square::A1.relative_to(color), Square::H1.relative_to(color)] {
                board.set_piece_at(corner, Piece::new(color, Role::Rook));
            }
        }
        setup.board = board;
        setup.castling = CastlingRights::all();
        if let Ok(pos) = Position::from_setup(setup) {
            positions.push(pos);
        }
    }
    positions
}

/// The dev and hard sets' positions, en passant squares removed (castling
/// rights kept).
pub fn labelled_positions() -> Vec<Position> {
    include_str!("../../../../testdata/dev-positions.txt")
        .lines()
        .chain(include_str!("../../../../testdata/hard-positions.txt").lines())
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (_, fen) = l.split_once(' ')?;
            let mut setup = Setup::from_fen(fen).ok()?;
            setup.en_passant = None;
            Position::from_setup(setup).ok()
        })
        .collect()
}

/// A move chooser for [`play_checked`] that steers games towards a mate: a
/// mating move when there is one, else a check half of the time, else any.
pub fn towards_mate(pos: &Position, moves: &[Move], rng: &mut Rng) -> Move {
    if let Some(&m) = moves.iter().find(|&&m| pos.play(m).is_checkmate()) {
        return m;
    }
    let checks: Vec<Move> = moves.iter().copied().filter(|&m| pos.play(m).is_check()).collect();
    if !checks.is_empty() && rng.below(2) == 0 {
        return checks[rng.below(checks.len())];
    }
    moves[rng.below(moves.len())]
}

/// Every FEN of the test data (see [`eligible_positions`]).
fn all_fens() -> Vec<String> {
    let mut fens: Vec<String> = Vec::new();
    let data = [
        include_str!("../../../../testdata/paper-positions.tsv"),
        include_str!("../../../../testdata/movegen-order.tsv"),
        include_str!("../../../../testdata/perft-1000.tsv"),
    ];
    for text in data {
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let fen = line.split('\t').find(|f| f.contains('/')).unwrap();
            fens.push(fen.to_string());
        }
    }
    for line in include_str!("../../../../testdata/dev-positions.txt").lines().filter(|l| !l.starts_with('#')) {
        if let Some((_, fen)) = line.split_once(' ') {
            fens.push(fen.to_string());
        }
    }
    for line in include_str!("../../../../testdata/lichess-30k-positions.txt").lines().take(2000) {
        let fen: Vec<&str> = line.split_whitespace().take(6).collect();
        fens.push(fen.join(" "));
    }
    fens
}

/// Plays a game of up to `plies` moves from `start` within the regions of
/// `mobility`, following each piece by identity, moves chosen towards a
/// mate among the legal moves that stay within the regions and that `keep`
/// accepts (it is given the position, the move, and the squares in `start`
/// of the piece that moves and of the piece the move captures, if any). Every legal move `keep` accepts that would take a
/// piece out of its region is handed to `exit` (with the position and the
/// piece's square in `start`) instead of being played. Stops at a castling
/// (the rook is not followed) or when no move is left.
pub fn play_into_exits(
    start: &Position,
    mobility: &Mobility,
    rng: &mut Rng,
    plies: usize,
    keep: impl Fn(&Position, Move, Square, Option<Square>) -> bool,
    mut exit: impl FnMut(&Position, Move, Square),
) {
    // identity[s]: the square in `start` of the piece now on s.
    let mut identity: [Option<Square>; 64] = [None; 64];
    for square in start.board().occupied() {
        identity[square as usize] = Some(square);
    }
    let victim = |identity: &[Option<Square>; 64], m: Move| {
        if m.kind() == MoveKind::EnPassant {
            identity[(m.to() as usize & 7) | (m.from() as usize & 56)]
        } else if m.is_castle() {
            None
        } else {
            identity[m.to() as usize]
        }
    };
    let mut pos = *start;
    for _ in 0..plies {
        let mut inside = Vec::new();
        for &m in pos.legal_moves().iter() {
            let origin = identity[m.from() as usize].expect("tracked");
            if !keep(&pos, m, origin, victim(&identity, m)) {
                continue;
            }
            if m.is_castle() || mobility.region(origin).contains(m.to()) {
                inside.push(m);
            } else {
                exit(&pos, m, origin);
            }
        }
        if inside.is_empty() {
            break;
        }
        let m = towards_mate(&pos, &inside, rng);
        if m.is_castle() {
            break;
        }
        if m.kind() == MoveKind::EnPassant {
            identity[(m.to() as usize & 7) | (m.from() as usize & 56)] = None;
        }
        identity[m.to() as usize] = identity[m.from() as usize];
        identity[m.from() as usize] = None;
        pos = pos.play(m);
    }
}

/// `pos` with the other side to move, if that is a legal position.
pub fn other_side_to_move(pos: &Position) -> Option<Position> {
    let mut setup = pos.to_setup();
    setup.side_to_move = !setup.side_to_move;
    setup.en_passant = None;
    Position::from_setup(setup).ok()
}

/// The legal positions left by removing one piece (not a king) from `pos`.
pub fn without_one_piece(pos: &Position) -> Vec<Position> {
    let board = pos.board();
    (board.occupied() - board.kings())
        .iter()
        .filter_map(|square| {
            let mut setup = pos.to_setup();
            setup.board.remove_piece_at(square);
            setup.en_passant = None;
            Position::from_setup(setup).ok()
        })
        .collect()
}

/// A game played by [`play_checked`].
pub struct Played {
    /// Castlings played.
    pub castlings: u32,
    /// The first position (or capture) outside the regions, if any.
    pub violation: Option<String>,
    /// The last position of the game.
    pub last: Position,
}

/// Plays a game of up to `plies` moves from `start`, each chosen by
/// `choose`, following every piece by identity (its square in `start`),
/// and records the first violation of the over-approximation: a square
/// outside its piece's region, a piece moved or captured with `C = 0`, a
/// non-king piece on a square with `R = 0`. The game goes on after a
/// violation (a caller may only care about some games).
pub fn play_checked(
    start: &Position,
    mobility: &Mobility,
    rng: &mut Rng,
    plies: usize,
    mut choose: impl FnMut(&Position, &[Move], &mut Rng) -> Move,
) -> Played {
    let mut castlings = 0;
    let mut violation: Option<String> = None;
    let mut note = |message: String| {
        violation.get_or_insert(message);
    };
    // identity[s] = initial square of the piece now on s.
    let mut identity: [Option<Square>; 64] = [None; 64];
    for square in start.board().occupied() {
        identity[square as usize] = Some(square);
    }
    let mut pos = *start;
    for ply in 0..=plies {
        if pos.is_stalemate() {
            break;
        }
        for square in pos.board().occupied() {
            let Some(origin) = identity[square as usize] else {
                note(format!("lost track of {square}"));
                continue;
            };
            if !mobility.region(origin).contains(square) {
                note(format!("piece from {origin} reached {square} at ply {ply}: {}", pos.to_fen()));
            }
            if square != origin && !mobility.can_be_cleared(origin) {
                note(format!("piece from {origin} moved but C = 0"));
            }
            let piece = pos.piece_at(square).unwrap();
            if piece.role != Role::King && !mobility.reachable(piece.color).contains(square) {
                note(format!("R[{square}][{}] = 0 but a piece stands there", piece.color));
            }
        }
        // Pieces no longer on the board were captured: C must hold.
        for origin in start.board().occupied() {
            if !identity.contains(&Some(origin)) && !mobility.can_be_cleared(origin) {
                note(format!("piece from {origin} was captured but C = 0"));
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() || ply == plies {
            break;
        }
        let m = choose(&pos, &moves, rng);
        let (from, to) = (m.from(), m.to());
        if m.kind() == MoveKind::EnPassant {
            identity[(to as usize & 7) | (from as usize & 56)] = None;
        }
        if m.is_castle() {
            // The move's squares are the king's; the rook goes from its
            // file (the corner in standard chess) to the f- or d-file. In
            // Chess960 the two may swap squares, or one of them stay.
            castlings += 1;
            let castling = Castling::of_destination(pos.side_to_move(), to);
            let rook_from = castling.rook_from(pos.castling_files());
            let (king, rook) = (identity[from as usize], identity[rook_from as usize]);
            identity[from as usize] = None;
            identity[rook_from as usize] = None;
            identity[to as usize] = king;
            identity[castling.rook_to() as usize] = rook;
            pos = pos.play(m);
            let expected = Piece::new(castling.color, Role::Rook);
            if pos.piece_at(castling.rook_to()) != Some(expected) {
                note(format!("castling {m:?} did not put the rook where the test expects"));
            }
            continue;
        }
        identity[to as usize] = identity[from as usize];
        identity[from as usize] = None;
        pos = pos.play(m);
    }
    Played { castlings, violation, last: pos }
}

/// `pos` with one or two random edits (a piece other than a king removed,
/// a random piece added on an empty square, or a piece other than a king
/// moved to an empty square), if the result is legal and not over.
pub fn random_edit(pos: &Position, rng: &mut Rng) -> Option<Position> {
    let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    let mut setup = pos.to_setup();
    setup.en_passant = None;
    for _ in 0..1 + rng.below(2) {
        let board = &mut setup.board;
        let pieces: Vec<Square> = (board.occupied() - board.kings()).iter().collect();
        let empty = Square::new(rng.below(64) as u32);
        if board.piece_at(empty).is_some() {
            return None;
        }
        match rng.below(3) {
            0 if !pieces.is_empty() => {
                board.remove_piece_at(pieces[rng.below(pieces.len())]);
            }
            1 => {
                let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
                board.set_piece_at(empty, Piece::new(color, roles[rng.below(roles.len())]));
            }
            _ if !pieces.is_empty() => {
                let from = pieces[rng.below(pieces.len())];
                let piece = board.piece_at(from)?;
                board.remove_piece_at(from);
                board.set_piece_at(empty, piece);
            }
            _ => return None,
        }
    }
    let edited = Position::from_setup(setup).ok()?;
    edited.has_legal_moves().then_some(edited)
}

/// Positions with a rook standing ahead of a pawn of its colour on the
/// pawn's file: every dev and hard position with such a rook added on each
/// empty square ahead of each pawn (castling rights and en passant
/// removed; legal results only).
pub fn rooks_ahead_of_their_pawns() -> Vec<Position> {
    let mut positions = Vec::new();
    for pos in labelled_positions() {
        let board = pos.board();
        for pawn in board.pawns() {
            let color = board.color_at(pawn).unwrap_or(Color::White);
            for square in ahead_on_file(pawn, color) - board.occupied() {
                let mut setup = pos.to_setup();
                setup.castling = CastlingRights::empty();
                setup.en_passant = None;
                setup.board.set_piece_at(square, Piece::new(color, Role::Rook));
                if let Ok(edited) = Position::from_setup(setup) {
                    positions.push(edited);
                }
            }
        }
    }
    positions
}

/// The squares of `square`'s file ahead of it as a pawn of `color` moves.
fn ahead_on_file(square: Square, color: Color) -> movegen::Bitboard {
    let mut ahead = movegen::Bitboard::EMPTY;
    let mut next = movegen::Bitboard::from(square).forward(color);
    while next.any() {
        ahead |= next;
        next = next.forward(color);
    }
    ahead
}

/// The pawns of `color` behind `piece` on its file (as they move).
fn pawns_behind(board: &movegen::Board, piece: Square, color: Color) -> movegen::Bitboard {
    board.pieces(color, Role::Pawn) & ahead_on_file(piece, !color)
}

/// Whether the own-pawn-behind rule keeps a rook or queen of `pos` out of
/// squares (`mobility` computed on `pos`): its region holds the square in
/// front of a pawn of its colour that started behind it on its file, that
/// pawn can be cleared (so the paper's rules alone would let the piece
/// onto the pawn's square), and the pawn's square is not in the region.
pub fn own_pawn_guard_holds(pos: &Position, mobility: &Mobility) -> bool {
    let board = pos.board();
    board.rooks_and_queens().iter().any(|piece| {
        let color = board.color_at(piece).unwrap_or(Color::White);
        let region = mobility.region(piece);
        let pawns = pawns_behind(board, piece, color);
        pawns.iter().any(|pawn| {
            let front = movegen::Bitboard::from(pawn).forward(color);
            region.intersects(front) && mobility.can_be_cleared(pawn) && !region.contains(pawn)
        })
    })
}

/// Whether a rook or queen of `pos` whose region stays on its file (as
/// `mobility` computed it on `pos`) started ahead of a pawn of its colour
/// on that file: where the own-pawn-behind rule may act.
pub fn rook_confined_ahead_of_its_pawn(pos: &Position, mobility: &Mobility) -> bool {
    let board = pos.board();
    board.rooks_and_queens().iter().any(|piece| {
        let color = board.color_at(piece).unwrap_or(Color::White);
        let pawns = pawns_behind(board, piece, color);
        pawns.any() && (mobility.region(piece) - movegen::Bitboard::file(piece.file())).is_empty()
    })
}

/// Positions where the own-pawn-behind rule may act
/// ([`rook_confined_ahead_of_its_pawn`], regions of `rules`): those of
/// [`rooks_ahead_of_their_pawns`], and the positions after random moves
/// and random edits from them (distinct, in the order found; about
/// `wanted` of them).
pub fn rook_confined_positions(rules: mobility::Rules, wanted: usize, rng: &mut Rng) -> Vec<Position> {
    let confined = |pos: &Position| {
        Mobility::compute_with(pos, rules).is_ok_and(|mobility| rook_confined_ahead_of_its_pawn(pos, &mobility))
    };
    let seeds: Vec<Position> = rooks_ahead_of_their_pawns().into_iter().filter(|pos| confined(pos)).collect();
    let mut found: Vec<Position> = seeds.clone();
    let mut seen: std::collections::HashSet<String> = found.iter().map(|pos| pos.to_fen()).collect();
    for _ in 0..wanted * 20 {
        if found.len() >= wanted || seeds.is_empty() {
            break;
        }
        let mut pos = found[rng.below(found.len())];
        for _ in 0..1 + rng.below(12) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = if rng.below(4) == 0 {
                match random_edit(&pos, rng) {
                    Some(edited) => edited,
                    None => break,
                }
            } else {
                pos.play(moves[rng.below(moves.len())])
            };
            let mut setup = pos.to_setup();
            setup.en_passant = None;
            let Ok(clean) = Position::from_setup(setup) else { break };
            pos = clean;
            if confined(&pos) && seen.insert(pos.to_fen()) {
                found.push(pos);
            }
        }
    }
    found
}
