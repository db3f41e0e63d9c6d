//! Pieces that never move: a case split on a piece that cannot move now but
//! may be captured.
//!
//! The fixpoint treats "cleared" as one fact: a piece that may be captured
//! opens its square to its allies, and an ally that may move away opens
//! its square to the piece. In a box of allies (a rook in the corner
//! behind its own king and bishop, the king held by enemy pawns) this lets
//! each piece out through the other's square, though every way out needs
//! the box to open while the piece is still there.
//!
//! **The split.** Take a piece `P` that is not a king and let `A_P` be the
//! fixpoint for the same games with `P` assumed never captured. If `P`'s
//! region in `A_P` is its own square, `P` never moves in any of those
//! games (nor in their prefixes): take a game in which `P` moves, and the
//! prefix that ends with `P`'s first move. `P` is alive until that move,
//! so the prefix is a game in which `P` is never captured; its positions
//! are within `A_P`'s regions (Lemma 8 for the narrowed games), and the
//! last of them has `P` off its square, outside its region: impossible.
//! The games narrowed by [`Games`] are closed under prefixes in the sense
//! needed here (a piece never captured in a game is never captured in its
//! prefixes; a prefix of a game ending in the winner's mate contains no
//! move that mates the winner), so the argument holds for them too. One
//! rule is not: the checks only a capture answers (`forced_captures`)
//! rule out a move of `P` because of the capture that would *follow* it,
//! which for `P`'s first move lies beyond the prefix; so that rule is not
//! applied to `P` in `A_P` (`Assumptions::spared_until_first_move`). It
//! still applies to the pieces never captured in the whole game.
//!
//! So `P` may be captured (where it stands) but never moves: the fixpoint
//! for the same games with `P` immobile over-approximates them, and its
//! regions are tighter. Pieces found immobile earlier are assumed immobile
//! when testing the next (a fact about every game of the class).
//!
//! Only pieces boxed in the position (no step onto an empty square or an
//! enemy), or in the games ending in the winner's mate pieces of the other
//! colour each of whose steps checks the winner's king directly, whose region in the plain fixpoint is larger than their square
//! and which an enemy region reaches are tried: the others move now, gain
//! nothing, or fail the test for sure (assuming a piece no enemy reaches
//! is never captured changes nothing). Which pieces are tried only costs
//! time; soundness rests on the test of each.

use movegen::{Bitboard, Board, Color, Position, Role, Square, attacks};

use crate::castling::Castlings;
use crate::fixpoint::{Assumptions, Rules, saturate, saturate_watching};
use crate::geometry::direct_attacks;
use crate::terminal;
use crate::{Games, NotApplicable};

/// The most pieces tried (each costs one fixpoint).
const MAX_TRIED: usize = 12;

/// The pieces of `pos` (kings excepted) that never move in `games` (they
/// may be captured where they stand), found by the case split of the
/// module docs; includes `games.immobile`. The precondition of
/// [`crate::Mobility::compute`] applies.
pub fn immobile_pieces(pos: &Position, rules: Rules, games: Games) -> Result<Bitboard, NotApplicable> {
    if let Some(square) = pos.legal_ep_square() {
        return Err(NotApplicable::EnPassant(square));
    }
    let board = pos.board();
    let castlings = Castlings::of(pos);
    let pieces = board.occupied() - board.kings();
    let mut immobile = games.immobile & pieces;
    let uncapturable = games.uncapturable & pieces;
    let plain = saturate(board, rules, Assumptions::of(Games { uncapturable, immobile, ..games }, castlings));
    // Where each colour's pieces (kings included) may stand.
    let reach = Color::ALL.map(|color| plain.regions.union_of(board.by_color(color)));
    // A piece no enemy can reach is never captured: assuming so changes
    // nothing, and the test would fail. Only pieces the plain fixpoint
    // lets move and lets be captured are tried.
    let candidates: Vec<Square> = (pieces - immobile - uncapturable)
        .iter()
        .filter(|&square| {
            let capturable = board.color_at(square).is_some_and(|color| reach[!color as usize].contains(square));
            capturable
                && plain.regions.moves(square)
                && (boxed(board, square) || games.mates_by.is_some_and(|winner| only_checks(board, square, winner)))
        })
        .take(MAX_TRIED)
        .collect();
    loop {
        let mut found = false;
        for &square in &candidates {
            if immobile.contains(square) {
                continue;
            }
            if stays_still(board, castlings, rules, games, uncapturable | square, immobile, square) {
                immobile |= square;
                found = true;
            }
        }
        if !found {
            return Ok(immobile);
        }
    }
}

/// Whether the piece on `square` keeps its square in the fixpoint for the
/// games narrowed to `uncapturable` and `immobile`: the plain fixpoint
/// first (abandoned as soon as the piece moves), then, for a piece of the
/// winner's opponent each of whose steps checks the winner's king
/// ([`only_checks`]), the fixpoint refined by the terminal rule (which
/// keeps still a piece each of whose moves mates the winner). Either is an
/// over-approximation of those games (the terminal rule's regions hold in
/// every position of a game that does not end in stalemate, and the games
/// covered here end in the winner's mate), so either may show the piece
/// immobile.
fn stays_still(
    board: &Board,
    castlings: Castlings,
    rules: Rules,
    games: Games,
    uncapturable: Bitboard,
    immobile: Bitboard,
    square: Square,
) -> bool {
    let watched = Bitboard::from(square);
    let narrowed = Games { uncapturable, immobile, ..games };
    // The piece is spared only up to its first move (module docs).
    let assumptions = Assumptions { spared_until_first_move: watched, ..Assumptions::of(narrowed, castlings) };
    let plain = saturate_watching(board, rules, assumptions, watched);
    if plain.is_some() {
        return true;
    }
    let Some(winner) = games.mates_by else { return false };
    if !rules.terminal_captures() || !only_checks(board, square, winner) {
        return false;
    }
    let base = saturate(board, rules, assumptions);
    !terminal::refine(board, rules, assumptions, base).regions.moves(square)
}

/// Whether the piece on `square`, of the colour other than `winner`, has
/// steps, and each of them (onto an empty square or an enemy) attacks
/// `winner`'s king directly: a piece whose moves may all mate the winner,
/// which the terminal rule then keeps still once it is assumed never
/// captured.
fn only_checks(board: &Board, square: Square, winner: Color) -> bool {
    let Some(piece) = board.piece_at(square) else { return false };
    let Some(king) = board.king_of(winner) else { return false };
    if piece.color == winner || piece.role == Role::King {
        return false;
    }
    let occupied = board.occupied();
    let steps = match piece.role {
        Role::Pawn => {
            let push = Bitboard::from(square).forward(piece.color) - occupied;
            push | (attacks::pawn(piece.color, square) & board.by_color(winner))
        }
        role => attacks::attacks(role, piece.color, square, occupied) - board.by_color(piece.color),
    };
    steps.any() && steps.iter().all(|d| direct_attacks(piece.role, piece.color, d).contains(king))
}

/// Whether the piece on `square` has no step onto an empty square nor onto
/// an enemy in the position (a pawn: its push square is occupied and no
/// enemy stands where it captures).
fn boxed(board: &Board, square: Square) -> bool {
    let Some(piece) = board.piece_at(square) else { return false };
    let occupied = board.occupied();
    let ours = board.by_color(piece.color);
    match piece.role {
        Role::Pawn => {
            let push = Bitboard::from(square).forward(piece.color);
            let captures = attacks::pawn(piece.color, square) & board.by_color(!piece.color);
            (push - occupied).is_empty() && captures.is_empty()
        }
        role => (attacks::attacks(role, piece.color, square, occupied) - ours).is_empty(),
    }
}
