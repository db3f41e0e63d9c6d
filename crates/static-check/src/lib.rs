#![doc = include_str!("../README.md")]
//!
//! Proving that a player can no longer checkmate, **without search**.
//!
//! Three rules, from M. Ambrona, *A Practical Algorithm for Chess
//! Unwinnability*:
//!
//! * [`insufficient_material`]: the intended winner has only the king, or
//!   the pawn-free material configurations of Lemmas 5 and 6;
//! * [`figure8()`]: the semi-static algorithm of Figure 8 on the mobility
//!   solution of [`mobility`]: if no square the loser's king can reach can
//!   ever be a mating square, the position is unwinnable. The module
//!   documentation of [`figure8`](mod@figure8) gives the proof of soundness,
//!   including a correction to the paper's count of covered squares.
//!
//! [`analyze`] runs them in order and returns an [`Explanation`];
//! [`is_unwinnable`] is the same decision without building the explanation;
//! [`dead`] asks it for both colours (a dead position, FIDE Art. 5.2.2).
//!
//! Everything here is **sound**: "unwinnable" is never said of a position
//! where a mate exists. It is not complete: "not proved" is the answer for
//! most positions, and the search decides those.
//!
//! # Example: the paper's Position 1
//!
//! ```
//! use movegen::{Color, Position};
//!
//! let pos: Position = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54".parse().unwrap();
//! let white = static_check::analyze(&pos, Color::White);
//! assert!(white.is_unwinnable());
//! assert_eq!(
//!     white.to_string(),
//!     "unwinnable for white: the black king can reach 14 squares and none can be a mating square \
//! (14 never attacked by white, 0 always keep an escape)
//!   position          black king region (+), intruders (x)
//! 8 . . . . . . . .   + + + + + + + +
//! 7 . p . . . k . .   . . . + + + + +
//! 6 p P p . . . p .   . . . . + . . .
//! 5 P . P p . p P p   . . . . . . . .
//! 4 . . b P . P . P   . . . . . . . .
//! 3 . . . . B K . .   . . . . . . . .
//! 2 . . . . . . . .   . . . . . . . .
//! 1 . . . . . . . .   . . . . . . . .
//!   a b c d e f g h   a b c d e f g h
//! never attacked by white: e6 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8
//! "
//! );
//!
//! // For Black, the light-squared bishop on c4 is an intruder: it can reach
//! // the white king's region. But on every light square the white king
//! // keeps a dark escape square: only the dark-squared bishop can block one.
//! let black = static_check::analyze(&pos, Color::Black);
//! assert!(black.is_unwinnable());
//! let text = black.to_string();
//! assert!(text.contains("white king region (+), intruders (x)"));
//! assert!(text.contains("4 . . b P . P . P   + + x . . . . ."));
//! assert!(text.contains("h1: the king escapes to g1/h2: 2 square(s), at most 1 can be blocked or attacked"));
//! assert!(static_check::dead(&pos).is_some());
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod explanation;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod figure8;
mod material;
// Internals, public for the tests and benchmarks of this project only.
#[doc(hidden)]
pub mod mating_net;
mod witness;

use movegen::{Color, Position};

pub use explanation::Explanation;
pub use figure8::{Figure8, Obstacle, Options, SafeSquare, figure8, figure8_light, figure8_with};
pub use material::{InsufficientMaterial, insufficient_material, irreplaceable};
pub use witness::{ImmobileWitness, StaticWitness, Uncertified, escapes_of, static_witness};

/// The static analysis of `pos` for `winner`: the material rules, then
/// Figure 8, with the explanation.
///
/// A position the winner has already mated is recognised first and never
/// proved unwinnable: the rules reason about the game still to come, and a
/// mate that is given rather than played (a double check by two bishops of
/// one colour cannot arise from a move) escapes some of them (Lemma 6).
pub fn analyze(pos: &Position, winner: Color) -> Explanation {
    analyze_with(pos, winner, figure8)
}

fn analyze_with(pos: &Position, winner: Color, figure8: fn(&Position, Color) -> Figure8) -> Explanation {
    if pos.side_to_move() != winner && pos.is_checkmate() {
        return Explanation { position: *pos, winner, already_mate: true, material: None, figure8: None };
    }
    let material = insufficient_material(pos, winner);
    let figure8 = if material.is_none() { Some(figure8(pos, winner)) } else { None };
    Explanation { position: *pos, winner, already_mate: false, material, figure8 }
}

/// Whether the static analysis proves `pos` unwinnable for `winner`.
pub fn is_unwinnable(pos: &Position, winner: Color) -> bool {
    analyze(pos, winner).is_unwinnable()
}

/// [`is_unwinnable`] without the case split on pieces that never move
/// ([`figure8_light`]): proves less, costs a few times less when it fails.
/// For callers that ask about many positions, such as a search. It is
/// exactly the first attempt of [`is_unwinnable`] (which returns as soon
/// as that attempt proves), so whatever it proves, [`is_unwinnable`]
/// proves too, and the tests of the latter's soundness cover it.
pub fn is_unwinnable_light(pos: &Position, winner: Color) -> bool {
    analyze_light(pos, winner).is_unwinnable()
}

/// [`analyze`] without the case split on pieces that never move
/// ([`figure8_light`]), for a caller that wants the explanation when the
/// light check proves: the split is only tried after the first attempt
/// failed, so when this explanation proves, it is the one [`analyze`]
/// gives (tested in `tests/light.rs`).
pub fn analyze_light(pos: &Position, winner: Color) -> Explanation {
    analyze_with(pos, winner, figure8_light)
}

/// Whether the static analysis proves `pos` dead (unwinnable for both
/// colours); if so, the two explanations, White's first.
pub fn dead(pos: &Position) -> Option<[Explanation; 2]> {
    let white = analyze(pos, Color::White);
    if !white.is_unwinnable() {
        return None;
    }
    let black = analyze(pos, Color::Black);
    black.is_unwinnable().then_some([white, black])
}
