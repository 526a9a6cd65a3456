//! Integration tests of the [`Engine`] with a fake OCR engine: progress order, cancellation,
//! limits, page selection, the text-page entry and sharing one engine between threads.
//!
//! The fake OCR returns fixed words, so these tests need neither tesseract nor pdfium (the inputs
//! are images: a PNG made here and the 2-page TIFF fixture).

use folio::engine::Progress;
use folio::fields::RuleScorer;
use folio::ocr::{OcrEngine, OcrRequest};
use folio::result::{Source, Unit};
use folio::types::{BBox, TextPage, Word};
use folio::{CancelToken, Engine, EngineConfig, Error, ErrorCode, RecognizeOptions, Stage};
use folio_e2e::SMALL_INVOICE as LINES;
use image::{GrayImage, Luma};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Words of [`LINES`] laid out on a page of `width` x `height` pixels.
fn fake_words(width: u32, height: u32) -> Vec<Word> {
    let char_w = (width as f32 / 80.0).max(1.0);
    let line_h = (height as f32 / 40.0).max(2.0);
    let mut words = Vec::new();
    for (row, line) in LINES.iter().enumerate() {
        let y0 = line_h * (2.0 + 1.5 * row as f32);
        let mut x = char_w * 4.0;
        for w in line.split(' ') {
            let x1 = x + char_w * w.chars().count() as f32;
            words.push(Word {
                text: w.to_string(),
                bbox: BBox::new(x, y0, x1, y0 + line_h),
                confidence: 0.93,
            });
            x = x1 + char_w;
        }
    }
    words
}

/// An OCR engine returning [`LINES`] for every page, recording which pages it was asked for, and
/// optionally blocking until a token is cancelled (to cancel "during OCR").
#[derive(Default)]
struct FakeOcr {
    calls: Mutex<Vec<u32>>,
    gate: Option<Gate>,
}

struct Gate {
    started: Mutex<mpsc::Sender<u32>>,
    release: CancelToken,
}

impl OcrEngine for FakeOcr {
    fn recognize(&self, image: &GrayImage, req: &OcrRequest<'_>) -> folio::Result<TextPage> {
        if let Ok(mut calls) = self.calls.lock() {
            calls.push(req.page);
        }
        if let Some(gate) = &self.gate {
            if let Ok(tx) = gate.started.lock() {
                let _ = tx.send(req.page);
            }
            let deadline = Instant::now() + Duration::from_secs(20);
            while !gate.release.is_cancelled() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        Ok(TextPage {
            page: req.page,
            width: image.width() as f32,
            height: image.height() as f32,
            unit: Unit::Px,
            source: Source::Ocr,
            engine: None,
            rotation: 0,
            words: fake_words(image.width(), image.height()),
        })
    }
}

impl FakeOcr {
    fn pages_seen(&self) -> Vec<u32> {
        let mut v = self.calls.lock().map(|c| c.clone()).unwrap_or_default();
        v.sort_unstable();
        v
    }
}

fn engine_with(config: EngineConfig, ocr: Arc<FakeOcr>) -> Engine {
    Engine::with_components(config, ocr, Arc::new(RuleScorer)).expect("engine builds")
}

/// A white 600x800 PNG with a few dark bars (text-like strokes).
fn png_page() -> Vec<u8> {
    let mut img = GrayImage::from_pixel(600, 800, Luma([255]));
    for row in 0..8u32 {
        for y in 60 + row * 40..72 + row * 40 {
            for x in 40..(300 + row * 20) {
                img.put_pixel(x, y, Luma([20]));
            }
        }
    }
    let mut out = Vec::new();
    image::DynamicImage::ImageLuma8(img)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("png encodes");
    out
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/docs")
        .join(name)
}

/// The committed 2-page TIFF scan.
fn two_page_tiff() -> Vec<u8> {
    let path = fixture("waybill_pl_scan.tiff");
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn no_progress(_: Progress) {}

fn opts(pages: Option<&str>) -> RecognizeOptions {
    RecognizeOptions {
        pages: pages.map(str::to_string),
        ..RecognizeOptions::default()
    }
}

fn code<T: std::fmt::Debug>(r: folio::Result<T>) -> ErrorCode {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.code(),
    }
}

/// Position of a stage in the contract's order.
fn rank(s: Stage) -> u8 {
    match s {
        Stage::Preprocessing => 0,
        Stage::TextExtracting => 1,
        Stage::OcrProcessing => 2,
        Stage::Cleaning => 3,
        Stage::CandidatesExtracting => 4,
        Stage::AiExtracting => 5,
        Stage::Validating => 6,
    }
}

fn distinct_stages(events: &[Progress]) -> Vec<Stage> {
    let mut out: Vec<Stage> = Vec::new();
    for e in events {
        if out.last() != Some(&e.stage) {
            out.push(e.stage);
        }
    }
    out
}

#[test]
fn progress_reports_stages_in_contract_order() {
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(EngineConfig::default(), ocr.clone());
    let events = Mutex::new(Vec::new());
    let record = |p: Progress| events.lock().expect("lock").push(p);
    let result = engine
        .recognize_bytes(
            &two_page_tiff(),
            &RecognizeOptions::default(),
            &record,
            &CancelToken::new(),
        )
        .expect("recognised");
    assert_eq!(result.schema_version, "1.0");
    let events = events.into_inner().expect("lock");

    let ranks: Vec<u8> = events.iter().map(|e| rank(e.stage)).collect();
    assert!(
        ranks.windows(2).all(|w| w[0] <= w[1]),
        "stages out of order: {events:?}"
    );
    assert_eq!(
        distinct_stages(&events),
        vec![
            Stage::Preprocessing,
            Stage::OcrProcessing,
            Stage::Cleaning,
            Stage::CandidatesExtracting,
            Stage::AiExtracting,
            Stage::Validating,
        ],
        "{events:?}"
    );
    // One OCR event per page (in any order: pages run in parallel).
    let mut ocr_pages: Vec<u32> = events
        .iter()
        .filter(|e| e.stage == Stage::OcrProcessing)
        .filter_map(|e| e.page)
        .collect();
    ocr_pages.sort_unstable();
    assert_eq!(ocr_pages, vec![1, 2]);
    assert_eq!(ocr.pages_seen(), vec![1, 2]);
    // The page total is known from the first event after preprocessing.
    assert!(
        events
            .iter()
            .filter(|e| e.stage != Stage::Preprocessing)
            .all(|e| e.pages_total == 2),
        "{events:?}"
    );
}

#[test]
fn cancelled_before_start() {
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(EngineConfig::default(), ocr.clone());
    let token = CancelToken::new();
    token.cancel();
    let events = Mutex::new(Vec::new());
    let record = |p: Progress| events.lock().expect("lock").push(p);
    let r = engine.recognize_bytes(&png_page(), &RecognizeOptions::default(), &record, &token);
    assert!(matches!(r, Err(Error::Cancelled)), "{r:?}");
    assert!(ocr.pages_seen().is_empty(), "OCR ran after cancellation");
    assert!(events.into_inner().expect("lock").is_empty());
    // The text-page entry honours the token too.
    let page = text_page();
    let r =
        engine.recognize_text_pages(&[page], &RecognizeOptions::default(), &no_progress, &token);
    assert_eq!(code(r), ErrorCode::Cancelled);
}

#[test]
fn cancelled_from_another_thread_during_ocr() {
    let token = CancelToken::new();
    let (tx, rx) = mpsc::channel();
    let ocr = Arc::new(FakeOcr {
        calls: Mutex::new(Vec::new()),
        gate: Some(Gate {
            started: Mutex::new(tx),
            release: token.clone(),
        }),
    });
    let engine = engine_with(EngineConfig::default(), ocr.clone());
    let canceller = {
        let token = token.clone();
        std::thread::spawn(move || {
            // Wait until OCR is under way, then cancel.
            let page = rx.recv_timeout(Duration::from_secs(20));
            token.cancel();
            page
        })
    };
    let events = Mutex::new(Vec::new());
    let record = |p: Progress| events.lock().expect("lock").push(p);
    let started = Instant::now();
    let r = engine.recognize_bytes(
        &two_page_tiff(),
        &RecognizeOptions::default(),
        &record,
        &token,
    );
    let page = canceller.join().expect("canceller thread");
    assert!(page.is_ok(), "OCR never started");
    assert_eq!(code(r), ErrorCode::Cancelled);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "cancellation was not prompt"
    );
    let stages = distinct_stages(&events.into_inner().expect("lock"));
    assert!(
        !stages.contains(&Stage::Validating) && !stages.contains(&Stage::AiExtracting),
        "stages after cancellation ran: {stages:?}"
    );
}

#[test]
fn file_size_limit() {
    let config = EngineConfig::from_json(r#"{"limits":{"max_file_size_mb":1}}"#).expect("config");
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(config, ocr.clone());
    // A PNG header followed by padding: over 1 MiB, rejected before any decoding.
    let mut big = png_page();
    big.resize(1024 * 1024 + 1, 0);
    let r = engine.recognize_bytes(
        &big,
        &RecognizeOptions::default(),
        &no_progress,
        &CancelToken::new(),
    );
    assert_eq!(code(r), ErrorCode::FileTooLarge);

    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.png");
    std::fs::write(&path, &big).expect("write");
    let r = engine.recognize_path(
        &path,
        &RecognizeOptions::default(),
        &no_progress,
        &CancelToken::new(),
    );
    assert!(
        matches!(
            r,
            Err(Error::FileTooLarge {
                limit: 1_048_576,
                ..
            })
        ),
        "{r:?}"
    );
    assert!(ocr.pages_seen().is_empty());

    // Exactly at the limit is accepted (the PNG decoder ignores trailing bytes or rejects them as
    // corrupt, but never as too large).
    let mut at_limit = png_page();
    at_limit.resize(1024 * 1024, 0);
    let r = engine.recognize_bytes(
        &at_limit,
        &RecognizeOptions::default(),
        &no_progress,
        &CancelToken::new(),
    );
    if let Err(e) = r {
        assert_ne!(e.code(), ErrorCode::FileTooLarge, "{e}");
    }
}

#[test]
fn per_call_limits_replace_the_engines() {
    // An engine allowing 60 pages, a call (a company) allowing one.
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(EngineConfig::default(), ocr.clone());
    let tiff = two_page_tiff();
    let strict = RecognizeOptions {
        limits: Some(folio::config::Limits {
            max_pages: 1,
            ..Default::default()
        }),
        ..RecognizeOptions::default()
    };
    let r = engine.recognize_bytes(&tiff, &strict, &no_progress, &CancelToken::new());
    assert_eq!(code(r), ErrorCode::TooManyPages);
    assert!(ocr.pages_seen().is_empty());
    // And a size limit of 0 MiB refuses any file.
    let tiny = RecognizeOptions {
        limits: Some(folio::config::Limits {
            max_file_size_mb: 0,
            ..Default::default()
        }),
        ..RecognizeOptions::default()
    };
    let r = engine.recognize_bytes(&tiff, &tiny, &no_progress, &CancelToken::new());
    assert_eq!(code(r), ErrorCode::FileTooLarge);
    // Without per-call limits the engine's apply.
    engine
        .recognize_bytes(&tiff, &opts(None), &no_progress, &CancelToken::new())
        .expect("two pages fit the engine's limits");
}

#[test]
fn page_limit_is_counted_after_selection() {
    let config = EngineConfig::from_json(r#"{"limits":{"max_pages":1}}"#).expect("config");
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(config, ocr.clone());
    let tiff = two_page_tiff();
    let cancel = CancelToken::new();

    let r = engine.recognize_bytes(&tiff, &opts(None), &no_progress, &cancel);
    assert!(
        matches!(r, Err(Error::TooManyPages { pages: 2, limit: 1 })),
        "{r:?}"
    );
    let r = engine.recognize_bytes(&tiff, &opts(Some("1-2")), &no_progress, &cancel);
    assert_eq!(code(r), ErrorCode::TooManyPages);
    assert!(ocr.pages_seen().is_empty(), "OCR ran over the page limit");

    // One selected page of the two fits the limit; only that page is read.
    let events = Mutex::new(Vec::new());
    let record = |p: Progress| events.lock().expect("lock").push(p);
    engine
        .recognize_bytes(&tiff, &opts(Some("2")), &record, &cancel)
        .expect("one selected page fits");
    assert_eq!(ocr.pages_seen(), vec![2]);
    let events = events.into_inner().expect("lock");
    assert!(
        events
            .iter()
            .filter(|e| e.stage == Stage::OcrProcessing)
            .filter_map(|e| e.page)
            .all(|p| p == 2),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .filter(|e| e.stage != Stage::Preprocessing)
            .all(|e| e.pages_total == 1)
    );
}

#[test]
fn bad_page_selection_is_invalid_argument() {
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(EngineConfig::default(), ocr.clone());
    let tiff = two_page_tiff();
    for spec in ["0", "3", "2-1", "1-3", "abc", "1,,2", "-1", "1-"] {
        let r = engine.recognize_bytes(&tiff, &opts(Some(spec)), &no_progress, &CancelToken::new());
        assert_eq!(code(r), ErrorCode::InvalidArgument, "selection {spec:?}");
    }
    assert!(ocr.pages_seen().is_empty());
    // A language the engine was not built with is an invalid argument as well.
    let bad_lang = RecognizeOptions {
        languages: Some(vec!["xx".into()]),
        ..RecognizeOptions::default()
    };
    let r = engine.recognize_bytes(&tiff, &bad_lang, &no_progress, &CancelToken::new());
    assert_eq!(code(r), ErrorCode::InvalidArgument);
}

#[test]
fn bad_inputs_are_rejected_with_their_codes() {
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(EngineConfig::default(), ocr.clone());
    let cancel = CancelToken::new();
    let run = |b: &[u8]| {
        code(engine.recognize_bytes(b, &RecognizeOptions::default(), &no_progress, &cancel))
    };
    assert_eq!(run(b""), ErrorCode::EmptyFile);
    assert_eq!(
        run(b"GIF89a\x01\x00\x01\x00"),
        ErrorCode::UnsupportedFileType
    );
    assert_eq!(run(b"just some text\n"), ErrorCode::UnsupportedFileType);
    let png = png_page();
    assert_eq!(run(&png[..png.len() / 2]), ErrorCode::CorruptFile);
    assert!(ocr.pages_seen().is_empty());
}

/// A text-layer page (points) holding [`LINES`].
fn text_page() -> TextPage {
    TextPage {
        page: 1,
        width: 595.0,
        height: 842.0,
        unit: Unit::Pt,
        source: Source::TextLayer,
        engine: None,
        rotation: 0,
        words: fake_words(595, 842)
            .into_iter()
            .map(|w| Word {
                confidence: 1.0,
                ..w
            })
            .collect(),
    }
}

#[test]
fn recognize_text_pages_runs_the_later_stages() {
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(EngineConfig::default(), ocr.clone());
    let events = Mutex::new(Vec::new());
    let record = |p: Progress| events.lock().expect("lock").push(p);
    let result = engine
        .recognize_text_pages(
            &[text_page()],
            &RecognizeOptions::default(),
            &record,
            &CancelToken::new(),
        )
        .expect("recognised");
    assert!(ocr.pages_seen().is_empty(), "text pages must not be OCR'd");
    assert_eq!(
        distinct_stages(&events.into_inner().expect("lock")),
        vec![
            Stage::Cleaning,
            Stage::CandidatesExtracting,
            Stage::AiExtracting,
            Stage::Validating,
        ]
    );
    assert_eq!(result.schema_version, "1.0");
    assert!(!result.super_ai_used);
    let json = serde_json::to_value(&result).expect("serialises");
    for key in ["document", "parties", "totals", "validation", "evidence"] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    // Every evidence entry of a text-layer page points into page 1, in points.
    for (ptr, ev) in &result.evidence {
        assert_eq!(ev.page, 1, "{ptr}");
        assert_eq!(ev.unit, Unit::Pt, "{ptr}");
        assert_eq!(ev.source, Source::TextLayer, "{ptr}");
    }

    // The heavy flag is reported back.
    let heavy = RecognizeOptions {
        heavy: true,
        ..RecognizeOptions::default()
    };
    let result = engine
        .recognize_text_pages(&[text_page()], &heavy, &no_progress, &CancelToken::new())
        .expect("recognised");
    assert!(result.super_ai_used);
}

#[test]
fn one_engine_shared_by_four_threads() {
    let ocr = Arc::new(FakeOcr::default());
    let engine = Arc::new(engine_with(EngineConfig::default(), ocr.clone()));
    let png = Arc::new(png_page());
    let tiff = Arc::new(two_page_tiff());
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let engine = Arc::clone(&engine);
            let bytes = if i % 2 == 0 {
                Arc::clone(&png)
            } else {
                Arc::clone(&tiff)
            };
            std::thread::spawn(move || {
                (0..3)
                    .map(|_| {
                        engine
                            .recognize_bytes(
                                &bytes,
                                &RecognizeOptions::default(),
                                &no_progress,
                                &CancelToken::new(),
                            )
                            .map(|r| serde_json::to_value(&r).expect("serialises"))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut by_input: [Vec<serde_json::Value>; 2] = [Vec::new(), Vec::new()];
    for (i, h) in handles.into_iter().enumerate() {
        for r in h.join().expect("thread did not panic") {
            by_input[i % 2].push(r.expect("recognised"));
        }
    }
    // Same input, same result, whichever thread ran it.
    for results in &by_input {
        assert_eq!(results.len(), 6);
        assert!(results.windows(2).all(|w| w[0] == w[1]));
    }
    // 6 single-page PNG runs + 6 two-page TIFF runs.
    assert_eq!(ocr.pages_seen().len(), 6 + 12);
}

/// A PDF built by hand: one page per entry, each drawn by its content stream (`None`: a page
/// with no content at all).
fn pdf_with_pages(contents: &[Option<&str>]) -> Vec<u8> {
    let n = contents.len();
    // Objects: 1 catalog, 2 pages, 3 font, then per page: page object, content stream.
    let mut objects: Vec<String> = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        format!(
            "<< /Type /Pages /Count {n} /Kids [{}] >>",
            (0..n)
                .map(|i| format!("{} 0 R", 4 + 2 * i))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    for (i, c) in contents.iter().enumerate() {
        let content_ref = c.map_or(String::new(), |_| format!(" /Contents {} 0 R", 5 + 2 * i));
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] \
             /Resources << /Font << /F1 3 0 R >> >>{content_ref} >>"
        ));
        let body = c.unwrap_or("");
        objects.push(format!(
            "<< /Length {} >>\nstream\n{body}\nendstream",
            body.len() + 1
        ));
    }
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

#[test]
fn pages_without_ink_are_never_ocred() {
    // Page 1 is a scan-like page (a black bar drawn as a path: no text layer, so it needs OCR),
    // page 2 has no content, page 3 only paints white over white, page 4 has a faint gray box
    // lighter than any ink.
    let bytes = pdf_with_pages(&[
        Some("0 g 72 700 400 14 re f 72 660 300 14 re f"),
        None,
        Some("1 g 0 0 595 842 re f"),
        Some("0.95 g 100 100 200 200 re f"),
    ]);
    let ocr = Arc::new(FakeOcr::default());
    let engine = engine_with(EngineConfig::default(), ocr.clone());
    let stages = Mutex::new(Vec::new());
    let progress = |p: Progress| stages.lock().expect("lock").push(p);
    // pdfium comes with the project setup (scripts/setup.sh), like for the golden tests.
    let pages = engine
        .extract_text_pages(
            &bytes,
            &RecognizeOptions::default(),
            &progress,
            &CancelToken::new(),
        )
        .expect("the PDF is read");
    assert_eq!(ocr.pages_seen(), vec![1], "only the page with ink is read");
    assert_eq!(
        pages.iter().map(|p| p.page).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    for p in &pages[1..] {
        assert!(p.words.is_empty(), "page {} has no words", p.page);
        assert_eq!(p.source, Source::Ocr);
        // The size the page would have had at 300 DPI.
        assert_eq!((p.width, p.height), (2479.0, 3508.0));
    }
}

#[test]
fn pages_without_ink_report_their_ocr_progress() {
    // A blank PDF page is not OCR'd, yet it is reported like any other page.
    let bytes = pdf_with_pages(&[Some("0 g 72 700 400 14 re f"), None, None]);
    let engine = engine_with(EngineConfig::default(), Arc::new(FakeOcr::default()));
    let stages = Mutex::new(Vec::new());
    let progress = |p: Progress| stages.lock().expect("lock").push(p);
    engine
        .extract_text_pages(
            &bytes,
            &RecognizeOptions::default(),
            &progress,
            &CancelToken::new(),
        )
        .expect("the PDF is read");
    let mut ocr_pages: Vec<u32> = stages
        .into_inner()
        .expect("lock")
        .iter()
        .filter(|p| p.stage == Stage::OcrProcessing)
        .filter_map(|p| p.page)
        .collect();
    ocr_pages.sort_unstable();
    assert_eq!(ocr_pages, [1, 2, 3]);
}

#[test]
fn every_page_read_has_its_geometry_and_a_blank_one_renders_white() {
    // Page 1 needs OCR (a bar drawn as a path), page 2 is blank (never rendered in full).
    let bytes = pdf_with_pages(&[Some("0 g 72 700 400 14 re f 72 660 300 14 re f"), None]);
    let engine = engine_with(EngineConfig::default(), Arc::new(FakeOcr::default()));
    let result = engine
        .recognize_bytes(
            &bytes,
            &RecognizeOptions::default(),
            &|_| {},
            &CancelToken::new(),
        )
        .expect("the PDF is read");
    let pages: Vec<_> = result
        .pages
        .iter()
        .map(|g| (g.page, g.width, g.height, g.unit, g.source, g.rotation))
        .collect();
    assert_eq!(
        pages,
        [
            (1, 2479.0, 3508.0, Unit::Px, Source::Ocr, 0),
            (2, 2479.0, 3508.0, Unit::Px, Source::Ocr, 0),
        ]
    );
    let inked = engine.render_page(&bytes, &result, 1, 700).unwrap();
    let blank = engine.render_page(&bytes, &result, 2, 700).unwrap();
    assert_eq!(inked.image.dimensions(), (495, 700));
    assert_eq!(blank.image.dimensions(), (495, 700));
    assert!((blank.scale_y - 700.0 / 3508.0).abs() < 1e-9);
    assert!(blank.image.pixels().all(|p| p.0 == [255, 255, 255]));
    assert!(inked.image.pixels().any(|p| p.0[0] < 64));
}
