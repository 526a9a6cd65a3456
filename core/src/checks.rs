//! Pure check functions: IBAN, tax / VAT ids, canonical decimals.
//!
//! Every function takes arbitrary text and never panics. Tax ids are normalised before checking:
//! upper case, and spaces, dots, dashes and slashes removed.
//!
//! Decisions:
//! - An IBAN of a country missing from the length table (not in the SWIFT registry at the time of
//!   writing) is accepted when it is 15..=34 characters long and passes mod-97.
//! - [`tax_id_check`] answers `Some(true/false)` for a known scheme (check digits where the scheme
//!   defines simple ones, the format otherwise) and `None` for an unknown scheme, or for an
//!   `EU_VAT` value whose 2-letter prefix is not a country this module knows.

use rust_decimal::Decimal;
use std::str::FromStr;

/// IBAN lengths by country (SWIFT IBAN registry).
const IBAN_LENGTHS: &[(&str, usize)] = &[
    ("AD", 24),
    ("AE", 23),
    ("AL", 28),
    ("AT", 20),
    ("AZ", 28),
    ("BA", 20),
    ("BE", 16),
    ("BG", 22),
    ("BH", 22),
    ("BI", 27),
    ("BR", 29),
    ("BY", 28),
    ("CH", 21),
    ("CR", 22),
    ("CY", 28),
    ("CZ", 24),
    ("DE", 22),
    ("DJ", 27),
    ("DK", 18),
    ("DO", 28),
    ("EE", 20),
    ("EG", 29),
    ("ES", 24),
    ("FI", 18),
    ("FK", 18),
    ("FO", 18),
    ("FR", 27),
    ("GB", 22),
    ("GE", 22),
    ("GI", 23),
    ("GL", 18),
    ("GR", 27),
    ("GT", 28),
    ("HN", 28),
    ("HR", 21),
    ("HU", 28),
    ("IE", 22),
    ("IL", 23),
    ("IQ", 23),
    ("IS", 26),
    ("IT", 27),
    ("JO", 30),
    ("KW", 30),
    ("KZ", 20),
    ("LB", 28),
    ("LC", 32),
    ("LI", 21),
    ("LT", 20),
    ("LU", 20),
    ("LV", 21),
    ("LY", 25),
    ("MC", 27),
    ("MD", 24),
    ("ME", 22),
    ("MK", 19),
    ("MN", 20),
    ("MR", 27),
    ("MT", 31),
    ("MU", 30),
    ("NI", 28),
    ("NL", 18),
    ("NO", 15),
    ("OM", 23),
    ("PK", 24),
    ("PL", 28),
    ("PS", 29),
    ("PT", 25),
    ("QA", 29),
    ("RO", 24),
    ("RS", 22),
    ("RU", 33),
    ("SA", 24),
    ("SC", 31),
    ("SD", 18),
    ("SE", 24),
    ("SI", 19),
    ("SK", 24),
    ("SM", 27),
    ("SO", 23),
    ("ST", 25),
    ("SV", 28),
    ("TL", 23),
    ("TN", 24),
    ("TR", 26),
    ("UA", 29),
    ("VA", 22),
    ("VG", 24),
    ("XK", 20),
    ("YE", 30),
];

/// Expected IBAN length of a country, if registered.
pub fn iban_length(country: &str) -> Option<usize> {
    IBAN_LENGTHS
        .iter()
        .find(|(c, _)| *c == country)
        .map(|&(_, n)| n)
}

/// Whether `iban` is a valid IBAN: spaces ignored, case-insensitive, country length, mod-97 == 1.
pub fn iban_is_valid(iban: &str) -> bool {
    let s: String = iban
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if !s.is_ascii() || s.len() < 15 || s.len() > 34 {
        return false;
    }
    let b = s.as_bytes();
    if !b.iter().take(2).all(u8::is_ascii_uppercase)
        || !b.iter().skip(2).take(2).all(u8::is_ascii_digit)
        || !b.iter().all(u8::is_ascii_alphanumeric)
    {
        return false;
    }
    let (country, _) = s.split_at(2);
    if let Some(n) = iban_length(country)
        && n != s.len()
    {
        return false;
    }
    let (head, tail) = s.split_at(4);
    mod97(tail.chars().chain(head.chars())) == Some(1)
}

/// Mod 97 of a string of digits and letters (A = 10 ... Z = 35), as used by IBAN (ISO 7064).
fn mod97(chars: impl Iterator<Item = char>) -> Option<u32> {
    let mut r: u32 = 0;
    for c in chars {
        let v = c.to_digit(36)?;
        r = if v >= 10 {
            (r * 100 + v) % 97
        } else {
            (r * 10 + v) % 97
        };
    }
    Some(r)
}

/// Upper case, with spaces, dots, dashes and slashes removed.
fn normalise(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '.' | '-' | '/' | '_'))
        .flat_map(char::to_uppercase)
        .collect()
}

/// Digits of an all-ASCII-digit string, None otherwise.
fn digits(s: &str) -> Option<Vec<u32>> {
    if s.is_empty() {
        return None;
    }
    s.chars().map(|c| c.to_digit(10)).collect()
}

fn all_digits(s: &str, len: usize) -> Option<Vec<u32>> {
    digits(s).filter(|d| d.len() == len)
}

fn weighted(d: &[u32], w: &[i64]) -> i64 {
    d.iter().zip(w).map(|(&a, &b)| a as i64 * b).sum()
}

/// Checks a tax / VAT / registration id of a scheme.
///
/// Schemes: `EU_VAT` (country prefix required, also `GB`, `XI`, `CH`/`CHE`, `NO`), `DE_VAT`,
/// `PL_NIP`, `PL_REGON`, `UA_EDRPOU`, `UA_IPN`, `RU_INN`, `RU_KPP`, `RU_OGRN`, `DE_STNR`,
/// `GB_VAT`, `CH_UID`, `NO_ORGNR`, `MY_SST`, `MY_GST`, `MY_TIN`, `FR_SIREN`, `FR_SIRET`.
/// Unknown scheme → `None`.
pub fn tax_id_check(scheme: &str, value: &str) -> Option<bool> {
    let v = normalise(value);
    match scheme {
        "EU_VAT" => eu_vat(&v),
        "DE_VAT" => Some(de_vat(v.strip_prefix("DE").unwrap_or(&v))),
        "PL_NIP" => Some(pl_nip(v.strip_prefix("PL").unwrap_or(&v))),
        "PL_REGON" => Some(pl_regon(&v)),
        "UA_EDRPOU" => Some(ua_edrpou(&v)),
        "UA_IPN" => Some(ua_ipn(&v)),
        "RU_INN" => Some(ru_inn(&v)),
        "RU_KPP" => Some(ru_kpp(&v)),
        "RU_OGRN" => Some(ru_ogrn(&v)),
        "DE_STNR" => Some(de_stnr(value)),
        "GB_VAT" => Some(gb_vat(strip_any(&v, &["GB", "XI"]))),
        "CH_UID" => Some(ch_uid(&v)),
        "NO_ORGNR" => Some(no_orgnr(strip_mva(&v))),
        "MY_SST" => Some(my_sst(&v)),
        "MY_GST" => Some(all_digits(&v, 12).is_some()),
        "MY_TIN" => Some(my_tin(&v)),
        "FR_SIREN" => Some(all_digits(&v, 9).is_some_and(|d| luhn(&d))),
        "FR_SIRET" => Some(fr_siret(&v)),
        _ => None,
    }
}

fn strip_any<'a>(v: &'a str, prefixes: &[&str]) -> &'a str {
    prefixes.iter().find_map(|p| v.strip_prefix(p)).unwrap_or(v)
}

fn strip_mva(v: &str) -> &str {
    let v = v.strip_prefix("NO").unwrap_or(v);
    v.strip_suffix("MVA").unwrap_or(v)
}

/// Whether a VAT id's country (its first two letters) has check digits ([`tax_id_check`] of
/// the others tests the shape only).
pub fn vat_has_check_digits(v: &str) -> bool {
    matches!(
        v.get(..2),
        Some(
            "AT" | "BE"
                | "DE"
                | "DK"
                | "ES"
                | "FI"
                | "FR"
                | "GB"
                | "XI"
                | "IT"
                | "LU"
                | "NL"
                | "PL"
                | "PT"
                | "SE"
                | "CH"
                | "NO"
        )
    )
}

/// EU VAT id with its 2-letter prefix.
fn eu_vat(v: &str) -> Option<bool> {
    if v.len() < 3 || !v.is_ascii() {
        return Some(false);
    }
    let (cc, rest) = v.split_at(2);
    if !cc.bytes().all(|b| b.is_ascii_uppercase()) {
        return Some(false);
    }
    let ok = match cc {
        "AT" => at_vat(rest),
        "BE" => be_vat(rest),
        "BG" => matches!(digits(rest).map(|d| d.len()), Some(9 | 10)),
        "CY" => {
            rest.len() == 9
                && digits(&rest[..8]).is_some()
                && rest.as_bytes().get(8).is_some_and(u8::is_ascii_uppercase)
        }
        "CZ" => matches!(digits(rest).map(|d| d.len()), Some(8..=10)),
        "DE" => de_vat(rest),
        "DK" => dk_vat(rest),
        "EE" => all_digits(rest, 9).is_some(),
        "EL" | "GR" => all_digits(rest, 9).is_some(),
        "ES" => es_vat(rest),
        "FI" => fi_vat(rest),
        "FR" => fr_vat(rest),
        "HR" => all_digits(rest, 11).is_some(),
        "HU" => all_digits(rest, 8).is_some(),
        "IE" => ie_format(rest),
        "IT" => it_vat(rest),
        "LT" => matches!(digits(rest).map(|d| d.len()), Some(9 | 12)),
        "LU" => lu_vat(rest),
        "LV" => all_digits(rest, 11).is_some(),
        "MT" => all_digits(rest, 8).is_some(),
        "NL" => nl_vat(rest),
        "PL" => pl_nip(rest),
        "PT" => pt_vat(rest),
        "RO" => matches!(digits(rest).map(|d| d.len()), Some(2..=10)),
        "SE" => se_vat(rest),
        "SI" => all_digits(rest, 8).is_some(),
        "SK" => all_digits(rest, 10).is_some(),
        "GB" | "XI" => gb_vat(rest),
        "CH" => ch_uid(v),
        "NO" => no_orgnr(strip_mva(v)),
        _ => return None,
    };
    Some(ok)
}

/// Germany: 9 digits, ISO 7064 MOD 11,10.
fn de_vat(s: &str) -> bool {
    let Some(d) = all_digits(s, 9) else {
        return false;
    };
    if d.first() == Some(&0) {
        return false;
    }
    let mut product = 10;
    for &x in d.iter().take(8) {
        let mut sum = (x + product) % 10;
        if sum == 0 {
            sum = 10;
        }
        product = (2 * sum) % 11;
    }
    let check = (11 - product) % 10;
    d.get(8) == Some(&check)
}

/// Poland NIP: 10 digits, weights 6 5 7 2 3 4 5 6 7, mod 11 (10 is never valid).
fn pl_nip(s: &str) -> bool {
    let Some(d) = all_digits(s, 10) else {
        return false;
    };
    let r = weighted(&d, &[6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
    r != 10 && d.get(9).map(|&x| x as i64) == Some(r)
}

/// Poland REGON: 9 or 14 digits.
fn pl_regon(s: &str) -> bool {
    let Some(d) = digits(s) else { return false };
    let w: &[i64] = match d.len() {
        9 => &[8, 9, 2, 3, 4, 5, 6, 7],
        14 => &[2, 4, 8, 5, 0, 9, 7, 3, 6, 1, 2, 4, 8],
        _ => return false,
    };
    let r = weighted(&d, w) % 11 % 10;
    d.last().map(|&x| x as i64) == Some(r)
}

/// France: 2-character key + 9-digit SIREN; numeric key = (12 + 3 * (SIREN mod 97)) mod 97.
fn fr_vat(s: &str) -> bool {
    if s.len() != 11 || !s.is_ascii() {
        return false;
    }
    let (key, siren) = s.split_at(2);
    let Some(sd) = all_digits(siren, 9) else {
        return false;
    };
    if !key
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() && b != b'O' && b != b'I')
    {
        return false;
    }
    match key.parse::<u64>() {
        Ok(k) => {
            let siren_n = sd.iter().fold(0u64, |a, &x| a * 10 + x as u64);
            k == (12 + 3 * (siren_n % 97)) % 97
        }
        // Alphabetic keys use a different (unpublished-in-law) algorithm: format only.
        Err(_) => true,
    }
}

/// Luhn-style check used by Italy's partita IVA (11 digits).
fn it_vat(s: &str) -> bool {
    let Some(d) = all_digits(s, 11) else {
        return false;
    };
    luhn(&d)
}

/// France SIRET: 14 digits, Luhn (La Poste establishments, SIREN 356000000, use digit sum mod 5).
fn fr_siret(s: &str) -> bool {
    let Some(d) = all_digits(s, 14) else {
        return false;
    };
    if s.starts_with("356000000") {
        return d.iter().sum::<u32>().is_multiple_of(5);
    }
    luhn(&d)
}

/// Luhn: the rightmost digit is the check digit.
fn luhn(d: &[u32]) -> bool {
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &x)| {
            if i % 2 == 1 {
                let y = x * 2;
                if y > 9 { y - 9 } else { y }
            } else {
                x
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// Spain: NIF / NIE / CIF, 9 characters.
fn es_vat(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 9 || !s.is_ascii() {
        return false;
    }
    const LETTERS: &[u8] = b"TRWAGMYFPDXBNJZSQVHLCKE";
    let first = b[0];
    let last = b[8];
    let middle = &s[1..8];
    if digits(middle).is_none() {
        return false;
    }
    let dni_letter = |n: u64| LETTERS.get((n % 23) as usize).copied();
    if first.is_ascii_digit() {
        // DNI: 8 digits + letter.
        return match s[..8].parse::<u64>() {
            Ok(n) => dni_letter(n) == Some(last),
            Err(_) => false,
        };
    }
    if matches!(first, b'X' | b'Y' | b'Z') {
        let lead = (first - b'X') as u64;
        return match middle.parse::<u64>() {
            Ok(n) => dni_letter(lead * 10_000_000 + n) == Some(last),
            Err(_) => false,
        };
    }
    if matches!(first, b'K' | b'L' | b'M') {
        // Special NIFs of natural persons: letter + 7 digits + DNI letter.
        return match middle.parse::<u64>() {
            Ok(n) => dni_letter(n) == Some(last),
            Err(_) => false,
        };
    }
    if !first.is_ascii_uppercase() {
        return false;
    }
    // CIF: letter + 7 digits + control digit or letter.
    let Some(d) = digits(middle) else {
        return false;
    };
    let mut sum = 0;
    for (i, &x) in d.iter().enumerate() {
        if i % 2 == 0 {
            let y = x * 2;
            sum += y / 10 + y % 10;
        } else {
            sum += x;
        }
    }
    let control = (10 - sum % 10) % 10;
    let as_digit = b'0' + control as u8;
    let as_letter = b"JABCDEFGHI".get(control as usize).copied();
    last == as_digit || Some(last) == as_letter
}

/// Netherlands: 9 digits + `B` + 2 digits; mod 11 (legal entities) or mod 97 (sole traders).
fn nl_vat(s: &str) -> bool {
    if s.len() != 12 || !s.is_ascii() {
        return false;
    }
    let (num, suffix) = s.split_at(9);
    let Some(d) = all_digits(num, 9) else {
        return false;
    };
    let sb = suffix.as_bytes();
    if sb.first() != Some(&b'B') || digits(&suffix[1..]).is_none() {
        return false;
    }
    let r = weighted(&d, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    let mod11 = r != 10 && d.get(8).map(|&x| x as i64) == Some(r);
    let mod97_ok = mod97("NL".chars().chain(s.chars())) == Some(1);
    mod11 || mod97_ok
}

/// Belgium: 10 digits (old 9-digit numbers get a leading 0); 97 - (first 8 mod 97) == last 2.
fn be_vat(s: &str) -> bool {
    let padded;
    let s = if s.len() == 9 {
        padded = format!("0{s}");
        padded.as_str()
    } else {
        s
    };
    let Some(d) = all_digits(s, 10) else {
        return false;
    };
    if d.first().is_some_and(|&x| x > 1) {
        return false;
    }
    let head = d.iter().take(8).fold(0u64, |a, &x| a * 10 + x as u64);
    let check = d.iter().skip(8).fold(0u64, |a, &x| a * 10 + x as u64);
    97 - head % 97 == check
}

/// Austria: `U` + 8 digits.
fn at_vat(s: &str) -> bool {
    let Some(num) = s.strip_prefix('U') else {
        return false;
    };
    let Some(d) = all_digits(num, 8) else {
        return false;
    };
    let mut sum = 0;
    for (i, &x) in d.iter().take(7).enumerate() {
        if i % 2 == 1 {
            let y = x * 2;
            sum += y / 10 + y % 10;
        } else {
            sum += x;
        }
    }
    let check = (10 - (sum + 4) % 10) % 10;
    d.get(7) == Some(&check)
}

/// Denmark: 8 digits, weights 2 7 6 5 4 3 2 1, sum mod 11 == 0.
fn dk_vat(s: &str) -> bool {
    all_digits(s, 8)
        .is_some_and(|d| d.first() != Some(&0) && weighted(&d, &[2, 7, 6, 5, 4, 3, 2, 1]) % 11 == 0)
}

/// Finland: 8 digits, weights 7 9 10 5 8 4 2, check = 11 - sum mod 11.
fn fi_vat(s: &str) -> bool {
    let Some(d) = all_digits(s, 8) else {
        return false;
    };
    let r = weighted(&d, &[7, 9, 10, 5, 8, 4, 2]) % 11;
    let check = match r {
        0 => 0,
        1 => return false,
        r => 11 - r,
    };
    d.get(7).map(|&x| x as i64) == Some(check)
}

/// Luxembourg: 8 digits, first 6 mod 89 == last 2.
fn lu_vat(s: &str) -> bool {
    let Some(d) = all_digits(s, 8) else {
        return false;
    };
    let head = d.iter().take(6).fold(0u64, |a, &x| a * 10 + x as u64);
    let check = d.iter().skip(6).fold(0u64, |a, &x| a * 10 + x as u64);
    head % 89 == check
}

/// Portugal: 9 digits, weights 9..2, check = 11 - sum mod 11 (10, 11 → 0).
fn pt_vat(s: &str) -> bool {
    let Some(d) = all_digits(s, 9) else {
        return false;
    };
    let r = 11 - weighted(&d, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    let check = if r >= 10 { 0 } else { r };
    d.get(8).map(|&x| x as i64) == Some(check)
}

/// Sweden: 12 digits, Luhn over the first 10, ending `01`.
fn se_vat(s: &str) -> bool {
    let Some(d) = all_digits(s, 12) else {
        return false;
    };
    d.get(10..) == Some(&[0, 1][..]) && d.get(..10).is_some_and(luhn)
}

/// Ireland: format only (7 digits + 1-2 letters, or the old digit-letter-5 digits-letter form).
fn ie_format(s: &str) -> bool {
    let b = s.as_bytes();
    let new_form = (b.len() == 8 || b.len() == 9)
        && b.iter().take(7).all(u8::is_ascii_digit)
        && b.iter().skip(7).all(u8::is_ascii_uppercase);
    let old_form = b.len() == 8
        && b[0].is_ascii_digit()
        && (b[1].is_ascii_uppercase() || b[1] == b'+' || b[1] == b'*')
        && b[2..7].iter().all(u8::is_ascii_digit)
        && b[7].is_ascii_uppercase();
    new_form || old_form
}

/// United Kingdom: 9 digits (mod 97 or mod 9755), 12 digits (branch), or GD/HA + 3 digits.
fn gb_vat(s: &str) -> bool {
    if let Some(rest) = s.strip_prefix("GD").or_else(|| s.strip_prefix("HA")) {
        return all_digits(rest, 3).is_some();
    }
    let Some(d) = digits(s) else { return false };
    if d.len() != 9 && d.len() != 12 {
        return false;
    }
    let sum = weighted(&d, &[8, 7, 6, 5, 4, 3, 2]);
    let check = d.get(7..9).map(|c| (c[0] * 10 + c[1]) as i64).unwrap_or(-1);
    let total = sum + check;
    total % 97 == 0 || (total + 55) % 97 == 0
}

/// Switzerland UID: `CHE` + 9 digits (optional `MWST`/`TVA`/`IVA` suffix), mod 11.
fn ch_uid(v: &str) -> bool {
    let v = ["MWST", "TVA", "IVA", "VAT"]
        .iter()
        .find_map(|suf| v.strip_suffix(suf))
        .unwrap_or(v);
    let Some(num) = v.strip_prefix("CHE") else {
        return false;
    };
    let Some(d) = all_digits(num, 9) else {
        return false;
    };
    let r = weighted(&d, &[5, 4, 3, 2, 7, 6, 5, 4]) % 11;
    let check = match r {
        0 => 0,
        1 => return false,
        r => 11 - r,
    };
    d.get(8).map(|&x| x as i64) == Some(check)
}

/// Norway organisation number: 9 digits, weights 3 2 7 6 5 4 3 2, mod 11.
fn no_orgnr(s: &str) -> bool {
    let Some(d) = all_digits(s, 9) else {
        return false;
    };
    let r = weighted(&d, &[3, 2, 7, 6, 5, 4, 3, 2]) % 11;
    let check = match r {
        0 => 0,
        1 => return false,
        r => 11 - r,
    };
    d.get(8).map(|&x| x as i64) == Some(check)
}

/// Ukraine EDRPOU: 8 digits, weights 1..7 (or 7 1..6 for 30000000..60000000), second pass +2.
fn ua_edrpou(s: &str) -> bool {
    let Some(d) = all_digits(s, 8) else {
        return false;
    };
    let n = d.iter().fold(0u64, |a, &x| a * 10 + x as u64);
    let base: [i64; 7] = if (30_000_000..60_000_000).contains(&n) {
        [7, 1, 2, 3, 4, 5, 6]
    } else {
        [1, 2, 3, 4, 5, 6, 7]
    };
    let mut r = weighted(&d, &base) % 11;
    if r == 10 {
        let second: Vec<i64> = base.iter().map(|w| w + 2).collect();
        r = weighted(&d, &second) % 11;
        if r == 10 {
            r = 0;
        }
    }
    d.get(7).map(|&x| x as i64) == Some(r)
}

/// Ukraine individual tax number (RNOKPP / IPN): 10 digits.
fn ua_ipn(s: &str) -> bool {
    let Some(d) = all_digits(s, 10) else {
        return false;
    };
    let r = weighted(&d, &[-1, 5, 7, 9, 4, 6, 10, 5, 7]).rem_euclid(11) % 10;
    d.get(9).map(|&x| x as i64) == Some(r)
}

/// Russia INN: 10 digits (organisations) or 12 digits (individuals).
fn ru_inn(s: &str) -> bool {
    let Some(d) = digits(s) else { return false };
    let check = |w: &[i64], at: usize| {
        let r = weighted(&d, w) % 11 % 10;
        d.get(at).map(|&x| x as i64) == Some(r)
    };
    match d.len() {
        10 => check(&[2, 4, 10, 3, 5, 9, 4, 6, 8], 9),
        12 => {
            check(&[7, 2, 4, 10, 3, 5, 9, 4, 6, 8], 10)
                && check(&[3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8], 11)
        }
        _ => false,
    }
}

/// Russia KPP: 4 digits, 2 digits or letters, 3 digits (format only).
fn ru_kpp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 9
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4..6]
            .iter()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
        && b[6..].iter().all(u8::is_ascii_digit)
}

/// Russia OGRN (13 digits, mod 11) / OGRNIP (15 digits, mod 13).
fn ru_ogrn(s: &str) -> bool {
    let Some(d) = digits(s) else { return false };
    let (m, len) = match d.len() {
        13 => (11u64, 12),
        15 => (13u64, 14),
        _ => return false,
    };
    let head = d.iter().take(len).fold(0u64, |a, &x| a * 10 + x as u64);
    d.get(len).map(|&x| x as u64) == Some(head % m % 10)
}

/// German Steuernummer, format only: regional forms with slashes (`12/345/67890`, `123/456/78901`,
/// `1234/567/8901`?) or 10..13 plain digits (13 = unified federal form).
fn de_stnr(value: &str) -> bool {
    let s: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    let parts: Vec<&str> = s.split('/').collect();
    match parts.len() {
        1 => matches!(digits(&s).map(|d| d.len()), Some(10..=13)),
        3 => {
            let lens: Vec<Option<usize>> =
                parts.iter().map(|p| digits(p).map(|d| d.len())).collect();
            matches!(lens.as_slice(), [Some(2 | 3), Some(3 | 4), Some(4 | 5)])
                && matches!(digits(&s.replace('/', "")).map(|d| d.len()), Some(10 | 11))
        }
        _ => false,
    }
}

/// Malaysia SST registration: letter + 2 digits + 4 digits + 8 digits (`W10-1808-31000123`).
fn my_sst(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 15 && b[0].is_ascii_uppercase() && b[1..].iter().all(u8::is_ascii_digit)
}

/// Malaysia TIN: 1-2 letter prefix (`C`, `IG`, `OG`, ...) + 8..12 digits.
fn my_tin(s: &str) -> bool {
    let letters = s.bytes().take_while(u8::is_ascii_uppercase).count();
    (1..=2).contains(&letters)
        && s.get(letters..)
            .and_then(digits)
            .is_some_and(|d| (8..=12).contains(&d.len()))
}

/// Parses a canonical decimal string (`-?[0-9]+(\.[0-9]+)?`); anything else → None.
pub fn decimal(s: &str) -> Option<Decimal> {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Some(f) = frac
        && (f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    Decimal::from_str(s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iban_valid_examples() {
        for iban in [
            "DE89 3704 0044 0532 0130 00",
            "GB82WEST12345698765432",
            "FR1420041010050500013M02606",
            "PL61109010140000071219812874",
            "UA213223130000026007233566001",
            "CH9300762011623852957",
            "NO9386011117947",
            "NL91ABNA0417164300",
            "BE68539007547034",
            "AT611904300234573201",
            "IT60X0542811101000000123456",
            "ES9121000418450200051332",
            "de89370400440532013000",
        ] {
            assert!(iban_is_valid(iban), "{iban}");
        }
    }

    #[test]
    fn iban_invalid_examples() {
        for iban in [
            "DE89370400440532013001",     // checksum
            "DE8937040044053201300",      // length
            "GB82WEST1234569876543",      // length
            "UA213223130000026007233566", // length
            "XX",
            "",
            "DE89 3704 0044 0532 0130 0Ä",
            "1289370400440532013000",
            "DEAB370400440532013000",
            "DE89-3704-0044-0532-0130-00",
        ] {
            assert!(!iban_is_valid(iban), "{iban}");
        }
    }

    #[test]
    fn eu_vat_checksums() {
        let valid = [
            "DE136695976",
            "DE 811 907 980",
            "PL5260250274",
            "FR40303265045",
            "FR 40 303 265 045",
            "IT00743110157",
            "ESA28015865",
            "ES12345678Z",
            "ESX1234567L",
            "NL004495445B01",
            "NL000099998B57",
            "BE0403019261",
            "ATU13585627",
            "DK13585628",
            "FI20774740",
            "LU15027442",
            "PT501964843",
            "SE556188840401",
            "GB980780684",
            "IE6388047V",
            "CZ25123891",
            "CHE-116.281.710 MWST",
            "NO974760673MVA",
        ];
        for v in valid {
            assert_eq!(tax_id_check("EU_VAT", v), Some(true), "{v}");
        }
        let invalid = [
            "DE136695977",
            "DE13669597",
            "PL5260250275",
            "FR41303265045",
            "IT00743110158",
            "ESA28015866",
            "ES12345678A",
            "NL004495446B01",
            "BE0403019262",
            "ATU13585628",
            "DK13585627",
            "GB980780685",
            "DE",
            "",
            "12345",
        ];
        for v in invalid {
            assert_eq!(tax_id_check("EU_VAT", v), Some(false), "{v}");
        }
        // Unknown country prefix → cannot judge.
        assert_eq!(tax_id_check("EU_VAT", "US123456789"), None);
    }

    #[test]
    fn national_ids() {
        assert_eq!(tax_id_check("PL_NIP", "526-025-02-74"), Some(true));
        assert_eq!(tax_id_check("PL_NIP", "5260250273"), Some(false));
        assert_eq!(tax_id_check("PL_REGON", "012100784"), Some(true));
        assert_eq!(tax_id_check("PL_REGON", "012100785"), Some(false));
        // EDRPOU: PrivatBank 14360570, Ukrzaliznytsia 40075815, Naftogaz 20077720.
        for v in ["14360570", "40075815", "20077720", "00032129"] {
            assert_eq!(tax_id_check("UA_EDRPOU", v), Some(true), "{v}");
        }
        for v in ["14360571", "4007581", "40075816"] {
            assert_eq!(tax_id_check("UA_EDRPOU", v), Some(false), "{v}");
        }
        assert_eq!(tax_id_check("UA_IPN", "3184710691"), Some(true));
        assert_eq!(tax_id_check("UA_IPN", "3184710692"), Some(false));
        // Sberbank INN 7707083893, an individual INN 500100732259.
        assert_eq!(tax_id_check("RU_INN", "7707083893"), Some(true));
        assert_eq!(tax_id_check("RU_INN", "7707083894"), Some(false));
        assert_eq!(tax_id_check("RU_INN", "500100732259"), Some(true));
        assert_eq!(tax_id_check("RU_INN", "500100732258"), Some(false));
        assert_eq!(tax_id_check("RU_INN", "77070838"), Some(false));
        assert_eq!(tax_id_check("RU_KPP", "773601001"), Some(true));
        assert_eq!(tax_id_check("RU_KPP", "7736AB001"), Some(true));
        assert_eq!(tax_id_check("RU_KPP", "77360100"), Some(false));
        assert_eq!(tax_id_check("RU_OGRN", "1027700132195"), Some(true));
        assert_eq!(tax_id_check("RU_OGRN", "1027700132196"), Some(false));
        assert_eq!(tax_id_check("DE_STNR", "93815/08152"), Some(false));
        assert_eq!(tax_id_check("DE_STNR", "181/815/08155"), Some(true));
        assert_eq!(tax_id_check("DE_STNR", "2181508150"), Some(true));
        assert_eq!(tax_id_check("DE_STNR", "12/345"), Some(false));
        assert_eq!(tax_id_check("GB_VAT", "GB 980 7806 84"), Some(true));
        assert_eq!(tax_id_check("GB_VAT", "GB 980 7806 85"), Some(false));
        assert_eq!(tax_id_check("CH_UID", "CHE-116.281.710"), Some(true));
        assert_eq!(tax_id_check("CH_UID", "CHE-116.281.711"), Some(false));
        assert_eq!(tax_id_check("NO_ORGNR", "974 760 673"), Some(true));
        assert_eq!(tax_id_check("NO_ORGNR", "974 760 674"), Some(false));
        assert_eq!(tax_id_check("MY_SST", "W10-1808-31000123"), Some(true));
        assert_eq!(tax_id_check("MY_SST", "W10-1808-3100012"), Some(false));
        assert_eq!(tax_id_check("MY_GST", "000123456789"), Some(true));
        assert_eq!(tax_id_check("MY_TIN", "C 2345678901"), Some(true));
        assert_eq!(tax_id_check("MY_TIN", "2345678901"), Some(false));
        assert_eq!(tax_id_check("DE_VAT", "136695976"), Some(true));
        assert_eq!(tax_id_check("FR_SIREN", "732 829 320"), Some(true));
        assert_eq!(tax_id_check("FR_SIREN", "732 829 321"), Some(false));
        assert_eq!(tax_id_check("FR_SIRET", "732 829 320 00074"), Some(true));
        assert_eq!(tax_id_check("FR_SIRET", "732 829 320 00075"), Some(false));
        assert_eq!(tax_id_check("NOPE", "1"), None);
    }

    #[test]
    fn weird_input_never_panics() {
        for s in [
            "",
            "€€€",
            "ΑΒΓ",
            "ß",
            "DE\u{0}",
            "////",
            "ES€1234567",
            "IE1€345678",
        ] {
            for scheme in [
                "EU_VAT",
                "PL_NIP",
                "UA_EDRPOU",
                "UA_IPN",
                "RU_INN",
                "RU_KPP",
                "DE_STNR",
                "GB_VAT",
                "MY_SST",
                "MY_TIN",
                "CH_UID",
                "RU_OGRN",
            ] {
                let _ = tax_id_check(scheme, s);
            }
            assert!(!iban_is_valid(s));
            assert_eq!(decimal(s), None);
        }
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal("1234.56"), Decimal::from_str("1234.56").ok());
        assert_eq!(decimal("-0.5"), Decimal::from_str("-0.5").ok());
        assert_eq!(decimal("7"), Some(Decimal::from(7)));
        for bad in [
            "", "-", "1.", ".5", "1,5", "1 000", "+1", "1e5", "abc", "1.2.3", "--1",
        ] {
            assert_eq!(decimal(bad), None, "{bad}");
        }
        // Too large for Decimal → None, not a panic.
        assert_eq!(decimal("99999999999999999999999999999999999"), None);
    }
}
