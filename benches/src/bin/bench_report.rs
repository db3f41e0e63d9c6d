//! Summarises the criterion results of the `movegen` benchmark: for each
//! group and position, the nodes per second of every library (from the
//! median point estimate of `<target>/criterion/<group>/<library>/<position>/new/estimates.json`),
//! the ratio of ours to each other library and to the best of them, against
//! the project's targets; then, per group, the geometric mean of each ratio
//! over the group's positions.
//!
//! Usage: `cargo run -p benches --bin bench_report [-- TARGET_DIR]`; the
//! target directory defaults to `$CARGO_TARGET_DIR`, else the workspace's
//! `target/`. Exits non-zero when a benchmark's results are missing.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use benches::{
    CHESS960_LIBRARIES, CHESS960_PERFT_POSITIONS, ENDGAME_NAME, GROUP_BULK, GROUP_CHESS960_BULK, GROUP_CHESS960_FULL,
    GROUP_ENDGAME, GROUP_FULL, LIBRARIES, STANDARD_POSITIONS, endgame_nodes,
};

/// A benchmark: group, parameter (position) name, leaf nodes per iteration,
/// the libraries run on it, and the minimum ratio ours / best other the
/// project targets (none for the Chess960 groups, measured without one).
struct Row {
    group: &'static str,
    position: &'static str,
    nodes: u64,
    libraries: &'static [&'static str],
    target: Option<f64>,
}

/// Reads the median point estimate (nanoseconds per iteration) of one benchmark.
fn median_ns(criterion: &Path, group: &str, library: &str, position: &str) -> Result<f64, String> {
    let path = criterion.join(group).join(library).join(position).join("new/estimates.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    json["median"]["point_estimate"].as_f64().ok_or_else(|| format!("{}: no median.point_estimate", path.display()))
}

fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::args_os().nth(1) {
        return dir.into();
    }
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return dir.into();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target")
}

/// The benchmarks, in the benchmark's order.
fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for p in &STANDARD_POSITIONS {
        rows.push(Row {
            group: GROUP_BULK,
            position: p.name,
            nodes: p.bulk_nodes,
            libraries: &LIBRARIES,
            target: Some(1.0),
        });
    }
    for p in &STANDARD_POSITIONS {
        rows.push(Row {
            group: GROUP_FULL,
            position: p.name,
            nodes: p.full_nodes,
            libraries: &LIBRARIES,
            target: Some(1.2),
        });
    }
    rows.push(Row {
        group: GROUP_ENDGAME,
        position: ENDGAME_NAME,
        nodes: endgame_nodes(),
        libraries: &LIBRARIES,
        target: Some(1.2),
    });
    for p in &CHESS960_PERFT_POSITIONS {
        rows.push(Row {
            group: GROUP_CHESS960_BULK,
            position: p.name,
            nodes: p.bulk_nodes,
            libraries: &CHESS960_LIBRARIES,
            target: None,
        });
    }
    for p in &CHESS960_PERFT_POSITIONS {
        rows.push(Row {
            group: GROUP_CHESS960_FULL,
            position: p.name,
            nodes: p.full_nodes,
            libraries: &CHESS960_LIBRARIES,
            target: None,
        });
    }
    rows
}

/// Formats a ratio, `-` when either side is missing.
fn ratio_cell(ratio: Option<f64>) -> String {
    ratio.map_or_else(|| "-".to_owned(), |r| format!("{r:.3}"))
}

fn main() -> ExitCode {
    let criterion = target_dir().join("criterion");
    let peers = &LIBRARIES[1..];
    println!("Leaf nodes per second (millions), median of criterion samples, from {}", criterion.display());
    println!("(n/a: not run on that group; -: no results)");
    println!();
    print!("| group | position |");
    for library in LIBRARIES {
        print!(" {library} |");
    }
    for peer in peers {
        print!(" ours / {peer} |");
    }
    println!(" ours / best other | target | met |");
    println!("|---|---|{}---:|---|---|", "---:|".repeat(LIBRARIES.len() + peers.len()));

    let mut missing = false;
    let mut failed = 0;
    let mut measured = 0;
    // Per group, per peer: the log-ratios of its positions (`None`: the
    // peer is not run on the group).
    let mut log_ratios: Vec<(&str, Vec<Option<Vec<f64>>>)> = Vec::new();
    for row in rows() {
        let rates: Vec<Option<f64>> = LIBRARIES
            .iter()
            .map(|library| {
                if !row.libraries.contains(library) {
                    return None;
                }
                match median_ns(&criterion, row.group, library, row.position) {
                    Ok(ns) => Some(row.nodes as f64 / (ns * 1e-9)),
                    Err(e) => {
                        eprintln!("missing: {e}");
                        missing = true;
                        None
                    }
                }
            })
            .collect();
        print!("| {} | {} |", row.group, row.position);
        for (library, rate) in LIBRARIES.iter().zip(&rates) {
            match rate {
                Some(rate) => print!(" {:.1} |", rate / 1e6),
                None if row.libraries.contains(library) => print!(" - |"),
                None => print!(" n/a |"),
            }
        }
        let ours = rates[0];
        let ratios: Vec<Option<f64>> = rates[1..].iter().map(|peer| Some(ours? / (*peer)?)).collect();
        if log_ratios.last().is_none_or(|(group, _)| *group != row.group) {
            let runs = peers.iter().map(|peer| row.libraries.contains(peer).then(Vec::new)).collect();
            log_ratios.push((row.group, runs));
        }
        let group_logs = &mut log_ratios.last_mut().expect("pushed above").1;
        for ((ratio, logs), library) in ratios.iter().zip(group_logs.iter_mut()).zip(peers) {
            print!(" {} |", if row.libraries.contains(library) { ratio_cell(*ratio) } else { "n/a".to_owned() });
            if let (Some(ratio), Some(logs)) = (ratio, logs) {
                logs.push(ratio.ln());
            }
        }
        let best_other =
            rates[1..].iter().flatten().copied().fold(None, |best: Option<f64>, r| Some(best.map_or(r, |b| b.max(r))));
        let ratio = ours.zip(best_other).map(|(ours, best)| ours / best);
        print!(" {} |", ratio_cell(ratio));
        match (ratio, row.target) {
            (Some(ratio), Some(target)) => {
                measured += 1;
                let met = ratio >= target;
                if !met {
                    failed += 1;
                }
                println!(" {target:.1} | {} |", if met { "yes" } else { "NO" });
            }
            (None, Some(target)) => println!(" {target:.1} | - |"),
            (_, None) => println!(" none | |"),
        }
    }
    println!();
    println!("{failed} of {measured} measured benchmarks with a target below it");
    println!();
    println!("Per group, the geometric mean over its positions of ours / each peer:");
    println!();
    print!("| group |");
    for peer in peers {
        print!(" ours / {peer} |");
    }
    println!();
    println!("|---|{}", "---:|".repeat(peers.len()));
    for (group, logs) in &log_ratios {
        print!("| {group} |");
        for logs in logs {
            let cell = match logs {
                None => "n/a".to_owned(),
                Some(logs) if logs.is_empty() => "-".to_owned(),
                Some(logs) => format!("{:.3}", (logs.iter().sum::<f64>() / logs.len() as f64).exp()),
            };
            print!(" {cell} |");
        }
        println!();
    }
    if missing { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
