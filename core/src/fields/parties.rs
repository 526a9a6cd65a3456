//! Parties: seller, buyer and consignee from the party blocks, with their ids and contacts.

use super::{Ctx, clean_name};
use crate::candidates::labels::LabelKey;
use crate::candidates::parties::{PartyCandidate, PartySource};
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::result::{DocumentResult, Party};

/// A party name without trailing registration numbers (`AEON CO. (M) BHD (126926-H)`).
fn clean_party_name(s: &str) -> String {
    let mut words: Vec<&str> = s.split_whitespace().collect();
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| w.chars().filter(char::is_ascii_digit).count() >= 4)
    {
        words.pop();
    }
    clean_name(&words.join(" "))
}

fn fill_party(
    ctx: &mut Ctx<'_>,
    role: &str,
    cand: &PartyCandidate,
    cands: &Candidates,
    conf: f32,
) -> Party {
    let mut p = Party::default();
    if let Some((name, span)) = &cand.name {
        let n = clean_party_name(name);
        if !n.is_empty() {
            p.name = Some(n);
            ctx.put(&format!("/parties/{role}/name"), conf, span);
        }
    }
    let addr: Vec<String> = cand
        .address
        .iter()
        .map(|(t, _)| clean_name(t))
        .filter(|t| !t.is_empty())
        .collect();
    if !addr.is_empty() {
        p.address = Some(addr.join(", "));
        if let Some((_, s)) = cand.address.first() {
            ctx.put(&format!("/parties/{role}/address"), conf * 0.9, s);
        }
    }
    for c in cands.items.iter().filter(|c| cand.contains(&c.span)) {
        assign_id(ctx, role, &mut p, c, conf);
    }
    p
}

fn assign_id(ctx: &mut Ctx<'_>, role: &str, p: &mut Party, c: &Candidate, conf: f32) {
    let conf = if c.checksum_valid == Some(false) {
        conf * 0.6
    } else {
        conf
    };
    match c.kind {
        CandidateKind::TaxId => {
            let (slot, key) = match c.scheme.as_deref() {
                Some("EU_VAT") => (&mut p.vat_id, "vat_id"),
                Some("RU_KPP" | "MY_REG" | "REGNO" | "FR_SIRET" | "SIRET") => {
                    (&mut p.registration_id, "registration_id")
                }
                _ => (&mut p.tax_id, "tax_id"),
            };
            if slot.is_none() {
                *slot = Some(c.value.clone());
                ctx.put(&format!("/parties/{role}/{key}"), conf, &c.span);
            }
        }
        CandidateKind::Phone if p.phone.is_none() => {
            p.phone = Some(c.value.clone());
            ctx.put(&format!("/parties/{role}/phone"), conf, &c.span);
        }
        CandidateKind::Email if p.email.is_none() => {
            p.email = Some(c.value.clone());
            ctx.put(&format!("/parties/{role}/email"), conf, &c.span);
        }
        _ => {}
    }
}

/// Rule confidence of a party candidate for the role its source suggests.
fn party_score(c: &PartyCandidate) -> f32 {
    let company = c.is_company();
    let base = match c.source {
        PartySource::Form => 0.9,
        PartySource::Labelled => 0.85,
        PartySource::Letterhead => 0.6,
        PartySource::SenderLine => 0.6,
        PartySource::AddressWindow => 0.55,
        PartySource::IdBlock => 0.45,
    };
    if company {
        (base + 0.1_f32).min(0.95)
    } else {
        base
    }
}

/// The best candidate of a role (labelled ones first, in document order, then by score), not
/// overlapping `exclude` and not naming the same party.
fn best_party<'a>(
    all: &'a [PartyCandidate],
    role: LabelKey,
    exclude: Option<&PartyCandidate>,
) -> Option<&'a PartyCandidate> {
    let same_name = |a: &PartyCandidate, b: &PartyCandidate| match (&a.name, &b.name) {
        (Some((x, _)), Some((y, _))) => x.eq_ignore_ascii_case(y),
        _ => false,
    };
    let mut best: Option<(f32, &PartyCandidate)> = None;
    for c in all.iter().filter(|c| c.role == role && c.name.is_some()) {
        if let Some(e) = exclude
            && (same_name(c, e) || c.region.iter().any(|s| e.contains(s)))
        {
            continue;
        }
        let s = party_score(c);
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, c));
        }
    }
    best.map(|(_, c)| c)
}

pub(super) fn party_fields(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    let all = &cands.parties;
    let seller_c = best_party(all, LabelKey::Seller, None);
    let buyer_c = best_party(all, LabelKey::Buyer, seller_c);
    let mut seller = Party::default();
    let mut buyer = Party::default();
    if let Some(c) = seller_c {
        seller = fill_party(ctx, "seller", c, cands, party_score(c));
    }
    if let Some(c) = buyer_c {
        buyer = fill_party(ctx, "buyer", c, cands, party_score(c));
    }
    // Ids and contacts outside every labelled section and the buyer's area belong to the seller
    // (footers, letterheads).
    let in_block = |c: &Candidate| {
        all.iter()
            .filter(|p| p.label_line.is_some())
            .any(|p| p.contains(&c.span))
            || buyer_c.is_some_and(|b| b.contains(&c.span))
            || seller_c.is_some_and(|b| b.contains(&c.span))
    };
    let mut rest: Vec<&Candidate> = cands
        .items
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                CandidateKind::TaxId | CandidateKind::Phone | CandidateKind::Email
            ) && !in_block(c)
        })
        .collect();
    // Valid checksums first, then labelled ones.
    rest.sort_by_key(|c| (c.checksum_valid != Some(true), c.label.is_none()));
    for c in rest {
        // A buyer-labelled id on its own line (`Kunden-USt-IdNr.`) is not the seller's.
        if cands.line_has(c.span.line, LabelKey::Buyer) {
            continue;
        }
        assign_id(ctx, "seller", &mut seller, c, 0.5);
    }
    ctx.result.parties.seller = seller;
    ctx.result.parties.buyer = buyer;
    if let Some(c) = all
        .iter()
        .find(|c| c.role == LabelKey::Consignee && c.name.is_some())
    {
        let mut local = Ctx {
            doc,
            result: DocumentResult::empty(),
        };
        let p = fill_party(&mut local, "other", c, cands, party_score(c));
        ctx.result.parties.other.push(crate::result::OtherParty {
            party: p,
            role: "consignee".into(),
        });
    }
}
