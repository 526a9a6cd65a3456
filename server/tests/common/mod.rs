//! Shared test harness: the real `folio` binary serving on 127.0.0.1 (port chosen by the OS),
//! admin commands on its data directory, a webhook receiver, OpenAPI schema checks.
//!
//! With `FOLIO_TEST_BACKEND=postgres` every server and admin command of a test runs against
//! PostgreSQL instead of the embedded SQLite file: the harness starts its own cluster
//! ([`postgres`]) and gives each data directory its own database, passed with `--database` as a
//! user would.

#![allow(dead_code)]

pub mod postgres;
pub mod s3;

use reqwest::blocking::{Client, multipart};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs the shell commands `cleanup` once this test process has exited, however it exits
/// (kill -9 included): a watcher in a session of its own polls for the process, then runs them.
/// Stops the servers the harness starts outside the process tree (PostgreSQL, the object
/// store) and removes their directories.
pub fn after_this_process(cleanup: &str) {
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {cleanup}",
        pid = std::process::id()
    );
    // Not waited for: it outlives this process by design (it is what cleans up after it).
    #[allow(clippy::zombie_processes)]
    Command::new("setsid")
        .args(["sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cleanup watcher");
}

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_folio")
}

/// `fixtures/docs/<name>`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/docs")
        .join(name)
}

/// The statuses after which an operation no longer changes.
pub const FINAL_STATUSES: [&str; 6] = [
    "PROCESSED",
    "PROCESSED_WITH_WARNINGS",
    "COMPLETED_WITH_REJECTIONS",
    "COMPLETED_WITH_ERRORS",
    "FAILED",
    "CANCELLED",
];

/// Any free port on the loopback interface, chosen by the OS.
pub const ANY_PORT: &str = "127.0.0.1:0";

/// The environment a server is started with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerEnv {
    /// The test's own environment with `OMP_THREAD_LIMIT=1`.
    OneOmpThread,
    /// The test's own environment, unchanged.
    Inherited,
    /// `OMP_THREAD_LIMIT=1` and the AWS_* settings of the test's object store ([`s3`]).
    ObjectStore,
}

/// A running server.
pub struct Server {
    pub child: Child,
    pub base: String,
    pub data_dir: PathBuf,
    pub extra: Vec<String>,
    pub env: ServerEnv,
}

impl Server {
    /// Starts `folio serve` on a data directory (http and loopback webhooks allowed).
    pub fn start(data_dir: &Path, extra: &[&str]) -> Server {
        let mut args = vec!["--allow-http-webhooks", "--allow-private-webhooks"];
        args.extend_from_slice(extra);
        Self::start_with(data_dir, &args)
    }

    /// Starts `folio serve` with exactly these extra arguments (default webhook rules).
    pub fn start_with(data_dir: &Path, extra: &[&str]) -> Server {
        Self::start_on(data_dir, ANY_PORT, ServerEnv::OneOmpThread, extra)
    }

    /// Starts `folio serve --listen <listen>` with exactly these extra arguments in `env`.
    pub fn start_on(data_dir: &Path, listen: &str, env: ServerEnv, extra: &[&str]) -> Server {
        let mut cmd = Command::new(bin());
        cmd.args(["serve", "--listen", listen, "--data-dir"])
            .arg(data_dir)
            .args(postgres::database_args(data_dir))
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if env != ServerEnv::Inherited {
            cmd.env("OMP_THREAD_LIMIT", "1");
        }
        if env == ServerEnv::ObjectStore {
            cmd.envs(s3::store().env());
        }
        let mut child = cmd.spawn().expect("folio serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("first line");
        let v: Value = serde_json::from_str(line.trim())
            .unwrap_or_else(|e| panic!("server did not report its address: {line:?} ({e})"));
        // A worker-only node (`--no-api`) listens nowhere: its base is empty.
        let base = match v["listening"].as_str() {
            Some(addr) => format!("http://{addr}"),
            None => {
                assert!(v["listening"].is_null(), "{v}");
                String::new()
            }
        };
        Server {
            child,
            base,
            data_dir: data_dir.to_path_buf(),
            extra: extra.iter().map(|s| s.to_string()).collect(),
            env,
        }
    }

    /// `base` + path.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The address it listens on (`host:port`).
    pub fn addr(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends signal `name` (`TERM`, `KILL`, ...) to the server.
    pub fn signal(&self, name: &str) {
        let st = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.pid().to_string())
            .status()
            .expect("kill runs");
        assert!(st.success(), "kill -{name} {} failed", self.pid());
    }

    /// Waits for the server to exit, at most `limit`: its exit status and how long it took.
    pub fn wait_exit(&mut self, limit: Duration) -> (ExitStatus, Duration) {
        let start = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().expect("try_wait") {
                return (st, start.elapsed());
            }
            assert!(
                start.elapsed() < limit,
                "the server did not exit within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// kill -9.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// A new server on the same data directory and arguments.
    pub fn restart(mut self) -> Server {
        self.kill9();
        let extra: Vec<String> = std::mem::take(&mut self.extra);
        let refs: Vec<&str> = extra.iter().map(String::as_str).collect();
        Server::start_on(&self.data_dir.clone(), ANY_PORT, self.env, &refs)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `folio admin ...` on a data directory, returning its JSON.
pub fn admin(data_dir: &Path, args: &[&str]) -> Value {
    let out = Command::new(bin())
        .arg("admin")
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .args(postgres::database_args(data_dir))
        .output()
        .expect("folio admin runs");
    assert!(
        out.status.success(),
        "folio admin {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("admin prints JSON")
}

/// Makes `url` the default webhook of `company` (no signature required).
pub fn default_webhook(data_dir: &Path, company: &str, url: &str) {
    admin(
        data_dir,
        &[
            "webhook",
            "create",
            "--company",
            company,
            "--url",
            url,
            "--default",
        ],
    );
}

/// A company with `balance` documents and a key with every permission: (company id, key).
pub fn company_and_key(data_dir: &Path, balance: i64) -> (String, String) {
    let c = admin(
        data_dir,
        &[
            "company",
            "create",
            "--name",
            "Test GmbH",
            "--balance",
            &balance.to_string(),
        ],
    );
    let co = c["company_id"].as_str().expect("company id").to_string();
    let k = admin(
        data_dir,
        &[
            "key",
            "create",
            "--company",
            &co,
            "--permissions",
            "operations:write,operations:read,documents:read,usage:read",
        ],
    );
    (co, k["api_key"].as_str().expect("key").to_string())
}

/// A blocking HTTP client.
pub fn client() -> Client {
    Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("client")
}

/// A multipart form of fixture files.
pub fn form(files: &[&str]) -> multipart::Form {
    let mut f = multipart::Form::new();
    for name in files {
        let bytes = std::fs::read(fixture(name)).expect("fixture");
        f = f.part(
            "files[]",
            multipart::Part::bytes(bytes).file_name(name.to_string()),
        );
    }
    f
}

/// A multipart form of raw parts `(file name, bytes)`.
pub fn form_bytes(files: Vec<(String, Vec<u8>)>) -> multipart::Form {
    let mut f = multipart::Form::new();
    for (name, bytes) in files {
        f = f.part("files[]", multipart::Part::bytes(bytes).file_name(name));
    }
    f
}

/// POST /api/v1/operations; returns (status, body).
pub fn upload(s: &Server, key: &str, idem: &str, form: multipart::Form) -> (u16, Value) {
    try_upload(&s.base, key, idem, form).expect("upload")
}

/// POST /api/v1/operations to the server at `base`, which may be gone by then (so it takes the
/// base URL: a thread can upload while the test signals the server); (status, body) or the
/// transport error.
pub fn try_upload(
    base: &str,
    key: &str,
    idem: &str,
    form: multipart::Form,
) -> Result<(u16, Value), reqwest::Error> {
    let r = client()
        .post(format!("{base}/api/v1/operations"))
        .bearer_auth(key)
        .header("Idempotency-Key", idem)
        .multipart(form)
        .send()?;
    let status = r.status().as_u16();
    Ok((status, r.json().unwrap_or(Value::Null)))
}

/// GET with a key; (status, body as JSON or null).
pub fn get(s: &Server, key: &str, path: &str) -> (u16, Value) {
    let r = client()
        .get(s.url(path))
        .bearer_auth(key)
        .send()
        .expect("get");
    let status = r.status().as_u16();
    (status, r.json().unwrap_or(Value::Null))
}

/// Polls an operation until its status is final; returns it.
pub fn wait_final(s: &Server, key: &str, op: &str, timeout: Duration) -> Value {
    let start = Instant::now();
    loop {
        let (st, v) = get(s, key, &format!("/api/v1/operations/{op}"));
        assert_eq!(st, 200, "{v}");
        if FINAL_STATUSES.contains(&v["status"].as_str().unwrap_or_default()) {
            return v;
        }
        assert!(
            start.elapsed() < timeout,
            "operation {op} not final after {timeout:?}: {v}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The served OpenAPI document.
pub fn openapi(s: &Server) -> Value {
    client()
        .get(s.url("/api/v1/openapi.json"))
        .send()
        .expect("openapi")
        .json()
        .expect("openapi JSON")
}

/// Asserts that `instance` matches `#/components/schemas/<name>` of the OpenAPI document.
pub fn assert_schema(doc: &Value, name: &str, instance: &Value) {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/components/schemas/{name}"),
        "components": doc["components"],
    });
    let v = jsonschema::draft202012::new(&schema).expect("OpenAPI schemas compile");
    let errors: Vec<String> = v
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "{name} does not match the OpenAPI schema: {errors:#?}\n{instance}"
    );
}

/// One request the webhook receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("webhook body is JSON")
    }
}

/// A webhook receiver on 127.0.0.1: answers with the status `respond` gives the n-th request
/// (0-based), after `delay`.
pub struct Receiver {
    pub url: String,
    pub got: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    pub fn start(respond: impl Fn(usize) -> u16 + Send + 'static, delay: Duration) -> Receiver {
        let n = std::sync::atomic::AtomicUsize::new(0);
        Self::start_with(
            move |_| respond(n.fetch_add(1, std::sync::atomic::Ordering::SeqCst)),
            delay,
        )
    }

    /// Like [`Receiver::start`], the status chosen from the request itself.
    pub fn start_with(
        respond: impl Fn(&Received) -> u16 + Send + 'static,
        delay: Duration,
    ) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind receiver");
        let url = format!("http://{}/hook", listener.local_addr().expect("addr"));
        let got: Arc<Mutex<Vec<Received>>> = Arc::new(Mutex::new(Vec::new()));
        let g = got.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                // A sender killed mid-request (the node tests kill nodes) leaves a cut request:
                // no request line, no blank line after the headers, or a short body. A real
                // receiver answers nothing to it, and the sender's retry delivers the event.
                let mut request_line = String::new();
                if !matches!(reader.read_line(&mut request_line), Ok(n) if n > 0) {
                    continue;
                }
                let path = request_line
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or("")
                    .to_string();
                let mut headers = Vec::new();
                let mut len = 0usize;
                let mut complete = false;
                loop {
                    let mut l = String::new();
                    if reader.read_line(&mut l).is_err() || l.is_empty() {
                        break;
                    }
                    if l == "\r\n" {
                        complete = true;
                        break;
                    }
                    if let Some((k, v)) = l.trim_end().split_once(':') {
                        let (k, v) = (k.trim().to_string(), v.trim().to_string());
                        if k.eq_ignore_ascii_case("content-length") {
                            len = v.parse().unwrap_or(0);
                        }
                        headers.push((k, v));
                    }
                }
                let mut body = vec![0u8; len];
                if !complete || reader.read_exact(&mut body).is_err() {
                    continue;
                }
                let req = Received {
                    path,
                    headers,
                    body,
                };
                let status = respond(&req);
                g.lock().expect("lock").push(req);
                std::thread::sleep(delay);
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                );
            }
        });
        Receiver { url, got }
    }

    pub fn received(&self) -> Vec<Received> {
        self.got.lock().expect("lock").clone()
    }

    /// Waits until `pred` holds over the received requests.
    pub fn wait_for(&self, timeout: Duration, pred: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        let start = Instant::now();
        loop {
            let r = self.received();
            if pred(&r) {
                return r;
            }
            assert!(
                start.elapsed() < timeout,
                "webhook receiver: condition not met in {timeout:?}; got {} requests: {:?}",
                r.len(),
                r.iter()
                    .map(|x| x.header("X-Folio-Event"))
                    .collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// HMAC-SHA256 written out from its definition (RFC 2104) over the `sha2` digest: an
/// implementation independent of the server's.
pub fn hmac_sha256_hex(key: &[u8], msg: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let ipad: Vec<u8> = k.iter().map(|b| b ^ 0x36).collect();
    let opad: Vec<u8> = k.iter().map(|b| b ^ 0x5c).collect();
    let inner = Sha256::new()
        .chain_update(&ipad)
        .chain_update(msg)
        .finalize();
    let outer = Sha256::new()
        .chain_update(&opad)
        .chain_update(inner)
        .finalize();
    outer.iter().map(|b| format!("{b:02x}")).collect()
}
