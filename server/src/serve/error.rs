//! The one error-to-response mapping of the HTTP layer: `{ "error": { "code", "message" },
//! "request_id" }` with the contract's status codes.

use super::db::DbError;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answered to an HTTP request.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable code (`IDEMPOTENCY_CONFLICT`, `HTTP_ERROR`, ...).
    pub code: &'static str,
    /// Human-readable text (never internal details for 500s).
    pub message: String,
    /// Seconds to wait, for 429.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with a status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }
    /// 400.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }
    /// 422.
    pub fn invalid(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }
    /// 402.
    pub fn payment(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYMENT_REQUIRED, code, message)
    }
    /// 404 for an operation or document that does not exist for this key's company.
    pub fn not_found(what: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("{what} not found"),
        )
    }
    /// 500, logged, without details for the client.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        eprintln!("folio serve: internal error: {detail}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            "technical error of the service",
        )
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> Self {
        ApiError::internal(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let request_id = super::model::new_id("req_");
        let body = json!({
            "error": { "code": self.code, "message": self.message },
            "request_id": request_id,
        });
        let mut resp = (self.status, axum::Json(body)).into_response();
        if let Ok(v) = HeaderValue::from_str(&request_id) {
            resp.headers_mut().insert("x-request-id", v);
        }
        if let Some(s) = self.retry_after
            && let Ok(v) = HeaderValue::from_str(&s.to_string())
        {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        resp
    }
}
