//! Idempotency keys of uploads.

use super::*;

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
