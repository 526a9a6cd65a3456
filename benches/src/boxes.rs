//! SROIE `*.boxes.txt` files (`x1,y1,x2,y2,x3,y3,x4,y4,text` per line, image pixels) as a
//! [`TextPage`]: each line becomes one [`Word`] holding the whole text (cleaning splits it) with
//! the axis-aligned box of its four points; the page size is the largest coordinate seen.
//!
//! A file may hold several pages (text-layer documents dumped by `inspect --dump-boxes`): a line
//! `#page W H` starts a new page of that size in pixels ([`PAGE_MARK`]; `W H` optional). SROIE
//! files have no such line and read as one page.

use folio::types::{BBox, Source, TextPage, Unit, Word};

/// Confidence given to every word (the dataset's OCR gives none).
pub const BOX_CONFIDENCE: f32 = 0.9;

/// The line that starts a new page, followed by its width and height.
pub const PAGE_MARK: &str = "#page";

/// Parses the text of a boxes file as one page (page marks are skipped like any other line
/// without eight numbers). Lines that do not have eight numbers and a text, or whose text is
/// blank, are skipped; `None` when no line is usable.
pub fn parse_boxes(content: &str) -> Option<TextPage> {
    parse_page(content.lines(), None)
}

/// Parses a boxes file page by page: each `#page W H` line starts a page (the lines before the
/// first mark, if any, are a page of their own). Pages without a usable line are dropped and
/// the rest numbered from 1; empty when no line is usable.
pub fn parse_boxes_pages(content: &str) -> Vec<TextPage> {
    // Each page's size (where its mark gives one) and lines.
    type Chunk<'a> = (Option<(f32, f32)>, Vec<&'a str>);
    let mut chunks: Vec<Chunk<'_>> = vec![(None, Vec::new())];
    for line in content.lines() {
        if let Some(rest) = line.trim_start_matches('\u{feff}').strip_prefix(PAGE_MARK) {
            let dims: Vec<f32> = rest
                .split_whitespace()
                .filter_map(|v| v.parse().ok())
                .collect();
            let size = match dims[..] {
                [w, h] if w > 0.0 && h > 0.0 => Some((w, h)),
                _ => None,
            };
            chunks.push((size, Vec::new()));
        } else if let Some(last) = chunks.last_mut() {
            last.1.push(line);
        }
    }
    let mut pages: Vec<TextPage> = chunks
        .into_iter()
        .filter_map(|(size, lines)| parse_page(lines.into_iter(), size))
        .collect();
    for (k, p) in pages.iter_mut().enumerate() {
        p.page = k as u32 + 1;
    }
    pages
}

/// One page from its lines; `size` (width, height) when known, else the largest coordinates.
fn parse_page<'a>(
    lines: impl Iterator<Item = &'a str>,
    size: Option<(f32, f32)>,
) -> Option<TextPage> {
    let mut words = Vec::new();
    let (mut width, mut height) = size.unwrap_or((0.0, 0.0));
    for line in lines {
        let line = line.trim_start_matches('\u{feff}');
        let mut parts = line.splitn(9, ',');
        let mut xs = [0f32; 4];
        let mut ys = [0f32; 4];
        let mut ok = true;
        for k in 0..8 {
            match parts.next().and_then(|p| p.trim().parse::<f32>().ok()) {
                Some(v) if v.is_finite() => {
                    if k % 2 == 0 {
                        xs[k / 2] = v;
                    } else {
                        ys[k / 2] = v;
                    }
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        let text = parts.next().unwrap_or("").trim();
        if !ok || text.is_empty() {
            continue;
        }
        let min = |v: &[f32; 4]| v.iter().copied().fold(f32::INFINITY, f32::min).max(0.0);
        let max = |v: &[f32; 4]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max).max(0.0);
        let bbox = BBox::new(min(&xs), min(&ys), max(&xs), max(&ys));
        width = width.max(bbox.x1);
        height = height.max(bbox.y1);
        words.push(Word {
            text: text.to_string(),
            bbox,
            confidence: BOX_CONFIDENCE,
        });
    }
    if words.is_empty() {
        return None;
    }
    Some(TextPage {
        page: 1,
        width: width.max(1.0),
        height: height.max(1.0),
        unit: Unit::Px,
        source: Source::Ocr,
        engine: None,
        rotation: 0,
        words,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_with_commas_in_text() {
        let content = "72,25,326,25,326,64,72,64,TAN WOON YANN\n\
                       50,82,440,80,441,121,49,123,BOOK TA .K(TAMAN DAYA) SDN BND\n\
                       \n\
                       bad,line\n\
                       205,121,285,121,285,139,205,139,NO.53 55,57 & 59\n\
                       1,2,3,4,5,6,7,8,   \n";
        let page = parse_boxes(content).expect("page");
        assert_eq!(page.words.len(), 3);
        assert_eq!(page.words[2].text, "NO.53 55,57 & 59");
        assert_eq!(page.words[1].bbox, BBox::new(49.0, 80.0, 441.0, 123.0));
        assert_eq!((page.width, page.height), (441.0, 139.0));
        assert_eq!(page.unit, Unit::Px);
        assert_eq!(page.source, Source::Ocr);
        assert!(page.words.iter().all(|w| w.confidence == BOX_CONFIDENCE));
        assert!(parse_boxes("garbage\n").is_none());
        assert!(parse_boxes("").is_none());
    }

    #[test]
    fn page_marks_start_pages_of_their_size() {
        let content = "#page 100 200\n\
                       1,2,30,2,30,9,1,9,Rechnung\n\
                       #page 100 200\n\
                       #page 100 200\n\
                       5,6,40,6,40,12,5,12,Summe 10,00\n";
        let pages = parse_boxes_pages(content);
        assert_eq!(pages.len(), 2, "the empty page is dropped");
        assert_eq!((pages[0].page, pages[1].page), (1, 2));
        assert_eq!((pages[1].width, pages[1].height), (100.0, 200.0));
        assert_eq!(pages[1].words[0].text, "Summe 10,00");
        let one = parse_boxes_pages("1,2,30,2,30,9,1,9,Total 5.00\n");
        assert_eq!((one.len(), one[0].width, one[0].height), (1, 30.0, 9.0));
        assert!(parse_boxes_pages("#page 1 2\n").is_empty());
        assert_eq!(parse_boxes(content).map(|p| p.words.len()), Some(2));
    }
}
