//! Receipts: applies the candidates stage's receipt reading ([`crate::candidates::receipt`]) to
//! a Result built by the generic extraction.

use super::Ctx;
use crate::candidates::Candidates;
use crate::candidates::receipt::{clean_seller, has_company_ending};
use rust_decimal::Decimal;

/// The largest cash rounding of a total (to 0.05 or 0.10).
const CASH_ROUNDING: Decimal = Decimal::from_parts(5, 0, 0, false, 2);

/// Replaces the total by the receipt's grand total (unless the chosen total is what the item
/// rows sum to and the grand total the cash paid for it), cleans the seller name's registration
/// details, and takes the receipt's company-like seller line where the chosen name has no
/// company form. Documents that are not receipts are left alone.
pub(super) fn refine(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let Some(reading) = &cands.receipt else {
        return;
    };
    // Unless the item rows' sum is the chosen total and the reading's amount the cash paid for it.
    let paid_for_chosen = |d: Decimal| {
        super::totals::rows_total_paid_by(cands, d).is_some_and(|x| {
            let chosen = ctx.result.totals.total.as_deref();
            chosen.and_then(|t| t.parse::<Decimal>().ok()) == Some(x)
        })
    };
    // Nor where the chosen amounts cross-check (net + VAT = total) and the reading's total is
    // more than a cash rounding away from the chosen one (`SUB-TOTAL 92.50`, `GST 1.50` and
    // `94.00` under a label OCR garbled: 94.00 stands).
    let totals = &ctx.result.totals;
    let value = |v: &Option<String>| v.as_deref().and_then(|x| x.parse::<Decimal>().ok());
    let checked = match (value(&totals.net), value(&totals.vat), value(&totals.total)) {
        (Some(n), Some(v), Some(t)) => !n.is_zero() && !v.is_zero() && n + v == t,
        _ => false,
    };
    let chosen = value(&totals.total);
    let far_from_checked =
        |d: Decimal| checked && chosen.is_some_and(|t| (t - d).abs() > CASH_ROUNDING);
    if let Some((d, span, conf)) = &reading.total
        && !paid_for_chosen(*d)
        && !far_from_checked(*d)
    {
        ctx.result.totals.total = Some(d.to_string());
        ctx.put("/totals/total", *conf, span);
    }
    let current = ctx.result.parties.seller.name.clone();
    if let Some(c) = &current {
        let cleaned = clean_seller(c);
        if !cleaned.is_empty() && &cleaned != c {
            ctx.result.parties.seller.name = Some(cleaned);
        }
    }
    // A company-like top line replaces a name without a company form.
    if current.as_deref().is_none_or(|c| !has_company_ending(c))
        && let Some((name, span)) = &reading.seller
    {
        ctx.result.parties.seller.name = Some(name.clone());
        ctx.put("/parties/seller/name", 0.6, span);
    }
}
