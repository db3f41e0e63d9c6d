use movegen::{Color, Position};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos: Position = args[1].parse().unwrap();
    let winner = Color::from_name(&args[2]).unwrap();
    let mut config = search::Config::default();
    config.limits.nodes = args.get(3).map_or(300_000, |n| n.parse().unwrap());
    config.static_pruning = std::env::var("STATIC").ok().and_then(|v| v.parse().ok());
    if std::env::var("MODE").is_ok_and(|m| m == "shortest") {
        config.mode = search::Mode::Shortest;
    }
    let mut analyzer = search::Analyzer::new(config);
    let t = std::time::Instant::now();
    let a = analyzer.analyze(&pos, winner);
    println!(
        "{} nodes {} in {:?} ({:.1} Mn/s)",
        a.verdict.name(),
        a.nodes,
        t.elapsed(),
        a.nodes as f64 / t.elapsed().as_secs_f64() / 1e6
    );
    if let Some(h) = a.verdict.helpmate() {
        println!("{} plies: {}", h.len(), pos.san_line(h));
    }
}
