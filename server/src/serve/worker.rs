//! Recognition workers: each claims the oldest queued document from the database (the durable
//! queue), runs the core engine on a blocking thread with the company's limits, stores every
//! stage the engine reports, and finishes the document in one transaction (status, charge or
//! release, webhook events).

use super::AppState;
use super::model::doc_status;
use super::store::{self, Job, Outcome};
use folio::config::Limits;
use folio::{CancelToken, ErrorCode, Progress, RecognizeOptions, Stage};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Attempts after which a document that keeps interrupting the server (killed mid-processing
/// every time) is failed instead of being retried forever.
pub const MAX_ATTEMPTS: i64 = 10;

/// The file of a stored document.
pub fn source_path(state: &AppState, doc_id: &str) -> std::path::PathBuf {
    state.files_dir.join(doc_id)
}

/// Runs one worker until the process ends.
pub async fn run(state: AppState) {
    loop {
        let job = state.db.call_tx(store::claim_next).await;
        match job {
            Ok(Some(job)) => process(&state, job).await,
            Ok(None) => {
                tokio::select! {
                    _ = state.jobs_wake.notified() => {}
                    _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                }
            }
            Err(e) => {
                eprintln!("folio serve: claiming a document: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

async fn process(state: &AppState, job: Job) {
    let started = Instant::now();
    let cancel = CancelToken::new();
    state.register_running(&job.document_id, &cancel);
    let outcome = if job.attempts > MAX_ATTEMPTS {
        Outcome::Error {
            status: doc_status::FAILED,
            code: ErrorCode::Internal.as_str().into(),
            message: format!(
                "processing was interrupted {} times; the document is not retried again",
                job.attempts - 1
            ),
        }
    } else {
        let st = state.clone();
        let j = job.clone();
        let c = cancel.clone();
        match tokio::task::spawn_blocking(move || recognize(&st, &j, &c)).await {
            Ok(o) => o,
            Err(e) => Outcome::Error {
                status: doc_status::FAILED,
                code: ErrorCode::Internal.as_str().into(),
                message: format!("worker task failed: {e}"),
            },
        }
    };
    let status = match &outcome {
        Outcome::Processed { status, .. } | Outcome::Error { status, .. } => *status,
    };
    let id = job.document_id.clone();
    let finished = state
        .db
        .call_tx(move |tx| store::finish_document(tx, &id, &outcome))
        .await;
    state.unregister_running(&job.document_id);
    match finished {
        Ok(true) => {
            state
                .metrics
                .document(status, started.elapsed().as_secs_f64());
            state.deliveries_wake.notify_one();
        }
        Ok(false) => {} // cancelled meanwhile: already final
        Err(e) => eprintln!(
            "folio serve: finishing {}: {e} (it stays in progress and is retried after a restart)",
            job.document_id
        ),
    }
}

/// The blocking part: read the file, run the engine, build the outcome.
fn recognize(state: &AppState, job: &Job, cancel: &CancelToken) -> Outcome {
    let limits = match state.db.with(|c| store::company_limits(c, &job.company_id)) {
        Ok(Some(l)) => l,
        Ok(None) | Err(_) => {
            return Outcome::Error {
                status: doc_status::FAILED,
                code: ErrorCode::Internal.as_str().into(),
                message: "the company of the document cannot be read".into(),
            };
        }
    };
    let bytes = match std::fs::read(source_path(state, &job.document_id)) {
        Ok(b) => b,
        Err(e) => {
            return Outcome::Error {
                status: doc_status::FAILED,
                code: ErrorCode::Io.as_str().into(),
                message: format!("stored file cannot be read: {e}"),
            };
        }
    };
    let opts = RecognizeOptions {
        pages: job.selected_pages.clone().filter(|p| !p.trim().is_empty()),
        heavy: job.use_heavy,
        filename: Some(job.filename.clone()),
        limits: Some(Limits {
            max_file_size_mb: limits.max_file_bytes / (1024 * 1024),
            max_pages: limits.max_pages,
        }),
        only_document_files: true,
        ..RecognizeOptions::default()
    };
    // Stage changes go to the database as they happen (pages of one stage report once).
    let last: Mutex<Option<Stage>> = Mutex::new(None);
    let progress = |p: Progress| {
        let mut l = match last.lock() {
            Ok(l) => l,
            Err(e) => e.into_inner(),
        };
        if *l == Some(p.stage) {
            return;
        }
        *l = Some(p.stage);
        let id = job.document_id.clone();
        if let Err(e) = state
            .db
            .tx(|tx| store::set_stage(tx, &id, p.stage.as_str()))
        {
            eprintln!("folio serve: stage of {id}: {e}");
        }
    };
    let engine = &state.engine;
    let result = engine
        .extract_text_pages(&bytes, &opts, &progress, cancel)
        .and_then(|pages| {
            let text = folio::clean::clean(&pages).plain_text();
            engine
                .recognize_text_pages(&pages, &opts, &progress, cancel)
                .map(|r| (r, text, pages.len()))
        });
    match result {
        Ok((r, text, pages)) => {
            let status = if r.final_status() == doc_status::PROCESSED {
                doc_status::PROCESSED
            } else {
                doc_status::PROCESSED_WITH_WARNINGS
            };
            let json = serde_json::to_value(&r).unwrap_or_default();
            Outcome::Processed {
                status,
                result_json: r.to_json(),
                text,
                pages: pages as i64,
                document_type: json["document_type"]["code"]
                    .as_str()
                    .unwrap_or("OTHER")
                    .to_string(),
                structure_type: json["structure_type"]["code"]
                    .as_str()
                    .unwrap_or("TEXT")
                    .to_string(),
            }
        }
        Err(e) => {
            let code = e.code();
            let status = if code.is_rejection() {
                doc_status::REJECTED
            } else if code == ErrorCode::Cancelled {
                doc_status::CANCELLED
            } else {
                doc_status::FAILED
            };
            Outcome::Error {
                status,
                code: code.as_str().into(),
                message: e.to_string(),
            }
        }
    }
}
