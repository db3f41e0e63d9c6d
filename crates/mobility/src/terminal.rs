//! Captures that end the game: a sound strengthening of the mobility
//! fixpoint for positions like the paper's 14 and 16 (Section 5.2), where
//! capturing a pawn would leave its side without a legal move.
//!
//! # The rule
//!
//! Take a set `H` of pieces and assume none of them ever moves or is
//! captured:
//! compute the fixpoint with their squares closed to every enemy and their
//! regions kept to their squares (`saturate` with `frozen = H` and `H`
//! immobile). Then *verify* the assumption: for each piece `P` of `H`,
//! every capture of `P` that the assumed regions allow leaves `P`'s side
//! without any possible move and not in check, i.e. **stalemate**: the game
//! is over, drawn; and `P` has no first move in any position within the
//! assumed regions (`first_moves`, an over-approximation). Pieces that
//! fail are removed from `H` and the fixpoint recomputed, until all
//! remaining pass.

//! # Why it is sound
//!
//! Take any game from the position that ends in a checkmate, and suppose
//! some piece of `H` is cleared in it; let `t` be the first time. Before
//! `t` every piece of `H` stands on its square and the assumption holds, so
//! (Lemma 8 for the rules with frozen squares) every position before `t` is
//! within the assumed regions. At `t` a piece `P` of `H` either moves (but
//! it has no first move from such a position: impossible) or is captured from a
//! position within the regions, which the verification covers: the game
//! ends in stalemate, not in a checkmate. Contradiction. So in every game
//! that ends in checkmate no piece of `H` is ever cleared, every position is
//! within the assumed regions, and the static check (which only reasons
//! about the mating position) may use them.
//!
//! The verification only relies on facts that hold in every position within
//! the regions: the *fixed* pieces (cleared never, so always on their
//! squares) and the capturer on the capture square. A capture by the king
//! is not considered when a fixed piece of the victim's side attacks the
//! victim's square directly (a pawn, knight or king step, a slider next to
//! it): that attack cannot be blocked, so the king may not take there. A move of the victim's
//! side is ruled out only when it is blocked by a fixed piece of its own
//! side, or (for the king) its target is attacked directly (by a pawn,
//! knight or king, or a slider standing next to it) by a fixed enemy or by
//! the capturer (unless the capturer may promote: it may stand there as a
//! pawn or as any piece, which guard different squares), or is next to the
//! capturing king. A check is ruled out
//! unless the capturer attacks the king (lines open except through fixed
//! pieces) or an enemy slider's region lies on a line from the king through
//! the square the capturer left (a discovered check), with only non-fixed
//! squares between.
//!
//! # Castling
//!
//! Standard castling (king on the e-file, rook in the corner):
//!
//! * A frozen rook cannot castle: castling needs the square next to it on
//!   the king's side (`g1`/`b1`) empty, and the "cannot move" test finds
//!   that square held by a fixed ally (else the rook has a first move and
//!   is not kept). (Kings are never frozen.)
//! * The stalemate verification rules out every castling of the victim's
//!   side: a rook not blocked on that square counts as having a move; and
//!   castling needs the king's first square (`f1`/`d1`) empty and
//!   unattacked, so whenever the verification finds that square closed
//!   for a king step (a fixed ally on it, a direct attack by a fixed enemy
//!   or the capturer, the capturer standing on it, or the capturing king
//!   next to it) castling that way is impossible too.
//!
//! Chess960 castling has neither property: the square next to the rook on
//! the king's side may be the king's, the king's first square may be the
//! rook's, and either piece may stay where it is (`K f1, R g1` swap; `K g1,
//! R h1`: only the rook moves), so a rook with no step of its own and a
//! boxed king may still castle. So a rook with a Chess960 right is never
//! frozen, and a capture is not verified to stalemate while the victim's
//! side holds a Chess960 right whose castling no fixed piece (nor the
//! capturer, on the victim's square) blocks by standing where it needs an
//! empty square: the castling may be a move. `tests/chess960.rs` attacks
//! both with random Chess960 games.
//!
//! Note what this means for tests of Lemma 8: the regions hold in every
//! position *except* a stalemate reached by such a capture (the game ends
//! there). `tests/over_approximation.rs` checks exactly that.
//!
//! # Moves that end the game against the winner
//!
//! When only the games ending in a checkmate *by a known colour* `W` matter
//! ([`crate::Games::mates_by`]), a piece `P` of the other colour may also
//! stay in `H` although it has moves, if **every first move of `P` mates
//! `W`**: such a game ends at once, without a mate by `W`. The argument
//! above goes through unchanged: at the first time `t` a piece of `H` is
//! cleared, if it is `P` moving, the move is a first move of `P` from its
//! square in a position within the assumed regions, and the verification
//! shows the game ends there with `W` mated.
//!
//! The verification (`every_move_mates`) looks at each square `d` that
//! `P` could move to from its square (a pawn's push or captures, a piece's
//! steps or slides up to the first piece that never moves) and requires
//! that `P` arriving there mates `W` (`mates_on_arrival`: the check is
//! direct, `W`'s king has no square, nothing can take `P`), or that `P`
//! leaving its square mates `W` by a discovered check
//! (`mates_on_departure`: a fixed slider behind `P` checks through the
//! square `P` left, nothing can block or take it, `W`'s king has no
//! square). Fixed means never cleared in the assumed fixpoint: standing on
//! its square throughout.

use movegen::{Bitboard, Board, Color, Rank, Role, Square, attacks};

use crate::Games;
use crate::castling::Castlings;
use crate::fixpoint::{Assumptions, Fixpoint, Rules, saturate};
use crate::geometry::{attack_sources, direct_attacks, direct_attacks_of, may_promote, slides};
use crate::mating_moves::{mates_on_arrival, mates_on_departure};

/// The refined fixpoint: a verified set of never-captured pieces and the
/// fixpoint under it. The set is found from the top: start with every
/// non-king piece, and drop the pieces that can move or whose capture is
/// not verified to end the game, until every remaining one passes. (How the
/// set is found does not matter for soundness: only that the final set
/// passes the verification against its own fixpoint.)
///
/// `outer` are the assumptions of `base` (nothing frozen there): each
/// round adds its frozen set to them.
pub(crate) fn refine(board: &Board, rules: Rules, outer: Assumptions, base: Fixpoint) -> Fixpoint {
    let (games, castlings) = (outer.games, outer.castlings);
    // A Chess960 castling rook is never frozen (see "Castling" in the
    // module docs).
    let chess960_rooks = castlings.iter().filter(|path| !path.is_standard()).fold(Bitboard::EMPTY, |b, p| b | p.rook);
    let mut frozen = board.occupied() - board.kings() - chess960_rooks;
    while frozen.any() {
        // Until the first time a piece of `H` is cleared, none of them has
        // moved: their regions are their squares.
        let immobile = games.immobile | frozen;
        let assumed = saturate(board, rules, Assumptions { games: Games { immobile, ..games }, frozen, ..outer });
        let never_captured = frozen | games.uncapturable | board.kings();
        let fixed = board.occupied() - assumed.cleared;
        // Where a piece of each colour that may be captured can stand.
        let victims = Color::ALL.map(|color| assumed.regions.union_of(board.by_color(color) - never_captured));
        let failing: Bitboard = frozen
            .into_iter()
            .filter(|&square| {
                let moves = first_moves(board, fixed, never_captured, victims, square);
                let stays = moves.is_empty()
                    || rules.mating_first_moves()
                        && games.mates_by.is_some_and(|winner| {
                            board.color_at(square) == Some(!winner)
                                && every_move_mates(board, &assumed, square, winner, moves)
                        });
                // A piece assumed never captured needs no capture verified.
                let captured_safely =
                    games.uncapturable.contains(square) || capture_is_terminal(board, &castlings, &assumed, square);
                !stays || !captured_safely
            })
            .collect();
        if failing.is_empty() {
            return assumed;
        }
        frozen -= failing;
    }
    base
}

/// The squares the piece on `square` could move to first, in a position
/// within the assumed regions whose `fixed` pieces (never cleared) stand on
/// their squares and whose capturable pieces of each colour stand within
/// `victims` (an over-approximation): a pawn's step and
/// double step onto squares no fixed piece holds, its captures onto squares
/// where an enemy that may be captured can stand; a piece's steps or slides
/// up to the first fixed piece, but not onto its own fixed pieces nor onto
/// enemies that are never captured (kings, the assumed set, the frozen
/// pieces: a capture of a frozen piece is that piece's clearing, which its
/// own verification covers).
fn first_moves(
    board: &Board,
    fixed: Bitboard,
    never_captured: Bitboard,
    victims: [Bitboard; 2],
    square: Square,
) -> Bitboard {
    let Some(piece) = board.piece_at(square) else { return Bitboard::EMPTY };
    let mover = piece.color;
    let victims = victims[!mover as usize];
    match piece.role {
        Role::Pawn => {
            let one = Bitboard::from(square).forward(mover) - fixed;
            let start = Bitboard::relative_rank(mover, Rank::Second);
            let two = if start.contains(square) { one.forward(mover) - fixed } else { Bitboard::EMPTY };
            one | two | (attacks::pawn(mover, square) & victims)
        }
        role => {
            let closed = (fixed & board.by_color(mover)) | (never_captured & fixed & board.by_color(!mover));
            attacks::attacks(role, mover, square, fixed) - closed
        }
    }
}

/// Whether every capture of the piece on `victim_square` that the assumed
/// regions allow ends the game in stalemate (see the module docs).
///
/// Every enemy piece is a possible capturer, from every square of its
/// region from which it attacks the victim: mobile pieces, but also fixed
/// and frozen ones (a capture between two assumed-fixed pieces would be the
/// first event that breaks the assumption, so it must be covered too).
fn capture_is_terminal(board: &Board, castlings: &Castlings, assumed: &Fixpoint, victim_square: Square) -> bool {
    let Some(victim_color) = board.color_at(victim_square) else { return true };
    let capturer_color = !victim_color;
    let x = victim_square;
    let fixed = board.occupied() - assumed.cleared;
    let region = |square: Square| assumed.regions[square];
    let promotes = |square: Square| board.piece_at(square).is_some_and(|piece| may_promote(piece, region(square)));
    let victim_king = board.king_of(victim_color).unwrap_or(x);
    // Enemy pieces that could stand on a capture target of a victim pawn:
    // any square of an enemy region (the capturer's new square included below).
    let enemy_reach = assumed.regions.union_of(board.by_color(capturer_color));
    // The enemy pieces that slide, and along which lines: diagonal and
    // straight sets (a pawn that may promote slides both ways). Asked only
    // for discovered checks, so built only then.
    let mut enemy_sliders: Option<[Bitboard; 2]> = None;
    let sliders = || {
        let mut lines = [Bitboard::EMPTY; 2];
        for sq in board.by_color(capturer_color) {
            let Some(role) = board.role_at(sq) else { continue };
            let (diagonal, straight) = slides(role, promotes(sq));
            if diagonal {
                lines[0] |= sq;
            }
            if straight {
                lines[1] |= sq;
            }
        }
        lines
    };

    // Squares the victim's fixed pieces (the victim aside) attack directly:
    // whatever else stands where, they attack them when the capture comes.
    let defended = direct_attacks_of(board, (fixed - x) & board.by_color(victim_color));

    for capturer in board.by_color(capturer_color) {
        let Some(role) = board.role_at(capturer) else { continue };
        if role == Role::King && defended.contains(x) {
            // The king cannot take a defended piece.
            continue;
        }
        // A pawn that takes on its last rank promotes there, whatever its
        // region (the capture may be the move that breaks the assumption).
        // It takes from where it stands before the capture: as a pawn, or as
        // any piece only if it may have promoted before. A pawn promotes
        // only on arriving on its last rank, which then lies in its region
        // (Lemma 8), so one whose region misses that rank is still a pawn
        // there and attacks the victim only from its pawn squares.
        let promoted = promotes(capturer);
        let promoting =
            promoted || (role == Role::Pawn && Bitboard::relative_rank(capturer_color, Rank::Eighth).contains(x));
        let origins = region(capturer) & attack_sources(role, capturer_color, promoted, x, fixed - capturer);
        for y in origins {
            // After the capture: the capturer stands on `x`, its origin is
            // empty, the victim is gone.
            let fixed_after = fixed - y - x;
            let capturer_attacks = if promoting {
                attacks::queen(x, fixed_after) | attacks::knight(x)
            } else {
                attacks::attacks(role, capturer_color, x, fixed_after)
            };
            // What the capturer surely guards: a capturer that may promote
            // may be a pawn or any promoted piece there, which guard
            // different squares, so it surely guards none.
            let capturer_direct = if promoting { Bitboard::EMPTY } else { direct_attacks(role, capturer_color, x) };
            let fixed_attacks = direct_attacks_of(board, fixed_after & board.by_color(capturer_color));
            let own_fixed = fixed_after & board.by_color(victim_color);
            let guarded = fixed_attacks | capturer_direct;

            // A Chess960 castling of the victim's side is a move unless a
            // fixed piece or the capturer stands where it needs an empty
            // square (see "Castling" in the module docs).
            let chess960_castling = castlings
                .of_color(victim_color)
                .any(|path| !path.is_standard() && (path.empty & (fixed_after | x)).is_empty());
            if chess960_castling {
                return false;
            }

            // The victim's other pieces must have no move.
            for piece_square in board.by_color(victim_color) - victim_king - x {
                let Some(piece_role) = board.role_at(piece_square) else { continue };
                if !fixed_after.contains(piece_square) {
                    return false;
                }
                let has_move = match piece_role {
                    Role::Pawn => {
                        let push = Bitboard::from(piece_square).forward(victim_color);
                        let push_open = (push - fixed_after - x).any();
                        push_open || attacks::pawn(victim_color, piece_square).intersects(enemy_reach | x)
                    }
                    Role::Knight => attacks::knight(piece_square).iter().any(|t| !own_fixed.contains(t)),
                    Role::King => true,
                    // A slider moves unless every first step is its own fixed piece.
                    _ => direct_attacks(piece_role, victim_color, piece_square).iter().any(|t| !own_fixed.contains(t)),
                };
                if has_move {
                    return false;
                }
            }

            // The victim's king: no move, and not in check, wherever it stands.
            let mut king_squares = region(victim_king) - x;
            if role == Role::King {
                king_squares -= attacks::king(x);
            }
            for k in king_squares {
                for t in attacks::king(k) {
                    let stays_closed = own_fixed.contains(t)
                        || (t != x && guarded.contains(t))
                        || (t == x && fixed_attacks.contains(x))
                        || (role == Role::King && t != x && attacks::king(x).contains(t));
                    if !stays_closed {
                        return false;
                    }
                }
                if capturer_attacks.contains(k) {
                    return false;
                }
                // Discovered checks through the square the capturer left.
                if attacks::line(k, y).is_empty() || (attacks::between(k, y) & (fixed_after | x)).any() {
                    continue;
                }
                let diagonal = attacks::bishop_rays(k).contains(y);
                let ray = ray_beyond(k, y, fixed_after | x);
                let lines = *enemy_sliders.get_or_insert_with(sliders);
                let along = lines[usize::from(!diagonal)] - capturer;
                let discovers = along.iter().any(|square| region(square).intersects(ray));
                if discovers {
                    return false;
                }
            }
        }
    }
    true
}

/// Whether each of the first moves `moves` of the piece on `square` (not of
/// `winner`'s colour) checkmates `winner`, in every position within the
/// assumed regions (see the module docs and [`mates_on_arrival`]).
fn every_move_mates(board: &Board, assumed: &Fixpoint, square: Square, winner: Color, moves: Bitboard) -> bool {
    let Some(piece) = board.piece_at(square) else { return false };
    if piece.role == Role::King {
        return false;
    }
    let fixed = board.occupied() - assumed.cleared;
    let regions = &assumed.regions;
    moves.iter().all(|d| {
        mates_on_arrival(board, regions, fixed, winner, piece.role, Bitboard::from(square), d)
            || mates_on_departure(board, regions, fixed, winner, piece.role, square, d)
    })
}

/// The squares beyond `y` on the line from `k` through `y`, up to and
/// including the first square of `stop` (or the edge of the board).
fn ray_beyond(k: Square, y: Square, stop: Bitboard) -> Bitboard {
    let df = (y.file() as i32 - k.file() as i32).signum();
    let dr = (y.rank() as i32 - k.rank() as i32).signum();
    let (mut file, mut rank) = (y.file() as i32 + df, y.rank() as i32 + dr);
    let mut ray = Bitboard::EMPTY;
    while (0..8).contains(&file) && (0..8).contains(&rank) {
        let square = Square::new((rank * 8 + file) as u32);
        ray |= square;
        if stop.contains(square) {
            break;
        }
        file += df;
        rank += dr;
    }
    ray
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Regions;
    use movegen::{Piece, Position, Setup};

    /// Assumed regions in which every piece of `board` stays on its square
    /// (none cleared).
    fn every_piece_fixed(board: &Board) -> Fixpoint {
        Fixpoint {
            regions: Regions::own_squares(board.occupied()),
            cleared: Bitboard::EMPTY,
            reachable: [Bitboard::EMPTY; 2],
            frozen: Bitboard::EMPTY,
        }
    }

    /// Every capture the verification calls terminal ends in stalemate, in
    /// random positions built around it: Black's king near a corner or an
    /// edge, Black pawns blocked by White pawns, a few Black pieces next to
    /// the king, White pieces anywhere (a pawn on its seventh rank in a
    /// quarter of them), White to move. Every piece counts as
    /// fixed on its square (the regions are the squares): for each legal
    /// White capture of a piece whose capture the verification calls
    /// terminal, the position after it must be stalemate. Asserts that
    /// enough such captures come up.
    #[test]
    fn claimed_terminal_captures_are_stalemates() {
        let mut rng = testkit::XorShift64(0x6a09_e667_f3bc_c909);
        let roles = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
        let (mut claimed, mut positions, mut with_rights, mut claimed_with_rights) = (0, 0, 0, 0);
        while positions < 500_000 {
            let mut board = Board::empty();
            let king = Square::new((rng.below(8) + 8 * [0, 7, rng.below(8)][rng.below(3)]) as u32);
            board.set_piece_at(king, Piece::new(Color::Black, Role::King));
            // Blocked pawn pairs: a Black pawn with a White pawn in front.
            for _ in 0..rng.below(5) {
                let (file, rank) = (rng.below(8) as u32, 2 + rng.below(4) as u32);
                let (black, white) = (Square::new(rank * 8 + file), Square::new((rank - 1) * 8 + file));
                if board.piece_at(black).is_none() && board.piece_at(white).is_none() {
                    board.set_piece_at(black, Piece::new(Color::Black, Role::Pawn));
                    board.set_piece_at(white, Piece::new(Color::White, Role::Pawn));
                }
            }
            for _ in 0..rng.below(3) {
                let around: Vec<Square> = attacks::king(king).iter().collect();
                let square = around[rng.below(around.len())];
                let role = if rng.below(2) == 0 { Role::Pawn } else { roles[rng.below(roles.len())] };
                let rank = square.rank() as u32;
                if board.piece_at(square).is_none() && !(role == Role::Pawn && (rank == 0 || rank == 7)) {
                    board.set_piece_at(square, Piece::new(Color::Black, role));
                }
            }
            for _ in 0..1 + rng.below(4) {
                let square = rng.square();
                if board.piece_at(square).is_none() {
                    board.set_piece_at(square, Piece::new(Color::White, roles[rng.below(roles.len())]));
                }
            }
            // Sometimes a white pawn on its seventh rank, which takes onto
            // the eighth as a pawn and promotes there.
            if rng.below(4) == 0 {
                let square = Square::new(6 * 8 + rng.below(8) as u32);
                if board.piece_at(square).is_none() {
                    board.set_piece_at(square, Piece::new(Color::White, Role::Pawn));
                }
            }
            let white_king = rng.square();
            if board.piece_at(white_king).is_some() {
                continue;
            }
            board.set_piece_at(white_king, Piece::new(Color::White, Role::King));
            let setup = Setup::of_board(board, Color::White);
            let Ok(mut pos) = Position::from_setup(setup) else { continue };
            // Half of the time, Black's king on its first rank gets a
            // Chess960 right with a rook of that rank: the verification
            // must then see the castling that is Black's move.
            let rank8 = Bitboard::rank(movegen::Rank::Eighth);
            if rank8.contains(king) && rng.below(2) == 0 {
                if let Some(rook) = (board.pieces(Color::Black, Role::Rook) & rank8).first() {
                    let king_side = rook > king;
                    let files = if king_side {
                        movegen::CastlingFiles::new(movegen::File::A, rook.file())
                    } else {
                        movegen::CastlingFiles::new(rook.file(), movegen::File::H)
                    };
                    let mut with_right = setup;
                    with_right.castling = movegen::Castling { color: Color::Black, king_side }.right();
                    with_right.castling_files = files.unwrap_or_default();
                    if let Ok(castling) = Position::from_setup(with_right) {
                        pos = castling;
                        with_rights += 1;
                    }
                }
            }
            positions += 1;
            let board = pos.board();
            let castlings = Castlings::of(&pos);
            let assumed = every_piece_fixed(board);
            for m in pos.legal_moves().iter() {
                let x = m.to();
                if board.color_at(x) != Some(Color::Black) || !capture_is_terminal(board, &castlings, &assumed, x) {
                    continue;
                }
                claimed += 1;
                claimed_with_rights += u32::from(!pos.castling_rights().is_empty());
                let after = pos.play(*m);
                assert!(after.is_stalemate(), "{}: {m:?}", pos.to_fen());
            }
        }
        eprintln!(
            "{claimed} terminal captures claimed in {positions} positions ({claimed_with_rights} in the \
             {with_rights} with a Chess960 right)"
        );
        assert!(claimed >= 300 && with_rights > 1_000, "{claimed} {with_rights}");
    }

    /// A Chess960 castling may be the victim's side's only move: Black's
    /// king g8 and rook h8 have no step (f8 and g7 guarded, f7 and h7 its
    /// own blocked pawns), but O-O takes the rook across to f8. After Qxa4
    /// Black is not stalemated, so the capture is not terminal.
    #[test]
    fn a_chess960_castling_is_a_move() {
        let pos: Position = "6kr/3N1p1p/5P1P/8/n7/8/8/Q1K5 w k - 0 1".parse().unwrap();
        let after = pos.play(pos.parse_uci("a1a4").unwrap());
        assert_eq!(after.legal_moves().len(), 1);
        assert!(after.legal_moves()[0].is_castle() && !after.is_stalemate());
        let board = pos.board();
        let assumed = every_piece_fixed(board);
        assert!(!capture_is_terminal(board, &Castlings::of(&pos), &assumed, Square::A4));
        // Without the right, the same capture does stalemate.
        let without: Position = "6kr/3N1p1p/5P1P/8/n7/8/8/Q1K5 w - - 0 1".parse().unwrap();
        assert!(without.play(without.parse_uci("a1a4").unwrap()).is_stalemate());
        assert!(capture_is_terminal(without.board(), &Castlings::of(&without), &assumed, Square::A4));
    }

    /// A capturer that may promote guards nothing for sure: the white pawn
    /// of d5 (its region reaches d8) takes on e6 and stays a pawn, which
    /// attacks d7 and f7 only; g7 is free and the black king of h7 goes
    /// there. Counting the squares a queen or a knight on e6 would guard
    /// (g7 among them) called this capture a stalemate.
    #[test]
    fn a_capturer_that_may_promote_guards_nothing_for_sure() {
        let pos: Position = "8/5P1k/4n1N1/3P3K/8/8/8/8 w - -".parse().unwrap();
        let board = pos.board();
        let mut regions = Regions::own_squares(board.occupied());
        regions[Square::D5] = Bitboard::from(Square::D5) | Square::D6 | Square::D7 | Square::D8;
        let cleared = Bitboard::from(Square::D5);
        let assumed = Fixpoint { regions, cleared, reachable: [Bitboard::EMPTY; 2], frozen: Bitboard::EMPTY };
        let capture = pos.parse_uci("d5e6").unwrap();
        assert!(!pos.play(capture).is_stalemate());
        assert!(!capture_is_terminal(board, &Castlings::default(), &assumed, Square::E6));
    }

    /// A pawn that cannot have promoted (its region misses its last rank)
    /// takes only as a pawn: in `k1b5/1p1p4/1P1P4/8/8/2B5/8/K5B1 w` the
    /// white pawn of b6 is a knight's move from c8, but it never stands on
    /// b7 or d7, so it never takes the bishop there. The only capturer is
    /// White's king, from d8 or c7 with Black's king on a8 (on b8 it guards
    /// c8), and that capture stalemates Black. So the bishop and the four
    /// pawns are never cleared. Counting the pawn as a queen or a knight
    /// on its square, as if it might have promoted, let it "take" c8 from
    /// b6 and freed every piece.
    #[test]
    fn a_pawn_that_cannot_have_promoted_takes_as_a_pawn() {
        let pos: Position = "k1b5/1p1p4/1P1P4/8/8/2B5/8/K5B1 w - -".parse().unwrap();
        let board = pos.board();
        let assumed = every_piece_fixed(board);
        assert!(capture_is_terminal(board, &Castlings::default(), &assumed, Square::C8));
        let mobility = crate::Mobility::compute(&pos).unwrap();
        for square in [Square::C8, Square::B7, Square::D7, Square::B6, Square::D6] {
            assert_eq!(mobility.region(square), Bitboard::from(square), "{square:?}");
        }
        // The same capture as it is played: with Black's king on a8 it is
        // stalemate.
        let walked: Position = "k1bK4/1p1p4/1P1P4/8/8/2B5/8/6B1 w - -".parse().unwrap();
        assert!(walked.play(walked.parse_uci("d8c8").unwrap()).is_stalemate());
        // With a light-squared bishop of White's, which a pawn can take on
        // a6, the pawns are free again (and Black mates: the static check's
        // tests replay it).
        let light: Position = "k1b5/1p1p4/1P1P4/8/8/2B5/8/K4B2 w - -".parse().unwrap();
        assert_ne!(crate::Mobility::compute(&light).unwrap().region(Square::B7), Bitboard::from(Square::B7));
    }

    #[test]
    fn rays_beyond() {
        let stop = Bitboard::from(Square::F6);
        assert_eq!(ray_beyond(Square::C3, Square::D4, stop), Bitboard::from(Square::E5) | Square::F6);
        assert_eq!(ray_beyond(Square::A1, Square::A2, Bitboard::EMPTY).count(), 6);
        assert_eq!(ray_beyond(Square::H8, Square::G8, Bitboard::EMPTY).count(), 6);
    }
}
