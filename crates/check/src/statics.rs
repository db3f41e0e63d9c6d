//! The `static` kind: a region for every piece, closed under the moves
//! that can be played (the paper's Lemma 8 as an invariant), and, for
//! every square the loser's king may stand on, a reason why no mate can
//! happen there.
//!
//! # The invariant
//!
//! The certificate gives each piece `q` (named by its square now) a region
//! `R(q)` holding that square (pieces not listed keep only it), the
//! winner's pieces `U` assumed never captured, and pieces `H` assumed
//! *frozen* (never moved nor captured). From them the checker derives:
//!
//! * `NC = kings ∪ U ∪ H`, the pieces never captured in the games
//!   considered;
//! * `q` is *capturable* unless `q ∈ NC` or no enemy region meets `R(q)`;
//! * the *fixed* pieces `F`: `R(q) = {q}` and not capturable.
//!
//! Consider a sequence of legal moves from the position that ends in a
//! mate by the winner `W`. None of its moves captures a piece of `U`
//! ([`never_captured`]), none mates `W`, and until a piece of `H` is
//! moved or captured, every position of it satisfies
//!
//! > **J**: every piece stands on a square of its region, and every piece
//! > of `F` on its own square.
//!
//! By induction: J holds now. If J holds before a move of a piece `q`
//! (not in `H`) from `u` to `t`, then [`closure`] shows `t ∈ R(q)` (every
//! move it lists as possible lands in the region, every other one is
//! impossible or excluded by a reason checked where it is given). A
//! captured piece leaves the board; it is not in `F` (an enemy region
//! would hold its square) unless it is in `NC`, and kings and `U` are
//! never captured. So J holds after the move. A move of a piece of `H`,
//! or its capture, is where [`frozen`] steps in: the piece has no move in
//! any position satisfying J, and its capture ends the game in stalemate,
//! not in the mate of the sequence. So J holds in every position of the
//! sequence, its last one included, and [`no_mating_square`] shows that no
//! position satisfying J is a mate by `W`: there is no such sequence.
//!
//! **Immobile pieces** (`immobile`, in order) are pieces proved never to
//! move in such a sequence; the closure of their regions is skipped, and
//! the fixed pieces of their proofs stop their lines of attack at a mate
//! ([`immobile`] gives the argument).
//!
//! An en passant capture legal in the position itself is outside the
//! argument (the pawn it takes moved before the position); it is refused.
//! Later ones land on the square the pawn passed, which is in its region
//! (the pawn's double step needs that square free, so [`closure`] asks for
//! it), so the capturer's region has it as a capture target.

use std::collections::BTreeMap;

use cozy_chess::{Board, Color, Piece, Rank, Square, get_bishop_rays, get_king_moves, get_knight_moves, get_rook_rays};
use serde::Deserialize;

use crate::kinds::Material;
use crate::position::{
    Set, attacks, bit, count, direct_attacks, has, has_en_passant, mated_by, names, parse_set, parse_square,
    parse_squares, play, squares,
};

/// A `static` proof.
#[derive(Debug, Deserialize)]
pub struct StaticProof {
    /// Regions by piece square (16 hexadecimal digits each).
    #[serde(default)]
    regions: BTreeMap<String, String>,
    /// The winner's pieces never captured (squares).
    #[serde(default)]
    never_captured: String,
    /// The frozen pieces (squares).
    #[serde(default)]
    frozen: String,
    /// For each square of the loser king's region some winner piece may
    /// attack: neighbours that cannot all be guarded at once.
    #[serde(default)]
    escapes: BTreeMap<String, String>,
    /// Squares of the loser king's region where the winner's king counts
    /// only from the squares the last move leaves it ([`last_move_excludes`]).
    #[serde(default)]
    last_move: String,
    /// Pieces proved never to move, in order ([`immobile`]).
    #[serde(default)]
    immobile: Vec<ImmobileProof>,
}

/// A piece proved never to move in a sequence ending in the winner's mate:
/// the regions of the same sequences up to its first move ([`immobile`]).
/// Its `escapes`, `last_move` and `immobile` are not read.
#[derive(Debug, Deserialize)]
struct ImmobileProof {
    piece: String,
    #[serde(flatten)]
    proof: StaticProof,
}

/// The most pieces a certificate may prove immobile (each costs a check
/// of its regions like the main one).
const MAX_IMMOBILE: usize = 32;

/// The facts derived from a certificate, shared by the checks.
struct Facts<'a> {
    board: &'a Board,
    winner: Color,
    regions: [Set; 64],
    /// The winner's pieces assumed never captured (`U`).
    uncapturable: Set,
    /// Never captured (`NC`).
    nc: Set,
    /// The piece an immobile proof assumes never captured, in `NC` only.
    assumed: Set,
    frozen: Set,
    /// Fixed (`F`).
    fixed: Set,
    /// Per colour, the union of its regions.
    reach: [Set; 2],
    /// Per colour, squares a king of the other colour may never step to:
    /// attacked by that colour at every moment ([`persistent_attacks`],
    /// [`group_attacks`]).
    persistent: [Set; 2],
}

/// Checks a `static` proof for `winner` in `board`.
pub fn check(board: &Board, winner: Color, proof: &StaticProof) -> Result<(), String> {
    // The closure (3) covers castling as the king's steps and the rook's
    // slides through empty squares, and the frozen pieces' checks (4) rule
    // castling out by the squares next to king and rook: both hold for
    // standard chess's castling only (docs/certificates.md, Chess960).
    if !crate::position::standard_castling(board) {
        return Err("not certified: a static certificate of a position with Chess960 castling rights (see docs/certificates.md)".into());
    }
    if has_en_passant(board) {
        return Err("static: an en passant capture is legal in the position".into());
    }
    if proof.immobile.len() > MAX_IMMOBILE {
        return Err(format!("static: more than {MAX_IMMOBILE} pieces proved immobile"));
    }
    let (mut still, mut stops) = (0, [0; 64]);
    for sub in &proof.immobile {
        let p = parse_square(&sub.piece)?;
        if !has(board.occupied().0 & !still, p) {
            return Err(format!("static: no piece on {p} to prove immobile, or proved twice"));
        }
        let facts = invariant(board, winner, &sub.proof, still, bit(p))?;
        immobile(&facts, p)?;
        still |= bit(p);
        stops[p as usize] = facts.fixed;
    }
    let facts = invariant(board, winner, proof, still, 0)?;
    let last_move = parse_squares(&proof.last_move)?;
    if last_move != 0 {
        last_move_applies(&facts)?;
    }
    no_mating_square(&facts, &proof.escapes, last_move, &stops)
}

/// The facts of `proof`, checked to hold at every position of a sequence
/// ending in the winner's mate, up to the first move of a piece of
/// `assumed` (a piece that moves is not captured before): the pieces never
/// captured, the closure of every region but those of the frozen pieces
/// and of the pieces `still` (proved never to move), the frozen pieces.
fn invariant<'a>(
    board: &'a Board,
    winner: Color,
    proof: &StaticProof,
    still: Set,
    assumed: Set,
) -> Result<Facts<'a>, String> {
    let facts = Facts::new(board, winner, proof, assumed)?;
    never_captured(&facts)?;
    for q in squares(facts.occupied() & !facts.frozen & !still) {
        closure(&facts, q)?;
    }
    for h in squares(facts.frozen) {
        frozen(&facts, h)?;
    }
    Ok(facts)
}

/// *Immobile* pieces: `p` never moves in a sequence ending in the
/// winner's mate, given that the pieces proved before never do. Its
/// proof's regions are checked ([`invariant`]) for the sequences up to
/// `p`'s first move, with `p` never captured (in `NC`, not in `U`: the
/// checks only a capture answers need a piece that is never captured
/// after the move too). They hold at each position before that move
/// (the induction of the module docs; every reason it uses is a fact of
/// the whole sequence, the earlier immobile pieces included), and `R(p) =
/// {p}`: the closure of `p` allows it no move from its square, so the
/// move is impossible. The main regions may then skip `p`'s closure.
///
/// Its proof's fixed pieces also stop `p`'s lines of attack at a mate
/// ([`no_mating_square`]): in a sequence where `p` is never captured (and
/// never moves), its proof's J holds at every position, the mate
/// included; where `p` is captured, it attacks nothing at the mate.
fn immobile(facts: &Facts<'_>, p: Square) -> Result<(), String> {
    if facts.region(p) != bit(p) {
        return Err(format!("static: the region given for the immobile piece on {p} is more than its square"));
    }
    Ok(())
}

impl Facts<'_> {
    fn new<'a>(board: &'a Board, winner: Color, proof: &StaticProof, assumed: Set) -> Result<Facts<'a>, String> {
        let occupied = board.occupied().0;
        let mut regions = [0; 64];
        for q in squares(occupied) {
            regions[q as usize] = bit(q);
        }
        for (name, hex) in &proof.regions {
            let q = parse_square(name)?;
            let region = parse_set(hex)?;
            if !has(occupied, q) || !has(region, q) {
                return Err(format!("static: the region given for {q} is not that of a piece holding its square"));
            }
            regions[q as usize] = region;
        }
        let frozen = parse_squares(&proof.frozen)?;
        let kings = board.pieces(Piece::King).0;
        if frozen & !(occupied & !kings) != 0 || squares(frozen).any(|h| regions[h as usize] != bit(h)) {
            return Err("static: a frozen piece is a king, is missing, or has a region beyond its square".into());
        }
        let uncapturable = parse_squares(&proof.never_captured)?;
        let nc = kings | uncapturable | frozen | assumed;
        let reach = Color::ALL.map(|c| squares(board.colors(c).0).fold(0, |u, q| u | regions[q as usize]));
        let mut facts =
            Facts { board, winner, regions, uncapturable, nc, assumed, frozen, fixed: 0, reach, persistent: [0; 2] };
        facts.fixed = squares(occupied)
            .filter(|&q| regions[q as usize] == bit(q) && !facts.capturable(q))
            .fold(0, |f, q| f | bit(q));
        facts.persistent = Color::ALL.map(|c| persistent_attacks(&facts, c));
        for color in Color::ALL {
            for group in groups(&facts, color) {
                facts.persistent[color as usize] |= group_attacks(&facts, group);
            }
        }
        Ok(facts)
    }

    fn occupied(&self) -> Set {
        self.board.occupied().0
    }

    fn region(&self, q: Square) -> Set {
        self.regions[q as usize]
    }

    fn color(&self, q: Square) -> Color {
        self.board.color_on(q).unwrap_or(Color::White)
    }

    fn role(&self, q: Square) -> Piece {
        self.board.piece_on(q).unwrap_or(Piece::Pawn)
    }

    fn ours(&self, color: Color) -> Set {
        self.board.colors(color).0
    }

    /// Whether the piece on `q` may be captured: not in `NC`, and some
    /// enemy region meets its region (a capture ends on the victim's
    /// square, or for en passant on the square it passed, both in its
    /// region, and the capturer's region holds it).
    fn capturable(&self, q: Square) -> bool {
        !has(self.nc, q) && self.region(q) & self.reach[!self.color(q) as usize] != 0
    }

    /// Whether the piece on `q` is a pawn that may promote: its region
    /// meets its last rank. Such a pawn may become any piece, so wherever
    /// its moves or attacks matter it counts as a queen and a knight too.
    fn may_promote(&self, q: Square) -> bool {
        self.role(q) == Piece::Pawn && self.region(q) & last_rank(self.color(q)) != 0
    }

    /// Squares from which the piece on `q` attacks `target`, lines stopped
    /// by `obstacles` (for a pawn that may promote, also as a queen or a
    /// knight).
    fn sources(&self, q: Square, target: Square, obstacles: Set) -> Set {
        let (role, color) = (self.role(q), self.color(q));
        // Attacks are symmetric but for pawns, which attack backwards.
        let mut from = attacks(role, !color, target, obstacles);
        if self.may_promote(q) {
            from |= attacks(Piece::Queen, color, target, obstacles) | get_knight_moves(target).0;
        }
        from
    }

    /// Squares where a piece of `color` that may be captured can stand
    /// (`NC` left out: kings and `U` are never captured, and the capture
    /// of a piece of `H` ends the game, see [`frozen`]).
    fn victims(&self, color: Color) -> Set {
        squares(self.ours(color) & !self.nc).fold(0, |u, v| u | self.region(v))
    }
}

/// Rank 8 for White, rank 1 for Black.
fn last_rank(color: Color) -> Set {
    Rank::Eighth.relative_to(color).bitboard().0
}

/// The squares one step ahead of `set` for a pawn of `color`.
fn forward(set: Set, color: Color) -> Set {
    if color == Color::White { set << 8 } else { set >> 8 }
}

/// The squares a piece of `role` reaches by one step or jump from `u`: a
/// slider's neighbours along its lines (a slide is a chain of such steps
/// through empty squares).
fn steps(role: Piece, u: Square) -> Set {
    let around = get_king_moves(u).0;
    match role {
        Piece::Knight => get_knight_moves(u).0,
        Piece::Bishop => around & get_bishop_rays(u).0,
        Piece::Rook => around & get_rook_rays(u).0,
        _ => around,
    }
}

/// `U`: each piece assumed never captured is the winner's, and its
/// capture would leave the winner material with which no mate is possible
/// (its only piece but the king, or, without pawns on the board, the
/// material rules of [`Material`] holding without it). Such a capture is
/// the loser's move, which mates nobody, and afterwards the winner can
/// never mate (the rules keep holding as pieces are captured, and without
/// pawns nothing is added): a sequence ending in the winner's mate never
/// captures it.
fn never_captured(facts: &Facts<'_>) -> Result<(), String> {
    let material = Material::of(facts.board);
    let army = material.army(facts.winner);
    for u in squares(facts.uncapturable) {
        let irreplaceable = has(army, u) && (army == bit(u) || material.without(u).insufficient(facts.winner));
        if !irreplaceable {
            return Err(format!("static: the piece on {u} is not one whose capture ends the winner's chances"));
        }
    }
    Ok(())
}

/// The squares `color` attacks at every moment of the sequences J covers:
/// squares `t` attacked by a piece `e` of `color` from *every* square of
/// its region, along lines that cross only squares no other piece's region
/// holds, with `e` never captured (in `NC`, or no enemy region meets its
/// region) and not a pawn that may promote, and `t ∉ R(e)`.
///
/// At every moment of such a sequence `e` stands on some square of its
/// region and is still the same kind of piece; the squares between it and
/// `t` hold no other piece (every piece is within its region), so `e`
/// attacks `t`. A king of the other colour never steps onto `t` (it would
/// be in check), nor castles through it (castling through an attacked
/// square is illegal, and the king's square is in its region, so it
/// cannot be one of the squares between). Fixed enemies that attack a
/// square directly are a special case.
fn persistent_attacks(facts: &Facts<'_>, color: Color) -> Set {
    let mut attacked = 0;
    for e in squares(facts.ours(color)) {
        if !persists(facts, e) {
            continue;
        }
        let others = squares(facts.occupied() & !bit(e)).fold(0, |u, x| u | facts.region(x));
        let common = squares(facts.region(e)).fold(!0, |c, w| c & attacks(facts.role(e), color, w, others));
        attacked |= common & !facts.region(e);
    }
    attacked
}

/// The most placements of one group [`group_attacks`] enumerates.
const MAX_PLACEMENTS: u64 = 256;

/// Whether the piece on `e` stands on a square of its region at every
/// moment of the sequences J covers and keeps its kind: never captured (in
/// `NC`, or no enemy region meets its region) and not a pawn that may
/// promote.
fn persists(facts: &Facts<'_>, e: Square) -> bool {
    let never_captured = has(facts.nc, e) || facts.region(e) & facts.reach[!facts.color(e) as usize] == 0;
    never_captured && !facts.may_promote(e)
}

/// The *groups* of `color` ([`group_attacks`]): per role, kings aside,
/// the pieces that [`persist`](persists) and whose regions meet no region of
/// a king or of the other colour, joined while their regions meet. Each
/// piece is in one group.
fn groups(facts: &Facts<'_>, color: Color) -> Vec<Set> {
    let kings = facts.board.pieces(Piece::King).0;
    let ours = facts.ours(color) & !kings;
    let foreign = squares(facts.occupied() & !ours).fold(0, |u, x| u | facts.region(x));
    let candidates: Set =
        squares(ours).filter(|&e| persists(facts, e) && facts.region(e) & foreign == 0).fold(0, |c, e| c | bit(e));
    let union = |set: Set| squares(set).fold(0, |u, x| u | facts.region(x));
    let (mut found, mut done) = (Vec::new(), 0);
    for seed in squares(candidates) {
        if has(done, seed) {
            continue;
        }
        let alike = candidates & facts.board.pieces(facts.role(seed)).0;
        let mut group = bit(seed);
        loop {
            let more =
                squares(alike & !group).filter(|&e| facts.region(e) & union(group) != 0).fold(0, |m, e| m | bit(e));
            if more == 0 {
                break;
            }
            group |= more;
        }
        done |= group;
        if count(group) >= 2 {
            found.push(group);
        }
    }
    found
}

/// `C(size, n)` (`n ≤ size`), or `None` above [`MAX_PLACEMENTS`]. The
/// partial products `C(size, i)`, `i ≤ min(n, size - n)`, only grow, so
/// the count stops as soon as one is too large (and never overflows).
fn placements(size: u32, n: u32) -> Option<u64> {
    let mut placements = 1;
    for i in 0..n.min(size.saturating_sub(n)) {
        placements = placements * u64::from(size - i) / u64::from(i + 1);
        if placements > MAX_PLACEMENTS {
            return None;
        }
    }
    Some(placements)
}

/// The squares a group of like pieces attacks at every moment, like
/// [`persistent_attacks`] but jointly. Its `n` members [persist](persists)
/// and the union `V` of their regions meets no region of any other piece
/// (else nothing). In every position satisfying J the members stand on `n`
/// distinct squares of `V` and nothing else does, so the occupied squares
/// of `V` are one of its `n`-subsets `P`; the other pieces stand within
/// `O`, the union of their regions. A square `t ∉ V` attacked from every
/// `P` (lines stopped by `P ∪ O`, so the attacks counted are real ones) is
/// attacked at every moment. (A bishop chain with one empty square covers
/// the squares behind it through the hole.) At most [`MAX_PLACEMENTS`]
/// subsets (else nothing), and the groups are disjoint: the work is
/// bounded by the board.
fn group_attacks(facts: &Facts<'_>, group: Set) -> Set {
    let Some(first) = squares(group).next() else { return 0 };
    let (role, color, n) = (facts.role(first), facts.color(first), count(group));
    let union = squares(group).fold(0, |u, e| u | facts.region(e));
    let others = squares(facts.occupied() & !group).fold(0, |u, x| u | facts.region(x));
    if union & others != 0 {
        return 0;
    }
    let size = count(union);
    if placements(size, n).is_none() {
        return 0;
    }
    let cells: Vec<Square> = squares(union).collect();
    let mut common = !0;
    // Every `n`-subset of the cells as a bit mask (Gosper's hack).
    let mut mask: u128 = (1 << n) - 1;
    while mask < 1 << size {
        let placed = cells.iter().enumerate().filter(|(i, _)| mask >> i & 1 != 0).fold(0, |p, (_, &c)| p | bit(c));
        common &= squares(placed).fold(0, |a, u| a | attacks(role, color, u, placed | others));
        let lowest = mask & mask.wrapping_neg();
        let ripple = mask + lowest;
        mask = (((ripple ^ mask) >> 2) / lowest) | ripple;
    }
    common & !union
}

/// Checks that every move the piece on `q` could play from a square of
/// its region, in a position satisfying J, lands in its region: the
/// *closure* of the regions (Lemma 8's rules, each move kind below).
fn closure(facts: &Facts<'_>, q: Square) -> Result<(), String> {
    let (role, color) = (facts.role(q), facts.color(q));
    let region = facts.region(q);
    let require = |u: Square, t: Square| {
        if has(region, t) { Ok(()) } else { Err(format!("static: the region of {q} lacks {t}, a move from {u}")) }
    };
    // A piece's step onto `t` is impossible if a fixed ally stands there
    // (always), or a fixed enemy that is never captured. Otherwise `t` is
    // empty or holds a capturable enemy at some moment, and a slide goes
    // on from it only through empty squares, which this covers step by
    // step.
    let blocked = (facts.fixed & facts.ours(color)) | (facts.fixed & facts.nc & facts.ours(!color));
    // Squares the piece never lands on: its check there is answered only
    // by its capture ([`forcing`]). A slider may still pass over such a
    // square when it is empty (not fixed): the slide goes on to the next
    // square of the line not so closed, which must be in the region.
    let forced = forcing(facts, q);
    // Squares behind a pawn of its colour the piece never reaches
    // ([`behind_own_pawn`]): closed like a fixed ally's.
    let blocked = blocked | behind_own_pawn(facts, q);
    let slides = matches!(role, Piece::Bishop | Piece::Rook | Piece::Queen);
    for u in squares(region) {
        if role != Piece::Pawn {
            // A king never steps onto a square the enemy attacks at every
            // moment ([`persistent_attacks`], [`group_attacks`]).
            let mut open = steps(role, u) & !blocked;
            if role == Piece::King {
                open &= !facts.persistent[!color as usize];
            }
            for t in squares(open) {
                if !has(forced, t) {
                    require(u, t)?;
                    continue;
                }
                let (df, dr) = (t.file() as i8 - u.file() as i8, t.rank() as i8 - u.rank() as i8);
                let mut over = t;
                while slides && !has(facts.fixed, over) {
                    let Some(next) = over.try_offset(df, dr) else { break };
                    if has(blocked, next) {
                        break;
                    }
                    if !has(forced, next) {
                        require(u, next)?;
                        break;
                    }
                    over = next;
                }
            }
            continue;
        }
        // A pawn that may promote may stand anywhere in its region as any
        // piece: a queen's steps and a knight's jumps cover them all.
        if facts.may_promote(q) {
            for t in squares((steps(Piece::Queen, u) | get_knight_moves(u).0) & !blocked) {
                require(u, t)?;
            }
        }
        if last_rank(color) & bit(u) != 0 || last_rank(!color) & bit(u) != 0 {
            continue;
        }
        for t in squares(pawn_targets(facts, q, u)) {
            require(u, t)?;
        }
    }
    Ok(())
}

/// *Checks only a capture answers*: the squares where the piece `q` of
/// `U` (the winner's, never captured; not a king or a pawn) never lands in
/// a sequence ending in the winner's mate. On such a square `d`, in any
/// position satisfying J:
///
/// * it checks the loser's king, which never moves (its region is its
///   square `k`), directly (a knight's jump, a slider next to `k`): the
///   check cannot be blocked;
/// * every other neighbour of `k` holds a fixed piece of the loser or is
///   attacked directly by a fixed piece of the winner other than `q`: the
///   king can only take on `d`;
/// * a capture is legal: `d` is next to `k` and no other piece of the
///   winner can attack `d` from any square of its region, even on an
///   empty board (the king takes); or none can attack `k` that way (no
///   pin, no other check) and a fixed piece of the loser, not the king,
///   attacks `d` directly.
///
/// So the loser is not mated, and each of its legal answers takes `q`:
/// such a sequence never has that move.
fn forcing(facts: &Facts<'_>, q: Square) -> Set {
    let (role, winner) = (facts.role(q), facts.winner);
    let k = facts.board.king(!winner);
    if !has(facts.uncapturable, q) || matches!(role, Piece::King | Piece::Pawn) || facts.region(k) != bit(k) {
        return 0;
    }
    let others = facts.ours(winner) & !bit(q);
    let fixed_attacks = squares(facts.fixed & others).fold(0, |a, p| a | direct_attacks(facts.role(p), winner, p));
    let loser_fixed = facts.fixed & facts.ours(!winner);
    let spans = |target: Square| squares(others).any(|x| facts.region(x) & facts.sources(x, target, 0) != 0);
    let neighbours = get_king_moves(k).0;
    squares(direct_attacks(role, winner, k))
        .filter(|&d| {
            let shut = squares(neighbours & !bit(d)).all(|n| has(loser_fixed | fixed_attacks, n));
            let king_takes = has(neighbours, d) && !spans(d);
            let piece_takes = !spans(k)
                && squares(loser_fixed & !bit(k) & !bit(d)).any(|e| has(direct_attacks(facts.role(e), !winner, e), d));
            shut && (king_takes || piece_takes)
        })
        .fold(0, |c, d| c | bit(d))
}

/// The squares a pawn `q` of its colour standing on `u` may move to in a
/// position satisfying J, but for those a reason excludes:
///
/// * a push onto a square a fixed piece holds (always occupied);
/// * a push or double push into a guarded square ([`facing`]);
/// * a double push through an occupied or guarded square;
/// * a capture onto a square no capturable enemy can stand on (nor pass
///   over: en passant) or a fixed ally holds;
/// * a move that would mate the winner ([`mates_on_arrival`]): sequences
///   ending in the winner's mate make none.
fn pawn_targets(facts: &Facts<'_>, q: Square, u: Square) -> Set {
    let color = facts.color(q);
    let mut targets = 0;
    let t1 = forward(bit(u), color);
    let one = if t1 & !facts.fixed != 0 && !facing(facts, q, t1) { t1 } else { 0 };
    if one != 0 && !mates_on_arrival(facts, q, u, one, true) {
        targets |= one;
    }
    let t2 = forward(one, color);
    let second_rank = Rank::Second.relative_to(color).bitboard().0;
    if bit(u) & second_rank != 0
        && t2 & !facts.fixed != 0
        && !facing(facts, q, t2)
        && !mates_on_arrival(facts, q, u, t2, true)
    {
        targets |= t2;
    }
    let captures =
        cozy_chess::get_pawn_attacks(u, color).0 & facts.victims(!color) & !(facts.fixed & facts.ours(color));
    for t in squares(captures) {
        if !mates_on_arrival(facts, q, u, bit(t), true) {
            targets |= bit(t);
        }
    }
    targets
}

/// *Facing pawns*: the pawn `q` never pushes into (or through) `t` when
/// `t` is the square of an enemy pawn `b` that started ahead of it on its
/// file, both regions stay on that file, and no piece of `q`'s colour can
/// capture `b` (none can stand on a square of `R(b)`, no pawn of it
/// attacks one from its region; a pawn that may promote counts with its
/// region too). Then `b` is never captured and both stay on the file;
/// pushes cross only empty squares, so neither passes the other: `b` stays
/// ahead of `q`, and only moves towards it, so at or below `t`. So `q`
/// never reaches `t`.
fn facing(facts: &Facts<'_>, q: Square, t: Set) -> bool {
    let color = facts.color(q);
    let Some(t) = squares(t).next() else { return false };
    let (file, b) = (q.file().bitboard().0, t);
    let ahead = if color == Color::White { b as u8 > q as u8 } else { (b as u8) < q as u8 };
    let enemy_pawn = facts.board.colored_pieces(!color, Piece::Pawn).has(b);
    if !enemy_pawn || !ahead || bit(b) & file == 0 || facts.region(q) & !file != 0 || facts.region(b) & !file != 0 {
        return false;
    }
    squares(facts.ours(color)).all(|x| {
        let region = facts.region(x);
        let mut reach = if facts.role(x) == Piece::Pawn {
            squares(region).fold(0, |a, w| a | cozy_chess::get_pawn_attacks(w, color).0)
        } else {
            region
        };
        if facts.may_promote(x) {
            reach |= region;
        }
        reach & facts.region(b) == 0
    })
}

/// *Own pawn behind*: the squares of its file a rook or queen `q` never
/// reaches because a pawn `w` of its colour started behind it there: `q`'s
/// region and `w`'s stay on the file and `w` is never captured (not
/// [`Facts::capturable`]). A rook or queen moving along its file crosses
/// and lands on empty squares only, and a pawn that stays on its file
/// pushes onto empty squares only (it cannot promote with `q` ahead of
/// it), so neither passes the other: `q` stays ahead of `w`, which only
/// moves towards it. So `q` is never at or behind `w`'s square, unless it
/// is captured, after which it stands nowhere.
fn behind_own_pawn(facts: &Facts<'_>, q: Square) -> Set {
    let (role, color) = (facts.role(q), facts.color(q));
    let file = q.file().bitboard().0;
    if !matches!(role, Piece::Rook | Piece::Queen) || facts.region(q) & !file != 0 {
        return 0;
    }
    // The squares at or behind `s` (a file's squares are ordered by rank).
    let at_or_behind =
        |s: Square| if color == Color::White { u64::MAX >> (63 - s as u32) } else { u64::MAX << s as u32 };
    let behind = at_or_behind(q) & !bit(q);
    let pawns = facts.board.colored_pieces(color, Piece::Pawn).0 & file & behind;
    squares(pawns)
        .filter(|&w| facts.region(w) & !file == 0 && !facts.capturable(w))
        .fold(0, |closed, w| closed | (file & at_or_behind(w)))
}

/// Whether the loser's pawn `q`, arriving on `t` from `u`, checkmates the
/// winner in every position satisfying J. The winner's king never moves
/// (its region is its square `k`); the pawn on `t` checks it (a pawn's
/// check cannot be blocked); every other neighbour of `k` holds a fixed
/// piece of the winner or is attacked directly (unblockably) by a fixed
/// piece of the loser still standing (not on `u` or `t`) or by the pawn,
/// and `t` itself by such a fixed piece (the king cannot take); no piece of
/// the winner but the king can take on `t` from any square of its region
/// (lines stopped only by those fixed pieces; a double step is refused if
/// a pawn of the winner may stand beside `t`: en passant). A pawn's squares
/// on the loser's last rank are never excluded this way, nor, when a
/// double step may pass `t` (`passed`: the closure, which excludes a push
/// and so the double step through it), those on its third rank. Also
/// asked for a frozen piece's moves ([`frozen`]), whose every landing
/// square is asked: then a piece's check must be direct (unblockable).
fn mates_on_arrival(facts: &Facts<'_>, q: Square, u: Square, t: Set, passed: bool) -> bool {
    let (winner, loser) = (facts.winner, !facts.winner);
    let Some(t_sq) = squares(t).next() else { return false };
    let k = facts.board.king(winner);
    let pawn = facts.role(q) == Piece::Pawn;
    let third = if passed { Rank::Third.relative_to(loser).bitboard().0 } else { 0 };
    let edge = if pawn { third | last_rank(loser) } else { 0 };
    // A piece's check cannot be blocked when it is direct (a frozen
    // piece's first move, [`frozen`]).
    let checks =
        if pawn { cozy_chess::get_pawn_attacks(t_sq, loser).0 } else { direct_attacks(facts.role(q), loser, t_sq) };
    if facts.color(q) != loser || t & edge != 0 || facts.region(k) != bit(k) || !has(checks, k) {
        return false;
    }
    let staying = facts.fixed & !bit(u) & !t;
    let guarded = squares(staying & facts.ours(loser)).fold(0, |g, p| g | direct_attacks(facts.role(p), loser, p));
    let winner_fixed = staying & facts.ours(winner) & !bit(k);
    let covered = |n: Square| if n == t_sq { has(guarded, n) } else { has(winner_fixed | guarded | checks, n) };
    if !squares(get_king_moves(k).0).all(covered) {
        return false;
    }
    let winner_pieces = facts.ours(winner) & !bit(k);
    if squares(winner_pieces).any(|x| facts.region(x) & facts.sources(x, t_sq, staying) != 0) {
        return false;
    }
    let double_step = pawn && (forward(forward(bit(u), loser), loser) & t) != 0;
    let beside = ((t << 1) & !0x0101_0101_0101_0101) | ((t >> 1) & !0x8080_8080_8080_8080);
    let pawns = facts.board.colored_pieces(winner, Piece::Pawn).0;
    !(double_step && squares(pawns).any(|p| facts.region(p) & beside != 0))
}

/// Whether the loser's piece `q`, leaving `u` for `d`, checkmates the
/// winner by uncovering a check, in every position satisfying J. The
/// winner's king never moves (its region is its square `k`); a fixed
/// slider `s` of the loser stands two squares from `k` on a line of its
/// kind with `u` between them: once `u` is empty it checks `k`. No piece
/// of the winner but the king can take `s`, nor come to `u` (a move onto
/// it, a pawn's push included), from any square of its region (lines
/// stopped by the fixed pieces that stay); every neighbour of `k` holds a
/// fixed piece of the winner or is attacked directly by a fixed piece of
/// the loser or by `q` on `d` (not a pawn: it may promote), and `d` itself,
/// if a neighbour, by such a fixed piece (the king cannot take `q` there).
/// The winner is in check, cannot block, take the checker or move the
/// king: mated, whatever `q`'s own check.
fn mates_on_departure(facts: &Facts<'_>, q: Square, u: Square, d: Square) -> bool {
    let (winner, loser) = (facts.winner, !facts.winner);
    let k = facts.board.king(winner);
    if facts.color(q) != loser || facts.region(k) != bit(k) {
        return false;
    }
    let staying = facts.fixed & !bit(u) & !bit(d);
    let diagonal = get_bishop_rays(k).has(u);
    let kind = if diagonal { Piece::Bishop } else { Piece::Rook };
    let checker = squares(staying & facts.ours(loser)).find(|&s| {
        let role = facts.role(s);
        cozy_chess::get_between_rays(k, s).0 == bit(u) && (role == Piece::Queen || role == kind)
    });
    let Some(s) = checker else { return false };
    let guarded = squares(staying & facts.ours(loser)).fold(0, |g, p| g | direct_attacks(facts.role(p), loser, p));
    let by_q = if facts.role(q) == Piece::Pawn { 0 } else { direct_attacks(facts.role(q), loser, d) };
    let winner_fixed = staying & facts.ours(winner) & !bit(k);
    let covered = |n: Square| if n == d { has(guarded, n) } else { has(winner_fixed | guarded | by_q, n) };
    if !squares(get_king_moves(k).0).all(covered) {
        return false;
    }
    // Squares from which a pawn of the winner pushes onto `u`.
    let back = forward(bit(u), loser);
    let second = Rank::Second.relative_to(winner).bitboard().0;
    let pushes_from = back | (forward(back, loser) & second);
    squares(facts.ours(winner) & !bit(k)).all(|x| {
        let pushes = if facts.role(x) == Piece::Pawn { pushes_from } else { 0 };
        facts.region(x) & (facts.sources(x, s, staying) | facts.sources(x, u, staying) | pushes) == 0
    })
}

/// Checks a frozen piece `h` (see the module docs): it has no move in any
/// position satisfying J, and (unless it is in `U`) every capture of it
/// ends the game in stalemate ([`capture_stalemates`]). Then the first
/// moment a piece of `H` leaves its square is a capture that ends the game
/// without a mate by the winner, so a sequence ending in that mate never
/// has one, and J holds throughout it.
fn frozen(facts: &Facts<'_>, h: Square) -> Result<(), String> {
    let (role, color) = (facts.role(h), facts.color(h));
    let moves = if role == Piece::Pawn {
        // A push needs the square ahead empty; a capture, a capturable
        // enemy there (or passing it).
        (forward(bit(h), color) & !facts.fixed) | (cozy_chess::get_pawn_attacks(h, color).0 & facts.victims(!color))
    } else {
        let blocked = (facts.fixed & facts.ours(color)) | (facts.fixed & facts.nc & facts.ours(!color));
        steps(role, h) & !blocked
    };
    // A piece of the loser may also have moves, if each of them mates the
    // winner (a pawn's push, double push or capture; a piece's slides up to
    // the first fixed piece): the game ends there.
    let landings = if role == Piece::Pawn {
        let second = Rank::Second.relative_to(color).bitboard().0;
        let one = forward(bit(h), color) & !facts.fixed;
        moves | (forward(one & forward(second, color), color) & !facts.fixed)
    } else {
        let blocked = (facts.fixed & facts.ours(color)) | (facts.fixed & facts.nc & facts.ours(!color));
        attacks(role, color, h, facts.fixed) & !blocked
    };
    let mates = color != facts.winner
        && squares(landings)
            .all(|d| mates_on_arrival(facts, h, h, bit(d), false) || mates_on_departure(facts, h, h, d));
    if moves != 0 && !mates {
        return Err(format!("static: the frozen piece on {h} may move to {}", names(moves)));
    }
    // Never captured: `U`, or the piece an immobile proof assumes so
    // (before its first move, which this shows never comes).
    if has(facts.uncapturable | facts.assumed, h) {
        return Ok(());
    }
    capture_stalemates(facts, h)
}

/// Whether every capture of the frozen piece on `x` ends in stalemate, in
/// any position satisfying J. For every enemy piece `c` and every square
/// `y` of its region from which it attacks `x` (lines stopped only by
/// fixed pieces), after `c` takes on `x`:
///
/// * every other piece of the victim's side is fixed (still standing) and
///   has no move: a pawn's square ahead is held and no enemy can stand
///   where it captures; a piece's every step holds a fixed ally;
/// * its king, on any square of its region (not next to `c` if `c` is the
///   king), has every neighbour held by a fixed ally or attacked directly
///   by a fixed enemy or by `c` (on `x`: defended by a fixed enemy; next
///   to a capturing king), and is not in check: not attacked by `c` (lines
///   stopped only by fixed pieces), nor by a slider whose region meets
///   the line beyond `y` when nothing fixed stands between (a discovered
///   check; before the capture the king was not in check, and only `y`
///   was vacated).
///
/// No move then, and no check: stalemate. A capturer that may promote
/// guards nothing for sure (it may be a pawn or any piece) and attacks as
/// a queen and a knight.
fn capture_stalemates(facts: &Facts<'_>, x: Square) -> Result<(), String> {
    let victim = facts.color(x);
    let capturer_side = !victim;
    let fail = |why: &str| Err(format!("static: a capture of the frozen piece on {x} may not stalemate ({why})"));
    let own_fixed_attacks = squares(facts.fixed & !bit(x) & facts.ours(victim))
        .fold(0, |a, p| a | direct_attacks(facts.role(p), victim, p));
    let victim_king = facts.board.king(victim);
    for c in squares(facts.ours(capturer_side)) {
        let c_role = facts.role(c);
        if c_role == Piece::King && has(own_fixed_attacks, x) {
            continue;
        }
        // A pawn that takes on its last rank promotes there, whatever its
        // region (the capture is the move that leaves J).
        let promotes = facts.may_promote(c) || (c_role == Piece::Pawn && has(last_rank(capturer_side), x));
        for y in squares(facts.region(c) & facts.sources(c, x, facts.fixed & !bit(c))) {
            let after = facts.fixed & !bit(y) & !bit(x);
            let c_attacks = if promotes {
                attacks(Piece::Queen, capturer_side, x, after) | get_knight_moves(x).0
            } else {
                attacks(c_role, capturer_side, x, after)
            };
            let c_direct = if promotes { 0 } else { direct_attacks(c_role, capturer_side, x) };
            let fixed_attacks = squares(after & facts.ours(capturer_side))
                .fold(0, |a, p| a | direct_attacks(facts.role(p), capturer_side, p));
            let own_after = after & facts.ours(victim);
            for p in squares(facts.ours(victim) & !bit(victim_king) & !bit(x)) {
                if !has(after, p) {
                    return fail("another piece of the victim's side may move");
                }
                let has_move = match facts.role(p) {
                    Piece::Pawn => {
                        forward(bit(p), victim) & !(after | bit(x)) != 0
                            || cozy_chess::get_pawn_attacks(p, victim).0
                                & (facts.reach[capturer_side as usize] | bit(x))
                                != 0
                    }
                    role => steps(role, p) & !own_after != 0,
                };
                if has_move {
                    return fail("another piece of the victim's side has a move");
                }
            }
            let mut king_squares = facts.region(victim_king) & !bit(x);
            if c_role == Piece::King {
                king_squares &= !get_king_moves(x).0;
            }
            for k in squares(king_squares) {
                let closed = |t: Square| {
                    has(own_after, t)
                        || (t != x && has(fixed_attacks | c_direct, t))
                        || (t == x && has(fixed_attacks, x))
                        || (c_role == Piece::King && t != x && has(get_king_moves(x).0, t))
                };
                if !squares(get_king_moves(k).0).all(closed) {
                    return fail("the king may have a square");
                }
                if has(c_attacks, k) || discovered_check(facts, c, y, k, after | bit(x)) {
                    return fail("the king may be in check");
                }
            }
        }
    }
    Ok(())
}

/// Whether a slider of the capturer's side other than `c` may check the
/// king on `k` through `y`, the square `c` left: `y` on a line from `k`
/// with no piece of `stops` between, and the slider's region meeting the
/// line beyond `y` up to the first square of `stops`.
fn discovered_check(facts: &Facts<'_>, c: Square, y: Square, k: Square, stops: Set) -> bool {
    let line = cozy_chess::get_line_rays(k, y).0;
    if line == 0 || cozy_chess::get_between_rays(k, y).0 & stops != 0 {
        return false;
    }
    let diagonal = get_bishop_rays(k).has(y);
    // The squares beyond `y` seen from `k`, up to the first stop.
    let (df, dr) = ((y.file() as i8 - k.file() as i8).signum(), (y.rank() as i8 - k.rank() as i8).signum());
    let mut beyond = 0;
    let mut next = y.try_offset(df, dr);
    while let Some(square) = next {
        beyond |= bit(square);
        if has(stops, square) {
            break;
        }
        next = square.try_offset(df, dr);
    }
    let side = facts.color(c);
    squares(facts.ours(side) & !bit(c)).any(|s| {
        let role = facts.role(s);
        let slides =
            facts.may_promote(s) || role == Piece::Queen || role == if diagonal { Piece::Bishop } else { Piece::Rook };
        slides && facts.region(s) & beyond != 0
    })
}

/// Checks that no position satisfying J is a mate by the winner: for each
/// square `s` the loser's king may stand on, either no piece of the
/// winner can attack `s` (from a square of its region other than `s`,
/// lines stopped by the fixed pieces; the king gives no check), or the
/// certificate names neighbours `X` of `s` that cannot all be guarded.
///
/// In a mate with the king on `s`, every neighbour is *guarded*: a piece of
/// the loser stands on it (one square per piece, and only on a square of
/// its region), or a piece of the winner attacks it with `s` vacated (at
/// most as many squares of `X` as it attacks from some square of its
/// region: not `s`, not next to `s` for the king, not the first or last
/// rank for a pawn; lines stopped by fixed pieces, which stand at the
/// mate; a pawn that may promote as any piece). If those maxima and the
/// loser's pieces able to stand on `X` add up to fewer than `|X|`, some
/// square of `X` is unguarded: no mate on `s`. For the squares `s` of
/// `last_move`, the winner's king is placed only where [`last_move_excludes`]
/// leaves it (nowhere: no mate on `s`). The lines of a piece proved
/// immobile also stop at the fixed pieces of its proof (`stops`, see
/// [`immobile`]).
fn no_mating_square(
    facts: &Facts<'_>,
    escapes: &BTreeMap<String, String>,
    last_move: Set,
    stops: &[Set; 64],
) -> Result<(), String> {
    let (winner, loser) = (facts.winner, !facts.winner);
    let loser_king = facts.board.king(loser);
    let obstacles = facts.fixed & !bit(loser_king);
    let winner_king = facts.board.king(winner);
    // For each piece of the winner, its (role, square) placements.
    let placements = |q: Square, s: Square| {
        let mut roles = vec![facts.role(q)];
        if facts.may_promote(q) {
            roles.extend([Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]);
        }
        let region = facts.region(q) & !bit(s);
        let region = if q != winner_king {
            region
        } else if has(last_move, s) {
            squares(region & !get_king_moves(s).0)
                .filter(|&w| !last_move_excludes(facts, s, w))
                .fold(0, |r, w| r | bit(w))
        } else {
            region & !get_king_moves(s).0
        };
        roles.into_iter().flat_map(move |role| {
            let allowed = if role == Piece::Pawn { region & !last_rank(winner) & !last_rank(loser) } else { region };
            let stops = obstacles | (stops[q as usize] & !bit(loser_king));
            squares(allowed).map(move |u| attacks(role, winner, u, stops))
        })
    };
    for s in squares(facts.region(loser_king)) {
        let attackers = facts.ours(winner) & !bit(winner_king);
        if !squares(attackers).any(|q| placements(q, s).any(|a| has(a, s))) {
            continue;
        }
        if placements(winner_king, s).next().is_none() {
            // The winner's king stands somewhere at a mate: none on `s`.
            continue;
        }
        let witness = escapes
            .get(&s.to_string())
            .ok_or_else(|| format!("static: no reason why the loser's king cannot be mated on {s}"))?;
        let x = parse_squares(witness)?;
        if x == 0 || x & !get_king_moves(s).0 != 0 {
            return Err(format!("static: the escapes given for {s} are not neighbours of it"));
        }
        let by_winner: u32 =
            squares(facts.ours(winner)).map(|q| placements(q, s).map(|a| count(a & x)).max().unwrap_or(0)).sum();
        let by_loser = squares(facts.ours(loser) & !bit(loser_king)).filter(|&b| facts.region(b) & x != 0).count();
        if by_winner + by_loser as u32 >= count(x) {
            return Err(format!("static: on {s}, the squares {} can all be guarded", names(x)));
        }
    }
    Ok(())
}

/// The conditions of [`last_move_excludes`], checked once: every non-king piece of
/// the loser never moves (its region is its square), no castling right
/// remains, and no mate comes before the loser has moved: the
/// position is no mate (checked for every kind) and, with the winner to
/// move, none of its moves mates.
fn last_move_applies(facts: &Facts<'_>) -> Result<(), String> {
    let (winner, loser) = (facts.winner, !facts.winner);
    let board = facts.board;
    let loser_pieces = facts.ours(loser) & !board.pieces(Piece::King).0;
    if squares(loser_pieces).any(|q| facts.region(q) != bit(q)) {
        return Err("static: last move: a piece of the loser but the king may move".into());
    }
    // No castling right for either side: the winner's castling moves its
    // king two squares, and a loser's castling might not move a rook.
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        if rights.short.is_some() || rights.long.is_some() {
            return Err("static: last move: a castling right remains".into());
        }
    }
    if board.side_to_move() == winner
        && crate::position::legal_moves(board).into_iter().any(|mv| mated_by(&play(board, mv), winner))
    {
        return Err("static: last move: the winner mates at once".into());
    }
    Ok(())
}

/// *The last move*: with [`last_move_applies`]' conditions, whether no
/// mate with the loser's king on `s` can have the winner's king on `w`.
///
/// Such a mate comes after a move of the loser (the conditions rule out
/// one before it), and only the king moves among the loser's pieces (in
/// J every other one stays on its square): from a square `k'` of its
/// region next to `s`, held by no fixed piece. Before it, the winner's
/// king stood on `w'`, where it stood before the mating move: `w` when
/// another piece mated; when the king itself moved (not a castling: no
/// rights), a square of its region next to `w`, held by no fixed piece,
/// from which its move uncovered a check on `s` by a slider
/// ([`discovered_check`]: on a line from `s`, a slider's region meeting
/// the line beyond). In both positions before the mate the kings were on
/// different squares and not next to each other: `w'` not next to `s`, nor
/// on or next to `k'`. When no pair `k'`, `w'` satisfies this, no such
/// mate exists.
fn last_move_excludes(facts: &Facts<'_>, s: Square, w: Square) -> bool {
    let (winner, loser) = (facts.winner, !facts.winner);
    let winner_king = facts.board.king(winner);
    let open = |set: Set| set & !facts.fixed;
    let from = open(get_king_moves(s).0 & facts.region(facts.board.king(loser)));
    let uncovering = squares(open(get_king_moves(w).0 & facts.region(winner_king)))
        .filter(|&v| discovered_check(facts, winner_king, v, s, facts.fixed))
        .fold(0, |u, v| u | bit(v));
    let before = (bit(w) | uncovering) & !get_king_moves(s).0 & !bit(s);
    !squares(before).any(|v| squares(from).any(|k| k != v && !has(get_king_moves(v).0, k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{legal_moves, parse_fen};

    /// A mate the winner's king gives by uncovering a check, after the
    /// loser's king stepped next to it: 1. Kh4 Kg2# (the king leaves f2 and
    /// the bishop on e1 checks along f2-g3-h4; Kg2 guards h3, the knight g5,
    /// the pawn g4). Before the loser's last move the winner's king stood
    /// on f2, not next to h3: the last move must not exclude g2.
    #[test]
    fn the_last_move_keeps_a_discovered_mate() {
        let board = parse_fen("8/8/4n2p/5p1P/8/7K/5k2/4b3 w - - 0 1").unwrap();
        let [kh4, kg2] = ["h3h4", "f2g2"].map(|m| m.parse::<cozy_chess::Move>().unwrap());
        assert!(legal_moves(&board).contains(&kh4));
        let after = play(&board, kh4);
        assert!(legal_moves(&after).contains(&kg2));
        assert!(mated_by(&play(&after, kg2), Color::Black));
        let proof: StaticProof = serde_json::from_value(serde_json::json!({
            "regions": {"h3": format!("{:016x}", bit(Square::H3) | bit(Square::H4)),
                        "f2": format!("{:016x}", bit(Square::F2) | bit(Square::G2))},
            "last_move": "h4",
        }))
        .unwrap();
        let facts = Facts::new(&board, Color::Black, &proof, 0).unwrap();
        assert!(!last_move_excludes(&facts, Square::H4, Square::G2));
        // Without the bishop nothing is uncovered, and g2 is next to h3.
        let board = parse_fen("8/8/4n2p/5p1P/8/7K/5k2/8 w - - 0 1").unwrap();
        let facts = Facts::new(&board, Color::Black, &proof, 0).unwrap();
        assert!(last_move_excludes(&facts, Square::H4, Square::G2));
    }

    /// The facts of `fen` for White with the regions given (square name,
    /// region as square names).
    fn facts_with<'a>(board: &'a Board, regions: &[(&str, &str)]) -> Facts<'a> {
        let regions: BTreeMap<String, String> = regions
            .iter()
            .map(|(q, r)| {
                (q.to_string(), format!("{:016x}", bit(parse_square(q).unwrap()) | parse_squares(r).unwrap()))
            })
            .collect();
        let proof: StaticProof = serde_json::from_value(serde_json::json!({ "regions": regions })).unwrap();
        Facts::new(board, Color::White, &proof, 0).unwrap()
    }

    /// Own pawn behind, in a random edit of hard line 214: the rook of a4
    /// stays ahead of the pawn of a2 on the a-file, so a1 and a2 are closed
    /// to it; not once the rook's region leaves the file, nor once an
    /// enemy region meets the pawn's (a capture).
    #[test]
    fn a_rook_never_passes_its_own_pawn() {
        let board = parse_fen("8/1p3b2/pPp1p1p1/BkP1P1P1/RP1B4/BPB5/PKP5/8 w - - 0 1").unwrap();
        let rook = [("a4", "a3"), ("a2", "a3"), ("a3", "b2 c1")];
        let facts = facts_with(&board, &rook);
        assert_eq!(behind_own_pawn(&facts, Square::A4), parse_squares("a1 a2").unwrap());
        assert_eq!(behind_own_pawn(&facts, Square::A5), 0, "a bishop");
        let leaves = facts_with(&board, &[("a4", "a3 b4"), ("a2", "a3"), ("a3", "b2 c1")]);
        assert_eq!(behind_own_pawn(&leaves, Square::A4), 0);
        let captured = facts_with(&board, &[("a4", "a3"), ("a2", "a3"), ("a3", "b2 c1"), ("b5", "a3")]);
        assert_eq!(behind_own_pawn(&captured, Square::A4), 0);
    }

    /// The hard set's bishop cage (line 736): seven White bishops on the
    /// eight light squares of ranks 7 and 8. Every seven of the eight
    /// either hold b7, which attacks a6, or are all but b7, and then c8
    /// attacks a6 through the empty b7: a6 is attacked at every moment,
    /// though no single bishop attacks it from every square. With six
    /// bishops, b7 and c8 may both be empty, and a6 is not.
    #[test]
    fn a_bishop_chain_with_one_hole_guards_what_is_behind_it() {
        let cage = "b7 d7 f7 h7 a8 c8 e8 g8";
        let seven = parse_fen("B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - - 0 1").unwrap();
        let bishops = ["b7", "d7", "f7", "a8", "c8", "e8", "g8"];
        let facts = facts_with(&seven, &bishops.map(|b| (b, cage)));
        assert_eq!(groups(&facts, Color::White), vec![parse_squares(&bishops.join(" ")).unwrap()]);
        assert!(!has(persistent_attacks(&facts, Color::White), Square::A6));
        assert!(has(facts.persistent[Color::White as usize], Square::A6));
        let six = parse_fen("B3B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - - 0 1").unwrap();
        let bishops = ["b7", "d7", "f7", "a8", "e8", "g8"];
        let facts = facts_with(&six, &bishops.map(|b| (b, cage)));
        assert_eq!(groups(&facts, Color::White).len(), 1);
        assert!(!has(facts.persistent[Color::White as usize], Square::A6));
    }

    /// A group counts only if nothing else can stand among its squares:
    /// with the Black king's region reaching h7, the hole may hold it.
    #[test]
    fn a_group_shares_its_squares_with_nobody() {
        let cage = "b7 d7 f7 h7 a8 c8 e8 g8";
        let seven = parse_fen("B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - - 0 1").unwrap();
        let mut regions: Vec<(&str, &str)> =
            ["b7", "d7", "f7", "a8", "c8", "e8", "g8"].iter().map(|&b| (b, cage)).collect();
        regions.push(("a1", "h7"));
        let facts = facts_with(&seven, &regions);
        assert!(!has(facts.persistent[Color::White as usize], Square::A6));
    }

    /// The stops of a piece proved immobile cut its own lines only: the
    /// rook on a1 checks the Black king on a5 up the open a-file, and
    /// with no escapes given a mate there is not excluded; with a3
    /// among the rook's stops (a piece its proof keeps still there) no
    /// White piece attacks a5. The same stops given to the king, or the
    /// loser king's own square as a stop, cut nothing.
    #[test]
    fn an_immobile_pieces_stops_cut_its_own_lines() {
        let board = parse_fen("8/8/8/k7/8/8/8/R6K b - - 0 1").unwrap();
        let facts = facts_with(&board, &[]);
        let stopped = |piece: Square, stop: Square| {
            let mut stops = [0; 64];
            stops[piece as usize] = bit(stop);
            no_mating_square(&facts, &BTreeMap::new(), 0, &stops)
        };
        assert!(no_mating_square(&facts, &BTreeMap::new(), 0, &[0; 64]).unwrap_err().contains("mated on a5"));
        assert!(stopped(Square::A1, Square::A3).is_ok());
        assert!(stopped(Square::H1, Square::A3).is_err());
        assert!(stopped(Square::A1, Square::A5).is_err());
    }

    /// The hard set's line 128 for White, with the facts of its
    /// certificate: the queen never captured, the Black pieces around the
    /// king frozen, the queen kept to d1-h4 and ranks 5 to 8.
    fn line_128(fen: &str) -> (Board, StaticProof) {
        let board = parse_fen(fen).unwrap();
        let queen = "d1 e1 f1 g1 h1 d2 e2 f2 g2 h2 d3 e3 f3 g3 h3 d4 e4 f4 g4 h4";
        let mut region = parse_squares(queen).unwrap() | 0xffff_ffff_0000_0000;
        region |= if board.piece_on(Square::H3).is_some() { bit(Square::H3) } else { 0 };
        let proof = serde_json::from_value(serde_json::json!({
            "regions": {"h3": format!("{region:016x}")}, "never_captured": "h3", "frozen": "a1 a2 b2 a3",
        }))
        .unwrap();
        (board, proof)
    }

    /// The queen's checks next to the Black king on b3 are answered only by
    /// its capture (cozy-chess's legal moves say so for c3 and c2): the
    /// queen never lands there. Without the knight on a1, nothing but the
    /// king could take on c2, which the White king guards: Qc2 is mate
    /// there, and c2 is not closed.
    #[test]
    fn checks_only_a_capture_answers_close_their_squares() {
        let fen = "8/5ppp/8/8/ppp5/bkp4Q/qnp5/n1K5 b - - 0 1";
        let (board, proof) = line_128(fen);
        let facts = Facts::new(&board, Color::White, &proof, 0).unwrap();
        let closed = forcing(&facts, Square::H3);
        for (d, after) in
            [("c3", "8/5ppp/8/8/ppp5/bkQ5/qnp5/n1K5 b - - 0 1"), ("c2", "8/5ppp/8/8/ppp5/bkp5/qnQ5/n1K5 b - - 0 1")]
        {
            assert!(has(closed, parse_square(d).unwrap()), "{d}");
            let answers = legal_moves(&parse_fen(after).unwrap());
            assert!(!answers.is_empty() && answers.iter().all(|m| m.to.to_string() == d), "{d}");
        }
        let fen = "8/5ppp/8/8/ppp5/bkp4Q/qnp5/2K5 b - - 0 1";
        let (board, proof) = line_128(fen);
        let proof = StaticProof { frozen: "a2 b2 a3".into(), ..proof };
        let facts = Facts::new(&board, Color::White, &proof, 0).unwrap();
        assert!(!has(forcing(&facts, Square::H3), Square::C2));
        assert!(mated_by(&parse_fen("8/5ppp/8/8/ppp5/bkp5/qnQ5/2K5 b - - 0 1").unwrap(), Color::White));
    }

    /// Every first move of the frozen Black pieces of line 128 mates White:
    /// Qb1 on arrival, Nd1 and Nd3 by uncovering the bishop of a3 (cozy-chess
    /// plays them to mate). Without that bishop Nd1 gives no check.
    #[test]
    fn frozen_pieces_whose_every_move_mates() {
        let fen = "8/5ppp/8/8/ppp5/bkp4Q/qnp5/n1K5 b - - 0 1";
        let (board, proof) = line_128(fen);
        let facts = Facts::new(&board, Color::White, &proof, 0).unwrap();
        assert!(mates_on_arrival(&facts, Square::A2, Square::A2, bit(Square::B1), false));
        assert!(mates_on_departure(&facts, Square::B2, Square::B2, Square::D1));
        assert!(mates_on_departure(&facts, Square::B2, Square::B2, Square::D3));
        for uci in ["a2b1", "b2d1", "b2d3"] {
            assert!(mated_by(&play(&board, uci.parse().unwrap()), Color::Black), "{uci}");
        }
        assert!(frozen(&facts, Square::A2).is_ok() && frozen(&facts, Square::B2).is_ok());
        let without = parse_fen("8/5ppp/8/8/ppp5/1kp4Q/qnp5/n1K5 b - - 0 1").unwrap();
        let (_, proof) = line_128(fen);
        let proof = StaticProof { frozen: "a1 a2 b2".into(), ..proof };
        let facts = Facts::new(&without, Color::White, &proof, 0).unwrap();
        assert!(!mates_on_departure(&facts, Square::B2, Square::B2, Square::D1));
        assert!(frozen(&facts, Square::B2).is_err());
        assert!(!mated_by(&play(&without, "b2d1".parse().unwrap()), Color::Black));
    }

    /// Binomial coefficients up to the budget: `C(8, 7) = 8`,
    /// `C(64, 63) = 64`, `C(10, 2) = 45`, `C(23, 2) = 253`; `C(24, 2) = 276`
    /// and `C(26, 13)` are over it.
    #[test]
    fn placements_count_subsets_up_to_the_budget() {
        assert_eq!(placements(8, 7), Some(8));
        assert_eq!(placements(64, 63), Some(64));
        assert_eq!(placements(10, 2), Some(45));
        assert_eq!(placements(23, 2), Some(253));
        assert_eq!(placements(24, 2), None);
        assert_eq!(placements(26, 13), None);
        assert_eq!(placements(5, 5), Some(1));
    }

    /// A mate after a move of another piece of the loser, the loser's king
    /// already on its square and the winner's king next to the square it
    /// came from: 1. a3 Be1#. The rule applies only when every other piece
    /// of the loser keeps its square.
    #[test]
    fn the_last_move_needs_the_losers_other_pieces_still() {
        let board = parse_fen("8/8/4n2p/5p1P/7K/8/P2b2k1/8 w - - 0 1").unwrap();
        let [a3, be1] = ["a2a3", "d2e1"].map(|m| m.parse::<cozy_chess::Move>().unwrap());
        let after = play(&board, a3);
        assert!(legal_moves(&after).contains(&be1));
        assert!(mated_by(&play(&after, be1), Color::Black));
        let a_file = cozy_chess::File::A.bitboard().0 & !bit(Square::A1);
        let proof = |pawn_region: Set| -> StaticProof {
            serde_json::from_value(serde_json::json!({
                "regions": {"a2": format!("{pawn_region:016x}")},
                "last_move": "h4",
            }))
            .unwrap()
        };
        let moving = proof(a_file);
        assert!(last_move_applies(&Facts::new(&board, Color::Black, &moving, 0).unwrap()).is_err());
        let still = proof(bit(Square::A2));
        assert!(last_move_applies(&Facts::new(&board, Color::Black, &still, 0).unwrap()).is_ok());
    }

    /// A static proof with these pieces claimed immobile, each with
    /// the kings' regions the whole board.
    fn claiming(immobile: &[(&str, &str)]) -> StaticProof {
        let full = format!("{:016x}", u64::MAX);
        let subs: Vec<_> = immobile
            .iter()
            .map(|(p, r)| {
                let region = format!("{:016x}", bit(parse_square(p).unwrap()) | parse_squares(r).unwrap());
                serde_json::json!({"piece": p, "regions": {"e1": full, "e8": full, *p: region}})
            })
            .collect();
        serde_json::from_value(serde_json::json!({"regions": {"e1": full, "e8": full}, "immobile": subs})).unwrap()
    }

    /// A rook that can move is no immobile piece: its closure in its own
    /// proof (its region its square) fails on its first step; with its
    /// region the whole board the closure holds, but an immobile piece's
    /// region must be its square.
    #[test]
    fn a_piece_that_can_move_is_not_immobile() {
        let board = parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let err = check(&board, Color::White, &claiming(&[("a1", "")])).unwrap_err();
        assert!(err.contains("region of a1 lacks"), "{err}");
        let everywhere = Square::ALL.map(|s| s.to_string()).join(" ");
        let err = check(&board, Color::White, &claiming(&[("a1", &everywhere)])).unwrap_err();
        assert!(err.contains("immobile piece on a1 is more than its square"), "{err}");
        // Claimed on an empty square, twice, or more than the cap.
        assert!(check(&board, Color::White, &claiming(&[("b1", "")])).unwrap_err().contains("no piece on b1"));
        let twice = claiming(&[("a1", &everywhere), ("a1", &everywhere)]);
        assert!(check(&board, Color::White, &twice).is_err());
        let many = claiming(&[("a1", ""); MAX_IMMOBILE + 1]);
        assert!(check(&board, Color::White, &many).unwrap_err().contains("more than 32"));
    }
}
