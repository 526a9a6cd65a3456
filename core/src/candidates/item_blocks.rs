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
use super::amounts::joined_readings;
use super::labels::{LabelHit, LabelKey, fold_diacritics, within_one_edit};
use super::rows::continue_name;
use super::tables::{
    Cell, Row, RowSource, TableLayout, cell_value, column_names_cover, one_read_as_letter,
    printed_amounts,
};
use crate::preprocess::collapse_spaces;
use crate::types::{CleanDocument, Span};

/// One `Key: value` line: the column the key names and where its value starts and ends.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Keyed {
    key: LabelKey,
    /// Named by a net total's words (`Cena bez DPH:`): the block's amount only inside a block
    /// that has none yet.
    net: bool,
    line: usize,
    start: usize,
    end: usize,
}

/// The key a line opens with, if it is a `Key: value` line of an item block: a column name at
/// the start, then (past words without digits: `(netto)`) a colon and a value; `Position 1`
/// without a colon. A VAT label names the rate where its value is a percentage, else the VAT
/// amount; a net total's label (no column name at the start) the amount, as in a table header.
fn keyed(text: &str, hits: &[LabelHit], line: usize) -> Option<Keyed> {
    let lead = text.len() - text.trim_start().len();
    // The key opens the line, or ends its first word (`Stk.pris:`, a noun glued before it).
    let opens = |h: &LabelHit| {
        h.start == lead
            || text.get(lead..h.start).is_some_and(|p| {
                p.chars().count() <= 12 && !p.contains(char::is_whitespace) && !p.contains(':')
            })
    };
    let hit = hits
        .iter()
        .filter(|h| {
            opens(h) && (h.key.is_column() || matches!(h.key, LabelKey::Vat | LabelKey::Net))
        })
        .min_by_key(|h| (h.key == LabelKey::Net, h.key == LabelKey::Vat, h.start))?;
    let rest = &text[hit.end..];
    // A key matched across its colon (`Betrag:  EUR` read as one column name): the value
    // starts after that colon.
    let inner_colon = text
        .get(hit.start..hit.end)
        .and_then(|k| k.find(':'))
        .map(|c| hit.start + c + 1);
    // OCR reads a colon as a semicolon (`Kaina;  88,72 €`).
    let value_at = match (inner_colon, rest.find([':', ';'])) {
        (Some(v), _) => v,
        (None, Some(c))
            if c <= 24
                && (!rest[..c].chars().any(|ch| ch.is_ascii_digit())
                    || percent_misread(hit.key, &rest[..c])) =>
        {
            hit.end + c + 1
        }
        // `Qtd..  2,5h`: an abbreviation's dot, then its colon read as a dot.
        _ if rest.starts_with("..") && rest[2..].starts_with("  ") => hit.end + 2,
        // `Position 1`: a position number after its name.
        _ if hit.key == LabelKey::ColPos
            && rest.trim().trim_end_matches('.').parse::<u32>().is_ok() =>
        {
            hit.end
        }
        _ => return None,
    };
    let value = text[value_at..].trim();
    // A header line is no block: its value is other column names (`Pos:  Bezeichnung  Menge
    // Preis`, `Artikel:  Menge`); a description may hold column words among its own
    // (`Консультаційні послуги`, `Consulting services (day rate)`).
    let header = hits
        .iter()
        .any(|h| h.start >= value_at && h.key.is_column() && h.key != hit.key)
        && column_names_cover(text, hits, value_at);
    if value.is_empty() || header {
        return None;
    }
    let start = value_at + (text[value_at..].len() - text[value_at..].trim_start().len());
    let end = text.trim_end().len();
    let key = match hit.key {
        LabelKey::Vat if value.contains('%') => LabelKey::ColVatRate,
        LabelKey::Vat => LabelKey::ColVatAmount,
        LabelKey::Net => LabelKey::ColAmount,
        k => k,
    };
    Some(Keyed {
        key,
        net: hit.key == LabelKey::Net,
        line,
        start,
        end,
    })
}

/// Whether the words between a rate's or discount's key and its colon are its percent sign as
/// OCR reads it (`ПДВ 96:`, `MwSt 906:`, `Rabatt 90:` for `%`): one token of at most three
/// digits opening with `9`.
fn percent_misread(key: LabelKey, between: &str) -> bool {
    let t = between.trim();
    matches!(
        key,
        LabelKey::Vat | LabelKey::ColVatRate | LabelKey::ColDiscount
    ) && (1..=3).contains(&t.len())
        && t.starts_with('9')
        && t.chars().all(|c| c.is_ascii_digit())
}

/// Whether a line is a `Key: value` line whose key is no column name: a word or two at its
/// start (letters, `.`, `%`, `-`, brackets and OCR's `|` and `'` for letters: `M]:`, up to 30
/// characters), a colon, a value.
fn unknown_key(text: &str) -> bool {
    let t = text.trim_start();
    let Some(c) = t.find(':') else {
        return false;
    };
    let key = &t[..c];
    !key.is_empty()
        && key.chars().count() <= 30
        && key.chars().next().is_some_and(char::is_alphabetic)
        && key.chars().all(|ch| {
            ch.is_alphabetic()
                || matches!(
                    ch,
                    ' ' | '.' | '%' | '-' | '(' | ')' | '[' | ']' | '|' | '\''
                )
        })
        && !t[c + 1..].trim().is_empty()
}

/// The key of a `Key: value` line as printed, lower-cased and without diacritics (`beløb`
/// -> `belob`): its words before the colon, where that is a word of letters of at least
/// four.
fn key_word(text: &str) -> Option<String> {
    let key = text.trim_start().split(':').next()?.trim();
    (key.chars().count() >= 4
        && key
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, ' ' | '.' | '-')))
    .then(|| fold_diacritics(&key.to_lowercase()).into_owned())
}

/// A `Key: value` line whose key no vocabulary knows but that is one letter away from a key
/// the document prints elsewhere (`Beiøb:` where the other blocks print `Beløb:`): that key,
/// its value after the colon.
fn misread_key(text: &str, line: usize, printed: &[(LabelKey, String)]) -> Option<Keyed> {
    if !unknown_key(text) {
        return None;
    }
    let word = key_word(text)?;
    let mut near = printed
        .iter()
        .filter(|(_, p)| *p != word && within_one_edit(p, &word))
        .map(|(k, _)| k);
    let key = near.next()?;
    // A word one letter from two different keys says neither.
    if near.any(|k| k != key) {
        return None;
    }
    let colon = text.find(':')? + 1;
    let start = colon + (text[colon..].len() - text[colon..].trim_start().len());
    Some(Keyed {
        key: *key,
        net: false,
        line,
        start,
        end: text.trim_end().len(),
    })
}

/// Whether a line is a column's key alone with its colon (`J.m.:`, no unit printed).
fn bare_key(text: &str, hits: &[LabelHit]) -> bool {
    let lead = text.len() - text.trim_start().len();
    text.trim_end().ends_with(':')
        && hits.iter().any(|h| {
            h.key.is_column()
                && h.start == lead
                && text[h.end..].trim_matches([' ', '.', ':']).is_empty()
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
        // A number the amount finder reads no amount in: the first token that is one.
        c.amount = cell_value(&c, style.decimal).or_else(|| {
            c.text
                .split_whitespace()
                .find_map(|t| super::rows::token_number(t, style.decimal))
                .map(|(v, _, _)| v)
        });
    }
    c
}

/// Whether a value is money and nothing else: numbers, each at most with a currency's sign
/// or code (`-1,29 EUR`, `€ 12,00`), also where OCR read a digit as a letter (`-2.03O,07€`).
fn money_only(text: &str, decimal: Option<char>) -> bool {
    let mut number = false;
    let text = super::amounts::ocr_digits(text);
    let all = text.split_whitespace().all(|t| {
        let n = super::rows::token_number(t, decimal).is_some();
        number |= n;
        n || !super::amounts::currency_options(t).is_empty()
    });
    all && number
}

/// A number OCR broke with spaces, whole (`HUF 4 2408`) or inside a group (`2.489.20 0 HUF`
/// for `2.489.200`): its pieces joined and read in the document's style, where the value holds
/// nothing else but a currency and the pieces are digits and separators.
fn joined_pieces(text: &str, decimal: Option<char>) -> Option<Decimal> {
    let pieces: Vec<&str> = text
        .split_whitespace()
        .filter(|t| super::amounts::currency_options(t).is_empty())
        .collect();
    let numeric = |p: &&str| {
        p.starts_with(|c: char| c.is_ascii_digit())
            && p.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
    };
    if pieces.len() < 2 || !pieces.iter().all(numeric) {
        return None;
    }
    super::amounts::parse_number(&pieces.concat(), decimal).map(|(v, _)| v)
}

/// A block's row, where it names a description and an amount, and whether its arithmetic
/// failed: a block whose quantity x unit price (less its discount) is not its amount is a row
/// without those two numbers (one of them misread), `false` otherwise. A number OCR broke
/// with a space (`2 9.76 GBP`, `357 .12`) is read joined where that makes the block balance.
fn row_of(block: &[Cell], lines: Vec<usize>, decimal: Option<char>) -> Option<(Row, bool)> {
    let get = |k: LabelKey| block.iter().find(|c| c.key == k);
    let value = |k: LabelKey| get(k).and_then(|c| c.amount);
    // A description that is only money (`Desc.:  -1,29 EUR`, a discount on the total under
    // the last block) names no item.
    get(LabelKey::ColDesc).filter(|c| !money_only(&c.text, decimal))?;
    let amount_key = [LabelKey::ColAmount, LabelKey::ColAmountGross]
        .into_iter()
        .find(|&k| value(k).is_some())?;
    // Each number's reading, then its joined readings.
    let readings = |k: LabelKey| -> Vec<Decimal> {
        let Some(c) = get(k) else {
            return Vec::new();
        };
        c.amount
            .into_iter()
            .chain(
                joined_readings(&c.text, decimal)
                    .into_iter()
                    .map(|j| j.value),
            )
            .chain(joined_pieces(&c.text, decimal))
            .chain((k == LabelKey::ColQty && one_read_as_letter(&c.text)).then_some(Decimal::ONE))
            .collect()
    };
    let d = value(LabelKey::ColDiscount).unwrap_or_default();
    // Within a cent, or half a unit where the amount prints whole units (`0,5 x 69619 =
    // 34810`).
    let balances = |q: Decimal, p: Decimal, a: Decimal| {
        let product = q * p * (Decimal::ONE_HUNDRED - d.abs()) / Decimal::ONE_HUNDRED;
        let off = (product - a).abs();
        off < Decimal::new(1, 2) || a.scale() == 0 && off <= Decimal::new(5, 1)
    };
    let mut cells: Vec<Cell> = block.to_vec();
    let qs = readings(LabelKey::ColQty);
    let (source, failed) = match (qs.is_empty(), value(LabelKey::ColUnitPrice)) {
        (false, Some(_)) => {
            let (ps, amounts) = (readings(LabelKey::ColUnitPrice), readings(amount_key));
            let found = amounts.iter().find_map(|&a| {
                qs.iter()
                    .find_map(|&q| ps.iter().find(|&&p| balances(q, p, a)).map(|&p| (q, p, a)))
            });
            match found {
                Some((q, p, a)) => {
                    for c in &mut cells {
                        match c.key {
                            LabelKey::ColQty => c.amount = Some(q),
                            LabelKey::ColUnitPrice => c.amount = Some(p),
                            k if k == amount_key => c.amount = Some(a),
                            _ => {}
                        }
                    }
                    (RowSource::Balanced, false)
                }
                None => (RowSource::Aligned, true),
            }
        }
        _ => (RowSource::Aligned, false),
    };
    cells.retain(|c| !failed || !matches!(c.key, LabelKey::ColQty | LabelKey::ColUnitPrice));
    Some((
        Row {
            lines,
            cells,
            source,
        },
        failed,
    ))
}

/// A block of `Key: value` lines: its cells, its lines, and a percentage printed under an
/// unknown key, the block's discount where its arithmetic says so.
type Block = (Vec<Cell>, Vec<usize>, Option<Cell>);

/// The value of an unknown key's line where it is one percentage under 100 (`Zrava:  10%`),
/// as a discount's cell.
fn percent_value(line: &crate::types::Line, style: &DocStyle) -> Option<Cell> {
    let c = line.text.find(':')? + 1;
    let value = line.text[c..].trim();
    let (v, _, percent) = super::rows::token_number(&value.replace(' ', ""), style.decimal)?;
    if !percent || v.abs() >= Decimal::ONE_HUNDRED || v.is_zero() {
        return None;
    }
    let start = c + (line.text[c..].len() - line.text[c..].trim_start().len());
    let end = start + value.len();
    Some(Cell {
        key: LabelKey::ColDiscount,
        text: value.to_string(),
        span: Span::from_line(line, start, end),
        amount: Some(v),
    })
}

/// A block's row ([`row_of`]); a block whose quantity and price do not make its amount, and
/// that has no discount of its own, takes the percentage under an unknown key as its
/// discount where that makes it balance.
fn block_row((cells, lines, percent): Block, decimal: Option<char>) -> Option<(Row, bool)> {
    let plain = row_of(&cells, lines.clone(), decimal);
    let failed = plain.as_ref().is_some_and(|(_, f)| *f);
    if let Some(d) = percent
        && failed
        && !cells.iter().any(|c| c.key == LabelKey::ColDiscount)
    {
        let mut with = cells;
        with.push(d);
        if let Some(r) = row_of(&with, lines, decimal).filter(|(_, f)| !f) {
            return Some(r);
        }
    }
    plain
}

/// The item rows of `Key: value` blocks, where they sum to an amount printed below them.
pub(super) fn find(
    doc: &CleanDocument,
    style: &DocStyle,
    line_labels: &[Vec<LabelHit>],
) -> Option<TableLayout> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut cur: Block = (Vec::new(), Vec::new(), None);
    // The x where the last description's value starts: a line beginning there continues it.
    let mut desc_x: Option<f32> = None;
    let mut flush = |cur: &mut Block| {
        if !cur.0.is_empty() {
            blocks.push(std::mem::take(cur));
        }
    };
    // The keys as this document prints them (`beløb`, folded): an unknown key one letter
    // away from one of them is that key misread (`Beiøb:`, `Belab:`).
    let keys: Vec<Option<Keyed>> = doc
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let hits = line_labels.get(i).map_or(&[][..], Vec::as_slice);
            keyed(&line.text, hits, i)
        })
        .collect();
    let printed_keys: Vec<(LabelKey, String)> = keys
        .iter()
        .zip(&doc.lines)
        .filter_map(|(k, line)| Some((k.as_ref()?.key, key_word(&line.text)?)))
        .collect();
    for (i, line) in doc.lines.iter().enumerate() {
        let hits = line_labels.get(i).map_or(&[][..], Vec::as_slice);
        // A net total's label is the amount of the block it follows directly, at its keys' x,
        // where the block has no amount yet; else it is no key (the totals below the blocks).
        let keyed = keys[i]
            .or_else(|| {
                misread_key(&line.text, i, &printed_keys)
                    .filter(|k| !cur.0.iter().any(|c| c.key == k.key))
            })
            .filter(|k| {
                !k.net
                    || cur.1.last().is_some_and(|&l| {
                        let prev = &doc.lines[l];
                        l + 1 == i
                            && (prev.bbox.x0 - line.bbox.x0).abs() <= line.bbox.height().max(1.0)
                            && !cur.0.iter().any(|c| {
                                matches!(c.key, LabelKey::ColAmount | LabelKey::ColAmountGross)
                            })
                    })
            });
        match keyed {
            Some(k) => {
                if cur.0.iter().any(|c| c.key == k.key) {
                    flush(&mut cur);
                }
                let c = cell(doc, &k, style);
                desc_x = (k.key == LabelKey::ColDesc).then_some(c.span.bbox.x0);
                cur.0.push(c);
                cur.1.push(i);
            }
            None if !cur.0.is_empty()
                && (unknown_key(&line.text) || bare_key(&line.text, hits)) =>
            {
                // `Ilość:  5 szt.` whose key OCR garbled, `Rabatt:` of no column, `J.m.:`
                // whose value is empty: no cell, and no end of the block. A percentage under
                // an unknown key (`Zrava:  10%`, OCR's `Zľava`) may be the block's discount:
                // its arithmetic decides ([`block_row`]).
                if cur.2.is_none() {
                    cur.2 = percent_value(line, style);
                }
                desc_x = None;
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
    let all: Vec<(Row, bool)> = blocks
        .into_iter()
        .filter_map(|b| block_row(b, style.decimal))
        .collect();
    let amount = |r: &Row| {
        r.cell(LabelKey::ColAmount)
            .or_else(|| r.cell(LabelKey::ColAmountGross))
            .and_then(|c| c.amount)
    };
    let last = all.last().and_then(|(r, _)| r.lines.last().copied())?;
    let below = printed_amounts(doc, style.decimal, last + 1);
    let printed = |rows: &[&Row]| {
        let sum: Decimal = rows.iter().filter_map(|r| amount(r)).sum();
        below.iter().any(|&(_, v)| v == sum)
    };
    let every: Vec<&Row> = all.iter().map(|(r, _)| r).collect();
    let kept: Vec<&Row> = all.iter().filter(|(_, f)| !f).map(|(r, _)| r).collect();
    // Every block where their amounts sum to a printed amount (a misread price or quantity
    // leaves its row, without them); else the blocks whose arithmetic holds, where they sum to
    // one; else, where two blocks or more are kept and every one of them balances (each prints
    // its quantity and price), every block whatever the totals print (bases per rate in a VAT
    // summary, no net).
    // (A block that does not balance is a row only beside one that does.)
    let trusted = kept.iter().any(|r| r.source == RowSource::Balanced);
    let balanced = kept.len() >= 2 && kept.iter().all(|r| r.source == RowSource::Balanced);
    let rows: Vec<Row> = if (printed(&every) && trusted) || balanced {
        every.into_iter().cloned().collect()
    } else if !kept.is_empty() && printed(&kept) {
        kept.into_iter().cloned().collect()
    } else {
        return None;
    };
    let first = *rows.first()?.lines.first()?;
    let last = *rows.last()?.lines.last()?;
    Some(TableLayout {
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

    /// Each row's amount.
    fn row_amounts(t: &TableLayout) -> Vec<Option<Decimal>> {
        t.rows
            .iter()
            .map(|r| r.cell(LabelKey::ColAmount).and_then(|c| c.amount))
            .collect()
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
    fn keys_glued_or_read_across_their_colon_and_unknown_keys_inside_a_block() {
        let t = table(&[
            ("Linje 1", 40.0),
            ("Beskrivelse:  Konsulentydelser", 60.0),
            ("Antal:  12 stk.", 60.0),
            ("Stk.pris:  32,50 DKK", 60.0),
            ("Moms %:  25%", 60.0),
            ("Beløb:  390,00 DKK", 60.0),
            ("Linje 2", 40.0),
            ("Beskrivelse:  Kontorstol", 60.0),
            ("Xntal:  2 stk.", 60.0),
            ("Stk.pris:  55,00 DKK", 60.0),
            ("Beløb:  110,00 DKK", 60.0),
            ("Linje 3", 40.0),
            ("Beskrivelse:  Papir", 60.0),
            ("Antal..  1", 60.0),
            ("Stk.pris;  8,00 DKK", 60.0),
            ("Beløb:  8,00 DKK", 60.0),
            ("Subtotal  508,00 DKK", 300.0),
        ])
        .expect("a table");
        // `Stk.pris;` and `Antal..`: a colon read as a semicolon or a dot keeps the third
        // block whole.
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[0].source, RowSource::Balanced);
        assert_eq!(t.rows[2].source, RowSource::Balanced);
        assert_eq!(
            t.rows[2].cell(LabelKey::ColQty).and_then(|c| c.amount),
            Some(Decimal::ONE)
        );
        assert_eq!(
            t.rows[0]
                .cell(LabelKey::ColUnitPrice)
                .and_then(|c| c.amount),
            Some(Decimal::new(3250, 2))
        );
        // The garbled `Antal`, one letter from the key the other blocks print, is their
        // quantity's key: the block balances with it.
        assert_eq!(
            t.rows[1].cell(LabelKey::ColAmount).and_then(|c| c.amount),
            Some(Decimal::new(11000, 2))
        );
        assert_eq!(
            t.rows[1].cell(LabelKey::ColQty).and_then(|c| c.amount),
            Some(Decimal::TWO)
        );
        // A column name read across the colon (`Betrag:  EUR`): the value after the colon.
        let t = table(&[
            ("Bezeichnung:  Beratung", 60.0),
            ("Menge:  2", 60.0),
            ("Einzelpreis:  EUR -10,00", 60.0),
            ("Betrag:  EUR -20,00", 60.0),
            ("Bezeichnung:  Material", 60.0),
            ("Menge:  1", 60.0),
            ("Einzelpreis:  EUR -5,00", 60.0),
            ("Betrag:  EUR -5,00", 60.0),
        ])
        .expect("a table");
        assert_eq!(
            t.rows[0].cell(LabelKey::ColAmount).and_then(|c| c.amount),
            Some(Decimal::new(-2000, 2))
        );
        // A description holding its own column's word (`послуги`, services) is a value.
        let t = table(&[
            ("Найменування:  Консультаційні послуги", 60.0),
            ("Кіл-сть:  2", 60.0),
            ("Ціна без ПДВ:  15,00", 60.0),
            ("Сума без ПДВ:  30,00", 60.0),
            ("Найменування:  Офісне крісло", 60.0),
            ("Кіл-сть:  1", 60.0),
            ("Ціна без ПДВ:  20,00", 60.0),
            ("Сума без ПДВ:  20,00", 60.0),
        ])
        .expect("a table");
        assert_eq!(
            t.rows[0].cell(LabelKey::ColDesc).map(|c| c.text.as_str()),
            Some("Консультаційні послуги")
        );
    }

    #[test]
    fn a_key_misread_by_a_letter_is_the_key_the_other_blocks_print() {
        let t = table(&[
            ("Linje 1", 40.0),
            ("Beskrivelse:  Konsulentydelser", 60.0),
            ("Antal:  2,5 kg", 60.0),
            ("Stk.pris:  10,00 DKK", 60.0),
            ("Beiøb:  25,00 DKK", 60.0),
            ("Linje 2", 40.0),
            ("Beskrivelse:  Kontorstol", 60.0),
            ("Antal:  2 stk.", 60.0),
            ("Stk.pris:  55,00 DKK", 60.0),
            ("Beløb:  110,00 DKK", 60.0),
            ("Linje 3", 40.0),
            ("Beskrivelse:  Serviceaftale", 60.0),
            ("Antal:  l stk.", 60.0),
            ("Stk.pris:  8,00 DKK", 60.0),
            ("Belab:  8,00 DKK", 60.0),
            // A block's first key misread: it opens the block.
            ("Linje 4", 40.0),
            ("Antxl:  1 stk.", 60.0),
            ("Beskrivelse:  Lampe", 60.0),
            ("Stk.pris:  7,00 DKK", 60.0),
            ("Beløb:  7,00 DKK", 60.0),
            ("Nettobeløb:  150,00 DKK", 300.0),
        ])
        .expect("a table");
        assert_eq!(t.rows.len(), 4);
        assert_eq!(
            t.rows[3].cell(LabelKey::ColQty).and_then(|c| c.amount),
            Some(Decimal::ONE)
        );
        let amounts = row_amounts(&t);
        assert_eq!(
            amounts,
            [2500, 11000, 800, 700].map(|v| Some(Decimal::new(v, 2)))
        );
        // `l stk.`: the one read as a letter, where the block balances with it.
        assert_eq!(t.rows[2].source, RowSource::Balanced);
        assert_eq!(
            t.rows[2].cell(LabelKey::ColQty).and_then(|c| c.amount),
            Some(Decimal::ONE)
        );
    }

    #[test]
    fn a_grouped_amount_broken_by_a_space_balances_joined() {
        // Whole forints: `2.489.20 0` is 2 489 200, as 40 x 62 230 makes it.
        let t = table(&[
            ("Megnevezés:  Tanácsadás", 60.0),
            ("Menny.:  2,5 db", 60.0),
            ("Egységár:  59.398 HUF", 60.0),
            ("Nettó érték:  148.495 HUF", 60.0),
            ("Megnevezés:  Papír", 60.0),
            ("Menny.:  40 óra", 60.0),
            ("Egységár:  62.230 HUF", 60.0),
            ("Nettó érték:  2.489.20 0 HUF", 60.0),
            ("Összesen:  2.637.695 HUF", 300.0),
        ])
        .expect("a table");
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[1].source, RowSource::Balanced);
        assert_eq!(
            t.rows[1].cell(LabelKey::ColAmount).and_then(|c| c.amount),
            Some(Decimal::from(2_489_200))
        );
        assert_eq!(
            joined_pieces("2.489.20 0 HUF", Some(',')),
            Some(Decimal::from(2_489_200))
        );
        assert_eq!(joined_pieces("2.489.200 HUF", Some(',')), None);
        assert_eq!(joined_pieces("12 m 4", Some(',')), None);
    }

    #[test]
    fn a_word_one_letter_from_two_keys_is_neither() {
        let printed = [
            (LabelKey::ColQty, "mange".to_string()),
            (LabelKey::ColAmount, "menga".to_string()),
            (LabelKey::ColQty, "mange".to_string()),
        ];
        let key = |t: &str| misread_key(t, 0, &printed).map(|k| k.key);
        assert_eq!(key("Mangs:  2"), Some(LabelKey::ColQty));
        assert_eq!(key("Menge:  2"), None);
        assert_eq!(key("Mange:  2"), None, "the key itself is no misreading");
    }

    #[test]
    fn balanced_blocks_need_no_printed_sum_and_a_misread_price_keeps_its_row() {
        // Two balanced blocks, the totals only bases per rate: rows.
        let blocks = [
            ("Kuvaus:  Konsultointi", 60.0),
            ("Määrä:  2,5", 60.0),
            ("A-hinta:  23,55", 60.0),
            ("Summa:  58,88", 60.0),
            ("Kuvaus:  Toimistotuoli", 60.0),
            ("Määrä:  2", 60.0),
            ("A-hinta:  10,00", 60.0),
            ("Summa:  20,00", 60.0),
        ];
        assert_eq!(table(&blocks).map(|t| t.rows.len()), Some(2));
        // One balanced block alone is no table without a printed sum.
        assert!(table(&blocks[..4]).is_none());
        // A price OCR misread (`998,05` for 993,05): the row stays with its description and amount, not
        // its quantity and price, where the rows' amounts sum to a printed amount.
        let mut misread = blocks.to_vec();
        misread.extend_from_slice(&[
            ("Kuvaus:  Lisenssi", 60.0),
            ("Määrä:  2,5", 60.0),
            ("A-hinta:  998,05", 60.0),
            ("Summa:  2482,63", 60.0),
            ("Yhteensä  2561,51", 300.0),
        ]);
        let t = table(&misread).expect("a table");
        assert_eq!(t.rows.len(), 3);
        let last = &t.rows[2];
        assert_eq!(last.source, RowSource::Aligned);
        assert!(
            last.cell(LabelKey::ColUnitPrice).is_none() && last.cell(LabelKey::ColQty).is_none()
        );
    }

    /// `1un.`: a quantity glued to its unit's abbreviation; `Desc.:  -2.03O,07€` under the
    /// last block (a discount on the total, OCR's `O` for a zero) names no item.
    #[test]
    fn a_unit_glued_with_its_dot_and_a_misread_discount_under_the_blocks() {
        let mut lines: Vec<(&str, f32)> = Vec::new();
        for block in [
            [
                "Posição 1",
                "Descrição:  Serviços",
                "Qtd.:  1un.",
                "Preço unit.:  25,60€",
                "Valor:  25,60€",
            ],
            [
                "Posição 2",
                "Descrição:  Cadeira",
                "Qtd.:  5h",
                "Preço unit.:  32,25€",
                "Valor:  161,25€",
            ],
        ] {
            lines.push((block[0], 40.0));
            lines.extend(block[1..].iter().map(|l| (*l, 60.0)));
        }
        lines.extend([
            ("Valor  2.216,92€", 300.0),
            ("Desc.:  -2.03O,07€", 300.0),
            ("Valor líquido:  186,85€", 300.0),
        ]);
        let t = table(&lines).expect("blocks");
        let amounts = row_amounts(&t);
        assert_eq!(
            amounts,
            [Some(Decimal::new(2560, 2)), Some(Decimal::new(16125, 2))]
        );
        assert!(t.rows.iter().all(|r| r.source == RowSource::Balanced));
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

    #[test]
    fn a_net_totals_label_is_the_amount_of_the_block_it_ends() {
        // `Cena bez DPH` (cs) names the net total and, as a block's last key at its keys' x,
        // the item's amount; `Jedn. cena` is the unit price, not the unit; `0,5m` half a metre.
        let blocks = [
            ("Pol. 1", 40.0),
            ("Popis:  Poradenské služby", 60.0),
            ("Množství:  0,5m", 60.0),
            ("Jedn. cena:  140,24 Kč", 60.0),
            ("Cena bez DPH:  70,12 Kč", 60.0),
            ("Pol. 2", 40.0),
            ("Popis:  Kancelářská židle", 60.0),
            ("Množství:  3 ks", 60.0),
            ("Jedn. cena:  41,56 Kč", 60.0),
            ("Cena bez DPH:  124,68 Kč", 60.0),
        ];
        let t = table(&blocks).expect("a table");
        assert_eq!(t.rows.len(), 2);
        assert!(t.rows.iter().all(|r| r.source == RowSource::Balanced));
        assert_eq!(
            t.rows[1].cell(LabelKey::ColAmount).and_then(|c| c.amount),
            Some(Decimal::new(12468, 2))
        );
        // Where the block has its amount, a net total below is no cell of it (nor at the
        // totals' x after a block without one).
        let mut totals = blocks.to_vec();
        totals.push(("Cena bez DPH:  194,80 Kč", 60.0));
        let t = table(&totals).expect("a table");
        assert_eq!(t.rows.len(), 2);
        let no_amount = [
            ("Popis:  Poradenské služby", 60.0),
            ("Množství:  2 hod.", 60.0),
            ("Jedn. cena:  35,06 Kč", 60.0),
            ("Cena bez DPH:  70,12 Kč", 300.0),
            ("Popis:  Kancelářská židle", 60.0),
            ("Množství:  3 ks", 60.0),
            ("Jedn. cena:  41,56 Kč", 60.0),
            ("Cena bez DPH:  124,68 Kč", 300.0),
        ];
        assert!(table(&no_amount).is_none());
        // A discount on the total under the blocks (`Desc.:  -1,29 Kč`, its label a column's
        // abbreviation) with the net after it is no block of its own.
        let mut discount = blocks.to_vec();
        discount.push(("Desc.:  -1,29 Kč", 60.0));
        discount.push(("Cena bez DPH:  193,51 Kč", 60.0));
        let t = table(&discount).expect("a table");
        assert_eq!(t.rows.len(), 2);
        assert!(!money_only("Kabel 3x2,5", Some(',')));
        assert!(money_only("€ -1,29", Some(',')));
    }

    #[test]
    fn whole_units_round_to_the_unit_and_join_across_ocr_spaces() {
        let t = table(&[
            ("Tétel 1", 40.0),
            ("Megnevezés:  Irodai szék", 60.0),
            ("Menny.:  0,5 kg", 60.0),
            ("Egységár:  HUF 69619", 60.0),
            ("Nettó érték:  HUF 34810", 60.0),
            ("Tétel 2", 40.0),
            ("Megnevezés:  Fénymásolópapír A4", 60.0),
            ("Menny.:  10 kg", 60.0),
            ("Egységár:  HUF 4712", 60.0),
            ("Engedmény:  10%", 60.0),
            ("Nettó érték:  HUF 4 2408", 60.0),
        ])
        .expect("a table");
        assert!(t.rows.iter().all(|r| r.source == RowSource::Balanced));
        assert_eq!(
            t.rows[1].cell(LabelKey::ColAmount).and_then(|c| c.amount),
            Some(Decimal::from(42408))
        );
        assert_eq!(
            joined_pieces("4 2408 Ft", Some(',')),
            Some(Decimal::from(42408))
        );
        assert_eq!(joined_pieces("2 kg", Some(',')), None);
        assert_eq!(joined_pieces("HUF 42408", Some(',')), None);
    }

    #[test]
    fn keys_ocr_garbled_keep_their_block_and_a_percentage_under_one_may_be_its_discount() {
        // `Zrava:` (OCR's `Zľava:`) holds the discount that balances the first block; `M]:`
        // (`MJ:`) keeps the second whole; `Marža:  10%` balances nothing and stays out.
        let t = table(&[
            ("Položka 1", 40.0),
            ("Popis:  LED panel 60x60", 60.0),
            ("Množstvo:  2,5", 60.0),
            ("Jedn. cena:  1285,21 EUR", 60.0),
            ("Zrava:  10%", 60.0),
            ("DPH %:  23%", 60.0),
            ("Suma bez DPH:  2891,72 EUR", 60.0),
            ("Položka 2", 40.0),
            ("Popis:  Kábel CYKY 3x2,5", 60.0),
            ("Množstvo:  5", 60.0),
            ("M]:  kg", 60.0),
            ("Jedn. cena:  966,72 EUR", 60.0),
            ("Marža:  10%", 60.0),
            ("DPH %:  5%", 60.0),
            ("Suma bez DPH:  4833,60 EUR", 60.0),
        ])
        .expect("a table");
        assert_eq!(t.rows.len(), 2, "{:?}", t.rows);
        assert!(t.rows.iter().all(|r| r.source == RowSource::Balanced));
        let value = |r: usize, k: LabelKey| t.rows[r].cell(k).and_then(|c| c.amount);
        assert_eq!(value(0, LabelKey::ColDiscount), Some(Decimal::from(10)));
        assert_eq!(value(1, LabelKey::ColDiscount), None);
        assert_eq!(value(1, LabelKey::ColQty), Some(Decimal::from(5)));
        assert_eq!(value(1, LabelKey::ColAmount), Some(Decimal::new(483360, 2)));
    }

    #[test]
    fn percent_signs_and_digits_as_ocr_misreads_them() {
        // `%` read as `96` / `906` in a key and in its value, `З` (Ze) for 3 before its unit.
        let t = table(&[
            ("Позиція 1", 40.0),
            ("Найменування:  Консультаційні послуги", 60.0),
            ("Кіл-сть:  1 год.", 60.0),
            ("Ціна без ПДВ:  1449.60", 60.0),
            ("Знижка:  1596", 60.0),
            ("ПДВ 96:  2096", 60.0),
            ("Сума без ПДВ:  1232.16", 60.0),
            ("Позиція 2", 40.0),
            ("Найменування:  Офісне крісло", 60.0),
            ("Кіл-сть:  З шт.", 60.0),
            ("Ціна без ПДВ:  20.00", 60.0),
            ("ПДВ 906:  2096", 60.0),
            ("Сума без ПДВ:  60.00", 60.0),
        ])
        .expect("a table");
        assert_eq!(t.rows.len(), 2);
        assert!(t.rows.iter().all(|r| r.source == RowSource::Balanced));
        let value = |r: usize, k: LabelKey| t.rows[r].cell(k).and_then(|c| c.amount);
        assert_eq!(value(0, LabelKey::ColDiscount), Some(Decimal::from(15)));
        assert_eq!(value(0, LabelKey::ColVatRate), Some(Decimal::from(20)));
        assert_eq!(value(1, LabelKey::ColQty), Some(Decimal::from(3)));
        assert_eq!(value(1, LabelKey::ColVatRate), Some(Decimal::from(20)));
        // A year or an amount between a key and its colon is no percent sign.
        assert!(!percent_misread(LabelKey::ColVatRate, " 2024"));
        assert!(!percent_misread(LabelKey::ColUnitPrice, " 96"));
    }

    #[test]
    fn descriptions_holding_column_words_and_numbers_broken_by_ocr() {
        let t = table(&[
            ("Line 1", 40.0),
            ("Description:  Consulting services (day rate)", 60.0),
            ("Qty:  10", 60.0),
            ("Unit price:  48.68 GBP", 60.0),
            ("Amount:  486. 80 GBP", 60.0),
            ("Line 2", 40.0),
            ("Description:  Office chair, ergonomic", 60.0),
            ("Qty:  12", 60.0),
            ("Unit price:  2 9.76 GBP", 60.0),
            ("Amount:  357 .12 GBP", 60.0),
            ("Net total  843.92", 300.0),
        ])
        .expect("a table");
        assert_eq!(t.rows.len(), 2);
        assert_eq!(
            t.rows[0].cell(LabelKey::ColDesc).map(|c| c.text.as_str()),
            Some("Consulting services (day rate)")
        );
        let r = &t.rows[1];
        assert_eq!(r.source, RowSource::Balanced);
        let value = |k: LabelKey| r.cell(k).and_then(|c| c.amount);
        assert_eq!(value(LabelKey::ColUnitPrice), Some(Decimal::new(2976, 2)));
        assert_eq!(value(LabelKey::ColAmount), Some(Decimal::new(35712, 2)));
        // A header's value is column names: no key line.
        let key = |t: &str| keyed(t, &find_labels(t), 0).map(|k| k.key);
        assert_eq!(key("Pos:  Bezeichnung  Menge  Preis"), None);
        assert_eq!(key("Artikel:  Menge"), None);
        assert_eq!(
            key("Description:  Consulting services (day rate)"),
            Some(LabelKey::ColDesc)
        );
    }

    #[test]
    fn a_key_without_its_value_and_a_currency_glued_by_ocr_keep_the_block() {
        let t = table(&[
            ("Poz. 1", 40.0),
            ("Nazwa:  Papier ksero A4", 60.0),
            ("Ilość:  12", 60.0),
            ("J.m.:", 60.0),
            ("Cena netto:  711,03zt", 60.0),
            ("VAT %:  5%", 60.0),
            ("Wartość netto:  8532,36 zł", 60.0),
            ("Poz. 2", 40.0),
            ("Nazwa:  Kabel", 60.0),
            ("Ilość:  2", 60.0),
            ("Cena netto:  10,00 zł", 60.0),
            ("Wartość netto:  20,00zt", 60.0),
            ("Razem netto  8552,36 zł", 300.0),
        ])
        .expect("a table");
        assert_eq!(t.rows.len(), 2);
        let r = &t.rows[0];
        assert_eq!(r.source, RowSource::Balanced);
        assert_eq!(
            r.cell(LabelKey::ColUnitPrice).and_then(|c| c.amount),
            Some(Decimal::new(71103, 2))
        );
        assert_eq!(
            t.rows[1].cell(LabelKey::ColAmount).and_then(|c| c.amount),
            Some(Decimal::new(2000, 2))
        );
    }
}
