//! `cargo xtask gen-pgn N [--out FILE] [--zst] [--seed S]`: a synthetic
//! PGN database in the format of a large online server's monthly export,
//! for benchmarks of `unwinnable adjudicate`.
//!
//! Every game has the export's tag pairs (`Event`, `Site` with an
//! eight-character game id, `Date`, players, ratings, `TimeControl`,
//! `Termination`, ...), moves in SAN with a `[%clk h:mm:ss]` comment after
//! each (and `[%eval ...]` in some games), and the termination marker.
//! The moves are random legal moves, with a bias towards captures so that
//! endgames (and some dead positions) occur; the games end by checkmate,
//! stalemate, insufficient material, resignation, agreement, or on time,
//! in a mix close to online blitz (about a third on time). A timeout is
//! recorded the way the server does: a loss for the player to move, or a
//! draw when the opponent has insufficient material (the server's rule,
//! weaker than the Laws' "cannot checkmate by any series of legal moves";
//! the difference is what the adjudicator finds).
//!
//! `--variant chess960` makes Chess960 games: each starts from one of the
//! 960 start positions (at random), with the tags `Variant "Chess960"`,
//! `SetUp "1"` and `FEN` as the server writes them, and castling by the
//! Chess960 rules (`O-O` / `O-O-O` in SAN; played half of the times one
//! is legal).
//!
//! The output is a pure function of `N`, the variant and the seed (default 1).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use movegen::{Color, Move, Position};

/// Options of the task.
#[derive(Clone, Debug)]
pub struct Options {
    /// Number of games.
    pub games: u64,
    /// Output file (`None`: standard output).
    pub out: Option<PathBuf>,
    /// Compress with zstd.
    pub zst: bool,
    /// The seed of the generator.
    pub seed: u64,
    /// Chess960 games instead of standard chess.
    pub chess960: bool,
}

/// SplitMix64: a small, fast, deterministic generator (not for security).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0; the modulo bias is irrelevant here).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Runs the task.
pub fn run(options: &Options) -> Result<(), String> {
    let sink: Box<dyn Write> = match &options.out {
        Some(path) => Box::new(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?),
        None => Box::new(io::stdout().lock()),
    };
    let result = if options.zst {
        let mut encoder = zstd::stream::write::Encoder::new(sink, 3).map_err(|e| e.to_string())?;
        let mut out = BufWriter::with_capacity(1 << 20, &mut encoder);
        let written = write_games(&mut out, options).and_then(|()| out.flush());
        drop(out);
        written.and_then(|()| encoder.finish().map(drop))
    } else {
        let mut out = BufWriter::with_capacity(1 << 20, sink);
        write_games(&mut out, options).and_then(|()| out.flush())
    };
    result.map_err(|e| format!("writing the games: {e}"))
}

fn write_games<W: Write>(out: &mut W, options: &Options) -> io::Result<()> {
    let mut rng = Rng(options.seed ^ 0x5EED_0FAD_1D1C_A7ED);
    let mut text = String::with_capacity(1 << 16);
    for index in 0..options.games {
        text.clear();
        game(&mut rng, index, options.chess960, &mut text);
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

/// How a generated game ended.
enum End {
    Mate(Color),
    Stalemate,
    InsufficientMaterial,
    /// Stopped at the planned length: resignation, agreement or timeout.
    Stopped,
}

const ID_CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

fn game(rng: &mut Rng, index: u64, chess960: bool, text: &mut String) {
    use core::fmt::Write as _;
    let (base, increment) = [(60, 0), (180, 0), (180, 2), (300, 0), (300, 3), (600, 0)][rng.below(6) as usize];
    let plan = 10 + rng.below(150) as usize;
    let evals = rng.chance(10);
    // The moves first (the result goes in the tags).
    let start = if chess960 {
        // Every number below 960 is a start position.
        movegen::chess960_start(rng.below(u64::from(movegen::CHESS960_POSITIONS)) as u32)
            .and_then(|setup| Position::from_setup(setup).ok())
            .unwrap_or_else(Position::start)
    } else {
        Position::start()
    };
    let mut pos = start;
    let mut movetext = String::with_capacity(plan * 24);
    let mut clocks = [base * 10, base * 10]; // tenths of a second
    let mut end = End::Stopped;
    let mut ply = 0;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            end = if pos.is_check() { End::Mate(!pos.side_to_move()) } else { End::Stalemate };
            break;
        }
        if static_check::insufficient_material(&pos, Color::White).is_some()
            && static_check::insufficient_material(&pos, Color::Black).is_some()
        {
            end = End::InsufficientMaterial;
            break;
        }
        if ply >= plan {
            break;
        }
        let captures: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
        // Chess960 games castle when they can, half of the time: random
        // play alone seldom does, and castling is what differs.
        let castle = moves.iter().copied().find(|m| m.is_castle()).filter(|_| chess960 && rng.chance(50));
        let m = if let Some(castle) = castle {
            castle
        } else if !captures.is_empty() && rng.chance(60) {
            captures[rng.below(captures.len() as u64) as usize]
        } else {
            moves[rng.below(moves.len() as u64) as usize]
        };
        let side = pos.side_to_move() as usize;
        // As in the export: every move follows a comment, so Black's moves
        // carry their number too (`1... e5`).
        let dots = if pos.side_to_move() == Color::White { "." } else { "..." };
        let _ = write!(movetext, "{}{dots} ", pos.fullmove_number());
        movetext.push_str(&pos.san(m));
        // About 2.5% of the base time per move, on average.
        let spent = rng.below(base / 2 + 5);
        clocks[side] = clocks[side].saturating_sub(spent) + increment * 10;
        let seconds = clocks[side] / 10;
        let _ = write!(movetext, " {{ ");
        if evals {
            let _ = write!(movetext, "[%eval {}.{:02}] ", rng.below(5), rng.below(100));
        }
        let _ = write!(movetext, "[%clk {}:{:02}:{:02}] }} ", seconds / 3600, seconds / 60 % 60, seconds % 60);
        pos = pos.play(m);
        ply += 1;
    }
    // The result and termination, as the server records them.
    let to_move = pos.side_to_move();
    let (result, termination) = match end {
        End::Mate(winner) => (if winner == Color::White { "1-0" } else { "0-1" }, "Normal"),
        End::Stalemate | End::InsufficientMaterial => ("1/2-1/2", "Normal"),
        End::Stopped => {
            let roll = rng.below(100);
            if roll < 33 {
                // The player to move ran out of time.
                let opponent_cannot = static_check::insufficient_material(&pos, !to_move).is_some();
                let result = match (opponent_cannot, to_move) {
                    (true, _) => "1/2-1/2",
                    (false, Color::White) => "0-1",
                    (false, Color::Black) => "1-0",
                };
                (result, "Time forfeit")
            } else if roll < 35 {
                (if to_move == Color::White { "0-1" } else { "1-0" }, "Abandoned")
            } else if roll < 42 {
                ("1/2-1/2", "Normal")
            } else {
                // The player to move resigns.
                (if to_move == Color::White { "0-1" } else { "1-0" }, "Normal")
            }
        }
    };
    let id: String = (0..8).map(|_| char::from(ID_CHARS[rng.below(ID_CHARS.len() as u64) as usize])).collect();
    let (white_elo, black_elo) = (1000 + rng.below(1600), 1000 + rng.below(1600));
    let day = 1 + index % 28;
    let (hour, minute, second) = (index / 3600 % 24, index / 60 % 60, index % 60);
    let speed = match base {
        0..=60 => "Bullet",
        61..=300 => "Blitz",
        _ => "Rapid",
    };
    // Where the server writes them: after the other tags.
    let variant = if chess960 {
        format!("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n", start.to_fen())
    } else {
        String::new()
    };
    let _ = write!(
        text,
        "[Event \"Rated {speed} game\"]\n\
         [Site \"https://lichess.org/{id}\"]\n\
         [Date \"2024.01.{day:02}\"]\n\
         [Round \"-\"]\n\
         [White \"player{}\"]\n\
         [Black \"player{}\"]\n\
         [Result \"{result}\"]\n\
         [UTCDate \"2024.01.{day:02}\"]\n\
         [UTCTime \"{hour:02}:{minute:02}:{second:02}\"]\n\
         [WhiteElo \"{white_elo}\"]\n\
         [BlackElo \"{black_elo}\"]\n\
         [WhiteRatingDiff \"+{}\"]\n\
         [BlackRatingDiff \"-{}\"]\n\
         [ECO \"?\"]\n\
         [Opening \"?\"]\n\
         [TimeControl \"{base}+{increment}\"]\n\
         [Termination \"{termination}\"]\n{variant}\n",
        rng.below(100_000),
        rng.below(100_000),
        rng.below(10),
        rng.below(10),
    );
    text.push_str(&movetext);
    text.push_str(result);
    text.push_str("\n\n");
}
