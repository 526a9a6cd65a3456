//! `folio migrate`: an embedded installation (SQLite + files) moved into PostgreSQL and an
//! S3-compatible object store loses no company, key, operation, document, result, file or
//! delivery, and a node on the new storage goes on where the old server stopped.

mod common;

use common::*;
use serde_json::Value;
use std::process::Command;
use std::time::Duration;

fn migrate(data_dir: &std::path::Path, database: &str, files: &str) -> (i32, Value) {
    let out = Command::new(bin())
        .args(["migrate", "--data-dir"])
        .arg(data_dir)
        .args(["--database", database, "--files", files])
        .envs(s3::store().env())
        .output()
        .expect("folio migrate runs");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "migrate printed no JSON ({e}): {} {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

#[test]
fn an_embedded_installation_moves_into_postgres_and_an_object_store_whole() {
    if postgres::already_on_postgres() {
        return;
    }
    // The embedded installation: a company, its key and webhook, two operations processed and
    // their events delivered; then the server is stopped.
    let old = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(old.path(), 20);
    let receiver = Receiver::start(|_| 200, Duration::ZERO);
    default_webhook(old.path(), &co, &receiver.url);
    let mut s = Server::start(old.path(), &["--workers", "2"]);
    let mut ops = Vec::new();
    for (i, files) in [
        vec!["invoice_de_text.pdf", "receipt_de_text.pdf"],
        vec!["invoice_en_text.pdf", "bad_empty.pdf"],
    ]
    .iter()
    .enumerate()
    {
        let (st, v) = upload(&s, &key, &format!("old-{i}"), form(files));
        assert_eq!(st, 202, "{v}");
        ops.push(v["operation_id"].as_str().unwrap().to_string());
    }
    let mut before = Vec::new();
    for op in &ops {
        before.push(wait_final(&s, &key, op, Duration::from_secs(120)));
    }
    receiver.wait_for(Duration::from_secs(60), |r| {
        r.iter()
            .filter(|x| x.json()["event"] == "operation.completed")
            .count()
            == 2
    });
    std::thread::sleep(Duration::from_millis(300));
    // Every delivery settled (a document's event may still be on its way when the operation's
    // completion has arrived), so the state compared after the move is a still one.
    let webhooks_before: Vec<Value> = ops
        .iter()
        .map(|op| {
            let start = std::time::Instant::now();
            loop {
                let (st, v) = get(&s, &key, &format!("/api/v1/operations/{op}/webhook"));
                assert_eq!(st, 200, "{v}");
                let deliveries = v["deliveries"].as_array().unwrap();
                if !deliveries.is_empty() && deliveries.iter().all(|d| d["status"] == "DELIVERED") {
                    return v;
                }
                assert!(start.elapsed() < Duration::from_secs(60), "{v}");
                std::thread::sleep(Duration::from_millis(50));
            }
        })
        .collect();
    // The operations as they stand now that their deliveries are settled too.
    let before: Vec<Value> = ops
        .iter()
        .map(|op| get(&s, &key, &format!("/api/v1/operations/{op}")).1)
        .collect();
    let (_, limits_before) = get(&s, &key, "/api/v1/auth/limits");
    let doc = before[0]["documents"][0]["document_id"]
        .as_str()
        .unwrap()
        .to_string();
    let source_before = client()
        .get(s.url(&format!("/api/v1/documents/{doc}/artifacts/source_file")))
        .bearer_auth(&key)
        .send()
        .unwrap()
        .bytes()
        .unwrap();
    s.signal("TERM");
    s.wait_exit(Duration::from_secs(60));

    // Into PostgreSQL and a bucket; twice (a second run finds everything there and adds
    // nothing).
    let database = postgres::cluster().create_database("migrated");
    s3::store().create_bucket("migrated");
    let files = "s3://migrated/folio";
    let (code, report) = migrate(old.path(), &database, files);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["complete"], true, "{report}");
    assert_eq!(report["tables"]["operations"]["source"], 2, "{report}");
    assert_eq!(report["tables"]["documents"]["target"], 4, "{report}");
    // Three stored files (the empty one was rejected at upload and never stored).
    assert_eq!(report["files"]["copied"], 3, "{report}");
    assert_eq!(s3::store().objects("migrated").len(), 3);
    let (code, again) = migrate(old.path(), &database, files);
    assert_eq!(code, 0, "{again}");
    assert_eq!(again["tables"], report["tables"]);
    assert_eq!(s3::store().objects("migrated").len(), 3);

    // A node on the new storage: the same key, the same operations, results, deliveries,
    // balance and files.
    let new = tempfile::tempdir().unwrap();
    postgres::cluster().assign(new.path(), &database);
    let n = Server::start_on(
        new.path(),
        ANY_PORT,
        ServerEnv::ObjectStore,
        &[
            "--allow-http-webhooks",
            "--allow-private-webhooks",
            "--files",
            files,
        ],
    );
    for (op, was) in ops.iter().zip(&before) {
        let (st, now) = get(&n, &key, &format!("/api/v1/operations/{op}"));
        assert_eq!(st, 200);
        assert_eq!(&now, was);
    }
    for (op, was) in ops.iter().zip(&webhooks_before) {
        let (_, now) = get(&n, &key, &format!("/api/v1/operations/{op}/webhook"));
        assert_eq!(&now, was);
    }
    let (_, limits) = get(&n, &key, "/api/v1/auth/limits");
    assert_eq!(
        limits["balance_documents"],
        limits_before["balance_documents"]
    );
    let source = client()
        .get(n.url(&format!("/api/v1/documents/{doc}/artifacts/source_file")))
        .bearer_auth(&key)
        .send()
        .unwrap();
    assert_eq!(source.status().as_u16(), 200);
    assert_eq!(source.bytes().unwrap(), source_before);
    // And it goes on: a new upload is processed, charged and announced.
    let (st, v) = upload(&n, &key, "new-0", form(&["invoice_fr_text.pdf"]));
    assert_eq!(st, 202, "{v}");
    let done = wait_final(
        &n,
        &key,
        v["operation_id"].as_str().unwrap(),
        Duration::from_secs(120),
    );
    assert_eq!(
        done["documents"][0]["billing"]["documents_charged"], 1,
        "{done}"
    );
    receiver.wait_for(Duration::from_secs(60), |r| {
        r.iter()
            .filter(|x| x.json()["event"] == "operation.completed")
            .count()
            == 3
    });
}

#[test]
fn migrate_refuses_a_directory_without_an_installation() {
    let empty = tempfile::tempdir().unwrap();
    let (code, v) = migrate(
        empty.path(),
        "postgres://nobody@127.0.0.1:1/none",
        "/tmp/unused",
    );
    assert_eq!(code, 3, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("no embedded database"),
        "{v}"
    );
}
