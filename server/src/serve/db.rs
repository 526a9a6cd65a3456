//! The server's database, one of two behind the same [`Conn`] interface:
//!
//! * embedded (the default): one SQLite file in the data directory (WAL mode, so admin commands
//!   and readers work while the server writes); every write that must be atomic (an upload with
//!   its reservations, a document's final status with its charge and webhook events) is one
//!   `BEGIN IMMEDIATE` transaction, which serialises writers;
//! * shared: a PostgreSQL database (`postgres://...`) that several nodes use at once; the same
//!   transactions run at READ COMMITTED isolation, and each locks the rows it decides on
//!   (`FOR UPDATE`: the company and key of a reservation, the operation whose status it
//!   refreshes, the document it claims, `SKIP LOCKED` for queues) and guards every status change
//!   with the status it expects, so concurrent nodes take turns where they meet and never undo
//!   each other's work. A transaction PostgreSQL aborts (a deadlock) is run again.
//!   SERIALIZABLE was measured first: with two worker nodes on one company every second
//!   transaction failed to serialize (the company's balance row, the operation's row), and two
//!   nodes were no faster than one (benches/reports/README.md).
//!
//! The schema and its versioned migrations are run at start for either, in one transaction
//! (on PostgreSQL under an advisory lock, so nodes starting together migrate once).

use super::pg::{self, PgConn, StatementCache, Target};
use super::sql::{Conn, Dialect, OptionalExtension, params};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Database file name inside the data directory.
pub const DB_FILE: &str = "folio.db";

/// Schema version written to `meta`: 1 the first; 2 adds `documents.worker_crashes`; 3 adds
/// leases: `documents.lease_ms` (the node working on a document holds it until then) and the
/// node holding a document, a delivery being sent and an upload being accepted
/// (`documents.lease_owner`, `deliveries.lease_owner`, `idempotency.owner`); 4 adds the
/// rate-limit buckets that nodes sharing the database share (`rate_buckets`); 5 adds the web
/// cabinet: its users, their sessions and failed sign-ins (`users`, `sessions`,
/// `sign_in_failures`), and when a key was last used (`api_keys.last_used_ms`).
const SCHEMA_VERSION: i64 = 5;

/// The key of the PostgreSQL advisory lock held while the schema is migrated.
const MIGRATION_LOCK: i64 = 0x666f_6c69_6f00;

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS companies (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'ACTIVE',
    billing_status TEXT NOT NULL DEFAULT 'ACTIVE',
    balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0),
    max_files INTEGER NOT NULL,
    max_file_size_mb INTEGER NOT NULL,
    max_pages INTEGER NOT NULL,
    heavy_default INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES companies(id),
    name TEXT,
    secret_hash TEXT NOT NULL,
    permissions TEXT NOT NULL,
    monthly_limit INTEGER,
    status TEXT NOT NULL DEFAULT 'ACTIVE',
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    last_used_ms INTEGER
);

CREATE TABLE IF NOT EXISTS key_usage (
    key_id TEXT NOT NULL,
    month TEXT NOT NULL,
    used INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
    reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0),
    PRIMARY KEY (key_id, month)
);

CREATE TABLE IF NOT EXISTS webhooks (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES companies(id),
    name TEXT,
    url TEXT NOT NULL,
    secret TEXT,
    signature_required INTEGER NOT NULL,
    is_default INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    retry_delays TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'ACTIVE',
    created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS operations (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES companies(id),
    api_key_id TEXT NOT NULL,
    status TEXT NOT NULL,
    use_heavy INTEGER NOT NULL,
    selected_pages TEXT,
    webhook_url TEXT,
    webhook_secret TEXT,
    webhook_max_attempts INTEGER,
    webhook_retry_delays TEXT,
    metadata TEXT,
    client_operation_id TEXT,
    files_total INTEGER NOT NULL,
    month TEXT NOT NULL,
    created_at TEXT NOT NULL,
    completed_at TEXT
);
CREATE INDEX IF NOT EXISTS operations_company ON operations(company_id, created_at);

CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    operation_id TEXT NOT NULL REFERENCES operations(id),
    seq INTEGER NOT NULL,
    filename TEXT NOT NULL,
    stored INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    content_type TEXT,
    status TEXT NOT NULL,
    error_code TEXT,
    error_message TEXT,
    pages_count INTEGER,
    document_type_code TEXT,
    structure_type_code TEXT,
    units INTEGER NOT NULL,
    reserved_units INTEGER NOT NULL DEFAULT 0 CHECK (reserved_units >= 0),
    charged_units INTEGER NOT NULL DEFAULT 0,
    result_json TEXT,
    text_content TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    worker_crashes INTEGER NOT NULL DEFAULT 0,
    lease_ms INTEGER,
    lease_owner TEXT,
    queued_ms INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    started_at TEXT,
    completed_at TEXT
);
CREATE INDEX IF NOT EXISTS documents_operation ON documents(operation_id, seq);
CREATE INDEX IF NOT EXISTS documents_queue ON documents(status, queued_ms);

CREATE TABLE IF NOT EXISTS idempotency (
    company_id TEXT NOT NULL,
    key TEXT NOT NULL,
    state TEXT NOT NULL,
    request_hash TEXT,
    operation_id TEXT,
    response TEXT,
    owner TEXT,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (company_id, key)
);

CREATE TABLE IF NOT EXISTS deliveries (
    id TEXT PRIMARY KEY,
    operation_id TEXT NOT NULL,
    document_id TEXT,
    event TEXT NOT NULL,
    event_id TEXT NOT NULL,
    url TEXT NOT NULL,
    secret TEXT,
    max_attempts INTEGER NOT NULL,
    retry_delays TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_ms INTEGER,
    lease_owner TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (event_id, url)
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries(status, next_attempt_ms);
CREATE INDEX IF NOT EXISTS deliveries_operation ON deliveries(operation_id, created_at);

CREATE TABLE IF NOT EXISTS rate_buckets (
    key_id TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    updated_ms INTEGER NOT NULL,
    granted INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS delivery_attempts (
    delivery_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    at TEXT NOT NULL,
    http_status INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);

CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES companies(id),
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    setup_token_hash TEXT,
    setup_expires_ms INTEGER,
    status TEXT NOT NULL DEFAULT 'ACTIVE',
    created_at TEXT NOT NULL,
    last_sign_in_at TEXT
);

CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    csrf TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    seen_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);

CREATE TABLE IF NOT EXISTS sign_in_failures (
    email TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sign_in_failures_email ON sign_in_failures(email, at_ms);
"#;

/// Errors of the storage layer.
#[derive(Debug)]
pub enum DbError {
    /// A query that must return a row returned none.
    NoRows,
    /// SQLite said no.
    Sqlite(rusqlite::Error),
    /// PostgreSQL said no (or could not be reached).
    Postgres(postgres::Error),
    /// Something else (I/O around the database).
    Other(String),
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbError::NoRows => write!(f, "database: no such row"),
            DbError::Sqlite(e) => write!(f, "database: {e}"),
            DbError::Postgres(e) => match e.as_db_error() {
                Some(d) => write!(f, "database: {}: {}", d.code().code(), d.message()),
                None => match std::error::Error::source(e) {
                    Some(cause) => write!(f, "database: {e}: {cause}"),
                    None => write!(f, "database: {e}"),
                },
            },
            DbError::Other(e) => write!(f, "database: {e}"),
        }
    }
}

impl std::error::Error for DbError {}

/// Result of the storage layer.
pub type DbResult<T> = Result<T, DbError>;

/// Opens one SQLite connection with the settings every connection needs.
fn connect(path: &Path) -> DbResult<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(30))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // FULL: a committed transaction survives a power loss, not only a process kill.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// The schema as PostgreSQL reads it: every integer is 64 bits (milliseconds since 1970 do not
/// fit PostgreSQL's 32-bit INTEGER).
fn postgres_schema() -> String {
    SCHEMA.replace(" INTEGER", " BIGINT")
}

/// Creates the schema of a new database, or brings an older one up to [`SCHEMA_VERSION`], in
/// the transaction `tx`; a database written by a newer version is refused.
fn migrate(tx: &dyn Conn) -> DbResult<()> {
    match tx.dialect() {
        Dialect::Sqlite => tx.execute_batch(SCHEMA)?,
        Dialect::Postgres => {
            tx.query("SELECT pg_advisory_xact_lock(?1)", params![MIGRATION_LOCK])?;
            tx.execute_batch(&postgres_schema())?;
        }
    }
    let version: Option<String> = tx
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            params![],
            |r| r.get(0),
        )
        .optional()?;
    let version = match version {
        None => SCHEMA_VERSION,
        Some(v) => v
            .parse::<i64>()
            .map_err(|_| DbError::Other(format!("unreadable schema version {v:?}")))?,
    };
    if version > SCHEMA_VERSION {
        return Err(DbError::Other(format!(
            "the database has schema version {version}; this folio knows up to {SCHEMA_VERSION}"
        )));
    }
    // Columns added after version 1: `CREATE TABLE IF NOT EXISTS` left an older table as it
    // was. Version 2: worker crashes are counted apart from attempts; 3: leases; 5: when a key
    // was last used.
    let int = match tx.dialect() {
        Dialect::Sqlite => "INTEGER",
        Dialect::Postgres => "BIGINT",
    };
    for (since, table, column, decl) in [
        (
            2,
            "documents",
            "worker_crashes",
            format!("{int} NOT NULL DEFAULT 0"),
        ),
        (3, "documents", "lease_ms", int.to_string()),
        (3, "documents", "lease_owner", "TEXT".to_string()),
        (3, "deliveries", "lease_owner", "TEXT".to_string()),
        (3, "idempotency", "owner", "TEXT".to_string()),
        (5, "api_keys", "last_used_ms", int.to_string()),
    ] {
        if version < since && !has_column(tx, table, column)? {
            tx.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {decl}"))?;
        }
    }
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('schema_version', ?1) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![SCHEMA_VERSION.to_string()],
    )?;
    Ok(())
}

/// Whether `table` has `column`.
fn has_column(tx: &dyn Conn, table: &str, column: &str) -> DbResult<bool> {
    match tx.dialect() {
        Dialect::Sqlite => tx.query_row(
            "SELECT COUNT(*) > 0 FROM pragma_table_info(?1) WHERE name = ?2",
            params![table, column],
            |r| r.get(0),
        ),
        Dialect::Postgres => tx.query_row(
            "SELECT COUNT(*) > 0 FROM information_schema.columns WHERE table_name = ?1 \
             AND column_name = ?2 AND table_schema = current_schema()",
            params![table, column],
            |r| r.get(0),
        ),
    }
}

/// The TLS setting of PostgreSQL connections.
enum PgTls {
    Off,
    On(tokio_postgres_rustls::MakeRustlsConnect),
}

/// One pooled PostgreSQL connection with its prepared statements.
struct PgClient {
    client: postgres::Client,
    statements: StatementCache,
}

/// How many times a transaction PostgreSQL aborted (deadlock, serialization failure) is run
/// before the failure is reported.
const PG_TX_ATTEMPTS: u32 = 50;

enum Backend {
    Sqlite {
        path: PathBuf,
        conns: Vec<Mutex<Connection>>,
    },
    Postgres {
        /// The connection settings, parsed once (reconnects use them).
        config: Box<postgres::Config>,
        tls: Box<PgTls>,
        /// What `Debug` and logs show: host, port and database, never the password.
        shown: String,
        conns: Vec<Mutex<Option<PgClient>>>,
    },
}

impl Drop for Backend {
    fn drop(&mut self) {
        // A PostgreSQL client closes its connection through its own runtime, which cannot run
        // on a thread of the server's: the last owner may be dropped there, so close elsewhere.
        if let Backend::Postgres { conns, .. } = self {
            let clients: Vec<PgClient> = conns
                .drain(..)
                .filter_map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
                .collect();
            if !clients.is_empty() {
                let _ = std::thread::spawn(move || drop(clients)).join();
            }
        }
    }
}

/// The database of a server (or an admin command): a pool of connections to one SQLite file or
/// one PostgreSQL database.
#[derive(Clone)]
pub struct Db {
    backend: Arc<Backend>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.backend {
            Backend::Sqlite { path, .. } => f.debug_struct("Db").field("sqlite", path).finish(),
            Backend::Postgres { shown, .. } => {
                f.debug_struct("Db").field("postgres", shown).finish()
            }
        }
    }
}

/// First free mutex of a pool, else wait for the first.
fn lock_any<T>(pool: &[Mutex<T>]) -> MutexGuard<'_, T> {
    for c in pool {
        if let Ok(g) = c.try_lock() {
            return g;
        }
    }
    match pool[0].lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// Whether a database setting names PostgreSQL.
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// How connections are secured: TLS (rustls) unless the URL says `sslmode=disable`; with the
/// default `sslmode=prefer` a server without TLS is still reached in the clear, with
/// `sslmode=require` it is refused.
fn pg_connect(config: &postgres::Config, tls: &PgTls) -> DbResult<PgClient> {
    let client = match tls {
        PgTls::Off => config.connect(postgres::NoTls)?,
        PgTls::On(tls) => config.connect(tls.clone())?,
    };
    Ok(PgClient {
        client,
        statements: StatementCache::new(),
    })
}

impl Db {
    /// Opens (creating when missing) the embedded database of a data directory with `pool`
    /// connections and brings the schema up to date.
    pub fn open(data_dir: &Path, pool: usize) -> DbResult<Db> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| DbError::Other(format!("cannot create {}: {e}", data_dir.display())))?;
        let path = data_dir.join(DB_FILE);
        let mut first = connect(&path)?;
        {
            let tx = first.transaction_with_behavior(TransactionBehavior::Immediate)?;
            migrate(&*tx)?;
            tx.commit()?;
        }
        let mut conns = vec![Mutex::new(first)];
        for _ in 1..pool.max(1) {
            conns.push(Mutex::new(connect(&path)?));
        }
        Ok(Db {
            backend: Arc::new(Backend::Sqlite { path, conns }),
        })
    }

    /// Opens the PostgreSQL database at `url` (`postgres://user:password@host:port/db`, with
    /// libpq's `sslmode` and `sslrootcert` when wanted; `PGSSLROOTCERT` also names the CA file)
    /// with `pool` connections and brings the schema up to date.
    pub fn open_postgres(url: &str, pool: usize) -> DbResult<Db> {
        let (url, ca) = pg::split_sslrootcert(url);
        let ca = ca.or_else(|| std::env::var_os("PGSSLROOTCERT").map(PathBuf::from));
        let config: postgres::Config = url
            .parse()
            .map_err(|e| DbError::Other(format!("unreadable PostgreSQL URL: {e}")))?;
        let tls = match config.get_ssl_mode() {
            postgres::config::SslMode::Disable => PgTls::Off,
            _ => PgTls::On(pg::tls_connector(ca.as_deref()).map_err(DbError::Other)?),
        };
        let hosts: Vec<String> = config
            .get_hosts()
            .iter()
            .map(|h| match h {
                postgres::config::Host::Tcp(h) => h.clone(),
                postgres::config::Host::Unix(p) => p.display().to_string(),
            })
            .collect();
        let shown = format!(
            "{}:{}/{}",
            hosts.join(","),
            config.get_ports().first().copied().unwrap_or(5432),
            config.get_dbname().unwrap_or("")
        );
        let mut first = pg_connect(&config, &tls)?;
        Self::pg_transaction(&mut first, &mut |tx| migrate(tx))?;
        let mut conns = vec![Mutex::new(Some(first))];
        for _ in 1..pool.max(1) {
            conns.push(Mutex::new(Some(pg_connect(&config, &tls)?)));
        }
        Ok(Db {
            backend: Arc::new(Backend::Postgres {
                config: Box::new(config),
                tls: Box::new(tls),
                shown,
                conns,
            }),
        })
    }

    /// The embedded database of `data_dir`, or the PostgreSQL one `database` names.
    pub fn open_setting(database: Option<&str>, data_dir: &Path, pool: usize) -> DbResult<Db> {
        match database {
            None => Db::open(data_dir, pool),
            Some(url) if is_postgres_url(url) => Db::open_postgres(url, pool),
            Some(url) => Err(DbError::Other(format!(
                "unknown database {url:?}: a postgres:// URL, or nothing for the embedded \
                 database in the data directory"
            ))),
        }
    }

    /// Which database this is.
    pub fn dialect(&self) -> Dialect {
        match &*self.backend {
            Backend::Sqlite { .. } => Dialect::Sqlite,
            Backend::Postgres { .. } => Dialect::Postgres,
        }
    }

    /// A live PostgreSQL connection in `slot`, reconnecting when the last one was lost.
    fn pg_slot<'a>(
        slot: &'a mut Option<PgClient>,
        config: &postgres::Config,
        tls: &PgTls,
    ) -> DbResult<&'a mut PgClient> {
        if slot.as_ref().is_some_and(|c| c.client.is_closed()) {
            *slot = None;
        }
        if slot.is_none() {
            *slot = Some(pg_connect(config, tls)?);
        }
        Ok(slot.as_mut().expect("connected above"))
    }

    /// Runs `f` in one READ COMMITTED transaction, again while PostgreSQL aborts it for a
    /// deadlock or a serialization failure.
    fn pg_transaction<T>(
        c: &mut PgClient,
        f: &mut dyn FnMut(&dyn Conn) -> DbResult<T>,
    ) -> DbResult<T> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = (|| {
                let tx = c
                    .client
                    .build_transaction()
                    .isolation_level(postgres::IsolationLevel::ReadCommitted)
                    .start()?;
                let conn = PgConn::new(Target::Tx(tx), &mut c.statements);
                let out = f(&conn)?;
                conn.commit()?;
                Ok(out)
            })();
            match result {
                Err(e) if attempt < PG_TX_ATTEMPTS && pg::is_retryable(&e) => {
                    // A short, growing, jittered pause lets the other transaction finish.
                    let ms = u64::from(attempt.min(10)) * 2 + rand::random::<u64>() % 5;
                    std::thread::sleep(Duration::from_millis(ms));
                }
                r => return r,
            }
        }
    }

    /// Runs `f` on a connection (blocking: call from blocking threads or through
    /// [`Db::call`]).
    pub fn with<T>(&self, f: impl FnOnce(&dyn Conn) -> DbResult<T>) -> DbResult<T> {
        match &*self.backend {
            Backend::Sqlite { conns, .. } => {
                let conn = lock_any(conns);
                f(&*conn)
            }
            Backend::Postgres {
                config, tls, conns, ..
            } => {
                let mut slot = lock_any(conns);
                let c = Self::pg_slot(&mut slot, config, tls)?;
                let conn = PgConn::new(Target::Client(&mut c.client), &mut c.statements);
                f(&conn)
            }
        }
    }

    /// Runs `f` in one transaction, committed when `f` succeeds: an immediate (write-locking)
    /// one on SQLite, a READ COMMITTED one on PostgreSQL (rows locked by the statements), where
    /// `f` runs again after a deadlock (so it must only act through the database).
    pub fn tx<T>(&self, mut f: impl FnMut(&dyn Conn) -> DbResult<T>) -> DbResult<T> {
        match &*self.backend {
            Backend::Sqlite { conns, .. } => {
                let mut conn = lock_any(conns);
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let out = f(&*tx)?;
                tx.commit()?;
                Ok(out)
            }
            Backend::Postgres {
                config, tls, conns, ..
            } => {
                let mut slot = lock_any(conns);
                let c = Self::pg_slot(&mut slot, config, tls)?;
                Self::pg_transaction(c, &mut f)
            }
        }
    }

    /// [`Db::with`] from async code, on a blocking thread.
    pub async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Conn) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        let db = self.clone();
        tokio::task::spawn_blocking(move || db.with(f))
            .await
            .map_err(|e| DbError::Other(format!("database task: {e}")))?
    }

    /// [`Db::tx`] from async code, on a blocking thread.
    pub async fn call_tx<T: Send + 'static>(
        &self,
        f: impl FnMut(&dyn Conn) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        let db = self.clone();
        tokio::task::spawn_blocking(move || db.tx(f))
            .await
            .map_err(|e| DbError::Other(format!("database task: {e}")))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_twice_and_keeps_data() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path(), 2).unwrap();
        db.with(|c| {
            c.execute(
                "INSERT INTO meta (key, value) VALUES ('probe', 'x')",
                params![],
            )?;
            Ok(())
        })
        .unwrap();
        drop(db);
        let db = Db::open(dir.path(), 1).unwrap();
        let v: String = db
            .with(|c| {
                c.query_row("SELECT value FROM meta WHERE key='probe'", params![], |r| {
                    r.get(0)
                })
            })
            .unwrap();
        assert_eq!(v, "x");
        // A failed transaction leaves nothing behind.
        let r: DbResult<()> = db.tx(|tx| {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('gone', 'y')",
                params![],
            )?;
            Err(DbError::Other("abort".into()))
        });
        assert!(r.is_err());
        let n: i64 = db
            .with(|c| {
                c.query_row(
                    "SELECT COUNT(*) FROM meta WHERE key='gone'",
                    params![],
                    |r| r.get(0),
                )
            })
            .unwrap();
        assert_eq!(n, 0);
    }

    #[test]
    fn migrates_a_version_1_database_and_refuses_a_newer_one() {
        let dir = tempfile::tempdir().unwrap();
        {
            let conn = Connection::open(dir.path().join(DB_FILE)).unwrap();
            // The version-1 documents table, without worker_crashes and lease_ms.
            let v1 = SCHEMA
                .replace("    worker_crashes INTEGER NOT NULL DEFAULT 0,\n", "")
                .replace("    lease_ms INTEGER,\n", "")
                .replace("    lease_owner TEXT,\n", "")
                .replace("    owner TEXT,\n", "");
            assert!(
                ["worker_crashes", "lease_ms", "owner"]
                    .iter()
                    .all(|c| !v1.contains(c))
            );
            conn.execute_batch(&v1).unwrap();
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', '1')",
                [],
            )
            .unwrap();
        }
        let db = Db::open(dir.path(), 1).unwrap();
        let (version, crashes): (String, i64) = db
            .with(|c| {
                Ok((
                    c.query_row(
                        "SELECT value FROM meta WHERE key='schema_version'",
                        params![],
                        |r| r.get(0),
                    )?,
                    c.query_row(
                        "SELECT COUNT(*) FROM pragma_table_info('documents') \
                         WHERE name IN ('worker_crashes', 'lease_ms', 'lease_owner')",
                        params![],
                        |r| r.get(0),
                    )?,
                ))
            })
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION.to_string());
        assert_eq!(crashes, 3);
        drop(db);
        // Opening again changes nothing; a newer database is refused.
        let db = Db::open(dir.path(), 1).unwrap();
        db.with(|c| {
            c.execute(
                "UPDATE meta SET value = '99' WHERE key = 'schema_version'",
                params![],
            )?;
            Ok(())
        })
        .unwrap();
        drop(db);
        let err = Db::open(dir.path(), 1).unwrap_err();
        assert!(err.to_string().contains("schema version 99"), "{err}");
    }
}
