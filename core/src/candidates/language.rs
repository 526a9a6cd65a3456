//! The document's language, detected once per document ([`super::DocStyle`]).

use super::labels;
use crate::types::CleanDocument;

/// Frequent words per language (Latin scripts).
const STOP_WORDS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "the", "and", "of", "to", "invoice", "total", "date", "for", "with", "please",
            "amount", "thank", "you", "price", "qty",
        ],
    ),
    (
        "de",
        &[
            "und", "der", "die", "das", "rechnung", "datum", "mit", "für", "von", "bitte",
            "betrag", "summe", "zahlbar", "menge", "gesamt", "ust", "mwst",
        ],
    ),
    (
        "fr",
        &[
            "le",
            "la",
            "les",
            "et",
            "de",
            "des",
            "facture",
            "pour",
            "du",
            "montant",
            "total",
            "date",
            "prix",
            "quantité",
            "tva",
        ],
    ),
    (
        "pl",
        &[
            "i",
            "w",
            "na",
            "z",
            "do",
            "faktura",
            "nabywca",
            "sprzedawca",
            "razem",
            "zapłaty",
            "data",
            "ilość",
            "cena",
            "wartość",
        ],
    ),
];

/// The document's language (ISO 639-1): Cyrillic letters decide between Ukrainian and Russian;
/// Latin text is the language with the most stop words.
pub fn detect(doc: &CleanDocument) -> Option<&'static str> {
    let text = doc.plain_text();
    let (mut cyr, mut uk, mut ru) = (0usize, 0usize, 0usize);
    for ch in text.chars() {
        let lc = ch.to_lowercase().next().unwrap_or(ch);
        if ('а'..='я').contains(&lc) || "іїєґё".contains(lc) {
            cyr += 1;
        }
        if "іїєґ".contains(lc) {
            uk += 1;
        }
        if "ыэъё".contains(lc) {
            ru += 1;
        }
    }
    let latin = text.chars().filter(char::is_ascii_alphabetic).count();
    if cyr > latin {
        return Some(if uk >= ru { "uk" } else { "ru" });
    }
    let words = labels::norm_words(&text);
    let mut best: Option<(&str, usize)> = None;
    for (lang, list) in STOP_WORDS {
        let n = words
            .iter()
            .filter(|w| list.contains(&w.text.as_str()))
            .count();
        if n > 0 && best.is_none_or(|(_, b)| n > b) {
            best = Some((lang, n));
        }
    }
    best.map(|(l, _)| l)
}
