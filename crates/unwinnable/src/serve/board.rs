//! `GET /board.svg`: a chess board drawn as SVG by this program, with
//! optional marks: squares highlighted, the loser's king region shaded,
//! squares where no mate can happen, locked pieces, arrows, and either side
//! at the bottom.
//!
//! The drawing needs no font for the board itself; the pieces are the
//! Unicode chess symbols (the solid set for both colours, White's filled
//! white with a dark outline), which every system font with symbols has.
//! Every square is a `<rect>` with `data-square` and the classes of its
//! marks, so that a page (and its tests) can read what is drawn.

use std::fmt::Write as _;

use movegen::{Board, Color, File, Rank, Role, Square};

/// The side of a square, in SVG units.
const SQUARE: u32 = 45;
/// The margin for the coordinates.
const MARGIN: u32 = 16;

/// What to draw on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Squares highlighted (a move, a selection).
    pub highlight: Vec<Square>,
    /// The loser's king region (shaded).
    pub region: Vec<Square>,
    /// Squares where no checkmate can happen (a ring).
    pub safe: Vec<Square>,
    /// Locked pieces: they never leave their squares (a corner lock mark).
    pub locked: Vec<Square>,
    /// Arrows, from and to.
    pub arrows: Vec<(Square, Square)>,
}

/// The square's top-left corner with `bottom` at the bottom of the board.
fn corner(square: Square, bottom: Color) -> (u32, u32) {
    let (file, rank) = (square.file().index() as u32, square.rank().index() as u32);
    let (column, row) = match bottom {
        Color::White => (file, 7 - rank),
        Color::Black => (7 - file, rank),
    };
    (MARGIN + column * SQUARE, row * SQUARE)
}

/// The Unicode symbol of a role (the solid set).
fn symbol(role: Role) -> char {
    match role {
        Role::King => '\u{265A}',
        Role::Queen => '\u{265B}',
        Role::Rook => '\u{265C}',
        Role::Bishop => '\u{265D}',
        Role::Knight => '\u{265E}',
        Role::Pawn => '\u{265F}',
    }
}

/// The SVG of `board` seen from `bottom`'s side, with `marks`.
pub fn svg(board: &Board, bottom: Color, marks: &Marks) -> String {
    let side = MARGIN + 8 * SQUARE;
    let mut out = String::with_capacity(16 << 10);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{side}" height="{side}" role="img" class="board" data-bottom="{bottom}">"##,
    );
    let _ = write!(
        out,
        r##"<defs><marker id="head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1565c0" fill-opacity="0.85"/></marker></defs>"##
    );
    let _ = write!(out, r##"<rect x="0" y="0" width="{side}" height="{side}" fill="#ffffff"/>"##);
    for square in Square::ALL {
        let (x, y) = corner(square, bottom);
        let mut classes = vec![if square.is_light() { "light" } else { "dark" }];
        for (list, class) in [
            (&marks.highlight, "highlight"),
            (&marks.region, "region"),
            (&marks.safe, "safe"),
            (&marks.locked, "locked"),
        ] {
            if list.contains(&square) {
                classes.push(class);
            }
        }
        let fill = match (marks.region.contains(&square), square.is_light()) {
            (false, true) => "#f0d9b5",
            (false, false) => "#b58863",
            (true, true) => "#cfe3c0",
            (true, false) => "#8fb17a",
        };
        let _ = write!(
            out,
            r##"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}" data-square="{square}" class="{}"/>"##,
            classes.join(" ")
        );
        if marks.highlight.contains(&square) {
            let _ = write!(
                out,
                r##"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="#f6f669" fill-opacity="0.55"/>"##
            );
        }
    }
    for &square in &marks.safe {
        let (x, y) = corner(square, bottom);
        let (cx, cy) = (x + SQUARE / 2, y + SQUARE / 2);
        let _ = write!(
            out,
            r##"<circle cx="{cx}" cy="{cy}" r="17" fill="none" stroke="#2e7d32" stroke-width="3" stroke-opacity="0.8" class="safe-mark" data-square="{square}"/>"##
        );
    }
    for rank in Rank::ALL {
        for file in File::ALL {
            let square = Square::from_coords(file, rank);
            let Some(piece) = board.piece_at(square) else { continue };
            let (x, y) = corner(square, bottom);
            let (fill, stroke) = match piece.color {
                Color::White => ("#ffffff", "#222222"),
                Color::Black => ("#222222", "#222222"),
            };
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-size="38" text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="1.2" font-family="DejaVu Sans, Noto Sans Symbols2, Segoe UI Symbol, sans-serif" class="piece" data-square="{square}" data-piece="{}">{}</text>"##,
                x + SQUARE / 2,
                y + 37,
                piece.char(),
                symbol(piece.role)
            );
        }
    }
    for &square in &marks.locked {
        let (x, y) = corner(square, bottom);
        // A small padlock in the top-right corner.
        let (lx, ly) = (x + SQUARE - 14, y + 3);
        let _ = write!(
            out,
            r##"<g class="lock" data-square="{square}"><path d="M{:.1} {} v-3 a3.5 3.5 0 0 1 7 0 v3" fill="none" stroke="#c62828" stroke-width="2"/><rect x="{}" y="{}" width="10" height="7" rx="1" fill="#c62828"/></g>"##,
            f64::from(lx) + 1.5,
            ly + 6,
            lx,
            ly + 5
        );
    }
    for &(from, to) in &marks.arrows {
        let (fx, fy) = corner(from, bottom);
        let (tx, ty) = corner(to, bottom);
        let (x1, y1, x2, y2) = (
            f64::from(fx + SQUARE / 2),
            f64::from(fy + SQUARE / 2),
            f64::from(tx + SQUARE / 2),
            f64::from(ty + SQUARE / 2),
        );
        // Stop short of the centre so that the head does not hide the piece.
        let length = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(1.0);
        let shorten = 10.0 / length;
        let (ex, ey) = (x2 - (x2 - x1) * shorten, y2 - (y2 - y1) * shorten);
        let _ = write!(
            out,
            r##"<line x1="{x1}" y1="{y1}" x2="{ex:.1}" y2="{ey:.1}" stroke="#1565c0" stroke-opacity="0.85" stroke-width="7" stroke-linecap="round" marker-end="url(#head)" class="arrow" data-from="{from}" data-to="{to}"/>"##
        );
    }
    // Coordinates: files below, ranks on the left.
    for index in 0..8u32 {
        let (file, rank) = match bottom {
            Color::White => (File::new(index), Rank::new(7 - index)),
            Color::Black => (File::new(7 - index), Rank::new(index)),
        };
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="12" text-anchor="middle" fill="#444444" font-family="sans-serif">{}</text>"##,
            MARGIN + index * SQUARE + SQUARE / 2,
            8 * SQUARE + 13,
            file.char()
        );
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="12" text-anchor="middle" fill="#444444" font-family="sans-serif">{}</text>"##,
            MARGIN / 2,
            index * SQUARE + SQUARE / 2 + 4,
            rank.char()
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Setup;

    fn board(fen: &str) -> Board {
        Setup::from_fen(fen).unwrap().board
    }

    #[test]
    fn squares_and_pieces_are_where_the_fen_says() {
        let board = board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1");
        let marks = Marks { region: vec![Square::E8, Square::D8], ..Marks::default() };
        let white = svg(&board, Color::White, &marks);
        // From White's side, a8 is the top-left square and h1 the bottom-right.
        assert!(white.contains(&format!(
            r##"<rect x="{MARGIN}" y="0" width="45" height="45" fill="#f0d9b5" data-square="a8" class="light"/>"##
        )));
        assert!(white.contains(r#"data-square="h1" class="light""#));
        assert!(white.contains(r#"data-square="e8" class="light region""#), "{white}");
        assert!(white.contains(r#"data-square="d8" class="dark region""#), "{white}");
        assert_eq!(white.matches(r#"class="piece""#).count(), 3);
        assert!(white.contains(r#"data-square="f1" data-piece="Q">♛</text>"#), "{white}");
        // From Black's side, h1 is the top-left square.
        let black = svg(&board, Color::Black, &Marks::default());
        assert!(black.contains(&format!(
            r##"<rect x="{MARGIN}" y="0" width="45" height="45" fill="#f0d9b5" data-square="h1""##
        )));
        assert!(!black.contains("region"));
    }
}
