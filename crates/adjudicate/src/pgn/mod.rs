//! A streaming PGN reader, written for this project (MIT OR Apache-2.0):
//! [`Splitter`] cuts the byte stream into the text of each game with
//! bounded memory (sequential, cheap), and [`parse_game`] turns one game's
//! text into a [`Game`](crate::Game) (the costly part, which can run on
//! many threads). [`Reader`] puts the two together. [`game_boundaries`]
//! cuts a file into byte ranges on game boundaries, each of which can be
//! split on its own with the games of the whole file.
//!
//! A malformed game never stops the stream: it becomes one [`PgnError`]
//! (game number, byte offset, reason) and the next game is read.
//!
//! ```
//! use adjudicate::pgn::Reader;
//! let pgn = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. e4 Ke7?? Qh5 0-1\n\n1. d4 1/2-1/2\n";
//! let games: Vec<_> = Reader::new(pgn.as_bytes()).collect();
//! assert_eq!(games.len(), 3);
//! assert!(games[0].is_ok());
//! assert!(games[1].as_ref().unwrap_err().to_string().contains("illegal move"));
//! assert_eq!(games[2].as_ref().unwrap().game.moves().len(), 1);
//! ```

mod boundary;
mod parse;
mod split;

use std::io::BufRead;

pub use boundary::{game_boundaries, next_game_start};
pub use parse::{PgnError, PgnErrorKind, PgnGame, Tags, parse_game};
pub use split::{MAX_GAME_BYTES, RawGame, Splitter};

/// Reads games one after the other: `Ok(game)`, or `Err(error)` for a
/// malformed game (the reader goes on) or, last, for an input that cannot
/// be read further ([`PgnErrorKind::Read`]).
#[derive(Debug)]
pub struct Reader<R> {
    splitter: Splitter<R>,
    /// The number of the last game read.
    games: u64,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader { splitter: Splitter::new(input), games: 0, failed: false }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.splitter.next_game() {
            Ok(Some(raw)) => {
                self.games = raw.number;
                Some(parse_game(&raw))
            }
            Ok(None) => None,
            Err(e) => {
                self.failed = true;
                let offset = self.splitter.offset();
                let kind = PgnErrorKind::Read { error: e.to_string() };
                Some(Err(PgnError { game: self.games + 1, offset, at: offset, kind }))
            }
        }
    }
}
