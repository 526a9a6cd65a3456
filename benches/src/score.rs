//! Scoring of Result JSON against `truth.json` labels, following the rules of the shared data
//! README ("How results are scored").
//!
//! # Mapping of the Result JSON onto the truth keys
//!
//! | truth key | Result JSON |
//! |---|---|
//! | `number` | `document.number` |
//! | `date` | `document.date` |
//! | `currency` | `document.currency` |
//! | `seller_name`, `seller_address` | `parties.seller.name`, `parties.seller.address` |
//! | `seller_tax_id` | any of `parties.seller.vat_id`, `tax_id`, `registration_id` |
//! | `buyer_name` | `parties.buyer.name` |
//! | `total` | `totals.total`, else `totals.payable` |
//! | `vat` | `totals.vat` |
//! | `iban` | any `bank_accounts[].iban` |
//! | `line_items` | `line_items[]` (`amount` is the net `line_total`) |
//!
//! # Counting
//!
//! A truth key that is missing (or `null`) means "not labelled": the field is then not scored at
//! all, whatever the engine predicted (such predictions are only counted in
//! [`FieldTally::unlabelled`], for information). For a labelled scalar field: `labelled` = 1,
//! `predicted` = 1 when the engine gave a non-null value (for the "any of" fields: at least one),
//! `correct` = 1 when that value (any of them) matches. A prediction that does not match counts
//! against both precision and recall. Precision = correct / predicted, recall = correct /
//! labelled, F1 = 2 · correct / (predicted + labelled) (the harmonic mean of the two).
//!
//! # Comparison rules
//!
//! * Names and addresses: [`normalize_text`] on both sides (NFKC, upper case, every character that
//!   is neither a letter, a digit nor white space removed, white space collapsed), then
//!   `difflib.SequenceMatcher(None, truth, predicted).ratio() >= 0.8` ([`crate::difflib`]).
//! * Numbers and tax ids: [`normalize_id`] on both sides (NFKC, upper case, only letters and
//!   digits kept, then a leading two-letter ASCII prefix dropped when more follows), then equal.
//! * IBANs: letters and digits only, upper case, equal (the country code is kept: it is part of
//!   the checksum).
//! * Amounts (`total`, `vat`, line `unit_price`, `line_total`): decimals rounded to the cent
//!   (half away from zero), equal; an unparseable value is wrong.
//! * Dates and currencies: equal after trimming surrounding white space.
//!
//! # Line items
//!
//! `line_items` is scored per row when the truth has the key: `labelled` = truth rows, `predicted`
//! = predicted rows (all of them: a row without a net amount cannot be right), `correct` =
//! predicted rows matched one-to-one to truth rows with the same net amount (`amount` vs
//! `line_total`, to the cent). Matching goes through the predicted rows in order; each takes, among
//! the still unmatched truth rows with its amount, the one whose description is most similar
//! (first on ties). On the matched pairs only, the secondary fields `line_items.description`
//! (text rule), `line_items.quantity` and `line_items.vat_rate` (equal as decimals),
//! `line_items.unit_price` (amount rule) and `line_items.unit_code` are scored like scalar fields.
//! `line_items.unit_code` is labelled only where the truth `unit` has the shape of a UN/ECE
//! Recommendation 20 code (2 or 3 upper-case letters and digits, at least one letter: `C62`,
//! `HUR`, `KGM`) and is compared, equal, with the predicted row's `unit_code`; a unit as printed
//! (`Stk`, `kg`) is not comparable with a code and is not scored.
//!
//! # Exact comparison
//!
//! [`Strictness::Exact`] (for the e-invoice path, whose values come from the XML and must come
//! out as the XML states them) replaces the tolerant rules: names, addresses and descriptions
//! equal after collapsing white space (runs of spaces and line breaks become one space, case and
//! punctuation count); numbers and tax ids equal after trimming (no prefix dropped); amounts,
//! unit prices and line totals equal as decimals (`"3.3333"` is not `"3.33"`; `"9.00"` is
//! `"9"`); IBANs, dates, currencies, quantities and rates as above. Line-item rows are then
//! matched by equal net amounts as decimals, and a row without a net amount matches a truth row
//! without one (an e-invoice line that states none, e.g. a text or group line, is carried by the
//! XML all the same: its other fields are scored).

use crate::difflib;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::str::FromStr;
use unicode_normalization::UnicodeNormalization;

/// The scored truth keys, in report order.
pub const FIELDS: [&str; 11] = [
    "number",
    "date",
    "currency",
    "seller_name",
    "seller_address",
    "seller_tax_id",
    "buyer_name",
    "total",
    "vat",
    "iban",
    "line_items",
];

/// Header fields beyond the shared data README's keys, scored where a truth labels them (the
/// synthetic generator writes them; the shared sets do not): `document_type` (the Result's
/// `document_type.code`), `due_date` (`document.due_date`), `net`, `prepaid` and `payable`
/// (`totals.*`). Dates and types compare exactly, amounts by the amount rule. A `prepaid` of
/// zero is not a label (the generator writes it beside a printed payable line; nothing was
/// prepaid, and an engine that leaves the field empty is right). They are reported apart and
/// are not part of the README's macro F1.
pub const EXTRA_FIELDS: [&str; 5] = ["document_type", "due_date", "net", "prepaid", "payable"];

/// Extra fields a generated truth (one with a `synthetic` object, `models/synth.py`) labels
/// exactly where the document prints them: there a missing key means "not printed", and a
/// predicted value counts as a wrong prediction (precision), not as unlabelled. (`payable` is
/// not one of them: the Result states the amount to pay, the total, when no payable line is
/// printed.)
pub const COMPLETE_WHEN_GENERATED: [&str; 2] = ["due_date", "prepaid"];

/// Secondary fields scored on matched line-item pairs only.
pub const LINE_ITEM_FIELDS: [&str; 5] = [
    "line_items.description",
    "line_items.quantity",
    "line_items.unit_price",
    "line_items.vat_rate",
    "line_items.unit_code",
];

/// How strictly values compare (see the module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Strictness {
    /// The shared data README's rules: similar names, ids without country prefix, amounts to
    /// the cent.
    #[default]
    Tolerant,
    /// Values as stated: texts equal but for white space, ids equal, amounts equal as decimals.
    Exact,
}

/// Lowest difflib ratio at which names and addresses count as correct.
pub const TEXT_SIMILARITY: f64 = 0.8;

/// Counts of one field, over one document or many.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FieldTally {
    /// Values the truth holds.
    pub labelled: u64,
    /// Values predicted where the truth is labelled.
    pub predicted: u64,
    /// Predicted values that match.
    pub correct: u64,
    /// Values predicted where the truth is not labelled (not scored; information only).
    pub unlabelled: u64,
}

impl FieldTally {
    /// Adds one observation.
    pub fn add(&mut self, labelled: u64, predicted: u64, correct: u64) {
        self.labelled += labelled;
        self.predicted += predicted;
        self.correct += correct;
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: &FieldTally) {
        self.labelled += other.labelled;
        self.predicted += other.predicted;
        self.correct += other.correct;
        self.unlabelled += other.unlabelled;
    }

    /// correct / predicted (`None` when nothing was predicted).
    pub fn precision(&self) -> Option<f64> {
        ratio(self.correct, self.predicted)
    }

    /// correct / labelled (`None` when nothing is labelled).
    pub fn recall(&self) -> Option<f64> {
        ratio(self.correct, self.labelled)
    }

    /// Harmonic mean of precision and recall, `2 · correct / (predicted + labelled)` (`None`
    /// when both are zero).
    pub fn f1(&self) -> Option<f64> {
        ratio(2 * self.correct, self.predicted + self.labelled)
    }

    /// True when something labelled was missed or something predicted was wrong.
    pub fn has_miss(&self) -> bool {
        self.correct < self.labelled || self.correct < self.predicted
    }
}

fn ratio(n: u64, d: u64) -> Option<f64> {
    (d > 0).then(|| n as f64 / d as f64)
}

/// The outcome of one field in one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldOutcome {
    /// Field name (one of [`FIELDS`] or [`LINE_ITEM_FIELDS`]).
    pub field: String,
    /// Counts.
    #[serde(flatten)]
    pub tally: FieldTally,
    /// The truth value (`null` when not labelled).
    pub truth: Value,
    /// The predicted value(s) mapped onto the truth key (`null` when none).
    pub predicted_value: Value,
}

/// All field outcomes of one document.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DocScore {
    /// [`FIELDS`], [`EXTRA_FIELDS`] then [`LINE_ITEM_FIELDS`], in that order.
    pub fields: Vec<FieldOutcome>,
}

impl DocScore {
    /// The outcome of a field.
    pub fn get(&self, field: &str) -> Option<&FieldOutcome> {
        self.fields.iter().find(|f| f.field == field)
    }
}

/// Tallies over many documents, by field.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Scoreboard {
    /// Field -> tally.
    pub fields: BTreeMap<String, FieldTally>,
    /// Documents added.
    pub documents: u64,
}

impl Scoreboard {
    /// Adds the outcomes of one document.
    pub fn add(&mut self, doc: &DocScore) {
        self.documents += 1;
        for f in &doc.fields {
            self.fields
                .entry(f.field.clone())
                .or_default()
                .merge(&f.tally);
        }
    }

    /// The tally of a field (zero if never seen).
    pub fn tally(&self, field: &str) -> FieldTally {
        self.fields.get(field).copied().unwrap_or_default()
    }

    /// Micro-averaged tally over the main [`FIELDS`] (line items count per row).
    pub fn overall(&self) -> FieldTally {
        let mut t = FieldTally::default();
        for f in FIELDS {
            t.merge(&self.tally(f));
        }
        t
    }
}

/// Text normalisation for names and addresses: NFKC, upper case, characters other than letters,
/// digits and white space removed, white space runs collapsed to one space, trimmed.
pub fn normalize_text(s: &str) -> String {
    let up: String = s.nfkc().collect::<String>().to_uppercase();
    let kept: String = up
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// difflib ratio of the normalised texts.
pub fn text_similarity(truth: &str, predicted: &str) -> f64 {
    difflib::ratio(&normalize_text(truth), &normalize_text(predicted))
}

/// Names and addresses: normalised difflib ratio at least [`TEXT_SIMILARITY`].
pub fn texts_match(truth: &str, predicted: &str) -> bool {
    text_similarity(truth, predicted) >= TEXT_SIMILARITY
}

/// Id normalisation for numbers and tax ids: NFKC, upper case, letters and digits only, a
/// leading two-letter ASCII (country) prefix dropped when anything follows it.
pub fn normalize_id(s: &str) -> String {
    let up: String = s.nfkc().collect::<String>().to_uppercase();
    let kept: Vec<char> = up.chars().filter(|c| c.is_alphanumeric()).collect();
    let prefixed = kept.len() > 2 && kept.iter().take(2).all(|c| c.is_ascii_uppercase());
    kept.into_iter()
        .skip(if prefixed { 2 } else { 0 })
        .collect()
}

/// Numbers and tax ids: equal after [`normalize_id`].
pub fn ids_match(truth: &str, predicted: &str) -> bool {
    normalize_id(truth) == normalize_id(predicted)
}

/// IBANs: letters and digits only, upper case, equal.
pub fn ibans_match(truth: &str, predicted: &str) -> bool {
    let n = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_uppercase())
            .collect()
    };
    n(truth) == n(predicted)
}

/// A decimal string (`"1234.56"`, `"-3"`, `"+0.5"`), surrounding white space allowed.
pub fn parse_decimal(s: &str) -> Option<Decimal> {
    let t = s.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    Decimal::from_str(t).ok()
}

/// An amount rounded to the cent (half away from zero).
pub fn parse_cents(s: &str) -> Option<Decimal> {
    parse_decimal(s).map(to_cents)
}

/// A decimal rounded to the cent (half away from zero).
pub fn to_cents(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
}

/// Amounts: equal to the cent; unparseable values never match.
pub fn amounts_match(truth: &str, predicted: &str) -> bool {
    match (parse_cents(truth), parse_cents(predicted)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Quantities and rates: equal as decimals (`"3.00"` == `"3"`).
pub fn decimals_match(truth: &str, predicted: &str) -> bool {
    match (parse_decimal(truth), parse_decimal(predicted)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Dates and currencies: equal after trimming.
pub fn exact_match(truth: &str, predicted: &str) -> bool {
    truth.trim() == predicted.trim()
}

/// Texts equal after collapsing white space runs (line breaks included) to one space.
pub fn texts_equal(truth: &str, predicted: &str) -> bool {
    truth.split_whitespace().eq(predicted.split_whitespace())
}

/// Whether a unit has the shape of a UN/ECE Recommendation 20 code: 2 or 3 ASCII upper-case
/// letters and digits, at least one of them a letter (`C62`, `H87`, `HUR`).
pub fn is_unit_code(unit: &str) -> bool {
    (2..=3).contains(&unit.len())
        && unit
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && unit.bytes().any(|b| b.is_ascii_uppercase())
}

/// How a field's values compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// [`texts_match`].
    Text,
    /// [`ids_match`].
    Id,
    /// [`ibans_match`].
    Iban,
    /// [`amounts_match`].
    Amount,
    /// [`decimals_match`].
    Decimal,
    /// [`exact_match`].
    Exact,
}

impl Rule {
    /// The rule of a truth key (`None` for `line_items`, scored per row, and unknown keys).
    pub fn of(field: &str) -> Option<Rule> {
        Some(match field {
            "seller_name" | "seller_address" | "buyer_name" | "line_items.description" => {
                Rule::Text
            }
            "number" | "seller_tax_id" => Rule::Id,
            "iban" => Rule::Iban,
            "total" | "vat" | "line_items.unit_price" => Rule::Amount,
            "line_items.quantity" | "line_items.vat_rate" => Rule::Decimal,
            "net" | "prepaid" | "payable" => Rule::Amount,
            "date" | "currency" | "line_items.unit_code" | "document_type" | "due_date" => {
                Rule::Exact
            }
            _ => return None,
        })
    }

    /// Whether `predicted` matches `truth` under this rule.
    pub fn matches(self, truth: &str, predicted: &str) -> bool {
        self.matches_with(truth, predicted, Strictness::Tolerant)
    }

    /// Whether `predicted` matches `truth` under this rule, as strictly as asked.
    pub fn matches_with(self, truth: &str, predicted: &str, strictness: Strictness) -> bool {
        if strictness == Strictness::Exact {
            match self {
                Rule::Text => return texts_equal(truth, predicted),
                Rule::Id => return exact_match(truth, predicted),
                Rule::Amount => return decimals_match(truth, predicted),
                Rule::Iban | Rule::Decimal | Rule::Exact => {}
            }
        }
        match self {
            Rule::Text => texts_match(truth, predicted),
            Rule::Id => ids_match(truth, predicted),
            Rule::Iban => ibans_match(truth, predicted),
            Rule::Amount => amounts_match(truth, predicted),
            Rule::Decimal => decimals_match(truth, predicted),
            Rule::Exact => exact_match(truth, predicted),
        }
    }
}

/// A JSON string or number as text; anything else (null, objects ...) is no value.
fn text_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn at(v: &Value, pointer: &str) -> Option<String> {
    text_of(v.pointer(pointer))
}

fn opt(v: Option<String>) -> Value {
    v.map(Value::String).unwrap_or(Value::Null)
}

/// Maps a Result JSON onto the truth keys: scalar keys hold a string or `null`,
/// `seller_tax_id` and `iban` hold the array of all candidates (possibly empty), `line_items`
/// an array of `{description, quantity, unit, unit_price, vat_rate, line_total}`.
pub fn result_to_keys(result: &Value) -> Value {
    let mut m = Map::new();
    m.insert("number".into(), opt(at(result, "/document/number")));
    m.insert("date".into(), opt(at(result, "/document/date")));
    m.insert("currency".into(), opt(at(result, "/document/currency")));
    m.insert(
        "seller_name".into(),
        opt(at(result, "/parties/seller/name")),
    );
    m.insert(
        "seller_address".into(),
        opt(at(result, "/parties/seller/address")),
    );
    let ids: Vec<Value> = ["vat_id", "tax_id", "registration_id"]
        .iter()
        .filter_map(|k| at(result, &format!("/parties/seller/{k}")))
        .map(Value::String)
        .collect();
    m.insert("seller_tax_id".into(), Value::Array(ids));
    m.insert("buyer_name".into(), opt(at(result, "/parties/buyer/name")));
    let total = at(result, "/totals/total").or_else(|| at(result, "/totals/payable"));
    m.insert("total".into(), opt(total));
    m.insert("vat".into(), opt(at(result, "/totals/vat")));
    let ibans: Vec<Value> = result
        .get("bank_accounts")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|b| text_of(b.get("iban")))
                .map(Value::String)
                .collect()
        })
        .unwrap_or_default();
    m.insert("iban".into(), Value::Array(ibans));
    let items: Vec<Value> = result
        .get("line_items")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .enumerate()
                .map(|(i, it)| {
                    json!({
                        "confidence": result
                            .pointer(&format!("/confidence/fields/~1line_items~1{i}"))
                            .cloned()
                            .unwrap_or(Value::Null),
                        "description": opt(text_of(it.get("description"))),
                        "quantity": opt(text_of(it.get("quantity"))),
                        "unit": opt(text_of(it.get("unit"))),
                        "unit_code": opt(text_of(it.get("unit_code"))),
                        "unit_price": opt(text_of(it.get("unit_price"))),
                        "vat_rate": opt(text_of(it.get("vat_rate"))),
                        "line_total": opt(text_of(it.get("amount"))),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    m.insert("line_items".into(), Value::Array(items));
    m.insert(
        "document_type".into(),
        opt(at(result, "/document_type/code")),
    );
    m.insert("due_date".into(), opt(at(result, "/document/due_date")));
    for k in ["net", "prepaid", "payable"] {
        m.insert(k.into(), opt(at(result, &format!("/totals/{k}"))));
    }
    Value::Object(m)
}

/// Scores one scalar field: `truth` / `predicted` are the values (or `None`), `predicted` may
/// hold several candidates (any may match).
fn score_scalar(
    field: &str,
    rule: Rule,
    truth: Option<String>,
    predicted: Vec<String>,
    strictness: Strictness,
) -> FieldOutcome {
    let mut tally = FieldTally::default();
    let predicted_value = match predicted.len() {
        0 => Value::Null,
        1 => Value::String(predicted[0].clone()),
        _ => Value::Array(predicted.iter().cloned().map(Value::String).collect()),
    };
    match &truth {
        Some(t) => {
            let any = !predicted.is_empty();
            let ok = predicted
                .iter()
                .any(|p| rule.matches_with(t, p, strictness));
            tally.add(1, u64::from(any), u64::from(ok));
        }
        None => tally.unlabelled = u64::from(!predicted.is_empty()),
    }
    FieldOutcome {
        field: field.to_string(),
        tally,
        truth: opt(truth),
        predicted_value,
    }
}

/// Scores the line items; returns the `line_items` outcome then the [`LINE_ITEM_FIELDS`] ones.
fn score_line_items(
    truth: Option<&Value>,
    predicted: &[Value],
    strictness: Strictness,
) -> Vec<FieldOutcome> {
    let pred_value = Value::Array(predicted.to_vec());
    let truth_rows: Option<&Vec<Value>> = truth.and_then(Value::as_array);
    let mut main = FieldTally::default();
    let mut subs: Vec<FieldTally> = vec![FieldTally::default(); LINE_ITEM_FIELDS.len()];
    match truth_rows {
        None => main.unlabelled = predicted.len() as u64,
        Some(rows) => {
            main.labelled = rows.len() as u64;
            main.predicted = predicted.len() as u64;
            let mut used = vec![false; rows.len()];
            for p in predicted {
                let amount = text_of(p.get("line_total"));
                if amount.is_none() && strictness == Strictness::Tolerant {
                    continue;
                }
                let desc = text_of(p.get("description")).unwrap_or_default();
                let mut best: Option<(usize, f64)> = None;
                for (i, t) in rows.iter().enumerate() {
                    if used.get(i).copied().unwrap_or(true) {
                        continue;
                    }
                    let same = match (text_of(t.get("line_total")), &amount) {
                        (Some(ta), Some(a)) => Rule::Amount.matches_with(&ta, a, strictness),
                        // Both without one (exact comparison only, see above).
                        (None, None) => true,
                        _ => false,
                    };
                    if !same {
                        continue;
                    }
                    let sim = text_of(t.get("description"))
                        .map(|d| text_similarity(&d, &desc))
                        .unwrap_or(0.0);
                    if best.is_none_or(|(_, s)| sim > s) {
                        best = Some((i, sim));
                    }
                }
                let Some((i, _)) = best else { continue };
                if let Some(u) = used.get_mut(i) {
                    *u = true;
                }
                main.correct += 1;
                let Some(t) = rows.get(i) else { continue };
                for (k, name) in LINE_ITEM_FIELDS.iter().enumerate() {
                    let key = name.trim_start_matches("line_items.");
                    let Some(rule) = Rule::of(name) else { continue };
                    let (tv, pv) = if key == "unit_code" {
                        // Labelled where the truth unit is a code.
                        let tv = text_of(t.get("unit")).filter(|u| is_unit_code(u));
                        (tv, text_of(p.get(key)))
                    } else {
                        (text_of(t.get(key)), text_of(p.get(key)))
                    };
                    let Some(slot) = subs.get_mut(k) else {
                        continue;
                    };
                    match (tv, pv) {
                        (Some(tv), Some(pv)) => {
                            slot.add(1, 1, u64::from(rule.matches_with(&tv, &pv, strictness)))
                        }
                        (Some(_), None) => slot.add(1, 0, 0),
                        (None, Some(_)) => slot.unlabelled += 1,
                        (None, None) => {}
                    }
                }
            }
        }
    }
    let mut out = vec![FieldOutcome {
        field: "line_items".into(),
        tally: main,
        truth: truth.cloned().unwrap_or(Value::Null),
        predicted_value: pred_value,
    }];
    for (name, tally) in LINE_ITEM_FIELDS.iter().zip(subs) {
        out.push(FieldOutcome {
            field: (*name).to_string(),
            tally,
            truth: Value::Null,
            predicted_value: Value::Null,
        });
    }
    out
}

/// Scores a Result JSON against a truth object.
pub fn score_document(result: &Value, truth: &Value) -> DocScore {
    score_document_with(result, truth, Strictness::Tolerant)
}

/// Scores a Result JSON against a truth object, as strictly as asked.
pub fn score_document_with(result: &Value, truth: &Value, strictness: Strictness) -> DocScore {
    score_keys_with(&result_to_keys(result), truth, strictness)
}

/// Scores predictions already mapped by [`result_to_keys`] against a truth object.
pub fn score_keys(pred: &Value, truth: &Value) -> DocScore {
    score_keys_with(pred, truth, Strictness::Tolerant)
}

/// Scores predictions already mapped by [`result_to_keys`] against a truth object, as strictly
/// as asked.
pub fn score_keys_with(pred: &Value, truth: &Value, strictness: Strictness) -> DocScore {
    let mut fields = Vec::new();
    for field in FIELDS.iter().chain(EXTRA_FIELDS.iter()).copied() {
        if field == "line_items" {
            let rows = pred
                .get("line_items")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let t = truth.get("line_items").filter(|v| !v.is_null());
            fields.extend(score_line_items(t, &rows, strictness));
            continue;
        }
        let Some(rule) = Rule::of(field) else {
            continue;
        };
        let predicted: Vec<String> = match pred.get(field) {
            Some(Value::Array(a)) => a.iter().filter_map(|v| text_of(Some(v))).collect(),
            other => text_of(other).into_iter().collect(),
        };
        let labelled = text_of(truth.get(field)).filter(|t| {
            // Nothing prepaid is no label (see EXTRA_FIELDS).
            field != "prepaid" || parse_decimal(t).is_none_or(|d| !d.is_zero())
        });
        let complete = truth.get("synthetic").is_some() && COMPLETE_WHEN_GENERATED.contains(&field);
        let mut outcome = score_scalar(field, rule, labelled, predicted, strictness);
        if complete && outcome.tally.unlabelled > 0 {
            // Not printed, yet predicted: a wrong prediction.
            outcome.tally.unlabelled = 0;
            outcome.tally.predicted += 1;
        }
        fields.push(outcome);
    }
    // Keep the documented order: FIELDS, EXTRA_FIELDS then LINE_ITEM_FIELDS.
    let (mut main, subs): (Vec<_>, Vec<_>) = fields
        .into_iter()
        .partition(|f| !f.field.starts_with("line_items."));
    main.extend(subs);
    DocScore { fields: main }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scored tally: labelled, predicted, correct.
    fn tally(labelled: u64, predicted: u64, correct: u64) -> FieldTally {
        FieldTally {
            labelled,
            predicted,
            correct,
            unlabelled: 0,
        }
    }

    fn result_json() -> Value {
        json!({
            "schema_version": "1.0",
            "document": {"number": "RE-471102", "date": "2018-06-05", "due_date": null,
                         "title": "Rechnung", "currency": "EUR", "language": "de"},
            "parties": {
                "seller": {"name": "Lieferant GmbH", "tax_id": "201/113/40209",
                           "vat_id": "DE 123 456 789", "registration_id": null,
                           "address": "Lieferantenstraße 20, 80333 München", "phone": null,
                           "email": null},
                "buyer": {"name": "Kunden AG Mitte", "tax_id": null, "vat_id": null,
                          "registration_id": null, "address": null, "phone": null,
                          "email": null},
                "other": []
            },
            "line_items": [
                {"position": 1, "description": "Schweinesteak", "quantity": "1", "unit": "kg",
                 "unit_price": "5.50", "vat_rate": "7", "amount": "5.50", "sku": null,
                 "vat_amount": null, "amount_with_vat": null},
                {"position": 2, "description": "Kunstrasen grün 3m breit", "quantity": "3",
                 "unit": "m2", "unit_price": "3.34", "vat_rate": "19", "amount": "10.00",
                 "sku": null, "vat_amount": null, "amount_with_vat": null},
                {"position": 3, "description": "Versand", "quantity": null, "unit": null,
                 "unit_price": null, "vat_rate": null, "amount": "9.99", "sku": null,
                 "vat_amount": null, "amount_with_vat": null},
                {"position": 4, "description": "Zwischensumme", "quantity": null, "unit": null,
                 "unit_price": null, "vat_rate": null, "amount": null, "sku": null,
                 "vat_amount": null, "amount_with_vat": null}
            ],
            "totals": {"net": "180.00", "vat": "20.16", "total": null, "payable": "197.650",
                       "discount": null, "prepaid": null},
            "bank_accounts": [{"iban": "DE02120300000000202051"}, {"iban": null},
                              {"iban": "DE75512108001245126199"}]
        })
    }

    fn truth_json() -> Value {
        json!({
            "number": "471102",
            "date": "2018-06-05",
            "seller_name": "Lieferant GmbH",
            "seller_address": "Lieferantenstraße 20, 80333 München, DE",
            "seller_tax_id": "DE123456789",
            "buyer_name": "Kunden AG",
            "currency": "EUR",
            "total": "197.65",
            "vat": "20.15",
            "iban": "DE75 5121 0800 1245 1261 99",
            "line_items": [
                {"description": "Kunstrasen grün 3m breit", "quantity": "3.00", "unit": "MTK",
                 "unit_price": "3.3333", "vat_rate": "19.00", "line_total": "10.00"},
                {"description": "Schweinesteak", "quantity": "1.00", "unit": "KGM",
                 "unit_price": "5.50", "vat_rate": "7.00", "line_total": "5.50"},
                {"description": "Pfand", "quantity": "20.00", "unit": "C62",
                 "unit_price": "2.77", "vat_rate": "19.00", "line_total": "55.46"}
            ]
        })
    }

    #[test]
    fn text_normalisation() {
        assert_eq!(
            normalize_text("  Book Ta .K (Taman  Daya)\tSdn. Bhd. "),
            "BOOK TA K TAMAN DAYA SDN BHD"
        );
        // NFKC folds compatibility forms (full-width letters, ligatures); ß upper-cases to SS.
        assert_eq!(
            normalize_text("Ｆｏｌｉｏ ﬁrma Straße"),
            "FOLIO FIRMA STRASSE"
        );
        assert_eq!(normalize_text("ТОВ «Приват»"), "ТОВ ПРИВАТ");
        assert_eq!(normalize_text("...,;"), "");
        assert!(texts_match(
            "BOOK TA .K (TAMAN DAYA) SDN BHD",
            "BOOK TA .K(TAMAN DAYA) SDN BND"
        ));
        assert!(!texts_match("Kunden AG Mitte", "Kunden AG"));
        assert!(texts_match("Kunden AG Mitte", "KUNDEN AG, MITTE"));
    }

    #[test]
    fn id_normalisation() {
        assert_eq!(normalize_id("DE 123 456 789"), "123456789");
        assert_eq!(normalize_id("123456789"), "123456789");
        assert_eq!(normalize_id("fr11-999.999.998"), "11999999998");
        assert_eq!(normalize_id("RE-2024/001"), "2024001");
        assert_eq!(normalize_id("AB"), "AB");
        assert_eq!(normalize_id("№ 15"), "15"); // NFKC: № -> "No"
        assert!(ids_match("DE123456789", "123 456 789"));
        assert!(ids_match("GB123456789", "gb 123456789"));
        assert!(!ids_match("DE123456789", "DE123456780"));
        assert!(ids_match("471102", "RE-471102"));
        assert!(!ids_match("471102", "4711020"));
        assert!(ibans_match(
            "DE02120300000000202051",
            "de02 1203 0000 0000 2020 51"
        ));
        assert!(!ibans_match(
            "DE02120300000000202051",
            "02120300000000202051"
        ));
    }

    #[test]
    fn amounts_to_the_cent() {
        assert!(amounts_match("9.00", "9"));
        assert!(amounts_match("197.65", "197.650"));
        assert!(amounts_match("3.3333", "3.33"));
        assert!(amounts_match("0.125", "0.13")); // half away from zero
        assert!(amounts_match("-2.50", "-2.5"));
        assert!(amounts_match(" 1.00 ", "+1"));
        assert!(!amounts_match("9.00", "9.01"));
        assert!(!amounts_match("9.00", "9,00"));
        assert!(!amounts_match("abc", "abc"));
        assert!(decimals_match("3.00", "3"));
        assert!(!decimals_match("3.3333", "3.33"));
        assert!(exact_match("2018-06-05", " 2018-06-05"));
        assert!(!exact_match("2018-06-05", "2018-05-06"));
        assert!(!exact_match("EUR", "eur"));
    }

    #[test]
    fn result_mapping() {
        let k = result_to_keys(&result_json());
        assert_eq!(k["number"], "RE-471102");
        assert_eq!(
            k["seller_tax_id"],
            json!(["DE 123 456 789", "201/113/40209"])
        );
        assert_eq!(k["total"], "197.650", "payable stands in for a null total");
        assert_eq!(
            k["iban"],
            json!(["DE02120300000000202051", "DE75512108001245126199"])
        );
        assert_eq!(k["line_items"][1]["line_total"], "10.00");
        assert_eq!(k["line_items"][3]["line_total"], Value::Null);
        let mut r = result_json();
        r["totals"]["total"] = json!("200.00");
        assert_eq!(
            result_to_keys(&r)["total"],
            "200.00",
            "total wins over payable"
        );
        // A bare or broken result maps to nothing predicted.
        let empty = result_to_keys(&json!({"document": 5}));
        assert_eq!(empty["number"], Value::Null);
        assert_eq!(empty["iban"], json!([]));
        assert_eq!(empty["line_items"], json!([]));
    }

    #[test]
    fn document_scoring() {
        let s = score_document(&result_json(), &truth_json());
        let t = |f: &str| s.get(f).map(|o| o.tally).unwrap_or_default();
        let c = tally;
        assert_eq!(t("number"), c(1, 1, 1));
        assert_eq!(t("date"), c(1, 1, 1));
        assert_eq!(t("currency"), c(1, 1, 1));
        assert_eq!(t("seller_name"), c(1, 1, 1));
        assert_eq!(t("seller_address"), c(1, 1, 1));
        assert_eq!(t("seller_tax_id"), c(1, 1, 1));
        assert_eq!(t("buyer_name"), c(1, 1, 0), "predicted but wrong");
        assert_eq!(t("total"), c(1, 1, 1));
        assert_eq!(t("vat"), c(1, 1, 0));
        assert_eq!(t("iban"), c(1, 1, 1), "any account may match");
        // 4 predicted rows, 3 truth rows, 2 matched by net amount.
        assert_eq!(t("line_items"), c(3, 4, 2));
        // On the two matched pairs.
        assert_eq!(t("line_items.description"), c(2, 2, 2));
        assert_eq!(t("line_items.quantity"), c(2, 2, 2));
        // 3.3333 is 3.33 to the cent, not the predicted 3.34.
        assert_eq!(t("line_items.unit_price"), c(2, 2, 1));
        assert_eq!(t("line_items.vat_rate"), c(2, 2, 2));
        // Truth units are codes, the rows state none.
        assert_eq!(t("line_items.unit_code"), c(2, 0, 0));
        assert_eq!(
            s.fields
                .iter()
                .map(|f| f.field.as_str())
                .collect::<Vec<_>>(),
            FIELDS
                .iter()
                .chain(EXTRA_FIELDS.iter())
                .chain(LINE_ITEM_FIELDS.iter())
                .copied()
                .collect::<Vec<_>>()
        );
        // The truth labels none of the extra fields.
        for f in EXTRA_FIELDS {
            assert_eq!(t(f).labelled, 0, "{f}");
        }
        assert_eq!(
            s.get("buyer_name").map(|o| o.truth.clone()),
            Some(json!("Kunden AG"))
        );
    }

    #[test]
    fn extra_fields_are_scored_where_labelled() {
        let result = json!({
            "document": {"due_date": "2024-04-01"},
            "document_type": {"code": "CREDIT_NOTE", "confidence": 0.9},
            "totals": {"net": "-100.00", "prepaid": null, "payable": "-119.00"},
        });
        let truth = json!({"document_type": "CREDIT_NOTE", "due_date": "2024-04-02",
                           "net": "-100", "prepaid": "0.00", "payable": "-119.00"});
        let s = score_document(&result, &truth);
        let t = |f: &str| s.get(f).map(|o| o.tally).unwrap_or_default();
        let c = tally;
        assert_eq!(t("document_type"), c(1, 1, 1));
        assert_eq!(t("due_date"), c(1, 1, 0));
        assert_eq!(t("net"), c(1, 1, 1));
        assert_eq!(t("payable"), c(1, 1, 1));
        // Nothing prepaid: no label, and the empty prediction is not counted.
        assert_eq!(t("prepaid"), c(0, 0, 0));
        // A generated truth without a due date: none is printed, the prediction is wrong.
        let generated = json!({"synthetic": {}, "payable": "-119.00"});
        let s = score_document(&result, &generated);
        assert_eq!(s.get("due_date").map(|o| o.tally), Some(c(0, 1, 0)));
        assert_eq!(s.get("prepaid").map(|o| o.tally), Some(c(0, 0, 0)));
        let prepaid = json!({"prepaid": "50.00"});
        let s = score_document(&result, &prepaid);
        assert_eq!(s.get("prepaid").map(|o| o.tally), Some(c(1, 0, 0)));
        // Not in the README's micro average.
        assert_eq!(
            score_document(&result, &truth)
                .fields
                .iter()
                .filter(|f| FIELDS.contains(&f.field.as_str()))
                .map(|f| f.tally.labelled)
                .sum::<u64>(),
            0
        );
    }

    #[test]
    fn exact_comparison() {
        assert!(texts_equal(
            "Mineralwasser Medium \n12 x 1,0l PET",
            " Mineralwasser Medium 12 x 1,0l PET"
        ));
        assert!(!texts_equal("Kunden AG", "KUNDEN AG"));
        assert!(!texts_equal("Kunden AG", "Kunden AG."));
        for (u, code) in [("C62", true), ("HUR", true), ("H87", true), ("kg", false)] {
            assert_eq!(is_unit_code(u), code, "{u}");
        }
        for u in ["Stk", "12", "KGMS", "M"] {
            assert!(!is_unit_code(u), "{u}");
        }
        let mut r = result_json();
        r["line_items"][0]["unit_code"] = json!("KGM");
        r["line_items"][1]["unit_code"] = json!("MTR");
        r["line_items"][1]["unit_price"] = json!("3.33");
        let tolerant = score_document(&r, &truth_json());
        let exact = score_document_with(&r, &truth_json(), Strictness::Exact);
        let t = |s: &DocScore, f: &str| {
            let t = s.get(f).map(|o| o.tally).unwrap_or_default();
            (t.labelled, t.predicted, t.correct)
        };
        // `RE-471102` is not `471102`, `DE 123 456 789` not `DE123456789`, the address lacks
        // its country, 3.33 is not 3.3333.
        assert_eq!(t(&tolerant, "number"), (1, 1, 1));
        assert_eq!(t(&exact, "number"), (1, 1, 0));
        assert_eq!(t(&tolerant, "seller_tax_id"), (1, 1, 1));
        assert_eq!(t(&exact, "seller_tax_id"), (1, 1, 0));
        assert_eq!(t(&exact, "seller_address"), (1, 1, 0));
        assert_eq!(t(&exact, "date"), (1, 1, 1));
        assert_eq!(t(&exact, "iban"), (1, 1, 1));
        assert_eq!(t(&exact, "line_items"), (3, 4, 2));
        assert_eq!(t(&tolerant, "line_items.unit_price"), (2, 2, 2));
        assert_eq!(t(&exact, "line_items.unit_price"), (2, 2, 1));
        assert_eq!(t(&exact, "line_items.quantity"), (2, 2, 2));
        // Scored where the truth unit is a code: KGM right, MTR for MTK wrong.
        assert_eq!(t(&exact, "line_items.unit_code"), (2, 2, 1));
        // Rows without a net amount match each other in exact comparison only.
        let pred = json!({"line_items": [
            {"description": "Gruppe", "line_total": null},
            {"description": "Apfel", "line_total": "1.00"}]});
        let truth = json!({"line_items": [
            {"description": "Apfel", "line_total": "1.00"},
            {"description": "Gruppe", "line_total": null}]});
        let exact = score_keys_with(&pred, &truth, Strictness::Exact);
        assert_eq!(t(&exact, "line_items"), (2, 2, 2));
        assert_eq!(t(&exact, "line_items.description"), (2, 2, 2));
        assert_eq!(t(&score_keys(&pred, &truth), "line_items"), (2, 2, 1));
        // Amounts equal as decimals, not to the cent.
        assert!(Rule::Amount.matches_with("9.00", "9", Strictness::Exact));
        assert!(!Rule::Amount.matches_with("197.65", "197.651", Strictness::Exact));
        assert!(Rule::Amount.matches("197.65", "197.651"));
    }

    #[test]
    fn unlabelled_predictions_do_not_count() {
        // SROIE-like truth: only four keys labelled.
        let truth = json!({"seller_name": "LIEFERANT GMBH", "date": "2018-06-05",
                           "seller_address": "x", "total": "1.00"});
        let s = score_document(&result_json(), &truth);
        let num = s.get("number").map(|o| o.tally).unwrap_or_default();
        assert_eq!(
            (num.labelled, num.predicted, num.correct, num.unlabelled),
            (0, 0, 0, 1)
        );
        let li = s.get("line_items").map(|o| o.tally).unwrap_or_default();
        assert_eq!((li.labelled, li.predicted, li.unlabelled), (0, 0, 4));
        let total = s.get("total").map(|o| o.tally).unwrap_or_default();
        assert_eq!((total.labelled, total.predicted, total.correct), (1, 1, 0));
        // A labelled field the engine left null: a miss, not a wrong prediction.
        let s = score_document(&json!({"document": {"number": null}}), &truth_json());
        let num = s.get("number").map(|o| o.tally).unwrap_or_default();
        assert_eq!((num.labelled, num.predicted, num.correct), (1, 0, 0));
        assert!(num.has_miss());
    }

    #[test]
    fn line_items_match_one_to_one() {
        let truth = json!({"line_items": [
            {"description": "Apfel", "line_total": "1.00"},
            {"description": "Birne", "line_total": "1.00"}]});
        let pred = json!({"line_items": [
            {"description": "Birne", "line_total": "1.00"},
            {"description": "Apfel", "line_total": "1.0"},
            {"description": "Apfel", "line_total": "1.00"}]});
        let s = score_keys(&pred, &truth);
        let li = s.get("line_items").map(|o| o.tally).unwrap_or_default();
        assert_eq!((li.labelled, li.predicted, li.correct), (2, 3, 2));
        // Pairs chosen by description among equal amounts: both descriptions right.
        let d = s
            .get("line_items.description")
            .map(|o| o.tally)
            .unwrap_or_default();
        assert_eq!((d.labelled, d.predicted, d.correct), (2, 2, 2));
        // Labelled as having no rows: every predicted row is wrong.
        let s = score_keys(&pred, &json!({"line_items": []}));
        let li = s.get("line_items").map(|o| o.tally).unwrap_or_default();
        assert_eq!((li.labelled, li.predicted, li.correct), (0, 3, 0));
    }

    #[test]
    fn tallies_merge_and_ratios() {
        let mut a = FieldTally::default();
        assert_eq!((a.precision(), a.recall(), a.f1()), (None, None, None));
        a.add(1, 1, 1);
        a.add(1, 1, 0);
        a.add(1, 0, 0);
        assert_eq!(a.precision(), Some(0.5));
        assert_eq!(a.recall(), Some(1.0 / 3.0));
        let f1 = a.f1().unwrap_or(0.0);
        assert!((f1 - 0.4).abs() < 1e-12, "{f1}"); // 2 * 0.5 * 1/3 / (0.5 + 1/3)
        let mut b = FieldTally::default();
        b.add(2, 2, 2);
        b.merge(&a);
        assert_eq!((b.labelled, b.predicted, b.correct), (5, 4, 3));
        let mut board = Scoreboard::default();
        board.add(&score_document(&result_json(), &truth_json()));
        board.add(&score_document(&result_json(), &truth_json()));
        assert_eq!(board.documents, 2);
        assert_eq!(board.tally("vat").labelled, 2);
        assert_eq!(board.tally("line_items").correct, 4);
        // 10 scalar fields (8 right) + line items (3 labelled, 4 predicted, 2 right), twice.
        let o = board.overall();
        assert_eq!((o.labelled, o.predicted, o.correct), (26, 28, 20));
    }
}
