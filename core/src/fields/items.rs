//! Line items from the tables the candidates stage reconstructed.
//!
//! The rows that balance ([`crate::candidates::rows`]) are taken where any do; otherwise the
//! rows read under a known header ([`crate::candidates::tables`]). Every row gets one
//! confidence, `/line_items/<i>`, which its cells share: the precision that rows of its kind
//! (balanced or only aligned, in a table whose amounts sum to a printed amount or not) reached
//! on the synthetic training documents ([`ROW_CONFIDENCE`]).

use super::{Ctx, decimal};
use crate::candidates::labels::LabelKey;
use crate::candidates::tables::{self, RowSource};
use crate::candidates::{CandidateKind, Candidates, taxes};
use crate::einvoice::codes;
use crate::result::LineItem;
use crate::types::{CleanDocument, Span};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

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

/// The unit a quantity's cell prints beside the number (`20 Stk`), or glued to it (`2pcs`,
/// `10kg`): its words, or a known unit's letters after the digits.
fn qty_cell_unit(text: &str) -> String {
    // `l stk.`: the one OCR read as a letter is no unit.
    let skip =
        usize::from(tables::one_read_as_letter(text) && text.split_whitespace().nth(1).is_some());
    text.split_whitespace()
        .skip(skip)
        .filter_map(|w| {
            let glued = w
                .find(char::is_alphabetic)
                .filter(|&at| {
                    at > 0
                        && w[..at]
                            .chars()
                            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
                })
                .map(|at| &w[at..])
                .filter(|u| codes::unit_code_of_printed(u).is_some());
            glued.or_else(|| {
                (w.chars().all(char::is_alphabetic) || codes::unit_code_of_printed(w).is_some())
                    .then_some(w)
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn row_confidence(source: RowSource, sums: bool) -> f32 {
    ROW_CONFIDENCE
        .iter()
        .find(|(s, t, _)| *s == source && *t == sums)
        .map_or(0.5, |(_, _, c)| *c)
}

pub(super) fn line_items(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let tables = cands.item_tables();
    let mut items: Vec<Item> = Vec::new();
    let sums = !tables.is_empty() && tables.iter().all(|t| t.sums);
    for t in &tables {
        for r in &t.rows {
            let mut it = LineItem::default();
            let mut ev: Vec<(String, Span)> = Vec::new();
            let mut qty_unit: Option<String> = None;
            for cell in &r.cells {
                let num = || cell.amount.map(|d| d.to_string());
                if cell.key == LabelKey::ColPos {
                    it.position = tables::leading_position(&cell.text);
                    continue;
                }
                let v = match cell.key {
                    LabelKey::ColDesc | LabelKey::ColSku | LabelKey::ColUnit => {
                        Some(cell.text.clone())
                    }
                    // `10 %`, `-10%`, `10,00`: the percentage, without its sign.
                    LabelKey::ColDiscount => cell
                        .amount
                        .map(|d| d.abs().normalize())
                        .filter(|d| !d.is_zero() && *d < Decimal::ONE_HUNDRED)
                        .map(|d| d.to_string()),
                    LabelKey::ColQty => {
                        // `20 Stk`, `2pcs`: quantity and unit in one cell.
                        let q = num();
                        let unit = qty_cell_unit(&cell.text);
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
                    LabelKey::ColDiscount => (&mut it.discount_rate, "discount_rate"),
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
    // Whether an amount is printed under the tables' rows (a lines' total may confirm derived
    // nets, though the table's region reaches past it); looked up only where nothing else
    // confirms them.
    let below = tables
        .iter()
        .flat_map(|t| t.rows.iter().flat_map(|r| r.lines.iter()))
        .max()
        .map_or(0, |l| l + 1);
    let printed_below = |sum: Decimal| {
        cands
            .of(CandidateKind::Amount)
            .filter(|a| a.span.line >= below && a.scheme.as_deref() != Some("percent"))
            .any(|a| a.value.parse::<Decimal>().is_ok_and(|v| v == sum))
    };
    gross_priced(ctx, &mut items, &printed_below);
    lost_signs(ctx, &mut items);
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
    // A row that prints a tax code after its amount (`17,79 A`) has the rate the VAT summary
    // gives that code, also over a rate read from the row that is no code's rate (`Молоко 3,2%
    // 1 л  750.74 B`: the milk's fat).
    let mut inferred: Vec<Option<Decimal>> = Vec::with_capacity(items.len());
    for (it, ev, _) in items.iter_mut() {
        let coded = ev
            .iter()
            .find(|(name, _)| name == "amount" || name == "amount_with_vat")
            .and_then(|(_, span)| code_after(ctx.doc, span))
            .and_then(|code| cands.code_rates.iter().find(|(c, _)| c == code))
            .map(|(_, r)| *r);
        let printed = decimal(&it.vat_rate);
        if coded.is_some()
            && printed.is_some_and(|p| !cands.code_rates.iter().any(|(_, r)| *r == p.normalize()))
        {
            it.vat_rate = None;
        }
        inferred.push(if it.vat_rate.is_none() {
            coded.or(only_rate).or_else(|| rate_of_amounts(it))
        } else {
            None
        });
    }
    // Rows still without a rate where the document has several: the rates that make every
    // rate's rows sum to its base ([`partitioned_rates`]), in a table that is complete. A rate
    // read from a row that is none of the tax summary's (`25;5%` read as 25 where the summary
    // prints 25,5 %, 14 % and 10 %) is read again the same way, and replaced only where the
    // sums then hold.
    let summary = tax_summary(ctx);
    let printed: Vec<Option<Decimal>> = items
        .iter()
        .zip(&inferred)
        .map(|((it, _, _), inf)| decimal(&it.vat_rate).filter(|_| inf.is_none()))
        .collect();
    let misread = misread_rates(&printed, &summary);
    if sums
        && inferred
            .iter()
            .zip(&items)
            .zip(&misread)
            .any(|((r, (it, _, _)), m)| *m || r.is_none() && it.vat_rate.is_none())
    {
        let rows: Vec<RowRate> = items
            .iter()
            .zip(&inferred)
            .zip(&misread)
            .map(|(((it, _, _), inf), m)| RowRate {
                amount: it
                    .amount
                    .as_deref()
                    .or(it.amount_with_vat.as_deref())
                    .and_then(|a| a.parse().ok()),
                rate: if *m {
                    None
                } else {
                    decimal(&it.vat_rate).or(*inf)
                },
            })
            .collect();
        let gross = items.iter().all(|(it, _, _)| it.amount.is_none());
        // What the net total adds to the rows (packing, freight, a fee).
        let charges = decimal(&ctx.result.totals.net).and_then(|net| {
            let rows: Option<Decimal> = rows.iter().map(|r| r.amount).sum();
            rows.map(|sum| net - sum).filter(|c| !c.is_zero())
        });
        if let Some(rates) = partitioned_rates(&rows, &summary, gross, charges) {
            for (((inf, rate), m), (it, _, _)) in inferred
                .iter_mut()
                .zip(rates)
                .zip(&misread)
                .zip(items.iter_mut())
            {
                if *m && rate.is_some() {
                    it.vat_rate = None;
                }
                *inf = inf.or(rate);
            }
        }
    }
    // Rows priced with VAT only: their net amounts, where the arithmetic of the document holds.
    let rates: Vec<Option<Decimal>> = items
        .iter()
        .zip(&inferred)
        .map(|((it, _, _), inf)| decimal(&it.vat_rate).or(*inf))
        .collect();
    let nets = derived_nets(ctx, &items, &rates, printed_below);
    for (idx, ((mut it, ev, conf), inf)) in items.into_iter().zip(inferred).enumerate() {
        if let Some(net) = nets.as_ref().and_then(|n| n[idx]) {
            it.amount = Some(net.to_string());
            ctx.confidence(
                &format!("/line_items/{idx}/amount"),
                conf * INFERRED_RATE_FACTOR,
            );
        }
        ctx.confidence(&format!("/line_items/{idx}"), conf);
        for (name, span) in &ev {
            if !span.text.is_empty() && (name != "vat_rate" || it.vat_rate.is_some()) {
                ctx.put(&format!("/line_items/{idx}/{name}"), conf, span);
            }
        }
        if it.vat_rate.is_none()
            && let Some(rate) = inf
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

/// The net amounts of rows that print only their amount with VAT (a ticket, a taxi ride, a
/// consumer invoice): `amount_with_vat x 100 / (100 + rate)`, to the cent (to the unit where
/// amounts print no decimals), for each such row with a rate. Given only where the document's
/// own arithmetic confirms them: the rows' net amounts sum to the net total it prints (before a
/// discount it takes off), or, without one, each rate's rows sum to the base its tax summary
/// prints, within the rounding of the rows (half a cent each); or they sum exactly to an amount
/// printed under the table (`printed_below`: a lines' total before charges the net total adds).
/// Otherwise none: a net amount is never guessed.
fn derived_nets(
    ctx: &Ctx<'_>,
    items: &[Item],
    rates: &[Option<Decimal>],
    printed_below: impl Fn(Decimal) -> bool,
) -> Option<Vec<Option<Decimal>>> {
    if !items.iter().any(|(it, _, _)| it.amount.is_none()) {
        return None;
    }
    let hundred = Decimal::from(100);
    let mut nets: Vec<Option<Decimal>> = Vec::with_capacity(items.len());
    let mut all: Vec<(Decimal, Decimal)> = Vec::with_capacity(items.len());
    for ((it, _, _), rate) in items.iter().zip(rates) {
        if let Some(a) = decimal(&it.amount) {
            nets.push(None);
            all.push((a, rate.unwrap_or(Decimal::ZERO)));
            continue;
        }
        let (gross, rate) = (decimal(&it.amount_with_vat)?, (*rate)?);
        // To the cent, or to the unit of a currency printed without decimals (HUF).
        let round = |v: Decimal| {
            v.round_dp_with_strategy(
                gross.scale().min(2),
                rust_decimal::RoundingStrategy::MidpointAwayFromZero,
            )
        };
        // A row that prints its quantity and its unit price without VAT (a shop's row priced
        // both ways) is their product, where with the rate it gives the amount with VAT within
        // the rounding of the price with VAT that the row multiplied and of the amount (half a
        // unit of the last digit each), and without the rate it does not (a price with VAT).
        let slack = Decimal::new(5, gross.scale().min(2) + 1);
        // Checked: a quantity and a price as large as the page prints them.
        let product = decimal(&it.quantity)
            .zip(decimal(&it.unit_price))
            .and_then(|(q, p)| {
                let qp = q.checked_mul(p)?;
                let with_rate = qp.checked_mul(hundred + rate)? / hundred;
                let within = slack.checked_mul(q.abs().checked_add(Decimal::ONE)?)?;
                let off = |v: Decimal| v.checked_sub(gross).map(|d| d.abs());
                (off(with_rate)? <= within && off(qp)? > within).then_some(qp)
            });
        let net = match product {
            Some(qp) => round(qp),
            _ => net_of_gross(gross, rate, gross.scale().min(2))?,
        };
        nets.push(Some(net));
        all.push((net, rate));
    }
    let slack = rows_rounding(all.iter().map(|(a, _)| a));
    let within = |sum: Decimal, printed: Decimal| (sum - printed).abs() <= slack;
    let sum: Decimal = all.iter().map(|(a, _)| *a).sum();
    // The net total, or the net before a discount the document takes off it.
    let totals = &ctx.result.totals;
    let confirmed = match decimal(&totals.net) {
        Some(net) => {
            within(sum, net)
                || decimal(&totals.discount).is_some_and(|d| within(sum, net + d.abs()))
        }
        None => {
            let summary = tax_summary(ctx);
            !summary.is_empty()
                && summary.iter().all(|l| l.base.is_some())
                && all
                    .iter()
                    .all(|(_, r)| summary.iter().any(|l| l.rate == r.normalize()))
                && summary.iter().all(|l| {
                    let sum: Decimal = all
                        .iter()
                        .filter(|(_, r)| r.normalize() == l.rate)
                        .map(|(a, _)| *a)
                        .sum();
                    l.base.is_some_and(|b| within(sum, b))
                })
        }
    };
    (confirmed || printed_below(sum)).then_some(nets)
}

/// Rows whose printed rate is none of the tax summary's rates (OCR's `25;5%` read as 25 beside
/// a summary of 25,5 %, 14 % and 10 %): read again by [`partitioned_rates`]. None without a
/// summary.
fn misread_rates(printed: &[Option<Decimal>], summary: &[RateLine]) -> Vec<bool> {
    printed
        .iter()
        .map(|p| {
            p.is_some_and(|r| {
                !summary.is_empty() && !summary.iter().any(|l| l.rate == r.normalize())
            })
        })
        .collect()
}

/// A row's amount and its rate where known, for [`partitioned_rates`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct RowRate {
    amount: Option<Decimal>,
    rate: Option<Decimal>,
}

/// One line of the tax summary: rate, base and tax amount as printed.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RateLine {
    rate: Decimal,
    base: Option<Decimal>,
    tax: Option<Decimal>,
}

/// The tax summary's lines that state a rate.
fn tax_summary(ctx: &Ctx<'_>) -> Vec<RateLine> {
    ctx.result
        .taxes
        .iter()
        .filter_map(|t| {
            Some(RateLine {
                rate: decimal(&t.rate)?.normalize(),
                base: decimal(&t.base),
                tax: decimal(&t.amount),
            })
        })
        .collect()
}

/// The most ways of giving the unrated rows rates that [`partitioned_rates`] tries.
const MAX_RATE_ASSIGNMENTS: usize = 1 << 16;
/// The most assignments that balance before the rows are called ambiguous.
const MAX_BALANCED_ASSIGNMENTS: usize = 8;

/// The rates of rows printed without one in a document whose tax summary names several: every
/// way of giving each such row one of the summary's rates is tried, and those that balance are
/// kept, where the rows of each rate sum to the base the summary prints for it (to the cent), or,
/// where it prints only the tax, to an amount whose tax at that rate is the printed tax within
/// the rounding of the rows' taxes (half a cent a row, and half a cent for the sum; rows priced
/// with VAT: their tax share `amount x rate / (100 + rate)`). A row gets the rate that every
/// balanced assignment gives it (two rows of one amount at different rates stay without), and
/// none where no assignment balances, more than [`MAX_BALANCED_ASSIGNMENTS`] do (the sums then
/// say little), no summary line constrains a sum, a row has no amount or a rate the summary does
/// not name, or there are more than [`MAX_RATE_ASSIGNMENTS`] ways to try. `charges`: what the
/// net total adds to the rows (packing, freight), taxed at one of the rates: an assignment also
/// balances with it in one rate's sum. Arithmetic the document itself must satisfy: a row's
/// rate is never guessed.
fn partitioned_rates(
    rows: &[RowRate],
    summary: &[RateLine],
    gross: bool,
    charges: Option<Decimal>,
) -> Option<Vec<Option<Decimal>>> {
    let mut rates: Vec<Decimal> = summary.iter().map(|l| l.rate).collect();
    rates.sort();
    rates.dedup();
    if rates.len() < 2 || rates.len() != summary.len() {
        return None;
    }
    // Amounts in ten-thousandths (under 10^20: 10^16 in money), rates in hundredths of a
    // percent (at most 100 %), so that the sums and products below stay far inside `i128`.
    let scaled = |d: Decimal, by: i64, max: i128| {
        d.checked_mul(Decimal::from(by))?
            .trunc()
            .to_i128()
            .filter(|v| v.abs() <= max)
    };
    let units = |d: Decimal| scaled(d, 10_000, 10i128.pow(20));
    let bp = |r: Decimal| scaled(r, 100, 10_000);
    let charge = charges
        .filter(|c| c.is_sign_positive() && !gross)
        .and_then(units);
    let mut amounts = Vec::with_capacity(rows.len());
    let mut fixed = Vec::with_capacity(rows.len());
    for r in rows {
        let a = r.amount?;
        // An amount finer than a ten-thousandth is not summed.
        if !a.checked_mul(Decimal::from(10_000))?.fract().is_zero() {
            return None;
        }
        amounts.push(units(a)?);
        fixed.push(match r.rate {
            Some(rate) => Some(rates.iter().position(|x| *x == rate.normalize())?),
            None => None,
        });
    }
    let free: Vec<usize> = (0..rows.len()).filter(|&i| fixed[i].is_none()).collect();
    let k = rates.len();
    let ways = free.iter().try_fold(1usize, |n, _| {
        n.checked_mul(k).filter(|n| *n <= MAX_RATE_ASSIGNMENTS)
    })?;
    if free.is_empty() {
        return None;
    }
    // What each rate's rows must sum to: (rate in basis points, base or tax in units).
    let lines: Vec<(usize, i128, Option<i128>, Option<i128>)> = summary
        .iter()
        .map(|l| {
            let i = rates.iter().position(|x| *x == l.rate).unwrap_or(0);
            Some((
                i,
                bp(l.rate)?,
                l.base.and_then(units),
                l.tax.and_then(units),
            ))
        })
        .collect::<Option<_>>()?;
    let constrains = |&(_, r, base, tax): &(usize, i128, Option<i128>, Option<i128>)| {
        (!gross && base.is_some()) || (r > 0 && tax.is_some())
    };
    if !lines.iter().any(constrains) {
        return None;
    }
    const HALF_CENT: i128 = 50;
    const WHOLE: i128 = 10_000;
    // Taxes round to the unit the amounts print: half a cent, or half a unit where the rows'
    // amounts print no decimals (forints, `-1815760`).
    let scale = rows
        .iter()
        .filter_map(|r| r.amount)
        .map(|a| a.scale())
        .max();
    let half = units(last_digit_unit(scale) / Decimal::from(2))
        .unwrap_or(0)
        .max(HALF_CENT);
    let balances = |sums: &[i128], counts: &[i128]| {
        lines.iter().all(|&(i, r, base, tax)| {
            let (s, m) = (sums[i], counts[i]);
            match (gross, base, tax) {
                (false, Some(b), _) => (s - b).abs() <= HALF_CENT,
                (false, None, Some(t)) if r > 0 => {
                    (s * r - t * WHOLE).abs() <= half * (m + 1) * WHOLE
                }
                (true, _, Some(t)) if r > 0 => {
                    (s * r - t * (WHOLE + r)).abs() <= half * (m + 1) * (WHOLE + r)
                }
                _ => true,
            }
        })
    };
    let mut agreed: Option<Vec<usize>> = None;
    let mut balanced = 0usize;
    let mut choice = vec![0usize; free.len()];
    let mut assigned: Vec<usize> = fixed.iter().map(|f| f.unwrap_or(0)).collect();
    let (mut sums, mut counts) = (vec![0i128; k], vec![0i128; k]);
    for n in 0..ways {
        let mut rest = n;
        for (c, &i) in choice.iter_mut().zip(&free) {
            *c = rest % k;
            assigned[i] = *c;
            rest /= k;
        }
        sums.fill(0);
        counts.fill(0);
        for (&a, &r) in amounts.iter().zip(&assigned) {
            sums[r] += a;
            counts[r] += 1;
        }
        // The charges the net adds to the rows (`Balné  45,01`) are taxed at one of the rates.
        let balanced_here = balances(&sums, &counts)
            || charge.is_some_and(|c| {
                (0..k).any(|j| {
                    sums[j] += c;
                    let ok = balances(&sums, &counts);
                    sums[j] -= c;
                    ok
                })
            });
        if !balanced_here {
            continue;
        }
        balanced += 1;
        if balanced > MAX_BALANCED_ASSIGNMENTS {
            return None;
        }
        agreed = Some(match agreed {
            None => choice.clone(),
            Some(prev) => prev
                .iter()
                .zip(&choice)
                .map(|(p, c)| if p == c { *p } else { usize::MAX })
                .collect(),
        });
    }
    let agreed = agreed?;
    let mut out = vec![None; rows.len()];
    for (&i, &c) in free.iter().zip(&agreed) {
        out[i] = rates.get(c).copied();
    }
    Some(out)
}

/// The tax code printed right after an amount, alone or glued to it, at the end of its line
/// (`17,79 A`, `3.56A`, `RM5.60 SR`; [`taxes::tax_code`]).
fn code_after<'a>(doc: &'a CleanDocument, span: &Span) -> Option<&'a str> {
    let text = doc.lines.get(span.line)?.text.get(span.end..)?;
    let mut tokens = text.split_whitespace();
    let code = tokens.next().and_then(taxes::tax_code)?;
    tokens.next().is_none().then_some(code)
}

/// The rate a row's own net amount and amount with VAT (or VAT amount) make, where its rate
/// prints none that reads (OCR's `2096` for `20%`): `VAT / net` to a tenth of a percent, a
/// rate a VAT can have, that gives the printed VAT within the rounding of the amounts (half a
/// unit of their last digit each). Not from a net under ten units: too few digits to tell.
fn rate_of_amounts(it: &LineItem) -> Option<Decimal> {
    let net = decimal(&it.amount)?;
    let vat = match decimal(&it.vat_amount) {
        Some(v) => v,
        None => decimal(&it.amount_with_vat)?.checked_sub(net)?,
    };
    if net.abs() < Decimal::TEN || vat.is_zero() || vat.is_sign_negative() != net.is_sign_negative()
    {
        return None;
    }
    let rate = (vat.checked_mul(Decimal::ONE_HUNDRED)? / net).round_dp(1);
    let slack = last_digit_unit(Some(net.scale().max(vat.scale())));
    let off = (net.checked_mul(rate)? / Decimal::ONE_HUNDRED - vat).abs();
    (taxes::is_vat_rate(rate) && off <= slack).then(|| rate.normalize())
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

/// How far rows' amounts, each rounded on its own, may sum from a printed amount: half a unit of
/// the last printed digit (a cent, or a unit where amounts print no decimals) per row.
fn rows_rounding<'a>(amounts: impl Iterator<Item = &'a Decimal>) -> Decimal {
    let (rows, scale) = amounts.fold((0u32, None::<u32>), |(n, s), a| {
        (n + 1, Some(s.map_or(a.scale(), |s| s.max(a.scale()))))
    });
    last_digit_unit(scale) / Decimal::from(2) * Decimal::from(rows)
}

/// The unit of the last digit amounts print to their finest scale (`0.01` for cents, `1` for
/// whole forints), a cent where no amount is printed.
fn last_digit_unit(scale: Option<u32>) -> Decimal {
    scale.map_or(Decimal::new(1, 2), |scale| Decimal::new(1, scale))
}

/// An amount with VAT less its rate: `gross x 100 / (100 + rate)`, rounded half away from zero
/// to `dp` decimals.
fn net_of_gross(gross: Decimal, rate: Decimal, dp: u32) -> Option<Decimal> {
    let hundred = Decimal::ONE_HUNDRED;
    Some(
        (gross.checked_mul(hundred)? / (hundred + rate))
            .round_dp_with_strategy(dp, rust_decimal::RoundingStrategy::MidpointAwayFromZero),
    )
}

/// The sum of rows' amounts without the rate each prints (`amount x 100 / (100 + rate)`, each
/// rounded to the amount's own decimals), where every row prints one and some rate is not zero.
fn nets_of_printed_rates(items: &[Item]) -> Option<Decimal> {
    let hundred = Decimal::ONE_HUNDRED;
    let mut any_rate = false;
    let mut sum = Decimal::ZERO;
    for (it, _, _) in items {
        let (a, r) = (decimal(&it.amount)?, decimal(&it.vat_rate)?);
        if it.amount_with_vat.is_some() || r.is_sign_negative() || r >= hundred {
            return None;
        }
        any_rate |= !r.is_zero();
        sum = sum.checked_add(net_of_gross(a, r, a.scale())?)?;
    }
    any_rate.then_some(sum)
}

/// Rows whose minus sign OCR lost (`447.17` among a credit note's negative rows): where the
/// rows do not sum to the net total and taking the sign of the net for the few rows printed
/// without it (fewer than half) makes them sum to it exactly, those rows take it, with their
/// unit price and other amounts. A row that rightly differs in sign (a discount row) is never
/// touched: the document's sum already holds with it.
fn lost_signs(ctx: &Ctx<'_>, items: &mut [Item]) {
    let Some(net) = decimal(&ctx.result.totals.net).filter(|n| !n.is_zero()) else {
        return;
    };
    let Some(amounts) = items
        .iter()
        .map(|(it, _, _)| decimal(&it.amount))
        .collect::<Option<Vec<Decimal>>>()
    else {
        return;
    };
    let odd = lost_sign_rows(&amounts, net);
    let flip = |v: &mut Option<String>| {
        if let Some(d) =
            decimal(v).filter(|d| !d.is_zero() && d.is_sign_negative() != net.is_sign_negative())
        {
            *v = Some((-d).to_string());
        }
    };
    for &i in &odd {
        let it = &mut items[i].0;
        flip(&mut it.amount);
        flip(&mut it.unit_price);
        flip(&mut it.amount_with_vat);
        flip(&mut it.vat_amount);
    }
}

/// The rows of [`lost_signs`]: those printed without the net's sign, where they are fewer than
/// half and the rows sum to the net exactly once they take it; else none.
fn lost_sign_rows(amounts: &[Decimal], net: Decimal) -> Vec<usize> {
    let sum: Decimal = amounts.iter().sum();
    let odd: Vec<usize> = amounts
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.is_zero() && a.is_sign_negative() != net.is_sign_negative())
        .map(|(i, _)| i)
        .collect();
    let odd_sum: Decimal = odd.iter().map(|&i| amounts[i]).sum();
    if sum == net
        || odd.is_empty()
        || odd.len() * 2 >= amounts.len()
        || sum - odd_sum - odd_sum != net
    {
        return Vec::new();
    }
    odd
}

/// Rows priced with VAT: their amounts sum to the document's total (within the rounding of each
/// row's VAT), which is its net plus a VAT (a receipt, a consumer invoice); or, each row
/// printing its rate, their amounts without that rate sum to the net total or to an amount
/// printed under them (a goods total before the charges the net adds: `Lordo` beside `Totale
/// merce`), where the amounts as printed sum to neither. Their amounts are then the amounts
/// with VAT.
fn gross_priced(ctx: &mut Ctx<'_>, items: &mut [Item], printed_below: &impl Fn(Decimal) -> bool) {
    let amounts: Option<Vec<Decimal>> =
        items.iter().map(|(it, _, _)| decimal(&it.amount)).collect();
    let Some(sum) = amounts.as_ref().map(|a| a.iter().sum::<Decimal>()) else {
        return;
    };
    let t = &ctx.result.totals;
    let (Some(net), Some(vat), Some(total)) = (decimal(&t.net), decimal(&t.vat), decimal(&t.total))
    else {
        return;
    };
    // Each row's VAT rounded on its own: the rows' sum may miss the total.
    let slack = rows_rounding(amounts.iter().flatten());
    if net == sum || vat.is_zero() || net + vat != total {
        return;
    }
    let with_vat = (total - sum).abs() <= slack
        || !printed_below(sum)
            && nets_of_printed_rates(items)
                .is_some_and(|nets| (nets - net).abs() <= slack || printed_below(nets));
    if !with_vat {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn rows(amounts: &[&str]) -> Vec<RowRate> {
        amounts
            .iter()
            .map(|a| RowRate {
                amount: Some(d(a)),
                rate: None,
            })
            .collect()
    }

    fn line(rate: &str, base: Option<&str>, tax: Option<&str>) -> RateLine {
        RateLine {
            rate: d(rate),
            base: base.map(d),
            tax: tax.map(d),
        }
    }

    #[test]
    fn a_quantitys_cell_prints_its_unit_beside_or_glued() {
        assert_eq!(qty_cell_unit("20 Stk"), "Stk");
        assert_eq!(qty_cell_unit("2pcs"), "pcs");
        assert_eq!(qty_cell_unit("2,5kg"), "kg");
        assert_eq!(qty_cell_unit("12"), "");
        assert_eq!(qty_cell_unit("3x2"), "");
        // The one OCR read as a letter is no unit; a litre alone is.
        assert_eq!(qty_cell_unit("l stk."), "stk.");
        assert_eq!(qty_cell_unit("l"), "l");
    }

    #[test]
    fn a_credit_notes_row_whose_minus_ocr_lost_takes_the_nets_sign() {
        let a = |v: &[&str]| v.iter().map(|s| d(s)).collect::<Vec<_>>();
        // -10,00 - 5,00 + 2,50 misses -17,50; with -2,50 it holds.
        assert_eq!(
            lost_sign_rows(&a(&["-10.00", "-5.00", "2.50"]), d("-17.50")),
            [2]
        );
        // An invoice's discount row: the sum already holds.
        assert!(lost_sign_rows(&a(&["10.00", "5.00", "-2.50"]), d("12.50")).is_empty());
        // Flipping would not make it hold, or half the rows would flip: left alone.
        assert!(lost_sign_rows(&a(&["-10.00", "-5.00", "2.50"]), d("-20.00")).is_empty());
        assert!(lost_sign_rows(&a(&["-10.00", "5.00"]), d("-15.00")).is_empty());
    }

    #[test]
    fn rates_from_printed_bases_and_from_taxes() {
        let r = rows(&["100.00", "50.00", "25.00"]);
        let by_base = [
            line("20", Some("125.00"), None),
            line("10", Some("50.00"), None),
        ];
        let want = Some(vec![Some(d("20")), Some(d("10")), Some(d("20"))]);
        assert_eq!(partitioned_rates(&r, &by_base, false, None), want);
        // Only the tax printed (25,00 = 20 % of 125,00); the 0 % line constrains nothing.
        let by_tax = [
            line("20", None, Some("25.00")),
            line("0", None, Some("0.00")),
        ];
        let zero = Some(vec![Some(d("20")), Some(d("0")), Some(d("20"))]);
        assert_eq!(partitioned_rates(&r, &by_tax, false, None), zero);
        // A row that prints its rate counts toward that rate (and keeps it: no answer for it).
        let mut fixed = r.clone();
        fixed[0].rate = Some(d("20.00"));
        let rest = Some(vec![None, Some(d("10")), Some(d("20"))]);
        assert_eq!(partitioned_rates(&fixed, &by_base, false, None), rest);
        // Rows priced with VAT: 120,00 + 30,00 at 20 % hold 25,00 of tax.
        let gross = rows(&["120.00", "55.00", "30.00"]);
        let g = [
            line("20", None, Some("25.00")),
            line("10", None, Some("5.00")),
        ];
        assert_eq!(partitioned_rates(&gross, &g, true, None), want);
    }

    #[test]
    fn a_rate_ocr_misread_is_read_again_from_the_sums() {
        let summary = [
            line("25.5", Some("160.00"), None),
            line("14", Some("50.00"), None),
            line("10", Some("20.00"), None),
        ];
        let printed = [Some(d("25")), Some(d("14")), Some(d("10")), None];
        assert_eq!(
            misread_rates(&printed, &summary),
            [true, false, false, false]
        );
        assert_eq!(misread_rates(&printed, &[]), [false; 4]);
        // The misread row freed, the sums give it 25,5 %.
        let mut rows = rows(&["100.00", "50.00", "20.00", "60.00"]);
        for (r, rate) in rows.iter_mut().zip(["", "14", "10", "25.5"]) {
            r.rate = (!rate.is_empty()).then(|| d(rate));
        }
        assert_eq!(
            partitioned_rates(&rows, &summary, false, None),
            Some(vec![Some(d("25.5")), None, None, None])
        );
    }

    #[test]
    fn charges_the_net_adds_are_taxed_at_one_of_the_rates() {
        // Rows 100 + 50 + 20; the net adds packing of 10 taxed at 21 %: 21 % of 130 is 27.30,
        // 12 % of 50 is 6.00. Without the charge no assignment balances.
        let r = rows(&["100.00", "50.00", "20.00"]);
        let by_tax = [
            line("21", None, Some("27.30")),
            line("12", None, Some("6.00")),
        ];
        assert_eq!(partitioned_rates(&r, &by_tax, false, None), None);
        assert_eq!(
            partitioned_rates(&r, &by_tax, false, Some(d("10.00"))),
            Some(vec![Some(d("21")), Some(d("12")), Some(d("21"))])
        );
    }

    #[test]
    fn whole_unit_amounts_tax_to_half_a_unit() {
        // Forints: 27 % of 15 631 841 is 4 220 597,07, printed 4 220 597 (off by 0,07 a unit,
        // more than half a cent a row); 5 % of 116 502 is 5 825,1, printed 5 825.
        let r = rows(&["-1815760", "-13816081", "-116502"]);
        let by_tax = [
            line("27", None, Some("-4220597")),
            line("5", None, Some("-5825")),
        ];
        let (a, b) = (Some(d("27")), Some(d("5")));
        assert_eq!(
            partitioned_rates(&r, &by_tax, false, None),
            Some(vec![a, a, b])
        );
        // The same numbers printed with cents are off by more than their rounding.
        let cents = rows(&["-1815760.00", "-13816081.00", "-116502.00"]);
        let by_cents = [
            line("27", None, Some("-4220597.00")),
            line("5", None, Some("-5825.00")),
        ];
        assert_eq!(partitioned_rates(&cents, &by_cents, false, None), None);
    }

    #[test]
    fn a_rows_net_and_gross_make_its_rate() {
        let item = |net: &str, gross: Option<&str>, vat: Option<&str>| LineItem {
            amount: Some(net.into()),
            amount_with_vat: gross.map(Into::into),
            vat_amount: vat.map(Into::into),
            ..LineItem::default()
        };
        let rate = |i: LineItem| rate_of_amounts(&i).map(|r| r.to_string());
        assert_eq!(
            rate(item("4527464.28", Some("5432957.14"), None)),
            Some("20".into())
        );
        assert_eq!(
            rate(item("200.00", None, Some("11.00"))),
            Some("5.5".into())
        );
        assert_eq!(
            rate(item("-50.00", Some("-60.50"), None)),
            Some("21".into())
        );
        // More than a VAT can add, amounts too small to tell, no gross: none.
        assert_eq!(rate(item("100.00", Some("180.00"), None)), None);
        assert_eq!(rate(item("5.00", Some("6.00"), None)), None);
        assert_eq!(rate(item("100.00", None, None)), None);
        // A gross the rate's tenth does not make to the cent.
        assert_eq!(rate(item("1234.56", Some("1481.51"), None)), None);
    }

    #[test]
    fn no_rates_where_the_sums_say_nothing_sure() {
        let r = rows(&["100.00", "50.00", "25.00"]);
        // Nothing balances.
        let off = [
            line("20", Some("130.00"), None),
            line("10", Some("45.00"), None),
        ];
        assert_eq!(partitioned_rates(&r, &off, false, None), None);
        // One rate: not this function's business.
        assert_eq!(
            partitioned_rates(&r, &[line("20", Some("175.00"), None)], false, None),
            None
        );
        // No line constrains a sum (0 % and a rate without base or tax).
        let loose = [line("20", None, None), line("0", None, Some("0.00"))];
        assert_eq!(partitioned_rates(&r, &loose, false, None), None);
        // A row without an amount, or with a rate the summary does not name.
        let mut missing = r.clone();
        missing[1].amount = None;
        let ok = [
            line("20", Some("125.00"), None),
            line("10", Some("50.00"), None),
        ];
        assert_eq!(partitioned_rates(&missing, &ok, false, None), None);
        let mut other = r.clone();
        other[1].rate = Some(d("7"));
        assert_eq!(partitioned_rates(&other, &ok, false, None), None);
        // An absurd amount (the largest decimal) is not summed, and nothing overflows.
        let huge = rows(&["79228162514264337593543950335", "50.00", "25.00"]);
        assert_eq!(partitioned_rates(&huge, &ok, false, None), None);
        // Seventeen unrated rows at two rates: more ways than are tried.
        let many = rows(&["1.00"; 17]);
        let sum = [
            line("20", Some("9.00"), None),
            line("10", Some("8.00"), None),
        ];
        assert_eq!(partitioned_rates(&many, &sum, false, None), None);
        // Sixteen rows of one amount: every split of 9 and 7 balances, far more than 8.
        let same = rows(&["1.00"; 16]);
        let split = [
            line("20", Some("9.00"), None),
            line("10", Some("7.00"), None),
        ];
        assert_eq!(partitioned_rates(&same, &split, false, None), None);
    }
}
