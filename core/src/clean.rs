//! Cleaning: Unicode normalisation, lines and reading order from word geometry, hyphenation.
//!
//! Every token keeps its page and box, so any value found later can point back at the page.
//!
//! - Text is NFKC-normalised; zero-width characters and soft hyphens are dropped; the various
//!   dashes and the minus sign become `-`; curly quotes stay.
//! - A "word" with spaces inside (office cells, OCR engines that report whole lines) is split into
//!   tokens, its box divided in proportion to the characters.
//! - Tokens are grouped into lines by vertical overlap with the nearest token already in a line
//!   (chained, so a slightly skewed scan still forms lines), then lines are ordered top to bottom.
//! - A line ending in `letter-` followed by a line starting with a lower-case letter is joined:
//!   the first part's token carries the whole word, the continuation token is dropped.

use crate::result::Source;
use crate::types::{BBox, CleanDocument, Line, PageInfo, Shear, TextPage, Token, median_size};
use regex::Regex;
use std::sync::LazyLock;
use unicode_normalization::UnicodeNormalization;

/// Parameters of line building.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CleanParams {
    /// Minimum vertical overlap (share of the smaller height) for two tokens to share a line.
    /// 0.5 separates neighbouring lines of body text and tolerates baseline jitter of OCR.
    pub min_v_overlap: f32,
    /// A gap wider than this many token heights is a column gap (two spaces in `Line::text`).
    pub column_gap: f32,
}

impl Default for CleanParams {
    fn default() -> Self {
        CleanParams {
            min_v_overlap: 0.5,
            column_gap: 1.2,
        }
    }
}

/// Normalises one piece of text (NFKC, dashes, invisible characters, and the low quotation
/// mark `‚` that OCR reads for a comma when a digit follows or precedes it: `169 ‚52`,
/// `12‚50`; a German opening quote `‚Wort‘` stays).
pub fn normalize_text(s: &str) -> String {
    let out: String = s
        .nfkc()
        .filter_map(|c| match c {
            '\u{00AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => None,
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => {
                Some('-')
            }
            c if c.is_whitespace() => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let out = latin_lookalikes(out);
    if !out.contains('\u{201A}') {
        return out;
    }
    let chars: Vec<char> = out.chars().collect();
    let digit_at = |k: Option<usize>| {
        k.and_then(|k| chars.get(k))
            .is_some_and(char::is_ascii_digit)
    };
    chars
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            if c == '\u{201A}' && (digit_at(k.checked_sub(1)) || digit_at(Some(k + 1))) {
                ','
            } else {
                c
            }
        })
        .collect()
}

/// A Greek letter OCR read inside a Latin word for the Latin letter it looks like (`0,5ρz` for
/// `0,5pz`, `Νr.`): in a word of Latin letters and Greek look-alikes only, the Greek letters
/// become their Latin twins. Greek words (no Latin letter) and words with a Greek letter that
/// looks like no Latin one (`λ`, `Ω`) stay as read.
fn latin_lookalikes(s: String) -> String {
    const GREEK: &str = "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧακιονρτυχ";
    const LATIN: &str = "ABEZHIKMNOPTYXakiovptux";
    let greek = |c: char| ('\u{0370}'..='\u{03FF}').contains(&c);
    if !s.chars().any(greek) {
        return s;
    }
    let twin = |c: char| {
        GREEK
            .chars()
            .zip(LATIN.chars())
            .find(|&(g, _)| g == c)
            .map(|(_, l)| l)
    };
    let mut out = String::with_capacity(s.len());
    for (k, word) in s.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let mixed = word.chars().any(|c| c.is_ascii_alphabetic())
            && word
                .chars()
                .filter(|&c| greek(c))
                .all(|c| twin(c).is_some());
        if mixed {
            out.extend(word.chars().map(|c| twin(c).unwrap_or(c)));
        } else {
            out.push_str(word);
        }
    }
    out
}

/// Splits a word into normalised tokens on spaces, dividing its box by character count.
pub fn split_word(text: &str, bbox: BBox, confidence: f32) -> Vec<Token> {
    let norm = normalize_text(text);
    let total_chars = norm.chars().count().max(1) as f32;
    let char_w = bbox.width() / total_chars;
    let mut out = Vec::new();
    let mut pos = 0usize; // in chars
    for part in norm.split(' ') {
        let n = part.chars().count();
        let mut at = pos;
        for piece in unglue(part) {
            let k = piece.chars().count();
            let x0 = bbox.x0 + at as f32 * char_w;
            let x1 = bbox.x0 + (at + k) as f32 * char_w;
            out.push(Token {
                text: piece.to_string(),
                bbox: BBox::new(x0, bbox.y0, x1, bbox.y1),
                confidence,
            });
            at += k;
        }
        pos += n + 1;
    }
    out
}

/// A date glued to a time: `dd.mm.yyyy` / `dd-mm-yyyy` / `dd/mm/yyyy` (day and month of one or
/// two digits) or `yyyy-mm-dd`, then `h:mm` or `hh:mm`, optionally `:ss`. The two separators of
/// the date must be the same (checked after the match: the regex crate has no back-references).
static DATE_TIME_GLUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:\d{1,2}([./-])\d{1,2}([./-])\d{4}|\d{4}([./-])\d{2}([./-])\d{2}(\.)?)\d{1,2}:\d{2}(?::\d{2})?$",
    )
    .expect("valid regex")
});

/// Where a date glued to a time splits (the end of the date), see [`DATE_TIME_GLUE`]; the date
/// may follow a label or a field glued on before it, after a character that is no letter or
/// digit (`Date:2016/05/0114:11:20`, `002-2016/05/0114:13:10`).
fn date_time_glue(part: &str) -> Option<usize> {
    if !part.contains(':') {
        return None;
    }
    std::iter::once(0)
        .chain(
            part.char_indices()
                .filter(|(_, c)| !c.is_alphanumeric())
                .map(|(i, c)| i + c.len_utf8()),
        )
        .find_map(|from| date_time_glue_at(&part[from..]).map(|end| from + end))
}

/// [`date_time_glue`] of a part that starts with the date.
fn date_time_glue_at(part: &str) -> Option<usize> {
    let c = DATE_TIME_GLUE.captures(part)?;
    let (first, second) = match (c.get(1), c.get(2), c.get(3), c.get(4)) {
        (Some(a), Some(b), _, _) | (_, _, Some(a), Some(b)) => (a, b),
        _ => return None,
    };
    // A year-first date may end with a dot of its own (`2024.01.26.20:53`, as Hungarian dates
    // are printed), with dots as its separators.
    let closing = c.get(5).is_some();
    if closing && first.as_str() != "." {
        return None;
    }
    let end = match c.get(1) {
        Some(_) => second.end() + 4,
        None => second.end() + 2 + usize::from(closing),
    };
    (first.as_str() == second.as_str()).then_some(end)
}

/// A group in parentheses of capitals, digits and dashes glued to capitals or a dot around it,
/// as OCR drops the spaces around parentheses (`CO.(M)BHD(126926-H)` for `CO. (M) BHD
/// (126926-H)`): split before and after each such group. Small letters keep a word whole
/// (`item(s)`, `Kg(2)` stays too: the group must follow a capital, a dot or another group).
fn paren_glue(part: &str) -> Option<Vec<&str>> {
    let b = part.as_bytes();
    let mut cuts: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'(' {
            i += 1;
            continue;
        }
        let Some(len) = b[i + 1..].iter().position(|&c| c == b')') else {
            break;
        };
        let j = i + 1 + len;
        let inner = &b[i + 1..j];
        let group = !inner.is_empty()
            && inner
                .iter()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'-');
        if group {
            if i > 0 && (b[i - 1].is_ascii_uppercase() || matches!(b[i - 1], b'.' | b')')) {
                cuts.push(i);
            }
            if b.get(j + 1)
                .is_some_and(|c| c.is_ascii_uppercase() || *c == b'(')
            {
                cuts.push(j + 1);
            }
        }
        i = j + 1;
    }
    if cuts.is_empty() {
        return None;
    }
    cuts.dedup();
    let mut parts = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for c in cuts {
        parts.push(&part[from..c]);
        from = c;
    }
    parts.push(&part[from..]);
    Some(parts)
}

/// How a quantity and its price are multiplied in print (`2 x 1.69`, `2×4.08`, `3 * 1,25`).
pub(crate) const MULTIPLICATION_SIGNS: [char; 4] = ['x', 'X', '×', '*'];

/// Splits the receipt notations an OCR engine may read without their spaces (PP-OCR reads
/// `2 x 4.08  8.16 A` as `2×4.08  8.16A`): a whole quantity, a multiplication sign and a price
/// with two decimals (`2×4.08` → `2` `×` `4.08`; `x2.34` → `x` `2.34`), and an amount with two
/// decimals followed by one capital, a tax code (`8.16A` → `8.16` `A`). Nothing else is split:
/// `3,5×25` (a size) and `B017532` stay whole. A tax label glued to its rate (`TVA20%`) is
/// split too.
fn unglue(part: &str) -> Vec<&str> {
    if let Some(parts) = paren_glue(part) {
        return parts;
    }
    let b = part.as_bytes();
    // Byte length of a price `\d+[.,]\d\d` at the start of `s`, if it is one.
    let price = |s: &[u8]| -> Option<usize> {
        let d = s.iter().take_while(|c| c.is_ascii_digit()).count();
        (d >= 1
            && s.len() >= d + 3
            && matches!(s[d], b'.' | b',')
            && s[d + 1].is_ascii_digit()
            && s[d + 2].is_ascii_digit())
        .then_some(d + 3)
    };
    let times = |s: &str| -> Option<usize> {
        MULTIPLICATION_SIGNS
            .into_iter()
            .find(|c| s.starts_with(*c))
            .map(char::len_utf8)
    };
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0
        && digits <= 3
        && let Some(t) = times(&part[digits..])
        && price(&b[digits + t..]) == Some(b.len() - digits - t)
    {
        return vec![
            &part[..digits],
            &part[digits..digits + t],
            &part[digits + t..],
        ];
    }
    if let Some(t) = times(part)
        && digits == 0
        && price(&b[t..]) == Some(b.len() - t)
    {
        return vec![&part[..t], &part[t..]];
    }
    if let Some(p) = price(b)
        && b.len() == p + 1
        && b[p].is_ascii_uppercase()
    {
        return vec![&part[..p], &part[p..]];
    }
    // `18-03-201811:23`, `2018-03-1811:23:05`: a date with the time glued on (PP-OCR reads the
    // gap between them as nothing).
    if let Some(split) = date_time_glue(part) {
        return vec![&part[..split], &part[split..]];
    }
    // `A22%4,21`, `A23%`, `5%4,75`: a VAT summary row's tax code, rate and base read as one
    // word (the code one capital, the rate of one or two digits, the base a price).
    if let Some(parts) = rate_glue(part, |s| grouped_price(s).or_else(|| price(s))) {
        return parts;
    }
    // `TVA20%`, `VAT19%`: a tax label glued to its rate.
    let letters = part
        .char_indices()
        .take_while(|(_, c)| c.is_alphabetic())
        .last()
        .map_or(0, |(i, c)| i + c.len_utf8());
    if part[..letters].chars().count() >= 2
        && let Some(rate) = part[letters..].strip_suffix('%')
        && (1..=5).contains(&rate.len())
        && rate.starts_with(|c: char| c.is_ascii_digit())
        && rate
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
    {
        return vec![&part[..letters], &part[letters..]];
    }
    // `ÖSSZESEN16.632`, `SUMA602,69`: a word of four letters or more glued to an amount with
    // two decimals or thousands grouped (a code's digits never carry a separator so).
    if part[..letters].chars().count() >= 4 && glued_amount(&b[letters..], price) {
        return vec![&part[..letters], &part[letters..]];
    }
    // `db263963,0000`, `óra276115,0000`: a quantity's printed unit glued to the unit price
    // after it (two to four decimals), OCR having read the column gap as nothing.
    if (2..=5).contains(&part[..letters].chars().count())
        && unit_price_digits(&b[letters..])
        && crate::einvoice::codes::unit_code_of_printed(&part[..letters]).is_some()
    {
        return vec![&part[..letters], &part[letters..]];
    }
    if part.is_empty() {
        Vec::new()
    } else {
        vec![part]
    }
}

/// Whether `s` is a price as a unit glued before it ([`unglue`]) leaves it: digits, one
/// separator and two to four decimals (`263963,0000`, `12.50`).
fn unit_price_digits(s: &[u8]) -> bool {
    let lead = s.iter().take_while(|c| c.is_ascii_digit()).count();
    let decimals = s.len().saturating_sub(lead + 1);
    lead >= 1
        && matches!(s.get(lead), Some(b'.' | b','))
        && (2..=4).contains(&decimals)
        && s[lead + 1..].iter().all(u8::is_ascii_digit)
}

/// Whether `s` is an amount as a word glued before it ([`unglue`]) leaves it: two decimals
/// after one separator (`602,69`), thousands grouped with two decimals (`1.234,56`), or whole
/// units grouped (`16.632`, `1,085,412`).
/// `price` gives the byte length of a price at the start of a slice (see [`unglue`]).
fn glued_amount(s: &[u8], price: impl Fn(&[u8]) -> Option<usize>) -> bool {
    let lead = s.iter().take_while(|c| c.is_ascii_digit()).count();
    let two = price(s) == Some(s.len());
    let whole = (1..=3).contains(&lead)
        && s.len() > lead
        && (s.len() - lead).is_multiple_of(4)
        && s[lead..].chunks(4).all(|g| {
            g[0] == s[lead] && matches!(g[0], b'.' | b',') && g[1..].iter().all(u8::is_ascii_digit)
        });
    two || whole || grouped_price(s).is_some()
}

/// Byte length of `s` if it is a whole price with thousands grouped (`3.837,60`, `1,234.50`,
/// `12.345.678,90`, a unit price's `1.192,0200`): one to three digits, groups of three behind
/// one separator, and two to four decimals behind the other. (A space between groups never
/// reaches here: it splits the word.)
fn grouped_price(s: &[u8]) -> Option<usize> {
    let lead = s.iter().take_while(|c| c.is_ascii_digit()).count();
    let group = *s.get(lead).filter(|c| matches!(c, b'.' | b','))?;
    let decimal = if group == b'.' { b',' } else { b'.' };
    if !(1..=3).contains(&lead) {
        return None;
    }
    let mut at = lead;
    let mut groups = 0;
    while s.get(at) == Some(&group)
        && s.len() >= at + 4
        && s[at + 1..at + 4].iter().all(u8::is_ascii_digit)
    {
        at += 4;
        groups += 1;
    }
    let whole = groups >= 1
        && (at + 3..=at + 5).contains(&s.len())
        && s[at] == decimal
        && s[at + 1..].iter().all(u8::is_ascii_digit);
    whole.then_some(s.len())
}

/// `[code]rate%[base]` with a code or a base or both (see [`unglue`]); `price` gives the byte
/// length of a price at the start of a slice.
fn rate_glue(part: &str, price: impl Fn(&[u8]) -> Option<usize>) -> Option<Vec<&str>> {
    let b = part.as_bytes();
    let code = usize::from(b.first().is_some_and(u8::is_ascii_uppercase));
    let digits = b[code..].iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=2).contains(&digits) {
        return None;
    }
    let mut at = code + digits;
    // A rate with decimals: `5,5%`, `2.1%`.
    if matches!(b.get(at), Some(b'.' | b',')) {
        let more = b[at + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if !(1..=2).contains(&more) {
            return None;
        }
        at += 1 + more;
    }
    if b.get(at) != Some(&b'%') {
        return None;
    }
    let rate_end = at + 1;
    let base = rate_end < b.len();
    // What follows the rate is a price and nothing else; a bare rate (`22%`) is no glue.
    if base && price(&b[rate_end..]) != Some(b.len() - rate_end) {
        return None;
    }
    if code == 0 && !base {
        return None;
    }
    let mut parts = Vec::with_capacity(3);
    if code == 1 {
        parts.push(&part[..1]);
    }
    parts.push(&part[code..rate_end]);
    if base {
        parts.push(&part[rate_end..]);
    }
    Some(parts)
}

/// Groups tokens of one page into lines (tokens left to right, lines top to bottom).
///
/// Near-linear: tokens come in order of their vertical centre, so a line that ends above the
/// current token by more than half the tallest token can take no later token and leaves the scan;
/// and in a line whose tokens came left to right (the usual case), the token nearest to a new one
/// further right is found by a binary search instead of a scan of the line.
pub fn build_lines(tokens: Vec<Token>, params: &CleanParams) -> Vec<Vec<Token>> {
    build_lines_shifted(tokens, params, &[])
}

/// [`build_lines`] with each token moved up or down by its `shifts` entry while lines are formed
/// and ordered (the lines of a page read a little askew, [`page_shear`]); tokens keep their boxes
/// as read. Without shifts, or with a count that does not match the tokens, none is moved.
pub fn build_lines_shifted(
    tokens: Vec<Token>,
    params: &CleanParams,
    shifts: &[f32],
) -> Vec<Vec<Token>> {
    let boxes: Vec<BBox> = if shifts.len() == tokens.len() {
        tokens
            .iter()
            .zip(shifts)
            .map(|(t, dy)| t.bbox.raised(*dy))
            .collect()
    } else {
        tokens.iter().map(|t| t.bbox).collect()
    };
    let mut slots: Vec<Option<Token>> = tokens.into_iter().map(Some).collect();
    group_lines(&boxes, params)
        .into_iter()
        .map(|g| g.into_iter().filter_map(|i| slots[i].take()).collect())
        .collect()
}

/// Indices of `boxes` grouped into lines: [`build_lines`]' algorithm, on boxes.
fn group_lines(boxes: &[BBox], params: &CleanParams) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| {
        boxes[a]
            .cy()
            .total_cmp(&boxes[b].cy())
            .then(boxes[a].x0.total_cmp(&boxes[b].x0))
    });
    let half_tallest = boxes.iter().map(BBox::height).fold(0f32, f32::max) / 2.0;
    let mut lines: Vec<Vec<usize>> = Vec::new();
    let mut extents: Vec<BBox> = Vec::new();
    let mut reach: Vec<Reach> = Vec::new();
    // Lines that may still take tokens, in line order.
    let mut active: Vec<usize> = Vec::new();
    for t in order {
        let tb = &boxes[t];
        // With a margin for rounding; a NaN floor keeps every line.
        let floor = tb.cy() - half_tallest * 1.001 - 0.01;
        active.retain(|&i| extents[i].y1.partial_cmp(&floor) != Some(std::cmp::Ordering::Less));
        // The line whose nearest token (horizontally) overlaps best vertically.
        let mut best: Option<(usize, f32)> = None;
        for &i in &active {
            if extents[i].y1 < tb.y0 || extents[i].y0 > tb.y1 {
                continue;
            }
            let line = &lines[i];
            let nearest = match reach[i].nearest(tb) {
                Some(k) => line.get(k).copied(),
                None => line.iter().copied().min_by(|&a, &b| {
                    h_distance(&boxes[a], tb).total_cmp(&h_distance(&boxes[b], tb))
                }),
            };
            let Some(nearest) = nearest.map(|k| &boxes[k]) else {
                continue;
            };
            let ov = nearest.v_overlap(tb);
            // Heights must be comparable too: a tall token spanning two lines is not on either.
            let hr = tb.height().max(1e-3) / nearest.height().max(1e-3);
            if ov >= params.min_v_overlap
                && (0.4..=2.5).contains(&hr)
                && !stacked(nearest, tb, ov)
                && best.is_none_or(|(_, b)| ov > b)
            {
                best = Some((i, ov));
            }
        }
        match best {
            Some((i, _)) => {
                extents[i] = extents[i].union(tb);
                reach[i].push(tb);
                lines[i].push(t);
            }
            None => {
                extents.push(*tb);
                let mut r = Reach::default();
                r.push(tb);
                reach.push(r);
                active.push(lines.len());
                lines.push(vec![t]);
            }
        }
    }
    for l in &mut lines {
        l.sort_by(|&a, &b| boxes[a].x0.total_cmp(&boxes[b].x0));
    }
    let top = |l: &[usize]| {
        // Median of the token centres: robust against one tall token.
        let mut ys: Vec<f32> = l.iter().map(|&k| boxes[k].cy()).collect();
        ys.sort_by(f32::total_cmp);
        ys.get(ys.len() / 2).copied().unwrap_or(0.0)
    };
    lines.sort_by(|a, b| top(a).total_cmp(&top(b)));
    lines
}

/// Whether `t` sits under (or over) its line's `nearest` token rather than beside it: most of
/// the narrower one's width shared, the two only partly level (the rows of a tight table whose
/// scanned boxes overlap). A token printed twice at one place (bold by overprinting) is level
/// with itself and stays.
fn stacked(nearest: &BBox, t: &BBox, v_overlap: f32) -> bool {
    nearest.h_overlap(t) > 0.5 && v_overlap < 0.8
}

/// The x about which [`page_shear`] turns a page: the mean centre of the boxes (0 for none, or
/// for boxes that are not finite).
fn shear_origin(boxes: &[BBox]) -> f32 {
    let (sum, n) = boxes
        .iter()
        .map(BBox::cx)
        .filter(|x| x.is_finite())
        .fold((0f32, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { sum / n as f32 }
}

/// Whether a page's `slope` moves its boxes by half a line or more across the width its words
/// span (a line: the boxes' median height).
fn moves_a_line(boxes: &[BBox], slope: f32) -> bool {
    let xs = boxes.iter().map(BBox::cx).filter(|x| x.is_finite());
    let (lo, hi) = xs.fold((f32::MAX, f32::MIN), |(a, b), x| (a.min(x), b.max(x)));
    median_size(boxes.iter().map(BBox::height).collect())
        .is_some_and(|h| hi > lo && slope.abs() * (hi - lo) >= 0.5 * h)
}

/// The steepest line slope [`page_shear`] looks for (rise per unit of width, about 2.9°).
const MAX_SHEAR: f32 = 0.05;

/// A slope smaller than this (about 0.3°) is left to the chained grouping of [`build_lines`].
const MIN_SHEAR: f32 = 0.004;

/// The fewest boxes a page needs for [`page_shear`] to estimate its slope.
const SHEAR_MIN_BOXES: usize = 12;

/// The slope of a page's text lines (rise per unit of width; positive where lines descend to the
/// right), from the centres of its words' boxes as the OCR gave them (a word, or a line's run of
/// words, is level in itself) by projection profile: the slope under which the centres,
/// moved up or down by it, fall into the fewest, fullest bands a third of a box's height
/// high, refined inside the lines it forms ([`within_line_slope`]). 0 where the page has too
/// few tokens, no slope beats "level" clearly (by 5 %, as the image deskew demands), or the
/// best is under [`MIN_SHEAR`]. For word boxes an OCR read off a
/// page it did not straighten (a receipt scanned askew); images the engine reads itself are
/// straightened before OCR.
pub fn page_shear(boxes: &[BBox]) -> f32 {
    let pts: Vec<(f32, f32)> = boxes
        .iter()
        .filter(|b| [b.x0, b.y0, b.x1, b.y1].iter().all(|v| v.is_finite()))
        .map(|b| (b.cx(), b.cy()))
        .collect();
    if pts.len() < SHEAR_MIN_BOXES {
        return 0.0;
    }
    let Some(h) = median_size(boxes.iter().map(BBox::height).collect()) else {
        return 0.0;
    };
    let band = h / 3.0;
    let x0 = shear_origin(boxes);
    let (y_min, y_max) = pts
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let reach = pts.iter().map(|p| (p.0 - x0).abs()).fold(0f32, f32::max) * MAX_SHEAR;
    let n = ((y_max - y_min + 2.0 * reach) / band) as usize + 2;
    // A page taller than this many bands (a spreadsheet of thousands of rows) is not turned.
    if n > 200_000 {
        return 0.0;
    }
    let mut bins = vec![0u32; n];
    let mut score = |slope: f32| -> f64 {
        bins.iter_mut().for_each(|b| *b = 0);
        for &(x, y) in &pts {
            let k = ((y - slope * (x - x0) - y_min + reach) / band) as usize;
            if let Some(b) = bins.get_mut(k) {
                *b += 1;
            }
        }
        bins.iter().map(|&c| f64::from(c) * f64::from(c)).sum()
    };
    let level = score(0.0);
    let (mut best, mut best_score) = (0.0f32, level);
    // Coarse steps of 0.005.
    for i in -10..=10 {
        let slope = i as f32 * MAX_SHEAR / 10.0;
        let s = score(slope);
        if s > best_score {
            (best, best_score) = (slope, s);
        }
    }
    // Then steps of 0.001 around the best.
    let coarse = best;
    for i in -4..=4 {
        let slope = coarse + i as f32 * 0.001;
        let s = score(slope);
        if s > best_score {
            (best, best_score) = (slope, s);
        }
    }
    if best_score < level * 1.05 || best.abs() < MIN_SHEAR {
        return 0.0;
    }
    let rough = Shear {
        slope: best,
        origin: x0,
    };
    let refined = within_line_slope(boxes, rough).unwrap_or(best);
    if refined.abs() < MIN_SHEAR {
        0.0
    } else {
        refined
    }
}

/// The slope of a page's lines measured inside them: the words grouped into lines under the
/// profile's slope (`rough`, about the profile's origin; bands a third of a box high tell it to
/// about 0.001, and an error of 0.001 moves the far end of an A4 line by two and a half pixels of
/// a 300 dpi scan, enough to join a label printed half a line above a value to it), then the median slope between
/// neighbouring words of one line of the same height at least a height apart (words of one
/// size sit on one baseline; a label joined to a value half a line lower, or a word of another
/// size, is outvoted). `None` where fewer than [`SHEAR_MIN_BOXES`] such pairs exist, or the
/// median leaves `rough` by more than one coarse step (lines formed wrongly).
fn within_line_slope(boxes: &[BBox], rough: Shear) -> Option<f32> {
    let straight: Vec<BBox> = boxes.iter().map(|b| rough.straighten(*b)).collect();
    let mut slopes: Vec<f32> = Vec::new();
    for line in group_lines(&straight, &CleanParams::default()) {
        for pair in line.windows(2) {
            let (a, b) = (&boxes[pair[0]], &boxes[pair[1]]);
            let (ha, hb) = (a.height(), b.height());
            let dx = b.cx() - a.cx();
            if ha > 0.0 && (hb / ha - 1.0).abs() <= 0.1 && dx >= ha.max(hb) {
                slopes.push((b.cy() - a.cy()) / dx);
            }
        }
    }
    slopes.retain(|s| s.is_finite());
    if slopes.len() < SHEAR_MIN_BOXES {
        return None;
    }
    slopes.sort_by(f32::total_cmp);
    let slope = slopes[slopes.len() / 2];
    ((slope - rough.slope).abs() <= MAX_SHEAR / 10.0).then_some(slope)
}

/// What [`build_lines`] keeps of a line's tokens to find the one nearest to a new token: while
/// the tokens came left to right (x0 never decreasing, all finite), the running maximum of their
/// right edges.
#[derive(Debug, Default)]
struct Reach {
    /// Tokens came out of order (or with a non-finite box): scan the line instead.
    unordered: bool,
    /// Largest x0 so far.
    last_x0: f32,
    /// Running maximum of x1, token by token.
    max_x1: Vec<f32>,
    /// First token with the largest x1.
    argmax: usize,
}

impl Reach {
    fn push(&mut self, b: &BBox) {
        let finite = [b.x0, b.x1, b.y0, b.y1].iter().all(|v| v.is_finite());
        if self.unordered || !finite || (!self.max_x1.is_empty() && b.x0 < self.last_x0) {
            self.unordered = true;
            self.max_x1 = Vec::new();
            return;
        }
        self.last_x0 = b.x0;
        let prev = self.max_x1.last().copied();
        if prev.is_none_or(|m| b.x1 > m) {
            self.argmax = self.max_x1.len();
        }
        self.max_x1.push(prev.map_or(b.x1, |m| m.max(b.x1)));
    }

    /// Index of the first token at the least horizontal distance from `t` (as a scan with
    /// [`h_distance`] finds it), when it can be told without a scan: every token of the line
    /// starts at or left of `t`, so the distance is how far `t` starts right of a token's end.
    fn nearest(&self, t: &BBox) -> Option<usize> {
        let finite = [t.x0, t.x1].iter().all(|v| v.is_finite());
        if self.unordered || self.max_x1.is_empty() || !finite || t.x0 < self.last_x0 || t.x1 < t.x0
        {
            return None;
        }
        // Tokens reaching t (distance 0): the first of them.
        let first_reaching = self.max_x1.partition_point(|&m| m < t.x0);
        if first_reaching < self.max_x1.len() {
            return Some(first_reaching);
        }
        // None reaches: the one ending furthest right.
        Some(self.argmax)
    }
}

fn h_distance(a: &BBox, b: &BBox) -> f32 {
    if a.x1 < b.x0 {
        b.x0 - a.x1
    } else if b.x1 < a.x0 {
        a.x0 - b.x1
    } else {
        0.0
    }
}

/// Builds a [`Line`] from its tokens (text joined with one space, two at column gaps).
pub fn make_line(page: u32, index: usize, tokens: Vec<Token>, params: &CleanParams) -> Line {
    let mut text = String::new();
    let mut spans = Vec::with_capacity(tokens.len());
    let mut bbox: Option<BBox> = None;
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            let prev = &tokens[i - 1];
            let gap = t.bbox.x0 - prev.bbox.x1;
            let h = prev.bbox.height().min(t.bbox.height()).max(1e-3);
            text.push_str(if gap > params.column_gap * h {
                "  "
            } else {
                " "
            });
        }
        let start = text.len();
        text.push_str(&t.text);
        spans.push((start, text.len()));
        bbox = Some(match bbox {
            Some(b) => b.union(&t.bbox),
            None => t.bbox,
        });
    }
    Line {
        page,
        index,
        bbox: bbox.unwrap_or_default(),
        tokens,
        text,
        token_spans: spans,
    }
}

fn ends_hyphenated(line: &[Token]) -> bool {
    line.last().is_some_and(|t| {
        let mut cs = t.text.chars().rev();
        cs.next() == Some('-')
            && cs.next().is_some_and(char::is_alphabetic)
            && t.text.chars().count() >= 3
    })
}

fn starts_lowercase_word(line: &[Token]) -> bool {
    line.first().is_some_and(|t| {
        t.text.chars().next().is_some_and(char::is_lowercase)
            && t.text
                .chars()
                .all(|c| c.is_alphabetic() || ".,;:!?)".contains(c))
    })
}

/// Joins words broken across lines with a hyphen (see the module docs).
pub fn dehyphenate(lines: &mut Vec<Vec<Token>>) {
    for i in 0..lines.len().saturating_sub(1) {
        if ends_hyphenated(&lines[i]) && starts_lowercase_word(&lines[i + 1]) {
            let cont = lines[i + 1].remove(0);
            if let Some(last) = lines[i].last_mut() {
                last.text.pop();
                last.text.push_str(&cont.text);
            }
        }
    }
    lines.retain(|l| !l.is_empty());
}

/// Cleans raw pages into lines of tokens, with default parameters.
pub fn clean(pages: &[TextPage]) -> CleanDocument {
    clean_with(pages, &CleanParams::default())
}

/// Most tokens of one line: a printed line holds far fewer (a wide invoice table row, a few
/// dozen); longer runs (a spreadsheet row of thousands of cells, hostile input) are cut into
/// consecutive lines of this many tokens, which bounds the work later stages do per line.
const MAX_LINE_TOKENS: usize = 256;

/// Cleans raw pages into lines of tokens.
pub fn clean_with(pages: &[TextPage], params: &CleanParams) -> CleanDocument {
    let mut doc = CleanDocument::default();
    for p in pages {
        // Word boxes of an OCR that did not straighten the page (text layers and office
        // documents are level) form lines along the page's slope, each box moved with its
        // centre. Where the slope moves a box by half a line or more across the page, the boxes
        // stay straightened, so that every later stage (columns, a value right of its label,
        // blocks) sees the page as printed; the evidence maps them back ([`Shear::as_read`]).
        // A slighter slope (a receipt scanned a little askew) moves no box far enough for a
        // stage to tell, and its boxes stay as read.
        let (shear, straighten) = if p.source == Source::Ocr {
            let boxes: Vec<BBox> = p.words.iter().map(|w| w.bbox).collect();
            let shear = Shear {
                slope: page_shear(&boxes),
                origin: shear_origin(&boxes),
            };
            (
                shear,
                shear.slope != 0.0 && moves_a_line(&boxes, shear.slope),
            )
        } else {
            (Shear::default(), false)
        };
        doc.pages.push(PageInfo {
            page: p.page,
            width: p.width,
            height: p.height,
            unit: p.unit,
            source: p.source,
            engine: p.engine,
            shear: if straighten { shear } else { Shear::default() },
        });
        let mut tokens: Vec<Token> = Vec::new();
        let mut shifts: Vec<f32> = Vec::new();
        for w in &p.words {
            let bbox = if straighten {
                shear.straighten(w.bbox)
            } else {
                w.bbox
            };
            let parts = split_word(&w.text, bbox, w.confidence.clamp(0.0, 1.0));
            if shear.slope != 0.0 && !straighten {
                shifts.extend(std::iter::repeat_n(shear.shift(w.bbox.cx()), parts.len()));
            }
            tokens.extend(parts);
        }
        let mut lines = build_lines_shifted(tokens, params, &shifts);
        dehyphenate(&mut lines);
        for l in lines {
            // A line longer than any printed one (a spreadsheet row of thousands of cells) is cut
            // into consecutive lines, so that work done per line stays bounded.
            let mut tokens = l.into_iter().peekable();
            while tokens.peek().is_some() {
                let part: Vec<Token> = tokens.by_ref().take(MAX_LINE_TOKENS).collect();
                let index = doc.lines.len();
                doc.lines.push(make_line(p.page, index, part, params));
            }
        }
    }
    doc
}

#[cfg(test)]
mod tests {
    #[test]
    fn greek_look_alikes_inside_latin_words_are_latin() {
        assert_eq!(normalize_text("Q.tà: 0,5ρz"), "Q.tà: 0,5pz");
        assert_eq!(normalize_text("\u{039D}r. 12"), "Nr. 12");
        // Greek words, and a word with a letter no Latin one looks like, stay as read.
        assert_eq!(normalize_text("Τιμολόγιο αρ. 5"), "Τιμολόγιο αρ. 5");
        assert_eq!(normalize_text("λz"), "λz");
    }

    use super::*;
    use crate::types::{Source, Unit, Word};

    fn w(text: &str, x0: f32, y0: f32, x1: f32, y1: f32) -> Word {
        Word {
            text: text.into(),
            bbox: BBox::new(x0, y0, x1, y1),
            confidence: 1.0,
        }
    }

    /// A word of `width` x `height` whose box a page read askew by `slope` put `slope * x` lower
    /// than its level place at (`x`, `y`).
    fn askew(text: &str, x: f32, y: f32, width: f32, height: f32, slope: f32) -> Word {
        let y = y + slope * x;
        w(text, x, y, x + width, y + height)
    }

    fn page(words: Vec<Word>) -> TextPage {
        TextPage {
            page: 1,
            width: 600.0,
            height: 800.0,
            unit: Unit::Pt,
            source: Source::TextLayer,
            engine: None,
            rotation: 0,
            words,
        }
    }

    #[test]
    fn overlong_lines_are_cut_into_consecutive_lines() {
        let n = MAX_LINE_TOKENS * 2 + 10;
        let words: Vec<Word> = (0..n)
            .map(|i| {
                let x = i as f32 * 3.0;
                w(&format!("w{i}"), x, 10.0, x + 2.0, 20.0)
            })
            .collect();
        let mut p = page(words);
        p.width = n as f32 * 3.0;
        let doc = clean(&[p]);
        let sizes: Vec<usize> = doc.lines.iter().map(|l| l.tokens.len()).collect();
        assert_eq!(sizes, [MAX_LINE_TOKENS, MAX_LINE_TOKENS, 10]);
        let texts: Vec<&str> = doc
            .lines
            .iter()
            .flat_map(|l| l.tokens.iter().map(|t| t.text.as_str()))
            .collect();
        assert_eq!(texts.len(), n);
        assert!(texts.iter().enumerate().all(|(i, t)| *t == format!("w{i}")));
        assert!(doc.lines.iter().enumerate().all(|(i, l)| l.index == i));
    }

    #[test]
    fn normalises_unicode() {
        assert_eq!(
            normalize_text("ﬁle\u{00A0}12\u{2212}3\u{00AD}"),
            "file 12-3"
        );
        assert_eq!(normalize_text("Ｒｅｃｈｎｕｎｇ"), "Rechnung");
    }

    #[test]
    fn low_quote_next_to_a_digit_is_a_comma() {
        assert_eq!(normalize_text("169 \u{201A}52 EUR"), "169 ,52 EUR");
        assert_eq!(normalize_text("12\u{201A}50"), "12,50");
        assert_eq!(
            normalize_text("\u{201A}Wort\u{2018} 3"),
            "\u{201A}Wort\u{2018} 3"
        );
    }

    #[test]
    fn receipt_notations_read_without_spaces_are_split() {
        let texts = |s: &str| -> Vec<String> {
            split_word(s, BBox::new(0.0, 0.0, 100.0, 10.0), 0.9)
                .into_iter()
                .map(|t| t.text)
                .collect()
        };
        assert_eq!(texts("2×4.08 8.16A"), ["2", "×", "4.08", "8.16", "A"]);
        assert_eq!(texts("1 x2.34"), ["1", "x", "2.34"]);
        assert_eq!(texts("12X1,50"), ["12", "X", "1,50"]);
        assert_eq!(texts("TVA20%"), ["TVA", "20%"]);
        // A VAT summary row's code, rate and base.
        assert_eq!(texts("A22%4,21 0,93"), ["A", "22%", "4,21", "0,93"]);
        assert_eq!(texts("A23% 8,44"), ["A", "23%", "8,44"]);
        assert_eq!(texts("5,5%12.40"), ["5,5%", "12.40"]);
        // An item row's rate glued to its amount, thousands grouped.
        assert_eq!(texts("20%3.837,60"), ["20%", "3.837,60"]);
        assert_eq!(texts("19%1,234.50"), ["19%", "1,234.50"]);
        assert_eq!(texts("7%12.345.678,90"), ["7%", "12.345.678,90"]);
        assert_eq!(texts("20%3.837,6"), ["20%3.837,6"]);
        assert_eq!(texts("20%3.83,60"), ["20%3.83,60"]);
        // Not a rate: kept whole.
        assert_eq!(texts("22%"), ["22%"]);
        assert_eq!(texts("A123%"), ["A123%"]);
        assert_eq!(texts("B22%4"), ["B22%4"]);
        assert_eq!(texts("18-03-201811:23"), ["18-03-2018", "11:23"]);
        assert_eq!(texts("1/3/20189:05:33"), ["1/3/2018", "9:05:33"]);
        assert_eq!(texts("2018-03-1811:23:05"), ["2018-03-18", "11:23:05"]);
        // A year-first date with its own closing dot (Hungarian), the time glued after it.
        assert_eq!(texts("2024.01.26.20:53"), ["2024.01.26.", "20:53"]);
        assert_eq!(texts("2024.01.2620:53"), ["2024.01.26", "20:53"]);
        // After a label or a field glued on before the date.
        assert_eq!(
            texts("Date:2016/05/0114:11:20"),
            ["Date:2016/05/01", "14:11:20"]
        );
        assert_eq!(
            texts("002-2016/05/0114:13:10"),
            ["002-2016/05/01", "14:13:10"]
        );
        for whole in [
            "2024-01-26.20:53",
            "18-03-2018",
            "18-03-201811",
            "18.03/201811:23",
            "18-03-20181:2",
            "11:23",
        ] {
            assert_eq!(texts(whole), [whole], "{whole}");
        }
        assert_eq!(
            texts("MwSt.19%"),
            ["MwSt.19%"],
            "only letters before the rate"
        );
        assert_eq!(texts("USt7,5%"), ["USt", "7,5%"]);
        // A word glued to an amount: two decimals or thousands grouped.
        assert_eq!(texts("ÖSSZESEN16.632 Ft"), ["ÖSSZESEN", "16.632", "Ft"]);
        assert_eq!(texts("SUMA602,69"), ["SUMA", "602,69"]);
        assert_eq!(texts("Total1.234,56"), ["Total", "1.234,56"]);
        // A name glued to a unit price of four decimals, its thousands grouped.
        assert_eq!(
            texts("consultanță1.192,0200"),
            ["consultanță", "1.192,0200"]
        );
        // A quantity's unit glued to the unit price after it.
        assert_eq!(texts("1,00 db263963,0000"), ["1,00", "db", "263963,0000"]);
        assert_eq!(texts("óra276115,0000"), ["óra", "276115,0000"]);
        assert_eq!(texts("kg12,50"), ["kg", "12,50"]);
        for whole in ["EUR12,50", "Nr12,50", "db2024", "kg1,5"] {
            assert_eq!(texts(whole), [whole], "{whole}");
        }
        // Codes and short prefixes stay whole.
        for whole in ["ABC12.50", "INV2024", "Line9607", "RE2024.001", "Item12.3"] {
            assert_eq!(texts(whole), [whole], "{whole}");
        }
        // Parentheses glued to capitals.
        assert_eq!(
            texts("CO.(M)BHD(126926-H)"),
            ["CO.", "(M)", "BHD", "(126926-H)"]
        );
        assert_eq!(texts("BHD(KL)"), ["BHD", "(KL)"]);
        for whole in ["item(s)", "Kg(2)", "(SP}", "(M)", "f(x)y"] {
            assert_eq!(texts(whole), [whole], "{whole}");
        }
        for whole in [
            "3,5×25", "B017532", "4x4", "2x4.085", "8.16AB", "x2", "A8.16",
        ] {
            assert_eq!(texts(whole), [whole], "{whole}");
        }
        // The pieces divide the word's box.
        let t = split_word("2×4.08", BBox::new(0.0, 0.0, 60.0, 10.0), 0.9);
        assert_eq!((t[0].bbox.x0, t[0].bbox.x1), (0.0, 10.0));
        assert_eq!((t[2].bbox.x0, t[2].bbox.x1), (20.0, 60.0));
    }

    #[test]
    fn splits_words_with_spaces_keeping_boxes() {
        let t = split_word("ab cd", BBox::new(0.0, 0.0, 50.0, 10.0), 0.9);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].text, "ab");
        assert_eq!(t[1].text, "cd");
        assert!((t[0].bbox.x1 - 20.0).abs() < 1e-3);
        assert!((t[1].bbox.x0 - 30.0).abs() < 1e-3);
        assert_eq!(t[1].confidence, 0.9);
    }

    #[test]
    fn builds_lines_in_reading_order() {
        // Two lines, words given out of order, second line slightly skewed.
        let doc = clean(&[page(vec![
            w("Total", 10.0, 100.0, 40.0, 110.0),
            w("Invoice", 10.0, 10.0, 50.0, 20.0),
            w("12,00", 300.0, 101.5, 330.0, 111.5),
            w("No.", 55.0, 10.5, 70.0, 20.5),
            w("5", 75.0, 11.0, 80.0, 21.0),
        ])]);
        assert_eq!(doc.lines.len(), 2);
        assert_eq!(doc.lines[0].text, "Invoice No. 5");
        // Wide gap → two spaces.
        assert_eq!(doc.lines[1].text, "Total  12,00");
        let (s, e) = doc.lines[1].token_spans[1];
        assert_eq!(&doc.lines[1].text[s..e], "12,00");
        assert_eq!(doc.lines[1].index, 1);
        assert_eq!(doc.lines[1].page, 1);
    }

    #[test]
    fn skewed_line_stays_one_line() {
        let mut words = Vec::new();
        for i in 0..10 {
            let x = 10.0 + i as f32 * 40.0;
            let y = 100.0 + i as f32 * 2.0; // 2 px drift per word
            words.push(w(&format!("w{i}"), x, y, x + 30.0, y + 10.0));
        }
        words.push(w("next", 10.0, 125.0, 40.0, 135.0));
        let doc = clean(&[page(words)]);
        assert_eq!(doc.lines[0].tokens.len(), 10, "{:?}", doc.plain_text());
        assert_eq!(doc.lines[1].text, "next");
    }

    #[test]
    fn rows_of_a_tight_table_whose_boxes_overlap_stay_apart() {
        // A scan's boxes taller than the glyphs: the second row's amounts overlap the first
        // row's by half their height, each under its column's amount; a tall rate box spans both.
        let doc = clean(&[page(vec![
            w("23%", 291.0, 82.0, 317.0, 116.0),
            w("2257,94", 361.0, 83.0, 399.0, 103.0),
            w("519,33", 451.0, 83.0, 483.0, 103.0),
            w("2777,27", 530.0, 83.0, 566.0, 103.0),
            w("70,12", 371.0, 93.0, 398.0, 112.0),
            w("3,51", 461.0, 93.0, 481.0, 112.0),
            w("73,63", 542.0, 93.0, 566.0, 112.0),
        ])]);
        let texts: Vec<&str> = doc.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            ["23%  2257,94  519,33  2777,27", "70,12  3,51  73,63"]
        );
        // A word printed twice at one place (overprinted bold) stays one line.
        let doc = clean(&[page(vec![
            w("Total", 10.0, 10.0, 40.0, 20.0),
            w("Total", 10.3, 10.2, 40.3, 20.2),
            w("9,00", 60.0, 10.0, 80.0, 20.0),
        ])]);
        assert_eq!(doc.lines.len(), 1);
    }

    #[test]
    fn joins_hyphenated_words() {
        let doc = clean(&[page(vec![
            w("Dienst-", 10.0, 10.0, 50.0, 20.0),
            w("leistung", 10.0, 25.0, 50.0, 35.0),
            w("erbracht", 55.0, 25.0, 90.0, 35.0),
            w("Müller-", 10.0, 40.0, 50.0, 50.0),
            w("Lüdenscheidt", 10.0, 55.0, 70.0, 65.0),
        ])]);
        let text = doc.plain_text();
        assert!(text.starts_with("Dienstleistung\nerbracht\n"), "{text}");
        assert!(text.contains("Müller-\nLüdenscheidt"), "{text}");
    }

    #[test]
    fn keeps_pages_apart() {
        let mut p2 = page(vec![w("B", 10.0, 10.0, 20.0, 20.0)]);
        p2.page = 2;
        let doc = clean(&[page(vec![w("A", 10.0, 10.0, 20.0, 20.0)]), p2]);
        assert_eq!(doc.lines.len(), 2);
        assert_eq!(doc.lines[1].page, 2);
        assert_eq!(doc.plain_text(), "A\n\u{c}B\n");
        assert_eq!(doc.pages.len(), 2);
    }

    /// The grouping of the scan the fast paths replace, for comparison.
    fn line_top(l: &[Token]) -> f32 {
        // Median of the token centres: robust against one tall token.
        let mut ys: Vec<f32> = l.iter().map(|t| t.bbox.cy()).collect();
        ys.sort_by(f32::total_cmp);
        ys.get(ys.len() / 2).copied().unwrap_or(0.0)
    }

    fn build_lines_by_scan(tokens: Vec<Token>, params: &CleanParams) -> Vec<Vec<Token>> {
        let mut tokens = tokens;
        tokens.sort_by(|a, b| {
            a.bbox
                .cy()
                .total_cmp(&b.bbox.cy())
                .then(a.bbox.x0.total_cmp(&b.bbox.x0))
        });
        let mut lines: Vec<Vec<Token>> = Vec::new();
        let mut extents: Vec<BBox> = Vec::new();
        for t in tokens {
            let mut best: Option<(usize, f32)> = None;
            for (i, line) in lines.iter().enumerate() {
                if extents[i].y1 < t.bbox.y0 || extents[i].y0 > t.bbox.y1 {
                    continue;
                }
                let nearest = line
                    .iter()
                    .min_by(|a, b| {
                        h_distance(&a.bbox, &t.bbox).total_cmp(&h_distance(&b.bbox, &t.bbox))
                    })
                    .unwrap();
                let ov = nearest.bbox.v_overlap(&t.bbox);
                let hr = t.bbox.height().max(1e-3) / nearest.bbox.height().max(1e-3);
                if ov >= params.min_v_overlap
                    && (0.4..=2.5).contains(&hr)
                    && !stacked(&nearest.bbox, &t.bbox, ov)
                    && best.is_none_or(|(_, b)| ov > b)
                {
                    best = Some((i, ov));
                }
            }
            match best {
                Some((i, _)) => {
                    extents[i] = extents[i].union(&t.bbox);
                    lines[i].push(t);
                }
                None => {
                    extents.push(t.bbox);
                    lines.push(vec![t]);
                }
            }
        }
        for l in &mut lines {
            l.sort_by(|a, b| a.bbox.x0.total_cmp(&b.bbox.x0));
        }
        lines.sort_by(|a, b| line_top(a).total_cmp(&line_top(b)));
        lines
    }

    /// A till slip read askew by an OCR that did not straighten it: label left, amount right,
    /// the amount a line's height lower than its label (1.7 degrees over 500 px), the next
    /// label just as low. Level, the amounts join the wrong labels; turned by the page's
    /// slope, every label keeps its amount, the boxes are straightened for the stages, and the
    /// evidence puts them back where the input had them.
    #[test]
    fn lines_of_a_page_read_askew_keep_their_amounts() {
        let slope = 0.03f32;
        let mut words = Vec::new();
        for (i, (label, amount)) in [
            ("SUBTOTAL", "21.30"),
            ("TAX", "1.31"),
            ("ROUNDING", "-0.01"),
            ("TOTAL", "23.25"),
            ("CASH", "50.00"),
            ("CHANGE", "26.75"),
            ("ITEMS", "3"),
            ("QTY", "3"),
        ]
        .iter()
        .enumerate()
        {
            let y = 100.0 + i as f32 * 16.0;
            for (x, text) in [(20.0, *label), (520.0, *amount)] {
                words.push(askew(text, x, y, 60.0, 12.0, slope));
            }
        }
        let mut level = page(words.clone());
        level.source = Source::Ocr;
        let boxes: Vec<BBox> = words.iter().map(|w| w.bbox).collect();
        let shear = page_shear(&boxes);
        assert!((shear - slope).abs() <= 0.002, "{shear}");
        let doc = clean(&[level]);
        let texts: Vec<&str> = doc.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts[3], "TOTAL  23.25", "{texts:?}");
        assert_eq!(texts.len(), 8, "{texts:?}");
        let (label, amount) = (&doc.lines[3].tokens[0].bbox, &doc.lines[3].tokens[1].bbox);
        assert!((label.y0 - amount.y0).abs() < 0.1, "{label:?} {amount:?}");
        assert!((doc.pages[0].shear.slope - slope).abs() < 1e-4);
        let span = crate::types::Span::from_line(&doc.lines[3], 7, 12);
        assert_eq!(span.text, "23.25");
        let read = span.evidence(&doc).unwrap().bbox;
        let want = words[7].bbox.to_array();
        assert!(
            read.iter().zip(want).all(|(a, b)| (a - b).abs() < 0.01),
            "{read:?} {want:?}"
        );
        // Text layers are level: the same words from one are not turned.
        let doc = clean(&[page(words)]);
        assert_ne!(doc.lines[3].text, "TOTAL  23.25");
        // A level page, or too few words, has no slope.
        let flat: Vec<BBox> = (0..20)
            .map(|i| {
                let (x, y) = (20.0 + (i % 2) as f32 * 500.0, (i / 2) as f32 * 16.0);
                BBox::new(x, y, x + 60.0, y + 12.0)
            })
            .collect();
        assert_eq!(page_shear(&flat), 0.0);
        assert_eq!(page_shear(&boxes[..4]), 0.0);
    }

    /// A slip read a little askew (its words moved by less than half a line across it) forms
    /// lines along its slope and keeps its boxes as read: straightening would move no box far
    /// enough for a later stage to tell.
    #[test]
    fn a_slight_slope_keeps_the_boxes_as_read() {
        let slope = 0.04f32;
        let mut words = Vec::new();
        for i in 0..10 {
            let y = 100.0 + i as f32 * 30.0;
            for (x, text) in [(20.0, "ITEM"), (200.0, "1.00")] {
                words.push(askew(text, x, y, 40.0, 20.0, slope));
            }
        }
        let boxes: Vec<BBox> = words.iter().map(|w| w.bbox).collect();
        // Found (two words a line tell it roughly), and under half a line across the slip.
        let found = page_shear(&boxes);
        assert!(found > 0.01 && found * 180.0 < 10.0, "{found}");
        let mut read = page(words.clone());
        read.source = Source::Ocr;
        let doc = clean(&[read]);
        assert_eq!(doc.lines.len(), 10);
        assert_eq!(doc.pages[0].shear, Shear::default());
        assert_eq!(doc.lines[0].tokens[1].bbox, words[1].bbox);
    }

    /// The slope is measured to well under the profile's step of 0.001, inside the lines it
    /// forms: straightened by it, a label printed a little under half a line above a value's
    /// row (its words 2000 px to the right) stays a line of its own, as it was printed.
    #[test]
    fn a_pages_slope_is_measured_inside_its_lines() {
        let slope = 0.0315f32;
        let mut words = Vec::new();
        for row in 0..12 {
            let y = 100.0 + row as f32 * 60.0;
            for k in 0..8 {
                let x = 100.0 + k as f32 * 260.0;
                words.push(askew("Wort", x, y, 230.0, 44.0, slope));
            }
        }
        // The label: 22.5 px above the next row (overlapping it by 21.5 of 44 px, under half).
        words.push(askew("Zahlung", 100.0, 797.5, 230.0, 44.0, slope));
        for k in 1..8 {
            let x = 100.0 + k as f32 * 260.0;
            words.push(askew("1242", x, 820.0, 230.0, 44.0, slope));
        }
        let boxes: Vec<BBox> = words.iter().map(|w| w.bbox).collect();
        let found = page_shear(&boxes);
        assert!((found - slope).abs() < 2e-4, "{found}");
        let mut read = page(words);
        read.source = Source::Ocr;
        let doc = clean(&[read]);
        let texts: Vec<&str> = doc.lines.iter().map(|l| l.text.as_str()).collect();
        assert!(texts.contains(&"Zahlung"), "{texts:?}");
        assert_eq!(texts.last(), Some(&"1242 1242 1242 1242 1242 1242 1242"));
    }

    #[test]
    fn fast_grouping_matches_the_scan() {
        // Pseudo-random tokens: jittered rows, overlapping and out-of-order boxes, tall ones.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 10_000) as f32 / 10.0
        };
        for round in 0..30 {
            let n = 50 + round * 20;
            let tokens: Vec<Token> = (0..n)
                .map(|i| {
                    let (x0, row, jitter) = (next(), (next() / 60.0).floor(), next() / 200.0);
                    let h = if i % 17 == 0 {
                        40.0
                    } else {
                        8.0 + next() / 500.0
                    };
                    let y0 = row * 12.0 + jitter;
                    Token {
                        text: format!("t{i}"),
                        bbox: BBox::new(x0, y0, x0 + 5.0 + next() / 50.0, y0 + h),
                        confidence: 1.0,
                    }
                })
                .collect();
            let p = CleanParams::default();
            let texts = |ls: Vec<Vec<Token>>| -> Vec<Vec<String>> {
                ls.into_iter()
                    .map(|l| l.into_iter().map(|t| t.text).collect())
                    .collect()
            };
            assert_eq!(
                texts(build_lines(tokens.clone(), &p)),
                texts(build_lines_by_scan(tokens, &p)),
                "round {round}"
            );
        }
    }

    #[test]
    fn grouping_time_grows_linearly() {
        // Rows of a long table, and one very long line.
        let rows = |n: usize| -> Vec<Token> {
            (0..n)
                .flat_map(|r| {
                    (0..4).map(move |c| Token {
                        text: format!("{r}.{c}"),
                        bbox: BBox::new(
                            c as f32 * 100.0,
                            r as f32 * 14.0,
                            c as f32 * 100.0 + 40.0,
                            r as f32 * 14.0 + 10.0,
                        ),
                        confidence: 1.0,
                    })
                })
                .collect()
        };
        let line = |n: usize| -> Vec<Token> {
            (0..n)
                .map(|i| Token {
                    text: "w".into(),
                    bbox: BBox::new(i as f32 * 6.0, 0.0, i as f32 * 6.0 + 5.0, 10.0),
                    confidence: 1.0,
                })
                .collect()
        };
        let p = CleanParams::default();
        for (what, make) in [
            ("rows", &rows as &dyn Fn(usize) -> Vec<Token>),
            ("one line", &line),
        ] {
            let (small, big) = (make(2_000), make(16_000));
            let best = |t: &Vec<Token>| {
                (0..3)
                    .map(|_| {
                        let s = std::time::Instant::now();
                        build_lines(t.clone(), &p);
                        s.elapsed()
                    })
                    .min()
                    .unwrap()
            };
            let (t1, t8) = (best(&small), best(&big));
            let ratio = t8.as_secs_f64() / t1.as_secs_f64().max(0.002);
            assert!(ratio < 24.0, "{what}: {ratio:.1}x ({t1:?} -> {t8:?})");
        }
    }

    #[test]
    fn empty_input_is_empty() {
        let doc = clean(&[page(vec![w("   ", 0.0, 0.0, 1.0, 1.0)])]);
        assert!(doc.lines.is_empty());
        assert_eq!(doc.pages.len(), 1);
    }
}
