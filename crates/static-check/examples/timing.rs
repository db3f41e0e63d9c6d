//! Times the static analysis over the performance corpus (a development aid).
use movegen::{Color, Position};
fn main() {
    let data = std::fs::read_to_string("testdata/lichess-30k-positions.txt").unwrap();
    let positions: Vec<Position> =
        data.lines().filter_map(|l| l.split_whitespace().take(6).collect::<Vec<_>>().join(" ").parse().ok()).collect();
    for pos in positions.iter().take(2000) {
        for c in Color::ALL {
            static_check::is_unwinnable(pos, c);
        }
    }
    let t = std::time::Instant::now();
    let mut proved = 0;
    let mut worst = (std::time::Duration::ZERO, String::new());
    for pos in &positions {
        for c in Color::ALL {
            let t0 = std::time::Instant::now();
            if static_check::is_unwinnable(pos, c) {
                proved += 1;
            }
            let e = t0.elapsed();
            if e > worst.0 {
                worst = (e, pos.to_fen());
            }
        }
    }
    let e = t.elapsed();
    let n = positions.len() * 2;
    println!(
        "{n} queries, {proved} proved, {:.2} us/query, worst {:?} {}",
        e.as_secs_f64() * 1e6 / n as f64,
        worst.0,
        worst.1
    );
}
