//! Move scoring of the helpmate search: the paper's Score (Figure 12) and
//! Going-to-corner (Figure 13).
//!
//! Scores only decide how deep a variation is explored (a rewarded move
//! extends the depth limit by one ply, a punished one shortens it by two);
//! they never remove a move from the search, so they cannot affect
//! soundness, only speed.

use movegen::{Bitboard, Color, Move, Position, Role, Square, attacks};

/// Squares the heuristics steer pieces towards, computed once per query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Targets {
    /// Squares on which the loser's king could be mated (empty: use the
    /// paper's corner).
    pub loser_king: Bitboard,
    /// The neighbours of those squares, where the loser's pieces block.
    pub blockers: Bitboard,
    /// Steer the winner's king towards those squares too.
    pub winner_king: bool,
}

impl Targets {
    /// The squares of the loser's king region on which the static analysis
    /// cannot rule out a mating net: where the king has to go to be mated.
    pub fn of(pos: &Position, winner: Color) -> Targets {
        let Ok(mobility) = mobility::Mobility::compute(pos) else { return Targets::default() };
        let region = mobility.region(pos.king_of(!winner));
        let loser_king: Bitboard = region
            .iter()
            .filter(|&s| {
                matches!(
                    static_check::mating_net::net_possible(&mobility, !winner, s),
                    static_check::mating_net::NetResult::Possible
                )
            })
            .collect();
        // A target set covering much of the board says nothing (the paper's
        // corner is then the better guide).
        if loser_king.count() > MAX_TARGETS {
            return Targets::default();
        }
        let blockers = loser_king.iter().map(attacks::king).fold(Bitboard::EMPTY, |acc, b| acc | b) - loser_king;
        Targets { loser_king, blockers, winner_king: false }
    }
}

/// Target sets larger than this are ignored.
const MAX_TARGETS: u32 = 16;

/// How promising a move is for reaching a helpmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Explore it one ply deeper than usual.
    Reward,
    /// The default.
    Normal,
    /// Explore it two plies less deep.
    Punish,
}

/// Knight distance between every pair of squares (moves of a knight on an
/// empty board), by breadth-first search at first use.
fn knight_distance(a: Square, b: Square) -> u32 {
    static TABLE: std::sync::OnceLock<Vec<[u8; 64]>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = vec![[u8::MAX; 64]; 64];
        for from in Square::ALL {
            let row = &mut table[from as usize];
            row[from as usize] = 0;
            let mut frontier = Bitboard::from(from);
            let mut seen = frontier;
            let mut distance = 0;
            while frontier.any() {
                distance += 1;
                let mut next = Bitboard::EMPTY;
                for square in frontier {
                    next |= attacks::knight(square);
                }
                next -= seen;
                for square in next {
                    row[square as usize] = distance;
                }
                seen |= next;
                frontier = next;
            }
        }
        table
    });
    u32::from(table[a as usize][b as usize])
}

/// Figure 13: whether moving the king or a knight with `m` brings it closer
/// to its post in a corner mating net (for the winner: king on h6/a6,
/// knight towards the corner; for the loser: king into the corner, knight
/// next to it as a blocker). The corner is h8 (dark) if the winner has
/// dark-squared bishops or the loser has light-squared bishops and the
/// winner none; otherwise a8. Seen from Black, the board is rotated.
pub fn going_to_corner(pos: &Position, m: Move, winner: Color, winning_side_moves: bool, targets: &Targets) -> bool {
    let board = pos.board();
    let from = m.from();
    let role = match board.role_at(from) {
        Some(role @ (Role::King | Role::Knight)) => role,
        _ => return false,
    };
    if role == Role::King && winning_side_moves && targets.loser_king.any() && targets.winner_king {
        let distance = |s: Square| targets.loser_king.iter().map(|t| s.distance(t)).min().unwrap_or(0);
        return distance(m.to()) < distance(from);
    }
    if role == Role::King && !winning_side_moves && targets.loser_king.any() {
        let distance = |s: Square| targets.loser_king.iter().map(|t| s.distance(t)).min().unwrap_or(0);
        return distance(m.to()) < distance(from);
    }
    let winner_bishops = board.pieces(winner, Role::Bishop);
    let loser_bishops = board.pieces(!winner, Role::Bishop);
    // "Dark" and "light" relative to the winner's corner: for White h8 is
    // dark; for Black the corners are rotated (h8 -> a1, dark as well).
    let dark_corner = (winner_bishops & Bitboard::DARK_SQUARES).any()
        || ((loser_bishops & Bitboard::LIGHT_SQUARES).any() && (winner_bishops & Bitboard::LIGHT_SQUARES).is_empty());
    let target = corner_target(dark_corner, winning_side_moves, role);
    let target = if winner == Color::Black { target.rotate_180() } else { target };
    if role == Role::King {
        m.to().distance(target) < from.distance(target)
    } else {
        knight_distance(m.to(), target) < knight_distance(from, target)
    }
}

/// The loser's king's corner square of Figure 13 in `pos`.
pub fn loser_king_corner(pos: &Position, winner: Color) -> Square {
    let board = pos.board();
    let winner_bishops = board.pieces(winner, Role::Bishop);
    let loser_bishops = board.pieces(!winner, Role::Bishop);
    let dark_corner = (winner_bishops & Bitboard::DARK_SQUARES).any()
        || ((loser_bishops & Bitboard::LIGHT_SQUARES).any() && (winner_bishops & Bitboard::LIGHT_SQUARES).is_empty());
    let target = corner_target(dark_corner, false, Role::King);
    if winner == Color::Black { target.rotate_180() } else { target }
}

/// Figure 13's target square (seen from White).
fn corner_target(dark_corner: bool, winning_side_moves: bool, role: Role) -> Square {
    match (dark_corner, winning_side_moves, role) {
        (true, true, Role::King) => Square::H6,
        (true, true, _) => Square::H8,
        (true, false, Role::King) => Square::H8,
        (true, false, _) => Square::G8,
        (false, true, Role::King) => Square::A6,
        (false, true, _) => Square::A8,
        (false, false, Role::King) => Square::A8,
        (false, false, _) => Square::B8,
    }
}

/// Whether the material is as in Lemma 5 or 6 *ignoring pawns*: the winner
/// has just a knight and the loser only pawns and queens, or the winner
/// only same-coloured bishops and the loser no knights and no bishops of
/// the other colour. Then the loser's pawn moves are promising (they may
/// promote into a piece that lets the winner mate).
fn lemma_like_material(pos: &Position, winner: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(winner) - board.kings();
    let theirs = board.by_color(!winner) - board.kings();
    if ours.count() == 1 && ours.is_subset(board.knights()) {
        return theirs.is_subset(board.pawns() | board.queens());
    }
    if ours.any() && ours.is_subset(board.bishops()) {
        let color = if ours.is_subset(Bitboard::LIGHT_SQUARES) {
            Bitboard::LIGHT_SQUARES
        } else if ours.is_subset(Bitboard::DARK_SQUARES) {
            Bitboard::DARK_SQUARES
        } else {
            return false;
        };
        return (theirs & board.knights()).is_empty() && (theirs & board.bishops() & !color).is_empty();
    }
    false
}

/// Figure 12: the score of the legal move `m` in `pos` for a search in
/// which `winner` tries to mate.
pub fn score(pos: &Position, m: Move, winner: Color, targets: &Targets) -> Score {
    let board = pos.board();
    let moving_pawn = board.pawns().contains(m.from());
    if pos.side_to_move() == winner {
        if pos.is_capture(m) || moving_pawn || going_to_corner(pos, m, winner, true, targets) {
            return Score::Reward;
        }
    } else {
        if lemma_like_material(pos, winner) {
            if matches!(m.promotion(), Some(Role::Queen | Role::Rook)) {
                return Score::Punish;
            } else if moving_pawn {
                return Score::Reward;
            }
        }
        if going_to_corner(pos, m, winner, false, targets) {
            return Score::Reward;
        }
        if !moving_pawn
            && targets.blockers.contains(m.to())
            && !targets.blockers.contains(m.from())
            && board.role_at(m.from()) != Some(Role::King)
        {
            return Score::Reward;
        }
        if pos.is_capture(m) {
            return Score::Punish;
        }
    }
    Score::Normal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_distances() {
        assert_eq!(knight_distance(Square::A1, Square::A1), 0);
        assert_eq!(knight_distance(Square::A1, Square::B3), 1);
        assert_eq!(knight_distance(Square::A1, Square::B2), 4);
        assert_eq!(knight_distance(Square::A1, Square::H8), 6);
    }

    #[test]
    fn scores_of_the_paper() {
        // White to mate: captures and pawn moves are rewarded.
        let pos: Position = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(score(&pos, pos.parse_uci("e4d5").unwrap(), Color::White, &Targets::default()), Score::Reward);
        assert_eq!(score(&pos, pos.parse_uci("e4e5").unwrap(), Color::White, &Targets::default()), Score::Reward);
        // Black (the loser) capturing is punished.
        let pos: Position = "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1".parse().unwrap();
        assert_eq!(score(&pos, pos.parse_uci("d5e4").unwrap(), Color::White, &Targets::default()), Score::Punish);
        // The loser's king walking into the a8 corner is rewarded.
        assert_eq!(score(&pos, pos.parse_uci("e8d8").unwrap(), Color::White, &Targets::default()), Score::Reward);
        assert_eq!(score(&pos, pos.parse_uci("e8f8").unwrap(), Color::White, &Targets::default()), Score::Normal);
    }
}
