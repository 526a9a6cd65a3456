//! Golden tests: every document of `fixtures/docs` through the real engine (pdfium + tesseract).
//!
//! For each document with a `<name>.truth.json`:
//! * the full Result JSON must equal the snapshot `fixtures/expected/<name>.json`;
//! * the truth keys it gets right (scored by the shared rules of `folio_bench::score`) must not
//!   lose any key recorded in the ratchet `fixtures/truth-baseline.json`.
//!
//! For each bad input with a `<name>.expected-error.json`, the engine must fail with exactly that
//! error code.
//!
//! `FOLIO_UPDATE_GOLDEN=1 cargo test --workspace --test golden` rewrites the snapshots and the
//! baseline from the current engine (review the diff before committing). The fixtures themselves
//! come from `fixtures/generate.py`.
//!
//! OCR runs with `OMP_THREAD_LIMIT=1` (set by `.cargo/config.toml`): documents already run in
//! parallel here, and the snapshots were recorded that way.

use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions};
use folio_bench::score::score_document;
use rayon::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn update_mode() -> bool {
    std::env::var("FOLIO_UPDATE_GOLDEN").is_ok_and(|v| v == "1")
}

/// What a fixture is expected to give.
enum Expect {
    /// Ground truth (the Result is snapshotted and scored).
    Truth(Value),
    /// The error code of a bad input.
    Error(String),
}

struct Fixture {
    name: String,
    path: PathBuf,
    expect: Expect,
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display()))
}

/// Every document in `fixtures/docs`, with what it should give. A document without a truth or
/// expected-error file fails the test: fixtures must not go unchecked.
fn fixtures() -> Vec<Fixture> {
    let dir = fixtures_dir().join("docs");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "cannot list {}: {e} (generate with fixtures/generate.py)",
            dir.display()
        )
    });
    let mut out = Vec::new();
    for entry in entries {
        let path = entry.expect("directory entry").path();
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if file.ends_with(".json") {
            continue;
        }
        let name = match file.rsplit_once('.') {
            Some((stem, _)) => stem.to_string(),
            None => file.clone(),
        };
        let truth = dir.join(format!("{name}.truth.json"));
        let error = dir.join(format!("{name}.expected-error.json"));
        let expect = if truth.exists() {
            Expect::Truth(read_json(&truth))
        } else if error.exists() {
            let v = read_json(&error);
            let code = v["code"]
                .as_str()
                .unwrap_or_else(|| panic!("{} has no string \"code\"", error.display()));
            Expect::Error(code.to_string())
        } else {
            panic!("{file} has neither {name}.truth.json nor {name}.expected-error.json");
        };
        out.push(Fixture { name, path, expect });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    let names: BTreeSet<&str> = out.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names.len(), out.len(), "two documents share a name stem");
    assert!(
        out.len() >= 20,
        "only {} fixtures in {}",
        out.len(),
        dir.display()
    );
    out
}

/// The real engine, built once. pdfium and tesseract must be present: a golden test that skips
/// silently would hide a broken setup.
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let config = EngineConfig::default();
        if let Err(e) = folio::pdf::PdfLib::get(config.pdfium_library.as_deref()) {
            panic!(
                "the pdfium library could not be loaded ({e}). Run `bash scripts/setup.sh` (it puts \
                 libpdfium.so into .venv via pypdfium2) or set FOLIO_PDFIUM_LIB to its path."
            );
        }
        Engine::new(config).unwrap_or_else(|e| {
            panic!(
                "the engine could not be built ({e}); are tesseract and its language data \
                 installed (scripts/setup.sh)?"
            )
        })
    })
}

fn recognize(f: &Fixture) -> folio::Result<Value> {
    let opts = RecognizeOptions::default();
    let r = engine().recognize_path(&f.path, &opts, &|_| {}, &CancelToken::new())?;
    Ok(serde_json::to_value(&r).expect("result serialises"))
}

/// Escapes a key for a JSON pointer (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn short(v: Option<&Value>) -> String {
    match v {
        None => "(absent)".to_string(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 120 {
                format!("{}…", s.chars().take(120).collect::<String>())
            } else {
                s
            }
        }
    }
}

/// The JSON pointers where `expected` and `actual` differ, with both values.
fn json_diff(ptr: &str, expected: Option<&Value>, actual: Option<&Value>, out: &mut Vec<String>) {
    match (expected, actual) {
        (Some(Value::Object(e)), Some(Value::Object(a))) => {
            let keys: BTreeSet<&String> = e.keys().chain(a.keys()).collect();
            for k in keys {
                json_diff(
                    &format!("{ptr}/{}", escape(k)),
                    e.get(k.as_str()),
                    a.get(k.as_str()),
                    out,
                );
            }
        }
        (Some(Value::Array(e)), Some(Value::Array(a))) => {
            for i in 0..e.len().max(a.len()) {
                json_diff(&format!("{ptr}/{i}"), e.get(i), a.get(i), out);
            }
        }
        (e, a) if e == a => {}
        (e, a) => out.push(format!(
            "  {}: expected {}, got {}",
            if ptr.is_empty() { "/" } else { ptr },
            short(e),
            short(a)
        )),
    }
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("serialises");
    s.push('\n');
    s
}

/// Compares a result with its snapshot (or writes the snapshot in update mode).
fn check_snapshot(name: &str, actual: &Value) -> Result<(), String> {
    let path = fixtures_dir().join("expected").join(format!("{name}.json"));
    if update_mode() {
        let text = pretty(actual);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).expect("create fixtures/expected");
            }
            std::fs::write(&path, text).expect("write snapshot");
            eprintln!("updated {}", path.display());
        }
        return Ok(());
    }
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Err(format!(
            "{name}: no snapshot fixtures/expected/{name}.json (record it with \
             FOLIO_UPDATE_GOLDEN=1)"
        ));
    };
    let expected: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{name}: bad snapshot {}: {e}", path.display()))?;
    let mut diffs = Vec::new();
    json_diff("", Some(&expected), Some(actual), &mut diffs);
    if diffs.is_empty() {
        return Ok(());
    }
    // Field values first; confidences and evidence boxes (which follow them) last.
    let secondary = |d: &String| d.starts_with("  /confidence/") || d.starts_with("  /evidence/");
    diffs.sort_by_key(secondary);
    let n = diffs.len();
    diffs.truncate(40);
    Err(format!(
        "{name}: result differs from fixtures/expected/{name}.json at {n} pointer(s):\n{}{}",
        diffs.join("\n"),
        if n > 40 { "\n  …" } else { "" }
    ))
}

#[test]
fn json_diff_reports_pointers() {
    let e = serde_json::json!({"a": {"b/c": 1, "d": [1, 2]}, "x": null});
    let a = serde_json::json!({"a": {"b/c": 2, "d": [1]}, "x": null, "y": true});
    let mut out = Vec::new();
    json_diff("", Some(&e), Some(&a), &mut out);
    assert_eq!(
        out,
        vec![
            "  /a/b~1c: expected 1, got 2",
            "  /a/d/1: expected 2, got (absent)",
            "  /y: expected (absent), got true",
        ]
    );
    out.clear();
    json_diff("", Some(&e), Some(&e), &mut out);
    assert!(out.is_empty());
}

/// The truth keys a result gets right, by the shared scoring rules of `folio_bench::score`.
///
/// Scalar fields count when every labelled value is matched (`"number"`, `"total"`, ...). Line
/// items are matched by net amount, so they count as "at least k rows matched":
/// `"line_items#1"`, `"line_items#2"`, ..., and likewise for the per-row fields
/// (`"line_items.quantity#2"`). The document type, which the shared rules do not score, counts as
/// `"document_type"` when the code equals the truth's.
fn correct_keys(result: &Value, truth: &Value) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for f in score_document(result, truth).fields {
        let t = f.tally;
        if f.field.starts_with("line_items") {
            keys.extend((1..=t.correct).map(|k| format!("{}#{k}", f.field)));
        } else if t.labelled > 0 && t.correct >= t.labelled {
            keys.insert(f.field);
        }
    }
    if let Some(code) = truth.get("document_type").and_then(Value::as_str)
        && result
            .pointer("/document_type/code")
            .and_then(Value::as_str)
            == Some(code)
    {
        keys.insert("document_type".to_string());
    }
    keys
}

#[test]
fn correct_keys_counts_matched_fields_and_rows() {
    let truth = serde_json::json!({
        "document_type": "INVOICE", "number": "A-1", "total": "10.00",
        "line_items": [{"line_total": "4.00"}, {"line_total": "6.00"}]
    });
    let mut result = serde_json::to_value(folio::DocumentResult::empty()).expect("serialises");
    result["document"]["number"] = "A-1".into();
    result["totals"]["total"] = "9.99".into();
    result["document_type"]["code"] = "INVOICE".into();
    result["line_items"] = serde_json::json!([{"amount": "6.00"}]);
    let keys = correct_keys(&result, &truth);
    assert!(
        keys.contains("number") && keys.contains("document_type"),
        "{keys:?}"
    );
    assert!(!keys.contains("total"), "{keys:?}");
    assert!(
        keys.contains("line_items#1") && !keys.contains("line_items#2"),
        "{keys:?}"
    );
}

fn baseline_path() -> PathBuf {
    fixtures_dir().join("truth-baseline.json")
}

/// Compares the keys each document gets right with the committed ratchet. Returns the lost keys
/// (failures) and the newly right ones (notes); in update mode writes the current state.
fn ratchet(current: &BTreeMap<String, BTreeSet<String>>) -> (Vec<String>, Vec<String>) {
    let path = baseline_path();
    let baseline: BTreeMap<String, BTreeSet<String>> = match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display())),
        Err(_) if update_mode() => BTreeMap::new(),
        Err(_) => {
            return (
                vec![
                    "no fixtures/truth-baseline.json (record it with FOLIO_UPDATE_GOLDEN=1)".into(),
                ],
                Vec::new(),
            );
        }
    };
    let fixture_names: BTreeSet<String> = fixtures().into_iter().map(|f| f.name).collect();
    let empty = BTreeSet::new();
    let mut lost = Vec::new();
    let mut gained = Vec::new();
    for (name, was) in &baseline {
        if !fixture_names.contains(name) {
            continue; // fixture removed: dropped from the baseline on the next update
        }
        let now = current.get(name).unwrap_or(&empty);
        let gone: Vec<&str> = was.difference(now).map(String::as_str).collect();
        if !gone.is_empty() {
            lost.push(format!(
                "{name}: no longer right (truth-baseline.json): {}",
                gone.join(", ")
            ));
        }
    }
    for (name, now) in current {
        let was = baseline.get(name).unwrap_or(&empty);
        let new: Vec<&str> = now.difference(was).map(String::as_str).collect();
        if !new.is_empty() {
            gained.push(format!(
                "{name}: newly right{}: {}",
                if update_mode() {
                    ""
                } else {
                    " (record with FOLIO_UPDATE_GOLDEN=1)"
                },
                new.join(", ")
            ));
        }
    }
    if update_mode() && *current != baseline {
        let mut text = serde_json::to_string_pretty(current).expect("serialises");
        text.push('\n');
        std::fs::write(&path, text).expect("write truth-baseline.json");
        eprintln!("updated {}", path.display());
    }
    (lost, gained)
}

/// Outcome of one document.
struct Outcome {
    name: String,
    failures: Vec<String>,
    correct: Option<BTreeSet<String>>,
}

fn run_fixture(f: &Fixture) -> Outcome {
    let mut o = Outcome {
        name: f.name.clone(),
        failures: Vec::new(),
        correct: None,
    };
    let result = recognize(f);
    match (&f.expect, result) {
        (Expect::Error(code), Ok(_)) => o.failures.push(format!(
            "{}: expected error {code}, but it was recognised",
            f.name
        )),
        (Expect::Error(code), Err(e)) => {
            if e.code().as_str() != code {
                o.failures.push(format!(
                    "{}: expected error {code}, got {} ({e})",
                    f.name,
                    e.code()
                ));
            }
        }
        (Expect::Truth(_), Err(e)) => o.failures.push(format!(
            "{}: recognition failed: {} ({e})",
            f.name,
            e.code()
        )),
        (Expect::Truth(truth), Ok(result)) => {
            if let Err(msg) = check_snapshot(&f.name, &result) {
                o.failures.push(msg);
            }
            o.correct = Some(correct_keys(&result, truth));
        }
    }
    o
}

/// Runs every fixture once (documents in parallel) and caches the outcomes for the tests below.
fn outcomes() -> &'static Vec<Outcome> {
    static OUT: OnceLock<Vec<Outcome>> = OnceLock::new();
    OUT.get_or_init(|| {
        let fixtures = fixtures();
        engine();
        fixtures.par_iter().map(run_fixture).collect()
    })
}

#[test]
fn bad_inputs_give_their_error_codes() {
    let fixtures = fixtures();
    let bad: BTreeSet<&str> = fixtures
        .iter()
        .filter(|f| matches!(f.expect, Expect::Error(_)))
        .map(|f| f.name.as_str())
        .collect();
    assert!(bad.len() >= 5, "too few bad inputs: {bad:?}");
    let failures: Vec<&String> = outcomes()
        .iter()
        .filter(|o| bad.contains(o.name.as_str()))
        .flat_map(|o| &o.failures)
        .collect();
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn documents_match_snapshots_and_truth_baseline() {
    let outcomes = outcomes();
    let mut failures: Vec<String> = Vec::new();
    let mut current: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for o in outcomes {
        failures.extend(o.failures.iter().cloned());
        if let Some(c) = &o.correct {
            current.insert(o.name.clone(), c.clone());
        }
    }
    let (lost, gained) = ratchet(&current);
    for n in &gained {
        eprintln!("{n}");
    }
    if update_mode() {
        for l in &lost {
            eprintln!("accepted regression (FOLIO_UPDATE_GOLDEN=1): {l}");
        }
    } else {
        failures.extend(lost);
    }
    let right: usize = current.values().map(BTreeSet::len).sum();
    eprintln!(
        "{} documents scored, {right} truth keys right in all",
        current.len()
    );
    assert!(
        failures.is_empty(),
        "{} golden failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
