//! Shared data and perft implementations for the move-generator benchmarks.
//!
//! The criterion benchmark (`benches/movegen.rs`) and the report tool
//! (`src/bin/bench_report.rs`) both take their positions, depths, node counts
//! and benchmark names from here, so that they always agree.
//!
//! Four move generators are compared on standard chess: ours ([`movegen`]),
//! `cozy-chess`, `chess` and `shakmaty`; on Chess960, ours and `cozy-chess`
//! (the one of the three peers with Chess960 castling behind the same
//! interface; [`Chess960Library`]). Each implements [`PerftLibrary`] with the
//! library's idiomatic fastest public way to
//!
//! - count leaves in bulk ([`PerftLibrary::bulk_perft`]: the last ply is
//!   counted without playing its moves), and
//! - walk the full tree ([`PerftLibrary::full_perft`]: every node generates
//!   its moves and plays every one of them, including at the last ply).
//!
//! Running (one core, nothing else heavy meanwhile):
//!
//! ```text
//! cargo bench -p benches --bench movegen               # full run, ~7 minutes
//! cargo bench -p benches --bench movegen -- --quick    # smoke run
//! cargo bench -p benches --bench movegen -- endgame    # one group (regex filter)
//! cargo bench -p benches --bench movegen -- chess960   # the Chess960 groups
//! cargo run -p benches --bin bench_report              # nodes/s table and ratios
//! ```
//!
//! For a native build use a separate target directory, e.g.
//! `RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=/tmp/target-native cargo bench -p benches --bench movegen`
//! and then `cargo run -p benches --bin bench_report -- /tmp/target-native`.

#![forbid(unsafe_code)]

use std::hint::black_box;
use std::str::FromStr;

/// Criterion group name of the bulk-counting perft benchmark.
pub const GROUP_BULK: &str = "bulk_perft";
/// Criterion group name of the full make-move perft benchmark.
pub const GROUP_FULL: &str = "full_perft";
/// Criterion group name of the endgame (helpmate-like) full perft benchmark.
pub const GROUP_ENDGAME: &str = "endgame_full_perft";
/// Benchmark parameter name of the endgame workload (one benchmark per library).
pub const ENDGAME_NAME: &str = "dev_endgames";
/// Criterion group name of the bulk-counting perft of Chess960 positions.
pub const GROUP_CHESS960_BULK: &str = "chess960_bulk_perft";
/// Criterion group name of the full make-move perft of Chess960 positions.
pub const GROUP_CHESS960_FULL: &str = "chess960_full_perft";

/// A perft position, with the depths benchmarked and the published leaf
/// counts at those depths.
#[derive(Clone, Copy, Debug)]
pub struct PerftPosition {
    /// Short name, used as the criterion benchmark parameter.
    pub name: &'static str,
    /// FEN (6 fields; Shredder-FEN for Chess960).
    pub fen: &'static str,
    /// Depth of the bulk-counting perft.
    pub bulk_depth: u32,
    /// Published perft at `bulk_depth`.
    pub bulk_nodes: u64,
    /// Depth of the full make-move perft.
    pub full_depth: u32,
    /// Published perft at `full_depth`.
    pub full_nodes: u64,
}

/// The five standard perft positions of the Chess Programming Wiki (also the
/// first lines of `testdata/perft-1000.tsv`), with their published counts.
pub const STANDARD_POSITIONS: [PerftPosition; 5] = [
    PerftPosition {
        name: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        bulk_depth: 5,
        bulk_nodes: 4_865_609,
        full_depth: 5,
        full_nodes: 4_865_609,
    },
    PerftPosition {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        bulk_depth: 4,
        bulk_nodes: 4_085_603,
        full_depth: 4,
        full_nodes: 4_085_603,
    },
    PerftPosition {
        name: "position3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        bulk_depth: 6,
        bulk_nodes: 11_030_083,
        full_depth: 5,
        full_nodes: 674_624,
    },
    PerftPosition {
        name: "position4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        bulk_depth: 5,
        bulk_nodes: 15_833_292,
        full_depth: 4,
        full_nodes: 422_333,
    },
    PerftPosition {
        name: "position5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        bulk_depth: 4,
        bulk_nodes: 2_103_487,
        full_depth: 4,
        full_nodes: 2_103_487,
    },
];

/// Five Chess960 positions of the Chess Programming Wiki's "Chess960 Perft
/// Results" (`testdata/chess960-perft.tsv`, named by their id there: the
/// line's index among the file's positions), with the published counts (a
/// test checks them against the file). In each, White can castle at the root
/// and Black after it; the kings stand on d, e and f, the rooks next to
/// them (`wiki38`: king f1 between e1 and g1; `wiki94`: king d1 between c1
/// and e1), off the corners (`wiki92`: c1 and f1) or in one (`wiki71`: d1
/// and h1; `wiki74`: c1 and g1).
pub const CHESS960_PERFT_POSITIONS: [PerftPosition; 5] = [
    PerftPosition {
        name: "wiki38",
        fen: "nnbqrkr1/pp1pp2p/2p2b2/5pp1/1P5P/4P1P1/P1PP1P2/NNBQRKRB w GEge - 1 9",
        bulk_depth: 5,
        bulk_nodes: 36_218_182,
        full_depth: 4,
        full_nodes: 1_111_186,
    },
    PerftPosition {
        name: "wiki71",
        fen: "nbnrbk1r/pppppppq/8/7p/8/1N2QPP1/PPPPP2P/NB1RBK1R w HDhd - 2 9",
        bulk_depth: 5,
        bulk_nodes: 37_143_354,
        full_depth: 4,
        full_nodes: 1_018_054,
    },
    PerftPosition {
        name: "wiki74",
        fen: "n1rkbqrb/pp1ppp2/2n3p1/2p4p/P5PP/1P6/2PPPP2/NNRKBQRB w GCgc - 0 9",
        bulk_depth: 5,
        bulk_nodes: 18_761_475,
        full_depth: 4,
        full_nodes: 684_001,
    },
    PerftPosition {
        name: "wiki92",
        fen: "1nrbkr1q/1pppp1pp/1n6/p4p2/N1b4P/8/PPPPPPPB/N1RBKR1Q w FCfc - 2 9",
        bulk_depth: 5,
        bulk_nodes: 22_027_695,
        full_depth: 4,
        full_nodes: 755_171,
    },
    PerftPosition {
        name: "wiki94",
        fen: "n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w ECc - 1 9",
        bulk_depth: 5,
        bulk_nodes: 11_420_973,
        full_depth: 4,
        full_nodes: 425_247,
    },
];

/// Depth of the full make-move perft run on every endgame position.
pub const ENDGAME_DEPTH: u32 = 4;

/// How many endgame positions [`select_endgame_positions`] takes.
pub const ENDGAME_COUNT: usize = 50;

/// The endgame workload: [`ENDGAME_COUNT`] positions with few pieces, each
/// with its perft at [`ENDGAME_DEPTH`].
///
/// This is exactly `select_endgame_positions(testdata/dev-positions.txt)`
/// (a test checks it), frozen here so that the benchmark does not depend on
/// the data file changing.
pub const ENDGAME_POSITIONS: &[(&str, u64)] = &[
    ("8/8/8/8/8/1kB5/1B6/BKB5 w - - 0 1", 3018),
    ("8/8/8/8/2b5/1kB5/1B6/BKB5 w - - 0 1", 29549),
    ("8/2pN4/3p4/3k4/r7/8/5K2/8 b - - 0 1", 51015),
    ("3k4/4r3/8/6p1/6B1/8/6BB/6BK w - - 0 1", 161480),
    ("6k1/6P1/6K1/8/8/8/8/8 w - - 0 1", 374),
    ("6k1/6P1/6K1/6P1/8/8/8/8 w - - 0 1", 214),
    ("6k1/6P1/5pK1/6P1/8/8/8/8 w - - 0 1", 331),
    ("3k4/8/8/p2p2p1/P2P2P1/8/3K4/8 w - - 0 1", 1564),
    ("8/8/8/8/3k4/1Bn5/BKB5/1B6 w - - 0 1", 28900),
    ("8/2k5/8/1p1p2p1/1P1P2P1/8/2K5/8 w - - 0 1", 2116),
    ("2k5/8/8/8/8/8/8/2KR4 w - - 0 1", 5335),
    ("2k5/3p4/8/8/8/8/8/2KB4 w - - 0 1", 5745),
    ("2k5/3n4/8/8/8/8/8/2KB4 w - - 0 1", 14255),
    ("8/2pN4/3p4/3k4/r7/8/6K1/8 w - - 0 1", 52924),
    ("8/8/8/B7/2k5/1p6/1K6/8 b - - 0 1", 4832),
    ("8/8/8/4K3/4N3/4kp2/8/8 b - - 0 1", 3785),
    ("8/8/8/8/8/5k2/q7/7K b - - 0 1", 2640),
    ("8/8/4P1K1/3Pp3/3p4/8/8/6k1 b - - 0 1", 4709),
    ("8/8/6K1/4p3/3pP3/3P4/8/6k1 b - - 0 1", 1477),
    ("8/8/8/Bk6/8/1p6/1K6/8 b - - 0 1", 3784),
    ("1K6/P7/8/8/8/8/p7/1k6 b - - 0 1", 5500),
    ("1K6/p7/8/8/8/8/P7/1k6 b - - 0 1", 2176),
    ("1k3b2/8/8/8/8/8/8/1K3N2 w - - 0 1", 13538),
    ("8/8/3k4/8/5Q2/8/2K5/8 b - - 0 1", 27953),
    ("2q5/8/8/B7/2k5/1p6/1K6/8 b - - 0 1", 57141),
    ("8/8/8/B7/1pk5/1p6/1K6/8 b - - 0 1", 2449),
    ("8/8/3k4/8/8/3P4/8/3K4 w - - 0 1", 2398),
    ("8/8/3k4/8/3P4/3K4/8/8 w - - 0 1", 2607),
    ("8/8/8/3k4/3P4/3K4/8/8 w - - 0 1", 1324),
    ("k7/P1K5/8/8/8/8/8/8 b - - 0 1", 115),
    ("k7/2K5/q7/8/8/8/5B2/8 b - - 0 1", 37504),
    ("B7/8/8/8/4r3/8/7p/5K1k w - - 0 1", 0),
    ("8/3kb3/8/8/8/6P1/3K4/8 w - - 0 1", 16530),
    ("5bk1/4p1p1/4P1P1/7K/8/8/8/8 w - - 0 1", 18),
    ("5bkB/4p1p1/4P1P1/7K/8/8/8/8 w - - 0 1", 63),
    ("5b1B/4p1pk/4P3/6PK/8/8/8/8 w - - 0 1", 269),
    ("5b1k/4p1p1/4P1PQ/7K/8/8/8/8 b - - 0 1", 221),
    ("5bN1/4p1pk/4P1P1/7K/8/8/8/8 b - - 0 1", 46),
    ("5bR1/4p1pk/4P1P1/7K/8/8/8/8 b - - 0 1", 18),
    ("5b1B/4p1pk/4P1P1/7K/8/8/8/8 b - - 0 1", 42),
    ("5b1N/4p1pk/4P1P1/7K/8/8/8/8 b - - 0 1", 36),
    ("8/2k5/8/1p2p2p/1P2P2P/2K5/8/8 w - - 0 1", 1564),
    ("k7/Pp6/1P6/8/8/8/7K/8 w - - 0 1", 0),
    ("k7/Pp6/1P6/8/8/8/6K1/6Q1 w - - 0 1", 0),
    ("k7/PpB5/1P6/8/8/8/5p2/6K1 w - - 0 1", 760),
    ("k7/PpB5/1B6/2B5/8/8/5p2/6K1 w - - 0 1", 1496),
    ("1k6/Pp6/1P6/8/8/7B/6K1/6Q1 b - - 0 1", 0),
    ("8/3k4/8/8/8/3K4/8/8 w - - 0 1", 3260),
    ("8/3k4/8/8/8/3K4/3P4/8 w - - 0 1", 3264),
    ("3b4/3k4/8/8/8/3K4/3P4/8 w - - 0 1", 11639),
];

/// The total number of leaves of the endgame workload (sum over
/// [`ENDGAME_POSITIONS`]).
pub fn endgame_nodes() -> u64 {
    ENDGAME_POSITIONS.iter().map(|&(_, nodes)| nodes).sum()
}

/// Normalises a 4-field FEN (as in `dev-positions.txt`) to 6 fields by
/// appending `0 1`; other FENs are returned unchanged.
pub fn normalize_fen(fen: &str) -> String {
    let fen = fen.trim();
    if fen.split_whitespace().count() == 4 { format!("{fen} 0 1") } else { fen.to_owned() }
}

/// Selects the endgame workload from the text of `testdata/dev-positions.txt`
/// (lines `LABEL FEN`, `#` comments): the first [`ENDGAME_COUNT`] positions in
/// file order that have at most 8 pieces, no castling rights, at least one
/// legal move, and that all four libraries accept. FENs are normalised with
/// [`normalize_fen`].
pub fn select_endgame_positions(dev_positions: &str) -> Vec<String> {
    dev_positions
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| line.split_once(' ').map(|(_, fen)| normalize_fen(fen)))
        .filter(|fen| {
            let fields: Vec<&str> = fen.split_whitespace().collect();
            let pieces = fields[0].chars().filter(char::is_ascii_alphabetic).count();
            pieces <= 8 && fields[2] == "-"
        })
        .filter(|fen| {
            Movegen::parse(fen).is_ok_and(|pos| pos.count_legal_moves() > 0)
                && CozyChess::parse(fen).is_ok()
                && ChessCrate::parse(fen).is_ok()
                && Shakmaty::parse(fen).is_ok()
        })
        .take(ENDGAME_COUNT)
        .collect()
}

/// A move generator under benchmark.
pub trait PerftLibrary {
    /// The library's position type.
    type Position;
    /// Name of the library, used as the criterion benchmark function name.
    const NAME: &'static str;
    /// Parses a 6-field FEN.
    fn parse(fen: &str) -> Result<Self::Position, String>;
    /// Perft counting the last ply in bulk (moves of the last ply are
    /// generated and counted but not played).
    fn bulk_perft(pos: &Self::Position, depth: u32) -> u64;
    /// Perft generating the moves at every node and playing every one of
    /// them, including at the last ply.
    fn full_perft(pos: &Self::Position, depth: u32) -> u64;
}

/// A move generator that also reads Chess960 positions.
pub trait Chess960Library: PerftLibrary {
    /// Parses a 6-field Shredder-FEN (or X-FEN) as a Chess960 position.
    fn parse_chess960(fen: &str) -> Result<Self::Position, String>;
}

/// Ours: the workspace's [`movegen`] crate.
#[derive(Clone, Copy, Debug)]
pub struct Movegen;

impl PerftLibrary for Movegen {
    type Position = movegen::Position;
    const NAME: &'static str = "movegen";

    fn parse(fen: &str) -> Result<Self::Position, String> {
        movegen::Position::from_fen(fen).map_err(|e| e.to_string())
    }

    fn bulk_perft(pos: &Self::Position, depth: u32) -> u64 {
        pos.perft(depth)
    }

    fn full_perft(pos: &Self::Position, depth: u32) -> u64 {
        pos.perft_full(depth)
    }
}

impl Chess960Library for Movegen {
    fn parse_chess960(fen: &str) -> Result<Self::Position, String> {
        movegen::Position::from_fen_chess960(fen).map_err(|e| e.to_string())
    }
}

/// The `cozy-chess` crate (piece-wise move sets, copy-make).
#[derive(Clone, Copy, Debug)]
pub struct CozyChess;

impl PerftLibrary for CozyChess {
    type Position = cozy_chess::Board;
    const NAME: &'static str = "cozy-chess";

    fn parse(fen: &str) -> Result<Self::Position, String> {
        cozy_chess::Board::from_fen(fen, false).map_err(|e| format!("{e:?}"))
    }

    fn bulk_perft(board: &Self::Position, depth: u32) -> u64 {
        let mut nodes = 0;
        match depth {
            0 => nodes = 1,
            1 => {
                board.generate_moves(|moves| {
                    nodes += moves.len() as u64;
                    false
                });
            }
            _ => {
                board.generate_moves(|moves| {
                    for mv in moves {
                        let mut child = board.clone();
                        child.play_unchecked(mv);
                        nodes += Self::bulk_perft(&child, depth - 1);
                    }
                    false
                });
            }
        }
        nodes
    }

    fn full_perft(board: &Self::Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += if depth == 1 {
                    black_box(child);
                    1
                } else {
                    Self::full_perft(&child, depth - 1)
                };
            }
            false
        });
        nodes
    }
}

impl Chess960Library for CozyChess {
    fn parse_chess960(fen: &str) -> Result<Self::Position, String> {
        cozy_chess::Board::from_fen(fen, true).map_err(|e| format!("{e:?}"))
    }
}

/// The `chess` crate (legal move iterator, copy-make).
#[derive(Clone, Copy, Debug)]
pub struct ChessCrate;

impl PerftLibrary for ChessCrate {
    type Position = chess::Board;
    const NAME: &'static str = "chess";

    fn parse(fen: &str) -> Result<Self::Position, String> {
        chess::Board::from_str(fen).map_err(|e| e.to_string())
    }

    fn bulk_perft(board: &Self::Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        // The crate's own bulk-counting perft.
        chess::MoveGen::movegen_perft_test(board, depth as usize) as u64
    }

    fn full_perft(board: &Self::Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for mv in chess::MoveGen::new_legal(board) {
            let child = board.make_move_new(mv);
            nodes += if depth == 1 {
                black_box(child);
                1
            } else {
                Self::full_perft(&child, depth - 1)
            };
        }
        nodes
    }
}

/// The `shakmaty` crate (legal move list, copy-make).
#[derive(Clone, Copy, Debug)]
pub struct Shakmaty;

impl PerftLibrary for Shakmaty {
    type Position = shakmaty::Chess;
    const NAME: &'static str = "shakmaty";

    fn parse(fen: &str) -> Result<Self::Position, String> {
        let fen = shakmaty::fen::Fen::from_ascii(fen.as_bytes()).map_err(|e| e.to_string())?;
        fen.into_position(shakmaty::CastlingMode::Standard).map_err(|e| e.to_string())
    }

    fn bulk_perft(pos: &Self::Position, depth: u32) -> u64 {
        // The crate's own bulk-counting perft.
        shakmaty::perft(pos, depth)
    }

    fn full_perft(pos: &Self::Position, depth: u32) -> u64 {
        use shakmaty::Position as _;
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        let mut nodes = 0;
        for &mv in &moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            nodes += if depth == 1 {
                black_box(child);
                1
            } else {
                Self::full_perft(&child, depth - 1)
            };
        }
        nodes
    }
}

/// The names of the four libraries, ours first.
pub const LIBRARIES: [&str; 4] = [Movegen::NAME, CozyChess::NAME, ChessCrate::NAME, Shakmaty::NAME];

/// The names of the libraries benchmarked on Chess960, ours first.
pub const CHESS960_LIBRARIES: [&str; 2] = [Movegen::NAME, CozyChess::NAME];

#[cfg(test)]
mod tests {
    use super::*;

    fn dev_positions() -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/dev-positions.txt");
        std::fs::read_to_string(path).expect("read testdata/dev-positions.txt")
    }

    #[test]
    fn endgame_positions_are_the_selection_from_testdata() {
        let selected = select_endgame_positions(&dev_positions());
        let frozen: Vec<&str> = ENDGAME_POSITIONS.iter().map(|&(fen, _)| fen).collect();
        assert_eq!(selected, frozen);
    }

    fn check_all<L: PerftLibrary>() {
        for p in &STANDARD_POSITIONS {
            let pos = L::parse(p.fen).unwrap();
            // Shallow depths keep the test fast; the benchmark checks the
            // benchmarked depths.
            assert_eq!(L::bulk_perft(&pos, 3), L::full_perft(&pos, 3), "{} {}", L::NAME, p.name);
        }
        for &(fen, nodes) in ENDGAME_POSITIONS {
            let pos = L::parse(fen).unwrap();
            assert_eq!(L::full_perft(&pos, ENDGAME_DEPTH), nodes, "{} {fen}", L::NAME);
        }
    }

    #[test]
    fn libraries_agree() {
        check_all::<Movegen>();
        check_all::<CozyChess>();
        check_all::<ChessCrate>();
        check_all::<Shakmaty>();
    }

    /// The published counts of `testdata/chess960-perft.tsv` (depths 1 to 6)
    /// on the line of `fen`.
    fn published_chess960_counts(fen: &str) -> Vec<u64> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/chess960-perft.tsv");
        let data = std::fs::read_to_string(path).expect("read testdata/chess960-perft.tsv");
        let line = data
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .find(|line| line.split('\t').next() == Some(fen))
            .unwrap_or_else(|| panic!("{fen} not in testdata/chess960-perft.tsv"));
        line.split('\t').skip(1).map(|n| n.trim().parse().unwrap()).collect()
    }

    #[test]
    fn chess960_positions_are_the_published_ones() {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/chess960-perft.tsv");
        let data = std::fs::read_to_string(data).unwrap();
        let fens: Vec<&str> = data
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| line.split('\t').next().unwrap())
            .collect();
        for p in &CHESS960_PERFT_POSITIONS {
            let id: usize = p.name.strip_prefix("wiki").unwrap().parse().unwrap();
            assert_eq!(fens[id], p.fen, "{}", p.name);
            let counts = published_chess960_counts(p.fen);
            assert_eq!(counts[p.bulk_depth as usize - 1], p.bulk_nodes, "{} bulk", p.name);
            assert_eq!(counts[p.full_depth as usize - 1], p.full_nodes, "{} full", p.name);
        }
    }

    /// Both Chess960 readers give the published counts to depth 3, in bulk
    /// and playing every move (the benchmark checks the benchmarked depths),
    /// and read the positions as Chess960 (castling in the tree).
    fn check_chess960<L: Chess960Library>() {
        for p in &CHESS960_PERFT_POSITIONS {
            let pos = L::parse_chess960(p.fen).unwrap();
            let counts = published_chess960_counts(p.fen);
            for depth in 1..=3 {
                assert_eq!(
                    L::bulk_perft(&pos, depth),
                    counts[depth as usize - 1],
                    "{} {} bulk {depth}",
                    L::NAME,
                    p.name
                );
                assert_eq!(
                    L::full_perft(&pos, depth),
                    counts[depth as usize - 1],
                    "{} {} full {depth}",
                    L::NAME,
                    p.name
                );
            }
        }
    }

    #[test]
    fn chess960_libraries_agree_with_the_published_counts() {
        check_chess960::<Movegen>();
        check_chess960::<CozyChess>();
    }

    /// Each position is Chess960 with a castling at the root: the benchmark
    /// measures Chess960 castling, not standard chess on a shuffled board.
    #[test]
    fn chess960_positions_castle_at_the_root() {
        for p in &CHESS960_PERFT_POSITIONS {
            let pos = Movegen::parse_chess960(p.fen).unwrap();
            assert!(pos.is_chess960(), "{}", p.name);
            let castlings = pos.legal_moves().iter().filter(|m| m.is_castle()).count();
            assert_eq!(castlings, 1, "{}", p.name);
        }
    }

    #[test]
    #[ignore = "prints the endgame selection with node counts, to refresh ENDGAME_POSITIONS"]
    fn print_endgame_selection() {
        for fen in select_endgame_positions(&dev_positions()) {
            let pos = Movegen::parse(&fen).unwrap();
            println!("    ({fen:?}, {}),", pos.perft(ENDGAME_DEPTH));
        }
    }
}
