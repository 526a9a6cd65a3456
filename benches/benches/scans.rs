//! Per-page time of the OCR engines on scans and photos, warm engine, one thread
//! (`EngineConfig::threads = Some(1)`, `OMP_THREAD_LIMIT=1` from `.cargo/config.toml`):
//!
//! * `scans/tesseract/*`: `ocr.engine = "tesseract"`, the six default languages;
//! * `scans/ppocr/*`: PP-OCR alone (`ocr.engine = "ppocr"`, Latin-script languages only, so no
//!   script probe);
//! * `scans/standard/*`: the default (`auto`, six languages);
//! * `scans/heavy/*`: the default with enhanced recognition (`RecognizeOptions::heavy`);
//! * `scans/flatten/*`: the photo preparation alone (`preprocess::photo::flatten`: outline,
//!   perspective, light, size) on the decoded grey image, what it adds to every image page.
//!
//! Inputs: fixtures `receipt_en_scan.jpg` (receipt scan), `invoice_de_scan.png` (A4 scan, 1 bit),
//! `invoice_en_photo.jpg` (a 3-megapixel phone photo) and `photo_12mp`, the same photo enlarged
//! to 3000 x 4000 and encoded as JPEG in memory (a 12-megapixel phone photo).
//!
//! Run: `cargo bench --workspace --bench scans`.

use criterion::{Criterion, criterion_group, criterion_main};
use folio::config::OcrEngineKind;
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions};
use folio_bench::inputs::workspace_root;
use std::hint::black_box;
use std::time::Duration;

fn engine(kind: OcrEngineKind) -> Option<Engine> {
    let mut cfg = EngineConfig {
        threads: Some(1),
        ..EngineConfig::default()
    };
    cfg.ocr.engine = kind;
    match Engine::new(cfg) {
        Ok(e) => Some(e),
        Err(e) => {
            eprintln!("scans: skipped {kind:?}, engine unavailable: {e}");
            None
        }
    }
}

/// The 12-megapixel photo: the fixture photo enlarged (bilinear) and encoded at quality 90.
fn photo_12mp(photo: &[u8]) -> Option<Vec<u8>> {
    let img = image::load_from_memory(photo).ok()?;
    let big = img.resize_exact(3000, 4000, image::imageops::FilterType::Triangle);
    let mut out = Vec::new();
    let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90);
    big.write_with_encoder(enc).ok()?;
    Some(out)
}

fn bench_scans(c: &mut Criterion) {
    let docs = workspace_root().join("fixtures").join("docs");
    let mut inputs: Vec<(&str, Vec<u8>)> = Vec::new();
    for (name, file) in [
        ("receipt_scan", "receipt_en_scan.jpg"),
        ("a4_scan", "invoice_de_scan.png"),
        ("photo_3mp", "invoice_en_photo.jpg"),
    ] {
        match std::fs::read(docs.join(file)) {
            Ok(b) => inputs.push((name, b)),
            Err(e) => eprintln!("scans: skipped {file}: {e}"),
        }
    }
    if let Some(big) = inputs
        .iter()
        .find(|(n, _)| *n == "photo_3mp")
        .and_then(|(_, b)| photo_12mp(b))
    {
        inputs.push(("photo_12mp", big));
    }
    let cancel = CancelToken::new();
    let progress = |_| {};
    let latin: Vec<String> = ["en", "de", "fr", "pl"].map(String::from).to_vec();
    let mut group = c.benchmark_group("scans");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    let modes: [(&str, OcrEngineKind, bool, Option<Vec<String>>); 4] = [
        ("tesseract", OcrEngineKind::Tesseract, false, None),
        ("ppocr", OcrEngineKind::Ppocr, false, Some(latin)),
        ("standard", OcrEngineKind::Auto, false, None),
        ("heavy", OcrEngineKind::Auto, true, None),
    ];
    for (mode, kind, heavy, languages) in modes {
        let Some(engine) = engine(kind) else { continue };
        let opts = RecognizeOptions {
            heavy,
            languages,
            ..RecognizeOptions::default()
        };
        for (name, bytes) in &inputs {
            if let Err(e) = engine.recognize_bytes(bytes, &opts, &progress, &cancel) {
                eprintln!("scans: skipped {mode}/{name}: {e}");
                continue;
            }
            group.bench_function(format!("{mode}/{name}"), |b| {
                b.iter(|| {
                    engine
                        .recognize_bytes(black_box(bytes), &opts, &progress, &cancel)
                        .map(|r| r.line_items.len())
                })
            });
        }
    }
    for (name, bytes) in &inputs {
        let Ok(img) = image::load_from_memory(bytes) else {
            continue;
        };
        let gray = img.to_luma8();
        group.bench_function(format!("flatten/{name}"), |b| {
            b.iter(|| folio::preprocess::photo::flatten(black_box(gray.clone())))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scans);
criterion_main!(benches);
