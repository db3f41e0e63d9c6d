//! Perft counts of `testdata/perft-1000.tsv` (reference counts from an
//! established engine, spot-checked with an independent library).
//!
//! Depths 1-3 of all 1,000 positions with the bulk-counting perft, depth 4
//! of every position too (the file's deepest column), and depth 1-3 with
//! the full make-move perft, which must agree.

use movegen::Position;

const DATA: &str = include_str!("../../../testdata/perft-1000.tsv");

fn cases() -> impl Iterator<Item = (Position, Vec<u64>)> {
    DATA.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()).map(|line| {
        let mut fields = line.split('\t');
        let fen = fields.next().unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        (pos, fields.map(|n| n.trim().parse().unwrap()).collect())
    })
}

#[test]
fn bulk_perft_depth_1_to_4() {
    let mut n = 0;
    for (pos, counts) in cases() {
        for (depth, &expected) in (1..).zip(&counts) {
            assert_eq!(pos.perft(depth), expected, "{} depth {depth}", pos.to_fen());
        }
        n += 1;
    }
    assert_eq!(n, 1000);
}

#[test]
fn full_perft_agrees_to_depth_3() {
    for (pos, counts) in cases() {
        for (depth, &expected) in (1..=3).zip(&counts) {
            assert_eq!(pos.perft_full(depth), expected, "{} depth {depth}", pos.to_fen());
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    for (pos, counts) in cases().take(50) {
        let divide = pos.divide(3);
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), counts[2]);
        assert_eq!(divide.len() as u64, counts[0]);
    }
}
