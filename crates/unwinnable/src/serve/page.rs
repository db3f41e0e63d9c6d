//! The web page at `/`: four static files embedded in the binary (no
//! build step, no network), served with a content security policy that
//! lets the page load nothing but them and talk to nothing but this
//! server.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The page.
pub const INDEX_HTML: &str = include_str!("page/index.html");
/// Its script.
pub const APP_JS: &str = include_str!("page/app.js");
/// Its style.
pub const STYLE_CSS: &str = include_str!("page/style.css");
/// The chess pieces, one SVG `<symbol>` each (`wK`, `bQ`, ...): drawn for
/// this project, under its licence; the page and `/board.svg` use them.
pub const PIECES_SVG: &str = include_str!("page/pieces.svg");

/// Only this server: no other origin, no inline script.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
                      connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

fn file(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`.
pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub async fn script() -> Response {
    file("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /style.css`.
pub async fn style() -> Response {
    file("text/css; charset=utf-8", STYLE_CSS)
}

/// `GET /pieces.svg`.
pub async fn pieces() -> Response {
    file("image/svg+xml", PIECES_SVG)
}
