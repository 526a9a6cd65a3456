//! Line-item tables from word geometry.
//!
//! 1. A header line holds at least three column header words of different kinds (or a
//!    description and an amount column) and little else.
//! 2. Columns take the x-ranges of their header words; a header printed over several lines is
//!    read as stacks of words printed over one another, each stack one column's name.
//! 3. Each token of a body line goes to the column its box overlaps most; where it overlaps none,
//!    text goes to the column starting left of it (left-aligned) and numbers to the column ending
//!    right of it (right-aligned).
//! 4. A line with a number in a quantity/price/amount column starts a row; a text-only line
//!    continues the description of the row above (or, before the first row, of the next one).
//! 5. The table ends at a totals label, another header, a page change, or a vertical gap of more
//!    than four header heights.

use super::labels::{self, LabelHit, LabelKey};
use super::{amounts, dates, rows};
use crate::types::{BBox, CleanDocument, Line, Span, Token};
use rust_decimal::Decimal;

/// A column: header kind and x-range.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Header kind.
    pub key: LabelKey,
    /// Left edge.
    pub x0: f32,
    /// Right edge.
    pub x1: f32,
}

/// One cell: column kind, text, where it was printed.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Column kind.
    pub key: LabelKey,
    /// Text (tokens joined by spaces; continuation lines joined by spaces).
    pub text: String,
    /// Where (first line of the cell).
    pub span: Span,
    /// The cell's first amount in the document's number style (set by [`super::extract`]).
    pub amount: Option<Decimal>,
}

/// What a row was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowSource {
    /// The columns of a header row ([`find_tables`]).
    #[default]
    Header,
    /// Its own arithmetic: quantity x unit price = amount ([`super::rows`]).
    Balanced,
    /// An amount in the amount column of balanced rows, without arithmetic of its own.
    Aligned,
}

/// A table row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Line indices.
    pub lines: Vec<usize>,
    /// Cells.
    pub cells: Vec<Cell>,
    /// What the row was read from.
    pub source: RowSource,
}

impl Row {
    /// The cell of a column kind.
    pub fn cell(&self, key: LabelKey) -> Option<&Cell> {
        self.cells.iter().find(|c| c.key == key)
    }

    /// Whether the row prints a name of its own: a description with a letter (not only an
    /// article number, nor a tax summary's amount under a `Goods value` column).
    pub fn named(&self) -> bool {
        self.cell(LabelKey::ColDesc)
            .is_some_and(|c| c.text.chars().any(char::is_alphabetic))
    }
}

/// A reconstructed table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableLayout {
    /// Header line index.
    pub header_line: usize,
    /// Columns left to right.
    pub columns: Vec<Column>,
    /// Rows.
    pub rows: Vec<Row>,
    /// Line index after the last body line.
    pub end_line: usize,
    /// The rows' amounts sum to an amount the document prints under them.
    pub sums: bool,
}

fn is_numeric_token(t: &str) -> bool {
    let digits = t.chars().filter(char::is_ascii_digit).count();
    digits > 0
        && digits * 2 >= t.chars().filter(|c| c.is_alphanumeric()).count()
        && !t.chars().any(char::is_alphabetic)
        || amounts::currency_of_word(t).is_some()
        || t == "%"
}

/// Whether the text from `at` is column names (three fifths of its letters or more): a
/// header's, not a value's (`Consulting services (day rate)` holds two column words).
pub(super) fn column_names_cover(text: &str, hits: &[labels::LabelHit], at: usize) -> bool {
    let letters = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).count();
    let named: usize = hits
        .iter()
        .filter(|h| h.start >= at && h.key.is_column())
        .map(|h| letters(&text[h.start..h.end]))
        .sum();
    named * 5 >= letters(&text[at..]) * 3
}

/// A header line's label hits, each inside one phrase: where a hit spans a column gap
/// (`Suma  Su PVM`, two columns' names read as one label), every phrase is read on its own.
fn header_hits(text: &str) -> Vec<labels::LabelHit> {
    let hits = labels::find_labels(text);
    if !hits.iter().any(|h| text[h.start..h.end].contains("  ")) {
        return hits;
    }
    let mut out = Vec::new();
    let mut at = 0;
    for phrase in text.split("  ") {
        for mut h in labels::find_labels(phrase) {
            h.start += at;
            h.end += at;
            out.push(h);
        }
        at += phrase.len() + 2;
    }
    out
}

/// Column header hits of a line, if it is a table header.
fn header_columns(line: &Line) -> Option<Vec<Column>> {
    let mut hits = header_hits(&line.text);
    // A column's name opening the line with a colon, then a value (`Description:  Consulting
    // services (day rate)`): an item block's line, no header (`Pos:  Bezeichnung  Menge` is).
    if let Some(first) = hits
        .iter()
        .filter(|h| h.key.is_column())
        .min_by_key(|h| h.start)
        && line.text[..first.start].trim().is_empty()
        && let Some(after) = line.text[first.end..].strip_prefix(':')
        && !column_names_cover(&line.text, &hits, line.text.len() - after.len())
    {
        return None;
    }
    // Beside column names, a net total's words printed as a phrase of their own name the net
    // amount column (`Popis  %  bez DPH`: description, rate, amount without VAT; not the
    // `bez DPH` of `Cena bez DPH`).
    if hits.iter().any(|h| h.key.is_column()) {
        for h in &mut hits {
            let own_phrase = line
                .text
                .get(..h.start)
                .is_none_or(|x| x.is_empty() || x.ends_with("  "));
            if h.key == LabelKey::Net && own_phrase {
                h.key = LabelKey::ColAmount;
            }
        }
    }
    let mut cols: Vec<Column> = Vec::new();
    let mut covered_words = 0;
    for h in &hits {
        if !h.key.is_column() {
            continue;
        }
        let Some((bb, _)) = line.range_bbox(h.start, h.end) else {
            continue;
        };
        if cols.iter().any(|c| (c.x0 - bb.x0).abs() < 0.5) {
            continue; // same range, second key: keep the first
        }
        covered_words += h.words;
        cols.push(Column {
            key: h.key,
            x0: bb.x0,
            x1: bb.x1,
        });
    }
    // The line's phrases, read once for the two looks below (both need a named column).
    let line_phrases = if cols.is_empty() {
        Vec::new()
    } else {
        phrases(line)
    };
    // Whether a phrase stands under no named column.
    let free = |p: &Phrase, cols: &[Column]| !cols.iter().any(|c| p.x1.min(c.x1) > p.x0.max(c.x0));
    // Between column names, a word OCR misread by one letter still names its column
    // (`Ilośéć` between `Nazwa towaru` and `VAT %`); so does one beside the description's name
    // (`Beskrivelse  Belgb`: `Beløb`, the amount, its `ø` read as a `g`).
    if cols.len() >= 2 || cols.iter().any(|c| c.key == LabelKey::ColDesc) {
        for p in &line_phrases {
            if let Some(key) = labels::near_column_word(&p.text).filter(|_| free(p, &cols))
                && !cols.iter().any(|c| c.key == key)
            {
                covered_words += 1;
                cols.push(Column {
                    key,
                    x0: p.x0,
                    x1: p.x1,
                });
            }
        }
    }
    // A `%` printed alone between named columns is the rate's column where none is named (`Nimetus
    // %  Summa`, its tax word on a line above or none), and beside a named rate the discount's
    // (`Hind  %  Summa  KM %`): an item table's percentages are its VAT rates and its discounts.
    let named = |key: LabelKey| cols.iter().any(|c| c.key == key);
    let lone_key = match (named(LabelKey::ColVatRate), named(LabelKey::ColDiscount)) {
        (false, false) => Some(LabelKey::ColVatRate),
        (true, false) => Some(LabelKey::ColDiscount),
        _ => None,
    };
    if cols.len() >= 2
        && let Some(key) = lone_key
        && let Some(p) = line_phrases
            .iter()
            .find(|p| p.text == "%" && free(p, &cols))
    {
        cols.push(Column {
            key,
            x0: p.x0,
            x1: p.x1,
        });
    }
    // A date's name standing as a column's (`Datums  Nosaukums  Daudzums  Debets  Kredīts`: the
    // day of each row, a folio's or a timesheet's) is a header word, though no Result column.
    let own_phrase = |h: &labels::LabelHit| {
        let before = line.text.get(..h.start).unwrap_or("");
        let after = line.text.get(h.end..).unwrap_or("");
        (before.is_empty() || before.ends_with("  "))
            && (after.is_empty() || after.starts_with("  "))
    };
    if !cols.is_empty() {
        covered_words += hits
            .iter()
            .filter(|h| h.key == LabelKey::Date && own_phrase(h))
            .map(|h| h.words)
            .sum::<usize>();
    }
    let words = labels::norm_words(&line.text).len().max(1);
    if !enough_columns(&cols) || covered_words * 2 < words {
        return None;
    }
    order_columns(&mut cols);
    rightmost_amount(line, &mut cols);
    Some(cols)
}

/// Whether a table's columns are an item table's: it names what is sold (description,
/// article) or how much (quantity, unit, price). A header naming only rates and amounts (`ПДВ
/// %  Сума без ПДВ  ПДВ  З ПДВ`) is a tax summary's, whose rows are rates, not items; under the
/// items it ends their table.
fn item_columns(cols: &[Column]) -> bool {
    cols.iter().any(|c| item_column(c.key))
}

/// Whether a column kind names what is sold or how much ([`item_columns`]).
fn item_column(key: LabelKey) -> bool {
    matches!(
        key,
        LabelKey::ColDesc
            | LabelKey::ColSku
            | LabelKey::ColQty
            | LabelKey::ColUnit
            | LabelKey::ColUnitPrice
    )
}

/// A VAT summary's header under the items, however many words of its own it prints (`PVM
/// Apmokestinamoji %  vertė  Iš viso PVM  Su PVM`, a header stacked over lines read as one): no
/// digit, two kinds of column or more named, rates and amounts only ([`item_columns`]: none of
/// what is sold or how much). It ends the item table above it, as a header of its own would.
fn summary_header(line: &Line) -> bool {
    if line.text.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    // A VAT total's words name the summary's VAT column (`Iš viso PVM`).
    let mut kinds: Vec<LabelKey> = labels::find_labels(&line.text)
        .into_iter()
        .map(|h| h.key)
        .filter(|&k| k.is_column() || k == LabelKey::Vat)
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds.len() >= 2 && !kinds.iter().any(|&k| item_column(k))
}

/// Whether columns make a table's header: three kinds of column of which one holds numbers,
/// or a description and a column of numbers.
fn enough_columns(cols: &[Column]) -> bool {
    let mut kinds: Vec<LabelKey> = cols.iter().map(|c| c.key).collect();
    kinds.sort();
    kinds.dedup();
    let numeric_cols = kinds
        .iter()
        .filter(|k| {
            matches!(
                k,
                LabelKey::ColQty
                    | LabelKey::ColUnitPrice
                    | LabelKey::ColAmount
                    | LabelKey::ColAmountGross
                    | LabelKey::ColVatAmount
            )
        })
        .count();
    kinds.len() >= 3 && numeric_cols >= 1
        || kinds.contains(&LabelKey::ColDesc) && numeric_cols >= 1 && kinds.len() >= 2
}

/// A header no single line of which names enough columns, read from its stacked lines
/// (`ПДВ  Сума` over `Найменування  %  без ПДВ`): the first line of the band, where the stacks
/// name enough columns, no kind twice, and no line of the band is a header by itself. Returns
/// the columns and the first line after the band.
fn band_header(doc: &CleanDocument, i: usize) -> Option<(Vec<Column>, usize)> {
    let line = doc.lines.get(i)?;
    let h = line.bbox.height().max(1.0);
    let own = (line.bbox.y0, line.bbox.y1);
    // A line of a band (most lines fail at their digits, before any label is looked up), and
    // the band's first: none above it belongs to it.
    if !header_band_line(line, own, line.page, h)
        || i > 0 && header_band_line(&doc.lines[i - 1], own, line.page, h)
    {
        return None;
    }
    // A band with a line that is a header of its own is read from that line; one whose stacks
    // name a kind twice (`ПДВ %` and `з ПДВ`) is not understood.
    let (mut cols, after) = stacked_columns(doc, i)?;
    let mut kinds: Vec<LabelKey> = cols.iter().map(|c| c.key).collect();
    kinds.sort();
    kinds.dedup();
    if kinds.len() < cols.len()
        || !enough_columns(&cols)
        || doc.lines[i..after]
            .iter()
            .any(|l| header_columns(l).is_some())
    {
        return None;
    }
    order_columns(&mut cols);
    rightmost_amount(line, &mut cols);
    Some((cols, after))
}

/// A table's rightmost column is its amount where no column's name says amount: the header's
/// last phrase right of every named column (`Verollinen`, a name no vocabulary knows), a last
/// column named like one before it (`НДС %` ... `С НДС`: the rate's word twice), or a last
/// column named a price where no quantity column is.
fn rightmost_amount(line: &Line, cols: &mut Vec<Column>) {
    if cols.iter().any(|c| is_amount_column(c.key)) {
        return;
    }
    let right = cols.iter().map(|c| c.x1).fold(f32::MIN, f32::max);
    if let Some(p) = phrases(line).into_iter().rfind(|p| p.x0 > right) {
        cols.push(Column {
            key: LabelKey::ColAmount,
            x0: p.x0,
            x1: p.x1,
        });
        return;
    }
    let n = cols.len();
    if n >= 2 && cols[..n - 1].iter().any(|c| c.key == cols[n - 1].key) {
        cols[n - 1].key = LabelKey::ColAmount;
        return;
    }
    // A price no quantity multiplies (`Beschreibung  Preis`, `Description  Price`) is what the
    // row charges: the rightmost column, the only price, and no quantity column.
    let priced_only = cols
        .iter()
        .filter(|c| c.key == LabelKey::ColUnitPrice)
        .count()
        == 1
        && !cols.iter().any(|c| c.key == LabelKey::ColQty);
    if let Some(last) = cols
        .last_mut()
        .filter(|c| priced_only && c.key == LabelKey::ColUnitPrice)
    {
        last.key = LabelKey::ColAmount;
    }
}

/// Columns left to right; of two amount columns the later one is the gross amount.
fn order_columns(cols: &mut [Column]) {
    cols.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    let mut seen_amount = false;
    for c in cols {
        if c.key == LabelKey::ColAmount {
            if seen_amount {
                c.key = LabelKey::ColAmountGross;
            }
            seen_amount = true;
        }
    }
}

/// A phrase of a header band: one line's words between column gaps.
struct Phrase {
    line: usize,
    x0: f32,
    x1: f32,
    y0: f32,
    text: String,
}

/// A line's phrases: its words split where the text prints a column gap (two spaces).
fn phrases(line: &Line) -> Vec<Phrase> {
    let mut out: Vec<Phrase> = Vec::new();
    for (t, &(s, _)) in line.tokens.iter().zip(&line.token_spans) {
        let gap = line.text.get(..s).is_some_and(|x| x.ends_with("  "));
        match out.last_mut() {
            Some(p) if !gap => {
                p.x1 = p.x1.max(t.bbox.x1);
                p.text.push(' ');
                p.text.push_str(&t.text);
            }
            _ => out.push(Phrase {
                line: line.index,
                x0: t.bbox.x0,
                x1: t.bbox.x1,
                y0: line.bbox.y0,
                text: t.text.clone(),
            }),
        }
    }
    out
}

/// A header line's column names as phrases (`Pos Art-Nr-Lief. Beschreibung` printed without
/// column gaps names three columns).
fn column_names(line: &Line) -> Vec<Phrase> {
    labels::find_labels(&line.text)
        .into_iter()
        .filter(|hit| hit.key.is_column())
        .filter_map(|hit| {
            let (bb, _) = line.range_bbox(hit.start, hit.end)?;
            Some(Phrase {
                line: line.index,
                x0: bb.x0,
                x1: bb.x1,
                y0: line.bbox.y0,
                text: line.text[hit.start..hit.end].to_string(),
            })
        })
        .collect()
}

/// Whether a line next to a header line is more of the header: it names a column, prints no
/// digit, and is packed against the band (a gap of at most a third of the header's height; the
/// lines of a stacked header interleave).
fn header_band_line(line: &Line, band: (f32, f32), page: u32, h: f32) -> bool {
    line.page == page
        && line.bbox.y0 <= band.1 + 0.35 * h
        && line.bbox.y1 >= band.0 - 0.35 * h
        && !line.text.chars().any(|c| c.is_ascii_digit())
        && labels::find_labels(&line.text)
            .iter()
            .any(|hit| hit.key.is_column())
}

/// A header printed over several lines (`Art-Nr-Kunde` / `Art-Nr-Lief.` / `Art-Nr (Art)`
/// stacked left of `Pos  Beschreibung  Nettopreis  Menge  USt.`, `Positions` / `betrag` /
/// `ohne` / `USt.` at the right): the lines packed against the header line that name columns
/// and print no number. A column is the stack of phrases printed over one another (at most one
/// per line), read top to bottom as one label (`Unit` over `Price` is the unit price); a phrase
/// spanning two stacks names a group of columns, not a column. Returns the columns and the
/// first line after the band; `None` where no line stacks with the header.
fn stacked_header(doc: &CleanDocument, i: usize) -> Option<(Vec<Column>, usize)> {
    let (mut cols, below) = stacked_columns(doc, i)?;
    order_columns(&mut cols);
    rightmost_amount(&doc.lines[i], &mut cols);
    Some((cols, below))
}

/// The columns the stacks of a header band name, as named (see [`stacked_header`]).
fn stacked_columns(doc: &CleanDocument, i: usize) -> Option<(Vec<Column>, usize)> {
    let header = doc.lines.get(i)?;
    let h = header.bbox.height().max(1.0);
    let mut band = (header.bbox.y0, header.bbox.y1);
    let mut lines = vec![i];
    let mut above = i;
    while above > 0 && header_band_line(&doc.lines[above - 1], band, header.page, h) {
        above -= 1;
        band.0 = band.0.min(doc.lines[above].bbox.y0);
        lines.push(above);
    }
    let mut below = i + 1;
    while doc
        .lines
        .get(below)
        .is_some_and(|l| header_band_line(l, band, header.page, h))
    {
        band.1 = band.1.max(doc.lines[below].bbox.y1);
        lines.push(below);
        below += 1;
    }
    if lines.len() == 1 {
        return None;
    }
    // The header line's column names anchor the stacks, and its phrases no vocabulary names
    // (`Su` over `PVM`: with VAT, in two lines); the other lines' phrases join them.
    let names = column_names(header);
    let unnamed: Vec<Phrase> = phrases(header)
        .into_iter()
        .filter(|p| !names.iter().any(|q| p.x1.min(q.x1) > p.x0.max(q.x0)))
        .collect();
    let mut stacks: Vec<Vec<Phrase>> = names.into_iter().chain(unnamed).map(|p| vec![p]).collect();
    for &l in &lines[1..] {
        for p in phrases(&doc.lines[l]) {
            let over: Vec<usize> = stacks
                .iter()
                .enumerate()
                .filter(|(_, st)| st.iter().any(|q| p.x1.min(q.x1) > p.x0.max(q.x0)))
                .map(|(k, _)| k)
                .collect();
            match over.as_slice() {
                [] => stacks.push(vec![p]),
                [k] if stacks[*k].iter().all(|q| q.line != p.line) => stacks[*k].push(p),
                _ => {}
            }
        }
    }
    let mut cols: Vec<Column> = Vec::new();
    for st in &mut stacks {
        st.sort_by(|a, b| a.y0.total_cmp(&b.y0));
        let text = st
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        // A position column's header is that word alone (`Positions` over `betrag` is the
        // position's amount).
        let words = labels::norm_words(&text).len();
        // A net total's words as a column's whole name name the net amount (`Сума` / `без
        // ПДВ`), as on a header line of their own.
        let found = labels::find_labels(&text);
        let names_column = found.iter().any(|h| h.key.is_column());
        let hits: Vec<LabelHit> = found
            .into_iter()
            .map(|mut hit| {
                if hit.key == LabelKey::Net && !names_column {
                    hit.key = LabelKey::ColAmount;
                }
                hit
            })
            .filter(|hit| {
                hit.key.is_column() && (hit.key != LabelKey::ColPos || hit.words == words)
            })
            .collect();
        let Some(most) = hits.iter().map(|hit| hit.words).max() else {
            // A name no vocabulary knows that ends in a percent sign (`PV%`, OCR's `PVM %`)
            // over no other name: the rate's column.
            if st.len() == 1 && text.ends_with('%') && text.chars().any(char::is_alphabetic) {
                cols.push(Column {
                    key: LabelKey::ColVatRate,
                    x0: st[0].x0,
                    x1: st[0].x1,
                });
            }
            continue;
        };
        // Of equally long names, the header line's own; else the first.
        let own = st.iter().find(|p| p.line == i).map(|p| p.text.as_str());
        let longest: Vec<&LabelHit> = hits.iter().filter(|hit| hit.words == most).collect();
        let key = own
            .and_then(|o| {
                let own_hits = labels::find_labels(o);
                longest
                    .iter()
                    .find(|hit| own_hits.iter().any(|x| x.key == hit.key))
                    .map(|hit| hit.key)
            })
            .or_else(|| longest.first().map(|hit| hit.key))?;
        cols.push(Column {
            key,
            x0: st.iter().map(|p| p.x0).fold(f32::MAX, f32::min),
            x1: st.iter().map(|p| p.x1).fold(f32::MIN, f32::max),
        });
    }
    Some((cols, below))
}

fn gap(a: (f32, f32), b: (f32, f32)) -> f32 {
    if a.1 < b.0 {
        b.0 - a.1
    } else if b.1 < a.0 {
        a.0 - b.1
    } else {
        0.0
    }
}

/// The column a token belongs to.
fn assign(cols: &[Column], bb: &BBox, numeric: bool) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, c) in cols.iter().enumerate() {
        let ov = bb.x1.min(c.x1) - bb.x0.max(c.x0);
        if ov > 0.0 && best.is_none_or(|(_, b)| ov > b) {
            best = Some((i, ov));
        }
    }
    if let Some((i, _)) = best {
        return Some(i);
    }
    if numeric {
        // Right-aligned: the first column ending right of the token, if close.
        let i = cols.iter().position(|c| c.x1 >= bb.x1);
        if let Some(i) = i {
            let prev_end = if i > 0 { cols[i - 1].x1 } else { f32::MIN };
            if bb.x0 > prev_end {
                return Some(i);
            }
        }
    } else {
        // Left-aligned: the last column starting left of the token.
        if let Some(i) = cols.iter().rposition(|c| c.x0 <= bb.x0) {
            return Some(i);
        }
    }
    cols.iter()
        .enumerate()
        .min_by(|a, b| {
            gap((a.1.x0, a.1.x1), (bb.x0, bb.x1)).total_cmp(&gap((b.1.x0, b.1.x1), (bb.x0, bb.x1)))
        })
        .map(|(i, _)| i)
}

fn line_cells(line: &Line, cols: &[Column]) -> Vec<Cell> {
    let mut parts: Vec<Option<(usize, usize)>> = vec![None; cols.len()];
    let mut prev: Option<usize> = None;
    let periods = super::rows::period_segments(&line.text);
    let text_end = line.text.trim_end().len();
    // A row's position where the header names none (`3  Paber A4` under `Nimetus`): a whole
    // number of one to three digits opening the line left of every column, a column gap after.
    let position = line
        .tokens
        .first()
        .zip(line.token_spans.first())
        .filter(|(t, (_, e))| {
            let digits = t.text.trim_end_matches('.');
            !cols.iter().any(|c| c.key == LabelKey::ColPos)
                && cols.first().is_some_and(|c| t.bbox.x1 < c.x0)
                && (1..=3).contains(&digits.len())
                && digits.chars().all(|c| c.is_ascii_digit())
                && line.text.get(*e..).is_some_and(|r| r.starts_with("  "))
        })
        .map(|(_, &span)| span);
    for (t, &(s, e)) in line.tokens.iter().zip(&line.token_spans) {
        if position == Some((s, e)) {
            continue;
        }
        let overlaps = cols
            .iter()
            .any(|c| t.bbox.x1.min(c.x1) > t.bbox.x0.max(c.x0));
        // A date or a period in a column the header does not name (`Periode`, a folio's date),
        // or opening a line that goes on (a long date running into the description's column):
        // no column's value.
        if periods
            .iter()
            .any(|&(a, b)| s >= a && e <= b && (!overlaps || a == 0 && b < text_end))
        {
            continue;
        }
        let numeric = is_numeric_token(&t.text);
        let gap = line.text.get(..s).is_some_and(|x| x.ends_with("  "));
        // A number inside a description's words (`Kopierpapier A4, 500 Blatt`: no column gap
        // before it, under no column's name) is part of the description.
        let in_desc = numeric
            && !overlaps
            && !gap
            && prev.is_some_and(|p| cols.get(p).is_some_and(|c| c.key == LabelKey::ColDesc));
        let Some(i) = (if in_desc {
            prev
        } else {
            assign(cols, &t.bbox, numeric)
        }) else {
            continue;
        };
        prev = Some(i);
        if let Some(slot) = parts.get_mut(i) {
            *slot = Some(match *slot {
                Some((a, b)) => (a.min(s), b.max(e)),
                None => (s, e),
            });
        }
    }
    let position = position.map(|(s, e)| (LabelKey::ColPos, Some((s, e))));
    position
        .into_iter()
        .chain(parts.iter().zip(cols).map(|(p, c)| (c.key, *p)))
        .filter_map(|(key, p)| {
            let (s, e) = p?;
            Some(Cell {
                key,
                text: line.text[s..e]
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
                span: Span::from_line(line, s, e),
                amount: None,
            })
        })
        .collect()
}

/// The amounts of a cell's text, dates left out (`01.10.2018 bis 31.10.2018` under a price
/// column is a service period, not a price).
pub(super) fn cell_amounts(text: &str, decimal: Option<char>) -> Vec<amounts::AmountMatch> {
    let dated: Vec<(usize, usize)> = [false, true]
        .into_iter()
        .flat_map(|month_first| dates::find_dates(text, month_first))
        .map(|d| (d.start, d.end))
        .collect();
    amounts::find_amounts(text, decimal, &dated)
}

/// A rate or discount whose percent sign OCR read as `96` or `95` (`2096` for `20%`, `1596` for
/// `15%`, `795` for `7%`): a whole number no rate can be, ending in those digits after a rate's
/// digits (at most 30).
pub(super) fn misread_percent(text: &str) -> Option<Decimal> {
    let t = text.trim();
    let digits = t.strip_suffix("96").or_else(|| t.strip_suffix("95"))?;
    if digits.is_empty() || digits.len() > 2 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rate: u32 = digits.parse().ok()?;
    (rate <= 30).then(|| Decimal::from(rate))
}

/// A cell's value: its first amount, or, in an amount column whose cell OCR broke into a
/// whole number and an amount with decimals (`1 198483.20`, a space inside the digits) or into
/// pieces the first of which reads with the other decimal separator than the document's
/// (`-1.05 2,31`), the amount the whole run reads as once joined.
pub(super) fn cell_value(cell: &Cell, decimal: Option<char>) -> Option<Decimal> {
    if matches!(cell.key, LabelKey::ColVatRate | LabelKey::ColDiscount)
        && let Some(rate) = misread_percent(&cell.text)
    {
        return Some(rate);
    }
    // A quantity glued to its unit (`2pcs`, `2.5h`).
    if cell.key == LabelKey::ColQty
        && let Some((q, _)) = cell
            .text
            .split_whitespace()
            .next()
            .and_then(rows::glued_quantity_unit)
    {
        return cell_amounts(q, decimal).first().map(|a| a.value);
    }
    let mut found = cell_amounts(&cell.text, decimal);
    // A percentage is the value of a rate or discount column only: in another column's cell
    // beside an amount (`24%  226,35` under one amount column where the header named no rate's),
    // the amount is the cell's value; alone, it is no quantity, price or amount
    // ([`cell_has_number`]).
    if is_number_column(cell.key)
        || !matches!(cell.key, LabelKey::ColVatRate | LabelKey::ColDiscount)
            && found.iter().any(|a| !a.percent)
    {
        found.retain(|a| !a.percent);
    }
    let Some(first) = found.first() else {
        // A price or quantity to four places or more (`415,3900`, `6,5000 HUR`): no amount the
        // amount finder reads, a number of its column.
        if matches!(cell.key, LabelKey::ColUnitPrice | LabelKey::ColQty)
            && let Some((v, _, _)) = cell.text.split_whitespace().find_map(|t| {
                rows::token_number(t, decimal)
                    .filter(|&(_, decimals, percent)| decimals >= 4 && !percent)
            })
        {
            return Some(v);
        }
        if matches!(cell.key, LabelKey::ColUnitPrice | LabelKey::ColVatAmount)
            || is_amount_column(cell.key)
        {
            return cell
                .text
                .split_whitespace()
                .find_map(|t| glued_money(t, decimal));
        }
        // The number's token, its unit after it (`З шт.`).
        let mut tokens = cell.text.split_whitespace();
        let first = tokens.next().unwrap_or_default();
        let unit_only = tokens.all(|t| !t.contains(|c: char| c.is_ascii_digit()));
        return (matches!(cell.key, LabelKey::ColQty | LabelKey::ColPos) && unit_only)
            .then(|| lookalike_number(first))
            .flatten()
            .map(Decimal::from);
    };
    let foreign_decimal = decimal.is_some_and(|d| {
        first.decimals > 0
            && cell
                .text
                .get(first.start..first.end)
                .is_some_and(|t| !t.contains(d))
    });
    if is_amount_column(cell.key) && found.len() >= 2 && (first.decimals == 0 || foreign_decimal) {
        let last = found.last()?;
        if let Some(joined) = amounts::joined_readings(&cell.text, decimal)
            .into_iter()
            .find(|j| j.start <= first.start && j.end >= last.end)
        {
            return Some(joined.value);
        }
    }
    Some(first.value)
}

/// A money amount of two decimals glued to up to three letters, a currency OCR misread
/// (`711,03zt` for `711,03 zł`): the amount, in a money column's cell only.
fn glued_money(token: &str, decimal: Option<char>) -> Option<Decimal> {
    let digits = token.trim_end_matches(char::is_alphabetic);
    let letters = token[digits.len()..].chars().count();
    if !(1..=3).contains(&letters) {
        return None;
    }
    amounts::parse_number(digits, decimal).and_then(|(v, decimals)| (decimals == 2).then_some(v))
}

/// An article number printed after its own name (`Réf. FLY-A5`, `Art.-Nr.: 4711-08`, `SKU
/// 88213`): the number alone (one token with a digit, or capitals), the name being the
/// column's, not the article's.
pub(super) fn bare_sku(text: &str) -> Option<&str> {
    let hit = labels::find_labels(text)
        .into_iter()
        .find(|h| h.start == 0 && h.key == LabelKey::ColSku)?;
    let rest = text[hit.end..].trim_start_matches(['.', ':', '#', ' ', '-']);
    let code = rest.chars().any(|c| c.is_ascii_digit())
        || rest.chars().any(char::is_alphabetic) && !rest.chars().any(char::is_lowercase);
    (code && !rest.contains(' ')).then_some(rest)
}

/// The amounts printed from line `from` on, `(line, value)`: no percentage, no date (the
/// amounts a table's rows may sum to).
pub(super) fn printed_amounts(
    doc: &CleanDocument,
    decimal: Option<char>,
    from: usize,
) -> Vec<(usize, Decimal)> {
    doc.lines
        .iter()
        .enumerate()
        .skip(from)
        .flat_map(|(i, l)| {
            cell_amounts(&l.text, decimal)
                .into_iter()
                .filter(|a| !a.percent)
                .map(move |a| (i, a.value))
        })
        .collect()
}

/// A row's amount: the value of its first amount column's cell (`cell.amount`).
fn row_value(r: &Row) -> Option<Decimal> {
    r.cells
        .iter()
        .find(|c| is_amount_column(c.key))
        .and_then(|c| c.amount)
}

/// Most trailing rows [`drop_summary_rows`] takes off a table: two where the rows above them
/// sum to an amount printed further down, four where that amount is one of theirs (the base
/// among a summary's `Importe`, `Dto.:`, `Base:`, `Importe IVA 21%`).
const MAX_SUMMARY_ROWS: usize = 2;
const MAX_SUMMARY_ROWS_WITH_SUM: usize = 4;

/// A header table's last rows that are the summary under it (`Amount  € -4,743.89`,
/// `Discount:  €261.47`, read as rows where no label the vocabulary knows ends the table): rows
/// of a description and an amount only, after which the rows above them sum to an amount
/// printed further down (among those rows, where they are more than [`MAX_SUMMARY_ROWS`]),
/// where all the rows together sum to none. Amounts are the cells' values (`cell.amount`), the
/// lines' amounts read in the document's `decimal` style.
pub(super) fn drop_summary_rows(t: &mut TableLayout, doc: &CleanDocument, decimal: Option<char>) {
    let n = t.rows.len();
    let Some(all) = t
        .rows
        .iter()
        .map(row_value)
        .collect::<Option<Vec<Decimal>>>()
    else {
        return;
    };
    // The amounts printed from the table's first row on, read once.
    let first_row = t.rows.iter().flat_map(|r| r.lines.iter()).copied().min();
    let printed = printed_amounts(doc, decimal, first_row.unwrap_or(doc.lines.len()));
    let printed_after = |v: Decimal, line: usize| printed.iter().any(|&(l, x)| l > line && x == v);
    let last_line = |rows: &[Row]| rows.iter().flat_map(|r| r.lines.iter()).copied().max();
    let summary_like = |r: &Row| {
        r.cells.iter().all(|c| {
            matches!(c.key, LabelKey::ColDesc | LabelKey::ColPos) || is_amount_column(c.key)
        })
    };
    if last_line(&t.rows).is_none_or(|l| printed_after(all.iter().sum(), l)) {
        return;
    }
    for k in 1..=MAX_SUMMARY_ROWS_WITH_SUM.min(n.saturating_sub(1)) {
        let (head, tail) = t.rows.split_at(n - k);
        let Some(end) = last_line(head) else {
            return;
        };
        let sum: Decimal = all[..n - k].iter().sum();
        let found = if k <= MAX_SUMMARY_ROWS {
            printed_after(sum, end)
        } else {
            all[n - k..].contains(&sum)
        };
        if tail.iter().all(summary_like) && found {
            t.end_line = tail[0].lines.iter().copied().min().unwrap_or(t.end_line);
            t.rows.truncate(n - k);
            return;
        }
    }
}

/// Rows of a document's header tables that carry the rows above over a page (`Transport
/// -1.095.168,54 kr.`, `Übertrag  4.211,00` at a page's foot or a next page's head, under any
/// word): no quantity or price of their own, and an amount that is the sum of every row above
/// it, over all tables before it too (two rows at least). A carried sum is no item.
pub(super) fn drop_running_sums(tables: &mut [TableLayout]) {
    let mut sum = Decimal::ZERO;
    let mut above = 0usize;
    for t in tables.iter_mut() {
        t.rows.retain(|r| {
            let priced = r.cells.iter().any(|c| {
                matches!(c.key, LabelKey::ColQty | LabelKey::ColUnitPrice) && c.amount.is_some()
            });
            let amount = row_value(r);
            let carried = !priced && above >= 2 && amount == Some(sum);
            if !carried && let Some(a) = amount {
                sum += a;
                above += 1;
            }
            !carried
        });
    }
}

fn cell_has_number(c: &Cell) -> bool {
    // A percentage alone is no quantity, price or amount (a discount's `5%` under the amount's
    // name, the amount on the line below).
    let money = is_number_column(c.key);
    cell_amounts(&c.text, None)
        .iter()
        .any(|a| (a.value != Decimal::ZERO || c.text.contains(['.', ','])) && !(money && a.percent))
}

/// The position a position cell opens with (`1`, `12.`, `1  Toolbox 0815CO-123` with an
/// article number printed after it).
pub(crate) fn leading_position(text: &str) -> Option<u32> {
    text.split_whitespace().next().and_then(|p| {
        let p = p.trim_end_matches('.');
        p.parse().ok().or_else(|| lookalike_number(p))
    })
}

/// A small whole number (a position, a quantity) that OCR read with letters for digits, where
/// the column says a number stands: `З` (Cyrillic Ze) for 3, `1O` for 10, `б` for 6. A token of
/// at most four characters, each a digit or a look-alike; without any real digit only the
/// letters that are no word or unit on their own (`З`, `I`, `|`), never `l` (a litre) or `o`.
fn lookalike_number(token: &str) -> Option<u32> {
    let t = token.trim();
    if t.is_empty() || t.chars().count() > 4 {
        return None;
    }
    let mut real = false;
    let mut lone_ok = true;
    let digits: Option<String> = t
        .chars()
        .map(|c| {
            let d = match c {
                '0'..='9' => {
                    real = true;
                    c
                }
                'З' | 'з' | 'I' | '|' => amounts::digit_lookalike(c)?,
                c => {
                    lone_ok = false;
                    amounts::digit_lookalike(c)?
                }
            };
            Some(d)
        })
        .collect();
    if !real && !lone_ok {
        return None;
    }
    digits?.parse().ok()
}

fn is_number_column(key: LabelKey) -> bool {
    matches!(
        key,
        LabelKey::ColQty | LabelKey::ColUnitPrice | LabelKey::ColAmount | LabelKey::ColAmountGross
    )
}

fn is_amount_column(key: LabelKey) -> bool {
    matches!(key, LabelKey::ColAmount | LabelKey::ColAmountGross)
}

/// A row's amount: the first amount of its first amount column's cell, with that cell.
fn row_amount(cells: &[Cell]) -> Option<(&Cell, Decimal)> {
    cells
        .iter()
        .find(|c| is_amount_column(c.key))
        .and_then(|c| Some((c, cell_amounts(&c.text, None).first()?.value)))
}

/// Whether a line settles the rows above it (a folio's payment, `Zahlung Visa ****4821
/// -209,00`, or the same amount in a credits column right of the charges): no price of its own,
/// and its amount is the positive sum of the rows' amounts charged negative, or the sum itself in
/// a column right of theirs. What pays for the items is none of them. The rows are summed only
/// for a line that could settle them (an item row is neither negative nor right of them).
fn settles(rows: &[Row], cells: &[Cell]) -> bool {
    let priced = cells
        .iter()
        .any(|c| c.key == LabelKey::ColUnitPrice && cell_has_number(c));
    let Some((cell, a)) = row_amount(cells).filter(|_| !priced) else {
        return false;
    };
    let right_of_rows = rows.iter().all(|r| {
        r.cells
            .iter()
            .filter(|c| is_amount_column(c.key))
            .all(|c| c.span.bbox.x1 < cell.span.bbox.x0)
    });
    if !a.is_sign_negative() && !right_of_rows {
        return false;
    }
    let amounts: Vec<Decimal> = rows
        .iter()
        .filter_map(|r| row_amount(&r.cells).map(|(_, v)| v))
        .collect();
    let sum: Decimal = amounts.iter().sum();
    !amounts.is_empty() && sum > Decimal::ZERO && (a == -sum || a == sum && right_of_rows)
}

/// Whether a line's cells are the amount of the row above, printed on the line under its
/// quantity (`1  Stahlcoil  10 Stk  0 %` over `Basismenge: 1 Stk  1.000,00`): the line's only
/// numbers stand in amount columns, it opens with no position of its own, and the row above has
/// its quantity or price but no amount yet.
fn completes_row(prev: &Row, cells: &[Cell], has_number: &[bool]) -> bool {
    let numbers: Vec<&Cell> = cells
        .iter()
        .zip(has_number)
        .filter(|(c, n)| is_number_column(c.key) && **n)
        .map(|(c, _)| c)
        .collect();
    let own_position = cells
        .iter()
        .any(|c| c.key == LabelKey::ColPos && leading_position(&c.text).is_some());
    !numbers.is_empty()
        && numbers.iter().all(|c| is_amount_column(c.key))
        && !own_position
        && !prev
            .cells
            .iter()
            .any(|c| is_amount_column(c.key) && cell_has_number(c))
        && prev
            .cells
            .iter()
            .any(|c| is_number_column(c.key) && cell_has_number(c))
}

/// A `Key:  value` line after the rows (`Fodo :  149341,28 EUR`, a totals block under labels
/// no vocabulary knows): the line opens with a key word and its colon, printed under a column
/// other than the description's or well right of where descriptions start. Rows open with a
/// position, a description or an article number, never with a key in a number column.
fn keyed_line(line: &Line, cols: &[Column]) -> bool {
    let Some(first) = line.tokens.first() else {
        return false;
    };
    let colon = first.text.ends_with(':') || line.tokens.get(1).is_some_and(|t| t.text == ":");
    let h = line.bbox.height().max(1.0);
    let under_numbers = match assign(cols, &first.bbox, false).and_then(|i| cols.get(i)) {
        Some(c) if c.key == LabelKey::ColDesc => first.bbox.x0 > c.x0 + 6.0 * h,
        Some(_) => true,
        None => false,
    };
    colon && first.text.chars().any(char::is_alphabetic) && under_numbers
}

/// A totals line: a total's, net's, subtotal's, payable's or prepaid amount's label opens it, or
/// it names two or more of those and the VAT anywhere (a totals block printed as running text,
/// `Importe 7.203,43  Dto.: -58,23  Importe neto: 7.145,20  Total IVA 21% 1.295,83`: no item
/// row names its net and its VAT and its total), or a carried-over subtotal.
fn is_total_line(line: &Line) -> bool {
    let hits = labels::find_labels(&line.text);
    let totals = |k: LabelKey| {
        matches!(
            k,
            LabelKey::Total
                | LabelKey::Net
                | LabelKey::Subtotal
                | LabelKey::Payable
                | LabelKey::Prepaid
        )
    };
    let named = |k: LabelKey| totals(k) || k == LabelKey::Vat;
    let two_named = hits
        .iter()
        .any(|a| named(a.key) && hits.iter().any(|b| named(b.key) && b.key != a.key));
    hits.iter().any(|h| totals(h.key) && h.word <= 2)
        || two_named
        || labels::has_label(&line.text, LabelKey::CarriedOver)
}

/// Whether every word of a text that has a letter names an amount column or a currency
/// (`Сумма  1896307.91 руб.`: the amount column's own name and its sum), no item.
fn amount_name_only(text: &str) -> bool {
    let covered: Vec<(usize, usize)> = labels::find_labels(text)
        .iter()
        .filter(|h| is_amount_column(h.key))
        .map(|h| (h.start, h.end))
        .chain(amounts::find_currencies(text).iter().map(|c| (c.0, c.1)))
        .collect();
    let words = labels::norm_words(text);
    let mut lettered = words
        .iter()
        .filter(|w| w.text.chars().any(char::is_alphabetic))
        .peekable();
    lettered.peek().is_some()
        && lettered.all(|w| covered.iter().any(|&(s, e)| s <= w.start && w.end <= e))
}

/// Finds all line-item tables of a document.
pub fn find_tables(doc: &CleanDocument) -> Vec<TableLayout> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < doc.lines.len() {
        let Some(header) = doc.lines.get(i) else {
            break;
        };
        let (cols, mut j) = match header_columns(header).filter(|c| item_columns(c)) {
            Some(cols) => stacked_header(doc, i).unwrap_or((cols, i + 1)),
            None => match band_header(doc, i) {
                Some(band) if item_columns(&band.0) => band,
                _ => {
                    i += 1;
                    continue;
                }
            },
        };
        let h = header.bbox.height().max(1.0);
        let mut rows: Vec<Row> = Vec::new();
        // Text lines under the last row (or the header) not yet given to a row.
        let mut pending: Vec<usize> = Vec::new();
        let body = j;
        // A pending line's share of a row's name (`size`: the height of the row's numbers): an
        // attribute line under a description (`Herkunftsland: DE`, a price, a service period)
        // or small print belongs to the row but is no part of the item's name.
        let name_text = |k: usize, size: f32| {
            let line = &doc.lines[k];
            // A tax's note (`24%KM`, `27% ÁFA`) names nothing either.
            if rows::attribute_line(line)
                || rows::small_print(doc, line.page, &line.tokens, size)
                || rows::names_nothing(&line.text)
            {
                return String::new();
            }
            // A rate under the rate column (`Biuro kėdė  21%`, the row's numbers on the next
            // line) is no part of the name.
            let rate = line_cells(line, &cols).into_iter().find(|c| {
                c.key == LabelKey::ColVatRate
                    && rows::token_number(&c.text, None).is_some_and(|(_, _, percent)| percent)
            });
            let text = match rate {
                Some(c) => format!(
                    "{} {}",
                    &line.text[..c.span.start],
                    &line.text[c.span.end..]
                ),
                None => line.text.clone(),
            };
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        let joined = |lines: &[usize], size: f32| {
            lines
                .iter()
                .map(|&k| name_text(k, size))
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let size_of = |row: &Row| {
            row.lines
                .iter()
                .map(|&k| rows::numbers_size(&doc.lines[k]))
                .fold(0.0, f32::max)
        };
        let mut last_y = doc.lines[i..j]
            .iter()
            .map(|l| l.bbox.y1)
            .fold(header.bbox.y1, f32::max);
        // The foot of the last row's lines and of the lines set tight under them.
        let mut row_chain: Option<f32> = None;
        while let Some(line) = doc.lines.get(j) {
            if line.page != header.page || line.bbox.y0 - last_y > 4.0 * h {
                break;
            }
            let cells = line_cells(line, &cols);
            let has_number: Vec<bool> = cells.iter().map(cell_has_number).collect();
            // A line of a date or a period (`17 september 2021 - 1 november 2021` under a row,
            // its day under the quantity's name) is no row of its own.
            let numeric = cells
                .iter()
                .zip(&has_number)
                .any(|(c, n)| is_number_column(c.key) && *n)
                && !rows::period_line(line);
            // A row's sub-line (`Brutto: 6,90` under its name, no number in a number column,
            // tight under the row, or under lines tight under it) names a total's word but is
            // no totals line. (A totals block set apart under the rows, its lines tight to each
            // other, is none.)
            let tight = row_chain.is_some_and(|y| line.bbox.y0 - y < 0.8 * h);
            row_chain = (numeric || tight).then_some(line.bbox.y1);
            let sub_line = !numeric
                && rows.last().is_some()
                && tight
                && cells.iter().all(|c| c.key == LabelKey::ColDesc)
                && (rows::priced_line(line) || is_keyed(line));
            if header_columns(line).is_some()
                || summary_header(line) && !rows.is_empty()
                || (is_total_line(line) || keyed_line(line, &cols)) && !rows.is_empty() && !sub_line
            {
                break;
            }
            if is_total_line(line) && !numeric && !sub_line {
                break;
            }
            last_y = line.bbox.y1;
            if let Some(prev) = rows
                .last_mut()
                .filter(|p| numeric && completes_row(p, &cells, &has_number))
            {
                if !pending.is_empty() {
                    let plines = std::mem::take(&mut pending);
                    append_desc(prev, &plines, &joined(&plines, size_of(prev)));
                }
                prev.lines.push(j);
                for c in cells {
                    if is_number_column(c.key) {
                        if !prev.cell(c.key).is_some_and(cell_has_number) {
                            prev.cells.retain(|p| p.key != c.key);
                            prev.cells.push(c);
                        }
                    } else if c.key == LabelKey::ColDesc
                        && !is_keyed(line)
                        && !attribute_text(&c.text)
                    {
                        append_desc(prev, &[], &c.text);
                    }
                }
            } else if numeric {
                // The totals block under the table, its labels no vocabulary takes for a total:
                // a line whose only numbers are amounts, under rows numbered by their positions
                // without one of its own (`Amount  £9,299.21`, `Valoare  241.855,47 lei`), or
                // whose amount is what the rows above sum to (`Zisa:  806.368,01 Kč`).
                let only_amounts = cells
                    .iter()
                    .zip(&has_number)
                    .filter(|(c, n)| is_number_column(c.key) && **n)
                    .all(|(c, _)| is_amount_column(c.key));
                if settles(&rows, &cells) {
                    break;
                }
                // An amount beside nothing but an amount column's name (`Сумма  1896307.91
                // руб.`: the sum under the rows before an allowance) names no item.
                if !rows.is_empty() && only_amounts && amount_name_only(&line.text) {
                    break;
                }
                // A quantity with a currency (`Valoare mărfuri  lei 15.295,59` under a table
                // whose amount column is further right): money, a total's line under the rows.
                let money_as_quantity = cells.iter().any(|c| {
                    c.key == LabelKey::ColQty
                        && cell_amounts(&c.text, None)
                            .iter()
                            .any(|a| a.currency.is_some() && a.decimals == 2)
                });
                if !rows.is_empty()
                    && money_as_quantity
                    && cells
                        .iter()
                        .zip(&has_number)
                        .all(|(c, n)| !*n || matches!(c.key, LabelKey::ColQty | LabelKey::ColPos))
                {
                    break;
                }
                if rows.len() >= 2 && only_amounts {
                    let positioned = |c: &[Cell]| {
                        c.iter().any(|c| {
                            c.key == LabelKey::ColPos && leading_position(&c.text).is_some()
                        })
                    };
                    let unnumbered =
                        !positioned(&cells) && rows.iter().all(|r| positioned(&r.cells));
                    if unnumbered
                        || row_amount(&cells).is_some_and(|(_, a)| {
                            rows.iter()
                                .map(|r| row_amount(&r.cells).map(|(_, v)| v))
                                .sum::<Option<Decimal>>()
                                == Some(a)
                        })
                    {
                        break;
                    }
                }
                let mut row = Row {
                    lines: vec![j],
                    cells,
                    source: RowSource::Header,
                };
                if !pending.is_empty() {
                    let plines = std::mem::take(&mut pending);
                    let size = size_of(&row);
                    // An attribute printed where the name would be (`EAN: 8076184966032
                    // 1299633,60`, a service period), or a name in small print (numbers set on
                    // a row's detail line), under a line of text: that line is the row's name,
                    // the attribute no part of it.
                    if plines.iter().any(|&k| !name_text(k, size).is_empty())
                        && row
                            .cell(LabelKey::ColDesc)
                            .is_some_and(|c| sub_line_cell(&c.text) || small_cell(doc, c, size))
                    {
                        row.cells.retain(|c| c.key != LabelKey::ColDesc);
                    }
                    let has_desc = row.cell(LabelKey::ColDesc).is_some();
                    // Where the table keeps space between its rows, the lines under the space
                    // are this row's (its name over its numbers), those above the last row's;
                    // without such a space, a row with a name of its own leaves them to the last
                    // row, one without takes them all.
                    let anchor = rows
                        .last()
                        .and_then(|r| r.lines.iter().max().copied())
                        .unwrap_or(body - 1);
                    let split = match rows::row_break(doc, anchor, j) {
                        b if b == j && !has_desc => 0,
                        b => b,
                    };
                    let (before, after): (Vec<usize>, Vec<usize>) =
                        plines.iter().partition(|&&k| k < split);
                    match rows.last_mut() {
                        Some(prev) if !before.is_empty() => {
                            let text = joined(&before, size_of(prev));
                            append_desc(prev, &before, &text);
                        }
                        // Text between the header and a first row that prints its own
                        // description: the header's second line (`Art-Nr (Art)`), no row's.
                        _ => {}
                    }
                    if !after.is_empty() {
                        // A group's heading over the rows under it is no part of the name.
                        let positioned = row.cell(LabelKey::ColPos).is_some();
                        let named: Vec<usize> = after
                            .iter()
                            .copied()
                            .filter(|&k| {
                                k != after[0] || !rows::heading_line(&doc.lines[k], positioned)
                            })
                            .collect();
                        let text = joined(&named, size);
                        let mut lines = after;
                        lines.extend(row.lines.iter().copied());
                        row.lines = lines;
                        prepend_desc(&mut row, &text, doc, j);
                    }
                }
                rows.push(row);
            } else {
                // The header's line of units under its names (`(RM) (RM)`, `(EUR)  (%)`): part of
                // the header, no row's text.
                if cells.is_empty() || rows.is_empty() && pending.is_empty() && units_line(line) {
                    j += 1;
                    continue;
                }
                pending.push(j);
            }
            j += 1;
        }
        if let Some(prev) = rows.last_mut().filter(|_| !pending.is_empty()) {
            let text = joined(&pending, size_of(prev));
            append_desc(prev, &pending, &text);
        }
        if !rows.is_empty() {
            out.push(TableLayout {
                header_line: i,
                columns: cols,
                rows,
                end_line: j,
                sums: false,
            });
        }
        i = j.max(i + 1);
    }
    out
}

/// Whether a quantity's cell opens with OCR's reading of the digit one as a letter and holds
/// no digit (`l stk.`, `I`): the quantity 1 where its row's arithmetic says so.
pub fn one_read_as_letter(text: &str) -> bool {
    let mut first = text.split_whitespace().next().unwrap_or_default().chars();
    !text.contains(|c: char| c.is_ascii_digit())
        && first.next().and_then(amounts::digit_lookalike) == Some('1')
        && first.next().is_none()
}

/// A line of units in brackets and nothing else (`(RM) (RM)`, `[EUR]  (%)`, `(kg)`): every token
/// bracketed, a few characters inside, no digit.
pub(super) fn units_line(line: &Line) -> bool {
    !line.tokens.is_empty()
        && line.tokens.iter().all(|t| {
            let inner = t
                .text
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .or_else(|| t.text.strip_prefix('[').and_then(|r| r.strip_suffix(']')));
            inner.is_some_and(|u| {
                (1..=5).contains(&u.chars().count()) && !u.chars().any(|c| c.is_ascii_digit())
            })
        })
}

/// A `Key: value` attribute line (`Verpackung : Flasche`, `Bruttopreis: 9,90`, `• Herkunftsland:
/// DE`): under an item's name, an attribute of the item, not the name's next line.
pub(super) fn is_keyed(line: &Line) -> bool {
    keyed_within(line.tokens.iter().map(|t| t.text.as_str()), 4)
}

/// Whether one of the first `n` words is a key (`Verpackung:`, or a key word followed by `:` or
/// a word starting with one): the test of [`is_keyed`] over words.
fn keyed_within<'a>(words: impl Iterator<Item = &'a str>, n: usize) -> bool {
    let key_word = |w: &str| w.chars().filter(|c| c.is_alphabetic()).count() >= 2;
    // A serial, part or model number's abbreviation (`S/N`, `P/N`, `M/N`) opening the words, a
    // code after it (within a name, `Router S/N 12345  1  99,00`, it is part of the name).
    let slashed = |w: &str| {
        matches!(
            w.trim_end_matches([':', '.']).to_ascii_uppercase().as_str(),
            "S/N" | "P/N" | "M/N"
        )
    };
    let mut prev: Option<&str> = None;
    for (k, t) in words.take(n).enumerate() {
        let after_key = prev.is_some_and(key_word);
        if t.len() > 1 && t.ends_with(':') && key_word(t)
            || (t == ":" || t.starts_with(':')) && after_key
            || k == 1 && prev.is_some_and(slashed) && t.chars().any(|c| c.is_ascii_digit())
        {
            return true;
        }
        prev = Some(t);
    }
    false
}

/// The description cell of a line that completes the row above with its amount, read as one of
/// the item's attributes rather than more of its name: it opens with a rate (`24% KM`, `24%KM`),
/// prints a price basis (`1 tk = 40,49`) or a key glued to its value (`EAN:9102594039611`).
fn attribute_text(text: &str) -> bool {
    let mut tokens = text.split_whitespace();
    let opens_with_rate = tokens
        .clone()
        .next()
        .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()) && t.contains('%'));
    let keyed_value = |t: &str| {
        t.split_once(':').is_some_and(|(k, v)| {
            k.chars().count() >= 2
                && k.chars().all(char::is_alphabetic)
                && v.chars().any(|c| c.is_ascii_digit())
        })
    };
    opens_with_rate || tokens.any(|t| t == "=" || keyed_value(t))
}

/// A description cell that holds an attribute of the item only: [`attribute_text`], a key and
/// its value (`EAN: 8076184966032`), or a period (`23.09.2025 - 07.11.2025`).
fn attribute_cell(text: &str) -> bool {
    let keyed = keyed_within(text.split_whitespace(), 1);
    let period = !rows::period_segments(text).is_empty()
        && text.chars().filter(|c| c.is_alphabetic()).count() <= 3;
    attribute_text(text) || keyed || period
}

/// Whether every row of a table has an amount and their sum is printed under the table.
pub(super) fn rows_sum_printed(
    t: &TableLayout,
    doc: &CleanDocument,
    decimal: Option<char>,
) -> bool {
    let amounts: Option<Vec<Decimal>> = t
        .rows
        .iter()
        .map(|r| r.cell(LabelKey::ColAmount).and_then(|c| c.amount))
        .collect();
    let Some(sum) = amounts.map(|a| a.into_iter().sum::<Decimal>()) else {
        return false;
    };
    !t.rows.is_empty()
        && doc.lines.iter().skip(t.end_line).any(|l| {
            cell_amounts(&l.text, decimal)
                .iter()
                .any(|a| a.value == sum)
        })
}

/// A description cell that reads as a sub-line's attribute rather than a name, under whichever
/// words print it: [`attribute_cell`], or a key of up to three words before a number (`Su PVM:
/// -830,22`, `Ar PVN: 727,94`).
pub(super) fn sub_line_cell(text: &str) -> bool {
    attribute_cell(text)
        || keyed_within(text.split_whitespace(), 3) && text.chars().any(|c| c.is_ascii_digit())
}

/// A description cell in small print ([`rows::small_print`]) beside numbers `size` high.
pub(super) fn small_cell(doc: &CleanDocument, c: &Cell, size: f32) -> bool {
    let Some(line) = doc.lines.get(c.span.line) else {
        return false;
    };
    let tokens: Vec<Token> = line
        .tokens
        .iter()
        .zip(&line.token_spans)
        .filter(|&(_, &(s, e))| s < c.span.end && e > c.span.start)
        .map(|(t, _)| t.clone())
        .collect();
    rows::small_print(doc, line.page, &tokens, size)
}

fn append_desc(row: &mut Row, lines: &[usize], text: &str) {
    row.lines.extend_from_slice(lines);
    if text.is_empty() {
        return;
    }
    if let Some(c) = row.cells.iter_mut().find(|c| c.key == LabelKey::ColDesc) {
        c.text.push(' ');
        c.text.push_str(text);
    }
}

fn prepend_desc(row: &mut Row, text: &str, doc: &CleanDocument, line: usize) {
    if text.is_empty() {
        return;
    }
    match row.cells.iter_mut().find(|c| c.key == LabelKey::ColDesc) {
        Some(c) => c.text = format!("{text} {}", c.text),
        None => {
            if let Some(l) = doc.lines.get(line) {
                row.cells.push(Cell {
                    key: LabelKey::ColDesc,
                    text: text.to_string(),
                    span: Span::from_line(l, 0, 0),
                    amount: None,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Word;

    use crate::candidates::tests::{page_doc as page_of, word as w};

    /// Each row's name, empty where it has none.
    fn row_names(rows: &[Row]) -> Vec<&str> {
        rows.iter()
            .map(|r| r.cell(LabelKey::ColDesc).map_or("", |c| c.text.as_str()))
            .collect()
    }

    /// The amount cells' texts of rows that have one.
    fn amount_texts<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Vec<&'a str> {
        rows.into_iter()
            .filter_map(|r| r.cell(LabelKey::ColAmount).map(|c| c.text.as_str()))
            .collect()
    }

    /// A date or a period under no column's name (a `Periode` column the header names in words
    /// no vocabulary knows) is no column's value: neither the name's nor the amount's.
    #[test]
    fn a_period_under_no_columns_name_is_no_cell() {
        let doc = page_of(vec![
            w("VPS", 40.0, 100.0),
            w("Medium", 60.0, 100.0),
            w("01-03-2026", 300.0, 100.0),
            w("-", 355.0, 100.0),
            w("31-03-2026", 362.0, 100.0),
            w("24,00", 515.0, 100.0),
        ]);
        let cols = [
            Column {
                key: LabelKey::ColDesc,
                x0: 40.0,
                x1: 120.0,
            },
            Column {
                key: LabelKey::ColAmount,
                x0: 500.0,
                x1: 540.0,
            },
        ];
        let cells = line_cells(&doc.lines[0], &cols);
        let texts: Vec<(LabelKey, &str)> = cells.iter().map(|c| (c.key, c.text.as_str())).collect();
        assert_eq!(
            texts,
            [
                (LabelKey::ColDesc, "VPS Medium"),
                (LabelKey::ColAmount, "24,00")
            ]
        );
    }

    /// A header over several lines: the article number's name stacked left of the description,
    /// the amount's name (`Positions` / `betrag`) over and under the header line at the right.
    fn stacked_header_doc() -> CleanDocument {
        let words = vec![
            w("Art-Nr-Kunde", 40.0, 89.0),
            w("Positions", 430.0, 89.0),
            w("Pos", 10.0, 100.0),
            w("Beschreibung", 110.0, 100.0),
            w("Menge", 250.0, 100.0),
            w("Nettopreis", 320.0, 100.0),
            w("Art-Nr", 40.0, 111.0),
            w("betrag", 430.0, 111.0),
            w("1", 10.0, 130.0),
            w("Toolbox", 40.0, 130.0),
            w("0815", 78.0, 130.0),
            w("Stahlcoil", 110.0, 130.0),
            w("10", 265.0, 130.0),
            w("100,00", 330.0, 130.0),
            w("1000,00", 430.0, 130.0),
        ];
        page_of(words)
    }

    #[test]
    fn a_long_date_opening_a_row_is_no_part_of_the_description_cell() {
        // `16 december 2021` under `Datum` runs into the description's column (`2021` under
        // `Benämning`): the row's date, not the description's first word.
        let mut words = vec![
            w("Datum", 40.0, 85.0),
            w("Benämning", 110.0, 85.0),
            w("Antal", 420.0, 85.0),
            w("Belopp", 500.0, 85.0),
        ];
        for (y, day, name, a) in [
            (100.0, "16", "Logi", "89,00"),
            (118.0, "17", "Frukost", "12,00"),
        ] {
            words.extend([
                w(day, 40.0, y),
                w("december", 52.0, y),
                w("2021", 96.0, y),
                w(name, 119.0, y),
                w("1", 425.0, y),
                w(a, 500.0, y),
            ]);
        }
        let doc = page_of(words);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        let names: Vec<&str> = t[0]
            .rows
            .iter()
            .filter_map(|r| r.cell(LabelKey::ColDesc).map(|c| c.text.as_str()))
            .collect();
        assert_eq!(names, ["Logi", "Frukost"]);
    }

    #[test]
    fn a_header_no_line_of_which_names_enough_columns_is_read_from_its_stacks() {
        // `ПДВ  Сума` over `Найменування  %  без ПДВ`: description, rate and net amount only
        // when the two lines are read as one header.
        let doc = page_of(vec![
            w("ПДВ", 420.0, 89.0),
            w("Сума", 500.0, 89.0),
            w("Найменування", 40.0, 100.0),
            w("%", 425.0, 100.0),
            w("без", 500.0, 100.0),
            w("ПДВ", 522.0, 100.0),
            w("Консультаційні", 40.0, 120.0),
            w("послуги", 120.0, 120.0),
            w("20%", 422.0, 120.0),
            w("2965385,52", 500.0, 120.0),
            w("Офісне", 40.0, 138.0),
            w("крісло", 90.0, 138.0),
            w("20%", 422.0, 138.0),
            w("159884,20", 500.0, 138.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        let keys: Vec<LabelKey> = t[0].columns.iter().map(|c| c.key).collect();
        assert_eq!(
            keys,
            [LabelKey::ColDesc, LabelKey::ColVatRate, LabelKey::ColAmount]
        );
        assert_eq!(t[0].rows.len(), 2);
        assert_eq!(
            t[0].rows[1].cell(LabelKey::ColAmount).unwrap().text,
            "159884,20"
        );
        // One line of the two alone names no table.
        let alone = page_of(vec![
            w("Найменування", 40.0, 100.0),
            w("%", 425.0, 100.0),
            w("без", 500.0, 100.0),
            w("ПДВ", 522.0, 100.0),
            w("Консультаційні", 40.0, 120.0),
            w("20%", 422.0, 120.0),
            w("2965385,52", 500.0, 120.0),
        ]);
        // One line of the two alone: `без ПДВ` (without VAT) names the net amount, the `%`
        // alone between named columns the rate.
        let t = find_tables(&alone);
        assert_eq!(t.len(), 1);
        let keys: Vec<LabelKey> = t[0].columns.iter().map(|c| c.key).collect();
        assert_eq!(
            keys,
            [LabelKey::ColDesc, LabelKey::ColVatRate, LabelKey::ColAmount]
        );
        assert_eq!(t[0].rows[0].cell(LabelKey::ColVatRate).unwrap().text, "20%");
    }

    #[test]
    fn a_header_stacked_over_lines_names_every_column() {
        let doc = stacked_header_doc();
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        let keys: Vec<LabelKey> = t[0].columns.iter().map(|c| c.key).collect();
        assert_eq!(
            keys,
            [
                LabelKey::ColPos,
                LabelKey::ColSku,
                LabelKey::ColDesc,
                LabelKey::ColQty,
                LabelKey::ColUnitPrice,
                LabelKey::ColAmount
            ]
        );
        assert_eq!(t[0].rows.len(), 1);
        let r = &t[0].rows[0];
        assert_eq!(r.cell(LabelKey::ColSku).unwrap().text, "Toolbox 0815");
        assert_eq!(r.cell(LabelKey::ColDesc).unwrap().text, "Stahlcoil");
        assert_eq!(r.cell(LabelKey::ColAmount).unwrap().text, "1000,00");
        assert_eq!(r.cell(LabelKey::ColUnitPrice).unwrap().text, "100,00");
        // The balanced row reads its article number under the stacked header's column too.
        let c = crate::candidates::extract(&doc);
        let row = &c.item_table.as_ref().expect("a balanced row").rows[0];
        assert_eq!(row.cell(LabelKey::ColSku).unwrap().text, "Toolbox 0815");
        assert_eq!(row.cell(LabelKey::ColDesc).unwrap().text, "Stahlcoil");
    }

    #[test]
    fn a_line_without_a_position_under_numbered_rows_ends_the_table() {
        // `Amount  9.299,21` under rows numbered 1 and 2: a total whose label names a column.
        let words = vec![
            w("Pos", 10.0, 100.0),
            w("Beschreibung", 40.0, 100.0),
            w("Menge", 250.0, 100.0),
            w("Betrag", 430.0, 100.0),
            w("1", 10.0, 115.0),
            w("Beratung", 40.0, 115.0),
            w("2", 265.0, 115.0),
            w("1.000,00", 430.0, 115.0),
            w("2", 10.0, 130.0),
            w("Montage", 40.0, 130.0),
            w("1", 265.0, 130.0),
            w("500,00", 430.0, 130.0),
            w("Amount", 10.0, 145.0),
            w("1.500,00", 430.0, 145.0),
            w("Discount", 10.0, 160.0),
            w("-100,00", 430.0, 160.0),
        ];
        let doc = page_of(words);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        assert_eq!(amount_texts(&t[0].rows), ["1.000,00", "500,00"]);
    }

    #[test]
    fn a_price_no_quantity_multiplies_is_the_rows_amount() {
        // `Pos  Beschreibung  Preis`: what each row charges, no quantity or unit price; the
        // service period under a description is no part of its name.
        let words = vec![
            w("Pos", 10.0, 100.0),
            w("Beschreibung", 40.0, 100.0),
            w("Preis", 430.0, 100.0),
            w("1", 10.0, 115.0),
            w("Webhosting", 40.0, 115.0),
            w("120,00", 430.0, 115.0),
            w("01.01.2026", 40.0, 125.0),
            w("-", 90.0, 125.0),
            w("31.12.2026", 100.0, 125.0),
            w("2", 10.0, 140.0),
            w("Domain", 40.0, 140.0),
            w("12,00", 430.0, 140.0),
        ];
        let doc = page_of(words);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        let rows: Vec<(&str, &str)> = t[0]
            .rows
            .iter()
            .filter_map(|r| {
                Some((
                    r.cell(LabelKey::ColDesc)?.text.as_str(),
                    r.cell(LabelKey::ColAmount)?.text.as_str(),
                ))
            })
            .collect();
        assert_eq!(rows, [("Webhosting", "120,00"), ("Domain", "12,00")]);
        assert!(
            t[0].rows[0].lines.contains(&2),
            "the period's line is the row's"
        );
        // With a quantity column the price stays a unit price.
        let words = vec![
            w("Beschreibung", 40.0, 100.0),
            w("Menge", 300.0, 100.0),
            w("Preis", 430.0, 100.0),
            w("Webhosting", 40.0, 115.0),
            w("2", 310.0, 115.0),
            w("60,00", 430.0, 115.0),
        ];
        let t = find_tables(&page_of(words));
        assert!(t[0].columns.iter().all(|c| c.key != LabelKey::ColAmount));
    }

    #[test]
    fn a_column_name_misread_by_one_letter_still_names_its_column() {
        // `Ilośéć` (Ilość, quantity) between named columns: without its column the quantities
        // join the rate's cell (`1 23%`).
        let words = vec![
            w("#", 10.0, 100.0),
            w("Nazwa", 40.0, 100.0),
            w("towaru", 90.0, 100.0),
            w("Ilośéć", 250.0, 100.0),
            w("VAT", 330.0, 100.0),
            w("%", 360.0, 100.0),
            w("Brutto", 430.0, 100.0),
            w("1", 10.0, 115.0),
            w("Krzesło", 40.0, 115.0),
            w("2", 255.0, 115.0),
            w("23%", 335.0, 115.0),
            w("246,00", 430.0, 115.0),
        ];
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        let row = &t[0].rows[0];
        assert_eq!(
            row.cell(LabelKey::ColQty).map(|c| c.text.as_str()),
            Some("2")
        );
        assert_eq!(
            row.cell(LabelKey::ColVatRate).map(|c| c.text.as_str()),
            Some("23%")
        );
        // Beside the description's name alone (`Beskrivelse  Belgb`, `Beløb` misread): the
        // header of a description and an amount column.
        let words = vec![
            w("Beskrivelse", 40.0, 100.0),
            w("Belgb", 430.0, 100.0),
            w("Konsulentydelser", 40.0, 115.0),
            w("-3.473,75", 425.0, 115.0),
            w("Kontorstol", 40.0, 130.0),
            w("-2.072,96", 425.0, 130.0),
        ];
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        let keys: Vec<LabelKey> = t[0].columns.iter().map(|c| c.key).collect();
        assert_eq!(keys, [LabelKey::ColDesc, LabelKey::ColAmount]);
        assert_eq!(t[0].rows.len(), 2);
    }

    #[test]
    fn a_tax_summary_under_the_items_is_no_item_table() {
        // `ПДВ %  Сума без ПДВ  ПДВ  З ПДВ`: rates and amounts only.
        let words = vec![
            w("#", 10.0, 100.0),
            w("Найменування", 40.0, 100.0),
            w("Кіл-сть", 250.0, 100.0),
            w("З", 430.0, 100.0),
            w("ПДВ", 445.0, 100.0),
            w("1", 10.0, 115.0),
            w("Послуги", 40.0, 115.0),
            w("2", 265.0, 115.0),
            w("120,00", 430.0, 115.0),
            w("ПДВ", 100.0, 145.0),
            w("%", 125.0, 145.0),
            w("Сума", 200.0, 145.0),
            w("без", 223.0, 145.0),
            w("ПДВ", 241.0, 145.0),
            w("ПДВ", 350.0, 145.0),
            w("З", 430.0, 145.0),
            w("ПДВ", 445.0, 145.0),
            w("20%", 100.0, 160.0),
            w("100,00", 200.0, 160.0),
            w("20,00", 350.0, 160.0),
            w("120,00", 430.0, 160.0),
        ];
        let doc = page_of(words);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        assert_eq!(t[0].rows.len(), 1, "{}\n{:?}", doc.plain_text(), t[0].rows);
        let row = &t[0].rows[0];
        assert_eq!(
            row.cell(LabelKey::ColQty).map(|c| c.text.as_str()),
            Some("2")
        );
        assert_eq!(
            row.cell(LabelKey::ColAmountGross).map(|c| c.text.as_str()),
            Some("120,00")
        );
    }

    /// A cell of one line's text, for [`cell_value`].
    fn cell(key: LabelKey, text: &str) -> Cell {
        Cell {
            key,
            text: text.into(),
            span: Span {
                page: 1,
                line: 0,
                start: 0,
                end: text.len(),
                bbox: BBox::default(),
                text: text.into(),
                confidence: 1.0,
            },
            amount: None,
        }
    }

    #[test]
    fn a_rate_whose_percent_sign_ocr_read_as_96_or_95() {
        let rate = |t: &str| cell_value(&cell(LabelKey::ColVatRate, t), Some(','));
        assert_eq!(rate("2096"), Some(Decimal::from(20)));
        assert_eq!(rate("796"), Some(Decimal::from(7)));
        assert_eq!(rate("795"), Some(Decimal::from(7)));
        assert_eq!(rate("20%"), Some(Decimal::from(20)));
        // 96 itself, and numbers no misread rate makes, read as printed.
        assert_eq!(rate("96"), Some(Decimal::from(96)));
        assert_eq!(rate("5096"), Some(Decimal::from(5096)));
        let amount = cell(LabelKey::ColAmount, "2096");
        assert_eq!(cell_value(&amount, Some(',')), Some(Decimal::from(2096)));
        // A discount's percent sign read the same way.
        let discount = cell(LabelKey::ColDiscount, "1596");
        assert_eq!(cell_value(&discount, Some(',')), Some(Decimal::from(15)));
    }

    #[test]
    fn positions_and_quantities_read_with_letters_for_digits() {
        assert_eq!(leading_position("З"), Some(3));
        assert_eq!(leading_position("1O."), Some(10));
        assert_eq!(leading_position("12"), Some(12));
        assert_eq!(leading_position("l"), None);
        assert_eq!(leading_position("Oil"), None);
        assert_eq!(
            cell_value(&cell(LabelKey::ColQty, "З"), Some(',')),
            Some(Decimal::from(3))
        );
        assert_eq!(cell_value(&cell(LabelKey::ColQty, "l"), Some(',')), None);
        // Its unit after it (`З шт.`); where another number follows, that number is the
        // value, and a token with digits after the letter (`З A4`) leaves it unread.
        assert_eq!(
            cell_value(&cell(LabelKey::ColQty, "З шт."), Some(',')),
            Some(Decimal::from(3))
        );
        assert_eq!(
            cell_value(&cell(LabelKey::ColQty, "З 4"), Some(',')),
            Some(Decimal::from(4))
        );
        assert_eq!(cell_value(&cell(LabelKey::ColQty, "З A4"), Some(',')), None);
        assert_eq!(cell_value(&cell(LabelKey::ColDesc, "З"), Some(',')), None);
    }

    #[test]
    fn prices_and_quantities_to_four_places_are_their_columns_numbers() {
        let d = |s: &str| s.parse::<Decimal>().ok();
        let price = |t: &str| cell_value(&cell(LabelKey::ColUnitPrice, t), Some(','));
        assert_eq!(price("415,3900"), d("415.39"));
        assert_eq!(price("2.197,4200"), d("2197.42"));
        assert_eq!(
            cell_value(&cell(LabelKey::ColQty, "6,5000 HUR"), Some(',')),
            d("6.5")
        );
        // An amount's column and a percentage keep to the amount finder's readings.
        assert_eq!(
            cell_value(&cell(LabelKey::ColAmount, "415,3900"), Some(',')),
            None
        );
        assert_eq!(price("12,5000%"), None);
    }

    #[test]
    fn a_column_name_with_its_colon_and_a_value_is_no_header() {
        let line = |text: &str| {
            let words = text
                .split_whitespace()
                .enumerate()
                .map(|(i, t)| w(t, 50.0 + i as f32 * 60.0, 100.0))
                .collect();
            page_of(words).lines.remove(0)
        };
        // A value holding column words (`services`, `rate`) under its key's colon.
        assert!(header_columns(&line("Description: Consulting services (day rate)")).is_none());
        // Column names after a colon are a header's.
        assert!(header_columns(&line("Pos: Description Quantity Price Amount")).is_some());
        assert!(header_columns(&line("Description Quantity Price Amount")).is_some());
    }

    #[test]
    fn a_percentage_beside_an_amount_is_no_amount() {
        let value = |key: LabelKey, t: &str| cell_value(&cell(key, t), Some(','));
        let d = |s: &str| s.parse::<Decimal>().ok();
        assert_eq!(value(LabelKey::ColAmount, "24% 226,35"), d("226.35"));
        assert_eq!(
            value(LabelKey::ColAmountGross, "24%  6141,20"),
            d("6141.20")
        );
        // A rate's or a discount's column reads the percentage; an amount's, quantity's or
        // price's cell of it alone reads nothing.
        assert_eq!(value(LabelKey::ColVatRate, "24% 226,35"), d("24"));
        assert_eq!(value(LabelKey::ColDiscount, "10 % 5,00"), d("10"));
        assert_eq!(value(LabelKey::ColDiscount, "10%"), d("10"));
        assert_eq!(value(LabelKey::ColAmount, "24%"), None);
        assert_eq!(value(LabelKey::ColQty, "5%"), None);
        // A quantity glued to its unit.
        assert_eq!(value(LabelKey::ColQty, "2,5kg"), d("2.5"));
        assert_eq!(value(LabelKey::ColQty, "10pcs"), d("10"));
    }

    #[test]
    fn a_lone_percent_sign_names_the_rate_column_and_keyed_sub_lines_stay_in_their_rows() {
        // `Nimetus  %  Summa` (its tax word `KM` on a line above), rows with a `Bruttó: 205840`
        // attribute line in whole units tight under their name.
        let words = vec![
            w("KM", 298.0, 88.0),
            w("Nimetus", 40.0, 100.0),
            w("%", 300.0, 100.0),
            w("Summa", 430.0, 100.0),
            w("Konsultatsiooniteenus", 40.0, 115.0),
            w("24%", 295.0, 115.0),
            w("226,35", 430.0, 115.0),
            w("Paber", 40.0, 130.0),
            w("A4", 75.0, 130.0),
            w("24%", 295.0, 130.0),
            w("166,00", 430.0, 130.0),
            w("Bruttó:", 45.0, 142.0),
            w("205840", 85.0, 142.0),
            w("Kontoritool", 40.0, 157.0),
            w("24%", 295.0, 157.0),
            w("6141,20", 430.0, 157.0),
        ];
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        let keys: Vec<LabelKey> = t[0].columns.iter().map(|c| c.key).collect();
        assert_eq!(
            keys,
            [LabelKey::ColDesc, LabelKey::ColVatRate, LabelKey::ColAmount]
        );
        assert_eq!(t[0].rows.len(), 3);
        let amounts: Vec<Option<Decimal>> = t[0]
            .rows
            .iter()
            .map(|r| cell_value(r.cell(LabelKey::ColAmount).unwrap(), Some(',')))
            .collect();
        let d = |s: &str| s.parse::<Decimal>().ok();
        assert_eq!(amounts, [d("226.35"), d("166.00"), d("6141.20")]);
        assert_eq!(
            t[0].rows[1].cell(LabelKey::ColDesc).unwrap().text,
            "Paber A4"
        );
    }

    #[test]
    fn two_columns_names_read_as_one_label_and_two_gross_amounts() {
        // `Suma  Su PVM`: `Suma` (the gross amount's word alone) and `Su PVM` (with VAT) read
        // as one label across the gap; per phrase they are two columns, the first the net.
        let mut lines = Vec::new();
        let cols = [40.0, 200.0, 260.0, 330.0, 390.0, 460.0];
        let header = ["Pavadinimas", "Kiekis", "Kaina", "PVM %", "Suma", "Su PVM"];
        let row = [
            "Konsultavimo paslaugos",
            "0.5",
            "749,84",
            "21%",
            "356,17",
            "430,97",
        ];
        for (i, x) in cols.iter().enumerate() {
            lines.push((header[i], *x, 100.0));
            lines.push((row[i], *x, 115.0));
        }
        lines.push(("Suma su PVM:  430,97", 300.0, 140.0));
        let doc = crate::candidates::tests::doc_from(&lines);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1);
        let r = &t[0].rows[0];
        let value = |k: LabelKey| r.cell(k).and_then(|c| cell_value(c, Some(',')));
        assert_eq!(value(LabelKey::ColAmount), Some(Decimal::new(35617, 2)));
        assert_eq!(
            value(LabelKey::ColAmountGross),
            Some(Decimal::new(43097, 2))
        );
    }

    #[test]
    fn a_header_word_no_vocabulary_names_stacks_with_the_word_under_it() {
        // `Su` (with) over `PVM` (VAT): the gross amount's column, though `Su` alone names
        // nothing and `PVM` alone names the rate; `PV%` (OCR's `PVM %`) the rate's.
        let doc = page_of(vec![
            w("#", 10.0, 100.0),
            w("Pavadinimas", 40.0, 100.0),
            w("Kiekis", 250.0, 100.0),
            w("PV%", 320.0, 100.0),
            w("Su", 440.0, 100.0),
            w("PVM", 432.0, 111.0),
            w("Konsultavimo", 40.0, 130.0),
            w("paslaugos", 110.0, 130.0),
            w("10", 255.0, 130.0),
            w("21%", 322.0, 130.0),
            w("-1831,34", 420.0, 130.0),
            w("Biuro", 40.0, 148.0),
            w("kėdė", 75.0, 148.0),
            w("5", 255.0, 148.0),
            w("21%", 322.0, 148.0),
            w("-1003,15", 420.0, 148.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        let keys: Vec<LabelKey> = t[0].columns.iter().map(|c| c.key).collect();
        assert_eq!(
            keys,
            [
                LabelKey::ColPos,
                LabelKey::ColDesc,
                LabelKey::ColQty,
                LabelKey::ColVatRate,
                LabelKey::ColAmountGross
            ]
        );
        let gross: Vec<&str> = t[0]
            .rows
            .iter()
            .filter_map(|r| r.cell(LabelKey::ColAmountGross).map(|c| c.text.as_str()))
            .collect();
        assert_eq!(gross, ["-1831,34", "-1003,15"]);
    }

    #[test]
    fn an_amount_beside_its_columns_name_only_ends_the_table() {
        // The sum before an allowance (the rows sum to the amount after it) under the amount
        // column's own name: no item; nor the labelled lines under it.
        let doc = crate::candidates::tests::doc_from(&[
            ("Наименование  Кол-во  Цена  Сумма", 51.0, 273.0),
            (
                "Консультационные услуги  0.5 шт.  82719.85  41359.93",
                51.0,
                289.0,
            ),
            ("Кресло офисное  10 кг  49874.04  498740.40", 51.0, 306.0),
            ("Сумма  546870.73 руб.", 313.0, 323.0),
            ("Сумма скидки:  -6770.40 руб.", 313.0, 337.0),
            ("Сумма без налога:  540100.33 руб.", 313.0, 351.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1);
        let lines: Vec<&[usize]> = t[0].rows.iter().map(|r| r.lines.as_slice()).collect();
        assert_eq!(lines, [&[1][..], &[2][..]]);
        assert!(amount_name_only("Сумма  1896307.91 руб."));
        assert!(!amount_name_only("Кресло офисное  10 кг"));
        assert!(!amount_name_only("25%  Moms  199,89") && !amount_name_only("Payment Visa"));
    }

    #[test]
    fn a_vat_summarys_header_under_the_items_ends_their_table() {
        // Its words stacked over lines read as one line that covers too few of them to be a
        // header of its own; its row (rate, base, VAT, gross) is no item.
        let doc = crate::candidates::tests::doc_from(&[
            ("#  Pavadinimas  Kiekis  PVM %  Su PVM", 40.0, 100.0),
            ("1  Konsultavimo paslaugos  12  21%  116402,34", 40.0, 115.0),
            (
                "PVM Apmokestinamoji %  vertė  Iš viso PVM  Su PVM",
                260.0,
                140.0,
            ),
            ("21%  96200,28  20202,06  116402,34", 270.0, 155.0),
            ("Bendra vertė:  116402,34", 370.0, 175.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].rows.len(), 1, "{:?}", t[0].rows);
        assert_eq!(t[0].rows[0].lines, [1]);
        assert!(summary_header(&doc.lines[2]));
        // Its first words glued by OCR (`PVMpaokestinamoji`): the VAT total's and the gross
        // column's names are two kinds still.
        let glued = crate::candidates::tests::doc_from(&[(
            "PVMpaokestinamoji verté  Iš viso PVM  Su PVM",
            260.0,
            140.0,
        )]);
        assert!(summary_header(&glued.lines[0]));
        // A header naming what is sold is an item table's; a description with digits none.
        assert!(!summary_header(&doc.lines[0]));
        assert!(!summary_header(&doc.lines[1]));
    }

    #[test]
    fn a_lone_percent_beside_a_named_rate_is_the_discount_and_attributes_are_no_name() {
        // `Hind  %  Summa  KM %`: the discount's column; each amount printed on the line under
        // its row beside an attribute (`24%KM`, `EAN:6252488946531`) that is no more of the name.
        let words = vec![
            w("Nimetus", 40.0, 100.0),
            w("Kogus", 200.0, 100.0),
            w("Hind", 260.0, 100.0),
            w("%", 310.0, 100.0),
            w("Summa", 420.0, 100.0),
            w("KM", 470.0, 100.0),
            w("%", 487.0, 100.0),
            w("Kontoritool", 40.0, 115.0),
            w("5", 205.0, 115.0),
            w("14,40", 255.0, 115.0),
            w("12,5", 305.0, 115.0),
            w("24%", 470.0, 115.0),
            w("24%KM", 60.0, 127.0),
            w("63,00", 420.0, 127.0),
            w("Paber", 40.0, 142.0),
            w("A4", 75.0, 142.0),
            w("2", 205.0, 142.0),
            w("4,40", 255.0, 142.0),
            w("15", 305.0, 142.0),
            w("24%", 470.0, 142.0),
            w("EAN:6252488946531", 60.0, 154.0),
            w("7,48", 420.0, 154.0),
        ];
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        assert!(t[0].columns.iter().any(|c| c.key == LabelKey::ColDiscount));
        let rows: Vec<(&str, &str, &str)> = t[0]
            .rows
            .iter()
            .map(|r| {
                let text = |k: LabelKey| r.cell(k).map_or("", |c| c.text.as_str());
                (
                    text(LabelKey::ColDesc),
                    text(LabelKey::ColDiscount),
                    text(LabelKey::ColAmount),
                )
            })
            .collect();
        assert_eq!(
            rows,
            [("Kontoritool", "12,5", "63,00"), ("Paber A4", "15", "7,48")]
        );
        assert!(attribute_text("24% KM") && attribute_text("1 tk = 40,49"));
        assert!(!attribute_text("Kabel 3x2,5") && !attribute_text("Typ: Standard"));
    }

    #[test]
    fn a_name_over_the_line_of_its_attribute_and_amount_is_the_rows_name() {
        // `Найменування  без ПДВ`: each name on a line of its own, the amount on the line under
        // it beside the article's EAN or the service period.
        let words = vec![
            w("Найменування", 40.0, 100.0),
            w("без", 470.0, 100.0),
            w("ПДВ", 490.0, 100.0),
            w("Консультаційні", 40.0, 115.0),
            w("послуги", 120.0, 115.0),
            w("EAN:", 40.0, 125.0),
            w("8076184966032", 65.0, 125.0),
            w("1299633,60", 460.0, 125.0),
            w("Офісне", 40.0, 142.0),
            w("крісло", 80.0, 142.0),
            w("23.09.2025", 40.0, 152.0),
            w("-", 95.0, 152.0),
            w("07.11.2025", 102.0, 152.0),
            w("1337792,80", 460.0, 152.0),
        ];
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        let names = row_names(&t[0].rows);
        assert_eq!(names, ["Консультаційні послуги", "Офісне крісло"]);
        assert!(attribute_cell("EAN: 8076184966032") && attribute_cell("23.09.2025 - 07.11.2025"));
        assert!(!attribute_cell("Офісне крісло") && !attribute_cell("Kabel 3x2,5"));
    }

    #[test]
    fn a_header_tables_rows_that_sum_outrank_a_lone_balanced_sub_line() {
        // Each name over a sub-line with the row's amount; one sub-line prints a price basis that
        // balances alone (`1 kg = 81,06  81,06`). The header's rows sum to the printed net.
        let words = vec![
            w("Benämning", 40.0, 100.0),
            w("%", 380.0, 100.0),
            w("Belopp", 470.0, 100.0),
            w("Konsulttjänster", 40.0, 115.0),
            w("25%", 380.0, 115.0),
            w("1", 40.0, 125.0),
            w("kg", 50.0, 125.0),
            w("=", 65.0, 125.0),
            w("81,06", 75.0, 125.0),
            w("81,06", 470.0, 125.0),
            w("Kontorsstol", 40.0, 142.0),
            w("25%", 380.0, 142.0),
            w("25%", 40.0, 152.0),
            w("Moms", 60.0, 152.0),
            w("199,89", 470.0, 152.0),
            w("Delsumma", 300.0, 180.0),
            w("280,95", 470.0, 180.0),
        ];
        let c = crate::candidates::extract(&page_of(words));
        let tables = c.item_tables();
        let rows: Vec<Row> = tables.iter().flat_map(|t| t.rows.clone()).collect();
        let names = row_names(&rows);
        assert_eq!(names, ["Konsulttjänster", "Kontorsstol"]);
    }

    #[test]
    fn a_header_tables_rows_that_sum_outrank_fewer_balanced_rows_that_stand_in_on_their_lines() {
        // Three rows under a header; OCR dropped the comma of the second row's quantity (`25`
        // for 2,5), so only two balance and the arithmetic's rows sum to nothing printed. The
        // header's three rows sum to the printed net: they are the items, the two balanced rows
        // with their own cells (quantity and price as the arithmetic read them).
        let row = |y: f32, name: &str, q: &str, p: &str, a: &str, ax: f32| {
            vec![
                w(name, 40.0, y),
                w(q, 250.0, y),
                w("шт.", 275.0, y),
                w(p, 330.0, y),
                w("20%", 400.0, y),
                w(a, ax, y),
            ]
        };
        let mut words = vec![
            w("Наименование", 40.0, 100.0),
            w("Кол-во", 250.0, 100.0),
            w("Цена", 330.0, 100.0),
            w("НДС", 400.0, 100.0),
            w("Сумма", 470.0, 100.0),
        ];
        // The misread row's amount printed askew: no amount aligned under the balanced rows'.
        words.extend(row(115.0, "Кресло", "2", "24219,81", "48439,62", 470.0));
        words.extend(row(130.0, "Бумага", "25", "12327,98", "30819,95", 452.0));
        words.extend(row(145.0, "Кабель", "5", "22503,29", "112516,45", 465.0));
        words.extend([w("Итого", 330.0, 175.0), w("191776,02", 470.0, 175.0)]);
        let c = crate::candidates::extract(&page_of(words));
        let tables = c.item_tables();
        let rows: Vec<Row> = tables.iter().flat_map(|t| t.rows.clone()).collect();
        assert_eq!(row_names(&rows), ["Кресло", "Бумага", "Кабель"], "{rows:?}");
        let sources: Vec<RowSource> = rows.iter().map(|r| r.source).collect();
        assert_eq!(
            sources,
            [RowSource::Balanced, RowSource::Header, RowSource::Balanced]
        );
        assert_eq!(
            rows[0].cell(LabelKey::ColQty).map(|c| c.text.as_str()),
            Some("2")
        );
    }

    #[test]
    fn a_header_tables_rows_that_sum_outrank_one_balanced_row_and_its_aligned_amounts() {
        // Rows priced with a hidden discount: only `Kontorsstol  1  2050,24 ... 2050,24`
        // balances (against its amount with VAT), the other rows' amounts with VAT align under
        // it, and the rows' sum before the discount (`Belopp`) joins them. The header's rows
        // sum to the printed `Summa rader`: they are the items, with their net amounts.
        let right = |t: &str, x1: f32, y: f32| w(t, x1 - t.chars().count() as f32 * 5.0, y);
        let mut words = vec![
            w("Benämning", 51.0, 100.0),
            w("Antal", 232.0, 100.0),
            w("À-pris", 300.0, 100.0),
            w("Moms", 340.0, 100.0),
            w("%", 367.0, 100.0),
            w("Belopp", 430.0, 100.0),
            w("Inkl.", 498.0, 100.0),
            w("moms", 519.0, 100.0),
        ];
        let rows = [
            (
                "Konsulttjänster",
                "2",
                "3386,68",
                "12%",
                "6434,69",
                "7206,85",
            ),
            ("Kontorsstol", "1", "2050,24", "25%", "1640,19", "2050,24"),
            (
                "Kopieringspapper",
                "40",
                "2209,15",
                "25%",
                "83947,70",
                "104934,62",
            ),
            (
                "Programlicens",
                "40",
                "1612,96",
                "25%",
                "61292,48",
                "76615,60",
            ),
            (
                "Installation",
                "0,5",
                "2797,15",
                "25%",
                "1398,58",
                "1748,22",
            ),
            (
                "Serviceavtal",
                "10",
                "1572,98",
                "25%",
                "13370,33",
                "16712,91",
            ),
        ];
        for (k, (name, qty, price, rate, net, gross)) in rows.iter().enumerate() {
            let y = 115.0 + 17.0 * k as f32;
            words.extend([
                w(name, 51.0, y),
                right(qty, 255.0, y),
                right(price, 325.0, y),
                right(rate, 375.0, y),
                right(net, 459.0, y),
                right(gross, 544.0, y),
            ]);
        }
        for (k, (label, amount)) in [
            ("Belopp", "178836,38"),
            ("Avdrag:", "-10752,41"),
            ("Summa rader", "168083,97"),
        ]
        .iter()
        .enumerate()
        {
            let y = 230.0 + 14.0 * k as f32;
            words.extend([w(label, 48.0, y), right(amount, 523.0, y)]);
        }
        let c = crate::candidates::extract(&page_of(words));
        let rows: Vec<Row> = c
            .item_tables()
            .iter()
            .flat_map(|t| t.rows.clone())
            .collect();
        let names = row_names(&rows);
        assert_eq!(
            names,
            [
                "Konsulttjänster",
                "Kontorsstol",
                "Kopieringspapper",
                "Programlicens",
                "Installation",
                "Serviceavtal"
            ]
        );
        let amount = rows[1].cell(LabelKey::ColAmount).expect("amount");
        assert_eq!(cell_value(amount, Some(',')), "1640.19".parse().ok());
    }

    #[test]
    fn a_percentage_alone_under_the_amounts_name_is_no_amount() {
        // The discount's `5%` under `Importo`, the amount on the name's second line.
        let words = vec![
            w("Descrizione", 40.0, 100.0),
            w("Q.tà", 250.0, 100.0),
            w("Prezzo", 330.0, 100.0),
            w("Importo", 460.0, 100.0),
            w("Consulenza", 40.0, 115.0),
            w("3", 255.0, 115.0),
            w("793,05", 330.0, 115.0),
            w("5%", 470.0, 115.0),
            w("professionale", 40.0, 125.0),
            w("2.260,19", 460.0, 125.0),
        ];
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].rows.len(), 1, "{:?}", t[0].rows);
        let amount = t[0].rows[0].cell(LabelKey::ColAmount).expect("amount");
        assert_eq!(cell_value(amount, Some(',')), "2260.19".parse().ok());
    }

    #[test]
    fn a_rate_under_the_rate_column_beside_a_name_over_its_amount_is_no_part_of_it() {
        // `Pavadinimas  %  Suma`: the rate on the name's line, the amount on the line under it
        // beside the EAN; a key of two words before a number is an attribute too.
        let words = vec![
            w("Pavadinimas", 40.0, 100.0),
            w("%", 380.0, 100.0),
            w("Suma", 470.0, 100.0),
            w("Biuro", 40.0, 115.0),
            w("kėdė", 70.0, 115.0),
            w("21%", 380.0, 115.0),
            w("EAN:", 40.0, 125.0),
            w("7315232836170", 65.0, 125.0),
            w("580,74", 470.0, 125.0),
        ];
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        let names = row_names(&t[0].rows);
        assert_eq!(names, ["Biuro kėdė"]);
        assert!(sub_line_cell("Su PVM: -830,22") && !sub_line_cell("Biuro kėdė"));
        // A serial number under its abbreviation is the item's attribute too.
        assert!(sub_line_cell("S/N B4705025") && sub_line_cell("P/N: 88-12"));
        assert!(!sub_line_cell("Adapter N/A 3x2,5") && !sub_line_cell("Router S/N 12345"));
    }

    #[test]
    fn a_totals_block_set_apart_under_the_names_ends_the_rows() {
        // The totals printed under the description column, away from the last row, their
        // lines tight to each other (`Всего без НДС:` under a charge no vocabulary names): no
        // sub-lines of the last row, and the net's label ends the table.
        let mut words = vec![
            w("Наименование товара", 40.0, 100.0),
            w("Кол-во", 250.0, 100.0),
            w("Цена", 330.0, 100.0),
            w("Сумма", 430.0, 100.0),
            w("Услуги", 40.0, 115.0),
            w("2", 265.0, 115.0),
            w("500,00", 330.0, 115.0),
            w("1000,00", 430.0, 115.0),
            w("Бумага", 40.0, 130.0),
            w("1", 265.0, 130.0),
            w("400,00", 330.0, 130.0),
            w("400,00", 430.0, 130.0),
        ];
        for (k, (label, amount)) in [
            ("Товары", "1400,00"),
            ("Доставка", "5,00"),
            ("Всего без НДС:", "1405,00"),
            ("НДС 20%", "281,00"),
            ("Сумма с НДС:", "1686,00"),
        ]
        .into_iter()
        .enumerate()
        {
            let y = 160.0 + 10.0 * k as f32;
            words.push(w(label, 10.0, y));
            words.push(w(amount, 90.0, y));
        }
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].rows.len(), 2, "{:?}", t[0].rows);
        assert!(t[0].end_line <= 5, "{:?}", t[0]);
        assert_eq!(t[0].rows[1].lines.iter().max(), Some(&4), "{:?}", t[0].rows);
    }

    #[test]
    fn a_carried_over_subtotal_ends_the_page_rows() {
        let words = vec![
            w("Pos", 10.0, 100.0),
            w("Beschreibung", 40.0, 100.0),
            w("Menge", 250.0, 100.0),
            w("Betrag", 430.0, 100.0),
            w("Beratung", 40.0, 115.0),
            w("2", 265.0, 115.0),
            w("1.000,00", 430.0, 115.0),
            w("Montage", 40.0, 130.0),
            w("1", 265.0, 130.0),
            w("500,00", 430.0, 130.0),
            w("Übertrag", 300.0, 145.0),
            w("1.400,00", 430.0, 145.0),
        ];
        let t = find_tables(&page_of(words));
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].rows.len(), 2);
    }

    #[test]
    fn an_amount_cell_broken_by_ocr_reads_as_one_amount() {
        let d = |s: &str| s.parse::<Decimal>().ok();
        assert_eq!(
            cell_value(&cell(LabelKey::ColAmount, "1 198483.20"), Some('.')),
            d("1198483.20")
        );
        assert_eq!(
            cell_value(&cell(LabelKey::ColAmountGross, "1 234,56"), Some(',')),
            d("1234.56")
        );
        // Outside an amount column two numbers stay two (`3 12,50`: a quantity and a price).
        assert_eq!(
            cell_value(&cell(LabelKey::ColQty, "3 12,50"), Some(',')),
            d("3")
        );
        assert_eq!(
            cell_value(&cell(LabelKey::ColAmount, "198483.20"), Some('.')),
            d("198483.20")
        );
        // A first piece that reads with the other decimal separator than the document's.
        assert_eq!(
            cell_value(&cell(LabelKey::ColAmountGross, "-1.05 2,31"), Some(',')),
            d("-1052.31")
        );
        assert_eq!(
            cell_value(&cell(LabelKey::ColAmount, "1,05 2.31"), Some('.')),
            d("1052.31")
        );
    }

    #[test]
    fn a_dates_name_is_a_header_word_of_a_folio() {
        // `Datums  Nosaukums  Daudzums  Debets  Kredīts`: the description and the quantity are
        // named, the charges and credits in words no vocabulary knows, the day of each row by
        // a date's name. Without the date's name, too few of its words name a column.
        let folio = |first: &'static str| {
            let doc = page_of(vec![
                w(first, 10.0, 100.0),
                w("Nosaukums", 110.0, 100.0),
                w("Daudzums", 260.0, 100.0),
                w("Debets", 400.0, 100.0),
                w("Kredīts", 480.0, 100.0),
                w("01.12.2019", 10.0, 115.0),
                w("Konsultācijas", 110.0, 115.0),
                w("2", 280.0, 115.0),
                w("169,40", 400.0, 115.0),
                w("02.12.2019", 10.0, 130.0),
                w("Brokastis", 110.0, 130.0),
                w("1", 280.0, 130.0),
                w("12,10", 400.0, 130.0),
            ]);
            find_tables(&doc).first().map(|t| {
                t.rows
                    .iter()
                    .filter_map(|r| r.cell(LabelKey::ColDesc))
                    .count()
            })
        };
        assert_eq!(folio("Datums"), Some(2));
        assert_eq!(folio("Qwerty"), None);
    }

    #[test]
    fn a_statements_net_column_and_the_line_of_its_sum() {
        // `bez DPH`, a net total's words, names the amount column beside `Popis`; the line
        // whose amount is the rows' sum ends the table whatever its label.
        let doc = page_of(vec![
            w("Popis", 10.0, 100.0),
            w("bez", 420.0, 100.0),
            w("DPH", 440.0, 100.0),
            w("Poradenské", 10.0, 115.0),
            w("služby", 65.0, 115.0),
            w("140,01", 425.0, 115.0),
            w("Kancelárska", 10.0, 130.0),
            w("stolička", 70.0, 130.0),
            w("8754,80", 420.0, 130.0),
            w("Zisa:", 10.0, 145.0),
            w("8894,81", 420.0, 145.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        assert_eq!(amount_texts(&t[0].rows), ["140,01", "8754,80"]);
    }

    #[test]
    fn money_under_the_quantity_column_ends_the_table() {
        // A gross table's totals printed left, their amounts under its quantity column: money
        // with its currency is no quantity, the rows end above it.
        let doc = page_of(vec![
            w("Denumire", 10.0, 100.0),
            w("Cant.", 250.0, 100.0),
            w("Cu", 420.0, 100.0),
            w("TVA", 440.0, 100.0),
            w("Servicii", 10.0, 115.0),
            w("3", 255.0, 115.0),
            w("2.466,16", 425.0, 115.0),
            w("Hârtie", 10.0, 130.0),
            w("10", 255.0, 130.0),
            w("6.117,95", 425.0, 130.0),
            w("Valoare", 10.0, 145.0),
            w("mărfuri", 60.0, 145.0),
            w("lei", 230.0, 145.0),
            w("7.212,38", 250.0, 145.0),
            w("Transport", 10.0, 160.0),
            w("lei", 230.0, 160.0),
            w("43,68", 255.0, 160.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        assert_eq!(
            t[0].rows.len(),
            2,
            "{:?}",
            t[0].rows
                .iter()
                .map(|r| (
                    &r.lines,
                    r.cells.iter().map(|c| (c.key, &c.text)).collect::<Vec<_>>()
                ))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn the_payment_that_settles_a_folio_is_no_row() {
        // A hotel's folio: the guest's payment closes the table as a line of its own, charged
        // negative or credited in a column right of the charges; it pays for the rows above,
        // it is none of them. The same amount as one row above in the charges column is a row.
        let folio = |payment: Vec<Word>| {
            let mut words = vec![
                w("Description", 10.0, 100.0),
                w("Qty", 250.0, 100.0),
                w("Amount", 400.0, 100.0),
                w("Credit", 480.0, 100.0),
                w("Room", 10.0, 115.0),
                w("2", 255.0, 115.0),
                w("178,00", 400.0, 115.0),
            ];
            words.extend(payment);
            let doc = page_of(words);
            let t = find_tables(&doc);
            assert_eq!(t.len(), 1, "{}", doc.plain_text());
            t[0].rows
                .iter()
                .filter_map(|r| r.cell(LabelKey::ColDesc).map(|c| c.text.clone()))
                .collect::<Vec<_>>()
        };
        let visa = |amount: &'static str, x: f32| {
            vec![
                w("Payment", 10.0, 130.0),
                w("Visa", 60.0, 130.0),
                w(amount, x, 130.0),
            ]
        };
        assert_eq!(folio(visa("-178,00", 400.0)), ["Room"]);
        assert_eq!(folio(visa("178,00", 480.0)), ["Room"]);
        // Not a credit that settles nothing, nor the same charge again.
        assert_eq!(folio(visa("-100,00", 400.0)), ["Room", "Payment Visa"]);
        assert_eq!(folio(visa("178,00", 400.0)), ["Room", "Payment Visa"]);
        // A reversed row billed again is two rows.
        let doc = page_of(vec![
            w("Description", 10.0, 100.0),
            w("Qty", 250.0, 100.0),
            w("Amount", 400.0, 100.0),
            w("Storno", 10.0, 115.0),
            w("1", 255.0, 115.0),
            w("-50,00", 400.0, 115.0),
            w("Rebilled", 10.0, 130.0),
            w("1", 255.0, 130.0),
            w("50,00", 400.0, 130.0),
        ]);
        assert_eq!(find_tables(&doc)[0].rows.len(), 2);
    }

    #[test]
    fn a_period_under_a_row_is_no_row_where_its_dates_reach_a_number_column() {
        let doc = page_of(vec![
            w("Description", 10.0, 100.0),
            w("Qty", 250.0, 100.0),
            w("Amount", 400.0, 100.0),
            w("Support", 10.0, 115.0),
            w("2", 255.0, 115.0),
            w("178,00", 400.0, 115.0),
            w("17", 10.0, 127.0),
            w("september", 22.0, 127.0),
            w("2021", 75.0, 127.0),
            w("-", 100.0, 127.0),
            w("1", 255.0, 127.0),
            w("november", 262.0, 127.0),
            w("2021", 310.0, 127.0),
            w("Hosting", 10.0, 142.0),
            w("1", 255.0, 142.0),
            w("30,00", 400.0, 142.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        let qty: Vec<&str> = t[0]
            .rows
            .iter()
            .filter_map(|r| r.cell(LabelKey::ColQty).map(|c| c.text.as_str()))
            .collect();
        assert_eq!(qty, ["2", "1"], "{:?}", t[0].rows);
    }

    #[test]
    fn summary_lines_read_as_rows_leave_the_table_where_the_rows_above_them_sum() {
        // `Amount` (a subtotal before the discount) and `Discount:` under the rows read as two
        // more rows of a description and an amount; the rows above them sum to the net total
        // printed further down.
        let doc = page_of(vec![
            w("Description", 10.0, 100.0),
            w("VAT", 290.0, 100.0),
            w("%", 310.0, 100.0),
            w("Amount", 420.0, 100.0),
            w("Consulting", 10.0, 115.0),
            w("9%", 300.0, 115.0),
            w("-10.32", 420.0, 115.0),
            w("Laptop", 10.0, 130.0),
            w("bag", 50.0, 130.0),
            w("23%", 300.0, 130.0),
            w("-212.70", 420.0, 130.0),
            w("Paint", 10.0, 145.0),
            w("23%", 300.0, 145.0),
            w("-503.40", 420.0, 145.0),
            w("Amount", 10.0, 160.0),
            w("-753.16", 420.0, 160.0),
            w("Discount:", 10.0, 175.0),
            w("26.74", 420.0, 175.0),
            w("Total", 300.0, 200.0),
            w("net:", 330.0, 200.0),
            w("-726.42", 420.0, 200.0),
        ]);
        let t = &super::super::extract(&doc).tables;
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        assert_eq!(amount_texts(&t[0].rows), ["-10.32", "-212.70", "-503.40"]);
        // Where the rows together sum to a printed amount, they all stay.
        let mut t = t[0].clone();
        let rows = t.rows.len();
        drop_summary_rows(&mut t, &doc, Some('.'));
        assert_eq!(t.rows.len(), rows);
    }

    #[test]
    fn a_position_left_of_a_header_that_names_none_and_a_tax_note_under_a_row() {
        // `Nimetus` heads the names; each row opens with its position further left, and a
        // tax's note (`24%KM`) under a row names nothing.
        let doc = page_of(vec![
            w("Nimetus", 60.0, 100.0),
            w("Kogus", 250.0, 100.0),
            w("%", 350.0, 100.0),
            w("Summa", 420.0, 100.0),
            w("1", 20.0, 115.0),
            w("Konsultatsioon", 60.0, 115.0),
            w("10", 250.0, 115.0),
            w("24%", 340.0, 115.0),
            w("5487,25", 420.0, 115.0),
            w("2", 20.0, 130.0),
            w("Paber", 60.0, 130.0),
            w("A4", 95.0, 130.0),
            w("12", 250.0, 130.0),
            w("24%", 340.0, 130.0),
            w("23685,09", 420.0, 130.0),
            w("24%KM", 60.0, 140.0),
            w("Kokku", 300.0, 170.0),
            w("29172,34", 420.0, 170.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        assert_eq!(row_names(&t[0].rows), ["Konsultatsioon", "Paber A4"]);
        let positions: Vec<Option<u32>> = t[0]
            .rows
            .iter()
            .map(|r| {
                r.cell(LabelKey::ColPos)
                    .and_then(|c| leading_position(&c.text))
            })
            .collect();
        assert_eq!(positions, [Some(1), Some(2)]);
    }

    #[test]
    fn sums_carried_over_a_page_are_no_rows() {
        // Each page's table ends with `Transport`, the sum of every row so far (Danish: carried
        // forward), the second over both pages; a row's amount that is no such sum stays.
        let mut words = Vec::new();
        for (top, rows, carried) in [
            (
                100.0,
                [("Konsulent", "-1.657,08"), ("Kontorstol", "-673,40")],
                "-2.330,48",
            ),
            (
                400.0,
                [("Kabel", "-215,90"), ("Papir", "-2.330,48")],
                "-4.876,86",
            ),
        ] {
            words.extend([
                w("Beskrivelse", 10.0, top),
                w("Moms", 300.0, top),
                w("Beløb", 420.0, top),
            ]);
            let mut y = top;
            for (name, amount) in rows {
                y += 15.0;
                words.extend([w(name, 10.0, y), w("25%", 300.0, y), w(amount, 420.0, y)]);
            }
            words.extend([w("Transport", 10.0, y + 15.0), w(carried, 420.0, y + 15.0)]);
        }
        let t = &super::super::extract(&page_of(words)).tables;
        let amounts = amount_texts(t.iter().flat_map(|t| &t.rows));
        // `Papir` costs what the first page carried, which is not the sum of the rows above it
        // (the second page's `Kabel` is among them): an item.
        assert_eq!(amounts, ["-1.657,08", "-673,40", "-215,90", "-2.330,48"]);
    }

    #[test]
    fn four_summary_lines_leave_the_table_where_the_rows_above_them_sum() {
        // The sum before the discount under the amount column's own name, the discount, the
        // base and the VAT: four lines no total's label ends the table with; the two rows above
        // them sum to the base.
        let doc = page_of(vec![
            w("Descripción", 10.0, 100.0),
            w("IVA%", 300.0, 100.0),
            w("Importe", 420.0, 100.0),
            w("Consultoría", 10.0, 115.0),
            w("21%", 300.0, 115.0),
            w("6.617,76", 420.0, 115.0),
            w("Silla", 10.0, 130.0),
            w("21%", 300.0, 130.0),
            w("343,28", 420.0, 130.0),
            w("Importe", 10.0, 145.0),
            w("8.633,55", 420.0, 145.0),
            w("Dto.:", 10.0, 160.0),
            w("-1.672,51", 420.0, 160.0),
            w("Base:", 10.0, 175.0),
            w("6.961,04", 420.0, 175.0),
            w("Importe", 10.0, 190.0),
            w("IVA", 50.0, 190.0),
            w("21%", 68.0, 190.0),
            w("1.461,82", 420.0, 190.0),
            w("Total", 10.0, 205.0),
            w("con", 50.0, 205.0),
            w("IVA:", 80.0, 205.0),
            w("8.422,86", 420.0, 205.0),
        ]);
        let t = &super::super::extract(&doc).tables;
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        assert_eq!(amount_texts(&t[0].rows), ["6.617,76", "343,28"]);
    }

    #[test]
    fn summary_lines_under_a_single_row_leave_the_table() {
        // One item; `Valoare` (before the discount) and `Reducere:` read as two more rows. The
        // item's amount is the net printed further down.
        let doc = page_of(vec![
            w("Denumire", 10.0, 100.0),
            w("Cant.", 250.0, 100.0),
            w("Valoare", 420.0, 100.0),
            w("Consultanta", 10.0, 115.0),
            w("2", 260.0, 115.0),
            w("5.588,32", 420.0, 115.0),
            w("Valoare", 10.0, 130.0),
            w("6.985,40", 420.0, 130.0),
            w("Reducere:", 10.0, 145.0),
            w("-1.397,08", 420.0, 145.0),
            w("Baza", 300.0, 170.0),
            w("de", 325.0, 170.0),
            w("impozitare:", 340.0, 170.0),
            w("5.588,32", 420.0, 170.0),
        ]);
        let t = &super::super::extract(&doc).tables;
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        assert_eq!(t[0].rows.len(), 1, "{:?}", t[0].rows);
    }

    #[test]
    fn reconstructs_a_table() {
        let mut words = vec![
            w("Rechnung", 10.0, 10.0),
            w("Pos", 10.0, 100.0),
            w("Beschreibung", 40.0, 100.0),
            w("Menge", 250.0, 100.0),
            w("Einzelpreis", 320.0, 100.0),
            w("Betrag", 430.0, 100.0),
        ];
        // Row 1 (with a wrapped description), row 2.
        words.extend([
            w("1", 10.0, 115.0),
            w("Trennblätter", 40.0, 115.0),
            w("A4", 105.0, 115.0),
            w("20", 265.0, 115.0),
            w("9,90", 355.0, 115.0),
            w("198,00", 430.0, 115.0),
            w("gelocht", 40.0, 128.0),
            w("2", 10.0, 141.0),
            w("Joghurt", 40.0, 141.0),
            w("50", 265.0, 141.0),
            w("5,50", 355.0, 141.0),
            w("275,00", 430.0, 141.0),
            w("Summe", 320.0, 170.0),
            w("473,00", 430.0, 170.0),
        ]);
        let doc = page_of(words);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        let t = &t[0];
        assert_eq!(t.header_line, 1);
        assert_eq!(t.rows.len(), 2);
        let r0 = &t.rows[0];
        assert_eq!(
            r0.cell(LabelKey::ColDesc).unwrap().text,
            "Trennblätter A4 gelocht"
        );
        assert_eq!(r0.cell(LabelKey::ColQty).unwrap().text, "20");
        assert_eq!(r0.cell(LabelKey::ColUnitPrice).unwrap().text, "9,90");
        assert_eq!(r0.cell(LabelKey::ColAmount).unwrap().text, "198,00");
        assert_eq!(r0.cell(LabelKey::ColPos).unwrap().text, "1");
        assert_eq!(r0.lines, vec![2, 3]);
        assert_eq!(t.rows[1].cell(LabelKey::ColAmount).unwrap().text, "275,00");
        // The totals line is not a row.
        assert!(t.rows.iter().all(|r| !r.lines.contains(&5)));
    }

    #[test]
    fn an_amount_under_its_row_completes_it() {
        let doc = crate::candidates::tests::page_doc(vec![
            w("Pos", 10.0, 100.0),
            w("Beschreibung", 40.0, 100.0),
            w("Menge", 250.0, 100.0),
            w("Einzelpreis", 320.0, 100.0),
            w("Betrag", 430.0, 100.0),
            // The header's second line.
            w("Art-Nr", 40.0, 114.0),
            // Row 1: quantity on the name's line, amount on the line under it, attributes and a
            // service period (dates under the price column) after it.
            w("1", 10.0, 130.0),
            w("Stahlcoil", 40.0, 130.0),
            w("10", 265.0, 130.0),
            w("Stk", 280.0, 130.0),
            w("Basismenge:", 40.0, 144.0),
            w("1", 100.0, 144.0),
            w("Stk", 110.0, 144.0),
            w("1.000,00", 430.0, 144.0),
            w("Herkunftsland:", 40.0, 158.0),
            w("DE", 115.0, 158.0),
            w("verzinkt", 40.0, 172.0),
            w("01.10.2018", 330.0, 172.0),
            w("31.10.2018", 385.0, 172.0),
            // Row 2, its amount under it.
            w("2", 10.0, 190.0),
            w("Stoßfänger", 40.0, 190.0),
            w("10", 265.0, 190.0),
            w("1.000,00", 430.0, 204.0),
            w("Summe", 320.0, 230.0),
            w("2.000,00", 430.0, 230.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t.len(), 1, "{}", doc.plain_text());
        let rows = &t[0].rows;
        assert_eq!(rows.len(), 2, "{rows:?}");
        let text = |r: &Row, k: LabelKey| r.cell(k).map(|c| c.text.clone());
        assert_eq!(
            text(&rows[0], LabelKey::ColDesc).as_deref(),
            Some("Stahlcoil verzinkt 01.10.2018 31.10.2018")
        );
        assert_eq!(
            text(&rows[0], LabelKey::ColAmount).as_deref(),
            Some("1.000,00")
        );
        assert_eq!(text(&rows[0], LabelKey::ColQty).as_deref(), Some("10 Stk"));
        assert_eq!(rows[0].lines, vec![2, 3, 4, 5]);
        assert_eq!(
            text(&rows[1], LabelKey::ColDesc).as_deref(),
            Some("Stoßfänger")
        );
        assert_eq!(
            text(&rows[1], LabelKey::ColAmount).as_deref(),
            Some("1.000,00")
        );
        assert_eq!(rows[1].lines, vec![6, 7]);
    }

    #[test]
    fn a_key_value_line_under_unknown_labels_ends_the_table() {
        let page = |extra: Vec<Word>| {
            let mut words = vec![
                w("Pos", 10.0, 100.0),
                w("Beschreibung", 40.0, 100.0),
                w("Menge", 250.0, 100.0),
                w("Einzelpreis", 320.0, 100.0),
                w("Betrag", 430.0, 100.0),
                w("1", 10.0, 115.0),
                w("Joghurt", 40.0, 115.0),
                w("50", 265.0, 115.0),
                w("5,50", 355.0, 115.0),
                w("275,00", 430.0, 115.0),
            ];
            words.extend(extra);
            crate::candidates::tests::page_doc(words)
        };
        // A totals line under a word no vocabulary knows, in the number columns.
        let doc = page(vec![
            w("Fodo", 300.0, 132.0),
            w(":", 322.0, 132.0),
            w("327,25", 430.0, 132.0),
        ]);
        let t = find_tables(&doc);
        assert_eq!(t[0].rows.len(), 1, "{}", doc.plain_text());
        // A row whose description holds a key stays a row.
        let doc = page(vec![
            w("2", 10.0, 132.0),
            w("Lieferzeit:", 40.0, 132.0),
            w("Milch", 100.0, 132.0),
            w("10", 265.0, 132.0),
            w("1,20", 355.0, 132.0),
            w("12,00", 430.0, 132.0),
        ]);
        assert_eq!(find_tables(&doc)[0].rows.len(), 2, "{}", doc.plain_text());
    }

    #[test]
    fn a_totals_block_printed_as_running_text_ends_the_table() {
        let page = |extra: Vec<Word>| {
            let mut words = vec![
                w("#", 10.0, 100.0),
                w("Descripción", 40.0, 100.0),
                w("Cant.", 250.0, 100.0),
                w("Precio", 320.0, 100.0),
                w("Importe", 430.0, 100.0),
                w("1", 10.0, 115.0),
                w("Silla", 40.0, 115.0),
                w("2", 265.0, 115.0),
                w("129,62", 330.0, 115.0),
                w("259,24", 430.0, 115.0),
            ];
            words.extend(extra);
            crate::candidates::tests::page_doc(words)
        };
        // The net, the VAT and the total named along one line, under the number columns.
        let words = |text: &str, y: f32| {
            let mut x = 10.0;
            text.split(' ')
                .map(|t| {
                    let word = w(t, x, y);
                    x += 8.0 * t.chars().count() as f32 + 6.0;
                    word
                })
                .collect::<Vec<_>>()
        };
        let doc = page(words(
            "Importe 259,24 EUR Dto.: 0,00 EUR Importe neto: 259,24 EUR Total IVA 21% 54,44 EUR",
            132.0,
        ));
        let t = find_tables(&doc);
        assert_eq!(t[0].rows.len(), 1, "{}", doc.plain_text());
        // A row whose description names one of them stays a row.
        let doc = page(vec![
            w("2", 10.0, 132.0),
            w("Panel", 40.0, 132.0),
            w("LED", 90.0, 132.0),
            w("Total", 120.0, 132.0),
            w("10", 265.0, 132.0),
            w("1,20", 330.0, 132.0),
            w("12,00", 430.0, 132.0),
        ]);
        assert_eq!(find_tables(&doc)[0].rows.len(), 2, "{}", doc.plain_text());
    }

    #[test]
    fn an_article_number_loses_its_printed_name() {
        assert_eq!(bare_sku("Réf. FLY-A5"), Some("FLY-A5"));
        assert_eq!(bare_sku("Art.-Nr.: 4711-08"), Some("4711-08"));
        assert_eq!(bare_sku("SKU 88213"), Some("88213"));
        assert_eq!(bare_sku("Réf. LIV"), Some("LIV"));
        // Not a name followed by words or by a word, nor no name at all.
        assert_eq!(bare_sku("Code promo ETE"), None);
        assert_eq!(bare_sku("Ref Fracht"), None);
        assert_eq!(bare_sku("4711-08"), None);
    }

    #[test]
    fn prose_is_not_a_header() {
        let doc = page_of(vec![
            w("Please", 10.0, 10.0),
            w("pay", 50.0, 10.0),
            w("the", 75.0, 10.0),
            w("amount", 95.0, 10.0),
            w("within", 130.0, 10.0),
            w("ten", 165.0, 10.0),
            w("days", 185.0, 10.0),
            w("for", 210.0, 10.0),
            w("this", 230.0, 10.0),
            w("description", 255.0, 10.0),
        ]);
        assert!(find_tables(&doc).is_empty());
    }
}
