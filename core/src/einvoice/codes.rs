//! Code lists of e-invoices: UNTDID 1001 document type codes (BT-3), UN/ECE Recommendation 20
//! (and 21, packaging) unit codes (BT-130) and the UNTDID 5305 VAT category codes of EN 16931
//! (BT-118).

use crate::result::DocumentType;

/// The Result document type of a UNTDID 1001 document name code (BT-3): invoices of every kind
/// (commercial, corrected 384, prepayment 386, self-billed 389, factored 393, partial and final
/// construction invoices, debit notes ...) are INVOICE; credit notes of every kind (381, 261
/// self-billed, 262 consolidated, 396 factored, 532 forwarder's, 81/83 ...) CREDIT_NOTE; 325
/// proforma PROFORMA_INVOICE. 388 "tax invoice" is the ordinary invoice of the Peppol
/// networks that use it, so INVOICE (the Result's TAX_INVOICE is the Ukrainian / Russian
/// document of that name). `None` for a code outside these lists.
pub fn document_type(code: &str) -> Option<DocumentType> {
    let t = match code.trim() {
        "71" | "80" | "82" | "84" | "218" | "219" | "326" | "331" | "380" | "382" | "383"
        | "384" | "385" | "386" | "387" | "388" | "389" | "390" | "393" | "394" | "395" | "456"
        | "527" | "575" | "623" | "633" | "751" | "780" | "875" | "876" | "877" | "935" => {
            DocumentType::Invoice
        }
        "81" | "83" | "261" | "262" | "296" | "308" | "381" | "396" | "420" | "458" | "532" => {
            DocumentType::CreditNote
        }
        "325" => DocumentType::ProformaInvoice,
        _ => return None,
    };
    Some(t)
}

/// UN/ECE Recommendation 20 / 21 unit codes common in invoicing, with a readable name.
const UNITS: &[(&str, &str)] = &[
    // Counts.
    ("H87", "piece"),
    ("C62", "unit"),
    ("EA", "each"),
    ("XPP", "piece"),
    ("NAR", "article"),
    ("NPR", "pair"),
    ("PR", "pair"),
    ("SET", "set"),
    ("DZN", "dozen"),
    ("HD", "half dozen"),
    ("GRO", "gross"),
    ("CEN", "hundred"),
    ("TP", "ten pack"),
    ("P1", "percent"),
    ("LS", "lump sum"),
    ("ZZ", "mutually defined"),
    ("E49", "working day"),
    ("E48", "service unit"),
    ("IE", "person"),
    ("NMP", "number of packs"),
    ("NPL", "number of parcels"),
    ("QD", "quarter dozen"),
    // Time.
    ("SEC", "second"),
    ("MIN", "minute"),
    ("HUR", "hour"),
    ("DAY", "day"),
    ("WEE", "week"),
    ("MON", "month"),
    ("QAN", "quarter"),
    ("ANN", "year"),
    // Mass.
    ("MGM", "milligram"),
    ("GRM", "gram"),
    ("KGM", "kilogram"),
    ("DTN", "decitonne"),
    ("TNE", "tonne"),
    ("LBR", "pound"),
    ("ONZ", "ounce"),
    // Length.
    ("MMT", "millimetre"),
    ("CMT", "centimetre"),
    ("DMT", "decimetre"),
    ("MTR", "metre"),
    ("KMT", "kilometre"),
    ("INH", "inch"),
    ("FOT", "foot"),
    ("YRD", "yard"),
    ("SMI", "mile"),
    ("LM", "linear metre"),
    // Area.
    ("CMK", "square centimetre"),
    ("MTK", "square metre"),
    ("KMK", "square kilometre"),
    ("HAR", "hectare"),
    ("FTK", "square foot"),
    // Volume.
    ("MLT", "millilitre"),
    ("CLT", "centilitre"),
    ("DLT", "decilitre"),
    ("LTR", "litre"),
    ("HLT", "hectolitre"),
    ("CMQ", "cubic centimetre"),
    ("DMQ", "cubic decimetre"),
    ("MTQ", "cubic metre"),
    ("GLL", "gallon"),
    // Energy, power, data.
    ("WHR", "watt hour"),
    ("KWH", "kilowatt hour"),
    ("MWH", "megawatt hour"),
    ("GWH", "gigawatt hour"),
    ("KWT", "kilowatt"),
    ("MAW", "megawatt"),
    ("KVA", "kilovolt ampere"),
    ("AMP", "ampere"),
    ("VLT", "volt"),
    ("D32", "terawatt hour"),
    ("4L", "megabyte"),
    ("E34", "gigabyte"),
    ("E35", "terabyte"),
    ("AD", "byte"),
    // Transport.
    ("KTM", "kilometre"),
    ("TKM", "tonne kilometre"),
    // Packaging (Recommendation 21).
    ("XBX", "box"),
    ("XPK", "package"),
    ("XPA", "packet"),
    ("XCT", "carton"),
    ("XCR", "crate"),
    ("XBG", "bag"),
    ("XSA", "sack"),
    ("XBO", "bottle"),
    ("XCA", "can"),
    ("XCN", "container"),
    ("XPX", "pallet"),
    ("XPL", "pail"),
    ("XRO", "roll"),
    ("XTU", "tube"),
    ("XBE", "bundle"),
    ("XEN", "envelope"),
    ("XKI", "kit"),
    ("XDR", "drum"),
    ("XBA", "barrel"),
    ("XJR", "jar"),
    ("XRL", "reel"),
    ("XST", "sheet"),
    ("XTY", "tank"),
    ("XSX", "set"),
    ("XCL", "coil"),
    ("XAE", "aerosol"),
];

/// The readable name of a UN/ECE Recommendation 20 (or 21) unit code (`HUR` → "hour"); a code
/// outside the table is returned as it is.
pub fn unit_name(code: &str) -> String {
    let code = code.trim();
    UNITS
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map_or_else(|| code.to_string(), |(_, n)| (*n).to_string())
}

/// Printed unit words of many languages (lower case, without a trailing `.` or `(s)`) and
/// their UN/ECE Recommendation 20 code.
const PRINTED_UNITS: &[(&str, &[&str])] = &[
    (
        "H87",
        &[
            "stk",
            "stück",
            "stueck",
            "st",
            "pcs",
            "pc",
            "pce",
            "piece",
            "pieces",
            "szt",
            "ks",
            "kus",
            "ud",
            "uds",
            "pz",
            "pezzi",
            "db",
            "tk",
            "vnt",
            "buc",
            "gab",
            "шт",
            "штук",
            "штука",
            "pièce",
            "pièces",
            "stuks",
            "kpl",
            "kappale",
        ],
    ),
    (
        "C62",
        &[
            "unit", "units", "unité", "unités", "ea", "each", "einheit", "unidad",
            // pt / es / it: `un.`, `und.`, `unid.`, `unità`.
            "un", "und", "unid", "unidade", "unidades", "unità",
        ],
    ),
    (
        "HUR",
        &[
            "h",
            "hr",
            "hrs",
            "hour",
            "hours",
            "std",
            "stunde",
            "stunden",
            "heure",
            "heures",
            "ore",
            "ora",
            "godz",
            "час",
            "часы",
            "год",
            "година",
            "hod",
            "hodina",
            "timer",
            "tim",
            "timme",
            "uur",
            "óra",
            "tunti",
            "tundi",
            "val",
            "valanda",
            "stunda",
            "hora",
            "horas",
        ],
    ),
    (
        "DAY",
        &[
            "day", "days", "tag", "tage", "jour", "jours", "dzień", "dni", "день", "дн", "дней",
            "dag", "dagen", "giorno", "giorni", "día", "días", "den", "dny", "nap",
        ],
    ),
    (
        "MON",
        &[
            "month",
            "months",
            "monat",
            "monate",
            "mois",
            "miesiąc",
            "месяц",
            "мес",
        ],
    ),
    (
        "WEE",
        &["week", "weeks", "woche", "wochen", "semaine", "tydzień"],
    ),
    ("KGM", &["kg", "кг", "kilogram", "kilogramm"]),
    ("GRM", &["g", "gr", "г"]),
    ("TNE", &["t", "т", "tonne", "tonnes", "ton"]),
    (
        "LTR",
        &[
            "l", "ltr", "liter", "litre", "litres", "liters", "л", "litr", "litri",
        ],
    ),
    (
        "MTR",
        &[
            "m", "м", "mtr", "meter", "metre", "metres", "meters", "metr",
        ],
    ),
    ("MTK", &["m2", "m²", "qm", "sqm", "м2", "м²", "кв.м"]),
    ("MTQ", &["m3", "m³", "cbm", "м3", "м³", "куб.м"]),
    ("KMT", &["km", "км"]),
    (
        "SET",
        &["set", "sets", "satz", "komplet", "компл", "комплект"],
    ),
    ("PR", &["pair", "pairs", "paar", "paire", "пара"]),
    ("LS", &["pauschal", "pausch", "lump", "forfait", "flat"]),
];

/// The UN/ECE Recommendation 20 code of a unit as invoices print it (`Stk.` → `H87`, `Std` →
/// `HUR`, `кг` → `KGM`, `Liter(s)` → `LTR`); `None` for a word outside the vocabulary.
pub fn unit_code_of_printed(unit: &str) -> Option<&'static str> {
    let w = unit.trim().to_lowercase();
    let w = w.trim_end_matches("(s)").trim_end_matches('.');
    PRINTED_UNITS
        .iter()
        .find(|(_, words)| words.contains(&w))
        .map(|(code, _)| *code)
        .or_else(|| printed_code(unit.trim()))
}

/// A UN/ECE code printed as it is (`C62`, `XPK`, `HUR`: e-invoice renderings print the XML's
/// unit code): three capitals or digits, exactly as the table spells it.
fn printed_code(w: &str) -> Option<&'static str> {
    (w.len() == 3
        && w.starts_with(|c: char| c.is_ascii_uppercase())
        && w.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
    .then(|| UNITS.iter().find(|(c, _)| *c == w).map(|(c, _)| *c))
    .flatten()
}

/// The name of an EN 16931 VAT category code (UNTDID 5305 subset, BT-118 / BT-151).
pub fn vat_category_name(code: &str) -> Option<&'static str> {
    Some(match code.trim() {
        "S" => "standard rate",
        "Z" => "zero rated goods",
        "E" => "exempt from tax",
        "AE" => "VAT reverse charge",
        "K" => "intra-community supply (VAT exempt for EEA)",
        "G" => "free export item, tax not charged",
        "O" => "services outside scope of tax",
        "L" => "Canary Islands general indirect tax (IGIC)",
        "M" => "tax for production, services and importation in Ceuta and Melilla (IPSI)",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_types() {
        for (code, t) in [
            ("380", DocumentType::Invoice),
            ("384", DocumentType::Invoice),
            ("386", DocumentType::Invoice),
            ("389", DocumentType::Invoice),
            ("393", DocumentType::Invoice),
            ("82", DocumentType::Invoice),
            ("381", DocumentType::CreditNote),
            ("261", DocumentType::CreditNote),
            ("262", DocumentType::CreditNote),
            ("396", DocumentType::CreditNote),
            ("532", DocumentType::CreditNote),
            ("325", DocumentType::ProformaInvoice),
            ("388", DocumentType::Invoice),
            (" 381 ", DocumentType::CreditNote),
        ] {
            assert_eq!(document_type(code), Some(t), "{code}");
        }
        assert_eq!(document_type("999"), None);
        assert_eq!(document_type(""), None);
    }

    #[test]
    fn units() {
        assert_eq!(unit_name("H87"), "piece");
        assert_eq!(unit_name("C62"), "unit");
        assert_eq!(unit_name("HUR"), "hour");
        assert_eq!(unit_code_of_printed("Stk."), Some("H87"));
        assert_eq!(unit_code_of_printed("Liter(s)"), Some("LTR"));
        assert_eq!(unit_code_of_printed("Std"), Some("HUR"));
        assert_eq!(unit_code_of_printed("кг"), Some("KGM"));
        assert_eq!(unit_code_of_printed("Stahlcoil"), None);
        // The code itself, as e-invoice renderings print it; not in lower case, not a word.
        assert_eq!(unit_code_of_printed("C62"), Some("C62"));
        assert_eq!(unit_code_of_printed("XPK"), Some("XPK"));
        assert_eq!(unit_code_of_printed("E48"), Some("E48"));
        assert_eq!(unit_code_of_printed("c62"), None);
        assert_eq!(unit_code_of_printed("Q99"), None);
        assert_eq!(unit_code_of_printed("ZZ"), None);
        assert_eq!(unit_name("KGM"), "kilogram");
        assert_eq!(unit_name("MTK"), "square metre");
        assert_eq!(unit_name("XBX"), "box");
        assert_eq!(unit_name("kwh"), "kilowatt hour");
        assert_eq!(unit_name("Q99"), "Q99");
        let mut codes: Vec<&str> = UNITS.iter().map(|(c, _)| *c).collect();
        codes.sort_unstable();
        let n = codes.len();
        codes.dedup();
        assert_eq!(codes.len(), n, "duplicate unit code");
    }

    #[test]
    fn vat_categories() {
        assert_eq!(vat_category_name("S"), Some("standard rate"));
        assert_eq!(vat_category_name("AE"), Some("VAT reverse charge"));
        assert_eq!(vat_category_name("X"), None);
    }
}
