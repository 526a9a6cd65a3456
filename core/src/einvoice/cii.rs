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
        name: p
            .text_at(&["Name"])
            .or_else(|| p.text_at(&["SpecifiedLegalOrganization", "TradingBusinessName"]))
            .map(str::to_string),
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
        item.unit_price = fill::unit_price(v, base).map(fill::dec_str);
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
        let acs: Vec<AllowanceCharge> = s
            .all("SpecifiedTradeAllowanceCharge")
            .map(allowance_charge)
            .collect();
        item.discount_rate = fill::line_discount_rate(&acs);
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

        // Bank accounts: the seller's, or the payee's where a payee is named; the buyer's
        // account of a direct debit (BT-91).
        let owner = if payee.is_some() {
            PartyRole::Other
        } else {
            PartyRole::Seller
        };
        let mut accounts = fill::Accounts::default();
        for m in s.all("SpecifiedTradeSettlementPaymentMeans") {
            let acct = m.child("PayeePartyCreditorFinancialAccount");
            let inst = m.child("PayeeSpecifiedCreditorFinancialInstitution");
            let b = BankAccount {
                iban: acct
                    .and_then(|a| a.text_at(&["IBANID"]))
                    .map(fill::compact_iban),
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
            accounts.push(b);
            if let Some(debtor) = m.child("PayerPartyDebtorFinancialAccount") {
                accounts.push(BankAccount {
                    iban: debtor.text_at(&["IBANID"]).map(fill::compact_iban),
                    account_number: debtor.text_at(&["ProprietaryID"]).map(str::to_string),
                    party: Some(PartyRole::Buyer),
                    ..BankAccount::default()
                });
            }
        }
        r.bank_accounts = accounts.list;

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
    }

    /// ZUGFeRD 1.0 COMFORT: the D13B names (`HeaderExchangedDocument`, `ApplicablePercent`,
    /// reference `ID`, `SpecifiedLogisticsServiceCharge`), a base quantity of 10.
    const ZF1_COMFORT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
 <rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
 <rsm:HeaderExchangedDocument><ram:ID>471102</ram:ID><ram:Name>RECHNUNG</ram:Name><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20130305</udt:DateTimeString></ram:IssueDateTime>
  <ram:IncludedNote><ram:Content>Rechnung gem&#228;&#xDF; Bestellung vom 01.03.2013.</ram:Content></ram:IncludedNote>
  <ram:IncludedNote><ram:Content>Lieferant GmbH</ram:Content><ram:Content>Lieferantenstra&#223;e 20</ram:Content><ram:SubjectCode>REG</ram:SubjectCode></ram:IncludedNote></rsm:HeaderExchangedDocument>
 <rsm:SpecifiedSupplyChainTradeTransaction>
  <ram:ApplicableSupplyChainTradeAgreement>
   <ram:SellerTradeParty><ram:Name>Lieferant GmbH</ram:Name>
    <ram:DefinedTradeContact><ram:PersonName>Hans Muster</ram:PersonName><ram:TelephoneUniversalCommunication><ram:CompleteNumber>+49 80 1234</ram:CompleteNumber></ram:TelephoneUniversalCommunication><ram:EmailURIUniversalCommunication><ram:URIID>info@lieferant.de</ram:URIID></ram:EmailURIUniversalCommunication></ram:DefinedTradeContact>
    <ram:PostalTradeAddress><ram:PostcodeCode>80333</ram:PostcodeCode><ram:LineOne>Lieferantenstraße 20</ram:LineOne><ram:CityName>München</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
    <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">201/113/40209</ram:ID></ram:SpecifiedTaxRegistration>
    <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
   <ram:BuyerTradeParty><ram:ID>GE2020211</ram:ID><ram:Name>Kunden AG Mitte</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>69876</ram:PostcodeCode><ram:LineOne>Kundenstraße 15</ram:LineOne><ram:CityName>Frankfurt</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:BuyerTradeParty>
   <ram:BuyerOrderReferencedDocument><ram:IssueDateTime>2013-03-01</ram:IssueDateTime><ram:ID>B-1234</ram:ID></ram:BuyerOrderReferencedDocument>
   <ram:ContractReferencedDocument><ram:IssueDateTime>2012-12-01</ram:IssueDateTime><ram:ID>V-77</ram:ID></ram:ContractReferencedDocument>
  </ram:ApplicableSupplyChainTradeAgreement>
  <ram:ApplicableSupplyChainTradeDelivery><ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime><udt:DateTimeString format="102">20130304</udt:DateTimeString></ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent></ram:ApplicableSupplyChainTradeDelivery>
  <ram:ApplicableSupplyChainTradeSettlement>
   <ram:PaymentReference>471102</ram:PaymentReference>
   <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
   <ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>31</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE08 7004 0041 0000 0000 31</ram:IBANID></ram:PayeePartyCreditorFinancialAccount><ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>COBADEFFXXX</ram:BICID><ram:GermanBankleitzahlID>70040041</ram:GermanBankleitzahlID><ram:Name>Commerzbank</ram:Name></ram:PayeeSpecifiedCreditorFinancialInstitution></ram:SpecifiedTradeSettlementPaymentMeans>
   <ram:ApplicableTradeTax><ram:CalculatedAmount currencyID="EUR">19.25</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount currencyID="EUR">275.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>7.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
   <ram:ApplicableTradeTax><ram:CalculatedAmount currencyID="EUR">37.43</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount currencyID="EUR">197.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
   <ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:BasisAmount currencyID="EUR">10.00</ram:BasisAmount><ram:ActualAmount currencyID="EUR">1.00</ram:ActualAmount><ram:Reason>Sondernachlass</ram:Reason><ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>
   <ram:SpecifiedLogisticsServiceCharge><ram:Description>Versandkosten</ram:Description><ram:AppliedAmount currencyID="EUR">0.00</ram:AppliedAmount><ram:AppliedTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>7.00</ram:ApplicablePercent></ram:AppliedTradeTax></ram:SpecifiedLogisticsServiceCharge>
   <ram:SpecifiedTradePaymentTerms><ram:Description>Zahlbar innerhalb 30 Tagen netto bis 04.04.2013</ram:Description><ram:DueDateDateTime><udt:DateTimeString format="102">20130404</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
   <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">473.00</ram:LineTotalAmount><ram:ChargeTotalAmount currencyID="EUR">0.00</ram:ChargeTotalAmount><ram:AllowanceTotalAmount currencyID="EUR">1.00</ram:AllowanceTotalAmount><ram:TaxBasisTotalAmount currencyID="EUR">472.00</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">56.68</ram:TaxTotalAmount><ram:GrandTotalAmount currencyID="EUR">528.68</ram:GrandTotalAmount><ram:TotalPrepaidAmount currencyID="EUR">0.00</ram:TotalPrepaidAmount><ram:DuePayableAmount currencyID="EUR">528.68</ram:DuePayableAmount></ram:SpecifiedTradeSettlementMonetarySummation>
  </ram:ApplicableSupplyChainTradeSettlement>
  <ram:IncludedSupplyChainTradeLineItem>
   <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
   <ram:SpecifiedSupplyChainTradeAgreement><ram:GrossPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">9.90</ram:ChargeAmount><ram:BasisQuantity unitCode="C62">1.0000</ram:BasisQuantity></ram:GrossPriceProductTradePrice><ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">9.90</ram:ChargeAmount><ram:BasisQuantity unitCode="C62">1.0000</ram:BasisQuantity></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
   <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">20.0000</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
   <ram:SpecifiedSupplyChainTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">198.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
   <ram:SpecifiedTradeProduct><ram:GlobalID schemeID="0160">4012345001235</ram:GlobalID><ram:SellerAssignedID>TB100A4</ram:SellerAssignedID><ram:Name>Trennblätter A4</ram:Name></ram:SpecifiedTradeProduct>
  </ram:IncludedSupplyChainTradeLineItem>
  <ram:IncludedSupplyChainTradeLineItem>
   <ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID></ram:AssociatedDocumentLineDocument>
   <ram:SpecifiedSupplyChainTradeAgreement><ram:GrossPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">5.50</ram:ChargeAmount><ram:BasisQuantity unitCode="KGM">1</ram:BasisQuantity></ram:GrossPriceProductTradePrice><ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">55.00</ram:ChargeAmount><ram:BasisQuantity unitCode="KGM">10</ram:BasisQuantity></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
   <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="KGM">50.0000</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
   <ram:SpecifiedSupplyChainTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>7.00</ram:ApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">275.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
   <ram:SpecifiedTradeProduct><ram:SellerAssignedID>ZS997</ram:SellerAssignedID><ram:Name>Zitronensäure</ram:Name><ram:Description>100 ml</ram:Description></ram:SpecifiedTradeProduct>
  </ram:IncludedSupplyChainTradeLineItem>
 </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>"#;

    #[test]
    fn zugferd1_comfort() {
        let e = parse(ZF1_COMFORT.as_bytes()).unwrap();
        assert_eq!(e.syntax, Syntax::Zugferd1);
        assert_eq!(
            e.guideline.as_deref(),
            Some("urn:ferd:CrossIndustryDocument:invoice:1p0:comfort")
        );
        let r = &e.result;
        assert_eq!(r.document.number.as_deref(), Some("471102"));
        assert_eq!(r.document.date.as_deref(), Some("2013-03-05"));
        assert_eq!(r.document.due_date.as_deref(), Some("2013-04-04"));
        assert_eq!(r.document.currency.as_deref(), Some("EUR"));
        assert_eq!(r.document_type.code, DocumentType::Invoice);
        assert_eq!(r.structure_type.code, StructureType::Table);
        let s = &r.parties.seller;
        assert_eq!(s.name.as_deref(), Some("Lieferant GmbH"));
        assert_eq!(s.vat_id.as_deref(), Some("DE123456789"));
        assert_eq!(s.tax_id.as_deref(), Some("201/113/40209"));
        assert_eq!(
            s.address.as_deref(),
            Some("Lieferantenstraße 20, 80333 München, DE")
        );
        assert_eq!(s.phone.as_deref(), Some("+49 80 1234"));
        assert_eq!(s.email.as_deref(), Some("info@lieferant.de"));
        assert_eq!(
            r.parties.buyer.address.as_deref(),
            Some("Kundenstraße 15, 69876 Frankfurt, DE")
        );
        assert!(r.parties.other.is_empty());
        assert_eq!(
            r.extra_fields.notes,
            [
                "Rechnung gemäß Bestellung vom 01.03.2013.",
                "Lieferant GmbH",
                "Lieferantenstraße 20"
            ]
        );
        assert_eq!(r.extra_fields.order_number.as_deref(), Some("B-1234"));
        assert_eq!(r.extra_fields.contract.number.as_deref(), Some("V-77"));
        assert_eq!(r.extra_fields.contract.date.as_deref(), Some("2012-12-01"));
        // No billing period: the delivery date.
        assert_eq!(r.extra_fields.period.from.as_deref(), Some("2013-03-04"));
        assert_eq!(r.extra_fields.period.to.as_deref(), Some("2013-03-04"));
        assert_eq!(
            r.extra_fields.payment_terms.as_deref(),
            Some("Zahlbar innerhalb 30 Tagen netto bis 04.04.2013")
        );
        assert_eq!(r.bank_accounts.len(), 1);
        let b = &r.bank_accounts[0];
        assert_eq!(b.iban.as_deref(), Some("DE08700400410000000031"));
        assert_eq!(b.swift_bic.as_deref(), Some("COBADEFFXXX"));
        assert_eq!(b.bank_code.as_deref(), Some("70040041"));
        assert_eq!(b.bank_name.as_deref(), Some("Commerzbank"));
        assert_eq!(b.party, Some(PartyRole::Seller));

        assert_eq!(r.line_items.len(), 2);
        let l = &r.line_items[0];
        assert_eq!(l.position, Some(1));
        assert_eq!(l.description.as_deref(), Some("Trennblätter A4"));
        assert_eq!(l.sku.as_deref(), Some("TB100A4"));
        assert_eq!(l.quantity.as_deref(), Some("20.0000"));
        assert_eq!(l.unit.as_deref(), Some("unit"));
        assert_eq!(l.unit_code.as_deref(), Some("C62"));
        assert_eq!(l.unit_price.as_deref(), Some("9.90"));
        assert_eq!(l.vat_rate.as_deref(), Some("19.00"));
        assert_eq!(l.amount.as_deref(), Some("198.00"));
        let l = &r.line_items[1];
        assert_eq!(l.description.as_deref(), Some("Zitronensäure 100 ml"));
        assert_eq!(l.unit.as_deref(), Some("kilogram"));
        // 55.00 per 10 kg.
        assert_eq!(l.unit_price.as_deref(), Some("5.50"));
        assert_eq!(l.vat_rate.as_deref(), Some("7.00"));

        assert_eq!(r.taxes.len(), 2);
        assert_eq!(r.taxes[1].rate.as_deref(), Some("19.00"));
        assert_eq!(r.taxes[1].base.as_deref(), Some("197.00"));
        assert_eq!(r.taxes[1].amount.as_deref(), Some("37.43"));
        assert_eq!(r.totals.net.as_deref(), Some("472.00"));
        assert_eq!(r.totals.vat.as_deref(), Some("56.68"));
        assert_eq!(r.totals.total.as_deref(), Some("528.68"));
        assert_eq!(r.totals.prepaid.as_deref(), Some("0.00"));
        assert_eq!(r.totals.payable.as_deref(), Some("528.68"));
        assert_eq!(r.totals.discount.as_deref(), Some("1.00"));

        assert_eq!(e.line_nets, [d("198.00"), d("275.00")]);
        assert_eq!(e.sums.line_total, d("473.00"));
        assert_eq!(e.sums.charge_total, d("0.00"));
        assert_eq!(e.vat_breakdown[0].category.as_deref(), Some("S"));
        assert_eq!(e.vat_breakdown[0].rate, d("7.00"));
        assert_eq!(e.allowance_charges.len(), 2);
        let a = &e.allowance_charges[0];
        assert!(!a.charge);
        assert_eq!(a.amount, d("1.00"));
        assert_eq!(a.base, d("10.00"));
        assert_eq!(a.vat_rate, d("19.00"));
        assert_eq!(a.reason.as_deref(), Some("Sondernachlass"));
        let c = &e.allowance_charges[1];
        assert!(c.charge);
        assert_eq!(c.amount, d("0.00"));
        assert_eq!(c.vat_rate, d("7.00"));

        let f = &r.confidence.fields;
        for k in [
            "/line_items/1/unit_price",
            "/line_items/1/unit_code",
            "/taxes/1/base",
            "/bank_accounts/0/iban",
            "/extra_fields/notes/2",
            "/extra_fields/period/from",
            "/parties/seller/tax_id",
        ] {
            assert_eq!(f.get(k), Some(&1.0), "{k}");
        }
        assert!(!f.contains_key("/line_items/0/vat_amount"));
    }

    /// BASIC WL with odd prefixes (`a:`, `zz:`, `dt:`): no lines, a billing period, a seller
    /// e-mail as a URI communication, a document-level charge.
    const BASIC_WL: &str = r#"<a:CrossIndustryInvoice xmlns:a="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:zz="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:dt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<a:ExchangedDocumentContext><zz:GuidelineSpecifiedDocumentContextParameter><zz:ID>urn:factur-x.eu:1p0:basicwl</zz:ID></zz:GuidelineSpecifiedDocumentContextParameter></a:ExchangedDocumentContext>
<a:ExchangedDocument><zz:ID>WL-9</zz:ID><zz:TypeCode>389</zz:TypeCode><zz:IssueDateTime><dt:DateTimeString format="102">20240615</dt:DateTimeString></zz:IssueDateTime><zz:IncludedNote><zz:Content><![CDATA[Thanks & see you <soon>]]></zz:Content></zz:IncludedNote></a:ExchangedDocument>
<a:SupplyChainTradeTransaction>
<zz:ApplicableHeaderTradeAgreement>
<zz:SellerTradeParty><zz:Name>Atelier Dupont SARL</zz:Name><zz:SpecifiedLegalOrganization><zz:ID schemeID="0002">123456789</zz:ID></zz:SpecifiedLegalOrganization><zz:PostalTradeAddress><zz:PostcodeCode>75001</zz:PostcodeCode><zz:LineOne>1 rue de Rivoli</zz:LineOne><zz:LineTwo>Bâtiment B</zz:LineTwo><zz:CityName>Paris</zz:CityName><zz:CountryID>FR</zz:CountryID></zz:PostalTradeAddress><zz:URIUniversalCommunication><zz:URIID schemeID="EM">compta@dupont.fr</zz:URIID></zz:URIUniversalCommunication><zz:SpecifiedTaxRegistration><zz:ID schemeID="VA">FR32123456789</zz:ID></zz:SpecifiedTaxRegistration></zz:SellerTradeParty>
<zz:BuyerTradeParty><zz:Name>Client SA</zz:Name><zz:SpecifiedTaxRegistration><zz:ID>BE0123456789</zz:ID></zz:SpecifiedTaxRegistration></zz:BuyerTradeParty>
<zz:ContractReferencedDocument><zz:IssuerAssignedID>CT-2024-1</zz:IssuerAssignedID></zz:ContractReferencedDocument>
</zz:ApplicableHeaderTradeAgreement>
<zz:ApplicableHeaderTradeDelivery/>
<zz:ApplicableHeaderTradeSettlement>
<zz:InvoiceCurrencyCode>EUR</zz:InvoiceCurrencyCode>
<zz:SpecifiedTradeSettlementPaymentMeans><zz:TypeCode>58</zz:TypeCode><zz:PayeePartyCreditorFinancialAccount><zz:IBANID>FR7630006000011234567890189</zz:IBANID></zz:PayeePartyCreditorFinancialAccount></zz:SpecifiedTradeSettlementPaymentMeans>
<zz:ApplicableTradeTax><zz:CalculatedAmount>22.00</zz:CalculatedAmount><zz:TypeCode>VAT</zz:TypeCode><zz:BasisAmount>110.00</zz:BasisAmount><zz:CategoryCode>S</zz:CategoryCode><zz:RateApplicablePercent>20.00</zz:RateApplicablePercent></zz:ApplicableTradeTax>
<zz:BillingSpecifiedPeriod><zz:StartDateTime><dt:DateTimeString format="102">20240501</dt:DateTimeString></zz:StartDateTime><zz:EndDateTime><dt:DateTimeString format="102">20240531</dt:DateTimeString></zz:EndDateTime></zz:BillingSpecifiedPeriod>
<zz:SpecifiedTradeAllowanceCharge><zz:ChargeIndicator><dt:Indicator>true</dt:Indicator></zz:ChargeIndicator><zz:ActualAmount>10.00</zz:ActualAmount><zz:Reason>Frais de port</zz:Reason><zz:CategoryTradeTax><zz:TypeCode>VAT</zz:TypeCode><zz:CategoryCode>S</zz:CategoryCode><zz:RateApplicablePercent>20.00</zz:RateApplicablePercent></zz:CategoryTradeTax></zz:SpecifiedTradeAllowanceCharge>
<zz:SpecifiedTradePaymentTerms><zz:Description>30 jours fin de mois</zz:Description></zz:SpecifiedTradePaymentTerms>
<zz:SpecifiedTradeSettlementHeaderMonetarySummation><zz:LineTotalAmount>100.00</zz:LineTotalAmount><zz:ChargeTotalAmount>10.00</zz:ChargeTotalAmount><zz:TaxBasisTotalAmount>110.00</zz:TaxBasisTotalAmount><zz:TaxTotalAmount currencyID="EUR">22.00</zz:TaxTotalAmount><zz:GrandTotalAmount>132.00</zz:GrandTotalAmount><zz:TotalPrepaidAmount>32.00</zz:TotalPrepaidAmount><zz:DuePayableAmount>100.00</zz:DuePayableAmount></zz:SpecifiedTradeSettlementHeaderMonetarySummation>
</zz:ApplicableHeaderTradeSettlement>
</a:SupplyChainTradeTransaction>
</a:CrossIndustryInvoice>"#;

    #[test]
    fn basic_wl_with_odd_prefixes() {
        let e = parse(BASIC_WL.as_bytes()).unwrap();
        assert_eq!(e.syntax, Syntax::Cii);
        let r = &e.result;
        assert_eq!(r.document.number.as_deref(), Some("WL-9"));
        // 389 self-billed invoice.
        assert_eq!(r.document_type.code, DocumentType::Invoice);
        assert_eq!(r.structure_type.code, StructureType::Text);
        assert!(r.line_items.is_empty() && e.line_nets.is_empty());
        assert_eq!(r.extra_fields.notes, ["Thanks & see you <soon>"]);
        let s = &r.parties.seller;
        assert_eq!(
            s.address.as_deref(),
            Some("1 rue de Rivoli, Bâtiment B, 75001 Paris, FR")
        );
        assert_eq!(s.email.as_deref(), Some("compta@dupont.fr"));
        assert_eq!(s.registration_id.as_deref(), Some("123456789"));
        assert_eq!(s.vat_id.as_deref(), Some("FR32123456789"));
        // A registration without a scheme but with a country prefix is a VAT id.
        assert_eq!(r.parties.buyer.vat_id.as_deref(), Some("BE0123456789"));
        assert_eq!(r.extra_fields.contract.number.as_deref(), Some("CT-2024-1"));
        assert_eq!(r.extra_fields.period.from.as_deref(), Some("2024-05-01"));
        assert_eq!(r.extra_fields.period.to.as_deref(), Some("2024-05-31"));
        assert_eq!(
            r.extra_fields.payment_terms.as_deref(),
            Some("30 jours fin de mois")
        );
        assert_eq!(r.document.due_date, None);
        assert_eq!(
            r.bank_accounts[0].iban.as_deref(),
            Some("FR7630006000011234567890189")
        );
        assert_eq!(r.bank_accounts[0].swift_bic, None);
        assert_eq!(r.totals.prepaid.as_deref(), Some("32.00"));
        assert_eq!(r.totals.payable.as_deref(), Some("100.00"));
        assert_eq!(r.totals.discount, None);
        assert_eq!(e.sums.charge_total, d("10.00"));
        assert_eq!(e.allowance_charges.len(), 1);
        assert!(e.allowance_charges[0].charge);
        assert_eq!(e.allowance_charges[0].vat_category.as_deref(), Some("S"));
    }

    /// EN 16931 with default namespaces (no prefixes at all), a payee, a tax representative, a
    /// ship-to party, allowances and charges on the document and on a line, line periods.
    const EN16931: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<CrossIndustryInvoice xmlns="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">
<ExchangedDocumentContext><GuidelineSpecifiedDocumentContextParameter xmlns="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"><ID>urn:cen.eu:en16931:2017</ID></GuidelineSpecifiedDocumentContextParameter></ExchangedDocumentContext>
<ExchangedDocument><ID xmlns="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">KOR-7</ID><TypeCode>384</TypeCode><IssueDateTime><DateTimeString format="102">20240201</DateTimeString></IssueDateTime></ExchangedDocument>
<SupplyChainTradeTransaction xmlns="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">
<IncludedSupplyChainTradeLineItem>
 <AssociatedDocumentLineDocument><LineID>A1</LineID></AssociatedDocumentLineDocument>
 <SpecifiedTradeProduct><Name>Beratung</Name><Description>Beratung</Description></SpecifiedTradeProduct>
 <SpecifiedLineTradeAgreement><GrossPriceProductTradePrice><ChargeAmount>120.00</ChargeAmount><AppliedTradeAllowanceCharge><ChargeIndicator><Indicator>false</Indicator></ChargeIndicator><ActualAmount>20.00</ActualAmount></AppliedTradeAllowanceCharge></GrossPriceProductTradePrice><NetPriceProductTradePrice><ChargeAmount>100.00</ChargeAmount></NetPriceProductTradePrice></SpecifiedLineTradeAgreement>
 <SpecifiedLineTradeDelivery><BilledQuantity unitCode="HUR">10</BilledQuantity></SpecifiedLineTradeDelivery>
 <SpecifiedLineTradeSettlement>
  <ApplicableTradeTax><TypeCode>VAT</TypeCode><CategoryCode>S</CategoryCode><RateApplicablePercent>19</RateApplicablePercent></ApplicableTradeTax>
  <BillingSpecifiedPeriod><StartDateTime><DateTimeString format="102">20240110</DateTimeString></StartDateTime><EndDateTime><DateTimeString format="102">20240120</DateTimeString></EndDateTime></BillingSpecifiedPeriod>
  <SpecifiedTradeAllowanceCharge><ChargeIndicator><Indicator>false</Indicator></ChargeIndicator><ActualAmount>50.00</ActualAmount><Reason>Line discount</Reason></SpecifiedTradeAllowanceCharge>
  <SpecifiedTradeAllowanceCharge><ChargeIndicator><Indicator>true</Indicator></ChargeIndicator><ActualAmount>5.00</ActualAmount><Reason>Line charge</Reason></SpecifiedTradeAllowanceCharge>
  <SpecifiedTradeSettlementLineMonetarySummation><LineTotalAmount>955.00</LineTotalAmount></SpecifiedTradeSettlementLineMonetarySummation>
 </SpecifiedLineTradeSettlement>
</IncludedSupplyChainTradeLineItem>
<IncludedSupplyChainTradeLineItem>
 <AssociatedDocumentLineDocument><LineID>2</LineID></AssociatedDocumentLineDocument>
 <SpecifiedTradeProduct><SellerAssignedID>K-1</SellerAssignedID><Name>Kabel</Name></SpecifiedTradeProduct>
 <SpecifiedLineTradeAgreement><NetPriceProductTradePrice><ChargeAmount>1.50</ChargeAmount><BasisQuantity unitCode="MTR">1</BasisQuantity></NetPriceProductTradePrice></SpecifiedLineTradeAgreement>
 <SpecifiedLineTradeDelivery><BilledQuantity unitCode="MTR">30</BilledQuantity></SpecifiedLineTradeDelivery>
 <SpecifiedLineTradeSettlement>
  <ApplicableTradeTax><TypeCode>VAT</TypeCode><CategoryCode>S</CategoryCode><RateApplicablePercent>19</RateApplicablePercent></ApplicableTradeTax>
  <BillingSpecifiedPeriod><StartDateTime><DateTimeString format="102">20240105</DateTimeString></StartDateTime><EndDateTime><DateTimeString format="102">20240115</DateTimeString></EndDateTime></BillingSpecifiedPeriod>
  <SpecifiedTradeSettlementLineMonetarySummation><LineTotalAmount>45.00</LineTotalAmount></SpecifiedTradeSettlementLineMonetarySummation>
 </SpecifiedLineTradeSettlement>
</IncludedSupplyChainTradeLineItem>
<ApplicableHeaderTradeAgreement>
 <SellerTradeParty><Name>Muster IT GmbH</Name><DefinedTradeContact><EmailURIUniversalCommunication><URIID>rechnung@muster.de</URIID></EmailURIUniversalCommunication></DefinedTradeContact><SpecifiedTaxRegistration><ID schemeID="VA">DE111111125</ID></SpecifiedTaxRegistration></SellerTradeParty>
 <BuyerTradeParty><Name>Stadtwerke</Name></BuyerTradeParty>
 <SellerTaxRepresentativeTradeParty><Name>Tax Rep BV</Name><PostalTradeAddress><CityName>Amsterdam</CityName><CountryID>NL</CountryID></PostalTradeAddress><SpecifiedTaxRegistration><ID schemeID="VA">NL123456789B01</ID></SpecifiedTaxRegistration></SellerTaxRepresentativeTradeParty>
 <BuyerOrderReferencedDocument><IssuerAssignedID>4500012345</IssuerAssignedID></BuyerOrderReferencedDocument>
</ApplicableHeaderTradeAgreement>
<ApplicableHeaderTradeDelivery><ShipToTradeParty><Name>Lager Nord</Name><PostalTradeAddress><PostcodeCode>20095</PostcodeCode><LineOne>Hafenweg 2</LineOne><CityName>Hamburg</CityName><CountryID>DE</CountryID></PostalTradeAddress></ShipToTradeParty></ApplicableHeaderTradeDelivery>
<ApplicableHeaderTradeSettlement>
 <InvoiceCurrencyCode>EUR</InvoiceCurrencyCode>
 <PayeeTradeParty><Name>Factoring AG</Name><SpecifiedLegalOrganization><ID>HRB 999</ID></SpecifiedLegalOrganization></PayeeTradeParty>
 <SpecifiedTradeSettlementPaymentMeans><TypeCode>58</TypeCode><PayeePartyCreditorFinancialAccount><IBANID>DE02120300000000202051</IBANID></PayeePartyCreditorFinancialAccount><PayeeSpecifiedCreditorFinancialInstitution><BICID>BYLADEM1001</BICID></PayeeSpecifiedCreditorFinancialInstitution></SpecifiedTradeSettlementPaymentMeans>
 <SpecifiedTradeSettlementPaymentMeans><TypeCode>30</TypeCode><PayeePartyCreditorFinancialAccount><ProprietaryID>12345678</ProprietaryID></PayeePartyCreditorFinancialAccount></SpecifiedTradeSettlementPaymentMeans>
 <SpecifiedTradeSettlementPaymentMeans><TypeCode>59</TypeCode><PayerPartyDebtorFinancialAccount><IBANID>DE75 5121 0800 1245 1261 99</IBANID></PayerPartyDebtorFinancialAccount></SpecifiedTradeSettlementPaymentMeans>
 <ApplicableTradeTax><CalculatedAmount>189.05</CalculatedAmount><TypeCode>VAT</TypeCode><BasisAmount>995.00</BasisAmount><CategoryCode>S</CategoryCode><RateApplicablePercent>19</RateApplicablePercent></ApplicableTradeTax>
 <SpecifiedTradeAllowanceCharge><ChargeIndicator><Indicator>false</Indicator></ChargeIndicator><CalculationPercent>2.5</CalculationPercent><BasisAmount>1000.00</BasisAmount><ActualAmount>25.00</ActualAmount><Reason>Rabatt</Reason><CategoryTradeTax><TypeCode>VAT</TypeCode><CategoryCode>S</CategoryCode><RateApplicablePercent>19</RateApplicablePercent></CategoryTradeTax></SpecifiedTradeAllowanceCharge>
 <SpecifiedTradeAllowanceCharge><ChargeIndicator><Indicator>true</Indicator></ChargeIndicator><ActualAmount>20.00</ActualAmount><Reason>Fracht</Reason><CategoryTradeTax><TypeCode>VAT</TypeCode><CategoryCode>S</CategoryCode><RateApplicablePercent>19</RateApplicablePercent></CategoryTradeTax></SpecifiedTradeAllowanceCharge>
 <SpecifiedTradePaymentTerms><Description>Sofort</Description><DueDateDateTime><DateTimeString format="102">20240215</DateTimeString></DueDateDateTime></SpecifiedTradePaymentTerms>
 <SpecifiedTradeSettlementHeaderMonetarySummation><LineTotalAmount>1000.00</LineTotalAmount><ChargeTotalAmount>20.00</ChargeTotalAmount><AllowanceTotalAmount>25.00</AllowanceTotalAmount><TaxBasisTotalAmount>995.00</TaxBasisTotalAmount><TaxTotalAmount currencyID="EUR">189.05</TaxTotalAmount><RoundingAmount>-0.05</RoundingAmount><GrandTotalAmount>1184.05</GrandTotalAmount><DuePayableAmount>1184.00</DuePayableAmount></SpecifiedTradeSettlementHeaderMonetarySummation>
</ApplicableHeaderTradeSettlement>
</SupplyChainTradeTransaction>
</CrossIndustryInvoice>"#;

    #[test]
    fn en16931_payee_and_allowances_at_both_levels() {
        let e = parse(EN16931.as_bytes()).unwrap();
        let r = &e.result;
        assert_eq!(r.document.number.as_deref(), Some("KOR-7"));
        // 384 corrected invoice.
        assert_eq!(r.document_type.code, DocumentType::Invoice);
        assert_eq!(r.document.due_date.as_deref(), Some("2024-02-15"));
        assert_eq!(
            r.parties.seller.email.as_deref(),
            Some("rechnung@muster.de")
        );
        let roles: Vec<&str> = r.parties.other.iter().map(|o| o.role.as_str()).collect();
        assert_eq!(roles, ["payee", "tax_representative", "delivery"]);
        let payee = &r.parties.other[0].party;
        assert_eq!(payee.name.as_deref(), Some("Factoring AG"));
        assert_eq!(payee.registration_id.as_deref(), Some("HRB 999"));
        let rep = &r.parties.other[1].party;
        assert_eq!(rep.vat_id.as_deref(), Some("NL123456789B01"));
        assert_eq!(rep.address.as_deref(), Some("Amsterdam, NL"));
        assert_eq!(
            r.parties.other[2].party.address.as_deref(),
            Some("Hafenweg 2, 20095 Hamburg, DE")
        );
        // The payee's accounts.
        assert_eq!(r.bank_accounts.len(), 3);
        assert!(
            r.bank_accounts[..2]
                .iter()
                .all(|b| b.party == Some(PartyRole::Other))
        );
        // The buyer's account of a direct debit.
        assert_eq!(
            r.bank_accounts[2].iban.as_deref(),
            Some("DE75512108001245126199")
        );
        assert_eq!(r.bank_accounts[2].party, Some(PartyRole::Buyer));
        assert_eq!(r.bank_accounts[0].swift_bic.as_deref(), Some("BYLADEM1001"));
        assert_eq!(
            r.bank_accounts[1].account_number.as_deref(),
            Some("12345678")
        );
        assert_eq!(r.bank_accounts[1].iban, None);
        // Lines: a non-numeric LineID, a description equal to the name, a net price that the
        // gross price's discount explains.
        let l = &r.line_items[0];
        assert_eq!(l.position, None);
        assert_eq!(l.description.as_deref(), Some("Beratung"));
        assert_eq!(l.unit.as_deref(), Some("hour"));
        assert_eq!(l.unit_price.as_deref(), Some("100.00"));
        assert_eq!(l.amount.as_deref(), Some("955.00"));
        // An allowance beside a charge, neither with a percentage: no discount rate.
        assert_eq!(l.discount_rate, None);
        assert_eq!(r.line_items[1].unit.as_deref(), Some("metre"));
        assert_eq!(r.line_items[1].unit_price.as_deref(), Some("1.50"));
        // The period: from the lines (no document period).
        assert_eq!(r.extra_fields.period.from.as_deref(), Some("2024-01-05"));
        assert_eq!(r.extra_fields.period.to.as_deref(), Some("2024-01-20"));
        assert_eq!(r.extra_fields.order_number.as_deref(), Some("4500012345"));
        // Only the two document-level allowances/charges; the line's stay in its net.
        assert_eq!(e.allowance_charges.len(), 2);
        let a = &e.allowance_charges[0];
        assert!(!a.charge);
        assert_eq!(a.amount, d("25.00"));
        assert_eq!(a.percent, d("2.5"));
        assert_eq!(a.base, d("1000.00"));
        assert_eq!(a.reason.as_deref(), Some("Rabatt"));
        assert_eq!(a.vat_rate, d("19"));
        assert!(e.allowance_charges[1].charge);
        assert_eq!(e.allowance_charges[1].amount, d("20.00"));
        assert_eq!(e.line_nets, [d("955.00"), d("45.00")]);
        assert_eq!(e.sums.rounding, d("-0.05"));
        assert_eq!(e.sums.prepaid, None);
        assert_eq!(r.totals.discount.as_deref(), Some("25.00"));
        assert_eq!(r.totals.total.as_deref(), Some("1184.05"));
        assert_eq!(r.totals.payable.as_deref(), Some("1184.00"));
        assert_eq!(r.taxes[0].rate.as_deref(), Some("19"));
        assert_eq!(r.confidence.fields.get("/parties/other/0/name"), Some(&1.0));
        assert!(!r.confidence.fields.contains_key("/parties/other/0/role"));
    }

    /// EXTENDED: the invoice in USD with the VAT also stated in EUR (two TaxTotalAmounts), a
    /// group line with two detail sub-lines and an information line.
    const EXTENDED: &str = r#"<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>X-1</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20241001</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID><ram:LineStatusReasonCode>GROUP</ram:LineStatusReasonCode></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Kit</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>300.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>1.1</ram:LineID><ram:ParentLineID>1</ram:ParentLineID><ram:LineStatusReasonCode>DETAIL</ram:LineStatusReasonCode></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Part A</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>100.00</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement><ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="H87">1.0000</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:RateApplicablePercent>10.00</ram:RateApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>1.2</ram:LineID><ram:ParentLineID>1</ram:ParentLineID><ram:LineStatusReasonCode>DETAIL</ram:LineStatusReasonCode></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Part B</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="XBX">2</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>200.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID><ram:LineStatusReasonCode>INFORMATION</ram:LineStatusReasonCode></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Note line</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>0.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
<ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>Acme Inc.</ram:Name></ram:SellerTradeParty><ram:BuyerTradeParty><ram:Name>Buyer SE</ram:Name></ram:BuyerTradeParty></ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement>
<ram:TaxCurrencyCode>EUR</ram:TaxCurrencyCode>
<ram:InvoiceCurrencyCode>USD</ram:InvoiceCurrencyCode>
<ram:ApplicableTradeTax><ram:CalculatedAmount>30.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>300.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>10.00</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>300.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount>300.00</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">27.50</ram:TaxTotalAmount><ram:TaxTotalAmount currencyID="USD">30.00</ram:TaxTotalAmount><ram:GrandTotalAmount>330.00</ram:GrandTotalAmount><ram:TotalPrepaidAmount>330.00</ram:TotalPrepaidAmount><ram:DuePayableAmount>0.00</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>"#;

    #[test]
    fn extended_two_tax_totals_and_sub_lines() {
        let e = parse(EXTENDED.as_bytes()).unwrap();
        let r = &e.result;
        assert_eq!(r.document.currency.as_deref(), Some("USD"));
        // The VAT in the invoice currency, not the one in the tax currency.
        assert_eq!(r.totals.vat.as_deref(), Some("30.00"));
        assert_eq!(e.sums.tax_total, d("30.00"));
        // The same with the two in the other order.
        let swapped = EXTENDED
            .replace(
                r#"<ram:TaxTotalAmount currencyID="EUR">27.50</ram:TaxTotalAmount><ram:TaxTotalAmount currencyID="USD">30.00</ram:TaxTotalAmount>"#,
                r#"<ram:TaxTotalAmount currencyID="USD">30.00</ram:TaxTotalAmount><ram:TaxTotalAmount currencyID="EUR">27.50</ram:TaxTotalAmount>"#,
            );
        assert_ne!(swapped, EXTENDED);
        assert_eq!(
            parse(swapped.as_bytes()).unwrap().sums.tax_total,
            d("30.00")
        );
        // Every line is a line item; only the detail lines count into the line total.
        let descs: Vec<_> = r
            .line_items
            .iter()
            .map(|l| l.description.as_deref().unwrap())
            .collect();
        assert_eq!(descs, ["Kit", "Part A", "Part B", "Note line"]);
        assert_eq!(r.line_items[1].position, None);
        assert_eq!(r.line_items[2].unit.as_deref(), Some("box"));
        assert_eq!(r.line_items[2].unit_code.as_deref(), Some("XBX"));
        assert_eq!(e.line_nets, [d("100.00"), d("200.00")]);
        assert_eq!(r.totals.prepaid.as_deref(), Some("330.00"));
        assert_eq!(r.totals.payable.as_deref(), Some("0.00"));
    }

    #[test]
    fn credit_note_keeps_positive_amounts() {
        let x = MINIMUM.replace(
            "<ram:TypeCode>380</ram:TypeCode>",
            "<ram:TypeCode>381</ram:TypeCode>",
        );
        let e = parse(x.as_bytes()).unwrap();
        assert_eq!(e.result.document_type.code, DocumentType::CreditNote);
        assert_eq!(e.result.totals.total.as_deref(), Some("119.00"));
        // An unknown code in an invoice syntax is an invoice.
        let x = MINIMUM.replace(
            "<ram:TypeCode>380</ram:TypeCode>",
            "<ram:TypeCode>999</ram:TypeCode>",
        );
        let e = parse(x.as_bytes()).unwrap();
        assert_eq!(e.result.document_type.code, DocumentType::Invoice);
    }

    #[test]
    fn hostile_cii_is_refused() {
        // Billion laughs with an invoice root: the DOCTYPE is refused before any expansion.
        let mut bomb = String::from(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rsm:CrossIndustryInvoice [\n<!ENTITY l0 \"lol\">\n",
        );
        for i in 1..10 {
            bomb.push_str(&format!(
                "<!ENTITY l{i} \"{}\">\n",
                format!("&l{};", i - 1).repeat(10)
            ));
        }
        bomb.push_str(&format!(
            "]>\n<rsm:CrossIndustryInvoice xmlns:rsm=\"{NS_CII}\"><rsm:ExchangedDocument><ID>&l9;</ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>"
        ));
        assert_eq!(sniff(bomb.as_bytes()), Some(Syntax::Cii));
        let err = parse(bomb.as_bytes()).unwrap_err();
        assert_eq!(err.code(), ErrorCode::CorruptFile);
        assert!(err.to_string().contains("DOCTYPE"), "{err}");

        // 65 levels deep inside an invoice.
        let mut deep = format!("<CrossIndustryInvoice xmlns=\"{NS_CII}\">");
        deep.push_str(&"<x>".repeat(64));
        deep.push_str(&"</x>".repeat(64));
        deep.push_str("</CrossIndustryInvoice>");
        let err = parse(deep.as_bytes()).unwrap_err();
        assert_eq!(err.code(), ErrorCode::CorruptFile);
        assert!(err.to_string().contains("deeper than 64"), "{err}");

        // Truncated, anywhere.
        for cut in [MINIMUM.len() / 3, MINIMUM.len() / 2, MINIMUM.len() - 2] {
            let err = parse(&MINIMUM.as_bytes()[..cut]).unwrap_err();
            assert_eq!(err.code(), ErrorCode::CorruptFile, "cut at {cut}: {err}");
        }
        // Malformed: a mismatched end tag, an unknown entity.
        let bad = MINIMUM.replace("</ram:ID>", "</ram:Id>");
        assert_eq!(
            parse(bad.as_bytes()).unwrap_err().code(),
            ErrorCode::CorruptFile
        );
        let bad = MINIMUM.replace("Kunde AG", "Kunde &ag;");
        assert_eq!(
            parse(bad.as_bytes()).unwrap_err().code(),
            ErrorCode::CorruptFile
        );
        // Too large.
        let mut big = MINIMUM.as_bytes().to_vec();
        big.resize(super::super::xml::MAX_BYTES + 1, b' ');
        assert_eq!(parse(&big).unwrap_err().code(), ErrorCode::FileTooLarge);
    }

    #[test]
    fn damaged_documents_never_panic() {
        // Every prefix, and bytes overwritten at pseudo-random places: an error or a result,
        // never a panic.
        for x in [MINIMUM, ZF1_COMFORT, EN16931, EXTENDED] {
            let b = x.as_bytes();
            for cut in 0..b.len() {
                let _ = parse(&b[..cut]);
            }
            const NOISE: &[u8] = b"<>&;/\"=9-.x\xFF";
            let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
            for _ in 0..300 {
                let mut m = b.to_vec();
                for _ in 0..4 {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let at = (state >> 33) as usize % m.len();
                    m[at] = NOISE[(state >> 20) as usize % NOISE.len()];
                }
                let _ = parse(&m);
            }
        }
        // Absurd but well-formed values.
        let x = EN16931
            .replace(">1.50<", ">79228162514264337593543950335<")
            .replace(
                "<BasisQuantity unitCode=\"MTR\">1</BasisQuantity>",
                "<BasisQuantity unitCode=\"MTR\">0.0000000001</BasisQuantity>",
            );
        let e = parse(x.as_bytes()).unwrap();
        assert_eq!(e.result.line_items[1].unit_price, None);
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
