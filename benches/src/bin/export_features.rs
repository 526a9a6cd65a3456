//! Training data for the learned field scorer: every candidate of every labelled document, for
//! every field the model scores, as the exact vector inference uses
//! (`folio::fields::vector::feature_vector`), with its label (the candidate's value is the
//! truth's, by the shared scoring rules; the net total, not labelled, is total less VAT) and the
//! document's group (its seller, so that
//! cross-validation never splits one shop or company across training and test).
//!
//! ```text
//! export_features [--boxes] [--jobs N] DIR > rows.jsonl
//! ```
//! First line: `{"names": [...]}`; then one line per row:
//! `{"doc", "group", "field", "cand", "value", "label", "x": [...]}`. Documents the engine
//! cannot read are reported on stderr and skipped.

use clap::Parser;
use folio::candidates;
use folio::clean;
use folio::fields::Field;
use folio::fields::features::{FeatureContext, candidate_features};
use folio::fields::vector::{MODEL_FIELDS, feature_names, feature_vector};
use folio::types::TextPage;
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions, ScorerKind};
use folio_bench::boxes::parse_boxes;
use folio_bench::dataset::{LabelledDoc, discover};
use folio_bench::score::{amounts_match, ids_match, normalize_text, parse_decimal};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
struct Args {
    /// Read `<id>.boxes.txt` (SROIE's own OCR lines) instead of the documents.
    #[arg(long)]
    boxes: bool,
    /// Parallel documents.
    #[arg(long)]
    jobs: Option<usize>,
    /// Labelled folder.
    dir: PathBuf,
}

fn truth_key(f: Field) -> &'static str {
    match f {
        Field::Number => "number",
        Field::Date => "date",
        Field::Total => "total",
        Field::Vat => "vat",
        Field::Net => "net",
        _ => "",
    }
}

/// Whether a candidate value is the truth of a field (`None`: the field is not labelled).
fn label(field: Field, truth: &Value, value: &str) -> Option<bool> {
    if field == Field::Net {
        // Not labelled in the data: the net total is the labelled total less the labelled VAT.
        let total = parse_decimal(truth.get("total")?.as_str()?)?;
        let vat = parse_decimal(truth.get("vat")?.as_str()?)?;
        return Some(amounts_match(&(total - vat).to_string(), value));
    }
    let t = truth.get(truth_key(field))?.as_str()?;
    Some(match field {
        Field::Number => ids_match(t, value),
        Field::Date => t == value,
        _ => amounts_match(t, value),
    })
}

fn pages_of(engine: &Engine, doc: &LabelledDoc, boxes: bool) -> Result<Vec<TextPage>, String> {
    if boxes {
        let text = std::fs::read_to_string(&doc.input).map_err(|e| e.to_string())?;
        parse_boxes(&text)
            .map(|p| vec![p])
            .ok_or_else(|| "no usable boxes".to_string())
    } else {
        let bytes = std::fs::read(&doc.input).map_err(|e| e.to_string())?;
        engine
            .extract_text_pages(
                &bytes,
                &RecognizeOptions::default(),
                &|_| {},
                &CancelToken::new(),
            )
            .map_err(|e| e.to_string())
    }
}

fn rows(engine: &Engine, doc: &LabelledDoc, boxes: bool) -> Result<Vec<String>, String> {
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(&doc.truth).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let group = truth
        .get("seller_name")
        .and_then(Value::as_str)
        .map(normalize_text)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| doc.id.clone());
    let pages = pages_of(engine, doc, boxes)?;
    let clean = clean::clean(&pages);
    let cands = candidates::extract(&clean);
    let ctx = FeatureContext::new(&clean, &cands);
    let mut out = Vec::new();
    for i in 0..cands.items.len() {
        let Some(f) = candidate_features(&ctx, &cands, i) else {
            continue;
        };
        let value = &cands.items[i].value;
        for field in MODEL_FIELDS {
            let Some(l) = label(field, &truth, value) else {
                continue;
            };
            let Some(x) = feature_vector(field, &f) else {
                continue;
            };
            out.push(
                json!({"doc": doc.id, "group": group, "field": truth_key(field), "cand": i,
                       "value": value, "label": l, "x": x})
                .to_string(),
            );
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    if let Some(code) = folio::runtime::reexec_with_omp_limit() {
        return code;
    }
    let args = Args::parse();
    if let Some(n) = args.jobs {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    // Extraction only (the vectors do not depend on the scorer): no model needed.
    let config = EngineConfig {
        scorer: ScorerKind::Rules,
        ..EngineConfig::default()
    };
    let engine = match Engine::new(config) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("export_features: {e}");
            return ExitCode::from(3);
        }
    };
    let found = match discover(&args.dir, args.boxes) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("export_features: {}: {e}", args.dir.display());
            return ExitCode::from(2);
        }
    };
    let results: Vec<(String, Result<Vec<String>, String>)> = found
        .docs
        .par_iter()
        .map(|d| (d.id.clone(), rows(&engine, d, args.boxes)))
        .collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let _ = writeln!(out, "{}", json!({"names": feature_names()}));
    let (mut docs, mut n) = (0, 0);
    for (id, r) in results {
        match r {
            Ok(rows) => {
                docs += 1;
                n += rows.len();
                for row in rows {
                    let _ = writeln!(out, "{row}");
                }
            }
            Err(e) => eprintln!("export_features: {id}: {e}"),
        }
    }
    let _ = out.flush();
    eprintln!("export_features: {n} rows from {docs} documents");
    ExitCode::SUCCESS
}
