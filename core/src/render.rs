//! Page images with the evidence of a Result drawn on them: what a review screen shows.
//!
//! [`render_page`] makes the image of one page of the original file in the coordinate space of
//! that page's evidence boxes, the way the engine read it:
//! * a PDF page read from its text layer (`pt`): rendered by pdfium at the resolution that makes
//!   its long side at most `max_side` pixels;
//! * a page read by OCR (`px`: a scanned PDF page, a JPEG or PNG, a TIFF frame): the image the OCR
//!   saw, made by the engine's own steps (rendered at the OCR resolution of the recognition, or
//!   decoded, then [`crate::preprocess::prepare_for_ocr`]), turned by the page's `rotation`
//!   ([`crate::result::PageGeometry`]), then scaled down to at most `max_side`.
//!
//! [`field_boxes`] maps the page's evidence boxes onto that image with the scales of the
//! [`RenderedPage`] (rendered pixels per unit of the Result's page size, so a page OCR'd at
//! another resolution still lines up); [`draw_boxes`] outlines them in a colour per
//! [`FieldGroup`]; [`encode_png`] makes the PNG.
//!
//! Documents without a page image (office files, pre-recognised words, standalone XML
//! e-invoices) are `UNSUPPORTED_FILE_TYPE`; a page the Result does not describe is
//! `INVALID_ARGUMENT` (so is a Result written before page geometry existed: recognise again).

use crate::config::EngineConfig;
use crate::engine::{ocr_dpi, pdf_page_for_ocr};
use crate::error::{Error, Result};
use crate::ocr::imageops;
use crate::pdf::PdfLib;
use crate::preprocess::{self, FileType};
use crate::result::{DocumentResult, PageGeometry, Source, Unit};
use image::{GrayImage, Rgb, RgbImage};
use serde::Serialize;

/// How far the scale across may differ from the scale down (relative) before the image is taken
/// for another page than the Result describes (another file, another page turn). Pixel rounding
/// of a page a few hundred pixels wide stays well under it.
const MAX_ASPECT_MISMATCH: f64 = 0.03;

/// One page of a document as an image, in the coordinate space of its evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedPage {
    /// 1-based page number.
    pub page: u32,
    /// The page image (gray, as read, in RGB for coloured boxes).
    pub image: RgbImage,
    /// Image pixels per evidence unit across (`pt` or `px` of the Result's page).
    pub scale_x: f64,
    /// Image pixels per evidence unit down.
    pub scale_y: f64,
}

/// One field's evidence box on a [`RenderedPage`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldBox {
    /// JSON pointer of the field (`/totals/total`).
    pub field: String,
    /// 1-based page number.
    pub page: u32,
    /// `[x0, y0, x1, y1]` in pixels of the rendered image, origin top-left, within the image,
    /// rounded to 0.01.
    pub rect: [f64; 4],
    /// The text the value was read from.
    pub text: String,
    /// The field's confidence (`confidence.fields`), if the Result states one.
    pub confidence: Option<f64>,
}

/// The kind of field a box belongs to, which decides its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldGroup {
    /// `/document/...`: number, dates, title, currency (blue).
    Header,
    /// `/parties/...` (green).
    Party,
    /// `/totals/...` and `/taxes/...` (red).
    Amount,
    /// `/line_items/...` (orange).
    LineItem,
    /// `/bank_accounts/...` (purple).
    Bank,
    /// Everything else: extra fields, signatories (teal).
    Other,
}

impl FieldGroup {
    /// The group of a field's JSON pointer, by its first segment.
    pub fn of(field: &str) -> FieldGroup {
        let first = field.trim_start_matches('/').split('/').next();
        match first.unwrap_or_default() {
            "document" | "document_type" | "structure_type" => FieldGroup::Header,
            "parties" => FieldGroup::Party,
            "totals" | "taxes" => FieldGroup::Amount,
            "line_items" => FieldGroup::LineItem,
            "bank_accounts" => FieldGroup::Bank,
            _ => FieldGroup::Other,
        }
    }

    /// The colour boxes of this group are drawn in.
    pub fn color(self) -> Rgb<u8> {
        Rgb(match self {
            FieldGroup::Header => [0, 90, 255],
            FieldGroup::Party => [0, 160, 60],
            FieldGroup::Amount => [220, 0, 0],
            FieldGroup::LineItem => [255, 140, 0],
            FieldGroup::Bank => [150, 0, 200],
            FieldGroup::Other => [0, 160, 170],
        })
    }
}

/// Renders page `page` (1-based) of the original file `bytes` as the engine read it (see the
/// module documentation), its long side at most `max_side` pixels (an image the OCR read smaller
/// is not enlarged). `result` is the Result the engine gave for these bytes; its
/// [`DocumentResult::pages`] say how the page was read. `config.limits` bound the file size and
/// the pixels decoded or rendered, pdfium is found through `config.pdfium_library` (as
/// [`crate::Engine::new`] finds it), and an OCR'd PDF page is rendered at `config.ocr.dpi`
/// (`heavy_dpi` when the Result says enhanced recognition ran): use the configuration the
/// document was recognised with.
///
/// Errors: `INVALID_ARGUMENT` for `max_side` 0, a page the Result does not describe, or an image
/// that does not match the page it describes; `UNSUPPORTED_FILE_TYPE` for documents without a
/// page image (office files, pre-recognised words, XML e-invoices); the engine's own errors of
/// the file (`FILE_TOO_LARGE`, `CORRUPT_FILE`, `RUNTIME_MISSING` without pdfium ...).
pub fn render_page(
    config: &EngineConfig,
    bytes: &[u8],
    result: &DocumentResult,
    page: u32,
    max_side: u32,
) -> Result<RenderedPage> {
    render_with(
        config,
        &|| PdfLib::get(config.pdfium_library.as_deref()),
        bytes,
        result,
        page,
        max_side,
    )
}

/// [`render_page`] with pdfium from `pdf` (an engine passes the library it bound).
pub(crate) fn render_with(
    config: &EngineConfig,
    pdf: &dyn Fn() -> Result<&'static PdfLib>,
    bytes: &[u8],
    result: &DocumentResult,
    page: u32,
    max_side: u32,
) -> Result<RenderedPage> {
    if max_side == 0 {
        return Err(Error::InvalidArgument("max_side must be at least 1".into()));
    }
    let limits = &config.limits;
    let size = bytes.len() as u64;
    if size > limits.max_bytes() {
        return Err(Error::FileTooLarge {
            size,
            limit: limits.max_bytes(),
        });
    }
    let file_type = preprocess::detect_type(bytes)?;
    if !matches!(
        file_type,
        FileType::Pdf | FileType::Jpeg | FileType::Png | FileType::Tiff
    ) {
        return Err(Error::UnsupportedFileType(format!(
            "a {} has no page image to render (only PDF, JPEG, PNG and TIFF documents have)",
            describe(file_type)
        )));
    }
    let geometry = page_geometry(result, page)?;
    let from_ocr = match (geometry.unit, geometry.source) {
        (Unit::Px, Source::Ocr) => true,
        (Unit::Pt, Source::TextLayer) if file_type == FileType::Pdf => false,
        (unit, source) => {
            return Err(Error::InvalidArgument(format!(
                "page {page} of the result was read as {unit:?} from {source:?}, which a \
                 {file_type:?} file does not give: the result is not this file's"
            )));
        }
    };
    let gray = if !from_ocr {
        // A text layer: its long side at `max_side` (pdfium's integer resolution: at most).
        let long_pt = geometry.width.max(geometry.height).max(1.0);
        let dpi = ((f64::from(max_side) * 72.0 / long_pt).floor() as u32).max(1);
        pdf()?.render_within(bytes, page, dpi, limits.max_image_pixels)?
    } else {
        let seen = match file_type {
            FileType::Pdf => {
                let dpi = ocr_dpi(config, result.super_ai_used);
                pdf_page_for_ocr(pdf()?, bytes, page, dpi, limits)?
            }
            FileType::Tiff => {
                let frames = preprocess::tiff_frame_count(bytes)?;
                if page > frames {
                    return Err(not_in_file(page, frames));
                }
                Some(preprocess::tiff_page(bytes, page, limits)?.image)
            }
            _ => {
                if page != 1 {
                    return Err(not_in_file(page, 1));
                }
                Some(preprocess::image_for_ocr(bytes, file_type, limits)?)
            }
        };
        match seen {
            Some(image) => match imageops::rotate_cw(&image, i32::from(geometry.rotation)) {
                Some(turned) => turned,
                None => image,
            },
            // A page without ink is never rendered in full: white, at the size it was read.
            None => blank(geometry, max_side),
        }
    };
    let gray = fit(gray, max_side);
    let scale_x = f64::from(gray.width()) / geometry.width;
    let scale_y = f64::from(gray.height()) / geometry.height;
    if (scale_x / scale_y - 1.0).abs() > MAX_ASPECT_MISMATCH {
        return Err(Error::InvalidArgument(format!(
            "page {page} renders {}x{} but the result describes it as {}x{} {:?}: the result \
             is not this file's, or was made with another configuration",
            gray.width(),
            gray.height(),
            geometry.width,
            geometry.height,
            geometry.unit
        )));
    }
    Ok(RenderedPage {
        page,
        image: image::DynamicImage::ImageLuma8(gray).to_rgb8(),
        scale_x,
        scale_y,
    })
}

/// A file type's name in messages.
fn describe(t: FileType) -> &'static str {
    match t {
        FileType::Doc | FileType::Docx | FileType::Xls | FileType::Xlsx | FileType::Rtf => {
            "office document (read as text)"
        }
        FileType::Words | FileType::Hocr => "pre-recognised words file (JSON or hOCR)",
        FileType::EInvoice => "standalone XML e-invoice",
        FileType::Pdf | FileType::Jpeg | FileType::Png | FileType::Tiff => "page image",
    }
}

/// The geometry of `page` in the Result (`INVALID_ARGUMENT` when it has none, or an unusable
/// one).
fn page_geometry(result: &DocumentResult, page: u32) -> Result<&PageGeometry> {
    let Some(g) = result.pages.iter().find(|g| g.page == page) else {
        let read: Vec<String> = result.pages.iter().map(|g| g.page.to_string()).collect();
        return Err(Error::InvalidArgument(if read.is_empty() {
            format!(
                "page {page}: the result describes no page (a result without `pages` was \
                 written by an older version: recognise the document again)"
            )
        } else {
            format!(
                "page {page} was not read (the result has page{} {})",
                if read.len() == 1 { "" } else { "s" },
                read.join(", ")
            )
        }));
    };
    let size_ok = |v: f64| v.is_finite() && v > 0.0;
    if !size_ok(g.width) || !size_ok(g.height) || !matches!(g.rotation, 0 | 90 | 180 | 270) {
        return Err(Error::InvalidArgument(format!(
            "page {page} of the result has an unusable geometry: {g:?}"
        )));
    }
    Ok(g)
}

/// A page the file does not have.
fn not_in_file(page: u32, count: u32) -> Error {
    Error::InvalidArgument(format!(
        "page {page} does not exist (the document has {count} page{})",
        if count == 1 { "" } else { "s" }
    ))
}

/// A white page of the geometry's size (pixels), at most `max_side` long.
fn blank(g: &PageGeometry, max_side: u32) -> GrayImage {
    let factor = (f64::from(max_side) / g.width.max(g.height)).min(1.0);
    let side = |v: f64| ((v * factor).round() as u32).max(1);
    GrayImage::from_pixel(side(g.width), side(g.height), image::Luma([255]))
}

/// `image` scaled down so that its long side is at most `max_side` (never enlarged).
fn fit(image: GrayImage, max_side: u32) -> GrayImage {
    let long = image.width().max(image.height());
    if long <= max_side {
        return image;
    }
    imageops::scale(&image, max_side as f32 / long as f32)
}

/// The evidence boxes of `rendered`'s page, in its pixels: each scaled by the page's scales,
/// clamped to the image, rounded to 0.01; boxes with nothing left inside the image, or in
/// another unit than the page, are left out. In the order of the fields' pointers.
pub fn field_boxes(result: &DocumentResult, rendered: &RenderedPage) -> Vec<FieldBox> {
    let unit = result
        .pages
        .iter()
        .find(|g| g.page == rendered.page)
        .map(|g| g.unit);
    let (w, h) = (
        f64::from(rendered.image.width()),
        f64::from(rendered.image.height()),
    );
    let round = |v: f64| (v * 100.0).round() / 100.0;
    let mut out = Vec::new();
    for (field, ev) in &result.evidence {
        if ev.page != rendered.page || unit.is_some_and(|u| u != ev.unit) {
            continue;
        }
        let [x0, y0, x1, y1] = ev.bbox;
        let xs = [x0 * rendered.scale_x, x1 * rendered.scale_x];
        let ys = [y0 * rendered.scale_y, y1 * rendered.scale_y];
        let rect = [
            xs[0].min(xs[1]).clamp(0.0, w),
            ys[0].min(ys[1]).clamp(0.0, h),
            xs[0].max(xs[1]).clamp(0.0, w),
            ys[0].max(ys[1]).clamp(0.0, h),
        ];
        // NaN compares false: such a box is left out too.
        if !(rect[2] > rect[0] && rect[3] > rect[1]) {
            continue;
        }
        out.push(FieldBox {
            field: field.clone(),
            page: rendered.page,
            rect: rect.map(round),
            text: ev.text.clone(),
            confidence: result.confidence.fields.get(field).copied(),
        });
    }
    out
}

/// Outlines each box with a 2-pixel frame just outside it (the text inside stays readable), in
/// its [`FieldGroup`]'s colour; frames are clipped to the image.
pub fn draw_boxes(image: &mut RgbImage, boxes: &[FieldBox]) {
    for b in boxes {
        let color = FieldGroup::of(&b.field).color();
        let x0 = b.rect[0].floor() as i64;
        let y0 = b.rect[1].floor() as i64;
        let x1 = b.rect[2].ceil() as i64;
        let y1 = b.rect[3].ceil() as i64;
        for grow in 1..=2 {
            frame(
                image,
                [x0 - grow, y0 - grow, x1 - 1 + grow, y1 - 1 + grow],
                color,
            );
        }
    }
}

/// The one-pixel outline of the pixels `x0..=x1`, `y0..=y1`, clipped to the image.
fn frame(image: &mut RgbImage, [x0, y0, x1, y1]: [i64; 4], color: Rgb<u8>) {
    let (w, h) = (i64::from(image.width()), i64::from(image.height()));
    let mut put = |x: i64, y: i64| {
        if (0..w).contains(&x) && (0..h).contains(&y) {
            image.put_pixel(x as u32, y as u32, color);
        }
    };
    for x in x0.max(0)..=x1.min(w - 1) {
        put(x, y0);
        put(x, y1);
    }
    for y in y0.max(0)..=y1.min(h - 1) {
        put(x0, y);
        put(x1, y);
    }
}

/// The image as PNG bytes: one gray channel when every pixel is gray, else RGB.
pub fn encode_png(image: &RgbImage) -> Result<Vec<u8>> {
    use image::ImageEncoder;
    // A page without coloured boxes is gray in RGB: one channel is a third of the bytes (a
    // scanned page at 1600 px: about 0.5 MB instead of 1.5).
    let gray = image.pixels().all(|p| p[0] == p[1] && p[1] == p[2]);
    let (bytes, color): (std::borrow::Cow<'_, [u8]>, _) = if gray {
        (
            image
                .as_raw()
                .iter()
                .step_by(3)
                .copied()
                .collect::<Vec<u8>>()
                .into(),
            image::ExtendedColorType::L8,
        )
    } else {
        (
            image.as_raw().as_slice().into(),
            image::ExtendedColorType::Rgb8,
        )
    };
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&bytes, image.width(), image.height(), color)
        .map_err(|e| Error::Internal(format!("PNG encoding failed: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;
    use crate::result::Evidence;
    use image::Luma;

    /// Bars standing for the printed number (top left) and total (bottom right) of a page.
    const NUMBER: [u32; 4] = [100, 100, 420, 140];
    const TOTAL: [u32; 4] = [700, 1400, 1020, 1450];

    /// A 1200 x 1600 white page with the two bars, as PNG, and the image the OCR reads of it.
    fn page_png() -> (Vec<u8>, GrayImage) {
        let mut img = GrayImage::from_pixel(1200, 1600, Luma([255]));
        for [x0, y0, x1, y1] in [NUMBER, TOTAL] {
            for y in y0..y1 {
                for x in x0..x1 {
                    img.put_pixel(x, y, Luma([0]));
                }
            }
        }
        let mut png = Vec::new();
        image::DynamicImage::ImageLuma8(img.clone())
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        (png, preprocess::prepare_for_ocr(img))
    }

    fn evidence(bbox: [f64; 4], text: &str) -> Evidence {
        Evidence {
            page: 1,
            bbox,
            unit: Unit::Px,
            text: text.into(),
            source: Source::Ocr,
            engine: None,
        }
    }

    /// A Result of one OCR'd page of `w` x `h` pixels turned by `rotation`, with the two fields'
    /// boxes.
    fn result(w: u32, h: u32, rotation: u16, number: [f64; 4], total: [f64; 4]) -> DocumentResult {
        let mut r = DocumentResult::empty();
        r.pages.push(PageGeometry {
            page: 1,
            width: f64::from(w),
            height: f64::from(h),
            unit: Unit::Px,
            source: Source::Ocr,
            rotation,
        });
        r.evidence
            .insert("/document/number".into(), evidence(number, "RE-1"));
        r.evidence
            .insert("/totals/total".into(), evidence(total, "12.00"));
        r.confidence.fields.insert("/totals/total".into(), 0.87);
        r
    }

    fn as_f64(b: [u32; 4]) -> [f64; 4] {
        b.map(f64::from)
    }

    /// Share of dark pixels of `image` inside `rect` (pixels).
    fn ink(image: &RgbImage, rect: [f64; 4]) -> f64 {
        let (mut dark, mut all) = (0u32, 0u32);
        for y in rect[1].ceil() as u32..rect[3].floor() as u32 {
            for x in rect[0].ceil() as u32..rect[2].floor() as u32 {
                all += 1;
                if image.get_pixel(x, y).0[0] < 100 {
                    dark += 1;
                }
            }
        }
        f64::from(dark) / f64::from(all.max(1))
    }

    fn config() -> EngineConfig {
        EngineConfig::default()
    }

    #[test]
    fn an_image_page_is_the_image_the_ocr_read_with_its_boxes_on_the_ink() {
        let (png, seen) = page_png();
        let r = result(
            seen.width(),
            seen.height(),
            0,
            as_f64(NUMBER),
            as_f64(TOTAL),
        );
        let page = render_page(&config(), &png, &r, 1, 800).unwrap();
        assert_eq!(page.page, 1);
        assert_eq!(page.image.width().max(page.image.height()), 800);
        assert!((page.scale_x - 0.5).abs() < 0.01, "{page:?}");
        assert!((page.scale_y - 0.5).abs() < 0.01);
        let boxes = field_boxes(&r, &page);
        let fields: Vec<&str> = boxes.iter().map(|b| b.field.as_str()).collect();
        assert_eq!(fields, ["/document/number", "/totals/total"]);
        for b in &boxes {
            assert!(ink(&page.image, b.rect) > 0.9, "{b:?}");
        }
        assert_eq!(boxes[1].rect, [350.0, 700.0, 510.0, 725.0]);
        assert_eq!(boxes[1].text, "12.00");
        assert_eq!(boxes[1].confidence, Some(0.87));
        assert_eq!(boxes[0].confidence, None);
        // A smaller image is not enlarged.
        let full = render_page(&config(), &png, &r, 1, 5000).unwrap();
        assert_eq!(full.image.dimensions(), seen.dimensions());
        assert_eq!((full.scale_x, full.scale_y), (1.0, 1.0));
    }

    #[test]
    fn a_page_the_ocr_turned_is_drawn_turned_with_its_boxes_on_the_same_ink() {
        let (png, seen) = page_png();
        let (w, h) = seen.dimensions();
        // Turned a quarter clockwise: (x, y) of the image read goes to (h - y, x).
        let turn = |[x0, y0, x1, y1]: [u32; 4]| [h - y1, x0, h - y0, x1].map(f64::from);
        let r = result(h, w, 90, turn(NUMBER), turn(TOTAL));
        let page = render_page(&config(), &png, &r, 1, 800).unwrap();
        assert!(page.image.width() > page.image.height());
        let boxes = field_boxes(&r, &page);
        assert_eq!(boxes.len(), 2);
        for b in &boxes {
            assert!(ink(&page.image, b.rect) > 0.9, "{b:?}");
        }
        // The same boxes on the page as it stands would be off the ink: the turn matters.
        let standing = render_page(
            &config(),
            &png,
            &result(w, h, 0, [0.0; 4], [0.0; 4]),
            1,
            800,
        )
        .unwrap();
        let total = boxes[1].rect;
        assert!(ink(&standing.image, total) < 0.1);
        // A turn the image does not fit (its width for the page's height) is refused.
        let wrong = result(h, w, 0, turn(NUMBER), turn(TOTAL));
        let e = render_page(&config(), &png, &wrong, 1, 800).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidArgument, "{e}");
        assert!(e.to_string().contains("not this file's"), "{e}");
    }

    #[test]
    fn pages_the_result_does_not_describe_are_invalid_arguments() {
        let (png, seen) = page_png();
        let r = result(seen.width(), seen.height(), 0, [0.0; 4], [0.0; 4]);
        let code = |r: &DocumentResult, page, max_side| {
            render_page(&config(), &png, r, page, max_side)
                .unwrap_err()
                .code()
        };
        assert_eq!(code(&r, 2, 800), ErrorCode::InvalidArgument);
        assert_eq!(code(&r, 0, 800), ErrorCode::InvalidArgument);
        assert_eq!(code(&r, 1, 0), ErrorCode::InvalidArgument);
        // A result without page geometry (written before it existed).
        let old = DocumentResult::empty();
        let e = render_page(&config(), &png, &old, 1, 800).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidArgument);
        assert!(
            e.to_string().contains("recognise the document again"),
            "{e}"
        );
        // A page 2 the result claims for a one-page image.
        let mut two = r.clone();
        two.pages[0].page = 2;
        assert_eq!(code(&two, 2, 800), ErrorCode::InvalidArgument);
        // A text layer claimed for an image; an unusable turn.
        let mut pt = r.clone();
        pt.pages[0].unit = Unit::Pt;
        pt.pages[0].source = Source::TextLayer;
        assert_eq!(code(&pt, 1, 800), ErrorCode::InvalidArgument);
        let mut odd = r.clone();
        odd.pages[0].rotation = 45;
        assert_eq!(code(&odd, 1, 800), ErrorCode::InvalidArgument);
    }

    #[test]
    fn documents_without_a_page_image_are_unsupported() {
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/docs");
        let mut r = DocumentResult::empty();
        r.pages.push(PageGeometry {
            page: 1,
            width: 595.0,
            height: 842.0,
            unit: Unit::Pt,
            source: Source::Office,
            rotation: 0,
        });
        let words = br#"{"pages": [{"width": 100, "height": 100, "words": []}]}"#.to_vec();
        for (what, bytes) in [
            (
                "DOCX",
                std::fs::read(docs.join("invoice_en_docx.docx")).unwrap(),
            ),
            ("XML", std::fs::read(docs.join("einvoice_cii.xml")).unwrap()),
            ("words", words),
        ] {
            let e = render_page(&config(), &bytes, &r, 1, 800).unwrap_err();
            assert_eq!(e.code(), ErrorCode::UnsupportedFileType, "{what}: {e}");
            assert!(e.to_string().contains("no page image"), "{e}");
        }
        let e = render_page(&config(), b"", &r, 1, 800).unwrap_err();
        assert_eq!(e.code(), ErrorCode::EmptyFile);
    }

    #[test]
    fn the_limits_apply() {
        let (png, seen) = page_png();
        let r = result(seen.width(), seen.height(), 0, [0.0; 4], [0.0; 4]);
        let mut c = config();
        c.limits.max_image_pixels = 100_000;
        let e = render_page(&c, &png, &r, 1, 800).unwrap_err();
        assert_eq!(e.code(), ErrorCode::FileTooLarge, "{e}");
    }

    #[test]
    fn boxes_are_clamped_to_the_image_and_those_off_it_left_out() {
        let rendered = RenderedPage {
            page: 1,
            image: RgbImage::new(100, 50),
            scale_x: 0.5,
            scale_y: 0.5,
        };
        let mut r = result(
            200,
            100,
            0,
            [-20.0, 10.0, 40.0, 30.0],
            [150.0, 80.0, 400.0, 300.0],
        );
        r.evidence.insert(
            "/parties/seller/name".into(),
            evidence([300.0, 0.0, 400.0, 10.0], "x"),
        );
        r.evidence.insert(
            "/document/date".into(),
            evidence([f64::NAN, 0.0, 10.0, 10.0], "x"),
        );
        let mut other_page = evidence([0.0, 0.0, 10.0, 10.0], "x");
        other_page.page = 2;
        r.evidence.insert("/document/due_date".into(), other_page);
        let mut in_pt = evidence([0.0, 0.0, 10.0, 10.0], "x");
        in_pt.unit = Unit::Pt;
        r.evidence.insert("/document/title".into(), in_pt);
        let boxes = field_boxes(&r, &rendered);
        let rects: Vec<(&str, [f64; 4])> =
            boxes.iter().map(|b| (b.field.as_str(), b.rect)).collect();
        assert_eq!(
            rects,
            [
                ("/document/number", [0.0, 5.0, 20.0, 15.0]),
                ("/totals/total", [75.0, 40.0, 100.0, 50.0]),
            ]
        );
        let json = serde_json::to_value(&boxes[1]).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"field": "/totals/total", "page": 1,
                "rect": [75.0, 40.0, 100.0, 50.0], "text": "12.00", "confidence": 0.87})
        );
    }

    #[test]
    fn boxes_are_two_pixel_frames_in_their_group_colour_outside_the_text() {
        let mut img = RgbImage::from_pixel(40, 30, Rgb([255, 255, 255]));
        let b = |field: &str, rect| FieldBox {
            field: field.into(),
            page: 1,
            rect,
            text: String::new(),
            confidence: None,
        };
        draw_boxes(
            &mut img,
            &[
                b("/totals/total", [10.0, 10.0, 20.0, 15.0]),
                // At the corner: clipped, no panic.
                b("/line_items/0/amount", [0.0, 0.0, 3.0, 3.0]),
            ],
        );
        let red = FieldGroup::Amount.color();
        assert_eq!(*img.get_pixel(9, 12), red);
        assert_eq!(*img.get_pixel(8, 12), red);
        assert_eq!(*img.get_pixel(7, 12), Rgb([255, 255, 255]));
        assert_eq!(*img.get_pixel(20, 15), red);
        assert_eq!(*img.get_pixel(21, 16), red);
        assert_eq!(*img.get_pixel(15, 9), red);
        // The text inside is left alone.
        assert_eq!(*img.get_pixel(10, 10), Rgb([255, 255, 255]));
        assert_eq!(*img.get_pixel(19, 14), Rgb([255, 255, 255]));
        assert_eq!(*img.get_pixel(3, 1), FieldGroup::LineItem.color());
    }

    #[test]
    fn field_groups_by_pointer() {
        assert_eq!(FieldGroup::of("/document/number"), FieldGroup::Header);
        assert_eq!(FieldGroup::of("/parties/buyer/vat_id"), FieldGroup::Party);
        assert_eq!(FieldGroup::of("/totals/total"), FieldGroup::Amount);
        assert_eq!(FieldGroup::of("/taxes/0/amount"), FieldGroup::Amount);
        assert_eq!(FieldGroup::of("/line_items/3/sku"), FieldGroup::LineItem);
        assert_eq!(FieldGroup::of("/bank_accounts/0/iban"), FieldGroup::Bank);
        assert_eq!(
            FieldGroup::of("/extra_fields/order_number"),
            FieldGroup::Other
        );
        assert_eq!(FieldGroup::of(""), FieldGroup::Other);
        let colors: std::collections::HashSet<Rgb<u8>> = [
            FieldGroup::Header,
            FieldGroup::Party,
            FieldGroup::Amount,
            FieldGroup::LineItem,
            FieldGroup::Bank,
            FieldGroup::Other,
        ]
        .map(FieldGroup::color)
        .into_iter()
        .collect();
        assert_eq!(colors.len(), 6);
    }

    #[test]
    fn png_encoding_round_trips() {
        let mut img = RgbImage::from_pixel(7, 5, Rgb([255, 255, 255]));
        img.put_pixel(3, 2, Rgb([220, 0, 0]));
        let png = encode_png(&img).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let back = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(back, img);
        // Gray pages are one channel, and decode to the same pixels.
        let mut gray = RgbImage::from_pixel(64, 64, Rgb([255, 255, 255]));
        gray.put_pixel(3, 2, Rgb([17, 17, 17]));
        let png = encode_png(&gray).unwrap();
        let decoded = image::load_from_memory(&png).unwrap();
        assert_eq!(decoded.color(), image::ColorType::L8);
        assert_eq!(decoded.to_rgb8(), gray);
    }
}
