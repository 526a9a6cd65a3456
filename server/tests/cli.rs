//! The `folio recognize` command, run as a real process.

use std::path::Path;
use std::process::{Command, Output};

const RTF_INVOICE: &str = r"{\rtf1\ansi\ansicpg1252 {\fonttbl{\f0 Arial;}}
\f0 ACME GmbH\par Hauptstr. 1, 10115 Berlin\par USt-IdNr.: DE136695976\par\par
Rechnung Nr. RE-2024-001\par Datum: 12.03.2024\par\par
Kunde: Beispiel AG\par\par
Gesamtbetrag: 119,00 EUR\par}";

fn folio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_folio"))
        .args(args)
        .output()
        .expect("the folio binary runs")
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(folio(&[]).status.code(), Some(2));
    assert_eq!(folio(&["recognize"]).status.code(), Some(2));
    assert_eq!(folio(&["recognize", "--bogus", "x"]).status.code(), Some(2));
}

#[test]
fn one_file_prints_the_result_json() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "inv.rtf", RTF_INVOICE.as_bytes());
    let out = folio(&["recognize", &f]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], "1.0");
    assert_eq!(v["super_ai_used"], false);
    assert_eq!(v["document"]["date"], "2024-03-12");
}

#[test]
fn an_xml_e_invoice_is_recognised() {
    let xml = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/docs/einvoice_cii.xml");
    let out = folio(&["recognize", &xml.to_string_lossy()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["document"]["number"], "FV/2024/03/120");
    assert_eq!(v["document"]["currency"], "PLN");
    // Any other XML: a coded error.
    let dir = tempfile::tempdir().unwrap();
    let other = write(dir.path(), "feed.xml", b"<?xml version=\"1.0\"?><rss/>");
    let out = folio(&["recognize", &other]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(v["code"], "UNSUPPORTED_FILE_TYPE");
}

#[test]
fn bad_file_prints_a_coded_error_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.pdf", b"");
    let out = folio(&["recognize", &empty]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(v["code"], "EMPTY_FILE");

    let text = write(dir.path(), "notes.pdf", b"just some text, not a pdf");
    let out = folio(&["recognize", &text]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(v["code"], "UNSUPPORTED_FILE_TYPE");

    let missing = dir.path().join("missing.pdf");
    let out = folio(&["recognize", &missing.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(v["code"], "IO_ERROR");
}

#[test]
fn several_files_without_out_print_json_lines_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.rtf", RTF_INVOICE.as_bytes());
    let b = write(dir.path(), "b.pdf", b"");
    let out = folio(&["recognize", &a, &b]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["file"], a.as_str());
    assert_eq!(lines[0]["result"]["schema_version"], "1.0");
    assert_eq!(lines[1]["error"]["code"], "EMPTY_FILE");
}

#[test]
fn out_dir_writes_results_and_errors_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let good = write(dir.path(), "inv.rtf", RTF_INVOICE.as_bytes());
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let good2 = write(&sub, "inv.rtf", RTF_INVOICE.as_bytes());
    let bad = write(dir.path(), "broken.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    let out = folio(&[
        "recognize",
        &good,
        &bad,
        &good2,
        "--out",
        &out_dir.to_string_lossy(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ok: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("inv.json")).unwrap()).unwrap();
    assert_eq!(ok["schema_version"], "1.0");
    assert!(out_dir.join("inv-2.json").exists());
    let err: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("broken.error.json")).unwrap())
            .unwrap();
    assert_eq!(err["code"], "CORRUPT_FILE");
    assert!(err["message"].as_str().is_some_and(|m| !m.is_empty()));
}

#[test]
fn all_good_files_exit_0_and_bad_config_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "inv.rtf", RTF_INVOICE.as_bytes());
    let out_dir = dir.path().join("out");
    let out = folio(&["recognize", &good, "--out", &out_dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0));
    let cfg = write(dir.path(), "cfg.json", br#"{"limits":{"max_pagez":1}}"#);
    let out = folio(&["recognize", &good, "--config", &cfg]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("max_pagez"));
    let out = folio(&["recognize", &good, "--lang", "xx"]);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn page_selection_is_validated() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "inv.rtf", RTF_INVOICE.as_bytes());
    let out = folio(&["recognize", &good, "--pages", "3-1"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(v["code"], "INVALID_ARGUMENT");
    let cfg = write(dir.path(), "cfg.json", br#"{"limits":{"max_pages":1}}"#);
    let out = folio(&["recognize", &good, "--pages", "1", "--config", &cfg]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pre_recognised_words_and_hocr_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let words = r#"{"pages": [{"width": 1240, "height": 1754, "words": [
        {"text": "Rechnung Nr. RE-2024-001", "bbox": [120, 100, 460, 128]},
        {"text": "Datum: 12.03.2024", "bbox": [120, 150, 360, 178]},
        {"text": "Gesamtbetrag: 119,00 EUR", "bbox": [120, 400, 460, 428]}]}]}"#;
    let hocr = "<html><body><div class='ocr_page' title='bbox 0 0 1240 1754'>\
        <span class='ocr_line' title='bbox 120 100 460 128'>Rechnung Nr. RE-2024-001</span>\
        <span class='ocr_line' title='bbox 120 150 360 178'>Datum: 12.03.2024</span>\
        <span class='ocr_line' title='bbox 120 400 460 428'>Gesamtbetrag: 119,00 EUR</span>\
        </div></body></html>";
    for (name, content) in [("w.json", words), ("w.hocr", hocr)] {
        let f = write(dir.path(), name, content.as_bytes());
        let out = folio(&["recognize", &f]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["document"]["number"], "RE-2024-001", "{name}");
        assert_eq!(v["document"]["date"], "2024-03-12", "{name}");
        assert_eq!(v["totals"]["total"], "119.00", "{name}");
    }
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn out_names_never_collide_whatever_the_inputs_are_called() {
    let dir = tempfile::tempdir().unwrap();
    let (d1, d2) = (dir.path().join("d1"), dir.path().join("d2"));
    std::fs::create_dir(&d1).unwrap();
    std::fs::create_dir(&d2).unwrap();
    let x1 = write(&d1, "x.rtf", RTF_INVOICE.as_bytes());
    let x2 = write(&d2, "x.rtf", RTF_INVOICE.as_bytes());
    let x_2 = write(dir.path(), "x-2.rtf", RTF_INVOICE.as_bytes());
    let a = write(dir.path(), "a.pdf", b"");
    let a_error = write(dir.path(), "a.error.rtf", RTF_INVOICE.as_bytes());
    let out_dir = dir.path().join("out");
    let out = folio(&[
        "recognize",
        &x1,
        &x2,
        &x_2,
        &a,
        &a_error,
        "--out",
        &out_dir.to_string_lossy(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "a.pdf fails: {stderr}");
    // Five inputs, five outcomes, nothing else (no temporary file left).
    assert_eq!(
        listing(&out_dir),
        [
            "a-error.json",
            "a.error.json",
            "x-2-2.json",
            "x-2.json",
            "x.json"
        ]
    );
    for name in ["x.json", "x-2.json", "x-2-2.json", "a-error.json"] {
        let v = read_json(&out_dir.join(name));
        assert_eq!(v["schema_version"], "1.0", "{name} is a result");
        assert_eq!(v["document"]["number"], "RE-2024-001", "{name}");
    }
    let err = read_json(&out_dir.join("a.error.json"));
    assert_eq!(err["code"], "EMPTY_FILE");
    assert_eq!(err["file"], a.as_str(), "the error names its input");
    // Renamed outputs are announced with their input.
    assert!(
        stderr.contains(&format!("{x2} is written as x-2.json")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{x_2} is written as x-2-2.json")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{a_error} is written as a-error.json")),
        "{stderr}"
    );
}

#[test]
fn out_never_replaces_an_input_and_a_rerun_replaces_its_own_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    // A words JSON input inside the output directory: its result cannot be `w.json`.
    let words = r#"{"pages": [{"width": 1240, "height": 1754, "words": [
        {"text": "Rechnung Nr. RE-2024-001", "bbox": [120, 100, 460, 128]}]}]}"#;
    let w = write(&out_dir, "w.json", words.as_bytes());
    let b = write(dir.path(), "b.rtf", b"");
    let run = || folio(&["recognize", &w, &b, "--out", &out_dir.to_string_lossy()]);
    assert_eq!(run().status.code(), Some(1), "b.rtf is empty");
    assert_eq!(
        std::fs::read_to_string(&w).unwrap(),
        words,
        "the input is intact"
    );
    assert_eq!(listing(&out_dir), ["b.error.json", "w-2.json", "w.json"]);
    assert_eq!(
        read_json(&out_dir.join("w-2.json"))["document"]["number"],
        "RE-2024-001"
    );

    // The same command again once b.rtf is readable: its result replaces its earlier error.
    std::fs::write(&b, RTF_INVOICE).unwrap();
    let out = run();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(listing(&out_dir), ["b.json", "w-2.json", "w.json"]);
    assert_eq!(std::fs::read_to_string(&w).unwrap(), words);
}
