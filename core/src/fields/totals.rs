//! Totals (net, VAT, total, payable, discount, prepaid) and the VAT summary lines.

use super::{Ctx, Field, FieldScorer, dec, ranked};
use crate::candidates::labels::LabelKey;
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::fields::features::CandidateFeatures;
use crate::result::TaxLine;
use rust_decimal::Decimal;

/// Confidence added to net, VAT and total when they add up.
const CONSISTENCY_BONUS: f32 = 0.15;

/// A scored amount candidate: (score, candidate index, value).
type Scored = (f32, usize, Decimal);

fn max_amount(cands: &Candidates) -> Decimal {
    cands
        .of(CandidateKind::Amount)
        .filter(|c| c.decimals > 0 && c.scheme.is_none())
        .filter_map(dec)
        .max()
        .unwrap_or(Decimal::ZERO)
}

pub(super) fn totals(
    ctx: &mut Ctx<'_>,
    feats: &[(usize, CandidateFeatures)],
    cands: &Candidates,
    scorer: &dyn FieldScorer,
) {
    let top = |field: Field| -> Vec<(f32, usize, Decimal)> {
        ranked(feats, scorer, field)
            .into_iter()
            .filter_map(|(s, i)| cands.items.get(i).and_then(dec).map(|d| (s, i, d)))
            .take(6)
            .collect()
    };
    let (nets, vats, tots, pays) = (
        top(Field::Net),
        top(Field::Vat),
        top(Field::Total),
        top(Field::Payable),
    );
    let mut net = nets.first().copied();
    let mut vat = vats.first().copied();
    let mut total = tots.first().copied();
    let mut vat_value: Option<(f32, Decimal, Option<usize>)> = vat.map(|v| (v.0, v.2, Some(v.1)));
    // Joint choice: net + vat = total, with a positive net and a VAT below it (no VAT rate
    // reaches 100 %): `0 + 5 = 5` or `VAT = total` is no arithmetic support. Adding up earns a
    // total CONSISTENCY_BONUS, so a total scored more than that below the best one cannot win
    // through arithmetic (on a receipt, `change + total = cash` adds up too).
    let total_floor = tots.first().map_or(0.0, |t| t.0 - CONSISTENCY_BONUS);
    let mut best: Option<(f32, Scored, Scored, Scored)> = None;
    for n in &nets {
        for v in &vats {
            for t in tots.iter().filter(|t| t.0 >= total_floor) {
                let plausible = n.2 > Decimal::ZERO && v.2 >= Decimal::ZERO && v.2 < n.2;
                if plausible && n.1 != t.1 && n.2 + v.2 == t.2 {
                    let s = n.0 + v.0 + t.0;
                    if best.is_none_or(|b| s > b.0) {
                        best = Some((s, *n, *v, *t));
                    }
                }
            }
        }
    }
    let mut consistent = false;
    if let Some((_, n, v, t)) = best {
        net = Some(n);
        vat = Some(v);
        total = Some(t);
        vat_value = Some((v.0, v.2, Some(v.1)));
        consistent = true;
    } else {
        // Several VAT lines (one per rate): total - net equals their sum.
        'outer: for n in &nets {
            for t in tots.iter().filter(|t| t.0 >= total_floor) {
                let diff = t.2 - n.2;
                if diff <= Decimal::ZERO || diff >= n.2 {
                    continue;
                }
                let sum: Decimal = vats
                    .iter()
                    .filter(|v| v.1 != n.1 && v.1 != t.1)
                    .map(|v| v.2)
                    .sum();
                let sum_distinct: Decimal = {
                    let mut seen: Vec<Decimal> = Vec::new();
                    for v in vats.iter().filter(|v| v.1 != n.1 && v.1 != t.1) {
                        if !seen.contains(&v.2) {
                            seen.push(v.2);
                        }
                    }
                    seen.iter().copied().sum()
                };
                if sum == diff || sum_distinct == diff {
                    net = Some(*n);
                    total = Some(*t);
                    let conf = vats.iter().map(|v| v.0).fold(0.0, f32::max);
                    vat_value = Some((conf, diff, vats.first().map(|v| v.1)));
                    consistent = true;
                    break 'outer;
                }
            }
        }
    }
    // `NET TOTAL` printed last, below the VAT lines, as the largest amount: the final total of a
    // receipt, not a net amount.
    if total.is_none()
        && let Some(n) = net
        && let Some(nc) = cands.items.get(n.1)
        && n.2 >= max_amount(cands)
        && vats.iter().any(|v| {
            cands
                .items
                .get(v.1)
                .is_some_and(|vc| vc.span.line < nc.span.line)
        })
    {
        total = Some(n);
        net = None;
    }
    let bonus = if consistent { CONSISTENCY_BONUS } else { 0.0 };
    if !consistent {
        // Without arithmetic support, keep VAT only when it is plausible against the total.
        if let (Some(v), Some(t)) = (vat_value, total)
            && v.1 >= t.2
        {
            vat_value = None;
        }
        if let (Some(n), Some(t)) = (net, total)
            && n.2 > t.2
        {
            net = None;
        }
    }
    if let Some((s, i, d)) = total
        && let Some(c) = cands.items.get(i)
    {
        ctx.result.totals.total = Some(d.to_string());
        ctx.put("/totals/total", s + bonus, &c.span);
    }
    if let Some((s, i, d)) = net
        && let Some(c) = cands.items.get(i)
    {
        ctx.result.totals.net = Some(d.to_string());
        ctx.put("/totals/net", s + bonus, &c.span);
    }
    if let Some((s, d, i)) = vat_value {
        ctx.result.totals.vat = Some(d.to_string());
        if let Some(c) = i.and_then(|i| cands.items.get(i)) {
            ctx.put("/totals/vat", s + bonus, &c.span);
        }
    }
    let _ = vat;
    if let Some((s, i, d)) = pays.first().copied()
        && let Some(c) = cands.items.get(i)
    {
        ctx.result.totals.payable = Some(d.to_string());
        ctx.put("/totals/payable", s, &c.span);
    }
    for (field, ptr) in [
        (Field::Discount, "/totals/discount"),
        (Field::Prepaid, "/totals/prepaid"),
    ] {
        if let Some((s, i, d)) = top(field).first().copied()
            && let Some(c) = cands.items.get(i)
        {
            let d = d.abs();
            if field == Field::Discount {
                ctx.result.totals.discount = Some(d.to_string());
            } else {
                ctx.result.totals.prepaid = Some(d.to_string());
            }
            ctx.put(ptr, s, &c.span);
        }
    }
}

/// VAT summary lines: a VAT label and a percentage with one or two amounts.
pub(super) fn taxes(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let mut out: Vec<TaxLine> = Vec::new();
    let table_lines = cands.table_lines(ctx.doc.lines.len());
    for (li, hits) in cands.line_labels.iter().enumerate() {
        if !hits.iter().any(|h| h.key == LabelKey::Vat)
            || table_lines.get(li).copied().unwrap_or(false)
        {
            continue;
        }
        let on_line: Vec<&Candidate> = cands
            .of(CandidateKind::Amount)
            .filter(|c| c.span.line == li)
            .collect();
        let Some(rate) = on_line
            .iter()
            .find(|c| c.scheme.as_deref() == Some("percent"))
        else {
            continue;
        };
        let vals: Vec<Decimal> = on_line
            .iter()
            .filter(|c| {
                c.scheme.is_none() && c.span.start > rate.span.start
                    || c.scheme.is_none() && c.decimals == 2
            })
            .filter_map(|c| dec(c))
            .collect();
        let (base, amount) = match vals.as_slice() {
            [a] => (None, Some(*a)),
            [a, b, ..] => {
                let (lo, hi) = if a <= b { (*a, *b) } else { (*b, *a) };
                (Some(hi), Some(lo))
            }
            [] => continue,
        };
        let t = TaxLine {
            rate: dec(rate).map(|d| d.normalize().to_string()),
            base: base.map(|d| d.to_string()),
            amount: amount.map(|d| d.to_string()),
        };
        if !out.contains(&t) {
            let idx = out.len();
            ctx.put(&format!("/taxes/{idx}/rate"), 0.6, &rate.span);
            out.push(t);
        }
    }
    ctx.result.taxes = out;
}
