//! End-to-end speed with a warm engine on one thread (`EngineConfig::threads = Some(1)`):
//!
//! * `pipeline/text_layer_pdf_page`: page 1 of a text-layer PDF through `recognize_bytes`
//!   (a ZUGFeRD invoice from the shared data, else a fixture; `FOLIO_BENCH_PDF` overrides);
//! * `pipeline/sroie_boxes`: a SROIE receipt's OCR lines through `recognize_text_pages`
//!   (cleaning onwards), when the shared data is present.
//!
//! Run: `cargo bench --workspace --bench pipeline` (OMP_THREAD_LIMIT=1 comes from
//! `.cargo/config.toml`).

use criterion::{Criterion, criterion_group, criterion_main};
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions};
use folio_bench::boxes::parse_boxes;
use folio_bench::inputs::{sroie_boxes, text_layer_pdf};
use std::hint::black_box;

fn engine() -> Option<Engine> {
    let cfg = EngineConfig {
        threads: Some(1),
        ..EngineConfig::default()
    };
    match Engine::new(cfg) {
        Ok(e) => Some(e),
        Err(e) => {
            eprintln!("pipeline: skipped, engine unavailable: {e}");
            None
        }
    }
}

fn bench_pipeline(c: &mut Criterion) {
    let Some(engine) = engine() else { return };
    let cancel = CancelToken::new();
    let progress = |_| {};
    let mut group = c.benchmark_group("pipeline");

    match text_layer_pdf().and_then(|p| std::fs::read(&p).ok().map(|b| (p, b))) {
        Some((path, bytes)) => {
            let opts = RecognizeOptions {
                pages: Some("1".into()),
                ..RecognizeOptions::default()
            };
            match engine.recognize_bytes(&bytes, &opts, &progress, &cancel) {
                Ok(_) => {
                    eprintln!("pipeline: text-layer PDF {}", path.display());
                    group.bench_function("text_layer_pdf_page", |b| {
                        b.iter(|| {
                            engine
                                .recognize_bytes(black_box(&bytes), &opts, &progress, &cancel)
                                .map(|r| r.line_items.len())
                        })
                    });
                }
                Err(e) => eprintln!("pipeline: skipped {}: {e}", path.display()),
            }
        }
        None => eprintln!("pipeline: skipped text_layer_pdf_page, no text-layer PDF found"),
    }

    match sroie_boxes()
        .and_then(|p| std::fs::read_to_string(&p).ok())
        .and_then(|s| parse_boxes(&s))
    {
        Some(page) => {
            let pages = [page];
            let opts = RecognizeOptions::default();
            group.bench_function("sroie_boxes", |b| {
                b.iter(|| {
                    engine
                        .recognize_text_pages(black_box(&pages), &opts, &progress, &cancel)
                        .map(|r| r.line_items.len())
                })
            });
        }
        None => eprintln!("pipeline: skipped sroie_boxes, no SROIE data"),
    }
    group.finish();
}

criterion_group!(benches, bench_pipeline);
criterion_main!(benches);
