//! Distance guidance for the best-first search: a few mating nets that the
//! static analysis cannot rule out ([`static_check::mating_net::arrangement`]),
//! each turned into a list of posts (the loser's king on the mating square,
//! the checker on a checking square, each neighbour's guard on its square),
//! and for each post a table of how many moves a piece of its kind needs to
//! reach it from every square, around the pieces that never move.
//!
//! [`Plan::estimate`] adds up, for the closest net, the moves the nearest
//! piece of each kind still needs: a long march of the loser's king and the
//! winner's bishops towards a mate shrinks it move by move, so the
//! best-first search walks straight towards the net instead of trying every
//! shuffle.
//!
//! **Soundness.** The plan only orders the best-first search, which only
//! ever reports helpmates (replayed by the driver); nothing here can make an
//! answer wrong, only slower or faster.

use movegen::{Bitboard, Color, Position, Rank, Role, Square, attacks};

/// A post: a piece of this colour and role on one of the target squares.
#[derive(Clone, Debug)]
struct Post {
    color: Color,
    role: Role,
    /// Moves from each square to the nearest target ([`FAR`] when none).
    distance: [u8; 64],
}

/// The distance given to a piece that cannot reach its post (or a post no
/// piece of its kind can fill).
const FAR: u8 = 24;

/// At most this many nets are followed (the cheapest at the start).
const MAX_NETS: usize = 4;

/// The posts of a few candidate mating nets.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    nets: Vec<Vec<Post>>,
}

impl Plan {
    /// The plan for `winner` from `root`: `None` when the static analysis
    /// gives no net (not applicable, or every square ruled out).
    pub fn of(root: &Position, winner: Color) -> Option<Plan> {
        let loser = !winner;
        let assumed = static_check::irreplaceable(root, winner);
        let games =
            mobility::Games { uncapturable: assumed, mates_by: Some(winner), immobile: movegen::Bitboard::EMPTY };
        let mobility = mobility::Mobility::compute_assuming(root, mobility::Rules::default(), games).ok()?;
        let board = mobility.board();
        let fixed = board.occupied() - mobility.cleared();
        let king_region = mobility.king_region(loser);
        // Where each kind of piece may ever stand.
        let mut allowed = [[Bitboard::EMPTY; 6]; 2];
        for (square, piece, region) in mobility.pieces() {
            let _ = square;
            allowed[piece.color as usize][piece.role as usize] |= region;
        }
        let mut nets: Vec<(u32, Vec<Post>)> = Vec::new();
        for s in king_region {
            let Some(net) = static_check::mating_net::arrangement(&mobility, loser, s) else { continue };
            let mut posts = vec![post(loser, Role::King, Bitboard::from(s), king_region, fixed)];
            for &(origin, squares) in &net.posts {
                let Some(piece) = board.piece_at(origin) else { continue };
                let region = mobility.region(origin);
                if piece.role == Role::Pawn && region.intersects(Bitboard::relative_rank(piece.color, Rank::Eighth)) {
                    // It may have to promote first: no distance to follow.
                    continue;
                }
                let within = allowed[piece.color as usize][piece.role as usize];
                posts.push(post(piece.color, piece.role, squares, within, fixed - origin));
            }
            let cost = cost(&posts, root);
            nets.push((cost, posts));
        }
        if nets.is_empty() {
            return None;
        }
        nets.sort_by_key(|(cost, _)| *cost);
        nets.truncate(MAX_NETS);
        Some(Plan { nets: nets.into_iter().map(|(_, posts)| posts).collect() })
    }

    /// Moves still needed to assemble the closest net in `pos` (lower is
    /// closer).
    #[inline]
    pub fn estimate(&self, pos: &Position) -> u32 {
        let closest = self.nets.iter().fold(u32::MAX, |closest, posts| closest.min(cost_below(posts, pos, closest)));
        if closest == u32::MAX { 0 } else { closest }
    }
}

/// The sum over posts of the nearest piece's distance.
fn cost(posts: &[Post], pos: &Position) -> u32 {
    cost_below(posts, pos, u32::MAX)
}

/// [`cost`], but once the sum so far reaches `bound`, that partial sum: a
/// net no closer than the closest so far cannot change the least cost of
/// [`Plan::estimate`], and the rest of its posts are not looked at
/// (docs/tuning.md#plan-estimate).
#[inline]
fn cost_below(posts: &[Post], pos: &Position, bound: u32) -> u32 {
    let board = pos.board();
    let mut sum = 0;
    for post in posts {
        let nearest = board
            .pieces(post.color, post.role)
            .iter()
            .map(|square| u32::from(post.distance[square as usize]))
            .min()
            .unwrap_or(u32::from(FAR));
        sum += nearest;
        if sum >= bound {
            break;
        }
    }
    sum
}

/// The post for a piece of `color` and `role` on `targets`: moves from
/// every square of `within`, not crossing `obstacles`.
fn post(color: Color, role: Role, targets: Bitboard, within: Bitboard, obstacles: Bitboard) -> Post {
    Post { color, role, distance: distances(color, role, targets, within, obstacles) }
}

/// How many moves a piece of `color` and `role` needs from every square of
/// `within` to the nearest of `targets`, not crossing `obstacles` ([`FAR`]
/// when it cannot get there).
pub(crate) fn distances(
    color: Color,
    role: Role,
    targets: Bitboard,
    within: Bitboard,
    obstacles: Bitboard,
) -> [u8; 64] {
    let mut distance = [FAR; 64];
    let targets = targets & within;
    let mut frontier = targets;
    let mut seen = targets;
    for square in targets {
        distance[square as usize] = 0;
    }
    let mut steps = 0u8;
    while frontier.any() && steps + 1 < FAR {
        steps += 1;
        let mut next = Bitboard::EMPTY;
        for square in frontier {
            next |= predecessors(color, role, square, obstacles);
        }
        next = next & within & !seen & !obstacles;
        for square in next {
            distance[square as usize] = steps;
        }
        seen |= next;
        frontier = next;
    }
    distance
}

/// The squares from which one move of a piece of `color` and `role` reaches
/// `square` (lines blocked by `obstacles`; pawns by pushes only).
fn predecessors(color: Color, role: Role, square: Square, obstacles: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => {
            let one = Bitboard::from(square).forward(!color);
            let start = Bitboard::relative_rank(color, Rank::Second);
            let two = (one - obstacles).forward(!color) & start;
            one | two
        }
        role => attacks::attacks(role, color, square, obstacles),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bishop's distance counts slides, around the pieces that never move.
    #[test]
    fn bishop_distances() {
        let post = post(Color::White, Role::Bishop, Bitboard::from(Square::H8), Bitboard::FULL, Bitboard::EMPTY);
        assert_eq!(post.distance[Square::A1 as usize], 1);
        assert_eq!(post.distance[Square::A3 as usize], 2);
        assert_eq!(post.distance[Square::A2 as usize], FAR, "the other colour");
        let blocked = super::post(
            Color::White,
            Role::Bishop,
            Bitboard::from(Square::H8),
            Bitboard::FULL,
            Bitboard::from(Square::D4),
        );
        // a1-c3-e1-h4-f6-h8: the long diagonal is cut at d4.
        assert_eq!(blocked.distance[Square::A1 as usize], 5);
    }

    /// The estimate that stops adding up a net once it is no closer than
    /// the closest so far is still the least full cost over the nets, on
    /// every position of a pseudo-random walk from a bishop cage and from a
    /// king march (four nets each: there is a minimum to cut short).
    #[test]
    fn the_cut_short_estimate_is_the_least_cost() {
        for (fen, winner) in [
            ("k1b5/Pp1b4/1P2b2B/5bB1/5Bb1/1p2B2b/pP1BP3/K1B5 w - -", Color::Black),
            ("k1b5/1p1p4/1P1P1K2/8/8/B7/8/1b6 w - -", Color::Black),
        ] {
            let mut pos: Position = fen.parse().unwrap();
            let plan = Plan::of(&pos, winner).expect("a net is possible");
            assert_eq!(plan.nets.len(), MAX_NETS, "{fen}");
            let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
            for _ in 0..400 {
                let least = plan.nets.iter().map(|posts| cost(posts, &pos)).min().unwrap();
                assert_eq!(plan.estimate(&pos), least, "{}", pos.to_fen());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    pos = fen.parse().unwrap();
                    continue;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                pos = pos.play(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }

    /// In a composed king march the plan's estimate falls as the pieces go
    /// to their posts.
    #[test]
    fn estimate_follows_a_march() {
        let pos: Position = "k1b5/1p1p4/1P1P1K2/8/8/B7/8/1b6 w - -".parse().unwrap();
        let plan = Plan::of(&pos, Color::Black).expect("a net is possible");
        assert!(plan.estimate(&pos) > 0);
    }
}
