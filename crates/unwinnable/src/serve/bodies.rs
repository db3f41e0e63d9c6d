//! The JSON body of the error answers hyper writes itself.
//!
//! A request that hyper cannot parse never reaches the routes: hyper
//! answers it directly, with an empty body (400 for a malformed request,
//! 414 for a URL too long, 431 for headers too large). Every other error
//! of the service has a JSON body `{"error", "detail"}`, and a client
//! should not need a second way to read errors. [`ErrorBodies`] wraps a
//! connection's stream and rewrites such an answer as it is written: a
//! response head with a status of 400 or more, no `content-type` and
//! `content-length: 0` is one the routes never write (theirs all have a
//! body), so it can only be hyper's.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A stream whose empty error answers get a JSON body.
#[derive(Debug)]
pub struct ErrorBodies<T> {
    inner: T,
    /// A replacement being written: the bytes, how many are written, and
    /// the length of the original to report once it is all written.
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl<T> ErrorBodies<T> {
    /// Wraps `inner`.
    pub fn new(inner: T) -> ErrorBodies<T> {
        ErrorBodies { inner, pending: None }
    }
}

/// The kind and sentence of an error status hyper answers by itself.
fn describe(status: u16) -> (&'static str, &'static str) {
    match status {
        414 => ("uri-too-long", "the URL is too long"),
        431 => ("headers-too-large", "the request line and headers are too large (at most 64 KiB and 100 headers)"),
        400 => ("bad-request", "the request is not well-formed HTTP/1.1"),
        505 => ("http-version", "only HTTP/1.0 and HTTP/1.1 are spoken here"),
        _ => ("bad-request", "the request cannot be read"),
    }
}

/// The answer to write instead of `head`, if `head` is an empty error
/// answer of hyper's.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let rest = text.strip_prefix("HTTP/1.1 ").or_else(|| text.strip_prefix("HTTP/1.0 "))?;
    if !text.ends_with("\r\n\r\n") || text.matches("\r\n\r\n").count() != 1 {
        return None;
    }
    let status: u16 = rest.get(..3)?.parse().ok()?;
    let lower = text.to_ascii_lowercase();
    if status < 400 || !lower.contains("\r\ncontent-length: 0\r\n") || lower.contains("\r\ncontent-type:") {
        return None;
    }
    let (status_line, _) = text.split_once("\r\n")?;
    let (kind, detail) = describe(status);
    let body = super::error::json_body(kind, detail);
    Some(
        format!(
            "{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<T: AsyncRead + Unpin> AsyncRead for ErrorBodies<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ErrorBodies<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_none() {
            match replacement(buf) {
                Some(answer) => this.pending = Some((answer, 0, buf.len())),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        loop {
            let Some((answer, written, original)) = &mut this.pending else { return Poll::Ready(Ok(0)) };
            if *written == answer.len() {
                let original = *original;
                this.pending = None;
                return Poll::Ready(Ok(original));
            }
            match Pin::new(&mut this.inner).poll_write(cx, &answer[*written..]) {
                Poll::Ready(Ok(0)) => {
                    this.pending = None;
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => {
                    this.pending = None;
                    return Poll::Ready(Err(e));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    /// Not vectored: hyper then writes each response head in one buffer,
    /// where [`replacement`] can see it whole.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_empty_error_heads_are_replaced() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(replacement(head).unwrap()).unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n")
        );
        assert!(answer.ends_with("\r\n\r\n{\"error\":\"headers-too-large\",\"detail\":\"the request line and headers are too large (at most 64 KiB and 100 headers)\"}\n"));
        let length: usize =
            answer.split("content-length: ").nth(1).unwrap().split('\r').next().unwrap().parse().unwrap();
        assert_eq!(length, answer.split("\r\n\r\n").nth(1).unwrap().len());
        for kept in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
            b"not http",
        ] {
            assert_eq!(replacement(kept), None, "{}", String::from_utf8_lossy(kept));
        }
    }
}
