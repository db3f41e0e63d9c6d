//! The rules of the FIDE Laws of Chess that end a game or make a draw
//! claimable, one module each, with the article in the module documentation.
//! They are small, pure functions (and one tracker); the
//! [`Adjudicator`](crate::Adjudicator) applies them ply by ply.

pub mod checkmate;
pub mod dead;
pub mod move_count;
pub mod repetition;
pub mod stalemate;
pub mod timeout;
