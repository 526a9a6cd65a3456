//! Several `folio serve` nodes on one PostgreSQL database and one file store (an S3-compatible
//! object store, or a shared directory), as a deployment on more than one machine runs them: an
//! API-only node (`--workers 0`) and worker nodes, each with a data directory of its own, the
//! signing key given to all. The harness starts its own PostgreSQL cluster and object store
//! (tests/common/postgres.rs, tests/common/s3.rs).

mod common;

use common::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A deployment: one database, one file store, one signing key, nodes started on demand.
struct Deployment {
    url: String,
    /// `--files`: `s3://bucket/prefix` or a shared directory.
    files: String,
    _shared: Option<tempfile::TempDir>,
    signing_key: String,
    dirs: Vec<tempfile::TempDir>,
}

impl Deployment {
    /// Nodes on database `name` and, with `object_store`, bucket `name` of the test object
    /// store, else a shared directory.
    fn new(name: &str, object_store: bool) -> Deployment {
        let url = postgres::cluster().create_database(name);
        let (files, shared) = if object_store {
            // Bucket names have no underscores.
            let bucket = name.replace('_', "-");
            s3::store().create_bucket(&bucket);
            (format!("s3://{bucket}/uploads"), None)
        } else {
            let d = tempfile::tempdir().unwrap();
            (d.path().to_str().unwrap().to_string(), Some(d))
        };
        Deployment {
            url,
            files,
            _shared: shared,
            signing_key: "ab".repeat(32),
            dirs: Vec::new(),
        }
    }

    /// A new node's data directory, using the deployment's database.
    fn data_dir(&mut self) -> PathBuf {
        let d = tempfile::tempdir().unwrap();
        postgres::cluster().assign(d.path(), &self.url);
        let p = d.path().to_path_buf();
        self.dirs.push(d);
        p
    }

    fn start(&self, data_dir: &Path, workers: &str) -> Server {
        self.start_with(data_dir, &["--workers", workers])
    }

    fn start_with(&self, data_dir: &Path, extra: &[&str]) -> Server {
        let mut args = vec![
            "--allow-http-webhooks",
            "--allow-private-webhooks",
            "--files",
            &self.files,
            "--signing-key",
            &self.signing_key,
            "--lease-secs",
            "2",
        ];
        args.extend_from_slice(extra);
        Server::start_on(data_dir, ANY_PORT, ServerEnv::ObjectStore, &args)
    }
}

const TEXT_PDFS: [&str; 8] = [
    "invoice_de_text.pdf",
    "invoice_en_text.pdf",
    "invoice_fr_text.pdf",
    "invoice_pl_text.pdf",
    "act_uk_text.pdf",
    "receipt_de_text.pdf",
    "credit_note_de_text.pdf",
    "waybill_uk_text.pdf",
];

#[test]
fn killing_nodes_20_times_in_a_300_document_batch_loses_nothing_and_charges_once() {
    if postgres::already_on_postgres() {
        return;
    }
    let mut dep = Deployment::new("nodes_kill", true);
    let dirs = [dep.data_dir(), dep.data_dir(), dep.data_dir()];
    let (co, key) = company_and_key(&dirs[0], 400);
    let receiver = Receiver::start(|_| 200, Duration::ZERO);
    default_webhook(&dirs[0], &co, &receiver.url);
    // Node 0 only serves the API (`--workers 0`), node 1 works and serves the API, node 2 only
    // works (`--no-api`).
    let args_of = |i: usize| match i {
        0 => vec!["--workers", "0"],
        1 => vec!["--workers", "1"],
        _ => vec!["--workers", "1", "--no-api"],
    };
    let mut nodes: Vec<Server> = (0..3)
        .map(|i| dep.start_with(&dirs[i], &args_of(i)))
        .collect();
    assert!(nodes[2].base.is_empty(), "a --no-api node listens nowhere");
    // 300 documents in 15 operations of 20, uploaded to the API node.
    let mut ops = Vec::new();
    for i in 0..15 {
        let files: Vec<&str> = (0..20)
            .map(|j| TEXT_PDFS[(i + j) % TEXT_PDFS.len()])
            .collect();
        let (st, v) = upload(&nodes[0], &key, &format!("batch-{i}"), form(&files));
        assert_eq!(st, 202, "{v}");
        ops.push(v["operation_id"].as_str().unwrap().to_string());
    }
    // 20 times kill -9 a node chosen at random (a fixed seed) while the batch is worked on, and
    // start it again at once (it gives back what it held), or after its leases ended (the
    // others take its documents over).
    let mut seed: u64 = 0x5eed;
    let mut next = move |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for kill in 0..20 {
        std::thread::sleep(Duration::from_millis(200 + 100 * next(4)));
        let i = next(3) as usize;
        nodes[i].kill9();
        if kill % 5 == 4 {
            std::thread::sleep(Duration::from_millis(4000));
        }
        nodes[i] = dep.start_with(&dirs[i], &args_of(i));
    }
    let api = &nodes[0];
    let worker_api = &nodes[1];
    let mut documents = BTreeSet::new();
    for op in &ops {
        let v = wait_final(api, &key, op, Duration::from_secs(300));
        for d in v["documents"].as_array().unwrap() {
            assert!(
                ["PROCESSED", "PROCESSED_WITH_WARNINGS"].contains(&d["status"].as_str().unwrap()),
                "{d}"
            );
            assert_eq!(d["billing"]["documents_charged"], 1, "{d}");
            documents.insert(d["document_id"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(documents.len(), 300);
    let (_, l) = get(api, &key, "/api/v1/auth/limits");
    assert_eq!(
        (
            l["balance_documents"].as_i64(),
            l["reserved_documents"].as_i64()
        ),
        (Some(100), Some(0)),
        "{l}"
    );
    // Every document's event has one event id however often it was sent; one completion per
    // operation.
    receiver.wait_for(Duration::from_secs(120), |r| {
        r.iter()
            .filter(|x| x.json()["event"] == "operation.completed")
            .map(|x| x.json()["operation_id"].as_str().unwrap_or("").to_string())
            .collect::<BTreeSet<_>>()
            .len()
            == 15
    });
    std::thread::sleep(Duration::from_millis(500));
    let mut per_doc: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut completions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in receiver.received() {
        let b = r.json();
        let id = b["event_id"].as_str().unwrap().to_string();
        match b["event"].as_str().unwrap() {
            "operation.completed" => {
                completions
                    .entry(b["operation_id"].as_str().unwrap().to_string())
                    .or_default()
                    .insert(id);
            }
            _ => {
                if let Some(d) = b["document_id"].as_str() {
                    per_doc.entry(d.to_string()).or_default().insert(id);
                }
            }
        }
    }
    assert_eq!(per_doc.len(), 300, "{per_doc:?}");
    assert!(per_doc.values().all(|ids| ids.len() == 1), "{per_doc:?}");
    assert_eq!(completions.len(), 15);
    assert!(
        completions.values().all(|ids| ids.len() == 1),
        "{completions:?}"
    );
    // A link signed by the API node opens on a worker node (the signing key is shared).
    let doc = documents.iter().next().unwrap();
    let (st, signed) = get(
        api,
        &key,
        &format!("/api/v1/documents/{doc}/artifacts/final_json/signed-url"),
    );
    assert_eq!(st, 200, "{signed}");
    let link = signed["url"]
        .as_str()
        .unwrap()
        .replace(&api.base, &worker_api.base);
    assert_ne!(link, signed["url"].as_str().unwrap());
    let r = client().get(&link).send().unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let body: Value = r.json().unwrap();
    let (st, direct) = get(
        api,
        &key,
        &format!("/api/v1/documents/{doc}/artifacts/final_json"),
    );
    assert_eq!(st, 200);
    assert_eq!(body, direct);
    // The uploads are objects of the deployment's bucket, one per document, and the source file
    // comes back from any node as it was sent.
    let objects = s3::store().objects("nodes-kill");
    assert_eq!(objects.len(), 300, "{objects:?}");
    assert!(
        objects.iter().all(|o| o.starts_with("uploads/doc_")),
        "{objects:?}"
    );
    let sent = std::fs::read(fixture(TEXT_PDFS[0])).unwrap();
    let first_op = &ops[0];
    let (_, v) = get(api, &key, &format!("/api/v1/operations/{first_op}"));
    let first_doc = v["documents"][0]["document_id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = client()
        .get(worker_api.url(&format!(
            "/api/v1/documents/{first_doc}/artifacts/source_file"
        )))
        .bearer_auth(&key)
        .send()
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.bytes().unwrap().as_ref(), sent.as_slice());
}

#[test]
fn one_idempotency_key_sent_to_two_nodes_at_once_makes_one_operation() {
    if postgres::already_on_postgres() {
        return;
    }
    let mut dep = Deployment::new("nodes_idempotency", false);
    let (a_dir, b_dir) = (dep.data_dir(), dep.data_dir());
    let (_, key) = company_and_key(&a_dir, 100);
    let nodes = [dep.start(&a_dir, "0"), dep.start(&b_dir, "0")];
    for round in 0..5 {
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let base = nodes[i % 2].base.clone();
                let (k, b) = (key.clone(), barrier.clone());
                let idem = format!("shared-{round}");
                std::thread::spawn(move || {
                    b.wait();
                    try_upload(&base, &k, &idem, form(&["invoice_fr_text.pdf"])).unwrap()
                })
            })
            .collect();
        let answers: Vec<(u16, Value)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let ops: BTreeSet<String> = answers
            .iter()
            .filter(|(st, _)| *st == 202)
            .map(|(_, v)| v["operation_id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(ops.len(), 1, "{answers:#?}");
        for (st, v) in &answers {
            assert!(
                *st == 202 || (*st == 409 && v["error"]["code"] == "IDEMPOTENCY_IN_PROGRESS"),
                "{st} {v}"
            );
        }
    }
    // Five operations of one document each were reserved, nothing more.
    let (_, l) = get(&nodes[1], &key, "/api/v1/auth/limits");
    assert_eq!(l["reserved_documents"].as_i64(), Some(5), "{l}");
}

#[test]
fn a_keys_rate_limit_holds_across_nodes() {
    if postgres::already_on_postgres() {
        return;
    }
    let mut dep = Deployment::new("nodes_rate", false);
    let (a_dir, b_dir) = (dep.data_dir(), dep.data_dir());
    let (_, key) = company_and_key(&a_dir, 1);
    let limit = ["--rate-limit", "1", "--rate-burst", "3"];
    let nodes: Vec<Server> = [&a_dir, &b_dir]
        .iter()
        .map(|d| {
            let mut args = vec!["--workers", "0", "--files", &dep.files];
            args.extend(limit);
            Server::start(d, &args)
        })
        .collect();
    // Six requests at once, alternating between the nodes: the burst of 3 is for the key, not
    // for each node.
    let c = client();
    let statuses: Vec<u16> = (0..6)
        .map(|i| {
            c.get(nodes[i % 2].url("/api/v1/auth/limits"))
                .bearer_auth(&key)
                .send()
                .unwrap()
                .status()
                .as_u16()
        })
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        3,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        3,
        "{statuses:?}"
    );
}

#[test]
fn nodes_reach_postgres_over_verified_tls_and_refuse_an_unverified_server() {
    if postgres::already_on_postgres() {
        return;
    }
    // A cluster that accepts TLS connections only, with a certificate of its own CA.
    let cluster = postgres::tls_cluster();
    let url = cluster.create_database("over_tls");
    let ca = cluster.ca.as_ref().unwrap().display().to_string();
    let admin_with = |database: &str| {
        let dir = tempfile::tempdir().unwrap();
        std::process::Command::new(bin())
            .args(["admin", "company", "create", "--name", "TLS", "--data-dir"])
            .arg(dir.path())
            .args(["--database", database])
            .output()
            .unwrap()
    };
    // Without the CA the server's certificate is not trusted; in the clear the cluster refuses.
    for database in [
        format!("{url}?sslmode=require"),
        format!("{url}?sslmode=disable"),
    ] {
        let out = admin_with(&database);
        assert!(!out.status.success(), "{database}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("database"), "{database}: {err}");
    }
    let unverified = admin_with(&format!("{url}?sslmode=require"));
    assert!(
        String::from_utf8_lossy(&unverified.stderr).contains("certificate"),
        "{}",
        String::from_utf8_lossy(&unverified.stderr)
    );
    // With it (libpq's sslrootcert), an admin command and a node work end to end.
    let database = format!("{url}?sslmode=require&sslrootcert={ca}");
    let out = admin_with(&database);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    // (The harness maps data directories to databases in one table, whatever the cluster.)
    postgres::cluster().assign(dir.path(), &database);
    let (_, key) = company_and_key(dir.path(), 5);
    let s = Server::start(dir.path(), &["--workers", "1"]);
    let (st, v) = upload(&s, &key, "tls-1", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 202, "{v}");
    let done = wait_final(
        &s,
        &key,
        v["operation_id"].as_str().unwrap(),
        Duration::from_secs(120),
    );
    assert_eq!(done["status"], "PROCESSED", "{done}");
}
