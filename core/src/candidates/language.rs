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
            // Receipts.
            "paragon",
            "suma",
            "gotówka",
            "reszta",
            "kwota",
            "dziękujemy",
            "zakupy",
            "netto",
            "brutto",
            "sprzedaż",
            "ptu",
        ],
    ),
    // Languages after these four win only with more of their words than the four have: a
    // word two languages share counts for both.
    (
        "nl",
        &[
            "het",
            "een",
            "van",
            "factuur",
            "totaal",
            "bedrag",
            "btw",
            "aantal",
            "prijs",
            "omschrijving",
            "betaling",
            "bedankt",
            "te",
            "voldoen",
            "bij",
        ],
    ),
    (
        "it",
        &[
            "il",
            "della",
            "fattura",
            "totale",
            "importo",
            "iva",
            "quantità",
            "prezzo",
            "pagamento",
            "grazie",
            "del",
            "di",
            "scontrino",
            "imponibile",
        ],
    ),
    (
        "es",
        &[
            "el",
            "los",
            "las",
            "factura",
            "importe",
            "fecha",
            "cantidad",
            "precio",
            "gracias",
            "y",
            "base",
            "imponible",
            "ticket",
            "pagar",
        ],
    ),
    (
        "pt",
        &[
            "fatura",
            "valor",
            "quantidade",
            "preço",
            "obrigado",
            "do",
            "da",
            "dos",
            "recibo",
            "contribuinte",
            "talão",
            "pagar",
            "iva",
        ],
    ),
    (
        "cs",
        &[
            "celkem",
            "množství",
            "děkujeme",
            "účtenka",
            "dph",
            "cena",
            "faktura",
            "splatnosti",
            "úhradě",
            "za",
            "nákup",
            "datum",
        ],
    ),
    (
        "sk",
        &[
            "spolu",
            "množstvo",
            "ďakujeme",
            "dátum",
            "dph",
            "cena",
            "faktúra",
            "úhrade",
            "nákup",
            "suma",
            "pokladničný",
            "doklad",
        ],
    ),
    (
        "lt",
        &[
            "suma",
            "kaina",
            "kiekis",
            "sąskaita",
            "pvm",
            "viso",
            "ačiū",
            "mokėti",
            "kvitas",
            "faktūra",
            "apmokėti",
        ],
    ),
    (
        "lv",
        &[
            "summa", "cena", "daudzums", "rēķins", "pvn", "kopā", "paldies", "datums", "apmaksai",
            "čeks", "kases",
        ],
    ),
    (
        "et",
        &[
            "hind",
            "kogus",
            "arve",
            "kokku",
            "käibemaks",
            "aitäh",
            "kuupäev",
            "tasuda",
            "tšekk",
            "summa",
            "km",
        ],
    ),
    (
        "fi",
        &[
            "lasku",
            "yhteensä",
            "hinta",
            "määrä",
            "alv",
            "päivämäärä",
            "kiitos",
            "maksettava",
            "kuitti",
            "veroton",
            "verollinen",
        ],
    ),
    (
        "sv",
        &[
            "och", "summa", "totalt", "pris", "antal", "moms", "datum", "tack", "att", "betala",
            "kvitto", "belopp", "faktura",
        ],
    ),
    (
        "da",
        &[
            "og",
            "i",
            "alt",
            "beløb",
            "pris",
            "antal",
            "moms",
            "dato",
            "tak",
            "at",
            "betale",
            "kvittering",
            "faktura",
            "for",
        ],
    ),
    (
        "hu",
        &[
            "számla",
            "összesen",
            "ár",
            "mennyiség",
            "áfa",
            "dátum",
            "köszönjük",
            "fizetendő",
            "és",
            "nyugta",
            "egységár",
        ],
    ),
    (
        "ro",
        &[
            "factură",
            "factura",
            "preț",
            "cantitate",
            "tva",
            "și",
            "bon",
            "plată",
            "total",
            "vă",
            "mulțumim",
            "fiscal",
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

#[cfg(test)]
mod tests {
    use super::detect;
    use crate::candidates::tests::doc_from;

    #[test]
    fn languages_by_their_frequent_words() {
        let lang = |lines: &[&str]| {
            let rows: Vec<(&str, f32, f32)> = lines
                .iter()
                .enumerate()
                .map(|(i, l)| (*l, 10.0, 10.0 + 14.0 * i as f32))
                .collect();
            detect(&doc_from(&rows))
        };
        assert_eq!(
            lang(&[
                "I ALT 237,72 kr.",
                "At betale: 237,50 kr.",
                "Tak for besøget!"
            ]),
            Some("da")
        );
        assert_eq!(
            lang(&[
                "Summa att betala 120,00 kr",
                "Moms 25% 24,00",
                "Tack och välkommen åter"
            ]),
            Some("sv")
        );
        assert_eq!(
            lang(&["Yhteensä 12,40", "ALV 24% 2,40", "Kiitos käynnistä"]),
            Some("fi")
        );
        assert_eq!(
            lang(&["Összesen: 2.692 Ft", "ÁFA 27%", "Köszönjük a vásárlást"]),
            Some("hu")
        );
        assert_eq!(
            lang(&[
                "Totaal te voldoen € 12,10",
                "BTW 21% 2,10",
                "Bedankt voor uw bezoek"
            ]),
            Some("nl")
        );
        assert_eq!(
            lang(&[
                "Paragon",
                "SUMA 113,08 zł",
                "Reszta 6,92",
                "Dziękujemy za zakupy!"
            ]),
            Some("pl")
        );
        // The first four keep their documents.
        assert_eq!(
            lang(&["Invoice date 05.03.2024", "Total amount due", "Thank you"]),
            Some("en")
        );
        assert_eq!(
            lang(&[
                "Rechnung Nr. 12",
                "Gesamtbetrag 1.234,56 EUR",
                "Zahlbar bis"
            ]),
            Some("de")
        );
    }
}
