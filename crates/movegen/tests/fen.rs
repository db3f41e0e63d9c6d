//! FEN parsing: every kind of rejection gets its precise error, unusual but
//! well-defined positions are accepted, output round-trips, and arbitrary
//! input never panics.

use movegen::{Color, FenError, FenSyntaxError, Position, PositionError, Rank, Setup, Square};
use quickcheck::{QuickCheck, TestResult};

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(pos) => panic!("accepted {fen:?} as {}", pos.to_fen()),
        Err(e) => e,
    }
}

#[test]
fn syntax_errors() {
    use FenSyntaxError::*;
    let cases: Vec<(&str, FenSyntaxError)> = vec![
        ("", Empty),
        ("   \t ", Empty),
        ("4k3/8/8/8/8/8/8/4K3", FieldCount { found: 1 }),
        ("4k3/8/8/8/8/8/8/4K3 w", FieldCount { found: 2 }),
        ("4k3/8/8/8/8/8/8/4K3 w -", FieldCount { found: 3 }),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", FieldCount { found: 7 }),
        ("4k3/8/8/8/8/8/4K3 w - -", RankCount { found: 7 }),
        ("4k3/8/8/8/8/8/8/8/4K3 w - -", RankCount { found: 9 }),
        ("4k3/8/8/8/8/8/8/4K4 w - -", RankLength { rank: Rank::First, squares: 9 }),
        ("4k3/8/8/8/8/8/8/4K2 w - -", RankLength { rank: Rank::First, squares: 7 }),
        ("4k3/8/8/8/8/8/8/ w - -", RankLength { rank: Rank::First, squares: 0 }),
        ("4k3/9/8/8/8/8/8/4K3 w - -", PieceChar { rank: Rank::Seventh, found: '9' }),
        ("4k3/8/8/8/8/8/8/4K2x w - -", PieceChar { rank: Rank::First, found: 'x' }),
        ("4k3/8/8/8/8/08/8/4K3 w - -", PieceChar { rank: Rank::Third, found: '0' }),
        ("4k3/8/8/8/8/8/8/4\u{2654}3 w - -", PieceChar { rank: Rank::First, found: '\u{2654}' }),
        ("4k3/8/8/8/8/8/8/4K3 x - -", SideToMove { found: "x".into() }),
        ("4k3/8/8/8/8/8/8/4K3 W - -", SideToMove { found: "W".into() }),
        ("4k3/8/8/8/8/8/8/4K3 white - -", SideToMove { found: "white".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w QK -", Castling { found: "QK".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w KK -", Castling { found: "KK".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w AA -", Castling { found: "AA".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w KH -", Castling { found: "KH".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w K1 -", Castling { found: "K1".into() }),
        ("r3k3/8/8/8/8/8/8/1R2K3 w Ba -", CastlingFiles { found: "Ba".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w - e9", EnPassantSyntax { found: "e9".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w - xx", EnPassantSyntax { found: "xx".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w - e3e4", EnPassantSyntax { found: "e3e4".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", HalfmoveClock { found: "-1".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w - - 99999 1", HalfmoveClock { found: "99999".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 abc", FullmoveNumber { found: "abc".into() }),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 +5", FullmoveNumber { found: "+5".into() }),
    ];
    for (fen, expected) in cases {
        // A syntax error, told apart from an impossible position.
        assert_eq!(err(fen), FenError::Syntax(expected.clone()), "{fen:?}");
        assert!(err(fen).is_syntax());
        assert_eq!(Setup::from_fen(fen), Err(expected.clone()), "{fen:?}");
        // Every error has a message that names the problem.
        assert!(!expected.to_string().is_empty());
        assert_eq!(FenError::Syntax(expected.clone()).to_string(), expected.to_string());
    }
}

#[test]
fn rule_errors() {
    use PositionError::*;
    let cases: Vec<(&str, PositionError)> = vec![
        ("8/8/8/8/8/8/8/4K3 w - -", MissingKing { color: Color::Black }),
        ("4k3/8/8/8/8/8/8/8 w - -", MissingKing { color: Color::White }),
        ("8/8/8/8/8/8/8/8 w - -", MissingKing { color: Color::White }),
        ("4k3/8/8/8/8/8/8/K3K3 w - -", TooManyKings { color: Color::White, count: 2 }),
        ("k1k1k3/8/8/8/8/8/8/4K3 w - -", TooManyKings { color: Color::Black, count: 3 }),
        ("4k3/8/8/8/8/8/8/P3K3 w - -", PawnOnBackRank { square: Square::A1 }),
        ("4k2p/8/8/8/8/8/8/4K3 w - -", PawnOnBackRank { square: Square::H8 }),
        ("4k3/8/8/8/8/8/8/4R1K1 w - -", OpponentInCheck { color: Color::Black }),
        ("4k3/8/8/8/8/8/3p4/4K3 b - -", OpponentInCheck { color: Color::White }),
        ("8/8/8/8/8/8/4k3/4K3 w - -", OpponentInCheck { color: Color::Black }),
        ("4k3/8/8/8/8/8/8/4K3 w K -", CastlingWithoutPieces { right: 'K' }),
        ("4k3/8/8/8/8/8/8/5K1R w Q -", CastlingWithoutPieces { right: 'Q' }),
        ("4k3/8/8/8/8/8/8/4K3 w AH -", CastlingWithoutPieces { right: 'K' }),
        ("4k3/8/8/8/8/8/8/4KR2 w E -", CastlingWithoutPieces { right: 'Q' }),
        ("r3k3/8/8/8/8/8/8/4K3 w k -", CastlingWithoutPieces { right: 'k' }),
        ("1r2k3/8/8/8/8/8/8/4K3 w q -", CastlingWithoutPieces { right: 'q' }),
        ("4k3/8/8/8/8/8/8/4K2B w K -", CastlingWithoutPieces { right: 'K' }),
        (
            "4k3/8/8/3pP3/8/8/8/4K3 w - d3",
            ImpossibleEnPassant { square: Square::D3, reason: "with White to move it must be on rank 6" },
        ),
        (
            "4k3/8/8/4P3/8/8/8/4K3 w - d6",
            ImpossibleEnPassant {
                square: Square::D6,
                reason: "no pawn of the side that just moved stands in front of it",
            },
        ),
        (
            "4k3/3n4/8/3pP3/8/8/8/4K3 w - d6",
            ImpossibleEnPassant { square: Square::D6, reason: "the squares the pawn passed over must be empty" },
        ),
        (
            "4k3/8/3n4/3pP3/8/8/8/4K3 w - d6",
            ImpossibleEnPassant { square: Square::D6, reason: "the squares the pawn passed over must be empty" },
        ),
        (
            "4k3/8/8/8/3Pp3/8/3N4/4K3 b - d3",
            ImpossibleEnPassant { square: Square::D3, reason: "the squares the pawn passed over must be empty" },
        ),
    ];
    for (fen, expected) in cases {
        // Well-formed FEN: the setup parses, the position is impossible.
        assert_eq!(err(fen), FenError::Impossible(expected.clone()), "{fen:?}");
        assert!(!err(fen).is_syntax());
        let setup = Setup::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(Position::from_setup(setup), Err(expected), "{fen:?}");
    }
}

#[test]
fn unusual_but_defined_positions_are_accepted() {
    for fen in [
        // Nine pawns, three queens.
        "4k3/8/8/8/P7/8/PPPPPPPP/QQQ1K3 w - - 0 1",
        // Triple check with White to move: only king moves.
        "7k/4r3/8/8/1b6/5n2/8/4K3 w - - 0 1",
        // Many pieces: a full board with both kings.
        "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1",
        // Four-field FEN, clocks default.
        "8/8/8/8/8/8/8/K1k5 b - -",
        // En passant square with no capturing pawn: accepted, then dropped.
        "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(Position::from_fen(&pos.to_fen()), Ok(pos));
    }
    let triple = Position::from_fen("7k/4r3/8/8/1b6/5n2/8/4K3 w - - 0 1").unwrap();
    assert_eq!(triple.checkers().count(), 3);
    assert!(triple.legal_moves().iter().all(|m| m.from() == Square::E1));
    let dropped = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(dropped.ep_square(), None);
    let kept = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(kept.ep_square(), Some(Square::E3));
    assert_eq!(kept.to_fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
}

#[test]
fn test_data_round_trips() {
    for data in [include_str!("../../../testdata/movegen-order.tsv"), include_str!("../../../testdata/perft-1000.tsv")]
    {
        for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let fen = line.split('\t').next().unwrap();
            let pos = Position::from_fen(fen).unwrap();
            let written = pos.to_fen();
            assert_eq!(Position::from_fen(&written), Ok(pos), "{fen}");
            // The text round-trips too, except an en passant square no pawn
            // can capture to, which the position does not record.
            let keep_ep = pos.ep_square().is_some() || fen.split_whitespace().nth(3) == Some("-");
            if keep_ep {
                assert_eq!(written, fen, "{fen}");
            }
            assert_eq!(Setup::from_fen(&written).map(|s| s.to_fen()), Ok(written.clone()));
        }
    }
}

/// Mutations of valid FENs (character edits, truncations, swapped fields)
/// must either parse to a position that round-trips, or give an error;
/// never panic.
#[test]
fn mutated_fens_never_panic() {
    fn property(seed: usize, edits: Vec<(u16, char)>, cut: u8) -> TestResult {
        let sources: Vec<&str> = include_str!("../../../testdata/perft-1000.tsv")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split('\t').next().unwrap())
            .collect();
        let mut fen: Vec<char> = sources[seed % sources.len()].chars().collect();
        for (at, c) in edits.iter().take(4) {
            if !fen.is_empty() {
                let i = *at as usize % fen.len();
                fen[i] = *c;
            }
        }
        let keep = fen.len().saturating_sub(cut as usize % 8);
        let text: String = fen[..keep].iter().collect();
        match Position::from_fen(&text) {
            Ok(pos) => TestResult::from_bool(Position::from_fen(&pos.to_fen()) == Ok(pos)),
            Err(e) => TestResult::from_bool(!e.to_string().is_empty()),
        }
    }
    QuickCheck::new().tests(20_000).quickcheck(property as fn(usize, Vec<(u16, char)>, u8) -> TestResult);
}

#[test]
fn arbitrary_strings_never_panic() {
    fn property(text: String) -> bool {
        let _ = Position::from_fen(&text);
        let _ = Setup::from_fen(&text);
        true
    }
    QuickCheck::new().tests(20_000).quickcheck(property as fn(String) -> bool);
}
