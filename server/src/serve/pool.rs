//! Worker processes of the server: starting one (`folio worker`), handing it a document,
//! following its events, and enforcing its limits.
//!
//! Each worker is a child process of the server with `OMP_THREAD_LIMIT=1` in its environment,
//! killed when its handle is dropped (`kill_on_drop`) and reaped by the slot that owns it. While
//! it works on a document the server watches it: a resident size above the memory limit, a
//! document past the time limit, an exit or a signal before the outcome all end the worker and
//! cost that document one attempt ([`JobEnd::Crashed`]); the server shutting down ends it
//! without costing anything ([`JobEnd::Stopped`]).

use super::model::doc_status;
use super::store::Outcome;
use crate::worker::{Event, JobSpec, Request, WireOutcome};
use folio::{CancelToken, Stage};
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::watch;

/// How a worker is started and what it may use.
#[derive(Debug, Clone)]
pub struct PoolConfig {
    /// The `folio` binary.
    pub exe: PathBuf,
    /// Engine configuration file handed to the workers.
    pub engine_config: Option<PathBuf>,
    /// Memory limit of one worker, bytes (address space and resident size; 0: none).
    pub memory_limit: u64,
    /// Time one document may take.
    pub document_timeout: Duration,
    /// Documents after which a worker is replaced by a fresh one (0: never).
    pub max_documents: u64,
    /// Resident size above which a worker is replaced once its document is done, bytes.
    pub recycle_rss: u64,
    /// Idle time after which a worker exits, returning its memory (zero: never).
    pub idle: Duration,
    /// Rayon threads per worker (`RAYON_NUM_THREADS`), unless the environment sets it.
    pub threads: usize,
}

/// What the workers are asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Take documents.
    Running,
    /// Take no new document; finish the ones in progress.
    Draining,
    /// Stop now: kill the workers, the documents in progress go back to the queue.
    Stopping,
}

/// Resolves once the phase is [`Phase::Stopping`] (or no one can change it any more).
pub async fn stopping(phase: &mut watch::Receiver<Phase>) {
    let _ = phase.wait_for(|p| *p == Phase::Stopping).await;
}

/// How handing a document to a worker ended.
#[derive(Debug)]
pub enum JobEnd {
    /// The worker answered (and can take the next document).
    Done(Outcome),
    /// The worker died or broke a limit (it is gone): one attempt of the document used.
    Crashed(String),
    /// The server is stopping and killed the worker: the document goes back to the queue.
    Stopped,
}

/// How often a working worker's memory and cancellation are checked.
const TICK: Duration = Duration::from_millis(100);
/// How long a worker may take to start (engine build).
const START_TIMEOUT: Duration = Duration::from_secs(120);
/// How long a cancelled document may take to stop before its worker is killed.
const CANCEL_GRACE: Duration = Duration::from_secs(5);
/// How long a retired worker may take to exit before it is killed.
const RETIRE_GRACE: Duration = Duration::from_secs(5);

/// One running `folio worker`.
#[derive(Debug)]
pub struct WorkerProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    pid: u32,
    /// Documents it answered.
    pub documents: u64,
}

impl WorkerProcess {
    /// Starts a worker and waits until its engine is built. `Err` when it cannot start (the
    /// engine's own message when it has one).
    pub async fn spawn(cfg: &PoolConfig) -> Result<WorkerProcess, String> {
        let mut cmd = Command::new(&cfg.exe);
        cmd.arg("worker")
            .arg("--parent-pid")
            .arg(std::process::id().to_string())
            .arg("--memory-mb")
            .arg((cfg.memory_limit / (1024 * 1024)).to_string());
        if let Some(p) = &cfg.engine_config {
            cmd.arg("--engine-config").arg(p);
        }
        cmd.env("OMP_THREAD_LIMIT", "1")
            // Fewer malloc arenas: less address space reserved per thread and memory returned
            // sooner.
            .env("MALLOC_ARENA_MAX", "2")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        if std::env::var_os("RAYON_NUM_THREADS").is_none() {
            cmd.env("RAYON_NUM_THREADS", cfg.threads.max(1).to_string());
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start a worker process: {e}"))?;
        let pid = child.id().unwrap_or(0);
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("a worker process has no pipes".into());
        };
        let mut w = WorkerProcess {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            pid,
            documents: 0,
        };
        let first = tokio::time::timeout(START_TIMEOUT, w.lines.next_line()).await;
        let event = match first {
            Ok(Ok(Some(line))) => serde_json::from_str::<Event>(&line)
                .map_err(|e| format!("a worker said something unexpected: {e}")),
            Ok(Ok(None)) | Ok(Err(_)) => Err("a worker exited while starting".to_string()),
            Err(_) => Err(format!("a worker did not start in {START_TIMEOUT:?}")),
        };
        match event {
            Ok(Event::Ready) => Ok(w),
            Ok(Event::Fatal { message }) => {
                w.kill().await;
                Err(message)
            }
            Ok(other) => {
                w.kill().await;
                Err(format!("a worker started with {other:?}"))
            }
            Err(e) => {
                let status = w.kill().await;
                Err(match status {
                    Some(s) if !s.success() => format!("{e} ({})", describe_exit(s)),
                    _ => e,
                })
            }
        }
    }

    /// Process id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Resident size now, bytes (`None` once the process is gone).
    pub fn rss(&self) -> Option<u64> {
        rss_of(self.pid)
    }

    /// Hands a document to the worker and follows it to its end: `on_stage` is awaited for
    /// each stage the worker reports. Any end but [`JobEnd::Done`] leaves the worker killed
    /// and reaped (drop it).
    pub async fn run_job<F, Fut>(
        &mut self,
        cfg: &PoolConfig,
        job: JobSpec,
        cancel: &CancelToken,
        phase: &mut watch::Receiver<Phase>,
        mut on_stage: F,
    ) -> JobEnd
    where
        F: FnMut(Stage) -> Fut,
        Fut: std::future::Future<Output = ()>,
    {
        let id = job.id.clone();
        if let Err(e) = self.send(&Request::Job(job)).await {
            return self
                .crashed(format!("cannot hand the document over: {e}"))
                .await;
        }
        let deadline = tokio::time::Instant::now() + cfg.document_timeout;
        let mut tick = tokio::time::interval(TICK);
        let mut cancelled_at: Option<Instant> = None;
        loop {
            tokio::select! {
                line = self.lines.next_line() => {
                    let line = match line {
                        Ok(Some(l)) => l,
                        Ok(None) | Err(_) => {
                            let status = self.kill().await;
                            return JobEnd::Crashed(match status {
                                Some(s) => format!("the worker ended ({})", describe_exit(s)),
                                None => "the worker ended".into(),
                            });
                        }
                    };
                    match serde_json::from_str::<Event>(&line) {
                        Ok(Event::Stage { id: i, stage }) if i == id => on_stage(stage).await,
                        Ok(Event::Done { id: i, outcome }) if i == id => {
                            self.documents += 1;
                            return JobEnd::Done(outcome_of(outcome));
                        }
                        Ok(other) => {
                            return self.crashed(format!("the worker answered out of turn: {other:?}")).await;
                        }
                        Err(e) => {
                            return self.crashed(format!("the worker answered something unreadable: {e}")).await;
                        }
                    }
                }
                _ = tokio::time::sleep_until(deadline) => {
                    return self.crashed(format!(
                        "the document took longer than the time limit ({} s)",
                        cfg.document_timeout.as_secs_f64()
                    )).await;
                }
                _ = stopping(phase) => {
                    self.kill().await;
                    return JobEnd::Stopped;
                }
                _ = tick.tick() => {
                    if cfg.memory_limit > 0
                        && let Some(rss) = self.rss()
                        && rss > cfg.memory_limit
                    {
                        return self.crashed(format!(
                            "the worker went over the memory limit ({} MB resident, limit {} MB)",
                            rss / (1024 * 1024),
                            cfg.memory_limit / (1024 * 1024)
                        )).await;
                    }
                    if cancel.is_cancelled() {
                        match cancelled_at {
                            None => {
                                cancelled_at = Some(Instant::now());
                                if self.send(&Request::Cancel { id: id.clone() }).await.is_err() {
                                    return self.crashed("the worker stopped reading".into()).await;
                                }
                            }
                            Some(t) if t.elapsed() > CANCEL_GRACE => {
                                return self.crashed("the cancelled document did not stop".into()).await;
                            }
                            Some(_) => {}
                        }
                    }
                }
            }
        }
    }

    async fn send(&mut self, req: &Request) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(req).map_err(std::io::Error::other)?;
        line.push(b'\n');
        self.stdin.write_all(&line).await?;
        self.stdin.flush().await
    }

    async fn crashed(&mut self, reason: String) -> JobEnd {
        self.kill().await;
        JobEnd::Crashed(reason)
    }

    /// Kills and reaps the worker; its exit status when it could be read.
    pub async fn kill(&mut self) -> Option<ExitStatus> {
        let _ = self.child.start_kill();
        self.child.wait().await.ok()
    }

    /// Lets an idle worker exit (end of its input), killing it if it does not in time.
    pub async fn retire(mut self) {
        let _ = self.stdin.shutdown().await;
        drop(self.stdin);
        match tokio::time::timeout(RETIRE_GRACE, self.child.wait()).await {
            Ok(_) => {}
            Err(_) => {
                let _ = self.child.start_kill();
                let _ = self.child.wait().await;
            }
        }
    }
}

/// The server-side outcome of a worker's answer.
fn outcome_of(o: WireOutcome) -> Outcome {
    match o {
        WireOutcome::Processed {
            warnings,
            result_json,
            text,
            pages,
            document_type,
            structure_type,
        } => Outcome::Processed {
            status: if warnings {
                doc_status::PROCESSED_WITH_WARNINGS
            } else {
                doc_status::PROCESSED
            },
            result_json,
            text,
            pages,
            document_type,
            structure_type,
        },
        WireOutcome::Error { code, message } => Outcome::Error {
            status: if code.is_rejection() {
                doc_status::REJECTED
            } else if code == folio::ErrorCode::Cancelled {
                doc_status::CANCELLED
            } else {
                doc_status::FAILED
            },
            code: code.as_str().into(),
            message,
        },
    }
}

/// "exit status 3", "killed by signal 9 (SIGKILL)".
pub fn describe_exit(s: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(sig) = s.signal() {
        let name = match sig {
            6 => " (SIGABRT)",
            7 => " (SIGBUS)",
            9 => " (SIGKILL)",
            11 => " (SIGSEGV)",
            15 => " (SIGTERM)",
            _ => "",
        };
        format!("killed by signal {sig}{name}")
    } else {
        match s.code() {
            Some(c) => format!("exit status {c}"),
            None => "unknown exit".into(),
        }
    }
}

/// `VmRSS` of a process from `/proc/<pid>/status`, bytes.
pub fn rss_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_vm_rss(&status)
}

fn parse_vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn reads_the_resident_size() {
        let status = "Name:\tfolio\nVmPeak:\t  900 kB\nVmRSS:\t   12345 kB\nThreads:\t3\n";
        assert_eq!(parse_vm_rss(status), Some(12345 * 1024));
        assert_eq!(parse_vm_rss("Name:\tx\n"), None);
        let own = rss_of(std::process::id()).expect("own status");
        assert!(own > 0);
    }

    #[test]
    fn names_how_a_process_ended() {
        assert_eq!(
            describe_exit(ExitStatus::from_raw(9)),
            "killed by signal 9 (SIGKILL)"
        );
        assert_eq!(describe_exit(ExitStatus::from_raw(3 << 8)), "exit status 3");
    }

    #[test]
    fn outcomes_keep_their_status() {
        let o = outcome_of(WireOutcome::Error {
            code: folio::ErrorCode::CorruptFile,
            message: "x".into(),
        });
        assert!(matches!(o, Outcome::Error { status, .. } if status == doc_status::REJECTED));
        let o = outcome_of(WireOutcome::Error {
            code: folio::ErrorCode::Cancelled,
            message: "x".into(),
        });
        assert!(matches!(o, Outcome::Error { status, .. } if status == doc_status::CANCELLED));
        let o = outcome_of(WireOutcome::Error {
            code: folio::ErrorCode::Internal,
            message: "x".into(),
        });
        assert!(matches!(o, Outcome::Error { status, .. } if status == doc_status::FAILED));
    }
}
