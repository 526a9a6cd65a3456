//! What the CII and UBL mappings share: XML data types to Result values (decimals, dates),
//! addresses, unit prices, and the finishing of an [`EInvoice`] (document type, structure,
//! confidence).

use super::codes;
use super::{EInvoice, Sums};
use crate::result::{DocumentType, StructureType, Totals};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::str::FromStr;

/// The Result's totals from the document totals as stated: net BT-109, VAT BT-110, total
/// BT-112, prepaid BT-113, payable BT-115, discount BT-107 (the document-level allowances),
/// charges BT-108 (the document-level charges).
pub fn totals(sums: &Sums) -> Totals {
    Totals {
        net: sums.tax_basis_total.map(dec_str),
        vat: sums.tax_total.map(dec_str),
        total: sums.grand_total.map(dec_str),
        payable: sums.payable.map(dec_str),
        discount: sums.allowance_total.map(dec_str),
        charges: sums.charge_total.map(dec_str),
        prepaid: sums.prepaid.map(dec_str),
    }
}

/// An `xs:decimal` (optional sign, digits, optional fraction; surrounding blanks allowed), with
/// the digits the XML states (`"198.00"` stays two places). Anything else → `None`.
pub fn decimal(s: Option<&str>) -> Option<Decimal> {
    let s = s?.trim();
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let int = if int.is_empty() { "0" } else { int };
    let sign = if neg { "-" } else { "" };
    let canon = if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    };
    Decimal::from_str(&canon).ok()
}

/// A decimal as a Result string.
pub fn dec_str(d: Decimal) -> String {
    d.to_string()
}

/// [`decimal`] as a Result string.
pub fn amount(s: Option<&str>) -> Option<String> {
    decimal(s).map(dec_str)
}

/// A date as `YYYY-MM-DD`: CII `DateTimeString` format 102 (`20240131`), or an ISO date
/// (`2024-01-31`, also with a time or zone after it, as UBL and some CII writers put it). Other
/// formats (610 month, 616 week) and impossible dates → `None`.
pub fn date(s: Option<&str>, format: Option<&str>) -> Option<String> {
    let s = s?.trim();
    if matches!(format, Some(f) if f != "102") {
        return None;
    }
    let parsed = if s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit()) {
        NaiveDate::parse_from_str(s, "%Y%m%d").ok()
    } else {
        s.get(..10)
            .filter(|d| d.as_bytes().get(4) == Some(&b'-'))
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
    }?;
    Some(parsed.format("%Y-%m-%d").to_string())
}

/// An address as the Result writes it: "street, postcode city, country" (the parts present).
pub fn address(
    lines: &[&str],
    postcode: Option<&str>,
    city: Option<&str>,
    country: Option<&str>,
) -> Option<String> {
    let mut parts: Vec<String> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let place: Vec<&str> = [postcode, city].into_iter().flatten().collect();
    if !place.is_empty() {
        parts.push(place.join(" "));
    }
    if let Some(c) = country {
        parts.push(c.to_string());
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A line's discount rate (the Result's `discount_rate`): the percentage (BT-138) of its only
/// allowance (BG-27) where the line has no charge (BG-28) that would also move its net amount.
pub fn line_discount_rate(acs: &[super::AllowanceCharge]) -> Option<String> {
    match acs {
        [a] if !a.charge => a
            .percent
            .filter(|p| *p > Decimal::ZERO && *p < Decimal::ONE_HUNDRED)
            .map(|p| p.normalize().to_string()),
        _ => None,
    }
}

/// A line's unit price: the net price (BT-146) per one unit, i.e. divided by the base quantity
/// (BT-149) where one other than 1 is given, keeping at least the price's decimal places.
/// `None` where the division overflows (absurd values).
pub fn unit_price(price: Decimal, base: Option<Decimal>) -> Option<Decimal> {
    match base {
        Some(b) if !b.is_zero() && b != Decimal::ONE => {
            let mut q = price.checked_div(b)?.round_dp(10).normalize();
            if q.scale() < price.scale() {
                q.rescale(price.scale());
            }
            Some(q)
        }
        _ => Some(price),
    }
}

/// A line's description: the item name (BT-153) and, where it adds something, the item
/// description (BT-154), joined by a space as wrapped printed descriptions are.
pub fn description(name: Option<&str>, desc: Option<&str>) -> Option<String> {
    match (name, desc) {
        (Some(n), Some(d)) if d.starts_with(n) => Some(d.to_string()),
        (Some(n), Some(d)) if n.contains(d) => Some(n.to_string()),
        (Some(n), Some(d)) => Some(format!("{n} {d}")),
        (n, d) => n.or(d).map(str::to_string),
    }
}

/// An IBAN without spaces, upper case.
pub fn compact_iban(s: &str) -> String {
    s.split_whitespace().collect::<String>().to_uppercase()
}

/// Bank accounts without repeats (several payment means may name the same account), in
/// linear time.
#[derive(Default)]
pub struct Accounts {
    seen: std::collections::HashSet<String>,
    /// The accounts, in document order.
    pub list: Vec<crate::result::BankAccount>,
}

impl Accounts {
    /// Adds an account that names an IBAN or an account number, unless already there.
    pub fn push(&mut self, b: crate::result::BankAccount) {
        if (b.iban.is_some() || b.account_number.is_some())
            && self
                .seen
                .insert(serde_json::to_string(&b).expect("account serialises"))
        {
            self.list.push(b);
        }
    }
}

/// An `xs:boolean` (`true`/`false`/`1`/`0`).
pub fn boolean(s: Option<&str>) -> Option<bool> {
    match s?.trim() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// A line position (BT-126) as a number, where it is one.
pub fn position(s: Option<&str>) -> Option<u32> {
    s?.trim().parse().ok()
}

/// Finishes a mapped invoice: the document type from the type code (or, without a known code,
/// from the syntax), the structure (TABLE with line items, TEXT without), and confidence 1.0 for
/// every field the XML carried (and overall).
pub fn finish(e: &mut EInvoice, type_code: Option<&str>, credit_note_syntax: bool) {
    let r = &mut e.result;
    r.document_type.code =
        type_code
            .and_then(codes::document_type)
            .unwrap_or(if credit_note_syntax {
                DocumentType::CreditNote
            } else {
                DocumentType::Invoice
            });
    r.document_type.confidence = 1.0;
    r.structure_type.code = if r.line_items.is_empty() {
        StructureType::Text
    } else {
        StructureType::Table
    };
    let mut fields = std::collections::BTreeMap::new();
    let value = serde_json::to_value(&*r).expect("result serialises");
    for key in [
        "document",
        "parties",
        "line_items",
        "totals",
        "taxes",
        "bank_accounts",
        "extra_fields",
    ] {
        leaves(&value[key], &mut format!("/{key}"), &mut fields);
    }
    r.confidence.fields = fields;
    r.confidence.overall = 1.0;
}

/// Every non-null leaf below `v`, as a JSON pointer (a party's `role` is structure, not a value).
fn leaves(
    v: &serde_json::Value,
    ptr: &mut String,
    out: &mut std::collections::BTreeMap<String, f64>,
) {
    use serde_json::Value;
    let len = ptr.len();
    match v {
        Value::Null => {}
        Value::Object(m) => {
            for (k, x) in m {
                if k == "role" {
                    continue;
                }
                ptr.push('/');
                ptr.push_str(k);
                leaves(x, ptr, out);
                ptr.truncate(len);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                ptr.push('/');
                ptr.push_str(&i.to_string());
                leaves(x, ptr, out);
                ptr.truncate(len);
            }
        }
        _ => {
            out.insert(ptr.clone(), 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_s_discount_rate_is_its_only_allowance_s_percentage() {
        let ac = |charge: bool, percent: Option<&str>| super::super::AllowanceCharge {
            charge,
            percent: percent.map(|p| p.parse().unwrap()),
            ..Default::default()
        };
        assert_eq!(
            line_discount_rate(&[ac(false, Some("10.00"))]).as_deref(),
            Some("10")
        );
        assert_eq!(line_discount_rate(&[ac(false, None)]), None);
        assert_eq!(line_discount_rate(&[ac(true, Some("5"))]), None);
        assert_eq!(
            line_discount_rate(&[ac(false, Some("10")), ac(true, None)]),
            None
        );
        assert_eq!(line_discount_rate(&[]), None);
    }

    #[test]
    fn decimals_keep_their_digits() {
        let d = |s: &str| amount(Some(s));
        assert_eq!(d("198.00").as_deref(), Some("198.00"));
        assert_eq!(d(" -5.5 ").as_deref(), Some("-5.5"));
        assert_eq!(d("+7").as_deref(), Some("7"));
        assert_eq!(d(".5").as_deref(), Some("0.5"));
        assert_eq!(d("5.").as_deref(), Some("5"));
        for bad in [
            "",
            "-",
            ".",
            "1,5",
            "1e3",
            "12a",
            "1.2.3",
            "99999999999999999999999999999999",
        ] {
            assert_eq!(d(bad), None, "{bad}");
        }
    }

    #[test]
    fn dates() {
        assert_eq!(
            date(Some("20240131"), Some("102")).as_deref(),
            Some("2024-01-31")
        );
        assert_eq!(
            date(Some("2024-01-31"), None).as_deref(),
            Some("2024-01-31")
        );
        assert_eq!(
            date(Some("2024-01-31+01:00"), None).as_deref(),
            Some("2024-01-31")
        );
        assert_eq!(
            date(Some("2024-01-31T10:00:00"), None).as_deref(),
            Some("2024-01-31")
        );
        assert_eq!(date(Some("202401"), Some("610")), None);
        assert_eq!(date(Some("20240231"), Some("102")), None);
        assert_eq!(date(Some("31.01.2024"), None), None);
    }

    #[test]
    fn addresses_prices_descriptions() {
        assert_eq!(
            address(
                &["Hauptstr. 1", " "],
                Some("10115"),
                Some("Berlin"),
                Some("DE")
            )
            .as_deref(),
            Some("Hauptstr. 1, 10115 Berlin, DE")
        );
        assert_eq!(
            address(&[], None, Some("Paris"), None).as_deref(),
            Some("Paris")
        );
        assert_eq!(address(&[], None, None, None), None);
        let p = |s: &str| Decimal::from_str(s).unwrap();
        let up = |a: &str, b: Option<&str>| unit_price(p(a), b.map(p)).unwrap().to_string();
        assert_eq!(up("25.00", Some("10")), "2.50");
        assert_eq!(up("9.90", Some("1")), "9.90");
        assert_eq!(up("9.90", None), "9.90");
        assert_eq!(up("9.90", Some("0")), "9.90");
        assert_eq!(
            unit_price(p("79228162514264337593543950335"), Some(p("0.0000000001"))),
            None
        );
        assert_eq!(up("1.00", Some("3")), "0.3333333333");
        assert_eq!(
            description(Some("Pen"), Some("Blue pen")).as_deref(),
            Some("Pen Blue pen")
        );
        assert_eq!(
            description(Some("Pen"), Some("Pen, blue")).as_deref(),
            Some("Pen, blue")
        );
        assert_eq!(description(None, Some("x")).as_deref(), Some("x"));
        assert_eq!(boolean(Some("true")), Some(true));
        assert_eq!(boolean(Some("0")), Some(false));
        assert_eq!(boolean(Some("yes")), None);
        assert_eq!(position(Some("3")), Some(3));
        assert_eq!(position(Some("3a")), None);
    }
}
