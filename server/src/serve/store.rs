//! The service's records in the database: companies, keys, webhooks (admin), operations and
//! documents with their reservations and charges, idempotency records, webhook deliveries.
//!
//! Billing invariants, kept by doing every change in the same transaction as the status change
//! that causes it:
//! * `companies.reserved` = the sum of `documents.reserved_units` of the company's documents;
//! * a document's units are reserved once (at upload) and then either charged (final status with
//!   a result) or released (rejected, failed, cancelled), exactly once, guarded by the status
//!   change `WHERE status NOT IN (final)`;
//! * `balance` never goes negative (CHECK constraint; uploads check availability first).

use super::db::{DbError, DbResult};
use super::model::{self, doc_status};
use super::sql::{Conn, Dialect, OptionalExtension, params};
use serde_json::{Value, json};

/// Permissions a key may carry.
pub const PERMISSIONS: [&str; 4] = [
    "operations:write",
    "operations:read",
    "documents:read",
    "usage:read",
];

/// Default retry delays of webhook deliveries (contract.md).
pub const DEFAULT_RETRY_DELAYS: [u64; 5] = [10, 60, 300, 1800, 7200];
/// Default number of delivery attempts.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 6;

/// Settings of a new company.
#[derive(Debug, Clone)]
pub struct NewCompany {
    /// Display name.
    pub name: String,
    /// Starting balance in documents.
    pub balance: i64,
    /// Files per operation.
    pub max_files: i64,
    /// Size of one file, MB.
    pub max_file_size_mb: i64,
    /// Pages per document.
    pub max_pages: i64,
    /// Enhanced recognition when an upload does not say.
    pub heavy_default: bool,
}

/// Creates a company; returns its record.
pub fn create_company(conn: &dyn Conn, c: &NewCompany) -> DbResult<Value> {
    let id = model::new_id("co_");
    conn.execute(
        "INSERT INTO companies (id, name, balance, max_files, max_file_size_mb, max_pages, \
         heavy_default, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            id,
            c.name,
            c.balance,
            c.max_files,
            c.max_file_size_mb,
            c.max_pages,
            c.heavy_default,
            model::now_iso()
        ],
    )?;
    company_json(conn, &id)?.ok_or_else(|| DbError::Other("company vanished".into()))
}

/// Adds documents to a company's balance.
pub fn topup(conn: &dyn Conn, company_id: &str, documents: i64) -> DbResult<Option<Value>> {
    let n = conn.execute(
        "UPDATE companies SET balance = balance + ?2 WHERE id = ?1",
        params![company_id, documents],
    )?;
    if n == 0 {
        return Ok(None);
    }
    company_json(conn, company_id)
}

/// A company's record with balance, reservations and limits.
pub fn company_json(conn: &dyn Conn, id: &str) -> DbResult<Option<Value>> {
    conn.query_row(
        "SELECT id, name, status, billing_status, balance, reserved, max_files, \
             max_file_size_mb, max_pages, heavy_default, created_at FROM companies WHERE id = ?1",
        params![id],
        |r| {
            let balance: i64 = r.get(4)?;
            let reserved: i64 = r.get(5)?;
            Ok(json!({
                "company_id": r.get::<String>(0)?,
                "name": r.get::<String>(1)?,
                "company_status": r.get::<String>(2)?,
                "billing_status": r.get::<String>(3)?,
                "balance_documents": balance,
                "reserved_documents": reserved,
                "available_documents": balance - reserved,
                "max_files_per_operation": r.get::<i64>(6)?,
                "max_file_size_mb": r.get::<i64>(7)?,
                "max_pages_per_document": r.get::<i64>(8)?,
                "heavy_default": r.get::<bool>(9)?,
                "created_at": r.get::<String>(10)?,
            }))
        },
    )
    .optional()
}

/// Limits and defaults of a company, as the upload needs them.
#[derive(Debug, Clone)]
pub struct CompanyLimits {
    /// Files per operation.
    pub max_files: usize,
    /// Bytes per file.
    pub max_file_bytes: u64,
    /// Pages per document.
    pub max_pages: u32,
    /// Enhanced recognition by default.
    pub heavy_default: bool,
}

/// The limits of a company.
pub fn company_limits(conn: &dyn Conn, id: &str) -> DbResult<Option<CompanyLimits>> {
    conn.query_row(
        "SELECT max_files, max_file_size_mb, max_pages, heavy_default FROM companies \
             WHERE id = ?1",
        params![id],
        |r| {
            Ok(CompanyLimits {
                max_files: r.get::<i64>(0)?.max(0) as usize,
                max_file_bytes: (r.get::<i64>(1)?.max(0) as u64) * 1024 * 1024,
                max_pages: r.get::<i64>(2)?.clamp(0, i64::from(u32::MAX)) as u32,
                heavy_default: r.get(3)?,
            })
        },
    )
    .optional()
}

/// SHA-256 of a key secret, hex: the only form a key is stored in.
pub fn hash_secret(secret: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(secret.as_bytes()))
}

/// Creates an API key; returns `(key_id, api_key)`; the key is `fk_<id part>_<secret>` and only
/// the secret's hash is stored.
pub fn create_key(
    conn: &dyn Conn,
    company_id: &str,
    permissions: &[String],
    monthly_limit: Option<i64>,
    name: Option<&str>,
) -> DbResult<Option<(String, String)>> {
    let exists: Option<String> = conn
        .query_row(
            "SELECT id FROM companies WHERE id = ?1",
            params![company_id],
            |r| r.get(0),
        )
        .optional()?;
    if exists.is_none() {
        return Ok(None);
    }
    let key_id = model::new_id("key_");
    let secret = model::random_hex(24);
    let token = format!("fk_{}_{}", &key_id["key_".len()..], secret);
    conn.execute(
        "INSERT INTO api_keys (id, company_id, name, secret_hash, permissions, monthly_limit, \
         created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            key_id,
            company_id,
            name,
            hash_secret(&secret),
            permissions.join(","),
            monthly_limit,
            model::now_iso()
        ],
    )?;
    Ok(Some((key_id, token)))
}

/// Revokes a key; false when it does not exist.
pub fn revoke_key(conn: &dyn Conn, key_id: &str) -> DbResult<bool> {
    Ok(conn.execute(
        "UPDATE api_keys SET status = 'REVOKED', revoked_at = ?2 WHERE id = ?1",
        params![key_id, model::now_iso()],
    )? > 0)
}

/// A stored API key.
#[derive(Debug, Clone)]
pub struct KeyRecord {
    /// `key_...`.
    pub id: String,
    /// Owner.
    pub company_id: String,
    /// SHA-256 of the secret, hex.
    pub secret_hash: String,
    /// Granted permissions.
    pub permissions: Vec<String>,
    /// `ACTIVE` or `REVOKED`.
    pub status: String,
    /// Monthly document limit.
    pub monthly_limit: Option<i64>,
}

/// Looks a key up by its id.
pub fn find_key(conn: &dyn Conn, key_id: &str) -> DbResult<Option<KeyRecord>> {
    conn.query_row(
        "SELECT id, company_id, secret_hash, permissions, status, monthly_limit FROM api_keys \
             WHERE id = ?1",
        params![key_id],
        |r| {
            Ok(KeyRecord {
                id: r.get(0)?,
                company_id: r.get(1)?,
                secret_hash: r.get(2)?,
                permissions: r
                    .get::<String>(3)?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
                status: r.get(4)?,
                monthly_limit: r.get(5)?,
            })
        },
    )
    .optional()
}

/// A webhook as configured by the admin command.
#[derive(Debug, Clone)]
pub struct NewWebhook {
    /// Owner.
    pub company_id: String,
    /// Target.
    pub url: String,
    /// Display name.
    pub name: Option<String>,
    /// Signing secret (generated when signing is required and none is given).
    pub secret: Option<String>,
    /// Whether requests are signed.
    pub signature_required: bool,
    /// Used for operations without their own `webhook_url`.
    pub is_default: bool,
    /// Attempts before FAILED.
    pub max_attempts: u32,
    /// Pauses between attempts, seconds.
    pub retry_delays: Vec<u64>,
}

/// Creates a webhook; a new default replaces the company's previous default.
pub fn create_webhook(conn: &dyn Conn, w: &NewWebhook) -> DbResult<Option<Value>> {
    let exists: Option<String> = conn
        .query_row(
            "SELECT id FROM companies WHERE id = ?1",
            params![&w.company_id],
            |r| r.get(0),
        )
        .optional()?;
    if exists.is_none() {
        return Ok(None);
    }
    let id = model::new_id("wh_");
    let secret = match (&w.secret, w.signature_required) {
        (Some(s), _) => Some(s.clone()),
        (None, true) => Some(model::random_hex(32)),
        (None, false) => None,
    };
    if w.is_default {
        conn.execute(
            "UPDATE webhooks SET is_default = 0 WHERE company_id = ?1",
            params![&w.company_id],
        )?;
    }
    conn.execute(
        "INSERT INTO webhooks (id, company_id, name, url, secret, signature_required, is_default, \
         max_attempts, retry_delays, created_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
        params![
            id,
            w.company_id,
            w.name,
            w.url,
            secret,
            w.signature_required,
            w.is_default,
            w.max_attempts,
            delays_text(&w.retry_delays),
            model::now_iso()
        ],
    )?;
    Ok(Some(json!({
        "webhook_id": id,
        "company_id": w.company_id,
        "name": w.name,
        "url": w.url,
        "secret": secret,
        "signature_required": w.signature_required,
        "is_default": w.is_default,
        "max_delivery_attempts": w.max_attempts,
        "retry_delays_sec": w.retry_delays,
        "status": "ACTIVE",
    })))
}

/// Disables a webhook; false when it does not exist.
pub fn disable_webhook(conn: &dyn Conn, id: &str) -> DbResult<bool> {
    Ok(conn.execute(
        "UPDATE webhooks SET status = 'DISABLED', is_default = 0 WHERE id = ?1",
        params![id],
    )? > 0)
}

/// `10,60,300` as stored.
pub fn delays_text(d: &[u64]) -> String {
    d.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// Parses stored delays.
pub fn parse_delays(s: &str) -> Vec<u64> {
    s.split(',').filter_map(|x| x.trim().parse().ok()).collect()
}

/// Where and how an operation's webhooks go.
#[derive(Debug, Clone, Default)]
pub struct WebhookTarget {
    /// Target URL.
    pub url: String,
    /// Signing secret, when signed.
    pub secret: Option<String>,
    /// Attempts.
    pub max_attempts: u32,
    /// Pauses between attempts.
    pub retry_delays: Vec<u64>,
}

/// The target of an operation: its own `webhook_url` (signed and retried by the company's
/// default webhook's settings when there is one, else unsigned with the defaults), else the
/// company's active default webhook, else none.
pub fn webhook_target(
    conn: &dyn Conn,
    company_id: &str,
    upload_url: Option<&str>,
) -> DbResult<Option<WebhookTarget>> {
    let default: Option<(String, Option<String>, bool, u32, String)> = conn
        .query_row(
            "SELECT url, secret, signature_required, max_attempts, retry_delays FROM webhooks \
             WHERE company_id = ?1 AND is_default = 1 AND status = 'ACTIVE' \
             ORDER BY created_at DESC LIMIT 1",
            params![company_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    let settings = |d: &(String, Option<String>, bool, u32, String)| {
        (
            if d.2 { d.1.clone() } else { None },
            d.3,
            parse_delays(&d.4),
        )
    };
    Ok(match (upload_url, &default) {
        (Some(u), Some(d)) => {
            let (secret, max_attempts, retry_delays) = settings(d);
            Some(WebhookTarget {
                url: u.to_string(),
                secret,
                max_attempts,
                retry_delays,
            })
        }
        (Some(u), None) => Some(WebhookTarget {
            url: u.to_string(),
            secret: None,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            retry_delays: DEFAULT_RETRY_DELAYS.to_vec(),
        }),
        (None, Some(d)) => {
            let (secret, max_attempts, retry_delays) = settings(d);
            Some(WebhookTarget {
                url: d.0.clone(),
                secret,
                max_attempts,
                retry_delays,
            })
        }
        (None, None) => None,
    })
}

// --------------------------------------------------------------------------------------------
// Operations and documents
// --------------------------------------------------------------------------------------------

/// One file of an upload, stored (or rejected) before the operation is created.
#[derive(Debug, Clone)]
pub struct UploadedFile {
    /// `doc_...`.
    pub document_id: String,
    /// Display name (sanitised).
    pub filename: String,
    /// Bytes received.
    pub size: u64,
    /// SHA-256 of the bytes, hex.
    pub sha256: String,
    /// MIME type from the content.
    pub content_type: Option<String>,
    /// Whether the bytes are kept in the file store.
    pub stored: bool,
    /// Rejection at upload: (reason code, message).
    pub rejected: Option<(String, String)>,
}

/// An operation to create.
#[derive(Debug, Clone)]
pub struct NewOperation {
    /// `op_...`.
    pub id: String,
    /// Owner.
    pub company_id: String,
    /// Key used.
    pub api_key_id: String,
    /// Enhanced recognition.
    pub use_heavy: bool,
    /// Page selection (single PDF only).
    pub selected_pages: Option<String>,
    /// Webhook target.
    pub webhook: Option<WebhookTarget>,
    /// Free metadata.
    pub metadata: Option<String>,
    /// The client's id.
    pub client_operation_id: Option<String>,
    /// Files in upload order.
    pub files: Vec<UploadedFile>,
}

/// Why an upload is refused by billing.
#[derive(Debug, Clone, PartialEq)]
pub enum BillingRefusal {
    /// Enhanced recognition needs at least 11 available documents.
    HeavyMinimum {
        /// Available now.
        available: i64,
    },
    /// Not enough available documents.
    Insufficient {
        /// Units needed.
        needed: i64,
        /// Available now.
        available: i64,
    },
    /// The key's monthly limit would be exceeded.
    MonthlyLimit {
        /// Units needed.
        needed: i64,
        /// Remaining this month.
        remaining: i64,
    },
}

/// Units a document costs: 1, or 3 with enhanced recognition.
pub fn units_for(heavy: bool) -> i64 {
    if heavy { 3 } else { 1 }
}

/// Minimum available documents for enhanced recognition.
pub const HEAVY_MINIMUM_AVAILABLE: i64 = 11;

/// Creates an operation with its documents and reservations in one transaction (the caller's),
/// after the billing checks. Rejected files are stored as REJECTED documents and reserve
/// nothing. Returns the operation's final-at-creation events (rejections, completion).
pub fn create_operation(tx: &dyn Conn, op: &NewOperation) -> DbResult<Result<(), BillingRefusal>> {
    let units = units_for(op.use_heavy);
    let accepted = op.files.iter().filter(|f| f.rejected.is_none()).count() as i64;
    let needed = units * accepted;
    let (balance, reserved): (i64, i64) = tx.query_row(
        "SELECT balance, reserved FROM companies WHERE id = ?1",
        params![&op.company_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let available = balance - reserved;
    if op.use_heavy && available < HEAVY_MINIMUM_AVAILABLE {
        return Ok(Err(BillingRefusal::HeavyMinimum { available }));
    }
    if needed > available {
        return Ok(Err(BillingRefusal::Insufficient { needed, available }));
    }
    let month = model::current_month();
    let limit: Option<i64> = tx.query_row(
        "SELECT monthly_limit FROM api_keys WHERE id = ?1",
        params![&op.api_key_id],
        |r| r.get(0),
    )?;
    if let Some(limit) = limit {
        let (used, res): (i64, i64) = tx
            .query_row(
                "SELECT used, reserved FROM key_usage WHERE key_id = ?1 AND month = ?2",
                params![op.api_key_id, month],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .unwrap_or((0, 0));
        let remaining = limit - used - res;
        if needed > remaining {
            return Ok(Err(BillingRefusal::MonthlyLimit {
                needed,
                remaining: remaining.max(0),
            }));
        }
    }
    let now = model::now_iso();
    let now_ms = model::now_ms();
    let wh = op.webhook.as_ref();
    tx.execute(
        "INSERT INTO operations (id, company_id, api_key_id, status, use_heavy, selected_pages, \
         webhook_url, webhook_secret, webhook_max_attempts, webhook_retry_delays, metadata, \
         client_operation_id, files_total, month, created_at) \
         VALUES (?1,?2,?3,'QUEUED',?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)",
        params![
            op.id,
            op.company_id,
            op.api_key_id,
            op.use_heavy,
            op.selected_pages,
            wh.map(|w| w.url.clone()),
            wh.and_then(|w| w.secret.clone()),
            wh.map(|w| w.max_attempts),
            wh.map(|w| delays_text(&w.retry_delays)),
            op.metadata,
            op.client_operation_id,
            op.files.len() as i64,
            month,
            now
        ],
    )?;
    for (seq, f) in op.files.iter().enumerate() {
        let (status, code, message, reserve) = match &f.rejected {
            Some((c, m)) => (doc_status::REJECTED, Some(c.as_str()), Some(m.as_str()), 0),
            None => (doc_status::QUEUED, None, None, units),
        };
        tx.execute(
            "INSERT INTO documents (id, operation_id, seq, filename, stored, size_bytes, sha256, \
             content_type, status, error_code, error_message, units, reserved_units, queued_ms, \
             created_at, completed_at) \
             VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)",
            params![
                f.document_id,
                op.id,
                seq as i64,
                f.filename,
                f.stored,
                f.size as i64,
                f.sha256,
                f.content_type,
                status,
                code,
                message,
                units,
                reserve,
                now_ms,
                now,
                f.rejected.as_ref().map(|_| now.clone())
            ],
        )?;
    }
    if needed > 0 {
        tx.execute(
            "UPDATE companies SET reserved = reserved + ?2 WHERE id = ?1",
            params![op.company_id, needed],
        )?;
        tx.execute(
            "INSERT INTO key_usage (key_id, month, reserved) VALUES (?1, ?2, ?3) \
             ON CONFLICT (key_id, month) DO UPDATE SET reserved = key_usage.reserved + excluded.reserved",
            params![op.api_key_id, month, needed],
        )?;
    }
    for f in op.files.iter().filter(|f| f.rejected.is_some()) {
        emit_document_event(tx, &op.id, &f.document_id)?;
    }
    refresh_operation(tx, &op.id)?;
    Ok(Ok(()))
}

/// The operation a document belongs to.
fn operation_of(tx: &dyn Conn, doc_id: &str) -> DbResult<String> {
    tx.query_row(
        "SELECT operation_id FROM documents WHERE id = ?1",
        params![doc_id],
        |r| r.get(0),
    )
}

/// Recomputes an operation's status from its documents; when it has just become final, stamps
/// `completed_at` and emits `operation.completed`. Returns the status.
pub fn refresh_operation(tx: &dyn Conn, op_id: &str) -> DbResult<String> {
    let statuses = document_statuses(tx, op_id)?;
    let refs: Vec<&str> = statuses.iter().map(String::as_str).collect();
    let status = model::operation_status(&refs);
    let old: String = tx.query_row(
        "SELECT status FROM operations WHERE id = ?1",
        params![op_id],
        |r| r.get(0),
    )?;
    if old != status {
        let became_final = model::operation_is_final(status) && !model::operation_is_final(&old);
        if became_final {
            tx.execute(
                "UPDATE operations SET status = ?2, completed_at = ?3 WHERE id = ?1",
                params![op_id, status, model::now_iso()],
            )?;
            emit_operation_event(tx, op_id)?;
        } else if !model::operation_is_final(&old) {
            tx.execute(
                "UPDATE operations SET status = ?2 WHERE id = ?1",
                params![op_id, status],
            )?;
        }
    }
    Ok(status.to_string())
}

fn document_statuses(conn: &dyn Conn, op_id: &str) -> DbResult<Vec<String>> {
    let rows = conn.query_map(
        "SELECT status FROM documents WHERE operation_id = ?1 ORDER BY seq",
        params![op_id],
        |r| r.get::<String>(0),
    )?;
    Ok(rows)
}

/// A document claimed by a worker.
#[derive(Debug, Clone)]
pub struct Job {
    /// `doc_...`.
    pub document_id: String,
    /// Its operation.
    pub operation_id: String,
    /// Owner company.
    pub company_id: String,
    /// Display name (a hint for the engine).
    pub filename: String,
    /// Enhanced recognition.
    pub use_heavy: bool,
    /// Page selection.
    pub selected_pages: Option<String>,
    /// Attempts so far, this one included.
    pub attempts: i64,
}

/// Claims the oldest queued document (first-queued, then upload order) and marks it
/// PREPROCESSING, leased to the claiming node `owner` until `lease_until` (ms since 1970):
/// unless the
/// lease is renewed ([`renew_lease`]), [`requeue_expired`] gives it back to the queue then.
/// On PostgreSQL the row is locked and rows other nodes hold are skipped, so two nodes never
/// claim one document.
pub fn claim_next(tx: &dyn Conn, owner: &str, lease_until: i64) -> DbResult<Option<Job>> {
    let lock = match tx.dialect() {
        Dialect::Sqlite => "",
        Dialect::Postgres => " FOR UPDATE OF d SKIP LOCKED",
    };
    let job = tx
        .query_row(
            &format!(
                "SELECT d.id, d.operation_id, o.company_id, d.filename, o.use_heavy, \
                 o.selected_pages, d.attempts FROM documents d JOIN operations o \
                 ON o.id = d.operation_id WHERE d.status = 'QUEUED' \
                 ORDER BY d.queued_ms, d.operation_id, d.seq LIMIT 1{lock}"
            ),
            params![],
            |r| {
                Ok(Job {
                    document_id: r.get(0)?,
                    operation_id: r.get(1)?,
                    company_id: r.get(2)?,
                    filename: r.get(3)?,
                    use_heavy: r.get(4)?,
                    selected_pages: r.get(5)?,
                    attempts: r.get::<i64>(6)? + 1,
                })
            },
        )
        .optional()?;
    let Some(job) = job else { return Ok(None) };
    tx.execute(
        "UPDATE documents SET status = 'PREPROCESSING', attempts = attempts + 1, \
         started_at = ?2, lease_ms = ?3, lease_owner = ?4 WHERE id = ?1",
        params![job.document_id, model::now_iso(), lease_until, owner],
    )?;
    refresh_operation(tx, &job.operation_id)?;
    Ok(Some(job))
}

/// Extends the lease of a document being worked on; false when it is no longer in progress
/// (final, cancelled, or given back after an expired lease).
pub fn renew_lease(conn: &dyn Conn, doc_id: &str, lease_until: i64) -> DbResult<bool> {
    let n = conn.execute(
        &format!(
            "UPDATE documents SET lease_ms = ?2 WHERE id = ?1 AND status IN {}",
            *doc_status::STAGES_SQL
        ),
        params![doc_id, lease_until],
    )?;
    Ok(n > 0)
}

/// Gives back to the queue every document in progress whose lease ended before `now`: its
/// node died (kill -9, power loss) or lost the database. Returns how many went back.
pub fn requeue_expired(tx: &dyn Conn, now: i64) -> DbResult<usize> {
    requeue_where(tx, "lease_ms < ?1", params![now])
}

/// At the start of node `owner` of a shared database: what it held when it stopped (it died;
/// a drained node holds nothing) goes back: its documents to the queue, its deliveries to be
/// sent again, its half-accepted uploads' idempotency keys released. Other nodes' work is left
/// alone. Returns how many documents went back.
pub fn recover_node(tx: &dyn Conn, owner: &str) -> DbResult<usize> {
    let n = requeue_where(tx, "lease_owner = ?1", params![owner])?;
    tx.execute(
        "DELETE FROM idempotency WHERE state = 'IN_PROGRESS' AND owner = ?1",
        params![owner],
    )?;
    tx.execute(
        "UPDATE deliveries SET status = 'RETRY', next_attempt_ms = ?2 \
         WHERE status = 'SENDING' AND lease_owner = ?1",
        params![owner, model::now_ms()],
    )?;
    Ok(n)
}

/// Puts the documents in progress that match `condition` back in the queue.
fn requeue_where(tx: &dyn Conn, condition: &str, p: super::sql::Params<'_>) -> DbResult<usize> {
    let expired: Vec<(String, String)> = tx.query_map(
        &format!(
            "SELECT id, operation_id FROM documents WHERE status IN {} AND {condition}",
            *doc_status::STAGES_SQL
        ),
        p,
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut ops: Vec<&str> = Vec::new();
    for (doc, op) in &expired {
        tx.execute(
            "UPDATE documents SET status = 'QUEUED', lease_ms = NULL WHERE id = ?1",
            params![doc],
        )?;
        if !ops.contains(&op.as_str()) {
            ops.push(op);
        }
    }
    for op in ops {
        refresh_operation(tx, op)?;
    }
    Ok(expired.len())
}

/// Times a document may end its worker (crash, memory or time limit) before it is FAILED with
/// `RESOURCE_LIMIT` instead of being tried again.
pub const MAX_WORKER_CRASHES: i64 = 3;

/// Puts a document that was being worked on back in the queue, costing nothing (the server is
/// shutting down). A final document is left alone. Returns whether it was requeued.
pub fn requeue(tx: &dyn Conn, doc_id: &str) -> DbResult<bool> {
    let n = tx.execute(
        &format!(
            "UPDATE documents SET status = 'QUEUED' WHERE id = ?1 AND status IN {}",
            *doc_status::STAGES_SQL
        ),
        params![doc_id],
    )?;
    if n > 0 {
        refresh_operation(tx, &operation_of(tx, doc_id)?)?;
    }
    Ok(n > 0)
}

/// What became of a document whose worker crashed or broke a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrashVerdict {
    /// Back in the queue; the crashes so far.
    Requeued(i64),
    /// FAILED with `RESOURCE_LIMIT`, its reservation released (the finish path: events and
    /// billing exactly once).
    Failed,
    /// Already final (cancelled meanwhile): nothing changed.
    AlreadyFinal,
}

/// Counts a worker crash against a document: back in the queue, or FAILED with
/// `RESOURCE_LIMIT` (not charged) at the [`MAX_WORKER_CRASHES`]th.
pub fn worker_crashed(tx: &dyn Conn, doc_id: &str, reason: &str) -> DbResult<CrashVerdict> {
    let row: Option<(String, i64)> = tx
        .query_row(
            "SELECT status, worker_crashes FROM documents WHERE id = ?1",
            params![doc_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((status, crashes)) = row else {
        return Ok(CrashVerdict::AlreadyFinal);
    };
    if doc_status::is_final(&status) {
        return Ok(CrashVerdict::AlreadyFinal);
    }
    let crashes = crashes + 1;
    tx.execute(
        "UPDATE documents SET worker_crashes = ?2 WHERE id = ?1",
        params![doc_id, crashes],
    )?;
    if crashes >= MAX_WORKER_CRASHES {
        let outcome = Outcome::Error {
            status: doc_status::FAILED,
            code: folio::ErrorCode::ResourceLimit.as_str().into(),
            message: format!(
                "processing the document ended its worker {crashes} times (last: {reason}); \
                 it is not tried again"
            ),
        };
        finish_document(tx, doc_id, &outcome)?;
        return Ok(CrashVerdict::Failed);
    }
    requeue(tx, doc_id)?;
    Ok(CrashVerdict::Requeued(crashes))
}

/// Records the stage a document entered (unless it became final meanwhile, e.g. cancelled).
pub fn set_stage(tx: &dyn Conn, doc_id: &str, stage: &str) -> DbResult<()> {
    let n = tx.execute(
        &format!(
            "UPDATE documents SET status = ?2 WHERE id = ?1 AND status NOT IN {}",
            *doc_status::FINAL_SQL
        ),
        params![doc_id, stage],
    )?;
    if n > 0 {
        refresh_operation(tx, &operation_of(tx, doc_id)?)?;
    }
    Ok(())
}

/// How a document's processing ended.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// A result.
    Processed {
        /// PROCESSED or PROCESSED_WITH_WARNINGS.
        status: &'static str,
        /// The Result JSON.
        result_json: String,
        /// Plain text of the document.
        text: String,
        /// Pages read.
        pages: i64,
        /// Document type code.
        document_type: String,
        /// Structure type code.
        structure_type: String,
    },
    /// REJECTED (bad input) or FAILED (internal), with the reason.
    Error {
        /// REJECTED or FAILED.
        status: &'static str,
        /// Reason code.
        code: String,
        /// Message.
        message: String,
    },
}

/// Writes a document's final status with its charge or release and its webhook events, once:
/// nothing happens when the document is already final (cancelled meanwhile, or finished by an
/// earlier attempt). Returns whether this call made it final.
pub fn finish_document(tx: &dyn Conn, doc_id: &str, outcome: &Outcome) -> DbResult<bool> {
    let now = model::now_iso();
    let n = match outcome {
        Outcome::Processed {
            status,
            result_json,
            text,
            pages,
            document_type,
            structure_type,
        } => tx.execute(
            &format!(
                "UPDATE documents SET status = ?2, result_json = ?3, text_content = ?4, \
                 pages_count = ?5, document_type_code = ?6, structure_type_code = ?7, \
                 completed_at = ?8 WHERE id = ?1 AND status NOT IN {}",
                *doc_status::FINAL_SQL
            ),
            params![
                doc_id,
                status,
                result_json,
                text,
                pages,
                document_type,
                structure_type,
                now
            ],
        )?,
        Outcome::Error {
            status,
            code,
            message,
        } => tx.execute(
            &format!(
                "UPDATE documents SET status = ?2, error_code = ?3, error_message = ?4, \
                 completed_at = ?5 WHERE id = ?1 AND status NOT IN {}",
                *doc_status::FINAL_SQL
            ),
            params![doc_id, status, code, message, now],
        )?,
    };
    if n == 0 {
        return Ok(false);
    }
    settle_reservation(tx, doc_id, matches!(outcome, Outcome::Processed { .. }))?;
    let op = operation_of(tx, doc_id)?;
    emit_document_event(tx, &op, doc_id)?;
    refresh_operation(tx, &op)?;
    Ok(true)
}

/// Charges (a result) or releases (anything else) a document's reserved units, moving them
/// out of the company's and the key's reservations. A document with nothing reserved (already
/// settled) is left alone.
fn settle_reservation(tx: &dyn Conn, doc_id: &str, charge: bool) -> DbResult<()> {
    let (units, company, key, month): (i64, String, String, String) = tx.query_row(
        "SELECT d.reserved_units, o.company_id, o.api_key_id, o.month FROM documents d \
         JOIN operations o ON o.id = d.operation_id WHERE d.id = ?1",
        params![doc_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    if units == 0 {
        return Ok(());
    }
    if charge {
        tx.execute(
            "UPDATE documents SET reserved_units = 0, charged_units = ?2 WHERE id = ?1",
            params![doc_id, units],
        )?;
        tx.execute(
            "UPDATE companies SET reserved = reserved - ?2, balance = balance - ?2 WHERE id = ?1",
            params![company, units],
        )?;
        tx.execute(
            "UPDATE key_usage SET reserved = reserved - ?3, used = used + ?3 \
             WHERE key_id = ?1 AND month = ?2",
            params![key, month, units],
        )?;
    } else {
        tx.execute(
            "UPDATE documents SET reserved_units = 0 WHERE id = ?1",
            params![doc_id],
        )?;
        tx.execute(
            "UPDATE companies SET reserved = reserved - ?2 WHERE id = ?1",
            params![company, units],
        )?;
        tx.execute(
            "UPDATE key_usage SET reserved = reserved - ?3 WHERE key_id = ?1 AND month = ?2",
            params![key, month, units],
        )?;
    }
    Ok(())
}

/// Cancels what has not finished in an operation: documents become CANCELLED and release their
/// reservations, pending deliveries are cancelled; the operation then ends CANCELLED (and
/// emits `operation.completed`). A final operation is left as it is. Returns the document ids
/// that were cancelled (a worker may be running one of them).
pub fn cancel_operation(tx: &dyn Conn, op_id: &str) -> DbResult<Vec<String>> {
    let status: String = tx.query_row(
        "SELECT status FROM operations WHERE id = ?1",
        params![op_id],
        |r| r.get(0),
    )?;
    if model::operation_is_final(&status) {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = {
        tx.query_map(
            &format!(
                "SELECT id FROM documents WHERE operation_id = ?1 AND status NOT IN {}",
                *doc_status::FINAL_SQL
            ),
            params![op_id],
            |r| r.get::<String>(0),
        )?
    };
    tx.execute(
        "UPDATE deliveries SET status = 'CANCELLED', next_attempt_ms = NULL \
         WHERE operation_id = ?1 AND status IN ('PENDING', 'RETRY')",
        params![op_id],
    )?;
    let now = model::now_iso();
    for id in &ids {
        tx.execute(
            "UPDATE documents SET status = 'CANCELLED', error_code = 'CANCELLED', \
             error_message = 'cancelled by request', completed_at = ?2 WHERE id = ?1",
            params![id, now],
        )?;
        settle_reservation(tx, id, false)?;
    }
    refresh_operation(tx, op_id)?;
    Ok(ids)
}

/// Puts documents interrupted by a crash or restart back in the queue (they are processed
/// again, never failed for it), drops half-done idempotency records (their uploads were never
/// committed), and makes interrupted webhook sends due again. Returns how many documents were
/// requeued.
pub fn recover(conn: &dyn Conn) -> DbResult<usize> {
    let n = conn.execute(
        &format!(
            "UPDATE documents SET status = 'QUEUED' WHERE status IN {}",
            *doc_status::STAGES_SQL
        ),
        params![],
    )?;
    conn.execute(
        "DELETE FROM idempotency WHERE state = 'IN_PROGRESS'",
        params![],
    )?;
    conn.execute(
        "UPDATE deliveries SET status = 'RETRY', next_attempt_ms = ?1 WHERE status = 'SENDING'",
        params![model::now_ms()],
    )?;
    // Operations whose documents went back to the queue.
    let ops: Vec<String> = {
        conn.query_map(
            "SELECT DISTINCT operation_id FROM documents WHERE status = 'QUEUED'",
            params![],
            |r| r.get::<String>(0),
        )?
    };
    for op in ops {
        let statuses = document_statuses(conn, &op)?;
        let refs: Vec<&str> = statuses.iter().map(String::as_str).collect();
        conn.execute(
            "UPDATE operations SET status = ?2 WHERE id = ?1",
            params![op, model::operation_status(&refs)],
        )?;
    }
    Ok(n)
}

// --------------------------------------------------------------------------------------------
// Webhook events and deliveries
// --------------------------------------------------------------------------------------------

fn operation_target(conn: &dyn Conn, op_id: &str) -> DbResult<Option<WebhookTarget>> {
    let row: (Option<String>, Option<String>, Option<u32>, Option<String>) = conn.query_row(
        "SELECT webhook_url, webhook_secret, webhook_max_attempts, webhook_retry_delays \
         FROM operations WHERE id = ?1",
        params![op_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    Ok(row.0.map(|url| WebhookTarget {
        url,
        secret: row.1,
        max_attempts: row.2.unwrap_or(DEFAULT_MAX_ATTEMPTS),
        retry_delays: row
            .3
            .as_deref()
            .map(parse_delays)
            .unwrap_or_else(|| DEFAULT_RETRY_DELAYS.to_vec()),
    }))
}

fn insert_delivery(
    tx: &dyn Conn,
    target: &WebhookTarget,
    op_id: &str,
    doc_id: Option<&str>,
    event: &str,
    event_id: &str,
    payload: &Value,
) -> DbResult<()> {
    tx.execute(
        "INSERT INTO deliveries (id, operation_id, document_id, event, event_id, url, \
         secret, max_attempts, retry_delays, payload, status, next_attempt_ms, created_at) \
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,'PENDING',?11,?12) ON CONFLICT DO NOTHING",
        params![
            model::new_id("dlv_"),
            op_id,
            doc_id,
            event,
            event_id,
            target.url,
            target.secret,
            target.max_attempts,
            delays_text(&target.retry_delays),
            payload.to_string(),
            model::now_ms(),
            model::now_iso()
        ],
    )?;
    Ok(())
}

/// The document object of webhook payloads and operation records.
fn document_brief(conn: &dyn Conn, doc_id: &str) -> DbResult<Value> {
    conn.query_row(
        "SELECT id, filename, status, pages_count, document_type_code, structure_type_code, \
         charged_units, units, created_at, completed_at FROM documents WHERE id = ?1",
        params![doc_id],
        |r| {
            let status: String = r.get(2)?;
            let charged: i64 = r.get(6)?;
            Ok(json!({
                "document_id": r.get::<String>(0)?,
                "filename": r.get::<String>(1)?,
                "status": status,
                "pages_count": r.get::<Option<i64>>(3)?,
                "document_type_code": r.get::<Option<String>>(4)?,
                "structure_type_code": r.get::<Option<String>>(5)?,
                "billing": { "billable": charged > 0, "documents_charged": charged },
                "created_at": r.get::<String>(8)?,
                "completed_at": r.get::<Option<String>>(9)?,
            }))
        },
    )
}

/// Queues the event of a document that just became final (processed, rejected, failed; a
/// cancelled document has none), when the operation has a webhook target.
fn emit_document_event(tx: &dyn Conn, op_id: &str, doc_id: &str) -> DbResult<()> {
    let Some(target) = operation_target(tx, op_id)? else {
        return Ok(());
    };
    let doc = document_brief(tx, doc_id)?;
    let event = match doc["status"].as_str().unwrap_or_default() {
        doc_status::PROCESSED | doc_status::PROCESSED_WITH_WARNINGS => "document.processed",
        doc_status::REJECTED => "document.rejected",
        doc_status::FAILED => "document.failed",
        _ => return Ok(()),
    };
    let event_id = model::new_id("evt_");
    let payload = json!({
        "event_type": event,
        "event": event,
        "event_id": event_id,
        "operation_id": op_id,
        "document_id": doc_id,
        "status": doc["status"],
        "document": {
            "document_id": doc["document_id"],
            "filename": doc["filename"],
            "status": doc["status"],
            "pages_count": doc["pages_count"],
            "billing": doc["billing"],
        },
        "created_at": doc["created_at"],
        "completed_at": doc["completed_at"],
    });
    insert_delivery(tx, &target, op_id, Some(doc_id), event, &event_id, &payload)
}

/// Queues `operation.completed` for an operation that just became final.
fn emit_operation_event(tx: &dyn Conn, op_id: &str) -> DbResult<()> {
    let Some(target) = operation_target(tx, op_id)? else {
        return Ok(());
    };
    let (status, files_total, created_at, completed_at): (String, i64, String, Option<String>) = tx
        .query_row(
            "SELECT status, files_total, created_at, completed_at FROM operations WHERE id = ?1",
            params![op_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
    let ids: Vec<String> = {
        tx.query_map(
            "SELECT id FROM documents WHERE operation_id = ?1 ORDER BY seq",
            params![op_id],
            |r| r.get::<String>(0),
        )?
    };
    let docs = ids
        .iter()
        .map(|d| document_brief(tx, d))
        .collect::<DbResult<Vec<Value>>>()?;
    let statuses: Vec<&str> = docs
        .iter()
        .map(|d| d["status"].as_str().unwrap_or_default())
        .collect();
    let p = model::progress(&statuses);
    let event_id = model::new_id("evt_");
    let payload = json!({
        "event_type": "operation.completed",
        "event": "operation.completed",
        "event_id": event_id,
        "operation_id": op_id,
        "status": status,
        "summary": {
            "files_total": files_total,
            "processed": p["processed"],
            "processed_with_warnings": p["processed_with_warnings"],
            "rejected": p["rejected"],
            "failed": p["failed"],
            "cancelled": p["cancelled"],
        },
        "created_at": created_at,
        "completed_at": completed_at,
        "documents": docs,
    });
    insert_delivery(
        tx,
        &target,
        op_id,
        None,
        "operation.completed",
        &event_id,
        &payload,
    )
}

/// A delivery to send now.
#[derive(Debug, Clone)]
pub struct DueDelivery {
    /// `dlv_...`.
    pub id: String,
    /// Operation.
    pub operation_id: String,
    /// Document, for document events.
    pub document_id: Option<String>,
    /// Event kind.
    pub event: String,
    /// Event id (deduplication key of the receiver).
    pub event_id: String,
    /// Target.
    pub url: String,
    /// Signing secret.
    pub secret: Option<String>,
    /// Body, exactly as sent on every attempt.
    pub payload: String,
    /// This attempt's number (from 1).
    pub attempt: i64,
    /// Attempts allowed.
    pub max_attempts: i64,
    /// Pauses.
    pub retry_delays: Vec<u64>,
}

/// How long a delivery stays SENDING before another node may take it over (its sender died):
/// far longer than an attempt may take ([`super::webhooks::ATTEMPT_TIMEOUT`]).
pub const DELIVERY_LEASE_MS: i64 = 120_000;

/// Claims up to `limit` due deliveries (PENDING or RETRY whose time has come, or SENDING ones
/// whose sender's lease ended), marking them SENDING until the lease ends.
pub fn claim_due_deliveries(
    tx: &dyn Conn,
    owner: &str,
    limit: usize,
) -> DbResult<Vec<DueDelivery>> {
    let now = model::now_ms();
    let lock = match tx.dialect() {
        Dialect::Sqlite => "",
        Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
    };
    let due: Vec<DueDelivery> = {
        tx.query_map(
            &format!(
                "SELECT id, operation_id, document_id, event, event_id, url, secret, payload, \
                 attempts, max_attempts, retry_delays FROM deliveries \
                 WHERE status IN ('PENDING', 'RETRY', 'SENDING') AND next_attempt_ms <= ?1 \
                 ORDER BY next_attempt_ms LIMIT ?2{lock}"
            ),
            params![now, limit as i64],
            |r| {
                Ok(DueDelivery {
                    id: r.get(0)?,
                    operation_id: r.get(1)?,
                    document_id: r.get(2)?,
                    event: r.get(3)?,
                    event_id: r.get(4)?,
                    url: r.get(5)?,
                    secret: r.get(6)?,
                    payload: r.get(7)?,
                    attempt: r.get::<i64>(8)? + 1,
                    max_attempts: r.get(9)?,
                    retry_delays: parse_delays(&r.get::<String>(10)?),
                })
            },
        )?
    };
    for d in &due {
        tx.execute(
            "UPDATE deliveries SET status = 'SENDING', attempts = attempts + 1, \
             next_attempt_ms = ?2, lease_owner = ?3 WHERE id = ?1",
            params![&d.id, now + DELIVERY_LEASE_MS, owner],
        )?;
    }
    Ok(due)
}

/// Records an attempt and the delivery's next state: DELIVERED on a 2xx, else RETRY after the
/// configured pause, or FAILED when the attempts are used up. A delivery cancelled meanwhile
/// stays CANCELLED.
pub fn record_attempt(
    tx: &dyn Conn,
    d: &DueDelivery,
    http_status: Option<u16>,
    error: Option<&str>,
    duration_ms: i64,
) -> DbResult<&'static str> {
    tx.execute(
        "INSERT INTO delivery_attempts (delivery_id, attempt, at, http_status, error, \
         duration_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (delivery_id, attempt) \
         DO UPDATE SET at = excluded.at, http_status = excluded.http_status, \
         error = excluded.error, duration_ms = excluded.duration_ms",
        params![
            d.id,
            d.attempt,
            model::now_iso(),
            http_status,
            error,
            duration_ms
        ],
    )?;
    let ok = http_status.is_some_and(|s| (200..300).contains(&s));
    let (status, next): (&'static str, Option<i64>) = if ok {
        ("DELIVERED", None)
    } else if d.attempt >= d.max_attempts {
        ("FAILED", None)
    } else {
        let idx = (d.attempt as usize).saturating_sub(1);
        let delay = d
            .retry_delays
            .get(idx)
            .or(d.retry_delays.last())
            .copied()
            .unwrap_or(60);
        ("RETRY", Some(model::now_ms() + delay as i64 * 1000))
    };
    tx.execute(
        "UPDATE deliveries SET status = ?2, next_attempt_ms = ?3 WHERE id = ?1 \
         AND status = 'SENDING'",
        params![d.id, status, next],
    )?;
    Ok(status)
}

// --------------------------------------------------------------------------------------------
// Reading records for the API
// --------------------------------------------------------------------------------------------

/// The `validation` and `warnings` of a stored result.
fn validation_of(result: Option<&Value>) -> (Value, Value) {
    match result {
        Some(r) => (
            r.get("validation").cloned().unwrap_or(Value::Null),
            r.pointer("/validation/warnings")
                .cloned()
                .unwrap_or_else(|| json!([])),
        ),
        None => (Value::Null, json!([])),
    }
}

/// An operation of a company, as `GET /operations/{id}` answers it; `None` when it does not
/// exist for that company.
pub fn operation_json(conn: &dyn Conn, company_id: &str, op_id: &str) -> DbResult<Option<Value>> {
    let op = conn
        .query_row(
            "SELECT id, status, use_heavy, selected_pages, webhook_url, metadata, \
             client_operation_id, files_total, created_at, completed_at FROM operations \
             WHERE id = ?1 AND company_id = ?2",
            params![op_id, company_id],
            |r| {
                Ok((
                    r.get::<String>(0)?,
                    r.get::<String>(1)?,
                    r.get::<bool>(2)?,
                    r.get::<Option<String>>(3)?,
                    r.get::<Option<String>>(4)?,
                    r.get::<Option<String>>(5)?,
                    r.get::<Option<String>>(6)?,
                    r.get::<i64>(7)?,
                    r.get::<String>(8)?,
                    r.get::<Option<String>>(9)?,
                ))
            },
        )
        .optional()?;
    let Some(op) = op else { return Ok(None) };
    let docs: Vec<Value> = conn.query_map(
            "SELECT id, filename, status, pages_count, document_type_code, structure_type_code, \
         charged_units, created_at, completed_at, error_code, error_message, result_json \
         FROM documents WHERE operation_id = ?1 ORDER BY seq",
            params![op_id], |r| {
            let status: String = r.get(2)?;
            let charged: i64 = r.get(6)?;
            let result: Option<Value> = r
                .get::<Option<String>>(11)?
                .filter(|_| doc_status::has_result(&status))
                .and_then(|s| serde_json::from_str(&s).ok());
            let (validation, warnings) = validation_of(result.as_ref());
            let error = r
                .get::<Option<String>>(9)?
                .map(|code| json!({ "code": code, "message": r.get::<Option<String>>(10).ok().flatten() }));
            let id: String = r.get(0)?;
            let mut artifacts = vec![json!({ "name": "source_file", "url": format!("/api/v1/documents/{id}/artifacts/source_file") })];
            if result.is_some() {
                artifacts.insert(0, json!({ "name": "final_json", "url": format!("/api/v1/documents/{id}/artifacts/final_json") }));
                artifacts.push(json!({ "name": "text", "url": format!("/api/v1/documents/{id}/artifacts/text") }));
            }
            let mut d = json!({
                "document_id": id,
                "filename": r.get::<String>(1)?,
                "status": status,
                "pages_count": r.get::<Option<i64>>(3)?,
                "document_type_code": r.get::<Option<String>>(4)?,
                "structure_type_code": r.get::<Option<String>>(5)?,
                "billing": { "billable": charged > 0, "documents_charged": charged },
                "validation": validation,
                "warnings": warnings,
                "artifacts": artifacts,
                "created_at": r.get::<String>(7)?,
                "completed_at": r.get::<Option<String>>(8)?,
            });
            if let Some(res) = result {
                d["result"] = res;
            }
            if let Some(e) = error
                && !doc_status::has_result(d["status"].as_str().unwrap_or_default())
            {
                d["error"] = e;
            }
            Ok(d)
        })?;
    let statuses: Vec<&str> = docs
        .iter()
        .map(|d| d["status"].as_str().unwrap_or_default())
        .collect();
    let progress = model::progress(&statuses);
    let deliveries: Vec<(String, String)> = {
        conn.query_map(
            "SELECT event, status FROM deliveries WHERE operation_id = ?1 ORDER BY created_at",
            params![op_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?
    };
    let count = |s: &str| deliveries.iter().filter(|d| d.1 == s).count();
    Ok(Some(json!({
        "operation_id": op.0,
        "status": op.1,
        "use_heavy_ai": op.2,
        "selected_pages": op.3,
        "client_operation_id": op.6,
        "metadata": op.5.as_deref().map(|m| serde_json::from_str::<Value>(m).unwrap_or_else(|_| Value::String(m.to_string()))),
        "files_total": op.7,
        "progress": progress,
        "documents": docs,
        "webhook": {
            "enabled": op.4.is_some(),
            "url": op.4,
            "deliveries_total": deliveries.len(),
            "delivered": count("DELIVERED"),
            "pending": count("PENDING") + count("RETRY") + count("SENDING"),
            "failed": count("FAILED"),
            "cancelled": count("CANCELLED"),
        },
        "created_at": op.8,
        "completed_at": op.9,
    })))
}

/// `GET /operations/{id}/results`.
pub fn results_json(conn: &dyn Conn, company_id: &str, op_id: &str) -> DbResult<Option<Value>> {
    let Some(op) = operation_json(conn, company_id, op_id)? else {
        return Ok(None);
    };
    let results: Vec<Value> = op["documents"]
        .as_array()
        .map(|docs| {
            docs.iter()
                .map(|d| {
                    json!({
                        "document_id": d["document_id"],
                        "filename": d["filename"],
                        "status": d["status"],
                        "result": d.get("result").cloned().unwrap_or(Value::Null),
                        "validation": d["validation"],
                        "warnings": d["warnings"],
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Some(json!({
        "operation_id": op["operation_id"],
        "status": op["status"],
        "results": results,
    })))
}

/// A document of a company, as the document endpoints need it.
#[derive(Debug, Clone)]
pub struct DocumentRecord {
    /// Id.
    pub id: String,
    /// Status.
    pub status: String,
    /// Result JSON, when it has one.
    pub result_json: Option<String>,
    /// Plain text.
    pub text: Option<String>,
    /// Source SHA-256.
    pub source_sha256: String,
    /// Source size.
    pub source_size: i64,
    /// Whether the source bytes are stored.
    pub stored: bool,
    /// MIME type of the source.
    pub content_type: Option<String>,
    /// Upload time.
    pub created_at: String,
    /// Completion time.
    pub completed_at: Option<String>,
}

/// Loads a document of a company (`None` for another company's or a missing id).
pub fn document(
    conn: &dyn Conn,
    company_id: &str,
    doc_id: &str,
) -> DbResult<Option<DocumentRecord>> {
    conn.query_row(
        "SELECT d.id, d.status, d.result_json, d.text_content, d.sha256, \
             d.size_bytes, d.stored, d.content_type, d.created_at, d.completed_at \
             FROM documents d JOIN operations o ON o.id = d.operation_id \
             WHERE d.id = ?1 AND o.company_id = ?2",
        params![doc_id, company_id],
        |r| {
            let status: String = r.get(1)?;
            Ok(DocumentRecord {
                id: r.get(0)?,
                result_json: r
                    .get::<Option<String>>(2)?
                    .filter(|_| doc_status::has_result(&status)),
                status,
                text: r.get(3)?,
                source_sha256: r.get(4)?,
                source_size: r.get(5)?,
                stored: r.get(6)?,
                content_type: r.get(7)?,
                created_at: r.get(8)?,
                completed_at: r.get(9)?,
            })
        },
    )
    .optional()
}

/// The company of a document, for signed URLs (which carry no key).
pub fn document_company(conn: &dyn Conn, doc_id: &str) -> DbResult<Option<String>> {
    conn.query_row(
        "SELECT o.company_id FROM documents d JOIN operations o ON o.id = d.operation_id \
             WHERE d.id = ?1",
        params![doc_id],
        |r| r.get(0),
    )
    .optional()
}

/// id, event, event id, document, status, next attempt (ms).
type DeliveryRow = (String, String, String, Option<String>, String, Option<i64>);

/// `GET /operations/{id}/webhook`.
pub fn webhook_state(conn: &dyn Conn, company_id: &str, op_id: &str) -> DbResult<Option<Value>> {
    let url: Option<Option<String>> = conn
        .query_row(
            "SELECT webhook_url FROM operations WHERE id = ?1 AND company_id = ?2",
            params![op_id, company_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(url) = url else { return Ok(None) };
    let rows: Vec<DeliveryRow> = conn.query_map(
        "SELECT id, event, event_id, document_id, status, next_attempt_ms FROM deliveries \
         WHERE operation_id = ?1 ORDER BY created_at, id",
        params![op_id],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        },
    )?;
    let mut deliveries = Vec::with_capacity(rows.len());
    for (id, event, event_id, doc, status, next) in rows {
        let attempts: Vec<Value> = conn.query_map(
            "SELECT attempt, at, http_status, error, duration_ms FROM delivery_attempts \
         WHERE delivery_id = ?1 ORDER BY attempt",
            params![&id],
            |r| {
                Ok(json!({
                    "attempt": r.get::<i64>(0)?,
                    "at": r.get::<String>(1)?,
                    "http_status": r.get::<Option<i64>>(2)?,
                    "error": r.get::<Option<String>>(3)?,
                    "duration_ms": r.get::<i64>(4)?,
                }))
            },
        )?;
        let pending = matches!(status.as_str(), "PENDING" | "RETRY");
        deliveries.push(json!({
            "delivery_id": id,
            "event": event,
            "event_id": event_id,
            "document_id": doc,
            "status": status,
            "attempts": attempts,
            "next_attempt_at": next.filter(|_| pending).map(model::ms_iso),
        }));
    }
    Ok(Some(json!({
        "operation_id": op_id,
        "webhook_enabled": url.is_some(),
        "url": url,
        "deliveries": deliveries,
    })))
}

/// The usage record of `GET /auth/limits` for a key.
pub fn limits_json(conn: &dyn Conn, key: &KeyRecord) -> DbResult<Option<Value>> {
    let Some(company) = company_json(conn, &key.company_id)? else {
        return Ok(None);
    };
    let (used, reserved): (i64, i64) = conn
        .query_row(
            "SELECT used, reserved FROM key_usage WHERE key_id = ?1 AND month = ?2",
            params![key.id, model::current_month()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?
        .unwrap_or((0, 0));
    Ok(Some(json!({
        "company_id": company["company_id"],
        "company_status": company["company_status"],
        "billing_status": company["billing_status"],
        "balance_documents": company["balance_documents"],
        "reserved_documents": company["reserved_documents"],
        "available_documents": company["available_documents"],
        "max_file_size_mb": company["max_file_size_mb"],
        "max_files_per_operation": company["max_files_per_operation"],
        "max_pages_per_document": company["max_pages_per_document"],
        "api_key_id": key.id,
        "api_key_status": key.status,
        "monthly_document_limit": key.monthly_limit,
        "monthly_used_documents": used,
        "monthly_reserved_documents": reserved,
        "monthly_available_documents": key.monthly_limit.map(|l| (l - used - reserved).max(0)),
    })))
}

// --------------------------------------------------------------------------------------------
// Idempotency
// --------------------------------------------------------------------------------------------

/// Idempotency keys live this long.
pub const IDEMPOTENCY_TTL_MS: i64 = 24 * 3600 * 1000;

/// A key still IN_PROGRESS after this long belongs to an upload whose node died while
/// accepting it (no upload takes as long): a new request may take the key over.
pub const IDEMPOTENCY_ABANDONED_MS: i64 = 3600 * 1000;

/// What a new upload finds under its idempotency key.
#[derive(Debug, Clone, PartialEq)]
pub enum IdempotencyClaim {
    /// The key is new: this request owns it now (state IN_PROGRESS).
    Owned,
    /// An earlier request with this key is still being accepted.
    InProgress,
    /// An earlier request finished: its hash and response.
    Done {
        /// Request hash of the first request.
        request_hash: String,
        /// Its response body.
        response: String,
    },
}

/// Claims an idempotency key for a company for node `owner` (expired records are removed
/// first).
pub fn claim_idempotency(
    tx: &dyn Conn,
    owner: &str,
    company_id: &str,
    key: &str,
) -> DbResult<IdempotencyClaim> {
    let now = model::now_ms();
    tx.execute(
        "DELETE FROM idempotency WHERE company_id = ?1 AND key = ?2 AND (created_ms < ?3 \
         OR (state = 'IN_PROGRESS' AND created_ms < ?4))",
        params![
            company_id,
            key,
            now - IDEMPOTENCY_TTL_MS,
            now - IDEMPOTENCY_ABANDONED_MS
        ],
    )?;
    let n = tx.execute(
        "INSERT INTO idempotency (company_id, key, state, created_ms, owner) \
         VALUES (?1, ?2, 'IN_PROGRESS', ?3, ?4) ON CONFLICT DO NOTHING",
        params![company_id, key, now, owner],
    )?;
    if n == 1 {
        return Ok(IdempotencyClaim::Owned);
    }
    let (state, hash, response): (String, Option<String>, Option<String>) = tx.query_row(
        "SELECT state, request_hash, response FROM idempotency WHERE company_id = ?1 AND key = ?2",
        params![company_id, key],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    Ok(match (state.as_str(), hash, response) {
        ("DONE", Some(request_hash), Some(response)) => IdempotencyClaim::Done {
            request_hash,
            response,
        },
        _ => IdempotencyClaim::InProgress,
    })
}

/// Marks an owned key done with the request hash and the response (same transaction as the
/// operation it created).
pub fn complete_idempotency(
    tx: &dyn Conn,
    company_id: &str,
    key: &str,
    request_hash: &str,
    operation_id: &str,
    response: &str,
) -> DbResult<()> {
    tx.execute(
        "UPDATE idempotency SET state = 'DONE', request_hash = ?3, operation_id = ?4, \
         response = ?5 WHERE company_id = ?1 AND key = ?2",
        params![company_id, key, request_hash, operation_id, response],
    )?;
    Ok(())
}

/// Releases an owned key after a request that created nothing (so it can be retried).
pub fn release_idempotency(conn: &dyn Conn, company_id: &str, key: &str) -> DbResult<()> {
    conn.execute(
        "DELETE FROM idempotency WHERE company_id = ?1 AND key = ?2 AND state = 'IN_PROGRESS'",
        params![company_id, key],
    )?;
    Ok(())
}

/// Documents waiting in the queue (for metrics).
pub fn queue_depth(conn: &dyn Conn) -> DbResult<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM documents WHERE status = 'QUEUED'",
        params![],
        |r| r.get(0),
    )
}
