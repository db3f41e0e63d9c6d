//! `cargo xtask perft --chess960`: our Chess960 move generation against an
//! independent one, python-chess in its Chess960 mode (`chess.Board(fen,
//! chess960=True)`, run by `scripts/perft960.py` in a virtual environment
//! under `target/`), and the published counts of the Chess Programming
//! Wiki (`testdata/chess960-perft.tsv`).
//!
//! Compared: perft counts at every depth, and the root's legal moves one by
//! one (as UCI in the Chess960 form, king takes rook). Positions: the 960
//! start positions to depth 4 and 1,000 random Chess960 positions with
//! castling rights ([`movegen::random_chess960_positions`], seed
//! [`RANDOM_SEED`]) to depth 3; `--sample` takes every 20th start position
//! to depth 3 and the first 100 random positions to depth 3 (what CI runs).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use movegen::{CHESS960_POSITIONS, Position, chess960_start, random_chess960_positions};

/// The python-chess release compared with (the one every comparison pins).
pub use testkit::python::PYTHON_CHESS;

/// The seed of the random Chess960 positions.
pub const RANDOM_SEED: u64 = 960;

/// How much to compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every start position to depth 4, 1,000 random positions to depth 3,
    /// the wiki's positions to depth 5.
    Full,
    /// A sample: 48 start positions and 100 random positions to depth 3,
    /// the wiki's positions to depth 4.
    Sample,
}

/// One position to compare, with the depth.
#[derive(Clone, Debug)]
pub struct Case {
    /// What it is (for messages).
    pub name: String,
    /// The position.
    pub pos: Position,
    /// Perft depth.
    pub depth: u32,
}

/// The start positions and random positions of a scope.
pub fn cases(scope: Scope) -> (Vec<Case>, Vec<Case>) {
    let (step, start_depth, random_count) = match scope {
        Scope::Full => (1, 4, 1000),
        Scope::Sample => (20, 3, 100),
    };
    let starts = (0..CHESS960_POSITIONS)
        .step_by(step)
        .filter_map(|n| {
            let pos = Position::from_setup(chess960_start(n)?).ok()?;
            Some(Case { name: format!("start position {n}"), pos, depth: start_depth })
        })
        .collect();
    let random = random_chess960_positions(RANDOM_SEED, random_count)
        .into_iter()
        .enumerate()
        .map(|(i, pos)| Case { name: format!("random position {i}"), pos, depth: 3 })
        .collect();
    (starts, random)
}

/// A virtual environment with python-chess under `target`, made once.
pub fn python_chess(target: &Path) -> Result<PathBuf, String> {
    testkit::python::venv_with(&target.join("python-chess-960"), PYTHON_CHESS)
}

/// python-chess's answer for one case: counts at depths 1..=depth, and
/// the root's legal moves (sorted UCI).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Perft at depths 1, 2, ...
    pub counts: Vec<u64>,
    /// The legal moves, sorted.
    pub moves: Vec<String>,
}

/// Our answer for `case`.
pub fn ours(case: &Case) -> Answer {
    let counts = (1..=case.depth).map(|depth| case.pos.perft(depth)).collect();
    let mut moves: Vec<String> = case.pos.legal_moves().iter().map(|&m| case.pos.to_uci(m)).collect();
    moves.sort();
    Answer { counts, moves }
}

/// python-chess's answers for `cases`, in order (`jobs` processes).
pub fn theirs(python: &Path, script: &Path, cases: &[Case], jobs: usize) -> Result<Vec<Answer>, String> {
    let mut input = String::new();
    for case in cases {
        input.push_str(&format!("{} {}\n", case.depth, case.pos.to_fen()));
    }
    let mut child = Command::new(python)
        .arg(script)
        .args(["--jobs", &jobs.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    writer.join().map_err(|_| "writer panicked")?.map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("{}: {}", script.display(), String::from_utf8_lossy(&output.stderr)));
    }
    let text = String::from_utf8(output.stdout).map_err(|e| e.to_string())?;
    let answers: Vec<Answer> = text
        .lines()
        .map(|line| {
            let (counts, moves) = line.split_once('\t').unwrap_or((line, ""));
            Answer {
                counts: counts.split_whitespace().filter_map(|n| n.parse().ok()).collect(),
                moves: moves.split_whitespace().map(str::to_string).collect(),
            }
        })
        .collect();
    if answers.len() != cases.len() {
        return Err(format!("python-chess answered {} of {} positions", answers.len(), cases.len()));
    }
    Ok(answers)
}

/// The disagreements between our answers and python-chess's, one line
/// each, and the leaf nodes compared.
pub fn compare(cases: &[Case], theirs: &[Answer]) -> (Vec<String>, u64) {
    let mut disagreements = Vec::new();
    let mut nodes = 0;
    for (case, their) in cases.iter().zip(theirs) {
        let our = ours(case);
        nodes += our.counts.iter().sum::<u64>();
        for (depth, (a, b)) in (1..).zip(our.counts.iter().zip(&their.counts)) {
            if a != b {
                disagreements.push(format!(
                    "{} ({}): perft {depth}: ours {a}, python-chess {b}",
                    case.name,
                    case.pos.to_fen()
                ));
            }
        }
        if our.counts.len() != their.counts.len() {
            disagreements.push(format!("{}: python-chess gave {} depths", case.name, their.counts.len()));
        }
        if our.moves != their.moves {
            let only_ours: Vec<&String> = our.moves.iter().filter(|m| !their.moves.contains(m)).collect();
            let only_theirs: Vec<&String> = their.moves.iter().filter(|m| !our.moves.contains(m)).collect();
            disagreements.push(format!(
                "{} ({}): moves only ours {only_ours:?}, only python-chess's {only_theirs:?}",
                case.name,
                case.pos.to_fen()
            ));
        }
    }
    (disagreements, nodes)
}

/// The wiki's counts (`testdata/chess960-perft.tsv`) to `depth`:
/// disagreements and the leaf nodes counted.
pub fn wiki(data: &str, depth: usize) -> Result<(Vec<String>, u64, usize), String> {
    let mut disagreements = Vec::new();
    let (mut nodes, mut positions) = (0, 0);
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut fields = line.split('\t');
        let fen = fields.next().unwrap_or_default();
        let pos = Position::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        for (d, expected) in (1..=depth as u32).zip(fields) {
            let expected: u64 = expected.trim().parse().map_err(|_| format!("{fen}: bad count {expected:?}"))?;
            let got = pos.perft(d);
            nodes += got;
            if got != expected {
                disagreements.push(format!("{fen}: perft {d}: ours {got}, published {expected}"));
            }
        }
        positions += 1;
    }
    Ok((disagreements, nodes, positions))
}

/// Runs the comparison of `scope`: prints the figures, fails on any
/// disagreement.
pub fn run(root: &Path, scope: Scope, jobs: usize) -> Result<(), String> {
    let started = Instant::now();
    let python = python_chess(&root.join("target"))?;
    let script = root.join("scripts/perft960.py");
    let (starts, random) = cases(scope);
    let mut failures = Vec::new();
    for (what, cases) in [("start positions", &starts), ("random positions with castling rights", &random)] {
        let set_started = Instant::now();
        let answers = theirs(&python, &script, cases, jobs)?;
        let (disagreements, nodes) = compare(cases, &answers);
        let depth = cases.first().map_or(0, |c| c.depth);
        let castles: usize = cases.iter().map(|c| c.pos.legal_moves().iter().filter(|m| m.is_castle()).count()).sum();
        println!(
            "chess960 {what}: {} to depth {depth}, {nodes} nodes, {castles} castlings at the roots: {} disagreements \
             with python-chess ({:.1} s)",
            cases.len(),
            disagreements.len(),
            set_started.elapsed().as_secs_f64()
        );
        failures.extend(disagreements);
    }
    let depth = if scope == Scope::Full { 5 } else { 4 };
    let data = std::fs::read_to_string(root.join("testdata/chess960-perft.tsv")).map_err(|e| e.to_string())?;
    let (disagreements, nodes, positions) = wiki(&data, depth)?;
    println!(
        "chess960 wiki positions: {positions} to depth {depth}, {nodes} nodes: {} disagreements with the published counts",
        disagreements.len()
    );
    failures.extend(disagreements);
    println!("chess960 perft done in {:.1} s", started.elapsed().as_secs_f64());
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} disagreements:\n{}", failures.len(), failures.join("\n")))
    }
}
