//! Issue 12: hostile files through the real `folio recognize` binary. Every generated file (see
//! [`corpus`]) must end with the outcome it is built for (a result on stdout with exit 0, or a
//! JSON error on stderr with exit 1 whose code, and for a budget the `limits.` setting its
//! message names, are the case's) within its time budget and under 2 GB of peak RSS; special
//! files (`/dev/zero`, a FIFO) are refused with `IO_ERROR` at once.

mod corpus;

use nix::sys::resource::{UsageWho, getrusage};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Time budget of a file that is recognised (a debug build; the largest take about 15 s).
const TIME_BUDGET: Duration = Duration::from_secs(60);
/// Time budget of a file meant to stop early (a budget, a damaged structure): they stop in well
/// under a second, so a budget that no longer fires (a bomb decoded whole) shows here.
const EARLY_STOP_BUDGET: Duration = Duration::from_secs(15);
/// Peak resident memory allowed for one recognition.
const RSS_BUDGET_KB: i64 = 2 * 1024 * 1024;

struct Outcome {
    code: Option<String>,
    exit: Option<i32>,
    elapsed: Duration,
    stderr: String,
}

/// Peak RSS (KiB) of the largest child reaped so far.
fn children_max_rss_kb() -> i64 {
    getrusage(UsageWho::RUSAGE_CHILDREN)
        .map(|u| u.max_rss())
        .unwrap_or(0)
}

/// Runs `folio recognize path` with a deadline; a run past it is killed and reported.
fn recognize(path: &Path, config: Option<&Path>, deadline: Duration) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_folio"));
    cmd.arg("recognize").arg(path);
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    let start = Instant::now();
    let mut child = cmd
        .env("OMP_THREAD_LIMIT", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the folio binary runs");
    // Drain the pipes on threads so a large result never blocks the child.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).ok();
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).ok();
        v
    });
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > deadline {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let stdout = out_t.join().unwrap();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap()).into_owned();
    let exit = status.and_then(|s| s.code());
    let code = match exit {
        Some(0) => serde_json::from_slice::<serde_json::Value>(&stdout)
            .ok()
            .filter(|v| v.get("schema_version").is_some())
            .map(|_| "OK".to_string()),
        Some(_) => serde_json::from_str::<serde_json::Value>(stderr.trim())
            .ok()
            .and_then(|v| v["code"].as_str().map(str::to_string)),
        None => None,
    };
    Outcome {
        code,
        exit,
        elapsed,
        stderr,
    }
}

#[test]
fn hostile_corpus_ends_with_expected_codes_within_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let big_files = dir.path().join("big-files.json");
    std::fs::write(&big_files, r#"{"limits": {"max_file_size_mb": 100}}"#).unwrap();
    let mut failures = Vec::new();
    let mut rss_before = children_max_rss_kb();
    for c in corpus::all() {
        let path = dir.path().join(&c.name);
        std::fs::write(&path, &c.bytes).unwrap();
        let size = c.bytes.len();
        drop(c.bytes);
        let config = c.big_file_limit.then_some(big_files.as_path());
        let budget = if c.expect.stops_early() {
            EARLY_STOP_BUDGET
        } else {
            TIME_BUDGET
        };
        let o = recognize(&path, config, budget);
        std::fs::remove_file(&path).ok();
        let rss = children_max_rss_kb();
        let grew = rss > rss_before;
        rss_before = rss;
        eprintln!(
            "{:<48} {:>10} B  {:>6.2} s  exit {:?}  {}  {}",
            c.name,
            size,
            o.elapsed.as_secs_f64(),
            o.exit,
            o.code.as_deref().unwrap_or("-"),
            if grew {
                format!("peak RSS so far {} MB", rss / 1024)
            } else {
                String::new()
            }
        );
        let (exit, code) = (o.exit, o.code.as_deref());
        let expected = match code {
            Some("OK") => exit == Some(0) && c.expect.codes.contains(&"OK"),
            Some(code) => exit == Some(1) && code != "OK" && c.expect.codes.contains(&code),
            None => false,
        };
        let names = match (code, c.expect.names) {
            (Some(code), Some(needle)) if code != "OK" => o.stderr.contains(needle),
            _ => true,
        };
        if !expected || !names {
            failures.push(format!(
                "{}: expected {:?}{}, got exit {:?}, code {:?}, after {:.1} s: {}",
                c.name,
                c.expect.codes,
                c.expect
                    .names
                    .map(|n| format!(" naming {n:?}"))
                    .unwrap_or_default(),
                exit,
                code,
                o.elapsed.as_secs_f64(),
                o.stderr.chars().take(300).collect::<String>()
            ));
        } else if o.elapsed > budget {
            failures.push(format!(
                "{}: {code:?} after {:.1} s, over its {} s budget",
                c.name,
                o.elapsed.as_secs_f64(),
                budget.as_secs()
            ));
        }
        if grew && rss > RSS_BUDGET_KB {
            failures.push(format!("{}: peak RSS {} MB", c.name, rss / 1024));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn special_files_are_io_errors_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.pdf");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    for path in [Path::new("/dev/zero"), fifo.as_path()] {
        let o = recognize(path, None, TIME_BUDGET);
        assert_eq!(o.exit, Some(1), "{}: {}", path.display(), o.stderr);
        assert_eq!(
            o.code.as_deref(),
            Some("IO_ERROR"),
            "{}: {}",
            path.display(),
            o.stderr
        );
        assert!(
            o.elapsed < Duration::from_secs(10),
            "{} took {:?}",
            path.display(),
            o.elapsed
        );
        assert!(o.stderr.contains("regular file"), "{}", o.stderr);
    }
}
