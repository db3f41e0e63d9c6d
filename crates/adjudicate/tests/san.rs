//! The PGN reader's fast SAN resolution agrees with the reference,
//! `Position::parse_san`: every legal move of every position of
//! `testdata/movegen-order.tsv`, written in SAN (and in variants: without
//! suffix, with annotations, with redundant disambiguation), resolves to the
//! same move, and the position after it is the one `play` gives; so does
//! every move in UCI coordinates. Text that names no move gets the same
//! error.

use adjudicate::san::resolve;
use movegen::Position;

const DATA: &str = include_str!("../../../testdata/movegen-order.tsv");

fn positions() -> Vec<Position> {
    DATA.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| Position::from_fen(line.split('\t').next().expect("a FEN")).expect("valid FEN"))
        .collect()
}

#[test]
fn every_legal_move_of_the_corpus() {
    let mut checked = 0;
    for pos in positions() {
        for &m in &pos.legal_moves() {
            let san = pos.san(m);
            let bare = san.trim_end_matches(['+', '#']).to_string();
            // Fully disambiguated: `Ng1f3`, `e2e4`, `e7xd8=Q`.
            let long = if m.is_castle() {
                bare.clone()
            } else {
                let role = pos.role_at(m.from()).map_or(String::new(), |r| r.upper_char().to_string());
                let role = if role == "P" { String::new() } else { role };
                let capture = if pos.is_capture(m) { "x" } else { "" };
                let promotion = m.promotion().map_or(String::new(), |r| format!("={}", r.upper_char()));
                format!("{role}{}{capture}{}{promotion}", m.from(), m.to())
            };
            for text in [san.clone(), bare.clone(), format!("{bare}!?"), format!("{san}??"), long] {
                let reference = pos.parse_san(&text);
                let fast = resolve(&pos, &text);
                match (&reference, &fast) {
                    (Ok(expected), Ok((found, after))) => {
                        assert_eq!(found, expected, "{} {text}", pos.to_fen());
                        assert_eq!(*after, pos.play(*expected), "{} {text}", pos.to_fen());
                    }
                    (Err(a), Err(b)) => assert_eq!(a, b, "{} {text}", pos.to_fen()),
                    _ => panic!("{} {text}: reference {reference:?}, fast {fast:?}", pos.to_fen()),
                }
            }
            assert_eq!(resolve(&pos, &san).map(|(found, _)| found), Ok(m), "{} {san}", pos.to_fen());
            // In coordinates (UCI), as some programs write movetext.
            let uci = m.to_string();
            assert_eq!(resolve(&pos, &uci).map(|(found, _)| found), Ok(m), "{} {uci}", pos.to_fen());
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn moves_that_are_not_legal_get_the_reference_error() {
    for pos in positions().into_iter().take(500) {
        for text in ["e4", "exd5", "Nf3", "Qh4", "Kxe2", "e8=Q", "a1=N+", "Rd1", "Bb5+", "O-O", "O-O-O", "N3", "zz", ""]
        {
            let fast = resolve(&pos, text).map(|(m, _)| m);
            assert_eq!(fast, pos.parse_san(text), "{} {text}", pos.to_fen());
        }
    }
}
