//! Totals (net, VAT, total, payable, discount, prepaid) and the VAT summary lines.

use super::{Ctx, Field, FieldScorer, dec, decimal, ranked};
use crate::candidates::amounts::MoneyPrint;
use crate::candidates::labels::LabelKey;
use crate::candidates::taxes::{RateLine, TaxRow};
use crate::candidates::{Candidate, CandidateKind, Candidates};
use crate::fields::features::CandidateFeatures;
use crate::result::{DocumentResult, TaxLine};
use rust_decimal::Decimal;

/// Confidence added to net, VAT and total when they add up.
const CONSISTENCY_BONUS: f32 = 0.15;

/// A scored amount candidate: (score, candidate index, value).
type Scored = (f32, usize, Decimal);

fn max_amount(cands: &Candidates) -> Decimal {
    cands
        .of(CandidateKind::Amount)
        .filter(|c| c.decimals > 0 && c.scheme.is_none() || cands.is_money(c))
        .filter_map(dec)
        .max()
        .unwrap_or(Decimal::ZERO)
}

/// `value` without the first digit of its whole part (`616558.87` -> `16558.87`), for a value
/// of two whole digits or more.
fn without_first_digit(value: Decimal) -> Option<Decimal> {
    let whole = value.abs().trunc();
    let digits = u32::try_from(whole.to_string().len()).ok()?;
    // Up to 19 whole digits (a power of ten that fits a u64); longer runs are no amount.
    if !(2..=19).contains(&digits) {
        return None;
    }
    let unit = Decimal::from(10u64.pow(digits - 1));
    let rest = value.abs() - (whole / unit).trunc() * unit;
    Some(if value.is_sign_negative() {
        -rest
    } else {
        rest
    })
}

/// Whether two amounts print alike but for one digit (`468993.00` and `458993.00`): the same
/// sign, the same number of digits on each side of the point, one digit other.
fn one_digit_apart(a: Decimal, b: Decimal) -> bool {
    if a.is_sign_negative() != b.is_sign_negative() || a == b {
        return false;
    }
    let (x, y) = (format!("{:.2}", a.abs()), format!("{:.2}", b.abs()));
    x.len() == y.len() && x.chars().zip(y.chars()).filter(|(p, q)| p != q).count() == 1
}

/// The net and VAT of summary rows ([`Candidates::tax_rows`]) that add up to `total` exactly:
/// (sum of the bases, sum of the amounts).
fn rows_explain(rows: &[TaxRow], total: Decimal) -> Option<(Decimal, Decimal)> {
    let base: Decimal = rows.iter().map(|r| r.base.1).sum();
    let vat: Decimal = rows.iter().map(|r| r.amount.1).sum();
    (!rows.is_empty() && base + vat == total).then_some((base, vat))
}

/// The VAT of per-rate lines without bases ([`Candidates::rate_sums`]): two or more lines of
/// distinct rates whose amounts make `diff` (total less net) exactly; (their sum, the first
/// line's amount candidate).
fn rate_lines_explain(cands: &Candidates, diff: Decimal) -> Option<(Decimal, usize)> {
    let sum = cands
        .rate_sums
        .iter()
        .find(|s| s.joined == 0 && s.vat == diff)?;
    Some((sum.vat, cands.rate_lines[sum.lines[0]].amount.0))
}

/// Net and total among all of a document's money amounts that per-rate lines explain (`net +
/// Σ rate amounts = total`), for documents whose scored candidates did not hold them: the net
/// printed above the rate lines, the total below them and not smaller than `floor` (the total
/// the scorer chose), the lowest such total. Returns (net, total, VAT, first rate line's
/// amount candidate).
fn rate_lines_pair(cands: &Candidates, floor: Decimal) -> Option<(usize, usize, Decimal, usize)> {
    rate_lines_among(cands, floor, false).or_else(|| rate_lines_among(cands, floor, true))
}

/// [`rate_lines_pair`] among the money amounts as printed, or also among the readings of
/// amounts that OCR broke with a space ([`Candidates::ocr_amounts`]).
fn rate_lines_among(
    cands: &Candidates,
    floor: Decimal,
    joined: bool,
) -> Option<(usize, usize, Decimal, usize)> {
    let lines = &cands.rate_lines;
    if cands.rate_sums.is_empty() {
        return None;
    }
    // A line of one rate line is no net's or total's; a totals block set on one line (several
    // rate lines on it, or a rate's amount wrapped onto the next line) gives them beside its
    // rates' amounts.
    let on_rate_line = |i: usize, c: &Candidate| {
        let line_of = |k: usize| cands.items[k].span.line;
        let here = lines
            .iter()
            .filter(|l| line_of(l.amount.0) == c.span.line || line_of(l.rate.0) == c.span.line);
        let own = |l: &RateLine| line_of(l.amount.0) == line_of(l.rate.0);
        let count = here.clone().count();
        (count == 1 && here.clone().all(own))
            || (count > 0 && lines.iter().any(|l| l.amount.0 == i || l.rate.0 == i))
    };
    let pos = |c: &Candidate| (c.span.line, c.span.start);
    let line_of = |k: usize| pos(&cands.items[lines[k].amount.0]);
    let ocr = cands.joined_amounts().filter(|_| joined);
    let money: Vec<(usize, &Candidate, Decimal)> = cands
        .items
        .iter()
        .enumerate()
        .filter(|&(i, c)| cands.is_money(c) && !on_rate_line(i, c))
        .chain(ocr.filter(|&(i, c)| !on_rate_line(i, c)))
        .filter_map(|(i, c)| dec(c).map(|d| (i, c, d)))
        .collect();
    let mut best: Option<(usize, (usize, usize, Decimal, usize))> = None;
    for &(ti, tc, t) in &money {
        for &(ni, nc, n) in &money {
            if ni == ti
                || n.is_zero()
                || n.is_sign_negative() != t.is_sign_negative()
                || n.abs() >= t.abs()
            {
                continue;
            }
            // Item amounts above the rate lines can add up by chance (8.62 + 1.50 + 1.04 =
            // 11.16 on a till slip): only net above the rate lines that explain it, total
            // below them, at least the chosen total. (An item row that reads as a rate line
            // elsewhere does not count.)
            if t.abs() < floor.abs() {
                continue;
            }
            let Some(sum) = cands.rate_sums.iter().find(|s| {
                (joined || s.joined == 0)
                    && s.vat == t - n
                    && s.lines
                        .iter()
                        .all(|&k| pos(nc) < line_of(k) && line_of(k) < pos(tc))
            }) else {
                continue;
            };
            let (vat, first) = (sum.vat, lines[sum.lines[0]].amount.0);
            if best.is_none_or(|(b, _)| tc.span.line < b) {
                best = Some((tc.span.line, (ni, ti, vat, first)));
            }
        }
    }
    best.map(|(_, x)| x)
}

/// The VAT of several VAT-labelled rate lines of distinct rates when no net is printed to
/// check them against (`BTW 21%  2,06` / `BTW 6%  0,80` under a receipt's total): their sum,
/// when the chosen VAT is one of them, each amount is at most what its rate gives on the whole
/// total and the sum stays below the total. A chosen VAT of zero (the `Tax 0%  0.00` line of a
/// receipt's zero-rated part) gives way to the lines of positive rates, one line enough.
/// Returns the sum and the amount candidate that shows it (the chosen one, or the first
/// line's in place of a zero).
fn labelled_rate_lines_sum(
    lines: &[RateLine],
    chosen: (usize, Decimal),
    total: Decimal,
) -> Option<(Decimal, usize)> {
    let labelled: Vec<&RateLine> = lines.iter().filter(|l| l.labelled).collect();
    let zero = chosen.1.is_zero();
    if !zero && !labelled.iter().any(|l| l.amount.0 == chosen.0) {
        return None;
    }
    let mut per_rate: Vec<&RateLine> = Vec::new();
    for l in labelled {
        if !per_rate.iter().any(|p| p.rate.1 == l.rate.1) {
            per_rate.push(l);
        }
    }
    let cent = Decimal::new(1, 2);
    let plausible = |l: &RateLine| {
        l.amount.1.is_sign_negative() == total.is_sign_negative()
            && l.amount.1.abs()
                <= (total.abs() * l.rate.1 / (Decimal::ONE_HUNDRED + l.rate.1)) + cent
    };
    let sum: Decimal = per_rate.iter().map(|l| l.amount.1).sum();
    let enough = per_rate.len() >= 2 || zero && !sum.is_zero();
    let first = per_rate.first()?.amount.0;
    (enough && per_rate.iter().all(|l| plausible(l)) && sum.abs() < total.abs())
        .then_some((sum, if zero { first } else { chosen.0 }))
}

/// The VAT included in a total that no net accompanies (a till receipt's `20%  1,79` under its
/// total): the rate lines' amounts, one per rate, when what they imply holds to the cent: one
/// rate's amount is `total x p / (100 + p)`; several rates' grosses (`amount x (100 + p) / p`)
/// make the total within their rounding. (VAT amount, first line's amount candidate.)
fn included_vat(lines: &[RateLine], total: Decimal) -> Option<(Decimal, usize)> {
    let mut per_rate: Vec<&RateLine> = Vec::new();
    for l in lines {
        match per_rate.iter().find(|p| p.rate.1 == l.rate.1) {
            // The same rate with another amount: no reading of the lines is sure.
            Some(p) if p.amount.1 != l.amount.1 => return None,
            Some(_) => {}
            None => per_rate.push(l),
        }
    }
    let first = per_rate.first()?;
    if total.is_zero()
        || per_rate.iter().any(|l| {
            l.rate.1.is_zero() || l.amount.1.is_sign_negative() != total.is_sign_negative()
        })
    {
        return None;
    }
    let cent = Decimal::new(1, 2);
    let hundred = Decimal::ONE_HUNDRED;
    let holds = if let [l] = per_rate.as_slice() {
        let expected = (total * l.rate.1 / (hundred + l.rate.1)).round_dp(2);
        (expected - l.amount.1).abs() <= cent
    } else {
        let gross: Decimal = per_rate
            .iter()
            .map(|l| l.amount.1 * (hundred + l.rate.1) / l.rate.1)
            .sum();
        // Each amount was rounded to half a cent: its gross by that much times (100 + p) / p.
        let slack: Decimal = per_rate
            .iter()
            .map(|l| Decimal::new(5, 3) * (hundred + l.rate.1) / l.rate.1)
            .sum::<Decimal>()
            + cent;
        (gross - total).abs() <= slack
    };
    holds.then(|| (per_rate.iter().map(|l| l.amount.1).sum(), first.amount.0))
}

/// Whether `net + vat = total` is arithmetic support: net, VAT and total share a sign (credit
/// notes print all three negative), VAT is below net in size (no VAT rate reaches 100 %) and
/// the net is not the total itself: `0 + 5 = 5` or `VAT = total` supports nothing. A cash
/// rounding the document prints closes the sum too (`SUB TOTAL 7.00`, `GST 0.42`, `ROUNDING
/// ADJ -0.02`, `NET TOTAL 7.40`): `roundings` are their values ([`printed_roundings`]); with a
/// zero VAT that would only be the net's own rounding, no split of the total.
fn adds_up(n: &Scored, v: &Scored, t: &Scored, roundings: &[Decimal]) -> bool {
    let same_sign =
        |a: Decimal, b: Decimal| a.is_zero() || a.is_sign_negative() == b.is_sign_negative();
    !n.2.is_zero()
        && same_sign(n.2, t.2)
        && same_sign(v.2, t.2)
        && v.2.abs() < n.2.abs()
        && n.1 != t.1
        && v.1 != t.1
        && (n.2 + v.2 == t.2
            || !v.2.is_zero()
                && roundings
                    .iter()
                    .any(|&r| rounds(r, t.2) && n.2 + v.2 + r == t.2))
}

/// What the document prints that the choice of totals checks against: its cash roundings and
/// its VAT rate, where it prints only one.
#[derive(Debug, Default, Clone, Copy)]
struct Printed<'a> {
    roundings: &'a [Decimal],
    rate: Option<Decimal>,
}

/// The chosen totals, each `(score, candidate index, value)`.
#[derive(Debug, Default, Clone, Copy)]
struct Chosen {
    net: Option<Scored>,
    vat: Option<(f32, Decimal, Option<usize>)>,
    total: Option<Scored>,
    payable: Option<Scored>,
    prepaid: Option<Scored>,
    /// `net + VAT = total` held (one VAT amount or the sum of the per-rate ones).
    consistent: bool,
}

/// Chooses net, VAT, total, payable and prepaid together (issue 14, "joint consistency"):
///
/// * among the best candidates of each, the combination whose printed arithmetic holds wins
///   over individually higher-scored values: `net + VAT = total` (one VAT amount, or the sum of
///   the per-rate VAT amounts), then `total - prepaid = payable` (or `payable = total`);
/// * arithmetic may not rescue a total scored more than [`CONSISTENCY_BONUS`] below the best
///   one (on a receipt, `change + total = cash` adds up too);
/// * a credit note's amounts share one sign: when net, VAT and total add up with negative
///   values, all three stay negative;
/// * without any labelled total, a net + VAT = total triple found anywhere among the amounts
///   (the VAT a plausible rate of the net) gives the three, at low confidence: the structure
///   alone answers when the label vocabulary is unknown;
/// * a net and a VAT that are two item rows' amounts (`two_rows(net, vat)`) support nothing:
///   two rows always add up to the net of a two-row table.
fn choose(
    nets: &[Scored],
    vats: &[Scored],
    tots: &[Scored],
    pays: &[Scored],
    pres: &[Scored],
    two_rows: &dyn Fn(usize, usize) -> bool,
    printed: &Printed<'_>,
) -> Chosen {
    let roundings = printed.roundings;
    let mut out = Chosen {
        net: nets.first().copied(),
        vat: vats.first().map(|v| (v.0, v.2, Some(v.1))),
        total: tots.first().copied(),
        ..Chosen::default()
    };
    let total_floor = tots.first().map_or(0.0, |t| t.0 - CONSISTENCY_BONUS);
    let eligible = || tots.iter().filter(move |t| t.0 >= total_floor);
    // The totals the sum may make: the eligible ones; with no total scored, the net-labelled
    // amounts, of which one another net and the VAT make is the total (`SUB TOTAL 7.00`, `GST
    // 0.42`, `NET TOTAL 7.42`: a receipt's final amount).
    let totals: Vec<Scored> = if tots.is_empty() {
        nets.to_vec()
    } else {
        eligible().copied().collect()
    };
    // Whether a VAT is the document's only rate of a net, to its last printed digit.
    let rated = |n: &Scored, v: &Scored| {
        printed.rate.is_some_and(|r| {
            (n.2 * r / Decimal::ONE_HUNDRED).round_dp(v.2.scale().max(n.2.scale())) == v.2
        })
    };
    // The best-scored triple whose sum holds: exactly first, then closed by a printed cash
    // rounding; where the document prints one rate, a triple whose VAT is that rate of its net
    // before any other (an account's open items add up too: an earlier invoice's amount and
    // this one's total make the balance).
    // A total scored below the floor still makes a triple whose VAT is the one rate of its net:
    // two printed equations hold (a balance's label may outscore the invoice's own total).
    let below_floor: Vec<Scored> = tots.iter().filter(|t| t.0 < total_floor).copied().collect();
    let search = |roundings: &[Decimal]| {
        let mut best: Option<((bool, f32), Scored, Scored, Scored)> = None;
        let candidates = totals
            .iter()
            .map(|t| (t, false))
            .chain(below_floor.iter().map(|t| (t, true)));
        for (t, low) in candidates {
            for n in nets {
                for v in vats {
                    if adds_up(n, v, t, roundings) && !two_rows(n.1, v.1) && (!low || rated(n, v)) {
                        let s = (rated(n, v), n.0 + v.0 + t.0);
                        if best.is_none_or(|b| s > b.0) {
                            best = Some((s, *n, *v, *t));
                        }
                    }
                }
            }
        }
        best
    };
    let exact = search(&[]);
    let is_exact = exact.is_some();
    let best = exact.or_else(|| search(roundings));
    if let Some((_, n, v, t)) = best {
        out.net = Some(n);
        out.vat = Some((v.0, v.2, Some(v.1)));
        out.total = Some(t);
        // Closed only by a rounding, the sum is no support: the steps that look for a
        // consistent set may still replace it (a total before the rounding that the VAT
        // summary rows make exactly).
        out.consistent = is_exact;
    }
    if !out.consistent {
        // Several VAT lines (one per rate): total - net equals their sum.
        'outer: for n in nets {
            for t in eligible() {
                let diff = t.2 - n.2;
                if diff.is_zero()
                    || diff.is_sign_negative() != t.2.is_sign_negative()
                    || diff.abs() >= n.2.abs()
                {
                    continue;
                }
                let others = || vats.iter().filter(|v| v.1 != n.1 && v.1 != t.1);
                let sum: Decimal = others().map(|v| v.2).sum();
                let mut seen: Vec<Decimal> = Vec::new();
                for v in others() {
                    if !seen.contains(&v.2) {
                        seen.push(v.2);
                    }
                }
                let sum_distinct: Decimal = seen.iter().copied().sum();
                if sum == diff || sum_distinct == diff {
                    out.net = Some(*n);
                    out.total = Some(*t);
                    let conf = vats.iter().map(|v| v.0).fold(0.0, f32::max);
                    // The evidence of a summed VAT: its first line in the document
                    // (candidates are numbered in reading order), whatever the scores.
                    out.vat = Some((conf, diff, others().map(|v| v.1).min()));
                    out.consistent = true;
                    break 'outer;
                }
            }
        }
    }
    choose_payable(&mut out, pays, pres);
    out
}

/// Payable and prepaid: `total - prepaid = payable` (or payable = total) chooses among the best
/// payable and prepaid candidates; otherwise the best payable stands alone.
fn choose_payable(out: &mut Chosen, pays: &[Scored], pres: &[Scored]) {
    out.payable = pays.first().copied();
    out.prepaid = pres.first().copied().map(|p| (p.0, p.1, p.2.abs()));
    if let Some(t) = out.total {
        let mut best_pay: Option<(f32, Scored, Option<Scored>)> = None;
        for p in pays.iter().filter(|p| p.1 != t.1) {
            if p.2 == t.2 && best_pay.is_none_or(|b| p.0 > b.0) {
                best_pay = Some((p.0, *p, None));
            }
            for q in pres
                .iter()
                .filter(|q| q.1 != p.1 && q.1 != t.1 && !q.2.is_zero())
            {
                let s = p.0 + q.0;
                if t.2 - q.2.abs() == p.2 && best_pay.is_none_or(|b| s > b.0) {
                    best_pay = Some((s, *p, Some((q.0, q.1, q.2.abs()))));
                }
            }
        }
        if let Some((_, p, q)) = best_pay {
            out.payable = Some(p);
            if q.is_some() {
                out.prepaid = q;
            }
        }
    }
}

/// One reading of an amount for [`ocr_repair`]: (score, candidate index, value, how many of
/// the readings behind it are [`Candidates::ocr_amounts`]).
type Reading = (f32, usize, Decimal, usize);

/// The scored candidates of one amount for [`ocr_repair`], scored ones first, then a joined
/// reading printed on the same line as each (same score).
struct Readings<'a> {
    cands: &'a Candidates,
}

impl Readings<'_> {
    fn line_of(&self, i: usize) -> Option<usize> {
        self.cands.amount_at(i).map(|c| c.span.line)
    }

    /// Joined readings (index, value) printed on `line`.
    fn alts_on(&self, line: usize) -> impl Iterator<Item = (usize, Decimal)> + '_ {
        self.cands
            .joined_amounts()
            .filter(move |(_, c)| c.span.line == line)
            .filter_map(|(i, c)| dec(c).map(|d| (i, d)))
    }

    fn of(&self, scored: impl IntoIterator<Item = Scored>) -> Vec<Reading> {
        let mut out = Vec::new();
        for (score, i, value) in scored {
            out.push((score, i, value, 0));
            if let Some(line) = self.line_of(i) {
                out.extend(self.alts_on(line).map(|(k, d)| (score, k, d, 1)));
            }
        }
        out
    }
}

/// Net, VAT and total that add up once amounts OCR broke with a space are read whole
/// (`Total TTC : 1162 20,96` as 116 220,96; [`Candidates::ocr_amounts`]), for documents whose
/// chosen amounts do not add up. Every scored net, VAT and total candidate may keep its
/// reading or take a joined one printed on its own line; the total may also be a joined
/// reading printed below the net and the VAT outside table bodies, and a VAT of several rate
/// lines sums one reading of each line. The set that adds up to the cent with the fewest
/// joined readings wins (at least one: the chosen readings did not add up), then the highest
/// score; a joined total found below takes the lower score of the net and the VAT that
/// confirm it.
fn ocr_repair(
    cands: &Candidates,
    (nets, vats, tots): (&[Scored], &[Scored], &[Scored]),
    table_lines: &[bool],
) -> Option<Chosen> {
    if cands.ocr_amounts.is_empty() {
        return None;
    }
    let r = Readings { cands };
    // A net the scorer took for a total (`Summe netto` above a total it missed) counts too.
    let net_options = r.of(nets.iter().chain(tots).copied());
    let mut vat_options = r.of(vats.iter().copied());
    let lines = &cands.rate_lines;
    if (2..=4).contains(&lines.len()) {
        let score = vats.first().map_or(STRUCTURAL_CONFIDENCE, |v| v.0);
        let mut sums: Vec<(Decimal, usize)> = vec![(Decimal::ZERO, 0)];
        for l in lines {
            let options = r.of([(score, l.amount.0, l.amount.1)]);
            sums = sums
                .iter()
                .flat_map(|&(sum, used)| options.iter().map(move |o| (sum + o.2, used + o.3)))
                .collect();
        }
        let first = lines.iter().map(|l| l.amount.0).min().unwrap_or(0);
        vat_options.extend(
            sums.into_iter()
                .map(|(sum, used)| (score, first, sum, used)),
        );
    }
    let mut tot_options = r.of(tots.iter().copied());
    // Joined readings anywhere outside table bodies, as totals below a net and a VAT (score
    // NaN: set from the net and VAT that confirm it).
    tot_options.extend(
        cands
            .joined_amounts()
            .filter(|(_, c)| !table_lines.get(c.span.line).copied().unwrap_or(false))
            .filter_map(|(i, c)| dec(c).map(|d| (f32::NAN, i, d, 1))),
    );
    // (fewest joined readings, highest score), net, VAT, total.
    type Ranked = ((std::cmp::Reverse<usize>, f32), Reading, Reading, Reading);
    let mut best: Option<Ranked> = None;
    for t in &tot_options {
        for n in &net_options {
            for v in &vat_options {
                let used = n.3 + v.3 + t.3;
                let (ns, vs) = ((n.0, n.1, n.2), (v.0, v.1, v.2));
                let mut t = *t;
                if t.0.is_nan() {
                    let below = r.line_of(n.1).max(r.line_of(v.1));
                    if r.line_of(t.1) <= below {
                        continue;
                    }
                    t.0 = n.0.min(v.0);
                }
                if used == 0 || v.1 == t.1 || !adds_up(&ns, &vs, &(t.0, t.1, t.2), &[]) {
                    continue;
                }
                let key = (std::cmp::Reverse(used), n.0 + v.0 + t.0);
                if best.as_ref().is_none_or(|b| key > b.0) {
                    best = Some((key, *n, *v, t));
                }
            }
        }
    }
    let (_, n, v, t) = best?;
    Some(Chosen {
        net: Some((n.0, n.1, n.2)),
        vat: Some((v.0, v.2, Some(v.1))),
        total: Some((t.0, t.1, t.2)),
        payable: None,
        prepaid: None,
        consistent: true,
    })
}

/// A `net + VAT = total` triple among all of a document's money amounts, for documents whose
/// total no label announced: VAT between 1 % and 27 % of the net (the range of the world's
/// standard and reduced rates), net and VAT printed above the total or on its line. The total
/// is the document's largest amount, or the largest amount outside the item tables' bodies
/// (`body`: a unit price may exceed the total) that no later amount outside them exceeds; the
/// largest total with a triple wins, and among its splits one that a printed percentage
/// confirms to the cent, then the nearest. Only totals that `keep` accepts count. Returns
/// (net, VAT, total) candidates.
fn structural_triple(
    cands: &Candidates,
    body: &[bool],
    rows: &[usize],
    keep: impl Fn(Decimal) -> bool,
) -> Option<(usize, usize, usize)> {
    triple_among(cands, body, rows, false, &keep)
        .or_else(|| triple_among(cands, body, rows, true, &keep))
}

/// [`structural_triple`] among the money amounts as printed, or also among the readings of
/// amounts that OCR broke with a space (`103201. 19`, [`Candidates::ocr_amounts`]).
fn triple_among(
    cands: &Candidates,
    body: &[bool],
    rows: &[usize],
    joined: bool,
    keep: &dyn Fn(Decimal) -> bool,
) -> Option<(usize, usize, usize)> {
    let ocr = cands.joined_amounts().filter(|_| joined);
    let amounts: Vec<(usize, Decimal, usize)> = cands
        .items
        .iter()
        .enumerate()
        .filter(|(_, c)| cands.is_money(c))
        .take(400)
        .chain(ocr)
        .filter_map(|(i, c)| dec(c).filter(|d| !d.is_zero()).map(|d| (i, d, c.span.line)))
        .collect();
    let largest = amounts.iter().map(|a| a.1.abs()).max()?;
    let in_body = |line: usize| body.get(line).copied().unwrap_or(false);
    let rates = percent_rates(cands);
    let mut totals: Vec<&(usize, Decimal, usize)> = amounts
        .iter()
        .filter(|t| keep(t.1))
        .filter(|t| {
            t.1.abs() == largest
                || (!in_body(t.2)
                    && !amounts
                        .iter()
                        .any(|o| o.2 > t.2 && !in_body(o.2) && o.1.abs() > t.1.abs()))
        })
        .collect();
    totals.sort_by(|a, b| b.1.abs().cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
    totals
        .into_iter()
        .find_map(|&t| best_split(&amounts, t, &rates, rows).map(|(n, v)| (n, v, t.0)))
}

/// The percentages the document prints (rates that may confirm a net and VAT split).
fn percent_rates(cands: &Candidates) -> Vec<Decimal> {
    cands
        .of(CandidateKind::Amount)
        .filter(|c| c.scheme.as_deref() == Some("percent"))
        .filter_map(dec)
        .collect()
}

/// Whether `vat` is between 1 % and 27 % of `net` (the range of the world's standard and
/// reduced rates), the upper bound within the rounding of the amounts' last printed digit (a
/// whole-forint VAT of 27 % rounds `243.648 x 27 %` up to `65.785`).
fn plausible_vat(net: Decimal, vat: Decimal) -> bool {
    let (net, vat) = (net.abs(), vat.abs());
    let half_unit = Decimal::new(5, net.scale().max(vat.scale()) + 1);
    vat >= net * Decimal::new(1, 2) && vat <= net * Decimal::new(27, 2) + half_unit
}

/// The best split of a total `(candidate, value, line)` into net + VAT among `amounts` (the
/// same triples): both printed above the total or on its line, all three of one sign, the VAT
/// between 1 % and 27 % of the net; a split that one of `rates` gives to the cent wins, then
/// the one nearest the total's line. Two item rows' amounts (`rows`: the lines of the rows
/// found by their arithmetic, [`item_rows`]) are no net and VAT: two rows always add up to a
/// two-row table's net. Returns (net, VAT) candidates.
fn best_split(
    amounts: &[(usize, Decimal, usize)],
    t: (usize, Decimal, usize),
    rates: &[Decimal],
    rows: &[usize],
) -> Option<(usize, usize)> {
    let in_body = |line: usize| rows.contains(&line);
    // (printed rate confirms, -distance to the total's line), (net, VAT)
    type Ranked = ((bool, std::cmp::Reverse<usize>), (usize, usize));
    let mut best: Option<Ranked> = None;
    for n in amounts.iter().filter(|n| n.0 != t.0 && n.2 <= t.2) {
        let v = t.1 - n.1;
        if v.is_zero()
            || v.is_sign_negative() != t.1.is_sign_negative()
            || n.1.is_sign_negative() != t.1.is_sign_negative()
        {
            continue;
        }
        if !plausible_vat(n.1, v) {
            continue;
        }
        for vc in amounts.iter().filter(|a| {
            a.0 != n.0
                && a.0 != t.0
                && a.1 == v
                && a.2 <= t.2
                && !(a.2 != n.2 && in_body(a.2) && in_body(n.2))
        }) {
            let printed = rates
                .iter()
                .any(|r| (n.1 * r / Decimal::ONE_HUNDRED).round_dp(2) == v);
            let key = (
                printed,
                std::cmp::Reverse(t.2.abs_diff(n.2) + t.2.abs_diff(vc.2)),
            );
            if best.as_ref().is_none_or(|b| key > b.0) {
                best = Some((key, (n.0, vc.0)));
            }
        }
    }
    best.map(|b| b.1)
}

/// The candidate of the net a total and its VAT leave: printed at or above the VAT's line with
/// the value `total - vat` (a plausible share: [`plausible_vat`]), of the total's sign, outside
/// the item rows (`rows`) before within them, the nearest to the VAT's line.
fn net_of_total(
    cands: &Candidates,
    rows: &[usize],
    total: Decimal,
    (vat, vat_idx): (Decimal, usize),
) -> Option<usize> {
    let net = total - vat;
    if net.is_zero()
        || net.is_sign_negative() != total.is_sign_negative()
        || !plausible_vat(net, vat)
    {
        return None;
    }
    let v_line = cands.items.get(vat_idx)?.span.line;
    cands
        .items
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            *i != vat_idx && c.span.line <= v_line && cands.is_money(c) && dec(c) == Some(net)
        })
        .min_by_key(|(_, c)| (rows.contains(&c.span.line), v_line - c.span.line))
        .map(|(i, _)| i)
}

/// A `net + VAT = total` set around the scored VAT amounts: the best-scored VAT alone, or the
/// sum of the scored VAT amounts of distinct values (one rate's line each); the net printed at
/// or above the first of them, the total at or below the last, `net + VAT = total`, the VAT a
/// plausible share of the net ([`plausible_vat`]), all of one sign; outside the item rows
/// (`rows`) before within them, then the nearest. For a chosen total that no known label names
/// and no arithmetic holds (an account's balance printed under the invoice, the sum of its open
/// items, is the largest amount at the bottom). Returns (net, VAT value, first VAT, total).
fn vat_anchored(
    cands: &Candidates,
    rows: &[usize],
    vats: &[Scored],
) -> Option<(usize, Decimal, usize, usize)> {
    let line = |i: usize| cands.items.get(i).map(|c| c.span.line);
    let mut distinct: Vec<Scored> = Vec::new();
    for v in vats {
        if !distinct.iter().any(|d| d.2 == v.2) {
            distinct.push(*v);
        }
    }
    let groups: Vec<Vec<Scored>> = [vats.first().map(|v| vec![*v]), Some(distinct)]
        .into_iter()
        .flatten()
        .filter(|g| !g.is_empty())
        .collect();
    let amounts: Vec<(usize, Decimal, usize)> = money_values(cands)
        .map(|(i, c, d)| (i, d, c.span.line))
        .collect();
    groups.iter().find_map(|group| {
        let vat: Decimal = group.iter().map(|v| v.2).sum();
        let lines: Vec<usize> = group.iter().filter_map(|v| line(v.1)).collect();
        let (first, last) = (*lines.iter().min()?, *lines.iter().max()?);
        let first_idx = group.iter().find(|v| line(v.1) == Some(first))?.1;
        let is_vat = |i: usize| group.iter().any(|v| v.1 == i);
        let in_rows = |l: usize| rows.contains(&l);
        amounts
            .iter()
            .filter(|n| n.2 <= first && !is_vat(n.0) && !n.1.is_zero())
            .filter(|n| vat.is_sign_negative() == n.1.is_sign_negative() && plausible_vat(n.1, vat))
            .flat_map(|n| {
                amounts
                    .iter()
                    .filter(move |t| t.2 >= last && !is_vat(t.0) && t.0 != n.0 && t.1 == n.1 + vat)
                    .map(move |t| (n, t))
            })
            .min_by_key(|(n, t)| (in_rows(n.2), in_rows(t.2), (first - n.2) + (t.2 - last)))
            .map(|(n, t)| (n.0, vat, first_idx, t.0))
    })
}

/// The score the scorer gave candidate `i` in `list`, else [`STRUCTURAL_CONFIDENCE`] (a
/// candidate only the printed arithmetic supports).
fn score_in(list: &[Scored], i: usize) -> f32 {
    list.iter()
        .find(|x| x.1 == i)
        .map_or(STRUCTURAL_CONFIDENCE, |x| x.0)
}

/// The lines of the item rows found by their arithmetic ([`Candidates::item_table`]).
fn item_rows(cands: &Candidates) -> Vec<usize> {
    cands
        .item_table
        .iter()
        .flat_map(|t| &t.rows)
        .flat_map(|r| r.lines.iter().copied())
        .collect()
}

/// The lines of item-table bodies: those of the rows found by their arithmetic and those of
/// the tables found by their header, these only down to the last arithmetic row where there is
/// one (a header table whose columns run on into a totals block of unknown labels).
fn body_lines(cands: &Candidates, table_lines: &[bool]) -> Vec<bool> {
    let mut body = table_lines.to_vec();
    let rows = cands.item_table.iter().flat_map(|t| &t.rows);
    if let Some(last) = rows.clone().flat_map(|r| &r.lines).max() {
        for x in body.iter_mut().skip(last + 1) {
            *x = false;
        }
    }
    for l in rows.flat_map(|r| &r.lines) {
        if let Some(x) = body.get_mut(*l) {
            *x = true;
        }
    }
    body
}

/// Net and VAT that explain a chosen total (where the scored net and VAT do not add up to it, or
/// no label announced them): two amounts printed above the total
/// (or on its line, outside table bodies) with `net + VAT = total`, the VAT between 1 % and 27 %
/// of the net. A printed percentage that gives the VAT from the net to the cent, and nearness
/// to the total's line, choose among several such pairs; two item rows (`rows`: their lines)
/// are never net and VAT. Returns (net, VAT) candidates.
fn structural_split(
    cands: &Candidates,
    total: &Scored,
    table_lines: &[bool],
    rows: &[usize],
) -> Option<(usize, usize)> {
    let t_line = cands.items.get(total.1)?.span.line;
    let amounts: Vec<(usize, Decimal, usize)> = cands
        .items
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            *i != total.1
                && cands.is_money(c)
                && c.span.line <= t_line
                && !table_lines.get(c.span.line).copied().unwrap_or(false)
        })
        .filter_map(|(i, c)| dec(c).filter(|d| !d.is_zero()).map(|d| (i, d, c.span.line)))
        .take(200)
        .collect();
    best_split(
        &amounts,
        (total.1, total.2, t_line),
        &percent_rates(cands),
        rows,
    )
}

/// Whether a line's labels name something other than a VAT (a rounding, a discount, a payment,
/// a service charge): such a line holds no VAT part.
fn names_no_vat(cands: &Candidates, line: usize) -> bool {
    cands.labels_of(line).iter().any(|h| h.key != LabelKey::Vat)
}

/// A net and the VAT amounts of two to four rates printed one per line between it and the
/// chosen total, outside table bodies, each line's last money amount: the net on the line
/// right above the first VAT line, the total right below the last (its first print where it
/// is repeated), `net + Σ VAT = total` to the cent, all of one sign, the VAT between 1 % and
/// 27 % of the net, no VAT line naming anything but a VAT (a rounding, a discount). Returns (net
/// candidate, net, first VAT candidate, Σ VAT).
fn split_over_lines(
    cands: &Candidates,
    total: &Scored,
    table_lines: &[bool],
) -> Option<(usize, Decimal, usize, Decimal)> {
    let mut t_line = cands.items.get(total.1)?.span.line;
    // The last money amount of a line outside table bodies.
    let last_on = |line: usize| -> Option<(usize, Decimal)> {
        if table_lines.get(line).copied().unwrap_or(false) {
            return None;
        }
        cands
            .items
            .iter()
            .enumerate()
            .filter(|(_, c)| c.span.line == line && cands.is_money(c))
            .filter_map(|(i, c)| dec(c).map(|d| (i, d)))
            .next_back()
    };
    let sign = total.2.is_sign_negative();
    let mut parts: Vec<(usize, Decimal)> = Vec::new();
    // Up from the total's first print (`Кизира: 33811176,53` over `Всього на суму: 33811176,53`).
    while t_line > 0 && last_on(t_line - 1).is_some_and(|(_, d)| d == total.2) {
        t_line -= 1;
    }
    for line in (t_line.saturating_sub(6)..t_line).rev() {
        let (i, d) = last_on(line)?;
        if d.is_zero() || d.is_sign_negative() != sign {
            return None;
        }
        if parts.len() >= 2 {
            let vat: Decimal = parts.iter().map(|p| p.1).sum();
            if d + vat == total.2 && plausible_vat(d, vat) {
                return Some((i, d, parts.last()?.0, vat));
            }
        }
        if parts.len() == 4 || names_no_vat(cands, line) {
            return None;
        }
        parts.push((i, d));
    }
    None
}

/// Lines below the item rows' net in which [`rows_net_split`] looks for the VAT and the total.
const ROWS_NET_REACH: usize = 8;

/// The net that the item rows make, printed under them ([`rows_sum_below`]), with the total
/// printed below it (outside table bodies, within [`ROWS_NET_REACH`] lines) that a VAT makes:
/// one money amount printed between them that is exactly total - net, or per-rate lines that
/// sum to it ([`rate_lines_explain`]); all of one sign, the VAT a plausible share of the net, the
/// nearest such total. (`Viso: -68.573,40`, three `Zufeti` rate lines, `Zufeti: -9.251,23`,
/// `Sego: -77.824,63` under rows summing to -68.573,40: labels no vocabulary knows.) Returns
/// (net, VAT and its first candidate, total).
fn rows_net_split(
    cands: &Candidates,
    table_lines: &[bool],
) -> Option<(Pick, (Decimal, usize), Pick)> {
    let (ni, n) = rows_sum_below(cands)?;
    let n_line = cands.items.get(ni)?.span.line;
    let below: Vec<(usize, usize, Decimal)> = cands
        .items
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.span.line > n_line
                && c.span.line <= n_line + ROWS_NET_REACH
                && cands.is_money(c)
                && !table_lines.get(c.span.line).copied().unwrap_or(false)
        })
        .filter_map(|(i, c)| dec(c).map(|d| (i, c.span.line, d)))
        .collect();
    // Each line's last amount only: the VAT and the total close their lines (a VAT summary
    // row's base is no total), and a line naming anything but a VAT (a service charge, a
    // discount) holds no VAT.
    let last = |i: usize, line: usize| !below.iter().any(|&(j, l, _)| l == line && j > i);
    let rate_line_of = |i: usize| cands.amount_at(i).map(|c| c.span.line);
    below.iter().find_map(|&(ti, t_line, t)| {
        let v = t - n;
        if t.is_sign_negative() != n.is_sign_negative() || !plausible_vat(n, v) || !last(ti, t_line)
        {
            return None;
        }
        let printed = below
            .iter()
            .find(|&&(vi, l, d)| l < t_line && d == v && last(vi, l) && !names_no_vat(cands, l))
            .map(|&(vi, _, _)| (v, vi));
        let by_rates = || {
            rate_lines_explain(cands, v)
                .filter(|&(_, first)| rate_line_of(first).is_some_and(|l| l > n_line && l < t_line))
        };
        printed.or_else(by_rates).map(|vat| ((ni, n), vat, (ti, t)))
    })
}

/// The item rows sum to a printed amount other than the chosen net (and than the chosen
/// total: a gross-priced table sums to the total): that amount is the net where a VAT printed
/// below it makes a total printed below that ([`rows_net_split`]); a net, VAT and total that
/// add up among other amounts (one rate's line taken for the net, the VAT lines' sum for the
/// total) give way to it. Each keeps its score among `scored` (net, VAT, total candidates),
/// else [`STRUCTURAL_CONFIDENCE`]. Whether it changed `chosen`.
fn rows_net(
    chosen: &mut Chosen,
    cands: &Candidates,
    table_lines: &[bool],
    scored: [&[Scored]; 3],
) -> bool {
    let Some(((ni, n), (v, vi), (ti, t))) = rows_net_split(cands, table_lines) else {
        return false;
    };
    if chosen.net.is_some_and(|c| c.2 == n) || chosen.total.is_some_and(|c| c.2 == n) {
        return false;
    }
    // Its total the chosen consistent net, with the chosen total below: the rows' sum plus a
    // charge printed under it (`Summe Positionen`, `Versandkosten 5,90`) make the net.
    if chosen.consistent
        && chosen.net.is_some_and(|c| c.1 == ti)
        && chosen
            .total
            .and_then(|c| cands.amount_at(c.1))
            .zip(cands.amount_at(ti))
            .is_some_and(|(total, net)| total.span.line > net.span.line)
    {
        return false;
    }
    let [nets, vats, tots] = scored;
    chosen.net = Some((score_in(nets, ni), ni, n));
    chosen.vat = Some((score_in(vats, vi), v, Some(vi)));
    chosen.total = Some((score_in(tots, ti), ti, t));
    chosen.consistent = true;
    true
}

/// The candidate printed below a net and a VAT amount (outside table bodies) whose value is
/// their sum: a total whose label the vocabulary does not know. The VAT must be a plausible
/// share of the net (same sign, below it).
fn sum_below(
    cands: &Candidates,
    table_lines: &[bool],
    net: &Scored,
    vat: Decimal,
    vat_idx: usize,
) -> Option<usize> {
    if net.2.is_zero()
        || vat.is_zero()
        || vat.is_sign_negative() != net.2.is_sign_negative()
        || vat.abs() >= net.2.abs()
    {
        return None;
    }
    let sum = net.2 + vat;
    let below = cands
        .items
        .get(net.1)?
        .span
        .line
        .max(cands.items.get(vat_idx)?.span.line);
    cands
        .items
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            *i != net.1
                && *i != vat_idx
                && c.kind == CandidateKind::Amount
                && c.scheme.is_none()
                && c.span.line >= below
                && !table_lines.get(c.span.line).copied().unwrap_or(false)
        })
        .find(|(_, c)| dec(c) == Some(sum))
        .map(|(i, _)| i)
}

/// A total no label announced, found by the arithmetic around it ([`arithmetic_total`]); else
/// the amount under the item rows that they sum to ([`rows_sum_below`]), when no larger amount
/// follows it other than cash paid for it with its change ([`change_after`]).
fn structural_total(cands: &Candidates, table_lines: &[bool]) -> Option<usize> {
    arithmetic_total(cands, table_lines).or_else(|| {
        // The rows' sum, unless a larger amount follows it (an invoice's rows make its net, its
        // total comes below).
        let (i, sum) = rows_sum_below(cands)?;
        let line = cands.items[i].span.line;
        let mut larger_below = cands
            .items
            .iter()
            .filter(|c| {
                c.span.line > line && cands.is_money(c) && dec(c).is_some_and(|d| d.abs() > sum)
            })
            .peekable();
        (larger_below.peek().is_none() || larger_below.any(|c| change_after(cands, c, sum)))
            .then_some(i)
    })
}

/// The money amount (outside table bodies, in reading order) that the cash paid less the
/// change given makes (`50,00 - 7,71 = 42,29`), or that the VAT summary rows make together (Σ
/// bases + Σ VAT amounts). The cash, change and summary rows' own amounts are not totals.
fn arithmetic_total(cands: &Candidates, table_lines: &[bool]) -> Option<usize> {
    let first_money_on = |key: LabelKey| {
        cands.items.iter().find(|c| {
            cands.is_money(c)
                && cands
                    .labels_of(c.span.line)
                    .iter()
                    .any(|h| h.key == key && c.follows(h))
        })
    };
    let mut sums: Vec<Decimal> = Vec::new();
    let mut skip_lines: Vec<usize> = Vec::new();
    if let (Some(cash), Some(change)) = (
        first_money_on(LabelKey::Cash),
        first_money_on(LabelKey::Change),
    ) && let (Some(paid), Some(back)) = (dec(cash), dec(change))
        && back.is_sign_positive()
        && back < paid
    {
        sums.push(paid - back);
        skip_lines.extend([cash.span.line, change.span.line]);
    }
    let rows = &cands.tax_rows;
    if !rows.is_empty() {
        sums.push(rows.iter().map(|r| r.base.1 + r.amount.1).sum());
        for r in rows {
            if let Some(c) = cands.amount_at(r.amount.0) {
                skip_lines.push(c.span.line);
            }
        }
    }
    // Also the summary rows alone ([`outside_items`]).
    let summary = outside_items(cands, &item_rows(cands), table_lines);
    if !summary.is_empty() && summary.len() < rows.len() {
        sums.push(summary.iter().map(|r| r.base.1 + r.amount.1).sum());
    }
    sums.retain(|s| !s.is_zero());
    // Below the summary rows no item row is printed: an item table found by its header that
    // runs on over a summary and a total of unknown labels does not hide the total there.
    let last_row = rows
        .iter()
        .filter_map(|r| cands.amount_at(r.amount.0).map(|c| c.span.line))
        .max();
    let below_summary = |line: usize| last_row.is_some_and(|l| l < line);
    cands
        .items
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            cands.is_money(c)
                && !skip_lines.contains(&c.span.line)
                && (!table_lines.get(c.span.line).copied().unwrap_or(false)
                    || below_summary(c.span.line))
        })
        .find(|(_, c)| dec(c).is_some_and(|d| sums.contains(&d)))
        .map(|(i, _)| i)
}

/// Whether `paid` (a money amount printed after a total) is cash tendered for `total`: the
/// change, `paid - total`, is printed on one of the next two lines, on a line without a
/// percentage (a VAT line's amount makes `gross - net` too).
fn change_after(cands: &Candidates, paid: &Candidate, total: Decimal) -> bool {
    let Some(change) = dec(paid)
        .map(|p| p - total)
        .filter(|c| c.is_sign_positive())
    else {
        return false;
    };
    let next = |l: usize| l > paid.span.line && l <= paid.span.line + 2;
    let percent_on = |l: usize| {
        cands
            .of(CandidateKind::Amount)
            .any(|c| c.span.line == l && c.scheme.as_deref() == Some("percent"))
    };
    cands.items.iter().any(|c| {
        next(c.span.line) && cands.is_money(c) && dec(c) == Some(change) && !percent_on(c.span.line)
    })
}

/// Whether `paid` is cash tendered for `total` ([`change_after`]), `total` positive and less.
fn paid_for(cands: &Candidates, paid: &Candidate, total: Decimal) -> bool {
    total.is_sign_positive()
        && dec(paid).is_some_and(|p| p > total)
        && change_after(cands, paid, total)
}

/// The total that the item rows make ([`rows_sum_below`]) when `amount` was cash tendered for
/// it: printed below the rows' sum, with the change after it. (A till slip whose OCR read the
/// cash beside the total's label: `RM 9.00` / `TOTAL INCL. GST  RM 10.00` / `CASH  RM 1.00`.)
pub(super) fn rows_total_paid_by(cands: &Candidates, amount: Decimal) -> Option<Decimal> {
    let (i, x) = rows_sum_below(cands)?;
    let line = cands.items[i].span.line;
    cands
        .items
        .iter()
        .filter(|c| c.span.line > line && cands.is_money(c) && dec(c) == Some(amount))
        .any(|paid| paid_for(cands, paid, x))
        .then_some(x)
}

/// The amount that the item rows found by their arithmetic ([`Candidates::item_table`]) sum
/// to, printed under them (a till slip's items over a total of unknown label): the first money
/// amount below the rows with their sum as its value. (index, value).
fn rows_sum_below(cands: &Candidates) -> Option<Pick> {
    let t = cands.item_table.as_ref().filter(|t| t.sums)?;
    let sum: Decimal = t
        .rows
        .iter()
        .map(|r| r.cell(LabelKey::ColAmount).and_then(|c| c.amount))
        .sum::<Option<Decimal>>()
        .filter(|s| !s.is_zero())?;
    let last = t.rows.iter().flat_map(|r| &r.lines).max()?;
    cands
        .items
        .iter()
        .enumerate()
        .filter(|(_, c)| cands.is_money(c) && c.span.line > *last)
        .find(|(_, c)| dec(c) == Some(sum))
        .map(|(i, _)| (i, sum))
}

/// The VAT summary rows outside the item rows found by their arithmetic (`item_lines`): an item
/// row whose quantity times its rate is one (`5  1.766,84  20%  8.834,20`) reads as a summary
/// row.
fn summary_rows(cands: &Candidates, item_lines: &[usize]) -> Vec<TaxRow> {
    let line_of = |i: usize| cands.amount_at(i).map(|c| c.span.line);
    cands
        .tax_rows
        .iter()
        .filter(|r| !line_of(r.amount.0).is_some_and(|l| item_lines.contains(&l)))
        .copied()
        .collect()
}

/// The VAT summary rows outside the item rows found by their arithmetic (`item_lines`, their
/// lines: [`item_rows`]) and outside the tables' bodies (`table_lines`): an item row whose quantity and rate read as a base and an amount
/// (`1  Tanácsadás  3  m  -65546  27%  -196638`: rate 27, base 3, amount 1) is no summary row.
fn outside_items(cands: &Candidates, item_lines: &[usize], table_lines: &[bool]) -> Vec<TaxRow> {
    summary_rows(cands, item_lines)
        .into_iter()
        .filter(|r| {
            !cands
                .amount_at(r.amount.0)
                .is_some_and(|c| table_lines.get(c.span.line).copied().unwrap_or(false))
        })
        .collect()
}

/// VAT summary rows whose bases and amounts add up to the chosen total give net and VAT when
/// the chosen ones did not add up, or when several rates' rows tell a VAT other than the one
/// chosen (one rate's amount taken for the whole).
fn apply_tax_rows(chosen: &mut Chosen, cands: &Candidates, item_lines: &[usize]) {
    let Some(t) = chosen.total else {
        return;
    };
    let rows = &summary_rows(cands, item_lines);
    let chosen_vat = chosen.vat.map(|v| v.1);
    if let Some((base, vat)) = rows_explain(rows, t.2)
        && (!chosen.consistent || (rows.len() > 1 && chosen_vat != Some(vat)))
        && let Some(first) = rows.first()
    {
        chosen.net = Some((t.0, first.base.0, base));
        chosen.vat = Some((t.0, vat, Some(first.amount.0)));
        chosen.consistent = true;
    }
}

/// The eligible total (scored within [`CONSISTENCY_BONUS`] of the best) that the VAT summary
/// rows `rows` ([`summary_rows`] outside `item_lines`) make exactly ([`rows_explain`]), where the chosen total is not consistent: net, VAT
/// and total from those rows; a payable printed apart from the replaced total stays (`Til
/// betaling 444,50` under `SLUTBELØB 444,28`), the replaced total's own print gives way to
/// the new total.
fn summary_total(
    chosen: &mut Chosen,
    cands: &Candidates,
    (item_lines, rows): (&[usize], &[TaxRow]),
    tots: &[Scored],
) {
    if chosen.consistent {
        return;
    }
    let floor = tots.first().map_or(0.0, |t| t.0 - CONSISTENCY_BONUS);
    if let Some(t) = tots
        .iter()
        .take_while(|t| t.0 >= floor)
        .find(|t| rows_explain(rows, t.2).is_some())
    {
        // The print taken for the total, chosen as the payable too, is neither (`CASH 500.00`
        // over `CHANGE 23.20`): the payable is the total the rows make.
        if chosen
            .payable
            .is_some_and(|p| chosen.total.is_some_and(|old| old.1 == p.1))
        {
            chosen.payable = Some(*t);
        }
        chosen.total = Some(*t);
        apply_tax_rows(chosen, cands, item_lines);
    }
}

/// A credit note's VAT whose minus OCR lost (`-318.475,17`, `60.510,28`, `-378.985,45`): a
/// negative net and total that the VAT makes with the net's sign; the VAT is negative too, and
/// the three add up.
fn credit_vat_sign(chosen: &mut Chosen) {
    if chosen.consistent {
        return;
    }
    if let (Some(n), Some((s, v, at)), Some(t)) = (chosen.net, chosen.vat, chosen.total)
        && n.2.is_sign_negative()
        && t.2.is_sign_negative()
        && v.is_sign_positive()
        && !v.is_zero()
        && n.2 - v == t.2
    {
        chosen.vat = Some((s, -v, at));
        chosen.consistent = true;
    }
}

/// A consistent net, VAT and total that are one row of a VAT summary of several rates (`25%
/// 407294,83  101823,71  509118,54` over a `6%` row): the document's net and VAT are the
/// summary's sums, and its total their sum, the amount printed so (outside the item rows)
/// where there is one, else computed (OCR garbled the total's line: `Summa inkl5240a3;18`;
/// evidence: the summary's last row, its gross where printed). Only for a summary of one row
/// per rate, none of them an item row found by its arithmetic (`item_lines`: their lines,
/// [`item_rows`]; a header that reads like an item table's, `Netto  Momsbelopp`, does not make
/// the summary a table).
fn summary_sums(chosen: &mut Chosen, cands: &Candidates, item_lines: &[usize]) {
    let (Some(n), Some((sv, v, _)), Some(t), true) =
        (chosen.net, chosen.vat, chosen.total, chosen.consistent)
    else {
        return;
    };
    let line_of = |i: usize| cands.amount_at(i).map(|c| c.span.line);
    let in_table = |i: usize| line_of(i).is_some_and(|l| item_lines.contains(&l));
    let rows = summary_rows(cands, item_lines);
    let mut rates: Vec<Decimal> = rows.iter().map(|r| r.rate.1).collect();
    rates.sort();
    rates.dedup();
    if rows.len() < 2
        || rates.len() != rows.len()
        || !rows.iter().any(|r| r.base.1 == n.2 && r.amount.1 == v)
    {
        return;
    }
    let base: Decimal = rows.iter().map(|r| r.base.1).sum();
    let vat: Decimal = rows.iter().map(|r| r.amount.1).sum();
    let sum = base + vat;
    if sum == t.2 {
        return;
    }
    let printed = cands
        .items
        .iter()
        .enumerate()
        .find(|(i, c)| {
            c.kind == CandidateKind::Amount
                && c.scheme.is_none()
                && dec(c) == Some(sum)
                && !in_table(*i)
        })
        .map(|(i, _)| (t.0, i));
    let Some(last) = rows.iter().max_by_key(|r| line_of(r.amount.0)) else {
        return;
    };
    // The last row's gross where it prints one, else its VAT amount.
    let gross = line_of(last.amount.0).and_then(|l| {
        money_on(cands, l)
            .into_iter()
            .find(|p| p.1 == last.base.1 + last.amount.1)
    });
    let (st, ti) = printed.unwrap_or((STRUCTURAL_CONFIDENCE, gross.map_or(last.amount.0, |p| p.0)));
    let Some(first) = rows.iter().min_by_key(|r| line_of(r.amount.0)) else {
        return;
    };
    chosen.net = Some((n.0, first.base.0, base));
    chosen.vat = Some((sv, vat, Some(first.amount.0)));
    chosen.total = Some((st, ti, sum));
}

/// An amount candidate (index into [`Candidates::amount_at`]) and its value.
type Pick = (usize, Decimal);

/// The money amounts printed on `line` (index, value), joined OCR readings included
/// ([`Candidates::ocr_amounts`]); percentages and plain integers of other schemes left out.
fn money_on(cands: &Candidates, line: usize) -> Vec<Pick> {
    let items = cands.items.iter().enumerate().filter(|(_, c)| {
        c.kind == CandidateKind::Amount
            && c.span.line == line
            && (c.scheme.is_none() || cands.is_money(c))
    });
    let joined = cands.joined_amounts().filter(|(_, c)| c.span.line == line);
    items
        .chain(joined)
        .filter_map(|(i, c)| dec(c).map(|d| (i, d)))
        .collect()
}

/// The cash roundings the document prints: each amount of a rounding-labelled line (`ROUNDING
/// ADJ  -0.02`), or alone on the line under the label (a label printed above its amount), that
/// is not zero, as (label line, candidate index, value).
fn printed_roundings(cands: &Candidates) -> Vec<(usize, usize, Decimal)> {
    let rounding_line = |l: usize| {
        cands
            .line_labels
            .get(l)
            .is_some_and(|h| h.iter().any(|h| h.key == LabelKey::Rounding))
    };
    let unlabelled = |l: usize| cands.line_labels.get(l).is_some_and(Vec::is_empty);
    (0..cands.line_labels.len())
        .filter(|&l| rounding_line(l))
        .flat_map(|lr| {
            (lr..=lr + 1)
                .filter(move |&l| l == lr || unlabelled(l))
                .flat_map(|l| money_on(cands, l))
                .filter(|(_, d)| !d.is_zero())
                .map(move |(i, d)| (lr, i, d))
        })
        .collect()
}

/// The amount the VAT summary rows `rows` ([`summary_rows`]) make (Σ bases + Σ amounts) printed
/// at most three lines above the total `t`, with `t` less that amount, a cash rounding of it (a coin: [`rounds`], under
/// one unit of the currency), printed on a line between them: (candidate index, value).
fn summary_total_above(cands: &Candidates, rows: &[TaxRow], t: Scored) -> Option<(usize, Decimal)> {
    if rows.is_empty() {
        return None;
    }
    let sum: Decimal = rows.iter().map(|r| r.base.1 + r.amount.1).sum();
    let diff = t.2 - sum;
    let tl = cands.amount_at(t.1)?.span.line;
    // A coin: under one unit of the currency (a few units where it prints whole units).
    let coin = if cands.style.money == MoneyPrint::WholeUnits {
        Decimal::from(5)
    } else {
        Decimal::ONE
    };
    if diff.is_zero() || diff.abs() >= coin || !rounds(diff, sum) {
        return None;
    }
    let (i, c) = cands.items.iter().enumerate().find(|(_, c)| {
        cands.is_money(c) && dec(c) == Some(sum) && c.span.line < tl && tl - c.span.line <= 3
    })?;
    let between = |l: usize| c.span.line < l && l < tl;
    cands
        .items
        .iter()
        .any(|r| between(r.span.line) && cands.is_money(r) && dec(r) == Some(diff))
        .then_some((i, sum))
}

/// Whether `r` can be a cash rounding of `amount`: a small part of it (a coin of the
/// currency, at most a twentieth).
fn rounds(r: Decimal, amount: Decimal) -> bool {
    !amount.is_zero() && r.abs() * Decimal::from(20) <= amount.abs()
}

/// A cash rounding printed around the chosen total (`Total 781,28` / `Rounding -0,28` /
/// `781,00`): an amount `x` above a rounding-labelled line and the amount `y` below it with
/// `x + rounding = y` to the cent. Returns `(x, y)` as (candidate index, value), the rounding
/// not zero. `y` is the amount after rounding, which the document asks to be paid.
/// `roundings` are the document's [`printed_roundings`].
fn cash_rounding(
    cands: &Candidates,
    roundings: &[(usize, usize, Decimal)],
    around: usize,
) -> Option<(Pick, Pick)> {
    let at = cands.amount_at(around)?.span.line;
    let above = |l: usize| {
        (l.saturating_sub(3)..l)
            .rev()
            .flat_map(|l| money_on(cands, l))
    };
    let below = |l: usize| (l + 1..=l + 3).flat_map(|l| money_on(cands, l));
    // The chosen total is either the amount after the rounding (rounding label 1 to 3 lines
    // above it) or the one before it (1 to 3 lines below).
    for &(lr, ri, r) in roundings {
        if lr == at || lr + 3 < at || lr > at + 3 {
            continue;
        }
        let rl = cands.amount_at(ri).map_or(lr, |c| c.span.line);
        for (xi, x) in above(lr) {
            if xi == ri || !rounds(r, x) {
                continue;
            }
            if let Some(y) =
                below(rl).find(|&(yi, y)| yi != ri && y == x + r && (xi == around || yi == around))
            {
                return Some(((xi, x), y));
            }
        }
    }
    None
}

/// Whether a known label calls the amount `i` a total: on its line, or alone on the line above
/// it (`TOTAL ROUNDED` / `RM 33.90`).
fn labelled_total(cands: &Candidates, i: usize) -> bool {
    labelled_as(cands, i, &[LabelKey::Total, LabelKey::Subtotal])
}

/// Whether a known label of one of `keys` names the amount `i`: on its line, or alone on the
/// line above it.
fn labelled_as(cands: &Candidates, i: usize, keys: &[LabelKey]) -> bool {
    let Some(line) = cands.amount_at(i).map(|c| c.span.line) else {
        return false;
    };
    let total = |l: usize| {
        cands
            .line_labels
            .get(l)
            .is_some_and(|h| h.iter().any(|h| keys.contains(&h.key)))
    };
    total(line)
        || line
            .checked_sub(1)
            .is_some_and(|l| total(l) && money_on(cands, l).is_empty())
}

/// Confidence of totals that only the printed arithmetic supports (no known label).
const STRUCTURAL_CONFIDENCE: f32 = 0.35;

pub(super) fn totals(
    ctx: &mut Ctx<'_>,
    feats: &[(usize, CandidateFeatures)],
    cands: &Candidates,
    scorer: &dyn FieldScorer,
) {
    let top = |field: Field| top(feats, cands, scorer, field);
    let (nets, vats, tots, pays, pres) = (
        top(Field::Net),
        top(Field::Vat),
        top(Field::Total),
        top(Field::Payable),
        top(Field::Prepaid),
    );
    // An instalment of a payment schedule, an open item: no amount payable of the document
    // ([`Candidates::dated_lines`]).
    let listed = |p: &Scored| cands.amount_at(p.1).is_some_and(|c| cands.on_dated_line(c));
    let pays: Vec<Scored> = pays.into_iter().filter(|p| !listed(p)).collect();
    let table_lines = cands.table_lines(ctx.doc.lines.len());
    let rows = item_rows(cands);
    let two_rows = |a: usize, b: usize| {
        let line = |i: usize| cands.amount_at(i).map(|c| c.span.line);
        let in_rows = |l: Option<usize>| l.is_some_and(|l| rows.contains(&l));
        line(a) != line(b) && in_rows(line(a)) && in_rows(line(b))
    };
    let roundings = printed_roundings(cands);
    let rounding_values: Vec<Decimal> = roundings.iter().map(|r| r.2).collect();
    let mut rates = percent_rates(cands);
    rates.retain(|&r| crate::candidates::taxes::is_vat_rate(r));
    rates.sort();
    rates.dedup();
    let printed = Printed {
        roundings: &rounding_values,
        rate: match rates.as_slice() {
            [one] => Some(*one),
            _ => None,
        },
    };
    let mut chosen = choose(&nets, &vats, &tots, &pays, &pres, &two_rows, &printed);
    credit_vat_sign(&mut chosen);
    apply_tax_rows(&mut chosen, cands, &rows);
    // A total the VAT summary rows do not make, beside an eligible one (scored within
    // CONSISTENCY_BONUS of it) that they make exactly: two printed equations hold for that one
    // (`SLUTBELØB 444,28` over a paid `444,50` a cash rounding made).
    let summary = summary_rows(cands, &rows);
    summary_total(&mut chosen, cands, (&rows, &summary), &tots);
    // A total whose currency sign OCR read as a digit in front (`€16.558,87` as `616.558,87`),
    // or one digit of which OCR misread (`Kokonaissumm 468993,00` for 458993,00): read as the
    // amount the VAT summary rows make, where that is the print without that digit, or the
    // print with only that digit other (a digit of whole units: a cent's is a rounding's).
    if !chosen.consistent
        && let Some(t) = chosen.total
        && let Some(v) = without_first_digit(t.2)
            .filter(|&v| rows_explain(&summary, v).is_some())
            .or_else(|| {
                // Not a digit of the coins a rounding makes (`47,75` to pay for `47,74`).
                let coin = if cands.style.money == MoneyPrint::WholeUnits {
                    Decimal::TEN
                } else {
                    Decimal::ONE
                };
                let sum: Decimal = summary.iter().map(|r| r.base.1 + r.amount.1).sum();
                (!summary.is_empty() && one_digit_apart(t.2, sum) && (t.2 - sum).abs() >= coin)
                    .then_some(sum)
            })
    {
        chosen.total = Some((t.0, t.1, v));
        apply_tax_rows(&mut chosen, cands, &rows);
        choose_payable(&mut chosen, &pays, &pres);
        // The same print chosen as the payable reads the same.
        if let Some(p) = chosen.payable.filter(|p| p.1 == t.1) {
            chosen.payable = Some((p.0, p.1, v));
        }
    }
    // A total the VAT summary rows do not make, printed a cash rounding below the amount they
    // make with that rounding between them (`YHT. 47,74` / `0,01` / `Avoin summa: 47,75`, the
    // rounding's label unknown): that amount is the total, the rounded one the payable.
    if !chosen.consistent
        && let Some(t) = chosen.total
        && let Some((i, x)) = summary_total_above(cands, &summary, t)
    {
        chosen.total = Some((t.0, i, x));
        chosen.payable = Some(t);
        apply_tax_rows(&mut chosen, cands, &rows);
    }
    // A chosen total that no known label calls one, no arithmetic holds and no second print
    // repeats (a total is repeated as the payment) gives way to the amount printed elsewhere
    // that the VAT summary rows, or the cash paid less the change, make (a card slip's largest
    // number is its terminal's id, `TID 58367506`); not where a total a known label names
    // scored as well (`NYUGTA ÖSSZESEN 7719` under `Hátralék: 7720`): the summary rows read may
    // be some of them only (a row OCR garbled, `B 5% 191 9 96`), their sum an item's amount.
    if !chosen.consistent
        && let Some(t) = chosen.total
        && !labelled_total(cands, t.1)
        && !tots.iter().any(|o| {
            o.1 != t.1
                && o.0 >= t.0 - CONSISTENCY_BONUS
                && labelled_as(cands, o.1, &[LabelKey::Total])
        })
        && cands
            .items
            .iter()
            .filter(|c| cands.is_money(c) && dec(c) == Some(t.2))
            .count()
            < 2
        && let Some(i) = arithmetic_total(cands, &table_lines)
        && i != t.1
        && let Some(d) = cands.items.get(i).and_then(dec)
    {
        chosen.total = Some((STRUCTURAL_CONFIDENCE, i, d));
        apply_tax_rows(&mut chosen, cands, &rows);
        choose_payable(&mut chosen, &pays, &pres);
    }
    // Per-rate VAT lines without bases (`USt. 20%  945,72` and `LSt. 10%  25,06`, an OCR-read
    // `USt.` no label names) whose amounts make total - net: the pair of scored net and total
    // candidates of the highest scores they explain.
    if !chosen.consistent
        && let Some((n, t, (vat, first))) = tots
            .iter()
            .flat_map(|t| nets.iter().map(move |n| (*n, *t)))
            .filter(|(n, t)| n.1 != t.1 && !n.2.is_zero())
            .filter_map(|(n, t)| rate_lines_explain(cands, t.2 - n.2).map(|x| (n, t, x)))
            .max_by(|a, b| (a.0.0 + a.1.0).total_cmp(&(b.0.0 + b.1.0)))
    {
        chosen.net = Some(n);
        chosen.total = Some(t);
        chosen.vat = Some((n.0.min(t.0), vat, Some(first)));
        chosen.consistent = true;
    }
    // The same among all the money amounts when no scored pair is explained; a candidate the
    // scorer also ranked keeps its score, others get STRUCTURAL_CONFIDENCE.
    if !chosen.consistent
        && let Some((ni, ti, vat, first)) =
            rate_lines_pair(cands, chosen.total.map_or(Decimal::ZERO, |t| t.2))
    {
        let value = |i: usize| cands.amount_at(i).and_then(dec);
        if let (Some(n), Some(t)) = (value(ni), value(ti)) {
            let (sn, st) = (score_in(&nets, ni), score_in(&tots, ti));
            chosen.net = Some((sn, ni, n));
            chosen.total = Some((st, ti, t));
            chosen.vat = Some((sn.min(st), vat, Some(first)));
            chosen.consistent = true;
        }
    }
    // Without a net to check them, VAT-labelled lines of several rates sum to the VAT when one
    // of them (or a zero) was chosen for the whole.
    if !chosen.consistent
        && chosen.net.is_none()
        && let (Some(t), Some((s, v, Some(vi)))) = (chosen.total, chosen.vat)
        && let Some((sum, at)) = labelled_rate_lines_sum(&cands.rate_lines, (vi, v), t.2)
    {
        chosen.vat = Some((s, sum, Some(at)));
    }
    // Amounts OCR broke with a space, read whole where that makes the arithmetic hold; the
    // payable is chosen again against the total read whole.
    if !chosen.consistent
        && let Some(repaired) = ocr_repair(cands, (&nets, &vats, &tots), &table_lines)
    {
        chosen = repaired;
        choose_payable(&mut chosen, &pays, &pres);
    }
    // Amounts only the printed arithmetic supports, at STRUCTURAL_CONFIDENCE: the net and VAT
    // that explain a total whose chosen net and VAT do not add up to it (or are missing), and
    // the whole triple when there is no total either. A consistent set is preferred to
    // individually higher-scored values.
    // A total and a VAT chosen without a net (no candidate scored as one): the amount printed
    // at or above the VAT's line that is total - VAT, the nearest to it, outside the item rows
    // where one is. Before any triple of amounts found by their arithmetic alone: the scored
    // total and VAT that a printed net completes are no total to look beyond (an account's
    // balance below the invoice, the sum of its open items, adds up too).
    if chosen.net.is_none()
        && let (Some(t), Some((_, v, Some(vi)))) = (chosen.total, chosen.vat)
        && let Some(ni) = net_of_total(cands, &rows, t.2, (v, vi))
    {
        chosen.net = Some((score_in(&nets, ni), ni, t.2 - v));
        chosen.consistent = true;
    }
    // No total, or a chosen one that no known label names, no arithmetic holds and no net and
    // VAT printed above it make: the net and total that the scored VAT amounts complete, printed
    // around them, are the document's ([`vat_anchored`]).
    if !chosen.consistent
        && chosen.total.is_none_or(|t| {
            !labelled_total(cands, t.1)
                && structural_split(cands, &t, &table_lines, &rows).is_none()
        })
        && let Some((ni, vat, vi, ti)) = vat_anchored(cands, &rows, &vats)
        && let (Some(n), Some(tv)) = (
            cands.amount_at(ni).and_then(dec),
            cands.amount_at(ti).and_then(dec),
        )
    {
        let sv = vats.iter().map(|v| v.0).fold(0.0, f32::max);
        chosen.net = Some((score_in(&nets, ni), ni, n));
        chosen.vat = Some((sv, vat, Some(vi)));
        chosen.total = Some((score_in(&tots, ti), ti, tv));
        chosen.consistent = true;
        choose_payable(&mut chosen, &pays, &pres);
    }
    // A triple found by its arithmetic never totals less than a chosen payable (payable = total
    // - prepaid).
    let payable_floor = chosen.payable.map_or(Decimal::ZERO, |p| p.2.abs());
    let structural = if chosen.total.is_none() {
        structural_triple(cands, &body_lines(cands, &table_lines), &rows, |d| {
            d.abs() >= payable_floor
        })
        .map(|(n, v, t)| (n, v, Some(t)))
    } else if !chosen.consistent {
        // The chosen total's own split; else, on a document that is no till receipt (whose
        // 0 % and taxed parts make several sums), a triple whose total exceeds the chosen one
        // (a quantity or a line's amount taken for the total of a table of unknown labels).
        let chosen_total = chosen.total.map_or(Decimal::ZERO, |t| t.2.abs());
        chosen
            .total
            .and_then(|t| {
                structural_split(cands, &t, &table_lines, &rows).map(|(n, v)| (n, v, None))
            })
            // Another total the scorer ranked within the consistency bonus whose net and VAT
            // are printed above it: a consistent set before a higher-scored lone amount.
            .or_else(|| {
                let floor = tots.first().map_or(0.0, |t| t.0 - CONSISTENCY_BONUS);
                tots.iter()
                    .filter(|o| o.0 >= floor && chosen.total.is_none_or(|t| t.1 != o.1))
                    .find_map(|o| {
                        structural_split(cands, o, &table_lines, &rows)
                            .map(|(n, v)| (n, v, Some(o.1)))
                    })
            })
            .or_else(|| {
                if cands.style.receipt {
                    return None;
                }
                structural_triple(cands, &body_lines(cands, &table_lines), &rows, |d| {
                    d.abs() > chosen_total && d.abs() >= payable_floor
                })
                .map(|(n, v, t)| (n, v, Some(t)))
            })
    } else {
        None
    };
    if let Some((n, v, t)) = structural {
        let pick = |i: usize| {
            cands
                .amount_at(i)
                .and_then(dec)
                .map(|d| (STRUCTURAL_CONFIDENCE, i, d))
        };
        chosen.net = pick(n);
        chosen.vat = pick(v).map(|(s, i, d)| (s, d, Some(i)));
        if let Some(t) = t {
            chosen.total = pick(t);
        }
        chosen.consistent = chosen.net.is_some() && chosen.vat.is_some() && chosen.total.is_some();
        if t.is_some() {
            choose_payable(&mut chosen, &pays, &pres);
        }
    }
    // Net and VAT of several rates whose rate OCR garbled (`Сиго: 2096  4904006,49` over `биго:
    // 790  287009,00`: `20%`, `7%`), so no rate line says so: the net printed right above the
    // VAT lines, the total right below them.
    if !chosen.consistent
        && structural.is_none()
        && let Some(t) = chosen.total
        && let Some((ni, n, vi, v)) = split_over_lines(cands, &t, &table_lines)
    {
        chosen.net = Some((STRUCTURAL_CONFIDENCE, ni, n));
        chosen.vat = Some((STRUCTURAL_CONFIDENCE, v, Some(vi)));
        chosen.consistent = true;
    }
    // The item rows sum to a printed amount other than the chosen net: the net, with the VAT
    // and total printed below it ([`rows_net`]).
    if rows_net(&mut chosen, cands, &table_lines, [&nets, &vats, &tots]) {
        choose_payable(&mut chosen, &pays, &pres);
    }
    let mut structural = structural.is_some();
    // Net and VAT without a total (its label unknown): the amount printed below both that is
    // their sum.
    if chosen.total.is_none()
        && let (Some(n), Some((_, v, Some(vi)))) = (chosen.net, chosen.vat)
        && let Some(t) = sum_below(cands, &table_lines, &n, v, vi)
    {
        chosen.total = Some((STRUCTURAL_CONFIDENCE, t, n.2 + v));
        chosen.consistent = true;
        structural = true;
    }
    // A chosen total that no arithmetic holds, larger than what the item rows sum to under
    // them, with the difference printed below it: cash tendered and the change given back
    // (`12.20` / `20.00` / `7.80`), whatever their labels. The rows' sum is the total.
    if !chosen.consistent
        && let Some(t) = chosen.total
        && let Some((xi, x)) = rows_sum_below(cands)
        && cands
            .amount_at(t.1)
            .is_some_and(|paid| paid_for(cands, paid, x))
    {
        if chosen.payable.is_some_and(|p| p.2 == t.2) {
            chosen.payable = None;
        }
        chosen.total = Some((STRUCTURAL_CONFIDENCE, xi, x));
        structural = true;
    }
    // Still no net and VAT that make the chosen total: those the printed arithmetic finds for
    // its value among all the amounts, OCR's broken ones read whole (`-106.443, 38 kr.`), each
    // at its score where the scorer ranked it.
    if !chosen.consistent
        && let Some(t) = chosen.total
        && let Some((n, v, _)) =
            structural_triple(cands, &body_lines(cands, &table_lines), &rows, |d| d == t.2)
        && let (Some(nd), Some(vd)) = (
            cands.amount_at(n).and_then(dec),
            cands.amount_at(v).and_then(dec),
        )
    {
        chosen.net = Some((score_in(&nets, n), n, nd));
        chosen.vat = Some((score_in(&vats, v), vd, Some(v)));
        chosen.consistent = true;
    }
    // Still no total: the amount that the cash paid less the change, or the VAT summary rows
    // (bases and amounts), make.
    if chosen.total.is_none()
        && let Some(t) = structural_total(cands, &table_lines)
        && let Some(d) = cands.items.get(t).and_then(dec)
        && d.abs() >= payable_floor
    {
        chosen.total = Some((STRUCTURAL_CONFIDENCE, t, d));
        structural = true;
        choose_payable(&mut chosen, &pays, &pres);
        apply_tax_rows(&mut chosen, cands, &rows);
    }
    // A cash rounding around the total: the amount before it is the total (net + VAT), the
    // rounded one the payable, unless a known label calls the rounded amount a total
    // (`TOTAL ROUNDED`) or the amount before it was chosen as the net. Chosen as the net, on a
    // document that is no till receipt, it is still the total where a net and a VAT printed
    // above it make it (`I alt ekskl. moms  48.988,03`, `Moms 25%  12.247,01`, `Fakturabeløb
    // 61.235,04`, `Øreafrunding  0,01`, `Til betaling  61.235,05`).
    if let Some(t) = chosen.total
        && let Some(((xi, x), (yi, y))) = cash_rounding(cands, &roundings, t.1)
    {
        let rounded_from = t.1 == yi && !labelled_total(cands, yi) && !chosen.consistent;
        if rounded_from && chosen.net.is_none_or(|n| n.1 != xi) {
            chosen.total = Some((t.0, xi, x));
            chosen.payable = Some((t.0, yi, y));
            // The total before the rounding is what the VAT summary rows make.
            apply_tax_rows(&mut chosen, cands, &rows);
        } else if rounded_from
            && !cands.style.receipt
            && let Some((ni, vi)) = structural_split(cands, &(t.0, xi, x), &table_lines, &rows)
            && let (Some(n), Some(v)) = (
                cands.amount_at(ni).and_then(dec),
                cands.amount_at(vi).and_then(dec),
            )
        {
            chosen.net = Some((score_in(&nets, ni), ni, n));
            chosen.vat = Some((score_in(&vats, vi), v, Some(vi)));
            chosen.total = Some((t.0, xi, x));
            chosen.payable = Some((t.0, yi, y));
            chosen.consistent = true;
        } else if t.1 == xi && chosen.payable.is_none_or(|p| p.2 == x) {
            chosen.payable = Some((t.0, yi, y));
        }
    }
    // A total without net or VAT: the VAT its rate lines say it includes (the total before a
    // cash rounding: the rounded amount paid includes no VAT of its own). A VAT no arithmetic
    // supports that is not below the total (dropped below) is none.
    if let Some(t) = chosen.total
        && chosen.net.is_none()
        && chosen
            .vat
            .is_none_or(|v| !chosen.consistent && v.1.abs() >= t.2.abs())
        && let Some((vat, first)) = included_vat(&cands.rate_lines, t.2)
    {
        chosen.vat = Some((STRUCTURAL_CONFIDENCE, vat, Some(first)));
    }
    summary_sums(&mut chosen, cands, &rows);
    joined_payable(&mut chosen, cands, &rounding_values);
    lost_digit_payable(&mut chosen, cands);
    unexplained_payable_above(&mut chosen, cands, &roundings);
    paid_between(&mut chosen, cands, &roundings);
    paid_below(&mut chosen, cands);
    let Chosen {
        mut net,
        vat: mut vat_value,
        mut total,
        payable,
        prepaid,
        consistent,
    } = chosen;
    // `NET TOTAL` printed last, below the VAT lines, as the largest amount: the final total of a
    // receipt, not a net amount.
    if total.is_none()
        && let Some(n) = net
        && let Some(nc) = cands.amount_at(n.1)
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
    let bonus = if consistent && !structural {
        CONSISTENCY_BONUS
    } else {
        0.0
    };
    if !consistent {
        // Without arithmetic support, keep VAT only when it is plausible against the total:
        // at most a quarter of it (a rate of a third; the highest standard rate, 27 %, is 21 %
        // of the gross).
        if let (Some(v), Some(t)) = (vat_value, total)
            && v.1.abs() * Decimal::from(4) > t.2.abs()
        {
            vat_value = None;
        }
        if let (Some(n), Some(t)) = (net, total)
            && n.2.abs() > t.2.abs()
        {
            net = None;
        }
    }
    if let Some((s, i, d)) = total
        && let Some(c) = cands.amount_at(i)
    {
        ctx.result.totals.total = Some(d.to_string());
        ctx.put("/totals/total", s + bonus, &c.span);
    }
    if let Some((s, i, d)) = net
        && let Some(c) = cands.amount_at(i)
    {
        ctx.result.totals.net = Some(d.to_string());
        ctx.put("/totals/net", s + bonus, &c.span);
    }
    if let Some((s, d, i)) = vat_value {
        ctx.result.totals.vat = Some(d.to_string());
        if let Some(c) = i.and_then(|i| cands.amount_at(i)) {
            ctx.put("/totals/vat", s + bonus, &c.span);
        }
    }
    if let Some((s, i, d)) = payable
        && let Some(c) = cands.amount_at(i)
    {
        ctx.result.totals.payable = Some(d.to_string());
        ctx.put("/totals/payable", s, &c.span);
    }
    if let Some((s, i, d)) = prepaid
        && let Some(c) = cands.amount_at(i)
    {
        ctx.result.totals.prepaid = Some(d.to_string());
        ctx.put("/totals/prepaid", s, &c.span);
    }
    // The best-scored allowance for the line items to read (a gross-priced table's net is
    // confirmed against the net before it); [`adjustments`] decides once the rows are read.
    if let Some((s, i, d)) = top(Field::Discount).first().copied()
        && let Some(c) = cands.amount_at(i)
    {
        ctx.result.totals.discount = Some(d.abs().to_string());
        ctx.put("/totals/discount", s, &c.span);
    }
}

/// A payable below the total that no chosen prepaid amount explains (`total - prepaid =
/// payable`): a money amount printed on or below the total's line that is exactly the
/// difference is what was paid before (a payments table's `Virement  05/11/2017  201,00 €`
/// over `Solde à payer  470,15 €`), at [`RECONCILED_CONFIDENCE`]; one printed negative
/// (`Erhaltene Anzahlungen  -50,00`) too. Not on a line another totals label names (a cash
/// rounding `Afronding  -0,01`, a discount, change). The first such amount in reading order.
/// With a cash rounding printed between them (`Bendra vertė: 388197,54`, `Apvalin.: 0,01`,
/// `Jau apmokėta: -77640,00`, `Suma apmokėjimui: 310557,55`), the difference less or plus the
/// rounding (one of the [`printed_roundings`] on a line from the total's to the payable's)
/// counts too.
/// A payable that the total neither is nor makes, on a line where OCR broke an amount with a
/// space (`Til betaling:  56.7 81,70 DKK`, read `81,70`): the joined reading of that line that is
/// the total, the total with a printed cash rounding, or the total rounded for cash.
fn joined_payable(chosen: &mut Chosen, cands: &Candidates, roundings: &[Decimal]) {
    let (Some(t), Some(p)) = (chosen.total, chosen.payable) else {
        return;
    };
    let made = |v: Decimal| {
        v == t.2 || roundings.iter().any(|&r| t.2 + r == v) || crate::validate::cash_rounded(t.2, v)
    };
    if made(p.2) || chosen.prepaid.is_some_and(|q| t.2 - q.2 == p.2) {
        return;
    }
    let Some(line) = cands.amount_at(p.1).map(|c| c.span.line) else {
        return;
    };
    if let Some((k, v)) = cands
        .joined_amounts()
        .filter(|(_, c)| c.span.line == line)
        .filter_map(|(k, c)| dec(c).map(|v| (k, v)))
        .find(|&(_, v)| made(v))
    {
        chosen.payable = Some((p.0, k, v));
    }
}

/// Whether `short` prints as `full` with one digit lost (`252.93` for `2252.93`): the same sign
/// and cents, the whole digits of `full` less one of them.
fn one_digit_lost(full: Decimal, short: Decimal) -> bool {
    if full.is_sign_negative() != short.is_sign_negative() {
        return false;
    }
    let (f, s) = (format!("{:.2}", full.abs()), format!("{:.2}", short.abs()));
    f.len() == s.len() + 1 && (0..f.len()).any(|k| f[..k].to_string() + &f[k + 1..] == s)
}

/// A payable the chosen total and prepaid contradict (the total's own print, with a prepaid
/// read: `total - prepaid = payable` fails), where an amount printed on one of the two lines
/// under the prepaid reads as `total - prepaid` with one digit OCR lost (`Nog te betalea:252.93`
/// for 2.252,93): that difference is the payable, the short print its evidence.
fn lost_digit_payable(chosen: &mut Chosen, cands: &Candidates) {
    let (Some(t), Some(p), Some(q)) = (chosen.total, chosen.payable, chosen.prepaid) else {
        return;
    };
    let left = t.2 - q.2;
    if q.2.is_zero()
        || p.2 != t.2
        || left.is_zero()
        || left.is_sign_negative() != t.2.is_sign_negative()
    {
        return;
    }
    let Some(ql) = cands.amount_at(q.1).map(|c| c.span.line) else {
        return;
    };
    if let Some((k, _)) = (ql + 1..=ql + 2)
        .flat_map(|l| money_on(cands, l))
        .find(|&(_, v)| one_digit_lost(left, v))
    {
        chosen.payable = Some((p.0.min(q.0), k, left));
    }
}

fn paid_between(chosen: &mut Chosen, cands: &Candidates, roundings: &[(usize, usize, Decimal)]) {
    let (Some(t), Some(p)) = (chosen.total, chosen.payable) else {
        return;
    };
    let Some(diff) = t.2.checked_sub(p.2).filter(|d| !d.is_zero()) else {
        return;
    };
    let explained = |q: &Scored| t.2.checked_sub(q.2.abs()) == Some(p.2);
    // A payable that is the total rounded for cash (`SUMA 564,21`, `-0,21` under a label no
    // vocabulary knows, `564,00`) was paid in full: the difference is the rounding.
    if chosen.prepaid.as_ref().is_some_and(explained)
        || diff.is_sign_negative() != t.2.is_sign_negative()
        || crate::validate::cash_rounded(t.2, p.2)
    {
        return;
    }
    let Some(total_line) = cands.amount_at(t.1).map(|c| c.span.line) else {
        return;
    };
    let roundings = roundings_between(cands, roundings, t.1, p.1);
    let found = cands.items.iter().enumerate().find(|(i, c)| {
        *i != t.1
            && *i != p.1
            && c.span.line >= total_line
            && cands.is_money(c)
            && dec(c).is_some_and(|v| prepaid_of(v.abs(), diff.abs(), &roundings))
            && totals_labels_only(cands, c.span.line, &[LabelKey::Prepaid])
    });
    if let Some((i, c)) = found
        && let Some(v) = dec(c)
    {
        chosen.prepaid = Some((RECONCILED_CONFIDENCE, i, v.abs()));
    }
}

/// The values of the printed cash roundings ([`printed_roundings`]) on the lines from one
/// amount's (candidate index `a`) to another's (`b`), either first.
fn roundings_between(
    cands: &Candidates,
    roundings: &[(usize, usize, Decimal)],
    a: usize,
    b: usize,
) -> Vec<Decimal> {
    let line = |i: usize| cands.amount_at(i).map(|c| c.span.line);
    let (Some(la), Some(lb)) = (line(a), line(b)) else {
        return Vec::new();
    };
    let (lo, hi) = (la.min(lb), la.max(lb));
    roundings
        .iter()
        .filter(|r| (lo..=hi).contains(&r.0))
        .map(|r| r.2)
        .collect()
}

/// Whether `paid` is the `diff` between the total and the payable: exactly, or with one of the
/// cash roundings printed between them (of either sign; `paid` a sum a rounding is a small
/// part of, [`rounds`]).
fn prepaid_of(paid: Decimal, diff: Decimal, roundings: &[Decimal]) -> bool {
    paid == diff
        || roundings
            .iter()
            .any(|r| rounds(*r, paid) && (paid + r.abs() == diff || paid - r.abs() == diff))
}

/// A payable printed above the total, less than it, that no prepaid amount explains (`total -
/// prepaid = payable`, within a printed cash rounding): the amount due is what is left after
/// the total, printed at or below it, so an amount above it is a part of it (the items' sum
/// before an allowance, `Suma  31376,05` over `Suteikta nuolaida  -3136,32`; a per-rate row of
/// a totals table whose last row is the total). It is no payable.
fn unexplained_payable_above(
    chosen: &mut Chosen,
    cands: &Candidates,
    roundings: &[(usize, usize, Decimal)],
) {
    let (Some(t), Some(p)) = (chosen.total, chosen.payable) else {
        return;
    };
    let (Some(tc), Some(pc)) = (cands.amount_at(t.1), cands.amount_at(p.1)) else {
        return;
    };
    let explained = chosen.prepaid.is_some_and(|q| {
        let roundings = roundings_between(cands, roundings, t.1, p.1);
        t.2.checked_sub(p.2)
            .is_some_and(|diff| prepaid_of(q.2.abs(), diff.abs(), &roundings))
    });
    if p.2 != t.2
        && p.2.abs() < t.2.abs()
        && !explained
        && (pc.span.page, pc.span.line) < (tc.span.page, tc.span.line)
    {
        chosen.payable = None;
    }
}

/// A prepaid amount and the payable after it that no known label names (`Ennakkolasku  EUR
/// -5608,00` and `Avoin summa:  EUR 22430,82` under `Kokonaissumma:  EUR 28038,82`): where the
/// payable is the total itself or none was chosen, the chosen prepaid amount or, without one,
/// the first amount printed negative below the total's line on its page (on a line no totals
/// label but a prepaid one names: not a cash rounding, a discount or change) and, below it, the
/// amount the total less it makes (on a line no totals label but a payable or total one names:
/// `Avoin summa`) are what was paid before and what is left to pay, at
/// [`RECONCILED_CONFIDENCE`]: `total - prepaid = payable` holds to the cent. Less than one unit
/// found by its sign alone is a cash rounding: it makes the payable, no prepaid amount. Paid in
/// full (nothing left), the zero must stand on a line a payable's or total's label names.
fn paid_below(chosen: &mut Chosen, cands: &Candidates) {
    let Some(t) = chosen.total else {
        return;
    };
    if !t.2.is_sign_positive() || chosen.payable.is_some_and(|p| p.2 != t.2) {
        return;
    }
    let Some(tc) = cands.amount_at(t.1) else {
        return;
    };
    let first_below = |line: usize, want: &dyn Fn(Decimal) -> bool| {
        cands
            .items
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                c.span.page == tc.span.page
                    && c.span.line > line
                    && cands.is_money(c)
                    && dec(c).is_some_and(want)
            })
            .min_by_key(|(_, c)| (c.span.line, c.span.start))
    };
    // The prepaid amount: the one chosen (its payable not found: `Jau samaksāts  -52818,00`
    // chosen, `Jāmaksā` lost to OCR), else the first amount printed negative below the total.
    let (ni, line, paid) = match chosen.prepaid {
        Some(q) => match cands.amount_at(q.1) {
            Some(c) => (q.1, c.span.line, q.2.abs()),
            None => return,
        },
        None => {
            let Some((ni, n)) =
                first_below(tc.span.line, &|v| v.is_sign_negative() && !v.is_zero())
            else {
                return;
            };
            let Some(paid) = dec(n)
                .map(|v| v.abs())
                .filter(|_| totals_labels_only(cands, n.span.line, &[LabelKey::Prepaid]))
            else {
                return;
            };
            (ni, n.span.line, paid)
        }
    };
    let left = t.2 - paid;
    if !left.is_sign_positive() {
        return;
    }
    // Paid in full (a hotel's folio settled at departure): the zero left must be labelled as
    // what is left to pay, not merely printed (a till's `Change  0,00`).
    let named_left = |line: usize| {
        !left.is_zero()
            || cands.line_has(line, LabelKey::Payable)
            || cands.line_has(line, LabelKey::Total)
    };
    if let Some((pi, p)) = first_below(line, &|v| v == left)
        && totals_labels_only(cands, p.span.line, &[LabelKey::Payable, LabelKey::Total])
        && named_left(p.span.line)
    {
        // Less than one unit found by its sign alone is a cash rounding (`Zaokr.  -0,02`):
        // it makes the payable, it was not paid before.
        if chosen.prepaid.is_some() || paid >= Decimal::ONE {
            let score = chosen.prepaid.map_or(RECONCILED_CONFIDENCE, |q| q.0);
            chosen.prepaid = Some((score, ni, paid));
        }
        chosen.payable = Some((RECONCILED_CONFIDENCE, pi, left));
    }
}

/// Whether the totals labels of a line are all among `keys` (none at all included): a prepaid
/// amount's line names no cash rounding, discount or change.
fn totals_labels_only(cands: &Candidates, line: usize, keys: &[LabelKey]) -> bool {
    cands
        .labels_of(line)
        .iter()
        .all(|h| !h.key.is_totals() || keys.contains(&h.key))
}

/// The best six scored candidates of a field with their values, best first.
fn top(
    feats: &[(usize, CandidateFeatures)],
    cands: &Candidates,
    scorer: &dyn FieldScorer,
    field: Field,
) -> Vec<Scored> {
    ranked(feats, scorer, field)
        .into_iter()
        .filter_map(|(s, i)| cands.items.get(i).and_then(dec).map(|d| (s, i, d)))
        .take(6)
        .collect()
}

/// A charge candidate filled without the line items' arithmetic to confirm it must score this
/// much (a charge label on its line scores 0.8 less the rules' penalties: a table cell, a label
/// only above it, values between them).
const STANDALONE_CHARGES: f32 = 0.6;

/// The confidence of an allowance or charge read from the line that prints the line sum and the
/// net ([`printed_reconciliation`]): no label names it, the arithmetic to the cent does.
const RECONCILED_CONFIDENCE: f32 = 0.6;

/// The document-level allowances (`totals.discount`) and charges (`totals.charges`), chosen
/// after the line items (EN 16931 BR-CO-13: net = lines + charges - allowances):
///
/// * where the item amounts do not sum to the net (or, without a net, to total - VAT), the
///   labelled allowance and charge candidates outside the item rows whose values close the gap
///   exactly (within the line sum's rounding) win over individually better-scored ones, and
///   their confidence gets [`CONSISTENCY_BONUS`]; a gap that none close leaves the best of each;
/// * only money amounts outside the item rows count (the `10` of `innerhalb 10 Tagen 2 %
///   Skonto` is no allowance);
/// * elsewhere the best-scored allowance stands alone (its sign dropped), and a charge only where
///   it scores [`STANDALONE_CHARGES`]: a lines sum that already equals the net leaves no room
///   for a charge, which is then an item row's own.
pub(super) fn adjustments(
    ctx: &mut Ctx<'_>,
    feats: &[(usize, CandidateFeatures)],
    cands: &Candidates,
    scorer: &dyn FieldScorer,
) {
    let rows: Vec<usize> = cands
        .item_tables()
        .into_iter()
        .flat_map(|t| &t.rows)
        .flat_map(|r| r.lines.iter().copied())
        .collect();
    let outside = |list: Vec<Scored>| -> Vec<Scored> {
        list.into_iter()
            .filter(|x| {
                cands
                    .amount_at(x.1)
                    .is_some_and(|c| cands.is_money(c) && !rows.contains(&c.span.line))
            })
            .map(|(s, i, d)| (s, i, d.abs()))
            .collect()
    };
    let allowances = outside(top(feats, cands, scorer, Field::Discount));
    let charges = outside(top(feats, cands, scorer, Field::Charges));
    let (mut allowance, mut charge) = (
        allowances.first().copied(),
        charges
            .first()
            .copied()
            .filter(|c| c.0 >= STANDALONE_CHARGES),
    );
    let mut bonus = 0.0;
    if let Some((sum, net, tol)) = lines_and_net(&ctx.result)
        && sum.checked_sub(net).is_none_or(|d| d.abs() > tol)
    {
        let none = || std::iter::once(None);
        // (score, value, candidate) of a pick, nothing as zero.
        let part =
            |x: Option<Scored>| x.map_or((0.0, Decimal::ZERO, None), |x| (x.0, x.2, Some(x.1)));
        let mut best: Option<(f32, Option<Scored>, Option<Scored>)> = None;
        for a in none().chain(allowances.iter().copied().map(Some)) {
            for c in none().chain(charges.iter().copied().map(Some)) {
                let ((sa, va, ia), (sc, vc, ic)) = (part(a), part(c));
                if (ia.is_none() && ic.is_none()) || (ia.is_some() && ia == ic) {
                    continue;
                }
                let gap = sum
                    .checked_add(vc)
                    .and_then(|x| x.checked_sub(va))
                    .and_then(|x| x.checked_sub(net));
                if gap.is_some_and(|g| g.abs() <= tol) && best.is_none_or(|b| sa + sc > b.0) {
                    best = Some((sa + sc, a, c));
                }
            }
        }
        if let Some((_, a, c)) = best {
            (allowance, charge) = (a, c);
            bonus = CONSISTENCY_BONUS;
        } else if let Some((a, c)) = printed_reconciliation(cands, sum, net, tol) {
            (allowance, charge) = (a, c);
        } else if let Some((a, c)) = stacked_reconciliation(cands, &rows, sum, net, tol) {
            (allowance, charge) = (a, c);
        }
    }
    for pointer in ["/totals/discount", "/totals/charges"] {
        ctx.result.confidence.fields.remove(pointer);
        ctx.result.evidence.remove(pointer);
    }
    ctx.result.totals.discount = allowance.map(|p| p.2.to_string());
    ctx.result.totals.charges = charge.map(|p| p.2.to_string());
    for (pointer, pick) in [("/totals/discount", allowance), ("/totals/charges", charge)] {
        if let Some((s, i, _)) = pick
            && let Some(c) = cands.amount_at(i)
        {
            ctx.put(pointer, s + bonus, &c.span);
        }
    }
}

/// Where no labelled allowance or charge closes the gap between the line sum and the net: a
/// line that prints both (left to right: the sum first) with the adjustments between them, the
/// sum row of a totals table (`Warenwert  Zu-/Abschlag  Fracht  Nettobetrag ...` over `457,20
/// -11,21  3,00  448,99 ...`). One other amount of the line, or two of opposite signs, that close
/// the gap read with their printed sign: negative an allowance, positive a charge; at
/// [`RECONCILED_CONFIDENCE`]. (allowance, charge).
fn printed_reconciliation(
    cands: &Candidates,
    sum: Decimal,
    net: Decimal,
    tol: Decimal,
) -> Option<(Option<Scored>, Option<Scored>)> {
    let money: Vec<(usize, &Candidate, Decimal)> = money_values(cands).collect();
    let gap = net.checked_sub(sum)?;
    let closes = |x: Decimal| x.checked_sub(gap).is_some_and(|d| d.abs() <= tol);
    let as_pick = |(i, _, d): (usize, &Candidate, Decimal)| (RECONCILED_CONFIDENCE, i, d.abs());
    for &(si, sc, _) in money.iter().filter(|m| m.2 == sum) {
        let line = sc.span.line;
        let on_line = || money.iter().copied().filter(move |m| m.1.span.line == line);
        let Some(ni) = on_line()
            .find(|m| m.2 == net && m.1.span.start > sc.span.start)
            .map(|m| m.0)
        else {
            continue;
        };
        let others: Vec<_> = on_line().filter(|m| m.0 != si && m.0 != ni).collect();
        let split = |picks: &[(usize, &Candidate, Decimal)]| {
            let allowance = picks.iter().find(|m| m.2.is_sign_negative()).copied();
            let charge = picks.iter().find(|m| m.2.is_sign_positive()).copied();
            (allowance.map(as_pick), charge.map(as_pick))
        };
        if let Some(&m) = others.iter().find(|m| !m.2.is_zero() && closes(m.2)) {
            return Some(split(&[m]));
        }
        for (k, &a) in others.iter().enumerate() {
            for &b in &others[k + 1..] {
                if a.2.is_sign_negative() != b.2.is_sign_negative()
                    && !a.2.is_zero()
                    && !b.2.is_zero()
                    && a.2.checked_add(b.2).is_some_and(closes)
                {
                    return Some(split(&[a, b]));
                }
            }
        }
    }
    None
}

/// Every money amount of the document with its value: (candidate index, candidate, value).
fn money_values(cands: &Candidates) -> impl Iterator<Item = (usize, &Candidate, Decimal)> {
    cands
        .items
        .iter()
        .enumerate()
        .filter(|(_, c)| cands.is_money(c))
        .filter_map(|(i, c)| dec(c).map(|d| (i, c, d)))
}

/// The amounts printed between the line sum and the net, in reading order: the rows' sum
/// (`Summe Positionen  1.359,26`), then the adjustments, each on its own line (`Verpackung
/// 23,94`, `Fracht  12,00`, `Sonderrabatt 3%  -40,78`) or run on as one line, then the net
/// (`Nettobetrag  1.354,42`, or a VAT summary row's base). Where all of them, read with their
/// printed sign, add up to net - sum, they are the adjustments whatever their labels: the
/// negative ones' sum an allowance, the positive ones' a charge, at [`RECONCILED_CONFIDENCE`],
/// each with the first such amount's evidence. The nearest net after the sum; where none is
/// printed (the VAT summary's bases make it), the lines right under the sum that print one
/// amount each, as many as close the gap. At most [`STACKED_ADJUSTMENTS`] amounts. (allowance,
/// charge).
fn stacked_reconciliation(
    cands: &Candidates,
    rows: &[usize],
    sum: Decimal,
    net: Decimal,
    tol: Decimal,
) -> Option<(Option<Scored>, Option<Scored>)> {
    let gap = net.checked_sub(sum)?;
    if gap.abs() <= tol {
        return None;
    }
    let mut money: Vec<(usize, &Candidate, Decimal)> = money_values(cands)
        .filter(|m| !rows.contains(&m.1.span.line))
        .collect();
    money.sort_by_key(|m| (m.1.span.line, m.1.span.start));
    let closes = |between: &[(usize, &Candidate, Decimal)]| {
        let signed: Decimal = between.iter().map(|m| m.2).sum();
        !between.is_empty()
            && between.len() <= STACKED_ADJUSTMENTS
            && (signed - gap).abs() <= tol
            && between.iter().all(|m| !m.2.is_zero())
    };
    let alone = |line: usize| money.iter().filter(|m| m.1.span.line == line).count() == 1;
    money
        .iter()
        .enumerate()
        .filter(|(_, m)| m.2 == sum)
        .find_map(|(k, _)| {
            let after = &money[k + 1..];
            let between = match after.iter().position(|m| m.2 == net) {
                Some(n) => Some(&after[..n]).filter(|b| closes(b)),
                // No net printed (the sum of a VAT summary's bases): the lines right under the
                // sum that print one amount each, as many as close the gap.
                None => {
                    let sum_line = money[k].1.span.line;
                    let run = after
                        .iter()
                        .enumerate()
                        .take_while(|(j, m)| {
                            m.1.span.line == sum_line + j + 1 && alone(m.1.span.line)
                        })
                        .count();
                    (1..=run.min(STACKED_ADJUSTMENTS))
                        .map(|len| &after[..len])
                        .find(|b| closes(b))
                }
            }?;
            let part = |negative: bool| {
                let picked: Vec<_> = between
                    .iter()
                    .filter(|m| m.2.is_sign_negative() == negative)
                    .collect();
                let first = picked.first()?;
                let total: Decimal = picked.iter().map(|m| m.2.abs()).sum();
                Some((RECONCILED_CONFIDENCE, first.0, total))
            };
            Some((part(true), part(false)))
        })
}

/// The most adjustments [`stacked_reconciliation`] reads between a sum and a net.
const STACKED_ADJUSTMENTS: usize = 4;

/// The sum of the line items' net amounts, the net they must make (`totals.net`, else total -
/// VAT) and the rounding the sum may carry ([`DocumentResult::line_sum_tolerance`]); `None`
/// where a priced line has no net amount or the Result has no net to compare with.
/// The confidence of a net and a VAT that a complete table of balanced rows confirms
/// ([`confirmed_by_rows`]).
const ROWS_CONFIRM: f32 = 0.8;

/// A net and a VAT the item rows confirm, however they were chosen (a structural pick has
/// [`STRUCTURAL_CONFIDENCE`]): the table is complete (every row balanced, the rows summing to an
/// amount printed under them: [`crate::validate::VERIFIED_LINE`]), its amounts sum to the net
/// to the cent, its rows' VAT amounts (all printed) sum to the VAT to the cent, and net + VAT is
/// the total. Two readings of the document agree: each of the two is at least [`ROWS_CONFIRM`].
pub(super) fn confirmed_by_rows(ctx: &mut Ctx<'_>) {
    let r = &ctx.result;
    let complete = r
        .confidence
        .fields
        .get("/line_items")
        .is_some_and(|c| *c >= crate::validate::VERIFIED_LINE);
    let sum = |f: fn(&crate::result::LineItem) -> &Option<String>| {
        r.line_items
            .iter()
            .map(|li| decimal(f(li)))
            .try_fold(Decimal::ZERO, |a, b| a.checked_add(b?))
    };
    let t = &r.totals;
    let (Some(n), Some(v), Some(total)) = (decimal(&t.net), decimal(&t.vat), decimal(&t.total))
    else {
        return;
    };
    let holds = complete
        && !r.line_items.is_empty()
        && sum(|li| &li.amount) == Some(n)
        && sum(|li| &li.vat_amount) == Some(v)
        && n + v == total;
    if !holds {
        return;
    }
    for pointer in ["/totals/net", "/totals/vat"] {
        if let Some(c) = ctx.result.confidence.fields.get(pointer).copied()
            && c < f64::from(ROWS_CONFIRM)
        {
            ctx.confidence(pointer, ROWS_CONFIRM);
        }
    }
}

fn lines_and_net(r: &DocumentResult) -> Option<(Decimal, Decimal, Decimal)> {
    let priced = r.priced_lines();
    if priced.is_empty() {
        return None;
    }
    let sum = priced
        .iter()
        .map(|li| decimal(&li.amount))
        .try_fold(Decimal::ZERO, |a, b| a.checked_add(b?))?;
    let t = &r.totals;
    let net = decimal(&t.net).or_else(|| decimal(&t.total)?.checked_sub(decimal(&t.vat)?))?;
    let tol = r.line_sum_tolerance();
    Some((sum, net, tol))
}

/// VAT summary lines: the rows found by their arithmetic when they explain the document's net
/// and VAT ([`Candidates::tax_rows`]); else every line with a VAT label and a percentage with one or two
/// amounts.
pub(super) fn taxes(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let totals = &ctx.result.totals;
    // Table bodies: of the tables found by their header, and the item rows found by their
    // arithmetic.
    let table_lines = cands.table_lines(ctx.doc.lines.len());
    let item_lines = item_rows(cands);
    // All the rows read as per-rate rows, else the summary's alone ([`outside_items`]).
    let explains = |rows: &[TaxRow], net: Decimal, vat: Decimal| {
        rows_explain(rows, net + vat) == Some((net, vat))
    };
    if let (Some(net), Some(vat)) = (decimal(&totals.net), decimal(&totals.vat))
        && let Some(rows) = if explains(&cands.tax_rows, net, vat) {
            Some(cands.tax_rows.clone())
        } else {
            Some(outside_items(cands, &item_lines, &table_lines))
                .filter(|rows| explains(rows, net, vat))
        }
    {
        let mut out = Vec::new();
        for (idx, r) in rows.iter().enumerate() {
            out.push(TaxLine {
                rate: Some(r.rate.1.normalize().to_string()),
                base: Some(r.base.1.to_string()),
                amount: Some(r.amount.1.to_string()),
            });
            if let Some(c) = cands.items.get(r.rate.0) {
                ctx.put(&format!("/taxes/{idx}/rate"), 0.8, &c.span);
            }
        }
        ctx.result.taxes = out;
        return;
    }
    // Per-rate lines without bases whose amounts make the VAT (net + VAT = total held).
    if let (Some(net), Some(vat), Some(total)) = (
        decimal(&totals.net),
        decimal(&totals.vat),
        decimal(&totals.total),
    ) && net + vat == total
        && let Some(sum) = cands.rate_sums.iter().find(|s| s.vat == vat)
    {
        let mut out = Vec::new();
        for (idx, (l, amount)) in sum
            .lines
            .iter()
            .map(|&k| &cands.rate_lines[k])
            .zip(&sum.amounts)
            .enumerate()
        {
            out.push(TaxLine {
                rate: Some(l.rate.1.normalize().to_string()),
                base: None,
                amount: Some(amount.1.to_string()),
            });
            if let Some(c) = cands.items.get(l.rate.0) {
                ctx.put(&format!("/taxes/{idx}/rate"), 0.7, &c.span);
            }
        }
        ctx.result.taxes = out;
        return;
    }
    let mut out: Vec<TaxLine> = Vec::new();
    // No line of a table body (`1 Toolbox  100,00  10 Stk  0 % VAT (K)  1000,00` names a tax
    // category, its amounts are a price and a row's amount).
    for (li, hits) in cands.line_labels.iter().enumerate() {
        if !hits.iter().any(|h| h.key == LabelKey::Vat)
            || table_lines.get(li).copied().unwrap_or(false)
            || item_lines.contains(&li)
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
        let valued: Vec<&&Candidate> = on_line
            .iter()
            .filter(|c| c.scheme.is_none() && c.span.start > rate.span.start || cands.is_money(c))
            .collect();
        let vals: Vec<Decimal> = valued.iter().filter_map(|c| dec(c)).collect();
        let (base, amount) = match vals.as_slice() {
            [a] => (None, Some(*a)),
            [a, b] => {
                let (lo, hi) = if a <= b { (*a, *b) } else { (*b, *a) };
                (Some(hi), Some(lo))
            }
            [] => continue,
            // More amounts on the line (a totals block printed as running text, `Total sin IVA:
            // 7.145,20  Total IVA 21% 1.295,83  Total IVA: 1.393,29 ...`): the base and the tax
            // the rate makes of it, right after the rate or around it; else the amount right
            // after the rate alone.
            _ => {
                let Some(r) = dec(rate) else {
                    continue;
                };
                let makes = |b: Decimal, a: Decimal| {
                    (b * r / Decimal::ONE_HUNDRED - a).abs() <= Decimal::new(5, 2)
                };
                let after: Vec<Decimal> = valued
                    .iter()
                    .filter(|c| c.span.start > rate.span.start)
                    .filter_map(|c| dec(c))
                    .collect();
                let before = valued
                    .iter()
                    .rev()
                    .find(|c| c.span.start < rate.span.start)
                    .and_then(|c| dec(c));
                match (after.as_slice(), before) {
                    ([b, a, ..], _) if makes(*b, *a) => (Some(*b), Some(*a)),
                    ([a, ..], Some(b)) if makes(b, *a) => (Some(b), Some(*a)),
                    ([a, ..], _) => (None, Some(*a)),
                    ([], _) => continue,
                }
            }
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
    if out.is_empty()
        && let Some((line, net)) = single_rate_line(ctx, cands)
    {
        out.push(TaxLine {
            rate: Some(line.rate.1.normalize().to_string()),
            base: Some(net.to_string()),
            amount: Some(line.amount.1.to_string()),
        });
        if let Some(c) = cands.items.get(line.rate.0) {
            ctx.put("/taxes/0/rate", 0.6, &c.span);
        }
    }
    if out.is_empty()
        && let Some((rate, at, of)) = single_rate_before_vat(ctx, cands, &table_lines, &item_lines)
    {
        out.push(TaxLine {
            rate: Some(rate.normalize().to_string()),
            base: Some(of.net.to_string()),
            amount: Some(of.vat.to_string()),
        });
        ctx.put("/taxes/0/rate", 0.6, &at);
    }
    ctx.result.taxes = out;
}

/// The chosen net and VAT where net + VAT = total held and the VAT is not zero: what a single
/// rate of the document must make ([`VatOfNet::made_by`]).
#[derive(Debug, Clone, Copy)]
struct VatOfNet {
    net: Decimal,
    vat: Decimal,
}

impl VatOfNet {
    fn of(ctx: &Ctx<'_>) -> Option<VatOfNet> {
        let totals = &ctx.result.totals;
        let (net, vat, total) = (
            decimal(&totals.net)?,
            decimal(&totals.vat)?,
            decimal(&totals.total)?,
        );
        (net.checked_add(vat) == Some(total) && !vat.is_zero()).then_some(VatOfNet { net, vat })
    }

    /// Whether `rate` percent of the net is the VAT within rounding: five cents (the rows'
    /// taxes rounded one by one), or half a unit of the VAT's last printed digit where it is
    /// printed coarser (whole forints).
    fn made_by(&self, rate: Decimal) -> bool {
        let tolerance = Decimal::new(5, 2).max(Decimal::new(5, self.vat.scale() + 1));
        self.net
            .checked_mul(rate)
            .is_some_and(|x| (x / Decimal::ONE_HUNDRED - self.vat).abs() <= tolerance)
    }
}

/// The document's single rate where no rate line holds it alone: a percentage with the chosen
/// VAT printed after it on its line among other amounts (a totals block run as text and
/// wrapped, `19% lei 2.125,48 Total general: lei 13.312,20`), outside the item rows, that makes
/// the VAT of the chosen net ([`VatOfNet`]). Every such percentage must give the same rate.
/// Returns the rate, where it is printed, and the net and VAT it makes.
fn single_rate_before_vat(
    ctx: &Ctx<'_>,
    cands: &Candidates,
    table_lines: &[bool],
    item_lines: &[usize],
) -> Option<(Decimal, crate::types::Span, VatOfNet)> {
    let of = VatOfNet::of(ctx)?;
    let mut fits = cands
        .of(CandidateKind::Amount)
        .filter(|c| {
            c.scheme.as_deref() == Some("percent")
                && !table_lines.get(c.span.line).copied().unwrap_or(false)
                && !item_lines.contains(&c.span.line)
        })
        .filter_map(|c| {
            let r = dec(c)?;
            let after = cands.of(CandidateKind::Amount).any(|m| {
                m.span.line == c.span.line
                    && m.span.start > c.span.start
                    && cands.is_money(m)
                    && dec(m) == Some(of.vat)
            });
            (of.made_by(r) && after).then(|| (r, c.span.clone()))
        });
    let (rate, at) = fits.next()?;
    fits.all(|(r, _)| r == rate).then_some((rate, at, of))
}

/// The one rate line (a rate and an amount after it, whatever its label: `Torugu 23%
/// 1,055.97`) whose amount is the chosen VAT and whose rate makes it of the chosen net
/// ([`VatOfNet`]): the document's single rate, on the whole net.
fn single_rate_line<'c>(ctx: &Ctx<'_>, cands: &'c Candidates) -> Option<(&'c RateLine, Decimal)> {
    let of = VatOfNet::of(ctx)?;
    let mut fits = cands
        .rate_lines
        .iter()
        .filter(|l| l.amount.1 == of.vat && of.made_by(l.rate.1));
    let line = fits.next()?;
    fits.all(|l| l.rate.1 == line.rate.1)
        .then_some((line, of.net))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A structural net and VAT (0.35) that the complete table's rows confirm to the cent.
    #[test]
    fn rows_that_sum_to_net_and_vat_confirm_them() {
        let doc = crate::types::CleanDocument::default();
        let conf = |rows: &[(&str, &str)], line_items: f64, vat: &str| {
            let mut ctx = Ctx {
                doc: &doc,
                result: DocumentResult::empty(),
            };
            let r = &mut ctx.result;
            for (a, v) in rows {
                r.line_items.push(crate::result::LineItem {
                    amount: Some((*a).into()),
                    vat_amount: Some((*v).into()),
                    ..Default::default()
                });
            }
            r.totals.net = Some("978.00".into());
            r.totals.vat = Some(vat.into());
            r.totals.total = Some("1203.70".into());
            r.confidence.fields.insert("/line_items".into(), line_items);
            r.confidence.fields.insert("/totals/net".into(), 0.35);
            r.confidence.fields.insert("/totals/vat".into(), 0.35);
            confirmed_by_rows(&mut ctx);
            let f = &ctx.result.confidence.fields;
            (f["/totals/net"], f["/totals/vat"])
        };
        let rows = [("860.00", "197.80"), ("118.00", "27.90")];
        assert_eq!(conf(&rows, 0.99, "225.70"), (0.8, 0.8));
        // Rows of a table that sums to nothing printed, or VAT that is not the rows': unchanged.
        assert_eq!(conf(&rows, 0.6, "225.70"), (0.35, 0.35));
        assert_eq!(
            conf(&[("860.00", "197.80"), ("118.00", "")], 0.99, "225.70"),
            (0.35, 0.35)
        );
    }
    use crate::candidates::extract;
    use crate::candidates::tests::doc_from;

    /// [`choose`] where no two amounts are item rows and the document prints no rounding and
    /// no single rate.
    fn plain(
        nets: &[Scored],
        vats: &[Scored],
        tots: &[Scored],
        pays: &[Scored],
        pres: &[Scored],
    ) -> Chosen {
        choose(
            nets,
            vats,
            tots,
            pays,
            pres,
            &|_, _| false,
            &Printed::default(),
        )
    }

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    /// A total and its VAT without a net: the amount printed above that is their difference,
    /// outside the item rows before a row's amount.
    #[test]
    fn a_total_and_its_vat_find_their_net() {
        let cands = extract(&doc_from(&[
            ("Usługa doradcza  5  -492,43  23%  -2462,15", 100.0, 100.0),
            ("Wartość bez VAT:  -2462,15 zł", 100.0, 120.0),
            ("Razem VAT 23%  -566,29 zł", 100.0, 135.0),
            ("Ogółem:  -3028,44 zł", 100.0, 150.0),
        ]));
        let at = |v: &str, line: usize| {
            cands
                .items
                .iter()
                .position(|c| c.value == v && c.span.line == line)
                .expect("candidate")
        };
        let vat = (d("-566.29"), at("-566.29", 2));
        assert_eq!(
            net_of_total(&cands, &[0], d("-3028.44"), vat),
            Some(at("-2462.15", 1))
        );
        // Outside the item rows before within them, however far from the VAT.
        assert_eq!(
            net_of_total(&cands, &[1], d("-3028.44"), vat),
            Some(at("-2462.15", 0))
        );
        // A difference printed nowhere, or a total of the other sign: none.
        assert_eq!(net_of_total(&cands, &[0], d("-2480.00"), vat), None);
        assert_eq!(net_of_total(&cands, &[0], d("3028.44"), vat), None);
    }

    /// A total of unknown label printed under the VAT summary, all of it inside an item table
    /// found by its header (its columns run on): the summary rows' sum below them is the total;
    /// the same amount on an item row above them is not.
    #[test]
    fn the_summary_rows_make_a_total_printed_below_them_inside_a_table() {
        let cands = extract(&doc_from(&[
            (
                "1  Popierius A4  1 vnt.  6582,20  21%  6582,20",
                100.0,
                100.0,
            ),
            ("21%  4345,83  912,62  5258,45", 300.0, 120.0),
            ("9%  1214,45  109,30  1323,75", 300.0, 135.0),
            ("Bendra verte:  €6582,20", 300.0, 150.0),
        ]));
        assert_eq!(cands.tax_rows.len(), 2);
        let total = arithmetic_total(&cands, &[true; 4]).map(|i| &cands.items[i]);
        assert_eq!(
            total.map(|c| (c.value.as_str(), c.span.line)),
            Some(("6582.20", 3))
        );
        // Outside a table, the first such amount in reading order (the item row's) is taken:
        // the table's extent is what keeps it out.
        let outside = arithmetic_total(&cands, &[false; 4]).map(|i| cands.items[i].span.line);
        assert_eq!(outside, Some(0));
    }

    /// (rate, base, amount) of each summary row.
    fn row_values(cands: &Candidates) -> Vec<(Decimal, Decimal, Decimal)> {
        cands
            .tax_rows
            .iter()
            .map(|r| (r.rate.1, r.base.1, r.amount.1))
            .collect()
    }

    #[test]
    fn a_consistent_set_beats_higher_scored_single_values() {
        // The best-scored total (a line amount) does not add up; the second does.
        let tots = [(0.9, 1, d("50.00")), (0.8, 2, d("119.00"))];
        let nets = [(0.7, 3, d("100.00"))];
        let vats = [(0.6, 4, d("19.00"))];
        let c = plain(&nets, &vats, &tots, &[], &[]);
        assert!(c.consistent);
        assert_eq!(c.total.map(|t| t.2), Some(d("119.00")));
        assert_eq!(c.vat.map(|v| v.1), Some(d("19.00")));
        // A total far below the best one is not rescued by arithmetic.
        let tots = [(0.9, 1, d("50.00")), (0.5, 2, d("119.00"))];
        let c = plain(&nets, &vats, &tots, &[], &[]);
        assert!(!c.consistent);
        assert_eq!(c.total.map(|t| t.2), Some(d("50.00")));
    }

    #[test]
    fn the_documents_rate_picks_among_sums_that_hold() {
        // An account's open items add up too (an earlier invoice's 3,869.17 and this one's
        // 272,113.50 make the balance 275,982.67), scored higher than this invoice's own
        // triple: the VAT that is the document's only rate of its net wins.
        let tots = [(0.9, 1, d("275982.67")), (0.8, 2, d("272113.50"))];
        let nets = [(0.7, 3, d("272113.50")), (0.6, 4, d("217690.80"))];
        let vats = [(0.7, 5, d("3869.17")), (0.5, 6, d("54422.70"))];
        let no_rows = |_: usize, _: usize| false;
        let with_rate = Printed {
            roundings: &[],
            rate: Some(d("25")),
        };
        let c = choose(&nets, &vats, &tots, &[], &[], &no_rows, &with_rate);
        assert!(c.consistent);
        assert_eq!(c.total.map(|t| t.2), Some(d("272113.50")));
        assert_eq!(c.vat.map(|v| v.1), Some(d("54422.70")));
        // Without a rate printed, the scores decide.
        let c = plain(&nets, &vats, &tots, &[], &[]);
        assert_eq!(c.total.map(|t| t.2), Some(d("275982.67")));
    }

    #[test]
    fn credit_notes_add_up_negative() {
        let tots = [(0.9, 1, d("-119.00"))];
        let nets = [(0.7, 2, d("100.00")), (0.6, 3, d("-100.00"))];
        let vats = [(0.6, 4, d("-19.00"))];
        let c = plain(&nets, &vats, &tots, &[], &[]);
        assert!(c.consistent);
        assert_eq!(c.net.map(|n| n.2), Some(d("-100.00")));
        assert_eq!(c.vat.map(|v| v.1), Some(d("-19.00")));
        // Mixed signs are no support.
        let c = plain(&[(0.7, 2, d("100.00"))], &vats, &tots, &[], &[]);
        assert!(!c.consistent);
        // A VAT whose minus OCR lost, between a negative net and total it makes so signed.
        let mut c = plain(
            &[(0.6, 3, d("-100.00"))],
            &[(0.6, 4, d("19.00"))],
            &tots,
            &[],
            &[],
        );
        assert!(!c.consistent);
        credit_vat_sign(&mut c);
        assert!(c.consistent);
        assert_eq!(c.vat.map(|v| v.1), Some(d("-19.00")));
        // Not a VAT the total does not so make.
        let mut c = plain(
            &[(0.6, 3, d("-100.00"))],
            &[(0.6, 4, d("18.00"))],
            &tots,
            &[],
            &[],
        );
        credit_vat_sign(&mut c);
        assert!(!c.consistent);
    }

    #[test]
    fn payable_is_total_less_prepaid() {
        let tots = [(0.9, 1, d("119.00"))];
        let pays = [(0.8, 2, d("19.00")), (0.7, 3, d("69.00"))];
        let pres = [(0.6, 4, d("-50.00"))];
        let c = plain(&[], &[], &tots, &pays, &pres);
        assert_eq!(c.payable.map(|p| p.2), Some(d("69.00")));
        assert_eq!(c.prepaid.map(|p| p.2), Some(d("50.00")));
        // Without a prepaid amount that explains it, the best payable stands.
        let c = plain(&[], &[], &tots, &pays, &[]);
        assert_eq!(c.payable.map(|p| p.2), Some(d("19.00")));
    }

    #[test]
    fn several_rates_sum_to_the_vat() {
        let tots = [(0.9, 1, d("126.00"))];
        let nets = [(0.8, 2, d("110.00"))];
        let vats = [(0.6, 3, d("14.00")), (0.5, 4, d("2.00"))];
        let c = plain(&nets, &vats, &tots, &[], &[]);
        assert!(c.consistent);
        assert_eq!(c.vat.map(|v| v.1), Some(d("16.00")));
    }

    #[test]
    fn a_vat_that_does_not_add_up_gives_way_to_one_that_does() {
        // The VAT-labelled 5.00 does not explain the total; 100.00 + 24.00 does.
        let doc = doc_from(&[
            ("Net amount 100.00", 300.0, 200.0),
            ("Deposit VAT 5.00", 300.0, 220.0),
            ("Qwerty 24.00", 300.0, 240.0),
            ("Total 124.00", 300.0, 260.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("124.00"));
        assert_eq!(r.totals.net.as_deref(), Some("100.00"));
        assert_eq!(r.totals.vat.as_deref(), Some("24.00"));
    }

    #[test]
    fn a_currency_sign_read_as_a_digit_is_dropped_where_the_summary_confirms_it() {
        let doc = |total: &'static str| {
            doc_from(&[
                ("BTW  Totaal exclusief BTW  Totaal BTW  Bruto", 300.0, 200.0),
                ("21%  13.685,02  2.873,85  16.558,87", 300.0, 215.0),
                (total, 300.0, 230.0),
            ])
        };
        // `€16.558,87` read as `616.558,87`: the summary row makes 16.558,87.
        let page = doc("Totaal inclusief 616.558,87");
        let r = crate::fields::extract(&page, &extract(&page), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("16558.87"));
        assert_eq!(r.totals.vat.as_deref(), Some("2873.85"));
        // A total the summary does not make so stays as printed.
        let page = doc("Totaal inclusief 616.558,86");
        let r = crate::fields::extract(&page, &extract(&page), &crate::fields::RuleScorer);
        assert_ne!(r.totals.total.as_deref(), Some("16558.86"));
        assert_eq!(without_first_digit(d("-616558.87")), Some(d("-16558.87")));
        assert_eq!(without_first_digit(d("7.50")), None);
        // A run of digits longer than any amount reads as nothing (and never overflows).
        assert_eq!(without_first_digit(d("12345678901234567890123.45")), None);
        assert_eq!(
            without_first_digit(d("9999999999999999999")),
            Some(d("999999999999999999"))
        );
    }

    #[test]
    fn a_rounding_of_unknown_label_between_the_summary_total_and_the_payable() {
        let page = |rounding: &'static str, payable: &'static str| {
            doc_from(&[
                ("Juusto  11,53", 10.0, 100.0),
                ("2 × 11,96  23,92", 10.0, 115.0),
                ("YHT.  47,74 EUR", 10.0, 140.0),
                (rounding, 10.0, 155.0),
                (payable, 10.0, 170.0),
                ("ALV % Veroton ALV", 10.0, 200.0),
                ("A 25,5% 28,78  7,34", 10.0, 215.0),
                ("B 10% 10,56  1,06", 10.0, 230.0),
            ])
        };
        let read = |rounding, payable| {
            let d = page(rounding, payable);
            let r = crate::fields::extract(&d, &extract(&d), &crate::fields::RuleScorer);
            (r.totals.total, r.totals.payable)
        };
        let (total, payable) = read("Pyöristysero:  0,01", "Avoin summa:  47,75 EUR");
        assert_eq!(total.as_deref(), Some("47.74"));
        assert_eq!(payable.as_deref(), Some("47.75"));
        // Without the rounding printed between them, nothing says the two differ by one.
        let (total, _) = read("Kiitos!", "Avoin summa:  47,75 EUR");
        assert_ne!(total.as_deref(), Some("47.74"));
        // A difference of a unit or more is no coin (a zero-rated part, a fee).
        let (total, _) = read("Toimitus:  1,50", "Avoin summa:  49,24 EUR");
        assert_ne!(total.as_deref(), Some("47.74"));
    }

    #[test]
    fn a_payable_broken_by_a_space_is_read_whole_where_the_total_makes_it() {
        let read = |payable: &'static str| {
            let doc = doc_from(&[
                ("Faktura 2020-60777", 10.0, 20.0),
                ("Nettobeløb:  45.425,37 DKK", 300.0, 200.0),
                ("25% moms  11.356,34 DKK", 300.0, 215.0),
                ("Totalbeløb:  56.781,71 DKK", 300.0, 230.0),
                ("Øreafrunding:  -0,01 DKK", 300.0, 245.0),
                (payable, 300.0, 260.0),
            ]);
            let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            (r.totals.total, r.totals.payable)
        };
        let (total, payable) = read("Til betaling:  56.7 81,70 DKK");
        assert_eq!(total.as_deref(), Some("56781.71"));
        assert_eq!(payable.as_deref(), Some("56781.70"));
        // A joined reading the total does not make stays unread.
        let (_, payable) = read("Til betaling:  12.3 81,70 DKK");
        assert_ne!(payable.as_deref(), Some("12381.70"));
    }

    #[test]
    fn an_eligible_total_the_summary_rows_make_wins_over_one_they_do_not() {
        let doc = doc_from(&[
            ("Kassebon", 90.0, 20.0),
            ("Rugbrød  2 x 29,84  59,68", 6.0, 100.0),
            ("SLUTBELØB  444,28 kr.", 6.0, 200.0),
            ("Øreafrunding:  0,22", 6.0, 212.0),
            ("Til betaling:  444,50 kr.", 6.0, 224.0),
            ("Dankort  444,50", 6.0, 236.0),
            ("Moms %  I alt ekskl. moms  Moms i alt", 6.0, 260.0),
            ("A 25%  355,42  88,86", 6.0, 272.0),
        ]);
        let cands = extract(&doc);
        let at = |value: &str, line: usize| {
            (0..cands.items.len())
                .find(|&i| {
                    cands
                        .amount_at(i)
                        .is_some_and(|c| c.span.line == line && dec(c) == Some(d(value)))
                })
                .unwrap()
        };
        let (paid, total) = (at("444.50", 5), at("444.28", 2));
        let run = |second: f32| {
            let tots = [(0.99, paid, d("444.50")), (second, total, d("444.28"))];
            let mut chosen = Chosen {
                total: Some(tots[0]),
                payable: Some(tots[0]),
                ..Chosen::default()
            };
            summary_total(
                &mut chosen,
                &cands,
                (&[], &summary_rows(&cands, &[])),
                &tots,
            );
            // The replaced total's own print is no payable either.
            assert_eq!(chosen.payable, chosen.total);
            (
                chosen.total.map(|t| t.2),
                chosen.net.map(|n| n.2),
                chosen.vat.map(|v| v.1),
            )
        };
        assert_eq!(
            run(0.85),
            (Some(d("444.28")), Some(d("355.42")), Some(d("88.86")))
        );
        // Scored too far below the best, it does not win.
        assert_eq!(run(0.5), (Some(d("444.50")), None, None));
    }

    #[test]
    fn a_payable_that_lost_a_digit_is_the_total_less_the_prepaid() {
        let read = |payable: &'static str| {
            let doc = doc_from(&[
                ("Factuur 2026-48416", 10.0, 20.0),
                ("Totaal exclusief BTW:  3.732,47 EUR", 300.0, 200.0),
                ("BTW 21%:  773,46 EUR", 300.0, 215.0),
                ("Eindtotaal:  4.505,93 EUR", 300.0, 230.0),
                ("Vooruitbetaald:  -2.253,00 EUR", 300.0, 245.0),
                (payable, 300.0, 260.0),
            ]);
            let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            (r.totals.total, r.totals.prepaid, r.totals.payable)
        };
        let (total, prepaid, payable) = read("Nog te betalea:252.93 EUR");
        assert_eq!(total.as_deref(), Some("4505.93"));
        assert_eq!(prepaid.as_deref(), Some("2253.00"));
        assert_eq!(payable.as_deref(), Some("2252.93"));
        // A print that is not the difference with a digit lost stays no payable of it.
        let (_, _, payable) = read("Nog te betalea:352.93 EUR");
        assert_ne!(payable.as_deref(), Some("2252.93"));
        assert!(one_digit_lost(d("2252.93"), d("252.93")));
        assert!(one_digit_lost(d("2252.93"), d("222.93")));
        assert!(!one_digit_lost(d("2252.93"), d("2252.93")));
        assert!(!one_digit_lost(d("2252.93"), d("252.9")));
    }

    #[test]
    fn what_was_paid_before_and_what_is_left_add_up_without_their_labels() {
        let lines = |paid: &'static str, left: &'static str| {
            vec![
                ("Lasku 2019-54481", 10.0, 20.0),
                ("Veroton yhteensä:  EUR 22806,47", 300.0, 200.0),
                ("ALV 25,5%  EUR 5232,35", 300.0, 215.0),
                ("Kokonaissumma:  EUR 28038,82", 300.0, 230.0),
                (paid, 300.0, 245.0),
                (left, 300.0, 260.0),
            ]
        };
        let read = |paid, left| {
            let doc = doc_from(&lines(paid, left));
            let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            (r.totals.total, r.totals.prepaid, r.totals.payable)
        };
        let (total, prepaid, payable) = read("Zxcvb:  EUR -5608,00", "Avoin:  EUR 22430,82");
        assert_eq!(total.as_deref(), Some("28038.82"));
        assert_eq!(prepaid.as_deref(), Some("5608.00"));
        assert_eq!(payable.as_deref(), Some("22430.82"));
        // Not when the amounts do not add up, nor for a positive amount (a payment by card
        // of part of a till's total); a cash rounding is no prepaid amount.
        // Less than one unit is a cash rounding, whatever its label.
        let (_, prepaid, payable) = read("Qwerty:  EUR -0,02", "Avoin:  EUR 28038,80");
        assert_eq!(prepaid, None);
        assert_eq!(payable.as_deref(), Some("28038.80"));
        // Paid in full: nothing is left to pay where a payable's or total's label says so,
        // not where a zero is merely printed.
        let (_, prepaid, payable) = read("Zxcvb:  EUR -28038,82", "Laskun summa:  EUR 0,00");
        assert_eq!(prepaid.as_deref(), Some("28038.82"));
        assert_eq!(payable.as_deref(), Some("0.00"));
        let (_, prepaid, payable) = read("Zxcvb:  EUR -28038,82", "Asdf:  EUR 0,00");
        assert_eq!(prepaid, None);
        assert_ne!(payable.as_deref(), Some("0.00"));
        // A payable that is the total rounded for cash to a whole unit: the difference under
        // a label no vocabulary knows is the rounding, no prepaid amount.
        let doc = doc_from(&[
            ("Účtenka 9/5167", 10.0, 20.0),
            ("SUMA  564,21 Kč", 10.0, 200.0),
            ("Qwerty uiop:  -0,21", 10.0, 215.0),
            ("Částka k úhradě:  564,00 Kč", 10.0, 230.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("564.21"), "{:?}", r.totals);
        assert_eq!(r.totals.payable.as_deref(), Some("564.00"));
        assert_eq!(r.totals.prepaid, None);
        for (paid, left) in [
            ("Zxcvb:  EUR -5608,00", "Avoin:  EUR 22430,00"),
            ("Zxcvb:  EUR 5608,00", "Avoin:  EUR 22430,82"),
            ("Rounding:  EUR -0,02", "Qwerty:  EUR 28038,80"),
        ] {
            let (_, prepaid, payable) = read(paid, left);
            assert_eq!(prepaid, None, "{paid} / {left}");
            assert_ne!(payable.as_deref(), Some("22430.82"), "{paid} / {left}");
        }
    }

    #[test]
    fn a_payable_above_the_total_that_nothing_explains_is_none() {
        let read = |lines: &[(&str, f32, f32)]| {
            let doc = doc_from(lines);
            let mut r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            crate::validate::validate(&mut r);
            let v = &r.validation;
            let warned = v
                .errors
                .iter()
                .chain(&v.warnings)
                .any(|w| w.code == "TOTALS_MISMATCH");
            (r.totals.total, r.totals.payable, warned)
        };
        // The tax a till asks for (`GST PAYABLE`) is a part of the total below it.
        let (total, payable, warned) = read(&[
            ("TAX INVOICE 1184", 10.0, 20.0),
            ("TOTAL (EXCLUDING GST):  26.60", 300.0, 200.0),
            ("GST PAYABLE:  1.60", 300.0, 215.0),
            ("DISCOUNT:  -0.20", 300.0, 230.0),
            ("TOTAL:  28.00", 300.0, 245.0),
        ]);
        assert_eq!(total.as_deref(), Some("28.00"));
        assert_eq!(payable, None);
        assert!(!warned);
        // Below the total, what is left to pay stands, and the document's own disagreement
        // is reported.
        let (_, payable, warned) = read(&[
            ("TAX INVOICE 1184", 10.0, 20.0),
            ("TOTAL (EXCLUDING GST):  26.60", 300.0, 200.0),
            ("GST:  1.60", 300.0, 215.0),
            ("DISCOUNT:  -0.20", 300.0, 230.0),
            ("TOTAL:  28.00", 300.0, 245.0),
            ("AMOUNT PAYABLE:  25.00", 300.0, 260.0),
        ]);
        assert_eq!(payable.as_deref(), Some("25.00"));
        assert!(warned);
    }

    #[test]
    fn vat_lines_of_garbled_rates_between_net_and_total_make_the_split() {
        // OCR read `20%` as `2096` and `7%` as `790`: no rate line; the amounts between the net
        // and the total make the difference.
        let read = |lines: &[(&str, f32, f32)]| {
            let doc = doc_from(lines);
            let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            (r.totals.net, r.totals.vat, r.totals.total)
        };
        let (net, vat, total) = read(&[
            ("Рахунок № 33377", 10.0, 20.0),
            ("Ремі:  28620161,04", 300.0, 200.0),
            ("Сиго: 2096  4904006,49", 300.0, 215.0),
            ("биго: 790  287009,00", 300.0, 230.0),
            ("Всього:  33811176,53", 300.0, 245.0),
        ]);
        assert_eq!(total.as_deref(), Some("33811176.53"));
        assert_eq!(net.as_deref(), Some("28620161.04"));
        assert_eq!(vat.as_deref(), Some("5191015.49"));
        // Amounts that do not add up give no split.
        let (net, vat, _) = read(&[
            ("Рахунок № 33377", 10.0, 20.0),
            ("Ремі:  28620161,04", 300.0, 200.0),
            ("Сиго: 2096  4904006,49", 300.0, 215.0),
            ("биго: 790  287009,01", 300.0, 230.0),
            ("Всього:  33811176,53", 300.0, 245.0),
        ]);
        assert_eq!((net, vat), (None, None));
        // A cash rounding between the VAT and the total is no VAT of another rate.
        let (_, vat, _) = read(&[
            ("TAX INVOICE 1184", 10.0, 20.0),
            ("TOTAL SALES AMOUNT  33.00", 300.0, 200.0),
            ("GST 6%  1.98", 300.0, 215.0),
            ("ROUNDING ADJUSTMENT  0.02", 300.0, 230.0),
            ("TOTAL  35.00", 300.0, 245.0),
        ]);
        assert_ne!(vat.as_deref(), Some("2.00"));
    }

    #[test]
    fn the_net_the_item_rows_make_takes_the_vat_and_total_below_it() {
        // Labels no vocabulary knows: two rate lines and their sum between the net the rows
        // make and the total. The 10 % line and the 22 % one made a sum that held alone (net
        // -602.16, VAT -335.00, total -937.16); the rows' sum is the net.
        let lines = [
            ("#  Descrizione  Q.tà  Prezzo  IVA %  Importo", 10.0, 100.0),
            (
                "1  Consulenza  4  ore  -313,30  10%  -1.253,20",
                10.0,
                114.0,
            ),
            (
                "2  Produzione  2  ore  -761,36  22%  -1.522,72",
                10.0,
                128.0,
            ),
            (
                "3  Assistenza  8  ore  -596,05  10%  -4.768,40",
                10.0,
                142.0,
            ),
            ("Viso:  -7.544,32 €", 300.0, 170.0),
            ("Zufeti 22%  -335,00 €", 300.0, 184.0),
            ("Zufeti 10%  -602,16 €", 300.0, 198.0),
            ("Zufeti:  -937,16 €", 300.0, 212.0),
            ("Sego:  -8.481,48 €", 300.0, 226.0),
        ];
        let doc = doc_from(&lines);
        let cands = extract(&doc);
        let at = |v: &str| {
            (0..cands.items.len())
                .find(|&i| cands.is_money(&cands.items[i]) && dec(&cands.items[i]) == Some(d(v)))
                .expect("printed")
        };
        let pick = |v: &str| (0.9, at(v), d(v));
        let mut chosen = Chosen {
            net: Some(pick("-602.16")),
            vat: Some((0.9, d("-335.00"), Some(at("-335.00")))),
            total: Some(pick("-937.16")),
            consistent: true,
            ..Chosen::default()
        };
        assert!(rows_net(&mut chosen, &cands, &[], [&[], &[], &[]]));
        let value = |p: Option<Scored>| p.map(|p| p.2.to_string());
        assert_eq!(
            (
                value(chosen.net),
                chosen.vat.map(|v| v.1.to_string()),
                value(chosen.total)
            ),
            (
                Some("-7544.32".to_string()),
                Some("-937.16".to_string()),
                Some("-8481.48".to_string())
            )
        );
        // Chosen as the net already: nothing to change.
        assert!(!rows_net(&mut chosen, &cands, &[], [&[], &[], &[]]));
        // End to end.
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        assert_eq!(r.totals.net.as_deref(), Some("-7544.32"));
        assert_eq!(r.totals.total.as_deref(), Some("-8481.48"));
        // No VAT printed between the rows' sum and a larger amount below it: no split.
        let doc = doc_from(&lines[..5]);
        assert!(rows_net_split(&extract(&doc), &[]).is_none());
    }

    #[test]
    fn item_rows_read_as_rate_rows_do_not_spoil_the_summarys_sum() {
        // A credit note in whole forints: each item row's quantity and rate read as a base and an
        // amount (`3 ... 27% ...`: rate 27, base 3, amount 1); the summary's rows alone make the
        // total that no known label announces.
        let doc = doc_from(&[
            ("Vevő:", 10.0, 20.0),
            ("Nagy és Németh Nyrt.", 10.0, 32.0),
            ("Kossuth Lajos utca 121.", 10.0, 44.0),
            ("9021 Győr", 10.0, 56.0),
            (
                "#  Megnevezés  Menny.  Egységár  ÁFA %  Nettó érték",
                10.0,
                100.0,
            ),
            ("1  Tanácsadás  3  m  -65546  27%  -196638", 10.0, 114.0),
            ("2  Irodai szék  5  db  -106609  5%  -533045", 10.0, 128.0),
            ("3  Papír A4  1  db  -28086  27%  -28086", 10.0, 142.0),
            ("ÁFA %  Nettó  Adó  Bruttó", 200.0, 170.0),
            ("27%  -224724  -60675  -285399", 200.0, 184.0),
            ("5%  -533045  -26652  -559697", 200.0, 198.0),
            ("Végösszeg mindösszesen:  -845096 HUF", 200.0, 220.0),
        ]);
        let cands = extract(&doc);
        let table_lines = cands.table_lines(doc.lines.len());
        // Every row read as a per-rate row does not make the total; the summary's alone do.
        let all: Decimal = cands.tax_rows.iter().map(|r| r.base.1 + r.amount.1).sum();
        assert_ne!(all, d("-845096"));
        let i = arithmetic_total(&cands, &table_lines).expect("a total");
        assert_eq!(dec(&cands.items[i]), Some(d("-845096")));
        let mut r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        crate::validate::validate(&mut r);
        assert_eq!(r.totals.total.as_deref(), Some("-845096"));
        let rates: Vec<_> = r.taxes.iter().map(|t| t.rate.as_deref()).collect();
        assert_eq!(rates, [Some("27"), Some("5")]);
    }

    #[test]
    fn the_one_rate_of_the_net_makes_the_total_whatever_a_balance_scores() {
        // An account's open items add up too (this invoice's payable 138.490,50 and an earlier
        // one's 1.637,02 make the balance 140.127,52, scored first); the net, its one rate's
        // VAT (21 %) and the total scored low hold twice.
        let tots: Vec<Scored> = vec![(0.9, 0, d("140127.52")), (0.3, 1, d("138490.49"))];
        let nets: Vec<Scored> = vec![(0.8, 2, d("138490.50")), (0.7, 3, d("114454.95"))];
        let vats: Vec<Scored> = vec![(0.8, 4, d("1637.02")), (0.7, 5, d("24035.54"))];
        let printed = Printed {
            roundings: &[],
            rate: Some(d("21")),
        };
        let chosen = choose(&nets, &vats, &tots, &[], &[], &|_, _| false, &printed);
        assert_eq!(chosen.total.map(|t| t.2), Some(d("138490.49")));
        assert_eq!(chosen.vat.map(|v| v.1), Some(d("24035.54")));
    }

    #[test]
    fn a_total_ocr_misread_in_one_digit_reads_as_the_summary_makes_it() {
        // `Kokonaissumma 458993,00` read with a 6 for the 5: the rows make 458993,00.
        let doc = doc_from(&[
            ("Lasku", 200.0, 20.0),
            ("ALV %  Välisumma  Vero  Verollinen", 200.0, 160.0),
            ("25,5%  351742,58  89694,36  441436,94", 200.0, 174.0),
            ("10%  15960,05  1596,01  17556,06", 200.0, 188.0),
            ("Kokonaissumma  468993,00 €", 200.0, 210.0),
        ]);
        let cands = extract(&doc);
        let mut r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        crate::validate::validate(&mut r);
        assert_eq!(r.totals.total.as_deref(), Some("458993.00"));
        assert_eq!(r.totals.vat.as_deref(), Some("91290.37"));
        assert_eq!(r.totals.net.as_deref(), Some("367702.63"));
        assert!(one_digit_apart(d("468993.00"), d("458993.00")));
        assert!(!one_digit_apart(d("468993.00"), d("458993.01")));
        assert!(!one_digit_apart(d("1468993.00"), d("468993.00")));
        assert!(!one_digit_apart(d("-458993.00"), d("458993.00")));
    }

    #[test]
    fn an_item_row_printing_a_summary_rows_numbers_leaves_the_summary_its_row() {
        // 5 x -13140,02 = -65700,10 at 20 %: the item row prints the 20 % row's base and VAT
        // before the summary does.
        let doc = doc_from(&[
            ("Кредит-нота", 200.0, 20.0),
            (
                "#  Найменування  Кіл-сть  Ціна без ПДВ  ПДВ %  Сума без ПДВ",
                10.0,
                100.0,
            ),
            (
                "1  Консультаційні послуги  2  м  -15471,92  7%  -30943,84",
                10.0,
                114.0,
            ),
            (
                "2  Офісне крісло  5  шт.  -13140,02  20%  -65700,10",
                10.0,
                128.0,
            ),
            ("ПДВ %  Сума без ПДВ  Податок  З ПДВ", 200.0, 160.0),
            ("20%  -65700,10  -13140,02  -78840,12", 200.0, 174.0),
            ("7%  -30943,84  -2166,07  -33109,91", 200.0, 188.0),
            ("Всього:  -111950,03 грн", 200.0, 210.0),
        ]);
        let cands = extract(&doc);
        let mut r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        crate::validate::validate(&mut r);
        assert_eq!(r.totals.total.as_deref(), Some("-111950.03"));
        assert_eq!(r.totals.vat.as_deref(), Some("-15306.09"));
        assert_eq!(r.totals.net.as_deref(), Some("-96643.94"));
    }

    #[test]
    fn tax_lines_of_a_totals_block_printed_as_running_text() {
        let taxes = |lines: &[(&str, f32, f32)]| {
            let doc = doc_from(lines);
            let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            r.taxes
                .iter()
                .map(|t| (t.rate.clone(), t.base.clone(), t.amount.clone()))
                .collect::<Vec<_>>()
        };
        let s = |v: &str| Some(v.to_string());
        // The rate's amount is the one right after it, not the largest two of the line.
        assert_eq!(
            taxes(&[
                ("Factura 2022-0072", 10.0, 20.0),
                (
                    "Importe 7.203,43 EUR Dto.: -58,23 EUR Importe neto: 7.145,20 EUR Total IVA 21% 1.295,83 EUR Total IVA",
                    48.0,
                    200.0
                ),
                (
                    "10% 97,46 EUR Total IVA: 1.393,29 EUR Total documento: 8.538,49 EUR",
                    48.0,
                    215.0
                ),
            ]),
            vec![(s("21"), None, s("1295.83")), (s("10"), None, s("97.46"))]
        );
        // A base and the tax its rate makes of it, right after the rate.
        assert_eq!(
            taxes(&[
                ("Invoice FA-2017-0008", 10.0, 20.0),
                (
                    "TVA 0% livraisons intracommunautaires 2,076.76 € 0.00 € Tax Total 0.00 €",
                    34.0,
                    200.0
                ),
            ]),
            vec![(s("0"), s("2076.76"), s("0.00"))]
        );
    }

    #[test]
    fn the_amount_before_a_cash_rounding_that_net_and_vat_make_is_the_total() {
        let doc = doc_from(&[
            ("Faktura 2022-0088", 10.0, 20.0),
            ("Beløb  DKK 49.137,40", 300.0, 200.0),
            ("Nedslag:  DKK -149,37", 300.0, 215.0),
            ("I alt ekskl. moms:  DKK 48.988,03", 300.0, 230.0),
            ("Moms i alt 25%  DKK 12.247,01", 300.0, 245.0),
            ("Fakturabeløb:  DKK 61.235,04", 300.0, 260.0),
            ("Øreafrunding:  DKK 0,01", 300.0, 275.0),
            ("Til betaling:  DKK 61.235,05", 300.0, 290.0),
        ]);
        // The learned scorer takes `Fakturabeløb` for the net and the rounded amount for the total.
        let scorer = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        let r = crate::fields::extract(&doc, &extract(&doc), &scorer);
        let t = &r.totals;
        assert_eq!(t.net.as_deref(), Some("48988.03"));
        assert_eq!(t.vat.as_deref(), Some("12247.01"));
        assert_eq!(t.total.as_deref(), Some("61235.04"));
        assert_eq!(t.payable.as_deref(), Some("61235.05"));
    }

    #[test]
    fn what_was_paid_before_may_sit_across_a_cash_rounding() {
        let read = |rounding: &'static str| {
            let doc = doc_from(&[
                ("Invoice 2022-0020", 10.0, 20.0),
                ("Net amount:  1000.03", 300.0, 200.0),
                ("VAT 21%:  210.01", 300.0, 215.0),
                ("Total:  1210.04", 300.0, 230.0),
                (rounding, 300.0, 245.0),
                ("Qwerty:  -210.00", 300.0, 260.0),
                ("Amount due:  1000.05", 300.0, 275.0),
            ]);
            let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            (r.totals.prepaid, r.totals.payable)
        };
        let (prepaid, payable) = read("Rounding:  0.01");
        assert_eq!(prepaid.as_deref(), Some("210.00"));
        assert_eq!(payable.as_deref(), Some("1000.05"));
        // Without the rounding printed, 210.00 is not what separates them.
        let (prepaid, _) = read("Qwerty note");
        assert_eq!(prepaid, None);
    }

    /// A net, VAT and total that are one row of a summary of two rates give way to the
    /// summary's sums, printed or (the total's line unreadable) computed.
    #[test]
    fn one_rate_of_a_summary_is_not_the_whole() {
        let lines = |last: &'static str| {
            vec![
                ("Faktura 2022-69444", 10.0, 20.0),
                ("Moms %  Netto  Momsbelopp  Inkl. moms", 300.0, 100.0),
                ("25%  400,00  100,00  500,00", 300.0, 110.0),
                ("6%  100,00  6,00  106,00", 300.0, 120.0),
                (last, 300.0, 140.0),
            ]
        };
        for (last, total_text) in [
            ("Summa inkl5240a3;18 SEK", "106,00"),
            ("Summa  606,00 SEK", "606,00"),
        ] {
            let doc = doc_from(&lines(last));
            let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            assert_eq!(
                r.totals.total.as_deref(),
                Some("606.00"),
                "{last}: {:?}",
                r.totals
            );
            assert_eq!(
                r.totals.net.as_deref(),
                Some("500.00"),
                "{last}: {:?}",
                r.totals
            );
            assert_eq!(
                r.totals.vat.as_deref(),
                Some("106.00"),
                "{last}: {:?}",
                r.totals
            );
            assert_eq!(r.taxes.len(), 2, "{last}: {:?}", r.taxes);
            // The evidence: the printed total, else the summary's last row.
            let ev = &r.evidence["/totals/total"];
            assert!(ev.text.contains(total_text), "{last}: {ev:?}");
        }
    }

    #[test]
    fn summary_rows_without_a_vat_label_give_net_and_vat_by_their_arithmetic() {
        // A till slip: two rates summarised under a header, no VAT word on the rows; the
        // 23 % row alone was taken for the VAT before.
        let doc = doc_from(&[
            ("Pastel de nata 5,01", 10.0, 100.0),
            ("Tosta mista 4,21", 10.0, 110.0),
            ("TOTAL A PAGAR EUR 29,72", 10.0, 130.0),
            ("Multibanco 29,72", 10.0, 140.0),
            ("Total IVA % Total iliquido Total IVA", 10.0, 160.0),
            ("A 23% 14,96 3,44", 10.0, 170.0),
            ("B 6% 10,68 0,64", 10.0, 180.0),
        ]);
        let cands = extract(&doc);
        let rows = &cands.tax_rows;
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(
            rows_explain(rows, d("29.72")),
            Some((d("25.64"), d("4.08")))
        );
        assert_eq!(rows_explain(rows, d("29.71")), None);
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("29.72"));
        assert_eq!(r.totals.vat.as_deref(), Some("4.08"));
        assert_eq!(r.totals.net.as_deref(), Some("25.64"));
        let taxes: Vec<_> = r
            .taxes
            .iter()
            .map(|t| (t.rate.as_deref(), t.base.as_deref(), t.amount.as_deref()))
            .collect();
        assert_eq!(
            taxes,
            [
                (Some("23"), Some("14.96"), Some("3.44")),
                (Some("6"), Some("10.68"), Some("0.64"))
            ]
        );
    }

    #[test]
    fn a_summary_row_takes_an_amount_ocr_broke_with_a_space() {
        // `877, 54` is two numbers to the regular reading; the row's rate confirms 877.54.
        let doc = doc_from(&[
            ("VAT %  Wartość netto  VAT  Brutto", 150.0, 100.0),
            ("23%      3815,40      877, 54      4692,94", 150.0, 114.0),
            ("Wartość brutto:  4692,94 zł", 300.0, 130.0),
        ]);
        let cands = extract(&doc);
        let rows = row_values(&cands);
        assert_eq!(rows, [(d("23"), d("3815.40"), d("877.54"))]);
        let amount = cands.amount_at(cands.tax_rows[0].amount.0).expect("amount");
        assert_eq!(amount.span.text, "877, 54");
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        assert_eq!(r.totals.vat.as_deref(), Some("877.54"));
        assert_eq!(r.totals.net.as_deref(), Some("3815.40"));
    }

    #[test]
    fn a_zero_rate_row_completes_the_summary_and_rows_explain_a_structural_total() {
        // No known total label; the summary's rows (one at 0 %) add up to the printed 60.50.
        let doc = doc_from(&[
            ("Sandwich      27.81", 10.0, 100.0),
            ("Flat white      32.69", 10.0, 114.0),
            ("Kwota      £60.50", 10.0, 140.0),
            ("Tax %      Net      Tax", 10.0, 170.0),
            ("A 20%      8.42      1.69", 10.0, 184.0),
            ("B 0%      50.39      0.00", 10.0, 198.0),
            ("C 0%      5.00      1.00", 10.0, 212.0),
        ]);
        let cands = extract(&doc);
        let rows = row_values(&cands);
        // `C 0%  5.00  1.00` prints no zero amount: no row.
        assert_eq!(
            rows,
            [
                (d("20"), d("8.42"), d("1.69")),
                (d("0"), d("50.39"), d("0.00"))
            ]
        );
        assert_eq!(
            rows_explain(&cands.tax_rows, d("60.50")),
            Some((d("58.81"), d("1.69")))
        );
    }

    #[test]
    fn a_zero_rate_row_with_its_gross_completes_the_summary() {
        let cands = extract(&doc_from(&[
            ("VAT %  Total excl. VAT  Total VAT  Gross", 300.0, 100.0),
            ("20%  7,165.53  1,433.11  8,598.64", 300.0, 115.0),
            ("0%  67.87  0.00  67.87", 300.0, 130.0),
            // A gross that is not the base: no zero rate's row.
            ("0%  12.00  0.00  13.00", 300.0, 145.0),
        ]));
        assert_eq!(
            row_values(&cands),
            [
                (d("20"), d("7165.53"), d("1433.11")),
                (d("0"), d("67.87"), d("0.00"))
            ]
        );
        assert_eq!(
            rows_explain(&cands.tax_rows, d("8666.51")),
            Some((d("7233.40"), d("1433.11")))
        );
    }

    #[test]
    fn only_lines_whose_rate_explains_an_amount_are_summary_rows() {
        let doc = doc_from(&[
            // 10 % of 100.00 is 10.00, but 15.00 is printed: no row.
            ("Rabatt 10% 100,00 15,00", 10.0, 100.0),
            // A rate above any VAT rate.
            ("Aufschlag 50% 20,00 10,00", 10.0, 120.0),
            // A credit note's row: negative base and amount.
            ("USt 19% -100,00 -19,00", 10.0, 140.0),
        ]);
        let cands = extract(&doc);
        let rows = &cands.tax_rows;
        let got = row_values(&cands);
        assert_eq!(got, [(d("19"), d("-100.00"), d("-19.00"))]);
        assert_eq!(
            rows_explain(rows, d("-119.00")),
            Some((d("-100.00"), d("-19.00")))
        );
    }

    #[test]
    fn per_rate_lines_without_bases_sum_to_the_vat() {
        // Net, two rates' VAT (the second label misread by OCR) and the total: net + both
        // amounts make the total.
        let doc = doc_from(&[
            ("Nettobetrag: 4979,21", 300.0, 200.0),
            ("USt. 20% 945,72", 300.0, 215.0),
            ("LSt. 10% 25,06", 300.0, 230.0),
            ("Gesamtbetrag: 5949,99", 300.0, 245.0),
        ]);
        let cands = extract(&doc);
        assert_eq!(cands.rate_lines.len(), 2, "{:?}", cands.rate_lines);
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        assert_eq!(r.totals.net.as_deref(), Some("4979.21"));
        assert_eq!(r.totals.vat.as_deref(), Some("970.78"));
        assert_eq!(r.totals.total.as_deref(), Some("5949.99"));
        let taxes: Vec<_> = r
            .taxes
            .iter()
            .map(|t| (t.rate.as_deref(), t.amount.as_deref()))
            .collect();
        assert_eq!(
            taxes,
            [(Some("20"), Some("945.72")), (Some("10"), Some("25.06"))]
        );
        // A till slip prints no net: VAT lines of two rates sum to the VAT.
        let doc = doc_from(&[
            ("Koffie 11,88", 10.0, 100.0),
            ("Pistolet 10,97", 10.0, 110.0),
            ("TOTAAL 25,99", 10.0, 130.0),
            ("BTW 21% 2,06", 10.0, 150.0),
            ("BTW 6% 0,80", 10.0, 160.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("25.99"));
        assert_eq!(r.totals.vat.as_deref(), Some("2.86"));
        // Whole forints, one rate line's amount broken by OCR (`92.37 3`): read whole, the
        // three lines sum to the VAT that net and total print.
        let doc = doc_from(&[
            ("Adóalap:  13.201.666 HUF", 300.0, 200.0),
            ("Adó 27%  1.576.974 HUF", 300.0, 215.0),
            ("Adó 18%  992.440 HUF", 300.0, 230.0),
            ("Adó 5%  92.37 3 HUF", 300.0, 245.0),
            ("Számla végösszege:  15.863.453 HUF", 300.0, 260.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("15863453"));
        assert_eq!(r.totals.vat.as_deref(), Some("2661787"));
    }

    #[test]
    fn a_triple_over_the_chosen_total_is_also_sought_among_joined_readings() {
        // Unknown labels: the rows' amounts add up to the net (a triple of printed amounts
        // whose total is the net itself); the total OCR split (`1 05,23`) is found read whole.
        let mut rows = Vec::new();
        for (y, cells) in [
            (88.0, ["#", "Kuvaus", "Määrä", "A-hinta", "ALV %", "Summa"]),
            (
                100.0,
                [
                    "1",
                    "Konsultointipalvelu",
                    "3 kpl",
                    "23,95",
                    "25,5%",
                    "71,85",
                ],
            ),
            (
                112.0,
                ["2", "Toimistotuoli", "0,5 kpl", "23,99", "25,5%", "12,00"],
            ),
        ] {
            for (x, cell) in [10.0, 30.0, 250.0, 330.0, 400.0, 480.0]
                .into_iter()
                .zip(cells)
            {
                rows.push((cell, x, y));
            }
        }
        rows.extend([
            ("Koki: 83,85", 300.0, 140.0),
            ("Dazuse 25,5% 21,38", 300.0, 152.0),
            ("Vagefo: 1 05,23", 300.0, 164.0),
        ]);
        let doc = doc_from(&rows);
        let scorer = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        let r = crate::fields::extract(&doc, &extract(&doc), &scorer);
        assert_eq!(r.totals.net.as_deref(), Some("83.85"));
        assert_eq!(r.totals.vat.as_deref(), Some("21.38"));
        assert_eq!(r.totals.total.as_deref(), Some("105.23"));
    }

    #[test]
    fn a_zero_rated_parts_tax_line_is_not_the_receipts_vat() {
        // Item amounts with their tax codes glued on; the taxed part's VAT and the zero-rated
        // part's `0.00` under the total.
        let doc = doc_from(&[
            ("RECEIPT", 200.0, 100.0),
            ("0.5 x 4.53  2.27 A", 10.0, 140.0),
            ("Mineral water  3.91B", 10.0, 155.0),
            ("Flat white  7.94B", 10.0, 170.0),
            ("Total amount  £14.12", 10.0, 200.0),
            ("Card  14.12", 10.0, 215.0),
            ("Tax 20%  0.38", 10.0, 230.0),
            ("Tax 0%  0.00", 10.0, 245.0),
        ]);
        let cands = extract(&doc);
        let scorer = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        let r = crate::fields::extract(&doc, &cands, &scorer);
        assert_eq!(r.totals.total.as_deref(), Some("14.12"));
        assert_eq!(r.totals.vat.as_deref(), Some("0.38"));
        assert_eq!(
            labelled_rate_lines_sum(&cands.rate_lines, (usize::MAX, Decimal::ZERO), d("14.12")),
            Some((d("0.38"), cands.rate_lines[0].amount.0))
        );
    }

    #[test]
    fn a_totals_block_set_as_running_text_wraps_a_rates_amount() {
        // Unknown labels, the totals set as one paragraph that wraps after the second rate:
        // its amount begins the next line, beside the total.
        let doc = doc_from(&[
            ("Consulting  3  218,86  656,58", 10.0, 100.0),
            ("Chair  5  101,70  508,50", 10.0, 112.0),
            (
                "Fegozu: 1.932,37 EUR Faduve: 21% 275,11 EUR Faduve: 4%",
                10.0,
                140.0,
            ),
            ("24,89 EUR Zove: 2.232,37 EUR", 10.0, 152.0),
        ]);
        let cands = extract(&doc);
        let rates: Vec<_> = cands
            .rate_lines
            .iter()
            .map(|l| (l.rate.1, l.amount.1))
            .collect();
        assert_eq!(
            rates,
            [
                (Decimal::new(21, 0), Decimal::new(27511, 2)),
                (Decimal::new(4, 0), Decimal::new(2489, 2))
            ]
        );
        let scorer = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        let r = crate::fields::extract(&doc, &cands, &scorer);
        assert_eq!(r.totals.net.as_deref(), Some("1932.37"));
        assert_eq!(r.totals.vat.as_deref(), Some("300.00"));
        assert_eq!(r.totals.total.as_deref(), Some("2232.37"));
        // An item row ending in its rate does not take the next row's first amount.
        let doc = doc_from(&[
            ("Consulting 3 218,86 656,58 21%", 10.0, 100.0),
            ("12,50 Chair 5 101,70 508,50 4%", 10.0, 112.0),
        ]);
        assert!(extract(&doc).rate_lines.is_empty());
        // One rate whose amount wraps: `Net ... VAT 19%` / `19,00 ...`.
        let doc = doc_from(&[
            ("Fegozu: 100,00 EUR Faduve: 19%", 10.0, 140.0),
            ("19,00 EUR Zove: 119,00 EUR", 10.0, 152.0),
        ]);
        let rates: Vec<_> = extract(&doc)
            .rate_lines
            .iter()
            .map(|l| (l.rate.1, l.amount.1))
            .collect();
        assert_eq!(rates, [(Decimal::new(19, 0), Decimal::new(1900, 2))]);
    }

    #[test]
    fn running_text_totals_whose_vat_word_is_unknown_add_up_by_their_rates() {
        // The VAT's word (`Imposta`) no vocabulary knows; the net's label takes the currency
        // that the net's amount prints in front (`Totale netto: EUR 1.266,96`). The two rates'
        // amounts make total - net: net 1266.96, VAT 258.04.
        let doc = doc_from(&[
            ("Cavo FG16  5  43,10  20%  172,40", 10.0, 100.0),
            (
                "Importo EUR 1.310,06 Abbuono: EUR -43,10 Totale netto: EUR 1.266,96 Imposta 22% EUR 240,80 Imposta",
                10.0,
                140.0,
            ),
            ("10% EUR 17,24 Totale documento: EUR 1.525,00", 10.0, 152.0),
        ]);
        assert_totals(&doc, "1266.96", "258.04", "1525.00");
    }

    #[test]
    fn a_title_word_after_the_totals_label_names_the_total_with_it() {
        // `Total` then the document's title word (`facture`): the total's label, not a title
        // line's number; the summary rows give the net and the VAT.
        let doc = doc_from(&[
            (
                "Main d'œuvre pose  2,5  h  184,20  20%  460,50",
                10.0,
                100.0,
            ),
            (
                "Licence logicielle  1  h  2.271,33  5,5%  2.271,33",
                10.0,
                112.0,
            ),
            ("TVA %  Total hors taxes  T.V.A.  TTC", 200.0, 140.0),
            ("20%  460,50  92,10  552,60", 200.0, 152.0),
            ("5,5%  2.271,33  124,92  2.396,25", 200.0, 164.0),
            ("Total facture TTC :2.948,85", 300.0, 180.0),
        ]);
        assert_totals(&doc, "2731.83", "217.02", "2948.85");
    }

    #[test]
    fn summary_rows_whose_percent_sign_ocr_read_as_96() {
        // `20%` read `2096`, `7%` read `795`: the rows' arithmetic to the cent confirms the
        // rates; an item row's `2096` beside one amount makes no summary row.
        let doc = doc_from(&[
            ("Світильник ГЕО  2096  1045,14", 10.0, 100.0),
            ("Технічне обслуговування  796  1690,10", 10.0, 112.0),
            ("ПДВ  Всього без ПДВ  У тому числі ПДВ  з ПДВ", 200.0, 140.0),
            ("2096  29026,44  5805,29  34831,73", 200.0, 152.0),
            ("795  1690,10  118,31  1808,41", 200.0, 164.0),
            ("Всього:  36640,14 грн", 300.0, 180.0),
        ]);
        let cands = extract(&doc);
        let rows: Vec<_> = cands
            .tax_rows
            .iter()
            .map(|r| (r.rate.1, r.base.1, r.amount.1))
            .collect();
        assert_eq!(
            rows,
            [
                (
                    Decimal::new(20, 0),
                    Decimal::new(2902644, 2),
                    Decimal::new(580529, 2)
                ),
                (
                    Decimal::new(7, 0),
                    Decimal::new(169010, 2),
                    Decimal::new(11831, 2)
                )
            ]
        );
        assert_totals(&doc, "30716.54", "5923.60", "36640.14");
        // A VAT-labelled line's rate read the same way is its rate line's; a total OCR split
        // (`2395 24,49`) under an unknown word is none.
        let doc = doc_from(&[
            ("Всього без ПДВ:  1111933,33", 150.0, 100.0),
            ("У тому числі ПДВ 2096  222386,67", 150.0, 112.0),
            ("Загальна сума:  1334320,00", 150.0, 124.0),
            ("Sumevi: 2395 24,49", 150.0, 140.0),
        ]);
        let cands = extract(&doc);
        let rates: Vec<_> = cands
            .rate_lines
            .iter()
            .map(|l| (l.rate.1, l.amount.1))
            .collect();
        assert_eq!(rates, [(Decimal::new(20, 0), Decimal::new(22238667, 2))]);
    }

    #[test]
    fn running_text_totals_with_other_totals_before_a_rate_give_its_vat() {
        // The totals as a paragraph: the net before the row discounts, the discount and the
        // subtotal before the first rate, whose amount wraps; the second rate's amount right
        // after it, the total after that. Net + both rates' VAT = total picks the subtotal.
        let doc = doc_from(&[
            ("Poradenství  12  6420,93  77051,16", 10.0, 100.0),
            ("Židle  2  6697,77  13395,54", 10.0, 112.0),
            (
                "Cena bez DPH 97925,82 Kč Poskytnutá sleva: -7479,12 Kč Mezisoučet: 90446,70 Kč Celkem DPH 21%",
                10.0,
                140.0,
            ),
            (
                "18939,41 Kč Celkem DPH 12% 24,65 Kč Celková částka: 109410,76 Kč",
                10.0,
                152.0,
            ),
        ]);
        let cands = extract(&doc);
        let rates: Vec<_> = cands
            .rate_lines
            .iter()
            .map(|l| (l.rate.1, l.amount.1))
            .collect();
        assert_eq!(
            rates,
            [
                (Decimal::new(21, 0), Decimal::new(1893941, 2)),
                (Decimal::new(12, 0), Decimal::new(2465, 2))
            ]
        );
        let scorer = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        let r = crate::fields::extract(&doc, &cands, &scorer);
        assert_eq!(r.totals.net.as_deref(), Some("90446.70"));
        assert_eq!(r.totals.vat.as_deref(), Some("18964.06"));
        assert_eq!(r.totals.total.as_deref(), Some("109410.76"));
        // A rate's base after it (`DPH 12% z 205,42 Kč: 24,65 Kč`) is no VAT amount.
        let doc = doc_from(&[("Celkem DPH 12% 205,42 Kč 24,65 Kč", 10.0, 140.0)]);
        let rates: Vec<_> = extract(&doc)
            .rate_lines
            .iter()
            .map(|l| l.amount.1)
            .collect();
        assert!(!rates.contains(&Decimal::new(20542, 2)), "{rates:?}");
    }

    #[test]
    fn the_single_rate_before_the_vat_among_a_wrapped_lines_amounts() {
        // The totals run as text and wrap before the rate: the rate, the VAT and the total on
        // one line, a line of the totals whose rate's amount is the VAT; the rate makes the
        // VAT of the net.
        let doc = doc_from(&[
            ("Consulting  3  218,86  656,58", 10.0, 100.0),
            ("Chair  5  101,70  508,50", 10.0, 112.0),
            (
                "Valoare lei 1.165,08 Bază de impozitare: lei 1.165,08 Taxa pe valoarea adăugată",
                10.0,
                140.0,
            ),
            ("19% lei 221,37 Total general: lei 1.386,45", 10.0, 152.0),
        ]);
        let cands = extract(&doc);
        let rates: Vec<_> = cands
            .rate_lines
            .iter()
            .map(|l| (l.rate.1, l.amount.1, l.labelled))
            .collect();
        assert_eq!(
            rates,
            [(Decimal::new(19, 0), Decimal::new(22137, 2), false)]
        );
        let scorer = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        let r = crate::fields::extract(&doc, &cands, &scorer);
        assert_eq!(r.totals.vat.as_deref(), Some("221.37"));
        let taxes: Vec<_> = r
            .taxes
            .iter()
            .map(|t| (t.rate.as_deref(), t.base.as_deref(), t.amount.as_deref()))
            .collect();
        assert_eq!(taxes, [(Some("19"), Some("1165.08"), Some("221.37"))]);
    }

    #[test]
    fn rate_lines_find_net_and_total_among_all_amounts() {
        // A credit note whose scorer took the items' sum for the total.
        let doc = doc_from(&[
            ("Summa -11868,69 EUR", 48.0, 416.0),
            ("Alennus: 564,89 EUR", 48.0, 430.0),
            ("Yhteensä ilman ALV: -11303,80 EUR", 48.0, 444.0),
            ("ALV 25,5% -2805,39 EUR", 48.0, 458.0),
            ("ALV 14% -21,43 EUR", 48.0, 472.0),
            ("ALV 10% -14,92 EUR", 48.0, 486.0),
            ("Verollinen summa: -14145,54 EUR", 48.0, 500.0),
        ]);
        let cands = extract(&doc);
        let value = |i: usize| dec(&cands.items[i]);
        let (n, t, vat, _) = rate_lines_pair(&cands, d("-11868.69")).expect("a pair");
        assert_eq!(value(n), Some(d("-11303.80")));
        assert_eq!(value(t), Some(d("-14145.54")));
        assert_eq!(vat, d("-2841.74"));
        // Never a total below the one chosen.
        assert!(rate_lines_pair(&cands, d("-15000.00")).is_none());
        // An item row that reads as a rate line (one amount after a rate) above the net does
        // not hide the summary's rate lines; labels nobody knows.
        let doc = doc_from(&[
            ("1 Servicos Jun. 23% 141,26", 10.0, 100.0),
            ("Vete: €7179,21", 10.0, 120.0),
            ("Zodufa: 23% €1325,91", 10.0, 130.0),
            ("Zodufa: 13% €93,02", 10.0, 140.0),
            ("Zodufa: 6% €41,93", 10.0, 150.0),
            ("Biga: €8640,07", 10.0, 160.0),
        ]);
        let cands = extract(&doc);
        assert_eq!(cands.rate_lines.len(), 4);
        let (n, t, vat, _) = rate_lines_pair(&cands, Decimal::ZERO).expect("a pair");
        assert_eq!(dec(&cands.items[n]), Some(d("7179.21")));
        assert_eq!(dec(&cands.items[t]), Some(d("8640.07")));
        assert_eq!(vat, d("1460.86"));
        // The whole block on one line, labels nobody knows: each rate with the amount after
        // it; net before and total after them.
        let doc = doc_from(&[
            ("1 Beratung 5 Std. 2.334,59 19% 11.672,95", 10.0, 100.0),
            (
                "Tetadi: EUR 50.269,22 Pofuga: 19% EUR 6.486,55 Pofuga: 7% EUR 1.129,07 Godiva: EUR 57.884,84",
                10.0,
                130.0,
            ),
        ]);
        let cands = extract(&doc);
        let rates: Vec<(Decimal, Decimal)> = cands
            .rate_lines
            .iter()
            .map(|l| (l.rate.1, l.amount.1))
            .collect();
        assert_eq!(rates, [(d("19"), d("6486.55")), (d("7"), d("1129.07"))]);
        let (n, t, vat, _) = rate_lines_pair(&cands, Decimal::ZERO).expect("a pair");
        assert_eq!(dec(&cands.items[n]), Some(d("50269.22")));
        assert_eq!(dec(&cands.items[t]), Some(d("57884.84")));
        assert_eq!(vat, d("7615.62"));
        // Labels nobody knows, one rate's amount and the total broken by OCR with a space:
        // the rate line is read whole (42 5,99 as 425,99) where the sum needs it.
        let doc = doc_from(&[
            ("Kese:  97786,70 EUR", 48.0, 428.0),
            ("Pokida: 20%  18008,27 EUR", 48.0, 442.0),
            ("Pokida: 5,5%  42 5,99 EUR", 48.0, 456.0),
            ("Bemeka:  1162 20,96 EUR", 48.0, 470.0),
        ]);
        let cands = extract(&doc);
        let sum = cands
            .rate_sums
            .iter()
            .find(|s| s.joined == 1)
            .expect("a joined sum");
        assert_eq!(sum.vat, d("18434.26"));
        assert_eq!(sum.amounts[1].1, d("425.99"));
        let (n, t, vat, _) = rate_lines_pair(&cands, Decimal::ZERO).expect("a pair");
        let value = |i: usize| cands.amount_at(i).and_then(dec);
        assert_eq!(value(n), Some(d("97786.70")));
        assert_eq!(value(t), Some(d("116220.96")));
        assert_eq!(vat, d("18434.26"));
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        let amounts: Vec<_> = r.taxes.iter().map(|t| t.amount.clone().unwrap()).collect();
        assert_eq!(amounts, ["18008.27", "425.99"]);
    }

    #[test]
    fn amounts_broken_by_ocr_are_read_whole_where_the_arithmetic_confirms() {
        // The total and one rate's VAT broken by a space; the net chosen among the amounts.
        let doc = doc_from(&[
            ("Montant HT 109161,26 EUR", 48.0, 400.0),
            ("Remise : -11374,56 EUR", 48.0, 414.0),
            ("Total HT : 97786,70 EUR", 48.0, 428.0),
            ("Montant TVA 20% 18008,27 EUR", 48.0, 442.0),
            ("Montant TVA 5,5% 42 5,99 EUR", 48.0, 456.0),
            ("Total TTC : 1162 20,96 EUR", 48.0, 470.0),
        ]);
        let cands = extract(&doc);
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("116220.96"));
        assert_eq!(r.totals.net.as_deref(), Some("97786.70"));
        assert_eq!(r.totals.vat.as_deref(), Some("18434.26"));
        // The evidence is the printed text read whole.
        let total = r.evidence.get("/totals/total").expect("total evidence");
        assert_eq!(total.text, "1162 20,96");
        // A total below the net and the VAT, under a label nobody knows.
        let doc = doc_from(&[
            ("Summe netto: EUR 236.405,63", 48.0, 400.0),
            ("MwSt. 19% EUR 44.917,07", 48.0, 414.0),
            ("Gesamtschuld: EUR 28 1.322,70", 48.0, 428.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("281322.70"));
        // Readings that add up as printed stay as printed: `2 11,90` is a count and a total.
        let doc = doc_from(&[
            ("Netto 10,00 EUR", 48.0, 400.0),
            ("MwSt. 19% 1,90 EUR", 48.0, 414.0),
            ("Gesamt 2 11,90 EUR", 48.0, 428.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("11.90"));
    }

    #[test]
    fn amounts_ocr_broke_count_in_the_structural_arithmetic() {
        let scorer =
            crate::fields::model::ModelScorer::embedded(None).expect("the embedded model loads");
        let totals = |lines: &[(&str, f32, f32)]| {
            let doc = doc_from(lines);
            let r = crate::fields::extract(&doc, &extract(&doc), &scorer);
            let t = r.totals;
            [t.net, t.vat, t.total].map(|v| v.unwrap_or_default())
        };
        // Net, VAT and total broken after the decimal point, labels unknown.
        let got = totals(&[
            ("Konsultace 10 2497.68 24976.80", 10.0, 100.0),
            ("Kresla 1 2210.53 2210.53", 10.0, 112.0),
            ("Kij: 86017. 68 RUB", 300.0, 140.0),
            ("Eri 20% 17163.49 RUB", 300.0, 152.0),
            ("Deri 10% 20.02 RUB", 300.0, 164.0),
            ("Geri: 17183. 51 RUB", 300.0, 176.0),
            ("Bara: 103201. 19 RUB", 300.0, 188.0),
        ]);
        assert_eq!(got, ["86017.68", "17183.51", "103201.19"]);
        // A credit note whose VAT OCR broke inside its thousands.
        let got = totals(&[
            ("Suveta: -106.443, 38 kr.", 300.0, 140.0),
            ("Pafi: 25% -26.61 0,85 kr.", 300.0, 152.0),
            ("Zamo: -133.054,23 kr.", 300.0, 164.0),
        ]);
        assert_eq!(got, ["-106443.38", "-26610.85", "-133054.23"]);
        // Two rates' VAT lines and a total OCR broke: net + the rates' amounts = total.
        let got = totals(&[
            ("Pisubi: 199028,19", 300.0, 140.0),
            ("Zavato 21% 38763,48", 300.0, 152.0),
            ("Zavato 12% 1732,82", 300.0, 164.0),
            ("Sumevi: 2395 24,49", 300.0, 176.0),
        ]);
        assert_eq!(got, ["199028.19", "40496.30", "239524.49"]);
    }

    #[test]
    fn a_vat_over_a_quarter_of_the_total_without_arithmetic_is_dropped() {
        let scorer =
            crate::fields::model::ModelScorer::embedded(None).expect("the embedded model loads");
        let vat_of = |vat: &str| {
            let line = format!("MwSt  {vat}");
            let doc = doc_from(&[
                ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
                (line.as_str(), 300.0, 200.0),
                ("Gesamtbetrag  33,05", 300.0, 214.0),
            ]);
            let r = crate::fields::extract(&doc, &extract(&doc), &scorer);
            (r.totals.vat.clone(), r.totals.total.clone())
        };
        assert_eq!(vat_of("5,28"), (Some("5.28".into()), Some("33.05".into())));
        // No rate makes VAT three quarters of a gross total.
        assert_eq!(vat_of("25,44"), (None, Some("33.05".into())));
    }

    #[test]
    fn an_item_row_whose_quantity_times_its_rate_is_one_is_no_summary_row() {
        // `5 x 1.766,84 = 8.834,20` and 20 % of 8.834,20 is 1.766,84: an item row that reads
        // as a summary row; the summary below explains the total alone.
        let scorer =
            crate::fields::model::ModelScorer::embedded(None).expect("the embedded model loads");
        // Rows as a PDF prints them: the description left-aligned, quantity and unit, then
        // price, rate and amount right-aligned in their columns.
        let rows = [
            (
                "1  Prestation de conseil (jour)",
                "1  m",
                "1.765,94",
                "1.765,94",
            ),
            (
                "2  Chaise de bureau ergonomique",
                "5  kg",
                "1.766,84",
                "8.834,20",
            ),
            ("3  Ramette papier A4", "5  pce", "1.140,66", "5.703,30"),
            (
                "4  Licence logicielle annuelle",
                "3  kg",
                "415,99",
                "1.247,97",
            ),
            ("5  Main d'œuvre pose", "10  m", "2.906,33", "29.063,30"),
            (
                "6  Contrat de maintenance mensuel",
                "5  m",
                "1.357,97",
                "6.789,85",
            ),
            ("7  Dalle LED 60x60", "2  m", "491,42", "982,84"),
        ];
        let right = |text: &str, x1: f32| x1 - text.chars().count() as f32 * 5.0;
        let mut lines: Vec<(String, f32, f32)> = vec![
            ("Facture".into(), 474.0, 105.0),
            ("Poseti :  2026/985".into(), 343.0, 133.0),
            ("Devise : EUR".into(), 496.0, 247.0),
            (
                "#  Désignation  Qté  P.U. HT  TVA %  Montant HT".into(),
                51.0,
                268.0,
            ),
        ];
        for (i, (desc, qty, price, amount)) in rows.iter().enumerate() {
            let y = 285.0 + 17.0 * i as f32;
            lines.push((desc.to_string(), 51.0, y));
            lines.push((qty.to_string(), 260.0, y));
            lines.push((price.to_string(), right(price, 380.0), y));
            lines.push(("20%".into(), 400.0, y));
            lines.push((amount.to_string(), right(amount, 520.0), y));
        }
        lines.extend([
            ("TVA %  Rofime:  Farike  TTC".to_string(), 143.0, 417.0),
            ("20%  54.387,40  10.877,48  65.264,88".into(), 151.0, 432.0),
            ("Kuri:  65.264,88".into(), 298.0, 451.0),
            ("Boda:  -13.053,00".into(), 298.0, 466.0),
            ("Tizope :  52.211,88".into(), 298.0, 479.0),
        ]);
        let refs: Vec<(&str, f32, f32)> =
            lines.iter().map(|(t, x, y)| (t.as_str(), *x, *y)).collect();
        let doc = doc_from(&refs);
        let c = extract(&doc);
        assert_eq!(c.item_table.as_ref().map(|t| t.rows.len()), Some(7));
        let r = crate::fields::extract(&doc, &c, &scorer);
        assert_eq!(
            (
                r.totals.net.as_deref(),
                r.totals.vat.as_deref(),
                r.totals.total.as_deref()
            ),
            (Some("54387.40"), Some("10877.48"), Some("65264.88"))
        );
    }

    #[test]
    fn a_cash_rounding_leaves_the_total_and_makes_the_payable() {
        let scorer =
            crate::fields::model::ModelScorer::embedded(None).expect("the embedded model loads");
        let totals = |lines: &[(&str, f32, f32)]| {
            let doc = doc_from(lines);
            let r = crate::fields::extract(&doc, &extract(&doc), &scorer);
            (r.totals.total, r.totals.payable)
        };
        let s = |v: &str| Some(v.to_string());
        // Unknown labels around a printed rounding: 104.51 + 0.49 = 105.00, which is paid.
        let got = totals(&[
            ("Káva 104,51 A", 10.0, 100.0),
            ("Dabo: 104,51 Kč", 10.0, 120.0),
            ("Zaokrouhlení: 0,49", 10.0, 132.0),
            ("Rifude: 105,00 Kč", 10.0, 144.0),
            ("Karta 105,00", 10.0, 156.0),
        ]);
        assert_eq!(got, (s("104.51"), s("105.00")));
        // The VAT its rate line says the total before the rounding includes (21 % of 104.51
        // gross), not the amount paid.
        let doc = doc_from(&[
            ("Káva 104,51 A", 10.0, 100.0),
            ("Dabo: 104,51 Kč", 10.0, 120.0),
            ("Zaokrouhlení: 0,49", 10.0, 132.0),
            ("Rifude: 105,00 Kč", 10.0, 144.0),
            ("Karta 105,00", 10.0, 156.0),
            ("Zuperu 21%  18,14", 10.0, 168.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &scorer);
        assert_eq!(r.totals.vat, s("18.14"));
        // A rounding to 5 forint, printed as a whole number.
        let got = totals(&[
            ("2 x 1.346 2.692 A", 10.0, 100.0),
            ("Zize 2.692 Ft", 10.0, 120.0),
            ("Kerekítés: -2", 10.0, 132.0),
            ("Kudu: 2.690 Ft", 10.0, 144.0),
        ]);
        assert_eq!(got, (s("2692"), s("2690")));
        // Known labels: the rounded amount is the payable of the total before it; a known label
        // calls it a total (which keeps it where it was chosen), an unknown one does not.
        let lines = [
            ("Item 33,92", 10.0, 100.0),
            ("TOTAL 33.92", 10.0, 120.0),
            ("ROUNDING ADJUSTMENT -0.02", 10.0, 132.0),
            ("TOTAL ROUNDED 33.90", 10.0, 144.0),
        ];
        assert_eq!(totals(&lines), (s("33.92"), s("33.90")));
        let doc = doc_from(&lines);
        let cands = extract(&doc);
        let at = |v: &str| (0..cands.items.len()).find(|&i| dec(&cands.items[i]) == Some(d(v)));
        assert!(at("33.90").is_some_and(|i| labelled_total(&cands, i)));
        let doc = doc_from(&[("Rifude: 105,00 Kč", 10.0, 144.0)]);
        let cands = extract(&doc);
        let i = (0..cands.items.len()).find(|&i| dec(&cands.items[i]) == Some(d("105.00")));
        assert!(i.is_some_and(|i| !labelled_total(&cands, i)));
        // An amount as large as a total below a rounding label is no rounding.
        let doc = doc_from(&[
            ("DISC 0.00", 10.0, 100.0),
            ("ROUNDING 0.00", 10.0, 112.0),
            ("TOTAL 15.00", 10.0, 124.0),
            ("CASH 15.00", 10.0, 136.0),
        ]);
        let cands = extract(&doc);
        let total = (0..cands.items.len()).filter(|&i| dec(&cands.items[i]) == Some(d("15.00")));
        assert!(total.clone().count() >= 2);
        let roundings = printed_roundings(&cands);
        assert!(
            total
                .map(|i| cash_rounding(&cands, &roundings, i))
                .all(|r| r.is_none())
        );
    }

    #[test]
    fn a_total_under_an_unknown_label_is_what_the_payment_or_the_tax_rows_make() {
        // Cash less change.
        let doc = doc_from(&[
            ("Bocadillo 13,06 B", 10.0, 100.0),
            ("Fedo 42,29 €", 10.0, 120.0),
            ("Efectivo 50,00", 10.0, 130.0),
            ("Cambio 7,71", 10.0, 140.0),
        ]);
        let cands = extract(&doc);
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("42.29"));
        // The VAT summary rows' bases and amounts.
        let doc = doc_from(&[
            ("Kaffee 26,40", 10.0, 100.0),
            ("Gesamtbetrag? 42,29", 10.0, 120.0),
            ("A 21% 21,82 4,58", 10.0, 130.0),
            ("B 4% 15,28 0,61", 10.0, 140.0),
        ]);
        let cands = extract(&doc);
        assert_eq!(
            structural_total(&cands, &cands.table_lines(doc.lines.len()))
                .and_then(|i| dec(&cands.items[i])),
            Some(d("42.29"))
        );
        // Nothing adds up: no total is made up.
        let doc = doc_from(&[
            ("Fedo 42,28 €", 10.0, 120.0),
            ("Efectivo 50,00", 10.0, 130.0),
            ("Cambio 7,71", 10.0, 140.0),
        ]);
        let cands = extract(&doc);
        assert_eq!(
            structural_total(&cands, &cands.table_lines(doc.lines.len())),
            None
        );
    }

    #[test]
    fn an_unlabelled_total_no_arithmetic_holds_gives_way_to_what_the_tax_rows_make() {
        // A card slip: the terminal's id is its largest number, at the bottom; the VAT summary
        // row's base and amount make the amount printed (without a known total label) above.
        let lines = |tid: &'static str| {
            [
                ("Pénztárbizonylat", 75.0, 27.0),
                ("Németh Nyomda Nyrt.", 60.0, 39.0),
                ("Kávé", 6.0, 92.0),
                ("3 x 735  2.205", 6.0, 103.0),
                ("ÖSSZEG  2.205 HUF", 6.0, 124.0),
                ("Adó % Nettó  Adó", 6.0, 159.0),
                ("A 27% 1.736  469", 6.0, 170.0),
                ("Nyugtaszám 5/0448", 6.0, 189.0),
                ("2022.01.18. 10:19", 6.0, 200.0),
                (tid, 6.0, 229.0),
            ]
        };
        let doc = doc_from(&lines("AID A0000000031010 TID 58367506"));
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("2205"));
        assert_eq!(r.totals.net.as_deref(), Some("1736"));
        assert_eq!(r.totals.vat.as_deref(), Some("469"));
        // A total a known label names stays, whatever the rows make; so does one repeated as the
        // payment (the rows are one rate's of several: the other rate's row unread).
        let doc = doc_from(&lines("Total 58367506"));
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("58367506"));
        let doc = doc_from(&[
            ("Cornetto", 34.0, 516.0),
            ("1,25 × 10,76  13,45", 29.0, 559.0),
            ("Acqua 5,14", 29.0, 600.0),
            ("IMPORTO 18,59 €", 20.0, 651.0),
            ("Carta  18,59", 35.0, 712.0),
            ("Imposta % Totale netto  Imposta", 28.0, 794.0),
            ("B 4% 12,93  0,52", 32.0, 882.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("18.59"));
    }

    #[test]
    fn a_labelled_total_stays_when_the_summary_rows_read_are_some_of_them() {
        // `Hátralék` (what is left to pay, no known label) scores over `ÖSSZESEN`; the 5 % row
        // OCR garbled (`191 9` for 1919), the 27 % row alone makes 5704, an item's amount.
        let doc = doc_from(&[
            ("Varga és Horváth Nyrt.", 134.0, 66.0),
            ("Fő utca 163.", 222.0, 99.0),
            ("7621 Pécs", 233.0, 128.0),
            ("Adószám 16175709-2-36", 155.0, 159.0),
            ("Pénztárbizonylat", 181.0, 194.0),
            ("Kiállítva: 2024.01.01.", 21.0, 226.0),
            ("17:08", 500.0, 226.0),
            ("Nyugtaszám 027774", 20.0, 255.0),
            ("Tej 11", 19.0, 339.0),
            ("2015", 510.0, 339.0),
            ("Kávé", 19.0, 369.0),
            ("1,25 × 4563", 19.0, 399.0),
            ("5704", 510.0, 399.0),
            ("NYUGTA ÖSSZESEN", 24.0, 457.0),
            ("7719Ft", 490.0, 457.0),
            ("Kerekítési különbözet:", 21.0, 495.0),
            ("1", 540.0, 495.0),
            ("Hátralék:", 21.0, 528.0),
            ("7720Ft", 490.0, 528.0),
            ("Készpénz", 20.0, 561.0),
            ("7725", 510.0, 561.0),
            ("Visszajáró", 21.0, 592.0),
            ("5", 540.0, 592.0),
            ("Adó % Adóalap", 19.0, 644.0),
            ("Adó", 520.0, 644.0),
            ("A 27% 4491", 17.0, 674.0),
            ("1213", 510.0, 674.0),
            ("B 5% 191 9", 19.0, 704.0),
            ("96", 530.0, 704.0),
        ]);
        for r in by_both_scorers(&doc, &extract(&doc)) {
            assert_eq!(r.totals.total.as_deref(), Some("7719"), "{:?}", r.totals);
        }
    }

    /// The fields the rules and the embedded model read from `cands`.
    fn by_both_scorers(
        doc: &crate::types::CleanDocument,
        cands: &Candidates,
    ) -> [crate::result::DocumentResult; 2] {
        let model = crate::fields::model::ModelScorer::embedded(None).expect("field model");
        [
            crate::fields::extract(doc, cands, &crate::fields::RuleScorer),
            crate::fields::extract(doc, cands, &model),
        ]
    }

    /// Net, VAT and total of a document by both scorers, each as expected.
    fn assert_totals(doc: &crate::types::CleanDocument, net: &str, vat: &str, total: &str) {
        for r in by_both_scorers(doc, &extract(doc)) {
            let t = &r.totals;
            assert_eq!(
                [t.net.as_deref(), t.vat.as_deref(), t.total.as_deref()],
                [Some(net), Some(vat), Some(total)]
            );
        }
    }

    #[test]
    fn a_printed_cash_rounding_closes_net_plus_vat() {
        // `NET TOTAL` is the receipt's final amount; the net is the sub-total that, with the
        // GST and the rounding, makes it.
        let doc = doc_from(&[
            ("FISHBALL NOODLE 7.00", 10.0, 100.0),
            ("SUB TOTAL 7.00", 10.0, 114.0),
            ("GST 6% 0.42", 10.0, 128.0),
            ("ROUNDING ADJ -0.02", 10.0, 142.0),
            ("NET TOTAL 7.40", 10.0, 156.0),
            ("CASH 7.40", 10.0, 170.0),
            ("CHANGE 0.00", 10.0, 184.0),
        ]);
        let cands = extract(&doc);
        let rounding: Vec<Decimal> = printed_roundings(&cands).iter().map(|r| r.2).collect();
        assert_eq!(rounding, vec![d("-0.02")]);
        for r in by_both_scorers(&doc, &cands) {
            assert_eq!(r.totals.total.as_deref(), Some("7.40"));
            assert_eq!(r.totals.net.as_deref(), Some("7.00"));
            assert_eq!(r.totals.vat.as_deref(), Some("0.42"));
        }
    }

    #[test]
    fn the_total_before_a_cash_rounding_takes_the_tax_rows() {
        // The amount to pay is rounded (10499 -> 10500 forints); the VAT summary rows make the
        // total before the rounding, and give the net and VAT once that is the total.
        let doc = doc_from(&[
            ("Kenyér 4330", 10.0, 100.0),
            ("NYUGTA ÖSSZESEN 10499 HUF", 10.0, 114.0),
            ("Kerekítési különbözet: 1", 10.0, 128.0),
            ("Fizetendő végösszeg: 10500 HUF", 10.0, 142.0),
            ("Bankkártya 10500", 10.0, 156.0),
            ("Adó % Adóalap Adó", 10.0, 170.0),
            ("A 27% 3409 921", 10.0, 184.0),
            ("B 5% 5875 294", 10.0, 198.0),
        ]);
        let cands = extract(&doc);
        for r in by_both_scorers(&doc, &cands) {
            assert_eq!(r.totals.total.as_deref(), Some("10499"));
            assert_eq!(r.totals.payable.as_deref(), Some("10500"));
            assert_eq!(r.totals.net.as_deref(), Some("9284"));
            assert_eq!(r.totals.vat.as_deref(), Some("1215"));
        }
    }

    #[test]
    fn money_printed_in_whole_units_adds_up_too() {
        // Forints: no decimals anywhere, dots group thousands (the date's dots are no decimals).
        let doc = doc_from(&[
            ("Számla kelte: 2025.04.18", 48.0, 100.0),
            ("Nettó összesen: 1.175.218 Ft", 48.0, 400.0),
            ("ÁFA 27% 59.686 Ft", 48.0, 414.0),
            ("ÁFA 5% 47.708 Ft", 48.0, 428.0),
            ("Végösszeg: 1.282.612 Ft", 48.0, 442.0),
        ]);
        let cands = extract(&doc);
        assert_eq!(
            cands.style.money,
            crate::candidates::amounts::MoneyPrint::WholeUnits
        );
        assert_eq!(cands.style.decimal, Some(','));
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("1282612"));
        assert_eq!(r.totals.net.as_deref(), Some("1175218"));
        assert_eq!(r.totals.vat.as_deref(), Some("107394"));
    }

    #[test]
    fn item_amounts_that_add_up_by_chance_do_not_replace_the_total() {
        // 8.62 + 1.50 + 1.04 = 11.16: two item amounts and the VAT lines.
        let doc = doc_from(&[
            ("Agua mineral 11,16", 10.0, 100.0),
            ("2 x 4,31 8,62", 10.0, 110.0),
            ("TOTAL EUR 35,63", 10.0, 130.0),
            ("Tarjeta 35,63", 10.0, 140.0),
            ("Cuota IVA 21% 1,50", 10.0, 150.0),
            ("Cuota IVA 4% 1,04", 10.0, 160.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("35.63"));
        assert_eq!(r.totals.vat.as_deref(), Some("2.54"));
        assert_eq!(r.totals.net, None);
    }

    #[test]
    fn net_and_vat_find_their_unlabelled_total_below() {
        // A credit note whose total label the vocabulary does not know.
        let doc = doc_from(&[
            ("Net amount -99.49", 300.0, 200.0),
            ("VAT 21% -20.89", 300.0, 220.0),
            ("Qwerty zork: -120.38", 300.0, 240.0),
            ("Rounding -0.02", 300.0, 260.0),
            ("Plugh: -120.40", 300.0, 280.0),
        ]);
        let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
        assert_eq!(r.totals.net.as_deref(), Some("-99.49"));
        assert_eq!(r.totals.vat.as_deref(), Some("-20.89"));
        assert_eq!(r.totals.total.as_deref(), Some("-120.38"));
    }

    #[test]
    fn unlabelled_totals_come_from_the_arithmetic() {
        // Labels in a language the vocabulary does not know: the structure answers.
        let doc = doc_from(&[
            ("Xyzzy 1 kpl 40.00", 50.0, 100.0),
            ("Plugh 2 kpl 60.00", 50.0, 120.0),
            ("Blorp 100.00", 300.0, 200.0),
            ("Quux 24 % 24.00", 300.0, 220.0),
            ("Frobnitz 124.00", 300.0, 240.0),
        ]);
        let cands = extract(&doc);
        let (n, v, t) =
            structural_triple(&cands, &[], &item_rows(&cands), |_| true).expect("triple");
        let val = |i: usize| cands.items[i].value.clone();
        assert_eq!(
            (val(n), val(v), val(t)),
            ("100.00".into(), "24.00".into(), "124.00".into())
        );
        // A labelled total whose net and VAT carry unknown labels: the amounts above it.
        let total = cands
            .items
            .iter()
            .enumerate()
            .find(|(_, c)| c.value == "124.00")
            .map(|(i, c)| (0.9, i, dec(c).unwrap()))
            .unwrap();
        let lines = cands.table_lines(doc.lines.len());
        let (n, v) = structural_split(&cands, &total, &lines, &[]).expect("split");
        assert_eq!((val(n), val(v)), ("100.00".into(), "24.00".into()));
        // No triple: nothing is guessed.
        let doc = doc_from(&[
            ("Blorp 100.00", 300.0, 200.0),
            ("Frobnitz 180.00", 300.0, 240.0),
        ]);
        let cands = extract(&doc);
        assert!(structural_triple(&cands, &[], &item_rows(&cands), |_| true).is_none());
    }

    #[test]
    fn a_total_without_a_net_gives_the_vat_its_rate_lines_say_it_includes() {
        let vat_of = |lines: &[(&str, f32, f32)]| {
            let doc = doc_from(lines);
            let r = crate::fields::extract(&doc, &extract(&doc), &crate::fields::RuleScorer);
            (r.totals.total.clone(), r.totals.vat.clone())
        };
        // One rate: 109.32 x 5 / 105 = 5.21 (the rate line's label unknown).
        assert_eq!(
            vat_of(&[
                ("Cascaval 52.03", 10.0, 100.0),
                ("Lapte 57.29", 10.0, 110.0),
                ("TOTAL 109.32", 10.0, 130.0),
                ("Tupape: 5% 5.21", 10.0, 150.0),
            ]),
            (Some("109.32".into()), Some("5.21".into()))
        );
        // Two rates whose grosses make the total (951.60 + 606.99 = 1558.59, within rounding).
        assert_eq!(
            vat_of(&[
                ("Moloko 1558.63", 10.0, 100.0),
                ("TOTAL 1558.63", 10.0, 130.0),
                ("Zire: 20% 158.60", 10.0, 150.0),
                ("Zire: 7% 39.71", 10.0, 160.0),
            ])
            .1,
            Some("198.31".into())
        );
        // A rate line whose amount the total does not include at its rate: no VAT.
        assert_eq!(
            vat_of(&[
                ("Moloko 40.00", 10.0, 100.0),
                ("TOTAL 40.00", 10.0, 130.0),
                ("Zire: 20% 3.00", 10.0, 150.0),
            ])
            .1,
            None
        );
    }

    #[test]
    fn an_unlabelled_total_is_found_below_a_unit_price_larger_than_itself() {
        // Item rows (found by their arithmetic) print a unit price above the total; the totals
        // block's labels are unknown.
        let doc = doc_from(&[
            ("Beratung 1 Stk. 27,72 27,72", 10.0, 100.0),
            ("Burostuhl 0,5 Stk. 217,87 108,94", 10.0, 115.0),
            ("Sova: EUR 136,66", 300.0, 140.0),
            ("Dupeti: 19% EUR 25,97", 300.0, 155.0),
            ("Kibuta: EUR 162,63", 300.0, 170.0),
        ]);
        let cands = extract(&doc);
        assert!(cands.item_table.is_some());
        let body = body_lines(&cands, &cands.table_lines(doc.lines.len()));
        let (n, v, t) =
            structural_triple(&cands, &body, &item_rows(&cands), |_| true).expect("triple");
        let val = |i: usize| cands.items[i].value.clone();
        assert_eq!(
            (val(n), val(v), val(t)),
            ("136.66".into(), "25.97".into(), "162.63".into())
        );
    }

    #[test]
    fn an_accounts_balance_under_the_invoice_is_no_total() {
        // The totals block (the net's label unknown), then the account's open items: an
        // earlier invoice and this one, and their balance. The balance and the two items add
        // up (this total + the earlier amount), but the scored total and VAT that the printed
        // net completes are the document's.
        let doc = doc_from(&[
            ("Descripción  Cant.  Precio  Importe", 10.0, 85.0),
            ("Servicios de consultoría  2  183,58  367,16", 10.0, 100.0),
            ("Licencia de software anual  4  165,68  662,72", 10.0, 115.0),
            ("Base:  1.029,88 EUR", 12.0, 140.0),
            ("Total IVA 21%  216,27 EUR", 12.0, 155.0),
            ("Total documento:  1.246,15 EUR", 12.0, 170.0),
            ("Partidas pendientes:", 10.0, 200.0),
            ("Factura 498/2941 de 25-09-2019  270,89 EUR", 10.0, 215.0),
            ("Factura 498/2020 de 21-01-2020  1.246,15 EUR", 10.0, 230.0),
            ("Saldo:  1.517,04 EUR", 10.0, 245.0),
        ]);
        assert_totals(&doc, "1029.88", "216.27", "1246.15");
    }

    #[test]
    fn the_scored_vat_finds_its_net_and_total_around_it() {
        let doc = doc_from(&[
            (
                "Konsultavimo paslaugos  40  16,37  21%  654,80  792,31",
                10.0,
                100.0,
            ),
            ("Apmokestinamoji vertė:  654,80 €", 10.0, 130.0),
            ("PVM mokestis 21%  137,51 €", 10.0, 145.0),
            ("Bendra vertė:  792,31 €", 10.0, 160.0),
            ("Sąskaita 2023-28178 iš 2022-10-21  2567,96 €", 10.0, 200.0),
            ("Sąskaita 2023-28484 iš 2023-03-04  792,31 €", 10.0, 215.0),
            ("Likutis:  3360,27 €", 10.0, 230.0),
        ]);
        let cands = extract(&doc);
        for r in by_both_scorers(&doc, &cands) {
            assert_eq!(r.totals.total.as_deref(), Some("792.31"));
            assert_eq!(r.totals.net.as_deref(), Some("654.80"));
        }
        let vats = [(0.9, at_value(&cands, "137.51", 2), d("137.51"))];
        let (n, v, vi, t) = vat_anchored(&cands, &[0], &vats).expect("a set");
        assert_eq!(
            (value_at(&cands, n), v, vi),
            (d("654.80"), d("137.51"), vats[0].1)
        );
        assert_eq!(value_at(&cands, t), d("792.31"));
        // Outside the item rows before within them: the row prints 654,80 and 792,31 too.
        assert_eq!(cands.items[n].span.line, 1);
        assert_eq!(cands.items[t].span.line, 3);
        // Two rates' VAT amounts scored: their sum between the net and the total.
        let doc = doc_from(&[
            ("1  Usługa doradcza  3  23%  95595,28", 10.0, 40.0),
            ("2  Krzesło biurowe  1  8%  18641,89", 10.0, 55.0),
            ("3  Papier ksero A4  5  23%  332918,82", 10.0, 70.0),
            ("Suma netto:  447155,99", 10.0, 100.0),
            ("Wartość VAT 23%  98875,85", 10.0, 115.0),
            ("Wartość VAT 8%  1380,88", 10.0, 130.0),
            ("Ogółem:  547412,72", 10.0, 145.0),
            (
                "Faktura FV/2025/07/168 z dnia 2025-01-01  437,32",
                10.0,
                170.0,
            ),
            (
                "Faktura FV/2025/07/690 z dnia 2025-02-07  3569,18",
                10.0,
                185.0,
            ),
            (
                "Faktura FV/2025/07/913 z dnia 2025-04-09  547412,72",
                10.0,
                200.0,
            ),
            ("Saldo:  551419,22", 10.0, 215.0),
        ]);
        let cands = extract(&doc);
        let vats = [
            (0.99, at_value(&cands, "1380.88", 5), d("1380.88")),
            (0.98, at_value(&cands, "98875.85", 4), d("98875.85")),
        ];
        let (n, v, vi, t) = vat_anchored(&cands, &[0, 1, 2], &vats).expect("a set");
        assert_eq!(
            (value_at(&cands, n), v, vi),
            (d("447155.99"), d("100256.73"), vats[1].1)
        );
        assert_eq!(value_at(&cands, t), d("547412.72"));
        // No amount that makes the sum: none.
        let vats = [(0.9, at_value(&cands, "98875.85", 4), d("98875.85"))];
        assert_eq!(vat_anchored(&cands, &[0, 1, 2], &vats), None);
        for r in by_both_scorers(&doc, &cands) {
            assert_eq!(r.totals.total.as_deref(), Some("547412.72"));
        }
    }

    #[test]
    fn a_scored_total_that_its_net_and_vat_make_beats_a_lone_higher_one() {
        // The VAT's label garbled, no VAT scored; the balance of the open items under the
        // totals is scored above the labelled total, which the net and the VAT printed above
        // it make.
        let doc = doc_from(&[
            ("Biroja krēsls  1  25,29  21%  20,23  24,48", 10.0, 100.0),
            ("Papīrs A4  12  46,59  21%  559,08  676,49", 10.0, 115.0),
            ("Summa  579,31 €", 10.0, 140.0),
            ("Starpsumma:  579,31 €", 10.0, 155.0),
            ("Pievienotās vērtibas nodoklis 21%  121,66 €", 10.0, 170.0),
            ("Kopsumma:  700,97 €", 10.0, 185.0),
            ("Rēkins 24080345 no 01.06.2024  1280,17 €", 10.0, 215.0),
            ("Rēkins 24080902 no 07.09.2024  700,97 €", 10.0, 230.0),
            ("Atikums:  1981,14 €", 10.0, 245.0),
        ]);
        let cands = extract(&doc);
        for r in by_both_scorers(&doc, &cands) {
            assert_eq!(r.totals.total.as_deref(), Some("700.97"));
            assert_eq!(r.totals.vat.as_deref(), Some("121.66"));
        }
        // A scorer that ranks the bottom-most amount first (the largest amount at the bottom,
        // as a page in unknown words may have it): the labelled total, within the consistency
        // bonus, is the one the printed net and VAT make.
        struct Bottom;
        impl crate::fields::FieldScorer for Bottom {
            fn name(&self) -> &str {
                "bottom"
            }
            fn score(&self, field: Field, f: &CandidateFeatures) -> f32 {
                let rules = crate::fields::RuleScorer.score(field, f);
                match field {
                    Field::Total if field.admits(f) => 0.5 + 0.5 * f.rel_y.min(1.0),
                    Field::Vat => 0.0,
                    _ => rules,
                }
            }
        }
        let r = crate::fields::extract(&doc, &cands, &Bottom);
        assert_eq!(r.totals.total.as_deref(), Some("700.97"));
        assert_eq!(r.totals.net.as_deref(), Some("579.31"));
        assert_eq!(r.totals.vat.as_deref(), Some("121.66"));
    }

    #[test]
    fn an_instalment_is_no_amount_payable() {
        // A payment schedule run on under a payable label (`de plată`), its last amount
        // wrapped to the next line; and one instalment per line.
        let run_on = [
            (
                "Grafic de plată: 18/06/2024 297,50 RON / 18/09/2024",
                10.0,
                215.0,
            ),
            ("297,50 RON", 10.0, 230.0),
        ];
        let per_line = [
            ("1.  18/06/2024  297,50 RON", 10.0, 215.0),
            ("2.  18/09/2024  297,50 RON", 10.0, 230.0),
        ];
        for schedule in [run_on, per_line] {
            let mut lines = vec![
                ("Servicii de consultanță  5  100,00  500,00", 10.0, 100.0),
                ("Subtotal:  500,00 RON", 300.0, 130.0),
                ("TVA 19%  95,00 RON", 300.0, 145.0),
                ("Total general:  595,00 RON", 300.0, 160.0),
            ];
            lines.extend_from_slice(&schedule);
            let doc = doc_from(&lines);
            let cands = extract(&doc);
            for r in by_both_scorers(&doc, &cands) {
                assert_eq!(r.totals.total.as_deref(), Some("595.00"));
                assert_ne!(r.totals.payable.as_deref(), Some("297.50"), "{schedule:?}");
            }
        }
    }

    fn at_value(cands: &Candidates, v: &str, line: usize) -> usize {
        cands
            .items
            .iter()
            .position(|c| c.value == v && c.span.line == line)
            .expect("candidate")
    }

    fn value_at(cands: &Candidates, i: usize) -> Decimal {
        cands.amount_at(i).and_then(dec).expect("amount")
    }

    #[test]
    fn a_triple_above_a_smaller_unsupported_total_replaces_it() {
        // Labels unknown; the scorer's total (whatever it is) has no split of its own, while
        // net + VAT = total holds for a larger amount under the rows.
        let doc = doc_from(&[
            ("1 Usluga doradcza 2.5 szt. -26,49 23% -66,23", 10.0, 100.0),
            ("2 Krzeslo biurowe 1 kg -117,32 23% -117,32", 10.0, 115.0),
            ("3 Licencja roczna 2 szt. -112,82 23% -225,64", 10.0, 130.0),
            ("Befo: -409,19 zl", 300.0, 160.0),
            ("Kega: 23% -94,11 zl", 300.0, 175.0),
            ("Mariga: -503,30 zl", 300.0, 190.0),
        ]);
        let cands = extract(&doc);
        let r = crate::fields::extract(&doc, &cands, &crate::fields::RuleScorer);
        assert_eq!(r.totals.total.as_deref(), Some("-503.30"));
        assert_eq!(r.totals.net.as_deref(), Some("-409.19"));
        assert_eq!(r.totals.vat.as_deref(), Some("-94.11"));
    }

    #[test]
    fn item_rows_that_sum_to_an_amount_below_them_give_the_total_no_label_names() {
        // A till slip in words nobody knows: three rows whose quantity x price = amount, the
        // amount under them that they sum to, then the cash and the change.
        let doc_lines = [
            ("Kafe Nord Oy", 10.0, 50.0),
            ("Latte", 10.0, 100.0),
            ("2 x 3.20", 100.0, 100.0),
            ("6.40", 200.0, 100.0),
            ("Pulla", 10.0, 114.0),
            ("1 x 2.50", 100.0, 114.0),
            ("2.50", 200.0, 114.0),
            ("Mehu", 10.0, 128.0),
            ("3 x 1.10", 100.0, 128.0),
            ("3.30", 200.0, 128.0),
            ("Zobaka", 10.0, 150.0),
            ("12.20", 195.0, 150.0),
            ("Kuvu", 10.0, 164.0),
            ("20.00", 195.0, 164.0),
            ("Tafi", 10.0, 178.0),
            ("7.80", 200.0, 178.0),
        ];
        let doc = doc_from(&doc_lines);
        let cands = extract(&doc);
        let table = cands.item_table.as_ref().expect("rows by their arithmetic");
        assert_eq!(table.rows.len(), 3);
        assert!(table.sums);
        // The cash below the rows' sum is confirmed by the change below it.
        let t = structural_total(&cands, &cands.table_lines(doc.lines.len())).expect("a total");
        assert_eq!(dec(&cands.items[t]), Some(d("12.20")));
        // The cash is what the rows' total was paid by (a receipt reading that took it for the
        // total yields to the rows); the total itself is paid by nothing.
        assert_eq!(rows_total_paid_by(&cands, d("20.00")), Some(d("12.20")));
        assert_eq!(rows_total_paid_by(&cands, d("12.20")), None);
        // Without the change, a larger amount below the rows' sum may be the total of rows
        // that make a net: no structural total.
        let doc_no_change = doc_from(&doc_lines[..doc_lines.len() - 2]);
        let c = extract(&doc_no_change);
        assert!(structural_total(&c, &c.table_lines(doc_no_change.lines.len())).is_none());
        let model = crate::fields::model::ModelScorer::embedded(None).expect("model");
        for scorer in [&crate::fields::RuleScorer as &dyn FieldScorer, &model] {
            let r = crate::fields::extract(&doc, &cands, scorer);
            assert_eq!(r.totals.total.as_deref(), Some("12.20"));
        }
    }

    #[test]
    fn a_vat_of_the_highest_rate_rounded_up_to_the_printed_digit_is_plausible() {
        // 243.648 x 27 % = 65.784,96, printed in whole forints.
        assert!(plausible_vat(d("243648"), d("65785")));
        assert!(plausible_vat(d("-243648"), d("-65785")));
        // Cents: 27 % of 1.818,80 is 491,076, printed 491,08.
        assert!(plausible_vat(d("1818.80"), d("491.08")));
        assert!(!plausible_vat(d("1818.80"), d("491.09")));
        assert!(!plausible_vat(d("10.00"), d("3.70")));
        assert!(!plausible_vat(d("100.00"), d("0.50")));
    }
}
