//! The [`Engine`]: built once, `Send + Sync`, chains every stage and reports progress.

use crate::candidates;
use crate::candidates::Candidates;
use crate::classify;
use crate::clean;
use crate::config::{EngineConfig, Limits, RecognizeOptions, ScorerKind};
use crate::einvoice::{self, EInvoice, Found};
use crate::error::{Error, Result};
use crate::fields::model::ModelScorer;
use crate::fields::{self, FieldScorer, RuleScorer};
use crate::ocr::{AutoOcr, OcrEngine, OcrRequest};
use crate::pdf::PdfLib;
use crate::preprocess::{self, PageImage, PreparedContent};
use crate::result::{DocumentResult, PageGeometry};
use crate::types::{CleanDocument, TextPage};
use crate::validate;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Pipeline stages; their names are the document statuses of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Stage {
    /// Type detection, limits, decoding.
    Preprocessing,
    /// Text layer / office text.
    TextExtracting,
    /// OCR of images and scanned pages.
    OcrProcessing,
    /// Normalisation, lines, reading order.
    Cleaning,
    /// Candidate values.
    CandidatesExtracting,
    /// Field choice.
    AiExtracting,
    /// Checks.
    Validating,
}

impl Stage {
    /// Every stage in pipeline order: the one list the bindings and the server build their
    /// stage names from.
    pub const ALL: [Stage; 7] = [
        Stage::Preprocessing,
        Stage::TextExtracting,
        Stage::OcrProcessing,
        Stage::Cleaning,
        Stage::CandidatesExtracting,
        Stage::AiExtracting,
        Stage::Validating,
    ];

    /// The stage of a status name (`"OCR_PROCESSING"`), `None` for any other string.
    pub fn from_name(name: &str) -> Option<Stage> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The status name, e.g. `"OCR_PROCESSING"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Stage::Preprocessing => "PREPROCESSING",
            Stage::TextExtracting => "TEXT_EXTRACTING",
            Stage::OcrProcessing => "OCR_PROCESSING",
            Stage::Cleaning => "CLEANING",
            Stage::CandidatesExtracting => "CANDIDATES_EXTRACTING",
            Stage::AiExtracting => "AI_EXTRACTING",
            Stage::Validating => "VALIDATING",
        }
    }
}

/// One progress report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Stage entered.
    pub stage: Stage,
    /// Page being worked on (OCR reports one event per page), if any.
    pub page: Option<u32>,
    /// Pages selected for processing (0 until known).
    pub pages_total: u32,
}

/// Cancels a running recognition from another thread. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A fresh token.
    pub fn new() -> Self {
        Self::default()
    }
    /// Requests cancellation.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    /// Whether cancellation was requested.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
    fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Progress callback type.
pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Sync);

/// The recognition engine.
pub struct Engine {
    config: EngineConfig,
    ocr: Arc<dyn OcrEngine>,
    scorer: Arc<dyn FieldScorer>,
    pool: Option<rayon::ThreadPool>,
    /// pdfium as bound by [`Engine::new`] (`None` when it found none, or for an engine built
    /// from components: PDFs then look the library up on use).
    pdf: Option<&'static PdfLib>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("config", &self.config)
            .field("scorer", &self.scorer.name())
            .finish()
    }
}

impl Engine {
    /// Builds an engine with tesseract OCR and the configured scorer (the learned model by
    /// default: `MODEL_ERROR` when the model does not load or has the wrong inputs/outputs;
    /// `RUNTIME_MISSING` when a model that runs through onnxruntime cannot find it).
    ///
    /// pdfium (and onnxruntime, for a model that runs through it) are bound here, so that this
    /// configuration's library paths are the ones used: a library is bound once per process,
    /// and a configuration naming another file than the one bound is refused
    /// (`INVALID_ARGUMENT`, naming both). pdfium not found is no error here (documents other
    /// than PDFs need none): a PDF then fails with `RUNTIME_MISSING`.
    pub fn new(config: EngineConfig) -> Result<Self> {
        config.validate()?;
        let pdf = match PdfLib::get(config.pdfium_library.as_deref()) {
            Ok(lib) => Some(lib),
            Err(e) if e.code() != crate::error::ErrorCode::RuntimeMissing => return Err(e),
            Err(_) => None,
        };
        let ocr = Arc::new(AutoOcr::new(
            &config.ocr,
            config.onnxruntime_library.clone(),
        )?);
        let ort = config.onnxruntime_library.as_deref();
        let scorer: Arc<dyn FieldScorer> = match (config.scorer, &config.model) {
            (ScorerKind::Rules, _) => Arc::new(RuleScorer),
            (ScorerKind::Model, None) => Arc::new(ModelScorer::embedded(ort)?),
            (ScorerKind::Model, Some(path)) => Arc::new(ModelScorer::from_files(path, None, ort)?),
        };
        let mut engine = Self::with_components(config, ocr, scorer)?;
        engine.pdf = pdf;
        Ok(engine)
    }

    /// Builds an engine from explicit components (tests use a fake OCR engine).
    pub fn with_components(
        config: EngineConfig,
        ocr: Arc<dyn OcrEngine>,
        scorer: Arc<dyn FieldScorer>,
    ) -> Result<Self> {
        config.validate()?;
        let pool = match config.threads {
            Some(n) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .thread_name(|i| format!("folio-{i}"))
                    .build()
                    .map_err(|e| Error::Internal(format!("thread pool: {e}")))?,
            ),
            None => None,
        };
        Ok(Engine {
            config,
            ocr,
            scorer,
            pool,
            pdf: None,
        })
    }

    /// pdfium: the library bound when the engine was built, else the process's (searched now).
    fn pdf_lib(&self) -> Result<&'static PdfLib> {
        match self.pdf {
            Some(lib) => Ok(lib),
            None => PdfLib::get(self.config.pdfium_library.as_deref()),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Page `page` of the file `bytes` as this engine read it, for drawing `result`'s evidence
    /// on: [`crate::render::render_page`] with this engine's configuration and pdfium. A panic
    /// inside is [`Error::Internal`], as for a recognition.
    pub fn render_page(
        &self,
        bytes: &[u8],
        result: &DocumentResult,
        page: u32,
        max_side: u32,
    ) -> Result<crate::render::RenderedPage> {
        self.guarded(|| {
            crate::render::render_with(
                &self.config,
                &|| self.pdf_lib(),
                bytes,
                result,
                page,
                max_side,
            )
        })
    }

    /// Recognises a file on disk: a regular file only (a FIFO, device or socket is refused with
    /// `IO_ERROR` at once), read to at most the size limit even while it grows.
    pub fn recognize_path(
        &self,
        path: &Path,
        opts: &RecognizeOptions,
        progress: ProgressFn<'_>,
        cancel: &CancelToken,
    ) -> Result<DocumentResult> {
        let limit = opts.effective_limits(&self.config.limits).max_bytes();
        let bytes = preprocess::read_input_file(path, limit)?;
        let mut opts = opts.clone();
        if opts.filename.is_none() {
            opts.filename = path.file_name().map(|n| n.to_string_lossy().into_owned());
        }
        self.recognize_bytes(&bytes, &opts, progress, cancel)
    }

    /// Recognises a file held in memory.
    ///
    /// An e-invoice (a PDF with a ZUGFeRD / Factur-X / XRechnung XML attached, or a standalone
    /// CII or UBL XML file) gets the XML's values: see [`crate::einvoice`] and
    /// [`crate::einvoice::merge`].
    pub fn recognize_bytes(
        &self,
        bytes: &[u8],
        opts: &RecognizeOptions,
        progress: ProgressFn<'_>,
        cancel: &CancelToken,
    ) -> Result<DocumentResult> {
        self.recognize_bytes_with_pages(bytes, opts, progress, cancel)
            .map(|(result, _)| result)
    }

    /// As [`Engine::recognize_bytes`], with the words of every selected page as they were read
    /// (what [`Engine::extract_text_pages`] gives; none for a standalone XML e-invoice, which has
    /// no page).
    pub fn recognize_bytes_with_pages(
        &self,
        bytes: &[u8],
        opts: &RecognizeOptions,
        progress: ProgressFn<'_>,
        cancel: &CancelToken,
    ) -> Result<(DocumentResult, Vec<TextPage>)> {
        self.guarded(|| self.run(bytes, opts, progress, cancel))
    }

    /// Runs `f` on the engine's pool (when it has one) and turns a panic inside any stage into
    /// [`Error::Internal`]: a bug met by one document never takes the caller's process down
    /// (a server, a batch of thousands of files, a desktop application linking the C library).
    fn guarded<T: Send>(&self, f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
        let run = || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                Err(Error::Internal(format!("recognition panicked: {what}")))
            })
        };
        match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }

    fn languages(&self, opts: &RecognizeOptions) -> Result<Vec<String>> {
        match &opts.languages {
            None => Ok(self.config.languages.clone()),
            Some(list) if list.is_empty() => {
                Err(Error::InvalidArgument("languages must not be empty".into()))
            }
            Some(list) => {
                for l in list {
                    if !self.config.languages.contains(l) {
                        return Err(Error::InvalidArgument(format!(
                            "language {l:?} is not enabled in this engine ({})",
                            self.config.languages.join(", ")
                        )));
                    }
                }
                Ok(list.clone())
            }
        }
    }

    fn run(
        &self,
        bytes: &[u8],
        opts: &RecognizeOptions,
        progress: ProgressFn<'_>,
        cancel: &CancelToken,
    ) -> Result<(DocumentResult, Vec<TextPage>)> {
        let read = self.read_pages(bytes, opts, progress, cancel, true)?;
        let total = read.pages.len() as u32;
        let result = match read.standalone {
            Some(e) => {
                progress(Progress {
                    stage: Stage::Validating,
                    page: None,
                    pages_total: 0,
                });
                let mut result = einvoice::merge::standalone(&e);
                result.super_ai_used = opts.heavy;
                validate::validate_stated(&mut result);
                validate::add_warnings(&mut result, einvoice::rules(&e));
                result
            }
            None => self.finish(&read.pages, opts, progress, total, cancel, read.found)?,
        };
        Ok((result, read.pages))
    }

    /// Runs the stages up to and including OCR: the words of every selected page (text layer,
    /// office text or OCR), page by page. [`Engine::recognize_text_pages`] takes it from there.
    /// The XML of an e-invoice is not read here (a standalone XML e-invoice has no page: none
    /// is returned).
    pub fn extract_text_pages(
        &self,
        bytes: &[u8],
        opts: &RecognizeOptions,
        progress: ProgressFn<'_>,
        cancel: &CancelToken,
    ) -> Result<Vec<TextPage>> {
        self.guarded(|| {
            self.read_pages(bytes, opts, progress, cancel, false)
                .map(|r| r.pages)
        })
    }

    /// The pages' words and, when `find_einvoice`, the e-invoice of the document (the XML
    /// among a PDF's attachments, read with the text layer over one opening of the PDF, or the
    /// standalone XML).
    fn read_pages(
        &self,
        bytes: &[u8],
        opts: &RecognizeOptions,
        progress: ProgressFn<'_>,
        cancel: &CancelToken,
        find_einvoice: bool,
    ) -> Result<ReadPages> {
        let languages = self.languages(opts)?;
        cancel.check()?;
        progress(Progress {
            stage: Stage::Preprocessing,
            page: None,
            pages_total: 0,
        });
        let limits = opts.effective_limits(&self.config.limits);
        let prepared =
            preprocess::preprocess(bytes, opts, limits, &|b| self.pdf_lib()?.page_count(b))?;
        let total = prepared.pages.len() as u32;
        let report = |stage: Stage, page: Option<u32>| {
            progress(Progress {
                stage,
                page,
                pages_total: total,
            })
        };
        cancel.check()?;

        let mut text_pages: Vec<TextPage> = Vec::new();
        // Pages read on demand, as the OCR threads take them: about one page image per thread is
        // in memory whatever the page count.
        let mut lazy: Option<LazyPages<'_>> = None;
        let mut images: Vec<PageImage> = Vec::new();
        let mut found = Found::default();
        match prepared.content {
            PreparedContent::Pdf(embedded) => {
                report(Stage::TextExtracting, None);
                let lib = self.pdf_lib()?;
                // Attachments are read only when the pre-scan measured them all within limits.
                let mut chooser = einvoice::find::Chooser::default();
                let mut visit = |a| chooser.add(a);
                let read_attachments = find_einvoice && !embedded.oversized;
                let (layer, more) = lib.extract_text_and_attachments(
                    bytes,
                    &prepared.pages,
                    self.config.ocr.min_text_layer_quality,
                    read_attachments.then_some(crate::pdf::AttachmentVisit {
                        max_count: einvoice::find::MAX_ATTACHMENTS,
                        max_bytes: einvoice::find::MAX_ATTACHMENT_BYTES,
                        visit: &mut visit,
                    }),
                )?;
                if let Some(more) = more {
                    found = chooser.finish(more);
                } else if find_einvoice {
                    found = einvoice::find::refused();
                }
                let mut scanned = Vec::new();
                for p in layer {
                    if p.usable {
                        text_pages.push(p.text);
                    } else {
                        scanned.push((p.text.page, p.text.width, p.text.height));
                    }
                }
                if !scanned.is_empty() {
                    lazy = Some(LazyPages::Pdf(lib, scanned));
                }
            }
            PreparedContent::Images(decoded) => images = decoded,
            PreparedContent::TiffFrames => lazy = Some(LazyPages::Tiff(prepared.pages.clone())),
            PreparedContent::Office(pages) | PreparedContent::Words(pages) => {
                report(Stage::TextExtracting, None);
                text_pages = pages;
            }
            PreparedContent::EInvoice(e) => {
                report(Stage::TextExtracting, None);
                return Ok(ReadPages {
                    pages: Vec::new(),
                    standalone: Some(e),
                    found,
                });
            }
        }

        if lazy.is_some() || !images.is_empty() {
            report(Stage::OcrProcessing, None);
            let ocr_page = |pi: PageImage| -> Result<TextPage> {
                cancel.check()?;
                report(Stage::OcrProcessing, Some(pi.page));
                if !crate::ocr::imageops::has_ink(&pi.image, crate::ocr::imageops::INK_LEVEL) {
                    return Ok(blank_page(
                        pi.page,
                        pi.image.width() as f32,
                        pi.image.height() as f32,
                    ));
                }
                let req = OcrRequest {
                    page: pi.page,
                    languages: &languages,
                    heavy: opts.heavy,
                };
                self.ocr.recognize(&pi.image, &req)
            };
            let mut ocr_pages: Vec<Result<TextPage>> =
                images.into_par_iter().map(ocr_page).collect();
            if let Some(lazy) = &lazy {
                let dpi = ocr_dpi(&self.config, opts.heavy);
                // Loading stays sequential (pdfium is serialised process-wide; the iterator is
                // pulled under par_bridge's lock) while the OCR runs in parallel.
                let loaded = lazy.pages().map(|page| -> Result<Loaded> {
                    cancel.check()?;
                    LazyPages::load(bytes, page, dpi, limits)
                });
                let read: Vec<Result<TextPage>> = loaded
                    .par_bridge()
                    .map(|r| match r? {
                        Loaded::Image(pi) => ocr_page(pi),
                        Loaded::Blank(p) => {
                            report(Stage::OcrProcessing, Some(p.page));
                            Ok(p)
                        }
                    })
                    .collect();
                ocr_pages.extend(read);
            }
            for p in ocr_pages {
                text_pages.push(p?);
            }
            text_pages.sort_by_key(|p| p.page);
        }
        cancel.check()?;
        Ok(ReadPages {
            pages: text_pages,
            standalone: None,
            found,
        })
    }

    /// Runs the stages from cleaning onwards over pages whose words are already known (a text
    /// layer, office text, or OCR done by the caller).
    pub fn recognize_text_pages(
        &self,
        pages: &[TextPage],
        opts: &RecognizeOptions,
        progress: ProgressFn<'_>,
        cancel: &CancelToken,
    ) -> Result<DocumentResult> {
        self.guarded(|| {
            let total = pages.len() as u32;
            self.finish(pages, opts, progress, total, cancel, Found::default())
        })
    }

    /// The stages from cleaning to validation. With an e-invoice `found`, the result is the
    /// XML's values over the visual reading ([`einvoice::merge::merge`]), its evidence the
    /// cross-check's, its arithmetic checked by the EN 16931 rules
    /// ([`validate::validate_stated`]), and its warnings also the rules', the cross-check's and
    /// those of attachments that were not used.
    fn finish(
        &self,
        text_pages: &[TextPage],
        opts: &RecognizeOptions,
        progress: ProgressFn<'_>,
        total: u32,
        cancel: &CancelToken,
        found: Found,
    ) -> Result<DocumentResult> {
        let report = |stage: Stage, page: Option<u32>| {
            progress(Progress {
                stage,
                page,
                pages_total: total,
            })
        };
        let (doc, cands, visual) = self.read_visually(text_pages, opts, &report, cancel)?;
        let mut warnings = found.warnings;
        let stated = found.invoice.is_some();
        let mut result = match found.invoice {
            Some(e) => {
                let checked = einvoice::crosscheck(&e, &doc, &cands, &visual);
                let mut result = einvoice::merge::merge(&e, visual);
                result.evidence.extend(checked.evidence);
                warnings.extend(einvoice::rules(&e));
                warnings.extend(checked.warnings);
                result
            }
            None => visual,
        };
        result.pages = text_pages.iter().map(PageGeometry::of).collect();
        report(Stage::Validating, None);
        if stated {
            validate::validate_stated(&mut result);
        } else {
            validate::validate(&mut result);
        }
        validate::add_warnings(&mut result, warnings);
        Ok(result)
    }

    /// Cleaning, candidates, fields and classification: the reading of the pages, with the
    /// cleaned document and the candidates it was made from.
    fn read_visually(
        &self,
        text_pages: &[TextPage],
        opts: &RecognizeOptions,
        report: &dyn Fn(Stage, Option<u32>),
        cancel: &CancelToken,
    ) -> Result<(CleanDocument, Candidates, DocumentResult)> {
        report(Stage::Cleaning, None);
        let doc = clean::clean(text_pages);
        cancel.check()?;

        report(Stage::CandidatesExtracting, None);
        let cands = candidates::extract(&doc);
        cancel.check()?;

        report(Stage::AiExtracting, None);
        let mut result = fields::extract(&doc, &cands, self.scorer.as_ref());
        let choices = fields::choice_model::ChoiceModel::for_scorer(self.scorer.as_ref());
        let (dt, st) = classify::classify(&doc, &cands, &result, choices);
        result.document_type = dt;
        result.structure_type = st;
        result.super_ai_used = opts.heavy;
        cancel.check()?;
        Ok((doc, cands, result))
    }
}

/// What [`Engine::read_pages`] read.
struct ReadPages {
    /// The selected pages' words.
    pages: Vec<TextPage>,
    /// A standalone XML e-invoice (the document then has no page).
    standalone: Option<Box<EInvoice>>,
    /// What was found among a PDF's attachments (nothing for other documents).
    found: Found,
}

/// Pages whose images are made only when the OCR takes them.
enum LazyPages<'a> {
    /// PDF pages without a usable text layer, with their size in points.
    Pdf(&'a PdfLib, Vec<(u32, f32, f32)>),
    /// Selected frames of a TIFF.
    Tiff(Vec<u32>),
}

/// A page made ready for the OCR.
enum Loaded {
    /// Its image.
    Image(PageImage),
    /// Its (empty) reading: the page has no ink.
    Blank(TextPage),
}

/// One page of [`LazyPages`], as stored there.
#[derive(Clone, Copy)]
enum LazyPage<'a> {
    /// A PDF page and its size in points.
    Pdf(&'a PdfLib, u32, f32, f32),
    /// A TIFF frame.
    Tiff(u32),
}

impl LazyPages<'_> {
    /// The pages, in order.
    fn pages(&self) -> impl Iterator<Item = LazyPage<'_>> + Send + '_ {
        let (lib, pdf, tiff) = match self {
            LazyPages::Pdf(lib, pages) => (Some(*lib), pages.as_slice(), &[][..]),
            LazyPages::Tiff(pages) => (None, &[][..], pages.as_slice()),
        };
        let pdf = lib.into_iter().flat_map(move |lib| {
            pdf.iter()
                .map(move |&(p, w, h)| LazyPage::Pdf(lib, p, w, h))
        });
        pdf.chain(tiff.iter().map(|&p| LazyPage::Tiff(p)))
    }

    /// Loads one page: a PDF page rendered at `dpi` within the limits' pixel budget (a blank
    /// one is told from a thumbnail in milliseconds and never rendered in full), a TIFF frame
    /// decoded within the limits.
    fn load(bytes: &[u8], page: LazyPage<'_>, dpi: u32, limits: &Limits) -> Result<Loaded> {
        match page {
            LazyPage::Pdf(lib, page, w_pt, h_pt) => {
                match pdf_page_for_ocr(lib, bytes, page, dpi, limits)? {
                    None => {
                        let max_pixels = limits.max_image_pixels;
                        let (w, h) = crate::pdf::render_size(w_pt, h_pt, dpi, max_pixels);
                        Ok(Loaded::Blank(blank_page(page, w as f32, h as f32)))
                    }
                    Some(image) => Ok(Loaded::Image(PageImage { page, image })),
                }
            }
            LazyPage::Tiff(page) => preprocess::tiff_page(bytes, page, limits).map(Loaded::Image),
        }
    }
}

/// The resolution PDF pages without a usable text layer are rendered at for the OCR: the
/// configuration's `ocr.dpi`, or `ocr.heavy_dpi` for enhanced recognition.
pub(crate) fn ocr_dpi(config: &EngineConfig, heavy: bool) -> u32 {
    if heavy {
        config.ocr.heavy_dpi
    } else {
        config.ocr.dpi
    }
}

/// A PDF page as the OCR reads it: rendered at `dpi` within the limits' pixel budget and
/// prepared ([`preprocess::prepare_for_ocr`]); `None` for a page without ink (never rendered in
/// full, see [`PdfLib::render_unless_blank`]).
pub(crate) fn pdf_page_for_ocr(
    lib: &PdfLib,
    bytes: &[u8],
    page: u32,
    dpi: u32,
    limits: &Limits,
) -> Result<Option<image::GrayImage>> {
    Ok(lib
        .render_unless_blank(bytes, page, dpi, limits.max_image_pixels)?
        .map(preprocess::prepare_for_ocr))
}

/// The OCR result of a page without ink: no words, the size in pixels of the page as it would
/// have been read.
fn blank_page(page: u32, width: f32, height: f32) -> TextPage {
    TextPage {
        page,
        width,
        height,
        unit: crate::types::Unit::Px,
        source: crate::types::Source::Ocr,
        engine: None,
        rotation: 0,
        words: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn engine_is_send_sync() {
        assert_send_sync::<Engine>();
    }

    /// An OCR engine with a bug.
    struct PanickingOcr;
    impl OcrEngine for PanickingOcr {
        fn recognize(
            &self,
            _image: &image::GrayImage,
            _req: &crate::ocr::OcrRequest<'_>,
        ) -> Result<TextPage> {
            panic!("bug in a stage")
        }
    }

    #[test]
    fn a_panicking_stage_is_an_internal_error_and_the_engine_goes_on() {
        let engine = Engine::with_components(
            EngineConfig::default(),
            Arc::new(PanickingOcr),
            Arc::new(RuleScorer),
        )
        .unwrap();
        // A page with ink (a page without any is never handed to the OCR).
        let mut page = image::GrayImage::from_pixel(64, 64, image::Luma([255]));
        for x in 10..50 {
            page.put_pixel(x, 30, image::Luma([0]));
        }
        let mut png = Vec::new();
        image::DynamicImage::ImageLuma8(page)
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let opts = RecognizeOptions::default();
        for _ in 0..2 {
            let err = engine
                .recognize_bytes(&png, &opts, &|_| {}, &CancelToken::new())
                .unwrap_err();
            assert_eq!(err.code(), crate::ErrorCode::Internal);
            assert!(err.to_string().contains("bug in a stage"), "{err}");
        }
    }

    #[test]
    fn stage_names_are_statuses() {
        assert_eq!(Stage::AiExtracting.as_str(), "AI_EXTRACTING");
        assert_eq!(
            serde_json::to_string(&Stage::CandidatesExtracting).unwrap(),
            "\"CANDIDATES_EXTRACTING\""
        );
        let mut seen = std::collections::HashSet::new();
        for stage in Stage::ALL {
            assert!(seen.insert(stage.as_str()), "{stage:?} twice");
            assert_eq!(Stage::from_name(stage.as_str()), Some(stage));
            assert_eq!(
                serde_json::to_value(stage).unwrap(),
                serde_json::Value::from(stage.as_str())
            );
        }
        assert_eq!(Stage::from_name("DONE"), None);
        assert_eq!(Stage::ALL[0], Stage::Preprocessing);
        assert_eq!(Stage::ALL[6], Stage::Validating);
    }
}
