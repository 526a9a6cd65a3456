//! Receipts: applies the candidates stage's receipt reading ([`crate::candidates::receipt`]) to
//! a Result built by the generic extraction.

use super::Ctx;
use crate::candidates::Candidates;
use crate::candidates::receipt::{clean_seller, has_company_ending};
use rust_decimal::Decimal;

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
    if let Some((d, span, conf)) = &reading.total
        && !paid_for_chosen(*d)
    {
        // The payable that was the replaced total is the receipt's total too.
        let replaced = ctx.result.totals.total.replace(d.to_string());
        ctx.put("/totals/total", *conf, span);
        if replaced.is_some() && ctx.result.totals.payable == replaced {
            ctx.result.totals.payable = Some(d.to_string());
            ctx.put("/totals/payable", *conf, span);
        }
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
