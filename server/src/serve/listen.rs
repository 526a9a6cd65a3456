//! The connection loop of `folio serve`: HTTP/1.1 over hyper with the limits a public server
//! needs, which `axum::serve` does not set.
//!
//! * a header read timeout: a connection that has not sent a whole request head within
//!   `--header-timeout-secs` (counted from when the server waits for it, so also an idle
//!   kept-alive connection) is closed;
//! * a body read timeout: a request body that sends nothing for `--body-timeout-secs` fails
//!   (the upload answers 408 `REQUEST_TIMEOUT`);
//! * a connection limit: at most `--max-connections` are served at once; further ones wait in
//!   the listen backlog until one ends (each is bounded by the timeouts above, so slow clients
//!   cannot hold them all for long, and `/healthz` stays reachable);
//! * request heads of at most [`MAX_HEAD_BYTES`]; hyper's own answers to requests it cannot
//!   parse (400, 414, 431) get the contract's JSON error body ([`JsonParseErrors`]);
//! * graceful shutdown: when the shutdown future completes the listener closes, open
//!   connections finish their request in flight and close, for at most [`SHUTDOWN_GRACE`].

use super::error::{self, error_body};
use super::model;
use axum::Router;
use clap::Args as ClapArgs;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// Connection limits of `folio serve` (flags).
#[derive(ClapArgs, Debug, Clone)]
pub struct ListenArgs {
    /// Seconds a client may take to send a request's headers; also how long an idle
    /// kept-alive connection stays open.
    #[arg(long, default_value_t = 15)]
    pub header_timeout_secs: u64,
    /// Seconds a request body may send nothing before the request fails (408).
    #[arg(long, default_value_t = 60)]
    pub body_timeout_secs: u64,
    /// Connections served at the same time; more wait in the listen backlog.
    #[arg(long, default_value_t = 1024)]
    pub max_connections: usize,
}

/// Largest request head (request line and headers), bytes; a larger one is answered 431.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Longest wait for open connections to finish after shutdown begins.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `shutdown` completes, then drains open connections for at
/// most [`SHUTDOWN_GRACE`]. Fails only when the listening socket itself is unusable.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &ListenArgs,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(limits.header_timeout_secs.max(1)))
        .max_header_size(MAX_HEAD_BYTES)
        // One contiguous write per flush, which [`JsonParseErrors`] can recognise.
        .writev(false);
    let service = tower::ServiceBuilder::new()
        .layer(RequestBodyTimeoutLayer::new(Duration::from_secs(
            limits.body_timeout_secs.max(1),
        )))
        .service(app);
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) if is_listener_error(&e) => return Err(e),
                Err(e) => {
                    // Out of file descriptors or memory: wait instead of spinning.
                    eprintln!("folio serve: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let conn = http.serve_connection(
            TokioIo::new(JsonParseErrors::new(stream)),
            TowerToHyperService::new(service.clone()),
        );
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // Errors here are the client's (timeouts, resets, bad requests already answered).
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!(
            "folio serve: connections still open after {}s, closing them",
            SHUTDOWN_GRACE.as_secs()
        );
    }
    Ok(())
}

/// Accept errors that concern one connection only.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Accept errors that mean the listening socket cannot accept at all (not listening, not
/// supported), as opposed to a transient shortage.
fn is_listener_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported
    )
}

/// The message of hyper's automatic answer with this status.
fn parse_error_message(status: u16) -> String {
    match status {
        431 => format!("the request headers are larger than {MAX_HEAD_BYTES} bytes"),
        414 => "the request target is too long".to_string(),
        _ => "the request is not valid HTTP/1.1".to_string(),
    }
}

/// When `buf` is exactly one of hyper's automatic answers to a request it could not parse
/// (`HTTP/1.1 4xx ...`, no body, only `content-length: 0`, `date` and `connection` headers),
/// its status.
fn automatic_error_status(buf: &[u8]) -> Option<u16> {
    if buf.len() > 512 || !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let text = std::str::from_utf8(&buf[..buf.len() - 4]).ok()?;
    let mut lines = text.split("\r\n");
    let status: u16 = lines
        .next()?
        .strip_prefix("HTTP/1.1 ")?
        .get(..3)?
        .parse()
        .ok()?;
    if !(400..500).contains(&status) {
        return None;
    }
    let mut empty = false;
    for line in lines {
        let (name, value) = line.split_once(':')?;
        match (name.to_ascii_lowercase().as_str(), value.trim()) {
            ("content-length", "0") => empty = true,
            ("date" | "connection", _) => {}
            _ => return None,
        }
    }
    empty.then_some(status)
}

/// The JSON answer that replaces hyper's empty one.
fn json_error_response(status: u16) -> Vec<u8> {
    let request_id = model::new_id("req_");
    let body = error_body(error::HTTP_ERROR, &parse_error_message(status), &request_id);
    let body = body.to_string();
    let reason = axum::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         x-request-id: {request_id}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The connection's stream, which gives hyper's automatic answers to unparseable requests (an
/// empty 400, 414 or 431, written before the service ever sees the request) the contract's
/// JSON error body. hyper writes such an answer as one write (writev off) when no response is
/// being written, and closes the connection after it.
pub struct JsonParseErrors<S> {
    inner: S,
    /// A replacement answer and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl<S> JsonParseErrors<S> {
    /// Wraps a stream.
    pub fn new(inner: S) -> Self {
        JsonParseErrors {
            inner,
            pending: None,
        }
    }
}

impl<S: AsyncWrite + Unpin> JsonParseErrors<S> {
    /// Writes what is left of a replacement answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, done)) = self.pending.as_mut() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*done..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *done += n;
            if *done == bytes.len() {
                self.pending = None;
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonParseErrors<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        if let Some(status) = automatic_error_status(buf) {
            this.pending = Some((json_error_response(status), 0));
            // Accepted; what the socket does not take now goes out on flush.
            return match this.poll_pending(cx) {
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                _ => Poll::Ready(Ok(buf.len())),
            };
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyper_automatic_answers_are_recognised() {
        let date = "date: Thu, 26 Nov 2026 05:00:00 GMT";
        let auto = |head: &str| format!("{head}\r\ncontent-length: 0\r\n{date}\r\n\r\n");
        assert_eq!(
            automatic_error_status(auto("HTTP/1.1 431 Request Header Fields Too Large").as_bytes()),
            Some(431)
        );
        assert_eq!(
            automatic_error_status(auto("HTTP/1.1 400 Bad Request").as_bytes()),
            Some(400)
        );
        // Responses of the service carry a type and a body: never touched.
        let api = format!(
            "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n{date}\r\n\r\n{{}}"
        );
        assert_eq!(automatic_error_status(api.as_bytes()), None);
        assert_eq!(
            automatic_error_status(auto("HTTP/1.1 200 OK").as_bytes()),
            None
        );
        assert_eq!(
            automatic_error_status(
                b"HTTP/1.1 404 Not Found\r\nx-request-id: r\r\ncontent-length: 0\r\n\r\n"
            ),
            None
        );
        assert_eq!(automatic_error_status(b"some body bytes"), None);
    }

    #[test]
    fn replacement_answers_are_the_contract_body() {
        let r = String::from_utf8(json_error_response(431)).unwrap();
        let (head, body) = r.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"]["code"], error::HTTP_ERROR);
        assert!(v["request_id"].as_str().unwrap().starts_with("req_"));
    }

    #[tokio::test]
    async fn the_stream_rewrites_only_automatic_answers() {
        use tokio::io::AsyncWriteExt;
        let mut out = JsonParseErrors::new(Vec::new());
        out.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
            .await
            .unwrap();
        out.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
            .await
            .unwrap();
        out.flush().await.unwrap();
        let text = String::from_utf8(out.inner).unwrap();
        let (first, second) = text.split_at("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok".len());
        assert_eq!(first, "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
        assert!(second.starts_with("HTTP/1.1 400 Bad Request\r\ncontent-type: application/json"));
        assert!(second.contains("\"HTTP_ERROR\""));
    }
}
