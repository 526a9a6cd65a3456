//! VAT summary rows found by their arithmetic, labelled or not: on one line a rate `p` %, a
//! base `b` and an amount `a` with `a = b x p / 100` to the cent (one cent of slack for tills
//! that compute the VAT from the gross); a zero rate's row only as a base and a zero amount
//! alone on their line. Computed once per document by the candidates stage;
//! the field stage decides whether they explain the totals. Also the per-rate VAT lines that
//! print no base (`BTW 21%  2,06`): one rate and one amount on a line ([`RateLine`]).

use super::amounts::MoneyPrint;
use super::{Candidate, CandidateKind, is_money};
use crate::types::CleanDocument;
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// Highest VAT rate (%) a summary row may state: no country's rate reaches it.
const MAX_VAT_RATE: Decimal = Decimal::from_parts(30, 0, 0, false, 0);

/// One summary row; each part is `(candidate index, value)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TaxRow {
    /// The rate, in percent.
    pub rate: (usize, Decimal),
    /// The base the rate applies to.
    pub base: (usize, Decimal),
    /// The tax amount.
    pub amount: (usize, Decimal),
}

/// The amount candidates of one line: its percentages and its money amounts ([`is_money`]),
/// each `(candidate index, value)`.
struct LineAmounts {
    line: usize,
    rates: Vec<(usize, Decimal)>,
    money: Vec<(usize, Decimal)>,
}

/// The amount candidates of each line, in line order: `items`, then the OCR-joined readings
/// `joined` (index `items.len() + k`, [`super::Candidates::amount_at`]).
///
/// On a line with a VAT label (`vat_line`) and no percentage, a whole number that a VAT rate can
/// be, printed after the line's first money amount, counts as a rate: summary tables print the
/// rate under a `Steuersatz [%]` column without its sign (`Umsatzsteuer (S)  113,03  7  7,91`).
/// Elsewhere a bare number is no rate: an item row of quantity 10 makes `price = amount x 10 %`
/// by itself. On the lines `misread` admits, a rate whose percent sign OCR misread counts too
/// (see the body): the summary rows, whose arithmetic must hold, and the rate lines of a VAT
/// label (`У тому числі ПДВ 2096  222386,67`), not a total OCR split (`Sumevi: 2395 24,49`).
fn by_line(
    items: &[Candidate],
    joined: &[Candidate],
    money_print: MoneyPrint,
    vat_line: &dyn Fn(usize) -> bool,
    misread: &dyn Fn(usize) -> bool,
) -> Vec<LineAmounts> {
    let value = |c: &Candidate| c.value.parse::<Decimal>().ok();
    let mut lines: BTreeMap<usize, Vec<(usize, &Candidate)>> = BTreeMap::new();
    let all = items.iter().chain(joined).enumerate();
    for (i, c) in all {
        if c.kind == CandidateKind::Amount {
            lines.entry(c.span.line).or_default().push((i, c));
        }
    }
    let money = |c: &Candidate| is_money(c, money_print) || c.scheme.as_deref() == Some(JOINED);
    lines
        .into_iter()
        .map(|(line, on_line)| {
            let pick = |keep: &dyn Fn(&Candidate) -> bool| -> Vec<(usize, Decimal)> {
                on_line
                    .iter()
                    .filter(|(_, c)| keep(c))
                    .filter_map(|(i, c)| value(c).map(|d| (*i, d)))
                    .collect()
            };
            let mut rates = pick(&|c| c.scheme.as_deref() == Some("percent"));
            // After the line's first money amount (the base), where the line prints no rate
            // with its sign: an item row's position (`2  Joghurt  5,50  50 Stk  7 % VAT (S)
            // 275,00`, 2 % of 275,00 = 5,50) is none.
            let first_money = on_line
                .iter()
                .filter(|(_, c)| money(c))
                .map(|(_, c)| c.span.start)
                .min();
            if rates.is_empty()
                && vat_line(line)
                && let Some(first_money) = first_money
            {
                rates = pick(&|c| c.scheme.as_deref() == Some("int") && c.span.start > first_money)
                    .into_iter()
                    .filter(|r| is_vat_rate(r.1))
                    .collect();
            }
            // OCR reads a percent sign as `96` or `95` (`2096  29026,44  5805,29  34831,73` for
            // 20 %, `795  1690,10  118,31` for 7 %): on the lines `misread` admits, a whole
            // number before the line's money, which is a VAT rate and those digits, is that
            // rate where the line prints none with its sign; the row's arithmetic to the cent
            // confirms it.
            if misread(line)
                && rates.is_empty()
                && let Some(first_money) = first_money
            {
                rates = on_line
                    .iter()
                    .filter(|(_, c)| {
                        c.scheme.as_deref() == Some("int") && c.span.start < first_money
                    })
                    .filter_map(|(i, c)| {
                        let rate = super::tables::misread_percent(&c.span.text)?;
                        is_vat_rate(rate).then_some((*i, rate))
                    })
                    .collect();
            }
            LineAmounts {
                line,
                rates,
                money: pick(&money),
            }
        })
        .collect()
}

/// The scheme of an OCR-joined reading ([`super::amounts::joined_readings`]).
pub const JOINED: &str = "ocr_joined";

/// A rate a VAT can have: above zero, at most [`MAX_VAT_RATE`].
pub(crate) fn is_vat_rate(p: Decimal) -> bool {
    p.is_sign_positive() && !p.is_zero() && p <= MAX_VAT_RATE
}

/// The document's summary rows (see the module), each printed row once (a summary printed
/// twice counts once, at its last print). A line with several rates gives the first that explains two of its
/// amounts.
///
/// A row may take an OCR-joined reading from `joined` (`877, 54` as 877.54): the rate's
/// arithmetic to the cent confirms it; a reading and one of its own parts never pair.
///
/// `vat_line(line)` says whether a line has a VAT label (see [`by_line`]).
pub fn find(
    items: &[Candidate],
    joined: &[Candidate],
    money_print: MoneyPrint,
    vat_line: impl Fn(usize) -> bool,
) -> Vec<TaxRow> {
    // The smallest printed unit: a cent, or one whole unit.
    let (dp, cent) = if money_print == MoneyPrint::WholeUnits {
        (0, Decimal::ONE)
    } else {
        (2, Decimal::new(1, 2))
    };
    let mut out: Vec<TaxRow> = Vec::new();
    // Where an amount is printed on its line (byte range), `items` then `joined`.
    let at = |i: usize| {
        let c = items.get(i).unwrap_or_else(|| &joined[i - items.len()]);
        (c.span.start, c.span.end)
    };
    // The line of the last row found, and the rows found before it.
    let mut last_row: Option<usize> = None;
    for LineAmounts { line, rates, money } in
        by_line(items, joined, money_print, &vat_line, &|_| true)
    {
        if rates.is_empty()
            && last_row.is_some_and(|l| l + 1 == line)
            && let Some(row) = rate_lost_row(&money, &out, dp)
        {
            out.push(row);
            last_row = Some(line);
            continue;
        }
        // A zero rate's row (`B 0%  50,39  0,00`) only as a line of exactly a base and a zero
        // amount, or those and the gross that repeats the base (`0%  67.87  0.00  67.87`): any
        // base times zero is zero.
        let others: Vec<Decimal> = money.iter().map(|m| m.1).filter(|v| !v.is_zero()).collect();
        let zero_row = money.len() == others.len() + 1
            && match others[..] {
                [_] => true,
                [base, gross] => base == gross,
                _ => false,
            };
        let rates = rates
            .into_iter()
            .filter(|r| is_vat_rate(r.1) || r.1.is_zero() && zero_row);
        'rates: for rate in rates {
            for &base in &money {
                for &amount in &money {
                    let b = base.1;
                    // A credit note's VAT whose minus OCR lost (`19%  -318.475,17  60.510,28
                    // -378.985,45`): the base's sign, where the gross printed beside them is
                    // the base and the amount so signed.
                    let sign_lost = !amount.1.is_zero()
                        && amount.1.is_sign_negative() != b.is_sign_negative()
                        && money
                            .iter()
                            .any(|g| g.0 != base.0 && g.0 != amount.0 && g.1 == b - amount.1);
                    let a = if sign_lost { -amount.1 } else { amount.1 };
                    let (s, e) = at(amount.0);
                    let overlap = super::overlaps(&[at(base.0)], s, e);
                    if base.0 == amount.0
                        || overlap
                        || a.is_zero() != rate.1.is_zero()
                        || b.is_zero()
                        || (!a.is_zero() && a.is_sign_negative() != b.is_sign_negative())
                        || a.abs() >= b.abs()
                    {
                        continue;
                    }
                    let amount = (amount.0, a);
                    let expected = (b * rate.1 / Decimal::ONE_HUNDRED).round_dp(dp);
                    // The slack of one unit is a till's rounding: it leaves the rate's
                    // arithmetic a constraint only on an amount of ten units or more (in whole
                    // units, a position `2` and a quantity `3` are 18 % within one unit).
                    let slack = (expected - a).abs() <= cent && a.abs() >= cent * Decimal::TEN;
                    if expected == a || slack {
                        let same = |r: &TaxRow| {
                            (r.rate.1, r.base.1, r.amount.1) == (rate.1, base.1, amount.1)
                        };
                        // The later print of a row is the summary's: an item row may
                        // print the same three numbers before it (5 x 13140,02 = 65700,10
                        // at 20 %, whose VAT is 13140,02 too).
                        out.retain(|r| !same(r));
                        out.push(TaxRow { rate, base, amount });
                        last_row = Some(line);
                        break 'rates;
                    }
                }
            }
        }
    }
    out
}

/// The rate index of a [`TaxRow`] whose rate is not printed: OCR lost it, and the base and the
/// amount make it ([`rate_lost_row`]).
pub const RATE_NOT_PRINTED: usize = usize::MAX;

/// A summary row whose rate OCR lost (`1275,20  63,76  1338,96` under `21%  952,98  200,13
/// 1153,11` and `9%  438,96  39,51  478,47`), on the line right under the rows `above`: exactly
/// three money amounts, base, amount and gross in print order, with base + amount = gross to
/// the cent and the amount a whole or half percent of the base to its last printed digit
/// (`dp` decimals); not the summary's own sum row (the bases and amounts above summed).
fn rate_lost_row(money: &[(usize, Decimal)], above: &[TaxRow], dp: u32) -> Option<TaxRow> {
    let [base, amount, gross] = money else {
        return None;
    };
    let (b, a) = (base.1, amount.1);
    if b.is_zero()
        || a.is_zero()
        || a.is_sign_negative() != b.is_sign_negative()
        || a.abs() >= b.abs()
        || b + a != gross.1
    {
        return None;
    }
    let summed = |f: fn(&TaxRow) -> Decimal| above.iter().map(f).sum::<Decimal>();
    if summed(|r| r.base.1) == b || summed(|r| r.amount.1) == a {
        return None;
    }
    let two = Decimal::TWO;
    let rate = (a / b * Decimal::ONE_HUNDRED * two).round() / two;
    (is_vat_rate(rate) && (b * rate / Decimal::ONE_HUNDRED).round_dp(dp) == a).then_some(TaxRow {
        rate: (RATE_NOT_PRINTED, rate.normalize()),
        base: *base,
        amount: *amount,
    })
}

/// A line with one rate `p` % (at most [`MAX_VAT_RATE`]) and one money amount after it (`USt.
/// 20%  945,72`, `BTW 6%  0,80`): a VAT amount of one rate when the printed arithmetic or the
/// VAT label says so. (Item rows print a unit price and an amount: two money amounts.)
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLine {
    /// The rate, in percent.
    pub rate: (usize, Decimal),
    /// The amount.
    pub amount: (usize, Decimal),
    /// Whether the line carries a VAT label.
    pub labelled: bool,
}

/// The document's rate lines (see [`RateLine`]); `vat_line(line)` says whether a line has a VAT
/// label, `summary_line(line)` whether it is a line of the totals outside the item rows (a
/// label of the net, total or another sum of the document on it).
pub fn rate_lines(
    items: &[Candidate],
    money_print: MoneyPrint,
    vat_line: impl Fn(usize) -> bool,
    summary_line: impl Fn(usize) -> bool,
) -> Vec<RateLine> {
    let mut out = Vec::new();
    let lines = by_line(items, &[], money_print, &|_| false, &vat_line);
    for (k, l) in lines.iter().enumerate() {
        let next = lines.get(k + 1).filter(|n| n.line == l.line + 1);
        let wrapped = wrapped_amount(items, l, next);
        if let ([rate], [amount]) = (l.rates.as_slice(), l.money.as_slice())
            && is_vat_rate(rate.1)
            && !amount.1.is_zero()
            && items[amount.0].span.start > items[rate.0].span.start
        {
            out.push(RateLine {
                rate: *rate,
                amount: *amount,
                labelled: vat_line(l.line),
            });
        } else if let ([rate], [a, b]) = (l.rates.as_slice(), l.money.as_slice())
            // One amount OCR broke with a single space (`Adó 5%  92.37 3`): the line's amount is
            // its last piece here, read whole among the joined readings where the arithmetic
            // needs it.
            && is_vat_rate(rate.1)
            && items[b.0].span.start == items[a.0].span.end + 1
            && items[a.0].span.start > items[rate.0].span.start
        {
            out.push(RateLine {
                rate: *rate,
                amount: *b,
                labelled: vat_line(l.line),
            });
        } else if l.rates.len() >= 2 {
            out.extend(
                rate_pairs_on_line(items, l, wrapped)
                    .into_iter()
                    .map(|(rate, amount)| RateLine {
                        rate,
                        amount,
                        labelled: vat_line(l.line),
                    }),
            );
        } else if let ([rate], Some(amount)) = (l.rates.as_slice(), wrapped)
            // An item row prints a unit price and an amount before its rate; a totals block set
            // as running text prints other totals before it, on a line with a VAT label
            // (`Cena bez DPH 317469,30 Kč ... Mezisoučet: 309990,18 Kč Celkem DPH 21%`).
            && (l.money.len() <= 1 || vat_line(l.line))
            && is_vat_rate(rate.1)
            && !amount.1.is_zero()
        {
            out.push(RateLine {
                rate: *rate,
                amount,
                labelled: vat_line(l.line),
            });
        } else if let [rate] = l.rates.as_slice()
            // A totals block set as running text: the one rate of a line with a VAT label and
            // the money amount printed right after it (`63929,95 Kč Celkem DPH 12% 667,42 Kč
            // Celková částka: 374587,55 Kč`), where that amount is no base the rate's VAT of
            // which the line prints (`DPH 12% z 5561,87 Kč: 667,42 Kč`). The VAT's own word
            // may be one no vocabulary knows, on a line of the other totals (`Totale netto:
            // EUR 1.266,96 Imposta 22% EUR 240,80`): unlabelled, for the arithmetic to confirm.
            && is_vat_rate(rate.1)
            && (vat_line(l.line) || summary_line(l.line))
            && let Some(amount) = money_after(&amounts_on(items, l.line), l, rate.0)
            && !amount.1.is_zero()
            && !l.money.iter().any(|m| {
                (m.1 - amount.1 * rate.1 / Decimal::ONE_HUNDRED).abs() <= Decimal::new(1, 2)
            })
        {
            out.push(RateLine {
                rate: *rate,
                amount,
                labelled: vat_line(l.line),
            });
        }
    }
    out
}

/// The money amount of line `l` printed right after the amount candidate `after` (no other
/// amount between; `all`: the line's amount candidates in print order, [`amounts_on`]), if any.
fn money_after(all: &[usize], l: &LineAmounts, after: usize) -> Option<(usize, Decimal)> {
    let next = all.get(all.iter().position(|&i| i == after)? + 1)?;
    l.money.iter().find(|m| m.0 == *next).copied()
}

/// Every amount candidate of `line` (quantities included), in print order.
fn amounts_on(items: &[Candidate], line: usize) -> Vec<usize> {
    let mut all: Vec<usize> = items
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind == CandidateKind::Amount && c.span.line == line)
        .map(|(i, _)| i)
        .collect();
    all.sort_by_key(|&i| (items[i].span.start, i));
    all
}

/// The money amount that a line ending in a rate wraps onto the next line (a totals block set
/// as running text: `... VAT: 4%` / `24,89 EUR Total: ...`): the line's last amount candidate
/// is a VAT rate, and the next line (`next`, right below it) begins with a money amount with
/// decimals, left of the rate, at most a currency before it.
fn wrapped_amount(
    items: &[Candidate],
    l: &LineAmounts,
    next: Option<&LineAmounts>,
) -> Option<(usize, Decimal)> {
    let next = next.filter(|_| !l.rates.is_empty())?;
    let last = *amounts_on(items, l.line).last()?;
    let rate = l.rates.iter().find(|r| r.0 == last && is_vat_rate(r.1))?;
    let first = *amounts_on(items, next.line).first()?;
    let money = next.money.iter().find(|m| m.0 == first)?;
    let (r, a) = (&items[rate.0].span, &items[first].span);
    let height = (r.bbox.y1 - r.bbox.y0).max(1.0);
    (items[first].decimals > 0
        && a.page == r.page
        && a.start <= 4
        && a.bbox.x0 < r.bbox.x0
        && a.bbox.y0 - r.bbox.y1 < 1.5 * height)
        .then_some(*money)
}

/// A totals block set on one line (`Net 50.269,22  VAT 19% 6.486,55  VAT 7% 1.129,07  Total
/// 57.884,84`): every rate with the money amount printed right after it (the line's last rate:
/// or the amount it wraps onto the next line, `wrapped`), when two or more rates of distinct
/// values each have one (an item row prints one rate; a discount's percentage is followed by a
/// quantity).
fn rate_pairs_on_line(
    items: &[Candidate],
    l: &LineAmounts,
    wrapped: Option<(usize, Decimal)>,
) -> Vec<((usize, Decimal), (usize, Decimal))> {
    let all = amounts_on(items, l.line);
    let mut pairs = Vec::new();
    for rate in l.rates.iter().filter(|r| is_vat_rate(r.1)) {
        let money = match all.last() {
            // The line's last rate: its amount may begin the next line.
            Some(&last) if last == rate.0 => wrapped,
            _ => money_after(&all, l, rate.0),
        };
        if let Some(money) = money
            && !money.1.is_zero()
        {
            pairs.push((*rate, money));
        }
    }
    let distinct = pairs
        .iter()
        .enumerate()
        .all(|(k, a)| pairs[..k].iter().all(|b| b.0.1 != a.0.1));
    if pairs.len() >= 2 && distinct {
        pairs
    } else {
        Vec::new()
    }
}

/// A sum of two or more rate lines of distinct rates: a VAT that several rates' lines make.
#[derive(Debug, Clone, PartialEq)]
pub struct RateSum {
    /// The sum of their amounts.
    pub vat: Decimal,
    /// The lines that make it (indices into the rate lines), in document order.
    pub lines: Vec<usize>,
    /// The reading of each line's amount that the sum takes (candidate index into `items`, or
    /// past its end into the joined readings, and value), in the order of `lines`.
    pub amounts: Vec<(usize, Decimal)>,
    /// How many of those readings join an amount that OCR broke with a space (`42 5,99` as
    /// 425,99), not the amount as printed.
    pub joined: usize,
}

/// Rate lines considered for [`rate_sums`] (their subsets are enumerated).
const MAX_RATE_LINES: usize = 12;

/// Readings of one subset's amounts enumerated for [`rate_sums`] at most (each line as printed
/// or joined).
const MAX_READINGS: usize = 16;

/// Every distinct sum of two or more of the first [`MAX_RATE_LINES`] rate lines with distinct
/// rates, each once (with the first subset of lines that makes it, fewest joined readings
/// first). A line's amount is read as printed, or as the OCR-joined reading (`joined`, index
/// `items.len() + k` as in [`find`]) that takes in its beginning on its line when OCR broke it
/// with a space (`Pokida: 5,5%  42 5,99 EUR`).
pub fn rate_sums(lines: &[RateLine], items: &[Candidate], joined: &[Candidate]) -> Vec<RateSum> {
    let lines = &lines[..lines.len().min(MAX_RATE_LINES)];
    // Each line's readings: as printed, then any joined reading that takes in its beginning.
    let readings: Vec<Vec<((usize, Decimal), usize)>> = lines
        .iter()
        .map(|l| {
            let printed = &items[l.amount.0].span;
            let mut r = vec![(l.amount, 0)];
            r.extend(
                joined
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| {
                        c.span.line == printed.line
                            && c.span.start <= printed.start
                            && c.span.end > printed.start
                    })
                    .filter_map(|(k, c)| {
                        let d: Decimal = c.value.parse().ok()?;
                        Some(((items.len() + k, d), 1))
                    })
                    .filter(|((_, d), _)| *d != l.amount.1),
            );
            r
        })
        .collect();
    let mut out: Vec<RateSum> = Vec::new();
    for mask in 1u32..(1 << lines.len()) {
        let which: Vec<usize> = (0..lines.len()).filter(|i| mask & (1 << i) != 0).collect();
        let distinct = which.iter().enumerate().all(|(k, &a)| {
            which[..k]
                .iter()
                .all(|&b| lines[b].rate.1 != lines[a].rate.1)
        });
        if which.len() < 2 || !distinct {
            continue;
        }
        let mut sums: Vec<RateSum> = vec![RateSum {
            vat: Decimal::ZERO,
            lines: which.clone(),
            amounts: Vec::new(),
            joined: 0,
        }];
        for &k in &which {
            sums = sums
                .iter()
                .flat_map(|s| {
                    readings[k].iter().map(move |&(a, j)| {
                        let mut next = s.clone();
                        next.vat += a.1;
                        next.amounts.push(a);
                        next.joined += j;
                        next
                    })
                })
                .take(MAX_READINGS)
                .collect();
        }
        for s in sums {
            match out.iter_mut().find(|o| o.vat == s.vat) {
                Some(o) if o.joined > s.joined => *o = s,
                Some(_) => {}
                None => out.push(s),
            }
        }
    }
    out
}

/// A tax code as tills print it after an item's amount and before its rate in the VAT summary:
/// one or two capital letters (`A`, `B`, `SR`, `ZR`), bracketed or followed by `:` / `=` / `*`
/// at most. Returns the code.
pub fn tax_code(token: &str) -> Option<&str> {
    let t = token
        .trim_start_matches(['(', '['])
        .trim_end_matches([')', ']', ':', '=', '*']);
    ((1..=2).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_uppercase())).then_some(t)
}

/// The rate each tax code stands for, from the lines of the VAT summary that print a code with
/// exactly one rate (`A MwSt. 19% von 17,79  2,84`, `B  7%  25,68  1,68`, `SR = 6%  9.20  0.55`):
/// the code is the line's first token or the token right before the rate (an `=` or `:` between
/// them skipped). A code given two rates is dropped. Rates from 0 to [`MAX_VAT_RATE`].
pub fn code_rates(
    doc: &CleanDocument,
    items: &[Candidate],
    money_print: MoneyPrint,
) -> Vec<(String, Decimal)> {
    let mut out: Vec<(String, Decimal)> = Vec::new();
    let mut conflicting: Vec<String> = Vec::new();
    for l in by_line(items, &[], money_print, &|_| false, &|_| false) {
        let [(rate, value)] = l.rates.as_slice() else {
            continue;
        };
        if value.is_sign_negative() || *value > MAX_VAT_RATE {
            continue;
        }
        let value = value.normalize();
        let before: Vec<&str> = doc.lines[l.line]
            .text
            .get(..items[*rate].span.start)
            .unwrap_or("")
            .split_whitespace()
            .filter(|t| !matches!(*t, "=" | ":"))
            .collect();
        let code = before
            .first()
            .and_then(|t| tax_code(t))
            .or_else(|| before.last().and_then(|t| tax_code(t)));
        let Some(code) = code else { continue };
        match out.iter().position(|(c, _)| c == code) {
            Some(k) if out[k].1 != value => conflicting.push(code.to_string()),
            Some(_) => {}
            None => out.push((code.to_string(), value)),
        }
    }
    out.retain(|(c, _)| !conflicting.contains(c));
    out
}
