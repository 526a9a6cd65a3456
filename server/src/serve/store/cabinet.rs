//! What the web cabinet reads and writes: its users, their sessions and failed sign-ins, and
//! the company-scoped views and changes of keys, webhooks, deliveries and operations. Every
//! function that takes a `company_id` touches only that company's rows: an id of another
//! company's key, webhook, delivery or document is "not found", never shown or changed.

use super::*;
use crate::serve::sql::Row;

/// How long a one-time link to set a password stays valid.
pub const SETUP_LINK_MS: i64 = 72 * 3600 * 1000;

/// A user as a sign-in needs it.
#[derive(Debug, Clone)]
pub struct UserLogin {
    /// `usr_...`.
    pub id: String,
    /// The argon2 hash (PHC string); `None` until the password is set.
    pub password_hash: Option<String>,
    /// `ACTIVE` or `DISABLED`.
    pub status: String,
}

/// The signed-in user of a session.
#[derive(Debug, Clone)]
pub struct SessionUser {
    /// E-mail.
    pub email: String,
    /// Its company.
    pub company_id: String,
    /// The company's name.
    pub company_name: String,
    /// The session's CSRF token (every form carries it).
    pub csrf: String,
    /// When the session was last seen (ms).
    pub seen_ms: i64,
}

/// Why a user cannot be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewUserRefusal {
    /// No such company.
    NoCompany,
    /// The e-mail is taken.
    EmailTaken,
}

/// An e-mail address as stored and compared: trimmed, lower case.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Creates a user of a company. With a password hash it can sign in at once; without, a
/// one-time token is stored (by its hash) for the link that sets the password, and returned.
pub fn create_user(
    conn: &dyn Conn,
    company_id: &str,
    email: &str,
    password_hash: Option<&str>,
) -> DbResult<Result<(String, Option<String>), NewUserRefusal>> {
    if !company_exists(conn, company_id)? {
        return Ok(Err(NewUserRefusal::NoCompany));
    }
    let email = normalize_email(email);
    let taken: Option<String> = conn
        .query_row(
            "SELECT id FROM users WHERE email = ?1",
            params![&email],
            |r| r.get(0),
        )
        .optional()?;
    if taken.is_some() {
        return Ok(Err(NewUserRefusal::EmailTaken));
    }
    let id = model::new_id("usr_");
    let token = password_hash.is_none().then(|| model::random_hex(32));
    conn.execute(
        "INSERT INTO users (id, company_id, email, password_hash, setup_token_hash, \
         setup_expires_ms, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            &id,
            company_id,
            &email,
            password_hash,
            token.as_deref().map(hash_secret),
            token.as_ref().map(|_| model::now_ms() + SETUP_LINK_MS),
            model::now_iso()
        ],
    )?;
    Ok(Ok((id, token)))
}

/// A new one-time link for an existing user (the old one stops working); `None` when there
/// is no such user.
pub fn reset_setup_token(conn: &dyn Conn, email: &str) -> DbResult<Option<String>> {
    let token = model::random_hex(32);
    let n = conn.execute(
        "UPDATE users SET setup_token_hash = ?2, setup_expires_ms = ?3 WHERE email = ?1",
        params![
            normalize_email(email),
            hash_secret(&token),
            model::now_ms() + SETUP_LINK_MS
        ],
    )?;
    Ok((n > 0).then_some(token))
}

/// Disables the user of an e-mail and ends its sessions; false when there is none.
pub fn disable_user(conn: &dyn Conn, email: &str) -> DbResult<bool> {
    let email = normalize_email(email);
    conn.execute(
        "DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE email = ?1)",
        params![&email],
    )?;
    Ok(conn.execute(
        "UPDATE users SET status = 'DISABLED', setup_token_hash = NULL WHERE email = ?1",
        params![&email],
    )? > 0)
}

/// The user an e-mail signs in as.
pub fn user_login(conn: &dyn Conn, email: &str) -> DbResult<Option<UserLogin>> {
    conn.query_row(
        "SELECT id, password_hash, status FROM users WHERE email = ?1",
        params![normalize_email(email)],
        |r| {
            Ok(UserLogin {
                id: r.get(0)?,
                password_hash: r.get(1)?,
                status: r.get(2)?,
            })
        },
    )
    .optional()
}

/// The user (id, e-mail) whose one-time link this token is, while it is valid.
pub fn setup_token_user(conn: &dyn Conn, token: &str) -> DbResult<Option<(String, String)>> {
    conn.query_row(
        "SELECT id, email FROM users WHERE setup_token_hash = ?1 AND setup_expires_ms > ?2 \
         AND status = 'ACTIVE'",
        params![hash_secret(token), model::now_ms()],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// Sets a user's password hash and spends its one-time link; every session of the user ends
/// (a password change signs out everywhere).
pub fn set_password(conn: &dyn Conn, user_id: &str, password_hash: &str) -> DbResult<bool> {
    conn.execute("DELETE FROM sessions WHERE user_id = ?1", params![user_id])?;
    Ok(conn.execute(
        "UPDATE users SET password_hash = ?2, setup_token_hash = NULL, setup_expires_ms = NULL \
         WHERE id = ?1",
        params![user_id, password_hash],
    )? > 0)
}

/// Failed sign-ins of an e-mail since `since_ms`.
pub fn failures_since(conn: &dyn Conn, email: &str, since_ms: i64) -> DbResult<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM sign_in_failures WHERE email = ?1 AND at_ms > ?2",
        params![normalize_email(email), since_ms],
        |r| r.get(0),
    )
}

/// Records a failed sign-in (and forgets failures older than `keep_ms`).
pub fn record_failure(conn: &dyn Conn, email: &str, now_ms: i64, keep_ms: i64) -> DbResult<()> {
    conn.execute(
        "DELETE FROM sign_in_failures WHERE at_ms < ?1",
        params![now_ms - keep_ms],
    )?;
    conn.execute(
        "INSERT INTO sign_in_failures (email, at_ms) VALUES (?1, ?2)",
        params![normalize_email(email), now_ms],
    )?;
    Ok(())
}

/// Forgets the failed sign-ins of an e-mail (after a successful one).
pub fn clear_failures(conn: &dyn Conn, email: &str) -> DbResult<()> {
    conn.execute(
        "DELETE FROM sign_in_failures WHERE email = ?1",
        params![normalize_email(email)],
    )?;
    Ok(())
}

/// Starts a session (stored by the hash of its cookie value); ended sessions are swept.
pub fn create_session(
    conn: &dyn Conn,
    user_id: &str,
    id_hash: &str,
    csrf: &str,
    now_ms: i64,
    expires_ms: i64,
) -> DbResult<()> {
    conn.execute(
        "DELETE FROM sessions WHERE expires_ms < ?1",
        params![now_ms],
    )?;
    conn.execute(
        "INSERT INTO sessions (id_hash, user_id, csrf, created_ms, seen_ms, expires_ms) \
         VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
        params![id_hash, user_id, csrf, now_ms, expires_ms],
    )?;
    conn.execute(
        "UPDATE users SET last_sign_in_at = ?2 WHERE id = ?1",
        params![user_id, model::now_iso()],
    )?;
    Ok(())
}

/// The user of a live session: not expired, not idle longer than `idle_ms`, its user and
/// company active.
pub fn session_user(
    conn: &dyn Conn,
    id_hash: &str,
    now_ms: i64,
    idle_ms: i64,
) -> DbResult<Option<SessionUser>> {
    conn.query_row(
        "SELECT u.email, u.company_id, c.name, s.csrf, s.seen_ms FROM sessions s \
         JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id \
         WHERE s.id_hash = ?1 AND s.expires_ms > ?2 AND s.seen_ms > ?3 \
         AND u.status = 'ACTIVE' AND c.status = 'ACTIVE'",
        params![id_hash, now_ms, now_ms - idle_ms],
        |r| {
            Ok(SessionUser {
                email: r.get(0)?,
                company_id: r.get(1)?,
                company_name: r.get(2)?,
                csrf: r.get(3)?,
                seen_ms: r.get(4)?,
            })
        },
    )
    .optional()
}

/// Marks a session seen now.
pub fn touch_session(conn: &dyn Conn, id_hash: &str, now_ms: i64) -> DbResult<()> {
    conn.execute(
        "UPDATE sessions SET seen_ms = ?2 WHERE id_hash = ?1",
        params![id_hash, now_ms],
    )?;
    Ok(())
}

/// Ends a session.
pub fn delete_session(conn: &dyn Conn, id_hash: &str) -> DbResult<()> {
    conn.execute("DELETE FROM sessions WHERE id_hash = ?1", params![id_hash])?;
    Ok(())
}

/// Records that a key was used now.
pub fn touch_key(conn: &dyn Conn, key_id: &str, now_ms: i64) -> DbResult<()> {
    conn.execute(
        "UPDATE api_keys SET last_used_ms = ?2 WHERE id = ?1",
        params![key_id, now_ms],
    )?;
    Ok(())
}

/// The company's keys, newest first, with this month's usage.
pub fn company_keys(conn: &dyn Conn, company_id: &str) -> DbResult<Vec<Value>> {
    conn.query_map(
        "SELECT k.id, k.name, k.status, k.permissions, k.monthly_limit, \
         COALESCE(u.used, 0), COALESCE(u.reserved, 0), k.last_used_ms, k.created_at, \
         k.revoked_at FROM api_keys k \
         LEFT JOIN key_usage u ON u.key_id = k.id AND u.month = ?2 \
         WHERE k.company_id = ?1 ORDER BY k.created_at DESC, k.id",
        params![company_id, model::current_month()],
        |r| {
            let limit: Option<i64> = r.get(4)?;
            let used: i64 = r.get(5)?;
            let reserved: i64 = r.get(6)?;
            Ok(json!({
                "api_key_id": r.get::<String>(0)?,
                "name": r.get::<Option<String>>(1)?,
                "status": r.get::<String>(2)?,
                "permissions": r.get::<String>(3)?.split(',').filter(|p| !p.is_empty())
                    .collect::<Vec<_>>(),
                "monthly_document_limit": limit,
                "monthly_used_documents": used,
                "monthly_reserved_documents": reserved,
                "monthly_available_documents": limit.map(|l| (l - used - reserved).max(0)),
                "last_used_at": r.get::<Option<i64>>(7)?.map(model::ms_iso),
                "created_at": r.get::<String>(8)?,
                "revoked_at": r.get::<Option<String>>(9)?,
            }))
        },
    )
}

/// Revokes a key of the company; false when the company has no such active key.
pub fn revoke_company_key(conn: &dyn Conn, company_id: &str, key_id: &str) -> DbResult<bool> {
    Ok(conn.execute(
        "UPDATE api_keys SET status = 'REVOKED', revoked_at = ?3 WHERE id = ?1 \
         AND company_id = ?2 AND status = 'ACTIVE'",
        params![key_id, company_id, model::now_iso()],
    )? > 0)
}

/// Sets (or removes) the monthly limit of a key of the company.
pub fn set_key_limit(
    conn: &dyn Conn,
    company_id: &str,
    key_id: &str,
    limit: Option<i64>,
) -> DbResult<bool> {
    Ok(conn.execute(
        "UPDATE api_keys SET monthly_limit = ?3 WHERE id = ?1 AND company_id = ?2",
        params![key_id, company_id, limit],
    )? > 0)
}

/// Sets the company's default for enhanced recognition.
pub fn set_heavy_default(conn: &dyn Conn, company_id: &str, heavy: bool) -> DbResult<bool> {
    Ok(conn.execute(
        "UPDATE companies SET heavy_default = ?2 WHERE id = ?1",
        params![company_id, heavy],
    )? > 0)
}

/// A webhook as the cabinet shows it (the secret never: only whether there is one).
fn webhook_row(r: &Row) -> DbResult<Value> {
    Ok(json!({
        "webhook_id": r.get::<String>(0)?,
        "name": r.get::<Option<String>>(1)?,
        "url": r.get::<String>(2)?,
        "has_secret": r.get::<Option<String>>(3)?.is_some(),
        "signature_required": r.get::<bool>(4)?,
        "is_default": r.get::<bool>(5)?,
        "max_delivery_attempts": r.get::<i64>(6)?,
        "retry_delays_sec": parse_delays(&r.get::<String>(7)?),
        "status": r.get::<String>(8)?,
        "created_at": r.get::<String>(9)?,
    }))
}

const WEBHOOK_COLUMNS: &str = "id, name, url, secret, signature_required, is_default, \
     max_attempts, retry_delays, status, created_at";

/// The company's webhooks, newest first.
pub fn company_webhooks(conn: &dyn Conn, company_id: &str) -> DbResult<Vec<Value>> {
    conn.query_map(
        &format!(
            "SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE company_id = ?1 \
             ORDER BY created_at DESC, id"
        ),
        params![company_id],
        webhook_row,
    )
}

/// One webhook of the company.
pub fn company_webhook(conn: &dyn Conn, company_id: &str, id: &str) -> DbResult<Option<Value>> {
    conn.query_row(
        &format!("SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?1 AND company_id = ?2"),
        params![id, company_id],
        webhook_row,
    )
    .optional()
}

/// The signing secret of a webhook of the company (for its test event), when it signs.
pub fn webhook_signing(
    conn: &dyn Conn,
    company_id: &str,
    id: &str,
) -> DbResult<Option<(String, Option<String>)>> {
    conn.query_row(
        "SELECT url, secret, signature_required FROM webhooks WHERE id = ?1 AND company_id = ?2",
        params![id, company_id],
        |r| {
            let secret: Option<String> = r.get(1)?;
            let signed: bool = r.get(2)?;
            Ok((r.get(0)?, secret.filter(|_| signed)))
        },
    )
    .optional()
}

/// What an edit of a webhook changes.
#[derive(Debug, Clone)]
pub struct WebhookEdit {
    /// Display name.
    pub name: Option<String>,
    /// Target.
    pub url: String,
    /// A new signing secret (`None`: keep the one there is; one is generated when signing is
    /// required and there is none).
    pub new_secret: Option<String>,
    /// Sign requests.
    pub signature_required: bool,
    /// The company's default.
    pub is_default: bool,
    /// Attempts before FAILED.
    pub max_attempts: u32,
    /// Pauses between attempts.
    pub retry_delays: Vec<u64>,
    /// `ACTIVE` or `DISABLED`.
    pub status: String,
}

/// Changes a webhook of the company; returns `None` when it has no such webhook, else the
/// secret when one was generated now (shown once).
pub fn update_webhook(
    conn: &dyn Conn,
    company_id: &str,
    id: &str,
    w: &WebhookEdit,
) -> DbResult<Option<Option<String>>> {
    let current: Option<Option<String>> = conn
        .query_row(
            "SELECT secret FROM webhooks WHERE id = ?1 AND company_id = ?2",
            params![id, company_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(current) = current else {
        return Ok(None);
    };
    let generated = (w.new_secret.is_none() && current.is_none() && w.signature_required)
        .then(|| model::random_hex(32));
    let secret = w.new_secret.clone().or(generated.clone()).or(current);
    let is_default = w.is_default && w.status == "ACTIVE";
    if is_default {
        conn.execute(
            "UPDATE webhooks SET is_default = 0 WHERE company_id = ?1 AND id <> ?2",
            params![company_id, id],
        )?;
    }
    conn.execute(
        "UPDATE webhooks SET name = ?3, url = ?4, secret = ?5, signature_required = ?6, \
         is_default = ?7, max_attempts = ?8, retry_delays = ?9, status = ?10 \
         WHERE id = ?1 AND company_id = ?2",
        params![
            id,
            company_id,
            &w.name,
            &w.url,
            secret,
            w.signature_required,
            is_default,
            w.max_attempts,
            delays_text(&w.retry_delays),
            &w.status
        ],
    )?;
    Ok(Some(generated))
}

/// Sends a delivery of the company again: one more attempt, now. `None` when the company has
/// no such delivery; `Some(false)` when it is still being tried (nothing to redo).
pub fn redeliver(conn: &dyn Conn, company_id: &str, delivery_id: &str) -> DbResult<Option<bool>> {
    let status: Option<String> = conn
        .query_row(
            &format!(
                "SELECT d.status FROM deliveries d JOIN operations o ON o.id = d.operation_id \
                 WHERE d.id = ?1 AND o.company_id = ?2{}",
                for_update(conn)
            ),
            params![delivery_id, company_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(status) = status else {
        return Ok(None);
    };
    if !matches!(status.as_str(), "FAILED" | "DELIVERED" | "CANCELLED") {
        return Ok(Some(false));
    }
    let n = conn.execute(
        "UPDATE deliveries SET status = 'PENDING', next_attempt_ms = ?2, \
         max_attempts = attempts + 1, lease_owner = NULL WHERE id = ?1 AND status = ?3",
        params![delivery_id, model::now_ms(), status],
    )?;
    Ok(Some(n > 0))
}

/// Filters of the operations list.
#[derive(Debug, Clone, Default)]
pub struct OperationFilter {
    /// Matches an operation id, a `client_operation_id`, a document id or a filename (part of).
    pub text: Option<String>,
    /// Operation status.
    pub status: Option<String>,
    /// Created on or after this day (`YYYY-MM-DD`).
    pub from: Option<String>,
    /// Created on or before this day.
    pub to: Option<String>,
    /// Rows to skip.
    pub offset: i64,
    /// Rows to return.
    pub limit: i64,
}

/// `%`, `_` and `\` of a LIKE pattern taken literally.
fn like_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('%');
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// The company's operations matching `f`, newest first.
pub fn search_operations(
    conn: &dyn Conn,
    company_id: &str,
    f: &OperationFilter,
) -> DbResult<Vec<Value>> {
    let text = f
        .text
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| like_literal(&t.to_lowercase()));
    let day_end = f.to.as_ref().map(|d| format!("{d}T99"));
    // CAST: PostgreSQL cannot tell the type of a parameter that is only tested for NULL.
    conn.query_map(
        "SELECT o.id, o.status, o.client_operation_id, o.files_total, o.created_at, \
         o.completed_at, o.use_heavy, \
         (SELECT MIN(d.filename) FROM documents d WHERE d.operation_id = o.id) \
         FROM operations o WHERE o.company_id = ?1 \
         AND (CAST(?2 AS TEXT) IS NULL OR LOWER(o.id) LIKE ?2 ESCAPE '\\' \
              OR LOWER(COALESCE(o.client_operation_id, '')) LIKE ?2 ESCAPE '\\' \
              OR EXISTS (SELECT 1 FROM documents d WHERE d.operation_id = o.id \
                  AND (LOWER(d.filename) LIKE ?2 ESCAPE '\\' OR LOWER(d.id) LIKE ?2 ESCAPE '\\'))) \
         AND (CAST(?3 AS TEXT) IS NULL OR o.status = ?3) \
         AND (CAST(?4 AS TEXT) IS NULL OR o.created_at >= ?4) \
         AND (CAST(?5 AS TEXT) IS NULL OR o.created_at <= ?5) \
         ORDER BY o.created_at DESC, o.id DESC LIMIT ?6 OFFSET ?7",
        params![
            company_id,
            text,
            f.status.as_deref().filter(|s| !s.is_empty()),
            f.from.as_deref().filter(|s| !s.is_empty()),
            day_end,
            f.limit,
            f.offset
        ],
        |r| {
            Ok(json!({
                "operation_id": r.get::<String>(0)?,
                "status": r.get::<String>(1)?,
                "client_operation_id": r.get::<Option<String>>(2)?,
                "files_total": r.get::<i64>(3)?,
                "created_at": r.get::<String>(4)?,
                "completed_at": r.get::<Option<String>>(5)?,
                "use_heavy_ai": r.get::<bool>(6)?,
                "first_filename": r.get::<Option<String>>(7)?,
            }))
        },
    )
}

/// Documents uploaded by the company per day (UTC) over the last `days` days, oldest first,
/// days without any included (count 0).
pub fn documents_per_day(
    conn: &dyn Conn,
    company_id: &str,
    days: i64,
) -> DbResult<Vec<(String, i64)>> {
    let today = chrono::Utc::now().date_naive();
    let first = today - chrono::Duration::days(days - 1);
    let counts: Vec<(String, i64)> = conn.query_map(
        "SELECT SUBSTR(d.created_at, 1, 10) AS day, COUNT(*) FROM documents d \
         JOIN operations o ON o.id = d.operation_id \
         WHERE o.company_id = ?1 AND d.created_at >= ?2 GROUP BY day ORDER BY day",
        params![company_id, first.format("%Y-%m-%d").to_string()],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let counts: std::collections::HashMap<String, i64> = counts.into_iter().collect();
    Ok((0..days)
        .map(|i| {
            let day = (first + chrono::Duration::days(i))
                .format("%Y-%m-%d")
                .to_string();
            let n = counts.get(&day).copied().unwrap_or(0);
            (day, n)
        })
        .collect())
}

/// The documents of an operation of the company (id, filename, status, error code, pages,
/// type), in upload order; `None` for another company's operation.
pub fn operation_documents(
    conn: &dyn Conn,
    company_id: &str,
    op_id: &str,
) -> DbResult<Option<Vec<Value>>> {
    let owner: Option<String> = conn
        .query_row(
            "SELECT company_id FROM operations WHERE id = ?1",
            params![op_id],
            |r| r.get(0),
        )
        .optional()?;
    if owner.as_deref() != Some(company_id) {
        return Ok(None);
    }
    conn.query_map(
        "SELECT id, filename, status, error_code, error_message, pages_count, \
         document_type_code, charged_units, result_json IS NOT NULL FROM documents \
         WHERE operation_id = ?1 ORDER BY seq",
        params![op_id],
        |r| {
            Ok(json!({
                "document_id": r.get::<String>(0)?,
                "filename": r.get::<String>(1)?,
                "status": r.get::<String>(2)?,
                "error_code": r.get::<Option<String>>(3)?,
                "error_message": r.get::<Option<String>>(4)?,
                "pages_count": r.get::<Option<i64>>(5)?,
                "document_type_code": r.get::<Option<String>>(6)?,
                "documents_charged": r.get::<i64>(7)?,
                "has_result": r.get::<bool>(8)?,
            }))
        },
    )
    .map(Some)
}
