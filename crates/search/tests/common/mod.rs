//! Shared helpers of the search tests: labelled positions, an independent
//! brute-force mate search, and random positions.

#![allow(dead_code)]

#[allow(unused_imports)]
pub use testkit::{XorShift64 as Rng, mate_within};

use movegen::{Board, Color, Piece, Position, Rank, Role, Setup, Square};
use search::{Analysis, Verdict, replay};

/// A labelled query: position, intended winner, whether the label says the
/// winner can mate, and where it comes from.
pub struct Labelled {
    pub source: String,
    pub position: Position,
    pub winner: Color,
    pub can_win: bool,
}

fn labelled(source: String, label: &str, fen: &str) -> Vec<Labelled> {
    let position: Position = fen.parse().unwrap_or_else(|e| panic!("{source}: {fen}: {e}"));
    Color::ALL
        .into_iter()
        .enumerate()
        .map(|(i, winner)| Labelled { source: source.clone(), position, winner, can_win: label.as_bytes()[i] != b'-' })
        .collect()
}

/// Every query of `testdata/paper-positions.tsv`.
pub fn paper() -> Vec<Labelled> {
    include_str!("../../../../testdata/paper-positions.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .flat_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            labelled(format!("paper {}", fields[0]), fields[1], fields[2])
        })
        .collect()
}

/// Every query of `testdata/dev-positions.txt`.
pub fn dev() -> Vec<Labelled> {
    include_str!("../../../../testdata/dev-positions.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .flat_map(|(n, line)| {
            let (label, fen) = line.split_once(' ').unwrap();
            labelled(format!("dev line {}", n + 1), label, fen)
        })
        .collect()
}

/// Checks an answer against a label: never a wrong verdict, and every
/// helpmate replays to a mate by the winner. `Ok(true)` if decided.
pub fn check_answer(query: &Labelled, analysis: &Analysis) -> Result<bool, String> {
    let fen = query.position.to_fen();
    match &analysis.verdict {
        Verdict::Winnable { helpmate } => {
            replay(&query.position, query.winner, helpmate)
                .map_err(|e| format!("{}: bad helpmate for {} in {fen}: {e}", query.source, query.winner))?;
            if !query.can_win {
                return Err(format!("{}: winnable for {} but labelled unwinnable: {fen}", query.source, query.winner));
            }
            Ok(true)
        }
        Verdict::Unwinnable(proof) => {
            if query.can_win {
                return Err(format!(
                    "{}: UNSOUND: unwinnable for {} ({proof}) but labelled winnable: {fen}",
                    query.source, query.winner
                ));
            }
            Ok(true)
        }
        Verdict::Undetermined(_) => Ok(false),
    }
}

/// A random sparse position: two kings and one to five other pieces, any
/// side to move, no castling rights. `None` if the draw is not a valid
/// position.
pub fn sparse_position(seed: u64) -> Option<Position> {
    let mut rng = Rng(seed | 1);
    let mut board = Board::empty();
    let roles = [Role::Pawn, Role::Pawn, Role::Pawn, Role::Knight, Role::Bishop, Role::Bishop, Role::Rook, Role::Queen];
    for color in Color::ALL {
        let square = Square::new(rng.below(64) as u32);
        if board.occupied().contains(square) {
            return None;
        }
        board.set_piece_at(square, Piece::new(color, Role::King));
    }
    for _ in 0..1 + rng.below(5) {
        let square = Square::new(rng.below(64) as u32);
        let piece = Piece::new(Color::from_white(rng.below(2) == 0), roles[rng.below(roles.len())]);
        let back_rank = matches!(square.rank(), Rank::First | Rank::Eighth);
        if !(board.occupied().contains(square) || piece.role == Role::Pawn && back_rank) {
            board.set_piece_at(square, piece);
        }
    }
    let setup = Setup::of_board(board, Color::from_white(rng.below(2) == 0));
    Position::from_setup(setup).ok()
}
