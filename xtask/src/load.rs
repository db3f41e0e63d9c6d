//! `cargo xtask load`: the HTTP service under load, on loopback, bounded in
//! count and time, against the command line on the same queries.
//!
//! 1. The queries: the positions of `testdata/lichess-30k-positions.txt`
//!    (winner: the side not to move), `--limit` of them.
//! 2. The command line: `unwinnable analyze --threads W` over all of them;
//!    its wall time and its verdicts (the expected answers).
//! 3. Runs against `unwinnable serve --workers W`, each `--seconds` long at
//!    most (and at most one pass over the queries), by client threads with
//!    a keep-alive connection each, every answer checked against the
//!    command line's (same FEN and winner; a decided verdict that differs
//!    is a wrong answer):
//!    * `below saturation`: W clients (one request per worker at a time),
//!      `GET /api/analyze`: latency p50/p99;
//!    * `throughput`: 2W clients, `GET /api/analyze`;
//!    * `batches`: W clients, `POST /api/analyze` with 100 queries each;
//!    * `overload`: 8 (W + queue) clients with a queue of 2, going round
//!      the queries for the whole run: 503s must be
//!      fast, every request answered (a result or a 503), and `/healthz`,
//!      probed every 20 ms, must stay quick; the server's peak memory
//!      (VmHWM) against its budget.
//!
//! Fails on any wrong answer, transport error, or unanswered request.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use testkit::client::{Client, encode};
use xtask::stats::{Summary, human};

struct Options {
    workers: usize,
    seconds: f64,
    limit: usize,
    memory_mb: u64,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options { workers: 2, seconds: 10.0, limit: 30_000, memory_mb: 1024 };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--workers" => options.workers = value()?.parse().map_err(|e| format!("--workers: {e}"))?,
            "--seconds" => options.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--limit" => options.limit = value()?.parse().map_err(|e| format!("--limit: {e}"))?,
            "--memory-mb" => options.memory_mb = value()?.parse().map_err(|e| format!("--memory-mb: {e}"))?,
            "--smoke" => {
                options.seconds = 1.0;
                options.limit = 1000;
            }
            other => return Err(format!("load: unknown option {other:?}")),
        }
    }
    if options.workers == 0 || options.limit == 0 || options.seconds <= 0.0 {
        return Err("load: --workers, --limit and --seconds must be positive".into());
    }
    Ok(options)
}

/// A query and the command line's verdict for it.
#[derive(Clone, Debug)]
struct Query {
    fen: String,
    expected: String,
}

/// The binary, built in release mode.
fn binary(root: &Path) -> Result<PathBuf, String> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "--quiet", "-p", "unwinnable"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !status.success() {
        return Err("cargo build -p unwinnable failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    Ok(target.join("release").join("unwinnable"))
}

/// The command line over `fens`: its verdicts and wall time.
fn command_line(binary: &Path, fens: &[String], workers: usize) -> Result<(Vec<String>, Duration), String> {
    let mut child = Command::new(binary)
        .args(["analyze", "--format", "jsonl", "-q", "--threads", &workers.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let input = fens.join("\n") + "\n";
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let start = Instant::now();
    let writer = thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let elapsed = start.elapsed();
    let _ = writer.join();
    let verdicts: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
            record["verdict"].as_str().unwrap_or("error").to_string()
        })
        .collect();
    if verdicts.len() != fens.len() {
        return Err(format!("the command answered {} of {} queries", verdicts.len(), fens.len()));
    }
    Ok((verdicts, elapsed))
}

/// A server started for one run.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(binary: &Path, args: &[String]) -> Result<Server, String> {
        let mut child = Command::new(binary)
            .args(["serve", "--addr", "127.0.0.1:0", "--quiet"])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| e.to_string())?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stderr), &mut line).map_err(|e| e.to_string())?;
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|addr| addr.parse().ok())
            .ok_or_else(|| format!("no address in {line:?}"))?;
        Ok(Server { child, addr })
    }

    /// The peak resident memory so far, in MiB.
    fn peak_mb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        Some(line.split_ascii_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one run saw.
#[derive(Default)]
struct Tally {
    /// Latencies of the answered requests (200).
    answered: Vec<Duration>,
    /// Latencies of the 503s.
    busy: Vec<Duration>,
    /// Analyses answered.
    analyses: usize,
    /// Other statuses and transport errors.
    errors: Vec<String>,
    /// Decided verdicts that differ from the command line's.
    wrong: Vec<String>,
    /// Undetermined on one side only (a limit hit by one of them).
    undetermined: usize,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.answered.extend(other.answered);
        self.busy.extend(other.busy);
        self.analyses += other.analyses;
        self.errors.extend(other.errors);
        self.wrong.extend(other.wrong);
        self.undetermined += other.undetermined;
    }

    fn check(&mut self, query: &Query, record: &serde_json::Value) {
        let verdict = record["verdict"].as_str().unwrap_or("error");
        self.analyses += 1;
        if record["fen"].as_str() != Some(query.fen.as_str()) {
            self.wrong.push(format!("{}: answered for {}", query.fen, record["fen"]));
        } else if verdict == "undetermined" || query.expected == "undetermined" {
            self.undetermined += usize::from(verdict != query.expected);
        } else if verdict != query.expected {
            self.wrong.push(format!("{}: {verdict}, the command line says {}", query.fen, query.expected));
        }
    }
}

/// `clients` threads for at most `seconds`, each taking the next query
/// (one pass at most, or round and round if `cycle`) and sending it alone
/// (`batch` 0: GET) or in batches.
fn run(
    addr: SocketAddr,
    queries: &Arc<Vec<Query>>,
    clients: usize,
    seconds: f64,
    batch: usize,
    cycle: bool,
) -> (Tally, Duration) {
    let next = Arc::new(AtomicUsize::new(0));
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let handles: Vec<_> = (0..clients)
        .map(|_| {
            let (queries, next) = (Arc::clone(queries), Arc::clone(&next));
            thread::spawn(move || {
                let mut client = Client::new(addr, Duration::from_secs(60));
                let mut tally = Tally::default();
                let take = batch.max(1);
                while Instant::now() < deadline {
                    let mut first = next.fetch_add(take, Ordering::Relaxed);
                    if cycle {
                        first %= queries.len();
                    } else if first >= queries.len() {
                        break;
                    }
                    let chunk = &queries[first..(first + take).min(queries.len())];
                    let sent = Instant::now();
                    let response = if batch == 0 {
                        client.get(&format!("/api/analyze?fen={}", encode(&chunk[0].fen)))
                    } else {
                        let body: String = chunk.iter().map(|q| format!("{}\n", q.fen)).collect();
                        client.post("/api/analyze", "text/plain", body.as_bytes())
                    };
                    let elapsed = sent.elapsed();
                    match response {
                        Ok(response) if response.status == 200 => {
                            tally.answered.push(elapsed);
                            let text = response.text();
                            let records: Vec<serde_json::Value> =
                                text.lines().map(|l| serde_json::from_str(l).unwrap_or_default()).collect();
                            if records.len() != chunk.len() {
                                tally.errors.push(format!("{} records for {} queries", records.len(), chunk.len()));
                            }
                            for (query, record) in chunk.iter().zip(&records) {
                                tally.check(query, record);
                            }
                        }
                        Ok(response) if response.status == 503 => tally.busy.push(elapsed),
                        Ok(response) => tally.errors.push(format!("status {}: {}", response.status, response.text())),
                        Err(e) => tally.errors.push(format!("transport: {e}")),
                    }
                }
                tally
            })
        })
        .collect();
    let mut tally = Tally::default();
    for handle in handles {
        tally.merge(handle.join().unwrap_or_default());
    }
    (tally, start.elapsed())
}

/// Probes `/healthz` every 20 ms until `stop`: the latencies, and failures.
fn probe(addr: SocketAddr, stop: Arc<AtomicBool>) -> thread::JoinHandle<(Vec<Duration>, usize)> {
    thread::spawn(move || {
        let mut client = Client::new(addr, Duration::from_secs(10));
        let (mut times, mut failures) = (Vec::new(), 0);
        while !stop.load(Ordering::Relaxed) {
            let start = Instant::now();
            match client.get("/healthz") {
                Ok(response) if response.status == 200 => times.push(start.elapsed()),
                _ => failures += 1,
            }
            thread::sleep(Duration::from_millis(20));
        }
        (times, failures)
    })
}

fn line(name: &str, tally: &Tally, elapsed: Duration, cli_rate: f64) {
    let latency = Summary::of(&tally.answered);
    let rate = tally.analyses as f64 / elapsed.as_secs_f64();
    println!(
        "{name:<18} {:>7} requests {:>7} analyses in {:>6.2} s: {:>8.0} analyses/s ({:>5.1}% of the command line); \
         latency p50 {} p99 {} max {}; 503: {}; errors {}; wrong {}; undetermined on one side {}",
        tally.answered.len() + tally.busy.len(),
        tally.analyses,
        elapsed.as_secs_f64(),
        rate,
        100.0 * rate / cli_rate,
        human(latency.median),
        human(latency.p99),
        human(latency.worst),
        tally.busy.len(),
        tally.errors.len(),
        tally.wrong.len(),
        tally.undetermined,
    );
}

/// Runs the load test.
pub fn run_load(root: &Path, args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let binary = binary(root)?;
    let corpus = std::fs::read_to_string(root.join("testdata/lichess-30k-positions.txt"))
        .map_err(|e| format!("testdata/lichess-30k-positions.txt: {e}"))?;
    // `FEN ID` lines: the six FEN fields.
    let fens: Vec<String> = corpus
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_ascii_whitespace().take(6).collect::<Vec<_>>().join(" "))
        .take(options.limit)
        .collect();
    let w = options.workers;
    println!("load: {} corpus queries, {w} workers, runs of {} s at most, on loopback", fens.len(), options.seconds);
    let (verdicts, cli_time) = command_line(&binary, &fens, w)?;
    let cli_rate = fens.len() as f64 / cli_time.as_secs_f64();
    println!(
        "{:<18} {:>7} queries in {:>6.2} s: {cli_rate:>8.0} analyses/s (unwinnable analyze --threads {w})",
        "command line",
        fens.len(),
        cli_time.as_secs_f64()
    );
    let queries: Arc<Vec<Query>> =
        Arc::new(fens.into_iter().zip(verdicts).map(|(fen, expected)| Query { fen, expected }).collect());
    // The same limits as the command line's defaults, so that the answers
    // can be compared.
    let base = |queue: usize| -> Vec<String> {
        vec![
            "--workers".into(),
            w.to_string(),
            "--queue".into(),
            queue.to_string(),
            "--max-nodes".into(),
            "50000000".into(),
            "--max-deadline-ms".into(),
            "600000".into(),
            "--memory-mb".into(),
            options.memory_mb.to_string(),
        ]
    };
    let mut failures = Vec::new();
    let mut report = |name: &str, tally: &Tally| {
        for problem in tally.errors.iter().chain(&tally.wrong).take(5) {
            eprintln!("  {name}: {problem}");
        }
        if !tally.errors.is_empty() || !tally.wrong.is_empty() {
            failures.push(format!("{name}: {} errors, {} wrong answers", tally.errors.len(), tally.wrong.len()));
        }
    };
    for (name, clients, batch) in [("below saturation", w, 0), ("throughput", 2 * w, 0), ("batches of 100", w, 100)] {
        let server = Server::start(&binary, &base(4 * w))?;
        let (tally, elapsed) = run(server.addr, &queries, clients, options.seconds, batch, false);
        line(name, &tally, elapsed, cli_rate);
        report(name, &tally);
    }
    // Overload: many more clients than workers plus queue.
    let queue = 2;
    let clients = 8 * (w + queue);
    let server = Server::start(&binary, &base(queue))?;
    let stop = Arc::new(AtomicBool::new(false));
    let prober = probe(server.addr, Arc::clone(&stop));
    let (tally, elapsed) = run(server.addr, &queries, clients, options.seconds, 0, true);
    stop.store(true, Ordering::Relaxed);
    let (health, health_failures) = prober.join().unwrap_or_default();
    line(&format!("overload ({clients} clients)"), &tally, elapsed, cli_rate);
    let busy = Summary::of(&tally.busy);
    let health = Summary::of(&health);
    println!(
        "{:<18} 503s: {} (p50 {}, p99 {}, max {}); /healthz: {} probes, p50 {}, p99 {}, max {}, {} failed; \
         server peak memory {} MiB (budget {} MiB)",
        "",
        busy.count,
        human(busy.median),
        human(busy.p99),
        human(busy.worst),
        health.count,
        human(health.median),
        human(health.p99),
        human(health.worst),
        health_failures,
        server.peak_mb().map_or("?".to_string(), |mb| mb.to_string()),
        options.memory_mb
    );
    report("overload", &tally);
    if health_failures > 0 {
        failures.push(format!("overload: {health_failures} /healthz probes failed"));
    }
    if server.peak_mb().is_some_and(|mb| mb > options.memory_mb) {
        failures.push("overload: the server used more memory than its budget".into());
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}
