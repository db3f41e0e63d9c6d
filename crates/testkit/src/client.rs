//! A small blocking HTTP/1.1 client for the service's tests and its load
//! test (`cargo xtask load`): one keep-alive connection, requests written
//! as given (a test can send what no well-behaved client would), responses
//! read whole (`Content-Length`, chunked, or to the end).

use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case, in order.
    pub headers: Vec<(String, String)>,
    /// The body (chunked bodies decoded).
    pub body: Vec<u8>,
}

impl Response {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body as text (lossily decoded).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// A client of one server, keeping its connection open between requests.
#[derive(Debug)]
pub struct Client {
    addr: SocketAddr,
    timeout: Duration,
    connection: Option<BufReader<TcpStream>>,
}

/// `text` percent-encoded for a query string (all but the unreserved
/// characters of RFC 3986).
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3 / 2);
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

fn invalid(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.into())
}

impl Client {
    /// A client of the server at `addr`; each read and write may take
    /// `timeout`.
    pub fn new(addr: SocketAddr, timeout: Duration) -> Client {
        Client { addr, timeout, connection: None }
    }

    fn connect(&self) -> io::Result<BufReader<TcpStream>> {
        let stream = TcpStream::connect_timeout(&self.addr, self.timeout)?;
        stream.set_read_timeout(Some(self.timeout))?;
        stream.set_write_timeout(Some(self.timeout))?;
        stream.set_nodelay(true)?;
        Ok(BufReader::new(stream))
    }

    /// `GET path`.
    pub fn get(&mut self, path: &str) -> io::Result<Response> {
        self.request("GET", path, &[], &[])
    }

    /// `POST path` with `body` of `content_type`.
    pub fn post(&mut self, path: &str, content_type: &str, body: &[u8]) -> io::Result<Response> {
        self.request("POST", path, &[("content-type", content_type)], body)
    }

    /// A request; a kept connection the server has closed meanwhile is
    /// opened again once.
    pub fn request(&mut self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> io::Result<Response> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nhost: {}\r\n", self.addr);
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if !body.is_empty() || method == "POST" {
            head.push_str(&format!("content-length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let reused = self.connection.is_some();
        match self.exchange(head.as_bytes(), body) {
            Err(_) if reused => {
                self.connection = None;
                self.exchange(head.as_bytes(), body)
            }
            result => result,
        }
    }

    fn exchange(&mut self, head: &[u8], body: &[u8]) -> io::Result<Response> {
        let mut connection = match self.connection.take() {
            Some(connection) => connection,
            None => self.connect()?,
        };
        connection.get_mut().write_all(head)?;
        // A server may answer before it has read the body (413) and close
        // the connection: its answer is still there to read.
        let written = connection.get_mut().write_all(body);
        let (response, keep) = match read_response(&mut connection) {
            Ok(read) => read,
            Err(e) => return Err(written.err().unwrap_or(e)),
        };
        if keep {
            self.connection = Some(connection);
        }
        Ok(response)
    }
}

/// Reads one response; whether the connection stays usable.
pub fn read_response<R: BufRead>(reader: &mut R) -> io::Result<(Response, bool)> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the server closed the connection"));
    }
    let status = line
        .split_ascii_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| invalid(format!("bad status line {line:?}")))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let (name, value) = trimmed.split_once(':').ok_or_else(|| invalid(format!("bad header {trimmed:?}")))?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let close = header("connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
    let mut body = Vec::new();
    let mut keep = !close;
    if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| invalid(format!("bad chunk size {line:?}")))?;
            if size == 0 {
                // The trailer, up to the empty line.
                loop {
                    line.clear();
                    if reader.read_line(&mut line)? == 0 || line.trim_end().is_empty() {
                        break;
                    }
                }
                break;
            }
            let start = body.len();
            body.resize(start + size, 0);
            reader.read_exact(&mut body[start..])?;
            line.clear();
            reader.read_line(&mut line)?;
        }
    } else if let Some(length) = header("content-length") {
        let length: usize = length.parse().map_err(|_| invalid(format!("bad content-length {length:?}")))?;
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    } else {
        reader.read_to_end(&mut body)?;
        keep = false;
    }
    Ok((Response { status, headers, body }, keep))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_are_read() {
        let raw = b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        let (response, keep) = read_response(&mut &raw[..]).unwrap();
        assert_eq!((response.status, response.text().as_str(), keep), (200, "abcde", true));
        assert_eq!(response.header("Content-Type"), Some("text/plain"));
        let raw =
            b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}";
        let (response, keep) = read_response(&mut &raw[..]).unwrap();
        assert_eq!((response.status, response.text().as_str(), keep), (503, "{}", false));
        assert_eq!(encode("8/8 w - -"), "8%2F8%20w%20-%20-");
    }
}
