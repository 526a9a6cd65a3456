//! PDF page counting for `selected_pages` at upload runs in a child process (`folio page-count`):
//! its answers, and a child that fails (here: pdfium out of address space) answered 422
//! INVALID_SELECTED_PAGES while the server goes on.

mod common;

use common::*;
use serde_json::Value;
use std::process::Command;

fn page_count(file: &str, extra: &[&str]) -> Value {
    let out = Command::new(bin())
        .arg("page-count")
        .arg(fixture(file))
        .args(extra)
        .output()
        .expect("folio page-count runs");
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).expect("one JSON answer")
}

#[test]
fn the_page_counter_answers_pages_or_a_coded_error() {
    assert_eq!(page_count("invoice_de_text.pdf", &[])["pages"], 1);
    let v = page_count("bad_truncated.pdf", &["--memory-mb", "2048"]);
    assert_eq!(v["error"]["code"], "CORRUPT_FILE", "{v}");
}

/// A one-page PDF whose cross-reference table lists `entries` objects (each but the first few
/// pointing at the page): pdfium holds an entry for each while it opens the file.
fn pdf_with_a_long_xref(entries: usize) -> Vec<u8> {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {entries}\n0000000000 65535 f \n").as_bytes());
    for i in 1..entries {
        let at = offsets[(i - 1).min(offsets.len() - 1)];
        out.extend_from_slice(format!("{at:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {entries} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n")
            .as_bytes(),
    );
    out
}

#[test]
fn a_page_counter_that_fails_is_a_422_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = company_and_key(dir.path(), 10);
    // No workers (they could not start under this limit); the counter gets 1 MB of address
    // space once pdfium is bound, and pdfium aborts opening a long cross-reference table.
    let s = Server::start(dir.path(), &["--workers", "0", "--worker-memory-mb", "1"]);
    let pdf = pdf_with_a_long_xref(300_000);
    let f = form_bytes(vec![("long.pdf".into(), pdf)]).text("selected_pages", "1");
    let (st, body) = upload(&s, &key, "pc-1", f);
    assert_eq!(
        (st, body["error"]["code"].as_str()),
        (422, Some("INVALID_SELECTED_PAGES")),
        "{body}"
    );
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("pages cannot be counted"), "{body}");
    // The server is still there, and a PDF pdfium opens within the limit is counted.
    let f = form(&["invoice_de_text.pdf"]).text("selected_pages", "1");
    let (st, body) = upload(&s, &key, "pc-2", f);
    assert_eq!(st, 202, "{body}");
}
