//! `folio serve --engine-config`: the budgets an operator sets there bind every document the
//! server recognises (the company's limits set only the file size and the page count).

mod common;

use common::*;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(120);

#[test]
fn the_engine_configuration_budgets_bind_server_documents() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("engine.json");
    std::fs::write(&config, r#"{"limits":{"max_text_chars":10}}"#).unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    let s = Server::start(dir.path(), &["--engine-config", config.to_str().unwrap()]);
    let (st, created) = upload(&s, &key, "budget-1", form(&["invoice_en_docx.docx"]));
    assert_eq!(st, 202, "{created}");
    let v = wait_final(&s, &key, created["operation_id"].as_str().unwrap(), LONG);
    let doc = &v["documents"][0];
    assert_eq!(doc["status"], "REJECTED", "{v}");
    assert_eq!(doc["error"]["code"], "FILE_TOO_LARGE", "{v}");
    let message = doc["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("limits.max_text_chars"), "{v}");
}
