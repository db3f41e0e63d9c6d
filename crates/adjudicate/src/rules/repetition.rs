//! The repetition rules, with positions compared as in **Art. 9.2.3**
//! ([`PositionId`]):
//!
//! * **Art. 9.2.1** (claimable): "The game is drawn, upon a correct claim
//!   by a player having the move, when the same position for at least the
//!   third time (not necessarily by a repetition of moves): 9.2.1.1 is about
//!   to appear, if he first writes his move [...] and declares to the
//!   arbiter his intention to make this move, or 9.2.1.2 has just appeared,
//!   and the player claiming the draw has the move."
//! * **Art. 9.6.1** (automatic): "the game is drawn \[when\] the same position
//!   has appeared, as in 9.2.2 at least five times."
//!
//! [`Repetitions`] keeps the positions since the last irreversible change
//! (a capture, a pawn move, or a loss of castling rights): no position
//! before such a change can appear again, since material, pawns and rights
//! never come back. The start position of the game counts as an occurrence.

use movegen::{Move, Position};

use crate::identity::PositionId;

/// The positions of a game since its last irreversible change, with the
/// ply at which each appeared.
#[derive(Clone, Debug, Default)]
pub struct Repetitions {
    seen: Vec<(PositionId, usize)>,
    /// Whether some position in `seen` appeared at least twice.
    twice: bool,
}

impl Repetitions {
    /// An empty record.
    pub fn new() -> Repetitions {
        Repetitions::default()
    }

    /// Forgets every position (after an irreversible change).
    pub fn clear(&mut self) {
        self.seen.clear();
        self.twice = false;
    }

    /// Records that `pos` appeared at `ply`; returns how many times it has
    /// appeared now (1 the first time).
    pub fn push(&mut self, pos: &Position, ply: usize) -> usize {
        let id = PositionId::new(pos);
        let count = 1 + self.count_id(&id);
        self.seen.push((id, ply));
        self.twice |= count >= 2;
        count
    }

    /// How many times `pos` has appeared.
    pub fn count(&self, pos: &Position) -> usize {
        self.count_id(&PositionId::new(pos))
    }

    fn count_id(&self, id: &PositionId) -> usize {
        // Exact comparison after the key filter (see `PositionId`).
        self.seen.iter().filter(|(seen, _)| seen.key == id.key && seen == id).count()
    }

    /// The plies at which `pos` appeared.
    pub fn plies(&self, pos: &Position) -> Vec<usize> {
        let id = PositionId::new(pos);
        self.seen.iter().filter(|(seen, _)| *seen == id).map(|&(_, ply)| ply).collect()
    }

    /// Art. 9.2.1.1: a legal move of `pos` (the current position) that
    /// would make some position appear for the third time.
    ///
    /// ```
    /// use adjudicate::rules::repetition::Repetitions;
    /// use movegen::Position;
    /// let mut reps = Repetitions::new();
    /// let mut pos = Position::start();
    /// reps.push(&pos, 0);
    /// let mut ply = 0;
    /// // Nf3 Nf6 Ng1 Ng8, twice: the start position appears a third time
    /// // after the last Ng8, and White could claim one ply earlier, before
    /// // Black's Ng8, on Black's turn: Black writes Ng8 and claims.
    /// for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
    ///     pos = pos.play(pos.parse_san(san).unwrap());
    ///     ply += 1;
    ///     reps.push(&pos, ply);
    /// }
    /// let claim = reps.claim_by_move(&pos).unwrap();
    /// assert_eq!(pos.san(claim), "Ng8");
    /// ```
    pub fn claim_by_move(&self, pos: &Position) -> Option<Move> {
        if !self.twice {
            return None;
        }
        pos.legal_moves().iter().copied().find(|&m| self.count(&pos.play(m)) >= 2)
    }
}

/// Art. 9.2.1.2: the position has just appeared for at least the third time.
pub const fn threefold(count: usize) -> bool {
    count >= 3
}

/// Art. 9.6.1: the position has appeared at least five times.
pub const fn fivefold(count: usize) -> bool {
    count >= 5
}
