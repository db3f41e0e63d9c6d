//! The service's error answers: a status and a JSON body
//! `{"error": KIND, "detail": SENTENCE}`, where `KIND` is a stable name a
//! client can test and `SENTENCE` says what was wrong for a human.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Seconds a client told "busy" should wait (`Retry-After`).
pub const RETRY_AFTER_SECS: u32 = 1;

/// Why a request was not answered with a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// 400: the request is wrong (a FEN, a parameter, a body).
    BadRequest {
        /// The stable kind (`invalid-query`, `invalid-parameter`, ...).
        kind: &'static str,
        /// What was wrong.
        detail: String,
    },
    /// 404: no such page.
    NotFound(String),
    /// 405: the route exists, not with this method.
    MethodNotAllowed(String),
    /// 408: the client took too long to send its request.
    Timeout(String),
    /// 413: the body (or the batch) is larger than allowed.
    TooLarge(String),
    /// 415: the body's `Content-Encoding` is not read by the route.
    UnsupportedEncoding(String),
    /// 503: every worker is busy and the queue is full, or the memory for
    /// request bodies is taken; try again after [`RETRY_AFTER_SECS`].
    Busy(String),
    /// 503: the server is shutting down.
    ShuttingDown,
    /// 500: a bug (an analysis panicked); the server goes on.
    Internal(String),
}

impl ApiError {
    /// A 400 for a bad query parameter.
    pub fn parameter(detail: impl Into<String>) -> ApiError {
        ApiError::BadRequest { kind: "invalid-parameter", detail: detail.into() }
    }

    /// A 400 for a query (a FEN and a winner) that cannot be analysed.
    pub fn query(detail: impl Into<String>) -> ApiError {
        ApiError::BadRequest { kind: "invalid-query", detail: detail.into() }
    }

    /// A 400 for a body that cannot be read.
    pub fn body(detail: impl Into<String>) -> ApiError {
        ApiError::BadRequest { kind: "invalid-body", detail: detail.into() }
    }

    /// The status code.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedEncoding(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Busy(_) | ApiError::ShuttingDown => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable kind.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::BadRequest { kind, .. } => kind,
            ApiError::NotFound(_) => "not-found",
            ApiError::MethodNotAllowed(_) => "method-not-allowed",
            ApiError::Timeout(_) => "timeout",
            ApiError::TooLarge(_) => "too-large",
            ApiError::UnsupportedEncoding(_) => "unsupported-encoding",
            ApiError::Busy(_) => "busy",
            ApiError::ShuttingDown => "shutting-down",
            ApiError::Internal(_) => "internal",
        }
    }

    /// The sentence for a human.
    pub fn detail(&self) -> &str {
        match self {
            ApiError::BadRequest { detail, .. }
            | ApiError::NotFound(detail)
            | ApiError::MethodNotAllowed(detail)
            | ApiError::Timeout(detail)
            | ApiError::TooLarge(detail)
            | ApiError::UnsupportedEncoding(detail)
            | ApiError::Busy(detail)
            | ApiError::Internal(detail) => detail,
            ApiError::ShuttingDown => "the server is shutting down",
        }
    }
}

/// The JSON body of an error.
#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
    detail: &'a str,
}

/// The JSON body of an error: `{"error": kind, "detail": detail}` and a
/// newline (also for the answers written outside the routes).
pub fn json_body(kind: &str, detail: &str) -> String {
    pipeline::to_json(&Body { error: kind, detail }) + "\n"
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json_body(self.kind(), self.detail());
        let mut response = (self.status(), [(header::CONTENT_TYPE, "application/json")], body).into_response();
        if self.status() == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        if matches!(self, ApiError::Timeout(_)) {
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}
