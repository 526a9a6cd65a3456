//! The one error-to-response mapping of the HTTP layer: `{ "error": { "code", "message" },
//! "request_id" }` with the contract's status codes.
//!
//! Every error takes this form: handlers answer [`ApiError`]s; the path extractor's rejections
//! go through [`ApiPath`]; [`json_errors`] rewrites any other error response the framework makes
//! (a rejection, a body limit) into the same body; and the connection layer
//! ([`super::listen`]) gives hyper's own answers to unparseable requests the same body with
//! [`error_body`].

use super::db::DbError;
use axum::extract::{FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// The generic code of errors that have no more specific one (contract).
pub const HTTP_ERROR: &str = "HTTP_ERROR";

/// The contract's error body.
pub fn error_body(code: &str, message: &str, request_id: &str) -> Value {
    json!({
        "error": { "code": code, "message": message },
        "request_id": request_id,
    })
}

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
        let body = error_body(self.code, &self.message, &request_id);
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

/// The code of an error response the framework made, by its status.
fn framework_code(status: StatusCode) -> &'static str {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => "REQUEST_TOO_LARGE",
        StatusCode::REQUEST_TIMEOUT => "REQUEST_TIMEOUT",
        _ => HTTP_ERROR,
    }
}

/// Largest framework error text carried into the JSON message.
const MAX_FRAMEWORK_TEXT: usize = 4096;

/// Middleware: an error response (4xx, 5xx) that is not JSON (an extractor's rejection, a
/// body limit, anything the framework answers itself) becomes the contract's JSON body, its
/// text the message. Responses of the API are JSON already and pass unchanged, as do the web
/// cabinet's HTML pages.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let status = resp.status();
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    // The web cabinet's pages are HTML, errors included.
    let is_html = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !(status.is_client_error() || status.is_server_error()) || is_json || is_html {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, MAX_FRAMEWORK_TEXT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    let mut out = ApiError::new(status, framework_code(status), message).into_response();
    // Headers the framework set for the client (Allow, Retry-After...) stay.
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().entry(name).or_insert(value.clone());
        }
    }
    out
}

/// `Path` whose rejection (a parameter that is not UTF-8 once percent-decoded, such as
/// `%FF`) is the contract's 400 `INVALID_PATH`.
#[derive(Debug)]
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(v)) => Ok(ApiPath(v)),
            Err(r) if r.status() == StatusCode::BAD_REQUEST => {
                Err(ApiError::bad_request("INVALID_PATH", r.body_text()))
            }
            Err(r) => Err(ApiError::internal(r.body_text())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::body::Body;
    use axum::routing::{get, post};
    use tower::Service;

    /// One request through a router with the middleware: (status, content type, JSON body).
    async fn call(router: &mut Router, req: axum::http::Request<Body>) -> (u16, String, Value) {
        let resp = router.call(req).await.expect("infallible");
        let status = resp.status().as_u16();
        let ct = resp
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let body = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .unwrap();
        (
            status,
            ct,
            serde_json::from_slice(&body).unwrap_or(Value::Null),
        )
    }

    #[derive(Debug, serde::Deserialize)]
    struct Q {
        #[allow(dead_code)]
        n: u32,
    }

    #[tokio::test]
    async fn framework_rejections_become_the_contract_body() {
        let mut router = Router::new()
            .route("/q", get(|_: axum::extract::Query<Q>| async { "ok" }))
            .route("/j", post(|_: axum::Json<Value>| async { "ok" }))
            .route(
                "/p/{id}",
                get(|ApiPath(id): ApiPath<String>| async move { id }),
            )
            .layer(axum::middleware::from_fn(json_errors));
        let req = |m: &str, uri: &str, ct: Option<&str>, body: &'static str| {
            let mut b = axum::http::Request::builder().method(m).uri(uri);
            if let Some(ct) = ct {
                b = b.header(header::CONTENT_TYPE, ct);
            }
            b.body(Body::from(body)).unwrap()
        };
        for (r, status, code) in [
            (req("GET", "/q?n=x", None, ""), 400, HTTP_ERROR),
            (req("GET", "/q?n=1&n=2", None, ""), 400, HTTP_ERROR),
            (
                req("POST", "/j", Some("application/json"), "{"),
                400,
                HTTP_ERROR,
            ),
            (req("POST", "/j", Some("text/plain"), "{}"), 415, HTTP_ERROR),
            (req("GET", "/p/%FF", None, ""), 400, "INVALID_PATH"),
            (req("DELETE", "/q", None, ""), 405, HTTP_ERROR),
        ] {
            let (st, ct, v) = call(&mut router, r).await;
            assert_eq!(
                (st, v["error"]["code"].as_str()),
                (status, Some(code)),
                "{v}"
            );
            assert_eq!(ct, "application/json");
            assert!(
                !v["error"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .is_empty()
            );
            assert!(
                v["request_id"]
                    .as_str()
                    .is_some_and(|r| r.starts_with("req_"))
            );
        }
        // Success passes untouched.
        let (st, ct, _) = call(&mut router, req("GET", "/q?n=1", None, "")).await;
        assert_eq!((st, ct.as_str()), (200, "text/plain; charset=utf-8"));
    }

    #[test]
    fn framework_errors_get_the_contract_codes() {
        assert_eq!(
            framework_code(StatusCode::PAYLOAD_TOO_LARGE),
            "REQUEST_TOO_LARGE"
        );
        assert_eq!(
            framework_code(StatusCode::REQUEST_TIMEOUT),
            "REQUEST_TIMEOUT"
        );
        assert_eq!(framework_code(StatusCode::BAD_REQUEST), HTTP_ERROR);
        let b = error_body("X", "m", "req_1");
        assert_eq!(b["error"]["code"], "X");
        assert_eq!(b["error"]["message"], "m");
        assert_eq!(b["request_id"], "req_1");
    }
}
