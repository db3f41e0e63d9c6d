//! Queries: a position and, optionally, the intended winner.
//!
//! A query line is `FEN [WINNER] [# comment]`:
//!
//! * the FEN has 4 fields, or 6 with the move counters (the halfmove clock,
//!   0 to 65535, and the fullmove number, 1 to 65535, both plain decimal
//!   digits); 5 fields, signs, decimal points and out-of-range counters are
//!   errors;
//! * the token after the FEN, if any, is the intended winner: `white`,
//!   `black`, `w`, `b` or `both`, in any case. Anything else there is an
//!   error (it is never skipped: `black;` or `"white"` would otherwise be
//!   answered for the default colour). EPD operations (`bm Qd1+;`) are not
//!   read;
//! * a token starting with `#` starts a comment to the end of the line (so
//!   `FEN # game 42` and `FEN white # game 42` carry an id); any other token
//!   after the winner is an error.
//!
//! Without a winner, the winner is the side *not* to move: the player whose
//! opponent has just run out of time.
//!
//! On the command line ([`parse_arguments`]) several queries may follow
//! each other, each `FEN [WINNER]`; a token starting with `#` starts a
//! comment to the end of its argument (`'FEN white # game 42'`).
//!
//! A position that the move rules handle but that no game can reach (more
//! than eight pawns, more pieces than promotions allow, an impossible
//! check: [`movegen::unreachable`]) is a query like any other, with its
//! reasons in [`Query::unreachable`]; [`Query::strict`] turns it into an
//! error ([`QueryError::Unreachable`]).

use core::fmt;

use movegen::{Color, FenError, FenSyntaxError, Position, Setup, Unreachable};

use crate::options::Winners;

/// A parsed query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The FEN as given (its tokens joined by single spaces).
    pub fen: String,
    /// The position.
    pub position: Position,
    /// The winner(s) named after the FEN, if any.
    pub winners: Option<Winners>,
    /// Why no game can reach the position (empty: reachable as far as the
    /// rules of [`movegen::unreachable`] tell).
    pub unreachable: Vec<Unreachable>,
}

impl Query {
    /// The query, or [`QueryError::Unreachable`] if no game can reach its
    /// position (`--strict`).
    pub fn strict(self) -> Result<Query, QueryError> {
        if self.unreachable.is_empty() { Ok(self) } else { Err(QueryError::Unreachable(self.unreachable)) }
    }

    /// The query's position played as Chess960 (`--chess960`): castling
    /// written as the king taking its rook. The rights are the same:
    /// wherever the standard reading of a FEN is valid, it names the rooks
    /// the Chess960 reading does.
    pub fn chess960(mut self, chess960: bool) -> Query {
        if chess960 {
            self.position = self.position.with_chess960(true);
        }
        self
    }

    /// The colours to analyse for: `forced` if given (the `--winner`
    /// option), else those named after the FEN, else the side not to move.
    pub fn colors(&self, forced: Option<Winners>) -> &'static [Color] {
        match forced.or(self.winners) {
            Some(winners) => winners.colors(),
            None if self.position.side_to_move() == Color::White => Winners::Black.colors(),
            None => Winners::White.colors(),
        }
    }
}

/// Which move counter of a FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// The 5th field: halfmoves since the last capture or pawn move, 0 to 65535.
    HalfmoveClock,
    /// The 6th field: the number of the full move, 1 to 65535.
    FullmoveNumber,
}

/// Why a query was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// The FEN is invalid (its syntax, or the position it describes).
    Fen(FenError),
    /// A move counter is not a plain number in its range.
    Counter {
        /// Which one.
        counter: Counter,
        /// The field as written.
        found: String,
    },
    /// A halfmove clock without a fullmove number.
    FiveFields,
    /// A 7th numeric field.
    TooManyFields {
        /// The field as written.
        found: String,
    },
    /// The token after the FEN is not a colour (nor a `#` comment).
    UnknownWinner {
        /// The token as written.
        found: String,
        /// The colour it seems to mean (`black;` means `black`).
        meant: Option<&'static str>,
    },
    /// A token after the winner that is not a comment (on a line), or not
    /// the start of another FEN (on the command line).
    Unexpected {
        /// The token as written.
        found: String,
    },
    /// The position cannot arise in a game (rejected in strict mode only).
    Unreachable(Vec<Unreachable>),
}

/// The reasons of [`movegen::unreachable`] as one sentence (`None` if
/// there are none).
pub fn unreachable_text(reasons: &[Unreachable]) -> Option<String> {
    (!reasons.is_empty()).then(|| reasons.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
}

/// Cuts user text to a printable length for an error message.
fn excerpt(text: &str) -> String {
    crate::lines::shorten_to(text, 24)
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Fen(e) if e.is_syntax() => write!(f, "invalid FEN: {e}"),
            QueryError::Fen(e) => write!(f, "impossible position: {e}"),
            QueryError::Counter { counter: Counter::HalfmoveClock, found } => {
                write!(f, "invalid FEN: the halfmove clock is {:?}, expected a number from 0 to 65535", excerpt(found))
            }
            QueryError::Counter { counter: Counter::FullmoveNumber, found } => {
                write!(f, "invalid FEN: the fullmove number is {:?}, expected a number from 1 to 65535", excerpt(found))
            }
            QueryError::FiveFields => f.write_str(
                "invalid FEN: 5 fields; give the halfmove clock and the fullmove number together (6 fields) or \
                 neither (4 fields)",
            ),
            QueryError::TooManyFields { found } => {
                write!(f, "invalid FEN: a 7th field {:?} (a FEN has 4 or 6 fields)", excerpt(found))
            }
            QueryError::UnknownWinner { found, meant } => {
                write!(
                    f,
                    "unknown winner {:?} after the FEN (expected white, black, w, b or both, in any case, or a # \
                     comment)",
                    excerpt(found)
                )?;
                match meant {
                    Some(name) => write!(f, "; did you mean {name:?}?"),
                    None => Ok(()),
                }
            }
            QueryError::Unexpected { found } => write!(
                f,
                "unexpected {:?} after the winner (a query is `FEN [white|black|both]`; start a comment with #)",
                excerpt(found)
            ),
            QueryError::Unreachable(reasons) => write!(
                f,
                "unreachable position (rejected in strict mode): {}",
                unreachable_text(reasons).unwrap_or_default()
            ),
        }
    }
}

impl std::error::Error for QueryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            QueryError::Fen(e) => Some(e),
            _ => None,
        }
    }
}

/// Whether a line carries no query: blank, or a `#` comment (the same
/// lines as in `FEN moves...` files).
pub use adjudicate::fen_line::is_skipped;

/// Parses a query line (see the module documentation).
pub fn parse_query(line: &str) -> Result<Query, QueryError> {
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let (query, used) = parse_one(&tokens)?;
    match tokens.get(used) {
        None => Ok(query),
        Some(token) if token.starts_with('#') => Ok(query),
        Some(token) => Err(unexpected(token, query.winners.is_some())),
    }
}

/// Parses a FEN alone (4 fields, or 6 with the move counters), by the
/// rules of a query line: what the Python package reads from a string.
pub fn parse_fen(text: &str) -> Result<Query, QueryError> {
    let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    let (query, used) = parse_one(&tokens)?;
    match tokens.get(used) {
        None if query.winners.is_none() => Ok(query),
        None => Err(QueryError::Unexpected { found: tokens[used - 1].to_string() }),
        Some(token) => Err(unexpected(token, false)),
    }
}

/// Parses the queries given as command-line arguments: one or more
/// `FEN [WINNER]`, the FENs quoted or not.
pub fn parse_arguments<S: AsRef<str>>(arguments: &[S]) -> Result<Vec<Query>, QueryError> {
    // A `#` token starts a comment to the end of its argument.
    let tokens: Vec<&str> = arguments
        .iter()
        .flat_map(|a| a.as_ref().split_ascii_whitespace().take_while(|token| !token.starts_with('#')))
        .collect();
    let mut queries = Vec::new();
    let mut rest = &tokens[..];
    loop {
        let (query, used) = parse_one(rest)?;
        let named = query.winners.is_some();
        queries.push(query);
        // `used <= rest.len()`: `parse_one` counts tokens it read.
        rest = &rest[used..];
        match rest.first() {
            None => return Ok(queries),
            // A piece placement starts the next query.
            Some(token) if token.contains('/') => {}
            Some(token) => return Err(unexpected(token, named)),
        }
    }
}

fn unexpected(token: &str, after_winner: bool) -> QueryError {
    if after_winner { QueryError::Unexpected { found: token.to_string() } } else { unknown_winner(token) }
}

/// The error for `token` in the winner's place.
fn unknown_winner(token: &str) -> QueryError {
    if looks_numeric(token) {
        return QueryError::TooManyFields { found: token.to_string() };
    }
    let letters = token.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let meant = Winners::from_name(letters).map(Winners::name);
    QueryError::UnknownWinner { found: token.to_string(), meant }
}

/// A token meant as a number: a digit first, or a sign or point before a
/// digit; not a piece placement (`8/8/...`).
fn looks_numeric(token: &str) -> bool {
    if token.contains('/') {
        return false;
    }
    match token.as_bytes() {
        [first, ..] if first.is_ascii_digit() => true,
        [b'+' | b'-' | b'.', second, ..] => second.is_ascii_digit(),
        _ => false,
    }
}

/// A move counter written as plain decimal digits within `counter`'s range.
fn counter(token: &str, counter: Counter) -> Result<u16, QueryError> {
    let error = || QueryError::Counter { counter, found: token.to_string() };
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error());
    }
    let value: u16 = token.parse().map_err(|_| error())?;
    if counter == Counter::FullmoveNumber && value == 0 {
        return Err(error());
    }
    Ok(value)
}

/// One `FEN [WINNER]` at the start of `tokens`: the query and the number of
/// tokens it used. A token after the FEN that is not a colour is left to
/// the caller.
fn parse_one(tokens: &[&str]) -> Result<(Query, usize), QueryError> {
    if tokens.len() < 4 {
        let text = tokens.join(" ");
        let error = Position::from_fen(&text)
            .err()
            .unwrap_or(FenError::Syntax(FenSyntaxError::FieldCount { found: tokens.len() }));
        return Err(QueryError::Fen(error));
    }
    // The move counters: both or neither. `tokens.get` never panics.
    let fields = match tokens.get(4) {
        Some(clock) if looks_numeric(clock) => {
            counter(clock, Counter::HalfmoveClock)?;
            match tokens.get(5) {
                Some(number) if looks_numeric(number) => {
                    counter(number, Counter::FullmoveNumber)?;
                    6
                }
                _ => return Err(QueryError::FiveFields),
            }
        }
        _ => 4,
    };
    // `fields <= tokens.len()`: 4 was checked above, 6 only when `tokens[5]` exists.
    let fen = tokens[..fields].join(" ");
    let setup = Setup::from_fen(&fen).map_err(|e| QueryError::Fen(e.into()))?;
    // A FEN the standard reading makes invalid may be Chess960's X-FEN
    // (`KQ` naming the outermost rooks, not the corner ones): read it so
    // (Shredder-FEN's file letters are Chess960 in both readings).
    let (setup, position) = match Position::from_setup(setup) {
        Ok(position) => (setup, position),
        Err(standard) => Setup::from_fen_chess960(&fen)
            .ok()
            .and_then(|setup| Some((setup, Position::from_setup(setup).ok()?)))
            .ok_or(QueryError::Fen(standard.into()))?,
    };
    // Read from the setup: its en passant square as given.
    let unreachable = movegen::unreachable(&setup);
    let winners = tokens.get(fields).and_then(|token| Winners::from_name(token));
    let used = fields + usize::from(winners.is_some());
    Ok((Query { fen, position, winners, unreachable }, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    const P3: &str = "8/8/1p6/1B2k3/5pK1/8/8/8 b - -";

    #[test]
    fn fields_counters_and_colours() {
        let q = parse_query(P3).unwrap();
        assert_eq!((q.fen.as_str(), q.winners), (P3, None));
        assert_eq!(q.colors(None), [Color::White]);
        assert_eq!(q.colors(Some(Winners::Both)), [Color::White, Color::Black]);
        let q = parse_query("  8/8/1p6/1B2k3/5pK1/8/8/8   b - - 3 60 black # QzZqHm8A more").unwrap();
        assert_eq!(q.fen, "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 3 60");
        assert_eq!((q.position.halfmove_clock(), q.position.fullmove_number()), (3, 60));
        assert_eq!(q.winners, Some(Winners::Black));
        assert_eq!(q.colors(Some(Winners::White)), [Color::White]);
        assert_eq!(parse_query(&format!("{P3} BOTH")).unwrap().winners, Some(Winners::Both));
        assert_eq!(parse_query(&format!("{P3} w")).unwrap().winners, Some(Winners::White));
        assert_eq!(parse_query(&format!("{P3} 0 65535 B")).unwrap().winners, Some(Winners::Black));
        // A comment after the FEN, with or without a winner.
        for line in [format!("{P3} # game 7"), format!("{P3} #7"), format!("{P3} 0 1 #")] {
            assert_eq!(parse_query(&line).unwrap().winners, None, "{line}");
        }
    }

    /// Item 3 of issue 11: a token in the winner's place is a colour or an
    /// error, never skipped (these were answered for the default colour).
    #[test]
    fn a_winner_that_is_not_a_colour_is_an_error() {
        for (token, meant) in [
            ("black;", Some("black")),
            ("Black,", Some("black")),
            ("\"white\"", Some("white")),
            ("'both'", Some("both")),
            ("QzZqHm8A", None),
            ("game-1", None),
            ("whiteish", None),
            ("purple", None),
            ("bm", None),
        ] {
            let line = format!("8/8/8/8/8/8/8/KQk5 b - - 0 1 {token}");
            let error = parse_query(&line).unwrap_err();
            assert_eq!(error, QueryError::UnknownWinner { found: token.to_string(), meant }, "{line}");
            assert!(error.to_string().starts_with(&format!("unknown winner {token:?}")), "{error}");
        }
        // After the winner, only a comment.
        let error = parse_query(&format!("{P3} white game-id-42")).unwrap_err();
        assert_eq!(error, QueryError::Unexpected { found: "game-id-42".into() });
    }

    /// Item 5 of issue 11: move counters are plain numbers in their ranges,
    /// both or neither.
    #[test]
    fn counters_are_checked() {
        use Counter::*;
        for (counters, expected) in [
            ("-5 1", QueryError::Counter { counter: HalfmoveClock, found: "-5".into() }),
            ("+3 1", QueryError::Counter { counter: HalfmoveClock, found: "+3".into() }),
            ("1.5 1", QueryError::Counter { counter: HalfmoveClock, found: "1.5".into() }),
            ("65536 1", QueryError::Counter { counter: HalfmoveClock, found: "65536".into() }),
            ("0 -5", QueryError::Counter { counter: FullmoveNumber, found: "-5".into() }),
            ("0 1.5", QueryError::Counter { counter: FullmoveNumber, found: "1.5".into() }),
            ("0 0", QueryError::Counter { counter: FullmoveNumber, found: "0".into() }),
            ("0 65536", QueryError::Counter { counter: FullmoveNumber, found: "65536".into() }),
            ("5", QueryError::FiveFields),
            ("5 white", QueryError::FiveFields),
            ("0 1 5", QueryError::TooManyFields { found: "5".into() }),
            (".5", QueryError::Counter { counter: HalfmoveClock, found: ".5".into() }),
        ] {
            let line = format!("{P3} {counters}");
            assert_eq!(parse_query(&line), Err(expected.clone()), "{line}");
            assert!(expected.to_string().starts_with("invalid FEN: "), "{expected}");
        }
        assert!(parse_query(&format!("{P3} 65535 65535")).is_ok());
    }

    #[test]
    fn other_errors() {
        for (line, expected) in [
            ("8/8/8 w - -", "invalid FEN"),
            ("hello", "invalid FEN"),
            ("8/8/1p6/1B2k3/5pK1/8/8/8 x - -", "invalid FEN"),
            ("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 99999999 1", "invalid FEN"),
            // Item 15 of issue 11: well-formed, but no such position.
            ("8/8/8/8/8/8/8/8 w - -", "impossible position: white has no king"),
            ("4k3/8/8/8/8/8/8/4QK2 w - -", "impossible position: black is in check"),
        ] {
            let error = parse_query(line).unwrap_err().to_string();
            assert!(error.starts_with(expected), "{line}: {error}");
        }
        assert!(is_skipped("   "));
        assert!(is_skipped("  # comment"));
        assert!(!is_skipped(P3));
    }

    /// Item 4 of issue 11: every position on the command line is a query.
    #[test]
    fn several_queries_as_arguments() {
        let args = ["8/8/1p6/1B2k3/5pK1/8/8/8", "b", "-", "-", "black", "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", P3];
        let queries = parse_arguments(&args).unwrap();
        let fens: Vec<(&str, Option<Winners>)> = queries.iter().map(|q| (q.fen.as_str(), q.winners)).collect();
        assert_eq!(
            fens,
            [(P3, Some(Winners::Black)), ("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", None), (P3, None)],
            "{queries:?}"
        );
        assert_eq!(parse_arguments(&[P3, "white", "black"]), Err(QueryError::Unexpected { found: "black".into() }));
        assert!(matches!(parse_arguments(&[P3, "red"]), Err(QueryError::UnknownWinner { .. })));
        assert!(matches!(parse_arguments(&[P3, "#", "x"]), Err(QueryError::UnknownWinner { .. })));
        // Issue 33: a comment inside an argument, as on an input line.
        let queries = parse_arguments(&[&format!("{P3} white # game 42"), P3]).unwrap();
        assert_eq!(queries.len(), 2);
        assert_eq!(queries[0].winners, Some(Winners::White));
        assert!(parse_arguments(&[&format!("{P3} # game 42")]).is_ok());
        assert!(matches!(parse_arguments(&[P3, "8/8/8"]), Err(QueryError::Fen(_))));
        assert!(parse_arguments::<&str>(&[]).is_err());
    }

    /// Issue 33: an unreachable position is a query with its reasons, and
    /// an error in strict mode.
    #[test]
    fn unreachable_positions_are_queries_with_their_reasons() {
        let nine = parse_query("rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
        assert_eq!(unreachable_text(&nine.unreachable).as_deref(), Some("white has 9 pawns (a game has at most 8)"));
        assert_eq!(
            nine.strict().unwrap_err().to_string(),
            "unreachable position (rejected in strict mode): white has 9 pawns (a game has at most 8)"
        );
        let p3 = parse_query(P3).unwrap();
        assert!(p3.unreachable.is_empty());
        assert!(p3.strict().is_ok());
    }

    #[test]
    fn random_lines_never_panic() {
        fn property(text: String, fields: Vec<u8>) -> bool {
            // Random text, and random FEN-like text.
            const PARTS: [&str; 14] = ["8/", "k", "K", "p", "1", "/", " ", "w", "b", "-", "0", "white", "#", "+"];
            let fen_like: String = fields.iter().map(|&i| PARTS[usize::from(i) % PARTS.len()]).collect();
            for line in [text.as_str(), fen_like.as_str()] {
                if let Ok(query) = parse_query(line) {
                    assert!(!query.colors(None).is_empty());
                }
                let _ = parse_arguments(&[line, line]);
            }
            true
        }
        quickcheck::QuickCheck::new().tests(5_000).quickcheck(property as fn(String, Vec<u8>) -> bool);
    }
}
