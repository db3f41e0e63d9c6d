//! Standard algebraic notation: every legal move of every position of
//! `testdata/movegen-order.tsv` is written in SAN, read back, and checked
//! against the rules (minimal disambiguation, capture mark, check and mate
//! suffixes); hand-checked examples; and random text never panics.

mod common;

use common::{Rng, playout};
use movegen::{Move, Position, Role, SanError};
use quickcheck::QuickCheck;

const DATA: &str = include_str!("../../../testdata/movegen-order.tsv");

fn positions() -> Vec<Position> {
    DATA.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fen = line.split('\t').next().expect("a FEN");
            Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
        })
        .collect()
}

/// The disambiguation the FIDE rule asks for, computed independently of
/// the implementation: nothing, the file, the rank, or the whole square.
fn expected_disambiguation(pos: &Position, m: Move) -> String {
    let role = pos.role_at(m.from());
    let rivals: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|o| o.to() == m.to() && o.from() != m.from() && !o.is_castle() && pos.role_at(o.from()) == role)
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|o| o.from().file() != m.from().file()) {
        m.from().file().char().to_string()
    } else if rivals.iter().all(|o| o.from().rank() != m.from().rank()) {
        m.from().rank().char().to_string()
    } else {
        m.from().to_string()
    }
}

/// Checks one legal move; returns a description of the first problem.
fn check_move(pos: &Position, m: Move) -> Result<(), String> {
    let san = pos.san(m);
    let parsed = pos.parse_san(&san).map_err(|e| format!("{m}: {san:?} does not parse back: {e}"))?;
    if parsed != m {
        return Err(format!("{m}: {san:?} parses back as {parsed}"));
    }
    // The suffix: `#` for mate, `+` for check, nothing otherwise.
    let after = pos.play(m);
    let (body, suffix) = match san.strip_suffix('#').or_else(|| san.strip_suffix('+')) {
        Some(body) => (body, &san[body.len()..]),
        None => (san.as_str(), ""),
    };
    let expected_suffix = if after.is_checkmate() {
        "#"
    } else if after.is_check() {
        "+"
    } else {
        ""
    };
    if suffix != expected_suffix {
        return Err(format!("{m}: {san:?} should end in {expected_suffix:?}"));
    }
    if m.is_castle() {
        let expected = if m.to() > m.from() { "O-O" } else { "O-O-O" };
        return if body == expected { Ok(()) } else { Err(format!("{m}: {san:?} should be {expected}")) };
    }
    // The capture mark.
    if body.contains('x') != pos.is_capture(m) {
        return Err(format!("{m}: {san:?} has a wrong capture mark"));
    }
    let role = pos.role_at(m.from()).ok_or(format!("{m}: no piece"))?;
    let destination = m.to().to_string();
    let without_promotion = match m.promotion() {
        Some(promotion) => {
            let promo = format!("={}", promotion.upper_char());
            body.strip_suffix(promo.as_str()).ok_or(format!("{m}: {san:?} should end in {promo}"))?
        }
        None => body,
    };
    let before_destination = without_promotion
        .strip_suffix(destination.as_str())
        .ok_or(format!("{m}: {san:?} should name the destination {destination}"))?;
    let before_destination = before_destination.strip_suffix('x').unwrap_or(before_destination);
    if role == Role::Pawn {
        let expected = if pos.is_capture(m) { m.from().file().char().to_string() } else { String::new() };
        if before_destination != expected {
            return Err(format!("{m}: pawn move {san:?} should start with {expected:?}"));
        }
    } else {
        let disambiguation = before_destination
            .strip_prefix(role.upper_char())
            .ok_or(format!("{m}: {san:?} should start with {}", role.upper_char()))?;
        let expected = expected_disambiguation(pos, m);
        if disambiguation != expected {
            return Err(format!("{m}: {san:?} disambiguates with {disambiguation:?}, the rule says {expected:?}"));
        }
        // Minimal: every shorter disambiguation is ambiguous for the parser.
        let capture = if pos.is_capture(m) { "x" } else { "" };
        let shorter: Vec<String> = match disambiguation.len() {
            0 => vec![],
            1 if disambiguation.as_bytes()[0].is_ascii_lowercase() => vec![String::new()],
            1 => vec![String::new(), m.from().file().char().to_string()],
            _ => vec![String::new(), disambiguation[..1].to_string(), disambiguation[1..].to_string()],
        };
        for d in shorter {
            let text = format!("{}{d}{capture}{destination}", role.upper_char());
            if !matches!(pos.parse_san(&text), Err(SanError::Ambiguous { .. })) {
                return Err(format!("{m}: {san:?} is not minimal: {text:?} is not ambiguous"));
            }
        }
    }
    // Tolerated variants read back as the same move.
    let promotion = m.promotion().map_or(String::new(), |r| r.upper_char().to_string());
    let letter = if role == Role::Pawn { String::new() } else { role.upper_char().to_string() };
    let variants = [
        format!("{san}!?"),
        format!("{body}??"),
        body.replace('x', ""),
        body.replace('=', ""),
        format!("{letter}{}{}{promotion}", m.from(), m.to()),
        format!("{letter}{}-{}{promotion}", m.from(), m.to()),
    ];
    for variant in variants {
        match pos.parse_san(&variant) {
            Ok(found) if found == m => {}
            other => return Err(format!("{m}: variant {variant:?} of {san:?} gives {other:?}")),
        }
    }
    Ok(())
}

#[test]
fn every_legal_move_round_trips() {
    let mut failures = Vec::new();
    let mut moves = 0;
    let positions = positions();
    assert_eq!(positions.len(), 4450);
    for pos in &positions {
        for &m in &pos.legal_moves() {
            moves += 1;
            if let Err(problem) = check_move(pos, m) {
                failures.push(format!("{}: {problem}", pos.to_fen()));
            }
        }
    }
    assert!(moves > 100_000, "only {moves} moves");
    assert!(
        failures.is_empty(),
        "{} of {moves} moves fail:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

fn san(fen: &str, uci: &str) -> String {
    let pos: Position = fen.parse().unwrap();
    pos.san(pos.parse_uci(uci).unwrap())
}

fn parse(fen: &str, san: &str) -> Result<String, SanError> {
    let pos: Position = fen.parse().unwrap();
    pos.parse_san(san).map(|m| m.to_string())
}

#[test]
fn castling() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(san(fen, "e1g1"), "O-O");
    assert_eq!(san(fen, "e1c1"), "O-O-O");
    assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8"), "O-O");
    assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"), "O-O-O");
    // Castling with check, and castling mate.
    assert_eq!(san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    assert_eq!(san("2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O#");
    for text in ["O-O", "0-0", "O-O+", "0-0!", "O-O#?!"] {
        assert_eq!(parse(fen, text).unwrap(), "e1g1", "{text}");
    }
    for text in ["O-O-O", "0-0-0", "O-O-O!!"] {
        assert_eq!(parse(fen, text).unwrap(), "e1c1", "{text}");
    }
    // The king's two-square move is not castling in SAN.
    assert!(matches!(parse(fen, "Kg1"), Err(SanError::Illegal { .. })));
    assert!(matches!(parse(Position::start().to_fen().as_str(), "O-O"), Err(SanError::Illegal { .. })));
    assert!(matches!(parse(fen, "O-O-O-O"), Err(SanError::Syntax { .. })));
}

#[test]
fn promotions() {
    let fen = "7k/4P1pp/8/8/8/8/8/K7 w - - 0 1";
    assert_eq!(san(fen, "e7e8q"), "e8=Q#");
    assert_eq!(san(fen, "e7e8r"), "e8=R#");
    assert_eq!(san(fen, "e7e8b"), "e8=B");
    assert_eq!(san(fen, "e7e8n"), "e8=N");
    assert_eq!(san("7k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8q"), "e8=Q+");
    assert_eq!(san("8/4P3/5k2/8/8/8/8/K7 w - - 0 1", "e7e8n"), "e8=N+");
    let capture = "3r3k/4P1pp/8/8/8/8/8/K7 w - - 0 1";
    assert_eq!(san(capture, "e7d8q"), "exd8=Q#");
    assert_eq!(san(capture, "e7e8q"), "e8=Q+");
    assert_eq!(san(capture, "e7d8n"), "exd8=N");
    for text in ["exd8=Q", "exd8Q", "exd8=q", "exd8q", "ed8=Q", "exd8=Q#", "exd8Q+", "e7d8q", "Pe7xd8=Q"] {
        assert_eq!(parse(capture, text).unwrap(), "e7d8q", "{text}");
    }
    assert_eq!(parse(capture, "e8N").unwrap(), "e7e8n");
    // A promotion must name its piece; only pawns promote; no king.
    assert!(matches!(parse(capture, "exd8"), Err(SanError::Illegal { .. })));
    assert!(matches!(parse(capture, "e8"), Err(SanError::Illegal { .. })));
    assert!(matches!(parse(capture, "e8=K"), Err(SanError::Syntax { .. })));
    assert!(matches!(parse(capture, "Ke8=Q"), Err(SanError::Syntax { .. })));
}

#[test]
fn en_passant() {
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    assert_eq!(san(fen, "e5d6"), "exd6");
    for text in ["exd6", "ed6", "exd6 e.p.", "exd6e.p.", "e5xd6", "exd6!"] {
        assert_eq!(parse(fen, text).unwrap(), "e5d6", "{text}");
    }
    // An en passant capture giving check.
    assert_eq!(san("8/2k5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6+");
}

#[test]
fn disambiguation() {
    // By file.
    let rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
    assert_eq!(san(rooks, "a1d1"), "Rad1");
    assert_eq!(san(rooks, "h1d1"), "Rhd1");
    assert_eq!(san(rooks, "h1h8"), "Rh8+");
    assert!(matches!(parse(rooks, "Rd1"), Err(SanError::Ambiguous { .. })));
    assert_eq!(
        parse(rooks, "R1d1").map_err(|e| e.to_string()),
        Err("ambiguous move \"R1d1\": more than one legal move matches".to_string())
    );
    assert_eq!(parse(rooks, "Rh1d1").unwrap(), "h1d1");
    // By rank.
    let file = "4k3/8/8/R7/8/8/4K3/R7 w - - 0 1";
    assert_eq!(san(file, "a1a3"), "R1a3");
    assert_eq!(san(file, "a5a3"), "R5a3");
    assert!(matches!(parse(file, "Raa3"), Err(SanError::Ambiguous { .. })));
    // By square: three queens.
    let queens = "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1";
    assert_eq!(san(queens, "h4e1"), "Qh4e1");
    assert_eq!(san(queens, "e4e1"), "Qee1");
    assert_eq!(san(queens, "h1e1"), "Q1e1");
    assert!(matches!(parse(queens, "Qhe1"), Err(SanError::Ambiguous { .. })));
    assert!(matches!(parse(queens, "Q4e1"), Err(SanError::Ambiguous { .. })));
    // A pinned piece is no rival: no disambiguation needed.
    let free = "4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1";
    assert_eq!(san(free, "g3e2"), "Nge2");
    let pinned = "4k3/8/8/8/1b6/2N3N1/8/4K3 w - - 0 1";
    assert_eq!(san(pinned, "g3e2"), "Ne2");
    // Redundant disambiguation is accepted.
    let start = Position::start().to_fen();
    assert_eq!(parse(&start, "Ngf3").unwrap(), "g1f3");
    assert_eq!(parse(&start, "N1f3").unwrap(), "g1f3");
    assert_eq!(parse(&start, "Ng1f3").unwrap(), "g1f3");
    assert_eq!(parse(&start, "nf3").unwrap(), "g1f3");
    assert_eq!(parse(&start, "e2e4").unwrap(), "e2e4");
    assert_eq!(parse(&start, "Pe4").unwrap(), "e2e4");
}

#[test]
fn checks_mates_and_errors() {
    let scholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    assert_eq!(san(scholar, "h5f7"), "Qxf7#");
    assert_eq!(san(scholar, "c4f7"), "Bxf7+");
    assert_eq!(parse(scholar, "Qxf7#").unwrap(), "h5f7");
    assert_eq!(parse(scholar, "Qf7").unwrap(), "h5f7");
    let start = Position::start().to_fen();
    assert_eq!(san(&start, "g1f3"), "Nf3");
    assert_eq!(san(&start, "e2e4"), "e4");
    // An illegal move is written in UCI rather than panicking.
    let pos = Position::start();
    assert_eq!(pos.san(Move::normal(movegen::Square::E2, movegen::Square::E5)), "e2e5");
    for (text, kind) in [
        ("", "syntax"),
        ("+", "syntax"),
        ("--", "syntax"),
        ("Z9", "syntax"),
        ("e9", "syntax"),
        ("Nf3 Nc6", "syntax"),
        ("é4", "syntax"),
        ("Bxe", "syntax"),
        ("e5", "illegal"),
        ("Ke2", "illegal"),
        ("exd5", "illegal"),
        ("Nd2", "illegal"),
        ("O-O", "illegal"),
        ("g1f3", "illegal"),
    ] {
        let got = match pos.parse_san(text) {
            Err(SanError::Syntax { .. }) => "syntax",
            Err(SanError::Illegal { .. }) => "illegal",
            Err(SanError::Ambiguous { .. }) => "ambiguous",
            Err(other) => panic!("{text:?}: an error of no known kind: {other}"),
            Ok(_) => "ok",
        };
        assert_eq!(got, kind, "{text:?}");
    }
    let long = "N".repeat(100);
    let error = pos.parse_san(&long).unwrap_err().to_string();
    assert!(error.len() < 120, "{error}");
}

#[test]
fn numbered_lines() {
    let pos: Position = "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 54".parse().unwrap();
    let mut line = Vec::new();
    let mut p = pos;
    for uci in ["e5d4", "g4f4", "d4c5"] {
        let m = p.parse_uci(uci).unwrap();
        line.push(m);
        p = p.play(m);
    }
    assert_eq!(pos.san_line(&line), "54...Kd4 55. Kxf4 Kc5");
    assert_eq!(pos.san_line(&[]), "");
    let start = Position::start();
    let e4 = start.parse_san("e4").unwrap();
    let e5 = start.play(e4).parse_san("e5").unwrap();
    assert_eq!(start.san_line(&[e4, e5]), "1. e4 e5");
    // An illegal move ends the line.
    assert_eq!(start.san_line(&[e4, e4]), "1. e4 (illegal: e2e4)");
}

/// A line's SAN is the SAN of each of its moves in turn (with the move
/// numbers around them): random walks of up to 40 plies from every
/// position of the order data.
#[test]
fn a_line_is_its_moves_in_turn() {
    let mut rng = Rng::new(7);
    for root in positions() {
        let (mut line, mut tokens) = (Vec::new(), Vec::new());
        playout(root, 40, &mut rng, |pos, m| {
            if let Some(m) = m {
                tokens.push(pos.san(m));
                line.push(m);
            }
        });
        let written = root.san_line(&line);
        let moves: Vec<&str> = written.split(' ').filter(|t| !t.ends_with('.') && !t.is_empty()).collect();
        // A first move by Black is written `N...SAN`.
        let moves: Vec<&str> = moves.iter().map(|t| t.rsplit("...").next().unwrap_or(t)).collect();
        assert_eq!(moves, tokens, "{}", root.to_fen());
    }
}

/// The UCI texts and the SAN line in one replay are the two lines written
/// apart, also when an illegal move stops the SAN line (the UCI texts go
/// on); move numbers of one to four digits.
#[test]
fn one_replay_writes_both_lines() {
    let mut rng = Rng::new(11);
    for (i, root) in positions().into_iter().enumerate() {
        let mut setup = root.to_setup();
        setup.fullmove_number = [1, 9, 99, 998, 9_999][i % 5];
        let root = Position::from_setup(setup).unwrap();
        let mut line = Vec::new();
        playout(root, 30, &mut rng, |_, m| line.extend(m));
        if i % 3 == 0 && !line.is_empty() {
            // A move of the line played again later is illegal there (or
            // another legal move, which is fine too).
            let at = rng.below(line.len());
            line.insert(line.len() - at / 2, line[at]);
        }
        let (uci, san) = root.uci_and_san_lines(&line);
        assert_eq!(uci, root.uci_line(&line), "{}", root.to_fen());
        assert_eq!(san, root.san_line(&line), "{}", root.to_fen());
    }
    let pos: Position = "4k3/8/8/8/8/8/8/4K3 w - - 0 1234".parse().unwrap();
    let m = pos.parse_uci("e1d1").unwrap();
    assert_eq!(pos.uci_and_san_lines(&[m]), (vec!["e1d1".to_string()], "1234. Kd1".to_string()));
}

/// A few positions with every kind of move, for the fuzz tests.
const FUZZ_FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/8/R3K1NR w KQkq d6 0 1",
    "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1",
    "3r3k/4P1pp/8/8/8/8/8/K7 w - - 0 1",
];

#[test]
fn random_strings_never_panic() {
    fn property(text: String) -> bool {
        for fen in FUZZ_FENS {
            let pos: Position = fen.parse().unwrap();
            if let Ok(m) = pos.parse_san(&text) {
                if !pos.is_legal(m) {
                    return false;
                }
            }
        }
        true
    }
    QuickCheck::new().tests(20_000).quickcheck(property as fn(String) -> bool);
}

#[test]
fn random_san_like_strings_never_panic() {
    const ALPHABET: &[u8] = b"abcdefghx12345678NBRQKPnrqk=+#!?O0-: .e";
    fn property(indices: Vec<u8>) -> bool {
        let text: String = indices.iter().map(|&i| char::from(ALPHABET[usize::from(i) % ALPHABET.len()])).collect();
        for fen in FUZZ_FENS {
            let pos: Position = fen.parse().unwrap();
            if let Ok(m) = pos.parse_san(&text) {
                // Whatever parses is legal, and its SAN parses to it too.
                if !pos.is_legal(m) || pos.parse_san(&pos.san(m)) != Ok(m) {
                    return false;
                }
            }
        }
        true
    }
    QuickCheck::new().tests(50_000).quickcheck(property as fn(Vec<u8>) -> bool);
}
