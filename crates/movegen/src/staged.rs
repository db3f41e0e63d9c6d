//! The legal moves of a position one stage at a time, in exactly the order
//! of [`Position::generate_legal_moves`]: for a caller that usually stops
//! after the first few moves (a depth-first search walking down its first
//! choices), the stages it never reaches are never generated.
//!
//! # Why the order is the same
//!
//! The full generator pushes the pseudo-legal moves stage by stage (pawns,
//! knights, bishops, rooks, queens, then the king and castling), an illegal
//! one as a placeholder, and then removes the placeholders by swap-remove
//! from the first one on ([`crate::movegen`]). The swap-remove never
//! touches an entry before the first placeholder. So while no stage has
//! pushed a placeholder, the moves generated so far are final: they stand
//! where the full generator leaves them. Here a stage is generated only
//! when the caller has taken every earlier move; the first stage that
//! pushes a placeholder has all the remaining stages pushed behind it and
//! the same swap-remove applied, which gives the full generator's list
//! (the same pushes in the same order, the same filter), of which only
//! entries from that stage on, not yet handed out, are still to come.
//!
//! A position in check is generated whole at once, when the first move is
//! asked for: the evasions put the king's moves (where the placeholders
//! usually are) first.

use crate::movegen::{Black, Pusher, Side, White};
use crate::{Color, Move, MoveList, Position, Role};

/// The legal moves of a position, generated a stage at a time as they are
/// taken ([`Iterator`]), in the order of [`Position::generate_legal_moves`].
///
/// ```
/// use movegen::{Position, StagedMoves};
/// let pos = Position::start();
/// let mut staged = StagedMoves::new(&pos);
/// assert_eq!(staged.next().map(|m| m.to_string()).as_deref(), Some("a2a3"));
/// // Taking all of them generates the rest: the full generator's list.
/// assert_eq!(staged.all(), pos.legal_moves().as_slice());
/// ```
#[derive(Clone, Debug)]
pub struct StagedMoves<'p> {
    pos: &'p Position,
    list: MoveList,
    /// The next entry of `list` to hand out.
    next: usize,
    /// The next stage to generate. (Between stages the list holds no
    /// placeholder: they are filtered out as soon as one is pushed.)
    stage: Stage,
}

/// A stage of generation, in the full generator's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Every move at once (in check: the evasions).
    Whole,
    Pawns,
    Knights,
    Bishops,
    Rooks,
    Queens,
    KingAndCastling,
    Done,
}

impl<'p> StagedMoves<'p> {
    /// The moves of `pos`; nothing is generated yet.
    #[inline]
    pub fn new(pos: &'p Position) -> StagedMoves<'p> {
        let stage = if pos.is_check() { Stage::Whole } else { Stage::Pawns };
        StagedMoves { pos, list: MoveList::new(), next: 0, stage }
    }

    /// The moves of `pos`, to be generated all at once when the first is
    /// asked for: for a caller that takes them all (one pass of the full
    /// generator costs less than its stages one by one).
    #[inline]
    pub fn whole(pos: &'p Position) -> StagedMoves<'p> {
        StagedMoves { pos, list: MoveList::new(), next: 0, stage: Stage::Whole }
    }

    /// Whether a move is left to take (generating stages until one is
    /// found or none is left). On a fresh list: whether the position has a
    /// legal move.
    #[inline]
    pub fn any_left(&mut self) -> bool {
        while self.next >= self.list.len() {
            if self.stage == Stage::Done {
                return false;
            }
            self.advance();
        }
        true
    }

    /// Every legal move of the position, in the full generator's order
    /// (the ones already taken included); generates the stages left.
    #[inline]
    pub fn all(&mut self) -> &[Move] {
        while self.stage != Stage::Done {
            self.advance();
        }
        &self.list
    }

    /// Generates the next stages, until one pushes a move or none is left
    /// (every stage left, once one pushes a placeholder; see the module
    /// docs).
    #[inline]
    fn advance(&mut self) {
        if self.stage == Stage::Whole {
            self.pos.generate_legal_moves(&mut self.list);
            self.stage = Stage::Done;
            return;
        }
        match self.pos.side_to_move() {
            Color::White => self.advance_for::<White>(),
            Color::Black => self.advance_for::<Black>(),
        }
    }

    #[inline(always)]
    fn advance_for<S: Side>(&mut self) {
        let pos = self.pos;
        let (board, target) = (pos.board(), !pos.us());
        let before = self.list.len();
        let mut pusher = Pusher::new(&mut self.list);
        loop {
            let stage = self.stage;
            self.stage = stage.next();
            // A stage without pieces pushes nothing: passed over.
            let role = match stage {
                Stage::Pawns => Role::Pawn,
                Stage::Knights => Role::Knight,
                Stage::Bishops => Role::Bishop,
                Stage::Rooks => Role::Rook,
                Stage::Queens => Role::Queen,
                Stage::KingAndCastling => Role::King,
                Stage::Whole | Stage::Done => break,
            };
            if (board.by_role(role) & !target).is_empty() {
                continue;
            }
            match stage {
                Stage::Pawns => pos.generate_pawns::<S, false>(&mut pusher, target),
                Stage::KingAndCastling => pos.generate_king_and_castling::<S>(&mut pusher),
                _ => pos.generate_piece_moves(&mut pusher, target, role),
            }
            // Done once a stage has pushed a move (or every stage has run),
            // unless it pushed a placeholder: then every stage is pushed.
            if pusher.first_illegal() == usize::MAX && (pusher.len() > before || self.stage == Stage::Done) {
                return;
            }
        }
        // A placeholder: every stage is pushed, and the full generator's
        // filter leaves its list.
        pusher.finish();
    }
}

impl Stage {
    #[inline(always)]
    fn next(self) -> Stage {
        match self {
            Stage::Pawns => Stage::Knights,
            Stage::Knights => Stage::Bishops,
            Stage::Bishops => Stage::Rooks,
            Stage::Rooks => Stage::Queens,
            Stage::Queens => Stage::KingAndCastling,
            Stage::KingAndCastling | Stage::Whole | Stage::Done => Stage::Done,
        }
    }
}

impl Iterator for StagedMoves<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if !self.any_left() {
            return None;
        }
        let m = self.list[self.next];
        self.next += 1;
        Some(m)
    }
}
