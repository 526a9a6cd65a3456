//! The engine's OCR: tesseract and PP-OCR behind one [`OcrEngine`], the better one per page.
//!
//! Measured on the shared receipt scans and invoice scans (see `benches/reports`), PP-OCRv6 reads
//! Latin-script pages better than tesseract at a lower cost, but its dictionary has no Cyrillic
//! letters; tesseract reads Ukrainian and Russian. So with `ocr.engine = "auto"` (the default):
//! * only Latin-script languages enabled: PP-OCR reads the page;
//! * only Cyrillic ones: tesseract;
//! * both: PP-OCR reads first; a reading with enough keywords of an enabled Latin language
//!   settles the page as Latin, otherwise tesseract's script probe (one band) decides, and a
//!   Cyrillic page is read by tesseract.
//!
//! A page PP-OCR reads as if turned (little text, boxes running vertically, low confidence) is
//! checked with tesseract's orientation detection, turned upright and read again.
//!
//! The PP-OCR models load on the first page that needs them (a text-layer PDF never loads them).
//! With `auto`, models or onnxruntime that cannot be found leave every page to tesseract;
//! `"ppocr"` makes that an error (`RUNTIME_MISSING`, `MODEL_ERROR`), `"tesseract"` never loads
//! them.

use super::lang::{self, LanguageSet, Script};
use super::ppocr::{PpModel, PpOcr};
use super::{OcrEngine, OcrRequest, Reading, SETTLED_KEYWORDS, TesseractOcr, suspect_rotation};
use crate::config::{OcrEngineKind, OcrParams};
use crate::error::{Error, ErrorCode, Result};
use crate::types::{Source, TextPage, Unit};
use image::GrayImage;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A PP-OCR engine loaded once, or why it could not be (code and message).
type Loaded = std::result::Result<PpOcr, (ErrorCode, String)>;

/// tesseract and PP-OCR, chosen per page.
pub struct AutoOcr {
    kind: OcrEngineKind,
    tesseract: TesseractOcr,
    models: Option<PathBuf>,
    onnxruntime: Option<PathBuf>,
    ppocr: OnceLock<Loaded>,
}

impl std::fmt::Debug for AutoOcr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoOcr")
            .field("kind", &self.kind)
            .field("tesseract", &self.tesseract)
            .finish()
    }
}

impl AutoOcr {
    /// Builds the OCR of an engine: tesseract now (its language data checked), PP-OCR on first
    /// use. With `"ppocr"` the models must be found now (`RUNTIME_MISSING` otherwise).
    pub fn new(params: &OcrParams, onnxruntime: Option<PathBuf>) -> Result<Self> {
        let tesseract = TesseractOcr::new(params)?;
        if params.engine == OcrEngineKind::Ppocr {
            super::ppocr::find_models(params.ppocr_models.as_deref())?;
        }
        Ok(AutoOcr {
            kind: params.engine,
            tesseract,
            models: params.ppocr_models.clone(),
            onnxruntime,
            ppocr: OnceLock::new(),
        })
    }

    /// The tesseract engine (Cyrillic pages, orientation).
    pub fn tesseract(&self) -> &TesseractOcr {
        &self.tesseract
    }

    /// PP-OCR, loaded on first call; `Ok(None)` when this engine does without it.
    fn ppocr(&self) -> Result<Option<&PpOcr>> {
        if self.kind == OcrEngineKind::Tesseract {
            return Ok(None);
        }
        let loaded = self.ppocr.get_or_init(|| {
            PpOcr::new(
                PpModel::Tiny,
                self.models.as_deref(),
                self.onnxruntime.as_deref(),
            )
            .map_err(|e| (e.code(), e.to_string()))
        });
        match (loaded, self.kind) {
            (Ok(p), _) => Ok(Some(p)),
            (Err(_), OcrEngineKind::Auto) => Ok(None),
            (Err((code, msg)), _) => Err(match code {
                ErrorCode::RuntimeMissing => Error::RuntimeMissing(msg.clone()),
                _ => Error::Model(msg.clone()),
            }),
        }
    }

    /// Which engine reads a page of these languages when no reading has been made yet:
    /// `None` when both scripts are possible (PP-OCR reads first, then the script is checked).
    fn planned(&self, set: &LanguageSet) -> Option<Script> {
        match (set.latin.is_empty(), set.cyrillic.is_empty()) {
            (false, true) => Some(Script::Latin),
            (true, _) => Some(Script::Cyrillic),
            (false, false) => None,
        }
    }

    /// PP-OCR's reading of a page, turned upright when it reads as turned; `None` when the page
    /// is Cyrillic (tesseract's).
    fn read_latin(
        &self,
        pp: &PpOcr,
        image: &GrayImage,
        set: &LanguageSet,
    ) -> Result<Option<(Reading, Option<GrayImage>)>> {
        let mut reading = pp.read(image)?;
        let mut upright = None;
        if suspect_rotation(&reading)
            && let Some(osd) = self.tesseract.detect_osd(image)
            && let Some(turned) = super::imageops::rotate_cw(image, osd.rotate_cw)
        {
            let again = pp.read(&turned)?;
            if again.chars() > reading.chars() {
                reading = again;
                upright = Some(turned);
            }
        }
        if self.planned(set).is_none() {
            let page = upright.as_ref().unwrap_or(image);
            let words = super::word_confs(&reading.words);
            let settled = lang::latin_keyword_hits(&words, &set.latin) >= SETTLED_KEYWORDS;
            if !settled && self.tesseract.page_script(page, set)? == Script::Cyrillic {
                return Ok(None);
            }
        }
        Ok(Some((reading, upright)))
    }
}

impl OcrEngine for AutoOcr {
    fn recognize(&self, image: &GrayImage, req: &OcrRequest<'_>) -> Result<TextPage> {
        let set = LanguageSet::from_iso(req.languages);
        let pp = match self.planned(&set) {
            Some(Script::Cyrillic) => None,
            _ => self.ppocr()?,
        };
        let Some(pp) = pp else {
            return self.tesseract.recognize(image, req);
        };
        let Some((reading, upright)) = self.read_latin(pp, image, &set)? else {
            return self.tesseract.recognize(image, req);
        };
        let img = upright.as_ref().unwrap_or(image);
        Ok(TextPage {
            page: req.page,
            width: img.width() as f32,
            height: img.height() as f32,
            unit: Unit::Px,
            source: Source::Ocr,
            words: reading.words,
        })
    }
}
