//! The Result JSON of one document (`schema_version` "1.0"), exactly as `contract.md` defines it.
//!
//! Money, quantities and rates are canonical decimal strings (`"1234.56"`); dates are `YYYY-MM-DD`;
//! unknown values are `null`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The JSON Schema (2020-12) of the Result JSON (`core/schema/result.schema.json`).
pub const JSON_SCHEMA: &str = include_str!("../schema/result.schema.json");

/// Version written into every result.
pub const SCHEMA_VERSION: &str = "1.0";

/// One recognised document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentResult {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: String,
    /// Header fields.
    pub document: DocumentInfo,
    /// Document type with confidence.
    pub document_type: DocumentTypeInfo,
    /// Layout structure.
    pub structure_type: StructureTypeInfo,
    /// Seller, buyer and others.
    pub parties: Parties,
    /// Table rows.
    pub line_items: Vec<LineItem>,
    /// Totals.
    pub totals: Totals,
    /// Tax breakdown.
    pub taxes: Vec<TaxLine>,
    /// Bank accounts.
    pub bank_accounts: Vec<BankAccount>,
    /// People who sign.
    pub signatories: Vec<Signatory>,
    /// Contract, period, order, terms, notes.
    pub extra_fields: ExtraFields,
    /// Per-field confidence.
    pub confidence: Confidence,
    /// Where each field came from, keyed by JSON pointer.
    pub evidence: BTreeMap<String, Evidence>,
    /// The size of every page that was read, in the unit and orientation of its evidence boxes
    /// (empty for a standalone XML e-invoice, which has no page). Absent from results written
    /// before it existed: read as empty.
    #[serde(default)]
    pub pages: Vec<PageGeometry>,
    /// Validation findings.
    pub validation: Validation,
    /// Whether the enhanced (heavy) path ran.
    pub super_ai_used: bool,
}

/// `document` block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentInfo {
    /// Document number.
    pub number: Option<String>,
    /// Issue date, `YYYY-MM-DD`.
    pub date: Option<String>,
    /// Due date, `YYYY-MM-DD`.
    pub due_date: Option<String>,
    /// Title as printed (e.g. "Rechnung").
    pub title: Option<String>,
    /// ISO 4217 code.
    pub currency: Option<String>,
    /// ISO 639-1 code.
    pub language: Option<String>,
}

/// Document type codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DocumentType {
    /// Invoice.
    Invoice,
    /// Proforma invoice.
    ProformaInvoice,
    /// Credit note.
    CreditNote,
    /// Tax invoice (e.g. Ukrainian/Russian tax invoice).
    TaxInvoice,
    /// Certificate of completed works / acceptance act.
    Act,
    /// Waybill / delivery note.
    Waybill,
    /// Receipt.
    Receipt,
    /// Contract.
    Contract,
    /// Anything else.
    Other,
}

impl DocumentType {
    /// Every type but `OTHER` (the types the classifier weighs).
    pub const NAMED: [DocumentType; 8] = [
        DocumentType::Invoice,
        DocumentType::ProformaInvoice,
        DocumentType::CreditNote,
        DocumentType::TaxInvoice,
        DocumentType::Act,
        DocumentType::Waybill,
        DocumentType::Receipt,
        DocumentType::Contract,
    ];

    /// The code as the Result writes it (`CREDIT_NOTE`).
    pub fn code(self) -> &'static str {
        match self {
            DocumentType::Invoice => "INVOICE",
            DocumentType::ProformaInvoice => "PROFORMA_INVOICE",
            DocumentType::CreditNote => "CREDIT_NOTE",
            DocumentType::TaxInvoice => "TAX_INVOICE",
            DocumentType::Act => "ACT",
            DocumentType::Waybill => "WAYBILL",
            DocumentType::Receipt => "RECEIPT",
            DocumentType::Contract => "CONTRACT",
            DocumentType::Other => "OTHER",
        }
    }
}

/// `document_type` block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentTypeInfo {
    /// Type code.
    pub code: DocumentType,
    /// 0..1.
    pub confidence: f64,
}

/// Structure codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StructureType {
    /// One line-item table.
    Table,
    /// Several tables.
    MultiTable,
    /// Free text, no table.
    Text,
    /// Receipt layout (narrow, item lines without a table header).
    Receipt,
}

/// `structure_type` block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StructureTypeInfo {
    /// Structure code.
    pub code: StructureType,
}

/// A party (seller, buyer, other).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Party {
    /// Name.
    pub name: Option<String>,
    /// National tax id (INN, EDRPOU/IPN, Steuernummer, NIP ...).
    pub tax_id: Option<String>,
    /// EU VAT id (with country prefix).
    pub vat_id: Option<String>,
    /// Registration id (KPP, company register number ...).
    pub registration_id: Option<String>,
    /// Postal address.
    pub address: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// E-mail.
    pub email: Option<String>,
}

impl Party {
    /// True when nothing is known.
    pub fn is_empty(&self) -> bool {
        *self == Party::default()
    }
}

/// A party with another role (consignee, payer, ...).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OtherParty {
    /// The party.
    #[serde(flatten)]
    pub party: Party,
    /// Role, e.g. "consignee".
    pub role: String,
}

/// `parties` block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parties {
    /// Seller / supplier.
    pub seller: Party,
    /// Buyer / customer.
    pub buyer: Party,
    /// Other roles.
    pub other: Vec<OtherParty>,
}

/// One line item.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineItem {
    /// Position number.
    pub position: Option<u32>,
    /// Description.
    pub description: Option<String>,
    /// Article / SKU.
    pub sku: Option<String>,
    /// Quantity.
    pub quantity: Option<String>,
    /// Unit, readable (as printed, or the readable name of a UN/ECE code: "piece", "hour").
    pub unit: Option<String>,
    /// UN/ECE Recommendation 20 unit code (`H87`, `HUR`, `KGM` ...), where the document states
    /// one (e-invoices) or the printed unit maps to one.
    pub unit_code: Option<String>,
    /// Unit price.
    pub unit_price: Option<String>,
    /// The row's discount in percent of quantity x unit price (`10` for a printed `10 %`,
    /// from a discount column, a percentage the row's arithmetic uses, or an e-invoice line
    /// allowance's percentage).
    pub discount_rate: Option<String>,
    /// VAT rate in percent.
    pub vat_rate: Option<String>,
    /// VAT amount.
    pub vat_amount: Option<String>,
    /// Net amount.
    pub amount: Option<String>,
    /// Gross amount.
    pub amount_with_vat: Option<String>,
}

/// `totals` block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Totals {
    /// Net total.
    pub net: Option<String>,
    /// VAT total.
    pub vat: Option<String>,
    /// Gross total.
    pub total: Option<String>,
    /// Amount payable.
    pub payable: Option<String>,
    /// Document-level allowances (EN 16931 BT-107): the discount taken off the line items'
    /// sum, not a line's own discount.
    pub discount: Option<String>,
    /// Document-level charges (EN 16931 BT-108: freight, packaging, surcharges) added to the line
    /// items' sum: net = lines + charges - discount. An extension of the contract's totals.
    pub charges: Option<String>,
    /// Prepaid amount.
    pub prepaid: Option<String>,
}

/// One tax line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaxLine {
    /// Rate in percent.
    pub rate: Option<String>,
    /// Taxable base.
    pub base: Option<String>,
    /// Tax amount.
    pub amount: Option<String>,
}

/// Which party a bank account or signatory belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PartyRole {
    /// Seller.
    Seller,
    /// Buyer.
    Buyer,
    /// Another party.
    Other,
}

/// A bank account.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BankAccount {
    /// IBAN without spaces.
    pub iban: Option<String>,
    /// Non-IBAN account number.
    pub account_number: Option<String>,
    /// Bank name.
    pub bank_name: Option<String>,
    /// Bank code (BLZ, MFO, BIK, sort code ...).
    pub bank_code: Option<String>,
    /// SWIFT / BIC.
    pub swift_bic: Option<String>,
    /// Owner.
    pub party: Option<PartyRole>,
}

/// A signatory.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Signatory {
    /// Name.
    pub name: Option<String>,
    /// Position / title.
    pub position: Option<String>,
    /// Which side signs.
    pub party: Option<PartyRole>,
}

/// Contract reference.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContractRef {
    /// Contract number.
    pub number: Option<String>,
    /// Contract date.
    pub date: Option<String>,
}

/// Service period.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Period {
    /// From date.
    pub from: Option<String>,
    /// To date.
    pub to: Option<String>,
}

/// `extra_fields` block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraFields {
    /// Contract reference.
    pub contract: ContractRef,
    /// Service period.
    pub period: Period,
    /// Order number.
    pub order_number: Option<String>,
    /// Payment terms text.
    pub payment_terms: Option<String>,
    /// Free notes.
    pub notes: Vec<String>,
}

/// `confidence` block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Confidence {
    /// Overall 0..1.
    pub overall: f64,
    /// Per field, keyed by JSON pointer (`/document/number`).
    pub fields: BTreeMap<String, f64>,
}

/// Unit of evidence boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// PDF points (1/72 in), also used for office layouts.
    Pt,
    /// Image pixels.
    Px,
}

/// Where text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Source {
    /// PDF text layer.
    TextLayer,
    /// OCR.
    Ocr,
    /// Office document (DOC/DOCX/XLS/XLSX/RTF).
    Office,
    /// The machine-readable e-invoice (CII or UBL XML, in the PDF or standalone): the value
    /// comes from the XML; the box is where the page prints the same value.
    EInvoice,
}

/// The OCR engine that read a page (evidence `engine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OcrEngineName {
    /// tesseract (LSTM models of Debian's language packages).
    Tesseract,
    /// PaddleOCR's PP-OCRv6 models through onnxruntime.
    PpOcr,
}

/// Evidence for one field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// 1-based page.
    pub page: u32,
    /// `[x0, y0, x1, y1]`, origin top-left.
    pub bbox: [f64; 4],
    /// Unit of the box.
    pub unit: Unit,
    /// Text the value was read from.
    pub text: String,
    /// Source of the text.
    pub source: Source,
    /// The OCR engine that read the text (`None` for text layers, office files, e-invoices).
    #[serde(default)]
    pub engine: Option<OcrEngineName>,
}

/// One page as it was read: the coordinate space of its [`Evidence`] boxes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageGeometry {
    /// 1-based page number in the original document.
    pub page: u32,
    /// Width in `unit`, rounded to 0.01.
    pub width: f64,
    /// Height in `unit`, rounded to 0.01.
    pub height: f64,
    /// `pt` for a PDF text layer and office layouts, `px` for images, OCR'd pages and
    /// pre-recognised words.
    pub unit: Unit,
    /// Where the page's text came from.
    pub source: Source,
    /// Degrees (0, 90, 180, 270) the OCR turned the prepared page image clockwise to make it
    /// upright: `width`, `height` and the boxes are those of the turned image. 0 for pages not
    /// read by OCR.
    pub rotation: u16,
}

impl PageGeometry {
    /// The geometry of a page's words as the pipeline read them.
    pub fn of(page: &crate::types::TextPage) -> Self {
        let r = |v: f32| (f64::from(v) * 100.0).round() / 100.0;
        PageGeometry {
            page: page.page,
            width: r(page.width),
            height: r(page.height),
            unit: page.unit,
            source: page.source,
            rotation: page.rotation,
        }
    }
}

/// Validation status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ValidationStatus {
    /// No findings.
    Ok,
    /// Only warnings.
    Warnings,
    /// At least one error.
    Errors,
}

/// A validation finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Issue {
    /// Stable code, e.g. `TOTALS_MISMATCH`.
    pub code: String,
    /// Human-readable message.
    pub message: String,
    /// JSON pointer of the field concerned.
    pub field: Option<String>,
}

/// `validation` block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Validation {
    /// Summary status.
    pub status: ValidationStatus,
    /// Warnings.
    pub warnings: Vec<Issue>,
    /// Errors.
    pub errors: Vec<Issue>,
    /// The checks that had values to compare and held (`TOTALS_ARITHMETIC`, `LINE_ARITHMETIC`,
    /// `LINE_ITEMS_SUM`, `TAX_ARITHMETIC`, `IBAN_CHECKSUM`, `TAX_ID_CHECKSUM`).
    pub checks_passed: Vec<String>,
}

impl Default for Validation {
    fn default() -> Self {
        Validation {
            status: ValidationStatus::Ok,
            warnings: Vec::new(),
            errors: Vec::new(),
            checks_passed: Vec::new(),
        }
    }
}

impl DocumentResult {
    /// The line items with a money value (a net or a gross amount): those whose sum the
    /// totals must make.
    pub fn priced_lines(&self) -> Vec<&LineItem> {
        self.line_items
            .iter()
            .filter(|li| li.amount.is_some() || li.amount_with_vat.is_some())
            .collect()
    }

    /// How far the sum of the priced lines' rounded amounts may be from the total they make:
    /// one unit of the last printed digit, or half a unit per line. The unit is a cent, or a
    /// whole unit where the lines and the totals are all printed without decimals (whole
    /// forints: each row rounded to the forint).
    pub fn line_sum_tolerance(&self) -> rust_decimal::Decimal {
        let lines = self.priced_lines();
        let whole = |v: &Option<String>| v.as_deref().is_none_or(|v| !v.contains('.'));
        let whole_units = lines
            .iter()
            .all(|li| whole(&li.amount) && whole(&li.amount_with_vat))
            && [&self.totals.net, &self.totals.total]
                .into_iter()
                .all(whole);
        let scale = if whole_units { 1 } else { 3 };
        let halves = i64::try_from(lines.len())
            .unwrap_or(i64::MAX / 5)
            .saturating_mul(5);
        rust_decimal::Decimal::new(1, scale - 1).max(rust_decimal::Decimal::new(halves, scale))
    }

    /// An empty result (everything unknown).
    pub fn empty() -> Self {
        DocumentResult {
            schema_version: SCHEMA_VERSION.to_string(),
            document: DocumentInfo::default(),
            document_type: DocumentTypeInfo {
                code: DocumentType::Other,
                confidence: 0.0,
            },
            structure_type: StructureTypeInfo {
                code: StructureType::Text,
            },
            parties: Parties::default(),
            line_items: Vec::new(),
            totals: Totals::default(),
            taxes: Vec::new(),
            bank_accounts: Vec::new(),
            signatories: Vec::new(),
            extra_fields: ExtraFields::default(),
            confidence: Confidence::default(),
            evidence: BTreeMap::new(),
            pages: Vec::new(),
            validation: Validation::default(),
            super_ai_used: false,
        }
    }

    /// Serialises to compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("result serialises")
    }

    /// Serialises to pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("result serialises")
    }

    /// Whether the document ends PROCESSED (no findings) or PROCESSED_WITH_WARNINGS.
    pub fn final_status(&self) -> &'static str {
        match self.validation.status {
            ValidationStatus::Ok => "PROCESSED",
            _ => "PROCESSED_WITH_WARNINGS",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_result_round_trips_with_all_keys() {
        let r = DocumentResult::empty();
        let v = serde_json::to_value(&r).unwrap();
        for k in [
            "schema_version",
            "document",
            "document_type",
            "structure_type",
            "parties",
            "line_items",
            "totals",
            "taxes",
            "bank_accounts",
            "signatories",
            "extra_fields",
            "confidence",
            "evidence",
            "pages",
            "validation",
            "super_ai_used",
        ] {
            assert!(v.get(k).is_some(), "missing {k}");
        }
        assert!(v["document"]["number"].is_null());
        let back: DocumentResult = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn results_written_before_page_geometry_read_as_no_pages() {
        let mut v = serde_json::to_value(DocumentResult::empty()).unwrap();
        assert_eq!(v["pages"], serde_json::json!([]));
        v.as_object_mut().unwrap().remove("pages");
        let back: DocumentResult = serde_json::from_value(v).unwrap();
        assert!(back.pages.is_empty());
    }

    #[test]
    fn page_geometry_of_a_text_page_is_rounded_to_hundredths() {
        let page = crate::types::TextPage {
            page: 2,
            width: 595.276,
            height: 841.89,
            unit: Unit::Pt,
            source: Source::TextLayer,
            engine: None,
            rotation: 0,
            words: Vec::new(),
        };
        let g = PageGeometry::of(&page);
        assert_eq!((g.page, g.width, g.height), (2, 595.28, 841.89));
        assert_eq!(
            (g.unit, g.source, g.rotation),
            (Unit::Pt, Source::TextLayer, 0)
        );
        let json = serde_json::to_value(&g).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"page": 2, "width": 595.28, "height": 841.89, "unit": "pt",
                "source": "TEXT_LAYER", "rotation": 0})
        );
    }

    #[test]
    fn other_party_flattens_role() {
        let o = OtherParty {
            party: Party {
                name: Some("X".into()),
                ..Party::default()
            },
            role: "consignee".into(),
        };
        let v = serde_json::to_value(&o).unwrap();
        assert_eq!(v["role"], "consignee");
        assert_eq!(v["name"], "X");
    }
}
