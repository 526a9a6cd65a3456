//! Companies, API keys and webhooks: what `folio admin` manages.

use super::*;

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

/// Whether company `id` exists.
pub fn company_exists(conn: &dyn Conn, id: &str) -> DbResult<bool> {
    Ok(conn
        .query_row("SELECT id FROM companies WHERE id = ?1", params![id], |r| {
            r.get::<String>(0)
        })
        .optional()?
        .is_some())
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
    if !company_exists(conn, company_id)? {
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
    if !company_exists(conn, &w.company_id)? {
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
