//! Positions the move rules can handle but that no game can reach.
//!
//! [`Position::from_setup`](crate::Position::from_setup) rejects what the
//! move rules cannot handle (a missing king, the side not to move in
//! check, a pawn on a back rank, castling rights or an en passant square
//! that the board contradicts). Some positions pass those tests and are
//! still impossible in a game: [`unreachable()`] names them, with the reason
//! ([`Unreachable`]):
//!
//! * more than eight pawns of a colour;
//! * more pieces than promotions allow: every piece beyond the initial set
//!   (one queen, two rooks, two knights, one light-squared and one
//!   dark-squared bishop) is a promoted pawn, so the extra pieces of a
//!   colour cannot outnumber its missing pawns;
//! * more than two checkers;
//! * a check that no last move could have given: the side to move is in
//!   check, and no move of the other side (a move, a capture, a
//!   promotion, en passant or castling) leads here from a position where
//!   the side to move was not in check. With an en passant square, the
//!   last move was the double step behind it, and only that one counts.
//!
//! These are facts about the past, not about the future: a flagged
//! position is still analysed (composers set up such positions on
//! purpose), and the analysis of its future is as sound as any other.
//! Only a caller that asks to be strict rejects it.
//!
//! When in doubt, a rule counts a last move as possible (an un-capture
//! may put any piece on the square, the position before need not be
//! reachable itself), so a flag is never raised for a position a game can
//! reach; it may stay silent on some that no game reaches (a deeper
//! retrograde analysis, of pawn structures and captures, is out of scope).
//!
//! ```
//! use movegen::{Setup, Unreachable, unreachable};
//!
//! // Nine white pawns.
//! let nine = Setup::from_fen("rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
//! assert_eq!(unreachable(&nine).len(), 1);
//! assert_eq!(unreachable(&nine)[0].to_string(), "white has 9 pawns (a game has at most 8)");
//!
//! // Two rooks check on one rank: no single move could have uncovered both.
//! let rooks = Setup::from_fen("R3k2R/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
//! assert!(matches!(unreachable(&rooks)[..], [Unreachable::ImpossibleCheck { .. }]));
//!
//! // The start position is reachable.
//! assert!(unreachable(&Setup::start()).is_empty());
//! ```

use core::fmt;

use crate::{Bitboard, Board, Castling, Color, Piece, Rank, Role, Setup, Square, attacks};

/// Why a position cannot arise in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unreachable {
    /// A colour has more than eight pawns.
    TooManyPawns {
        /// The colour.
        color: Color,
        /// Its pawns.
        count: u32,
    },
    /// A colour has more pieces beyond the initial set than it has missing
    /// pawns to promote.
    TooManyPieces {
        /// The colour.
        color: Color,
        /// Its pieces beyond the initial set.
        extra: u32,
        /// Its missing pawns (eight less those on the board).
        missing_pawns: u32,
    },
    /// The side to move is in check by more than two pieces.
    TooManyCheckers {
        /// The checkers.
        checkers: Bitboard,
    },
    /// The side to move is in check, and no last move of the other side
    /// could have given that check.
    ImpossibleCheck {
        /// The checkers.
        checkers: Bitboard,
    },
}

impl Unreachable {
    /// A stable name: `too-many-pawns`, `too-many-pieces`,
    /// `too-many-checkers`, `impossible-check`.
    pub fn name(&self) -> &'static str {
        match self {
            Unreachable::TooManyPawns { .. } => "too-many-pawns",
            Unreachable::TooManyPieces { .. } => "too-many-pieces",
            Unreachable::TooManyCheckers { .. } => "too-many-checkers",
            Unreachable::ImpossibleCheck { .. } => "impossible-check",
        }
    }
}

fn squares(set: Bitboard) -> String {
    set.into_iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unreachable::TooManyPawns { color, count } => {
                write!(f, "{color} has {count} pawns (a game has at most 8)")
            }
            Unreachable::TooManyPieces { color, extra, missing_pawns } => write!(
                f,
                "{color} has {extra} piece{} more than the initial set but only {missing_pawns} missing pawn{} to \
                 promote",
                if extra == 1 { "" } else { "s" },
                if missing_pawns == 1 { "" } else { "s" },
            ),
            Unreachable::TooManyCheckers { checkers } => {
                write!(
                    f,
                    "{} pieces give check at once ({}; a move gives at most two checks)",
                    checkers.count(),
                    squares(checkers)
                )
            }
            Unreachable::ImpossibleCheck { checkers } => write!(
                f,
                "no last move could have given the check by {} {}",
                if checkers.more_than_one() { "the pieces on" } else { "the piece on" },
                squares(checkers)
            ),
        }
    }
}

/// The reasons why the position of `setup` cannot arise in a game (empty:
/// none found). `setup` is expected to pass
/// [`Position::from_setup`](crate::Position::from_setup): the rules assume
/// one king of each colour, and they read its en passant square as given.
pub fn unreachable(setup: &Setup) -> Vec<Unreachable> {
    let mut reasons = Vec::new();
    for color in Color::ALL {
        material(&setup.board, color, &mut reasons);
    }
    if let Some(reason) = check(setup) {
        reasons.push(reason);
    }
    reasons
}

/// Whether [`unreachable()`] finds nothing.
pub fn is_reachable(setup: &Setup) -> bool {
    unreachable(setup).is_empty()
}

/// The material rules of `color`: at most eight pawns, and no more pieces
/// beyond the initial set than missing pawns. A pawn can only become one
/// piece, by promotion; no piece ever becomes another otherwise; and the
/// initial set's bishops stand one on a light and one on a dark square,
/// which they never leave.
fn material(board: &Board, color: Color, reasons: &mut Vec<Unreachable>) {
    let count = |role| board.pieces(color, role).count();
    let pawns = count(Role::Pawn);
    if pawns > 8 {
        reasons.push(Unreachable::TooManyPawns { color, count: pawns });
    }
    let bishops = board.pieces(color, Role::Bishop);
    let light = (bishops & Bitboard::LIGHT_SQUARES).count();
    let dark = bishops.count() - light;
    let extra = count(Role::Queen).saturating_sub(1)
        + count(Role::Rook).saturating_sub(2)
        + count(Role::Knight).saturating_sub(2)
        + light.saturating_sub(1)
        + dark.saturating_sub(1);
    let missing_pawns = 8u32.saturating_sub(pawns);
    if extra > missing_pawns {
        reasons.push(Unreachable::TooManyPieces { color, extra, missing_pawns });
    }
}

/// The check rules: at most two checkers, and some last move of the other
/// side that gave the check ([`last_moves_gave_check`], [`double_step_gave_check`]).
fn check(setup: &Setup) -> Option<Unreachable> {
    let board = &setup.board;
    let us = setup.side_to_move;
    let king = board.king_of(us)?;
    let checkers = board.attackers_to(king, board.occupied()) & board.by_color(!us);
    if checkers.is_empty() {
        return None;
    }
    if checkers.count() > 2 {
        return Some(Unreachable::TooManyCheckers { checkers });
    }
    let possible = match setup.en_passant {
        Some(square) => double_step_gave_check(board, us, king, square),
        None => last_moves_gave_check(board, us, king, setup.castling_files.is_chess960()),
    };
    (!possible).then_some(Unreachable::ImpossibleCheck { checkers })
}

/// A position before the last move: the board, and the squares where the
/// last move captured (an un-capture may put a piece of ours there, which
/// blocks lines through it; which piece does not matter for the attacks on
/// our king, as none of ours attacks it).
struct Before {
    board: Board,
    blocker: Option<Square>,
}

impl Before {
    /// Whether our king on `king` was attacked before the last move by
    /// `them` (if it was, `them` could have captured it: that position
    /// cannot have been, and neither can this last move).
    fn king_attacked(&self, king: Square, them: Color) -> bool {
        let occupied = match self.blocker {
            Some(square) => self.board.occupied().with(square),
            None => self.board.occupied(),
        };
        self.board.is_attacked_by(king, them, occupied)
    }
}

/// With the en passant square `ep`, the last move was the double step of
/// the pawn in front of it: whether our king was not in check before it.
fn double_step_gave_check(board: &Board, us: Color, king: Square, ep: Square) -> bool {
    let them = !us;
    let forward: i32 = if them.is_white() { 8 } else { -8 };
    let (Some(pushed), Some(origin)) = (ep.offset(forward), ep.offset(-forward)) else { return false };
    let mut before = *board;
    before.remove_piece_at(pushed);
    before.set_piece_at(origin, Piece::new(them, Role::Pawn));
    !Before { board: before, blocker: None }.king_attacked(king, them)
}

/// Whether some move of `!us` leads to `board` from a position where our
/// king was not in check (see the module documentation for the moves;
/// `chess960`: a castling may have started with the king and the rook on
/// any squares of the first rank).
fn last_moves_gave_check(board: &Board, us: Color, king: Square, chess960: bool) -> bool {
    let them = !us;
    let empty = !board.occupied();
    let forward: i32 = if them.is_white() { 8 } else { -8 };
    let mut found = false;
    let mut try_before = |before: Before| {
        if !found && !before.king_attacked(king, them) {
            found = true;
        }
    };
    for to in board.by_color(them) {
        let Some(piece) = board.piece_at(to) else { continue };
        let mut moved = *board;
        moved.remove_piece_at(to);
        // Where the piece can have come from by a move of its own kind.
        let origins = match piece.role {
            Role::Pawn => pawn_origins(board, them, to, forward),
            Role::Knight => attacks::knight(to) & empty,
            Role::King => attacks::king(to) & empty,
            role => attacks::attacks(role, them, to, board.occupied()) & empty,
        };
        for from in origins {
            let mut before = moved;
            before.set_piece_at(from, piece);
            // A pawn's straight step captures nothing; everything else may
            // have captured a piece of ours on `to`.
            let quiet_pawn = piece.role == Role::Pawn && from.file() == to.file();
            try_before(Before { board: before, blocker: (!quiet_pawn).then_some(to) });
        }
        // A promotion: a pawn from the seventh rank, straight or capturing.
        if piece.role != Role::Pawn && piece.role != Role::King && to.rank() == Rank::Eighth.relative_to(them) {
            for (delta, captures) in [(0, false), (-1, true), (1, true)] {
                let Some(from) = step(to, -forward, delta) else { continue };
                if !empty.contains(from) {
                    continue;
                }
                let mut before = moved;
                before.set_piece_at(from, Piece::new(them, Role::Pawn));
                try_before(Before { board: before, blocker: captures.then_some(to) });
            }
        }
        // En passant: the pawn captured our pawn that had just passed `to`
        // in a double step from the square beyond it.
        if piece.role == Role::Pawn && to.rank() == Rank::Sixth.relative_to(them) {
            let (Some(captured), Some(start)) = (to.offset(-forward), to.offset(forward)) else { continue };
            if !empty.contains(captured) || !empty.contains(start) {
                continue;
            }
            for delta in [-1, 1] {
                let Some(from) = step(to, -forward, delta) else { continue };
                if !empty.contains(from) {
                    continue;
                }
                let mut before = moved;
                before.set_piece_at(from, piece);
                before.set_piece_at(captured, Piece::new(us, Role::Pawn));
                try_before(Before { board: before, blocker: None });
            }
        }
        // Castling: the king on the c or g file, the rook beside it; both
        // back on their squares, which must be empty now.
        if piece.role == Role::King && to.rank() == Rank::First.relative_to(them) {
            castling_before(board, them, to, chess960, &mut try_before);
        }
    }
    found
}

/// The square `ranks` ranks (in steps of eight squares, signed) and
/// `files` files away from `square`, if on the board.
fn step(square: Square, ranks: i32, files: i32) -> Option<Square> {
    let file = square.file().index() as i32 + files;
    if !(0..8).contains(&file) {
        return None;
    }
    square.offset(ranks + files)
}

/// Where a pawn of `them` now on `to` can have come from (not counting en
/// passant): a step or double step straight ahead onto an empty square,
/// or a capture; never from a back rank.
fn pawn_origins(board: &Board, them: Color, to: Square, forward: i32) -> Bitboard {
    let empty = !board.occupied();
    let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
    let mut origins = Bitboard::EMPTY;
    if let Some(one) = to.offset(-forward) {
        origins = origins.with(one);
        if to.rank() == Rank::Fourth.relative_to(them) && empty.contains(one) {
            if let Some(two) = one.offset(-forward) {
                origins = origins.with(two);
            }
        }
    }
    for delta in [-1, 1] {
        if let Some(from) = step(to, -forward, delta) {
            origins = origins.with(from);
        }
    }
    origins & empty & !back_ranks
}

/// The positions before a castling that ended with the king of `them` on
/// `to` (the c- or g-file) and the rook beside it (d or f): king and rook
/// back on their squares (e1 and the corner, or in Chess960 any two squares
/// of the first rank with the rook on that side of the king), which must be
/// empty now unless the castling pieces stand there, the squares the
/// castling needed empty empty before it, and the king neither in check
/// nor crossing an attacked square.
fn castling_before(board: &Board, them: Color, to: Square, chess960: bool, try_before: &mut impl FnMut(Before)) {
    let back = Rank::First.relative_to(them);
    let on = |file: u32| Square::from_coords(crate::File::new(file), back);
    let rook = Piece::new(them, Role::Rook);
    let (king_side, rook_now) = match to.file().char() {
        'g' => (true, on(5)),
        'c' => (false, on(3)),
        _ => return,
    };
    if board.piece_at(rook_now) != Some(rook) {
        return;
    }
    let castling = Castling { color: them, king_side };
    let standard = [(on(4), if king_side { on(7) } else { on(0) })];
    let origins: Vec<(Square, Square)> = if chess960 {
        (0..8)
            .flat_map(|king| (0..8).map(move |rook| (king, rook)))
            .filter(|&(king, rook)| (rook > king) == king_side && rook != king)
            .map(|(king, rook)| (on(king), on(rook)))
            .collect()
    } else {
        standard.to_vec()
    };
    let free_now = |square: Square| !board.occupied().contains(square) || square == to || square == rook_now;
    for (king_from, rook_from) in origins {
        if !free_now(king_from) || !free_now(rook_from) {
            continue;
        }
        let mut before = *board;
        before.remove_piece_at(to);
        before.remove_piece_at(rook_now);
        before.set_piece_at(king_from, Piece::new(them, Role::King));
        before.set_piece_at(rook_from, rook);
        let path = castling.path(king_from, rook_from);
        if (path.empty & before.occupied()).any() {
            continue;
        }
        // The king may not castle out of or through check.
        let without_king = before.occupied().without(king_from);
        if (path.crossed | king_from).into_iter().any(|square| before.is_attacked_by(square, !them, without_king)) {
            continue;
        }
        try_before(Before { board: before, blocker: None });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons(fen: &str) -> Vec<&'static str> {
        let setup = Setup::from_fen(fen).unwrap();
        assert!(crate::Position::from_setup(setup).is_ok(), "{fen} is rejected");
        unreachable(&setup).iter().map(Unreachable::name).collect()
    }

    /// The issue's three examples, each with its reason.
    #[test]
    fn the_issues_examples() {
        assert_eq!(reasons("rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), ["too-many-pawns"]);
        // Nine queens and eight pawns: 17 white men, 8 extra pieces and
        // no missing pawn; the black king is in check by three queens.
        assert_eq!(reasons("QQQQk3/QQQQQ3/8/8/8/8/PPPPPPPP/4K3 b - - 0 1"), ["too-many-pieces", "too-many-checkers"]);
        assert_eq!(reasons("R3k2R/8/8/8/8/8/8/4K3 b - - 0 1"), ["impossible-check"]);
    }

    /// The material rule counts pieces beyond the initial set against the
    /// missing pawns, bishops by the colour of their squares.
    #[test]
    fn promotions_account_for_every_extra_piece() {
        // Two queens and eight pawns: one extra piece, no missing pawn.
        assert_eq!(reasons("3qk3/8/8/8/8/8/PPPPPPPP/2QQK3 w - - 0 1"), ["too-many-pieces"]);
        // Two queens and seven pawns: the pawn that promoted is missing.
        assert!(reasons("3qk3/8/8/8/8/8/1PPPPPPP/2QQK3 w - - 0 1").is_empty());
        // Two light-squared bishops (f1, d3) and eight pawns.
        assert_eq!(reasons("4k3/8/8/8/8/3B4/PPPPPPPP/4KB2 w - - 0 1"), ["too-many-pieces"]);
        // A light and a dark one (f1, c1) are the initial pair.
        assert!(reasons("4k3/8/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1").is_empty());
        // Three black knights, three rooks, eight pawns... and Black
        // missing two pawns for two extra pieces.
        assert_eq!(reasons("rnnnkrr1/pppppppp/8/8/8/8/8/4K3 w - - 0 1"), ["too-many-pieces"]);
        assert!(reasons("rnnnkrr1/pppppp2/8/8/8/8/8/4K3 w - - 0 1").is_empty());
        let setup = Setup::from_fen("4k3/8/8/8/8/3B4/PPPPPPPP/4KB2 w - - 0 1").unwrap();
        assert_eq!(
            unreachable(&setup)[0].to_string(),
            "white has 1 piece more than the initial set but only 0 missing pawns to promote"
        );
    }

    /// Checks that a last move explains, and checks that none does.
    #[test]
    fn checks_need_a_last_move_that_gave_them() {
        for fen in [
            // A rook moved to e1 (or captured there).
            "4k3/8/8/8/8/8/8/3KR3 b - - 0 1",
            // A discovered double check: the knight left e4 for f6.
            "4k3/8/5N2/8/8/8/8/3KR3 b - - 0 1",
            // A knight's check: it came from any empty square.
            "4k3/8/3N4/8/8/8/8/4K3 b - - 0 1",
            // A pawn's check after a step, a capture or a double step.
            "8/8/8/8/4k3/3P4/8/4K3 b - - 0 1",
            // A queen's check along the rank.
            "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1",
            // A double check that only a promotion explains: exd8=Q+,
            // uncovering the rook on e1 (a queen from d7 or e7 would have
            // been in check before, or left the rook's check there).
            "3Qk3/8/8/8/8/8/8/K3R3 b - - 0 1",
            // A pawn's capture from e5 to d6 gives check and uncovers the
            // rook on e1 (exd6, en passant or not).
            "8/4k3/3P4/8/8/8/8/K3R3 b - - 0 1",
            // A rook's check along the f file: it came along the first
            // rank, or castled.
            "5k2/8/8/8/8/8/8/5RK1 b - - 0 1",
            // Black gives check: the rook came down from a8.
            "4k3/8/8/8/8/8/8/r3K3 w - - 0 1",
        ] {
            assert!(reasons(fen).is_empty(), "{fen}: {:?}", reasons(fen));
        }
        for fen in [
            // Two rooks on the king's rank, on both sides.
            "R3k2R/8/8/8/8/8/8/4K3 b - - 0 1",
            // Two knights: a knight's move uncovers nothing of a knight.
            "4k3/2N5/5N2/8/8/8/8/4K3 b - - 0 1",
            // A white pawn on its own second rank checks: it never moved,
            // and a pawn's check cannot be uncovered.
            "8/8/8/8/8/3k4/4P3/4K3 b - - 0 1",
            // Three checkers.
            "R3k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
        ] {
            assert!(!reasons(fen).is_empty(), "{fen}");
        }
        assert_eq!(reasons("R3k3/8/3N4/8/8/8/8/4RK2 b - - 0 1"), ["too-many-checkers"]);
    }

    /// With an en passant square, only the double step counts: a check by
    /// another piece that the step did not uncover is impossible.
    #[test]
    fn an_en_passant_square_names_the_last_move() {
        // After e2-e4, the queen on a5 checks along the fifth rank, as it
        // did before the step.
        assert_eq!(reasons("8/8/8/Q6k/4P3/8/8/4K3 b - e3 0 1"), ["impossible-check"]);
        // Without the en passant square some other last move explains it.
        assert!(reasons("8/8/8/Q6k/4P3/8/8/4K3 b - - 0 1").is_empty());
        // The double step itself gives check: f2-f4 with the king on g5.
        assert!(reasons("8/8/8/6k1/5P2/8/8/4K3 b - f3 0 1").is_empty());
        // The bishop on a2 checks g8 through d5: d2-d4 did not uncover it.
        assert_eq!(reasons("6k1/8/8/8/3P4/8/B7/4K3 b - d3 0 1"), ["impossible-check"]);
    }
}
