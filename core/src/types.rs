//! Plain data passed between the pipeline stages.
//!
//! Geometry is always top-left origin. Text-layer and office pages use PDF points, images and OCR
//! pages use pixels of the image that was read; [`TextPage::unit`] says which.

pub use crate::result::{OcrEngineName, Source, Unit};
use serde::{Deserialize, Serialize};

/// An axis-aligned box, origin top-left, `x0 <= x1`, `y0 <= y1`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct BBox {
    /// Left.
    pub x0: f32,
    /// Top.
    pub y0: f32,
    /// Right.
    pub x1: f32,
    /// Bottom.
    pub y1: f32,
}

impl BBox {
    /// Builds a box, normalising the corner order.
    pub fn new(x0: f32, y0: f32, x1: f32, y1: f32) -> Self {
        BBox {
            x0: x0.min(x1),
            y0: y0.min(y1),
            x1: x0.max(x1),
            y1: y0.max(y1),
        }
    }
    /// The box moved up by `dy` (down where negative).
    pub fn raised(&self, dy: f32) -> BBox {
        BBox::new(self.x0, self.y0 - dy, self.x1, self.y1 - dy)
    }
    /// Width.
    pub fn width(&self) -> f32 {
        self.x1 - self.x0
    }
    /// Height.
    pub fn height(&self) -> f32 {
        self.y1 - self.y0
    }
    /// Vertical centre.
    pub fn cy(&self) -> f32 {
        (self.y0 + self.y1) / 2.0
    }
    /// Horizontal centre.
    pub fn cx(&self) -> f32 {
        (self.x0 + self.x1) / 2.0
    }
    /// Smallest box holding both.
    pub fn union(&self, o: &BBox) -> BBox {
        BBox {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
    /// Overlap of the vertical extents divided by the smaller height (0..1).
    pub fn v_overlap(&self, o: &BBox) -> f32 {
        let inter = (self.y1.min(o.y1) - self.y0.max(o.y0)).max(0.0);
        let h = self.height().min(o.height()).max(1e-3);
        inter / h
    }
    /// Overlap of the horizontal extents divided by the smaller width (0..1).
    pub fn h_overlap(&self, o: &BBox) -> f32 {
        let inter = (self.x1.min(o.x1) - self.x0.max(o.x0)).max(0.0);
        let w = self.width().min(o.width()).max(1e-3);
        inter / w
    }
    /// As the `[x0, y0, x1, y1]` array of the Result JSON, rounded to 0.01.
    pub fn to_array(&self) -> [f64; 4] {
        let r = |v: f32| (v as f64 * 100.0).round() / 100.0;
        [r(self.x0), r(self.y0), r(self.x1), r(self.y1)]
    }
}

/// The median of the positive, finite values (box heights, widths); `None` when there are none.
/// Of an even count, the upper of the two middle values.
pub fn median_size(mut v: Vec<f32>) -> Option<f32> {
    v.retain(|x| x.is_finite() && *x > 0.0);
    v.sort_by(f32::total_cmp);
    v.get(v.len() / 2).copied()
}

/// One word as read from the text layer, OCR or an office file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Word {
    /// Raw text (may contain spaces only for office cells; cleaning splits them).
    pub text: String,
    /// Box on the page.
    pub bbox: BBox,
    /// 0..1 (1.0 for text layer and office).
    pub confidence: f32,
}

/// Words of one page, before cleaning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextPage {
    /// 1-based page number in the original document.
    pub page: u32,
    /// Page width in `unit`.
    pub width: f32,
    /// Page height in `unit`.
    pub height: f32,
    /// Unit of all boxes.
    pub unit: Unit,
    /// Where the words came from.
    pub source: Source,
    /// The OCR engine that read the page (`None` unless `source` is OCR).
    #[serde(default)]
    pub engine: Option<OcrEngineName>,
    /// Degrees (0, 90, 180 or 270) the OCR turned the prepared page image clockwise to make it
    /// upright before reading it: `width`, `height` and the word boxes are those of the turned
    /// image. 0 for text layers, office text, pre-recognised words and pages read as they stand.
    #[serde(default)]
    pub rotation: u16,
    /// Words in reading order if known.
    pub words: Vec<Word>,
}

/// A cleaned token: normalised text with its link back to the page and box.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Token {
    /// Normalised text (NFKC, no spaces).
    pub text: String,
    /// Box on the page.
    pub bbox: BBox,
    /// 0..1.
    pub confidence: f32,
}

/// A text line: tokens on one baseline, left to right.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// 1-based page.
    pub page: u32,
    /// Index of this line in [`CleanDocument::lines`].
    pub index: usize,
    /// Union of the token boxes.
    pub bbox: BBox,
    /// Tokens, left to right.
    pub tokens: Vec<Token>,
    /// Tokens joined by single spaces (wider gaps, e.g. between columns, become two spaces).
    pub text: String,
    /// Byte range of each token in `text`, ascending (tokens in text order, not overlapping).
    pub token_spans: Vec<(usize, usize)>,
}

impl Line {
    /// Box and mean confidence of the tokens overlapping the byte range `start..end` of `text`.
    pub fn range_bbox(&self, start: usize, end: usize) -> Option<(BBox, f32)> {
        let mut out: Option<BBox> = None;
        let mut conf = 0.0;
        let mut n = 0;
        // Token ranges ascend through the text: skip to the first one ending after `start` and
        // stop at the first one starting at `end` (a span costs its own tokens, not the line's).
        let first = self.token_spans.partition_point(|&(_, e)| e <= start);
        let tokens = self.tokens.iter().zip(&self.token_spans).skip(first);
        for (t, &(s, e)) in tokens.take_while(|(_, span)| span.0 < end) {
            if s < end && e > start {
                out = Some(match out {
                    Some(b) => b.union(&t.bbox),
                    None => t.bbox,
                });
                conf += t.confidence;
                n += 1;
            }
        }
        out.map(|b| (b, conf / n.max(1) as f32))
    }
}

/// Page metadata after cleaning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageInfo {
    /// 1-based page number in the original document.
    pub page: u32,
    /// Width in `unit`.
    pub width: f32,
    /// Height in `unit`.
    pub height: f32,
    /// Unit of boxes.
    pub unit: Unit,
    /// Source of the text.
    pub source: Source,
    /// The OCR engine that read the page (`None` unless `source` is OCR).
    #[serde(default)]
    pub engine: Option<OcrEngineName>,
    /// How the page's boxes were straightened (level for pages read level).
    #[serde(default)]
    pub shear: Shear,
}

/// The straightening of a page whose words an OCR read askew (word boxes of a page it did not
/// straighten, [`crate::clean::page_shear`]): every box was moved up by `slope` times how far its
/// centre lies right of `origin`, so that later stages see level lines. Level: slope 0.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Shear {
    /// Rise of the printed lines per unit of width (positive: they descend to the right).
    pub slope: f32,
    /// The x about which the page was turned.
    pub origin: f32,
}

impl Shear {
    /// How far a box centred at `x` was moved up.
    pub fn shift(&self, x: f32) -> f32 {
        self.slope * (x - self.origin)
    }

    /// A box of the page as read, straightened.
    pub fn straighten(&self, b: BBox) -> BBox {
        b.raised(self.shift(b.cx()))
    }

    /// A straightened box back where the input put it (moved by the shift at its centre).
    pub fn as_read(&self, b: BBox) -> BBox {
        b.raised(-self.shift(b.cx()))
    }
}

/// The cleaned document: all lines of all pages in reading order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CleanDocument {
    /// Pages, in order.
    pub pages: Vec<PageInfo>,
    /// Lines, page by page, top to bottom.
    pub lines: Vec<Line>,
}

impl CleanDocument {
    /// Metadata of a page by its number.
    pub fn page(&self, page: u32) -> Option<&PageInfo> {
        self.pages.iter().find(|p| p.page == page)
    }
    /// The whole text, lines joined by newlines, pages by form feeds.
    pub fn plain_text(&self) -> String {
        let mut s = String::new();
        let mut last_page = None;
        for l in &self.lines {
            if let Some(p) = last_page
                && p != l.page
            {
                s.push('\u{c}');
            }
            last_page = Some(l.page);
            s.push_str(&l.text);
            s.push('\n');
        }
        s
    }
}

/// A located piece of text: the evidence behind a candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Span {
    /// 1-based page.
    pub page: u32,
    /// Index of the line in [`CleanDocument::lines`].
    pub line: usize,
    /// Byte range in the line's text.
    pub start: usize,
    /// End of the byte range.
    pub end: usize,
    /// Box of the text.
    pub bbox: BBox,
    /// The text as printed.
    pub text: String,
    /// Mean OCR confidence of its tokens (1.0 for text layers).
    pub confidence: f32,
}

impl Span {
    /// A span over `start..end` of `line`.
    pub fn from_line(line: &Line, start: usize, end: usize) -> Span {
        let (bbox, confidence) = line.range_bbox(start, end).unwrap_or((line.bbox, 1.0));
        Span {
            page: line.page,
            line: line.index,
            start,
            end,
            bbox,
            text: line.text[start..end].to_string(),
            confidence,
        }
    }

    /// The Result's evidence for a value read from this span: its page, box, the page's unit,
    /// the text as printed and the page's source (`None` when `doc` has no such page). The one
    /// place a span becomes [`crate::result::Evidence`].
    pub fn evidence(&self, doc: &CleanDocument) -> Option<crate::result::Evidence> {
        let p = doc.page(self.page)?;
        Some(crate::result::Evidence {
            page: self.page,
            // Where the input put it: a page read askew was straightened for the stages only.
            bbox: p.shear.as_read(self.bbox).to_array(),
            unit: p.unit,
            text: self.text.clone(),
            source: p.source,
            engine: p.engine,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_size_ignores_empty_and_broken_sizes() {
        assert_eq!(
            median_size(vec![20.0, 1.5, 19.0, 0.0, f32::NAN, 21.0]),
            Some(20.0)
        );
        assert_eq!(median_size(vec![3.0, 1.0]), Some(3.0));
        assert_eq!(median_size(vec![0.0, -2.0]), None);
        assert_eq!(median_size(Vec::new()), None);
    }
}
