//! The castling rule of the fixpoint: the castlings the analysed position's
//! rights allow, and when one of them may still be played.
//!
//! # The rule
//!
//! For each castling right of the analysed position (king `K` on `k`, rook
//! `R` on `r`, destinations `k'` and `r'`, see [`movegen::CastlingPath`]):
//! unless `K` or `R` is assumed never to move, or the castling is
//! impossible for the pass's facts — a piece that never leaves its square
//! (`C = 0`) stands on a square the castling needs empty, or one the king
//! crosses or lands on is attacked directly by an enemy that never leaves
//! its square — add `k'` to `K`'s region and `r'` to `R`'s.
//!
//! # Why it is sound, in standard chess and Chess960
//!
//! Lemma 8's induction, for a game that plays this castling at some ply:
//! the position before it is within the regions (induction), and the
//! castling is legal there. Its king and rook have never moved (the right
//! remains), so they stand on `k` and `r`; every square the castling needs
//! empty is empty, so a piece that stood there in the analysed position has
//! left it (`C = 1` by induction): none of them is a `C = 0` piece; the
//! squares the king crosses and lands on are not attacked, so an enemy that
//! attacks one of them directly (a pawn, knight or king, or a slider next
//! to it: an attack nothing can block) from its initial square has left it
//! (`C = 1`). So the rule applied in the pass with the final regions, and
//! `k'` and `r'` are in the regions: the position after the castling is
//! within them too. `C` of the two pieces (their regions have another
//! square when they move) and `R[r']` follow from the clearance and
//! reachability rules; castling captures nothing and moves no pawn, so no
//! other variable changes.
//!
//! The rule's conditions only weaken as the regions grow (fewer `C = 0`
//! pieces), so the operator stays monotone and the fixpoint least.
//!
//! The rule is needed: stepping the king and sliding the rook square by
//! square through empty squares (which covers standard castling) does not
//! cover Chess960's, where the king may pass over the rook's square or the
//! rook over the king's (`K f1, R g1`: they swap; `K g1, R h1`: the rook
//! crosses the king), and neither piece may have any other move; nor a
//! rook that may not stop on the square it crosses (`b1` of O-O-O, closed
//! to a piece never captured by a check only its capture answers).
//! `tests/chess960.rs` plays random Chess960 games, castlings among them,
//! and checks that every position stays within the regions.

use movegen::{Bitboard, CastlingPath, Color, Position};

/// The castling paths of the analysed position's rights (at most four).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Castlings {
    paths: [Option<CastlingPath>; 4],
}

impl Castlings {
    /// The castlings of `pos`'s rights.
    pub fn of(pos: &Position) -> Castlings {
        let mut paths = [None; 4];
        for (slot, path) in paths.iter_mut().zip(pos.castling_paths()) {
            *slot = Some(path);
        }
        Castlings { paths }
    }

    /// The castlings, in FEN order.
    pub fn iter(&self) -> impl Iterator<Item = CastlingPath> + '_ {
        self.paths.iter().flatten().copied()
    }

    /// The castlings of `color`.
    pub fn of_color(&self, color: Color) -> impl Iterator<Item = CastlingPath> + '_ {
        self.iter().filter(move |path| path.castling.color == color)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.paths.iter().all(Option::is_none)
    }

    /// The castlings of `color` the rule lets through for one pass (see the
    /// module docs): `uncleared` the pieces with `C = 0`, `danger` the
    /// squares `color`'s enemies with `C = 0` attack directly, `still` the
    /// pieces assumed never to move.
    pub(crate) fn possible(
        &self,
        color: Color,
        uncleared: Bitboard,
        danger: Bitboard,
        still: Bitboard,
    ) -> [Option<CastlingPath>; 2] {
        let mut possible = [None; 2];
        for (slot, path) in possible.iter_mut().zip(self.of_color(color).filter(|path| {
            !still.contains(path.king)
                && !still.contains(path.rook)
                && (path.empty & uncleared).is_empty()
                && ((path.crossed | path.king_to) & danger).is_empty()
        })) {
            *slot = Some(path);
        }
        possible
    }
}
