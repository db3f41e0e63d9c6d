//! Every line of `testdata/movegen-order.tsv`: the legal moves of each
//! position, in the exact order of the reference generator (Stockfish,
//! commit 51deae8, December 2020). The set-based generator must agree with
//! the list on the set of moves.

use movegen::Position;

const DATA: &str = include_str!("../../../testdata/movegen-order.tsv");

#[test]
fn all_positions_in_reference_order() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (line_number, line) in DATA.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (fen, moves) = line.split_once('\t').expect("FEN <TAB> moves");
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {fen}: {e}", line_number + 1));
        let ours: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        let expected: Vec<&str> = moves.split_whitespace().collect();
        if ours != expected {
            failures.push(format!(
                "line {}: {fen}\n  expected {}\n  got      {}",
                line_number + 1,
                expected.join(" "),
                ours.join(" ")
            ));
        }
        // The set view must contain exactly the same moves.
        let mut from_sets = Vec::new();
        pos.for_each_piece_moves(|pm| {
            pos.expand_piece_moves(pm, |m| from_sets.push(m.to_string()));
            false
        });
        let mut sorted_ours = ours.clone();
        sorted_ours.sort();
        from_sets.sort();
        assert_eq!(from_sets, sorted_ours, "set view differs, line {}: {fen}", line_number + 1);
        assert_eq!(pos.count_legal_moves() as usize, expected.len());
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} positions differ:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    assert_eq!(checked, 4450);
}
