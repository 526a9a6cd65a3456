//! Language handling for OCR, pure functions: ISO code mapping, script split, language
//! identification of a probe reading, and the choice of the tesseract language string.

/// Writing systems of the supported languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Script {
    /// en, de, fr, pl.
    Latin,
    /// uk, ru.
    Cyrillic,
}

/// Maps an ISO 639-1 code to tesseract's model name (`None` for unsupported codes).
pub fn tess_code(iso: &str) -> Option<&'static str> {
    Some(match iso {
        "en" => "eng",
        "de" => "deu",
        "fr" => "fra",
        "pl" => "pol",
        "uk" => "ukr",
        "ru" => "rus",
        _ => return None,
    })
}

/// Script of a tesseract model.
pub fn script_of(tess: &str) -> Script {
    match tess {
        "ukr" | "rus" => Script::Cyrillic,
        _ => Script::Latin,
    }
}

/// Debian package holding a model.
pub fn package_of(tess: &str) -> String {
    format!("tesseract-ocr-{tess}")
}

/// Script named by tesseract's orientation and script detection (`"Latin"`, `"Cyrillic"`, ...).
pub fn script_from_osd(name: &str) -> Option<Script> {
    match name {
        "Latin" => Some(Script::Latin),
        "Cyrillic" => Some(Script::Cyrillic),
        _ => None,
    }
}

/// The enabled models split by script, in a fixed order (English first among Latin ones).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LanguageSet {
    /// Enabled Latin-script models.
    pub latin: Vec<&'static str>,
    /// Enabled Cyrillic-script models.
    pub cyrillic: Vec<&'static str>,
}

impl LanguageSet {
    /// The Latin model that reads a Latin segment of a mixed page: English where enabled (names,
    /// ids and addresses read well with it), else the first enabled Latin model.
    pub fn reading_latin(&self) -> Option<&'static str> {
        if self.latin.contains(&"eng") {
            Some("eng")
        } else {
            self.latin.first().copied()
        }
    }

    /// From ISO codes (unknown codes are ignored; the engine validated them).
    pub fn from_iso(codes: &[String]) -> LanguageSet {
        let mut set = LanguageSet::default();
        for order in ["eng", "deu", "fra", "pol", "rus", "ukr"] {
            if codes.iter().any(|c| tess_code(c) == Some(order)) {
                match script_of(order) {
                    Script::Latin => set.latin.push(order),
                    Script::Cyrillic => set.cyrillic.push(order),
                }
            }
        }
        set
    }

    /// All enabled models.
    pub fn all(&self) -> Vec<&'static str> {
        self.latin.iter().chain(&self.cyrillic).copied().collect()
    }

    /// True when both scripts are enabled (a script decision is needed).
    pub fn needs_script_detection(&self) -> bool {
        !self.latin.is_empty() && !self.cyrillic.is_empty()
    }

    /// The script to read when detection gave `detected` (falls back to what is enabled).
    pub fn decide_script(&self, detected: Option<Script>) -> Script {
        match (detected, self.latin.is_empty(), self.cyrillic.is_empty()) {
            (_, true, false) => Script::Cyrillic,
            (_, false, true) => Script::Latin,
            (Some(s), _, _) => s,
            (None, _, _) => Script::Latin,
        }
    }

    /// Enabled models of a script.
    pub fn of_script(&self, s: Script) -> &[&'static str] {
        match s {
            Script::Latin => &self.latin,
            Script::Cyrillic => &self.cyrillic,
        }
    }
}

/// Folds a word to lowercase ASCII letters (diacritics dropped, as a model without them reads
/// them), keeping Cyrillic letters as they are.
fn fold(word: &str) -> String {
    let mut s = String::with_capacity(word.len());
    for c in word.chars().flat_map(char::to_lowercase) {
        let f = match c {
            'ä' | 'à' | 'â' | 'á' | 'ą' => 'a',
            'ö' | 'ô' | 'ó' => 'o',
            'ü' | 'ù' | 'û' | 'ú' => 'u',
            'é' | 'è' | 'ê' | 'ë' | 'ę' => 'e',
            'î' | 'ï' | 'í' => 'i',
            'ç' | 'ć' => 'c',
            'ł' => 'l',
            'ń' => 'n',
            'ś' => 's',
            'ź' | 'ż' => 'z',
            'ß' => 's',
            c if c.is_alphanumeric() => c,
            _ => continue,
        };
        s.push(f);
    }
    s
}

/// Frequent words of business documents per Latin language, folded as [`fold`] does.
const KEYWORDS: [(&str, &[&str]); 4] = [
    (
        "eng",
        &[
            "invoice",
            "the",
            "and",
            "total",
            "amount",
            "tax",
            "due",
            "payment",
            "bill",
            "qty",
            "quantity",
            "price",
            "customer",
            "subtotal",
            "balance",
            "ltd",
            "inc",
            "cash",
            "change",
            "thank",
            "you",
            "receipt",
            "description",
            "unit",
            "item",
            "items",
            "to",
            "of",
            "for",
            "date",
            "no",
            "sdn",
            "bhd",
            "gst",
            "rounding",
            "tel",
            "credit",
            "order",
        ],
    ),
    (
        "deu",
        &[
            "rechnung",
            "datum",
            "betrag",
            "summe",
            "gesamt",
            "mwst",
            "ust",
            "und",
            "der",
            "die",
            "das",
            "bitte",
            "zahlbar",
            "steuer",
            "menge",
            "preis",
            "kunde",
            "lieferung",
            "strase",
            "strasse",
            "gmbh",
            "fur",
            "vom",
            "zahlung",
            "bankverbindung",
            "rechnungsnummer",
            "rechnungsdatum",
            "leistung",
            "einzelpreis",
            "gesamtbetrag",
            "umsatzsteuer",
            "bei",
            "mit",
            "ihre",
            "wir",
            "lieferschein",
            "gutschrift",
            "zu",
            "von",
            "nicht",
            "im",
            "rechnungsempfanger",
            "empfanger",
            "lieferant",
            "verkaufer",
            "kaufer",
            "bezeichnung",
            "einheit",
            "netto",
            "stk",
            "ustidnr",
            "steuernummer",
        ],
    ),
    (
        "fra",
        &[
            "facture",
            "montant",
            "tva",
            "ht",
            "ttc",
            "la",
            "le",
            "les",
            "des",
            "du",
            "et",
            "pour",
            "prix",
            "quantite",
            "client",
            "societe",
            "sarl",
            "sas",
            "paiement",
            "echeance",
            "numero",
            "rue",
            "en",
            "au",
            "avoir",
            "reglement",
            "designation",
            "unitaire",
            "par",
            "sur",
            "une",
            "est",
            "bon",
            "livraison",
            "qte",
        ],
    ),
    (
        "pol",
        &[
            "faktura",
            "sprzedawca",
            "nabywca",
            "nip",
            "kwota",
            "razem",
            "brutto",
            "wartosc",
            "zl",
            "pln",
            "ul",
            "sprzedazy",
            "wystawienia",
            "platnosci",
            "termin",
            "cena",
            "ilosc",
            "sp",
            "zoo",
            "slownie",
            "dla",
            "jm",
            "stawka",
            "podatku",
            "zaplaty",
            "przelew",
            "nazwa",
            "towaru",
            "uslugi",
            "do",
            "na",
            "nr",
            "od",
        ],
    ),
];

/// Word confidence from which a keyword counts.
const KEYWORD_CONF: f32 = 0.7;
/// Word confidence from which a language's own letters count.
const LETTER_CONF: f32 = 0.85;

/// Letters only one of the Latin languages uses (words with one count as hits of the language).
/// A German model reads Polish `ó` as `ö`: Polish keywords usually outweigh that.
const LETTERS: [(&str, &str); 3] = [
    ("deu", "äöüß"),
    ("fra", "éèêàâçœëîïôûù"),
    ("pol", "ąćęłńśźż"),
];

/// Identifies the Latin language of a probe reading by keyword hits and words with letters of
/// one language. Only `candidates` count;
/// `None` when the text gives too little evidence (fewer than 2 hits) or a tie.
pub fn identify_latin(words: &[(&str, f32)], candidates: &[&str]) -> Option<&'static str> {
    let mut best: Option<(&'static str, usize)> = None;
    let mut second = 0;
    for (lang, keys) in KEYWORDS {
        if !candidates.contains(&lang) {
            continue;
        }
        let letters = LETTERS
            .iter()
            .find(|(l, _)| *l == lang)
            .map_or("", |(_, c)| *c);
        let hits = words
            .iter()
            .filter(|(w, conf)| {
                let f = fold(w);
                let keyword = *conf >= KEYWORD_CONF && !f.is_empty() && keys.contains(&f.as_str());
                // Noise read by a German model comes out as `ÄÜ`: letters count only in words
                // read with confidence.
                let letter = *conf >= LETTER_CONF
                    && w.chars().count() >= 4
                    && w.chars()
                        .flat_map(char::to_lowercase)
                        .any(|c| letters.contains(c));
                keyword || letter
            })
            .count();
        match best {
            Some((_, b)) if hits <= b => second = second.max(hits),
            _ => {
                second = best.map_or(0, |(_, b)| b);
                best = Some((lang, hits));
            }
        }
    }
    match best {
        Some((lang, hits)) if hits >= 2 && hits > second => Some(lang),
        _ => None,
    }
}

/// Decides Ukrainian vs Russian from Cyrillic text: letters only Ukrainian has (і ї є ґ)
/// against letters only Russian has (ы э ъ ё). `None` without evidence.
pub fn identify_cyrillic(text: &str) -> Option<&'static str> {
    let mut uk = 0usize;
    let mut ru = 0usize;
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'і' | 'ї' | 'є' | 'ґ' => uk += 1,
            'ы' | 'э' | 'ъ' | 'ё' => ru += 1,
            _ => {}
        }
    }
    if uk == 0 && ru == 0 {
        None
    } else if uk >= ru.saturating_mul(2).max(1) {
        Some("ukr")
    } else if ru >= uk.saturating_mul(2).max(1) {
        Some("rus")
    } else {
        None
    }
}

/// Frequent words of Ukrainian and Russian business documents (lower case, `ё` as `е`).
const CYRILLIC_KEYWORDS: &[&str] = &[
    "счет",
    "рахунок",
    "акт",
    "итого",
    "разом",
    "всего",
    "всього",
    "сумма",
    "сума",
    "ндс",
    "пдв",
    "руб",
    "грн",
    "от",
    "від",
    "на",
    "по",
    "за",
    "без",
    "до",
    "с",
    "з",
    "и",
    "і",
    "в",
    "у",
    "оплате",
    "оплату",
    "оплати",
    "поставщик",
    "постачальник",
    "покупатель",
    "покупець",
    "заказчик",
    "замовник",
    "исполнитель",
    "виконавець",
    "товар",
    "товары",
    "товари",
    "услуги",
    "послуги",
    "работ",
    "робіт",
    "количество",
    "кількість",
    "цена",
    "ціна",
    "ед",
    "од",
    "шт",
    "инн",
    "кпп",
    "єдрпоу",
    "код",
    "банк",
    "тов",
    "ооо",
    "пао",
    "ао",
    "ип",
    "фоп",
    "г",
    "м",
    "ул",
    "вул",
    "дата",
    "номер",
    "договор",
    "договір",
    "наименование",
    "найменування",
    "накладная",
    "накладна",
];

/// Keyword hits of a Cyrillic reading: confident words that are frequent Ukrainian / Russian
/// document words.
pub fn cyrillic_keyword_hits(words: &[(&str, f32)]) -> usize {
    words
        .iter()
        .filter(|(w, conf)| {
            if *conf < KEYWORD_CONF {
                return false;
            }
            let f: String = w
                .chars()
                .flat_map(char::to_lowercase)
                .filter(|c| c.is_alphabetic())
                .map(|c| if c == 'ё' { 'е' } else { c })
                .collect();
            // Short words and words made of Latin look-alikes (`на`, `ООО`, `С`) also come out
            // of Latin text read by a Cyrillic model: they are no evidence.
            f.chars().count() >= 3
                && f.chars().all(|c| ('\u{0400}'..='\u{04FF}').contains(&c))
                && f.chars()
                    .flat_map(char::to_uppercase)
                    .any(|c| !"АВЕКМНОРСТУХІ".contains(c))
                && CYRILLIC_KEYWORDS.contains(&f.as_str())
        })
        .count()
}

/// Keyword hits of a Latin reading: those of the best-matching enabled language.
pub fn latin_keyword_hits(words: &[(&str, f32)], candidates: &[&str]) -> usize {
    KEYWORDS
        .iter()
        .filter(|(lang, _)| candidates.contains(lang))
        .map(|(_, keys)| {
            words
                .iter()
                .filter(|(w, conf)| {
                    *conf >= KEYWORD_CONF && {
                        let f = fold(w);
                        !f.is_empty() && keys.contains(&f.as_str())
                    }
                })
                .count()
        })
        .max()
        .unwrap_or(0)
}

/// Share of Cyrillic letters that look like Latin ones or digits (`А В Е З К М Н О Р С Т У Х`,
/// `а е о р с у х`). Latin capitals read by a Cyrillic model come out almost entirely as such letters (above
/// 0.85); Russian and Ukrainian text has many others (0.4 to 0.75). `None` without Cyrillic
/// letters.
pub fn homoglyph_share(text: &str) -> Option<f32> {
    // `З` is how a Cyrillic model reads `S` and `3`.
    const LOOK_ALIKE: &str = "АВЕЗКМНОРСТУХаеорсух";
    let (mut all, mut alike) = (0usize, 0usize);
    for c in text.chars() {
        if ('\u{0400}'..='\u{04FF}').contains(&c) && c.is_alphabetic() {
            all += 1;
            if LOOK_ALIKE.contains(c) {
                alike += 1;
            }
        }
    }
    (all > 0).then(|| alike as f32 / all as f32)
}

/// Script from two probe readings of the same band, `(mean confidence, characters)` with a
/// Latin and a Cyrillic model: Latin unless the Cyrillic reading is more than 0.1 more
/// confident (Cyrillic models read Latin text as look-alike letters with fair confidence);
/// `None` without text.
pub fn decide_script_by_confidence(latin: (f32, usize), cyrillic: (f32, usize)) -> Option<Script> {
    if latin.1 == 0 && cyrillic.1 == 0 {
        return None;
    }
    if cyrillic.0 > latin.0 + 0.1 {
        Some(Script::Cyrillic)
    } else {
        Some(Script::Latin)
    }
}

/// Joins models to tesseract's `a+b` form, the primary first, without duplicates.
pub fn join(models: &[&str]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for m in models {
        if !out.contains(m) {
            out.push(m);
        }
    }
    out.join("+")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn maps_iso_codes() {
        assert_eq!(tess_code("en"), Some("eng"));
        assert_eq!(tess_code("de"), Some("deu"));
        assert_eq!(tess_code("fr"), Some("fra"));
        assert_eq!(tess_code("pl"), Some("pol"));
        assert_eq!(tess_code("uk"), Some("ukr"));
        assert_eq!(tess_code("ru"), Some("rus"));
        assert_eq!(tess_code("xx"), None);
        assert_eq!(package_of("ukr"), "tesseract-ocr-ukr");
    }

    #[test]
    fn splits_languages_by_script() {
        let s = LanguageSet::from_iso(&iso(&["ru", "de", "en", "uk"]));
        assert_eq!(s.latin, ["eng", "deu"]);
        assert_eq!(s.cyrillic, ["rus", "ukr"]);
        assert!(s.needs_script_detection());
        assert_eq!(s.all(), ["eng", "deu", "rus", "ukr"]);
        let only = LanguageSet::from_iso(&iso(&["pl"]));
        assert!(!only.needs_script_detection());
        assert_eq!(only.decide_script(Some(Script::Cyrillic)), Script::Latin);
    }

    #[test]
    fn script_decision() {
        let s = LanguageSet::from_iso(&iso(&["en", "ru"]));
        assert_eq!(s.decide_script(Some(Script::Cyrillic)), Script::Cyrillic);
        assert_eq!(s.decide_script(Some(Script::Latin)), Script::Latin);
        assert_eq!(s.decide_script(None), Script::Latin);
        let c = LanguageSet::from_iso(&iso(&["uk"]));
        assert_eq!(c.decide_script(None), Script::Cyrillic);
        assert_eq!(script_from_osd("Cyrillic"), Some(Script::Cyrillic));
        assert_eq!(script_from_osd("Han"), None);
    }

    #[test]
    fn identifies_latin_languages_from_a_probe() {
        let all = ["eng", "deu", "fra", "pol"];
        // As the English model reads German: umlauts and ß lost.
        let de = "Rechnung Nr. 471102 Datum 05.03.2024 Gesamtbetrag inkl. MwSt fur StraBe";
        let sure = |t: &'static str| -> Vec<(&'static str, f32)> {
            t.split_whitespace().map(|w| (w, 0.95)).collect()
        };
        let w = sure(de);
        assert_eq!(identify_latin(&w, &all), Some("deu"));
        let fr = "FACTURE N° 2024-17 Date: 12/03/2024 Montant HT TVA 20% Total TTC";
        let w = sure(fr);
        assert_eq!(identify_latin(&w, &all), Some("fra"));
        let pl = "Faktura VAT nr 12/2024 Sprzedawca Nabywca NIP Razem do zaplaty 123,00 zl";
        let w = sure(pl);
        assert_eq!(identify_latin(&w, &all), Some("pol"));
        let en = "INVOICE Date Total amount due Thank you";
        let w = sure(en);
        assert_eq!(identify_latin(&w, &all), Some("eng"));
        // Numbers only: no evidence.
        let w = sure("12,50 2024-03-05 100");
        assert_eq!(identify_latin(&w, &all), None);
        // Disabled languages do not win.
        let w = sure(de);
        assert_ne!(identify_latin(&w, &["eng", "fra"]), Some("deu"));
        // German letters and Polish ones in confident words.
        let w = sure("Bäckerei Schröder Nürnberg");
        assert_eq!(identify_latin(&w, &all), Some("deu"));
        let w = sure("Łódzka Świętokrzyska Wartość");
        assert_eq!(identify_latin(&w, &all), Some("pol"));
        // Umlauts in noise (low confidence) are no evidence.
        let w: Vec<(&str, f32)> = vec![("FÄSARAYA", 0.4), ("BÜRUNG", 0.5), ("ÜBelgzzzz", 0.3)];
        assert_eq!(identify_latin(&w, &all), None);
    }

    #[test]
    fn script_evidence_from_keywords_and_look_alike_letters() {
        let sure = |t: &'static str| -> Vec<(&'static str, f32)> {
            t.split_whitespace().map(|w| (w, 0.9)).collect()
        };
        assert_eq!(
            cyrillic_keyword_hits(&sure("Итого к оплате: 5 000,00 руб. без НДС")),
            5
        );
        // Look-alike and short words are no evidence.
        assert_eq!(cyrillic_keyword_hits(&sure("ООО ТОВ С НА В И")), 0);
        assert_eq!(cyrillic_keyword_hits(&sure("TOTAL CASH CHANGE")), 0);
        assert_eq!(
            latin_keyword_hits(&sure("TOTAL CASH CHANGE Thank you"), &["eng", "deu"]),
            5
        );
        // Latin capitals read by a Cyrillic model against real Russian text.
        assert!(homoglyph_share("САВЕ ТКАРІМС НАВОУУАКЕ").unwrap() > 0.85);
        assert!(homoglyph_share("Счёт на оплату поставщик работ").unwrap() < 0.6);
        assert!(homoglyph_share("INVOICE").is_none());
    }

    #[test]
    fn tells_ukrainian_from_russian() {
        assert_eq!(
            identify_cyrillic("Рахунок-фактура № 5 від 12 березня, Їжак, ґанок"),
            Some("ukr")
        );
        assert_eq!(
            identify_cyrillic("Счёт на оплату № 5, сумма без НДС, объём"),
            Some("rus")
        );
        assert_eq!(identify_cyrillic("Итого 500"), None);
    }

    #[test]
    fn script_from_probe_confidences() {
        assert_eq!(
            decide_script_by_confidence((0.9, 40), (0.4, 38)),
            Some(Script::Latin)
        );
        assert_eq!(
            decide_script_by_confidence((0.3, 40), (0.85, 42)),
            Some(Script::Cyrillic)
        );
        assert_eq!(
            decide_script_by_confidence((0.7, 40), (0.78, 42)),
            Some(Script::Latin)
        );
        assert_eq!(decide_script_by_confidence((0.0, 0), (0.0, 0)), None);
    }

    #[test]
    fn joins_models() {
        assert_eq!(join(&["deu", "eng", "deu"]), "deu+eng");
        assert_eq!(join(&["rus"]), "rus");
    }
}
