//! The light check's explanation is the whole check's whenever it proves:
//! the search answers with the light explanation as its proof
//! (`search`'s light static phase) instead of computing the whole check
//! again, which is right only if the two agree. Checked, both colours, on
//! the labelled dev and hard positions and the first 5,000 real timeouts
//! (most of which the light check proves); the light check must also never
//! prove what the whole check does not (it is the whole check's first
//! attempt), and the split must matter somewhere (else the test could not
//! tell the two apart).

use movegen::{Color, Position};

/// The FENs (4 fields) of a set's lines: `LABEL FEN` for the labelled
/// sets, `FEN ...` for the timeouts.
fn fens(text: &str, labelled: bool) -> Vec<String> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split_whitespace().skip(usize::from(labelled)).take(4).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn the_light_explanation_is_the_whole_one_when_it_proves() {
    let mut all = fens(include_str!("../../../testdata/dev-positions.txt"), true);
    all.extend(fens(include_str!("../../../testdata/hard-positions.txt"), true));
    all.extend(fens(include_str!("../../../testdata/timeouts-20k.txt"), false).into_iter().take(5_000));
    let (mut light_proofs, mut whole_only) = (0, 0);
    for fen in &all {
        let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        for winner in Color::ALL {
            let light = static_check::analyze_light(&pos, winner);
            let whole = static_check::analyze(&pos, winner);
            if light.is_unwinnable() {
                light_proofs += 1;
                assert_eq!(light, whole, "{fen} for {winner}: the light proof differs from the whole check's");
            } else if whole.is_unwinnable() {
                whole_only += 1;
            }
            assert_eq!(light.is_unwinnable(), static_check::is_unwinnable_light(&pos, winner), "{fen} for {winner}");
        }
    }
    assert!(light_proofs > 5_000, "only {light_proofs} light proofs");
    assert!(whole_only > 0, "the case split never proved more than the light check");
}
