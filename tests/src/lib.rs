//! Integration and golden tests live in `tests/tests/`; what several of them share is here.

/// The lines of a small English invoice (one "word" per line as pre-recognised input, or split
/// into words by a fake OCR engine): number INV-1001, date 2024-03-12, total 119.00.
pub const SMALL_INVOICE: [&str; 8] = [
    "INVOICE",
    "Invoice No.: INV-1001",
    "Invoice date: 12.03.2024",
    "Seller: Northwind Traders Ltd",
    "Buyer: Contoso GmbH",
    "Subtotal 100.00 EUR",
    "VAT 19% 19.00 EUR",
    "Total 119.00 EUR",
];
