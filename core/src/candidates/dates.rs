//! Date parsing: numeric (`dd.mm.yyyy`, `dd/mm/yyyy`, `yyyy-mm-dd`, `dd-mm-yy`, `mm/dd/yyyy`,
//! `yyyy. mm. dd.`, and OCR readings such as `05. 02, 2022`, `05-02 2022`, `O5.O2.2O22`) and
//! written month names in en, de, fr, pl, uk, ru, nl, it, es, pt, cs, sk, lt, lv, et, fi, sv,
//! da, hu, ro (`3. März 2024`, `12 janvier 2024`, `5 maja 2024`, `15 березня 2024 р.`,
//! `1 января 2024 г.`, `Jan 5, 2024`, `05-Jan-2024`, `5 de febrero de 2022`,
//! `2022. február 5.`, `2022 m. vasario 5 d.`, `2022. gada 5. februāris`).
//!
//! Day/month order: numeric dates are day-first (as printed in Europe and Malaysia) unless the
//! day-first reading is impossible (`12/31/2024`), or the document is month-first: the caller
//! passes `month_first` when its unambiguous numeric dates are month-first (see
//! [`document_is_month_first`]). Two-digit years are 2000-2069 / 1970-1999.

use super::amounts::ocr_digits;
use super::labels::fold_diacritics;
use chrono::NaiveDate;
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

/// A date found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateMatch {
    /// Byte start.
    pub start: usize,
    /// Byte end.
    pub end: usize,
    /// The date.
    pub date: NaiveDate,
    /// Whether day and month could be swapped (both <= 12, numeric).
    pub ambiguous: bool,
}

impl DateMatch {
    /// `YYYY-MM-DD`.
    pub fn iso(&self) -> String {
        self.date.format("%Y-%m-%d").to_string()
    }
}

const MONTHS: &[(&str, u32)] = &[
    // English
    ("january", 1),
    ("jan", 1),
    ("february", 2),
    ("feb", 2),
    ("march", 3),
    ("mar", 3),
    ("april", 4),
    ("apr", 4),
    ("may", 5),
    ("june", 6),
    ("jun", 6),
    ("july", 7),
    ("jul", 7),
    ("august", 8),
    ("aug", 8),
    ("september", 9),
    ("sep", 9),
    ("sept", 9),
    ("october", 10),
    ("oct", 10),
    ("november", 11),
    ("nov", 11),
    ("december", 12),
    ("dec", 12),
    // German
    ("januar", 1),
    ("jänner", 1),
    ("februar", 2),
    ("märz", 3),
    ("maerz", 3),
    ("mär", 3),
    ("mai", 5),
    ("juni", 6),
    ("juli", 7),
    ("oktober", 10),
    ("okt", 10),
    ("dezember", 12),
    ("dez", 12),
    // French
    ("janvier", 1),
    ("janv", 1),
    ("février", 2),
    ("fevrier", 2),
    ("févr", 2),
    ("fév", 2),
    ("mars", 3),
    ("avril", 4),
    ("avr", 4),
    ("juin", 6),
    ("juillet", 7),
    ("juil", 7),
    ("août", 8),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("novembre", 11),
    ("décembre", 12),
    ("decembre", 12),
    ("déc", 12),
    // Polish
    ("styczeń", 1),
    ("stycznia", 1),
    ("luty", 2),
    ("lutego", 2),
    ("marzec", 3),
    ("marca", 3),
    ("kwiecień", 4),
    ("kwietnia", 4),
    ("maj", 5),
    ("maja", 5),
    ("czerwiec", 6),
    ("czerwca", 6),
    ("lipiec", 7),
    ("lipca", 7),
    ("sierpień", 8),
    ("sierpnia", 8),
    ("wrzesień", 9),
    ("września", 9),
    ("październik", 10),
    ("października", 10),
    ("listopad", 11),
    ("listopada", 11),
    ("grudzień", 12),
    ("grudnia", 12),
    // Dutch
    ("januari", 1),
    ("februari", 2),
    ("maart", 3),
    ("mrt", 3),
    ("mei", 5),
    ("augustus", 8),
    // Italian
    ("gennaio", 1),
    ("gen", 1),
    ("febbraio", 2),
    ("marzo", 3),
    ("aprile", 4),
    ("maggio", 5),
    ("mag", 5),
    ("giugno", 6),
    ("giu", 6),
    ("luglio", 7),
    ("lug", 7),
    ("agosto", 8),
    ("ago", 8),
    ("settembre", 9),
    ("set", 9),
    ("ottobre", 10),
    ("ott", 10),
    ("dicembre", 12),
    ("dic", 12),
    // Spanish
    ("enero", 1),
    ("ene", 1),
    ("febrero", 2),
    ("abril", 4),
    ("abr", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    // Portuguese
    ("janeiro", 1),
    ("fevereiro", 2),
    ("fev", 2),
    ("março", 3),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("setembro", 9),
    ("outubro", 10),
    ("out", 10),
    ("novembro", 11),
    ("dezembro", 12),
    // Czech (nominative and genitive)
    ("leden", 1),
    ("ledna", 1),
    ("únor", 2),
    ("února", 2),
    ("březen", 3),
    ("března", 3),
    ("duben", 4),
    ("dubna", 4),
    ("květen", 5),
    ("května", 5),
    ("červen", 6),
    ("června", 6),
    ("červenec", 7),
    ("července", 7),
    ("srpen", 8),
    ("srpna", 8),
    ("září", 9),
    ("říjen", 10),
    ("října", 10),
    ("listopadu", 11),
    ("prosinec", 12),
    ("prosince", 12),
    // Slovak
    ("január", 1),
    ("januára", 1),
    ("február", 2),
    ("februára", 2),
    ("marec", 3),
    ("apríl", 4),
    ("apríla", 4),
    ("máj", 5),
    ("mája", 5),
    ("jún", 6),
    ("júna", 6),
    ("júl", 7),
    ("júla", 7),
    ("augusta", 8),
    ("septembra", 9),
    ("október", 10),
    ("októbra", 10),
    ("novembra", 11),
    ("decembra", 12),
    // Lithuanian (genitive, as in dates, and nominative)
    ("sausio", 1),
    ("sausis", 1),
    ("vasario", 2),
    ("vasaris", 2),
    ("kovo", 3),
    ("kovas", 3),
    ("balandžio", 4),
    ("balandis", 4),
    ("gegužės", 5),
    ("gegužė", 5),
    ("birželio", 6),
    ("birželis", 6),
    ("liepos", 7),
    ("liepa", 7),
    ("rugpjūčio", 8),
    ("rugpjūtis", 8),
    ("rugsėjo", 9),
    ("rugsėjis", 9),
    ("spalio", 10),
    ("spalis", 10),
    ("lapkričio", 11),
    ("lapkritis", 11),
    ("gruodžio", 12),
    ("gruodis", 12),
    // Latvian
    ("janvāris", 1),
    ("janvārī", 1),
    ("februāris", 2),
    ("februārī", 2),
    ("marts", 3),
    ("martā", 3),
    ("aprīlis", 4),
    ("aprīlī", 4),
    ("maijs", 5),
    ("maijā", 5),
    ("jūnijs", 6),
    ("jūnijā", 6),
    ("jūlijs", 7),
    ("jūlijā", 7),
    ("augusts", 8),
    ("augustā", 8),
    ("septembris", 9),
    ("septembrī", 9),
    ("oktobris", 10),
    ("oktobrī", 10),
    ("novembris", 11),
    ("novembrī", 11),
    ("decembris", 12),
    ("decembrī", 12),
    // Estonian
    ("jaanuar", 1),
    ("veebruar", 2),
    ("märts", 3),
    ("aprill", 4),
    ("juuni", 6),
    ("juuli", 7),
    ("oktoober", 10),
    ("detsember", 12),
    // Finnish (nominative and the partitive of dates)
    ("tammikuu", 1),
    ("tammikuuta", 1),
    ("helmikuu", 2),
    ("helmikuuta", 2),
    ("maaliskuu", 3),
    ("maaliskuuta", 3),
    ("huhtikuu", 4),
    ("huhtikuuta", 4),
    ("toukokuu", 5),
    ("toukokuuta", 5),
    ("kesäkuu", 6),
    ("kesäkuuta", 6),
    ("heinäkuu", 7),
    ("heinäkuuta", 7),
    ("elokuu", 8),
    ("elokuuta", 8),
    ("syyskuu", 9),
    ("syyskuuta", 9),
    ("lokakuu", 10),
    ("lokakuuta", 10),
    ("marraskuu", 11),
    ("marraskuuta", 11),
    ("joulukuu", 12),
    ("joulukuuta", 12),
    // Swedish and Danish
    ("augusti", 8),
    ("maj", 5),
    // Hungarian
    ("január", 1),
    ("február", 2),
    ("febr", 2),
    ("március", 3),
    ("márc", 3),
    ("április", 4),
    ("ápr", 4),
    ("május", 5),
    ("június", 6),
    ("július", 7),
    ("augusztus", 8),
    ("szeptember", 9),
    ("szept", 9),
    // Romanian
    ("ianuarie", 1),
    ("ian", 1),
    ("februarie", 2),
    ("martie", 3),
    ("aprilie", 4),
    ("iunie", 6),
    ("iulie", 7),
    ("septembrie", 9),
    ("octombrie", 10),
    ("noiembrie", 11),
    ("decembrie", 12),
    // Ukrainian
    ("січня", 1),
    ("січень", 1),
    ("лютого", 2),
    ("лютий", 2),
    ("березня", 3),
    ("березень", 3),
    ("квітня", 4),
    ("квітень", 4),
    ("травня", 5),
    ("травень", 5),
    ("червня", 6),
    ("червень", 6),
    ("липня", 7),
    ("липень", 7),
    ("серпня", 8),
    ("серпень", 8),
    ("вересня", 9),
    ("вересень", 9),
    ("жовтня", 10),
    ("жовтень", 10),
    ("листопада", 11),
    ("листопад", 11),
    ("грудня", 12),
    ("грудень", 12),
    // Russian
    ("января", 1),
    ("январь", 1),
    ("февраля", 2),
    ("февраль", 2),
    ("марта", 3),
    ("март", 3),
    ("апреля", 4),
    ("апрель", 4),
    ("мая", 5),
    ("май", 5),
    ("июня", 6),
    ("июнь", 6),
    ("июля", 7),
    ("июль", 7),
    ("августа", 8),
    ("август", 8),
    ("сентября", 9),
    ("сентябрь", 9),
    ("октября", 10),
    ("октябрь", 10),
    ("ноября", 11),
    ("ноябрь", 11),
    ("декабря", 12),
    ("декабрь", 12),
];

/// Month names with Latin diacritics folded (`März` and `Marz`, `února` and `unora` alike).
static MONTH_INDEX: LazyLock<HashMap<String, u32>> = LazyLock::new(|| {
    MONTHS
        .iter()
        .map(|&(n, m)| (fold_diacritics(n).into_owned(), m))
        .collect()
});

/// A month name with the letters OCR confuses made one (`l` and `i`): `jullo` and `julio` alike.
fn ocr_month_key(folded: &str) -> String {
    folded.replace('l', "i")
}

/// The month names of four letters or more by [`ocr_month_key`]; a key two months share is left
/// out.
static MONTH_OCR_INDEX: LazyLock<HashMap<String, u32>> =
    LazyLock::new(|| ocr_index(4..=usize::MAX));

/// The month names of three letters by [`ocr_month_key`] (`mal` for `mai`): read only inside a
/// date of four-digit year ([`find_dates`]), where nothing else of it is in doubt.
static SHORT_MONTH_OCR_INDEX: LazyLock<HashMap<String, u32>> = LazyLock::new(|| ocr_index(3..=3));

/// Month names of these lengths by [`ocr_month_key`]; a key two months share is left out.
fn ocr_index(lengths: std::ops::RangeInclusive<usize>) -> HashMap<String, u32> {
    let mut index: HashMap<String, Option<u32>> = HashMap::new();
    for (name, &m) in MONTH_INDEX.iter() {
        if !lengths.contains(&name.chars().count()) {
            continue;
        }
        let slot = index.entry(ocr_month_key(name)).or_insert(Some(m));
        if *slot != Some(m) {
            *slot = None;
        }
    }
    index
        .into_iter()
        .filter_map(|(k, m)| Some((k, m?)))
        .collect()
}

/// Month number of a (possibly abbreviated, any-case, accents optional) month name; a name of
/// four letters or more also as OCR misreads an `i` or `l` in it (`jullo`).
pub fn month_number(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    let folded = fold_diacritics(&w);
    MONTH_INDEX.get(folded.as_ref()).copied().or_else(|| {
        (folded.chars().count() >= 4)
            .then(|| MONTH_OCR_INDEX.get(&ocr_month_key(&folded)).copied())
            .flatten()
    })
}

/// Numeric dates: day or year, separator, month, separator (a mark, or a space alone), year or
/// day. Mixed and spaced separators (`05. 02, 2022`, `05-02 2022`) are what OCR makes of a
/// printed `05.02.2022`; [`separators`] says which mixes are dates.
static NUMERIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([0-9]{1,4})\s?([./,-])\s?([0-9]{1,2})(?:\s?([./,-])\s?|(\s))([0-9]{2,4})")
        .expect("date regex")
});
// The month word's length (3 to 12 letters day-first, 3 to 9 month-first) is checked in code:
// a bounded repetition of `\p{L}` compiles into one copy of the letter class per repetition
// (a few ms at every start). The search below restarts one character after each match start,
// so rejecting a too long or too short word there finds what the bounded pattern finds (a
// month-first match on a too long word skips straight to the word's last letters, which gives
// the same result without retrying every letter of a long word).
static DAY_MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"[«„“\x22]?([0-9]{1,2})[»“”\x22]?(?:st|nd|rd|th|er)?[.,]?[\s/-]{0,2}(?:(?:de|di)\s{1,2})?(\p{L}+)\.?,?[\s/-]{0,2}(?:(?:de|del)\s{1,2})?'?([0-9]{4}|[0-9]{2})",
    )
    .expect("date regex")
});
static MONTH_DAY_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\p{L}+)\.?\s{0,2}([0-9]{1,2})(?:st|nd|rd|th)?,?\s{0,2}([0-9]{4})")
        .expect("date regex")
});
/// Year first with a written month: Hungarian `2022. február 5.`, Lithuanian
/// `2022 m. vasario 5 d.`.
static YEAR_MONTH_DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([0-9]{4})\.?\s{1,2}(?:m\.\s{0,2})?(\p{L}+)\.?\s{0,2}([0-9]{1,2})")
        .expect("date regex")
});

/// Year, day, then the month, as Latvian writes dates: `2022. gada 5. februāris` ("of the year
/// 2022, the 5th of February"); the day's full stop also as OCR reads it, a comma (`5,`).
static YEAR_DAY_MONTH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([0-9]{4})[.,]?\s{1,2}gada\s{1,2}([0-9]{1,2})[.,]?\s{1,2}(\p{L}+)")
        .expect("date regex")
});

/// Short month abbreviations of the further languages (`out`, `set`, `ago`, `gen`, ...) that are
/// also everyday words: dates with them need a four-digit year (`2 out 10` is no date).
const SHORT_NEEDS_FULL_YEAR: &[&str] = &[
    "gen", "mag", "giu", "lug", "ago", "set", "ott", "dic", "ene", "abr", "fev", "out", "mrt",
    "mei", "ian", "febr",
];

/// Whether two separators of a numeric date make a date, and whether the mix is odd (an OCR
/// reading of a regular date): a regular date repeats one of `.`, `/`, `-`; odd ones mix them
/// or a comma (`05. 02, 2022`, `05,02.2022`) or end with a space after `-` or `/`
/// (`05-02 2022`), and need a four-digit year (`1.05 2022` stays an amount and a number).
fn separators(s1: char, s2: char, a_len: usize, b_len: usize, y_len: usize) -> Option<bool> {
    let mark = |c: char| matches!(c, '.' | '/' | '-');
    if s1 == s2 && mark(s1) {
        return Some(false);
    }
    let full_year = if a_len == 4 { y_len <= 2 } else { y_len == 4 };
    let ok = full_year
        && if mark(s1) {
            mark(s2) || s2 == ',' || (s2 == ' ' && s1 != '.' && a_len <= 2)
        } else {
            // A comma first: `05,02.2022` (two-digit day and month only).
            s1 == ',' && matches!(s2, '.' | ',' | '/') && a_len == 2 && b_len == 2
        };
    ok.then_some(true)
}

fn year_of(s: &str) -> Option<i32> {
    let y: i32 = s.parse().ok()?;
    match s.len() {
        2 => Some(if y < 70 { 2000 + y } else { 1900 + y }),
        4 if (1900..=2100).contains(&y) => Some(y),
        _ => None,
    }
}

fn boundary_ok(text: &str, start: usize, end: usize) -> bool {
    let mut before = text[..start].chars().rev();
    match before.next() {
        Some(c) if c.is_alphanumeric() => return false,
        // `12.2024-01-05`: the tail of a longer number; `FV/2024/02/24`, `INV-2024-01-05`: the
        // tail of an identifier (a document number), not a date of the document. A dash before
        // a date written with other separators joins two fields the way till printers join
        // them (`REG#19-10/03/2018`): the digits before it belong to the other field.
        Some(sep @ ('.' | ',' | '/' | '-')) => {
            let own_separators = !text[start..end].contains('-');
            let glued = before.next().is_some_and(|c| {
                (c.is_ascii_digit() && !(sep == '-' && own_separators))
                    || (matches!(sep, '/' | '-') && c.is_alphabetic())
            });
            if glued {
                return false;
            }
        }
        _ => {}
    }
    let mut after = text[end..].chars();
    match after.next() {
        Some(c) if c.is_ascii_digit() => false,
        Some('.' | '/' | '-') => !after.next().is_some_and(|c| c.is_ascii_digit()),
        _ => true,
    }
}

fn boundary_after_alpha_ok(text: &str, start: usize, _end: usize) -> bool {
    // A letter right after the date (`05.03.2018vom`) is unusual but harmless; a letter or digit
    // right before is not.
    !text[..start]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric())
}

/// `text` with a tilde between two digits read as the dash a dot-matrix printer prints
/// (`05~05-17`: both PP-OCR recognisers read the receipt printer's dash so). Byte offsets are
/// unchanged.
fn ocr_dashes(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let between = |k: usize| {
        b[k] == b'~'
            && k > 0
            && b[k - 1].is_ascii_digit()
            && b.get(k + 1).is_some_and(u8::is_ascii_digit)
    };
    if !(0..b.len()).any(between) {
        return std::borrow::Cow::Borrowed(text);
    }
    let out: Vec<u8> = (0..b.len())
        .map(|k| if between(k) { b'-' } else { b[k] })
        .collect();
    // Only one ASCII byte was replaced by another.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

/// Finds all dates in `text`.
///
/// Letters that OCR reads for digits (`O` for `0`, `l` for `1`) count as digits where the token
/// is otherwise a date ([`ocr_digits`]).
pub fn find_dates(text: &str, month_first: bool) -> Vec<DateMatch> {
    let mapped = ocr_digits(text);
    let dashed = ocr_dashes(mapped.as_ref());
    let text = dashed.as_ref();
    let mut out: Vec<DateMatch> = Vec::new();
    // A failed candidate (`12.50, 05` of `12.50, 05.02.2022`) must not swallow the start of a
    // real date: the search goes on one character after a failed match's start.
    let mut pos = 0;
    while let Some(c) = NUMERIC.captures_at(text, pos) {
        let Some(m) = c.get(0) else { break };
        pos = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
        let (Some(a), Some(s1), Some(b), Some(y)) = (c.get(1), c.get(2), c.get(3), c.get(6)) else {
            continue;
        };
        let s1c = s1.as_str().chars().next().unwrap_or(' ');
        let s2c = match (c.get(4), c.get(5)) {
            (Some(s2), _) => s2.as_str().chars().next().unwrap_or(' '),
            _ => ' ',
        };
        let (a_s, b_s, y_s) = (a.as_str(), b.as_str(), y.as_str());
        let Some(odd) = separators(s1c, s2c, a_s.len(), b_s.len(), y_s.len()) else {
            continue;
        };
        if !boundary_ok(text, m.start(), m.end()) {
            continue;
        }
        // Odd readings are day-first like the dotted dates they come from (unless a slash or
        // dash date reads only month-first).
        let dotted = s1c == '.' || (odd && s1c == ',');
        let parsed = if a_s.len() == 4 {
            // yyyy-mm-dd
            let (Ok(yy), Ok(mm), Ok(dd)) = (a_s.parse::<i32>(), b_s.parse(), y_s.parse()) else {
                continue;
            };
            if y_s.len() > 2 || !(1900..=2100).contains(&yy) {
                continue;
            }
            NaiveDate::from_ymd_opt(yy, mm, dd).map(|d| (d, false))
        } else if a_s.len() <= 2 {
            let Some(yy) = year_of(y_s) else { continue };
            let (Ok(p), Ok(q)) = (a_s.parse::<u32>(), b_s.parse::<u32>()) else {
                continue;
            };
            let dm = NaiveDate::from_ymd_opt(yy, q, p);
            let md = NaiveDate::from_ymd_opt(yy, p, q);
            match (dm, md) {
                // Dotted dates are day-first wherever they are written (DE, PL, UK, RU, FR).
                (Some(d1), Some(_)) if dotted => Some((d1, false)),
                (Some(d1), Some(d2)) if d1 != d2 => Some((if month_first { d2 } else { d1 }, true)),
                (Some(d), _) | (None, Some(d)) => Some((d, false)),
                _ => None,
            }
        } else {
            None
        };
        if let Some((date, ambiguous)) = parsed {
            out.push(DateMatch {
                start: m.start(),
                end: m.end(),
                date,
                ambiguous,
            });
            pos = m.end();
        }
    }
    let free =
        |out: &[DateMatch], s: usize, e: usize| !out.iter().any(|d| d.start < e && s < d.end);
    // Written months: "24. Januar 2014" (day, month, year groups) and "March 5, 2024" (month,
    // day, year): the same checks with the day and month groups in the other order.
    // Matches are tried at every start (`15/03 від 15 березня 2024`: the failed candidate
    // `03 від 15` must not swallow the day of the real date).
    // Latvian's `2020. gada 22. oktobris` first: its word `gada` names the year, while day,
    // month, year would read `22. oktobris  2020` across a column gap into the next cell's
    // date (`2020. gada 22. oktobris  2020. gada 6. decembris`).
    for (re, day_group, month_group, year_group, month_len) in [
        (&*YEAR_DAY_MONTH, 2, 3, 1, 3..=12),
        (&*DAY_MONTH_YEAR, 1, 2, 3, 3..=12),
        (&*MONTH_DAY_YEAR, 2, 1, 3, 3..=9),
        (&*YEAR_MONTH_DAY, 3, 2, 1, 3..=12),
    ] {
        let mut pos = 0;
        while let Some(c) = re.captures_at(text, pos) {
            let Some(m) = c.get(0) else { break };
            pos = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
            let (Some(d), Some(mon), Some(y)) =
                (c.get(day_group), c.get(month_group), c.get(year_group))
            else {
                continue;
            };
            let mon_chars = mon.as_str().chars().count();
            if !month_len.contains(&mon_chars) {
                // A match that starts at its month word (month first) matches again at each
                // later start inside the same run of letters, with the same too long word
                // until the last letters: skip to where the word is short enough (linear time
                // on long words).
                if mon_chars > *month_len.end() && mon.start() == m.start() {
                    let tail = mon.as_str().char_indices().rev().nth(month_len.end() - 1);
                    if let Some((i, _)) = tail {
                        pos = pos.max(mon.start() + i);
                    }
                }
                continue;
            }
            if !free(&out, m.start(), m.end())
                || !boundary_after_alpha_ok(text, m.start(), m.end())
                || text[m.end()..].starts_with(|c: char| c.is_ascii_digit())
            {
                continue;
            }
            if y.as_str().len() == 2
                && SHORT_NEEDS_FULL_YEAR
                    .contains(&mon.as_str().trim_end_matches('.').to_lowercase().as_str())
            {
                continue;
            }
            // A three-letter name as OCR misreads it (`13. mal 2021`) where the year has four
            // digits.
            let short_ocr = || {
                let w = fold_diacritics(&mon.as_str().to_lowercase()).into_owned();
                (y.as_str().len() == 4)
                    .then(|| SHORT_MONTH_OCR_INDEX.get(&ocr_month_key(&w)).copied())
                    .flatten()
            };
            let (Some(month), Some(yy), Ok(dd)) = (
                month_number(mon.as_str()).or_else(short_ocr),
                year_of(y.as_str()),
                d.as_str().parse::<u32>(),
            ) else {
                continue;
            };
            if let Some(date) = NaiveDate::from_ymd_opt(yy, month, dd) {
                out.push(DateMatch {
                    start: m.start(),
                    end: m.end(),
                    date,
                    ambiguous: false,
                });
                pos = m.end();
            }
        }
    }
    out
}

/// A numeric date with one of its two separators lost (`2504/2017`, `25.042017`), as OCR drops a
/// thin slash or dot. Only for the token right after a date label: elsewhere such a token is as
/// often a number (`0112/2019`, an invoice numbered per year). Two-digit day and month, a
/// four-digit year from 1990; day first unless the document writes month first.
static ONE_SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\d{2})(?:(\d{2})[./-]|[./-](\d{2}))(\d{4})$").expect("valid regex")
});

/// The date of `token` when it is a numeric date with one separator lost ([`ONE_SEPARATOR`]).
pub fn one_separator_date(token: &str, month_first: bool) -> Option<DateMatch> {
    let c = ONE_SEPARATOR.captures(token)?;
    let a: u32 = c.get(1)?.as_str().parse().ok()?;
    let b: u32 = c.get(2).or(c.get(3))?.as_str().parse().ok()?;
    let y: i32 = c.get(4)?.as_str().parse().ok()?;
    if !(1990..=2100).contains(&y) {
        return None;
    }
    let dm = NaiveDate::from_ymd_opt(y, b, a);
    let md = NaiveDate::from_ymd_opt(y, a, b);
    let (date, ambiguous) = match (dm, md) {
        (Some(d1), Some(d2)) if d1 != d2 => (if month_first { d2 } else { d1 }, true),
        (Some(d), _) | (None, Some(d)) => (d, false),
        _ => return None,
    };
    Some(DateMatch {
        start: 0,
        end: token.len(),
        date,
        ambiguous,
    })
}

/// A date printed as eight digits without separators, year first (`20180428`) or last
/// (`28042018`; month first where the document writes month first), perhaps with a time glued
/// on after a non-digit (`20180428/191204`). Only for the token right after a date label, like
/// [`one_separator_date`]: elsewhere eight digits are an order or account number as often.
pub fn compact_date(token: &str, month_first: bool) -> Option<DateMatch> {
    let b = token.as_bytes();
    if b.len() < 8
        || !b[..8].iter().all(u8::is_ascii_digit)
        || b.get(8).is_some_and(u8::is_ascii_digit)
    {
        return None;
    }
    let n = |r: std::ops::Range<usize>| token[r].parse::<u32>().ok();
    let year_first = {
        let y = n(0..4)? as i32;
        (1990..=2100)
            .contains(&y)
            .then(|| NaiveDate::from_ymd_opt(y, n(4..6)?, n(6..8)?))
            .flatten()
    };
    let year_last = {
        let y = n(4..8)? as i32;
        let (a, b) = (n(0..2)?, n(2..4)?);
        let (m, d) = if month_first { (a, b) } else { (b, a) };
        (1990..=2100)
            .contains(&y)
            .then(|| NaiveDate::from_ymd_opt(y, m, d))
            .flatten()
    };
    let date = match (year_first, year_last) {
        (Some(d), None) | (None, Some(d)) => d,
        _ => return None,
    };
    Some(DateMatch {
        start: 0,
        end: 8,
        date,
        ambiguous: false,
    })
}

/// Whether a document's unambiguous numeric dates are mostly month-first (`12/31/2024`).
pub fn document_is_month_first<'a>(texts: impl Iterator<Item = &'a str>) -> bool {
    let (mut dm, mut md) = (0, 0);
    for t in texts {
        for c in NUMERIC.captures_iter(t) {
            let (Some(a), Some(s), Some(b), Some(s2), Some(y)) =
                (c.get(1), c.get(2), c.get(3), c.get(4), c.get(6))
            else {
                continue;
            };
            if a.as_str().len() > 2
                || !matches!(s.as_str(), "/" | "-")
                || s2.as_str() != s.as_str()
                || year_of(y.as_str()).is_none()
            {
                continue;
            }
            let (Ok(p), Ok(q)) = (a.as_str().parse::<u32>(), b.as_str().parse::<u32>()) else {
                continue;
            };
            if (13..=31).contains(&p) && (1..=12).contains(&q) {
                dm += 1;
            } else if (13..=31).contains(&q) && (1..=12).contains(&p) {
                md += 1;
            }
        }
    }
    md > dm
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> String {
        let d = find_dates(text, false);
        assert_eq!(d.len(), 1, "{text}: {d:?}");
        d[0].iso()
    }

    #[test]
    fn numeric_formats() {
        assert_eq!(one("Datum: 05.03.2018"), "2018-03-05");
        // Dotted dates stay day-first even in a month-first document.
        let d = find_dates("vom 06.12.2018", true);
        assert_eq!(d.first().map(DateMatch::iso).as_deref(), Some("2018-12-06"));
        assert!(!document_is_month_first(
            ["12.31.2018 01.13.2019"].into_iter()
        ));
        assert_eq!(one("25/12/2018 8:13:39 PM"), "2018-12-25");
        assert_eq!(one("2024-01-31"), "2024-01-31");
        assert_eq!(one("05-03-18"), "2018-03-05");
        // A dot-matrix dash read as a tilde; a tilde elsewhere is no separator.
        assert_eq!(one("02:49PM 565287 05~05-17"), "2017-05-05");
        assert!(find_dates("05 ~05-17 x", false).is_empty());
        assert_eq!(one("12/31/2024"), "2024-12-31");
        assert_eq!(one("1.2.2024"), "2024-02-01");
        let d = find_dates("03/04/2024", true);
        assert_eq!(d[0].iso(), "2024-03-04");
        assert!(d[0].ambiguous);
    }

    #[test]
    fn written_months_in_six_languages() {
        assert_eq!(one("3. März 2024"), "2024-03-03");
        assert_eq!(one("le 12 janvier 2024"), "2024-01-12");
        assert_eq!(one("5 maja 2024"), "2024-05-05");
        assert_eq!(one("15 березня 2024 р."), "2024-03-15");
        assert_eq!(one("1 января 2024 г."), "2024-01-01");
        assert_eq!(one("Jan 5, 2024"), "2024-01-05");
        assert_eq!(one("05-Jan-2024"), "2024-01-05");
        assert_eq!(one("5 Dec 18"), "2018-12-05");
        assert_eq!(one("December 25th, 2023"), "2023-12-25");
        assert_eq!(one("1er août 2023"), "2023-08-01");
    }

    #[test]
    fn written_months_in_further_languages() {
        assert_eq!(one("5 februari 2022"), "2022-02-05");
        assert_eq!(one("5 febbraio 2022"), "2022-02-05");
        assert_eq!(one("5 de febrero de 2022"), "2022-02-05");
        assert_eq!(one("5 de fevereiro de 2022"), "2022-02-05");
        assert_eq!(one("5. února 2022"), "2022-02-05");
        assert_eq!(one("5. unora 2022"), "2022-02-05");
        assert_eq!(one("5. februára 2022"), "2022-02-05");
        assert_eq!(one("5. helmikuuta 2022"), "2022-02-05");
        assert_eq!(one("5 februarie 2022"), "2022-02-05");
        assert_eq!(one("5. veebruar 2022"), "2022-02-05");
        assert_eq!(one("2022. február 5."), "2022-02-05");
        assert_eq!(one("2022 m. vasario 5 d."), "2022-02-05");
        assert_eq!(one("2022. gada 5. februāris"), "2022-02-05");
        assert_eq!(one("2020, gada 5, oktobris"), "2020-10-05");
        assert_eq!(one("Izrakstīts: 2020. gada 28. februäris"), "2020-02-28");
        // Two such dates side by side, each its own year.
        let both: Vec<String> =
            find_dates("2020. gada 22. oktobris  2020. gada 6. decembris", false)
                .iter()
                .map(|d| d.date.to_string())
                .collect();
        assert_eq!(both, ["2020-10-22", "2020-12-06"]);
        assert_eq!(one("5 set 2022"), "2022-09-05");
        // Short abbreviations that are everyday words need a four-digit year.
        assert!(find_dates("2 out 10", false).is_empty());
        assert!(find_dates("3 set 12", false).is_empty());
    }

    #[test]
    fn month_names_as_ocr_misreads_an_i_or_l() {
        assert_eq!(one("Fecha factura:  1 de jullo de 2020"), "2020-07-01");
        assert_eq!(one("5 Aprll 2022"), "2022-04-05");
        assert_eq!(one("5 Juiy 2022"), "2022-07-05");
        // Short names stay exact: `iun` is no `lun`.
        assert_eq!(month_number("mai"), Some(5));
        assert_eq!(month_number("mal"), None);
        // Inside a date of four-digit year they are read (`mal`: `mai`); a dot after the day
        // read as a comma.
        assert_eq!(one("Koostamise kuupäev:  13. mal 2021"), "2021-05-13");
        assert!(find_dates("13 mal 21", false).is_empty());
        assert_eq!(one("16, august 2023"), "2023-08-16");
    }

    #[test]
    fn ocr_readings_of_numeric_dates() {
        assert_eq!(one("Datum: 05. 02, 2022"), "2022-02-05");
        assert_eq!(one("05 .02.2022"), "2022-02-05");
        assert_eq!(one("05-02 2022"), "2022-02-05");
        assert_eq!(one("2022. 02. 05."), "2022-02-05");
        assert_eq!(one("05,02.2022"), "2022-02-05");
        assert_eq!(one("O5.O2.2O22"), "2022-02-05");
        // A failed candidate does not swallow the real date after it.
        assert_eq!(one("12.50, 05.02.2022"), "2022-02-05");
        // Amounts and numbers next to each other are not dates.
        assert!(find_dates("1.05 2022", false).is_empty());
        assert!(find_dates("12,50 2022", false).is_empty());
        assert!(find_dates("1,05.2022", false).is_empty());
        assert!(find_dates("3.12, 24", false).is_empty());
        assert!(find_dates("Tel 12-34 5678", false).is_empty());
    }

    #[test]
    fn rejects_non_dates() {
        assert!(find_dates("Tel 12.34.5678", false).is_empty());
        assert!(find_dates("31.02.2024", false).is_empty());
        assert!(find_dates("Amount 1.234.56", false).is_empty());
        assert!(find_dates("DE123.45.2024", false).is_empty());
        assert!(find_dates("5 apples 2024", false).is_empty());
        assert!(find_dates("FV/2020/02/24", false).is_empty());
        assert!(find_dates("INV-2024-01-05", false).is_empty());
        assert!(find_dates("12-2024-01-05", false).is_empty());
        assert!(find_dates("REF-10/03/2018", false).is_empty());
        // Two fields joined by a dash: the date after it is one.
        assert_eq!(one("ORD#07-REG#19-10/03/2018 17:24:07"), "2018-03-10");
        assert_eq!(one("KASSE 3-24.05.2023"), "2023-05-24");
        assert_eq!(one("Datum: 2024-01-05"), "2024-01-05");
        assert_eq!(one("Berlin,05.01.2024"), "2024-01-05");
    }

    #[test]
    fn a_date_with_one_separator_lost() {
        let iso = |t: &str, mf: bool| one_separator_date(t, mf).map(|d| d.iso());
        assert_eq!(iso("2504/2017", false).as_deref(), Some("2017-04-25"));
        assert_eq!(iso("25.042017", false).as_deref(), Some("2017-04-25"));
        assert_eq!(iso("0304-2018", false).as_deref(), Some("2018-04-03"));
        assert_eq!(iso("0304-2018", true).as_deref(), Some("2018-03-04"));
        // Whole tokens only, real dates only, plausible years only.
        for t in [
            "25/04/2017",
            "3204/2017",
            "2513/2017",
            "2504/1817",
            "12504/2017",
            "2504/20171",
            "25042017",
        ] {
            assert_eq!(iso(t, false), None, "{t}");
        }
    }

    #[test]
    fn a_date_of_eight_digits() {
        let iso = |t: &str, mf: bool| compact_date(t, mf).map(|d| d.iso());
        assert_eq!(iso("20180428", false).as_deref(), Some("2018-04-28"));
        assert_eq!(iso("20180428/191204", false).as_deref(), Some("2018-04-28"));
        assert_eq!(iso("28042018", false).as_deref(), Some("2018-04-28"));
        assert_eq!(iso("04282018", true).as_deref(), Some("2018-04-28"));
        assert_eq!(iso("20122012", false).as_deref(), Some("2012-12-20"));
        // Not a date, more digits, too short.
        for t in ["20181328", "12345678", "201804281", "2018042"] {
            assert_eq!(iso(t, false), None, "{t}");
        }
    }

    #[test]
    fn long_words_before_a_day_take_linear_time() {
        // The same dates as before the skip: a month at the end of a long run of letters
        // still counts (`...xJan 5, 2024` has a letter before it, so it is not a date), a
        // month after a separate long word does.
        assert!(find_dates(&format!("{}Jan 5, 2024", "x".repeat(50)), false).is_empty());
        assert_eq!(
            one(&format!("{} Jan 5, 2024", "x".repeat(50))),
            "2024-01-05"
        );
        assert!(find_dates(&format!("{} 5, 2024", "x".repeat(50)), false).is_empty());
        let (small, big) = (
            format!("{} 5, 2024", "x".repeat(20_000)),
            format!("{} 5, 2024", "x".repeat(160_000)),
        );
        crate::preprocess::test_support::assert_near_linear("a long word before a day", &|k| {
            find_dates(if k == 1 { &small } else { &big }, false);
        });
        let (small, big) = (
            format!("5 {} 2024", "x".repeat(20_000)),
            format!("5 {} 2024", "x".repeat(160_000)),
        );
        crate::preprocess::test_support::assert_near_linear("a long word after a day", &|k| {
            find_dates(if k == 1 { &small } else { &big }, false);
        });
    }

    #[test]
    fn month_first_documents() {
        assert!(document_is_month_first(
            ["12/31/2024", "01/05/2024"].into_iter()
        ));
        assert!(!document_is_month_first(
            ["31/12/2024", "01/05/2024"].into_iter()
        ));
    }
}
