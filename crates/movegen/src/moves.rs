//! [`Move`]: a move packed into 16 bits.

use core::fmt::{self, Write};

use crate::{Role, Square};

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move of a piece from one square to another (captures included),
    /// other than the special kinds below.
    Normal,
    /// A pawn reaching the last rank and becoming the given piece.
    Promotion(Role),
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling; the move's squares are the *king's* (e1g1, e1c1, e8g8, e8c8).
    Castle,
}

/// A chess move in 16 bits: origin (bits 0-5), destination (bits 6-11),
/// kind (bits 12-13: normal, promotion, en passant, castling) and promotion
/// piece (bits 14-15: knight, bishop, rook, queen).
///
/// A `Move` only makes sense together with the position it was generated
/// in: it records squares, not the piece that moves. `Display` writes UCI.
///
/// ```
/// use movegen::{Move, MoveKind, Role, Square};
/// let m = Move::new(Square::E7, Square::E8, MoveKind::Promotion(Role::Knight));
/// assert_eq!(m.to_string(), "e7e8n");
/// assert_eq!(m.promotion(), Some(Role::Knight));
/// assert_eq!(core::mem::size_of::<Move>(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_PROMOTION: u16 = 1 << 12;
const KIND_EN_PASSANT: u16 = 2 << 12;
const KIND_CASTLE: u16 = 3 << 12;
const KIND_MASK: u16 = 3 << 12;

impl Move {
    /// Packs a move.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let squares = from as u16 | (to as u16) << 6;
        Move(
            squares
                | match kind {
                    MoveKind::Normal => KIND_NORMAL,
                    MoveKind::Promotion(role) => KIND_PROMOTION | ((role as u16).saturating_sub(1) & 3) << 14,
                    MoveKind::EnPassant => KIND_EN_PASSANT,
                    MoveKind::Castle => KIND_CASTLE,
                },
        )
    }

    /// A normal move.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6)
    }

    /// A promotion to `role` (must be knight, bishop, rook or queen; other
    /// roles are stored as a knight).
    #[inline(always)]
    pub const fn promotion_to(from: Square, to: Square, role: Role) -> Move {
        Move::new(from, to, MoveKind::Promotion(role))
    }

    /// The origin square (the king's, for castling).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new(self.0 as u32 & 63)
    }

    /// The destination square (the king's, for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 as u32 >> 6) & 63)
    }

    /// The kind of the move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 & KIND_MASK {
            KIND_NORMAL => MoveKind::Normal,
            KIND_PROMOTION => MoveKind::Promotion(self.promotion_role()),
            KIND_EN_PASSANT => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    #[inline(always)]
    const fn promotion_role(self) -> Role {
        match self.0 >> 14 {
            0 => Role::Knight,
            1 => Role::Bishop,
            2 => Role::Rook,
            _ => Role::Queen,
        }
    }

    /// The promotion piece, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        if self.is_promotion() { Some(self.promotion_role()) } else { None }
    }

    /// Whether this is a promotion.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & KIND_MASK == KIND_PROMOTION
    }

    /// Whether this is an en passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 & KIND_MASK == KIND_EN_PASSANT
    }

    /// Whether this is castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 & KIND_MASK == KIND_CASTLE
    }

    /// The raw 16-bit encoding.
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::to_bits`]. Every `u16` decodes to some
    /// move; whether it is legal is for the position to say.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}

impl Move {
    /// Writes the move in UCI notation with `to` as its destination (the
    /// move's own, or for a Chess960 castling the rook's square:
    /// [`crate::Position::to_uci`]), without the formatting machinery.
    pub(crate) fn write_uci(self, to: Square, out: &mut impl Write) -> fmt::Result {
        out.write_str(self.from().name())?;
        out.write_str(to.name())?;
        match self.promotion() {
            Some(role) => out.write_char(role.char()),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Move {
    /// UCI notation: `e2e4`, `e7e8q`, castling as the king's move (`e1g1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_uci(self.to(), f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self}")?;
        match self.kind() {
            MoveKind::EnPassant => f.write_str(" e.p.)"),
            MoveKind::Castle => f.write_str(" castle)"),
            _ => f.write_str(")"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let kinds = [
            MoveKind::Normal,
            MoveKind::EnPassant,
            MoveKind::Castle,
            MoveKind::Promotion(Role::Knight),
            MoveKind::Promotion(Role::Bishop),
            MoveKind::Promotion(Role::Rook),
            MoveKind::Promotion(Role::Queen),
        ];
        for from in Square::ALL {
            for to in Square::ALL {
                for kind in kinds {
                    let m = Move::new(from, to, kind);
                    assert_eq!((m.from(), m.to(), m.kind()), (from, to, kind));
                    assert_eq!(Move::from_bits(m.to_bits()), m);
                }
            }
        }
    }
}
