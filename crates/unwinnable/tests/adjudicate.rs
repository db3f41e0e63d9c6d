//! `unwinnable adjudicate` end to end, on the hand-written games of
//! `testdata/pgn/`: one record per game in input order (also with several
//! threads), every format, `--only-wrong`, `--every-ply`, `--timeout`,
//! zstd-compressed and standard input, `FEN moves...` lines, and inputs
//! that are missing or malformed (error records; the run goes on).

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

mod common;

fn testdata(name: &str) -> String {
    format!("{}/../../testdata/pgn/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Every file of `testdata/pgn`, in name order.
fn all_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(testdata(""))
        .expect("testdata/pgn")
        .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".pgn"))
        .collect();
    names.sort();
    names.iter().map(|name| testdata(name)).collect()
}

/// Runs `adjudicate` with `args`, expecting exit status 0.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let output = run_status(args, stdin);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn run_status(args: &[&str], stdin: &[u8]) -> Output {
    let args: Vec<&str> = std::iter::once("adjudicate").chain(args.iter().copied()).collect();
    common::run(&args, stdin)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn json(output: &Output) -> Vec<Value> {
    stdout(output).lines().map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"))).collect()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("unwinnable-adjudicate-{}-{name}", std::process::id()))
}

#[test]
fn every_game_in_input_order_with_any_number_of_threads() {
    let files = all_files();
    let mut args: Vec<&str> = vec!["--format", "jsonl", "--threads", "1"];
    args.extend(files.iter().map(String::as_str));
    let one = run(&args, b"");
    args[3] = "3";
    let three = run(&args, b"");
    assert_eq!(stdout(&one), stdout(&three));
    let records = json(&one);
    // Records follow the inputs, and the games within each input.
    let mut previous: Option<(String, u64)> = None;
    for record in &records {
        let key = (record["input"].as_str().unwrap().to_string(), record["game"].as_u64().unwrap());
        if let Some(previous) = &previous {
            assert!(previous < &key, "{previous:?} then {key:?}");
        }
        previous = Some(key);
    }
    let errors = records.iter().filter(|r| r.get("error").is_some()).count();
    let games = records.len() - errors;
    // malformed.pgn: 7 errors; truncated.pgn: 1; junk.pgn: at least 1.
    assert!(errors >= 9, "{errors}");
    let summary = String::from_utf8_lossy(&one.stderr).into_owned();
    assert!(summary.contains(&format!("{games} games, {errors} errors")), "{summary}");
    // The paper's timeouts: 22 games.
    let paper = records.iter().filter(|r| r["id"].as_str().is_some_and(|id| id.starts_with("test:paper-"))).count();
    assert_eq!(paper, 22);
}

#[test]
fn a_record_per_game_with_the_facts() {
    let output = run(&["--format", "jsonl", "--threads", "1", &testdata("dead.pgn")], b"");
    let records = json(&output);
    assert_eq!(records.len(), 3);
    let first = &records[0];
    assert_eq!(first["id"], "test:dead-bishop");
    assert_eq!(first["recorded"], "1-0");
    assert_eq!(first["correct"], "1/2-1/2");
    assert_eq!(first["wrong"], true);
    assert_eq!(first["rule"], "dead-position");
    assert_eq!(first["article"], "5.2.2");
    assert_eq!(first["ply"], 1);
    assert_eq!(first["void_moves"], 4);
    assert_eq!(first["fen"], "4k3/8/8/8/8/8/3K4/5B2 b - - 0 1");
    let text = run(&["--threads", "1", &testdata("dead.pgn")], b"");
    assert!(
        stdout(&text).lines().next().unwrap().contains(
            "recorded 1-0, correct 1/2-1/2 (WRONG) by dead-position (Art. 5.2.2) at ply 1, 4 void moves after"
        )
    );
}

#[test]
fn only_wrong_and_csv() {
    let output = run(&["--format", "csv", "--only-wrong", "--threads", "2", &testdata("checkmate.pgn")], b"");
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("input,game,offset,id,recorded,correct,status,rule"));
    // Fool's mate recorded 1-0, the unfinished mate, the mate then flag.
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines.iter().skip(1).all(|l| l.contains(",wrong,checkmate,5.1.1,")));
    assert!(lines[1].contains(",test:checkmate-fools-mate,1-0,0-1,"));
}

#[test]
fn every_ply_gives_the_same_answers_here() {
    for name in ["dead.pgn", "repetition.pgn", "move-count.pgn", "timeout.pgn"] {
        let batch = run(&["--format", "jsonl", "--threads", "1", &testdata(name)], b"");
        let every = run(&["--format", "jsonl", "--threads", "1", "--every-ply", &testdata(name)], b"");
        assert_eq!(stdout(&batch), stdout(&every), "{name}");
    }
}

#[test]
fn zstd_and_standard_input() {
    let plain = std::fs::read(testdata("repetition.pgn")).unwrap();
    let compressed = zstd::encode_all(&plain[..], 3).unwrap();
    let path = temp("repetition.pgn.zst");
    std::fs::write(&path, &compressed).unwrap();
    let from_file = run(&["--format", "jsonl", "--threads", "2", path.to_str().unwrap()], b"");
    let from_plain = run(&["--format", "jsonl", "--threads", "2", &testdata("repetition.pgn")], b"");
    let from_stdin = run(&["--format", "jsonl", "--threads", "2"], &compressed);
    let _ = std::fs::remove_file(&path);
    let strip = |output: &Output| {
        json(output)
            .into_iter()
            .map(|mut r| {
                r.as_object_mut().unwrap().remove("input");
                r
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&from_file), strip(&from_plain));
    assert_eq!(strip(&from_stdin), strip(&from_plain));
    assert_eq!(json(&from_stdin)[0]["input"], "-");
    assert_eq!(strip(&from_plain).len(), 5);
}

/// Issue 11, item 9: gzip and bzip2 files are read like zstd ones (they
/// were parsed as PGN and gave "not a SAN move" errors), recognised by
/// content; an xz file is named as a format not read, and fails the run.
#[test]
fn gzip_bzip2_and_formats_not_read() {
    use std::io::Write as _;
    let plain = std::fs::read(testdata("repetition.pgn")).unwrap();
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(&plain).unwrap();
    let mut bzip2 = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bzip2.write_all(&plain).unwrap();
    let expected = run(&["--format", "csv", "--threads", "1", &testdata("repetition.pgn")], b"");
    let strip = |output: &Output| -> Vec<String> {
        stdout(output).lines().skip(1).map(|line| line.split_once(',').unwrap().1.to_string()).collect()
    };
    // Names that do not match the content: the content decides.
    for (name, bytes) in [("games.pgn", gzip.finish().unwrap()), ("games.gz", bzip2.finish().unwrap())] {
        let path = temp(name);
        std::fs::write(&path, &bytes).unwrap();
        let output = run(&["--format", "csv", "--threads", "1", path.to_str().unwrap()], b"");
        let from_stdin = run(&["--format", "csv", "--threads", "1"], &bytes);
        let _ = std::fs::remove_file(&path);
        assert_eq!(strip(&output), strip(&expected), "{name}");
        assert_eq!(strip(&from_stdin), strip(&expected), "{name} on standard input");
    }
    let xz = [0xFD, b'7', b'z', b'X', b'Z', 0x00, 0x00, 0x04, 0xE6, 0xD6, 0xB4, 0x46];
    let output = run_status(&["--format", "jsonl"], &xz);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let records = json(&output);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["error"], "xz-compressed input is not supported; decompress it first (xz -d)");
}

#[test]
fn fen_lines_and_the_timeout_flag() {
    // Paper Position 20 (White to move): with White flagged, Black cannot
    // mate: drawn; with Black flagged, White wins.
    let lines = b"8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38 0-1\nnot a game\n";
    let white = json(&run(&["--format", "jsonl", "--timeout", "white"], lines));
    assert_eq!((white[0]["rule"].as_str(), white[0]["correct"].as_str()), (Some("timeout"), Some("1/2-1/2")));
    assert_eq!(white[0]["id"], "line 1");
    assert!(white[1]["error"].as_str().unwrap().contains("FEN"));
    let black = json(&run(&["--format", "jsonl", "--timeout", "black"], lines));
    assert_eq!((black[0]["rule"].as_str(), black[0]["correct"].as_str()), (Some("timeout"), Some("1-0")));
    assert!(black[0]["helpmate"].as_str().unwrap().ends_with('#'));
    // Without the flag the recorded result stands.
    let none = json(&run(&["--format", "jsonl"], lines));
    assert_eq!(none[0]["rule"], "recorded");
}

#[test]
fn missing_inputs_and_junk_do_not_stop_the_run() {
    let output = run_status(
        &[
            "--format",
            "jsonl",
            "--threads",
            "2",
            "/nonexistent/x.pgn",
            &testdata("junk.pgn"),
            &testdata("truncated.pgn"),
        ],
        b"",
    );
    // A missing input fails the run (exit status 1), after the other inputs.
    assert_eq!(output.status.code(), Some(1));
    let records = json(&output);
    assert!(records[0]["error"].as_str().unwrap().starts_with("cannot open"));
    let ids: Vec<&str> = records.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["test:before-junk", "test:after-junk", "test:complete"]);
    let last = records.last().unwrap();
    assert_eq!(last["game"], 2);
    assert!(last["error"].as_str().unwrap().contains("ply 5 (Bc)"));
}

/// Issue 11, item 8: an input that cannot be opened, or a compressed file
/// cut short, fails the run (exit status 1: it was 0); the records of the
/// games read before the cut stay, followed by an error record.
#[test]
fn unreadable_inputs_fail_the_run() {
    let output = run_status(&["--format", "jsonl", "/nonexistent/x.pgn"], b"");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("1 inputs could not be read"), "{output:?}");
    // Games with random ids, so that the compressed text is long enough to cut.
    let mut plain = String::new();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    for game in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        plain.push_str(&format!("[Event \"{game} {state:x}{:x}\"]\n\n1. e4 e5 *\n\n", state.rotate_left(17)));
    }
    let compressed = zstd::encode_all(plain.as_bytes(), 3).unwrap();
    let path = temp("cut.pgn.zst");
    std::fs::write(&path, &compressed[..compressed.len() / 2]).unwrap();
    let output = run_status(&["--format", "jsonl", "--threads", "2", path.to_str().unwrap()], b"");
    let _ = std::fs::remove_file(&path);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let records = json(&output);
    let (last, games) = records.split_last().unwrap();
    assert!(games.len() > 100, "{}", games.len());
    assert!(games.iter().all(|r| r["rule"] == "recorded"), "the games before the cut");
    assert!(last["error"].as_str().unwrap().starts_with("read error"), "{last}");
}

/// Issue 11, item 14: `adjudicate` takes the search options of `analyze`
/// (`--mode`, `--deadline-ms`, `--memory-mb`) for its timeout analyses.
#[test]
fn search_options_apply_to_timeouts() {
    // Paper Position 20 with White flagged: a draw, proved by search; with
    // no time for the search, the result stays undecided.
    let line = b"8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38 0-1\n";
    for mode in ["full", "quick", "shortest"] {
        let records =
            json(&run(&["--format", "jsonl", "--timeout", "white", "--mode", mode, "--memory-mb", "512"], line));
        assert_eq!(records[0]["correct"], "1/2-1/2", "{mode}: {}", records[0]);
    }
    let records = json(&run(&["--format", "jsonl", "--timeout", "white", "--deadline-ms", "0"], line));
    assert_eq!((records[0]["rule"].as_str(), records[0]["correct"].as_str()), (Some("timeout"), Some("*")));
}

/// Issue 11, item 12: text from the input does not drive the terminal
/// (escape sequences in tags were copied to it) and CSV cells are not
/// spreadsheet formulas.
#[test]
fn hostile_tags_are_escaped() {
    let pgn = "[Site \"\x1b]0;owned\x07\x1b[2J\u{202e}x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
               [GameId \"=HYPERLINK(\\\"http://x\\\")\"]\n[Result \"*\"]\n\n1. d4 *\n\n\
               [GameId \"@SUM(A1)\"]\n[Result \"*\"]\n\n*\n";
    let text = stdout(&run(&["--threads", "1"], pgn.as_bytes()));
    assert!(!text.contains(['\x1b', '\x07', '\u{202e}']), "{text:?}");
    assert!(text.contains("\\x1b]0;owned\\x07\\x1b[2J\\u{202e}x: recorded 1-0"), "{text}");
    let csv = stdout(&run(&["--threads", "1", "--format", "csv"], pgn.as_bytes()));
    assert!(!csv.contains(['\x1b', '\x07', '\u{202e}']), "{csv:?}");
    let ids: Vec<&str> = csv.lines().skip(1).map(|line| line.split(',').nth(3).unwrap()).collect();
    assert_eq!(ids[1..], ["\"'=HYPERLINK(\"\"http://x\"\")\"", "'@SUM(A1)"], "{csv}");
    // JSON keeps the data as it is (escaped by JSON itself).
    let records = json(&run(&["--threads", "1", "--format", "jsonl"], pgn.as_bytes()));
    assert_eq!(records[0]["id"], "\x1b]0;owned\x07\x1b[2J\u{202e}x");
}

/// Issue 33: a game whose `[FEN]` tag holds a position no game can reach
/// is adjudicated, and its record says so; the players, date and site are
/// in the record; a game ended by mate needs no result token.
#[test]
fn unreachable_starts_players_and_a_missing_result_token() {
    let pgn = "[Event \"composed\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2026.11.26\"]\n[Site \"https://example.org/1\"]\n\
               [SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[Result \"*\"]\n\n1. e4 *\n\n\
               [Event \"no token\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n";
    let output = run(&["--format", "jsonl", "-"], pgn.as_bytes());
    let records = json(&output);
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(records[0]["unreachable"], "white has 9 pawns (a game has at most 8)");
    assert_eq!(
        (records[0]["white"].as_str(), records[0]["black"].as_str(), records[0]["date"].as_str()),
        (Some("Ann"), Some("Bob"), Some("2026.11.26"))
    );
    assert_eq!(records[0]["site"], "https://example.org/1");
    assert_eq!((records[1]["correct"].as_str(), records[1]["rule"].as_str()), (Some("1-0"), Some("checkmate")));
    assert!(records[1].get("unreachable").is_none());
}

/// `--certificate`: every timeout ruling (every game of `testdata/pgn`
/// lost on time by White) carries the winner, the verdict and its
/// certificate, and `unwinnable check` accepts each one, read from the
/// records as written; other rulings carry none, and none without the
/// flag.
#[test]
fn timeout_certificates_are_accepted_by_the_checker() {
    let files = all_files();
    let mut args: Vec<&str> = vec!["--format", "jsonl", "--timeout", "white", "--certificate"];
    args.extend(files.iter().map(String::as_str));
    let output = run(&args, b"");
    let records = json(&output);
    let certified: Vec<&Value> = records.iter().filter(|r| r.get("certificate").is_some()).collect();
    for record in &records {
        let timeout_decided = record["rule"] == "timeout" && record["correct"] != "*";
        assert_eq!(record.get("certificate").is_some(), timeout_decided, "{record}");
    }
    let verdicts: std::collections::BTreeSet<&str> = certified.iter().map(|r| r["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["unwinnable", "winnable"].into(), "both kinds of timeout ruling");
    assert!(certified.iter().all(|r| r["winner"] == "black"), "the opponent of the player out of time");
    let checked = common::run(&["check"], &output.stdout);
    assert_eq!(checked.status.code(), Some(0), "{}", String::from_utf8_lossy(&checked.stdout));
    let summary = String::from_utf8_lossy(&checked.stderr);
    assert!(summary.contains(&format!("{} accepted, 0 rejected", certified.len())), "{summary}");
    args.retain(|a| *a != "--certificate");
    assert!(json(&run(&args, b"")).iter().all(|r| r.get("certificate").is_none() && r.get("verdict").is_none()));
}
