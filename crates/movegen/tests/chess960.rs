//! Chess960 in the move generator: perft of the Chess Programming Wiki's
//! Chess960 positions (`testdata/chess960-perft.tsv`, published counts),
//! X-FEN and Shredder-FEN in and out, UCI in both conventions, SAN, the
//! set view, `gives_check`, the incremental hash and packing on every move
//! of random Chess960 games. The comparison with python-chess (counts and
//! move lists) is `cargo xtask perft --chess960`.

use movegen::{Castling, Color, Position, Setup, Square, chess960_start, random_chess960_positions};

const DATA: &str = include_str!("../../../testdata/chess960-perft.tsv");

fn cases() -> impl Iterator<Item = (Position, Vec<u64>)> {
    DATA.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()).map(|line| {
        let mut fields = line.split('\t');
        let fen = fields.next().unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.is_chess960(), !pos.castling_rights().is_empty(), "{fen}");
        (pos, fields.map(|n| n.trim().parse().unwrap()).collect())
    })
}

/// The published counts to depth 4 (bulk) and 3 (every move played).
#[test]
fn wiki_perft() {
    let mut n = 0;
    for (pos, counts) in cases() {
        for (depth, &expected) in (1..=4).zip(&counts) {
            assert_eq!(pos.perft(depth), expected, "{} depth {depth}", pos.to_fen());
        }
        for (depth, &expected) in (1..=3).zip(&counts) {
            assert_eq!(pos.perft_full(depth), expected, "{} full depth {depth}", pos.to_fen());
        }
        n += 1;
    }
    assert_eq!(n, 97);
}

/// Every legal move of `pos` in UCI (ours, both conventions) and SAN
/// round-trips; returns how many were castlings.
fn notation_round_trips(pos: &Position) -> usize {
    let mut castles = 0;
    for &m in &pos.legal_moves() {
        let uci = pos.to_uci(m);
        assert_eq!(pos.parse_uci(&uci), Ok(m), "{uci} in {}", pos.to_fen());
        assert_eq!(pos.parse_san(&pos.san(m)), Ok(m), "{} in {}", pos.san(m), pos.to_fen());
        if m.is_castle() {
            castles += 1;
            let castling = Castling::of_destination(pos.side_to_move(), m.to());
            let rook = castling.rook_from(pos.castling_files());
            assert_eq!(uci, format!("{}{rook}", m.from()), "Chess960 UCI is king takes rook");
            assert_eq!(pos.san(m).trim_end_matches(['+', '#']), if castling.king_side { "O-O" } else { "O-O-O" });
            // The king's-destination form: castling when the king moves two
            // squares or more (or lands where the rook stands: the same
            // text), the king's step (if any) otherwise.
            let standard_form = pos.parse_uci(&m.to_string());
            if m.from().distance(m.to()) >= 2 || rook == m.to() {
                assert_eq!(standard_form, Ok(m));
            } else {
                assert_ne!(standard_form, Ok(m));
            }
        }
    }
    castles
}

/// Every move of random Chess960 games from positions with castling
/// rights: the incremental hash, packing, the set view and notation.
#[test]
fn random_games() {
    let mut castles = 0;
    let mut positions = 0;
    let mut rng = 0x5eed_u64;
    for start in random_chess960_positions(3, 400) {
        let mut pos = start;
        for _ in 0..30 {
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.to_fen());
            let packed = pos.pack();
            assert_eq!(
                packed.unpack().to_fen().split(' ').take(4).collect::<Vec<_>>(),
                pos.to_fen().split(' ').take(4).collect::<Vec<_>>()
            );
            assert_eq!(packed.unpack().pack(), packed);
            assert_eq!(packed.unpack().is_chess960(), pos.is_chess960());
            // FEN round trips (X-FEN and Shredder-FEN), the variant with it
            // while rights remain.
            for fen in [pos.to_fen(), pos.to_shredder_fen()] {
                let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                assert_eq!(back, pos, "{fen}");
                assert_eq!(back.to_fen(), pos.to_fen());
                let again = Position::from_fen_chess960(&fen).unwrap();
                assert_eq!(again, pos, "{fen}");
                assert!(again.is_chess960());
            }
            let moves = pos.legal_moves();
            assert_eq!(pos.count_legal_moves() as usize, moves.len(), "{}", pos.to_fen());
            assert_eq!(pos.has_legal_moves(), !moves.is_empty(), "{}", pos.to_fen());
            let mut from_sets = Vec::new();
            pos.for_each_piece_moves(|pm| {
                pos.expand_piece_moves(pm, |m| from_sets.push(m));
                false
            });
            let mut sorted = moves.to_vec();
            sorted.sort();
            from_sets.sort();
            assert_eq!(from_sets, sorted, "set view {}", pos.to_fen());
            castles += notation_round_trips(&pos);
            positions += 1;
            if moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            pos = pos.play(moves[(rng % moves.len() as u64) as usize]);
        }
    }
    assert!(castles > 300 && positions > 8_000, "{castles} castlings in {positions} positions");
}

/// Standard chess has its own compiled path (corner rooks, the table of
/// squares that lose rights, no rooks' files): the same standard positions
/// played as Chess960 take the general one, and both must agree on every
/// move (the positions, hashes and rights after it, and the move lists),
/// along random games from the standard perft positions, and on perft.
#[test]
fn standard_path_agrees_with_the_general_path() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];
    let mut rng = 0x960_u64;
    let (mut castles, mut rights_lost) = (0, 0);
    for fen in fens {
        let standard = Position::from_fen(fen).unwrap();
        assert!(!standard.is_chess960());
        let general = standard.with_chess960(true);
        assert_eq!(standard.perft(3), general.perft(3), "{fen}");
        assert_eq!(standard.perft_full(3), general.perft_full(3), "{fen}");
        for _ in 0..200 {
            let (mut standard, mut general) = (standard, general);
            for _ in 0..40 {
                let moves = standard.legal_moves();
                assert_eq!(moves, general.legal_moves(), "{}", standard.to_fen());
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let m = moves[(rng % moves.len() as u64) as usize];
                castles += usize::from(m.is_castle());
                let before = standard.castling_rights();
                (standard, general) = (standard.play(m), general.play(m));
                rights_lost += usize::from(standard.castling_rights() != before);
                assert!(!standard.is_chess960() && general.is_chess960());
                assert_eq!(standard, general, "{m} in {}", standard.to_fen());
                assert_eq!(standard.hash(), general.hash(), "{m} in {}", standard.to_fen());
                assert_eq!(standard.hash(), standard.compute_hash(), "{m} in {}", standard.to_fen());
                assert_eq!(standard.castling_files(), movegen::CastlingFiles::STANDARD);
            }
        }
    }
    assert!(castles > 50 && rights_lost > 200, "{castles} castlings, {rights_lost} moves losing rights");
}

/// X-FEN and Shredder-FEN in, X-FEN out (as python-chess writes it).
#[test]
fn fen_forms() {
    // Start position 0 in three spellings.
    let xfen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    for fen in [xfen, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"] {
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.is_chess960());
        assert_eq!(pos.to_fen(), xfen);
        assert_eq!(pos.to_shredder_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
        assert_eq!(Setup::from_fen(fen).unwrap(), chess960_start(0).unwrap());
    }
    // Two rooks on one side: the inner one's right needs its letter.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/RR2K2R w BH - 0 1").unwrap();
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    assert_eq!(pos.castling_files().queen_side(), movegen::File::B);
    // Standard chess is read and written as always.
    let standard = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert!(!standard.is_chess960());
    assert_eq!(standard.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(standard.to_uci(standard.parse_uci("e1g1").unwrap()), "e1g1");
    assert_eq!(standard.with_chess960(true).to_uci(standard.parse_uci("e1g1").unwrap()), "e1h1");
    // A king off the e-file with KQ can only be Chess960 (X-FEN).
    let x = Position::from_fen("1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1").unwrap();
    assert!(x.is_chess960());
    assert_eq!(x.castling_files().queen_side(), movegen::File::B);
    // With the king on the e-file and a rook off the corner, Chess960 is
    // written with the letter so that it reads back the same.
    let e = Position::from_fen_chess960("4k3/8/8/8/8/8/8/1R2K1R1 w KQ - 0 1").unwrap();
    assert_eq!(e.to_fen(), "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1");
    assert_eq!(Position::from_fen(&e.to_fen()), Ok(e));
}

/// The Chess960 castling rules on positions that test each one.
#[test]
fn castling_rules() {
    let castles = |fen: &str| -> Vec<String> {
        let pos = Position::from_fen_chess960(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        pos.legal_moves().iter().filter(|m| m.is_castle()).map(|&m| pos.to_uci(m)).collect()
    };
    // King f1 and rook g1 swap; nothing else must be empty.
    assert_eq!(castles("4k3/8/8/8/8/8/8/4BKRB w K - 0 1"), ["f1g1"]);
    // King g1 stays, the rook h1 crosses it to f1, which must be empty.
    assert_eq!(castles("4k3/8/8/8/8/8/8/6KR w K - 0 1"), ["g1h1"]);
    assert!(castles("4k3/8/8/8/8/8/8/5NKR w K - 0 1").is_empty());
    // The rook's path may be attacked, the king's may not.
    assert_eq!(castles("4k3/8/8/8/8/8/8/RK6 w Q - 0 1"), ["b1a1"]);
    assert_eq!(castles("1r2k3/8/8/8/8/8/8/RK6 w Q - 0 1"), Vec::<String>::new(), "b1 in check");
    assert_eq!(castles("2r1k3/8/8/8/8/8/8/RK6 w Q - 0 1"), Vec::<String>::new(), "c1 attacked");
    assert_eq!(castles("3rk3/8/8/8/8/8/8/RK6 w Q - 0 1"), ["b1a1"], "d1 attacked: only the rook goes there");
    // The castling rook shielded the king's destination along the rank.
    assert!(castles("4k3/8/8/8/8/8/8/rR4K1 w Q - 0 1").is_empty());
    // The king's destination may be where the rook stands, the rook's
    // where the king stands (and both need the squares crossed empty).
    assert_eq!(castles("4k3/8/8/8/8/8/8/2RK4 w Q - 0 1"), ["d1c1"]);
    assert!(castles("4k3/8/8/8/8/8/8/2RKN3 w Q - 0 1").len() == 1);
    assert!(castles("4k3/8/8/8/8/8/8/R1NK4 w Q - 0 1").is_empty());
    // Castling as the only legal move: not a stalemate.
    let only = Position::from_fen("k7/8/8/8/p1p1p1p1/P1PpPpPp/3PpP1P/4B1KR w K - 0 1").unwrap();
    assert_eq!(only.legal_moves().len(), 1);
    assert!(only.has_legal_moves() && !only.is_stalemate() && only.count_legal_moves() == 1);
    let pos = Position::from_fen_chess960("4k3/8/8/8/8/8/8/RK6 w Q - 0 1").unwrap();
    let after = pos.play(pos.parse_uci("b1a1").unwrap());
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    assert_eq!(after.board().piece_at(Square::C1).map(|p| p.color), Some(Color::White));
}
