//! The HTTP contract over real HTTP on 127.0.0.1: the `folio` binary serving a temporary data
//! directory, admin commands on it, a webhook receiver, OpenAPI schemas checked on the answers.

mod common;

use common::*;
use reqwest::blocking::multipart;
use serde_json::{Value, json};
use std::time::Duration;

const LONG: Duration = Duration::from_secs(120);

#[test]
fn full_lifecycle_with_signed_webhooks_artifacts_and_signed_links() {
    let dir = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(dir.path(), 10);
    let receiver = Receiver::start(|_| 200, Duration::ZERO);
    let wh = admin(
        dir.path(),
        &[
            "webhook",
            "create",
            "--company",
            &co,
            "--url",
            &receiver.url,
            "--signature-required",
            "--default",
            "--secret",
            "whsec_test",
        ],
    );
    assert_eq!(wh["is_default"], true);
    let s = Server::start(dir.path(), &["--signed-url-ttl", "3"]);
    let doc = openapi(&s);

    let (st, created) = upload(
        &s,
        &key,
        "life-1",
        form(&["invoice_de_text.pdf", "bad_empty.pdf"]),
    );
    assert_eq!(st, 202, "{created}");
    assert_schema(&doc, "CreatedOperation", &created);
    assert_eq!(created["status"], "ACCEPTED");
    assert_eq!(created["files_total"], 2);
    assert_eq!(created["webhook_enabled"], true);
    assert_eq!(created["documents"][0]["status"], "QUEUED");
    assert_eq!(created["documents"][1]["status"], "REJECTED");
    let op = created["operation_id"].as_str().unwrap().to_string();
    let doc_id = created["documents"][0]["document_id"]
        .as_str()
        .unwrap()
        .to_string();

    let v = wait_final(&s, &key, &op, LONG);
    assert_schema(&doc, "Operation", &v);
    assert_eq!(v["status"], "COMPLETED_WITH_REJECTIONS");
    assert_eq!(v["progress"]["total"], 2);
    assert_eq!(v["progress"]["rejected"], 1);
    assert_eq!(v["progress"]["in_progress"], 0);
    let d0 = &v["documents"][0];
    assert!(["PROCESSED", "PROCESSED_WITH_WARNINGS"].contains(&d0["status"].as_str().unwrap()));
    assert_eq!(
        d0["billing"],
        json!({"billable": true, "documents_charged": 1})
    );
    assert_eq!(d0["result"]["document"]["number"], "RE-2024-10457");
    assert_eq!(d0["pages_count"], 1);
    assert_eq!(d0["document_type_code"], "INVOICE");
    let d1 = &v["documents"][1];
    assert_eq!(d1["error"]["code"], "EMPTY_FILE");
    assert_eq!(d1["billing"]["documents_charged"], 0);
    assert!(d1.get("result").is_none());

    // The bare Result: the same in the operation, the document endpoint and the artifact.
    let (st, result) = get(&s, &key, &format!("/api/v1/documents/{doc_id}/result"));
    assert_eq!(st, 200);
    assert_schema(&doc, "Result", &result);
    assert_eq!(result, d0["result"]);
    let (st, results) = get(&s, &key, &format!("/api/v1/operations/{op}/results"));
    assert_eq!(st, 200);
    assert_schema(&doc, "Results", &results);
    assert_eq!(results["results"][0]["result"], result);
    assert_eq!(results["results"][1]["result"], Value::Null);

    let (st, arts) = get(&s, &key, &format!("/api/v1/documents/{doc_id}/artifacts"));
    assert_eq!(st, 200);
    assert_schema(&doc, "Artifacts", &arts);
    let names: Vec<&str> = arts["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["final_json", "source_file", "text"]);
    let source = std::fs::read(fixture("invoice_de_text.pdf")).unwrap();
    let src = arts["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "source_file")
        .unwrap();
    assert_eq!(src["size_bytes"], source.len());
    assert_eq!(src["content_type"], "application/pdf");
    let c = client();
    let final_json: Value = c
        .get(s.url(&format!("/api/v1/documents/{doc_id}/artifacts/final_json")))
        .bearer_auth(&key)
        .send()
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(final_json, result);
    let got_source = c
        .get(s.url(&format!("/api/v1/documents/{doc_id}/artifacts/source_file")))
        .bearer_auth(&key)
        .send()
        .unwrap()
        .bytes()
        .unwrap();
    assert_eq!(got_source.as_ref(), source.as_slice());
    let text = c
        .get(s.url(&format!("/api/v1/documents/{doc_id}/artifacts/text")))
        .bearer_auth(&key)
        .send()
        .unwrap()
        .text()
        .unwrap();
    assert!(text.contains("RE-2024-10457"), "{text}");

    // Signed link: no Authorization needed; tampering and expiry give 403.
    let (st, signed) = get(
        &s,
        &key,
        &format!("/api/v1/documents/{doc_id}/artifacts/final_json/signed-url"),
    );
    assert_eq!(st, 200);
    assert_schema(&doc, "SignedUrl", &signed);
    let url = signed["url"].as_str().unwrap().to_string();
    let r = c.get(&url).send().unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.json::<Value>().unwrap(), result);
    let tampered = url.replace("final_json", "source_file");
    assert_eq!(c.get(&tampered).send().unwrap().status().as_u16(), 403);
    let last = if url.ends_with('0') { '1' } else { '0' };
    let bad_sig = format!("{}{last}", &url[..url.len() - 1]);
    assert_eq!(c.get(&bad_sig).send().unwrap().status().as_u16(), 403);
    std::thread::sleep(Duration::from_millis(4100));
    let r = c.get(&url).send().unwrap();
    assert_eq!(r.status().as_u16(), 403);
    assert_eq!(
        r.json::<Value>().unwrap()["error"]["code"],
        "SIGNED_URL_EXPIRED"
    );

    // Webhooks: document.processed, document.rejected, operation.completed, signed.
    let got = receiver.wait_for(LONG, |r| r.len() >= 3);
    let mut events: Vec<String> = got
        .iter()
        .map(|r| r.header("X-Folio-Event").unwrap().to_string())
        .collect();
    events.sort();
    assert_eq!(
        events,
        [
            "document.processed",
            "document.rejected",
            "operation.completed"
        ]
    );
    for r in &got {
        assert_eq!(r.path, "/hook");
        assert_eq!(r.header("content-type"), Some("application/json"));
        let ts = r.header("X-Folio-Timestamp").unwrap();
        let mut msg = ts.as_bytes().to_vec();
        msg.push(b'.');
        msg.extend_from_slice(&r.body);
        let expected = format!("sha256={}", hmac_sha256_hex(b"whsec_test", &msg));
        assert_eq!(r.header("X-Folio-Signature"), Some(expected.as_str()));
        let age = chrono_now() - ts.parse::<i64>().unwrap();
        assert!(age.abs() < 300);
        let body = r.json();
        assert_eq!(body["event"], body["event_type"]);
        assert_eq!(r.header("X-Folio-Event-Id").unwrap(), body["event_id"]);
        assert_eq!(r.header("X-Folio-Operation-Id").unwrap(), op);
        assert!(r.header("X-Folio-Delivery-Id").unwrap().starts_with("dlv_"));
        if body["event"] == "operation.completed" {
            assert_schema(&doc, "OperationEvent", &body);
            assert_eq!(body["status"], "COMPLETED_WITH_REJECTIONS");
            assert_eq!(body["summary"]["files_total"], 2);
            assert!(r.header("X-Folio-Document-Id").is_none());
        } else {
            assert_schema(&doc, "DocumentEvent", &body);
            assert_eq!(
                r.header("X-Folio-Document-Id").unwrap(),
                body["document_id"]
            );
        }
    }
    let (st, state) = get(&s, &key, &format!("/api/v1/operations/{op}/webhook"));
    assert_eq!(st, 200);
    assert_schema(&doc, "WebhookState", &state);
    assert_eq!(state["webhook_enabled"], true);
    assert_eq!(state["url"], receiver.url);
    let deliveries = state["deliveries"].as_array().unwrap();
    assert_eq!(deliveries.len(), 3);
    for d in deliveries {
        assert_eq!(d["status"], "DELIVERED");
        assert_eq!(d["attempts"][0]["http_status"], 200);
        assert_eq!(d["next_attempt_at"], Value::Null);
    }

    // Billing: one document charged.
    let (st, limits) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(st, 200);
    assert_schema(&doc, "Limits", &limits);
    assert_eq!(limits["balance_documents"], 9);
    assert_eq!(limits["reserved_documents"], 0);
    assert_eq!(limits["available_documents"], 9);
    assert_eq!(limits["monthly_used_documents"], 1);
    assert_eq!(limits["monthly_document_limit"], Value::Null);
    assert_eq!(limits["monthly_available_documents"], Value::Null);
    assert_eq!(limits["max_files_per_operation"], 20);
    assert_eq!(limits["company_id"], co);
}

fn chrono_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

#[test]
fn authentication_and_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(dir.path(), 5);
    let reader = admin(
        dir.path(),
        &[
            "key",
            "create",
            "--company",
            &co,
            "--permissions",
            "operations:read",
        ],
    );
    let reader_key = reader["api_key"].as_str().unwrap().to_string();
    let (_, other_key) = company_and_key(dir.path(), 5);
    let s = Server::start(dir.path(), &[]);
    let c = client();

    // No key, malformed, unknown, wrong secret.
    let r = c.get(s.url("/api/v1/auth/limits")).send().unwrap();
    assert_eq!(r.status().as_u16(), 401);
    assert_eq!(r.json::<Value>().unwrap()["error"]["code"], "UNAUTHORIZED");
    for bad in [
        "nonsense",
        "fk_0123456789abcdef01234567_x",
        &format!("{}x", &key),
    ] {
        assert_eq!(get(&s, bad, "/api/v1/auth/limits").0, 401, "{bad}");
    }
    // Authentication comes before anything else in the request (no Idempotency-Key here).
    let r = c
        .post(s.url("/api/v1/operations"))
        .bearer_auth("bad")
        .send()
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);

    // Permissions: 403.
    assert_eq!(get(&s, &reader_key, "/api/v1/auth/limits").0, 403);
    let (st, body) = upload(&s, &reader_key, "p-1", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 403, "{body}");
    assert_eq!(body["error"]["code"], "FORBIDDEN");

    // Another company's ids: 404, never 403.
    let (st, created) = upload(&s, &key, "p-2", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 202);
    let op = created["operation_id"].as_str().unwrap();
    let doc = created["documents"][0]["document_id"].as_str().unwrap();
    assert_eq!(
        get(&s, &reader_key, &format!("/api/v1/operations/{op}")).0,
        200
    );
    for path in [
        format!("/api/v1/operations/{op}"),
        format!("/api/v1/operations/{op}/results"),
        format!("/api/v1/operations/{op}/webhook"),
        format!("/api/v1/documents/{doc}/result"),
        format!("/api/v1/documents/{doc}/artifacts"),
    ] {
        let (st, body) = get(&s, &other_key, &path);
        assert_eq!(st, 404, "{path}: {body}");
        assert_eq!(body["error"]["code"], "NOT_FOUND");
    }
    let r = c
        .post(s.url(&format!("/api/v1/operations/{op}/cancel")))
        .bearer_auth(&other_key)
        .send()
        .unwrap();
    assert_eq!(r.status().as_u16(), 404);

    // Revoked keys stop working at once.
    admin(
        dir.path(),
        &[
            "key",
            "revoke",
            "--key-id",
            reader["api_key_id"].as_str().unwrap(),
        ],
    );
    assert_eq!(
        get(&s, &reader_key, &format!("/api/v1/operations/{op}")).0,
        401
    );
    wait_final(&s, &key, op, LONG);
}

#[test]
fn request_errors_have_the_contract_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(dir.path(), 50);
    let small = admin(
        dir.path(),
        &[
            "company",
            "create",
            "--name",
            "Small",
            "--balance",
            "5",
            "--max-files",
            "2",
        ],
    );
    let small_key = admin(
        dir.path(),
        &[
            "key",
            "create",
            "--company",
            small["company_id"].as_str().unwrap(),
            "--permissions",
            "operations:write",
        ],
    )["api_key"]
        .as_str()
        .unwrap()
        .to_string();
    let _ = co;
    let s = Server::start(dir.path(), &[]);
    let doc = openapi(&s);
    let c = client();
    let code = |r: reqwest::blocking::Response| -> (u16, String) {
        let st = r.status().as_u16();
        let v: Value = r.json().unwrap_or(Value::Null);
        assert_schema(&doc, "Error", &v);
        (
            st,
            v["error"]["code"].as_str().unwrap_or_default().to_string(),
        )
    };
    // Missing Idempotency-Key.
    let r = c
        .post(s.url("/api/v1/operations"))
        .bearer_auth(&key)
        .multipart(form(&["invoice_de_text.pdf"]))
        .send()
        .unwrap();
    assert_eq!(code(r), (400, "IDEMPOTENCY_KEY_REQUIRED".into()));
    // Not multipart; multipart without a boundary.
    let r = c
        .post(s.url("/api/v1/operations"))
        .bearer_auth(&key)
        .header("Idempotency-Key", "e-1")
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .unwrap();
    assert_eq!(code(r).0, 400);
    let r = c
        .post(s.url("/api/v1/operations"))
        .bearer_auth(&key)
        .header("Idempotency-Key", "e-2")
        .header("content-type", "multipart/form-data")
        .body("xx")
        .send()
        .unwrap();
    assert_eq!(code(r).0, 400);
    // No files.
    let f = multipart::Form::new().text("metadata", "x");
    let (st, body) = upload(&s, &key, "e-3", f);
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (400, "NO_FILES")
    );
    // Too many files for the company.
    let (st, body) = upload(
        &s,
        &small_key,
        "e-4",
        form(&[
            "invoice_de_text.pdf",
            "invoice_en_text.pdf",
            "invoice_fr_text.pdf",
        ]),
    );
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (422, "TOO_MANY_FILES")
    );
    // selected_pages: only with exactly one PDF; 0, reversed ranges, past the end.
    let two = form(&["invoice_de_text.pdf", "invoice_en_text.pdf"]).text("selected_pages", "1");
    let (st, body) = upload(&s, &key, "e-5", two);
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (422, "INVALID_SELECTED_PAGES")
    );
    let png = form(&["invoice_de_scan.png"]).text("selected_pages", "1");
    assert_eq!(upload(&s, &key, "e-6", png).0, 422);
    for (i, spec) in ["0", "2-1", "2", "1,x"].iter().enumerate() {
        let f = form(&["invoice_de_text.pdf"]).text("selected_pages", spec.to_string());
        let (st, body) = upload(&s, &key, &format!("e-7-{i}"), f);
        assert_eq!(
            (st, body["error"]["code"].as_str().unwrap()),
            (422, "INVALID_SELECTED_PAGES"),
            "{spec}"
        );
    }
    // Bad webhook URL, bad use_heavy_ai.
    for (i, u) in [
        "not a url",
        "ftp://example.com/x",
        "http://user:pw@127.0.0.1/x",
    ]
    .iter()
    .enumerate()
    {
        let f = form(&["invoice_de_text.pdf"]).text("webhook_url", u.to_string());
        let (st, body) = upload(&s, &key, &format!("e-8-{i}"), f);
        assert_eq!(
            (st, body["error"]["code"].as_str().unwrap()),
            (422, "INVALID_WEBHOOK_URL"),
            "{u}"
        );
    }
    let f = form(&["invoice_de_text.pdf"]).text("use_heavy_ai", "maybe");
    let (st, body) = upload(&s, &key, "e-9", f);
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (422, "INVALID_USE_HEAVY_AI")
    );
    // A key used by a failed request is free again.
    let (st, _) = upload(&s, &key, "e-9", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 202);
    // Unknown route, wrong method.
    let r = c
        .get(s.url("/api/v1/nothing"))
        .bearer_auth(&key)
        .send()
        .unwrap();
    assert_eq!(code(r), (404, "HTTP_ERROR".into()));
    let r = c
        .delete(s.url("/api/v1/operations"))
        .bearer_auth(&key)
        .send()
        .unwrap();
    assert_eq!(code(r), (405, "HTTP_ERROR".into()));
    // Unknown operation.
    let (st, body) = get(&s, &key, "/api/v1/operations/op_000000000000000000000000");
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (404, "NOT_FOUND")
    );
    assert!(body["request_id"].as_str().unwrap().starts_with("req_"));
}

#[test]
fn idempotency_replays_conflicts_and_races() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 100);
    let s = Server::start(dir.path(), &[]);
    let (st, first) = upload(&s, &key, "same", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 202);
    // Same key, same request (another boundary): the first response.
    let (st, again) = upload(&s, &key, "same", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 202);
    assert_eq!(again, first);
    // Same key, other request: 409.
    let (st, body) = upload(&s, &key, "same", form(&["invoice_en_text.pdf"]));
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (409, "IDEMPOTENCY_CONFLICT")
    );
    let (st, body) = upload(
        &s,
        &key,
        "same",
        form(&["invoice_de_text.pdf"]).text("metadata", "x"),
    );
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (409, "IDEMPOTENCY_CONFLICT")
    );

    // Eight concurrent uploads with one new key create one operation.
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let (url, k) = (s.url("/api/v1/operations"), key.clone());
            std::thread::spawn(move || {
                let r = client()
                    .post(url)
                    .bearer_auth(k)
                    .header("Idempotency-Key", "race")
                    .multipart(form(&["invoice_fr_text.pdf"]))
                    .send()
                    .unwrap();
                (r.status().as_u16(), r.json::<Value>().unwrap())
            })
        })
        .collect();
    let answers: Vec<(u16, Value)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let ops: std::collections::BTreeSet<String> = answers
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
    // Two operations in all were created and reserved (1 + 1 documents).
    let (_, limits) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(
        limits["reserved_documents"].as_i64().unwrap() + 100
            - limits["balance_documents"].as_i64().unwrap(),
        2
    );
}

#[test]
fn billing_rules_and_invariants_under_concurrent_uploads() {
    let dir = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(dir.path(), 10);
    let limited = admin(
        dir.path(),
        &[
            "key",
            "create",
            "--company",
            &co,
            "--permissions",
            "operations:write,usage:read",
            "--monthly-limit",
            "2",
        ],
    );
    let limited_key = limited["api_key"].as_str().unwrap().to_string();
    let s = Server::start(dir.path(), &["--workers", "1"]);

    // Enhanced recognition needs 11 available documents.
    let f = form(&["invoice_de_text.pdf"]).text("use_heavy_ai", "true");
    let (st, body) = upload(&s, &key, "b-1", f);
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (402, "HEAVY_AI_MINIMUM_BALANCE_REQUIRED")
    );
    // Monthly key limit.
    let (st, body) = upload(
        &s,
        &limited_key,
        "b-2",
        form(&[
            "invoice_de_text.pdf",
            "invoice_en_text.pdf",
            "invoice_fr_text.pdf",
        ]),
    );
    assert_eq!(
        (st, body["error"]["code"].as_str().unwrap()),
        (402, "MONTHLY_LIMIT_EXCEEDED")
    );
    let (st, _) = upload(
        &s,
        &limited_key,
        "b-3",
        form(&["invoice_de_text.pdf", "invoice_en_text.pdf"]),
    );
    assert_eq!(st, 202);
    let (_, l) = get(&s, &limited_key, "/api/v1/auth/limits");
    assert_eq!(l["monthly_document_limit"], 2);
    assert_eq!(
        l["monthly_used_documents"].as_i64().unwrap()
            + l["monthly_reserved_documents"].as_i64().unwrap(),
        2
    );
    assert_eq!(l["monthly_available_documents"], 0);

    // 12 concurrent single-file uploads against 8 available documents: 8 accepted, 4 refused.
    let threads: Vec<_> = (0..12)
        .map(|i| {
            let (url, k) = (s.url("/api/v1/operations"), key.clone());
            std::thread::spawn(move || {
                let r = client()
                    .post(url)
                    .bearer_auth(k)
                    .header("Idempotency-Key", format!("c-{i}"))
                    .multipart(form(&["invoice_de_text.pdf"]))
                    .send()
                    .unwrap();
                (r.status().as_u16(), r.json::<Value>().unwrap())
            })
        })
        .collect();
    let answers: Vec<(u16, Value)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let accepted: Vec<String> = answers
        .iter()
        .filter(|a| a.0 == 202)
        .map(|a| a.1["operation_id"].as_str().unwrap().to_string())
        .collect();
    let refused = answers
        .iter()
        .filter(|a| a.0 == 402 && a.1["error"]["code"] == "INSUFFICIENT_BALANCE")
        .count();
    assert_eq!((accepted.len(), refused), (8, 4), "{answers:#?}");
    let (_, l) = get(&s, &limited_key, "/api/v1/auth/limits");
    assert!(l["available_documents"].as_i64().unwrap() >= 0);
    assert_eq!(l["available_documents"], 0);
    for op in &accepted {
        wait_final(&s, &key, op, LONG);
    }
    // All finished: nothing reserved, one charge per processed document.
    let (_, l) = get(&s, &limited_key, "/api/v1/auth/limits");
    assert_eq!(l["reserved_documents"], 0);
    assert_eq!(l["balance_documents"], 0);
    assert_eq!(l["monthly_used_documents"], 2);
}

#[test]
fn enhanced_recognition_costs_three_and_uses_the_company_default() {
    let dir = tempfile::tempdir().unwrap();
    let c = admin(
        dir.path(),
        &[
            "company",
            "create",
            "--name",
            "Heavy",
            "--balance",
            "20",
            "--heavy-default",
            "true",
        ],
    );
    let co = c["company_id"].as_str().unwrap();
    let key = admin(
        dir.path(),
        &[
            "key",
            "create",
            "--company",
            co,
            "--permissions",
            "operations:write,operations:read,usage:read",
        ],
    )["api_key"]
        .as_str()
        .unwrap()
        .to_string();
    let s = Server::start(dir.path(), &[]);
    let (st, created) = upload(&s, &key, "h-1", form(&["invoice_de_text.pdf"]));
    assert_eq!(st, 202);
    let (_, l) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(l["reserved_documents"], 3);
    let v = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(v["use_heavy_ai"], true);
    assert_eq!(v["documents"][0]["billing"]["documents_charged"], 3);
    assert_eq!(v["documents"][0]["result"]["super_ai_used"], true);
    let (_, l) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(
        (
            l["balance_documents"].as_i64(),
            l["reserved_documents"].as_i64()
        ),
        (Some(17), Some(0))
    );
    // Explicit false overrides the default: 1 unit, no enhanced recognition.
    let f = form(&["invoice_en_text.pdf"]).text("use_heavy_ai", "false");
    let (_, created) = upload(&s, &key, "h-2", f);
    let v = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(v["documents"][0]["billing"]["documents_charged"], 1);
    assert_eq!(v["documents"][0]["result"]["super_ai_used"], false);
}

#[test]
fn webhook_retries_until_the_receiver_recovers_and_fails_after_the_last_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(dir.path(), 10);
    // Fails the first two attempts of every delivery, then accepts.
    let seen = std::sync::Mutex::new(std::collections::HashMap::<String, u32>::new());
    let flaky = Receiver::start_with(
        move |r| {
            let mut m = seen.lock().unwrap();
            let n = m
                .entry(r.header("X-Folio-Delivery-Id").unwrap_or("").to_string())
                .or_default();
            *n += 1;
            if *n <= 2 { 500 } else { 204 }
        },
        Duration::ZERO,
    );
    admin(
        dir.path(),
        &[
            "webhook",
            "create",
            "--company",
            &co,
            "--url",
            &flaky.url,
            "--default",
            "--max-attempts",
            "4",
            "--retry-delays",
            "1,1,1",
        ],
    );
    let s = Server::start(dir.path(), &[]);
    let (_, created) = upload(&s, &key, "w-1", form(&["invoice_de_text.pdf"]));
    let op = created["operation_id"].as_str().unwrap().to_string();
    wait_final(&s, &key, &op, LONG);
    let got = flaky.wait_for(LONG, |r| r.len() >= 6);
    // Unsigned webhook: no signature header.
    assert!(got[0].header("X-Folio-Signature").is_none());
    // The same delivery and event ids on every attempt of an event.
    let first = got[0].header("X-Folio-Delivery-Id").unwrap().to_string();
    let same: Vec<&Received> = got
        .iter()
        .filter(|r| r.header("X-Folio-Delivery-Id") == Some(first.as_str()))
        .collect();
    assert!(same.len() >= 2);
    assert!(
        same.iter()
            .all(|r| r.header("X-Folio-Event-Id") == same[0].header("X-Folio-Event-Id"))
    );
    let start = std::time::Instant::now();
    loop {
        let (_, state) = get(&s, &key, &format!("/api/v1/operations/{op}/webhook"));
        let ds = state["deliveries"].as_array().unwrap();
        if ds.len() == 2 && ds.iter().all(|d| d["status"] == "DELIVERED") {
            let d = ds
                .iter()
                .find(|d| d["delivery_id"] == first.as_str())
                .unwrap();
            let attempts = d["attempts"].as_array().unwrap();
            assert_eq!(attempts.len(), 3, "{d}");
            assert_eq!(attempts[0]["http_status"], 500);
            assert_eq!(attempts[0]["error"], "HTTP 500");
            assert_eq!(attempts[2]["http_status"], 204);
            assert_eq!(
                attempts
                    .iter()
                    .map(|a| a["attempt"].as_i64().unwrap())
                    .collect::<Vec<_>>(),
                [1, 2, 3]
            );
            break;
        }
        assert!(start.elapsed() < LONG, "{state}");
        std::thread::sleep(Duration::from_millis(200));
    }

    // A dead receiver: FAILED after the last attempt, processing unaffected.
    let dead = Receiver::start(|_| 503, Duration::ZERO);
    let f = form(&["invoice_en_text.pdf"]).text("webhook_url", dead.url.clone());
    let (_, created) = upload(&s, &key, "w-2", f);
    let op = created["operation_id"].as_str().unwrap().to_string();
    let v = wait_final(&s, &key, &op, LONG);
    assert!(v["status"].as_str().unwrap().starts_with("PROCESSED"));
    let start = std::time::Instant::now();
    loop {
        let (_, state) = get(&s, &key, &format!("/api/v1/operations/{op}/webhook"));
        assert_eq!(state["url"], dead.url);
        let ds = state["deliveries"].as_array().unwrap();
        // A per-upload URL is retried by the company default's settings (4 attempts).
        if ds.len() == 2 && ds.iter().all(|d| d["status"] == "FAILED") {
            assert!(
                ds.iter()
                    .all(|d| d["attempts"].as_array().unwrap().len() == 4)
            );
            break;
        }
        assert!(start.elapsed() < LONG, "{state}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_slow_receiver_does_not_hold_processing() {
    let dir = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(dir.path(), 10);
    let slow = Receiver::start(|_| 200, Duration::from_secs(4));
    admin(
        dir.path(),
        &[
            "webhook",
            "create",
            "--company",
            &co,
            "--url",
            &slow.url,
            "--default",
        ],
    );
    let s = Server::start(dir.path(), &[]);
    let started = std::time::Instant::now();
    let (_, a) = upload(&s, &key, "s-1", form(&["invoice_de_text.pdf"]));
    let (_, b) = upload(&s, &key, "s-2", form(&["invoice_en_text.pdf"]));
    wait_final(&s, &key, a["operation_id"].as_str().unwrap(), LONG);
    wait_final(&s, &key, b["operation_id"].as_str().unwrap(), LONG);
    // Both operations finished while the receiver was still sleeping on the first event.
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    slow.wait_for(LONG, |r| r.len() >= 4);
}

#[test]
fn odd_uploads_become_rejected_documents_not_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 20);
    let s = Server::start(dir.path(), &[]);
    // A PNG header claiming 60000 x 60000 pixels: a decompression bomb.
    let mut bomb = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bomb.extend_from_slice(&60000u32.to_be_bytes());
    bomb.extend_from_slice(&60000u32.to_be_bytes());
    bomb.extend_from_slice(&[8, 0, 0, 0, 0, 0, 0, 0, 0]);
    bomb.extend_from_slice(&[0u8; 64]);
    let files = vec![
        (
            "../../../../etc/passwd.pdf".to_string(),
            std::fs::read(fixture("invoice_de_text.pdf")).unwrap(),
        ),
        ("empty.pdf".to_string(), Vec::new()),
        (
            "invoice.pdf".to_string(),
            b"this is plain text, not a PDF".to_vec(),
        ),
        ("bomb.png".to_string(), bomb),
        (
            "Рахунок \"№5\" ☃.pdf".to_string(),
            std::fs::read(fixture("invoice_en_text.pdf")).unwrap(),
        ),
        // Pre-recognised words are a library input, not one of the contract's file types.
        (
            "words.json".to_string(),
            br#"{"pages": [{"width": 100, "height": 100, "words": []}]}"#.to_vec(),
        ),
    ];
    let (st, created) = upload(&s, &key, "o-1", form_bytes(files));
    assert_eq!(st, 202, "{created}");
    let names: Vec<&str> = created["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["filename"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "passwd.pdf",
            "empty.pdf",
            "invoice.pdf",
            "bomb.png",
            "Рахунок \"№5\" ☃.pdf",
            "words.json"
        ]
    );
    let v = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    let codes: Vec<Value> = v["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["error"]["code"].clone())
        .collect();
    assert_eq!(codes[0], Value::Null);
    assert_eq!(codes[1], "EMPTY_FILE");
    assert_eq!(codes[2], "UNSUPPORTED_FILE_TYPE");
    assert_eq!(
        v["documents"][3]["status"], "REJECTED",
        "{}",
        v["documents"][3]
    );
    assert_eq!(codes[4], Value::Null);
    assert_eq!(codes[5], "UNSUPPORTED_FILE_TYPE");
    // Nothing was written outside the data directory's file store.
    let stored: Vec<String> = std::fs::read_dir(dir.path().join("files"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(stored.iter().all(|n| n.starts_with("doc_")), "{stored:?}");
    // The rejected documents reserved nothing and were not charged.
    let (_, l) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(l["reserved_documents"], 0);
    assert_eq!(l["balance_documents"], 18);
}

#[test]
fn xml_e_invoices_are_accepted_uploads() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    let s = Server::start(dir.path(), &[]);
    let files = vec![
        (
            "rechnung.xml".to_string(),
            std::fs::read(fixture("einvoice_cii.xml")).unwrap(),
        ),
        (
            "facturx.pdf".to_string(),
            std::fs::read(fixture("einvoice_facturx_en16931.pdf")).unwrap(),
        ),
        (
            "catalog.xml".to_string(),
            b"<?xml version=\"1.0\"?><catalog><book/></catalog>".to_vec(),
        ),
    ];
    let (st, created) = upload(&s, &key, "xml-1", form_bytes(files));
    assert_eq!(st, 202, "{created}");
    let v = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    let xml = &v["documents"][0];
    assert_eq!(xml["status"], "PROCESSED", "{xml}");
    assert_eq!(xml["result"]["document"]["number"], "FV/2024/03/120");
    assert_eq!(xml["result"]["totals"]["total"], "2424.66");
    assert_eq!(xml["result"]["evidence"], json!({}));
    assert_eq!(xml["pages_count"], 0, "{xml}");
    let truth: Value = serde_json::from_slice(
        &std::fs::read(fixture("einvoice_facturx_en16931.truth.json")).unwrap(),
    )
    .unwrap();
    let pdf = &v["documents"][1];
    assert_eq!(
        pdf["result"]["document"]["number"], truth["number"],
        "{pdf}"
    );
    assert_eq!(
        pdf["result"]["confidence"]["fields"]["/document/number"],
        1.0
    );
    let other = &v["documents"][2];
    assert_eq!(other["error"]["code"], "UNSUPPORTED_FILE_TYPE", "{other}");
    // The stored XML is served back as XML.
    let doc_id = xml["document_id"].as_str().unwrap();
    let (st, arts) = get(&s, &key, &format!("/api/v1/documents/{doc_id}/artifacts"));
    assert_eq!(st, 200, "{arts}");
    let src = arts["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "source_file")
        .unwrap();
    assert_eq!(src["content_type"], "application/xml");
}

#[test]
fn per_company_limits_reject_files_and_pages() {
    let dir = tempfile::tempdir().unwrap();
    let c = admin(
        dir.path(),
        &[
            "company",
            "create",
            "--name",
            "Tight",
            "--balance",
            "10",
            "--max-file-size-mb",
            "1",
            "--max-pages",
            "1",
        ],
    );
    let co = c["company_id"].as_str().unwrap();
    let key = admin(
        dir.path(),
        &[
            "key",
            "create",
            "--company",
            co,
            "--permissions",
            "operations:write,operations:read,usage:read",
        ],
    )["api_key"]
        .as_str()
        .unwrap()
        .to_string();
    let s = Server::start(dir.path(), &[]);
    let big = vec![b'x'; 1024 * 1024 + 10];
    let files = vec![
        ("big.pdf".to_string(), big),
        (
            "pages.tiff".to_string(),
            std::fs::read(fixture("waybill_pl_scan.tiff")).unwrap(),
        ),
    ];
    let (st, created) = upload(&s, &key, "l-1", form_bytes(files));
    assert_eq!(st, 202, "{created}");
    assert_eq!(created["documents"][0]["status"], "REJECTED");
    let v = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(v["documents"][0]["error"]["code"], "FILE_TOO_LARGE");
    assert_eq!(
        v["documents"][1]["error"]["code"], "TOO_MANY_PAGES",
        "{}",
        v["documents"][1]
    );
    assert_eq!(v["status"], "COMPLETED_WITH_REJECTIONS");
    let (_, l) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(
        (
            l["balance_documents"].as_i64(),
            l["reserved_documents"].as_i64()
        ),
        (Some(10), Some(0))
    );
}

#[test]
fn selected_pages_pass_to_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    let s = Server::start(dir.path(), &[]);
    let f = form(&["bad_too_many_pages.pdf"]).text("selected_pages", "1,3-4");
    let (st, created) = upload(&s, &key, "sp-1", f);
    assert_eq!(st, 202, "{created}");
    let v = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(v["selected_pages"], "1,3-4");
    assert_eq!(v["documents"][0]["pages_count"], 3, "{}", v["documents"][0]);
    // Without a selection the 70-page document is over the 60-page limit.
    let (_, created) = upload(&s, &key, "sp-2", form(&["bad_too_many_pages.pdf"]));
    let v = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    assert_eq!(v["documents"][0]["error"]["code"], "TOO_MANY_PAGES");
}

#[test]
fn cancel_releases_reservations_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(dir.path(), 10);
    let receiver = Receiver::start(|_| 200, Duration::ZERO);
    default_webhook(dir.path(), &co, &receiver.url);
    // No workers free: everything stays queued until cancelled.
    let s = Server::start(dir.path(), &["--workers", "1"]);
    let (_, busy) = upload(
        &s,
        &key,
        "x-0",
        form(&["invoice_fr_scan.tiff", "invoice_ru_scan.png"]),
    );
    let (_, created) = upload(
        &s,
        &key,
        "x-1",
        form(&["invoice_de_scan.png", "invoice_en_text.pdf"]),
    );
    let op = created["operation_id"].as_str().unwrap().to_string();
    let r = client()
        .post(s.url(&format!("/api/v1/operations/{op}/cancel")))
        .bearer_auth(&key)
        .send()
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let v: Value = r.json().unwrap();
    assert_schema(&openapi(&s), "Operation", &v);
    assert_eq!(v["status"], "CANCELLED");
    assert!(
        v["documents"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["status"] == "CANCELLED")
    );
    // Cancelling a final operation changes nothing and answers 200.
    let r = client()
        .post(s.url(&format!("/api/v1/operations/{op}/cancel")))
        .bearer_auth(&key)
        .send()
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.json::<Value>().unwrap()["status"], "CANCELLED");
    wait_final(&s, &key, busy["operation_id"].as_str().unwrap(), LONG);
    let (_, l) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(l["reserved_documents"], 0);
    assert_eq!(l["balance_documents"], 8);
    // The cancelled operation still announces its completion.
    receiver.wait_for(LONG, |r| {
        r.iter().any(|x| {
            let b = x.json();
            b["event"] == "operation.completed"
                && b["operation_id"] == op.as_str()
                && b["status"] == "CANCELLED"
        })
    });
}

#[test]
fn kill_9_and_restart_lose_nothing_and_charge_once() {
    let dir = tempfile::tempdir().unwrap();
    let (co, key) = company_and_key(dir.path(), 30);
    let receiver = Receiver::start(|_| 200, Duration::ZERO);
    default_webhook(dir.path(), &co, &receiver.url);
    let mut s = Server::start(dir.path(), &["--workers", "2"]);
    let files = [
        "invoice_de_scan.png",
        "invoice_fr_scan.tiff",
        "invoice_ru_scan.png",
        "waybill_pl_scan.tiff",
        "receipt_en_scan.jpg",
        "invoice_en_scanpdf.pdf",
    ];
    let (st, created) = upload(&s, &key, "k-1", form(&files));
    assert_eq!(st, 202);
    let op = created["operation_id"].as_str().unwrap().to_string();
    // Kill while documents are in the middle of their stages.
    let start = std::time::Instant::now();
    loop {
        let (_, v) = get(&s, &key, &format!("/api/v1/operations/{op}"));
        let working = v["documents"].as_array().unwrap().iter().any(|d| {
            ![
                "QUEUED",
                "PROCESSED",
                "PROCESSED_WITH_WARNINGS",
                "REJECTED",
                "FAILED",
            ]
            .contains(&d["status"].as_str().unwrap())
        });
        if working {
            break;
        }
        assert!(start.elapsed() < LONG);
        std::thread::sleep(Duration::from_millis(20));
    }
    s.kill9();
    let s = s.restart();
    // And once more, later.
    std::thread::sleep(Duration::from_millis(700));
    let s = s.restart();
    let v = wait_final(&s, &key, &op, Duration::from_secs(300));
    assert_eq!(v["progress"]["total"], 6);
    for d in v["documents"].as_array().unwrap() {
        assert!(
            ["PROCESSED", "PROCESSED_WITH_WARNINGS"].contains(&d["status"].as_str().unwrap()),
            "{d}"
        );
        assert_eq!(d["billing"]["documents_charged"], 1, "{d}");
    }
    let (_, l) = get(&s, &key, "/api/v1/auth/limits");
    assert_eq!(
        (
            l["balance_documents"].as_i64(),
            l["reserved_documents"].as_i64()
        ),
        (Some(24), Some(0))
    );
    // One document event per document and one completion, whatever the restarts.
    receiver.wait_for(LONG, |r| {
        r.iter().any(|x| x.json()["event"] == "operation.completed")
    });
    std::thread::sleep(Duration::from_millis(500));
    let got = receiver.received();
    let mut per_doc: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for r in &got {
        let b = r.json();
        if b["event"] == "document.processed" {
            per_doc
                .entry(b["document_id"].as_str().unwrap().to_string())
                .or_default()
                .insert(b["event_id"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(per_doc.len(), 6);
    assert!(per_doc.values().all(|ids| ids.len() == 1), "{per_doc:?}");
}

#[test]
fn rate_limit_answers_429_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 1);
    let s = Server::start(dir.path(), &["--rate-limit", "1", "--rate-burst", "3"]);
    let c = client();
    let statuses: Vec<(u16, Option<String>)> = (0..5)
        .map(|_| {
            let r = c
                .get(s.url("/api/v1/auth/limits"))
                .bearer_auth(&key)
                .send()
                .unwrap();
            (
                r.status().as_u16(),
                r.headers()
                    .get("retry-after")
                    .map(|v| v.to_str().unwrap().to_string()),
            )
        })
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| s.0 == 200).count(),
        3,
        "{statuses:?}"
    );
    let limited = statuses.iter().find(|s| s.0 == 429).expect("a 429");
    assert!(limited.1.as_deref().unwrap().parse::<u64>().unwrap() >= 1);
}

#[test]
fn openapi_health_and_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 1);
    let s = Server::start(dir.path(), &[]);
    let doc = openapi(&s);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(
        doc["components"]["schemas"]["Result"]["properties"]["schema_version"]["const"],
        "1.0"
    );
    // Every documented route answers (not the unknown-route or wrong-method fallback).
    let c = client();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for method in ops.as_object().unwrap().keys() {
            let p = path
                .replace("{operation_id}", "op_000000000000000000000000")
                .replace("{document_id}", "doc_000000000000000000000000")
                .replace("{name}", "final_json");
            let req = match method.as_str() {
                "get" => c.get(s.url(&p)),
                "post" => c.post(s.url(&p)),
                m => panic!("undocumented method {m}"),
            };
            let r = req.bearer_auth(&key).send().unwrap();
            let st = r.status().as_u16();
            let body: Value = r.json().unwrap_or(Value::Null);
            assert_ne!(st, 405, "{method} {path}");
            assert!(
                !(st == 404 && body["error"]["code"] == "HTTP_ERROR"),
                "{method} {path} is not routed"
            );
        }
    }
    let (st, h) = get(&s, &key, "/healthz");
    assert_eq!(st, 200);
    assert_schema(&doc, "Health", &h);
    let m = c.get(s.url("/metrics")).send().unwrap().text().unwrap();
    assert!(
        m.contains("folio_http_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"}"),
        "{m}"
    );
    assert!(m.contains("folio_queue_documents 0"));
}

#[test]
fn webhook_targets_must_be_https_and_public_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 5);
    let s = Server::start_with(dir.path(), &[]);
    for (i, u) in [
        "http://example.com/hook",
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://10.0.0.8/hook",
        "https://[::1]/hook",
        "https://169.254.169.254/latest/meta-data",
        // Embedded IPv4 forms and the rest of the special-purpose table.
        "https://[::127.0.0.1]/hook",
        "https://[64:ff9b::7f00:1]/hook",
        "https://[2002:7f00:1::]/hook",
        "https://198.18.0.1/hook",
        "https://[::ffff:10.0.0.1]/hook",
        "https://[fd00::1]/hook",
        "https://0x7f000001/hook",
    ]
    .iter()
    .enumerate()
    {
        let f = form(&["invoice_de_text.pdf"]).text("webhook_url", u.to_string());
        let (st, body) = upload(&s, &key, &format!("ssrf-{i}"), f);
        assert_eq!(
            (st, body["error"]["code"].as_str().unwrap_or_default()),
            (422, "INVALID_WEBHOOK_URL"),
            "{u}: {body}"
        );
    }
}
