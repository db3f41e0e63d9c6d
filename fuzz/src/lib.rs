//! The fuzz targets as plain functions, so that they can be driven two ways:
//! by the cargo-fuzz (libFuzzer) binaries in `fuzz_targets/`, and on stable
//! Rust by `cargo xtask fuzz --smoke`, which compiles this file as a module
//! (`#[path]`) and feeds it seeds from `testdata/` plus mutations.
//!
//! Every target takes arbitrary bytes and panics only on a bug: a panic in
//! the code under test, or a checked fact that does not hold (a FEN that does
//! not round-trip, a SAN that does not parse back to its move, a `Winnable`
//! whose helpmate does not replay to mate).
//!
//! This file must only use the crates `movegen`, `search`, `adjudicate`
//! and `check` (both users depend on them) and paths relative to itself.

use movegen::{Color, Piece, Position, Role, Square};

/// The names of the targets, in the order [`run`] knows them.
pub const TARGETS: [&str; 5] = ["fen", "uci_san", "pgn", "analyze", "certificate"];

/// The labelled development positions (label, space, FEN), the starting
/// points of the `analyze` target.
pub const DEV_POSITIONS: &str = include_str!("../../testdata/dev-positions.txt");

/// Runs target `name` on `data`; `false` if there is no such target.
pub fn run(name: &str, data: &[u8]) -> bool {
    match name {
        "fen" => fen(data),
        "uci_san" => uci_san(data),
        "pgn" => pgn(data),
        "analyze" => analyze(data),
        "certificate" => certificate(data),
        _ => return false,
    }
    true
}

/// FEN parsing (standard, Chess960 and either), and the round trip FEN ->
/// position -> FEN -> position (the X-FEN written reads back the same
/// without a Chess960 hint).
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = movegen::Setup::from_fen(text);
    let _ = movegen::Setup::from_fen_chess960(text);
    for pos in [Position::from_fen(text), Position::from_fen_chess960(text), Position::from_fen_any(text)] {
        let Ok(pos) = pos else { continue };
        let fen = pos.to_fen();
        let again = Position::from_fen_any(&fen).unwrap_or_else(|e| panic!("{text:?} -> {fen:?} is rejected: {e}"));
        assert_eq!(again.to_fen(), fen, "FEN round trip of {text:?}");
        assert_eq!(again.compute_hash(), pos.compute_hash(), "hash after the round trip of {text:?}");
        assert_eq!(again.legal_moves().len(), pos.legal_moves().len(), "moves after the round trip of {text:?}");
    }
}

/// UCI and SAN move parsing against a position. The data is a FEN line and
/// then move texts, one per line; each text is parsed as UCI and as SAN, a
/// parsed move must be legal, and every legal move's SAN (and UCI) must
/// parse back to the move. A legal parsed move is played.
pub fn uci_san(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.lines();
    let Some(first) = lines.next() else { return };
    let mut pos = Position::from_fen_any(first.trim()).unwrap_or_else(|_| Position::start());
    check_all_moves(&pos);
    for (i, line) in lines.enumerate() {
        if i >= 64 {
            break;
        }
        let uci = pos.parse_uci(line).ok();
        let san = pos.parse_san(line).ok();
        for m in [uci, san].into_iter().flatten() {
            assert!(pos.is_legal(m), "{line:?} parsed to the illegal {m} in {}", pos.to_fen());
        }
        if let Some(m) = uci.or(san) {
            pos = pos.play(m);
            check_all_moves(&pos);
        }
    }
}

fn check_all_moves(pos: &Position) {
    for &m in pos.legal_moves().iter() {
        let san = pos.san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "SAN {san} of {m} in {}", pos.to_fen());
        // Castling as the king's move, or as the king taking its rook in
        // Chess960.
        let uci = pos.to_uci(m);
        assert_eq!(pos.parse_uci(&uci), Ok(m), "UCI {uci} in {}", pos.to_fen());
        // The adjudicator's lenient SAN reader must agree too.
        match adjudicate::san::resolve(pos, &san) {
            Ok((resolved, _)) => assert_eq!(resolved, m, "adjudicate SAN {san} in {}", pos.to_fen()),
            Err(e) => panic!("adjudicate rejects SAN {san} of {m} in {}: {e}", pos.to_fen()),
        }
    }
}

/// The PGN reader on arbitrary bytes (read whole, and through a reader that
/// hands out tiny chunks), and the one-line `FEN moves` reader on each line.
pub fn pgn(data: &[u8]) {
    let whole: Vec<String> = adjudicate::pgn::Reader::new(data).map(|game| summary(&game)).collect();
    let chunked: Vec<String> =
        adjudicate::pgn::Reader::new(std::io::BufReader::with_capacity(7, data)).map(|game| summary(&game)).collect();
    assert_eq!(whole, chunked, "the games depend on the reader's buffer size");
    for line in String::from_utf8_lossy(data).lines().take(64) {
        if !adjudicate::fen_line::is_skipped(line) {
            let _ = adjudicate::fen_line::parse_fen_line(line);
        }
    }
}

fn summary(game: &Result<adjudicate::pgn::PgnGame, adjudicate::pgn::PgnError>) -> String {
    match game {
        Ok(game) => format!("ok {} moves", game.game.moves().len()),
        Err(e) => format!("error {e}"),
    }
}

/// The analyzer on a valid position built from the bytes: the first two
/// bytes choose a development position, the third the configuration (mode,
/// a 1 ms deadline, static pruning, a small first iteration, best-first, a
/// 4-bit hash mask),
/// the rest edit the position (two bytes per edit: remove a piece, put a
/// piece, play a legal move, flip the side to move; an edit that would make
/// the position invalid is skipped). The analysis, for both winners with a
/// small node budget, must return, and any `Winnable` must replay to a mate
/// by the winner. When no edit was made, the verdict must not contradict
/// the position's label.
pub fn analyze(data: &[u8]) {
    let positions: Vec<(&str, &str)> = DEV_POSITIONS
        .lines()
        .filter(|line| !line.starts_with('#') && line.len() > 3)
        .map(|line| line.split_at(2))
        .map(|(label, fen)| (label, fen.trim()))
        .collect();
    let (index, options, edits) = match data {
        [a, b, options, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), *options, rest),
        [a, b] => (usize::from(u16::from_le_bytes([*a, *b])), 0, &[][..]),
        _ => (0, 0, &[][..]),
    };
    let (label, fen) = positions[index % positions.len()];
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("dev position {fen}: {e}"));
    let mut edited = false;
    for edit in edits.chunks_exact(2).take(24) {
        if let Some(next) = apply_edit(&pos, edit[0], edit[1]) {
            pos = next;
            edited = true;
        }
    }
    let mut config = search::Config::default();
    config.limits.nodes = 2_000;
    config.limits.memory_mb = 1;
    config.first_iteration_nodes = 500;
    config.mode = match options & 3 {
        2 => search::Mode::Quick,
        3 => search::Mode::Shortest,
        _ => search::Mode::Full,
    };
    if options & 4 != 0 {
        config.limits.deadline = Some(std::time::Duration::from_millis(1));
    }
    if options & 8 != 0 {
        config.static_pruning = None;
    }
    if options & 16 != 0 {
        config.first_iteration_nodes = 20;
    }
    config.best_first = options & 32 == 0;
    if options & 64 != 0 {
        config.hash_mask = 0xf;
    }
    let mut analyzer = search::Analyzer::new(config);
    for (winner, label_char) in [(Color::White, 'W'), (Color::Black, 'B')] {
        let analysis = analyzer.analyze(&pos, winner);
        let fen = pos.to_fen();
        if let Some(helpmate) = analysis.verdict.helpmate() {
            let end = search::replay(&pos, winner, helpmate)
                .unwrap_or_else(|e| panic!("helpmate for {winner:?} in {fen} does not replay: {e}"));
            assert!(end.is_checkmate(), "helpmate for {winner:?} in {fen} does not end in mate");
        }
        if !edited {
            let winnable = label.contains(label_char);
            match &analysis.verdict {
                search::Verdict::Unwinnable(_) => assert!(!winnable, "{fen}: labelled {label}, proved unwinnable"),
                search::Verdict::Winnable { .. } => assert!(winnable, "{fen}: labelled {label}, found a helpmate"),
                search::Verdict::Undetermined(_) => {}
            }
        }
    }
}

/// One edit of [`analyze`]; `None` if it would not give a valid position.
fn apply_edit(pos: &Position, op: u8, arg: u8) -> Option<Position> {
    let square = Square::ALL[usize::from(arg % 64)];
    match op % 4 {
        0 => {
            let mut setup = pos.to_setup();
            setup.board.remove_piece_at(square)?;
            Position::from_setup(setup).ok()
        }
        1 => {
            let mut setup = pos.to_setup();
            let role = Role::ALL[usize::from(op / 4) % 5]; // never a king
            let color = if op & 0x80 == 0 { Color::White } else { Color::Black };
            setup.board.remove_piece_at(square);
            setup.board.set_piece_at(square, Piece { color, role });
            Position::from_setup(setup).ok()
        }
        2 => {
            let moves = pos.legal_moves();
            let m = *moves.get(usize::from(arg) % moves.len().max(1))?;
            Some(pos.play(m))
        }
        _ => {
            let mut setup = pos.to_setup();
            setup.side_to_move = !setup.side_to_move;
            setup.en_passant = None;
            Position::from_setup(setup).ok()
        }
    }
}

/// The independent checker (`crates/check`) on arbitrary bytes as a record
/// of `analyze --certificate`, with a budget of 20,000 positions: a
/// certificate is untrusted input, so the check must return (bounded time
/// and memory) without panicking. A winnable claim it accepts must also be
/// a helpmate by the other move generator: `movegen` parses the FEN and
/// every move and replays them to a mate by the winner.
pub fn certificate(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let limits = check::Limits { max_positions: 20_000 };
    if check::check_record(text, &limits) != check::Outcome::Accepted {
        return;
    }
    let Ok(record) = serde_json::from_str::<serde_json::Value>(text) else { panic!("accepted {text:?}") };
    if record["verdict"] != "winnable" {
        return;
    }
    let fen = record["fen"].as_str().unwrap_or_default();
    let winner = if record["winner"] == "white" { Color::White } else { Color::Black };
    let Ok(mut pos) = Position::from_fen(fen) else { return };
    for m in record["certificate"]["moves"].as_array().into_iter().flatten() {
        let m = m.as_str().and_then(|m| pos.parse_uci(m).ok());
        pos = pos.play(m.unwrap_or_else(|| panic!("accepted helpmate with a move movegen refuses: {text}")));
    }
    assert!(
        pos.is_checkmate() && pos.side_to_move() != winner,
        "accepted helpmate that movegen does not see mate: {text}"
    );
}
