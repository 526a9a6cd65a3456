//! Line items printed as blocks of `Key: value` lines, one block per item, as e-invoice
//! renderings and some ERP print them:
//!
//! ```text
//! Position 1
//!   Artikelnummer:        EM-100
//!   Bezeichnung:          Installationskabel NYM-J 3x1,5
//!   Menge:                100,0000 MTR
//!   Einzelpreis (netto):  0,89 EUR
//!   Umsatzsteuer:         19 %
//!   Gesamtpreis (netto):  89,00 EUR
//! ```
//!
//! The keys are the column names of item tables in any language (the same vocabulary); a key
//! printed again starts the next item. A block is a row where it names a description and an
//! amount and, where it prints a quantity and a unit price, quantity x unit price (less its
//! discount) is the amount; the rows together must sum to an amount printed below the last
//! block, or there is no table.

use rust_decimal::Decimal;

use super::DocStyle;
use super::labels::{LabelHit, LabelKey};
use super::rows::continue_name;
use super::tables::{Cell, Row, RowSource, TableLayout, cell_value, printed_amounts};
use crate::preprocess::collapse_spaces;
use crate::types::{CleanDocument, Span};

/// One `Key: value` line: the column the key names and where its value starts and ends.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Keyed {
    key: LabelKey,
    line: usize,
    start: usize,
    end: usize,
}

/// The key a line opens with, if it is a `Key: value` line of an item block: a column name at
/// the start, then (past words without digits: `(netto)`) a colon and a value; `Position 1`
/// without a colon. A VAT label names the rate where its value is a percentage, else the VAT
/// amount.
fn keyed(text: &str, hits: &[LabelHit], line: usize) -> Option<Keyed> {
    let lead = text.len() - text.trim_start().len();
    let hit = hits
        .iter()
        .filter(|h| h.start == lead && (h.key.is_column() || h.key == LabelKey::Vat))
        .min_by_key(|h| h.key == LabelKey::Vat)?;
    let rest = &text[hit.end..];
    let value_at = match rest.find(':') {
        Some(c) if c <= 24 && !rest[..c].chars().any(|ch| ch.is_ascii_digit()) => hit.end + c + 1,
        // `Position 1`: a position number after its name.
        _ if hit.key == LabelKey::ColPos
            && rest.trim().trim_end_matches('.').parse::<u32>().is_ok() =>
        {
            hit.end
        }
        _ => return None,
    };
    let value = text[value_at..].trim();
    if value.is_empty()
        || hits
            .iter()
            .any(|h| h.start >= value_at && h.key.is_column())
    {
        return None;
    }
    let start = value_at + (text[value_at..].len() - text[value_at..].trim_start().len());
    let end = text.trim_end().len();
    let key = match hit.key {
        LabelKey::Vat if value.contains('%') => LabelKey::ColVatRate,
        LabelKey::Vat => LabelKey::ColVatAmount,
        k => k,
    };
    Some(Keyed {
        key,
        line,
        start,
        end,
    })
}

/// The cell of a keyed value (its number in the document's style).
fn cell(doc: &CleanDocument, k: &Keyed, style: &DocStyle) -> Cell {
    let l = &doc.lines[k.line];
    let mut c = Cell {
        key: k.key,
        text: collapse_spaces(&l.text[k.start..k.end]),
        span: Span::from_line(l, k.start, k.end),
        amount: None,
    };
    if !matches!(
        k.key,
        LabelKey::ColDesc | LabelKey::ColSku | LabelKey::ColUnit
    ) {
        // A quantity of four decimals (`6,5000 HUR`) is no amount the amount finder reads.
        c.amount = cell_value(&c, style.decimal).or_else(|| {
            c.text
                .split_whitespace()
                .find_map(|t| super::rows::token_number(t, style.decimal))
                .map(|(v, _, _)| v)
        });
    }
    c
}

/// A block's row, where it names a description and an amount whose arithmetic holds.
fn row_of(block: &[Cell], lines: Vec<usize>) -> Option<Row> {
    let get = |k: LabelKey| block.iter().find(|c| c.key == k);
    let value = |k: LabelKey| get(k).and_then(|c| c.amount);
    get(LabelKey::ColDesc)?;
    let amount = value(LabelKey::ColAmount).or_else(|| value(LabelKey::ColAmountGross))?;
    let source = match (value(LabelKey::ColQty), value(LabelKey::ColUnitPrice)) {
        (Some(q), Some(p)) => {
            let d = value(LabelKey::ColDiscount).unwrap_or_default();
            let product = q * p * (Decimal::ONE_HUNDRED - d.abs()) / Decimal::ONE_HUNDRED;
            if (product - amount).abs() >= Decimal::new(1, 2) {
                return None;
            }
            RowSource::Balanced
        }
        _ => RowSource::Aligned,
    };
    Some(Row {
        lines,
        cells: block.to_vec(),
        source,
    })
}

/// The item rows of `Key: value` blocks, where they sum to an amount printed below them.
pub(super) fn find(
    doc: &CleanDocument,
    style: &DocStyle,
    line_labels: &[Vec<LabelHit>],
) -> Option<TableLayout> {
    let mut blocks: Vec<(Vec<Cell>, Vec<usize>)> = Vec::new();
    let mut cur: (Vec<Cell>, Vec<usize>) = (Vec::new(), Vec::new());
    // The x where the last description's value starts: a line beginning there continues it.
    let mut desc_x: Option<f32> = None;
    let mut flush = |cur: &mut (Vec<Cell>, Vec<usize>)| {
        if !cur.0.is_empty() {
            blocks.push(std::mem::take(cur));
        }
    };
    for (i, line) in doc.lines.iter().enumerate() {
        let hits = line_labels.get(i).map_or(&[][..], Vec::as_slice);
        match keyed(&line.text, hits, i) {
            Some(k) => {
                if cur.0.iter().any(|c| c.key == k.key) {
                    flush(&mut cur);
                }
                let c = cell(doc, &k, style);
                desc_x = (k.key == LabelKey::ColDesc).then_some(c.span.bbox.x0);
                cur.0.push(c);
                cur.1.push(i);
            }
            None => {
                let continues = desc_x.is_some_and(|x| {
                    (line.bbox.x0 - x).abs() <= line.bbox.height().max(1.0) * 0.5
                        && cur.1.last().is_some_and(|&l| l + 1 == i)
                });
                match cur.0.last_mut() {
                    Some(last) if continues && last.key == LabelKey::ColDesc => {
                        continue_name(&mut last.text, &collapse_spaces(&line.text));
                        cur.1.push(i);
                    }
                    _ => {
                        desc_x = None;
                        flush(&mut cur);
                    }
                }
            }
        }
    }
    flush(&mut cur);
    let rows: Vec<Row> = blocks
        .into_iter()
        .filter_map(|(cells, lines)| row_of(&cells, lines))
        .collect();
    let first = *rows.first()?.lines.first()?;
    let last = *rows.last()?.lines.last()?;
    let sum: Decimal = rows
        .iter()
        .filter_map(|r| {
            r.cell(LabelKey::ColAmount)
                .or_else(|| r.cell(LabelKey::ColAmountGross))
                .and_then(|c| c.amount)
        })
        .sum();
    let printed = printed_amounts(doc, style.decimal, last + 1)
        .iter()
        .any(|&(_, v)| v == sum);
    printed.then(|| TableLayout {
        header_line: first,
        columns: Vec::new(),
        rows,
        end_line: last + 1,
        sums: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::labels::find_labels;
    use crate::candidates::tests::{page_doc, word};

    /// Lines at their x, 12 pt apart; words 5 pt a letter, two spaces a column gap.
    fn table(lines: &[(&str, f32)]) -> Option<TableLayout> {
        let mut words = Vec::new();
        for (i, (text, x0)) in lines.iter().enumerate() {
            let y = 100.0 + i as f32 * 12.0;
            let mut x = *x0;
            for (j, segment) in text.split("  ").enumerate() {
                if j > 0 {
                    x += 25.0;
                }
                for w in segment.split_whitespace() {
                    words.push(word(w, x, y));
                    x += w.chars().count() as f32 * 5.0 + 5.0;
                }
            }
        }
        let doc = page_doc(words);
        let style = DocStyle::detect(&doc);
        let labels: Vec<Vec<LabelHit>> = doc.lines.iter().map(|l| find_labels(&l.text)).collect();
        find(&doc, &style, &labels)
    }

    fn texts(r: &Row) -> Vec<(LabelKey, String)> {
        r.cells.iter().map(|c| (c.key, c.text.clone())).collect()
    }

    #[test]
    fn blocks_of_keys_and_values_are_rows() {
        let t = table(&[
            ("Position 1", 40.0),
            ("Artikelnummer:  EM-100", 60.0),
            ("Bezeichnung:  Installationskabel NYM-J 3x1,5", 60.0),
            ("Menge:  100,0000 MTR", 60.0),
            ("Einzelpreis (netto):  0,89 EUR", 60.0),
            ("Umsatzsteuer:  19 %", 60.0),
            ("Gesamtpreis (netto):  89,00 EUR", 60.0),
            ("Position 2", 40.0),
            ("Bezeichnung:  Montagestunden", 60.0),
            ("Elektriker vor Ort", 150.0),
            ("Menge:  6,5000 HUR", 60.0),
            ("Einzelpreis (netto):  58,00 EUR", 60.0),
            ("Gesamtpreis (netto):  377,00 EUR", 60.0),
            ("Summe Positionen netto  466,00 EUR", 300.0),
            ("Umsatzsteuer 19 %  88,54 EUR", 300.0),
        ])
        .expect("a table");
        assert_eq!(t.rows.len(), 2);
        let r = &t.rows[1];
        assert_eq!(r.source, RowSource::Balanced);
        let t1 = texts(&t.rows[0]);
        assert!(t1.contains(&(LabelKey::ColPos, "1".into())), "{t1:?}");
        assert!(t1.contains(&(LabelKey::ColSku, "EM-100".into())), "{t1:?}");
        assert!(
            t1.contains(&(LabelKey::ColVatRate, "19 %".into())),
            "{t1:?}"
        );
        assert_eq!(
            r.cell(LabelKey::ColDesc).map(|c| c.text.as_str()),
            Some("Montagestunden Elektriker vor Ort")
        );
        assert_eq!(
            r.cell(LabelKey::ColAmount).and_then(|c| c.amount),
            Some(Decimal::new(37700, 2))
        );
    }

    #[test]
    fn blocks_must_balance_and_sum() {
        // 6,5 x 58,00 is not 370,00: no row, and one row's amount is no printed sum.
        assert!(
            table(&[
                ("Bezeichnung:  Montage", 60.0),
                ("Menge:  6,5", 60.0),
                ("Einzelpreis:  58,00", 60.0),
                ("Gesamtpreis:  370,00", 60.0),
                ("Summe  370,00", 300.0),
            ])
            .is_none()
        );
        // Balanced, but nothing below prints the rows' sum.
        assert!(
            table(&[
                ("Bezeichnung:  Montage", 60.0),
                ("Menge:  2", 60.0),
                ("Einzelpreis:  50,00", 60.0),
                ("Gesamtpreis:  100,00", 60.0),
                ("Bezeichnung:  Material", 60.0),
                ("Gesamtpreis:  20,00", 60.0),
                ("Summe  100,00", 300.0),
            ])
            .is_none()
        );
        // A header line is no block: its value holds other column names.
        assert!(
            table(&[
                ("Pos:  Bezeichnung  Menge  Preis  Betrag", 40.0),
                ("Summe  100,00", 300.0),
            ])
            .is_none()
        );
    }
}
