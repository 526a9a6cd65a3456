//! The records as the HTTP API and the webhooks show them: the JSON bodies, built from what
//! the storage modules keep.

use super::*;

/// The document object of webhook payloads and operation records.
pub(super) fn document_brief(conn: &dyn Conn, doc_id: &str) -> DbResult<Value> {
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

/// The `validation` and `warnings` of a stored result.
pub(super) fn validation_of(result: Option<&Value>) -> (Value, Value) {
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
    /// Its operation.
    pub operation_id: String,
    /// Name of the uploaded file.
    pub filename: String,
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
             d.size_bytes, d.stored, d.content_type, d.created_at, d.completed_at, \
             d.operation_id, d.filename FROM documents d JOIN operations o ON o.id = d.operation_id \
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
                operation_id: r.get(10)?,
                filename: r.get(11)?,
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
pub(super) type DeliveryRow = (String, String, String, Option<String>, String, Option<i64>);

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
