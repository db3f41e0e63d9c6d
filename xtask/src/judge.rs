//! Judging answers: a solver's answer to one query, reduced to what can be
//! checked ([`Answer`]), and its classification against the label
//! ([`Class`]). Shared by `cargo xtask regress` and `cargo xtask compare`,
//! so both solvers are judged by the same rules.
//!
//! A helpmate is only believed after our own [`search::replay`] has played
//! it to a mate by the winner; one that does not replay is a wrong
//! "winnable" whatever the label says.

use movegen::{Color, Position};
use search::{Verdict, replay};

/// What a solver answered, after checking any helpmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A helpmate; `replays`: it replays to a mate by the winner.
    Winnable {
        /// Whether the helpmate replays to a mate by the winner.
        replays: bool,
    },
    /// Proved unwinnable.
    Unwinnable,
    /// No answer (a limit was hit, or the quick mode could not decide).
    Undetermined,
    /// The solver could not read the position.
    Unparsable,
    /// The solver panicked.
    Panicked,
}

impl Answer {
    /// Short name for tables and reports.
    pub fn name(self) -> &'static str {
        match self {
            Answer::Winnable { replays: true } => "winnable",
            Answer::Winnable { replays: false } => "bad-helpmate",
            Answer::Unwinnable => "unwinnable",
            Answer::Undetermined => "undetermined",
            Answer::Unparsable => "unparsable",
            Answer::Panicked => "panicked",
        }
    }

    /// Whether this is a helpmate that replays to mate.
    pub fn proves_winnable(self) -> bool {
        self == Answer::Winnable { replays: true }
    }
}

/// An answer judged against the label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Agrees with the label (a winnable answer always has a replayed helpmate).
    Correct,
    /// Unwinnable, but the winner can mate: the worst error.
    WrongUnwinnable,
    /// Winnable where the label says not, or a helpmate that does not replay.
    WrongWinnable,
    /// No answer.
    Undetermined,
    /// Unwinnable, and nothing to check it against (unlabelled set, and
    /// neither solver found a helpmate).
    Unverified,
    /// The solver could not read the position, or panicked.
    Failed,
}

impl Class {
    /// Every class, in table order.
    pub const ALL: [Class; 6] = [
        Class::Correct,
        Class::WrongUnwinnable,
        Class::WrongWinnable,
        Class::Undetermined,
        Class::Unverified,
        Class::Failed,
    ];

    /// Short name for tables and reports.
    pub fn name(self) -> &'static str {
        match self {
            Class::Correct => "correct",
            Class::WrongUnwinnable => "wrong-unwinnable",
            Class::WrongWinnable => "wrong-winnable",
            Class::Undetermined => "undetermined",
            Class::Unverified => "unverified",
            Class::Failed => "failed",
        }
    }

    /// A wrong answer.
    pub fn is_wrong(self) -> bool {
        matches!(self, Class::WrongUnwinnable | Class::WrongWinnable)
    }
}

/// Judges `answer` against `label` (whether the winner can mate; `None`
/// when unknown). A bad helpmate is always wrong; without a label a
/// replayed helpmate is still correct and "unwinnable" is unverified.
pub fn classify(answer: Answer, label: Option<bool>) -> Class {
    match (answer, label) {
        (Answer::Winnable { replays: false }, _) | (Answer::Winnable { replays: true }, Some(false)) => {
            Class::WrongWinnable
        }
        (Answer::Winnable { replays: true }, _) => Class::Correct,
        (Answer::Unwinnable, Some(true)) => Class::WrongUnwinnable,
        (Answer::Unwinnable, Some(false)) => Class::Correct,
        (Answer::Unwinnable, None) => Class::Unverified,
        (Answer::Undetermined, _) => Class::Undetermined,
        (Answer::Unparsable | Answer::Panicked, _) => Class::Failed,
    }
}

/// Our analyzer's verdict as an [`Answer`], replaying any helpmate.
pub fn our_answer(pos: &Position, winner: Color, verdict: &Verdict) -> Answer {
    // No pattern names `Undetermined` itself: it may carry a cause.
    match verdict {
        Verdict::Winnable { helpmate } => Answer::Winnable { replays: replay(pos, winner, helpmate).is_ok() },
        Verdict::Unwinnable(_) => Answer::Unwinnable,
        _ => Answer::Undetermined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification() {
        let good = Answer::Winnable { replays: true };
        let bad = Answer::Winnable { replays: false };
        assert_eq!(classify(good, Some(true)), Class::Correct);
        assert_eq!(classify(good, Some(false)), Class::WrongWinnable);
        assert_eq!(classify(good, None), Class::Correct);
        // A helpmate that does not replay is wrong even where a mate exists.
        assert_eq!(classify(bad, Some(true)), Class::WrongWinnable);
        assert_eq!(classify(bad, None), Class::WrongWinnable);
        assert_eq!(classify(Answer::Unwinnable, Some(true)), Class::WrongUnwinnable);
        assert_eq!(classify(Answer::Unwinnable, Some(false)), Class::Correct);
        assert_eq!(classify(Answer::Unwinnable, None), Class::Unverified);
        assert_eq!(classify(Answer::Undetermined, Some(true)), Class::Undetermined);
        assert_eq!(classify(Answer::Unparsable, Some(false)), Class::Failed);
        assert_eq!(classify(Answer::Panicked, None), Class::Failed);
        assert!(Class::WrongUnwinnable.is_wrong() && Class::WrongWinnable.is_wrong());
        assert!(!Class::Undetermined.is_wrong() && !Class::Failed.is_wrong());
    }

    #[test]
    fn our_helpmates_are_replayed() {
        // Fool's mate: 1. f3 e5 2. g4 Qh4#.
        let pos = Position::start();
        let mut moves = Vec::new();
        let mut at = pos;
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = at.parse_uci(uci).unwrap();
            moves.push(m);
            at = at.play(m);
        }
        let verdict = Verdict::Winnable { helpmate: moves.clone() };
        assert_eq!(our_answer(&pos, Color::Black, &verdict), Answer::Winnable { replays: true });
        // The same moves do not make a mate by White, and a truncated line is no mate.
        assert_eq!(our_answer(&pos, Color::White, &verdict), Answer::Winnable { replays: false });
        let short = Verdict::Winnable { helpmate: moves[..3].to_vec() };
        assert_eq!(our_answer(&pos, Color::Black, &short), Answer::Winnable { replays: false });
        assert_eq!(classify(our_answer(&pos, Color::Black, &short), Some(true)), Class::WrongWinnable);
    }
}
