//! The server's processes over real HTTP on 127.0.0.1: recognition in worker processes that
//! never outlive the server, SIGTERM draining in bounded time, worker crashes costing one
//! attempt, and SIGTERM/SIGKILL cycles losing nothing and charging once.

mod common;

use common::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LONG: Duration = Duration::from_secs(180);

/// `folio serve` on any free port in the test's own environment (the harness's `start_with`
/// would pin `OMP_THREAD_LIMIT=1`).
fn serve(data_dir: &Path, extra: &[&str]) -> Server {
    Server::start_on(data_dir, ANY_PORT, ServerEnv::Inherited, extra)
}

/// Waits until a document of the operation is in one of the engine's stages.
fn wait_working(s: &Server, key: &str, op: &str) {
    let start = Instant::now();
    loop {
        let (_, body) = get(s, key, &format!("/api/v1/operations/{op}"));
        let working = body["documents"].as_array().is_some_and(|ds| {
            ds.iter().any(|d| {
                let st = d["status"].as_str().unwrap_or_default();
                st != "QUEUED" && !FINAL_STATUSES.contains(&st) && st != "REJECTED"
            })
        });
        if working {
            return;
        }
        assert!(start.elapsed() < LONG, "no document started: {body}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Processes whose command line is `folio worker ... --parent-pid <pid> ...`.
fn workers_of(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return found;
    };
    for e in rd.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<&[u8]> = cmd.split(|b| *b == 0).collect();
        let is_worker = args.get(1) == Some(&&b"worker"[..]);
        let of_parent = args
            .windows(2)
            .any(|w| w[0] == b"--parent-pid" && w[1] == parent.to_string().as_bytes());
        if is_worker && of_parent {
            found.push(pid);
        }
    }
    found
}

/// Asserts that no worker of `parent` is left within `limit`.
fn assert_no_workers_left(parent: u32, limit: Duration) {
    let start = Instant::now();
    loop {
        let left = workers_of(parent);
        if left.is_empty() {
            return;
        }
        assert!(
            start.elapsed() < limit,
            "workers of {parent} still running after {limit:?}: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn limits(s: &Server, key: &str) -> (i64, i64) {
    let (_, l) = get(s, key, "/api/v1/auth/limits");
    (
        l["balance_documents"].as_i64().expect("balance"),
        l["reserved_documents"].as_i64().expect("reserved"),
    )
}

const SCANS: [&str; 3] = [
    "invoice_en_scanpdf.pdf",
    "invoice_ru_scan.png",
    "waybill_pl_scan.tiff",
];

#[test]
fn server_sigkill_leaves_no_worker_behind() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    let mut s = serve(dir.path(), &["--workers", "2"]);
    let pid = s.pid();
    assert_eq!(workers_of(pid).len(), 2, "one process per worker");
    let (st, created) = upload(&s, &key, "k-1", form(&SCANS));
    assert_eq!(st, 202, "{created}");
    wait_working(&s, &key, created["operation_id"].as_str().unwrap());
    s.signal("KILL");
    let (st, _) = s.wait_exit(Duration::from_secs(5));
    assert!(!st.success());
    assert_no_workers_left(pid, Duration::from_secs(5));
}

#[test]
fn sigterm_drains_in_bounded_time_frees_the_port_and_the_document_is_processed_after_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    let args = ["--workers", "1", "--drain-secs", "1"];
    let mut s = serve(dir.path(), &args);
    let listen = s.addr().to_string();
    let pid = s.pid();
    let (st, created) = upload(&s, &key, "k-1", form(&SCANS));
    assert_eq!(st, 202, "{created}");
    let op = created["operation_id"].as_str().unwrap().to_string();
    wait_working(&s, &key, &op);
    s.signal("TERM");
    // Drain (1 s) plus the workers' stop: well inside the bound.
    let (st, took) = s.wait_exit(Duration::from_secs(15));
    assert!(st.success(), "SIGTERM exits 0: {st:?}");
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert_no_workers_left(pid, Duration::from_secs(2));
    // The port is free: a restart on it succeeds and processes what was interrupted.
    let s = Server::start_on(dir.path(), &listen, ServerEnv::Inherited, &args);
    let done = wait_final(&s, &key, &op, LONG);
    for d in done["documents"].as_array().unwrap() {
        assert!(
            ["PROCESSED", "PROCESSED_WITH_WARNINGS"].contains(&d["status"].as_str().unwrap()),
            "{d}"
        );
        assert_eq!(d["billing"]["documents_charged"], 1, "{d}");
    }
    assert_eq!(limits(&s, &key), (7, 0));
}

#[test]
fn sigterm_lets_the_document_in_progress_finish_within_the_grace_period() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    let mut s = serve(dir.path(), &["--workers", "1", "--drain-secs", "120"]);
    let (_, created) = upload(&s, &key, "g-1", form(&["invoice_de_scan.png"]));
    let op = created["operation_id"].as_str().unwrap().to_string();
    wait_working(&s, &key, &op);
    s.signal("TERM");
    let (st, _) = s.wait_exit(LONG);
    assert!(st.success(), "{st:?}");
    // Finished before the exit: final at once after a restart without workers.
    let s = serve(dir.path(), &["--workers", "0"]);
    let (_, done) = get(&s, &key, &format!("/api/v1/operations/{op}"));
    let d = &done["documents"][0];
    assert!(
        ["PROCESSED", "PROCESSED_WITH_WARNINGS"].contains(&d["status"].as_str().unwrap()),
        "{d}"
    );
    assert_eq!(d["billing"]["documents_charged"], 1, "{d}");
}

#[test]
fn sigint_drains_like_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = serve(dir.path(), &["--workers", "1"]);
    let pid = s.pid();
    s.signal("INT");
    let (st, _) = s.wait_exit(Duration::from_secs(15));
    assert!(st.success(), "{st:?}");
    assert_no_workers_left(pid, Duration::from_secs(2));
}

#[test]
fn a_document_that_breaks_the_worker_memory_limit_fails_after_three_attempts_uncharged() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    // A limit below what a worker with its engine holds once it works: every attempt ends it.
    let mut s = serve(dir.path(), &["--workers", "1", "--worker-memory-mb", "16"]);
    let pid = s.pid();
    let (st, created) = upload(&s, &key, "m-1", form(&["invoice_de_scan.png"]));
    assert_eq!(st, 202, "{created}");
    let op = created["operation_id"].as_str().unwrap().to_string();
    let done = wait_final(&s, &key, &op, LONG);
    let d = &done["documents"][0];
    assert_eq!(d["status"], "FAILED", "{d}");
    assert_eq!(d["error"]["code"], "RESOURCE_LIMIT", "{d}");
    assert!(
        d["error"]["message"].as_str().unwrap().contains("3 times"),
        "{d}"
    );
    assert_eq!(d["billing"]["documents_charged"], 0, "{d}");
    assert_eq!(limits(&s, &key), (10, 0));
    // The server itself stayed up all along.
    let (st, _) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(st, 200);
    s.signal("TERM");
    s.wait_exit(Duration::from_secs(15));
    assert_no_workers_left(pid, Duration::from_secs(2));
    // With normal limits, documents are processed (and charged) again.
    let s = serve(dir.path(), &["--workers", "1"]);
    let (st, created) = upload(&s, &key, "m-2", form(&["invoice_de_scan.png"]));
    assert_eq!(st, 202, "{created}");
    let done = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(done["documents"][0]["billing"]["documents_charged"], 1);
    assert_eq!(limits(&s, &key), (9, 0));
}

#[test]
fn a_document_past_the_time_limit_fails_after_three_attempts_uncharged() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    // No scan is recognised in 50 ms.
    let s = serve(
        dir.path(),
        &["--workers", "1", "--document-timeout-secs", "0.05"],
    );
    let (_, slow) = upload(&s, &key, "t-1", form(&["invoice_en_scanpdf.pdf"]));
    let slow = wait_final(&s, &key, slow["operation_id"].as_str().unwrap(), LONG);
    let d = &slow["documents"][0];
    assert_eq!(d["error"]["code"], "RESOURCE_LIMIT", "{d}");
    assert!(
        d["error"]["message"]
            .as_str()
            .unwrap()
            .contains("time limit"),
        "{d}"
    );
    assert_eq!(d["billing"]["documents_charged"], 0, "{d}");
    assert_eq!(limits(&s, &key), (10, 0));
    drop(s);
    // The default limit lets the same document through.
    let s = serve(dir.path(), &["--workers", "1"]);
    let (_, again) = upload(&s, &key, "t-2", form(&["invoice_en_scanpdf.pdf"]));
    let again = wait_final(&s, &key, again["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(again["documents"][0]["billing"]["documents_charged"], 1);
    assert_eq!(limits(&s, &key), (9, 0));
}

#[test]
fn cancelling_a_running_document_stops_it_and_its_worker_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    let s = serve(dir.path(), &["--workers", "1"]);
    let pid = s.pid();
    let before = workers_of(pid);
    assert_eq!(before.len(), 1);
    let (_, created) = upload(&s, &key, "x-1", form(&["invoice_en_scanpdf.pdf"]));
    let op = created["operation_id"].as_str().unwrap().to_string();
    wait_working(&s, &key, &op);
    let r = client()
        .post(s.url(&format!("/api/v1/operations/{op}/cancel")))
        .bearer_auth(&key)
        .send()
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let done = wait_final(&s, &key, &op, LONG);
    assert_eq!(done["status"], "CANCELLED", "{done}");
    assert_eq!(limits(&s, &key), (10, 0));
    // The worker was told, not killed: the same process takes the next document.
    let (_, next) = upload(&s, &key, "x-2", form(&["invoice_de_text.pdf"]));
    let next = wait_final(&s, &key, next["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(next["documents"][0]["billing"]["documents_charged"], 1);
    assert_eq!(workers_of(pid), before);
}

/// Waits until process `pid` is gone.
fn wait_gone(pid: u32, limit: Duration) {
    let start = Instant::now();
    while Path::new(&format!("/proc/{pid}")).exists() {
        assert!(start.elapsed() < limit, "process {pid} still there");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn workers_are_recycled_after_their_documents_and_leave_when_idle() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    // One document per worker: the worker that took it is replaced.
    let mut s = serve(
        dir.path(),
        &[
            "--workers",
            "1",
            "--worker-max-documents",
            "1",
            "--worker-idle-secs",
            "0",
        ],
    );
    let pid = s.pid();
    let first = workers_of(pid);
    assert_eq!(first.len(), 1);
    let (_, c) = upload(&s, &key, "r-1", form(&["invoice_de_text.pdf"]));
    let d = wait_final(&s, &key, c["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(d["documents"][0]["billing"]["documents_charged"], 1);
    wait_gone(first[0], Duration::from_secs(10));
    s.signal("TERM");
    s.wait_exit(Duration::from_secs(15));
    // An idle pool lets its workers go, returning their memory; work brings one back.
    let s = serve(dir.path(), &["--workers", "1", "--worker-idle-secs", "1"]);
    let pid = s.pid();
    let (_, c) = upload(&s, &key, "r-2", form(&["invoice_de_text.pdf"]));
    wait_final(&s, &key, c["operation_id"].as_str().unwrap(), LONG);
    assert_no_workers_left(pid, Duration::from_secs(10));
    let (_, c) = upload(&s, &key, "r-3", form(&["invoice_de_text.pdf"]));
    let d = wait_final(&s, &key, c["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(d["documents"][0]["billing"]["documents_charged"], 1);
    assert_eq!(limits(&s, &key), (7, 0));
}

/// Children of a process (every thread's `children` list).
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in rd.flatten() {
            if let Ok(c) = std::fs::read_to_string(t.path().join("children")) {
                out.extend(c.split_whitespace().filter_map(|p| p.parse::<u32>().ok()));
            }
        }
    }
    out
}

#[test]
fn recognize_sets_its_thread_limit_in_place_and_a_signal_reaches_it() {
    let mut child = Command::new(bin())
        .arg("recognize")
        .arg(fixture("invoice_en_scanpdf.pdf"))
        .env_remove("OMP_THREAD_LIMIT")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("folio recognize starts");
    let pid = child.id();
    // The same process re-executes itself with the variable: no wrapper, no child.
    let start = Instant::now();
    loop {
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        if env.split(|b| *b == 0).any(|v| v == b"OMP_THREAD_LIMIT=1") {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "recognize ended before it was seen"
        );
        assert!(start.elapsed() < Duration::from_secs(10), "no re-exec seen");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(children_of(pid), Vec::<u32>::new());
    let st = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(15), "{status:?}");
}

/// 50 alternating SIGTERM / SIGKILL cycles with uploads in flight: no process left behind, no
/// accepted document lost, none charged twice. Every upload is retried with its idempotency
/// key after the cycles, so each ends as exactly one operation.
#[test]
fn fifty_sigterm_sigkill_cycles_lose_nothing_and_charge_once() {
    const CYCLES: usize = 50;
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 1000);
    let files = ["invoice_de_text.pdf", "invoice_de_scan.png"];
    let started = Instant::now();
    let mut accepted = 0;
    for i in 0..CYCLES {
        let mut s = serve(dir.path(), &["--workers", "1", "--drain-secs", "1"]);
        let pid = s.pid();
        let (base, k) = (s.base.clone(), key.clone());
        let uploader = std::thread::spawn(move || {
            try_upload(&base, &k, &format!("c-{i}"), form(&files)).is_ok_and(|(st, _)| st == 202)
        });
        std::thread::sleep(Duration::from_millis(150 * (i % 8) as u64));
        if i % 2 == 0 {
            s.signal("TERM");
            let (st, _) = s.wait_exit(Duration::from_secs(15));
            assert!(st.success(), "cycle {i}: SIGTERM exits 0: {st:?}");
        } else {
            s.signal("KILL");
            s.wait_exit(Duration::from_secs(5));
        }
        if uploader.join().unwrap_or(false) {
            accepted += 1;
        }
        assert_no_workers_left(pid, Duration::from_secs(5));
    }
    let cycles_took = started.elapsed();
    let s = serve(dir.path(), &["--workers", "2"]);
    let mut ops = Vec::new();
    for i in 0..CYCLES {
        let (st, body) = upload(&s, &key, &format!("c-{i}"), form(&files));
        assert!([200, 202].contains(&st), "{st} {body}");
        ops.push(body["operation_id"].as_str().unwrap().to_string());
    }
    ops.sort();
    ops.dedup();
    assert_eq!(ops.len(), CYCLES);
    for op in &ops {
        let done = wait_final(&s, &key, op, LONG);
        for d in done["documents"].as_array().unwrap() {
            assert!(
                ["PROCESSED", "PROCESSED_WITH_WARNINGS"].contains(&d["status"].as_str().unwrap()),
                "{d}"
            );
            assert_eq!(d["billing"]["documents_charged"], 1, "{d}");
        }
    }
    assert_eq!(limits(&s, &key), (1000 - 2 * CYCLES as i64, 0));
    eprintln!(
        "{CYCLES} cycles ({accepted} uploads accepted before their kill) in {:.1} s, \
         all processed in {:.1} s",
        cycles_took.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}
