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
//!
//! # Discovered mates ([`mates_on_departure`])
//!
//! A piece of the loser leaves `s` for `d`, in a position within the
//! regions whose fixed pieces stand where they started. The move uncovers
//! a check by a fixed slider `X` of the loser through `s`, and the position
//! after it is checkmate of `W`, when:
//!
//! * `W`'s king never moves: its region is its square `k`;
//! * `s` lies strictly between `X` and `k` on `X`'s line, `d` does not, and
//!   no piece (the mover aside, which now stands on `d`) may ever stand on
//!   the other squares between them: the line is open after the move;
//! * no piece of `W` but the king can move, from any square of its region,
//!   onto a square between `X` and `k` (`s` included) or onto `X`, lines open
//!   except through fixed pieces that stay (neither `s` nor `d`): nothing
//!   blocks the check or takes the checker (a pawn that may promote counts
//!   as a queen and a knight). An en-passant capture of the mover cannot
//!   block: it lands on the square the mover passed, on the mover's file,
//!   and a line through `s` and that square would run through `d` too;
//! * every neighbour of `k` lies on `X`'s line (`X` attacks it once the king
//!   stands there: the squares between are open, and `k` itself is left),
//!   or holds a fixed piece of `W`, or is attacked directly by a fixed piece
//!   of the loser that stays or by the mover on `d` (a pawn promoting there
//!   counts with a pawn's attacks, which leave the board); `d` itself, if
//!   next to `k`, only by the former (the king cannot take the mover).
//!
//! Then `W` is in check from `X`, cannot block, take `X` or move: checkmate.
//! (A second check by the mover only makes the answers fewer.)

use movegen::{Bitboard, Board, Color, Rank, Role, Square, attacks};

use crate::Regions;
use crate::geometry::{attack_sources, direct_attacks, direct_attacks_of, may_promote};

/// Whether a piece of the loser (`!winner`) of `role` arriving on `d`, from
/// one of the squares `left`, checkmates `winner` in every position within
/// `regions` whose `fixed` pieces stand on their squares (see the module
/// docs).
pub(crate) fn mates_on_arrival(
    board: &Board,
    regions: &Regions,
    fixed: Bitboard,
    winner: Color,
    role: Role,
    left: Bitboard,
    d: Square,
) -> bool {
    let mover = !winner;
    let Some(winner_king) = board.king_of(winner) else { return false };
    let king_region = regions[winner_king];
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
        if board.pieces(winner, Role::Pawn).iter().any(|p| regions[p].intersects(beside)) {
            return false;
        }
    }
    // Nothing of the winner's but the king may ever attack `d`.
    for square in board.by_color(winner) - board.kings() {
        let Some(piece) = board.piece_at(square) else { continue };
        let region = regions[square];
        let from = attack_sources(piece.role, winner, may_promote(piece, region), d, staying);
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

/// Whether the piece of the loser (`!winner`) of `role` leaving `s` for
/// `d` checkmates `winner` by a discovered check, in every position within
/// `regions` whose `fixed` pieces stand on their squares (see the module
/// docs).
pub(crate) fn mates_on_departure(
    board: &Board,
    regions: &Regions,
    fixed: Bitboard,
    winner: Color,
    role: Role,
    s: Square,
    d: Square,
) -> bool {
    let mover = !winner;
    let Some(k) = board.king_of(winner) else { return false };
    if regions.moves(k) {
        return false;
    }
    let staying = fixed - s - d;
    let guarded = direct_attacks_of(board, staying & board.by_color(mover));
    // A pawn promoting on `d` counts with a pawn's attacks there: none on
    // the board, so the promoted piece's attacks are not counted.
    let mover_direct = direct_attacks(role, mover, d);
    let winner_fixed = staying & (board.by_color(winner) - board.kings());
    let sliders = staying & board.by_color(mover) & (board.bishops() | board.rooks() | board.queens());
    sliders.iter().any(|x| {
        let path = attacks::between(x, k);
        if !path.contains(s) || path.contains(d) {
            return false;
        }
        let Some(x_role) = board.role_at(x) else { return false };
        let diagonal = attacks::bishop_rays(k).contains(x);
        let along = if diagonal {
            matches!(x_role, Role::Bishop | Role::Queen)
        } else {
            matches!(x_role, Role::Rook | Role::Queen)
        };
        if !along {
            return false;
        }
        // The line stays open: no piece but the mover ever stands between.
        if regions.union_of(board.occupied() - s).intersects(path - s) {
            return false;
        }
        // Nothing of the winner's but the king may block or take `X`.
        let targets = path | x;
        for square in board.by_color(winner) - board.kings() {
            let Some(piece) = board.piece_at(square) else { continue };
            let winner_role = piece.role;
            let region = regions[square];
            let promotes = may_promote(piece, region);
            let mut from = Bitboard::EMPTY;
            for t in targets {
                from |= match winner_role {
                    Role::Pawn if t == x => attacks::pawn(mover, t),
                    Role::Pawn => {
                        let one = Bitboard::from(t).backward(winner);
                        let two = if Bitboard::relative_rank(winner, Rank::Fourth).contains(t) {
                            one.backward(winner)
                        } else {
                            Bitboard::EMPTY
                        };
                        one | two
                    }
                    role => attacks::attacks(role, winner, t, staying),
                };
                if promotes {
                    from |= attacks::queen(t, staying) | attacks::knight(t);
                }
            }
            if region.intersects(from) {
                return false;
            }
        }
        // The king has no square.
        let on_line = attacks::line(x, k) & attacks::king(k);
        attacks::king(k).iter().all(|n| {
            if on_line.contains(n) {
                true
            } else if n == d {
                guarded.contains(d)
            } else {
                winner_fixed.contains(n) || guarded.contains(n) || mover_direct.contains(n)
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
pub(crate) fn mating_pawn_targets(board: &Board, regions: &Regions, fixed: Bitboard, winner: Color) -> Bitboard {
    let mover = !winner;
    let Some(king) = board.king_of(winner) else { return Bitboard::EMPTY };
    if regions.moves(king) {
        return Bitboard::EMPTY;
    }
    let open = Bitboard::relative_rank(mover, Rank::Third) | Bitboard::relative_rank(mover, Rank::Eighth);
    // Where the winner's pieces (but the king, which stays on its square)
    // may stand: a pawn of the loser captures onto a square only if one of
    // them can be there.
    let winner_reach = regions.union_of(board.by_color(winner) - board.kings());
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
    use movegen::{Piece, Position, Setup};

    fn play(pos: &Position, from: Square, to: Square) -> Position {
        let m = pos.legal_moves().iter().copied().find(|m| m.from() == from && m.to() == to).expect("a legal move");
        pos.play(m)
    }

    fn single_squares(board: &Board) -> Regions {
        Regions::own_squares(board.occupied())
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

    /// The rook on e8 checks through e4 when the knight leaves it for d2,
    /// and every other square of the king is covered (d1 by the pawn on c2,
    /// f1 by the knight, f2 by the pawn on g3); but nothing guards d2, and
    /// the king takes the knight. With the pawn on c3 guarding d2 it mates.
    #[test]
    fn the_king_may_take_the_piece_that_uncovered_the_check() {
        for (fen, mates) in [("4r2k/8/8/8/4n3/6p1/2p5/4K3 b - -", false), ("4r2k/8/8/8/4n3/2p3p1/2p5/4K3 b - -", true)]
        {
            let pos: Position = fen.parse().unwrap();
            let board = pos.board();
            let regions = single_squares(board);
            let claim = mates_on_departure(
                board,
                &regions,
                board.occupied(),
                Color::White,
                Role::Knight,
                Square::E4,
                Square::D2,
            );
            assert_eq!(claim, mates, "{fen}");
            assert_eq!(play(&pos, Square::E4, Square::D2).is_checkmate(), mates, "{fen}");
        }
    }

    /// The line from `k` in direction `(df, dr)`, up to the edge.
    fn ray(k: Square, df: i32, dr: i32) -> Vec<Square> {
        let (mut f, mut r) = (k.file() as i32 + df, k.rank() as i32 + dr);
        let mut squares = Vec::new();
        while (0..8).contains(&f) && (0..8).contains(&r) {
            squares.push(Square::new((r * 8 + f) as u32));
            f += df;
            r += dr;
        }
        squares
    }

    /// Random positions built around the mating verifications: White's
    /// king with Black pawns and pieces around it, a Black slider aimed at
    /// it through one Black piece, a few more pieces of either colour
    /// anywhere (blockers, capturers, guards, flight squares), Black to
    /// move; `each` is called on `count` of them.
    fn generated_positions(count: usize, mut each: impl FnMut(&Position)) {
        let mut rng = testkit::XorShift64(0x9e37_79b9_7f4a_7c15);
        let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
        let directions = [(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1), (1, -1), (-1, -1)];
        let mut positions = 0;
        while positions < count {
            let mut board = Board::empty();
            let king = rng.square();
            board.set_piece_at(king, Piece::new(Color::White, Role::King));
            let (df, dr) = directions[rng.below(directions.len())];
            let line = ray(king, df, dr);
            if line.len() < 2 {
                continue;
            }
            let between = rng.below(line.len() - 1);
            let slider_at = between + 1 + rng.below(line.len() - 1 - between);
            let slider = if rng.below(2) == 0 {
                Role::Queen
            } else if df == 0 || dr == 0 {
                Role::Rook
            } else {
                Role::Bishop
            };
            board.set_piece_at(line[slider_at], Piece::new(Color::Black, slider));
            board.set_piece_at(line[between], Piece::new(Color::Black, roles[rng.below(roles.len())]));
            // Pieces around the king, then anywhere; the squares of the
            // line stay as placed.
            for _ in 0..rng.below(10) {
                let square = if rng.below(3) == 0 {
                    rng.square()
                } else {
                    let around: Vec<Square> = attacks::king(king).iter().collect();
                    around[rng.below(around.len())]
                };
                let color = if rng.below(4) == 0 { Color::White } else { Color::Black };
                if board.piece_at(square).is_none() && !line[..=slider_at].contains(&square) {
                    board.set_piece_at(square, Piece::new(color, roles[rng.below(roles.len())]));
                }
            }
            let black_king = rng.square();
            if board.piece_at(black_king).is_some() {
                continue;
            }
            board.set_piece_at(black_king, Piece::new(Color::Black, Role::King));
            let setup = Setup::of_board(board, Color::Black);
            let Ok(pos) = Position::from_setup(setup) else { continue };
            positions += 1;
            each(&pos);
        }
    }

    /// Every discovered mate the verification claims is a checkmate, in
    /// [`generated_positions`]. Every piece counts as fixed on its square
    /// (the regions are the squares): for each legal Black move the
    /// verification claims mates, the position after it must be
    /// checkmate. Asserts that enough claims come up.
    #[test]
    fn claimed_discovered_mates_are_checkmates() {
        let mut claimed = 0;
        generated_positions(200_000, |pos| {
            let board = pos.board();
            let regions = single_squares(board);
            for m in pos.legal_moves().iter() {
                let Some(role) = board.role_at(m.from()) else { continue };
                if mates_on_departure(board, &regions, board.occupied(), Color::White, role, m.from(), m.to()) {
                    claimed += 1;
                    assert!(pos.play(*m).is_checkmate(), "{}: {m:?}", pos.to_fen());
                }
            }
        });
        eprintln!("{claimed} discovered mates claimed");
        assert!(claimed >= 500, "{claimed}");
    }

    /// The same for the direct mates of [`mates_on_arrival`] (the mover
    /// left its square; a king's move is not a check).
    #[test]
    fn claimed_direct_mates_are_checkmates() {
        let mut claimed = 0;
        generated_positions(200_000, |pos| {
            let board = pos.board();
            let regions = single_squares(board);
            for m in pos.legal_moves().iter() {
                let Some(role) = board.role_at(m.from()) else { continue };
                if role == Role::King {
                    continue;
                }
                let left = Bitboard::from(m.from());
                if mates_on_arrival(board, &regions, board.occupied(), Color::White, role, left, m.to()) {
                    claimed += 1;
                    assert!(pos.play(*m).is_checkmate(), "{}: {m:?}", pos.to_fen());
                }
            }
        });
        eprintln!("{claimed} direct mates claimed");
        assert!(claimed >= 500, "{claimed}");
    }
}
