//! Recognition slots: each claims the oldest queued document from the database (the durable
//! queue), hands it to its worker process ([`super::pool`]) with the company's limits, stores
//! every stage the worker reports, and finishes the document in one transaction (status,
//! charge or release, webhook events).
//!
//! A slot owns at most one worker process: started when a document comes and none is running,
//! replaced after it crashed or broke a limit (the document is tried again, and FAILED with
//! `RESOURCE_LIMIT` at the third time), after `max_documents` documents or when its resident
//! size stays above `recycle_rss`, and let go when it has been idle for `idle`.

use super::AppState;
use super::pool::{JobEnd, Phase, PoolConfig, WorkerProcess, stopping};
use super::store::{self, CrashVerdict, Job};
use crate::worker::JobSpec;
use folio::config::Limits;
use folio::{CancelToken, ErrorCode};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Pause before starting a worker again after one could not start.
const START_RETRY: Duration = Duration::from_secs(5);

/// Runs one slot until the phase leaves [`Phase::Running`] and its document (if any) is done
/// or stopped; then lets its worker go. `worker` is one already started.
pub async fn run(
    state: AppState,
    cfg: Arc<PoolConfig>,
    mut phase: watch::Receiver<Phase>,
    mut worker: Option<WorkerProcess>,
) {
    let mut idle_since = Instant::now();
    while *phase.borrow() == Phase::Running {
        let lease_until = super::model::now_ms() + lease_ms(&state);
        let node = state.node_id.clone();
        let job = state
            .db
            .call_tx(move |tx| store::claim_next(tx, &node, lease_until))
            .await;
        match job {
            Ok(Some(job)) => {
                if worker.is_none() {
                    // A start that hangs must not hold the shutdown.
                    let started = tokio::select! {
                        r = WorkerProcess::spawn(&cfg) => Some(r),
                        () = stopping(&mut phase) => None,
                    };
                    let Some(started) = started else {
                        requeue(&state, &job.document_id).await;
                        break;
                    };
                    match started {
                        Ok(w) => worker = Some(w),
                        Err(e) => {
                            eprintln!("folio serve: {e}");
                            requeue(&state, &job.document_id).await;
                            pause(&mut phase, START_RETRY).await;
                            continue;
                        }
                    }
                }
                if let Some(w) = worker.as_mut() {
                    let keep = process(&state, &cfg, w, job, &mut phase).await;
                    if !keep {
                        worker = None;
                    } else if let Some(w) = worker.take_if(|w| should_recycle(&cfg, w)) {
                        w.retire().await;
                    }
                }
                idle_since = Instant::now();
            }
            Ok(None) => {
                if !cfg.idle.is_zero()
                    && idle_since.elapsed() >= cfg.idle
                    && let Some(w) = worker.take()
                {
                    w.retire().await;
                }
                tokio::select! {
                    _ = state.jobs_wake.notified() => {}
                    _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                    _ = phase.changed() => {}
                }
            }
            Err(e) => {
                eprintln!("folio serve: claiming a document: {e}");
                pause(&mut phase, Duration::from_secs(1)).await;
            }
        }
    }
    if let Some(w) = worker {
        w.retire().await;
    }
}

fn lease_ms(state: &AppState) -> i64 {
    i64::try_from(state.lease.as_millis()).unwrap_or(i64::MAX / 2)
}

/// Renews the lease of a document while it is worked on (a third of the way through each
/// lease), until dropped.
fn hold_lease(state: &AppState, doc_id: &str) -> tokio::task::JoinHandle<()> {
    let state = state.clone();
    let id = doc_id.to_string();
    tokio::spawn(async move {
        let every = state.lease / 3;
        loop {
            tokio::time::sleep(every).await;
            let until = super::model::now_ms() + lease_ms(&state);
            let doc = id.clone();
            match state
                .db
                .call(move |c| store::renew_lease(c, &doc, until))
                .await
            {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => eprintln!("folio serve: renewing the lease of {id}: {e}"),
            }
        }
    })
}

/// Gives back to the queue, on every node, the documents whose node stopped renewing their
/// lease (it died); checked twice per lease.
pub async fn reap_expired_leases(state: AppState) {
    loop {
        tokio::time::sleep(state.lease / 2).await;
        let now = super::model::now_ms();
        match state
            .db
            .call_tx(move |tx| store::requeue_expired(tx, now))
            .await
        {
            Ok(0) => {}
            Ok(n) => {
                eprintln!("folio serve: {n} document(s) whose node stopped back in the queue");
                state.jobs_wake.notify_waiters();
            }
            Err(e) => eprintln!("folio serve: checking leases: {e}"),
        }
    }
}

/// Sleeps, waking early when the phase changes.
async fn pause(phase: &mut watch::Receiver<Phase>, d: Duration) {
    tokio::select! {
        _ = tokio::time::sleep(d) => {}
        _ = phase.changed() => {}
    }
}

fn should_recycle(cfg: &PoolConfig, w: &WorkerProcess) -> bool {
    (cfg.max_documents > 0 && w.documents >= cfg.max_documents)
        || w.rss().is_some_and(|r| r > cfg.recycle_rss)
}

async fn requeue(state: &AppState, doc_id: &str) {
    let id = doc_id.to_string();
    if let Err(e) = state.db.call_tx(move |tx| store::requeue(tx, &id)).await {
        eprintln!("folio serve: requeueing {doc_id}: {e} (it is requeued at the next start)");
    }
}

/// Processes one claimed document on `worker`; returns whether the worker is still usable.
async fn process(
    state: &AppState,
    cfg: &PoolConfig,
    worker: &mut WorkerProcess,
    job: Job,
    phase: &mut watch::Receiver<Phase>,
) -> bool {
    let started = Instant::now();
    let company = job.company_id.clone();
    let limits = match state
        .db
        .call(move |c| store::company_limits(c, &company))
        .await
    {
        Ok(Some(l)) => l,
        Ok(None) | Err(_) => {
            let outcome = store::Outcome::Error {
                status: super::model::doc_status::FAILED,
                code: ErrorCode::Internal.as_str().into(),
                message: "the company of the document cannot be read".into(),
            };
            finish(state, &job.document_id, outcome, started).await;
            return true;
        }
    };
    // The stored file, here (downloaded when the store is an object store).
    let source = match state
        .files
        .local_copy(&job.document_id, &state.tmp_dir)
        .await
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let outcome = store::Outcome::Error {
                status: super::model::doc_status::FAILED,
                code: ErrorCode::Internal.as_str().into(),
                message: "the stored file of the document is missing".into(),
            };
            finish(state, &job.document_id, outcome, started).await;
            return true;
        }
        Err(e) => {
            eprintln!(
                "folio serve: fetching the file of {}: {e} (queued again)",
                job.document_id
            );
            requeue(state, &job.document_id).await;
            pause(phase, Duration::from_secs(1)).await;
            return true;
        }
    };
    let spec = JobSpec {
        id: job.document_id.clone(),
        path: source.path.clone(),
        filename: job.filename.clone(),
        pages: job.selected_pages.clone(),
        heavy: job.use_heavy,
        limits: Limits {
            max_file_size_mb: limits.max_file_bytes / (1024 * 1024),
            max_pages: limits.max_pages,
            ..Limits::default()
        },
    };
    let cancel = CancelToken::new();
    state.register_running(&job.document_id, &cancel);
    let lease = hold_lease(state, &job.document_id);
    let end = worker
        .run_job(cfg, spec, &cancel, phase, |stage| {
            let id = job.document_id.clone();
            async move {
                let doc = id.clone();
                if let Err(e) = state
                    .db
                    .call(move |c| store::set_stage(c, &doc, stage.as_str()))
                    .await
                {
                    eprintln!("folio serve: stage of {id}: {e}");
                }
            }
        })
        .await;
    state.unregister_running(&job.document_id);
    lease.abort();
    match end {
        JobEnd::Done(outcome) => {
            finish(state, &job.document_id, outcome, started).await;
            true
        }
        JobEnd::Stopped => {
            requeue(state, &job.document_id).await;
            false
        }
        JobEnd::Crashed(reason) => {
            let id = job.document_id.clone();
            let r = reason.clone();
            let verdict = state
                .db
                .call_tx(move |tx| store::worker_crashed(tx, &id, &r))
                .await;
            match verdict {
                Ok(CrashVerdict::Requeued(n)) => eprintln!(
                    "folio serve: {}: {reason} (worker pid {}, attempt {}; crash {n} of {}, \
                     queued again)",
                    job.document_id,
                    worker.pid(),
                    job.attempts,
                    store::MAX_WORKER_CRASHES
                ),
                Ok(CrashVerdict::Failed) => {
                    eprintln!(
                        "folio serve: {}: {reason} (worker pid {}); FAILED with {}",
                        job.document_id,
                        worker.pid(),
                        ErrorCode::ResourceLimit.as_str()
                    );
                    became_final(state, super::model::doc_status::FAILED, started);
                }
                Ok(CrashVerdict::AlreadyFinal) => {}
                Err(e) => eprintln!(
                    "folio serve: recording the crash of {}: {e} (it is requeued at the next start)",
                    job.document_id
                ),
            }
            false
        }
    }
}

/// Writes the final status (once: a document cancelled meanwhile stays cancelled).
async fn finish(state: &AppState, doc_id: &str, outcome: store::Outcome, started: Instant) {
    let status = match &outcome {
        store::Outcome::Processed { status, .. } | store::Outcome::Error { status, .. } => *status,
    };
    let id = doc_id.to_string();
    let finished = state
        .db
        .call_tx(move |tx| store::finish_document(tx, &id, &outcome))
        .await;
    match finished {
        Ok(true) => became_final(state, status, started),
        Ok(false) => {} // cancelled meanwhile: already final
        Err(e) => eprintln!(
            "folio serve: finishing {doc_id}: {e} (it stays in progress and is retried after a restart)"
        ),
    }
}

/// Bookkeeping of a document that just became final: its metrics, and the delivery loop woken
/// for its webhook events.
fn became_final(state: &AppState, status: &str, started: Instant) {
    state
        .metrics
        .document(status, started.elapsed().as_secs_f64());
    state.deliveries_wake.notify_one();
}
