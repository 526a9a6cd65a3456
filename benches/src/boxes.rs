//! SROIE `*.boxes.txt` files (`x1,y1,x2,y2,x3,y3,x4,y4,text` per line, image pixels) as a
//! [`TextPage`]: each line becomes one [`Word`] holding the whole text (cleaning splits it) with
//! the axis-aligned box of its four points; the page size is the largest coordinate seen.

use folio::types::{BBox, Source, TextPage, Unit, Word};

/// Confidence given to every word (the dataset's OCR gives none).
pub const BOX_CONFIDENCE: f32 = 0.9;

/// Parses the text of a boxes file. Lines that do not have eight numbers and a text, or whose
/// text is blank, are skipped; `None` when no line is usable.
pub fn parse_boxes(content: &str) -> Option<TextPage> {
    let mut words = Vec::new();
    let (mut width, mut height) = (0f32, 0f32);
    for line in content.lines() {
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
}
