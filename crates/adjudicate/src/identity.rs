//! Position identity for the repetition rules (FIDE Laws, Art. 9.2.3):
//! positions are the same when the same player has the move, pieces of the
//! same kind and colour stand on the same squares, and the possible moves
//! of all the pieces are the same. In particular (9.2.3.1) an en passant
//! square counts only when the en passant capture is *legal*, and
//! (9.2.3.2) castling *rights* count (a right is lost once the king or the
//! rook has moved, whether or not castling is possible right now).
//!
//! [`PositionId`] holds exactly those facts and compares them all, so two
//! positions are only ever counted as one when they are the same in the
//! sense of the Laws: the 64-bit key ([`Position::repetition_key`]) is only
//! a fast filter, a key collision cannot make a false repetition.

use movegen::{Board, CastlingRights, Color, Position, Square};

/// What makes two positions "the same" under Art. 9.2.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionId {
    /// [`Position::repetition_key`]: the Zobrist hash with the en passant
    /// file only when the capture is legal.
    pub key: u64,
    board: Board,
    side_to_move: Color,
    castling: CastlingRights,
    legal_ep: Option<Square>,
}

impl PositionId {
    /// The identity of `pos`.
    ///
    /// ```
    /// use adjudicate::PositionId;
    /// use movegen::Position;
    /// // After 1. e4 the en passant square e3 is not recorded (no black pawn
    /// // can capture); with a black pawn on d4 it is, and the capture is legal.
    /// let a: Position = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1".parse().unwrap();
    /// let b: Position = "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1".parse().unwrap();
    /// assert_ne!(PositionId::new(&a), PositionId::new(&b));
    /// // Here dxe3 would take both pawns off the fourth rank and expose the
    /// // black king on h4 to the rook on a4: the capture is illegal, so the
    /// // recorded en passant square does not make a different position.
    /// let c: Position = "8/8/8/8/R2pP2k/8/8/4K3 b - e3 0 1".parse().unwrap();
    /// let d: Position = "8/8/8/8/R2pP2k/8/8/4K3 b - - 0 1".parse().unwrap();
    /// assert!(c.ep_square().is_some());
    /// assert_eq!(PositionId::new(&c), PositionId::new(&d));
    /// ```
    pub fn new(pos: &Position) -> PositionId {
        PositionId {
            key: pos.repetition_key(),
            board: *pos.board(),
            side_to_move: pos.side_to_move(),
            castling: pos.castling_rights(),
            legal_ep: pos.legal_ep_square(),
        }
    }
}
