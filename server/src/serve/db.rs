//! The embedded database: one SQLite file in the data directory (WAL mode, so admin commands
//! and readers work while the server writes), its schema, and a small pool of connections.
//!
//! Every write that must be atomic (an upload with its reservations, a document's final status
//! with its charge and webhook events) is one `BEGIN IMMEDIATE` transaction.

use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Database file name inside the data directory.
pub const DB_FILE: &str = "folio.db";

/// Schema version written to `meta`: 1 the first; 2 adds `documents.worker_crashes`.
const SCHEMA_VERSION: i64 = 2;

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
    revoked_at TEXT
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
    created_at TEXT NOT NULL,
    UNIQUE (event_id, url)
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries(status, next_attempt_ms);
CREATE INDEX IF NOT EXISTS deliveries_operation ON deliveries(operation_id, created_at);

CREATE TABLE IF NOT EXISTS delivery_attempts (
    delivery_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    at TEXT NOT NULL,
    http_status INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);
"#;

/// Errors of the storage layer.
#[derive(Debug)]
pub enum DbError {
    /// SQLite said no.
    Sqlite(rusqlite::Error),
    /// Something else (I/O around the database).
    Other(String),
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbError::Sqlite(e) => write!(f, "database: {e}"),
            DbError::Other(e) => write!(f, "database: {e}"),
        }
    }
}

impl std::error::Error for DbError {}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        DbError::Sqlite(e)
    }
}

/// Result of the storage layer.
pub type DbResult<T> = Result<T, DbError>;

/// Opens one connection with the settings every connection needs.
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

/// Creates the schema of a new database, or brings an older one up to [`SCHEMA_VERSION`] (one
/// transaction); a database written by a newer version is refused.
fn migrate(conn: &mut Connection) -> DbResult<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch(SCHEMA)?;
    let version: Option<String> = tx
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })?;
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
    // Version 2: worker crashes are counted apart from attempts. `CREATE TABLE IF NOT EXISTS`
    // left an older table as it was.
    let has_crashes: bool = tx.query_row(
        "SELECT COUNT(*) > 0 FROM pragma_table_info('documents') WHERE name = 'worker_crashes'",
        [],
        |r| r.get(0),
    )?;
    if !has_crashes {
        tx.execute_batch(
            "ALTER TABLE documents ADD COLUMN worker_crashes INTEGER NOT NULL DEFAULT 0",
        )?;
    }
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?1)",
        [SCHEMA_VERSION.to_string()],
    )?;
    tx.commit()?;
    Ok(())
}

/// A pool of SQLite connections to one database file.
#[derive(Clone)]
pub struct Db {
    path: PathBuf,
    conns: Arc<Vec<Mutex<Connection>>>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db").field("path", &self.path).finish()
    }
}

impl Db {
    /// Opens (creating when missing) the database of a data directory with `pool` connections
    /// and brings the schema up to date.
    pub fn open(data_dir: &Path, pool: usize) -> DbResult<Db> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| DbError::Other(format!("cannot create {}: {e}", data_dir.display())))?;
        let path = data_dir.join(DB_FILE);
        let mut first = connect(&path)?;
        migrate(&mut first)?;
        let mut conns = vec![Mutex::new(first)];
        for _ in 1..pool.max(1) {
            conns.push(Mutex::new(connect(&path)?));
        }
        Ok(Db {
            path,
            conns: Arc::new(conns),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A free connection if there is one, else wait for the first.
        for c in self.conns.iter() {
            if let Ok(g) = c.try_lock() {
                return g;
            }
        }
        match self.conns[0].lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Runs `f` on a connection (blocking: call from blocking threads or through
    /// [`Db::call`]).
    pub fn with<T>(&self, f: impl FnOnce(&Connection) -> DbResult<T>) -> DbResult<T> {
        let conn = self.lock();
        f(&conn)
    }

    /// Runs `f` in one immediate (write-locking) transaction, committed when `f` succeeds.
    pub fn tx<T>(&self, f: impl FnOnce(&rusqlite::Transaction<'_>) -> DbResult<T>) -> DbResult<T> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }

    /// [`Db::with`] from async code, on a blocking thread.
    pub async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        let db = self.clone();
        tokio::task::spawn_blocking(move || db.with(f))
            .await
            .map_err(|e| DbError::Other(format!("database task: {e}")))?
    }

    /// [`Db::tx`] from async code, on a blocking thread.
    pub async fn call_tx<T: Send + 'static>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> DbResult<T> + Send + 'static,
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
            c.execute("INSERT INTO meta (key, value) VALUES ('probe', 'x')", [])?;
            Ok(())
        })
        .unwrap();
        drop(db);
        let db = Db::open(dir.path(), 1).unwrap();
        let v: String = db
            .with(
                |c| Ok(c.query_row("SELECT value FROM meta WHERE key='probe'", [], |r| r.get(0))?),
            )
            .unwrap();
        assert_eq!(v, "x");
        // A failed transaction leaves nothing behind.
        let r: DbResult<()> = db.tx(|tx| {
            tx.execute("INSERT INTO meta (key, value) VALUES ('gone', 'y')", [])?;
            Err(DbError::Other("abort".into()))
        });
        assert!(r.is_err());
        let n: i64 = db
            .with(|c| {
                Ok(
                    c.query_row("SELECT COUNT(*) FROM meta WHERE key='gone'", [], |r| {
                        r.get(0)
                    })?,
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
            // The version-1 documents table, without worker_crashes.
            let v1 = SCHEMA.replace("    worker_crashes INTEGER NOT NULL DEFAULT 0,\n", "");
            assert_ne!(v1, SCHEMA);
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
                        [],
                        |r| r.get(0),
                    )?,
                    c.query_row(
                        "SELECT COUNT(*) FROM pragma_table_info('documents') \
                         WHERE name = 'worker_crashes'",
                        [],
                        |r| r.get(0),
                    )?,
                ))
            })
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION.to_string());
        assert_eq!(crashes, 1);
        drop(db);
        // Opening again changes nothing; a newer database is refused.
        let db = Db::open(dir.path(), 1).unwrap();
        db.with(|c| {
            c.execute(
                "UPDATE meta SET value = '99' WHERE key = 'schema_version'",
                [],
            )?;
            Ok(())
        })
        .unwrap();
        drop(db);
        let err = Db::open(dir.path(), 1).unwrap_err();
        assert!(err.to_string().contains("schema version 99"), "{err}");
    }
}
