//! `GET /board.svg`: a chess board drawn as SVG by this program, with
//! optional marks: squares highlighted, the loser's king region shaded,
//! squares where no mate can happen, locked pieces, arrows, and either side
//! at the bottom.
//!
//! The drawing needs no font but for the coordinates: the pieces are the
//! project's own SVG symbols ([`super::page::PIECES_SVG`], the page's
//! pieces), embedded in the drawing. Every square is a `<rect>` with
//! `data-square` and the classes of its marks, every piece a `<use>` with
//! `data-square` and `data-piece`, so that a page (and its tests) can read
//! what is drawn.

use std::fmt::Write as _;

use movegen::{Board, Color, File, Rank, Square};

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

/// The `<symbol>` elements of the pieces (the page's file without its
/// outer `<svg>` element).
fn piece_symbols() -> &'static str {
    let sprite = super::page::PIECES_SVG;
    let start = sprite.find("<symbol").unwrap_or(0);
    let end = sprite.rfind("</svg>").unwrap_or(sprite.len());
    sprite.get(start..end).unwrap_or("")
}

/// The SVG of `board` seen from `bottom`'s side, with `marks`.
pub fn svg(board: &Board, bottom: Color, marks: &Marks) -> String {
    let side = MARGIN + 8 * SQUARE;
    let mut out = String::with_capacity(16 << 10);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 {side} {side}" width="{side}" height="{side}" role="img" class="board" data-bottom="{bottom}">"##,
    );
    let _ = write!(
        out,
        r##"<defs><marker id="head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1565c0" fill-opacity="0.55"/></marker>{}</defs>"##,
        piece_symbols()
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
    // No mate on these squares: a dot in the corner, never over a piece.
    for &square in &marks.safe {
        let (x, y) = corner(square, bottom);
        let _ = write!(
            out,
            r##"<circle cx="{}" cy="{}" r="3.8" fill="#2e7d32" stroke="#ffffff" stroke-width="1.2" class="safe-mark" data-square="{square}"/>"##,
            x + 6,
            y + SQUARE - 6
        );
    }
    // The moves' arrows under the pieces, translucent.
    for &(from, to) in &marks.arrows {
        let (fx, fy) = corner(from, bottom);
        let (tx, ty) = corner(to, bottom);
        let (x1, y1, x2, y2) = (
            f64::from(fx + SQUARE / 2),
            f64::from(fy + SQUARE / 2),
            f64::from(tx + SQUARE / 2),
            f64::from(ty + SQUARE / 2),
        );
        let length = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(1.0);
        let shorten = 13.0 / length;
        let (ex, ey) = (x2 - (x2 - x1) * shorten, y2 - (y2 - y1) * shorten);
        let _ = write!(
            out,
            r##"<line x1="{x1}" y1="{y1}" x2="{ex:.1}" y2="{ey:.1}" stroke="#1565c0" stroke-opacity="0.45" stroke-width="7" stroke-linecap="round" marker-end="url(#head)" class="arrow" data-from="{from}" data-to="{to}"/>"##
        );
    }
    for rank in Rank::ALL {
        for file in File::ALL {
            let square = Square::from_coords(file, rank);
            let Some(piece) = board.piece_at(square) else { continue };
            let (x, y) = corner(square, bottom);
            let id = format!("{}{}", if piece.color == Color::White { 'w' } else { 'b' }, piece.role.upper_char());
            let _ = write!(
                out,
                r##"<use href="#{id}" xlink:href="#{id}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" class="piece" data-square="{square}" data-piece="{}"/>"##,
                piece.char(),
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
        assert!(white.contains(r##"<use href="#wQ" xlink:href="#wQ" x="241" y="315" width="45" height="45" class="piece" data-square="f1" data-piece="Q"/>"##), "{white}");
        // Every piece drawn has its symbol.
        for id in ["wK", "wQ", "bK"] {
            assert!(white.contains(&format!(r#"<symbol id="{id}""#)), "{id}");
        }
        // From Black's side, h1 is the top-left square.
        let black = svg(&board, Color::Black, &Marks::default());
        assert!(black.contains(&format!(
            r##"<rect x="{MARGIN}" y="0" width="45" height="45" fill="#f0d9b5" data-square="h1""##
        )));
        assert!(!black.contains("region"));
    }
}
