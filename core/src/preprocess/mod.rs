//! Preprocessing: file type from magic bytes, size and page limits, page selection, decoding of
//! images (multi-page TIFF too) and office files, orientation, deskew and binarisation for OCR.
//!
//! Order of the checks (cheap first, nothing heavy before the limits are known): size limit, type
//! by content, page count, page selection, selected-page limit, then decoding / parsing.

pub(crate) mod budget;
mod ocrprep;
mod office;
mod pdfscan;
pub mod photo;
mod raster;
pub mod words;

pub use ocrprep::{binarize, deskew_angle, prepare_for_ocr};
pub use pdfscan::EmbeddedFiles;
pub(crate) use raster::tiff_frame_count;

use crate::config::{Limits, RecognizeOptions};
use crate::error::{Error, Result};
use crate::types::TextPage;
use budget::{Budget, Resource};
use image::GrayImage;
use serde::{Deserialize, Serialize};
use std::io::Cursor;

/// Supported file types, decided by content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FileType {
    /// PDF.
    Pdf,
    /// JPEG.
    Jpeg,
    /// PNG.
    Png,
    /// TIFF (possibly multi-page).
    Tiff,
    /// Word 97-2003.
    Doc,
    /// Word 2007+.
    Docx,
    /// Excel 97-2003.
    Xls,
    /// Excel 2007+.
    Xlsx,
    /// Rich Text Format.
    Rtf,
    /// Pre-recognised words: Folio words JSON (see [`words`]). A library input, not a document.
    Words,
    /// Pre-recognised words: hOCR. A library input, not a document.
    Hocr,
    /// An XML e-invoice, recognised by its root element and namespace: UN/CEFACT CII
    /// (ZUGFeRD, Factur-X, XRechnung CII) or UBL 2.1 `Invoice` / `CreditNote` (XRechnung UBL,
    /// Peppol BIS Billing 3.0). A document without pages: its values are the XML's.
    EInvoice,
}

impl FileType {
    /// A document file (PDF, image, office), as opposed to pre-recognised words.
    pub fn is_document(self) -> bool {
        !matches!(self, FileType::Words | FileType::Hocr)
    }
}

const SUPPORTED: &str = "supported: PDF, JPEG, PNG, TIFF, DOC, DOCX, XLS, XLSX, RTF, and XML \
                         e-invoices (CII, UBL)";
const PNG_MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n";
const OLE_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
/// How far into the file a `%PDF-` header may start (readers tolerate leading junk).
const PDF_HEADER_WINDOW: usize = 1024;

/// Whether `bytes` starts with `magic`; `Err(CorruptFile)` when the file is a strict prefix of it
/// of at least `min` bytes (a truncated header).
fn starts_with(bytes: &[u8], magic: &[u8], min: usize, what: &str) -> Result<bool> {
    if bytes.starts_with(magic) {
        return Ok(true);
    }
    if bytes.len() < magic.len() && bytes.len() >= min && magic.starts_with(bytes) {
        return Err(Error::CorruptFile(format!("truncated {what} header")));
    }
    Ok(false)
}

/// Detects the file type from the content.
pub fn detect_type(bytes: &[u8]) -> Result<FileType> {
    if bytes.is_empty() {
        return Err(Error::EmptyFile);
    }
    let window = &bytes[..bytes.len().min(PDF_HEADER_WINDOW + 5)];
    if let Some(pos) = window.windows(5).position(|w| w == b"%PDF-") {
        if bytes.len() < pos + 8 {
            return Err(Error::CorruptFile("truncated PDF header".into()));
        }
        return Ok(FileType::Pdf);
    }
    if starts_with(bytes, b"%PDF-", 4, "PDF")? {
        return Err(Error::CorruptFile("truncated PDF header".into()));
    }
    if starts_with(bytes, b"\xFF\xD8\xFF", 2, "JPEG")? {
        if bytes.len() < 4 {
            return Err(Error::CorruptFile("truncated JPEG header".into()));
        }
        return Ok(FileType::Jpeg);
    }
    if starts_with(bytes, PNG_MAGIC, 4, "PNG")? {
        // Signature + IHDR chunk (length, type, 13 bytes of data, CRC).
        if bytes.len() < 33 || &bytes[12..16] != b"IHDR" {
            return Err(Error::CorruptFile("truncated or damaged PNG header".into()));
        }
        return Ok(FileType::Png);
    }
    for magic in [b"II*\0", b"MM\0*", b"II+\0", b"MM\0+"] {
        if starts_with(bytes, magic, 3, "TIFF")? {
            if bytes.len() < 8 {
                return Err(Error::CorruptFile("truncated TIFF header".into()));
            }
            return Ok(FileType::Tiff);
        }
    }
    if starts_with(bytes, ZIP_MAGIC, 3, "ZIP")? {
        return detect_zip(bytes);
    }
    if starts_with(bytes, OLE_MAGIC, 4, "OLE2")? {
        return detect_ole(bytes);
    }
    let rtf_body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if starts_with(rtf_body, b"{\\rtf", 5, "RTF")? {
        return Ok(FileType::Rtf);
    }
    if crate::einvoice::sniff(bytes).is_some() {
        return Ok(FileType::EInvoice);
    }
    if words::looks_like_words_json(bytes) {
        return Ok(FileType::Words);
    }
    if words::looks_like_hocr(bytes) {
        return Ok(FileType::Hocr);
    }
    Err(Error::UnsupportedFileType(format!(
        "{} ({SUPPORTED})",
        describe_unsupported(bytes)
    )))
}

/// What an XML file that is not an e-invoice is told.
const XML_NOT_EINVOICE: &str = "XML document that is not an e-invoice (the XML supported is a \
                                CII CrossIndustryInvoice or CrossIndustryDocument, or a UBL \
                                Invoice or CreditNote)";

/// A human name for common content we do not support.
fn describe_unsupported(bytes: &[u8]) -> &'static str {
    let known: [(&[u8], &str); 9] = [
        (b"GIF8", "GIF image"),
        (b"BM", "BMP image"),
        (b"RIFF", "RIFF container (WEBP/AVI/WAV)"),
        (b"PK\x05\x06", "empty ZIP archive"),
        (b"\x1F\x8B", "gzip archive"),
        (b"Rar!", "RAR archive"),
        (b"7z\xBC\xAF", "7z archive"),
        (b"<?xml", XML_NOT_EINVOICE),
        (b"\x00\x00\x00", "ISO media (HEIC/MP4) or unknown binary"),
    ];
    for (magic, name) in known {
        if bytes.starts_with(magic) {
            return name;
        }
    }
    let head = &bytes[..bytes.len().min(4096)];
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    if lower.contains("<html") || lower.contains("<!doctype html") {
        return "HTML document";
    }
    if lower
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('<')
    {
        return XML_NOT_EINVOICE;
    }
    if std::str::from_utf8(head).is_ok() || !head.iter().any(|&b| b < 0x09) {
        return "plain text";
    }
    "unrecognised content"
}

fn detect_zip(bytes: &[u8]) -> Result<FileType> {
    let zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Error::CorruptFile(format!("damaged ZIP container: {e}")))?;
    let has = |name: &str| zip.index_for_name(name).is_some();
    if has("word/document.xml") {
        Ok(FileType::Docx)
    } else if has("xl/workbook.xml") {
        Ok(FileType::Xlsx)
    } else {
        Err(Error::UnsupportedFileType(format!(
            "ZIP archive that is not a DOCX or XLSX document ({SUPPORTED})"
        )))
    }
}

fn detect_ole(bytes: &[u8]) -> Result<FileType> {
    let cfb = cfb::CompoundFile::open(Cursor::new(bytes))
        .map_err(|e| Error::CorruptFile(format!("damaged OLE2 compound file: {e}")))?;
    if cfb.is_stream("/EncryptionInfo") || cfb.is_stream("/EncryptedPackage") {
        return Err(Error::EncryptedFile(
            "password-protected Office document".into(),
        ));
    }
    if cfb.is_stream("/WordDocument") {
        Ok(FileType::Doc)
    } else if cfb.is_stream("/Workbook") || cfb.is_stream("/Book") {
        Ok(FileType::Xls)
    } else {
        Err(Error::UnsupportedFileType(format!(
            "OLE2 compound file that is not a Word or Excel document ({SUPPORTED})"
        )))
    }
}

/// Parses `"1,3-5"` into sorted, de-duplicated 1-based page numbers, each `<= page_count`.
pub fn parse_page_selection(spec: &str, page_count: u32) -> Result<Vec<u32>> {
    let bad = |m: String| Error::InvalidArgument(format!("page selection {spec:?}: {m}"));
    if spec.trim().is_empty() {
        return Err(bad("is empty".into()));
    }
    let num = |s: &str| -> Result<u32> {
        let s = s.trim();
        if s.is_empty() {
            return Err(bad("a range is missing a page number".into()));
        }
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(format!("{s:?} is not a page number")));
        }
        let n: u32 = s.parse().map_err(|_| bad(format!("{s:?} is too large")))?;
        if n == 0 {
            return Err(bad("pages are numbered from 1".into()));
        }
        if n > page_count {
            return Err(bad(format!(
                "page {n} is past the end (the document has {page_count} page{})",
                if page_count == 1 { "" } else { "s" }
            )));
        }
        Ok(n)
    };
    let mut pages = Vec::new();
    for part in spec.split(',') {
        if part.trim().is_empty() {
            return Err(bad("empty item between commas".into()));
        }
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(bad(format!("range {a}-{b} is reversed")));
                }
                pages.extend(a..=b);
            }
            None => pages.push(num(part)?),
        }
    }
    pages.sort_unstable();
    pages.dedup();
    Ok(pages)
}

/// Reads a document file: a regular file only (a FIFO, a device such as `/dev/zero`, a socket
/// are refused with `IO_ERROR` at once, never waited on or read), and at most `limit` bytes of
/// it (`FILE_TOO_LARGE` beyond, also for a file that grows while it is read). Opened without
/// blocking and checked on the open handle, so a path swapped for a FIFO after the first look
/// is refused too.
pub fn read_input_file(path: &std::path::Path, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let ctx = || format!("cannot read {}", path.display());
    let meta = std::fs::metadata(path).map_err(|e| Error::io(ctx(), e))?;
    if meta.is_dir() {
        return Err(Error::InvalidArgument(format!(
            "{} is a directory",
            path.display()
        )));
    }
    let not_regular = |ft: std::fs::FileType| {
        Error::io(
            ctx(),
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("not a regular file ({})", describe_file_type(ft)),
            ),
        )
    };
    if !meta.is_file() {
        return Err(not_regular(meta.file_type()));
    }
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(libc::O_NONBLOCK);
    }
    let file = open.open(path).map_err(|e| Error::io(ctx(), e))?;
    let meta = file.metadata().map_err(|e| Error::io(ctx(), e))?;
    if !meta.is_file() {
        return Err(not_regular(meta.file_type()));
    }
    if meta.len() > limit {
        return Err(Error::FileTooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(ctx(), e))?;
    let read = bytes.len() as u64;
    if read > limit {
        return Err(Error::FileTooLarge { size: read, limit });
    }
    Ok(bytes)
}

/// What kind of special file this is, for the error message.
fn describe_file_type(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_char_device() || ft.is_block_device() {
            return "a device";
        }
    }
    if ft.is_symlink() {
        return "a symbolic link";
    }
    "a special file"
}

/// Content ready for text extraction / OCR.
#[derive(Debug, Clone)]
pub enum PreparedContent {
    /// A PDF: the selected pages go to text extraction, unusable ones to OCR; with what the
    /// pre-scan found of its embedded files (whether its attachments may be read).
    Pdf(EmbeddedFiles),
    /// Page images ready for OCR (already oriented, deskewed, grayscale).
    Images(Vec<PageImage>),
    /// A TIFF whose selected frames ([`Prepared::pages`]) are decoded one at a time, when the OCR
    /// takes them ([`tiff_page`]): a 60-frame scan never sits in memory whole.
    TiffFrames,
    /// Office documents: text with a synthetic layout.
    Office(Vec<TextPage>),
    /// Pre-recognised words (JSON or hOCR), in image pixels.
    Words(Vec<TextPage>),
    /// A standalone XML e-invoice, parsed: no pages.
    EInvoice(Box<crate::einvoice::EInvoice>),
}

/// One page image.
#[derive(Debug, Clone)]
pub struct PageImage {
    /// 1-based page number.
    pub page: u32,
    /// Grayscale pixels.
    pub image: GrayImage,
}

/// The preprocessed document.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// Type by content.
    pub file_type: FileType,
    /// Pages in the document.
    pub page_count: u32,
    /// Selected 1-based pages, in order.
    pub pages: Vec<u32>,
    /// The content.
    pub content: PreparedContent,
}

/// One frame (1-based `page`) of a TIFF decoded within `limits` and made ready for OCR.
pub fn tiff_page(bytes: &[u8], page: u32, limits: &Limits) -> Result<PageImage> {
    let index = page
        .checked_sub(1)
        .ok_or_else(|| Error::InvalidArgument("pages are numbered from 1".into()))?;
    let img = raster::decode_tiff_frame(bytes, index, limits)?;
    Ok(PageImage {
        page,
        image: prepare_for_ocr(img),
    })
}

/// A JPEG or PNG decoded within `limits` and made ready for OCR: the image the OCR reads.
pub(crate) fn image_for_ocr(
    bytes: &[u8],
    file_type: FileType,
    limits: &Limits,
) -> Result<GrayImage> {
    raster::decode_single(bytes, file_type, limits).map(prepare_for_ocr)
}

/// Selects pages and enforces the page limit on the selection.
fn select_pages(opts: &RecognizeOptions, page_count: u32, limits: &Limits) -> Result<Vec<u32>> {
    if page_count == 0 {
        return Err(Error::CorruptFile("document has no pages".into()));
    }
    let pages = match &opts.pages {
        Some(spec) => parse_page_selection(spec, page_count)?,
        None => (1..=page_count).collect(),
    };
    let n = u32::try_from(pages.len()).unwrap_or(u32::MAX);
    if n > limits.max_pages {
        return Err(Error::TooManyPages {
            pages: n,
            limit: limits.max_pages,
        });
    }
    Ok(pages)
}

/// Preprocesses a file's bytes. `pdf_page_count` counts PDF pages (pdfium lives in [`crate::pdf`]).
pub fn preprocess(
    bytes: &[u8],
    opts: &RecognizeOptions,
    limits: &Limits,
    pdf_page_count: &dyn Fn(&[u8]) -> Result<u32>,
) -> Result<Prepared> {
    let size = bytes.len() as u64;
    if size > limits.max_bytes() {
        return Err(Error::FileTooLarge {
            size,
            limit: limits.max_bytes(),
        });
    }
    let file_type = detect_type(bytes)?;
    let mut budget = Budget::new(limits);
    if opts.only_document_files && !file_type.is_document() {
        return Err(Error::UnsupportedFileType(format!(
            "pre-recognised words (JSON or hOCR) are not accepted here ({SUPPORTED})"
        )));
    }
    let (page_count, pages, content) = match file_type {
        FileType::Pdf => {
            let embedded = pdfscan::check_streams(bytes, &mut budget)?;
            let count = pdf_page_count(bytes)?;
            let pages = select_pages(opts, count, limits)?;
            (count, pages, PreparedContent::Pdf(embedded))
        }
        FileType::Jpeg | FileType::Png => {
            let pages = select_pages(opts, 1, limits)?;
            let images = vec![PageImage {
                page: 1,
                image: image_for_ocr(bytes, file_type, limits)?,
            }];
            (1, pages, PreparedContent::Images(images))
        }
        FileType::Tiff => {
            let count = raster::tiff_frame_count(bytes)?;
            let pages = select_pages(opts, count, limits)?;
            (count, pages, PreparedContent::TiffFrames)
        }
        FileType::Doc | FileType::Docx | FileType::Xls | FileType::Xlsx | FileType::Rtf => {
            let doc = office::parse(bytes, file_type, &mut budget)?;
            let count = doc.page_count();
            let pages = select_pages(opts, count, limits)?;
            let text = office::layout(&doc, &pages);
            let words: usize = text.iter().map(|p| p.words.len()).sum();
            budget.charge(
                Resource::Words,
                words as u64,
                &format!("laying out {file_type:?} text"),
            )?;
            (count, pages, PreparedContent::Office(text))
        }
        FileType::EInvoice => {
            // No pages: a page selection has nothing to select and is not applied.
            let invoice = crate::einvoice::parse(bytes)?;
            (0, Vec::new(), PreparedContent::EInvoice(Box::new(invoice)))
        }
        FileType::Words | FileType::Hocr => {
            let all = if file_type == FileType::Words {
                words::parse_words_json(bytes, &mut budget)?
            } else {
                words::parse_hocr(bytes, &mut budget)?
            };
            let count = u32::try_from(all.len()).unwrap_or(u32::MAX);
            let pages = select_pages(opts, count, limits)?;
            let chosen = all
                .into_iter()
                .filter(|p| pages.binary_search(&p.page).is_ok())
                .collect();
            (count, pages, PreparedContent::Words(chosen))
        }
    };
    Ok(Prepared {
        file_type,
        page_count,
        pages,
        content,
    })
}

/// `text` with its runs of white space collapsed to one space and none at either end (a word or
/// cell of two million spaces is nothing, not two million characters for every later stage).
pub(crate) fn collapse_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(256));
    for part in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Tiny in-memory documents for the tests of this module tree.
    use std::io::Write;

    /// A ZIP with the given `(name, content)` entries, deflated.
    pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, data) in entries {
            w.start_file(*name, opts).unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    /// Asserts that `run(8)` (the work on 8x the input) costs less than 24x the time of `run(1)`
    /// per call: linear work passes with a wide margin, quadratic work (64x) fails. This is a
    /// bound on how the work grows, not a speed goal, and no other load on the machine may
    /// decide it: time is the calling thread's own CPU time (a test's thread waiting for a core
    /// counts nothing), both sizes are timed over `r` calls, `r` doubled until the `r` small
    /// runs take at least 5 ms together, and each time is the best of 5 rounds that time the two
    /// sizes in turn (a cache shared with other work slows one round of both).
    pub fn assert_near_linear(what: &str, run: &dyn Fn(usize)) {
        use cpu_time::ThreadTime;
        use std::time::Duration;
        let timed = |k: usize, reps: u32| {
            let t = ThreadTime::now();
            for _ in 0..reps {
                run(k);
            }
            t.elapsed()
        };
        let mut reps = 1u32;
        while reps < 1 << 16 && timed(1, reps) < Duration::from_millis(5) {
            reps *= 2;
        }
        let (mut b1, mut b8) = (Duration::MAX, Duration::MAX);
        for _ in 0..5 {
            b1 = b1.min(timed(1, reps));
            b8 = b8.min(timed(8, reps));
        }
        let (t1, t8) = (b1 / reps, b8 / reps);
        let ratio = t8.as_secs_f64() / t1.as_secs_f64().max(1e-9);
        assert!(
            ratio < 24.0,
            "{what}: 8x the input took {ratio:.1}x the CPU time per call ({t1:?} -> {t8:?}, \
             {reps} calls each)"
        );
    }

    /// A PNG of the given size with a few dark text-like bars.
    pub fn png(w: u32, h: u32) -> Vec<u8> {
        let mut img = image::GrayImage::from_pixel(w, h, image::Luma([255]));
        for y in (h / 4)..(h / 4 + 3).min(h) {
            for x in (w / 8)..(w * 7 / 8) {
                img.put_pixel(x, y, image::Luma([0]));
            }
        }
        let mut out = Vec::new();
        image::DynamicImage::ImageLuma8(img)
            .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use crate::error::ErrorCode;

    fn code(r: Result<impl std::fmt::Debug>) -> ErrorCode {
        r.unwrap_err().code()
    }

    #[test]
    fn near_linear_check_catches_quadratic_work_that_is_quick() {
        // 1x takes microseconds: the check must still see 8x the input take 64x the time.
        let quadratic = |k: usize| {
            let n = 100 * k;
            let mut acc = 0usize;
            for i in 0..n {
                for j in 0..n {
                    acc = acc.wrapping_add(std::hint::black_box(i ^ j));
                }
            }
            std::hint::black_box(acc);
        };
        let caught = std::panic::catch_unwind(|| assert_near_linear("quadratic", &quadratic));
        assert!(caught.is_err(), "quadratic work passed as linear");
    }

    #[test]
    fn near_linear_check_counts_no_time_spent_waiting() {
        // The large input waits 2 ms per call, as a test's thread waits for a core that other
        // work holds: on the wall clock that is many times the 8x that its work costs, on the
        // thread's CPU time it is nothing.
        let linear = |k: usize| {
            let mut acc = 0usize;
            for i in 0..20_000 * k {
                acc = acc.wrapping_add(std::hint::black_box(i));
            }
            std::hint::black_box(acc);
            if k == 8 {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        };
        let wall = |k: usize| {
            let t = std::time::Instant::now();
            for _ in 0..20 {
                linear(k);
            }
            t.elapsed().as_secs_f64()
        };
        let (w1, w8) = (wall(1), wall(8));
        assert!(
            w8 > 24.0 * w1,
            "the waiting must decide a wall clock's ratio: {w1} -> {w8}"
        );
        assert_near_linear("linear work that waits", &linear);
    }

    #[test]
    fn detects_types_by_magic() {
        assert_eq!(detect_type(b"%PDF-1.7\n%...").unwrap(), FileType::Pdf);
        let mut junk = vec![b'x'; 700];
        junk.extend_from_slice(b"%PDF-1.4\n1 0 obj");
        assert_eq!(detect_type(&junk).unwrap(), FileType::Pdf);
        let mut far = vec![b'x'; 2000];
        far.extend_from_slice(b"%PDF-1.4\n1 0 obj");
        assert_eq!(code(detect_type(&far)), ErrorCode::UnsupportedFileType);
        assert_eq!(
            detect_type(b"\xFF\xD8\xFF\xE0\0\x10JFIF").unwrap(),
            FileType::Jpeg
        );
        assert_eq!(detect_type(&png(4, 4)).unwrap(), FileType::Png);
        assert_eq!(detect_type(b"II*\0\x08\0\0\0").unwrap(), FileType::Tiff);
        assert_eq!(detect_type(b"MM\0*\0\0\0\x08").unwrap(), FileType::Tiff);
        assert_eq!(detect_type(b"{\\rtf1\\ansi hi}").unwrap(), FileType::Rtf);
        let docx = zip(&[("word/document.xml", b"<w:document/>")]);
        assert_eq!(detect_type(&docx).unwrap(), FileType::Docx);
        let xlsx = zip(&[("xl/workbook.xml", b"<workbook/>")]);
        assert_eq!(detect_type(&xlsx).unwrap(), FileType::Xlsx);
    }

    #[test]
    fn xml_e_invoices_are_told_by_content_other_xml_is_refused() {
        let cii = b"<?xml version=\"1.0\"?>\n<rsm:CrossIndustryInvoice \
            xmlns:rsm=\"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100\"/>";
        assert_eq!(detect_type(cii).unwrap(), FileType::EInvoice);
        let ubl = b"\xEF\xBB\xBF<CreditNote \
            xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2\"/>";
        assert_eq!(detect_type(ubl).unwrap(), FileType::EInvoice);
        assert!(FileType::EInvoice.is_document());
        for other in [
            &b"<?xml version=\"1.0\"?><catalog/>"[..],
            b"  <Invoice xmlns=\"urn:example:not-ubl\"/>",
        ] {
            let e = detect_type(other).unwrap_err();
            assert_eq!(e.code(), ErrorCode::UnsupportedFileType);
            assert!(e.to_string().contains("not an e-invoice"), "{e}");
            assert!(e.to_string().contains("CrossIndustryInvoice"), "{e}");
        }
        // An HTML page is still told as one.
        let e = detect_type(b"<!DOCTYPE html><html><body>x</body></html>").unwrap_err();
        assert!(e.to_string().contains("HTML"), "{e}");
        // A standalone e-invoice is parsed by preprocessing and has no page.
        let p = preprocess(
            cii,
            &RecognizeOptions::default(),
            &Limits::default(),
            &no_pdf,
        );
        match p {
            Ok(p) => {
                assert_eq!((p.page_count, p.pages.len()), (0, 0));
                assert!(matches!(p.content, PreparedContent::EInvoice(_)));
            }
            // An empty invoice may be refused by the parser, never as another file type.
            Err(e) => assert_ne!(e.code(), ErrorCode::UnsupportedFileType, "{e}"),
        }
        let broken = b"<rsm:CrossIndustryInvoice \
            xmlns:rsm=\"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100\"><a>";
        assert_eq!(
            code(preprocess(
                broken,
                &RecognizeOptions::default(),
                &Limits::default(),
                &no_pdf
            )),
            ErrorCode::CorruptFile
        );
    }

    #[test]
    fn rejects_unknown_empty_and_truncated() {
        assert_eq!(code(detect_type(b"")), ErrorCode::EmptyFile);
        let e = detect_type(b"Invoice 42\nTotal 10.00\n").unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnsupportedFileType);
        assert!(e.to_string().contains("plain text"), "{e}");
        let e = detect_type(b"GIF89a\x01\0\x01\0").unwrap_err();
        assert!(e.to_string().contains("GIF"), "{e}");
        let other_zip = zip(&[("readme.txt", b"hello")]);
        let e = detect_type(&other_zip).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnsupportedFileType);
        assert!(e.to_string().contains("ZIP"), "{e}");
        // Truncated headers.
        assert_eq!(code(detect_type(b"\x89PNG")), ErrorCode::CorruptFile);
        assert_eq!(code(detect_type(&png(4, 4)[..20])), ErrorCode::CorruptFile);
        assert_eq!(code(detect_type(b"%PDF-")), ErrorCode::CorruptFile);
        assert_eq!(code(detect_type(b"II*")), ErrorCode::CorruptFile);
        assert_eq!(
            code(detect_type(b"\xD0\xCF\x11\xE0\xA1")),
            ErrorCode::CorruptFile
        );
        // Valid magic, damaged body.
        assert_eq!(
            code(detect_type(b"PK\x03\x04garbage garbage garbage")),
            ErrorCode::CorruptFile
        );
        let mut ole = OLE_MAGIC.to_vec();
        ole.extend_from_slice(&[0u8; 600]);
        assert_eq!(code(detect_type(&ole)), ErrorCode::CorruptFile);
    }

    #[test]
    fn detects_ole_kinds_and_encryption() {
        fn ole(streams: &[&str]) -> Vec<u8> {
            let mut c = cfb::CompoundFile::create(std::io::Cursor::new(Vec::new())).unwrap();
            for s in streams {
                use std::io::Write;
                c.create_stream(s)
                    .unwrap()
                    .write_all(b"0123456789")
                    .unwrap();
            }
            c.flush().unwrap();
            c.into_inner().into_inner()
        }
        assert_eq!(
            detect_type(&ole(&["/WordDocument"])).unwrap(),
            FileType::Doc
        );
        assert_eq!(detect_type(&ole(&["/Workbook"])).unwrap(), FileType::Xls);
        assert_eq!(detect_type(&ole(&["/Book"])).unwrap(), FileType::Xls);
        let enc = ole(&["/EncryptionInfo", "/EncryptedPackage"]);
        assert_eq!(code(detect_type(&enc)), ErrorCode::EncryptedFile);
        assert_eq!(
            code(detect_type(&ole(&["/PowerPoint Document"]))),
            ErrorCode::UnsupportedFileType
        );
    }

    #[test]
    fn page_selection() {
        assert_eq!(parse_page_selection("1,3-5", 9).unwrap(), vec![1, 3, 4, 5]);
        assert_eq!(
            parse_page_selection(" 5 , 2 - 3,2 ,5", 5).unwrap(),
            vec![2, 3, 5]
        );
        assert_eq!(parse_page_selection("4-4", 4).unwrap(), vec![4]);
        assert_eq!(
            parse_page_selection("1-3,2-4", 4).unwrap(),
            vec![1, 2, 3, 4]
        );
        for (spec, needle) in [
            ("0", "from 1"),
            ("5-3", "reversed"),
            ("7", "past the end"),
            ("2-9", "past the end"),
            ("1,,2", "empty"),
            ("", "empty"),
            ("  ", "empty"),
            ("1,", "empty"),
            ("a", "not a page"),
            ("1-", "missing"),
            ("-2", "missing"),
            ("1-2-3", "not a page"),
            ("+1", "not a page"),
            ("99999999999", "too large"),
        ] {
            let e = parse_page_selection(spec, 6).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidArgument, "{spec}");
            assert!(e.to_string().contains(needle), "{spec}: {e}");
        }
    }

    fn no_pdf(_: &[u8]) -> Result<u32> {
        Err(Error::Internal("pdf counter must not be called".into()))
    }

    #[test]
    fn limits_order_size_first_then_selected_pages() {
        let limits = Limits {
            max_file_size_mb: 1,
            max_pages: 2,
            ..Limits::default()
        };
        let opts = RecognizeOptions::default();
        // Size is checked before anything else, even for garbage.
        let big = vec![b'x'; 1024 * 1024 + 1];
        assert_eq!(
            code(preprocess(&big, &opts, &limits, &no_pdf)),
            ErrorCode::FileTooLarge
        );
        // Empty file.
        assert_eq!(
            code(preprocess(b"", &opts, &limits, &no_pdf)),
            ErrorCode::EmptyFile
        );
        // PDF with 5 pages: all selected -> too many; 2 selected -> fine.
        let five = |_: &[u8]| Ok(5u32);
        let pdf = b"%PDF-1.7\n...";
        let e = preprocess(pdf, &opts, &limits, &five).unwrap_err();
        assert!(
            matches!(e, Error::TooManyPages { pages: 5, limit: 2 }),
            "{e}"
        );
        let sel = RecognizeOptions {
            pages: Some("2,4".into()),
            ..Default::default()
        };
        let p = preprocess(pdf, &sel, &limits, &five).unwrap();
        assert_eq!((p.page_count, p.pages.clone()), (5, vec![2, 4]));
        assert!(matches!(p.content, PreparedContent::Pdf(_)));
        let bad = RecognizeOptions {
            pages: Some("6".into()),
            ..Default::default()
        };
        assert_eq!(
            code(preprocess(pdf, &bad, &limits, &five)),
            ErrorCode::InvalidArgument
        );
        // The counter's errors pass through.
        assert_eq!(
            code(preprocess(pdf, &opts, &limits, &no_pdf)),
            ErrorCode::Internal
        );
    }

    /// Runs the repository's generated fixtures (when present) through preprocessing: every
    /// non-PDF document must preprocess, office text must contain the true invoice number and
    /// IBAN, and bad inputs that are not PDFs must fail with their expected code.
    #[test]
    fn repository_fixtures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/docs");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipping: {} not present", dir.display());
            return;
        };
        let mut checked = 0;
        for e in entries.flatten() {
            let path = e.path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if name.ends_with(".json") || name.ends_with(".pdf") && !name.starts_with("bad_") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let stem = name
                .rsplit_once('.')
                .map_or(name.as_str(), |(s, _)| s)
                .to_string();
            if name.starts_with("bad_") {
                let exp = std::fs::read_to_string(dir.join(format!("{stem}.expected-error.json")))
                    .unwrap();
                let exp: serde_json::Value = serde_json::from_str(&exp).unwrap();
                let r = preprocess(
                    &bytes,
                    &RecognizeOptions::default(),
                    &Limits::default(),
                    &no_pdf,
                );
                match r {
                    Err(Error::Internal(_)) => {} // a real PDF: pdfium's part
                    Err(e) => assert_eq!(e.code().as_str(), exp["code"], "{name}"),
                    Ok(_) => panic!("{name} must fail"),
                }
                checked += 1;
                continue;
            }
            let p = preprocess(
                &bytes,
                &RecognizeOptions::default(),
                &Limits::default(),
                &no_pdf,
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            if let PreparedContent::Office(pages) = &p.content {
                let text: String = pages
                    .iter()
                    .flat_map(|pg| pg.words.iter().map(|w| w.text.as_str()))
                    .collect();
                let truth = std::fs::read_to_string(dir.join(format!("{stem}.truth.json")))
                    .unwrap_or_default();
                let truth: serde_json::Value = serde_json::from_str(&truth).unwrap_or_default();
                for key in ["number", "iban"] {
                    if let Some(v) = truth[key].as_str() {
                        let v: String = v.split_whitespace().collect();
                        assert!(text.contains(&v), "{name}: {key} {v} not in {text}");
                    }
                }
            }
            checked += 1;
        }
        eprintln!("checked {checked} fixtures");
    }

    #[test]
    fn only_regular_files_are_read_and_never_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.pdf");
        std::fs::write(&f, b"0123456789").unwrap();
        assert_eq!(read_input_file(&f, 10).unwrap(), b"0123456789");
        let e = read_input_file(&f, 9).unwrap_err();
        assert!(
            matches!(e, Error::FileTooLarge { size: 10, limit: 9 }),
            "{e}"
        );
        assert_eq!(
            read_input_file(dir.path(), 10).unwrap_err().code(),
            ErrorCode::InvalidArgument
        );
        assert_eq!(
            read_input_file(&dir.path().join("missing"), 10)
                .unwrap_err()
                .code(),
            ErrorCode::Io
        );
        // Special files: refused at once, without reading (or waiting on) them.
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        let mut specials = vec![(std::path::PathBuf::from("/dev/zero"), "a device")];
        if made.is_ok_and(|s| s.success()) {
            specials.push((fifo, "a FIFO"));
        }
        for (p, kind) in specials {
            let t = std::time::Instant::now();
            let e = read_input_file(&p, 1 << 20).unwrap_err();
            assert_eq!(e.code(), ErrorCode::Io, "{e}");
            assert!(
                e.to_string()
                    .contains(&format!("not a regular file ({kind})")),
                "{e}"
            );
            assert!(t.elapsed() < std::time::Duration::from_secs(5));
        }
    }

    #[test]
    fn preprocess_png_gives_one_gray_page() {
        let p = preprocess(
            &png(64, 48),
            &RecognizeOptions::default(),
            &Limits::default(),
            &no_pdf,
        )
        .unwrap();
        assert_eq!(p.file_type, FileType::Png);
        assert_eq!((p.page_count, p.pages.clone()), (1, vec![1]));
        match p.content {
            PreparedContent::Images(imgs) => {
                assert_eq!(imgs.len(), 1);
                assert_eq!(imgs[0].page, 1);
                assert_eq!(imgs[0].image.dimensions(), (64, 48));
            }
            other => panic!("{other:?}"),
        }
    }
}
