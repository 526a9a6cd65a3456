//! `POST /api/v1/operations`: multipart upload streamed to disk, idempotency, validation,
//! reservations, and the created-operation response.
//!
//! Order: authentication (the extractor), the `Idempotency-Key` and content type, the key's
//! idempotency record, then the body, one file at a time, straight into the file store (never a
//! whole batch in memory). "Same request" for idempotency is a SHA-256 over the form parts in
//! order (names, file names, bytes), whatever the multipart boundary.

use super::AppState;
use super::auth::Auth;
use super::error::ApiError;
use super::form::{self, FileSink, FormError, Limits, MAX_TEXT_FIELD, ReadError};
use super::model;
use super::store::{self, BillingRefusal, IdempotencyClaim, NewOperation, UploadedFile};
use super::webhooks;
use crate::pagecount::ChildFailure;
use axum::extract::multipart::{Field, Multipart, MultipartError, MultipartRejection};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use folio::ErrorCode;
use folio::preprocess::{self, FileType};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;

/// Longest idempotency key.
const MAX_IDEMPOTENCY_KEY: usize = 255;

/// A file received into the temporary area.
struct Received {
    file: UploadedFile,
    tmp: Option<PathBuf>,
    file_type: Option<FileType>,
}

/// Removes temporary files when an upload does not complete.
struct TmpGuard(Vec<PathBuf>);

impl Drop for TmpGuard {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Stored files of an upload that was not accepted after all: removed from the store.
struct StoredGuard {
    files: super::files::FileStore,
    ids: Vec<String>,
}

impl Drop for StoredGuard {
    fn drop(&mut self) {
        let ids = std::mem::take(&mut self.ids);
        if ids.is_empty() {
            return;
        }
        let files = self.files.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                for id in ids {
                    files.delete(&id).await;
                }
            });
        }
    }
}

/// 413 `REQUEST_TOO_LARGE`.
fn request_too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "REQUEST_TOO_LARGE",
        format!(
            "the request body is larger than the server accepts ({} MB)",
            limit / (1024 * 1024)
        ),
    )
}

/// Whether an error was caused by the request body's read timeout (somewhere in its sources).
fn is_body_timeout(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if err.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cur = err.source();
    }
    false
}

/// axum's multipart error as a [`ReadError`]: over the body limit, the body's read timeout, or
/// a malformed body.
fn read_error(e: MultipartError) -> ReadError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ReadError::TooLarge
    } else if is_body_timeout(&e) {
        ReadError::Timeout
    } else {
        ReadError::Invalid(e.to_string())
    }
}

/// The answer to a form that cannot be accepted (`limit`: the request size limit).
fn form_error(e: FormError<std::io::Error>, limit: usize) -> ApiError {
    match e {
        FormError::Read(ReadError::TooLarge) => request_too_large(limit),
        FormError::Read(ReadError::Timeout) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "REQUEST_TIMEOUT",
            "the request body stopped arriving",
        ),
        FormError::Read(ReadError::Invalid(m)) => {
            ApiError::bad_request("INVALID_MULTIPART", format!("cannot read the upload: {m}"))
        }
        FormError::TooManyFiles { max } => ApiError::invalid(
            "TOO_MANY_FILES",
            format!("at most {max} files per operation"),
        ),
        FormError::FieldTooLong { name, max } => ApiError::invalid(
            "FIELD_TOO_LONG",
            format!("form field {name:?} is longer than {max} bytes"),
        ),
        FormError::InvalidField { name } => {
            ApiError::invalid("INVALID_FIELD", format!("form field {name:?} is not UTF-8"))
        }
        FormError::Sink(e) => ApiError::internal(e),
    }
}

impl form::PartSource for Multipart {
    type Part<'a> = Field<'a>;

    async fn next_part(&mut self) -> Result<Option<Field<'_>>, ReadError> {
        self.next_field().await.map_err(read_error)
    }
}

impl form::Part for Field<'_> {
    fn name(&self) -> Option<&str> {
        Field::name(self)
    }

    fn file_name(&self) -> Option<&str> {
        Field::file_name(self)
    }

    async fn chunk(&mut self) -> Result<Option<Bytes>, ReadError> {
        Field::chunk(self).await.map_err(read_error)
    }
}

/// A file being received: its document id and, when stored, its temporary file.
struct TmpFile {
    document_id: String,
    path: Option<PathBuf>,
    out: Option<tokio::fs::File>,
}

/// Files into the temporary area (`store`), or only counted and hashed (a replayed request).
/// Its guard removes them unless they are taken.
struct TmpFiles<'a> {
    dir: &'a Path,
    store: bool,
    guard: TmpGuard,
}

impl FileSink for TmpFiles<'_> {
    type File = TmpFile;
    type Error = std::io::Error;

    async fn open(&mut self) -> std::io::Result<TmpFile> {
        let document_id = model::new_id("doc_");
        if !self.store {
            return Ok(TmpFile {
                document_id,
                path: None,
                out: None,
            });
        }
        let path = self.dir.join(format!("{document_id}.part"));
        self.guard.0.push(path.clone());
        let out = tokio::fs::File::create(&path).await?;
        Ok(TmpFile {
            document_id,
            path: Some(path),
            out: Some(out),
        })
    }

    async fn write(&mut self, file: &mut TmpFile, chunk: &[u8]) -> std::io::Result<()> {
        match file.out.as_mut() {
            Some(out) => out.write_all(chunk).await,
            None => Ok(()),
        }
    }

    fn abandon(&mut self, file: &mut TmpFile) {
        file.out = None;
        file.path = None;
    }

    async fn close(&mut self, file: &mut TmpFile) -> std::io::Result<()> {
        if let Some(mut out) = file.out.take() {
            out.flush().await?;
            out.sync_all().await?;
        }
        Ok(())
    }
}

/// The declared body length, when the request has a valid `Content-Length`.
fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// The `Idempotency-Key`: 1 to [`MAX_IDEMPOTENCY_KEY`] visible ASCII characters (`!` to `~`,
/// no spaces), as the OpenAPI document says. Absent: `IDEMPOTENCY_KEY_REQUIRED`; present but
/// empty, too long or with other bytes: `INVALID_IDEMPOTENCY_KEY`. Both 400: the header cannot
/// be used, so the request cannot be parsed as an upload.
pub fn idempotency_key(headers: &HeaderMap) -> Result<String, ApiError> {
    let Some(raw) = headers.get("idempotency-key") else {
        return Err(ApiError::bad_request(
            "IDEMPOTENCY_KEY_REQUIRED",
            "send an Idempotency-Key header with every new upload",
        ));
    };
    let invalid = |m: String| ApiError::bad_request("INVALID_IDEMPOTENCY_KEY", m);
    let key = raw.as_bytes();
    if key.is_empty() {
        return Err(invalid("Idempotency-Key must not be empty".into()));
    }
    if key.len() > MAX_IDEMPOTENCY_KEY {
        return Err(invalid(format!(
            "Idempotency-Key is longer than {MAX_IDEMPOTENCY_KEY} characters"
        )));
    }
    if !key.iter().all(|b| (b'!'..=b'~').contains(b)) {
        return Err(invalid(
            "Idempotency-Key may contain only visible ASCII characters (! to ~, no spaces)".into(),
        ));
    }
    Ok(String::from_utf8_lossy(key).into_owned())
}

fn content_type(t: FileType) -> &'static str {
    match t {
        FileType::Pdf => "application/pdf",
        FileType::Jpeg => "image/jpeg",
        FileType::Png => "image/png",
        FileType::Tiff => "image/tiff",
        FileType::Doc => "application/msword",
        FileType::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        FileType::Xls => "application/vnd.ms-excel",
        FileType::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        FileType::Rtf => "application/rtf",
        FileType::Words => "application/json",
        FileType::Hocr => "text/html",
        FileType::EInvoice => "application/xml",
    }
}

/// Reads the whole form: files into the temporary area (with their size and hashes), text
/// fields into [`form::Fields`], and the request hash over everything. With `store` false the
/// files are only hashed (a replayed request).
async fn read_form(
    state: &AppState,
    mut mp: Multipart,
    max_files: usize,
    max_file_bytes: u64,
    store: bool,
) -> Result<(Vec<Received>, form::Fields, String, TmpGuard), ApiError> {
    let mut sink = TmpFiles {
        dir: &state.tmp_dir,
        store,
        guard: TmpGuard(Vec::new()),
    };
    let limits = Limits {
        max_files,
        max_file_bytes,
        max_text_field: MAX_TEXT_FIELD,
    };
    let form = form::read_form(&mut mp, &mut sink, limits)
        .await
        .map_err(|e| form_error(e, state.max_request_bytes))?;
    let files = form
        .files
        .into_iter()
        .map(|f| Received {
            file: UploadedFile {
                document_id: f.file.document_id,
                filename: f.filename,
                size: f.size,
                sha256: f.sha256,
                content_type: None,
                stored: false,
                rejected: f.too_large.then(|| {
                    (
                        "FILE_TOO_LARGE".into(),
                        format!(
                            "file is over the limit of {} MB",
                            max_file_bytes / (1024 * 1024)
                        ),
                    )
                }),
            },
            tmp: f.file.path,
            file_type: None,
        })
        .collect();
    Ok((files, form.fields, form.request_hash, sink.guard))
}

/// Content checks of a stored file: empty, type by magic bytes.
async fn inspect(rec: &mut Received) -> Result<(), ApiError> {
    if rec.file.rejected.is_some() {
        return Ok(());
    }
    if rec.file.size == 0 {
        rec.file.rejected = Some(("EMPTY_FILE".into(), "file is empty".into()));
        return Ok(());
    }
    let Some(tmp) = rec.tmp.clone() else {
        return Ok(());
    };
    let bytes = tokio::fs::read(&tmp).await.map_err(ApiError::internal)?;
    let detected = tokio::task::spawn_blocking(move || preprocess::detect_type(&bytes))
        .await
        .map_err(ApiError::internal)?;
    match detected {
        // The contract's file types only: pre-recognised words are a library input.
        Ok(t) if !t.is_document() => {
            rec.file.rejected = Some((
                ErrorCode::UnsupportedFileType.as_str().to_string(),
                "pre-recognised words (JSON or hOCR) are not a supported upload; supported: \
                 PDF, JPEG, PNG, TIFF, DOC, DOCX, XLS, XLSX, RTF, XML e-invoices (CII, UBL)"
                    .to_string(),
            ));
        }
        Ok(t) => {
            rec.file_type = Some(t);
            rec.file.content_type = Some(content_type(t).to_string());
        }
        Err(e) => {
            rec.file.rejected = Some((e.code().as_str().to_string(), e.to_string()));
        }
    }
    Ok(())
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Bytes of an upload read (and dropped) before answering an error found before the body, so
/// the client gets the answer rather than a connection closed under its upload.
const DRAIN_LIMIT: usize = 4 * 1024 * 1024;

/// Reads and drops up to [`DRAIN_LIMIT`] bytes of a multipart body; nothing when the body is
/// declared larger than that (the answer then goes at once, and the connection closes).
async fn drain(headers: &HeaderMap, mp: Result<Multipart, MultipartRejection>) {
    if content_length(headers).is_some_and(|n| n > DRAIN_LIMIT as u64) {
        return;
    }
    let Ok(mut mp) = mp else { return };
    let mut read = 0usize;
    while let Ok(Some(mut field)) = mp.next_field().await {
        while let Ok(Some(chunk)) = field.chunk().await {
            read += chunk.len();
            if read > DRAIN_LIMIT {
                return;
            }
        }
    }
}

/// The handler.
pub async fn create_operation(
    axum::extract::State(state): axum::extract::State<AppState>,
    auth: Result<Auth, ApiError>,
    headers: HeaderMap,
    mp: Result<Multipart, MultipartRejection>,
) -> Result<Response, ApiError> {
    // Authentication and permission first; the answer waits until the body is read.
    let auth = match auth.and_then(|a| a.require("operations:write").map(|()| a)) {
        Ok(a) => a,
        Err(e) => {
            drain(&headers, mp).await;
            return Err(e);
        }
    };
    // A body declared larger than the limit is refused before any of it is read (a chunked
    // body is cut at the limit by the body limit, as it streams).
    if content_length(&headers).is_some_and(|n| n > state.max_request_bytes as u64) {
        return Err(request_too_large(state.max_request_bytes));
    }
    let idem = match idempotency_key(&headers) {
        Ok(k) => k,
        Err(e) => {
            drain(&headers, mp).await;
            return Err(e);
        }
    };
    let mp = mp.map_err(|e| {
        ApiError::bad_request(
            "INVALID_REQUEST",
            format!("the body must be multipart/form-data with a boundary: {e}"),
        )
    })?;
    let company = auth.company().to_string();
    let limits = {
        let c = company.clone();
        state
            .db
            .call(move |conn| store::company_limits(conn, &c))
            .await?
            .ok_or_else(|| ApiError::internal("company of a valid key is missing"))?
    };
    let (c, k, node) = (company.clone(), idem.clone(), state.node_id.clone());
    let claim = state
        .db
        .call_tx(move |tx| store::claim_idempotency(tx, &node, &c, &k))
        .await?;
    match claim {
        IdempotencyClaim::InProgress => {
            drain(&headers, Ok(mp)).await;
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "IDEMPOTENCY_IN_PROGRESS",
                "a request with this Idempotency-Key is still being accepted",
            ));
        }
        IdempotencyClaim::Done {
            request_hash,
            response,
        } => {
            let (_, _, hash, _) = read_form(&state, mp, usize::MAX, u64::MAX, false).await?;
            if hash != request_hash {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "IDEMPOTENCY_CONFLICT",
                    "this Idempotency-Key was used with a different request",
                ));
            }
            let body: Value = serde_json::from_str(&response).map_err(ApiError::internal)?;
            return Ok((StatusCode::ACCEPTED, axum::Json(body)).into_response());
        }
        IdempotencyClaim::Owned => {}
    }
    let out = accept(&state, &auth, &idem, mp, &limits).await;
    if out.is_err() {
        let (c, k) = (company.clone(), idem.clone());
        if let Err(e) = state
            .db
            .call(move |conn| store::release_idempotency(conn, &c, &k))
            .await
        {
            eprintln!("folio serve: releasing idempotency key: {e}");
        }
    }
    out
}

async fn accept(
    state: &AppState,
    auth: &Auth,
    idem: &str,
    mp: Multipart,
    limits: &store::CompanyLimits,
) -> Result<Response, ApiError> {
    let (mut files, fields, request_hash, guard) =
        read_form(state, mp, limits.max_files, limits.max_file_bytes, true).await?;
    if files.is_empty() {
        return Err(ApiError::bad_request(
            "NO_FILES",
            "the upload has no files[] part",
        ));
    }
    let use_heavy = match fields.use_heavy_ai.as_deref().map(str::trim) {
        None | Some("") => limits.heavy_default,
        Some(v) => parse_bool(v).ok_or_else(|| {
            ApiError::invalid(
                "INVALID_USE_HEAVY_AI",
                format!("use_heavy_ai must be true or false, not {v:?}"),
            )
        })?,
    };
    for f in files.iter_mut() {
        inspect(f).await?;
    }
    let selected_pages = match fields.selected_pages.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(spec) => {
            let pdfs: Vec<&Received> = files.iter().collect();
            let single_pdf = pdfs.len() == 1 && pdfs[0].file_type == Some(FileType::Pdf);
            if !single_pdf {
                return Err(ApiError::invalid(
                    "INVALID_SELECTED_PAGES",
                    "selected_pages works only for an operation with exactly one PDF file",
                ));
            }
            let path = pdfs[0].tmp.clone().ok_or_else(|| {
                ApiError::invalid("INVALID_SELECTED_PAGES", "the PDF was not accepted")
            })?;
            let count = state.page_counter.count(&path).await.map_err(|e| match e {
                ChildFailure::Spawn(e) => ApiError::internal(e),
                ChildFailure::Failed(why) => ApiError::invalid(
                    "INVALID_SELECTED_PAGES",
                    format!("the PDF's pages cannot be counted: {why}"),
                ),
            })?;
            preprocess::parse_page_selection(spec, count)
                .map_err(|e| ApiError::invalid("INVALID_SELECTED_PAGES", e.to_string()))?;
            Some(spec.to_string())
        }
    };
    let webhook_url = match fields.webhook_url.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(u) => Some(
            webhooks::check_url(u, state.url_policy)
                .await
                .map_err(|e| ApiError::invalid("INVALID_WEBHOOK_URL", e))?
                .to_string(),
        ),
    };
    if let Some(m) = &fields.metadata
        && m.len() > MAX_TEXT_FIELD
    {
        return Err(ApiError::invalid("FIELD_TOO_LONG", "metadata is too long"));
    }
    // Files into the store before the database says they exist.
    let mut stored_guard = StoredGuard {
        files: state.files.clone(),
        ids: Vec::new(),
    };
    for f in files.iter_mut() {
        if f.file.rejected.is_none()
            && let Some(tmp) = f.tmp.take()
        {
            let id = f.file.document_id.clone();
            state
                .files
                .put(&id, &tmp)
                .await
                .map_err(ApiError::internal)?;
            stored_guard.ids.push(id);
            f.file.stored = true;
        }
    }
    drop(guard);
    let op_id = model::new_id("op_");
    let company = auth.company().to_string();
    let key_id = auth.0.id.clone();
    let created_at = model::now_iso();
    let docs_json: Vec<Value> = files
        .iter()
        .map(|f| {
            json!({
                "document_id": f.file.document_id,
                "filename": f.file.filename,
                "status": if f.file.rejected.is_some() { "REJECTED" } else { "QUEUED" },
            })
        })
        .collect();
    let (c2, u2) = (company.clone(), webhook_url.clone());
    let target = state
        .db
        .call(move |conn| store::webhook_target(conn, &c2, u2.as_deref()))
        .await?;
    let response = json!({
        "operation_id": op_id,
        "status": "ACCEPTED",
        "files_total": files.len(),
        "documents": docs_json,
        "webhook_enabled": target.is_some(),
        "created_at": created_at,
    });
    let op = NewOperation {
        id: op_id.clone(),
        company_id: company.clone(),
        api_key_id: key_id,
        use_heavy,
        selected_pages,
        webhook: target,
        metadata: fields.metadata,
        client_operation_id: fields.client_operation_id,
        files: files.into_iter().map(|f| f.file).collect(),
    };
    let (idem_key, resp_text) = (idem.to_string(), response.to_string());
    let created = state
        .db
        .call_tx(move |tx| {
            let r = store::create_operation(tx, &op)?;
            if r.is_ok() {
                store::complete_idempotency(
                    tx,
                    &op.company_id,
                    &idem_key,
                    &request_hash,
                    &op.id,
                    &resp_text,
                )?;
            }
            Ok(r)
        })
        .await?;
    match created {
        Ok(()) => {
            // The operation exists: its files stay.
            stored_guard.ids.clear();
            state.jobs_wake.notify_waiters();
            state.deliveries_wake.notify_one();
            Ok((StatusCode::ACCEPTED, axum::Json(response)).into_response())
        }
        Err(refusal) => Err(match refusal {
            BillingRefusal::HeavyMinimum { available } => ApiError::payment(
                "HEAVY_AI_MINIMUM_BALANCE_REQUIRED",
                format!(
                    "enhanced recognition needs at least {} available documents, {available} available",
                    store::HEAVY_MINIMUM_AVAILABLE
                ),
            ),
            BillingRefusal::Insufficient { needed, available } => ApiError::payment(
                "INSUFFICIENT_BALANCE",
                format!("{needed} documents needed, {available} available"),
            ),
            BillingRefusal::MonthlyLimit { needed, remaining } => ApiError::payment(
                "MONTHLY_LIMIT_EXCEEDED",
                format!(
                    "{needed} documents needed, {remaining} left in this API key's monthly limit"
                ),
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booleans() {
        assert_eq!(parse_bool("TRUE"), Some(true));
        assert_eq!(parse_bool("0"), Some(false));
        assert_eq!(parse_bool("maybe"), None);
    }

    fn with_key(raw: &[u8]) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            "idempotency-key",
            axum::http::HeaderValue::from_bytes(raw).unwrap(),
        );
        h
    }

    #[test]
    fn idempotency_keys() {
        assert_eq!(
            idempotency_key(&with_key(b"op-1_A.b:c")).unwrap(),
            "op-1_A.b:c"
        );
        let max = "k".repeat(MAX_IDEMPOTENCY_KEY);
        assert_eq!(idempotency_key(&with_key(max.as_bytes())).unwrap(), max);
        assert_eq!(
            idempotency_key(&HeaderMap::new()).unwrap_err().code,
            "IDEMPOTENCY_KEY_REQUIRED"
        );
        let long = "k".repeat(MAX_IDEMPOTENCY_KEY + 1);
        for bad in [
            &b""[..],
            "ключ".as_bytes(),
            b"\xff\xfe",
            b"a b",
            b"a\tb",
            long.as_bytes(),
        ] {
            let e = idempotency_key(&with_key(bad)).unwrap_err();
            assert_eq!(
                (e.status, e.code),
                (StatusCode::BAD_REQUEST, "INVALID_IDEMPOTENCY_KEY")
            );
        }
    }

    #[test]
    fn declared_lengths() {
        let mut h = HeaderMap::new();
        assert_eq!(content_length(&h), None);
        h.insert(header::CONTENT_LENGTH, "3000000000".parse().unwrap());
        assert_eq!(content_length(&h), Some(3_000_000_000));
        h.insert(header::CONTENT_LENGTH, "x".parse().unwrap());
        assert_eq!(content_length(&h), None);
    }
}
