//! Validation: arithmetic, checksums, plausibility, required fields, low confidence.
//!
//! [`validate`] recomputes `result.validation` from the rest of the result (it is idempotent and
//! discards earlier findings). Amounts are parsed with [`checks::decimal`]; a value that is not a
//! canonical decimal is skipped, never reported and never a panic. All arithmetic is checked, so
//! absurd values cannot overflow.
//!
//! # Errors (the numbers or ids disagree with themselves: the result must be checked)
//! - `TOTALS_MISMATCH`: `net + vat` is not `total` (tolerance 0.01, or a total rounded for cash
//!   as below), also after subtracting the discount and/or the prepaid amount where present; and,
//!   where a discount or prepaid amount is present, `payable` is not `total` minus them (nor that
//!   rounded for cash).
//! - `LINE_ITEMS_SUM_MISMATCH`: the sum of the line `amount`s is not `totals.net`, nor the sum
//!   plus the document-level `charges` and/or less the `discount` (EN 16931 BR-CO-13), nor,
//!   where a `vat` is printed, the `total` (lines carrying gross amounts beside a printed net);
//!   when `net` is absent and `vat` present it is compared with `total` (lines carrying gross
//!   amounts, or net lines plus `vat`); the sum of `amount_with_vat` is
//!   compared with `total`. Against a total, a cash rounding (0.05, 0.10, 0.50, 1) is no mismatch.
//!   Tolerance max(0.01, 0.005 per line) for rounding of each line; in whole units where the
//!   lines and totals print no decimals (max(1, 0.5 per line)). Skipped when any line with a
//!   money value lacks the amount being summed, and when the lines (`/line_items`) or any line
//!   (`/line_items/<i>`) were read with a confidence below [`VERIFIED_LINE`]: a line that did
//!   not check out against its own arithmetic, or a table whose amounts sum to nothing the
//!   document prints, may be misread or incomplete, and a sum over it would blame the document
//!   for the reading (reported as `LOW_CONFIDENCE` where the confidence is low).
//! - `LINE_ARITHMETIC_MISMATCH`: `quantity x unit_price` matches neither `amount` nor
//!   `amount_with_vat` (tolerance max(0.01, 0.5 %) for rounded prices), nor either of them less
//!   the line's `discount_rate` where it has one, or less a discount of a whole or half percent
//!   where it has none (`20 x 4.55 = 91.00`, less 10 % = `81.90`: a discount the reading did
//!   not attach to the row); `amount + vat_amount` is
//!   not `amount_with_vat` (0.01); `amount x vat_rate / 100` is not `vat_amount` (max(0.01, 0.5 %)).
//! - `TAX_ARITHMETIC_MISMATCH`: `base x rate / 100` is not `amount` in a `taxes[]` line (max(0.01,
//!   0.5 %)), or the tax amounts do not add up to `totals.vat` (0.01 per tax line).
//! - `IBAN_CHECKSUM_INVALID`: wrong length for the country or failed mod-97.
//! - `TAX_ID_INVALID`: a party's `tax_id`, `vat_id` or `registration_id` fails every scheme that
//!   its shape and country allow (see below).
//!
//! # Warnings (something is missing or unlikely, the numbers are not contradicted)
//! - `DATE_IMPLAUSIBLE`: a date (document date, due date, contract date, period) that is not a
//!   real date, before 1990-01-01 or more than 366 days after today; a due date before the
//!   document date; a period that ends before it starts.
//! - `MISSING_REQUIRED_FIELD`: document number (not required for a `RECEIPT`), date, seller name,
//!   total (not required for a `CONTRACT` or a `WAYBILL`: delivery notes often carry no prices).
//! - `LOW_CONFIDENCE`: one per field of `confidence.fields` below 0.5 (or not a number); the
//!   cells of a line item whose row (`/line_items/<i>`) is reported are not reported again.
//!
//! # Which tax id scheme
//! A party's country is taken, in this order, from its own `vat_id` prefix, the IBAN country of
//! its bank account, the currency (UAH, RUB, PLN, GBP, MYR, CHF, NOK; KZT and BYN mean "a country
//! we do not check"), then the document language (uk → UA, ru → RU, pl → PL, fr → FR, de → DE).
//! A value with a two-letter prefix (`DE…`, `PL…`) is an EU-style VAT id whatever the field. Then by
//! shape: UA: 8 digits EDRPOU, 10 digits IPN or (a Russian counterparty) INN, 12 digits VAT payer
//! number (format only); RU: 10/12 digits INN (or UA IPN), 9 characters KPP, 13/15 digits OGRN;
//! PL: 10 digits NIP, 9/14 digits REGON; FR: 9 digits SIREN, 14 digits SIRET; GB: 9/12 digits VAT;
//! NO: 9 digits org. number; CH: `CHE…` UID; MY: SST / TIN forms; DE: Steuernummer format and
//! 9-digit VAT, but only when the country comes from the party's own VAT id or IBAN (the
//! language alone also covers Austria and Switzerland). Anything else is not checked: a valid
//! foreign number must never be reported as invalid.

use crate::checks;
use crate::result::{DocumentResult, DocumentType, Issue, Party, PartyRole, ValidationStatus};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// Fields whose confidence below this is reported.
pub const LOW_CONFIDENCE_THRESHOLD: f64 = 0.5;

/// Line items read with at least this confidence (`/line_items/<i>`) checked out against their
/// own arithmetic or the document's printed sums; the line sum is checked only over such lines.
pub const VERIFIED_LINE: f64 = 0.9;

/// Fills `result.validation`, using today's date for the future-date check.
pub fn validate(result: &mut DocumentResult) {
    let today = chrono::Utc::now().date_naive();
    validate_at(result, today);
}

/// As [`validate`], with an explicit "today".
pub fn validate_at(result: &mut DocumentResult, today: NaiveDate) {
    run(result, today, true);
}

/// As [`validate`], for the values an e-invoice's XML states: the arithmetic checks
/// (`TOTALS_MISMATCH`, `LINE_ITEMS_SUM_MISMATCH`, `LINE_ARITHMETIC_MISMATCH`,
/// `TAX_ARITHMETIC_MISMATCH`) are left out. They tell a misread value from the numbers around it;
/// an XML's numbers are not read but stated, and their arithmetic is the EN 16931 rules' to check
/// (`einvoice::rules`, `E_INVOICE_RULE` warnings), which know what the Result has no field for
/// (document-level charges, line allowances and charges, the rounding amount, VAT categories):
/// the generic checks would call a correct invoice with a shipping charge wrong.
pub fn validate_stated(result: &mut DocumentResult) {
    run(result, chrono::Utc::now().date_naive(), false);
}

fn run(result: &mut DocumentResult, today: NaiveDate, arithmetic: bool) {
    let mut f = Findings::default();
    if arithmetic {
        check_totals(result, &mut f);
        check_line_items(result, &mut f);
        check_taxes(result, &mut f);
    }
    check_ibans(result, &mut f);
    check_tax_ids(result, &mut f);
    check_dates(result, today, &mut f);
    check_required(result, &mut f);
    check_confidence(result, &mut f);
    let v = &mut result.validation;
    v.status = status(&f.errors, &f.warnings);
    v.checks_passed = f.passed();
    v.errors = f.errors;
    v.warnings = f.warnings;
}

/// Adds warnings found by other stages (an e-invoice's EN 16931 rules, its cross-check with the
/// page, an attachment that could not be used) after [`validate`], and recomputes the status
/// from all findings.
pub fn add_warnings(result: &mut DocumentResult, warnings: impl IntoIterator<Item = Issue>) {
    let v = &mut result.validation;
    v.warnings.extend(warnings);
    v.status = status(&v.errors, &v.warnings);
}

/// The status that findings give: `ERRORS` with any error, else `WARNINGS` with any warning.
fn status(errors: &[Issue], warnings: &[Issue]) -> ValidationStatus {
    if !errors.is_empty() {
        ValidationStatus::Errors
    } else if !warnings.is_empty() {
        ValidationStatus::Warnings
    } else {
        ValidationStatus::Ok
    }
}

/// The checks that can hold, each with the error code it raises when it does not: a check that
/// ran and raised none is listed in `validation.checks_passed` (in this order).
pub const CHECKS: [(&str, &str); 6] = [
    ("TOTALS_ARITHMETIC", TOTALS_MISMATCH),
    ("LINE_ARITHMETIC", LINE_ARITHMETIC_MISMATCH),
    ("LINE_ITEMS_SUM", LINE_ITEMS_SUM_MISMATCH),
    ("TAX_ARITHMETIC", TAX_ARITHMETIC_MISMATCH),
    ("IBAN_CHECKSUM", IBAN_CHECKSUM_INVALID),
    ("TAX_ID_CHECKSUM", TAX_ID_INVALID),
];

/// The error codes of the checks (each written once, here).
const TOTALS_MISMATCH: &str = "TOTALS_MISMATCH";
const LINE_ARITHMETIC_MISMATCH: &str = "LINE_ARITHMETIC_MISMATCH";
const LINE_ITEMS_SUM_MISMATCH: &str = "LINE_ITEMS_SUM_MISMATCH";
const TAX_ARITHMETIC_MISMATCH: &str = "TAX_ARITHMETIC_MISMATCH";
const IBAN_CHECKSUM_INVALID: &str = "IBAN_CHECKSUM_INVALID";
const TAX_ID_INVALID: &str = "TAX_ID_INVALID";

#[derive(Default)]
struct Findings {
    errors: Vec<Issue>,
    warnings: Vec<Issue>,
    /// The checks of [`CHECKS`] that had values to compare.
    ran: Vec<&'static str>,
}

impl Findings {
    /// Records that `check` (a name of [`CHECKS`]) had values to compare.
    fn ran(&mut self, check: &'static str) {
        if !self.ran.contains(&check) {
            self.ran.push(check);
        }
    }

    /// The checks that ran and raised no error, in the order of [`CHECKS`].
    fn passed(&self) -> Vec<String> {
        CHECKS
            .iter()
            .filter(|(check, code)| {
                self.ran.contains(check) && !self.errors.iter().any(|e| e.code == *code)
            })
            .map(|(check, _)| (*check).to_string())
            .collect()
    }

    fn error(&mut self, code: &str, message: String, field: Option<String>) {
        self.errors.push(Issue {
            code: code.to_string(),
            message,
            field,
        });
    }
    fn warning(&mut self, code: &str, message: String, field: Option<String>) {
        self.warnings.push(Issue {
            code: code.to_string(),
            message,
            field,
        });
    }
}

fn dec(v: &Option<String>) -> Option<Decimal> {
    v.as_deref().and_then(checks::decimal)
}

fn cents(n: i64) -> Decimal {
    Decimal::new(n, 2)
}

/// |a - b| <= tol, false on overflow.
fn close(a: Decimal, b: Decimal, tol: Decimal) -> bool {
    a.checked_sub(b).is_some_and(|d| d.abs() <= tol)
}

/// max(0.01, 0.5 % of |reference|).
fn rounding_tol(reference: Decimal) -> Decimal {
    let rel = reference
        .abs()
        .checked_mul(Decimal::new(5, 3))
        .unwrap_or(Decimal::MAX);
    rel.max(cents(1))
}

fn sum(values: impl IntoIterator<Item = Decimal>) -> Option<Decimal> {
    values
        .into_iter()
        .try_fold(Decimal::ZERO, |a, b| a.checked_add(b))
}

/// Every combination `base - {0, a} - {0, b}` of the optional deductions.
fn with_deductions(base: Decimal, a: Option<Decimal>, b: Option<Decimal>) -> Vec<Decimal> {
    let mut out = vec![base];
    for d in [a, b].into_iter().flatten() {
        let d = d.abs();
        let more: Vec<Decimal> = out.iter().filter_map(|x| x.checked_sub(d)).collect();
        out.extend(more);
    }
    out
}

/// The nets a line sum may make: `sum + {0, charges} - {0, discount}` (the document-level
/// charges and allowances, EN 16931 BR-CO-13; either may be a row's own instead).
fn adjusted(sum: Decimal, discount: Option<Decimal>, charges: Option<Decimal>) -> Vec<Decimal> {
    let mut out = with_deductions(sum, discount, None);
    if let Some(c) = charges {
        let more: Vec<Decimal> = out.iter().filter_map(|x| x.checked_add(c.abs())).collect();
        out.extend(more);
    }
    out
}

/// [`adjusted`] for a sum of amounts with VAT: the document's allowance and charges (net
/// amounts) with the VAT of one of the rows' rates, or none.
fn adjusted_gross(
    sum: Decimal,
    discount: Option<Decimal>,
    charges: Option<Decimal>,
    rates: &[Decimal],
) -> Vec<Decimal> {
    std::iter::once(Decimal::ZERO)
        .chain(rates.iter().copied())
        .flat_map(|rate| {
            let factor = Decimal::ONE + rate / Decimal::ONE_HUNDRED;
            let gross =
                |x: Option<Decimal>| x.and_then(|x| x.checked_mul(factor)).map(|x| x.round_dp(2));
            adjusted(sum, gross(discount), gross(charges))
        })
        .collect()
}

fn fmt_opt(label: &str, v: Option<Decimal>) -> String {
    v.map(|d| format!(", {label} {d}")).unwrap_or_default()
}

fn check_totals(r: &DocumentResult, f: &mut Findings) {
    let t = &r.totals;
    let (net, vat, total) = (dec(&t.net), dec(&t.vat), dec(&t.total));
    let (discount, prepaid, payable) = (dec(&t.discount), dec(&t.prepaid), dec(&t.payable));
    if let (Some(net), Some(vat), Some(total)) = (net, vat, total)
        && let Some(gross) = net.checked_add(vat)
    {
        f.ran("TOTALS_ARITHMETIC");
        let ok = with_deductions(gross, discount, prepaid)
            .into_iter()
            .any(|g| close_or_cash_rounded(g, total, cents(1)));
        if !ok {
            f.error(
                TOTALS_MISMATCH,
                format!(
                    "net {net} + VAT {vat} = {gross}, but the total is {total}{}{}",
                    fmt_opt("discount", discount),
                    fmt_opt("prepaid", prepaid)
                ),
                Some("/totals/total".into()),
            );
        }
    }
    if let (Some(total), Some(payable)) = (total, payable)
        && (discount.is_some() || prepaid.is_some())
    {
        f.ran("TOTALS_ARITHMETIC");
        let ok = with_deductions(total, discount, prepaid)
            .into_iter()
            .any(|g| close_or_cash_rounded(g, payable, cents(1)));
        if !ok {
            f.error(
                TOTALS_MISMATCH,
                format!(
                    "payable {payable} does not follow from total {total}{}{}",
                    fmt_opt("discount", discount),
                    fmt_opt("prepaid", prepaid)
                ),
                Some("/totals/payable".into()),
            );
        }
    }
}

fn check_line_items(r: &DocumentResult, f: &mut Findings) {
    for (i, li) in r.line_items.iter().enumerate() {
        let (q, p) = (dec(&li.quantity), dec(&li.unit_price));
        let (amount, gross) = (dec(&li.amount), dec(&li.amount_with_vat));
        let (rate, vat_amount) = (dec(&li.vat_rate), dec(&li.vat_amount));
        if let (Some(q), Some(p)) = (q, p)
            && let Some(product) = q.checked_mul(p)
        {
            let targets: Vec<(Decimal, &str)> = [(amount, "amount"), (gross, "amount_with_vat")]
                .into_iter()
                .filter_map(|(v, n)| v.map(|v| (v, n)))
                .collect();
            if !targets.is_empty() {
                f.ran("LINE_ARITHMETIC");
            }
            // The row's own discount where it states one; else any whole or half percent.
            let stated = dec(&li.discount_rate).and_then(|d| {
                product.checked_mul(Decimal::ONE - d.checked_div(Decimal::ONE_HUNDRED)?)
            });
            let ok = targets.is_empty()
                || targets.iter().any(|&(v, _)| {
                    close(product, v, rounding_tol(v))
                        || match stated {
                            Some(less) => close(less, v, rounding_tol(v)),
                            None => discounted(product, v),
                        }
                });
            if !ok && let Some(&(v, name)) = targets.first() {
                f.error(
                    LINE_ARITHMETIC_MISMATCH,
                    format!(
                        "line {}: quantity {q} x unit price {p} = {}, but the {} is {v}",
                        i + 1,
                        product.round_dp(4).normalize(),
                        name.replace('_', " ")
                    ),
                    Some(format!("/line_items/{i}/{name}")),
                );
            }
        }
        if let (Some(a), Some(va), Some(g)) = (amount, vat_amount, gross)
            && let Some(s) = a.checked_add(va)
            && {
                f.ran("LINE_ARITHMETIC");
                !close(s, g, cents(1))
            }
        {
            f.error(
                LINE_ARITHMETIC_MISMATCH,
                format!(
                    "line {}: amount {a} + VAT {va} = {s}, but the amount with VAT is {g}",
                    i + 1
                ),
                Some(format!("/line_items/{i}/amount_with_vat")),
            );
        }
        if let (Some(a), Some(rate), Some(va)) = (amount, rate, vat_amount)
            && let Some(expected) = a
                .checked_mul(rate)
                .and_then(|x| x.checked_div(Decimal::ONE_HUNDRED))
            && {
                f.ran("LINE_ARITHMETIC");
                !close(expected, va, rounding_tol(va))
            }
        {
            f.error(
                LINE_ARITHMETIC_MISMATCH,
                format!(
                    "line {}: {rate}% of {a} = {}, but the VAT amount is {va}",
                    i + 1,
                    expected.round_dp(2)
                ),
                Some(format!("/line_items/{i}/vat_amount")),
            );
        }
    }
    check_line_sums(r, f);
}

/// Whether `amount` is `product` less a discount of a whole or half percent (1 % to 99.5 %),
/// to the cent.
fn discounted(product: Decimal, amount: Decimal) -> bool {
    if product.is_zero()
        || amount.abs() >= product.abs()
        || amount.is_sign_negative() != product.is_sign_negative()
    {
        return false;
    }
    (2..200).any(|half_percents| {
        let factor = Decimal::ONE - Decimal::new(half_percents, 0) / Decimal::new(200, 0);
        product
            .checked_mul(factor)
            .is_some_and(|x| close(x, amount, cents(1)))
    })
}

/// Whether `total` is `sum` within `tol`, or `sum` rounded for cash ([`cash_rounded`]).
fn close_or_cash_rounded(sum: Decimal, total: Decimal, tol: Decimal) -> bool {
    close(sum, total, tol) || cash_rounded(sum, total)
}

/// Whether `total` is `sum` rounded for cash to 0.05, 0.10, 0.50 or a whole unit (Swedish,
/// Swiss, Hungarian, Czech receipts).
pub(crate) fn cash_rounded(sum: Decimal, total: Decimal) -> bool {
    [
        Decimal::new(5, 2),
        Decimal::new(1, 1),
        Decimal::new(5, 1),
        Decimal::ONE,
    ]
    .into_iter()
    .any(|step| {
        sum.checked_div(step)
            .map(|q| q.round() * step)
            .is_some_and(|r| r == total && r != sum)
    })
}

fn check_line_sums(r: &DocumentResult, f: &mut Findings) {
    let unverified = std::iter::once("/line_items".to_string())
        .chain((0..r.line_items.len()).map(|i| format!("/line_items/{i}")))
        .any(|p| {
            r.confidence
                .fields
                .get(&p)
                .is_some_and(|&c| c < VERIFIED_LINE)
        });
    if unverified {
        return;
    }
    let priced = r.priced_lines();
    if priced.is_empty() {
        return;
    }
    let n = priced.len();
    let tol = r.line_sum_tolerance();
    let t = &r.totals;
    let (net, vat, total) = (dec(&t.net), dec(&t.vat), dec(&t.total));
    let (discount, charges) = (dec(&t.discount), dec(&t.charges));
    let nets: Option<Vec<Decimal>> = priced.iter().map(|li| dec(&li.amount)).collect();
    let grosses: Option<Vec<Decimal>> = priced.iter().map(|li| dec(&li.amount_with_vat)).collect();
    let net_sum = nets.and_then(sum);
    let gross_sum = grosses.and_then(sum);

    if let Some(s) = net_sum {
        if let Some(net) = net {
            f.ran("LINE_ITEMS_SUM");
            // Lines that carry gross amounts beside a printed net (a till slip's prices with
            // VAT, its net in the VAT summary) make the total instead.
            let sums = adjusted(s, discount, charges);
            let gross_lines = vat.is_some_and(|v| !v.is_zero())
                && total.is_some_and(|t| sums.iter().any(|&x| close_or_cash_rounded(x, t, tol)));
            let ok = gross_lines || sums.iter().any(|&x| close(x, net, tol));
            if !ok {
                f.error(
                    LINE_ITEMS_SUM_MISMATCH,
                    format!(
                        "the {n} line amounts add up to {s}, but the net total is {net}{}{}",
                        fmt_opt("discount", discount),
                        fmt_opt("charges", charges)
                    ),
                    Some("/totals/net".into()),
                );
            }
        } else if let (Some(total), Some(vat)) = (total, vat)
            && gross_sum.is_none()
        {
            // No net total: the lines carry gross amounts, or net amounts that VAT tops up.
            f.ran("LINE_ITEMS_SUM");
            let mut bases = vec![s];
            if let Some(v) = s.checked_add(vat) {
                bases.push(v);
            }
            let ok = bases
                .into_iter()
                .flat_map(|b| adjusted(b, discount, charges))
                .any(|x| close_or_cash_rounded(x, total, tol));
            if !ok {
                f.error(
                    LINE_ITEMS_SUM_MISMATCH,
                    format!(
                        "the {n} line amounts add up to {s}, but the total is {total}{}{}{}",
                        fmt_opt("VAT", Some(vat)),
                        fmt_opt("discount", discount),
                        fmt_opt("charges", charges)
                    ),
                    Some("/totals/total".into()),
                );
            }
        }
    }
    if let (Some(s), Some(total)) = (gross_sum, total) {
        f.ran("LINE_ITEMS_SUM");
        let mut rates: Vec<Decimal> = priced.iter().filter_map(|li| dec(&li.vat_rate)).collect();
        rates.sort();
        rates.dedup();
        let ok = adjusted_gross(s, discount, charges, &rates)
            .into_iter()
            .any(|x| close_or_cash_rounded(x, total, tol));
        if !ok {
            f.error(
                LINE_ITEMS_SUM_MISMATCH,
                format!(
                    "the {n} line amounts with VAT add up to {s}, but the total is {total}{}{}",
                    fmt_opt("discount", discount),
                    fmt_opt("charges", charges)
                ),
                Some("/totals/total".into()),
            );
        }
    }
}

fn check_taxes(r: &DocumentResult, f: &mut Findings) {
    let mut amounts = Vec::new();
    for (i, t) in r.taxes.iter().enumerate() {
        let (rate, base, amount) = (dec(&t.rate), dec(&t.base), dec(&t.amount));
        if let Some(a) = amount {
            amounts.push(a);
        }
        if let (Some(rate), Some(base), Some(amount)) = (rate, base, amount)
            && let Some(expected) = base
                .checked_mul(rate)
                .and_then(|x| x.checked_div(Decimal::ONE_HUNDRED))
            && {
                f.ran("TAX_ARITHMETIC");
                !close(expected, amount, rounding_tol(amount))
            }
        {
            f.error(
                TAX_ARITHMETIC_MISMATCH,
                format!(
                    "tax line {}: {rate}% of {base} = {}, but the tax amount is {amount}",
                    i + 1,
                    expected.round_dp(2)
                ),
                Some(format!("/taxes/{i}/amount")),
            );
        }
    }
    if !amounts.is_empty()
        && amounts.len() == r.taxes.len()
        && let Some(vat) = dec(&r.totals.vat)
        && let Some(s) = sum(amounts.iter().copied())
    {
        let tol = cents(amounts.len() as i64);
        f.ran("TAX_ARITHMETIC");
        if !close(s, vat, tol) {
            f.error(
                TAX_ARITHMETIC_MISMATCH,
                format!(
                    "the {} tax lines add up to {s}, but the VAT total is {vat}",
                    amounts.len()
                ),
                Some("/totals/vat".into()),
            );
        }
    }
}

fn check_ibans(r: &DocumentResult, f: &mut Findings) {
    for (i, acc) in r.bank_accounts.iter().enumerate() {
        let Some(iban) = acc.iban.as_deref() else {
            continue;
        };
        f.ran("IBAN_CHECKSUM");
        if checks::iban_is_valid(iban) {
            continue;
        }
        let compact: String = iban.chars().filter(|c| !c.is_whitespace()).collect();
        let country: String = compact.chars().take(2).collect::<String>().to_uppercase();
        let reason = match checks::iban_length(&country) {
            Some(n) if n != compact.chars().count() => format!(
                "{country} IBANs have {n} characters, this one has {}",
                compact.chars().count()
            ),
            _ => "the check digits do not match (mod 97)".to_string(),
        };
        f.error(
            IBAN_CHECKSUM_INVALID,
            format!("IBAN {iban} is invalid: {reason}"),
            Some(format!("/bank_accounts/{i}/iban")),
        );
    }
}

/// Countries whose ids we check, or `Unchecked` for a known country we have no rules for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Country {
    Ua,
    Ru,
    Pl,
    Fr,
    De,
    Gb,
    No,
    Ch,
    My,
    Eu,
    Unchecked,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strength {
    /// From the party's own VAT id or IBAN.
    Strong,
    /// From the currency or the language.
    Weak,
}

fn country_of_code(cc: &str) -> Country {
    match cc {
        "UA" => Country::Ua,
        "RU" => Country::Ru,
        "PL" => Country::Pl,
        "FR" => Country::Fr,
        "DE" => Country::De,
        "GB" | "XI" => Country::Gb,
        "NO" => Country::No,
        "CH" | "LI" => Country::Ch,
        "MY" => Country::My,
        "AT" | "BE" | "BG" | "CY" | "CZ" | "DK" | "EE" | "EL" | "GR" | "ES" | "FI" | "HR"
        | "HU" | "IE" | "IT" | "LT" | "LU" | "LV" | "MT" | "NL" | "PT" | "RO" | "SE" | "SI"
        | "SK" => Country::Eu,
        _ => Country::Unchecked,
    }
}

fn party_country(
    r: &DocumentResult,
    party: &Party,
    role: Option<PartyRole>,
) -> Option<(Country, Strength)> {
    if let Some(v) = party.vat_id.as_deref() {
        let cc: String = v
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(2)
            .collect::<String>()
            .to_uppercase();
        if cc.len() == 2 && cc.chars().all(|c| c.is_ascii_uppercase()) {
            return Some((country_of_code(&cc), Strength::Strong));
        }
    }
    if let Some(role) = role
        && let Some(iban) = r
            .bank_accounts
            .iter()
            .filter(|a| a.party == Some(role) || (role == PartyRole::Seller && a.party.is_none()))
            .find_map(|a| a.iban.as_deref().filter(|i| checks::iban_is_valid(i)))
    {
        let cc: String = iban.chars().take(2).collect::<String>().to_uppercase();
        return Some((country_of_code(&cc), Strength::Strong));
    }
    let by_currency = match r.document.currency.as_deref() {
        Some("UAH") => Some(Country::Ua),
        Some("RUB" | "RUR") => Some(Country::Ru),
        Some("PLN") => Some(Country::Pl),
        Some("GBP") => Some(Country::Gb),
        Some("NOK") => Some(Country::No),
        Some("CHF") => Some(Country::Ch),
        Some("MYR") => Some(Country::My),
        Some("EUR" | "USD") | None => None,
        Some(_) => Some(Country::Unchecked),
    };
    if let Some(c) = by_currency {
        return Some((c, Strength::Weak));
    }
    let by_language = match r.document.language.as_deref() {
        Some("uk") => Country::Ua,
        Some("ru") => Country::Ru,
        Some("pl") => Country::Pl,
        Some("fr") => Country::Fr,
        Some("de") => Country::De,
        _ => return None,
    };
    Some((by_language, Strength::Weak))
}

/// Which field of a party is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IdField {
    Tax,
    Vat,
    Registration,
}

/// Schemes to try for a value; the value is valid when any of them accepts it.
fn schemes_for(value: &str, field: IdField, ctx: Option<(Country, Strength)>) -> Vec<&'static str> {
    let norm: String = value
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_uppercase)
        .collect();
    let letters = norm.chars().take_while(char::is_ascii_uppercase).count();
    let digits_only = !norm.is_empty() && norm.chars().all(|c| c.is_ascii_digit());
    let n = norm.len();
    let country = ctx.map(|c| c.0);
    if norm.starts_with("CHE") && n >= 12 {
        return vec!["CH_UID"];
    }
    if country == Some(Country::My) {
        return match field {
            _ if letters == 1 && n == 15 => vec!["MY_SST"],
            _ if (1..=2).contains(&letters) => vec!["MY_TIN"],
            _ => vec![],
        };
    }
    if letters == 2 {
        let cc = norm.get(..2).unwrap_or_default();
        // Ukrainian/Russian ids never carry a letter prefix; only EU-style VAT prefixes are checked.
        return match country_of_code(cc) {
            Country::Unchecked | Country::Ua | Country::Ru | Country::My => vec![],
            _ => vec!["EU_VAT"],
        };
    }
    let Some((country, strength)) = ctx else {
        return vec![];
    };
    match (country, field) {
        (Country::Ua, IdField::Registration) if digits_only && n == 8 => vec!["UA_EDRPOU"],
        (Country::Ua, IdField::Tax | IdField::Vat) if digits_only => match n {
            8 => vec!["UA_EDRPOU"],
            10 => vec!["UA_IPN", "RU_INN"],
            _ => vec![],
        },
        (Country::Ru, IdField::Tax | IdField::Vat) if digits_only => match n {
            10 => vec!["RU_INN", "UA_IPN"],
            12 => vec!["RU_INN"],
            8 => vec!["UA_EDRPOU"],
            _ => vec![],
        },
        (Country::Ru, IdField::Registration) => match n {
            13 | 15 if digits_only => vec!["RU_OGRN"],
            8..=10 => vec!["RU_KPP"],
            _ => vec![],
        },
        (Country::Pl, _) if digits_only => match (n, field) {
            (10, IdField::Tax | IdField::Vat) => vec!["PL_NIP"],
            (9 | 14, IdField::Registration | IdField::Tax) => vec!["PL_REGON"],
            _ => vec![],
        },
        (Country::Fr, IdField::Tax | IdField::Registration) if digits_only => match n {
            9 => vec!["FR_SIREN"],
            14 => vec!["FR_SIRET"],
            _ => vec![],
        },
        (Country::Gb, IdField::Tax | IdField::Vat) if digits_only && (n == 9 || n == 12) => {
            vec!["GB_VAT"]
        }
        (Country::No, IdField::Tax | IdField::Vat | IdField::Registration)
            if digits_only && n == 9 =>
        {
            vec!["NO_ORGNR"]
        }
        (Country::De, IdField::Vat) if strength == Strength::Strong && digits_only && n == 9 => {
            vec!["DE_VAT"]
        }
        (Country::De, IdField::Tax) if strength == Strength::Strong => {
            if digits_only && n == 9 && !value.contains('/') {
                vec!["DE_VAT"]
            } else {
                vec!["DE_STNR"]
            }
        }
        _ => vec![],
    }
}

fn check_tax_ids(r: &DocumentResult, f: &mut Findings) {
    let mut parties: Vec<(&Party, Option<PartyRole>, String)> = vec![
        (
            &r.parties.seller,
            Some(PartyRole::Seller),
            "/parties/seller".into(),
        ),
        (
            &r.parties.buyer,
            Some(PartyRole::Buyer),
            "/parties/buyer".into(),
        ),
    ];
    for (i, o) in r.parties.other.iter().enumerate() {
        parties.push((&o.party, None, format!("/parties/other/{i}")));
    }
    for (party, role, base) in parties {
        // Other parties (role None) use their VAT id prefix or the document context only.
        let ctx = party_country(r, party, role);
        for (value, field, key) in [
            (&party.tax_id, IdField::Tax, "tax_id"),
            (&party.vat_id, IdField::Vat, "vat_id"),
            (
                &party.registration_id,
                IdField::Registration,
                "registration_id",
            ),
        ] {
            let Some(value) = value.as_deref() else {
                continue;
            };
            let schemes = schemes_for(value, field, ctx);
            let verdicts: Vec<bool> = schemes
                .iter()
                .filter_map(|s| checks::tax_id_check(s, value))
                .collect();
            if !verdicts.is_empty() {
                f.ran("TAX_ID_CHECKSUM");
            }
            if !verdicts.is_empty() && verdicts.iter().all(|ok| !ok) {
                f.error(
                    TAX_ID_INVALID,
                    format!(
                        "{} {key} {value} is not a valid {}",
                        base.rsplit('/').next().unwrap_or("party"),
                        schemes.join(" or ")
                    ),
                    Some(format!("{base}/{key}")),
                );
            }
        }
    }
}

fn check_dates(r: &DocumentResult, today: NaiveDate, f: &mut Findings) {
    let earliest = NaiveDate::from_ymd_opt(1990, 1, 1);
    let latest = today.checked_add_days(chrono::Days::new(366));
    let fields = [
        (&r.document.date, "/document/date", "document date"),
        (&r.document.due_date, "/document/due_date", "due date"),
        (
            &r.extra_fields.contract.date,
            "/extra_fields/contract/date",
            "contract date",
        ),
        (
            &r.extra_fields.period.from,
            "/extra_fields/period/from",
            "period start",
        ),
        (
            &r.extra_fields.period.to,
            "/extra_fields/period/to",
            "period end",
        ),
    ];
    let mut parsed = Vec::new();
    for (value, pointer, label) in fields {
        let Some(s) = value.as_deref() else {
            parsed.push(None);
            continue;
        };
        let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") else {
            f.warning(
                "DATE_IMPLAUSIBLE",
                format!("{label} {s} is not a valid YYYY-MM-DD date"),
                Some(pointer.into()),
            );
            parsed.push(None);
            continue;
        };
        if earliest.is_some_and(|e| d < e) {
            f.warning(
                "DATE_IMPLAUSIBLE",
                format!("{label} {s} is before 1990"),
                Some(pointer.into()),
            );
        } else if latest.is_some_and(|l| d > l) {
            f.warning(
                "DATE_IMPLAUSIBLE",
                format!("{label} {s} is more than a year in the future"),
                Some(pointer.into()),
            );
        }
        parsed.push(Some(d));
    }
    if let (Some(Some(date)), Some(Some(due))) = (parsed.first(), parsed.get(1))
        && due < date
    {
        f.warning(
            "DATE_IMPLAUSIBLE",
            format!("due date {due} is before the document date {date}"),
            Some("/document/due_date".into()),
        );
    }
    if let (Some(Some(from)), Some(Some(to))) = (parsed.get(3), parsed.get(4))
        && to < from
    {
        f.warning(
            "DATE_IMPLAUSIBLE",
            format!("period ends {to}, before it starts {from}"),
            Some("/extra_fields/period/to".into()),
        );
    }
}

fn blank(v: &Option<String>) -> bool {
    v.as_deref().is_none_or(|s| s.trim().is_empty())
}

fn check_required(r: &DocumentResult, f: &mut Findings) {
    let code = r.document_type.code;
    let mut missing = |cond: bool, pointer: &str, label: &str| {
        if cond {
            f.warning(
                "MISSING_REQUIRED_FIELD",
                format!("the {label} was not found"),
                Some(pointer.into()),
            );
        }
    };
    missing(
        code != DocumentType::Receipt && blank(&r.document.number),
        "/document/number",
        "document number",
    );
    missing(blank(&r.document.date), "/document/date", "document date");
    missing(
        blank(&r.parties.seller.name),
        "/parties/seller/name",
        "seller name",
    );
    missing(
        !matches!(code, DocumentType::Contract | DocumentType::Waybill) && blank(&r.totals.total),
        "/totals/total",
        "total amount",
    );
}

fn check_confidence(r: &DocumentResult, f: &mut Findings) {
    let low = |c: f64| c.is_nan() || c < LOW_CONFIDENCE_THRESHOLD;
    for (pointer, &c) in &r.confidence.fields {
        // `/line_items/3/amount` under a reported `/line_items/3`.
        let row_reported = pointer
            .strip_prefix("/line_items/")
            .and_then(|rest| rest.split_once('/'))
            .and_then(|(i, _)| r.confidence.fields.get(&format!("/line_items/{i}")))
            .is_some_and(|&rc| low(rc));
        if low(c) && !row_reported {
            f.warning(
                "LOW_CONFIDENCE",
                format!("{pointer} was read with low confidence ({c:.2})"),
                Some(pointer.clone()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{BankAccount, LineItem, OtherParty, TaxLine};

    fn s(v: &str) -> Option<String> {
        Some(v.to_string())
    }

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2024, 6, 1).unwrap()
    }

    /// A consistent invoice: no findings.
    fn good() -> DocumentResult {
        let mut r = DocumentResult::empty();
        r.document_type.code = DocumentType::Invoice;
        r.document.number = s("INV-1");
        r.document.date = s("2024-05-02");
        r.document.due_date = s("2024-05-16");
        r.document.currency = s("EUR");
        r.document.language = s("de");
        r.parties.seller.name = s("Muster GmbH");
        r.parties.seller.vat_id = s("DE136695976");
        r.parties.buyer.name = s("Kunde AG");
        r.line_items = vec![
            LineItem {
                quantity: s("2"),
                unit_price: s("10.00"),
                amount: s("20.00"),
                vat_rate: s("19"),
                vat_amount: s("3.80"),
                amount_with_vat: s("23.80"),
                ..LineItem::default()
            },
            LineItem {
                quantity: s("3"),
                unit_price: s("0.333"),
                amount: s("1.00"),
                ..LineItem::default()
            },
        ];
        r.totals.net = s("21.00");
        r.totals.vat = s("3.99");
        r.totals.total = s("24.99");
        r.taxes = vec![TaxLine {
            rate: s("19"),
            base: s("21.00"),
            amount: s("3.99"),
        }];
        r.bank_accounts = vec![BankAccount {
            iban: s("DE89 3704 0044 0532 0130 00"),
            ..BankAccount::default()
        }];
        r
    }

    fn run(r: &mut DocumentResult) -> Vec<(String, Option<String>)> {
        validate_at(r, today());
        r.validation
            .errors
            .iter()
            .chain(&r.validation.warnings)
            .map(|i| (i.code.clone(), i.field.clone()))
            .collect()
    }

    fn has(found: &[(String, Option<String>)], code: &str, field: &str) -> bool {
        found
            .iter()
            .any(|(c, f)| c == code && f.as_deref() == Some(field))
    }

    #[test]
    fn consistent_invoice_is_ok() {
        let mut r = good();
        let found = run(&mut r);
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(r.validation.status, ValidationStatus::Ok);
        assert_eq!(r.final_status(), "PROCESSED");
    }

    #[test]
    fn a_line_s_stated_discount_is_the_one_its_arithmetic_must_use() {
        let mut r = good();
        r.line_items[0].amount = s("18.00");
        r.line_items[0].vat_amount = s("3.42");
        r.line_items[0].amount_with_vat = s("21.42");
        r.line_items[0].discount_rate = s("10");
        r.totals.net = s("19.00");
        r.totals.vat = s("3.61");
        r.totals.total = s("22.61");
        r.taxes[0].base = s("19.00");
        r.taxes[0].amount = s("3.61");
        let found = run(&mut r);
        assert!(found.is_empty(), "{found:?}");
        // 2 x 10.00 less 15 % is no 10 % discount; without a stated rate it would pass.
        r.line_items[0].amount = s("17.00");
        r.line_items[0].vat_amount = s("3.23");
        r.line_items[0].amount_with_vat = s("20.23");
        assert!(has(
            &run(&mut r),
            "LINE_ARITHMETIC_MISMATCH",
            "/line_items/0/amount"
        ));
        r.line_items[0].discount_rate = None;
        assert!(!has(
            &run(&mut r),
            "LINE_ARITHMETIC_MISMATCH",
            "/line_items/0/amount"
        ));
    }

    #[test]
    fn checks_that_ran_and_held_are_listed() {
        let mut r = good();
        run(&mut r);
        let all: Vec<String> = CHECKS.iter().map(|(c, _)| c.to_string()).collect();
        assert_eq!(r.validation.checks_passed, all);
        // A broken total: TOTALS_ARITHMETIC leaves the list, the others stay.
        r.totals.total = s("25.99");
        run(&mut r);
        assert!(
            !r.validation
                .checks_passed
                .iter()
                .any(|c| c == "TOTALS_ARITHMETIC")
        );
        assert!(
            r.validation
                .checks_passed
                .iter()
                .any(|c| c == "IBAN_CHECKSUM")
        );
        // Nothing to compare: nothing listed; an e-invoice's stated values skip the arithmetic.
        let mut empty = DocumentResult::empty();
        run(&mut empty);
        assert!(empty.validation.checks_passed.is_empty());
        let mut stated = good();
        validate_stated(&mut stated);
        assert_eq!(
            stated.validation.checks_passed,
            ["IBAN_CHECKSUM", "TAX_ID_CHECKSUM"]
        );
    }

    #[test]
    fn added_warnings_change_the_status_and_survive_nothing_else() {
        let mut r = good();
        run(&mut r);
        let w = Issue {
            code: "E_INVOICE_RULE".into(),
            message: "BR-CO-10".into(),
            field: None,
        };
        add_warnings(&mut r, [w.clone()]);
        assert_eq!(r.validation.status, ValidationStatus::Warnings);
        assert_eq!(r.validation.warnings, std::slice::from_ref(&w));
        // An error still wins over warnings.
        r.totals.total = s("25.99");
        run(&mut r);
        add_warnings(&mut r, [w]);
        assert_eq!(r.validation.status, ValidationStatus::Errors);
        assert!(
            r.validation
                .warnings
                .iter()
                .any(|i| i.code == "E_INVOICE_RULE")
        );
        // Nothing added: the status stays what validation said.
        let mut ok = good();
        run(&mut ok);
        add_warnings(&mut ok, []);
        assert_eq!(ok.validation.status, ValidationStatus::Ok);
    }

    #[test]
    fn stated_values_leave_the_arithmetic_to_the_e_invoice_rules() {
        let mut r = good();
        r.totals.total = s("25.99");
        r.line_items[0].amount = s("99.00");
        r.taxes[0].amount = s("7.00");
        validate_stated(&mut r);
        let codes: Vec<&str> = r
            .validation
            .errors
            .iter()
            .chain(&r.validation.warnings)
            .map(|i| i.code.as_str())
            .collect();
        assert!(codes.is_empty(), "{codes:?}");
        // Everything else is still checked.
        r.bank_accounts[0].iban = s("DE89 3704 0044 0532 0130 01");
        r.document.number = None;
        validate_stated(&mut r);
        assert_eq!(r.validation.errors[0].code, "IBAN_CHECKSUM_INVALID");
        assert_eq!(r.validation.warnings[0].code, "MISSING_REQUIRED_FIELD");
    }

    #[test]
    fn totals_mismatch_is_an_error_with_numbers() {
        let mut r = good();
        r.totals.total = s("25.99");
        run(&mut r);
        assert_eq!(r.validation.status, ValidationStatus::Errors);
        let e = r
            .validation
            .errors
            .iter()
            .find(|i| i.code == "TOTALS_MISMATCH")
            .expect("totals issue");
        assert!(
            e.message.contains("21.00") && e.message.contains("25.99"),
            "{}",
            e.message
        );
        assert_eq!(e.field.as_deref(), Some("/totals/total"));
    }

    #[test]
    fn a_total_rounded_for_cash_is_no_totals_mismatch() {
        let mut r = good();
        r.line_items.clear();
        r.taxes.clear();
        // `SUB TOTAL 7.00`, `GST 6% 0.42`, `ROUNDING ADJ -0.02`, `NET TOTAL 7.40`.
        r.totals.net = s("7.00");
        r.totals.vat = s("0.42");
        r.totals.total = s("7.40");
        assert!(!has(&run(&mut r), "TOTALS_MISMATCH", "/totals/total"));
        // More than a rounding off is a mismatch.
        r.totals.total = s("7.45");
        assert!(has(&run(&mut r), "TOTALS_MISMATCH", "/totals/total"));
        // The payable after a discount, rounded for cash.
        r.totals.net = s("110.00");
        r.totals.vat = s("20.02");
        r.totals.discount = s("10.00");
        r.totals.total = s("120.02");
        r.totals.payable = s("120.00");
        assert!(run(&mut r).is_empty(), "{:?}", r.validation);
        r.totals.payable = s("119.90");
        assert!(has(&run(&mut r), "TOTALS_MISMATCH", "/totals/payable"));
    }

    #[test]
    fn totals_allow_discount_and_prepaid() {
        let mut r = good();
        r.line_items.clear();
        r.taxes.clear();
        r.totals.net = s("100.00");
        r.totals.vat = s("20.00");
        r.totals.discount = s("10.00");
        r.totals.total = s("110.00");
        assert!(run(&mut r).is_empty());
        r.totals.prepaid = s("50.00");
        r.totals.payable = s("60.00");
        assert!(run(&mut r).is_empty(), "{:?}", r.validation);
        r.totals.payable = s("70.01");
        assert!(has(&run(&mut r), "TOTALS_MISMATCH", "/totals/payable"));
        // Within tolerance.
        r.totals.payable = s("60.00");
        r.totals.total = s("109.99");
        assert!(run(&mut r).is_empty());
    }

    #[test]
    fn line_items_sum_with_document_level_charges_and_allowances() {
        // Lines 21.00; net 21.50 after a charge of 2.00 and an allowance of 1.50.
        let mut r = good();
        r.taxes.clear();
        r.totals.net = s("21.50");
        r.totals.total = s("25.49");
        assert!(has(&run(&mut r), "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
        r.totals.charges = s("2.00");
        r.totals.discount = s("1.50");
        assert!(run(&mut r).is_empty(), "{:?}", r.validation);
        assert!(
            r.validation
                .checks_passed
                .iter()
                .any(|c| c == "LINE_ITEMS_SUM")
        );
        // A charge that does not close the gap is no excuse; the message names it.
        r.totals.charges = s("3.00");
        let found = run(&mut r);
        assert!(has(&found, "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
        assert!(
            r.validation.errors[0].message.contains("charges 3.00"),
            "{:?}",
            r.validation
        );
    }

    /// Line items with only their net amounts.
    fn amount_rows(amounts: &[&str]) -> Vec<LineItem> {
        amounts
            .iter()
            .map(|a| LineItem {
                amount: s(a),
                ..LineItem::default()
            })
            .collect()
    }

    #[test]
    fn gross_lines_beside_a_printed_net_make_the_total() {
        // A till slip: two items priced with 6 % GST (101.76), its net (96.00) from the GST
        // summary. The lines make the total: no mismatch.
        let mut r = good();
        r.taxes.clear();
        r.totals = Default::default();
        r.totals.net = s("96.00");
        r.totals.vat = s("5.76");
        r.totals.total = s("101.76");
        r.line_items = amount_rows(&["63.60", "38.16"]);
        assert!(!has(&run(&mut r), "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
        // Lines that make neither the net nor the total disagree.
        r.line_items[1].amount = s("38.00");
        assert!(has(&run(&mut r), "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
        // Without a VAT, the net is the only sum the lines may make.
        r.line_items[1].amount = s("38.16");
        r.totals.vat = None;
        assert!(has(&run(&mut r), "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
    }

    #[test]
    fn gross_rows_and_a_charge_make_the_total_with_the_charges_vat() {
        // Rows with VAT 119.00 + 59.50 (net 100 + 50 at 19 %), shipping 10.00 net: the total
        // 190.40 includes the shipping's 1.90 VAT.
        let mut r = good();
        r.taxes.clear();
        r.totals = Default::default();
        r.totals.net = s("160.00");
        r.totals.vat = s("30.40");
        r.totals.total = s("190.40");
        r.totals.charges = s("10.00");
        r.line_items = vec![
            LineItem {
                amount: s("100.00"),
                amount_with_vat: s("119.00"),
                vat_rate: s("19"),
                ..LineItem::default()
            },
            LineItem {
                amount: s("50.00"),
                amount_with_vat: s("59.50"),
                vat_rate: s("19"),
                ..LineItem::default()
            },
        ];
        assert!(run(&mut r).is_empty(), "{:?}", r.validation);
        // At a rate none of the rows has, the charge does not close the gap.
        r.totals.total = s("189.90");
        r.totals.vat = s("29.90");
        assert!(has(
            &run(&mut r),
            "LINE_ITEMS_SUM_MISMATCH",
            "/totals/total"
        ));
    }

    #[test]
    fn whole_unit_lines_may_each_round_by_half_a_unit() {
        // Two rows in whole forints rounded one by one: 4805 + 4804 against a net of 9610.
        let mut r = good();
        r.taxes.clear();
        r.totals = Default::default();
        r.totals.net = s("9610");
        r.line_items = amount_rows(&["4805", "4804"]);
        assert!(!has(&run(&mut r), "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
        assert!(
            r.validation
                .checks_passed
                .iter()
                .any(|c| c == "LINE_ITEMS_SUM")
        );
        // Two units off is a disagreement.
        r.totals.net = s("9611");
        assert!(has(&run(&mut r), "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
        // In cents, two cents off is a disagreement too.
        r.totals.net = s("96.11");
        r.line_items[0].amount = s("48.05");
        r.line_items[1].amount = s("48.04");
        assert!(has(&run(&mut r), "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
    }

    #[test]
    fn line_items_sum_against_net_and_total() {
        let mut r = good();
        r.totals.net = s("22.00");
        r.totals.total = s("25.99");
        r.taxes.clear();
        let found = run(&mut r);
        assert!(
            has(&found, "LINE_ITEMS_SUM_MISMATCH", "/totals/net"),
            "{found:?}"
        );
        // No net total, gross lines: compared with the total.
        let mut r = good();
        r.taxes.clear();
        r.totals = Default::default();
        r.totals.total = s("30.00");
        r.line_items = vec![
            LineItem {
                amount_with_vat: s("10.00"),
                ..LineItem::default()
            },
            LineItem {
                amount_with_vat: s("19.00"),
                ..LineItem::default()
            },
        ];
        assert!(has(
            &run(&mut r),
            "LINE_ITEMS_SUM_MISMATCH",
            "/totals/total"
        ));
        r.totals.total = s("29.00");
        assert!(run(&mut r).is_empty());
        // Net lines, no net total, VAT tops up to the total.
        let mut r = good();
        r.taxes.clear();
        r.totals.net = None;
        for li in &mut r.line_items {
            li.vat_amount = None;
            li.amount_with_vat = None;
        }
        assert!(run(&mut r).is_empty(), "{:?}", r.validation);
    }

    #[test]
    fn line_checks_blame_the_document_only_where_it_disagrees_with_itself() {
        let item = |q: &str, p: &str, a: &str| LineItem {
            quantity: s(q),
            unit_price: s(p),
            amount: s(a),
            ..LineItem::default()
        };
        // A discount the row printed: 20 x 4.55 less 10 % = 81.90.
        let mut r = DocumentResult::empty();
        r.line_items = vec![item("20", "4.55", "81.90")];
        let arithmetic = |r: &mut DocumentResult| {
            has(&run(r), "LINE_ARITHMETIC_MISMATCH", "/line_items/0/amount")
        };
        assert!(!arithmetic(&mut r));
        r.line_items[0].amount = s("81.13");
        assert!(arithmetic(&mut r));
        r.line_items[0].amount = s("95.00");
        assert!(arithmetic(&mut r));
        // Lines that sum to nothing the document prints may be incomplete: no sum check.
        let mut r = DocumentResult::empty();
        r.line_items = vec![item("1", "10.00", "10.00"), item("1", "5.00", "5.00")];
        r.totals.net = s("20.00");
        let sum = |r: &mut DocumentResult| has(&run(r), "LINE_ITEMS_SUM_MISMATCH", "/totals/net");
        assert!(sum(&mut r));
        r.confidence.fields.insert("/line_items".into(), 0.6);
        assert!(!sum(&mut r));
        r.confidence.fields.insert("/line_items".into(), 0.99);
        r.confidence.fields.insert("/line_items/1".into(), 0.45);
        let found = run(&mut r);
        assert!(!has(&found, "LINE_ITEMS_SUM_MISMATCH", "/totals/net"));
        // The unsure row is reported once, not once per cell.
        r.confidence
            .fields
            .insert("/line_items/1/amount".into(), 0.45);
        let low: Vec<_> = run(&mut r)
            .into_iter()
            .filter(|(c, _)| c == "LOW_CONFIDENCE")
            .collect();
        assert_eq!(low, vec![("LOW_CONFIDENCE".into(), s("/line_items/1"))]);
        // A receipt's total rounded for cash is no mismatch; one unit off is.
        let mut r = DocumentResult::empty();
        r.line_items = vec![LineItem {
            amount_with_vat: s("273.66"),
            ..LineItem::default()
        }];
        r.totals.total = s("274.00");
        let gross =
            |r: &mut DocumentResult| has(&run(r), "LINE_ITEMS_SUM_MISMATCH", "/totals/total");
        assert!(!gross(&mut r));
        r.totals.total = s("275.00");
        assert!(gross(&mut r));
        // Net lines without a net total or a VAT: nothing to compare with.
        let mut r = DocumentResult::empty();
        r.line_items = vec![item("1", "4448.00", "4448.00")];
        r.totals.total = s("5382.08");
        assert!(!has(
            &run(&mut r),
            "LINE_ITEMS_SUM_MISMATCH",
            "/totals/total"
        ));
    }

    #[test]
    fn line_arithmetic() {
        let mut r = good();
        r.line_items[0].quantity = s("3");
        let found = run(&mut r);
        assert!(
            has(&found, "LINE_ARITHMETIC_MISMATCH", "/line_items/0/amount"),
            "{found:?}"
        );
        let msg = &r.validation.errors[0].message;
        assert!(msg.contains("30") && msg.contains("20.00"), "{msg}");
        // Gross unit price matching amount_with_vat is fine.
        let mut r = good();
        r.line_items[0].unit_price = s("11.90");
        assert!(!has(
            &run(&mut r),
            "LINE_ARITHMETIC_MISMATCH",
            "/line_items/0/amount"
        ));
        // Net + VAT != gross.
        let mut r = good();
        r.line_items[0].vat_amount = s("3.90");
        let found = run(&mut r);
        assert!(has(
            &found,
            "LINE_ARITHMETIC_MISMATCH",
            "/line_items/0/amount_with_vat"
        ));
        assert!(has(
            &found,
            "LINE_ARITHMETIC_MISMATCH",
            "/line_items/0/vat_amount"
        ));
        // 0.5 % tolerance for rounded prices: 7 x 14.2857 = 99.9999 vs 100.00.
        let mut r = good();
        r.line_items = vec![LineItem {
            quantity: s("7"),
            unit_price: s("14.29"),
            amount: s("100.00"),
            ..LineItem::default()
        }];
        r.totals.net = s("100.00");
        r.totals.vat = s("19.00");
        r.totals.total = s("119.00");
        r.taxes.clear();
        assert!(run(&mut r).is_empty(), "{:?}", r.validation);
    }

    #[test]
    fn tax_arithmetic() {
        let mut r = good();
        r.taxes[0].amount = s("4.20");
        let found = run(&mut r);
        assert!(
            has(&found, "TAX_ARITHMETIC_MISMATCH", "/taxes/0/amount"),
            "{found:?}"
        );
        assert!(
            has(&found, "TAX_ARITHMETIC_MISMATCH", "/totals/vat"),
            "{found:?}"
        );
    }

    #[test]
    fn iban_checksum() {
        let mut r = good();
        r.bank_accounts[0].iban = s("DE89370400440532013001");
        let found = run(&mut r);
        assert!(has(
            &found,
            "IBAN_CHECKSUM_INVALID",
            "/bank_accounts/0/iban"
        ));
        r.bank_accounts[0].iban = s("DE8937040044053201300");
        run(&mut r);
        assert!(r.validation.errors[0].message.contains("22 characters"));
    }

    #[test]
    fn tax_ids_by_context() {
        let mut r = good();
        r.parties.seller.vat_id = s("DE136695977");
        assert!(has(
            &run(&mut r),
            "TAX_ID_INVALID",
            "/parties/seller/vat_id"
        ));
        // Ukrainian document: EDRPOU and IPN.
        let mut r = good();
        r.document.currency = s("UAH");
        r.document.language = s("uk");
        r.bank_accounts.clear();
        r.parties.seller.vat_id = None;
        r.parties.seller.tax_id = s("14360570");
        r.parties.buyer.tax_id = s("3184710691");
        assert!(run(&mut r).is_empty(), "{:?}", r.validation);
        r.parties.seller.tax_id = s("14360571");
        assert!(has(
            &run(&mut r),
            "TAX_ID_INVALID",
            "/parties/seller/tax_id"
        ));
        // Russian: INN / KPP.
        let mut r = good();
        r.document.currency = s("RUB");
        r.document.language = s("ru");
        r.bank_accounts.clear();
        r.parties.seller.vat_id = None;
        r.parties.seller.tax_id = s("7707083893");
        r.parties.seller.registration_id = s("773601001");
        assert!(run(&mut r).is_empty(), "{:?}", r.validation);
        r.parties.seller.registration_id = s("77360100");
        assert!(has(
            &run(&mut r),
            "TAX_ID_INVALID",
            "/parties/seller/registration_id"
        ));
        // Polish NIP by language, other party included.
        let mut r = good();
        r.document.currency = s("PLN");
        r.bank_accounts.clear();
        r.parties.seller.vat_id = None;
        r.parties.seller.tax_id = s("526-025-02-74");
        r.parties.other.push(OtherParty {
            party: Party {
                tax_id: s("5260250275"),
                ..Party::default()
            },
            role: "payer".into(),
        });
        let found = run(&mut r);
        assert!(
            has(&found, "TAX_ID_INVALID", "/parties/other/0/tax_id"),
            "{found:?}"
        );
        assert!(!has(&found, "TAX_ID_INVALID", "/parties/seller/tax_id"));
        // Unknown context: an arbitrary number is not checked.
        let mut r = good();
        r.document.currency = s("USD");
        r.document.language = s("en");
        r.bank_accounts.clear();
        r.parties.seller.vat_id = None;
        r.parties.seller.tax_id = s("123456789");
        assert!(run(&mut r).is_empty());
        // German Steuernummer only with strong evidence (the DE IBAN here).
        let mut r = good();
        r.parties.seller.vat_id = None;
        r.parties.seller.tax_id = s("12 345/6789");
        assert!(has(
            &run(&mut r),
            "TAX_ID_INVALID",
            "/parties/seller/tax_id"
        ));
        r.bank_accounts.clear();
        assert!(run(&mut r).is_empty());
    }

    #[test]
    fn dates() {
        let mut r = good();
        r.document.date = s("1985-01-01");
        assert!(has(&run(&mut r), "DATE_IMPLAUSIBLE", "/document/date"));
        r.document.date = s("2026-01-01");
        let found = run(&mut r);
        assert!(has(&found, "DATE_IMPLAUSIBLE", "/document/date"));
        assert!(has(&found, "DATE_IMPLAUSIBLE", "/document/due_date"));
        assert_eq!(r.validation.status, ValidationStatus::Warnings);
        assert_eq!(r.final_status(), "PROCESSED_WITH_WARNINGS");
        r.document.date = s("2024-02-30");
        assert!(has(&run(&mut r), "DATE_IMPLAUSIBLE", "/document/date"));
        let mut r = good();
        r.extra_fields.period.from = s("2024-04-30");
        r.extra_fields.period.to = s("2024-04-01");
        assert!(has(
            &run(&mut r),
            "DATE_IMPLAUSIBLE",
            "/extra_fields/period/to"
        ));
    }

    #[test]
    fn required_fields_depend_on_type() {
        let mut r = DocumentResult::empty();
        r.document_type.code = DocumentType::Invoice;
        let found = run(&mut r);
        for p in [
            "/document/number",
            "/document/date",
            "/parties/seller/name",
            "/totals/total",
        ] {
            assert!(has(&found, "MISSING_REQUIRED_FIELD", p), "{p}");
        }
        assert_eq!(r.validation.status, ValidationStatus::Warnings);
        r.document_type.code = DocumentType::Receipt;
        let found = run(&mut r);
        assert!(!has(&found, "MISSING_REQUIRED_FIELD", "/document/number"));
        assert_eq!(found.len(), 3);
        r.document_type.code = DocumentType::Waybill;
        assert!(!has(
            &run(&mut r),
            "MISSING_REQUIRED_FIELD",
            "/totals/total"
        ));
    }

    #[test]
    fn low_confidence_per_field() {
        let mut r = good();
        r.confidence.fields.insert("/document/number".into(), 0.3);
        r.confidence.fields.insert("/totals/total".into(), 0.9);
        r.confidence
            .fields
            .insert("/document/date".into(), f64::NAN);
        let found = run(&mut r);
        assert!(has(&found, "LOW_CONFIDENCE", "/document/number"));
        assert!(has(&found, "LOW_CONFIDENCE", "/document/date"));
        assert!(!has(&found, "LOW_CONFIDENCE", "/totals/total"));
        let w = r
            .validation
            .warnings
            .iter()
            .find(|i| i.field.as_deref() == Some("/document/number"))
            .expect("number warning");
        assert!(w.message.contains("0.30"), "{}", w.message);
    }

    #[test]
    fn garbage_never_panics_and_is_skipped() {
        let mut r = good();
        let huge = "79228162514264337593543950335".to_string();
        r.totals.net = Some(huge.clone());
        r.totals.vat = Some(huge.clone());
        r.totals.total = s("1,00");
        r.totals.discount = Some(huge.clone());
        r.line_items.push(LineItem {
            quantity: Some(huge.clone()),
            unit_price: Some(huge.clone()),
            amount: s("abc"),
            vat_rate: Some(huge.clone()),
            vat_amount: s(""),
            amount_with_vat: Some(huge.clone()),
            ..LineItem::default()
        });
        r.taxes.push(TaxLine {
            rate: Some(huge.clone()),
            base: Some(huge.clone()),
            amount: s("-"),
        });
        r.bank_accounts.push(BankAccount {
            iban: s("€€"),
            ..BankAccount::default()
        });
        r.parties.seller.tax_id = s("ΑΒΓ/€");
        r.parties.buyer.vat_id = s("É");
        r.document.date = s("🙂");
        validate_at(&mut r, today());
        assert_eq!(r.validation.status, ValidationStatus::Errors);
        // Idempotent.
        let before = r.validation.clone();
        validate_at(&mut r, today());
        assert_eq!(before, r.validation);
    }
}
