//! Per-stage speed on page 1 of a text-layer PDF (see `folio_bench::inputs::text_layer_pdf`),
//! on the calling thread:
//!
//! * `stages/pdf_text_layer`: pdfium load + words with boxes + usability check;
//! * `stages/clean`: normalisation, lines, reading order;
//! * `stages/candidates`: candidate values;
//! * `stages/fields_classify_validate`: field choice (rule scorer), classification, checks.
//!
//! Run: `cargo bench --workspace --bench stages`.

use criterion::{Criterion, criterion_group, criterion_main};
use folio::fields::RuleScorer;
use folio::pdf::PdfLib;
use folio::{EngineConfig, candidates, classify, clean, fields, validate};
use folio_bench::inputs::text_layer_pdf;
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
            let (dt, st) = classify::classify(&doc, &cands, &r);
            r.document_type = dt;
            r.structure_type = st;
            validate::validate(&mut r);
            r
        })
    });
    group.finish();
}

criterion_group!(benches, bench_stages);
criterion_main!(benches);
