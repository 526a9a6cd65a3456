//! UN/CEFACT Cross Industry Invoice: ZUGFeRD 1.0 (`CrossIndustryDocument`, D13B-based) and
//! D16B `CrossIndustryInvoice` (ZUGFeRD 2.x / Factur-X MINIMUM, BASIC WL, BASIC, EN 16931,
//! EXTENDED; XRechnung CII) into an [`EInvoice`].
//!
//! The two versions name the same places differently (`HeaderExchangedDocument` /
//! `ExchangedDocument`, `ApplicableSupplyChainTradeSettlement` /
//! `ApplicableHeaderTradeSettlement`, `ApplicablePercent` / `RateApplicablePercent`, reference
//! `ID` / `IssuerAssignedID` ...): each place is looked up under either name. Everything is found
//! by its path from the root, so a line's allowances, taxes and periods are never taken for the
//! document's.
//!
//! EXTENDED: the VAT total (BT-110) is the `TaxTotalAmount` in the invoice currency (the one
//! whose `currencyID` is `InvoiceCurrencyCode`, or the only one); sub-lines are line items like
//! the others, and the net amounts of `GROUP` and `INFORMATION` lines (whose amounts are the sum
//! of, or beside, the detail lines) stay out of [`EInvoice::line_nets`].

use super::fill::{self, address, amount, date, decimal};
use super::xml::El;
use super::{AllowanceCharge, EInvoice, Sums, Syntax, VatBreakdown};
use crate::result::{BankAccount, DocumentResult, LineItem, OtherParty, Party, PartyRole, TaxLine};

/// The first child under any of the names.
fn pick<'a>(el: El<'a>, names: &[&str]) -> Option<El<'a>> {
    names.iter().find_map(|n| el.child(n))
}

/// The text of the first child with text under any of the names.
fn pick_text<'a>(el: El<'a>, names: &[&str]) -> Option<&'a str> {
    names.iter().find_map(|n| el.text_at(&[n]))
}

/// A CII date element (`IssueDateTime` ...): its `DateTimeString` (format 102) or, in a few
/// ZUGFeRD 1.0 places, its own text.
fn cii_date(el: Option<El<'_>>) -> Option<String> {
    let el = el?;
    match el.child("DateTimeString") {
        Some(d) => date(d.text(), d.attr("format")),
        None => date(el.text(), None),
    }
}

const RATE: &[&str] = &["RateApplicablePercent", "ApplicablePercent"];
const REF_ID: &[&str] = &["IssuerAssignedID", "ID"];

fn party(p: El<'_>) -> Party {
    let mut out = Party {
        name: p.text_at(&["Name"]).map(str::to_string),
        registration_id: p
            .text_at(&["SpecifiedLegalOrganization", "ID"])
            .map(str::to_string),
        ..Party::default()
    };
    for id in p.all_at(&["SpecifiedTaxRegistration", "ID"]) {
        let Some(v) = id.text() else { continue };
        let slot = match id.attr("schemeID") {
            Some("VA") => &mut out.vat_id,
            Some("FC") => &mut out.tax_id,
            // No scheme: an id with a country prefix is a VAT id.
            _ if v.len() > 2 && v.as_bytes()[..2].iter().all(u8::is_ascii_uppercase) => {
                &mut out.vat_id
            }
            _ => &mut out.tax_id,
        };
        if slot.is_none() {
            *slot = Some(v.to_string());
        }
    }
    if let Some(a) = p.child("PostalTradeAddress") {
        let lines: Vec<&str> = ["LineOne", "LineTwo", "LineThree"]
            .iter()
            .filter_map(|n| a.text_at(&[n]))
            .collect();
        out.address = address(
            &lines,
            a.text_at(&["PostcodeCode"]),
            a.text_at(&["CityName"]),
            a.text_at(&["CountryID"]),
        );
    }
    out.phone = p
        .text_at(&[
            "DefinedTradeContact",
            "TelephoneUniversalCommunication",
            "CompleteNumber",
        ])
        .map(str::to_string);
    out.email = p
        .text_at(&[
            "DefinedTradeContact",
            "EmailURIUniversalCommunication",
            "URIID",
        ])
        .or_else(|| {
            p.all_at(&["URIUniversalCommunication", "URIID"])
                .into_iter()
                .filter(|u| {
                    u.attr("schemeID") == Some("EM") || u.text().is_some_and(|t| t.contains('@'))
                })
                .find_map(|u| u.text())
        })
        .map(str::to_string);
    out
}

fn tax_of(t: El<'_>) -> VatBreakdown {
    VatBreakdown {
        category: t.text_at(&["CategoryCode"]).map(str::to_string),
        rate: decimal(pick_text(t, RATE)),
        base: decimal(t.text_at(&["BasisAmount"])),
        amount: decimal(t.text_at(&["CalculatedAmount"])),
    }
}

fn allowance_charge(a: El<'_>) -> AllowanceCharge {
    let tax = a.child("CategoryTradeTax");
    AllowanceCharge {
        charge: fill::boolean(
            a.text_at(&["ChargeIndicator", "Indicator"])
                .or_else(|| a.text_at(&["ChargeIndicator"])),
        )
        .unwrap_or(false),
        amount: decimal(a.text_at(&["ActualAmount"])),
        base: decimal(a.text_at(&["BasisAmount"])),
        percent: decimal(a.text_at(&["CalculationPercent"])),
        vat_category: tax
            .and_then(|t| t.text_at(&["CategoryCode"]))
            .map(str::to_string),
        vat_rate: tax.and_then(|t| decimal(pick_text(t, RATE))),
        reason: a.text_at(&["Reason"]).map(str::to_string),
    }
}

/// A ZUGFeRD 1.0 logistics service charge (`SpecifiedLogisticsServiceCharge`): a document-level
/// charge that counts into the charge total.
fn logistics_charge(c: El<'_>) -> AllowanceCharge {
    let tax = c.child("AppliedTradeTax");
    AllowanceCharge {
        charge: true,
        amount: decimal(c.text_at(&["AppliedAmount"])),
        vat_category: tax
            .and_then(|t| t.text_at(&["CategoryCode"]))
            .map(str::to_string),
        vat_rate: tax.and_then(|t| decimal(pick_text(t, RATE))),
        reason: c.text_at(&["Description"]).map(str::to_string),
        ..AllowanceCharge::default()
    }
}

fn period(el: Option<El<'_>>) -> (Option<String>, Option<String>) {
    match el {
        Some(p) => (
            cii_date(p.child("StartDateTime")),
            cii_date(p.child("EndDateTime")),
        ),
        None => (None, None),
    }
}

fn line(li: El<'_>, r: &mut DocumentResult) -> (Option<String>, Option<String>, bool) {
    let doc = li.child("AssociatedDocumentLineDocument");
    let product = li.child("SpecifiedTradeProduct");
    let agreement = pick(
        li,
        &[
            "SpecifiedLineTradeAgreement",
            "SpecifiedSupplyChainTradeAgreement",
        ],
    );
    let delivery = pick(
        li,
        &[
            "SpecifiedLineTradeDelivery",
            "SpecifiedSupplyChainTradeDelivery",
        ],
    );
    let settlement = pick(
        li,
        &[
            "SpecifiedLineTradeSettlement",
            "SpecifiedSupplyChainTradeSettlement",
        ],
    );
    let mut item = LineItem {
        position: fill::position(doc.and_then(|d| d.text_at(&["LineID"]))),
        description: product
            .and_then(|p| fill::description(p.text_at(&["Name"]), p.text_at(&["Description"]))),
        sku: product
            .and_then(|p| p.text_at(&["SellerAssignedID"]))
            .map(str::to_string),
        ..LineItem::default()
    };
    // BT-146 net price per BT-149 base quantity; without a net price, a gross price that no
    // price discount reduces is the net price.
    let price = agreement.and_then(|a| {
        a.child("NetPriceProductTradePrice").or_else(|| {
            a.child("GrossPriceProductTradePrice")
                .filter(|g| g.child("AppliedTradeAllowanceCharge").is_none())
        })
    });
    if let Some(p) = price
        && let Some(v) = decimal(p.text_at(&["ChargeAmount"]))
    {
        let base = decimal(p.text_at(&["BasisQuantity"]));
        item.unit_price = Some(fill::dec_str(fill::unit_price(v, base)));
    }
    let qty = delivery.and_then(|d| d.child("BilledQuantity"));
    item.quantity = amount(qty.and_then(|q| q.text()));
    let unit = qty.and_then(|q| q.attr("unitCode")).or_else(|| {
        price
            .and_then(|p| p.child("BasisQuantity"))
            .and_then(|b| b.attr("unitCode"))
    });
    if let Some(code) = unit.filter(|u| !u.is_empty()) {
        item.unit = Some(super::codes::unit_name(code));
        item.unit_code = Some(code.to_string());
    }
    let mut line_period = (None, None);
    if let Some(s) = settlement {
        item.vat_rate = s
            .all("ApplicableTradeTax")
            .find_map(|t| amount(pick_text(t, RATE)));
        item.amount = amount(
            pick(
                s,
                &[
                    "SpecifiedTradeSettlementLineMonetarySummation",
                    "SpecifiedTradeSettlementMonetarySummation",
                ],
            )
            .and_then(|m| m.text_at(&["LineTotalAmount"])),
        );
        line_period = period(s.child("BillingSpecifiedPeriod"));
    }
    let status = doc.and_then(|d| d.text_at(&["LineStatusReasonCode"]));
    let counted = !matches!(status, Some("GROUP" | "INFORMATION"));
    r.line_items.push(item);
    (line_period.0, line_period.1, counted)
}

/// Maps a CII document (root `CrossIndustryDocument` or `CrossIndustryInvoice`).
pub fn parse(root: El<'_>, syntax: Syntax) -> (EInvoice, Option<String>) {
    let mut r = DocumentResult::empty();
    let mut sums = Sums::default();
    let mut vat_breakdown = Vec::new();
    let mut line_nets = Vec::new();
    let mut allowance_charges = Vec::new();

    let context = pick(
        root,
        &[
            "ExchangedDocumentContext",
            "SpecifiedExchangedDocumentContext",
        ],
    );
    let guideline = context
        .and_then(|c| c.text_at(&["GuidelineSpecifiedDocumentContextParameter", "ID"]))
        .map(str::to_string);

    let doc = pick(root, &["ExchangedDocument", "HeaderExchangedDocument"]);
    let mut type_code = None;
    if let Some(d) = doc {
        r.document.number = d.text_at(&["ID"]).map(str::to_string);
        r.document.date = cii_date(d.child("IssueDateTime"));
        type_code = d.text_at(&["TypeCode"]).map(str::to_string);
        r.extra_fields.notes = d
            .all_at(&["IncludedNote", "Content"])
            .into_iter()
            .filter_map(|c| c.text())
            .map(str::to_string)
            .collect();
    }

    let tx = pick(
        root,
        &[
            "SupplyChainTradeTransaction",
            "SpecifiedSupplyChainTradeTransaction",
        ],
    );
    let Some(tx) = tx else {
        return (
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
        );
    };
    let agreement = pick(
        tx,
        &[
            "ApplicableHeaderTradeAgreement",
            "ApplicableSupplyChainTradeAgreement",
        ],
    );
    let delivery = pick(
        tx,
        &[
            "ApplicableHeaderTradeDelivery",
            "ApplicableSupplyChainTradeDelivery",
        ],
    );
    let settlement = pick(
        tx,
        &[
            "ApplicableHeaderTradeSettlement",
            "ApplicableSupplyChainTradeSettlement",
        ],
    );

    // Line items, with the line periods for a document that states no period of its own.
    let mut from: Option<String> = None;
    let mut to: Option<String> = None;
    for li in tx.all("IncludedSupplyChainTradeLineItem") {
        let (f, t, counted) = line(li, &mut r);
        if counted {
            let net = r.line_items.last().and_then(|i| i.amount.as_deref());
            line_nets.push(decimal(net));
        }
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

    // Parties.
    let mut other = Vec::new();
    if let Some(a) = agreement {
        if let Some(p) = a.child("SellerTradeParty") {
            r.parties.seller = party(p);
        }
        if let Some(p) = a.child("BuyerTradeParty") {
            r.parties.buyer = party(p);
        }
        r.extra_fields.order_number = a
            .child("BuyerOrderReferencedDocument")
            .and_then(|d| pick_text(d, REF_ID))
            .map(str::to_string);
        if let Some(c) = a.child("ContractReferencedDocument") {
            r.extra_fields.contract.number = pick_text(c, REF_ID).map(str::to_string);
            r.extra_fields.contract.date =
                cii_date(pick(c, &["FormattedIssueDateTime", "IssueDateTime"]));
        }
    }
    let payee = settlement.and_then(|s| s.child("PayeeTradeParty"));
    for (p, role) in [
        (payee, "payee"),
        (
            agreement.and_then(|a| a.child("SellerTaxRepresentativeTradeParty")),
            "tax_representative",
        ),
        (
            delivery.and_then(|d| d.child("ShipToTradeParty")),
            "delivery",
        ),
    ] {
        if let Some(p) = p.map(party).filter(|p| !p.is_empty()) {
            other.push(OtherParty {
                party: p,
                role: role.to_string(),
            });
        }
    }
    r.parties.other = other;

    let mut delivery_date = None;
    if let Some(d) = delivery {
        delivery_date = cii_date(d.at(&["ActualDeliverySupplyChainEvent", "OccurrenceDateTime"]));
    }

    if let Some(s) = settlement {
        let currency = s.text_at(&["InvoiceCurrencyCode"]);
        r.document.currency = currency.map(str::to_string);

        // Bank accounts: the seller's, or the payee's where a payee is named.
        let owner = if payee.is_some() {
            PartyRole::Other
        } else {
            PartyRole::Seller
        };
        for m in s.all("SpecifiedTradeSettlementPaymentMeans") {
            let acct = m.child("PayeePartyCreditorFinancialAccount");
            let inst = m.child("PayeeSpecifiedCreditorFinancialInstitution");
            let b = BankAccount {
                iban: acct
                    .and_then(|a| a.text_at(&["IBANID"]))
                    .map(|i| i.split_whitespace().collect::<String>().to_uppercase()),
                account_number: acct
                    .and_then(|a| a.text_at(&["ProprietaryID"]))
                    .map(str::to_string),
                bank_name: inst.and_then(|i| i.text_at(&["Name"])).map(str::to_string),
                bank_code: inst
                    .and_then(|i| i.text_at(&["GermanBankleitzahlID"]))
                    .map(str::to_string),
                swift_bic: inst.and_then(|i| i.text_at(&["BICID"])).map(str::to_string),
                party: Some(owner),
            };
            if (b.iban.is_some() || b.account_number.is_some()) && !r.bank_accounts.contains(&b) {
                r.bank_accounts.push(b);
            }
        }

        // Payment terms and due date.
        let terms: Vec<&str> = s
            .all_at(&["SpecifiedTradePaymentTerms", "Description"])
            .into_iter()
            .filter_map(|d| d.text())
            .collect();
        if !terms.is_empty() {
            r.extra_fields.payment_terms = Some(terms.join("; "));
        }
        r.document.due_date = s
            .all("SpecifiedTradePaymentTerms")
            .find_map(|t| cii_date(t.child("DueDateDateTime")));

        // VAT breakdown.
        for t in s.all("ApplicableTradeTax") {
            let v = tax_of(t);
            r.taxes.push(TaxLine {
                rate: v.rate.map(fill::dec_str),
                base: v.base.map(fill::dec_str),
                amount: v.amount.map(fill::dec_str),
            });
            vat_breakdown.push(v);
        }

        // Document-level allowances and charges (the lines' are inside their lines).
        for a in s.all("SpecifiedTradeAllowanceCharge") {
            allowance_charges.push(allowance_charge(a));
        }
        for c in s.all("SpecifiedLogisticsServiceCharge") {
            allowance_charges.push(logistics_charge(c));
        }

        let (pf, pt) = period(s.child("BillingSpecifiedPeriod"));
        if pf.is_some() || pt.is_some() {
            (from, to) = (pf, pt);
        }

        if let Some(m) = pick(
            s,
            &[
                "SpecifiedTradeSettlementHeaderMonetarySummation",
                "SpecifiedTradeSettlementMonetarySummation",
            ],
        ) {
            let d = |n: &str| decimal(m.text_at(&[n]));
            let taxes: Vec<El<'_>> = m.all("TaxTotalAmount").collect();
            let tax_total = match taxes.as_slice() {
                [only] => Some(*only),
                several => several
                    .iter()
                    .find(|t| currency.is_some() && t.attr("currencyID") == currency)
                    .copied(),
            };
            sums = Sums {
                line_total: d("LineTotalAmount"),
                allowance_total: d("AllowanceTotalAmount"),
                charge_total: d("ChargeTotalAmount"),
                tax_basis_total: d("TaxBasisTotalAmount"),
                tax_total: tax_total.and_then(|t| decimal(t.text())),
                grand_total: d("GrandTotalAmount"),
                prepaid: d("TotalPrepaidAmount"),
                rounding: d("RoundingAmount"),
                payable: d("DuePayableAmount"),
            };
            if r.document.currency.is_none() {
                r.document.currency = m
                    .child("GrandTotalAmount")
                    .and_then(|g| g.attr("currencyID"))
                    .filter(|c| !c.is_empty())
                    .map(str::to_string);
            }
        }
    }
    if from.is_none() && to.is_none() {
        (from, to) = (delivery_date.clone(), delivery_date);
    }
    r.extra_fields.period.from = from;
    r.extra_fields.period.to = to;
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
    use crate::ErrorCode;
    use crate::result::{DocumentType, PartyRole, StructureType};
    use rust_decimal::Decimal;

    fn d(s: &str) -> Option<Decimal> {
        Some(s.parse().unwrap())
    }

    const NS_CII: &str = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";

    /// Factur-X MINIMUM, with the usual rsm/ram/udt prefixes.
    const MINIMUM: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext>
    <ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>A1</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>
    <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:factur-x.eu:1p0:minimum</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
  </rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>FA-2024-001</ram:ID>
    <ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20240131</udt:DateTimeString></ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:BuyerReference>REF</ram:BuyerReference>
      <ram:SellerTradeParty>
        <ram:Name>Lieferant GmbH</ram:Name>
        <ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">HRB 1234</ram:ID></ram:SpecifiedLegalOrganization>
        <ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Kunde AG</ram:Name></ram:BuyerTradeParty>
      <ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>PO-77</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:TaxBasisTotalAmount>100.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">19.00</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>119.00</ram:GrandTotalAmount>
        <ram:DuePayableAmount>119.00</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>"#;

    #[test]
    fn sniffs_cii_and_zugferd1() {
        assert_eq!(sniff(MINIMUM.as_bytes()), Some(Syntax::Cii));
        let zf1 = br#"<?xml version="1.0"?><rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>"#;
        assert_eq!(sniff(zf1), Some(Syntax::Zugferd1));
        // A default namespace, a BOM, a comment before the root.
        let x = format!("\u{feff}<!-- hi --><CrossIndustryInvoice xmlns=\"{NS_CII}\"><a>");
        assert_eq!(sniff(x.as_bytes()), Some(Syntax::Cii));
        // The right name in the wrong namespace, or no namespace, is no e-invoice.
        assert_eq!(sniff(b"<CrossIndustryInvoice xmlns=\"urn:other\"/>"), None);
        assert_eq!(sniff(b"<CrossIndustryInvoice/>"), None);
        assert_eq!(sniff(b"%PDF-1.7"), None);
        // The root lies beyond the bounded prefix.
        let mut far = String::from("<?xml version=\"1.0\"?><!--");
        far.push_str(&" ".repeat(super::super::SNIFF_BYTES));
        far.push_str(&format!("--><CrossIndustryInvoice xmlns=\"{NS_CII}\"/>"));
        assert_eq!(sniff(far.as_bytes()), None);
    }

    #[test]
    fn minimum_profile() {
        let e = parse(MINIMUM.as_bytes()).unwrap();
        assert_eq!(e.syntax, Syntax::Cii);
        assert_eq!(e.guideline.as_deref(), Some("urn:factur-x.eu:1p0:minimum"));
        let r = &e.result;
        assert_eq!(r.document.number.as_deref(), Some("FA-2024-001"));
        assert_eq!(r.document.date.as_deref(), Some("2024-01-31"));
        assert_eq!(r.document.currency.as_deref(), Some("EUR"));
        assert_eq!(r.document_type.code, DocumentType::Invoice);
        assert_eq!(r.document_type.confidence, 1.0);
        assert_eq!(r.structure_type.code, StructureType::Text);
        assert_eq!(r.parties.seller.name.as_deref(), Some("Lieferant GmbH"));
        assert_eq!(r.parties.seller.vat_id.as_deref(), Some("DE123456789"));
        assert_eq!(
            r.parties.seller.registration_id.as_deref(),
            Some("HRB 1234")
        );
        assert_eq!(r.parties.seller.address.as_deref(), Some("DE"));
        assert_eq!(r.parties.buyer.name.as_deref(), Some("Kunde AG"));
        assert_eq!(r.extra_fields.order_number.as_deref(), Some("PO-77"));
        assert_eq!(r.totals.net.as_deref(), Some("100.00"));
        assert_eq!(r.totals.vat.as_deref(), Some("19.00"));
        assert_eq!(r.totals.total.as_deref(), Some("119.00"));
        assert_eq!(r.totals.payable.as_deref(), Some("119.00"));
        assert_eq!(r.totals.prepaid, None);
        assert!(r.line_items.is_empty() && r.taxes.is_empty() && r.bank_accounts.is_empty());
        assert_eq!(e.sums.grand_total, d("119.00"));
        assert_eq!(e.sums.line_total, None);
        assert!(e.line_nets.is_empty());
        let f = &r.confidence.fields;
        for k in [
            "/document/number",
            "/document/date",
            "/document/currency",
            "/totals/total",
            "/parties/seller/name",
            "/parties/seller/vat_id",
            "/extra_fields/order_number",
        ] {
            assert_eq!(f.get(k), Some(&1.0), "{k}");
        }
        assert!(!f.contains_key("/document/due_date"));
        assert!(!f.contains_key("/totals/prepaid"));
        assert_eq!(r.confidence.overall, 1.0);
        assert!(r.evidence.is_empty());
        let _ = PartyRole::Seller;
    }

    #[test]
    fn not_an_invoice_is_unsupported() {
        for x in [
            &b"<html><body>hi</body></html>"[..],
            b"<?xml version=\"1.0\"?><foo xmlns=\"urn:foo\"><bar/></foo>",
            b"<Invoice xmlns=\"urn:not-ubl\"/>",
        ] {
            let err = parse(x).unwrap_err();
            assert_eq!(err.code(), ErrorCode::UnsupportedFileType, "{err}");
            assert!(
                err.to_string().contains("not a CII or UBL e-invoice"),
                "{err}"
            );
        }
        assert!(parse(b"<html>").unwrap_err().to_string().contains("<html>"));
    }
}
