//! `cargo xtask perft --chess960`, second part: the solver's verdicts on
//! random Chess960 positions with castling rights, each checked
//! independently of the rule that produced it.
//!
//! * A `winnable` verdict's helpmate is replayed to mate by the winner
//!   ([`search::replay`]) and, as the command's certificate, by the
//!   independent checker (`crates/check`, on cozy-chess).
//! * An `unwinnable` verdict is attacked by a plain exhaustive helpmate
//!   search (every legal move of both sides, nothing pruned, no table)
//!   deepened until a node budget runs out: a mate found is a wrong
//!   verdict. The depth every such position was searched to is reported.
//! * `undetermined` is no claim, and is counted.
//!
//! The positions: a quarter from random Chess960 games that keep castling
//! rights ([`movegen::random_chess960_positions`]), the rest from the dev and hard
//! sets' structures where a colour cannot mate (their labels), one
//! colour's king moved along its first rank within the squares it can walk
//! to, with Chess960 rights for its rooks on that rank (a rook put beside
//! the king a quarter of the time, so that the king passes the rook's
//! square, the rook the king's, or one of them stays): where the static
//! rules, and their castling rule, decide. Only positions a game can reach
//! ([`movegen::unreachable`]) are kept.

use std::time::Instant;

use movegen::{Bitboard, Castling, CastlingFiles, CastlingRights, Color, File, Piece, Position, Rank, Role, Square};
use search::{Analyzer, Config, Verdict};
use testkit::XorShift64 as Rng;

/// The seed of the verdict positions.
pub const SEED: u64 = 0x960;

/// `pos` with a Chess960 castling right for one colour: its king moved to
/// a square of its first rank it can walk to (its region, empty), and the
/// rights of that colour's rooks already on that rank (a rook put beside
/// the king on an empty square a quarter of the time, so that the king
/// passes the rook's square or the rook the king's). `None` if no right
/// results or the position is not one a game can reach.
fn with_chess960_rights(pos: &Position, rng: &mut Rng) -> Option<Position> {
    let mobility = mobility::Mobility::compute(pos).ok()?;
    let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
    let rank = Rank::First.relative_to(color);
    let mut setup = pos.to_setup();
    setup.en_passant = None;
    let king = setup.board.king_of(color)?;
    let homes: Vec<Square> = (Bitboard::rank(rank) & mobility.region(king))
        .iter()
        .filter(|&s| s == king || !setup.board.occupied().contains(s))
        .filter(|s| (1..7).contains(&(s.file() as usize)))
        .collect();
    let home = *homes.get(rng.below(homes.len().max(1)))?;
    setup.board.remove_piece_at(king);
    setup.board.set_piece_at(home, Piece::new(color, Role::King));
    if rng.below(4) == 0 {
        let beside = movegen::attacks::king(home) & (Bitboard::rank(rank) - setup.board.occupied());
        if let Some(square) = beside.iter().nth(rng.below(2)).or_else(|| beside.first()) {
            setup.board.set_piece_at(square, Piece::new(color, Role::Rook));
        }
    }
    let rooks = setup.board.pieces(color, Role::Rook) & Bitboard::rank(rank);
    let pick = |side: Vec<Square>, rng: &mut Rng| (!side.is_empty()).then(|| side[rng.below(side.len())]);
    let queen_side = pick(rooks.iter().filter(|r| r.file() < home.file()).collect(), rng);
    let king_side = pick(rooks.iter().filter(|r| r.file() > home.file()).collect(), rng);
    let mut rights = CastlingRights::empty();
    for (rook, king_side_right) in [(queen_side, false), (king_side, true)] {
        if rook.is_some() && rng.below(4) != 0 {
            rights |= Castling { color, king_side: king_side_right }.right();
        }
    }
    if rights.is_empty() {
        return None;
    }
    setup.castling = rights;
    setup.castling_files =
        CastlingFiles::new(queen_side.map_or(File::A, Square::file), king_side.map_or(File::H, Square::file))?;
    // Positions a game can reach only (at most 16 pieces a side, ...).
    if !movegen::unreachable(&setup).is_empty() {
        return None;
    }
    let pos = Position::from_setup(setup).ok()?;
    pos.legal_ep_square().is_none().then_some(pos)
}

/// `count` positions (see the module docs), reproducibly from `seed`.
pub fn positions(root: &std::path::Path, seed: u64, count: usize) -> Result<Vec<Position>, String> {
    let mut structures = Vec::new();
    for set in ["testdata/dev-positions.txt", "testdata/hard-positions.txt"] {
        let text = std::fs::read_to_string(root.join(set)).map_err(|e| format!("{set}: {e}"))?;
        structures.extend(
            text.lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| l.split_once(' '))
                // Structures where a colour cannot mate: castling rights
                // are what may change that.
                .filter(|(label, _)| label.contains('-'))
                .filter_map(|(_, fen)| Position::from_fen(fen).ok()),
        );
    }
    let games = count / 4;
    let mut out = movegen::random_chess960_positions(seed, games);
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
    while out.len() < count {
        let base = &structures[rng.below(structures.len())];
        if let Some(pos) = with_chess960_rights(base, &mut rng) {
            if pos.castling_rights().is_empty() || !pos.has_legal_moves() {
                continue;
            }
            out.push(pos);
        }
    }
    Ok(out)
}

/// Whether `winner` can mate within `depth` plies; `None` when the node
/// budget ran out first.
fn mates_within(pos: &Position, winner: Color, depth: u32, nodes: &mut u64) -> Option<bool> {
    if *nodes == 0 {
        return None;
    }
    *nodes -= 1;
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(pos.side_to_move() != winner && pos.checkers().any());
    }
    if depth == 0 {
        return Some(false);
    }
    for &m in moves.iter() {
        if mates_within(&pos.play(m), winner, depth - 1, nodes)? {
            return Some(true);
        }
    }
    Some(false)
}

/// The deepest full search within `budget` nodes: the depth reached and
/// whether it found a mate.
fn exhaustive(pos: &Position, winner: Color, budget: u64, max_depth: u32) -> (u32, bool) {
    let mut nodes = budget;
    let mut reached = 0;
    for depth in 1..=max_depth {
        match mates_within(pos, winner, depth, &mut nodes) {
            Some(true) => return (depth, true),
            Some(false) => reached = depth,
            None => break,
        }
    }
    (reached, false)
}

/// The tallies of a run.
#[derive(Debug, Default)]
pub struct Tally {
    /// Queries (positions × colours).
    pub queries: usize,
    /// Winnable verdicts, each replayed and accepted by the checker.
    pub winnable: usize,
    /// Unwinnable verdicts, each searched exhaustively.
    pub unwinnable: usize,
    /// Undetermined.
    pub undetermined: usize,
    /// Wrong verdicts, one line each.
    pub wrong: Vec<String>,
    /// The depths the unwinnable positions were searched to (sorted).
    pub depths: Vec<u32>,
    /// Unwinnable verdicts where a Chess960 castling was legal.
    pub unwinnable_castling_legal: usize,
}

/// Checks one query; adds it to `tally`.
fn check_one(analyzer: &mut Analyzer, pos: &Position, winner: Color, budget: u64, tally: &mut Tally) {
    let analysis = analyzer.analyze(pos, winner);
    tally.queries += 1;
    let fen = pos.to_fen();
    match &analysis.verdict {
        Verdict::Winnable { helpmate } => {
            tally.winnable += 1;
            if let Err(e) = search::replay(pos, winner, helpmate) {
                tally.wrong.push(format!("{fen} {}: winnable, but the helpmate fails: {e}", winner.name()));
                return;
            }
            if let Some(certificate) = pipeline::certificate::certificate(pos, winner, &analysis.verdict) {
                let record = serde_json::json!({
                    "fen": fen, "winner": winner.name(), "verdict": "winnable", "certificate": certificate,
                });
                let outcome = check::check_record(&record.to_string(), &check::Limits::default());
                if outcome != check::Outcome::Accepted {
                    tally.wrong.push(format!("{fen} {}: the checker says {outcome} of the helpmate", winner.name()));
                }
            }
        }
        Verdict::Unwinnable(_) => {
            tally.unwinnable += 1;
            if pos.legal_moves().iter().any(|m| m.is_castle()) {
                tally.unwinnable_castling_legal += 1;
            }
            let (depth, mate) = exhaustive(pos, winner, budget, 12);
            if mate {
                tally.wrong.push(format!("{fen} {}: unwinnable, but a mate in {depth} plies", winner.name()));
            }
            tally.depths.push(depth);
        }
        Verdict::Undetermined(_) => tally.undetermined += 1,
    }
}

/// Runs the comparison on `count` positions, both colours, on `jobs`
/// threads; prints the figures; fails on any wrong verdict.
pub fn run(root: &std::path::Path, count: usize, budget: u64, jobs: usize) -> Result<(), String> {
    let started = Instant::now();
    let positions = positions(root, SEED, count)?;
    let config = Config { limits: search::Limits { nodes: 2_000_000, ..Default::default() }, ..Config::default() };
    let chunk = positions.len().div_ceil(jobs.max(1)).max(1);
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut analyzer = Analyzer::new(config);
                    let mut tally = Tally::default();
                    for pos in part {
                        for winner in Color::ALL {
                            check_one(&mut analyzer, pos, winner, budget, &mut tally);
                        }
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    let mut total = Tally::default();
    for t in tallies {
        total.queries += t.queries;
        total.winnable += t.winnable;
        total.unwinnable += t.unwinnable;
        total.undetermined += t.undetermined;
        total.unwinnable_castling_legal += t.unwinnable_castling_legal;
        total.wrong.extend(t.wrong);
        total.depths.extend(t.depths);
    }
    total.depths.sort_unstable();
    let median = total.depths.get(total.depths.len() / 2).copied().unwrap_or(0);
    let min = total.depths.first().copied().unwrap_or(0);
    println!(
        "chess960 verdicts: {} positions with castling rights, {} queries: {} winnable (helpmates replayed and \
         accepted by the checker), {} unwinnable ({} with a castling legal now; searched exhaustively to depth \
         {min} at least, median {median}), {} undetermined: {} wrong ({:.1} s)",
        positions.len(),
        total.queries,
        total.winnable,
        total.unwinnable,
        total.unwinnable_castling_legal,
        total.undetermined,
        total.wrong.len(),
        started.elapsed().as_secs_f64()
    );
    if total.wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("{} wrong verdicts:\n{}", total.wrong.len(), total.wrong.join("\n")))
    }
}
