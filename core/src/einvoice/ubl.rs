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
        out.address = postal_address(a);
    }
    let contact = p.child("Contact");
    out.phone = text(contact, &["Telephone"]);
    // The contact's e-mail, else an electronic address (BT-34 / BT-49) in the e-mail scheme.
    out.email = text(contact, &["ElectronicMail"]).or_else(|| {
        p.all("EndpointID")
            .find(|e| e.attr("schemeID") == Some("EM"))
            .and_then(|e| e.text())
            .map(str::to_string)
    });
    out
}

/// A UBL address (`PostalAddress`, `DeliveryLocation/Address`): street lines, postcode, city,
/// country.
fn postal_address(a: El<'_>) -> Option<String> {
    let mut lines: Vec<&str> = ["StreetName", "AdditionalStreetName"]
        .iter()
        .filter_map(|n| a.text_at(&[n]))
        .collect();
    lines.extend(
        a.all_at(&["AddressLine", "Line"])
            .into_iter()
            .filter_map(|l| l.text()),
    );
    address(
        &lines,
        a.text_at(&["PostalZone"]),
        a.text_at(&["CityName"]),
        a.text_at(&["Country", "IdentificationCode"]),
    )
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
        out.address = postal_address(a);
    }
    out
}

/// A note (BT-22) without the subject code (BT-21) that UBL puts in front of it as `#AAI#`
/// (the EN 16931 UBL binding, used by XRechnung and Peppol).
fn note_text(n: &str) -> String {
    let b = n.as_bytes();
    if b.len() >= 5 && b[0] == b'#' && b[4] == b'#' && b[1..4].iter().all(u8::is_ascii_uppercase) {
        n[5..].trim().to_string()
    } else {
        n.to_string()
    }
}

/// An account by its id: an IBAN by its shape (country, check digits, up to 30 letters or
/// digits), valid or not (the validation stage checks it like any other IBAN), else an account
/// number.
fn account(id: &str, party: Option<PartyRole>) -> BankAccount {
    let compact = fill::compact_iban(id);
    let b = compact.as_bytes();
    let is_iban = (15..=34).contains(&b.len())
        && b[..2].iter().all(u8::is_ascii_uppercase)
        && b[2..4].iter().all(u8::is_ascii_digit)
        && b.iter().all(u8::is_ascii_alphanumeric);
    BankAccount {
        iban: is_iban.then_some(compact),
        account_number: (!is_iban).then(|| id.to_string()),
        party,
        ..BankAccount::default()
    }
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
        out.unit_price = fill::unit_price(v, b).map(fill::dec_str);
    }
    let unit = qty
        .and_then(|q| q.attr("unitCode"))
        .or_else(|| base.and_then(|b| b.attr("unitCode")));
    if let Some(code) = unit.filter(|u| !u.is_empty()) {
        out.unit = Some(super::codes::unit_name(code));
        out.unit_code = Some(code.to_string());
    }
    let acs: Vec<AllowanceCharge> = l.all("AllowanceCharge").map(allowance_charge).collect();
    out.discount_rate = fill::line_discount_rate(&acs);
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
    // BT-9: the Invoice's DueDate; a CreditNote states it in PaymentMeans (or PaymentTerms).
    r.document.due_date = date(root.text_at(&["DueDate"]), None).or_else(|| {
        ["PaymentMeans", "PaymentTerms"].iter().find_map(|place| {
            root.all(place)
                .find_map(|m| date(m.text_at(&["PaymentDueDate"]), None))
        })
    });
    r.extra_fields.notes = root
        .all("Note")
        .filter_map(|n| n.text())
        .map(note_text)
        .filter(|n| !n.is_empty())
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

    // Bank accounts: the seller's, or the payee's where a payee is named; the buyer's of a
    // direct debit.
    let owner = if payee.is_some() {
        PartyRole::Other
    } else {
        PartyRole::Seller
    };
    let mut accounts = fill::Accounts::default();
    for m in root.all("PaymentMeans") {
        if let Some(acct) = m.child("PayeeFinancialAccount")
            && let Some(id) = acct.text_at(&["ID"])
        {
            let branch = acct.child("FinancialInstitutionBranch");
            accounts.push(BankAccount {
                bank_name: branch
                    .and_then(|b| {
                        b.text_at(&["FinancialInstitution", "Name"])
                            .or_else(|| b.text_at(&["Name"]))
                    })
                    .map(str::to_string),
                swift_bic: branch
                    .and_then(|b| {
                        b.text_at(&["FinancialInstitution", "ID"])
                            .or_else(|| b.text_at(&["ID"]))
                    })
                    .map(str::to_string),
                ..account(id, Some(owner))
            });
        }
        // The buyer's account of a direct debit (BT-91).
        if let Some(id) = m.text_at(&["PaymentMandate", "PayerFinancialAccount", "ID"]) {
            accounts.push(account(id, Some(PartyRole::Buyer)));
        }
    }
    r.bank_accounts = accounts.list;
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
    if r.document.currency.is_none() {
        r.document.currency = m
            .and_then(|m| m.child("PayableAmount"))
            .and_then(|p| p.attr("currencyID"))
            .filter(|c| !c.is_empty())
            .map(str::to_string);
    }
    r.totals = fill::totals(&sums);

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
    use crate::result::{DocumentType, PartyRole, StructureType};
    use rust_decimal::Decimal;

    fn d(s: &str) -> Option<Decimal> {
        Some(s.parse().unwrap())
    }

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

    /// A Peppol BIS 3 invoice with odd prefixes (`inv:` root, `k:` aggregates, `b:` basics):
    /// every party role, two accounts, document and line allowances/charges, two TaxTotals (the
    /// second in the tax currency), a base quantity, line periods.
    const INVOICE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<inv:Invoice xmlns:inv="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:k="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:b="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<b:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</b:CustomizationID>
<b:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</b:ProfileID>
<b:ID>Snippet1</b:ID>
<b:IssueDate>2017-11-13</b:IssueDate>
<b:DueDate>2017-12-01</b:DueDate>
<b:InvoiceTypeCode>380</b:InvoiceTypeCode>
<b:Note>Please note our new phone number 33 44 55 66</b:Note>
<b:Note>#AAI#Second note</b:Note>
<b:Note>#ADU#</b:Note>
<b:DocumentCurrencyCode>EUR</b:DocumentCurrencyCode>
<b:TaxCurrencyCode>SEK</b:TaxCurrencyCode>
<b:BuyerReference>abs1234</b:BuyerReference>
<k:InvoicePeriod><b:StartDate>2017-11-01</b:StartDate><b:EndDate>2017-11-30</b:EndDate></k:InvoicePeriod>
<k:OrderReference><b:ID>PO-0001</b:ID></k:OrderReference>
<k:ContractDocumentReference><b:ID>Contract321</b:ID></k:ContractDocumentReference>
<k:AccountingSupplierParty><k:Party>
 <b:EndpointID schemeID="0088">7300010000001</b:EndpointID>
 <k:PartyName><b:Name>SupplierTradingName Ltd.</b:Name></k:PartyName>
 <k:PostalAddress><b:StreetName>Main street 1</b:StreetName><b:AdditionalStreetName>Postbox 123</b:AdditionalStreetName><b:CityName>London</b:CityName><b:PostalZone>GB 123 EW</b:PostalZone><k:Country><b:IdentificationCode>GB</b:IdentificationCode></k:Country></k:PostalAddress>
 <k:PartyTaxScheme><b:CompanyID>GB1232434</b:CompanyID><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:PartyTaxScheme>
 <k:PartyTaxScheme><b:CompanyID>123/456/7890</b:CompanyID><k:TaxScheme><b:ID>FC</b:ID></k:TaxScheme></k:PartyTaxScheme>
 <k:PartyLegalEntity><b:RegistrationName>SupplierOfficialName Ltd</b:RegistrationName><b:CompanyID>GB983294</b:CompanyID></k:PartyLegalEntity>
 <k:Contact><b:Name>John</b:Name><b:Telephone>+44 20 1234</b:Telephone><b:ElectronicMail>john@supplier.example</b:ElectronicMail></k:Contact>
</k:Party></k:AccountingSupplierParty>
<k:AccountingCustomerParty><k:Party>
 <k:PartyName><b:Name>BuyerTradingName AS</b:Name></k:PartyName>
 <k:PostalAddress><k:AddressLine><b:Line>Hovedgatan 32</b:Line></k:AddressLine><b:CityName>Stockholm</b:CityName><b:PostalZone>456 34</b:PostalZone><k:Country><b:IdentificationCode>SE</b:IdentificationCode></k:Country></k:PostalAddress>
 <k:PartyTaxScheme><b:CompanyID>SE4598375937</b:CompanyID><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:PartyTaxScheme>
 <k:PartyLegalEntity><b:RegistrationName>Buyer Official Name</b:RegistrationName><b:CompanyID schemeID="0183">39937423947</b:CompanyID></k:PartyLegalEntity>
</k:Party></k:AccountingCustomerParty>
<k:PayeeParty><k:PartyIdentification><b:ID>FR932874294</b:ID></k:PartyIdentification><k:PartyName><b:Name>Payee Factoring</b:Name></k:PartyName><k:PartyLegalEntity><b:CompanyID>FR932874294</b:CompanyID></k:PartyLegalEntity></k:PayeeParty>
<k:TaxRepresentativeParty><k:PartyName><b:Name>TaxRepresentative Name</b:Name></k:PartyName><k:PostalAddress><b:CityName>Oslo</b:CityName><k:Country><b:IdentificationCode>NO</b:IdentificationCode></k:Country></k:PostalAddress><k:PartyTaxScheme><b:CompanyID>NO999888777MVA</b:CompanyID><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:PartyTaxScheme></k:TaxRepresentativeParty>
<k:Delivery><b:ActualDeliveryDate>2017-11-01</b:ActualDeliveryDate><k:DeliveryLocation><k:Address><b:StreetName>Delivery street 2</b:StreetName><b:CityName>Stockholm</b:CityName><b:PostalZone>86756</b:PostalZone><k:Country><b:IdentificationCode>SE</b:IdentificationCode></k:Country></k:Address></k:DeliveryLocation><k:DeliveryParty><k:PartyName><b:Name>Delivery party Name</b:Name></k:PartyName></k:DeliveryParty></k:Delivery>
<k:PaymentMeans><b:PaymentMeansCode name="Credit transfer">30</b:PaymentMeansCode><b:PaymentID>Snippet1</b:PaymentID><k:PayeeFinancialAccount><b:ID>IBAN32423940</b:ID><b:Name>AccountName</b:Name><k:FinancialInstitutionBranch><b:ID>BIC324098</b:ID></k:FinancialInstitutionBranch></k:PayeeFinancialAccount></k:PaymentMeans>
<k:PaymentMeans><b:PaymentMeansCode>58</b:PaymentMeansCode><k:PayeeFinancialAccount><b:ID>GB29 NWBK 6016 1331 9268 19</b:ID><k:FinancialInstitutionBranch><b:ID>NWBKGB2L</b:ID><k:FinancialInstitution><b:Name>NatWest</b:Name></k:FinancialInstitution></k:FinancialInstitutionBranch></k:PayeeFinancialAccount></k:PaymentMeans>
<k:PaymentTerms><b:Note>Payment within 10 days, 2% discount</b:Note></k:PaymentTerms>
<k:AllowanceCharge><b:ChargeIndicator>true</b:ChargeIndicator><b:AllowanceChargeReasonCode>CG</b:AllowanceChargeReasonCode><b:AllowanceChargeReason>Cleaning</b:AllowanceChargeReason><b:MultiplierFactorNumeric>20</b:MultiplierFactorNumeric><b:Amount currencyID="EUR">200</b:Amount><b:BaseAmount currencyID="EUR">1000</b:BaseAmount><k:TaxCategory><b:ID>S</b:ID><b:Percent>25</b:Percent><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:TaxCategory></k:AllowanceCharge>
<k:AllowanceCharge><b:ChargeIndicator>false</b:ChargeIndicator><b:AllowanceChargeReasonCode>95</b:AllowanceChargeReasonCode><b:Amount currencyID="EUR">200</b:Amount><k:TaxCategory><b:ID>S</b:ID><b:Percent>25</b:Percent><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:TaxCategory></k:AllowanceCharge>
<k:TaxTotal><b:TaxAmount currencyID="SEK">12000.00</b:TaxAmount></k:TaxTotal>
<k:TaxTotal><b:TaxAmount currencyID="EUR">1225.00</b:TaxAmount>
 <k:TaxSubtotal><b:TaxableAmount currencyID="EUR">4900.00</b:TaxableAmount><b:TaxAmount currencyID="EUR">1225.00</b:TaxAmount><k:TaxCategory><b:ID>S</b:ID><b:Percent>25</b:Percent><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:TaxCategory></k:TaxSubtotal>
 <k:TaxSubtotal><b:TaxableAmount currencyID="EUR">1000.00</b:TaxableAmount><b:TaxAmount currencyID="EUR">0.00</b:TaxAmount><k:TaxCategory><b:ID>E</b:ID><b:Percent>0</b:Percent><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:TaxCategory></k:TaxSubtotal>
</k:TaxTotal>
<k:LegalMonetaryTotal><b:LineExtensionAmount currencyID="EUR">5900.00</b:LineExtensionAmount><b:TaxExclusiveAmount currencyID="EUR">5900.00</b:TaxExclusiveAmount><b:TaxInclusiveAmount currencyID="EUR">7125.00</b:TaxInclusiveAmount><b:AllowanceTotalAmount currencyID="EUR">200.00</b:AllowanceTotalAmount><b:ChargeTotalAmount currencyID="EUR">200.00</b:ChargeTotalAmount><b:PrepaidAmount currencyID="EUR">1000.00</b:PrepaidAmount><b:PayableRoundingAmount currencyID="EUR">0.00</b:PayableRoundingAmount><b:PayableAmount currencyID="EUR">6125.00</b:PayableAmount></k:LegalMonetaryTotal>
<k:InvoiceLine><b:ID>1</b:ID><b:InvoicedQuantity unitCode="DAY">7</b:InvoicedQuantity><b:LineExtensionAmount currencyID="EUR">2800.00</b:LineExtensionAmount>
 <k:InvoicePeriod><b:StartDate>2017-10-20</b:StartDate><b:EndDate>2017-10-27</b:EndDate></k:InvoicePeriod>
 <k:AllowanceCharge><b:ChargeIndicator>false</b:ChargeIndicator><b:AllowanceChargeReason>Line discount</b:AllowanceChargeReason><b:Amount currencyID="EUR">101.00</b:Amount></k:AllowanceCharge>
 <k:Item><b:Description>Description of item</b:Description><b:Name>item name</b:Name><k:SellersItemIdentification><b:ID>97iugug876</b:ID></k:SellersItemIdentification><k:ClassifiedTaxCategory><b:ID>S</b:ID><b:Percent>25.0</b:Percent><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:ClassifiedTaxCategory></k:Item>
 <k:Price><b:PriceAmount currencyID="EUR">410</b:PriceAmount><b:BaseQuantity unitCode="DAY">1</b:BaseQuantity></k:Price>
</k:InvoiceLine>
<k:InvoiceLine><b:ID>2</b:ID><b:InvoicedQuantity unitCode="H87">1000</b:InvoicedQuantity><b:LineExtensionAmount currencyID="EUR">3100.00</b:LineExtensionAmount>
 <k:Item><b:Name>item name 2</b:Name><k:ClassifiedTaxCategory><b:ID>S</b:ID><b:Percent>25</b:Percent><k:TaxScheme><b:ID>VAT</b:ID></k:TaxScheme></k:ClassifiedTaxCategory></k:Item>
 <k:Price><b:PriceAmount currencyID="EUR">31.00</b:PriceAmount><b:BaseQuantity unitCode="H87">10</b:BaseQuantity></k:Price>
</k:InvoiceLine>
</inv:Invoice>"#;

    #[test]
    fn full_invoice_with_odd_prefixes() {
        let e = parse(INVOICE.as_bytes()).unwrap();
        assert_eq!(e.syntax, Syntax::UblInvoice);
        assert_eq!(
            e.guideline.as_deref(),
            Some("urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0")
        );
        let r = &e.result;
        assert_eq!(r.document.number.as_deref(), Some("Snippet1"));
        assert_eq!(r.document.date.as_deref(), Some("2017-11-13"));
        assert_eq!(r.document.due_date.as_deref(), Some("2017-12-01"));
        assert_eq!(r.document.currency.as_deref(), Some("EUR"));
        assert_eq!(r.document_type.code, DocumentType::Invoice);
        assert_eq!(r.structure_type.code, StructureType::Table);
        let s = &r.parties.seller;
        // PartyName first; the legal name is the fallback.
        assert_eq!(s.name.as_deref(), Some("SupplierTradingName Ltd."));
        assert_eq!(s.vat_id.as_deref(), Some("GB1232434"));
        assert_eq!(s.tax_id.as_deref(), Some("123/456/7890"));
        assert_eq!(s.registration_id.as_deref(), Some("GB983294"));
        assert_eq!(
            s.address.as_deref(),
            Some("Main street 1, Postbox 123, GB 123 EW London, GB")
        );
        assert_eq!(s.phone.as_deref(), Some("+44 20 1234"));
        assert_eq!(s.email.as_deref(), Some("john@supplier.example"));
        let b = &r.parties.buyer;
        assert_eq!(b.name.as_deref(), Some("BuyerTradingName AS"));
        assert_eq!(b.vat_id.as_deref(), Some("SE4598375937"));
        assert_eq!(b.registration_id.as_deref(), Some("39937423947"));
        assert_eq!(
            b.address.as_deref(),
            Some("Hovedgatan 32, 456 34 Stockholm, SE")
        );
        let roles: Vec<&str> = r.parties.other.iter().map(|o| o.role.as_str()).collect();
        assert_eq!(roles, ["payee", "tax_representative", "delivery"]);
        assert_eq!(
            r.parties.other[0].party.name.as_deref(),
            Some("Payee Factoring")
        );
        assert_eq!(
            r.parties.other[1].party.vat_id.as_deref(),
            Some("NO999888777MVA")
        );
        assert_eq!(
            r.parties.other[2].party.name.as_deref(),
            Some("Delivery party Name")
        );
        assert_eq!(
            r.parties.other[2].party.address.as_deref(),
            Some("Delivery street 2, 86756 Stockholm, SE")
        );
        // Accounts: not an IBAN → account number; an IBAN compacted; the payee's.
        assert_eq!(r.bank_accounts.len(), 2);
        assert_eq!(r.bank_accounts[0].iban, None);
        assert_eq!(
            r.bank_accounts[0].account_number.as_deref(),
            Some("IBAN32423940")
        );
        assert_eq!(r.bank_accounts[0].swift_bic.as_deref(), Some("BIC324098"));
        assert_eq!(
            r.bank_accounts[1].iban.as_deref(),
            Some("GB29NWBK60161331926819")
        );
        assert_eq!(r.bank_accounts[1].swift_bic.as_deref(), Some("NWBKGB2L"));
        assert_eq!(r.bank_accounts[1].bank_name.as_deref(), Some("NatWest"));
        assert!(
            r.bank_accounts
                .iter()
                .all(|b| b.party == Some(PartyRole::Other))
        );
        assert_eq!(
            r.extra_fields.payment_terms.as_deref(),
            Some("Payment within 10 days, 2% discount")
        );
        // Subject codes in front of a note are not its text.
        assert_eq!(
            r.extra_fields.notes,
            [
                "Please note our new phone number 33 44 55 66",
                "Second note"
            ]
        );
        assert_eq!(r.extra_fields.order_number.as_deref(), Some("PO-0001"));
        assert_eq!(
            r.extra_fields.contract.number.as_deref(),
            Some("Contract321")
        );
        // The document period wins over the lines' and the delivery date.
        assert_eq!(r.extra_fields.period.from.as_deref(), Some("2017-11-01"));
        assert_eq!(r.extra_fields.period.to.as_deref(), Some("2017-11-30"));

        // VAT from the TaxTotal in the document currency, with its subtotals.
        assert_eq!(r.totals.vat.as_deref(), Some("1225.00"));
        assert_eq!(r.taxes.len(), 2);
        assert_eq!(r.taxes[0].rate.as_deref(), Some("25"));
        assert_eq!(r.taxes[0].base.as_deref(), Some("4900.00"));
        assert_eq!(r.taxes[1].amount.as_deref(), Some("0.00"));
        assert_eq!(e.vat_breakdown[1].category.as_deref(), Some("E"));
        assert_eq!(r.totals.net.as_deref(), Some("5900.00"));
        assert_eq!(r.totals.total.as_deref(), Some("7125.00"));
        assert_eq!(r.totals.prepaid.as_deref(), Some("1000.00"));
        assert_eq!(r.totals.payable.as_deref(), Some("6125.00"));
        assert_eq!(r.totals.discount.as_deref(), Some("200.00"));
        assert_eq!(e.sums.charge_total, d("200.00"));
        assert_eq!(e.sums.rounding, d("0.00"));
        assert_eq!(e.sums.line_total, d("5900.00"));

        // Document-level allowances and charges only.
        assert_eq!(e.allowance_charges.len(), 2);
        let c = &e.allowance_charges[0];
        assert!(c.charge);
        assert_eq!(c.percent, d("20"));
        assert_eq!(c.base, d("1000"));
        assert_eq!(c.vat_category.as_deref(), Some("S"));
        assert_eq!(c.reason.as_deref(), Some("Cleaning"));
        assert!(!e.allowance_charges[1].charge);
        assert_eq!(e.allowance_charges[1].reason.as_deref(), Some("95"));

        let l = &r.line_items[0];
        assert_eq!(l.position, Some(1));
        assert_eq!(
            l.description.as_deref(),
            Some("item name Description of item")
        );
        assert_eq!(l.sku.as_deref(), Some("97iugug876"));
        assert_eq!(l.quantity.as_deref(), Some("7"));
        assert_eq!(l.unit.as_deref(), Some("day"));
        assert_eq!(l.unit_code.as_deref(), Some("DAY"));
        assert_eq!(l.unit_price.as_deref(), Some("410"));
        assert_eq!(l.vat_rate.as_deref(), Some("25.0"));
        assert_eq!(l.amount.as_deref(), Some("2800.00"));
        // 31.00 per 10 pieces.
        assert_eq!(r.line_items[1].unit_price.as_deref(), Some("3.10"));
        assert_eq!(e.line_nets, [d("2800.00"), d("3100.00")]);
        assert_eq!(
            r.confidence.fields.get("/line_items/1/unit_price"),
            Some(&1.0)
        );
        assert_eq!(
            r.confidence.fields.get("/parties/other/2/address"),
            Some(&1.0)
        );
    }

    /// A CreditNote (default namespace for the root) with a negative and a positive line, the
    /// due date in PaymentMeans, the seller's name only as its legal name.
    const CREDIT_NOTE: &str = r#"<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
<cbc:ID>CN-5</cbc:ID>
<cbc:IssueDate>2024-05-02</cbc:IssueDate>
<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>
<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Elektro Weber GmbH</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="EM">buyer@cafe.example</cbc:EndpointID><cac:PartyName><cbc:Name>Café Sonnenschein</cbc:Name></cac:PartyName></cac:Party></cac:AccountingCustomerParty>
<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cbc:PaymentDueDate>2024-05-16</cbc:PaymentDueDate><cac:PayeeFinancialAccount><cbc:ID>DE89370400440532013000</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
<cac:PaymentMeans><cbc:PaymentMeansCode>59</cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>M-1</cbc:ID><cac:PayerFinancialAccount><cbc:ID>DE02 1203 0000 0000 2020 51</cbc:ID></cac:PayerFinancialAccount></cac:PaymentMandate></cac:PaymentMeans>
<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">100.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">119.00</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">119.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
<cac:CreditNoteLine><cbc:ID>1</cbc:ID><cbc:CreditedQuantity unitCode="H87">3</cbc:CreditedQuantity><cbc:LineExtensionAmount currencyID="EUR">150.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Returned panel</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">50.00</cbc:PriceAmount></cac:Price></cac:CreditNoteLine>
<cac:CreditNoteLine><cbc:ID>2</cbc:ID><cbc:CreditedQuantity unitCode="C62">-1</cbc:CreditedQuantity><cbc:LineExtensionAmount currencyID="EUR">-50.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Restocking fee</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">50.00</cbc:PriceAmount></cac:Price></cac:CreditNoteLine>
</CreditNote>"#;

    #[test]
    fn credit_note_signs_as_stated() {
        let e = parse(CREDIT_NOTE.as_bytes()).unwrap();
        assert_eq!(e.syntax, Syntax::UblCreditNote);
        let r = &e.result;
        assert_eq!(r.document_type.code, DocumentType::CreditNote);
        assert_eq!(r.document.due_date.as_deref(), Some("2024-05-16"));
        assert_eq!(r.parties.seller.name.as_deref(), Some("Elektro Weber GmbH"));
        assert_eq!(r.parties.buyer.name.as_deref(), Some("Café Sonnenschein"));
        assert_eq!(
            r.bank_accounts[0].iban.as_deref(),
            Some("DE89370400440532013000")
        );
        assert_eq!(r.bank_accounts[0].party, Some(PartyRole::Seller));
        assert_eq!(r.parties.buyer.email.as_deref(), Some("buyer@cafe.example"));
        assert_eq!(r.bank_accounts.len(), 2);
        assert_eq!(
            r.bank_accounts[1].iban.as_deref(),
            Some("DE02120300000000202051")
        );
        assert_eq!(r.bank_accounts[1].party, Some(PartyRole::Buyer));
        // An IBAN with a wrong check digit is still the IBAN (validation flags it).
        let x = CREDIT_NOTE.replace("DE89370400440532013000", "DE00370400440532013000");
        let e2 = parse(x.as_bytes()).unwrap();
        assert_eq!(
            e2.result.bank_accounts[0].iban.as_deref(),
            Some("DE00370400440532013000")
        );
        // Amounts keep the signs the XML states: positive totals owed back, one negative line.
        assert_eq!(r.totals.total.as_deref(), Some("119.00"));
        assert_eq!(r.line_items[0].quantity.as_deref(), Some("3"));
        assert_eq!(r.line_items[0].amount.as_deref(), Some("150.00"));
        assert_eq!(r.line_items[1].quantity.as_deref(), Some("-1"));
        assert_eq!(r.line_items[1].amount.as_deref(), Some("-50.00"));
        assert_eq!(r.line_items[1].unit.as_deref(), Some("unit"));
        assert_eq!(e.line_nets, [d("150.00"), d("-50.00")]);
        assert_eq!(e.sums.line_total, d("100.00"));
        // The due date in the payment terms; the currency from the amounts.
        let x = CREDIT_NOTE
            .replace(
                "<cbc:PaymentDueDate>2024-05-16</cbc:PaymentDueDate>",
                "",
            )
            .replace(
                "<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>",
                "<cac:PaymentTerms><cbc:PaymentDueDate>2024-05-20</cbc:PaymentDueDate></cac:PaymentTerms>",
            );
        let e = parse(x.as_bytes()).unwrap();
        assert_eq!(e.result.document.due_date.as_deref(), Some("2024-05-20"));
        assert_eq!(e.result.document.currency.as_deref(), Some("EUR"));
        // Without a type code, the CreditNote root says credit note.
        let x = CREDIT_NOTE.replace("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>", "");
        let e = parse(x.as_bytes()).unwrap();
        assert_eq!(e.result.document_type.code, DocumentType::CreditNote);
        // A stated negative total stays negative.
        let x = CREDIT_NOTE.replace(">119.00<", ">-119.00<");
        let e = parse(x.as_bytes()).unwrap();
        assert_eq!(e.result.totals.total.as_deref(), Some("-119.00"));
        assert_eq!(e.result.totals.payable.as_deref(), Some("-119.00"));
    }

    #[test]
    fn hostile_ubl_is_refused() {
        use crate::ErrorCode;
        // Cut after a complete element: "ends inside <Invoice> (truncated?)".
        let at = INVOICE.find("</k:LegalMonetaryTotal>").unwrap();
        let cut = &INVOICE.as_bytes()[..at];
        assert_eq!(sniff(cut), Some(Syntax::UblInvoice));
        let err = parse(cut).unwrap_err();
        assert_eq!(err.code(), ErrorCode::CorruptFile);
        assert!(err.to_string().contains("truncated"), "{err}");
        // Cut anywhere.
        for at in (0..INVOICE.len()).step_by(97) {
            let err = parse(&INVOICE.as_bytes()[..at]).unwrap_err();
            assert_eq!(err.code(), ErrorCode::CorruptFile, "cut at {at}: {err}");
        }
        let ext = INVOICE.replace(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<?xml version=\"1.0\"?><!DOCTYPE inv:Invoice [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>",
        );
        let err = parse(ext.as_bytes()).unwrap_err();
        assert_eq!(err.code(), ErrorCode::CorruptFile);
        assert!(err.to_string().contains("DOCTYPE"), "{err}");
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
