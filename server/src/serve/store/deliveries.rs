//! Webhook events (created once, in the transaction of the change they announce) and their
//! deliveries: claims, attempts, retries.

use super::*;

pub(super) fn operation_target(conn: &dyn Conn, op_id: &str) -> DbResult<Option<WebhookTarget>> {
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

pub(super) fn insert_delivery(
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

/// Queues the event of a document that just became final (processed, rejected, failed; a
/// cancelled document has none), when the operation has a webhook target.
pub(super) fn emit_document_event(tx: &dyn Conn, op_id: &str, doc_id: &str) -> DbResult<()> {
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
pub(super) fn emit_operation_event(tx: &dyn Conn, op_id: &str) -> DbResult<()> {
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
/// far longer than an attempt may take ([`crate::serve::webhooks::ATTEMPT_TIMEOUT`]).
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
