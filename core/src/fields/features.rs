//! Per-candidate features and the [`FieldScorer`] seam (rules today, a learned model later).

use crate::candidates::amounts::MoneyPrint;
use crate::candidates::labels::{LabelHit, LabelKey};
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::types::{CleanDocument, Line};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A field chosen by scoring candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// Document number.
    Number,
    /// Issue date.
    Date,
    /// Due date.
    DueDate,
    /// Gross total.
    Total,
    /// Net total.
    Net,
    /// VAT total.
    Vat,
    /// Amount payable.
    Payable,
    /// Discount (document-level allowances).
    Discount,
    /// Document-level charges.
    Charges,
    /// Prepaid.
    Prepaid,
}

impl Field {
    /// Whether a candidate can be this field's value at all: a document number for the number,
    /// a date for the dates, a money amount (not a percentage) for the totals. Every scorer
    /// gives the others 0, so a field is never filled with a value of the wrong type.
    pub fn admits(self, f: &CandidateFeatures) -> bool {
        match self {
            Field::Number => f.kind == CandidateKind::DocNumber,
            Field::Date | Field::DueDate => f.kind == CandidateKind::Date,
            Field::Total
            | Field::Net
            | Field::Vat
            | Field::Payable
            | Field::Discount
            | Field::Charges
            | Field::Prepaid => f.kind == CandidateKind::Amount && !f.percent,
        }
    }
}

/// Everything the scorer may look at for one candidate. Built by [`candidate_features`] only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CandidateFeatures {
    /// Candidate kind.
    pub kind: CandidateKind,
    /// Nearest label to the left on the same line, else directly above in the same column.
    pub label: Option<LabelKey>,
    /// The label is on the same line.
    pub label_same_line: bool,
    /// The label is on a line above.
    pub label_above: bool,
    /// Other amounts between the label and the candidate.
    pub values_between: u32,
    /// Horizontal distance label → candidate, share of the page width.
    pub label_distance: f32,
    /// The label that introduced the value during extraction (numbers, ids).
    pub intro_label: Option<LabelKey>,
    /// A title word (Invoice, Rechnung ...) is on the same line.
    pub title_on_line: bool,
    /// All label keys on the line.
    pub line_labels: Vec<LabelKey>,
    /// Relative x of the box centre (0..1).
    pub rel_x: f32,
    /// Relative y of the box centre (0..1).
    pub rel_y: f32,
    /// 0-based page position in the document.
    pub page_index: u32,
    /// Candidate is on the last page.
    pub last_page: bool,
    /// Largest amount of the document (amounts only).
    pub is_largest: bool,
    /// Rank by value among the document's amounts (0 = largest).
    pub amount_rank: u32,
    /// The last amount on a line labelled total/payable, bottom-most of those.
    pub bottom_most_total: bool,
    /// How often the same value occurs among candidates of the same kind.
    pub occurrences: u32,
    /// Checksum result.
    pub checksum_valid: Option<bool>,
    /// OCR confidence (1.0 for text layers).
    pub ocr_confidence: f32,
    /// Box height relative to the document's median line height.
    pub height_rel: f32,
    /// Printed with a currency.
    pub has_currency: bool,
    /// Decimal digits (2 for the money integers of a document printed in whole units).
    pub decimals: u32,
    /// Followed by `%`.
    pub percent: bool,
    /// Inside a line-item table body.
    pub in_table: bool,
    /// The right-most value of its line.
    pub rightmost_on_line: bool,
    /// Order among candidates of the same kind, top to bottom (0 = first).
    pub order: u32,
    /// A date that could be read with day and month swapped.
    pub ambiguous: bool,
    /// An amount of the sign against the document's: printed negative, or, in a document whose
    /// money amounts are mostly negative (a credit note's, [`FeatureContext::negated`]),
    /// printed positive.
    pub negative: bool,
    /// The amount sits right below a rounding line (the rounded, final total on receipts).
    pub after_rounding: bool,
    /// Mean OCR confidence of the document's tokens (1.0 for text layers): how well the page
    /// as a whole was read, next to [`Self::ocr_confidence`] of the candidate itself.
    pub doc_ocr_confidence: f32,
}

/// Scores how likely a candidate is to be the value of a field (0..1).
pub trait FieldScorer: Send + Sync {
    /// Name for diagnostics.
    fn name(&self) -> &str;
    /// Score of `features` for `field`, 0..1.
    fn score(&self, field: Field, features: &CandidateFeatures) -> f32;
    /// Scores of several candidates for one field (one model run for all of them).
    fn score_batch(&self, field: Field, features: &[&CandidateFeatures]) -> Vec<f32> {
        features.iter().map(|f| self.score(field, f)).collect()
    }
    /// The score a field's best candidate needs for the field to be filled.
    fn fill_threshold(&self, _field: Field) -> f32 {
        MIN_SCORE
    }
    /// Whether seller and buyer, the currency and the document type are chosen by the learned
    /// party and choice models ([`super::party_model`], [`super::choice_model`]) rather than by
    /// the rules.
    fn learned_models(&self) -> bool {
        false
    }
}

/// The score a field's best candidate needs by default for the field to be filled (the rules'
/// scores, and a model's fields without a threshold of their own).
pub const MIN_SCORE: f32 = 0.3;

/// Hand-tuned scoring rules.
#[derive(Debug, Default, Clone)]
pub struct RuleScorer;

fn amount_common(f: &CandidateFeatures) -> f32 {
    let mut s = 0.0;
    if f.decimals == 2 {
        s += 0.05;
    } else if f.decimals == 0 {
        s -= 0.3;
    }
    if f.has_currency {
        s += 0.03;
    }
    if f.in_table {
        s -= 0.3;
    }
    if f.label_above {
        s -= 0.1;
    }
    s -= 0.12 * f.values_between.min(3) as f32;
    if f.rightmost_on_line {
        s += 0.05;
    }
    s - (1.0 - f.ocr_confidence) * 0.2
}

impl FieldScorer for RuleScorer {
    fn name(&self) -> &str {
        "rules"
    }

    fn score(&self, field: Field, f: &CandidateFeatures) -> f32 {
        use LabelKey as K;
        if !field.admits(f) {
            return 0.0;
        }
        let s: f32 = match field {
            Field::Number => {
                let base = match f.intro_label {
                    Some(K::Number) => 0.9,
                    Some(K::NumberGeneric) if f.title_on_line => 0.8,
                    Some(K::NumberGeneric) => 0.45,
                    Some(K::Title) => 0.6,
                    _ => 0.2,
                };
                base + 0.05 * (1.0 - f.rel_y) - 0.05 * f.page_index.min(2) as f32
            }
            Field::Date | Field::DueDate => {
                let due = field == Field::DueDate;
                let base = match f.label {
                    Some(K::Date) if !due => 0.9,
                    Some(K::DateWeak) if !due => {
                        if f.title_on_line {
                            0.85
                        } else {
                            0.6
                        }
                    }
                    Some(K::DueDate) => {
                        if due {
                            0.9
                        } else {
                            0.05
                        }
                    }
                    Some(
                        K::DeliveryDate
                        | K::Contract
                        | K::Period
                        | K::Order
                        | K::CustomerNumber
                        | K::Version,
                    ) => 0.05,
                    _ if due => 0.0,
                    _ => 0.45 - 0.05 * f.order.min(5) as f32,
                };
                let mut s = base;
                if f.label_above {
                    s -= 0.05;
                }
                if f.in_table {
                    s -= 0.2;
                }
                if !due {
                    s += 0.05 * (1.0 - f.rel_y) - 0.05 * f.page_index.min(2) as f32;
                }
                s
            }
            Field::Total
            | Field::Net
            | Field::Vat
            | Field::Payable
            | Field::Discount
            | Field::Charges
            | Field::Prepaid => {
                let want: &[LabelKey] = match field {
                    Field::Total => &[K::Total],
                    Field::Net => &[K::Net],
                    Field::Vat => &[K::Vat],
                    Field::Payable => &[K::Payable],
                    Field::Discount => &[K::Discount],
                    Field::Charges => &[K::Charges],
                    _ => &[K::Prepaid],
                };
                let base = match f.label {
                    Some(k) if want.contains(&k) => 0.8,
                    Some(K::Payable) if field == Field::Total => 0.55,
                    Some(K::Subtotal) if field == Field::Net => 0.5,
                    Some(K::Total) if field == Field::Payable => 0.3,
                    Some(_) => 0.02,
                    None if field == Field::Total => 0.1 + if f.is_largest { 0.15 } else { 0.0 },
                    None => 0.0,
                };
                let mut s = base + amount_common(f);
                if field == Field::Total || field == Field::Payable {
                    if f.is_largest {
                        s += 0.1;
                    }
                    if f.bottom_most_total {
                        s += 0.05;
                    }
                    if f.negative {
                        s -= 0.2;
                    }
                    if f.after_rounding {
                        s += 0.12;
                    }
                }
                if field == Field::Vat
                    && f.line_labels.contains(&K::Total)
                    && f.label != Some(K::Vat)
                {
                    s -= 0.2;
                }
                s
            }
        };
        s.clamp(0.0, 1.0)
    }
}

/// Shared, per-document context for feature building.
pub struct FeatureContext<'a> {
    /// The document.
    pub doc: &'a CleanDocument,
    /// Label hits per line (the candidates stage's).
    pub line_labels: &'a [Vec<LabelHit>],
    /// Median line height.
    pub median_height: f32,
    /// Lines that are table bodies.
    pub table_lines: Vec<bool>,
    /// The document's money amounts, largest first, in the document's own sign: negated where
    /// most of them are printed negative (a credit note's), so that its total ranks first.
    pub amounts_sorted: Vec<rust_decimal::Decimal>,
    /// Whether most money amounts are printed negative ([`FeatureContext::amounts_sorted`]).
    pub negated: bool,
    /// Line index of the bottom-most total/payable-labelled amount.
    pub bottom_total: Option<(usize, usize)>,
    /// Mean OCR confidence of all tokens (1.0 for text layers).
    pub doc_ocr_confidence: f32,
    /// Per-candidate lookups built once, so that features are near-linear in the candidates.
    index: CandidateIndex,
    /// Lines holding a title label (looked up once per line, not once per candidate).
    title_lines: Vec<bool>,
}

/// Lookups over the candidates a context was built with (what each candidate's features would
/// otherwise find by scanning all of them).
struct CandidateIndex {
    /// How many candidates it was built over (the list every feature is asked about).
    items: usize,
    /// Candidate indices per line, in list order.
    by_line: Vec<Vec<usize>>,
    /// How often each (kind, value) occurs.
    occurrences: HashMap<(CandidateKind, String), u32>,
    /// Sorted (line, start) of the candidates of each kind.
    positions: HashMap<CandidateKind, Vec<(usize, usize)>>,
}

impl CandidateIndex {
    fn new(lines: usize, cands: &Candidates) -> Self {
        let mut by_line: Vec<Vec<usize>> = vec![Vec::new(); lines];
        let mut occurrences: HashMap<(CandidateKind, String), u32> = HashMap::new();
        let mut positions: HashMap<CandidateKind, Vec<(usize, usize)>> = HashMap::new();
        for (i, c) in cands.items.iter().enumerate() {
            if let Some(l) = by_line.get_mut(c.span.line) {
                l.push(i);
            }
            *occurrences.entry((c.kind, c.value.clone())).or_default() += 1;
            positions
                .entry(c.kind)
                .or_default()
                .push((c.span.line, c.span.start));
        }
        for p in positions.values_mut() {
            p.sort_unstable();
        }
        CandidateIndex {
            items: cands.items.len(),
            by_line,
            occurrences,
            positions,
        }
    }
}

impl<'a> FeatureContext<'a> {
    /// Builds the context of a document.
    pub fn new(doc: &'a CleanDocument, cands: &'a Candidates) -> Self {
        let line_labels: &[Vec<LabelHit>] = &cands.line_labels;
        let mut hs: Vec<f32> = doc.lines.iter().map(|l| l.bbox.height()).collect();
        hs.sort_by(f32::total_cmp);
        let median_height = hs.get(hs.len() / 2).copied().unwrap_or(1.0).max(1e-3);
        let table_lines = cands.table_lines(doc.lines.len());
        let mut amounts_sorted: Vec<rust_decimal::Decimal> = cands
            .of(CandidateKind::Amount)
            .filter(|c| {
                c.decimals > 0 && c.scheme.as_deref() != Some("percent") || cands.is_money(c)
            })
            .filter_map(|c| c.value.parse::<rust_decimal::Decimal>().ok())
            .collect();
        // A credit note prints its amounts negative: ranked by their size (a till slip's cash
        // tendered printed `-50.00` among positive amounts is no largest amount).
        let negatives = amounts_sorted
            .iter()
            .filter(|v| v.is_sign_negative())
            .count();
        let negated = 2 * negatives > amounts_sorted.len();
        if negated {
            amounts_sorted.iter_mut().for_each(|v| *v = -*v);
        }
        amounts_sorted.sort();
        amounts_sorted.reverse();
        let mut bottom_total = None;
        for c in cands.of(CandidateKind::Amount) {
            let on_total = line_labels.get(c.span.line).is_some_and(|h| {
                h.iter()
                    .any(|h| matches!(h.key, LabelKey::Total | LabelKey::Payable) && c.follows(h))
            });
            if on_total && (c.decimals > 0 || cands.is_money(c)) {
                bottom_total = Some((c.span.line, c.span.start));
            }
        }
        let (sum, n) = doc
            .lines
            .iter()
            .flat_map(|l| &l.tokens)
            .fold((0.0f32, 0usize), |(s, n), t| (s + t.confidence, n + 1));
        let doc_ocr_confidence = if n == 0 { 1.0 } else { sum / n as f32 };
        FeatureContext {
            doc,
            line_labels,
            median_height,
            table_lines,
            amounts_sorted,
            negated,
            bottom_total,
            doc_ocr_confidence,
            index: CandidateIndex::new(doc.lines.len(), cands),
            title_lines: cands.line_titles.iter().map(|t| !t.is_empty()).collect(),
        }
    }
}

fn is_value_kind(c: &Candidate) -> bool {
    c.kind == CandidateKind::Amount && c.scheme.as_deref() != Some("percent")
}

/// Builds the features of one candidate of `cands`, the candidates `ctx` was built over.
pub fn candidate_features(
    ctx: &FeatureContext<'_>,
    cands: &Candidates,
    idx: usize,
) -> Option<CandidateFeatures> {
    let c = cands.items.get(idx)?;
    let doc = ctx.doc;
    let line: &Line = doc.lines.get(c.span.line)?;
    let page = doc.page(line.page)?;
    let page_index = doc
        .pages
        .iter()
        .position(|p| p.page == line.page)
        .unwrap_or(0) as u32;
    let hits = ctx
        .line_labels
        .get(c.span.line)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    // The context was built over these candidates (`FeatureContext::new(doc, cands)`).
    let index = &ctx.index;
    debug_assert_eq!(
        index.items,
        cands.items.len(),
        "context of other candidates"
    );
    let same_kind_on_line =
        |o: &&Candidate| is_value_kind(o) == is_value_kind(c) && o.kind == c.kind;
    let same_line_values: Vec<&Candidate> = index
        .by_line
        .get(c.span.line)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .filter_map(|&i| cands.items.get(i))
        .filter(same_kind_on_line)
        .collect();
    // Nearest label to the left, skipping column-header-only keys where a better one exists.
    let mut label = None;
    let mut label_same_line = false;
    let mut number_before_date = false;
    let mut label_above = false;
    let mut values_between = 0;
    let mut label_distance = 0.0;
    let relevant = |k: LabelKey| !k.is_column() && !matches!(k, LabelKey::Name | LabelKey::Address);
    if let Some(h) = hits
        .iter()
        .filter(|h| c.follows(h) && relevant(h.key))
        .max_by_key(|h| (h.end, label_priority(h.key, c.kind)))
    {
        // All keys of the same range: prefer the one relevant to the kind.
        let key = hits
            .iter()
            .filter(|o| o.start == h.start && relevant(o.key))
            .max_by_key(|o| label_priority(o.key, c.kind))
            .map_or(h.key, |o| o.key);
        label = Some(key);
        // A title word right after a totals label names the amount with it (`Total facture
        // TTC :2.948,85`, `Totale fattura`): the totals label's.
        if key == LabelKey::Title
            && c.kind == CandidateKind::Amount
            && let Some(t) = hits.iter().find(|o| {
                o.key.is_totals()
                    && o.end <= h.start
                    && line
                        .text
                        .get(o.end..h.start)
                        .is_some_and(|b| b.trim().is_empty())
            })
        {
            label = Some(t.key);
        }
        // "Bestellung vom 01.03.2018", "Zeitraum vom ...": the date belongs to the label right
        // before the weak marker; "Rechnung Nr. 181301674 vom ...": to the document number.
        if key == LabelKey::DateWeak
            && let Some(h0) = hits
                .iter()
                .filter(|o| o.end <= h.start && relevant(o.key) && o.key != LabelKey::DateWeak)
                .max_by_key(|o| o.end)
        {
            let between = line.text.get(h0.end..h.start).unwrap_or("");
            let adjacent = between
                .chars()
                .all(|ch| ch.is_whitespace() || matches!(ch, ':' | ',' | '.' | '-'));
            match h0.key {
                LabelKey::Number | LabelKey::NumberGeneric | LabelKey::Title
                    if between.chars().count() <= 30 =>
                {
                    number_before_date = true;
                }
                LabelKey::Order
                | LabelKey::Contract
                | LabelKey::Corrects
                | LabelKey::Period
                | LabelKey::DeliveryDate
                | LabelKey::DueDate
                | LabelKey::Version
                | LabelKey::CustomerNumber
                    if adjacent || h0.key == LabelKey::Version && between.chars().count() <= 12 =>
                {
                    label = Some(h0.key);
                }
                _ => {}
            }
        }
        label_same_line = true;
        values_between = same_line_values
            .iter()
            .filter(|o| {
                o.span.start >= h.end && o.span.end <= c.span.start && o.span.start != c.span.start
            })
            .count() as u32;
        if let Some((lb, _)) = line.range_bbox(h.start, h.end) {
            label_distance = ((c.span.bbox.x0 - lb.x1) / page.width.max(1.0)).max(0.0);
        }
    } else if let Some(key) = wrapped_label(doc, ctx, c, line, &relevant) {
        // Run-on text wrapped after a label (`... Kwota do zapłaty: PLN` / `154557,13`): the
        // amount that starts its line takes the label that ends the line above.
        label = Some(key);
        label_above = true;
    } else {
        // Directly above, same column, within two lines.
        for up in 1..=2usize {
            let Some(li) = c.span.line.checked_sub(up) else {
                break;
            };
            let Some(l2) = doc.lines.get(li) else { break };
            if l2.page != line.page {
                break;
            }
            let h2 = ctx.line_labels.get(li).map(Vec::as_slice).unwrap_or(&[]);
            let header_like = h2.iter().filter(|h| h.key.is_column()).count() >= 3;
            let found = h2.iter().filter(|h| relevant(h.key)).find(|h| {
                l2.range_bbox(h.start, h.end).is_some_and(|(bb, _)| {
                    bb.x1 >= c.span.bbox.x0 - ctx.median_height
                        && bb.x0 <= c.span.bbox.x1 + ctx.median_height
                })
            });
            if let Some(h) = found
                && !header_like
            {
                let key = h2
                    .iter()
                    .filter(|o| o.start == h.start && relevant(o.key))
                    .max_by_key(|o| label_priority(o.key, c.kind))
                    .map_or(h.key, |o| o.key);
                label = Some(key);
                label_above = true;
                break;
            }
        }
    }
    // Right below a rounding line, with no label of its own or a subtotal/total one.
    let after_rounding = c.kind == CandidateKind::Amount
        && matches!(label, None | Some(LabelKey::Total | LabelKey::Subtotal))
        && (1..=2usize).any(|up| {
            c.span.line.checked_sub(up).is_some_and(|li| {
                ctx.line_labels
                    .get(li)
                    .is_some_and(|h| h.iter().any(|h| h.key == LabelKey::Rounding))
                    && doc.lines.get(li).is_some_and(|l| l.page == line.page)
            })
        });
    if after_rounding && matches!(label, None | Some(LabelKey::Subtotal)) {
        label = Some(LabelKey::Total);
    }
    let value: Option<rust_decimal::Decimal> = if c.kind == CandidateKind::Amount {
        c.value.parse().ok()
    } else {
        None
    };
    // The first amount not above `v` (the list is sorted largest first, in the document's sign:
    // a credit note's total, printed negative, is its largest amount).
    let amount_rank = value
        .map(|v| if ctx.negated { -v } else { v })
        .map(|v| ctx.amounts_sorted.partition_point(|x| *x > v) as u32)
        .unwrap_or(u32::MAX);
    let is_largest = c.kind == CandidateKind::Amount
        && (c.decimals > 0 || cands.is_money(c))
        && amount_rank == 0;
    let occurrences = index
        .occurrences
        .get(&(c.kind, c.value.clone()))
        .copied()
        .unwrap_or(0);
    let key = (c.span.line, c.span.start);
    let order = index
        .positions
        .get(&c.kind)
        .map_or(0, |p| p.partition_point(|&k| k < key)) as u32;
    let rightmost_on_line = !same_line_values.iter().any(|o| o.span.start > c.span.start);
    Some(CandidateFeatures {
        kind: c.kind,
        label,
        label_same_line,
        label_above,
        values_between,
        label_distance,
        intro_label: c.label,
        title_on_line: number_before_date
            || ctx.title_lines.get(c.span.line).copied().unwrap_or(false),
        line_labels: hits.iter().map(|h| h.key).collect(),
        rel_x: c.span.bbox.cx() / page.width.max(1.0),
        rel_y: c.span.bbox.cy() / page.height.max(1.0),
        page_index,
        last_page: doc.pages.last().is_some_and(|p| p.page == line.page),
        is_largest,
        amount_rank,
        bottom_most_total: ctx.bottom_total == Some((c.span.line, c.span.start)),
        occurrences,
        checksum_valid: c.checksum_valid,
        ocr_confidence: c.span.confidence,
        height_rel: c.span.bbox.height() / ctx.median_height,
        has_currency: c.currency.is_some(),
        // An integer of a document printed in whole units (a one-decimal number of one printed
        // in shortest forms) is as precise as money gets there.
        decimals: if cands.style.money != MoneyPrint::Cents && cands.is_money(c) {
            2
        } else {
            c.decimals
        },
        percent: c.scheme.as_deref() == Some("percent"),
        in_table: ctx.table_lines.get(c.span.line).copied().unwrap_or(false),
        rightmost_on_line,
        order,
        ambiguous: c.ambiguous,
        negative: c.kind == CandidateKind::Amount && c.value.starts_with('-') != ctx.negated,
        after_rounding,
        doc_ocr_confidence: ctx.doc_ocr_confidence,
    })
}

/// The label that ends the line above an amount that starts its own line, nothing after the
/// label but a colon or a currency (`... Kwota do zapłaty: PLN` / `154557,13`): a run of text
/// wrapped between a label and its amount.
fn wrapped_label(
    doc: &CleanDocument,
    ctx: &FeatureContext<'_>,
    c: &Candidate,
    line: &Line,
    relevant: &dyn Fn(LabelKey) -> bool,
) -> Option<LabelKey> {
    if c.kind != CandidateKind::Amount || !line.text.get(..c.span.start)?.trim().is_empty() {
        return None;
    }
    let li = c.span.line.checked_sub(1)?;
    let above = doc.lines.get(li).filter(|l| l.page == line.page)?;
    let h = ctx
        .line_labels
        .get(li)?
        .iter()
        .filter(|h| relevant(h.key))
        .max_by_key(|h| h.end)?;
    let tail = above
        .text
        .get(h.end..)?
        .trim()
        .trim_start_matches(':')
        .trim();
    let bare = tail.is_empty()
        || crate::candidates::amounts::currency_of_word(tail).is_some()
            && !tail.chars().any(|ch| ch.is_ascii_digit());
    bare.then_some(h.key)
}

/// Which of several keys of one label range matters for a candidate kind.
fn label_priority(key: LabelKey, kind: CandidateKind) -> u8 {
    use LabelKey as K;
    match kind {
        CandidateKind::Amount if key.is_totals() => 3,
        CandidateKind::Date
            if matches!(key, K::Date | K::DueDate | K::DeliveryDate | K::DateWeak) =>
        {
            3
        }
        CandidateKind::DocNumber if matches!(key, K::Number | K::NumberGeneric) => 3,
        _ if key == K::Title => 0,
        _ => 1,
    }
}

/// A plain candidate of one kind for scorer tests: no label, mid-page on the only page, read
/// from a text layer.
#[cfg(test)]
pub(crate) fn plain_features(kind: CandidateKind) -> CandidateFeatures {
    CandidateFeatures {
        kind,
        label: None,
        label_same_line: false,
        label_above: false,
        values_between: 0,
        label_distance: 0.0,
        intro_label: None,
        title_on_line: false,
        line_labels: Vec::new(),
        rel_x: 0.5,
        rel_y: 0.5,
        page_index: 0,
        last_page: true,
        is_largest: false,
        amount_rank: 0,
        bottom_most_total: false,
        occurrences: 1,
        checksum_valid: None,
        ocr_confidence: 1.0,
        height_rel: 1.0,
        has_currency: false,
        decimals: 0,
        percent: false,
        in_table: false,
        rightmost_on_line: false,
        order: 0,
        ambiguous: false,
        negative: false,
        after_rounding: false,
        doc_ocr_confidence: 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_admit_only_values_of_their_type() {
        let amount = plain_features(CandidateKind::Amount);
        let date = plain_features(CandidateKind::Date);
        let number = plain_features(CandidateKind::DocNumber);
        let percent = CandidateFeatures {
            percent: true,
            ..amount.clone()
        };
        assert!(Field::Total.admits(&amount) && !Field::Total.admits(&percent));
        assert!(!Field::Total.admits(&date) && !Field::Vat.admits(&number));
        assert!(Field::Date.admits(&date) && Field::DueDate.admits(&date));
        assert!(!Field::Date.admits(&amount) && !Field::Date.admits(&number));
        assert!(Field::Number.admits(&number) && !Field::Number.admits(&amount));
        // The rules give a labelled percentage nothing as a total.
        let labelled = CandidateFeatures {
            label: Some(LabelKey::Total),
            label_same_line: true,
            ..percent
        };
        assert_eq!(RuleScorer.score(Field::Total, &labelled), 0.0);
    }

    /// The features of the amount candidates of `values` in a document of `lines`.
    fn amount_features(lines: &[(&str, f32, f32)], values: &[&str]) -> Vec<CandidateFeatures> {
        let doc = crate::candidates::tests::doc_from(lines);
        let cands = crate::candidates::extract(&doc);
        let ctx = FeatureContext::new(&doc, &cands);
        values
            .iter()
            .map(|value| {
                let i = cands
                    .items
                    .iter()
                    .position(|c| c.kind == CandidateKind::Amount && c.value == *value)
                    .expect("amount candidate");
                candidate_features(&ctx, &cands, i).expect("features")
            })
            .collect()
    }

    /// Run-on text wrapped between a label and its amount: the amount that starts its line takes
    /// the label that ends the line above; not under a label with more text after it.
    #[test]
    fn an_amount_wrapped_under_its_label_takes_it() {
        let f = amount_features(
            &[
                ("Faktura FS 267/2026", 10.0, 10.0),
                (
                    "Suma netto: PLN 125656,20 Razem VAT 23% PLN 28900,93 Kwota do zapłaty: PLN",
                    40.0,
                    200.0,
                ),
                ("154557,13", 40.0, 215.0),
                ("Kwota do zapłaty: przelew 14 dni", 40.0, 240.0),
                ("999,99", 400.0, 255.0),
            ],
            &["154557.13", "999.99"],
        );
        assert_eq!(
            (f[0].label, f[0].label_above),
            (Some(LabelKey::Payable), true)
        );
        assert_ne!(f[1].label, Some(LabelKey::Payable));
    }

    /// A credit note prints its amounts negative: its total is its largest amount in size.
    #[test]
    fn a_credit_notes_negative_total_is_its_largest_amount() {
        let f = amount_features(
            &[
                ("Gutschrift Nr. GS-17", 10.0, 10.0),
                ("Summe netto      -242,43 €", 300.0, 200.0),
                ("USt. 19 %      -46,07 €", 300.0, 215.0),
                ("Gutschriftsbetrag      -288,50 €", 300.0, 230.0),
            ],
            &["-288.50", "-242.43", "-46.07"],
        );
        // Negative is the document's own sign: the total is no amount against it.
        assert!(f[0].is_largest && !f[0].negative);
        let ranks: Vec<u32> = f.iter().map(|f| f.amount_rank).collect();
        assert_eq!(ranks, [0, 1, 2]);
        // Among positive amounts, one printed negative (the cash tendered) is no largest.
        let f = amount_features(
            &[
                ("DOCUMENT HOLDER A4      5.75", 10.0, 100.0),
                ("TOTAL      5.75", 300.0, 120.0),
                ("CASH      -50.00", 300.0, 135.0),
                ("CHANGE      44.25", 300.0, 150.0),
            ],
            &["44.25", "-50.00"],
        );
        assert!(f[0].is_largest && !f[1].is_largest);
    }
}
