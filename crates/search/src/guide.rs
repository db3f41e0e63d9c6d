//! Move guidance of the helpmate searches: the paper's Score (Figure 12)
//! and Going-to-corner (Figure 13), steered by mating-square targets from
//! the static analysis, computed once per query ([`Guide`]) and once per
//! node ([`NodeGuide`]) so that scoring a move is a few table lookups.
//!
//! Scores only decide how deep a variation is explored (a rewarded move
//! extends the depth limit by one ply, a punished one shortens it by two)
//! or in which order positions are expanded; they never remove a move from
//! a search, so they cannot affect soundness, only speed.

use movegen::{Bitboard, Color, Move, Position, Role, Square, attacks};

/// Squares the heuristics steer pieces towards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Targets {
    /// Squares on which the loser's king could be mated (empty: use the
    /// paper's corner).
    pub loser_king: Bitboard,
    /// The neighbours of those squares, where the loser's pieces block.
    pub blockers: Bitboard,
    /// Steer the winner's king towards those squares too.
    pub winner_king: bool,
}

/// Target sets larger than this are ignored.
const MAX_TARGETS: u32 = 16;

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

/// How promising a move is for reaching a helpmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Score {
    /// Explore it one ply deeper than usual.
    Reward,
    /// The default.
    Normal,
    /// Explore it two plies less deep.
    Punish,
}

/// Knight distance between every pair of squares (moves of a knight on an
/// empty board).
fn knight_distance_table() -> &'static [[u8; 64]; 64] {
    static TABLE: std::sync::OnceLock<Box<[[u8; 64]; 64]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([[u8::MAX; 64]; 64]);
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
    })
}

/// Figure 13's target square seen from White: the corner is h8 (dark) or
/// a8 (light); the winner's king heads for the sixth rank next to it.
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

/// Everything about the query the scores need, computed once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Guide {
    winner: Color,
    targets: Targets,
    /// King distance of every square to the nearest loser-king target
    /// (unused when there are no targets).
    to_targets: [u8; 64],
    /// `distance[dark][side][role][square]`: distance of a king (role 0) or
    /// knight (role 1) on `square` to its Figure 13 corner target, for the
    /// light (0) or dark (1) corner, the loser's (0) or winner's (1) pieces.
    corner: [[[[u8; 64]; 2]; 2]; 2],
    /// `knight_closer[dark][side][from]`: the squares nearer than `from`
    /// to the knight's corner target of `corner` (Figure 13's test of a
    /// knight's move, as a set).
    knight_closer: [[[Bitboard; 64]; 2]; 2],
    /// The bishops' distances to the mating corner, in the later
    /// iterations' guide ([`Guide::later`]).
    bishops: Option<Box<BishopDistances>>,
    /// The winner may come to have a lone knight or bishop, in the later
    /// iterations' guide ([`Guide::later`]): where it has, a loser's piece
    /// stepping next to its own king is rewarded ([`NodeGuide::steered`]).
    walls: bool,
}

/// The number of bishop moves from each square to the mating corner of
/// Figure 13 (the loser's king's corner square, [`loser_king_corner`], and
/// its two neighbours on the edge: h8, g8 and h7 seen from White), through
/// squares on which no piece that can never move or be taken stands (the
/// mobility analysis's uncleared pieces), as the plan counts them
/// ([`crate::plan::distances`]; far where no bishop gets there). The idea
/// is CHA-Solver 3.0's (its last search phase steers bishops by such
/// distances): in composed positions the loser's bishops often walk to the
/// corner to wall their own king in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BishopDistances {
    distance: [u8; 64],
}

impl BishopDistances {
    /// The distances in `pos` for `winner`; `None` with fewer than
    /// [`BISHOP_STEERING_MIN`] bishops on the board or when the mobility
    /// analysis does not apply (an en passant capture).
    pub fn of(pos: &Position, winner: Color) -> Option<BishopDistances> {
        let board = pos.board();
        if board.bishops().count() < BISHOP_STEERING_MIN {
            return None;
        }
        let mobility = mobility::Mobility::compute(pos).ok()?;
        let steady = board.occupied() - mobility.cleared();
        let corner = loser_king_corner(pos, winner);
        let targets = Bitboard::from(corner) | (attacks::king(corner) & Bitboard::EDGES);
        Some(BishopDistances {
            distance: crate::plan::distances(winner, Role::Bishop, targets, Bitboard::FULL, steady),
        })
    }

    /// The distance of `square` to the corner.
    #[inline]
    pub fn of_square(&self, square: Square) -> u8 {
        self.distance[square as usize]
    }
}

/// The fewest bishops (of both sides) with which the later iterations
/// steer the loser's bishops ([`BishopDistances`]): the bishops' march is
/// a theme of composed positions full of them, and in the endings of real
/// games with one or two it only sends a bishop away
/// (docs/tuning.md#bishop-distances).
pub(crate) const BISHOP_STEERING_MIN: u32 = 3;

/// Whether the loser's king is mated in the dark corner (Figure 13): the
/// winner has a dark-squared bishop, or the loser a light-squared one and
/// the winner none.
fn dark_corner(board: &movegen::Board, winner: Color) -> bool {
    let winner_bishops = board.pieces(winner, Role::Bishop);
    let loser_bishops = board.pieces(!winner, Role::Bishop);
    (winner_bishops & Bitboard::DARK_SQUARES).any()
        || ((loser_bishops & Bitboard::LIGHT_SQUARES).any() && (winner_bishops & Bitboard::LIGHT_SQUARES).is_empty())
}

impl Guide {
    /// The guide of the later iterations: [`Guide::plain`]'s with the
    /// bishops' distances of `root` ([`BishopDistances`]), by which a
    /// loser's bishop going nearer the corner is rewarded, and, when the
    /// winner may come to have a lone knight or bishop
    /// ([`lone_minor_piece_ahead`]), the walls its king needs
    /// ([`NodeGuide::steered`]); `None` when `root` has neither (the plain
    /// guide serves).
    pub fn later(winner: Color, root: &Position) -> Option<Guide> {
        let bishops = BishopDistances::of(root, winner).map(Box::new);
        let walls = lone_minor_piece_ahead(root.board(), winner);
        (bishops.is_some() || walls).then(|| Guide { bishops, walls, ..Guide::plain(winner).clone() })
    }

    /// The guide for `winner` with the given targets.
    pub fn new(winner: Color, targets: Targets) -> Guide {
        let mut to_targets = [0u8; 64];
        for square in Square::ALL {
            to_targets[square as usize] =
                targets.loser_king.iter().map(|t| square.distance(t) as u8).min().unwrap_or(0);
        }
        let knights = knight_distance_table();
        let mut corner = [[[[0u8; 64]; 2]; 2]; 2];
        for (dark, by_dark) in corner.iter_mut().enumerate() {
            for (side, by_side) in by_dark.iter_mut().enumerate() {
                for (index, role) in [Role::King, Role::Knight].into_iter().enumerate() {
                    let target = corner_target(dark == 1, side == 1, role);
                    let target = if winner == Color::Black { target.rotate_180() } else { target };
                    for square in Square::ALL {
                        by_side[index][square as usize] = match role {
                            Role::King => square.distance(target) as u8,
                            _ => knights[square as usize][target as usize],
                        };
                    }
                }
            }
        }
        let mut knight_closer = [[[Bitboard::EMPTY; 64]; 2]; 2];
        for (dark, by_dark) in knight_closer.iter_mut().enumerate() {
            for (side, by_side) in by_dark.iter_mut().enumerate() {
                let distance = &corner[dark][side][1];
                for from in Square::ALL {
                    by_side[from as usize] =
                        Square::ALL.into_iter().filter(|&to| distance[to as usize] < distance[from as usize]).collect();
                }
            }
        }
        Guide { winner, targets, to_targets, corner, knight_closer, bishops: None, walls: false }
    }

    /// The guide for `winner` without targets (the paper's corner only): it
    /// depends on nothing but the winner, so it is built once per process
    /// and shared by every query (docs/tuning.md#plain-guide).
    pub fn plain(winner: Color) -> &'static Guide {
        static PLAIN: std::sync::OnceLock<[Guide; 2]> = std::sync::OnceLock::new();
        let guides = PLAIN.get_or_init(|| {
            [Guide::new(Color::White, Targets::default()), Guide::new(Color::Black, Targets::default())]
        });
        &guides[usize::from(winner == Color::Black)]
    }

    /// The targets.
    pub fn targets(&self) -> &Targets {
        &self.targets
    }

    /// This guide without the walls ([`Guide::later`]), to test what they
    /// change.
    #[cfg(test)]
    pub fn without_walls(&self) -> Guide {
        Guide { walls: false, ..self.clone() }
    }

    /// Whether this guide steers the loser's pieces in the later
    /// iterations ([`Guide::later`]).
    #[inline]
    fn steers(&self) -> bool {
        self.bishops.is_some() || self.walls
    }

    /// The per-node part of the scores for `pos`; with `loser_opens`, every
    /// pawn move of the loser is rewarded too, not only with the Lemma-like
    /// material of Figure 12 line 5 (the loser's promotions to a queen or a
    /// rook are still punished there), and the loser's other captures are
    /// no longer punished (Figure 12 line 9).
    ///
    /// Why. In locked positions the helpmate often begins with the loser's
    /// pawns: a pawn that captures or advances opens the chain, promotes,
    /// and its piece is given up to the winner's pawn, which then promotes
    /// to the mating piece (the other solver's helpmates of random edits of
    /// dev and hard positions, 30 to 90 plies, go this way). Figure 12
    /// counts those moves as normal and the loser's pawn captures as
    /// punished, so depth-limited iterations reached them late. Used from
    /// the full algorithm's second iteration on: the first keeps the
    /// paper's scores, since in the open positions of real games the
    /// change only lengthened the search (docs/tuning.md#loser-opens).
    ///
    /// Scores only decide how deep a variation is searched, never an
    /// answer.
    #[inline]
    pub fn node<'g>(&'g self, pos: &Position, loser_opens: bool) -> NodeGuide<'g> {
        let board = pos.board();
        let winner = self.winner;
        let winning_side_moves = pos.side_to_move() == winner;
        // "Dark" relative to the winner's corner: for White h8 is dark; for
        // Black the corners are rotated (h8 -> a1, dark as well).
        let dark_corner = dark_corner(board, winner);
        NodeGuide {
            guide: self,
            them: pos.them(),
            winning_side_moves,
            lemma_like: !winning_side_moves && lemma_like_material(pos, winner),
            loser_opens: loser_opens && !winning_side_moves,
            corner: &self.corner[usize::from(dark_corner)][usize::from(winning_side_moves)],
            knight_closer: &self.knight_closer[usize::from(dark_corner)][usize::from(winning_side_moves)],
        }
    }
}

/// The scores of the moves of one node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeGuide<'g> {
    guide: &'g Guide,
    them: Bitboard,
    winning_side_moves: bool,
    /// Lemma-like material (see [`lemma_like_material`]), loser to move.
    lemma_like: bool,
    /// The loser's pawn moves are rewarded and its captures not punished
    /// ([`Guide::node`]), loser to move.
    loser_opens: bool,
    /// Corner distances for king (0) and knight (1) of the side to move.
    corner: &'g [[u8; 64]; 2],
    /// The knight's squares nearer its corner target, by square
    /// ([`Guide::knight_closer`]), for the side to move.
    knight_closer: &'g [Bitboard; 64],
}

impl NodeGuide<'_> {
    /// Figure 13: whether moving the king or a knight with `m` brings it
    /// closer to its post (a loser-king target when there are targets, else
    /// the corner mating net of the figure).
    #[inline]
    fn going_to_corner(&self, m: Move, role: Role) -> bool {
        let (from, to) = (m.from() as usize, m.to() as usize);
        let targets = &self.guide.targets;
        match role {
            Role::King if targets.loser_king.any() && (!self.winning_side_moves || targets.winner_king) => {
                self.guide.to_targets[to] < self.guide.to_targets[from]
            }
            Role::King => self.corner[0][to] < self.corner[0][from],
            Role::Knight => self.corner[1][to] < self.corner[1][from],
            _ => false,
        }
    }

    /// The winner to move: of `targets`, the squares to which a move of
    /// the knight, bishop, rook or queen (`role`) on `from` scores Reward
    /// ([`NodeGuide::score`] of each such move, as a set): its captures,
    /// and a knight's steps towards its corner (Figure 13).
    #[inline]
    pub fn winner_rewarded_targets(&self, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        debug_assert!(
            self.winning_side_moves && matches!(role, Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
        );
        let captures = targets & self.them;
        if role == Role::Knight { captures | (targets & self.knight_closer[from as usize]) } else { captures }
    }

    /// The later iterations' steering of the loser's move `m` of a piece
    /// `role` ([`Guide::later`]): whether it is rewarded.
    ///
    /// - A bishop going nearer the corner may wall its own king in there
    ///   (docs/tuning.md#bishop-distances).
    /// - Against a lone knight or bishop the loser's king is mated only
    ///   where its own pieces take its flight squares, so a piece (not the
    ///   king) stepping next to its king from a square not next to it is
    ///   rewarded (docs/tuning.md#own-king-walls).
    ///
    /// Like every score, this only decides how deep a line is searched.
    #[inline(never)]
    fn steered(&self, pos: &Position, m: Move, role: Role) -> bool {
        if let Some(bishops) = &self.guide.bishops {
            if role == Role::Bishop && bishops.of_square(m.to()) < bishops.of_square(m.from()) {
                return true;
            }
        }
        if self.guide.walls && role != Role::King && lone_minor_piece(pos.board(), self.guide.winner) {
            let walls = attacks::king(pos.king_of(pos.side_to_move()));
            return walls.contains(m.to()) && !walls.contains(m.from());
        }
        false
    }

    /// Figure 12: the score of the legal move `m` of `pos` (the position
    /// this node's scores are of: [`Guide::node`]).
    #[inline(always)]
    pub fn score(&self, pos: &Position, m: Move) -> Score {
        debug_assert_eq!(pos.them(), self.them, "scored against another position");
        let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
        let moving_pawn = role == Role::Pawn;
        let capture = m.is_en_passant() || (!m.is_castle() && self.them.contains(m.to()));
        if self.winning_side_moves {
            if capture || moving_pawn || self.going_to_corner(m, role) {
                return Score::Reward;
            }
            return Score::Normal;
        }
        if self.lemma_like {
            if matches!(m.promotion(), Some(Role::Queen | Role::Rook)) {
                return Score::Punish;
            } else if moving_pawn {
                return Score::Reward;
            }
        }
        if self.going_to_corner(m, role) || (self.loser_opens && moving_pawn) {
            return Score::Reward;
        }
        // The later iterations' own steering (whose loser opens and whose
        // guide has it): out of line, so the first iteration's code is the
        // paper's alone (docs/tuning.md#own-king-walls).
        if self.loser_opens && self.guide.steers() && self.steered(pos, m, role) {
            return Score::Reward;
        }
        let blockers = self.guide.targets.blockers;
        if !moving_pawn && role != Role::King && blockers.contains(m.to()) && !blockers.contains(m.from()) {
            return Score::Reward;
        }
        if capture && !self.loser_opens {
            return Score::Punish;
        }
        Score::Normal
    }
}

/// Whether the winner's material is one knight or one bishop besides its
/// king and nothing else.
fn lone_minor_piece(board: &movegen::Board, winner: Color) -> bool {
    let ours = board.by_color(winner) - board.kings();
    ours.count() == 1 && (ours & (board.knights() | board.bishops())).any()
}

/// Whether a search from a root with this material may reach nodes where
/// the winner has a lone knight or bishop ([`lone_minor_piece`]): it has
/// no queen or rook and at most one knight or bishop (its pawns may be
/// taken; one promoting adds a piece).
fn lone_minor_piece_ahead(board: &movegen::Board, winner: Color) -> bool {
    let ours = board.by_color(winner);
    (ours & (board.queens() | board.rooks())).is_empty() && (ours & (board.knights() | board.bishops())).count() <= 1
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

/// The loser's king's corner square of Figure 13 in `pos`.
pub(crate) fn loser_king_corner(pos: &Position, winner: Color) -> Square {
    let target = corner_target(dark_corner(pos.board(), winner), false, Role::King);
    if winner == Color::Black { target.rotate_180() } else { target }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared guide without targets is the one each query used to build.
    #[test]
    fn the_shared_plain_guide_is_the_one_built_per_query() {
        for winner in [Color::White, Color::Black] {
            assert_eq!(Guide::plain(winner), &Guide::new(winner, Targets::default()));
            assert_eq!(Guide::plain(winner).winner, winner);
        }
    }

    /// The bishops' distances, counted by hand on a board where every
    /// piece can move (so none blocks): White mates with a dark bishop, so
    /// in the corner h8 (with g8 and h7, distance 0); c3 and d5 are one
    /// bishop move from it, e1 (via c3) and a8 (via d5) two. With fewer
    /// than three bishops on the board there are none.
    #[test]
    fn bishop_distances_count_the_moves_to_the_corner() {
        let pos: Position = "7k/8/8/8/8/8/8/K1B1b1b1 w - -".parse().unwrap();
        let bishops = BishopDistances::of(&pos, Color::White).expect("three bishops");
        for (square, distance) in [
            (Square::H8, 0),
            (Square::G8, 0),
            (Square::H7, 0),
            (Square::C3, 1),
            (Square::D5, 1),
            (Square::E1, 2),
            (Square::A8, 2),
        ] {
            assert_eq!(bishops.of_square(square), distance, "{square:?}");
        }
        let two: Position = "7k/8/8/8/8/8/8/K1B1b3 w - -".parse().unwrap();
        assert_eq!(BishopDistances::of(&two, Color::White), None);
    }

    /// In the later iterations' guide a loser's bishop going nearer the
    /// corner scores Reward (e1-c3, two moves from h8 to one), one staying
    /// as far Normal (e1-d2); the plain guide scores both Normal, and the
    /// winner's bishop moves are scored as in the paper.
    #[test]
    fn a_loser_bishop_nearing_the_corner_is_rewarded_in_later_iterations() {
        let pos: Position = "7k/8/8/8/8/8/8/K1B1b1b1 b - -".parse().unwrap();
        let later = Guide::later(Color::White, &pos).expect("three bishops");
        let plain = Guide::plain(Color::White);
        for (uci, with_bishops) in [("e1c3", Score::Reward), ("e1d2", Score::Normal)] {
            let m = pos.parse_uci(uci).unwrap();
            assert_eq!(later.node(&pos, true).score(&pos, m), with_bishops, "{uci}");
            assert_eq!(plain.node(&pos, true).score(&pos, m), Score::Normal, "{uci}");
        }
        let white: Position = "7k/8/8/8/8/8/8/K1B1b1b1 w - -".parse().unwrap();
        let m = white.parse_uci("c1b2").unwrap();
        let later = Guide::later(Color::White, &white).expect("three bishops");
        assert_eq!(later.node(&white, true).score(&white, m), Score::Normal);
    }

    /// Against a lone knight (or bishop), the later iterations' guide
    /// rewards a loser's piece stepping next to its own king (g2-e2 next to
    /// d1); the plain guide does not, nor a move from one square next to
    /// the king to another (c2-d2), nor one away from it (g2-g7), nor any
    /// move where the winner has a pawn besides. A winner with a rook has
    /// no such guide.
    #[test]
    fn a_loser_piece_walling_its_king_in_is_rewarded_against_a_lone_minor_piece() {
        let plain = Guide::plain(Color::Black);
        for fen in ["1k6/2n5/8/8/8/8/2Q3Q1/3K4 w - -", "1k6/2b5/8/8/8/8/2Q3Q1/3K4 w - -"] {
            let pos: Position = fen.parse().unwrap();
            let later = Guide::later(Color::Black, &pos).expect("a lone minor piece");
            for (uci, score) in [("g2e2", Score::Reward), ("c2d2", Score::Normal), ("g2g7", Score::Normal)] {
                let m = pos.parse_uci(uci).unwrap();
                assert_eq!(later.node(&pos, true).score(&pos, m), score, "{fen} {uci}");
                assert_eq!(plain.node(&pos, true).score(&pos, m), Score::Normal, "{fen} {uci}");
            }
        }
        let with_pawn: Position = "1k6/2n5/7p/8/8/8/2Q3Q1/3K4 w - -".parse().unwrap();
        let later = Guide::later(Color::Black, &with_pawn).expect("a pawn may be taken");
        let m = with_pawn.parse_uci("g2e2").unwrap();
        assert_eq!(later.node(&with_pawn, true).score(&with_pawn, m), Score::Normal);
        let rook: Position = "1k6/2r5/8/8/8/8/2Q3Q1/3K4 w - -".parse().unwrap();
        assert_eq!(Guide::later(Color::Black, &rook), None);
    }

    #[test]
    fn knight_distances() {
        let table = knight_distance_table();
        let d = |a: Square, b: Square| table[a as usize][b as usize];
        assert_eq!(d(Square::A1, Square::A1), 0);
        assert_eq!(d(Square::A1, Square::B3), 1);
        assert_eq!(d(Square::A1, Square::B2), 4);
        assert_eq!(d(Square::A1, Square::H8), 6);
    }

    #[test]
    fn scores_of_the_paper() {
        let guide = Guide::new(Color::White, Targets::default());
        // White to mate: captures and pawn moves are rewarded.
        let pos: Position = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
        let node = guide.node(&pos, false);
        assert_eq!(node.score(&pos, pos.parse_uci("e4d5").unwrap()), Score::Reward);
        assert_eq!(node.score(&pos, pos.parse_uci("e4e5").unwrap()), Score::Reward);
        // Black (the loser) capturing is punished.
        let pos: Position = "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1".parse().unwrap();
        let node = guide.node(&pos, false);
        assert_eq!(node.score(&pos, pos.parse_uci("d5e4").unwrap()), Score::Punish);
        // The loser's king walking into the a8 corner is rewarded.
        assert_eq!(node.score(&pos, pos.parse_uci("e8d8").unwrap()), Score::Reward);
        assert_eq!(node.score(&pos, pos.parse_uci("e8f8").unwrap()), Score::Normal);
    }

    /// With the loser opening, every pawn move of the loser scores Reward
    /// (a push, a capture, a promotion) and its other captures Normal; the
    /// winner's moves and the loser's other moves score as in the paper;
    /// with Lemma-like material a promotion to a queen is still punished.
    #[test]
    fn the_loser_may_be_scored_as_opening_the_position() {
        let guide = Guide::new(Color::White, Targets::default());
        let pos: Position = "4k3/8/8/3p4/4P3/8/8/R3K3 b - - 0 1".parse().unwrap();
        for (uci, paper, opening) in [
            ("d5e4", Score::Punish, Score::Reward),
            ("d5d4", Score::Normal, Score::Reward),
            ("e8f8", Score::Normal, Score::Normal),
        ] {
            let m = pos.parse_uci(uci).unwrap();
            assert_eq!(guide.node(&pos, false).score(&pos, m), paper, "{uci}");
            assert_eq!(guide.node(&pos, true).score(&pos, m), opening, "{uci}");
        }
        // A capture by a loser's piece: punished in the paper, normal here.
        let pos: Position = "4k3/8/8/8/8/8/r5R1/4K3 b - - 0 1".parse().unwrap();
        let capture = pos.parse_uci("a2g2").unwrap();
        assert_eq!(guide.node(&pos, false).score(&pos, capture), Score::Punish);
        assert_eq!(guide.node(&pos, true).score(&pos, capture), Score::Normal);
        let pos: Position = "4k3/8/8/8/8/8/3p4/R6K b - - 0 1".parse().unwrap();
        assert_eq!(guide.node(&pos, true).score(&pos, pos.parse_uci("d2d1n").unwrap()), Score::Reward);
        // The winner to move: unchanged (a rook move is normal).
        let pos: Position = "4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1".parse().unwrap();
        assert_eq!(guide.node(&pos, true).score(&pos, pos.parse_uci("a1a2").unwrap()), Score::Normal);
        // Lemma-like material (White has only a light bishop): the loser's
        // promotion to a queen is still punished.
        let pos: Position = "4k3/8/8/8/8/8/3p4/5B1K b - - 0 1".parse().unwrap();
        assert_eq!(guide.node(&pos, true).score(&pos, pos.parse_uci("d2d1q").unwrap()), Score::Punish);
    }

    /// A winner's piece's rewarded targets as a set are the moves that
    /// score Reward one by one: every knight, bishop, rook and queen move of
    /// the winner in 3,000 corpus positions, either colour the winner (both
    /// corners, with and without bishops).
    #[test]
    fn rewarded_targets_are_the_rewarded_moves() {
        let corpus =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/lichess-30k-positions.txt"))
                .expect("testdata/lichess-30k-positions.txt");
        let (mut moves, mut rewarded) = (0, 0);
        for line in corpus.lines().take(3_000) {
            let fen: Vec<&str> = line.split_whitespace().take(6).collect();
            let pos: Position = fen.join(" ").parse().unwrap();
            let winner = pos.side_to_move();
            let guide = Guide::new(winner, Targets::default());
            let node = guide.node(&pos, false);
            for &m in &pos.legal_moves() {
                let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
                if !matches!(role, Role::Knight | Role::Bishop | Role::Rook | Role::Queen) {
                    continue;
                }
                let reward = node.score(&pos, m) == Score::Reward;
                let set = node.winner_rewarded_targets(role, m.from(), Bitboard::from(m.to()));
                assert_eq!(set.any(), reward, "{} {m}", pos.to_fen());
                moves += 1;
                rewarded += u32::from(reward);
            }
        }
        assert!(moves > 30_000 && rewarded > 4_000, "{moves} moves, {rewarded} rewarded");
    }

    /// With Black as the winner the board is rotated: the loser's (White's)
    /// king heads for h1.
    #[test]
    fn scores_are_rotated_for_black() {
        let guide = Guide::new(Color::Black, Targets::default());
        let pos: Position = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        let node = guide.node(&pos, false);
        assert_eq!(node.score(&pos, pos.parse_uci("e1f1").unwrap()), Score::Reward);
        assert_eq!(node.score(&pos, pos.parse_uci("e1d1").unwrap()), Score::Normal);
        assert_eq!(loser_king_corner(&pos, Color::Black), Square::H1);
    }
}
