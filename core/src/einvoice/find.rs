//! Finding the invoice XML among a PDF's attachments (ZUGFeRD, Factur-X, XRechnung embedded in
//! a PDF/A-3 file) and parsing it.
//!
//! # What is looked at
//! The attachments pdfium lists ([`PdfLib::attachments`]): the entries of the document's
//! `EmbeddedFiles` name tree. PDF/A-3 names its associated files in `/AF` arrays (of the catalog,
//! a page or an object) and, for them to be found as attachments, also in that name tree:
//! Factur-X and ZUGFeRD require both, so their XML is found. A file named only in an `/AF`
//! array, or attached to a page through a file attachment annotation, is not seen by pdfium's
//! attachment list and not looked at.
//!
//! # Which attachment
//! The first [`MAX_ATTACHMENTS`] attachments are looked at, each at most
//! [`MAX_ATTACHMENT_BYTES`] long. Those named `factur-x.xml`, `zugferd-invoice.xml`,
//! `xrechnung.xml` (any letter case) come first, then any other whose content
//! [`super::sniff`] recognises as CII or UBL; each is parsed with [`super::parse`]. The first
//! that parses is the invoice, unless another attachment parses as an invoice with a different
//! number or different totals: which of the two is true is unknown, so neither is used and the
//! document is read from its pages, with a warning.
//!
//! # Warnings
//! Every attachment that looked like the invoice and was not used gives an
//! `E_INVOICE_UNREADABLE` warning saying why (malformed, a DTD or entities, too large, not an
//! invoice, two invoices that disagree); an embedded file that unpacks to more than the limit
//! (the pre-scan measures them: [`crate::preprocess::EmbeddedFiles`]) stops every attachment of
//! the PDF from being read, since pdfium would unpack it whole and its attachments cannot be
//! told apart before their content is asked for. None of this ever fails the document.

use super::EInvoice;
use crate::pdf::{PdfAttachmentFile, PdfLib};
use crate::result::Issue;

/// The warning code of an e-invoice XML that was found and not used.
pub const UNREADABLE: &str = "E_INVOICE_UNREADABLE";
/// The most attachments of one PDF that are looked at.
pub const MAX_ATTACHMENTS: usize = 32;
/// The largest attachment whose content is read: the e-invoice limit (16 MB), beyond which
/// [`super::parse`] refuses an XML anyway.
pub const MAX_ATTACHMENT_BYTES: usize = super::xml::MAX_BYTES;

/// Attachment names that the standards give the invoice XML: Factur-X / ZUGFeRD 2.x, ZUGFeRD
/// 1.0 (`ZUGFeRD-invoice.xml`, matched without regard to letter case), XRechnung in a PDF.
const KNOWN_NAMES: [&str; 3] = ["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml"];

/// What [`find`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    /// The invoice, when one attachment (or several that agree) parsed as one.
    pub invoice: Option<EInvoice>,
    /// The name of the attachment it was read from.
    pub attachment: Option<String>,
    /// Why an attachment that looked like the invoice was not used (`E_INVOICE_UNREADABLE`).
    pub warnings: Vec<Issue>,
}

/// An `E_INVOICE_UNREADABLE` warning.
pub fn unreadable(message: String) -> Issue {
    Issue {
        code: UNREADABLE.to_string(),
        message,
        field: None,
    }
}

/// The invoice XML among the attachments of `pdf` (see the module's documentation).
/// `oversized`: the pre-scan found an embedded file over [`MAX_ATTACHMENT_BYTES`]
/// ([`crate::preprocess::EmbeddedFiles::oversized`], in [`crate::preprocess::preprocess`]'s
/// answer for a PDF); then no attachment is read. Pass `false` only for a PDF that preprocessing
/// passed, or one you trust: pdfium unpacks an attachment whole to tell its size, whatever the
/// size. A PDF that pdfium cannot open gives nothing (the text extraction reports that error).
/// The engine does the same over its one opening of the PDF ([`Chooser`]).
pub fn find(lib: &PdfLib, pdf: &[u8], oversized: bool) -> Found {
    if oversized {
        return refused();
    }
    let mut chooser = Chooser::default();
    let listed = lib.attachments(pdf, MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES, &mut |a| {
        chooser.add(a)
    });
    match listed {
        Ok(more) => chooser.finish(more),
        Err(_) => Found::default(),
    }
}

/// What [`find`] answers for a PDF with an oversized embedded file.
pub fn refused() -> Found {
    Found {
        warnings: vec![unreadable(format!(
            "an attached file unpacks to more than {} MB: the PDF's attachments were not read",
            MAX_ATTACHMENT_BYTES / (1024 * 1024)
        ))],
        ..Found::default()
    }
}

/// Whether `name` is one the standards give the invoice XML.
fn known_name(name: &str) -> bool {
    KNOWN_NAMES.iter().any(|k| name.eq_ignore_ascii_case(k))
}

/// The attachment's name for messages.
fn shown(a: &PdfAttachmentFile) -> String {
    if a.name.is_empty() {
        "an attached file without a name".to_string()
    } else {
        format!("the attached file {:?}", a.name)
    }
}

/// Whether two parsed invoices say the same: number, totals, payable amount.
fn agree(a: &EInvoice, b: &EInvoice) -> bool {
    a.result.document.number == b.result.document.number
        && a.sums.grand_total == b.sums.grand_total
        && a.sums.tax_basis_total == b.sums.tax_basis_total
        && a.sums.tax_total == b.sums.tax_total
        && a.sums.payable == b.sums.payable
}

/// Chooses the invoice among a PDF's attachments, handed over one at a time as pdfium reads
/// them (the part of [`find`] after pdfium): each candidate is parsed when it comes, so only
/// its parse stays in memory.
#[derive(Debug, Default)]
pub struct Chooser {
    /// Parsed invoices: whether the name is a standard one, the name, the invoice.
    parsed: Vec<(bool, String, EInvoice)>,
    /// Why candidates were not used: (whether the name is a standard one, the warning).
    unusable: Vec<(bool, Issue)>,
    /// Attachments seen.
    seen: usize,
}

impl Chooser {
    /// Looks at one attachment.
    pub fn add(&mut self, a: PdfAttachmentFile) {
        self.seen += 1;
        let named = known_name(&a.name);
        let Some(data) = &a.data else {
            if named {
                self.unusable.push((
                    true,
                    unreadable(format!(
                        "{} unpacks to {} bytes, more than the {} MB an e-invoice may have",
                        shown(&a),
                        a.size,
                        MAX_ATTACHMENT_BYTES / (1024 * 1024)
                    )),
                ));
            }
            return;
        };
        if !named && super::sniff(data).is_none() {
            return;
        }
        match super::parse(data) {
            Ok(e) => self.parsed.push((named, a.name, e)),
            Err(e) => self.unusable.push((
                named,
                unreadable(format!("{} was not used: {e}", shown(&a))),
            )),
        }
    }

    /// The choice, when the document lists `more` attachments past those handed over.
    pub fn finish(mut self, more: usize) -> Found {
        // Standard names first, then in the document's order (the sort is stable).
        self.parsed.sort_by_key(|(named, ..)| !named);
        self.unusable.sort_by_key(|(named, _)| !named);
        let mut found = Found {
            warnings: self.unusable.into_iter().map(|(_, w)| w).collect(),
            ..Found::default()
        };
        if more > 0 && self.parsed.is_empty() {
            found.warnings.push(unreadable(format!(
                "the PDF has {} attachments; only the first {MAX_ATTACHMENTS} were looked at",
                self.seen + more
            )));
        }
        let mut parsed = self.parsed.into_iter();
        let Some((_, name, invoice)) = parsed.next() else {
            return found;
        };
        if let Some((_, other, _)) = parsed.find(|(_, _, e)| !agree(&invoice, e)) {
            found.warnings.push(unreadable(format!(
                "the attached files {name:?} and {other:?} are two invoices that disagree \
                 (number or totals); neither was used, since which one is true is unknown"
            )));
            return found;
        }
        found.attachment = Some(name);
        found.invoice = Some(invoice);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cii(number: &str, total: &str) -> Vec<u8> {
        format!(
            r#"<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"><rsm:ExchangedDocument><ram:ID>{number}</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:ExchangedDocument><rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:GrandTotalAmount>{total}</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation></ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>"#
        )
        .into_bytes()
    }

    fn file(name: &str, data: Option<Vec<u8>>) -> PdfAttachmentFile {
        PdfAttachmentFile {
            name: name.into(),
            size: data.as_ref().map_or(MAX_ATTACHMENT_BYTES + 1, Vec::len),
            data,
        }
    }

    fn choose(files: Vec<PdfAttachmentFile>, more: usize) -> Found {
        let mut c = Chooser::default();
        for f in files {
            c.add(f);
        }
        c.finish(more)
    }

    fn number(f: &Found) -> Option<&str> {
        f.invoice.as_ref()?.result.document.number.as_deref()
    }

    #[test]
    fn the_standard_names_come_first_then_any_invoice_by_content() {
        // A picture and a text file are no candidates; no warning for them.
        let f = choose(
            vec![
                file("logo.png", Some(b"\x89PNG....".to_vec())),
                file("notes.txt", Some(b"hello".to_vec())),
            ],
            0,
        );
        assert_eq!(f, Found::default());
        // Any name, by content.
        let f = choose(vec![file("invoice-42.xml", Some(cii("42", "1.00")))], 0);
        assert_eq!(number(&f), Some("42"));
        assert_eq!(f.attachment.as_deref(), Some("invoice-42.xml"));
        // The standard name, in any letter case, is taken first; the same invoice again agrees.
        let f = choose(
            vec![
                file("copy.xml", Some(cii("42", "1.00"))),
                file("ZUGFeRD-invoice.xml", Some(cii("42", "1.00"))),
            ],
            0,
        );
        assert_eq!(f.attachment.as_deref(), Some("ZUGFeRD-invoice.xml"));
        assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    }

    #[test]
    fn unusable_candidates_are_warnings_and_disagreement_uses_none() {
        // A broken factur-x.xml beside a good invoice: the good one, with a warning.
        let f = choose(
            vec![
                file("factur-x.xml", Some(b"<rsm:CrossIndustryInvoice".to_vec())),
                file("other.xml", Some(cii("7", "2.00"))),
            ],
            0,
        );
        assert_eq!(number(&f), Some("7"));
        assert_eq!(f.warnings.len(), 1);
        assert_eq!(f.warnings[0].code, UNREADABLE);
        assert!(f.warnings[0].message.contains("factur-x.xml"));
        // A standard name too large to read.
        let f = choose(vec![file("xrechnung.xml", None)], 0);
        assert!(f.invoice.is_none());
        assert!(
            f.warnings[0].message.contains("more than the 16 MB"),
            "{:?}",
            f.warnings
        );
        // Two invoices with different totals: neither.
        let f = choose(
            vec![
                file("factur-x.xml", Some(cii("7", "2.00"))),
                file("b.xml", Some(cii("7", "3.00"))),
            ],
            0,
        );
        assert!(f.invoice.is_none() && f.attachment.is_none());
        assert!(
            f.warnings[0].message.contains("disagree"),
            "{:?}",
            f.warnings
        );
        // Attachments past the limit are said to be unread when nothing was found.
        let f = choose(Vec::new(), 40);
        assert!(
            f.warnings[0].message.contains("first 32"),
            "{:?}",
            f.warnings
        );
        // The pre-scan's refusal.
        let f = refused();
        assert!(f.invoice.is_none());
        assert_eq!(
            f.warnings[0].message,
            "an attached file unpacks to more than 16 MB: the PDF's attachments were not read"
        );
    }

    /// A Factur-X fixture through pdfium (skipped when pdfium or the fixtures are absent).
    #[test]
    fn find_reads_a_factur_x_pdf_through_pdfium() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/docs");
        let Ok(pdf) = std::fs::read(dir.join("einvoice_facturx_en16931.pdf")) else {
            eprintln!("skipped: no fixtures");
            return;
        };
        let lib = match PdfLib::get(None) {
            Ok(lib) => lib,
            Err(e) => {
                eprintln!("skipped: {e}");
                return;
            }
        };
        let f = find(lib, &pdf, false);
        assert_eq!(f.attachment.as_deref(), Some("factur-x.xml"));
        assert!(f.invoice.is_some() && f.warnings.is_empty(), "{f:?}");
        // The pre-scan's verdict is obeyed without asking pdfium.
        assert_eq!(find(lib, &pdf, true), refused());
        // pdfium's listing: the limits on size and count.
        let mut seen = Vec::new();
        let more = lib
            .attachments(&pdf, 32, 10, &mut |a| seen.push(a))
            .unwrap();
        assert_eq!(more, 0);
        assert_eq!(seen.len(), 1);
        assert!(
            seen[0].size > 10 && seen[0].data.is_none(),
            "{:?}",
            seen[0].size
        );
        let more = lib.attachments(&pdf, 0, 1 << 20, &mut |_| panic!("none asked for"));
        assert_eq!(more.unwrap(), 1);
        // A PDF without attachments, and bytes pdfium cannot open: nothing, no warning.
        let plain = std::fs::read(dir.join("invoice_de_text.pdf")).unwrap();
        assert_eq!(find(lib, &plain, false), Found::default());
        assert_eq!(find(lib, b"%PDF-1.7 garbage", false), Found::default());
    }
}
