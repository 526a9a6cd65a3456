//! Line items from the tables the candidates stage reconstructed.

use super::Ctx;
use crate::candidates::Candidates;
use crate::candidates::labels::LabelKey;
use crate::result::LineItem;
use crate::types::Span;

pub(super) fn line_items(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let mut items: Vec<(LineItem, Vec<(String, Span)>)> = Vec::new();
    // The rows that balance, where any do; else the rows under a known header.
    let tables: Vec<&crate::candidates::tables::TableLayout> = match &cands.item_table {
        Some(t) => vec![t],
        None => cands.tables.iter().collect(),
    };
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
                .and_then(crate::einvoice::codes::unit_code_of_printed)
                .map(str::to_string);
            if it.amount.is_some() || it.amount_with_vat.is_some() || it.unit_price.is_some() {
                items.push((it, ev));
            }
        }
    }
    for (idx, (it, ev)) in items.into_iter().enumerate() {
        for (name, span) in ev {
            if !span.text.is_empty() {
                ctx.put(&format!("/line_items/{idx}/{name}"), 0.7, &span);
            }
        }
        ctx.result.line_items.push(it);
    }
}
