//! The paper's positions (`testdata/paper-positions.tsv`, true labels).

use movegen::{Color, Position};

fn paper() -> Vec<(String, String, Position)> {
    include_str!("../../../testdata/paper-positions.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (fields[0].to_string(), fields[1].to_string(), fields[2].parse().unwrap())
        })
        .collect()
}

fn get(id: &str) -> Position {
    paper().into_iter().find(|(i, _, _)| i == id).unwrap().2
}

/// Section 1.1: Position 1 is dead, and stays dead with a dark-squared
/// white bishop above the wall (1a) or a light-squared black bishop (1b);
/// the static check alone proves all three, for both colours.
#[test]
fn position_1_and_variants_a_b_are_dead_by_static_analysis() {
    for id in ["1", "1a", "1b"] {
        let pos = get(id);
        for color in Color::ALL {
            let explanation = static_check::analyze(&pos, color);
            assert!(explanation.is_unwinnable(), "position {id}, {color}:\n{explanation}");
        }
        assert!(static_check::dead(&pos).is_some(), "position {id}");
    }
}

/// Section 1.1: with a dark-squared white bishop *below* the wall (1c),
/// Black can mate (white king h3, bishops g3 and h2, black bishop f1), so
/// the check must not prove it unwinnable for Black. White still cannot.
#[test]
fn position_1c_is_not_proved_for_black() {
    let pos = get("1c");
    let black = static_check::analyze(&pos, Color::Black);
    assert!(!black.is_unwinnable(), "{black}");
    assert!(black.to_string().contains("could be a mating square"), "{black}");
    assert!(static_check::is_unwinnable(&pos, Color::White));
    assert!(static_check::dead(&pos).is_none());
}

/// Never "unwinnable" where the label says the colour can win.
#[test]
fn sound_on_every_paper_position() {
    for (id, label, pos) in paper() {
        for (i, color) in Color::ALL.into_iter().enumerate() {
            let can_win = label.as_bytes()[i] != b'-';
            if can_win {
                assert!(!static_check::is_unwinnable(&pos, color), "position {id}: {color} can win");
            }
        }
    }
}
