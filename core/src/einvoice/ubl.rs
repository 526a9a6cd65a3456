//! UBL 2.1 `Invoice` and `CreditNote` (XRechnung UBL, Peppol BIS Billing 3.0) into an
//! [`EInvoice`].
//!
//! A CreditNote differs from an Invoice in a few names (`CreditNoteTypeCode`, `CreditNoteLine`,
//! `CreditedQuantity`) and has its due date only in `PaymentMeans/PaymentDueDate`; both are read
//! by one mapping. Everything is found by its path from the root, so a line's allowances and
//! periods are never taken for the document's.

use super::fill::{self, address, amount, date, decimal};
use super::xml::El;
use super::{AllowanceCharge, EInvoice, Sums, Syntax, VatBreakdown};
use crate::result::{BankAccount, DocumentResult, LineItem, OtherParty, Party, PartyRole, TaxLine};

fn text(el: Option<El<'_>>, path: &[&str]) -> Option<String> {
    el.and_then(|e| e.text_at(path)).map(str::to_string)
}

fn party(p: El<'_>) -> Party {
    let legal = p.child("PartyLegalEntity");
    let mut out = Party {
        name: p
            .text_at(&["PartyName", "Name"])
            .or_else(|| legal.and_then(|l| l.text_at(&["RegistrationName"])))
            .map(str::to_string),
        registration_id: text(legal, &["CompanyID"]),
        ..Party::default()
    };
    for s in p.all("PartyTaxScheme") {
        let Some(id) = s.text_at(&["CompanyID"]) else {
            continue;
        };
        let slot = if s
            .text_at(&["TaxScheme", "ID"])
            .is_some_and(|t| t.eq_ignore_ascii_case("VAT"))
        {
            &mut out.vat_id
        } else {
            &mut out.tax_id
        };
        if slot.is_none() {
            *slot = Some(id.to_string());
        }
    }
    if let Some(a) = p.child("PostalAddress") {
        let mut lines: Vec<&str> = ["StreetName", "AdditionalStreetName"]
            .iter()
            .filter_map(|n| a.text_at(&[n]))
            .collect();
        lines.extend(
            a.all_at(&["AddressLine", "Line"])
                .into_iter()
                .filter_map(|l| l.text()),
        );
        out.address = address(
            &lines,
            a.text_at(&["PostalZone"]),
            a.text_at(&["CityName"]),
            a.text_at(&["Country", "IdentificationCode"]),
        );
    }
    let contact = p.child("Contact");
    out.phone = text(contact, &["Telephone"]);
    out.email = text(contact, &["ElectronicMail"]);
    out
}

/// The Delivery party (BG-13 deliver-to): the name and the delivery location's address.
fn delivery_party(d: El<'_>) -> Party {
    let mut out = match d.child("DeliveryParty") {
        Some(p) => party(p),
        None => Party::default(),
    };
    if out.address.is_none()
        && let Some(a) = d.at(&["DeliveryLocation", "Address"])
    {
        let mut lines: Vec<&str> = ["StreetName", "AdditionalStreetName"]
            .iter()
            .filter_map(|n| a.text_at(&[n]))
            .collect();
        lines.extend(
            a.all_at(&["AddressLine", "Line"])
                .into_iter()
                .filter_map(|l| l.text()),
        );
        out.address = address(
            &lines,
            a.text_at(&["PostalZone"]),
            a.text_at(&["CityName"]),
            a.text_at(&["Country", "IdentificationCode"]),
        );
    }
    out
}

fn allowance_charge(a: El<'_>) -> AllowanceCharge {
    let cat = a.child("TaxCategory");
    AllowanceCharge {
        charge: fill::boolean(a.text_at(&["ChargeIndicator"])).unwrap_or(false),
        amount: decimal(a.text_at(&["Amount"])),
        base: decimal(a.text_at(&["BaseAmount"])),
        percent: decimal(a.text_at(&["MultiplierFactorNumeric"])),
        vat_category: text(cat, &["ID"]),
        vat_rate: cat.and_then(|c| decimal(c.text_at(&["Percent"]))),
        reason: a
            .text_at(&["AllowanceChargeReason"])
            .or_else(|| a.text_at(&["AllowanceChargeReasonCode"]))
            .map(str::to_string),
    }
}

fn period(p: Option<El<'_>>) -> (Option<String>, Option<String>) {
    (
        date(p.and_then(|p| p.text_at(&["StartDate"])), None),
        date(p.and_then(|p| p.text_at(&["EndDate"])), None),
    )
}

fn line(l: El<'_>) -> (LineItem, (Option<String>, Option<String>)) {
    let item = l.child("Item");
    let price = l.child("Price");
    let mut out = LineItem {
        position: fill::position(l.text_at(&["ID"])),
        description: item
            .and_then(|i| fill::description(i.text_at(&["Name"]), i.text_at(&["Description"]))),
        sku: text(item, &["SellersItemIdentification", "ID"]),
        vat_rate: amount(item.and_then(|i| i.text_at(&["ClassifiedTaxCategory", "Percent"]))),
        amount: amount(l.text_at(&["LineExtensionAmount"])),
        ..LineItem::default()
    };
    let qty = l
        .child("InvoicedQuantity")
        .or_else(|| l.child("CreditedQuantity"));
    out.quantity = amount(qty.and_then(|q| q.text()));
    let base = price.and_then(|p| p.child("BaseQuantity"));
    if let Some(v) = price.and_then(|p| decimal(p.text_at(&["PriceAmount"]))) {
        let b = decimal(base.and_then(|b| b.text()));
        out.unit_price = Some(fill::dec_str(fill::unit_price(v, b)));
    }
    let unit = qty
        .and_then(|q| q.attr("unitCode"))
        .or_else(|| base.and_then(|b| b.attr("unitCode")));
    if let Some(code) = unit.filter(|u| !u.is_empty()) {
        out.unit = Some(super::codes::unit_name(code));
        out.unit_code = Some(code.to_string());
    }
    (out, period(l.child("InvoicePeriod")))
}

/// Maps a UBL document (root `Invoice` or `CreditNote`).
pub fn parse(root: El<'_>, syntax: Syntax) -> (EInvoice, Option<String>) {
    let mut r = DocumentResult::empty();
    let guideline = root.text_at(&["CustomizationID"]).map(str::to_string);
    let type_code = root
        .text_at(&["InvoiceTypeCode"])
        .or_else(|| root.text_at(&["CreditNoteTypeCode"]))
        .map(str::to_string);
    let currency = root.text_at(&["DocumentCurrencyCode"]);
    r.document.number = root.text_at(&["ID"]).map(str::to_string);
    r.document.date = date(root.text_at(&["IssueDate"]), None);
    r.document.currency = currency.map(str::to_string);
    r.document.due_date = date(root.text_at(&["DueDate"]), None).or_else(|| {
        root.all("PaymentMeans")
            .find_map(|m| date(m.text_at(&["PaymentDueDate"]), None))
    });
    r.extra_fields.notes = root
        .all("Note")
        .filter_map(|n| n.text())
        .map(str::to_string)
        .collect();
    r.extra_fields.order_number = root.text_at(&["OrderReference", "ID"]).map(str::to_string);
    if let Some(c) = root.child("ContractDocumentReference") {
        r.extra_fields.contract.number = c.text_at(&["ID"]).map(str::to_string);
        r.extra_fields.contract.date = date(c.text_at(&["IssueDate"]), None);
    }

    // Parties.
    if let Some(p) = root.at(&["AccountingSupplierParty", "Party"]) {
        r.parties.seller = party(p);
    }
    if let Some(p) = root.at(&["AccountingCustomerParty", "Party"]) {
        r.parties.buyer = party(p);
    }
    let payee = root.child("PayeeParty");
    for (p, role) in [
        (payee.map(party), "payee"),
        (
            root.child("TaxRepresentativeParty").map(party),
            "tax_representative",
        ),
        (root.child("Delivery").map(delivery_party), "delivery"),
    ] {
        if let Some(p) = p.filter(|p| !p.is_empty()) {
            r.parties.other.push(OtherParty {
                party: p,
                role: role.to_string(),
            });
        }
    }

    // Bank accounts: the seller's, or the payee's where a payee is named.
    let owner = if payee.is_some() {
        PartyRole::Other
    } else {
        PartyRole::Seller
    };
    for m in root.all("PaymentMeans") {
        let Some(acct) = m.child("PayeeFinancialAccount") else {
            continue;
        };
        let Some(id) = acct.text_at(&["ID"]) else {
            continue;
        };
        let compact: String = id.split_whitespace().collect::<String>().to_uppercase();
        let is_iban = crate::checks::iban_is_valid(&compact);
        let branch = acct.child("FinancialInstitutionBranch");
        let b = BankAccount {
            iban: is_iban.then(|| compact.clone()),
            account_number: (!is_iban).then(|| id.to_string()),
            bank_name: branch
                .and_then(|b| {
                    b.text_at(&["FinancialInstitution", "Name"])
                        .or_else(|| b.text_at(&["Name"]))
                })
                .map(str::to_string),
            bank_code: None,
            swift_bic: branch
                .and_then(|b| {
                    b.text_at(&["FinancialInstitution", "ID"])
                        .or_else(|| b.text_at(&["ID"]))
                })
                .map(str::to_string),
            party: Some(owner),
        };
        if !r.bank_accounts.contains(&b) {
            r.bank_accounts.push(b);
        }
    }
    let terms: Vec<&str> = root
        .all_at(&["PaymentTerms", "Note"])
        .into_iter()
        .filter_map(|n| n.text())
        .collect();
    if !terms.is_empty() {
        r.extra_fields.payment_terms = Some(terms.join("; "));
    }

    // Document-level allowances and charges.
    let allowance_charges: Vec<AllowanceCharge> =
        root.all("AllowanceCharge").map(allowance_charge).collect();

    // VAT: the TaxTotal in the document currency (a second one may state the VAT in the tax
    // currency, BT-111, without subtotals).
    let totals: Vec<El<'_>> = root.all("TaxTotal").collect();
    let tax_total = match totals.as_slice() {
        [only] => Some(*only),
        several => several
            .iter()
            .find(|t| {
                currency.is_some()
                    && t.child("TaxAmount").and_then(|a| a.attr("currencyID")) == currency
            })
            .copied(),
    };
    let mut vat_breakdown = Vec::new();
    if let Some(t) = tax_total {
        for s in t.all("TaxSubtotal") {
            let cat = s.child("TaxCategory");
            let v = VatBreakdown {
                category: text(cat, &["ID"]),
                rate: cat.and_then(|c| decimal(c.text_at(&["Percent"]))),
                base: decimal(s.text_at(&["TaxableAmount"])),
                amount: decimal(s.text_at(&["TaxAmount"])),
            };
            r.taxes.push(TaxLine {
                rate: v.rate.map(fill::dec_str),
                base: v.base.map(fill::dec_str),
                amount: v.amount.map(fill::dec_str),
            });
            vat_breakdown.push(v);
        }
    }

    // Lines, with their periods for a document that states no period of its own.
    let mut line_nets = Vec::new();
    let (mut from, mut to): (Option<String>, Option<String>) = (None, None);
    for l in root
        .children()
        .filter(|c| matches!(c.name(), "InvoiceLine" | "CreditNoteLine"))
    {
        let (item, (f, t)) = line(l);
        line_nets.push(decimal(item.amount.as_deref()));
        r.line_items.push(item);
        if let Some(f) = f
            && from.as_ref().is_none_or(|x| f < *x)
        {
            from = Some(f);
        }
        if let Some(t) = t
            && to.as_ref().is_none_or(|x| t > *x)
        {
            to = Some(t);
        }
    }
    let (pf, pt) = period(root.child("InvoicePeriod"));
    if pf.is_some() || pt.is_some() {
        (from, to) = (pf, pt);
    }
    if from.is_none() && to.is_none() {
        let d = date(root.text_at(&["Delivery", "ActualDeliveryDate"]), None);
        (from, to) = (d.clone(), d);
    }
    r.extra_fields.period.from = from;
    r.extra_fields.period.to = to;

    let m = root.child("LegalMonetaryTotal");
    let d = |n: &str| m.and_then(|m| decimal(m.text_at(&[n])));
    let sums = Sums {
        line_total: d("LineExtensionAmount"),
        allowance_total: d("AllowanceTotalAmount"),
        charge_total: d("ChargeTotalAmount"),
        tax_basis_total: d("TaxExclusiveAmount"),
        tax_total: tax_total.and_then(|t| decimal(t.text_at(&["TaxAmount"]))),
        grand_total: d("TaxInclusiveAmount"),
        prepaid: d("PrepaidAmount"),
        rounding: d("PayableRoundingAmount"),
        payable: d("PayableAmount"),
    };
    let t = &mut r.totals;
    t.net = sums.tax_basis_total.map(fill::dec_str);
    t.vat = sums.tax_total.map(fill::dec_str);
    t.total = sums.grand_total.map(fill::dec_str);
    t.prepaid = sums.prepaid.map(fill::dec_str);
    t.payable = sums.payable.map(fill::dec_str);
    t.discount = sums.allowance_total.map(fill::dec_str);

    (
        EInvoice {
            syntax,
            guideline,
            result: r,
            sums,
            vat_breakdown,
            line_nets,
            allowance_charges,
        },
        type_code,
    )
}

#[cfg(test)]
mod tests {
    use super::super::{Syntax, parse, sniff};
    use crate::result::{DocumentType, StructureType};

    const INVOICE_MIN: &str = r#"<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>INV-1</cbc:ID>
  <cbc:IssueDate>2024-03-01</cbc:IssueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Seller Ltd</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">20.00</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">120.00</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">120.00</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
</Invoice>"#;

    #[test]
    fn sniffs_ubl() {
        assert_eq!(sniff(INVOICE_MIN.as_bytes()), Some(Syntax::UblInvoice));
        let cn = br#"<?xml version="1.0"?><x:CreditNote xmlns:x="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"></x:CreditNote>"#;
        assert_eq!(sniff(cn), Some(Syntax::UblCreditNote));
        // Invoice in the CreditNote namespace, and the reverse: neither.
        assert_eq!(
            sniff(
                b"<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2\"/>"
            ),
            None
        );
        assert_eq!(sniff(b"<html><head>"), None);
    }

    #[test]
    fn minimal_invoice() {
        let e = parse(INVOICE_MIN.as_bytes()).unwrap();
        assert_eq!(e.syntax, Syntax::UblInvoice);
        let r = &e.result;
        assert_eq!(r.document.number.as_deref(), Some("INV-1"));
        assert_eq!(r.document.date.as_deref(), Some("2024-03-01"));
        assert_eq!(r.document.currency.as_deref(), Some("EUR"));
        assert_eq!(r.document_type.code, DocumentType::Invoice);
        assert_eq!(r.structure_type.code, StructureType::Text);
        assert_eq!(r.parties.seller.name.as_deref(), Some("Seller Ltd"));
        assert_eq!(r.totals.net.as_deref(), Some("100.00"));
        assert_eq!(r.totals.vat.as_deref(), Some("20.00"));
        assert_eq!(r.totals.total.as_deref(), Some("120.00"));
        assert_eq!(r.totals.payable.as_deref(), Some("120.00"));
        assert_eq!(r.confidence.fields.get("/totals/vat"), Some(&1.0));
    }
}
