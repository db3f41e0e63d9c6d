//! [`StaticWitness`]: what a `static` certificate carries, for the
//! independent checker (`crates/check`, `docs/certificates.md`) to verify
//! fact by fact.
//!
//! The regions are the mobility fixpoint under [`Rules::Certified`] for
//! the games ending in the winner's mate (the winner's irreplaceable
//! pieces never captured): closed under the rules the checker verifies
//! (the paper's, facing pawns, kings never captured, persistent attacks of
//! single pieces, the loser's pawns never mating the winner, frozen pieces
//! whose capture stalemates). The frozen pieces and the pieces never
//! captured are named, so the checker can verify each assumption.
//!
//! Instead of Figure 8's count and mating-net search, every square `s` of
//! the loser king's region that a winner piece may attack gets *escapes*:
//! neighbours of `s` (all eight count) that cannot all be guarded at once,
//! because the winner's pieces (each at most as many of them as it
//! attacks from one square of its region, lines stopped by the fixed
//! pieces) and the loser's pieces (one each) add up to fewer. This is the
//! capacitated Hall condition of [`mod@crate::figure8`] over every neighbour,
//! with exact capacities; the checker recomputes the sums. Where the sums
//! allow a mate, the last move may still exclude it (the paper's
//! shuttling king, `last_move_king_squares`): the winner's king then
//! counts only from the squares it leaves. Squares neither settles (where
//! the mating-net search's placement of each guard is needed) make the
//! position uncertifiable as a static witness:
//! [`Uncertified::MateNotExcluded`].
//!
//! **The second attempt.** When the certified rules' regions leave a mate
//! on some square, the witness is tried once more on the regions of
//! [`Rules::Saturation`] computed for *every* game (`Games::default()`:
//! no piece assumed never captured, no mating side). For such games the
//! rules that assume a mating side or pieces never captured (the checks
//! only a capture answers, the pieces kept still because each first move
//! mates the winner, the loser's mating pawn moves) never apply, so these
//! regions are closed under the certified rules plus one: the persistent
//! attacks of *groups* of like pieces (a chain of bishops with one hole
//! guards the squares behind it from every placement), which the checker
//! verifies too. A third attempt takes all the rules for the games ending
//! in the winner's mate: the checker verifies the checks only a capture
//! answers and the frozen pieces whose every first move mates the winner
//! in the forms it knows (`crates/check`); where the mobility's form goes
//! beyond them, it rejects the certificate. A fourth pins the pieces
//! that never move, as Figure 8's second attempt does
//! (`mobility::immobile_pieces`): each is written with its proof, the
//! regions for the same games with it never captured and the earlier ones
//! pinned, where its region is its square; the checker verifies each in
//! order, and skips their closure in the main regions. In the escapes'
//! count, the lines of attack of such a piece of the winner also stop at
//! the pieces its own proof keeps still (which stand there at a mate
//! where the piece is still on the board: the checker's rule, module
//! `statics` of `crates/check`). The later attempts
//! only cost where the first one failed (and only with `--certificate`).
//!
//! The producer and the checker compute the same rule in two
//! implementations on two move generators; the checker trusts nothing
//! here.

use core::fmt;

use movegen::{Bitboard, Color, Piece, Position, Rank, Role, Square, attacks};

use mobility::geometry::may_promote;
use mobility::{Games, Mobility, NotApplicable, Rules};

/// The facts of a static proof, for a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticWitness {
    /// The region of every piece whose region is more than its square
    /// (named by that square), a1 upwards.
    pub regions: Vec<(Square, Bitboard)>,
    /// The winner's pieces assumed never captured (irreplaceable).
    pub never_captured: Bitboard,
    /// The pieces assumed frozen (never moved nor captured, their capture
    /// a stalemate).
    pub frozen: Bitboard,
    /// For each square of the loser king's region that some winner piece
    /// may attack, neighbours that cannot all be guarded.
    pub escapes: Vec<(Square, Bitboard)>,
    /// The squares of the loser king's region where the escapes count the
    /// winner's king only from the squares the last move leaves it
    /// (`last_move_king_squares`).
    pub last_move: Bitboard,
    /// The pieces proved never to move, in order, each with its proof
    /// (empty unless the fourth attempt of the module docs made it).
    pub immobile: Vec<ImmobileWitness>,
}

/// The proof that a piece never moves in the games ending in the
/// winner's mate (`mobility::immobile_pieces`): the regions of those games
/// up to the piece's first move, with it never captured and the pieces
/// proved before never moving, in which its region is its square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImmobileWitness {
    /// The piece (its square).
    pub piece: Square,
    /// The regions larger than their square, a1 upwards.
    pub regions: Vec<(Square, Bitboard)>,
    /// The winner's irreplaceable pieces (the piece itself, assumed never
    /// captured, is not named: the checker adds it).
    pub never_captured: Bitboard,
    /// The frozen pieces.
    pub frozen: Bitboard,
}

/// Why a position has no static witness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Uncertified {
    /// The mobility analysis does not apply (an en passant capture).
    NotApplicable(NotApplicable),
    /// No set of neighbours shows the loser's king safe from mate on this
    /// square under the certified rules.
    MateNotExcluded(Square),
    /// A castling right is Chess960's (the king off the e-file or the rook
    /// off the corner): the checker's closure argument covers standard
    /// castling only (`docs/certificates.md`).
    Chess960Castling,
}

impl fmt::Display for Uncertified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Uncertified::NotApplicable(reason) => write!(f, "the static witness does not apply ({reason})"),
            Uncertified::MateNotExcluded(square) => {
                write!(f, "the certified rules do not exclude a mate with the king on {square}")
            }
            Uncertified::Chess960Castling => {
                f.write_str("static certificates of positions with Chess960 castling rights are not checked")
            }
        }
    }
}

/// The static witness that `winner` cannot mate in `pos`, if the
/// certified rules give one (see the module docs). Independent of
/// [`crate::analyze`]: it may succeed where that fails and the reverse.
pub fn static_witness(pos: &Position, winner: Color) -> Result<StaticWitness, Uncertified> {
    if pos.castling_paths().any(|path| !path.is_standard()) {
        return Err(Uncertified::Chess960Castling);
    }
    let games =
        Games { uncapturable: crate::irreplaceable(pos, winner), mates_by: Some(winner), immobile: Bitboard::EMPTY };
    match witness_under(pos, winner, Rules::Certified, games, &[]) {
        // The second and third attempts (module docs): group attacks,
        // nothing assumed; then all the rules for the same games.
        Err(Uncertified::MateNotExcluded(square)) => {
            witness_under(pos, winner, Rules::Saturation, Games::default(), &[])
                .or_else(|_| witness_under(pos, winner, Rules::Saturation, games, &[]))
                .or_else(|_| witness_splitting(pos, winner, games))
                .map_err(|_| Uncertified::MateNotExcluded(square))
        }
        other => other,
    }
}

/// The fourth attempt (module docs): the pieces that never move
/// (`mobility::immobile_pieces`, as Figure 8's second attempt finds them),
/// each proved in an order where its proof assumes only the earlier ones,
/// then the witness on the regions with all of them still.
fn witness_splitting(pos: &Position, winner: Color, games: Games) -> Result<StaticWitness, Uncertified> {
    let rules = Rules::Saturation;
    let found = mobility::immobile_pieces(pos, rules, games).map_err(Uncertified::NotApplicable)?;
    let (mut still, mut proofs, mut stops) = (games.immobile, Vec::new(), Vec::new());
    // Each round proves at least one more piece, or stops.
    while proofs.len() < MAX_IMMOBILE {
        let before = still;
        for piece in found - still {
            let assumed = Games { uncapturable: games.uncapturable | piece, immobile: still, ..games };
            let mobility = Mobility::compute_assuming(pos, rules, assumed).map_err(Uncertified::NotApplicable)?;
            if mobility.region(piece) == Bitboard::from(piece) && proofs.len() < MAX_IMMOBILE {
                let regions = mobility.pieces().filter(|&(square, _, region)| region != Bitboard::from(square));
                proofs.push(ImmobileWitness {
                    piece,
                    regions: regions.map(|(square, _, region)| (square, region)).collect(),
                    never_captured: games.uncapturable & pos.board().occupied(),
                    frozen: mobility.frozen(),
                });
                if pos.board().color_at(piece) == Some(winner) {
                    stops.push((piece, pos.board().occupied() - mobility.cleared()));
                }
                still |= piece;
            }
        }
        if still == before {
            break;
        }
    }
    if proofs.is_empty() {
        return Err(Uncertified::MateNotExcluded(pos.king_of(!winner)));
    }
    let witness = witness_under(pos, winner, rules, Games { immobile: still, ..games }, &stops)?;
    Ok(StaticWitness { immobile: proofs, ..witness })
}

/// The most pieces a witness proves immobile (the checker's cap).
const MAX_IMMOBILE: usize = 32;

/// The static witness on the regions of `rules` for the `games`; `stops`
/// gives, for the winner's pieces proved immobile, the pieces that stand
/// still in their proofs, which also stop their lines of attack.
fn witness_under(
    pos: &Position,
    winner: Color,
    rules: Rules,
    games: Games,
    stops: &[(Square, Bitboard)],
) -> Result<StaticWitness, Uncertified> {
    let mobility = Mobility::compute_assuming(pos, rules, games).map_err(Uncertified::NotApplicable)?;
    let mut found = Vec::new();
    let mut last_move = Bitboard::EMPTY;
    let last_move_applies = last_move_applies(pos, &mobility, winner);
    let (pieces, blockers, region) = guards(&mobility, winner, stops);
    for s in region {
        let unguardable = match escape_square_set(&pieces, &blockers, s, Bitboard::FULL) {
            None if last_move_applies => {
                last_move |= s;
                escape_square_set(&pieces, &blockers, s, last_move_king_squares(&mobility, winner, s))
            }
            other => other,
        };
        match unguardable {
            Some(set) if set.any() => found.push((s, set)),
            Some(_) => {}
            None => return Err(Uncertified::MateNotExcluded(s)),
        }
    }
    let board = mobility.board();
    let regions = mobility.pieces().filter(|&(square, _, region)| region != Bitboard::from(square));
    Ok(StaticWitness {
        regions: regions.map(|(square, _, region)| (square, region)).collect(),
        never_captured: games.uncapturable & board.occupied(),
        frozen: mobility.frozen(),
        escapes: found,
        last_move,
        immobile: Vec::new(),
    })
}

/// For each square `s` of the loser king's region in `mobility` (any
/// regions: the tests feed it wrong ones too), the escapes of `s`: empty
/// when no winner piece but the king may attack `s`, the smallest set of
/// neighbours that cannot all be guarded, or `None` when every set can.
pub fn escapes_of(mobility: &Mobility, winner: Color) -> Vec<(Square, Option<Bitboard>)> {
    let (pieces, blockers, region) = guards(mobility, winner, &[]);
    region.into_iter().map(|s| (s, escape_square_set(&pieces, &blockers, s, Bitboard::FULL))).collect()
}

/// The winner's pieces' placements, the loser's pieces' regions and the
/// loser king's region. The lines of attack stop at the pieces that never
/// move, and for a piece of `stops` also at those of its immobility proof.
fn guards(
    mobility: &Mobility,
    winner: Color,
    stops: &[(Square, Bitboard)],
) -> (Vec<Placements>, Vec<Bitboard>, Bitboard) {
    let board = mobility.board();
    let loser_king = board.king_of(!winner).map_or(Bitboard::EMPTY, Bitboard::from);
    let obstacles = board.occupied() - mobility.cleared() - loser_king;
    let pieces: Vec<Placements> = mobility
        .pieces()
        .filter(|(_, piece, _)| piece.color == winner)
        .map(|(square, piece, region)| {
            let own = stops.iter().filter(|&&(p, _)| p == square).fold(Bitboard::EMPTY, |o, &(_, f)| o | f);
            Placements::of(piece, region, obstacles | (own - loser_king))
        })
        .collect();
    let blockers: Vec<Bitboard> =
        (board.by_color(!winner) - board.kings()).iter().map(|q| mobility.region(q)).collect();
    let region = board.king_of(!winner).map_or(Bitboard::EMPTY, |king| mobility.region(king));
    (pieces, blockers, region)
}

/// Where and as what a winner piece may stand, with what it attacks from
/// there (lines stopped by the fixed pieces): every square of its region,
/// a pawn not on its first or last rank, a pawn that may promote also as
/// any promoted piece.
struct Placements {
    king: bool,
    /// `(square, attacks)`.
    attacks: Vec<(Square, Bitboard)>,
}

impl Placements {
    fn of(piece: Piece, region: Bitboard, obstacles: Bitboard) -> Placements {
        let mut roles = vec![piece.role];
        if may_promote(piece, region) {
            roles.extend([Role::Knight, Role::Bishop, Role::Rook, Role::Queen]);
        }
        let pawn_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        let attacks = roles
            .into_iter()
            .flat_map(|role| {
                let allowed = if role == Role::Pawn { region - pawn_ranks } else { region };
                allowed.iter().map(move |u| (u, attacks::attacks(role, piece.color, u, obstacles)))
            })
            .collect();
        Placements { king: piece.role == Role::King, attacks }
    }

    /// The placements possible while the loser's king is on `s`: not on
    /// `s`, and the winner's king not next to it and on `king_squares`.
    fn with_king_on(&self, s: Square, king_squares: Bitboard) -> impl Iterator<Item = Bitboard> + '_ {
        let banned = if self.king { attacks::king(s) | s | !king_squares } else { Bitboard::from(s) };
        self.attacks.iter().filter(move |(u, _)| !banned.contains(*u)).map(|&(_, attacks)| attacks)
    }
}

/// For the loser's king on `s`: `Some(empty)` when no winner piece but
/// the king may attack `s`, `Some(X)` with the smallest set `X` of
/// neighbours that cannot all be guarded, `None` when every set can.
fn escape_square_set(
    pieces: &[Placements],
    blockers: &[Bitboard],
    s: Square,
    king_squares: Bitboard,
) -> Option<Bitboard> {
    if !pieces.iter().any(|p| !p.king && p.with_king_on(s, king_squares).any(|attacks| attacks.contains(s))) {
        return Some(Bitboard::EMPTY);
    }
    if pieces.iter().any(|p| p.king && p.with_king_on(s, king_squares).next().is_none()) {
        // The winner's king stands somewhere at a mate: none on `s`.
        return Some(Bitboard::EMPTY);
    }
    let neighbours: Vec<Square> = attacks::king(s).iter().collect();
    let mask = |set: Bitboard| -> u8 {
        neighbours.iter().enumerate().filter(|(_, n)| set.contains(**n)).fold(0, |m, (i, _)| m | 1 << i)
    };
    // Per winner piece, the neighbours it attacks from each placement;
    // only the maximal sets matter (the most a piece guards of any `X` is
    // reached at a set no other of its sets contains).
    let covers: Vec<Vec<u8>> = pieces
        .iter()
        .map(|piece| {
            let mut masks: Vec<u8> = piece
                .with_king_on(s, king_squares)
                .filter(|attacks| attacks.intersects(attacks::king(s)))
                .map(mask)
                .collect();
            masks.sort_unstable_by_key(|m| core::cmp::Reverse(m.count_ones()));
            masks.dedup();
            let mut maximal: Vec<u8> = Vec::new();
            for m in masks {
                if !maximal.iter().any(|&big| big & m == m) {
                    maximal.push(m);
                }
            }
            maximal
        })
        .filter(|maximal| !maximal.is_empty())
        .collect();
    let blockers: Vec<u8> = blockers.iter().map(|&region| mask(region)).filter(|&m| m != 0).collect();
    let mut subsets: Vec<u8> = (1..=u8::MAX).filter(|x| u32::from(*x) < 1 << neighbours.len()).collect();
    subsets.sort_by_key(|x| x.count_ones());
    let short = subsets.into_iter().find(|&x| {
        let needed = x.count_ones();
        let mut guards = blockers.iter().filter(|&&m| m & x != 0).count() as u32;
        for cover in &covers {
            guards += cover.iter().map(|m| (m & x).count_ones()).max().unwrap_or(0);
            if guards >= needed {
                return false;
            }
        }
        guards < needed
    })?;
    Some(neighbours.iter().enumerate().filter(|(i, _)| short >> i & 1 != 0).map(|(_, n)| *n).collect())
}

/// Whether the last-move rule may narrow the winner king's squares (the
/// checker's conditions, `crates/check`): every non-king piece of the
/// loser keeps its square, no castling right remains, and no mate
/// comes before the loser's first move.
fn last_move_applies(pos: &Position, mobility: &Mobility, winner: Color) -> bool {
    let board = pos.board();
    let still = (board.by_color(!winner) - board.kings()).iter().all(|q| mobility.region(q) == Bitboard::from(q));
    let mates_at_once = pos.is_checkmate()
        || (pos.side_to_move() == winner && pos.legal_moves().iter().any(|&m| pos.play(m).is_checkmate()));
    still && pos.castling_rights().is_empty() && !mates_at_once
}

/// The squares where the winner's king may stand at a mate with the
/// loser's king on `s`, by the last move (the paper's shuttling kings,
/// [`crate::mating_net`]'s last-move condition): the loser's last move
/// was its king's, from a square `k'` of its region next to `s`, and
/// before it the winner's king stood on `w` itself or, when its own move
/// mated by uncovering a slider's check, on a square next to `w` on a
/// line from `s`; in both positions the kings were apart. A square `w`
/// with no such pair is left out.
fn last_move_king_squares(mobility: &Mobility, winner: Color, s: Square) -> Bitboard {
    let board = mobility.board();
    let fixed = board.occupied() - mobility.cleared();
    let (Some(winner_king), Some(loser_king)) = (board.king_of(winner), board.king_of(!winner)) else {
        return Bitboard::FULL;
    };
    let from = (attacks::king(s) & mobility.region(loser_king)) - fixed;
    let uncovers = |v: Square| {
        let line = attacks::line(s, v);
        if line.is_empty() || attacks::between(s, v).intersects(fixed) {
            return false;
        }
        let diagonal = attacks::bishop_rays(s).contains(v);
        let beyond: Bitboard = (line - s - v)
            .into_iter()
            .filter(|&x| attacks::between(s, x).contains(v) && !attacks::between(v, x).intersects(fixed))
            .collect();
        mobility.pieces().any(|(q, piece, region)| {
            let slides = match piece.role {
                Role::Queen => true,
                Role::Bishop => diagonal,
                Role::Rook => !diagonal,
                _ => may_promote(piece, region),
            };
            piece.color == winner && q != winner_king && slides && region.intersects(beyond)
        })
    };
    let apart = |v: Square| from.into_iter().any(|k| k != v && !attacks::king(v).contains(k));
    (mobility.region(winner_king) - attacks::king(s) - s)
        .into_iter()
        .filter(|&w| {
            let before = ((attacks::king(w) & mobility.region(winner_king)) - fixed)
                .into_iter()
                .filter(|&v| uncovers(v))
                .fold(Bitboard::from(w), |b, v| b | v);
            (before - attacks::king(s) - s).into_iter().any(apart)
        })
        .collect()
}
