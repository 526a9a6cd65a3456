//! Page images with evidence boxes ([`folio::render`]) through the real engine (pdfium, tesseract,
//! PP-OCR): fixtures of each kind are recognised, a page rendered, and the boxes of the number and
//! total must sit on the printed value: on ink, and read back by the OCR from a crop of the
//! rendered image as the value's digits. A turned photo is drawn upright, its boxes on the right
//! text; documents without page images and pages not read are errors with stable codes.

use folio::render::{FieldBox, RenderedPage, draw_boxes, encode_png, field_boxes};
use folio::{CancelToken, DocumentResult, Engine, EngineConfig, ErrorCode, RecognizeOptions};
use image::{GrayImage, Luma, RgbImage};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/docs")
}

/// The real engine with the default configuration (the golden tests' engine).
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        Engine::new(EngineConfig::default()).unwrap_or_else(|e| {
            panic!("the engine could not be built ({e}): run `bash scripts/setup.sh`")
        })
    })
}

fn recognize(bytes: &[u8]) -> DocumentResult {
    engine()
        .recognize_bytes(
            bytes,
            &RecognizeOptions::default(),
            &|_| {},
            &CancelToken::new(),
        )
        .unwrap()
}

/// A fixture, its Result, and page `page` rendered at most `max_side` long.
fn rendered(name: &str, page: u32, max_side: u32) -> (DocumentResult, RenderedPage) {
    let bytes = std::fs::read(docs().join(name)).unwrap();
    let result = recognize(&bytes);
    let rendered = engine()
        .render_page(&bytes, &result, page, max_side)
        .unwrap();
    // The library function with the same configuration gives the same image.
    let again =
        folio::render::render_page(engine().config(), &bytes, &result, page, max_side).unwrap();
    assert_eq!(again, rendered, "{name}");
    (result, rendered)
}

fn field<'a>(boxes: &'a [FieldBox], name: &str) -> &'a FieldBox {
    boxes
        .iter()
        .find(|b| b.field == name)
        .unwrap_or_else(|| panic!("no box for {name} in {boxes:?}"))
}

/// Share of dark pixels of `image` inside `rect`.
fn ink(image: &RgbImage, rect: [f64; 4]) -> f64 {
    let (mut dark, mut all) = (0u32, 0u32);
    for y in rect[1].floor() as u32..rect[3].ceil() as u32 {
        for x in rect[0].floor() as u32..rect[2].ceil() as u32 {
            all += 1;
            if image.get_pixel(x, y).0[0] < 128 {
                dark += 1;
            }
        }
    }
    f64::from(dark) / f64::from(all.max(1))
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// What the engine's OCR reads in `rect` of `image` (enlarged a little, on a white margin).
fn read_back(image: &RgbImage, rect: [f64; 4]) -> String {
    let pad = 4.0;
    let x0 = (rect[0] - pad).max(0.0) as u32;
    let y0 = (rect[1] - pad).max(0.0) as u32;
    let x1 = ((rect[2] + pad).ceil() as u32).min(image.width());
    let y1 = ((rect[3] + pad).ceil() as u32).min(image.height());
    let gray = image::DynamicImage::ImageRgb8(image.clone()).to_luma8();
    let crop = image::imageops::crop_imm(&gray, x0, y0, x1 - x0, y1 - y0).to_image();
    // Text about 50 px high reads well.
    let factor = (50.0 / crop.height() as f32).clamp(1.0, 4.0);
    let (w, h) = (
        (crop.width() as f32 * factor) as u32,
        (crop.height() as f32 * factor) as u32,
    );
    let crop = image::imageops::resize(&crop, w, h, image::imageops::FilterType::CatmullRom);
    let margin = 60;
    let mut page = GrayImage::from_pixel(w + 2 * margin, h + 2 * margin, Luma([255]));
    image::imageops::overlay(&mut page, &crop, i64::from(margin), i64::from(margin));
    let mut png = Vec::new();
    image::DynamicImage::ImageLuma8(page)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let pages = engine()
        .extract_text_pages(
            &png,
            &RecognizeOptions::default(),
            &|_| {},
            &CancelToken::new(),
        )
        .unwrap();
    let words: Vec<String> = pages
        .iter()
        .flat_map(|p| p.words.iter().map(|w| w.text.clone()))
        .collect();
    words.join(" ")
}

/// The number's and total's boxes lie on ink that reads back as their digits.
fn assert_on_their_text(name: &str, result: &DocumentResult, page: &RenderedPage) {
    let boxes = field_boxes(result, page);
    for f in ["/document/number", "/totals/total"] {
        let b = field(&boxes, f);
        let expected = &result.evidence[f].text;
        assert_eq!(&b.text, expected);
        let share = ink(&page.image, b.rect);
        assert!(share > 0.05, "{name} {f}: {share:.3} ink in {b:?}");
        let read = read_back(&page.image, b.rect);
        assert!(
            digits(&read).contains(&digits(expected)),
            "{name} {f}: read {read:?} in {:?}, expected {expected:?}",
            b.rect
        );
    }
}

#[test]
fn a_text_pdf_page_is_rendered_to_max_side_with_its_boxes_on_the_text() {
    let (result, page) = rendered("invoice_de_text.pdf", 1, 1600);
    let geometry = &result.pages[0];
    assert_eq!(geometry.unit, folio::result::Unit::Pt);
    let (w, h) = page.image.dimensions();
    assert!(h <= 1600 && h > 1550, "{w}x{h}");
    assert!((page.scale_x - page.scale_y).abs() < 0.01, "{page:?}");
    assert!((page.scale_y - f64::from(h) / geometry.height).abs() < 1e-9);
    assert_on_their_text("invoice_de_text.pdf", &result, &page);
    // A smaller rendering: the same boxes, scaled.
    let (_, small) = rendered("invoice_de_text.pdf", 1, 800);
    assert!(small.image.height() <= 800);
    let big = field(&field_boxes(&result, &page), "/totals/total").rect;
    let little = field(&field_boxes(&result, &small), "/totals/total").rect;
    let ratio = small.scale_y / page.scale_y;
    for (a, b) in big.iter().zip(little) {
        assert!((a * ratio - b).abs() < 1.0, "{big:?} vs {little:?}");
    }
}

#[test]
fn a_scanned_pdf_page_is_the_image_the_ocr_read() {
    let (result, page) = rendered("invoice_en_scanpdf.pdf", 1, 1600);
    assert_eq!(result.pages[0].unit, folio::result::Unit::Px);
    assert_eq!(page.image.height(), 1600);
    assert_on_their_text("invoice_en_scanpdf.pdf", &result, &page);
}

#[test]
fn a_turned_photo_is_drawn_upright_with_its_boxes_on_the_right_text() {
    let (result, page) = rendered("receipt_en_photo_turned.jpg", 1, 1600);
    let g = &result.pages[0];
    // Photographed with its top to the left: turned a quarter clockwise to read.
    assert_eq!(g.rotation, 90, "{g:?}");
    // Read smaller than 1600: drawn at the size it was read, portrait like the receipt.
    assert_eq!(
        page.image.dimensions(),
        (g.width as u32, g.height as u32),
        "{g:?}"
    );
    assert_eq!((page.scale_x, page.scale_y), (1.0, 1.0));
    assert!(page.image.height() > page.image.width());
    assert_on_their_text("receipt_en_photo_turned.jpg", &result, &page);
}

#[test]
fn a_tiff_frame_is_rendered_with_the_boxes_of_its_page() {
    let (result, page) = rendered("waybill_pl_scan.tiff", 2, 1200);
    assert_eq!(page.page, 2);
    let boxes = field_boxes(&result, &page);
    assert!(boxes.iter().all(|b| b.page == 2));
    assert!(boxes.iter().all(|b| result.evidence[&b.field].page == 2));
    let total = field(&boxes, "/totals/total");
    assert!(ink(&page.image, total.rect) > 0.05, "{total:?}");
    let read = read_back(&page.image, total.rect);
    assert!(
        digits(&read).contains(&digits(&total.text)),
        "read {read:?} for {total:?}"
    );
    // The number is on page 1, not drawn on page 2.
    assert!(boxes.iter().all(|b| b.field != "/document/number"));
}

#[test]
fn drawn_and_encoded_pages_are_pngs_with_coloured_frames() {
    let (result, mut page) = rendered("invoice_en_text.pdf", 1, 1000);
    let boxes = field_boxes(&result, &page);
    assert!(boxes.len() >= 5, "{boxes:?}");
    draw_boxes(&mut page.image, &boxes);
    let total = field(&boxes, "/totals/total");
    let (x, y) = (
        total.rect[0].floor() as u32 - 1,
        total.rect[1].ceil() as u32 + 1,
    );
    assert_eq!(
        *page.image.get_pixel(x, y),
        folio::render::FieldGroup::Amount.color()
    );
    let png = encode_png(&page.image).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    let back = image::load_from_memory(&png).unwrap().to_rgb8();
    assert_eq!(back, page.image);
}

#[test]
fn office_files_xml_e_invoices_and_bad_pages_are_errors() {
    for (name, code) in [
        ("invoice_en_docx.docx", ErrorCode::UnsupportedFileType),
        ("invoice_de_xlsx.xlsx", ErrorCode::UnsupportedFileType),
        ("einvoice_cii.xml", ErrorCode::UnsupportedFileType),
    ] {
        let bytes = std::fs::read(docs().join(name)).unwrap();
        let result = recognize(&bytes);
        let e = engine().render_page(&bytes, &result, 1, 1600).unwrap_err();
        assert_eq!(e.code(), code, "{name}: {e}");
    }
    let bytes = std::fs::read(docs().join("invoice_de_text.pdf")).unwrap();
    let result = recognize(&bytes);
    for page in [0, 2, 99] {
        let e = engine()
            .render_page(&bytes, &result, page, 1600)
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidArgument, "page {page}: {e}");
    }
    // The Result of another file.
    let other = std::fs::read(docs().join("receipt_en_scan.jpg")).unwrap();
    let e = engine().render_page(&other, &result, 1, 1600).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidArgument, "{e}");
}
