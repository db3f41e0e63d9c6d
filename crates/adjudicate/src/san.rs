//! Fast resolution of SAN moves for the PGN reader: the same answers as
//! [`Position::parse_san`] (which stays the reference), without generating
//! the whole legal move list for every move of every game.
//!
//! The common forms (`e4`, `exd5`, `e8=Q`, `Nf3`, `Nbd7`, `R1e2`, `Qh4xe1`,
//! with any `+ # ! ?` suffixes) are resolved directly: the pieces of the
//! named kind that attack (or, for pawns, push to) the destination are the
//! candidates, the disambiguation filters them, and each candidate is
//! played and kept if it does not leave the mover's king attacked. This is
//! exactly the matching rule of `parse_san` (same role, destination,
//! promotion and disambiguation; the capture mark is not checked), so when
//! it finds exactly one legal move, `parse_san` finds the same one (a test
//! checks this on every legal move of thousands of positions). Anything
//! else (castling, no match, several matches, unusual spellings) is handed
//! to `parse_san`, which also gives the precise error.
//!
//! Moves in coordinates, as some programs write them in PGN movetext and
//! as python-chess reads them, are accepted too: `g1f3`, `g1-f3`, `e1g1`
//! (castling as the king's move), `e7e8q` or `e7e8=Q`, when `parse_san`
//! finds no move (a pawn move such as `e2e4` is already SAN with both
//! coordinates of the origin).

use movegen::{Bitboard, Color, File, Move, MoveKind, Position, Rank, Role, SanError, Square, attacks};

/// The move `text` names in `pos` and the position after it.
///
/// ```
/// use adjudicate::san::resolve;
/// use movegen::Position;
/// let pos = Position::start();
/// let (m, after) = resolve(&pos, "Nf3+!?").unwrap();
/// assert_eq!(m.to_string(), "g1f3");
/// assert_eq!(after, pos.play(m));
/// assert!(resolve(&pos, "Nf4").is_err());
/// // Coordinates, as some programs write them.
/// assert_eq!(resolve(&pos, "g1f3").unwrap(), (m, after));
/// ```
pub fn resolve(pos: &Position, text: &str) -> Result<(Move, Position), SanError> {
    if let Some(found) = fast(pos, text.as_bytes()) {
        return Ok(found);
    }
    match pos.parse_san(text) {
        Ok(m) => Ok((m, pos.play(m))),
        Err(error @ SanError::Ambiguous { .. }) => Err(error),
        Err(error) => match coordinates(pos, text) {
            Some(m) => Ok((m, pos.play(m))),
            None => Err(error),
        },
    }
}

/// The legal move `text` names in coordinates, `[a-h][1-8][-x]?[a-h][1-8]`
/// with an optional promotion (`q`, `=Q`...) and check or annotation
/// suffixes, if it is one.
fn coordinates(pos: &Position, text: &str) -> Option<Move> {
    let body = text.trim_end_matches(['+', '#', '!', '?']).as_bytes();
    let (from, rest) = body.split_at_checked(2)?;
    let rest = rest.strip_prefix(b"-").or_else(|| rest.strip_prefix(b"x")).unwrap_or(rest);
    let (to, promotion) = rest.split_at_checked(2)?;
    let promotion = match promotion {
        [] => None,
        [p] | [b'=', p] if b"qrbnQRBN".contains(p) => Some(p.to_ascii_lowercase()),
        _ => return None,
    };
    let squares = [from, to];
    if !squares.iter().all(|s| matches!(s, [b'a'..=b'h', b'1'..=b'8'])) {
        return None;
    }
    let mut uci = Vec::with_capacity(5);
    uci.extend_from_slice(from);
    uci.extend_from_slice(to);
    uci.extend(promotion);
    // ASCII by construction.
    pos.parse_uci(core::str::from_utf8(&uci).ok()?).ok()
}

/// The strict SAN content: role, disambiguation, destination, promotion.
struct Parsed {
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

fn parse(text: &[u8]) -> Option<Parsed> {
    let mut end = text.len();
    while end > 0 && matches!(text[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let mut b = &text[..end];
    let mut promotion = None;
    if let [rest @ .., b'=', p] = b {
        promotion = Some(match p {
            b'Q' => Role::Queen,
            b'R' => Role::Rook,
            b'B' => Role::Bishop,
            b'N' => Role::Knight,
            _ => return None,
        });
        b = rest;
    }
    let [rest @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] = b else { return None };
    let to = Square::from_coords(File::new(u32::from(f - b'a')), Rank::new(u32::from(r - b'1')));
    b = rest;
    if let [rest @ .., b'x'] = b {
        b = rest;
    }
    let role = match b.first() {
        Some(b'N') => Role::Knight,
        Some(b'B') => Role::Bishop,
        Some(b'R') => Role::Rook,
        Some(b'Q') => Role::Queen,
        Some(b'K') => Role::King,
        _ => Role::Pawn,
    };
    if role != Role::Pawn {
        // Cannot panic: a piece role was read from `b.first()`, so `b` is not empty.
        b = &b[1..];
    }
    let mut file = None;
    let mut rank = None;
    if let [f @ b'a'..=b'h', rest @ ..] = b {
        file = Some(File::new(u32::from(f - b'a')));
        b = rest;
    }
    if let [r @ b'1'..=b'8', rest @ ..] = b {
        rank = Some(Rank::new(u32::from(r - b'1')));
        b = rest;
    }
    if !b.is_empty() || (promotion.is_some() && role != Role::Pawn) {
        return None;
    }
    Some(Parsed { role, file, rank, to, promotion })
}

/// The unique legal move matching `text`, if the fast path can tell.
fn fast(pos: &Position, text: &[u8]) -> Option<(Move, Position)> {
    let parsed = parse(text)?;
    let board = pos.board();
    let us = pos.side_to_move();
    let ours = board.by_color(us);
    let occupied = board.occupied();
    let to = parsed.to;
    if ours.contains(to) {
        return None;
    }
    let mine = board.pieces(us, parsed.role);
    let mut from_set = match parsed.role {
        Role::Knight => attacks::knight(to) & mine,
        Role::Bishop => attacks::bishop(to, occupied) & mine,
        Role::Rook => attacks::rook(to, occupied) & mine,
        Role::Queen => attacks::queen(to, occupied) & mine,
        Role::King => attacks::king(to) & mine,
        Role::Pawn => pawn_origins(pos, us, to, mine, occupied),
    };
    if let Some(file) = parsed.file {
        from_set &= Bitboard::file(file);
    }
    if let Some(rank) = parsed.rank {
        from_set &= Bitboard::rank(rank);
    }
    let last_rank = to.rank() == Rank::Eighth.relative_to(us);
    let mut found = None;
    for from in from_set {
        let m = if parsed.role == Role::Pawn && last_rank {
            Move::promotion_to(from, to, parsed.promotion?)
        } else if parsed.promotion.is_some() {
            return None;
        } else if parsed.role == Role::Pawn && pos.ep_square() == Some(to) && from.file() != to.file() {
            Move::new(from, to, MoveKind::EnPassant)
        } else {
            Move::normal(from, to)
        };
        let after = pos.play(m);
        let after_board = after.board();
        if after_board.is_attacked_by(after.king_of(us), !us, after_board.occupied()) {
            continue;
        }
        if found.is_some() {
            // Ambiguous: let `parse_san` say so.
            return None;
        }
        found = Some((m, after));
    }
    found
}

/// The squares from which a pawn of `us` could move to `to` (captures,
/// en passant, single and double pushes), ignoring pins and checks.
fn pawn_origins(pos: &Position, us: Color, to: Square, pawns: Bitboard, occupied: Bitboard) -> Bitboard {
    let theirs = pos.board().by_color(!us);
    let mut from = Bitboard::EMPTY;
    if theirs.contains(to) || pos.ep_square() == Some(to) {
        from |= attacks::pawn(!us, to) & pawns;
    }
    if !occupied.contains(to) {
        let one = Bitboard::from_square(to).backward(us);
        if (one & pawns).any() {
            from |= one;
        } else if (one & occupied).is_empty() && to.rank() == Rank::Fourth.relative_to(us) {
            from |= one.backward(us) & pawns;
        }
    }
    from
}
