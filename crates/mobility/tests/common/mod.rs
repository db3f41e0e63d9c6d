//! Shared test helpers: positions from the project's test data, made
//! eligible for the mobility analysis (en passant removed; castling rights
//! removed by [`eligible_positions`], kept or added by
//! [`castling_positions`]), and a deterministic random generator.

#![allow(dead_code)]

use movegen::{CastlingRights, Color, Piece, Position, Role, Setup, Square};

/// Every FEN of the test data (paper, dev set, move-order, perft, 2,000 of
/// the performance corpus), with castling rights and en passant squares
/// removed so that Lemma 8 applies.
pub fn eligible_positions() -> Vec<Position> {
    all_fens()
        .iter()
        .filter_map(|fen| {
            let mut setup = Setup::from_fen(fen).ok()?;
            setup.castling = CastlingRights::empty();
            setup.en_passant = None;
            Position::from_setup(setup).ok()
        })
        .collect()
}

/// Positions with castling rights: every test-data position that has some
/// (en passant removed), and every test-data position with the kings moved
/// to `e1`/`e8` and rooks put on the corners (replacing whatever stood
/// there), with the rights those rooks back. Positions that are not valid
/// after the change are skipped.
pub fn castling_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for fen in all_fens() {
        let Ok(mut setup) = Setup::from_fen(&fen) else { continue };
        setup.en_passant = None;
        if !setup.castling.is_empty() {
            if let Ok(pos) = Position::from_setup(setup) {
                positions.push(pos);
            }
        }
        let mut board = setup.board;
        for color in Color::ALL {
            let king = Piece::new(color, Role::King);
            for square in board.pieces(color, Role::King) {
                board.remove_piece_at(square);
            }
            let home = Square::E1.relative_to(color);
            board.set_piece_at(home, king);
            for corner in [Square::A1.relative_to(color), Square::H1.relative_to(color)] {
                board.set_piece_at(corner, Piece::new(color, Role::Rook));
            }
        }
        setup.board = board;
        setup.castling = CastlingRights::all();
        if let Ok(pos) = Position::from_setup(setup) {
            positions.push(pos);
        }
    }
    positions
}

/// Every FEN of the test data (see [`eligible_positions`]).
fn all_fens() -> Vec<String> {
    let mut fens: Vec<String> = Vec::new();
    let data = [
        include_str!("../../../../testdata/paper-positions.tsv"),
        include_str!("../../../../testdata/movegen-order.tsv"),
        include_str!("../../../../testdata/perft-1000.tsv"),
    ];
    for text in data {
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let fen = line.split('\t').find(|f| f.contains('/')).unwrap();
            fens.push(fen.to_string());
        }
    }
    for line in include_str!("../../../../testdata/dev-positions.txt").lines().filter(|l| !l.starts_with('#')) {
        if let Some((_, fen)) = line.split_once(' ') {
            fens.push(fen.to_string());
        }
    }
    for line in include_str!("../../../../testdata/lichess-30k-positions.txt").lines().take(2000) {
        let fen: Vec<&str> = line.split_whitespace().take(6).collect();
        fens.push(fen.join(" "));
    }
    fens
}

/// xorshift64*.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
