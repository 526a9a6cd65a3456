//! Field extraction: chooses among candidates and fills the Result.
//!
//! Every candidate gets its features from one function ([`features::candidate_features`]); the
//! choice goes through the [`FieldScorer`] seam: [`RuleScorer`] today, a learned model later.
//! Totals are chosen jointly: among the best net / VAT / total candidates the combination with
//! `net + vat = total` wins. Unknown values stay `None`.

pub mod features;
pub mod model;
pub mod receipt;
pub mod trees;
pub mod vector;

use crate::candidates::labels::{self, LabelKey};
use crate::candidates::parties::{self, PartyCandidate, PartySource};
use crate::candidates::tables::{self, TableLayout};
use crate::candidates::{Candidate, CandidateKind, Candidates, DocStyle, amounts};
use crate::result::{BankAccount, DocumentResult, LineItem, Party, PartyRole, Signatory, TaxLine};
use crate::types::{CleanDocument, Span};
pub use features::{CandidateFeatures, Field, FieldScorer, MIN_SCORE, RuleScorer};
use rust_decimal::Decimal;
use std::collections::BTreeMap;

struct Ctx<'a> {
    doc: &'a CleanDocument,
    result: DocumentResult,
}

impl Ctx<'_> {
    fn put(&mut self, pointer: &str, conf: f32, span: &Span) {
        self.result.confidence.fields.insert(
            pointer.to_string(),
            (conf.clamp(0.0, 1.0) as f64 * 1000.0).round() / 1000.0,
        );
        if let Some(ev) = span.evidence(self.doc) {
            self.result.evidence.insert(pointer.to_string(), ev);
        }
    }
}

/// Scored candidates of one field, best first.
fn ranked(
    feats: &[(usize, CandidateFeatures)],
    scorer: &dyn FieldScorer,
    field: Field,
) -> Vec<(f32, usize)> {
    let refs: Vec<&CandidateFeatures> = feats.iter().map(|(_, f)| f).collect();
    let scores = scorer.score_batch(field, &refs);
    let min = scorer.fill_threshold(field);
    let mut v: Vec<(f32, usize)> = scores
        .into_iter()
        .zip(feats.iter().map(|(i, _)| *i))
        .filter(|(s, _)| *s >= min)
        .collect();
    // Stable: ties keep document order.
    v.sort_by(|a, b| b.0.total_cmp(&a.0));
    v
}

/// Confidence added to net, VAT and total when they add up.
const CONSISTENCY_BONUS: f32 = 0.15;

/// A scored amount candidate: (score, candidate index, value).
type Scored = (f32, usize, Decimal);

fn max_amount(cands: &Candidates) -> Decimal {
    cands
        .of(CandidateKind::Amount)
        .filter(|c| c.decimals > 0 && c.scheme.is_none())
        .filter_map(dec)
        .max()
        .unwrap_or(Decimal::ZERO)
}

fn dec(c: &Candidate) -> Option<Decimal> {
    c.value.parse().ok()
}

/// Fills the fields of a Result (not document_type / validation) from the candidates.
pub fn extract(
    doc: &CleanDocument,
    cands: &Candidates,
    scorer: &dyn FieldScorer,
) -> DocumentResult {
    let mut ctx = Ctx {
        doc,
        result: DocumentResult::empty(),
    };
    if doc.lines.is_empty() {
        return ctx.result;
    }
    let fctx = features::FeatureContext::new(doc, cands);
    let feats: Vec<(usize, CandidateFeatures)> = (0..cands.items.len())
        .filter_map(|i| features::candidate_features(&fctx, cands, i).map(|f| (i, f)))
        .collect();
    let item = |i: usize| cands.items.get(i);

    // Number, dates.
    let best = |field: Field| ranked(&feats, scorer, field).into_iter().next();
    if let Some((s, i)) = best(Field::Number)
        && let Some(c) = item(i)
    {
        ctx.result.document.number = Some(c.value.clone());
        ctx.put("/document/number", s, &c.span);
    }
    let date = best(Field::Date);
    if let Some((s, i)) = date
        && let Some(c) = item(i)
    {
        ctx.result.document.date = Some(c.value.clone());
        ctx.put("/document/date", s, &c.span);
    }
    if let Some((s, i)) = best(Field::DueDate)
        && let Some(c) = item(i)
        && Some(i) != date.map(|d| d.1)
    {
        ctx.result.document.due_date = Some(c.value.clone());
        ctx.put("/document/due_date", s, &c.span);
    }

    totals(&mut ctx, &feats, cands, scorer);
    taxes(&mut ctx, cands, &fctx);
    title_language_currency(&mut ctx, cands);
    party_fields(&mut ctx, cands);
    bank_accounts(&mut ctx, cands);
    line_items(&mut ctx);
    signatories_and_extras(&mut ctx, cands);
    receipt::refine(doc, &mut ctx.result);

    ctx.result.confidence.overall = overall_confidence(&ctx.result.confidence.fields);
    ctx.result
}

/// The overall confidence of a result from its fields' confidences: the mean over the key
/// fields (number, date, total, seller name; a missing one counts 0), to three decimals.
pub(crate) fn overall_confidence(fields: &BTreeMap<String, f64>) -> f64 {
    let keys = [
        "/document/number",
        "/document/date",
        "/totals/total",
        "/parties/seller/name",
    ];
    let sum: f64 = keys
        .iter()
        .map(|k| fields.get(*k).copied().unwrap_or(0.0))
        .sum();
    (sum / keys.len() as f64 * 1000.0).round() / 1000.0
}

fn totals(
    ctx: &mut Ctx<'_>,
    feats: &[(usize, CandidateFeatures)],
    cands: &Candidates,
    scorer: &dyn FieldScorer,
) {
    let top = |field: Field| -> Vec<(f32, usize, Decimal)> {
        ranked(feats, scorer, field)
            .into_iter()
            .filter_map(|(s, i)| cands.items.get(i).and_then(dec).map(|d| (s, i, d)))
            .take(6)
            .collect()
    };
    let (nets, vats, tots, pays) = (
        top(Field::Net),
        top(Field::Vat),
        top(Field::Total),
        top(Field::Payable),
    );
    let mut net = nets.first().copied();
    let mut vat = vats.first().copied();
    let mut total = tots.first().copied();
    let mut vat_value: Option<(f32, Decimal, Option<usize>)> = vat.map(|v| (v.0, v.2, Some(v.1)));
    // Joint choice: net + vat = total, with a positive net and a VAT below it (no VAT rate
    // reaches 100 %): `0 + 5 = 5` or `VAT = total` is no arithmetic support. Adding up earns a
    // total CONSISTENCY_BONUS, so a total scored more than that below the best one cannot win
    // through arithmetic (on a receipt, `change + total = cash` adds up too).
    let total_floor = tots.first().map_or(0.0, |t| t.0 - CONSISTENCY_BONUS);
    let mut best: Option<(f32, Scored, Scored, Scored)> = None;
    for n in &nets {
        for v in &vats {
            for t in tots.iter().filter(|t| t.0 >= total_floor) {
                let plausible = n.2 > Decimal::ZERO && v.2 >= Decimal::ZERO && v.2 < n.2;
                if plausible && n.1 != t.1 && n.2 + v.2 == t.2 {
                    let s = n.0 + v.0 + t.0;
                    if best.is_none_or(|b| s > b.0) {
                        best = Some((s, *n, *v, *t));
                    }
                }
            }
        }
    }
    let mut consistent = false;
    if let Some((_, n, v, t)) = best {
        net = Some(n);
        vat = Some(v);
        total = Some(t);
        vat_value = Some((v.0, v.2, Some(v.1)));
        consistent = true;
    } else {
        // Several VAT lines (one per rate): total - net equals their sum.
        'outer: for n in &nets {
            for t in tots.iter().filter(|t| t.0 >= total_floor) {
                let diff = t.2 - n.2;
                if diff <= Decimal::ZERO || diff >= n.2 {
                    continue;
                }
                let sum: Decimal = vats
                    .iter()
                    .filter(|v| v.1 != n.1 && v.1 != t.1)
                    .map(|v| v.2)
                    .sum();
                let sum_distinct: Decimal = {
                    let mut seen: Vec<Decimal> = Vec::new();
                    for v in vats.iter().filter(|v| v.1 != n.1 && v.1 != t.1) {
                        if !seen.contains(&v.2) {
                            seen.push(v.2);
                        }
                    }
                    seen.iter().copied().sum()
                };
                if sum == diff || sum_distinct == diff {
                    net = Some(*n);
                    total = Some(*t);
                    let conf = vats.iter().map(|v| v.0).fold(0.0, f32::max);
                    vat_value = Some((conf, diff, vats.first().map(|v| v.1)));
                    consistent = true;
                    break 'outer;
                }
            }
        }
    }
    // `NET TOTAL` printed last, below the VAT lines, as the largest amount: the final total of a
    // receipt, not a net amount.
    if total.is_none()
        && let Some(n) = net
        && let Some(nc) = cands.items.get(n.1)
        && n.2 >= max_amount(cands)
        && vats.iter().any(|v| {
            cands
                .items
                .get(v.1)
                .is_some_and(|vc| vc.span.line < nc.span.line)
        })
    {
        total = Some(n);
        net = None;
    }
    let bonus = if consistent { CONSISTENCY_BONUS } else { 0.0 };
    if !consistent {
        // Without arithmetic support, keep VAT only when it is plausible against the total.
        if let (Some(v), Some(t)) = (vat_value, total)
            && v.1 >= t.2
        {
            vat_value = None;
        }
        if let (Some(n), Some(t)) = (net, total)
            && n.2 > t.2
        {
            net = None;
        }
    }
    if let Some((s, i, d)) = total
        && let Some(c) = cands.items.get(i)
    {
        ctx.result.totals.total = Some(d.to_string());
        ctx.put("/totals/total", s + bonus, &c.span);
    }
    if let Some((s, i, d)) = net
        && let Some(c) = cands.items.get(i)
    {
        ctx.result.totals.net = Some(d.to_string());
        ctx.put("/totals/net", s + bonus, &c.span);
    }
    if let Some((s, d, i)) = vat_value {
        ctx.result.totals.vat = Some(d.to_string());
        if let Some(c) = i.and_then(|i| cands.items.get(i)) {
            ctx.put("/totals/vat", s + bonus, &c.span);
        }
    }
    let _ = vat;
    if let Some((s, i, d)) = pays.first().copied()
        && let Some(c) = cands.items.get(i)
    {
        ctx.result.totals.payable = Some(d.to_string());
        ctx.put("/totals/payable", s, &c.span);
    }
    for (field, ptr) in [
        (Field::Discount, "/totals/discount"),
        (Field::Prepaid, "/totals/prepaid"),
    ] {
        if let Some((s, i, d)) = top(field).first().copied()
            && let Some(c) = cands.items.get(i)
        {
            let d = d.abs();
            if field == Field::Discount {
                ctx.result.totals.discount = Some(d.to_string());
            } else {
                ctx.result.totals.prepaid = Some(d.to_string());
            }
            ctx.put(ptr, s, &c.span);
        }
    }
}

/// VAT summary lines: a VAT label and a percentage with one or two amounts.
fn taxes(ctx: &mut Ctx<'_>, cands: &Candidates, fctx: &features::FeatureContext<'_>) {
    let mut out: Vec<TaxLine> = Vec::new();
    for (li, hits) in fctx.line_labels.iter().enumerate() {
        if !hits.iter().any(|h| h.key == LabelKey::Vat)
            || fctx.table_lines.get(li).copied().unwrap_or(false)
        {
            continue;
        }
        let on_line: Vec<&Candidate> = cands
            .of(CandidateKind::Amount)
            .filter(|c| c.span.line == li)
            .collect();
        let Some(rate) = on_line
            .iter()
            .find(|c| c.scheme.as_deref() == Some("percent"))
        else {
            continue;
        };
        let vals: Vec<Decimal> = on_line
            .iter()
            .filter(|c| {
                c.scheme.is_none() && c.span.start > rate.span.start
                    || c.scheme.is_none() && c.decimals == 2
            })
            .filter_map(|c| dec(c))
            .collect();
        let (base, amount) = match vals.as_slice() {
            [a] => (None, Some(*a)),
            [a, b, ..] => {
                let (lo, hi) = if a <= b { (*a, *b) } else { (*b, *a) };
                (Some(hi), Some(lo))
            }
            [] => continue,
        };
        let t = TaxLine {
            rate: dec(rate).map(|d| d.normalize().to_string()),
            base: base.map(|d| d.to_string()),
            amount: amount.map(|d| d.to_string()),
        };
        if !out.contains(&t) {
            let idx = out.len();
            ctx.put(&format!("/taxes/{idx}/rate"), 0.6, &rate.span);
            out.push(t);
        }
    }
    ctx.result.taxes = out;
}

const STOP_WORDS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "the", "and", "of", "to", "invoice", "total", "date", "for", "with", "please",
            "amount", "thank", "you", "price", "qty",
        ],
    ),
    (
        "de",
        &[
            "und", "der", "die", "das", "rechnung", "datum", "mit", "für", "von", "bitte",
            "betrag", "summe", "zahlbar", "menge", "gesamt", "ust", "mwst",
        ],
    ),
    (
        "fr",
        &[
            "le",
            "la",
            "les",
            "et",
            "de",
            "des",
            "facture",
            "pour",
            "du",
            "montant",
            "total",
            "date",
            "prix",
            "quantité",
            "tva",
        ],
    ),
    (
        "pl",
        &[
            "i",
            "w",
            "na",
            "z",
            "do",
            "faktura",
            "nabywca",
            "sprzedawca",
            "razem",
            "zapłaty",
            "data",
            "ilość",
            "cena",
            "wartość",
        ],
    ),
];

fn language(doc: &CleanDocument) -> Option<&'static str> {
    let text = doc.plain_text();
    let (mut cyr, mut uk, mut ru) = (0usize, 0usize, 0usize);
    for ch in text.chars() {
        let lc = ch.to_lowercase().next().unwrap_or(ch);
        if ('а'..='я').contains(&lc) || "іїєґё".contains(lc) {
            cyr += 1;
        }
        if "іїєґ".contains(lc) {
            uk += 1;
        }
        if "ыэъё".contains(lc) {
            ru += 1;
        }
    }
    let latin = text.chars().filter(char::is_ascii_alphabetic).count();
    if cyr > latin {
        return Some(if uk >= ru { "uk" } else { "ru" });
    }
    let words = labels::norm_words(&text);
    let mut best: Option<(&str, usize)> = None;
    for (lang, list) in STOP_WORDS {
        let n = words
            .iter()
            .filter(|w| list.contains(&w.text.as_str()))
            .count();
        if n > 0 && best.is_none_or(|(_, b)| n > b) {
            best = Some((lang, n));
        }
    }
    best.map(|(l, _)| l)
}

fn title_language_currency(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    // Title: the first title word in the top 40% of the first page.
    if let Some(first) = doc.pages.first() {
        'found: for l in doc
            .lines
            .iter()
            .filter(|l| l.page == first.page && l.bbox.y0 < first.height * 0.4)
        {
            for h in labels::find_labels_where(&l.text, |k| k == LabelKey::Title) {
                if h.key == LabelKey::Title && (h.word == 0 || l.text[..h.start].ends_with("  ")) {
                    let span = Span::from_line(l, h.start, h.end);
                    ctx.result.document.title = Some(span.text.clone());
                    ctx.put("/document/title", 0.7, &span);
                    break 'found;
                }
            }
        }
    }
    let lang = language(doc);
    ctx.result.document.language = lang.map(str::to_string);
    // Currency: explicit codes/symbols by frequency (amount-attached ones count double).
    let mut counts: BTreeMap<String, (u32, Option<Span>)> = BTreeMap::new();
    for c in cands.of(CandidateKind::Currency) {
        let e = counts.entry(c.value.clone()).or_insert((0, None));
        e.0 += 1;
        e.1.get_or_insert_with(|| c.span.clone());
    }
    for c in cands.of(CandidateKind::Amount) {
        if let Some(cur) = &c.currency {
            counts.entry(cur.clone()).or_insert((0, None)).0 += 1;
        }
    }
    let best = counts.into_iter().max_by_key(|(_, (n, _))| *n);
    if let Some((iso, (_, span))) = best {
        ctx.result.document.currency = Some(iso);
        if let Some(s) = span {
            ctx.put("/document/currency", 0.9, &s);
        }
        return;
    }
    // Hints: IBAN / VAT id country, then language.
    let country = cands
        .items
        .iter()
        .filter(|c| matches!(c.kind, CandidateKind::Iban) || c.scheme.as_deref() == Some("EU_VAT"))
        .find_map(|c| c.value.get(..2).map(str::to_string));
    let by_country = country.as_deref().and_then(|c| match c {
        "DE" | "FR" | "AT" | "IT" | "ES" | "NL" | "BE" | "LU" | "IE" | "FI" | "PT" | "SK"
        | "SI" | "EE" | "LV" | "LT" | "GR" | "EL" => Some("EUR"),
        "PL" => Some("PLN"),
        "UA" => Some("UAH"),
        "GB" => Some("GBP"),
        "CH" => Some("CHF"),
        _ => None,
    });
    let malaysian = cands
        .items
        .iter()
        .any(|c| c.scheme.as_deref().is_some_and(|s| s.starts_with("MY_")));
    let hint = by_country
        .or(if malaysian { Some("MYR") } else { None })
        .or(match lang {
            Some("de" | "fr") => Some("EUR"),
            Some("pl") => Some("PLN"),
            Some("uk") => Some("UAH"),
            Some("ru") => Some("RUB"),
            _ => None,
        });
    if let Some(h) = hint {
        ctx.result.document.currency = Some(h.to_string());
        ctx.result
            .confidence
            .fields
            .insert("/document/currency".into(), 0.4);
    }
}

fn clean_name(s: &str) -> String {
    s.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '·'))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

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
    let company = c
        .name
        .as_ref()
        .is_some_and(|(n, _)| parties::is_company_like(n));
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

fn party_fields(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    let all = parties::find(doc);
    let seller_c = best_party(&all, LabelKey::Seller, None);
    let buyer_c = best_party(&all, LabelKey::Buyer, seller_c);
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
        let line_text = doc.lines.get(c.span.line).map_or("", |l| l.text.as_str());
        if labels::find_labels(line_text)
            .iter()
            .any(|h| h.key == LabelKey::Buyer)
        {
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

fn bank_accounts(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    let mut seen: Vec<String> = Vec::new();
    let ibans: Vec<&Candidate> = cands.of(CandidateKind::Iban).collect();
    for c in &ibans {
        let labelled = doc
            .lines
            .get(c.span.line)
            .is_some_and(|l| labels::has_label(&l.text, LabelKey::Iban));
        if seen.contains(&c.value) || c.checksum_valid != Some(true) && !labelled {
            continue;
        }
        seen.push(c.value.clone());
        let idx = ctx.result.bank_accounts.len();
        let mut acc = BankAccount {
            iban: Some(c.value.clone()),
            party: Some(PartyRole::Seller),
            ..BankAccount::default()
        };
        let conf = if c.checksum_valid == Some(true) {
            0.95
        } else {
            0.5
        };
        ctx.put(&format!("/bank_accounts/{idx}/iban"), conf, &c.span);
        // BIC: same line or within three lines.
        if let Some(b) = cands
            .of(CandidateKind::Bic)
            .filter(|b| b.span.page == c.span.page && b.span.line.abs_diff(c.span.line) <= 3)
            .min_by_key(|b| b.span.line.abs_diff(c.span.line))
        {
            acc.swift_bic = Some(b.value.clone());
            ctx.put(&format!("/bank_accounts/{idx}/swift_bic"), 0.8, &b.span);
        }
        // Bank name: a `Bank:` label line near the IBAN.
        for l in doc
            .lines
            .iter()
            .filter(|l| l.page == c.span.page && l.index.abs_diff(c.span.line) <= 3)
        {
            let hits = labels::find_labels(&l.text);
            if let Some(h) = hits.iter().find(|h| h.key == LabelKey::Bank) {
                let rest_start = l.text[h.end..]
                    .find(|ch: char| ch.is_alphabetic())
                    .map(|p| h.end + p);
                if let Some(rs) = rest_start {
                    let end = l.text[rs..].find("  ").map_or(l.text.len(), |p| rs + p);
                    let name = clean_name(&l.text[rs..end]);
                    let has_ids = labels::find_labels(&name)
                        .iter()
                        .any(|x| matches!(x.key, LabelKey::Iban | LabelKey::Bic));
                    if name.chars().filter(|c| c.is_alphabetic()).count() >= 3 && !has_ids {
                        acc.bank_name = Some(name);
                        ctx.put(
                            &format!("/bank_accounts/{idx}/bank_name"),
                            0.6,
                            &Span::from_line(l, rs, end),
                        );
                        break;
                    }
                }
            }
        }
        ctx.result.bank_accounts.push(acc);
    }
}

fn parse_amount(text: &str, hint: Option<char>) -> Option<(Decimal, bool)> {
    let a = amounts::find_amounts(text, hint, &[]);
    a.first().map(|a| (a.value, a.percent))
}

fn line_items(ctx: &mut Ctx<'_>) {
    let doc = ctx.doc;
    let style = DocStyle::detect(doc);
    let layouts: Vec<TableLayout> = tables::find_tables(doc);
    let mut items: Vec<(LineItem, Vec<(String, Span)>)> = Vec::new();
    for t in &layouts {
        for r in &t.rows {
            let mut it = LineItem::default();
            let mut ev: Vec<(String, Span)> = Vec::new();
            let mut qty_unit: Option<String> = None;
            for cell in &r.cells {
                let num = || parse_amount(&cell.text, style.decimal).map(|(d, _)| d.to_string());
                if cell.key == LabelKey::ColPos {
                    it.position = cell.text.trim_end_matches('.').parse().ok();
                    continue;
                }
                let v = match cell.key {
                    LabelKey::ColDesc | LabelKey::ColSku | LabelKey::ColUnit => {
                        Some(cell.text.clone())
                    }
                    LabelKey::ColQty => {
                        // `20 Stk`: quantity and unit in one cell.
                        let q = num();
                        let unit: String = cell
                            .text
                            .split_whitespace()
                            .filter(|w| w.chars().all(char::is_alphabetic))
                            .collect::<Vec<_>>()
                            .join(" ");
                        if q.is_some() && !unit.is_empty() {
                            qty_unit = Some(unit);
                        }
                        q
                    }
                    _ => num(),
                };
                let Some(v) = v else { continue };
                let (slot, name): (&mut Option<String>, &str) = match cell.key {
                    LabelKey::ColDesc => (&mut it.description, "description"),
                    LabelKey::ColSku => (&mut it.sku, "sku"),
                    LabelKey::ColUnit => (&mut it.unit, "unit"),
                    LabelKey::ColQty => (&mut it.quantity, "quantity"),
                    LabelKey::ColUnitPrice => (&mut it.unit_price, "unit_price"),
                    LabelKey::ColVatRate => (&mut it.vat_rate, "vat_rate"),
                    LabelKey::ColVatAmount => (&mut it.vat_amount, "vat_amount"),
                    LabelKey::ColAmount => (&mut it.amount, "amount"),
                    LabelKey::ColAmountGross => (&mut it.amount_with_vat, "amount_with_vat"),
                    _ => continue,
                };
                *slot = Some(v);
                ev.push((name.to_string(), cell.span.clone()));
            }
            if it.unit.is_none() {
                it.unit = qty_unit;
            }
            if it.amount.is_some() || it.amount_with_vat.is_some() || it.unit_price.is_some() {
                items.push((it, ev));
            }
        }
    }
    for (idx, (it, ev)) in items.into_iter().enumerate() {
        for (name, span) in ev {
            if !span.text.is_empty() {
                ctx.put(&format!("/line_items/{idx}/{name}"), 0.7, &span);
            }
        }
        ctx.result.line_items.push(it);
    }
}

fn signatories_and_extras(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    let style = DocStyle::detect(doc);
    for l in &doc.lines {
        let hits = labels::find_labels(&l.text);
        for h in &hits {
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
                    if let Some((s, e)) = crate::candidates::number_after(&l.text, h.end) {
                        let v = &l.text[s..e];
                        if crate::candidates::dates::find_dates(v, style.month_first).is_empty() {
                            ctx.result.extra_fields.contract.number = Some(v.to_string());
                            ctx.put(
                                "/extra_fields/contract/number",
                                0.6,
                                &Span::from_line(l, s, e),
                            );
                        }
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
                    if let Some((s, e)) = crate::candidates::number_after(&l.text, h.end) {
                        let v = &l.text[s..e];
                        if crate::candidates::dates::find_dates(v, style.month_first).is_empty() {
                            ctx.result.extra_fields.order_number = Some(v.to_string());
                            ctx.put("/extra_fields/order_number", 0.6, &Span::from_line(l, s, e));
                        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates;
    use crate::clean;
    use crate::types::{BBox, Source, TextPage, Unit, Word};

    fn page(lines: &[(&str, f32, f32)]) -> TextPage {
        let mut words = Vec::new();
        for (text, x, y) in lines {
            let mut x = *x;
            for w in text.split(' ') {
                if w.is_empty() {
                    x += 30.0;
                    continue;
                }
                // `text@x` places a word at an explicit x.
                let (w, at) = match w.split_once('@') {
                    Some((t, x)) => (t, x.parse::<f32>().ok()),
                    None => (w, None),
                };
                if let Some(at) = at {
                    x = at;
                }
                let wdt = w.chars().count() as f32 * 5.0;
                words.push(Word {
                    text: w.into(),
                    bbox: BBox::new(x, *y, x + wdt, y + 10.0),
                    confidence: 1.0,
                });
                x += wdt + 4.0;
            }
        }
        TextPage {
            page: 1,
            width: 600.0,
            height: 800.0,
            unit: Unit::Pt,
            source: Source::TextLayer,
            words,
        }
    }

    fn run(lines: &[(&str, f32, f32)]) -> DocumentResult {
        let doc = clean::clean(&[page(lines)]);
        let c = candidates::extract(&doc);
        extract(&doc, &c, &RuleScorer)
    }

    #[test]
    fn date_of_the_document_not_of_an_order_or_a_version() {
        let r = run(&[
            ("Stylesheet-Version: 2.0 vom 18.10.2018", 40.0, 20.0),
            ("Lieferant GmbH", 40.0, 60.0),
            ("Baurechnung Nr. 181301674 vom 25.04.2018", 40.0, 150.0),
            ("Rechnung gemäß Bestellung vom 01.03.2018.", 40.0, 170.0),
            ("Gesamtbetrag  529,87 EUR", 300.0, 442.0),
        ]);
        assert_eq!(r.document.date.as_deref(), Some("2018-04-25"));
        let r = run(&[
            ("Beitragsrechnung  24. Januar 2014", 40.0, 150.0),
            (
                "Beitrag für den Zeitraum vom 06.12.2013 bis zum 06.12.2014",
                40.0,
                200.0,
            ),
        ]);
        assert_eq!(r.document.date.as_deref(), Some("2014-01-24"));
    }

    #[test]
    fn german_invoice() {
        let r = run(&[
            ("Lieferant GmbH", 40.0, 30.0),
            ("Lieferantenstraße 20", 40.0, 44.0),
            ("80333 München", 40.0, 58.0),
            ("Rechnung Nr. 471102", 40.0, 150.0),
            ("Rechnungsdatum: 05.03.2018", 40.0, 164.0),
            ("Fällig am: 04.04.2018", 40.0, 178.0),
            ("Käufer", 40.0, 200.0),
            ("Kunden AG Mitte", 40.0, 214.0),
            ("Kundenstraße 15", 40.0, 228.0),
            ("69876 Frankfurt", 40.0, 242.0),
            (
                "Pos Beschreibung Menge@250 Einzelpreis@320 Betrag@430",
                40.0,
                300.0,
            ),
            ("1 Trennblätter A4 20@260 9,90@355 198,00@430", 40.0, 314.0),
            ("Nettobetrag  473,00", 300.0, 400.0),
            ("USt 19 %  37,62", 300.0, 414.0),
            ("USt 7 %  19,25", 300.0, 428.0),
            ("Gesamtbetrag  529,87 EUR", 300.0, 442.0),
            (
                "IBAN: DE89 3704 0044 0532 0130 00  BIC: COBADEFFXXX",
                40.0,
                700.0,
            ),
            ("USt-IdNr.: DE123456789", 40.0, 714.0),
            ("Geschäftsführer: Hans Muster", 40.0, 728.0),
        ]);
        assert_eq!(r.document.number.as_deref(), Some("471102"));
        assert_eq!(r.document.date.as_deref(), Some("2018-03-05"));
        assert_eq!(r.document.due_date.as_deref(), Some("2018-04-04"));
        assert_eq!(r.document.currency.as_deref(), Some("EUR"));
        assert_eq!(r.document.language.as_deref(), Some("de"));
        assert_eq!(r.document.title.as_deref(), Some("Rechnung"));
        assert_eq!(r.totals.total.as_deref(), Some("529.87"));
        assert_eq!(r.totals.net.as_deref(), Some("473.00"));
        assert_eq!(r.totals.vat.as_deref(), Some("56.87"));
        assert_eq!(r.parties.seller.name.as_deref(), Some("Lieferant GmbH"));
        assert_eq!(r.parties.seller.vat_id.as_deref(), Some("DE123456789"));
        assert_eq!(r.parties.buyer.name.as_deref(), Some("Kunden AG Mitte"));
        assert_eq!(
            r.parties.buyer.address.as_deref(),
            Some("Kundenstraße 15, 69876 Frankfurt")
        );
        assert_eq!(r.bank_accounts.len(), 1);
        assert_eq!(
            r.bank_accounts[0].iban.as_deref(),
            Some("DE89370400440532013000")
        );
        assert_eq!(r.bank_accounts[0].swift_bic.as_deref(), Some("COBADEFFXXX"));
        assert_eq!(r.line_items.len(), 1);
        assert_eq!(r.line_items[0].amount.as_deref(), Some("198.00"));
        assert_eq!(r.line_items[0].quantity.as_deref(), Some("20"));
        assert_eq!(r.taxes.len(), 2);
        assert_eq!(r.signatories[0].name.as_deref(), Some("Hans Muster"));
        assert!(r.confidence.overall > 0.5);
        let ev = &r.evidence["/totals/total"];
        assert_eq!(ev.page, 1);
        assert!(ev.text.contains("529,87"));
        assert!(r.confidence.fields["/document/number"] > 0.5);
    }

    #[test]
    fn receipt_without_labels_for_seller() {
        let r = run(&[
            ("TAN WOON YANN", 72.0, 25.0),
            ("BOOK TA .K(TAMAN DAYA) SDN BND", 50.0, 45.0),
            ("789417-W", 100.0, 59.0),
            ("NO.53 55,57 & 59, JALAN SAGU 18,", 50.0, 73.0),
            ("DOCUMENT NO : TD01167104", 50.0, 150.0),
            ("DATE: 25/12/2018 8:13:39 PM", 50.0, 164.0),
            ("TOTAL:  9.00", 200.0, 300.0),
            ("ROUNDING ADJUSTMENT:  0.00", 100.0, 314.0),
            ("CASH  10.00", 200.0, 328.0),
            ("CHANGE  1.00", 200.0, 342.0),
        ]);
        assert_eq!(r.totals.total.as_deref(), Some("9.00"));
        assert_eq!(r.document.date.as_deref(), Some("2018-12-25"));
        assert_eq!(
            r.parties.seller.name.as_deref(),
            Some("BOOK TA .K(TAMAN DAYA) SDN BND")
        );
        assert_eq!(
            r.parties.seller.registration_id.as_deref(),
            Some("789417-W")
        );
        assert_eq!(r.document.number.as_deref(), Some("TD01167104"));
    }

    #[test]
    fn document_ocr_confidence_is_a_feature() {
        let mut p = page(&[("Total 12.00", 10.0, 10.0), ("Date 01.02.2024", 10.0, 30.0)]);
        let feats = |p: &TextPage| {
            let doc = clean::clean(std::slice::from_ref(p));
            let c = candidates::extract(&doc);
            let ctx = features::FeatureContext::new(&doc, &c);
            let i = c
                .items
                .iter()
                .position(|x| x.value == "12.00")
                .expect("amount");
            features::candidate_features(&ctx, &c, i).expect("features")
        };
        assert_eq!(feats(&p).doc_ocr_confidence, 1.0);
        for (w, conf) in p.words.iter_mut().zip([0.9, 0.5, 0.3, 0.3]) {
            w.confidence = conf;
        }
        let f = feats(&p);
        assert!((f.doc_ocr_confidence - 0.5).abs() < 1e-6, "{f:?}");
        assert!((f.ocr_confidence - 0.5).abs() < 1e-6, "{f:?}");
    }

    /// Scores by field and line (candidates' relative y), for totals tests.
    struct ByLine(Vec<(Field, usize, f32)>);

    impl FieldScorer for ByLine {
        fn name(&self) -> &str {
            "by-line"
        }
        fn score(&self, field: Field, f: &CandidateFeatures) -> f32 {
            let line = (f.rel_y * 800.0 / 14.0) as usize;
            self.0
                .iter()
                .find(|(g, l, _)| *g == field && *l == line)
                .map_or(0.0, |x| x.2)
        }
    }

    #[test]
    fn a_weak_total_does_not_win_through_arithmetic() {
        // Change + total = cash adds up like net + VAT = total.
        let doc = clean::clean(&[page(&[
            ("Total 6.40", 10.0, 0.0),
            ("Cash 100.00", 10.0, 14.0),
            ("Change 93.60", 10.0, 28.0),
        ])]);
        let c = candidates::extract(&doc);
        let weak = ByLine(vec![
            (Field::Total, 0, 0.95),
            (Field::Total, 1, 0.35),
            (Field::Net, 2, 0.5),
            (Field::Vat, 0, 0.5),
        ]);
        let r = extract(&doc, &c, &weak);
        assert_eq!(r.totals.total.as_deref(), Some("6.40"));
        assert!(r.confidence.fields["/totals/total"] < 0.96);
        // Within the bonus of the best total, adding up still decides.
        let close = ByLine(vec![
            (Field::Total, 0, 0.5),
            (Field::Total, 1, 0.45),
            (Field::Net, 2, 0.5),
            (Field::Vat, 0, 0.5),
        ]);
        let r = extract(&doc, &c, &close);
        assert_eq!(r.totals.total.as_deref(), Some("100.00"));
        assert_eq!(r.totals.net.as_deref(), Some("93.60"));
    }

    /// A scorer with its own fill threshold for the total.
    struct Demanding(ByLine, f32);

    impl FieldScorer for Demanding {
        fn name(&self) -> &str {
            "demanding"
        }
        fn score(&self, field: Field, f: &CandidateFeatures) -> f32 {
            self.0.score(field, f)
        }
        fn fill_threshold(&self, field: Field) -> f32 {
            if field == Field::Total {
                self.1
            } else {
                MIN_SCORE
            }
        }
    }

    #[test]
    fn a_field_is_filled_only_above_its_scorers_threshold() {
        let doc = clean::clean(&[page(&[("Invoice", 10.0, 0.0), ("Amount 6.40", 10.0, 14.0)])]);
        let c = candidates::extract(&doc);
        let scorer = |t| Demanding(ByLine(vec![(Field::Total, 1, 0.4)]), t);
        let r = extract(&doc, &c, &scorer(MIN_SCORE));
        assert_eq!(r.totals.total.as_deref(), Some("6.40"));
        assert_eq!(r.confidence.fields["/totals/total"], 0.4);
        // A right-with-probability-0.4 value costs F1 where the field's F1 is above 0.8.
        let r = extract(&doc, &c, &scorer(0.45));
        assert_eq!(r.totals.total, None);
        assert!(!r.confidence.fields.contains_key("/totals/total"));
    }

    #[test]
    fn a_zero_net_is_no_arithmetic_support() {
        // `0 + 5 = 5` is no support: 5 is not also the VAT, and the total gets no bonus.
        let r = run(&[
            ("Subtotal 0.00", 10.0, 10.0),
            ("Tax 5.00", 10.0, 24.0),
            ("Total 5.00", 10.0, 38.0),
            ("Cash 50.00", 10.0, 52.0),
        ]);
        let f = &r.confidence.fields;
        assert_eq!(r.totals.vat, None, "{f:?}");
        assert!(f["/totals/total"] <= 0.95, "{f:?}");
        // With a real net the same amounts are consistent.
        let r = run(&[
            ("Subtotal 25.00", 10.0, 10.0),
            ("Tax 5.00", 10.0, 24.0),
            ("Total 30.00", 10.0, 38.0),
        ]);
        assert_eq!(r.totals.vat.as_deref(), Some("5.00"));
        assert!(r.confidence.fields["/totals/total"] > 0.95);
    }

    #[test]
    fn unknown_stays_none() {
        let r = run(&[("Hello world", 10.0, 10.0)]);
        assert!(r.document.number.is_none());
        assert!(r.totals.total.is_none());
        assert!(r.document.date.is_none());
        let empty = extract(
            &CleanDocument::default(),
            &Candidates::default(),
            &RuleScorer,
        );
        assert_eq!(empty, DocumentResult::empty());
    }
}
