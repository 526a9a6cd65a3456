//! Amount parsing in every common format (`1 234,56`, `1.234,56`, `1,234.56`, `1'234.56`,
//! `-12.00`, `12.00-`, `(12.00)`, `1234`), with currency symbols or codes attached or next to it
//! (`€ 12,50`, `12.50 EUR`, `EUR12.50`, `RM 12.50`, `100 zł`, `15 грн`, `1 250 Ft`), OCR
//! readings of them (`1O,5O`, `3. 38`), and currency detection.
//!
//! A single separator followed by exactly three digits (`1.234`, `9.000`) is ambiguous: it is a
//! thousands separator unless the document's decimal separator (the one its two-decimal amounts
//! use, passed as `decimal_hint`) is that same character, or the integer part is `0`.

use super::labels;
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
    ("kr", "SEK"),
    ("Kr", "SEK"),
    ("HUF", "HUF"),
    ("Ft", "HUF"),
    ("RON", "RON"),
    ("lei", "RON"),
    ("Lei", "RON"),
    ("LEI", "RON"),
    ("BGN", "BGN"),
    ("ISK", "ISK"),
    ("CAD", "CAD"),
    ("AUD", "AUD"),
    ("CNY", "CNY"),
    ("INR", "INR"),
    ("₹", "INR"),
];

/// Tokens that several currencies print, with every currency they may stand for (the first is
/// the candidate's value; which one the document means is decided from its other evidence:
/// the country of its IBANs and VAT ids, its language).
const SHARED_TOKENS: &[(&str, &[&str])] = &[
    ("kr", &["SEK", "DKK", "NOK", "ISK"]),
    ("Kr", &["SEK", "DKK", "NOK", "ISK"]),
    ("$", &["USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN"]),
    ("Fr", &["CHF"]),
];

/// Every currency a printed currency token may stand for: one for codes and most symbols,
/// several for shared ones (`kr`, `$`). Empty for a token that is no currency.
pub fn currency_options(token: &str) -> Vec<&'static str> {
    let w = token.trim().trim_end_matches('.').trim_end_matches(':');
    if let Some((_, isos)) = SHARED_TOKENS.iter().find(|(t, _)| *t == w) {
        return isos.to_vec();
    }
    currency_of_word(w).into_iter().collect()
}

/// Whether a printed token stands for more than one currency.
pub fn is_shared_token(token: &str) -> bool {
    currency_options(token).len() > 1
}

/// The currency a country (ISO 3166 alpha-2, or `EL` for Greece as VAT ids write it) pays in.
pub fn currency_of_country(cc: &str) -> Option<&'static str> {
    Some(match cc {
        "AT" | "BE" | "HR" | "CY" | "EE" | "FI" | "FR" | "DE" | "GR" | "EL" | "IE" | "IT"
        | "LV" | "LT" | "LU" | "MT" | "NL" | "PT" | "SK" | "SI" | "ES" | "MC" | "SM" | "VA"
        | "AD" | "ME" | "XK" => "EUR",
        "PL" => "PLN",
        "UA" => "UAH",
        "RU" => "RUB",
        "GB" => "GBP",
        "CH" | "LI" => "CHF",
        "CZ" => "CZK",
        "SE" => "SEK",
        "DK" => "DKK",
        "NO" => "NOK",
        "IS" => "ISK",
        "HU" => "HUF",
        "RO" => "RON",
        "US" => "USD",
        "CA" => "CAD",
        "AU" => "AUD",
        "MY" => "MYR",
        "SG" => "SGD",
        "JP" => "JPY",
        "CN" => "CNY",
        "IN" => "INR",
        _ => return None,
    })
}

/// The currency a document in a language most likely uses (none for languages spoken in many
/// currency areas, as English).
pub fn currency_of_language(lang: &str) -> Option<&'static str> {
    Some(match lang {
        "de" | "fr" | "nl" | "it" | "es" | "pt" | "fi" | "et" | "lv" | "lt" | "sk" | "sl"
        | "el" => "EUR",
        "pl" => "PLN",
        "uk" => "UAH",
        "ru" => "RUB",
        "cs" => "CZK",
        "sv" => "SEK",
        "da" => "DKK",
        "nb" | "no" => "NOK",
        "hu" => "HUF",
        "ro" => "RON",
        _ => return None,
    })
}

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
        // `1.234.567`: grouping only; but `163.025.88` (OCR or a typist used the grouping
        // sign for the decimal one): groups of three, then two decimals, reads one way only.
        let groups_of_three = s[..last_i]
            .split(|c: char| !c.is_ascii_digit())
            .skip(1)
            .all(|g| g.len() == 3);
        (matches!(last_c, '.' | ',') && tail.len() == 2 && groups_of_three).then_some(last_c)
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
///
/// Beyond the printed formats, OCR readings of them count: letters read for digits inside an
/// otherwise numeric token ([`ocr_digits`]), decimals split by a space (`3. 38`, `3 .38`,
/// `1 234,5 6`) and space-grouped integers (`1 250 Ft`), each only in numeric context
/// ([`find_split_amounts`]).
pub fn find_amounts(
    text: &str,
    decimal_hint: Option<char>,
    masked: &[(usize, usize)],
) -> Vec<AmountMatch> {
    let mapped = ocr_digits(text);
    let text = mapped.as_ref();
    let mut out = find_split_amounts(text, decimal_hint, masked);
    let mut masked = masked.to_vec();
    masked.extend(out.iter().map(|a| (a.start, a.end)));
    let masked = masked.as_slice();
    for m in NUMBER.find_iter(text) {
        let (mut s, mut e) = (m.start(), m.end());
        let num = m.as_str();
        if masked.iter().any(|&(a, b)| a < e && s < b) {
            continue;
        }
        let before = text[..s].chars().next_back();
        // Digits glued to letters are part of a word or code, unless the letters are a currency
        // or a totals label OCR glued to its amount (`Bruttó érték22377646`): that amount still
        // counts when it has four digits or more or decimals (`MwSt19` is a rate).
        let glued_letters =
            before.is_some_and(char::is_alphabetic) && currency_suffix_at(text, s).is_none();
        let label_glued = glued_letters
            && labels::ends_totals_label(
                &text[text[..s].trim_end_matches(char::is_alphabetic).len()..s],
            );
        if before.is_some_and(|c| c.is_alphanumeric() && !c.is_alphabetic())
            || glued_letters && !label_glued
        {
            continue;
        }
        let after = text[e..].chars().next();
        if after.is_some_and(|c| c.is_ascii_digit()) {
            continue;
        }
        let Some((value, decimals)) = parse_number(num, decimal_hint) else {
            continue;
        };
        if label_glued && decimals == 0 && value.abs() < Decimal::ONE_THOUSAND {
            continue;
        }
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
        } else if currency.is_none()
            && let Some((ce, iso)) = stray_before_currency(text, e, decimals)
        {
            currency = Some(iso);
            e = ce;
        } else if after.is_some_and(|c| c.is_alphabetic()) && !tax_code_after(&text[e..], decimals)
        {
            // `12abc`: part of a code.
            continue;
        }
        // Sign: leading `-` (also before the currency), trailing `-`, or parentheses.
        let mut negative = false;
        if text[..s].ends_with('-') {
            if minus_before(text, s) {
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
    out.sort_by_key(|a| a.start);
    out
}

/// A currency code glued after an amount with two decimals behind one stray letter that OCR
/// read from a speck or a tax mark (`144404,34Агрн`, `12,90AEUR`): the currency's end and ISO
/// code. Only codes of three letters or more, or symbols, so that a letter and a one-letter
/// currency (`5.00SR`) stay a code.
fn stray_before_currency(text: &str, end: usize, decimals: u32) -> Option<(usize, &'static str)> {
    let stray = text.get(end..)?.chars().next()?;
    if decimals != 2 || !stray.is_alphabetic() {
        return None;
    }
    let at = end + stray.len_utf8();
    let (ce, iso) = currency_prefix_at(text, at)?;
    let code = &text[at..ce];
    let long = code.chars().filter(|c| c.is_alphabetic()).count() >= 3;
    let symbol = !code.chars().any(char::is_alphabetic);
    (long || symbol).then_some((ce, iso))
}

/// Whether the text right after an amount is a receipt's tax code glued to it (`3.56A`,
/// `12,90B`): one capital letter that ends the token, after an amount with two decimals.
fn tax_code_after(rest: &str, decimals: u32) -> bool {
    let mut chars = rest.chars();
    decimals == 2
        && chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.next().is_none_or(char::is_whitespace)
}

/// What OCR reads for a digit: `O`/`o` for 0, `l`/`I`/`|` for 1 (and `S` for 5, only between
/// two digits).
fn digit_for(c: char) -> Option<char> {
    match c {
        'O' | 'o' => Some('0'),
        'l' | 'I' | '|' => Some('1'),
        _ => None,
    }
}

/// [`digit_for`] and the Cyrillic letters OCR reads for digits (`З` for 3, `б` for 6, `О` for
/// 0): for a column that holds numbers only; Cyrillic letters are never a byte for a byte, so
/// not in [`ocr_digits`].
pub(crate) fn digit_lookalike(c: char) -> Option<char> {
    match c {
        'З' | 'з' => Some('3'),
        'б' => Some('6'),
        'О' | 'о' => Some('0'),
        c => digit_for(c),
    }
}

/// A numeric token after OCR repair: an amount (`12.50`, `1.234,56`), a date (`05.02.2022`),
/// a time (`12:30`) or a run of at least three digits.
static NUMERIC_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[0-9]{1,3}(?:[.,'’][0-9]{3})*(?:[.,][0-9]{1,2})?|[0-9]+[.,][0-9]{1,2}|[0-9]{1,4}[./-][0-9]{1,2}[./-][0-9]{2,4}|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?|[0-9]{3,})$",
    )
    .expect("numeric token regex")
});

/// The text with letters that OCR reads for digits (`1O.5O`, `l2,50`, `2O22`) replaced by those
/// digits, in numeric context only: a whitespace-separated token (less a currency code or
/// symbol at either end, a sign, brackets and closing punctuation) made of digits, such letters
/// and separators only, holding at least two real digits and no more such letters than digits,
/// that reads as an amount, a date, a time or a number of three or more digits once repaired.
/// `S` becomes 5 only between two digits. Byte offsets are unchanged (every replacement is one
/// ASCII byte for one), so matches in the result are matches in `text`. `No.12`, `IO`,
/// `I/2024`, `INV-2O22`, `Total:1O` stay as they are.
pub fn ocr_digits(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    // Most lines have no such letter next to a digit or separator: nothing to look at.
    let near_digit = |k: usize| {
        let next_to = |j: Option<usize>| {
            j.and_then(|j| bytes.get(j))
                .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'.' | b','))
        };
        next_to(k.checked_sub(1)) || next_to(Some(k + 1))
    };
    if !(0..bytes.len()).any(|k| {
        matches!(bytes[k], b'O' | b'o' | b'l' | b'I' | b'|' | b'S' | b'D') && near_digit(k)
    }) {
        return std::borrow::Cow::Borrowed(text);
    }
    let in_core = |c: char| {
        c.is_ascii_digit() || digit_for(c).is_some() || matches!(c, '.' | ',' | ':' | '/' | '-')
    };
    let mut out: Option<Vec<u8>> = None;
    let mut tokens: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(st) = start.take() {
                tokens.push((st, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        tokens.push((st, text.len()));
    }
    for (ts, te) in tokens {
        if !bytes[ts..te].iter().any(u8::is_ascii_digit) {
            continue;
        }
        let mut s = ts;
        let mut e = te;
        // Currency glued on either side (`EURl2.50`, `1O,5O€`).
        if let Some(len) = glued_currency(&text[s..e], true) {
            s += len;
        }
        while e > s && matches!(bytes[e - 1], b'.' | b',' | b';' | b':' | b')') {
            e -= 1;
        }
        if let Some(len) = glued_currency(&text[s..e], false) {
            e -= len;
        }
        while s < e && matches!(bytes[s], b'(' | b'-' | b'+') {
            s += 1;
        }
        while e > s && matches!(bytes[e - 1], b'.' | b',' | b';' | b':' | b')' | b'-') {
            e -= 1;
        }
        let Some(core) = text.get(s..e) else {
            continue;
        };
        if core.is_empty() || !core.chars().all(in_core) {
            continue;
        }
        let digits = core.chars().filter(char::is_ascii_digit).count();
        let letters = core.chars().filter(|&c| digit_for(c).is_some()).count();
        if letters == 0 || digits < 2 || letters > digits {
            continue;
        }
        let repaired: String = core.chars().map(|c| digit_for(c).unwrap_or(c)).collect();
        if !NUMERIC_TOKEN.is_match(&repaired) {
            continue;
        }
        let buf = out.get_or_insert_with(|| bytes.to_vec());
        buf[s..e].copy_from_slice(repaired.as_bytes());
    }
    // `S` for 5 and `D` for 0 between two digits (`1S0`, `256D7,14`, after the repairs above),
    // and `D` for a decimal's last or first 0 (`1882,8D`, `4.5D €`, `123,D6`).
    let cur: &[u8] = out.as_deref().unwrap_or(bytes);
    let digit = |k: usize| cur.get(k).is_some_and(u8::is_ascii_digit);
    let between = |k: usize| k > 0 && digit(k - 1) && digit(k + 1);
    let decimal_tail = |k: usize| {
        k >= 3
            && digit(k - 3)
            && matches!(cur[k - 2], b'.' | b',')
            && digit(k - 1)
            && !cur.get(k + 1).is_some_and(u8::is_ascii_alphanumeric)
    };
    // `D` for a decimal's first 0 (`123,D6`): a digit and a separator before it, the last
    // digit after it.
    let decimal_head = |k: usize| {
        k >= 2
            && digit(k - 2)
            && matches!(cur[k - 1], b'.' | b',')
            && digit(k + 1)
            && !cur.get(k + 2).is_some_and(u8::is_ascii_alphanumeric)
    };
    // `D` for the last 0 before the decimals (`99D,85`): a digit before it, the separator and
    // two decimals after it.
    let integer_tail = |k: usize| {
        k >= 1
            && digit(k - 1)
            && cur.get(k + 1).is_some_and(|b| matches!(b, b'.' | b','))
            && digit(k + 2)
            && digit(k + 3)
            && !cur.get(k + 4).is_some_and(u8::is_ascii_alphanumeric)
    };
    // `D` for a thousands group's first 0 (`45.D38,56`): a digit and a separator before it,
    // the group's two other digits after it, then a separator or the number's end.
    let group_head = |k: usize| {
        k >= 2
            && digit(k - 2)
            && matches!(cur[k - 1], b'.' | b',' | b'\'')
            && digit(k + 1)
            && digit(k + 2)
            && cur
                .get(k + 3)
                .is_none_or(|b| matches!(b, b'.' | b',') || !b.is_ascii_alphanumeric())
    };
    let fixes: Vec<(usize, u8)> = (0..cur.len())
        .filter_map(|k| match cur[k] {
            b'S' if between(k) => Some((k, b'5')),
            b'D' if between(k)
                || decimal_tail(k)
                || decimal_head(k)
                || integer_tail(k)
                || group_head(k) =>
            {
                Some((k, b'0'))
            }
            _ => None,
        })
        .collect();
    if !fixes.is_empty() {
        let buf = out.get_or_insert_with(|| bytes.to_vec());
        for (k, d) in fixes {
            buf[k] = d;
        }
    }
    match out {
        // Only ASCII bytes were replaced by ASCII bytes: still UTF-8.
        Some(buf) => String::from_utf8(buf)
            .map(std::borrow::Cow::Owned)
            .unwrap_or(std::borrow::Cow::Borrowed(text)),
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// The byte length of a currency token at the start (`prefix`) or end of a token, where the
/// rest of the token begins (ends) with a digit or a letter OCR reads for one.
fn glued_currency(tok: &str, prefix: bool) -> Option<usize> {
    let digitish =
        |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit() || digit_for(c).is_some());
    CURRENCIES.iter().find_map(|(cur, _)| {
        if prefix {
            let rest = tok.strip_prefix(cur)?;
            let rest = rest.strip_prefix('.').unwrap_or(rest);
            digitish(rest.chars().next()).then_some(tok.len() - rest.len())
        } else {
            let rest = tok.strip_suffix(cur)?;
            digitish(rest.chars().next_back()).then_some(cur.len())
        }
    })
}

/// A decimal split by OCR (`3. 38`, `3 .38`, `3 . 38`, `1 234,5 6`, `5.028, 86`) or an integer
/// grouped by spaces (`1 250`, taken only with a currency).
static SPLIT_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?P<int>[0-9]{1,3}(?:[ .,'’][0-9]{3})+|[0-9]+)(?:(?P<sep> ?[.,] ?)(?P<f1>[0-9]) ?(?P<f2>[0-9]))?",
    )
    .expect("split amount regex")
});

/// Amounts that OCR split with spaces, in numeric context only:
/// - a decimal with a space at its separator or between its two decimals (`3. 38`, `3 .38`,
///   `1 234,5 6`) with a currency attached, or with the document's decimal separator and
///   nothing after it on the line but a tax code letter (the amount column of a receipt): a
///   list number followed by a quantity (`3. 38 pcs`, `1. 12 Stück`) is not an amount;
/// - an integer grouped by single spaces (`1 250`) with a currency before or after it
///   (`1 250 Ft`, `Kč 1 250`); without one, `12 345` stays two numbers.
///
/// Digits glued to letters or other digits, and masked ranges, are skipped as in
/// [`find_amounts`].
fn find_split_amounts(
    text: &str,
    decimal_hint: Option<char>,
    masked: &[(usize, usize)],
) -> Vec<AmountMatch> {
    let mut out = Vec::new();
    for c in SPLIT_NUMBER.captures_iter(text) {
        let (Some(m), Some(int)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let (s0, e0) = (m.start(), m.end());
        let spaced_int = int.as_str().contains(' ');
        let split = match (c.name("sep"), c.name("f1"), c.name("f2")) {
            (Some(sep), Some(f1), Some(f2)) => {
                if !sep.as_str().contains(' ') && f2.start() == f1.end() {
                    // Printed whole (`1 234,56`): the regular reading takes it.
                    continue;
                }
                Some((sep.as_str().trim().chars().next().unwrap_or('.'), f1, f2))
            }
            _ => None,
        };
        if split.is_none() && !spaced_int {
            continue;
        }
        if masked.iter().any(|&(a, b)| a < e0 && s0 < b) {
            continue;
        }
        let before = text[..s0].chars().next_back();
        let after = text[e0..].chars().next();
        if before.is_some_and(|c| {
            c.is_ascii_digit()
                || matches!(c, '.' | ',')
                || c.is_alphabetic() && currency_suffix_at(text, s0).is_none()
        }) || after.is_some_and(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | ':' | '/'))
        {
            continue;
        }
        // A currency attached or one space away.
        let before_trim = text[..s0].trim_end_matches(' ');
        let cur_before = (before_trim.len() + 1 >= s0)
            .then(|| currency_suffix_at(text, before_trim.len()))
            .flatten();
        let after_sp = e0 + (text[e0..].len() - text[e0..].trim_start_matches(' ').len()).min(1);
        let cur_after = currency_prefix_at(text, after_sp);
        if cur_after.is_none() && after.is_some_and(char::is_alphabetic) {
            continue;
        }
        let currency = cur_before.map(|c| c.1).or(cur_after.map(|c| c.1));
        let int_digits: String = int.as_str().chars().filter(char::is_ascii_digit).collect();
        // ` ,88` glued to its decimals: the separator OCR pushed off the integer (`-33 ,88`),
        // which no printed number does; a cell of its own where a column gap follows.
        let pushed_off = c
            .name("sep")
            .is_some_and(|s| s.as_str().starts_with(' ') && !s.as_str().ends_with(' '))
            && c.name("f1")
                .zip(c.name("f2"))
                .is_some_and(|(a, b)| a.end() == b.start());
        let (value, decimals, sep) = match split {
            Some((sep, f1, f2)) => {
                let v = format!("{int_digits}.{}{}", f1.as_str(), f2.as_str());
                (v, 2u32, Some(sep))
            }
            None => (int_digits, 0u32, None),
        };
        let in_context = currency.is_some()
            || sep.is_some_and(|sep| {
                decimal_hint == Some(sep)
                    && (ends_line(&text[e0..]) || pushed_off && text[e0..].starts_with("  "))
            });
        if !in_context {
            continue;
        }
        let Ok(value) = Decimal::from_str(&value) else {
            continue;
        };
        let (mut s, mut e) = (s0, e0);
        if let Some((cs, _)) = cur_before {
            s = cs;
        } else if let Some((ce, _)) = cur_after {
            e = ce;
        }
        let mut negative = false;
        if minus_before(text, s) {
            negative = true;
            s -= 1;
        }
        out.push(AmountMatch {
            start: s,
            end: e,
            value: if negative { -value } else { value },
            decimals,
            currency,
            percent: false,
        });
    }
    out
}

/// Digit runs broken by single spaces (`1162 20,96`, `28 1.322,70`, `-1. 363,34`).
static SPACED_RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[0-9][0-9.,]*(?: [0-9.,]*[0-9][0-9.,]*)+").expect("spaced run regex")
});

/// Other readings of money amounts that OCR broke with a space at any place
/// (`Total TTC : 1162 20,96 EUR`, `Rechnungsbetrag: EUR 28 1.322,70`), which the regular reading
/// takes for two numbers (`1162` and `20,96`): every run of numbers separated by single spaces,
/// joined from each of its numbers to its end, that reads as one amount with two decimals
/// once joined. They are not values on their own (`3 12,50` is as likely a quantity and a
/// price): the totals take one only where the printed arithmetic confirms it to the cent.
/// Runs glued to letters (other than a currency) or to other digits are skipped.
pub fn joined_readings(text: &str, decimal_hint: Option<char>) -> Vec<AmountMatch> {
    joined_with(text, decimal_hint, 2)
}

/// [`joined_readings`] of a document that prints whole units (forints, [`MoneyPrint::WholeUnits`]):
/// runs that read as one grouped whole number once joined (`92.37 3` as 92 373, `2. 336.258`),
/// a grouping sign among their digits.
pub fn joined_whole_readings(text: &str, decimal_hint: Option<char>) -> Vec<AmountMatch> {
    joined_with(text, decimal_hint, 0)
}

/// Joined readings with `decimals` decimals ([`joined_readings`]); whole numbers only where a
/// grouping sign is among their digits or every piece has two digits or more and they make
/// five or more.
fn joined_with(text: &str, decimal_hint: Option<char>, decimals: u32) -> Vec<AmountMatch> {
    let mapped = ocr_digits(text);
    let text = mapped.as_ref();
    let mut out = Vec::new();
    for m in SPACED_RUN.find_iter(text) {
        let (s0, e0) = (m.start(), m.end());
        let before = text[..s0].chars().next_back();
        let after = text[e0..].chars().next();
        if before.is_some_and(|c| c.is_alphabetic() && currency_suffix_at(text, s0).is_none())
            || after.is_some_and(|c| c.is_alphabetic() && currency_prefix_at(text, e0).is_none())
        {
            continue;
        }
        let negative = minus_before(text, s0);
        let mut starts = vec![s0];
        starts.extend(m.as_str().match_indices(' ').map(|(i, _)| s0 + i + 1));
        if starts.len() > 6 {
            continue;
        }
        let end = s0 + m.as_str().trim_end_matches(['.', ',']).len();
        for (k, &st) in starts[..starts.len() - 1].iter().enumerate() {
            let joined: String = text[st..end].chars().filter(|&c| c != ' ').collect();
            // Whole numbers without a grouping sign: pieces of two digits or more that make a
            // number of five or more (`2325 7008`: a forint VAT split in its middle), never a
            // count beside a small number (`2 183`).
            let digits = |t: &str| t.chars().filter(char::is_ascii_digit).count();
            if decimals == 0
                && !joined.contains(['.', ',', '\''])
                && (digits(&joined) < 5 || text[st..end].split(' ').any(|p| digits(p) < 2))
            {
                continue;
            }
            let Some((value, d)) = parse_number(&joined, decimal_hint) else {
                continue;
            };
            if d != decimals {
                continue;
            }
            let negative = negative && k == 0;
            out.push(AmountMatch {
                start: if negative { st - 1 } else { st },
                end,
                value: if negative { -value } else { value },
                decimals,
                currency: None,
                percent: false,
            });
        }
    }
    out
}

/// Whether nothing follows on the line but spaces, a closing sign and a one-letter tax code
/// (`A`, `B`, `*`): the end of a receipt's amount column.
fn ends_line(rest: &str) -> bool {
    let t = rest.trim();
    let t = t.strip_prefix('-').unwrap_or(t).trim_start();
    t.is_empty() || t.chars().count() == 1 && t.chars().all(|c| c.is_alphabetic() || c == '*')
}

/// How a document prints its money, read from all its text ([`number_style`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NumberStyle {
    /// The decimal separator.
    pub decimal: Option<char>,
    /// No number has two decimals: the money is printed in whole units (forints, yen, or
    /// prices without cents), so integers are money amounts.
    pub whole_units: bool,
    /// Numbers look printed in their shortest form (`922.3`, `854`, `13.49`): some have one
    /// decimal and no two-decimal number ends in a zero, as a spreadsheet's raw cell values
    /// print. Only the source can confirm it ([`MoneyPrint::Shortest`]).
    pub shortest: bool,
}

/// Which printed numbers are a document's money amounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MoneyPrint {
    /// Two decimals (`12.50`): the usual print.
    #[default]
    Cents,
    /// Whole units ([`NumberStyle::whole_units`]): integers are money too.
    WholeUnits,
    /// Shortest forms of exact values (a spreadsheet's cells, [`NumberStyle::shortest`]):
    /// integers and one-decimal numbers are money too.
    Shortest,
}

impl MoneyPrint {
    /// Whether an amount of `decimals` decimals and this scheme (`None`, `int`, `percent` ...)
    /// is money in a document printed this way.
    pub fn is_money(self, decimals: u32, scheme: Option<&str>) -> bool {
        match (scheme, self) {
            (None, _) if decimals == 2 => true,
            (Some("int"), MoneyPrint::WholeUnits | MoneyPrint::Shortest) => true,
            (None, MoneyPrint::Shortest) => decimals == 1,
            _ => false,
        }
    }
}

/// The document's decimal separator: the one more numbers print with exactly two digits after
/// it (dates like `2025.05.15` do not count); without any, the one a grouped number does not
/// use (`1.323.919` groups with dots: the decimal separator is the comma).
pub fn number_style<'a>(texts: impl Iterator<Item = &'a str>) -> NumberStyle {
    static TWO: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[0-9]([.,])[0-9]{2}(?:[^0-9]|$)").expect("regex"));
    // OCR may split a date after a separator (`2021.07. 06`), or read its second separator as
    // a comma (`2023.03, 10`, `05.02, 2022`: the year and month or day in range).
    static DATE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"[0-9]{1,4}[./-] ?[0-9]{1,2}[./-] ?[0-9]{2,4}|(?:19|20)[0-9]{2}[./-] ?(?:0?[1-9]|1[0-2]), ?(?:0?[1-9]|[12][0-9]|3[01])(?:[^0-9]|$)|(?:0?[1-9]|[12][0-9]|3[01])[./-] ?(?:0?[1-9]|1[0-2]), ?(?:19|20)[0-9]{2}(?:[^0-9]|$)",
        )
        .expect("date-like regex")
    });
    static QUANTITY: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[0-9]+[.,][0-9]+ ?[x×*] ?[0-9]").expect("quantity regex"));
    static PERCENT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[0-9]+[.,][0-9]+ ?%").expect("percent regex"));
    // A number followed by a unit of measure (`0,50 db`, `40,00 kg`, `2.50 h`): a quantity.
    static MEASURED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"[0-9]+[.,][0-9]+ {0,2}([\p{L}]+[23²³]?)\.?(?:[^\p{L}0-9]|$)")
            .expect("measured regex")
    });
    static GROUPED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^0-9.,])[0-9]{1,3}(?:([.,])[0-9]{3})(?:[.,][0-9]{3})+(?:[^0-9.,]|$)")
            .expect("grouped regex")
    });
    static ONE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^0-9.,])[0-9]+[.,][0-9](?:[^0-9.,]|$)").expect("one-decimal regex")
    });
    // A number grouped once: one to three digits, not led by a zero (`0.125` is a price to
    // three places), then three.
    static SINGLE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^0-9.,])[1-9][0-9]{0,2}([.,])[0-9]{3}(?:[^0-9.,]|$)")
            .expect("single-group regex")
    });
    // Four decimals or more: no grouping prints them (`2532,0000`, `96.332,0000`, a unit price
    // to four places), so the separator before them is the decimal one.
    static LONG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^0-9.,])[0-9]+(?:[.,][0-9]{3})*([.,])[0-9]{4,}(?:[^0-9.,]|$)")
            .expect("long regex")
    });
    let (mut dot, mut comma, mut grouped_dot, mut grouped_comma) = (0, 0, 0, 0);
    let (mut long_dot, mut long_comma) = (0, 0);
    let (mut single_dot, mut single_comma) = (0, 0);
    let (mut one_decimal, mut trailing_zero) = (0, 0);
    for t in texts {
        let t = DATE.replace_all(t, " ");
        // A quantity before a multiplication sign (`1,25 x 2506`) is no money, nor a
        // percentage (`5,00 %` of a discount or rate on a page of whole forints).
        let t = QUANTITY.replace_all(&t, " ");
        let t = PERCENT.replace_all(&t, " ");
        let t = MEASURED.replace_all(&t, |c: &regex::Captures<'_>| {
            let word = c.get(1).map_or("", |m| m.as_str());
            if is_measure(word) {
                " ".to_string()
            } else {
                c[0].to_string()
            }
        });
        for c in TWO.captures_iter(&t) {
            tally(&c, &mut dot, &mut comma);
            // The match is a digit, the separator and the two decimals: byte 3 is the second.
            if c.get(0)
                .is_some_and(|m| m.as_str().as_bytes().get(3) == Some(&b'0'))
            {
                trailing_zero += 1;
            }
        }
        one_decimal += ONE.find_iter(&t).count();
        for c in LONG.captures_iter(&t) {
            tally(&c, &mut long_dot, &mut long_comma);
        }
        for c in GROUPED.captures_iter(&t) {
            tally(&c, &mut grouped_dot, &mut grouped_comma);
        }
        for c in SINGLE.captures_iter(&t) {
            tally(&c, &mut single_dot, &mut single_comma);
        }
    }
    // Thousands grouped once (`5.355`, `16.630`) four times as often as two-decimal readings
    // of that separator, and no other separator: the page prints whole units, and the few
    // two-decimal readings are OCR's splits (`1.88 4`, `16.63 D Ft`).
    if comma == 0 && grouped_comma == 0 && single_comma == 0 && dot > 0 && single_dot >= 4 * dot {
        grouped_dot += single_dot;
    }
    if dot == 0 && grouped_dot == 0 && single_dot == 0 && comma > 0 && single_comma >= 4 * comma {
        grouped_comma += single_comma;
    }
    // A number grouped twice shows the grouping separator; as many two-decimal readings of that
    // separator or fewer are OCR's (`465.221` read as `465.22 1` on a page of whole forints
    // grouped `1.085.412`), not the document's decimals.
    if comma == 0 && grouped_comma == 0 && dot <= grouped_dot {
        dot = 0;
    }
    if dot == 0 && grouped_dot == 0 && comma <= grouped_comma {
        comma = 0;
    }
    let decimal = match (dot, comma) {
        (0, 0) if grouped_dot > grouped_comma => Some(','),
        (0, 0) if grouped_comma > grouped_dot => Some('.'),
        // Neither two decimals nor grouping: numbers of four decimals or more show the decimal
        // separator (whole forints, quantities `2,500` and unit prices `2532,0000`).
        (0, 0) if long_comma > 0 && long_dot == 0 => Some(','),
        (0, 0) if long_dot > 0 && long_comma == 0 => Some('.'),
        (0, 0) => None,
        (d, c) if d >= c => Some('.'),
        _ => Some(','),
    };
    NumberStyle {
        decimal,
        whole_units: dot + comma == 0,
        shortest: one_decimal > 0 && trailing_zero == 0,
    }
}

/// Whether a word printed right after a number makes it a quantity: a unit of measure
/// (`db`, `kg`, `Stk`, `h`), not one of a price per unit (`each`, `ea`, `unit`), nor a capital
/// letter alone (a receipt's tax code: `4.99 T`).
fn is_measure(word: &str) -> bool {
    let mut chars = word.chars();
    let lone_capital = chars.next().is_some_and(char::is_uppercase) && chars.next().is_none();
    !lone_capital
        && crate::einvoice::codes::unit_code_of_printed(word).is_some_and(|code| code != "C62")
}

/// Counts a match of [`number_style`]'s patterns by its separator (capture group 1): a dot or
/// a comma.
fn tally(c: &regex::Captures<'_>, dot: &mut usize, comma: &mut usize) {
    match c.get(1).map(|m| m.as_str()) {
        Some(".") => *dot += 1,
        Some(",") => *comma += 1,
        _ => {}
    }
}

/// Whether the `-` right before byte `s` is a minus sign: not a hyphen inside a word or code
/// (`A-12`), and not the end of a run of filler dashes or underscores that leads to the
/// amount (`Net:  --4096,54`, `____-12,00` as OCR reads a dotted or ruled leader).
/// A currency glued before the sign is no word (`PLN-2537,67`, as OCR joins `PLN -2537,67`).
fn minus_before(text: &str, s: usize) -> bool {
    if !text[..s].ends_with('-') {
        return false;
    }
    let before = &text[..s - 1];
    let head = before.trim_end_matches(char::is_alphabetic);
    let word = &before[head.len()..];
    let glued_currency = !word.is_empty()
        && !head.ends_with(char::is_alphanumeric)
        && currency_of_word(word).is_some();
    glued_currency
        || !before
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '–' | '—'))
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
        assert_eq!(vals("Net: -12.00 EUR"), ["-12.00"]);
        assert_eq!(vals("Net: EUR -12.00"), ["-12.00"]);
        // A leader of dashes or underscores OCR read before an amount is no minus sign.
        assert_eq!(vals("Net:  --4096,54 €"), ["4096.54"]);
        assert_eq!(vals("Total ____-12,00"), ["12.00"]);
        assert_eq!(vals("A-12.50"), ["12.50"]);
        // A currency OCR glued to the sign: still a minus.
        assert_eq!(vals("Kwota VAT 23%  PLN-2537,67"), ["23", "-2537.67"]);
        assert_eq!(vals("EUR-12.00"), ["-12.00"]);
        assert_eq!(vals("1234"), ["1234"]);
        assert_eq!(vals("1.234.567,89"), ["1234567.89"]);
        assert_eq!(vals("0,5"), ["0.5"]);
        assert_eq!(vals("a 12 345 b"), ["12", "345"]);
        // The grouping sign used for the decimal one: groups of three, then two decimals.
        assert_eq!(vals("163.025.88 €"), ["163025.88"]);
        assert_eq!(vals("£691,267,51"), ["691267.51"]);
        assert_eq!(vals("1.282.612 Ft"), ["1282612"]);
        assert!(vals("1.23.45").iter().all(|v| v != "123.45"));
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
        // One stray letter OCR read between an amount and its glued currency.
        let a = find_amounts("Вибо:  144404,34Агрн", None, &[]);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].value.to_string(), "144404.34");
        assert_eq!(a[0].currency, Some("UAH"));
        assert_eq!(vals("12,90AEUR"), ["12.90"]);
        // A letter before a one-letter currency is a code; no decimals, no amount.
        assert!(vals("5.00SR").is_empty());
        assert!(vals("144404Агрн").is_empty());
    }

    #[test]
    fn skips_codes_and_masks() {
        assert!(vals("DE123456789").is_empty());
        assert!(vals("H87").is_empty());
        assert!(vals("12abc").is_empty());
        assert!(vals("12.50AB").is_empty());
        assert!(vals("12A").is_empty());
        // A receipt's tax code glued to its amount.
        assert_eq!(vals("Muffin  3.56A"), ["3.56"]);
        assert_eq!(vals("0,58B 1,20"), ["0.58", "1.20"]);
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
    fn ocr_letters_for_digits_in_numeric_context() {
        assert_eq!(ocr_digits("Total 1O.5O"), "Total 10.50");
        assert_eq!(ocr_digits("l2,50 EUR"), "12,50 EUR");
        assert_eq!(ocr_digits("Datum O5.O2.2O22"), "Datum 05.02.2022");
        assert_eq!(ocr_digits("EURl2.50"), "EUR12.50");
        assert_eq!(ocr_digits("1S0 g"), "150 g");
        assert_eq!(ocr_digits("256D7,14 CHF"), "25607,14 CHF");
        assert_eq!(ocr_digits("229,698.4D GBP"), "229,698.40 GBP");
        assert_eq!(ocr_digits("EAN: 35033  123,D6"), "EAN: 35033  123,06");
        assert_eq!(ocr_digits("Kod 12,D6A"), "Kod 12,D6A");
        assert_eq!(ocr_digits("5 ks  198,17  99D,85"), "5 ks  198,17  990,85");
        assert_eq!(
            ocr_digits("Daň 21%  CZK 45.D38,56"),
            "Daň 21%  CZK 45.038,56"
        );
        assert_eq!(ocr_digits("1,D25.00 USD"), "1,025.00 USD");
        assert_eq!(ocr_digits("Kod 12.D6A AB.D12"), "Kod 12.D6A AB.D12");
        assert_eq!(ocr_digits("CD,12 DVD,45x"), "CD,12 DVD,45x");
        assert_eq!(vals("Summe 1O,5O"), ["10.50"]);
        // Words, codes and ids stay as printed.
        for t in [
            "No.12",
            "IO",
            "I/2024",
            "Sol 12",
            "Total",
            "lol 2",
            "ID 1O",
            "INV-2O22",
            "S.50",
            "Hotel 12",
            "Il 12.5",
            "Total:1O.5O",
            "lO 2",
            "3D",
            "A4D",
            "Model 12.5DX",
        ] {
            assert_eq!(ocr_digits(t), t, "{t}");
        }
        // Offsets are unchanged: matches point into the printed text.
        let t = "Zahlbetrag: 1O,5O €";
        let a = find_amounts(t, None, &[]);
        assert_eq!(&t[a[0].start..a[0].end], "1O,5O €");
    }

    #[test]
    fn split_decimals_in_numeric_context() {
        let one = |t: &str, hint: Option<char>| -> Vec<String> {
            find_amounts(t, hint, &[])
                .iter()
                .map(|a| a.value.to_string())
                .collect()
        };
        // At the end of an amount line, with the document's decimal separator.
        assert_eq!(one("KAFIJA 3. 38", Some('.')), ["3.38"]);
        assert_eq!(one("Kopā 3 .38", Some('.')), ["3.38"]);
        assert_eq!(one("Iš viso 12 ,50 A", Some(',')), ["12.50"]);
        assert_eq!(one("Celkem 1 234,5 6", Some(',')), ["1234.56"]);
        assert_eq!(one("Summe 5.028, 86€", Some(',')), ["5028.86"]);
        assert_eq!(one("Net €1,381. 36", Some('.')), ["1381.36"]);
        // With a currency, wherever it is.
        assert_eq!(one("EUR 3. 38 paid", None), ["3.38"]);
        assert_eq!(one("3 ,38€ x", None), ["3.38"]);
        // Not amounts: a list number and a quantity, another decimal separator, a phone.
        assert_eq!(one("3. 38 pcs", Some('.')), ["3", "38"]);
        assert_eq!(one("1. 12 Stück", Some('.')), ["1", "12"]);
        assert_eq!(one("Pos 3. 38", Some(',')), ["3", "38"]);
        assert_eq!(one("Tel. 030 12 34", Some('.')), ["30", "12", "34"]);
        // Printed whole, the regular reading stays.
        assert_eq!(one("1 234,56", None), ["1234.56"]);
        // The separator pushed off its integer, glued to the decimals, in a cell of its own.
        assert_eq!(
            one("Consulenza  2,5  -33 ,88  22%  -84 ,70", Some(',')),
            ["2.5", "-33.88", "22", "-84.70"]
        );
        // Within running text, or with the other separator, it stays two numbers.
        assert_eq!(one("Art 33 ,88 Stück", Some(',')), ["33", "88"]);
        assert_eq!(one("Pos  33 .88  x", Some(',')), ["33", "88"]);
    }

    #[test]
    fn joined_readings_of_amounts_broken_by_spaces() {
        let j = |t: &str, hint: Option<char>| -> Vec<String> {
            joined_readings(t, hint)
                .iter()
                .map(|a| a.value.to_string())
                .collect()
        };
        assert_eq!(j("Total TTC :  1162 20,96 EUR", Some(',')), ["116220.96"]);
        assert_eq!(
            j("Rechnungsbetrag:  EUR 28 1.322,70", Some(',')),
            ["281322.70"]
        );
        assert_eq!(j("Totaal:  € -1. 363,34", Some(',')), ["-1363.34"]);
        assert_eq!(
            j("Invoice total:  2 29,698.40 GBP", Some('.')),
            ["229698.40"]
        );
        assert_eq!(j("Factuurbedrag:  €2.87 2,58", Some(',')), ["2872.58"]);
        // Each start of a longer run: `3 1 250,00` may be 31 250,00 or 1 250,00 after a 3.
        assert_eq!(j("Pos 3 1 250,00", Some(',')), ["31250.00", "1250.00"]);
        // Nothing that does not read as one amount with two decimals once joined.
        assert!(j("Tel. 030 12 34", Some(',')).is_empty());
        assert!(j("Summe 12,50", Some(',')).is_empty());
        assert!(j("A4 12 50,00", Some(',')).is_empty());
        // Whole units: a grouped number split anywhere, or a long one split in its middle;
        // never a count beside a small number.
        let w = |t: &str| -> Vec<String> {
            joined_whole_readings(t, None)
                .iter()
                .map(|a| a.value.to_string())
                .collect()
        };
        assert_eq!(w("27%  86137068  2325 7008  109394076"), ["23257008"]);
        assert_eq!(w("Összesen:  92.37 3 Ft"), ["92373"]);
        assert!(w("Irodai szék  2 183  366").is_empty());
        assert!(w("Kód  12 34").is_empty());
        // Offsets point into the printed text.
        let t = "Total: 1O5 2,00 EUR";
        let a = joined_readings(t, Some(','));
        assert_eq!(&t[a[0].start..a[0].end], "1O5 2,00");
    }

    #[test]
    fn shared_tokens_stand_for_every_currency_that_prints_them() {
        let a = find_amounts("I alt 1.250,00 kr.", Some(','), &[]);
        assert_eq!(
            (a[0].value.to_string(), a[0].currency),
            ("1250.00".into(), Some("SEK"))
        );
        assert_eq!(currency_options("kr."), ["SEK", "DKK", "NOK", "ISK"]);
        assert!(is_shared_token("$") && !is_shared_token("US$") && !is_shared_token("€"));
        assert_eq!(currency_options("EUR"), ["EUR"]);
        assert!(currency_options("Kraków").is_empty());
        // A word that starts with the token is no currency.
        assert!(find_currencies("Krone kraft").is_empty());
        assert_eq!(currency_of_country("DK"), Some("DKK"));
        assert_eq!(currency_of_country("EL"), Some("EUR"));
        assert_eq!(currency_of_language("sv"), Some("SEK"));
        assert_eq!(currency_of_language("en"), None);
    }

    #[test]
    fn a_totals_label_glued_to_its_amount() {
        assert_eq!(vals("Bruttó érték22377646 HUF"), vec!["22377646"]);
        assert_eq!(vals("Gesamtbetrag1.234,56 EUR"), vec!["1234.56"]);
        // Not a rate, nor digits glued to other words.
        assert!(vals("MwSt19%").is_empty());
        assert!(vals("Artikel4711 Code12345").is_empty());
    }

    #[test]
    fn currency_glued_and_spaced_integers() {
        let a = find_amounts("EUR12.50", None, &[]);
        assert_eq!(
            (a[0].value.to_string(), a[0].currency),
            ("12.50".into(), Some("EUR"))
        );
        let a = find_amounts("12,50€", None, &[]);
        assert_eq!(
            (a[0].value.to_string(), a[0].currency),
            ("12.50".into(), Some("EUR"))
        );
        let a = find_amounts("RM12.50", None, &[]);
        assert_eq!(a[0].currency, Some("MYR"));
        let a = find_amounts("12.50zł", None, &[]);
        assert_eq!(
            (a[0].value.to_string(), a[0].currency),
            ("12.50".into(), Some("PLN"))
        );
        let a = find_amounts("Kč 1 250,00", None, &[]);
        assert_eq!(
            (a[0].value.to_string(), a[0].currency),
            ("1250.00".into(), Some("CZK"))
        );
        let a = find_amounts("Összesen: 1 250 Ft", None, &[]);
        assert_eq!(a.len(), 1, "{a:?}");
        assert_eq!(
            (a[0].value.to_string(), a[0].currency),
            ("1250".into(), Some("HUF"))
        );
        let a = find_amounts("Total 12 345,00 lei", None, &[]);
        assert_eq!(
            (a[0].value.to_string(), a[0].currency),
            ("12345.00".into(), Some("RON"))
        );
        // Without a currency, space-separated integers stay apart.
        assert_eq!(vals("a 12 345 b"), ["12", "345"]);
    }

    #[test]
    fn document_decimal_separator() {
        let decimal = |t: &[&str]| number_style(t.iter().copied()).decimal;
        assert_eq!(decimal(&["1,50", "2,30", "3.10"]), Some(','));
        assert_eq!(decimal(&["9.00"]), Some('.'));
        assert_eq!(decimal(&["abc"]), None);
        // Dates are no decimals; a number grouped twice tells the other separator.
        assert_eq!(
            decimal(&["Kelt: 2025.05.15", "Nettó 1.323.919 Ft"]),
            Some(',')
        );
        assert_eq!(decimal(&["Total 1,323,919 KRW"]), Some('.'));
        // A two-decimal reading of the grouping separator no more frequent than the grouped
        // numbers is OCR's: the page prints whole units.
        let page = [
            "Irodai szék  2  183.158  27%  366.316  465.22 1",
            "Bruttó:  1.085.412Ft",
        ];
        assert_eq!(decimal(&page), Some(','));
        assert!(number_style(page.iter().copied()).whole_units);
        assert_eq!(
            decimal(&["Netto 12.50", "Brutto 14.88", "Ref 1.085.412"]),
            Some('.')
        );
        // Whole units, nothing grouped: a unit price to four decimals shows the separator, so
        // the quantities `2,500` and `12,000` read as 2.5 and 12.
        let page = [
            "Irodai szék  2,500 db  60083,0000  150208  27%",
            "LED panel  12,000 db  88916,0000  1066992  27%",
        ];
        assert_eq!(decimal(&page), Some(','));
        assert!(number_style(page.iter().copied()).whole_units);
        assert_eq!(decimal(&["Qty 2.500", "Price 1.2500"]), Some('.'));
        assert_eq!(decimal(&["Qty 2,500", "12,000"]), None);
        let whole = |t: &[&str]| number_style(t.iter().copied()).whole_units;
        assert!(whole(&["2025.05.15", "ÖSSZESEN 9123 Ft", "1,25 x 421 526"]));
        // Nor one whose second separator OCR read as a comma.
        assert!(whole(&[
            "2023.03, 10 - 2023.03.24",
            "Végösszeg: 13969432 Ft"
        ]));
        assert!(whole(&["Kelt: 10.03, 2023", "Végösszeg: 13969432 Ft"]));
        assert!(!whole(&["Summe 2023.13, 10 Stk"]));
        // A date OCR split after a separator is no amount of two decimals.
        assert_eq!(
            decimal(&[
                "Kelt: 2021.07. 06",
                "Adóalap:  907.920 HUF",
                "10,000  96.332,0000"
            ]),
            Some(',')
        );
        // Thousands grouped once, four times as often as the separator's two-decimal readings:
        // those are OCR's splits on a page of whole forints.
        let page = [
            "0,5 x 4.604  2.302",
            "Kenyér  1.978",
            "ÖSSZEG  HUF 5.355",
            "Bankkártya  5.355",
            "A 27% 2.659  718",
            "B 5% 1.88 4  94",
        ];
        assert_eq!(decimal(&page), Some(','));
        assert!(whole(&page));
        // Quantities to three places beside prices in cents stay what they are.
        let page = [
            "Kabel  1.250 m  12.50  15.63",
            "Rohr  2.500 m  8.40  21.00",
            "Summe  36.63",
        ];
        assert_eq!(decimal(&page), Some('.'));
        assert!(!whole(&page));
        // A discount's or rate's two decimals (`5,00 %`) are no money's.
        assert!(whole(&["Papír  0,5  db  1723138  5,00 %  27%  818491"]));
        assert!(!whole(&["Summe 12,50 EUR"]));
        // Quantities to two places beside their unit (`0,50 db`, `40,00 kg`) are no money's:
        // the page prints whole forints.
        let page = [
            "1  Tanácsadás  1596947,0000  0,50  db  27%  798474",
            "2  Irodai szék  4255071,0000  40,00  kg  27%  170202840",
            "Bruttó érték: 217179046 HUF",
        ];
        assert!(whole(&page));
        assert_eq!(decimal(&page), Some(','));
        // A price per unit is money (`12.50 each`); a quantity beside a total in cents leaves it.
        assert!(!whole(&["Widget  4  12.50 each"]));
        assert!(!whole(&["MILK  4.99 T", "TOTAL 9"]));
        assert!(!whole(&["Kabel 2,50 m", "Summe 12,50"]));
        let shortest = |t: &[&str]| number_style(t.iter().copied()).shortest;
        assert!(shortest(&[
            "Nettobetrag  854",
            "USt. 19%  13.49",
            "Gesamtbetrag  922.3"
        ]));
        assert!(!shortest(&["Nettobetrag  854.00", "Gesamtbetrag  922.30"]));
        assert!(!shortest(&["Menge 2.5", "Summe 12.50"]));
        assert!(!shortest(&["Summe 12.49"]));
        assert!(MoneyPrint::Shortest.is_money(1, None));
        assert!(MoneyPrint::Shortest.is_money(0, Some("int")));
        assert!(!MoneyPrint::WholeUnits.is_money(1, None));
        assert!(MoneyPrint::WholeUnits.is_money(0, Some("int")));
        assert!(!MoneyPrint::Cents.is_money(0, Some("int")));
        assert!(!MoneyPrint::Shortest.is_money(0, Some("percent")));
    }
}
