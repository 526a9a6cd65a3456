//! Identifiers by shape: IBANs, EU VAT ids, Polish NIP, German Steuernummer, Malaysian company
//! numbers, labelled national tax ids (EDRPOU, IPN, INN, KPP, GST ...), BIC, e-mail, phone, times.

use super::labels::{LabelKey, names_tax_id_glued};
use crate::checks;
use regex::Regex;
use std::sync::LazyLock;

/// An identifier found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdMatch {
    /// Byte start.
    pub start: usize,
    /// Byte end.
    pub end: usize,
    /// Normalised value.
    pub value: String,
    /// Scheme (`EU_VAT`, `PL_NIP`, ...); None for plain registration numbers.
    pub scheme: Option<&'static str>,
    /// Checksum result where the scheme has one.
    pub checksum_valid: Option<bool>,
}

/// IBANs (spaces allowed between groups). Emitted when the country length fits; the checksum
/// result is reported, not required. A dot, comma or dash between two characters (OCR reading a
/// speck or a wide gap between groups as punctuation) is skipped too, but such a reading is only
/// kept when its checksum holds: mod 97 makes an accidental match about one in a hundred. A
/// country code with a letter read as its look-alike digit (`F107 6086 ...`) is read as letters
/// when the checksum then holds ([`with_country_lookalikes`]).
pub fn find_ibans(text: &str) -> Vec<IdMatch> {
    with_country_lookalikes(text, ibans_as_printed, |m| m.checksum_valid == Some(true))
}

/// Digits OCR reads for capital letters (`1` for `I`, `0` for `O`, `8` for `B` ...).
fn letter_of_lookalike(b: u8) -> Option<u8> {
    match b {
        b'0' => Some(b'O'),
        b'1' => Some(b'I'),
        b'2' => Some(b'Z'),
        b'5' => Some(b'S'),
        b'6' => Some(b'G'),
        b'8' => Some(b'B'),
        _ => None,
    }
}

/// `text` with every word-initial pair of one capital and one look-alike digit, followed by a
/// digit (perhaps after a space), turned into two capitals: how OCR spells a country code it was
/// unsure of (`F194572578` for `FI94572578`, `G8 563...` for `GB 563...`). Same length; `None`
/// when there is no such pair.
fn country_lookalikes(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut changed = false;
    for i in 0..b.len().saturating_sub(2) {
        if i > 0 && b[i - 1].is_ascii_alphanumeric() {
            continue;
        }
        let digit_after = b[i + 2].is_ascii_digit()
            || (b[i + 2] == b' ' && b.get(i + 3).is_some_and(u8::is_ascii_digit));
        if !digit_after
            || b.get(i + 2..i + 4)
                .is_some_and(|w| w.iter().all(u8::is_ascii_uppercase))
        {
            continue;
        }
        let (c0, c1) = (b[i], b[i + 1]);
        let fixed = match (c0.is_ascii_uppercase(), c1.is_ascii_uppercase()) {
            (true, false) => letter_of_lookalike(c1).map(|l| (i + 1, l)),
            (false, true) => letter_of_lookalike(c0).map(|l| (i, l)),
            _ => None,
        };
        if let Some((at, l)) = fixed {
            out[at] = l;
            changed = true;
        }
    }
    // Only ASCII bytes were swapped for ASCII bytes: still UTF-8, same offsets.
    changed.then(|| String::from_utf8(out).ok()).flatten()
}

/// The matches of `find` in `text`, and those in its country-code repair
/// ([`country_lookalikes`]) that pass `trusted` (a checksum that holds), in place of any
/// untrusted match they overlap.
fn with_country_lookalikes(
    text: &str,
    find: impl Fn(&str) -> Vec<IdMatch>,
    trusted: impl Fn(&IdMatch) -> bool,
) -> Vec<IdMatch> {
    let mut out = find(text);
    let Some(fixed) = country_lookalikes(text) else {
        return out;
    };
    for m in find(&fixed).into_iter().filter(&trusted) {
        let overlaps = |o: &IdMatch| o.start < m.end && m.start < o.end;
        if out.iter().any(|o| overlaps(o) && trusted(o)) {
            continue;
        }
        out.retain(|o| !overlaps(o));
        out.push(m);
    }
    out.sort_by_key(|m| m.start);
    out
}

/// The letter OCR reads most for a digit, `O` for 0: the digit. (`I` for 1, `B` for 8 and the
/// like are left: with them the checksum alone took a misread Italian account, `...B471 1B16`,
/// for a valid one.)
fn digit_of_lookalike(c: char) -> Option<char> {
    (c == 'O').then_some('0')
}

/// Look-alike letters ([`digit_of_lookalike`]) of an IBAN's account part (after the check
/// digits) that OCR may have read for digits, at most this many: every choice of them read as
/// digits is tried.
const MAX_BBAN_LOOKALIKES: usize = 3;

/// An IBAN whose checksum fails, with some of the look-alike letters of its account part read
/// as the digits they resemble (`UA54 8607 9178 O1RW ...` for `...9178 01RW...`), where exactly
/// one such reading makes the checksum hold: letters stand in some countries' account numbers
/// (`RW` above), so only the checksum decides which are digits. At most
/// [`MAX_BBAN_LOOKALIKES`] candidate letters.
fn bban_lookalikes(iban: &str) -> Option<String> {
    let chars: Vec<char> = iban.chars().collect();
    let at: Vec<usize> = (4..chars.len())
        .filter(|&i| digit_of_lookalike(chars[i]).is_some())
        .collect();
    if at.is_empty() || at.len() > MAX_BBAN_LOOKALIKES {
        return None;
    }
    let mut found: Option<String> = None;
    for mask in 1u32..(1 << at.len()) {
        let mut v = chars.clone();
        for (k, &i) in at.iter().enumerate() {
            if mask & (1 << k) != 0 {
                v[i] = digit_of_lookalike(v[i])?;
            }
        }
        let candidate: String = v.into_iter().collect();
        if checks::iban_is_valid(&candidate) {
            if found.is_some() {
                return None;
            }
            found = Some(candidate);
        }
    }
    found
}

/// IBANs as [`find_ibans`] reads them, without the country-code repair.
fn ibans_as_printed(text: &str) -> Vec<IdMatch> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i + 4 <= b.len() {
        let starts = b[i].is_ascii_uppercase()
            && b[i + 1].is_ascii_uppercase()
            && b[i + 2].is_ascii_digit()
            && b[i + 3].is_ascii_digit()
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let country = &text[i..i + 2];
        let Some(len) = checks::iban_length(country) else {
            i += 1;
            continue;
        };
        let mut chars = String::new();
        let mut j = i;
        let mut noisy = false;
        while j < b.len() && chars.len() < len {
            let c = b[j];
            let next_alnum = j + 1 < b.len() && b[j + 1].is_ascii_alphanumeric();
            if c.is_ascii_alphanumeric() {
                chars.push(c.to_ascii_uppercase() as char);
                j += 1;
            } else if c == b' ' && next_alnum {
                j += 1;
            } else if matches!(c, b'.' | b',' | b'-') && next_alnum && j > i + 4 {
                noisy = true;
                j += 1;
            } else {
                break;
            }
        }
        let next_alnum = b.get(j).is_some_and(u8::is_ascii_alphanumeric);
        let mut valid = chars.len() == len && checks::iban_is_valid(&chars);
        if chars.len() == len
            && !valid
            && let Some(fixed) = bban_lookalikes(&chars)
        {
            chars = fixed;
            valid = true;
        }
        if chars.len() == len && !next_alnum && (valid || !noisy) {
            out.push(IdMatch {
                start: i,
                end: j,
                value: chars,
                scheme: Some("IBAN"),
                checksum_valid: Some(valid),
            });
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The shapes of EU VAT ids (and the Swiss UID), by country.
const EU_VAT_SHAPES: &str = r"ATU[0-9]{8}|BE ?0?[0-9]{3}[. ]?[0-9]{3}[. ]?[0-9]{3}|BG[0-9]{9,10}|CY[0-9]{8}[A-Z]|CZ[0-9]{8,10}|DE ?[0-9]{3} ?[0-9]{3} ?[0-9]{3}|DK ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[0-9]{2}|EE[0-9]{9}|EL[0-9]{9}|ES ?[A-Z0-9][0-9]{7}[A-Z0-9]|FI[0-9]{8}|FR ?[0-9A-Z]{2} ?[0-9]{3} ?[0-9]{3} ?[0-9]{3}|HR[0-9]{11}|HU[0-9]{8}|IE[0-9][A-Z0-9+*][0-9]{5}[A-Z]{1,2}|IT ?[0-9]{11}|LT[0-9]{9,12}|LU ?[0-9]{8}|LV[0-9]{11}|MT[0-9]{8}|NL ?[0-9]{9}B[0-9]{2}|PL ?[0-9]{10}|PT ?[0-9]{9}|RO[0-9]{2,10}|SE ?[0-9]{12}|SI[0-9]{8}|SK[0-9]{10}|GB ?[0-9]{3} ?[0-9]{4} ?[0-9]{2}(?: ?[0-9]{3})?|XI[0-9]{9}|CHE[- ]?[0-9]{3}\.?[0-9]{3}\.?[0-9]{3}(?: ?(?:MWST|TVA|IVA))?";

static EU_VAT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"\b({EU_VAT_SHAPES})\b")).expect("vat regex"));

/// A VAT id that is the whole of a token's end, OCR's space before it lost (`CUIRO17833720`).
static EU_VAT_WHOLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^(?:{EU_VAT_SHAPES})$")).expect("vat regex"));

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// EU VAT ids by their country shape; a country code with a letter read as its look-alike digit
/// is read as letters where the country's check digits then hold.
pub fn find_vat_ids(text: &str) -> Vec<IdMatch> {
    with_country_lookalikes(text, vat_ids_as_printed, |m| {
        m.checksum_valid == Some(true) && checks::vat_has_check_digits(&m.value)
    })
}

/// EU VAT ids as printed; also one glued to its label (`CUIRO17833720`, `KMKRnrEE106070251`:
/// OCR lost the space), where the letters before it are a tax id label of the vocabulary
/// ([`names_tax_id_glued`]).
fn vat_ids_as_printed(text: &str) -> Vec<IdMatch> {
    let id = |start: usize, end: usize| {
        let value = squash(&text[start..end]);
        let checksum_valid = checks::tax_id_check("EU_VAT", &value);
        IdMatch {
            start,
            end,
            value,
            scheme: Some("EU_VAT"),
            checksum_valid,
        }
    };
    let mut out: Vec<IdMatch> = EU_VAT
        .find_iter(text)
        .map(|m| id(m.start(), m.end()))
        .collect();
    let mut at = 0;
    for token in text.split(' ') {
        let start = at;
        at += token.len() + 1;
        let token = token.trim_end_matches(['.', ',', ';', ')']);
        let end = start + token.len();
        if out.iter().any(|m| m.start < end && m.end > start) {
            continue;
        }
        // The shortest label before the longest id the token ends with: ids start with their
        // country's capitals.
        let glued = token
            .char_indices()
            .skip(1)
            .filter(|&(k, c)| c.is_ascii_uppercase() && EU_VAT_WHOLE.is_match(&token[k..]))
            .find(|&(k, _)| names_tax_id_glued(token[..k].trim_end_matches([':', '.', '-', '#'])));
        if let Some((k, _)) = glued {
            out.push(id(start + k, end));
        }
    }
    out.sort_by_key(|m| m.start);
    out
}

static SHAPES: LazyLock<Vec<(Regex, Option<&'static str>)>> = LazyLock::new(|| {
    vec![
        // Polish NIP: 123-456-78-90 / 123-45-67-890.
        (
            Regex::new(r"\b(?:PL ?)?([0-9]{3}-[0-9]{3}-[0-9]{2}-[0-9]{2}|[0-9]{3}-[0-9]{2}-[0-9]{2}-[0-9]{3})\b")
                .expect("re"),
            Some("PL_NIP"),
        ),
        // German Steuernummer: 12/345/67890, 201/113/40209.
        (
            Regex::new(r"\b[0-9]{2,3}/[0-9]{3}/[0-9]{4,5}\b").expect("re"),
            Some("DE_STNR"),
        ),
        // Malaysian company registration: 123456-A, (1234567-X), 201901012345 (1234567-X).
        (
            Regex::new(r"\(?\b[0-9]{4,7}-[A-Z]\b\)?").expect("re"),
            Some("MY_REG"),
        ),
    ]
});

/// Tax / registration ids by shape alone (NIP, Steuernummer, Malaysian company numbers).
pub fn find_shaped_ids(text: &str) -> Vec<IdMatch> {
    let mut out = Vec::new();
    for (re, scheme) in SHAPES.iter() {
        for m in re.find_iter(text) {
            let raw = m.as_str().trim_start_matches('(').trim_end_matches(')');
            let value = match *scheme {
                Some("DE_STNR") => raw.to_string(),
                Some("MY_REG") => raw.to_string(),
                _ => squash(raw),
            };
            let checksum_valid = scheme.and_then(|s| checks::tax_id_check(s, &value));
            out.push(IdMatch {
                start: m.start(),
                end: m.end(),
                value,
                scheme: *scheme,
                checksum_valid,
            });
        }
    }
    out
}

/// The scheme a tax-id label announces, by label key and the printed label text.
pub fn scheme_for_label(key: LabelKey) -> Option<&'static str> {
    match key {
        LabelKey::VatId => Some("EU_VAT"),
        LabelKey::StNr => Some("DE_STNR"),
        LabelKey::Nip => Some("PL_NIP"),
        LabelKey::Edrpou => Some("UA_EDRPOU"),
        LabelKey::Ipn => Some("UA_IPN"),
        LabelKey::Inn => Some("RU_INN"),
        LabelKey::Kpp => Some("RU_KPP"),
        LabelKey::GstId => Some("MY_GST"),
        LabelKey::SstId => Some("MY_SST"),
        LabelKey::Siret => Some("FR_SIRET"),
        _ => None,
    }
}

static ID_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Z]{0,3}[ -]?[0-9][0-9A-Z/ .-]{3,24}[0-9A-Z]").expect("id value regex")
});

/// The id value printed after a label at `from`: the first run of digits (with letters, `/`,
/// `-`, `.` and single spaces) holding at least 5 digits.
pub fn value_after(text: &str, from: usize) -> Option<(usize, usize, String)> {
    let rest = text.get(from..)?;
    let m = ID_VALUE.find(rest)?;
    // Stop at a double space (column gap) or at a `/` followed by another id (`INN/KPP`).
    let mut raw = m.as_str();
    if let Some(p) = raw.find("  ") {
        raw = &raw[..p];
    }
    let raw = raw.trim_end_matches([' ', '.', '-', '/']);
    let lead = raw.len() - raw.trim_start_matches([' ', '-']).len();
    let raw = &raw[lead..];
    let digits = raw.chars().filter(char::is_ascii_digit).count();
    if digits < 5 || m.start() > 12 {
        return None;
    }
    let start = from + m.start() + lead;
    Some((start, start + raw.len(), raw.to_string()))
}

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}").expect("re")
});

/// E-mail addresses.
pub fn find_emails(text: &str) -> Vec<(usize, usize)> {
    EMAIL
        .find_iter(text)
        .map(|m| (m.start(), m.end()))
        .collect()
}

static PHONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\+?\(?[0-9][0-9 ()/.-]{6,18}[0-9]").expect("re"));

/// A phone number after `from` (the caller found a phone label).
pub fn phone_after(text: &str, from: usize) -> Option<(usize, usize)> {
    let rest = text.get(from..)?;
    let m = PHONE.find(rest)?;
    if m.start() > 6 {
        return None;
    }
    let digits = m.as_str().chars().filter(char::is_ascii_digit).count();
    (7..=15)
        .contains(&digits)
        .then(|| (from + m.start(), from + m.end()))
}

static INTL_PHONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\+[0-9]{1,3}[ ()0-9/.-]{7,16}[0-9]").expect("re"));

/// International phone numbers (`+49 89 1234567`) without a label.
pub fn find_intl_phones(text: &str) -> Vec<(usize, usize)> {
    INTL_PHONE
        .find_iter(text)
        .map(|m| (m.start(), m.end()))
        .collect()
}

static TIME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?\b").expect("re"));

/// Times of day (masked so they do not become amounts).
pub fn find_times(text: &str) -> Vec<(usize, usize)> {
    TIME.find_iter(text).map(|m| (m.start(), m.end())).collect()
}

static BIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?\b").expect("re"));

/// BIC/SWIFT codes after `from` (the caller found a BIC label).
pub fn bic_after(text: &str, from: usize) -> Option<(usize, usize)> {
    let rest = text.get(from..)?;
    let m = BIC.find(rest)?;
    (m.start() <= 12).then(|| (from + m.start(), from + m.end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ibans() {
        let v = find_ibans("IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX");
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].value, "DE89370400440532013000");
        assert_eq!(v[0].checksum_valid, Some(true));
        let v = find_ibans("DE89370400440532013001");
        assert_eq!(v[0].checksum_valid, Some(false));
        assert!(find_ibans("DE12 short").is_empty());
        // OCR punctuation between groups: kept when the checksum holds, and only then.
        let v = find_ibans("IBAN: FR28 3000 3035 4000.0504 1890 246");
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].value, "FR2830003035400005041890246");
        assert_eq!(v[0].checksum_valid, Some(true));
        assert!(find_ibans("IBAN: FR29 3000 3035 4000.0504 1890 246").is_empty());
        assert_eq!(
            find_ibans("FR29 3000 3035 4000 0504 1890 246")[0].checksum_valid,
            Some(false),
            "without punctuation a failing checksum is still reported"
        );
        // Letters OCR read for digits of the account part: the one reading the checksum holds.
        let v = find_ibans("IBAN: DE89 3704 OO44 0532 0130 00");
        assert_eq!(v[0].value, "DE89370400440532013000");
        assert_eq!(v[0].checksum_valid, Some(true));
        // Letters of the account number itself stay (`RW`), the look-alike `O` is read as 0.
        let truth = "UA548607917801RW465D112412064";
        assert!(checks::iban_is_valid(truth));
        let v = find_ibans("IBAN: UA54 8607 9178 O1RW 465D 1124 1206 4");
        assert_eq!(v[0].value, truth);
        // More look-alikes than are tried: as read, its checksum failing.
        let v = find_ibans("IBAN: DE89 37O4 OO44 O532 0130 00");
        assert_eq!(v[0].checksum_valid, Some(false));
    }

    #[test]
    fn vat_ids() {
        let v = find_vat_ids("USt-IdNr.: DE123456789");
        assert_eq!(v[0].value, "DE123456789");
        let v = find_vat_ids("TVA FR 32 123 456 789");
        assert_eq!(v[0].value, "FR32123456789");
        assert!(find_vat_ids("DE 80333 München").is_empty());
        // Glued to its label by OCR: the label's letters tell.
        let v = find_vat_ids("CUIRO17833720");
        assert_eq!((v[0].value.as_str(), v[0].start), ("RO17833720", 3));
        assert_eq!(find_vat_ids("KMKRnrEE106070251")[0].value, "EE106070251");
        assert_eq!(
            find_vat_ids("USt-IdNr.:DE123456789")[0].value,
            "DE123456789"
        );
        // Glued to another word: no id.
        assert!(find_vat_ids("PACKRO17833720").is_empty());
        assert!(find_vat_ids("ABCDE123456789").is_empty());
    }

    #[test]
    fn country_codes_read_as_digits_are_letters_where_the_check_digits_hold() {
        // FI: weights 7 9 10 5 8 4 2 and a check digit; 1 read for I.
        let v = find_vat_ids("ALV-tunnus: F194572578");
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].value, "FI94572578");
        assert_eq!(v[0].checksum_valid, Some(true));
        // A wrong check digit stays unread; so does a country without check digits.
        assert!(find_vat_ids("F194572579").is_empty());
        assert!(find_vat_ids("H012345678").is_empty());
        let v = find_ibans("IBAN F107 6086 3472 1030 15");
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].value, "FI0760863472103015");
        assert!(find_ibans("IBAN F108 6086 3472 1030 15").is_empty());
        // As printed, untouched.
        assert_eq!(
            find_ibans("DE89 3704 0044 0532 0130 00")[0].value,
            "DE89370400440532013000"
        );
        assert_eq!(country_lookalikes("ROOM 12"), None);
        assert_eq!(country_lookalikes("NO 12"), None);
    }

    #[test]
    fn shaped_ids() {
        let v = find_shaped_ids("NIP 123-456-32-18");
        assert_eq!(v[0].scheme, Some("PL_NIP"));
        assert_eq!(v[0].value, "1234563218");
        let v = find_shaped_ids("Steuernummer: 201/113/40209");
        assert_eq!(v[0].scheme, Some("DE_STNR"));
        assert_eq!(v[0].value, "201/113/40209");
        let v = find_shaped_ids("SDN BHD (789417-W)");
        assert_eq!(v[0].value, "789417-W");
    }

    #[test]
    fn labelled_values() {
        let t = "ЄДРПОУ 12345678";
        let (s, e, v) = value_after(t, "ЄДРПОУ".len()).unwrap();
        assert_eq!(v, "12345678");
        assert_eq!(&t[s..e], "12345678");
        let t = "GST ID: 000123456789  Tel";
        assert_eq!(value_after(t, 6).unwrap().2, "000123456789");
        assert!(value_after("Name: abc", 5).is_none());
    }

    #[test]
    fn contacts() {
        assert_eq!(find_emails("mail: a.b@example.com;").len(), 1);
        let t = "Tel.: +49 (89) 123 456-7";
        let (s, e) = phone_after(t, 4).unwrap();
        assert_eq!(&t[s..e], "+49 (89) 123 456-7");
        assert_eq!(find_times("25/12/2018 8:13:39 PM"), vec![(11, 18)]);
        let t = "BIC: COBADEFFXXX";
        let (s, e) = bic_after(t, 4).unwrap();
        assert_eq!(&t[s..e], "COBADEFFXXX");
    }
}
