//! Parties: seller, buyer and consignee from the party blocks, with their ids and contacts.

use super::party_model::{PARTY_ROLES, PartyContext, PartyModel, party_vectors};
use super::{Ctx, clean_name};
use crate::candidates::labels::LabelKey;
use crate::candidates::parties::{PartyCandidate, PartySource};
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::result::{DocumentResult, Party};

/// A party name without trailing registration numbers (`AEON CO. (M) BHD (126926-H)`).
pub(super) fn clean_party_name(s: &str) -> String {
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
    // A candidate without an address takes it from another candidate naming the same party
    // (a letterhead printed again in a labelled block, an id block under the letterhead).
    let with_address = if cand.address.is_empty() {
        cands
            .parties
            .iter()
            .find(|c| !c.address.is_empty() && names_one_party(c, cand))
            .unwrap_or(cand)
    } else {
        cand
    };
    put_address(ctx, role, &mut p, &with_address.address, conf * 0.9);
    for c in cands.items.iter().filter(|c| cand.contains(&c.span)) {
        assign_id(ctx, role, &mut p, c, conf);
    }
    p
}

/// A party's tax id whose checksum fails takes the one printed elsewhere (outside the other
/// party's area) that differs from it by one character and passes: the same id read twice,
/// once misread (`ESR89117978` in a scanned letterhead, `ESR8911797B` in the footer).
fn reread_ids(
    ctx: &mut Ctx<'_>,
    role: &str,
    p: &mut Party,
    cands: &Candidates,
    other: Option<&PartyCandidate>,
) {
    let ids = || {
        cands
            .items
            .iter()
            .filter(|c| c.kind == CandidateKind::TaxId)
    };
    for (slot, key) in [
        (&mut p.vat_id, "vat_id"),
        (&mut p.tax_id, "tax_id"),
        (&mut p.registration_id, "registration_id"),
    ] {
        let Some(value) = slot.as_deref() else {
            continue;
        };
        let Some(misread) = ids().find(|c| c.value == value && c.checksum_valid == Some(false))
        else {
            continue;
        };
        let reread = ids().find(|c| {
            c.checksum_valid == Some(true)
                && c.scheme == misread.scheme
                && !other.is_some_and(|o| o.contains(&c.span))
                && crate::candidates::labels::within_one_edit(&c.value, value)
        });
        if let Some(c) = reread {
            *slot = Some(c.value.clone());
            let pointer = format!("/parties/{role}/{key}");
            let conf = ctx
                .result
                .confidence
                .fields
                .get(&pointer)
                .copied()
                .unwrap_or(0.5);
            ctx.put(&pointer, conf as f32, &c.span);
        }
    }
}

/// Sets a party's address from address lines (cleaned, joined by commas), with the first
/// line's evidence; lines that clean to nothing are left out.
fn put_address(
    ctx: &mut Ctx<'_>,
    role: &str,
    p: &mut Party,
    address: &[(String, crate::types::Span)],
    conf: f32,
) {
    let lines: Vec<String> = address
        .iter()
        .map(|(t, _)| clean_name(t))
        .filter(|t| !t.is_empty())
        .collect();
    if !lines.is_empty() {
        p.address = Some(lines.join(", "));
        if let Some((_, s)) = address.first() {
            ctx.put(&format!("/parties/{role}/address"), conf, s);
        }
    }
}

/// Whether two candidates' names name one party: the same name, or one the other with more
/// words after it (`Pérez Transportes` and `Pérez Transportes S.A.`).
fn names_one_party(a: &PartyCandidate, b: &PartyCandidate) -> bool {
    let (Some((x, _)), Some((y, _))) = (&a.name, &b.name) else {
        return false;
    };
    let (x, y) = (
        clean_party_name(x).to_lowercase(),
        clean_party_name(y).to_lowercase(),
    );
    let (short, long) = if x.len() <= y.len() {
        (&x, &y)
    } else {
        (&y, &x)
    };
    x == y
        || (short.split_whitespace().count() >= 2
            && long.starts_with(short.as_str())
            && long[short.len()..].starts_with(' '))
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

/// The address printed without a name ([`Candidates::addresses`]) that a seller printed
/// without its address takes: outside the buyer's area, the nearest below the seller's name,
/// else the topmost. (Every such candidate has an address and a region.)
fn nameless_address<'a>(
    cands: &'a Candidates,
    seller: Option<&PartyCandidate>,
    buyer: Option<&PartyCandidate>,
) -> Option<&'a PartyCandidate> {
    let top = |c: &PartyCandidate| c.region.first().map_or((0, 0.0), |s| (s.page, s.bbox.y0));
    let order = |a: &&PartyCandidate, b: &&PartyCandidate| {
        let (x, y) = (top(a), top(b));
        x.0.cmp(&y.0).then(x.1.total_cmp(&y.1))
    };
    let outside = || {
        cands
            .addresses
            .iter()
            .filter(move |c| !buyer.is_some_and(|b| c.region.iter().any(|s| b.contains(s))))
    };
    let name_at = seller
        .and_then(|c| c.name.as_ref())
        .map(|(_, s)| (s.page, s.bbox.y0));
    outside()
        .filter(|c| name_at.is_some_and(|n| top(c).0 == n.0 && top(c).1 > n.1))
        .min_by(order)
        .or_else(|| outside().min_by(order))
}

/// Rule confidence of a party candidate for the role its source suggests (0 for plain blocks:
/// only the learned scorer chooses those).
pub(super) fn party_score(c: &PartyCandidate) -> f32 {
    let company = c.is_company();
    let base = match c.source {
        PartySource::Block => return 0.0,
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
    let mut best: Option<(f32, &PartyCandidate)> = None;
    for c in all
        .iter()
        .filter(|c| c.role == role && c.name.is_some() && c.source != PartySource::Block)
    {
        if exclude.is_some_and(|e| same_party(c, e)) {
            continue;
        }
        let s = party_score(c);
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Whether two candidates name the same party: the same name, or overlapping areas.
fn same_party(c: &PartyCandidate, e: &PartyCandidate) -> bool {
    // The same name, or one name the other's whole words with a word more or less (`Vries
    // Kantoorartikelen V.O.F.` read without the `de` printed on the line above).
    let within = |x: &str, y: &str| {
        let (x, y) = (x.to_lowercase(), y.to_lowercase());
        let words = x.split_whitespace().count();
        words >= 2
            && y.split_whitespace().count() == words + 1
            && (y.strip_suffix(x.as_str()).is_some_and(|r| r.ends_with(' '))
                || y.strip_prefix(x.as_str())
                    .is_some_and(|r| r.starts_with(' ')))
    };
    // Spaces apart: OCR joins and splits words (`Larsen IVS` read `LarsenIVS`).
    let unspaced = |x: &str| -> String {
        x.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    // One letter apart in a long name with the same last word (`Apha Imprimerie SA`, an OCR
    // reading of `Alpha Imprimerie SA`; `Fischer AG` and `Fischer KG` stay two).
    let misread = |x: &str, y: &str| {
        let (ux, uy) = (unspaced(x), unspaced(y));
        let last = |t: &str| t.split_whitespace().last().map(str::to_lowercase);
        ux.chars().count() >= 10
            && last(x) == last(y)
            && crate::candidates::labels::within_one_edit(&ux, &uy)
    };
    let same_name = match (&c.name, &e.name) {
        (Some((x, _)), Some((y, _))) => {
            x.eq_ignore_ascii_case(y)
                || within(x, y)
                || within(y, x)
                || unspaced(x) == unspaced(y)
                || misread(x, y)
        }
        _ => false,
    };
    same_name || c.region.iter().any(|s| e.contains(s))
}

/// The rules' seller and buyer (indices into `all`).
pub(super) fn rule_picks(all: &[PartyCandidate]) -> (Option<usize>, Option<usize>) {
    let index = |c: &PartyCandidate| all.iter().position(|x| std::ptr::eq(x, c));
    let seller = best_party(all, LabelKey::Seller, None);
    let buyer = best_party(all, LabelKey::Buyer, seller);
    (seller.and_then(index), buyer.and_then(index))
}

/// Seller probabilities this close to the best one count as tied.
const SELLER_TIE: f32 = 0.02;

/// Sellers this close to the best one are decided by the bank account's country where their
/// countries differ ([`bank_country_seller`]).
const BANK_MARGIN: f32 = 0.35;

/// Seller-and-buyer pairs whose probabilities sum this close count as tied.
const PAIR_TIE: f32 = 1e-3;

/// Where a candidate's name is printed, for reading order: line (in reading order), then left.
fn reading_key(c: &PartyCandidate) -> (usize, i64) {
    c.name
        .as_ref()
        .map(|(_, s)| s)
        .or(c.region.first())
        .map_or((usize::MAX, 0), |s| (s.line, s.bbox.x0.round() as i64))
}

/// A seller candidate with the best buyer it leaves: (seller, its probability, buyer and its
/// probability, the pair's sum).
type Pairing = (usize, f32, Option<(usize, f32)>, f32);

/// The pairing of the best sum. Pairs within [`PAIR_TIE`] of it whose seller reaches its fill
/// threshold `fill` are tied; among tied pairs of different parties the seller printed first
/// wins (the issuer's block comes first or on the left in the layout conventions the engine
/// knows), then the best sum among that party's candidates (the first on equal sums).
fn best_pairing<'p>(
    pairings: &'p [Pairing],
    fill: f32,
    parties: &[PartyCandidate],
) -> Option<&'p Pairing> {
    let best_sum = pairings.iter().map(|p| p.3).fold(f32::MIN, f32::max);
    let tied = |p: &Pairing| p.3 >= best_sum - PAIR_TIE && p.1 >= fill;
    let first = pairings
        .iter()
        .filter(|p| tied(p))
        .min_by_key(|p| reading_key(&parties[p.0]));
    let mut best: Option<&Pairing> = None;
    for p in pairings {
        let eligible = first.is_none_or(|f| tied(p) && same_party(&parties[p.0], &parties[f.0]));
        if eligible && best.is_none_or(|b| p.3 > b.3) {
            best = Some(p);
        }
    }
    best
}

/// The model's seller and buyer with their calibrated probabilities: the seller of the highest
/// probability, where candidates within [`SELLER_TIE`] of it count as tied (the isotonic map is a
/// step function) and the tie goes to the one that leaves the best buyer (pairs of two parties
/// that still tie: the seller printed first; a party the footer names: that one); the buyer is the best
/// candidate not naming the seller's party. Each is kept when it reaches its role's fill
/// threshold. The tie rule keeps a buyer's block from becoming the seller when the true seller
/// scores the same.
fn model_picks(
    model: &PartyModel,
    doc: &crate::types::CleanDocument,
    cands: &Candidates,
) -> [Option<(usize, f32)>; 2] {
    let ctx = PartyContext::new(doc, cands);
    let named: Vec<usize> = (0..cands.parties.len())
        .filter(|&i| cands.parties[i].name.is_some())
        .collect();
    // Each candidate's features once, scored for both roles.
    type Scores = Vec<(usize, f32)>;
    let (sellers, buyers): (Scores, Scores) = named
        .iter()
        .map(|&i| {
            let [s, b] = party_vectors(&ctx, cands, i);
            ((i, model.score(&s)), (i, model.score(&b)))
        })
        .unzip();
    // A sender line names no buyer (the issuer's return address over the window, read apart
    // from the issuer's block when OCR spells the name differently).
    let buyers: Scores = buyers
        .into_iter()
        .filter(|(j, _)| !cands.parties[*j].is_sender_line())
        .collect();
    let best_buyer = |seller: Option<usize>| {
        buyers
            .iter()
            .filter(|(j, _)| {
                seller.is_none_or(|i| !same_party(&cands.parties[*j], &cands.parties[i]))
            })
            .copied()
            .fold(None, |best: Option<(usize, f32)>, x| match best {
                Some(b) if b.1 >= x.1 => Some(b),
                _ => Some(x),
            })
    };
    let top = sellers.iter().map(|(_, p)| *p).fold(0.0f32, f32::max);
    let mut pair: [Option<(usize, f32)>; 2] = [None, best_buyer(None)];
    // Sellers within [`BANK_MARGIN`] of the best of different countries: the party of the bank
    // account's country ([`bank_country_seller`]) alone.
    let near: Vec<usize> = sellers
        .iter()
        .filter(|(_, p)| *p >= top - BANK_MARGIN)
        .map(|(i, _)| *i)
        .collect();
    let banked = bank_country_seller(cands, &near).or_else(|| repeated_id_seller(cands, &near));
    // Each near-best seller with the best buyer it leaves.
    let pairings: Vec<Pairing> = sellers
        .iter()
        .filter(|(i, p)| match banked {
            Some(b) => *p >= top - BANK_MARGIN && same_party(&cands.parties[*i], &cands.parties[b]),
            None => *p >= top - SELLER_TIE,
        })
        .map(|&(i, ps)| {
            let b = best_buyer(Some(i));
            (i, ps, b, ps + b.map_or(0.0, |(_, p)| p))
        })
        .collect();
    let fill = model.fill_threshold(LabelKey::Seller);
    if let Some(&(i, ps, b, _)) = best_pairing(&pairings, fill, &cands.parties) {
        pair = [Some((i, ps)), b];
    }
    // The footer's register line names the issuer: a seller whose name is not printed there
    // gives way to the best candidate of the one party that is (a buyer's block at the top of a
    // letter whose sender prints itself only in the footer).
    if let Some((si, _)) = pair[0]
        && let Some(f) = footer_seller(&ctx, cands, &sellers)
        && !same_party(&cands.parties[f.0], &cands.parties[si])
    {
        pair = [Some(f), best_buyer(Some(f.0))];
    }
    // Known labels name the parties: a seller that a known buyer label heads (`Užsakovas:` over
    // the block the model scored highest) gives way to the complete block a known seller label
    // heads (`Paslaugų teikėjas:`) when that is another party; the labelled buyer is the buyer.
    if let Some((si, _)) = pair[0]
        && let Some((ls, lb)) = known_label_pair(doc, cands, &sellers, si)
    {
        let labelled_buyer = buyers.iter().find(|(j, _)| *j == lb).copied();
        pair = [Some(ls), labelled_buyer.or_else(|| best_buyer(Some(ls.0)))];
    }
    // The chosen seller's best buyer, before the thresholds.
    let buyer_of_seller = pair[1];
    for (k, role) in PARTY_ROLES.into_iter().enumerate() {
        pair[k] = pair[k].filter(|(_, p)| *p >= model.fill_threshold(role));
    }
    // No seller reached its threshold: a company whose name, address and ids the footer's
    // register line prints (`Jacobs Transport CommV · Brusselsesteenweg 80 · 3000 Leuven · BTW
    // …`) is the issuer, at its own probability, when it is the one party printed there and not
    // the buyer's.
    if pair[0].is_none()
        && let Some(f) = register_seller(&ctx, cands, &sellers)
        && pair[1].is_none_or(|(bi, _)| !same_party(&cands.parties[bi], &cands.parties[f.0]))
    {
        pair[0] = Some(f);
    }
    // Still no seller: the block a seller's label heads ([`labelled_seller`]).
    if pair[0].is_none() {
        pair[0] = labelled_seller(doc, cands, &sellers, pair[1].map(|(bi, _)| bi));
    }
    // No buyer reached its threshold (its label unknown to the vocabulary, or none printed):
    // on a document that is no till receipt, the best-scored buyer apart from the seller's
    // party is kept, at its own probability, when it is a complete company block (a company's
    // name with its address) in the upper half of the first page: an invoice names its buyer.
    if pair[1].is_none()
        && !cands.style.receipt
        && pair[0].is_some()
        && let Some((bi, p)) = buyer_of_seller
        && complete_block(doc, &cands.parties[bi])
    {
        pair[1] = Some((bi, p));
    }
    pair
}

/// The country of the tax ids printed in a party's block, where they agree: an EU VAT id's
/// prefix (`DE290843924`), a national scheme's country (`PL_NIP`, `UA_EDRPOU`); plain
/// registration numbers name none.
fn vat_country<'c>(cands: &'c Candidates, party: &PartyCandidate) -> Option<&'c str> {
    let country = |c: &'c Candidate| -> Option<&'c str> {
        let two_letters = |s: &'c str| {
            s.get(..2)
                .filter(|p| p.chars().all(|ch| ch.is_ascii_uppercase()))
        };
        match c.scheme.as_deref()? {
            "EU_VAT" => two_letters(&c.value),
            s if s.get(2..3) == Some("_") => two_letters(s),
            _ => None,
        }
    };
    let mut countries = tax_ids_in(cands, party).filter_map(country);
    let first = countries.next()?;
    countries.all(|c| c == first).then_some(first)
}

/// Among sellers the model scores near the best (`near`, indices into `cands.parties`), the one whose
/// EU VAT id is of the country of the document's bank accounts, where the others name another
/// country: an invoice asks to be paid into its issuer's account, and a bank account is held
/// in its holder's country (a Spanish company's invoice to a German buyer: `CIF ESF58027491`,
/// `USt-ID DE290843924`, `IBAN: ES55 ...`). Every IBAN printed outside their blocks of one
/// country; every near seller of a known country; exactly one party of the IBAN's.
fn bank_country_seller(cands: &Candidates, near: &[usize]) -> Option<usize> {
    // An account printed in one of their blocks is that block's own (a buyer's account for a
    // direct debit): only those printed apart (a bank details' block) count.
    let mut ibans = cands
        .items
        .iter()
        .filter(|c| {
            c.kind == CandidateKind::Iban
                && !near.iter().any(|&i| cands.parties[i].contains(&c.span))
        })
        .filter_map(|c| c.value.get(..2));
    let bank = ibans.next()?;
    if !ibans.all(|c| c == bank) {
        return None;
    }
    let countries: Vec<(usize, &str)> = near
        .iter()
        .map(|&i| vat_country(cands, &cands.parties[i]).map(|c| (i, c)))
        .collect::<Option<_>>()?;
    let matching: Vec<usize> = countries
        .iter()
        .filter(|(_, c)| *c == bank)
        .map(|(i, _)| *i)
        .collect();
    let first = one_party(cands, &matching)?;
    let other = countries.iter().any(|(_, c)| *c != bank);
    other.then_some(first)
}

/// The tax id candidates printed in a party's block.
fn tax_ids_in<'c>(
    cands: &'c Candidates,
    party: &PartyCandidate,
) -> impl Iterator<Item = &'c Candidate> {
    cands
        .items
        .iter()
        .filter(|c| c.kind == CandidateKind::TaxId && party.contains(&c.span))
}

/// The first of candidates (indices into `cands.parties`) that all name one party; none where
/// they are empty or name several.
fn one_party(cands: &Candidates, of: &[usize]) -> Option<usize> {
    let first = *of.first()?;
    of.iter()
        .all(|&i| same_party(&cands.parties[i], &cands.parties[first]))
        .then_some(first)
}

/// Among sellers the model scores near the best (`near`), the one party whose tax id is printed
/// again apart from their blocks (a signature line's `Aussteller ... USt-ID DE741034976`, a
/// footer's register line the OCR garbled the name of), where no other near party's is: the
/// issuer prints its own ids again where it signs or in its footer. An id's value compares
/// exactly (the OCR misreads a name more often than a checksummed id).
fn repeated_id_seller(cands: &Candidates, near: &[usize]) -> Option<usize> {
    let apart: Vec<&str> = cands
        .items
        .iter()
        .filter(|c| {
            c.kind == CandidateKind::TaxId
                && !near.iter().any(|&i| cands.parties[i].contains(&c.span))
        })
        .map(|c| c.value.as_str())
        .collect();
    let repeated: Vec<usize> = near
        .iter()
        .copied()
        .filter(|&i| {
            tax_ids_in(cands, &cands.parties[i]).any(|c| apart.contains(&c.value.as_str()))
        })
        .collect();
    let first = one_party(cands, &repeated)?;
    let other = near
        .iter()
        .any(|&i| !same_party(&cands.parties[i], &cands.parties[first]));
    other.then_some(first)
}

/// The block a seller's label heads (`Izpildītājs:`, `Lieferant:`, in any language of the
/// vocabulary), a complete company block ([`complete_block`]) that is not the `buyer`'s party:
/// the best-scored of them (index, its own probability among `sellers`). For a document whose
/// model scores left every seller under its threshold: the label says what the block is where
/// its place on the page is one training never showed (the seller's column right of the
/// buyer's).
fn labelled_seller(
    doc: &crate::types::CleanDocument,
    cands: &Candidates,
    sellers: &[(usize, f32)],
    buyer: Option<usize>,
) -> Option<(usize, f32)> {
    sellers
        .iter()
        .filter(|(i, _)| {
            let c = &cands.parties[*i];
            c.source == PartySource::Labelled
                && c.role == LabelKey::Seller
                && complete_block(doc, c)
                && buyer.is_none_or(|b| !same_party(&cands.parties[b], c))
        })
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// Where a known buyer label heads the party of the chosen `seller` (a Labelled buyer
/// candidate of that party) and a known seller label heads a complete block of another party
/// ([`labelled_seller`]): that seller (index, probability among `sellers`) and the labelled
/// buyer's index.
fn known_label_pair(
    doc: &crate::types::CleanDocument,
    cands: &Candidates,
    sellers: &[(usize, f32)],
    seller: usize,
) -> Option<((usize, f32), usize)> {
    let lb = (0..cands.parties.len()).find(|&j| {
        let c = &cands.parties[j];
        c.source == PartySource::Labelled
            && c.role == LabelKey::Buyer
            && same_party(c, &cands.parties[seller])
    })?;
    Some((labelled_seller(doc, cands, sellers, Some(lb))?, lb))
}

/// Seller probability a candidate named in the footer needs to take the seller's place.
const FOOTER_SELLER: f32 = 0.5;

/// The best-scored seller candidate (index, probability) of the one party whose name the
/// footer's register line repeats, when it reaches [`FOOTER_SELLER`]; none when no party's or
/// several parties' names are printed there (of those that reach it: `Väljastas  Võttis vastu`,
/// the signatures' captions over the foot, are no party).
fn footer_seller(
    ctx: &PartyContext<'_>,
    cands: &Candidates,
    sellers: &[(usize, f32)],
) -> Option<(usize, f32)> {
    let likely: Vec<(usize, f32)> = sellers
        .iter()
        .filter(|(_, p)| *p >= FOOTER_SELLER)
        .copied()
        .collect();
    footer_party(ctx, cands, &likely, |_| true)
}

/// The seller candidate (index, probability) whose name a footer's register line prints with
/// its address, when all companies the footer names are that one party. A name without a
/// legal form counts where its line prints a tax id too (`Statyba Jankauskas · Konstitucijos
/// pr. 74 · LT-76001 Šiauliai · PVM mok. kodas LT739228163`, the form `IĮ` lost to OCR or
/// never printed): a register line is a company's.
fn register_seller(
    ctx: &PartyContext<'_>,
    cands: &Candidates,
    sellers: &[(usize, f32)],
) -> Option<(usize, f32)> {
    footer_party(ctx, cands, sellers, |c| {
        !c.address.is_empty() && (c.is_company() || tax_ids_in(cands, c).next().is_some())
    })
}

/// The best-scored of the seller candidates (`keep` ones only) whose names the footer prints
/// (its register line or a repeat there), when they all name one party.
fn footer_party(
    ctx: &PartyContext<'_>,
    cands: &Candidates,
    sellers: &[(usize, f32)],
    keep: impl Fn(&PartyCandidate) -> bool,
) -> Option<(usize, f32)> {
    let mut named = sellers.iter().filter(|(i, _)| {
        let r = ctx.repeats(*i);
        (r.footer || r.register_line) && keep(&cands.parties[*i])
    });
    let first = *named.next()?;
    let mut best = first;
    for &(i, p) in named {
        if !same_party(&cands.parties[i], &cands.parties[first.0]) {
            return None;
        }
        if p > best.1 {
            best = (i, p);
        }
    }
    Some(best)
}

/// Whether a party candidate is a company's name with its address, in the upper half of the
/// document's first page.
fn complete_block(doc: &crate::types::CleanDocument, c: &PartyCandidate) -> bool {
    let Some(first) = doc.pages.first() else {
        return false;
    };
    c.is_company()
        && !c.address.is_empty()
        && c.name
            .as_ref()
            .is_some_and(|(_, s)| s.page == first.page && s.bbox.y0 < first.height * 0.5)
}

/// Seller, buyer and consignee: seller and buyer by the learned party model when one is given
/// (confidence: its calibrated probability), by the rules otherwise.
pub(super) fn party_fields(ctx: &mut Ctx<'_>, cands: &Candidates, model: Option<&PartyModel>) {
    let doc = ctx.doc;
    let all = &cands.parties;
    let [seller_pick, buyer_pick] = match model {
        Some(m) => model_picks(m, doc, cands),
        None => {
            let (s, b) = rule_picks(all);
            let conf = |i: usize| (i, party_score(&all[i]));
            [s.map(conf), b.map(conf)]
        }
    };
    let seller_c = seller_pick.map(|(i, _)| &all[i]);
    let buyer_c = buyer_pick.map(|(i, _)| &all[i]);
    let mut seller = Party::default();
    let mut buyer = Party::default();
    if let Some((i, conf)) = seller_pick {
        seller = fill_party(ctx, "seller", &all[i], cands, conf);
    }
    if let Some((i, conf)) = buyer_pick {
        buyer = fill_party(ctx, "buyer", &all[i], cands, conf);
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
    reread_ids(ctx, "seller", &mut seller, cands, buyer_c);
    reread_ids(ctx, "buyer", &mut buyer, cands, seller_c);
    // A seller printed without its address (a logo or a name alone at the top, a receipt's
    // head with registration lines between) takes the address of a nameless candidate outside
    // the buyer's area: the nearest below the seller's name, else the topmost.
    if seller.name.is_some()
        && seller.address.is_none()
        && let Some(reg) = nameless_address(cands, seller_c, buyer_c)
    {
        let conf = seller_pick.map_or(0.5, |(_, p)| p * 0.8);
        put_address(ctx, "seller", &mut seller, &reg.address, conf);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates;
    use crate::candidates::tests::{PARTIES_BUYER_LEFT, doc_rows as doc};

    /// Seller and buyer names chosen by the embedded party model.
    fn chosen(rows: &[(&str, f32, f32, f32)]) -> (Option<String>, Option<String>) {
        let d = doc(rows);
        let cands = candidates::extract(&d);
        let mut ctx = Ctx {
            doc: &d,
            result: DocumentResult::empty(),
        };
        let model = PartyModel::embedded().expect("embedded party model");
        party_fields(&mut ctx, &cands, Some(model));
        let p = ctx.result.parties;
        (p.seller.name, p.buyer.name)
    }

    #[test]
    fn names_that_differ_in_spaces_or_one_misread_letter_are_one_party() {
        let named = |n: &str| PartyCandidate {
            role: LabelKey::Seller,
            source: PartySource::Block,
            name: Some((
                n.to_string(),
                crate::types::Span {
                    page: 1,
                    line: 0,
                    start: 0,
                    end: n.len(),
                    bbox: crate::types::BBox::new(0.0, 0.0, 100.0, 10.0),
                    text: n.into(),
                    confidence: 1.0,
                },
            )),
            address: Vec::new(),
            region: Vec::new(),
            label_line: None,
        };
        assert!(same_party(
            &named("Jensen & LarsenIVS"),
            &named("Jensen & Larsen IVS")
        ));
        assert!(same_party(
            &named("Apha Imprimerie SA"),
            &named("Alpha Imprimerie SA")
        ));
        assert!(!same_party(
            &named("Jensen & Larsen IVS"),
            &named("Jensen & Larsen ApS")
        ));
        assert!(!same_party(
            &named("Fischer Bau AG"),
            &named("Fischer Bau KG")
        ));
        assert!(!same_party(&named("Bau AG"), &named("Bai AG")));
    }

    #[test]
    fn a_company_block_under_an_unknown_label_is_the_buyer() {
        let rows = [
            ("Brightline Systems Ltd", 40.0, 40.0, 14.0),
            ("4 Quay Street, Bristol BS1 4DJ", 40.0, 60.0, 9.0),
            ("VAT GB123456789", 40.0, 72.0, 9.0),
            ("INVOICE", 400.0, 100.0, 14.0),
            ("Fezo:", 40.0, 130.0, 10.0),
            ("Harbour Foods Ltd", 40.0, 144.0, 10.0),
            ("21 Market Row", 40.0, 158.0, 10.0),
            ("Norwich NR2 1NB", 40.0, 172.0, 10.0),
            ("Consulting  2  120.00  240.00", 40.0, 260.0, 10.0),
            ("Total  240.00 GBP", 320.0, 400.0, 10.0),
            ("Thank you", 40.0, 780.0, 10.0),
        ];
        let (seller, buyer) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("Brightline Systems Ltd"));
        assert_eq!(buyer.as_deref(), Some("Harbour Foods Ltd"));
        // A block without a company's name is not taken for the buyer without a label.
        let mut rows = rows.to_vec();
        rows[5].0 = "Harbour";
        let (_, buyer) = chosen(&rows);
        assert_eq!(buyer, None);
    }

    /// The buyer's column left, the seller's right under its label: a place training never
    /// showed a seller in; the label names the block the seller.
    #[test]
    fn the_block_a_seller_label_heads_is_the_seller_right_of_the_buyer() {
        let mut rows = vec![
            ("Rēķins-faktūra", 300.0, 30.0, 16.0),
            ("Dokumenta Nr.  Izrakstīts", 40.0, 60.0, 10.0),
            ("23100494  17.02.2023", 40.0, 72.0, 10.0),
        ];
        rows.extend_from_slice(PARTIES_BUYER_LEFT);
        rows.extend([
            (
                "Konsultāciju pakalpojumi  12  1211,00  21%  14532,00",
                40.0,
                200.0,
                10.0,
            ),
            ("Summa apmaksai:  17583,72 EUR", 320.0, 300.0, 10.0),
        ]);
        let (seller, buyer) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("AS \"Tipogrāfija Nord\""));
        assert_eq!(buyer.as_deref(), Some("SIA \"IT risinājumi Krūmiņš\""));
    }

    /// Whatever the model scored, the complete company block under a seller's label is the
    /// seller when none reached its threshold; not the buyer's party, not a block without one.
    #[test]
    fn a_labelled_seller_block_is_kept_when_no_seller_reached_its_threshold() {
        let mut rows = PARTIES_BUYER_LEFT.to_vec();
        rows.push(("Thank you", 40.0, 780.0, 10.0));
        let d = doc(&rows);
        let cands = candidates::extract(&d);
        let zero: Vec<(usize, f32)> = (0..cands.parties.len()).map(|i| (i, 0.0)).collect();
        let name = |p: Option<(usize, f32)>| {
            p.and_then(|(i, _)| cands.parties[i].name.as_ref().map(|n| n.0.clone()))
        };
        let seller = labelled_seller(&d, &cands, &zero, None);
        assert_eq!(name(seller).as_deref(), Some("AS \"Tipogrāfija Nord\""));
        // The buyer's party is never the seller.
        assert_eq!(
            labelled_seller(&d, &cands, &zero, seller.map(|s| s.0)),
            None
        );
        // A seller label over a name without a company's form and address heads no seller.
        let d = doc(&[
            ("Izpildītājs:", 320.0, 100.0, 10.0),
            ("Jānis", 320.0, 112.0, 10.0),
            ("Thank you", 40.0, 780.0, 10.0),
        ]);
        let cands = candidates::extract(&d);
        let zero: Vec<(usize, f32)> = (0..cands.parties.len()).map(|i| (i, 0.0)).collect();
        assert_eq!(labelled_seller(&d, &cands, &zero, None), None);
    }

    #[test]
    fn a_complete_block_is_a_companys_name_with_its_address_in_the_upper_half() {
        let d = doc(&[
            ("Harbour Foods Ltd", 40.0, 144.0, 10.0),
            ("21 Market Row", 40.0, 158.0, 10.0),
            ("Norwich NR2 1NB", 40.0, 172.0, 10.0),
            ("Thank you", 40.0, 780.0, 10.0),
        ]);
        let cands = candidates::extract(&d);
        let named = |name: &str| {
            cands
                .parties
                .iter()
                .filter(|c| c.name.as_ref().is_some_and(|(n, _)| n == name))
                .any(|c| complete_block(&d, c))
        };
        assert!(named("Harbour Foods Ltd"));
        assert!(!named("Thank you"));
        let d = doc(&[
            ("Thank you", 40.0, 40.0, 10.0),
            ("Harbour Foods Ltd", 40.0, 644.0, 10.0),
            ("21 Market Row", 40.0, 658.0, 10.0),
            ("Norwich NR2 1NB", 40.0, 672.0, 10.0),
        ]);
        let cands = candidates::extract(&d);
        assert!(!cands.parties.iter().any(|c| complete_block(&d, c)));
    }

    #[test]
    fn keyed_company_rows_under_unknown_keys_are_two_parties() {
        // A CIS-style head: `Key:  Company` rows with the address under the name, the keys in
        // words the vocabulary does not know: each row begins a block candidate of its own.
        let rows = [
            ("SZÁMLA B088962", 120.0, 38.0, 12.0),
            ("Kitu:", 48.0, 67.0, 9.0),
            ("Nord Villamossági Kft.", 143.0, 67.0, 9.0),
            (
                "Váci út 146., 9021 Győr, Adószám 38895329-3-02",
                143.0,
                78.0,
                9.0,
            ),
            ("Matobu:", 48.0, 95.0, 9.0),
            ("Kovács Nyomda Bt.", 143.0, 95.0, 9.0),
            ("Ipari park 21., 9021 Győr, HU82382526", 143.0, 106.0, 9.0),
            ("Tanácsadás  3  147,28  441,84", 48.0, 160.0, 9.0),
            ("Deke:  441,84 €", 313.0, 226.0, 9.0),
        ];
        let blocks: Vec<(String, Vec<String>)> = candidates::extract(&doc(&rows))
            .parties
            .into_iter()
            .filter(|c| c.source == PartySource::Block)
            .filter_map(|c| Some((c.name?.0, c.address.into_iter().map(|a| a.0).collect())))
            .collect();
        let of = |name: &str| blocks.iter().find(|b| b.0 == name).map(|b| b.1.clone());
        assert_eq!(
            of("Nord Villamossági Kft."),
            Some(vec!["Váci út 146., 9021 Győr".to_string()])
        );
        assert_eq!(
            of("Kovács Nyomda Bt."),
            Some(vec!["Ipari park 21., 9021 Győr".to_string()])
        );
        let (seller, _) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("Nord Villamossági Kft."));
    }

    #[test]
    fn the_second_of_two_parties_under_unknown_keys_is_the_buyer() {
        // The seller's area ends at the second party's name: that party is another, and the
        // buyer (`Dure:` and `Bifetu:` are keys no vocabulary knows).
        let rows = [
            (
                "Acceptance Certificate Invoice No. 136/2021, Fopu: 2021-01-14",
                66.0,
                40.0,
                13.0,
            ),
            ("Dure:", 48.0, 67.0, 9.0),
            ("Atlas Print Teoranta", 143.0, 67.0, 9.0),
            (
                "146 Shop Street, Dublin 2 D02 X285, VAT Reg. No. IE1777544K",
                143.0,
                78.0,
                9.0,
            ),
            ("Bifetu:", 48.0, 95.0, 9.0),
            ("Vector Fuels Limited", 143.0, 95.0, 9.0),
            (
                "113 Shop Street, Limerick V94 T9PX, VAT No. IE3974886D",
                143.0,
                106.0,
                9.0,
            ),
            ("Currency: EUR", 489.0, 126.0, 8.0),
            (
                "#  Description  Qty  Unit price  VAT %  Amount",
                51.0,
                147.0,
                8.0,
            ),
            (
                "1  Consulting services  12  h  68.93  23%  827.16",
                51.0,
                163.0,
                8.5,
            ),
            ("2  Laptop bag  3  kg  78.36  23%  235.08", 51.0, 180.0, 8.5),
            ("Dape:  1,062.24", 313.0, 292.0, 9.0),
            ("Baraze 23%  244.32", 313.0, 306.0, 9.0),
            ("Zutavo:  1,306.56", 313.0, 347.0, 10.0),
            ("IBAN: IE85 JQWQ 9936 5470 6598 86", 48.0, 399.0, 9.0),
        ];
        let (seller, buyer) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("Atlas Print Teoranta"));
        assert_eq!(buyer.as_deref(), Some("Vector Fuels Limited"));
    }

    #[test]
    fn of_sellers_scored_alike_the_one_of_the_bank_accounts_country_issues() {
        // Two company blocks under keys no vocabulary knows, the buyer's first: a Czech buyer,
        // a Polish seller, paid into a Polish account.
        let mut rows = vec![
            ("Rigi:", 48.0, 44.0, 8.0),
            ("Wagner Bau GmbH", 48.0, 54.0, 10.0),
            ("Lindenallee 18", 48.0, 68.0, 9.0),
            ("04109 Leipzig", 48.0, 79.0, 9.0),
            ("USt-ID DE290843924", 48.0, 90.0, 9.0),
            ("Satu:", 48.0, 112.0, 8.0),
            ("Budimex Serwis Sp. z o.o.", 48.0, 122.0, 10.0),
            ("ul. Marszałkowska 20", 48.0, 136.0, 9.0),
            ("00-001 Warszawa", 48.0, 147.0, 9.0),
            ("NIP PL5260250274", 48.0, 158.0, 9.0),
            ("Phone: +48 22 555 236", 48.0, 169.0, 9.0),
            ("FAKTURA", 253.0, 189.0, 17.0),
            ("Tose:  2211/2022", 48.0, 217.0, 9.0),
            ("Fodoru:  10.09.2022", 48.0, 230.0, 9.0),
            ("Opis  Ilość  Cena  Wartość", 51.0, 263.0, 8.0),
            ("Usługi montażowe  2  400,00  800,00", 51.0, 279.0, 8.5),
            ("Farefo:  800,00 zł", 300.0, 373.0, 9.0),
            ("Gepu: 23%  184,00 zł", 300.0, 387.0, 9.0),
            ("Pezobu:  984,00 zł", 300.0, 401.0, 9.0),
            ("IBAN: PL61 1090 1014 0000 0712 1981 2874", 48.0, 449.0, 9.0),
        ];
        let (seller, buyer) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("Budimex Serwis Sp. z o.o."));
        assert_eq!(buyer.as_deref(), Some("Wagner Bau GmbH"));
        // The account of the other party's country makes that party the seller; of a third
        // country, or of two, it decides nothing.
        let d = doc(&rows);
        let cands = candidates::extract(&d);
        let named = |n: &str| {
            (0..cands.parties.len())
                .filter(|&i| cands.parties[i].name.as_ref().is_some_and(|(x, _)| x == n))
                .collect::<Vec<_>>()
        };
        let near: Vec<usize> =
            [named("Wagner Bau GmbH"), named("Budimex Serwis Sp. z o.o.")].concat();
        let seller = bank_country_seller(&cands, &near).expect("one party of the bank's country");
        assert!(named("Budimex Serwis Sp. z o.o.").contains(&seller));
        let last = rows.len() - 1;
        let with_iban = |iban: &'static str| {
            let mut rows = rows.clone();
            rows[last].0 = iban;
            candidates::extract(&doc(&rows))
        };
        let german = bank_country_seller(&with_iban("IBAN: DE89 3704 0044 0532 0130 00"), &near);
        assert!(german.is_some_and(|i| named("Wagner Bau GmbH").contains(&i)));
        let third = with_iban("IBAN: AT61 1904 3002 3457 3201");
        assert_eq!(bank_country_seller(&third, &near), None);
        rows.push(("IBAN: DE89 3704 0044 0532 0130 00", 48.0, 460.0, 9.0));
        let two = candidates::extract(&doc(&rows));
        assert_eq!(bank_country_seller(&two, &near), None);
        // The only account printed inside the buyer's block is the buyer's own (a direct
        // debit's): it names no seller.
        rows.truncate(rows.len() - 2);
        rows.insert(
            5,
            ("IBAN PL61 1090 1014 0000 0712 1981 2874", 48.0, 100.0, 9.0),
        );
        let inside = candidates::extract(&doc(&rows));
        let near: Vec<usize> = (0..inside.parties.len())
            .filter(|&i| {
                inside.parties[i].name.as_ref().is_some_and(|(x, _)| {
                    x == "Wagner Bau GmbH" || x == "Budimex Serwis Sp. z o.o."
                })
            })
            .collect();
        assert!(
            near.iter()
                .any(|&i| inside.parties[i].region.iter().any(|s| s.line == 5))
        );
        assert_eq!(bank_country_seller(&inside, &near), None);
    }

    #[test]
    fn of_sellers_scored_alike_the_one_whose_id_is_printed_again_issues() {
        // Two German company blocks side by side under keys no vocabulary knows; the signature
        // line under the totals prints the issuer's VAT id again (its name garbled by the OCR).
        let rows = |signature: &'static str| {
            vec![
                ("Gudu:", 48.0, 44.0, 8.0),
                ("Vector Software AG", 48.0, 54.0, 10.0),
                ("Hauptstraße 115", 48.0, 68.0, 9.0),
                ("04109 Leipzig", 48.0, 79.0, 9.0),
                ("USt-ID DE290843924", 48.0, 90.0, 9.0),
                ("Gigi:", 48.0, 112.0, 8.0),
                ("Weber Software e.K.", 48.0, 122.0, 10.0),
                ("Am Markt 114", 48.0, 136.0, 9.0),
                ("20095 Hamburg", 48.0, 147.0, 9.0),
                ("USt-IdNr. DE811907980", 48.0, 158.0, 9.0),
                ("Rechnung", 253.0, 189.0, 17.0),
                ("Beratung  2  400,00  800,00", 51.0, 279.0, 8.5),
                ("Pezobu:  952,00 EUR", 300.0, 401.0, 9.0),
                (signature, 48.0, 520.0, 9.0),
            ]
        };
        let near_of = |cands: &Candidates| -> Vec<usize> {
            (0..cands.parties.len())
                .filter(|&i| {
                    cands.parties[i].name.as_ref().is_some_and(|(x, _)| {
                        x == "Vector Software AG" || x == "Weber Software e.K."
                    })
                })
                .collect()
        };
        let pick = |signature: &'static str| {
            let cands = candidates::extract(&doc(&rows(signature)));
            let near = near_of(&cands);
            assert!(near.len() >= 2);
            repeated_id_seller(&cands, &near)
                .and_then(|i| cands.parties[i].name.as_ref().map(|(n, _)| n.clone()))
        };
        assert_eq!(
            pick("Aussteller  yector  USt-ID DE290843924").as_deref(),
            Some("Vector Software AG")
        );
        assert_eq!(
            pick("Empfänger  USt-IdNr. DE811907980").as_deref(),
            Some("Weber Software e.K.")
        );
        // Both parties' ids printed again, or neither: it decides nothing.
        assert_eq!(pick("DE290843924  DE811907980"), None);
        assert_eq!(pick("Vielen Dank für Ihren Auftrag"), None);
    }

    #[test]
    fn a_labelled_guest_is_not_the_seller() {
        // A hotel's invoice whose letterhead is a logo: the guest field names a person at the
        // top (the buyer), the hotel prints itself in the footer's register line only.
        let rows = [
            ("INVOICE", 40.0, 40.0, 16.0),
            ("Guest name:  Martin Kowalski", 40.0, 90.0, 10.0),
            ("Arrival  02.03.2026", 40.0, 104.0, 10.0),
            ("Room 214  3 nights  360.00", 40.0, 260.0, 10.0),
            ("Total  360.00 GBP", 320.0, 400.0, 10.0),
            (
                "Hotel Marina Bay Ltd · 12 Harbour Road · Dover CT16 1JA · VAT GB123456782",
                40.0,
                780.0,
                8.0,
            ),
        ];
        let (seller, buyer) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("Hotel Marina Bay Ltd"));
        assert_eq!(buyer.as_deref(), Some("Martin Kowalski"));
    }

    #[test]
    fn buyer_first_in_two_labelled_columns() {
        let (seller, buyer) = chosen(&[
            ("Bill to:", 40.0, 100.0, 10.0),
            ("Supplier:", 320.0, 100.0, 10.0),
            ("Harbour Foods Ltd", 40.0, 114.0, 10.0),
            ("Brightline Systems Ltd", 320.0, 114.0, 10.0),
            ("21 Market Row", 40.0, 128.0, 10.0),
            ("4 Quay Street", 320.0, 128.0, 10.0),
            ("Norwich NR2 1NB", 40.0, 142.0, 10.0),
            ("Bristol BS1 4DJ", 320.0, 142.0, 10.0),
            ("Invoice number: 2024-77", 40.0, 220.0, 10.0),
            ("Total  240.00 GBP", 320.0, 400.0, 10.0),
        ]);
        assert_eq!(seller.as_deref(), Some("Brightline Systems Ltd"));
        assert_eq!(buyer.as_deref(), Some("Harbour Foods Ltd"));
    }

    #[test]
    fn a_title_word_is_never_the_seller() {
        let (seller, _) = chosen(&[
            ("FACTUUR", 40.0, 40.0, 22.0),
            ("Jansen Installatietechniek B.V.", 360.0, 90.0, 10.0),
            ("Kanaalweg 14", 360.0, 102.0, 10.0),
            ("3526 KL Utrecht", 360.0, 114.0, 10.0),
            ("De Vries Bouw B.V.", 40.0, 130.0, 10.0),
            ("Dorpsstraat 3", 40.0, 142.0, 10.0),
            ("1234 AB Amsterdam", 40.0, 154.0, 10.0),
            ("Factuurnummer: F-3391", 40.0, 200.0, 10.0),
            ("Totaal  605,00 EUR", 320.0, 400.0, 10.0),
        ]);
        assert!(seller.as_deref().is_none_or(|s| !s.contains("FACTUUR")));
    }

    #[test]
    fn a_name_printed_over_two_lines_is_one_name() {
        let (seller, _) = chosen(&[
            ("POPULAR BOOK", 150.0, 20.0, 12.0),
            ("CO. (M) SDN BHD", 150.0, 33.0, 12.0),
            ("NO 8, JALAN 7/118B", 150.0, 46.0, 10.0),
            ("56000 KUALA LUMPUR", 150.0, 58.0, 10.0),
            ("TAX INVOICE", 150.0, 90.0, 10.0),
            ("TOTAL  12.50", 150.0, 200.0, 10.0),
        ]);
        assert_eq!(seller.as_deref(), Some("POPULAR BOOK CO. (M) SDN BHD"));
    }

    #[test]
    fn tied_pairs_of_two_parties_give_the_seller_printed_first() {
        let party = |name: &str, line: usize, x: f32| {
            // Byte offsets as printed: the right column after the left one.
            let start = if x > 100.0 { 21 } else { 0 };
            let span = crate::types::Span {
                page: 1,
                line,
                start,
                end: start + name.len(),
                bbox: crate::types::BBox::new(x, 100.0, x + 100.0, 110.0),
                text: name.into(),
                confidence: 1.0,
            };
            PartyCandidate {
                role: LabelKey::Seller,
                source: PartySource::Block,
                name: Some((name.into(), span.clone())),
                address: Vec::new(),
                region: vec![span],
                label_line: None,
            }
        };
        // Two columns on one line: the right one's sum a float's noise above the left one's.
        let parties = [
            party("Weber Gebäudereinigung UG", 3, 308.0),
            party("Jensen & Larsen A/S", 3, 48.0),
            party("Jensen & Larsen A/S", 9, 48.0),
        ];
        let pairings = [
            (0, 0.5715, Some((1, 0.8667)), 1.43821),
            (1, 0.5714, Some((0, 0.8667)), 1.43810),
            (2, 0.5714, Some((0, 0.8667)), 1.43815),
        ];
        // The left column's party; of its candidates, the best sum.
        assert_eq!(
            best_pairing(&pairings, 0.48, &parties).map(|p| p.0),
            Some(2)
        );
        // Sellers under the fill threshold take no part in the tie: the best sum stands.
        assert_eq!(best_pairing(&pairings, 0.6, &parties).map(|p| p.0), Some(0));
        // A clear margin is no tie.
        let pairings = [pairings[0], (1, 0.50, Some((0, 0.8667)), 1.3667)];
        assert_eq!(
            best_pairing(&pairings, 0.48, &parties).map(|p| p.0),
            Some(0)
        );
    }

    #[test]
    fn known_labels_name_the_parties_over_the_models_seller() {
        // `Užsakovas:` (the customer) over the left block, `Paslaugų teikėjas:` (the provider)
        // over the right one, the provider's letterhead at the top right; the scan read `IĮ` as
        // `I!`.
        let rows = [
            ("UAB", 518.0, 36.0, 14.0),
            ("\"Baldai Plus\"", 447.0, 50.0, 14.0),
            ("Savanorių pr. 39, LT-76001 Šiauliai", 400.0, 72.0, 11.0),
            ("PVM mok. kodas LT860763486971", 400.0, 83.0, 11.0),
            ("PVM sąskaita-faktūra", 51.0, 105.0, 18.0),
            ("Numeris: S009403", 338.0, 134.0, 11.0),
            ("Sąskaitos data: 2024-05-03", 338.0, 147.0, 11.0),
            ("Užsakovas:", 49.0, 183.0, 11.0),
            ("Paslaugų teikėjas:", 300.0, 183.0, 11.0),
            ("I! \"Statyba", 46.0, 196.0, 12.0),
            ("UAB", 300.0, 196.0, 12.0),
            ("Kazlauskas\"", 49.0, 210.0, 12.0),
            ("\"Baldai Plus\"", 300.0, 210.0, 12.0),
            ("Laisvės al. 152", 50.0, 224.0, 11.0),
            ("Savanorių pr. 39", 300.0, 224.0, 11.0),
            ("LT-44240 Kaunas", 49.0, 236.0, 11.0),
            ("LT-76001 Šiauliai", 300.0, 236.0, 11.0),
            ("PVM kodas LT624526474010", 48.0, 247.0, 11.0),
            ("PVM mok. kodas LT860763486971", 300.0, 247.0, 11.0),
            ("Tel: +34 765 314 523", 49.0, 258.0, 11.0),
            ("Pavadinimas Kiekis Kaina Suma", 52.0, 300.0, 11.0),
            ("Konsultavimo paslaugos 0,5 kg 6,59 3,30", 52.0, 316.0, 11.0),
            ("Tarpinė suma: 3,30 EUR", 54.0, 343.0, 11.0),
            ("PVM mokestis 21% 0,69 EUR", 55.0, 356.0, 11.0),
            ("Suma su PVM: 3,99 EUR", 54.0, 369.0, 11.0),
        ];
        let (seller, buyer) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("UAB \"Baldai Plus\""));
        assert_eq!(buyer.as_deref(), Some("I! \"Statyba Kazlauskas\""));
        // Whatever the model scores: with the customer's block the best seller (as a scan's
        // model scores put it), the labels give the pair.
        let d = doc(&rows);
        let cands = candidates::extract(&d);
        let name = |i: usize| cands.parties[i].name.as_ref().map(|n| n.0.clone());
        let customer = (0..cands.parties.len())
            .find(|&i| {
                cands.parties[i].source != PartySource::Labelled
                    && name(i).is_some_and(|n| n.contains("Statyba"))
            })
            .expect("the customer's block");
        let sellers: Vec<(usize, f32)> = (0..cands.parties.len())
            .map(|i| (i, if i == customer { 0.99 } else { 0.86 }))
            .collect();
        let ((s, _), b) = known_label_pair(&d, &cands, &sellers, customer).expect("labelled pair");
        assert_eq!(name(s).as_deref(), Some("UAB \"Baldai Plus\""));
        assert_eq!(cands.parties[b].role, LabelKey::Buyer);
        assert!(same_party(&cands.parties[b], &cands.parties[customer]));
        // A seller no known buyer label heads keeps its place.
        let provider = s;
        assert!(known_label_pair(&d, &cands, &sellers, provider).is_none());
    }

    #[test]
    fn the_party_the_footer_names_is_the_seller() {
        // A buyer's block at the top of a letter whose sender prints itself only in the footer.
        let top = [
            ("Byrne Hardware Ltd", 48.0, 56.0, 10.0),
            ("Unit 175, Ballymount Business Park", 48.0, 68.0, 10.0),
            ("Cork T12 RX7E", 48.0, 80.0, 10.0),
            ("VAT Reg. No. IE5880684K", 48.0, 93.0, 8.0),
            ("VAT INVOICE", 425.0, 120.0, 17.0),
            ("Mavozu: 20107627", 337.0, 148.0, 9.0),
            (
                "Consulting services 12 pcs 303.94 3,647.28",
                51.0,
                210.0,
                8.5,
            ),
            ("Dize: 3,647.28 USD", 313.0, 343.0, 10.0),
        ];
        let footer = (
            "Alpha Fuels Limited · Unit 160, Ballymount Business Park · Limerick V94 T9PX · VAT Reg. No. IE3680104E",
            112.0,
            796.0,
            7.0,
        );
        let mut rows = top.to_vec();
        rows.push(footer);
        let (seller, buyer) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("Alpha Fuels Limited"));
        assert_eq!(buyer.as_deref(), Some("Byrne Hardware Ltd"));
        // Captions over the signatures in the foot are no second party there.
        let mut captioned = top.to_vec();
        captioned.push(("Väljastas", 60.0, 770.0, 9.0));
        captioned.push(("Võttis vastu", 330.0, 770.0, 9.0));
        captioned.push(footer);
        assert_eq!(chosen(&captioned).0.as_deref(), Some("Alpha Fuels Limited"));
        // Without the footer, the block at the top is the seller.
        assert_eq!(chosen(&top).0.as_deref(), Some("Byrne Hardware Ltd"));
        // A footer that names both parties (signatures) decides nothing.
        let mut rows = top.to_vec();
        rows.push(footer);
        rows.push((
            "Byrne Hardware Ltd · Unit 175, Ballymount Business Park · Cork T12 RX7E",
            112.0,
            806.0,
            7.0,
        ));
        assert_eq!(chosen(&rows).0.as_deref(), Some("Byrne Hardware Ltd"));
    }

    #[test]
    fn with_no_seller_above_the_footers_register_line_names_it() {
        // A labelled buyer at the top; the issuer prints itself only in the footer.
        let rows = [
            ("Afnemer:", 48.0, 56.0, 10.0),
            ("Delta Informatica CommV", 48.0, 68.0, 10.0),
            ("Brusselsesteenweg 17", 48.0, 80.0, 10.0),
            ("9000 Gent", 48.0, 92.0, 10.0),
            ("Ondernemingsnr. BE0251373322", 48.0, 104.0, 9.0),
            ("Verkoopfactuur", 300.0, 130.0, 17.0),
            ("Advies 3 uur 42,83 6% 128,49", 51.0, 210.0, 8.5),
            ("Eindtotaal: 128,49 EUR", 313.0, 343.0, 10.0),
            (
                "Jacobs Transport CommV · Brusselsesteenweg 80 · 3000 Leuven · BTW BE0443450247",
                112.0,
                796.0,
                7.0,
            ),
        ];
        let (seller, buyer) = chosen(&rows);
        assert_eq!(seller.as_deref(), Some("Jacobs Transport CommV"));
        assert_eq!(buyer.as_deref(), Some("Delta Informatica CommV"));
        // Where the model scores no seller high enough, the register line's company still
        // names it, whatever its probability.
        let register = |rows: &[(&str, f32, f32, f32)]| {
            let d = doc(rows);
            let cands = candidates::extract(&d);
            let ctx = PartyContext::new(&d, &cands);
            let sellers: Vec<(usize, f32)> = (0..cands.parties.len())
                .filter(|&i| cands.parties[i].name.is_some())
                .map(|i| (i, 0.0))
                .collect();
            register_seller(&ctx, &cands, &sellers)
                .and_then(|(i, _)| cands.parties[i].name.clone())
                .map(|n| n.0)
        };
        assert_eq!(register(&rows).as_deref(), Some("Jacobs Transport CommV"));
        // A footer that names two companies names no seller.
        let mut two = rows.to_vec();
        two.push((
            "Delta Informatica CommV · Brusselsesteenweg 17 · 9000 Gent · BTW BE0251373322",
            112.0,
            806.0,
            7.0,
        ));
        assert_eq!(register(&two), None);
        // A name whose legal form OCR lost still names the seller where its register line
        // prints a tax id; without the id it is no company's line.
        let mut formless = rows.to_vec();
        formless[8].0 = "Jacobs Transport · Brusselsesteenweg 80 · 3000 Leuven · BTW BE0443450247";
        assert_eq!(register(&formless).as_deref(), Some("Jacobs Transport"));
        formless[8].0 = "Jacobs Transport · Brusselsesteenweg 80 · 3000 Leuven";
        assert_eq!(register(&formless), None);
    }

    #[test]
    fn a_misread_tax_id_takes_its_reading_that_passes_the_checksum() {
        let rows = |footer_id: &'static str| {
            vec![
                ("Fernández Informática S.L.U.", 48.0, 40.0, 14.0),
                ("Polígono Industrial Sur, nave 121", 48.0, 58.0, 10.0),
                ("08007 Barcelona", 48.0, 70.0, 10.0),
                ("CIF ESR89117978", 48.0, 82.0, 10.0),
                ("Factura", 400.0, 40.0, 17.0),
                ("Total: 1.000,00 EUR", 300.0, 400.0, 10.0),
                (footer_id, 60.0, 800.0, 7.0),
            ]
        };
        let reread = |rows: &[(&str, f32, f32, f32)]| {
            let d = doc(rows);
            let cands = candidates::extract(&d);
            let mut ctx = Ctx {
                doc: &d,
                result: DocumentResult::empty(),
            };
            let mut p = Party {
                vat_id: Some("ESR89117978".into()),
                ..Party::default()
            };
            reread_ids(&mut ctx, "seller", &mut p, &cands, None);
            p.vat_id
        };
        assert_eq!(
            reread(&rows("Fernández Informática S.L.U. · CIF ESR8911797B")).as_deref(),
            Some("ESR8911797B")
        );
        // Another valid id two characters away is another party's.
        assert_eq!(
            reread(&rows("Fernández Informática S.L.U. · CIF ESQ2818002D")).as_deref(),
            Some("ESR89117978")
        );
    }

    #[test]
    fn a_name_alone_at_the_top_takes_the_address_of_the_footer_register_line() {
        let d = doc(&[
            ("Consulenze Marino S.a.s.", 48.0, 40.0, 18.0),
            ("Impianti Elettrici Bianchi S.n.c.", 48.0, 92.0, 10.0),
            ("Via Roma 12", 48.0, 104.0, 10.0),
            ("20121 Milano (MI)", 48.0, 116.0, 10.0),
            ("Fattura n. 2026/118", 340.0, 160.0, 10.0),
            ("Totale:  EUR 2348,82", 313.0, 357.0, 10.0),
            (
                "Corso Italia 176 · 80133 Napoli (NA) · P.IVA IT01234567897",
                173.0,
                760.0,
                7.0,
            ),
        ]);
        let cands = candidates::extract(&d);
        let mut ctx = Ctx {
            doc: &d,
            result: DocumentResult::empty(),
        };
        party_fields(
            &mut ctx,
            &cands,
            Some(PartyModel::embedded().expect("model")),
        );
        let seller = ctx.result.parties.seller;
        assert_eq!(seller.name.as_deref(), Some("Consulenze Marino S.a.s."));
        assert_eq!(
            seller.address.as_deref(),
            Some("Corso Italia 176, 80133 Napoli (NA)")
        );
    }

    #[test]
    fn rules_never_choose_a_plain_block() {
        let d = doc(&[
            ("Some Block Name", 300.0, 400.0, 10.0),
            ("Other words here", 300.0, 412.0, 10.0),
        ]);
        let cands = candidates::extract(&d);
        let (s, b) = rule_picks(&cands.parties);
        for i in s.into_iter().chain(b) {
            assert_ne!(cands.parties[i].source, PartySource::Block);
        }
    }
}
