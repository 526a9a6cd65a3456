//! Signatories and extra fields (contract, order number, period, payment terms).

use super::{Ctx, clean_name};
use crate::candidates::labels::LabelKey;
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::result::{PartyRole, Signatory};
use crate::types::Span;

pub(super) fn signatories_and_extras(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    // Contract and order numbers: the candidates stage's reference after the label.
    let reference = |line: usize, key: LabelKey| {
        cands
            .of(CandidateKind::Reference)
            .find(|c| c.span.line == line && c.label == Some(key))
    };
    for l in &doc.lines {
        for h in cands.labels_of(l.index) {
            match h.key {
                LabelKey::Director | LabelKey::Accountant if ctx.result.signatories.len() < 4 => {
                    let position = l.text[h.start..h.end].to_string();
                    let rest = l.text[h.end..].trim_start_matches([':', ' ', '_', '.']);
                    let rest = rest.split("  ").next().unwrap_or("");
                    let name_ok = |s: &str| {
                        let words: Vec<&str> = s.split_whitespace().collect();
                        (1..=4).contains(&words.len())
                            && words
                                .iter()
                                .all(|w| w.chars().all(|c| c.is_alphabetic() || ".-'".contains(c)))
                            && words
                                .iter()
                                .any(|w| w.chars().next().is_some_and(char::is_uppercase))
                    };
                    if name_ok(rest) {
                        let idx = ctx.result.signatories.len();
                        let start = l.text.len()
                            - l.text[h.end..]
                                .trim_start_matches([':', ' ', '_', '.'])
                                .len();
                        ctx.put(
                            &format!("/signatories/{idx}/name"),
                            0.5,
                            &Span::from_line(l, start, start + rest.len()),
                        );
                        ctx.result.signatories.push(Signatory {
                            name: Some(rest.trim().to_string()),
                            position: Some(position),
                            party: Some(PartyRole::Seller),
                        });
                    }
                }
                LabelKey::Contract if ctx.result.extra_fields.contract.number.is_none() => {
                    if let Some(c) = reference(l.index, LabelKey::Contract) {
                        ctx.result.extra_fields.contract.number = Some(c.value.clone());
                        ctx.put("/extra_fields/contract/number", 0.6, &c.span);
                    }
                    if let Some(d) = cands
                        .of(CandidateKind::Date)
                        .find(|d| d.span.line == l.index && d.span.start > h.end)
                    {
                        ctx.result.extra_fields.contract.date = Some(d.value.clone());
                        ctx.put("/extra_fields/contract/date", 0.6, &d.span);
                    }
                }
                LabelKey::Order if ctx.result.extra_fields.order_number.is_none() => {
                    if let Some(c) = reference(l.index, LabelKey::Order) {
                        ctx.result.extra_fields.order_number = Some(c.value.clone());
                        ctx.put("/extra_fields/order_number", 0.6, &c.span);
                    }
                }
                LabelKey::Period | LabelKey::DeliveryDate
                    if ctx.result.extra_fields.period.from.is_none() =>
                {
                    let ds: Vec<&Candidate> = cands
                        .of(CandidateKind::Date)
                        .filter(|d| d.span.line == l.index && d.span.start > h.start)
                        .collect();
                    if let [a, b, ..] = ds.as_slice() {
                        ctx.result.extra_fields.period.from = Some(a.value.clone());
                        ctx.result.extra_fields.period.to = Some(b.value.clone());
                        ctx.put("/extra_fields/period/from", 0.6, &a.span);
                        ctx.put("/extra_fields/period/to", 0.6, &b.span);
                    }
                }
                LabelKey::PaymentTerms
                    if ctx.result.extra_fields.payment_terms.is_none() && h.word == 0 =>
                {
                    let t = clean_name(&l.text);
                    if t.len() > h.end - h.start + 3 {
                        ctx.result.extra_fields.payment_terms = Some(t);
                        ctx.put(
                            "/extra_fields/payment_terms",
                            0.5,
                            &Span::from_line(l, 0, l.text.len()),
                        );
                    }
                }
                _ => {}
            }
        }
    }
}
