//! The validity rules against an independent implementation, python-chess
//! (`Board.status()`), on 100,000 positions: random boards, the test
//! data's positions mutated (a piece moved, added, removed or changed,
//! the side to move flipped, castling rights or an en passant square
//! added), and positions of random games.
//!
//! Each position is *valid* to us (accepted by `Position::from_setup` and
//! not flagged by `movegen::unreachable`), *rejected* or *flagged*; to
//! python-chess it is valid (status 0) or not. A disagreement is:
//!
//! * python-chess finds a fault that we neither reject nor flag (its
//!   conditions are the floor);
//! * we reject a position python-chess finds valid;
//! * we flag a position python-chess finds valid, unless it is one of our
//!   two stricter rules, each confirmed independently:
//!   * too many pieces for the promotions: more pieces beyond the initial
//!     set (bishops counted by square colour) than missing pawns, where
//!     python-chess only counts more than 16 men; the count is redone here
//!     from the FEN text;
//!   * a check that no last move could have given, where python-chess
//!     tests three checkers, two checkers in line with the king, and the
//!     en passant double step: confirmed by a retrograde search written in
//!     Python on python-chess's own move rules (`tests/python/status.py`),
//!     which must find no last move either.
//!
//! The same retrograde search also runs on positions in check that both
//! call valid (a sample), and must find a last move for each: our rule
//! misses no impossible check that one move back reveals.
//!
//! Castling rights that our parser reads as Chess960 (X-FEN: `K` or `Q`
//! with the king off the e-file) are compared with python-chess's Chess960
//! mode, and its retrograde search then tries Chess960 castlings too.
//!
//! python-chess runs in a virtual environment under the target directory,
//! installed from PyPI. Without Python or PyPI the test says so and passes,
//! unless `UNWINNABLE_REQUIRE_PYTHON_CHESS=1` (set by `.ci/run`).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::Rng;
use movegen::{Board, CastlingRights, Color, Piece, Position, Rank, Role, Setup, Square, Unreachable};

use testkit::python::PYTHON_CHESS;
/// How many positions.
const POSITIONS: usize = 100_000;
/// The most positions in check that both call valid given to the
/// retrograde search (it takes about 10 ms each).
const CHECK_SAMPLE: usize = 1_500;

/// A virtual environment with python-chess, or why there is none.
fn python_chess() -> Result<PathBuf, String> {
    testkit::python::venv_with(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("python-chess-status"), PYTHON_CHESS)
}

/// Our verdict on a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ours {
    Valid,
    Rejected(String),
    Flagged(Vec<Unreachable>),
}

fn ours(fen: &str) -> Ours {
    let setup = match Setup::from_fen(fen) {
        Ok(setup) => setup,
        Err(e) => return Ours::Rejected(e.to_string()),
    };
    if let Err(e) = Position::from_setup(setup) {
        return Ours::Rejected(e.to_string());
    }
    match movegen::unreachable(&setup) {
        reasons if reasons.is_empty() => Ours::Valid,
        reasons => Ours::Flagged(reasons),
    }
}

/// A FEN of `setup` as python-chess reads it (the counters `0 1`).
fn fen(setup: &Setup) -> String {
    let ep = setup.en_passant.map_or("-".to_string(), |s| s.to_string());
    let castling = setup.castling.to_fen();
    let castling = if castling.is_empty() { "-".to_string() } else { castling };
    format!("{} {} {castling} {ep} 0 1", setup.board.board_fen(), setup.side_to_move.char())
}

const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

fn random_piece(rng: &mut Rng, kings: bool) -> Piece {
    let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
    // Pawns and the usual pieces more often than queens.
    let role = match rng.below(if kings { 13 } else { 12 }) {
        0..=4 => Role::Pawn,
        5 | 6 => Role::Knight,
        7 | 8 => Role::Bishop,
        9 | 10 => Role::Rook,
        11 => Role::Queen,
        _ => Role::King,
    };
    Piece::new(color, role)
}

fn random_square(rng: &mut Rng) -> Square {
    Square::new(rng.below(64) as u32)
}

/// Castling rights and an en passant square that the board may or may not
/// support (most often plausible ones).
fn random_rights(setup: &mut Setup, rng: &mut Rng) {
    setup.castling = CastlingRights::empty();
    if rng.below(3) == 0 {
        let text: String = "KQkq".chars().filter(|_| rng.below(2) == 0).collect();
        if let Some(rights) = CastlingRights::from_fen(if text.is_empty() { "-" } else { &text }) {
            setup.castling = rights;
        }
    }
    setup.en_passant = None;
    if rng.below(6) == 0 {
        let rank = Rank::Sixth.relative_to(setup.side_to_move);
        let file = rng.below(8) as u32;
        setup.en_passant = Some(Square::from_coords(movegen::File::new(file), rank));
        if rng.below(8) == 0 {
            setup.en_passant = Some(random_square(rng));
        }
    }
}

/// A random board: two kings (usually), some men anywhere but mostly not
/// pawns on back ranks.
fn random_setup(rng: &mut Rng) -> Setup {
    let mut board = Board::empty();
    for color in Color::ALL {
        if rng.below(50) != 0 {
            board.set_piece_at(random_square(rng), Piece::new(color, Role::King));
        }
    }
    let men = match rng.below(4) {
        0 => rng.below(6),
        1 | 2 => rng.below(20),
        _ => rng.below(40),
    };
    for _ in 0..men {
        let square = random_square(rng);
        if board.occupied().contains(square) {
            continue;
        }
        let piece = random_piece(rng, false);
        let back = matches!(square.rank(), Rank::First | Rank::Eighth);
        if piece.role == Role::Pawn && back && rng.below(10) != 0 {
            continue;
        }
        board.set_piece_at(square, piece);
    }
    let mut setup = Setup::start();
    setup.board = board;
    setup.side_to_move = if rng.below(2) == 0 { Color::White } else { Color::Black };
    random_rights(&mut setup, rng);
    setup
}

/// `setup` changed in one to three ways.
fn mutate(mut setup: Setup, rng: &mut Rng) -> Setup {
    for _ in 0..1 + rng.below(3) {
        let occupied: Vec<Square> = setup.board.occupied().into_iter().collect();
        match rng.below(8) {
            // Move a man to an empty square.
            0 | 1 => {
                let from = occupied[rng.below(occupied.len())];
                let to = random_square(rng);
                if !setup.board.occupied().contains(to) {
                    let piece = setup.board.remove_piece_at(from).unwrap();
                    setup.board.set_piece_at(to, piece);
                }
            }
            // Add a man.
            2 | 3 => {
                let to = random_square(rng);
                if !setup.board.occupied().contains(to) {
                    setup.board.set_piece_at(to, random_piece(rng, true));
                }
            }
            // Remove a man (a king too, sometimes).
            4 => {
                let from = occupied[rng.below(occupied.len())];
                if setup.board.role_at(from) != Some(Role::King) || rng.below(10) == 0 {
                    setup.board.remove_piece_at(from);
                }
            }
            // Change a man's kind or colour.
            5 => {
                let at = occupied[rng.below(occupied.len())];
                if setup.board.role_at(at) != Some(Role::King) {
                    let piece = setup.board.piece_at(at).unwrap();
                    let changed = if rng.below(2) == 0 {
                        Piece::new(!piece.color, piece.role)
                    } else {
                        Piece::new(piece.color, ROLES[rng.below(5)])
                    };
                    setup.board.set_piece_at(at, changed);
                }
            }
            // The other side to move.
            6 => {
                setup.side_to_move = !setup.side_to_move;
                setup.en_passant = None;
            }
            _ => random_rights(&mut setup, rng),
        }
    }
    setup
}

/// The positions of the test data (perft and move order, the labelled
/// sets, the corpus).
fn data_setups() -> Vec<Setup> {
    let mut fens: Vec<String> = common::test_fens().into_iter().map(String::from).collect();
    for (data, skip) in [
        (include_str!("../../../testdata/dev-positions.txt"), 1),
        (include_str!("../../../testdata/hard-positions.txt"), 1),
        (include_str!("../../../testdata/lichess-30k-positions.txt"), 0),
    ] {
        for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let tokens: Vec<&str> = line.split_ascii_whitespace().skip(skip).take(4).collect();
            fens.push(tokens.join(" "));
        }
    }
    fens.iter().filter_map(|fen| Setup::from_fen(fen).ok()).collect()
}

/// Pieces beyond the initial set, and missing pawns, of `color`, counted
/// from the FEN text (independently of `movegen::unreachable`).
fn extra_and_missing(fen: &str, color: Color) -> (u32, u32) {
    let placement = fen.split(' ').next().unwrap();
    let mut counts = std::collections::HashMap::new();
    let (mut light, mut dark) = (0u32, 0u32);
    for (row, rank_text) in placement.split('/').enumerate() {
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(skip) = c.to_digit(10) {
                file += skip as usize;
                continue;
            }
            let ours = if color == Color::White { c.is_ascii_uppercase() } else { c.is_ascii_lowercase() };
            if ours {
                *counts.entry(c.to_ascii_lowercase()).or_insert(0u32) += 1;
                if c.eq_ignore_ascii_case(&'b') {
                    // a8 (row 0, file 0) is a light square.
                    if (row + file) % 2 == 0 { light += 1 } else { dark += 1 }
                }
            }
            file += 1;
        }
    }
    let count = |c: char| counts.get(&c).copied().unwrap_or(0);
    let extra = count('q').saturating_sub(1)
        + count('r').saturating_sub(2)
        + count('n').saturating_sub(2)
        + light.saturating_sub(1)
        + dark.saturating_sub(1);
    (extra, 8u32.saturating_sub(count('p')))
}

#[test]
fn validity_agrees_with_python_chess() {
    let python = match python_chess() {
        Ok(python) => python,
        Err(why) => {
            let required = std::env::var("UNWINNABLE_REQUIRE_PYTHON_CHESS").is_ok_and(|v| v == "1");
            assert!(!required, "python-chess cannot be installed: {why}");
            eprintln!("SKIPPED: python-chess cannot be installed here: {why}");
            return;
        }
    };
    let mut rng = Rng::new(33);
    let data = data_setups();
    let mut fens = Vec::with_capacity(POSITIONS);
    while fens.len() < POSITIONS {
        let setup = match fens.len() % 10 {
            // Random boards.
            0..=2 => random_setup(&mut rng),
            // Positions of random games (reachable: they must all agree).
            3 => {
                let start = Position::from_fen(&fen(&data[rng.below(data.len())])).unwrap_or_default();
                let mut reached = start;
                common::playout(start, rng.below(40), &mut rng, |pos, _| reached = *pos);
                Setup::from_fen(&reached.to_fen()).unwrap()
            }
            // The test data, mutated.
            _ => mutate(data[rng.below(data.len())], &mut rng),
        };
        fens.push(fen(&setup));
    }
    let verdicts: Vec<Ours> = fens.iter().map(|f| ours(f)).collect();
    // The retrograde search for: every impossible check we flag, and a
    // sample of the positions in check that we accept.
    let mut sampled = 0;
    let marks: Vec<&str> = fens
        .iter()
        .zip(&verdicts)
        .map(|(fen, verdict)| match verdict {
            Ours::Flagged(reasons) if reasons.iter().any(|r| matches!(r, Unreachable::ImpossibleCheck { .. })) => "?",
            Ours::Valid if sampled < CHECK_SAMPLE && Position::from_fen(fen).is_ok_and(|p| p.is_check()) => {
                sampled += 1;
                "?"
            }
            _ => "-",
        })
        .collect();
    let mut input = String::new();
    for (mark, fen) in marks.iter().zip(&fens) {
        // Rights our parser reads as Chess960 (X-FEN: a king off the
        // e-file) are compared with python-chess's Chess960 mode.
        let chess960 = Setup::from_fen(fen).is_ok_and(|setup| setup.castling_files.is_chess960());
        input.push_str(&format!("{mark}{} {fen}\n", if chess960 { "960" } else { "" }));
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/status.py");
    let mut child = Command::new(&python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python-chess");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let theirs: Vec<(u64, String)> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let (status, explained) = line.split_once(' ').unwrap();
            (status.parse().unwrap(), explained.to_string())
        })
        .collect();
    assert_eq!(theirs.len(), fens.len());

    let mut disagreements = Vec::new();
    let (mut valid, mut rejected, mut flagged, mut stricter_pieces, mut stricter_checks, mut confirmed_checks) =
        (0, 0, 0, 0, 0, 0);
    for ((fen, verdict), (status, explained)) in fens.iter().zip(&verdicts).zip(&theirs) {
        let python_valid = *status == 0;
        match verdict {
            Ours::Valid => {
                valid += 1;
                if !python_valid {
                    disagreements.push(format!("{fen}: python-chess status {status:#x}, we accept it"));
                }
                if explained == "no" {
                    disagreements.push(format!("{fen}: no last move gives this check, and we do not flag it"));
                } else if explained == "yes" {
                    confirmed_checks += 1;
                }
            }
            Ours::Rejected(why) => {
                rejected += 1;
                if python_valid {
                    disagreements.push(format!("{fen}: we reject it ({why}), python-chess finds it valid"));
                }
            }
            Ours::Flagged(reasons) => {
                flagged += 1;
                if python_valid {
                    for reason in reasons {
                        match reason {
                            Unreachable::TooManyPieces { color, .. } => {
                                let (extra, missing) = extra_and_missing(fen, *color);
                                if extra > missing {
                                    stricter_pieces += 1;
                                } else {
                                    disagreements.push(format!("{fen}: {reason}, but the count says otherwise"));
                                }
                            }
                            Unreachable::ImpossibleCheck { .. } if explained == "no" => stricter_checks += 1,
                            _ => disagreements.push(format!(
                                "{fen}: we flag it ({reason}), python-chess finds it valid (retrograde search: \
                                 {explained})"
                            )),
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{} positions: {valid} valid, {rejected} rejected, {flagged} flagged; python-chess finds {} valid; our \
         stricter rules flag {stricter_pieces} for promotions and {stricter_checks} for checks (each confirmed); \
         {confirmed_checks} checks we accept have a last move; {} disagreements",
        fens.len(),
        theirs.iter().filter(|(s, _)| *s == 0).count(),
        disagreements.len()
    );
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
    // The comparison meant something: every kind was met.
    assert!(valid > 10_000 && rejected > 10_000 && flagged > 1_000, "{valid} {rejected} {flagged}");
    assert!(stricter_pieces > 0 && stricter_checks > 0 && confirmed_checks > 100);
}
