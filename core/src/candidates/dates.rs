//! Date parsing: numeric (`dd.mm.yyyy`, `dd/mm/yyyy`, `yyyy-mm-dd`, `dd-mm-yy`, `mm/dd/yyyy`) and
//! written month names in en, de, fr, pl, uk, ru (`3. März 2024`, `12 janvier 2024`,
//! `5 maja 2024`, `15 березня 2024 р.`, `1 января 2024 г.`, `Jan 5, 2024`, `05-Jan-2024`).
//!
//! Day/month order: numeric dates are day-first (as printed in Europe and Malaysia) unless the
//! day-first reading is impossible (`12/31/2024`), or the document is month-first: the caller
//! passes `month_first` when its unambiguous numeric dates are month-first (see
//! [`document_is_month_first`]). Two-digit years are 2000-2069 / 1970-1999.

use chrono::NaiveDate;
use regex::Regex;
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

/// Month number of a (possibly abbreviated, any-case) month name.
pub fn month_number(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    MONTHS.iter().find(|(n, _)| *n == w).map(|&(_, m)| m)
}

static NUMERIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([0-9]{1,4})\s?([./-])\s?([0-9]{1,2})\s?([./-])\s?([0-9]{2,4})")
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
        r"[«„“\x22]?([0-9]{1,2})[»“”\x22]?(?:st|nd|rd|th|er)?\.?[\s/-]{0,2}(\p{L}+)\.?,?[\s/-]{0,2}'?([0-9]{4}|[0-9]{2})",
    )
    .expect("date regex")
});
static MONTH_DAY_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\p{L}+)\.?\s{0,2}([0-9]{1,2})(?:st|nd|rd|th)?,?\s{0,2}([0-9]{4})")
        .expect("date regex")
});

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
        // tail of an identifier (a document number), not a date of the document.
        Some(sep @ ('.' | ',' | '/' | '-')) => {
            let glued = before.next().is_some_and(|c| {
                c.is_ascii_digit() || (matches!(sep, '/' | '-') && c.is_alphabetic())
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

/// Finds all dates in `text`.
pub fn find_dates(text: &str, month_first: bool) -> Vec<DateMatch> {
    let mut out: Vec<DateMatch> = Vec::new();
    for c in NUMERIC.captures_iter(text) {
        let (Some(m), Some(a), Some(s1), Some(b), Some(s2), Some(y)) =
            (c.get(0), c.get(1), c.get(2), c.get(3), c.get(4), c.get(5))
        else {
            continue;
        };
        if s1.as_str() != s2.as_str() || !boundary_ok(text, m.start(), m.end()) {
            continue;
        }
        let (a_s, b_s, y_s) = (a.as_str(), b.as_str(), y.as_str());
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
                (Some(d1), Some(_)) if s1.as_str() == "." => Some((d1, false)),
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
        }
    }
    let free =
        |out: &[DateMatch], s: usize, e: usize| !out.iter().any(|d| d.start < e && s < d.end);
    // Written months: "24. Januar 2014" (day, month, year groups) and "March 5, 2024" (month,
    // day, year): the same checks with the day and month groups in the other order.
    // Matches are tried at every start (`15/03 від 15 березня 2024`: the failed candidate
    // `03 від 15` must not swallow the day of the real date).
    for (re, day_group, month_group, month_len) in [
        (&*DAY_MONTH_YEAR, 1, 2, 3..=12),
        (&*MONTH_DAY_YEAR, 2, 1, 3..=9),
    ] {
        let mut pos = 0;
        while let Some(c) = re.captures_at(text, pos) {
            let Some(m) = c.get(0) else { break };
            pos = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
            let (Some(d), Some(mon), Some(y)) = (c.get(day_group), c.get(month_group), c.get(3))
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
            let (Some(month), Some(yy), Ok(dd)) = (
                month_number(mon.as_str()),
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

/// Whether a document's unambiguous numeric dates are mostly month-first (`12/31/2024`).
pub fn document_is_month_first<'a>(texts: impl Iterator<Item = &'a str>) -> bool {
    let (mut dm, mut md) = (0, 0);
    for t in texts {
        for c in NUMERIC.captures_iter(t) {
            let (Some(a), Some(s), Some(b), Some(y)) = (c.get(1), c.get(2), c.get(3), c.get(5))
            else {
                continue;
            };
            if a.as_str().len() > 2 || s.as_str() == "." || year_of(y.as_str()).is_none() {
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
    fn rejects_non_dates() {
        assert!(find_dates("Tel 12.34.5678", false).is_empty());
        assert!(find_dates("31.02.2024", false).is_empty());
        assert!(find_dates("Amount 1.234.56", false).is_empty());
        assert!(find_dates("DE123.45.2024", false).is_empty());
        assert!(find_dates("5 apples 2024", false).is_empty());
        assert!(find_dates("FV/2020/02/24", false).is_empty());
        assert!(find_dates("INV-2024-01-05", false).is_empty());
        assert_eq!(one("Datum: 2024-01-05"), "2024-01-05");
        assert_eq!(one("Berlin,05.01.2024"), "2024-01-05");
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
