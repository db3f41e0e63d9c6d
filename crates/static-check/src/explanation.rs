//! [`Explanation`]: why the static analysis did or did not prove a position
//! unwinnable, printable for humans.

use core::fmt;

use movegen::{Bitboard, Color, File, Position, Rank, Square};

use crate::figure8::{Figure8, Obstacle, SafeSquare};
use crate::material::InsufficientMaterial;

/// The result of the static analysis of a position for one intended winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The position analysed.
    pub position: Position,
    /// The intended winner.
    pub winner: Color,
    /// The intended winner has already mated: the position is winnable
    /// (with no move at all) and no rule is run. Rules reason about the
    /// moves still to come; some (Lemma 6) do not hold for a mate that is
    /// given rather than played, such as a double check by two bishops of
    /// one colour.
    pub already_mate: bool,
    /// Set when the material alone proves unwinnability (then Figure 8 is
    /// not run).
    pub material: Option<InsufficientMaterial>,
    /// The Figure 8 analysis, when it was run.
    pub figure8: Option<Figure8>,
}

impl Explanation {
    /// Whether the position is proved unwinnable for [`Explanation::winner`].
    pub fn is_unwinnable(&self) -> bool {
        self.material.is_some() || self.figure8.as_ref().is_some_and(Figure8::is_unwinnable)
    }

    /// A one-line summary of the reason.
    pub fn summary(&self) -> String {
        let winner = self.winner;
        if self.already_mate {
            return format!("not unwinnable for {winner}: the position is already checkmate, delivered by {winner}");
        }
        if let Some(material) = self.material {
            return format!("unwinnable for {winner}: {material}");
        }
        let Some(figure8) = &self.figure8 else { return format!("not proved unwinnable for {winner}") };
        match &figure8.result {
            Ok(squares) => {
                let never = squares.iter().filter(|(_, r)| *r == SafeSquare::NeverAttacked).count();
                format!(
                    "unwinnable for {winner}: the {} king can reach {} squares and none can be a mating square \
                     ({never} never attacked by {winner}, {} always keep an escape)",
                    !winner,
                    squares.len(),
                    squares.len() - never
                )
            }
            Err(obstacle) => format!("not proved unwinnable for {winner}: {}", describe_obstacle(obstacle)),
        }
    }
}

fn describe_obstacle(obstacle: &Obstacle) -> String {
    match obstacle {
        Obstacle::NotApplicable(reason) => format!("the static analysis does not apply ({reason})"),
        Obstacle::MateInOne => "the intended winner can mate in one move".to_string(),
        Obstacle::Intruder { square, piece } => {
            format!("the {} {} on {square} can enter the king's region", piece.color, piece.role)
        }
        Obstacle::MixedBishops { light, dark } => {
            format!("bishops of both colours (on {light} and {dark}) can enter the king's region")
        }
        Obstacle::CandidateSquare { square, needed, available } => format!(
            "{square} could be a mating square (its {needed} orthogonal neighbours can all be blocked or attacked: {available} guards)"
        ),
    }
}

impl fmt::Display for Explanation {
    /// The summary, then (for Figure 8) the position next to the king's
    /// region (`+`) and the intruders (`x`), then the reason per square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary())?;
        let Some(figure8) = &self.figure8 else { return Ok(()) };
        let board = self.position.board();
        writeln!(f, "  position          {} king region (+), intruders (x)", !self.winner)?;
        for rank in Rank::ALL.iter().rev() {
            write!(f, "{} ", rank.char())?;
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                write!(f, "{} ", board.piece_at(sq).map_or('.', |p| p.char()))?;
            }
            write!(f, "  ")?;
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                let c = if figure8.intruders.contains(sq) {
                    'x'
                } else if figure8.king_region.contains(sq) {
                    '+'
                } else {
                    '.'
                };
                write!(f, "{c}{}", if file == File::H { "" } else { " " })?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h   a b c d e f g h")?;
        if let Ok(squares) = &figure8.result {
            let never: Bitboard =
                squares.iter().filter(|(_, r)| *r == SafeSquare::NeverAttacked).map(|(s, _)| *s).collect();
            if never.any() {
                let list: Vec<String> = never.iter().map(|s| s.to_string()).collect();
                writeln!(f, "never attacked by {}: {}", self.winner, list.join(" "))?;
            }
            let no_net: Vec<String> =
                squares.iter().filter(|(_, r)| *r == SafeSquare::NoMatingNet).map(|(s, _)| s.to_string()).collect();
            if !no_net.is_empty() {
                writeln!(f, "no arrangement of guards can close a mating net on: {}", no_net.join(" "))?;
            }
            for (square, reason) in squares {
                if let SafeSquare::TooFewGuards { squares, available } = reason {
                    let list: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                    writeln!(
                        f,
                        "{square}: the king escapes to {}: {} square(s), at most {available} can be blocked or attacked",
                        list.join("/"),
                        squares.count()
                    )?;
                }
            }
        }
        Ok(())
    }
}
