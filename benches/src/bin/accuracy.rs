//! Accuracy of the engine over a directory of labelled documents.
//!
//! ```text
//! accuracy [--jobs N] [--boxes] [--visual] [--json OUT] [--limit N] [--show-errors FIELD]
//!          [--exact] [--einvoice] [--show-warnings CODE] [--split FILE [--part tune|frozen]
//!          [--fold K]] DIR
//! ```
//!
//! Every `<id>.truth.json` in DIR (recursively) with its document beside it (`<id>.pdf`,
//! `<id>.jpg`, ...) is recognised with `Engine::new(EngineConfig::default())`; with `--boxes`,
//! `<id>.boxes.txt` (SROIE OCR lines; `#page W H` lines start pages) is turned into text pages and run through
//! `Engine::recognize_text_pages` instead. With `--visual`, a document file is read into pages by
//! `Engine::extract_text_pages` and recognised by `Engine::recognize_text_pages`, which never
//! read an embedded e-invoice XML: on the zugferd set this scores the visual field stage, not the
//! XML parser (the run counts the documents whose Result still carries `E_INVOICE` evidence, and
//! fails when there is one). Documents run in parallel on `--jobs` threads
//! (default: the number of cores). Scoring follows `folio_bench::score`; `--exact` compares
//! values exactly ([`Strictness::Exact`]: for the e-invoice path, whose values come from the XML).
//!
//! Every run also counts the documents whose Result carries each validation warning code
//! (`E_INVOICE_MISMATCH` on a set whose pages agree with their XML counts false alarms);
//! `--show-warnings CODE` lists them with their messages. `--einvoice` also runs the e-invoice
//! stage alone on each input (`einvoice::find` over a PDF's attachments, `einvoice::parse` on an
//! XML file) and reports in how many documents an invoice XML was found and parsed, with its
//! syntax and attachment name per document in the JSON.
//!
//! `--split FILE` (a `benches/splits/<set>.json`, issue 14's honest protocol) keeps the documents
//! of one part, `--part tune` (default) or `--part frozen`, and with `--fold K` only fold K of
//! the tuning part. Every run prints the macro F1 over the labelled header fields and the F1 of
//! the key fields (number, date, seller_name, total); `benches/protocol.sh` puts the tuning and
//! frozen figures side by side.
//!
//! Tesseract parallelises inside a page with OpenMP, which reads `OMP_THREAD_LIMIT` once, when
//! the library is loaded; documents already run in parallel here, so extra OpenMP threads only
//! oversubscribe the cores. Setting the variable from Rust needs `unsafe` (edition 2024), which
//! the workspace forbids, so when it is missing the binary re-executes itself with
//! `OMP_THREAD_LIMIT=1` before anything is loaded.

use clap::Parser;
use folio::config::OcrEngineKind;
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions, ScorerKind, einvoice};
use folio_bench::boxes::parse_boxes_pages;
use folio_bench::dataset::{LabelledDoc, discover};
use folio_bench::score::{
    DocScore, EXTRA_FIELDS, FIELDS, FieldTally, LINE_ITEM_FIELDS, Scoreboard, Strictness,
    score_document_with,
};
use folio_bench::split::{Part, Split};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Accuracy of the Folio engine over labelled documents (`<id>.truth.json` + document).
#[derive(Debug, Parser)]
#[command(name = "accuracy")]
struct Args {
    /// Documents processed in parallel (default: number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Use `<id>.boxes.txt` OCR lines (SROIE) through `recognize_text_pages` instead of files.
    #[arg(long)]
    boxes: bool,
    /// Write all figures and per-document, per-field outcomes as JSON to this file.
    #[arg(long, value_name = "OUT")]
    json: Option<PathBuf>,
    /// Only the first N documents (by id).
    #[arg(long)]
    limit: Option<usize>,
    /// Print truth vs prediction for every document where FIELD was missed or wrong.
    #[arg(long, value_name = "FIELD")]
    show_errors: Vec<String>,
    /// Field scorer: `model` (the engine's default) or `rules`.
    #[arg(long, default_value = "model")]
    scorer: String,
    /// OCR engine of scanned pages: `auto` (the engine's default: PP-OCR for Latin-script
    /// pages, tesseract for Cyrillic ones), `tesseract` or `ppocr`.
    #[arg(long, default_value = "auto")]
    ocr_engine: String,
    /// Enhanced recognition (`RecognizeOptions::heavy`, the API's `use_heavy_ai`).
    #[arg(long)]
    heavy: bool,
    /// A field model file instead of the built-in one (with `<name>.calibration.json`).
    #[arg(long, value_name = "ONNX")]
    model: Option<PathBuf>,
    /// Only the documents whose ids are listed in this file (one per line).
    #[arg(long, value_name = "FILE")]
    ids: Option<PathBuf>,
    /// Compare values exactly (texts but for white space, ids, amounts as decimals).
    #[arg(long)]
    exact: bool,
    /// Also run the e-invoice stage alone on each input and count the XMLs found and parsed.
    #[arg(long)]
    einvoice: bool,
    /// Print the documents whose Result carries the warning CODE, with its messages.
    #[arg(long, value_name = "CODE")]
    show_warnings: Vec<String>,
    /// Recognise document files through `extract_text_pages` + `recognize_text_pages`, which
    /// never read an embedded e-invoice XML (the visual reading of a ZUGFeRD PDF).
    #[arg(long, conflicts_with = "boxes")]
    visual: bool,
    /// A split file (`benches/splits/<set>.json`): keep only the documents of `--part`.
    #[arg(long, value_name = "FILE")]
    split: Option<PathBuf>,
    /// The part of `--split` kept: `tune` or `frozen`.
    #[arg(long, default_value = "tune", requires = "split")]
    part: String,
    /// Only this cross-validation fold of the tuning part (0-based; needs `--split`).
    #[arg(long, value_name = "K", requires = "split")]
    fold: Option<usize>,
    /// Directory searched (recursively) for `*.truth.json`.
    dir: PathBuf,
}

/// Outcome of one document.
struct DocRun {
    doc: LabelledDoc,
    seconds: f64,
    error: Option<(String, String)>,
    score: DocScore,
    /// The Result's validation warnings and errors (code, field, message).
    warnings: Vec<(String, Option<String>, String)>,
    /// What the e-invoice stage alone found (with `--einvoice`).
    einvoice: Option<Probe>,
    /// The Result carries evidence read from an e-invoice XML (source `E_INVOICE`).
    einvoice_evidence: bool,
}

/// The e-invoice stage run alone on one input.
struct Probe {
    /// The syntax of the invoice XML found and parsed (`None`: none).
    syntax: Option<&'static str>,
    /// Its specification identifier (profile).
    guideline: Option<String>,
    /// The attachment it was read from.
    attachment: Option<String>,
    /// Why an XML was not used (`E_INVOICE_UNREADABLE` messages, or the parse error).
    unreadable: Vec<String>,
}

fn main() -> ExitCode {
    if let Some(code) = folio::runtime::reexec_with_omp_limit() {
        return code;
    }
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("accuracy: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    for f in &args.show_errors {
        let known = FIELDS.iter().chain(EXTRA_FIELDS.iter());
        if !known.clone().any(|k| k == f) && !LINE_ITEM_FIELDS.contains(&f.as_str()) {
            return Err(format!(
                "unknown field {f:?} (one of: {})",
                known.copied().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    let found = discover(&args.dir, args.boxes)
        .map_err(|e| format!("cannot read {}: {e}", args.dir.display()))?;
    let mut docs = found.docs;
    if let Some(f) = &args.ids {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let keep: std::collections::HashSet<&str> = text.lines().map(str::trim).collect();
        docs.retain(|d| keep.contains(d.id.as_str()));
    }
    let split = match &args.split {
        Some(path) => {
            let part = Part::parse(&args.part)
                .ok_or_else(|| format!("unknown part {:?} (tune or frozen)", args.part))?;
            let split = Split::load(path)?;
            if let Some(k) = args.fold {
                if part != Part::Tune {
                    return Err("--fold selects a fold of the tuning part (--part tune)".into());
                }
                if k >= split.folds {
                    return Err(format!("fold {k} out of range (0..{})", split.folds));
                }
            }
            let unknown = docs
                .iter()
                .filter(|d| !split.documents.contains_key(&d.id))
                .count();
            if unknown > 0 {
                return Err(format!(
                    "{unknown} documents under {} are not in the split {} (regenerate it)",
                    args.dir.display(),
                    path.display()
                ));
            }
            docs.retain(|d| split.contains(&d.id, part, args.fold));
            Some((split.set.clone(), part))
        }
        None => None,
    };
    if let Some(n) = args.limit {
        docs.truncate(n);
    }
    if docs.is_empty() {
        return Err(format!(
            "no labelled {} under {}",
            if args.boxes {
                "boxes files"
            } else {
                "documents"
            },
            args.dir.display()
        ));
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let scorer = match args.scorer.as_str() {
        "model" => ScorerKind::Model,
        "rules" => ScorerKind::Rules,
        other => return Err(format!("unknown scorer {other:?} (model or rules)")),
    };
    let engine_kind: OcrEngineKind = serde_json::from_value(serde_json::Value::String(
        args.ocr_engine.clone(),
    ))
    .map_err(|_| {
        format!(
            "unknown OCR engine {:?} (auto, tesseract or ppocr)",
            args.ocr_engine
        )
    })?;
    let mut config = EngineConfig {
        scorer,
        model: args.model.clone(),
        ..EngineConfig::default()
    };
    config.ocr.engine = engine_kind;
    let engine = Engine::new(config).map_err(|e| format!("engine: {e}"))?;
    let strictness = if args.exact {
        Strictness::Exact
    } else {
        Strictness::Tolerant
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    eprintln!(
        "accuracy: {} documents ({} truth files without input), {} jobs, {} mode{}",
        docs.len(),
        found.truth_without_input,
        jobs,
        mode(args),
        split
            .as_ref()
            .map(|(set, part)| {
                let fold = args.fold.map(|k| format!(", fold {k}")).unwrap_or_default();
                format!(", {set} {} part{fold}", part.as_str())
            })
            .unwrap_or_default()
    );

    let done = AtomicUsize::new(0);
    let tty = std::io::stderr().is_terminal();
    let total = docs.len();
    let start = Instant::now();
    let runs: Vec<DocRun> = pool.install(|| {
        docs.into_par_iter()
            .map(|doc| {
                let mut r = run_one(&engine, doc, args, strictness);
                if args.einvoice && !args.boxes {
                    r.einvoice = Some(probe(&engine, &r.doc.input));
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if tty {
                    eprint!("\r{n}/{total}");
                    let _ = std::io::stderr().flush();
                }
                r
            })
            .collect()
    });
    let wall = start.elapsed().as_secs_f64();
    if tty {
        eprintln!();
    }

    let mut board = Scoreboard::default();
    let mut errors: BTreeMap<String, u64> = BTreeMap::new();
    for r in &runs {
        board.add(&r.score);
        if let Some((code, _)) = &r.error {
            *errors.entry(code.clone()).or_default() += 1;
        }
    }
    let mut times: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
    times.sort_by(f64::total_cmp);
    let median = median(&times);
    let docs_per_s = if wall > 0.0 {
        runs.len() as f64 / wall
    } else {
        0.0
    };

    print_table(&board);
    println!();
    let (macro_f1, scored) = macro_f1(&board);
    let keys: Vec<String> = KEY_FIELDS
        .iter()
        .map(|f| format!("{f} {}", pct(board.tally(f).f1())))
        .collect();
    println!(
        "macro F1 over the {} labelled header fields: {}  key fields F1 %: {}",
        scored.len(),
        pct(macro_f1),
        keys.join(", ")
    );
    let with_xml = runs.iter().filter(|r| r.einvoice_evidence).count();
    println!("documents with E_INVOICE evidence: {with_xml}");
    println!(
        "documents: {}  errors: {}  wall: {:.2} s  documents/s: {:.2}  median s/document: {:.4}  jobs: {}",
        runs.len(),
        errors.values().sum::<u64>(),
        wall,
        docs_per_s,
        median,
        jobs
    );
    for (code, n) in &errors {
        println!("  error {code}: {n}");
    }
    let warned = warning_documents(&runs);
    let list: Vec<String> = warned.iter().map(|(c, n)| format!("{c} {n}")).collect();
    println!(
        "documents with finding (warning or error): {}",
        list.join(", ")
    );
    if args.einvoice {
        let probed = runs.iter().filter_map(|r| r.einvoice.as_ref());
        let (found, unreadable) = probed.fold((0, 0), |(f, u), p| {
            (
                f + usize::from(p.syntax.is_some()),
                u + usize::from(!p.unreadable.is_empty()),
            )
        });
        println!(
            "e-invoice XML found and parsed: {found} of {} documents ({unreadable} with an XML not used)",
            runs.len()
        );
    }
    for code in &args.show_warnings {
        show_warnings(&runs, code);
    }
    for field in &args.show_errors {
        show_errors(&runs, field);
    }
    if let Some(out) = &args.json {
        let j = report_json(args, jobs, &runs, &board, &errors, wall, docs_per_s, median);
        let text = serde_json::to_string_pretty(&j).map_err(|e| format!("json: {e}"))?;
        std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        eprintln!("accuracy: wrote {}", out.display());
    }
    if args.visual && with_xml > 0 {
        return Err(format!(
            "--visual: {with_xml} Results carry E_INVOICE evidence (the XML was read)"
        ));
    }
    Ok(())
}

/// The key fields of issue 14's targets.
const KEY_FIELDS: [&str; 4] = ["number", "date", "seller_name", "total"];

/// Macro F1: the mean F1 over the header fields (`FIELDS` but line items) labelled in at least
/// one document, with the fields it averages.
fn macro_f1(board: &Scoreboard) -> (Option<f64>, Vec<&'static str>) {
    let scored: Vec<(&'static str, f64)> = FIELDS
        .iter()
        .filter(|f| **f != "line_items")
        .filter_map(|f| {
            let t = board.tally(f);
            (t.labelled > 0).then(|| (*f, t.f1().unwrap_or(0.0)))
        })
        .collect();
    let mean = (!scored.is_empty())
        .then(|| scored.iter().map(|(_, v)| v).sum::<f64>() / scored.len() as f64);
    (mean, scored.into_iter().map(|(f, _)| f).collect())
}

fn mode(args: &Args) -> &'static str {
    if args.boxes {
        "boxes"
    } else if args.visual {
        "visual"
    } else {
        "file"
    }
}

/// Whether any `source` in the Result is `E_INVOICE`.
fn has_einvoice_evidence(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, v)| {
            (k == "source" && v.as_str() == Some("E_INVOICE")) || has_einvoice_evidence(v)
        }),
        Value::Array(a) => a.iter().any(has_einvoice_evidence),
        _ => false,
    }
}

fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted.get(n / 2).copied().unwrap_or(0.0),
        n => {
            let a = sorted.get(n / 2 - 1).copied().unwrap_or(0.0);
            let b = sorted.get(n / 2).copied().unwrap_or(0.0);
            (a + b) / 2.0
        }
    }
}

/// Recognises and scores one document; an engine error scores as an empty result (every
/// labelled field missed) and is recorded with its code.
fn run_one(engine: &Engine, doc: LabelledDoc, args: &Args, strictness: Strictness) -> DocRun {
    let start = Instant::now();
    let outcome = recognize(engine, &doc, args);
    let seconds = start.elapsed().as_secs_f64();
    let truth = std::fs::read_to_string(&doc.truth)
        .ok()
        .and_then(|s| serde_json::from_str::<Value>(&s).ok());
    let (result, mut error) = match outcome {
        Ok(v) => (v, None),
        Err(e) => (json!({}), Some(e)),
    };
    let einvoice_evidence = has_einvoice_evidence(&result);
    // Warnings and errors alike: `LINE_ITEMS_SUM_MISMATCH` on a document that balances is a
    // false alarm whichever list it is in.
    let warnings = ["/validation/warnings", "/validation/errors"]
        .iter()
        .filter_map(|p| result.pointer(p).and_then(Value::as_array))
        .flatten()
        .map(|w| {
            let s = |k: &str| w.get(k).and_then(Value::as_str).map(str::to_string);
            (
                s("code").unwrap_or_default(),
                s("field"),
                s("message").unwrap_or_default(),
            )
        })
        .collect();
    let score = match &truth {
        Some(t) => score_document_with(&result, t, strictness),
        None => {
            error.get_or_insert(("BAD_TRUTH".into(), "truth file unreadable".into()));
            DocScore::default()
        }
    };
    DocRun {
        doc,
        seconds,
        error,
        score,
        warnings,
        einvoice: None,
        einvoice_evidence,
    }
}

/// The e-invoice stage alone: `einvoice::find` over a PDF's attachments, `einvoice::parse` on
/// an XML file.
fn probe(engine: &Engine, input: &Path) -> Probe {
    let mut p = Probe {
        syntax: None,
        guideline: None,
        attachment: None,
        unreadable: Vec::new(),
    };
    let bytes = match std::fs::read(input) {
        Ok(b) => b,
        Err(e) => {
            p.unreadable.push(e.to_string());
            return p;
        }
    };
    let ext = input
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let invoice = match ext.as_deref() {
        Some("xml") => einvoice::parse(&bytes)
            .map_err(|e| p.unreadable.push(e.to_string()))
            .ok(),
        Some("pdf") => match folio::pdf::PdfLib::get(engine.config().pdfium_library.as_deref()) {
            Ok(lib) => {
                let found = einvoice::find(lib, &bytes, false);
                p.attachment = found.attachment;
                p.unreadable
                    .extend(found.warnings.into_iter().map(|w| w.message));
                found.invoice
            }
            Err(e) => {
                p.unreadable.push(e.to_string());
                None
            }
        },
        _ => None,
    };
    if let Some(e) = invoice {
        p.syntax = Some(e.syntax.as_str());
        p.guideline = e.guideline;
    }
    p
}

/// How many documents carry each warning code.
fn warning_documents(runs: &[DocRun]) -> BTreeMap<String, u64> {
    let mut out: BTreeMap<String, u64> = BTreeMap::new();
    for r in runs {
        let mut codes: Vec<&str> = r.warnings.iter().map(|w| w.0.as_str()).collect();
        codes.sort_unstable();
        codes.dedup();
        for c in codes {
            *out.entry(c.to_string()).or_default() += 1;
        }
    }
    out
}

fn show_warnings(runs: &[DocRun], code: &str) {
    println!();
    println!("documents with warning {code}:");
    let mut n = 0;
    for r in runs {
        let hits: Vec<_> = r.warnings.iter().filter(|w| w.0 == code).collect();
        if hits.is_empty() {
            continue;
        }
        n += 1;
        for (_, field, message) in hits {
            println!(
                "  {}: {}: {message}",
                r.doc.id,
                field.as_deref().unwrap_or("-")
            );
        }
    }
    println!("  {n} documents");
}

fn recognize(engine: &Engine, doc: &LabelledDoc, args: &Args) -> Result<Value, (String, String)> {
    let opts = RecognizeOptions {
        heavy: args.heavy,
        ..RecognizeOptions::default()
    };
    let cancel = CancelToken::new();
    let progress = |_| {};
    let result = if args.boxes {
        let content = std::fs::read_to_string(&doc.input)
            .map_err(|e| ("IO_ERROR".to_string(), e.to_string()))?;
        let pages = parse_boxes_pages(&content);
        if pages.is_empty() {
            return Err(("BAD_BOXES".to_string(), "no usable box line".to_string()));
        }
        engine.recognize_text_pages(&pages, &opts, &progress, &cancel)
    } else if args.visual {
        let bytes =
            std::fs::read(&doc.input).map_err(|e| ("IO_ERROR".to_string(), e.to_string()))?;
        engine
            .extract_text_pages(&bytes, &opts, &progress, &cancel)
            .and_then(|pages| engine.recognize_text_pages(&pages, &opts, &progress, &cancel))
    } else {
        engine.recognize_path(&doc.input, &opts, &progress, &cancel)
    };
    let result = result.map_err(|e| (e.code().as_str().to_string(), e.to_string()))?;
    serde_json::to_value(&result).map_err(|e| ("INTERNAL_ERROR".to_string(), e.to_string()))
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{:.1}", v * 100.0))
}

fn print_row(name: &str, t: &FieldTally) {
    println!(
        "{:<24} {:>8} {:>9} {:>7} {:>7} {:>7} {:>7} {:>11}",
        name,
        t.labelled,
        t.predicted,
        t.correct,
        pct(t.precision()),
        pct(t.recall()),
        pct(t.f1()),
        t.unlabelled
    );
}

fn print_table(board: &Scoreboard) {
    println!(
        "{:<24} {:>8} {:>9} {:>7} {:>7} {:>7} {:>7} {:>11}",
        "field", "labelled", "predicted", "correct", "P %", "R %", "F1 %", "unlabelled*"
    );
    for f in FIELDS {
        print_row(f, &board.tally(f));
    }
    print_row("ALL (micro)", &board.overall());
    if EXTRA_FIELDS.iter().any(|f| board.tally(f).labelled > 0) {
        println!("beyond the shared scoring rules (where labelled; not in micro or macro):");
        for f in EXTRA_FIELDS {
            print_row(f, &board.tally(f));
        }
    }
    println!("matched line-item pairs:");
    for f in LINE_ITEM_FIELDS {
        print_row(f, &board.tally(f));
    }
    println!("* predicted where the truth has no label: not scored");
}

fn compact(v: &Value, field: &str) -> String {
    if field == "line_items" {
        // Net amounts only: that is what rows are matched by.
        let amounts: Vec<String> = v
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| match r.get("line_total") {
                        Some(Value::String(s)) => s.clone(),
                        _ => "null".into(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        return format!("[{}]", amounts.join(", "));
    }
    v.to_string()
}

fn show_errors(runs: &[DocRun], field: &str) {
    println!();
    println!("misses of {field} (truth | predicted):");
    let mut n = 0;
    for r in runs {
        let Some(o) = r.score.get(field) else {
            continue;
        };
        if !o.tally.has_miss() {
            continue;
        }
        n += 1;
        let err = r
            .error
            .as_ref()
            .map(|(c, _)| format!("  [{c}]"))
            .unwrap_or_default();
        println!(
            "  {}: {} | {}{}",
            r.doc.id,
            compact(&o.truth, field),
            compact(&o.predicted_value, field),
            err
        );
    }
    println!("  {n} documents");
}

fn tally_json(t: &FieldTally) -> Value {
    json!({
        "labelled": t.labelled,
        "predicted": t.predicted,
        "correct": t.correct,
        "unlabelled": t.unlabelled,
        "precision": t.precision(),
        "recall": t.recall(),
        "f1": t.f1(),
    })
}

#[allow(clippy::too_many_arguments)]
fn report_json(
    args: &Args,
    jobs: usize,
    runs: &[DocRun],
    board: &Scoreboard,
    errors: &BTreeMap<String, u64>,
    wall: f64,
    docs_per_s: f64,
    median: f64,
) -> Value {
    let fields: serde_json::Map<String, Value> = FIELDS
        .iter()
        .chain(EXTRA_FIELDS.iter())
        .chain(LINE_ITEM_FIELDS.iter())
        .map(|f| (f.to_string(), tally_json(&board.tally(f))))
        .collect();
    let per_document: Vec<Value> = runs
        .iter()
        .map(|r| {
            json!({
                "id": r.doc.id,
                "input": path_str(&r.doc.input),
                "seconds": r.seconds,
                "error": r.error.as_ref().map(|(c, m)| json!({"code": c, "message": m})),
                "warnings": r.warnings.iter().map(|(c, f, m)| json!({"code": c, "field": f, "message": m})).collect::<Vec<_>>(),
                "einvoice_evidence": r.einvoice_evidence,
                "einvoice": r.einvoice.as_ref().map(|p| json!({
                    "syntax": p.syntax,
                    "guideline": p.guideline,
                    "attachment": p.attachment,
                    "unreadable": p.unreadable,
                })),
                "fields": r.score.fields,
            })
        })
        .collect();
    json!({
        "dir": path_str(&args.dir),
        "mode": mode(args),
        "split": args.split.as_ref().map(|p| json!({
            "file": path_str(p),
            "part": args.part,
            "fold": args.fold,
        })),
        "macro_f1": macro_f1(board).0,
        "macro_f1_fields": macro_f1(board).1,
        "extra_fields": EXTRA_FIELDS,
        "einvoice_evidence_documents": runs.iter().filter(|r| r.einvoice_evidence).count(),
        "exact": args.exact,
        "warning_documents": warning_documents(runs),
        "einvoice_found": args.einvoice.then(|| runs.iter().filter(|r| r.einvoice.as_ref().is_some_and(|p| p.syntax.is_some())).count()),
        "jobs": jobs,
        "documents": runs.len(),
        "errors": errors,
        "wall_seconds": wall,
        "documents_per_second": docs_per_s,
        "median_seconds_per_document": median,
        "fields": fields,
        "overall": tally_json(&board.overall()),
        "per_document": per_document,
    })
}

fn path_str(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}
