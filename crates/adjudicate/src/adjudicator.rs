//! [`Adjudicator`]: replays a game ply by ply, applies the rules of
//! [`rules`](crate::rules) in the order the Laws give them, and builds the
//! [`Adjudication`].
//!
//! # Order of the rules
//!
//! The game ends at the first ply where one of these holds (at one ply, in
//! this order): checkmate (5.1.1; it takes precedence over the
//! seventy-five-move rule, 9.6.2), stalemate (5.2.1), dead position
//! (5.2.2), fivefold repetition (9.6.1), seventy-five moves (9.6.2). Moves
//! recorded after that ply are void. If none holds, the recorded
//! termination decides: a timeout is ruled by Art. 6.9 on the final
//! position, anything else (resignation, agreement, claim, unfinished game)
//! stands as recorded. Threefold repetition and the fifty-move rule only
//! make a draw *claimable* (9.2, 9.3): the first ply where a claim was
//! possible is recorded in [`Claims`], the result does not change.
//!
//! # Which analysis runs where (the documented default)
//!
//! * Timeouts: the **full** algorithm (sound and complete within its
//!   limits) on the final position, for the opponent of the flagged player
//!   (the player named by [`Termination::TimeForfeit`], else the loser of a
//!   decisive recorded result, else the side to move). A helpmate keeps the
//!   loss; a proof makes a draw, and then the flagged player is analysed
//!   too: if neither can mate, the position is dead (the quick check missed
//!   it) and the first dead ply is searched backwards with the full
//!   algorithm. A spent budget leaves the result undecided (`*`).
//! * Other games end where the recorded moves end; only the dead-position
//!   check below runs on them (no full search).
//! * Dead positions: the **quick** algorithm (sound, not complete), for
//!   both colours. With [`Options::every_ply`] it runs after every ply
//!   (on by default, for the single-game API); without it (the batch
//!   default of the command, for speed) it runs on the position where the
//!   game ended and, if that is dead, backwards ply by ply to the first
//!   position proved dead. Because deadness is monotone along a game (see
//!   [`rules::dead`](crate::rules::dead)), both find the same first dead
//!   ply whenever the quick algorithm's proofs are themselves monotone
//!   (material and blocked-pawn proofs are); `every_ply` is the literal
//!   reading of Art. 5.2.2.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use movegen::{Color, Position};
use search::{Analyzer, Config, Mode};

use crate::adjudication::{Adjudication, Claim, ClaimKind, Claims, ColorProof, Evidence, Explanation, Rule};
use crate::game::{Game, Outcome, Termination};
use crate::rules::dead::{DeadProof, dead};
use crate::rules::move_count::{fifty_move_claim_by_move, fifty_moves_completed, seventy_five_moves};
use crate::rules::repetition::{Repetitions, fivefold, threefold};
use crate::rules::timeout::{TimeoutRuling, timeout};

/// Which analyses run (see the module documentation for the defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Check for a dead position after every ply (quick algorithm). Off:
    /// only where the game ended, then backwards.
    pub every_ply: bool,
    /// The configuration of the dead-position checks (quick mode).
    pub dead: Config,
    /// The configuration of the timeout analysis (full mode).
    pub timeout: Config,
}

impl Default for Options {
    /// The single-game default: `every_ply` on.
    fn default() -> Options {
        Options { every_ply: true, dead: Config { mode: Mode::Quick, ..Config::default() }, timeout: Config::default() }
    }
}

impl Options {
    /// The batch default: `every_ply` off.
    pub fn batch() -> Options {
        Options { every_ply: false, ..Options::default() }
    }
}

/// How the game ended on the board, if it did before its last ply.
struct End {
    ply: usize,
    rule: Rule,
    evidence: Evidence,
}

/// Adjudicates games; keeps its analyzers (and their tables) between games.
#[derive(Debug)]
pub struct Adjudicator {
    options: Options,
    quick: Analyzer,
    /// Allocated at the first timeout (its table is large).
    full: Option<Analyzer>,
    repetitions: Repetitions,
    /// Given to both analyzers (see [`Adjudicator::set_stop_flag`]).
    stop_flag: Option<Arc<AtomicBool>>,
}

impl Adjudicator {
    /// An adjudicator with `options`.
    pub fn new(options: Options) -> Adjudicator {
        Adjudicator {
            options,
            quick: Analyzer::new(options.dead),
            full: None,
            repetitions: Repetitions::new(),
            stop_flag: None,
        }
    }

    /// Shares a flag that stops the analyses of this adjudicator soon after
    /// it is raised (see [`Analyzer::set_stop_flag`]): a stopped timeout
    /// analysis leaves the result undecided, never changed.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.quick.set_stop_flag(Arc::clone(&flag));
        if let Some(full) = &mut self.full {
            full.set_stop_flag(Arc::clone(&flag));
        }
        self.stop_flag = Some(flag);
    }

    /// Replaces the analyzers with fresh ones (same options, same stop
    /// flag): after an analysis panicked, their tables may be half-updated.
    pub fn reset(&mut self) {
        // The full analyzer is made again when it is next needed, with the
        // stop flag (as at first).
        self.quick.reset();
        self.full = None;
        self.repetitions = Repetitions::new();
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The correct result of `game` under the FIDE Laws.
    pub fn adjudicate(&mut self, game: &Game) -> Adjudication {
        let moves = game.moves();
        let positions = game.positions();
        let last = moves.len();
        let mut claims = Claims::default();
        let mut end: Option<End> = None;
        self.repetitions.clear();
        for ply in 0..=last {
            let pos = positions[ply];
            if ply > 0 {
                let (before, m) = (&positions[ply - 1], moves[ply - 1]);
                if before.is_irreversible(m) {
                    self.repetitions.clear();
                }
            }
            let count = self.repetitions.push(&pos, ply);
            let by = pos.side_to_move();
            if claims.threefold.is_none() && threefold(count) {
                claims.threefold = Some(Claim { ply, by, kind: ClaimKind::InPosition });
            }
            if claims.fifty_moves.is_none() && fifty_moves_completed(&pos) {
                claims.fifty_moves = Some(Claim { ply, by, kind: ClaimKind::InPosition });
            }
            // A position followed by a recorded (legal) move has a legal move.
            if ply == last && !pos.has_legal_moves() {
                let rule = if pos.is_check() { Rule::Checkmate } else { Rule::Stalemate };
                end = Some(End { ply, rule, evidence: Evidence::None });
                break;
            }
            if self.options.every_ply {
                if let Some(proof) = dead(&mut self.quick, &pos) {
                    end = Some(End { ply, rule: Rule::DeadPosition, evidence: dead_evidence(&pos, proof) });
                    break;
                }
            }
            if fivefold(count) {
                let evidence = Evidence::Repetition { plies: self.repetitions.plies(&pos) };
                end = Some(End { ply, rule: Rule::FivefoldRepetition, evidence });
                break;
            }
            if seventy_five_moves(&pos) {
                end = Some(End {
                    ply,
                    rule: Rule::SeventyFiveMoves,
                    evidence: Evidence::HalfmoveClock(pos.halfmove_clock()),
                });
                break;
            }
            if claims.threefold.is_none() {
                if let Some(m) = self.repetitions.claim_by_move(&pos) {
                    claims.threefold = Some(Claim { ply, by, kind: ClaimKind::ByMove(m) });
                }
            }
            if claims.fifty_moves.is_none() {
                if let Some(m) = fifty_move_claim_by_move(&pos) {
                    claims.fifty_moves = Some(Claim { ply, by, kind: ClaimKind::ByMove(m) });
                }
            }
        }
        // A timeout that no rule ended on the board is ruled first when the
        // dead-position check runs only where the game ended: a helpmate
        // from the final position shows that no position of the game was
        // dead (deadness is monotone along a game, and the quick check is
        // sound), so that check would find nothing and is not run.
        let mut ruling = None;
        if !self.options.every_ply && end.is_none() {
            if let Termination::TimeForfeit { flagged } = game.termination {
                let ruled = self.rule_timeout(game, flagged, last);
                if matches!(ruled, TimeoutRuling::Loss { .. }) {
                    let adjudication = self.ended_off_board(game, last, Some(ruled));
                    return Adjudication { claims, ..adjudication };
                }
                ruling = Some(ruled);
            }
        }
        if !self.options.every_ply {
            end = self.first_dead(positions, end, last);
        }
        let adjudication = match end {
            Some(end) => Self::ended_on_board(game, end),
            None => self.ended_off_board(game, last, ruling),
        };
        Adjudication { claims, ..adjudication }
    }

    /// The timeout ruling on the final position (ply `last`) of `game`,
    /// lost on time by `flagged` (else the loser of a decisive result,
    /// else the side to move): the full analysis for the opponent.
    fn rule_timeout(&mut self, game: &Game, flagged: Option<Color>, last: usize) -> TimeoutRuling {
        let pos = game.positions()[last];
        let flagged = flagged.or(game.recorded.winner().map(|w| !w)).unwrap_or(pos.side_to_move());
        let config = self.options.timeout;
        let stop_flag = &self.stop_flag;
        let full = self.full.get_or_insert_with(|| {
            let mut full = Analyzer::new(config);
            if let Some(flag) = stop_flag {
                full.set_stop_flag(Arc::clone(flag));
            }
            full
        });
        timeout(full, &pos, flagged)
    }

    /// Without `every_ply`: the dead-position check where the game ended,
    /// and backwards from there to the first position proved dead.
    fn first_dead(&mut self, positions: &[Position], end: Option<End>, last: usize) -> Option<End> {
        let stop = end.as_ref().map_or(last, |end| end.ply);
        if end.as_ref().is_some_and(|end| end.rule == Rule::Checkmate) {
            return end;
        }
        let Some(mut proof) = dead(&mut self.quick, &positions[stop]) else { return end };
        let mut first = stop;
        while first > 0 {
            match dead(&mut self.quick, &positions[first - 1]) {
                Some(earlier) => {
                    proof = earlier;
                    first -= 1;
                }
                None => break,
            }
        }
        match end {
            // A stalemate is itself a position where no one can mate; it
            // stays the reason unless an earlier position was dead.
            Some(end) if end.rule == Rule::Stalemate && first == stop => Some(end),
            _ => Some(End { ply: first, rule: Rule::DeadPosition, evidence: dead_evidence(&positions[first], proof) }),
        }
    }

    fn ended_on_board(game: &Game, end: End) -> Adjudication {
        let pos = &game.positions()[end.ply];
        let (correct, text) = match end.rule {
            Rule::Checkmate => {
                let winner = !pos.side_to_move();
                (Outcome::win(winner), format!("{winner} checkmated {}", pos.side_to_move()))
            }
            Rule::Stalemate => {
                (Outcome::Draw, format!("{} to move has no legal move and is not in check", pos.side_to_move()))
            }
            Rule::DeadPosition => {
                (Outcome::Draw, "neither player can checkmate by any series of legal moves".to_string())
            }
            Rule::FivefoldRepetition => (Outcome::Draw, "the same position appeared for the fifth time".to_string()),
            Rule::SeventyFiveMoves => {
                (Outcome::Draw, "75 moves by each player without capture or pawn move, and no checkmate".to_string())
            }
            Rule::Timeout | Rule::Recorded => (game.recorded, String::new()),
        };
        let explanation = Explanation { article: end.rule.article(), fen: pos.to_fen(), text, evidence: end.evidence };
        Adjudication {
            recorded: game.recorded,
            correct,
            rule: end.rule,
            ply: end.ply,
            void_moves: game.moves().len() - end.ply,
            explanation,
            claims: Claims::default(),
        }
    }

    /// The adjudication of a game no rule ended on the board: the recorded
    /// result, or for a timeout the ruling (`ruling` if it was made
    /// already).
    fn ended_off_board(&mut self, game: &Game, last: usize, ruling: Option<TimeoutRuling>) -> Adjudication {
        let positions = game.positions();
        let pos = positions[last];
        let fen = pos.to_fen();
        let adjudication = |correct, rule: Rule, text: String, evidence| Adjudication {
            recorded: game.recorded,
            correct,
            rule,
            ply: last,
            void_moves: 0,
            explanation: Explanation { article: rule.article(), fen: fen.clone(), text, evidence },
            claims: Claims::default(),
        };
        let Termination::TimeForfeit { flagged } = game.termination else {
            let text = format!("no rule ended the game on the board; the recorded result {} stands", game.recorded);
            return adjudication(game.recorded, Rule::Recorded, text, Evidence::None);
        };
        let ruling = match ruling {
            Some(ruling) => ruling,
            None => self.rule_timeout(game, flagged, last),
        };
        let flagged = flagged.or(game.recorded.winner().map(|w| !w)).unwrap_or(pos.side_to_move());
        match ruling {
            TimeoutRuling::Loss { helpmate, nodes } => {
                let text = format!("{flagged} ran out of time and {} can still checkmate", !flagged);
                let san = pos.san_line(&helpmate);
                adjudication(
                    Outcome::win(!flagged),
                    Rule::Timeout,
                    text,
                    Evidence::Helpmate { moves: helpmate, san, nodes },
                )
            }
            TimeoutRuling::Draw { proof, nodes } => {
                // The opponent cannot mate. If the flagged player cannot
                // either, the position is dead (the quick check missed it):
                // the game ended earlier, by Art. 5.2.2.
                if let Some(dead) = self.dead_by_full_analysis(positions, last) {
                    let pos = &positions[dead.ply];
                    let text = "neither player can checkmate by any series of legal moves".to_string();
                    let explanation = Explanation {
                        article: Rule::DeadPosition.article(),
                        fen: pos.to_fen(),
                        text,
                        evidence: dead.evidence,
                    };
                    return Adjudication {
                        recorded: game.recorded,
                        correct: Outcome::Draw,
                        rule: Rule::DeadPosition,
                        ply: dead.ply,
                        void_moves: last - dead.ply,
                        explanation,
                        claims: Claims::default(),
                    };
                }
                let text =
                    format!("{flagged} ran out of time but {} cannot checkmate by any series of legal moves", !flagged);
                let evidence = Evidence::Unwinnable { proofs: vec![ColorProof::new(&pos, !flagged, proof)], nodes };
                adjudication(Outcome::Draw, Rule::Timeout, text, evidence)
            }
            TimeoutRuling::Undetermined { nodes } => {
                let text = format!("{flagged} ran out of time; whether {} can still checkmate is undecided", !flagged);
                adjudication(Outcome::Unknown, Rule::Timeout, text, Evidence::Undetermined { nodes })
            }
        }
    }
}

impl Adjudicator {
    /// Whether the full analysis proves the position at ply `last` dead;
    /// if so, the first ply of the dead stretch ending there (found with
    /// the full analysis too: this only runs for drawn timeouts).
    fn dead_by_full_analysis(&mut self, positions: &[Position], last: usize) -> Option<End> {
        let full = self.full.as_mut()?;
        let mut proof = dead(full, &positions[last])?;
        let mut first = last;
        while first > 0 {
            match dead(full, &positions[first - 1]) {
                Some(earlier) => {
                    proof = earlier;
                    first -= 1;
                }
                None => break,
            }
        }
        Some(End { ply: first, rule: Rule::DeadPosition, evidence: dead_evidence(&positions[first], proof) })
    }
}

fn dead_evidence(pos: &Position, proof: DeadProof) -> Evidence {
    let proofs = vec![ColorProof::new(pos, Color::White, proof.white), ColorProof::new(pos, Color::Black, proof.black)];
    Evidence::Unwinnable { proofs, nodes: proof.nodes }
}

/// Adjudicates one game with the single-game defaults ([`Options::default`]:
/// dead-position check after every ply).
///
/// ```
/// use adjudicate::{Game, Outcome, Rule, adjudicate};
/// use movegen::Position;
/// // 1. f3 e5 2. g4 Qh4#, recorded as a draw.
/// let start = Position::start();
/// let mut pos = start;
/// let mut moves = Vec::new();
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     let m = pos.parse_san(san).unwrap();
///     moves.push(m);
///     pos = pos.play(m);
/// }
/// let game = Game::new(start, moves, Outcome::Draw).unwrap();
/// let ruling = adjudicate(&game);
/// assert_eq!(ruling.correct, Outcome::BlackWins);
/// assert_eq!(ruling.rule, Rule::Checkmate);
/// assert_eq!(ruling.ply, 4);
/// assert!(ruling.is_wrong());
/// ```
pub fn adjudicate(game: &Game) -> Adjudication {
    Adjudicator::new(Options::default()).adjudicate(game)
}
