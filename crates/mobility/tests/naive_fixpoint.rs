//! The bitboard saturation equals the paper's fixpoint: a literal,
//! one-boolean-variable-at-a-time implementation of Figures 6 and 7 must
//! produce the same `M`, `C` and `R` on every test position. The same
//! literal implementation extended with the facing-pawns and
//! own-pawn-behind rules checks the strengthened mode.

mod common;

use common::{Rng, eligible_positions};
use mobility::{Mobility, Rules};
use movegen::{Color, Position, Role, Square};

#[derive(Clone, Copy)]
struct P {
    square: usize,
    color: Color,
    role: Role,
}

fn file(s: usize) -> i32 {
    (s % 8) as i32
}
fn rank(s: usize) -> i32 {
    (s / 8) as i32
}
fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

/// `pred_P(s)`: squares from which a piece of P's type reaches `s` in one
/// non-capturing step on an empty board (sliders one square at a time).
fn pred(p: P, s: usize) -> Vec<usize> {
    let (f, r) = (file(s), rank(s));
    let steps: Vec<(i32, i32)> = match p.role {
        Role::Pawn => vec![if p.color == Color::White { (0, -1) } else { (0, 1) }],
        Role::Knight => vec![(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
        Role::Bishop => vec![(1, 1), (1, -1), (-1, 1), (-1, -1)],
        Role::Rook => vec![(1, 0), (-1, 0), (0, 1), (0, -1)],
        Role::Queen | Role::King => {
            vec![(1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)]
        }
    };
    steps.iter().filter_map(|(df, dr)| at(f + df, r + dr)).collect()
}

/// `pred-capt_P(s)`: for pawns the squares from which they capture on `s`.
fn pred_capt(p: P, s: usize) -> Vec<usize> {
    if p.role != Role::Pawn {
        return pred(p, s);
    }
    let dr = if p.color == Color::White { -1 } else { 1 };
    [(-1, dr), (1, dr)].iter().filter_map(|(df, d)| at(file(s) + df, rank(s) + d)).collect()
}

fn prom(p: P) -> Vec<usize> {
    match (p.role, p.color) {
        (Role::Pawn, Color::White) => (56..64).collect(),
        (Role::Pawn, Color::Black) => (0..8).collect(),
        _ => vec![],
    }
}

struct Naive {
    m: Vec<[bool; 64]>,
    c: Vec<bool>,
    r: [[bool; 2]; 64],
}

/// Whether the region of piece `k` has a square off its file.
fn off_file(v: &Naive, pieces: &[P], k: usize) -> bool {
    (0..64).any(|t| v.m[k][t] && file(t) != file(pieces[k].square))
}

/// Whether a piece of `color` can capture piece `j`: stand on a square of
/// its region, or for a pawn attack one from its own region.
fn capturable_by(v: &Naive, pieces: &[P], j: usize, color: Color) -> bool {
    pieces.iter().enumerate().any(|(k, q)| {
        q.color == color
            && (0..64).any(|t| {
                v.m[j][t] && if q.role == Role::Pawn { pred_capt(*q, t).iter().any(|&u| v.m[k][u]) } else { v.m[k][t] }
            })
    })
}

fn naive(pos: &Position, rules: Rules) -> (Vec<P>, Naive) {
    let pieces: Vec<P> = pos
        .board()
        .pieces_iter()
        .map(|(square, piece)| P { square: square as usize, color: piece.color, role: piece.role })
        .collect();
    let n = pieces.len();
    let mut v = Naive { m: vec![[false; 64]; n], c: vec![false; n], r: [[false; 2]; 64] };
    for (i, p) in pieces.iter().enumerate() {
        v.m[i][p.square] = true; // Figure 7, step 2
    }
    let piece_on = |s: usize| pieces.iter().position(|p| p.square == s);
    loop {
        let mut changed = false;
        // M variables.
        for (i, &p) in pieces.iter().enumerate() {
            for s in 0..64 {
                if v.m[i][s] || s == p.square {
                    continue;
                }
                let mut ok = if p.role == Role::Pawn {
                    // Pawn move rule.
                    let mut f = match piece_on(s) {
                        Some(j) if pieces[j].color != p.color => v.c[j],
                        _ => true,
                    };
                    // Facing-pawns rule: pushing into the initial square of
                    // an enemy pawn that started ahead on the same file.
                    if rules == Rules::FacingPawns {
                        if let Some(j) = piece_on(s) {
                            let b = pieces[j];
                            let ahead = if p.color == Color::White {
                                rank(s) > rank(p.square)
                            } else {
                                rank(s) < rank(p.square)
                            };
                            if b.role == Role::Pawn && b.color != p.color && file(s) == file(p.square) && ahead {
                                f &= off_file(&v, &pieces, j)
                                    || capturable_by(&v, &pieces, j, p.color)
                                    || off_file(&v, &pieces, i);
                            }
                        }
                    }
                    pred(p, s).iter().any(|&u| v.m[i][u] && f)
                        || pred_capt(p, s).iter().any(|&u| v.m[i][u] && v.r[s][(!p.color) as usize])
                        || prom(p).iter().any(|&u| v.m[i][u])
                } else {
                    // Move rule.
                    let mut ok = pred(p, s).iter().any(|&u| v.m[i][u]);
                    // Own-pawn-behind rule: a rook or queen entering the
                    // squares of its file at or behind a pawn of its colour
                    // that started behind it.
                    if rules == Rules::FacingPawns && matches!(p.role, Role::Rook | Role::Queen) {
                        let back = |a: usize, b: usize| {
                            if p.color == Color::White { rank(a) <= rank(b) } else { rank(a) >= rank(b) }
                        };
                        for (j, w) in pieces.iter().enumerate() {
                            let guarded = w.role == Role::Pawn
                                && w.color == p.color
                                && file(w.square) == file(p.square)
                                && back(w.square, p.square)
                                && file(s) == file(w.square)
                                && back(s, w.square);
                            if !guarded {
                                continue;
                            }
                            ok &= off_file(&v, &pieces, i)
                                || off_file(&v, &pieces, j)
                                || capturable_by(&v, &pieces, j, !p.color);
                        }
                    }
                    ok
                };
                if p.role == Role::King {
                    // King attackers rule.
                    for (j, &q) in pieces.iter().enumerate() {
                        if q.color != p.color && pred_capt(q, s).contains(&q.square) {
                            ok &= v.c[j];
                        }
                    }
                }
                // Not self-capture rule.
                if let Some(j) = piece_on(s) {
                    if j != i && pieces[j].color == p.color {
                        ok &= v.c[j];
                    }
                }
                if ok {
                    v.m[i][s] = true;
                    changed = true;
                }
            }
        }
        // C variables: clearance rule.
        for (i, &p) in pieces.iter().enumerate() {
            if !v.c[i] {
                let moves = (0..64).any(|s| s != p.square && v.m[i][s]);
                let captured = pieces.iter().enumerate().any(|(j, q)| q.color != p.color && v.m[j][p.square]);
                if moves || captured {
                    v.c[i] = true;
                    changed = true;
                }
            }
        }
        // R variables: reachability rule.
        for s in 0..64 {
            for color in Color::ALL {
                if !v.r[s][color as usize]
                    && pieces.iter().enumerate().any(|(i, p)| p.color == color && p.role != Role::King && v.m[i][s])
                {
                    v.r[s][color as usize] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return (pieces, v);
        }
    }
}

fn assert_same(pos: &Position) {
    for rules in [Rules::Paper, Rules::FacingPawns] {
        assert_same_with(pos, rules);
    }
}

fn assert_same_with(pos: &Position, rules: Rules) {
    let mobility = Mobility::compute_with(pos, rules).unwrap();
    let (pieces, v) = naive(pos, rules);
    for (i, p) in pieces.iter().enumerate() {
        let square = Square::new(p.square as u32);
        let expected: movegen::Bitboard = (0..64).filter(|&s| v.m[i][s]).map(|s| Square::new(s as u32)).collect();
        assert_eq!(mobility.region(square), expected, "{rules:?}: region of {square} in {}", pos.to_fen());
        assert_eq!(mobility.can_be_cleared(square), v.c[i], "C of {square} in {}", pos.to_fen());
    }
    for color in Color::ALL {
        let expected: movegen::Bitboard =
            (0..64).filter(|&s| v.r[s][color as usize]).map(|s| Square::new(s as u32)).collect();
        assert_eq!(mobility.reachable(color), expected, "R[{color}] in {}", pos.to_fen());
    }
}

#[test]
fn equals_the_literal_fixpoint_on_test_positions() {
    let positions = eligible_positions();
    assert!(positions.len() > 9000, "{}", positions.len());
    // The literal version is slow (O(pieces^2 * 64) per sweep): every
    // dev-set and paper position, and a spread of the others.
    for (i, pos) in positions.iter().enumerate() {
        if i % 4 == 0 || pos.board().occupied().count() <= 16 {
            assert_same(pos);
        }
    }
}

#[test]
fn equals_the_literal_fixpoint_after_random_moves() {
    let positions = eligible_positions();
    let mut rng = Rng::new(11);
    for _ in 0..300 {
        let mut pos = positions[rng.below(positions.len())];
        for _ in 0..rng.below(40) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        if Mobility::compute(&pos).is_ok() {
            assert_same(&pos);
        }
    }
}

/// The own-pawn-behind rule where it may act: positions with a rook
/// confined to its file ahead of its pawn (rooks added ahead of their
/// pawns in the dev and hard positions, then random moves and edits),
/// both where the rule keeps the rook out and where the pawn can leave the
/// file or be captured. The literal fixpoint must agree on all of them.
#[test]
fn equals_the_literal_fixpoint_where_a_rook_is_confined_ahead_of_its_pawn() {
    let mut rng = Rng::new(23);
    let positions = common::rook_confined_positions(Rules::FacingPawns, 1_500, &mut rng);
    let mut kept_out = 0;
    for pos in &positions {
        assert_same(pos);
        let mobility = Mobility::compute_with(pos, Rules::FacingPawns).unwrap();
        kept_out += usize::from(common::own_pawn_guard_holds(pos, &mobility));
    }
    eprintln!("{} positions, the rule keeps a rook out in {kept_out}", positions.len());
    assert!(positions.len() >= 1_000 && kept_out >= 100, "{} {kept_out}", positions.len());
}
