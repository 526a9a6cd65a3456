//! Document type and structure type.
//!
//! # Document type
//! Keyword evidence in twenty languages (en, de, fr, pl, uk, ru, nl, it, es, pt, cs, sk, lt, lv,
//! et, fi, sv, da, hu, ro; text lower-cased with Latin diacritics folded; the phrases live in
//! [`crate::candidates::titles`], which the party finder reads too), weighted by where it
//! is printed:
//! a match in a title-like line (first page, near the top, short or printed larger than the
//! median line) counts most, a line near the top of the first page less, any other line little
//! (body mentions add up to at most [`BODY_CAP`] per type). Where phrases overlap, the longest
//! wins: "Proforma-Rechnung" is a proforma, "faktura korygująca" a credit note, "податкова
//! накладна" a tax invoice, not an invoice or a waybill.
//!
//! Decisions:
//! - "рахунок-фактура" (Ukrainian practice: a request for payment) is an `INVOICE`; "счёт-фактура"
//!   is a `TAX_INVOICE` (Russian VAT document) unless the document is Ukrainian (UAH or `uk`), where
//!   it means the same as "рахунок-фактура".
//! - Adjustments of a tax invoice (Ukrainian "розрахунок коригування", Russian "корректировочный
//!   счёт-фактура") and a title "Korekta" / "Коригування" are `CREDIT_NOTE`: they change the
//!   amounts of an earlier invoice, as a credit note does.
//! - Delivery documents ("видаткова накладна", "товарная накладная", "ТТН", "Lieferschein", "WZ",
//!   "bon de livraison") are `WAYBILL`; one that is the invoice too (Latvian "pavadzīme-rēķins")
//!   is an `INVOICE`: it asks for payment.
//! - Words that invoices also use in passing ("contract", "договір", "umowa", "avoir", "чек",
//!   "акт", "WZ") count only in title-like lines.
//! - `RECEIPT` also gets structural evidence: a narrow page (width/height < 0.5), cash words
//!   (cash, change, tendered, Rückgeld, rendu, reszta, решта, сдача ...), GST/SST, a printed time
//!   of day, and no buyer. With strong structural evidence and no buyer, an "invoice" / "tax
//!   invoice" title counts for `RECEIPT` (simplified invoices printed by tills).
//! - Confidence = strength x (0.5 + 0.5 x margin), strength = 1 - e^(-best/3), margin =
//!   (best - second) / best. No evidence at all: `OTHER` with confidence 0.3.
//!
//! With the engine's default scorer the type is chosen by the learned choice model
//! ([`crate::fields::choice_model`]) from this same evidence ([`evidence`], [`type_vectors`]:
//! each type's title, top and body weights, the receipt structure, a negative total, line items,
//! a due date), its calibrated probability the confidence; below the model's fill threshold the
//! type is `OTHER` (confidence 0.3). `{"scorer": "rules"}` keeps the rules above.
//!
//! # Structure type
//! `RECEIPT` for receipts or a narrow page; `MULTI_TABLE` with more than one table; `TABLE` with one
//! table or any line items; `TEXT` otherwise.

use crate::candidates::Candidates;
use crate::candidates::titles::{COMPILED, Flag, matches, normalise};
use crate::fields::choice_model::{ChoiceKind, ChoiceModel, Row, type_column};
use crate::result::{
    DocumentResult, DocumentType, DocumentTypeInfo, StructureType, StructureTypeInfo,
};
use crate::types::{CleanDocument, Line, median_size};
use regex::Regex;
use std::sync::LazyLock;

/// Most that body (non-title) mentions add to a type's score.
pub const BODY_CAP: f32 = 3.0;

/// Width / height below which a page is receipt-shaped.
pub const NARROW_ASPECT: f32 = 0.5;

/// Structural receipt evidence above which an invoice title counts as a receipt's.
const STRONG_RECEIPT: f32 = 3.5;

/// Structural receipt evidence of a narrow page and of a printed time of day.
const NARROW_EVIDENCE: f32 = 2.5;
const TIME_EVIDENCE: f32 = 1.0;

/// Minimum score for a type other than `OTHER`.
const MIN_SCORE: f32 = 1.0;

const TYPES: [DocumentType; 8] = DocumentType::NAMED;

/// Words of cash payment (receipt evidence).
static CASH_WORDS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:cash|change|tendered|rounding|cashier|thank you|come again|tunai|baki|r[uü]ckgeld|gegeben|bar|esp[eè]ces|rendu|monnaie|merci de votre visite|reszta|got[oó]wka|kasjer|решта|готівка|здача|сдача|наличные|кассир|касир|дякуємо за покупку|спасибо за покупку|contant|wisselgeld|contanti|resto|efectivo|dinheiro|troco|hotovost|hotove|vraceno|grynieji|graza|skaidra nauda|atlikums|sularaha|tagastus|kateinen|vaihtoraha|kontant|vaxel|byttepenge|keszpenz|visszajaro|numerar|bedankt|grazie|gracias|obrigado|dekujeme|dakujeme|aciu|paldies|aitah|kiitos|tack for|tak for|koszonjuk|multumim)\b",
    )
    .ok()
});

/// A printed time of day (tills print one, invoices rarely do).
static TIME_OF_DAY: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b(?:[01]?[0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?\b").ok());

/// GST / SST words (receipts from Malaysia, Singapore ...).
static GST_WORDS: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\b(?:gst|sst)\b").ok());

/// How much a line's mentions weigh, and whether it is title-like.
struct LineWeight {
    weight: f32,
    title: bool,
}

fn line_weights(doc: &CleanDocument) -> Vec<LineWeight> {
    let first_page = doc
        .pages
        .first()
        .map(|p| p.page)
        .or_else(|| doc.lines.first().map(|l| l.page));
    let first_lines: Vec<&Line> = doc
        .lines
        .iter()
        .filter(|l| Some(l.page) == first_page)
        .collect();
    let med = median_size(first_lines.iter().map(|l| l.bbox.height()).collect()).unwrap_or(1.0);
    let page_h = first_page
        .and_then(|p| doc.page(p))
        .map(|p| p.height)
        .filter(|h| h.is_finite() && *h > 0.0);
    let mut rank_on_first = 0usize;
    doc.lines
        .iter()
        .map(|l| {
            let on_first = Some(l.page) == first_page;
            let rank = rank_on_first;
            if on_first {
                rank_on_first += 1;
            }
            let top = on_first && (rank < 12 || page_h.is_some_and(|h| l.bbox.y0 < 0.3 * h));
            let words = l.text.split_whitespace().count();
            let rel = if med > 0.0 {
                l.bbox.height() / med
            } else {
                1.0
            };
            let rel = if rel.is_finite() { rel } else { 1.0 };
            let big = rel >= 1.3;
            let short = words <= 8;
            if top && (short || big) {
                LineWeight {
                    weight: 4.0 * rel.clamp(1.0, 2.5),
                    title: true,
                }
            } else if top {
                LineWeight {
                    weight: 2.0,
                    title: false,
                }
            } else if on_first {
                LineWeight {
                    weight: 1.0,
                    title: false,
                }
            } else {
                LineWeight {
                    weight: 0.6,
                    title: false,
                }
            }
        })
        .collect()
}

fn type_index(t: DocumentType) -> usize {
    TYPES.iter().position(|&x| x == t).unwrap_or(0)
}

/// Per-type scores: best title evidence + a little for further titles + capped body mentions.
#[derive(Default, Clone, Copy)]
struct Score {
    title_max: f32,
    title_rest: f32,
    body: f32,
}

impl Score {
    fn add(&mut self, w: f32, title: bool) {
        if title {
            if w > self.title_max {
                self.title_rest += self.title_max;
                self.title_max = w;
            } else {
                self.title_rest += w;
            }
        } else {
            self.body += w;
        }
    }
    fn total(&self) -> f32 {
        self.title_max + 0.3 * self.title_rest.min(2.0 * self.title_max) + self.body.min(BODY_CAP)
    }
}

fn page_aspect(doc: &CleanDocument) -> Option<f32> {
    let p = doc.pages.first()?;
    (p.width > 0.0 && p.height > 0.0 && p.width.is_finite() && p.height.is_finite())
        .then(|| p.width / p.height)
}

/// What the rules weigh for a document's type: the keyword evidence of each type (same order as
/// [`TYPES`]) and the structure of a till receipt.
pub struct TypeEvidence {
    per_type: [Score; 8],
    /// The rules' score of each type (keywords, and for `RECEIPT` its structure).
    pub scores: [f32; 8],
    /// A receipt-shaped first page.
    pub narrow: bool,
    /// Distinct cash words (up to three).
    pub cash_words: usize,
    /// GST / SST words.
    pub gst: bool,
    /// A printed time of day.
    pub time_of_day: bool,
    /// The structural receipt evidence the rules add to `RECEIPT`.
    pub receipt: f32,
}

impl TypeEvidence {
    /// The evidence as a reader who knows none of the document's words would have it: no
    /// keyword scores, the receipt's structure kept (cash words and GST excepted, they are
    /// words too). Training rows made from it teach the choice model what the structure alone
    /// says (a negative total, line items without prices, a narrow page, a time of day), for
    /// documents whose title is in no vocabulary.
    pub fn without_keywords(&self) -> TypeEvidence {
        let receipt = if self.narrow { NARROW_EVIDENCE } else { 0.0 }
            + if self.time_of_day { TIME_EVIDENCE } else { 0.0 };
        let mut scores = [0.0; 8];
        if let Some(r) = scores.get_mut(type_index(DocumentType::Receipt)) {
            *r = receipt;
        }
        TypeEvidence {
            per_type: [Score::default(); 8],
            scores,
            narrow: self.narrow,
            cash_words: 0,
            gst: false,
            time_of_day: self.time_of_day,
            receipt,
        }
    }
}

/// The evidence of every type for a document. Lines that list other documents (`listed`,
/// [`Candidates::listed_lines`]: `Rechnung 2023-117 vom 03.02.2023  1.234,50`) name no type
/// of this one.
pub fn evidence(doc: &CleanDocument, result: &DocumentResult, listed: &[bool]) -> TypeEvidence {
    let ukrainian = result.document.currency.as_deref() == Some("UAH")
        || result.document.language.as_deref() == Some("uk");
    let weights = line_weights(doc);
    let mut sc = [Score::default(); 8];
    let mut apply = |text: &str, lw: &LineWeight| {
        let norm = normalise(text);
        for (ri, start, _) in matches(&norm) {
            let Some(rule) = COMPILED.get(ri) else {
                continue;
            };
            if rule.flag == Flag::TitleOnly && !lw.title {
                continue;
            }
            let ty = if rule.flag == Flag::RuTaxInvoice && ukrainian {
                DocumentType::Invoice
            } else {
                rule.ty
            };
            let leading = norm
                .get(..start)
                .is_some_and(|p| p.chars().filter(|c| c.is_alphanumeric()).count() <= 2);
            let w = lw.weight * rule.weight * if leading && lw.title { 1.5 } else { 1.0 };
            if let Some(s) = sc.get_mut(type_index(ty)) {
                s.add(w, lw.title);
            }
        }
    };
    for (i, (line, lw)) in doc.lines.iter().zip(&weights).enumerate() {
        if !listed.get(i).copied().unwrap_or(false) {
            apply(&line.text, lw);
        }
    }
    if let Some(title) = result.document.title.as_deref() {
        apply(
            title,
            &LineWeight {
                weight: 4.0,
                title: true,
            },
        );
    }
    let mut out = [0.0f32; 8];
    for (o, s) in out.iter_mut().zip(&sc) {
        *o = s.total();
    }

    // Structural receipt evidence.
    let mut receipt = 0.0;
    let narrow = page_aspect(doc).is_some_and(|a| a < NARROW_ASPECT);
    if narrow {
        receipt += NARROW_EVIDENCE;
    }
    let text = normalise(&doc.plain_text());
    let mut cash_words = 0;
    if let Some(re) = CASH_WORDS.as_ref() {
        let mut distinct: Vec<&str> = re.find_iter(&text).map(|m| m.as_str()).collect();
        distinct.sort_unstable();
        distinct.dedup();
        cash_words = distinct.len().min(3);
        receipt += cash_words as f32;
    }
    let gst = GST_WORDS.as_ref().is_some_and(|re| re.is_match(&text));
    if gst {
        receipt += 0.5;
    }
    let time_of_day = TIME_OF_DAY.as_ref().is_some_and(|re| re.is_match(&text));
    if time_of_day {
        receipt += TIME_EVIDENCE;
    }
    if receipt > 0.0 && result.parties.buyer.is_empty() {
        receipt += 0.5;
    }
    // A till slip headed "(tax) invoice" (simplified invoices, e.g. Malaysian GST receipts) is a
    // receipt: with strong structural evidence and no buyer, the invoice title counts for it.
    if receipt >= STRONG_RECEIPT && result.parties.buyer.is_empty() {
        let inv = [DocumentType::Invoice, DocumentType::TaxInvoice]
            .iter()
            .filter_map(|&t| out.get(type_index(t)).copied())
            .fold(0.0f32, f32::max);
        receipt += inv;
    }
    if let Some(r) = out.get_mut(type_index(DocumentType::Receipt)) {
        *r += receipt;
    }
    TypeEvidence {
        per_type: sc,
        scores: out,
        narrow,
        cash_words,
        gst,
        time_of_day,
        receipt,
    }
}

/// The choice model's vectors of a document's types (same order as [`TYPES`]).
pub fn type_vectors(result: &DocumentResult, ev: &TypeEvidence) -> Vec<Vec<f32>> {
    let negative = result
        .totals
        .total
        .as_deref()
        .is_some_and(|t| t.trim_start().starts_with('-'));
    let priced = result
        .line_items
        .iter()
        .filter(|i| i.unit_price.is_some() || i.amount.is_some() || i.amount_with_vat.is_some())
        .count();
    let log = |x: usize| (1.0 + x as f32).ln();
    let sum: f32 = ev.scores.iter().sum();
    TYPES
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let own = ev.scores[i];
            let best_other = ev
                .scores
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, s)| *s)
                .fold(0.0f32, f32::max);
            let rank = ev.scores.iter().filter(|s| **s > own).count();
            let mut r = Row::new(ChoiceKind::DocumentType);
            r.set(&type_column(*ty), 1.0);
            r.flag("type_best", rank == 0 && own > 0.0);
            r.set("type_share", if sum > 0.0 { own / sum } else { 0.0 });
            let top = own.max(best_other);
            r.set(
                "type_margin_ratio",
                if top > 0.0 {
                    (own - best_other) / top
                } else {
                    0.0
                },
            );
            r.set("type_rank", rank as f32);
            r.flag("type_has_title", ev.per_type[i].title_max > 0.0);
            r.set("type_log_score", (1.0 + own).ln());
            r.flag("type_evidence", sum > 0.0);
            r.flag("type_narrow", ev.narrow);
            r.set("type_cash_words", ev.cash_words as f32);
            r.flag("type_gst", ev.gst);
            r.flag("type_time_of_day", ev.time_of_day);
            r.flag("type_no_buyer", result.parties.buyer.is_empty());
            r.set("type_receipt_evidence", ev.receipt);
            r.flag("type_negative_total", negative);
            r.set("type_line_items", log(result.line_items.len()));
            r.set("type_priced_items", log(priced));
            r.flag("type_due_date", result.document.due_date.is_some());
            r.into_vec()
        })
        .collect()
}

/// Classifies the document: by the choice model ([`ChoiceModel`]) when one is given, else by
/// the rules' scores.
pub fn classify(
    doc: &CleanDocument,
    cands: &Candidates,
    result: &DocumentResult,
    model: Option<&ChoiceModel>,
) -> (DocumentTypeInfo, StructureTypeInfo) {
    let ev = evidence(doc, result, &cands.listed_lines);
    let dt = match model {
        Some(m) => match m.choose(ChoiceKind::DocumentType, &type_vectors(result, &ev)) {
            Some((i, p)) => DocumentTypeInfo {
                code: TYPES.get(i).copied().unwrap_or(DocumentType::Other),
                confidence: round3(f64::from(p)),
            },
            None => DocumentTypeInfo {
                code: DocumentType::Other,
                confidence: 0.3,
            },
        },
        None => rule_type(&ev.scores),
    };
    let code = if dt.code == DocumentType::Receipt || ev.narrow {
        StructureType::Receipt
    } else if cands.tables.len() > 1 {
        StructureType::MultiTable
    } else if cands.tables.len() == 1 || !result.line_items.is_empty() {
        StructureType::Table
    } else {
        StructureType::Text
    };
    (dt, StructureTypeInfo { code })
}

/// The rules' type: the best score, confident by its strength and its margin.
pub fn rule_type(sc: &[f32; 8]) -> DocumentTypeInfo {
    let mut order: Vec<(DocumentType, f32)> = TYPES.iter().copied().zip(*sc).collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best_t, best) = order.first().copied().unwrap_or((DocumentType::Other, 0.0));
    let second = order.get(1).map(|x| x.1).unwrap_or(0.0);
    if best >= MIN_SCORE {
        let strength = 1.0 - (-best / 3.0).exp();
        let margin = ((best - second) / best).clamp(0.0, 1.0);
        DocumentTypeInfo {
            code: best_t,
            confidence: round3((strength * (0.5 + 0.5 * margin)) as f64),
        }
    } else {
        DocumentTypeInfo {
            code: DocumentType::Other,
            confidence: 0.3,
        }
    }
}

fn round3(x: f64) -> f64 {
    if x.is_finite() {
        ((x * 1000.0).round() / 1000.0).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::tables::TableLayout;
    use crate::result::LineItem;
    use crate::types::{BBox, PageInfo, Source, Token, Unit};

    /// A document from lines of (text, font height), one per row, on an A4 page (or `size`).
    fn doc_sized(lines: &[(&str, f32)], size: (f32, f32)) -> CleanDocument {
        let mut y = 40.0;
        let mut out = Vec::new();
        for (i, &(text, h)) in lines.iter().enumerate() {
            let bbox = BBox::new(40.0, y, 40.0 + 6.0 * text.len() as f32, y + h);
            y += h + 6.0;
            let mut tokens = Vec::new();
            let mut spans = Vec::new();
            let mut pos = 0;
            for w in text.split(' ') {
                tokens.push(Token {
                    text: w.to_string(),
                    bbox,
                    confidence: 1.0,
                });
                spans.push((pos, pos + w.len()));
                pos += w.len() + 1;
            }
            out.push(Line {
                page: 1,
                index: i,
                bbox,
                tokens,
                text: text.to_string(),
                token_spans: spans,
            });
        }
        CleanDocument {
            pages: vec![PageInfo {
                page: 1,
                width: size.0,
                height: size.1,
                unit: Unit::Pt,
                source: Source::TextLayer,
                engine: None,
                shear: Default::default(),
            }],
            lines: out,
        }
    }

    fn doc(lines: &[(&str, f32)]) -> CleanDocument {
        doc_sized(lines, (595.0, 842.0))
    }

    /// Title line, then filler body lines so that later lines are "body".
    fn titled(title: &str, body: &[&str]) -> CleanDocument {
        let mut lines: Vec<(&str, f32)> =
            vec![("ACME Sp. z o.o. ul. Długa 1 00-001 Warszawa", 10.0)];
        lines.push((title, 18.0));
        for _ in 0..14 {
            lines.push((
                "Pos 1 something 2 x 10.00 20.00 with several words here",
                10.0,
            ));
        }
        for b in body {
            lines.push((b, 10.0));
        }
        doc(&lines)
    }

    fn code(d: &CleanDocument) -> DocumentType {
        classify(d, &Candidates::default(), &DocumentResult::empty(), None)
            .0
            .code
    }

    fn code_with(d: &CleanDocument, r: &DocumentResult) -> DocumentType {
        classify(d, &Candidates::default(), r, None).0.code
    }

    #[test]
    fn lines_listing_other_documents_name_no_type_of_this_one() {
        let d = titled(
            "Lieferschein Nr. 4711",
            &[
                "Offene Posten:",
                "Rechnung 2023-117 vom 03.02.2023  1.234,50 EUR",
                "Rechnung 2023-204 vom 05.03.2023  88,00 EUR",
                "Rechnung 2023-311 vom 09.04.2023  17,20 EUR",
            ],
        );
        let invoice = type_index(DocumentType::Invoice);
        let cands = crate::candidates::extract(&d);
        let listed = &cands.listed_lines;
        assert_eq!(listed.iter().filter(|x| **x).count(), 3);
        let empty = DocumentResult::empty();
        assert!(evidence(&d, &empty, &[]).scores[invoice] > 0.0);
        assert_eq!(evidence(&d, &empty, listed).scores[invoice], 0.0);
        assert_eq!(
            classify(&d, &cands, &empty, None).0.code,
            DocumentType::Waybill
        );
    }

    #[test]
    fn titles_in_six_languages() {
        use DocumentType::*;
        let cases: &[(&str, DocumentType)] = &[
            ("INVOICE No. 2024-001", Invoice),
            ("Rechnung Nr. 4711", Invoice),
            ("Handelsrechnung Nr. 471102", Invoice),
            ("Stornorechnung 7", CreditNote),
            ("Facture N° F-2024-12", Invoice),
            ("Faktura VAT nr 12/2024", Invoice),
            ("Рахунок на оплату № 15", Invoice),
            ("Рахунок-фактура № 15", Invoice),
            ("Счёт на оплату № 7", Invoice),
            ("Proforma-Rechnung 12", ProformaInvoice),
            ("PRO FORMA INVOICE", ProformaInvoice),
            ("Facture pro forma n° 3", ProformaInvoice),
            ("Faktura proforma nr 3", ProformaInvoice),
            ("Credit Note CN-12", CreditNote),
            ("Gutschrift Nr. 5", CreditNote),
            ("Rechnungskorrektur 5", CreditNote),
            ("Avoir n° 12", CreditNote),
            ("Faktura korygująca nr 1/2024", CreditNote),
            ("Nota kredytowa 4", CreditNote),
            ("Кредит-нота № 4", CreditNote),
            ("Податкова накладна № 12", TaxInvoice),
            ("Счёт-фактура № 55 от 01.02.2024", TaxInvoice),
            ("TAX INVOICE", TaxInvoice),
            ("Акт виконаних робіт № 3", Act),
            ("Акт приймання-передачі № 3", Act),
            ("АКТ выполненных работ № 9", Act),
            ("Акт № 9", Act),
            ("Protokół odbioru", Act),
            ("Abnahmeprotokoll", Act),
            ("Certificate of Completion", Act),
            ("Delivery Note 778", Waybill),
            ("Lieferschein 778", Waybill),
            ("Bon de livraison 778", Waybill),
            ("WZ 12/2024", Waybill),
            ("Видаткова накладна № 8", Waybill),
            ("Товарно-транспортна накладна", Waybill),
            ("Товарная накладная № 8", Waybill),
            ("Kassenbon", Receipt),
            ("Paragon fiskalny", Receipt),
            ("Reçu n° 4", Receipt),
            ("Квитанція № 4", Receipt),
            ("ДОГОВІР № 15", Contract),
            ("Umowa o dzieło nr 3", Contract),
            ("Dienstleistungsvertrag", Contract),
            ("Vertrag über Lieferung", Contract),
            ("Service Agreement", Contract),
        ];
        for &(title, want) in cases {
            assert_eq!(code(&titled(title, &[])), want, "{title}");
        }
    }

    #[test]
    fn titles_in_further_languages() {
        use DocumentType::*;
        let cases: &[(&str, DocumentType)] = &[
            ("FACTUUR", Invoice),
            ("Creditnota 2024-12", CreditNote),
            ("Kassabon", Receipt),
            ("Pakbon 778", Waybill),
            ("Fattura n. 12/2024", Invoice),
            ("Nota di credito n. 3", CreditNote),
            ("Scontrino fiscale", Receipt),
            ("Documento di trasporto n. 9", Waybill),
            ("Verbale di collaudo", Act),
            ("Factura nº A-123", Invoice),
            ("Factura rectificativa R-1", CreditNote),
            ("Factura simplificada", Receipt),
            ("Albarán 55", Waybill),
            ("Fatura FT 2024/15", Invoice),
            ("Guia de remessa GR 1", Waybill),
            ("Faktura - daňový doklad č. 2024001", Invoice),
            ("Dobropis č. 5", CreditNote),
            ("Dodací list č. 7", Waybill),
            ("Předávací protokol", Act),
            ("Faktúra č. 2024001", Invoice),
            ("Pokladničný doklad", Receipt),
            ("PVM sąskaita faktūra", Invoice),
            ("Važtaraštis Nr. 4", Waybill),
            ("Priėmimo-perdavimo aktas", Act),
            ("Rēķins Nr. 15", Invoice),
            ("Pavadzīme Nr. 15", Waybill),
            ("Arve nr 12", Invoice),
            ("Kreeditarve nr 3", CreditNote),
            ("Saateleht nr 4", Waybill),
            ("Lasku 1234", Invoice),
            ("Hyvityslasku 12", CreditNote),
            ("Kuitti", Receipt),
            ("Faktura 2024-77", Invoice),
            ("Kreditfaktura 3", CreditNote),
            ("Följesedel 8", Waybill),
            ("Kvittering", Receipt),
            ("Følgeseddel 8", Waybill),
            ("Számla", Invoice),
            ("Jóváíró számla", CreditNote),
            ("Nyugta", Receipt),
            ("Szállítólevél", Waybill),
            ("Teljesítési igazolás", Act),
            ("Factură seria ABC nr. 123", Invoice),
            ("Factură storno", CreditNote),
            ("Bon fiscal", Receipt),
            ("Aviz de însoțire a mărfii", Waybill),
            ("Proces-verbal de recepție", Act),
            ("Contratto di fornitura", Contract),
            // Adjustment documents, corrections and till slips under a one-word title.
            ("Розрахунок коригування № 2", CreditNote),
            ("Корректировочный счёт-фактура № 4", CreditNote),
            ("Коригування", CreditNote),
            ("Korekta 3/2024", CreditNote),
            ("Kredīta rēķins", CreditNote),
            ("Packing Slip", Waybill),
            ("Leveringsseddel", Waybill),
            ("Lähetysluettelo", Waybill),
            ("Certificato di regolare esecuzione", Act),
            ("Certificado de conformidad", Act),
            ("Auto de consignação", Act),
            ("Protokol o převzetí díla", Act),
            ("Leveransgodkännande", Act),
            ("Slutbesiktningsprotokoll", Act),
            ("Overtagelsesattest", Act),
            ("Teljesítésigazolás", Act),
            ("TICKET", Receipt),
            ("Bon", Receipt),
            ("Blok", Receipt),
            // Further synonyms and compounds: credit notes, acceptance protocols, delivery
            // documents and till slips under the other words their countries print.
            ("Krediitarve", CreditNote),
            ("Korekcijas rēķins", CreditNote),
            ("Kreditinė sąskaita", CreditNote),
            ("Opravný doklad", CreditNote),
            ("Nota di accredito", CreditNote),
            ("Nota de abono", CreditNote),
            ("Hyväksymispöytäkirja", Act),
            ("Godkännandeprotokoll", Act),
            ("Vastuvõtuakt", Act),
            ("Protokol o odovzdaní diela", Act),
            ("Termo de aceitação", Act),
            ("Attestation de fin de travaux", Act),
            ("Acceptance Protocol", Act),
            ("Kaubasaateleht", Waybill),
            ("Prepravný list", Waybill),
            ("Přepravní list", Waybill),
            ("Guia de entrega", Waybill),
            ("Szállítójegy", Waybill),
            ("Kassebon", Receipt),
            ("Reçu de paiement", Receipt),
            ("Ticket de compra", Receipt),
            ("Pénztárbizonylat", Receipt),
            ("Myyntikuitti", Receipt),
            ("Köpkvitto", Receipt),
            ("Kwitantie", Receipt),
            // A waybill that is also the invoice (Latvian `pavadzīme-rēķins`) asks for payment.
            ("Preču pavadzīme-rēķins", Invoice),
            ("Müügiarve", Invoice),
            // More acceptance reports, delivery documents and credit notes by their titles.
            ("Akceptační protokol", Act),
            ("Akceptačný protokol", Act),
            ("Godkendelsesprotokol", Act),
            ("Godkjenningsprotokoll", Act),
            ("Completion Report", Act),
            ("Acceptance Report", Act),
            ("Abnahmebericht", Act),
            ("Übergabeprotokoll", Act),
            ("Acceptatieprotocol", Act),
            ("Warenbegleitschein", Waybill),
            ("Begleitschein Nr. 4", Waybill),
            ("Scrisoare de trăsură", Waybill),
            ("Delivery Docket", Waybill),
            ("Pakkseddel", Waybill),
            ("Credit nota", CreditNote),
            ("Hyvitys", CreditNote),
            ("Kreditnotis", CreditNote),
            ("Nota korygująca", CreditNote),
            ("Leveranssedel", Waybill),
            ("Opleverbon", Act),
            ("Műszaki átadás-átvétel", Act),
            // OCR reads `ł` as `t`.
            ("Protokót zdawczo-odbiorczy", Act),
        ];
        for &(title, want) in cases {
            assert_eq!(code(&titled(title, &[])), want, "{title}");
        }
    }

    #[test]
    fn ukrainian_context_makes_schet_faktura_an_invoice() {
        let d = titled("Счет-фактура № 55", &[]);
        let mut r = DocumentResult::empty();
        r.document.currency = Some("UAH".into());
        assert_eq!(code_with(&d, &r), DocumentType::Invoice);
        r.document.currency = Some("RUB".into());
        assert_eq!(code_with(&d, &r), DocumentType::TaxInvoice);
    }

    #[test]
    fn title_beats_body_mentions() {
        // An invoice mentioning the contract, the delivery note and the receipt of payment.
        let d = titled(
            "Rechnung",
            &[
                "gemäß Vertrag Nr. 12 vom 01.01.2024",
                "Lieferschein 778 vom 02.01.2024",
                "Lieferschein 779 vom 03.01.2024",
                "Zahlbar nach Erhalt, receipt of payment",
                "Gutschrift wird separat erstellt",
            ],
        );
        let (dt, _) = classify(&d, &Candidates::default(), &DocumentResult::empty(), None);
        assert_eq!(dt.code, DocumentType::Invoice);
        assert!(
            dt.confidence > 0.5 && dt.confidence <= 1.0,
            "{}",
            dt.confidence
        );
        // Invoice referring to an act in the body stays an invoice; contract in body is ignored.
        let d = titled(
            "Рахунок на оплату № 5",
            &["згідно договору № 12", "акт виконаних робіт"],
        );
        assert_eq!(code(&d), DocumentType::Invoice);
    }

    #[test]
    fn confidence_reflects_margin() {
        let clear = titled("INVOICE", &[]);
        let mixed = titled(
            "INVOICE",
            &["Delivery note", "Delivery note 2", "delivery note 3"],
        );
        let e = DocumentResult::empty();
        let c1 = classify(&clear, &Candidates::default(), &e, None)
            .0
            .confidence;
        let c2 = classify(&mixed, &Candidates::default(), &e, None)
            .0
            .confidence;
        assert!(c1 > c2, "{c1} vs {c2}");
        let (none, _) = classify(
            &doc(&[("Hello world", 10.0), ("nothing here", 10.0)]),
            &Candidates::default(),
            &e,
            None,
        );
        assert_eq!(none.code, DocumentType::Other);
        assert!(none.confidence < 0.5);
    }

    #[test]
    fn receipt_by_structure() {
        // Narrow page, cash words, no title word at all.
        let d = doc_sized(
            &[
                ("KEDAI RUNCIT ABC SDN BHD", 12.0),
                ("GST ID 000123456789", 10.0),
                ("MILO 2.50", 10.0),
                ("TOTAL 2.50", 10.0),
                ("CASH 10.00", 10.0),
                ("CHANGE 7.50", 10.0),
            ],
            (300.0, 900.0),
        );
        let (dt, st) = classify(&d, &Candidates::default(), &DocumentResult::empty(), None);
        assert_eq!(dt.code, DocumentType::Receipt);
        assert_eq!(st.code, StructureType::Receipt);
        // A receipt titled TAX INVOICE on a till roll is still a receipt.
        let d = doc_sized(
            &[
                ("SYARIKAT XYZ", 12.0),
                ("TAX INVOICE", 12.0),
                ("ITEM 1 5.00", 10.0),
                ("TOTAL INCL GST 5.30", 10.0),
                ("CASH 10.00", 10.0),
                ("CHANGE 4.70", 10.0),
                ("ROUNDING 0.00", 10.0),
            ],
            (300.0, 900.0),
        );
        assert_eq!(code(&d), DocumentType::Receipt);
    }

    #[test]
    fn structure_types() {
        let d = titled("INVOICE", &[]);
        let e = DocumentResult::empty();
        let table = TableLayout {
            header_line: 2,
            columns: vec![],
            rows: vec![],
            end_line: 4,
            sums: false,
        };
        let one = Candidates {
            tables: vec![table.clone()],
            ..Candidates::default()
        };
        let two = Candidates {
            tables: vec![table.clone(), table],
            ..Candidates::default()
        };
        assert_eq!(classify(&d, &one, &e, None).1.code, StructureType::Table);
        assert_eq!(
            classify(&d, &two, &e, None).1.code,
            StructureType::MultiTable
        );
        assert_eq!(
            classify(&d, &Candidates::default(), &e, None).1.code,
            StructureType::Text
        );
        let mut r = DocumentResult::empty();
        r.line_items.push(LineItem::default());
        assert_eq!(
            classify(&d, &Candidates::default(), &r, None).1.code,
            StructureType::Table
        );
    }

    #[test]
    fn empty_and_odd_documents_do_not_panic() {
        let e = DocumentResult::empty();
        let (dt, st) = classify(&CleanDocument::default(), &Candidates::default(), &e, None);
        assert_eq!(dt.code, DocumentType::Other);
        assert_eq!(st.code, StructureType::Text);
        let mut d = doc(&[("", 0.0), ("ÀÉ 🙂 \u{0}", f32::NAN)]);
        if let Some(p) = d.pages.first_mut() {
            p.width = 0.0;
            p.height = f32::NAN;
        }
        let (dt, _) = classify(&d, &Candidates::default(), &e, None);
        assert!((0.0..=1.0).contains(&dt.confidence));
    }

    /// Real receipts (SROIE OCR lines), when the shared data is present: nearly all are receipts.
    #[test]
    fn sroie_receipts_are_receipts() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sroie");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipping: no {}", dir.display());
            return;
        };
        let mut n = 0;
        let mut ok = 0;
        for e in entries.flatten() {
            let p = e.path();
            if !p.to_string_lossy().ends_with(".boxes.txt") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let mut lines = Vec::new();
            let (mut w, mut h) = (1.0f32, 1.0f32);
            for (i, row) in text.lines().enumerate() {
                let parts: Vec<&str> = row.splitn(9, ',').collect();
                if parts.len() < 9 {
                    continue;
                }
                let nums: Vec<f32> = parts[..8]
                    .iter()
                    .filter_map(|x| x.trim().parse().ok())
                    .collect();
                if nums.len() < 8 {
                    continue;
                }
                let bbox = BBox::new(nums[0], nums[1], nums[4], nums[5]);
                w = w.max(bbox.x1);
                h = h.max(bbox.y1);
                lines.push(Line {
                    page: 1,
                    index: i,
                    bbox,
                    tokens: vec![],
                    text: parts[8].to_string(),
                    token_spans: vec![],
                });
            }
            let d = CleanDocument {
                pages: vec![PageInfo {
                    page: 1,
                    width: w * 1.05,
                    height: h * 1.05,
                    unit: Unit::Px,
                    source: Source::Ocr,
                    engine: None,
                    shear: Default::default(),
                }],
                lines,
            };
            n += 1;
            let got = code(&d);
            if got == DocumentType::Receipt {
                ok += 1;
            } else if std::env::var("FOLIO_DEBUG_CLASSIFY").is_ok() {
                eprintln!(
                    "{} -> {got:?} {:?} aspect {:?}",
                    p.display(),
                    evidence(&d, &DocumentResult::empty(), &[]).scores,
                    page_aspect(&d)
                );
            }
        }
        if n == 0 {
            return;
        }
        eprintln!("sroie: {ok}/{n} classified RECEIPT");
        assert!(ok * 100 >= n * 90, "only {ok}/{n} receipts");
    }
}
