//! Till receipts (a narrow column, TOTAL / CASH / CHANGE lines): whether a document is one
//! ([`is_receipt`], decided once, in [`super::DocStyle`]) and what a receipt's own reading finds
//! ([`read`]): the grand total from the labelled total lines (rounded / grand / nett totals
//! preferred over subtotals, GST summary tables and quantity counts ignored, the amount on the
//! same line or on the next one), confirmed by cash tendered minus change, and the seller line.
//! The field stage ([`crate::fields`]) applies the reading.

use super::labels;
use crate::types::{CleanDocument, Line, Span};
use rust_decimal::Decimal;

/// Words that only appear on till receipts; a document needs several of them.
const RECEIPT_SIGNALS: &[&str] = &[
    "CASH",
    "CHANGE",
    "RECEIPT",
    "ROUNDING",
    "THANK YOU",
    "SDN BHD",
    "SDN. BHD",
    "CASHIER",
    "TAX INVOICE",
    "GST",
    "TOTAL (RM)",
    "RM",
    "QTY",
    "TEL",
];

/// Upper-case text with common OCR confusions in label words repaired (`T0TAL`, `TOTAI`,
/// `TOTA1:`, `T OTAL`: [`labels::repair_label_words`]).
fn norm_label(s: &str) -> String {
    let up = labels::repair_label_words(s).to_uppercase();
    let mut out = String::with_capacity(up.len());
    let chars: Vec<char> = up.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let prev_alpha = i > 0 && chars.get(i - 1).is_some_and(|p| p.is_ascii_alphabetic());
        let next_alpha = chars.get(i + 1).is_some_and(|p| p.is_ascii_alphabetic());
        let fixed = match c {
            '0' if prev_alpha && next_alpha => 'O',
            '1' | '|' if prev_alpha && (next_alpha || i + 1 == chars.len()) => 'L',
            _ => c,
        };
        out.push(fixed);
    }
    out.replace("TOTAI", "TOTAL")
}

/// [`norm_label`] with [`LABEL_WORDS`] restored ([`restore_words`]): a receipt's labels as its
/// reading compares them (not in [`is_receipt`], which reads every document's lines).
fn read_label(s: &str) -> String {
    restore_words(&norm_label(s))
}

/// The words of a till's labels that OCR damages by dropping a letter (`TOAL`, `PYABLE`,
/// `CHANE`) or by a space inside them (`TO TAL`, `S UPPLIES`).
const LABEL_WORDS: &[&str] = &[
    "TOTAL",
    "SUBTOTAL",
    "CHANGE",
    "ROUNDING",
    "PAYABLE",
    "AMOUNT",
    "TENDERED",
    "SUPPLIES",
    "INCLUSIVE",
    "INCLUDING",
    "EXCLUSIVE",
    "EXCLUDING",
    "DISCOUNT",
    "SUMMARY",
    "ADJUSTMENT",
    "GRAND",
];

/// The letters of a word, less the punctuation around it (`(INC.` -> `INC`).
fn word_core(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
}

/// The [`LABEL_WORDS`] entry that `w` is with one letter dropped (one only; four letters at
/// least, none of them a digit).
fn dropped_letter(w: &str) -> Option<&'static str> {
    if w.len() < 4 || !w.bytes().all(|b| b.is_ascii_uppercase()) || LABEL_WORDS.contains(&w) {
        return None;
    }
    let mut hits = LABEL_WORDS.iter().filter(|k| {
        k.len() == w.len() + 1 && (0..k.len()).any(|i| k[..i] == w[..i] && k[i + 1..] == w[i..])
    });
    let hit = hits.next()?;
    hits.next().is_none().then_some(*hit)
}

/// Upper-case label text with [`LABEL_WORDS`] restored: two pieces that join into one of them
/// where neither piece is one itself, and a word that is one with a letter dropped. Only
/// labels are read from the result (amounts are parsed from the line's own text). Runs on every
/// line of a receipt ([`read_label`]): one string, no allocation per word.
fn restore_words(up: &str) -> String {
    let alnum = |c: char| c.is_ascii_alphanumeric();
    let words: Vec<&str> = up.split(' ').collect();
    let mut out = String::with_capacity(up.len() + 4);
    let mut i = 0;
    while i < words.len() {
        if i > 0 {
            out.push(' ');
        }
        let w = words[i];
        if let Some(next) = words.get(i + 1) {
            let a = w.trim_start_matches(|c: char| !alnum(c));
            let b = next.trim_end_matches(|c: char| !alnum(c));
            let joined = (!a.is_empty() && !b.is_empty() && a.chars().chain(b.chars()).all(alnum))
                .then(|| {
                    LABEL_WORDS.iter().find(|k| {
                        k.len() == a.len() + b.len() && k.starts_with(a) && k.ends_with(b)
                    })
                })
                .flatten();
            if let Some(k) = joined
                && !LABEL_WORDS.contains(&word_core(w))
                && !LABEL_WORDS.contains(&word_core(next))
            {
                out.push_str(&w[..w.len() - a.len()]);
                out.push_str(k);
                out.push_str(&next[b.len()..]);
                i += 2;
                continue;
            }
        }
        let core = word_core(w);
        match dropped_letter(core) {
            Some(k) => out.push_str(&w.replacen(core, k, 1)),
            None => out.push_str(w),
        }
        i += 1;
    }
    out
}

/// Whether the document reads as a till receipt.
pub fn is_receipt(doc: &CleanDocument) -> bool {
    if doc.pages.len() > 1 || doc.lines.len() < 5 {
        return false;
    }
    let text: Vec<String> = doc.lines.iter().map(|l| norm_label(&l.text)).collect();
    let hits = RECEIPT_SIGNALS
        .iter()
        .filter(|s| {
            text.iter().any(|t| {
                if s.len() <= 3 {
                    t.split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|w| w == **s)
                } else {
                    t.contains(*s)
                }
            })
        })
        .count();
    let has_total = text
        .iter()
        .any(|t| t.contains("TOTAL") || t.contains("AMOUNT DUE"));
    // Cash and change, or a line of the change given back alone (the cash's line lost).
    let cash_and_change = (text.iter().any(|t| t.contains("CASH"))
        && text.iter().any(|t| t.contains("CHANGE")))
        || text.iter().any(|t| t.starts_with("CHANGE"));
    (has_total || cash_and_change) && hits >= 3
}

/// Parses one receipt amount token: `10.50`, `RM10.50`, `1,234.50`, `10,50`, `1O.50`, `-1.73`.
/// Requires exactly two decimals.
pub fn parse_receipt_amount(tok: &str) -> Option<Decimal> {
    let mut t = tok.trim().trim_end_matches([':', ';']).to_string();
    // `RM`, and its OCR misreadings glued to the digits (`RH41.45`, `RN10,05`).
    for p in ["RM", "Rm", "rm", "RH", "RN", "RW", "$", "MYR"] {
        if let Some(r) = t.strip_prefix(p) {
            t = r.to_string();
        }
    }
    let t = t.trim_end_matches(['*', 'S', 'Z', 'R']).trim();
    let neg = t.starts_with('-') || (t.starts_with('(') && t.ends_with(')'));
    let t = t.trim_matches(['-', '(', ')']);
    if t.is_empty() {
        return None;
    }
    // OCR letters in digits.
    let chars: Vec<char> = t.chars().collect();
    let digit_at = |i: usize| chars.get(i).is_some_and(char::is_ascii_digit);
    let fixed: String = t
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            'O' | 'o' | 'D' => '0',
            'l' | 'I' | '|' => '1',
            // `S` for 5 only between two digits (`1S3.35`): alone at an end it may be a `$`.
            'S' if i > 0 && digit_at(i - 1) && digit_at(i + 1) => '5',
            _ => c,
        })
        .collect();
    if !fixed.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let bytes: Vec<char> = fixed.chars().collect();
    let n = bytes.len();
    // Tills print amounts below one without the zero (`ROUNDING ADJ .01`, `CHANGE .00`).
    if n == 3 && bytes[0] == '.' && bytes[1..].iter().all(char::is_ascii_digit) {
        let d: Decimal = format!("0{fixed}").parse().ok()?;
        return Some(if neg { -d } else { d });
    }
    if n < 4 {
        return None;
    }
    let sep = *bytes.get(n - 3)?;
    if sep != '.' && sep != ',' {
        return None;
    }
    let int_part: String = bytes.get(..n - 3)?.iter().collect();
    let frac: String = bytes.get(n - 2..)?.iter().collect();
    if !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let other = if sep == '.' { ',' } else { '.' };
    let int_clean: String = int_part.chars().filter(|c| *c != other).collect();
    if int_clean.is_empty() || !int_clean.chars().all(|c| c.is_ascii_digit()) || int_clean.len() > 7
    {
        return None;
    }
    let d: Decimal = format!("{int_clean}.{frac}").parse().ok()?;
    Some(if neg { -d } else { d })
}

/// Amounts of a line with the byte range of each token, left to right. OCR often splits an
/// amount after its separator (`RM 29. 70`): a token ending in `.`/`,` followed by a two-digit
/// token is read as one amount.
fn line_amounts(line: &Line) -> Vec<(Decimal, usize, usize)> {
    let mut out = Vec::new();
    let spans = &line.token_spans;
    let mut i = 0;
    while i < spans.len() {
        let (s, e) = spans[i];
        let tok = line.text.get(s..e).unwrap_or("");
        if tok.ends_with(['.', ','])
            && tok.chars().any(|c| c.is_ascii_digit())
            && let Some(&(ns, ne)) = spans.get(i + 1)
            && let Some(next) = line.text.get(ns..ne)
            && next.chars().take_while(char::is_ascii_digit).count() == 2
            && next.chars().filter(char::is_ascii_digit).count() == 2
            && let Some(d) = parse_receipt_amount(&format!("{tok}{next}"))
        {
            out.push((d, s, ne));
            i += 2;
            continue;
        }
        if let Some(d) = parse_receipt_amount(tok) {
            out.push((d, s, e));
        }
        i += 1;
    }
    out
}

/// Whether a line holds only an amount (and maybe a currency sign).
fn amount_only(line: &Line) -> Option<(Decimal, usize, usize)> {
    let words: Vec<&str> = line
        .text
        .split_whitespace()
        .filter(|w| !matches!(w.to_uppercase().as_str(), "RM" | "MYR" | ":" | "$"))
        .collect();
    if words.len() != 1 {
        return None;
    }
    line_amounts(line).into_iter().last()
}

/// Priority of a total label, as [`norm_label`] gives it (higher is better), `None` when the line
/// is no grand-total label.
fn total_priority(t: &str) -> Option<u8> {
    const EXCLUDE: &[&str] = &[
        "QTY",
        "QUANTITY",
        "ITEM",
        "SAVING",
        "DISCOUNT",
        "TOTAL GST",
        "GST TOTAL",
        "TOTAL TAX",
        "TAX TOTAL",
        "EXCL",
        "EXCLUDING",
        "W/O GST",
        "BEFORE",
        "NO. OF",
        "POINT",
        "TOTAL VOLUME",
        "TOTAL PCS",
        "TOTAL UNITS",
    ];
    // A count in parentheses (`SUBTOTAL (QTY 4)`) does not make the line a count.
    let mut bare = String::with_capacity(t.len());
    let mut depth = 0usize;
    for c in t.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => bare.push(c),
            _ => {}
        }
    }
    // A note in parentheses (`(Total Included GST @6% : 1.42)`) states the tax in a total.
    if EXCLUDE.iter().any(|e| bare.contains(e)) || t.trim_start().starts_with('(') {
        return None;
    }
    let has_total = t.contains("TOTAL");
    if (t.contains("ROUND") && has_total)
        || t.contains("AFTER ROUND")
        || t.contains("AFTER ADJ")
        || t.contains("NETT")
    {
        return Some(5);
    }
    if t.contains("GRAND TOTAL")
        || owed(t)
        || t.contains("AMOUNT DUE")
        || t.contains("AMT DUE")
        || t.contains("TOTAL AMOUNT")
        || t.contains("TOTAL AMT")
        || t.contains("TOTAL PAYABLE")
        || t.contains("NET TOTAL")
        || t.contains("TOTAL SALES")
        || ((has_total || t.contains("SALES")) && t.contains("INCL"))
        || t.contains("AMOUNT PAYABLE")
    {
        return Some(4);
    }
    if t.contains("SUB TOTAL") || t.contains("SUBTOTAL") || t.contains("SUB-TOTAL") {
        return Some(1);
    }
    if has_total {
        return Some(3);
    }
    None
}

/// Labels of the amount tendered (cash handed over, paid).
const TENDERED: &[&str] = &["CASH", "TENDER", "PAID", "PAYMENT"];

/// Whether a label names an amount taken off (`DISC`, `LESS`, `CASH PROMOTION`): a discount,
/// not cash tendered, whatever other word it carries.
fn taken_off(t: &str) -> bool {
    ["DISC", "LESS", "PROMO"].iter().any(|w| t.contains(w))
}

/// Whether a label names what is still to be paid (`AMOUNT TO BE PAID`, `TO PAY`): a total,
/// not the cash tendered.
fn owed(t: &str) -> bool {
    t.contains("TO BE PAID") || t.contains("TO PAY")
}

/// The rate of a tax a label names (`GST @6% INCLUDED IN TOTAL`, `TOTAL INCLUDES 6% GST`): the
/// percentage printed in a label that also names a tax, between 1 and 30.
fn tax_rate_named(t: &str) -> Option<Decimal> {
    if !["GST", "TAX", "VAT", "SST"].iter().any(|w| t.contains(w)) {
        return None;
    }
    let pct = t.find('%')?;
    let head = t.get(..pct)?.trim_end();
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |p| p + 1);
    let rate: Decimal = head.get(start..)?.trim_matches('.').parse().ok()?;
    (rate >= Decimal::ONE && rate <= Decimal::from(30)).then_some(rate)
}

/// Whether `tax` is the tax at `rate` % contained in `gross` (to the cent, either rounding).
fn is_tax_in(tax: Decimal, gross: Decimal, rate: Decimal) -> bool {
    let exact = gross * rate / (Decimal::ONE_HUNDRED + rate);
    gross > tax && (exact - tax).abs() <= Decimal::new(1, 2)
}

/// Whether a line, as [`norm_label`] gives it, starts a GST / tax summary table (its TOTAL row is
/// no grand total). A header naming a quantity, a price or the item (`QTY S/PRICE AMOUNT TAX`)
/// heads the item rows, not the summary.
fn starts_tax_summary(t: &str) -> bool {
    let item_head = ["QTY", "PRICE", "ITEM", "DESC"]
        .iter()
        .any(|w| t.contains(w));
    let amount = t.contains("AMOUNT") || t.contains("AMT");
    t.contains("GST SUMMARY")
        || t.contains("TAX SUMMARY")
        || t.contains("TAX CODE")
        || (amount && t.contains("TAX") && !t.contains("TOTAL") && !item_head)
        // A tax column named with its currency, no amount on the line (`% TAX (RM)`).
        || (t.contains("TAX (") && !t.contains("TOTAL") && !t.chars().any(|c| c.is_ascii_digit()))
        || t.contains("GST ANALYSIS")
}

/// The first of `lines` (index, line), in the order given, that prints `amount`: its index and
/// the amount's byte range.
fn first_printing<'a>(
    mut lines: impl Iterator<Item = (usize, &'a Line)>,
    amount: Decimal,
) -> Option<(usize, usize, usize)> {
    lines.find_map(|(i, l)| {
        line_amounts(l)
            .into_iter()
            .find(|a| a.0 == amount)
            .map(|a| (i, a.1, a.2))
    })
}

/// The first line from `from` on that prints `amount` and pays nothing (no cash, change or card
/// label in its [`norm_label`] text, `norms`): its index and the amount's byte range.
fn printed_unpaid(
    lines: &[Line],
    norms: &[String],
    from: usize,
    amount: Decimal,
) -> Option<(usize, usize, usize)> {
    first_printing(
        lines
            .iter()
            .enumerate()
            .skip(from)
            .filter(|&(i, _)| !pays(&norms[i])),
        amount,
    )
}

/// Whether a line, as [`norm_label`] gives it, pays (cash tendered, change, a card).
fn pays(norm: &str) -> bool {
    !owed(norm)
        && !taken_off(norm)
        && TENDERED
            .iter()
            .chain(&["CHANGE", "CARD", "VISA"])
            .any(|w| norm.contains(w))
}

/// The amount a line closes a sum with: the amount alone on it, or the last amount of a line
/// that pays nothing ([`pays`], `norm` its [`read_label`] text), whatever its label.
fn closing_amount(line: &Line, norm: &str) -> Option<(Decimal, usize, usize)> {
    amount_only(line).or_else(|| (!pays(norm)).then(|| line_amounts(line).last().copied())?)
}

/// The grid cash totals are rounded onto: 5 sen.
const FIVE_SEN: Decimal = Decimal::from_parts(5, 0, 0, false, 2);

/// Whether `to` is `amount` rounded for cash: `to` on the 0.05 grid, `amount` off it and less
/// than 3 sen away (a 5-sen rounding moves 1 or 2 sen).
fn off_grid_by_rounding(amount: Decimal, to: Decimal) -> bool {
    (to % FIVE_SEN).is_zero()
        && !(amount % FIVE_SEN).is_zero()
        && (to - amount).abs() < Decimal::new(3, 2)
}

/// The grand total of a receipt with the span it was read from.
pub fn receipt_total(doc: &CleanDocument) -> Option<(Decimal, Span, f32)> {
    let lines = &doc.lines;
    // Each line's text with its label words repaired, once ([`norm_label`]).
    let norms: Vec<String> = lines.iter().map(|l| read_label(&l.text)).collect();
    let mut in_summary = false;
    // (priority, amount, line, start, end)
    let mut found: Vec<(u8, Decimal, usize, usize, usize)> = Vec::new();
    // The cash tendered and where it is printed: (amount, line, start, end).
    let mut cash: Option<(Decimal, usize, usize, usize)> = None;
    let mut change: Option<Decimal> = None;
    let mut change_line: Option<usize> = None;
    let mut rounding: Option<Decimal> = None;
    // The amount a rounding line takes the total to (`ROUNDING RM 37.45`, 5 sen or more: no
    // adjustment): (amount, line, start, end).
    let mut rounded_to: Option<(Decimal, usize, usize, usize)> = None;
    let mut discount: Option<(Decimal, usize)> = None;
    // Total lines of either sign (the parts a grand total may add up): (amount, line, label
    // priority); and the labelled amounts that name a tax rate (a tax note may read as a
    // total): (amount, line, rate).
    let mut parts: Vec<(Decimal, usize, u8)> = Vec::new();
    let mut rated: Vec<(Decimal, usize, Decimal)> = Vec::new();
    // Every amount outside a tax summary: (amount, line, start, end).
    let mut printed: Vec<(Decimal, usize, usize, usize)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if starts_tax_summary(&norms[i]) {
            in_summary = true;
        }
        let amts = line_amounts(line);
        if !in_summary {
            printed.extend(amts.iter().map(|a| (a.0, i, a.1, a.2)));
        }
        // Label part: text before the first amount.
        let label_end = amts.first().map(|a| a.1).unwrap_or(line.text.len());
        let label = line.text.get(..label_end).unwrap_or("");
        let amount = amts
            .last()
            .copied()
            .or_else(|| {
                lines
                    .get(i + 1)
                    .and_then(amount_only)
                    .map(|a| (a.0, a.1, a.2))
            })
            .map(|a| {
                let li = if amts.is_empty() { i + 1 } else { i };
                (a, li)
            });
        // A line without amounts is all label: its text is read once, in `norms`.
        let up = if label.len() == line.text.len() {
            norms[i].clone()
        } else {
            read_label(label)
        };
        if let Some(((d, s, e), li)) = amount {
            if up.contains("ROUND") && !up.contains("TOTAL") {
                if d.abs() >= FIVE_SEN {
                    rounded_to = rounded_to.or(Some((d, li, s, e)));
                } else if rounding.is_none() {
                    rounding = Some(d.abs());
                }
            }
            if up.contains("DISCOUNT") && !up.contains("ITEM") && !d.is_zero() {
                discount = Some((d.abs(), li));
            }
            if up.contains("CHANGE") && change.is_none() {
                change = Some(d);
                change_line = Some(li);
            } else if TENDERED.iter().any(|w| up.contains(w))
                && !owed(&up)
                && !taken_off(&up)
                && cash.is_none()
                && !(up.contains("PAYMENT") && total_priority(&up).is_some())
            {
                // Some tills print the cash handed over negative (`CASH  -50.00`).
                cash = Some((d.abs(), li, s, e));
            }
            if !in_summary && let Some(p) = total_priority(&up) {
                parts.push((d, li, p));
                if d > Decimal::ZERO {
                    found.push((p, d, li, s, e));
                    if let Some(r) = tax_rate_named(&up) {
                        rated.push((d, li, r));
                    }
                }
            }
        }
    }
    // The change's label lost to OCR (`CASH 50.00`, then `41.00` alone): an amount alone on one
    // of the two lines under the cash (above any tax summary), less than it, is the change where
    // the cash less it is printed above the cash on a line that pays nothing (`TOTAL INCLUDES
    // GST 6% 9.00`).
    if change.is_none()
        && let Some((c, cl, ..)) = cash
        && let Some((v, l)) = (cl + 1..lines.len().min(cl + 3))
            .take_while(|&i| !starts_tax_summary(&norms[i]))
            .find_map(|i| amount_only(&lines[i]).map(|a| (a.0, i)))
        && v > Decimal::ZERO
        && v < c
        && printed_unpaid(&lines[..cl], &norms, 0, c - v).is_some()
    {
        change = Some(v);
        change_line = Some(l);
    }
    // The cash's label lost to OCR (`21.00`, then `CHANGE RM .10`): an amount alone on one of
    // the two lines over the change, more than it and under no total's label, is the cash where
    // it less the change is printed above it on a line that pays nothing (`20.90`).
    if cash.is_none()
        && let (Some(ch), Some(cl)) = (change, change_line)
        && ch > Decimal::ZERO
        && let Some(found_cash) = (cl.saturating_sub(2)..cl).rev().find_map(|i| {
            let (v, s, e) = amount_only(&lines[i])?;
            // (Under a total's label it is the rule of the amount tendered below.)
            let totalled = found.iter().any(|f| f.2 == i);
            (v > ch && !totalled && printed_unpaid(&lines[..i], &norms, 0, v - ch).is_some())
                .then_some((v, i, s, e))
        })
    {
        cash = Some(found_cash);
    }
    // Where the cash stands: its line and the amount's byte range.
    let cash_at = cash.map(|(_, l, s, e)| (l, s, e));
    let cash = cash.map(|c| c.0);
    let mut paid = match (cash, change) {
        (Some(c), Some(ch)) if c > ch => Some(c - ch),
        (Some(c), None) => Some(c),
        _ => None,
    };
    // A tax note that names the total (`GST @6% INCLUDED IN TOTAL  2.43`, `TOTAL INCLUDES 6% GST
    // 3.98`) prints the tax contained in an amount printed elsewhere (42.90 x 6/106 = 2.43): that
    // amount is the total, whatever its own label (lost to OCR, or none), and the note is none.
    for (tax, li, rate) in rated {
        let Some(k) = found.iter().position(|f| f.2 == li && f.1 == tax) else {
            continue;
        };
        let gross = printed
            .iter()
            .filter(|a| is_tax_in(tax, a.0, rate))
            .max_by_key(|a| (a.0, std::cmp::Reverse(a.1)));
        if let Some(&(g, gl, s, e)) = gross {
            found[k] = (4, g, gl, s, e);
        } else if let (Some(p), Some((cl, s, e))) = (paid, cash_at)
            && change.is_some()
            && is_tax_in(tax, p, rate)
        {
            // The total's own amount lost: what cash less change paid is the amount the tax is
            // in (`CASH 50.00`, `CHANGE 45.00`, `GST @6% INCLUDED IN TOTAL 0.28`).
            found[k] = (4, p, cl, s, e);
        }
    }
    // The amount tendered under a total's label (`ACCEPTED TOTAL 10.00`, then `CHANGE 5.00`):
    // a total line right above the change whose amount less the change is printed above it
    // (`AMOUNT INCL. GST 5.00`) was the cash; what it paid is that amount, the total.
    if paid.is_none()
        && let (Some(ch), Some(cl)) = (change, change_line)
        && ch > Decimal::ZERO
        && let Some(t) = found
            .iter()
            .find(|f| f.2 < cl && cl - f.2 <= 2 && f.1 > ch)
            .copied()
    {
        let owed = t.1 - ch;
        if let Some((i, s, e)) = first_printing(lines[..t.2].iter().enumerate().rev(), owed) {
            paid = Some(owed);
            // What was handed over is no total, whatever label stands over it (`TOTAL ROUNDED`,
            // the cash's own label lost).
            found.retain(|f| (f.1, f.2) != (t.1, t.2));
            found.push((4, owed, i, s, e));
        }
    }
    // An amount, then on the next two lines a cash rounding of under 5 sen and the amount it
    // takes onto the 0.05 grid (`GRAND TOTAL : 87.08`, `0.02`, `87.10`; `TOTAL SALES 88.97`,
    // `ROUNDING ADJ -0.02`, `TOTAL AFTER ADJ 88.95`): the last is the total after rounding. The
    // arithmetic names the lines, whatever their labels say (lost, garbled: `ROUNING ADJUSTMENT
    // .02`, `RONDING RM 37.45`; or printed in a column of their own): the adjustment is the one
    // amount of its line, the rounded amount the last of a line that pays nothing (cash, change,
    // card), and the adjustment takes an amount off the grid onto it, added or, printed without
    // its sign, taken off.
    let rounded = lines.windows(3).enumerate().find_map(|(j, w)| {
        let a = line_amounts(&w[0]).last().copied()?;
        let [r] = line_amounts(&w[1])[..] else {
            return None;
        };
        let b = closing_amount(&w[2], &norms[j + 2])?;
        (!r.0.is_zero()
            && r.0.abs() < FIVE_SEN
            && (a.0 + r.0 == b.0 || (r.0 > Decimal::ZERO && a.0 - r.0 == b.0))
            && b.0 > Decimal::ZERO
            && (b.0 % FIVE_SEN).is_zero()
            && !(a.0 % FIVE_SEN).is_zero())
        .then_some(((a.0, j), (4, b.0, j + 2, b.1, b.2)))
    });
    // (Cash without a change line is what was handed over, no proof of what was owed.)
    if found.is_empty()
        && let Some((_, total)) = rounded
        && (change.is_none() || paid.is_none_or(|p| p == total.1))
    {
        let conf = if paid == Some(total.1) { 0.9 } else { 0.6 };
        return Some((
            total.1,
            Span::from_line(&lines[total.2], total.3, total.4),
            conf,
        ));
    }
    if found.is_empty() {
        // No total line could be read: cash tendered minus change given back is what was paid
        // (cash alone, without a change line, is less sure).
        let (Some(c), Some(p)) = (cash, paid) else {
            return None;
        };
        // With the change printed, what was paid printed again on a line that pays nothing (the
        // total's line, its label lost) is where the total stands.
        if change.is_some()
            && let Some((i, s, e)) = printed_unpaid(lines, &norms, 0, p)
        {
            return Some((p, Span::from_line(&lines[i], s, e), 0.6));
        }
        let line = lines.iter().zip(&norms).find_map(|(l, n)| {
            (n.contains("CASH") && line_amounts(l).iter().any(|a| a.0.abs() == c)).then_some(l)
        })?;
        let (_, s, e) = line_amounts(line).into_iter().find(|a| a.0.abs() == c)?;
        let conf = if change.is_some() { 0.5 } else { 0.4 };
        return Some((p, Span::from_line(line, s, e), conf));
    }
    // Best: highest priority; a total equal to cash - change wins over priority 3 or less.
    let score = |f: &(u8, Decimal, usize, usize, usize)| -> (u8, Decimal) {
        let confirmed = paid.is_some_and(|p| p == f.1);
        let p = if confirmed { f.0.max(4) + 1 } else { f.0 };
        (p, f.1)
    };
    let mut best = *found.iter().max_by(|a, b| score(a).cmp(&score(b)))?;
    // Only a subtotal was labelled, and what was paid, more than it, stands on a line under it
    // that pays nothing (`SUB-TOTAL 92.50`, `GST 1.50`, `T L 94.00`, `CASH 94.00`): that line is
    // the total, its label too garbled to read.
    if best.0 <= 1
        && let Some(p) = paid.filter(|p| *p > best.1)
        && let Some((i, s, e)) = printed_unpaid(lines, &norms, best.2 + 1, p)
    {
        best = (3, p, i, s, e);
    }
    // A line under the chosen total that pays nothing prints it plus the amounts of the lines
    // between (`SUB-TOTAL 74.06`, `DISC 0.00`, `GST 4.04`, `ROUNDING 0.00`, `78.10`; `TOTAL
    // SALES AMOUNT 33.00`, `GST 6% 1.98`, `ROUNDING ADJUSTMENT 0.02`, `TOTAL 35.00`): the till's
    // running sum, and the amount it reaches is the total. Under a subtotal that line may carry
    // any label (the total's, garbled); under another total it is a total line or an amount
    // alone. A discount's amount is taken off whatever its sign; at least one amount between is
    // not zero.
    {
        let start = best;
        let mut sum = best.1;
        let mut moved = false;
        for i in best.2 + 1..lines.len().min(best.2 + 7) {
            if starts_tax_summary(&norms[i]) {
                break;
            }
            // A line of label alone (the total's, its amount lost) is passed over.
            let Some(&(v, s, e)) = line_amounts(&lines[i]).last() else {
                continue;
            };
            if pays(&norms[i]) {
                // The sum reaches what was paid, the change printed: the total's own line was
                // lost, and the paying line prints it (`NET TOTAL 19.01`, `-0.01`, `CASH
                // 19.00`, `CHANGE 0.00`).
                // Or reaches it but for the cash rounding, its line lost (`SUB-TOTAL 27.27`, `GST
                // 1.64`, `CASH 28.90`, `CHANGE 0.00`).
                if moved
                    && change.is_some()
                    && sum > Decimal::ZERO
                    && let Some(p) = paid.filter(|p| *p == sum || off_grid_by_rounding(sum, *p))
                    && let Some((cl, cs, ce)) = cash_at.filter(|c| c.0 == i)
                {
                    best = (best.0.max(3), p, cl, cs, ce);
                }
                break;
            }
            let sums_up = best.0 <= 1
                || amount_only(&lines[i]).is_some()
                || total_priority(&norms[i]).is_some_and(|p| p >= 3);
            if moved && v == sum && v > Decimal::ZERO && sums_up {
                best = (best.0.max(3), v, i, s, e);
                break;
            }
            let off = taken_off(&norms[i]);
            let d = if off { -v.abs() } else { v };
            moved |= !d.is_zero();
            sum += d;
        }
        // A total before tax (`TOTAL SALES (EXCLUDING GST) : 165.00`) that no line under it
        // completes: it plus the tax (the amounts under it, else the tax its summary row prints
        // beside it: `SR 6 20.00 1.20`) is the total where that sum is printed, under it, on the
        // paying line, or anywhere else (an item row) on a line that pays nothing.
        if best == start && norms[start.2].contains("EXCL") {
            let summary_row = lines[start.2 + 1..]
                .iter()
                .find_map(|l| match line_amounts(l)[..] {
                    [(net, ..), (tax, ..)] if net == start.1 && tax > Decimal::ZERO => {
                        Some(net + tax)
                    }
                    _ => None,
                });
            // Else the tax line's amount lost: an amount alone under it, more than it, above
            // the paying lines and any summary (`TOTAL SALES(EXCLUDING GST) : 45.00`, `TOTAL GST
            // :`, `ROUNDING : 0.00`, `47.70`).
            let alone = (start.2 + 1..lines.len().min(start.2 + 7))
                .take_while(|&i| !starts_tax_summary(&norms[i]) && !pays(&norms[i]))
                .find_map(|i| amount_only(&lines[i]).map(|a| a.0).filter(|v| *v > start.1));
            let grosses = [moved.then_some(sum), summary_row, alone];
            let at = grosses
                .into_iter()
                .flatten()
                .filter(|g| *g > start.1)
                .find_map(|g| {
                    printed_unpaid(lines, &norms, start.2 + 1, g)
                        .or(cash_at.filter(|_| paid == Some(g)))
                        .or_else(|| printed_unpaid(lines, &norms, 0, g))
                        .map(|(i, s, e)| (g, i, s, e))
                });
            if let Some((g, i, s, e)) = at {
                best = (start.0.max(3), g, i, s, e);
            }
        }
    }
    // A discount under the total, and what was paid is the total less it, printed again under
    // the discount on a line that pays nothing (`Total 277.90`, `Discount: 0.90`, `Tofal
    // Inchusive GST: 277.00`, `CASH 277.00`): that line is the total after the discount, its
    // label too garbled to read.
    if let Some((d, dl)) = discount
        && dl > best.2
        && let Some(p) = paid.filter(|p| *p == best.1 - d)
        && let Some((i, s, e)) = printed_unpaid(lines, &norms, dl + 1, p)
    {
        best = (4, p, i, s, e);
    }
    // An amount alone on a line right under the last total line, the sum of two total lines
    // (`TOTAL 6% SUPPLIES (INC. GST): 14.10`, `TOTAL 0% SUPPLIES: 44.76`, then `58.86`): the
    // grand total of the parts, its label lost to OCR.
    // A part may be negative (goods taken back: `TOTAL 6% SUPPLIES (INC. GST): -7.89`, `TOTAL 0%
    // SUPPLIES: 11.10`, then `3.21`), and the grand total then less than the other part.
    // Or under a label too garbled to read (`TOAL PYABLE: 50.60`), on a line that pays nothing.
    if let Some(last) = parts.iter().map(|f| f.1).max()
        && let Some((i, (v, s, e))) = (last + 1..lines.len().min(last + 3))
            .find_map(|i| closing_amount(&lines[i], &norms[i]).map(|a| (i, a)))
        && v > Decimal::ZERO
        && v != best.1
        && parts.iter().enumerate().any(|(k, a)| {
            parts[k + 1..].iter().any(|b| {
                a.1 != b.1
                    && a.0 + b.0 == v
                    && (v > best.1 || a.0 < Decimal::ZERO || b.0 < Decimal::ZERO)
            })
        })
    {
        best = (4, v, i, s, e);
    }
    // The goods taken back outweigh those sold: the last total line, under a grand total's label,
    // prints a negative amount that a total line above it and another amount printed above it
    // add up to (`TOTAL 6% SUPPLIES (INC. GST): -14.71`, its label's first word lost to OCR,
    // `TOTAL 0% SUPPLIES: 12.98`, `TOTAL PAYABLE: -1.73`). That refund is the total, its sign
    // kept (only positive amounts are totals otherwise).
    if let Some(&(v, li, p)) = parts.iter().max_by_key(|f| f.1)
        && v < Decimal::ZERO
        && p >= 4
        && parts.iter().filter(|a| a.1 < li).any(|a| {
            printed
                .iter()
                .any(|b| b.1 != a.1 && b.1 < li && a.0 + b.0 == v)
        })
        && let Some(&(_, s, e)) = line_amounts(&lines[li]).iter().rev().find(|a| a.0 == v)
    {
        best = (4, v, li, s, e);
    }
    // Cash and change both printed, and what they paid is not the chosen total but is printed on
    // a line that pays nothing (`25.40` alone, its label lost to OCR, above `CASH TENDERED
    // 26.00` / `CHANGE 0.60`): that line is the total, what the receipt asked and was paid; the
    // chosen one was a note of the tax in it (`TOTAL INCLUDES 6% GST 1.44`) or an amount before
    // its rounding whose adjustment went unread.
    if cash.is_some()
        && change.is_some_and(|ch| ch >= Decimal::ZERO)
        && let Some(p) = paid.filter(|p| *p != best.1)
        && let Some((i, s, e)) = printed_unpaid(lines, &norms, 0, p)
    {
        best = (best.0.max(3), p, i, s, e);
    }
    // The chosen total is the first amount of such a rounding chain, or the chain stands under
    // it (`TOTAL (EXCLUDING GST): 21.30`, charges and tax, then `23.26`, `-0.01`, `23.25`): the
    // rounded amount is the total.
    if let Some(((before, from), total)) = rounded
        && (before == best.1 || from > best.2)
        && (change.is_none() || paid.is_none_or(|p| p == total.1))
    {
        best = total;
    }
    // Cash totals are rounded to 5 sen with a printed rounding adjustment: a total off the
    // 0.05 grid that differs from another total line by exactly that adjustment is the amount
    // before rounding; take the rounded one (printed, else the sum the receipt states).
    if let Some(r) = rounding
        && r > Decimal::ZERO
        && r < FIVE_SEN
        && !(best.1 % FIVE_SEN).is_zero()
        && paid.is_none_or(|p| p != best.1)
    {
        if let Some(alt) = found
            .iter()
            .find(|f| (f.1 - best.1).abs() == r && (f.1 % FIVE_SEN).is_zero())
        {
            best = *alt;
        } else if let Some(v) = [best.1 + r, best.1 - r]
            .into_iter()
            .find(|v| (*v % FIVE_SEN).is_zero())
        {
            best.1 = v;
            // The evidence is where the rounded amount is printed below (the cash paid, `CASH
            // 1.40` under `TOTAL 1.38` and `ROUNDING 0.02`), not the amount before rounding.
            if let Some((i, s, e)) = first_printing(lines.iter().enumerate().skip(best.2 + 1), v) {
                best = (best.0, v, i, s, e);
            }
        }
    }
    // A total off the grid and, under it, a rounding line printing an amount on the grid less
    // than 3 sen from it (`TOTAL SALES (INCLUSIVE GST) RM 37.44`, `ROUNDING RM 37.45`, the
    // adjustment's amount lost): that amount is the total after rounding.
    if let Some(r) = rounded_to
        && r.1 > best.2
        && off_grid_by_rounding(best.1, r.0)
    {
        best = (best.0.max(4), r.0, r.1, r.2, r.3);
    }
    let line = lines.get(best.2)?;
    let span = Span::from_line(line, best.3, best.4);
    let conf = if paid.is_some_and(|p| p == best.1) {
        0.9
    } else {
        0.6 + 0.05 * best.0 as f32
    };
    Some((best.1, span, conf.min(0.9)))
}

/// The legal forms a receipt's seller name ends with (Malaysian private and public companies).
const LEGAL_FORMS: &[&str] = &["SDN BHD", "SDN. BHD", "S/B", " BHD"];

/// Besides the [`LEGAL_FORMS`], company-form endings of a receipt's seller line (after
/// [`clean_seller`]).
const COMPANY_ENDINGS: &[&str] = &[
    "ENTERPRISE",
    "TRADING",
    "RESTAURANT",
    "HARDWARE",
    "STATIONERY",
    "BAKERY",
    "MARKET",
    "CAFE",
    "STORE",
];

/// Lines at the top that are never the seller.
const NOT_SELLER: &[&str] = &[
    "TAX INVOICE",
    "INVOICE",
    "RECEIPT",
    "WELCOME",
    "GST",
    "TEL",
    "FAX",
    "JALAN",
    "NO.",
    "LOT ",
    "DUPLICATE",
    "COPY",
];

/// Repairs OCR confusions in company forms and drops registration numbers:
/// `MR. D.I.¥. (M) SON BHD (CO.REG :704427-T)` → `MR. D.I.Y. (M) SDN BHD`.
pub fn clean_seller(name: &str) -> String {
    let mut s = name.replace('¥', "Y").replace(['’', '`'], "'");
    for (from, to) in [
        ("SON BHD", "SDN BHD"),
        ("SON. BHD", "SDN. BHD"),
        ("5DN BHD", "SDN BHD"),
        ("S0N BHD", "SDN BHD"),
        ("SDN BHO", "SDN BHD"),
        ("5/B", "S/B"),
        ("S/8", "S/B"),
    ] {
        s = s.replace(from, to);
    }
    let up = s.to_uppercase();
    // Cut at a registration note: "(CO.REG", "CO REG", "(COMPANY NO", "(12345-X)".
    let mut cut = s.len();
    for key in [
        "(CO.",
        "(CO ",
        "CO.REG",
        "CO REG",
        "(COMPANY",
        "COMPANY NO",
        "(ROC",
        "REG NO",
        "GST",
    ] {
        if let Some(p) = up.find(key)
            && p > 0
        {
            cut = cut.min(p);
        }
    }
    // A parenthesised group holding a registration number: "(704427-T)", "(12345-X".
    for (p, _) in s.match_indices('(') {
        let rest = s.get(p..).unwrap_or("");
        let group = rest.find(')').and_then(|e| rest.get(..e)).unwrap_or(rest);
        if group.chars().filter(|c| c.is_ascii_digit()).count() >= 4 {
            cut = cut.min(p);
            break;
        }
    }
    // The address read onto the name's line (`BEMED (SP) SDN. BHD. No.49. Jalan ...`): the name
    // ends with its company form where an address word or a house number follows it.
    if let Some((p, form)) = LEGAL_FORMS.iter().find_map(|f| up.find(f).map(|p| (p, f))) {
        let end = p + form.len();
        let end = end + usize::from(up.get(end..).is_some_and(|r| r.starts_with('.')));
        if let Some(w) = up.get(end..).unwrap_or("").split_whitespace().next() {
            let word = w.trim_end_matches(['.', ',']);
            if w.chars().any(|c| c.is_ascii_digit())
                || ["NO", "LOT", "JALAN", "JLN"].contains(&word)
            {
                cut = cut.min(end);
            }
        }
    }
    let mut out = s.get(..cut).unwrap_or(&s).to_string();
    // A bare registration number: "KING'S CONFECTIONERY S/B 273500-U".
    let words: Vec<&str> = out.split_whitespace().collect();
    // Everything from the first such number on is registration detail ("273500-U (KSB)").
    let keep = words
        .iter()
        .skip(1)
        .position(|w| w.chars().filter(|c| c.is_ascii_digit()).count() >= 4)
        .map(|i| i + 1)
        .unwrap_or(0);
    if keep > 0 && keep < words.len() {
        out = words.get(..keep).map(|w| w.join(" ")).unwrap_or(out);
    }
    out.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | '-' | '"' | '\\'))
        .to_string()
}

/// The seller of a receipt: the first company-like line among the top lines, joined with the
/// line above when it holds only the company form (`POPULAR BOOK` / `CO. (M) SDN BHD`).
pub fn receipt_seller(doc: &CleanDocument) -> Option<(String, Span)> {
    let top = doc.lines.iter().take(8);
    for (i, line) in top.enumerate() {
        let up = norm_label(&line.text);
        if NOT_SELLER.iter().any(|n| up.starts_with(n)) || !has_company_ending(&line.text) {
            continue;
        }
        let name = clean_seller(&line.text);
        let letters = name.chars().filter(|c| c.is_alphabetic()).count();
        if letters < 3 {
            continue;
        }
        // Only the form ("CO. (M) SDN BHD", "SDN BHD"): join with the line above.
        let core: String = clean_seller(&up)
            .replace("SDN. BHD", "")
            .replace("SDN BHD", "")
            .replace("S/B", "")
            .replace("(M)", "")
            .replace("CO.", "")
            .replace("BHD", "");
        if core.chars().filter(|c| c.is_alphabetic()).count() < 3
            && i > 0
            && let Some(prev) = doc.lines.get(i - 1)
        {
            let joined = format!("{} {}", prev.text.trim(), name);
            let span = Span::from_line(prev, 0, prev.text.len());
            return Some((joined, span));
        }
        return Some((name, Span::from_line(line, 0, line.text.len())));
    }
    None
}

/// What a till receipt's own reading found: the grand total from the labelled total lines and
/// a company-like seller line near the top.
#[derive(Debug, Clone, PartialEq)]
pub struct ReceiptReading {
    /// The grand total, where it was printed, and the reading's confidence.
    pub total: Option<(Decimal, Span, f32)>,
    /// The seller line (joined with the line above when that holds the name), and where.
    pub seller: Option<(String, Span)>,
}

/// Reads a receipt (call it for documents [`is_receipt`] accepts).
pub fn read(doc: &CleanDocument) -> ReceiptReading {
    ReceiptReading {
        total: receipt_total(doc),
        seller: receipt_seller(doc),
    }
}

/// Whether a party name ends in a company form (`SDN BHD`, `S/B`, `ENTERPRISE` ...).
pub fn has_company_ending(s: &str) -> bool {
    let up = clean_seller(&s.to_uppercase());
    LEGAL_FORMS
        .iter()
        .chain(COMPANY_ENDINGS)
        .any(|e| up.contains(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{BBox, Line, PageInfo, Token};

    /// A one-column receipt: each string one line, words split on spaces.
    fn receipt(lines: &[&str]) -> CleanDocument {
        let mut out = Vec::new();
        for (i, text) in lines.iter().enumerate() {
            let y = i as f32 * 20.0;
            let mut tokens = Vec::new();
            let mut spans = Vec::new();
            let mut joined = String::new();
            for (k, w) in text.split_whitespace().enumerate() {
                if k > 0 {
                    joined.push(' ');
                }
                let s = joined.len();
                joined.push_str(w);
                spans.push((s, joined.len()));
                let x = s as f32 * 8.0;
                tokens.push(Token {
                    text: w.to_string(),
                    bbox: BBox::new(x, y, x + w.len() as f32 * 8.0, y + 15.0),
                    confidence: 0.9,
                });
            }
            out.push(Line {
                page: 1,
                index: i,
                bbox: BBox::new(0.0, y, 300.0, y + 15.0),
                tokens,
                text: joined,
                token_spans: spans,
            });
        }
        CleanDocument {
            pages: vec![PageInfo {
                page: 1,
                width: 400.0,
                height: lines.len() as f32 * 20.0,
                unit: crate::result::Unit::Px,
                source: crate::result::Source::Ocr,
                engine: None,
                shear: Default::default(),
            }],
            lines: out,
        }
    }

    #[test]
    fn amounts_with_ocr_noise() {
        assert_eq!(parse_receipt_amount("RM10.50"), Some(Decimal::new(1050, 2)));
        assert_eq!(parse_receipt_amount("1O.50"), Some(Decimal::new(1050, 2)));
        assert_eq!(parse_receipt_amount("10,50"), Some(Decimal::new(1050, 2)));
        assert_eq!(
            parse_receipt_amount("1,234.50"),
            Some(Decimal::new(123450, 2))
        );
        assert_eq!(parse_receipt_amount("-1.73"), Some(Decimal::new(-173, 2)));
        assert_eq!(parse_receipt_amount(".01"), Some(Decimal::new(1, 2)));
        assert_eq!(parse_receipt_amount("-.05"), Some(Decimal::new(-5, 2)));
        assert_eq!(parse_receipt_amount(".5"), None);
        assert_eq!(parse_receipt_amount("2018"), None);
        assert_eq!(parse_receipt_amount("12:30"), None);
        assert_eq!(parse_receipt_amount("TOTAL"), None);
    }

    #[test]
    fn rounded_total_beats_gst_summary_and_subtotal() {
        let doc = receipt(&[
            "ABC TRADING SDN BHD",
            "TAX INVOICE",
            "SUB TOTAL 565.50",
            "TOTAL GST : 33.93",
            "ROUNDING : 0.02",
            "TOTAL SALES (INCLUSIVE OF GST) :",
            "599.45",
            "CASH : 600.00",
            "CHANGE : 0.55",
            "GST SUMMARY",
            "TAX CODE % AMT(RM) TAX(RM)",
            "SR 6 565.50 33.93",
            "TOTAL 565.50 33.93",
        ]);
        assert!(is_receipt(&doc));
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!(d, Decimal::new(59945, 2));
        assert_eq!(span.line, 6);
    }

    /// Label words as OCR garbles them (split, a look-alike digit at a word's end) are the
    /// words they stand for: the receipt is still one, its rounded total still the total.
    #[test]
    fn label_words_split_or_misread_by_ocr_still_name_the_total() {
        let doc = receipt(&[
            "BANH MI CAFE",
            "QTY DESCRIPTION TOTA1 TAX",
            "1 SUONG NON 9.90 SR",
            "TOTA1 (EXCLUDING GST): 21.30",
            "T OTAL (INCLUSIVE OF GST): 23.26",
            "ROUNDING ADJ: -0.01",
            "TOTA1: 23.25",
            "CAS H 50.00",
            "CHAN GE 26.75",
        ]);
        assert!(is_receipt(&doc));
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!(d, Decimal::new(2325, 2));
        assert_eq!(span.line, 6);
    }

    /// The total's labels lost to OCR: what cash less change paid, printed again on a line that
    /// pays nothing, is the total, not a tax note that names a total.
    #[test]
    fn what_cash_less_change_paid_printed_alone_is_the_total() {
        let doc = receipt(&[
            "GERBANG ALAF RESTAURANTS SDN BHD",
            "TAX INVOICE",
            "1 M MCCHICKEN 9.50",
            "1 9NUGGETS 15.90",
            "25.40",
            "CASH TENDERED 26.00",
            "CHANGE 0.60",
            "TOTAL INCLUDES 6% GST 1.44",
            "THANK YOU",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(2540, 2), 4));
        // No total label at all, the cash printed negative: the same.
        let doc = receipt(&[
            "POPULAR BOOK CO SDN BHD",
            "TAX INVOICE",
            "3PC @ 13.69 41.07 T",
            "STAT-GREAT SAVING -9.60",
            "31.47",
            "-0.02",
            "31.45",
            "CASH -50.00",
            "CHANGE 18.55",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(3145, 2), 6));
    }

    /// An amount alone right under the total lines, the sum of two of them: the grand total.
    #[test]
    fn an_amount_alone_under_two_total_lines_that_make_it_is_the_grand_total() {
        let doc = receipt(&[
            "GARDENIA BAKERIES (KL) SDN BHD",
            "TAX INVOICE",
            "O.C. WHITE 2.13 9 19.17",
            "TOTAL 6% SUPPLIES (INC. GST): 14.10",
            "TOTAL 0% SUPPLIES: 44.76",
            "58.86",
            "RECEIVED ABOVE GOODS IN GOOD ORDER",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(5886, 2), 5));
    }

    /// A tax note that names the total prints the tax contained in it: the amount it is the
    /// tax of (at the rate it names) is the total, its own label lost, paid by card.
    #[test]
    fn the_amount_a_tax_note_is_the_tax_of_is_the_total() {
        let doc = receipt(&[
            "MR. D.I.Y. (M) SDN BHD",
            "TAX INVOICE",
            "ACRYLIC TAPE 18MM 4 X 2.90 11.60",
            "TEST PEN 886A 1 X 19.60 19.60",
            "TTAL INCL. GST@6% RM 31.20",
            "EDC RM 31.20",
            "GST @6% INCLUDED IN TOTAL RM 1.77",
            "EXCHANGE ARE ALLOWED WITHIN 7 DAYS",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(3120, 2), 4));
        assert_eq!(
            tax_rate_named("TOTAL INCLUDES 6% GST"),
            Some(Decimal::new(6, 0))
        );
        assert_eq!(tax_rate_named("SERV. CHARGE (10%)"), None);
        assert_eq!(tax_rate_named("TOTAL INCLUDES 0% GST"), None);
        // A note whose amount is the tax of nothing printed stays what it was.
        let doc = receipt(&[
            "KEDAI MAJU ENTERPRISE",
            "TAX INVOICE",
            "ITEM A 5.00",
            "TOTAL INCLUDES 6% GST 5.00",
            "CASH 10.00",
            "CHANGE 5.00",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(500, 2));
    }

    /// The parts of a grand total may be negative (goods taken back), and the amount alone under
    /// them, their sum, is then less than the other part.
    #[test]
    fn a_negative_part_still_adds_up_to_the_grand_total_under_it() {
        let doc = receipt(&[
            "GARDENIA BAKERIES (KL) SDN BHD",
            "TAX INVOICE / ADJUSTMENT NOTE",
            "O.C. WHITE 2.13 10 2 0 8 17.04",
            "DELICIA-R/BERRY 3.72 0 2 0 -2 -7.44",
            "TOTAL 6% SUPPLIES (INC. GST): -7.89",
            "TOTAL 0% SUPPLIES: 11.10",
            "3.21",
            "RECEIVED ABOVE GOODS IN GOOD ORDER",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(321, 2), 6));
    }

    /// More goods taken back than sold: the grand total's line prints the negative sum of the
    /// parts above it, and that refund is the total.
    #[test]
    fn a_refund_is_the_negative_sum_of_the_parts() {
        let doc = receipt(&[
            "GARDENIA BAKERIES (KL) SDN BHD",
            "TAX INVOICE / ADJUSTMENT NOTE",
            "O.C. WHITE 2.13 3 1 0 2 4.26",
            "TOTAL 0% SUPPLIES: 4.26",
            "MUFFIN C&W 1.25 0 9 0 -9 -11.25",
            "L 6% SUPPLIES (INC. GST): -11.92",
            "TOTAL 0% SUPPLIES: 4.26",
            "TOTAL PAYABLE: -7.66",
            "RECEIVED ABOVE GOODS IN GOOD ORDER",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(-766, 2), 7));
        // Not a negative line the parts do not make.
        let doc = receipt(&[
            "GARDENIA BAKERIES (KL) SDN BHD",
            "TOTAL 6% SUPPLIES (INC. GST): 11.92",
            "TOTAL 0% SUPPLIES: 4.26",
            "TOTAL PAYABLE: -7.66",
        ]);
        assert_ne!(
            receipt_total(&doc).map(|t| t.0),
            Some(Decimal::new(-766, 2))
        );
    }

    /// `PAYMENT` names the amount handed over: less the change, what was paid, printed alone
    /// under a discount, is the total after it.
    #[test]
    fn a_payment_less_its_change_is_what_was_paid() {
        let doc = receipt(&[
            "DOMINO'S PIZZA",
            "TAX INVOICE",
            "SUB-TOTAL : 15.60",
            "COUPON DISCOUNT : 8.40",
            ": 7.20",
            "PAYMENT : 10.00",
            "CHANGE DUE : 02.80",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(720, 2), 4));
        // `TOTAL PAYMENT` is a total, not the cash.
        let doc = receipt(&[
            "KEDAI MAJU ENTERPRISE",
            "TAX INVOICE",
            "TOTAL PAYMENT : 7.20",
            "CASH : 10.00",
            "CHANGE : 2.80",
        ]);
        let (d, span, conf) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line, conf), (Decimal::new(720, 2), 2, 0.9));
    }

    /// A rounding of under 5 sen printed alone between two amounts alone, the second on the
    /// 0.05 grid: the second is the total, under the chosen one or under what its labels left.
    #[test]
    fn an_unlabelled_rounding_chain_gives_the_rounded_total() {
        let doc = receipt(&[
            "UROKO JAPANESE CUISINE SDN BHD",
            "TAX INVOICE",
            "1 UROKO SALAD @ 28.00 28.00 SR",
            "GST : 4.93",
            "GRAND TOTAL : 87.08",
            "0.02",
            "87.10",
            "GST SUMMARY",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(8710, 2), 6));
        let doc = receipt(&[
            "BANH MI CAFE SDN BHD",
            "TAX INVOICE",
            "1 205 SUONG NON 9.90 SR",
            "TOTAL (EXCLUDING GST): 21.30",
            "SERV. CHARGE (3%): 0.65",
            "GST PAYABLE (6%): 1.31",
            "23.26",
            "-0.01",
            "23.25",
            "CLOSED: 29-10-2017",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(2325, 2), 8));
        // The rounding under its own label, the totals' labels lost, cash without a change line.
        let doc = receipt(&[
            "AEON CO. (M) BHD",
            "1X 000001888854 0.20SR",
            "PLASTICS BAG",
            "88.97",
            "ROUNDING ADJ -0.02",
            "88.95",
            "CASH 100.00",
            "GST SUMMARY TAX",
            "TOTAL 83.93 5.04",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(8895, 2), 5));
        // An item of 0.02 between two prices is no rounding when neither lands on the grid.
        let doc = receipt(&[
            "KEDAI MAJU ENTERPRISE",
            "TAX INVOICE",
            "TOTAL : 12.48",
            "0.02",
            "12.51",
            "CASH 20.00",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(1248, 2));
    }

    #[test]
    fn a_rounding_chain_is_read_by_its_arithmetic_whatever_its_labels() {
        // The adjustment's and the rounded amount's labels garbled, a payment by card after.
        let doc = receipt(&[
            "GIANT HYPERMARKET SDN BHD",
            "261 HELANG MINYAK MASAK 5KG RM48.70 Z",
            "551 NESCAFE CLASSIC ARABICA RM67.80 Z",
            "TOTAL SALES (INCLUSIVE GST) RM 181.98",
            "ROUNING ADJUSTMENT RM .02",
            "ROUNDING RM 182.00",
            "CREDIT RM 182.00",
            "CHANGE RM .00",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(18200, 2), 5));
        // Both amounts under total labels, the change's label garbled: cash alone does not say
        // what was owed, the chain does.
        let doc = receipt(&[
            "AEON CO. (M) BHD",
            "PLASTICS BAG 0.20",
            "TOTAL SALES I NCL GST 88.97",
            "ROUDING ADJ -0.02",
            "TOTAL ATTER ADJ INCL GST 88.95",
            "CASH 100.00",
            "ITEM COUNT 12 CHA RGE AMT 11.05",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(8895, 2), 4));
        // The rounding printed without its sign, on a line with a count, the rounded amount
        // beside a zero.
        let doc = receipt(&[
            "KEDAI MAJU ENTERPRISE",
            "ITEM 3 TOTAL WITH GST @ 6% 41.48",
            "QTY 8 ROUNDING 0.02",
            "0.00 41.50",
            "CHANGE 0.00",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(4150, 2));
        // Two prices and an item of 0.02: neither price is on the grid, no chain.
        let doc = receipt(&[
            "KEDAI MAJU ENTERPRISE",
            "TOTAL : 12.48",
            "SWEET 0.02",
            "TEA 2.13",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(1248, 2));
    }

    #[test]
    fn label_words_with_a_letter_dropped_or_split_are_restored() {
        assert_eq!(read_label("TOAL PYABLE: 50.60"), "TOTAL PAYABLE: 50.60");
        assert_eq!(
            read_label("TO TAL SALES (INC. GST)"),
            "TOTAL SALES (INC. GST)"
        );
        assert_eq!(
            read_label("OTAL 6% S UPPLIES (EXCL. GST):"),
            "TOTAL 6% SUPPLIES (EXCL. GST):"
        );
        assert_eq!(read_label("CHANE : 25.80"), "CHANGE : 25.80");
        // Words of their own stay: a label word, a short word, one two label words could be.
        assert_eq!(read_label("SUB TOTAL"), "SUB TOTAL");
        assert_eq!(read_label("TOTAL AMOUNT"), "TOTAL AMOUNT");
        assert_eq!(read_label("TEA 2.13"), "TEA 2.13");
        assert_eq!(read_label("COTTAGE"), "COTTAGE");
    }

    #[test]
    fn the_sum_of_two_supply_totals_under_a_garbled_label_is_the_total() {
        let doc = receipt(&[
            "GARDENIA BAKERIES (KL) SDN BHD",
            "O.C JUMBO 2.97 5 0 0 5 14.85",
            "TOTA L 0% SPPLIES: 27.45",
            "CR-B'SCOTCH 0.72 20 0 0 20 14.40",
            "TOTAL 6% SUPPLIES (XCL. GST): 21.84",
            "GST: 1.31",
            "TOTAL 6% SUPPLIE S (INC. GST): 23.15",
            "TOTAL 0% SUPP1IES: 27.45",
            "TAL PAYBLE: 50.60",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(5060, 2), 8));
    }

    #[test]
    fn a_subtotal_and_the_amounts_under_it_sum_to_the_unlabelled_total() {
        let doc = receipt(&[
            "SEMUA HARDWARE SDN BHD",
            "PAINT BRUSH 2 37.03 74.06",
            "SUB-TOTAL 74.06",
            "DISC 0.00",
            "GST 4.04",
            "ROUNDING 0.00",
            "78.10",
            "DEBIT CARD 78.10",
            "CHANGE 0.00",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(7810, 2), 6));
        // A discount printed without its sign is taken off.
        let doc = receipt(&[
            "SEMUA HARDWARE SDN BHD",
            "SUB-TOTAL 80.00",
            "DISCOUNT 5.00",
            "75.00",
            "DEBIT CARD 75.00",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(7500, 2));
        // Nothing between that moves the sum: the subtotal stays.
        let doc = receipt(&[
            "SEMUA HARDWARE SDN BHD",
            "SUB-TOTAL 80.00",
            "DISC 0.00",
            "80.00",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").1.line, 1);
    }

    #[test]
    fn a_total_before_tax_and_the_amounts_under_it_sum_to_the_total() {
        // A total without its tax, the tax and a rounding under it, the sum alone, its label lost.
        let doc = receipt(&[
            "RESTORAN WAN SHENG",
            "(B03) JASMINE GREEN 2.0 2.30 4.60",
            "TOTAL SALES (EXCLUDING GST) : 51.42",
            "DISCOUNT : 0.00",
            "TOTAL GST : 3.08",
            "ROUNDING : 0.00",
            "54.50",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(5450, 2), 6));
        // A total that the tax and the rounding under it take to a total line; the cash is
        // unreadable.
        let doc = receipt(&[
            "MR D.I.Y. (M) SDN BHD",
            "1 106 33.00 SR",
            "TOTAL SALES AMOUNT 33.00",
            "GST 6% 1.98",
            "ROUNDING ADJUSTMENT 0.02",
            "TOTAL 35.00",
            "CASH S5.00",
            "CHANGE RETURNED 20.00-",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(3500, 2), 5));
        // Under a total, a line with another label is no sum of it.
        let doc = receipt(&[
            "MR D.I.Y. (M) SDN BHD",
            "TOTAL 33.00",
            "GST 6% 1.98",
            "POINTS BALANCE 34.98",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(3300, 2));
    }

    #[test]
    fn a_cash_promotion_is_taken_off_not_tendered() {
        // The total's label lost: the subtotal less the promotion is the amount under it, paid
        // by card.
        let doc = receipt(&[
            "UNIQLO (MALAYSIA) SDN BHD",
            "1 349000 76.00 76 SR",
            "1 184810 165.00 165 SR",
            "SUBTOTAL: 251.00",
            "CASH PROMOTION 34.00",
            "0.00",
            "217.00",
            "MASTER 217.00",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(21700, 2), 6));
    }

    #[test]
    fn an_amount_to_be_paid_is_owed_not_tendered() {
        let doc = receipt(&[
            "POPULAR BOOK CO. (M) SDN BHD",
            "TOTAL 25.44",
            "0.01",
            "AMOUNT TO BE PAID : 25.45",
            "CASH RECEIVED : 25.50",
            "CHANGE : 0.05",
        ]);
        let (d, span, conf) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(2545, 2), 3));
        assert!(conf >= 0.9, "confirmed by the cash less the change: {conf}");
    }

    #[test]
    fn an_s_between_digits_is_a_five() {
        assert_eq!(parse_receipt_amount("1S3.35"), Some(Decimal::new(15335, 2)));
        // At an end it may be a dollar sign, or a tax code.
        assert_eq!(parse_receipt_amount("S5.00"), None);
        assert_eq!(parse_receipt_amount("3.56S"), Some(Decimal::new(356, 2)));
    }

    #[test]
    fn a_discount_under_the_total_and_the_cash_paid_give_the_total_after_it() {
        let doc = receipt(&[
            "KEDAI HARDWARE MAJU",
            "TOWEL ROD 12.00",
            "Total 277.90",
            "Discount: 0.90",
            "Tofal Inchusive GST: 277.00",
            "CASH 277.00",
            "THANK YOU",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!(d, Decimal::new(27700, 2));
        assert_eq!(span.line, 4);
        // Without the cash to confirm it, the labelled total stands.
        let doc = receipt(&[
            "KEDAI HARDWARE MAJU",
            "TOWEL ROD 12.00",
            "Total 277.90",
            "Discount: 0.90",
            "Tofal Inchusive GST: 277.00",
            "THANK YOU",
        ]);
        assert_eq!(
            receipt_total(&doc).map(|t| t.0),
            Some(Decimal::new(27790, 2))
        );
    }

    /// The change's label lost to OCR: the amount alone under the cash is the change where
    /// the cash less it is printed above, on a line that pays nothing; what it paid is the
    /// total.
    #[test]
    fn an_amount_alone_under_the_cash_that_leaves_a_printed_total_is_the_change() {
        let doc = receipt(&[
            "FUYI MINI MARKET",
            "TAX INVOICE",
            "1 KOTA 8.49 8.49 9.00 SR",
            "GST 6% + 0.51",
            "9.00",
            "TOTAL INCLUDES GST 6% 9.00",
            "CUSTOMER'S PAYMENT",
            "CASH 50.00",
            "41.00",
            "THANK YOU",
        ]);
        let (d, _, conf) = receipt_total(&doc).expect("total");
        assert_eq!(d, Decimal::new(900, 2));
        assert!(conf >= 0.9);
        // An amount of the tax summary under the cash is no change, whatever it leaves.
        let doc = receipt(&[
            "KEDAI PAPAN YEW CHUAN",
            "TOTAL SALES (EXCLUDING GST) : 7.50",
            "TOTAL GST : 0.45",
            "TOTAL SALES (INCLUSIVE OF GST) : 7.95",
            "CASH : 7.95",
            "AMT (RM) TAX (RM)",
            "0.45",
            "7.50 0.45",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(795, 2));
        // A later total (after its rounding, the adjustment's amount lost) is what was paid.
        let doc = receipt(&[
            "POPULAR BOOK CO SDN BHD",
            "2PC @ 13.69 27.38 T",
            "STAT-GREAT SAVING -6.40",
            "TOTAL RM INCL. OF GST 20.98",
            "ROUNDING ADJ",
            "TOTAL RM 21.00",
            "CASH -50.00",
            "29.00",
            "GST SUMMARY AMOUNT (RM) TAX (RM)",
            "T @ 6% 19.79 1.19",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(2100, 2), 5));
        // An amount alone that leaves nothing printed is no change: cash alone pays.
        let doc = receipt(&["KEDAI RUNCIT MAJU", "TOTAL 7.40", "CASH 10.00", "3.00"]);
        let (d, _, _) = receipt_total(&doc).expect("total");
        assert_eq!(d, Decimal::new(740, 2));
    }

    /// The cash's label lost to OCR (`20.90`, `21.00`, `CHANGE RM .10`): an amount alone on one
    /// of the two lines over the change, more than it, is the cash where it less the change is
    /// printed above it on a line that pays nothing.
    #[test]
    fn an_amount_alone_over_the_change_that_leaves_a_printed_amount_is_the_cash() {
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "0715 KNORR CHICKEN STOCK 1K RM15.90 Z",
            "20.90",
            "21.00",
            "CHANGE RM .10",
            "GST SUMMARY AMOUNT (RM) TAX (RM)",
            "Z = 0% 20.90 .00",
            "THANK YOU. PLEASE COME AGAIN",
        ]);
        // No total and no cash read: the change given back still makes it a till receipt.
        assert!(is_receipt(&doc));
        let (d, span, conf) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(2090, 2), 2));
        assert!(conf >= 0.6);
    }

    /// The till's running sum reaches what was paid (cash less the change printed) on the
    /// paying line, the total's own amount lost (`NET TOTAL 19.01`, `-0.01`, `NET TOTAL
    /// ROUNDED :`, `CASH 19.00`, `CHANGE 0.00`); a line of label alone is passed over.
    #[test]
    fn the_running_sum_that_reaches_what_was_paid_is_the_total() {
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "1 6.40 6.40 SR",
            "1 11.53 11.53 SR",
            "TOTAL (MYR) : 17.93",
            "GST @ 6% : 1.08",
            "NET TOTAL (MYR) : 19.01",
            "-0.01",
            "NET TOTAL ROUNDED (MYR) :",
            "CASH : 19.00",
            "CHANGE : 0.00",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(1900, 2), 8));
        // Only a subtotal labelled, the tax and rounding under it, the total line's amount lost.
        let doc = receipt(&[
            "KEDAI MAKAN",
            "1 FISHBALL NOODLE 7.00",
            "1 SUB TOTAL 7.00",
            "GST 6% 0.42",
            "ROUNDING ADJ -0.02",
            "NET TOTAL",
            "CASH 7.40",
            "CHANGE 0.00",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(740, 2));
        // The total line's own amount passed over a label line: the sum reaches it.
        let doc = receipt(&[
            "SPAGHETTI HOUSE",
            "TOTAL AMOUNT : 155.50",
            "9.31",
            "ROUNDING ADJ : -0.01",
            "TOTAL AMOUNT:",
            "TOTAL: RM 164.80",
            "SR 6% 155.50 9.31",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(16480, 2), 5));
        // Cash without a change line proves nothing: the sum that reaches it is not taken.
        let doc = receipt(&[
            "KEDAI MAKAN",
            "SUB TOTAL 7.00",
            "GST 6% 0.42",
            "ROUNDING ADJ -0.02",
            "CASH 7.40",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(700, 2));
    }

    /// A tax note that names the total (`GST @6% INCLUDED IN TOTAL RM 0.28`) where the total's
    /// own amount was lost: what cash less change paid (5.00, 6/106 of it 0.28) is the total.
    #[test]
    fn a_tax_note_of_what_was_paid_names_the_total() {
        let doc = receipt(&[
            "MR. D.I.Y. (M) SDN BHD",
            "9555047302026 1 X 1.80 1.80",
            "9555047301890 2 X 1.60 3.20",
            "TOTAL INCL. GST@6%",
            "CASH RM 50.00",
            "CHANGE RM 45.00",
            "GST @6% INCLUDED IN TOTAL RM 0.28",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(500, 2));
    }

    /// An item table's header that names the amount and the tax (`QTY S/PRICE AMOUNT TAX`)
    /// starts no tax summary: the total lines under it are read.
    #[test]
    fn an_item_header_with_amount_and_tax_starts_no_summary() {
        let doc = receipt(&[
            "KEDAI PAPAN YEW CHUAN",
            "TAX INVOICE",
            "QTY S/PRICE S/PRICE AMOUNT TAX",
            "100140 4 24.00 25.44 101.76 SR",
            "TOTAL QTY: 4 101.76",
            "TOTAL SALES (EXCLUDING GST) : 96.00",
            "TOTAL GST : 5.76",
            "ROUNDING : 0.00",
            "TOTAL SALES (INCLUSIVE OF GST) : 101.76",
            "CASH : 150.00",
            "GST SUMMARY",
            "TAX CODE AMT (RM) TAX (RM)",
            "SR 6 96.00 5.76",
            "TOTAL : 96.00 5.76",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(10176, 2), 8));
        assert!(starts_tax_summary("AMOUNT (RM) TAX (RM)"));
        assert!(starts_tax_summary("AMT (RM) TAX (RM)"));
        assert!(starts_tax_summary("% TAX (RM)"));
        assert!(!starts_tax_summary("TOTAL TAX (RM) 1.20"));
    }

    /// A total before tax is completed by its tax where no line under it prints the sum: the
    /// sum printed on the paying line, or the tax of its summary row, the sum printed alone.
    #[test]
    fn a_total_before_tax_is_completed_by_its_tax() {
        let doc = receipt(&[
            "KEDAI PAPAN YEW CHUAN",
            "ITEM QTY S/PRICE S/PRICE AMOUNT TAX",
            "101756 10 16.50 17.49 174.90 SR",
            "TOTAL QTY: 10 174.90",
            "TOTAL SALES (EXCLUDING GST) : 165.00",
            "DISCOUNT :",
            "TOTAL GST : 9.90",
            "ROUNDING :",
            "TOTAL SALES (INCLUSIVE OF GST) :",
            "CASH : 174.90",
            "CHANGE :",
            "GST SUMMARY",
            "TAX CODE % AMT (RM) TAX (RM)",
            "6 165.00 9.90",
            "TOTAL : 165.00 9.90",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(17490, 2), 9));
        // The tax line's amount lost: the summary row's tax completes it.
        let doc = receipt(&[
            "KEDAI PAPAN YEW CHUAN",
            "ITEM QTY S/PRICE AMOUNT TAX",
            "1512 2 21.20 SR",
            "TOTAL QTY: 2 21.20",
            "TOTAL SALES (EXCLUDING GST) : 20.00",
            "DISCOUNT : 0.00",
            "TOTAL GST :",
            "ROUNDING : 0.00",
            "21.20",
            "CASH :",
            "0.00",
            "TAX CODE % AMT (RM) TAX (RM)",
            "SR 6 20.00 1.20",
            "TOTAL : 20.00 1.20",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(2120, 2), 8));
        // The sum printed nowhere: the total before tax stays (nothing proves the sum).
        let doc = receipt(&[
            "KEDAI PAPAN YEW CHUAN",
            "TOTAL SALES (EXCLUDING GST) : 120.00",
            "TOTAL GST : 7.20",
            "TOTAL SALES (INCLUSIVE OF GST) :",
            "CHANGE : 22.80",
        ]);
        assert_eq!(
            receipt_total(&doc).expect("total").0,
            Decimal::new(12000, 2)
        );
        // The tax's amount lost and no summary row: the amount alone under it is the total.
        let doc = receipt(&[
            "KEDAI PAPAN YEW CHUAN",
            "QTY AMOUNT TAX",
            "3 15.90 47.70 SR",
            "TOTAL SALES(EXCLUDING GST) : 45.00",
            "DISCOUNT :",
            "TOTAL GST :",
            "ROUNDING : 0.00",
            "47.70",
            "CHANGE :",
            "GST SUMMARY",
            "SR 6 45.00",
            "TOTAL: 45.00",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(4770, 2), 7));
    }

    /// The cash rounding's adjustment lost to OCR: the amount a rounding line takes the total
    /// to, or what was paid less than 3 sen from the running sum, on the grid, is the total.
    #[test]
    fn a_rounding_whose_adjustment_was_lost_still_rounds_the_total() {
        let doc = receipt(&[
            "99 SPEED MART S/B",
            "0857 INDOCAFE COFFEEMIX 3IN RM29.95 S",
            "407 CADBURY CHOCOLATE HAZEL RM7.49 S",
            "TOTAL SALES (INCLUSIVE GST) RM 37.44",
            "ROUNDING ADJUSTMENT RM",
            "ROUNDING RM 37.45",
            "CHANGE RM .00",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(3745, 2), 5));
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "03022 1 14.00",
            "SUB-TOTAL 27.27",
            "DISC 0.00",
            "GST 1.64",
            "ROUNDING",
            "TOTAL",
            "CASH 28.90",
            "CHANGE 0.00",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(2890, 2), 7));
        // Further than a rounding moves: the sum is not what was paid.
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "SUB-TOTAL 27.27",
            "GST 1.64",
            "CASH 29.00",
            "CHANGE 0.00",
        ]);
        assert_ne!(receipt_total(&doc).expect("total").0, Decimal::new(2900, 2));
        assert!(off_grid_by_rounding(
            Decimal::new(3744, 2),
            Decimal::new(3745, 2)
        ));
        assert!(!off_grid_by_rounding(
            Decimal::new(3740, 2),
            Decimal::new(3745, 2)
        ));
        assert!(!off_grid_by_rounding(
            Decimal::new(3741, 2),
            Decimal::new(3745, 2)
        ));
    }

    /// A total's label over the cash handed over, the cash's own label lost to OCR (`TOTAL
    /// ROUNDED`, `50.00`, `CHANGE 21.50`): the amount less the change is printed above as a
    /// total; that is the total.
    #[test]
    fn cash_under_a_total_label_whose_own_label_was_lost_is_no_total() {
        let doc = receipt(&[
            "GERBANG ALAF RESTAURANTS SDN BHD",
            "QTY ITEM TOTAL",
            "1 L MCCHICKEN 11.10",
            "1 6NUGGETS 7.50",
            "1 AYAMGORENG (TA) 9.90",
            "TAKEOUT TOTAL (INCL GST) 28.50",
            "TOTAL ROUNDED",
            "50.00",
            "CHANGE 21.50",
            "TOTAL INCLUDES 6% GST 1.61",
            "THANK YOU AND PLEASE COME AGAIN.",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(2850, 2), 5));
    }

    #[test]
    fn cash_minus_change_confirms_total() {
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "TOTAL QTY 3",
            "TOTAL 4.00",
            "T0TAL INCL GST 7.40",
            "CASH 10.00",
            "CHANGE 2.60",
            "THANK YOU",
        ]);
        let (d, _, conf) = receipt_total(&doc).expect("total");
        assert_eq!(d, Decimal::new(740, 2));
        assert!(conf >= 0.9);
    }

    #[test]
    fn what_was_paid_under_a_subtotal_is_the_total_whose_label_ocr_garbled() {
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "SUB-TOTAL 92.50",
            "GST 1.50",
            "ROUNDING 0.00",
            "T L 94.00",
            "CASH 94.00",
            "CHANGE 0.00",
        ]);
        let (d, span, conf) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(9400, 2), 4));
        assert!(conf >= 0.9);
        // Without the garbled line the subtotal stays: what was paid is printed nowhere.
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "SUB-TOTAL 92.50",
            "CASH 100.00",
            "CHANGE 6.00",
        ]);
        assert_eq!(receipt_total(&doc).expect("total").0, Decimal::new(9250, 2));
    }

    #[test]
    fn cash_tendered_under_a_total_label_is_no_total() {
        let doc = receipt(&[
            "DION REALTIES SDN BHD",
            "PAY PARKING TICKET",
            "5.00 RM",
            "AMOUNT INCL. GST",
            "5.00 RM",
            "ACCEPTED TOTAL",
            "10.00 RM",
            "CHANGE",
            "5.00 RM",
            "GST 6%",
            "0.28 RM",
        ]);
        let (d, span, conf) = receipt_total(&doc).expect("total");
        assert_eq!(d, Decimal::new(500, 2));
        assert_eq!(span.line, 4);
        assert!(conf >= 0.9);
        // Without the amount printed above, the total line stays the total.
        let doc = receipt(&["KEDAI RUNCIT MAJU", "TOTAL 10.00", "CHANGE 5.00"]);
        assert_eq!(
            receipt_total(&doc).map(|t| t.0),
            Some(Decimal::new(1000, 2))
        );
    }

    #[test]
    fn the_amount_paid_less_change_and_a_rounding_without_its_zero_give_the_rounded_total() {
        // The paid amount less the change confirms the payable line over a larger total.
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "TOTAL AMT INCL GST @ 6% : 7.42",
            "ROUNDING ADJUSTMENT : (0.01)",
            "TOTAL AMT PAYABLE : 7.40",
            "PAID AMOUNT : 10.00",
            "CHANGE : 2.60",
        ]);
        assert_eq!(receipt_total(&doc).map(|t| t.0), Some(Decimal::new(740, 2)));
        // `RM .01`: the adjustment is known, so the total is the rounded one.
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "TOTAL SALES (INCLUSIVE GST) RM 45.34",
            "ROUNDING ADJUSTMENT RM .01",
            "ROUNDING RM 45.35",
            "CREDIT RM 45.35",
        ]);
        assert_eq!(
            receipt_total(&doc).map(|t| t.0),
            Some(Decimal::new(4535, 2))
        );
        // The rounded total is the cash paid: its evidence is the cash line, where it is
        // printed, not the total's line (which prints the amount before rounding).
        let doc = receipt(&[
            "KEDAI RUNCIT MAJU",
            "GST 6% RM0.08",
            "TOTAL RM1.38",
            "ROUNDING RM0.02",
            "CASH RM1.40",
        ]);
        let (d, span, _) = receipt_total(&doc).expect("total");
        assert_eq!((d, span.line), (Decimal::new(140, 2), 4));
        let printed = &doc.lines[span.line].text[span.start..span.end];
        assert!(printed.contains("1.40"), "{printed}");
    }

    #[test]
    fn seller_cleanup_and_join() {
        assert_eq!(
            clean_seller("MR. D.T.¥. (M) SON BHD (CO.REG :704427-T )"),
            "MR. D.T.Y. (M) SDN BHD"
        );
        assert_eq!(
            clean_seller("KING'S CONFECTIONERY S/B 273500-U (KSB)"),
            "KING'S CONFECTIONERY S/B"
        );
        // The address read onto the name's line is cut at the company form; what is no
        // address (a branch in parentheses) stays.
        assert_eq!(
            clean_seller("BEMED (SP} SDN. BHD. No.49. Jalan Olnar G J3/G"),
            "BEMED (SP} SDN. BHD."
        );
        assert_eq!(
            clean_seller("KEDAI MAJU SDN BHD LOT 5, JALAN BESAR"),
            "KEDAI MAJU SDN BHD"
        );
        assert_eq!(
            clean_seller("CHECKERS HYPERMARKET SDN BHD (JALAN KLANG LAMA)"),
            "CHECKERS HYPERMARKET SDN BHD (JALAN KLANG LAMA)"
        );
        let doc = receipt(&[
            "POPULAR BOOK",
            "CO. (M) SDN BHD",
            "(COMPANY NO 113825-W)",
            "TAX INVOICE",
            "TOTAL 11.80",
            "CASH 20.00",
            "CHANGE 8.20",
        ]);
        let (name, _) = receipt_seller(&doc).expect("seller");
        assert_eq!(name, "POPULAR BOOK CO. (M) SDN BHD");
        let reading = read(&doc);
        assert_eq!(reading.total.map(|t| t.0), Some(Decimal::new(1180, 2)));
    }

    #[test]
    fn invoices_are_left_alone() {
        let doc = receipt(&[
            "Muster GmbH",
            "Rechnung Nr. 4711",
            "Datum 01.02.2024",
            "Gesamtbetrag 119,00",
            "IBAN DE02120300000000202051",
        ]);
        assert!(!is_receipt(&doc));
    }
}
