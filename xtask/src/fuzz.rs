//! `cargo xtask fuzz`: the fuzz targets of `fuzz/src/lib.rs` on stable Rust.
//!
//! * `--smoke [--seconds N] [--seed S] [--target NAME]` runs every target
//!   (or one) for `N` seconds in total (default 30, split evenly): first the
//!   seeds drawn from `testdata/`, then random mutations of them (byte and
//!   bit flips, truncation, splicing, insertion of tokens) from a fixed
//!   seed, so a run is repeatable up to the time budget. A panic is a
//!   failure: the input is written to `fuzz/artifacts/<target>/` and shown.
//! * `--corpus [--max N]` fills `fuzz/corpus/<target>/` with at most `N`
//!   seeds per target (default 300) for `cargo +nightly fuzz run <target>`.
//!
//! No libFuzzer, no nightly: this is the CI-friendly half. Real
//! coverage-guided fuzzing is `cargo +nightly fuzz run <target>` in `fuzz/`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};

use movegen::Position;

#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod targets;

/// Options of `cargo xtask fuzz`.
#[derive(Debug)]
struct Options {
    smoke: bool,
    corpus: bool,
    seconds: f64,
    seed: u64,
    target: Option<String>,
    max: usize,
}

/// Runs `cargo xtask fuzz` with its arguments.
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let mut options = Options { smoke: false, corpus: false, seconds: 30.0, seed: 1, target: None, max: 300 };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--smoke" => options.smoke = true,
            "--corpus" => options.corpus = true,
            "--seconds" => {
                options.seconds = value()?.parse().map_err(|_| "--seconds: not a number")?;
                if !(options.seconds.is_finite() && options.seconds > 0.0) {
                    return Err("--seconds must be positive".into());
                }
            }
            "--seed" => options.seed = value()?.parse().map_err(|_| "--seed: not a number")?,
            "--max" => options.max = value()?.parse().map_err(|_| "--max: not a number")?,
            "--target" => {
                let name = value()?;
                if !targets::TARGETS.contains(&name.as_str()) {
                    return Err(format!("unknown target {name} (targets: {})", targets::TARGETS.join(", ")));
                }
                options.target = Some(name.clone());
            }
            other => return Err(format!("fuzz: unknown option {other}")),
        }
    }
    if !options.smoke && !options.corpus {
        return Err("fuzz: --smoke (run on stable) or --corpus (write fuzz/corpus/); \
                    real fuzzing: `cd fuzz && cargo +nightly fuzz run <target>`"
            .into());
    }
    let names: Vec<&str> =
        targets::TARGETS.iter().copied().filter(|name| options.target.as_deref().is_none_or(|t| t == *name)).collect();
    let mut seeds = Vec::new();
    for name in &names {
        seeds.push(seeds_for(root, name)?);
    }
    if options.corpus {
        for (name, seeds) in names.iter().zip(&seeds) {
            write_corpus(root, name, seeds, options.max)?;
        }
    }
    if options.smoke {
        let budget = Duration::from_secs_f64(options.seconds / names.len() as f64);
        let mut failures = Vec::new();
        for (name, seeds) in names.iter().zip(&seeds) {
            if let Some(crash) = smoke(name, seeds, budget, options.seed) {
                failures.push(save_crash(root, name, &crash)?);
            }
        }
        if !failures.is_empty() {
            return Err(format!("fuzz smoke: crashes saved to {}", failures.join(", ")));
        }
    }
    Ok(())
}

/// Runs one target for `budget`; the first crashing input, if any.
fn smoke(name: &str, seeds: &[Vec<u8>], budget: Duration, seed: u64) -> Option<Vec<u8>> {
    let start = Instant::now();
    let mut rng =
        Rng(seed ^ name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)));
    let (mut from_seeds, mut mutated) = (0u64, 0u64);
    let mut order: Vec<usize> = (0..seeds.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    // Half of the budget at most for the seeds themselves, the rest for mutations.
    for &i in &order {
        if start.elapsed() * 2 >= budget {
            break;
        }
        from_seeds += 1;
        if !survives(name, &seeds[i]) {
            return Some(seeds[i].clone());
        }
    }
    while start.elapsed() < budget {
        let input = mutate(&mut rng, seeds);
        mutated += 1;
        if !survives(name, &input) {
            return Some(input);
        }
    }
    println!(
        "fuzz {name}: {from_seeds} of {} seeds and {mutated} mutants in {:.1} s, no crash",
        seeds.len(),
        start.elapsed().as_secs_f64()
    );
    None
}

fn survives(name: &str, data: &[u8]) -> bool {
    catch_unwind(AssertUnwindSafe(|| targets::run(name, data))).is_ok()
}

/// Tokens spliced into inputs by [`mutate`]: the syntax of the inputs.
const TOKENS: &[&str] = &[
    "/",
    " ",
    "\n",
    "\n\n",
    "\r\n",
    "8",
    "0",
    "9",
    "-",
    "w",
    "b",
    "KQkq",
    "K",
    "q",
    "e3",
    "e6",
    "a1",
    "h8",
    "P",
    "p",
    "k",
    "Q",
    "N",
    "B",
    "R",
    "x",
    "+",
    "#",
    "=Q",
    "=",
    "O-O",
    "O-O-O",
    "0-0",
    "e2e4",
    "e7e8q",
    "e1g1",
    "[",
    "]",
    "\"",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "$1",
    "1.",
    "1...",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "[FEN \"",
    "[SetUp \"1\"]",
    "[Variant \"",
    "moves",
    "startpos",
    "\u{0}",
    "\u{ff}",
    "é",
    "65535",
    "99999999999999999999",
    // Certificates (the `certificate` target).
    "\"kind\":\"static\"",
    "\"kind\":\"closure\"",
    "\"kind\":\"forced\"",
    "\"kind\":\"repeats\"",
    "\"kind\":\"over\"",
    "\"version\":1,",
    "\"verdict\":\"unwinnable\"",
    "\"verdict\":\"winnable\"",
    "\"regions\":{\"e1\":\"ffffffffffffffff\"},",
    "0000000000000000",
    "\"frozen\":\"a2 b3\",",
    "\"never_captured\":\"c1\",",
    "\"escapes\":{\"e8\":\"d8 f8\"},",
    "\"bound\":1000000000,",
    "\"cuts\":[{\"fen\":\"",
    "\"proof\":{",
    "\"then\":{",
    "\"moves\":[\"e1g1\"],",
];

/// A random mutation of a random seed (sometimes several stacked).
fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seeds.get(rng.below(seeds.len().max(1))).cloned().unwrap_or_default();
    for _ in 0..=rng.below(4) {
        let len = data.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = rng.next() as u8;
            }
            2 => data.truncate(rng.below(len + 1)),
            3 if len > 0 => {
                let (from, to) = (rng.below(len), rng.below(len));
                let (a, b) = (from.min(to), from.max(to));
                data.drain(a..b);
            }
            4 => {
                // Splice: a prefix of this input, a suffix of another seed.
                let other = &seeds[rng.below(seeds.len().max(1)).min(seeds.len().saturating_sub(1))];
                let cut = rng.below(len + 1);
                let from = rng.below(other.len() + 1);
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
            5 | 6 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                let at = rng.below(len + 1);
                data.splice(at..at, token.iter().copied());
            }
            7 if len > 0 => {
                // Duplicate a chunk (long lines, repeated games).
                let (from, to) = (rng.below(len), rng.below(len));
                let chunk = data[from.min(to)..from.max(to)].to_vec();
                for _ in 0..=rng.below(8) {
                    data.extend_from_slice(&chunk);
                }
            }
            _ => {
                let at = rng.below(len + 1);
                let bytes: Vec<u8> = (0..=rng.below(8)).map(|_| rng.next() as u8).collect();
                data.splice(at..at, bytes);
            }
        }
    }
    data.truncate(1 << 16);
    data
}

/// The seeds of one target, from `testdata/`.
fn seeds_for(root: &Path, name: &str) -> Result<Vec<Vec<u8>>, String> {
    let read = |file: &str| {
        let path = root.join("testdata").join(file);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let data_lines = |text: &str| -> Vec<String> {
        text.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()).map(str::to_string).collect()
    };
    let dev: Vec<String> = data_lines(&read("dev-positions.txt")?).iter().map(|l| l[2..].trim().to_string()).collect();
    let paper: Vec<String> = data_lines(&read("paper-positions.tsv")?)
        .iter()
        .filter_map(|l| l.split('\t').nth(2).map(str::to_string))
        .collect();
    let order = data_lines(&read("movegen-order.tsv")?);
    let perft: Vec<String> = data_lines(&read("perft-1000.tsv")?).iter().map(|l| field(l, 0)).collect();
    // Chess960 positions (X-FEN with file letters where needed), and each
    // also as Shredder-FEN's rook files for the parsers.
    let chess960: Vec<String> =
        data_lines(&read("chess960-perft.tsv")?).iter().map(|l| field(l, 0)).step_by(4).collect();
    let seeds: Vec<String> = match name {
        "fen" => {
            let mut fens: Vec<String> = Vec::new();
            fens.extend(paper.iter().cloned());
            fens.extend(order.iter().step_by(20).map(|l| field(l, 0)));
            fens.extend(perft.iter().step_by(10).cloned());
            fens.extend(dev.iter().step_by(12).cloned());
            fens.extend(chess960.iter().cloned());
            fens.push("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1".to_string());
            fens.push("4k3/8/8/8/8/8/8/1R2K1R1 w KQ - 0 1".to_string());
            fens.extend(
                [
                    "",
                    "8/8/8/8/8/8/8/8 w - - 0 1",
                    "4k3/8/8/8/8/8/8/4K3 w - -",
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                    "4k3/8/8/8/8/8/8/4K3 w - - 65535 65535",
                    "4k3/8/8/8/8/8/8/4K3 w - - 99999999 0",
                    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                ]
                .map(str::to_string),
            );
            fens
        }
        "uci_san" => order
            .iter()
            .step_by(15)
            .map(|line| field(line, 0))
            .chain(chess960.iter().cloned())
            .filter_map(|fen| {
                let pos = Position::from_fen_any(&fen).ok()?;
                let moves = pos.legal_moves();
                let mut text = fen.clone();
                for (i, m) in moves.iter().enumerate().step_by(3) {
                    text.push('\n');
                    text.push_str(&if i % 2 == 0 { pos.to_uci(*m) } else { pos.san(*m) });
                }
                Some(text)
            })
            .collect(),
        "pgn" => {
            let dir = root.join("testdata/pgn");
            let mut names: Vec<_> = std::fs::read_dir(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|path| path.extension().is_some_and(|x| x == "pgn"))
                .collect();
            names.sort();
            let mut texts: Vec<Vec<u8>> = Vec::new();
            for path in names {
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                // Each game on its own too (games are separated by a blank line before a tag).
                let text = String::from_utf8_lossy(&bytes);
                texts.extend(text.split("\n\n[").map(|game| format!("[{}", game.trim_start_matches('[')).into_bytes()));
                texts.push(bytes);
            }
            texts.push(
                b"startpos moves f2f3 e7e5 g2g4 d8h4 0-1\n8/8/8/8/8/5k2/6q1/7K w - - 0 1 moves h1g2 1-0\n".to_vec(),
            );
            return Ok(texts);
        }
        "analyze" => {
            // Two bytes choose the dev position, one the configuration;
            // the edits follow.
            let mut rng = Rng(7);
            return Ok((0..dev.len() as u16)
                .step_by(6)
                .map(|i| {
                    let mut bytes = i.to_le_bytes().to_vec();
                    if i % 4 == 2 {
                        bytes.push(rng.next() as u8);
                        bytes.extend((0..2 * (1 + rng.below(4))).map(|_| rng.next() as u8));
                    }
                    bytes
                })
                .collect());
        }
        "certificate" => certificate_seeds(&dev),
        other => return Err(format!("no seeds for target {other}")),
    };
    Ok(seeds.into_iter().map(String::into_bytes).collect())
}

/// Records with certificates, as `analyze --certificate` writes them, for
/// one dev position in twenty and both colours (a small node budget: an
/// undetermined verdict has no certificate), and a few by hand (closures,
/// cuts, a forced cycle, kinds that must be refused).
fn certificate_seeds(dev: &[String]) -> Vec<String> {
    let mut config = search::Config::default();
    config.limits.nodes = 20_000;
    config.limits.memory_mb = 8;
    let mut analyzer = search::Analyzer::new(config);
    let mut records = Vec::new();
    for fen in dev.iter().step_by(20) {
        let Ok(pos) = Position::from_fen(fen) else { continue };
        for winner in [movegen::Color::White, movegen::Color::Black] {
            let verdict = analyzer.analyze(&pos, winner).verdict;
            let Some(certificate) = pipeline::certificate::certificate(&pos, winner, &verdict) else { continue };
            let record = serde_json::json!({"line": records.len() + 1, "fen": fen, "winner": winner.name(),
                "verdict": verdict.name(), "certificate": certificate});
            records.push(record.to_string());
        }
    }
    let cycle = "8/6p1/1p3pP1/1P3Ppk/1Pp3p1/KpP3P1/1P6/8 w - -";
    let after = "8/6p1/1p3pP1/1P3Ppk/KPp3p1/1pP3P1/1P6/8 b - -";
    records.extend([
        format!(r#"{{"fen":"{cycle}","winner":"white","verdict":"unwinnable","certificate":{{"version":1,"kind":"closure","bound":4,"cuts":[]}}}}"#),
        format!(r#"{{"fen":"{cycle}","winner":"black","verdict":"unwinnable","certificate":{{"version":1,"kind":"closure","bound":2,"cuts":[{{"fen":"{after}","proof":{{"kind":"forced","moves":["h5h6","a4a3","h6h5","a3a4"],"then":{{"kind":"repeats"}}}}}}]}}}}"#),
        r#"{"fen":"7k/8/5K2/8/8/8/8/6Q1 w - -","winner":"white","verdict":"unwinnable","certificate":{"version":1,"kind":"closure","bound":20000,"cuts":[]}}"#.to_string(),
        r#"{"fen":"8/8/4k3/8/2q5/8/1B6/4K3 w - - 0 1","winner":"white","verdict":"unwinnable","certificate":{"version":1,"kind":"material","rule":"lemma-6","pieces":"b2"}}"#.to_string(),
    ]);
    records
}

fn field(line: &str, index: usize) -> String {
    line.split('\t').nth(index).unwrap_or_default().to_string()
}

/// Writes at most `max` seeds of `name` to `fuzz/corpus/<name>/`.
fn write_corpus(root: &Path, name: &str, seeds: &[Vec<u8>], max: usize) -> Result<(), String> {
    let dir = root.join("fuzz/corpus").join(name);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let step = seeds.len().div_ceil(max.max(1)).max(1);
    let mut written = 0;
    for seed in seeds.iter().step_by(step) {
        let path = dir.join(format!("seed-{:016x}", fnv(seed)));
        std::fs::write(&path, seed).map_err(|e| format!("{}: {e}", path.display()))?;
        written += 1;
    }
    println!("wrote {written} seeds to {}", dir.display());
    Ok(())
}

fn save_crash(root: &Path, name: &str, input: &[u8]) -> Result<String, String> {
    let dir = root.join("fuzz/artifacts").join(name);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("smoke-crash-{:016x}", fnv(input)));
    std::fs::write(&path, input).map_err(|e| format!("{}: {e}", path.display()))?;
    let shown: String = String::from_utf8_lossy(input).chars().take(600).collect();
    eprintln!("fuzz {name}: CRASH on {} bytes: {shown:?}\n  saved to {}", input.len(), path.display());
    Ok(path.display().to_string())
}

fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// SplitMix64: a fixed, dependency-free generator.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform enough in `0..n` (`0` when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    #[test]
    fn every_target_has_seeds_that_pass() {
        for name in targets::TARGETS {
            let seeds = seeds_for(&root(), name).unwrap();
            assert!(seeds.len() >= 50, "{name}: {} seeds", seeds.len());
            for seed in seeds.iter().take(3) {
                assert!(survives(name, seed), "{name}");
            }
        }
        assert!(!targets::run("no-such-target", b""));
    }

    #[test]
    fn mutations_are_repeatable_from_the_seed() {
        let seeds = seeds_for(&root(), "fen").unwrap();
        let (mut a, mut b) = (Rng(42), Rng(42));
        let first: Vec<Vec<u8>> = (0..200).map(|_| mutate(&mut a, &seeds)).collect();
        let second: Vec<Vec<u8>> = (0..200).map(|_| mutate(&mut b, &seeds)).collect();
        assert_eq!(first, second);
        assert!(first.iter().filter(|m| !seeds.contains(m)).count() > 150, "mutants differ from the seeds");
        assert!(first.iter().all(|m| m.len() <= 1 << 16));
    }
}
