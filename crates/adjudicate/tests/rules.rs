//! Every rule on the hand-written games of `testdata/pgn/`. The expected
//! values come from the FIDE Laws and the positions (worked out by hand in
//! the comments), and for the timeouts from the labels of
//! `testdata/paper-positions.tsv`; each game is adjudicated both with the
//! single-game defaults (dead-position check after every ply) and with the
//! batch defaults (check where the game ended, then backwards).

use adjudicate::pgn::Reader;
use adjudicate::{Adjudication, Adjudicator, ClaimKind, Evidence, Game, Options, Outcome, Rule, Termination};
use movegen::{Color, Position};

fn read(name: &str) -> Vec<Game> {
    let path = format!("{}/../../testdata/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Reader::new(&bytes[..]).map(|game| game.unwrap_or_else(|e| panic!("{name}: {e}")).game).collect()
}

/// The adjudication of `game` under both option sets, which must agree.
fn judge(game: &Game) -> Adjudication {
    let single = Adjudicator::new(Options::default()).adjudicate(game);
    let batch = Adjudicator::new(Options::batch()).adjudicate(game);
    assert_eq!(single, batch, "{}: every-ply and batch disagree", game.id);
    single
}

fn by_id(games: &[Game], id: &str) -> Adjudication {
    judge(games.iter().find(|g| g.id == id).unwrap_or_else(|| panic!("no game {id}")))
}

#[track_caller]
fn expect(ruling: &Adjudication, correct: Outcome, rule: Rule, ply: usize, void: usize) {
    assert_eq!((ruling.correct, ruling.rule, ruling.ply, ruling.void_moves), (correct, rule, ply, void), "{ruling}");
    assert_eq!(ruling.explanation.article, rule.article());
}

#[test]
fn checkmate_5_1_1() {
    let games = read("checkmate.pgn");
    let fools = by_id(&games, "test:checkmate-fools-mate");
    expect(&fools, Outcome::BlackWins, Rule::Checkmate, 4, 0);
    assert!(fools.is_wrong());
    assert_eq!(fools.fen(), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let scholars = by_id(&games, "test:checkmate-scholars-mate");
    expect(&scholars, Outcome::WhiteWins, Rule::Checkmate, 7, 0);
    assert!(!scholars.is_wrong());
    expect(&by_id(&games, "test:checkmate-unfinished"), Outcome::WhiteWins, Rule::Checkmate, 5, 0);
    // A mate ends the game: a later flag fall does not count (Art. 6.9
    // applies "except where 5.1.1 ... applies").
    let flag = by_id(&games, "test:checkmate-then-flag");
    expect(&flag, Outcome::WhiteWins, Rule::Checkmate, 7, 0);
    assert!(flag.is_wrong());
}

#[test]
fn stalemate_5_2_1() {
    let games = read("stalemate.pgn");
    let ruling = judge(&games[0]);
    expect(&ruling, Outcome::Draw, Rule::Stalemate, 19, 0);
    assert!(ruling.is_wrong());
}

#[test]
fn dead_position_5_2_2_ends_the_game_and_voids_later_moves() {
    let games = read("dead.pgn");
    // 1. Kxd2 leaves king and bishop against king.
    let bishop = by_id(&games, "test:dead-bishop");
    expect(&bishop, Outcome::Draw, Rule::DeadPosition, 1, 4);
    assert!(bishop.is_wrong());
    assert_eq!(bishop.fen(), "4k3/8/8/8/8/8/3K4/5B2 b - - 0 1");
    let Evidence::Unwinnable { proofs, .. } = &bishop.explanation.evidence else { panic!("{bishop}") };
    assert_eq!(proofs.iter().map(|p| p.color).collect::<Vec<_>>(), [Color::White, Color::Black]);
    // 3...Kxd5 (ply 6) leaves bare kings; the agreed draw is right, but the
    // game ended earlier, by rule.
    let kings = by_id(&games, "test:dead-bare-kings");
    expect(&kings, Outcome::Draw, Rule::DeadPosition, 6, 2);
    assert!(!kings.is_wrong());
    // Position 1 of the paper is dead from the start: the five moves and
    // the resignation after it are void.
    let blocked = by_id(&games, "test:dead-blocked");
    expect(&blocked, Outcome::Draw, Rule::DeadPosition, 0, 5);
    assert!(blocked.is_wrong());
}

/// `testdata/paper-positions.tsv`: id -> (White can mate, Black can mate).
fn labels() -> Vec<(String, bool, bool)> {
    let text = include_str!("../../../testdata/paper-positions.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            let label = fields[1].as_bytes();
            (fields[0].to_string(), label[0] == b'W', label[1] == b'B')
        })
        .collect()
}

#[test]
fn timeout_6_9_in_the_papers_positions() {
    let games = read("timeout-paper.pgn");
    let labels = labels();
    assert_eq!(games.len(), 22);
    for game in &games {
        // "test:paper-<id>-<colour>-flagged"
        let parts: Vec<&str> = game.id.split('-').collect();
        let (id, flagged) = (parts[1], if parts[2] == "white" { Color::White } else { Color::Black });
        let &(_, white, black) = labels.iter().find(|(i, _, _)| i == id).expect("labelled");
        let can_mate = |color: Color| if color == Color::White { white } else { black };
        let ruling = judge(game);
        let opponent = !flagged;
        if !white && !black {
            // Dead from the start: the game was over before the flag fell.
            expect(&ruling, Outcome::Draw, Rule::DeadPosition, 0, 0);
        } else if can_mate(opponent) {
            expect(&ruling, Outcome::win(opponent), Rule::Timeout, 0, 0);
            let Evidence::Helpmate { moves, .. } = &ruling.explanation.evidence else { panic!("{ruling}") };
            search::replay(game.start(), opponent, moves).unwrap_or_else(|e| panic!("{}: {e}", game.id));
        } else {
            expect(&ruling, Outcome::Draw, Rule::Timeout, 0, 0);
            assert!(
                matches!(&ruling.explanation.evidence, Evidence::Unwinnable { proofs, .. } if proofs[0].color == opponent)
            );
        }
    }
}

#[test]
fn timeout_6_9_in_online_games() {
    let games = read("timeout.pgn");
    // White flagged at move 3 with plenty of material on the board for Black.
    let ruling = judge(&games[0]);
    expect(&ruling, Outcome::BlackWins, Rule::Timeout, 5, 0);
    assert!(ruling.explanation.text.starts_with("white ran out of time"));
    let Evidence::Helpmate { moves, san, .. } = &ruling.explanation.evidence else { panic!("{ruling}") };
    let final_position: Position = ruling.fen().parse().unwrap();
    search::replay(&final_position, Color::Black, moves).unwrap();
    assert!(san.starts_with("3..."), "{san}");
    // A draw recorded on a flag fall: the side to move (White) flagged and
    // Black has a lone king.
    expect(&judge(&games[1]), Outcome::Draw, Rule::Timeout, 2, 0);
    // Recorded as a White win on Black's flag, but with a lone knight
    // against a lone king neither side can mate (Lemma 5): the position is
    // dead, and was before the flag fell.
    let knight = judge(&games[2]);
    expect(&knight, Outcome::Draw, Rule::DeadPosition, 0, 0);
    assert!(knight.is_wrong());
    expect(&judge(&games[3]), Outcome::WhiteWins, Rule::Checkmate, 7, 0);
}

#[test]
fn timeout_flag_given_by_the_caller() {
    // Paper Position 20 (White to move): if White flagged, Black cannot win.
    let fen = "8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38";
    let game = Game::new(fen.parse().unwrap(), Vec::new(), Outcome::BlackWins).unwrap();
    assert_eq!(judge(&game).rule, Rule::Recorded);
    let white = game.clone().with_timeout(Some(Color::White));
    assert_eq!(white.termination, Termination::TimeForfeit { flagged: Some(Color::White) });
    expect(&judge(&white), Outcome::Draw, Rule::Timeout, 0, 0);
    expect(&judge(&game.with_timeout(Some(Color::Black))), Outcome::WhiteWins, Rule::Timeout, 0, 0);
}

#[test]
fn threefold_9_2_is_claimable_only() {
    let games = read("repetition.pgn");
    let ruling = by_id(&games, "test:threefold");
    // The start position appears at plies 0, 4 and 8; Black could claim at
    // ply 7 by writing 4...Ng8 (Art. 9.2.1.1).
    expect(&ruling, Outcome::Draw, Rule::Recorded, 8, 0);
    let claim = ruling.claims.threefold.expect("claimable");
    assert_eq!((claim.ply, claim.by), (7, Color::Black));
    assert!(matches!(claim.kind, ClaimKind::ByMove(m) if m.to_string() == "f6g8"));
    assert_eq!(ruling.claims.fifty_moves, None);
}

#[test]
fn fivefold_9_6_1_ends_the_game() {
    let games = read("repetition.pgn");
    // The start position for the fifth time at ply 16; the seven plies
    // after it, mate included, are void.
    let ruling = by_id(&games, "test:fivefold");
    expect(&ruling, Outcome::Draw, Rule::FivefoldRepetition, 16, 7);
    assert_eq!(ruling.explanation.evidence, Evidence::Repetition { plies: vec![0, 4, 8, 12, 16] });
    assert!(ruling.is_wrong());
}

#[test]
fn position_identity_9_2_3_en_passant_counts_only_when_legal() {
    let games = read("repetition.pgn");
    // After 1. d4 exd3 e.p. is legal: that position (ply 1) differs from its
    // later repetitions (plies 5, 9, 13, 17), which occur only four times.
    // The first position to appear five times is the one after 1...Kd7:
    // plies 2, 6, 10, 14, 18.
    let legal = by_id(&games, "test:ep-legal");
    expect(&legal, Outcome::Draw, Rule::FivefoldRepetition, 18, 1);
    assert_eq!(legal.explanation.evidence, Evidence::Repetition { plies: vec![2, 6, 10, 14, 18] });
    // Same moves, but exd3 e.p. would expose the black king on a4 to the
    // rook on h4: the recorded en passant square does not make a different
    // position, and the position after 1. d4 is the first to appear five
    // times: plies 1, 5, 9, 13, 17.
    let pinned = by_id(&games, "test:ep-pinned");
    expect(&pinned, Outcome::Draw, Rule::FivefoldRepetition, 17, 2);
    assert_eq!(pinned.explanation.evidence, Evidence::Repetition { plies: vec![1, 5, 9, 13, 17] });
    let after_d4 = game_position(&games, "test:ep-pinned", 1);
    assert!(after_d4.ep_square().is_some() && after_d4.legal_ep_square().is_none());
}

fn game_position(games: &[Game], id: &str, ply: usize) -> Position {
    games.iter().find(|g| g.id == id).unwrap().positions()[ply]
}

#[test]
fn position_identity_9_2_3_castling_rights() {
    let games = read("repetition.pgn");
    // The start placement recurs at plies 4, 8, 12, 16, but at ply 0 both
    // sides could still castle: not the same position. Without rights, the
    // position after 1...Rg8 (ply 2) is the first to appear five times.
    let ruling = by_id(&games, "test:fivefold-castling");
    expect(&ruling, Outcome::Draw, Rule::FivefoldRepetition, 18, 1);
    assert_eq!(ruling.explanation.evidence, Evidence::Repetition { plies: vec![2, 6, 10, 14, 18] });
}

#[test]
fn seventy_five_moves_9_6_2_and_mate_on_the_last_move() {
    let games = read("move-count.pgn");
    // The 150th ply without capture or pawn move is a mate: it stands.
    let mate = by_id(&games, "test:75-moves-mate");
    expect(&mate, Outcome::WhiteWins, Rule::Checkmate, 1, 0);
    assert!(!mate.is_wrong());
    // The 150th ply is not a mate: drawn at once; the mate after is void.
    let draw = by_id(&games, "test:75-moves-draw");
    expect(&draw, Outcome::Draw, Rule::SeventyFiveMoves, 1, 2);
    assert_eq!(draw.explanation.evidence, Evidence::HalfmoveClock(150));
    assert!(draw.is_wrong());
}

#[test]
fn fifty_moves_9_3_is_claimable_only() {
    let games = read("move-count.pgn");
    let ruling = by_id(&games, "test:50-moves");
    // The clock is at 99 at ply 2: White may claim by writing a move that
    // is neither a capture nor a pawn move (Art. 9.3.1).
    expect(&ruling, Outcome::Draw, Rule::Recorded, 4, 0);
    let claim = ruling.claims.fifty_moves.expect("claimable");
    assert_eq!((claim.ply, claim.by), (2, Color::White));
    assert!(matches!(claim.kind, ClaimKind::ByMove(_)));
    // Also on the 75-move game: at ply 0 the clock is 149.
    let draw = by_id(&games, "test:75-moves-draw");
    let claim = draw.claims.fifty_moves.expect("claimable");
    assert_eq!((claim.ply, claim.kind), (0, ClaimKind::InPosition));
}

#[test]
fn proofs_after_forced_moves_say_so() {
    // Black flagged; White's queen on b8 is about to be taken (Kxb8 is
    // Black's only move), so White cannot mate: a draw, and the explanation
    // says the lone king comes after the forced move.
    let game = Game::new("kQ6/8/8/4p1p1/p2p4/8/8/7K b - - 0 65".parse().unwrap(), Vec::new(), Outcome::WhiteWins)
        .unwrap()
        .with_timeout(None);
    let ruling = judge(&game);
    expect(&ruling, Outcome::Draw, Rule::Timeout, 0, 0);
    let Evidence::Unwinnable { proofs, .. } = &ruling.explanation.evidence else { panic!("{ruling}") };
    assert_eq!(proofs[0].forced_line, "65...Kxb8");
    assert!(
        ruling
            .explanation
            .to_string()
            .contains("white cannot mate: after the forced move 65...Kxb8, the intended winner"),
        "{ruling}"
    );
}

#[test]
fn recorded_results_stand_when_no_rule_applies() {
    // A resignation in a live position.
    let start = Position::start();
    let e4 = start.parse_san("e4").unwrap();
    let game = Game::new(start, vec![e4], Outcome::WhiteWins).unwrap();
    let ruling = judge(&game);
    expect(&ruling, Outcome::WhiteWins, Rule::Recorded, 1, 0);
    assert!(!ruling.is_wrong());
    // An unfinished game stays unfinished, and is not "wrong".
    let ruling = judge(&Game::new(start, vec![e4], Outcome::Unknown).unwrap());
    assert_eq!(ruling.correct, Outcome::Unknown);
    assert!(!ruling.is_wrong());
}
