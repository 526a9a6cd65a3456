//! The numeric form of [`CandidateFeatures`] that the learned scorer reads. One function builds
//! it, for training-data export (`target/release/export_features`) and for inference
//! ([`crate::fields::model::ModelScorer`]) alike, so the two cannot drift apart.

use super::features::{CandidateFeatures, Field, FieldScorer, RuleScorer};
use crate::candidates::CandidateKind;
use crate::candidates::labels::LabelKey;

/// Fields the model scores (those the labelled data has); the others stay with the rules.
pub const MODEL_FIELDS: [Field; 8] = [
    Field::Number,
    Field::Date,
    Field::DueDate,
    Field::Total,
    Field::Vat,
    Field::Net,
    Field::Payable,
    Field::Prepaid,
];

/// Label keys encoded one by one (any other key counts as "other").
const LABELS: [LabelKey; 18] = [
    LabelKey::Total,
    LabelKey::Net,
    LabelKey::Vat,
    LabelKey::Payable,
    LabelKey::Subtotal,
    LabelKey::Discount,
    LabelKey::Prepaid,
    LabelKey::Rounding,
    LabelKey::Cash,
    LabelKey::Change,
    LabelKey::Date,
    LabelKey::DateWeak,
    LabelKey::DueDate,
    LabelKey::DeliveryDate,
    LabelKey::Number,
    LabelKey::NumberGeneric,
    LabelKey::CustomerNumber,
    LabelKey::Title,
];

const KINDS: [CandidateKind; 3] = [
    CandidateKind::Date,
    CandidateKind::Amount,
    CandidateKind::DocNumber,
];

fn label_slug(k: Option<LabelKey>) -> String {
    match k {
        Some(k) => serde_json::to_value(k)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| format!("{k:?}").to_lowercase()),
        None => "none".into(),
    }
}

fn field_slug(f: Field) -> String {
    serde_json::to_value(f)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{f:?}").to_lowercase())
}

/// Names of the vector's columns, in order (the model card lists them).
pub fn feature_names() -> Vec<String> {
    let mut n: Vec<String> = Vec::new();
    for f in MODEL_FIELDS {
        n.push(format!("field_{}", field_slug(f)));
    }
    n.push("rule_score".into());
    for k in KINDS {
        n.push(format!("kind_{k:?}").to_lowercase());
    }
    for prefix in ["label", "intro", "line"] {
        for k in LABELS {
            n.push(format!("{prefix}_{}", label_slug(Some(k))));
        }
        n.push(format!("{prefix}_other"));
    }
    for s in [
        "label_none",
        "label_same_line",
        "label_above",
        "values_between",
        "label_distance",
        "title_on_line",
        "rel_x",
        "rel_y",
        "page_index",
        "last_page",
        "is_largest",
        "amount_rank",
        "bottom_most_total",
        "occurrences",
        "checksum",
        "ocr_confidence",
        "height_rel",
        "has_currency",
        "decimals",
        "percent",
        "in_table",
        "rightmost_on_line",
        "order",
        "ambiguous",
        "negative",
        "after_rounding",
        "doc_ocr_confidence",
    ] {
        n.push(s.into());
    }
    n
}

/// Number of columns.
pub fn feature_count() -> usize {
    MODEL_FIELDS.len() + 1 + KINDS.len() + 3 * (LABELS.len() + 1) + 27
}

fn b(v: bool) -> f32 {
    if v { 1.0 } else { 0.0 }
}

fn push_labels(out: &mut Vec<f32>, keys: &[LabelKey]) {
    let start = out.len();
    out.extend(std::iter::repeat_n(0.0, LABELS.len() + 1));
    for k in keys {
        let i = LABELS.iter().position(|l| l == k).unwrap_or(LABELS.len());
        out[start + i] = 1.0;
    }
}

/// The vector of one candidate for one field; `None` for fields the model does not score and
/// for candidates the field does not admit ([`Field::admits`]: a value of the wrong type is
/// neither a training row nor scored).
pub fn feature_vector(field: Field, f: &CandidateFeatures) -> Option<Vec<f32>> {
    let fi = MODEL_FIELDS.iter().position(|m| *m == field)?;
    if !field.admits(f) {
        return None;
    }
    let mut v = Vec::with_capacity(feature_count());
    for i in 0..MODEL_FIELDS.len() {
        v.push(b(i == fi));
    }
    v.push(RuleScorer.score(field, f).clamp(-5.0, 5.0));
    for k in KINDS {
        v.push(b(f.kind == k));
    }
    push_labels(&mut v, f.label.as_slice());
    push_labels(&mut v, f.intro_label.as_slice());
    push_labels(&mut v, &f.line_labels);
    v.extend([
        b(f.label.is_none()),
        b(f.label_same_line),
        b(f.label_above),
        f.values_between.min(20) as f32,
        f.label_distance,
        b(f.title_on_line),
        f.rel_x,
        f.rel_y,
        f.page_index.min(100) as f32,
        b(f.last_page),
        b(f.is_largest),
        f.amount_rank.min(50) as f32,
        b(f.bottom_most_total),
        f.occurrences.min(20) as f32,
        match f.checksum_valid {
            Some(true) => 1.0,
            Some(false) => -1.0,
            None => 0.0,
        },
        f.ocr_confidence,
        f.height_rel.min(10.0),
        b(f.has_currency),
        f.decimals.min(6) as f32,
        b(f.percent),
        b(f.in_table),
        b(f.rightmost_on_line),
        f.order.min(100) as f32,
        b(f.ambiguous),
        b(f.negative),
        b(f.after_rounding),
        f.doc_ocr_confidence,
    ]);
    debug_assert_eq!(v.len(), feature_count());
    Some(
        v.into_iter()
            .map(|x| if x.is_finite() { x } else { 0.0 })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_vectors_have_one_length() {
        assert_eq!(feature_names().len(), feature_count());
        let names = feature_names();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "names are unique");
    }

    #[test]
    fn only_admitted_candidates_have_a_vector() {
        let amount = super::super::features::plain_features(CandidateKind::Amount);
        assert_eq!(
            feature_vector(Field::Total, &amount).map(|v| v.len()),
            Some(feature_count())
        );
        assert!(feature_vector(Field::Date, &amount).is_none());
        assert!(feature_vector(Field::Number, &amount).is_none());
        assert!(
            feature_vector(Field::Discount, &amount).is_none(),
            "not a model field"
        );
    }
}
