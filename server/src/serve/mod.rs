//! `folio serve`: the HTTP contract over the core engine, on embedded defaults (one SQLite file
//! and a files directory under the data directory; nothing else to install or start).
//!
//! * [`api`] and [`upload`]: the axum routes;
//! * [`store`] over [`db`] ([`sql`]: SQLite or PostgreSQL): records, the durable queue,
//!   billing, idempotency, deliveries, and the views the API shows; [`files`]: stored uploads
//!   (a directory or an S3-compatible object store);
//! * [`worker`] over [`pool`]: N recognition slots, each with a worker process (`folio
//!   worker`) under a memory and a time limit;
//! * [`webhooks`]: the delivery loop;
//! * [`auth`], [`ratelimit`], [`metrics`], [`error`]: the service concerns;
//! * [`cabinet`]: the companies' web cabinet at `/cabinet/` (users, keys, webhooks, balance,
//!   operations and the review page).
//!
//! After a crash (kill -9 included) a restart requeues interrupted documents, resumes pending
//! deliveries and forgets half-accepted uploads; every state change that matters is committed
//! in one transaction, so nothing is lost, processed into two results or charged twice. Nodes
//! sharing a PostgreSQL database (`--database`) hold what they work on under leases: a node
//! that dies gives its documents back when it restarts or when its leases end.
//!
//! SIGTERM or SIGINT drains: no new connections or documents, the documents in progress get
//! `--drain-secs` to finish, then their workers are killed and they go back to the queue; the
//! process exits 0. Workers never outlive the server (see [`crate::worker`]).

pub mod api;
pub mod auth;
pub mod cabinet;
pub mod db;
pub mod error;
pub mod files;
pub mod form;
pub mod listen;
pub mod metrics;
pub mod model;
pub mod pg;
pub mod pool;
pub mod ratelimit;
pub mod signed;
pub mod sql;
pub mod sqlite;
pub mod store;
pub mod upload;
pub mod webhooks;
pub mod worker;

use clap::Args as ClapArgs;
use folio::{CancelToken, EngineConfig};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Everything the handlers, workers and the delivery loop share.
pub struct App {
    /// The database.
    pub db: db::Db,
    /// Counts PDF pages at upload (`selected_pages`) in a child process, with the engine
    /// configuration's pdfium library and the workers' memory limit.
    pub page_counter: crate::pagecount::PageCounter,
    /// Renders pages for the cabinet's review page in a child process.
    pub renderer: crate::pagerender::PageRenderer,
    /// Rendered pages, one directory per document (`cache/review/<document id>`), on this
    /// node's disk: made again on a node that lacks them.
    pub cache_dir: PathBuf,
    /// When this node last recorded a key's use (`api_keys.last_used_ms` is written at most
    /// once a minute per key and node).
    pub keys_seen: Mutex<HashMap<String, i64>>,
    /// Stored uploads, one file per document, named by the document id.
    pub files: files::FileStore,
    /// Uploads being received.
    pub tmp_dir: PathBuf,
    /// Who webhooks may call.
    pub url_policy: webhooks::UrlPolicy,
    /// Webhook HTTP client.
    pub http: reqwest::Client,
    /// Prefix of webhook headers.
    pub header_prefix: String,
    /// Metrics.
    pub metrics: metrics::Metrics,
    /// Per-key request rate limit.
    pub limiter: ratelimit::RateLimiter,
    /// Wakes idle workers when documents are queued.
    pub jobs_wake: tokio::sync::Notify,
    /// Wakes the delivery loop when deliveries are created.
    pub deliveries_wake: tokio::sync::Notify,
    /// Cancel tokens of the documents being recognised.
    pub running: Mutex<HashMap<String, CancelToken>>,
    /// Key of signed artifact URLs.
    pub signing_key: Vec<u8>,
    /// Base URL of signed links.
    pub public_url: String,
    /// Lifetime of signed links.
    pub signed_url_ttl: Duration,
    /// Largest request body.
    pub max_request_bytes: usize,
    /// How long a claimed document is held without renewal.
    pub lease: Duration,
    /// This node's name in the shared database (the holder of its leases), kept in the data
    /// directory so a restarted node knows what it held.
    pub node_id: String,
}

impl App {
    /// Remembers the cancel token of a running document.
    pub fn register_running(&self, doc: &str, token: &CancelToken) {
        if let Ok(mut m) = self.running.lock() {
            m.insert(doc.to_string(), token.clone());
        }
    }
    /// Forgets a finished document.
    pub fn unregister_running(&self, doc: &str) {
        if let Ok(mut m) = self.running.lock() {
            m.remove(doc);
        }
    }
    /// Cancels a running document (no effect when it is not running).
    pub fn cancel_running(&self, doc: &str) {
        if let Ok(m) = self.running.lock()
            && let Some(t) = m.get(doc)
        {
            t.cancel();
        }
    }
}

/// The state handlers receive.
pub type AppState = Arc<App>;

/// `folio serve` options.
#[derive(ClapArgs, Debug, Clone)]
pub struct ServeArgs {
    /// Data directory: the SQLite database and the stored files.
    #[arg(long, env = "FOLIO_DATA_DIR", default_value = "./folio-data")]
    pub data_dir: PathBuf,
    /// A shared database instead of the embedded one: `postgres://user:password@host:port/db`
    /// (every node of a deployment names the same one).
    #[arg(long, env = "FOLIO_DATABASE_URL")]
    pub database: Option<String>,
    /// Where stored uploads are kept, when not in the data directory's `files`:
    /// `s3://bucket/prefix` (S3 settings from the AWS_* environment variables), or a directory
    /// every node of a deployment sees (the same path on each).
    #[arg(long, env = "FOLIO_FILES_URL")]
    pub files: Option<String>,
    /// The key (hex, at least 32 bytes) that signs artifact links, when not the one created in
    /// the data directory: nodes that share it accept each other's links.
    #[arg(long, env = "FOLIO_SIGNING_KEY", hide_env_values = true)]
    pub signing_key: Option<String>,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Recognition workers (documents processed at the same time). 0 runs an API-only node:
    /// uploads are accepted and queued in the database for other `folio serve` processes on the
    /// same data directory to recognise.
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
    /// Base URL of this server as clients reach it (for signed links; default: from --listen).
    #[arg(long)]
    pub public_url: Option<String>,
    /// Allow http:// webhook URLs (default: https only).
    #[arg(long)]
    pub allow_http_webhooks: bool,
    /// Allow webhook URLs that resolve to loopback or private addresses.
    #[arg(long)]
    pub allow_private_webhooks: bool,
    /// Requests per second per API key (0 disables the limit).
    #[arg(long, default_value_t = 50.0)]
    pub rate_limit: f64,
    /// Burst of requests per API key.
    #[arg(long, default_value_t = 100.0)]
    pub rate_burst: f64,
    /// Prefix of webhook headers.
    #[arg(long, default_value = folio::webhook::DEFAULT_HEADER_PREFIX)]
    pub webhook_header_prefix: String,
    /// Lifetime of signed artifact links, seconds.
    #[arg(long, default_value_t = 900)]
    pub signed_url_ttl: u64,
    /// Largest request body, MB (files stream to disk; this bounds one request).
    #[arg(long, default_value_t = 2100)]
    pub max_request_mb: usize,
    /// Engine configuration JSON file (see `EngineConfig`).
    #[arg(long)]
    pub engine_config: Option<PathBuf>,
    /// Connection limits and timeouts.
    #[command(flatten)]
    pub limits: listen::ListenArgs,
    /// Memory limit of one worker process, MB: its address space (RLIMIT_AS) and its resident
    /// size, watched by the server. A document that breaks it, or crashes its worker, 3 times
    /// is FAILED with RESOURCE_LIMIT.
    #[arg(long, default_value_t = 2048)]
    pub worker_memory_mb: u64,
    /// Time limit of one document, seconds (its worker is killed past it; it counts as a crash).
    #[arg(long, default_value_t = 300.0, value_parser = positive_secs)]
    pub document_timeout_secs: f64,
    /// Documents after which a worker process is replaced by a fresh one (0: never).
    #[arg(long, default_value_t = 200)]
    pub worker_max_documents: u64,
    /// Resident size, MB, above which a worker process is replaced once its document is done.
    #[arg(long, default_value_t = 512)]
    pub worker_recycle_mb: u64,
    /// Seconds a worker process may stay idle before it exits, returning its memory (0: never).
    #[arg(long, default_value_t = 60)]
    pub worker_idle_secs: u64,
    /// On SIGTERM/SIGINT, seconds the documents in progress get to finish before their workers
    /// are killed and they go back to the queue.
    #[arg(long, default_value_t = 30)]
    pub drain_secs: u64,
    /// Seconds a node holds a document it works on without renewing the lease (it renews a
    /// third of the way); a document whose lease ended (its node died) goes back to the queue.
    #[arg(long, default_value_t = 30.0, value_parser = positive_secs)]
    pub lease_secs: f64,
    /// A worker-only node: no HTTP listener (`--listen` is ignored); it works on the queue of
    /// the shared database and sends webhooks (`--database`, `--files` shared with the API
    /// nodes).
    #[arg(long)]
    pub no_api: bool,
}

/// A duration in seconds: positive and finite (at most a year).
fn positive_secs(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 31_536_000.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds above 0")),
    }
}

/// The worker pool settings of `folio serve` options.
fn pool_config(args: &ServeArgs) -> Result<pool::PoolConfig, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find the folio binary to start workers: {e}"))?;
    let engine_config = match &args.engine_config {
        Some(p) => Some(
            std::fs::canonicalize(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(pool::PoolConfig {
        exe,
        engine_config,
        memory_limit: args.worker_memory_mb.saturating_mul(1024 * 1024),
        document_timeout: Duration::from_secs_f64(args.document_timeout_secs),
        max_documents: args.worker_max_documents,
        recycle_rss: args.worker_recycle_mb.saturating_mul(1024 * 1024),
        idle: Duration::from_secs(args.worker_idle_secs),
        threads: cpus.div_ceil(args.workers.max(1)),
    })
}

/// A value kept in the data directory's file `name`: the one there when `valid` accepts it,
/// else a new one from `make`, written owner-only and atomically (a temporary file, synced,
/// renamed) so a crash never leaves half of it.
fn kept_in(
    data_dir: &Path,
    name: &str,
    valid: impl Fn(&str) -> bool,
    make: impl FnOnce() -> String,
) -> std::io::Result<String> {
    let path = data_dir.join(name);
    if let Ok(s) = std::fs::read_to_string(&path)
        && valid(s.trim())
    {
        return Ok(s.trim().to_string());
    }
    let value = make();
    let tmp = data_dir.join(format!("{name}.tmp"));
    {
        use std::io::Write;
        #[cfg(unix)]
        let mut f = {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(&tmp)?
        };
        #[cfg(not(unix))]
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(value.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, &path)?;
    Ok(value)
}

/// This node's id: created once in the data directory.
fn node_id(data_dir: &Path) -> std::io::Result<String> {
    kept_in(
        data_dir,
        "node.id",
        |s| s.starts_with("node_"),
        || model::new_id("node_"),
    )
}

/// The signing key of artifact links: created once in the data directory (owner-only).
fn signing_key(data_dir: &Path) -> std::io::Result<Vec<u8>> {
    let key = kept_in(
        data_dir,
        "signing.key",
        |s| hex::decode(s).is_ok_and(|k| k.len() >= 32),
        || model::random_hex(32),
    )?;
    hex::decode(key).map_err(std::io::Error::other)
}

/// Builds the shared state (database opened and recovered, engine configuration checked: the
/// engines live in the worker processes); `addr` is the address actually listened on (the
/// default public URL).
pub fn build_app(args: &ServeArgs, addr: SocketAddr) -> Result<AppState, String> {
    let files = files::FileStore::open(args.files.as_deref(), &args.data_dir)?;
    let tmp_dir = args.data_dir.join("tmp");
    std::fs::create_dir_all(&tmp_dir)
        .map_err(|e| format!("cannot create {}: {e}", tmp_dir.display()))?;
    // Uploads interrupted by a crash never became operations.
    if let Ok(rd) = std::fs::read_dir(&tmp_dir) {
        for e in rd.flatten() {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let db = db::Db::open_setting(args.database.as_deref(), &args.data_dir, 4)
        .map_err(|e| e.to_string())?;
    // The embedded database has one server: what it left in progress was interrupted. A
    // shared one has other nodes at work; their documents come back when their leases end.
    let node_id = node_id(&args.data_dir).map_err(|e| format!("cannot create the node id: {e}"))?;
    let requeued = match db.dialect() {
        sql::Dialect::Sqlite => db.tx(store::recover),
        sql::Dialect::Postgres => db.tx(|tx| store::recover_node(tx, &node_id)),
    }
    .map_err(|e| e.to_string())?;
    if requeued > 0 {
        eprintln!("folio serve: {requeued} interrupted document(s) back in the queue");
    }
    let pdfium_library = match &args.engine_config {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            EngineConfig::from_json(&text)
                .map_err(|e| e.to_string())?
                .pdfium_library
        }
        None => None,
    };
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find the folio binary to count pages: {e}"))?;
    let page_counter = crate::pagecount::PageCounter {
        exe: exe.clone(),
        pdfium_library,
        memory_mb: args.worker_memory_mb,
    };
    let renderer = crate::pagerender::PageRenderer {
        exe,
        engine_config: match &args.engine_config {
            Some(p) => Some(
                std::fs::canonicalize(p)
                    .map_err(|e| format!("cannot read {}: {e}", p.display()))?,
            ),
            None => None,
        },
        memory_mb: args.worker_memory_mb,
    };
    let cache_dir = args.data_dir.join("cache").join("review");
    let url_policy = webhooks::UrlPolicy {
        allow_http: args.allow_http_webhooks,
        allow_private: args.allow_private_webhooks,
    };
    let signing_key = match args.signing_key.as_deref() {
        Some(hex_key) => match hex::decode(hex_key.trim()) {
            Ok(k) if k.len() >= 32 => k,
            _ => return Err("the signing key must be at least 32 bytes in hex".into()),
        },
        None => signing_key(&args.data_dir)
            .map_err(|e| format!("cannot create the signing key: {e}"))?,
    };
    Ok(Arc::new(App {
        db,
        page_counter,
        renderer,
        cache_dir,
        keys_seen: Mutex::new(HashMap::new()),
        files,
        tmp_dir,
        url_policy,
        http: webhooks::client(url_policy),
        header_prefix: args.webhook_header_prefix.clone(),
        metrics: metrics::Metrics::default(),
        limiter: ratelimit::RateLimiter::new(args.rate_limit, args.rate_burst),
        jobs_wake: tokio::sync::Notify::new(),
        deliveries_wake: tokio::sync::Notify::new(),
        running: Mutex::new(HashMap::new()),
        signing_key,
        public_url: args
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{addr}")),
        signed_url_ttl: Duration::from_secs(args.signed_url_ttl),
        max_request_bytes: args.max_request_mb.saturating_mul(1024 * 1024),
        lease: Duration::from_secs_f64(args.lease_secs),
        node_id,
    }))
}

/// Counts SIGTERM and SIGINT deliveries into `count` (the first drains, a second stops at once).
async fn count_signals(count: tokio::sync::watch::Sender<u32>) {
    use tokio::signal::unix::{SignalKind, signal};
    let (mut term, mut int) = match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(t), Ok(i)) => (t, i),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("folio serve: cannot listen for signals: {e}");
            return;
        }
    };
    loop {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        count.send_modify(|n| *n += 1);
    }
}

/// Runs the server until SIGTERM or SIGINT, then drains (see the module documentation).
pub fn run(args: ServeArgs) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("folio-serve")
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("folio serve: cannot start the runtime: {e}");
            return ExitCode::from(3);
        }
    };
    rt.block_on(async move {
        let (signals_tx, signals) = tokio::sync::watch::channel(0u32);
        tokio::spawn(count_signals(signals_tx));
        // A worker-only node (`--no-api`) listens nowhere.
        let listener = if args.no_api {
            None
        } else {
            match tokio::net::TcpListener::bind(args.listen).await {
                Ok(l) => Some(l),
                Err(e) => {
                    eprintln!("folio serve: cannot listen on {}: {e}", args.listen);
                    return ExitCode::from(3);
                }
            }
        };
        let addr = listener
            .as_ref()
            .and_then(|l| l.local_addr().ok())
            .unwrap_or(args.listen);
        // Opening the database blocks (a PostgreSQL connection has its own runtime).
        let built = {
            let args = args.clone();
            tokio::task::spawn_blocking(move || build_app(&args, addr)).await
        };
        let state = match built.unwrap_or_else(|e| Err(format!("start: {e}"))) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("folio serve: {e}");
                return ExitCode::from(3);
            }
        };
        if let Err(e) = state.files.prepare().await {
            eprintln!("folio serve: {e}");
            return ExitCode::from(3);
        }
        let cfg = match pool_config(&args) {
            Ok(c) => Arc::new(c),
            Err(e) => {
                eprintln!("folio serve: {e}");
                return ExitCode::from(3);
            }
        };
        // The workers start before the address is announced: an engine that cannot start is
        // an error at start (exit 3), not at the first document.
        let starting: Vec<_> = (0..args.workers)
            .map(|_| {
                let cfg = cfg.clone();
                tokio::spawn(async move { pool::WorkerProcess::spawn(&cfg).await })
            })
            .collect();
        let mut workers = Vec::with_capacity(starting.len());
        for w in starting {
            match w
                .await
                .unwrap_or_else(|e| Err(format!("starting a worker: {e}")))
            {
                Ok(w) => workers.push(w),
                Err(e) => {
                    eprintln!("folio serve: {e}");
                    for mut w in workers {
                        w.kill().await;
                    }
                    return ExitCode::from(3);
                }
            }
        }
        let (phase_tx, phase) = tokio::sync::watch::channel(pool::Phase::Running);
        let slots: Vec<_> = workers
            .into_iter()
            .map(|w| {
                tokio::spawn(worker::run(
                    state.clone(),
                    cfg.clone(),
                    phase.clone(),
                    Some(w),
                ))
            })
            .collect();
        tokio::spawn(webhooks::run(state.clone()));
        tokio::spawn(worker::reap_expired_leases(state.clone()));
        // The line tests and operators wait for.
        println!(
            "{}",
            serde_json::json!({
                "listening": listener.as_ref().map(|_| addr.to_string()),
                "data_dir": args.data_dir.display().to_string(),
                "workers": args.workers,
                "pid": std::process::id(),
            })
        );
        let app = api::router(state);
        let limits = args.limits.clone();
        let mut first = signals.clone();
        let shutdown = async move {
            let _ = first.wait_for(|n| *n >= 1).await;
        };
        let mut server = tokio::spawn(async move {
            match listener {
                Some(listener) => listen::serve(listener, app, &limits, shutdown).await,
                None => {
                    shutdown.await;
                    Ok(())
                }
            }
        });
        let mut code = ExitCode::SUCCESS;
        let mut signalled = signals.clone();
        let served = tokio::select! {
            r = &mut server => Some(r),
            _ = signalled.wait_for(|n| *n >= 1) => None,
        };
        match &served {
            Some(Ok(Err(e))) => {
                eprintln!("folio serve: {e}");
                code = ExitCode::FAILURE;
            }
            Some(Err(e)) => {
                eprintln!("folio serve: {e}");
                code = ExitCode::FAILURE;
            }
            // Stopped by the signal (its graceful shutdown may finish first), or still serving.
            Some(Ok(Ok(()))) | None => {}
        }
        // Drain: no new documents; the ones in progress get the grace period, then their
        // workers are killed and they go back to the queue (a second signal skips the wait).
        let _ = phase_tx.send(pool::Phase::Draining);
        let grace = Duration::from_secs(args.drain_secs);
        let mut slots = std::pin::pin!(async move {
            for slot in slots {
                let _ = slot.await;
            }
        });
        let mut again = signals.clone();
        let drained = tokio::select! {
            _ = &mut slots => true,
            _ = tokio::time::sleep(grace) => false,
            _ = again.wait_for(|n| *n >= 2) => false,
        };
        let _ = phase_tx.send(pool::Phase::Stopping);
        if !drained
            && tokio::time::timeout(Duration::from_secs(10), &mut slots)
                .await
                .is_err()
        {
            eprintln!("folio serve: some workers did not stop in time; exiting anyway");
        }
        // The connections have been closing since the signal, within their own bound
        // (`listen::SHUTDOWN_GRACE`, counted from the signal, so in parallel with the drain).
        if served.is_none()
            && tokio::time::timeout(listen::SHUTDOWN_GRACE, &mut server)
                .await
                .is_err()
        {
            server.abort();
        }
        code
    })
}
