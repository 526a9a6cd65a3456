//! The cross-check of an e-invoice against its page: where the page prints the values that matter
//! to an accountant, and whether it prints different ones.
//!
//! The values checked are the document number, issue date, net, VAT, total, payable, each IBAN
//! and the seller's VAT id (warnings and evidence), and the due date, the seller's tax number and
//! the buyer's VAT id (evidence only: pages often print these differently or not at all).
//!
//! **Evidence.** An XML value found on the page gets evidence pointing at the place it is printed
//! (page, box in the page's unit, the text as printed), with source `E_INVOICE`, keyed by the same
//! JSON pointer as the field. It is found through the candidates: dates by their `YYYY-MM-DD`
//! value (an ambiguous numeric date also by its day/month-swapped reading), amounts as decimals,
//! IBANs and ids by their letters and digits; the number (and, failing their candidates, IBANs and
//! ids) also by a search of the page's lines for the same letters and digits, case-insensitive,
//! not inside a longer word or across a column gap. Where the value is printed several times, the
//! place the visual reading took it from wins, else the first place (the last for amounts: totals
//! are printed below the lines that repeat them).
//!
//! **Mismatch** (`E_INVOICE_MISMATCH`, a warning naming the field and both values) only when all
//! of these hold, so that a page that agrees with its XML is never reported:
//! - the XML's value is printed nowhere on the page (a visual reading that picked another value
//!   while the XML's is printed too chose among the page's values: no disagreement);
//! - the visual reading has a value for the field (a page that shows no value for a field, e.g.
//!   one only the XML carries, is never a mismatch) and it differs from the XML's;
//! - the page prints that value (found as the XML's values are): a value the visual reading
//!   derived (a VAT total computed from the totals of a page that prints only the VAT of each
//!   rate) is not what the page shows;
//! - that value is no value the XML states elsewhere (the VAT of one rate read as the VAT total,
//!   the buyer's VAT id read as the seller's, the order number read as the invoice number: the
//!   visual reading mislabelled a value the XML has, the page does not contradict it);
//! - on an OCR page, the two differ by more than one character (one misread glyph is the OCR's
//!   error, not the page's).
//!
//! **Signs.** Amounts are compared by absolute value: a credit note's XML states positive amounts
//! (the type code says they are owed back) while its page often prints them negative, and a page
//! printing `-119.00` for the XML's `119.00` shows the same amount.

use super::EInvoice;
use crate::candidates::labels::{self, LabelKey};
use crate::candidates::{CandidateKind, Candidates};
use crate::checks;
use crate::result::{DocumentResult, Evidence, Issue, Party, Source};
use crate::types::{CleanDocument, Line, Span};
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// The warning code of a page that shows a different value than its e-invoice.
pub const MISMATCH: &str = "E_INVOICE_MISMATCH";

/// What the cross-check found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CrossCheck {
    /// Evidence (source `E_INVOICE`) for the XML values found on the page, by JSON pointer.
    pub evidence: BTreeMap<String, Evidence>,
    /// `E_INVOICE_MISMATCH` warnings.
    pub warnings: Vec<Issue>,
}

/// How a value is compared and searched for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Date,
    Amount,
    Iban,
    Id,
}

/// Compares the e-invoice `e` with the page: `doc` and `cands` are the page's cleaned text and
/// candidates, `visual` the visual reading of the same page (the Result without the XML).
pub fn crosscheck(
    e: &EInvoice,
    doc: &CleanDocument,
    cands: &Candidates,
    visual: &DocumentResult,
) -> CrossCheck {
    let mut c = Checker::new(e, doc, cands, visual);
    if doc.lines.is_empty() {
        return c.out;
    }
    let x = &e.result;
    let v = visual;
    let d = &x.document;
    c.check(
        "/document/number",
        "number",
        Kind::Number,
        &d.number,
        &v.document.number,
        true,
    );
    c.check(
        "/document/date",
        "date",
        Kind::Date,
        &d.date,
        &v.document.date,
        true,
    );
    let due = &v.document.due_date;
    c.check(
        "/document/due_date",
        "due date",
        Kind::Date,
        &d.due_date,
        due,
        false,
    );
    let (t, vt) = (&x.totals, &v.totals);
    c.check("/totals/net", "net", Kind::Amount, &t.net, &vt.net, true);
    c.check("/totals/vat", "VAT", Kind::Amount, &t.vat, &vt.vat, true);
    c.check(
        "/totals/total",
        "total",
        Kind::Amount,
        &t.total,
        &vt.total,
        true,
    );
    c.check(
        "/totals/payable",
        "payable",
        Kind::Amount,
        &t.payable,
        &vt.payable,
        true,
    );
    // An IBAN the visual reading refused (a wrong length or check digit) is still what the page
    // shows after its IBAN label.
    let printed = printed_iban(doc);
    for (i, acc) in x.bank_accounts.iter().enumerate() {
        let seen = v
            .bank_accounts
            .get(i)
            .and_then(|a| a.iban.clone())
            .or_else(|| printed.clone());
        let ptr = format!("/bank_accounts/{i}/iban");
        c.check(&ptr, "IBAN", Kind::Iban, &acc.iban, &seen, true);
    }
    let (s, vs) = (&x.parties.seller, &v.parties.seller);
    let ptr = "/parties/seller/vat_id";
    c.check(ptr, "seller VAT id", Kind::Id, &s.vat_id, &vs.vat_id, true);
    let ptr = "/parties/seller/tax_id";
    c.check(ptr, "seller tax id", Kind::Id, &s.tax_id, &vs.tax_id, false);
    let (b, vb) = (&x.parties.buyer, &v.parties.buyer);
    let ptr = "/parties/buyer/vat_id";
    c.check(ptr, "buyer VAT id", Kind::Id, &b.vat_id, &vb.vat_id, false);
    c.out
}

struct Checker<'a> {
    doc: &'a CleanDocument,
    cands: &'a Candidates,
    visual: &'a DocumentResult,
    /// Every amount the XML states (absolute values).
    amounts: Vec<Decimal>,
    /// Every date the XML states.
    dates: Vec<String>,
    /// Every document reference the XML states (normalised).
    numbers: Vec<String>,
    /// Every account the XML states (normalised).
    accounts: Vec<String>,
    /// Every party id the XML states (normalised).
    ids: Vec<String>,
    out: CrossCheck,
}

impl<'a> Checker<'a> {
    fn new(
        e: &EInvoice,
        doc: &'a CleanDocument,
        cands: &'a Candidates,
        visual: &'a DocumentResult,
    ) -> Self {
        let x = &e.result;
        let s = &e.sums;
        let mut amounts: Vec<Decimal> = [
            s.line_total,
            s.allowance_total,
            s.charge_total,
            s.tax_basis_total,
            s.tax_total,
            s.grand_total,
            s.prepaid,
            s.rounding,
            s.payable,
        ]
        .into_iter()
        .flatten()
        .chain(
            e.vat_breakdown
                .iter()
                .flat_map(|v| [v.base, v.amount])
                .flatten(),
        )
        .chain(
            e.allowance_charges
                .iter()
                .flat_map(|a| [a.amount, a.base])
                .flatten(),
        )
        .chain(e.line_nets.iter().flatten().copied())
        .collect();
        let t = &x.totals;
        let strings = [
            &t.net,
            &t.vat,
            &t.total,
            &t.payable,
            &t.discount,
            &t.charges,
            &t.prepaid,
        ]
        .into_iter()
        .chain(x.taxes.iter().flat_map(|l| [&l.base, &l.amount]))
        .chain(
            x.line_items
                .iter()
                .flat_map(|l| [&l.amount, &l.amount_with_vat, &l.vat_amount, &l.unit_price]),
        );
        amounts.extend(strings.flatten().filter_map(|v| checks::decimal(v)));
        for a in &mut amounts {
            *a = a.abs();
        }
        let d = &x.document;
        let ex = &x.extra_fields;
        let dates = [
            &d.date,
            &d.due_date,
            &ex.contract.date,
            &ex.period.from,
            &ex.period.to,
        ]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
        let numbers = [&d.number, &ex.order_number, &ex.contract.number]
            .into_iter()
            .flatten()
            .map(|n| norm(n))
            .collect();
        let accounts = x
            .bank_accounts
            .iter()
            .flat_map(|a| [&a.iban, &a.account_number])
            .flatten()
            .map(|n| norm(n))
            .collect();
        let p = &x.parties;
        let parties = [&p.seller, &p.buyer]
            .into_iter()
            .chain(p.other.iter().map(|o| &o.party));
        let ids = parties
            .flat_map(|p: &Party| [&p.vat_id, &p.tax_id, &p.registration_id])
            .flatten()
            .map(|n| norm(n))
            .collect();
        Checker {
            doc,
            cands,
            visual,
            amounts,
            dates,
            numbers,
            accounts,
            ids,
            out: CrossCheck::default(),
        }
    }

    /// Looks for the XML's value of one field on the page: evidence where it is printed, a
    /// mismatch warning (when `warn`) where the page shows another value instead.
    fn check(
        &mut self,
        pointer: &str,
        name: &str,
        kind: Kind,
        xml: &Option<String>,
        seen: &Option<String>,
        warn: bool,
    ) {
        let Some(xml) = xml.as_deref().filter(|v| !v.trim().is_empty()) else {
            return;
        };
        let at = self.visual.evidence.get(pointer);
        let spans = self.spans(kind, xml);
        let same_place =
            |s: &Span| at.is_some_and(|a| a.page == s.page && a.bbox == s.bbox.to_array());
        let chosen = spans
            .iter()
            .find(|s| same_place(s))
            .or(if kind == Kind::Amount {
                spans.last()
            } else {
                spans.first()
            });
        if let Some(span) = chosen {
            if let Some(mut ev) = span.evidence(self.doc) {
                ev.source = Source::EInvoice;
                self.out.evidence.insert(pointer.to_string(), ev);
            }
            return;
        }
        let Some(seen) = seen.as_deref().filter(|v| !v.trim().is_empty()) else {
            return;
        };
        let ocr = at.is_some_and(|a| a.source == Source::Ocr);
        if !warn
            || self.stated(kind, seen)
            || ocr && one_glyph_apart(seen, xml)
            || self.spans(kind, seen).is_empty()
        {
            return;
        }
        self.out.warnings.push(Issue {
            code: MISMATCH.to_string(),
            message: format!("the page shows {name} {seen}, the e-invoice says {xml}"),
            field: Some(pointer.to_string()),
        });
    }

    /// Whether a value the visual reading has is one the XML states (for any field of its kind).
    fn stated(&self, kind: Kind, v: &str) -> bool {
        match kind {
            Kind::Amount => checks::decimal(v).is_some_and(|d| self.amounts.contains(&d.abs())),
            Kind::Date => {
                let swapped = swap_day_month(v);
                self.dates
                    .iter()
                    .any(|d| d == v || swapped.as_deref() == Some(d.as_str()))
            }
            Kind::Number => self.numbers.contains(&norm(v)),
            Kind::Iban => self.accounts.contains(&norm(v)),
            Kind::Id => self.ids.contains(&norm(v)),
        }
    }

    /// The places the page prints `xml`, in reading order.
    fn spans(&self, kind: Kind, xml: &str) -> Vec<Span> {
        let cands = self.cands;
        match kind {
            Kind::Amount => {
                let Some(want) = checks::decimal(xml).map(|d| d.abs()) else {
                    return Vec::new();
                };
                cands
                    .of(CandidateKind::Amount)
                    .filter(|c| c.scheme.as_deref() != Some("percent"))
                    .filter(|c| checks::decimal(&c.value).is_some_and(|d| d.abs() == want))
                    .map(|c| c.span.clone())
                    .collect()
            }
            Kind::Date => cands
                .of(CandidateKind::Date)
                .filter(|c| {
                    c.value == xml
                        || c.ambiguous && swap_day_month(&c.value).as_deref() == Some(xml)
                })
                .map(|c| c.span.clone())
                .collect(),
            Kind::Number | Kind::Iban | Kind::Id => {
                let want = norm(xml);
                if want.is_empty() {
                    return Vec::new();
                }
                let ck = match kind {
                    Kind::Number => CandidateKind::DocNumber,
                    Kind::Iban => CandidateKind::Iban,
                    _ => CandidateKind::TaxId,
                };
                let found: Vec<Span> = cands
                    .of(ck)
                    .filter(|c| norm(&c.value) == want)
                    .map(|c| c.span.clone())
                    .collect();
                if !found.is_empty() {
                    return found;
                }
                self.search(kind, &want)
            }
        }
    }

    /// The places a line prints the letters and digits `want` (see [`find_normalised`]); a
    /// number outside a line with a number label must be at least 3 characters and not part of
    /// a date or a money amount, and lines with a number label come first.
    fn search(&self, kind: Kind, want: &str) -> Vec<Span> {
        let want: Vec<char> = want.chars().collect();
        let mut labelled = Vec::new();
        let mut other = Vec::new();
        for line in &self.doc.lines {
            let hits = find_normalised(line, &want);
            if hits.is_empty() {
                continue;
            }
            if kind != Kind::Number {
                other.extend(hits.into_iter().map(|(s, e)| Span::from_line(line, s, e)));
                continue;
            }
            let has_label = labels::find_labels(&line.text).iter().any(|h| {
                matches!(
                    h.key,
                    LabelKey::Number | LabelKey::NumberGeneric | LabelKey::Title
                )
            });
            for (s, e) in hits {
                if has_label {
                    labelled.push(Span::from_line(line, s, e));
                } else if want.len() >= 3 && !self.inside_date_or_money(line, s, e) {
                    other.push(Span::from_line(line, s, e));
                }
            }
        }
        labelled.extend(other);
        labelled
    }

    /// Whether `start..end` of `line` overlaps a date or a money amount (with decimals) read
    /// there.
    fn inside_date_or_money(&self, line: &Line, start: usize, end: usize) -> bool {
        self.cands.items.iter().any(|c| {
            c.span.line == line.index
                && c.span.start < end
                && start < c.span.end
                && (c.kind == CandidateKind::Date
                    || c.kind == CandidateKind::Amount && c.decimals > 0)
        })
    }
}

/// The first IBAN-shaped value printed after an `IBAN` label (two letters, two digits, then
/// letters and digits in groups, 15 to 34 in all, up to a column gap), upper case without
/// spaces, whether or not its length and check digits are right.
fn printed_iban(doc: &CleanDocument) -> Option<String> {
    for line in &doc.lines {
        let text = line.text.as_str();
        let lower = text.to_ascii_lowercase();
        let mut from = 0;
        while let Some(i) = lower.get(from..).and_then(|t| t.find("iban")) {
            let at = from + i;
            from = at + 4;
            if lower[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
            {
                continue;
            }
            let rest = &text[from..];
            let rest = rest.trim_start_matches([':', '.', ' ']);
            let rest = rest.split("  ").next().unwrap_or("");
            let mut value = String::new();
            for token in rest.split(' ') {
                if token.is_empty()
                    || !token.chars().all(|c| c.is_ascii_alphanumeric())
                    || value.len() + token.len() > 34
                {
                    break;
                }
                value.push_str(&token.to_ascii_uppercase());
            }
            let b = value.as_bytes();
            let shaped = b.len() >= 15
                && b[..2].iter().all(u8::is_ascii_alphabetic)
                && b[2..4].iter().all(u8::is_ascii_digit);
            if shaped {
                return Some(value);
            }
        }
    }
    None
}

/// The letters and digits of `s`, lower case.
fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Byte ranges of `line.text` whose letters and digits, lower case, are `want` (see [`norm`]):
/// starting and ending on a whole character, not inside a longer run of letters and digits (the
/// characters just before and after are neither), and not across a column gap (two spaces).
fn find_normalised(line: &Line, want: &[char]) -> Vec<(usize, usize)> {
    let text = line.text.as_str();
    // (byte start, byte end, lower-case char) of each letter or digit.
    let chars: Vec<(usize, usize, char)> = text
        .char_indices()
        .filter(|(_, c)| c.is_alphanumeric())
        .flat_map(|(i, c)| {
            let end = i + c.len_utf8();
            c.to_lowercase().map(move |l| (i, end, l))
        })
        .collect();
    let n = want.len();
    let mut out = Vec::new();
    if n == 0 || chars.len() < n {
        return out;
    }
    for st in 0..=chars.len() - n {
        let window = &chars[st..st + n];
        if !window.iter().map(|c| c.2).eq(want.iter().copied()) {
            continue;
        }
        let (s, e) = (window[0].0, window[n - 1].1);
        let whole = (st == 0 || chars[st - 1].0 != s)
            && chars.get(st + n).is_none_or(|c| c.0 != window[n - 1].0);
        let alone = !text[..s]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
            && !text[e..].chars().next().is_some_and(char::is_alphanumeric);
        if whole && alone && !text[s..e].contains("  ") {
            out.push((s, e));
        }
    }
    out
}

/// The other reading of an ISO date whose day could be a month (`2024-03-05` → `2024-05-03`).
fn swap_day_month(iso: &str) -> Option<String> {
    let mut it = iso.split('-');
    let (y, m, d) = (it.next()?, it.next()?, it.next()?);
    let day: u32 = d.parse().ok()?;
    (it.next().is_none() && m.len() == 2 && d.len() == 2 && (1..=12).contains(&day) && m != d)
        .then(|| format!("{y}-{d}-{m}"))
}

/// Whether two values differ in exactly one letter or digit (same length once normalised).
fn one_glyph_apart(a: &str, b: &str) -> bool {
    let (a, b) = (norm(a), norm(b));
    a.chars().count() == b.chars().count()
        && a.chars().zip(b.chars()).filter(|(x, y)| x != y).count() == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates;
    use crate::clean;
    use crate::einvoice::{Sums, Syntax};
    use crate::result::{BankAccount, Unit};
    use crate::types::{BBox, TextPage, Word};

    /// A text-layer page: each `(text, x, y)` line's words spaced by their length (5 pt per
    /// character, 4 pt apart, two spaces make a column gap).
    fn page(lines: &[(&str, f32, f32)], source: Source) -> TextPage {
        let mut words = Vec::new();
        for (text, x, y) in lines {
            let mut x = *x;
            for w in text.split(' ') {
                if w.is_empty() {
                    x += 30.0;
                    continue;
                }
                let wdt = w.chars().count() as f32 * 5.0;
                words.push(Word {
                    text: w.into(),
                    bbox: BBox::new(x, *y, x + wdt, y + 10.0),
                    confidence: 1.0,
                });
                x += wdt + 4.0;
            }
        }
        TextPage {
            page: 1,
            width: 600.0,
            height: 800.0,
            unit: if source == Source::Ocr {
                Unit::Px
            } else {
                Unit::Pt
            },
            source,
            engine: None,
            rotation: 0,
            words,
        }
    }

    fn einvoice(f: impl FnOnce(&mut DocumentResult)) -> EInvoice {
        let mut result = DocumentResult::empty();
        f(&mut result);
        EInvoice {
            syntax: Syntax::Cii,
            guideline: None,
            result,
            sums: Sums::default(),
            vat_breakdown: Vec::new(),
            line_nets: Vec::new(),
            allowance_charges: Vec::new(),
        }
    }

    fn visual(f: impl FnOnce(&mut DocumentResult)) -> DocumentResult {
        let mut r = DocumentResult::empty();
        f(&mut r);
        r
    }

    /// Cross-checks `e` against a page of `lines` (text layer) and the visual reading `v`.
    fn run(lines: &[(&str, f32, f32)], e: &EInvoice, v: &DocumentResult) -> CrossCheck {
        run_on(page(lines, Source::TextLayer), e, v)
    }

    fn run_on(p: TextPage, e: &EInvoice, v: &DocumentResult) -> CrossCheck {
        let doc = clean::clean(&[p]);
        let cands = candidates::extract(&doc);
        crosscheck(e, &doc, &cands, v)
    }

    fn total(t: &str) -> EInvoice {
        einvoice(|r| r.totals.total = Some(t.into()))
    }

    #[test]
    fn values_found_get_evidence_where_printed() {
        let lines = [
            ("Rechnung Nr. RE-2024-17 vom 05.03.2024", 10.0, 10.0),
            ("USt-IdNr.: DE123456789", 10.0, 30.0),
            ("IBAN DE89 3704 0044 0532 0130 00", 10.0, 50.0),
            ("Gesamtbetrag 1.234,56 EUR", 10.0, 70.0),
        ];
        let e = einvoice(|r| {
            r.document.number = Some("RE-2024-17".into());
            r.document.date = Some("2024-03-05".into());
            r.totals.total = Some("1234.56".into());
            r.parties.seller.vat_id = Some("DE123456789".into());
            r.bank_accounts.push(BankAccount {
                iban: Some("DE89370400440532013000".into()),
                ..BankAccount::default()
            });
        });
        let out = run(&lines, &e, &DocumentResult::empty());
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let keys: Vec<&str> = out.evidence.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "/bank_accounts/0/iban",
                "/document/date",
                "/document/number",
                "/parties/seller/vat_id",
                "/totals/total"
            ]
        );
        for ev in out.evidence.values() {
            assert_eq!(
                (ev.page, ev.unit, ev.source),
                (1, Unit::Pt, Source::EInvoice)
            );
        }
        let t = &out.evidence["/totals/total"];
        // The amount as its candidate reads it, with its currency.
        assert_eq!(t.text, "1.234,56 EUR");
        // `Gesamtbetrag` is 12 characters (60 pt) from x 10, the amount 8 characters 4 pt after
        // it, `EUR` 3 characters 4 pt after the amount.
        assert_eq!(t.bbox, [74.0, 70.0, 133.0, 80.0]);
        // The IBAN as printed, spaces included, its box over its six groups.
        let iban = &out.evidence["/bank_accounts/0/iban"];
        assert_eq!(iban.text, "DE89 3704 0044 0532 0130 00");
        assert_eq!(iban.bbox[0], 10.0 + 4.0 * 5.0 + 4.0);
        assert_eq!(iban.bbox[1], 50.0);
        assert_eq!(out.evidence["/document/number"].text, "RE-2024-17");
        assert_eq!(out.evidence["/document/date"].text, "05.03.2024");
    }

    #[test]
    fn a_different_printed_value_is_a_mismatch_naming_both() {
        let lines = [("Gesamtbetrag 120,00 EUR", 10.0, 70.0)];
        let v = visual(|r| r.totals.total = Some("120.00".into()));
        let out = run(&lines, &total("119.00"), &v);
        assert_eq!(
            out.warnings,
            [Issue {
                code: MISMATCH.into(),
                message: "the page shows total 120.00, the e-invoice says 119.00".into(),
                field: Some("/totals/total".into()),
            }]
        );
        assert!(out.evidence.is_empty());
    }

    #[test]
    fn agreeing_or_silent_pages_are_no_mismatch() {
        let lines = [
            ("Zwischensumme 100,00", 10.0, 50.0),
            ("Gesamtbetrag 119,00 EUR", 10.0, 70.0),
        ];
        // The visual reading agrees.
        let v = visual(|r| r.totals.total = Some("119.00".into()));
        let out = run(&lines, &total("119.00"), &v);
        assert!(out.warnings.is_empty());
        assert_eq!(out.evidence["/totals/total"].text, "119,00 EUR");
        // The visual reading picked another value while the XML's is printed too.
        let v = visual(|r| r.totals.total = Some("100.00".into()));
        let out = run(&lines, &total("119.00"), &v);
        assert!(out.warnings.is_empty());
        assert_eq!(out.evidence["/totals/total"].text, "119,00 EUR");
        // The XML's value is not printed, and the page shows no value for the field.
        let out = run(&lines, &total("250.00"), &DocumentResult::empty());
        assert_eq!(out, CrossCheck::default());
        // The XML's value is not printed, and the visual value is another value the XML states
        // (the VAT of one rate, read as the VAT total).
        let mut e = einvoice(|r| r.totals.vat = Some("26.60".into()));
        e.vat_breakdown = vec![
            super::super::VatBreakdown {
                amount: Some(Decimal::new(1900, 2)),
                ..Default::default()
            },
            super::super::VatBreakdown {
                amount: Some(Decimal::new(760, 2)),
                ..Default::default()
            },
        ];
        let lines = [
            ("MwSt. 19 % 19,00", 10.0, 50.0),
            ("MwSt. 7 % 7,60", 10.0, 70.0),
        ];
        let v = visual(|r| r.totals.vat = Some("19.00".into()));
        assert_eq!(run(&lines, &e, &v), CrossCheck::default());
        // The visual value is printed nowhere (derived from other amounts).
        let v = visual(|r| r.totals.vat = Some("11.40".into()));
        assert_eq!(run(&lines, &e, &v), CrossCheck::default());
        // Printed, and stated nowhere in the XML: the page shows another VAT.
        let lines = [
            ("MwSt. 19 % 19,00", 10.0, 50.0),
            ("MwSt. 11,40", 10.0, 70.0),
        ];
        assert_eq!(run(&lines, &e, &v).warnings.len(), 1);
    }

    #[test]
    fn a_credit_note_printed_negative_matches_its_positive_xml_amount() {
        let lines = [("Gutschriftsbetrag -119,00 EUR", 10.0, 70.0)];
        let v = visual(|r| r.totals.total = Some("-119.00".into()));
        let out = run(&lines, &total("119.00"), &v);
        assert!(out.warnings.is_empty());
        assert_eq!(out.evidence["/totals/total"].text, "-119,00 EUR");
        // And the other way round: a negative XML amount printed without its sign.
        let lines = [("Gutschriftsbetrag 119,00 EUR", 10.0, 70.0)];
        let out = run(&lines, &total("-119.00"), &DocumentResult::empty());
        assert_eq!(out.evidence["/totals/total"].text, "119,00 EUR");
    }

    #[test]
    fn a_number_is_found_by_its_letters_and_digits() {
        // No number label: the candidates have no number, the line search finds it.
        let lines = [
            ("Bitte geben Sie bei Zahlung re 2024/17 an", 10.0, 10.0),
            ("Datum 05.03.2024", 10.0, 30.0),
        ];
        let e = einvoice(|r| r.document.number = Some("RE-2024-17".into()));
        let out = run(&lines, &e, &DocumentResult::empty());
        let ev = &out.evidence["/document/number"];
        assert_eq!(ev.text, "re 2024/17");
        // Not inside a longer word, a date or across a column gap.
        for line in [
            "Bitte geben Sie FIRE-2024-17 an",
            "Bitte geben Sie RE-2024-178 an",
            "Bitte geben Sie RE  2024-17 an",
        ] {
            let out = run(&[(line, 10.0, 10.0)], &e, &DocumentResult::empty());
            assert!(out.evidence.is_empty(), "{line}");
        }
        let e = einvoice(|r| r.document.number = Some("2024".into()));
        let out = run(
            &[("Datum 05.03.2024", 10.0, 30.0)],
            &e,
            &DocumentResult::empty(),
        );
        assert!(out.evidence.is_empty());
    }

    #[test]
    fn a_different_number_is_a_mismatch_unless_the_xml_states_it_elsewhere() {
        let lines = [("Rechnung Nr. RE-2024-18", 10.0, 10.0)];
        let e = einvoice(|r| {
            r.document.number = Some("RE-2024-17".into());
            r.extra_fields.order_number = Some("B-77".into());
        });
        let v = visual(|r| r.document.number = Some("RE-2024-18".into()));
        let out = run(&lines, &e, &v);
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(
            out.warnings[0].message,
            "the page shows number RE-2024-18, the e-invoice says RE-2024-17"
        );
        assert_eq!(out.warnings[0].field.as_deref(), Some("/document/number"));
        // The visual reading took the order number: the page does not contradict the XML.
        let lines = [("Bestellung Nr. B-77", 10.0, 10.0)];
        let v = visual(|r| r.document.number = Some("b 77".into()));
        assert!(run(&lines, &e, &v).warnings.is_empty());
    }

    #[test]
    fn ambiguous_dates_match_in_either_reading() {
        let lines = [("Invoice date 03/05/2024", 10.0, 10.0)];
        let e = einvoice(|r| r.document.date = Some("2024-03-05".into()));
        // The page may be read day-first (2024-05-03): the XML's date is still found.
        let out = run(
            &lines,
            &e,
            &visual(|r| r.document.date = Some("2024-05-03".into())),
        );
        assert!(out.warnings.is_empty());
        assert_eq!(out.evidence["/document/date"].text, "03/05/2024");
        // An unambiguous different date is a mismatch.
        let lines = [("Invoice date 13.05.2024", 10.0, 10.0)];
        let out = run(
            &lines,
            &e,
            &visual(|r| r.document.date = Some("2024-05-13".into())),
        );
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(
            out.warnings[0].message,
            "the page shows date 2024-05-13, the e-invoice says 2024-03-05"
        );
        assert_eq!(swap_day_month("2024-03-05").as_deref(), Some("2024-05-03"));
        assert_eq!(swap_day_month("2024-03-13"), None);
        assert_eq!(swap_day_month("2024-03-03"), None);
    }

    #[test]
    fn ibans_and_vat_ids_as_printed() {
        // Printed with spaces, or with other separators no IBAN candidate reads.
        let e = einvoice(|r| {
            r.bank_accounts.push(BankAccount {
                iban: Some("DE89370400440532013000".into()),
                ..BankAccount::default()
            });
            r.parties.seller.vat_id = Some("DE123456789".into());
        });
        let lines = [
            ("Konto: DE89-3704-0044-0532-0130-00", 10.0, 10.0),
            ("UID de 123 456 789", 10.0, 30.0),
        ];
        let out = run(&lines, &e, &DocumentResult::empty());
        assert_eq!(
            out.evidence["/bank_accounts/0/iban"].text,
            "DE89-3704-0044-0532-0130-00"
        );
        assert_eq!(
            out.evidence["/parties/seller/vat_id"].text,
            "de 123 456 789"
        );
        // Another IBAN and VAT id printed instead.
        let lines = [
            ("IBAN GB82 WEST 1234 5698 7654 32", 10.0, 10.0),
            ("USt-IdNr.: DE987654321", 10.0, 30.0),
        ];
        let v = visual(|r| {
            r.bank_accounts.push(BankAccount {
                iban: Some("GB82WEST12345698765432".into()),
                ..BankAccount::default()
            });
            r.parties.seller.vat_id = Some("DE987654321".into());
        });
        let out = run(&lines, &e, &v);
        let fields: Vec<_> = out
            .warnings
            .iter()
            .filter_map(|w| w.field.as_deref())
            .collect();
        assert_eq!(fields, ["/bank_accounts/0/iban", "/parties/seller/vat_id"]);
        assert_eq!(
            out.warnings[1].message,
            "the page shows seller VAT id DE987654321, the e-invoice says DE123456789"
        );
    }

    #[test]
    fn an_iban_the_visual_reading_refused_is_still_what_the_page_shows() {
        let e = einvoice(|r| {
            r.bank_accounts.push(BankAccount {
                iban: Some("FR7630006000011234567890189".into()),
                ..BankAccount::default()
            });
        });
        // A German IBAN of the wrong length: no IBAN candidate, no visual value.
        let lines = [(
            "IBAN: DE20 1242 1242 1242 1242 1242 124  BIC: XYZ",
            10.0,
            10.0,
        )];
        let out = run(&lines, &e, &DocumentResult::empty());
        assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
        assert_eq!(
            out.warnings[0].message,
            "the page shows IBAN DE2012421242124212421242124, the e-invoice says \
             FR7630006000011234567890189"
        );
        assert_eq!(
            out.warnings[0].field.as_deref(),
            Some("/bank_accounts/0/iban")
        );
        // The XML's IBAN printed (after another label): evidence, no warning; no IBAN printed
        // at all, or a word that only contains "iban": nothing.
        for lines in [
            [("Konto FR76 3000 6000 0112 3456 7890 189", 10.0, 10.0)],
            [("Zahlbar ohne Abzug", 10.0, 10.0)],
            [("Libanon DE20 1242 1242 1242 1242", 10.0, 10.0)],
        ] {
            let out = run(&lines, &e, &DocumentResult::empty());
            assert!(out.warnings.is_empty(), "{lines:?}: {:?}", out.warnings);
        }
    }

    #[test]
    fn evidence_prefers_the_place_the_visual_reading_took() {
        let lines = [
            ("Summe 119,00", 10.0, 50.0),
            ("Gesamtbetrag 119,00 EUR", 10.0, 70.0),
            ("Bereits bezahlt 0,00", 10.0, 90.0),
            ("Posten 119,00", 10.0, 110.0),
        ];
        let mut v = visual(|r| r.totals.total = Some("119.00".into()));
        let doc = clean::clean(&[page(&lines, Source::TextLayer)]);
        let cands = candidates::extract(&doc);
        let at = cands
            .of(CandidateKind::Amount)
            .find(|c| c.span.line == 1)
            .unwrap();
        v.evidence
            .insert("/totals/total".into(), at.span.evidence(&doc).unwrap());
        let out = crosscheck(&total("119.00"), &doc, &cands, &v);
        assert_eq!(out.evidence["/totals/total"].bbox[1], 70.0);
        // Without it, the last place.
        let out = crosscheck(&total("119.00"), &doc, &cands, &DocumentResult::empty());
        assert_eq!(out.evidence["/totals/total"].bbox[1], 110.0);
    }

    #[test]
    fn one_misread_glyph_on_an_ocr_page_is_no_mismatch() {
        let lines = [("Gesamtbetrag 119,08 EUR", 10.0, 70.0)];
        let doc = clean::clean(&[page(&lines, Source::Ocr)]);
        let cands = candidates::extract(&doc);
        let at = cands.of(CandidateKind::Amount).next().unwrap();
        let mut v = visual(|r| r.totals.total = Some("119.08".into()));
        v.evidence
            .insert("/totals/total".into(), at.span.evidence(&doc).unwrap());
        assert!(
            crosscheck(&total("119.00"), &doc, &cands, &v)
                .warnings
                .is_empty()
        );
        // Two glyphs apart, or on a text layer, it is.
        assert_eq!(
            crosscheck(&total("118.00"), &doc, &cands, &v)
                .warnings
                .len(),
            1
        );
        let v = visual(|r| r.totals.total = Some("119.08".into()));
        assert_eq!(run(&lines, &total("119.00"), &v).warnings.len(), 1);
    }

    #[test]
    fn an_empty_page_gives_nothing() {
        let e = total("119.00");
        let v = visual(|r| r.totals.total = Some("1.00".into()));
        assert_eq!(run(&[], &e, &v), CrossCheck::default());
    }
}
