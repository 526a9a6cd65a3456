//! The learned chooser of a document's categorical values: its **currency** (among every
//! currency its printed tokens may stand for, `kr` and `$` standing for several, and those its
//! IBANs, tax ids and language suggest), its **document type** (among the types the
//! classifier weighs, [`crate::classify`]) and **the party each IBAN belongs to** (seller or
//! buyer). One gradient-boosted model, trained by
//! `models/train_choices.py` on the vectors built here (one row per option; a one-hot says which
//! kind of choice the row belongs to), exported to ONNX, evaluated natively ([`super::trees`])
//! and calibrated by an isotonic map: a score is the probability that the option is the
//! document's value. The option with the highest score is taken when it reaches the kind's fill
//! threshold (the calibration's `fill`).
//!
//! The features name nothing of one document: how often and where the option is printed (as a
//! code, as a symbol of its own, as a shared symbol, attached to amounts, on the total's line),
//! whether the countries of the IBANs and tax ids and the language agree with it; for a type, the
//! keyword evidence the rules weigh (in titles, near the top, in the body), the structure of a
//! till receipt (narrow page, cash words, a time of day, no buyer), a negative total, line items;
//! for an IBAN and a role, the role's block or label around it, how far below the role's name
//! and in its column it is printed, a bank label, the country of the role's VAT id.
//! Training export (`export_features --choices`) and inference call the same functions.
//! Currency and IBAN owners are chosen at the end of the fields stage (they read the chosen
//! total and parties), the type by the classifier after it.

use super::FieldScorer;
use super::calibrated::CalibratedTrees;
use crate::candidates::amounts::{currency_of_country, currency_of_language, currency_options};
use crate::candidates::labels::LabelKey;
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::error::Result;
use crate::result::{DocumentResult, DocumentType, PartyRole};
use crate::types::{CleanDocument, Span};
use rust_decimal::Decimal;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The model committed in `models/` (built into the library).
pub const EMBEDDED_CHOICE_MODEL: &[u8] = include_bytes!("../../../models/choices.onnx");
/// Its calibration: `{"x": [...], "y": [...], "fill": {"currency": p, "document_type": p}}`.
pub const EMBEDDED_CHOICE_CALIBRATION: &str =
    include_str!("../../../models/choices.calibration.json");

/// The kinds of choice the model makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChoiceKind {
    /// The document's currency.
    Currency,
    /// The document's type.
    DocumentType,
    /// The party an IBAN belongs to.
    IbanOwner,
}

impl ChoiceKind {
    /// Every kind, in the order of the vector's one-hot.
    pub const ALL: [ChoiceKind; 3] = [
        ChoiceKind::Currency,
        ChoiceKind::DocumentType,
        ChoiceKind::IbanOwner,
    ];

    /// The kind's name (the one-hot's column, the calibration's `fill` key, the training rows).
    pub fn name(self) -> &'static str {
        match self {
            ChoiceKind::Currency => "currency",
            ChoiceKind::DocumentType => "document_type",
            ChoiceKind::IbanOwner => "iban_owner",
        }
    }
}

/// The currency features, in vector order.
const CURRENCY_FEATURES: [&str; 15] = [
    "cur_codes",
    "cur_symbols",
    "cur_shared",
    "cur_attached",
    "cur_share",
    "cur_on_total",
    "cur_first",
    "cur_printed",
    "cur_iban_country",
    "cur_id_country",
    "cur_other_country",
    "cur_language",
    "cur_no_country",
    "cur_options",
    "cur_best_count",
];

/// The document-type features, in vector order (after one one-hot column per type). The
/// keyword evidence enters by its proportions (share of all types' scores, margin against the
/// best other type as a ratio, rank) more than by its size, which depends on how many lines a
/// layout prints near the top.
pub const TYPE_FEATURES: [&str; 17] = [
    "type_best",
    "type_share",
    "type_margin_ratio",
    "type_rank",
    "type_has_title",
    "type_log_score",
    "type_narrow",
    "type_cash_words",
    "type_gst",
    "type_time_of_day",
    "type_no_buyer",
    "type_receipt_evidence",
    "type_negative_total",
    "type_line_items",
    "type_priced_items",
    "type_due_date",
    "type_evidence",
];

/// The IBAN-owner features, in vector order (one row per IBAN and role).
const IBAN_FEATURES: [&str; 14] = [
    "iban_role_buyer",
    "iban_labelled_block",
    "iban_in_block",
    "iban_line_label",
    "iban_label_above",
    "iban_bank_label",
    "iban_name_gap",
    "iban_name_above",
    "iban_same_column",
    "iban_id_country",
    "iban_rel_y",
    "iban_order",
    "iban_count",
    "iban_rule",
];

/// The one-hot column of a document type.
pub fn type_column(t: DocumentType) -> String {
    format!("type_is_{}", t.code().to_lowercase())
}

/// The names of the vector's columns, in order.
pub fn feature_names() -> Vec<String> {
    let mut v: Vec<String> = ChoiceKind::ALL
        .iter()
        .map(|k| format!("kind_{}", k.name()))
        .collect();
    v.extend(CURRENCY_FEATURES.iter().map(|s| s.to_string()));
    v.extend(DocumentType::NAMED.iter().map(|t| type_column(*t)));
    v.extend(TYPE_FEATURES.iter().map(|s| s.to_string()));
    v.extend(IBAN_FEATURES.iter().map(|s| s.to_string()));
    v
}

/// The vector's width.
pub fn choice_feature_count() -> usize {
    ChoiceKind::ALL.len()
        + CURRENCY_FEATURES.len()
        + DocumentType::NAMED.len()
        + TYPE_FEATURES.len()
        + IBAN_FEATURES.len()
}

static COLUMNS: LazyLock<HashMap<String, usize>> = LazyLock::new(|| {
    feature_names()
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n, i))
        .collect()
});

/// One option's vector, filled by name.
pub struct Row(Vec<f32>);

impl Row {
    /// An empty row of a kind (its one-hot set).
    pub fn new(kind: ChoiceKind) -> Row {
        let mut row = Row(vec![0.0; choice_feature_count()]);
        row.set(&format!("kind_{}", kind.name()), 1.0);
        row
    }

    /// Sets a column (a name the layout does not have is a programming error, caught by the
    /// tests; in release it is ignored).
    pub fn set(&mut self, name: &str, value: f32) {
        debug_assert!(COLUMNS.contains_key(name), "no choice feature {name}");
        if let Some(&i) = COLUMNS.get(name) {
            self.0[i] = if value.is_finite() { value } else { 0.0 };
        }
    }

    /// Sets a yes/no column (1 or 0).
    pub fn flag(&mut self, name: &str, yes: bool) {
        self.set(name, if yes { 1.0 } else { 0.0 });
    }

    /// The vector.
    pub fn into_vec(self) -> Vec<f32> {
        self.0
    }
}

/// One currency the document may be in, with what speaks for it.
#[derive(Debug, Clone, Default)]
pub struct CurrencyOption {
    /// ISO 4217.
    pub iso: &'static str,
    /// Printed as its code (`EUR`).
    pub codes: u32,
    /// Printed as a symbol or word of its own (`€`, `zł`, `Kč`).
    pub symbols: u32,
    /// Printed as a token other currencies share (`kr`, `$`).
    pub shared: u32,
    /// Tokens of it touching an amount.
    pub attached: u32,
    /// A token of it on a line that carries the chosen total.
    pub on_total: bool,
    /// The first line that prints it.
    pub first_line: Option<usize>,
    /// Where it is first printed (the evidence).
    pub span: Option<Span>,
    /// The currency of the first IBAN's country is this one.
    pub iban_country: bool,
    /// The currency of a tax id's country is this one.
    pub id_country: bool,
    /// Some IBAN or tax id names a country of another currency.
    pub other_country: bool,
    /// The document's language is mostly written in this currency's area.
    pub language: bool,
}

impl CurrencyOption {
    /// Whether the document's IBAN, a tax id or its language names this currency's country.
    pub fn confirmed(&self) -> bool {
        self.iban_country || self.id_country || self.language
    }

    fn printed(&self) -> u32 {
        self.codes + self.symbols + self.shared
    }
}

/// The country of an IBAN or a tax id candidate: an IBAN's and an EU VAT id's prefix, a
/// national scheme's (`UA_EDRPOU`, `MY_SST`).
fn id_country(kind: CandidateKind, scheme: Option<&str>, value: &str) -> Option<String> {
    match (kind, scheme) {
        (CandidateKind::Iban, _) | (_, Some("EU_VAT")) => value.get(..2).map(str::to_uppercase),
        (_, Some(s)) => s
            .split_once('_')
            .map(|(cc, _)| cc)
            .filter(|cc| cc.len() == 2 && cc.chars().all(|c| c.is_ascii_uppercase()))
            .map(str::to_string),
        _ => None,
    }
}

/// Every currency the document may be in: those its tokens may stand for, then those its
/// IBANs, tax ids and language suggest (in document order of first sight).
pub fn currency_options_of(cands: &Candidates, result: &DocumentResult) -> Vec<CurrencyOption> {
    let mut opts: Vec<CurrencyOption> = Vec::new();
    let find = |opts: &mut Vec<CurrencyOption>, iso: &'static str| -> usize {
        if let Some(i) = opts.iter().position(|o| o.iso == iso) {
            return i;
        }
        opts.push(CurrencyOption {
            iso,
            ..CurrencyOption::default()
        });
        opts.len() - 1
    };
    let total: Option<Decimal> = result.totals.total.as_deref().and_then(|t| t.parse().ok());
    let total_lines: Vec<usize> = cands
        .of(CandidateKind::Amount)
        .filter(|a| total.is_some() && a.value.parse::<Decimal>().ok() == total)
        .map(|a| a.span.line)
        .collect();
    let amounts: Vec<&Span> = cands.of(CandidateKind::Amount).map(|a| &a.span).collect();
    for c in cands.of(CandidateKind::Currency) {
        let token = c.span.text.trim();
        let isos = currency_options(token);
        let shared = isos.len() > 1;
        let attached = amounts.iter().any(|a| {
            a.line == c.span.line && (a.end + 1 >= c.span.start && c.span.end + 1 >= a.start)
        });
        for iso in isos {
            let i = find(&mut opts, iso);
            let o = &mut opts[i];
            if shared {
                o.shared += 1;
            } else if token.trim_end_matches('.').eq_ignore_ascii_case(iso) {
                o.codes += 1;
            } else {
                o.symbols += 1;
            }
            o.attached += u32::from(attached);
            o.on_total |= total_lines.contains(&c.span.line);
            if o.first_line.is_none() {
                o.first_line = Some(c.span.line);
                o.span = Some(c.span.clone());
            }
        }
    }
    // Countries of the IBANs and tax ids.
    let mut iban_cur: Option<&'static str> = None;
    let mut id_curs: Vec<&'static str> = Vec::new();
    for c in &cands.items {
        let Some(cc) = id_country(c.kind, c.scheme.as_deref(), &c.value) else {
            continue;
        };
        let Some(cur) = currency_of_country(&cc) else {
            continue;
        };
        if c.kind == CandidateKind::Iban {
            iban_cur.get_or_insert(cur);
        } else if !id_curs.contains(&cur) {
            id_curs.push(cur);
        }
    }
    let lang_cur = cands.style.language.and_then(currency_of_language);
    for cur in iban_cur.iter().chain(&id_curs).chain(lang_cur.iter()) {
        find(&mut opts, cur);
    }
    for o in &mut opts {
        o.iban_country = iban_cur == Some(o.iso);
        o.id_country = id_curs.contains(&o.iso);
        o.other_country =
            iban_cur.is_some_and(|c| c != o.iso) || id_curs.iter().any(|c| *c != o.iso);
        o.language = lang_cur == Some(o.iso);
    }
    opts
}

/// The vectors of a document's currency options (same order).
pub fn currency_vectors(doc: &CleanDocument, opts: &[CurrencyOption]) -> Vec<Vec<f32>> {
    let printed_all: u32 = opts.iter().map(CurrencyOption::printed).sum();
    let best = opts.iter().map(CurrencyOption::printed).max().unwrap_or(0);
    let lines = doc.lines.len().max(1) as f32;
    let log = |n: u32| (1.0 + n as f32).ln();
    let no_country = !opts.iter().any(|x| x.iban_country || x.id_country);
    opts.iter()
        .map(|o| {
            let mut r = Row::new(ChoiceKind::Currency);
            r.set("cur_codes", log(o.codes));
            r.set("cur_symbols", log(o.symbols));
            r.set("cur_shared", log(o.shared));
            r.set("cur_attached", log(o.attached));
            r.set(
                "cur_share",
                if printed_all == 0 {
                    0.0
                } else {
                    o.printed() as f32 / printed_all as f32
                },
            );
            r.flag("cur_on_total", o.on_total);
            r.set("cur_first", o.first_line.map_or(1.0, |l| l as f32 / lines));
            r.flag("cur_printed", o.printed() > 0);
            r.flag("cur_iban_country", o.iban_country);
            r.flag("cur_id_country", o.id_country);
            r.flag("cur_other_country", o.other_country);
            r.flag("cur_language", o.language);
            r.flag("cur_no_country", no_country);
            r.set("cur_options", opts.len() as f32);
            r.flag("cur_best_count", o.printed() == best && best > 0);
            r.into_vec()
        })
        .collect()
}

/// The rules' currency: the most printed option (amount-attached tokens count double; a shared
/// token counts for the option the countries or the language confirm, else for its first
/// currency); with none printed, the IBAN's country's, a tax id's, then the language's. Returns
/// the option's index and the rules' confidence.
pub fn rule_currency(opts: &[CurrencyOption]) -> Option<(usize, f32)> {
    let confirmed = CurrencyOption::confirmed;
    let weight = |o: &CurrencyOption| {
        let own = o.codes + o.symbols + o.attached;
        let shared = if confirmed(o) || !opts.iter().any(|x| x.shared > 0 && confirmed(x)) {
            o.shared
        } else {
            0
        };
        own + shared
    };
    let printed = opts
        .iter()
        .enumerate()
        .filter(|(_, o)| weight(o) > 0)
        .max_by(|(ia, a), (ib, b)| weight(a).cmp(&weight(b)).then(ib.cmp(ia)));
    if let Some((i, _)) = printed {
        return Some((i, 0.9));
    }
    let hinted = opts
        .iter()
        .position(|o| o.iban_country)
        .or_else(|| opts.iter().position(|o| o.id_country))
        .or_else(|| opts.iter().position(|o| o.language));
    hinted.map(|i| (i, 0.4))
}

/// The roles an IBAN may belong to, in the order of [`iban_vectors`]' rows.
pub const IBAN_ROLES: [PartyRole; 2] = [PartyRole::Seller, PartyRole::Buyer];

/// The vectors of the `i`-th of a document's account IBANs (`ibans`, in the Result's order),
/// one per role of [`IBAN_ROLES`]; `rule` is the rules' owner. Reads the chosen parties'
/// names and VAT ids from `result`.
pub fn iban_vectors(
    doc: &CleanDocument,
    cands: &Candidates,
    result: &DocumentResult,
    ibans: &[&Candidate],
    i: usize,
    rule: PartyRole,
) -> Vec<Vec<f32>> {
    let Some(c) = ibans.get(i) else {
        return Vec::new();
    };
    let span = &c.span;
    let page = doc.page(span.page);
    let (pw, ph) = page
        .map(|p| (p.width, p.height))
        .filter(|(w, h)| *w > 0.0 && *h > 0.0)
        .unwrap_or((600.0, 800.0));
    let b = span.bbox;
    let lines_above = |key: LabelKey| {
        (span.line.saturating_sub(3)..span.line).any(|l| {
            doc.lines.get(l).is_some_and(|x| x.page == span.page) && cands.line_has(l, key)
        })
    };
    IBAN_ROLES
        .iter()
        .map(|&role| {
            let (key, pointer, party) = match role {
                PartyRole::Buyer => (
                    LabelKey::Buyer,
                    "/parties/buyer/name",
                    &result.parties.buyer,
                ),
                _ => (
                    LabelKey::Seller,
                    "/parties/seller/name",
                    &result.parties.seller,
                ),
            };
            let mut r = Row::new(ChoiceKind::IbanOwner);
            r.flag("iban_role_buyer", role == PartyRole::Buyer);
            let blocks = cands
                .parties
                .iter()
                .filter(|p| p.role == key && p.contains(span));
            let (mut any, mut labelled) = (false, false);
            for p in blocks {
                any = true;
                labelled |= p.label_line.is_some();
            }
            r.flag("iban_in_block", any);
            r.flag("iban_labelled_block", labelled);
            r.flag("iban_line_label", cands.line_has(span.line, key));
            r.flag("iban_label_above", lines_above(key));
            r.flag(
                "iban_bank_label",
                [LabelKey::Iban, LabelKey::Bank]
                    .iter()
                    .any(|k| cands.line_has(span.line, *k) || lines_above(*k)),
            );
            let name = result.evidence.get(pointer).filter(|e| e.page == span.page);
            let (gap, above, column) = match name {
                Some(e) => {
                    let gap = (b.y0 as f64 - e.bbox[3]) as f32 / ph;
                    (
                        gap,
                        e.bbox[1] <= b.y0 as f64 && gap < 0.25,
                        ((b.x0 as f64 - e.bbox[0]).abs() as f32) < 0.05 * pw,
                    )
                }
                None => (1.0, false, false),
            };
            r.set("iban_name_gap", gap);
            r.flag("iban_name_above", above);
            r.flag("iban_same_column", column);
            let country = c.value.get(..2);
            r.flag(
                "iban_id_country",
                party
                    .vat_id
                    .as_deref()
                    .and_then(|v| v.get(..2))
                    .is_some_and(|v| Some(v) == country),
            );
            r.set("iban_rel_y", b.y0 / ph);
            r.set("iban_order", i as f32);
            r.set("iban_count", ibans.len() as f32);
            r.flag("iban_rule", rule == role);
            r.into_vec()
        })
        .collect()
}

/// The learned chooser.
#[derive(Debug)]
pub struct ChoiceModel(CalibratedTrees);

impl ChoiceModel {
    /// A model of the tree-ensemble family and its calibration; checks the input width.
    pub fn from_bytes(model: &[u8], calibration: &str) -> Result<Self> {
        CalibratedTrees::from_bytes(model, calibration, choice_feature_count(), "choice")
            .map(ChoiceModel)
    }

    /// The embedded model (loaded once; `None` only if the committed files do not match the
    /// code, which a unit test rules out).
    pub fn embedded() -> Option<&'static ChoiceModel> {
        static MODEL: LazyLock<Option<ChoiceModel>> = LazyLock::new(|| {
            ChoiceModel::from_bytes(EMBEDDED_CHOICE_MODEL, EMBEDDED_CHOICE_CALIBRATION).ok()
        });
        MODEL.as_ref()
    }

    /// The model a scorer's choices use: the embedded one with a learned scorer, none (the
    /// rules) with [`super::RuleScorer`].
    pub fn for_scorer(scorer: &dyn FieldScorer) -> Option<&'static ChoiceModel> {
        if scorer.learned_models() {
            ChoiceModel::embedded()
        } else {
            None
        }
    }

    /// The calibrated probability of a vector.
    pub fn score(&self, row: &[f32]) -> f32 {
        self.0.score(row)
    }

    /// The best of some options' vectors: its index and calibrated probability, when it reaches
    /// the kind's fill threshold. Ties keep the first.
    pub fn choose(&self, kind: ChoiceKind, rows: &[Vec<f32>]) -> Option<(usize, f32)> {
        let mut best: Option<(usize, f32)> = None;
        for (i, r) in rows.iter().enumerate() {
            let s = self.score(r);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
        best.filter(|(_, s)| *s >= self.fill_threshold(kind))
    }

    /// The calibrated probability the best option of a kind needs to be taken.
    pub fn fill_threshold(&self, kind: ChoiceKind) -> f32 {
        self.0.fill(kind.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::extract;
    use crate::candidates::tests::doc_from;

    fn options(lines: &[(&str, f32, f32)]) -> Vec<CurrencyOption> {
        let doc = doc_from(lines);
        let cands = extract(&doc);
        let mut result = DocumentResult::empty();
        result.totals.total = Some("1250.00".into());
        currency_options_of(&cands, &result)
    }

    #[test]
    fn a_shared_token_offers_every_currency_and_the_countries_tell_them_apart() {
        let opts = options(&[
            ("Faktura 17", 10.0, 10.0),
            ("CVR-nr. DK13585628", 10.0, 30.0),
            ("IBAN DK50 0040 0440 1162 43", 10.0, 50.0),
            ("I alt 1.250,00 kr.", 10.0, 200.0),
        ]);
        // The token's currencies first; then any the language suggests.
        let isos: Vec<&str> = opts.iter().map(|o| o.iso).take(4).collect();
        assert_eq!(isos, ["SEK", "DKK", "NOK", "ISK"]);
        let dkk = &opts[1];
        assert!(dkk.iban_country && dkk.on_total && dkk.attached == 1 && dkk.shared == 1);
        assert!(!opts[0].iban_country && opts[0].other_country);
        // The rules take the shared token for the currency the countries confirm.
        assert_eq!(rule_currency(&opts).map(|(i, _)| opts[i].iso), Some("DKK"));
        // One vector per option, of the named width, with the kind's one-hot.
        let doc = doc_from(&[("x", 10.0, 10.0)]);
        let rows = currency_vectors(&doc, &opts);
        assert_eq!(rows.len(), opts.len());
        assert!(rows.iter().all(|r| r.len() == choice_feature_count()));
        assert_eq!(rows[0][0], 1.0);
    }

    #[test]
    fn without_a_printed_currency_the_hints_decide() {
        let opts = options(&[
            ("Rechnung 17", 10.0, 10.0),
            ("USt-IdNr. DE136695976", 10.0, 30.0),
            ("Summe 1.250,00", 10.0, 200.0),
        ]);
        assert_eq!(
            rule_currency(&opts).map(|(i, c)| (opts[i].iso, c)),
            Some(("EUR", 0.4))
        );
        assert!(options(&[("Total 12", 10.0, 10.0)]).is_empty());
    }

    /// The currency and the type the engine's default scorer reads (the choice model).
    fn learned(lines: &[(&str, f32, f32)]) -> (Option<String>, DocumentType, f32) {
        let doc = doc_from(lines);
        let cands = extract(&doc);
        let scorer = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        let r = crate::fields::extract(&doc, &cands, &scorer);
        let (dt, _) = crate::classify::classify(&doc, &cands, &r, ChoiceModel::embedded());
        let conf = r
            .confidence
            .fields
            .get("/document/currency")
            .copied()
            .unwrap_or(0.0) as f32;
        (r.document.currency, dt.code, conf)
    }

    #[test]
    fn the_printed_currency_outweighs_the_countries_and_the_type_its_evidence() {
        // A British company invoicing in dollars: the codes on the amounts decide.
        let (cur, ty, conf) = learned(&[
            ("Acme Widgets Ltd", 10.0, 10.0),
            ("VAT No.: GB987654157", 10.0, 30.0),
            ("INVOICE", 10.0, 50.0),
            ("Invoice No.: ACME-7781", 10.0, 70.0),
            ("Invoice date: 30 September 2024", 10.0, 90.0),
            ("Bill to: Globex Trading Ltd", 10.0, 110.0),
            ("Subtotal: 1,185.00 USD", 10.0, 200.0),
            ("VAT 20%: 237.00 USD", 10.0, 220.0),
            ("Total due: 1,422.00 USD", 10.0, 240.0),
            ("IBAN: GB60 BARC 2000 0055 7799 11", 10.0, 300.0),
        ]);
        assert_eq!((cur.as_deref(), ty), (Some("USD"), DocumentType::Invoice));
        assert!(conf > 0.5 && conf < 1.0, "{conf}");
        // A Danish invoice printing only `kr.`: its IBAN and VAT id say which crowns.
        let (cur, _, _) = learned(&[
            ("Nordisk Tømrer ApS", 10.0, 10.0),
            ("CVR-nr. DK13585628", 10.0, 30.0),
            ("Faktura nr. 2024-117", 10.0, 50.0),
            ("Fakturadato: 12.03.2024", 10.0, 70.0),
            ("I alt 1.250,00 kr.", 10.0, 200.0),
            ("IBAN DK50 0040 0440 1162 43", 10.0, 300.0),
        ]);
        assert_eq!(cur.as_deref(), Some("DKK"));
        // Only the Danish text says which crowns (no IBAN, the SE-nr. without its country).
        let (cur, _, _) = learned(&[
            ("El-service Pedersen ApS", 48.0, 39.0),
            ("Nørregade 92, 5000 Odense C", 48.0, 59.0),
            ("SE-nr. 47735483", 48.0, 70.0),
            ("Byg Pedersen IVS", 307.0, 118.0),
            ("Industrivej 21", 307.0, 130.0),
            ("9000 Aalborg", 307.0, 142.0),
            ("Kreditfaktura", 417.0, 170.0),
            ("Dokumentnr.:  RE-2024-20182", 48.0, 198.0),
            ("Udstedelsesdato:  09.12.2024", 48.0, 211.0),
            (
                "#  Beskrivelse  Antal  Stk.pris  Moms %  Beløb",
                51.0,
                244.0,
            ),
            (
                "1  Konsulentydelser  3  timer  -6.034,64  25%  -18.103,92",
                51.0,
                261.0,
            ),
            (
                "2  Kontorstol (-10%)  10  stk.  -2.588,77  25%  -23.298,93",
                51.0,
                278.0,
            ),
            (
                "3  Kopipapir A4  0,5  timer  -3.705,90  25%  -1.852,95",
                51.0,
                295.0,
            ),
            (
                "4  Softwarelicens år  2,5  timer  -1.419,59  25%  -3.548,98",
                51.0,
                311.0,
            ),
            ("Beløb  -49.393,55 kr.", 313.0, 338.0),
            ("Nedslag:  2.588,77 kr.", 313.0, 352.0),
            ("I alt ekskl. moms:  -46.804,78 kr.", 313.0, 366.0),
            ("25% moms 25%  -11.701,20 kr.", 313.0, 380.0),
            ("Totalbeløb:  -58.505,98 kr.", 313.0, 393.0),
            ("Restbeløb:  -58.505,98 kr.", 313.0, 407.0),
            ("Udstedt af  Modtaget af", 48.0, 475.0),
        ]);
        assert_eq!(cur.as_deref(), Some("DKK"));
        // A credit note: its title and its negative total.
        let (_, ty, _) = learned(&[
            ("Lieferant GmbH", 10.0, 10.0),
            ("Gutschrift Nr. 4711", 10.0, 50.0),
            ("Datum: 05.03.2024", 10.0, 70.0),
            ("Gesamtbetrag -119,00 EUR", 10.0, 200.0),
        ]);
        assert_eq!(ty, DocumentType::CreditNote);
    }

    #[test]
    fn an_iban_under_the_buyers_name_is_the_buyers_and_the_footers_the_sellers() {
        let doc = doc_from(&[
            ("Lieferant GmbH", 10.0, 10.0),
            ("Lieferantenstraße 20, 80333 München", 10.0, 24.0),
            ("Rechnung Nr. 4711", 10.0, 60.0),
            ("Datum: 05.03.2024", 10.0, 74.0),
            ("Rechnungsempfänger:", 10.0, 100.0),
            ("Kunde AG", 10.0, 114.0),
            ("Hauptstraße 5, 10115 Berlin", 10.0, 128.0),
            ("IBAN DE02 1203 0000 0000 2020 51", 10.0, 142.0),
            ("Gesamtbetrag 119,00 EUR", 10.0, 300.0),
            (
                "Bankverbindung: IBAN DE89 3704 0044 0532 0130 00",
                10.0,
                700.0,
            ),
        ]);
        let cands = extract(&doc);
        let scorer = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        let r = crate::fields::extract(&doc, &cands, &scorer);
        let owners: Vec<_> = r
            .bank_accounts
            .iter()
            .map(|a| (a.iban.clone().unwrap_or_default(), a.party))
            .collect();
        assert_eq!(
            owners,
            [
                ("DE02120300000000202051".to_string(), Some(PartyRole::Buyer)),
                (
                    "DE89370400440532013000".to_string(),
                    Some(PartyRole::Seller)
                ),
            ]
        );
        // The model's calibrated probabilities are the owners' confidences.
        for i in 0..2 {
            let c = r.confidence.fields[&format!("/bank_accounts/{i}/party")];
            assert!(c > 0.5 && c < 1.0, "{c}");
        }
    }

    #[test]
    fn the_embedded_model_loads_with_the_vector_width() {
        let m = ChoiceModel::embedded().expect("committed choice model and calibration");
        assert_eq!(m.0.features(), choice_feature_count());
        assert_eq!(feature_names().len(), choice_feature_count());
        for k in ChoiceKind::ALL {
            assert!((0.0..=1.0).contains(&m.fill_threshold(k)));
        }
    }
}
