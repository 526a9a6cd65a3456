//! Pre-recognised input (words JSON, hOCR) through the whole engine: the pipeline runs from
//! cleaning onwards (OCR is never called), page selection and limits apply, evidence is in
//! pixels with source OCR, and `only_document_files` refuses it. The hOCR case uses real
//! `tesseract ... hocr` output of a committed fixture scan.

use folio::engine::Progress;
use folio::fields::RuleScorer;
use folio::ocr::{OcrEngine, OcrRequest};
use folio::types::TextPage;
use folio::{CancelToken, Engine, EngineConfig, ErrorCode, RecognizeOptions, Stage};
use folio_e2e::SMALL_INVOICE as INVOICE;
use image::GrayImage;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

/// OCR that must not be reached.
struct NoOcr;

impl OcrEngine for NoOcr {
    fn recognize(&self, _: &GrayImage, _: &OcrRequest<'_>) -> folio::Result<TextPage> {
        panic!("pre-recognised input must not be sent to OCR");
    }
}

fn engine() -> Engine {
    Engine::with_components(
        EngineConfig::default(),
        Arc::new(NoOcr),
        Arc::new(RuleScorer),
    )
    .expect("engine builds")
}

fn run(engine: &Engine, bytes: &[u8], opts: &RecognizeOptions) -> folio::Result<Value> {
    let stages = Mutex::new(Vec::new());
    let r = engine.recognize_bytes(
        bytes,
        opts,
        &|p: Progress| stages.lock().expect("lock").push(p.stage),
        &CancelToken::new(),
    )?;
    let stages = stages.into_inner().expect("lock");
    assert!(!stages.contains(&Stage::OcrProcessing), "{stages:?}");
    Ok(serde_json::from_str(&r.to_json()).expect("json"))
}

/// Lines of an invoice as words JSON lines (one "word" per line, spaces inside).
fn invoice_page(lines: &[&str]) -> Value {
    let words: Vec<Value> = lines
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let y = 100.0 + 45.0 * i as f64;
            let x1 = 120.0 + 14.0 * t.chars().count() as f64;
            json!({"text": t, "bbox": [120.0, y, x1, y + 28.0], "confidence": 0.95})
        })
        .collect();
    json!({"width": 1240, "height": 1754, "words": words})
}

#[test]
fn words_json_runs_the_pipeline_without_ocr() {
    let doc = json!({"pages": [invoice_page(&INVOICE)]});
    let bytes = serde_json::to_vec(&doc).expect("json");
    let r = run(&engine(), &bytes, &RecognizeOptions::default()).expect("recognised");
    assert_eq!(r["document"]["number"], "INV-1001");
    assert_eq!(r["document"]["date"], "2024-03-12");
    assert_eq!(r["totals"]["total"], "119.00");
    assert_eq!(r["totals"]["vat"], "19.00");
    let ev = &r["evidence"]["/totals/total"];
    assert_eq!(ev["unit"], "px");
    assert_eq!(ev["source"], "OCR");
    assert_eq!(ev["page"], 1);
}

#[test]
fn pages_are_selected_and_limited() {
    let other = invoice_page(&["Delivery note", "Lieferschein Nr. LS-77"]);
    let doc = json!({"pages": [other, invoice_page(&INVOICE)]});
    let bytes = serde_json::to_vec(&doc).expect("json");
    let e = engine();
    let only2 = RecognizeOptions {
        pages: Some("2".into()),
        ..RecognizeOptions::default()
    };
    let r = run(&e, &bytes, &only2).expect("recognised");
    assert_eq!(r["document"]["number"], "INV-1001");
    assert_eq!(r["evidence"]["/document/number"]["page"], 2);
    let past = RecognizeOptions {
        pages: Some("3".into()),
        ..RecognizeOptions::default()
    };
    let err = run(&e, &bytes, &past).expect_err("page 3 does not exist");
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
    let mut cfg = EngineConfig::default();
    cfg.limits.max_pages = 1;
    let small = Engine::with_components(cfg, Arc::new(NoOcr), Arc::new(RuleScorer)).expect("e");
    let err = run(&small, &bytes, &RecognizeOptions::default()).expect_err("2 pages > 1");
    assert_eq!(err.code(), ErrorCode::TooManyPages);
}

#[test]
fn bad_words_input_is_a_corrupt_file_and_servers_refuse_it() {
    let e = engine();
    let bad = br#"{"pages": [{"width": 100, "height": 100, "words": [{"text": "x"}]}]}"#;
    let err = run(&e, bad, &RecognizeOptions::default()).expect_err("no bbox");
    assert_eq!(err.code(), ErrorCode::CorruptFile);
    let doc = serde_json::to_vec(&json!({"pages": [invoice_page(&INVOICE)]})).expect("json");
    let docs_only = RecognizeOptions {
        only_document_files: true,
        ..RecognizeOptions::default()
    };
    let err = run(&e, &doc, &docs_only).expect_err("documents only");
    assert_eq!(err.code(), ErrorCode::UnsupportedFileType);
    // JSON that is not words input stays unsupported.
    let err = run(&e, br#"{"invoice": 1}"#, &RecognizeOptions::default()).expect_err("json");
    assert_eq!(err.code(), ErrorCode::UnsupportedFileType);
}

/// tesseract's own hOCR of the committed German scan gives what the engine reads from the image.
#[test]
fn tesseract_hocr_of_a_fixture_scan() {
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/docs/invoice_de_scan.png");
    let out = Command::new("tesseract")
        .arg(&png)
        .args(["-", "-l", "deu", "--dpi", "200", "hocr"])
        .env("OMP_THREAD_LIMIT", "1")
        .output()
        .expect("tesseract runs (bash scripts/setup.sh installs tesseract-ocr)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = run(&engine(), &out.stdout, &RecognizeOptions::default()).expect("recognised");
    let truth: Value = serde_json::from_str(
        &std::fs::read_to_string(png.with_file_name("invoice_de_scan.truth.json")).expect("truth"),
    )
    .expect("truth json");
    assert_eq!(r["document"]["number"], truth["number"]);
    assert_eq!(r["document"]["date"], truth["date"]);
    assert_eq!(r["totals"]["total"], truth["total"]);
    assert_eq!(r["evidence"]["/totals/total"]["source"], "OCR");
}
