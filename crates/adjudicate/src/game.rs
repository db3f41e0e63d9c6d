//! The game model: a start position, the moves played (checked legal when
//! the game is built), the result recorded by the source, and how the
//! source says the game ended ([`Termination`]).

use core::fmt;
use core::str::FromStr;

use movegen::{Color, Move, Position};

/// A game result, as written at the end of a PGN game (PGN standard 8.2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished, unknown, or (as a *correct* result) not decided by
    /// the analysis.
    Unknown,
}

impl Outcome {
    /// The win for `color`.
    pub const fn win(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// The PGN notation: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// The winner, for a decisive result.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::WhiteWins => Some(Color::White),
            Outcome::BlackWins => Some(Color::Black),
            Outcome::Draw | Outcome::Unknown => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is not a PGN result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeError {
    /// The text (shortened).
    pub found: String,
}

impl fmt::Display for OutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid result {:?} (expected 1-0, 0-1, 1/2-1/2 or *)", self.found)
    }
}

impl std::error::Error for OutcomeError {}

impl FromStr for Outcome {
    type Err = OutcomeError;

    /// Parses `1-0`, `0-1`, `1/2-1/2` (also `½-½`) and `*`.
    fn from_str(text: &str) -> Result<Outcome, OutcomeError> {
        match text {
            "1-0" => Ok(Outcome::WhiteWins),
            "0-1" => Ok(Outcome::BlackWins),
            "1/2-1/2" | "½-½" => Ok(Outcome::Draw),
            "*" => Ok(Outcome::Unknown),
            _ => Err(OutcomeError { found: text.chars().take(20).collect() }),
        }
    }
}

/// How the source says the game ended, as far as the rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Termination {
    /// Anything else: a checkmate or stalemate on the board, a resignation,
    /// an agreed or claimed draw, an unfinished game. The recorded result
    /// stands unless a rule ended the game earlier.
    #[default]
    Other,
    /// A player ran out of time (Art. 6.9). `flagged` is the player whose
    /// flag fell; `None` means "infer it": the loser of a decisive recorded
    /// result, else the side to move in the final position (only the
    /// clock of the player to move runs).
    TimeForfeit {
        /// The player who ran out of time, if the source says.
        flagged: Option<Color>,
    },
}

/// Why a [`Game`] could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameError {
    /// Move `index` (0-based) is not legal where it is played.
    IllegalMove {
        /// The index of the move in the game.
        index: usize,
        /// The move.
        m: Move,
        /// The position it was played in.
        fen: String,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::IllegalMove { index, m, fen } => {
                write!(f, "ply {}: {m} is not a legal move in {fen}", index + 1)
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A game: the position it started from, its moves (legal: checked by
/// [`Game::new`]), the position after each move, and what the source
/// recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// The result the source recorded.
    pub recorded: Outcome,
    /// How the source says the game ended.
    pub termination: Termination,
    /// An identifier for reports (`GameId` or `Site` tag, a line number).
    pub id: String,
}

impl Game {
    /// A game of `moves` from `start`, checking every move's legality.
    ///
    /// ```
    /// use adjudicate::{Game, Outcome};
    /// use movegen::Position;
    /// let start = Position::start();
    /// let e4 = start.parse_san("e4").unwrap();
    /// let game = Game::new(start, vec![e4], Outcome::Unknown).unwrap();
    /// assert_eq!(game.moves().len(), 1);
    /// // The same move twice is illegal the second time.
    /// assert!(Game::new(start, vec![e4, e4], Outcome::Unknown).is_err());
    /// ```
    pub fn new(start: Position, moves: Vec<Move>, recorded: Outcome) -> Result<Game, GameError> {
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut pos = start;
        positions.push(pos);
        for (index, &m) in moves.iter().enumerate() {
            match pos.try_play(m) {
                Some(next) => pos = next,
                None => return Err(GameError::IllegalMove { index, m, fen: pos.to_fen() }),
            }
            positions.push(pos);
        }
        Ok(Game::from_positions(positions, moves, recorded))
    }

    /// A game whose moves the caller has already checked (the PGN reader
    /// resolves each move among the legal moves of its position). Illegal
    /// moves do not panic, but the adjudication of such a game is
    /// unspecified.
    pub fn from_legal(start: Position, moves: Vec<Move>, recorded: Outcome) -> Game {
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut pos = start;
        positions.push(pos);
        for &m in &moves {
            pos = pos.play(m);
            positions.push(pos);
        }
        Game::from_positions(positions, moves, recorded)
    }

    /// A game from its positions and the legal moves between them, as the
    /// PGN reader builds it (it has played every move already):
    /// `positions[i + 1]` must be `positions[i].play(moves[i])`. If the
    /// lengths do not match (`positions` must have one more), the moves
    /// are cut to fit; a game always has a start position (the standard
    /// one if `positions` is empty).
    pub fn from_positions(mut positions: Vec<Position>, mut moves: Vec<Move>, recorded: Outcome) -> Game {
        if positions.is_empty() {
            positions.push(Position::start());
        }
        moves.truncate(positions.len() - 1);
        positions.truncate(moves.len() + 1);
        Game { positions, moves, recorded, termination: Termination::Other, id: String::new() }
    }

    /// The same game, marked as ended by a timeout (see [`Termination`]).
    pub fn with_timeout(mut self, flagged: Option<Color>) -> Game {
        self.termination = Termination::TimeForfeit { flagged };
        self
    }

    /// The same game with identifier `id`.
    pub fn with_id(mut self, id: impl Into<String>) -> Game {
        self.id = id.into();
        self
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after every move: `positions()[0]` is the start, the
    /// last one the final position.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }
}
