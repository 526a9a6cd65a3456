//! The cost of the e-invoice path (issue 13), on the calling thread, over a generated Factur-X
//! EN 16931 invoice (`fixtures/docs/einvoice_facturx_en16931.pdf`, one text-layer page with its
//! CII XML attached as `factur-x.xml`; `FOLIO_BENCH_EINVOICE_PDF` names another PDF whose
//! attachment is an incremental update):
//!
//! * `einvoice/parse`: the attached XML into an `EInvoice` (`einvoice::parse`);
//! * `einvoice/find`: pdfium opening the PDF, listing and reading its attachments and parsing
//!   the invoice XML among them (`einvoice::find`, `parse` included);
//! * `einvoice/crosscheck`: the XML's values against page 1 (`einvoice::crosscheck`; the cleaned
//!   text, candidates and visual reading are made once, outside the loop);
//! * `einvoice/merge_rules`: the XML's values over the visual reading (`einvoice::merge::merge`)
//!   and the EN 16931 arithmetic (`einvoice::rules`);
//! * `einvoice/recognize_with_xml`, `einvoice/recognize_without_xml`: `Engine::recognize_bytes`
//!   (one thread, warm engine) of the PDF and of the same PDF without its attachment. Their
//!   difference is the cost of the e-invoice path on top of the text-layer reading (target:
//!   at most 5 ms).
//!
//! The fixture's attachment is an incremental update of the generated page
//! (`fixtures/generate.py`), so its first revision (the bytes up to the first `%%EOF`) is the
//! same PDF without the attachment; the benchmark checks that `find` finds the invoice in the one
//! and nothing in the other, and skips otherwise. With the shared data present,
//! `einvoice/parse_real` and `einvoice/find_real` do the same on a real ZUGFeRD invoice
//! (`folio_bench::inputs::PREFERRED_ZUGFERD`).
//!
//! Run: `cargo bench -p folio-bench --bench einvoice`.

use criterion::{Criterion, criterion_group, criterion_main};
use folio::einvoice::{self, find::MAX_ATTACHMENT_BYTES, find::MAX_ATTACHMENTS};
use folio::fields::RuleScorer;
use folio::pdf::PdfLib;
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions, candidates, clean, fields};
use folio_bench::inputs::{PREFERRED_ZUGFERD, shared_data, workspace_root};
use std::hint::black_box;
use std::path::PathBuf;

/// Environment variable naming the e-invoice PDF (overrides the fixture).
const EINVOICE_PDF_ENV: &str = "FOLIO_BENCH_EINVOICE_PDF";

/// The fixture the benchmark reads by default.
const FIXTURE: &str = "einvoice_facturx_en16931.pdf";

fn einvoice_pdf() -> PathBuf {
    match std::env::var_os(EINVOICE_PDF_ENV).filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => workspace_root().join("fixtures").join("docs").join(FIXTURE),
    }
}

/// The first revision of a PDF: its bytes up to the first `%%EOF` and the end of line after it.
fn first_revision(pdf: &[u8]) -> Option<&[u8]> {
    let at = pdf.windows(5).position(|w| w == b"%%EOF")? + 5;
    let eol = pdf[at..]
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    Some(&pdf[..at + eol])
}

/// The bytes of the attachment `find` read the invoice from.
fn invoice_xml(lib: &PdfLib, pdf: &[u8]) -> Option<Vec<u8>> {
    let name = einvoice::find(lib, pdf, false).attachment?;
    let mut xml = None;
    lib.attachments(pdf, MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES, &mut |f| {
        if xml.is_none() && f.name == name {
            xml = f.data;
        }
    })
    .ok()?;
    xml
}

fn bench_einvoice(c: &mut Criterion) {
    let path = einvoice_pdf();
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("einvoice: skipped, cannot read {}", path.display());
        return;
    };
    let lib = match PdfLib::get(None) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("einvoice: skipped, {e}");
            return;
        }
    };
    let Some(bare) = first_revision(&bytes).filter(|b| b.len() < bytes.len()) else {
        eprintln!(
            "einvoice: skipped, {} has no incremental update",
            path.display()
        );
        return;
    };
    if einvoice::find(lib, bare, false).invoice.is_some() {
        eprintln!(
            "einvoice: skipped, the first revision of {} has the invoice",
            path.display()
        );
        return;
    }
    let Some(xml) = invoice_xml(lib, &bytes) else {
        eprintln!(
            "einvoice: skipped, no invoice XML found in {}",
            path.display()
        );
        return;
    };
    let e = match einvoice::parse(&xml) {
        Ok(e) => e,
        Err(err) => {
            eprintln!("einvoice: skipped, {}: {err}", path.display());
            return;
        }
    };
    let quality = EngineConfig::default().ocr.min_text_layer_quality;
    let pages: Vec<_> = match lib.extract_text(&bytes, &[1], quality) {
        Ok(l) => l.into_iter().map(|p| p.text).collect(),
        Err(err) => {
            eprintln!("einvoice: skipped, {}: {err}", path.display());
            return;
        }
    };
    let doc = clean::clean(&pages);
    let cands = candidates::extract(&doc);
    let visual = fields::extract(&doc, &cands, &RuleScorer);
    let checked = einvoice::crosscheck(&e, &doc, &cands, &visual);
    eprintln!(
        "einvoice: {} ({} bytes, without attachment {} bytes; XML {} bytes, {}; cross-check: \
         {} evidence, {} warnings)",
        path.display(),
        bytes.len(),
        bare.len(),
        xml.len(),
        e.syntax.as_str(),
        checked.evidence.len(),
        checked.warnings.len()
    );

    let mut group = c.benchmark_group("einvoice");
    group.bench_function("parse", |b| b.iter(|| einvoice::parse(black_box(&xml))));
    group.bench_function("find", |b| {
        b.iter(|| einvoice::find(lib, black_box(&bytes), false))
    });
    group.bench_function("crosscheck", |b| {
        b.iter(|| einvoice::crosscheck(black_box(&e), &doc, &cands, &visual))
    });
    group.bench_function("merge_rules", |b| {
        b.iter(|| {
            let r = einvoice::merge::merge(black_box(&e), visual.clone());
            (r, einvoice::rules(&e))
        })
    });

    let cfg = EngineConfig {
        threads: Some(1),
        ..EngineConfig::default()
    };
    match Engine::new(cfg) {
        Ok(engine) => {
            let cancel = CancelToken::new();
            let progress = |_| {};
            let opts = RecognizeOptions::default();
            for (name, input) in [
                ("recognize_with_xml", &bytes[..]),
                ("recognize_without_xml", bare),
            ] {
                if let Err(err) = engine.recognize_bytes(input, &opts, &progress, &cancel) {
                    eprintln!("einvoice: {name} skipped: {err}");
                    continue;
                }
                group.bench_function(name, |b| {
                    b.iter(|| {
                        engine
                            .recognize_bytes(black_box(input), &opts, &progress, &cancel)
                            .map(|r| r.line_items.len())
                    })
                });
            }
        }
        Err(err) => eprintln!("einvoice: recognize skipped, engine unavailable: {err}"),
    }

    let real = shared_data().map(|d| d.join("zugferd").join(PREFERRED_ZUGFERD));
    match real.and_then(|p| std::fs::read(p).ok()) {
        Some(pdf) => match invoice_xml(lib, &pdf) {
            Some(xml) => {
                group.bench_function("parse_real", |b| {
                    b.iter(|| einvoice::parse(black_box(&xml)))
                });
                group.bench_function("find_real", |b| {
                    b.iter(|| einvoice::find(lib, black_box(&pdf), false))
                });
            }
            None => eprintln!("einvoice: real ZUGFeRD skipped, no invoice XML found"),
        },
        None => eprintln!("einvoice: real ZUGFeRD skipped, no shared data"),
    }
    group.finish();
}

criterion_group!(benches, bench_einvoice);
criterion_main!(benches);
