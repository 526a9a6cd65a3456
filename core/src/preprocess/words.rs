//! Pre-recognised input: words somebody else already read (their OCR, a benchmark's boxes),
//! handed to the engine instead of pixels. Two formats, both in image pixels with the origin at
//! the top left:
//!
//! * Folio words JSON:
//!   `{"pages": [{"width": W, "height": H, "words": [{"text": "...", "bbox": [x0, y0, x1, y1],
//!   "confidence": 0.97}]}]}` (`confidence` optional, 0..1 or 0..100; a "word" may be a whole
//!   line with spaces, which cleaning splits);
//! * hOCR (tesseract's and others' XHTML): `ocr_page` elements with `bbox` in their `title`,
//!   `ocrx_word` elements (else `ocr_line`) with `bbox` and `x_wconf`.
//!
//! Both become [`TextPage`]s with `source: OCR`, and the pipeline runs from cleaning onwards.

use super::budget::{Budget, Resource};
use super::collapse_spaces;
use crate::error::{Error, Result};
use crate::types::{BBox, Source, TextPage, Unit, Word};
use quick_xml::Reader;
use quick_xml::events::Event;
use serde::Deserialize;

/// Confidence of a word that comes without one.
pub const DEFAULT_WORD_CONFIDENCE: f32 = 0.9;

/// Largest page side accepted, in pixels (a 2 m poster at 1200 DPI is under this).
const MAX_SIDE: f32 = 100_000.0;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WordsFile {
    pages: Vec<WordsPage>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WordsPage {
    width: f32,
    height: f32,
    #[serde(default)]
    words: Vec<WordsWord>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WordsWord {
    text: String,
    bbox: [f32; 4],
    #[serde(default)]
    confidence: Option<f32>,
}

/// The start of the content without a UTF-8 byte-order mark and leading white space.
fn head(bytes: &[u8]) -> &[u8] {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    &b[start..]
}

/// Whether the content looks like Folio words JSON: a JSON object with a `"pages"` key near
/// the start (decided without parsing the whole file).
pub fn looks_like_words_json(bytes: &[u8]) -> bool {
    let h = head(bytes);
    if !h.starts_with(b"{") {
        return false;
    }
    let window = &h[..h.len().min(256)];
    window.windows(7).any(|w| w == b"\"pages\"")
}

/// Whether the content looks like hOCR: markup that names an `ocr_page`.
pub fn looks_like_hocr(bytes: &[u8]) -> bool {
    let h = head(bytes);
    if !h.starts_with(b"<") {
        return false;
    }
    let window = &h[..h.len().min(64 * 1024)];
    window.windows(8).any(|w| w == b"ocr_page")
}

fn bad(msg: String) -> Error {
    Error::CorruptFile(msg)
}

fn check_size(page: usize, width: f32, height: f32) -> Result<()> {
    let ok = |v: f32| v.is_finite() && v > 0.0 && v <= MAX_SIDE;
    if ok(width) && ok(height) {
        Ok(())
    } else {
        Err(bad(format!(
            "page {page}: width and height must be positive pixel sizes up to {MAX_SIDE}, got \
             {width} x {height}"
        )))
    }
}

/// A word's confidence as 0..1 (`None` = unknown); percentages are accepted.
fn confidence(page: usize, index: usize, c: Option<f32>) -> Result<f32> {
    match c {
        None => Ok(DEFAULT_WORD_CONFIDENCE),
        Some(c) if c.is_finite() && (0.0..=1.0).contains(&c) => Ok(c),
        Some(c) if c.is_finite() && (0.0..=100.0).contains(&c) => Ok(c / 100.0),
        Some(c) => Err(bad(format!(
            "page {page}, word {index}: confidence {c} is not in 0..1 (or 0..100)"
        ))),
    }
}

/// A box inside the page (clamped), with x0 <= x1 and y0 <= y1.
fn bbox(page: usize, index: usize, b: [f32; 4], width: f32, height: f32) -> Result<BBox> {
    let [x0, y0, x1, y1] = b;
    if !b.iter().all(|v| v.is_finite()) || x1 < x0 || y1 < y0 {
        return Err(bad(format!(
            "page {page}, word {index}: bbox {b:?} is not [x0, y0, x1, y1] with x0 <= x1, y0 <= y1"
        )));
    }
    let cx = |v: f32| v.clamp(0.0, width);
    let cy = |v: f32| v.clamp(0.0, height);
    Ok(BBox::new(cx(x0), cy(y0), cx(x1), cy(y1)))
}

/// Charges the words of one word's text: each of its space-separated parts is a word
/// downstream.
fn charge_words(budget: &mut Budget, text: &str, during: &str) -> Result<()> {
    budget.charge(
        Resource::Words,
        text.split_whitespace().count() as u64,
        during,
    )
}

/// Parses Folio words JSON into pages (numbered from 1), charging `budget` for its words.
pub(crate) fn parse_words_json(bytes: &[u8], budget: &mut Budget) -> Result<Vec<TextPage>> {
    let file: WordsFile = serde_json::from_slice(head(bytes))
        .map_err(|e| bad(format!("words JSON does not match the expected shape: {e}")))?;
    let mut pages = Vec::with_capacity(file.pages.len());
    for (pi, p) in file.pages.into_iter().enumerate() {
        let n = pi + 1;
        check_size(n, p.width, p.height)?;
        let mut words = Vec::with_capacity(p.words.len());
        for (wi, w) in p.words.into_iter().enumerate() {
            let bbox = bbox(n, wi, w.bbox, p.width, p.height)?;
            let confidence = confidence(n, wi, w.confidence)?;
            let text = collapse_spaces(&w.text);
            if text.is_empty() {
                continue;
            }
            charge_words(budget, &text, "reading words JSON")?;
            budget.charge(
                Resource::TextChars,
                text.chars().count() as u64,
                "reading words JSON",
            )?;
            words.push(Word {
                text,
                bbox,
                confidence,
            });
        }
        pages.push(page(n, p.width, p.height, words));
    }
    Ok(pages)
}

fn page(n: usize, width: f32, height: f32, words: Vec<Word>) -> TextPage {
    TextPage {
        page: u32::try_from(n).unwrap_or(u32::MAX),
        width,
        height,
        unit: Unit::Px,
        source: Source::Ocr,
        engine: None,
        rotation: 0,
        words,
    }
}

/// `bbox x0 y0 x1 y1` and `x_wconf N` out of an hOCR `title`.
fn title_props(title: &str) -> (Option<[f32; 4]>, Option<f32>) {
    let (mut bbox, mut conf) = (None, None);
    for prop in title.split(';') {
        let mut it = prop.split_whitespace();
        match it.next() {
            Some("bbox") => {
                let v: Vec<f32> = it.filter_map(|s| s.parse().ok()).collect();
                if v.len() == 4 {
                    bbox = Some([v[0], v[1], v[2], v[3]]);
                }
            }
            Some("x_wconf") => conf = it.next().and_then(|s| s.parse().ok()),
            _ => {}
        }
    }
    (bbox, conf)
}

/// One open element of interest while reading hOCR.
#[derive(Debug)]
struct Open {
    depth: usize,
    class: Class,
    bbox: Option<[f32; 4]>,
    conf: Option<f32>,
    text: String,
    /// A line that had words of its own (its text is not used then).
    has_words: bool,
}

impl Open {
    /// Whether its text becomes a page word when it closes: a word does, a line only when it
    /// had no words of its own.
    fn becomes_word(&self) -> bool {
        match self.class {
            Class::Word => true,
            Class::Line => !self.has_words,
            Class::Page => false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Class {
    Page,
    Line,
    Word,
}

/// The hOCR class and title of an element (`None` when it is not one we read).
fn element(
    e: &quick_xml::events::BytesStart<'_>,
    reader: &Reader<&[u8]>,
) -> Option<(Class, Option<[f32; 4]>, Option<f32>)> {
    let mut class = None;
    let mut title = String::new();
    for a in e.attributes().flatten() {
        let v = a
            .decode_and_unescape_value(reader.decoder())
            .map(|v| v.into_owned())
            .unwrap_or_default();
        match a.key.as_ref() {
            b"class" => {
                let classes: Vec<&str> = v.split_whitespace().collect();
                class = if classes.contains(&"ocr_page") {
                    Some(Class::Page)
                } else if classes.contains(&"ocrx_word") {
                    Some(Class::Word)
                } else if classes.iter().any(|c| {
                    matches!(
                        *c,
                        "ocr_line" | "ocr_textfloat" | "ocr_header" | "ocr_caption"
                    )
                }) {
                    Some(Class::Line)
                } else {
                    None
                };
            }
            b"title" => title = v,
            _ => {}
        }
    }
    let (bbox, conf) = title_props(&title);
    class.map(|c| (c, bbox, conf))
}

/// hOCR reading state.
#[derive(Default)]
struct Hocr {
    pages: Vec<TextPage>,
    words: Vec<Word>,
    size: Option<(f32, f32)>,
    open: Vec<Open>,
    index: usize,
}

impl Hocr {
    fn flush_page(&mut self) {
        if let Some((w, h)) = self.size.take() {
            let n = self.pages.len() + 1;
            self.pages
                .push(page(n, w, h, std::mem::take(&mut self.words)));
        }
    }

    fn start_page(&mut self, bbox: Option<[f32; 4]>) -> Result<()> {
        self.flush_page();
        let n = self.pages.len() + 1;
        let (w, h) = bbox.map(|b| (b[2] - b[0], b[3] - b[1])).ok_or_else(|| {
            bad(format!(
                "hOCR page {n}: its ocr_page has no bbox in its title"
            ))
        })?;
        check_size(n, w, h)?;
        self.size = Some((w, h));
        Ok(())
    }

    /// Closes an element: a word (or a line without words) becomes a page word. Its characters
    /// were charged as they were read.
    fn close(&mut self, o: Open, budget: &mut Budget) -> Result<()> {
        let use_it = o.becomes_word();
        let Some((w, h)) = self.size else {
            return Ok(());
        };
        let text = collapse_spaces(&o.text);
        if !use_it || text.is_empty() {
            return Ok(());
        }
        charge_words(budget, &text, "reading hOCR")?;
        let n = self.pages.len() + 1;
        let b = o
            .bbox
            .ok_or_else(|| bad(format!("hOCR page {n}: a word without a bbox in its title")))?;
        self.words.push(Word {
            text,
            bbox: bbox(n, self.index, b, w, h)?,
            confidence: confidence(n, self.index, o.conf)?,
        });
        self.index += 1;
        Ok(())
    }
}

/// Deepest nesting of hOCR elements of interest (pages, lines, words) accepted: text is added
/// to every open element, so unbounded nesting would make reading quadratic.
const MAX_HOCR_NESTING: usize = 64;

/// Parses hOCR into pages (numbered in document order, from 1), charging `budget` for its
/// words.
pub(crate) fn parse_hocr(bytes: &[u8], budget: &mut Budget) -> Result<Vec<TextPage>> {
    let text =
        std::str::from_utf8(head(bytes)).map_err(|e| bad(format!("hOCR is not UTF-8: {e}")))?;
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = false;
    let mut st = Hocr::default();
    let mut depth = 0usize;
    loop {
        let ev = reader
            .read_event()
            .map_err(|e| bad(format!("hOCR markup is damaged: {e}")))?;
        match ev {
            Event::Start(e) => {
                depth += 1;
                if let Some((class, bbox, conf)) = element(&e, &reader) {
                    if class == Class::Page {
                        st.start_page(bbox)?;
                    }
                    if st.open.len() >= MAX_HOCR_NESTING {
                        return Err(bad(format!(
                            "hOCR elements nested over {MAX_HOCR_NESTING} deep"
                        )));
                    }
                    if class == Class::Word
                        && let Some(line) =
                            st.open.iter_mut().rev().find(|o| o.class == Class::Line)
                    {
                        // Its own text is not used from now on: stop keeping it.
                        line.has_words = true;
                        line.text = String::new();
                    }
                    st.open.push(Open {
                        depth,
                        class,
                        bbox,
                        conf,
                        text: String::new(),
                        has_words: false,
                    });
                }
            }
            Event::Empty(e) => {
                if let Some((Class::Page, bbox, _)) = element(&e, &reader) {
                    st.start_page(bbox)?;
                }
            }
            Event::Text(t) => {
                let s = t
                    .unescape()
                    .map(|c| c.into_owned())
                    .unwrap_or_else(|_| String::from_utf8_lossy(&t).into_owned());
                // Text goes to every open element whose text becomes a page word: each copy
                // kept counts, in characters. A word inside a line is kept once (a line with
                // words keeps no text of its own); only nested words or word-less lines keep
                // more, and yield that many page words.
                let copies = st.open.iter().filter(|o| o.becomes_word()).count() as u64;
                if copies > 0 {
                    let chars = s.chars().count() as u64;
                    budget.charge(
                        Resource::TextChars,
                        chars.saturating_mul(copies),
                        "reading hOCR",
                    )?;
                    for o in st.open.iter_mut().filter(|o| o.becomes_word()) {
                        o.text.push_str(&s);
                    }
                }
            }
            Event::End(_) => {
                while st.open.last().is_some_and(|o| o.depth >= depth) {
                    if let Some(o) = st.open.pop() {
                        st.close(o, budget)?;
                    }
                }
                depth = depth.saturating_sub(1);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    while let Some(o) = st.open.pop() {
        st.close(o, budget)?;
    }
    st.flush_page();
    if st.pages.is_empty() {
        return Err(bad("hOCR has no ocr_page".into()));
    }
    Ok(st.pages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Limits;

    fn parse_words_json(bytes: &[u8]) -> Result<Vec<TextPage>> {
        super::parse_words_json(bytes, &mut Budget::new(&Limits::default()))
    }

    fn parse_hocr(bytes: &[u8]) -> Result<Vec<TextPage>> {
        super::parse_hocr(bytes, &mut Budget::new(&Limits::default()))
    }

    fn words_json(text: &str, n: usize) -> Vec<u8> {
        let w = serde_json::to_string(text).unwrap();
        let words: Vec<String> = (0..n)
            .map(|i| {
                let (x, y) = ((i % 40) * 50, (i / 40) % 400 * 5);
                format!(
                    r#"{{"text": {w}, "bbox": [{x}, {y}, {}, {}]}}"#,
                    x + 40,
                    y + 4
                )
            })
            .collect();
        format!(
            r#"{{"pages": [{{"width": 2000, "height": 2000, "words": [{}]}}]}}"#,
            words.join(",")
        )
        .into_bytes()
    }

    fn hocr(n: usize) -> Vec<u8> {
        let mut s = String::from(
            "<html><body><div class='ocr_page' title='bbox 0 0 2000 2000'><span \
             class='ocr_line' title='bbox 0 0 2000 20'>",
        );
        for i in 0..n {
            let x = i % 1990;
            s.push_str(&format!(
                "<span class='ocrx_word' title='bbox {x} 0 {} 9'>w{i}</span> ",
                x + 9
            ));
        }
        s.push_str("</span></div></body></html>");
        s.into_bytes()
    }

    fn tight(words: u64, chars: u64) -> Budget {
        Budget::new(&Limits {
            max_words: words,
            max_text_chars: chars,
            ..Limits::default()
        })
    }

    #[test]
    fn word_and_text_budgets() {
        let json = words_json("a b", 100);
        assert!(super::parse_words_json(&json, &mut tight(200, 1_000)).is_ok());
        let e = super::parse_words_json(&json, &mut tight(199, 1_000)).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "limits.max_words (199) exceeded while reading words JSON"
        );
        let e = super::parse_words_json(&json, &mut tight(200, 299)).unwrap_err();
        assert!(
            e.to_string().starts_with("limits.max_text_chars (299)"),
            "{e}"
        );
        let h = hocr(100);
        assert!(super::parse_hocr(&h, &mut tight(100, 10_000)).is_ok());
        let e = super::parse_hocr(&h, &mut tight(99, 10_000)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "limits.max_words (99) exceeded while reading hOCR"
        );
    }

    #[test]
    fn hocr_text_is_charged_once_per_character() {
        // 6 + 3 + 18 characters of page words ("ü" is two bytes, "&amp;" one character); the
        // space between the words of the first line belongs to no word.
        let h = "<div class='ocr_page' title='bbox 0 0 100 100'>\
                 <span class='ocr_line' title='bbox 0 0 100 10'>\
                 <span class='ocrx_word' title='bbox 0 0 9 9'>Müller</span> \
                 <span class='ocrx_word' title='bbox 10 0 19 9'>&amp;Co</span></span>\
                 <span class='ocr_line' title='bbox 0 20 100 30'>Line without words</span>\
                 </div>";
        let pages = super::parse_hocr(h.as_bytes(), &mut tight(100, 27)).unwrap();
        let chars: usize = pages[0].words.iter().map(|w| w.text.chars().count()).sum();
        assert_eq!(chars, 27);
        let e = super::parse_hocr(h.as_bytes(), &mut tight(100, 26)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "limits.max_text_chars (26) exceeded while reading hOCR"
        );
        // A word nested in a word is two page words: its text is kept, and counted, twice.
        let nested = "<div class='ocr_page' title='bbox 0 0 100 100'>\
                      <span class='ocrx_word' title='bbox 0 0 9 9'>ab\
                      <span class='ocrx_word' title='bbox 0 0 9 9'>cd</span></span></div>";
        let pages = super::parse_hocr(nested.as_bytes(), &mut tight(100, 6)).unwrap();
        assert_eq!(pages[0].words.len(), 2);
        assert!(super::parse_hocr(nested.as_bytes(), &mut tight(100, 5)).is_err());
    }

    #[test]
    fn a_word_of_spaces_is_collapsed() {
        let json = words_json(&format!("a{}b", " ".repeat(2_000_000)), 1);
        let pages = parse_words_json(&json).unwrap();
        assert_eq!(pages[0].words[0].text, "a b");
    }

    #[test]
    fn deeply_nested_hocr_is_refused() {
        let mut s = String::from("<div class='ocr_page' title='bbox 0 0 10 10'>");
        s.push_str(&"<span class='ocrx_word' title='bbox 0 0 9 9'>w".repeat(10_000));
        s.push_str(&"</span>".repeat(10_000));
        s.push_str("</div>");
        let e = parse_hocr(s.as_bytes()).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::CorruptFile);
        assert!(e.to_string().contains("nested"), "{e}");
    }

    #[test]
    fn time_grows_linearly() {
        let run = |bytes: &[u8]| {
            crate::preprocess::preprocess(
                bytes,
                &crate::config::RecognizeOptions::default(),
                &Limits::default(),
                &|_| Ok(0),
            )
            .unwrap();
        };
        let (small, big) = (words_json("w 1", 4_000), words_json("w 1", 32_000));
        crate::preprocess::test_support::assert_near_linear("words JSON", &|k| {
            run(if k == 1 { &small } else { &big })
        });
        let (small, big) = (
            words_json(&format!("a{}b", " ".repeat(100_000)), 1),
            words_json(&format!("a{}b", " ".repeat(800_000)), 1),
        );
        crate::preprocess::test_support::assert_near_linear("a word of spaces", &|k| {
            run(if k == 1 { &small } else { &big })
        });
        let (small, big) = (hocr(4_000), hocr(32_000));
        crate::preprocess::test_support::assert_near_linear("hOCR", &|k| {
            run(if k == 1 { &small } else { &big })
        });
    }

    const JSON: &str = r#"{"pages": [
        {"width": 1000, "height": 1400, "words": [
            {"text": "Rechnung Nr. RE-1", "bbox": [100, 80, 400, 110], "confidence": 0.97},
            {"text": "Summe", "bbox": [100, 900, 180, 930]},
            {"text": "12,50", "bbox": [800, 900, 870, 930], "confidence": 88},
            {"text": "  ", "bbox": [0, 0, 1, 1]}
        ]},
        {"width": 1000, "height": 1400}
    ]}"#;

    #[test]
    fn words_json_pages_words_and_confidences() {
        assert!(looks_like_words_json(JSON.as_bytes()));
        assert!(!looks_like_hocr(JSON.as_bytes()));
        let pages = parse_words_json(JSON.as_bytes()).unwrap();
        assert_eq!(pages.len(), 2);
        let p = &pages[0];
        assert_eq!(
            (p.page, p.width, p.height, p.unit, p.source),
            (1, 1000.0, 1400.0, Unit::Px, Source::Ocr)
        );
        assert_eq!(p.words.len(), 3, "blank words dropped");
        assert_eq!(p.words[0].text, "Rechnung Nr. RE-1");
        assert_eq!(p.words[0].bbox, BBox::new(100.0, 80.0, 400.0, 110.0));
        assert!((p.words[0].confidence - 0.97).abs() < 1e-6);
        assert!((p.words[1].confidence - DEFAULT_WORD_CONFIDENCE).abs() < 1e-6);
        assert!(
            (p.words[2].confidence - 0.88).abs() < 1e-6,
            "percent accepted"
        );
        assert_eq!(pages[1].page, 2);
        assert!(pages[1].words.is_empty());
    }

    #[test]
    fn words_json_errors_are_corrupt_file_with_the_place() {
        let cases = [
            (
                r#"{"pages": [{"width": 0, "height": 10, "words": []}]}"#,
                "page 1",
            ),
            (
                r#"{"pages": [{"width": 10, "height": 10, "words": [{"text": "a", "bbox": [5, 5, 1, 1]}]}]}"#,
                "word 0",
            ),
            (
                r#"{"pages": [{"width": 10, "height": 10, "words": [{"text": "a", "bbox": [1, 1, 2, 2], "confidence": 300}]}]}"#,
                "confidence",
            ),
            (
                r#"{"pages": [{"width": 10, "height": 10, "words": [{"text": "a", "bbox": [1, 1, 2]}]}]}"#,
                "shape",
            ),
            (r#"{"pages": "x"}"#, "shape"),
            (
                r#"{"pages": [{"width": 10, "height": 10, "wrds": []}]}"#,
                "shape",
            ),
        ];
        for (json, needle) in cases {
            let e = parse_words_json(json.as_bytes()).unwrap_err();
            assert_eq!(e.code(), crate::ErrorCode::CorruptFile, "{json}");
            assert!(e.to_string().contains(needle), "{json}: {e}");
        }
    }

    #[test]
    fn boxes_are_clamped_to_the_page() {
        let json = r#"{"pages": [{"width": 100, "height": 50, "words": [{"text": "x", "bbox": [-5, 10, 120, 60]}]}]}"#;
        let p = parse_words_json(json.as_bytes()).unwrap();
        assert_eq!(p[0].words[0].bbox, BBox::new(0.0, 10.0, 100.0, 50.0));
    }

    const HOCR: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <head><meta name='ocr-system' content='tesseract 5.3.0' /></head>
 <body>
  <div class='ocr_page' id='page_1' title='image "a.png"; bbox 0 0 1240 1754; ppageno 0'>
   <div class='ocr_carea' id='block_1_1' title="bbox 100 80 600 120">
    <p class='ocr_par' id='par_1_1' lang='deu'>
     <span class='ocr_line' id='line_1_1' title="bbox 100 80 600 120; baseline 0 -5">
      <span class='ocrx_word' id='word_1_1' title='bbox 100 80 300 120; x_wconf 96'>Müller &amp; Co</span>
      <span class='ocrx_word' id='word_1_2' title='bbox 320 80 600 120; x_wconf 91'><strong>GmbH</strong></span>
     </span>
     <span class='ocr_line' id='line_1_2' title="bbox 100 200 600 240">Line without words</span>
    </p>
   </div>
  </div>
  <div class='ocr_page' id='page_2' title='bbox 0 0 1240 1754'>
   <span class='ocrx_word' title='bbox 10 10 50 30; x_wconf 50'>Seite</span>
   <span class='ocrx_word' title='bbox 60 10 70 30; x_wconf 90'> </span>
  </div>
 </body>
</html>"#;

    #[test]
    fn hocr_words_lines_entities_and_pages() {
        assert!(looks_like_hocr(HOCR.as_bytes()));
        assert!(!looks_like_words_json(HOCR.as_bytes()));
        let pages = parse_hocr(HOCR.as_bytes()).unwrap();
        assert_eq!(pages.len(), 2);
        let w: Vec<(&str, f32)> = pages[0]
            .words
            .iter()
            .map(|w| (w.text.as_str(), w.confidence))
            .collect();
        assert_eq!(
            w,
            vec![
                ("Müller & Co", 0.96),
                ("GmbH", 0.91),
                ("Line without words", DEFAULT_WORD_CONFIDENCE)
            ]
        );
        assert_eq!(pages[0].words[1].bbox, BBox::new(320.0, 80.0, 600.0, 120.0));
        assert_eq!((pages[0].width, pages[0].height), (1240.0, 1754.0));
        assert_eq!(pages[1].page, 2);
        assert_eq!(pages[1].words.len(), 1);
    }

    #[test]
    fn hocr_errors() {
        let no_page = "<html><body><p>hello ocr_page</p></body></html>";
        assert_eq!(
            parse_hocr(no_page.as_bytes()).unwrap_err().code(),
            crate::ErrorCode::CorruptFile
        );
        let no_bbox =
            "<div class='ocr_page' title='image x'><span class='ocrx_word'>a</span></div>";
        let e = parse_hocr(no_bbox.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("no bbox"), "{e}");
        let word_no_bbox =
            "<div class='ocr_page' title='bbox 0 0 10 10'><span class='ocrx_word'>a</span></div>";
        let e = parse_hocr(word_no_bbox.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("without a bbox"), "{e}");
        assert!(parse_hocr(b"<div class='ocr_page' title='bbox 0 0 10 10'>\xff</div>").is_err());
    }
}
