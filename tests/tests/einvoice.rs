//! The engine over e-invoices: a standalone CII / UBL XML (no page), a PDF with the XML
//! attached (built here by hand, and the repository's Factur-X / ZUGFeRD fixtures), hostile
//! attachments that must never fail the document, and XML that is not an e-invoice.
//!
//! PDFs need pdfium (the project setup installs it, as for the golden tests); no OCR runs: the
//! PDFs have a text layer, and an OCR call fails the test.

use folio::engine::Progress;
use folio::fields::RuleScorer;
use folio::ocr::{OcrEngine, OcrRequest};
use folio::result::{DocumentResult, DocumentType, Source, ValidationStatus};
use folio::types::TextPage;
use folio::{CancelToken, Engine, EngineConfig, ErrorCode, RecognizeOptions, Stage};
use image::GrayImage;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// No page of these documents needs OCR.
struct NoOcr;

impl OcrEngine for NoOcr {
    fn recognize(&self, _: &GrayImage, req: &OcrRequest<'_>) -> folio::Result<TextPage> {
        panic!("page {} was sent to the OCR", req.page)
    }
}

fn engine() -> Engine {
    Engine::with_components(
        EngineConfig::default(),
        Arc::new(NoOcr),
        Arc::new(RuleScorer),
    )
    .expect("engine builds")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/docs")
        .join(name)
}

fn read(name: &str) -> Vec<u8> {
    let path = fixture(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn truth(name: &str) -> serde_json::Value {
    serde_json::from_slice(&read(name)).expect("truth is JSON")
}

/// Recognises `bytes`, with the stages it reported.
fn recognize(bytes: &[u8]) -> folio::Result<(DocumentResult, Vec<Stage>)> {
    let stages = Mutex::new(Vec::new());
    let progress = |p: Progress| {
        let mut s = stages.lock().expect("lock");
        if s.last() != Some(&p.stage) {
            s.push(p.stage);
        }
    };
    let r = engine().recognize_bytes(
        bytes,
        &RecognizeOptions::default(),
        &progress,
        &CancelToken::new(),
    )?;
    Ok((r, stages.into_inner().expect("lock")))
}

fn codes(r: &DocumentResult) -> Vec<&str> {
    r.validation
        .warnings
        .iter()
        .chain(&r.validation.errors)
        .map(|i| i.code.as_str())
        .collect()
}

fn warning<'a>(r: &'a DocumentResult, code: &str) -> Option<&'a folio::result::Issue> {
    r.validation.warnings.iter().find(|i| i.code == code)
}

/// The result is valid against the JSON Schema.
fn assert_schema_valid(r: &DocumentResult) {
    let schema: serde_json::Value =
        serde_json::from_str(folio::result::JSON_SCHEMA).expect("schema is JSON");
    let validator = jsonschema::draft202012::new(&schema).expect("schema compiles");
    let json = serde_json::to_value(r).expect("result serialises");
    let errors: Vec<String> = validator
        .iter_errors(&json)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn a_standalone_cii_xml_is_read_without_pages() {
    let (r, stages) = recognize(&read("einvoice_cii.xml")).expect("recognised");
    let t = truth("einvoice_cii.truth.json");
    assert_eq!(r.document.number.as_deref(), t["number"].as_str());
    assert_eq!(r.document.date.as_deref(), t["date"].as_str());
    assert_eq!(r.document.currency.as_deref(), t["currency"].as_str());
    assert_eq!(r.totals.total.as_deref(), t["total"].as_str());
    assert_eq!(r.totals.vat.as_deref(), t["vat"].as_str());
    assert_eq!(r.parties.seller.name.as_deref(), t["seller_name"].as_str());
    assert_eq!(r.document_type.code, DocumentType::Invoice);
    assert_eq!(
        r.line_items.len(),
        t["line_items"].as_array().map_or(0, Vec::len)
    );
    // No page: no evidence, nothing cleaned or extracted from text.
    assert!(r.evidence.is_empty(), "{:?}", r.evidence);
    assert_eq!(
        stages,
        [
            Stage::Preprocessing,
            Stage::TextExtracting,
            Stage::Validating
        ]
    );
    assert_eq!(r.confidence.fields["/document/number"], 1.0);
    assert!(!r.super_ai_used);
    assert!(
        !codes(&r).contains(&"E_INVOICE_RULE"),
        "the fixture's arithmetic is right: {:?}",
        r.validation
    );
    assert_schema_valid(&r);
    // The text-page entry gives no page for it.
    let pages = engine()
        .extract_text_pages(
            &read("einvoice_cii.xml"),
            &RecognizeOptions::default(),
            &|_| {},
            &CancelToken::new(),
        )
        .expect("read");
    assert!(pages.is_empty());
}

#[test]
fn standalone_ubl_invoice_and_credit_note() {
    for (xml, truth_file, kind) in [
        (
            "einvoice_ubl_invoice.xml",
            "einvoice_ubl_invoice.truth.json",
            DocumentType::Invoice,
        ),
        (
            "einvoice_ubl_creditnote.xml",
            "einvoice_ubl_creditnote.truth.json",
            DocumentType::CreditNote,
        ),
    ] {
        let (r, _) = recognize(&read(xml)).expect(xml);
        let t = truth(truth_file);
        assert_eq!(r.document.number.as_deref(), t["number"].as_str(), "{xml}");
        assert_eq!(r.totals.total.as_deref(), t["total"].as_str(), "{xml}");
        assert_eq!(r.document_type.code, kind, "{xml}");
        assert_schema_valid(&r);
    }
}

/// A CII invoice with the given number, net, VAT and total (one line, one VAT rate of 19 %).
fn cii(number: &str, net: &str, vat: &str, total: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>{number}</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20240311</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Beratung</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>{net}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement><ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="HUR">1</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>{net}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
<ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>Muster Beratung GmbH</ram:Name><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty><ram:BuyerTradeParty><ram:Name>Kunde AG</ram:Name></ram:BuyerTradeParty></ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:ApplicableTradeTax><ram:CalculatedAmount>{vat}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>{net}</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>{net}</ram:LineTotalAmount><ram:TaxBasisTotalAmount>{net}</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">{vat}</ram:TaxTotalAmount><ram:GrandTotalAmount>{total}</ram:GrandTotalAmount><ram:DuePayableAmount>{total}</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation></ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
"#
    )
}

/// A one-page text PDF built by hand (Helvetica lines from the top), with the given attachments
/// in its `EmbeddedFiles` name tree: `(name, stream dictionary entries, stream data)`.
fn pdf_with_attachments(lines: &[&str], files: &[(&str, &str, &[u8])]) -> Vec<u8> {
    let mut content = String::from("BT /F1 11 Tf 60 780 Td 14 TL\n");
    for l in lines {
        content.push_str(&format!("({l}) Tj T*\n"));
    }
    content.push_str("ET");
    pdf_with_content(&content, files)
}

/// As [`pdf_with_attachments`], the page drawn by `content`.
fn pdf_with_content(content: &str, files: &[(&str, &str, &[u8])]) -> Vec<u8> {
    // 1 catalog, 2 pages, 3 font, 4 page, 5 contents, then per file: filespec, stream.
    let names: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(i, (name, _, _))| format!("({name}) {} 0 R", 6 + 2 * i))
        .collect();
    let mut objects: Vec<Vec<u8>> = vec![
        format!(
            "<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [{}] >> >> >>",
            names.join(" ")
        )
        .into_bytes(),
        b"<< /Type /Pages /Count 1 /Kids [4 0 R] >>".to_vec(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] \
          /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>"
            .to_vec(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len() + 1
        )
        .into_bytes(),
    ];
    for (i, (name, dict, data)) in files.iter().enumerate() {
        objects.push(
            format!(
                "<< /Type /Filespec /F ({name}) /UF ({name}) /AFRelationship /Data \
                 /EF << /F {} 0 R >> >>",
                7 + 2 * i
            )
            .into_bytes(),
        );
        let mut s = format!(
            "<< /Type /EmbeddedFile /Subtype /text#2Fxml {dict} /Length {} >>\nstream\n",
            data.len()
        )
        .into_bytes();
        s.extend_from_slice(data);
        s.extend_from_slice(b"\nendstream");
        objects.push(s);
    }
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(o);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).expect("deflate");
    e.finish().expect("deflate")
}

/// The page of the hand-built PDFs.
const PAGE: [&str; 8] = [
    "Muster Beratung GmbH",
    "USt-IdNr. DE123456789",
    "Rechnung Nr. RE-2024-0042",
    "Datum: 11.03.2024",
    "Beratung 1 Std. 100,00",
    "Netto 100,00 EUR",
    "MwSt 19% 19,00 EUR",
    "Gesamtbetrag 119,00 EUR",
];

#[test]
fn the_attached_xml_gives_the_values_and_the_page_the_evidence() {
    let xml = cii("RE-2024-0042", "100.00", "19.00", "119.00");
    let packed = deflate(xml.as_bytes());
    let pdf = pdf_with_attachments(&PAGE, &[("factur-x.xml", "/Filter /FlateDecode", &packed)]);
    let (r, stages) = recognize(&pdf).expect("recognised");
    assert_eq!(r.document.number.as_deref(), Some("RE-2024-0042"));
    assert_eq!(r.totals.total.as_deref(), Some("119.00"));
    assert_eq!(r.totals.net.as_deref(), Some("100.00"));
    assert_eq!(r.line_items.len(), 1);
    assert_eq!(r.line_items[0].description.as_deref(), Some("Beratung"));
    assert_eq!(r.line_items[0].unit_code.as_deref(), Some("HUR"));
    assert_eq!(r.confidence.fields["/totals/total"], 1.0);
    // The page prints the number and the total: evidence from the XML's side, on page 1.
    for key in ["/document/number", "/totals/total"] {
        let ev = r
            .evidence
            .get(key)
            .unwrap_or_else(|| panic!("{key}: {:?}", r.evidence));
        assert_eq!(ev.source, Source::EInvoice, "{key}");
        assert_eq!(ev.page, 1, "{key}");
    }
    assert!(
        !codes(&r).iter().any(|c| c.starts_with("E_INVOICE")),
        "{:?}",
        r.validation
    );
    assert!(stages.contains(&Stage::TextExtracting) && stages.contains(&Stage::Cleaning));
    assert_schema_valid(&r);
}

#[test]
fn a_page_that_disagrees_with_its_xml_is_reported() {
    // The XML says 1190.00; the page prints 119,00.
    let xml = cii("RE-2024-0042", "1000.00", "190.00", "1190.00");
    let pdf = pdf_with_attachments(&PAGE, &[("factur-x.xml", "", xml.as_bytes())]);
    let (r, _) = recognize(&pdf).expect("recognised");
    assert_eq!(r.totals.total.as_deref(), Some("1190.00"));
    let mismatches: Vec<&str> = r
        .validation
        .warnings
        .iter()
        .filter(|i| i.code == "E_INVOICE_MISMATCH")
        .map(|i| i.message.as_str())
        .collect();
    assert!(
        mismatches
            .iter()
            .any(|m| m.contains("1190.00") && m.contains("119.00")),
        "{:?}",
        r.validation
    );
    assert_ne!(r.validation.status, ValidationStatus::Ok);
}

#[test]
fn two_attached_invoices_that_disagree_give_the_visual_reading() {
    let a = cii("RE-2024-0042", "100.00", "19.00", "119.00");
    let b = cii("RE-2024-0043", "200.00", "38.00", "238.00");
    let pdf = pdf_with_attachments(
        &PAGE,
        &[
            ("factur-x.xml", "", a.as_bytes()),
            ("other.xml", "", b.as_bytes()),
        ],
    );
    let (r, _) = recognize(&pdf).expect("recognised");
    let w = warning(&r, "E_INVOICE_UNREADABLE").unwrap_or_else(|| panic!("{:?}", r.validation));
    assert!(w.message.contains("disagree"), "{}", w.message);
    assert!(r.evidence.values().all(|e| e.source != Source::EInvoice));
    // The same invoice attached twice is one invoice.
    let pdf = pdf_with_attachments(
        &PAGE,
        &[
            ("factur-x.xml", "", a.as_bytes()),
            ("copy.xml", "", a.as_bytes()),
        ],
    );
    let (r, _) = recognize(&pdf).expect("recognised");
    assert!(
        warning(&r, "E_INVOICE_UNREADABLE").is_none(),
        "{:?}",
        r.validation
    );
    assert_eq!(r.confidence.fields["/document/number"], 1.0);
}

#[test]
fn hostile_attachments_never_fail_the_document() {
    let bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">\
                <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]>\n\
                <rsm:CrossIndustryInvoice xmlns:rsm=\"urn:un:unece:uncefact:data:standard:\
                CrossIndustryInvoice:100\">&lol2;</rsm:CrossIndustryInvoice>";
    let malformed = "<rsm:CrossIndustryInvoice xmlns:rsm=\"urn:un:unece:uncefact:data:standard:\
                     CrossIndustryInvoice:100\"><rsm:ExchangedDocument>";
    let xhtml = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>hi</body></html>";
    for (what, data) in [
        ("entity bomb", bomb),
        ("malformed", malformed),
        ("not an invoice", xhtml),
    ] {
        let pdf = pdf_with_attachments(&PAGE, &[("factur-x.xml", "", data.as_bytes())]);
        let (r, _) = recognize(&pdf).unwrap_or_else(|e| panic!("{what}: {e}"));
        let w = warning(&r, "E_INVOICE_UNREADABLE")
            .unwrap_or_else(|| panic!("{what}: {:?}", r.validation));
        assert!(w.message.contains("factur-x.xml"), "{what}: {}", w.message);
        // The visual reading: the page's number.
        assert_eq!(r.document.number.as_deref(), Some("RE-2024-0042"), "{what}");
        assert!(r.evidence.values().all(|e| e.source != Source::EInvoice));
    }
    // 17 MB once inflated: measured by the pre-scan, never handed to pdfium's attachment
    // reader, and not charged to the document's 40 MB budget.
    let huge = deflate(&vec![b' '; 17 * 1024 * 1024]);
    let xml = cii("RE-2024-0042", "100.00", "19.00", "119.00");
    let pdf = pdf_with_attachments(
        &PAGE,
        &[
            ("factur-x.xml", "", xml.as_bytes()),
            ("big.bin", "/Filter /FlateDecode", &huge),
        ],
    );
    let (r, _) = recognize(&pdf).expect("a big attachment is no error");
    let w = warning(&r, "E_INVOICE_UNREADABLE").unwrap_or_else(|| panic!("{:?}", r.validation));
    assert!(w.message.contains("more than 16 MB"), "{}", w.message);
    assert!(r.evidence.values().all(|e| e.source != Source::EInvoice));
}

#[test]
fn the_repository_e_invoice_pdfs() {
    for name in [
        "einvoice_facturx_minimum",
        "einvoice_facturx_basic",
        "einvoice_facturx_en16931",
        "einvoice_facturx_extended",
        "einvoice_facturx_creditnote",
        "einvoice_xrechnung_cii",
        "einvoice_zugferd1_comfort",
    ] {
        let (r, _) = recognize(&read(&format!("{name}.pdf"))).expect(name);
        let t = truth(&format!("{name}.truth.json"));
        assert_eq!(r.document.number.as_deref(), t["number"].as_str(), "{name}");
        assert_eq!(r.totals.total.as_deref(), t["total"].as_str(), "{name}");
        assert_eq!(r.confidence.fields["/document/number"], 1.0, "{name}");
        assert!(
            warning(&r, "E_INVOICE_UNREADABLE").is_none()
                && warning(&r, "E_INVOICE_MISMATCH").is_none(),
            "{name}: {:?}",
            r.validation
        );
        assert_schema_valid(&r);
    }
    let (r, _) = recognize(&read("einvoice_mismatch.pdf")).expect("mismatch");
    assert!(
        warning(&r, "E_INVOICE_MISMATCH").is_some(),
        "{:?}",
        r.validation
    );
    for name in [
        "einvoice_bad_entity_bomb",
        "einvoice_bad_huge",
        "einvoice_bad_malformed",
        "einvoice_bad_not_invoice",
        "einvoice_bad_two_invoices",
    ] {
        let (r, _) = recognize(&read(&format!("{name}.pdf"))).expect(name);
        assert!(
            warning(&r, "E_INVOICE_UNREADABLE").is_some(),
            "{name}: {:?}",
            r.validation
        );
        assert!(
            r.evidence.values().all(|e| e.source != Source::EInvoice),
            "{name}"
        );
    }
}

/// An OCR engine that reads the page's number and total (a scan of [`PAGE`]).
struct ScanOcr(Mutex<Vec<u32>>);

impl OcrEngine for ScanOcr {
    fn recognize(&self, image: &GrayImage, req: &OcrRequest<'_>) -> folio::Result<TextPage> {
        self.0.lock().expect("lock").push(req.page);
        let lines = ["Rechnung Nr. RE-2024-0042", "Gesamtbetrag 119,00 EUR"];
        let mut words = Vec::new();
        for (row, line) in lines.iter().enumerate() {
            let y = 100.0 + 40.0 * row as f32;
            let mut x = 100.0;
            for w in line.split(' ') {
                let x1 = x + 14.0 * w.len() as f32;
                words.push(folio::types::Word {
                    text: w.to_string(),
                    bbox: folio::types::BBox::new(x, y, x1, y + 24.0),
                    confidence: 0.95,
                });
                x = x1 + 14.0;
            }
        }
        Ok(TextPage {
            page: req.page,
            width: image.width() as f32,
            height: image.height() as f32,
            unit: folio::result::Unit::Px,
            source: Source::Ocr,
            engine: None,
            rotation: 0,
            words,
        })
    }
}

#[test]
fn a_scanned_page_is_still_ocred_and_the_xml_wins() {
    // A page without a text layer (drawn bars stand for the scan) and the XML attached.
    let xml = cii("RE-2024-0042", "100.00", "19.00", "119.00");
    let pdf = pdf_with_content(
        "0 g 72 700 400 14 re f 72 660 300 14 re f",
        &[("factur-x.xml", "", xml.as_bytes())],
    );
    let ocr = Arc::new(ScanOcr(Mutex::new(Vec::new())));
    let engine =
        Engine::with_components(EngineConfig::default(), ocr.clone(), Arc::new(RuleScorer))
            .expect("engine builds");
    let r = engine
        .recognize_bytes(
            &pdf,
            &RecognizeOptions::default(),
            &|_| {},
            &CancelToken::new(),
        )
        .expect("recognised");
    assert_eq!(*ocr.0.lock().expect("lock"), [1], "the page was OCR'd");
    assert_eq!(r.document.number.as_deref(), Some("RE-2024-0042"));
    assert_eq!(r.totals.net.as_deref(), Some("100.00"));
    assert_eq!(r.confidence.fields["/totals/net"], 1.0);
    // The cross-check saw the OCR text: the number's evidence is on the scan, in pixels.
    let ev = r.evidence.get("/document/number").expect("evidence");
    assert_eq!(
        (ev.source, ev.unit),
        (Source::EInvoice, folio::result::Unit::Px)
    );
}

#[test]
fn xml_that_is_not_an_e_invoice_is_refused_and_broken_ones_are_corrupt() {
    let other = b"<?xml version=\"1.0\"?><catalog><book>x</book></catalog>";
    let e = recognize(other).unwrap_err();
    assert_eq!(e.code(), ErrorCode::UnsupportedFileType);
    assert!(
        e.to_string().contains("CII") && e.to_string().contains("UBL"),
        "{e}"
    );
    let mut broken = cii("X-1", "1.00", "0.19", "1.19");
    broken.truncate(broken.len() / 2);
    assert_eq!(
        recognize(broken.as_bytes()).unwrap_err().code(),
        ErrorCode::CorruptFile
    );
    let dtd = cii("X-1", "1.00", "0.19", "1.19").replacen(
        "<rsm:CrossIndustryInvoice",
        "<!DOCTYPE x [<!ENTITY a \"b\">]><rsm:CrossIndustryInvoice",
        1,
    );
    assert_eq!(
        recognize(dtd.as_bytes()).unwrap_err().code(),
        ErrorCode::CorruptFile
    );
    // Over 16 MB (under the 20 MB file size limit): too large for an e-invoice.
    let mut big = cii("X-1", "1.00", "0.19", "1.19");
    big.push_str(&format!("<!--{}-->", " ".repeat(17 * 1024 * 1024)));
    assert_eq!(
        recognize(big.as_bytes()).unwrap_err().code(),
        ErrorCode::FileTooLarge
    );
}
