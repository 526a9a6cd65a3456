//! The router and the read endpoints (uploads are in [`super::upload`]).

use super::AppState;
use super::auth::Auth;
use super::db::DbResult;
use super::error::{self, ApiError, ApiPath};
use super::model;
use super::signed::{self, LinkError};
use super::store;
use super::upload;
use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, RawQuery, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The OpenAPI 3.1 description of this API.
pub const OPENAPI: &str = include_str!("../../openapi.json");

/// Artifact names.
pub const ARTIFACTS: [&str; 3] = ["final_json", "source_file", "text"];

/// Builds the router.
pub fn router(state: AppState) -> Router {
    let body_limit = state.max_request_bytes;
    Router::new()
        .route(
            "/api/v1/operations",
            post(upload::create_operation).layer(DefaultBodyLimit::max(body_limit)),
        )
        .route("/api/v1/operations/{operation_id}", get(get_operation))
        .route(
            "/api/v1/operations/{operation_id}/results",
            get(get_results),
        )
        .route(
            "/api/v1/operations/{operation_id}/webhook",
            get(get_webhook),
        )
        .route("/api/v1/operations/{operation_id}/cancel", post(cancel))
        .route("/api/v1/documents/{document_id}/result", get(get_result))
        .route(
            "/api/v1/documents/{document_id}/artifacts",
            get(list_artifacts),
        )
        .route(
            "/api/v1/documents/{document_id}/artifacts/{name}",
            get(get_artifact),
        )
        .route(
            "/api/v1/documents/{document_id}/artifacts/{name}/signed-url",
            get(signed_url),
        )
        .route(
            "/api/v1/signed/documents/{document_id}/artifacts/{name}",
            get(get_signed_artifact),
        )
        .route("/api/v1/auth/limits", get(limits))
        .route("/api/v1/openapi.json", get(openapi))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .merge(super::cabinet::router())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(error::json_errors))
        .layer(middleware::from_fn_with_state(state.clone(), observe))
        .with_state(state)
}

/// Request ids on every response, and request metrics.
async fn observe(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let method = req.method().to_string();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |m| m.as_str().to_string());
    let mut resp = next.run(req).await;
    if !resp.headers().contains_key("x-request-id")
        && let Ok(v) = HeaderValue::from_str(&model::new_id("req_"))
    {
        resp.headers_mut().insert("x-request-id", v);
    }
    state
        .metrics
        .request(&method, &route, resp.status().as_u16());
    resp
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, error::HTTP_ERROR, "no such route")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        error::HTTP_ERROR,
        "method not allowed on this route",
    )
}

fn ok(v: Value) -> Response {
    (StatusCode::OK, axum::Json(v)).into_response()
}

/// An operation view of the caller's company (`operations:read`), 404 when there is none.
async fn operation_view(
    state: &AppState,
    auth: &Auth,
    op_id: String,
    view: fn(&dyn super::sql::Conn, &str, &str) -> DbResult<Option<Value>>,
) -> Result<Response, ApiError> {
    auth.require("operations:read")?;
    let company = auth.company().to_string();
    state
        .db
        .call(move |c| view(c, &company, &op_id))
        .await?
        .map(ok)
        .ok_or_else(|| ApiError::not_found("operation"))
}

async fn get_operation(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(op_id): ApiPath<String>,
) -> Result<Response, ApiError> {
    operation_view(&state, &auth, op_id, store::operation_json).await
}

async fn get_results(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(op_id): ApiPath<String>,
) -> Result<Response, ApiError> {
    operation_view(&state, &auth, op_id, store::results_json).await
}

async fn get_webhook(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(op_id): ApiPath<String>,
) -> Result<Response, ApiError> {
    operation_view(&state, &auth, op_id, store::webhook_state).await
}

async fn cancel(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(op_id): ApiPath<String>,
) -> Result<Response, ApiError> {
    auth.require("operations:write")?;
    let company = auth.company().to_string();
    let (c, o) = (company.clone(), op_id.clone());
    let exists = state
        .db
        .call(move |conn| store::operation_json(conn, &c, &o))
        .await?
        .is_some();
    if !exists {
        return Err(ApiError::not_found("operation"));
    }
    let o = op_id.clone();
    let cancelled = state
        .db
        .call_tx(move |tx| store::cancel_operation(tx, &o))
        .await?;
    for doc in &cancelled {
        state.cancel_running(doc);
    }
    state.deliveries_wake.notify_one();
    state
        .db
        .call(move |c| store::operation_json(c, &company, &op_id))
        .await?
        .map(ok)
        .ok_or_else(|| ApiError::not_found("operation"))
}

async fn load_document(
    state: &AppState,
    company: &str,
    doc_id: &str,
) -> Result<store::DocumentRecord, ApiError> {
    let (c, d) = (company.to_string(), doc_id.to_string());
    state
        .db
        .call(move |conn| store::document(conn, &c, &d))
        .await?
        .ok_or_else(|| ApiError::not_found("document"))
}

async fn get_result(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(doc_id): ApiPath<String>,
) -> Result<Response, ApiError> {
    auth.require("documents:read")?;
    let doc = load_document(&state, auth.company(), &doc_id).await?;
    match doc.result_json {
        Some(r) => Ok(json_text(r)),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "RESULT_NOT_AVAILABLE",
            format!("document is {} and has no result", doc.status),
        )),
    }
}

/// A stored JSON text as the response body, byte for byte.
fn json_text(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// The bytes, content type, SHA-256 and time of an artifact, when the document has it.
async fn artifact(
    state: &AppState,
    doc: &store::DocumentRecord,
    name: &str,
) -> Result<Option<(Vec<u8>, String, String)>, ApiError> {
    Ok(match name {
        "final_json" => doc.result_json.clone().map(|r| {
            (
                r.into_bytes(),
                "application/json".to_string(),
                doc_time(doc),
            )
        }),
        "text" => doc.result_json.as_ref().map(|_| {
            (
                doc.text.clone().unwrap_or_default().into_bytes(),
                "text/plain; charset=utf-8".to_string(),
                doc_time(doc),
            )
        }),
        "source_file" if doc.stored => match state.files.read(&doc.id).await {
            Ok(Some(b)) => Some((
                b,
                doc.content_type
                    .clone()
                    .unwrap_or_else(|| "application/octet-stream".into()),
                doc.created_at.clone(),
            )),
            Ok(None) => None,
            Err(e) => return Err(ApiError::internal(e)),
        },
        _ => None,
    })
}

fn doc_time(doc: &store::DocumentRecord) -> String {
    doc.completed_at
        .clone()
        .unwrap_or_else(|| doc.created_at.clone())
}

async fn list_artifacts(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(doc_id): ApiPath<String>,
) -> Result<Response, ApiError> {
    auth.require("documents:read")?;
    let doc = load_document(&state, auth.company(), &doc_id).await?;
    let mut list = Vec::new();
    for name in ARTIFACTS {
        if name == "source_file" && doc.stored {
            // Size and hash are known from the upload: no need to read the file.
            list.push(json!({
                "name": name,
                "content_type": doc.content_type.clone().unwrap_or_else(|| "application/octet-stream".into()),
                "size_bytes": doc.source_size,
                "sha256": doc.source_sha256,
                "created_at": doc.created_at,
            }));
            continue;
        }
        if let Some((bytes, ct, at)) = artifact(&state, &doc, name).await? {
            list.push(json!({
                "name": name,
                "content_type": ct,
                "size_bytes": bytes.len(),
                "sha256": hex::encode(Sha256::digest(&bytes)),
                "created_at": at,
            }));
        }
    }
    Ok(ok(json!({ "document_id": doc.id, "artifacts": list })))
}

fn artifact_response(bytes: Vec<u8>, content_type: String, name: &str, doc_id: &str) -> Response {
    let disposition = match name {
        "final_json" => format!("attachment; filename=\"{doc_id}.json\""),
        "text" => format!("attachment; filename=\"{doc_id}.txt\""),
        _ => format!("attachment; filename=\"{doc_id}\""),
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response()
}

async fn get_artifact(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((doc_id, name)): ApiPath<(String, String)>,
) -> Result<Response, ApiError> {
    auth.require("documents:read")?;
    let doc = load_document(&state, auth.company(), &doc_id).await?;
    let (bytes, ct, _) = artifact(&state, &doc, &name)
        .await?
        .ok_or_else(|| ApiError::not_found("artifact"))?;
    Ok(artifact_response(bytes, ct, &name, &doc.id))
}

async fn signed_url(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((doc_id, name)): ApiPath<(String, String)>,
) -> Result<Response, ApiError> {
    auth.require("documents:read")?;
    let doc = load_document(&state, auth.company(), &doc_id).await?;
    if !ARTIFACTS.contains(&name.as_str()) || artifact(&state, &doc, &name).await?.is_none() {
        return Err(ApiError::not_found("artifact"));
    }
    let expires = chrono::Utc::now().timestamp() + state.signed_url_ttl.as_secs() as i64;
    let sig = signed::url_signature(&state.signing_key, &doc.id, &name, expires);
    let url = format!(
        "{}/api/v1/signed/documents/{}/artifacts/{}?expires={expires}&signature={sig}",
        state.public_url.trim_end_matches('/'),
        doc.id,
        name
    );
    Ok(ok(json!({
        "url": url,
        "expires_at": model::iso(
            chrono::DateTime::from_timestamp(expires, 0).unwrap_or_default()
        ),
    })))
}

async fn get_signed_artifact(
    State(state): State<AppState>,
    ApiPath((doc_id, name)): ApiPath<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let now = chrono::Utc::now().timestamp();
    match signed::check_link(&state.signing_key, &doc_id, &name, raw.as_deref(), now) {
        Ok(()) => {}
        Err(LinkError::Invalid(m)) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "SIGNED_URL_INVALID",
                m.to_string(),
            ));
        }
        Err(LinkError::Expired) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "SIGNED_URL_EXPIRED",
                "the link has expired",
            ));
        }
    }
    let d = doc_id.clone();
    let company = state
        .db
        .call(move |c| store::document_company(c, &d))
        .await?
        .ok_or_else(|| ApiError::not_found("document"))?;
    let doc = load_document(&state, &company, &doc_id).await?;
    let (bytes, ct, _) = artifact(&state, &doc, &name)
        .await?
        .ok_or_else(|| ApiError::not_found("artifact"))?;
    Ok(artifact_response(bytes, ct, &name, &doc.id))
}

async fn limits(State(state): State<AppState>, auth: Auth) -> Result<Response, ApiError> {
    auth.require("usage:read")?;
    let key = auth.0.clone();
    state
        .db
        .call(move |c| store::limits_json(c, &key))
        .await?
        .map(ok)
        .ok_or_else(|| ApiError::internal("company of a valid key is missing"))
}

/// The OpenAPI document as served: the committed description with the Result's JSON Schema
/// (the core's, so the two cannot drift) and this server's URL.
pub fn openapi_document(public_url: &str) -> Value {
    let mut doc: Value = serde_json::from_str(OPENAPI).expect("openapi.json is valid JSON");
    // The core schema's own `#/$defs/...` references, rewritten to where it sits in this
    // document (and its `$id` dropped) so every OpenAPI tool resolves them.
    let text =
        folio::result::JSON_SCHEMA.replace("\"#/$defs/", "\"#/components/schemas/Result/$defs/");
    let mut result: Value = serde_json::from_str(&text).expect("the Result schema is valid JSON");
    if let Some(o) = result.as_object_mut() {
        o.remove("$id");
        o.remove("$schema");
    }
    doc["components"]["schemas"]["Result"] = result;
    doc["servers"] = json!([{ "url": public_url }]);
    doc
}

async fn openapi(State(state): State<AppState>) -> Response {
    ok(openapi_document(&state.public_url))
}

async fn healthz(State(state): State<AppState>) -> Response {
    match state
        .db
        .call(|c| c.query_row("SELECT 1", super::sql::params![], |r| r.get::<i64>(0)))
        .await
    {
        Ok(_) => ok(json!({ "status": "ok" })),
        Err(e) => (
            StatusCode::SERVICE_UNAVAILABLE,
            axum::Json(json!({ "status": "unavailable", "error": e.to_string() })),
        )
            .into_response(),
    }
}

async fn metrics(State(state): State<AppState>) -> Response {
    let depth = state.db.call(store::queue_depth).await.unwrap_or(-1);
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(depth),
    )
        .into_response()
}
