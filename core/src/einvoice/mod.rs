//! E-invoices: the machine-readable invoice inside a PDF (ZUGFeRD, Factur-X, XRechnung, embedded
//! as a PDF/A-3 attachment) or beside it (a standalone CII or UBL XML file).
//!
//! The stage runs beside text extraction (the engine reports it as `TEXT_EXTRACTING`):
//! 1. `find`: the invoice XML among a PDF's attachments;
//! 2. `parse`: CII (ZUGFeRD 1.0 `CrossIndustryDocument`, ZUGFeRD 2.x / Factur-X / XRechnung
//!    `CrossIndustryInvoice`) or UBL 2.1 (`Invoice`, `CreditNote`) into an [`EInvoice`];
//! 3. `rules`: the EN 16931 arithmetic (BR-CO-10 ...) of the parsed invoice;
//! 4. `crosscheck`: the XML's values against what the page shows, with evidence.
//!
//! An [`EInvoice`] holds the [`DocumentResult`] values the XML carries, and beside them the
//! amounts of the XML that the Result has no place for but the EN 16931 rules need (the
//! document totals as the XML states them, the VAT breakdown with its categories, each line's
//! net amount, the document-level allowances and charges).

pub mod crosscheck;
pub use crosscheck::{CrossCheck, crosscheck};

use crate::result::DocumentResult;
use rust_decimal::Decimal;

pub mod find;
pub mod merge;
pub use find::{Found, find};

pub mod rules;
pub use rules::rules;

// Parsing (P): the bounded XML reader, the two syntaxes, the code lists.
mod cii;
pub mod codes;
mod fill;
mod ubl;
pub mod xml;

/// How many leading bytes [`sniff`] looks at.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// The syntax of a root element (local name, namespace URI); `None` for any other XML.
fn syntax_of(name: &str, ns: Option<&str>) -> Option<Syntax> {
    match (name, ns?) {
        (
            "CrossIndustryInvoice",
            "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
        ) => Some(Syntax::Cii),
        ("CrossIndustryDocument", "urn:ferd:CrossIndustryDocument:invoice:1p0") => {
            Some(Syntax::Zugferd1)
        }
        ("Invoice", "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2") => {
            Some(Syntax::UblInvoice)
        }
        ("CreditNote", "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2") => {
            Some(Syntax::UblCreditNote)
        }
        _ => None,
    }
}

/// Whether bytes are an e-invoice XML, and in which syntax: by the root element's local name and
/// namespace, read from the first [`SNIFF_BYTES`] (after a BOM, the XML declaration, comments,
/// processing instructions). Cheap; nothing else is checked (that is [`parse`]'s job).
pub fn sniff(bytes: &[u8]) -> Option<Syntax> {
    let (name, ns) = xml::root_of(bytes, SNIFF_BYTES)?;
    syntax_of(&name, ns.as_deref())
}

/// Parses a CII or UBL e-invoice XML into an [`EInvoice`] (see [`xml`] for the limits: over 16
/// MiB is `FILE_TOO_LARGE`; a DOCTYPE, deeper than 64, over 1,000,000 elements or malformed XML is
/// `CORRUPT_FILE`; well-formed XML that is no CII or UBL invoice is `UNSUPPORTED_FILE_TYPE`).
/// Confidence is 1.0 for every field the XML carries.
pub fn parse(bytes: &[u8]) -> crate::Result<EInvoice> {
    let not_invoice = |name: &str, ns: Option<&str>| {
        crate::Error::UnsupportedFileType(format!(
            "XML with root element <{name}>{} is not a CII or UBL e-invoice",
            ns.map(|n| format!(" in namespace {n}")).unwrap_or_default()
        ))
    };
    if bytes.len() <= xml::MAX_BYTES
        && let Some((name, ns)) = xml::root_of(bytes, SNIFF_BYTES)
        && syntax_of(&name, ns.as_deref()).is_none()
    {
        return Err(not_invoice(&name, ns.as_deref()));
    }
    let doc = xml::read(bytes)?;
    let root = doc.root();
    let syntax = syntax_of(root.name(), doc.root_ns())
        .ok_or_else(|| not_invoice(root.name(), doc.root_ns()))?;
    let (mut e, type_code) = match syntax {
        Syntax::Cii | Syntax::Zugferd1 => cii::parse(root, syntax),
        Syntax::UblInvoice | Syntax::UblCreditNote => ubl::parse(root, syntax),
    };
    fill::finish(
        &mut e,
        type_code.as_deref(),
        syntax == Syntax::UblCreditNote,
    );
    Ok(e)
}

/// The XML syntax of an e-invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// UN/CEFACT Cross Industry Invoice D16B (`rsm:CrossIndustryInvoice`): ZUGFeRD 2.x,
    /// Factur-X, XRechnung CII.
    Cii,
    /// ZUGFeRD 1.0 (`rsm:CrossIndustryDocument`, CII D13B-based).
    Zugferd1,
    /// UBL 2.1 `Invoice` (XRechnung UBL, Peppol BIS Billing 3.0).
    UblInvoice,
    /// UBL 2.1 `CreditNote`.
    UblCreditNote,
}

impl Syntax {
    /// A short human name, used in messages ("CII", "UBL Invoice" ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            Syntax::Cii => "CII",
            Syntax::Zugferd1 => "ZUGFeRD 1.0 CII",
            Syntax::UblInvoice => "UBL Invoice",
            Syntax::UblCreditNote => "UBL CreditNote",
        }
    }
}

/// A parsed e-invoice.
#[derive(Debug, Clone, PartialEq)]
pub struct EInvoice {
    /// Which syntax it was written in.
    pub syntax: Syntax,
    /// The specification identifier (CII `GuidelineSpecifiedDocumentContextParameter/ID`, UBL
    /// `CustomizationID`), e.g. `urn:cen.eu:en16931:2017`, which names the profile.
    pub guideline: Option<String>,
    /// Every Result value the XML carries (values only: `evidence` is empty, `confidence` and
    /// `validation` are left for the engine to fill).
    pub result: DocumentResult,
    /// The document totals as the XML states them.
    pub sums: Sums,
    /// The VAT breakdown (one entry per category and rate).
    pub vat_breakdown: Vec<VatBreakdown>,
    /// Each line's net amount, in document order (`None` where a line states none): the lines
    /// that count into the line total BT-106, so without the `GROUP` and `INFORMATION` lines of a
    /// CII EXTENDED invoice (shorter than `result.line_items` when it has such lines).
    pub line_nets: Vec<Option<Decimal>>,
    /// Document-level allowances and charges (line-level ones are inside their line's net).
    pub allowance_charges: Vec<AllowanceCharge>,
}

/// The document totals (CII `SpecifiedTradeSettlementHeaderMonetarySummation`, UBL
/// `LegalMonetaryTotal` and `TaxTotal`), as stated, with the sign the XML gives them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sums {
    /// BT-106 sum of line net amounts.
    pub line_total: Option<Decimal>,
    /// BT-107 sum of document-level allowances.
    pub allowance_total: Option<Decimal>,
    /// BT-108 sum of document-level charges.
    pub charge_total: Option<Decimal>,
    /// BT-109 total without VAT.
    pub tax_basis_total: Option<Decimal>,
    /// BT-110 total VAT in the document currency.
    pub tax_total: Option<Decimal>,
    /// BT-112 total with VAT.
    pub grand_total: Option<Decimal>,
    /// BT-113 paid amount.
    pub prepaid: Option<Decimal>,
    /// BT-114 rounding amount.
    pub rounding: Option<Decimal>,
    /// BT-115 amount due for payment.
    pub payable: Option<Decimal>,
}

/// One VAT breakdown entry (BG-23).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VatBreakdown {
    /// BT-118 VAT category code (S, Z, E, AE, K, G, O, L, M).
    pub category: Option<String>,
    /// BT-119 rate in percent.
    pub rate: Option<Decimal>,
    /// BT-116 taxable amount.
    pub base: Option<Decimal>,
    /// BT-117 tax amount.
    pub amount: Option<Decimal>,
}

/// A document-level allowance (BG-20) or charge (BG-21).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AllowanceCharge {
    /// A charge (true) or an allowance (false).
    pub charge: bool,
    /// BT-92 / BT-99 amount.
    pub amount: Option<Decimal>,
    /// BT-93 / BT-100 base amount.
    pub base: Option<Decimal>,
    /// BT-94 / BT-101 percentage.
    pub percent: Option<Decimal>,
    /// BT-95 / BT-102 VAT category code.
    pub vat_category: Option<String>,
    /// BT-96 / BT-103 VAT rate.
    pub vat_rate: Option<Decimal>,
    /// BT-97 / BT-104 reason.
    pub reason: Option<String>,
}
