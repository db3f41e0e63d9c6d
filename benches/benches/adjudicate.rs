//! Criterion benchmarks of whole-game adjudication (`adjudicate` crate) on a
//! synthetic online-style database made here (2,000 random legal games with
//! clock comments, the same kind of text as `cargo xtask gen-pgn`):
//!
//! - `adjudicate/cut`: cutting the byte stream into games;
//! - `adjudicate/parse`: tags, movetext and SAN resolution, every move played;
//! - `adjudicate/final-position`: the rules on parsed games, dead-position
//!   check where the game ended (the batch default), no timeouts;
//! - `adjudicate/every-ply`: the same with the dead-position check after
//!   every ply;
//! - `adjudicate/timeout`: every game treated as lost on time by the player
//!   to move (a full unwinnability analysis of each final position).
//!
//! Throughput is in games per second. Run on one core:
//! `taskset -c 1 cargo bench -p benches --bench adjudicate`.

#![forbid(unsafe_code)]

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::BufReader;
use std::time::Duration;

use adjudicate::pgn::{RawGame, Splitter, parse_game};
use adjudicate::{Adjudicator, Game, Options, Termination};
use criterion::{Criterion, SamplingMode, Throughput};
use movegen::{Color, Position};

const GAMES: usize = 2_000;

/// A deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

/// `GAMES` random legal games (captures preferred, 10 to 160 plies) as PGN.
fn database() -> Vec<u8> {
    let mut rng = Rng(7);
    let mut text = String::new();
    for index in 0..GAMES {
        let _ = write!(
            text,
            "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/b{index:07}\"]\n[White \"a\"]\n[Black \"b\"]\n\
             [Result \"*\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n[TimeControl \"180+0\"]\n[Termination \"Normal\"]\n\n"
        );
        let mut pos = Position::start();
        let plies = 10 + rng.below(150);
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            let m = if !captures.is_empty() && rng.below(10) < 6 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let dots = if pos.side_to_move() == Color::White { "." } else { "..." };
            let seconds = 180 - (ply * 2).min(179);
            let _ = write!(
                text,
                "{}{dots} {} {{ [%clk 0:{:02}:{:02}] }} ",
                pos.fullmove_number(),
                pos.san(m),
                seconds / 60,
                seconds % 60
            );
            pos = pos.play(m);
        }
        text.push_str("*\n\n");
    }
    text.into_bytes()
}

fn cut(bytes: &[u8]) -> Vec<RawGame> {
    let mut splitter = Splitter::new(BufReader::new(bytes));
    let mut games = Vec::new();
    while let Some(game) = splitter.next_game().expect("in memory") {
        games.push(game);
    }
    games
}

fn benches(c: &mut Criterion) {
    let bytes = database();
    let raw = cut(&bytes);
    assert_eq!(raw.len(), GAMES);
    let games: Vec<Game> = raw.iter().map(|g| parse_game(g).expect("valid").game).collect();
    let timeouts: Vec<Game> = games.iter().map(|g| g.clone().with_timeout(None)).collect();
    assert!(timeouts.iter().all(|g| g.termination == Termination::TimeForfeit { flagged: None }));

    let mut group = c.benchmark_group("adjudicate");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(GAMES as u64));
    group.bench_function("cut", |b| b.iter(|| cut(black_box(&bytes)).len()));
    group.bench_function("parse", |b| {
        b.iter(|| black_box(&raw).iter().filter(|g| parse_game(g).is_ok()).count());
    });
    let mut run = |name: &str, options: Options, games: &[Game]| {
        let mut adjudicator = Adjudicator::new(options);
        group.bench_function(name, |b| {
            b.iter(|| black_box(games).iter().map(|g| adjudicator.adjudicate(g).ply).sum::<usize>());
        });
    };
    run("final-position", Options::batch(), &games);
    run("every-ply", Options::default(), &games);
    run("timeout", Options::batch(), &timeouts);
    group.finish();
}

criterion::criterion_group!(adjudication, benches);
criterion::criterion_main!(adjudication);
