//! The learned party scorer: which party candidate ([`crate::candidates::parties`]) names the
//! seller, and which the buyer. A gradient-boosted model trained by `models/train_parties.py`
//! on the vectors of [`party_vector`] (one row per role and candidate), exported to ONNX,
//! evaluated natively ([`super::trees`]) and calibrated by an isotonic map, so that a score is the
//! probability that the candidate's name is the party's.
//!
//! The features are layout-invariant: where the block sits on its page (relative position and
//! width, page index), its height in median lines, how large its name is printed against the
//! median line, legal-form words of many countries, the party label on or above it, the ids,
//! IBAN and contacts inside it and how many lines away the closest tax id is, address-like lines, the name's repetition elsewhere in the
//! document, label or title words inside the name, the name's word count and letter case, and
//! the rules' own choice. Training export (`export_features --parties`) and inference call the
//! same function, so they cannot drift apart.

use super::calibrated::CalibratedTrees;
use super::parties::{clean_party_name, party_score, rule_picks};
use crate::candidates::labels::{LabelHit, LabelKey};
use crate::candidates::parties::{
    LEGAL_FORMS, PartyCandidate, PartySource, has_legal_form, is_address_like, is_company_like,
    name_words,
};
use crate::candidates::receipt::clean_seller;
use crate::candidates::{CandidateKind, Candidates};
use crate::error::Result;
use crate::types::{CleanDocument, Line};
use std::sync::LazyLock;

/// The model committed in `models/` (built into the library).
pub const EMBEDDED_PARTY_MODEL: &[u8] = include_bytes!("../../../models/parties.onnx");
/// Its calibration: `{"x": [...], "y": [...], "fill": {"seller": p, "buyer": p}}`.
pub const EMBEDDED_PARTY_CALIBRATION: &str =
    include_str!("../../../models/parties.calibration.json");

/// The roles the model scores.
pub const PARTY_ROLES: [LabelKey; 2] = [LabelKey::Seller, LabelKey::Buyer];

/// The name a candidate gives the Result (registration numbers dropped, a receipt's OCR
/// confusions repaired): what training compares with the truth.
pub fn output_name(c: &PartyCandidate, cands: &Candidates) -> Option<String> {
    let (n, _) = c.name.as_ref()?;
    let mut name = clean_party_name(n);
    if cands.receipt.is_some() {
        let cleaned = clean_seller(&name);
        if !cleaned.is_empty() {
            name = cleaned;
        }
    }
    (!name.is_empty()).then_some(name)
}

/// Lower-case alphanumeric words joined by single spaces (for finding a name again).
fn plain(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where a candidate's name is printed again: the other lines whose plain text (`plain_lines`)
/// contains it (names of four characters or more), and whether its own line is a footer's
/// register line.
fn repeats_of(doc: &CleanDocument, plain_lines: &[String], c: &PartyCandidate) -> Repeats {
    let mut out = Repeats::default();
    let Some((name, span)) = &c.name else {
        return out;
    };
    let in_footer = |line: &Line| {
        doc.page(line.page)
            .is_some_and(|pg| line.bbox.y0 > pg.height * 0.8)
    };
    let p = plain(name);
    out.register_line = doc.lines.get(span.line).is_some_and(|line| {
        in_footer(line)
            && plain_lines
                .get(span.line)
                .is_some_and(|t| t.len() > p.len() + 8)
    });
    if p.len() < 4 {
        return out;
    }
    for (li, text) in plain_lines.iter().enumerate() {
        if span.line == li || !text.contains(&p) {
            continue;
        }
        out.lines += 1;
        let line = &doc.lines[li];
        out.other_page |= line.page != span.page;
        out.footer |= in_footer(line);
    }
    out
}

/// What the vectors of one document share.
pub struct PartyContext<'a> {
    doc: &'a CleanDocument,
    median_height: f32,
    /// The rules' seller and buyer (indices into `cands.parties`).
    rule_seller: Option<usize>,
    rule_buyer: Option<usize>,
    /// Each candidate's rank from the top (page, then y).
    order: Vec<usize>,
    /// Mean OCR confidence of the document's words (1 for text layers).
    ocr: f32,
    /// Where each candidate's name is printed again.
    repeats: Vec<Repeats>,
}

/// Where a candidate's name is printed again ([`PartyContext::repeats`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Repeats {
    /// Other lines that carry the name.
    pub lines: usize,
    /// One of them is on another page than the name.
    pub other_page: bool,
    /// One of them is in a page's bottom fifth (a footer's register line).
    pub footer: bool,
    /// The name's own line is a footer's register line: in a page's bottom fifth, with more
    /// printed after the name (`Alpha Fuels Limited · Unit 160, ... · VAT Reg. No. ...`).
    pub register_line: bool,
}

impl<'a> PartyContext<'a> {
    /// Where candidate `i` of `cands.parties` has its name printed again (computed once, in
    /// [`PartyContext::new`]).
    pub fn repeats(&self, i: usize) -> Repeats {
        self.repeats.get(i).copied().unwrap_or_default()
    }

    /// The context of a document and its candidates.
    pub fn new(doc: &'a CleanDocument, cands: &Candidates) -> Self {
        let mut heights: Vec<f32> = doc.lines.iter().map(|l| l.bbox.height()).collect();
        heights.sort_by(f32::total_cmp);
        let median_height = heights
            .get(heights.len() / 2)
            .copied()
            .unwrap_or(1.0)
            .max(1e-3);
        let (rule_seller, rule_buyer) = rule_picks(&cands.parties);
        let key = |c: &PartyCandidate| {
            c.name
                .as_ref()
                .map(|(_, s)| (s.page, s.bbox.y0))
                .or_else(|| c.region.first().map(|s| (s.page, s.bbox.y0)))
                .unwrap_or((u32::MAX, 0.0))
        };
        let mut idx: Vec<usize> = (0..cands.parties.len()).collect();
        idx.sort_by(|&a, &b| {
            let (ka, kb) = (key(&cands.parties[a]), key(&cands.parties[b]));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        });
        let mut order = vec![0; idx.len()];
        for (rank, i) in idx.into_iter().enumerate() {
            order[i] = rank;
        }
        let (mut sum, mut n) = (0.0f32, 0usize);
        for t in doc.lines.iter().flat_map(|l| &l.tokens) {
            sum += t.confidence;
            n += 1;
        }
        let plain_lines: Vec<String> = doc.lines.iter().map(|l| plain(&l.text)).collect();
        let repeats = cands
            .parties
            .iter()
            .map(|c| repeats_of(doc, &plain_lines, c))
            .collect();
        PartyContext {
            doc,
            median_height,
            repeats,
            rule_seller,
            rule_buyer,
            order,
            ocr: if n == 0 { 1.0 } else { sum / n as f32 },
        }
    }
}

/// Where heights and distances measured in median lines stop counting (a block's height, the
/// nearest tax id): farther than a page's worth of lines is as far as none.
const FAR_LINES: f32 = 60.0;

/// Label classes of the label on or above a block.
const LABEL_CLASSES: usize = 6;

fn label_class(key: LabelKey) -> usize {
    match key {
        LabelKey::Seller => 0,
        LabelKey::Buyer => 1,
        LabelKey::Consignee => 2,
        LabelKey::Title => 3,
        _ => 4,
    }
}

/// Names of the vector's columns (in `models/parties.metrics.json`).
pub fn feature_names() -> Vec<String> {
    let mut v: Vec<String> = PartySource::ALL
        .iter()
        .map(|s| format!("source_{s:?}").to_lowercase())
        .collect();
    for s in [
        "suggested_seller",
        "suggested_buyer",
        "suggested_consignee",
        "role_seller",
        "role_matches_suggestion",
        "page_index",
        "last_page",
        "pages",
        "rel_x0",
        "rel_y0",
        "rel_x1",
        "rel_y1",
        "rel_width",
        "height_lines",
        "name_height_ratio",
        "name_taller_share",
        "name_rel_cx",
        "legal_form",
        "company_like",
        "legal_form_last_word",
    ] {
        v.push(s.into());
    }
    for c in ["seller", "buyer", "consignee", "title", "other", "none"] {
        v.push(format!("label_above_{c}"));
    }
    for s in [
        "labelled_section",
        "name_party_label",
        "name_title_word",
        "name_label_words",
        "name_has_colon",
        "title_on_name_line",
        "tax_ids_inside",
        "tax_id_valid_inside",
        "tax_id_invalid_inside",
        "iban_inside",
        "phone_inside",
        "email_inside",
        "nearest_tax_id_lines",
        "address_lines",
        "address_like_region_lines",
        "region_lines",
        "name_repeats",
        "name_on_other_page",
        "name_in_a_footer",
        "name_words",
        "name_chars",
        "name_capitals_ratio",
        "name_digits_ratio",
        "name_lines",
        "name_address_like",
        "order_from_top",
        "candidates",
        "same_name_candidates",
        "rule_score",
        "rule_pick_this_role",
        "rule_pick_other_role",
        "receipt",
        "ocr_confidence",
    ] {
        v.push(s.into());
    }
    v
}

/// Width of the vector.
pub fn party_feature_count() -> usize {
    feature_names().len()
}

/// The vector of candidate `i` of `cands.parties` for `role` (seller or buyer).
pub fn party_vector(
    ctx: &PartyContext<'_>,
    cands: &Candidates,
    i: usize,
    role: LabelKey,
) -> Vec<f32> {
    let c = &cands.parties[i];
    let doc = ctx.doc;
    let b = |x: bool| if x { 1.0 } else { 0.0 };
    let mut v: Vec<f32> = PartySource::ALL.iter().map(|s| b(*s == c.source)).collect();
    v.push(b(c.role == LabelKey::Seller));
    v.push(b(c.role == LabelKey::Buyer));
    v.push(b(c.role == LabelKey::Consignee));
    v.push(b(role == LabelKey::Seller));
    v.push(b(role == c.role));

    // Where the block is.
    let name_span = c.name.as_ref().map(|(_, s)| s);
    let anchor = name_span.or(c.region.first());
    let page_no = anchor.map_or(1, |s| s.page);
    let page_pos = doc
        .pages
        .iter()
        .position(|p| p.page == page_no)
        .unwrap_or(0);
    let (pw, ph) = doc
        .pages
        .get(page_pos)
        .map_or((1.0, 1.0), |p| (p.width.max(1e-3), p.height.max(1e-3)));
    v.push(page_pos.min(3) as f32);
    v.push(b(page_pos + 1 == doc.pages.len()));
    v.push(doc.pages.len().min(4) as f32);
    // Heights and distances in median lines, not page fractions: a block or a gap of one line
    // reads the same on an A4 page, a receipt and pages printed as one long page.
    let in_lines = |d: f32| (d / ctx.median_height).min(FAR_LINES);
    let bbox = c.bbox().or(anchor.map(|s| s.bbox));
    match bbox {
        Some(bb) => {
            v.extend([bb.x0 / pw, bb.y0 / ph, bb.x1 / pw, bb.y1 / ph]);
            v.extend([bb.width() / pw, in_lines(bb.height())]);
        }
        None => v.extend([-1.0; 6]),
    }
    // How large the name is printed.
    let name_h = name_span.map_or(0.0, |s| {
        doc.lines
            .get(s.line)
            .map_or(s.bbox.height(), |l| l.bbox.height().min(s.bbox.height()))
    });
    v.push((name_h / ctx.median_height).min(5.0));
    let page_lines = doc.lines.iter().filter(|l| l.page == page_no);
    let (mut taller, mut count) = (0usize, 0usize);
    for l in page_lines {
        count += 1;
        if l.bbox.height() > name_h * 1.05 {
            taller += 1;
        }
    }
    v.push(if count == 0 {
        1.0
    } else {
        taller as f32 / count as f32
    });
    v.push(name_span.map_or(-1.0, |s| s.bbox.cx() / pw));

    // The name.
    let name = c.name.as_ref().map_or("", |(n, _)| n.as_str());
    let words = name_words(name);
    v.push(b(has_legal_form(name)));
    v.push(b(is_company_like(name)));
    v.push(b(words.last().is_some_and(|w| {
        LEGAL_FORMS.contains(&w.as_str()) || w == "oo"
    })));

    // The label on or above the block.
    let first_line = c
        .region
        .iter()
        .chain(name_span)
        .map(|s| s.line)
        .min()
        .unwrap_or(0);
    let mut above = None;
    if let Some(l) = c.label_line {
        // The label heading this block's column: the one inside the block's own segment on the
        // label's line (`Payer:   Performer:` labels two columns), else the line's first.
        let hits = cands.labels_of(l);
        let own = c.region.iter().find(|s| s.line == l).and_then(|s| {
            hits.iter()
                .find(|h| h.key.is_party() && h.start >= s.start && h.end <= s.end)
        });
        above = own
            .or_else(|| hits.iter().find(|h| h.key.is_party()))
            .map(|h| h.key);
    }
    // A title word that opens the key printed before the name on its line is a part of that
    // key, no title (`Arve väljastaja:  Trükikoda Baltic FIE`, `Invoice from: ...`).
    let in_key = |l: usize, h: &LabelHit| {
        name_span.is_some_and(|s| {
            s.line == l
                && h.key == LabelKey::Title
                && h.end <= s.start
                && doc
                    .lines
                    .get(l)
                    .and_then(|x| x.text.get(h.end..s.start))
                    .is_some_and(|t| t.contains(':'))
        })
    };
    if above.is_none() {
        for l in (first_line.saturating_sub(2)..=first_line).rev() {
            if doc.lines.get(l).is_none_or(|x| x.page != page_no) {
                continue;
            }
            let hits: Vec<_> = cands
                .labels_of(l)
                .iter()
                .filter(|h| !in_key(l, h))
                .collect();
            let titles = cands.line_titles.get(l).map_or(&[][..], Vec::as_slice);
            if let Some(h) = hits.iter().find(|h| h.key.is_party()) {
                above = Some(h.key);
                break;
            }
            if titles.iter().any(|h| !in_key(l, h)) {
                above = Some(LabelKey::Title);
                break;
            }
            if let Some(h) = hits.first() {
                above = Some(h.key);
                break;
            }
        }
    }
    let mut onehot = [0.0; LABEL_CLASSES];
    onehot[above.map_or(LABEL_CLASSES - 1, label_class)] = 1.0;
    v.extend(onehot);
    v.push(b(c.label_line.is_some()));
    let hits = cands
        .party_name_labels
        .get(i)
        .map_or(&[][..], Vec::as_slice);
    v.push(b(hits.iter().any(|h| h.key.is_party())));
    v.push(b(hits.iter().any(|h| h.key == LabelKey::Title)));
    v.push(hits.iter().map(|h| h.words).sum::<usize>().min(5) as f32);
    v.push(b(name.contains(':')));
    v.push(b(name_span.is_some_and(|s| {
        cands
            .line_titles
            .get(s.line)
            .is_some_and(|t| t.iter().any(|h| !in_key(s.line, h)))
    })));

    // Ids and contacts inside, and the nearest tax id.
    let inside: Vec<_> = cands.items.iter().filter(|x| c.contains(&x.span)).collect();
    let tax: Vec<_> = inside
        .iter()
        .filter(|x| x.kind == CandidateKind::TaxId)
        .collect();
    v.push(tax.len().min(3) as f32);
    v.push(b(tax.iter().any(|x| x.checksum_valid == Some(true))));
    v.push(b(tax.iter().any(|x| x.checksum_valid == Some(false))));
    v.push(b(inside.iter().any(|x| x.kind == CandidateKind::Iban)));
    v.push(b(inside.iter().any(|x| x.kind == CandidateKind::Phone)));
    v.push(b(inside.iter().any(|x| x.kind == CandidateKind::Email)));
    let nearest = bbox.map_or(FAR_LINES, |bb| {
        cands
            .of(CandidateKind::TaxId)
            .filter(|x| x.span.page == page_no)
            .map(|x| {
                let dy = (x.span.bbox.y0 - bb.y1)
                    .max(bb.y0 - x.span.bbox.y1)
                    .max(0.0);
                let dx = (x.span.bbox.x0 - bb.x1)
                    .max(bb.x0 - x.span.bbox.x1)
                    .max(0.0);
                in_lines(dy.max(dx))
            })
            .fold(FAR_LINES, f32::min)
    });
    v.push(nearest);
    v.push(c.address.len().min(5) as f32);
    v.push(
        c.region
            .iter()
            .filter(|s| is_address_like(&s.text))
            .count()
            .min(5) as f32,
    );
    v.push(c.region.len().min(12) as f32);

    // The name elsewhere in the document.
    let Repeats {
        lines: repeats,
        other_page,
        footer,
        ..
    } = ctx.repeats(i);
    v.push(repeats.min(5) as f32);
    v.push(b(other_page));
    v.push(b(footer));

    // The name's shape.
    let letters = name.chars().filter(|ch| ch.is_alphabetic()).count();
    let capitals = name.chars().filter(|ch| ch.is_uppercase()).count();
    let digits = name.chars().filter(char::is_ascii_digit).count();
    let chars = name.chars().filter(|ch| !ch.is_whitespace()).count().max(1);
    v.push(words.len().min(12) as f32);
    v.push(name.chars().count().min(80) as f32);
    v.push(capitals as f32 / letters.max(1) as f32);
    v.push(digits as f32 / chars as f32);
    v.push(name_span.map_or(0.0, |s| {
        let line_h = doc
            .lines
            .get(s.line)
            .map_or(1.0, |l| l.bbox.height().max(1e-3));
        (s.bbox.height() / line_h).round().clamp(1.0, 4.0)
    }));
    v.push(b(is_address_like(name)));

    // The document around it.
    let n = cands.parties.len().max(1);
    v.push(ctx.order.get(i).copied().unwrap_or(0) as f32 / n as f32);
    v.push(n.min(60) as f32);
    v.push(
        cands
            .parties
            .iter()
            .filter(|o| {
                o.name
                    .as_ref()
                    .is_some_and(|(x, _)| x.eq_ignore_ascii_case(name))
            })
            .count()
            .saturating_sub(1)
            .min(5) as f32,
    );
    v.push(party_score(c));
    let (this, other) = if role == LabelKey::Seller {
        (ctx.rule_seller, ctx.rule_buyer)
    } else {
        (ctx.rule_buyer, ctx.rule_seller)
    };
    v.push(b(this == Some(i)));
    v.push(b(other == Some(i)));
    v.push(b(cands.style.receipt));
    v.push(ctx.ocr);
    v
}

/// Columns of the party vector that depend on the role scored (the rest is the candidate's).
static ROLE_COLUMNS: std::sync::LazyLock<[usize; 4]> = std::sync::LazyLock::new(|| {
    let names = feature_names();
    let col = |n: &str| names.iter().position(|x| x == n).unwrap_or(0);
    [
        col("role_seller"),
        col("role_matches_suggestion"),
        col("rule_pick_this_role"),
        col("rule_pick_other_role"),
    ]
});

/// The seller and the buyer vector of candidate `i` ([`party_vector`] for each of
/// [`PARTY_ROLES`]), the candidate's features computed once and only the role columns set per
/// role.
pub fn party_vectors(ctx: &PartyContext<'_>, cands: &Candidates, i: usize) -> [Vec<f32>; 2] {
    let seller = party_vector(ctx, cands, i, LabelKey::Seller);
    let mut buyer = seller.clone();
    let b = |x: bool| if x { 1.0 } else { 0.0 };
    let [role_seller, matches, this, other] = *ROLE_COLUMNS;
    let suggested = cands.parties.get(i).map(|c| c.role);
    for (col, value) in [
        (role_seller, 0.0),
        (matches, b(suggested == Some(LabelKey::Buyer))),
        (this, b(ctx.rule_buyer == Some(i))),
        (other, b(ctx.rule_seller == Some(i))),
    ] {
        if let Some(x) = buyer.get_mut(col) {
            *x = value;
        }
    }
    [seller, buyer]
}

/// The learned party scorer.
#[derive(Debug)]
pub struct PartyModel(CalibratedTrees);

impl PartyModel {
    /// A model of the tree-ensemble family and its calibration; checks the input width.
    pub fn from_bytes(model: &[u8], calibration: &str) -> Result<Self> {
        CalibratedTrees::from_bytes(model, calibration, party_feature_count(), "party")
            .map(PartyModel)
    }

    /// The embedded model (loaded once; `None` only if the committed files do not match the
    /// code, which a unit test rules out).
    pub fn embedded() -> Option<&'static PartyModel> {
        static MODEL: LazyLock<Option<PartyModel>> = LazyLock::new(|| {
            PartyModel::from_bytes(EMBEDDED_PARTY_MODEL, EMBEDDED_PARTY_CALIBRATION).ok()
        });
        MODEL.as_ref()
    }

    /// The calibrated probability of a vector.
    pub fn score(&self, row: &[f32]) -> f32 {
        self.0.score(row)
    }

    /// The calibrated probability the best candidate of a role needs to be taken.
    pub fn fill_threshold(&self, role: LabelKey) -> f32 {
        self.0.fill(if role == LabelKey::Buyer {
            "buyer"
        } else {
            "seller"
        })
    }

    /// The input width the model was built for.
    pub fn features(&self) -> usize {
        self.0.features()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates;
    use crate::candidates::tests::{PARTIES_BUYER_LEFT, doc_rows as doc};

    #[test]
    fn legal_forms_of_many_countries() {
        for n in [
            "Lieferant GmbH",
            "Jansen B.V.",
            "Rossi S.r.l.",
            "Kowalski Sp. z o.o.",
            "ТОВ «Світанок»",
            "ООО Ромашка",
            "Virtanen Oy",
            "Nagy Kft.",
            "Novak s.r.o.",
            "AMANO SDN BHD",
            "Garcia S.L.",
        ] {
            assert!(has_legal_form(n), "{n}");
        }
        for n in [
            "Max Mustermann",
            "FACTUUR",
            "Guest Name: Jan",
            "Hauptstraße 5",
        ] {
            assert!(!has_legal_form(n), "{n}");
        }
    }

    #[test]
    fn one_vector_per_candidate_and_role_with_the_named_width() {
        let d = doc(&[
            ("Nordlicht Handels GmbH", 40.0, 30.0, 18.0),
            ("Hafenstraße 12", 40.0, 52.0, 10.0),
            ("20457 Hamburg", 40.0, 64.0, 10.0),
            ("Rechnung", 40.0, 140.0, 14.0),
            ("Kunde AG", 40.0, 170.0, 10.0),
            (
                "Nordlicht Handels GmbH · USt-IdNr. DE123456789",
                40.0,
                760.0,
                8.0,
            ),
        ]);
        let cands = candidates::extract(&d);
        let ctx = PartyContext::new(&d, &cands);
        let names = feature_names();
        assert!(!cands.parties.is_empty());
        let col = |n: &str| names.iter().position(|x| x == n).expect(n);
        for i in 0..cands.parties.len() {
            let both = party_vectors(&ctx, &cands, i);
            for (k, role) in PARTY_ROLES.into_iter().enumerate() {
                let v = party_vector(&ctx, &cands, i, role);
                assert_eq!(both[k], v, "candidate {i}, {role:?}");
                assert_eq!(v.len(), names.len());
                assert!(v.iter().all(|x| x.is_finite()));
                assert_eq!(v[col("role_seller")], f32::from(role == LabelKey::Seller));
            }
        }
        let head = letterhead(&cands, "Nordlicht Handels GmbH");
        let v = party_vector(&ctx, &cands, head, LabelKey::Seller);
        assert_eq!(v[col("legal_form")], 1.0);
        assert!(
            v[col("name_height_ratio")] > 1.4,
            "{}",
            v[col("name_height_ratio")]
        );
        assert_eq!(v[col("name_in_a_footer")], 1.0);
        assert!(v[col("rel_y0")] < 0.1);
    }

    /// The candidate naming `name` near the top of the page (a letterhead, not a footer line).
    fn letterhead(cands: &Candidates, name: &str) -> usize {
        cands
            .parties
            .iter()
            .position(|c| {
                c.name
                    .as_ref()
                    .is_some_and(|(n, s)| n == name && s.bbox.y0 < 100.0)
            })
            .expect("letterhead candidate")
    }

    /// The same page printed four times as tall (one long page, as a web shop's invoice saved
    /// as one page or pages joined by a scanner): every feature of the letterhead but its
    /// vertical position on the page reads the same. Heights and distances are counted in
    /// lines; as page fractions a one-line block on a tall page looked like nothing the model
    /// had seen but a receipt's one-line seller.
    #[test]
    fn a_taller_page_changes_only_the_vertical_position() {
        let rows = [
            ("Nordlicht Handels GmbH", 40.0, 30.0, 18.0),
            ("Hafenstraße 12", 40.0, 52.0, 10.0),
            ("20457 Hamburg", 40.0, 64.0, 10.0),
            ("USt-IdNr. DE123456789", 40.0, 76.0, 10.0),
            ("Rechnung", 40.0, 140.0, 14.0),
            ("Kunde AG", 40.0, 170.0, 10.0),
            ("Gartenweg 3", 40.0, 182.0, 10.0),
            ("10115 Berlin", 40.0, 194.0, 10.0),
        ];
        let names = feature_names();
        let col = |n: &str| names.iter().position(|x| x == n).expect(n);
        let vector = |scale: f32| {
            let mut d = doc(&rows);
            d.pages[0].height *= scale;
            let cands = candidates::extract(&d);
            let ctx = PartyContext::new(&d, &cands);
            let head = letterhead(&cands, "Nordlicht Handels GmbH");
            party_vector(&ctx, &cands, head, LabelKey::Seller)
        };
        let (a4, tall) = (vector(1.0), vector(4.0));
        // The other candidates are found in bands of the page (the address window's), so how
        // many there are and this one's rank among them may differ.
        let of_the_set = ["candidates", "order_from_top", "same_name_candidates"];
        for (k, name) in names.iter().enumerate() {
            if of_the_set.contains(&name.as_str()) {
                continue;
            }
            if name == "rel_y0" || name == "rel_y1" {
                assert!((tall[k] - a4[k] / 4.0).abs() < 1e-4, "{name}");
            } else {
                assert_eq!(a4[k], tall[k], "{name}");
            }
        }
        // The block: the name and three lines under it; the tax id inside it.
        assert!((2.5..6.0).contains(&a4[col("height_lines")]), "{a4:?}");
        assert_eq!(a4[col("nearest_tax_id_lines")], 0.0);
    }

    /// Two party labels on one line head two columns: each block takes the class of the label
    /// over its own column (the seller's block right of the buyer's is under a seller label).
    #[test]
    fn a_block_takes_the_label_over_its_own_column() {
        let d = doc(PARTIES_BUYER_LEFT);
        let cands = candidates::extract(&d);
        let ctx = PartyContext::new(&d, &cands);
        let names = feature_names();
        let col = |n: &str| names.iter().position(|x| x == n).expect(n);
        let of = |name: &str| {
            cands
                .parties
                .iter()
                .position(|c| {
                    c.source == PartySource::Labelled
                        && c.name.as_ref().is_some_and(|(n, _)| n == name)
                })
                .unwrap_or_else(|| panic!("{name}: {:?}", cands.parties))
        };
        let right = party_vector(
            &ctx,
            &cands,
            of("AS \"Tipogrāfija Nord\""),
            LabelKey::Seller,
        );
        assert_eq!(right[col("label_above_seller")], 1.0);
        assert_eq!(right[col("label_above_buyer")], 0.0);
        let left = party_vector(
            &ctx,
            &cands,
            of("SIA \"IT risinājumi Krūmiņš\""),
            LabelKey::Seller,
        );
        assert_eq!(left[col("label_above_buyer")], 1.0);
    }

    /// A title word opening the key printed before a name on its line (`Arve väljastaja:`,
    /// `Invoice from:`) is a part of the key: no title on the name's line, nor above it. A title
    /// printed beside a name (`FACTUUR`) stays one.
    #[test]
    fn a_title_word_inside_the_key_before_a_name_is_no_title() {
        let d = doc(&[
            ("Krediitarve", 40.0, 20.0, 12.0),
            ("Arve väljastaja:", 40.0, 60.0, 10.0),
            ("Trükikoda Baltic FIE", 140.0, 60.0, 10.0),
            (
                "Pärnu mnt 81, 10111 Tallinn, KMKR nr EE104783096",
                140.0,
                72.0,
                10.0,
            ),
            ("Jansen Bouw B.V.", 40.0, 200.0, 10.0),
            ("FACTUUR", 300.0, 200.0, 10.0),
            ("Dorpsstraat 5, 1234 AB Utrecht", 40.0, 212.0, 10.0),
        ]);
        let cands = candidates::extract(&d);
        let ctx = PartyContext::new(&d, &cands);
        let names = feature_names();
        let col = |n: &str| names.iter().position(|x| x == n).expect(n);
        let of = |name: &str| {
            cands
                .parties
                .iter()
                .position(|c| c.name.as_ref().is_some_and(|(n, _)| n == name))
                .unwrap_or_else(|| panic!("{name}: {:?}", cands.parties))
        };
        let keyed = party_vector(&ctx, &cands, of("Trükikoda Baltic FIE"), LabelKey::Seller);
        assert_eq!(keyed[col("title_on_name_line")], 0.0);
        assert_eq!(keyed[col("label_above_title")], 0.0);
        let beside = party_vector(&ctx, &cands, of("Jansen Bouw B.V."), LabelKey::Seller);
        assert_eq!(beside[col("title_on_name_line")], 1.0);
    }

    #[test]
    fn the_embedded_model_loads_with_the_vector_width() {
        let m = PartyModel::embedded().expect("embedded party model");
        let p = m.score(&vec![0.0; party_feature_count()]);
        assert!((0.0..=1.01).contains(&p));
    }
}
