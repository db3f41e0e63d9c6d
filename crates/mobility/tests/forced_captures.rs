//! The premise of the forced-capture rule (`forced_captures.rs`), attacked
//! directly: a piece assumed never captured never arrives on a square from
//! which its check can only be answered by taking it.
//!
//! For every non-king, non-pawn piece `P` assumed never captured, in the
//! games ending in a mate by its colour, random games are played within
//! the regions, never capturing `P`, never ending the game by another
//! piece's move (the other narrowings rule out moves that end a game that
//! is not covered: `mating_games.rs`). Every legal move that would take a
//! piece out of its region must then be a move of `P` that does not mate,
//! every legal answer to which captures `P`: the moves the rule rules out.
//! The starts are the dev and hard positions where the rule may fire (the
//! enemy king never moves), and their variants with the other side to move
//! or one piece removed.

mod common;

use common::{Rng, labelled_positions, other_side_to_move, random_edit, without_one_piece};
use mobility::{Games, Mobility, Rules};
use movegen::{Bitboard, Move, Position, Square};

/// The regions for the games in which the piece on `piece` is never
/// captured and that end in a mate by its colour (as the static check
/// assumes for the winner's last piece).
fn sparing(start: &Position, piece: Square) -> Option<Mobility> {
    let colour = start.board().color_at(piece)?;
    let games = Games { uncapturable: Bitboard::from(piece), mates_by: Some(colour), immobile: Bitboard::EMPTY };
    Mobility::compute_assuming(start, Rules::Saturation, games).ok()
}

/// Plays `games` games from `start` sparing the piece on `piece`, and
/// checks every move out of the regions; returns how many came up.
fn exits_sparing(start: &Position, piece: Square, rng: &mut Rng, games: usize, plies: usize) -> usize {
    let Some(mobility) = sparing(start, piece) else { return 0 };
    let mut exits = 0;
    for _ in 0..games {
        // Games that go on: `P` is never taken, and no other piece's move
        // ends the game (`P`'s moves are all judged).
        let goes_on = |pos: &Position, m: Move, mover: Square, victim: Option<Square>| {
            victim != Some(piece) && (mover == piece || pos.play(m).has_legal_moves())
        };
        common::play_into_exits(start, &mobility, rng, plies, goes_on, |pos, m, origin| {
            assert_eq!(origin, piece, "{}: {m:?} leaves a region in {}", start.to_fen(), pos.to_fen());
            let after = pos.play(m);
            exits += 1;
            // A mate by `P`'s colour would be a covered game leaving the
            // regions; a stalemate ends a game that is not covered.
            assert!(!after.is_checkmate(), "{}: {m:?} mates in {}", start.to_fen(), pos.to_fen());
            assert!(
                after.legal_moves().iter().all(|a| a.to() == m.to()),
                "{}: {m:?} in {} has an answer that does not capture",
                start.to_fen(),
                pos.to_fen()
            );
        });
    }
    exits
}

/// The pieces the rule may concern: not kings, not pawns.
fn candidates(pos: &Position) -> Bitboard {
    let board = pos.board();
    board.occupied() - board.kings() - board.pawns()
}

/// The dev and hard positions with a piece the rule may concern: the
/// enemy king never moves in the regions sparing that piece.
fn firing_starts() -> Vec<(Position, Square)> {
    let mut starts = Vec::new();
    for pos in labelled_positions() {
        for piece in candidates(&pos) {
            let Some(mobility) = sparing(&pos, piece) else { continue };
            let enemy = !pos.board().color_at(piece).expect("a piece");
            if pos.board().king_of(enemy).is_some_and(|king| !mobility.can_be_cleared(king)) {
                starts.push((pos, piece));
            }
        }
    }
    starts
}

#[test]
fn moves_out_of_the_regions_of_a_spared_piece_force_its_capture() {
    let mut rng = Rng::new(53);
    let (mut exits, mut starts) = (0, 0);
    for (pos, piece) in firing_starts() {
        starts += 1;
        exits += exits_sparing(&pos, piece, &mut rng, 3, 80);
    }
    eprintln!("{exits} moves out of the regions from {starts} starts");
    assert!(starts >= 100, "{starts}");
}

/// Where the rule fires, the same position with the other side to move and
/// with each piece but the spared one removed in turn: a guard, a blocker
/// or a capturer missing is where a wrong verification would show.
#[test]
fn moves_out_of_the_regions_of_a_spared_piece_force_its_capture_in_variants() {
    let mut rng = Rng::new(71);
    let (mut exits, mut variants) = (0, 0);
    for (pos, piece) in firing_starts() {
        let others = without_one_piece(&pos).into_iter().filter(|variant| variant.board().piece_at(piece).is_some());
        for variant in others.chain(other_side_to_move(&pos)) {
            variants += 1;
            exits += exits_sparing(&variant, piece, &mut rng, 2, 60);
        }
    }
    eprintln!("{exits} moves out of the regions from {variants} variants");
    assert!(exits >= 100, "{exits}");
}

/// Where the rule fires, random edits of the position (pieces removed,
/// added or moved; the spared piece kept): a new piece of the spared
/// piece's colour may take a piece the regions keep still with a check
/// that forces its own capture, which only the spared piece may be assumed
/// never to do (the terminal rule skips such captures for it alone).
#[test]
fn moves_out_of_the_regions_of_a_spared_piece_force_its_capture_in_random_edits() {
    let mut rng = Rng::new(89);
    let (mut exits, mut edits) = (0, 0);
    for (pos, piece) in firing_starts() {
        for _ in 0..40 {
            let Some(edited) = random_edit(&pos, &mut rng) else { continue };
            if edited.board().piece_at(piece) != pos.board().piece_at(piece) {
                continue;
            }
            edits += 1;
            exits += exits_sparing(&edited, piece, &mut rng, 1, 60);
        }
    }
    eprintln!("{exits} moves out of the regions from {edits} edits");
    assert!(exits >= 100, "{exits}");
}

/// Hard line 128 (White to mate with a lone queen against a king boxed in
/// by its own pieces, labelled unwinnable for White): the queen, White's
/// last piece, may never move next to Black's king, and each of its moves
/// there in the position is answered only by its capture.
#[test]
fn the_queen_never_checks_a_boxed_king_from_next_to_it() {
    let pos: Position = "8/5ppp/8/8/ppp5/bkp4Q/qnp5/n1K5 w - -".parse().unwrap();
    let mobility = sparing(&pos, Square::H3).unwrap();
    let next_to_king = movegen::attacks::king(Square::B3);
    assert!(!mobility.region(Square::H3).intersects(next_to_king));
    let plain = Mobility::compute_with(&pos, Rules::Saturation).unwrap();
    assert!(plain.region(Square::H3).intersects(next_to_king));
    let reaching: Vec<Move> =
        pos.legal_moves().iter().copied().filter(|m| m.from() == Square::H3 && next_to_king.contains(m.to())).collect();
    assert!(!reaching.is_empty());
    for m in reaching {
        let answers = pos.play(m).legal_moves();
        assert!(!answers.is_empty() && answers.iter().all(|a| a.to() == m.to()), "{m:?}");
    }
}
