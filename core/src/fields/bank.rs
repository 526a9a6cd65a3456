//! Bank accounts: IBANs with their BIC and bank name.

use super::{Ctx, clean_name};
use crate::candidates::labels::LabelKey;
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::result::{BankAccount, PartyRole};
use crate::types::Span;

pub(super) fn bank_accounts(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    let mut seen: Vec<String> = Vec::new();
    let ibans: Vec<&Candidate> = cands.of(CandidateKind::Iban).collect();
    for c in &ibans {
        let labelled = cands.line_has(c.span.line, LabelKey::Iban);
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
