//! Operations as uploads create them, with the units they reserve, and the settling of a
//! document's reservation (charged or released) when it becomes final.

use super::*;

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
    // The company's row and the key's row are locked while the reservation is decided: two
    // uploads of one company (on two nodes) take turns.
    let (balance, reserved): (i64, i64) = tx.query_row(
        &format!(
            "SELECT balance, reserved FROM companies WHERE id = ?1{}",
            for_update(tx)
        ),
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
        &format!(
            "SELECT monthly_limit FROM api_keys WHERE id = ?1{}",
            for_update(tx)
        ),
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

/// Charges (a result) or releases (anything else) a document's reserved units, moving them
/// out of the company's and the key's reservations. A document with nothing reserved (already
/// settled) is left alone.
pub(super) fn settle_reservation(tx: &dyn Conn, doc_id: &str, charge: bool) -> DbResult<()> {
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
