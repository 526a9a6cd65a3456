//! Per-stage speed on page 1 of a text-layer PDF (see `folio_bench::inputs::text_layer_pdf`),
//! on the calling thread:
//!
//! * `stages/pdf_text_layer`: pdfium load + words with boxes + usability check;
//! * `stages/clean`: normalisation, lines, reading order;
//! * `stages/candidates`: candidate values;
//! * `stages/fields_classify_validate`: field choice (rule scorer), classification, checks;
//! * `stages/fields_rules`, `stages/fields_model`: field choice alone with the rule scorer and
//!   with the learned model (the embedded ONNX model through onnxruntime): their difference is
//!   what model scoring adds per page; `stages/fields_rules_receipt`,
//!   `stages/fields_model_receipt`: the same on a SROIE receipt (its boxes).
//!
//! Run: `cargo bench --workspace --bench stages`.

use criterion::{Criterion, criterion_group, criterion_main};
use folio::fields::RuleScorer;
use folio::fields::model::ModelScorer;
use folio::pdf::PdfLib;
use folio::{EngineConfig, candidates, classify, clean, fields, validate};
use folio_bench::boxes::parse_boxes;
use folio_bench::inputs::{sroie_boxes, text_layer_pdf};
use std::hint::black_box;

fn bench_stages(c: &mut Criterion) {
    let Some(path) = text_layer_pdf() else {
        eprintln!("stages: skipped, no text-layer PDF found");
        return;
    };
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("stages: skipped, cannot read {}", path.display());
        return;
    };
    let lib = match PdfLib::get(None) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("stages: skipped, {e}");
            return;
        }
    };
    let quality = EngineConfig::default().ocr.min_text_layer_quality;
    let layer = match lib.extract_text(&bytes, &[1], quality) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("stages: skipped {}: {e}", path.display());
            return;
        }
    };
    let pages: Vec<_> = layer.into_iter().map(|p| p.text).collect();
    eprintln!(
        "stages: {} ({} words on page 1)",
        path.display(),
        pages.iter().map(|p| p.words.len()).sum::<usize>()
    );
    let doc = clean::clean(&pages);
    let cands = candidates::extract(&doc);

    let mut group = c.benchmark_group("stages");
    group.bench_function("pdf_text_layer", |b| {
        b.iter(|| {
            lib.extract_text(black_box(&bytes), &[1], quality)
                .map(|v| v.len())
        })
    });
    group.bench_function("clean", |b| b.iter(|| clean::clean(black_box(&pages))));
    group.bench_function("candidates", |b| {
        b.iter(|| candidates::extract(black_box(&doc)))
    });
    group.bench_function("fields_classify_validate", |b| {
        b.iter(|| {
            let mut r = fields::extract(black_box(&doc), &cands, &RuleScorer);
            let (dt, st) = classify::classify(&doc, &cands, &r, None);
            r.document_type = dt;
            r.structure_type = st;
            validate::validate(&mut r);
            r
        })
    });
    match ModelScorer::embedded(None) {
        Ok(model) => {
            group.bench_function("fields_rules", |b| {
                b.iter(|| fields::extract(black_box(&doc), &cands, &RuleScorer))
            });
            group.bench_function("fields_model", |b| {
                b.iter(|| fields::extract(black_box(&doc), &cands, &model))
            });
            let read = fields::extract(&doc, &cands, &model);
            let choices = fields::choice_model::ChoiceModel::embedded();
            group.bench_function("classify_model", |b| {
                b.iter(|| classify::classify(black_box(&doc), &cands, &read, choices))
            });
            let receipt = sroie_boxes()
                .and_then(|p| std::fs::read_to_string(p).ok())
                .and_then(|t| parse_boxes(&t));
            if let Some(page) = receipt {
                let rdoc = clean::clean(&[page]);
                let rcands = candidates::extract(&rdoc);
                group.bench_function("fields_rules_receipt", |b| {
                    b.iter(|| fields::extract(black_box(&rdoc), &rcands, &RuleScorer))
                });
                group.bench_function("fields_model_receipt", |b| {
                    b.iter(|| fields::extract(black_box(&rdoc), &rcands, &model))
                });
            }
        }
        Err(e) => eprintln!("stages: model benchmarks skipped, {e}"),
    }
    group.finish();
}

criterion_group!(benches, bench_stages);
criterion_main!(benches);
