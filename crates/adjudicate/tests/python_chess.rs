//! The PGN reader against an independent implementation, python-chess: every
//! game of standard chess or Chess960 that python-chess reads without an
//! error is read by ours to the same final position (FEN, with the en passant square only
//! when a capture is legal) after the same number of moves; every game it
//! reads as another variant, or with a null move, is an error record here;
//! every game it reports an error for is an error here too.
//!
//! The files: the well-formed ones of `testdata/pgn/` (written for this
//! project, `real-world-features.pgn` among them: a byte order mark,
//! comment lines before the tags, a blank line between tags, coordinate
//! moves, variants) and the real-world PGN files of python-chess's own test
//! data (`data/pgn/` of its source distribution: a ChessBase export, UCI
//! movetext, byte order marks, Chess960 and variant games), which are
//! downloaded with python-chess from PyPI into the target directory and not
//! kept in this repository (they are GPL-3.0). More files can be added with
//! the environment variable `PGN_COMPARE` (paths separated by `:`).
//!
//! python-chess runs in a virtual environment under the target directory.
//! Without Python or PyPI the test says so on standard error and passes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use adjudicate::input::open_path;
use adjudicate::pgn::{PgnErrorKind, Reader};
use movegen::Position;

use testkit::python::{PYTHON_CHESS, run};

/// The well-formed files of `testdata/pgn/` (the others are junk, cut or
/// malformed on purpose: where one game ends in junk is not a fact to
/// compare).
const OWN_FILES: [&str; 10] = [
    "real-world-features.pgn",
    "chess960.pgn",
    "pgn-syntax.pgn",
    "checkmate.pgn",
    "dead.pgn",
    "move-count.pgn",
    "repetition.pgn",
    "stalemate.pgn",
    "timeout.pgn",
    "timeout-paper.pgn",
];

/// A virtual environment with python-chess, and the directory of its
/// source distribution's PGN files.
fn python_chess() -> Result<(PathBuf, PathBuf), String> {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python-chess");
    let data = root.join("data/pgn");
    let python = testkit::python::venv(&root, PYTHON_CHESS, |python| {
        let downloads = root.join("downloads");
        run(Command::new(python)
            .args(["-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:", PYTHON_CHESS, "-d"])
            .arg(&downloads))?;
        let sdist = std::fs::read_dir(&downloads)
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .find(|path| path.to_string_lossy().ends_with(".tar.gz"))
            .ok_or("no source distribution downloaded")?;
        run(Command::new(python).args(["-m", "pip", "install", "--quiet", "--no-deps"]).arg(&sdist))?;
        // The PGN files of its test data, out of the source distribution.
        let extract = "import sys, tarfile, os\n\
            out = sys.argv[2]\n\
            os.makedirs(out, exist_ok=True)\n\
            with tarfile.open(sys.argv[1]) as tar:\n\
            \x20   for member in tar.getmembers():\n\
            \x20       parts = member.name.split('/')\n\
            \x20       if member.isfile() and parts[1:3] == ['data', 'pgn'] and member.name.endswith('.pgn'):\n\
            \x20           with open(os.path.join(out, parts[-1]), 'wb') as f:\n\
            \x20               f.write(tar.extractfile(member).read())\n";
        run(Command::new(python).args(["-c", extract]).arg(&sdist).arg(&data))
    })?;
    Ok((python, data))
}

/// What python-chess says about one game.
#[derive(Debug)]
struct Theirs {
    standard: bool,
    chess960: bool,
    errors: Vec<String>,
    plies: usize,
    fen: String,
}

/// The games of `files` as python-chess reads them, by file and number.
fn theirs(python: &Path, files: &[PathBuf]) -> BTreeMap<(String, u64), Theirs> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/final_positions.py");
    let output = Command::new(python).arg(script).args(files).output().expect("run python-chess");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let mut games = BTreeMap::new();
    for line in String::from_utf8(output.stdout).expect("UTF-8").lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let key = (record["file"].as_str().unwrap().to_string(), record["game"].as_u64().unwrap());
        let errors = record["errors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_string()).collect();
        let theirs = Theirs {
            standard: record["standard"].as_bool().unwrap(),
            chess960: record["chess960"].as_bool().unwrap(),
            errors,
            plies: record["plies"].as_u64().unwrap() as usize,
            fen: record["fen"].as_str().unwrap().to_string(),
        };
        games.insert(key, theirs);
    }
    games
}

/// `pos` as a FEN with the en passant square only when a capture is legal
/// (as python-chess writes it by default).
fn fen_legal_en_passant(pos: &Position) -> String {
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    let legal = pos.legal_moves().iter().find(|m| m.is_en_passant()).map(|m| m.to().to_string());
    let en_passant = legal.unwrap_or_else(|| "-".to_string());
    fields[3] = &en_passant;
    fields.join(" ")
}

/// The games of `file` as this crate reads them: the number of moves and
/// the final FEN, or the error.
fn ours(file: &Path) -> Vec<Result<(usize, String), PgnErrorKind>> {
    let input = open_path(file, Arc::new(AtomicU64::new(0))).expect("open");
    Reader::new(input.reader)
        .map(|game| match game {
            Ok(game) => {
                let last = game.game.positions().last().expect("a start position");
                Ok((game.game.moves().len(), fen_legal_en_passant(last)))
            }
            Err(error) => Err(error.kind),
        })
        .collect()
}

#[test]
fn the_same_games_as_python_chess() {
    let (python, data) = match python_chess() {
        Ok(found) => found,
        Err(why) => {
            eprintln!("SKIPPED: python-chess could not be installed from PyPI, no comparison made: {why}");
            return;
        }
    };
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn");
    let mut files: Vec<PathBuf> = OWN_FILES.iter().map(|name| testdata.join(name)).collect();
    let mut real: Vec<PathBuf> = std::fs::read_dir(&data)
        .expect("python-chess's PGN files")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    real.sort();
    assert!(real.len() >= 10, "python-chess's test data: {real:?}");
    files.extend(real);
    if let Ok(more) = std::env::var("PGN_COMPARE") {
        files.extend(more.split(':').filter(|p| !p.is_empty()).map(PathBuf::from));
    }
    let theirs = theirs(&python, &files);
    let (mut same, mut chess960, mut both_refuse, mut problems) = (0, 0, 0, Vec::new());
    for file in &files {
        let name = file.to_string_lossy().into_owned();
        let ours = ours(file);
        let their_count = theirs.keys().filter(|(f, _)| *f == name).count();
        if ours.len() != their_count {
            problems.push(format!("{name}: {} games here, {their_count} in python-chess", ours.len()));
            continue;
        }
        for (index, ours) in ours.iter().enumerate() {
            let number = index as u64 + 1;
            let theirs = &theirs[&(name.clone(), number)];
            let null_move = matches!(ours, Err(PgnErrorKind::NullMove { .. }));
            match ours {
                // A game of standard chess, read without error by both.
                Ok((plies, fen)) if theirs.standard && theirs.errors.is_empty() => {
                    if (*plies, fen) == (theirs.plies, &theirs.fen) {
                        same += 1;
                    } else {
                        problems.push(format!(
                            "{name}#{number}: {plies} moves to {fen} here, {} moves to {} in python-chess",
                            theirs.plies, theirs.fen
                        ));
                    }
                }
                // A Chess960 game: the same final position (castling rights
                // compared as rooks, whatever letters the two FENs use).
                Ok((plies, fen)) if theirs.chess960 && theirs.errors.is_empty() => {
                    let same_position = Position::from_fen_chess960(&theirs.fen).is_ok_and(|their| {
                        Position::from_fen_chess960(fen).is_ok_and(|our| our.to_fen() == their.to_fen())
                    });
                    if *plies == theirs.plies && same_position {
                        same += 1;
                        chess960 += 1;
                    } else {
                        problems.push(format!(
                            "{name}#{number} (Chess960): {plies} moves to {fen} here, {} moves to {} in python-chess",
                            theirs.plies, theirs.fen
                        ));
                    }
                }
                Ok(_) => problems.push(format!(
                    "{name}#{number}: read here, but python-chess says standard {}, errors {:?}",
                    theirs.standard, theirs.errors
                )),
                // Another variant, or a null move (python-chess plays it;
                // it is not a chess move): refused here with that reason.
                Err(PgnErrorKind::UnsupportedVariant { .. }) if !theirs.standard => both_refuse += 1,
                Err(_) if null_move && theirs.errors.is_empty() => both_refuse += 1,
                Err(_) if !theirs.errors.is_empty() => both_refuse += 1,
                Err(error) => problems.push(format!("{name}#{number}: error here ({error}), read by python-chess")),
            }
        }
    }
    eprintln!(
        "python-chess comparison: {} files, {same} games read to the same final position ({chess960} of Chess960), \
         {both_refuse} refused by both (variants, null moves, errors), {} differences",
        files.len(),
        problems.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(same >= 40, "{same}");
    // testdata/pgn/chess960.pgn (`cargo xtask gen-pgn 40 --variant chess960`)
    // and python-chess's own Chess960 games.
    assert!(chess960 >= 40, "{chess960}");
}
