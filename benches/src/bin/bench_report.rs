//! Summarises the criterion results of the `movegen` benchmark: for each
//! group and position, the nodes per second of every library (from the
//! median point estimate of `<target>/criterion/<group>/<library>/<position>/new/estimates.json`)
//! and the ratio of ours to the best other library, against the project's
//! targets.
//!
//! Usage: `cargo run -p benches --bin bench_report [-- TARGET_DIR]`; the
//! target directory defaults to `$CARGO_TARGET_DIR`, else the workspace's
//! `target/`.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use benches::{ENDGAME_NAME, GROUP_BULK, GROUP_ENDGAME, GROUP_FULL, LIBRARIES, STANDARD_POSITIONS, endgame_nodes};

/// A benchmark: group, parameter (position) name, leaf nodes per iteration,
/// and the minimum ratio ours / best other the project targets.
struct Row {
    group: &'static str,
    position: &'static str,
    nodes: u64,
    target: f64,
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

fn main() -> ExitCode {
    let criterion = target_dir().join("criterion");
    let mut rows = Vec::new();
    for p in &STANDARD_POSITIONS {
        rows.push(Row { group: GROUP_BULK, position: p.name, nodes: p.bulk_nodes, target: 1.0 });
    }
    for p in &STANDARD_POSITIONS {
        rows.push(Row { group: GROUP_FULL, position: p.name, nodes: p.full_nodes, target: 1.2 });
    }
    rows.push(Row { group: GROUP_ENDGAME, position: ENDGAME_NAME, nodes: endgame_nodes(), target: 1.2 });

    println!("Leaf nodes per second (millions), median of criterion samples, from {}", criterion.display());
    println!();
    print!("| group | position |");
    for library in LIBRARIES {
        print!(" {library} |");
    }
    println!(" ours / best other | target | met |");
    println!("|---|---|{}---|---|---|", "---:|".repeat(LIBRARIES.len()));

    let mut missing = false;
    let mut failed = 0;
    for row in &rows {
        let rates: Vec<Option<f64>> = LIBRARIES
            .iter()
            .map(|library| match median_ns(&criterion, row.group, library, row.position) {
                Ok(ns) => Some(row.nodes as f64 / (ns * 1e-9)),
                Err(e) => {
                    eprintln!("missing: {e}");
                    missing = true;
                    None
                }
            })
            .collect();
        print!("| {} | {} |", row.group, row.position);
        for rate in &rates {
            match rate {
                Some(rate) => print!(" {:.1} |", rate / 1e6),
                None => print!(" - |"),
            }
        }
        let ours = rates[0];
        let best_other =
            rates[1..].iter().flatten().copied().fold(None, |best: Option<f64>, r| Some(best.map_or(r, |b| b.max(r))));
        match (ours, best_other) {
            (Some(ours), Some(best)) => {
                let ratio = ours / best;
                let met = ratio >= row.target;
                if !met {
                    failed += 1;
                }
                println!(" {ratio:.2} | {:.1} | {} |", row.target, if met { "yes" } else { "NO" });
            }
            _ => println!(" - | {:.1} | - |", row.target),
        }
    }
    println!();
    println!("{failed} of {} benchmarks below target", rows.len());
    if missing { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
