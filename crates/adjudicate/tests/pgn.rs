//! The PGN reader: everything the standard allows is read (comments with
//! clock and evaluation commands, variations, NAGs, annotations, escape
//! lines, move numbers in every form, castling with letters or digits,
//! unknown tags), and every kind of malformed game becomes one error with
//! its game number, byte offset and reason, after which reading goes on:
//! truncated files, bad SAN, illegal moves, malformed tags, unsupported
//! variants, contradicting results, unbalanced variations and comments,
//! binary junk.

use std::io::{BufReader, Cursor};

use adjudicate::pgn::{PgnError, PgnGame, RawGame, Reader, Splitter, game_boundaries, parse_game};
use adjudicate::{Outcome, Termination};

fn read(name: &str) -> Vec<u8> {
    let path = format!("{}/../../testdata/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn games(bytes: &[u8]) -> Vec<Result<PgnGame, PgnError>> {
    Reader::new(bytes).collect()
}

#[test]
fn the_whole_standard_in_one_game() {
    let games = games(&read("pgn-syntax.pgn"));
    assert_eq!(games.len(), 1);
    let game = games[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    // 42 full moves and White's 43rd.
    assert_eq!(game.game.moves().len(), 85);
    assert_eq!(game.game.recorded, Outcome::WhiteWins);
    assert_eq!(game.game.id, "test:syntax");
    assert_eq!(game.tags.count, 8);
}

#[test]
fn malformed_games_are_errors_and_reading_goes_on() {
    let bytes = read("malformed.pgn");
    let games = games(&bytes);
    let summary: Vec<Result<String, String>> =
        games.iter().map(|g| g.as_ref().map(|g| g.game.id.clone()).map_err(|e| e.kind.to_string())).collect();
    assert_eq!(games.len(), 9, "{summary:#?}");
    assert_eq!(summary[0], Ok("test:good-1".to_string()));
    let reason = |i: usize| summary[i].clone().unwrap_err();
    assert!(reason(1).contains("Nz9") && reason(1).contains("not a SAN or UCI move"), "{}", reason(1));
    assert!(reason(2).contains("ply 1 (e5): illegal move"), "{}", reason(2));
    assert!(reason(3).contains("malformed tag pair"), "{}", reason(3));
    assert!(reason(4).contains("variant not supported"), "{}", reason(4));
    assert!(reason(5).contains("contradicts the Result tag"), "{}", reason(5));
    assert!(reason(6).contains("unbalanced ')'"), "{}", reason(6));
    assert!(reason(7).contains("unterminated comment"), "{}", reason(7));
    assert_eq!(summary[8], Ok("test:good-2".to_string()));
    // Numbers and offsets point at the games.
    for (index, game) in games.iter().enumerate() {
        if let Err(e) = game {
            assert_eq!(e.game, index as u64 + 1);
            assert_eq!(bytes[e.offset as usize], b'[', "{e}");
            assert!(e.at >= e.offset);
        }
    }
    let illegal = games[2].as_ref().unwrap_err();
    assert_eq!(&bytes[illegal.at as usize..illegal.at as usize + 2], b"e5");
}

/// Item 15 of issue 11: a malformed game's error is typed: its kind, with
/// the FEN, SAN or result error as its source.
#[test]
fn errors_are_typed_with_their_sources() {
    use adjudicate::pgn::PgnErrorKind;
    use movegen::{FenError, PositionError, SanError};
    use std::error::Error as _;
    let bytes = read("malformed.pgn");
    let games = games(&bytes);
    let kind = |i: usize| &games[i].as_ref().unwrap_err().kind;
    assert!(matches!(kind(1), PgnErrorKind::Move { ply: 2, error: SanError::Syntax { .. }, .. }), "{:?}", kind(1));
    assert!(matches!(kind(2), PgnErrorKind::Move { ply: 1, error: SanError::Illegal { .. }, .. }), "{:?}", kind(2));
    assert!(matches!(kind(3), PgnErrorKind::MalformedTag { .. }), "{:?}", kind(3));
    assert!(matches!(kind(4), PgnErrorKind::UnsupportedVariant { .. }), "{:?}", kind(4));
    assert!(matches!(kind(5), PgnErrorKind::ResultContradictsTag { .. }), "{:?}", kind(5));
    assert_eq!(*kind(6), PgnErrorKind::Unbalanced { found: ')' });
    assert_eq!(*kind(7), PgnErrorKind::UnterminatedComment);
    let error = games[2].as_ref().unwrap_err();
    assert!(error.source().is_some_and(|source| source.is::<SanError>()), "{error}");
    // A FEN tag: a syntax error and an impossible position are told apart.
    let syntax = self::games(b"[FEN \"8/8/8 w - -\"]\n\n*\n");
    let impossible = self::games(b"[FEN \"8/8/8/8/8/8/8/K7 w - - 0 1\"]\n\n*\n");
    let syntax = &syntax[0].as_ref().unwrap_err().kind;
    let impossible = &impossible[0].as_ref().unwrap_err().kind;
    assert!(matches!(syntax, PgnErrorKind::InvalidFen(FenError::Syntax(_))), "{syntax:?}");
    assert_eq!(
        *impossible,
        PgnErrorKind::InvalidFen(FenError::Impossible(PositionError::MissingKing { color: movegen::Color::Black }))
    );
    assert!(impossible.to_string().starts_with("impossible position in the FEN tag"), "{impossible}");
    assert!(impossible.source().is_some_and(|source| source.is::<FenError>()));
}

#[test]
fn a_truncated_file_ends_with_one_error() {
    let games = games(&read("truncated.pgn"));
    assert_eq!(games.len(), 2);
    assert!(games[0].is_ok());
    let error = games[1].as_ref().unwrap_err();
    assert_eq!(error.game, 2);
    // The last move is cut: "Bc" is not a move.
    assert!(error.to_string().contains("ply 5 (Bc)"), "{error}");
    // Cut after a complete move instead: no termination marker.
    let bytes = read("truncated.pgn");
    let cut = bytes.len() - " 3. Bc".len();
    let games = self::games(&bytes[..cut]);
    let error = games[1].as_ref().unwrap_err();
    assert_eq!(error.kind, adjudicate::pgn::PgnErrorKind::NoTerminationMarker, "{error}");
    // Cut inside a tag pair.
    let games = self::games(b"[Event \"x\"]\n[Site \"trunc");
    assert!(games[0].as_ref().unwrap_err().to_string().contains("unterminated value"));
}

/// Issue 33: a game that ends in checkmate or stalemate on the board is
/// whole without a termination marker (its result: the tag's, or `*`);
/// one that does not end there is still a game cut short.
#[test]
fn a_game_ended_on_the_board_needs_no_marker() {
    let games = games(b"[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n");
    let game = &games[0].as_ref().unwrap().game;
    assert!(game.positions().last().unwrap().is_checkmate());
    assert_eq!(game.recorded, adjudicate::Outcome::WhiteWins);
    let games = self::games(b"[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#");
    assert_eq!(games[0].as_ref().unwrap().game.recorded, adjudicate::Outcome::Unknown);
    let games = self::games(b"[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6");
    assert_eq!(games[0].as_ref().unwrap_err().kind, adjudicate::pgn::PgnErrorKind::NoTerminationMarker);
}

#[test]
fn binary_junk_is_skipped_as_errors() {
    let games = games(&read("junk.pgn"));
    let ok: Vec<&str> = games.iter().filter_map(|g| g.as_ref().ok()).map(|g| g.game.id.as_str()).collect();
    assert_eq!(ok, ["test:before-junk", "test:after-junk"]);
    assert!(games.iter().any(Result::is_err));
    assert!(games.first().unwrap().is_ok() && games.last().unwrap().is_ok());
}

#[test]
fn random_bytes_never_panic() {
    let mut state = 0x1234_5678_9abc_def0_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"[]{}()\";%$!?+#=-/*. \n\t01258abcdeghKQRBNOx\xff\x00PG";
    for _ in 0..2000 {
        let len = (next() % 300) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
        for game in games(&bytes) {
            if let Err(e) = game {
                assert!(e.at <= bytes.len() as u64 && e.offset <= e.at, "{e}");
            }
        }
    }
}

#[test]
fn splitting_bounds_memory() {
    // A "game" of 100 KB of moves with a 4 KB limit: one error, then the
    // next game is read.
    let mut text = b"[Event \"long\"]\n\n".to_vec();
    for _ in 0..10_000 {
        text.extend_from_slice(b"1. Nf3 {x} ");
    }
    text.extend_from_slice(b"*\n\n[Event \"short\"]\n\n1. e4 *\n");
    let mut splitter = Splitter::with_limit(BufReader::new(&text[..]), 4096);
    let long = splitter.next_game().unwrap().unwrap();
    assert_eq!(long.bytes.len(), 4096);
    assert!(long.truncated.unwrap() > 100_000);
    assert!(parse_game(&long).unwrap_err().to_string().contains("too long"));
    let short = splitter.next_game().unwrap().unwrap();
    assert_eq!(parse_game(&short).unwrap().game.moves().len(), 1);
    assert!(splitter.next_game().unwrap().is_none());
}

#[test]
fn games_without_tags_and_set_up_positions() {
    let games = games(b"1. e4 e5 1-0 1. d4 * 1/2-1/2\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. O-O-O Ke7 *\n");
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].as_ref().unwrap().game.moves().len(), 2);
    assert_eq!(games[1].as_ref().unwrap().game.recorded, Outcome::Unknown);
    assert_eq!(games[2].as_ref().unwrap().game.moves().len(), 0);
    let castled = games[3].as_ref().unwrap();
    assert_eq!(castled.game.moves().len(), 2);
    assert_eq!(castled.game.id, "#4");
}

#[test]
fn escape_lines_between_games_and_escaped_tag_values() {
    let text = b"% leading escape line\n[Site \"a \\\"b\\\" \\\\ c\"]\n\n1. e4 *\n% trailing escape line\n";
    let games = games(text);
    assert_eq!(games.len(), 1);
    let game = games[0].as_ref().unwrap();
    assert_eq!(game.game.id, r#"a "b" \ c"#);
    assert_eq!(game.game.moves().len(), 1);
}

#[test]
fn lichess_time_forfeit() {
    let games = games(&read("timeout.pgn"));
    let game = games[0].as_ref().unwrap();
    assert_eq!(game.game.termination, Termination::TimeForfeit { flagged: None });
    assert_eq!(game.game.id, "https://lichess.org/tEsT0001");
    assert_eq!(game.game.moves().len(), 5);
}

#[test]
fn cutting_does_not_depend_on_read_sizes() {
    let cut = |bytes: &[u8], capacity: usize| {
        let mut splitter = Splitter::new(BufReader::with_capacity(capacity, bytes));
        let mut games = Vec::new();
        while let Some(game) = splitter.next_game().unwrap() {
            games.push(game);
        }
        (games, splitter.offset())
    };
    let mut inputs: Vec<Vec<u8>> = std::fs::read_dir(format!("{}/../../testdata/pgn", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
        .collect();
    inputs.push(b"\xEF\xBB\xBF[A \"b\"]\n\n{c\n[D \"e\"]\n1. e4 (1. d4 ;x\n) 1-0 * 0-1\n%x\n".to_vec());
    for bytes in &inputs {
        let (reference, length) = cut(bytes, 1 << 20);
        assert_eq!(length, bytes.len() as u64);
        for capacity in [1, 2, 3, 5, 8, 13, 64] {
            assert_eq!(cut(bytes, capacity), (reference.clone(), length), "capacity {capacity}");
        }
    }
}

/// Item 10 of issue 11: moves in coordinates (`g1f3`, castling as `e1g1`,
/// `b7b8q`, `g1-f3`), as some programs write movetext and python-chess reads
/// it, give the same games as SAN (`g1f3` was an illegal move while `e2e4`
/// was accepted).
#[test]
fn coordinate_moves_read_as_san() {
    let pairs = [
        (
            "1. e4 d5 2. exd5 Nf6 3. Nf3 Nxd5 4. Bc4 e6 5. O-O Be7 6. d4 O-O *",
            "1. e2e4 d7d5 2. e4d5 g8f6 3. g1-f3 f6xd5 4. f1c4 e7e6 5. e1g1 f8e7+ 6. d2d4 e8g8 *",
        ),
        (
            "[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b8=Q+ Kd7 *",
            "[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b7b8q e8d7 *",
        ),
        (
            "[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b8=N *",
            "[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b7b8=N *",
        ),
        (
            "[FEN \"4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 dxe3 *",
            "[FEN \"4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1\"]\n\n1. e2e4 d4e3 *",
        ),
    ];
    for (san, coordinates) in pairs {
        let (san, coordinates) = (games(san.as_bytes()), games(coordinates.as_bytes()));
        let san = san[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
        let coordinates = coordinates[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(san.game.moves(), coordinates.game.moves());
        assert_eq!(san.game.positions().last(), coordinates.game.positions().last());
    }
    // Still moves of the position: illegal in coordinates is illegal; a
    // pawn reaching the last rank needs its promotion (as in python-chess).
    for movetext in ["1. g1g3 *", "1. e2e5 *", "1. e1g1 *"] {
        let error = games(movetext.as_bytes()).remove(0).unwrap_err();
        assert!(error.to_string().contains("illegal move"), "{movetext}: {error}");
    }
    let error = games(b"[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b7b8 *").remove(0).unwrap_err();
    assert!(error.to_string().contains("illegal move"), "{error}");
}

/// Item 11 of issue 11: a blank line between tag pairs (ChessBase exports)
/// and `;` comment lines before or among the tags do not split a game in
/// two (they did); two blank lines after the tags end a game without
/// movetext, as in python-chess.
#[test]
fn blank_lines_and_comments_among_the_tags() {
    for text in [
        "[Event \"x\"]\n\n[Site \"y\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
        "; a comment before the game\n[Event \"x\"]\n[Site \"y\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
        "% an escape line\n; a comment\n\n[Event \"x\"]\n; among the tags\n[Site \"y\"]\n\n; after them\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
        "\u{feff}[Event \"x\"]\r\n\r\n[Site \"y\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5 1-0\r\n",
    ] {
        let games = games(text.as_bytes());
        assert_eq!(games.len(), 1, "{text:?}: {games:?}");
        let game = games[0].as_ref().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!((game.tags.site.as_deref(), game.game.moves().len()), (Some("y"), 2), "{text:?}");
        assert_eq!(game.game.recorded, Outcome::WhiteWins);
        assert_eq!(game.tags.count, 3, "{text:?}");
    }
    // Two blank lines end the tags: the first game has no movetext.
    let games = games(b"[Event \"x\"]\n\n\n[Event \"y\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games[1].is_ok());
}

/// The games of `bytes` cut whole, and cut in the ranges of
/// [`game_boundaries`] every `chunk` bytes (each range split on its own,
/// its games renumbered and their offsets shifted as the whole file's).
fn whole_and_in_ranges(bytes: &[u8], chunk: u64) -> (Vec<RawGame>, Vec<RawGame>) {
    let cut = |bytes: &[u8]| {
        let mut splitter = Splitter::new(bytes);
        let mut games = Vec::new();
        while let Some(game) = splitter.next_game().unwrap() {
            games.push(game);
        }
        games
    };
    let whole = cut(bytes);
    let offsets = game_boundaries(&mut Cursor::new(bytes), bytes.len() as u64, chunk).unwrap();
    assert_eq!((offsets[0], offsets[offsets.len() - 1]), (0, bytes.len() as u64));
    assert!(offsets.windows(2).all(|pair| pair[0] < pair[1]) || bytes.is_empty(), "{offsets:?}");
    let mut ranges = Vec::new();
    for pair in offsets.windows(2) {
        let first = ranges.len() as u64;
        for mut game in cut(&bytes[pair[0] as usize..pair[1] as usize]) {
            game.number += first;
            game.offset += pair[0];
            ranges.push(game);
        }
    }
    (whole, ranges)
}

/// Byte ranges cut on game boundaries hold the games of the whole file:
/// every PGN test file, files written to trip the boundary rule (tags
/// without movetext, one and two blank lines between tags, comments and
/// variations open across a line starting with `[`, escape and `;` comment
/// lines, vertical tabs, CRLF), and random files of PGN fragments, cut at
/// every chunk size from one byte.
#[test]
fn byte_ranges_hold_the_games_of_the_whole_file() {
    let mut inputs: Vec<Vec<u8>> = std::fs::read_dir(format!("{}/../../testdata/pgn", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
        .collect();
    let tricky = concat!(
        "[Event \"tags only\"]\n[Site \"a\"]\n\n",
        "[Event \"comment across lines\"]\n\n1. e4 { a comment\n[Not \"a tag\"]\n[Still \"a tag?\"] } e5 1-0\n\n",
        "%escape line between games\n",
        "[Event \"escape in tags\"]\n%escape\n[Site \"b\"]\n\n1. d4 d5 *\n",
        "[Event \"no blank line before the next\"]\n1. c4 0-1\n",
        "junk without tags\n",
        "[Event \"vt\"]\n\x0b\n[Site \"c\"]\n\n1. e4 (1. d4 {x\n[Y \"z\"]\n}) e5 *\n\n",
        "[Event \"crlf\"]\r\n\r\n[Site \"d\"]\r\n\r\n1. Nf3 Nf6 1/2-1/2\r\n\r\n",
        "[Event \"two blank lines\"]\n\n\n[Event \"blank, comment, blank\"]\n\n; c\n\n[Site \"e\"]\n\n",
        "; comment\n[Event \"comments among tags\"]\n; c\n[Site \"f\"]\n\n; c\n[Round \"1\"]\n\n1. e4 *\n",
        "[Event \"unterminated\"]\n\n1. e4 e5\n\n",
        "[Event \"last\"]\n\n1. e4 e5 1-0\n",
    );
    let tricky = tricky.repeat(3).into_bytes();
    // Boundaries are found: the tricky text is cut in many ranges.
    let offsets = game_boundaries(&mut Cursor::new(&tricky), tricky.len() as u64, 1).unwrap();
    assert!(offsets.len() > 20, "{offsets:?}");
    inputs.push(tricky);
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let fragments: [&[u8]; 20] = [
        b"[A \"b\"]",
        b"\n",
        b"\n",
        b"\n",
        b"\r\n",
        b" ",
        b"\x0b",
        b"{",
        b"}",
        b"(",
        b")",
        b";c",
        b"%e",
        b"1-0",
        b"*",
        b"e4",
        b"1.",
        b"[",
        b"\t",
        b"\x0c",
    ];
    for _ in 0..300 {
        let count = next() % 120;
        inputs.push((0..count).flat_map(|_| fragments[(next() % fragments.len() as u64) as usize]).copied().collect());
    }
    for bytes in &inputs {
        for chunk in [1, 2, 3, 7, 64, 200, 1000, bytes.len() as u64] {
            let (whole, ranges) = whole_and_in_ranges(bytes, chunk);
            assert_eq!(ranges, whole, "chunk {chunk} of {:?}", String::from_utf8_lossy(bytes));
        }
    }
}

/// Chess960 games: the `Variant` tag's spellings, the `FEN` start read by
/// the Chess960 rules (`KQkq` naming the rooks on each side of the king),
/// castling in SAN and in coordinates (king takes rook), a Chess960 game
/// without its `FEN`, and other variants refused with the reason. The
/// expected positions are python-chess's (`chess.Board(fen,
/// chess960=True)`, the same moves pushed).
#[test]
fn chess960_games() {
    use adjudicate::pgn::PgnErrorKind;
    // Start position 0 (BBQNNRKR: king g1, rooks f1 and h1). After Re1,
    // O-O leaves the king on g1 and takes the rook from h1 to f1.
    let start = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    for variant in ["Chess960", "Fischerandom", "Chess 960", "fischer random"] {
        let text = format!(
            "[Variant \"{variant}\"]\n[SetUp \"1\"]\n[FEN \"{start}\"]\n\n1. Nd3 Nd6 2. Ne3 Ne6 3. Re1 Re8 4. O-O O-O 5. Nc4 *\n"
        );
        let read = games(text.as_bytes());
        let game = read[0].as_ref().unwrap_or_else(|e| panic!("{variant}: {e}"));
        let last = game.game.positions().last().unwrap();
        assert_eq!(last.to_fen(), "bbq1rrk1/pppppppp/3nn3/8/2N5/3N4/PPPPPPPP/BBQ1RRK1 b - - 9 5", "{variant}");
        assert!(last.is_chess960());
    }
    // O-O-O written in coordinates as the king taking its rook (g1f1), as
    // some programs write it, then in SAN: the kings to c1/c8, the f-rooks
    // to d1/d8.
    let text = format!(
        "[Variant \"Chess960\"]\n[FEN \"{start}\"]\n\n1. Nd3 Nd6 2. Ne3 Ne6 3. c3 c6 4. Qc2 Qc7 5. g1f1 O-O-O *\n"
    );
    let castled = games(text.as_bytes());
    let game = castled[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    let last = game.game.positions().last().unwrap();
    assert_eq!(last.to_fen(), "bbkr3r/ppqppppp/2pnn3/8/8/2PNN3/PPQPPPPP/BBKR3R w - - 4 6");
    // A Chess960 game needs its start position.
    let no_fen = games(b"[Variant \"Chess960\"]\n\n1. e4 *\n");
    assert_eq!(no_fen[0].as_ref().unwrap_err().kind, PgnErrorKind::Chess960WithoutFen);
    // Other variants: an error that says so, never a misread.
    for variant in ["Crazyhouse", "Atomic", "King of the Hill", "Three-check", "Antichess", "Horde", "Racing Kings"] {
        let text = format!("[Variant \"{variant}\"]\n\n1. e4 *\n");
        let read = games(text.as_bytes());
        let error = read[0].as_ref().unwrap_err();
        assert!(matches!(&error.kind, PgnErrorKind::UnsupportedVariant { variant: v } if v == variant));
        assert!(error.kind.to_string().starts_with("variant not supported"), "{}", error.kind);
    }
}
