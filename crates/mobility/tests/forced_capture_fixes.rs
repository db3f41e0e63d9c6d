//! The two soundness fixes of the forced-capture rule (*checks only a
//! capture answers*, `forced_captures.rs`), each guarded by a position the
//! code before the fix got wrong, with an independent witness: a legal
//! game replayed with cozy-chess (not the project's move generator) that
//! ends in a mate by the winner, never captures the piece assumed never
//! captured, and stands every piece on a square of its region at every
//! ply (Lemma 8 for the narrowed games).
//!
//! * `a_slider_passes_over_a_square_closed_to_it`: the fill used to stop a
//!   slider at a square the rule closes to it, though the slider may slide
//!   *over* it while it is empty (`flood_passing` in `fixpoint.rs`, commit
//!   fac0905). On fac0905's parent the bishop's region is its own square.
//! * `a_piece_whose_only_move_is_a_check_only_a_capture_answers_is_not_immobile`:
//!   the case split of `immobile_pieces` assumed the piece under
//!   test never captured and applied the rule to it, but that assumption
//!   only covers the game up to the piece's first move, and the capture
//!   the rule counts on follows that move (`Assumptions::
//!   spared_until_first_move`, commit a622f72). On a622f72's parent the
//!   knight is called immobile, and the static check proves the position
//!   unwinnable (see `crates/static-check/tests/forced_capture_fixes.rs`).
//!
//! The random hunts run with the fixes (labelled positions and random
//! edits of them) found no counterexample; both positions were built by
//! hand around the rule's conditions.

use cozy_chess::{Board, GameStatus};
use mobility::{Games, Mobility, Rules, immobile_pieces};
use movegen::{Bitboard, Color, Position, Square};

/// A square of the project's move generator from cozy-chess's (both count
/// a1, b1, ..., h8 from 0).
fn square(sq: cozy_chess::Square) -> Square {
    Square::new(sq as u32)
}

/// Replays `moves` (UCI) from `fen` with cozy-chess and checks, at every
/// ply, that each piece of the start stands on a square of its region in
/// `mobility` (pieces are named by their start squares, as the regions
/// are); that the piece starting on `spared`, if any, is never captured;
/// and that the game ends in a checkmate of the side to move. Returns the
/// squares the piece starting on `tracked` stood on.
fn replay_within_regions(
    fen: &str,
    moves: &[&str],
    mobility: &Mobility,
    spared: Option<Square>,
    tracked: Square,
) -> Bitboard {
    let mut board = Board::from_fen(fen, false).expect("a legal FEN");
    // The start square of the piece standing on each square.
    let mut origin: [Option<Square>; 64] = [None; 64];
    for sq in board.occupied() {
        origin[sq as usize] = Some(square(sq));
    }
    let mut visited = Bitboard::from(tracked);
    let check = |origin: &[Option<Square>; 64], ply: usize| {
        for (index, piece) in origin.iter().enumerate() {
            if let Some(start) = piece {
                let at = Square::new(index as u32);
                assert!(mobility.region(*start).contains(at), "ply {ply}: the piece of {start} stands on {at}");
            }
        }
    };
    check(&origin, 0);
    for (ply, text) in moves.iter().enumerate() {
        let mv: cozy_chess::Move = text.parse().expect("a UCI move");
        assert!(board.is_legal(mv), "{text} is not legal in {board}");
        // No castling or en passant in these games: the mover goes from
        // `from` to `to`, taking what stood there.
        assert!(board.piece_on(mv.to).is_none_or(|_| board.color_on(mv.to) != board.color_on(mv.from)));
        let mover = origin[mv.from as usize].take();
        assert!(spared.is_none() || origin[mv.to as usize] != spared, "{text} captures the spared piece");
        origin[mv.to as usize] = mover;
        if mover == Some(tracked) {
            visited = visited.with(square(mv.to));
        }
        board.play(mv);
        check(&origin, ply + 1);
    }
    assert_eq!(board.status(), GameStatus::Won, "the game ends in a checkmate: {board}");
    visited
}

/// Guards `flood_passing` (commit fac0905): a bishop assumed never captured
/// may slide over a square from which its check is answered only by its
/// capture, though it may not stop there. The black king on h8 never moves
/// (its pawn on h7 is held by the bishop, g8 is guarded by the pawn on f7,
/// g7 by the bishop), and the bishop on g7 would be taken by the king, so
/// the rule closes g7 to the bishop. Its other diagonal neighbour, g5,
/// holds its own blocked pawn: before the fix its region was h6 alone. In
/// one game it takes the knight on f8, over g7, goes on to e7 and mates on
/// f6. (White's pawns keep the static check from assuming the bishop never
/// captured: this is a guard of the mobility layer.)
#[test]
fn a_slider_passes_over_a_square_closed_to_it() {
    let fen = "5n1k/p2p1P1p/3Pp1pB/2p1P1P1/p1P5/P7/4K3/8 w - - 0 1";
    let pos: Position = fen.parse().unwrap();
    let games = Games { uncapturable: Bitboard::from(Square::H6), mates_by: Some(Color::White), ..Games::default() };
    let mobility = Mobility::compute_assuming(&pos, Rules::default(), games).unwrap();
    // 1. Bxf8 (over g7) a6 2. Be7 a5 3. Bf6#.
    let visited =
        replay_within_regions(fen, &["h6f8", "a7a6", "f8e7", "a6a5", "e7f6"], &mobility, Some(Square::H6), Square::H6);
    let expected: Bitboard = [Square::H6, Square::F8, Square::E7, Square::F6].into_iter().collect();
    assert_eq!(visited, expected);
    // Why the rule closed g7 to the bishop: its check from there is
    // answered only by the king's capture.
    let check = pos.legal_moves().iter().copied().find(|m| m.from() == Square::H6 && m.to() == Square::G7).unwrap();
    let answers = pos.play(check).legal_moves();
    assert!(!answers.is_empty() && answers.iter().all(|m| m.to() == Square::G7));
}

/// The rule needs games that end in a checkmate. Black's knight on a5 has
/// one move, 1... Nb3+, answered only by its capture (the position of the
/// next test): in the games White wins, with the knight assumed never
/// captured, b3 is closed to it. Covering every game (`mates_by: None`),
/// the one-move game 1... Nb3+ stops with the knight on b3, never
/// captured: b3 is in its region (it was not before the rule was gated on
/// `mates_by`).
#[test]
fn covering_every_game_the_arrival_may_end_it() {
    let pos: Position = "6br/1p3p1k/1Pp2P1p/n1P4P/2p5/p1P5/P1P5/KB6 b - - 0 1".parse().unwrap();
    let check = pos.legal_moves().iter().copied().find(|m| m.from() == Square::A5 && m.to() == Square::B3).unwrap();
    let answers = pos.play(check).legal_moves();
    assert!(!answers.is_empty() && answers.iter().all(|m| m.to() == Square::B3));
    let mating = Games { uncapturable: Bitboard::from(Square::A5), mates_by: Some(Color::White), ..Games::default() };
    let mobility = Mobility::compute_assuming(&pos, Rules::default(), mating).unwrap();
    assert!(!mobility.region(Square::A5).contains(Square::B3));
    let every = Games { mates_by: None, ..mating };
    let mobility = Mobility::compute_assuming(&pos, Rules::default(), every).unwrap();
    assert!(mobility.region(Square::A5).contains(Square::B3));
}

/// Guards `Assumptions::spared_until_first_move` (commit a622f72): Black's
/// knight on a5 is boxed by its own pawns but for b3, where it checks
/// White's king (held in the corner by its own bishop and pawn, b2 guarded
/// by Black's pawn on a3) and is taken by a pawn: with the knight assumed
/// never captured, the rule closes b3, and its first move could not be
/// made. But the assumption holds only until that first move: here the
/// check is Black's only legal move, and the capture that answers it,
/// cxb3, opens the bishop's diagonal to h7 and mates. Before the fix the
/// knight was found immobile in the games White wins.
#[test]
fn a_piece_whose_only_move_is_a_check_only_a_capture_answers_is_not_immobile() {
    let fen = "6br/1p3p1k/1Pp2P1p/n1P4P/2p5/p1P5/P1P5/KB6 b - - 0 1";
    let pos: Position = fen.parse().unwrap();
    let games = Games { mates_by: Some(Color::White), ..Games::default() };
    let immobile = immobile_pieces(&pos, Rules::default(), games).unwrap();
    assert!(!immobile.contains(Square::A5), "immobile: {immobile:?}");
    // The regions with the pieces found immobile pinned cover the game
    // 1... Nb3+ 2. cxb3#, in which the knight moves.
    let mobility = Mobility::compute_assuming(&pos, Rules::default(), Games { immobile, ..games }).unwrap();
    let visited = replay_within_regions(fen, &["a5b3", "c2b3"], &mobility, None, Square::A5);
    assert!(visited.contains(Square::A5) && visited.contains(Square::B3));
    // The knight's check is the only move, and it is answered only by
    // captures (the project's move generator agrees with the replay).
    let moves: Vec<_> = pos.legal_moves().iter().copied().collect();
    assert_eq!(moves.len(), 1);
    let after = pos.play(moves[0]);
    assert!(after.legal_moves().iter().all(|m| m.to() == Square::B3));
}
