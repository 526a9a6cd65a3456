//! Line items from the tables the candidates stage reconstructed.
//!
//! The rows that balance ([`crate::candidates::rows`]) are taken where any do; otherwise the
//! rows read under a known header ([`crate::candidates::tables`]). Every row gets one
//! confidence, `/line_items/<i>`, which its cells share: the precision that rows of its kind
//! (balanced or only aligned, in a table whose amounts sum to a printed amount or not) reached
//! on the synthetic training documents ([`ROW_CONFIDENCE`]).

use super::Ctx;
use crate::candidates::labels::LabelKey;
use crate::candidates::tables::{RowSource, TableLayout};
use crate::candidates::{Candidates, taxes};
use crate::einvoice::codes;
use crate::result::LineItem;
use crate::types::{CleanDocument, Span};
use rust_decimal::Decimal;

/// Row confidence by what the row was read from and whether its table's amounts sum to an
/// amount the document prints: the share of such rows matched to a true row (by amount) on
/// the synthetic training documents (training and unknown-labels sets: 1,890 / 226 / 71 / 94
/// rows matched 100 / 100 / 100 / 44.7 %; rows under a header, read only where no row balances,
/// 52 % of 50; header tables are never checked against a printed sum), capped at 0.99.
const ROW_CONFIDENCE: &[(RowSource, bool, f32)] = &[
    (RowSource::Balanced, true, 0.99),
    (RowSource::Balanced, false, 0.97),
    (RowSource::Aligned, true, 0.97),
    (RowSource::Aligned, false, 0.45),
    (RowSource::Header, false, 0.5),
];

/// The confidence of a table (`/line_items`) whose amounts sum to no amount the document prints:
/// rows may be missing.
const UNSUMMED_TABLE: f32 = 0.6;

/// A VAT rate taken from the document's only rate, or from the rate the VAT summary gives the
/// row's tax code, rather than printed in the row costs this much confidence.
const INFERRED_RATE_FACTOR: f32 = 0.9;

/// A line item with the evidence of its cells (pointer name, span) and its row confidence.
type Item = (LineItem, Vec<(String, Span)>, f32);

fn row_confidence(source: RowSource, sums: bool) -> f32 {
    ROW_CONFIDENCE
        .iter()
        .find(|(s, t, _)| *s == source && *t == sums)
        .map_or(0.5, |(_, _, c)| *c)
}

pub(super) fn line_items(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let tables: Vec<&TableLayout> = match &cands.item_table {
        Some(t) => vec![t],
        None => cands.tables.iter().collect(),
    };
    let mut items: Vec<Item> = Vec::new();
    let sums = !tables.is_empty() && tables.iter().all(|t| t.sums);
    for t in tables {
        for r in &t.rows {
            let mut it = LineItem::default();
            let mut ev: Vec<(String, Span)> = Vec::new();
            let mut qty_unit: Option<String> = None;
            for cell in &r.cells {
                let num = || cell.amount.map(|d| d.to_string());
                if cell.key == LabelKey::ColPos {
                    it.position = cell.text.trim_end_matches('.').parse().ok();
                    continue;
                }
                let v = match cell.key {
                    LabelKey::ColDesc | LabelKey::ColSku | LabelKey::ColUnit => {
                        Some(cell.text.clone())
                    }
                    LabelKey::ColQty => {
                        // `20 Stk`: quantity and unit in one cell.
                        let q = num();
                        let unit: String = cell
                            .text
                            .split_whitespace()
                            .filter(|w| w.chars().all(char::is_alphabetic))
                            .collect::<Vec<_>>()
                            .join(" ");
                        if q.is_some() && !unit.is_empty() {
                            qty_unit = Some(unit);
                        }
                        q
                    }
                    _ => num(),
                };
                let Some(v) = v else { continue };
                let (slot, name): (&mut Option<String>, &str) = match cell.key {
                    LabelKey::ColDesc => (&mut it.description, "description"),
                    LabelKey::ColSku => (&mut it.sku, "sku"),
                    LabelKey::ColUnit => (&mut it.unit, "unit"),
                    LabelKey::ColQty => (&mut it.quantity, "quantity"),
                    LabelKey::ColUnitPrice => (&mut it.unit_price, "unit_price"),
                    LabelKey::ColVatRate => (&mut it.vat_rate, "vat_rate"),
                    LabelKey::ColVatAmount => (&mut it.vat_amount, "vat_amount"),
                    LabelKey::ColAmount => (&mut it.amount, "amount"),
                    LabelKey::ColAmountGross => (&mut it.amount_with_vat, "amount_with_vat"),
                    _ => continue,
                };
                *slot = Some(v);
                ev.push((name.to_string(), cell.span.clone()));
            }
            if it.unit.is_none() {
                it.unit = qty_unit;
            }
            it.unit_code = it
                .unit
                .as_deref()
                .and_then(codes::unit_code_of_printed)
                .map(str::to_string);
            if it.amount.is_some() || it.amount_with_vat.is_some() || it.unit_price.is_some() {
                items.push((it, ev, row_confidence(r.source, t.sums)));
            }
        }
    }
    if items.is_empty() {
        return;
    }
    gross_priced(ctx, &mut items);
    // The table as a whole: complete where its amounts sum to an amount printed under it; else
    // rows may be missing (or misread), and the line sum is not checked against the totals
    // ([`crate::validate::VERIFIED_LINE`]).
    let least = items.iter().map(|(_, _, c)| *c).fold(1.0f32, f32::min);
    ctx.confidence(
        "/line_items",
        if sums {
            least
        } else {
            least.min(UNSUMMED_TABLE)
        },
    );
    // A row printed without its rate has the document's rate where the document has one only.
    let only_rate = only_rate(ctx);
    for (idx, (mut it, ev, conf)) in items.into_iter().enumerate() {
        ctx.confidence(&format!("/line_items/{idx}"), conf);
        // A row that prints a tax code after its amount (`17,79 A`) has the rate the VAT
        // summary gives that code, also over a rate read from the row that is no code's rate
        // (`Молоко 3,2% 1 л  750.74 B`: the milk's fat); else the document's only rate.
        let coded = ev
            .iter()
            .find(|(name, _)| name == "amount" || name == "amount_with_vat")
            .and_then(|(_, span)| code_after(ctx.doc, span))
            .and_then(|code| cands.code_rates.iter().find(|(c, _)| c == code))
            .map(|(_, r)| *r);
        let printed = it
            .vat_rate
            .as_deref()
            .and_then(|r| r.parse::<Decimal>().ok());
        if coded.is_some()
            && printed.is_some_and(|p| !cands.code_rates.iter().any(|(_, r)| *r == p.normalize()))
        {
            it.vat_rate = None;
        }
        for (name, span) in &ev {
            if !span.text.is_empty() && (name != "vat_rate" || it.vat_rate.is_some()) {
                ctx.put(&format!("/line_items/{idx}/{name}"), conf, span);
            }
        }
        if it.vat_rate.is_none()
            && let Some(rate) = coded.or(only_rate)
        {
            it.vat_rate = Some(rate.to_string());
            ctx.confidence(
                &format!("/line_items/{idx}/vat_rate"),
                conf * INFERRED_RATE_FACTOR,
            );
        }
        ctx.result.line_items.push(it);
    }
}

/// The tax code printed right after an amount, alone or glued to it, at the end of its line
/// (`17,79 A`, `3.56A`, `RM5.60 SR`; [`taxes::tax_code`]).
fn code_after<'a>(doc: &'a CleanDocument, span: &Span) -> Option<&'a str> {
    let text = doc.lines.get(span.line)?.text.get(span.end..)?;
    let mut tokens = text.split_whitespace();
    let code = tokens.next().and_then(taxes::tax_code)?;
    tokens.next().is_none().then_some(code)
}

/// The document's VAT rate where its tax summary names exactly one.
fn only_rate(ctx: &Ctx<'_>) -> Option<Decimal> {
    let mut rates: Vec<Decimal> = ctx
        .result
        .taxes
        .iter()
        .filter_map(|t| t.rate.as_deref()?.parse::<Decimal>().ok())
        .map(|r| r.normalize())
        .collect();
    rates.sort();
    rates.dedup();
    match rates.as_slice() {
        [r] => Some(*r),
        _ => None,
    }
}

/// Rows priced with VAT: their amounts sum to the document's total, which is its net plus a VAT
/// (a receipt, a consumer invoice). Their amounts are then the amounts with VAT.
fn gross_priced(ctx: &mut Ctx<'_>, items: &mut [Item]) {
    let parse = |v: &Option<String>| v.as_deref().and_then(|x| x.parse::<Decimal>().ok());
    let amounts: Option<Vec<Decimal>> = items.iter().map(|(it, _, _)| parse(&it.amount)).collect();
    let Some(sum) = amounts.map(|a| a.iter().sum::<Decimal>()) else {
        return;
    };
    let t = &ctx.result.totals;
    let (Some(net), Some(vat), Some(total)) = (parse(&t.net), parse(&t.vat), parse(&t.total))
    else {
        return;
    };
    if total != sum || net == sum || vat.is_zero() || net + vat != total {
        return;
    }
    for (it, ev, _) in items.iter_mut() {
        it.amount_with_vat = it.amount.take();
        for (name, _) in ev.iter_mut() {
            if name == "amount" {
                *name = "amount_with_vat".into();
            }
        }
    }
}
