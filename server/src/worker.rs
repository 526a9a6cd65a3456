//! `folio worker` (hidden): one recognition worker process of `folio serve`.
//!
//! The server starts its workers with `OMP_THREAD_LIMIT=1` in their environment and talks to
//! each over its stdin and stdout, one JSON object per line ([`Request`] in, [`Event`] out).
//! A worker builds the engine once, lowers its own address-space limit (`RLIMIT_AS`), says
//! [`Event::Ready`], then recognises the jobs it is sent one after another, reading the stored
//! file itself and reporting each stage it enters and the outcome.
//!
//! Events travel on the pipe the server gave as standard output, which the worker moves to
//! another descriptor first: descriptor 1 then points at stderr, so text a native library prints
//! cannot break the protocol.
//!
//! A worker never outlives the server: it exits at end of input on stdin (the server closed
//! the pipe or died) and when its parent process is no longer the server it was started by
//! (checked by a watchdog thread several times a second), whatever it is doing.

use clap::Args as ClapArgs;
use folio::config::Limits;
use folio::{CancelToken, Engine, EngineConfig, ErrorCode, Progress, RecognizeOptions, Stage};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

/// `folio worker` options (set by the server).
#[derive(ClapArgs, Debug, Clone)]
pub struct WorkerArgs {
    /// Process id of the server: the worker exits as soon as its parent is another process.
    #[arg(long)]
    pub parent_pid: u32,
    /// Address-space limit of this process, MB, set once the engine is built (0: none).
    #[arg(long, default_value_t = 0)]
    pub memory_mb: u64,
    /// Engine configuration JSON file (see `EngineConfig`).
    #[arg(long)]
    pub engine_config: Option<PathBuf>,
}

/// A document to recognise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobSpec {
    /// Document id (echoed in the events).
    pub id: String,
    /// The stored file.
    pub path: PathBuf,
    /// The uploaded file name (a hint for the engine).
    pub filename: String,
    /// Page selection.
    pub pages: Option<String>,
    /// Enhanced recognition.
    pub heavy: bool,
    /// The company's limits.
    pub limits: Limits,
}

/// A message from the server to a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Recognise a document.
    Job(JobSpec),
    /// Cancel the document being recognised (no effect when it is another or none).
    Cancel {
        /// Document id.
        id: String,
    },
}

/// How a recognition ended, as the worker reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireOutcome {
    /// A result.
    Processed {
        /// Whether the result must be checked (PROCESSED_WITH_WARNINGS).
        warnings: bool,
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
    /// The engine's coded error.
    Error {
        /// Reason code.
        code: ErrorCode,
        /// Message.
        message: String,
    },
}

/// A message from a worker to the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The engine is built; jobs may come.
    Ready,
    /// The worker cannot work (the engine does not start); it exits.
    Fatal {
        /// Why.
        message: String,
    },
    /// A document entered a stage.
    Stage {
        /// Document id.
        id: String,
        /// The stage.
        stage: Stage,
    },
    /// A document is done.
    Done {
        /// Document id.
        id: String,
        /// How it ended.
        outcome: WireOutcome,
    },
}

/// Exit status of a worker whose server went away.
const EXIT_ORPHANED: i32 = 0;
/// How often the watchdog looks at the parent process.
const WATCHDOG_PERIOD: Duration = Duration::from_millis(200);

/// Where events go: the pipe the server gave as stdout, moved to another descriptor so that
/// whatever a native library prints on standard output lands on stderr and cannot break a line.
static EVENTS: std::sync::OnceLock<Mutex<std::fs::File>> = std::sync::OnceLock::new();

/// Takes the server's pipe for [`send`] and points descriptor 1 at stderr.
fn take_event_channel() -> nix::Result<()> {
    let pipe = nix::unistd::dup(std::io::stdout())?;
    nix::unistd::dup2_stdout(std::io::stderr())?;
    let _ = EVENTS.set(Mutex::new(std::fs::File::from(pipe)));
    Ok(())
}

/// Writes one event line; a worker that cannot talk to its server has nothing left to do.
fn send(event: &Event) {
    let mut line = match serde_json::to_string(event) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("folio worker: cannot encode an event: {e}");
            std::process::exit(1);
        }
    };
    line.push('\n');
    let written = match EVENTS.get() {
        Some(f) => lock(f).write_all(line.as_bytes()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(line.as_bytes()).and_then(|()| out.flush())
        }
    };
    if written.is_err() {
        std::process::exit(EXIT_ORPHANED);
    }
}

/// Runs the worker until its input ends or its server is gone.
pub fn run(args: WorkerArgs) -> ExitCode {
    if let Err(e) = take_event_channel() {
        eprintln!("folio worker: events go to standard output ({e})");
    }
    let parent = args.parent_pid;
    std::thread::spawn(move || {
        loop {
            if std::os::unix::process::parent_id() != parent {
                std::process::exit(EXIT_ORPHANED);
            }
            std::thread::sleep(WATCHDOG_PERIOD);
        }
    });
    let engine = match build_engine(&args) {
        Ok(e) => e,
        Err(message) => {
            send(&Event::Fatal { message });
            return ExitCode::from(3);
        }
    };

    // The reader thread hands jobs over with their cancel token, so that a cancel request
    // read right after its job always finds it.
    let current: Arc<Mutex<Option<(String, CancelToken)>>> = Arc::new(Mutex::new(None));
    let (jobs_tx, jobs_rx) = mpsc::channel::<(JobSpec, CancelToken)>();
    let cur = current.clone();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Request>(&line) {
                Ok(Request::Job(job)) => {
                    let token = CancelToken::new();
                    *lock(&cur) = Some((job.id.clone(), token.clone()));
                    if jobs_tx.send((job, token)).is_err() {
                        break;
                    }
                }
                Ok(Request::Cancel { id }) => {
                    if let Some((running, token)) = lock(&cur).as_ref()
                        && *running == id
                    {
                        token.cancel();
                    }
                }
                Err(e) => eprintln!("folio worker: ignoring a bad request line: {e}"),
            }
        }
        // The server closed the pipe or is gone: stop now, even in the middle of a document.
        std::process::exit(EXIT_ORPHANED);
    });
    // The limit comes once the engine and the threads are set up (the page threads started
    // now): it bounds what documents take.
    if engine.config().threads.is_none() {
        rayon::broadcast(|_| ());
    }
    if args.memory_mb > 0 {
        let bytes = args.memory_mb.saturating_mul(1024 * 1024);
        if let Err(e) =
            nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_AS, bytes, bytes)
        {
            send(&Event::Fatal {
                message: format!("cannot set the memory limit: {e}"),
            });
            return ExitCode::from(3);
        }
    }
    send(&Event::Ready);
    for (job, token) in jobs_rx {
        let outcome = recognize(&engine, &job, &token);
        {
            let mut c = lock(&current);
            if c.as_ref().is_some_and(|(id, _)| *id == job.id) {
                *c = None;
            }
        }
        send(&Event::Done {
            id: job.id,
            outcome,
        });
    }
    ExitCode::SUCCESS
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(e) => e.into_inner(),
    }
}

fn build_engine(args: &WorkerArgs) -> Result<Engine, String> {
    let config = match &args.engine_config {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            EngineConfig::from_json(&text).map_err(|e| e.to_string())?
        }
        None => EngineConfig::default(),
    };
    Engine::new(config).map_err(|e| format!("cannot start the engine: {e}"))
}

/// Reads the stored file, runs the engine, reports stage changes (pages of one stage report
/// once) and builds the outcome.
fn recognize(engine: &Engine, job: &JobSpec, cancel: &CancelToken) -> WireOutcome {
    let bytes = match std::fs::read(&job.path) {
        Ok(b) => b,
        Err(e) => {
            return WireOutcome::Error {
                code: ErrorCode::Io,
                message: format!("stored file cannot be read: {e}"),
            };
        }
    };
    let opts = RecognizeOptions {
        pages: job.pages.clone().filter(|p| !p.trim().is_empty()),
        heavy: job.heavy,
        filename: Some(job.filename.clone()),
        limits: Some(job_limits(&engine.config().limits, &job.limits)),
        only_document_files: true,
        ..RecognizeOptions::default()
    };
    let last: Mutex<Option<Stage>> = Mutex::new(None);
    let progress = |p: Progress| {
        let mut l = lock(&last);
        if *l == Some(p.stage) {
            return;
        }
        *l = Some(p.stage);
        send(&Event::Stage {
            id: job.id.clone(),
            stage: p.stage,
        });
    };
    // One pass over the file (an e-invoice's XML is read with the text layer), with the pages'
    // words for the plain text (none for a standalone XML e-invoice).
    let result = engine
        .recognize_bytes_with_pages(&bytes, &opts, &progress, cancel)
        .map(|(r, pages)| {
            let text = folio::clean::clean(&pages).plain_text();
            (r, text, pages.len())
        });
    match result {
        Ok((r, text, pages)) => {
            let warnings = r.final_status() != crate::serve::model::doc_status::PROCESSED;
            WireOutcome::Processed {
                warnings,
                result_json: r.to_json(),
                text,
                pages: pages as i64,
                document_type: code_name(r.document_type.code),
                structure_type: code_name(r.structure_type.code),
            }
        }
        Err(e) => WireOutcome::Error {
            code: e.code(),
            message: e.to_string(),
        },
    }
}

/// The limits of a job: the company's file size and page limits, the engine configuration's
/// budgets (per-call limits replace the engine's whole, see `RecognizeOptions::effective_limits`).
fn job_limits(engine: &Limits, company: &Limits) -> Limits {
    Limits {
        max_file_size_mb: company.max_file_size_mb,
        max_pages: company.max_pages,
        ..engine.clone()
    }
}

/// The wire name of a result code (`INVOICE`, `TABLE`...): its serde name.
fn code_name(code: impl Serialize) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_as_one_json_line_each() {
        let job = Request::Job(JobSpec {
            id: "doc_1".into(),
            path: PathBuf::from("/data/files/doc_1"),
            filename: "a\nb.pdf".into(),
            pages: Some("1-2".into()),
            heavy: true,
            limits: Limits::default(),
        });
        let events = [
            Event::Ready,
            Event::Stage {
                id: "doc_1".into(),
                stage: Stage::Preprocessing,
            },
            Event::Done {
                id: "doc_1".into(),
                outcome: WireOutcome::Error {
                    code: ErrorCode::CorruptFile,
                    message: "bad\nfile".into(),
                },
            },
        ];
        let line = serde_json::to_string(&job).unwrap();
        assert!(!line.contains('\n'));
        assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), job);
        for e in events {
            let line = serde_json::to_string(&e).unwrap();
            assert!(!line.contains('\n'));
            assert_eq!(serde_json::from_str::<Event>(&line).unwrap(), e);
        }
        assert!(serde_json::from_str::<Request>(r#"{"type":"job"}"#).is_err());
    }

    #[test]
    fn a_job_takes_the_company_size_and_pages_and_the_engine_budgets() {
        let engine = Limits {
            max_file_size_mb: 500,
            max_pages: 900,
            max_text_chars: 10,
            max_unpacked_mb: 3,
            ..Limits::default()
        };
        let company = Limits {
            max_file_size_mb: 7,
            max_pages: 4,
            ..Limits::default()
        };
        let l = job_limits(&engine, &company);
        assert_eq!((l.max_file_size_mb, l.max_pages), (7, 4));
        assert_eq!((l.max_text_chars, l.max_unpacked_mb), (10, 3));
        assert_eq!(l.max_words, engine.max_words);
    }

    #[test]
    fn result_codes_go_by_their_wire_names() {
        use folio::result::{DocumentType, StructureType};
        assert_eq!(code_name(DocumentType::CreditNote), "CREDIT_NOTE");
        assert_eq!(code_name(StructureType::MultiTable), "MULTI_TABLE");
    }
}
