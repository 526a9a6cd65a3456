//! Amount parsing in every common format (`1 234,56`, `1.234,56`, `1,234.56`, `1'234.56`,
//! `-12.00`, `12.00-`, `(12.00)`, `1234`), with currency symbols or codes attached or next to it
//! (`€ 12,50`, `12.50 EUR`, `RM 12.50`, `100 zł`, `15 грн`), and currency detection.
//!
//! A single separator followed by exactly three digits (`1.234`, `9.000`) is ambiguous: it is a
//! thousands separator unless the document's decimal separator (the one its two-decimal amounts
//! use, passed as `decimal_hint`) is that same character, or the integer part is `0`.

use rust_decimal::Decimal;
use std::str::FromStr;
use std::sync::LazyLock;

use regex::Regex;

/// An amount found in a text.
#[derive(Debug, Clone, PartialEq)]
pub struct AmountMatch {
    /// Byte start (including sign / attached currency).
    pub start: usize,
    /// Byte end.
    pub end: usize,
    /// Value.
    pub value: Decimal,
    /// Digits after the decimal separator (0 for integers).
    pub decimals: u32,
    /// ISO 4217 of an attached or adjacent currency.
    pub currency: Option<&'static str>,
    /// Followed by `%`.
    pub percent: bool,
}

/// Currency tokens: (printed, ISO). Longer tokens first where they share a prefix.
const CURRENCIES: &[(&str, &str)] = &[
    ("EUR", "EUR"),
    ("€", "EUR"),
    ("Euro", "EUR"),
    ("USD", "USD"),
    ("US$", "USD"),
    ("$", "USD"),
    ("GBP", "GBP"),
    ("£", "GBP"),
    ("PLN", "PLN"),
    ("zł", "PLN"),
    ("zl", "PLN"),
    ("UAH", "UAH"),
    ("₴", "UAH"),
    ("грн", "UAH"),
    ("RUB", "RUB"),
    ("RUR", "RUB"),
    ("₽", "RUB"),
    ("руб", "RUB"),
    ("MYR", "MYR"),
    ("RM", "MYR"),
    ("CHF", "CHF"),
    ("SFr", "CHF"),
    ("Fr", "CHF"),
    ("CZK", "CZK"),
    ("Kč", "CZK"),
    ("SGD", "SGD"),
    ("S$", "SGD"),
    ("JPY", "JPY"),
    ("¥", "JPY"),
    ("SEK", "SEK"),
    ("NOK", "NOK"),
    ("DKK", "DKK"),
    ("HUF", "HUF"),
    ("CAD", "CAD"),
    ("AUD", "AUD"),
    ("CNY", "CNY"),
    ("INR", "INR"),
    ("₹", "INR"),
];

/// Whether a currency token is a symbol (may touch the digits) rather than a code/word.
fn is_symbol(tok: &str) -> bool {
    tok.chars().all(|c| !c.is_alphanumeric()) || tok.ends_with('$')
}

/// The currency a word (as printed, trailing dots ignored) stands for.
pub fn currency_of_word(word: &str) -> Option<&'static str> {
    let w = word.trim_end_matches('.').trim_end_matches(':');
    CURRENCIES.iter().find(|(t, _)| *t == w).map(|&(_, c)| c)
}

/// A currency token that starts at `text[pos..]` (with a word boundary after letters).
fn currency_prefix_at(text: &str, pos: usize) -> Option<(usize, &'static str)> {
    let rest = text.get(pos..)?;
    for (tok, iso) in CURRENCIES {
        if let Some(after) = rest.strip_prefix(tok) {
            let letters = tok.chars().any(char::is_alphabetic);
            let after = after.strip_prefix('.').unwrap_or(after);
            if letters && after.starts_with(|c: char| c.is_alphabetic()) {
                continue;
            }
            return Some((pos + tok.len(), iso));
        }
    }
    None
}

/// A currency token that ends at `text[..pos]` (with a word boundary before letters).
fn currency_suffix_at(text: &str, pos: usize) -> Option<(usize, &'static str)> {
    let head = text.get(..pos)?;
    let head_trim = head.strip_suffix('.').unwrap_or(head);
    for (tok, iso) in CURRENCIES {
        if let Some(before) = head_trim.strip_suffix(tok) {
            let letters = tok.chars().any(char::is_alphabetic);
            if letters && before.ends_with(|c: char| c.is_alphabetic()) {
                continue;
            }
            return Some((before.len(), iso));
        }
    }
    None
}

/// All currency tokens of a text: (start, end, ISO). Codes and words need word boundaries.
pub fn find_currencies(text: &str) -> Vec<(usize, usize, &'static str)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if !text.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let prev_alpha = text[..i]
            .chars()
            .next_back()
            .is_some_and(char::is_alphabetic);
        let mut found = None;
        if let Some((end, iso)) = currency_prefix_at(text, i) {
            let tok = &text[i..end];
            if is_symbol(tok) || !prev_alpha {
                // Codes must not be part of a longer word (checked by currency_prefix_at after).
                found = Some((end, iso));
            }
        }
        match found {
            Some((end, iso)) => {
                out.push((i, end, iso));
                i = end;
            }
            None => i += text[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    out
}

static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[0-9]{1,3}(?: [0-9]{3})+[.,][0-9]{1,3}|[0-9]{1,3}(?:[.,'’][0-9]{3})+(?:[.,][0-9]{1,3})?|[0-9]+(?:[.,][0-9]{1,3})?").expect("amount regex")
});

/// Parses the digits of one number as printed (no sign, no currency).
pub fn parse_number(s: &str, decimal_hint: Option<char>) -> Option<(Decimal, u32)> {
    let seps: Vec<(usize, char)> = s
        .char_indices()
        .filter(|(_, c)| !c.is_ascii_digit())
        .collect();
    let digits_only = |x: &str| x.chars().filter(char::is_ascii_digit).collect::<String>();
    if seps.is_empty() {
        return Decimal::from_str(s).ok().map(|d| (d, 0));
    }
    let (last_i, last_c) = *seps.last()?;
    let tail = &s[last_i + last_c.len_utf8()..];
    let distinct: Vec<char> = {
        let mut v: Vec<char> = seps.iter().map(|&(_, c)| c).collect();
        v.dedup();
        v
    };
    let decimal_sep = if distinct.len() >= 2 {
        // `1.234,56`: the last separator is the decimal one, all others the same grouping one.
        let group = distinct[0];
        if seps[..seps.len() - 1].iter().any(|&(_, c)| c != group) || last_c == group {
            return None;
        }
        if !matches!(last_c, '.' | ',') {
            return None;
        }
        Some(last_c)
    } else if seps.len() > 1 {
        // `1.234.567`: grouping only.
        None
    } else if tail.len() == 3 {
        let int_part = &s[..last_i];
        if last_c == ' ' || last_c == '\'' || last_c == '’' {
            None
        } else if int_part.trim_start_matches('0').is_empty() || decimal_hint == Some(last_c) {
            Some(last_c)
        } else {
            None
        }
    } else if matches!(last_c, '.' | ',') {
        Some(last_c)
    } else {
        return None;
    };
    // Group sizes must be 3 for all groups after the first.
    let (int_str, frac_str) = match decimal_sep {
        Some(_) => (&s[..last_i], tail),
        None => (s, ""),
    };
    let groups: Vec<&str> = int_str.split(|c: char| !c.is_ascii_digit()).collect();
    if groups.len() > 1 && groups.iter().skip(1).any(|g| g.len() != 3) {
        return None;
    }
    let int_digits = digits_only(int_str);
    let canonical = if frac_str.is_empty() {
        int_digits
    } else {
        format!("{int_digits}.{frac_str}")
    };
    let d = Decimal::from_str(&canonical).ok()?;
    Some((d, frac_str.len() as u32))
}

/// Finds all amounts in `text`, skipping byte ranges in `masked` (dates, ids, times ...).
pub fn find_amounts(
    text: &str,
    decimal_hint: Option<char>,
    masked: &[(usize, usize)],
) -> Vec<AmountMatch> {
    let mut out = Vec::new();
    for m in NUMBER.find_iter(text) {
        let (mut s, mut e) = (m.start(), m.end());
        let num = m.as_str();
        if masked.iter().any(|&(a, b)| a < e && s < b) {
            continue;
        }
        let before = text[..s].chars().next_back();
        if before.is_some_and(|c| {
            c.is_alphanumeric() && !c.is_alphabetic()
                || c.is_alphabetic() && currency_suffix_at(text, s).is_none()
        }) {
            continue;
        }
        let after = text[e..].chars().next();
        if after.is_some_and(|c| c.is_ascii_digit()) {
            continue;
        }
        let Some((value, decimals)) = parse_number(num, decimal_hint) else {
            continue;
        };
        // Currency attached or one space away, before or after.
        let mut currency = None;
        let before_trim = text[..s].trim_end_matches(' ');
        if before_trim.len() + 1 >= s
            && let Some((cs, iso)) = currency_suffix_at(text, before_trim.len())
        {
            currency = Some(iso);
            s = cs;
        }
        let after_sp = e + (text[e..].len() - text[e..].trim_start_matches(' ').len()).min(1);
        if currency.is_none()
            && let Some((ce, iso)) = currency_prefix_at(text, after_sp)
        {
            currency = Some(iso);
            e = ce;
        } else if after.is_some_and(|c| c.is_alphabetic()) {
            // `12abc`: part of a code.
            continue;
        }
        // Sign: leading `-` (also before the currency), trailing `-`, or parentheses.
        let mut negative = false;
        if text[..s].ends_with('-') {
            let pre = text[..s - 1].chars().next_back();
            if !pre.is_some_and(|c| c.is_alphanumeric()) {
                negative = true;
                s -= 1;
            }
        } else if text[e..].starts_with('-')
            && !text[e + 1..].starts_with(|c: char| c.is_alphanumeric())
        {
            negative = true;
            e += 1;
        } else if text[..s].ends_with('(') && text[e..].starts_with(')') {
            negative = true;
            s -= 1;
            e += 1;
        }
        let percent = text[e..].trim_start_matches(' ').starts_with('%');
        if percent {
            e = e + (text[e..].len() - text[e..].trim_start_matches(' ').len()) + 1;
        }
        out.push(AmountMatch {
            start: s,
            end: e,
            value: if negative { -value } else { value },
            decimals,
            currency,
            percent,
        });
    }
    out
}

/// The decimal separator most two-decimal amounts of a document use (`,` or `.`), if any.
pub fn decimal_separator<'a>(texts: impl Iterator<Item = &'a str>) -> Option<char> {
    static TWO: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[0-9]([.,])[0-9]{2}(?:[^0-9]|$)").expect("regex"));
    let (mut dot, mut comma) = (0, 0);
    for t in texts {
        for c in TWO.captures_iter(t) {
            match c.get(1).map(|m| m.as_str()) {
                Some(".") => dot += 1,
                Some(",") => comma += 1,
                _ => {}
            }
        }
    }
    match (dot, comma) {
        (0, 0) => None,
        (d, c) if d >= c => Some('.'),
        _ => Some(','),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vals(text: &str) -> Vec<String> {
        find_amounts(text, None, &[])
            .iter()
            .map(|a| a.value.to_string())
            .collect()
    }

    #[test]
    fn formats() {
        assert_eq!(vals("1 234,56"), ["1234.56"]);
        assert_eq!(vals("1.234,56"), ["1234.56"]);
        assert_eq!(vals("1,234.56"), ["1234.56"]);
        assert_eq!(vals("1'234.56"), ["1234.56"]);
        assert_eq!(vals("-12.00"), ["-12.00"]);
        assert_eq!(vals("12.00-"), ["-12.00"]);
        assert_eq!(vals("(12.00)"), ["-12.00"]);
        assert_eq!(vals("1234"), ["1234"]);
        assert_eq!(vals("1.234.567,89"), ["1234567.89"]);
        assert_eq!(vals("0,5"), ["0.5"]);
        assert_eq!(vals("a 12 345 b"), ["12", "345"]);
    }

    #[test]
    fn ambiguous_thousands() {
        assert_eq!(vals("1.234"), ["1234"]);
        let a = find_amounts("9.000", Some('.'), &[]);
        assert_eq!(a[0].value.to_string(), "9.000");
        assert_eq!(vals("0.500"), ["0.500"]);
    }

    #[test]
    fn currencies_attached() {
        let a = find_amounts("Total: RM 12.50", None, &[]);
        assert_eq!(a[0].currency, Some("MYR"));
        assert_eq!(a[0].value.to_string(), "12.50");
        let a = find_amounts("€12,50 und 100 zł und 15 грн и 7 руб.", None, &[]);
        let cur: Vec<_> = a.iter().map(|a| a.currency).collect();
        assert_eq!(cur, [Some("EUR"), Some("PLN"), Some("UAH"), Some("RUB")]);
        let a = find_amounts("529,87 EUR", None, &[]);
        assert_eq!(a[0].currency, Some("EUR"));
        assert_eq!(&"529,87 EUR"[a[0].start..a[0].end], "529,87 EUR");
        let a = find_amounts("-€ 5.00", None, &[]);
        assert_eq!(a[0].value.to_string(), "-5.00");
    }

    #[test]
    fn skips_codes_and_masks() {
        assert!(vals("DE123456789").is_empty());
        assert!(vals("H87").is_empty());
        assert!(vals("12abc").is_empty());
        assert!(find_amounts("on 05.03.2018", None, &[(3, 13)]).is_empty());
        let a = find_amounts("19 %", None, &[]);
        assert!(a[0].percent);
    }

    #[test]
    fn finds_currency_words() {
        let c: Vec<_> = find_currencies("Währung: EUR, Betrag €")
            .iter()
            .map(|c| c.2)
            .collect();
        assert_eq!(c, ["EUR", "EUR"]);
        assert!(find_currencies("EUROPA").is_empty());
        assert_eq!(currency_of_word("RM"), Some("MYR"));
    }

    #[test]
    fn document_decimal_separator() {
        assert_eq!(
            decimal_separator(["1,50", "2,30", "3.10"].into_iter()),
            Some(',')
        );
        assert_eq!(decimal_separator(["9.00"].into_iter()), Some('.'));
        assert_eq!(decimal_separator(["abc"].into_iter()), None);
    }
}
