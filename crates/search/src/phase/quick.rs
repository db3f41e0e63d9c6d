//! The quick algorithm's search (paper Figure 10, step 2): a depth-first
//! search that stops at the first mate or as soon as any line reaches depth
//! `D`.
//!
//! **Soundness.** It answers [`Quick::Complete`] only when every line ended
//! (game over, or insufficient material, checked after the game-over test)
//! within `D` plies without a mate by the winner: then no mate is
//! reachable. A line cut at depth `D` or by a limit answers
//! [`Quick::Interrupted`], which proves nothing.

use movegen::{Color, Move, MoveList, Position};
use static_check::insufficient_material;

use crate::meter::Meter;

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Quick {
    /// A helpmate (from the start).
    Mate(Vec<Move>),
    /// Every line ended within the depth without a mate.
    Complete,
    /// A line reached the depth, or a limit was hit.
    Interrupted,
}

/// Runs the search from `start` to `depth` plies.
pub(crate) fn run(meter: &mut Meter, start: &Position, winner: Color, depth: u32) -> Quick {
    let mut search = Dfs { winner, meter, path: Vec::new() };
    match search.dfs(start, depth) {
        Step::Mate => {
            search.path.reverse();
            Quick::Mate(search.path)
        }
        Step::Complete => Quick::Complete,
        Step::Interrupted => Quick::Interrupted,
    }
}

enum Step {
    Mate,
    Complete,
    Interrupted,
}

struct Dfs<'m> {
    winner: Color,
    meter: &'m mut Meter,
    /// On a mate, the moves in reverse order (pushed while unwinding: no
    /// allocation on the common path).
    path: Vec<Move>,
}

impl Dfs<'_> {
    fn dfs(&mut self, pos: &Position, depth_left: u32) -> Step {
        // The game-over test comes before the material rule (a position
        // with no legal move is judged as it stands), and both before the
        // move list is generated: most positions they end need no list.
        if !pos.has_legal_moves() {
            return self.game_over(pos);
        }
        if insufficient_material(pos, self.winner).is_some() {
            return Step::Complete;
        }
        if depth_left == 0 {
            // A line reached the depth: counted, and not proved either way.
            self.meter.tick();
            return Step::Interrupted;
        }
        if !self.meter.tick() {
            return Step::Interrupted;
        }
        let mut moves = MoveList::new();
        pos.generate_legal_moves(&mut moves);
        for &m in &moves {
            match self.dfs(&pos.play(m), depth_left - 1) {
                Step::Complete => {}
                Step::Mate => {
                    self.path.push(m);
                    return Step::Mate;
                }
                Step::Interrupted => return Step::Interrupted,
            }
        }
        Step::Complete
    }

    fn game_over(&self, pos: &Position) -> Step {
        if pos.is_check() && pos.side_to_move() != self.winner { Step::Mate } else { Step::Complete }
    }
}
