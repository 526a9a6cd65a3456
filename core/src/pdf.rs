//! PDF access through pdfium: page count, text layer with word boxes (points, top-left origin),
//! detection of unusable text layers, and page rendering for OCR.
//!
//! pdfium is bound once per process (its bindings are a process-wide singleton) and every call
//! goes through pdfium-render's global lock: render pages one after another and parallelise the
//! OCR instead.

pub mod layer;

use crate::error::{Error, Result};
use crate::types::{Source, TextPage, Unit};
use image::GrayImage;
use layer::{CharBox, TextStats};
use pdfium_render::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// Environment variable naming `libpdfium.so` explicitly.
pub const PDFIUM_ENV: &str = "FOLIO_PDFIUM_LIB";

/// Largest rendered bitmap, in pixels (a poster-sized page at 300 DPI is rendered smaller),
/// whatever the limits allow.
const MAX_RENDER_PIXELS: f32 = 80.0e6;

/// Resolution of the thumbnail that decides whether a page is blank (A4: 298 x 421 pixels).
const BLANK_PROBE_DPI: u32 = 36;
/// Gray level at or below which a thumbnail pixel is ink: text shrunk to a thumbnail is
/// anti-aliased to light grays, so anything visibly darker than paper counts.
const BLANK_PROBE_INK_LEVEL: u8 = 224;

/// The bound pdfium library (process-wide singleton; all calls serialised by pdfium-render).
pub struct PdfLib {
    pdfium: Pdfium,
    path: PathBuf,
}

impl std::fmt::Debug for PdfLib {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PdfLib").field("path", &self.path).finish()
    }
}

/// The library this process bound (never unbound: pdfium's bindings are process-wide).
static PDFIUM: Mutex<Option<&'static PdfLib>> = Mutex::new(None);

/// File name of the library on this platform (`libpdfium.so` on Linux).
pub fn library_file_name() -> PathBuf {
    lib_name()
}

fn lib_name() -> PathBuf {
    PathBuf::from(Pdfium::pdfium_platform_library_name())
}

/// pdfium as a native library to search for.
fn native_library(explicit: Option<&Path>) -> crate::runtime::NativeLibrary {
    crate::runtime::NativeLibrary {
        file_name: lib_name(),
        env: PDFIUM_ENV,
        venv_package: "pypdfium2_raw",
        explicit: explicit.map(Path::to_path_buf),
    }
}

/// Candidate locations in search order (existing or not; the first existing one is bound).
pub fn library_candidates(explicit: Option<&Path>) -> Vec<PathBuf> {
    crate::runtime::library_candidates(&native_library(explicit))
}

fn bind(explicit: Option<&Path>) -> std::result::Result<PdfLib, String> {
    let candidates = library_candidates(explicit);
    let mut tried = Vec::new();
    for path in &candidates {
        if !path.is_file() {
            tried.push(format!("{} (absent)", path.display()));
            continue;
        }
        match Pdfium::bind_to_library(path) {
            Ok(bindings) => {
                return Ok(PdfLib {
                    pdfium: Pdfium::new(bindings),
                    path: path.clone(),
                });
            }
            Err(e) => tried.push(format!("{} ({e})", path.display())),
        }
    }
    Err(format!(
        "pdfium library ({}) not found or not loadable; tried: {}. Install it with \
         `bash scripts/setup.sh` (pypdfium2 in the project's .venv), or point {PDFIUM_ENV} or the \
         `pdfium_library` setting at libpdfium.so",
        lib_name().display(),
        if tried.is_empty() {
            "nothing".to_string()
        } else {
            tried.join(", ")
        }
    ))
}

/// Maps a document load error.
fn load_error(e: PdfiumError) -> Error {
    match e {
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::PasswordError)
        | PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::SecurityError) => {
            Error::EncryptedFile("the PDF is password protected".into())
        }
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::FormatError) => {
            Error::CorruptFile("cannot open PDF: damaged or truncated file structure".into())
        }
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::FileError) => {
            Error::CorruptFile("cannot open PDF: not a readable PDF file".into())
        }
        // One line, whatever pdfium's error looks like.
        other => Error::CorruptFile(format!(
            "cannot open PDF: {}",
            other
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

impl PdfLib {
    /// The process's pdfium, bound by the first call (engines call this when they are built):
    /// searching `explicit` (the file or its directory), `FOLIO_PDFIUM_LIB`, `lib/` next to the
    /// executable (and next to its parent directory), then the project's `.venv`
    /// (`pypdfium2_raw`) found by walking up from the executable and from the current directory.
    ///
    /// Once bound, the library serves every later call; one whose `explicit` setting names a
    /// different existing file gets `INVALID_ARGUMENT` naming both (a process binds one pdfium).
    /// A failed search is `RUNTIME_MISSING` and not remembered: a later call searches again.
    pub fn get(explicit: Option<&Path>) -> Result<&'static PdfLib> {
        let mut bound = PDFIUM.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(lib) = *bound {
            crate::runtime::check_loaded(&native_library(explicit), "pdfium", &lib.path)?;
            return Ok(lib);
        }
        let lib: &'static PdfLib =
            Box::leak(Box::new(bind(explicit).map_err(Error::RuntimeMissing)?));
        *bound = Some(lib);
        Ok(lib)
    }

    /// Path of the bound library.
    pub fn library_path(&self) -> &Path {
        &self.path
    }

    fn open<'a>(&'a self, bytes: &'a [u8]) -> Result<PdfDocument<'a>> {
        if bytes.is_empty() {
            return Err(Error::EmptyFile);
        }
        self.pdfium
            .load_pdf_from_byte_slice(bytes, None)
            .map_err(load_error)
    }

    fn page<'a>(doc: &PdfDocument<'a>, page: u32) -> Result<PdfPage<'a>> {
        let n = doc.pages().len();
        let idx = i32::try_from(page).unwrap_or(i32::MAX);
        if page == 0 || idx > n {
            return Err(Error::InvalidArgument(format!(
                "page {page} does not exist (the document has {n} pages)"
            )));
        }
        doc.pages()
            .get(idx - 1)
            .map_err(|e| Error::CorruptFile(format!("cannot load page {page}: {e}")))
    }

    /// Number of pages (`CorruptFile` / `EncryptedFile` on bad input).
    pub fn page_count(&self, bytes: &[u8]) -> Result<u32> {
        let doc = self.open(bytes)?;
        Ok(doc.pages().len().max(0) as u32)
    }

    /// Text layer of the given 1-based pages. A page whose text layer is missing, too thin
    /// over a scanned image, or garbled (quality below `min_quality`) comes back with
    /// `usable == false` and must be OCR'd.
    pub fn extract_text(
        &self,
        bytes: &[u8],
        pages: &[u32],
        min_quality: f32,
    ) -> Result<Vec<PdfPageText>> {
        let doc = self.open(bytes)?;
        let mut out = Vec::with_capacity(pages.len());
        for &p in pages {
            let page = Self::page(&doc, p)?;
            out.push(page_text(&page, p, min_quality));
        }
        Ok(out)
    }

    /// Hands the document's attachments to `visit` one at a time (see [`PdfAttachmentFile`]),
    /// at most `max_count` of them, in pdfium's order, the content of each handed over only
    /// when it is at most `max_bytes` long; returns how many more the document lists (not
    /// read). One
    /// attachment's content is in memory at a time.
    ///
    /// pdfium lists the entries of the document's `EmbeddedFiles` name tree (where PDF/A-3
    /// keeps its associated files too: a Factur-X / ZUGFeRD XML is both in the catalog's `/AF`
    /// array and in that tree). A file named only by an `/AF` array (of the catalog, a page or
    /// an object) and not in the tree, and a file attachment annotation on a page, are not
    /// listed. pdfium decodes an attachment whole to tell its size: call this only on a PDF
    /// whose embedded files the pre-scan measured ([`crate::preprocess::EmbeddedFiles`]).
    pub fn attachments(
        &self,
        bytes: &[u8],
        max_count: usize,
        max_bytes: usize,
        visit: &mut dyn FnMut(PdfAttachmentFile),
    ) -> Result<usize> {
        let doc = self.open(bytes)?;
        Ok(attachments_of(&doc, max_count, max_bytes, visit))
    }

    /// [`PdfLib::extract_text`] and, when `attachments` is given, [`PdfLib::attachments`] (its
    /// answer the second value), over one opening of the document.
    pub fn extract_text_and_attachments(
        &self,
        bytes: &[u8],
        pages: &[u32],
        min_quality: f32,
        attachments: Option<AttachmentVisit<'_>>,
    ) -> Result<(Vec<PdfPageText>, Option<usize>)> {
        let doc = self.open(bytes)?;
        let mut out = Vec::with_capacity(pages.len());
        for &p in pages {
            let page = Self::page(&doc, p)?;
            out.push(page_text(&page, p, min_quality));
        }
        let more = attachments.map(|a| attachments_of(&doc, a.max_count, a.max_bytes, a.visit));
        Ok((out, more))
    }

    /// Renders a 1-based page to grayscale at `dpi` on a white background (page rotation
    /// applied, as displayed), at most [`MAX_RENDER_PIXELS`] (80 Mpx) large.
    pub fn render(&self, bytes: &[u8], page: u32, dpi: u32) -> Result<GrayImage> {
        self.render_within(bytes, page, dpi, u64::MAX)
    }

    /// Renders a 1-based page like [`PdfLib::render`], at most `max_pixels` large (the
    /// resolution lowered to fit, as for the OCR).
    pub fn render_within(
        &self,
        bytes: &[u8],
        page: u32,
        dpi: u32,
        max_pixels: u64,
    ) -> Result<GrayImage> {
        let doc = self.open(bytes)?;
        let pg = Self::page(&doc, page)?;
        render_page(&pg, page, dpi, max_pixels)
    }

    /// Renders a 1-based page like [`PdfLib::render`], at most `max_pixels` large (and at most
    /// 80 Mpx), unless it shows no ink at all (`None`), which is decided in milliseconds first:
    /// a page without objects is blank; otherwise a thumbnail at 36 DPI is checked for pixels
    /// visibly darker than paper. A blank page needs no full-resolution render and no OCR.
    /// The document is opened once for both.
    pub fn render_unless_blank(
        &self,
        bytes: &[u8],
        page: u32,
        dpi: u32,
        max_pixels: u64,
    ) -> Result<Option<GrayImage>> {
        let doc = self.open(bytes)?;
        let pg = Self::page(&doc, page)?;
        if pg.objects().is_empty() {
            return Ok(None);
        }
        let thumb = render_page(&pg, page, BLANK_PROBE_DPI, max_pixels)?;
        if !crate::ocr::imageops::has_ink(&thumb, BLANK_PROBE_INK_LEVEL) {
            return Ok(None);
        }
        drop(thumb);
        render_page(&pg, page, dpi, max_pixels).map(Some)
    }
}

/// One attachment of a PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfAttachmentFile {
    /// Its name in the name tree (`factur-x.xml`), empty when it has none.
    pub name: String,
    /// Its size in bytes, unpacked.
    pub size: usize,
    /// Its content; `None` when it is larger than the limit asked for.
    pub data: Option<Vec<u8>>,
}

/// How [`PdfLib::extract_text_and_attachments`] reads attachments: as
/// [`PdfLib::attachments`] with these arguments.
pub struct AttachmentVisit<'a> {
    /// The most attachments read.
    pub max_count: usize,
    /// The largest attachment whose content is read.
    pub max_bytes: usize,
    /// Called with each.
    pub visit: &'a mut dyn FnMut(PdfAttachmentFile),
}

/// Hands the attachments of an opened document to `visit`; how many more it lists.
fn attachments_of(
    doc: &PdfDocument<'_>,
    max_count: usize,
    max_bytes: usize,
    visit: &mut dyn FnMut(PdfAttachmentFile),
) -> usize {
    let all = doc.attachments();
    let n = usize::from(all.len());
    for a in all.iter().take(max_count) {
        // One read: pdfium decodes the whole stream for its length as well as for its bytes,
        // so asking for the length first would decode it once more (the pre-scan has bounded
        // what an attachment unpacks to). An attachment without data (a file specification
        // without an embedded stream) reads as empty.
        let bytes = a.save_to_bytes().unwrap_or_default();
        let size = bytes.len();
        let data = (size <= max_bytes).then_some(bytes);
        visit(PdfAttachmentFile {
            name: a.name(),
            size,
            data,
        });
    }
    n.saturating_sub(max_count)
}

/// Pixels per point for rendering a `w_pt` x `h_pt` page at `dpi`, lowered where the bitmap
/// would exceed `max_pixels` or [`MAX_RENDER_PIXELS`] (never below one pixel a side).
fn render_scale(w_pt: f32, h_pt: f32, dpi: u32, max_pixels: u64) -> f32 {
    let (w, h) = (w_pt.abs().max(1.0), h_pt.abs().max(1.0));
    let cap = (max_pixels as f32).min(MAX_RENDER_PIXELS);
    let mut scale = dpi.max(1) as f32 / 72.0;
    let px = w * h * scale * scale;
    if px > cap {
        scale *= (cap / px).sqrt();
    }
    scale.max(1.0 / w.min(h))
}

/// Size in pixels of a `w_pt` x `h_pt` page rendered at `dpi` within `max_pixels` (and
/// [`MAX_RENDER_PIXELS`]): the size [`PdfLib::render_unless_blank`] gives it.
pub fn render_size(w_pt: f32, h_pt: f32, dpi: u32, max_pixels: u64) -> (u32, u32) {
    let scale = render_scale(w_pt, h_pt, dpi, max_pixels);
    let px = |pt: f32| (pt.abs() * scale).round().max(1.0) as u32;
    (px(w_pt), px(h_pt))
}

/// Renders an opened page (its 1-based number is for messages) to grayscale at `dpi` within
/// `max_pixels` on a white background.
fn render_page(pg: &PdfPage<'_>, page: u32, dpi: u32, max_pixels: u64) -> Result<GrayImage> {
    let (w, h) = (pg.width().value, pg.height().value);
    let cfg = PdfRenderConfig::new()
        .scale_page_by_factor(render_scale(w, h, dpi, max_pixels))
        .set_format(PdfBitmapFormat::BGR)
        .set_clear_color(PdfColor::WHITE)
        .render_form_data(true)
        .render_annotations(true);
    let bitmap = pg
        .render_with_config(&cfg)
        .map_err(|e| Error::CorruptFile(format!("cannot render page {page}: {e}")))?;
    bitmap_to_gray(&bitmap)
        .ok_or_else(|| Error::Internal(format!("unexpected bitmap layout for page {page}")))
}

/// Copies a pdfium bitmap (any format, rows possibly padded) into a `GrayImage`.
fn bitmap_to_gray(bitmap: &PdfBitmap<'_>) -> Option<GrayImage> {
    let w = usize::try_from(bitmap.width()).ok()?;
    let h = usize::try_from(bitmap.height()).ok()?;
    if w == 0 || h == 0 {
        return None;
    }
    let raw = bitmap.as_raw_bytes();
    let stride = raw.len() / h;
    let bpp = match bitmap.format().ok()? {
        PdfBitmapFormat::Gray => 1,
        PdfBitmapFormat::BGR => 3,
        PdfBitmapFormat::BGRA | PdfBitmapFormat::BGRx => 4,
    };
    if stride < w * bpp {
        return None;
    }
    let mut out = Vec::with_capacity(w * h);
    for row in raw.chunks_exact(stride).take(h) {
        let px = row.get(..w * bpp)?;
        if bpp == 1 {
            out.extend_from_slice(px);
        } else {
            out.extend(px.chunks_exact(bpp).map(|p| match p {
                [b, g, r, ..] => {
                    ((u32::from(*r) * 299 + u32::from(*g) * 587 + u32::from(*b) * 114) / 1000) as u8
                }
                _ => 255,
            }));
        }
    }
    GrayImage::from_raw(w as u32, h as u32, out)
}

/// Share of the page covered by image objects (0..1).
fn image_coverage(page: &PdfPage<'_>, page_area: f32) -> f32 {
    if page_area <= 0.0 {
        return 0.0;
    }
    let mut area = 0.0f32;
    for obj in page.objects().iter() {
        if obj.object_type() != PdfPageObjectType::Image {
            continue;
        }
        if let Ok(q) = obj.bounds() {
            let r = q.to_rect();
            area += (r.width().value * r.height().value).abs();
        }
    }
    (area / page_area).min(1.0)
}

/// Clockwise quarter turns of a page.
fn quarter_turns(page: &PdfPage<'_>) -> layer::QuarterTurns {
    match page.rotation() {
        Ok(PdfPageRenderRotation::Degrees90) => 1,
        Ok(PdfPageRenderRotation::Degrees180) => 2,
        Ok(PdfPageRenderRotation::Degrees270) => 3,
        _ => 0,
    }
}

/// Reads one page's text layer.
fn page_text(page: &PdfPage<'_>, number: u32, min_quality: f32) -> PdfPageText {
    let (dw, dh) = (page.width().value.abs(), page.height().value.abs());
    let turns = quarter_turns(page);
    // Unrotated size and origin of the visible box (pdfium reports the rotated size).
    let size = if turns % 2 == 1 { (dh, dw) } else { (dw, dh) };
    let origin = page
        .boundaries()
        .crop()
        .or_else(|_| page.boundaries().media())
        .map(|b| (b.bounds.left().value, b.bounds.bottom().value))
        .unwrap_or((0.0, 0.0));

    let mut chars = Vec::new();
    if let Ok(text) = page.text() {
        let all = text.chars();
        chars.reserve(all.len());
        for c in all.iter() {
            let ch = char::from_u32(c.unicode_value()).unwrap_or('\u{fffd}');
            if ch != '\0' && (ch.is_whitespace() || ch.is_control()) {
                chars.push(CharBox {
                    ch,
                    bbox: Default::default(),
                    generated: c.is_generated().unwrap_or(false),
                });
                continue;
            }
            let Ok(r) = c.loose_bounds() else { continue };
            let bbox = layer::to_display(
                (
                    r.left().value,
                    r.bottom().value,
                    r.right().value,
                    r.top().value,
                ),
                origin,
                size,
                turns,
            );
            chars.push(CharBox::new(ch, bbox));
        }
    }
    let words = layer::build_words(&chars);
    let stats = TextStats::of_words(words.iter().map(|w| w.text.as_str()));
    let usable = layer::is_usable(&stats, min_quality, || image_coverage(page, dw * dh));
    PdfPageText {
        text: TextPage {
            page: number,
            width: dw,
            height: dh,
            unit: Unit::Pt,
            source: Source::TextLayer,
            engine: None,
            rotation: 0,
            words,
        },
        usable,
        quality: stats.quality(),
    }
}

/// Text layer of one page.
#[derive(Debug, Clone)]
pub struct PdfPageText {
    /// Words with boxes in points.
    pub text: TextPage,
    /// False when the page has no text layer or an unusable one: it must be OCR'd.
    pub usable: bool,
    /// Quality score of the text layer (0..1, see [`layer::TextStats::quality`]).
    pub quality: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/zugferd")
    }

    /// The zugferd sample PDFs, or `None` (test skipped) when the data or pdfium is absent.
    fn samples() -> Option<(&'static PdfLib, Vec<PathBuf>)> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
            .collect();
        files.sort();
        if files.is_empty() {
            eprintln!("skipped: no sample PDFs");
            return None;
        }
        match PdfLib::get(None) {
            Ok(lib) => Some((lib, files)),
            Err(e) => {
                eprintln!("skipped: {e}");
                None
            }
        }
    }

    #[test]
    fn candidates_follow_the_documented_order() {
        let c = library_candidates(Some(Path::new("/nonexistent/x/libpdfium.so")));
        assert_eq!(c[0], PathBuf::from("/nonexistent/x/libpdfium.so"));
        let exe = std::env::current_exe().unwrap();
        let lib_next_to_exe = exe.parent().unwrap().join("lib").join(lib_name());
        assert!(c.contains(&lib_next_to_exe));
    }

    #[test]
    fn bad_bytes_are_corrupt_not_a_panic() {
        let Some((lib, _)) = samples() else { return };
        let e = lib.page_count(b"%PDF-1.7\n garbage garbage").unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::CorruptFile);
        let e = lib.extract_text(b"not a pdf", &[1], 0.75).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::CorruptFile);
        assert_eq!(
            lib.page_count(b"").unwrap_err().code(),
            crate::ErrorCode::EmptyFile
        );
    }

    #[test]
    fn text_layer_of_sample_invoices() {
        let Some((lib, files)) = samples() else {
            return;
        };
        let bytes = std::fs::read(&files[0]).unwrap();
        let n = lib.page_count(&bytes).unwrap();
        assert!(n >= 1);
        let pages = lib.extract_text(&bytes, &[1], 0.75).unwrap();
        let p = &pages[0];
        assert!(p.usable, "quality {}", p.quality);
        assert_eq!(p.text.page, 1);
        assert_eq!(p.text.unit, Unit::Pt);
        assert!(p.text.words.len() > 30);
        // A4 portrait in points, boxes inside the page, top-left origin.
        assert!((p.text.width - 595.0).abs() < 3.0 && (p.text.height - 842.0).abs() < 3.0);
        for w in &p.text.words {
            assert!(!w.text.contains(char::is_whitespace), "{:?}", w.text);
            assert!(w.bbox.x0 >= -1.0 && w.bbox.x1 <= p.text.width + 1.0);
            assert!(w.bbox.y0 >= -1.0 && w.bbox.y1 <= p.text.height + 1.0);
        }
        let text: Vec<&str> = p.text.words.iter().map(|w| w.text.as_str()).collect();
        assert!(text.iter().any(|t| t.contains("Rechnung")), "{text:?}");
        // Reading order: the first word is in the upper half of the page.
        assert!(p.text.words[0].bbox.y0 < p.text.height / 2.0);
        // A page that does not exist is an argument error.
        let e = lib.extract_text(&bytes, &[n + 1], 0.75).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::InvalidArgument);
    }

    #[test]
    fn render_is_grayscale_at_dpi() {
        let Some((lib, files)) = samples() else {
            return;
        };
        let bytes = std::fs::read(&files[0]).unwrap();
        let img = lib.render(&bytes, 1, 150).unwrap();
        // A4 at 150 DPI: 1240 x 1754.
        assert!((img.width() as i32 - 1240).abs() <= 2, "{}", img.width());
        assert!((img.height() as i32 - 1754).abs() <= 2, "{}", img.height());
        // White background (corner) and some dark ink.
        assert_eq!(img.get_pixel(2, 2).0[0], 255);
        assert!(img.pixels().filter(|p| p.0[0] < 100).count() > 1000);
        // The same page through the blank check, with its size as `render_size` predicts.
        let text = &lib.extract_text(&bytes, &[1], 0.75).unwrap()[0].text;
        let same = lib.render_unless_blank(&bytes, 1, 150, u64::MAX).unwrap();
        assert_eq!(same.as_ref(), Some(&img));
        let capped = lib
            .render_unless_blank(&bytes, 1, 150, 500_000)
            .unwrap()
            .unwrap();
        let size = render_size(text.width, text.height, 150, 500_000);
        assert_eq!((capped.width(), capped.height()), size);
        assert!(u64::from(size.0) * u64::from(size.1) <= 501_000, "{size:?}");
        assert_eq!(lib.render_within(&bytes, 1, 150, 500_000).unwrap(), capped);
    }

    #[test]
    fn render_size_applies_the_caps() {
        // A4 at 300 DPI: 2480 x 3508, under both caps.
        assert_eq!(render_size(595.0, 842.0, 300, u64::MAX), (2479, 3508));
        // A 2 m x 1 m poster at 300 DPI (about 279 Mpx) is held to 80 Mpx, or to the limit.
        let (w, h) = render_size(5669.0, 2835.0, 300, u64::MAX);
        let px = f64::from(w) * f64::from(h);
        assert!((79.0e6..=80.5e6).contains(&px), "{w} x {h}");
        let (w, h) = render_size(5669.0, 2835.0, 300, 10_000_000);
        let px = f64::from(w) * f64::from(h);
        assert!((9.9e6..=10.1e6).contains(&px), "{w} x {h}");
        assert!((f64::from(w) / f64::from(h) - 2.0).abs() < 0.01);
        // Never below one pixel a side.
        assert_eq!(render_size(595.0, 842.0, 300, 1), (1, 1));
    }
}
