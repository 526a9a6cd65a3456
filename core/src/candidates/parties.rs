//! Party blocks: seller / buyer text blocks located by their labels and the page geometry.
//!
//! - Labelled: a party label at the start of a line or of a column (after a wide gap). The block
//!   is the text under it in the same column (x-range from the label to the next label on the
//!   same line), or the rest of the label's own line. It stops at a vertical gap, another label,
//!   or after eight lines.
//! - Letterhead: with no seller label, the seller is the most prominent company-like line at the
//!   top of the first page (legal-form words, large font), else its first meaningful line.
//! - Address window: with no buyer label, the buyer is the block that ends in a postcode line in
//!   the upper left of the first page.

use super::labels::{self, LabelKey};
use crate::types::{BBox, CleanDocument, Line, Span};
use regex::Regex;
use std::sync::LazyLock;

/// A piece of one line inside a block.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockLine {
    /// Where (line, byte range, box).
    pub span: Span,
}

impl BlockLine {
    /// Text.
    pub fn text(&self) -> &str {
        &self.span.text
    }
}

/// A party block.
#[derive(Debug, Clone, PartialEq)]
pub struct PartyBlock {
    /// Seller, Buyer or Consignee.
    pub role: LabelKey,
    /// The label line (None for letterhead / address-window blocks).
    pub label_line: Option<usize>,
    /// Content lines, top to bottom.
    pub lines: Vec<BlockLine>,
    /// Union of the content boxes.
    pub bbox: BBox,
}

impl PartyBlock {
    /// Whether a span lies inside the block (same page, box inside the block, or one of its lines).
    pub fn contains(&self, span: &Span) -> bool {
        self.lines.iter().any(|l| {
            l.span.line == span.line && span.start < l.span.end + 1 && span.end + 1 > l.span.start
        })
    }
}

/// Split of a block into name, address and the rest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PartyText {
    /// Name and where.
    pub name: Option<(String, Span)>,
    /// Address lines and where.
    pub address: Vec<(String, Span)>,
}

static LEGAL: &[&str] = &[
    "gmbh",
    "ag",
    "kg",
    "ohg",
    "gbr",
    "ug",
    "mbh",
    "kgaa",
    "ek",
    "sarl",
    "sas",
    "sa",
    "sasu",
    "eurl",
    "snc",
    "sp",
    "zoo",
    "ооо",
    "оао",
    "зао",
    "ао",
    "пао",
    "ип",
    "тов",
    "фоп",
    "пп",
    "пат",
    "прат",
    "ват",
    "тзов",
    "sdn",
    "bhd",
    "berhad",
    "ltd",
    "limited",
    "inc",
    "llc",
    "plc",
    "corp",
    "corporation",
    "co",
    "company",
    "enterprise",
    "enterprises",
    "trading",
    "store",
    "restaurant",
    "mart",
    "supermarket",
    "hardware",
    "stationery",
    "bakery",
    "cafe",
    "kedai",
    "pharmacy",
    "services",
    "industries",
    "holdings",
    "group",
    "gmbh&co",
    "bv",
    "nv",
    "oy",
    "ab",
    "as",
    "srl",
    "spa",
    "s.a",
];

/// Whether a line reads like a company name (legal-form or trade words).
pub fn is_company_like(text: &str) -> bool {
    let words = labels::norm_words(text);
    words.iter().enumerate().any(|(i, w)| {
        LEGAL.contains(&w.text.as_str())
            // OCR: `SDN BND`, `SDN BHO`.
            || w.text == "sdn" && words.get(i + 1).is_some_and(|n| n.text.len() == 3 && n.text.starts_with('b'))
    })
}

static POSTCODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|\s)(?:[A-Z]{1,2}[- ]?)?\d{2}-?\d{3}\s+\p{Lu}|\b\d{4,6}\s+\p{Lu}\p{L}+")
        .expect("postcode regex")
});

/// Whether a line looks like part of a postal address (street number, postcode + city).
pub fn is_address_like(text: &str) -> bool {
    static STREET: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)(stra(ß|ss)e|str\.|weg\b|platz\b|allee\b|gasse\b|ring\b|damm\b|street|st\.|road|rd\.?\b|avenue|ave\b|lane|jalan|jln|taman|lorong|rue\b|avenue|boulevard|bd\b|chemin|place\b|ul\.|ulica|aleja|вул\.|вулиця|ул\.|улица|просп|пр-т|пр\.|буд\.|д\.|no\.\s*\d|lot\s*\d|suite|floor|box\b|postfach|\d+[a-z]?,)")
            .expect("street regex")
    });
    POSTCODE.is_match(text) || STREET.is_match(text)
}

fn is_id_line(text: &str) -> bool {
    labels::find_labels(text).iter().any(|h| {
        h.word == 0
            && (h.key.is_tax_id()
                || matches!(
                    h.key,
                    LabelKey::Number
                        | LabelKey::NumberGeneric
                        | LabelKey::CustomerNumber
                        | LabelKey::Phone
                        | LabelKey::Email
                        | LabelKey::Iban
                        | LabelKey::Bic
                        | LabelKey::Bank
                        | LabelKey::Account
                        | LabelKey::Date
                        | LabelKey::DueDate
                        | LabelKey::Contract
                        | LabelKey::Order
                ))
    }) || text.contains('@')
        || text.to_lowercase().starts_with("www")
}

/// Whether a label stands alone: followed by `:`, a wide gap or the end of the line (so that
/// `Lieferant GmbH` is a name, not the label `Lieferant`).
fn stands_alone(text: &str, end: usize) -> bool {
    let rest = &text[end..];
    let t = rest.trim_start_matches(' ');
    t.is_empty()
        || t.starts_with([':', '/', '|'])
        || rest.starts_with("  ")
        || rest.starts_with(" (")
}

/// Where a label starts a column: at the start of its line or after a wide gap.
fn starts_column(text: &str, start: usize) -> bool {
    let before = &text[..start];
    before.trim().is_empty() || before.ends_with("  ")
}

/// The tokens of `line` inside `[x0, x1)`, as a span cut at the first very wide gap.
fn segment(line: &Line, x0: f32, x1: f32, h: f32) -> Option<Span> {
    let mut s: Option<usize> = None;
    let mut e = 0;
    let mut last_x1 = f32::MIN;
    for (t, &(ts, te)) in line.tokens.iter().zip(&line.token_spans) {
        let inside = t.bbox.x0 >= x0 - h * 0.5 && t.bbox.x0 < x1;
        if !inside {
            if s.is_some() && t.bbox.x0 >= x1 {
                break;
            }
            continue;
        }
        if s.is_some() && t.bbox.x0 - last_x1 > 3.0 * h {
            break;
        }
        if s.is_none() {
            s = Some(ts);
        }
        e = te;
        last_x1 = t.bbox.x1;
    }
    let s = s?;
    Some(Span::from_line(line, s, e))
}

/// Party blocks announced by labels.
pub fn labelled_blocks(doc: &CleanDocument) -> Vec<PartyBlock> {
    let mut out = Vec::new();
    for line in &doc.lines {
        let hits = labels::find_labels(&line.text);
        let col_hits: Vec<&labels::LabelHit> = hits
            .iter()
            .filter(|h| starts_column(&line.text, h.start))
            .collect();
        for h in hits.iter().filter(|h| {
            h.key.is_party()
                && starts_column(&line.text, h.start)
                && stands_alone(&line.text, h.end)
        }) {
            let Some((lb, _)) = line.range_bbox(h.start, h.end) else {
                continue;
            };
            let height = lb.height().max(1.0);
            // Column: up to the next column-starting label on the same line.
            let x0 = lb.x0;
            let x1 = col_hits
                .iter()
                .filter(|o| o.start > h.start)
                .filter_map(|o| line.range_bbox(o.start, o.end).map(|b| b.0.x0))
                .fold(f32::MAX, f32::min);
            let mut lines = Vec::new();
            // Rest of the label's own line.
            let rest_start = line.text[h.end..]
                .find(|c: char| c.is_alphanumeric())
                .map(|p| h.end + p);
            if let Some(rs) = rest_start {
                let (rb, _) = line
                    .range_bbox(rs, line.text.len())
                    .unwrap_or((line.bbox, 1.0));
                if rb.x0 < x1
                    && let Some(sp) = segment(line, rb.x0, x1, height)
                    && sp.start >= h.end
                {
                    lines.push(BlockLine { span: sp });
                }
            }
            let mut last_y = line.bbox.y1;
            for next in doc.lines.iter().skip(line.index + 1) {
                if next.page != line.page || lines.len() >= 8 {
                    break;
                }
                if next.bbox.y0 - last_y > 2.2 * height {
                    break;
                }
                let Some(sp) = segment(next, x0, x1, height) else {
                    if next.bbox.y0 - last_y > 0.8 * height {
                        break;
                    }
                    continue;
                };
                let sub_hits = labels::find_labels(&sp.text);
                let another = sub_hits.iter().any(|o| {
                    o.word == 0
                        && (o.key.is_party() && stands_alone(&sp.text, o.end)
                            || o.key.is_totals() && stands_alone(&sp.text, o.end)
                            || o.key.is_column() && sub_hits.len() >= 3)
                });
                if another && !lines.is_empty() {
                    break;
                }
                last_y = next.bbox.y1;
                lines.push(BlockLine { span: sp });
            }
            if lines.is_empty() {
                continue;
            }
            let bbox = lines
                .iter()
                .fold(lines[0].span.bbox, |b, l| b.union(&l.span.bbox));
            out.push(PartyBlock {
                role: h.key,
                label_line: Some(line.index),
                lines,
                bbox,
            });
        }
    }
    out
}

/// Splits a block into its name line and address lines.
pub fn split_block(block: &PartyBlock) -> PartyText {
    let mut out = PartyText::default();
    let mut name_from_label: Option<(String, Span)> = None;
    let mut candidates: Vec<(String, Span, bool)> = Vec::new(); // text, span, is_address
    for bl in &block.lines {
        let text = bl.text();
        let hits = labels::find_labels(text);
        let first = hits.first().filter(|h| h.word == 0);
        if let Some(h) = first
            && matches!(h.key, LabelKey::Name | LabelKey::Address)
        {
            let rest_off = text[h.end..]
                .find(|c: char| c.is_alphanumeric())
                .map(|p| h.end + p);
            if let Some(ro) = rest_off {
                let rest = text[ro..].trim().to_string();
                let span = sub_span(&bl.span, ro, text.len());
                if h.key == LabelKey::Name {
                    name_from_label.get_or_insert((rest, span));
                } else {
                    candidates.push((rest, span, true));
                }
            }
            continue;
        }
        if is_id_line(text) {
            continue;
        }
        if first.is_some_and(|h| h.key.is_party() && stands_alone(text, h.end)) {
            continue;
        }
        if !text.chars().any(char::is_alphabetic) {
            continue;
        }
        candidates.push((
            text.trim().to_string(),
            bl.span.clone(),
            is_address_like(text),
        ));
    }
    if let Some(n) = name_from_label {
        out.name = Some(n);
        out.address = candidates
            .into_iter()
            .map(|(t, s, _)| (t, s))
            .take(4)
            .collect();
        return out;
    }
    let mut it = candidates.into_iter();
    // The name: first line that is not an address line (unless only address lines remain).
    let mut rest: Vec<(String, Span, bool)> = Vec::new();
    for (t, s, addr) in it.by_ref() {
        if out.name.is_none() && (!addr || is_company_like(&t)) {
            out.name = Some((t, s));
        } else if out.name.is_some() {
            rest.push((t, s, addr));
            break;
        } else {
            rest.push((t, s, addr));
        }
    }
    rest.extend(it);
    out.address = rest.into_iter().map(|(t, s, _)| (t, s)).take(4).collect();
    out
}

fn sub_span(span: &Span, start: usize, end: usize) -> Span {
    // `start`/`end` are relative to the span's text.
    let text = span.text.get(start..end).unwrap_or("").to_string();
    let w = span.bbox.width();
    let n = span.text.chars().count().max(1) as f32;
    let c0 = span.text[..start.min(span.text.len())].chars().count() as f32;
    Span {
        page: span.page,
        line: span.line,
        start: span.start + start,
        end: span.start + end,
        bbox: BBox::new(
            span.bbox.x0 + w * c0 / n,
            span.bbox.y0,
            span.bbox.x1,
            span.bbox.y1,
        ),
        text,
        confidence: span.confidence,
    }
}

fn meaningful(text: &str) -> bool {
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    if letters < 3 {
        return false;
    }
    let hits = labels::find_labels(text);
    let label_words: usize = hits
        .iter()
        .filter(|h| !h.key.is_party() && !h.key.is_column() && h.key != LabelKey::Name)
        .map(|h| h.words)
        .sum();
    let words = labels::norm_words(text).len();
    label_words * 2 < words.max(1) && !is_id_line(text)
}

/// The letterhead block of the first page: a seller name (and the address lines under it).
pub fn letterhead(doc: &CleanDocument) -> Option<PartyBlock> {
    let first = doc.pages.first()?;
    let lines: Vec<&Line> = doc.lines.iter().filter(|l| l.page == first.page).collect();
    let limit = first.height * 0.3;
    let mut heights: Vec<f32> = lines.iter().map(|l| l.bbox.height()).collect();
    heights.sort_by(f32::total_cmp);
    let median = heights
        .get(heights.len() / 2)
        .copied()
        .unwrap_or(1.0)
        .max(1e-3);
    let mut best: Option<(f32, &Line, usize, usize)> = None;
    for (rank, l) in lines.iter().enumerate() {
        if l.bbox.y0 > limit && rank >= 3 {
            break;
        }
        // Only the first column segment of the line (letterheads sit left or centred).
        let seg_end = l.text.find("  ").unwrap_or(l.text.len());
        let text = &l.text[..seg_end];
        if !meaningful(text) {
            continue;
        }
        let mut score = 1.0 - rank as f32 * 0.08;
        if is_company_like(text) {
            score += 2.0;
        }
        score += ((l.bbox.height() / median) - 1.0).clamp(0.0, 1.5);
        if is_address_like(text) {
            score -= 1.5;
        }
        if text.chars().filter(|c| c.is_ascii_digit()).count() > 4 {
            score -= 1.0;
        }
        if best.is_none_or(|(b, ..)| score > b) {
            best = Some((score, l, 0, seg_end));
        }
    }
    let (_, l, s, e) = best?;
    let mut name_span = Span::from_line(l, s, e);
    let h = l.bbox.height().max(1.0);
    let seg = |x: &Line| Span::from_line(x, 0, x.text.find("  ").unwrap_or(x.text.len()));
    // A name broken over two lines: `POPULAR BOOK` / `CO. (M) SDN BHD`, `HOME MASTER HARDWARE &` /
    // `ELECTRICAL`.
    let starts_with_legal = |t: &str| {
        labels::norm_words(t)
            .first()
            .is_some_and(|w| LEGAL.contains(&w.text.as_str()) || w.text == "m")
    };
    if starts_with_legal(&name_span.text)
        && let Some(prev) = l.index.checked_sub(1).and_then(|i| doc.lines.get(i))
        && prev.page == l.page
        && l.bbox.y0 - prev.bbox.y1 < 1.0 * h
        && meaningful(&seg(prev).text)
        && !is_address_like(&seg(prev).text)
    {
        name_span = merge_spans(&seg(prev), &name_span);
    }
    let mut skip_next = false;
    if let Some(next) = doc.lines.get(l.index + 1)
        && next.page == l.page
        && next.bbox.y0 - l.bbox.y1 < 1.0 * h
    {
        let ns = seg(next);
        let ends_open = name_span.text.trim_end().ends_with(['&', '-', ','])
            || labels::norm_words(&name_span.text)
                .last()
                .is_some_and(|w| w.text == "and");
        let legal_next = labels::norm_words(&ns.text).len() <= 4
            && starts_with_legal(&ns.text)
            && !is_address_like(&ns.text);
        if (ends_open || legal_next) && meaningful(&ns.text) {
            name_span = merge_spans(&name_span, &ns);
            skip_next = true;
        }
    }
    let mut block_lines = vec![BlockLine { span: name_span }];
    // Address lines right under it.
    let mut last = l.bbox.y1;
    for next in doc
        .lines
        .iter()
        .skip(l.index + 1 + usize::from(skip_next))
        .take(5)
    {
        if next.page != l.page || next.bbox.y0 - last > 2.0 * h {
            break;
        }
        let seg_end = next.text.find("  ").unwrap_or(next.text.len());
        let text = &next.text[..seg_end];
        if is_id_line(text)
            || labels::find_labels(text)
                .iter()
                .any(|x| x.word == 0 && x.key.is_party() && stands_alone(text, x.end))
        {
            break;
        }
        last = next.bbox.y1;
        block_lines.push(BlockLine {
            span: Span::from_line(next, 0, seg_end),
        });
    }
    let bbox = block_lines
        .iter()
        .fold(l.bbox, |b, x| b.union(&x.span.bbox));
    Some(PartyBlock {
        role: LabelKey::Seller,
        label_line: None,
        lines: block_lines,
        bbox,
    })
}

/// Two spans as one (text joined by a space, boxes united; line and range of the first).
fn merge_spans(a: &Span, b: &Span) -> Span {
    Span {
        page: a.page,
        line: a.line,
        start: a.start,
        end: a.end,
        bbox: a.bbox.union(&b.bbox),
        text: format!("{} {}", a.text.trim_end(), b.text.trim_start()),
        confidence: a.confidence.min(b.confidence),
    }
}

/// The address window of the first page (buyer without a label): lines ending in a postcode line
/// in the upper part of the page, not inside `exclude`.
pub fn address_window(doc: &CleanDocument, exclude: &[&PartyBlock]) -> Option<PartyBlock> {
    let first = doc.pages.first()?;
    let lines: Vec<&Line> = doc
        .lines
        .iter()
        .filter(|l| {
            l.page == first.page
                && l.bbox.y0 < first.height * 0.5
                && l.bbox.y0 > first.height * 0.08
        })
        .collect();
    for (i, l) in lines.iter().enumerate() {
        let seg_end = l.text.find("  ").unwrap_or(l.text.len());
        let text = &l.text[..seg_end];
        if !POSTCODE.is_match(text) || l.bbox.x0 > first.width * 0.5 {
            continue;
        }
        let span = Span::from_line(l, 0, seg_end);
        if exclude.iter().any(|b| b.contains(&span)) {
            continue;
        }
        // Walk up while lines are close and left-aligned with the postcode line.
        let h = l.bbox.height().max(1.0);
        let mut block = vec![BlockLine { span }];
        let mut top = l.bbox.y0;
        for up in lines[..i].iter().rev() {
            if top - up.bbox.y1 > 1.2 * h || (up.bbox.x0 - l.bbox.x0).abs() > 2.0 * h {
                break;
            }
            let se = up.text.find("  ").unwrap_or(up.text.len());
            let t = &up.text[..se];
            let sp = Span::from_line(up, 0, se);
            if exclude.iter().any(|b| b.contains(&sp)) || is_id_line(t) {
                break;
            }
            // A sender line (`Firma · Straße · PLZ Ort`) above the window is not the buyer.
            if POSTCODE.is_match(t) && block.len() > 1 {
                break;
            }
            top = up.bbox.y0;
            block.insert(0, BlockLine { span: sp });
            if block.len() >= 5 {
                break;
            }
        }
        // Drop a leading sender line (small print with separators and a postcode).
        if block.len() > 2
            && let Some(f) = block.first()
            && (f.text().contains(['·', '•', '|'])
                || POSTCODE.is_match(f.text())
                || f.text().matches(',').count() >= 2)
        {
            block.remove(0);
        }
        if block.len() < 2 {
            continue;
        }
        let bbox = block
            .iter()
            .fold(block[0].span.bbox, |b, x| b.union(&x.span.bbox));
        return Some(PartyBlock {
            role: LabelKey::Buyer,
            label_line: None,
            lines: block,
            bbox,
        });
    }
    None
}

#[cfg(test)]
mod tests_support {
    use super::*;
    use crate::clean;
    use crate::types::{Source, TextPage, Unit, Word};

    pub fn w(text: &str, x0: f32, y: f32) -> Word {
        let x1 = x0 + text.chars().count() as f32 * 5.0;
        Word {
            text: text.into(),
            bbox: BBox::new(x0, y, x1, y + 10.0),
            confidence: 1.0,
        }
    }

    pub fn doc(words: Vec<Word>) -> CleanDocument {
        clean::clean(&[TextPage {
            page: 1,
            width: 600.0,
            height: 800.0,
            unit: Unit::Pt,
            source: Source::TextLayer,
            words,
        }])
    }

    pub fn line_words(text: &str, x: f32, y: f32) -> Vec<Word> {
        let mut out = Vec::new();
        let mut x = x;
        for t in text.split(' ') {
            out.push(w(t, x, y));
            x += t.chars().count() as f32 * 5.0 + 4.0;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::tests_support::*;
    use super::*;

    #[test]
    fn two_column_blocks() {
        let mut words = Vec::new();
        words.extend(line_words("Verkäufer", 40.0, 100.0));
        words.extend(line_words("Käufer", 320.0, 100.0));
        words.extend(line_words("Lieferant GmbH", 40.0, 114.0));
        words.extend(line_words("Kunden AG Mitte", 320.0, 114.0));
        words.extend(line_words("Lieferantenstraße 20", 40.0, 128.0));
        words.extend(line_words("Kundenstraße 15", 320.0, 128.0));
        words.extend(line_words("80333 München", 40.0, 142.0));
        words.extend(line_words("69876 Frankfurt", 320.0, 142.0));
        words.extend(line_words("USt-IdNr. DE123456789", 40.0, 156.0));
        words.extend(line_words(
            "Pos Beschreibung Menge Preis Betrag",
            40.0,
            260.0,
        ));
        let d = doc(words);
        let blocks = labelled_blocks(&d);
        assert_eq!(blocks.len(), 2, "{blocks:#?}");
        let seller = blocks.iter().find(|b| b.role == LabelKey::Seller).unwrap();
        let buyer = blocks.iter().find(|b| b.role == LabelKey::Buyer).unwrap();
        let s = split_block(seller);
        assert_eq!(s.name.unwrap().0, "Lieferant GmbH");
        let addr: Vec<String> = s.address.iter().map(|a| a.0.clone()).collect();
        assert_eq!(addr, ["Lieferantenstraße 20", "80333 München"]);
        let b = split_block(buyer);
        assert_eq!(b.name.unwrap().0, "Kunden AG Mitte");
        assert_eq!(buyer.lines.len(), 3);
    }

    #[test]
    fn name_label_inside_block() {
        let mut words = Vec::new();
        words.extend(line_words("Verkäufer", 40.0, 100.0));
        words.extend(line_words("Nummer: 549910", 40.0, 114.0));
        words.extend(line_words("Name: Lieferant GmbH", 40.0, 128.0));
        words.extend(line_words("Anschrift: Lieferantenstraße 20", 40.0, 142.0));
        let d = doc(words);
        let blocks = labelled_blocks(&d);
        let s = split_block(&blocks[0]);
        assert_eq!(s.name.unwrap().0, "Lieferant GmbH");
        assert_eq!(s.address[0].0, "Lieferantenstraße 20");
    }

    #[test]
    fn letterhead_and_window() {
        let mut words = Vec::new();
        words.extend(line_words("TAN WOON YANN", 72.0, 25.0));
        words.extend(line_words("BOOK TA .K(TAMAN DAYA) SDN BND", 50.0, 45.0));
        words.extend(line_words("NO.53 55,57 & 59, JALAN SAGU 18,", 50.0, 59.0));
        let d = doc(words);
        let lh = letterhead(&d).unwrap();
        assert_eq!(lh.lines[0].text(), "BOOK TA .K(TAMAN DAYA) SDN BND");

        let mut words = Vec::new();
        words.extend(line_words("POPULAR BOOK", 72.0, 25.0));
        words.extend(line_words("CO. (M) SDN BHD", 60.0, 38.0));
        words.extend(line_words("(113825-W)", 80.0, 51.0));
        let lh = letterhead(&doc(words)).unwrap();
        assert_eq!(lh.lines[0].text(), "POPULAR BOOK CO. (M) SDN BHD");

        let mut words = Vec::new();
        words.extend(line_words(
            "Muster GmbH · Hauptstr. 1 · 10115 Berlin",
            40.0,
            130.0,
        ));
        words.extend(line_words("Kunde & Co KG", 40.0, 144.0));
        words.extend(line_words("Herrn Max Mustermann", 40.0, 158.0));
        words.extend(line_words("Beispielweg 5", 40.0, 172.0));
        words.extend(line_words("12345 Musterstadt", 40.0, 186.0));
        let d = doc(words);
        let win = address_window(&d, &[]).unwrap();
        assert_eq!(win.lines[0].text(), "Kunde & Co KG");
        assert_eq!(win.lines.len(), 4);
    }

    #[test]
    fn company_and_address_shapes() {
        assert!(is_company_like("Lieferant GmbH"));
        assert!(is_company_like("ТОВ «Ромашка»"));
        assert!(is_company_like("SYARIKAT PERNIAGAAN GIN KEE SDN BND"));
        assert!(!is_company_like("Max Mustermann"));
        assert!(is_address_like("Lieferantenstraße 20"));
        assert!(is_address_like("80333 München"));
        assert!(is_address_like("NO.53, JALAN SAGU 18"));
        assert!(!is_address_like("Kunden AG Mitte"));
    }
}
