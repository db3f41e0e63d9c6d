//! Times the stages of adjudicating a PGN file on one thread: cutting,
//! parsing (with SAN resolution), adjudication.
//!
//! `cargo run --release -p adjudicate --example throughput -- FILE [--every-ply]`

use std::io::BufReader;
use std::time::{Duration, Instant};

use adjudicate::pgn::{Splitter, parse_game};
use adjudicate::{Adjudicator, Options, Rule};

/// CPU time of this thread (the machine may be shared: wall-clock time
/// would count other processes' time slices), from `/proc/thread-self/schedstat`;
/// wall-clock time where that is not available.
fn cpu_time(wall: Instant) -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .map_or_else(|| wall.elapsed(), Duration::from_nanos)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().ok_or("usage: throughput FILE [--every-ply]")?;
    let every_ply = args.iter().any(|a| a == "--every-ply");
    let file = std::fs::File::open(path)?;
    let input = adjudicate::input::open(BufReader::new(file))?;
    let mut splitter = Splitter::new(input.reader);
    let origin = Instant::now();
    let clock = || cpu_time(origin);
    let t = clock();
    let mut raws = Vec::new();
    while let Some(raw) = splitter.next_game()? {
        raws.push(raw);
    }
    let cut = clock() - t;
    let t = clock();
    let games: Vec<_> = raws.iter().map(parse_game).collect();
    let parse = clock() - t;
    let mut games = games;
    if std::env::var_os("NO_TIMEOUTS").is_some() {
        for game in games.iter_mut().flatten() {
            game.game.termination = adjudicate::Termination::Other;
        }
    }
    let errors = games.iter().filter(|g| g.is_err()).count();
    let mut adjudicator = Adjudicator::new(Options { every_ply, ..Options::batch() });
    let mut by_rule = std::collections::BTreeMap::<Rule, (u64, u64, f64)>::new();
    let t = clock();
    let mut wrong = 0;
    for game in games.iter().flatten() {
        let ruling = adjudicator.adjudicate(&game.game);
        let entry = by_rule.entry(ruling.rule).or_default();
        entry.0 += 1;
        if ruling.is_wrong() {
            entry.1 += 1;
            wrong += 1;
        }
    }
    let adjudicate = clock() - t;
    let n = raws.len() as f64;
    println!("{} games, {errors} errors, {wrong} wrong, {} bytes", raws.len(), splitter.offset());
    println!(
        "cut        {:>8.0} games/s  ({:.1} MB/s)",
        n / cut.as_secs_f64(),
        splitter.offset() as f64 / 1e6 / cut.as_secs_f64()
    );
    println!("parse      {:>8.0} games/s", n / parse.as_secs_f64());
    println!("adjudicate {:>8.0} games/s", n / adjudicate.as_secs_f64());
    println!("total      {:>8.0} games/s", n / (cut + parse + adjudicate).as_secs_f64());
    for (rule, (count, wrong, _)) in by_rule {
        println!("  {rule:20} {count:>7} games, {wrong:>6} wrong");
    }
    if std::env::var_os("NO_PARTS").is_some() {
        return Ok(());
    }
    // The parts of the adjudication, separately.
    let finals: Vec<_> = games.iter().flatten().map(|g| *g.game.positions().last().unwrap()).collect();
    let timeouts: Vec<_> = games
        .iter()
        .flatten()
        .filter(|g| g.game.termination != adjudicate::Termination::Other)
        .map(|g| *g.game.positions().last().unwrap())
        .collect();
    let mut quick = search::Analyzer::new(search::Config { mode: search::Mode::Quick, ..Default::default() });
    let t = clock();
    let dead = finals.iter().filter(|p| adjudicate::rules::dead::dead(&mut quick, p).is_some()).count();
    let q = clock() - t;
    println!(
        "quick dead check of final positions: {dead} dead, {:.1} us each",
        q.as_secs_f64() * 1e6 / finals.len() as f64
    );
    let t = clock();
    let both = finals
        .iter()
        .filter(|p| {
            static_check::insufficient_material(p, movegen::Color::White).is_some()
                && static_check::insufficient_material(p, movegen::Color::Black).is_some()
        })
        .count();
    let m = clock() - t;
    println!(
        "material check of final positions: {both} dead, {:.3} us each",
        m.as_secs_f64() * 1e6 / finals.len() as f64
    );
    let mut full = search::Analyzer::new(search::Config::default());
    let t = clock();
    let mut nodes = 0;
    for p in &timeouts {
        nodes += full.analyze(p, !p.side_to_move()).nodes;
    }
    let f = clock() - t;
    println!(
        "full analysis of {} timeout positions: {:.1} us, {} nodes each",
        timeouts.len(),
        f.as_secs_f64() * 1e6 / timeouts.len() as f64,
        nodes / timeouts.len() as u64
    );
    let t = clock();
    for game in games.iter().flatten() {
        let mut pos = *game.game.start();
        for &m in game.game.moves() {
            pos = pos.play(m);
        }
        std::hint::black_box(pos);
    }
    let r = clock() - t;
    println!("replay: {:.2} us per game", r.as_secs_f64() * 1e6 / finals.len() as f64);
    Ok(())
}
