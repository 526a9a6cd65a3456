//! Load and overhead measurements of `folio serve` (issue 3), against a server it starts itself
//! on a temporary data directory (`--bin` the `folio` binary, default `target/release/folio`).
//!
//! ```text
//! load [--bin PATH] [--pdf PATH] [--scan PATH] [--postgres URL] [overhead] [poll] [burst] [nodes]
//! ```
//!
//! * `overhead`: an API-only server (`--workers 0`, nothing recognising): N sequential uploads
//!   of a one-page PDF; time to the 202 answer (median, p99).
//! * `poll`: a server with 2 workers kept busy recognising scans; sequential
//!   `GET /api/v1/operations/{id}` for a while; latency median and p99.
//! * `burst`: 200 concurrent clients (one API key each, the default rate limit) upload 1,000
//!   documents in total (5 each) to a server with 2 workers and a company default webhook to a
//!   local receiver; then checks: no 5xx, every accepted document processed once and charged
//!   once, billing invariants (balance = start - charged, nothing reserved), every webhook event
//!   received exactly once per event id.
//!
//! * `nodes` (needs `--postgres`): an API node and 1, 2, then 3 worker-only nodes (`--workers 1
//!   --no-api`) on one PostgreSQL database and one file directory; `--node-docs` text-layer PDF
//!   documents uploaded at once, time until every one is final: documents per second.
//!
//! * `review`: the web cabinet's review page of a 3-page invoice (`--invoice`, default the
//!   fixture `invoice_en_long_text.pdf`) uploaded and recognised, a user signed in over HTTP: the
//!   first view (its pages rendered in a child process), then `--views` views of the page alone
//!   and of the page with its three images (page images cached): median and p99.
//!
//! With `--postgres URL` (a cluster's maintenance database, e.g.
//! `postgres://postgres@127.0.0.1:5432/postgres`) every server runs on a fresh PostgreSQL
//! database of that cluster instead of the embedded SQLite file. `benches/load-postgres.sh`
//! starts a temporary cluster and runs the scenarios on both databases.
//!
//! Without a scenario argument overhead, poll and burst run (and nodes with `--postgres`).

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use clap::Parser;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Parser)]
#[command(name = "load")]
struct Args {
    /// The folio binary.
    #[arg(long)]
    bin: Option<PathBuf>,
    /// A one-page text-layer PDF.
    #[arg(long)]
    pdf: Option<PathBuf>,
    /// A scanned page (keeps workers busy in `poll`).
    #[arg(long)]
    scan: Option<PathBuf>,
    /// Uploads timed in `overhead`.
    #[arg(long, default_value_t = 300)]
    uploads: usize,
    /// Clients of `burst`.
    #[arg(long, default_value_t = 200)]
    clients: usize,
    /// Documents per client in `burst`.
    #[arg(long, default_value_t = 5)]
    per_client: usize,
    /// A PostgreSQL cluster's maintenance database: servers run on fresh databases of it.
    #[arg(long)]
    postgres: Option<String>,
    /// Documents of `nodes`, for each node count.
    #[arg(long, default_value_t = 600)]
    node_docs: usize,
    /// Worker node counts of `nodes`.
    #[arg(long, value_delimiter = ',', default_values_t = [1usize, 2, 3])]
    node_counts: Vec<usize>,
    /// The multi-page invoice of `review`.
    #[arg(long)]
    invoice: Option<PathBuf>,
    /// Views timed in `review`.
    #[arg(long, default_value_t = 100)]
    views: usize,
    /// Scenarios: overhead, poll, burst, nodes, review (default: all).
    scenarios: Vec<String>,
}

/// The database of each data directory when the servers run on PostgreSQL.
static DATABASES: Mutex<BTreeMap<PathBuf, String>> = Mutex::new(BTreeMap::new());

/// `--database <url>` of a data directory, if it has one.
fn database_args(dir: &Path) -> Vec<String> {
    match DATABASES.lock().ok().and_then(|m| m.get(dir).cloned()) {
        Some(url) => vec!["--database".into(), url],
        None => Vec::new(),
    }
}

/// Gives data directory `dir` a fresh database of the cluster at `postgres` (when given).
async fn fresh_database(postgres: Option<&str>, dir: &Path) -> Result<(), String> {
    let Some(base) = postgres else { return Ok(()) };
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let name = format!(
        "folio_load_{}_{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let base = base.to_string();
    let n = name.clone();
    tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&base, postgres::NoTls).map_err(|e| e.to_string())?;
        c.batch_execute(&format!("CREATE DATABASE {n}"))
            .map_err(|e| e.to_string())?;
        let url = match base.rfind('/') {
            Some(i) => format!("{}/{n}", &base[..i]),
            None => return Err(format!("no database name in {base}")),
        };
        Ok::<String, String>(url)
    })
    .await
    .map_err(|e| e.to_string())?
    .map(|url| {
        if let Ok(mut m) = DATABASES.lock() {
            m.insert(dir.to_path_buf(), url);
        }
    })
}

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(bin: &Path, dir: &Path, extra: &[&str]) -> Result<Server, String> {
    let mut child = Command::new(bin)
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .args(database_args(dir))
        .args(extra)
        .env("OMP_THREAD_LIMIT", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let out = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(out)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_str(line.trim()).map_err(|e| format!("{e}: {line}"))?;
    // A worker-only node (`--no-api`) listens nowhere.
    let base = match v["listening"].as_str() {
        Some(addr) => format!("http://{addr}"),
        None if v["listening"].is_null() => String::new(),
        None => return Err(format!("no address: {line}")),
    };
    Ok(Server { child, base })
}

fn admin(bin: &Path, dir: &Path, args: &[&str]) -> Result<Value, String> {
    let out = Command::new(bin)
        .arg("admin")
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .args(database_args(dir))
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

fn company(bin: &Path, dir: &Path, balance: i64) -> Result<String, String> {
    let c = admin(
        bin,
        dir,
        &[
            "company",
            "create",
            "--name",
            "Load",
            "--balance",
            &balance.to_string(),
        ],
    )?;
    Ok(c["company_id"].as_str().ok_or("no id")?.to_string())
}

fn key(bin: &Path, dir: &Path, company: &str) -> Result<String, String> {
    let k = admin(
        bin,
        dir,
        &[
            "key",
            "create",
            "--company",
            company,
            "--permissions",
            "operations:write,operations:read,documents:read,usage:read",
        ],
    )?;
    Ok(k["api_key"].as_str().ok_or("no key")?.to_string())
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i.min(v.len() - 1)]
}

async fn upload(
    c: &reqwest::Client,
    base: &str,
    key: &str,
    idem: &str,
    name: &str,
    bytes: Vec<u8>,
) -> Result<(u16, Value), String> {
    let form = reqwest::multipart::Form::new().part(
        "files[]",
        reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
    );
    let r = c
        .post(format!("{base}/api/v1/operations"))
        .bearer_auth(key)
        .header("Idempotency-Key", idem)
        .multipart(form)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let st = r.status().as_u16();
    Ok((st, r.json().await.unwrap_or(Value::Null)))
}

async fn overhead(args: &Args, bin: &Path, pdf: &[u8]) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    fresh_database(args.postgres.as_deref(), dir.path()).await?;
    let co = company(bin, dir.path(), 1_000_000)?;
    let k = key(bin, dir.path(), &co)?;
    let s = start(bin, dir.path(), &["--workers", "0", "--rate-limit", "0"])?;
    let c = reqwest::Client::new();
    // Warm-up.
    for i in 0..10 {
        upload(
            &c,
            &s.base,
            &k,
            &format!("w{i}"),
            "invoice.pdf",
            pdf.to_vec(),
        )
        .await?;
    }
    let mut ms = Vec::new();
    for i in 0..args.uploads {
        let t = Instant::now();
        let (st, _) = upload(
            &c,
            &s.base,
            &k,
            &format!("u{i}"),
            "invoice.pdf",
            pdf.to_vec(),
        )
        .await?;
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
        if st != 202 {
            return Err(format!("upload answered {st}"));
        }
    }
    println!(
        "[{}] overhead: {} sequential uploads of a {} byte one-page PDF to an API-only server \
         (--workers 0): median {:.2} ms, p99 {:.2} ms, max {:.2} ms (target: median <= 10 ms)",
        db_name(args),
        ms.len(),
        pdf.len(),
        pct(&mut ms, 0.5),
        pct(&mut ms, 0.99),
        pct(&mut ms, 1.0)
    );
    drop(s);
    Ok(())
}

async fn poll(args: &Args, bin: &Path, scan: &[u8], pdf: &[u8]) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    fresh_database(args.postgres.as_deref(), dir.path()).await?;
    let co = company(bin, dir.path(), 1_000_000)?;
    let k = key(bin, dir.path(), &co)?;
    let s = start(bin, dir.path(), &["--workers", "2", "--rate-limit", "0"])?;
    let c = reqwest::Client::new();
    let (_, target) = upload(&c, &s.base, &k, "target", "invoice.pdf", pdf.to_vec()).await?;
    let op = target["operation_id"].as_str().ok_or("no op")?.to_string();
    // Keep both workers busy with scans for the whole measurement (about 0.4 s each).
    for i in 0..150 {
        upload(
            &c,
            &s.base,
            &k,
            &format!("scan{i}"),
            "scan.png",
            scan.to_vec(),
        )
        .await?;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut ms = Vec::new();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        let t = Instant::now();
        let r = c
            .get(format!("{}/api/v1/operations/{op}", s.base))
            .bearer_auth(&k)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let st = r.status().as_u16();
        let _ = r.bytes().await;
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
        if st != 200 {
            return Err(format!("GET answered {st}"));
        }
    }
    let m = operation(&c, &s.base, &k, &op).await?;
    let metrics = c
        .get(format!("{}/metrics", s.base))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .text()
        .await
        .unwrap_or_default();
    let done = metrics
        .lines()
        .find(|l| l.starts_with("folio_document_processing_seconds_count"))
        .unwrap_or("")
        .to_string();
    println!(
        "[{}] poll: {} sequential GET /api/v1/operations/{{id}} in 20 s while 2 workers recognised \
         scans ({done}): median {:.2} ms, p99 {:.2} ms, max {:.2} ms (target: p99 <= 10 ms); \
         operation {}",
        db_name(args),
        ms.len(),
        pct(&mut ms, 0.5),
        pct(&mut ms, 0.99),
        pct(&mut ms, 1.0),
        m["status"]
    );
    Ok(())
}

#[derive(Default)]
struct Hooks {
    by_event: BTreeMap<String, u32>,
    events: BTreeMap<String, u32>,
}

async fn hook(
    State(h): State<Arc<Mutex<Hooks>>>,
    headers: HeaderMap,
    body: String,
) -> &'static str {
    let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let id = headers
        .get("x-folio-event-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    if let Ok(mut h) = h.lock() {
        *h.by_event.entry(id).or_default() += 1;
        *h.events
            .entry(v["event"].as_str().unwrap_or("?").to_string())
            .or_default() += 1;
    }
    "ok"
}

async fn burst(args: &Args, bin: &Path, pdf: &[u8]) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    fresh_database(args.postgres.as_deref(), dir.path()).await?;
    let balance: i64 = (args.clients * args.per_client) as i64 + 100;
    let co = company(bin, dir.path(), balance)?;
    let hooks: Arc<Mutex<Hooks>> = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let hook_url = format!(
        "http://{}/hook",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    let app = Router::new()
        .route("/hook", post(hook))
        .with_state(hooks.clone());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    admin(
        bin,
        dir.path(),
        &[
            "webhook",
            "create",
            "--company",
            &co,
            "--url",
            &hook_url,
            "--default",
        ],
    )?;
    let mut keys = Vec::new();
    for _ in 0..args.clients {
        keys.push(key(bin, dir.path(), &co)?);
    }
    let s = start(
        bin,
        dir.path(),
        &[
            "--workers",
            "2",
            "--allow-http-webhooks",
            "--allow-private-webhooks",
        ],
    )?;
    let base = s.base.clone();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (ci, k) in keys.iter().enumerate() {
        let (base, k, pdf) = (base.clone(), k.clone(), pdf.to_vec());
        let per = args.per_client;
        tasks.push(tokio::spawn(async move {
            let c = reqwest::Client::new();
            let mut out = Vec::new();
            for j in 0..per {
                // A client retries what was not answered (network) with the same key.
                let idem = format!("c{ci}-{j}");
                let r = upload(
                    &c,
                    &base,
                    &k,
                    &idem,
                    &format!("inv-{ci}-{j}.pdf"),
                    pdf.clone(),
                )
                .await;
                out.push(r);
            }
            out
        }));
    }
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut ops: Vec<(String, String)> = Vec::new();
    for (t, k) in tasks.into_iter().zip(keys.iter()) {
        for r in t.await.map_err(|e| e.to_string())? {
            let (st, v) = r?;
            *statuses.entry(st).or_default() += 1;
            if st == 202 {
                ops.push((
                    v["operation_id"].as_str().unwrap_or("").to_string(),
                    k.clone(),
                ));
            }
        }
    }
    let upload_secs = started.elapsed().as_secs_f64();
    // Wait for every operation to finish.
    let c = reqwest::Client::new();
    let mut docs: BTreeSet<String> = BTreeSet::new();
    let mut charged = 0i64;
    let mut processed = 0usize;
    for (op, k) in &ops {
        loop {
            let r = c
                .get(format!("{base}/api/v1/operations/{op}"))
                .bearer_auth(k)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            if r.status().as_u16() == 429 {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            let v: Value = r.json().await.map_err(|e| e.to_string())?;
            let st = v["status"].as_str().unwrap_or("").to_string();
            if [
                "PROCESSED",
                "PROCESSED_WITH_WARNINGS",
                "COMPLETED_WITH_REJECTIONS",
                "COMPLETED_WITH_ERRORS",
                "FAILED",
            ]
            .contains(&st.as_str())
            {
                for d in v["documents"].as_array().into_iter().flatten() {
                    if !docs.insert(d["document_id"].as_str().unwrap_or("").to_string()) {
                        return Err(format!("document listed twice: {d}"));
                    }
                    charged += d["billing"]["documents_charged"].as_i64().unwrap_or(0);
                    if d["status"].as_str().unwrap_or("").starts_with("PROCESSED") {
                        processed += 1;
                    }
                }
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
    let total_secs = started.elapsed().as_secs_f64();
    let limits: Value = c
        .get(format!("{base}/api/v1/auth/limits"))
        .bearer_auth(&keys[0])
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    // Every event: document.processed per document plus operation.completed per operation.
    let expected_events = processed + ops.len();
    let wait = Instant::now();
    loop {
        let n = hooks.lock().map(|h| h.by_event.len()).unwrap_or(0);
        if n >= expected_events || wait.elapsed() > Duration::from_secs(120) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (distinct, duplicates, events) = {
        let h = hooks.lock().map_err(|e| e.to_string())?;
        (
            h.by_event.len(),
            h.by_event.values().filter(|n| **n > 1).count(),
            h.events.clone(),
        )
    };
    let five_xx: usize = statuses
        .iter()
        .filter(|(s, _)| **s >= 500)
        .map(|(_, n)| n)
        .sum();
    let balance_now = limits["balance_documents"].as_i64().unwrap_or(-1);
    println!(
        "burst: {} clients x {} uploads = {} documents; answers {statuses:?} in {upload_secs:.1} s; \
         all final after {total_secs:.1} s; documents {} (distinct), processed {processed}, \
         charged {charged}; balance {balance} -> {balance_now} (expected {}), reserved {}; \
         webhook events {events:?}: {distinct} distinct event ids (expected {expected_events}), \
         {duplicates} received more than once; 5xx: {five_xx}",
        args.clients,
        args.per_client,
        args.clients * args.per_client,
        docs.len(),
        balance - charged,
        limits["reserved_documents"]
    );
    let ok = five_xx == 0
        && docs.len() == ops.len()
        && balance_now == balance - charged
        && limits["reserved_documents"] == 0
        && charged == processed as i64
        && distinct == expected_events
        && duplicates == 0;
    println!("burst checks: {}", if ok { "all hold" } else { "FAILED" });
    drop(s);
    if ok {
        Ok(())
    } else {
        Err("burst checks failed".into())
    }
}

/// Which database the servers run on, for the report lines.
fn db_name(args: &Args) -> &'static str {
    if args.postgres.is_some() {
        "postgres"
    } else {
        "sqlite"
    }
}

/// Documents per second of 1, 2 and 3 worker-only nodes on one PostgreSQL database.
async fn nodes(args: &Args, bin: &Path, pdf: &[u8]) -> Result<(), String> {
    if args.postgres.is_none() {
        return Err("nodes needs --postgres".into());
    }
    let mut rates = Vec::new();
    for &n in &args.node_counts {
        let files = tempfile::tempdir().map_err(|e| e.to_string())?;
        let files_arg = files.path().to_str().ok_or("path")?.to_string();
        let api_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        fresh_database(args.postgres.as_deref(), api_dir.path()).await?;
        let url = DATABASES
            .lock()
            .map_err(|e| e.to_string())?
            .get(api_dir.path())
            .cloned()
            .ok_or("no database")?;
        let co = company(bin, api_dir.path(), 1_000_000)?;
        let k = key(bin, api_dir.path(), &co)?;
        let common = [
            "--rate-limit",
            "0",
            "--files",
            &files_arg,
            "--lease-secs",
            "30",
        ];
        let mut api_args = vec!["--workers", "0"];
        api_args.extend(common);
        let api = start(bin, api_dir.path(), &api_args)?;
        let mut dirs = Vec::new();
        let mut workers = Vec::new();
        for _ in 0..n {
            let d = tempfile::tempdir().map_err(|e| e.to_string())?;
            if let Ok(mut m) = DATABASES.lock() {
                m.insert(d.path().to_path_buf(), url.clone());
            }
            let mut w_args = vec!["--workers", "1", "--no-api"];
            w_args.extend(common);
            workers.push(start(bin, d.path(), &w_args)?);
            dirs.push(d);
        }
        let c = reqwest::Client::new();
        // Warm-up: one document through every node's worker.
        let (_, w) = upload(&c, &api.base, &k, "warm", "invoice.pdf", pdf.to_vec()).await?;
        let warm = w["operation_id"].as_str().ok_or("no op")?.to_string();
        wait_ops(&c, &api.base, &k, std::slice::from_ref(&warm)).await?;
        let started = Instant::now();
        let mut ops = Vec::new();
        for i in 0..args.node_docs.div_ceil(10) {
            let count = 10.min(args.node_docs - i * 10);
            let mut form = reqwest::multipart::Form::new();
            for j in 0..count {
                form = form.part(
                    "files[]",
                    reqwest::multipart::Part::bytes(pdf.to_vec()).file_name(format!("{j}.pdf")),
                );
            }
            let r = c
                .post(format!("{}/api/v1/operations", api.base))
                .bearer_auth(&k)
                .header("Idempotency-Key", format!("n{n}-{i}"))
                .multipart(form)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let v: Value = r.json().await.map_err(|e| e.to_string())?;
            ops.push(v["operation_id"].as_str().ok_or("no op")?.to_string());
        }
        wait_ops(&c, &api.base, &k, &ops).await?;
        let secs = started.elapsed().as_secs_f64();
        let rate = args.node_docs as f64 / secs;
        println!(
            "[postgres] nodes: {n} worker node(s) (--workers 1 --no-api) + an API node: {} \
             one-page text-layer PDFs in {secs:.2} s = {rate:.1} documents/s",
            args.node_docs
        );
        rates.push((n, rate));
        drop(workers);
        drop(api);
    }
    if let Some(&(1, one)) = rates.first() {
        for &(n, rate) in &rates[1..] {
            println!(
                "[postgres] nodes: throughput {n} nodes / 1 node = {:.2}x",
                rate / one
            );
        }
    }
    Ok(())
}

/// `GET /api/v1/operations/{op}`: the operation's JSON.
async fn operation(c: &reqwest::Client, base: &str, key: &str, op: &str) -> Result<Value, String> {
    c.get(format!("{base}/api/v1/operations/{op}"))
        .bearer_auth(key)
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())
}

/// The `Set-Cookie` values of a response as `name=value` pairs.
fn cookies_of(r: &reqwest::Response) -> Vec<String> {
    r.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .map(str::to_string)
        .collect()
}

/// The value of the first `name="csrf"` field of a page.
fn csrf_of(html: &str) -> Option<String> {
    let at = html.find("name=\"csrf\"")?;
    let v = html[at..].find("value=\"")? + at + "value=\"".len();
    let end = html[v..].find('"')?;
    Some(html[v..v + end].to_string())
}

async fn review(args: &Args, bin: &Path, invoice: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    fresh_database(args.postgres.as_deref(), dir.path()).await?;
    let co = company(bin, dir.path(), 10)?;
    let k = key(bin, dir.path(), &co)?;
    let password = "a long bench password";
    let mut user = Command::new(bin)
        .args([
            "admin",
            "user",
            "create",
            "--company",
            &co,
            "--email",
            "bench@example.com",
        ])
        .arg("--password-stdin")
        .arg("--data-dir")
        .arg(dir.path())
        .args(database_args(dir.path()))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    writeln!(user.stdin.take().ok_or("stdin")?, "{password}").map_err(|e| e.to_string())?;
    if !user.wait().map_err(|e| e.to_string())?.success() {
        return Err("admin user create failed".into());
    }
    let s = start(bin, dir.path(), &["--workers", "1", "--rate-limit", "0"])?;
    let c = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let (st, op) = upload(&c, &s.base, &k, "review-1", "invoice.pdf", invoice.to_vec()).await?;
    if st != 202 {
        return Err(format!("upload answered {st}: {op}"));
    }
    let op_id = op["operation_id"]
        .as_str()
        .ok_or("no operation id")?
        .to_string();
    let doc = op["documents"][0]["document_id"]
        .as_str()
        .ok_or("no document id")?
        .to_string();
    wait_ops(&c, &s.base, &k, std::slice::from_ref(&op_id)).await?;
    // Sign in as a browser does: the form (its CSRF cookie and field), then the POST.
    let form = c
        .get(format!("{}/cabinet/sign-in", s.base))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let pre = cookies_of(&form).join("; ");
    let csrf = csrf_of(&form.text().await.map_err(|e| e.to_string())?).ok_or("no csrf")?;
    let signed = c
        .post(format!("{}/cabinet/sign-in", s.base))
        .header("cookie", &pre)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "csrf={csrf}&email=bench%40example.com&password={}",
            password.replace(' ', "+")
        ))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if signed.status().as_u16() != 303 {
        return Err(format!("sign-in answered {}", signed.status()));
    }
    let session = cookies_of(&signed).join("; ");
    let get = |path: String| {
        let (c, session) = (c.clone(), session.clone());
        async move {
            let t = Instant::now();
            let r = c
                .get(path)
                .header("cookie", session)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let st = r.status().as_u16();
            let body = r.bytes().await.map_err(|e| e.to_string())?;
            if st != 200 {
                return Err(format!("answered {st}"));
            }
            Ok::<(f64, usize), String>((t.elapsed().as_secs_f64() * 1000.0, body.len()))
        }
    };
    let page = format!("{}/cabinet/documents/{doc}", s.base);
    let (first, _) = get(page.clone()).await?;
    let images: Vec<String> = (1..=3)
        .map(|n| format!("{}/cabinet/documents/{doc}/pages/page-{n}.png", s.base))
        .collect();
    let (mut html, mut whole) = (Vec::new(), Vec::new());
    let mut image_bytes = 0;
    for _ in 0..args.views {
        let (t_page, _) = get(page.clone()).await?;
        let mut t = t_page;
        for img in &images {
            let (ti, n) = get(img.clone()).await?;
            t += ti;
            image_bytes = image_bytes.max(n);
        }
        html.push(t_page);
        whole.push(t);
    }
    println!(
        "[{}] review: 3-page invoice, first view (pages rendered) {first:.0} ms; then {} views \
         with cached pages: page {:.2} ms median, {:.2} ms p99; page + 3 images (largest {} KB) \
         {:.2} ms median, {:.2} ms p99 (target: < 300 ms)",
        db_name(args),
        args.views,
        pct(&mut html, 0.5),
        pct(&mut html, 0.99),
        image_bytes / 1024,
        pct(&mut whole, 0.5),
        pct(&mut whole, 0.99),
    );
    Ok(())
}

/// Waits until every operation is final.
async fn wait_ops(
    c: &reqwest::Client,
    base: &str,
    key: &str,
    ops: &[String],
) -> Result<(), String> {
    let limit = Instant::now() + Duration::from_secs(600);
    for op in ops {
        loop {
            let v = operation(c, base, key, op).await?;
            let st = v["status"].as_str().unwrap_or("");
            if ["PROCESSED", "PROCESSED_WITH_WARNINGS"].contains(&st) {
                break;
            }
            if [
                "COMPLETED_WITH_REJECTIONS",
                "COMPLETED_WITH_ERRORS",
                "FAILED",
                "CANCELLED",
            ]
            .contains(&st)
            {
                return Err(format!("operation {op} ended {st}"));
            }
            if Instant::now() > limit {
                return Err(format!("operation {op} not final after 600 s"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let root = folio_bench::inputs::workspace_root();
    let bin = args
        .bin
        .clone()
        .unwrap_or_else(|| root.join("target/release/folio"));
    let pdf_path = args
        .pdf
        .clone()
        .unwrap_or_else(|| root.join("fixtures/docs/invoice_de_text.pdf"));
    let scan_path = args
        .scan
        .clone()
        .unwrap_or_else(|| root.join("fixtures/docs/invoice_de_scan.png"));
    let (Ok(pdf), Ok(scan)) = (std::fs::read(&pdf_path), std::fs::read(&scan_path)) else {
        eprintln!(
            "load: cannot read {} or {}",
            pdf_path.display(),
            scan_path.display()
        );
        return ExitCode::from(2);
    };
    let all = args.scenarios.is_empty();
    let want = |s: &str| all || args.scenarios.iter().any(|x| x == s);
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("load: {e}");
            return ExitCode::from(2);
        }
    };
    let r = rt.block_on(async {
        if want("overhead") {
            overhead(&args, &bin, &pdf).await?;
        }
        if want("poll") {
            poll(&args, &bin, &scan, &pdf).await?;
        }
        if want("burst") {
            burst(&args, &bin, &pdf).await?;
        }
        if want("review") {
            let path = args
                .invoice
                .clone()
                .unwrap_or_else(|| root.join("fixtures/docs/invoice_en_long_text.pdf"));
            let invoice =
                std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            review(&args, &bin, &invoice).await?;
        }
        if (all && args.postgres.is_some()) || args.scenarios.iter().any(|x| x == "nodes") {
            nodes(&args, &bin, &pdf).await?;
        }
        Ok::<(), String>(())
    });
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("load: {e}");
            ExitCode::FAILURE
        }
    }
}
