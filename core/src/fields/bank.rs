//! Bank accounts: IBANs with their BIC and bank name.

use super::choice_model::{ChoiceKind, ChoiceModel, IBAN_ROLES, iban_vectors};
use super::{Ctx, clean_name};
use crate::candidates::labels::LabelKey;
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::result::{BankAccount, PartyRole};
use crate::types::Span;

/// The rules' party of an IBAN: the buyer's when it is printed inside a labelled buyer block
/// or on a line that names the buyer (`Your account`, `Konto des Kunden`, a direct-debit
/// mandate's debtor), else the seller's (the account to pay to).
pub fn rule_owner(cands: &Candidates, c: &Candidate) -> PartyRole {
    let in_buyer_block = cands
        .parties
        .iter()
        .any(|p| p.role == LabelKey::Buyer && p.label_line.is_some() && p.contains(&c.span));
    if in_buyer_block || cands.line_has(c.span.line, LabelKey::Buyer) {
        PartyRole::Buyer
    } else {
        PartyRole::Seller
    }
}

/// The IBANs that become bank accounts, in document order: each account once, with a valid
/// checksum or an IBAN label on its line.
pub fn account_ibans(cands: &Candidates) -> Vec<&Candidate> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for c in cands.of(CandidateKind::Iban) {
        let labelled = cands.line_has(c.span.line, LabelKey::Iban);
        if seen.contains(&c.value.as_str()) || c.checksum_valid != Some(true) && !labelled {
            continue;
        }
        seen.push(&c.value);
        out.push(c);
    }
    out
}

/// The party each account belongs to, chosen by the choice model when it is given (below its
/// fill threshold, and without it, by the rules): run last, as it reads the chosen parties.
pub(super) fn owners(ctx: &mut Ctx<'_>, cands: &Candidates, model: Option<&ChoiceModel>) {
    let Some(m) = model else {
        return;
    };
    let ibans = account_ibans(cands);
    for i in 0..ibans.len().min(ctx.result.bank_accounts.len()) {
        let rule = rule_owner(cands, ibans[i]);
        let rows = iban_vectors(ctx.doc, cands, &ctx.result, &ibans, i, rule);
        if let Some((k, p)) = m.choose(ChoiceKind::IbanOwner, &rows)
            && let Some(role) = IBAN_ROLES.get(k)
        {
            ctx.result.bank_accounts[i].party = Some(*role);
            ctx.confidence(&format!("/bank_accounts/{i}/party"), p);
        }
    }
}

pub(super) fn bank_accounts(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    for c in account_ibans(cands) {
        let idx = ctx.result.bank_accounts.len();
        let mut acc = BankAccount {
            iban: Some(c.value.clone()),
            party: Some(rule_owner(cands, c)),
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
            if let Some(h) = cands
                .labels_of(l.index)
                .iter()
                .find(|h| h.key == LabelKey::Bank)
            {
                let rest_start = l.text[h.end..]
                    .find(|ch: char| ch.is_alphabetic())
                    .map(|p| h.end + p);
                if let Some(rs) = rest_start {
                    let end = l.text[rs..].find("  ").map_or(l.text.len(), |p| rs + p);
                    let name = clean_name(&l.text[rs..end]);
                    let has_ids = cands.labels_of(l.index).iter().any(|x| {
                        x.start >= rs
                            && x.end <= end
                            && matches!(x.key, LabelKey::Iban | LabelKey::Bic)
                    });
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

#[cfg(test)]
mod tests {
    use crate::candidates::extract;
    use crate::candidates::tests::doc_from;
    use crate::fields::{RuleScorer, extract as fields};
    use crate::result::PartyRole;

    #[test]
    fn an_iban_in_the_buyer_block_is_the_buyers() {
        let doc = doc_from(&[
            ("Rechnung Nr. 4711", 10.0, 10.0),
            ("Rechnungsempfänger:", 10.0, 40.0),
            ("Kunde AG", 10.0, 54.0),
            ("IBAN DE02 1203 0000 0000 2020 51", 10.0, 68.0),
            ("Gesamtbetrag 119,00", 10.0, 200.0),
            (
                "Bankverbindung: IBAN DE89 3704 0044 0532 0130 00",
                10.0,
                300.0,
            ),
        ]);
        let r = fields(&doc, &extract(&doc), &RuleScorer);
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
    }
}
