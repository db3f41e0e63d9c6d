//! Moves that would checkmate the winner: in the games that end in a
//! checkmate *by a known colour* `W` ([`crate::Games::mates_by`]), a move of
//! the other colour that checkmates `W` is never played (the game would end
//! there, without `W`'s mate). Two rules use it:
//!
//! * [`crate::terminal`] keeps a piece still when *every* first move of it
//!   mates `W` (any such game ends at once);
//! * the fixpoint ([`crate::fixpoint`]) closes to the loser's pawns the
//!   squares from which a pawn would mate `W` ([`mating_pawn_targets`]): a
//!   pawn of the loser never steps or captures onto such a square in those
//!   games, so its region stops there.
//!
//! # The verification ([`mates_on_arrival`])
//!
//! A piece of the loser arrives on `d` (it left one of the squares `left`,
//! and whatever stood on `d` is captured), in a position whose pieces are
//! within the regions and whose *fixed* pieces (never cleared: always on
//! their squares) stand where they started. The position after the move is
//! checkmate of `W` when, for every square `k` of `W`'s king region:
//!
//! * the piece on `d` attacks `k` *directly* (a pawn, knight or king step,
//!   or a slider next to `k`): the check cannot be blocked;
//! * every neighbour of `k` other than `d` holds a fixed piece of `W` (the
//!   king cannot go there) or is attacked directly by a fixed piece of the
//!   loser other than those on `left` (they may be the mover) or by the
//!   piece on `d`; and `d`, if next to `k`, is attacked directly by such a
//!   fixed piece of the loser (the king cannot take the checker). Direct
//!   attacks cannot be blocked, so whatever else moved, they hold;
//! * no other piece of `W` can attack `d` from any square of its region,
//!   its lines open except through fixed pieces that stay (neither on
//!   `left`, which the mover may have vacated, nor on `d`): nothing can
//!   take the checker. A pawn of `W` that may promote counts as a queen and
//!   a knight; when the arrival may be a pawn's double step, a pawn of `W`
//!   beside `d` could take it en passant, and the move is not trusted.
//!
//! Then `W` is in check, its king has no square and the checker cannot be
//! taken or blocked: checkmate.

use movegen::{Bitboard, Board, Color, Rank, Role, Square, attacks};

use crate::fixpoint::{direct_attacks, direct_attacks_of, union_of_regions};

/// Whether a piece of the loser (`!winner`) of `role` arriving on `d`, from
/// one of the squares `left`, checkmates `winner` in every position within
/// `regions` whose `fixed` pieces stand on their squares (see the module
/// docs).
pub(crate) fn mates_on_arrival(
    board: &Board,
    regions: &[Bitboard; 64],
    fixed: Bitboard,
    winner: Color,
    role: Role,
    left: Bitboard,
    d: Square,
) -> bool {
    let mover = !winner;
    let Some(winner_king) = board.king_of(winner) else { return false };
    let king_region = regions[winner_king as usize];
    let checks = direct_attacks(role, mover, d);
    if !king_region.is_subset(checks) {
        return false;
    }
    // What surely stands after the move: fixed pieces, but not the mover's
    // possible origins nor a victim on `d`.
    let staying = fixed - left - d;
    let double_step = role == Role::Pawn
        && Bitboard::relative_rank(mover, Rank::Fourth).contains(d)
        && left.intersects(Bitboard::relative_rank(mover, Rank::Second));
    if double_step {
        let beside = Bitboard::from(d).east() | Bitboard::from(d).west();
        if board.pieces(winner, Role::Pawn).iter().any(|p| regions[p as usize].intersects(beside)) {
            return false;
        }
    }
    // Nothing of the winner's but the king may ever attack `d`.
    for square in board.by_color(winner) - board.kings() {
        let Some(winner_role) = board.role_at(square) else { continue };
        let region = regions[square as usize];
        let from = match winner_role {
            Role::Pawn => attacks::pawn(mover, d),
            role => attacks::attacks(role, winner, d, staying),
        };
        let promotes = winner_role == Role::Pawn && region.intersects(Bitboard::relative_rank(winner, Rank::Eighth));
        let from = if promotes { from | attacks::queen(d, staying) | attacks::knight(d) } else { from };
        if region.intersects(from) {
            return false;
        }
    }
    let winner_fixed = staying & (board.by_color(winner) - board.kings());
    let guarded = direct_attacks_of(board, staying & board.by_color(mover));
    king_region.iter().all(|k| {
        attacks::king(k).iter().all(|n| {
            if n == d {
                guarded.contains(d)
            } else {
                winner_fixed.contains(n) || guarded.contains(n) || checks.contains(n)
            }
        })
    })
}

/// The squares a pawn of the loser (`!winner`) may never step or capture
/// onto in the games that end in `winner`'s mate, given the current
/// `regions` and `fixed` pieces: squares next to the winner's king, which
/// never moves, from which the pawn would mate it ([`mates_on_arrival`])
/// whichever square it came from: a step, a double step, or (when a piece
/// of the winner may ever stand on the square) a capture from either side.
///
/// Squares on the loser's third rank are left open: a double step passes
/// over them without stopping, and closing them would cut it off. Squares
/// on its last rank are left open too (the pawn promotes there).
///
/// The set only shrinks as the regions grow and the fixed pieces shrink
/// (every condition of the verification does), so closing it keeps the
/// fixpoint's operator monotone.
pub(crate) fn mating_pawn_targets(board: &Board, regions: &[Bitboard; 64], fixed: Bitboard, winner: Color) -> Bitboard {
    let mover = !winner;
    let Some(king) = board.king_of(winner) else { return Bitboard::EMPTY };
    if regions[king as usize] != Bitboard::from(king) {
        return Bitboard::EMPTY;
    }
    let open = Bitboard::relative_rank(mover, Rank::Third) | Bitboard::relative_rank(mover, Rank::Eighth);
    // Where the winner's pieces (but the king, which stays on its square)
    // may stand: a pawn of the loser captures onto a square only if one of
    // them can be there.
    let winner_reach = union_of_regions(regions, board.by_color(winner) - board.kings());
    let mut targets = Bitboard::EMPTY;
    for t in attacks::pawn(winner, king) - open - board.by_color(mover) {
        let one = Bitboard::from(t).backward(mover);
        let two = if Bitboard::relative_rank(mover, Rank::Fourth).contains(t) {
            one.backward(mover)
        } else {
            Bitboard::EMPTY
        };
        let captures = if winner_reach.contains(t) { attacks::pawn(winner, t) } else { Bitboard::EMPTY };
        let origins = one | two | captures;
        if origins.iter().all(|o| mates_on_arrival(board, regions, fixed, winner, Role::Pawn, Bitboard::from(o), t)) {
            targets |= t;
        }
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;

    fn play(pos: &Position, from: Square, to: Square) -> Position {
        let m = pos.legal_moves().iter().copied().find(|m| m.from() == from && m.to() == to).expect("a legal move");
        pos.play(m)
    }

    fn single_squares(board: &Board) -> [Bitboard; 64] {
        let mut regions = [Bitboard::EMPTY; 64];
        for square in board.occupied() {
            regions[square as usize] = Bitboard::from(square);
        }
        regions
    }

    /// The white king on c1 is held by the pawns on c2 and c3 (d3 guards
    /// c2); b3-b2 mates unless something can take on b2. A rook on b8 can,
    /// through the b3 square the pawn leaves: the square the mover left must
    /// not count as a blocker.
    #[test]
    fn the_square_the_mover_left_opens_a_line() {
        let pos: Position = "1R6/7k/8/8/8/1ppp4/2p5/2K5 b - -".parse().unwrap();
        let board = pos.board();
        let regions = single_squares(board);
        let fixed = board.occupied();
        let arrival = |left| mates_on_arrival(board, &regions, fixed, Color::White, Role::Pawn, left, Square::B2);
        assert!(!arrival(Bitboard::from(Square::B3)), "Rxb2");
        assert!(!play(&pos, Square::B3, Square::B2).legal_moves().is_empty());
        assert_eq!(mating_pawn_targets(board, &regions, fixed, Color::White), Bitboard::from(Square::D2));
    }

    /// Without the rook both steps mate, and both squares are closed. A
    /// capture onto d2 from c3 would not mate (c3 guards b2), and without a
    /// white piece that can reach d2 none is possible.
    #[test]
    fn mating_steps_are_closed() {
        let pos: Position = "7k/8/8/8/8/1ppp4/2p5/2K5 b - -".parse().unwrap();
        let board = pos.board();
        let regions = single_squares(board);
        let fixed = board.occupied();
        for (from, to) in [(Square::B3, Square::B2), (Square::D3, Square::D2)] {
            assert!(mates_on_arrival(board, &regions, fixed, Color::White, Role::Pawn, from.into(), to));
            assert!(play(&pos, from, to).is_checkmate(), "{from}{to}");
        }
        assert_eq!(mating_pawn_targets(board, &regions, fixed, Color::White), Bitboard::from(Square::B2) | Square::D2);
        assert!(!mates_on_arrival(board, &regions, fixed, Color::White, Role::Pawn, Square::C3.into(), Square::D2));
        // Without d3, c2 is unguarded after b3-b2 and the king takes it.
        let pos: Position = "7k/8/8/8/8/1pp5/2p5/2K5 b - -".parse().unwrap();
        let regions = single_squares(pos.board());
        assert!(!play(&pos, Square::B3, Square::B2).is_checkmate());
        assert!(!mating_pawn_targets(pos.board(), &regions, pos.board().occupied(), Color::White).contains(Square::B2));
    }
}
