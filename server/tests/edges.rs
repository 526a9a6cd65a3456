//! The server's edges over real sockets against the real binary: read timeouts and the
//! connection limit, oversized uploads refused without reading them, every error a JSON body
//! (framework rejections, hyper's own answers), Idempotency-Key rules, webhook SSRF table.

mod common;

use common::*;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A raw HTTP/1.1 response: status, lower-cased headers, body.
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as the contract's error: asserts JSON with the Error schema; returns the code.
    fn error_code(&self, doc: &Value) -> String {
        assert!(
            self.header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "status {} is not JSON: {:?} {:?}",
            self.status,
            self.headers,
            String::from_utf8_lossy(&self.body)
        );
        let v: Value = serde_json::from_slice(&self.body).expect("JSON error body");
        assert_schema(doc, "Error", &v);
        v["error"]["code"].as_str().unwrap_or_default().to_string()
    }

    /// The error code, or "" for a 202.
    fn error_code_or_accepted(&self, doc: &Value) -> String {
        if self.status == 202 {
            String::new()
        } else {
            self.error_code(doc)
        }
    }
}

/// Reads one response (Content-Length framed) from a stream.
fn read_response(stream: &mut TcpStream) -> Raw {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = stream.read(&mut chunk).expect("response head");
        assert!(n > 0, "connection closed before a response: {buf:?}");
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < len {
        let n = stream.read(&mut chunk).expect("response body");
        assert!(n > 0, "connection closed inside the body");
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(len);
    Raw {
        status,
        headers,
        body,
    }
}

/// Sends raw bytes on a new connection and reads the response.
fn raw_request(s: &Server, bytes: &[u8]) -> Raw {
    let mut c = TcpStream::connect(s.addr()).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    c.write_all(bytes).expect("send");
    read_response(&mut c)
}

/// Whether the server closed the connection (EOF or reset) before `deadline`.
fn closed_by(c: &mut TcpStream, deadline: Instant) -> bool {
    let mut b = [0u8; 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        c.set_read_timeout(Some(left)).unwrap();
        match c.read(&mut b) {
            Ok(0) => return true,
            Ok(_) => continue, // an answer before closing is fine
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn slow_headers_are_closed_and_healthz_stays_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &["--header-timeout-secs", "2"]);
    // 300 connections, each half a request head, then nothing.
    let opened = Instant::now();
    let mut stalled: Vec<TcpStream> = (0..300)
        .map(|i| {
            let mut c = TcpStream::connect(s.addr()).expect("connect");
            write!(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow-{i}: ").unwrap();
            c
        })
        .collect();
    // The server still answers at once.
    for _ in 0..5 {
        let t = Instant::now();
        let r = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(3))
            .build()
            .unwrap()
            .get(s.url("/healthz"))
            .send()
            .expect("healthz answers while 300 requests stall");
        assert_eq!(r.status().as_u16(), 200);
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    }
    // A kept-alive connection that goes idle after a complete request is closed the same way.
    let mut idle = TcpStream::connect(s.addr()).expect("connect");
    idle.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_eq!(read_response(&mut idle).status, 200);
    stalled.push(idle);
    // Every stalled connection is closed by the server after the header timeout (2 s; the
    // generous margin is for a loaded machine), none left open.
    let deadline = opened + Duration::from_secs(15);
    let open: usize = stalled
        .iter_mut()
        .map(|c| usize::from(!closed_by(c, deadline)))
        .sum();
    assert_eq!(open, 0, "{open} stalled connections still open after 15 s");
}

#[test]
fn the_connection_limit_queues_new_connections_until_one_ends() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(
        dir.path(),
        &["--header-timeout-secs", "2", "--max-connections", "4"],
    );
    let mut stalled: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut c = TcpStream::connect(s.addr()).expect("connect");
            c.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            c
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // A fifth connection is served once a slot frees, i.e. when the header timeout closes one
    // of the four: not at once, and not much later than the timeout.
    let t = Instant::now();
    let r = raw_request(
        &s,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    let waited = t.elapsed();
    assert_eq!(r.status, 200);
    assert!(
        waited >= Duration::from_millis(800),
        "served before a slot was free: {waited:?}"
    );
    assert!(waited < Duration::from_secs(12), "{waited:?}");
    let deadline = Instant::now() + Duration::from_secs(10);
    assert!(stalled.iter_mut().all(|c| closed_by(c, deadline)));
}

#[test]
fn a_stalled_upload_body_times_out_with_408() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 5);
    let s = Server::start(dir.path(), &["--body-timeout-secs", "2"]);
    let doc = openapi(&s);
    let mut c = TcpStream::connect(s.addr()).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let part = "--XB\r\nContent-Disposition: form-data; name=\"files[]\"; filename=\"a.pdf\"\r\n\
                Content-Type: application/pdf\r\n\r\n%PDF-1.4 only the start";
    write!(
        c,
        "POST /api/v1/operations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
         Idempotency-Key: slow-body\r\nContent-Type: multipart/form-data; boundary=XB\r\n\
         Content-Length: 100000\r\n\r\n{part}"
    )
    .unwrap();
    let t = Instant::now();
    let r = read_response(&mut c);
    assert_eq!(
        (r.status, r.error_code(&doc)),
        (408, "REQUEST_TIMEOUT".into())
    );
    assert!(t.elapsed() >= Duration::from_secs(1), "{:?}", t.elapsed());
    // The key was released: the same key can be used for a real upload.
    let (st, body) = upload(&s, &key, "slow-body", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 202, "{body}");
}

#[test]
fn oversized_uploads_are_refused_without_reading_them() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 5);
    let s = Server::start(dir.path(), &["--max-request-mb", "1"]);
    let doc = openapi(&s);

    // A Content-Length of 3 GB with a tiny body: answered at once from the header.
    let mut c = TcpStream::connect(s.addr()).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let t = Instant::now();
    write!(
        c,
        "POST /api/v1/operations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
         Idempotency-Key: big-1\r\nContent-Type: multipart/form-data; boundary=XB\r\n\
         Content-Length: 3000000000\r\n\r\n--XB\r\n"
    )
    .unwrap();
    let r = read_response(&mut c);
    assert_eq!(
        (r.status, r.error_code(&doc)),
        (413, "REQUEST_TOO_LARGE".into())
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());

    // A chunked body that never ends: the answer comes once it passes 1 MB, so the server
    // stopped reading there (it could not have read to an end that never comes).
    let mut c = TcpStream::connect(s.addr()).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        c,
        "POST /api/v1/operations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
         Idempotency-Key: big-2\r\nContent-Type: multipart/form-data; boundary=XB\r\n\
         Transfer-Encoding: chunked\r\n\r\n"
    )
    .unwrap();
    let mut writer = c.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let head = "--XB\r\nContent-Disposition: form-data; name=\"files[]\"; \
                    filename=\"big.pdf\"\r\nContent-Type: application/pdf\r\n\r\n";
        let _ = write!(writer, "{:x}\r\n{head}\r\n", head.len());
        let chunk = vec![b'x'; 64 * 1024];
        // Up to 3 MB, then stall with the body unfinished; write errors (the server closed)
        // end the sender.
        for _ in 0..48 {
            if write!(writer, "{:x}\r\n", chunk.len()).is_err()
                || writer.write_all(&chunk).is_err()
                || writer.write_all(b"\r\n").is_err()
            {
                return;
            }
        }
        std::thread::sleep(Duration::from_secs(30));
    });
    let r = read_response(&mut c);
    assert_eq!(
        (r.status, r.error_code(&doc)),
        (413, "REQUEST_TOO_LARGE".into())
    );
    drop(c);
    drop(sender);

    // Without a valid key the answer is 401, also at once (nothing is drained of a body
    // declared that large).
    let mut c = TcpStream::connect(s.addr()).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let t = Instant::now();
    c.write_all(
        b"POST /api/v1/operations HTTP/1.1\r\nHost: x\r\nIdempotency-Key: big-3\r\n\
          Content-Type: multipart/form-data; boundary=XB\r\nContent-Length: 3000000000\r\n\r\n--XB\r\n",
    )
    .unwrap();
    let r = read_response(&mut c);
    assert_eq!((r.status, r.error_code(&doc)), (401, "UNAUTHORIZED".into()));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());

    // The refused keys were released: the same key works for an upload within the limit.
    let (st, body) = upload(&s, &key, "big-2", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 202, "{body}");
}

#[test]
fn every_error_is_the_contract_json_body() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 5);
    let s = Server::start(dir.path(), &[]);
    let doc = openapi(&s);
    let auth = format!("Authorization: Bearer {key}\r\n");
    let req = |line: &str, extra: &str| -> Raw {
        raw_request(
            &s,
            format!("{line}\r\nHost: x\r\n{extra}Connection: close\r\n\r\n").as_bytes(),
        )
    };
    let cases: Vec<(&str, Raw, u16, &str)> = vec![
        (
            "unknown route",
            req("GET /nope HTTP/1.1", &auth),
            404,
            "HTTP_ERROR",
        ),
        (
            "wrong method",
            req("DELETE /healthz HTTP/1.1", ""),
            405,
            "HTTP_ERROR",
        ),
        (
            "%FF in a path id",
            req("GET /api/v1/documents/%FF/result HTTP/1.1", &auth),
            400,
            "INVALID_PATH",
        ),
        (
            "%FF in an operation id",
            req("GET /api/v1/operations/op_%FF%FE HTTP/1.1", &auth),
            400,
            "INVALID_PATH",
        ),
        (
            "%FF on the signed route",
            req(
                "GET /api/v1/signed/documents/%FF/artifacts/text?expires=1&signature=x HTTP/1.1",
                "",
            ),
            400,
            "INVALID_PATH",
        ),
        (
            "duplicate query parameters on a signed URL",
            req(
                "GET /api/v1/signed/documents/doc_1/artifacts/text?expires=1&expires=2&signature=a HTTP/1.1",
                "",
            ),
            403,
            "SIGNED_URL_INVALID",
        ),
        (
            "duplicate signature on a signed URL",
            req(
                "GET /api/v1/signed/documents/doc_1/artifacts/text?expires=1&signature=a&signature=b HTTP/1.1",
                "",
            ),
            403,
            "SIGNED_URL_INVALID",
        ),
        (
            "1 MB Authorization header",
            req(
                "GET /api/v1/auth/limits HTTP/1.1",
                &format!("Authorization: Bearer {}\r\n", "a".repeat(1024 * 1024)),
            ),
            431,
            "HTTP_ERROR",
        ),
        (
            "100 KB of headers",
            req(
                "GET /healthz HTTP/1.1",
                &(0..100)
                    .map(|i| format!("X-H{i}: {}\r\n", "b".repeat(1000)))
                    .collect::<String>(),
            ),
            431,
            "HTTP_ERROR",
        ),
        (
            "not HTTP",
            raw_request(&s, b"GARBAGE \x01\x02\r\n\r\n"),
            400,
            "HTTP_ERROR",
        ),
        (
            "bad header line",
            req("GET /healthz HTTP/1.1", "Bad Header Line\r\n"),
            400,
            "HTTP_ERROR",
        ),
    ];
    for (what, r, status, code) in cases {
        assert_eq!(
            r.status,
            status,
            "{what}: {}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.error_code(&doc), code, "{what}");
    }
    // A header of a sane size still works after all that.
    let r = req(
        "GET /api/v1/auth/limits HTTP/1.1",
        &format!("{auth}X-Big: {}\r\n", "c".repeat(16 * 1024)),
    );
    assert_eq!(r.status, 200);
}

#[test]
fn idempotency_keys_must_be_visible_ascii_and_not_empty() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 5);
    let s = Server::start(dir.path(), &[]);
    let doc = openapi(&s);
    let schema = &doc["paths"]["/api/v1/operations"]["post"]["parameters"][0];
    assert_eq!(schema["name"], "Idempotency-Key");
    assert_eq!(schema["schema"]["minLength"], 1);
    assert_eq!(schema["schema"]["maxLength"], 255);
    assert_eq!(schema["schema"]["pattern"], "^[!-~]+$");
    let pdf = std::fs::read(fixture("invoice_de_text.pdf")).unwrap();
    let upload_with = |idem: &[u8]| -> (u16, String) {
        let mut body = Vec::new();
        body.extend_from_slice(
            b"--XB\r\nContent-Disposition: form-data; name=\"files[]\"; filename=\"a.pdf\"\r\n\
              Content-Type: application/pdf\r\n\r\n",
        );
        body.extend_from_slice(&pdf);
        body.extend_from_slice(b"\r\n--XB--\r\n");
        let mut head = format!(
            "POST /api/v1/operations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
             Content-Type: multipart/form-data; boundary=XB\r\nContent-Length: {}\r\n\
             Connection: close\r\nIdempotency-Key: ",
            body.len()
        )
        .into_bytes();
        head.extend_from_slice(idem);
        head.extend_from_slice(b"\r\n\r\n");
        head.extend_from_slice(&body);
        let r = raw_request(&s, &head);
        let code = r.error_code_or_accepted(&doc);
        (r.status, code)
    };
    let long = "k".repeat(256);
    let bad: [&[u8]; 5] = [
        "ключ-1".as_bytes(),
        b"caf\xe9",
        b"",
        b"a b",
        long.as_bytes(),
    ];
    for bad in bad {
        assert_eq!(
            upload_with(bad),
            (400, "INVALID_IDEMPOTENCY_KEY".into()),
            "{:?}",
            String::from_utf8_lossy(bad)
        );
    }
    assert_eq!(upload_with(b"ok-key_1:2"), (202, String::new()));
}
