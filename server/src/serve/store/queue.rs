//! The durable queue of documents: claims under a lease, stages, final statuses, crashes,
//! cancellation, and what is given back after a node stops.

use super::*;

/// The operation a document belongs to.
pub(super) fn operation_of(tx: &dyn Conn, doc_id: &str) -> DbResult<String> {
    tx.query_row(
        "SELECT operation_id FROM documents WHERE id = ?1",
        params![doc_id],
        |r| r.get(0),
    )
}

/// Recomputes an operation's status from its documents; when it has just become final, stamps
/// `completed_at` and emits `operation.completed`. Returns the status.
pub fn refresh_operation(tx: &dyn Conn, op_id: &str) -> DbResult<String> {
    // The operation row first, locked: concurrent refreshes of one operation (nodes finishing
    // two of its documents) take turns, and the second reads the first's committed statuses,
    // so the operation becomes final, and announces it, exactly once.
    let old: String = tx.query_row(
        &format!(
            "SELECT status FROM operations WHERE id = ?1{}",
            for_update(tx)
        ),
        params![op_id],
        |r| r.get(0),
    )?;
    let statuses = document_statuses(tx, op_id)?;
    let refs: Vec<&str> = statuses.iter().map(String::as_str).collect();
    let status = model::operation_status(&refs);
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

pub(super) fn document_statuses(conn: &dyn Conn, op_id: &str) -> DbResult<Vec<String>> {
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
    give_back(tx, Some(owner))
}

/// What node `owner` held (every node's with `None`) back: documents to the queue,
/// deliveries being sent to be sent again, half-accepted idempotency keys released.
fn give_back(tx: &dyn Conn, owner: Option<&str>) -> DbResult<usize> {
    // `?1` is the owner, or 1 in a condition every row meets.
    let (held, who) = match owner {
        Some(o) => ("lease_owner = ?1", SqlValue::Text(o.to_string())),
        None => ("?1 = 1", SqlValue::Int(1)),
    };
    let p = params![who];
    let n = requeue_where(tx, held, p)?;
    let owned = match owner {
        Some(_) => "owner = ?1",
        None => "?1 = 1",
    };
    tx.execute(
        &format!("DELETE FROM idempotency WHERE state = 'IN_PROGRESS' AND {owned}"),
        p,
    )?;
    tx.execute(
        &format!(
            "UPDATE deliveries SET status = 'RETRY', next_attempt_ms = ?2 \
             WHERE status = 'SENDING' AND {held}"
        ),
        params![who, model::now_ms()],
    )?;
    Ok(n)
}

/// Puts the documents in progress that match `condition` back in the queue.
pub(super) fn requeue_where(
    tx: &dyn Conn,
    condition: &str,
    p: crate::serve::sql::Params<'_>,
) -> DbResult<usize> {
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
        // Only if it is still in progress: it may have been finished since it was read.
        let n = tx.execute(
            &format!(
                "UPDATE documents SET status = 'QUEUED', lease_ms = NULL \
                 WHERE id = ?1 AND status IN {}",
                *doc_status::STAGES_SQL
            ),
            params![doc],
        )?;
        if n > 0 && !ops.contains(&op.as_str()) {
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
            &format!(
                "SELECT status, worker_crashes FROM documents WHERE id = ?1{}",
                for_update(tx)
            ),
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

/// Records the stage a document entered, only from another stage: a document that became
/// final meanwhile (cancelled) or went back to the queue (its lease ended while this node was
/// cut off) is left as it is. One stage to another never changes the operation's status
/// (`model::operation_status` tells apart queued, in progress and final only), so the
/// operation is not touched: one small write per stage.
pub fn set_stage(tx: &dyn Conn, doc_id: &str, stage: &str) -> DbResult<()> {
    tx.execute(
        &format!(
            "UPDATE documents SET status = ?2 WHERE id = ?1 AND status IN {}",
            *doc_status::STAGES_SQL
        ),
        params![doc_id, stage],
    )?;
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
    let mut cancelled = Vec::with_capacity(ids.len());
    for id in ids {
        // A document that became final meanwhile (another node finished it) stays as it is.
        let n = tx.execute(
            &format!(
                "UPDATE documents SET status = 'CANCELLED', error_code = 'CANCELLED', \
                 error_message = 'cancelled by request', completed_at = ?2 \
                 WHERE id = ?1 AND status NOT IN {}",
                *doc_status::FINAL_SQL
            ),
            params![id, now],
        )?;
        if n > 0 {
            settle_reservation(tx, &id, false)?;
            cancelled.push(id);
        }
    }
    refresh_operation(tx, op_id)?;
    Ok(cancelled)
}

/// Puts documents interrupted by a crash or restart back in the queue (they are processed
/// again, never failed for it), drops half-done idempotency records (their uploads were never
/// committed), and makes interrupted webhook sends due again: [`recover_node`] for the one
/// server of an embedded database, which held everything. Returns how many documents were
/// requeued.
pub fn recover(tx: &dyn Conn) -> DbResult<usize> {
    give_back(tx, None)
}

/// Documents waiting in the queue (for metrics).
pub fn queue_depth(conn: &dyn Conn) -> DbResult<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM documents WHERE status = 'QUEUED'",
        params![],
        |r| r.get(0),
    )
}
