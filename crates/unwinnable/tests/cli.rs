//! The `unwinnable` binary end to end: JSON Lines answers for paper
//! positions (helpmates replayed with `search::replay`), garbage input,
//! `--threads`, the demo, `dead`, exit statuses, and streaming.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use movegen::{Color, Position};
use serde_json::Value;

mod common;

use common::{BIN, run};

const POSITION_1: &str = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54";
const POSITION_3: &str = "8/8/1p6/1B2k3/5pK1/8/8/8 b - -";
/// White to move: White can mate; Black (the default winner, as the side
/// not to move) has only its king, so it cannot.
const KQ_VS_K: &str = "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1";

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output").lines().map(str::to_string).collect()
}

fn json_lines(output: &Output) -> Vec<Value> {
    stdout_lines(output)
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON: {line}: {e}")))
        .collect()
}

fn replay_helpmate(record: &Value) {
    let fen = record["fen"].as_str().expect("fen");
    let pos: Position = fen.parse().expect("valid FEN");
    let winner = Color::from_name(record["winner"].as_str().expect("winner")).expect("colour");
    let mut moves = Vec::new();
    let mut p = pos;
    for uci in record["helpmate"].as_array().expect("helpmate") {
        let m = p.parse_uci(uci.as_str().expect("UCI string")).expect("legal UCI move");
        moves.push(m);
        p = p.play(m);
    }
    search::replay(&pos, winner, &moves).expect("a helpmate by the winner");
    assert_eq!(record["helpmate_san"].as_str(), Some(pos.san_line(&moves).as_str()));
}

#[test]
fn jsonl_paper_positions() {
    let input = format!("{POSITION_1}\n{POSITION_3}\n");
    let output = run(&["analyze", "--format", "jsonl", "--winner", "both"], input.as_bytes());
    assert!(output.status.success(), "{output:?}");
    let records = json_lines(&output);
    assert_eq!(records.len(), 4);
    for record in &records[..2] {
        assert_eq!(record["fen"], POSITION_1);
        assert_eq!(record["verdict"], "unwinnable", "{record}");
        assert!(record["reason"].as_str().is_some_and(|r| r.contains("none can be a mating square")), "{record}");
        assert!(record.get("helpmate").is_none());
        assert!(record["nodes"].is_u64() && record["micros"].is_u64());
    }
    assert_eq!((&records[0]["winner"], &records[1]["winner"]), (&"white".into(), &"black".into()));
    for record in &records[2..] {
        assert_eq!(record["fen"], POSITION_3);
        assert_eq!(record["verdict"], "winnable", "{record}");
        replay_helpmate(record);
    }
    // The default winner is the side not to move: White in Position 3.
    let output = run(&["analyze", "--format", "jsonl"], format!("{POSITION_3}\n").as_bytes());
    let records = json_lines(&output);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["winner"], "white");
    assert_eq!(records[0]["line"], 1);
    replay_helpmate(&records[0]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("1 analyses (1 winnable, 0 unwinnable, 0 undetermined), 0 rejected lines"), "{stderr}");
    assert!(stderr.contains("average") && stderr.contains("maximum"), "{stderr}");
}

#[test]
fn fen_argument_and_text_format() {
    // Quoted or not, with the winner after it.
    let output = run(&["analyze", "8/8/1p6/1B2k3/5pK1/8/8/8", "b", "-", "-", "black", "-q"], b"");
    assert!(output.status.success(), "{output:?}");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with(&format!("{POSITION_3}  black: winnable: 1...")), "{}", lines[0]);
    assert!(lines[0].contains('#'), "{}", lines[0]);
    assert!(output.stderr.is_empty(), "quiet: {}", String::from_utf8_lossy(&output.stderr));
    // Without a subcommand, the same.
    let output = run(&[KQ_VS_K, "--winner", "white", "--quiet"], b"");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with(&format!("{KQ_VS_K}  white: winnable: 1. ")), "{}", lines[0]);
    let output = run(&[KQ_VS_K, "--quiet"], b"");
    assert!(stdout_lines(&output)[0].contains("black: unwinnable: "), "{output:?}");
}

/// Junk without line breaks.
fn junk(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match (state >> 24) as u8 {
                b'\n' => 0xff,
                byte => byte,
            }
        })
        .collect()
}

#[test]
fn garbage_lines() {
    // Each line with its expected verdict, `None` for an error line.
    let huge = vec![b'7'; 1 << 20];
    let lines: Vec<(Vec<u8>, Option<&str>)> = vec![
        (POSITION_3.into(), Some("winnable")),
        (junk(200, 1), None),
        (b"8/1p3k2/pPp3p1/P1Pp1pPp".to_vec(), None),
        (format!("{POSITION_1} purple").into(), None),
        (format!("{POSITION_1} white # game-id-42").into(), Some("unwinnable")),
        (format!("{POSITION_1} white game-id-42").into(), None),
        (huge, None),
        (b"8/8/8/8/8/8/8/8 w - - 0 1".to_vec(), None),
        (format!("{KQ_VS_K} black").into(), Some("unwinnable")),
        (b"\xff\xfe 8/8/8 w".to_vec(), None),
        (b"4k3/8/8/8/8/8/8/4KQ2 w KQ - 0 1".to_vec(), None),
        (format!("{KQ_VS_K} White").into(), Some("winnable")),
        (junk(5000, 2), None),
        (b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 #whiteish".to_vec(), Some("winnable")),
        (b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 whiteish".to_vec(), None),
        (b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bleu".to_vec(), None),
        (junk(100, 3), None),
        (format!("{POSITION_3}\r").into(), Some("winnable")),
    ];
    let mut input = Vec::new();
    for (index, (line, _)) in lines.iter().enumerate() {
        input.extend_from_slice(line);
        input.push(b'\n');
        if index == 13 {
            // Blank and comment lines produce nothing.
            input.extend_from_slice(b"\n   \n# a comment\n");
        }
    }
    let expected: Vec<Option<&str>> = lines.iter().map(|(_, outcome)| *outcome).collect();
    let queries = expected.len();
    let output = run(&["analyze", "--format", "jsonl"], &input);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let records = json_lines(&output);
    assert_eq!(records.len(), queries, "one line per query:\n{}", String::from_utf8_lossy(&output.stdout));
    let mut previous_line = 0;
    for (record, outcome) in records.iter().zip(&expected) {
        let line = record["line"].as_u64().expect("line number");
        assert!(line > previous_line, "in input order");
        previous_line = line;
        match outcome {
            Some(verdict) => {
                assert_eq!(record["verdict"], *verdict, "{record}");
                if *verdict == "winnable" {
                    replay_helpmate(record);
                }
            }
            None => {
                assert!(record["error"].is_string() && record["input"].is_string(), "{record}");
                assert!(record["input"].as_str().is_some_and(|s| s.len() < 1000), "shortened");
            }
        }
    }
    let errors = expected.iter().filter(|e| e.is_none()).count();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("{errors} rejected lines")), "{stderr}");
    // Text format: the same number of lines, errors as `line n: error: ...`.
    let output = run(&["analyze", "--quiet"], &input);
    assert_eq!(output.status.code(), Some(0));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), queries);
    for (line, outcome) in lines.iter().zip(&expected) {
        assert_eq!(line.starts_with("line ") && line.contains(": error: "), outcome.is_none(), "{line}");
    }
}

fn without_micros(output: &Output) -> Vec<String> {
    json_lines(output)
        .into_iter()
        .map(|mut record| {
            if let Some(object) = record.as_object_mut() {
                object.remove("micros");
            }
            record.to_string()
        })
        .collect()
}

#[test]
fn threads_give_the_same_output() {
    let mut input = String::new();
    // `FEN game-id` lines: the id as a comment.
    for line in include_str!("../../../testdata/lichess-30k-positions.txt").lines().take(150) {
        let (fen, id) = line.rsplit_once(' ').expect("FEN and id");
        input.push_str(&format!("{fen} # {id}\n"));
    }
    for fen in [POSITION_1, POSITION_3, KQ_VS_K, "not a fen", "8/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 b - - 13 63"] {
        input.push_str(fen);
        input.push('\n');
    }
    let args =
        |threads| ["analyze", "--format", "jsonl", "--winner", "both", "--nodes", "300000", "--threads", threads];
    let one = run(&args("1"), input.as_bytes());
    let two = run(&args("2"), input.as_bytes());
    assert!(one.status.success() && two.status.success());
    let (one, two) = (without_micros(&one), without_micros(&two));
    assert_eq!(one.len(), 2 * 154 + 1);
    assert_eq!(one, two);
}

#[test]
fn demo_table() {
    let output = run(&["demo", "--nodes", "300000"], b"");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(text.contains("id   label white"), "{text}");
    let row = |id: &str| text.lines().find(|l| l.split_whitespace().next() == Some(id)).map(str::to_string);
    let one = row("1").expect("row of Position 1");
    assert!(one.contains("--    unwinnable    unwinnable    yes"), "{one}");
    let three = row("3").expect("row of Position 3");
    assert!(three.contains("WB    winnable      winnable      yes"), "{three}");
    assert!(row("25").is_some(), "{text}");
    assert!(text.contains("positions agree with their label"), "{text}");
}

/// Without arguments and with no input piped in (standard input the null
/// device, as CI runners and IDEs give, or closed), the command shows the
/// demo instead of waiting for queries that cannot come; an empty pipe is
/// input, analysed as such (nothing).
#[test]
fn no_arguments_without_piped_input_shows_the_demo() {
    let is_demo = |output: &Output| {
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).contains("positions agree with their label")
    };
    let null = Command::new(BIN)
        .args(["--nodes", "300000"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("run the binary");
    assert!(is_demo(&null), "{null:?}");
    // `<&-` closes descriptor 0 before the binary starts.
    let closed = Command::new("sh")
        .args(["-c", "exec \"$0\" --nodes 300000 <&-", BIN])
        .stderr(Stdio::null())
        .output()
        .expect("run the binary through sh");
    assert!(is_demo(&closed), "{closed:?}");
    let empty = run(&["--nodes", "300000"], b"");
    assert!(!is_demo(&empty) && empty.stdout.is_empty(), "{empty:?}");
}

#[test]
fn no_arguments_with_piped_stdin_analyses_it() {
    let output = run(&[], format!("{POSITION_3}\n{POSITION_1} black\n").as_bytes());
    assert!(output.status.success(), "{output:?}");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(&format!("{POSITION_3}  white: winnable: ")), "{}", lines[0]);
    assert!(lines[1].starts_with(&format!("{POSITION_1}  black: unwinnable: ")), "{}", lines[1]);
}

#[test]
fn dead_command() {
    let output = run(&["dead", POSITION_1], b"");
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(text.contains("dead: yes"), "{text}");
    // The static explanations, with the drawing of each king's region.
    assert!(text.contains("black king region") && text.contains("white king region"), "{text}");
    assert!(text.contains("  a b c d e f g h   a b c d e f g h"), "{text}");
    let output = run(&["dead", "8/8/1p6/1B2k3/5pK1/8/8/8", "b", "-", "-"], b"");
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(text.contains("dead: no, both sides can still checkmate"), "{text}");
    assert!(text.contains("white can checkmate: 1..."), "{text}");
    let output = run(&["dead", "4k3/8/8/8/8/8/8/4K3 w - -"], b"");
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("dead: yes"));
}

#[test]
fn exit_statuses() {
    for args in [
        &["dead", "not a fen"][..],
        &["dead"],
        &["analyze", "8/8/8 w"],
        &["analyze", POSITION_3, "--threads", "0"],
        &["analyze", "--format", "xml"],
        &["analyze", "--nodes", "-5"],
        &["analyze", POSITION_3, "--winner", "red"],
        &["--no-such-option"],
        &["frobnicate", "--now"],
    ] {
        let output = run(args, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}");
    }
    let output = run(&["--help"], b"");
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("Exit status"));
    let output = run(&["analyze"], b"");
    assert_eq!(output.status.code(), Some(0), "empty input");
    assert!(output.stdout.is_empty());
}

/// Results come out while the input is still open: the input is streamed,
/// not read whole first, and the output is flushed.
#[test]
fn streaming() {
    let mut child = Command::new(BIN)
        .args(["analyze", "--format", "jsonl", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the binary");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("output line")).is_err() {
                break;
            }
        }
    });
    for round in 0..3 {
        writeln!(stdin, "{POSITION_1}\n{KQ_VS_K} white").expect("write a query");
        stdin.flush().expect("flush");
        for _ in 0..2 {
            let line = rx.recv_timeout(Duration::from_secs(60)).expect("an answer before the input ends");
            assert!(line.contains("\"verdict\""), "round {round}: {line}");
        }
    }
    drop(stdin);
    assert!(child.wait().expect("exit").success());
    reader.join().expect("reader");
}

/// More of what a user can type: a FEN cut at every field, the side not to
/// move in check (the wrong colour to move), an upper-case side, NUL bytes,
/// overflowing clocks, a line one byte over the limit, and valid queries
/// written with tabs or one clock interleaved. One error line per bad query,
/// the right verdict for each good one, exit status 0.
#[test]
fn more_garbage_lines() {
    let board = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8";
    let mut over_limit = KQ_VS_K.as_bytes().to_vec();
    over_limit.resize(pipeline::MAX_LINE + 1, b' ');
    let lines: Vec<(Vec<u8>, Option<&str>)> = vec![
        (board[..1].into(), None),
        (board[..20].into(), None),
        (board.into(), None),
        (format!("{board} b").into(), None),
        (format!("{board} b -").into(), None),
        (format!("{board} b - -").into(), Some("unwinnable")),
        (format!("{board} b - - 0").into(), None),
        (format!("{board} b - - 0 1").into(), Some("unwinnable")),
        (b"4k3/8/8/8/8/8/8/4RK2 w - - 0 1".to_vec(), None),
        (b"4k3/8/8/8/8/8/8/4KQ2 W - - 0 1".to_vec(), None),
        (format!("{KQ_VS_K} white").into(), Some("winnable")),
        (b"\0\0\0\0".to_vec(), None),
        (b"4k3/8/8/8/8/8/8/4KQ2 w - - 99999999999 1".to_vec(), None),
        (b"4k3/8/8/8/8/8/8/4KQ2\tw\t-\t-".to_vec(), Some("unwinnable")),
        (over_limit, None),
        (format!("{KQ_VS_K} blanc").into(), None),
        (POSITION_3.into(), Some("winnable")),
    ];
    let mut input = Vec::new();
    for (line, _) in &lines {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    let output = run(&["analyze", "--format", "jsonl"], &input);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let records = json_lines(&output);
    assert_eq!(records.len(), lines.len(), "one line per query:\n{}", String::from_utf8_lossy(&output.stdout));
    for (index, (record, (line, outcome))) in records.iter().zip(&lines).enumerate() {
        assert_eq!(record["line"].as_u64(), Some(index as u64 + 1), "{record}");
        match outcome {
            Some(verdict) => {
                assert_eq!(record["verdict"], *verdict, "{}: {record}", String::from_utf8_lossy(line));
                if *verdict == "winnable" {
                    replay_helpmate(record);
                }
            }
            None => assert!(record["error"].is_string(), "{}: {record}", String::from_utf8_lossy(line)),
        }
    }
}

/// Issue 11, items 3, 4, 5 and 13: nothing is answered that was not asked.
/// A token in the winner's place that is not a colour is an error (it was
/// skipped and the default colour analysed); every FEN on the command line
/// is analysed (the second was dropped); malformed move counters and
/// 5-field FENs are rejected (they were read as 4 fields); a byte order
/// mark does not spoil line 1; a misspelt subcommand is named as such.
#[test]
fn only_the_questions_asked() {
    // Black to move, White has a queen: the default winner is White.
    let fen = "8/8/8/8/8/8/8/KQk5 b - - 0 1";
    for token in ["black;", "Black,", "\"white\"", "blanc", "QzZqHm8A"] {
        let output = run(&["analyze", "--format", "jsonl", &format!("{fen} {token}")], b"");
        assert_eq!(output.status.code(), Some(2), "{token}: {output:?}");
        assert!(output.stdout.is_empty(), "{token}: answered {}", String::from_utf8_lossy(&output.stdout));
        assert!(String::from_utf8_lossy(&output.stderr).contains("unknown winner"), "{token}: {output:?}");
        let output = run(&["analyze", "--format", "jsonl"], format!("{fen} {token}\n").as_bytes());
        let records = json_lines(&output);
        assert_eq!(records.len(), 1, "{token}");
        assert!(records[0]["error"].as_str().is_some_and(|e| e.starts_with("unknown winner")), "{}", records[0]);
    }
    // Both positions of the command line, in order; the second names its winner.
    let output = run(&["analyze", "--format", "jsonl", fen, KQ_VS_K, "white", POSITION_3], b"");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let records = json_lines(&output);
    let got: Vec<(&str, &str)> =
        records.iter().map(|r| (r["fen"].as_str().unwrap(), r["winner"].as_str().unwrap())).collect();
    assert_eq!(got, [(fen, "white"), (KQ_VS_K, "white"), (POSITION_3, "white")]);
    let output = run(&["dead", fen, KQ_VS_K], b"");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    // Move counters.
    for counters in ["-5 1", "+3 1", "1.5 1", "0 -5", "0 0", "0 65536", "5", "0 1 5"] {
        let line = format!("4k3/8/8/8/8/8/8/4KQ2 w - - {counters}");
        let output = run(&["analyze", &line], b"");
        assert_eq!(output.status.code(), Some(2), "{line}: {output:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("invalid FEN"), "{line}: {output:?}");
        let records = json_lines(&run(&["analyze", "--format", "jsonl"], format!("{line}\n").as_bytes()));
        assert!(records[0]["error"].as_str().is_some_and(|e| e.starts_with("invalid FEN")), "{}", records[0]);
    }
    // A byte order mark before line 1.
    let records = json_lines(&run(&["analyze", "--format", "jsonl"], format!("\u{feff}{KQ_VS_K} white\n").as_bytes()));
    assert_eq!((records[0]["line"].as_u64(), records[0]["verdict"].as_str()), (Some(1), Some("winnable")));
    // A misspelt subcommand.
    let output = run(&["analyse", fen], b"");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unrecognized subcommand 'analyse'") && stderr.contains("'analyze'"), "{stderr}");
}

/// Issue 11, item 14: one output writer for every subcommand (CSV for
/// `analyze` too, errors in their row), one set of search options.
#[test]
fn csv_output_of_analyze() {
    let input = format!("{KQ_VS_K} white\nnot a fen\n");
    let output = run(&["analyze", "--format", "csv", "--threads", "2", "--memory-mb", "256"], input.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "line,fen,winner,verdict,helpmate,helpmate_san,reason,cause,nodes,micros,unreachable");
    assert!(lines[1].starts_with(&format!("1,{KQ_VS_K},white,winnable,")), "{}", lines[1]);
    assert!(lines[2].starts_with("2,not a fen,,error,,,\"invalid FEN: "), "{}", lines[2]);
}

/// Issue 11, item 12: nothing from the input reaches the terminal raw.
#[test]
fn escape_sequences_in_queries_are_escaped() {
    let input = b"\x1b]0;owned\x07 w - -\n8/8/8/8/8/8/8/KQk5 b - - 0 1 \x1b[2J\n\xe2\x80\xae\n";
    for format in ["text", "csv"] {
        let output = run(&["analyze", "--format", format], input);
        let text = String::from_utf8(output.stdout).expect("UTF-8");
        assert_eq!(text.lines().count(), if format == "csv" { 4 } else { 3 }, "{text}");
        assert!(!text.contains(['\x1b', '\x07', '\u{202e}']), "{format}: {text:?}");
    }
}

/// Issue 33: a position no game can reach is answered with the reason, in
/// every format; `--strict` rejects it (an error record for an input line,
/// a usage error for an argument); `dead` notes it too.
#[test]
fn unreachable_positions_are_answered_with_a_note() {
    const NINE_PAWNS: &str = "rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq -";
    const REASON: &str = "white has 9 pawns (a game has at most 8)";
    let output =
        run(&["analyze", "--format", "jsonl", "-q", "--nodes", "100000"], format!("{NINE_PAWNS}\n").as_bytes());
    let records = json_lines(&output);
    assert_eq!(records[0]["unreachable"], REASON, "{records:?}");
    let output = run(&["analyze", "--format", "csv", "-q", "--nodes", "100000", NINE_PAWNS], b"");
    let lines = stdout_lines(&output);
    assert!(lines[0].ends_with(",micros,unreachable"), "{lines:?}");
    assert!(lines[1].ends_with(REASON), "{lines:?}");
    let output = run(&["analyze", "-q", "--nodes", "100000", NINE_PAWNS], b"");
    let lines = stdout_lines(&output);
    assert_eq!(lines[1], format!("  note: no game can reach this position: {REASON}"), "{lines:?}");
    // Strict: an error record in place of the line, the run goes on.
    let input = format!("{NINE_PAWNS}\n{POSITION_3} white\n");
    let output = run(&["analyze", "--strict", "--format", "jsonl", "-q"], input.as_bytes());
    let records = json_lines(&output);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["error"], format!("unreachable position (rejected in strict mode): {REASON}"));
    assert_eq!(records[1]["verdict"], "winnable");
    let output = run(&["analyze", "--strict", NINE_PAWNS], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unreachable position"));
    // A reachable position is not flagged.
    let output = run(&["analyze", "--format", "jsonl", "-q", POSITION_3], b"");
    assert!(json_lines(&output)[0].get("unreachable").is_none());
    let output = run(&["dead", "--nodes", "100000", "R3k2R/8/8/8/8/8/8/4K3 b - -"], b"");
    assert!(
        stdout_lines(&output)[1].starts_with("note: no game can reach this position: no last move could have given"),
        "{:?}",
        stdout_lines(&output)
    );
}

/// Issue 33: a `# comment` in a command-line argument, as `--help` shows
/// it; a Latin-1 byte in a comment of an input line.
#[test]
fn comments_in_arguments_and_other_encodings_in_comments() {
    let output = run(&["analyze", "--format", "jsonl", "-q", &format!("{POSITION_3} white # game 42")], b"");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(json_lines(&output)[0]["verdict"], "winnable");
    let mut input = format!("{POSITION_3} white # Jos").into_bytes();
    input.extend_from_slice(b"\xe9 Ra\xfal\n");
    let output = run(&["analyze", "--format", "jsonl", "-q"], &input);
    let records = json_lines(&output);
    assert_eq!(records[0]["verdict"], "winnable", "{records:?}");
}

/// `--certificate`: a field of the JSON Lines records (a usage error with
/// another format), absent without the flag, accepted by `unwinnable
/// check`, which exits with 1 when a record is rejected; `dead
/// --certificate` writes records `check` reads through the text around
/// them.
#[test]
fn certificates_and_check() {
    let input = format!("{POSITION_1} both\n{POSITION_3} both\n");
    let output = run(&["analyze", "--certificate", "--quiet"], input.as_bytes());
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("--format jsonl"));
    let plain = run(&["analyze", "--format", "jsonl", "--quiet"], input.as_bytes());
    assert!(json_lines(&plain).iter().all(|record| record.get("certificate").is_none()));
    let output = run(&["analyze", "--format", "jsonl", "--certificate", "--quiet"], input.as_bytes());
    let records = json_lines(&output);
    assert_eq!(records.len(), 4);
    assert_eq!(records[0]["certificate"]["kind"], "static", "{}", records[0]);
    assert_eq!(records[2]["certificate"]["kind"], "helpmate", "{}", records[2]);
    let checked = run(&["check"], &output.stdout);
    assert!(checked.status.success(), "{checked:?}");
    assert_eq!(
        stdout_lines(&checked),
        ["line 1 white: accepted", "line 1 black: accepted", "line 2 white: accepted", "line 2 black: accepted"]
    );
    // The winner changed in a record: its certificate no longer proves it.
    let text = String::from_utf8(output.stdout).unwrap().replacen(r#""winner":"white""#, r#""winner":"black""#, 1);
    let checked = run(&["check", "-"], text.as_bytes());
    assert_eq!(checked.status.code(), Some(1), "{checked:?}");
    assert!(stdout_lines(&checked)[0].starts_with("line 1 black: rejected: "), "{checked:?}");
    let dead = run(&["dead", "--certificate", POSITION_1], b"");
    let checked = run(&["check"], &dead.stdout);
    assert_eq!(stdout_lines(&checked), ["line 1 white: accepted", "line 1 black: accepted"], "{dead:?}");
    let missing = run(&["check", "/nonexistent/records.jsonl"], b"");
    assert_eq!(missing.status.code(), Some(1), "{missing:?}");
}

/// Chess960 positions: a Shredder-FEN, or an X-FEN only Chess960 can read
/// (king b1 with the right `Q`), is read as Chess960 without a flag; the
/// helpmate writes castling as the king taking its rook; `unwinnable check`
/// accepts the certificate; `--chess960` writes a standard position's
/// castling that way too. (The mates in one are python-chess's: `O-O-O#`,
/// `b1a1`, the only one in the first position; `Rf1#` and `O-O#` in the
/// second.)
#[test]
fn chess960_positions() {
    for fen in ["2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", "2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1"] {
        let args = ["analyze", "--format", "jsonl", "--winner", "white", "--mode", "shortest", "--certificate"];
        let output = run(&args, format!("{fen}\n").as_bytes());
        assert!(output.status.success(), "{output:?}");
        let records = json_lines(&output);
        assert_eq!(records[0]["verdict"], "winnable", "{}", records[0]);
        assert_eq!(records[0]["helpmate"], serde_json::json!(["b1a1"]));
        assert_eq!(records[0]["helpmate_san"], "1. O-O-O#");
        let checked = run(&["check"], &output.stdout);
        assert!(
            checked.status.success() && String::from_utf8_lossy(&checked.stdout).contains("accepted"),
            "{checked:?}"
        );
    }
    let fen = "4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1";
    let args = ["analyze", "--format", "jsonl", "--winner", "white", "--mode", "shortest"];
    let standard = &json_lines(&run(&args, format!("{fen}\n").as_bytes()))[0];
    let chess960 = &json_lines(&run(&[&args[..], &["--chess960"]].concat(), format!("{fen}\n").as_bytes()))[0];
    assert_eq!(standard["helpmate_san"], chess960["helpmate_san"]);
    match standard["helpmate_san"].as_str() {
        Some("1. O-O#") => {
            assert_eq!(standard["helpmate"], serde_json::json!(["e1g1"]));
            assert_eq!(chess960["helpmate"], serde_json::json!(["e1h1"]));
        }
        Some("1. Rf1#") => assert_eq!(chess960["helpmate"], serde_json::json!(["h1f1"])),
        other => panic!("not a mate in one: {other:?}"),
    }
    // An invalid castling field stays an error, naming the standard reading's problem.
    let output = run(&["analyze", "--format", "jsonl"], b"4k3/8/8/8/8/8/8/4K3 w K - 0 1\n");
    assert!(stdout_lines(&output)[0].contains("error"), "{output:?}");
}
