//! Checks that can only be answered by a capture: in the games where a
//! piece `P` is never captured ([`crate::Games::uncapturable`]), `P` never
//! arrives on a square from which it checks the enemy king when every
//! legal answer would capture it.
//!
//! # The rule ([`capture_forcing_checks`])
//!
//! Let `P` (not a king, not a pawn) be of colour `c`, and `k` the square of
//! the enemy king. A square `d` is closed to `P` when, in the regions:
//!
//! * the enemy king never moves (it is never cleared);
//! * `P` on `d` attacks `k` *directly* (a knight's jump, or a slider next
//!   to `k`): the check cannot be blocked;
//! * every neighbour of `k` other than `d` holds an enemy piece that is
//!   never cleared (it never moved and was never captured), or is attacked
//!   directly by a piece of `c` other than `P` that is never cleared: the
//!   king has no square to go to (a piece of `c` standing on such a square
//!   is defended, so the king cannot take it either);
//! * the check can be answered by a capture: `d` is next to `k` and no
//!   piece of `c` other than `P` can ever attack `d`, even on an empty
//!   board, from any square of its region (the king may take), or none can
//!   ever attack `k` that way and
//!   an enemy piece other than the king that is never cleared, and not on
//!   `d`, attacks `d` directly (it may take: it is pinned by nothing and the
//!   king is in no other check).
//!
//! **Soundness.** Take a covered game whose positions, up to some move,
//! stay within the final regions, and let that move bring `P` to a closed
//! `d`. The pieces the conditions name as never cleared still stand on
//! their squares, so after the move the enemy king is in check, has no
//! square, cannot block, and has a legal capture of `P`: the game is not
//! over, and every legal answer captures `P`, which no covered game does.
//! So no covered game makes that move, and the regions of the fixpoint
//! built without it still cover every covered game (the induction of
//! Lemma 8). The closed set only shrinks as the regions grow (fewer
//! pieces are never cleared, the other pieces' reach only grows), so the
//! operator stays monotone. `tests/forced_captures.rs` plays random games
//! and checks, at every move of such a piece onto a square the rule closes
//! in the regions of the start, that every answer captures it.

use movegen::{Bitboard, Board, Role, Square, attacks};

use crate::Regions;
use crate::geometry::{attack_span, direct_attacks, direct_attacks_of};

/// The squares closed to the piece on `piece` (assumed never captured) by
/// the rule of the module docs, given the `regions` and the `uncleared`
/// pieces of the current pass.
pub(crate) fn capture_forcing_checks(board: &Board, regions: &Regions, uncleared: Bitboard, piece: Square) -> Bitboard {
    let Some(p) = board.piece_at(piece) else { return Bitboard::EMPTY };
    if matches!(p.role, Role::King | Role::Pawn) {
        return Bitboard::EMPTY;
    }
    let enemy = !p.color;
    let Some(king) = board.king_of(enemy) else { return Bitboard::EMPTY };
    if !uncleared.contains(king) {
        return Bitboard::EMPTY;
    }
    let others = board.by_color(p.color) - piece;
    let span = attack_span(board, regions, others);
    let guarded = direct_attacks_of(board, uncleared & others);
    let fixed_enemies = uncleared & board.by_color(enemy);
    let neighbours = attacks::king(king);
    let mut closed = Bitboard::EMPTY;
    // Non-pawn attacks are symmetric: the squares from which `P` attacks
    // the king directly are those the king's square attacks as `P`.
    for d in direct_attacks(p.role, p.color, king) {
        if (neighbours - d - fixed_enemies - guarded).any() {
            continue;
        }
        // The king takes only a checker next to it (not a knight).
        let king_takes = neighbours.contains(d) && !span.contains(d);
        let piece_takes = !span.contains(king)
            && (fixed_enemies - king - d).iter().any(|square| {
                board.role_at(square).is_some_and(|role| direct_attacks(role, enemy, square).contains(d))
            });
        if king_takes || piece_takes {
            closed |= d;
        }
    }
    closed
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Color, Piece, Position, Setup};

    /// Every square the rule closes is one where the piece's check is
    /// answered only by its capture, in random positions built around the
    /// rule: Black's king with Black pieces and pawns around it (some of
    /// its squares held, some free), White pieces near it, a few more of
    /// either colour anywhere, White to move. Every piece counts as fixed
    /// on its square (the regions are the squares). For each legal move of
    /// a White piece onto a square the rule closes to it, the position
    /// after the move must not be over, and every legal answer must take
    /// the piece on that square. Asserts that enough such moves come up.
    #[test]
    fn closed_squares_force_the_capture_of_the_checker() {
        let mut rng = testkit::XorShift64(0x2545_f491_4f6c_dd1d);
        let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
        let (mut claimed, mut positions) = (0, 0);
        while positions < 100_000 {
            let mut board = Board::empty();
            let king = rng.square();
            board.set_piece_at(king, Piece::new(Color::Black, Role::King));
            let around: Vec<Square> = attacks::king(king).iter().collect();
            for &square in &around {
                if rng.below(3) != 0 {
                    let role = roles[rng.below(roles.len())];
                    let rank = square.rank() as u32;
                    if !(role == Role::Pawn && (rank == 0 || rank == 7)) {
                        board.set_piece_at(square, Piece::new(Color::Black, role));
                    }
                }
            }
            let near: Vec<Square> =
                (attacks::king(king) | attacks::knight(king) | attacks::queen(king, Bitboard::EMPTY)).iter().collect();
            for _ in 0..2 + rng.below(5) {
                let square = if rng.below(2) == 0 { near[rng.below(near.len())] } else { rng.square() };
                let color = if rng.below(3) == 0 { Color::Black } else { Color::White };
                let role = roles[rng.below(roles.len())];
                let rank = square.rank() as u32;
                if board.piece_at(square).is_none() && !(role == Role::Pawn && (rank == 0 || rank == 7)) {
                    board.set_piece_at(square, Piece::new(color, role));
                }
            }
            let white_king = rng.square();
            if board.piece_at(white_king).is_some() {
                continue;
            }
            board.set_piece_at(white_king, Piece::new(Color::White, Role::King));
            let setup = Setup::of_board(board, Color::White);
            let Ok(pos) = Position::from_setup(setup) else { continue };
            positions += 1;
            let board = pos.board();
            let regions = Regions::own_squares(board.occupied());
            for m in pos.legal_moves().iter() {
                let closed = capture_forcing_checks(board, &regions, board.occupied(), m.from());
                if !closed.contains(m.to()) {
                    continue;
                }
                claimed += 1;
                let after = pos.play(*m);
                let answers = after.legal_moves();
                assert!(!answers.is_empty(), "{}: {m:?} ends the game", pos.to_fen());
                assert!(
                    answers.iter().all(|a| a.to() == m.to()),
                    "{}: {m:?} has an answer that does not take the piece",
                    pos.to_fen()
                );
            }
        }
        eprintln!("{claimed} moves onto closed squares in {positions} positions");
        assert!(claimed >= 300, "{claimed}");
    }
}
