//! Line-item rows from arithmetic: `quantity x unit price = amount`.
//!
//! Geometry alone ([`super::tables`]) needs a header row the vocabulary knows, and columns
//! where its words stand. Here rows are read as an accountant checks them, whatever the layout:
//!
//! 1. Every number of a line is read with its box (`9,9000`, `4,55 €`, `10%`, `(12.00)`); ids
//!    (seven digits or more) and dates are not numbers. A line holding only numbers, printed
//!    just below a line and right of all its words, is part of that line (an amount set a little
//!    lower than its row).
//! 2. A line is an arithmetic row when three of its numbers make `q x p = a` to the amount's
//!    last printed digit, or `q x p x (1 - d/100) = a` with a percentage `d` of the same line
//!    (a discount). The amount stands right of the other two.
//! 3. The document's columns are the shape (the x of q, p and a) that most rows share: each row
//!    keeps its reading of that shape, which tells quantity from price when both readings hold.
//! 4. Lines between the rows (or under them, up to the totals) whose amount stands in the
//!    amount column and which hold words are rows without arithmetic (a flat fee). The rows must
//!    sum to an amount printed below them: where they do only without those lines, those lines
//!    are left out.
//! 5. Text: a leading integer is the position, a short word right after the quantity its unit,
//!    a percentage (or the document's VAT rate printed without `%`) its VAT rate; words left of
//!    the numbers are the description, code-like words before it (`TB100A4`, `ZS997`) the
//!    article number. Lines set tight under a row continue its description until a line of
//!    another kind: a `Key: value` attribute, a totals line, a column header, a paragraph gap.
//!    A row printed without words takes the tight line just above or below it.

use super::labels::{LabelHit, LabelKey};
use super::tables::{Cell, Column, Row, RowSource, TableLayout, is_keyed};
use super::{DocStyle, amounts};
use crate::preprocess::collapse_spaces;
use crate::types::{CleanDocument, Line, Span, Token, median_size};
use rust_decimal::Decimal;
use std::collections::HashMap;

/// A number printed on a line.
#[derive(Debug, Clone, PartialEq)]
struct Num {
    /// Line index.
    line: usize,
    /// Byte range in the line's text.
    start: usize,
    end: usize,
    /// Horizontal extent.
    x0: f32,
    x1: f32,
    value: Decimal,
    decimals: u32,
    /// Printed with `%`.
    percent: bool,
}

/// Currency signs printed around a number (`4,55 €`, `$12.00`).
fn is_currency_sign(c: char) -> bool {
    matches!(
        c,
        '€' | '$' | '£' | '¥' | '₽' | '₴' | '₸' | '₹' | '₺' | '₪' | '₩' | '₫' | '¢'
    )
}

/// The value of one printed token: `(value, decimals, percent)`.
pub(super) fn token_number(text: &str, decimal: Option<char>) -> Option<(Decimal, u32, bool)> {
    let mut s = text
        .trim_end_matches([':', ';'])
        .trim_matches(is_currency_sign);
    // `(-10%)`, `{-10%)` as OCR reads a bracket: a percentage in brackets is a percentage.
    if let Some(inner) = s
        .strip_prefix(['(', '{', '['])
        .and_then(|x| x.strip_suffix([')', '}', ']']))
        && inner.ends_with('%')
    {
        s = inner;
    }
    let mut negative = false;
    if let Some(inner) = s.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        negative = true;
        s = inner.trim_matches(is_currency_sign);
    }
    let percent = s.ends_with('%');
    s = s.trim_end_matches('%');
    // `1x` of a receipt's `1x 2.34`: the quantity with its multiplication sign.
    if let Some(q) = s.strip_suffix(['x', 'X', '×'])
        && q.chars().all(|c| c.is_ascii_digit())
        && !percent
    {
        s = q;
    }
    // `10м`, `1кг`, `5pcs`: a quantity OCR glued to its unit.
    if let Some((q, _)) = glued_unit(s)
        && !percent
    {
        s = q;
    }
    if let Some(rest) = s.strip_prefix(['-', '−']) {
        negative = !negative;
        s = rest;
    } else if let Some(rest) = s.strip_suffix('-') {
        negative = !negative;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('+') {
        s = rest;
    }
    let s = s.trim_matches(is_currency_sign);
    if s.is_empty()
        || !s.starts_with(|c: char| c.is_ascii_digit())
        || !s
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '\'' | '’'))
    {
        return None;
    }
    let (value, decimals) = amounts::parse_number(s, decimal)?;
    let int_digits = s.chars().filter(char::is_ascii_digit).count() - decimals as usize;
    if id_shaped(int_digits, decimals) {
        return None;
    }
    Some((if negative { -value } else { value }, decimals, percent))
}

/// Ids, GTINs, postcodes of long form and phone numbers, not quantities or prices: seven
/// integer digits or more without decimals, or more than ten.
fn id_shaped(int_digits: usize, decimals: u32) -> bool {
    int_digits >= 7 && decimals == 0 || int_digits > 10
}

/// A number glued to a unit word (`10м`, `2,5kg`): the number and the unit. One letter after
/// decimals (`778.9l`) is a misread digit, not a litre.
pub(super) fn glued_unit(s: &str) -> Option<(&str, &str)> {
    glued_split(s, |_| false)
}

/// [`glued_unit`] in a cell the column names a quantity: there one letter after decimals
/// (`0,5m`, `2,5h`) is the unit, unless it is a digit's look-alike (`778.9l`, `12,5O`).
pub(super) fn glued_quantity_unit(s: &str) -> Option<(&str, &str)> {
    glued_split(s, |letter| {
        !matches!(
            letter,
            'l' | 'I' | 'i' | 'O' | 'o' | 'S' | 's' | 'B' | 'Z' | 'z' | 'g'
        )
    })
}

/// A number (digits, `.` and `,`, a digit first) glued to a unit word; one letter after a
/// number with decimals is a unit only where `one_letter` takes it.
fn glued_split(s: &str, one_letter: impl Fn(char) -> bool) -> Option<(&str, &str)> {
    let at = s.find(char::is_alphabetic)?;
    let (q, unit) = s.split_at(at);
    let whole = q.chars().all(|c| c.is_ascii_digit());
    let mut letters = unit.chars();
    let short_unit = match (letters.next(), letters.next()) {
        (Some(letter), None) => one_letter(letter),
        _ => true,
    };
    (!q.is_empty()
        && q.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
        && q.starts_with(|c: char| c.is_ascii_digit())
        && (whole || short_unit)
        && is_unit_word(unit))
    .then_some((q, unit))
}

/// The numbers of a line, left to right: the printed tokens ([`token_numbers`]), then the
/// readings of the amount finder where OCR misread or split a number (`3.74I,76`,
/// `166.354 ,88`), dates left out.
fn line_numbers(line: &Line, style: &DocStyle) -> Vec<Num> {
    let dates: Vec<(usize, usize)> = super::dates::find_dates(&line.text, style.month_first)
        .iter()
        .map(|d| (d.start, d.end))
        .collect();
    // A date's day and year are no quantity or price (`1 februari 2022` of a payment
    // schedule's line).
    let mut out = token_numbers(line, style.decimal);
    out.retain(|n| !dates.iter().any(|&(a, b)| a <= n.start && n.end <= b));
    for a in amounts::find_amounts(&line.text, style.decimal, &dates) {
        // A reading that joins printed tokens (`1.129 ,61`) replaces them; one that cuts a
        // token is left out.
        let overlaps = |n: &Num| n.start < a.end && a.start < n.end;
        let inside = |n: &Num| a.start <= n.start && n.end <= a.end;
        let joins = out.iter().filter(|n| overlaps(n)).all(inside)
            && out
                .iter()
                .any(|n| inside(n) && n.end - n.start < a.end - a.start);
        if out.iter().any(overlaps) && !joins {
            continue;
        }
        out.retain(|n| !overlaps(n));
        let Some((bbox, _)) = line.range_bbox(a.start, a.end) else {
            continue;
        };
        out.push(Num {
            line: line.index,
            start: a.start,
            end: a.end,
            x0: bbox.x0,
            x1: bbox.x1,
            value: a.value,
            decimals: a.decimals,
            percent: a.percent,
        });
    }
    out.sort_by_key(|n| n.start);
    out
}

/// A line's last number where it may be a row's discount printed beside the row: a percentage
/// under 100, after no money amount and no other percentage.
fn trailing_discount(nums: &[Num], money: amounts::MoneyPrint) -> Option<&Num> {
    let (d, before) = nums.split_last()?;
    (d.percent
        && !d.value.is_zero()
        && d.value.abs() < Decimal::ONE_HUNDRED
        && before.iter().all(|n| !n.percent && !is_money_num(n, money)))
    .then_some(d)
}

/// A line's discount for the row above it ([`trailing_discount`]), or a percentage and then the
/// money it takes off, last on the line (`Rabatt 5%: -29,51`): the percentage and that amount.
fn discount_below(nums: &[Num], money: amounts::MoneyPrint) -> Option<(&Num, Option<&Num>)> {
    if let Some(d) = trailing_discount(nums, money) {
        return Some((d, None));
    }
    let (off, before) = nums.split_last()?;
    (is_money_num(off, money) && !off.percent && !off.value.is_zero())
        .then(|| trailing_discount(before, money))
        .flatten()
        .map(|d| (d, Some(off)))
}

/// The unit's numbers with the discount `d` added and the readings that balance only with it
/// applied; `None` where none does.
fn balanced_with(
    unit_nums: &[Num],
    d: &Num,
    money: amounts::MoneyPrint,
    own: usize,
) -> Option<(Vec<Num>, Vec<Triple>)> {
    let mut with = unit_nums.to_vec();
    with.push(d.clone());
    let found: Vec<Triple> = triples(&with, money, own, &[])
        .into_iter()
        .filter(|t| t.discount == Some(with.len() - 1))
        .collect();
    (!found.is_empty()).then_some((with, found))
}

/// Whether a line's words are at most a discount's name (`(-15%)`, `Rabatt -15 %`), not a
/// description's words (`ergonomique (-10%)`).
fn only_discount_words(line: &Line) -> bool {
    let words: Vec<&Token> = line
        .tokens
        .iter()
        .filter(|t| t.text.chars().any(char::is_alphabetic))
        .collect();
    match words[..] {
        [] => true,
        [w] => super::labels::find_labels(&w.text)
            .iter()
            .any(|h| matches!(h.key, LabelKey::ColDiscount | LabelKey::Discount)),
        _ => false,
    }
}

/// The readings of a line's numbers `nums` with one pair of neighbours on the line, printed
/// one space apart, read as one number (`5944 1,15` as 59441,15; `6425 8` as 64258): one
/// reading per pair that parses whole. Percentages are never joined.
fn split_number_readings(line: &Line, nums: &[Num], style: &DocStyle) -> Vec<Vec<Num>> {
    let mut out = Vec::new();
    for k in 0..nums.len().saturating_sub(1) {
        let Some(joined) = joined_pair(line, &nums[k], &nums[k + 1], style.decimal) else {
            continue;
        };
        let mut v = nums.to_vec();
        v[k] = joined;
        v.remove(k + 1);
        out.push(v);
    }
    out
}

/// Two numbers of `line` one space apart read as one (`5944 1,15` as 59441,15), where the
/// joined text parses whole; percentages are never joined.
fn joined_pair(line: &Line, a: &Num, b: &Num, decimal: Option<char>) -> Option<Num> {
    if a.line != line.index
        || b.line != line.index
        || a.percent
        || b.percent
        || line.text.get(a.end..b.start) != Some(" ")
    {
        return None;
    }
    let joined = format!(
        "{}{}",
        &line.text[a.start..a.end],
        &line.text[b.start..b.end]
    );
    let Some((value, decimals, false)) =
        token_number(&joined, decimal).or_else(|| plain_number(&joined, decimal))
    else {
        return None;
    };
    Some(Num {
        end: b.end,
        x1: b.x1,
        value,
        decimals,
        ..a.clone()
    })
}

/// Digits with at most the document's decimal separator (`.` or `,`) among them (`1966800`,
/// `59441,15`), of any length: a reading the row's arithmetic is to confirm.
fn plain_number(text: &str, decimal: Option<char>) -> Option<(Decimal, u32, bool)> {
    let (int, frac) = decimal
        .filter(|d| *d == '.' || *d == ',')
        .and_then(|d| text.split_once(d))
        .unwrap_or((text, ""));
    let digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || frac.len() > 4 {
        return None;
    }
    let value: Decimal = format!("{int}.{}", if frac.is_empty() { "0" } else { frac })
        .parse()
        .ok()?;
    Some((value.round_dp(frac.len() as u32), frac.len() as u32, false))
}

/// The numbers printed as tokens. Two tokens joined by one space (`1 980,00`) are one number
/// where the second is a group of three digits.
fn token_numbers(line: &Line, decimal: Option<char>) -> Vec<Num> {
    let mut out: Vec<Num> = Vec::new();
    let n = line.tokens.len();
    let mut i = 0;
    while i < n {
        if is_rotated(&line.tokens[i]) {
            i += 1;
            continue;
        }
        let (s, mut e) = line.token_spans[i];
        let mut text = line.tokens[i].text.clone();
        let mut bbox = line.tokens[i].bbox;
        let mut j = i + 1;
        // Space-grouped thousands.
        while j < n
            && text.len() <= 3
            && text.chars().all(|c| c.is_ascii_digit())
            && line.text.get(e..line.token_spans[j].0) == Some(" ")
            && line.tokens[j]
                .text
                .trim_end_matches(is_currency_sign)
                .split(['.', ','])
                .next()
                .is_some_and(|g| g.len() == 3 && g.chars().all(|c| c.is_ascii_digit()))
            && decimal.is_some_and(|d| d != ' ')
        {
            text.push_str(&line.tokens[j].text);
            bbox = bbox.union(&line.tokens[j].bbox);
            e = line.token_spans[j].1;
            j += 1;
        }
        // A decimal OCR split at its separator (`866, 56`, `376 ,07`, `-2812. 10`): the
        // document's decimal separator on either side of one space, two decimals after it; or
        // between its two decimals (`57,5 1`), where no word follows the last digit (`57,5 1
        // Stk` is a quantity and its count).
        if let (Some(d), Some(next)) = (decimal, line.tokens.get(j))
            && j == i + 1
            && line.text.get(e..line.token_spans[j].0) == Some(" ")
        {
            let two = |t: &str| t.len() == 2 && t.chars().all(|c| c.is_ascii_digit());
            let digits = |t: &str| {
                t.trim_start_matches('-')
                    .starts_with(|c: char| c.is_ascii_digit())
            };
            let one_decimal = |t: &str| {
                t.rsplit_once(d).is_some_and(|(int, f)| {
                    digits(int)
                        && int
                            .trim_start_matches('-')
                            .chars()
                            .all(|c| c.is_ascii_digit() || c == '.' || c == ',' || c == ' ')
                        && f.len() == 1
                        && f.chars().all(|c| c.is_ascii_digit())
                })
            };
            let last_digit = next.text.len() == 1
                && next.text.chars().all(|c| c.is_ascii_digit())
                && line
                    .tokens
                    .get(j + 1)
                    .is_none_or(|t| !t.text.chars().any(char::is_alphabetic));
            let joined = if text.ends_with(d) && digits(&text) && two(&next.text)
                || one_decimal(&text) && last_digit
            {
                Some(format!("{text}{}", next.text))
            } else {
                next.text
                    .strip_prefix(d)
                    .filter(|f| {
                        two(f)
                            && text
                                .chars()
                                .all(|c| c.is_ascii_digit() || c == '.' || c == ',' || c == ' ')
                    })
                    .map(|f| format!("{text}{d}{f}"))
            };
            if let Some(joined) = joined {
                text = joined;
                bbox = bbox.union(&next.bbox);
                e = line.token_spans[j].1;
                j += 1;
            }
        }
        let mut percent_token = false;
        if let Some(next) = line.tokens.get(j)
            && next.text == "%"
        {
            percent_token = true;
        }
        match token_number(&text, decimal) {
            Some((value, decimals, percent)) => {
                let (end, x1) = if percent_token {
                    (line.token_spans[j].1, line.tokens[j].bbox.x1)
                } else {
                    (e, bbox.x1)
                };
                out.push(Num {
                    line: line.index,
                    start: s,
                    end,
                    x0: bbox.x0,
                    x1,
                    value,
                    decimals,
                    percent: percent || percent_token,
                });
                i = if percent_token { j + 1 } else { j };
            }
            None => i += 1,
        }
    }
    out
}

/// One reading `q x p (x (1 - d/100)) = a` of a unit's numbers (indices into its numbers).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Triple {
    q: usize,
    p: usize,
    a: usize,
    discount: Option<usize>,
    /// The price basis the reading divides by ([`price_bases`]).
    basis: Option<Decimal>,
}

/// A line (or a line and the numbers printed just below it) with its numbers.
#[derive(Debug, Clone)]
struct Unit {
    lines: Vec<usize>,
    /// The line below whose numbers (right of this line) the unit took, where it holds more.
    borrowed: Option<usize>,
    nums: Vec<Num>,
    triples: Vec<Triple>,
}

/// A row without arithmetic: its line, the line under it holding its amount (if so) and the
/// amount's index into [`Flat::nums`].
struct Flat {
    line: usize,
    below: Option<usize>,
    k: usize,
}

impl Flat {
    /// The row's numbers: its line's, then those of the line under it.
    fn nums(&self, nums: &[Vec<Num>]) -> Vec<Num> {
        let mut v = nums[self.line].clone();
        if let Some(b) = self.below {
            v.extend(nums[b].iter().cloned());
        }
        v
    }

    fn amount<'a>(&self, nums: &'a [Vec<Num>]) -> &'a Num {
        let own = &nums[self.line];
        match self.below {
            Some(b) if self.k >= own.len() => &nums[b][self.k - own.len()],
            _ => &own[self.k],
        }
    }
}

fn is_money_num(n: &Num, money: amounts::MoneyPrint) -> bool {
    !n.percent && (n.decimals >= 2 || money != amounts::MoneyPrint::Cents && n.decimals <= 1)
}

/// Whether `q x p x f = a` holds to the amount's printed precision.
fn holds(q: Decimal, p: Decimal, factor: Decimal, a: &Num) -> bool {
    product_holds(q, p, factor, a.value, a.decimals)
}

/// Whether `q x p x factor = amount` holds to the amount's printed precision (`decimals`): half
/// a unit of its last digit, a cent at least (prices carry more decimals than the amounts they
/// make). False where the product overflows.
pub(super) fn product_holds(
    q: Decimal,
    p: Decimal,
    factor: Decimal,
    amount: Decimal,
    decimals: u32,
) -> bool {
    let tol = Decimal::new(5, decimals.min(4) + 1).max(Decimal::new(1, 2));
    q.checked_mul(p)
        .and_then(|qp| qp.checked_mul(factor))
        .is_some_and(|v| (v - amount).abs() <= tol)
}

/// The readings `q x p = a` of a unit's numbers; `own` is the unit's line (numbers taken from
/// the line below serve as the amount only); `bases` the price bases its line prints
/// ([`price_bases`]), tried where no reading holds without them.
fn triples(nums: &[Num], money: amounts::MoneyPrint, own: usize, bases: &[Decimal]) -> Vec<Triple> {
    let mut out = Vec::new();
    let n = nums.len().min(14);
    for a in 0..n {
        let an = &nums[a];
        if !is_money_num(an, money) {
            continue;
        }
        for p in 0..n {
            let pn = &nums[p];
            if p == a || pn.x1 > an.x0 || pn.line != own || !is_money_num(pn, money) {
                continue;
            }
            for q in 0..n {
                let qn = &nums[q];
                if q == a
                    || q == p
                    || qn.percent
                    || qn.x1 > an.x0
                    || qn.line != own
                    || qn.value.is_zero()
                {
                    continue;
                }
                // A zero amount proves nothing but a zero price.
                if an.value.is_zero() && !pn.value.is_zero() {
                    continue;
                }
                if an.value.is_zero() && qn.decimals == 0 && qn.value == Decimal::ONE {
                    continue;
                }
                let per_unit = std::iter::once(None).chain(bases.iter().copied().map(Some));
                for basis in per_unit {
                    let base = basis.map_or(Decimal::ONE, |b| Decimal::ONE / b);
                    // The basis printed is no quantity of the row (`500 Stk  12,50 /100`).
                    if basis.is_some_and(|b| qn.value == b && qn.decimals == 0) {
                        continue;
                    }
                    if let Some(t) = reading(nums, (q, p, a), base, own) {
                        out.push(Triple { basis, ..t });
                        break;
                    }
                }
            }
        }
    }
    out
}

/// The one reading `q x p = a` of a row whose amount `a`, the last of `nums`, was printed on
/// the line below (see [`find`]): one pair of the numbers of line `own` makes it, the price a
/// money amount; the quantity is the one of fewer decimals, of equal ones the one a unit word
/// follows (`19017.2300  5.0000  кг`, `unit_after`), else the left one (`10 pce` right of its
/// price `609,94`, `0,5 vnt.` left of `461,26`). Of two such pairs (the position `10` and the
/// quantity `10`), the one printed closer together.
fn amount_below(
    nums: &[Num],
    money: amounts::MoneyPrint,
    own: usize,
    unit_after: &dyn Fn(&Num) -> bool,
) -> Option<Triple> {
    let a = nums.len().checked_sub(1)?;
    let gap = |t: &Triple| {
        let (q, p) = (&nums[t.q], &nums[t.p]);
        (q.x0 - p.x1).max(p.x0 - q.x1)
    };
    // Whether the row's own line goes on after a price `p`, with no money but its quantity `q`:
    // a rate's or a quantity's column, the amount missing there (a list's `1. Termijn vervalt
    // op 28-04-2023: 1.635,98` over the next term's line ends at its amount: no row).
    let columns_after = |p: usize, q: usize| {
        let mut rest = nums[..a]
            .iter()
            .enumerate()
            .filter(|(_, n)| n.line == own && n.x0 > nums[p].x1)
            .peekable();
        rest.peek().is_some() && !rest.any(|(k, n)| k != q && is_money_num(n, money))
    };
    let mut found: Option<Triple> = None;
    let mut tied = false;
    for x in 0..a {
        for y in x + 1..a {
            let (xn, yn) = (&nums[x], &nums[y]);
            if xn.line != own || yn.line != own {
                continue;
            }
            let (x_unit, y_unit) = (unit_after(xn), unit_after(yn));
            let y_first = yn.decimals < xn.decimals
                || yn.decimals == xn.decimals
                    && if x_unit == y_unit {
                        yn.x0 < xn.x0
                    } else {
                        y_unit
                    };
            let (q, p) = if y_first { (y, x) } else { (x, y) };
            let (qn, pn) = (&nums[q], &nums[p]);
            if qn.percent || qn.value.is_zero() || !is_money_num(pn, money) || !columns_after(p, q)
            {
                continue;
            }
            if let Some(t) = reading(nums, (q, p, a), Decimal::ONE, own) {
                match &found {
                    Some(f) if gap(f) < gap(&t) => {}
                    Some(f) if gap(f) == gap(&t) => tied = true,
                    _ => {
                        found = Some(t);
                        tied = false;
                    }
                }
            }
        }
    }
    found.filter(|_| !tied)
}

/// The reading `q x p x base (x (1 - d/100)) = a` of three of a unit's numbers (`qpa`), a
/// discount among the others where none balances without one.
fn reading(nums: &[Num], qpa: (usize, usize, usize), base: Decimal, own: usize) -> Option<Triple> {
    let (q, p, a) = qpa;
    let (qn, pn, an) = (&nums[q], &nums[p], &nums[a]);
    let triple = |discount| Triple {
        q,
        p,
        a,
        discount,
        basis: None,
    };
    if holds(qn.value, pn.value, base, an) {
        return Some(triple(None));
    }
    for (d, dn) in nums.iter().enumerate().take(nums.len().min(14)) {
        // `10%`, `-10%`, `(-10%)`: a discount of ten percent; so is a bare `10`
        // printed between the price and the amount (a discount column).
        let rate = dn.value.abs();
        if rate.is_zero() || rate >= Decimal::ONE_HUNDRED {
            continue;
        }
        let in_column = d != q
            && d != p
            && dn.line == own
            && dn.decimals <= 2
            && dn.x0 >= pn.x1
            && dn.x1 <= an.x0;
        if !dn.percent && !in_column {
            continue;
        }
        let f = Decimal::ONE - rate / Decimal::ONE_HUNDRED;
        if holds(qn.value, pn.value, f * base, an) {
            return Some(triple(Some(d)));
        }
    }
    None
}

/// The price bases a line prints (`12,50 /100`, `3,20 per 100`, `je 1000`): its prices are for
/// that many units, and `quantity x price / basis` is the amount. Ten, a hundred or a thousand,
/// written right after a slash or a word for "per".
fn price_bases(line: &Line) -> Vec<Decimal> {
    const PER: &[&str] = &["per", "pro", "je", "pour", "für", "à", "za", "за", "на"];
    let basis = |t: &str| -> Option<Decimal> {
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        let rest = &t[digits.len()..];
        let unit_after = rest.is_empty() || rest.chars().all(char::is_alphabetic);
        match digits.as_str() {
            "10" | "100" | "1000" if unit_after => digits.parse().ok(),
            _ => None,
        }
    };
    let mut out: Vec<Decimal> = Vec::new();
    for (k, t) in line.tokens.iter().enumerate() {
        let b = match t.text.strip_prefix('/') {
            Some(rest) => basis(rest),
            None if PER.contains(&t.text.to_lowercase().as_str()) => {
                line.tokens.get(k + 1).and_then(|n| basis(&n.text))
            }
            None => None,
        };
        if let Some(b) = b
            && !out.contains(&b)
        {
            out.push(b);
        }
    }
    out
}

/// A totals line: a totals label among its first three words, not after a row's position and
/// article number (`2  L529A2  Brutto: 341,69  1  godz.  277,80 ...`: a row whose description
/// column prints its gross price; two words before the label, each with a digit).
fn is_totals_line(hits: &[LabelHit], text: &str) -> bool {
    let after_codes = |start: usize| {
        let before: Vec<&str> = text.get(..start).unwrap_or("").split_whitespace().collect();
        before.len() >= 2 && before.iter().all(|w| w.chars().any(|c| c.is_ascii_digit()))
    };
    hits.iter().any(|h| {
        matches!(
            h.key,
            LabelKey::Total
                | LabelKey::Net
                | LabelKey::Subtotal
                | LabelKey::Payable
                | LabelKey::Prepaid
                | LabelKey::Vat
                | LabelKey::Discount
        ) && h.word <= 2
            && !after_codes(h.start)
            || h.key == LabelKey::CarriedOver
    })
}

/// A column header: labels of two column kinds or more, covering at least half its words.
fn is_header_line(hits: &[LabelHit], line: &Line) -> bool {
    let columns: Vec<&LabelHit> = hits.iter().filter(|h| h.key.is_column()).collect();
    let mut kinds: Vec<LabelKey> = columns.iter().map(|h| h.key).collect();
    kinds.sort();
    kinds.dedup();
    // Column words are most of the line: `Consulting services (day rate)` names a price and
    // a service but is a row's description.
    let covered: usize = columns.iter().map(|h| h.words).sum();
    kinds.len() >= 2 && covered * 2 >= super::labels::norm_words(&line.text).len()
}

/// A code-like word: letters and digits, no lower-case letter (`TB100A4`, `ZS997`, `K4321`),
/// or a long digit run (a GTIN).
fn is_code(w: &str) -> bool {
    let digits = w.chars().filter(char::is_ascii_digit).count();
    let lower = w.chars().any(char::is_lowercase);
    let letters = w.chars().filter(|c| c.is_alphabetic()).count();
    // `A4`, `M8`, `3D` are words of a description, not article numbers.
    digits > 0 && (!lower && letters > 0 && w.chars().count() >= 4 || letters == 0 && digits >= 7)
}

/// Whether a description cell's text names nothing: it holds a percentage, a tax's words or
/// a key's colon, and no word of three letters or more but codes and the tax's words (`27%
/// ÁFA`, `S DPH: 576,77`, `S/N Z91050545`; `Transport`, `Papier A4` name something).
pub(super) fn names_nothing(text: &str) -> bool {
    let hits = super::labels::find_labels(text);
    let tax_word = |s: usize, e: usize| {
        hits.iter().any(|h| {
            matches!(
                h.key,
                LabelKey::Vat | LabelKey::ColVatRate | LabelKey::ColAmountGross
            ) && h.start <= s
                && e <= h.end
        })
    };
    let mut note = false;
    let mut at = 0;
    for w in text.split_whitespace() {
        let ws = at + text[at..].find(w).unwrap_or(0);
        at = ws + w.len();
        let word = w.trim_matches(|c: char| !c.is_alphanumeric());
        let s = ws + w.find(word).unwrap_or(0);
        let e = s + word.len();
        // A price basis (`1 h = 289,27`) is an attribute too.
        note |= w.contains('%')
            || w.ends_with(':')
            || w.contains('/')
            || w.starts_with('=')
            || tax_word(s, e);
        let letters = word.chars().filter(|c| c.is_alphabetic()).count();
        if letters >= 3 && !is_code(word) && !tax_word(s, e) {
            return false;
        }
    }
    note
}

/// A printed unit (`Stk.`, `szt.`, `час`): a word of the unit vocabulary.
fn is_unit_word(w: &str) -> bool {
    w.chars().any(char::is_alphabetic) && crate::einvoice::codes::unit_code_of_printed(w).is_some()
}

/// Whether `line` prints an article number (a code of seven digits or more, or digits after
/// one) ending left of `x`, beyond a row's position.
fn codes_left_of(line: &Line, x: f32) -> bool {
    let before: Vec<&Token> = line
        .tokens
        .iter()
        .filter(|t| t.bbox.x1 <= x + 0.5)
        .collect();
    before.len() >= 2 || before.iter().any(|t| is_code(&t.text))
}

/// Whether `line` prints a word (a token with a letter) ending left of `x`.
fn words_left_of(line: &Line, x: f32) -> bool {
    line.tokens
        .iter()
        .any(|t| t.bbox.x1 <= x + 0.5 && t.text.chars().any(char::is_alphabetic))
}

/// Whether the first token of a line of several reads as a row's position (`1`, `12.`).
fn is_position(token: &str, line: &Line) -> bool {
    let t = token.trim_end_matches('.');
    // An outline number (`1.1`, `01.02.0010`: title, section, item of a bill of quantities)
    // is the row's position too, not its article number; of two groups only in a column of
    // its own (`2.5 mm Kabel` is a description).
    let groups = t.split('.').count();
    let apart = line
        .text
        .trim_start()
        .strip_prefix(token)
        .is_some_and(|rest| rest.starts_with("  "));
    let outline = (groups >= 3 || groups == 2 && apart) && outline_number(t);
    (token.len() <= 4 && t.chars().all(|c| c.is_ascii_digit()) || outline) && line.tokens.len() > 1
}

/// Whether `line` opens with an outline number (`1.3`) that numbers the rows of an outline: a
/// line on its page, left-aligned with it, opens with its neighbour in the outline (the same
/// groups but the last one more or less by one, `1.2` or `1.4`, or a section's first row under
/// the next or previous first group, `2.1` by `1.1`). Decimals that open lines (quantities
/// printed first, `1.25  Äpfel`; sizes, `1.5 mm²` over `2.5 mm²`) do not count on so.
fn outline_row(doc: &CleanDocument, line: &Line, token: &Token) -> bool {
    let groups = |l: &Line| -> Option<(f32, Vec<u32>)> {
        let t = l.tokens.first()?;
        let text = t.text.trim_end_matches('.');
        if !outline_number(text) || text.split('.').count() > 4 {
            return None;
        }
        let g = text
            .split('.')
            .map(|g| g.parse().ok())
            .collect::<Option<Vec<u32>>>()?;
        Some((t.bbox.x0, g))
    };
    // The token the caller reads must be the line's first (not one after a skipped period).
    if !line.tokens.first().is_some_and(|f| std::ptr::eq(f, token)) {
        return false;
    }
    let Some((x0, mine)) = groups(line) else {
        return false;
    };
    let h = line.bbox.height().max(1.0);
    let next = |a: &[u32], b: &[u32]| {
        let n = a.len();
        let by_one = |x: u32, y: u32| x.abs_diff(y) == 1;
        n == b.len()
            && (a[..n - 1] == b[..n - 1] && by_one(a[n - 1], b[n - 1])
                || a[1..] == b[1..] && a[n - 1] == 1 && by_one(a[0], b[0]))
    };
    doc.lines.iter().any(|l| {
        l.page == line.page
            && groups(l).is_some_and(|(x, g)| (x - x0).abs() <= h && next(&mine, &g))
    })
}

/// Digit groups of one to four digits joined by dots, two groups or more (`1.1`, `3.2`,
/// `01.02.0010`): an outline number's shape (also a decimal's: whether it is a position the
/// caller tells by where it stands).
fn outline_number(t: &str) -> bool {
    t.split('.').count() >= 2
        && t.split('.')
            .all(|g| (1..=4).contains(&g.len()) && g.chars().all(|c| c.is_ascii_digit()))
}

fn has_word(line: &Line) -> bool {
    line.tokens
        .iter()
        .any(|t| !is_rotated(t) && t.text.chars().filter(|c| c.is_alphabetic()).count() >= 2)
}

/// A word printed vertically (a margin note such as `Copyright` running up the page edge): its
/// box is taller than wide although it holds three characters or more.
fn is_rotated(t: &Token) -> bool {
    // A scan's short word, boxed the height of its line, can be about square (`top`, `A4,`):
    // a word set upright is taller by half again at least. A short decimal (`0,5`) is no note
    // however boxed (a margin's year or code, `2014`, still is).
    t.text.chars().count() >= 3
        && t.bbox.height() > 1.5 * t.bbox.width()
        && !(t.text.contains([',', '.']) && token_number(&t.text, None).is_some())
}

fn aligned(a: &Num, b: &Num, tol: f32) -> bool {
    (a.x1 - b.x1).abs() <= tol || (a.x0 - b.x0).abs() <= tol
}

/// Reads the line-item rows of a document by their arithmetic ([module docs](self)). `rates`
/// are the VAT rates the document's tax summary prints and `headers` the tables found under a
/// known header row ([`super::tables::find_tables`]): both tell a rate printed without `%`.
/// `None` where no line balances.
pub fn find(
    doc: &CleanDocument,
    style: &DocStyle,
    line_labels: &[Vec<LabelHit>],
    rates: &[Decimal],
    headers: &[TableLayout],
) -> Option<TableLayout> {
    let nums: Vec<Vec<Num>> = doc.lines.iter().map(|l| line_numbers(l, style)).collect();
    let hits = |l: usize| line_labels.get(l).map_or(&[][..], Vec::as_slice);
    let totals: Vec<bool> = (0..doc.lines.len())
        .map(|l| is_totals_line(hits(l), &doc.lines[l].text))
        .collect();
    // Lines that end a table: totals and column headers.
    let ends: Vec<bool> = (0..doc.lines.len())
        .map(|l| totals[l] || is_header_line(hits(l), &doc.lines[l]))
        .collect();
    // 1-2: units and their readings.
    let mut units: Vec<Unit> = Vec::new();
    let mut i = 0;
    while i < doc.lines.len() {
        let line = &doc.lines[i];
        let mut lines = vec![i];
        let mut unit_nums = nums[i].clone();
        // Numbers printed just below the line and right of all its words belong to it; a line
        // holding nothing else is part of the row.
        let mut whole_next = false;
        let mut borrowed = None;
        if let Some(next) = doc.lines.get(i + 1) {
            let h = line.bbox.height().max(1.0);
            if next.page == line.page && next.bbox.y0 - line.bbox.y0 < 1.5 * h {
                let right: Vec<Num> = nums[i + 1]
                    .iter()
                    .filter(|n| n.x0 > line.bbox.x1)
                    .cloned()
                    .collect();
                if !right.is_empty() {
                    whole_next = next.tokens.len() <= 3 && nums[i + 1].len() == next.tokens.len();
                    if whole_next {
                        lines.push(i + 1);
                    } else {
                        borrowed = Some(i + 1);
                    }
                    unit_nums.extend(right);
                }
            }
        }
        let bases = price_bases(line);
        let mut t = if totals[i] {
            Vec::new()
        } else {
            triples(&unit_nums, style.money, i, &bases)
        };
        // No reading balances: a discount printed last on the tight line under the row is the
        // row's where it makes the row balance: alone (`(-15%)`, `Rabatt -15 %` under the
        // description) or after the description's next words (`ergonomique (-10%)`, `(11)
        // (-5%)`; no money amount among them).
        if t.is_empty()
            && !totals[i]
            && !whole_next
            && let Some(next) = doc.lines.get(i + 1)
            && next.page == line.page
            && next.bbox.y0 - line.bbox.y0 < 1.5 * line.bbox.height().max(1.0)
            && let Some((d, off)) = discount_below(&nums[i + 1], style.money)
            && let Some((with, found)) = balanced_with(&unit_nums, d, style.money, i)
            // The money a sub-line says the discount takes off is what it takes off.
            && off.is_none_or(|off| {
                found.iter().all(|t| {
                    let cut = with[t.q].value * with[t.p].value - with[t.a].value;
                    (cut.abs() - off.value.abs()).abs() <= Decimal::new(1, 2)
                })
            })
        {
            unit_nums = with;
            t = found;
            // A line of the discount alone is the row's; one with more words continues its
            // description (the discount's text with it, as printed).
            if only_discount_words(next) {
                lines.push(i + 1);
            }
        }
        // No reading balances: a discount printed last on the description's line right above
        // the row's numbers (`4  Licence logicielle annuelle (-15%)` over `603094  2,5 h
        // 130,70  20%  277,74`) is the row's where it makes the row balance.
        if t.is_empty()
            && !totals[i]
            && i > 0
            && let Some(prev) = doc.lines.get(i - 1)
            && prev.page == line.page
            && line.bbox.y0 - prev.bbox.y0 < 1.5 * prev.bbox.height().max(1.0)
            && let Some(d) = trailing_discount(&nums[i - 1], style.money)
            && let Some((with, found)) = balanced_with(&unit_nums, d, style.money, i)
        {
            unit_nums = with;
            t = found;
        }
        // No reading balances: a number OCR split with a space (`5944 1,15`, `1966 800`) is
        // read whole where that, and only that, makes the row balance.
        if t.is_empty() && !totals[i] {
            let balanced: Vec<(Vec<Num>, Vec<Triple>)> =
                split_number_readings(line, &unit_nums, style)
                    .into_iter()
                    .map(|v| {
                        let t = triples(&v, style.money, i, &bases);
                        (v, t)
                    })
                    .filter(|(_, t)| !t.is_empty())
                    .collect();
            if let [(v, found)] = &balanced[..] {
                unit_nums = v.clone();
                t = found.clone();
            }
        }
        // No reading balances: the amount printed at the end of the tight line below, under
        // the row's other columns (a narrow table wraps the amount onto the row's second line,
        // beside a sub-line `EAN: 7786171388152  3730,65`), where the row's own quantity and
        // price make it.
        if t.is_empty()
            && !totals[i]
            && !whole_next
            && borrowed.is_none()
            && has_word(line)
            && let Some(next) = doc.lines.get(i + 1)
            && next.page == line.page
            && next.bbox.y0 - line.bbox.y0 < 1.5 * line.bbox.height().max(1.0)
            && !is_header_line(hits(i + 1), next)
            && let Some(m) = nums[i + 1].last().filter(|m| is_money_num(m, style.money))
        {
            let mut with = nums[i].clone();
            with.push(m.clone());
            let unit_after = |n: &Num| {
                doc.lines[n.line]
                    .text
                    .get(n.end..)
                    .and_then(|rest| rest.split_whitespace().next())
                    .is_some_and(is_unit_word)
            };
            if let Some(found) = amount_below(&with, style.money, i, &unit_after) {
                unit_nums = with;
                t = vec![found];
                borrowed = Some(i + 1);
            }
        }
        let found = !t.is_empty();
        if found {
            units.push(Unit {
                lines,
                borrowed,
                nums: unit_nums,
                triples: t,
            });
        }
        i += if found && whole_next { 2 } else { 1 };
    }
    if units.is_empty() {
        return None;
    }
    let h = median_size(
        units
            .iter()
            .map(|u| doc.lines[u.lines[0]].bbox.height())
            .collect(),
    )
    .unwrap_or(1.0)
    .max(1.0);
    let tol = h;
    // 3: the shape most rows share.
    let shape_of = |u: &Unit, t: &Triple| {
        (
            u.nums[t.q].clone(),
            u.nums[t.p].clone(),
            u.nums[t.a].clone(),
        )
    };
    // Ties (`q x p` reads both ways when every row prints both columns) go to the reading
    // whose quantities look like quantities ([`plausibility`]).
    // (quantity, price, amount) of the shape; (support, plausibility).
    type Shape = (Num, Num, Num);
    let mut best: Option<(Shape, (usize, i32))> = None;
    for u in &units {
        for t in &u.triples {
            let (q, p, a) = shape_of(u, t);
            let mut support = 0;
            let mut plausible = 0;
            for v in &units {
                if let Some(s) = v.triples.iter().find(|s| {
                    aligned(&v.nums[s.q], &q, tol)
                        && aligned(&v.nums[s.p], &p, tol)
                        && aligned(&v.nums[s.a], &a, tol)
                }) {
                    support += 1;
                    plausible += plausibility(doc, headers, v, s);
                }
            }
            let score = (support, plausible);
            let better = match &best {
                None => true,
                Some((b, n)) => score > *n || score == *n && a.x1 > b.2.x1 + tol,
            };
            if better {
                best = Some(((q, p, a), score));
            }
        }
    }
    let ((sq, sp, sa), _) = best?;
    let mut picked: Vec<(Unit, Triple)> = Vec::new();
    for u in units {
        let full = u.triples.iter().find(|s| {
            aligned(&u.nums[s.q], &sq, tol)
                && aligned(&u.nums[s.p], &sp, tol)
                && aligned(&u.nums[s.a], &sa, tol)
        });
        // Else the reading with the shape's amount that looks most like one (`2 × 1990` whose
        // numbers stand apart from the shape's `1,25 × 2632`: the quantity before the sign).
        let t = full
            .or_else(|| {
                u.triples
                    .iter()
                    .filter(|s| aligned(&u.nums[s.a], &sa, tol))
                    .rev()
                    .max_by_key(|s| plausibility(doc, headers, &u, s))
            })
            .copied();
        if let Some(t) = t {
            picked.push((u, t));
        }
    }
    if picked.is_empty() {
        return None;
    }
    // 4: rows without arithmetic, between the rows and under them up to the totals.
    let first = picked[0].0.lines[0];
    let last = picked
        .iter()
        .flat_map(|(u, _)| u.lines.iter())
        .copied()
        .max()?;
    let claimed: Vec<usize> = picked
        .iter()
        .flat_map(|(u, _)| u.lines.iter().chain(&u.borrowed))
        .copied()
        .collect();
    let mut end = last + 1;
    while let Some(line) = doc.lines.get(end) {
        let prev = &doc.lines[end - 1];
        if line.page != doc.lines[last].page || line.bbox.y0 - prev.bbox.y1 > 4.0 * h || ends[end] {
            break;
        }
        end += 1;
    }
    // A row without arithmetic: words, and an amount in the amount column.
    // Page furniture: a line printed again on another page (the letterhead repeated over a
    // continued table, `Fő utca 126., 9021 Győr`) is no row, whatever number it ends with.
    let furniture = repeated_on_pages(doc);
    let flat_amount = |l: usize| {
        let line = &doc.lines[l];
        if claimed.contains(&l) || ends[l] || is_keyed(line) || !has_word(line) || furniture[l] {
            return None;
        }
        nums[l].iter().rposition(|n| {
            is_money_num(n, style.money) && aligned(n, &sa, tol) && (n.x1 - sa.x1).abs() <= tol
        })
    };
    // Above the first balanced row, up to the header: flat rows and the lines of text between
    // them; a line with other numbers ends the table there.
    let mut start = first;
    while start > 0 {
        let line = &doc.lines[start - 1];
        let below = &doc.lines[start];
        if line.page != below.page
            || below.bbox.y0 - line.bbox.y1 > 4.0 * h
            || ends[start - 1]
            || flat_amount(start - 1).is_none() && !nums[start - 1].is_empty()
        {
            break;
        }
        start -= 1;
    }
    // A row whose words and numbers in the quantity or price column stand on one line, and its
    // amount, alone, in the amount column of the tight line under it (`4  PFA5  Pfand  2,7700  20  19 %`
    // over `4000001234578  55,46`, where quantity x price misses the amount).
    let amount_below = |l: usize| {
        let line = &doc.lines[l];
        let next = doc.lines.get(l + 1)?;
        let h = line.bbox.height().max(1.0);
        if claimed.contains(&l)
            || claimed.contains(&(l + 1))
            || ends[l]
            || ends[l + 1]
            || is_keyed(line)
            || !has_word(line)
            || has_word(next)
            || next.page != line.page
            || next.bbox.y0 - line.bbox.y0 >= 1.5 * h
            || nums[l].iter().any(|n| (n.x1 - sa.x1).abs() <= tol)
            || !nums[l]
                .iter()
                .any(|n| !n.percent && (aligned(n, &sq, tol) || aligned(n, &sp, tol)))
        {
            return None;
        }
        // The amount is the line's only number but an article's code (a tax summary's values
        // under its header are several; the amount finder reads a GTIN as a number).
        let code = |n: &Num| {
            let int_digits = n.value.abs().trunc().normalize().to_string().len();
            id_shaped(int_digits, n.decimals)
        };
        let k = nums[l + 1].iter().position(|n| !code(n))?;
        let n = &nums[l + 1][k];
        if nums[l + 1].iter().filter(|n| !code(n)).count() != 1 {
            return None;
        }
        if !(is_money_num(n, style.money) && aligned(n, &sa, tol) && (n.x1 - sa.x1).abs() <= tol) {
            return None;
        }
        Some(Flat {
            line: l,
            below: Some(l + 1),
            k: nums[l].len() + k,
        })
    };
    let mut flat: Vec<Flat> = Vec::new();
    // A line whose amount in the amount column equals the sum of the rows above it is their
    // total (`Summe`, `Fize:`, `Übertrag`, whatever its label), or, with the other sign, what
    // settles them (a folio's payment, `Zahlung Visa  -209,00`): the rows end there, unless
    // balanced rows follow (a table continued after a carried-over subtotal).
    // Rows priced both ways ([`net_price_left_of`]) are summed as printed and by their net
    // amounts too (quantity x unit price, printed nowhere), which a goods total under them
    // prints (`Áruérték  6.214.849` under amounts with VAT).
    let arith_rows: Vec<Row> = picked
        .iter()
        .map(|(u, t)| arith_row(doc, headers, u, t, rates))
        .collect();
    let arith_lines: Vec<(usize, Decimal, Decimal)> = picked
        .iter()
        .zip(&arith_rows)
        .map(|((u, t), row)| {
            let v = u.nums[t.a].value;
            (u.lines[0], v, net_of_row_priced_both_ways(row).unwrap_or(v))
        })
        .collect();
    let mut sum = Decimal::ZERO;
    let mut net_sum = Decimal::ZERO;
    let mut rows_above = 0;
    let mut closed = false;
    for (l, line_nums) in nums.iter().enumerate().skip(start) {
        if let Some(&(_, v, net)) = arith_lines.iter().find(|(al, _, _)| *al == l) {
            closed = false;
            sum += v;
            net_sum += net;
            rows_above += 1;
            continue;
        }
        if claimed.contains(&l) {
            continue;
        }
        let in_column = line_nums
            .iter()
            .rposition(|n| is_money_num(n, style.money) && (n.x1 - sa.x1).abs() <= tol);
        if let Some(k) = in_column
            && rows_above > 0
            && (line_nums[k].value == sum
                || line_nums[k].value == net_sum && net_sum != sum
                || sum > Decimal::ZERO && line_nums[k].value == -sum)
        {
            closed = true;
            if arith_lines.iter().all(|(al, _, _)| *al < l) {
                break;
            }
            continue;
        }
        if closed || l >= end || flat.iter().any(|f| f.below == Some(l)) {
            continue;
        }
        // The first amount of a page, right above the table's repeated header (`Transporte
        // 51.254,88` over `#  Descrição  Qtd.`), is what the page before carried over.
        let page = doc.lines[l].page;
        let brought_forward = doc
            .lines
            .get(l + 1)
            .is_some_and(|n| n.page == page && is_header_line(hits(l + 1), n))
            && !flat.iter().any(|f| doc.lines[f.line].page == page)
            && !arith_lines
                .iter()
                .any(|(al, _, _)| *al < l && doc.lines[*al].page == page);
        if brought_forward {
            continue;
        }
        let found = flat_amount(l)
            .map(|k| Flat {
                line: l,
                below: None,
                k,
            })
            .or_else(|| amount_below(l));
        if let Some(f) = found {
            sum += f.amount(&nums).value;
            net_sum += f.amount(&nums).value;
            rows_above += 1;
            flat.push(f);
        }
    }
    // The rows must sum to an amount printed under them: all of them, else all but the flat
    // lines after the last balanced row from some line on (a subtotal or a summary line in the
    // amount column: `Importo  7.754,84` under the rows whose sum is printed lower down), else
    // the balanced rows alone.
    let sum_arith: Decimal = picked.iter().map(|(u, t)| u.nums[t.a].value).sum();
    let printed_below = |v: Decimal, table_end: usize| {
        nums.iter()
            .skip(table_end + 1)
            .flatten()
            .any(|n| !n.percent && n.value == v)
    };
    let sum_of = |rows: &[Flat]| -> Decimal {
        rows.iter().map(|f| f.amount(&nums).value).sum::<Decimal>() + sum_arith
    };
    let end_of = |rows: &[Flat]| {
        rows.iter()
            .map(|f| f.below.unwrap_or(f.line))
            .max()
            .unwrap_or(last)
            .max(last)
    };
    let after_last = flat.iter().filter(|f| f.line > last).count();
    let kept = (flat.len() - after_last..=flat.len())
        .rev()
        .find(|&n| printed_below(sum_of(&flat[..n]), end_of(&flat[..n])));
    let sums = match kept {
        Some(n) => {
            flat.truncate(n);
            true
        }
        None => false,
    };
    let table_end = end_of(&flat);
    // 5: the cells of every row.
    let mut rows: Vec<(usize, Row)> = Vec::new();
    let starts: Vec<usize> = {
        let mut v: Vec<usize> = picked
            .iter()
            .map(|(u, _)| u.lines[0])
            .chain(flat.iter().map(|f| f.line))
            .collect();
        v.sort_unstable();
        v
    };
    let mut used_lines: Vec<usize> = starts.clone();
    used_lines.extend(claimed.iter().copied());
    used_lines.extend(flat.iter().filter_map(|f| f.below));
    for ((u, _), row) in picked.iter().zip(arith_rows) {
        rows.push((u.lines[0], row));
    }
    for f in &flat {
        let unit = Unit {
            lines: std::iter::once(f.line).chain(f.below).collect(),
            borrowed: None,
            nums: f.nums(&nums),
            triples: Vec::new(),
        };
        rows.push((
            f.line,
            flat_row(doc, headers, &unit, f.k, (&sq, &sp), rates, tol),
        ));
    }
    rows.sort_by_key(|(l, _)| *l);
    discount_lines(&mut rows, &nums);
    let end_line = end.max(table_end + 1);
    // A line with an amount in the amount column (a carried-over subtotal, a row) never
    // continues a description.
    let stops: Vec<bool> = nums
        .iter()
        .zip(&ends)
        .map(|(line_nums, &end)| {
            end || line_nums
                .iter()
                .any(|n| is_money_num(n, style.money) && (n.x1 - sa.x1).abs() <= tol)
        })
        .collect();
    // Rows without words of their own take the text line right above them.
    let wordless: Vec<usize> = rows
        .iter()
        .filter(|(_, r)| r.cell(LabelKey::ColDesc).is_none())
        .map(|(l, _)| *l)
        .collect();
    // The header line over the first row: the top of the first row's run of lines.
    let header = starts.first().and_then(|&s| {
        headers
            .iter()
            .map(|t| t.header_line)
            .filter(|&l| l < s && doc.lines[l].page == doc.lines[s].page)
            .max()
    });
    let bounds = Continuation {
        stops: &stops,
        starts: &starts,
        wordless: &wordless,
        end_line,
        header,
    };
    for (_, row) in rows.iter_mut() {
        continue_description(doc, &bounds, row, &mut used_lines, h);
    }
    let columns = vec![
        Column {
            key: LabelKey::ColQty,
            x0: sq.x0,
            x1: sq.x1,
        },
        Column {
            key: LabelKey::ColUnitPrice,
            x0: sp.x0,
            x1: sp.x1,
        },
        Column {
            key: LabelKey::ColAmount,
            x0: sa.x0,
            x1: sa.x1,
        },
    ];
    Some(TableLayout {
        header_line: first,
        columns,
        rows: rows.into_iter().map(|(_, r)| r).collect(),
        end_line,
        sums,
    })
}

/// Per line, whether the same text (letters and digits, case and diacritics folded: OCR reads
/// `Győr` as `Gyór` on one page) is printed on another page of the document: a page's
/// letterhead or footer, repeated.
fn repeated_on_pages(doc: &CleanDocument) -> Vec<bool> {
    if doc
        .lines
        .iter()
        .all(|l| Some(l.page) == doc.lines.first().map(|f| f.page))
    {
        return vec![false; doc.lines.len()];
    }
    let key = |l: &Line| -> String {
        let text: String = l
            .text
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        super::labels::fold_diacritics(&text).into_owned()
    };
    let keys: Vec<String> = doc.lines.iter().map(key).collect();
    let mut pages: HashMap<&str, Vec<u32>> = HashMap::new();
    for (l, k) in doc.lines.iter().zip(&keys) {
        let seen = pages.entry(k.as_str()).or_default();
        if !seen.contains(&l.page) {
            seen.push(l.page);
        }
    }
    keys.iter()
        .map(|k| !k.is_empty() && pages.get(k.as_str()).is_some_and(|p| p.len() > 1))
        .collect()
}

fn num_cell(doc: &CleanDocument, key: LabelKey, n: &Num) -> Cell {
    let line = &doc.lines[n.line];
    Cell {
        key,
        text: line.text[n.start..n.end].to_string(),
        span: Span::from_line(line, n.start, n.end),
        amount: Some(n.value),
    }
}

fn text_cell(doc: &CleanDocument, key: LabelKey, line: usize, s: usize, e: usize) -> Cell {
    let l = &doc.lines[line];
    Cell {
        key,
        text: collapse_spaces(&l.text[s..e]),
        span: Span::from_line(l, s, e),
        amount: None,
    }
}

/// A column's x-range under its header name.
type XRange = (f32, f32);

/// The VAT rate among a row's numbers not otherwise used: a percentage (of several, the one
/// under the rate column's name, else one the tax summary names as a rate, else the rightmost:
/// a discount column stands left of the rate), or a number the document's tax summary names
/// as a rate. Nothing under a discount column's name is the rate.
fn vat_rate<'a>(
    nums: &'a [Num],
    used: &[usize],
    rates: &[Decimal],
    (rate_col, discount_col): (Option<XRange>, Option<XRange>),
) -> Option<&'a Num> {
    let free = || {
        nums.iter()
            .enumerate()
            .filter(|(i, n)| !used.contains(i) && !under(n, discount_col))
            .map(|(_, n)| n)
    };
    let percents: Vec<&Num> = free()
        .filter(|n| n.percent && n.value >= Decimal::ZERO && n.value <= Decimal::from(30))
        .collect();
    percents
        .iter()
        .find(|n| under(n, rate_col))
        .or_else(|| percents.iter().find(|n| rates.contains(&n.value)))
        .or_else(|| percents.last())
        .copied()
        .or_else(|| free().find(|n| n.decimals <= 2 && rates.contains(&n.value)))
        .or_else(|| {
            rate_col?;
            free().find(|n| n.decimals <= 2 && n.value <= Decimal::from(30) && under(n, rate_col))
        })
}

/// Whether a horizontal extent overlaps a column's x-range.
fn overlaps((x0, x1): XRange, col: Option<XRange>) -> bool {
    col.is_some_and(|(c0, c1)| x1.min(c1) > x0.max(c0))
}

/// Whether a number stands under a column's x-range.
fn under(n: &Num, col: Option<XRange>) -> bool {
    overlaps((n.x0, n.x1), col)
}

/// Whether a token stands under a column's x-range.
fn token_under(t: &Token, col: Option<XRange>) -> bool {
    overlaps((t.bbox.x0, t.bbox.x1), col)
}

/// The x-range of a column of the header row nearest above `line` (on its page, or before it
/// where a table continues on the next page without its header).
fn header_column(
    doc: &CleanDocument,
    headers: &[TableLayout],
    line: usize,
    key: LabelKey,
) -> Option<(f32, f32)> {
    let page = doc.lines.get(line)?.page;
    let above = |t: &&TableLayout| t.header_line < line;
    let header = headers
        .iter()
        .filter(above)
        .rfind(|t| doc.lines.get(t.header_line).is_some_and(|l| l.page == page))
        .or_else(|| headers.iter().rfind(above))?;
    header
        .columns
        .iter()
        .find(|c| c.key == key)
        .map(|c| (c.x0, c.x1))
}

fn rate_column(doc: &CleanDocument, headers: &[TableLayout], line: usize) -> Option<(f32, f32)> {
    header_column(doc, headers, line, LabelKey::ColVatRate)
}

/// How much a reading looks like quantity x price: the quantity under a quantity header (3),
/// the price under a price header (3), a unit word right after the quantity (2), a whole
/// quantity (1), a price with cents (1).
fn plausibility(doc: &CleanDocument, headers: &[TableLayout], u: &Unit, t: &Triple) -> i32 {
    let (q, p) = (&u.nums[t.q], &u.nums[t.p]);
    let under = |n: &Num, key| under(n, header_column(doc, headers, n.line, key));
    let line = &doc.lines[q.line];
    let unit_after = line
        .tokens
        .iter()
        .zip(&line.token_spans)
        .find(|(_, (s, _))| *s >= q.end)
        .is_some_and(|(t, _)| {
            t.text.chars().any(char::is_alphabetic)
                && crate::einvoice::codes::unit_code_of_printed(&t.text).is_some()
        });
    3 * i32::from(under(q, LabelKey::ColQty))
        + 3 * i32::from(under(p, LabelKey::ColUnitPrice))
        + 4 * i32::from(times_after(doc, q))
        + 2 * i32::from(unit_after)
        + i32::from(q.value.fract().is_zero())
        + i32::from(!p.value.fract().is_zero())
}

/// Whether a number is followed by a multiplication sign and another number (`2 × 1990`,
/// `1,25 x 2632`, `2x 1.69`): the quantity of a receipt's `quantity x price`, whatever the two
/// numbers' decimals.
fn times_after(doc: &CleanDocument, n: &Num) -> bool {
    let text = &doc.lines[n.line].text;
    let times = crate::clean::MULTIPLICATION_SIGNS;
    let glued = text.get(n.start..n.end).is_some_and(|t| t.ends_with(times));
    let rest = text.get(n.end..).unwrap_or_default().trim_start();
    let rest = if glued {
        Some(rest)
    } else {
        rest.strip_prefix(times)
    };
    rest.is_some_and(|r| r.trim_start().starts_with(|c: char| c.is_ascii_digit()))
}

/// Position, description, article number and unit from a row's own line(s): everything left of
/// the leftmost number the row uses.
fn words_of(
    doc: &CleanDocument,
    headers: &[TableLayout],
    row: &mut Row,
    line: usize,
    left_of: f32,
    qty: Option<&Num>,
    discount: Option<&Num>,
) {
    let l = &doc.lines[line];
    let mut desc: Option<(usize, usize)> = None;
    let mut sku: Option<(usize, usize)> = None;
    let mut first_word = true;
    let mut unit: Option<(usize, usize)> = None;
    let unit_col = header_column(doc, headers, line, LabelKey::ColUnit);
    let sku_col = header_column(doc, headers, line, LabelKey::ColSku);
    let pos_col = header_column(doc, headers, line, LabelKey::ColPos);
    let qty_here = qty.filter(|q| q.line == line);
    // Right after a quantity the row uses (printed first): its unit or `x` is no description.
    let mut after_qty = false;
    let periods = period_segments(&l.text);
    for (t, &(s, e)) in l.tokens.iter().zip(&l.token_spans) {
        if t.bbox.x1 > left_of + 0.5 {
            break;
        }
        if is_rotated(t) || periods.iter().any(|&(a, b)| s >= a && e <= b) {
            continue;
        }
        // The discount the row's arithmetic used (`LED-paneeli (-10%)`) is no description; a
        // word glued before it (`consultoria(-20%)`) is.
        let (s, e) = match discount.filter(|d| d.line == line && s < d.end && e > d.start) {
            Some(d) if s < d.start => {
                let word = l.text[s..d.start].trim_end_matches(['(', '[', ' ']);
                if word.is_empty() {
                    continue;
                }
                (s, s + word.len())
            }
            Some(_) => continue,
            None => (s, e),
        };
        if qty_here.is_some_and(|q| s < q.end && e > q.start) {
            after_qty = true;
            first_word = false;
            continue;
        }
        if std::mem::replace(&mut after_qty, false) && desc.is_none() {
            if is_unit_word(&t.text) {
                unit = Some((s, e));
                continue;
            }
            if matches!(t.text.as_str(), "x" | "X" | "×") {
                continue;
            }
        }
        // A leading integer is the position; under the header's position column also one of
        // up to six digits (`000010`, as ERP systems number items in steps of ten).
        let leading = std::mem::replace(&mut first_word, false);
        let under_pos = token_under(t, pos_col)
            && t.text.len() <= 6
            && t.text.chars().all(|c| c.is_ascii_digit());
        // An outline number however close the next word (`1.3 Pack 0717`, a scan's single
        // space) where the rows' outline counts on.
        if leading && (is_position(&t.text, l) || under_pos || outline_row(doc, l, t)) {
            row.cells.push(text_cell(doc, LabelKey::ColPos, line, s, e));
            continue;
        }
        // A unit in a column of its own, before the numbers: under the header's unit column,
        // or a unit word set apart from the description by a column gap.
        let gap_before = l.text.get(..s).is_some_and(|x| x.ends_with("  "));
        let under_unit = token_under(t, unit_col);
        if desc.is_some() && (under_unit || gap_before && is_unit_word(&t.text)) {
            unit = Some((s, e));
            continue;
        }
        let digits = t.text.chars().all(|c| c.is_ascii_digit());
        // Under the header's article number column (`Art-Nr` over `Toolbox 0815`), a word is
        // the article number whatever its shape.
        let under_sku = sku_col.is_some_and(|(x0, x1)| {
            t.bbox.x1.min(x1) - t.bbox.x0.max(x0) > 0.5 * (t.bbox.x1 - t.bbox.x0)
        });
        // Digits continue an article number of letters (`Pack 2492`); after one with digits,
        // a number of one or two digits is no part of it (`ZN-6915  1 h = 289,27`, a price
        // basis in the description's column).
        let continues = sku.is_some_and(|(a, b)| {
            !l.text[a..b].chars().any(|c| c.is_ascii_digit()) || t.text.len() >= 3
        });
        if desc.is_none() && (is_code(&t.text) || continues && digits || under_sku) {
            sku = Some(match sku {
                Some((a, _)) => (a, e),
                None => (s, e),
            });
            continue;
        }
        // A column gap after one or two words with a digit (`211804  Huoltosopimus`, `Pack
        // 1602  Toimistotuoli`): those words stood in a column of their own, the article
        // number's, whatever its header says.
        if let Some((a, b)) = desc
            && sku.is_none()
            && gap_before
            && l.text[a..b].chars().any(|c| c.is_ascii_digit())
            && l.text[a..b].split_whitespace().count() <= 2
            && t.text.chars().filter(|c| c.is_alphabetic()).count() >= 3
        {
            sku = Some((a, b));
            desc = None;
        }
        desc = Some(match desc {
            Some((a, _)) => (a, e),
            None => (s, e),
        });
    }
    // A note after a column gap (`Line 4714  23% VAT`) is none of the name; one or two words
    // with a digit left of it stood in a column of their own, the article number's.
    if let Some((a, b)) = desc
        && let Some(gap) = l.text[a..b].rfind("  ")
        && names_nothing(&l.text[a + gap..b])
    {
        let kept = l.text[a..a + gap].trim_end();
        desc = Some((a, a + kept.len()));
        if sku.is_none()
            && kept.chars().any(|c| c.is_ascii_digit())
            && kept.split_whitespace().count() <= 2
        {
            sku = desc.take();
        }
    }
    // A row line whose description column holds a note, not a name (`27% ÁFA`, `S DPH:
    // 576,77`, `S/N Z91050545`: the name printed on the line above): no description (the row
    // takes the line above as a row without words does); a leading number of the note is the
    // article number.
    if let Some((a, b)) = desc
        && names_nothing(&l.text[a..b])
    {
        desc = None;
        let lead = l.text[a..b].split_whitespace().next().unwrap_or("");
        if sku.is_none() && lead.len() >= 4 && lead.chars().all(|c| c.is_ascii_digit()) {
            sku = Some((a, a + lead.len()));
        }
    }
    if let Some((s, e)) = sku {
        row.cells.push(text_cell(doc, LabelKey::ColSku, line, s, e));
    }
    if let Some((s, e)) = desc {
        row.cells
            .push(text_cell(doc, LabelKey::ColDesc, line, s, e));
    }
    // The unit glued to the quantity (`1set`, `10м`).
    if unit.is_none()
        && let Some(q) = qty_here
    {
        unit = l
            .tokens
            .iter()
            .zip(&l.token_spans)
            .find(|(_, (s, e))| *s < q.end && *e > q.start)
            .and_then(|(t, &(_, e))| glued_unit(&t.text).map(|(_, u)| (e - u.len(), e)));
    }
    // The unit: a word right after the quantity (past an OCR stroke `|`), not a
    // multiplication sign, nor the description's first word.
    let in_desc = |s: usize| desc.is_some_and(|(a, b)| s >= a && s < b);
    if unit.is_none()
        && let Some(q) = qty_here
    {
        let h = l.bbox.height().max(1.0);
        unit = l
            .tokens
            .iter()
            .zip(&l.token_spans)
            .find(|(t, (s, _))| *s >= q.end && t.text.chars().any(char::is_alphanumeric))
            .filter(|(t, (s, _))| {
                // A unit of the vocabulary (or a UN/ECE code: `C62`) may stand in a column of
                // its own, past the right-aligned quantity's gap.
                let known = is_unit_word(&t.text);
                !in_desc(*s)
                    && t.bbox.x0 - q.x1 < if known { 8.0 } else { 3.0 } * h
                    && t.text.chars().any(char::is_alphabetic)
                    && !matches!(t.text.as_str(), "x" | "X" | "×")
                    && (known || !t.text.chars().any(|c| c.is_ascii_digit()))
                    && t.text.chars().count() <= 10
            })
            .map(|(_, &(s, e))| (s, e));
    }
    // Or whatever word stands under the header's unit column.
    if unit.is_none() && unit_col.is_some() {
        unit = l
            .tokens
            .iter()
            .zip(&l.token_spans)
            .find(|(t, _)| {
                token_under(t, unit_col)
                    && t.text.chars().any(char::is_alphabetic)
                    && !t.text.chars().any(|c| c.is_ascii_digit())
            })
            .map(|(_, &(s, e))| (s, e));
    }
    if let Some((s, e)) = unit {
        row.cells
            .push(text_cell(doc, LabelKey::ColUnit, line, s, e));
    }
}

/// A balanced row: `t`'s quantity, price and amount, its discount used up, words left of the
/// leftmost of the three on the row's own line.
fn arith_row(
    doc: &CleanDocument,
    headers: &[TableLayout],
    u: &Unit,
    t: &Triple,
    rates: &[Decimal],
) -> Row {
    let left_of = [t.q, t.p, t.a]
        .iter()
        .map(|&i| &u.nums[i])
        .filter(|n| n.line == u.lines[0])
        .map(|n| n.x0)
        .fold(f32::MAX, f32::min);
    let numbers = RowNumbers {
        q: Some(t.q),
        p: Some(t.p),
        a: t.a,
        discount: t.discount,
        basis: t.basis,
    };
    build_row(
        doc,
        headers,
        u,
        numbers,
        left_of,
        RowSource::Balanced,
        rates,
    )
}

/// A row without arithmetic: its amount `k`, the numbers standing in the quantity and price
/// columns of the table's `shape` (one of them alone, or both where they balance: two that
/// disagree were misread, and neither is kept), words left of the table's number columns.
fn flat_row(
    doc: &CleanDocument,
    headers: &[TableLayout],
    u: &Unit,
    k: usize,
    shape: (&Num, &Num),
    rates: &[Decimal],
    tol: f32,
) -> Row {
    let a = &u.nums[k];
    let (sq, sp) = shape;
    let column = |s: &Num| {
        u.nums
            .iter()
            .position(|n| !n.percent && n.x1 < a.x0 && aligned(n, s, tol))
    };
    // A till slip's `q x p` lines start at the margin where its `Name  amount` lines start
    // their names: a number among such a line's words is its name's (`Piens 1 l  9,66`), in
    // no column.
    let line = &doc.lines[u.lines[0]];
    let name_first = line.tokens.first().is_some_and(|t| {
        t.text.chars().any(char::is_alphabetic) && (t.bbox.x0 - sq.x0.min(sp.x0)).abs() <= tol
    });
    let q = column(sq).filter(|_| !name_first);
    let p = column(sp).filter(|p| Some(*p) != q && !name_first);
    let mut source = RowSource::Aligned;
    let (q, p) = match (q, p) {
        (Some(q), Some(p)) => {
            let (qv, pv) = (u.nums[q].value, u.nums[p].value);
            if holds(qv, pv, Decimal::ONE, a) {
                // The amount finder's reading (`91,D0` as `91`) balances after all.
                source = RowSource::Balanced;
                (Some(q), Some(p))
            } else if discounted(qv, pv, a) {
                (Some(q), Some(p))
            } else {
                (None, None)
            }
        }
        other => other,
    };
    // The row's own numbers start its number columns; none where the numbers stand among the
    // name's words (`Água 0,5 l`, `Mleko 2% 1l`).
    let own = u
        .nums
        .iter()
        .filter(|n| (n.decimals > 0 || n.percent) && !name_first)
        .map(|n| n.x0)
        .fold(a.x0, f32::min);
    let columns = [sq.x0, sp.x0].into_iter().fold(own, f32::min);
    // The quantity and price columns bound the description, unless the row prints no word left
    // of them but words left of its own numbers: a till slip's `Name  amount` line under a
    // `q x p` line that starts at the margin.
    let words_before = |x: f32| words_left_of(&doc.lines[u.lines[0]], x);
    let left_of = if q.is_none() && p.is_none() && !words_before(columns) && words_before(own) {
        own
    } else {
        columns
    };
    let numbers = RowNumbers {
        q,
        p,
        a: k,
        discount: None,
        basis: None,
    };
    build_row(doc, headers, u, numbers, left_of, source, rates)
}

/// Discounts a row may take off `quantity x price` without printing them: 1 to 10 % and the
/// multiples of 5 up to 45 % (not 50 %: half the product is what a quantity or price misread as
/// double makes, `10` read `20`).
const UNPRINTED_DISCOUNTS: &[i64] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 35, 40, 45];

/// `q x p` less a round discount the row does not print makes the amount `a` (to the cent):
/// the quantity and price in their columns were read right (a row whose amount disagrees with
/// them in any other way was misread).
fn discounted(q: Decimal, p: Decimal, a: &Num) -> bool {
    UNPRINTED_DISCOUNTS.iter().any(|&d| {
        let factor = Decimal::ONE - Decimal::new(d, 2);
        holds(q, p, factor, a)
    })
}

/// A discount printed on a line of its own under its row (`abzüglich 10 % Rabatt  -49,80`) is
/// no row but the row's: its amount comes off the row's amount and its percentage is the row's
/// discount. The line must print the percentage its amount is of the row's (a discount of the
/// whole table is of the sum, not of the row above); an amount off without its rate stays a
/// line of its own.
fn discount_lines(rows: &mut Vec<(usize, Row)>, nums: &[Vec<Num>]) {
    let mut i = 1;
    while i < rows.len() {
        let Some((net, rate)) = row_discount(&rows[i - 1].1, &rows[i].1, nums) else {
            i += 1;
            continue;
        };
        let (_, sub) = rows.remove(i);
        let prev = &mut rows[i - 1].1;
        if let Some(c) = prev.cells.iter_mut().find(|c| c.key == LabelKey::ColAmount) {
            c.amount = Some(net);
        }
        if let Some(c) = sub.cell(LabelKey::ColAmount) {
            prev.cells.push(Cell {
                key: LabelKey::ColDiscount,
                text: format!("{}%", rate.normalize()),
                span: c.span.clone(),
                amount: Some(rate),
            });
        }
        prev.lines.extend(sub.lines);
    }
}

/// The amount net of its discount and the discount's rate, where `sub` is a discount line of
/// the balanced row `prev` printed right above it ([`discount_lines`]; `nums`: each line's
/// numbers).
fn row_discount(prev: &Row, sub: &Row, nums: &[Vec<Num>]) -> Option<(Decimal, Decimal)> {
    let amount_of = |r: &Row| r.cell(LabelKey::ColAmount).and_then(|c| c.amount);
    let line = *sub.lines.first()?;
    let off = amount_of(sub).filter(|v| v.is_sign_negative())?;
    let base = amount_of(prev).filter(|v| v.is_sign_positive() && *v > -off)?;
    let alone = sub.source == RowSource::Aligned
        && sub.cell(LabelKey::ColQty).is_none()
        && sub.cell(LabelKey::ColUnitPrice).is_none()
        && prev.source == RowSource::Balanced
        && prev.cell(LabelKey::ColDiscount).is_none()
        && prev.lines.iter().max().is_some_and(|&l| l + 1 == line);
    if !alone {
        return None;
    }
    let of = |rate: Decimal| (base * rate / Decimal::ONE_HUNDRED).round_dp(2) == -off;
    let rate = nums
        .get(line)?
        .iter()
        .find(|n| n.percent && !n.value.is_zero() && of(n.value))?
        .value;
    Some((base + off, rate))
}

/// The numbers a row uses (indices into its unit's numbers).
struct RowNumbers {
    q: Option<usize>,
    p: Option<usize>,
    a: usize,
    discount: Option<usize>,
    /// The price basis of the printed price (`12,50 /100`): the unit price is the printed one
    /// divided by it.
    basis: Option<Decimal>,
}

/// A row's cells: its words left of `left_of` ([`words_of`]), its quantity, price and amount,
/// and the VAT rate among the numbers left over ([`vat_rate`]).
fn build_row(
    doc: &CleanDocument,
    headers: &[TableLayout],
    u: &Unit,
    numbers: RowNumbers,
    left_of: f32,
    source: RowSource,
    rates: &[Decimal],
) -> Row {
    let mut row = Row {
        lines: u.lines.clone(),
        cells: Vec::new(),
        source,
    };
    let RowNumbers {
        q,
        p,
        a,
        discount,
        basis,
    } = numbers;
    // A quantity printed first (`10  Stk  Kaffeebohnen  5,00  50,00`, `QTY  DESCRIPTION  PRICE
    // AMOUNT`): the words run up to the price and amount, the quantity's token passed over.
    let line0 = u.lines[0];
    // Words of a description printed between the quantity and the price (not its unit: `15,0000
    // Stk.  20  12,0000` after digit-only article numbers is no quantity printed first).
    let named_after = |n: &Num| {
        let until = p
            .map(|p| &u.nums[p])
            .filter(|pn| pn.line == line0)
            .map_or(u.nums[a].x0, |pn| pn.x0);
        doc.lines[line0].tokens.iter().any(|t| {
            t.bbox.x0 >= n.x1
                && t.bbox.x1 <= until
                && t.text.chars().filter(|c| c.is_alphabetic()).count() >= 2
                && !is_unit_word(&t.text)
        })
    };
    let leading_qty = q.map(|q| &u.nums[q]).filter(|n| {
        n.line == line0
            && !words_left_of(&doc.lines[line0], n.x0)
            && (named_after(n) || !codes_left_of(&doc.lines[line0], n.x0))
    });
    let left_of = match leading_qty {
        Some(_) => [p, Some(a)]
            .into_iter()
            .flatten()
            .map(|i| &u.nums[i])
            .filter(|n| n.line == line0)
            .map(|n| n.x0)
            .fold(f32::MAX, f32::min)
            .max(left_of),
        None => left_of,
    };
    words_of(
        doc,
        headers,
        &mut row,
        line0,
        left_of,
        q.map(|q| &u.nums[q]),
        discount.map(|d| &u.nums[d]),
    );
    borrowed_words(doc, u, &mut row, [q, p, Some(a)]);
    let columns = [
        (LabelKey::ColQty, q),
        (LabelKey::ColUnitPrice, p),
        (LabelKey::ColDiscount, discount),
        (LabelKey::ColAmount, Some(a)),
    ];
    for (key, i) in columns {
        if let Some(i) = i {
            let mut cell = num_cell(doc, key, &u.nums[i]);
            // The price of one unit, the printed price for `basis` units (its text as printed).
            if key == LabelKey::ColUnitPrice
                && let Some(b) = basis
            {
                cell.amount = cell.amount.map(|v| (v / b).normalize());
            }
            row.cells.push(cell);
        }
    }
    let used: Vec<usize> = [q, p, Some(a), discount].into_iter().flatten().collect();
    let cols = (
        rate_column(doc, headers, u.lines[0]),
        header_column(doc, headers, u.lines[0], LabelKey::ColDiscount),
    );
    let rate = vat_rate(&u.nums, &used, rates, cols).or_else(|| confirmed_rate(&u.nums, &used, a));
    if let Some(r) = rate {
        row.cells.push(num_cell(doc, LabelKey::ColVatRate, r));
    }
    let rate = rate.map(|r| r.value);
    let net_price = match (p, rate) {
        (Some(p), Some(r)) if basis.is_none() && discount.is_none() => {
            net_price_left_of(&doc.lines[u.nums[p].line], &u.nums, &used, p, r)
        }
        _ => None,
    };
    if let Some(n) = net_price {
        // The price the arithmetic used is the price with VAT: the one left of it is the unit
        // price, the amount the amount with VAT (the net amount is the fields' to derive).
        for cell in row.cells.iter_mut() {
            match cell.key {
                LabelKey::ColUnitPrice => *cell = num_cell(doc, LabelKey::ColUnitPrice, &n),
                LabelKey::ColAmount => cell.key = LabelKey::ColAmountGross,
                _ => {}
            }
        }
        return row;
    }
    for (key, i) in vat_columns(&u.nums, &used, a, rate, rates) {
        row.cells.push(num_cell(doc, key, &u.nums[i]));
    }
    row
}

/// The net amount of a row priced both ways ([`net_price_left_of`]: its amount the amount with
/// VAT): quantity x unit price, to the amount with VAT's decimals. None for other rows.
fn net_of_row_priced_both_ways(row: &Row) -> Option<Decimal> {
    let gross = row.cell(LabelKey::ColAmountGross)?.amount?;
    let q = row.cell(LabelKey::ColQty)?.amount?;
    let p = row.cell(LabelKey::ColUnitPrice)?.amount?;
    Some(q.checked_mul(p)?.round_dp_with_strategy(
        gross.scale(),
        rust_decimal::RoundingStrategy::MidpointAwayFromZero,
    ))
}

/// A row priced both ways, as shops print it (`Toimistotuoli  2,5  537,26  25,5%  674,26
/// 1685,65`: the unit price, the rate, the unit price with VAT, the amount with VAT; the net
/// amount printed nowhere): the price `p` that the row's quantity x price = amount used is, to
/// the rounding of both, a price printed left of it on its line plus the row's `rate`. That one
/// (of the numbers none of `used`, or two of them one space apart read as one where OCR split
/// its digits: `10 50,58`, or inside a group: `233.8 98`) is the unit price. Prices print cents, or whole units as the price with VAT
/// does where the currency has none (`11.622  18%  13.714  41.142` HUF).
fn net_price_left_of(
    line: &Line,
    nums: &[Num],
    used: &[usize],
    p: usize,
    rate: Decimal,
) -> Option<Num> {
    let price = &nums[p];
    if rate <= Decimal::ZERO || price.value.is_zero() {
        return None;
    }
    let factor = (Decimal::ONE_HUNDRED + rate) / Decimal::ONE_HUNDRED;
    let free = |i: usize| {
        let n = &nums[i];
        !used.contains(&i) && !n.percent && n.line == price.line && n.x1 <= price.x0
    };
    let singles = (0..nums.len())
        .filter(|&i| free(i))
        .map(|i| nums[i].clone());
    let joined = (1..nums.len())
        .filter(|&k| free(k - 1) && free(k))
        .filter_map(|k| joined_pair(line, &nums[k - 1], &nums[k], None));
    singles.chain(joined).find(|n| {
        // Half a unit of each price's last digit, the net one's grown by the rate.
        let unit = |d: u32| Decimal::new(1, d.min(28)) / Decimal::TWO;
        let slack = unit(price.decimals) + unit(n.decimals) * factor;
        n.decimals >= price.decimals.min(2)
            && n.value.is_sign_positive() == price.value.is_sign_positive()
            && n.value.abs() < price.value.abs()
            && n.value
                .checked_mul(factor)
                .is_some_and(|g| (g - price.value).abs() <= slack)
    })
}

/// A rate printed as a bare number that no column name or tax summary marks as one (`23`
/// between `860,00` and `197,80  1 057,80`): the row's where the VAT and the amount with VAT it
/// leaves over are of that rate (amount x rate = VAT, amount + VAT = gross: [`vat_columns`]).
fn confirmed_rate<'a>(nums: &'a [Num], used: &[usize], a: usize) -> Option<&'a Num> {
    (0..nums.len())
        .filter(|i| !used.contains(i))
        .find(|&i| {
            let n = &nums[i];
            let with: Vec<usize> = used.iter().copied().chain([i]).collect();
            !n.percent
                && n.decimals <= 1
                && n.value > Decimal::ZERO
                && n.value < Decimal::ONE_HUNDRED
                && vat_columns(nums, &with, a, Some(n.value), &[]).len() == 2
        })
        .map(|i| &nums[i])
}

/// A row's VAT amount and amount with VAT among the numbers it leaves over (indices into
/// `nums`, none of `used`), by the arithmetic they must satisfy with its amount `a`: `a + vat =
/// gross` to the cent, `vat` the row's rate of `a` (of the document's `rates` where the row
/// prints none); or, printed alone, a gross of `a` plus its rate, a VAT of its rate.
fn vat_columns(
    nums: &[Num],
    used: &[usize],
    a: usize,
    rate: Option<Decimal>,
    rates: &[Decimal],
) -> Vec<(LabelKey, usize)> {
    let amount = nums[a].value;
    let cent = Decimal::new(1, 2);
    let free: Vec<usize> = (0..nums.len())
        .filter(|i| {
            let n = &nums[*i];
            !used.contains(i) && !n.percent && n.decimals == 2 && !n.value.is_zero()
        })
        .collect();
    let share = |v: Decimal, r: Decimal| {
        let expected = amount * r / Decimal::ONE_HUNDRED;
        (v - expected).abs() <= cent.max(expected.abs() * Decimal::new(5, 3))
    };
    let of_rate = |v: Decimal| match rate {
        Some(r) => share(v, r),
        None => rates.iter().any(|&r| !r.is_zero() && share(v, r)),
    };
    for &v in &free {
        for &g in &free {
            let (vv, gv) = (nums[v].value, nums[g].value);
            if v != g && (amount + vv - gv).abs() <= cent && of_rate(vv) {
                return vec![(LabelKey::ColVatAmount, v), (LabelKey::ColAmountGross, g)];
            }
        }
    }
    let Some(r) = rate.filter(|r| !r.is_zero()) else {
        return Vec::new();
    };
    let gross = amount + amount * r / Decimal::ONE_HUNDRED;
    if let Some(&g) = free
        .iter()
        .find(|&&g| (nums[g].value - gross).abs() <= cent)
    {
        return vec![(LabelKey::ColAmountGross, g)];
    }
    free.iter()
        .find(|&&v| share(nums[v].value, r) && nums[v].value != r)
        .map(|&v| vec![(LabelKey::ColVatAmount, v)])
        .unwrap_or_default()
}

/// A row whose numbers sit on the line under its name (a cell of several lines with its
/// numbers set at its foot: `Mineralwasser Medium  5,49  20` over `4000001234561  12 x 1,0l
/// PET  109,80`): that line's words under the description, left of the numbers, are the
/// name's next line (the article number left of the description column is none of it, nor a
/// date or period, nor a `Key: value` attribute line: `EAN: 3620323003387  250,00`).
fn borrowed_words(doc: &CleanDocument, u: &Unit, row: &mut Row, used: [Option<usize>; 3]) {
    let Some(b) = u.borrowed else { return };
    let Some(desc) = row.cells.iter().position(|c| c.key == LabelKey::ColDesc) else {
        return;
    };
    let Some(until) = used
        .into_iter()
        .flatten()
        .map(|i| &u.nums[i])
        .filter(|n| n.line == b)
        .map(|n| n.x0)
        .reduce(f32::min)
    else {
        return;
    };
    let l = &doc.lines[b];
    if is_keyed(l) {
        return;
    }
    let h = l.bbox.height().max(1.0);
    let x0 = row.cells[desc].span.bbox.x0;
    let mut span: Option<(usize, usize)> = None;
    for (t, &(s, e)) in l.tokens.iter().zip(&l.token_spans) {
        if t.bbox.x1 > until || is_rotated(t) {
            continue;
        }
        if span.is_none() && (t.bbox.x0 < x0 - 0.5 * h || is_code(&t.text)) {
            continue;
        }
        span = Some(span.map_or((s, e), |(a, _)| (a, e)));
    }
    let Some((s, e)) = span else { return };
    let text = collapse_spaces(&l.text[s..e]);
    let worded = text
        .split(|c: char| !c.is_alphabetic())
        .any(|w| w.chars().count() >= 3);
    // A rate's note (`9% PVM`) is the row's tax, no word of its name.
    let rate_note = text.split_whitespace().any(|w| w.ends_with('%'));
    if !worded || rate_note || !super::dates::find_dates(&text, false).is_empty() {
        return;
    }
    continue_name(&mut row.cells[desc].text, &text);
}

/// A description's next line added to its text: after a space, or glued to a word broken at its
/// hyphen or slash (`Beamer-` / `Deckenhalterung`).
/// How many times the distance between the middles of two lines must exceed every other
/// distance between the lines of a run ([`row_break`]) to be the space a table keeps between
/// its rows (its rows' lines print 10 points apart, the rows 17).
const ROW_BREAK: f32 = 1.3;

/// Of the lines from row line `a` to row line `b` (two rows' first lines, `a < b`, one page),
/// the first that is `b`'s row's. Where the distance between two neighbouring lines' middles
/// stands out above every other of the run (at least [`ROW_BREAK`] times: the space a table
/// keeps between its rows), and the others are alike (a line's distance), the lines under it
/// belong to `b`: its name printed over its numbers, as tables whose cells align to the middle
/// or the bottom print it. Without such a gap, or with it right above `b`, every line between
/// is `a`'s (returns `b`).
pub(super) fn row_break(doc: &CleanDocument, a: usize, b: usize) -> usize {
    if b <= a + 1 || b >= doc.lines.len() || doc.lines[a].page != doc.lines[b].page {
        return b;
    }
    let pitches: Vec<f32> = doc.lines[a..=b]
        .windows(2)
        .map(|w| w[1].bbox.cy() - w[0].bbox.cy())
        .collect();
    let Some((j, &widest)) = pitches.iter().enumerate().max_by(|x, y| x.1.total_cmp(y.1)) else {
        return b;
    };
    let (lo, others) = pitches
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != j)
        .fold((f32::MAX, 0.0f32), |(lo, hi), (_, &p)| {
            (lo.min(p), hi.max(p))
        });
    // Every other distance a line's: two wide gaps (a row, its note set apart under it, the
    // next row) tell no row's lines from another's.
    let lines_apart = others > 0.0 && others <= ROW_BREAK * lo;
    if j + 1 < pitches.len() && lines_apart && widest >= ROW_BREAK * others {
        a + 1 + j
    } else {
        b
    }
}

/// A group's heading over its rows (`Titel 2: Erdarbeiten`, `Section 1`, `3  Hardware` over
/// rows numbered `3.1`, `3.2`): a line of text opening with a word and a small number, or, over
/// a row with a position of its own (`positioned`), with a small number and a word. Printed
/// under the space that ends the rows above, it heads the rows under it, it is no part of the
/// first one's name.
pub(super) fn heading_line(line: &Line, positioned: bool) -> bool {
    let small = |t: &str| {
        let t = t.trim_end_matches(['.', ':', ')']);
        (1..=2).contains(&t.len()) && t.chars().all(|c| c.is_ascii_digit())
            || !t.is_empty() && t.chars().all(|c| matches!(c, 'I' | 'V' | 'X'))
    };
    let mut words = line.text.split_whitespace();
    let (Some(a), Some(b)) = (words.next(), words.next()) else {
        return false;
    };
    let titled = a.chars().count() >= 3
        && a.chars().all(char::is_alphabetic)
        && a.chars().next().is_some_and(char::is_uppercase)
        && small(b);
    titled || positioned && small(a) && b.chars().next().is_some_and(char::is_alphabetic)
}

/// How much smaller than a row's numbers a text layer's line prints to be small print
/// ([`small_print`]): 7.5 points under 8.5 are 0.88, 0.92 where the words carry accents (a
/// word's box grows by the accent, 4 %, the digits' never).
const SMALL_PRINT: f32 = 0.93;

/// The height of tokens printed in one size, as a text layer's boxes (the font's, not the ink's)
/// give it: all within 5 % of each other (an accent grows a word's box by 4 %); 0 for mixed
/// heights (an OCR's invisible text layer boxes each word's ink).
fn print_size(tokens: &[Token]) -> f32 {
    let (lo, hi) = tokens
        .iter()
        .map(|t| t.bbox.height())
        .fold((f32::MAX, 0.0f32), |(lo, hi), h| (lo.min(h), hi.max(h)));
    if tokens.is_empty() || hi > 1.05 * lo {
        0.0
    } else {
        hi
    }
}

/// The print size of a line's numbers ([`print_size`]): a row's size.
pub(super) fn numbers_size(line: &Line) -> f32 {
    let numbers: Vec<Token> = line
        .tokens
        .iter()
        .filter(|t| token_number(&t.text, None).is_some())
        .cloned()
        .collect();
    print_size(&numbers)
}

/// Tokens of a text layer (whose boxes are the font's, not the ink's) printed smaller than
/// [`SMALL_PRINT`] of `size`, the height of a row's numbers: small print under an item's name (a
/// component, a serial number, a service period), an attribute of the row, not its name.
pub(super) fn small_print(doc: &CleanDocument, page: u32, tokens: &[Token], size: f32) -> bool {
    let text_layer = doc
        .page(page)
        .is_some_and(|p| p.source == crate::result::Source::TextLayer);
    let printed = print_size(tokens);
    text_layer && printed > 0.0 && printed < SMALL_PRINT * size
}

pub(super) fn continue_name(name: &mut String, more: &str) {
    if !name.ends_with(['-', '/']) {
        name.push(' ');
    }
    name.push_str(more);
}

/// Lines set tight under (or, for a row without words, just above) a row continue its
/// description.
/// What bounds a row's continuation lines ([`continue_description`]): lines that end
/// descriptions (`stops`), the first lines of rows (`starts`), those of rows without words of
/// their own (`wordless`, which take the line above them), the table's end and its header.
#[derive(Clone, Copy)]
struct Continuation<'a> {
    stops: &'a [bool],
    starts: &'a [usize],
    wordless: &'a [usize],
    end_line: usize,
    /// The column header's line over the first row.
    header: Option<usize>,
}

/// A sub-line that prints only a date or a period (`01.01.2026 - 31.12.2026`, `26 november
/// 2021 - 26 november 2021`, `15/12/2020-15/12/2020`): when the item was delivered or the period
/// it bills, an attribute of the row, not its name's next line. Besides its dates the line holds
/// at most one short connecting word (`bis`, `to`, `au`, `до`).
pub(super) fn period_line(l: &Line) -> bool {
    period_text(&l.text)
}

/// An attribute line of a row, no line of its name: a `Key: value` ([`is_keyed`]), a price
/// ([`priced_line`]) or a period ([`period_line`]).
pub(super) fn attribute_line(l: &Line) -> bool {
    is_keyed(l) || priced_line(l) || period_line(l)
}

/// The parts of a line, between column gaps (two spaces or more), that print only a date or a
/// period (`VPS Medium  01-03-2026 - 31-03-2026  € 24,00`, a folio's `11/02/2026  Chambre`):
/// a column of dates, when the item was delivered or the period it bills, not its name, its
/// article number or its numbers.
pub(super) fn period_segments(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = text[start..].find("  ").map_or(text.len(), |g| start + g);
        let part = text[start..end].trim();
        // A date prints four digits at least (`1.2.24`); most cells are no date (cheap test
        // first: this runs on every row).
        let digits = part.bytes().filter(u8::is_ascii_digit).count();
        if digits >= 4 && period_text(part) {
            out.push((start, end));
        } else if digits >= 4
            && start == 0
            && let Some(d) = dates_in(part).into_iter().find(|d| d.start == 0)
            && part[d.end..].starts_with(' ')
            && part[d.end..].trim_start().starts_with(char::is_alphabetic)
        {
            // A date opening the line one space before a name (`16 december 2021
            // Konsulttjänster`: a folio's long date touching its description column).
            out.push((0, d.end));
        } else if digits >= 8
            && let Some(e) = period_before_number(part)
        {
            // A period one space before the next column's number (`31/01/2026 - 28/02/2026
            // 7.118 kWh`: a scan's or a long period's gap closed up).
            out.push((start, start + e));
        }
        start = end + 2;
        while text[start.min(text.len())..].starts_with(' ') {
            start += 1;
        }
    }
    out
}

/// Where a text opening with a period (two dates with a dash between, spaces or none:
/// [`period_text`]) ends, where a number follows one space after it: the period's end.
fn period_before_number(text: &str) -> Option<usize> {
    text.char_indices()
        .filter(|&(i, c)| c == ' ' && text[i + 1..].starts_with(|c: char| c.is_ascii_digit()))
        .map(|(i, _)| i)
        .find(|&i| {
            let head = &text[..i];
            head.contains(['-', '–', '—'])
                && (dates_in(head).len() >= 2 || glued_period(head))
                && period_text(head)
        })
}

/// The dates a text prints, read day first unless it prints none so.
fn dates_in(text: &str) -> Vec<super::dates::DateMatch> {
    let day_first = super::dates::find_dates(text, false);
    if day_first.is_empty() {
        super::dates::find_dates(text, true)
    } else {
        day_first
    }
}

/// A period printed without spaces (`15/12/2020-15/12/2020`, `2024-07-27-2024-07-27`): a
/// dash between two whole dates.
fn glued_period(t: &str) -> bool {
    let whole_date = |x: &str| dates_in(x).iter().any(|d| d.start == 0 && d.end == x.len());
    t.char_indices().any(|(i, c)| {
        matches!(c, '-' | '–' | '—') && whole_date(&t[..i]) && whole_date(&t[i + c.len_utf8()..])
    })
}

/// Whether a text prints only a date or a period ([`period_line`]).
fn period_text(text: &str) -> bool {
    let mut any_glued = false;
    let text: String = text
        .split(' ')
        .map(|t| {
            let g = glued_period(t);
            any_glued |= g;
            if g { "" } else { t }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let dates = dates_in(&text);
    if dates.is_empty() && !any_glued {
        return false;
    }
    let mut rest = String::new();
    let mut pos = 0;
    for d in &dates {
        rest.push_str(text.get(pos..d.start).unwrap_or(""));
        rest.push(' ');
        pos = d.end.max(pos);
    }
    let tail = text.get(pos..).unwrap_or("");
    rest.push_str(tail);
    let words: Vec<&str> = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    // After the last of its dates a line holds at most a year's abbreviation (`г.`, `m.`,
    // `r.`): a longer word there is a name after a date (`16 december 2021 Logi`).
    let after_last = tail.chars().filter(|c| c.is_alphabetic()).count();
    words.len() <= 1
        && after_last <= 2
        && words
            .iter()
            .all(|w| w.chars().count() <= 4 && w.chars().all(char::is_alphabetic))
}

/// A sub-line under an item's name that prints a price (`1 m = 283,44`, `Brutto 9,90`) or
/// opens with a rate (`25,5% ALV`): an attribute of the row, not its name's next line (a name
/// may hold a percentage: `Mleko 2%`, a discount `(-20%)`).
pub(super) fn priced_line(l: &Line) -> bool {
    let opens_with_rate = l.tokens.first().is_some_and(|t| {
        t.text.starts_with(|c: char| c.is_ascii_digit())
            && token_number(&t.text, None).is_some_and(|(_, _, percent)| percent)
    });
    opens_with_rate
        || l.tokens.iter().any(|t| {
            t.text == "="
                || t.text.starts_with('=') && t.text.chars().any(|c| c.is_ascii_digit())
                || token_number(&t.text, None)
                    .is_some_and(|(_, decimals, percent)| !percent && decimals == 2)
        })
        // A price OCR broke with a space (`Brutto: 38,6 4`).
        || !super::amounts::joined_readings(&l.text, None).is_empty()
}

fn continue_description(
    doc: &CleanDocument,
    bounds: &Continuation<'_>,
    row: &mut Row,
    used: &mut Vec<usize>,
    h: f32,
) {
    let Continuation {
        stops,
        starts,
        wordless,
        end_line,
        header,
    } = *bounds;
    let last = *row.lines.iter().max().unwrap_or(&0);
    let first = *row.lines.iter().min().unwrap_or(&0);
    // The height of the row's numbers: lines (and a name) printed smaller are small print.
    let size = numbers_size(&doc.lines[first]);
    let small = |k: usize| small_print(doc, doc.lines[k].page, &doc.lines[k].tokens, size);
    // A name on the numbers' line in small print or an attribute (numbers set on the middle or
    // the last line of a row: a detail line's) is none where the row's name is printed above it.
    let desc_x0 = row.cell(LabelKey::ColDesc).map(|c| c.span.bbox.x0);
    let small_name = row.cell(LabelKey::ColDesc).is_some_and(|c| {
        super::tables::small_cell(doc, c, size) || super::tables::sub_line_cell(&c.text)
    });
    // The row prints a name of its own (not only an article number).
    let named = row.named();
    // A line of text: some word that is not a number (`20/0500`, `(GTIN)`, `Banane`), and no
    // price or rate of its own ([`priced_line`]).
    let fits = |k: usize| {
        let l = &doc.lines[k];
        !attribute_line(l)
            && !stops.get(k).copied().unwrap_or(false)
            && l.tokens.iter().any(|t| {
                // A small number in brackets ends a name wrapped onto its own line (`Licence
                // (11)`): no amount prints so in a description's column.
                let numbering = t
                    .text
                    .strip_prefix('(')
                    .and_then(|x| x.strip_suffix(')'))
                    .is_some_and(|x| {
                        (1..=3).contains(&x.len()) && x.chars().all(|c| c.is_ascii_digit())
                    });
                !is_rotated(t)
                    && t.text.chars().any(|c| c.is_alphanumeric())
                    && (numbering || token_number(&t.text, None).is_none() && !is_code(&t.text))
            })
    };
    let margin_only = |l: &Line| l.tokens.iter().all(is_rotated);
    // A line of article numbers only (`4012345001235`, `TB-100A4`): inside a description printed
    // over several lines, between two of its lines of text.
    let codes_only = |k: usize| {
        let l = &doc.lines[k];
        let upright: Vec<&Token> = l.tokens.iter().filter(|t| !is_rotated(t)).collect();
        !upright.is_empty()
            && !is_keyed(l)
            && !priced_line(l)
            && !stops.get(k).copied().unwrap_or(false)
            && upright.iter().all(|t| is_code(&t.text))
    };
    // `b` printed under `a` at most `lines` heights away.
    let within =
        |a: &Line, b: &Line, lines: f32| a.page == b.page && b.bbox.y0 - a.bbox.y1 <= lines * h;
    let tight = |a: &Line, b: &Line| within(a, b, 0.8);
    let mut extra: Vec<usize> = Vec::new();
    // A row without words under a line of text set right above it, less than a line's height
    // and a fifth away (a till slip's `Flat white` / `2 x 4.08  8.16`): that line is its
    // description, not the next one; a header's line of units (`(RM) (RM)`) is none (under
    // a row, `(jour)` may end a name).
    // The row's attribute lines (a price, `Brutto: 901,32`; a service period) may stand
    // between that line and the numbers, each as tight.
    let free = |a: usize| !starts.contains(&a) && !used.contains(&a);
    let mut subs: Vec<usize> = Vec::new();
    let mut top = first;
    while desc_x0.is_none()
        && let Some(a) = top.checked_sub(1)
        && free(a)
        && attribute_line(&doc.lines[a])
        && within(&doc.lines[a], &doc.lines[top], 1.2)
    {
        subs.push(a);
        top = a;
    }
    // Past attribute lines, the name is a row's under a row or a column header (or another
    // line that ends rows) above it: over a till slip's first row, its head is no name.
    let page = doc.lines[first].page;
    let bounded = |a: usize| {
        subs.is_empty()
            || starts.iter().any(|&s| s < a)
            || (0..a).any(|l| doc.lines[l].page == page && stops.get(l).copied().unwrap_or(false))
    };
    // A line that may print the name: free, of text, no header's line of units (`(RM) (RM)`).
    let name_line = |a: usize| free(a) && fits(a) && !super::tables::units_line(&doc.lines[a]);
    let above = top.checked_sub(1).filter(|&a| {
        desc_x0.is_none()
            && bounded(a)
            && name_line(a)
            && within(&doc.lines[a], &doc.lines[top], 1.2)
    });
    // Lines of the row that print no part of its name: small print.
    let mut quiet: Vec<usize> = Vec::new();
    if above.is_some() {
        quiet.extend(subs);
    }
    // Where a table keeps space between its rows, the lines under the space are the next row's.
    let next_row = starts
        .iter()
        .find(|&&s| s > first)
        .map_or(usize::MAX, |&s| row_break(doc, first, s));
    let mut k = last + 1;
    let mut prev_k = last;
    while above.is_none() && k < end_line.max(last + 1) && k < doc.lines.len() && k < next_row {
        if starts.contains(&k) || used.contains(&k) {
            break;
        }
        let prev = &doc.lines[prev_k];
        let line = &doc.lines[k];
        if margin_only(line) {
            k += 1;
            continue;
        }
        if !tight(prev, line) {
            break;
        }
        if small(k) && !stops.get(k).copied().unwrap_or(false) {
            quiet.push(k);
            prev_k = k;
            k += 1;
            continue;
        }
        // A word broken at its hyphen (`Unsere Art.-` / `Nr.: TB100A4`) goes on, whatever the
        // line looks like (a key of its own here).
        let hyphen_above = match extra.last() {
            Some(&e) => doc.lines[e].text.trim_end().ends_with('-'),
            None => row
                .cell(LabelKey::ColDesc)
                .is_some_and(|c| c.text.trim_end().ends_with('-')),
        };
        let broken = hyphen_above
            && is_keyed(line)
            && !priced_line(line)
            && !stops.get(k).copied().unwrap_or(false);
        if !fits(k) && !broken {
            // Article numbers between two lines of the description belong to it.
            let bridged = codes_only(k)
                && k + 1 < end_line
                && !starts.contains(&(k + 1))
                && !used.contains(&(k + 1))
                && doc.lines.get(k + 1).is_some_and(|next| tight(line, next))
                && fits(k + 1);
            if !bridged {
                break;
            }
        }
        // Under a row with a name of its own, the name line of the next row, a row without
        // words right under it (`Wasser  0,89` / `Kaffee` / `3 x 4.29  12.87`), is that row's.
        // (Rows without words that print their names below them, `1 X 2.00  2.00` / `NAIL`,
        // keep taking the line under them.)
        if named
            && wordless.contains(&(k + 1))
            && doc
                .lines
                .get(k + 1)
                .is_some_and(|next| within(line, next, 1.2))
        {
            break;
        }
        extra.push(k);
        prev_k = k;
        k += 1;
    }
    if let Some(above) = above {
        extra.push(above);
        // The name's earlier lines, set tight over it (`Licencja oprogramowania` over
        // `roczna`), nearest first, up to the row above (over the first row, a till slip's
        // head is no name) and no group's heading.
        let mut l = above;
        let positioned = row.cell(LabelKey::ColPos).is_some();
        while let Some(u) = l.checked_sub(1)
            && starts.iter().any(|&s| s < u)
            && name_line(u)
            && !heading_line(&doc.lines[u], positioned)
            && tight(&doc.lines[u], &doc.lines[l])
        {
            extra.push(u);
            l = u;
        }
    } else if row.cell(LabelKey::ColDesc).is_some() || desc_x0.is_some() {
        // The lines under the space that ends the row above: this row's name (and its small
        // print) printed over its numbers; nearest first, each put before the name.
        if let Some(p) = starts
            .iter()
            .rev()
            .find(|&&s| s < first)
            .copied()
            .or(header)
        {
            let top = row_break(doc, p, first);
            let positioned = row.cell(LabelKey::ColPos).is_some();
            for l in (top..first).rev() {
                // A totals line or a header ends what is over the row.
                if stops.get(l).copied().unwrap_or(false) {
                    break;
                }
                if used.contains(&l) || starts.contains(&l) || margin_only(&doc.lines[l]) {
                    continue;
                }
                let heading = l == top && heading_line(&doc.lines[l], positioned);
                if small(l) || !fits(l) || heading {
                    quiet.push(l);
                } else {
                    extra.push(l);
                }
            }
        }
        if small_name && extra.iter().any(|&l| l < first) {
            row.cells.retain(|c| c.key != LabelKey::ColDesc);
        }
    }
    for &l in &quiet {
        used.push(l);
        row.lines.push(l);
    }
    let desc_x0 = desc_x0.or_else(|| {
        // Where the description column starts: the first non-code word of the extra lines.
        extra.iter().find_map(|&l| {
            doc.lines[l]
                .tokens
                .iter()
                .find(|t| !is_code(&t.text))
                .map(|t| t.bbox.x0)
        })
    });
    // The discount the row's arithmetic used, printed after the name on a line of its own
    // (`Hooldus kuutasu (-15%)` over the row's numbers): no part of the name.
    let discount = row
        .cell(LabelKey::ColDiscount)
        .map(|c| (c.span.line, c.span.start, c.span.end));
    for &l in &extra {
        used.push(l);
        let line = &doc.lines[l];
        let mut desc: Option<(usize, usize)> = None;
        let mut sku: Option<(usize, usize)> = None;
        let mut first_word = true;
        let last_token = line.tokens.len().saturating_sub(1);
        for (k, (t, &(s, e))) in line.tokens.iter().zip(&line.token_spans).enumerate() {
            if is_rotated(t) || discount.is_some_and(|(dl, ds, de)| dl == l && s < de && e > ds) {
                continue;
            }
            // The amount's currency wrapped onto the row's next line, alone or a column gap
            // after the name's words (`(-15%)  EUR`, `EAN: 5784802678604  EUR`): no word of
            // the name.
            if k == last_token
                && (k == 0 || line.text[..s].ends_with("  "))
                && super::amounts::currency_of_word(&t.text).is_some()
            {
                continue;
            }
            // The row's position leading its description's line above its numbers (`1
            // Kaffeebohnen` over `10 Stk 5,00 50,00`).
            if std::mem::replace(&mut first_word, false)
                && l < first
                && is_position(&t.text, line)
                && !t.text.starts_with('.')
                && row.cell(LabelKey::ColPos).is_none()
            {
                row.cells.push(text_cell(doc, LabelKey::ColPos, l, s, e));
                continue;
            }
            let left = desc_x0.is_some_and(|x| t.bbox.x1 < x - 0.5 * h);
            let gtin = t.text.len() >= 8 && t.text.chars().all(|c| c.is_ascii_digit());
            if gtin || desc.is_none() && (left || is_code(&t.text) && desc_x0.is_none()) {
                sku = Some(sku.map_or((s, e), |(a, _)| (a, e)));
                continue;
            }
            desc = Some(desc.map_or((s, e), |(a, _)| (a, e)));
        }
        row.lines.push(l);
        if let Some((s, e)) = sku
            && row.cell(LabelKey::ColSku).is_none()
        {
            row.cells.push(text_cell(doc, LabelKey::ColSku, l, s, e));
        }
        if let Some((s, e)) = desc {
            let text = collapse_spaces(&line.text[s..e]);
            match row.cells.iter_mut().find(|c| c.key == LabelKey::ColDesc) {
                // A line printed twice (a name and its copy under it) names the item once.
                Some(c) if c.text == text && l < first => {}
                Some(c) if l < first => c.text = format!("{text} {}", c.text),
                Some(c) => continue_name(&mut c.text, &text),
                None => row.cells.push(text_cell(doc, LabelKey::ColDesc, l, s, e)),
            }
        }
    }
    row.lines.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::tests::{page_doc, word as w};
    use crate::types::Word;

    #[test]
    fn a_quantity_glued_to_its_unit_is_a_number() {
        assert_eq!(glued_unit("10м"), Some(("10", "м")));
        assert_eq!(glued_unit("2,5kg"), Some(("2,5", "kg")));
        assert_eq!(glued_unit("A4"), None);
        assert_eq!(glued_unit("4K"), None);
        assert_eq!(glued_unit("778.9l"), None);
        assert_eq!(glued_unit("0,5m"), None);
        // Under a quantity's name, one letter after decimals is its unit, not a misread digit.
        assert_eq!(glued_quantity_unit("0,5m"), Some(("0,5", "m")));
        assert_eq!(glued_quantity_unit("2,5kg"), Some(("2,5", "kg")));
        assert_eq!(glued_quantity_unit("778.9l"), None);
        assert_eq!(token_number("1кг", None).map(|n| n.0), Some(Decimal::ONE));
        assert_eq!(token_number("12ab", None), None);
    }

    #[test]
    fn a_narrow_number_is_no_vertical_note() {
        let token = |text: &str, w: f32, h: f32| Token {
            text: text.into(),
            bbox: crate::types::BBox::new(0.0, 0.0, w, h),
            confidence: 1.0,
        };
        assert!(!is_rotated(&token("0,5", 45.0, 52.0)));
        assert!(is_rotated(&token("Copyright", 20.0, 120.0)));
        assert!(is_rotated(&token("2014", 10.0, 30.0)));
        // A scan's short word boxed the height of its line, about square, is upright.
        assert!(!is_rotated(&token("top", 37.2, 37.5)));
        assert!(!is_rotated(&token("A4,", 37.2, 37.5)));
    }

    #[test]
    fn a_bare_rate_is_the_rows_where_its_vat_and_gross_hold() {
        let row = |y: f32, name: &str, nums: [&str; 6]| {
            let mut v = vec![w(name, 45.0, y)];
            for (n, x) in nums.iter().zip([260.0, 320.0, 380.0, 410.0, 460.0, 540.0]) {
                v.push(r(n, x, y));
            }
            v
        };
        let mut words = row(
            100.0,
            "Cement",
            ["20", "21,50", "430,00", "23", "98,90", "528,90"],
        );
        words.extend(row(
            115.0,
            "Poradnik",
            ["2", "59,00", "118,00", "5", "5,90", "123,90"],
        ));
        words.extend([w("Razem", 300.0, 140.0), r("548,00", 380.0, 140.0)]);
        let t = read(words).expect("rows");
        assert_eq!(column(&t, LabelKey::ColVatRate), [d("23"), d("5")]);
        assert_eq!(column(&t, LabelKey::ColVatAmount), [d("98.90"), d("5.90")]);
        assert_eq!(
            column(&t, LabelKey::ColAmountGross),
            [d("528.90"), d("123.90")]
        );
    }

    #[test]
    fn a_letterhead_repeated_over_a_continued_table_is_no_row() {
        // No header; each page's letterhead line ends with a house number right-aligned with
        // the amounts (`Fő utca 126.`; OCR reads `Győr` as `Gyór` on one page).
        let page = |top: &str, rows: &[(&str, &str, &str, &str)]| {
            let mut v = vec![w("Fő", 300.0, 20.0), w("utca", 320.0, 20.0)];
            v.extend([w(top, 345.0, 20.0), r("126.", 540.0, 20.0)]);
            for (k, (name, q, p, a)) in rows.iter().enumerate() {
                let y = 100.0 + 15.0 * k as f32;
                v.extend([w(name, 45.0, y), r(q, 280.0, y), r(p, 380.0, y)]);
                v.push(r(a, 540.0, y));
            }
            v
        };
        let doc = crate::candidates::tests::pages_doc(vec![
            page(
                "Győr",
                &[
                    ("Tanácsadás", "2", "2532", "5064"),
                    ("Szék", "3", "1000", "3000"),
                ],
            ),
            page("Gyór", &[("Papír", "12", "880", "10560")]),
        ]);
        let furniture = repeated_on_pages(&doc);
        assert_eq!(furniture.iter().filter(|f| **f).count(), 2);
        let t = super::super::extract(&doc).item_table.expect("rows");
        let amounts: Vec<Option<Decimal>> = column(&t, LabelKey::ColAmount);
        assert_eq!(amounts, [d("5064"), d("3000"), d("10560")]);
    }

    #[test]
    fn six_digits_under_the_position_header_are_the_position() {
        let t = read(vec![
            w("Pos", 30.0, 85.0),
            w("Material", 80.0, 85.0),
            w("Bezeichnung", 150.0, 85.0),
            r("Menge", 280.0, 85.0),
            r("Preis", 360.0, 85.0),
            r("Wert", 540.0, 85.0),
            w("000010", 30.0, 100.0),
            w("100234", 80.0, 100.0),
            w("Hydraulikzylinder", 150.0, 100.0),
            r("2", 280.0, 100.0),
            r("412,00", 360.0, 100.0),
            r("824,00", 540.0, 100.0),
            w("000020", 30.0, 115.0),
            w("100871", 80.0, 115.0),
            w("Dichtungssatz", 150.0, 115.0),
            r("10", 280.0, 115.0),
            r("18,75", 360.0, 115.0),
            r("187,50", 540.0, 115.0),
            w("Nettowert", 300.0, 140.0),
            r("1.011,50", 540.0, 140.0),
        ])
        .expect("rows");
        let texts = |key| -> Vec<Option<&str>> { t.rows.iter().map(|r| cell(r, key)).collect() };
        assert_eq!(texts(LabelKey::ColPos), [Some("000010"), Some("000020")]);
        assert_eq!(texts(LabelKey::ColSku), [Some("100234"), Some("100871")]);
    }

    #[test]
    fn an_outline_number_is_the_rows_position() {
        let line = |text: &str| {
            let words: Vec<Word> = text
                .split_whitespace()
                .enumerate()
                .map(|(i, t)| w(t, 30.0 + i as f32 * 60.0, 100.0))
                .collect();
            page_doc(words).lines.remove(0)
        };
        assert!(is_position("1.1", &line("1.1 Steckdose")));
        assert!(is_position("01.02.0010", &line("01.02.0010 Erdaushub")));
        assert!(is_position("12", &line("12 Steckdose")));
        // Two groups with one space after them: a size in the description.
        let doc = page_doc(vec![w("2.5", 30.0, 100.0), w("mm", 46.0, 100.0)]);
        assert!(!is_position("2.5", &doc.lines[0]));
        assert!(!is_position("1.1.", &line("1.1.")));
        assert!(!is_position("1.12345", &line("1.12345 Steckdose")));
    }

    #[test]
    fn outline_numbers_that_count_on_are_positions_however_close_the_next_word() {
        // A scan's single space after the outline number, no header: the rows' outline (`1.2`
        // by `1.1`, `2.1` by `1.1`) tells a position from a size.
        let row = |pos: &str, sku: [&str; 2], name: &str, nums: [&str; 3], y: f32| {
            let mut v = vec![w(pos, 30.0, y), w(sku[0], 50.0, y)];
            if !sku[1].is_empty() {
                v.push(w(sku[1], 75.0, y));
            }
            v.push(w(name, 140.0, y));
            v.push(r(nums[0], 330.0, y));
            v.push(r(nums[1], 420.0, y));
            v.push(r(nums[2], 520.0, y));
            v
        };
        let mut words = row(
            "1.1",
            ["ZR-3519", ""],
            "Beratung",
            ["2", "10,00", "20,00"],
            100.0,
        );
        words.extend(row(
            "1.2",
            ["Line", "7119"],
            "Montage",
            ["3", "5,00", "15,00"],
            112.0,
        ));
        words.extend(row(
            "2.1",
            ["Pack", "0717"],
            "Kabel",
            ["1", "7,00", "7,00"],
            124.0,
        ));
        words.extend([w("Summe", 300.0, 140.0), r("42,00", 520.0, 140.0)]);
        let t = read(words).expect("rows");
        let got: Vec<_> = t
            .rows
            .iter()
            .map(|r| [LabelKey::ColPos, LabelKey::ColSku, LabelKey::ColDesc].map(|k| cell(r, k)))
            .collect();
        assert_eq!(
            got,
            [
                [Some("1.1"), Some("ZR-3519"), Some("Beratung")],
                [Some("1.2"), Some("Line 7119"), Some("Montage")],
                [Some("2.1"), Some("Pack 0717"), Some("Kabel")],
            ]
        );
        // Sizes that open the rows do not count on so: no positions.
        let mut words = row("1.5", ["mm²", ""], "Kabel", ["2", "10,00", "20,00"], 100.0);
        words.extend(row(
            "2.5",
            ["mm²", ""],
            "Kabel",
            ["3", "5,00", "15,00"],
            112.0,
        ));
        words.extend([w("Summe", 300.0, 140.0), r("35,00", 520.0, 140.0)]);
        let t = read(words).expect("rows");
        assert!(
            t.rows.iter().all(|r| r.cell(LabelKey::ColPos).is_none()),
            "{:?}",
            t.rows
        );
    }

    #[test]
    fn names_over_the_numbers_past_attribute_lines_and_notes() {
        // Each item's name printed over its numbers' line, whose description column holds an
        // attribute: a service period, the gross price (`Brutto: 341,69`, no totals line after
        // the position and article number), a note after the article number (`23% VAT`), a
        // serial number; attribute lines may stand between the name and the numbers, a name
        // may run over two lines or be printed twice.
        let mut words = vec![
            w("#", 30.0, 80.0),
            w("Indeks", 45.0, 80.0),
            w("Nazwa", 100.0, 80.0),
            w("Ilość", 290.0, 80.0),
            w("Cena", 360.0, 80.0),
            w("Wartość", 430.0, 80.0),
            w("VAT", 500.0, 80.0),
        ];
        let numbers = |pos: &str, code: &[&str], desc: &[&str], n: [&str; 4], y: f32| {
            let mut v = vec![w(pos, 30.0, y)];
            let mut x = 45.0;
            for c in code {
                v.push(w(c, x, y));
                x += c.chars().count() as f32 * 5.0 + 5.0;
            }
            let mut x = 100.0;
            for d in desc {
                v.push(w(d, x, y));
                x += d.chars().count() as f32 * 5.0 + 5.0;
            }
            v.extend([
                r(n[0], 320.0, y),
                w(n[1], 325.0, y),
                r(n[2], 400.0, y),
                r(n[3], 480.0, y),
                r("23%", 520.0, y),
            ]);
            v
        };
        words.extend([w("Usługa", 100.0, 95.0), w("doradcza", 135.0, 95.0)]);
        words.extend([w("Brutto:", 100.0, 106.0), w("901,32", 140.0, 106.0)]);
        words.extend(numbers(
            "1",
            &["KV-7513"],
            &["25.05.2020", "-", "25.05.2020"],
            ["2,5", "godz.", "732,78", "1831,95"],
            117.0,
        ));
        words.extend([w("Krzesło", 100.0, 132.0), w("biurowe", 140.0, 132.0)]);
        words.extend(numbers(
            "2",
            &["L529A2"],
            &["Brutto:", "341,69"],
            ["1", "godz.", "277,80", "277,80"],
            143.0,
        ));
        words.extend([
            w("Licencja", 100.0, 158.0),
            w("oprogramowania", 145.0, 158.0),
        ]);
        words.push(w("roczna", 100.0, 169.0));
        let mut row3 = numbers(
            "3",
            &["Line", "4714"],
            &[],
            ["1", "szt.", "928,87", "928,87"],
            180.0,
        );
        row3.extend([w("23%", 110.0, 180.0), w("VAT", 130.0, 180.0)]);
        words.extend(row3);
        words.extend([w("Kabel", 100.0, 195.0), w("3x2,5", 130.0, 195.0)]);
        words.extend([w("Kabel", 100.0, 206.0), w("3x2,5", 130.0, 206.0)]);
        words.extend(numbers(
            "4",
            &["E758G3"],
            &["S/N", "Z90715476"],
            ["40", "kg", "6,37", "254,80"],
            217.0,
        ));
        // A price basis in the description's column (`1 h = 289,27`): no name, and its `1`
        // no part of the article number.
        words.push(w("Montaż", 100.0, 232.0));
        words.extend(numbers(
            "5",
            &["ZN-6915"],
            &["1", "h", "=", "289,27"],
            ["3", "h", "289,27", "867,81"],
            243.0,
        ));
        // A key without a value opens the name, continued under the numbers.
        words.extend(numbers(
            "7",
            &["SE-7588"],
            &["Palautus:"],
            ["-2,5", "h", "211,09", "-527,73"],
            295.0,
        ));
        words.push(w("Ohjelmistolisenssi", 100.0, 306.0));
        words.extend([w("Razem:", 300.0, 330.0), r("3633,50", 480.0, 330.0)]);
        let t = read(words).expect("rows");
        let got: Vec<_> = t
            .rows
            .iter()
            .map(|r| [LabelKey::ColSku, LabelKey::ColDesc].map(|k| cell(r, k)))
            .collect();
        assert_eq!(
            got,
            [
                [Some("KV-7513"), Some("Usługa doradcza")],
                [Some("L529A2"), Some("Krzesło biurowe")],
                [Some("Line 4714"), Some("Licencja oprogramowania roczna")],
                [Some("E758G3"), Some("Kabel 3x2,5")],
                [Some("ZN-6915"), Some("Montaż")],
                [Some("SE-7588"), Some("Palautus: Ohjelmistolisenssi")],
            ]
        );
    }

    #[test]
    fn a_discount_line_under_its_row_is_the_rows() {
        let words = |sub: &str, pct: Option<&str>, off: &str| {
            let mut v = vec![
                w("1", 30.0, 100.0),
                w("Bürostuhl", 45.0, 100.0),
                r("2", 280.0, 100.0),
                r("249,00", 360.0, 100.0),
                r("498,00", 540.0, 100.0),
                w(sub, 45.0, 111.0),
            ];
            if let Some(p) = pct {
                v.extend([w(p, 100.0, 111.0), w("Rabatt", 130.0, 111.0)]);
            }
            v.extend([
                r(off, 540.0, 111.0),
                w("2", 30.0, 125.0),
                w("Lampe", 45.0, 125.0),
                r("3", 280.0, 125.0),
                r("39,90", 360.0, 125.0),
                r("119,70", 540.0, 125.0),
                w("Summe", 300.0, 150.0),
                w("netto", 340.0, 150.0),
            ]);
            v
        };
        // `abzüglich 10 % Rabatt  -49,80`: the row's discount, its amount 448,20.
        let mut v = words("abzüglich", Some("10%"), "-49,80");
        v.push(r("567,90", 540.0, 150.0));
        let t = read(v).expect("rows");
        assert_eq!(column(&t, LabelKey::ColAmount), [d("448.20"), d("119.70")]);
        assert_eq!(column(&t, LabelKey::ColDiscount), [d("10"), None]);
        // An amount off that is not the printed percentage of the row stays a line of its own.
        let mut v = words("abzüglich", Some("5%"), "-20,00");
        v.push(r("597,70", 540.0, 150.0));
        let t = read(v).expect("rows");
        assert_eq!(
            column(&t, LabelKey::ColAmount),
            [d("498.00"), d("-20.00"), d("119.70")]
        );
    }

    #[test]
    fn a_bare_number_between_price_and_amount_is_the_discount_it_balances() {
        // A discount column printing `20` (no `%`) beside a VAT rate column: `5 x 393,75 less
        // 20 % = 1.575,00`; the rate stays the row's VAT rate.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("Beratung", 45.0, 100.0),
            r("5", 280.0, 100.0),
            r("393,75", 360.0, 100.0),
            r("20", 420.0, 100.0),
            r("19%", 470.0, 100.0),
            r("1.575,00", 540.0, 100.0),
            w("2", 30.0, 118.0),
            w("Montage", 45.0, 118.0),
            r("2", 280.0, 118.0),
            r("100,00", 360.0, 118.0),
            r("19%", 470.0, 118.0),
            r("200,00", 540.0, 118.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 2);
        assert_eq!(cell(&t.rows[0], LabelKey::ColUnitPrice), Some("393,75"));
        assert_eq!(cell(&t.rows[0], LabelKey::ColVatRate), Some("19%"));
        assert_eq!(cell(&t.rows[0], LabelKey::ColAmount), Some("1.575,00"));
        // Left of the price it is no discount: `20 x 393,75` is not the amount either way.
        let none = read(vec![
            w("1", 30.0, 100.0),
            w("Beratung", 45.0, 100.0),
            r("20", 250.0, 100.0),
            r("5", 280.0, 100.0),
            r("393,75", 360.0, 100.0),
            r("1.575,00", 540.0, 100.0),
        ]);
        assert!(none.is_none_or(|t| t.rows.iter().all(|r| r.source != RowSource::Balanced)));
    }

    #[test]
    fn the_discount_a_row_used_is_no_part_of_its_description() {
        // `4 x 50,00 - 10 % = 180,00`: the `(-10%)` printed after the name is the discount.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("LED-Panel", 45.0, 100.0),
            w("(-10%)", 100.0, 100.0),
            r("4", 280.0, 100.0),
            r("50,00", 380.0, 100.0),
            r("180,00", 520.0, 100.0),
            w("2", 30.0, 118.0),
            w("Kabel", 45.0, 118.0),
            w("NYM", 80.0, 118.0),
            r("2", 280.0, 118.0),
            r("10,00", 380.0, 118.0),
            r("20,00", 520.0, 118.0),
            // Glued to the word before it.
            w("3", 30.0, 136.0),
            w("Montage(-5%)", 45.0, 136.0),
            r("2", 280.0, 136.0),
            r("100,00", 380.0, 136.0),
            r("190,00", 520.0, 136.0),
        ])
        .expect("rows");
        let descriptions: Vec<_> = t.rows.iter().map(|r| cell(r, LabelKey::ColDesc)).collect();
        assert_eq!(
            descriptions,
            [Some("LED-Panel"), Some("Kabel NYM"), Some("Montage")]
        );
    }

    #[test]
    fn an_unnamed_article_column_and_priced_sub_lines_stay_out_of_descriptions() {
        // `211804  Huoltosopimus`, `Pack 1602  Toimistotuoli`: words with a digit before a column
        // gap are the article number; `25,5% ALV` and `1 kpl = 151,78` under a name are
        // attributes of the row, `MMJ 3x2,5` is the name's next line.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("211804", 45.0, 100.0),
            w("Huoltosopimus", 110.0, 100.0),
            r("10", 280.0, 100.0),
            r("178,57", 380.0, 100.0),
            r("1785,70", 520.0, 100.0),
            w("25,5%", 110.0, 110.0),
            w("ALV", 142.0, 110.0),
            w("2", 30.0, 125.0),
            w("Pack", 45.0, 125.0),
            w("1602", 68.0, 125.0),
            w("Toimistotuoli", 110.0, 125.0),
            r("12", 280.0, 125.0),
            r("151,78", 380.0, 125.0),
            r("1821,36", 520.0, 125.0),
            w("1", 110.0, 135.0),
            w("kpl", 118.0, 135.0),
            w("=", 138.0, 135.0),
            w("151,78", 146.0, 135.0),
            w("3", 30.0, 150.0),
            w("Kaapeli", 110.0, 150.0),
            r("2", 280.0, 150.0),
            r("10,00", 380.0, 150.0),
            r("20,00", 520.0, 150.0),
            w("MMJ", 110.0, 160.0),
            w("3x2,5", 130.0, 160.0),
        ])
        .expect("rows");
        let read: Vec<_> = t
            .rows
            .iter()
            .map(|r| (cell(r, LabelKey::ColSku), cell(r, LabelKey::ColDesc)))
            .collect();
        assert_eq!(
            read,
            [
                (Some("211804"), Some("Huoltosopimus")),
                (Some("Pack 1602"), Some("Toimistotuoli")),
                (None, Some("Kaapeli MMJ 3x2,5")),
            ]
        );
    }

    #[test]
    fn a_sub_line_of_dates_only_is_a_period_not_a_name() {
        let line = |text: &str| {
            let words = text
                .split(' ')
                .enumerate()
                .map(|(i, t)| w(t, 40.0 + 60.0 * i as f32, 100.0))
                .collect();
            page_doc(words).lines[0].clone()
        };
        for period in [
            "01.01.2026 - 31.12.2026",
            "26 november 2021 - 26 november 2021",
            "15/12/2020-15/12/2020",
            "2024-07-27-2024-07-27",
            "18-05-2022-18-05-2022",
            "01.03.2026 bis 31.03.2026",
            "12.05.2025",
        ] {
            assert!(period_line(&line(period)), "{period}");
        }
        for name in [
            "Wartung 01.01.2026 - 31.12.2026",
            "Kabel 3x2,5",
            "Licence logicielle annuelle",
            "Abonnement 2026",
        ] {
            assert!(!period_line(&line(name)), "{name}");
        }
    }

    #[test]
    fn a_sub_line_with_a_price_is_priced_even_where_ocr_broke_it() {
        let line = |words: Vec<Word>| page_doc(words).lines[0].clone();
        assert!(priced_line(&line(vec![
            w("Brutto:", 40.0, 100.0),
            w("38,6", 80.0, 100.0),
            w("4", 102.0, 100.0),
        ])));
        assert!(priced_line(&line(vec![
            w("Brutto:", 40.0, 100.0),
            w("38,64", 80.0, 100.0)
        ])));
        assert!(!priced_line(&line(vec![
            w("Kabel", 40.0, 100.0),
            w("3x1,5", 70.0, 100.0),
            w("mm2", 100.0, 100.0),
        ])));
        // A price basis whose equals sign OCR glued to the price.
        assert!(priced_line(&line(vec![
            w("1", 40.0, 100.0),
            w("kg", 50.0, 100.0),
            w("=57,6", 70.0, 100.0),
        ])));
    }

    /// A word ending at `x1` (a right-aligned number).
    fn r(text: &str, x1: f32, y: f32) -> Word {
        w(text, x1 - text.chars().count() as f32 * 5.0, y)
    }

    fn read(words: Vec<Word>) -> Option<TableLayout> {
        super::super::extract(&page_doc(words)).item_table
    }

    fn cell(row: &Row, key: LabelKey) -> Option<&str> {
        row.cell(key).map(|c| c.text.as_str())
    }

    /// Each row's value in a column.
    fn column(t: &TableLayout, key: LabelKey) -> Vec<Option<Decimal>> {
        t.rows
            .iter()
            .map(|r| r.cell(key).and_then(|c| c.amount))
            .collect()
    }

    fn d(s: &str) -> Option<Decimal> {
        Some(s.parse().expect("decimal"))
    }

    #[test]
    fn the_number_before_a_multiplication_sign_is_the_quantity() {
        // A till slip in whole forints: `2 × 1990` reads both ways by its arithmetic and by
        // the numbers' decimals (`1,25 × 2632` would make 2632 the quantity); the sign says
        // which is the quantity, also on a row whose numbers stand apart from the others'.
        let line = |y: f32, q: &str, p: &str, a: &str| {
            let px = 20.0 + q.chars().count() as f32 * 5.0 + 15.0;
            vec![
                w(q, 20.0, y),
                w("×", px - 10.0, y),
                w(p, px, y),
                r(a, 300.0, y),
            ]
        };
        let mut words = vec![
            w("Kenyér", 20.0, 70.0),
            r("1483", 300.0, 70.0),
            w("Alma", 20.0, 85.0),
            r("433", 300.0, 85.0),
            w("Sajt", 20.0, 100.0),
        ];
        words.extend([
            w("2", 20.0, 115.0),
            w("×", 30.0, 115.0),
            w("1990", 40.0, 115.0),
        ]);
        words.push(r("3980", 300.0, 115.0));
        // A name holding numbers where the price column stands (`Tej 2,8% 1 l`): all name.
        words.extend([
            w("Tej", 20.0, 122.0),
            w("2,8%", 40.0, 122.0),
            w("1", 65.0, 122.0),
            w("l", 72.0, 122.0),
            r("4738", 300.0, 122.0),
        ]);
        words.push(w("Ásványvíz", 20.0, 130.0));
        words.extend(line(145.0, "1,25", "2632", "3290"));
        words.push(w("Kávé", 20.0, 160.0));
        words.extend(line(175.0, "1,25", "4523", "5654"));
        words.extend([
            w("ÖSSZEG", 20.0, 200.0),
            r("19578", 280.0, 200.0),
            w("Ft", 290.0, 200.0),
        ]);
        let t = read(words).expect("rows");
        let qty = column(&t, LabelKey::ColQty);
        assert_eq!(qty[2..], [d("2"), None, d("1.25"), d("1.25")]);
        assert_eq!(
            column(&t, LabelKey::ColUnitPrice)[2..],
            [d("1990"), None, d("2632"), d("4523")]
        );
        let named: Vec<_> = t.rows.iter().map(|r| cell(r, LabelKey::ColDesc)).collect();
        assert_eq!(
            named,
            [
                Some("Kenyér"),
                Some("Alma"),
                Some("Sajt"),
                Some("Tej 2,8% 1 l"),
                Some("Ásványvíz"),
                Some("Kávé")
            ]
        );
    }

    #[test]
    fn a_dates_day_and_year_are_no_numbers_of_a_row() {
        let words: Vec<Word> = ["Betalingsschema:", "1", "februari", "2022", "€15.018,00"]
            .iter()
            .scan(40.0, |x, t| {
                let word = w(t, *x, 100.0);
                *x += t.chars().count() as f32 * 5.0 + 5.0;
                Some(word)
            })
            .collect();
        let doc = page_doc(words);
        let style = DocStyle::detect(&doc);
        let values: Vec<Decimal> = line_numbers(&doc.lines[0], &style)
            .iter()
            .map(|n| n.value)
            .collect();
        assert_eq!(values, [Decimal::new(1_501_800, 2)]);
    }

    #[test]
    fn small_print_whose_words_carry_accents() {
        let tok = |t: &str, h: f32| Token {
            text: t.into(),
            bbox: crate::types::BBox::new(0.0, 0.0, 10.0, h),
            confidence: 1.0,
        };
        // 7.5 point words under a row whose digits are 8.5 high, an accented word's box 4 %
        // taller: one size, and small print.
        let sub = [
            tok("Licencia", 7.5),
            tok("softvéru", 7.8),
            tok("ročná", 7.8),
        ];
        assert!(print_size(&sub) > 0.0);
        assert!(print_size(&sub) < SMALL_PRINT * 8.49);
        // The row's own accented words (8.84 beside its digits' 8.49) are not.
        assert!(print_size(&[tok("Poradenské", 8.84)]) >= SMALL_PRINT * 8.49);
        // Two sizes in one line: no size.
        assert_eq!(print_size(&[tok("S/N", 7.5), tok("Kabel", 8.5)]), 0.0);
    }

    #[test]
    fn names_printed_over_their_numbers_small_print_and_group_headings() {
        // Cells aligned to the bottom or the middle: a row's numbers on the last or the middle
        // line of its name and its small print (a serial number, 8.5 high beside numbers 10
        // high, as a text layer's font boxes give them); lines 10 apart inside a row, rows 18
        // apart; a group's heading over the last row.
        let small = |text: &str, x: f32, y: f32| {
            let mut v = w(text, x, y);
            v.bbox.y1 = y + 8.5;
            v
        };
        let nums =
            |y: f32, q: &str, p: &str, a: &str| [r(q, 280.0, y), r(p, 400.0, y), r(a, 540.0, y)];
        let mut words = vec![
            w("Description", 45.0, 80.0),
            r("Qty", 280.0, 80.0),
            r("Price", 400.0, 80.0),
            r("Amount", 540.0, 80.0),
            w("Consulting", 45.0, 100.0),
            small("S/N", 45.0, 110.0),
            small("K4711", 65.0, 110.0),
        ];
        words.extend(nums(110.0, "2", "50,00", "100,00"));
        words.extend([w("Office", 45.0, 128.0), w("chair", 80.0, 128.0)]);
        words.push(w("ergonomic", 45.0, 138.0));
        words.extend(nums(138.0, "3", "20,00", "60,00"));
        words.extend([small("S/N", 45.0, 148.0), small("M0815", 65.0, 148.0)]);
        words.extend([
            w("Section", 45.0, 166.0),
            w("2:", 85.0, 166.0),
            w("Cables", 100.0, 166.0),
        ]);
        words.push(w("Cable", 45.0, 176.0));
        words.extend(nums(176.0, "1", "10,00", "10,00"));
        words.extend([w("Total", 300.0, 200.0), r("170,00", 540.0, 200.0)]);
        let doc = page_doc(words);
        let c = super::super::extract(&doc);
        let names = |t: &TableLayout| -> Vec<String> {
            t.rows
                .iter()
                .map(|r| cell(r, LabelKey::ColDesc).unwrap_or("").to_string())
                .collect()
        };
        let want = ["Consulting", "Office chair ergonomic", "Cable"];
        assert_eq!(names(c.item_table.as_ref().expect("rows")), want);
        assert_eq!(names(&c.tables[0]), want);
        // A note set apart under each row (40 below it, its lines 11 apart, the next row 24
        // under it): two wide gaps in the run, no row's name over its numbers.
        let mut words = vec![
            w("Beschreibung", 45.0, 80.0),
            r("Menge", 280.0, 80.0),
            r("Preis", 400.0, 80.0),
            r("Entgelt", 540.0, 80.0),
            w("Physiotherapie", 45.0, 100.0),
        ];
        words.extend(nums(100.0, "10", "26,00", "260,00"));
        words.extend([w("Behandlungen", 90.0, 140.0), w("aufgrund", 160.0, 140.0)]);
        words.extend([w("Heilerin", 90.0, 151.0), w("vom", 140.0, 151.0)]);
        words.extend([w("22.10.2018;", 90.0, 162.0), w("30.10.2018", 150.0, 162.0)]);
        words.push(w("Hausbesuch", 45.0, 186.0));
        words.extend(nums(186.0, "10", "12,00", "120,00"));
        words.extend([w("An", 90.0, 226.0), w("Terminen", 110.0, 226.0)]);
        words.extend([w("Summe", 300.0, 260.0), r("380,00", 540.0, 260.0)]);
        let c = super::super::extract(&page_doc(words));
        let t = c.item_table.as_ref().expect("rows");
        assert_eq!(cell(&t.rows[1], LabelKey::ColDesc), Some("Hausbesuch"));
        // A totals line set apart over a row (its amount in the amount column) is no line of
        // the row under it.
        let mut words = vec![w("Consulting", 45.0, 100.0)];
        words.extend(nums(100.0, "2", "50,00", "100,00"));
        words.extend([
            w("Net", 300.0, 118.0),
            w("total", 320.0, 118.0),
            r("100,00", 540.0, 118.0),
        ]);
        words.push(w("Cable", 45.0, 128.0));
        words.extend(nums(128.0, "1", "10,00", "10,00"));
        words.extend([w("Total", 300.0, 150.0), r("110,00", 540.0, 150.0)]);
        let doc = page_doc(words);
        let c = super::super::extract(&doc);
        let t = c.item_table.as_ref().expect("rows");
        let net = doc
            .lines
            .iter()
            .position(|l| l.text.starts_with("Net"))
            .expect("net line");
        assert!(
            t.rows.iter().all(|r| !r.lines.contains(&net)),
            "{:?}",
            t.rows
        );
        // A word and a small number open a heading; a position and a word only over a row with
        // a position of its own.
        let line = |text: &str| {
            page_doc(vec![w(text, 45.0, 100.0), w("Hardware", 120.0, 100.0)]).lines[0].clone()
        };
        assert!(heading_line(&line("Titel 2:"), false));
        assert!(!heading_line(&line("3"), false));
        assert!(heading_line(&line("3"), true));
        assert!(!heading_line(&line("Kabel 3x2,5"), false));
    }

    #[test]
    fn a_bracketed_number_wrapped_onto_its_own_line_ends_the_name() {
        let t = read(vec![
            w("Karbantartás", 45.0, 100.0),
            w("havi", 110.0, 100.0),
            w("díj", 135.0, 100.0),
            r("2", 280.0, 100.0),
            r("5000", 400.0, 100.0),
            r("10000", 540.0, 100.0),
            w("(11)", 45.0, 110.0),
            w("Szék", 45.0, 125.0),
            r("1", 280.0, 125.0),
            r("3000", 400.0, 125.0),
            r("3000", 540.0, 125.0),
            w("Összesen", 300.0, 150.0),
            r("13000", 540.0, 150.0),
        ])
        .expect("rows");
        assert_eq!(
            cell(&t.rows[0], LabelKey::ColDesc),
            Some("Karbantartás havi díj (11)")
        );
        assert_eq!(cell(&t.rows[1], LabelKey::ColDesc), Some("Szék"));
    }

    #[test]
    fn a_number_ocr_split_with_a_space_is_read_whole_where_that_balances_the_row() {
        // `5944 1,15` is 59441,15 (2,5 x 23776,46); `1966 800,00` is 1966800,00 (40 x 49170,00),
        // though four digits are no group of thousands.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("Usługa", 60.0, 100.0),
            r("0,5", 280.0, 100.0),
            r("4480,97", 400.0, 100.0),
            r("2240,49", 540.0, 100.0),
            w("2", 30.0, 115.0),
            w("Papier", 60.0, 115.0),
            r("2,5", 280.0, 115.0),
            r("23776,46", 400.0, 115.0),
            w("5944", 496.0, 115.0),
            r("1,15", 540.0, 115.0),
            w("3", 30.0, 130.0),
            w("Krzesło", 60.0, 130.0),
            r("40", 280.0, 130.0),
            r("49170,00", 400.0, 130.0),
            w("1966", 486.0, 130.0),
            r("800,00", 540.0, 130.0),
            w("Razem", 400.0, 160.0),
            r("2028481,64", 540.0, 160.0),
        ])
        .expect("rows");
        assert_eq!(
            column(&t, LabelKey::ColAmount),
            [d("2240.49"), d("59441.15"), d("1966800.00")]
        );
        assert!(t.sums);
    }

    /// A row that prints its VAT and its amount with VAT right of its net (a credit note's,
    /// negative): the columns whose arithmetic holds (net + VAT = gross, VAT the row's rate of
    /// the net) are the VAT amount and the amount with VAT.
    #[test]
    fn a_price_left_of_another_as_large_as_a_decimal_holds_does_not_panic() {
        // `1 <29 digits>` one space apart, a price of 29 digits right of them: joining the
        // split digits and growing them by the rate overflow, and are checked.
        let doc = page_doc(vec![w("1", 40.0, 100.0), w("2,50", 50.0, 100.0)]);
        let line = &doc.lines[0];
        let b = line.text.find("2,50").expect("second number");
        let num = |start: usize, end: usize, x0: f32, value: Decimal, decimals: u32| Num {
            line: 0,
            start,
            end,
            x0,
            x1: x0 + 8.0,
            value,
            decimals,
            percent: false,
        };
        let nums = [
            num(0, 1, 40.0, Decimal::ONE, 0),
            num(b, b + 4, 50.0, Decimal::MAX / Decimal::TEN, 2),
            num(b, b + 4, 300.0, Decimal::MAX, 2),
        ];
        assert!(net_price_left_of(line, &nums, &[], 2, Decimal::from(20)).is_none());
    }

    #[test]
    fn a_row_priced_both_ways_takes_the_price_without_vat_and_the_amount_with_it() {
        // Quantity, unit price, rate, unit price with VAT, amount with VAT: the arithmetic
        // holds on the prices with VAT, the price left of them is the unit price (on the second
        // row OCR split its digits: `10 50,58`), and the amount is the amount with VAT.
        let row = |y: f32, name: &str, nums: &[(&str, f32)]| {
            let mut v = vec![w(name, 30.0, y)];
            v.extend(nums.iter().map(|(t, x)| r(t, *x, y)));
            v
        };
        let mut words = vec![
            w("Kuvaus", 30.0, 80.0),
            r("Määrä", 200.0, 80.0),
            r("A-hinta", 280.0, 80.0),
        ];
        words.extend(row(
            100.0,
            "Toimistotuoli",
            &[
                ("2", 200.0),
                ("100,00", 280.0),
                ("21%", 330.0),
                ("121,00", 420.0),
                ("242,00", 520.0),
            ],
        ));
        words.extend(row(
            115.0,
            "Kopiopaperi",
            &[
                ("10", 200.0),
                ("10", 245.0),
                ("50,58", 280.0),
                ("21%", 330.0),
                ("1271,20", 420.0),
                ("12712,00", 520.0),
            ],
        ));
        let t = read(words).expect("rows");
        assert_eq!(
            column(&t, LabelKey::ColUnitPrice),
            [d("100.00"), d("1050.58")]
        );
        assert_eq!(
            column(&t, LabelKey::ColAmountGross),
            [d("242.00"), d("12712.00")]
        );
        assert_eq!(column(&t, LabelKey::ColAmount), [None, None]);
        assert_eq!(column(&t, LabelKey::ColQty), [d("2"), d("10")]);
        // Without the price left of them the prices with VAT are the row's own.
        let t = read(vec![
            w("Toimistotuoli", 30.0, 100.0),
            r("2", 200.0, 100.0),
            r("21%", 330.0, 100.0),
            r("121,00", 420.0, 100.0),
            r("242,00", 520.0, 100.0),
            w("Kopiopaperi", 30.0, 115.0),
            r("10", 200.0, 115.0),
            r("21%", 330.0, 115.0),
            r("1271,20", 420.0, 115.0),
            r("12712,00", 520.0, 115.0),
        ])
        .expect("rows");
        assert_eq!(
            column(&t, LabelKey::ColUnitPrice),
            [d("121.00"), d("1271.20")]
        );
        assert_eq!(
            column(&t, LabelKey::ColAmount),
            [d("242.00"), d("12712.00")]
        );
    }

    #[test]
    fn a_row_priced_both_ways_in_whole_units_may_print_its_price_broken_inside_a_group() {
        // `5  233.8 98  27%  297.050  1.485.250`: the unit price, broken by OCR inside its
        // last group, grows by the rate to the price with VAT (233 898 x 1,27 = 297 050,46).
        let t = read(vec![
            w("Megnevezés", 30.0, 80.0),
            r("Menny.", 200.0, 80.0),
            r("Egységár", 280.0, 80.0),
            w("Szerelés", 30.0, 100.0),
            r("5", 200.0, 100.0),
            r("233.8", 262.0, 100.0),
            r("98", 280.0, 100.0),
            r("27%", 330.0, 100.0),
            r("297.050", 420.0, 100.0),
            r("1.485.250", 520.0, 100.0),
            w("Kábel", 30.0, 115.0),
            r("2", 200.0, 115.0),
            r("315.738", 280.0, 115.0),
            r("27%", 330.0, 115.0),
            r("400.987", 420.0, 115.0),
            r("801.974", 520.0, 115.0),
        ])
        .expect("rows");
        assert_eq!(
            column(&t, LabelKey::ColUnitPrice),
            [d("233898"), d("315738")],
            "{:?}",
            t.rows
        );
        assert_eq!(
            column(&t, LabelKey::ColAmountGross),
            [d("1485250"), d("801974")]
        );
    }

    #[test]
    fn a_rows_vat_and_gross_are_the_numbers_its_arithmetic_names() {
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("Kabeltrommel", 45.0, 100.0),
            r("-2", 280.0, 100.0),
            r("39,99", 330.0, 100.0),
            r("-79,98", 390.0, 100.0),
            r("19%", 420.0, 100.0),
            r("-15,20", 480.0, 100.0),
            r("-95,18", 540.0, 100.0),
            w("2", 30.0, 115.0),
            w("Steckdosenleiste", 45.0, 115.0),
            r("-5", 280.0, 115.0),
            r("8,49", 330.0, 115.0),
            r("-42,45", 390.0, 115.0),
            r("19%", 420.0, 115.0),
            r("-8,07", 480.0, 115.0),
            r("-50,52", 540.0, 115.0),
            w("Summe", 300.0, 145.0),
            w("netto", 340.0, 145.0),
            r("-122,43", 540.0, 145.0),
        ])
        .expect("rows");
        let col = |key: LabelKey| column(&t, key);
        assert_eq!(col(LabelKey::ColAmount), [d("-79.98"), d("-42.45")]);
        assert_eq!(col(LabelKey::ColVatAmount), [d("-15.20"), d("-8.07")]);
        assert_eq!(col(LabelKey::ColAmountGross), [d("-95.18"), d("-50.52")]);
        // Numbers that do not add up to the net are neither.
        let nums = |values: &[(&str, u32)]| -> Vec<Num> {
            values
                .iter()
                .enumerate()
                .map(|(i, (v, decimals))| Num {
                    line: 0,
                    start: i * 10,
                    end: i * 10 + 5,
                    x0: i as f32 * 50.0,
                    x1: i as f32 * 50.0 + 30.0,
                    value: v.parse().expect("decimal"),
                    decimals: *decimals,
                    percent: false,
                })
                .collect()
        };
        let rate = Some(Decimal::from(19));
        let row = nums(&[("100.00", 2), ("19.00", 2), ("119.00", 2)]);
        assert_eq!(
            vat_columns(&row, &[0], 0, rate, &[]),
            [(LabelKey::ColVatAmount, 1), (LabelKey::ColAmountGross, 2)]
        );
        let row = nums(&[("100.00", 2), ("12.00", 2), ("112.50", 2)]);
        assert!(vat_columns(&row, &[0], 0, rate, &[]).is_empty());
        // Alone: a gross of the row's rate, or nothing without a rate to check it.
        let row = nums(&[("100.00", 2), ("119.00", 2)]);
        assert_eq!(
            vat_columns(&row, &[0], 0, rate, &[]),
            [(LabelKey::ColAmountGross, 1)]
        );
        assert!(vat_columns(&row, &[0], 0, None, &[]).is_empty());
    }

    /// Prices for a hundred units (`12,50 /100`, `3,20 per 100`): the rows balance with the
    /// basis, the unit price is the price of one unit, and the basis is no quantity.
    #[test]
    fn the_payment_that_settles_a_folio_ends_its_rows() {
        // A hotel's folio priced with VAT: the guest's payment, charged negative in the amount
        // column under the rows, pays for them and is none of them; a credit that settles
        // nothing (a voucher the total takes off) stays a row.
        let folio = |payment: &'static str, total: &'static str, balance: bool| {
            let mut words = vec![
                w("Room", 60.0, 100.0),
                r("2", 300.0, 100.0),
                r("89,00", 400.0, 100.0),
                r("178,00", 540.0, 100.0),
                w("Breakfast", 60.0, 115.0),
                r("2", 300.0, 115.0),
                r("15,00", 400.0, 115.0),
                r("30,00", 540.0, 115.0),
                w("Payment", 60.0, 130.0),
                w("Visa", 110.0, 130.0),
                r(payment, 540.0, 130.0),
                w("Total", 400.0, 170.0),
                r(total, 540.0, 170.0),
            ];
            if balance {
                words.extend([w("Balance", 60.0, 145.0), r("0,00", 540.0, 145.0)]);
            }
            read(words).expect("rows")
        };
        let t = folio("-208,00", "208,00", true);
        assert_eq!(column(&t, LabelKey::ColAmount), [d("178.00"), d("30.00")]);
        let t = folio("-20,00", "188,00", false);
        assert_eq!(
            column(&t, LabelKey::ColAmount),
            [d("178.00"), d("30.00"), d("-20.00")]
        );
    }

    #[test]
    fn a_price_for_a_hundred_units_balances_its_row() {
        let t = read(vec![
            w("Sechskantschraube", 60.0, 100.0),
            w("M8x40", 150.0, 100.0),
            r("500", 300.0, 100.0),
            w("Stk", 305.0, 100.0),
            r("12,50", 400.0, 100.0),
            w("/100", 405.0, 100.0),
            r("62,50", 540.0, 100.0),
            w("Unterlegscheibe", 60.0, 115.0),
            r("1.000", 300.0, 115.0),
            w("Stk", 305.0, 115.0),
            r("3,20", 400.0, 115.0),
            w("per", 405.0, 115.0),
            w("100", 425.0, 115.0),
            r("32,00", 540.0, 115.0),
            w("Gewindestange", 60.0, 130.0),
            r("20", 300.0, 130.0),
            w("Stk", 305.0, 130.0),
            r("2,95", 400.0, 130.0),
            r("59,00", 540.0, 130.0),
            w("Nettobetrag", 400.0, 160.0),
            r("153,50", 540.0, 160.0),
        ])
        .expect("rows");
        let col = |key: LabelKey| column(&t, key);
        assert_eq!(col(LabelKey::ColQty), [d("500"), d("1000"), d("20")]);
        assert_eq!(
            col(LabelKey::ColUnitPrice),
            [d("0.125"), d("0.032"), d("2.95")]
        );
        assert_eq!(
            col(LabelKey::ColAmount),
            [d("62.50"), d("32.00"), d("59.00")]
        );
        assert_eq!(cell(&t.rows[0], LabelKey::ColUnitPrice), Some("12,50"));
        assert!(t.sums);
        // A slash before a number that is no basis (`1/2`), or none at all: nothing to divide.
        let line = |words: Vec<Word>| page_doc(words).lines.remove(0);
        assert_eq!(
            price_bases(&line(vec![w("12,50", 10.0, 10.0), w("/100", 45.0, 10.0)])),
            [Decimal::ONE_HUNDRED]
        );
        assert_eq!(
            price_bases(&line(vec![w("je", 10.0, 10.0), w("1000", 25.0, 10.0)])),
            [Decimal::ONE_THOUSAND]
        );
        assert!(price_bases(&line(vec![w("Rohr", 10.0, 10.0), w("/2", 35.0, 10.0)])).is_empty());
        assert!(price_bases(&line(vec![w("per", 10.0, 10.0), w("Stück", 30.0, 10.0)])).is_empty());
    }

    /// A column of dates the header does not name (a hosting invoice's billing period, a
    /// folio's date): not the row's name, nor its article number.
    #[test]
    fn a_period_in_a_column_of_its_own_is_not_the_name() {
        assert_eq!(
            period_segments("VPS Medium  01-03-2026 - 31-03-2026  € 24,00"),
            [(12, 35)]
        );
        assert_eq!(period_segments("11/02/2026  Chambre Double"), [(0, 10)]);
        assert!(period_segments("Miete März 2026  100,00").is_empty());
        let t = read(vec![
            w("VPS", 40.0, 100.0),
            w("Medium", 60.0, 100.0),
            w("01-03-2026", 300.0, 100.0),
            w("-", 355.0, 100.0),
            w("31-03-2026", 362.0, 100.0),
            r("2", 440.0, 100.0),
            r("12,00", 480.0, 100.0),
            r("24,00", 540.0, 100.0),
            w("Backup", 40.0, 115.0),
            w("storage", 75.0, 115.0),
            w("01-03-2026", 300.0, 115.0),
            w("-", 355.0, 115.0),
            w("31-03-2026", 362.0, 115.0),
            r("1", 440.0, 115.0),
            r("5,00", 480.0, 115.0),
            r("5,00", 540.0, 115.0),
            w("Subtotaal", 400.0, 145.0),
            r("29,00", 540.0, 145.0),
        ])
        .expect("rows");
        let names: Vec<Option<&str>> = t.rows.iter().map(|r| cell(r, LabelKey::ColDesc)).collect();
        assert_eq!(names, [Some("VPS Medium"), Some("Backup storage")]);
    }

    /// A folio's long date opening its row one space before the name (the date column too
    /// narrow for `16 december 2021`): the row's date, not the start of its name, with a header
    /// over the table (whose description column the date runs into) or without one.
    #[test]
    fn a_long_date_opening_a_row_is_not_its_name() {
        assert_eq!(
            period_segments("16 december 2021 Konsulttjänster  0,5  957,28  478,64"),
            [(0, 16)]
        );
        assert!(period_segments("Miete März 2026 Büro  100,00").is_empty());
        assert!(period_segments("Konsulttjänster 16 december 2021  100,00").is_empty());
        // A period one space before the next column's number (a utility's consumption).
        for (text, period) in [
            (
                "Quota energia  31/01/2026 -28/02/2026 7.118 kWh  0,4299",
                "31/01/2026 -28/02/2026",
            ),
            (
                "Energy charge  2026-08-02 - 2026-08-31 3,118 kWh  0.2188",
                "2026-08-02 - 2026-08-31",
            ),
            (
                "Silová elektřina  1. září 2019 - 30. září 2019 8804  kWh",
                "1. září 2019 - 30. září 2019",
            ),
            (
                "Energie activă  03/06/2026-30/06/2026 1.237 kWh  0,1550",
                "03/06/2026-30/06/2026",
            ),
            (
                "Peajes de acceso  30/01/2023- 28/02/2023 8.813 kWh  0,1172",
                "30/01/2023- 28/02/2023",
            ),
        ] {
            let start = text.find(period).expect("printed");
            assert_eq!(
                period_segments(text),
                [(start, start + period.len())],
                "{text}"
            );
        }
        // Not before a word, nor a single date.
        assert!(period_segments("Wartung  01.01.2026 - 31.01.2026 Büro  100,00").is_empty());
        assert!(period_segments("Wartung  01.01.2026 12  100,00").is_empty());
        let rows = |header: bool| {
            let mut words = Vec::new();
            if header {
                words.extend([
                    w("Datum", 40.0, 85.0),
                    w("Benämning", 110.0, 85.0),
                    r("Antal", 440.0, 85.0),
                    r("À-pris", 490.0, 85.0),
                    r("Belopp", 540.0, 85.0),
                ]);
            }
            for (y, day, name, q, p, a) in [
                (100.0, "16", "Konsulttjänster", "2", "12,00", "24,00"),
                (115.0, "17", "Kontorsstol", "1", "5,00", "5,00"),
            ] {
                words.extend([
                    w(day, 40.0, y),
                    w("december", 52.0, y),
                    w("2021", 96.0, y),
                    w(name, 119.0, y),
                    r(q, 440.0, y),
                    r(p, 490.0, y),
                    r(a, 540.0, y),
                ]);
            }
            words.extend([w("Summa", 400.0, 145.0), r("29,00", 540.0, 145.0)]);
            let t = read(words).expect("rows");
            t.rows
                .iter()
                .map(|r| cell(r, LabelKey::ColDesc).map(str::to_string))
                .collect::<Vec<_>>()
        };
        let want = [
            Some("Konsulttjänster".to_string()),
            Some("Kontorsstol".to_string()),
        ];
        assert_eq!(rows(false), want);
        assert_eq!(rows(true), want);
    }

    /// A row's name over two lines, its amount set at the foot of the cell (on the second line,
    /// right of all the first line's words): the second line's words under the name continue
    /// it; the article number left of the name column, or a `Key: value` line, does not.
    #[test]
    fn words_on_the_line_of_a_rows_amount_continue_its_name() {
        let desc = |second: Vec<Word>| {
            let mut words = vec![
                w("Mineralwasser", 120.0, 100.0),
                w("Medium", 190.0, 100.0),
                r("5,49", 400.0, 100.0),
                r("20", 460.0, 100.0),
            ];
            words.extend(second);
            words.extend([
                w("Pfand", 120.0, 130.0),
                r("2,77", 400.0, 130.0),
                r("10", 460.0, 130.0),
                r("27,70", 540.0, 130.0),
                w("Summe", 400.0, 160.0),
                r("137,50", 540.0, 160.0),
            ]);
            let t = read(words).expect("rows");
            assert_eq!(t.rows.len(), 2);
            let amount = t.rows[0].cell(LabelKey::ColAmount).and_then(|c| c.amount);
            assert_eq!(amount, Some(Decimal::new(10980, 2)));
            cell(&t.rows[0], LabelKey::ColDesc).map(str::to_string)
        };
        let name = desc(vec![
            w("4000001234561", 20.0, 109.0),
            w("12", 120.0, 109.0),
            w("x", 135.0, 109.0),
            w("1,0l", 145.0, 109.0),
            w("PET", 170.0, 109.0),
            r("109,80", 540.0, 109.0),
        ]);
        assert_eq!(name.as_deref(), Some("Mineralwasser Medium 12 x 1,0l PET"));
        let name = desc(vec![
            w("EAN:", 120.0, 109.0),
            w("4000001234561", 145.0, 109.0),
            r("109,80", 540.0, 109.0),
        ]);
        assert_eq!(name.as_deref(), Some("Mineralwasser Medium"));
    }

    /// A header over two lines whose second names only units (`(RM) (RM)` under price and
    /// amount), rows whose article number leads the numbers and whose name is printed under
    /// them: the units are no row's name, each row keeps the name under it.
    #[test]
    fn a_headers_line_of_units_is_no_rows_name() {
        let t = read(vec![
            w("ITEM", 30.0, 100.0),
            w("QTY", 200.0, 102.0),
            w("U/P", 300.0, 102.0),
            w("AMOUNT", 450.0, 92.0),
            w("(RM)", 300.0, 110.0),
            w("(RM)", 460.0, 110.0),
            w("TP-24", 30.0, 130.0),
            r("5", 220.0, 130.0),
            r("1.32", 340.0, 130.0),
            r("6.60", 500.0, 130.0),
            w("DOUBLE", 40.0, 144.0),
            w("SIDED", 80.0, 144.0),
            w("TAPE", 115.0, 144.0),
            w("9557546631393", 30.0, 160.0),
            r("5", 220.0, 160.0),
            r("2.08", 340.0, 160.0),
            r("10.40", 500.0, 160.0),
            w("CORRECTION", 40.0, 174.0),
            w("PEN", 110.0, 174.0),
            w("TOTAL", 30.0, 200.0),
            r("17.00", 500.0, 200.0),
        ])
        .expect("rows");
        let names: Vec<Option<&str>> = t.rows.iter().map(|r| cell(r, LabelKey::ColDesc)).collect();
        assert_eq!(
            names,
            [Some("DOUBLE SIDED TAPE"), Some("CORRECTION PEN")],
            "{t:?}"
        );
    }

    #[test]
    fn subtotals_carried_between_pages_are_no_rows() {
        // The carried amount misread (36,00 for 35,00) sums to nothing: only its label (`A
        // transportar`) and its place (the next page's first amount, over the repeated header)
        // keep it out of the rows.
        let header = |y: f32| {
            vec![
                w("#", 30.0, y),
                w("Descrição", 60.0, y),
                r("Qtd.", 280.0, y),
                r("Preço", 400.0, y),
                r("Valor", 540.0, y),
            ]
        };
        let row = |pos: &str, desc: &str, q: &str, p: &str, a: &str, y: f32| {
            vec![
                w(pos, 30.0, y),
                w(desc, 60.0, y),
                r(q, 280.0, y),
                r(p, 400.0, y),
                r(a, 540.0, y),
            ]
        };
        let mut one = header(80.0);
        one.extend(row("1", "Cadeira", "2", "10,00", "20,00", 100.0));
        one.extend(row("2", "Papel", "3", "5,00", "15,00", 115.0));
        one.extend([
            w("A", 400.0, 140.0),
            w("transportar", 410.0, 140.0),
            r("36,00", 540.0, 140.0),
        ]);
        let mut two = vec![w("Transporte", 400.0, 60.0), r("36,00", 540.0, 60.0)];
        two.extend(header(80.0));
        two.extend(row("3", "Cabo", "1", "7,00", "7,00", 100.0));
        two.extend([w("Total", 400.0, 140.0), r("42,00", 540.0, 140.0)]);
        let doc = crate::candidates::tests::pages_doc(vec![one, two]);
        let t = super::super::extract(&doc).item_table.expect("rows");
        let amounts: Vec<Option<&str>> = t
            .rows
            .iter()
            .map(|r| cell(r, LabelKey::ColAmount))
            .collect();
        assert_eq!(
            amounts,
            [Some("20,00"), Some("15,00"), Some("7,00")],
            "{}",
            doc.plain_text()
        );
    }

    #[test]
    fn a_discount_alone_on_the_line_under_its_row_is_the_rows() {
        // `0,5 x 162,71` less the `(-15%)` printed under the description is 69,15.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("Prestation", 60.0, 100.0),
            r("0,5", 280.0, 100.0),
            r("162,71", 400.0, 100.0),
            r("20%", 460.0, 100.0),
            r("69,15", 540.0, 100.0),
            w("(-15%)", 60.0, 110.0),
            w("2", 30.0, 125.0),
            w("Chaise", 60.0, 125.0),
            r("40", 280.0, 125.0),
            r("59,44", 400.0, 125.0),
            r("20%", 460.0, 125.0),
            r("2377,60", 540.0, 125.0),
            w("Total", 400.0, 160.0),
            r("2446,75", 540.0, 160.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 2, "{:?}", t.rows);
        assert_eq!(cell(&t.rows[0], LabelKey::ColDiscount), Some("(-15%)"));
        assert_eq!(cell(&t.rows[0], LabelKey::ColDesc), Some("Prestation"));
        assert_eq!(cell(&t.rows[0], LabelKey::ColVatRate), Some("20%"));
        assert!(t.sums);
    }

    #[test]
    fn a_discount_and_the_money_it_takes_off_under_the_row_are_the_rows() {
        // `3 x 196,75 = 590,25`, less `Rabatt 5%: -29,51` printed under the row, is 560,74;
        // the line names the money too, and it must be what the percentage takes off.
        let rows = |off: &str| {
            read(vec![
                w("2.1", 30.0, 100.0),
                w("Holzplatten", 60.0, 100.0),
                r("3", 280.0, 100.0),
                w("Stk.", 300.0, 100.0),
                r("196,75", 400.0, 100.0),
                r("560,74", 480.0, 100.0),
                r("20%", 540.0, 100.0),
                w("Rabatt", 60.0, 110.0),
                w("5%:", 95.0, 110.0),
                w(off, 115.0, 110.0),
                w("3.1", 30.0, 125.0),
                w("Transport", 60.0, 125.0),
                r("1", 280.0, 125.0),
                w("Std.", 300.0, 125.0),
                r("89,44", 400.0, 125.0),
                r("89,44", 480.0, 125.0),
                r("10%", 540.0, 125.0),
                w("Summe", 400.0, 160.0),
                r("650,18", 480.0, 160.0),
            ])
            .expect("rows")
        };
        let t = rows("-29,51");
        assert_eq!(t.rows.len(), 2, "{:?}", t.rows);
        assert_eq!(cell(&t.rows[0], LabelKey::ColDesc), Some("Holzplatten"));
        assert_eq!(cell(&t.rows[0], LabelKey::ColAmount), Some("560,74"));
        assert!(
            t.rows[0].cell(LabelKey::ColDiscount).is_some(),
            "{:?}",
            t.rows[0]
        );
        // Money that is not what the percentage takes off: no discount of the row's.
        let t = rows("-31,20");
        assert!(
            t.rows
                .iter()
                .all(|r| r.cell(LabelKey::ColDiscount).is_none()),
            "{:?}",
            t.rows
        );
    }

    #[test]
    fn a_discount_after_the_descriptions_next_words_is_the_rows() {
        // `2,5 x 38772,30 - 5 % = 92084,21`: the `(-5%)` ends the description's next line.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("Wartung", 60.0, 100.0),
            r("2,5", 280.0, 100.0),
            r("38772,30", 400.0, 100.0),
            r("20%", 460.0, 100.0),
            r("92084,21", 540.0, 100.0),
            w("monatlich", 60.0, 110.0),
            w("(11)", 110.0, 110.0),
            w("(-5%)", 135.0, 110.0),
            w("2", 30.0, 125.0),
            w("Stuhl", 60.0, 125.0),
            r("40", 280.0, 125.0),
            r("59,44", 400.0, 125.0),
            r("20%", 460.0, 125.0),
            r("2377,60", 540.0, 125.0),
            w("Summe", 400.0, 160.0),
            r("94461,81", 540.0, 160.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 2, "{:?}", t.rows);
        assert_eq!(cell(&t.rows[0], LabelKey::ColDiscount), Some("(-5%)"));
        assert_eq!(cell(&t.rows[0], LabelKey::ColAmount), Some("92084,21"));
        assert!(t.sums);
    }

    #[test]
    fn the_amounts_currency_wrapped_under_it_is_no_word_of_the_name() {
        // `EUR` under the amount, on the line that continues the name: the amount's.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("Beratung", 60.0, 100.0),
            r("2", 280.0, 100.0),
            r("100,00", 400.0, 100.0),
            r("200,00", 540.0, 100.0),
            w("vor", 60.0, 110.0),
            w("Ort", 80.0, 110.0),
            w("EUR", 525.0, 110.0),
            w("2", 30.0, 125.0),
            w("Kabel", 60.0, 125.0),
            r("1", 280.0, 125.0),
            r("10,00", 400.0, 125.0),
            r("10,00", 540.0, 125.0),
            w("EUR", 525.0, 135.0),
            w("Summe", 400.0, 160.0),
            r("210,00", 540.0, 160.0),
        ])
        .expect("rows");
        let names: Vec<Option<&str>> = t.rows.iter().map(|r| cell(r, LabelKey::ColDesc)).collect();
        assert_eq!(
            names,
            [Some("Beratung vor Ort"), Some("Kabel")],
            "{:?}",
            t.rows
        );
    }

    #[test]
    fn a_discount_on_the_description_line_above_the_numbers_is_the_rows() {
        // `2,5 x 130,70 - 15 % = 277,74`, the `(-15%)` after the name on the line above.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("Conseil", 60.0, 100.0),
            w("603093", 60.0, 110.0),
            r("2", 280.0, 110.0),
            r("100,00", 400.0, 110.0),
            r("20%", 460.0, 110.0),
            r("200,00", 540.0, 110.0),
            w("2", 30.0, 125.0),
            w("Licence", 60.0, 125.0),
            w("(-15%)", 110.0, 125.0),
            w("603094", 60.0, 135.0),
            r("2,5", 280.0, 135.0),
            r("130,70", 400.0, 135.0),
            r("20%", 460.0, 135.0),
            r("277,74", 540.0, 135.0),
            w("Total", 400.0, 160.0),
            r("477,74", 540.0, 160.0),
        ])
        .expect("rows");
        let amounts: Vec<Option<&str>> = t
            .rows
            .iter()
            .map(|r| cell(r, LabelKey::ColAmount))
            .collect();
        assert_eq!(amounts, [Some("200,00"), Some("277,74")], "{:?}", t.rows);
        assert_eq!(cell(&t.rows[1], LabelKey::ColDiscount), Some("(-15%)"));
        // The discount is no part of the name printed before it.
        let desc = cell(&t.rows[1], LabelKey::ColDesc).unwrap_or_default();
        assert!(desc.starts_with("Licence") && !desc.contains('%'), "{desc}");
    }

    #[test]
    fn digit_article_numbers_before_the_quantity_stay_the_article_number() {
        // `4100130013294  2031  15,0000 Stk.  20  12,0000  180,00`, its name on the line under
        // it: the quantity is no quantity printed first, the codes before it are the article.
        let t = read(vec![
            w("4100130013294", 30.0, 100.0),
            w("2031", 110.0, 100.0),
            r("15,0000", 250.0, 100.0),
            w("Stk.", 255.0, 100.0),
            r("20", 320.0, 100.0),
            r("12,0000", 400.0, 100.0),
            r("180,00", 540.0, 100.0),
            w("Bierbrau", 110.0, 110.0),
            w("Pils", 155.0, 110.0),
            w("4123456000038", 30.0, 125.0),
            w("MP107", 110.0, 125.0),
            r("2,0000", 250.0, 125.0),
            w("Stk.", 255.0, 125.0),
            r("1", 320.0, 125.0),
            r("29,1000", 400.0, 125.0),
            r("58,20", 540.0, 125.0),
            w("Mischpalette", 110.0, 135.0),
            w("Summe", 400.0, 160.0),
            r("238,20", 540.0, 160.0),
        ])
        .expect("rows");
        let cells: Vec<_> = t
            .rows
            .iter()
            .map(|r| (cell(r, LabelKey::ColSku), cell(r, LabelKey::ColDesc)))
            .collect();
        assert_eq!(
            cells,
            [
                (Some("4100130013294 2031"), Some("Bierbrau Pils")),
                (Some("4123456000038 MP107"), Some("Mischpalette")),
            ]
        );
        // A short number before the quantity and the name after it: the quantity comes first.
        let t = read(vec![
            w("12345", 30.0, 100.0),
            w("5", 80.0, 100.0),
            w("Widget", 110.0, 100.0),
            r("3,00", 400.0, 100.0),
            r("15,00", 540.0, 100.0),
            w("Summe", 400.0, 130.0),
            r("15,00", 540.0, 130.0),
        ])
        .expect("rows");
        assert_eq!(cell(&t.rows[0], LabelKey::ColDesc), Some("Widget"));
        assert_eq!(cell(&t.rows[0], LabelKey::ColQty), Some("5"));
    }

    #[test]
    fn a_whole_amount_holds_to_half_a_unit() {
        let amount = |v: i64| Num {
            line: 0,
            start: 0,
            end: 1,
            x0: 0.0,
            x1: 1.0,
            value: Decimal::from(v),
            decimals: 0,
            percent: false,
        };
        let pct = |p: i64| Decimal::ONE - Decimal::new(p, 2);
        // 5 x 2 less 27 % is 7,30: no 8.
        assert!(!holds(
            Decimal::from(5),
            Decimal::from(2),
            pct(27),
            &amount(8)
        ));
        assert!(holds(
            Decimal::from(5),
            Decimal::from(2),
            pct(25),
            &amount(8)
        ));
        assert!(holds(
            Decimal::new(25, 1),
            Decimal::from(26353),
            Decimal::ONE,
            &amount(65882)
        ));
    }

    #[test]
    fn rows_balance_without_a_header_the_vocabulary_knows() {
        // Headerless (the words are no column labels), one row with a discount, one flat fee,
        // then a line printing their sum under a label nobody knows.
        let t = read(vec![
            w("Nougat", 30.0, 100.0),
            w("de", 65.0, 100.0),
            w("l'Abbaye", 80.0, 100.0),
            r("20", 280.0, 100.0),
            w("Unit(s)", 285.0, 100.0),
            r("4,55", 380.0, 100.0),
            r("10%", 430.0, 100.0),
            r("81,90", 520.0, 100.0),
            w("Biscuits", 30.0, 118.0),
            w("300g", 75.0, 118.0),
            r("15", 280.0, 118.0),
            w("Unit(s)", 285.0, 118.0),
            r("3,20", 380.0, 118.0),
            r("48,00", 520.0, 118.0),
            w("Franco", 30.0, 136.0),
            w("de", 65.0, 136.0),
            w("port", 80.0, 136.0),
            r("12,00", 520.0, 136.0),
            w("Fodo", 400.0, 160.0),
            r("141,90", 520.0, 160.0),
            w("Wuzu", 400.0, 174.0),
            r("28,38", 520.0, 174.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 3, "{:?}", t.rows);
        assert!(t.sums);
        let r0 = &t.rows[0];
        assert_eq!(r0.source, RowSource::Balanced);
        assert_eq!(cell(r0, LabelKey::ColDesc), Some("Nougat de l'Abbaye"));
        assert_eq!(cell(r0, LabelKey::ColQty), Some("20"));
        assert_eq!(cell(r0, LabelKey::ColUnit), Some("Unit(s)"));
        assert_eq!(cell(r0, LabelKey::ColUnitPrice), Some("4,55"));
        assert_eq!(cell(r0, LabelKey::ColAmount), Some("81,90"));
        // The discount is no VAT rate.
        assert_eq!(cell(r0, LabelKey::ColVatRate), None);
        let fee = &t.rows[2];
        assert_eq!(fee.source, RowSource::Aligned);
        assert_eq!(cell(fee, LabelKey::ColDesc), Some("Franco de port"));
        assert_eq!(cell(fee, LabelKey::ColAmount), Some("12,00"));
    }

    #[test]
    fn the_amount_below_its_row_and_tight_lines_continue_the_description() {
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("TB100A4", 45.0, 100.0),
            w("Trennblätter", 100.0, 100.0),
            r("9,9000", 330.0, 100.0),
            r("20", 380.0, 100.0),
            w("Stk", 385.0, 100.0),
            r("19", 450.0, 100.0),
            w("%", 452.0, 100.0),
            // The amount set a little lower than its row, right of all its words.
            r("198,00", 540.0, 106.0),
            // A tight line of the description, then an attribute line, then a note after a
            // paragraph gap.
            w("A4", 100.0, 112.0),
            w("gelocht", 115.0, 112.0),
            w("Bruttopreis:", 100.0, 124.0),
            w("9,9000", 165.0, 124.0),
            w("Lieferung", 100.0, 150.0),
            w("erfolgt", 150.0, 150.0),
            w("Positionssumme", 400.0, 180.0),
            r("198,00", 540.0, 180.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 1, "{:?}", t.rows);
        let row = &t.rows[0];
        assert_eq!(cell(row, LabelKey::ColPos), Some("1"));
        assert_eq!(cell(row, LabelKey::ColSku), Some("TB100A4"));
        assert_eq!(
            cell(row, LabelKey::ColDesc),
            Some("Trennblätter A4 gelocht")
        );
        assert_eq!(cell(row, LabelKey::ColQty), Some("20"));
        assert_eq!(cell(row, LabelKey::ColUnitPrice), Some("9,9000"));
        assert_eq!(cell(row, LabelKey::ColAmount), Some("198,00"));
        assert_eq!(cell(row, LabelKey::ColVatRate), Some("19 %"));
        assert!(t.sums);
    }

    #[test]
    fn a_note_in_the_description_column_leaves_the_name_above_the_rows() {
        // Each row's name on the line above its numbers; the numbers' line prints a note where
        // the name would stand (a rate's, a gross price's).
        let t = read(vec![
            w("Tanácsadási", 100.0, 100.0),
            w("szolgáltatás", 160.0, 100.0),
            w("1.1", 30.0, 110.0),
            w("199454", 60.0, 110.0),
            w("27%", 100.0, 110.0),
            w("ÁFA", 120.0, 110.0),
            r("2645,57", 300.0, 110.0),
            r("2,5", 340.0, 110.0),
            r("6613,93", 480.0, 110.0),
            r("27%", 540.0, 110.0),
            w("Kancelárska", 100.0, 130.0),
            w("stolička", 160.0, 130.0),
            w("2.1", 30.0, 140.0),
            w("S", 100.0, 140.0),
            w("DPH:", 108.0, 140.0),
            w("576,77", 135.0, 140.0),
            r("484,68", 300.0, 140.0),
            r("2", 340.0, 140.0),
            r("969,36", 480.0, 140.0),
            r("19%", 540.0, 140.0),
        ])
        .expect("rows");
        let names: Vec<Option<&str>> = t.rows.iter().map(|r| cell(r, LabelKey::ColDesc)).collect();
        assert_eq!(
            names,
            [
                Some("Tanácsadási szolgáltatás"),
                Some("Kancelárska stolička")
            ]
        );
        assert_eq!(cell(&t.rows[0], LabelKey::ColSku), Some("199454"));
        assert!(names_nothing("27% ÁFA"));
        assert!(names_nothing("S/N Z91050545"));
        assert!(names_nothing("h = 289,27"));
        assert!(names_nothing("1 m =610,98"));
        assert!(!names_nothing("Transport"));
        assert!(!names_nothing("Papier A4, 500 listov"));
        assert!(!names_nothing("Rabatt 10%"));
        // The tax's word glued to its rate.
        assert!(names_nothing("24%KM"));
        assert!(!names_nothing("10%-Rabatt"));
    }

    #[test]
    fn a_list_of_terms_is_no_row_wrapped_over_two_lines() {
        // Each term's line ends at its amount, which the next term's line repeats.
        let t = read(vec![
            w("1.", 30.0, 100.0),
            w("Termijn", 45.0, 100.0),
            w("vervalt", 80.0, 100.0),
            r("1.635,98", 230.0, 100.0),
            w("2.", 30.0, 110.0),
            w("Termijn", 45.0, 110.0),
            w("vervalt", 80.0, 110.0),
            r("1.635,98", 230.0, 110.0),
        ]);
        assert!(t.as_ref().is_none_or(|t| t.rows.is_empty()), "{t:?}");
    }

    #[test]
    fn an_amount_wrapped_under_the_rows_columns_is_the_rows() {
        // A narrow table without a header: each row's amount ends its second line, under the
        // price, beside a sub-line (an EAN, a rate's note); the rate ends the first line.
        let t = read(vec![
            w("20", 30.0, 100.0),
            w("Biuro", 100.0, 100.0),
            w("kėdė", 130.0, 100.0),
            r("3", 300.0, 100.0),
            w("kg", 305.0, 100.0),
            r("1243,55", 420.0, 100.0),
            r("21%", 540.0, 100.0),
            w("EAN:", 100.0, 110.0),
            w("7786171388152", 125.0, 110.0),
            r("3730,65", 480.0, 110.0),
            w("40", 30.0, 130.0),
            w("Licencija", 100.0, 130.0),
            r("3", 300.0, 130.0),
            w("vnt.", 305.0, 130.0),
            r("1113,94", 420.0, 130.0),
            r("9%", 540.0, 130.0),
            w("9%", 100.0, 140.0),
            w("PVM", 115.0, 140.0),
            r("3341,82", 480.0, 140.0),
            // The price left of the quantity, the position the quantity's number too.
            w("10", 30.0, 160.0),
            w("Conseil", 100.0, 160.0),
            r("609,94", 280.0, 160.0),
            r("10", 300.0, 160.0),
            w("pce", 305.0, 160.0),
            r("20%", 540.0, 160.0),
            w("EAN:", 100.0, 170.0),
            w("8624998411319", 125.0, 170.0),
            r("6099,40", 480.0, 170.0),
            // Price and quantity both to four places: the quantity is the one its unit follows.
            w("5", 30.0, 190.0),
            w("Кресло", 100.0, 190.0),
            r("26441,0300", 250.0, 190.0),
            r("10,0000", 330.0, 190.0),
            w("шт.", 360.0, 190.0),
            r("20%", 540.0, 190.0),
            w("EAN:", 100.0, 200.0),
            w("9755043116709", 125.0, 200.0),
            r("264410,30", 480.0, 200.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 4, "{:?}", t.rows);
        for (row, (desc, qty, amount, rate)) in t.rows.iter().zip([
            ("Biuro kėdė", "3", "3730,65", "21%"),
            ("Licencija", "3", "3341,82", "9%"),
            ("Conseil", "10", "6099,40", "20%"),
            ("Кресло", "10,0000", "264410,30", "20%"),
        ]) {
            assert_eq!(cell(row, LabelKey::ColDesc), Some(desc));
            assert_eq!(cell(row, LabelKey::ColQty), Some(qty));
            assert_eq!(cell(row, LabelKey::ColAmount), Some(amount));
            assert_eq!(cell(row, LabelKey::ColVatRate), Some(rate));
        }
    }

    #[test]
    fn an_article_number_line_and_a_hyphen_broken_key_stay_in_the_description() {
        // A narrow description column: `GTIN:` / its number / `Unsere Art.-` / `Nr.: TB100A4` /
        // `Trennblätter`; the next row's name after it.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("GTIN:", 100.0, 100.0),
            r("9,9000", 330.0, 100.0),
            r("20", 380.0, 100.0),
            r("198,00", 540.0, 100.0),
            w("4012345001235", 100.0, 111.0),
            w("Unsere", 100.0, 122.0),
            w("Art.-", 135.0, 122.0),
            w("Nr.:", 100.0, 133.0),
            w("TB100A4", 122.0, 133.0),
            w("Trennblätter", 100.0, 144.0),
            w("2", 30.0, 160.0),
            w("Ordner", 100.0, 160.0),
            r("2,5000", 330.0, 160.0),
            r("4", 380.0, 160.0),
            r("10,00", 540.0, 160.0),
            w("Summe", 400.0, 190.0),
            r("208,00", 540.0, 190.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 2, "{:?}", t.rows);
        assert_eq!(
            cell(&t.rows[0], LabelKey::ColDesc),
            Some("GTIN: Unsere Art.-Nr.: TB100A4 Trennblätter")
        );
        assert_eq!(cell(&t.rows[0], LabelKey::ColSku), Some("4012345001235"));
        assert_eq!(cell(&t.rows[1], LabelKey::ColDesc), Some("Ordner"));
        // Without the hyphen, a key-value line ends the description; an article number with
        // no text line under it is no part of it.
        let t = read(vec![
            w("1", 30.0, 100.0),
            w("Trennblätter", 100.0, 100.0),
            r("9,9000", 330.0, 100.0),
            r("20", 380.0, 100.0),
            r("198,00", 540.0, 100.0),
            w("Lieferdatum:", 100.0, 111.0),
            w("05.03.2018", 160.0, 111.0),
            w("2", 30.0, 130.0),
            w("Ordner", 100.0, 130.0),
            r("2,5000", 330.0, 130.0),
            r("4", 380.0, 130.0),
            r("10,00", 540.0, 130.0),
            w("4012345001235", 100.0, 141.0),
            w("Summe", 400.0, 170.0),
            r("208,00", 540.0, 170.0),
        ])
        .expect("rows");
        assert_eq!(cell(&t.rows[0], LabelKey::ColDesc), Some("Trennblätter"));
        assert_eq!(cell(&t.rows[1], LabelKey::ColDesc), Some("Ordner"));
    }

    #[test]
    fn a_till_slips_item_lines_take_their_description_from_above() {
        // `Name` / `q x p  amount  tax code`, evenly spaced: each name belongs to the row
        // under it, not to the row above; `1x` is a quantity.
        let mut words = Vec::new();
        for (k, (name, q, p, a)) in [
            ("Kalender", "1", "17,79", "17,79"),
            ("Roman", "2", "12,84", "25,68"),
            ("Wasser", "1x", "2,34", "2,34"),
        ]
        .into_iter()
        .enumerate()
        {
            let y = 100.0 + 24.0 * k as f32;
            words.push(w(name, 10.0, y));
            words.extend([
                w(q, 16.0, y + 12.0),
                w(p, 40.0, y + 12.0),
                r(a, 200.0, y + 12.0),
                w("A", 205.0, y + 12.0),
            ]);
        }
        words.extend([w("SUMME", 10.0, 180.0), r("45,81", 200.0, 180.0)]);
        let t = read(words).expect("rows");
        let rows: Vec<_> = t
            .rows
            .iter()
            .map(|r| (cell(r, LabelKey::ColDesc), cell(r, LabelKey::ColQty)))
            .collect();
        assert_eq!(
            rows,
            [
                (Some("Kalender"), Some("1")),
                (Some("Roman"), Some("2")),
                (Some("Wasser"), Some("1x"))
            ]
        );
    }

    #[test]
    fn a_till_slips_one_line_items_keep_their_names_beside_the_q_x_p_lines() {
        // `Name  amount` lines between `Name` / `q x p  amount` pairs whose `q x p` starts at
        // the margin: each one-line item keeps its own name (the quantity column does not bound
        // it), and the name line of the next pair stays that pair's.
        let words = vec![
            w("Brot", 10.0, 100.0),
            r("2,49", 200.0, 100.0),
            w("A", 205.0, 100.0),
            w("Wasser", 10.0, 112.0),
            w("still", 45.0, 112.0),
            r("0,89", 200.0, 112.0),
            w("B", 205.0, 112.0),
            w("Kaffee", 10.0, 124.0),
            w("3", 12.0, 136.0),
            w("x", 20.0, 136.0),
            w("4,29", 30.0, 136.0),
            r("12,87", 200.0, 136.0),
            w("A", 205.0, 136.0),
            w("Milch", 10.0, 148.0),
            r("1,19", 200.0, 148.0),
            w("B", 205.0, 148.0),
            w("SUMME", 10.0, 172.0),
            r("17,44", 200.0, 172.0),
        ];
        let t = read(words).expect("rows");
        let rows: Vec<_> = t
            .rows
            .iter()
            .map(|r| (cell(r, LabelKey::ColDesc), cell(r, LabelKey::ColAmount)))
            .collect();
        assert_eq!(
            rows,
            [
                (Some("Brot"), Some("2,49")),
                (Some("Wasser still"), Some("0,89")),
                (Some("Kaffee"), Some("12,87")),
                (Some("Milch"), Some("1,19")),
            ]
        );
    }

    #[test]
    fn the_shape_most_rows_share_tells_quantity_from_price() {
        // `Menge  VKE  Preis  Betrag`: `100 x 1 = 100` reads two ways on the first row; the
        // other rows say the price is the third column.
        let row = |y: f32, q: &str, vke: &str, p: &str, a: &str| {
            vec![
                w("Artikel", 30.0, y),
                r(q, 250.0, y),
                r(vke, 300.0, y),
                r(p, 380.0, y),
                r(a, 540.0, y),
            ]
        };
        let mut words = row(100.0, "100,0000", "1", "1,0000", "100,00");
        words.extend(row(118.0, "50,0000", "1", "1,4500", "72,50"));
        words.extend(row(136.0, "15,0000", "20", "12,0000", "180,00"));
        let t = read(words).expect("rows");
        assert_eq!(t.rows.len(), 3);
        for (row, p) in t.rows.iter().zip(["1,0000", "1,4500", "12,0000"]) {
            assert_eq!(cell(row, LabelKey::ColUnitPrice), Some(p), "{row:?}");
        }
    }

    #[test]
    fn numbers_split_by_ocr_are_joined_and_misreadings_stay_out() {
        let t = read(vec![
            w("Kreslo", 30.0, 100.0),
            r("10", 250.0, 100.0),
            w("866,", 330.0, 100.0),
            w("56", 355.0, 100.0),
            r("8665,60", 540.0, 100.0),
            // Quantity and price printed, but they disagree with the amount: misread, left out.
            w("Bumaga", 30.0, 118.0),
            r("12", 250.0, 118.0),
            r("376,07", 365.0, 118.0),
            r("4521,84", 540.0, 118.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 2, "{:?}", t.rows);
        assert_eq!(cell(&t.rows[0], LabelKey::ColUnitPrice), Some("866, 56"));
        assert_eq!(t.rows[0].source, RowSource::Balanced);
        let misread = &t.rows[1];
        assert_eq!(misread.source, RowSource::Aligned);
        assert_eq!(cell(misread, LabelKey::ColQty), None);
        assert_eq!(cell(misread, LabelKey::ColUnitPrice), None);
        assert!(!t.sums);
    }

    #[test]
    fn decimals_split_by_ocr_inside_a_negative_number_or_between_its_digits_are_joined() {
        let t = read(vec![
            w("Asennustyo", 30.0, 100.0),
            r("3", 250.0, 100.0),
            w("57,5", 330.0, 100.0),
            w("1", 352.0, 100.0),
            r("172,53", 540.0, 100.0),
            w("Konsultointi", 30.0, 118.0),
            r("40", 250.0, 118.0),
            w("-2812,", 330.0, 118.0),
            w("10", 358.0, 118.0),
            r("-112484,00", 540.0, 118.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 2, "{:?}", t.rows);
        assert_eq!(cell(&t.rows[0], LabelKey::ColUnitPrice), Some("57,5 1"));
        assert_eq!(cell(&t.rows[1], LabelKey::ColUnitPrice), Some("-2812, 10"));
        assert!(t.rows.iter().all(|r| r.source == RowSource::Balanced));
        // A one-decimal number and a digit before a word: a quantity and its count, not joined.
        let line = |text: &str| {
            let mut x = 30.0;
            let words: Vec<Word> = text
                .split(' ')
                .map(|t| {
                    let word = w(t, x, 100.0);
                    x = word.bbox.x1 + 4.0;
                    word
                })
                .collect();
            let doc = page_doc(words);
            token_numbers(&doc.lines[0], Some(','))
                .iter()
                .map(|n| n.value.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(line("Kabel 57,5 1 Stk"), ["57.5", "1"]);
        assert_eq!(line("Kabel 57,5 1"), ["57.51"]);
    }

    #[test]
    fn a_summary_line_in_the_amount_column_is_left_out_where_the_rows_sum_without_it() {
        let t = read(vec![
            w("Stuhl", 30.0, 100.0),
            r("2", 250.0, 100.0),
            r("10,00", 365.0, 100.0),
            r("20,00", 540.0, 100.0),
            w("Tisch", 30.0, 118.0),
            r("3", 250.0, 118.0),
            r("5,00", 365.0, 118.0),
            r("15,00", 540.0, 118.0),
            // Its printed quantity and price make 12,00 (an unprinted discount): a flat row.
            w("Lampe", 30.0, 136.0),
            r("4", 250.0, 136.0),
            r("3,00", 365.0, 136.0),
            r("10,80", 540.0, 136.0),
            // A line in the amount column that the rows do not sum to.
            w("Importo", 300.0, 154.0),
            r("47,00", 540.0, 154.0),
            w("Imponibile", 300.0, 172.0),
            r("45,80", 450.0, 172.0),
        ])
        .expect("rows");
        let amounts: Vec<Option<&str>> = t
            .rows
            .iter()
            .map(|r| cell(r, LabelKey::ColAmount))
            .collect();
        assert_eq!(amounts, [Some("20,00"), Some("15,00"), Some("10,80")]);
        assert!(t.sums);
        // 4 x 3,00 less an unprinted 10 %: the quantity and price were read right.
        let lamp = &t.rows[2];
        assert_eq!(lamp.source, RowSource::Aligned);
        assert_eq!(cell(lamp, LabelKey::ColQty), Some("4"));
        assert_eq!(cell(lamp, LabelKey::ColUnitPrice), Some("3,00"));
    }

    #[test]
    fn an_amount_half_of_quantity_times_price_is_a_misreading_not_a_discount() {
        let t = read(vec![
            w("Stuhl", 30.0, 100.0),
            r("2", 250.0, 100.0),
            r("10,00", 365.0, 100.0),
            r("20,00", 540.0, 100.0),
            // `10` read `20`: 20 x 45,42 is twice 454,20.
            w("Hosting", 30.0, 118.0),
            r("20", 250.0, 118.0),
            r("45,42", 365.0, 118.0),
            r("454,20", 540.0, 118.0),
            w("Netto", 300.0, 140.0),
            r("474,20", 450.0, 140.0),
        ])
        .expect("rows");
        assert_eq!(t.rows.len(), 2, "{:?}", t.rows);
        assert_eq!(cell(&t.rows[1], LabelKey::ColQty), None);
        assert_eq!(cell(&t.rows[1], LabelKey::ColUnitPrice), None);
    }

    #[test]
    fn prose_and_tax_lines_are_no_rows() {
        assert!(
            read(vec![
                w("Umsatzsteuer", 30.0, 100.0),
                r("19", 300.0, 100.0),
                w("%", 302.0, 100.0),
                r("198,00", 400.0, 100.0),
                r("37,62", 540.0, 100.0),
                w("Seite", 30.0, 130.0),
                w("1", 60.0, 130.0),
                w("von", 70.0, 130.0),
                w("1", 90.0, 130.0),
                w("Zahlbar", 30.0, 150.0),
                w("bis", 75.0, 150.0),
                w("04.04.2018", 95.0, 150.0),
            ])
            .is_none()
        );
    }
}
