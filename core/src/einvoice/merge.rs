//! The Result of an e-invoice: the XML's values over the visual reading.
//!
//! Every Result field the XML carries comes from the XML, with confidence 1; a field it does not
//! carry (title, language, signatories, structure type; the line items of the MINIMUM and BASIC
//! WL profiles, which have none; a party's phone when the XML names no contact; a postal address
//! that the XML gives as its country code alone, as the MINIMUM profile does) comes from the
//! visual reading, with the visual reading's confidence and evidence. A list (line items, taxes,
//! bank accounts, other parties, notes) is taken whole from the XML when the XML has one entry
//! or more, and whole from the visual reading otherwise. The document type comes from the XML's
//! type code. Amounts keep the sign the XML states (see the module [`super`]).
//!
//! Evidence of the visual reading is kept only for the values that still come from it; the
//! evidence of the XML's values (source `E_INVOICE`, where the page prints the same value) is the
//! cross-check's.

use super::EInvoice;
use crate::result::{DocumentResult, Evidence, Party};
use std::collections::BTreeMap;

/// The per-field bookkeeping of one merge.
struct Merge<'a> {
    confidence: &'a mut BTreeMap<String, f64>,
    evidence: &'a mut BTreeMap<String, Evidence>,
}

impl Merge<'_> {
    /// `out` becomes the XML's value when it has one.
    fn field(&mut self, pointer: &str, xml: &Option<String>, out: &mut Option<String>) {
        if let Some(v) = xml {
            *out = Some(v.clone());
            self.confidence.insert(pointer.to_string(), 1.0);
            self.evidence.remove(pointer);
        }
    }

    /// `out` becomes the XML's list when it has entries; the visual reading's confidence and
    /// evidence under `prefix` go with the list they described.
    fn list<T: Clone>(&mut self, prefix: &str, xml: &[T], out: &mut Vec<T>) -> bool {
        if xml.is_empty() {
            return false;
        }
        *out = xml.to_vec();
        // The list's own confidence (`/line_items`) and its members' belong to the page's
        // reading that the XML replaces.
        let under = format!("{prefix}/");
        self.confidence
            .retain(|k, _| k != prefix && !k.starts_with(&under));
        self.evidence
            .retain(|k, _| k != prefix && !k.starts_with(&under));
        true
    }

    fn party(&mut self, prefix: &str, xml: &Party, out: &mut Party) {
        let fields: [(&str, &Option<String>, &mut Option<String>); 7] = [
            ("name", &xml.name, &mut out.name),
            ("tax_id", &xml.tax_id, &mut out.tax_id),
            ("vat_id", &xml.vat_id, &mut out.vat_id),
            (
                "registration_id",
                &xml.registration_id,
                &mut out.registration_id,
            ),
            ("address", &xml.address, &mut out.address),
            ("phone", &xml.phone, &mut out.phone),
            ("email", &xml.email, &mut out.email),
        ];
        for (key, x, o) in fields {
            // A MINIMUM profile's postal address (BG-5 / BG-8) is its country code alone: no
            // address, where the page prints one.
            if key == "address" && o.is_some() && x.as_deref().is_some_and(is_country_code) {
                continue;
            }
            self.field(&format!("{prefix}/{key}"), x, o);
        }
    }
}

/// Whether an address is only an ISO 3166 country code (`DE`).
fn is_country_code(address: &str) -> bool {
    address.len() == 2 && address.bytes().all(|b| b.is_ascii_uppercase())
}

/// The Result of an e-invoice read with its pages: `visual` (the reading of the pages) with
/// every value the XML carries replaced by the XML's. Validation is left to the caller.
pub fn merge(e: &EInvoice, visual: DocumentResult) -> DocumentResult {
    let mut out = visual;
    let x = &e.result;
    let mut m = Merge {
        confidence: &mut out.confidence.fields,
        evidence: &mut out.evidence,
    };
    let d = &mut out.document;
    m.field("/document/number", &x.document.number, &mut d.number);
    m.field("/document/date", &x.document.date, &mut d.date);
    m.field("/document/due_date", &x.document.due_date, &mut d.due_date);
    m.field("/document/title", &x.document.title, &mut d.title);
    m.field("/document/currency", &x.document.currency, &mut d.currency);
    m.field("/document/language", &x.document.language, &mut d.language);
    out.document_type = x.document_type.clone();
    out.document_type.confidence = 1.0;

    m.party(
        "/parties/seller",
        &x.parties.seller,
        &mut out.parties.seller,
    );
    m.party("/parties/buyer", &x.parties.buyer, &mut out.parties.buyer);
    m.list("/parties/other", &x.parties.other, &mut out.parties.other);

    m.list("/line_items", &x.line_items, &mut out.line_items);
    let t = &mut out.totals;
    m.field("/totals/net", &x.totals.net, &mut t.net);
    m.field("/totals/vat", &x.totals.vat, &mut t.vat);
    m.field("/totals/total", &x.totals.total, &mut t.total);
    m.field("/totals/payable", &x.totals.payable, &mut t.payable);
    m.field("/totals/discount", &x.totals.discount, &mut t.discount);
    m.field("/totals/charges", &x.totals.charges, &mut t.charges);
    m.field("/totals/prepaid", &x.totals.prepaid, &mut t.prepaid);
    m.list("/taxes", &x.taxes, &mut out.taxes);
    if m.list("/bank_accounts", &x.bank_accounts, &mut out.bank_accounts) {
        for (i, b) in out.bank_accounts.iter().enumerate() {
            for (key, v) in [("iban", &b.iban), ("swift_bic", &b.swift_bic)] {
                if v.is_some() {
                    m.confidence
                        .insert(format!("/bank_accounts/{i}/{key}"), 1.0);
                }
            }
        }
    }
    m.list("/signatories", &x.signatories, &mut out.signatories);

    let (xe, oe) = (&x.extra_fields, &mut out.extra_fields);
    m.field(
        "/extra_fields/contract/number",
        &xe.contract.number,
        &mut oe.contract.number,
    );
    m.field(
        "/extra_fields/contract/date",
        &xe.contract.date,
        &mut oe.contract.date,
    );
    m.field(
        "/extra_fields/period/from",
        &xe.period.from,
        &mut oe.period.from,
    );
    m.field("/extra_fields/period/to", &xe.period.to, &mut oe.period.to);
    m.field(
        "/extra_fields/order_number",
        &xe.order_number,
        &mut oe.order_number,
    );
    m.field(
        "/extra_fields/payment_terms",
        &xe.payment_terms,
        &mut oe.payment_terms,
    );
    m.list("/extra_fields/notes", &xe.notes, &mut oe.notes);

    out.confidence.overall = crate::fields::overall_confidence(&out.confidence.fields);
    out
}

/// The Result of a standalone e-invoice XML (no page): the XML's values, confidence 1 for each,
/// no evidence (evidence points at a page, and there is none). The structure type is `TABLE`
/// when the XML has line items, `TEXT` otherwise. Validation is left to the caller.
pub fn standalone(e: &EInvoice) -> DocumentResult {
    let mut visual = DocumentResult::empty();
    if !e.result.line_items.is_empty() {
        visual.structure_type.code = crate::result::StructureType::Table;
    }
    merge(e, visual)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::einvoice::{Sums, Syntax};
    use crate::result::{DocumentType, LineItem, OtherParty, Unit};

    fn evidence(text: &str) -> Evidence {
        Evidence {
            page: 1,
            bbox: [1.0, 2.0, 3.0, 4.0],
            unit: Unit::Pt,
            text: text.into(),
            source: crate::result::Source::TextLayer,
            engine: None,
        }
    }

    fn einvoice() -> EInvoice {
        let mut r = DocumentResult::empty();
        r.document.number = Some("RE-2024-001".into());
        r.document.date = Some("2024-03-01".into());
        r.document.currency = Some("EUR".into());
        r.document_type.code = DocumentType::CreditNote;
        r.parties.seller.name = Some("Lieferant GmbH".into());
        r.parties.seller.vat_id = Some("DE123456789".into());
        // MINIMUM: the country alone; the buyer's full address.
        r.parties.seller.address = Some("DE".into());
        r.parties.buyer.address = Some("Domplatz 1, 50667 Köln, DE".into());
        r.parties.other.push(OtherParty {
            party: Party {
                name: Some("Zahlstelle AG".into()),
                ..Party::default()
            },
            role: "payee".into(),
        });
        r.totals.total = Some("119.00".into());
        r.totals.net = Some("100.00".into());
        r.line_items.push(LineItem {
            description: Some("Beratung".into()),
            amount: Some("100.00".into()),
            ..LineItem::default()
        });
        EInvoice {
            syntax: Syntax::Cii,
            guideline: None,
            result: r,
            sums: Sums::default(),
            vat_breakdown: Vec::new(),
            line_nets: vec![Some(rust_decimal::Decimal::new(10000, 2))],
            allowance_charges: Vec::new(),
        }
    }

    #[test]
    fn the_xml_wins_where_it_has_a_value_the_page_elsewhere() {
        let mut visual = DocumentResult::empty();
        visual.document.number = Some("RE-2024-00l".into());
        visual.document.title = Some("Gutschrift".into());
        visual.parties.seller.name = Some("Lieferant".into());
        visual.parties.seller.phone = Some("+49 30 1234".into());
        visual.parties.seller.address = Some("Hauptstr. 1, 10115 Berlin".into());
        visual.parties.buyer.address = Some("Ring 2, 50667 Köln".into());
        visual.totals.total = Some("119.00".into());
        visual.totals.vat = Some("19.00".into());
        visual.line_items = vec![LineItem::default(), LineItem::default()];
        for (k, v, text) in [
            ("/document/number", 0.7, "RE-2024-00l"),
            ("/document/title", 0.8, "Gutschrift"),
            ("/parties/seller/phone", 0.6, "+49 30 1234"),
            ("/totals/vat", 0.9, "19,00"),
            ("/line_items/1/amount", 0.5, "3"),
        ] {
            visual.confidence.fields.insert(k.into(), v);
            visual.evidence.insert(k.into(), evidence(text));
        }
        let r = merge(&einvoice(), visual);
        assert_eq!(r.document.number.as_deref(), Some("RE-2024-001"));
        assert_eq!(r.document.title.as_deref(), Some("Gutschrift"));
        assert_eq!(r.document_type.code, DocumentType::CreditNote);
        assert_eq!(r.document_type.confidence, 1.0);
        assert_eq!(r.parties.seller.name.as_deref(), Some("Lieferant GmbH"));
        assert_eq!(r.parties.seller.phone.as_deref(), Some("+49 30 1234"));
        assert_eq!(
            r.parties.seller.address.as_deref(),
            Some("Hauptstr. 1, 10115 Berlin")
        );
        assert_eq!(
            r.parties.buyer.address.as_deref(),
            Some("Domplatz 1, 50667 Köln, DE")
        );
        assert_eq!(r.parties.other.len(), 1);
        assert_eq!(r.totals.vat.as_deref(), Some("19.00"));
        assert_eq!(r.line_items.len(), 1);
        let c = &r.confidence.fields;
        assert_eq!(c["/document/number"], 1.0);
        assert_eq!(c["/document/title"], 0.8);
        assert_eq!(c["/parties/seller/phone"], 0.6);
        assert_eq!(c["/totals/vat"], 0.9);
        assert!(!c.contains_key("/line_items/1/amount"));
        // Evidence stays only for the values read from the page.
        let keys: Vec<&str> = r.evidence.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["/document/title", "/parties/seller/phone", "/totals/vat"]
        );
        // number, date, total, seller name: all from the XML.
        assert_eq!(r.confidence.overall, 1.0);
    }

    #[test]
    fn a_standalone_xml_has_its_values_and_no_evidence() {
        let r = standalone(&einvoice());
        assert_eq!(r.document.number.as_deref(), Some("RE-2024-001"));
        assert_eq!(r.structure_type.code, crate::result::StructureType::Table);
        assert!(r.evidence.is_empty());
        assert_eq!(r.confidence.fields["/totals/total"], 1.0);
        assert!(!r.confidence.fields.contains_key("/totals/vat"));
        assert_eq!(r.confidence.overall, 1.0);
        // No line items in the XML (a MINIMUM profile): free text.
        let mut e = einvoice();
        e.result.line_items.clear();
        assert_eq!(
            standalone(&e).structure_type.code,
            crate::result::StructureType::Text
        );
    }
}
