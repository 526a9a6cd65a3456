//! The EN 16931 arithmetic of an e-invoice: each violated business rule is a warning
//! `E_INVOICE_RULE` whose message names the rule and the numbers, e.g. "BR-CO-15: total without
//! VAT 100.00 + VAT 19.00 = 119.00, but the invoice total is 120.00".
//!
//! # Rules
//! - BR-CO-10: the line net amounts (BT-131) add up to the sum of line net amounts (BT-106).
//! - BR-CO-11: the document-level allowances (BT-92) add up to their total (BT-107); an
//!   invoice with allowances must state the total.
//! - BR-CO-12: the document-level charges (BT-99) add up to their total (BT-108); likewise.
//! - BR-CO-13: total without VAT BT-109 = BT-106 - BT-107 + BT-108.
//! - BR-CO-14: total VAT BT-110 = the sum of the breakdown's VAT amounts (BT-117).
//! - BR-CO-15: total with VAT BT-112 = BT-109 + BT-110.
//! - BR-CO-16: amount due BT-115 = BT-112 - paid BT-113 + rounding BT-114. Not checked on a
//!   MINIMUM-profile invoice that states no BT-113: that profile has no paid amount to state,
//!   so its absence there does not mean 0.
//! - BR-CO-17: a breakdown's VAT amount BT-117 = taxable amount BT-116 x rate BT-119 / 100,
//!   rounded to 2 decimals.
//! - BR-S-08, BR-Z-08, BR-E-08, BR-AE-08, BR-IC-08 (category K), BR-G-08, BR-AF-08 (L),
//!   BR-AG-08 (M): a breakdown's taxable amount = the net amounts of the lines with its rate +
//!   the document-level charges - the allowances of its category and rate. The Result's line
//!   items carry a rate but no category, so the breakdown entries are grouped by rate (a 0 %
//!   group adds up every zero-rated category of the breakdown together; the message names each).
//! - BR-Z-09, BR-E-09, BR-AE-09, BR-IC-09, BR-G-09, BR-O-09: the VAT amount of a zero-rated,
//!   exempt, reverse-charge, intra-community, export or not-subject category is 0.
//!
//! The other BR-CO rules are not arithmetic (codes, presence, identifiers).
//!
//! # Inputs and skipping
//! A rule is checked only when every value it needs is stated: BR-CO-10 needs at least one
//! line, each with a net amount (a MINIMUM or BASIC WL profile has no lines: skipped), and
//! BT-106; BR-CO-13 needs BT-106 and BT-109; BR-CO-14 BT-110 and at least one breakdown entry,
//! each with an amount; BR-CO-15 BT-109, BT-110 and BT-112; BR-CO-16 BT-112 and BT-115;
//! BR-CO-17 the entry's amount and, with a rate that does not round to 0, its base. The
//! optional terms BT-107, BT-108, BT-113 and BT-114 count as 0 when absent (as the standard
//! says). An allowance or charge without an amount skips BR-CO-11/12 and the per-category
//! bases. The per-category bases are skipped when a line lacks a net amount or a rate (category
//! O lines have none), when the Result's line items are not one per line net, or when an
//! allowance, charge or breakdown entry of a non-zero-rated category lacks a rate.
//!
//! # Tolerances
//! As the CEN validation artefacts of EN 16931 check them (the Schematron for CII and for UBL, as
//! shipped for instance with the Factur-X validation files), so that an invoice those artefacts
//! accept is not reported here:
//! - BR-CO-10, 11, 12, 13, 14, 15: the stated amount equals the sum (or difference) of the other
//!   amounts rounded to 2 decimals (XPath `round`, i.e. half up), exactly: exact to the cent.
//! - BR-CO-16: exact (no rounding).
//! - BR-CO-17: the stated VAT amount may differ from `|base| x rate / 100` rounded to 2 decimals
//!   by at most 1 (one unit of the currency: the breakdown may be the sum of line VAT amounts
//!   rounded one by one), strictly less than 1 in UBL; a rate that rounds to 0 (or no rate)
//!   needs a VAT amount that rounds to 0.
//! - The per-category bases (-08): in CII, the base equals the line sum, the charge sum and the
//!   allowance sum each rounded to 2 decimals, exactly; in UBL it may differ from the unrounded
//!   sum by less than 1 (as the UBL artefact allows).
//! - The -09 rules: exactly 0.
//!
//! # Fields
//! `field` is the JSON pointer of the Result value concerned: `/line_items` (BR-CO-10),
//! `/totals/discount` (BR-CO-11, BT-107 is the Result's discount), `/totals/net` (BR-CO-13),
//! `/totals/vat` (BR-CO-14), `/totals/total` (BR-CO-15), `/totals/payable` (BR-CO-16),
//! `/taxes/<i>/amount` (BR-CO-17, -09) and `/taxes/<i>/base` (-08), where `i` is the breakdown
//! entry's index (the Result's `taxes` are the breakdown, in order). BR-CO-12 has none (the
//! Result has no charge total).
//!
//! All arithmetic is checked: a value so large that a sum or product overflows skips the rule,
//! never panics.

use super::{AllowanceCharge, EInvoice, Syntax, VatBreakdown};
use crate::checks;
use crate::result::Issue;
use rust_decimal::Decimal;

/// The issue code of a violated rule.
const CODE: &str = "E_INVOICE_RULE";

/// The EN 16931 arithmetic rules that `e` violates, one warning each (see the module doc).
pub fn rules(e: &EInvoice) -> Vec<Issue> {
    let mut out = Findings(Vec::new());
    br_co_10(e, &mut out);
    allowance_charge_total(e, false, &mut out);
    allowance_charge_total(e, true, &mut out);
    br_co_13(e, &mut out);
    br_co_14(e, &mut out);
    br_co_15(e, &mut out);
    br_co_16(e, &mut out);
    br_co_17(e, &mut out);
    zero_vat(e, &mut out);
    category_bases(e, &mut out);
    out.0
}

struct Findings(Vec<Issue>);

impl Findings {
    fn warn(&mut self, rule: &str, message: String, field: Option<String>) {
        self.0.push(Issue {
            code: CODE.to_string(),
            message: format!("{rule}: {message}"),
            field,
        });
    }
}

/// XPath's `round(v * 100) div 100`: to 2 decimals, a half rounded up (towards +infinity).
fn round2(v: Decimal) -> Option<Decimal> {
    let scaled = v.checked_mul(Decimal::ONE_HUNDRED)?;
    let up = scaled.checked_add(Decimal::new(5, 1))?.floor();
    up.checked_div(Decimal::ONE_HUNDRED)
}

/// XPath's `round(v) = 0`: -0.5 <= v < 0.5.
fn rounds_to_zero(v: Decimal) -> bool {
    v.checked_add(Decimal::new(5, 1))
        .is_some_and(|u| u.floor().is_zero())
}

/// Whether the stated amount is the computed one rounded to the cent; false when rounding
/// overflows.
fn to_the_cent(computed: Decimal, stated: Decimal) -> bool {
    round2(computed) == Some(stated)
}

/// |a - b| < tol (or <= tol when `inclusive`); false when the difference overflows.
fn within(a: Decimal, b: Decimal, tol: Decimal, inclusive: bool) -> bool {
    a.checked_sub(b).is_some_and(|d| {
        let d = d.abs();
        d < tol || (inclusive && d == tol)
    })
}

/// Whether the invoice is UBL (whose artefact is more lenient on the category bases).
fn is_ubl(e: &EInvoice) -> bool {
    matches!(e.syntax, Syntax::UblInvoice | Syntax::UblCreditNote)
}

fn checked_sum<'a>(values: impl IntoIterator<Item = &'a Decimal>) -> Option<Decimal> {
    values
        .into_iter()
        .try_fold(Decimal::ZERO, |a, b| a.checked_add(*b))
}

/// Every value present, or None.
fn all<T: Copy>(values: impl IntoIterator<Item = Option<T>>) -> Option<Vec<T>> {
    values.into_iter().collect()
}

fn br_co_10(e: &EInvoice, f: &mut Findings) {
    let Some(stated) = e.sums.line_total else {
        return;
    };
    if e.line_nets.is_empty() {
        return;
    }
    let Some(nets) = all(e.line_nets.iter().copied()) else {
        return;
    };
    let Some(sum) = checked_sum(&nets) else {
        return;
    };
    if !to_the_cent(sum, stated) {
        f.warn(
            "BR-CO-10",
            format!(
                "the {} line net amounts add up to {sum}, but the sum of line net amounts \
                 stated is {stated}",
                nets.len()
            ),
            Some("/line_items".into()),
        );
    }
}

/// BR-CO-11 (allowances, `charge` false) and BR-CO-12 (charges).
fn allowance_charge_total(e: &EInvoice, charge: bool, f: &mut Findings) {
    let (rule, what, stated, field) = if charge {
        ("BR-CO-12", "charges", e.sums.charge_total, None)
    } else {
        (
            "BR-CO-11",
            "allowances",
            e.sums.allowance_total,
            Some("/totals/discount".to_string()),
        )
    };
    let Some(amounts) = all(e
        .allowance_charges
        .iter()
        .filter(|a| a.charge == charge)
        .map(|a| a.amount))
    else {
        return;
    };
    let Some(sum) = checked_sum(&amounts) else {
        return;
    };
    match stated {
        Some(stated) if !to_the_cent(sum, stated) => f.warn(
            rule,
            format!(
                "the {} document-level {what} add up to {sum}, but the total of {what} stated \
                 is {stated}",
                amounts.len()
            ),
            field,
        ),
        None if !amounts.is_empty() && !sum.is_zero() => f.warn(
            rule,
            format!(
                "the {} document-level {what} add up to {sum}, but no total of {what} is stated",
                amounts.len()
            ),
            field,
        ),
        _ => {}
    }
}

/// `base` combined with each present term: the value and the text ` - label value + label value
/// = result` (empty when no term is present).
fn combine(base: Decimal, terms: &[(bool, &str, Option<Decimal>)]) -> Option<(Decimal, String)> {
    let mut value = base;
    let mut text = String::new();
    for &(add, label, term) in terms {
        let Some(t) = term else { continue };
        value = if add {
            value.checked_add(t)?
        } else {
            value.checked_sub(t)?
        };
        text.push_str(&format!(" {} {label} {t}", if add { '+' } else { '-' }));
    }
    if !text.is_empty() {
        text.push_str(&format!(" = {value}"));
    }
    Some((value, text))
}

fn br_co_13(e: &EInvoice, f: &mut Findings) {
    let s = &e.sums;
    let (Some(lines), Some(stated)) = (s.line_total, s.tax_basis_total) else {
        return;
    };
    let Some((expected, text)) = combine(
        lines,
        &[
            (false, "allowances", s.allowance_total),
            (true, "charges", s.charge_total),
        ],
    ) else {
        return;
    };
    if !to_the_cent(expected, stated) {
        f.warn(
            "BR-CO-13",
            format!("sum of line net amounts {lines}{text}, but the total without VAT is {stated}"),
            Some("/totals/net".into()),
        );
    }
}

fn br_co_14(e: &EInvoice, f: &mut Findings) {
    let Some(stated) = e.sums.tax_total else {
        return;
    };
    if e.vat_breakdown.is_empty() {
        return;
    }
    let Some(amounts) = all(e.vat_breakdown.iter().map(|b| b.amount)) else {
        return;
    };
    let Some(sum) = checked_sum(&amounts) else {
        return;
    };
    if !to_the_cent(sum, stated) {
        f.warn(
            "BR-CO-14",
            format!(
                "the VAT amounts of the {} breakdown entries add up to {sum}, but the total VAT \
                 is {stated}",
                amounts.len()
            ),
            Some("/totals/vat".into()),
        );
    }
}

fn br_co_15(e: &EInvoice, f: &mut Findings) {
    let s = &e.sums;
    let (Some(net), Some(vat), Some(total)) = (s.tax_basis_total, s.tax_total, s.grand_total)
    else {
        return;
    };
    let Some(expected) = net.checked_add(vat) else {
        return;
    };
    if !to_the_cent(expected, total) {
        f.warn(
            "BR-CO-15",
            format!(
                "total without VAT {net} + VAT {vat} = {expected}, but the invoice total is \
                 {total}"
            ),
            Some("/totals/total".into()),
        );
    }
}

fn br_co_16(e: &EInvoice, f: &mut Findings) {
    let s = &e.sums;
    let (Some(total), Some(payable)) = (s.grand_total, s.payable) else {
        return;
    };
    if s.prepaid.is_none() && is_minimum_profile(e) {
        // The MINIMUM profile has no paid amount (BT-113) to state: its absence there does
        // not mean 0, and a prepaid invoice's due amount is lower than its total.
        return;
    }
    let Some((expected, text)) = combine(
        total,
        &[(false, "paid", s.prepaid), (true, "rounding", s.rounding)],
    ) else {
        return;
    };
    if expected != payable {
        f.warn(
            "BR-CO-16",
            format!("invoice total {total}{text}, but the amount due for payment is {payable}"),
            Some("/totals/payable".into()),
        );
    }
}

/// Whether the invoice declares the MINIMUM profile of Factur-X / ZUGFeRD 2.x
/// (`urn:factur-x.eu:1p0:minimum`, `urn:zugferd.de:2p0:minimum`), whose monetary summation
/// carries only BT-109, BT-110, BT-112 and BT-115.
fn is_minimum_profile(e: &EInvoice) -> bool {
    e.guideline
        .as_deref()
        .is_some_and(|g| g.trim().to_ascii_lowercase().ends_with(":minimum"))
}

fn br_co_17(e: &EInvoice, f: &mut Findings) {
    for (i, b) in e.vat_breakdown.iter().enumerate() {
        let Some(amount) = b.amount else {
            continue;
        };
        let field = Some(format!("/taxes/{i}/amount"));
        let Some(rate) = b.rate.filter(|r| !rounds_to_zero(*r)) else {
            // No rate, or one that rounds to 0: the VAT amount must round to 0.
            if !rounds_to_zero(amount) {
                let rate = b
                    .rate
                    .map(|r| format!("rate {r} %"))
                    .unwrap_or_else(|| "no rate".into());
                f.warn(
                    "BR-CO-17",
                    format!(
                        "{}{rate}, but the VAT amount stated is {amount}",
                        category_prefix(b)
                    ),
                    field,
                );
            }
            continue;
        };
        let Some(base) = b.base else {
            continue;
        };
        let Some(expected) = base
            .abs()
            .checked_mul(rate)
            .and_then(|p| p.checked_div(Decimal::ONE_HUNDRED))
            .and_then(round2)
        else {
            continue;
        };
        if !within(amount.abs(), expected, Decimal::ONE, !is_ubl(e)) {
            let shown = if base.is_sign_negative() {
                -expected
            } else {
                expected
            };
            f.warn(
                "BR-CO-17",
                format!(
                    "{}taxable amount {base} x rate {rate} % = {shown}, but the VAT amount \
                     stated is {amount}",
                    category_prefix(b)
                ),
                field,
            );
        }
    }
}

/// "category S: " (or nothing when the category is not stated).
fn category_prefix(b: &VatBreakdown) -> String {
    b.category
        .as_deref()
        .map(|c| format!("category {c}: "))
        .unwrap_or_default()
}

/// The rule family of a VAT category code (UNTDID 5305 subset of EN 16931): S → "S",
/// K → "IC", L → "AF", M → "AG".
fn family(category: &str) -> Option<&'static str> {
    Some(match category {
        "S" => "S",
        "Z" => "Z",
        "E" => "E",
        "AE" => "AE",
        "K" => "IC",
        "G" => "G",
        "O" => "O",
        "L" => "AF",
        "M" => "AG",
        _ => return None,
    })
}

/// Categories whose VAT amount is 0 by definition (their rate, where stated, is 0).
fn zero_rated(category: Option<&str>) -> bool {
    matches!(category, Some("Z" | "E" | "AE" | "K" | "G" | "O"))
}

fn zero_vat(e: &EInvoice, f: &mut Findings) {
    for (i, b) in e.vat_breakdown.iter().enumerate() {
        let (Some(cat), Some(amount)) = (b.category.as_deref(), b.amount) else {
            continue;
        };
        if !zero_rated(Some(cat)) || amount.is_zero() {
            continue;
        }
        let fam = family(cat).unwrap_or(cat);
        f.warn(
            &format!("BR-{fam}-09"),
            format!("the VAT amount of category {cat} must be 0, but it is {amount}"),
            Some(format!("/taxes/{i}/amount")),
        );
    }
}

/// The rate of an entry: as stated, or 0 for a zero-rated category that states none.
fn rate_of(rate: Option<Decimal>, category: Option<&str>) -> Option<Decimal> {
    rate.or_else(|| zero_rated(category).then_some(Decimal::ZERO))
}

fn category_bases(e: &EInvoice, f: &mut Findings) {
    let lines = &e.result.line_items;
    if e.line_nets.is_empty() || lines.len() != e.line_nets.len() {
        return;
    }
    let Some(line_rates) = all(lines
        .iter()
        .map(|li| li.vat_rate.as_deref().and_then(checks::decimal)))
    else {
        return;
    };
    let Some(nets) = all(e.line_nets.iter().copied()) else {
        return;
    };
    let Some(acs) = all(e.allowance_charges.iter().map(|a: &AllowanceCharge| {
        Some((
            a.charge,
            a.amount?,
            rate_of(a.vat_rate, a.vat_category.as_deref())?,
        ))
    })) else {
        return;
    };
    let Some(entries) = all(e.vat_breakdown.iter().map(|b| {
        Some((
            b.base?,
            rate_of(b.rate, b.category.as_deref())?,
            b.category.as_deref(),
        ))
    })) else {
        return;
    };
    // Group the breakdown by rate, in order of first appearance.
    let mut rates: Vec<(Decimal, usize)> = Vec::new();
    for (i, &(_, rate, _)) in entries.iter().enumerate() {
        if !rates.iter().any(|(r, _)| *r == rate) {
            rates.push((rate, i));
        }
    }
    for (rate, first) in rates {
        let group: Vec<_> = entries.iter().filter(|(_, r, _)| *r == rate).collect();
        let bases: Vec<Decimal> = group.iter().map(|(b, _, _)| *b).collect();
        let line_part: Vec<Decimal> = nets
            .iter()
            .zip(&line_rates)
            .filter(|(_, r)| **r == rate)
            .map(|(n, _)| *n)
            .collect();
        let charges: Vec<Decimal> = acs
            .iter()
            .filter(|(c, _, r)| *c && *r == rate)
            .map(|(_, a, _)| *a)
            .collect();
        let allowances: Vec<Decimal> = acs
            .iter()
            .filter(|(c, _, r)| !*c && *r == rate)
            .map(|(_, a, _)| *a)
            .collect();
        let (Some(stated), Some(l), Some(c), Some(a)) = (
            checked_sum(&bases),
            checked_sum(&line_part),
            checked_sum(&charges),
            checked_sum(&allowances),
        ) else {
            continue;
        };
        let holds = if is_ubl(e) {
            let Some(expected) = l.checked_add(c).and_then(|v| v.checked_sub(a)) else {
                continue;
            };
            within(expected, stated, Decimal::ONE, false)
        } else {
            let rounded = (round2(l), round2(c), round2(a));
            let (Some(l), Some(c), Some(a)) = rounded else {
                continue;
            };
            l.checked_add(c).and_then(|v| v.checked_sub(a)) == Some(stated)
        };
        if holds {
            continue;
        }
        let Some(expected) = l.checked_add(c).and_then(|v| v.checked_sub(a)) else {
            continue;
        };
        let mut names: Vec<String> = Vec::new();
        for (_, _, cat) in &group {
            let fam = cat
                .and_then(family)
                .unwrap_or(if rate.is_zero() { "Z" } else { "S" });
            let name = format!("BR-{fam}-08");
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let mut text = format!("the lines at {rate} % add up to {l}");
        if !charges.is_empty() {
            text.push_str(&format!(" + charges {c}"));
        }
        if !allowances.is_empty() {
            text.push_str(&format!(" - allowances {a}"));
        }
        if !charges.is_empty() || !allowances.is_empty() {
            text.push_str(&format!(" = {expected}"));
        }
        f.warn(
            &names.join("/"),
            format!("{text}, but the taxable amount at that rate is {stated}"),
            Some(format!("/taxes/{first}/base")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Sums, Syntax};
    use super::*;
    use crate::result::{DocumentResult, LineItem};
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn sd(s: &str) -> Option<Decimal> {
        Some(d(s))
    }

    fn line(rate: &str) -> LineItem {
        LineItem {
            vat_rate: Some(rate.into()),
            ..LineItem::default()
        }
    }

    /// Lines 100.00 (19 %), 50.00 (19 %), 20.00 (7 %); allowance 10.00 at 19 %, charge 5.00 at
    /// 7 %; breakdown 19 %: 140.00 → 26.60, 7 %: 25.00 → 1.75; net 165.00, VAT 28.35, total
    /// 193.35, paid 50.00, rounding 0.05, due 143.40.
    fn consistent() -> EInvoice {
        let mut result = DocumentResult::empty();
        result.line_items = vec![line("19"), line("19.00"), line("7")];
        EInvoice {
            syntax: Syntax::Cii,
            guideline: Some("urn:cen.eu:en16931:2017".into()),
            result,
            sums: Sums {
                line_total: sd("170.00"),
                allowance_total: sd("10.00"),
                charge_total: sd("5.00"),
                tax_basis_total: sd("165.00"),
                tax_total: sd("28.35"),
                grand_total: sd("193.35"),
                prepaid: sd("50.00"),
                rounding: sd("0.05"),
                payable: sd("143.40"),
            },
            vat_breakdown: vec![
                VatBreakdown {
                    category: Some("S".into()),
                    rate: sd("19.00"),
                    base: sd("140.00"),
                    amount: sd("26.60"),
                },
                VatBreakdown {
                    category: Some("S".into()),
                    rate: sd("7"),
                    base: sd("25.00"),
                    amount: sd("1.75"),
                },
            ],
            line_nets: vec![sd("100.00"), sd("50.00"), sd("20.00")],
            allowance_charges: vec![
                AllowanceCharge {
                    charge: false,
                    amount: sd("10.00"),
                    vat_category: Some("S".into()),
                    vat_rate: sd("19"),
                    ..AllowanceCharge::default()
                },
                AllowanceCharge {
                    charge: true,
                    amount: sd("5.00"),
                    vat_category: Some("S".into()),
                    vat_rate: sd("7"),
                    ..AllowanceCharge::default()
                },
            ],
        }
    }

    /// The rule names of the warnings (the text before the first ':').
    fn fired(e: &EInvoice) -> Vec<String> {
        rules(e)
            .into_iter()
            .map(|i| {
                assert_eq!(i.code, "E_INVOICE_RULE");
                i.message.split(':').next().unwrap().to_string()
            })
            .collect()
    }

    #[test]
    fn consistent_invoice_passes_every_rule() {
        assert_eq!(fired(&consistent()), Vec::<String>::new());
    }

    #[test]
    fn minimum_profile_without_paid_amount_skips_br_co_16() {
        // A prepaid MINIMUM invoice: total 193.35, due 93.35, no BT-113 (the profile has none).
        let mut e = consistent();
        e.sums.prepaid = None;
        e.sums.rounding = None;
        e.sums.payable = sd("93.35");
        assert_eq!(fired(&e), vec!["BR-CO-16".to_string()]);
        for g in ["urn:factur-x.eu:1p0:minimum", "urn:zugferd.de:2p0:minimum"] {
            e.guideline = Some(g.into());
            assert_eq!(fired(&e), Vec::<String>::new(), "{g}");
        }
        // A MINIMUM invoice that does state a paid amount is checked.
        e.sums.prepaid = sd("10.00");
        assert_eq!(fired(&e), vec!["BR-CO-16".to_string()]);
    }

    #[test]
    fn each_rule_broken_alone_fires_only_that_rule() {
        type Break = fn(&mut EInvoice);
        let cases: [(&str, Break, Option<&str>); 11] = [
            // A line at a rate the breakdown lacks: only the sum of lines is off.
            (
                "BR-CO-10",
                |e| {
                    e.result.line_items.push(line("5"));
                    e.line_nets.push(sd("1.00"));
                },
                Some("/line_items"),
            ),
            (
                "BR-CO-11",
                |e| {
                    e.allowance_charges.push(AllowanceCharge {
                        amount: sd("1.00"),
                        vat_rate: sd("5"),
                        ..AllowanceCharge::default()
                    })
                },
                Some("/totals/discount"),
            ),
            (
                "BR-CO-12",
                |e| {
                    e.allowance_charges.push(AllowanceCharge {
                        charge: true,
                        amount: sd("1.00"),
                        vat_rate: sd("5"),
                        ..AllowanceCharge::default()
                    })
                },
                None,
            ),
            (
                "BR-CO-13",
                |e| {
                    e.sums.tax_basis_total = sd("166.00");
                    e.sums.grand_total = sd("194.35");
                    e.sums.payable = sd("144.40");
                },
                Some("/totals/net"),
            ),
            (
                "BR-CO-14",
                |e| {
                    e.sums.tax_total = sd("28.36");
                    e.sums.grand_total = sd("193.36");
                    e.sums.payable = sd("143.41");
                },
                Some("/totals/vat"),
            ),
            (
                "BR-CO-15",
                |e| {
                    e.sums.grand_total = sd("193.36");
                    e.sums.payable = sd("143.41");
                },
                Some("/totals/total"),
            ),
            (
                "BR-CO-16",
                |e| e.sums.payable = sd("143.35"),
                Some("/totals/payable"),
            ),
            // 25.00 x 12 % = 3.00, stated 1.75: off by more than 1.
            (
                "BR-CO-17",
                |e| {
                    e.result.line_items[2].vat_rate = Some("12".into());
                    e.allowance_charges[1].vat_rate = sd("12");
                    e.vat_breakdown[1].rate = sd("12");
                },
                Some("/taxes/1/amount"),
            ),
            // A line moved to the other rate unbalances both rates' bases: each is named.
            (
                "BR-S-08",
                |e| e.result.line_items[2].vat_rate = Some("19".into()),
                Some("/taxes/0/base"),
            ),
            (
                "BR-S-08",
                |e| e.allowance_charges[0].vat_rate = sd("7"),
                Some("/taxes/0/base"),
            ),
            (
                "BR-E-09",
                |e| {
                    e.vat_breakdown[0].amount = sd("26.59");
                    e.vat_breakdown.push(VatBreakdown {
                        category: Some("E".into()),
                        rate: sd("0"),
                        base: sd("0.00"),
                        amount: sd("0.01"),
                    });
                },
                Some("/taxes/2/amount"),
            ),
        ];
        for (rule, brk, field) in cases {
            let mut e = consistent();
            brk(&mut e);
            let found = rules(&e);
            assert!(!found.is_empty(), "{rule}: nothing fired");
            for issue in &found {
                assert!(
                    issue.message.starts_with(&format!("{rule}: ")),
                    "{rule}: {found:?}"
                );
            }
            assert_eq!(found[0].field.as_deref(), field, "{rule}");
            let expected = if rule == "BR-S-08" { 2 } else { 1 };
            assert_eq!(found.len(), expected, "{rule}: {found:?}");
        }
    }

    #[test]
    fn message_names_the_numbers() {
        let mut e = consistent();
        e.sums = Sums {
            tax_basis_total: sd("100.00"),
            tax_total: sd("19.00"),
            grand_total: sd("120.00"),
            ..Sums::default()
        };
        e.vat_breakdown.clear();
        e.allowance_charges.clear();
        e.line_nets.clear();
        let found = rules(&e);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].message,
            "BR-CO-15: total without VAT 100.00 + VAT 19.00 = 119.00, but the invoice total is \
             120.00"
        );
        let mut e = consistent();
        e.sums.payable = sd("143.35");
        assert_eq!(
            rules(&e)[0].message,
            "BR-CO-16: invoice total 193.35 - paid 50.00 + rounding 0.05 = 143.40, but the amount \
             due for payment is 143.35"
        );
        e.sums.prepaid = None;
        e.sums.rounding = None;
        assert_eq!(
            rules(&e)[0].message,
            "BR-CO-16: invoice total 193.35, but the amount due for payment is 143.35"
        );
        let mut e = consistent();
        e.sums.tax_basis_total = sd("166.00");
        assert_eq!(
            rules(&e)[0].message,
            "BR-CO-13: sum of line net amounts 170.00 - allowances 10.00 + charges 5.00 = \
             165.00, but the total without VAT is 166.00"
        );
    }

    #[test]
    fn a_category_base_off_names_the_category_rule() {
        let mut e = consistent();
        // A zero-rated line and its exempt breakdown entry, then an exempt base that is off.
        e.result.line_items.push(line("0"));
        e.line_nets.push(sd("30.00"));
        e.sums.line_total = sd("200.00");
        e.sums.tax_basis_total = sd("195.00");
        e.sums.grand_total = sd("223.35");
        e.sums.payable = sd("173.40");
        e.vat_breakdown.push(VatBreakdown {
            category: Some("E".into()),
            rate: None,
            base: sd("30.00"),
            amount: sd("0.00"),
        });
        assert_eq!(fired(&e), Vec::<String>::new());
        e.vat_breakdown[2].base = sd("31.00");
        let found = rules(&e);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].message,
            "BR-E-08: the lines at 0 % add up to 30.00, but the taxable amount at that rate is \
             31.00"
        );
        assert_eq!(found[0].field.as_deref(), Some("/taxes/2/base"));
    }

    #[test]
    fn allowances_without_a_stated_total_fire() {
        let mut e = consistent();
        e.sums.allowance_total = None;
        e.sums.tax_basis_total = sd("175.00");
        e.sums.grand_total = sd("203.35");
        e.sums.payable = sd("153.40");
        // BR-CO-13 now holds (no allowance total to subtract); BR-CO-11 says why.
        assert_eq!(fired(&e), vec!["BR-CO-11".to_string()]);
    }

    #[test]
    fn missing_inputs_skip() {
        // A MINIMUM profile: totals only, no lines, no breakdown.
        let mut e = consistent();
        e.result.line_items.clear();
        e.line_nets.clear();
        e.vat_breakdown.clear();
        e.allowance_charges.clear();
        e.sums.line_total = None;
        e.sums.allowance_total = None;
        e.sums.charge_total = None;
        e.sums.tax_total = None;
        e.sums.tax_basis_total = sd("1.00");
        assert!(rules(&e).is_empty());
        e.sums.payable = sd("1.00");
        assert_eq!(fired(&e), vec!["BR-CO-16".to_string()]);
        e.sums.payable = None;
        assert!(rules(&e).is_empty());

        // A line without a net amount skips BR-CO-10 and the bases; one without a rate skips
        // the bases only.
        let mut e = consistent();
        e.line_nets[0] = None;
        e.sums.line_total = sd("1.00");
        assert_eq!(fired(&e), vec!["BR-CO-13".to_string()]);
        let mut e = consistent();
        e.result.line_items[0].vat_rate = None;
        e.vat_breakdown[0].base = sd("1.00");
        assert_eq!(fired(&e), vec!["BR-CO-17".to_string()]);
        // Line items that are not one per net: no bases.
        let mut e = consistent();
        e.result.line_items.pop();
        e.vat_breakdown[1].base = sd("1.75");
        e.vat_breakdown[1].amount = sd("0.12");
        assert_eq!(fired(&e), vec!["BR-CO-14".to_string()]);
        // An allowance without an amount skips BR-CO-11 and the bases.
        let mut e = consistent();
        e.allowance_charges[0].amount = None;
        e.sums.allowance_total = sd("99.00");
        assert_eq!(fired(&e), vec!["BR-CO-13".to_string()]);
        // A breakdown entry without an amount skips BR-CO-14 and BR-CO-17 for it.
        let mut e = consistent();
        e.vat_breakdown[0].amount = None;
        e.sums.tax_total = sd("1.00");
        assert_eq!(fired(&e), vec!["BR-CO-15".to_string()]);
    }

    #[test]
    fn sums_are_exact_to_the_cent_after_rounding() {
        // Sub-cent line amounts: the sum rounded to the cent must be the stated one.
        let mut e = consistent();
        e.line_nets = vec![sd("100.0020"), sd("50.0020"), sd("19.9960")];
        assert_eq!(fired(&e), Vec::<String>::new());
        // 150.0050 rounds up to 150.01: the 19 % base is then a cent off (CII: exact).
        e.line_nets = vec![sd("100.0030"), sd("50.0020"), sd("19.9950")];
        assert_eq!(fired(&e), vec!["BR-S-08".to_string()]);
        // Whole cents: exact.
        let mut e = consistent();
        e.sums.line_total = sd("170.01");
        assert_eq!(fired(&e), vec!["BR-CO-10".to_string(), "BR-CO-13".into()]);
        // A half cent rounds up (XPath round), also below zero.
        assert_eq!(round2(d("0.125")), sd("0.13"));
        assert_eq!(round2(d("-0.125")), sd("-0.12"));
        assert!(rounds_to_zero(d("-0.5")) && !rounds_to_zero(d("0.5")));
    }

    #[test]
    fn vat_amounts_may_be_off_by_one_unit() {
        // BR-CO-17: 140.00 x 19 % = 26.60; 27.60 is within 1 (CII), 27.61 is not.
        let off = |e: &mut EInvoice, amount: &str, total_vat: &str, total: &str, due: &str| {
            e.vat_breakdown[0].amount = sd(amount);
            e.sums.tax_total = sd(total_vat);
            e.sums.grand_total = sd(total);
            e.sums.payable = sd(due);
        };
        let mut e = consistent();
        off(&mut e, "27.60", "29.35", "194.35", "144.40");
        assert_eq!(fired(&e), Vec::<String>::new());
        // UBL's artefact wants strictly less than 1.
        e.syntax = Syntax::UblInvoice;
        assert_eq!(fired(&e), vec!["BR-CO-17".to_string()]);
        let mut e = consistent();
        off(&mut e, "27.61", "29.36", "194.36", "144.41");
        assert_eq!(fired(&e), vec!["BR-CO-17".to_string()]);
        // A negative base and amount compare by magnitude.
        let mut e = consistent();
        e.vat_breakdown[1].base = sd("-25.00");
        e.vat_breakdown[1].amount = sd("-2.00");
        e.vat_breakdown[1].category = Some("S".into());
        let found = rules(&e);
        let co17: Vec<_> = found
            .iter()
            .filter(|i| i.message.starts_with("BR-CO-17"))
            .collect();
        assert!(co17.is_empty(), "{found:?}");
        // No rate (category O): the amount must round to 0.
        let mut e = consistent();
        e.vat_breakdown.push(VatBreakdown {
            category: Some("O".into()),
            rate: None,
            base: sd("0.00"),
            amount: sd("0.49"),
        });
        let found = rules(&e);
        assert!(
            !found.iter().any(|i| i.message.starts_with("BR-CO-17")),
            "{found:?}"
        );
        assert!(
            found.iter().any(|i| i.message.starts_with("BR-O-09")),
            "{found:?}"
        );
        e.vat_breakdown[2].amount = sd("0.50");
        let found = rules(&e);
        assert!(
            found
                .iter()
                .any(|i| i.message
                    == "BR-CO-17: category O: no rate, but the VAT amount stated is 0.50"),
            "{found:?}"
        );
    }

    #[test]
    fn ubl_category_bases_allow_less_than_one_unit() {
        let mut e = consistent();
        e.vat_breakdown[0].base = sd("140.50");
        assert_eq!(fired(&e), vec!["BR-S-08".to_string()]);
        e.syntax = Syntax::UblCreditNote;
        assert_eq!(fired(&e), Vec::<String>::new());
        e.vat_breakdown[0].base = sd("141.00");
        assert_eq!(fired(&e), vec!["BR-S-08".to_string()]);
    }

    #[test]
    fn credit_note_signs_and_negative_amounts_hold() {
        // A document that states negative amounts keeps them; the arithmetic holds as stated.
        let mut e = consistent();
        let neg = |v: &mut Option<Decimal>| *v = v.map(|x| -x);
        for v in [
            &mut e.sums.line_total,
            &mut e.sums.allowance_total,
            &mut e.sums.charge_total,
            &mut e.sums.tax_basis_total,
            &mut e.sums.tax_total,
            &mut e.sums.grand_total,
            &mut e.sums.prepaid,
            &mut e.sums.rounding,
            &mut e.sums.payable,
        ] {
            neg(v);
        }
        for b in &mut e.vat_breakdown {
            neg(&mut b.base);
            neg(&mut b.amount);
        }
        for n in &mut e.line_nets {
            neg(n);
        }
        for a in &mut e.allowance_charges {
            neg(&mut a.amount);
        }
        assert_eq!(fired(&e), Vec::<String>::new());
    }

    #[test]
    fn absurd_values_never_panic() {
        let huge = Some(Decimal::MAX);
        let tiny = Some(Decimal::MIN);
        let mut e = consistent();
        e.sums = Sums {
            line_total: huge,
            allowance_total: tiny,
            charge_total: huge,
            tax_basis_total: huge,
            tax_total: huge,
            grand_total: tiny,
            prepaid: tiny,
            rounding: huge,
            payable: huge,
        };
        e.line_nets = vec![huge, huge, tiny];
        for b in &mut e.vat_breakdown {
            b.base = huge;
            b.rate = huge;
            b.amount = tiny;
        }
        for a in &mut e.allowance_charges {
            a.amount = huge;
            a.vat_rate = huge;
        }
        e.result.line_items[0].vat_rate = Some("79228162514264337593543950335".into());
        e.result.line_items[1].vat_rate = Some("not a number".into());
        let _ = rules(&e);
        let mut e = consistent();
        e.line_nets = vec![huge, huge];
        e.result.line_items.truncate(2);
        e.sums.line_total = sd("0.0000000000000000000000000001");
        let found = rules(&e);
        assert!(found.iter().all(|i| i.code == "E_INVOICE_RULE"));
        // Empty everything.
        let empty = EInvoice {
            syntax: Syntax::UblInvoice,
            guideline: None,
            result: DocumentResult::empty(),
            sums: Sums::default(),
            vat_breakdown: vec![VatBreakdown::default()],
            line_nets: vec![None],
            allowance_charges: vec![AllowanceCharge::default()],
        };
        assert!(rules(&empty).is_empty());
    }
}
