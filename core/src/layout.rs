//! Page layout from word geometry: line segments (a line cut at its column gaps) and text blocks
//! (segments stacked into paragraphs, address blocks, table cells).
//!
//! Cleaning joins everything on one baseline into a [`Line`]; two columns printed side by side
//! (`Theodor Est      phone (555) 23 78`) share a line. Cleaning marks gaps wider than
//! [`crate::clean::CleanParams::column_gap`] with two spaces, and a [`Segment`] is the text between
//! such gaps. A [`Block`] stacks segments of consecutive lines that are left-aligned (or centred on
//! each other) and close vertically, which is how party addresses, letterheads and footers are
//! printed.

use crate::types::{BBox, CleanDocument, Line, Span};

/// A run of a line's tokens between column gaps.
pub type Segment = Span;

/// The segments of a line, left to right (cut where cleaning put a column gap, `"  "`).
pub fn line_segments(line: &Line) -> Vec<Segment> {
    let mut out = Vec::new();
    let text = &line.text;
    let mut start = 0usize;
    while start < text.len() {
        let end = text[start..].find("  ").map_or(text.len(), |p| start + p);
        let s = start + (text[start..end].len() - text[start..end].trim_start().len());
        let e = s + text[s..end].trim_end().len();
        if e > s {
            out.push(Span::from_line(line, s, e));
        }
        start = end;
        while text[start..].starts_with(' ') {
            start += 1;
        }
    }
    out
}

/// All segments of a document, line by line.
pub fn segments(doc: &CleanDocument) -> Vec<Segment> {
    doc.lines.iter().flat_map(line_segments).collect()
}

/// Segments stacked into one block of text.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// 1-based page.
    pub page: u32,
    /// Indices into the segment list the block was built from, top to bottom.
    pub segments: Vec<usize>,
    /// Union of the segment boxes.
    pub bbox: BBox,
}

/// Parameters of block building.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockParams {
    /// Largest vertical gap between two stacked segments, in segment heights. Line spacing of
    /// business documents is 0.1 to 0.9 of the text height (measured on the ZUGFeRD set: 0.2 in
    /// tables and party blocks, 0.7 to 0.9 in loosely set address windows), paragraph gaps are
    /// above 1.2.
    pub max_gap: f32,
    /// Largest difference of left edges (in segment heights) for left-aligned segments.
    pub align: f32,
}

impl Default for BlockParams {
    fn default() -> Self {
        BlockParams {
            max_gap: 1.0,
            align: 1.5,
        }
    }
}

/// Whether segment `b` (on a later line) continues the block whose last segment is `a`: close
/// below it and sharing its left edge, its centre or its right edge.
pub fn stacks(a: &Segment, b: &Segment, params: &BlockParams) -> bool {
    if a.page != b.page || b.line <= a.line {
        return false;
    }
    let h = a.bbox.height().max(b.bbox.height()).max(1e-3);
    let hmin = a.bbox.height().min(b.bbox.height()).max(1e-3);
    let gap = b.bbox.y0 - a.bbox.y1;
    if gap > params.max_gap * h || gap < -0.5 * hmin {
        return false;
    }
    let left = (a.bbox.x0 - b.bbox.x0).abs() <= params.align * hmin;
    let centred =
        (a.bbox.cx() - b.bbox.cx()).abs() <= params.align * hmin && a.bbox.h_overlap(&b.bbox) > 0.5;
    // Letterheads set flush right (`Müller GmbH` / `Hauptstr. 1, 12345 Ort` under it).
    let right =
        (a.bbox.x1 - b.bbox.x1).abs() <= params.align * hmin && a.bbox.h_overlap(&b.bbox) > 0.0;
    left || centred || right
}

/// Most blocks open at once: a printed page has a few dozen segments within three lines of the
/// one being placed.
const MAX_OPEN_BLOCKS: usize = 512;

/// Stacks segments into blocks. Each segment joins the block whose last segment is the closest
/// one above it that it [`stacks`] on; a block takes at most one segment per line.
pub fn blocks(segs: &[Segment], params: &BlockParams) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    // Blocks still open, by index into `out`.
    let mut open: Vec<usize> = Vec::new();
    for (i, s) in segs.iter().enumerate() {
        let mut best: Option<(usize, f32)> = None;
        for &bi in &open {
            let last = &segs[*out[bi].segments.last().expect("non-empty block")];
            if last.line == s.line || !stacks(last, s, params) {
                continue;
            }
            let d = s.bbox.y0 - last.bbox.y1 + (s.bbox.x0 - last.bbox.x0).abs() * 0.1;
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((bi, d));
            }
        }
        match best {
            Some((bi, _)) => {
                let b = &mut out[bi];
                b.segments.push(i);
                b.bbox = b.bbox.union(&s.bbox);
            }
            None => {
                out.push(Block {
                    page: s.page,
                    segments: vec![i],
                    bbox: s.bbox,
                });
                open.push(out.len() - 1);
            }
        }
        // Close blocks that can no longer grow (a page change or far above this segment).
        open.retain(|&bi| {
            let last = &segs[*out[bi].segments.last().expect("non-empty block")];
            last.page == s.page && s.bbox.y0 - last.bbox.y1 <= 3.0 * last.bbox.height().max(1.0)
        });
        // Segments side by side (a spreadsheet row of thousands of cells, cut into lines on one
        // baseline) never stack on each other and would keep every block open: past the cap the
        // oldest close, which bounds the work per segment.
        if open.len() > MAX_OPEN_BLOCKS {
            open.drain(..open.len() - MAX_OPEN_BLOCKS);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean;
    use crate::types::{Source, TextPage, Unit, Word};

    fn words(text: &str, x: f32, y: f32, h: f32) -> Vec<Word> {
        let mut out = Vec::new();
        let mut x = x;
        for t in text.split(' ') {
            if t.is_empty() {
                x += h * 0.6;
                continue;
            }
            let w = t.chars().count() as f32 * h * 0.5;
            out.push(Word {
                text: t.into(),
                bbox: BBox::new(x, y, x + w, y + h),
                confidence: 1.0,
            });
            x += w + h * 0.3;
        }
        out
    }

    fn doc(ws: Vec<Word>) -> CleanDocument {
        clean::clean(&[TextPage {
            page: 1,
            width: 600.0,
            height: 800.0,
            unit: Unit::Pt,
            source: Source::TextLayer,
            engine: None,
            rotation: 0,
            words: ws,
        }])
    }

    #[test]
    fn segments_cut_at_column_gaps() {
        let mut ws = words("Theodor Est", 70.0, 100.0, 10.0);
        ws.extend(words("phone (555) 23 78", 450.0, 100.0, 10.0));
        let d = doc(ws);
        let segs = line_segments(&d.lines[0]);
        let t: Vec<&str> = segs.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(t, ["Theodor Est", "phone (555) 23 78"]);
        assert!(segs[1].bbox.x0 >= 449.0);
    }

    #[test]
    fn blocks_follow_columns_and_gaps() {
        let mut ws = Vec::new();
        // Two address blocks side by side, then a paragraph far below.
        for (k, (l, r)) in [
            ("Lieferant GmbH", "Kunden AG"),
            ("Hauptstr. 1", "Nebenweg 2"),
            ("10115 Berlin", "80331 München"),
        ]
        .iter()
        .enumerate()
        {
            let y = 100.0 + k as f32 * 12.0;
            ws.extend(words(l, 50.0, y, 10.0));
            ws.extend(words(r, 320.0, y, 10.0));
        }
        ws.extend(words("Zahlbar sofort", 50.0, 200.0, 10.0));
        let d = doc(ws);
        let segs = segments(&d);
        let bl = blocks(&segs, &BlockParams::default());
        let texts: Vec<Vec<&str>> = bl
            .iter()
            .map(|b| b.segments.iter().map(|&i| segs[i].text.as_str()).collect())
            .collect();
        assert_eq!(
            texts,
            vec![
                vec!["Lieferant GmbH", "Hauptstr. 1", "10115 Berlin"],
                vec!["Kunden AG", "Nebenweg 2", "80331 München"],
                vec!["Zahlbar sofort"],
            ]
        );
    }

    /// `n` cells of one row cut into lines of 256 on one baseline, as cleaning cuts them.
    fn row_segments(n: usize) -> Vec<Segment> {
        (0..n)
            .map(|i| {
                let x = 56.0 + i as f32 * 40.0;
                Span {
                    page: 1,
                    line: i / 256,
                    start: 0,
                    end: 2,
                    bbox: BBox::new(x, 56.0, x + 25.0, 66.0),
                    text: "c1".into(),
                    confidence: 1.0,
                }
            })
            .collect()
    }

    #[test]
    fn side_by_side_segments_stay_linear() {
        let (small, big) = (row_segments(4_000), row_segments(32_000));
        let params = BlockParams::default();
        let bl = blocks(&big, &params);
        assert_eq!(
            bl.iter().map(|b| b.segments.len()).sum::<usize>(),
            big.len()
        );
        crate::preprocess::test_support::assert_near_linear("blocks of one row", &|k| {
            blocks(if k == 1 { &small } else { &big }, &params);
        });
    }
}
