//! Shared harness of the fuzz targets: each target feeds its input to the same engine a caller
//! would use, restricted to the file types it is about (other inputs return at once, so the fuzzer
//! learns to keep the format's magic bytes). The loader targets stop after text extraction
//! ([`extract_as`]: what the loader makes of the file); the words JSON and hOCR targets run the
//! whole pipeline ([`recognize_as`]), which makes them the cheap way to fuzz cleaning,
//! candidates, fields and checks with arbitrary text and geometry.
//!
//! What counts as a finding: an `INTERNAL_ERROR` (what the engine answers when a stage panics, or
//! for a bug it detects) or a missing native library, a panic outside the engine's guard, a crash
//! or abort (out-of-memory included, under libFuzzer's `-rss_limit_mb`), a hang past libFuzzer's
//! `-timeout`, or a result that does not serialise to JSON. A panic that the engine deliberately
//! turns into a stable "bad input" code is not one: [`init`] puts back the default panic hook in
//! place of libfuzzer-sys's abort-on-every-panic hook, and the outcome decides.
//!
//! The engine is the real one with two seams replaced, as the tests do: OCR answers an empty page
//! the size of the image (tesseract would make every run take seconds; what is fuzzed here is the
//! decoding up to OCR), and fields are scored by the rules (no onnxruntime needed). PDF pages
//! without a usable text layer are rendered at 72 DPI to keep runs short.

use folio::fields::RuleScorer;
use folio::ocr::{OcrEngine, OcrRequest};
use folio::preprocess::{FileType, detect_type};
use folio::result::{Source, Unit};
use folio::types::TextPage;
use folio::{
    CancelToken, Engine, EngineConfig, Error, ErrorCode, ProgressFn, RecognizeOptions, ScorerKind,
};
use image::GrayImage;
use std::sync::{Arc, OnceLock};

/// OCR that reads nothing: an empty page the size of the image.
struct BlankOcr;

impl OcrEngine for BlankOcr {
    fn recognize(&self, image: &GrayImage, req: &OcrRequest<'_>) -> folio::Result<TextPage> {
        Ok(TextPage {
            page: req.page,
            width: image.width() as f32,
            height: image.height() as f32,
            unit: Unit::Px,
            source: Source::Ocr,
            engine: None,
            rotation: 0,
            words: Vec::new(),
        })
    }
}

/// The engine every target uses (built once per process).
pub fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let mut config = EngineConfig {
            scorer: ScorerKind::Rules,
            threads: Some(1),
            ..EngineConfig::default()
        };
        config.ocr.dpi = 72;
        config.ocr.heavy_dpi = 72;
        Engine::with_components(config, Arc::new(BlankOcr), Arc::new(RuleScorer))
            .expect("the fuzzing engine builds")
    })
}

/// `FOLIO_FUZZ_VERBOSE=1` prints each input's outcome (to check what seeds reach).
fn verbose() -> bool {
    static VERBOSE: OnceLock<bool> = OnceLock::new();
    *VERBOSE.get_or_init(|| std::env::var_os("FOLIO_FUZZ_VERBOSE").is_some_and(|v| v == "1"))
}

/// An error is a finding when it is not one of the stable "bad input" answers.
pub fn check_error(e: &Error) {
    let code = e.code();
    assert!(
        code != ErrorCode::RuntimeMissing,
        "a native library is missing (run scripts/setup.sh): {e}"
    );
    assert!(
        code != ErrorCode::Internal,
        "input answered INTERNAL_ERROR: {e}"
    );
    assert!(
        !e.to_string().is_empty(),
        "{code:?} error without a message"
    );
}

/// Called once at start-up by every target (its `init:` block).
pub fn init() {
    // libfuzzer-sys's hook aborts on every panic, also one caught on purpose; the default hook
    // prints it (with RUST_BACKTRACE=1, its stack), and the outcome is judged by the harness.
    drop(std::panic::take_hook());
}

/// Whether the harness should look at `data`: its type is one of `types` (a detection error must
/// itself be a stable code).
fn wanted(data: &[u8], types: &[FileType]) -> bool {
    match detect_type(data) {
        Ok(t) => types.contains(&t),
        Err(e) => {
            check_error(&e);
            false
        }
    }
}

/// One of the engine's entry points over bytes (`Engine::extract_text_pages`,
/// `Engine::recognize_bytes`).
type EntryPoint<T> =
    fn(&Engine, &[u8], &RecognizeOptions, ProgressFn<'_>, &CancelToken) -> folio::Result<T>;

/// Runs `entry` on `data` when its detected type is one of `types`, with default options;
/// prints the outcome when verbose (`describe` an answer), then checks it: `check` an answer,
/// [`check_error`] an error. Panics on a finding.
fn run_as<T>(
    data: &[u8],
    types: &[FileType],
    entry: EntryPoint<T>,
    describe: impl FnOnce(&T) -> String,
    check: impl FnOnce(T),
) {
    if !wanted(data, types) {
        return;
    }
    let outcome = entry(
        engine(),
        data,
        &RecognizeOptions::default(),
        &|_| {},
        &CancelToken::new(),
    );
    if verbose() {
        match &outcome {
            Ok(answer) => eprintln!("folio-fuzz: ok {}", describe(answer)),
            Err(e) => eprintln!("folio-fuzz: {} {e}", e.code().as_str()),
        }
    }
    match outcome {
        Ok(answer) => check(answer),
        Err(e) => check_error(&e),
    }
}

/// Extracts the text pages of `data` (loader, text layer, rendering, fake OCR) when its detected
/// type is one of `types`; panics on a finding.
pub fn extract_as(data: &[u8], types: &[FileType]) {
    run_as(
        data,
        types,
        Engine::extract_text_pages,
        |pages| {
            let words: usize = pages.iter().map(|p| p.words.len()).sum();
            format!("{} pages, {words} words", pages.len())
        },
        |pages| {
            for p in &pages {
                assert!(p.page >= 1, "page numbers start at 1");
            }
        },
    );
}

/// Recognises `data` when its detected type is one of `types`; panics on a finding.
pub fn recognize_as(data: &[u8], types: &[FileType]) {
    run_as(
        data,
        types,
        Engine::recognize_bytes,
        |result| result.to_json(),
        |result| {
            serde_json::from_str::<serde_json::Value>(&result.to_json())
                .expect("a result serialises to valid JSON");
        },
    );
}
