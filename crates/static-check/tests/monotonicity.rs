//! Lemma 10: Figure 8 is monotone in the mobility solution. Adding squares
//! to any piece's region (a larger, still admissible solution) never turns
//! "not proved" into "unwinnable". Checked on every dev-set position with
//! random enlargements, with and without the intruder filter.

use mobility::Mobility;
use movegen::{Bitboard, Color, Position, Square};
use quickcheck::{QuickCheck, TestResult};
use static_check::{Options, figure8_with};

fn dev_positions() -> Vec<Position> {
    include_str!("../../../testdata/dev-positions.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' ').and_then(|(_, fen)| fen.parse().ok()))
        .collect()
}

fn property(index: usize, grow: Vec<(u8, u64)>, filter: bool) -> TestResult {
    thread_local!(static POSITIONS: Vec<Position> = dev_positions());
    POSITIONS.with(|positions| {
        let pos = positions[index % positions.len()];
        let Ok(mobility) = Mobility::compute(&pos) else { return TestResult::discard() };
        let occupied: Vec<Square> = pos.board().occupied().iter().collect();
        let options = Options { intruder_filter: filter };
        for winner in Color::ALL {
            let mut larger = mobility.clone();
            let before = figure8_with(&pos, winner, &mobility, options).is_unwinnable();
            for &(piece, squares) in grow.iter().take(6) {
                let square = occupied[piece as usize % occupied.len()];
                // Sparse random squares, so regions grow a little at a time.
                larger = larger.enlarged(square, Bitboard(squares & squares.rotate_left(17) & squares.rotate_left(31)));
                let after = figure8_with(&pos, winner, &larger, options).is_unwinnable();
                if after && !before {
                    return TestResult::error(format!(
                        "enlarging {square} made {} unwinnable for {winner}",
                        pos.to_fen()
                    ));
                }
            }
        }
        TestResult::passed()
    })
}

#[test]
fn enlarging_regions_never_proves_more() {
    QuickCheck::new().tests(20_000).quickcheck(property as fn(usize, Vec<(u8, u64)>, bool) -> TestResult);
}

/// The targeted version: for every dev-set query that is *not* proved, no
/// piece's region grown by one square, or to the whole board, makes it
/// proved.
#[test]
fn single_square_enlargements_of_proved_positions() {
    let mut checked = 0;
    for pos in dev_positions().into_iter().step_by(7) {
        let Ok(mobility) = Mobility::compute(&pos) else { continue };
        for winner in Color::ALL {
            let base = figure8_with(&pos, winner, &mobility, Options::default());
            if base.is_unwinnable() {
                continue;
            }
            for square in pos.board().occupied() {
                for extra in [Bitboard::FULL, Bitboard::from(Square::new(square as u32 ^ 9))] {
                    let larger = mobility.enlarged(square, extra);
                    assert!(!figure8_with(&pos, winner, &larger, Options::default()).is_unwinnable());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}
