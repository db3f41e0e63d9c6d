//! Each kind of certificate on positions whose answer is known (the
//! paper's Position 1, textbook mates and stalemates), accepted, and the
//! same certificates with one fact wrong, rejected with the failed step.

use check::{Limits, Outcome, check_record};

fn outcome(fen: &str, winner: &str, verdict: &str, certificate: &str) -> Outcome {
    let record = format!(r#"{{"fen":"{fen}","winner":"{winner}","verdict":"{verdict}","certificate":{certificate}}}"#);
    check_record(&record, &Limits::default())
}

fn rejected(outcome: Outcome, step: &str) {
    match outcome {
        Outcome::Rejected(why) => assert!(why.contains(step), "rejected for {why:?}, expected {step:?}"),
        other => panic!("{other:?}, expected a rejection for {step:?}"),
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn helpmates() {
    let fools_mate = r#"{"version":1,"kind":"helpmate","moves":["f2f3","e7e5","g2g4","d8h4"]}"#;
    assert_eq!(outcome(START, "black", "winnable", fools_mate), Outcome::Accepted);
    rejected(outcome(START, "white", "winnable", fools_mate), "does not end in a mate by the winner");
    let short = r#"{"version":1,"kind":"helpmate","moves":["f2f3","e7e5","g2g4"]}"#;
    rejected(outcome(START, "black", "winnable", short), "does not end in a mate");
    let sloppy = r#"{"version":1,"kind":"helpmate","moves":["f2f3","e7e5","g2g4q","d8h4"]}"#;
    rejected(outcome(START, "black", "winnable", sloppy), "helpmate move 3");
    let illegal = r#"{"version":1,"kind":"helpmate","moves":["f2f3","e7e5","g2g5","d8h4"]}"#;
    rejected(outcome(START, "black", "winnable", illegal), "helpmate move 3");
    // Castling written as the king's two-square move is read as castling:
    // the rook then stands on f1 and checks from f8, which is no mate.
    let castles = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let line = r#"{"version":1,"kind":"helpmate","moves":["e1g1","e8d8","f1f8"]}"#;
    rejected(outcome(castles, "white", "winnable", line), "does not end in a mate");
    let no_right = r#"{"version":1,"kind":"helpmate","moves":["e1g1"]}"#;
    rejected(outcome("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "white", "winnable", no_right), "helpmate move 1");
    let mate = "3k4/3P4/3K4/8/8/8/8/7R w - - 0 1";
    let rook_mate = r#"{"version":1,"kind":"helpmate","moves":["h1h8"]}"#;
    assert_eq!(outcome(mate, "white", "winnable", rook_mate), Outcome::Accepted);
    rejected(outcome(mate, "white", "unwinnable", rook_mate), "does not prove unwinnability");
    rejected(outcome(mate, "white", "winnable", r#"{"version":1,"kind":"over"}"#), "needs a helpmate");
}

#[test]
fn games_already_over() {
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    for winner in ["white", "black"] {
        assert_eq!(outcome(stalemate, winner, "unwinnable", r#"{"version":1,"kind":"over"}"#), Outcome::Accepted);
    }
    // Mated: unwinnable for the loser, and the claim for the mating side
    // is refuted by the position itself.
    let mated = "6Qk/5K2/8/8/8/8/8/8 b - - 0 1";
    assert_eq!(outcome(mated, "black", "unwinnable", r#"{"version":1,"kind":"over"}"#), Outcome::Accepted);
    rejected(
        outcome(mated, "white", "unwinnable", r#"{"version":1,"kind":"over"}"#),
        "already checkmate by the winner",
    );
    rejected(outcome(START, "white", "unwinnable", r#"{"version":1,"kind":"over"}"#), "has a legal move");
}

#[test]
fn material() {
    let cert =
        |rule: &str, pieces: &str| format!(r#"{{"version":1,"kind":"material","rule":"{rule}","pieces":"{pieces}"}}"#);
    let bishop = "8/8/4k3/8/2q5/8/1B6/4K3 w - - 0 1";
    assert_eq!(outcome(bishop, "white", "unwinnable", &cert("lemma-6", "b2")), Outcome::Accepted);
    rejected(outcome(bishop, "white", "unwinnable", &cert("lemma-5", "b2")), "does not hold");
    rejected(outcome(bishop, "white", "unwinnable", &cert("lemma-6", "")), "the winner's pieces are [b2]");
    rejected(outcome(bishop, "black", "unwinnable", &cert("lemma-6", "c4")), "does not hold");
    // A bishop of the other colour for Black: Lemma 6 no longer applies.
    rejected(
        outcome("8/8/4k3/8/2q5/8/1B6/4Kb2 w - - 0 1", "white", "unwinnable", &cert("lemma-6", "b2")),
        "does not hold",
    );
    let knight = "8/8/4k3/8/2q5/8/1N6/4K3 w - - 0 1";
    assert_eq!(outcome(knight, "white", "unwinnable", &cert("lemma-5", "b2")), Outcome::Accepted);
    rejected(
        outcome("8/8/4k3/8/2r5/8/1N6/4K3 w - - 0 1", "white", "unwinnable", &cert("lemma-5", "b2")),
        "does not hold",
    );
    let lone = "8/8/4k3/8/8/8/1N6/4K3 w - - 0 1";
    assert_eq!(outcome(lone, "black", "unwinnable", &cert("lone-king", "")), Outcome::Accepted);
    rejected(
        outcome("8/8/4k3/8/8/8/1P6/4K3 w - - 0 1", "white", "unwinnable", &cert("lemma-5", "b2")),
        "does not hold",
    );
}

#[test]
fn forced_lines() {
    // Each side has one legal move, and the line comes back (dev set).
    let fen = "8/6p1/1p3pP1/1P3Ppk/1Pp3p1/KpP3P1/1P6/8 w - -";
    let forced = |moves: &str, then: &str| {
        format!(r#"{{"version":1,"kind":"forced","moves":[{moves}],"then":{{"kind":"{then}"}}}}"#)
    };
    let cycle = r#""a3a4","h5h6","a4a3","h6h5""#;
    assert_eq!(outcome(fen, "white", "unwinnable", &forced(cycle, "repeats")), Outcome::Accepted);
    rejected(outcome(fen, "white", "unwinnable", &forced(r#""a3a4","h5h6","a4a3""#, "repeats")), "does not come back");
    rejected(outcome(fen, "white", "unwinnable", &forced(cycle, "over")), "has a legal move");
    rejected(outcome(fen, "white", "unwinnable", r#"{"version":1,"kind":"repeats"}"#), "does not come back");
    // A move that is legal but not the only one.
    rejected(outcome(START, "white", "unwinnable", &forced(r#""e2e4""#, "over")), "is one of 20 legal moves");
}

/// The paper's Position 1, dead: the certificates the command writes for
/// both colours, accepted; the same with a fact removed or changed,
/// rejected at the step that no longer holds.
#[test]
fn static_position_1() {
    let fen = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54";
    let frozen = "d4 f4 h4 a5 c5 d5 f5 g5 h5 a6 b6 c6 g6 b7";
    let regions = r#""c4":"0000000255aa55aa","e3":"000000000255aa55","f3":"0000000003ffffff","f7":"fff8100000000000""#;
    let white = format!(r#"{{"version":1,"kind":"static","frozen":"{frozen}","regions":{{{regions}}}}}"#);
    assert_eq!(outcome(fen, "white", "unwinnable", &white), Outcome::Accepted);
    // The pawns need not be frozen: no enemy region reaches them, so they
    // are fixed anyway, and blocked.
    let loose = format!(r#"{{"version":1,"kind":"static","regions":{{{regions}}}}}"#);
    assert_eq!(outcome(fen, "white", "unwinnable", &loose), Outcome::Accepted);
    // Freezing the bishop, which has moves, is refused.
    let bishop = white.replace("b7\"", "b7 c4\"");
    rejected(outcome(fen, "white", "unwinnable", &bishop), "frozen");
    // The black king's region without e6: the closure fails.
    let small = white.replace("fff8100000000000", "fff8000000000000");
    rejected(outcome(fen, "white", "unwinnable", &small), "the region of f7 lacks e6");
    // A square added to the white king's region brings its neighbours
    // with it: the closure fails.
    let reach = white.replace("0000000003ffffff", "0000100003ffffff");
    rejected(outcome(fen, "white", "unwinnable", &reach), "lacks");
    // The same certificate does not prove Black unable to mate.
    rejected(outcome(fen, "black", "unwinnable", &white), "static");
    let escapes = r#""escapes":{"a2":"a1 b2","a4":"a3 b4","b1":"a1 c1","b3":"b2 a3","c2":"b1 d1","d1":"c1 e1","d3":"d2 c3","e2":"d1 f1","f1":"e1 g1","f3":"f2 e3","g2":"f1 h1","h1":"g1 h2","h3":"h2 g3"}"#;
    let black = format!(r#"{{"version":1,"kind":"static","frozen":"{frozen}","regions":{{{regions}}},{escapes}}}"#);
    assert_eq!(outcome(fen, "black", "unwinnable", &black), Outcome::Accepted);
    // One escape too few: on a2, a1 and b2 can be guarded one at a time.
    let one = black.replace(r#""a2":"a1 b2""#, r#""a2":"a1""#);
    rejected(outcome(fen, "black", "unwinnable", &one), "on a2, the squares a1 can all be guarded");
    let missing = black.replace(r#""a2":"a1 b2","#, "");
    rejected(outcome(fen, "black", "unwinnable", &missing), "cannot be mated on a2");
}

#[test]
fn malformed_and_unsupported() {
    rejected(outcome(START, "white", "unwinnable", r#"{"version":2,"kind":"over"}"#), "version 2");
    rejected(outcome(START, "white", "unwinnable", r#"{"kind":"over"}"#), "no version");
    rejected(outcome(START, "white", "unwinnable", r#"{"version":1,"kind":"magic"}"#), "malformed");
    rejected(
        outcome(START, "white", "unwinnable", r#"{"version":1,"kind":"none","why":"later"}"#),
        "not certified: later",
    );
    rejected(outcome("8/8/8/8 w - -", "white", "unwinnable", r#"{"version":1,"kind":"over"}"#), "FEN");
    rejected(outcome(START, "green", "unwinnable", r#"{"version":1,"kind":"over"}"#), "not a colour");
    assert_eq!(check_record("[1,2]", &Limits::default()), Outcome::Rejected("the line is not a JSON object".into()));
    assert!(matches!(check_record(r#"{"line":1,"input":"x","error":"bad"}"#, &Limits::default()), Outcome::Skipped(_)));
    let undetermined = format!(r#"{{"fen":"{START}","winner":"white","verdict":"undetermined"}}"#);
    assert!(matches!(check_record(&undetermined, &Limits::default()), Outcome::Skipped(_)));
    let bare = format!(r#"{{"fen":"{START}","winner":"white","verdict":"winnable"}}"#);
    assert_eq!(check_record(&bare, &Limits::default()), Outcome::Rejected("the record has no certificate".into()));
}

/// Closures: the forced cycle of the dev set has four reachable
/// positions, none a mate; a bound below that, or above the budget, is
/// rejected; a position where the winner can mate is rejected when the
/// enumeration meets the mate; a cut's own proof must hold.
#[test]
fn closures() {
    let cycle = "8/6p1/1p3pP1/1P3Ppk/1Pp3p1/KpP3P1/1P6/8 w - -";
    let closure =
        |bound: u64, cuts: &str| format!(r#"{{"version":1,"kind":"closure","bound":{bound},"cuts":[{cuts}]}}"#);
    assert_eq!(outcome(cycle, "white", "unwinnable", &closure(4, "")), Outcome::Accepted);
    rejected(outcome(cycle, "white", "unwinnable", &closure(3, "")), "more than the bound of 3");
    let limits = Limits { max_positions: 3 };
    let record =
        format!(r#"{{"fen":"{cycle}","winner":"white","verdict":"unwinnable","certificate":{}}}"#, closure(4, ""));
    assert!(matches!(check_record(&record, &limits), Outcome::Rejected(why) if why.contains("exceeds")));
    // The position after Ka4 as a cut, proved by the cycle from there.
    let after = "8/6p1/1p3pP1/1P3Ppk/KPp3p1/1pP3P1/1P6/8 b - -";
    let cut = format!(
        r#"{{"fen":"{after}","proof":{{"kind":"forced","moves":["h5h6","a4a3","h6h5","a3a4"],"then":{{"kind":"repeats"}}}}}}"#
    );
    assert_eq!(outcome(cycle, "white", "unwinnable", &closure(2, &cut)), Outcome::Accepted);
    let wrong = cut.replace("\"repeats\"", "\"over\"");
    rejected(outcome(cycle, "white", "unwinnable", &closure(2, &wrong)), "closure: the cut");
    // White mates at once here (Qg7#), and the enumeration meets it.
    let alive = "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1";
    rejected(outcome(alive, "white", "unwinnable", &closure(1_000_000, "")), "a mate by the winner");
}

/// Chess960: X-FEN and Shredder-FEN read alike, castling as the king taking
/// its rook (the king's two-square form only onto g or c), and static
/// certificates of positions with Chess960 rights rejected as not certified
/// (their closure argument covers standard castling only).
#[test]
fn chess960() {
    // King b1, rook a1: O-O-O puts the king on c1 and the rook on d1, from
    // where it mates the king on d8 (boxed by its own rooks and pawns).
    for fen in ["2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1", "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1"] {
        let castle_mate = r#"{"version":1,"kind":"helpmate","moves":["b1a1"]}"#;
        assert_eq!(outcome(fen, "white", "winnable", castle_mate), Outcome::Accepted, "{fen}");
        // b1c1 is the king's step, no castling, and no mate.
        let step = r#"{"version":1,"kind":"helpmate","moves":["b1c1"]}"#;
        rejected(outcome(fen, "white", "winnable", step), "does not end in a mate");
        // b1d1 is no castling (the king goes to c1), and no legal move.
        let two = r#"{"version":1,"kind":"helpmate","moves":["b1d1"]}"#;
        rejected(outcome(fen, "white", "winnable", two), "helpmate move 1");
    }
    // A static certificate is refused as not certified with Chess960
    // rights, before anything else is looked at.
    let locked = "k7/8/8/8/p1p1p1p1/P1PpPpPp/3PpP1P/4B1KR w K - 0 1";
    let proof = r#"{"version":1,"kind":"static","regions":{},"never_captured":"","frozen":"","escapes":{}}"#;
    rejected(
        outcome(locked, "white", "unwinnable", proof),
        "not certified: a static certificate of a position with Chess960",
    );
}

/// A record's fields are read in one pass: a field of the wrong type is
/// named, and the label comes from the record's own `line` and `winner`.
#[test]
fn malformed_fields_are_named_and_labels_read_from_the_record() {
    let limits = Limits::default();
    let outcome = check_record(
        r#"{"line":"x","fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1","winner":"white","verdict":"unwinnable"}"#,
        &limits,
    );
    assert!(matches!(&outcome, Outcome::Rejected(why) if why.starts_with("the record is malformed")), "{outcome:?}");
    let records = concat!(
        r#"{"line":7,"fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1","winner":"black","verdict":"undetermined"}"#,
        "\n",
        r#"{"fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1","verdict":"undetermined"}"#,
        "\n"
    );
    let mut out = Vec::new();
    check::run(records.as_bytes(), &mut out, &limits).unwrap();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, ["line 7 black: skipped: an undetermined verdict", "line 2: skipped: an undetermined verdict"]);
}
