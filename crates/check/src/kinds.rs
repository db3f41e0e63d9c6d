//! The small kinds: `helpmate`, `over`, `material`, `forced` and
//! `repeats` (`docs/certificates.md` gives each one's argument; here it
//! is again next to its check).

use cozy_chess::{Board, Color, Piece};

use crate::position::{self, Key, Set, bit, count, legal_moves, mated_by, names, parse_move, parse_squares, play};

/// `helpmate`: the moves are legal one after the other and the last
/// position is a checkmate by the winner. That sequence is the claim.
pub fn helpmate(board: &Board, winner: Color, moves: &[String]) -> Result<(), String> {
    let mut board = board.clone();
    for (index, uci) in moves.iter().enumerate() {
        let mv = parse_move(&board, uci).map_err(|e| format!("helpmate move {}: {e}", index + 1))?;
        board = play(&board, mv);
    }
    if mated_by(&board, winner) { Ok(()) } else { Err("the helpmate does not end in a mate by the winner".into()) }
}

/// `over`: the side to move has no legal move, and (the caller checked
/// first) the position is not a mate by the winner: a stalemate, or the
/// winner is mated. No move can follow, so no mate by the winner.
pub fn over(board: &Board) -> Result<(), String> {
    if legal_moves(board).is_empty() { Ok(()) } else { Err("over: the side to move has a legal move".into()) }
}

/// The pieces that matter to the material rules, which may be looked at
/// with one piece removed ([`Material::without`]).
#[derive(Clone, Copy)]
pub struct Material {
    roles: [Set; 6],
    colors: [Set; 2],
}

impl Material {
    /// The material of `board`.
    pub fn of(board: &Board) -> Material {
        Material {
            roles: Piece::ALL.map(|role| board.pieces(role).0),
            colors: Color::ALL.map(|color| board.colors(color).0),
        }
    }

    /// The same without the piece on `square`.
    pub fn without(self, square: cozy_chess::Square) -> Material {
        Material { roles: self.roles.map(|r| r & !bit(square)), colors: self.colors.map(|c| c & !bit(square)) }
    }

    fn pieces(&self, color: Color, role: Piece) -> Set {
        self.colors[color as usize] & self.roles[role as usize]
    }

    /// The winner's pieces other than its king.
    pub fn army(&self, winner: Color) -> Set {
        self.colors[winner as usize] & !self.roles[Piece::King as usize]
    }

    /// Whether the named rule holds for `winner`.
    ///
    /// * `lone-king`: the winner has only its king. A king never attacks
    ///   the other king (they are never adjacent), so it gives no check,
    ///   and the winner never gets another piece (it has no pawn).
    /// * `lemma-5` (the paper's Lemma 5): no pawn on the board, the winner
    ///   has exactly one knight besides its king, and the loser has no
    ///   knight, bishop or rook.
    /// * `lemma-6` (Lemma 6): no pawn on the board, the winner has only
    ///   bishops besides its king, all on squares of one colour, and the
    ///   loser has no knight and no bishop on squares of the other colour.
    ///
    /// Lemmas 5 and 6 are proved in the paper (Section 2.1) for mates that
    /// are played; the caller has checked that the position is not
    /// already a mate. Without pawns no piece appears, and each condition
    /// keeps holding as pieces are captured, so it holds in every later
    /// position too.
    pub fn rule_holds(&self, winner: Color, rule: &str) -> bool {
        let army = self.army(winner);
        let no_pawns = self.roles[Piece::Pawn as usize] == 0;
        let theirs = |role| self.pieces(!winner, role);
        match rule {
            "lone-king" => army == 0,
            "lemma-5" => {
                no_pawns
                    && count(army) == 1
                    && army == self.pieces(winner, Piece::Knight)
                    && theirs(Piece::Knight) | theirs(Piece::Bishop) | theirs(Piece::Rook) == 0
            }
            "lemma-6" => {
                const LIGHT: Set = 0x55aa_55aa_55aa_55aa;
                let shade = if army & LIGHT != 0 { LIGHT } else { !LIGHT };
                no_pawns
                    && army != 0
                    && army == self.pieces(winner, Piece::Bishop)
                    && army & !shade == 0
                    && theirs(Piece::Knight) == 0
                    && theirs(Piece::Bishop) & !shade == 0
            }
            _ => false,
        }
    }

    /// Whether some rule of [`Material::rule_holds`] holds.
    pub fn insufficient(&self, winner: Color) -> bool {
        ["lone-king", "lemma-5", "lemma-6"].iter().any(|rule| self.rule_holds(winner, rule))
    }
}

/// `material`: the named rule holds (see [`Material::rule_holds`]), and
/// `pieces` names exactly the winner's pieces other than its king.
pub fn material(board: &Board, winner: Color, rule: &str, pieces: &str) -> Result<(), String> {
    let material = Material::of(board);
    let army = material.army(winner);
    if parse_squares(pieces)? != army {
        return Err(format!("material: the winner's pieces are [{}], not [{pieces}]", names(army)));
    }
    if material.rule_holds(winner, rule) { Ok(()) } else { Err(format!("material: {rule:?} does not hold")) }
}

/// `forced`: each move is the only legal move where it is played. Every
/// sequence of legal moves from `board` longer than the line begins with
/// it, and none ends inside it in a mate (each position of the line but
/// the last has a legal move, so it is no mate), so the claim reduces to
/// the position at its end. Returns that position and the keys of the
/// positions the line left.
pub fn forced(board: &Board, moves: &[String]) -> Result<(Board, Vec<Key>), String> {
    let mut board = board.clone();
    let mut line = Vec::with_capacity(moves.len());
    for (index, uci) in moves.iter().enumerate() {
        let legal = legal_moves(&board);
        let mv = parse_move(&board, uci).map_err(|e| format!("forced move {}: {e}", index + 1))?;
        if legal.len() != 1 {
            return Err(format!("forced move {} ({uci}) is one of {} legal moves", index + 1, legal.len()));
        }
        line.push(position::key(&board).ok_or("forced: more than 32 pieces")?);
        board = play(&board, mv);
    }
    Ok((board, line))
}

/// `repeats` (at the end of a forced line): the position is one the line
/// already left. From it the same forced moves come round forever, through
/// positions that each have a legal move: no mate ever.
pub fn repeats(board: &Board, history: &[Key]) -> Result<(), String> {
    let key = position::key(board).ok_or("repeats: more than 32 pieces")?;
    if history.contains(&key) { Ok(()) } else { Err("repeats: the forced line does not come back".into()) }
}
