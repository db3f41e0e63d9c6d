//! Positions that are already over are judged as they stand, before any
//! rule: a checkmate delivered by the intended winner is winnable with the
//! empty helpmate whatever the material (Lemma 6 would otherwise call two
//! same-coloured bishops unable to mate), a stalemate or a mate of the
//! winner is unwinnable. Every mode.

use movegen::{Color, Position};
use search::{Analyzer, Config, Ending, Mode, Proof, Verdict, replay};

/// (FEN, intended winner, expected verdict). The positions cannot arise in
/// a legal game (a double check by two bishops of one colour), or can; the
/// verdict follows the position as given.
const CASES: [(&str, Color, &str); 7] = [
    // Black has mated with two dark-squared bishops (double check).
    ("8/8/8/8/8/1k6/b1b5/RKR5 w - -", Color::Black, "mate"),
    ("8/8/8/8/8/1k6/b1b5/RKR5 w - -", Color::White, "winner-mated"),
    // White mated with a lone knight and the black pieces walling the king.
    ("kr6/ppN5/8/8/8/8/8/7K b - -", Color::White, "mate"),
    // Two white bishops on light squares, double check (not reachable).
    ("7k/5B2/8/3B4/8/8/8/K7 b - -", Color::White, "mate-or-not"),
    // Stalemate.
    ("7k/5Q2/6K1/8/8/8/8/8 b - -", Color::White, "stalemate"),
    ("7k/5Q2/6K1/8/8/8/8/8 b - -", Color::Black, "stalemate"),
    // Back-rank mate of Black, analysed for Black.
    ("3R2k1/5ppp/8/8/8/8/8/6K1 b - -", Color::Black, "winner-mated"),
];

#[test]
fn finished_games_are_judged_as_they_stand() {
    for mode in [Mode::Full, Mode::Quick, Mode::Shortest] {
        let mut analyzer = Analyzer::new(Config { mode, ..Config::default() });
        for (fen, winner, expected) in CASES {
            let pos: Position = fen.parse().unwrap();
            let verdict = analyzer.analyze(&pos, winner).verdict;
            let is_mate_by_winner = pos.is_checkmate() && pos.side_to_move() == !winner;
            match expected {
                "mate" => {
                    assert!(is_mate_by_winner, "{fen}: the test position must be a mate by {winner}");
                    assert_eq!(verdict, Verdict::Winnable { helpmate: vec![] }, "{fen} {winner} {mode:?}");
                    replay(&pos, winner, &[]).unwrap();
                }
                "mate-or-not" => {
                    if is_mate_by_winner {
                        assert_eq!(verdict, Verdict::Winnable { helpmate: vec![] }, "{fen} {winner} {mode:?}");
                    }
                }
                "winner-mated" => {
                    assert!(pos.is_checkmate() && pos.side_to_move() == winner, "{fen}");
                    assert_eq!(verdict, Verdict::Unwinnable(Proof::GameOver(Ending::WinnerMated)), "{fen} {mode:?}");
                }
                "stalemate" => {
                    assert!(pos.is_stalemate(), "{fen}");
                    assert_eq!(verdict, Verdict::Unwinnable(Proof::GameOver(Ending::Stalemate)), "{fen} {mode:?}");
                }
                _ => unreachable!(),
            }
        }
    }
}
