//! Lemma 8 for the regions narrowed to the games that end in a checkmate by
//! one colour ([`Games::mates_by`]): in random games from the dev and hard
//! positions that do end in such a mate, every position is within the
//! regions. The games are steered towards mates (a mating move is played
//! when there is one, checks are preferred), and the test asserts that
//! enough of them end that way for it to mean something.
//!
//! The narrowing lets a piece stand still when each of its moves would mate
//! the winner: a game in which it moves ends without the winner's mate, so
//! it is not among the games covered, and the test only judges the covered
//! ones. A test of the premise itself comes last: in hard line 148 every
//! move of the pawns kept still is checkmate.

mod common;

use common::{Rng, labelled_positions, other_side_to_move, play_checked, random_edit, towards_mate, without_one_piece};
use mobility::{Games, Mobility, Rules};
use movegen::{Bitboard, Board, Color, Piece, Position, Role, Setup, Square};

#[test]
fn games_ending_in_the_winners_mate_stay_in_regions() {
    let mut rng = Rng::new(29);
    let (mut mating_games, mut narrowed) = (0, 0);
    for start in labelled_positions() {
        for winner in Color::ALL {
            let games = Games { uncapturable: Bitboard::EMPTY, mates_by: Some(winner), immobile: Bitboard::EMPTY };
            let Ok(mobility) = Mobility::compute_assuming(&start, Rules::Saturation, games) else { continue };
            let all = Mobility::compute_with(&start, Rules::Saturation).expect("same precondition");
            if mobility.cleared() != all.cleared() {
                narrowed += 1;
            }
            for _ in 0..6 {
                let played = play_checked(&start, &mobility, &mut rng, 160, towards_mate);
                let mate_by_winner = played.last.is_checkmate() && played.last.side_to_move() == !winner;
                if mate_by_winner {
                    mating_games += 1;
                    if let Some(message) = played.violation {
                        panic!("{} for {winner}: {message}", start.to_fen());
                    }
                }
            }
        }
    }
    eprintln!("{mating_games} games ending in the winner's mate; {narrowed} narrowed fixpoints");
    assert!(mating_games > 2_000, "{mating_games}");
    assert!(narrowed >= 3, "{narrowed}");
}

/// Hard line 148: the black pawns on b6 and d6 are kept still for White as
/// the winner (each of their moves mates White), not for all games; and
/// indeed every legal move of theirs in the position is checkmate.
#[test]
fn pawns_whose_every_move_mates_stay_still() {
    let pos: Position = "3b4/6k1/1ppp4/2b3p1/1pKp1pP1/1P1P1P2/8/1BbB1B2 b - -".parse().unwrap();
    let games = Games { uncapturable: Bitboard::EMPTY, mates_by: Some(Color::White), immobile: Bitboard::EMPTY };
    let narrowed = Mobility::compute_assuming(&pos, Rules::Saturation, games).unwrap();
    let all = Mobility::compute_with(&pos, Rules::Saturation).unwrap();
    for square in [Square::B6, Square::D6] {
        assert!(!narrowed.can_be_cleared(square), "{square}");
        assert!(all.can_be_cleared(square), "{square}");
        let moves: Vec<_> = pos.legal_moves().iter().copied().filter(|m| m.from() == square).collect();
        assert!(!moves.is_empty());
        for m in moves {
            assert!(pos.play(m).is_checkmate(), "{square}: {m:?}");
        }
    }
}

/// The premise of the narrowing, attacked directly: in random games from
/// the dev and hard positions (and the same positions with the other side
/// to move), every legal move that would take a piece of the winner's
/// opponent out of its region (the regions for the games ending in the
/// winner's mate) checkmates the winner. Those are the moves the narrowing
/// rules out, the pawn steps of the fixpoint's mating-pawn rule and the
/// first moves of pieces kept still because each of them mates. Where the
/// narrowing changes something, the variants with one piece removed are
/// played too (a guard or a blocker missing is where a wrong verification
/// would show); the test asserts that enough such moves come up.
#[test]
fn moves_out_of_the_regions_mate_the_winner() {
    let mut rng = Rng::new(41);
    let (mut exits, mut games_played) = (0, 0);
    let narrowed = |start: &Position, winner: Color| {
        let games = Games { uncapturable: Bitboard::EMPTY, mates_by: Some(winner), immobile: Bitboard::EMPTY };
        let mobility = Mobility::compute_assuming(start, Rules::Saturation, games).ok()?;
        let all = Mobility::compute_with(start, Rules::Saturation).expect("same precondition");
        (mobility.cleared() != all.cleared()).then_some(mobility)
    };
    let mut starts = Vec::new();
    for pos in labelled_positions().into_iter().flat_map(|pos| [Some(pos), other_side_to_move(&pos)]).flatten() {
        for winner in Color::ALL {
            if narrowed(&pos, winner).is_some() {
                starts.push((pos, winner));
                starts.extend(without_one_piece(&pos).into_iter().map(|variant| (variant, winner)));
            }
        }
    }
    for (start, winner) in starts {
        let Some(mobility) = narrowed(&start, winner) else { continue };
        for _ in 0..4 {
            games_played += 1;
            exits += play_into_exits(&start, &mobility, winner, &mut rng, 120, None).0;
        }
    }
    eprintln!("{exits} moves out of the regions in {games_played} games");
    assert!(exits >= 200, "{exits}");
}

/// [`common::play_into_exits`] for the games ending in `winner`'s mate
/// (and never capturing the piece on `spared` in `start`, if any): each
/// legal move of `winner`'s opponent that would take its piece out of its
/// region must checkmate `winner` (asserted); returns how many such moves
/// came up, and how many of them mated by a discovered check (a checker
/// other than the piece that moved).
fn play_into_exits(
    start: &Position,
    mobility: &Mobility,
    winner: Color,
    rng: &mut Rng,
    plies: usize,
    spared: Option<Square>,
) -> (usize, usize) {
    let (mut exits, mut discovered) = (0, 0);
    common::play_into_exits(
        start,
        mobility,
        rng,
        plies,
        |_, _, _, victim| spared.is_none() || victim != spared,
        |pos, m, origin| {
            if pos.side_to_move() == !winner {
                exits += 1;
                let after = pos.play(m);
                assert!(
                    after.is_checkmate(),
                    "{} for {winner}: {m:?} leaves the region of the piece from {origin} in {} without mating",
                    start.to_fen(),
                    pos.to_fen()
                );
                if (after.checkers() - m.to()).any() {
                    discovered += 1;
                }
            }
        },
    );
    (exits, discovered)
}

/// Discovered mates (`mates_on_departure` in `mating_moves.rs`), attacked
/// directly in the games the static check covers when the winner has one
/// piece besides its king and no pawn: that piece is never captured (its
/// capture leaves a bare king, which cannot mate). From the dev and hard
/// positions with such a winner where a move out of the regions uncovers a
/// check, and from random edits of them (a piece removed, added or moved:
/// a guard, a blocker or a capturer missing or new is where a wrong
/// verification would show), random games within the regions never
/// capture the piece; every legal move of the opponent out of its region
/// must checkmate the winner. Asserts that enough of those moves are
/// discovered checks (the rule keeps a piece still when each of its moves
/// uncovers a mating check).
#[test]
fn moves_out_of_the_regions_mate_the_winner_when_its_last_piece_is_spared() {
    let mut rng = Rng::new(83);
    let lone_piece = |pos: &Position, winner: Color| {
        let board = pos.board();
        let pieces = board.by_color(winner) - board.kings();
        (pieces.count() == 1 && (pieces & board.pawns()).is_empty()).then(|| pieces.iter().next()).flatten()
    };
    // Exits and discovered checks among them, over `games` games from
    // `start` sparing the piece on `piece`.
    let play = |start: &Position, winner: Color, piece: Square, games: usize, rng: &mut Rng| {
        if start.board().color_at(piece) != Some(winner) {
            return (0, 0);
        }
        let assumed = Games { uncapturable: Bitboard::from(piece), mates_by: Some(winner), immobile: Bitboard::EMPTY };
        let Ok(mobility) = Mobility::compute_assuming(start, Rules::Saturation, assumed) else { return (0, 0) };
        let (mut exits, mut discovered) = (0, 0);
        for _ in 0..games {
            let (e, d) = play_into_exits(start, &mobility, winner, rng, 60, Some(piece));
            exits += e;
            discovered += d;
        }
        (exits, discovered)
    };
    let mut firing = Vec::new();
    for pos in labelled_positions().into_iter().flat_map(|pos| [Some(pos), other_side_to_move(&pos)]).flatten() {
        for winner in Color::ALL {
            let Some(piece) = lone_piece(&pos, winner) else { continue };
            if play(&pos, winner, piece, 3, &mut rng).1 > 0 {
                firing.push((pos, winner, piece));
            }
        }
    }
    // The edits may add pieces of the winner: the games still spare the
    // one piece (an assumption about the games, true or not of the edit).
    let (mut exits, mut discovered) = (0, 0);
    for &(pos, winner, piece) in &firing {
        for _ in 0..400 {
            let Some(edited) = random_edit(&pos, &mut rng) else { continue };
            let (e, d) = play(&edited, winner, piece, 2, &mut rng);
            exits += e;
            discovered += d;
        }
    }
    eprintln!(
        "{} starts; {exits} moves out of the regions in their edits, {discovered} discovered checks",
        firing.len()
    );
    assert!(firing.len() >= 4, "{}", firing.len());
    assert!(discovered >= 200, "{discovered}");
}

/// The same premise on generated positions built around the rule: the
/// winner's king on its first rank, enemy pawns on about half the squares
/// around it, a few pieces of either side elsewhere. Every legal move of the opponent out of
/// its region, from the position and from random games within the regions,
/// mates the winner.
#[test]
fn moves_out_of_the_regions_mate_the_winner_in_generated_positions() {
    let mut rng = Rng::new(97);
    let (mut exits, mut positions) = (0, 0);
    let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    while positions < 20_000 {
        let mut board = Board::empty();
        let king = Square::new(rng.below(8) as u32);
        board.set_piece_at(king, Piece::new(Color::White, Role::King));
        // Black pawns on about half the squares of the three ranks above
        // the king, two files either side: a box around it, pawns to step
        // into it, pawns guarding them.
        for rank in 1..4 {
            for file in (king.file() as i32 - 2).max(0)..=(king.file() as i32 + 2).min(7) {
                if rng.below(2) == 0 {
                    board.set_piece_at(Square::new((rank * 8 + file) as u32), Piece::new(Color::Black, Role::Pawn));
                }
            }
        }
        for _ in 0..rng.below(4) {
            let square = Square::new(rng.below(64) as u32);
            let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
            let role = roles[rng.below(roles.len())];
            let rank = square.rank() as u32;
            if board.piece_at(square).is_none() && !(role == Role::Pawn && (rank == 0 || rank == 7)) {
                board.set_piece_at(square, Piece::new(color, role));
            }
        }
        let black_king = Square::new(rng.below(64) as u32);
        if board.piece_at(black_king).is_some() {
            continue;
        }
        board.set_piece_at(black_king, Piece::new(Color::Black, Role::King));
        let side_to_move = if rng.below(2) == 0 { Color::White } else { Color::Black };
        let setup = Setup::of_board(board, side_to_move);
        let Ok(start) = Position::from_setup(setup) else { continue };
        if start.legal_moves().is_empty() {
            continue;
        }
        positions += 1;
        let games = Games { uncapturable: Bitboard::EMPTY, mates_by: Some(Color::White), immobile: Bitboard::EMPTY };
        let Ok(mobility) = Mobility::compute_assuming(&start, Rules::Saturation, games) else { continue };
        exits += play_into_exits(&start, &mobility, Color::White, &mut rng, 40, None).0;
    }
    eprintln!("{exits} moves out of the regions from {positions} generated positions");
    assert!(exits >= 200, "{exits}");
}

/// Hard line 152: the black rook on a2 next to the white king is kept still
/// for White as the winner: its only move, to a1, mates, and the king may
/// never take it (the pawn on b3 defends it). Checked against the position:
/// every legal rook move mates, and no legal move of White takes on a2.
#[test]
fn a_defended_piece_next_to_the_king_stays_still() {
    let pos: Position = "b4B2/8/4k2B/1p6/1Pp1p1p1/ppP1P1P1/rp6/1K6 b - -".parse().unwrap();
    let games = Games { uncapturable: Bitboard::EMPTY, mates_by: Some(Color::White), immobile: Bitboard::EMPTY };
    let narrowed = Mobility::compute_assuming(&pos, Rules::Saturation, games).unwrap();
    assert!(!narrowed.can_be_cleared(Square::A2));
    assert!(Mobility::compute_with(&pos, Rules::Saturation).unwrap().can_be_cleared(Square::A2));
    let rook_moves: Vec<_> = pos.legal_moves().iter().copied().filter(|m| m.from() == Square::A2).collect();
    assert!(!rook_moves.is_empty());
    assert!(rook_moves.iter().all(|&m| pos.play(m).is_checkmate()));
    let white_to_move = other_side_to_move(&pos).unwrap();
    assert!(white_to_move.legal_moves().iter().all(|m| m.to() != Square::A2));
}

/// Hard line 149: the black knight on h1 is kept still for White as the
/// winner, and with it the pawn on d2 next to the white king; the knight's
/// only move, to f2, mates. Its region stays its square even though the
/// pieces it would free are analysed with it still (the frozen pieces'
/// regions are their squares while the assumption is verified).
#[test]
fn a_knight_whose_only_move_mates_stays_still() {
    let pos: Position = "8/2b4B/4k3/8/8/2p1p1p1/2PpP1P1/3K3n b - -".parse().unwrap();
    let games = Games { uncapturable: Bitboard::EMPTY, mates_by: Some(Color::White), immobile: Bitboard::EMPTY };
    let narrowed = Mobility::compute_assuming(&pos, Rules::Saturation, games).unwrap();
    for square in [Square::H1, Square::D2] {
        assert!(!narrowed.can_be_cleared(square), "{square}");
    }
    let knight_moves: Vec<_> = pos.legal_moves().iter().copied().filter(|m| m.from() == Square::H1).collect();
    assert!(!knight_moves.is_empty());
    assert!(knight_moves.iter().all(|&m| pos.play(m).is_checkmate()));
}

/// Hard line 125 (White to mate with a lone queen, labelled unwinnable for
/// White): the black knight on b2 stands between Black's queen on a3 and
/// White's king on c1, so each of its moves uncovers a check the queen
/// cannot meet. Sparing White's queen (its last piece), the knight is kept
/// still, and with it the whole box around Black's king; checked against
/// the position: every legal knight move is checkmate.
#[test]
fn a_knight_whose_every_move_uncovers_mate_stays_still() {
    let pos: Position = "6Q1/8/4n3/8/ppp5/qkp3b1/rnp5/n1K5 b - -".parse().unwrap();
    let games =
        Games { uncapturable: Bitboard::from(Square::G8), mates_by: Some(Color::White), immobile: Bitboard::EMPTY };
    let narrowed = Mobility::compute_assuming(&pos, Rules::Saturation, games).unwrap();
    for square in [Square::B2, Square::A2, Square::A3, Square::B3] {
        assert!(!narrowed.can_be_cleared(square), "{square}");
    }
    let knight_moves: Vec<_> = pos.legal_moves().iter().copied().filter(|m| m.from() == Square::B2).collect();
    assert_eq!(knight_moves.len(), 2);
    assert!(knight_moves.iter().all(|&m| pos.play(m).is_checkmate()));
}
